"""Human-evaluation campaigns (MT and other rated outputs) planned from last year's published judgments.

Modules
-------
:mod:`~core.humaneval.readers` (with ``google``, ``appraise``, ``mqm``)
    :func:`read_scores` reads Google's WMT MQM files (segment scores and error annotations), mt-metrics-eval
    ``.seg.score`` files, Appraise exports (DA, ESA, MQM), WMT DA tables and any long table into one long table
    (system, item, rater, score) with its protocol.
:mod:`~core.humaneval.systems`
    :func:`system_table` summarises it per system; :func:`default_pair` picks the two closest systems at the top.
:mod:`~core.humaneval.protocols`
    The protocols' scales, default parameters (with their sources) and suitable tests.
:mod:`~core.humaneval.fit`
    :func:`fit_campaign`: a campaign's mean, SD, ceiling/floor share, rater and segment variance components
    (REML) and the differences between its systems.
:mod:`~core.humaneval.resample`
    :func:`resampled_power`: power of a design from the real judgments of two systems (resampled campaigns).
:mod:`~core.humaneval.raters`
    :func:`raters_per_segment`: ratings per segment vs more segments for a budget.
"""

from __future__ import annotations

from .mqm import MQM_WEIGHTS, mqm_weight
from .readers import FORMATS, PROTOCOLS, ROLES, column_names, guess_roles, read_scores, sniff_format
from .systems import TOP_SYSTEMS, default_pair, system_table
from .fit import SLIDER_RANGES, CampaignFit, VarianceComponents, fit_campaign, slider_values, variance_components  # noqa: E402,E501
from .protocols import PROTOCOL_DEFAULTS, Protocol, protocol_table, to_campaign_scale  # noqa: E402
from .raters import RatersPlan, raters_per_segment  # noqa: E402
from .resample import SystemPool, mwu_looks_ties, resampled_curves, resampled_power, system_pool  # noqa: E402

__all__ = [
    "read_scores", "sniff_format", "guess_roles", "column_names", "system_table", "default_pair", "PROTOCOLS", "FORMATS", "ROLES",
    "MQM_WEIGHTS", "mqm_weight", "TOP_SYSTEMS",
    "CampaignFit", "VarianceComponents", "fit_campaign", "slider_values", "SLIDER_RANGES", "variance_components", "PROTOCOL_DEFAULTS", "Protocol",
    "protocol_table", "to_campaign_scale", "RatersPlan", "raters_per_segment", "resampled_power", "resampled_curves",
    "mwu_looks_ties", "system_pool", "SystemPool",
]

"""Human evaluation campaigns of MT (DA, DA+SQM, MQM, ESA) planned from last year's judgments.

Modules
-------
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

from .fit import CampaignFit, VarianceComponents, fit_campaign, variance_components  # noqa: F401
from .protocols import PROTOCOL_DEFAULTS, Protocol, protocol_table, to_campaign_scale  # noqa: F401
from .raters import RatersPlan, raters_per_segment  # noqa: F401
from .resample import SystemPool, mwu_looks_ties, resampled_curves, resampled_power, system_pool  # noqa: F401

__all__ = ["CampaignFit", "VarianceComponents", "fit_campaign", "variance_components", "PROTOCOL_DEFAULTS",
           "Protocol", "protocol_table", "to_campaign_scale", "RatersPlan", "raters_per_segment", "resampled_power",
           "resampled_curves", "mwu_looks_ties", "system_pool", "SystemPool"]

"""Human-evaluation campaigns (MT and other rated outputs): last year's judgments, read from published files.

* :func:`read_scores` reads Google's WMT MQM files (segment scores and error annotations), mt-metrics-eval
  ``.seg.score`` files, Appraise exports (DA, ESA, MQM), WMT DA tables and any long table into one long table
  (system, item, rater, score) with its protocol (``readers``, ``mqm``).
* :func:`system_table` summarises it per system; :func:`default_pair` picks the two closest systems at the top
  (``systems``).
"""

from __future__ import annotations

from .mqm import MQM_WEIGHTS, mqm_weight
from .readers import FORMATS, PROTOCOLS, ROLES, guess_roles, read_scores, sniff_format
from .systems import TOP_SYSTEMS, default_pair, system_table

__all__ = [
    "read_scores",
    "sniff_format",
    "guess_roles",
    "system_table",
    "default_pair",
    "PROTOCOLS",
    "FORMATS",
    "ROLES",
    "MQM_WEIGHTS",
    "mqm_weight",
    "TOP_SYSTEMS",
]

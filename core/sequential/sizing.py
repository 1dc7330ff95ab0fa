"""Judgments a DA campaign needs for a target power (Wei, Kocmi & Federmann 2022, §6.1 and §7).

The planned budget of each procedure — fixed, interim, interim-futility — whose power reaches the target, from
the campaign engine's analytic power (recursive integration), searched over every budget with
:func:`core.sizing.sample_size_search` (first and conservative sizes, as every other size in the package).
"""

from __future__ import annotations

# The search lives beside the campaign engine and its design (``CampaignDesign.sample_sizes``), so the two modules
# do not import each other; this module keeps the name where the documentation points.
from .campaign import campaign_sample_size

__all__ = ["campaign_sample_size"]

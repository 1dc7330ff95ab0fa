"""The Claims page's home-page card: the chance that every claimed gain holds after Holm's correction (Holm 1979)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import DEFAULT_CLAIMS, ClaimsDesign

__all__ = ["CLAIMS_DEFAULT", "claims_teaser"]

#: The "Many claims at once" page's default table: (benchmark, n, gain in points, agreement in %).
CLAIMS_DEFAULT = DEFAULT_CLAIMS
#: How the card's sentence names each correction (Holm 1979; Benjamini & Hochberg 1995).
_AFTER = {"none": "without a correction", "bonferroni": "after Bonferroni's correction",
          "holm": "after Holm's correction", "bh": "after the Benjamini–Hochberg correction"}


def claims_teaser(design: ClaimsDesign | None = None) -> Teaser:
    """Several claimed gains: the chance that all hold after the correction, at ``design`` (default: the Claims
    page's default :class:`core.claims.ClaimsDesign`, five benchmarks under Holm's correction).

    Each benchmark's power is McNemar's normal-form power (:func:`core.accuracy.mcnemar_power`, ``test="normal"``,
    at least α as on the page); the family is :func:`core.multiplicity.family_power` with the design's correlation,
    the page's seeded simulation of 20,000 families (seed 0: the same number as the page, in about 10 ms).

    Examples
    --------
    >>> claims_teaser().shown
    '5.0%'
    """
    design = ClaimsDesign() if design is None else design
    family = design.power(n_sims=20_000, seed=0)
    m = len(design.rows)
    return Teaser("claims", f"{m} benchmark gains in one paper: {fmt_pct(family.all, 0)} chance that all "
                  f"hold {_AFTER[design.correction]}.", f"All {m} claims hold", family.all, fmt_pct(family.all))


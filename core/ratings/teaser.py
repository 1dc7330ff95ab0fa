"""The Ratings page's home-page card: analytic REML + Satterthwaite power at the page's defaults (Card et al. 2020,
§5.2)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import RatingsDesign

__all__ = ["ratings_teaser"]


def ratings_teaser(design: RatingsDesign | None = None) -> Teaser:
    """Human ratings: analytic REML + Satterthwaite power at ``design`` (default: the Ratings page's default
    :class:`core.ratings.RatingsDesign`).

    The default: 3 workers each rating 100 items under both systems, β1 = 0.1 (a 0.2 difference in mean rating on
    [0, 1]), the "high" variance components of Card et al. (2020), Table 16 (:func:`core.ratings.likert_power`).

    Examples
    --------
    >>> ratings_teaser().shown
    '15.9%'
    """
    design = RatingsDesign() if design is None else design
    power = design.analytic_power()
    return Teaser("ratings", f"{design.workers} workers rating {design.items} items: {fmt_pct(power, 0)} power for a "
                  f"{2 * design.effect:g} difference in mean rating.", "Power", power, fmt_pct(power))

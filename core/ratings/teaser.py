"""The Ratings page's home-page card: analytic REML + Satterthwaite power at the page's defaults (Card et al. 2020,
§5.2)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import RatingsDesign

__all__ = ["ratings_teaser"]


def ratings_teaser(*, workers=3, items=100, effect=0.1, alpha=0.05) -> Teaser:
    """Human ratings: analytic REML + Satterthwaite power (the Ratings page's defaults).

    3 workers each rating 100 items under both systems, β1 = 0.1 (a 0.2 difference in mean rating on [0, 1]),
    the "high" variance components of Card et al. (2020), Table 16 (:func:`core.ratings.likert_power`): the page's
    default :class:`core.ratings.RatingsDesign` with these four fields.

    Examples
    --------
    >>> ratings_teaser().shown
    '15.9%'
    """
    power = RatingsDesign().with_(workers=workers, items=items, effect=effect, alpha=alpha).analytic_power()
    return Teaser("ratings", f"{workers} workers rating {items} items: {fmt_pct(power, 0)} power for a "
                  f"{2 * effect:g} difference in mean rating.", "Power", power, fmt_pct(power))

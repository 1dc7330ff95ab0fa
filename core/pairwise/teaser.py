"""The Leaderboard page's home-page card: power to tell the closest neighbours apart (Bradley & Terry 1952)."""

from __future__ import annotations

import numpy as np

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import LeaderboardDesign

__all__ = ["leaderboard_teaser"]

def leaderboard_teaser(design: LeaderboardDesign | None = None) -> Teaser:
    """A leaderboard from pairwise votes: power for the closest neighbours at ``design`` (default: the Leaderboard
    page's default :class:`core.pairwise.LeaderboardDesign`).

    The default: 6 systems evenly spaced 25 Elo apart, 5,000 votes spread over the pairs, no ties, an exact judge
    (:func:`core.pairwise.leaderboard_power`, Bradley–Terry Fisher information).

    Examples
    --------
    >>> leaderboard_teaser().shown
    '60.8%'
    """
    design = LeaderboardDesign() if design is None else design
    ratings = design.expected_ratings()
    power = design.power().weakest_power
    return Teaser("leaderboard", f"{len(ratings)} systems {_spacing(design, ratings)}, {design.n:,} votes: "
                  f"{fmt_pct(power, 0)} power to tell neighbours apart.", "Weakest neighbours' power", power,
                  fmt_pct(power))


def _spacing(design: LeaderboardDesign, ratings) -> str:
    """How the systems are spread, in words: "25 Elo apart" (evenly spaced), or the preset's or table's gaps."""
    if design.preset == "even":
        return f"{design.gap_elo:g} Elo apart"
    gaps = np.diff(np.sort(ratings.to_numpy(dtype=float))) + 0.0  # ascending: gaps ≥ 0 (+ 0.0 turns −0 into 0)
    return f"{gaps.min():g} to {gaps.max():g} Elo apart" if len(gaps) else "rated alike"

"""The Leaderboard page's home-page card: power to tell the closest neighbours apart (Bradley & Terry 1952)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import LeaderboardDesign

__all__ = ["leaderboard_teaser"]

#: The Leaderboard page's default design (the teaser's defaults).
_BOARD = LeaderboardDesign()


def leaderboard_teaser(*, systems=_BOARD.k, gap=_BOARD.gap_elo, n_votes=_BOARD.n, alpha=_BOARD.alpha) -> Teaser:
    """A leaderboard from pairwise votes: power for the closest neighbours (the Leaderboard page's defaults).

    6 systems evenly spaced 25 Elo apart, 5,000 votes spread over the pairs, no ties, an exact judge — the default
    :class:`core.pairwise.LeaderboardDesign` (:func:`core.pairwise.leaderboard_power`, Bradley–Terry Fisher
    information).

    Examples
    --------
    >>> leaderboard_teaser().shown
    '60.8%'
    """
    power = _BOARD.with_(k=systems, gap=gap, n=n_votes, alpha=alpha).power().weakest_power
    return Teaser("leaderboard", f"{systems} systems {gap:g} Elo apart, {n_votes:,} votes: {fmt_pct(power, 0)} power "
                  "to tell neighbours apart.", "Weakest neighbours' power", power, fmt_pct(power))

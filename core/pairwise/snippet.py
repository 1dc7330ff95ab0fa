"""The Leaderboard page's "Python code for this view": Bradley–Terry power on the Elo scale with
:mod:`core.pairwise` (Bradley & Terry 1952).

The shared header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations

import math

from ..snippets import HEADER, literal
from . import LeaderboardDesign
from ..validation import check_type

__all__ = ["leaderboard_snippet"]


def leaderboard_snippet(design: LeaderboardDesign) -> str:
    """Script for the leaderboard page (:mod:`core.pairwise`, Bradley–Terry on the Elo scale) at ``design``.

    The design gives the expected ratings (its preset or table, :meth:`LeaderboardDesign.board`), the votes, the
    ties and their handling, the judge's accuracy, α and the target power; with ``assure`` on, the assurance over a
    normal prior of SD ``delta_sd`` Elo on each gap is printed too.

    Examples
    --------
    >>> code = leaderboard_snippet(LeaderboardDesign())
    >>> "n_votes, target_power = 5000, 0.8" in code and "assurance" not in code
    True
    """
    check_type("design", design, LeaderboardDesign)
    board = design.board()
    ratings, tie_rate, ties, judge_accuracy, alpha = (dict(board.ratings), design.tie_rate, design.ties,
                                                      design.judge_accuracy, design.alpha)
    n_votes, target_power, gap_sd = design.n, design.target_power, design.delta_sd if design.assure else None
    lines = [HEADER, "from core import pairwise as pw", "",
             f"ratings = pd.Series({literal({str(k): float(v) for k, v in ratings.items()})})",
             f"options = dict(tie_rate={literal(float(tie_rate))}, ties={ties!r}, "
             f"judge_accuracy={literal(float(judge_accuracy))}, alpha={literal(float(alpha))})",
             f"n_votes, target_power = {int(n_votes)!r}, {literal(float(target_power))}",
             "res = pw.leaderboard_power(n_votes, ratings, **options)",
             "print(\"Weakest neighbours' power:\", pct(res.weakest_power))",
             "needed = pw.leaderboard_votes(ratings, target_power=target_power, **options)",
             "print(f'Votes for {target_power:.0%} on every pair:', 'not reachable' if needed < 0 else f'{needed:,}')",
             "print('P(whole order right):', pct(res.order_correct))",
             "print('Typical interval:', '—' if not math.isfinite(res.typical_halfwidth) else "
             "f'± {res.typical_halfwidth:.1f} Elo')"]
    if gap_sd is not None and math.isfinite(gap_sd):
        lines += [f"assured = pw.leaderboard_assurance(n_votes, ratings, {literal(float(gap_sd))}, **options)",
                  "print(\"Weakest neighbours' assurance:\", pct(assured.min_assurance))"]
    return "\n".join(lines) + "\n"

"""The Leaderboard page's "Python code for this view": Bradley–Terry power on the Elo scale with
:mod:`core.pairwise` (Bradley & Terry 1952).

The shared header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..snippets import HEADER, literal

__all__ = ["leaderboard_snippet"]


def leaderboard_snippet(*, n_votes: int, ratings: Mapping, tie_rate: float, ties: str, judge_accuracy: float,
                        alpha: float, target_power: float, gap_sd: float | None = None) -> str:
    """Script for the leaderboard page (:mod:`core.pairwise`, Bradley–Terry on the Elo scale)."""
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

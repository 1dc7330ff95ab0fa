"""Tidy curves for the Leaderboard page.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..accuracy import preference_curves
from ..validation import check_int
from ._common import _N_MAX, _check_judge, _validate
from .analytic import _analytic_order, _analytic_power, _design, _two_cells, _two_order_correct
from .power import leaderboard_power
from .votes import _votes_needed

__all__ = [
    "adjacent_power_curve",
    "leaderboard_table",
    "order_correct_curve",
    "votes_vs_judge",
]


# ---------------------------------------------------------------------------
# page curves (tidy DataFrames)
# ---------------------------------------------------------------------------
def _votes_array(votes) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(votes))
    if arr.size == 0 or arr.size > 10_000:
        raise ValueError(f"`votes` must list between 1 and 10,000 vote totals, got {arr.size}.")
    return np.array([check_int("votes", v.item() if hasattr(v, "item") else v, low=1, high=_N_MAX) for v in arr],
                    dtype=np.int64)


def adjacent_power_curve(ratings, votes, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0,
                         alpha=0.05) -> pd.DataFrame:
    """Power of each adjacent pair against the total number of votes (analytic; K = 2 exact).

    Returns
    -------
    pandas.DataFrame
        One row per pair × vote total: ``pair, upper, lower, gap, n_votes, power``
        (pairs in true order).

    Examples
    --------
    >>> adjacent_power_curve([1100, 1050, 1000], [300, 3000]).round(3)
           pair upper lower   gap  n_votes  power
    0  S1 vs S2    S1    S2  50.0      300  0.411
    1  S1 vs S2    S1    S2  50.0     3000  1.000
    2  S2 vs S3    S2    S3  50.0      300  0.411
    3  S2 vs S3    S2    S3  50.0     3000  1.000
    """
    names, values, _, tie_rate, ties, judge, alpha, *_ = _validate(
        ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha)
    ns = _votes_array(votes)
    des = _design(tuple(values), tie_rate, ties, judge)
    if values.size == 2:
        p_a, p_b, _ = _two_cells(des, tie_rate)
        power = preference_curves(ns, [(p_a, p_b)], alpha=alpha, ties="drop", test="exact")["power"].to_numpy()
        power = power[:, None]
    else:
        power = _analytic_power(des, ns, alpha)
    upper = [names[a] for a in des.order[:-1]]
    lower = [names[b] for b in des.order[1:]]
    npair = len(upper)
    return pd.DataFrame({
        "pair": np.repeat([f"{a} vs {b}" for a, b in zip(upper, lower)], ns.size),
        "upper": np.repeat(upper, ns.size), "lower": np.repeat(lower, ns.size),
        "gap": np.repeat(des.gap, ns.size), "n_votes": np.tile(ns, npair), "power": power.T.ravel(),
    })


def order_correct_curve(ratings, votes, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0) -> pd.DataFrame:
    """P(estimated order = true order) against the total number of votes.

    Analytic normal approximation (K ≥ 3; the same quasi-Monte Carlo points
    at every N, so the curve is smooth) or the exact binomial sum (K = 2).

    Returns
    -------
    pandas.DataFrame
        ``n_votes, order_correct, mc_se``.

    Examples
    --------
    >>> order_correct_curve([1100, 1000], [10, 100]).round(3)
       n_votes  order_correct  mc_se
    0       10          0.729    0.0
    1      100          0.997    0.0
    """
    _, values, _, tie_rate, ties, judge, *_ = _validate(ratings, tie_rate=tie_rate, ties=ties,
                                                          judge_accuracy=judge_accuracy)
    ns = _votes_array(votes)
    des = _design(tuple(values), tie_rate, ties, judge)
    if values.size == 2:
        se = np.zeros(ns.size)
        prob = np.full(ns.size, np.nan) if des.gap[0] <= 0 else _two_order_correct(
            ns, _two_cells(des, tie_rate)[2], tie_rate)
    else:
        prob, se = _analytic_order(des, ns)
    return pd.DataFrame({"n_votes": ns, "order_correct": prob, "mc_se": se})


def votes_vs_judge(ratings, judge_accuracies, *, target_power=0.8, tie_rate=0.0, ties="drop", alpha=0.05,
                   halfwidth=None) -> pd.DataFrame:
    """Votes needed (:func:`leaderboard_votes`) against the judge's accuracy.

    For K ≥ 3 each point is a closed form (about 2 ms for 20 systems). For
    K = 2 each point is the exact sample-size search of the Accuracy page
    (:func:`core.accuracy.preference_sample_sizes`, 0.1–1.5 s for small
    gaps), so use a handful of accuracies there.

    Returns
    -------
    pandas.DataFrame
        ``judge_accuracy, n_votes, relative`` (votes relative to a perfect
        judge, q = 1); ``n_votes`` is ``-1`` (and ``relative`` ``nan``) when unreachable.

    Examples
    --------
    >>> from core.pairwise import evenly_spaced
    >>> votes_vs_judge(evenly_spaced(5, 50), [1.0, 0.8])
       judge_accuracy  n_votes  relative
    0             1.0     1661  1.000000
    1             0.8     4839  2.913305
    """
    _, values, _, tie_rate, ties, _, alpha, _, _, target_power, halfwidth = _validate(
        ratings, tie_rate=tie_rate, ties=ties, alpha=alpha, target_power=target_power, halfwidth=halfwidth)
    qs = np.atleast_1d(np.asarray(judge_accuracies, dtype=float))
    if qs.size == 0 or qs.size > 1000:
        raise ValueError(f"`judge_accuracies` must list between 1 and 1,000 values, got {qs.size}.")
    qs = np.array([_check_judge(float(q)) for q in qs])
    key = tuple(values)

    def needed_at(q):
        return _votes_needed(_design(key, tie_rate, ties, q), values.size, tie_rate, target_power, alpha, halfwidth,
                             False, _N_MAX)

    base = needed_at(1.0)
    needed = np.array([needed_at(q) for q in qs], dtype=np.int64)
    rel = np.where((needed > 0) & (base > 0), needed / max(base, 1), np.nan)
    return pd.DataFrame({"judge_accuracy": qs, "n_votes": needed, "relative": rel})


def leaderboard_table(ratings, n_votes, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0) -> pd.DataFrame:
    """The expected leaderboard at ``n_votes`` with 95% intervals, best first (arena style).

    Returns
    -------
    pandas.DataFrame
        ``rank, system, rating, expected_rating, ci_low, ci_high, halfwidth,
        coverage`` (see :class:`LeaderboardPower`): intervals around the
        rating the fit converges to.

    Examples
    --------
    >>> leaderboard_table([1100, 1050, 1000], 3_000)[["system", "ci_low", "ci_high"]].round(1)
      system  ci_low  ci_high
    0     S1  1089.6   1110.4
    1     S2  1039.7   1060.3
    2     S3   989.6   1010.4
    """
    return leaderboard_power(n_votes, ratings, tie_rate=tie_rate, ties=ties,
                             judge_accuracy=judge_accuracy).systems_table()



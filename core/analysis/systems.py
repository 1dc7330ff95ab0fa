"""Many systems: every pair tested at once, vectorized across pairs, with Holm or Bonferroni corrections."""

from __future__ import annotations

import math

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
from scipy import stats

from statsmodels.stats.multitest import multipletests

from ..validation import check_alpha, check_choice, check_int, rng_of
from . import _common
from ._common import _check_values, _CHUNK, _THREADS
from ._resampling import _bootstrap_test, _permutation_test, _sign_pvalues, _signed_rank_pvalues

# ---------------------------------------------------------------------------
# many systems
# ---------------------------------------------------------------------------
def pairwise_comparisons(systems: pd.DataFrame, *, test="t", alpha=0.05, seed=None, n_resamples=2000) -> pd.DataFrame:
    """All pairwise tests among K systems with Holm and Bonferroni corrections (NLPStatTest Figure 4).

    Parameters
    ----------
    systems : DataFrame
        One numeric column per system (2 … :data:`MAX_SYSTEMS`), at least 3 rows.
    test : {"t", "wilcoxon", "sign", "permutation", "bootstrap"}, optional
        Two-sided test applied to every pair.
    alpha : float, optional
    seed : int, optional
        Seed of the resampling tests (the same seed for every pair).
    n_resamples : int, optional
        Resamples per pair for the permutation and bootstrap tests (of the mean).

    Returns
    -------
    pandas.DataFrame
        ``system_a, system_b, mean_difference, p_value, p_holm, p_bonferroni,
        significant_holm, significant_bonferroni`` (statsmodels ``multipletests``).

    Raises
    ------
    ValueError
        For more than :data:`MAX_SYSTEMS` systems, non-finite values, a
        Wilcoxon test ranking more than :data:`PAIRWISE_RANK_WORK` differences
        (pairs × rows), or a permutation/bootstrap test whose work (pairs ×
        rows × resamples) exceeds :data:`PAIRWISE_WORK` — the message says
        what to reduce.

    Notes
    -----
    The t, sign and Wilcoxon tests run on all pairs at once, in chunks of
    pairs (the differences of one chunk take ≈ 32 MB): O(K² n) for t and sign,
    O(K² n log n) for Wilcoxon, each p-value equal to the one-pair test's
    (scipy ``ttest_rel``, ``binomtest``, ``wilcoxon``).
    """
    if not isinstance(systems, pd.DataFrame) or systems.shape[1] < 2:
        raise ValueError("`systems` must be a table with at least two system columns.")
    test = check_choice("test", test, ("t", "wilcoxon", "sign", "permutation", "bootstrap"))
    alpha = check_alpha(alpha)
    n_resamples = check_int("n_resamples", n_resamples, low=99, high=1_000_000)
    k = systems.shape[1]
    if k > _common.MAX_SYSTEMS:
        raise ValueError(f"`systems` has {k:,} columns; at most {_common.MAX_SYSTEMS} systems can be compared pairwise.")
    try:
        values = systems.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise ValueError("`systems` must hold numbers only.") from None
    n = values.shape[0]
    if n < 3:
        raise ValueError(f"At least 3 rows are needed; `systems` has {n}.")
    _check_values(values, "systems")
    names = list(systems.columns)
    first, second = np.triu_indices(k, 1)  # the order of itertools.combinations
    pairs = first.size
    if test in ("permutation", "bootstrap"):
        limit = _common.PERMUTATION_WORK if test == "permutation" else _common.BOOTSTRAP_WORK
        per_pair = n * n_resamples if n * n_resamples <= limit else n
        if pairs * per_pair > _common.PAIRWISE_WORK:
            most = int((1 + math.sqrt(1 + 8 * _common.PAIRWISE_WORK / per_pair)) / 2)
            raise ValueError(
                f"The {test} test on all {pairs:,} pairs of {k} systems × {n:,} rows × {n_resamples:,} resamples is "
                f"too much work ({pairs * per_pair:.2g} resampled values; at most {_common.PAIRWISE_WORK:.2g}). Choose the t, "
                f"sign or Wilcoxon test, or compare at most {max(most, 2)} systems (or use fewer rows or resamples).")
    if test == "wilcoxon" and pairs * n > _common.PAIRWISE_RANK_WORK:
        most = int((1 + math.sqrt(1 + 8 * _common.PAIRWISE_RANK_WORK / n)) / 2)
        raise ValueError(
            f"The Wilcoxon test on all {pairs:,} pairs of {k} systems × {n:,} rows ranks {pairs * n:.2g} differences "
            f"(at most {_common.PAIRWISE_RANK_WORK:.2g}). Choose the t or sign test, or compare at most {max(most, 2)} "
            "systems (or use fewer rows).")
    columns = np.ascontiguousarray(values.T)  # one row per system
    mean_diff = np.empty(pairs)
    p = np.empty(pairs)
    chunk = max(1, _CHUNK // n)

    def run(start):
        stop = min(pairs, start + chunk)
        diff = columns[first[start:stop]] - columns[second[start:stop]]
        mean_diff[start:stop] = diff.mean(axis=1)
        if test == "t":
            p[start:stop] = _t_pvalues_rows(diff)
        elif test == "sign":
            p[start:stop] = _sign_pvalues((diff > 0).sum(axis=1), (diff < 0).sum(axis=1))
        elif test == "wilcoxon":
            p[start:stop] = _signed_rank_pvalues(diff)
        else:
            for j, row in enumerate(diff):
                rng = rng_of(seed)
                if test == "permutation":
                    p[start + j] = _permutation_test(row, "mean", "two-sided", n_resamples, rng)[1]
                else:
                    p[start + j] = _bootstrap_test(row, "mean", "two-sided", n_resamples, rng, 1 - alpha)[1]

    starts = range(0, pairs, chunk)
    if test in ("t", "sign", "wilcoxon") and len(starts) > 1:
        # numpy releases the GIL in sorts and reductions: two threads use both cores
        with ThreadPoolExecutor(max_workers=_THREADS) as pool:
            list(pool.map(run, starts))
    else:
        for start in starts:
            run(start)
    table = pd.DataFrame({"system_a": [names[i] for i in first], "system_b": [names[i] for i in second],
                          "mean_difference": mean_diff, "p_value": p})
    table["p_holm"] = multipletests(table["p_value"], alpha=alpha, method="holm")[1]
    table["p_bonferroni"] = multipletests(table["p_value"], alpha=alpha, method="bonferroni")[1]
    table["significant_holm"] = table["p_holm"] <= alpha
    table["significant_bonferroni"] = table["p_bonferroni"] <= alpha
    return table


def _t_pvalues_rows(diff):
    """Two-sided paired t-test p-values of each row of differences (scipy ``ttest_rel``)."""
    n = diff.shape[1]
    mean = diff.mean(axis=1)
    sd = diff.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / math.sqrt(n))
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    # constant differences: no spread to test against (0 identical → 1; a constant shift → 0)
    return np.where(sd > 0, p, np.where(mean == 0, 1.0, 0.0))

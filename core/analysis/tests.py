"""The paired significance tests and effect sizes (NLPStatTest §3.3; Dror et al. 2018)."""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar

from ..validation import check_alpha, check_choice, check_int, check_real, rng_of
from ._common import ALTERNATIVES, _is_binary, _paired, _TEST_NAMES, TESTS, WILCOXON_EXACT_MAX
from ._resampling import _bootstrap_test, _permutation_test, _sided, constant_p
from .walsh import hodges_lehmann

# ---------------------------------------------------------------------------
# tests and effect sizes
# ---------------------------------------------------------------------------
def paired_tests(a, b, *, alpha=0.05, alternative="two-sided", seed=None, tests=None, statistic="mean",
                 n_resamples=10_000) -> pd.DataFrame:
    """Run paired significance tests of A vs B (NLPStatTest §3.2).

    Parameters
    ----------
    a, b : array_like
        Paired scores (or 0/1 correctness) of systems A and B (finite, at
        most :data:`MAX_ABS_SCORE` in absolute value).
    alpha : float, optional
        Significance level (α2 in NLPStatTest); also sets the CI level 1 − α.
    alternative : {"two-sided", "greater", "less"}, optional
        "greater": A is better than B.
    seed : int, optional
        Seed for the permutation and bootstrap tests.
    tests : sequence of str, optional
        Subset of :data:`TESTS` (default: all that apply; McNemar only for 0/1 data).
    statistic : {"mean", "median"}, optional
        Centre tested by the permutation and bootstrap tests.
    n_resamples : int, optional
        Resamples of the permutation and bootstrap tests.

    Returns
    -------
    pandas.DataFrame
        ``test, name, estimate, statistic, p_value, ci_low, ci_high,
        significant, method, resamples, p_se``: ``method`` says how the
        p-value was obtained ("t distribution", "exact", "normal
        approximation", "exact enumeration", "Monte Carlo", "normal limit"),
        ``resamples`` how many resamples it used (0 when none) and ``p_se``
        its Monte Carlo standard error √(p(1 − p)/R) (0 for an exact
        enumeration, nan when nothing was resampled).

    Notes
    -----
    * Wilcoxon: scipy's ``method="auto"`` — exact for n <= 50 (no ties or
      zeros; sign-flip enumeration with them up to n = 13), the normal
      approximation above (O(n log n)).
    * Permutation test: exact (all 2^n sign flips) when 2^n <= n_resamples;
      otherwise ``n_resamples`` random sign flips (p = (1 + #as extreme) /
      (R + 1), scipy's definition), drawn in chunks. For the mean, when
      n × n_resamples exceeds :data:`PERMUTATION_WORK`, the sign-flip
      distribution is replaced by its normal limit N(0, Σd²) — its variance is
      exact, and the sign-flip sum is symmetric so the first correction is
      O(1/n) (below 10⁻⁴ in p at n = 10⁵, against a Monte Carlo standard error
      of 0.003 for 5,000 resamples at p = 0.05).
    * Bootstrap test: one set of resamples gives the p-value (null-shifted
      replicates) and the percentile interval. For the mean, when
      n × n_resamples exceeds :data:`BOOTSTRAP_WORK`, the normal limit
      N(d̄, σ̂²/n) of the bootstrap distribution is used instead (first
      correction: skewness γ/(6√n), about 10⁻³ in p at n = 3 × 10⁴ and γ = 2).
    * Medians are resampled exactly at any n in O(√n) (permutation) or O(1)
      (bootstrap) per resample: see :func:`_signflip_medians` and
      :func:`_bootstrap_medians`.
    """
    a, b, d = _paired(a, b)
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    statistic = check_choice("statistic", statistic, ("mean", "median"))
    n_resamples = check_int("n_resamples", n_resamples, low=99, high=1_000_000)
    binary = _is_binary(a) and _is_binary(b)
    if tests is None:
        tests = [t for t in TESTS if t != "mcnemar" or binary]
    if isinstance(tests, str):
        tests = [tests]
    if not isinstance(tests, (list, tuple)):
        raise ValueError(f"`tests` must be a list of test names ({', '.join(TESTS)}), got {tests!r}.")
    for t in tests:
        check_choice("tests", t, TESTS)
    n = d.size
    rows = []
    for test in tests:
        rng = rng_of(seed)  # every test reproducible on its own
        est = stat = p = lo = hi = p_se = math.nan
        method, resamples = "exact", 0
        if test == "t":
            method = "t distribution"
            if not np.any(d != d[0]):  # constant differences: no spread to test against
                est = float(d[0])
                lo, hi = _sided(lambda q: np.full(np.shape(q), est), alternative, 1 - alpha)
                p = constant_p(float(d[0]), alternative)
            else:
                res = stats.ttest_rel(a, b, alternative=alternative)
                ci = res.confidence_interval(1 - alpha)
                est, stat, p, lo, hi = d.mean(), res.statistic, res.pvalue, ci.low, ci.high
        elif test == "wilcoxon":
            nonzero = d[d != 0]
            if nonzero.size == 0:
                p, stat = 1.0, 0.0
            else:
                res = stats.wilcoxon(d, alternative=alternative,
                                     method="auto" if n <= WILCOXON_EXACT_MAX else "asymptotic")
                stat, p = res.statistic, res.pvalue
                untied = nonzero.size == n and np.unique(np.abs(d)).size == n
                method = "exact" if n <= 13 or (n <= WILCOXON_EXACT_MAX and untied) else "normal approximation"
            est = hodges_lehmann(d)
        elif test == "sign":
            pos, neg = int((d > 0).sum()), int((d < 0).sum())
            est, stat = float(np.median(d)), float(pos)
            p = float(stats.binomtest(pos, pos + neg, 0.5, alternative=alternative).pvalue) if pos + neg else 1.0
        elif test == "permutation":
            est, p, method, resamples, p_se = _permutation_test(d, statistic, alternative, n_resamples, rng)
            stat = est
        elif test == "bootstrap":
            est, p, lo, hi, method, resamples, p_se = _bootstrap_test(d, statistic, alternative, n_resamples, rng,
                                                                      1 - alpha)
            stat = est
        elif test == "mcnemar":
            if not binary:
                raise ValueError("McNemar's test needs 0/1 correctness columns.")
            b_only = int(((a == 1) & (b == 0)).sum())
            c_only = int(((a == 0) & (b == 1)).sum())
            res = mcnemar([[0, b_only], [c_only, 0]], exact=True)
            two = float(res.pvalue) if b_only + c_only else 1.0
            if alternative == "two-sided":
                p = two
            else:
                k = b_only if alternative == "greater" else c_only
                p = float(stats.binomtest(k, b_only + c_only, 0.5, alternative="greater").pvalue) \
                    if b_only + c_only else 1.0
            est, stat = d.mean(), float(min(b_only, c_only))
        rows.append((test, _TEST_NAMES[test], float(est), float(stat), float(p), float(lo), float(hi),
                     bool(p <= alpha), method, int(resamples), float(p_se)))
    return pd.DataFrame(rows, columns=["test", "name", "estimate", "statistic", "p_value", "ci_low", "ci_high",
                                       "significant", "method", "resamples", "p_se"])


@dataclass(frozen=True)
class EffectSizes:
    """Effect sizes of the paired difference (NLPStatTest §3.3, equations 2–5).

    Attributes
    ----------
    cohen_d : float
        mean(d) / sd(d) (equation 2).
    hedges_g : float
        d (1 − 3/(4n − 9)) (equation 3, as NLPStatTest defines it; 0 at n = 3).
    wilcoxon_r : float
        Z / √n with Z the tie-corrected normal score of the signed-rank
        statistic (equation 4). Z ranks the non-zero differences (Wilcoxon's
        zero handling, as scipy's default); n counts every pair, zeros
        included, so ties at zero pull r towards 0 (the paper's n; some texts
        divide by the non-zero count instead, giving a larger r).
    hodges_lehmann : float
        Median of the Walsh averages (d_i + d_j)/2, i <= j (equation 5).
    cohen_d_ci, hedges_g_ci, hodges_lehmann_ci : (float, float)
        95% confidence intervals (normal approximation for d and g:
        se = sqrt(1/n + d²/(2n)); distribution-free Walsh-average interval for
        the Hodges–Lehmann estimator).
    n : int
    """

    cohen_d: float
    hedges_g: float
    wilcoxon_r: float
    hodges_lehmann: float
    cohen_d_ci: tuple
    hedges_g_ci: tuple
    hodges_lehmann_ci: tuple
    n: int


def effect_sizes(a, b, *, confidence=0.95) -> EffectSizes:
    """Cohen's d, Hedges' g, Wilcoxon r and the Hodges–Lehmann estimator of A − B.

    Every index costs O(n log n) time and O(n) memory: the Hodges–Lehmann
    estimator and its interval are order statistics of the Walsh averages
    selected without forming them (:func:`walsh_order_statistics`).

    Examples
    --------
    >>> e = effect_sizes([3, 4, 6, 8, 9], [1, 3, 3, 5, 6])
    >>> round(e.cohen_d, 3), e.hodges_lehmann
    (2.683, 2.5)
    """
    a, b, d = _paired(a, b)
    confidence = check_real("confidence", confidence, low=0.5, high=0.999)
    n = d.size
    sd = d.std(ddof=1)
    cohen = d.mean() / sd if sd > 0 else math.nan
    hedges = cohen * (1 - 3 / (4 * n - 9)) if n > 2 else math.nan
    z_conf = stats.norm.isf((1 - confidence) / 2)
    se = math.sqrt(1 / n + cohen**2 / (2 * n)) if math.isfinite(cohen) else math.nan
    # Wilcoxon r (equation 4): zeros dropped, average ranks, tie-corrected variance
    nz = d[d != 0]
    m = nz.size
    if m > 0:
        ranks = stats.rankdata(np.abs(nz))
        w_plus = ranks[nz > 0].sum()
        _, counts = np.unique(np.abs(nz), return_counts=True)
        counts = counts.astype(float)
        var = m * (m + 1) * (2 * m + 1) / 24 - (counts**3 - counts).sum() / 48
        z = (w_plus - m * (m + 1) / 4) / math.sqrt(var) if var > 0 else 0.0
        r = z / math.sqrt(n)
    else:
        r = 0.0
    hl, hl_ci = hodges_lehmann(d, confidence=confidence)
    return EffectSizes(cohen_d=float(cohen), hedges_g=float(hedges), wilcoxon_r=float(r), hodges_lehmann=hl,
                       cohen_d_ci=(cohen - z_conf * se, cohen + z_conf * se),
                       hedges_g_ci=(hedges - z_conf * se, hedges + z_conf * se), hodges_lehmann_ci=hl_ci, n=n)

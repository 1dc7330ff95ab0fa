"""Power: the prospective sample size, the bootstrap power curve of a sample (Card et al. 2020, appendix A: a
restatement of the p-value, labelled as such), the accuracy design and the paired t MDE."""

from __future__ import annotations

import math

import warnings

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..validation import check_alpha, check_choice, check_int, check_real, rng_of
from . import _common
from ._common import ALTERNATIVES, _CHUNK, _differences
from ._resampling import _sign_pvalues, _signed_rank_rows

# ---------------------------------------------------------------------------
# power
# ---------------------------------------------------------------------------
def _t_power(effect, n, alpha, alternative) -> float:
    """Power of the one-sample (paired) t test with ``n`` pairs at standardized effect ``effect`` = μ/σ.

    T = t statistic ~ noncentral t(n − 1, effect·√n); reject when T > t_{1−α/2} or T < −t_{1−α/2} (two-sided), or
    on the tail of the alternative at t_{1−α}. Each tail is an upper tail, the lower one by symmetry with the
    noncentrality negated: scipy's noncentral-t ``cdf`` returns NaN deep in its lower tail (e.g. effect 0.5 with
    300 pairs), and statsmodels' ``TTestPower`` adds that NaN in.
    """
    df, nc = n - 1.0, effect * math.sqrt(n)
    if alternative == "two-sided":
        crit = stats.t.isf(alpha / 2.0, df)
        return float(min(1.0, stats.nct.sf(crit, df, nc) + stats.nct.sf(crit, df, -nc)))
    crit = stats.t.isf(alpha, df)
    return float(stats.nct.sf(crit, df, nc if alternative == "greater" else -nc))


def prospective_sample_size(mean_diff, sd_diff, *, target_power=0.8, alpha=0.05, alternative="two-sided",
                            conservative=False) -> int:
    """Pairs needed for the paired t test to reach ``target_power`` (NLPStatTest §3.4.1).

    The smallest n ≥ 2 whose noncentral-t power (:func:`_t_power`) at effect
    size ``mean_diff / sd_diff`` reaches the target. That power is monotone in
    n, so the first and the conservative sample size coincide;
    ``conservative`` is accepted for the package's uniform API.

    Examples
    --------
    >>> prospective_sample_size(0.5, 1.0)  # Cohen's medium effect
    34
    """
    mean_diff = check_real("mean_diff", mean_diff, low=-1e12, high=1e12)
    sd_diff = check_real("sd_diff", sd_diff, low=0.0, high=1e12, low_open=True)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    if mean_diff == 0:
        raise ValueError("`mean_diff` must be non-zero to size a study.")
    effect = mean_diff / sd_diff
    if alternative != "two-sided" and (effect > 0) != (alternative == "greater"):
        raise ValueError("`mean_diff` points the other way from the one-sided `alternative`.")
    if target_power <= alpha / (2.0 if alternative == "two-sided" else 1.0):
        raise ValueError(f"`target_power` must exceed the test's level ({alpha:g}), got {target_power:g}.")

    def power(n):
        return _t_power(effect, n, alpha, alternative)

    high = 2
    while power(high) < target_power:  # doubling, then bisection over whole numbers
        if high > 10**9:
            raise ValueError("`mean_diff` is too small against `sd_diff` to reach `target_power` within 10⁹ pairs.")
        high *= 2
    low = max(1, high // 2)  # power(low) < target or low = 1
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if power(mid) >= target_power else (mid, high)
    return high


@dataclass(frozen=True)
class NextEvaluation:
    """The next evaluation planned from an analysis: the expected mean difference and its SD (NLPStatTest §3.4.1).

    Plan from the difference you *expect*, not the one this sample showed: power computed from the observed effect
    restates the p-value (Card et al. 2020, appendix A). The pilot's SD is a fair default.

    Examples
    --------
    >>> NextEvaluation(0.5, 1.0).pairs_needed()  # Cohen's medium effect
    34
    """

    expected_mean: float
    expected_sd: float
    alpha: float = 0.05
    target_power: float = 0.8
    alternative: str = "two-sided"

    def __post_init__(self):
        self.pairs_needed()  # the sizing's own checks, once

    def pairs_needed(self) -> int:
        """:func:`prospective_sample_size` for this plan."""
        return prospective_sample_size(self.expected_mean, self.expected_sd, target_power=self.target_power,
                                       alpha=self.alpha, alternative=self.alternative)

    def power(self, n) -> float:
        """Power of the paired t test with ``n`` pairs (noncentral t, :func:`_t_power`)."""
        n = check_int("n", n, low=2, high=10**9)
        return _t_power(self.expected_mean / self.expected_sd, n, self.alpha, self.alternative)


def bootstrap_power_curve(differences, *, sizes=None, test="t", alpha=0.05, n_iter=500, seed=None) -> pd.DataFrame:
    """Retrospective bootstrap power curve (NLPStatTest §3.4.2).

    Resamples ``m`` differences with replacement ``n_iter`` times for each size
    m and reports the share of significant tests. It describes *this sample*,
    treating its observed effect as the truth: it is not evidence about the
    true effect (Card et al. 2020, appendix A; post-hoc power).

    Parameters
    ----------
    differences : array_like
        At least 3 differences.
    sizes : sequence of int, optional
        Sample sizes (3 … 10 n); default: 10 sizes from max(3, n/10) to n.
    test : {"t", "wilcoxon", "sign"}, optional
    alpha : float, optional
    n_iter : int, optional
        Resamples per size.
    seed : int, optional

    Returns
    -------
    pandas.DataFrame
        ``n, power, mc_se, iterations, method``.

    Notes
    -----
    Cost is bounded whatever the sizes: the sign test draws the counts of
    positive, negative and zero differences of each resample from their exact
    multinomial distribution (O(1) per resample). The t and Wilcoxon tests
    draw resamples value by value, in chunks, while iterations × m is at most
    :data:`CURVE_WORK`; beyond that the t test draws each resample's sum and
    sum of squares from their bivariate normal limit (exact first two
    moments; ``method`` "normal limit") and the Wilcoxon test uses fewer
    iterations (at least 50; ``mc_se`` grows accordingly).
    """
    d = _differences(differences)
    test = check_choice("test", test, ("t", "wilcoxon", "sign"))
    alpha = check_alpha(alpha)
    n_iter = check_int("n_iter", n_iter, low=50, high=100_000)
    n = d.size
    if sizes is None:
        sizes = np.unique(np.linspace(max(3, n // 10), n, 10).astype(int))
    sizes = [check_int("sizes", m, low=3, high=10 * n) for m in np.atleast_1d(sizes).tolist()]
    if len(sizes) > 1000:
        raise ValueError(f"`sizes` may hold at most 1,000 sizes, got {len(sizes):,}.")
    rng = rng_of(seed)
    probs = np.array([np.mean(d > 0), np.mean(d < 0), np.mean(d == 0)])
    moments = [float(np.mean(d**k)) for k in (1, 2, 3, 4)]
    rows = []
    for m in sizes:
        iterations, method = n_iter, "resampling"
        if test == "sign":
            counts = rng.multinomial(m, probs / probs.sum(), size=n_iter)
            p = _sign_pvalues(counts[:, 0], counts[:, 1])
        elif test == "t" and m * n_iter > _common.CURVE_WORK:
            p, method = _t_pvalues_normal_limit(moments, m, n_iter, rng), "normal limit"
        else:
            if m * n_iter > _common.CURVE_WORK:
                iterations = max(50, _common.CURVE_WORK // m)
            p = np.empty(iterations)
            chunk = max(1, _CHUNK // m)
            for start in range(0, iterations, chunk):
                stop = min(iterations, start + chunk)
                sample = d[rng.integers(0, n, size=(stop - start, m))]
                if test == "t":
                    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)  # resamples of identical values
                        p[start:stop] = stats.ttest_1samp(sample, 0.0, axis=1).pvalue
                else:  # normal approximation, as scipy's method="approx"
                    r_plus, count, tie_term, _ = _signed_rank_rows(sample)
                    with np.errstate(divide="ignore", invalid="ignore"):
                        se = np.sqrt((count * (count + 1) * (2 * count + 1) - tie_term / 2) / 24)
                        z = (r_plus - count * (count + 1) / 4) / se
                    p[start:stop] = 2 * stats.norm.sf(np.abs(z))
        power = float(np.mean(np.nan_to_num(p, nan=1.0) <= alpha))
        rows.append((int(m), power, math.sqrt(power * (1 - power) / iterations), int(iterations), method))
    return pd.DataFrame(rows, columns=["n", "power", "mc_se", "iterations", "method"])


def _t_pvalues_normal_limit(moments, m, size, rng):
    """t-test p-values of ``size`` resamples of m values, from the normal limit of (Σx, Σx²)."""
    m1, m2, m3, m4 = moments
    if not m2 - m1**2 > 0:  # constant differences: the t test has nothing to test against
        return np.ones(size)
    cov = np.array([[m2 - m1**2, m3 - m1 * m2], [m3 - m1 * m2, m4 - m2**2]]) * m
    # a tiny ridge keeps the factorization defined for degenerate (e.g. two-valued) data
    chol = np.linalg.cholesky(cov + np.eye(2) * 1e-300 + np.diag(np.abs(np.diag(cov))) * 1e-12)
    draws = np.array([m * m1, m * m2]) + rng.standard_normal((size, 2)) @ chol.T
    total, squares = draws[:, 0], draws[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        var = (squares - total**2 / m) / (m - 1)
        t = (total / m) / np.sqrt(var / m)
        p = 2 * stats.t.sf(np.abs(t), m - 1)
    return np.where(var > 0, p, 1.0)


@dataclass(frozen=True)
class AccuracyDesign:
    """A measured paired accuracy comparison, the bridge to the Accuracy page.

    Attributes
    ----------
    n : int
        Items.
    agreement : float
        Share of items both systems get right or both get wrong (P_a).
    delta : float
        Accuracy of A minus accuracy of B.
    accuracy_a, accuracy_b : float
        The two accuracies.
    """

    n: int
    agreement: float
    delta: float
    accuracy_a: float
    accuracy_b: float


def accuracy_design(a, b) -> AccuracyDesign:
    """Agreement rate and accuracy difference of two 0/1 columns (bridge to the Accuracy page).

    Examples
    --------
    >>> accuracy_design([1, 1, 0, 1], [1, 0, 0, 0])
    AccuracyDesign(n=4, agreement=0.5, delta=0.5, accuracy_a=0.75, accuracy_b=0.25)
    """
    a, b = _differences(a, name="a", min_size=1), _differences(b, name="b", min_size=1)
    if a.size != b.size:
        raise ValueError(f"`a` and `b` must be paired: the same number of items, got {a.size:,} and {b.size:,}.")
    if not np.all(np.isin(np.concatenate([a, b]), (0.0, 1.0))):
        raise ValueError("`a` and `b` must be 0/1 correctness.")
    return AccuracyDesign(n=int(a.size), agreement=float((a == b).mean()), delta=float(a.mean() - b.mean()),
                          accuracy_a=float(a.mean()), accuracy_b=float(b.mean()))


def paired_t_mde(n, sd_diff, *, target_power=0.8, alpha=0.05, alternative="two-sided") -> float:
    """Minimum detectable mean difference of the paired t test with ``n`` pairs (in score units).

    The sensitivity view that replaces post-hoc power: the smallest true
    difference this sample size detects with ``target_power`` (the effect size at which the noncentral-t power of
    :func:`_t_power` reaches it, times ``sd_diff``; for a one-sided alternative, its size in that direction).

    Examples
    --------
    >>> round(paired_t_mde(34, 1.0), 3)
    0.495
    """
    n = check_int("n", n, low=3, high=10**8)
    sd_diff = check_real("sd_diff", sd_diff, low=0.0, high=1e12, low_open=True)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    side = "two-sided" if alternative == "two-sided" else "greater"
    if target_power <= alpha / (2.0 if side == "two-sided" else 1.0):
        raise ValueError(f"`target_power` must exceed the test's level ({alpha:g}), got {target_power:g}.")

    def gap(effect):
        return _t_power(effect, n, alpha, side) - target_power

    high = 1.0
    while gap(high) < 0:  # power grows with the effect (two-sided: with its size)
        high *= 2.0
    return float(optimize.brentq(gap, 0.0, high, xtol=1e-12, rtol=1e-12)) * sd_diff

"""Unpaired accuracy: each model scored on its own sample (Card et al. 2020, appendix E.5).

The two-proportion z test as R's ``power.prop.test(strict=TRUE)`` (statsmodels
``power_proportions_2indep``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import power_proportions_2indep

from ..results import PowerResult, nan_if_zero
from ..sizing import SampleSize, sample_size_search
from ..validation import check_alpha, check_int, check_real
from .engine import _N_MAX, _bisect_increasing, _validate_power_target

def _validate_unpaired(n, baseline, delta, alpha):
    n = check_int("n", n, low=2, high=_N_MAX)
    baseline = check_real("baseline", baseline, low=0.0, high=1.0, low_open=True, high_open=True)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    alpha = check_alpha(alpha)
    if not 0.0 < baseline + delta < 1.0:
        raise ValueError(
            f"`delta` must keep baseline + delta inside (0, 1), i.e. in "
            f"({-baseline:.4g}, {1 - baseline:.4g}), got {delta:g}."
        )
    return n, baseline, delta, alpha


def unpaired_power(n, baseline, delta, *, alpha=0.05) -> PowerResult:
    """Power of the two-proportion z test (models scored on different samples).

    Parameters
    ----------
    n : int
        Items per model (each model gets its own sample of size n).
    baseline : float
        Baseline accuracy p1 in (0, 1).
    delta : float
        Accuracy difference p2 - p1; p2 must stay in (0, 1).
    alpha : float, optional
        Two-sided level.

    Returns
    -------
    PowerResult
        ``rejection_rate`` is statsmodels ``power_proportions_2indep`` (pooled
        null variance, unpooled alternative variance — R's
        ``power.prop.test(strict=TRUE)``); ``power`` is its correct-sign tail;
        Type-S/Type-M from the normal sampling distribution of the observed
        difference, ``N(Δ, (p1 q1 + p2 q2)/n)``.

    References
    ----------
    Card et al. (2020), appendix E.5 and Table 9 ("MDE Binomial").
    """
    n, baseline, delta, alpha = _validate_unpaired(n, baseline, delta, alpha)
    res = power_proportions_2indep(delta, baseline, n, alpha=alpha)
    sd_alt = float(res.std_alt) / math.sqrt(n)
    crit = stats.norm.isf(alpha / 2.0) * float(res.std_null) / math.sqrt(n)
    mu = abs(delta)
    right = stats.norm.sf((crit - mu) / sd_alt)
    wrong = stats.norm.cdf((-crit - mu) / sd_alt)
    rejection = float(res.power)
    if delta == 0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan,
                           rejection_rate=rejection, method="normal")
    a, b = (crit - mu) / sd_alt, (-crit - mu) / sd_alt
    e_right = mu * stats.norm.sf(a) + sd_alt * stats.norm.pdf(a)
    e_wrong = -(mu * stats.norm.cdf(b) - sd_alt * stats.norm.pdf(b))
    return PowerResult(
        power=float(right),
        type_s=nan_if_zero(wrong, right + wrong),
        type_m=nan_if_zero(e_right + e_wrong, right + wrong) / mu,
        rejection_rate=rejection,
        method="normal",
        mean_significant=math.copysign(nan_if_zero(e_right - e_wrong, right + wrong), delta),
    )


def unpaired_mde(n, baseline, *, target_power=0.8, alpha=0.05) -> float:
    """MDE of the two-proportion test: smallest gain over ``baseline`` with the target power.

    Returns ``nan`` when no gain up to ``1 - baseline`` reaches it.

    Examples
    --------
    >>> round(unpaired_mde(147, 0.945) * 100, 2)  # Table 9 WNLI "MDE Binomial": 5.38%
    5.38
    """
    n = check_int("n", n, low=2, high=_N_MAX)
    baseline = check_real("baseline", baseline, low=0.0, high=1.0, low_open=True, high_open=True)
    target_power = _validate_power_target(target_power)
    alpha = check_alpha(alpha)
    hi = (1.0 - baseline) * (1 - 1e-9)

    def gap(delta):
        # the power the page and unpaired_sample_size use: significant in the direction of the gain (the
        # two-sided rejection rate adds the wrong tail, so its root sat up to 5e-4 below the target)
        return float(_right_tail_power(np.array([n]), baseline, delta, alpha)[0]) - target_power

    if gap(hi) < 0:
        return math.nan
    return float(_bisect_increasing(gap, 1e-9, hi, xtol=1e-10))


def unpaired_sample_size(baseline, delta, *, target_power=0.8, alpha=0.05, conservative=False, n_max=_N_MAX) -> int:
    """Smallest items-per-model n for the two-proportion test (``-1`` if > ``n_max``).

    Power is that of :func:`unpaired_power` (significant in the right
    direction; statsmodels ``power_proportions_2indep``'s null and
    alternative variances, i.e. R ``power.prop.test(strict=TRUE)``). It is
    monotone in n, so ``conservative`` gives the same answer; it is accepted
    for a uniform API.

    Examples
    --------
    >>> unpaired_sample_size(0.9, 0.02)
    3213
    """
    return unpaired_sample_sizes(baseline, delta, target_power=target_power, alpha=alpha,
                                 n_max=n_max).pick(conservative)


def unpaired_sample_sizes(baseline, delta, *, target_power=0.8, alpha=0.05, n_max=_N_MAX) -> SampleSize:
    """Both sample-size answers of :func:`unpaired_sample_size` (equal: its power is monotone)."""
    _validate_unpaired(2, baseline, delta, alpha)
    if delta == 0:
        raise ValueError("`delta` must be non-zero to size a study, got 0.")
    target_power = _validate_power_target(target_power)
    n_max = check_int("n_max", n_max, low=3, high=_N_MAX)

    def power_many(ns):
        return _right_tail_power(np.asarray(ns, dtype=float), baseline, delta, alpha)

    p2 = baseline + delta
    pbar = (baseline + p2) / 2
    z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.ppf(target_power)
    guess = (z_a * math.sqrt(2 * pbar * (1 - pbar))
             + z_b * math.sqrt(baseline * (1 - baseline) + p2 * (1 - p2))) ** 2 / delta**2
    return sample_size_search(power_many, target_power, guess=guess, n_max=n_max, low=2)


def _right_tail_power(ns, baseline, delta, alpha):
    """P(significant and in the direction of ``delta``) at sizes ``ns`` (vectorized)."""
    p2 = baseline + delta
    pbar = (baseline + p2) / 2
    std_null = math.sqrt(2 * pbar * (1 - pbar))
    std_alt = math.sqrt(baseline * (1 - baseline) + p2 * (1 - p2))
    crit = stats.norm.isf(alpha / 2.0) * std_null / np.sqrt(ns)
    return stats.norm.sf((crit - abs(delta)) / (std_alt / np.sqrt(ns)))




def unpaired_distribution(n, baseline, delta, *, alpha=0.05, bins=61) -> pd.DataFrame:
    """Normal-approximation distribution of the observed unpaired difference.

    The observed difference is ``N(Δ, (p1 q1 + p2 q2)/n)`` and significant when
    ``|diff| >= z_{1-α/2} sqrt(2 p̄ q̄ / n)`` (the pooled z test of
    :func:`unpaired_power`). Bin probabilities are normal CDF differences.
    """
    n, baseline, delta, alpha = _validate_unpaired(n, baseline, delta, alpha)
    bins = check_int("bins", bins, low=5, high=500)
    res = power_proportions_2indep(delta, baseline, n, alpha=alpha)
    sd = float(res.std_alt) / math.sqrt(n)
    crit = stats.norm.isf(alpha / 2.0) * float(res.std_null) / math.sqrt(n)
    edges = np.linspace(delta - 5 * sd, delta + 5 * sd, bins + 1)
    lo, hi = edges[:-1], edges[1:]

    def mass(a, b):
        return np.clip(stats.norm.cdf((b - delta) / sd) - stats.norm.cdf((a - delta) / sd), 0, None)

    total = mass(lo, hi)
    sig = mass(lo, np.minimum(hi, -crit)) * (lo < -crit) + mass(np.maximum(lo, crit), hi) * (hi > crit)
    return pd.DataFrame(
        {"diff_low": lo, "diff_high": hi, "diff_mid": (lo + hi) / 2,
         "prob_significant": sig, "prob_not_significant": total - sig}
    )




def unpaired_assurance(n, baseline, delta_mean, delta_sd, *, alpha=0.05):
    """Assurance of the two-proportion test: power averaged over a normal prior on the gain.

    The prior N(μ, τ²) on Δ = p2 − p1 is truncated so that p2 stays in (0, 1).
    Each node's directional power uses the same null and alternative variances
    as :func:`unpaired_power`.

    Returns
    -------
    core.assurance.AssuranceResult

    Examples
    --------
    >>> round(unpaired_assurance(3213, 0.9, 0.02, 0.0).assurance, 3)  # τ = 0: the power
    0.8
    """
    from ..assurance import assurance

    n, baseline, _, alpha = _validate_unpaired(n, baseline, 0.0, alpha)
    mu = check_real("delta_mean", delta_mean, low=-baseline, high=1.0 - baseline, low_open=True, high_open=True)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=1.0)
    z = stats.norm.isf(alpha / 2.0)
    eps = 1e-9
    low, high = -baseline + eps, 1.0 - baseline - eps

    def directional(deltas):
        deltas = np.clip(np.asarray(deltas, dtype=float), low, high)
        p2 = baseline + deltas
        pbar = (baseline + p2) / 2
        crit = z * np.sqrt(2 * pbar * (1 - pbar) / n)
        sd = np.sqrt((baseline * (1 - baseline) + p2 * (1 - p2)) / n)
        return stats.norm.sf((crit - deltas) / sd), stats.norm.cdf((-crit - deltas) / sd)

    power = unpaired_power(n, baseline, mu, alpha=alpha).power
    return assurance(directional, prior_mean=mu, prior_sd=tau, power_at_mean=power,
                     scale=math.sqrt(2 * baseline * (1 - baseline) / n), low=low, high=high)


@dataclass(frozen=True)
class UnpairedDesign:
    """Two models scored on different samples of the same size n: everything but n.

    The page builds it once; the methods are this module's functions for the design. Frozen and compared by
    value, so it is a cache key.

    Attributes
    ----------
    baseline : float
        Accuracy of the old model.
    delta : float
        Expected accuracy difference, new minus old; ``baseline + delta`` must lie in (0, 1).
    alpha : float
        Two-sided level.

    Examples
    --------
    >>> d = UnpairedDesign(0.8, 0.02)
    >>> d.power(2000) == unpaired_power(2000, 0.8, 0.02)
    True
    """

    baseline: float
    delta: float
    alpha: float = 0.05

    def __post_init__(self):
        object.__setattr__(self, "baseline", check_real("baseline", self.baseline, low=0.0, high=1.0))
        object.__setattr__(self, "delta", check_real("delta", self.delta, low=-1.0, high=1.0))
        object.__setattr__(self, "alpha", check_alpha(self.alpha))
        if not 0.0 < self.baseline + self.delta < 1.0:
            raise ValueError(f"`delta` must keep baseline + delta in (0, 1); got {self.baseline:g} + {self.delta:g}.")

    def power(self, n) -> PowerResult:
        """:func:`unpaired_power` at ``n`` items per model."""
        return unpaired_power(n, self.baseline, self.delta, alpha=self.alpha)

    def mde(self, n, *, target_power=0.8) -> float:
        """:func:`unpaired_mde` at ``n`` items per model."""
        return unpaired_mde(n, self.baseline, target_power=target_power, alpha=self.alpha)

    def sample_sizes(self, *, target_power=0.8) -> SampleSize:
        """:func:`unpaired_sample_sizes` for this design."""
        return unpaired_sample_sizes(self.baseline, self.delta, target_power=target_power, alpha=self.alpha)

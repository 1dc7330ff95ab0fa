"""Power when many claims are made at once: gains on several benchmarks, or many model pairs.

A paper that claims a gain on m benchmarks and corrects for multiplicity tests each comparison at a smaller
level, so each claim has less power than its unadjusted power — and the chance that *every* claim holds is
smaller still. This module turns each comparison's unadjusted two-sided power at level α into its power under
a correction, and the power for all claims together.

The model: comparison j's test statistic is z_j ~ N(μ_j, 1), two-sided p-value p_j = 2Φ(−|z_j|), and μ_j ≥ 0
solves the unadjusted power ``Φ(μ_j − z_{1−α/2}) + Φ(−μ_j − z_{1−α/2}) = power_j``. The z's are independent,
or equicorrelated with correlation ρ ≥ 0 (z_j = μ_j + √ρ W + √(1 − ρ) e_j: benchmarks scored on the same
models share noise).

Corrections: ``"none"``; ``"bonferroni"`` (reject when p_j <= α/m); ``"holm"``, the step-down procedure that
controls the family-wise error rate (Holm 1979); ``"bh"``, the Benjamini–Hochberg (1995) step-up procedure that
controls the false discovery rate. Bonferroni and no correction are closed forms. Holm and BH are computed
exactly when every comparison has the same power — a Markov chain over the number of p-values below each
step's threshold, integrated over W by Gauss–Hermite quadrature when ρ > 0 — and otherwise simulated, with the
Monte Carlo standard error reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from .validation import check_choice, check_int, check_real

__all__ = ["CORRECTIONS", "ClaimFamily", "FamilyPower", "family_power", "family_sample_size", "effect_from_power"]

#: Multiplicity corrections.
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
_M_MAX = 500
_MU_MAX = 40.0
_GH_NODES = 64


@dataclass(frozen=True)
class FamilyPower:
    """Power of a family of comparisons under a multiplicity correction.

    Attributes
    ----------
    per_comparison : numpy.ndarray
        P(comparison j is rejected by the procedure), one entry per comparison.
    all : float
        P(every comparison is rejected): the chance that every claim holds up.
    any : float
        P(at least one comparison is rejected).
    expected_rejections : float
        E[number of rejected comparisons] = Σ_j ``per_comparison[j]``.
    mc_se : float
        Largest Monte Carlo standard error of ``per_comparison``, ``all`` and ``any`` (0 when exact).
    correction : str
        The correction applied.
    method : str
        ``"exact"`` (closed form, chain or quadrature) or ``"simulate"``.
    n_sims : int
        Simulated families (0 when exact).
    """

    per_comparison: np.ndarray
    all: float
    any: float
    expected_rejections: float
    mc_se: float
    correction: str
    method: str
    n_sims: int = 0


def effect_from_power(power, *, alpha=0.05):
    """Standardized effect μ >= 0 whose two-sided z test at ``alpha`` has rejection probability ``power``.

    Solves ``Φ(μ − z_{1−α/2}) + Φ(−μ − z_{1−α/2}) = power`` (power in [α, 1]; μ = 0 at power = α, capped at
    40 at power 1).
    """
    z = stats.norm.isf(alpha / 2.0)
    powers = np.atleast_1d(np.asarray(power, dtype=float))
    out = np.empty(powers.size)
    for i, pw in enumerate(powers):
        if pw <= alpha:
            out[i] = 0.0
        elif pw >= 1.0 - 1e-15:
            out[i] = _MU_MAX
        else:
            out[i] = optimize.brentq(lambda mu: stats.norm.sf(z - mu) + stats.norm.cdf(-z - mu) - pw, 0.0, _MU_MAX,
                                     xtol=1e-13)
    return out if np.ndim(power) else float(out[0])


def _validate(powers, alpha, correction, correlation):
    alpha = check_real("alpha", alpha, low=0.0, high=0.5, low_open=True)
    try:
        arr = np.asarray(powers, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"`powers` must be a list of numbers, got {powers!r}.") from None
    if arr.size < 1 or arr.size > _M_MAX:
        raise ValueError(f"`powers` must hold between 1 and {_M_MAX} comparisons, got {arr.size}.")
    if not np.all(np.isfinite(arr)) or arr.min() < alpha - 1e-12 or arr.max() > 1.0:
        raise ValueError(f"`powers` must each be in [alpha, 1] = [{alpha:g}, 1] (a two-sided test rejects at "
                         f"least a share alpha of the time), got {arr.tolist()}.")
    correction = check_choice("correction", correction, CORRECTIONS)
    correlation = check_real("correlation", correlation, low=0.0, high=1.0, high_open=True)
    return arr, alpha, correction, correlation


def _reject_prob(mu, shift, rho, t):
    """P(p <= t | W) for z ~ N(mu + √ρ W, 1 − ρ), vectorized over mu/shift (broadcast) and thresholds t."""
    c = stats.norm.isf(np.asarray(t, dtype=float) / 2.0)
    s = math.sqrt(1.0 - rho)
    centre = mu + shift
    return stats.norm.sf((c - centre) / s) + stats.norm.cdf((-c - centre) / s)


def _nodes(rho):
    if rho == 0.0:
        return np.zeros(1), np.ones(1)
    x, w = np.polynomial.hermite_e.hermegauss(_GH_NODES)
    return math.sqrt(rho) * x, w / w.sum()


def _holm_tail(f):
    """P(R >= r), r = 1..m, for Holm with exchangeable tests; f[k] = P(p <= α/(m − k)) for k = 0..m−1."""
    m = f.size
    states = np.arange(m + 1)
    dist = np.zeros(m + 1)
    dist[0] = 1.0
    prev = 0.0
    tail = np.empty(m)
    for k in range(m):
        # each p-value still above the previous threshold falls below this one with prob (f_k − f_{k−1})/(1 − f_{k−1})
        step = 0.0 if prev >= 1.0 else min(max((f[k] - prev) / (1.0 - prev), 0.0), 1.0)
        # transition matrix T[s, t] = P(t − s of the m − s remaining fall below) = Bin(t − s; m − s, step)
        new = dist @ stats.binom.pmf(states[None, :] - states[:, None], m - states[:, None], step)
        new[states < k + 1] = 0.0  # step k + 1 needs at least k + 1 p-values below its threshold
        dist = new
        tail[k] = dist.sum()
        prev = f[k]
    return tail


def _bh_tail(g):
    """P(R >= r), r = 1..m, for BH with exchangeable tests; g[r−1] = P(p <= α r / m)."""
    m = g.size
    states = np.arange(m + 1)
    dist = stats.binom.pmf(states, m, g[-1])  # N(t_m)
    below = np.empty(m)  # below[r−1] = P(N(t_j) <= j − 1 for every j >= r) = P(R < r)
    for r in range(m, 0, -1):
        dist = dist.copy()
        dist[r:] = 0.0
        below[r - 1] = dist.sum()
        if r > 1:
            thin = 0.0 if g[r - 1] <= 0 else min(g[r - 2] / g[r - 1], 1.0)
            # binomial thinning: T[s, t] = Bin(t; s, thin), each of the s p-values below t_r stays below t_{r−1}
            dist = dist @ stats.binom.pmf(states[None, :], states[:, None], thin)
    return 1.0 - below


def _exact_equal(mu, m, alpha, correction, rho):
    shifts, weights = _nodes(rho)
    tail = np.zeros(m)
    for shift, w in zip(shifts, weights):
        if correction == "holm":
            f = _reject_prob(mu, shift, rho, alpha / (m - np.arange(m)))
            tail += w * _holm_tail(f)
        else:
            g = _reject_prob(mu, shift, rho, alpha * np.arange(1, m + 1) / m)
            tail += w * _bh_tail(g)
    tail = np.clip(tail, 0.0, 1.0)
    expected = float(tail.sum())
    return np.full(m, expected / m), float(tail[-1]), float(tail[0]), expected


def _closed_single(mus, alpha_each, rho):
    shifts, weights = _nodes(rho)
    per = _reject_prob(mus, 0.0, 0.0, alpha_each)
    probs = _reject_prob(mus[None, :], shifts[:, None], rho, alpha_each)
    all_ = float(weights @ np.prod(probs, axis=1))
    any_ = float(1.0 - weights @ np.prod(1.0 - probs, axis=1))
    return per, all_, any_


def _simulate(mus, alpha, correction, rho, n_sims, seed):
    rng = np.random.default_rng(seed)
    m = mus.size
    per = np.zeros(m)
    all_count = any_count = 0
    block = max(1, 2_000_000 // m)
    done = 0
    thresholds = alpha / (m - np.arange(m)) if correction == "holm" else alpha * np.arange(1, m + 1) / m
    while done < n_sims:
        size = min(block, n_sims - done)
        z = rng.standard_normal((size, m))
        if rho > 0:
            z = math.sqrt(1.0 - rho) * z + math.sqrt(rho) * rng.standard_normal((size, 1))
        p = 2.0 * stats.norm.sf(np.abs(z + mus))
        order = np.argsort(p, axis=1)
        sorted_p = np.take_along_axis(p, order, axis=1)
        passed = sorted_p <= thresholds
        if correction == "holm":
            count = np.where(passed.all(axis=1), m, np.argmin(passed, axis=1))  # first failure ends the steps
        else:
            last = m - np.argmax(passed[:, ::-1], axis=1)  # largest r with p_(r) <= α r / m
            count = np.where(passed.any(axis=1), last, 0)
        rejected_sorted = np.arange(m)[None, :] < count[:, None]
        rejected = np.empty_like(rejected_sorted)
        np.put_along_axis(rejected, order, rejected_sorted, axis=1)
        per += rejected.sum(axis=0)
        all_count += int((count == m).sum())
        any_count += int((count > 0).sum())
        done += size
    per /= n_sims
    all_, any_ = all_count / n_sims, any_count / n_sims
    probs = np.concatenate([per, [all_, any_]])
    se = float(np.sqrt(probs * (1.0 - probs) / n_sims).max())
    return per, all_, any_, se


def family_power(powers, *, alpha=0.05, correction="holm", correlation=0.0, n_sims=100_000, seed=None) -> FamilyPower:
    """Per-comparison and all-claims power of m comparisons under a multiplicity correction.

    Parameters
    ----------
    powers : array_like of float
        Each comparison's unadjusted two-sided power at ``alpha``, in [alpha, 1] (1 … 500 comparisons).
    alpha : float, optional
        Family-wise level (FDR level for ``"bh"``), in (0, 0.5].
    correction : {"holm", "bonferroni", "bh", "none"}, optional
        Multiplicity correction.
    correlation : float, optional
        Equicorrelation ρ in [0, 1) of the z statistics (0: independent comparisons).
    n_sims : int, optional
        Simulated families when Holm or BH meet unequal powers (1,000 … 10,000,000).
    seed : int or numpy.random.Generator, optional
        Seed for the simulation.

    Returns
    -------
    FamilyPower
        ``per_comparison``, ``all``, ``any``, ``expected_rejections``, ``mc_se``.

    Raises
    ------
    ValueError
        On an empty or out-of-range ``powers`` or another bad argument.

    Notes
    -----
    Bonferroni: per-comparison power ``Φ(μ_j − z_{1−α/2m}) + Φ(−μ_j − z_{1−α/2m})``; with independent
    comparisons P(all) is the product. With ρ > 0 both integrate over the shared factor W (64-node
    Gauss–Hermite rule).

    Holm with exchangeable comparisons: the number R of rejections satisfies R >= r exactly when
    N_k >= k for every k <= r, where N_k counts p-values below α/(m − k + 1); (N_k) is a Markov chain (each
    p-value above one threshold falls below the next with a known conditional probability). BH: R < r exactly
    when N(α j/m) <= j − 1 for every j >= r, a chain run downwards by binomial thinning. Then
    P(all) = P(R = m), P(any) = P(R >= 1) and each comparison's power is E[R]/m.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand J Stat 6:65–70.
    Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate. JRSS B 57:289–300.

    Examples
    --------
    Five benchmarks at 80% unadjusted power each:

    >>> r = family_power([0.8] * 5, correction="bonferroni")
    >>> round(float(r.per_comparison[0]), 3), round(r.all, 3)
    (0.589, 0.071)
    """
    arr, alpha, correction, correlation = _validate(powers, alpha, correction, correlation)
    m = arr.size
    mus = effect_from_power(arr, alpha=alpha)
    if correction in ("none", "bonferroni") or m == 1:
        each = alpha if correction == "none" else alpha / m
        per, all_, any_ = _closed_single(mus, each, correlation)
        return FamilyPower(np.clip(per, 0, 1), min(max(all_, 0.0), 1.0), min(max(any_, 0.0), 1.0),
                           float(per.sum()), 0.0, correction, "exact")
    if np.ptp(mus) <= 1e-12:
        per, all_, any_, expected = _exact_equal(float(mus[0]), m, alpha, correction, correlation)
        return FamilyPower(per, all_, any_, expected, 0.0, correction, "exact")
    n_sims = check_int("n_sims", n_sims, low=1_000, high=10_000_000)
    per, all_, any_, se = _simulate(mus, alpha, correction, correlation, n_sims, seed)
    return FamilyPower(per, all_, any_, float(per.sum()), se, correction, "simulate", n_sims)


@dataclass(frozen=True)
class ClaimFamily:
    """Claims on several benchmarks made at once: what the Claims page plans.

    Attributes
    ----------
    claims : tuple of (name, n, gain_pp, agreement_pct)
        Each benchmark's test-set size, expected accuracy gain (percentage points) and agreement P_a (percent),
        as the page's table lists them.
    powers : tuple of float
        Each claim's unadjusted two-sided power at ``alpha`` (McNemar's test on its row).
    correction : {"holm", "bonferroni", "bh", "none"}
    correlation : float
        Equicorrelation of the test statistics, in [0, 1).
    alpha : float

    Examples
    --------
    >>> fam = ClaimFamily((("A", 500, 2.0, 90.0), ("B", 500, 2.0, 90.0)), (0.5, 0.5))
    >>> fam.power().all == family_power((0.5, 0.5)).all
    True
    """

    claims: tuple
    powers: tuple
    correction: str = "holm"
    correlation: float = 0.0
    alpha: float = 0.05

    def __post_init__(self):
        powers, alpha, correction, correlation = _validate(self.powers, self.alpha, self.correction, self.correlation)
        object.__setattr__(self, "powers", tuple(float(p) for p in powers))
        object.__setattr__(self, "claims", tuple(tuple(c) for c in self.claims))
        object.__setattr__(self, "alpha", alpha)
        object.__setattr__(self, "correction", correction)
        object.__setattr__(self, "correlation", correlation)
        if len(self.claims) != len(self.powers):
            raise ValueError(f"`claims` and `powers` must have the same length; got {len(self.claims)} and "
                             f"{len(self.powers)}.")

    @property
    def names(self) -> list:
        """The benchmarks' names."""
        return [c[0] for c in self.claims]

    def power(self, correction=None, *, n_sims=100_000, seed=None) -> FamilyPower:
        """:func:`family_power` under this family's correction (or ``correction``)."""
        return family_power(self.powers, alpha=self.alpha, correction=correction or self.correction,
                            correlation=self.correlation, n_sims=n_sims, seed=seed)


def family_sample_size(m, *, target_power=0.8, alpha=0.05, correction="bonferroni") -> float:
    """Factor by which each of m equal-effect comparisons must grow to keep ``target_power`` under a correction.

    Parameters
    ----------
    m : int
        Number of comparisons, 1 … 500.
    target_power : float, optional
        Per-comparison power to keep, in (α, 1).
    alpha : float, optional
        Family-wise level.
    correction : {"holm", "bonferroni", "bh", "none"}, optional

    Returns
    -------
    float
        ``(μ_m / μ_1)²``: μ_1 is the standardized effect with ``target_power`` at ``alpha`` unadjusted and
        μ_m the one whose per-comparison power under the correction (all m comparisons at μ_m, independent)
        is ``target_power``. Sample size scales with μ², so multiply each comparison's n by this factor.

    Notes
    -----
    For Bonferroni, ignoring the negligible wrong-direction tail,
    ``((z_{1−α/2m} + z_{power}) / (z_{1−α/2} + z_{power}))²``.

    Examples
    --------
    >>> round(family_sample_size(5), 3)
    1.488
    """
    m = check_int("m", m, low=1, high=_M_MAX)
    alpha = check_real("alpha", alpha, low=0.0, high=0.5, low_open=True)
    target_power = check_real("target_power", target_power, low=alpha, high=1.0, low_open=True, high_open=True)
    correction = check_choice("correction", correction, CORRECTIONS)
    base = effect_from_power(target_power, alpha=alpha)
    if correction == "none" or m == 1:
        return 1.0
    if correction == "bonferroni":
        return (effect_from_power(target_power, alpha=alpha / m) / base) ** 2

    def gap(mu):
        return _exact_equal(mu, m, alpha, correction, 0.0)[0][0] - target_power

    mu = optimize.brentq(gap, base, effect_from_power(target_power, alpha=alpha / m) + 1e-9, xtol=1e-12)
    return (mu / base) ** 2

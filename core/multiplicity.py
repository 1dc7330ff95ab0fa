"""Power when many claims are made at once: gains on several benchmarks, or many model pairs.

A paper that claims a gain on m benchmarks and corrects for multiplicity tests each comparison at a smaller
level, so each claim has less power than its unadjusted power — and the chance that *every* claim holds is
smaller still. This module turns each comparison's unadjusted two-sided power at level α into its power under
a correction, and the power for all claims together.

The model: comparison j's test statistic is z_j ~ N(μ_j, 1), two-sided p-value p_j = 2Φ(−|z_j|), and μ_j ≥ 0
solves the unadjusted power ``Φ(μ_j − z_{1−α/2}) + Φ(−μ_j − z_{1−α/2}) = power_j``. The z's are independent,
or equicorrelated with correlation 0 <= ρ <= 1 (z_j = μ_j + √ρ W + √(1 − ρ) e_j: benchmarks scored on the
same models share noise; at ρ = 1 every statistic is μ_j + W).

Corrections: ``"none"``; ``"bonferroni"`` (reject when p_j <= α/m); ``"holm"``, the step-down procedure that
controls the family-wise error rate (Holm 1979); ``"bh"``, the Benjamini–Hochberg (1995) step-up procedure that
controls the false discovery rate. Bonferroni and no correction are closed forms. Holm and BH are computed
exactly when every comparison has the same power — a Markov chain over the number of p-values below each
step's threshold, integrated over W (Gauss–Hermite up to ρ = 0.5, a trapezoid rule on the scale √((1 − ρ)/ρ)
above) — and otherwise simulated, with the Monte Carlo standard error reported. At ρ = 1 the outcome is a
piecewise-constant function of W and is integrated exactly segment by segment. The work is bounded so that any
family (up to 500 comparisons, any ρ) answers in about a second: the exact chain is used while nodes × m³ <= 2e7,
the ρ = 1 segments while segments × m <= 2e7, and a simulation draws at most 1e7 statistics (n_sims × m).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special, stats

from .validation import as_floats, check_choice, check_int, check_real, rng_of

__all__ = ["CORRECTIONS", "ClaimFamily", "FamilyPower", "family_power", "family_sample_size", "effect_from_power"]

#: Multiplicity corrections.
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
_M_MAX = 500
_MU_MAX = 40.0
_GH_NODES = 64
#: Up to this correlation the 64-node Gauss–Hermite rule integrates over W to ~1e-7 (checked in the tests).
_GH_RHO_MAX = 0.5
#: Above it, the trapezoid rule on W ∈ [−_W_MAX, _W_MAX] with step min(0.25, σ_W/4), σ_W = √((1 − ρ)/ρ).
_W_MAX = 9.0
#: Work limits (so every family answers in about a second): quadrature nodes × m³ for the exact Holm/BH chain,
#: piecewise-constant segments × m at ρ = 1, and simulated z statistics (n_sims × m).
_CHAIN_BUDGET = 20_000_000
_SEGMENT_BUDGET = 20_000_000
_SIM_BUDGET = 10_000_000


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
        Simulated families actually used (0 when exact); at most 10,000,000 / m (:func:`family_power`).
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
    alpha = check_real("alpha", alpha, low=0.0, high=0.5, low_open=True)
    powers = np.atleast_1d(as_floats("power", power, what="numbers in [0, 1]"))
    if not np.all(np.isfinite(powers)) or np.any((powers < 0.0) | (powers > 1.0)):
        raise ValueError("`power` must be in [0, 1] (below α the effect is 0).")
    z = stats.norm.isf(alpha / 2.0)
    out = np.empty(powers.size)
    for i, pw in enumerate(powers):
        if pw <= alpha:
            out[i] = 0.0
        elif pw >= 1.0 - 1e-15:
            out[i] = _MU_MAX
        else:
            # special.ndtr is what stats.norm.cdf/sf evaluate (sf(x) = ndtr(-x)), without their per-call overhead
            out[i] = optimize.brentq(lambda mu: special.ndtr(mu - z) + special.ndtr(-z - mu) - pw, 0.0, _MU_MAX,
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
    correlation = check_real("correlation", correlation, low=0.0, high=1.0)
    return arr, alpha, correction, correlation


def _reject_prob(mu, shift, rho, t):
    """P(p <= t | W) for z ~ N(mu + √ρ W, 1 − ρ), vectorized over mu/shift (broadcast) and thresholds t."""
    c = stats.norm.isf(np.asarray(t, dtype=float) / 2.0)
    s = math.sqrt(1.0 - rho)
    centre = mu + shift
    return stats.norm.sf((c - centre) / s) + stats.norm.cdf((-c - centre) / s)


def _nodes(rho):
    """Shifts √ρ·W and weights of the rule integrating over the shared factor W ~ N(0, 1), for 0 <= ρ < 1.

    Conditional on W the comparisons are independent; their conditional rejection probabilities change on the
    scale σ_W = √((1 − ρ)/ρ) in W, which shrinks to 0 as ρ → 1 (at ρ = 0.9 it is 0.33, at 0.999 it is 0.03). The
    64-node Gauss–Hermite rule (node spacing ≈ 0.3 near 0) is used up to ρ = 0.5, where it is accurate to ~1e-7;
    above, it misses the steep part (errors of 3e-3 at ρ = 0.9 with 40 comparisons), so the trapezoid rule on a
    uniform grid of step min(0.25, σ_W/4) over |W| <= 9 is used: for integrands smooth on the scale σ_W its
    error falls exponentially with σ_W/step (Trefethen & Weideman 2014, §5), and the tail beyond 9 is below 1e-18.
    """
    if rho == 0.0:
        return np.zeros(1), np.ones(1)
    if rho <= _GH_RHO_MAX:
        x, w = np.polynomial.hermite_e.hermegauss(_GH_NODES)
        return math.sqrt(rho) * x, w / w.sum()
    step = min(0.25, math.sqrt((1.0 - rho) / rho) / 4.0)
    half = math.ceil(_W_MAX / step)
    x = step * np.arange(-half, half + 1)
    w = stats.norm.pdf(x)
    return math.sqrt(rho) * x, w / w.sum()


def _tiny(prob):
    """Probabilities below 1e-250 as 0: scipy's binomial pmf overflows at p ~ 1e-307 (boost ibeta_derivative)."""
    return 0.0 if prob < 1e-250 else prob


def _binom_pmf(k, n, q, lgam):
    """Binomial pmf Bin(k; n, q) over integer arrays k, n (0 outside 0 <= k <= n), with log-factorials ``lgam``.

    The chains below need an (m + 1) × (m + 1) matrix of these at every step; written with a table of
    log-factorials it costs one exp per entry (scipy's generic pmf is several times slower).
    """
    valid = (k >= 0) & (k <= n)
    kk, nn = np.where(valid, k, 0), np.where(valid, n, 0)
    if q <= 0.0:
        out = (kk == 0).astype(float)
    elif q >= 1.0:
        out = (kk == nn).astype(float)
    else:
        out = np.exp(lgam[nn] - lgam[kk] - lgam[nn - kk] + kk * math.log(q) + (nn - kk) * math.log1p(-q))
    return np.where(valid, out, 0.0)


def _holm_tail(f):
    """P(R >= r), r = 1..m, for Holm with exchangeable tests; f[k] = P(p <= α/(m − k)) for k = 0..m−1."""
    m = f.size
    states = np.arange(m + 1)
    lgam = special.gammaln(states + 1.0)
    dist = np.zeros(m + 1)
    dist[0] = 1.0
    prev = 0.0
    tail = np.empty(m)
    for k in range(m):
        # each p-value still above the previous threshold falls below this one with prob (f_k − f_{k−1})/(1 − f_{k−1})
        step = 0.0 if prev >= 1.0 else _tiny(min(max((f[k] - prev) / (1.0 - prev), 0.0), 1.0))
        # transition matrix T[s, t] = P(t − s of the m − s remaining fall below) = Bin(t − s; m − s, step)
        new = dist @ _binom_pmf(states[None, :] - states[:, None], m - states[:, None], step, lgam)
        new[states < k + 1] = 0.0  # step k + 1 needs at least k + 1 p-values below its threshold
        dist = new
        tail[k] = dist.sum()
        prev = f[k]
    return tail


def _bh_tail(g):
    """P(R >= r), r = 1..m, for BH with exchangeable tests; g[r−1] = P(p <= α r / m)."""
    m = g.size
    states = np.arange(m + 1)
    lgam = special.gammaln(states + 1.0)
    dist = _binom_pmf(states, np.full(m + 1, m), _tiny(float(g[-1])), lgam)  # N(t_m)
    below = np.empty(m)  # below[r−1] = P(N(t_j) <= j − 1 for every j >= r) = P(R < r)
    for r in range(m, 0, -1):
        dist = dist.copy()
        dist[r:] = 0.0
        below[r - 1] = dist.sum()
        if r > 1:
            thin = 0.0 if g[r - 1] <= 0 else _tiny(min(g[r - 2] / g[r - 1], 1.0))
            # binomial thinning: T[s, t] = Bin(t; s, thin), each of the s p-values below t_r stays below t_{r−1}
            dist = dist @ _binom_pmf(states[None, :], states[:, None], thin, lgam)
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


def _thresholds(m, alpha, correction):
    if correction == "holm":
        return alpha / (m - np.arange(m))
    if correction == "bh":
        return alpha * np.arange(1, m + 1) / m
    return np.array([alpha if correction == "none" else alpha / m])


def _procedure(p, alpha, correction):
    """Rejections (rows of families × m comparisons) and their count per row, for p-values ``p``."""
    m = p.shape[1]
    if correction in ("none", "bonferroni"):
        rejected = p <= _thresholds(m, alpha, correction)[0]
        return rejected, rejected.sum(axis=1)
    order = np.argsort(p, axis=1)
    sorted_p = np.take_along_axis(p, order, axis=1)
    passed = sorted_p <= _thresholds(m, alpha, correction)
    if correction == "holm":
        count = np.where(passed.all(axis=1), m, np.argmin(passed, axis=1))  # first failure ends the steps
    else:
        last = m - np.argmax(passed[:, ::-1], axis=1)  # largest r with p_(r) <= α r / m
        count = np.where(passed.any(axis=1), last, 0)
    rejected_sorted = np.arange(m)[None, :] < count[:, None]
    rejected = np.empty_like(rejected_sorted)
    np.put_along_axis(rejected, order, rejected_sorted, axis=1)
    return rejected, count


def _full_correlation(mus, alpha, correction):
    """Exact power at ρ = 1, or None when it would take more than the work limit.

    Every z_j = μ_j + W shares one standard normal W, so the procedure's outcome is a function of W alone and
    piecewise constant: it can change only where some |μ_j + W| crosses a threshold z_{1−t/2}, at W = ±z − μ_j.
    Evaluating the procedure once inside each segment between these breakpoints and weighting by the segment's
    normal probability gives every quantity exactly. With equal powers this is the closed form: all statistics
    are identical, so Holm rejects all m or none (all iff p <= α/m) and BH likewise (all iff p <= α).
    """
    m = mus.size
    crit = stats.norm.isf(_thresholds(m, alpha, correction) / 2.0)
    points = np.unique(np.concatenate([(c - mus) for c in crit] + [(-c - mus) for c in crit]))
    if (points.size + 1) * m > _SEGMENT_BUDGET:
        return None
    mids = np.concatenate([[points[0] - 1.0], (points[:-1] + points[1:]) / 2.0, [points[-1] + 1.0]])
    cdf = np.concatenate([[0.0], stats.norm.cdf(points), [1.0]])
    weight = np.diff(cdf)
    p = 2.0 * stats.norm.sf(np.abs(mids[:, None] + mus[None, :]))
    rejected, count = _procedure(p, alpha, correction)
    per = weight @ rejected
    all_ = float(weight @ (count == m))
    any_ = float(weight @ (count > 0))
    return np.clip(per, 0.0, 1.0), min(max(all_, 0.0), 1.0), min(max(any_, 0.0), 1.0)


def _simulate(mus, alpha, correction, rho, n_sims, seed):
    rng = rng_of(seed)
    m = mus.size
    per = np.zeros(m)
    all_count = any_count = 0
    block = max(1, 2_000_000 // m)
    done = 0
    while done < n_sims:
        size = min(block, n_sims - done)
        z = rng.standard_normal((size, m))
        if rho > 0:
            z = math.sqrt(1.0 - rho) * z + math.sqrt(rho) * rng.standard_normal((size, 1))
        p = 2.0 * stats.norm.sf(np.abs(z + mus))
        rejected, count = _procedure(p, alpha, correction)
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
        Equicorrelation ρ in [0, 1] of the z statistics (0: independent comparisons; 1: identical noise).
    n_sims : int, optional
        Simulated families when Holm or BH meet unequal powers, or when the exact computation would exceed its
        work limit (1,000 … 10,000,000; capped at 10,000,000 / m so the simulation stays bounded).
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
    Gauss–Hermite rule up to ρ = 0.5; above, the trapezoid rule with step min(0.25, σ_W/4), σ_W = √((1 − ρ)/ρ),
    accurate to ~1e-7 — Gauss–Hermite was off by 3e-3 at ρ = 0.9). At ρ = 1, z_j = μ_j + W: the rejections change
    only at W = ±z_{1−t/2} − μ_j, and summing the procedure's outcome over those segments is exact (Holm and BH
    with equal powers reject all m or none).

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
    n_sims = check_int("n_sims", n_sims, low=1_000, high=10_000_000)
    m = arr.size
    mus = effect_from_power(arr, alpha=alpha)
    if correlation == 1.0:
        exact = _full_correlation(mus, alpha, correction)
        if exact is not None:
            per, all_, any_ = exact
            return FamilyPower(per, all_, any_, float(per.sum()), 0.0, correction, "exact")
    elif correction in ("none", "bonferroni") or m == 1:
        each = alpha if correction == "none" else alpha / m
        per, all_, any_ = _closed_single(mus, each, correlation)
        return FamilyPower(np.clip(per, 0, 1), min(max(all_, 0.0), 1.0), min(max(any_, 0.0), 1.0),
                           float(per.sum()), 0.0, correction, "exact")
    elif np.ptp(mus) <= 1e-12 and _nodes(correlation)[0].size * m**3 <= _CHAIN_BUDGET:
        per, all_, any_, expected = _exact_equal(float(mus[0]), m, alpha, correction, correlation)
        return FamilyPower(per, all_, any_, expected, 0.0, correction, "exact")
    n_sims = min(n_sims, max(1_000, _SIM_BUDGET // m))
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

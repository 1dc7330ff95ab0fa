"""The Direct Assessment score model of Wei, Kocmi & Federmann (2022), §6.1, and the estimate it implies.

A system's DA judgments are ``100 - Gamma(k, θ)`` with ``k = μ²/σ²``,
``θ = σ²/μ``, ``μ = 100 - mean``, clipped to [0, 100]. Exact moments, the
Mann–Whitney effect and the correlation of the Mann–Whitney statistic with
the difference of means are integrated here (Gauss–Legendre after a
substitution that removes the Gamma density's singularity at 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import integrate, special, stats

from ..validation import check_real

__all__ = ["CEILING_WARNING", "ceiling_share", "ScoreMoments", "score_distribution", "mwu_effect", "EstimateModel", "estimate_model"]

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(200)


class _Gamma:
    """``scipy.stats.gamma(a=k, scale=θ)`` without freezing it: the same methods with the same arguments, so the
    same numbers, but scipy builds a frozen distribution's docstring when it is created (≈ 0.5 ms, an eighth of
    a DA budget move, which makes hundreds of them)."""

    __slots__ = ("kwds",)

    def __init__(self, a, scale):
        self.kwds = {"a": a, "scale": scale}

    def cdf(self, x):
        return stats.gamma.cdf(x, **self.kwds)

    def sf(self, x):
        return stats.gamma.sf(x, **self.kwds)

    def pdf(self, x):
        return stats.gamma.pdf(x, **self.kwds)

    def ppf(self, q):
        return stats.gamma.ppf(q, **self.kwds)

    def rvs(self, size=None, random_state=None):
        return stats.gamma.rvs(size=size, random_state=random_state, **self.kwds)


def _gamma(mean, sd):
    mu = 100.0 - mean
    return _Gamma(a=mu**2 / sd**2, scale=sd**2 / mu)


@dataclass(frozen=True)
class ScoreMoments:
    """Mean and standard deviation of clipped DA scores ``max(0, 100 - Gamma)``."""

    mean: float
    sd: float
    p_zero: float


#: Share of scores at the ceiling from which the DA page warns that its engines are unreliable.
CEILING_WARNING = 0.6


def ceiling_share(mean, sd) -> float:
    """Share of a system's scores within half a point of 100 under the clipped Gamma model: on DA's whole-number
    scale they are 100s, a point mass the continuous model does not describe.

    Above about 60% (a high mean with a wide spread) the analytic and simulated Mann–Whitney engines disagreed
    with each other and with scipy's ``mannwhitneyu`` on simulated scores (power off by 0.1–0.3; at 95 ± 27, a
    0.5-point gain: 0.83 analytic, 1.0 simulated, 0.73 by scipy), so the page warns from :data:`CEILING_WARNING`.

    Examples
    --------
    >>> round(ceiling_share(75, 27), 3), round(ceiling_share(95, 27), 2)
    (0.032, 0.84)
    """
    mean = check_real("mean", mean, low=1.0, high=99.0)
    sd = check_real("sd", sd, low=1.0, high=60.0)
    mu = 100.0 - mean
    return float(stats.gamma.cdf(0.5, mu**2 / sd**2, scale=sd**2 / mu))


def score_distribution(mean, sd) -> ScoreMoments:
    """Exact mean, SD and share of zeros of one system's clipped DA scores.

    Notes
    -----
    With G ~ Gamma(k, θ), X = 100 - min(G, 100). Its moments use the
    truncated Gamma moments ``E[G^r; G < 100] = θ^r Γ(k+r)/Γ(k) P(Gamma(k+r, θ) < 100)``.
    """
    mean = check_real("mean", mean, low=1.0, high=99.0)
    sd = check_real("sd", sd, low=1.0, high=60.0)
    mu = 100.0 - mean
    k, theta = mu**2 / sd**2, sd**2 / mu
    below = stats.gamma.cdf(100.0, k, scale=theta)
    m1 = k * theta * stats.gamma.cdf(100.0, k + 1, scale=theta)
    m2 = k * (k + 1) * theta**2 * stats.gamma.cdf(100.0, k + 2, scale=theta)
    g1 = m1 + 100.0 * (1 - below)  # E[min(G, 100)]
    g2 = m2 + 100.0**2 * (1 - below)
    return ScoreMoments(mean=100.0 - g1, sd=math.sqrt(max(g2 - g1**2, 0.0)), p_zero=1 - below)


@lru_cache(maxsize=4096)
def mwu_effect(mean_a, mean_b, sd) -> float:
    """``p = P(X_A > X_B) + ½ P(X_A = X_B)`` for clipped Gamma DA scores.

    X = 100 - min(G, 100): X_A > X_B ⇔ G_A < G_B and G_A < 100; ties only
    where both are clipped to 0. Computed with the less skewed Gamma as B (p(a, b) = 1 − p(b, a)), whose density
    stays bounded on the quadrature nodes.
    """
    if mean_b > mean_a:
        return 1.0 - mwu_effect(mean_b, mean_a, sd)
    ga, gb = _gamma(mean_a, sd), _gamma(mean_b, sd)
    # P(G_A < G_B, G_A < 100) = ∫_0^100 f_A(g) S_B(g) dg
    #   = F_A(100) S_B(100) + ∫_0^100 F_A(g) f_B(g) dg   (integration by parts).
    # The Gamma density of B behaves like g^(k-1) at 0; g = 100 v^(1/k) makes
    # the integrand smooth in v, so Gauss–Legendre converges fast.
    k_b = gb.kwds["a"]
    power = max(1.0, 1.0 / k_b)
    v = 0.5 * (_GL_NODES + 1.0)
    g = 100.0 * v**power
    jacobian = 100.0 * power * v ** (power - 1.0)
    with np.errstate(all="ignore"):
        inner = 0.5 * float(np.sum(_GL_WEIGHTS * ga.cdf(g) * gb.pdf(g) * jacobian))
    if not math.isfinite(inner):  # a shape k ≪ 1: v^(1/k) underflows and the density overflows at the nodes
        inner = _inner_in_logs(ga, gb)
    p_less = ga.cdf(100.0) * gb.sf(100.0) + inner
    tie = ga.sf(100.0) * gb.sf(100.0)
    return float(p_less + 0.5 * tie)


def _inner_in_logs(ga, gb) -> float:
    """``∫_0^100 F_A(g) f_B(g) dg`` in t = log g, for Gammas of shape k ≪ 1 (a mean near 100 with a large SD).

    Such a Gamma puts most of its mass at g far below the smallest float (P(G < 10⁻³⁰⁰) ≈ 10^(−300 k)), so the
    densities and distribution functions are evaluated in logs: near 0, F(g) = P(k, g/θ) ≈ (g/θ)^k / Γ(k + 1)
    (the first term of the series of the regularized incomplete gamma function, DLMF 8.7.1) and
    f(g) g = exp(k log(g/θ) − g/θ − log Γ(k)). Adaptive quadrature (QUADPACK) on panels in t from where
    F_B(e^t) ≈ e⁻⁴⁰ to log 100.
    """
    ka, sa = ga.kwds["a"], ga.kwds["scale"]
    kb, sb = gb.kwds["a"], gb.kwds["scale"]
    log_sa, log_sb = math.log(sa), math.log(sb)
    lg_a1, lg_b = special.gammaln(ka + 1.0), special.gammaln(kb)

    def integrand(t):
        xa = t - log_sa
        cdf_a = special.gammainc(ka, math.exp(xa)) if xa > -18.0 else math.exp(ka * xa - lg_a1)
        return cdf_a * math.exp(kb * (t - log_sb) - math.exp(t) / sb - lg_b)

    low = log_sb + (special.gammaln(kb + 1.0) - 40.0) / kb
    edges = np.linspace(low, math.log(100.0), 61)
    return float(sum(integrate.quad(integrand, a, b, epsabs=1e-13, epsrel=1e-11, limit=200)[0]
                     for a, b in zip(edges[:-1], edges[1:])))


def _drifts(test, n_per_system, mean, sd, delta):
    """E[Z_k] for each look (array of per-system sizes n_k)."""
    n = np.asarray(n_per_system, dtype=float)
    if test == "mwu":
        p = mwu_effect(mean + delta / 2, mean - delta / 2, sd)
        sd0 = np.sqrt((2 * n + 1) / (12 * n**2))  # SD of U/n² under H0 (equal group sizes)
        return (p - 0.5) / sd0
    a = score_distribution(mean + delta / 2, sd)
    b = score_distribution(mean - delta / 2, sd)
    pooled = math.sqrt((a.sd**2 + b.sd**2) / 2)
    return (a.mean - b.mean) / (pooled * np.sqrt(2 / n))


@dataclass(frozen=True)
class EstimateModel:
    """The difference of means as an estimate, next to the test statistic (per pair of judgments).

    Attributes
    ----------
    difference : float
        True difference of the clipped scores' means, E[X_A] - E[X_B] (the estimand).
    variance : float
        σ_A² + σ_B²: n × Var(X̄_A - X̄_B) with n judgments per system.
    correlation : float
        Asymptotic correlation of the test statistic with X̄_A - X̄_B (1 for the t test).
    """

    difference: float
    variance: float
    correlation: float


@lru_cache(maxsize=4096)
def estimate_model(test, mean, sd, delta) -> EstimateModel:
    """Mean difference, its variance and its correlation with the test statistic under the score model.

    Notes
    -----
    For Mann–Whitney, U/n² is asymptotically linear in the Hájek projections
    ``h₁(x) = P(Y < x) + ½P(Y = x)`` and ``h₂(y) = P(X > y) + ½P(X = y)``
    (van der Vaart 1998, §12.1), so with ``D = X̄ - Ȳ``

        corr(U, D) = (Cov(h₁(X), X) - Cov(h₂(Y), Y)) / √((Var h₁(X) + Var h₂(Y)) (σ_A² + σ_B²)).

    With X = 100 - min(G, 100): ``h₁(x) = S_B(g)`` for x = 100 - g > 0 and
    ``½S_B(100)`` at x = 0; ``h₂(y) = F_A(g)`` for y > 0 and
    ``F_A(100) + ½S_A(100)`` at y = 0. The integrals over g use the
    Gauss–Legendre rule and substitution of :func:`mwu_effect`.
    """
    ma, mb = mean + delta / 2, mean - delta / 2
    a, b = score_distribution(ma, sd), score_distribution(mb, sd)
    variance = a.sd**2 + b.sd**2
    if test == "t":
        return EstimateModel(a.mean - b.mean, variance, 1.0)
    ga, gb = _gamma(ma, sd), _gamma(mb, sd)
    power = max(1.0, 1.0 / min(ga.kwds["a"], gb.kwds["a"]))
    v = 0.5 * (_GL_NODES + 1.0)
    # density × Jacobian of g = 100 v^power in logs: for very skewed scores g underflows near v = 0 while the
    # product stays finite (the substitution removes the g^(k-1) singularity)
    log_v = np.log(v)
    log_g = math.log(100.0) + power * log_v
    g = np.exp(log_g)
    log_jacobian = math.log(100.0 * power) + (power - 1.0) * log_v

    def density_times_jacobian(dist):
        k, theta = dist.kwds["a"], dist.kwds["scale"]
        return np.exp((k - 1.0) * log_g - g / theta - special.gammaln(k) - k * math.log(theta) + log_jacobian)

    weights = 0.5 * _GL_WEIGHTS
    fa, fb = density_times_jacobian(ga), density_times_jacobian(gb)
    sb, cdf_a = gb.sf(g), ga.cdf(g)
    sa100, sb100 = float(ga.sf(100.0)), float(gb.sf(100.0))
    p = mwu_effect(ma, mb, sd)
    e_h1x = float(np.sum(weights * sb * (100.0 - g) * fa))
    e_h2y = float(np.sum(weights * cdf_a * (100.0 - g) * fb))
    e_h1sq = float(np.sum(weights * sb**2 * fa)) + 0.25 * sb100**2 * sa100
    e_h2sq = float(np.sum(weights * cdf_a**2 * fb)) + (1.0 - sa100 + 0.5 * sa100) ** 2 * sb100
    cov = (e_h1x - p * a.mean) - (e_h2y - p * b.mean)
    var_u = max(e_h1sq - p * p, 0.0) + max(e_h2sq - p * p, 0.0)
    r = cov / math.sqrt(var_u * variance) if var_u > 0 else 1.0
    return EstimateModel(a.mean - b.mean, variance, float(min(max(r, -1.0), 1.0)))



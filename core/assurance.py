"""Assurance: power averaged over a prior on the effect (O'Hagan, Stevens & Campbell 2005).

A planner rarely knows the true effect Δ. With a normal prior Δ ~ N(μ, τ²)
the **assurance** is the probability that the study ends significant *in the
hoped-for direction*, averaged over the prior:

.. math:: A = \\int P(\\text{significant},\\ \\operatorname{sign}(\\hat\\Delta) = s \\mid \\Delta)\\,
          \\varphi\\big((\\Delta - \\mu)/\\tau\\big)/\\tau\\ d\\Delta,

with ``s = sign(μ)`` (positive when μ = 0). No sample size can push it past
the **ceiling** ``P(sign(Δ) = s)`` — the prior probability that the effect
points the hoped-for way — which is why a vague prior cannot be rescued by
more data. As τ → 0 the assurance tends to the power at μ.

Each scenario module supplies the probability of a significant result in each
direction as a vectorized function of Δ from its exact or analytic engine; this
module integrates it by composite Gauss–Legendre quadrature (no Monte Carlo).
Panels are narrower than both τ and the standard error of the estimate, so
the steep part of the power curve is resolved even when τ is much larger
than the standard error. Where the scenario bounds Δ (an accuracy gain cannot
exceed the share of disagreeing items; accuracies stay in [0, 1]), the prior is
truncated to the feasible range and renormalized; the truncated mass is
reported.

References
----------
O'Hagan, A., Stevens, J. W. & Campbell, M. J. (2005). "Assurance in clinical
trial design." *Pharmaceutical Statistics* 4:187–201 — equation (3) gives the
closed form for a one-sided normal test, Φ((μ − z s)/√(s² + τ²)), used as the
oracle in the tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .validation import check_real

__all__ = ["AssuranceResult", "assurance", "normal_assurance", "assurance_sample_size", "prior_ceiling"]

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(8)
_MAX_PANELS = 1200


@dataclass(frozen=True)
class AssuranceResult:
    """Assurance of a design under a normal prior on its effect.

    Attributes
    ----------
    assurance : float
        P(significant in the hoped-for direction), averaged over the prior.
    ceiling : float
        P(the effect has the hoped-for sign) under the (truncated) prior: the
        assurance's limit as the sample size grows.
    power_at_mean : float
        Power at the prior mean (the usual single-number answer).
    prior_mean, prior_sd : float
        The prior N(μ, τ²) on the effect.
    direction : int
        +1 when the hoped-for effect is positive (μ >= 0), else −1.
    truncated_mass : float
        Prior mass outside the scenario's feasible effects (renormalized away).
    expected_judgments : float or None
        For sequential designs: the expected number of judgments averaged over
        the prior.
    """

    assurance: float
    ceiling: float
    power_at_mean: float
    prior_mean: float
    prior_sd: float
    direction: int = 1
    truncated_mass: float = 0.0
    expected_judgments: float | None = None


def _panels(a: float, b: float, width: float) -> np.ndarray:
    count = max(1, int(math.ceil((b - a) / width)))
    return np.linspace(a, b, count + 1)


def _nodes(mu, tau, low, high, scale):
    """Composite Gauss–Legendre nodes and prior weights on the truncated range.

    A significance probability changes from 0 to 1 within a few standard errors of ±z·SE; the panels are
    ``SE/2`` wide there (|Δ| <= 12 SE) and ``τ/2`` wide elsewhere, so the integral is resolved whatever the
    ratio of τ to the standard error, with a few hundred nodes.
    """
    a, b = max(low, mu - 8.5 * tau), min(high, mu + 8.5 * tau)
    fine = 12.0 * scale
    cuts = sorted({a, b} | {c for c in (-fine, fine) if a < c < b})
    edges = [a]
    for left, right in zip(cuts[:-1], cuts[1:]):
        inside = left >= -fine - 1e-15 and right <= fine + 1e-15
        width = min(tau / 2.0, scale / 2.0) if inside else tau / 2.0
        width = max(width, (right - left) / _MAX_PANELS)
        edges.extend(_panels(left, right, width)[1:])
    edges = np.asarray(edges)
    half = np.diff(edges)[:, None] / 2.0
    mid = (edges[:-1] + edges[1:])[:, None] / 2.0
    x = (mid + half * _GL_NODES[None, :]).ravel()
    w = (half * _GL_WEIGHTS[None, :]).ravel() * stats.norm.pdf(x, mu, tau)
    return x, w


def prior_ceiling(mean: float, sd: float, *, low: float = -math.inf, high: float = math.inf) -> float:
    """P(the effect has the sign of ``mean``) under N(mean, sd²) truncated to [low, high] (1 when sd = 0)."""
    if sd == 0:
        return 1.0 if mean != 0 else 0.5
    mass = stats.norm.cdf(high, mean, sd) - stats.norm.cdf(low, mean, sd)
    if mass <= 0:
        return math.nan
    if mean >= 0:
        return float((stats.norm.cdf(high, mean, sd) - stats.norm.cdf(max(low, 0.0), mean, sd)) / mass) if high > 0 \
            else 0.0
    return float((stats.norm.cdf(min(high, 0.0), mean, sd) - stats.norm.cdf(low, mean, sd)) / mass) if low < 0 else 0.0


def assurance(
    directional: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    *,
    prior_mean: float,
    prior_sd: float,
    power_at_mean: float,
    scale: float,
    low: float = -math.inf,
    high: float = math.inf,
    extra: Callable[[np.ndarray], np.ndarray] | None = None,
) -> AssuranceResult:
    """Integrate a design's directional power over a normal prior on its effect.

    Parameters
    ----------
    directional : callable
        ``directional(deltas)`` returns two arrays: P(significant and estimate
        > 0 | Δ) and P(significant and estimate < 0 | Δ) at every Δ.
    prior_mean, prior_sd : float
        μ and τ of the normal prior; τ = 0 gives the power at μ (at μ = 0: the
        positive direction's share of the false-positive rate, the limit as τ → 0).
    power_at_mean : float
        Power at μ (reported as is).
    scale : float
        Standard error of the effect estimate (sets the quadrature's resolution).
    low, high : float, optional
        Feasible effects; the prior is truncated to them.
    extra : callable, optional
        A further quantity to average over the prior (e.g. expected judgments).

    Returns
    -------
    AssuranceResult

    Raises
    ------
    ValueError
        If the prior puts no mass on feasible effects.
    """
    mu = check_real("delta_mean", prior_mean)
    tau = check_real("delta_sd", prior_sd, low=0.0)
    direction = 1 if mu >= 0 else -1
    if tau == 0.0:
        if not low <= mu <= high:
            raise ValueError(f"`delta_mean` must be a feasible effect, in [{low:g}, {high:g}], got {mu:g}.")
        extra_value = float(np.asarray(extra(np.array([mu])))[0]) if extra is not None else None
        value = float(power_at_mean)
        if mu == 0:
            # no effect: the power at μ is the false-positive rate of both directions, but the hoped-for direction
            # is the positive one (as for τ > 0, whose limit τ → 0 this keeps)
            value = float(np.asarray(directional(np.array([0.0]))[0], dtype=float)[0])
        return AssuranceResult(assurance=min(max(value, 0.0), 1.0), ceiling=1.0 if mu != 0 else 0.5,
                               power_at_mean=float(power_at_mean), prior_mean=mu, prior_sd=0.0, direction=direction,
                               expected_judgments=extra_value)
    mass = stats.norm.cdf(high, mu, tau) - stats.norm.cdf(low, mu, tau)
    if mass <= 1e-12:
        raise ValueError(f"The prior N({mu:g}, {tau:g}²) puts no mass on feasible effects [{low:g}, {high:g}]; "
                         "move `delta_mean` or widen `delta_sd`.")
    x, w = _nodes(mu, tau, low, high, max(float(scale), 1e-12))
    up, down = directional(x)
    hoped = np.asarray(up if direction > 0 else down, dtype=float)
    total = float(w.sum())
    value = float(np.dot(w, hoped) / total)
    ceiling = prior_ceiling(mu, tau, low=low, high=high)
    extra_value = float(np.dot(w, np.asarray(extra(x), dtype=float)) / total) if extra is not None else None
    return AssuranceResult(assurance=min(max(value, 0.0), 1.0), ceiling=float(min(max(ceiling, 0.0), 1.0)),
                           power_at_mean=float(power_at_mean), prior_mean=mu, prior_sd=tau, direction=direction,
                           truncated_mass=float(1.0 - mass), expected_judgments=extra_value)


def normal_assurance(se, prior_mean, prior_sd, *, alpha=0.05) -> float:
    """Closed form for the two-sided z test with standard error ``se`` (positive tail).

    ``Φ((μ − z s)/√(s² + τ²))`` plus the negligible wrong-tail term for μ < 0
    by symmetry (O'Hagan et al. 2005, eq. 3). Used as a test oracle and for
    quick checks.

    Examples
    --------
    >>> round(normal_assurance(1.0, 2.8, 0.0), 3)  # τ = 0: the power at μ
    0.8
    """
    z = stats.norm.isf(alpha / 2.0)
    mu = abs(prior_mean)
    return float(stats.norm.cdf((mu - z * se) / math.sqrt(se**2 + prior_sd**2)))


def assurance_sample_size(assure: Callable[[int], float], target: float, *, n_min: int, n_max: int,
                          ceiling: float, guess: int | None = None) -> int:
    """Smallest n whose assurance reaches ``target``, by bisection over integers (``-1`` if unreachable).

    Assurance averages saw-toothed powers over a continuum of effects, so it
    is smooth and increasing in n for a prior centred on the hoped-for side;
    bisection is exact up to that smoothing. ``ceiling`` (the limit as n grows)
    decides reachability first: when it is below the target no n reaches it.
    ``guess`` (e.g. the size for the target power at the prior mean) starts the
    bracket, so few evaluations at large n are needed.
    """
    if ceiling < target:
        return -1

    def gap(n: int) -> float:
        return assure(n) - target

    g_lo = gap(n_min)
    if g_lo >= 0:
        return n_min
    lo, hi = n_min, n_max
    if guess is not None:
        probe = int(min(max(guess, n_min + 1), n_max))
        g_probe = gap(probe)
        while probe < n_max and g_probe < 0:
            lo, g_lo = probe, g_probe
            probe = min(probe * 4, n_max)
            g_probe = gap(probe)
        if g_probe < 0:
            return -1
        hi, g_hi = probe, g_probe
    else:
        g_hi = gap(hi)
        if g_hi < 0:
            return -1
    return _smallest_reaching(gap, lo, hi, g_lo, g_hi, target)


def _smallest_reaching(gap: Callable[[int], float], lo: int, hi: int, g_lo: float, g_hi: float,
                       target: float) -> int:
    """Smallest integer n in (lo, hi] with gap(n) >= 0, given gap(lo) < 0 <= gap(hi) and gap increasing.

    ``gap(n)`` is the assurance minus ``target``. Assurance is smooth in n and close to a normal CDF in log n
    (O'Hagan et al. 2005, eq. 3), so secant steps on the probit of the assurance against log n (a nearly straight
    line) home in on the crossing in a handful of evaluations where bisection over a million sizes took twenty,
    each costing an exact power at every quadrature node. Every step stays inside the bracket; when the steps stop
    shrinking by half, a bisection step follows, so the worst case stays within about twice bisection's.
    """
    def probit(g: float) -> float:
        return float(stats.norm.ppf(min(max(g + target, 1e-12), 1.0 - 1e-12)) - stats.norm.ppf(target))

    (a_n, a_p), (b_n, b_p) = (lo, probit(g_lo)), (hi, probit(g_hi))
    step, stalls = math.inf, 0
    while hi - lo > 1:
        c = (lo + hi) // 2
        if stalls < 2 and b_p != a_p:
            x_a, x_b = math.log(a_n), math.log(b_n)
            c = math.ceil(math.exp(x_b - b_p * (x_b - x_a) / (b_p - a_p)) - 1e-9)
        c = min(max(c, lo + 1), hi - 1)
        g_c = gap(c)
        if g_c >= 0:
            hi = c
        else:
            lo = c
        moved = abs(c - b_n)
        stalls = stalls + 1 if moved > step / 2 else 0
        step = moved
        (a_n, a_p), (b_n, b_p) = (b_n, b_p), (c, probit(g_c))
    return hi

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

__all__ = ["AssuranceResult", "assurance", "normal_assurance"]

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


def _nodes(mu, tau, low, high, scale):
    """Composite Gauss–Legendre nodes and prior weights on the truncated range."""
    a, b = max(low, mu - 8.5 * tau), min(high, mu + 8.5 * tau)
    width = max(min(tau / 2.0, scale / 2.0), (b - a) / _MAX_PANELS)
    panels = max(8, int(math.ceil((b - a) / width)))
    edges = np.linspace(a, b, panels + 1)
    half = np.diff(edges)[:, None] / 2.0
    mid = (edges[:-1] + edges[1:])[:, None] / 2.0
    x = (mid + half * _GL_NODES[None, :]).ravel()
    w = (half * _GL_WEIGHTS[None, :]).ravel() * stats.norm.pdf(x, mu, tau)
    return x, w


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
        μ and τ of the normal prior; τ = 0 gives the power at μ.
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
        return AssuranceResult(assurance=float(power_at_mean), ceiling=1.0 if mu != 0 else 0.5,
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
    if direction > 0:
        ceiling = (stats.norm.cdf(high, mu, tau) - stats.norm.cdf(max(low, 0.0), mu, tau)) / mass if high > 0 else 0.0
    else:
        ceiling = (stats.norm.cdf(min(high, 0.0), mu, tau) - stats.norm.cdf(low, mu, tau)) / mass if low < 0 else 0.0
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

"""Sequential Direct Assessment campaigns: fixed vs interim vs interim-futility testing.

Wei, Kocmi & Federmann (2022), "Searching for a higher power in the human
evaluation of MT", §5–7.

Score model (§6.1): a system's DA judgments are ``100 - Gamma(k, θ)`` with
``k = μ²/σ²``, ``θ = σ²/μ``, ``μ = 100 - mean``, clipped to [0, 100]. The two
systems' nominal means are ``mean ± delta/2``.

Designs (§7.2) spend a planned budget of judgments for the pair, split evenly
between the two systems:

* ``"fixed"`` — one test at the end at α;
* ``"interim"`` — K equally spaced analyses, stop as soon as one is
  significant at the boundary's nominal level (Pocock by default: K = 3 gives
  p < 0.0221); looks are rounded to whole judgments, and when that spaces
  them unequally the boundaries are solved at the realised fractions
  (:func:`_information`), so the size stays α;
* ``"interim_futility"`` — interim, and also stop for futility when p exceeds
  ``futility_p`` (0.5 in the paper); futility is non-binding, so the
  boundaries are those of ``"interim"`` and the false-positive rate can only
  fall;
* ``"naive"`` — K looks, each at α with no correction (what peeking does).

Two engines:

* ``"analytic"`` — the sequential z statistics are jointly normal with
  ``corr(Z_i, Z_j) = sqrt(t_i/t_j)`` (the canonical joint distribution;
  Jennison & Turnbull 2000, ch. 3). Crossing probabilities are computed by
  recursive numerical integration of the score process ``S_k = Z_k sqrt(k)``
  on a fine grid (Armitage, McPherson & Rowe 1969), batched over designs with
  FFT convolutions. The Mann–Whitney drift is ``(p - ½)/sd₀(U/n²)`` with
  ``p = P(X > Y) + ½ P(X = Y)`` integrated exactly under the Gamma model.
  Type-M at stopping (the estimate is the difference of the two systems'
  mean scores at the analysis that stopped) integrates E|D_k| given the
  test statistic over each stopping region (:func:`_recursion_with_type_m`).
* ``"simulate"`` — simulated campaigns in chunks of ~4 million scores,
  vectorized over replicates: all looks of a campaign's Mann–Whitney test
  from one sort (:func:`_mwu_looks`), the t test from running sums; with
  standard errors. ``n_sims × budget`` is capped at
  :data:`MAX_SIMULATED_JUDGMENTS` (a few seconds); larger requests are
  refused with a message saying what to reduce.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import optimize, special, stats

from ..design import Design, spec
from ..sizing import SampleSize, sample_size_search
from ..validation import as_floats, check_alpha, check_choice, check_int, check_real, rng_of
from .boundaries import BOUNDARIES, _boundary_z, boundary, boundary_z, equal_information, realised_boundaries
from .differences import parse_differences, read_differences
from .scores import (  # noqa: F401  (ScoreMoments: importable from core.sequential as before)
    CEILING_WARNING, EstimateModel, ScoreMoments, _drifts, _gamma, ceiling_share, estimate_model, mwu_effect,
    score_distribution)
from .recursion import (
    _SQRT_2PI,
    clip_probabilities,
    recursion,
    recursion_rows,
    stop_distribution,
    unit_recursion,
)

__all__ = [
    "DESIGNS",
    "BOUNDARIES",
    "TESTS",
    "METHODS",
    "REDUCIBLE_SHARE",
    "CampaignDesign",
    "BUDGETS",
    "CampaignResult",
    "EstimateModel",
    "estimate_model",
    "boundary",
    "boundary_z",
    "campaign_power",
    "campaign_curves",
    "campaign_mde",
    "campaign_assurance",
    "population_curves",
    "budget_savings",
    "default_population",
    "parse_differences",
    "read_differences",
    "MAX_SIMULATED_JUDGMENTS",
    "control_variates_efficiency",
    "score_distribution",
    "ceiling_share",
    "CEILING_WARNING",
    "mwu_effect",
    "mwu_rows",
]

DESIGNS = ("fixed", "interim", "interim_futility", "naive")
TESTS = ("mwu", "t")
METHODS = ("analytic", "simulate")
#: Table 2 of Wei et al. (2022): share of the total annotation variance that a
#: metric could explain (the "reducible variance").
REDUCIBLE_SHARE = {"WMT21 *-en (crowd)": 0.231, "pSQM zh-en (professional)": 0.098,
                   "pSQM en-de (professional)": 0.534}

_MAX_BUDGET = 1_000_000
#: Most judgments simulated per scenario by the Monte Carlo engine (``n_sims`` × budget; e.g. 1,200
#: campaigns of 10,000 judgments with 10 looks, about 3 s): beyond it ``campaign_power`` refuses and
#: says to reduce ``n_sims`` or the budget.
MAX_SIMULATED_JUDGMENTS = 12_000_000
_SIM_CHUNK = 4_000_000  # scores per chunk of simulated campaigns


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _validate_model(mean, sd, delta):
    mean = check_real("mean", mean, low=1.0, high=99.0)
    sd = check_real("sd", sd, low=1.0, high=60.0)
    delta = check_real("delta", delta, low=-50.0, high=50.0)
    if mean + abs(delta) / 2 >= 99.5 or mean - abs(delta) / 2 <= 0.5:
        raise ValueError(
            f"`delta` must keep both systems' means inside (0.5, 99.5): mean ± delta/2 = "
            f"{mean - abs(delta) / 2:g} … {mean + abs(delta) / 2:g}."
        )
    return mean, sd, delta


def _check_population(population, mean) -> np.ndarray:
    """A population of true differences (DA points) every one of which the score model takes at ``mean``."""
    population = as_floats("population", population, what="numbers (differences in DA points)").ravel()
    if population.size == 0:
        raise ValueError("`population` must contain at least one difference.")
    if not np.all(np.isfinite(population)):
        raise ValueError("`population` must hold finite differences.")
    mean = check_real("mean", mean, low=1.0, high=99.0)
    widest = float(np.max(np.abs(population)))
    if mean + widest / 2 >= 99.5 or mean - widest / 2 <= 0.5:
        room = 2 * min(99.5 - mean, mean - 0.5)
        raise ValueError(f"`population`: at a mean score of {mean:g} the differences must stay below {room:g} DA "
                         f"points (both systems' means inside 0.5–99.5); it holds {widest:g}.")
    return population


def _validate_design(design, budget, peeks, kind, futility_p, alpha):
    design = check_choice("design", design, DESIGNS)
    budget = check_int("budget", budget, low=20, high=_MAX_BUDGET)
    peeks = check_int("peeks", peeks, low=1, high=10)
    kind = check_choice("boundary", kind, BOUNDARIES)
    futility_p = check_real("futility_p", futility_p, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_alpha(alpha)
    if design == "fixed":
        peeks = 1
    if budget < 4 * peeks:
        raise ValueError(f"`budget` must allow at least 2 judgments per system per look ({4 * peeks} here), "
                         f"got {budget}.")
    return design, budget, peeks, kind, futility_p, alpha


_GL6_X, _GL6_W = np.polynomial.legendre.leggauss(6)
_TYPE_M_CELLS = 4_000_000  # paths × grid points × tail nodes per block


def _tail_nodes(lo, hi, sigma):
    """Composite 6-point Gauss–Legendre nodes and weights on [lo, hi], panels of width σ/4."""
    panels = max(1, int(math.ceil((hi - lo) / (sigma / 4))))
    edges = np.linspace(lo, hi, panels + 1)
    half = np.diff(edges) / 2
    mid = edges[:-1] + half
    return (mid[:, None] + half[:, None] * _GL6_X[None, :]).ravel(), (half[:, None] * _GL6_W[None, :]).ravel()


def _fold_mean(m, s):
    """E|N(m, s²)| = m (1 - 2Φ(-m/s)) + 2 s φ(m/s) (|m| where s = 0)."""
    m, s = np.broadcast_arrays(np.asarray(m, dtype=float), np.asarray(s, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        x = m / s
        # scipy.stats.norm's cdf and pdf formulas (special.ndtr; exp(-x²/2)/√(2π)) without its argument
        # checking, a third of this function's time on the Type-M grids
        out = m * (1.0 - 2.0 * special.ndtr(-x)) + 2.0 * s * (np.exp(-x**2 / 2.0) / _SQRT_2PI)
    return np.where(s > 0, out, np.abs(m))


def _recursion_with_type_m(thetas, eff_z, fut_z, drift, sizes, difference, variance, correlation, information=None):
    """Crossing probabilities and Type-M at stopping of the difference of means, per drift path.

    Parameters are per path (rows): ``drift`` (D, K) E[Z_k]; ``sizes`` (D, K) judgments per system;
    ``difference``, ``variance``, ``correlation`` (D,) from :func:`estimate_model`; ``information`` the
    realised looks shared by all rows (:func:`_information`; ``None`` for equally spaced looks).

    Notes
    -----
    With ζ_k = D_k / se_k (se_k = √(variance/n_k)) and the test statistic
    Z_k jointly Brownian in the information time with correlation r, ζ_k
    given the whole Z path is N(μ_ζ,k + r (Z_k - μ_Z,k), 1 - r²), so
    ``E[|D_k| | Z path] = se_k · E|N(μ_ζ,k + r (Z_k - μ_Z,k), 1 - r²)|`` (a
    folded normal mean). Its integral over each stopping region
    ``|S_k| ≥ b_k`` (S_k = Z_k √I_k) is taken at every look from the
    recursion's point masses (:func:`core.sequential.recursion.recursion`,
    ``on_look``) with composite Gauss–Legendre nodes on the region. Type-M is
    ``Σ_k E[|D_k|; significant at k] / P(significant) / |difference|``. For
    the t test r = 1 and |D_k| = se_k |Z_k|.
    """
    thetas = np.atleast_2d(thetas)
    n_paths, looks = thetas.shape
    r = np.broadcast_to(np.asarray(correlation, dtype=float), (n_paths,))
    resid = np.sqrt(np.clip(1.0 - r * r, 0.0, None))
    se = np.sqrt(np.asarray(variance, dtype=float)[:, None] / np.asarray(sizes, dtype=float))
    mu_zeta = np.asarray(difference, dtype=float)[:, None] / se
    drift = np.asarray(drift, dtype=float)
    roots = _roots(looks, information)
    bounds = np.asarray(eff_z, dtype=float) * roots
    abs_mean = np.zeros((n_paths, looks))

    def on_look(k, mass, mu, sigma):
        root, b = float(roots[k]), bounds[k]
        regions = (_tail_nodes(b, max(b, float(mu.max())) + 8 * sigma, sigma),
                   _tail_nodes(min(-b, float(mu.min())) - 8 * sigma, -b, sigma))
        for y, w in regions:
            h = _fold_mean(mu_zeta[:, k, None] + r[:, None] * (y[None, :] / root - drift[:, k, None]),
                           resid[:, None])
            block = max(1, _TYPE_M_CELLS // max(1, mass.shape[1] * y.size))
            for start in range(0, n_paths, block):
                rows = slice(start, min(n_paths, start + block))
                # φ((y - μ)/σ)/σ on the (path, grid point, node) cube, each step in place: the cube is the bulk
                # of a budget move's time and the temporaries of the one-line form doubled it (same numbers)
                kernel = np.subtract(y[None, None, :], mu[rows, :, None])
                np.divide(kernel, sigma, out=kernel)
                np.square(kernel, out=kernel)
                np.multiply(kernel, -0.5, out=kernel)
                np.exp(kernel, out=kernel)
                np.divide(kernel, sigma * _SQRT_2PI, out=kernel)
                density = np.einsum("dm,dmq->dq", mass[rows], kernel)
                abs_mean[rows, k] += (density * h[rows] * w[None, :]).sum(axis=1) * se[rows, k]

    up, low, fut = _crossings(thetas, eff_z, fut_z, information, on_look=on_look)
    up, low, fut = clip_probabilities(up), clip_probabilities(low), clip_probabilities(fut)
    significant = (up + low).sum(axis=1)
    scale = np.abs(np.asarray(difference, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        type_m = abs_mean.sum(axis=1) / significant / scale
    return up, low, fut, np.where((significant > 0) & (scale > 0), type_m, np.nan)


# ---------------------------------------------------------------------------
# campaigns
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class CampaignResult:
    """Operating characteristics of one campaign design.

    Attributes
    ----------
    power : float
        P(stopping with a significant result in the right direction); at
        ``delta = 0``, the false-positive rate.
    false_positive_rate : float
        False-positive rate of the same design at ``delta = 0``.
    expected_judgments : float
        Expected number of judgments spent for the pair.
    stop_probabilities : tuple of float
        P(the campaign stops at analysis k), k = 1..K (sums to 1).
    efficacy_probabilities, futility_probabilities : tuple of float
        The same split by reason (significant / futile); the rest of the last
        analysis is "not significant at the end".
    type_s : float
        P(wrong sign | significant): the share of significant results that
        point the wrong way (``nan`` when nothing can be significant or the
        true difference is 0).
    nominal_p : tuple of float
        The nominal p-value threshold at each analysis.
    type_m : float
        Exaggeration ratio at stopping: E[|X̄_A - X̄_B| | significant] / |E[X_A] - E[X_B]|, the estimate being
        the difference of the two systems' mean scores at the analysis that stopped (``nan`` at ``delta = 0``).
        Analytic engine: :func:`_recursion_with_type_m`; Monte Carlo: the simulated campaigns' differences of means.
    mc_se : float
        Monte Carlo standard error of ``power`` (0 for the analytic engine).
    false_positive_rate_se, judgments_se : float
        Monte Carlo standard errors of ``false_positive_rate`` and ``expected_judgments``.
    """

    power: float
    false_positive_rate: float
    expected_judgments: float
    stop_probabilities: tuple
    efficacy_probabilities: tuple
    futility_probabilities: tuple
    type_s: float
    nominal_p: tuple
    budget: int
    looks: int
    mc_se: float = 0.0
    false_positive_rate_se: float = 0.0
    judgments_se: float = 0.0
    n_sims: int = 0
    method: str = "analytic"
    type_m: float = math.nan
    type_m_se: float = 0.0


def _look_sizes(budget, peeks):
    """Judgments per system at each analysis (equal steps, as close as integers allow)."""
    per_system = budget // 2
    return np.array([max(1, round(per_system * k / peeks)) for k in range(1, peeks + 1)], dtype=int)


def _information(sizes):
    """The realised looks as the recursion's information (judgments per system), ``None`` if equally spaced.

    Look sizes are rounded to whole judgments (:func:`_look_sizes`), so the
    looks of a budget not divisible by ``2 × peeks`` are unequally spaced; the
    boundaries and the recursion then use the realised information fractions
    ``t_k = n_k / n_K`` (Lan & DeMets 1983; Jennison & Turnbull 2000, §7.2),
    so the size stays α. Equally spaced looks keep the unit recursion.
    """
    return equal_information(sizes)


def _roots(looks, information):
    """√I_k: the scale from Z_k to the score S_k = Z_k √I_k (√k for equally spaced looks)."""
    return np.sqrt(np.arange(1, looks + 1)) if information is None else np.sqrt(np.asarray(information, float))


def _crossings(thetas, eff_z, fut_z, information, on_look=None):
    """up, low, fut of the recursion at the looks: unit increments, or the realised information's."""
    if information is None:
        return unit_recursion(thetas, eff_z, fut_z, on_look=on_look)
    info = np.asarray(information, dtype=float)
    roots = np.sqrt(info)
    return recursion(thetas, np.diff(np.concatenate([[0.0], info])), np.asarray(eff_z, float) * roots,
                     np.asarray(fut_z, float) * roots, on_look=on_look)


def _design_bounds(design, peeks, kind, futility_p, alpha, information=None):
    """Efficacy and futility thresholds on |Z| at the looks; ``information``: the realised looks (:func:`_information`).

    Futility is non-binding, so the efficacy boundaries are those of ``"interim"`` (solved without futility stops).
    """
    if design == "fixed":
        return np.array([stats.norm.isf(alpha / 2)]), np.zeros(1)
    if design == "naive":
        eff = np.full(peeks, stats.norm.isf(alpha / 2))
    elif information is None:
        eff = boundary_z(peeks, alpha=alpha, kind=kind)
    else:
        eff = np.array(_boundary_z(peeks, float(alpha), kind, 0.0, information))
    fut = np.zeros(peeks)
    if design == "interim_futility" and peeks > 1:
        fut[:-1] = stats.norm.isf(futility_p / 2)  # p > futility_p ⇔ |Z| < z_{1 - f/2}
    return eff, fut


def _sequential_probs(thetas, efficacy, futility, information=None):
    """Crossing probabilities at K looks (equally spaced: :func:`core.sequential.recursion.unit_recursion`),
    checked and clipped to [0, 1] (the residual of the O(h⁶) quadrature is below 10⁻⁹)."""
    return tuple(clip_probabilities(x) for x in _crossings(thetas, efficacy, futility, information))


def _thetas(drifts, information=None):
    """Mean increments of S_k = Z_k √I_k from the per-look drifts E[Z_k] (I_k = k for equally spaced looks)."""
    drifts = np.atleast_2d(drifts)
    roots = _roots(drifts.shape[1], information)
    means = drifts * roots
    return np.diff(np.concatenate([np.zeros((drifts.shape[0], 1)), means], axis=1), axis=1)


def _summaries(up, low, fut, sizes, delta):
    looks = up.shape[1]
    eff = up + low
    stop = stop_distribution(up, low, fut)  # everything left stops at the last look
    judgments = (stop * (2 * sizes)[None, :]).sum(axis=1)
    right = up.sum(axis=1) if delta >= 0 else low.sum(axis=1)
    wrong = low.sum(axis=1) if delta >= 0 else up.sum(axis=1)
    power = clip_probabilities(right if delta != 0 else eff.sum(axis=1))
    return power, wrong, judgments, stop, eff, fut, looks


def campaign_power(
    design,
    budget,
    delta,
    *,
    peeks=3,
    boundary="pocock",
    futility_p=0.5,
    mean=75.0,
    sd=27.0,
    alpha=0.05,
    test="mwu",
    method="analytic",
    n_sims=2000,
    seed=None,
    with_type_m=True,
) -> CampaignResult:
    """Power, false-positive rate and expected cost of a DA campaign design.

    Parameters
    ----------
    design : {"fixed", "interim", "interim_futility", "naive"}
        Testing procedure (Wei et al. §7.2; ``"naive"`` = uncorrected peeking).
    budget : int
        Planned judgments for the pair (split evenly; 20 … 1,000,000).
    delta : float
        True difference in mean DA points between the systems.
    peeks : int, optional
        Number of equally spaced analyses K (1–10; ignored for ``"fixed"``), at ``round(budget/2 · k/K)``
        judgments per system; boundaries at the realised looks (:func:`_information`).
    boundary : str, optional
        Boundary family (:data:`BOUNDARIES`).
    futility_p : float, optional
        Stop for futility when an interim p-value exceeds this (non-binding).
    mean, sd : float, optional
        Mean DA score of the pair and the judgment standard deviation (§6.1).
    alpha : float, optional
        Overall two-sided level.
    test : {"mwu", "t"}, optional
        Mann–Whitney U (the MT standard) or Student's t test.
    method : {"analytic", "simulate"}, optional
        Recursive integration, or simulated campaigns.
    n_sims : int, optional
        Campaigns per value of delta for ``"simulate"`` (100 … 200,000, and
        ``n_sims × budget`` at most :data:`MAX_SIMULATED_JUDGMENTS`).
    seed : int or numpy.random.Generator, optional
        Seed for ``"simulate"``.
    with_type_m : bool, optional
        False: the analytic engine leaves out the Type-M integrals (``type_m`` is ``nan``); everything else is
        the same number (the integrals only observe the recursion). Root searches that need power alone use it.

    Returns
    -------
    CampaignResult
        ``.power``, ``.expected_judgments``, ``.false_positive_rate``, ``.type_s``, ``.mc_se`` and the
        distribution of the stopping analysis.

    References
    ----------
    Wei, Kocmi & Federmann (2022), §6.1 and §7; Jennison & Turnbull (2000).

    Examples
    --------
    >>> r = campaign_power("fixed", 1200, 0.0)
    >>> round(r.false_positive_rate, 3)
    0.05
    """
    design, budget, peeks, kind, futility_p, alpha = _validate_design(design, budget, peeks, boundary, futility_p,
                                                                      alpha)
    mean, sd, delta = _validate_model(mean, sd, delta)
    test = check_choice("test", test, TESTS)
    method = check_choice("method", method, METHODS)
    sizes = _look_sizes(budget, peeks)
    info = _information(sizes)
    eff_z, fut_z = _design_bounds(design, peeks, kind, futility_p, alpha, info)
    nominal = tuple(float(v) for v in 2 * stats.norm.sf(eff_z))
    if method == "simulate":
        n_sims = check_int("n_sims", n_sims, low=100, high=200_000)
        if n_sims * budget > MAX_SIMULATED_JUDGMENTS:
            most = MAX_SIMULATED_JUDGMENTS // budget
            fix = f"reduce `n_sims` to at most {most:,} or " if most >= 100 else ""
            raise ValueError(
                f"`n_sims` × `budget` = {n_sims:,} × {budget:,} = {n_sims * budget:,} simulated judgments per "
                f"scenario; the Monte Carlo engine simulates at most {MAX_SIMULATED_JUDGMENTS:,} (a few seconds). "
                f"To simulate, {fix}reduce the `budget`; or use `method` 'analytic' (exact and instant).")
        return _simulate(design, sizes, eff_z, fut_z, delta, mean, sd, test, n_sims, seed, budget, nominal)
    drift = _drifts(test, sizes, mean, sd, delta)
    null = np.zeros(peeks)
    thetas = _thetas(np.vstack([drift, null]), info)
    if with_type_m:
        model = estimate_model(test, mean, sd, delta)
        up, low, fut, type_ms = _recursion_with_type_m(
            thetas, eff_z, fut_z, np.vstack([drift, null]), np.vstack([sizes, sizes]), [model.difference, 1.0],
            [model.variance, model.variance], [model.correlation, model.correlation], info)
        type_m = float(type_ms[0])
    else:
        up, low, fut = _sequential_probs(thetas, eff_z, fut_z, info)
        type_m = math.nan
    power, wrong, judgments, stop, eff, futp, looks = _summaries(up[:1], low[:1], fut[:1], sizes, delta)
    false_positive_rate = float(clip_probabilities(up[1].sum() + low[1].sum()))
    significant = float(up[0].sum() + low[0].sum())
    type_s = float(wrong[0]) / significant if delta != 0 and significant > 0 else math.nan
    return CampaignResult(
        power=float(power[0]), false_positive_rate=false_positive_rate, expected_judgments=float(judgments[0]),
        stop_probabilities=tuple(stop[0]), efficacy_probabilities=tuple(eff[0]),
        futility_probabilities=tuple(futp[0]), type_s=type_s, nominal_p=nominal, budget=budget,
        looks=looks, type_m=type_m,
    )


_LOG_TOP = math.log(100.0)


def _simulate_log_gaps(rng, mean, sd, size):
    """Simulated ``log G`` for the gaps ``G = min(Gamma(k, θ), 100)`` below the top of the scale (scores ``100 − G``).

    Drawn in logs, ``log G = log θ + log Gamma(k + 1) + (log U)/k`` (U uniform: Gamma(k)·θ has the law of
    θ·Gamma(k + 1)·U^(1/k); Stuart 1962; Marsaglia & Tsang 2000, who use it for shapes below 1), so every gap
    keeps its order. At shapes k ≪ 1 (a mean near 100 with a large SD) a good share of the gaps lie below 10⁻¹⁴
    and some below the smallest float: ``100 − G`` rounds the first to 100.0 and a sampler in plain floats
    returns 0 for the second. Both would be ties the model does not have (it is continuous below the clip at 0)
    — the Mann–Whitney test, which ranks them, needs the logs.
    """
    g = _gamma(mean, sd)
    k, theta = g.kwds["a"], g.kwds["scale"]
    with np.errstate(divide="ignore"):  # U = 0 (probability 2⁻⁵³): log G = −∞, the best possible score
        log_g = np.log(rng.standard_gamma(k + 1.0, size=size)) + np.log(rng.random(size)) / k + math.log(theta)
    return np.minimum(log_g, _LOG_TOP)


def _scores(log_gaps):
    """DA scores ``100 − G`` from the gaps' logs (exp(log 100) is a hair above 100: the clip keeps the score 0)."""
    return 100.0 - np.minimum(np.exp(log_gaps), 100.0)


def _simulate_scores(rng, mean, sd, size):
    """Simulated DA scores ``100 − min(G, 100)`` (:func:`_simulate_log_gaps`)."""
    return _scores(_simulate_log_gaps(rng, mean, sd, size))


def mwu_rows(x, y):
    """Two-sided asymptotic Mann–Whitney U test of each row of ``x`` against the same row of ``y``.

    Equal to scipy's ``mannwhitneyu(x, y, axis=1, method="asymptotic")``: U of ``x`` from mid-ranks, the normal
    approximation with continuity correction and the tie-corrected variance
    Var U = m·n/12·((N + 1) − Σ(t³ − t)/(N(N − 1))), N = m + n, t the size of each group of equal scores
    (Mann & Whitney 1947; Lehmann 1975, §1.4), for any finite scores and ties anywhere. The campaign simulator
    itself uses :func:`_mwu_looks` (every look from one sort); this is its one-look counterpart.

    Parameters
    ----------
    x, y : array_like
        2-D arrays of finite scores with the same number of rows (campaigns); ``x`` is m wide, ``y`` n wide.

    Returns
    -------
    (u, p) : ndarrays
        U statistic of ``x`` and the two-sided p-value, per row.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0] or 0 in x.shape or 0 in y.shape:
        raise ValueError("`x` and `y` must be 2-D arrays with the same number of rows and at least one column; got "
                         f"shapes {x.shape} and {y.shape}.")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("`x` and `y` must be finite.")
    rows, m = x.shape
    n = y.shape[1]
    total = m + n
    both = np.concatenate([x, y], axis=1)
    u = stats.rankdata(both, axis=1)[:, :m].sum(axis=1) - m * (m + 1) / 2.0
    # Σ(t³ − t) per row over the runs of equal values of each sorted row (a run never crosses a row: each row's
    # first value starts one)
    s = np.sort(both, axis=1)
    starts_run = np.ones(s.shape, dtype=bool)
    starts_run[:, 1:] = s[:, 1:] != s[:, :-1]
    starts = np.flatnonzero(starts_run.ravel())
    t = np.diff(np.append(starts, s.size)).astype(float)
    ties = np.bincount(starts // total, weights=t**3 - t, minlength=rows)
    var = m * n / 12.0 * ((total + 1) - ties / (total * (total - 1))) if total > 1 else np.zeros(rows)
    big = np.maximum(u, m * n - u)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (big - m * n / 2.0 - 0.5) / np.sqrt(var)
    p = np.clip(2.0 * stats.norm.sf(z), 0.0, 1.0)
    return u, p


def _sequential_pvalues(a, b, sizes, test, log_gaps):
    """p-values (and signs) at each look for arrays of campaigns (rows); looks are prefixes of the rows.

    ``a``, ``b``: the scores, for the t test; ``log_gaps``: the pair ``(log(100 − a), log(100 − b))`` as drawn
    (:func:`_simulate_log_gaps`), which the Mann–Whitney test ranks (the scores' rounding would tie gaps below
    10⁻¹⁴).
    """
    if test == "mwu":
        u, p = _mwu_looks(*log_gaps, sizes)
        return p, np.sign(u - (sizes * sizes / 2.0)[None, :])
    return _t_looks(a, b, sizes)


_SIGN = np.int64(-(2**63))
#: The float bits of log 100 (the clipped score 0), as :func:`_gap_keys` shifts them.
_TOP_KEY = int(np.array(_LOG_TOP).view(np.int64)) >> 6


def _gap_keys(log_gaps):
    """Integer keys in the scores' order (the smaller the gap, the larger the key) for any ``log G ≤ log 100``.

    A float's IEEE-754 bits read as an integer grow with its value when it is positive and shrink when it is
    negative (sign and magnitude); negating the magnitude of the negative ones gives an integer in the floats' own
    order. Dropping the lowest 6 of the 52 mantissa bits (logs equal to a relative 2⁻⁴⁶) keeps the keys below
    2⁵⁸, which leaves room for :func:`_mwu_looks`'s 5 bits of look and system. The clipped score 0 (log 100) has
    key 0.
    """
    bits = np.ascontiguousarray(log_gaps, dtype=np.float64).view(np.int64)
    ordered = np.where(bits < 0, -(bits & ~_SIGN), bits)
    return _TOP_KEY - (ordered >> 6)


def _mwu_looks(la, lb, sizes):
    """Mann–Whitney U and two-sided asymptotic p-values of every look (prefix) of every campaign, from one sort.

    ``la``, ``lb``: the logs of the two systems' gaps ``100 − score`` (:func:`_simulate_log_gaps`); U counts the
    pairs where A's score is higher, i.e. its gap smaller. The gaps of a campaign and the look at which each enters
    are packed into one int64 key (the gap's order key, :func:`_gap_keys`, then the look and the system in the
    low bits) and sorted once. With one-hot look indicators, the running count of
    B scores per look gives, for every A score, how many B scores of each
    look lie below it; summing those by the A score's look yields the K × K
    matrix M[p, q] = #{(x, y): x in look p of A, y in look q of B, y < x}
    (one batched matrix product), and U at look k is the sum of its k × k
    corner. Ties occur only at the clipped score 0 and count ½ (as in
    :func:`mwu_rows`, whose values this reproduces).
    """
    rows, n = la.shape
    looks = sizes.size
    look = np.searchsorted(sizes, np.arange(n), side="right").astype(np.int64)  # look at which item j enters
    out_u = np.empty((rows, looks))
    per_row = 2 * n * looks
    chunk = max(1, 2_000_000 // per_row)
    zeros_a = np.cumsum(la >= _LOG_TOP, axis=1)[:, sizes - 1]  # scores clipped to 0
    zeros_b = np.cumsum(lb >= _LOG_TOP, axis=1)[:, sizes - 1]
    levels = np.arange(looks)[None, :, None]
    for start in range(0, rows, chunk):
        stop = min(rows, start + chunk)
        qa = _gap_keys(la[start:stop])
        qb = _gap_keys(lb[start:stop])
        keys = np.concatenate([(qa << 5) | (look << 1) | 1, (qb << 5) | (look << 1)], axis=1)
        keys.sort(axis=1)
        lk = ((keys >> 1) & 15)[:, None, :]
        is_a = (keys & 1) == 1
        # running count of B scores of each look (rows: looks; contiguous along the sorted scores)
        below = np.cumsum((lk == levels) & ~is_a[:, None, :], axis=2, dtype=np.int32).astype(np.float64)
        counted = ((lk == levels) & (is_a & (keys >= 32))[:, None, :]).astype(np.float64)  # non-zero A scores
        m = np.matmul(counted, below.transpose(0, 2, 1))
        corner = np.cumsum(np.cumsum(m, axis=1), axis=2)
        out_u[start:stop] = corner[:, np.arange(looks), np.arange(looks)]
    out_u += 0.5 * zeros_a * zeros_b  # A and B both at the clipped 0: half a pair each
    size = sizes.astype(float)[None, :]
    ties = (zeros_a + zeros_b).astype(float)
    total = 2 * size
    var = size * size / 12.0 * ((total + 1) - (ties**3 - ties) / (total * (total - 1)))
    big = np.maximum(out_u, size * size - out_u)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (big - size * size / 2.0 - 0.5) / np.sqrt(var)
    p = np.where(var > 0, np.clip(2.0 * stats.norm.sf(z), 0.0, 1.0), 1.0)
    return out_u, p


def _t_looks(a, b, sizes):
    """Student's t test (equal variances, scipy ``ttest_ind``) at every look, from running sums."""
    idx = sizes - 1
    n = sizes.astype(float)[None, :]
    sa, sb = np.cumsum(a, axis=1)[:, idx], np.cumsum(b, axis=1)[:, idx]
    ma, mb = sa / n, sb / n
    # centred running sums of squares (a shift by the row's first-look mean keeps them accurate)
    ca, cb = a - ma[:, :1], b - mb[:, :1]
    qa = np.cumsum(ca * ca, axis=1)[:, idx] - (sa - n * ma[:, :1]) ** 2 / n
    qb = np.cumsum(cb * cb, axis=1)[:, idx] - (sb - n * mb[:, :1]) ** 2 / n
    pooled = (np.maximum(qa, 0) + np.maximum(qb, 0)) / (2 * n - 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (ma - mb) / np.sqrt(pooled * 2 / n)
        p = 2 * stats.t.sf(np.abs(t), 2 * n - 2)
    return np.nan_to_num(p, nan=1.0), np.sign(np.nan_to_num(t))


def _run_campaigns(pvals, signs, eff_p, fut_p):
    """Outcome of each campaign: look at which it stopped and why."""
    n_sims, looks = pvals.shape
    stopped = np.zeros(n_sims, dtype=bool)
    stop_look = np.full(n_sims, looks - 1)
    reason = np.zeros(n_sims, dtype=int)  # 1 efficacy, -1 futility, 0 ran to the end
    sign = np.zeros(n_sims)
    for k in range(looks):
        eff = ~stopped & (pvals[:, k] <= eff_p[k])
        fut = ~stopped & ~eff & (pvals[:, k] > fut_p[k]) if k < looks - 1 else np.zeros(n_sims, bool)
        stop_look[eff | fut] = k
        reason[eff] = 1
        reason[fut] = -1
        sign[eff] = signs[eff, k]
        stopped |= eff | fut
    return stop_look, reason, sign


def _type_m(estimate, significant, true_difference):
    """Type-M of simulated campaigns and its Monte Carlo SE: the mean of |estimate| / |true difference| over the
    significant ones (Gelman & Carlin 2014); (nan, 0) when the difference is 0 or nothing was significant."""
    if true_difference == 0 or not significant.any():
        return math.nan, 0.0
    ratio = np.abs(estimate[significant]) / abs(true_difference)
    return float(ratio.mean()), (float(ratio.std(ddof=1) / math.sqrt(ratio.size)) if ratio.size > 1 else math.nan)


def _simulate(design, sizes, eff_z, fut_z, delta, mean, sd, test, n_sims, seed, budget, nominal):
    rng = rng_of(seed)
    looks = sizes.size
    eff_p = 2 * stats.norm.sf(eff_z)
    fut_p = np.where(fut_z > 0, 2 * stats.norm.sf(fut_z), 1.0)
    out = {}
    chunk = max(1, _SIM_CHUNK // (2 * int(sizes[-1])))  # campaigns per chunk: ~4 million scores (32 MB)
    for label, d in (("alt", delta), ("null", 0.0)):
        parts = []
        for start in range(0, n_sims, chunk):
            size = min(chunk, n_sims - start)
            la = _simulate_log_gaps(rng, mean + d / 2, sd, (size, sizes[-1]))
            lb = _simulate_log_gaps(rng, mean - d / 2, sd, (size, sizes[-1]))
            a, b = _scores(la), _scores(lb)
            pvals, signs = _sequential_pvalues(a, b, sizes, test, (la, lb))
            stop_look, reason, sign = _run_campaigns(pvals, signs, eff_p, fut_p)
            # the estimate: difference of the two systems' means at the analysis that stopped
            means = (np.cumsum(a, axis=1)[:, sizes - 1] - np.cumsum(b, axis=1)[:, sizes - 1]) / sizes[None, :]
            parts.append((stop_look, reason, sign, means[np.arange(size), stop_look]))
        out[label] = tuple(np.concatenate([part[i] for part in parts]) for i in range(4))
    stop_look, reason, sign, estimate = out["alt"]
    significant = reason == 1
    if delta != 0:
        right = significant & (sign == np.sign(delta))
    else:
        right = significant
    power = right.mean()
    n_significant = int(significant.sum())
    type_s = float((significant & ~right).sum() / n_significant) if delta != 0 and n_significant else math.nan
    spent = 2 * sizes[stop_look]
    stop = np.bincount(stop_look, minlength=looks) / n_sims
    eff = np.bincount(stop_look[significant], minlength=looks) / n_sims
    fut = np.bincount(stop_look[reason == -1], minlength=looks) / n_sims
    fpr = (out["null"][1] == 1).mean()
    true_difference = estimate_model(test, mean, sd, delta).difference
    type_m, type_m_se = _type_m(estimate, significant, true_difference)
    return CampaignResult(
        power=float(power), false_positive_rate=float(fpr), expected_judgments=float(spent.mean()),
        stop_probabilities=tuple(stop), efficacy_probabilities=tuple(eff), futility_probabilities=tuple(fut),
        type_s=type_s, nominal_p=nominal, budget=budget, looks=looks,
        mc_se=math.sqrt(power * (1 - power) / n_sims), false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims),
        judgments_se=float(spent.std(ddof=1) / math.sqrt(n_sims)), n_sims=n_sims, method="simulate",
        type_m=type_m, type_m_se=type_m_se,
    )


# ---------------------------------------------------------------------------
# curves, populations, MDE, savings (analytic engine, batched)
# ---------------------------------------------------------------------------
def _batched(design, budgets, deltas, *, peeks, kind, futility_p, mean, sd, alpha, test, with_type_m=False):
    """Analytic power and expected judgments (and Type-M) for every (budget, delta) pair."""
    budgets = np.atleast_1d(np.asarray(budgets, dtype=int))
    deltas = np.atleast_1d(np.asarray(deltas, dtype=float))
    looks = 1 if design == "fixed" else peeks
    sizes = np.array([_look_sizes(int(b), looks) for b in budgets])
    infos = [_information(row) for row in sizes]
    if len(set(infos)) > 1:  # budgets with different realised looks: one batch per set of looks
        kw = dict(peeks=peeks, kind=kind, futility_p=futility_p, mean=mean, sd=sd, alpha=alpha, test=test,
                  with_type_m=with_type_m)
        out = [np.empty((budgets.size, deltas.size)) for _ in range(3 if with_type_m else 2)]
        for key in dict.fromkeys(infos):
            rows = np.array([i for i, info in enumerate(infos) if info == key])
            for whole, part in zip(out, _batched(design, budgets[rows], deltas, **kw)):
                whole[rows] = part
        return tuple(out)
    info = infos[0]
    eff_z, fut_z = _design_bounds(design, looks, kind, futility_p, alpha, info)
    # drift = effect(delta) × scale(n): one effect per delta, one scale per look size
    effects = np.empty(deltas.size)
    _fill_effects(effects, deltas, mean, sd, test)
    n = sizes.astype(float)
    scale = 1.0 / np.sqrt((2 * n + 1) / (12 * n**2)) if test == "mwu" else np.sqrt(n / 2)
    drifts = effects[None, :, None] * scale[:, None, :]
    drift_rows = drifts.reshape(-1, looks)
    shape = (budgets.size, deltas.size, looks)
    if with_type_m:
        models = [estimate_model(test, mean, sd, float(d)) for d in deltas]
        per_delta = np.array([(m.difference, m.variance, m.correlation) for m in models]).reshape(-1, 3)
        rows = np.tile(per_delta, (budgets.size, 1))  # rows ordered (budget, delta) as drift_rows
        size_rows = np.repeat(sizes, deltas.size, axis=0)
        up, low, fut, type_m = _recursion_with_type_m(_thetas(drift_rows, info), eff_z, fut_z, drift_rows,
                                                      size_rows, rows[:, 0], rows[:, 1], rows[:, 2], info)
        type_m = type_m.reshape(budgets.size, deltas.size)
    else:
        up, low, fut = _crossings(_thetas(drift_rows, info), eff_z, fut_z, info)
    up = clip_probabilities(up).reshape(shape)
    low = clip_probabilities(low).reshape(shape)
    fut = clip_probabilities(fut).reshape(shape)
    eff = up + low
    stop = stop_distribution(up, low, fut)
    judgments = (stop * (2 * sizes)[:, None, :]).sum(axis=-1)
    sign = np.sign(deltas)[None, :]
    power = clip_probabilities(np.where(sign > 0, up.sum(-1), np.where(sign < 0, low.sum(-1), eff.sum(-1))))
    if not with_type_m:
        return power, judgments
    return power, judgments, type_m


def campaign_curves(budget, deltas, *, designs=("fixed", "interim", "interim_futility"), peeks=3,
                    boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05, test="mwu",
                    with_type_m=True) -> pd.DataFrame:
    """Power and expected judgments vs true difference for several designs (Figure 5).

    ``with_type_m=False`` leaves out the Type-M integrals (``type_m`` is ``nan``): the same power and expected
    judgments in about a tenth of the time, for a chart drawn before the Type-M one or a view that needs power
    alone.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``design, delta, power, expected_judgments, budget, type_m`` (Type-M at stopping of the
        difference of means, as :attr:`CampaignResult.type_m`; ``nan`` at delta = 0).
    """
    deltas = np.atleast_1d(as_floats("deltas", deltas, what="numbers (true differences in DA points)"))
    if deltas.size == 0:
        raise ValueError("`deltas` must hold at least one difference.")
    frames = []
    for design in designs:
        design_, budget_, peeks_, kind, futility_p_, alpha_ = _validate_design(design, budget, peeks, boundary,
                                                                               futility_p, alpha)
        for d in deltas:
            _validate_model(mean, sd, float(d))
        power, judgments, *type_m = _batched(design_, [budget_], deltas, peeks=peeks_, kind=kind,
                                             futility_p=futility_p_, mean=mean, sd=sd, alpha=alpha_, test=test,
                                             with_type_m=bool(with_type_m))
        type_m = type_m[0] if type_m else np.full((1, np.size(deltas)), math.nan)
        frames.append(pd.DataFrame({"design": design, "delta": np.atleast_1d(deltas).astype(float),
                                    "power": power[0], "expected_judgments": judgments[0], "budget": budget_,
                                    "type_m": type_m[0]}))
    return pd.concat(frames, ignore_index=True)


def default_population(size=60) -> np.ndarray:
    """Absolute true differences shaped like Wei et al.'s Figure 6 histogram.

    A log-normal with median 1.2 DA points and log-SD 1: about 70% of pairs
    differ by less than 2 points, with a long tail (5% beyond 6 points).
    Returned as ``size`` equally weighted quantile points.
    """
    size = check_int("size", size, low=5, high=2000)
    q = (np.arange(size) + 0.5) / size
    return 1.2 * np.exp(stats.norm.ppf(q))


def population_curves(budgets, population, *, designs=("fixed", "interim", "interim_futility"), peeks=3,
                      boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05, test="mwu") -> pd.DataFrame:
    """Average power and expected judgments over a population of pairs (Figure 6a).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``design, budget, average_power, average_judgments``.
    """
    population = _check_population(population, mean)
    rows = []
    for design in designs:
        power, judgments = _population_averages(design, budgets, population, peeks=peeks, boundary=boundary,
                                                futility_p=futility_p, mean=mean, sd=sd, alpha=alpha, test=test)
        for b, p, j in zip(np.atleast_1d(budgets), power, judgments):
            rows.append((design, int(b), float(p), float(j)))
    return pd.DataFrame(rows, columns=["design", "budget", "average_power", "average_judgments"])


def _population_averages(design, budgets, population, *, peeks, boundary, futility_p, mean, sd, alpha, test):
    """One design's average power and expected judgments over ``population`` at each of ``budgets`` (arrays)."""
    design_, _, peeks_, kind, futility_p_, alpha_ = _validate_design(design, int(np.min(budgets)), peeks, boundary,
                                                                      futility_p, alpha)
    power, judgments = _batched(design_, budgets, population, peeks=peeks_, kind=kind, futility_p=futility_p_,
                                mean=mean, sd=sd, alpha=alpha_, test=test)
    return power.mean(axis=1), judgments.mean(axis=1)


def budget_savings(budget, population, *, peeks=3, boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0,
                   alpha=0.05, test="mwu", designs=("interim", "interim_futility")) -> pd.DataFrame:
    """Judgments each design needs to match the fixed design's average power (§7.3).

    For the fixed design at ``budget`` the average power over ``population``
    is the target; for each sequential design, the planned budget reaching it
    is found by root finding, and its expected judgments compared with
    ``budget``. (The paper reports 18% savings at its current budget, 1,200,
    and 27–28% at 3×, on its own data.)

    ``designs``: the sequential designs compared (each costs its own root search; a page that shows one saving
    asks for that one).

    Returns
    -------
    pandas.DataFrame
        ``design, planned_budget, expected_judgments, saving`` (fraction of
        ``budget`` saved; ``nan`` when the design cannot reach the target): the fixed design's row, then one row
        per entry of ``designs``.
    """
    population = _check_population(population, mean)
    designs = tuple(designs)
    unknown = [d for d in designs if d not in ("interim", "interim_futility")]
    if unknown or not designs:
        raise ValueError(f"`designs` must name 'interim' and/or 'interim_futility'; got {designs!r}.")
    budget = check_int("budget", budget, low=20, high=_MAX_BUDGET)
    kw = dict(peeks=peeks, boundary=boundary, futility_p=futility_p, mean=mean, sd=sd, alpha=alpha, test=test)
    target = float(population_curves([budget], population, designs=("fixed",), **kw)["average_power"].iloc[0])
    rows = [("fixed", budget, float(budget), 0.0)]
    # sequential designs need a somewhat larger plan (typically 1.1–1.6×) to match the fixed design
    factors = np.array([0.75, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5, 3.0])
    for design in designs:
        seen: dict[int, tuple[float, float]] = {}

        def at(b, design=design, seen=seen):
            """(average power, average judgments) at planned budget ``b``, each budget evaluated once: the grid,
            Brent's iterations (which land on the same whole budget near the end) and the answer share them."""
            if b not in seen:  # population_curves([b], …)'s row, without building its frame
                power, judgments = _population_averages(design, [b], population, **kw)
                seen[b] = (float(power[0]), float(judgments[0]))
            return seen[b]

        # a geometric grid of planned budgets brackets the answer — walked up only to its first budget at the
        # target (the bracket is the same as evaluating the whole grid: the first one at or above it), widened
        # upwards while none is — then Brent's method solves it inside the bracket with exact evaluations
        grid = [int(g) for g in np.unique(np.maximum(np.round(budget * factors), 4 * peeks).astype(int))]
        first, i = None, 0
        while first is None:
            if i == len(grid):
                if grid[-1] >= 64 * budget:
                    break
                grid.append(2 * grid[-1])
            if at(grid[i])[0] >= target:
                first = i
            i += 1
        if first is None:
            rows.append((design, math.nan, math.nan, math.nan))
            continue
        if first == 0:
            planned = float(grid[0])
        else:
            planned = optimize.brentq(lambda b, at=at: at(int(round(b)))[0] - target, float(grid[first - 1]),
                                      float(grid[first]), xtol=1.0)
            # Brent's answer is within a judgment of the crossing, on either side: the plan is the first whole
            # budget whose average power reaches the target (grid[first] does)
            b = int(round(planned))
            while at(b)[0] < target and b < grid[first]:
                b += 1
            planned = float(b)
        spent = at(int(round(planned)))[1]
        rows.append((design, int(round(planned)), spent, 1.0 - spent / budget))
    return pd.DataFrame(rows, columns=["design", "planned_budget", "expected_judgments", "saving"])


def campaign_mde(design, budget, *, target_power=0.8, peeks=3, boundary="pocock", futility_p=0.5, mean=75.0,
                 sd=27.0, alpha=0.05, test="mwu") -> float:
    """Smallest true difference (DA points) detected with ``target_power`` (§5, sensitivity).

    Returns ``nan`` if even a 40-point difference is not detected.
    """
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    kw = dict(peeks=peeks, boundary=boundary, futility_p=futility_p, mean=mean, sd=sd, alpha=alpha, test=test)
    limit = min(40.0, 2 * (99.0 - mean), 2 * (mean - 1.0))

    def gap(d):
        return campaign_power(design, budget, d, with_type_m=False, **kw).power - target_power

    if gap(limit) < 0:
        return math.nan
    return float(optimize.brentq(gap, 1e-6, limit, xtol=1e-4))


# ---------------------------------------------------------------------------
# assurance (power averaged over a prior on the difference)
# ---------------------------------------------------------------------------
def _feasible_delta(mean):
    """Largest |Δ| keeping both systems' means inside [1, 99] (as :func:`campaign_mde`) and within ±50 points."""
    return min(50.0, 2.0 * (mean - 1.0), 2.0 * (99.0 - mean))


@lru_cache(maxsize=32)
def _effect_spline(mean, sd, test):
    """The drift per unit √n as a smooth function of Δ (cubic spline through 241 exact evaluations).

    Mann–Whitney: p(Δ) − ½ with p from :func:`mwu_effect`; t: the standardized mean difference. Both are smooth
    in Δ; the spline's error is far below 10⁻⁸ (checked against direct evaluation in the tests).
    """
    from scipy.interpolate import CubicSpline

    limit = _feasible_delta(mean)
    grid = limit * np.sin(np.linspace(-np.pi / 2, np.pi / 2, 241))  # denser near the ends
    values = np.empty(grid.size)
    with np.errstate(over="ignore", invalid="ignore"):  # far tails of very skewed Gamma densities
        _fill_effects(values, grid, mean, sd, test)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"The score model with `mean` {mean:g} and `sd` {sd:g} is too extreme to integrate; move "
                         "the mean away from 0 and 100.")
    return CubicSpline(grid, values)


def _fill_effects(values, grid, mean, sd, test):
    for j, d in enumerate(grid):
        if test == "mwu":
            values[j] = mwu_effect(mean + d / 2, mean - d / 2, sd) - 0.5
        else:
            a, b = score_distribution(mean + d / 2, sd), score_distribution(mean - d / 2, sd)
            values[j] = (a.mean - b.mean) / math.sqrt((a.sd**2 + b.sd**2) / 2)


def campaign_assurance(design, budget, delta_mean, delta_sd, *, peeks=3, boundary="pocock", futility_p=0.5,
                       mean=75.0, sd=27.0, alpha=0.05, test="mwu"):
    """Assurance of a DA campaign design: power averaged over a normal prior on the true difference.

    Parameters
    ----------
    design, budget
        As in :func:`campaign_power` (procedure and planned judgments for the pair).
    delta_mean, delta_sd : float
        Prior N(μ, τ²) on the true difference in mean DA points (system A minus
        B); τ = 0 gives the power at μ (at μ = 0: the positive direction's half
        of the false-positive rate). The prior is truncated to the
        differences that keep both means inside [1, 99] (and |Δ| <= 50).
    peeks, boundary, futility_p, mean, sd, alpha, test
        As in :func:`campaign_power`.

    Returns
    -------
    core.assurance.AssuranceResult
        ``.assurance`` (P(the campaign stops for efficacy in the hoped-for
        direction), averaged over the prior), ``.ceiling`` (the prior
        probability of that direction), ``.power_at_mean`` and
        ``.expected_judgments`` — the expected judgments spent, averaged over the
        prior (interim looks stop early for efficacy or futility).

    Notes
    -----
    At every quadrature node Δ, the recursive integration of the analytic
    engine (Armitage, McPherson & Rowe 1969) gives the probabilities of
    crossing the upper and the lower efficacy boundary at each look and of
    stopping for futility; the assurance integrates the hoped-for crossing
    over the prior (O'Hagan et al. 2005, eq. 1) by composite Gauss–Legendre
    quadrature (:func:`core.assurance.assurance`), all nodes in one batched
    pass. The drift at Δ comes from a cubic spline through exact evaluations
    of the Mann–Whitney (or t) effect.

    References
    ----------
    O'Hagan, Stevens & Campbell (2005), Pharmaceutical Statistics 4:187–201;
    Wei, Kocmi & Federmann (2022), §6–7; Jennison & Turnbull (2000).

    Examples
    --------
    >>> r = campaign_assurance("interim", 1200, 5.0, 0.0)  # τ = 0: the power at μ
    >>> round(r.assurance, 4) == round(campaign_power("interim", 1200, 5.0).power, 4)
    True
    >>> r = campaign_assurance("interim", 1200, 5.0, 3.0)
    >>> r.assurance < r.ceiling < 1 and r.expected_judgments < 1200
    True
    """
    from ..assurance import assurance

    design, budget, peeks, kind, futility_p, alpha = _validate_design(design, budget, peeks, boundary, futility_p,
                                                                      alpha)
    mean, sd, mu = _validate_model(mean, sd, delta_mean)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=50.0)
    test = check_choice("test", test, TESTS)
    at_mean = campaign_power(design, budget, mu, peeks=peeks, boundary=kind, futility_p=futility_p, mean=mean,
                             sd=sd, alpha=alpha, test=test)
    sizes = _look_sizes(budget, peeks)
    info = _information(sizes)
    eff_z, fut_z = _design_bounds(design, peeks, kind, futility_p, alpha, info)
    n = sizes.astype(float)
    scale = 1.0 / np.sqrt((2 * n + 1) / (12 * n**2)) if test == "mwu" else np.sqrt(n / 2)
    spline = _effect_spline(mean, sd, test)
    limit = _feasible_delta(mean)
    memo = {}

    def parts(deltas):
        deltas = np.clip(np.asarray(deltas, dtype=float), -limit, limit)
        key = deltas.tobytes()
        if key not in memo:
            memo.clear()
            drift_rows = spline(deltas)[:, None] * scale[None, :]
            up, low, fut = _sequential_probs(_thetas(drift_rows, info), eff_z, fut_z, info)
            stop = stop_distribution(up, low, fut)
            memo[key] = (clip_probabilities(up.sum(axis=1)), clip_probabilities(low.sum(axis=1)), stop @ (2.0 * n))
        return memo[key]

    slope = abs(float(spline(mu, 1))) or abs(float(spline(0.0, 1)))
    se = 1.0 / max(slope * float(scale[-1]), 1e-12)  # standard error of the difference at the full budget
    return assurance(lambda d: parts(d)[:2], prior_mean=mu, prior_sd=tau, power_at_mean=at_mean.power, scale=se,
                     low=-limit, high=limit, extra=lambda d: parts(d)[2])


#: The DA page's planned budgets (its select slider's stops, judgments for the pair).
BUDGETS = (200, 300, 400, 600, 800, 1000, 1200, 1500, 1800, 2400, 3000, 3600, 4800, 6000, 8000, 10000)


@dataclass(frozen=True, init=False)
class CampaignDesign(Design):
    """A DA campaign comparing two systems (Wei et al. 2022, §7): the DA page's inputs, each declared once.

    Every field is declared with :func:`core.design.spec` — default, the engine's valid range (what
    :func:`campaign_power` accepts), the page's slider range, step, unit, label, help and the DA page's URL
    key (``design`` for the procedure, ``peeks`` for the looks, ``futility`` for the futility threshold). The
    page builds it once from its widgets and passes it, and nothing else, to its cached calls; pins and links
    read it back with :meth:`from_params`. Frozen and compared by value, so it is a cache key.

    Attributes
    ----------
    procedure : {"fixed", "interim", "interim_futility", "naive"}
        The testing procedure (the ``design`` argument of :func:`campaign_power`; URL key ``design``).
    delta : float
        True difference in mean DA points.
    looks : int
        Equally spaced analyses K (``peeks`` of :func:`campaign_power`; URL key ``peeks``). The keyword
        ``peeks=`` and the attribute ``.peeks`` remain as its former name.
    boundary, futility_p, mean, sd, alpha, test :
        As in :func:`campaign_power` (``futility_p``: URL key ``futility``).
    budget : int
        Planned judgments for the pair (the default of the methods' ``budget``).

    Examples
    --------
    >>> d = CampaignDesign("interim", 3.0)
    >>> d.power(1200) == campaign_power("interim", 1200, 3.0)
    True
    >>> CampaignDesign.from_params({"design": "interim", "peeks": "4"}) == CampaignDesign("interim", looks=4)
    True
    """

    procedure: str = spec(
        "fixed", choices=DESIGNS, key="design", label="Design",
        help="Fixed: one test at the end. Interim: K equally spaced analyses, stop at the first significant one "
        "(corrected). Interim-futility: also stop when p > the futility threshold. Naive: peek K times at α without "
        "correction (shown to warn).")
    delta: float = spec(
        2.0, low=-50.0, high=50.0, ui_low=0.0, ui_high=10.0, step=0.1, unit="pts", key="delta",
        label="True difference (DA points)",
        help="Difference in mean score between the two systems. Most WMT pairs differ by 1–2 points (Table 1 "
        "medians 0.5–3.2).")
    looks: int = spec(3, low=1, high=10, step=1, key="peeks", label="Number of analyses K",
                      help="Equally spaced looks at the data (the paper uses 3).")
    boundary: str = spec(
        "pocock", choices=BOUNDARIES, key="boundary", label="Boundary",
        help="How the overall α is shared among the looks. Pocock: same nominal level every time (K = 3 → p < "
        "0.0221). O'Brien–Fleming: very strict early, nearly α at the end.")
    futility_p: float = spec(
        0.5, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.1, ui_high=0.9, step=0.05, key="futility",
        label="Futility threshold (stop if p >)",
        help="Interim-futility stops a pair whose interim p-value exceeds this (0.5 in the paper). Non-binding: it "
        "never raises the false-positive rate.")
    mean: float = spec(75.0, low=1.0, high=99.0, ui_low=50.0, ui_high=95.0, step=0.5, unit="pts", key="mean",
                       label="Mean DA score", help="Average 0–100 Direct Assessment score of the pair's systems.")
    sd: float = spec(27.0, low=1.0, high=60.0, ui_low=10.0, ui_high=40.0, step=0.5, unit="pts", key="sd",
                     label="Judgment standard deviation",
                     help="Spread of individual judgments. WMT21 crowd DA: 29.4 (Table 2).")
    alpha: float = spec(0.05, low=0.0, high=0.5, low_open=True, ui_low=0.001, key="alpha",
                        label="Overall α (two-sided)",
                        help="False-positive rate of the whole campaign.")
    test: str = spec("mwu", choices=TESTS, key="test", label="Test",
                     help="Mann–Whitney U is the MT standard (Akhbardeh et al. 2021).")
    budget: int = spec(1200, low=20, high=_MAX_BUDGET, step=2, unit="judgments", key="budget",
                       label="Planned judgments for the pair",
                       help="Split evenly between the two systems. ~1,200 is a typical WMT-style pair.")

    def __init__(self, *args, peeks=None, **values):
        # the dataclass's own __init__, plus ``peeks=`` (the former name of ``looks``, still campaign_power's)
        names = [f.name for f in dataclasses.fields(self)]
        if len(args) > len(names):
            raise TypeError(f"CampaignDesign takes at most {len(names)} positional arguments, got {len(args)}.")
        for name, value in zip(names, args):
            if name in values:
                raise TypeError(f"CampaignDesign got multiple values for argument {name!r}.")
            values[name] = value
        if peeks is not None:
            if "looks" in values and values["looks"] != peeks:
                raise TypeError("CampaignDesign got both `looks` and `peeks` (its former name).")
            values["looks"] = peeks
        unknown = sorted(set(values) - set(names))
        if unknown:
            raise TypeError(f"CampaignDesign got an unexpected keyword argument {unknown[0]!r}.")
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, values.get(f.name, f.default))
        self.__post_init__()

    def __post_init__(self):
        self.check_fields()
        # the checks that span fields: the budget must fit the looks, and both means must stay inside the scale
        _validate_design(self.procedure, self.budget, self.looks, self.boundary, self.futility_p, self.alpha)
        _validate_model(self.mean, self.sd, self.delta)

    @property
    def peeks(self) -> int:
        """The former name of :attr:`looks` (the keyword of :func:`campaign_power`)."""
        return self.looks

    def options(self) -> dict:
        """The keyword options of this module's functions (everything but the procedure, budget and delta)."""
        return {"peeks": self.looks, "boundary": self.boundary, "futility_p": self.futility_p, "mean": self.mean,
                "sd": self.sd, "alpha": self.alpha, "test": self.test}

    def relevant(self) -> CampaignDesign:
        """The same campaign with the fields its procedure does not read set to their defaults: a fixed design has
        no looks, boundary or futility; only ``"interim_futility"`` reads ``futility_p`` (the efficacy boundaries
        are solved without futility stops, Wei et al. 2022 §6.1). Every number is the same; as a cache key it lets
        a slider move recompute only the procedures it changes."""
        default = {f.name: f.default for f in self.fields()}
        changes = {}
        if self.procedure != "interim_futility":
            changes["futility_p"] = default["futility_p"]
        if self.procedure == "fixed":
            changes.update(looks=default["looks"], boundary=default["boundary"])
        return self.with_(**changes) if changes else self

    def power(self, budget=None, *, method="analytic", n_sims=2000, seed=None) -> CampaignResult:
        """:func:`campaign_power` with ``budget`` judgments (default: :attr:`budget`)."""
        return campaign_power(self.procedure, self.budget if budget is None else budget, self.delta,
                              **self.options(), method=method, n_sims=n_sims, seed=seed)

    def mde(self, budget=None, *, target_power=0.8) -> float:
        """:func:`campaign_mde` with ``budget`` judgments (default: :attr:`budget`)."""
        return campaign_mde(self.procedure, self.budget if budget is None else budget, target_power=target_power,
                            **self.options())

    def sample_sizes(self, target_power=0.8):
        """:func:`core.sequential.campaign_sample_size`: the first and conservative budgets reaching the target."""
        return campaign_sample_size(self.procedure, self.delta, target_power=target_power, **self.options())

    #: The MDE reads no difference; the sample sizes read no budget (:meth:`key_for`).
    UNREAD = {"mde": {"delta": 0.0}, "sample_sizes": {"budget": None}}

    def options_only(self) -> CampaignDesign:
        """This campaign with only its :meth:`options` kept: the procedure, the difference (0) and the budget at
        their defaults. The outputs drawn over every procedure, many differences or many budgets (Figures 5 and 6,
        the savings of §7.3) read nothing else, so as their cache key it lets a move of the difference or of the
        procedure recompute none of them (the budget is their own argument)."""
        return self.with_(procedure=self.field("procedure").default, delta=0.0, budget=self.field("budget").default)

    def curves(self, deltas, *, procedures=("fixed", "interim", "interim_futility"), budget=None,
               with_type_m=True) -> pd.DataFrame:
        """:func:`campaign_curves` of ``procedures`` over true differences ``deltas`` at :attr:`budget`
        (``with_type_m=False``: power and expected judgments only, a tenth of the time)."""
        return campaign_curves(self.budget if budget is None else budget, list(deltas), designs=tuple(procedures),
                               **self.options(), with_type_m=with_type_m)

    def population_curves(self, budgets, population, *,
                          procedures=("fixed", "interim", "interim_futility")) -> pd.DataFrame:
        """:func:`population_curves` of ``procedures`` over the planned ``budgets``, averaged over the true
        differences ``population`` (Figure 6a)."""
        return population_curves(list(budgets), np.array(population), designs=tuple(procedures), **self.options())

    def savings(self, population, *, budget=None, designs=("interim", "interim_futility")) -> pd.DataFrame:
        """:func:`budget_savings` at ``budget`` judgments (default: :attr:`budget`) over the true differences
        ``population`` (§7.3), for the sequential ``designs``."""
        return budget_savings(self.budget if budget is None else budget, np.array(population), **self.options(),
                              designs=designs)

    def assurance(self, budget=None, delta_sd=1.0, *, delta_mean=None):
        """:func:`campaign_assurance` with a normal prior N(delta_mean, delta_sd²) on the difference (mean:
        :attr:`delta`; budget: :attr:`budget`)."""
        return campaign_assurance(self.procedure, self.budget if budget is None else budget,
                                  self.delta if delta_mean is None else delta_mean, delta_sd, **self.options())


def control_variates_efficiency(rho, reducible_share) -> float:
    """Data efficiency of the control-variates estimator (Wei et al. 2022, equation 2).

    Parameters
    ----------
    rho : float
        Sentence-level Pearson correlation of the metric with human scores, in [0, 1].
    reducible_share : float
        Share of the annotation variance due to real quality differences,
        ``σ_f² / (σ_f² + σ_a²)`` (Table 2's "reducible variance"), in (0, 1].

    Returns
    -------
    float
        ``DE = (1 + γ) / (1 - ρ² + γ)`` with ``γ = σ_a²/σ_f² = (1 - r)/r``
        (equation 3): the factor by which the budget is effectively multiplied.

    Examples
    --------
    Table 3, WMT21 column (reducible share 23.1%): 1.30, 1.06, 1.01 at ρ = 1, 0.5, 0.2.

    >>> [round(control_variates_efficiency(r, 0.231), 2) for r in (1.0, 0.5, 0.2)]
    [1.3, 1.06, 1.01]
    """
    rho = check_real("rho", rho, low=0.0, high=1.0)
    share = check_real("reducible_share", reducible_share, low=0.0, high=1.0, low_open=True)
    gamma = (1.0 - share) / share
    return (1.0 + gamma) / (1.0 - rho**2 + gamma)


def campaign_sample_size(procedure, delta, *, target_power=0.8, peeks=3, boundary="pocock", futility_p=0.5,
                         mean=75.0, sd=27.0, alpha=0.05, test="mwu") -> SampleSize:
    """Smallest planned budget (judgments for the pair) whose power reaches ``target_power``.

    Parameters
    ----------
    procedure : {"fixed", "interim", "interim_futility", "naive"}
        The testing procedure (``design`` of :func:`campaign_power`).
    delta : float
        True difference in mean DA points (non-zero).
    target_power : float
        In (0, 1).
    peeks, boundary, futility_p, mean, sd, alpha, test :
        As in :func:`campaign_power`.

    Returns
    -------
    core.sizing.SampleSize
        ``first``: the smallest budget with power >= ``target_power``; ``conservative``: the smallest budget from
        which power stays at or above it (searched up to 1,000,000 judgments; ``-1`` when not reachable).
        Power is a step function of the budget — the budget is split into ``budget // 2`` judgments per system
        and into looks rounded to whole judgments — so it can dip a little after first reaching the target
        (the package's saw-tooth convention: :mod:`core.sizing`). Both sizes are even (an odd budget has the
        power of the even one below it). The expected judgments actually spent at that budget are
        ``campaign_power(procedure, size.first, delta, …).expected_judgments``.

    Notes
    -----
    Power is the analytic engine's (:func:`campaign_power`, ``method="analytic"``), evaluated for whole blocks
    of budgets at once (:func:`_batched`). The search starts from the fixed design's normal approximation:
    with the per-judgment effect e (Mann–Whitney: P(A > B) − ½; t: the standardized difference), the drift at
    n judgments per system is e·√(6n) (Mann–Whitney) or e·√(n/2) (t), which must reach z_{1−α/2} + z_{power}.

    References
    ----------
    Wei, Kocmi & Federmann (2022), §6.1 (budgets for a target power) and §7; Chernick & Liu (2002)
    (saw-toothed power).

    Examples
    --------
    >>> from core.sequential import campaign_power
    >>> size = campaign_sample_size("fixed", 3.0)
    >>> size
    SampleSize(first=968, conservative=968)
    >>> campaign_power("fixed", 968, 3.0).power >= 0.8 > campaign_power("fixed", 967, 3.0).power
    True
    """
    # any budget that fits up to 10 looks: only the procedure's options are checked here
    procedure, _, peeks, kind, futility_p, alpha = _validate_design(procedure, 40, peeks, boundary, futility_p,
                                                                    alpha)
    mean, sd, delta = _validate_model(mean, sd, delta)
    if delta == 0:
        raise ValueError("`delta` must be non-zero to size a campaign (at 0 the rejection rate stays at most α).")
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    test = check_choice("test", test, TESTS)
    return _campaign_sample_size(procedure, delta, target_power, peeks, kind, futility_p, mean, sd, alpha, test)


# The search costs 0.1–0.4 s per procedure (tens of boundary solutions, Wei et al. 2022 §6.1); its arguments are
# validated scalars and its result is frozen, so one process keeps the recent answers (the launcher computes the DA
# page's defaults before the first visitor, scripts/serve.py).
@lru_cache(maxsize=256)
def _campaign_sample_size(procedure, delta, target_power, peeks, kind, futility_p, mean, sd, alpha, test):
    looks = 1 if procedure == "fixed" else peeks
    low = max(20, 4 * looks)
    power_many = _power_of_budgets(procedure, delta, looks, kind, futility_p, mean, sd, alpha, test)

    effect = np.empty(1)
    _fill_effects(effect, np.array([delta]), mean, sd, test)
    z = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
    e = abs(float(effect[0])) or 1e-9
    per_system = (z / e) ** 2 / 6.0 if test == "mwu" else 2.0 * (z / e) ** 2
    guess = min(max(2.0 * per_system, low), _MAX_BUDGET) if math.isfinite(per_system) else _MAX_BUDGET
    return sample_size_search(power_many, target_power, guess=guess, n_max=_MAX_BUDGET, low=low,
                              block=_campaign_block)


def _power_of_budgets(procedure, delta, looks, kind, futility_p, mean, sd, alpha, test):
    """The search's power function: the analytic power at every budget of an array (one evaluation per
    judgments-per-system, in blocks of 512 that keep the recursion's memory small)."""

    def power_many(budgets):
        # power depends on the budget only through budget // 2 judgments per system: evaluate each half once
        halves, back = np.unique(np.asarray(budgets, dtype=np.int64) // 2, return_inverse=True)
        even = 2 * halves
        out = np.empty(even.size)
        for start in range(0, even.size, 512):
            part = even[start:start + 512]
            if looks == 1:
                out[start:start + part.size] = _batched(procedure, part, [delta], peeks=looks, kind=kind,
                                                        futility_p=futility_p, mean=mean, sd=sd, alpha=alpha,
                                                        test=test)[0][:, 0]
            else:
                out[start:start + part.size] = _rows_power(procedure, part, delta, looks, kind, futility_p, mean,
                                                           sd, alpha, test)
        return out[back]

    return power_many


def _rows_power(procedure, budgets, delta, looks, kind, futility_p, mean, sd, alpha, test):
    """Power at each of many budgets of a sequential procedure, all integrated together.

    The power :func:`_batched` gives, for one difference: each budget's looks at their realised sizes
    (:func:`_look_sizes`), boundaries solved there (:func:`core.sequential.boundaries.realised_boundaries`, several
    at once), and every budget a row of one recursion on one grid
    (:func:`core.sequential.recursion.recursion_rows`) instead of a recursion of its own. Equally spaced looks
    are integrated on the score scale too (increments n_k − n_(k−1), boundaries z_k √n_k), the same distribution
    as the unit recursion's; the two agree to the quadrature's accuracy (≈ 1e-10).
    """
    sizes = np.array([_look_sizes(int(b), looks) for b in budgets], dtype=float)
    if procedure == "naive":
        eff_z = np.full(sizes.shape, stats.norm.isf(alpha / 2))
    else:
        eff_z = np.array(realised_boundaries(looks, float(alpha), kind,
                                             [_information(row.astype(int)) for row in sizes]))
    fut_z = np.zeros(sizes.shape)
    if procedure == "interim_futility":
        fut_z[:, :-1] = stats.norm.isf(futility_p / 2)
    effect = np.empty(1)
    _fill_effects(effect, np.array([delta]), mean, sd, test)
    scale = 1.0 / np.sqrt((2 * sizes + 1) / (12 * sizes**2)) if test == "mwu" else np.sqrt(sizes / 2)
    roots = np.sqrt(sizes)
    means = effect[0] * scale * roots
    thetas = np.diff(np.concatenate([np.zeros((sizes.shape[0], 1)), means], axis=1), axis=1)
    increments = np.diff(np.concatenate([np.zeros((sizes.shape[0], 1)), sizes], axis=1), axis=1)
    up, low, _ = recursion_rows(thetas, increments, eff_z * roots, fut_z * roots)
    up, low = clip_probabilities(up), clip_probabilities(low)
    return clip_probabilities(up.sum(axis=1) if delta > 0 else low.sum(axis=1))


def _campaign_block(n: int) -> int:
    """The sample-size search's block around a budget of ``n`` judgments: ``max(16, ⌊√n⌋)``, a quarter of
    :func:`core.sizing.search_block`.

    The generic block spans the O(√n) zigzag band of exact tests on counts, whose power drops by O(1/√n) when a
    critical count moves. The campaign's power has no such jumps: it is a smooth function of the drift at the
    realised looks, and only rounding the looks to whole judgments (:func:`_look_sizes`) moves the boundaries, by
    O(1/n). Dense scans of every even budget over six generic blocks around the answer find no drop (216 designs:
    interim, interim-futility and naive, every boundary, 2–10 looks, differences of 1.5–12 points, both tests; and
    tests/test_sequential_sizing.py), and over 105 random designs (every procedure and boundary, 2–10 looks, both
    tests, targets 80% and 90%) the searches with either block gave the same first and conservative budgets. Each
    budget of a scan solves its own boundaries (hundreds of recursions in a search), so the shorter block makes a
    search, and a move of the difference on the DA page, about four times faster.
    """
    return max(16, math.isqrt(max(int(n), 0)))

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
  p < 0.0221);
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
* ``"simulate"`` — simulated campaigns in chunks of ~4 million scores,
  vectorized over replicates: all looks of a campaign's Mann–Whitney test
  from one sort (:func:`_mwu_looks`), the t test from running sums; with
  standard errors. ``n_sims × budget`` is capped at
  :data:`MAX_SIMULATED_JUDGMENTS` (a few seconds); larger requests are
  refused with a message saying what to reduce.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import fft as sp_fft
from scipy import optimize, stats
from scipy.special import ndtr

from . import uploads
from .validation import check_alpha, check_choice, check_int, check_real

__all__ = [
    "DESIGNS",
    "BOUNDARIES",
    "TESTS",
    "METHODS",
    "REDUCIBLE_SHARE",
    "CampaignResult",
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
    "mwu_effect",
    "mwu_rows",
]

DESIGNS = ("fixed", "interim", "interim_futility", "naive")
#: Group-sequential boundary families: Pocock (1977) constant nominal level,
#: O'Brien & Fleming (1979), and Lan & DeMets (1983) α-spending with the
#: O'Brien–Fleming-type (``"lan_demets"``) or Pocock-type spending function.
BOUNDARIES = ("pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock")
TESTS = ("mwu", "t")
METHODS = ("analytic", "simulate")
#: Table 2 of Wei et al. (2022): share of the total annotation variance that a
#: metric could explain (the "reducible variance").
REDUCIBLE_SHARE = {"WMT21 *-en (crowd)": 0.231, "pSQM zh-en (professional)": 0.098,
                   "pSQM en-de (professional)": 0.534}

_GRID_STEP = 0.05
_SQRT_2PI = math.sqrt(2 * math.pi)


def _phi(x):
    return np.exp(-0.5 * x * x) / _SQRT_2PI


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(200)
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


# ---------------------------------------------------------------------------
# the score model
# ---------------------------------------------------------------------------
def _gamma(mean, sd):
    mu = 100.0 - mean
    return stats.gamma(a=mu**2 / sd**2, scale=sd**2 / mu)


@dataclass(frozen=True)
class ScoreMoments:
    """Mean and standard deviation of clipped DA scores ``max(0, 100 - Gamma)``."""

    mean: float
    sd: float
    p_zero: float


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
    inner = 0.5 * float(np.sum(_GL_WEIGHTS * ga.cdf(g) * gb.pdf(g) * jacobian))
    p_less = ga.cdf(100.0) * gb.sf(100.0) + inner
    tie = ga.sf(100.0) * gb.sf(100.0)
    return float(p_less + 0.5 * tie)


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


# ---------------------------------------------------------------------------
# recursive integration of the score process
# ---------------------------------------------------------------------------
def _cell_weights(grid, step, low, high):
    """Length of [s - step/2, s + step/2] ∩ (low ≤ |s| < high), per grid point."""
    left, right = grid - step / 2, grid + step / 2

    def overlap(a, b):
        return np.clip(np.minimum(right, b) - np.maximum(left, a), 0.0, None)

    return overlap(low, high) + overlap(-high, -low) if low > 0 else overlap(-high, high)


def _sequential_probs(thetas, efficacy, futility):
    """Crossing probabilities of the score process for a batch of drift paths.

    Parameters
    ----------
    thetas : ndarray, shape (D, K)
        Mean increments of S_k = Z_k sqrt(k) between looks (S_0 = 0).
    efficacy : ndarray, shape (K,)
        Boundaries on |Z_k| for stopping with significance.
    futility : ndarray, shape (K,)
        Stop for futility when |Z_k| < futility[k] (0 for none; ignored at K).

    Returns
    -------
    up, low, fut : ndarray, shape (D, K)
        P(stop at k with Z_k >= c_k), P(stop at k with Z_k <= -c_k), P(futility stop at k).
    """
    thetas = np.atleast_2d(np.asarray(thetas, dtype=float))
    n_paths, looks = thetas.shape
    roots = np.sqrt(np.arange(1, looks + 1))
    b = np.asarray(efficacy, float) * roots  # boundaries on S
    a = np.asarray(futility, float) * roots
    up = np.zeros((n_paths, looks))
    low = np.zeros((n_paths, looks))
    fut = np.zeros((n_paths, looks))
    # look 1: S_1 ~ N(θ_1, 1)
    t1 = thetas[:, 0]
    up[:, 0] = ndtr(t1 - b[0])
    low[:, 0] = ndtr(-b[0] - t1)
    if looks == 1:
        return up, low, fut
    fut[:, 0] = np.clip(ndtr(a[0] - t1) - ndtr(-a[0] - t1), 0, None)
    half = float(np.max(b[:-1])) + 0.5
    size = int(math.ceil(half / _GRID_STEP))
    grid = np.arange(-size, size + 1) * _GRID_STEP
    density = _phi(grid[None, :] - t1[:, None])
    m = grid.size
    fft_len = sp_fft.next_fast_len(3 * m - 2, real=True)
    offsets = np.arange(-(m - 1), m) * _GRID_STEP  # s' - s for s, s' on the grid
    for k in range(1, looks):
        weights = _cell_weights(grid, _GRID_STEP, a[k - 1], b[k - 1])
        mass = density * weights[None, :]  # continuation region at look k (index k-1)
        theta = thetas[:, k][:, None]
        shifted = grid[None, :] + theta  # mean of S_{k+1} given S_k = s
        up[:, k] = (mass * ndtr(shifted - b[k])).sum(axis=1)
        low[:, k] = (mass * ndtr(-b[k] - shifted)).sum(axis=1)
        if k < looks - 1:
            fut[:, k] = (mass * np.clip(ndtr(a[k] - shifted) - ndtr(-a[k] - shifted), 0, None)).sum(axis=1)
            # density of S_{k+1} on the grid: (mass ⊛ φ(· - θ)) via FFT
            kernel = _phi(offsets[None, :] - theta)
            conv = sp_fft.irfft(sp_fft.rfft(mass, fft_len, axis=1, workers=-1)
                                * sp_fft.rfft(kernel, fft_len, axis=1, workers=-1), fft_len, axis=1, workers=-1)
            density = conv[:, m - 1: 2 * m - 1]
    return up, low, fut


# ---------------------------------------------------------------------------
# boundaries
# ---------------------------------------------------------------------------
def _null_crossing(efficacy):
    up, low, _ = _sequential_probs(np.zeros((1, len(efficacy))), efficacy, np.zeros(len(efficacy)))
    return float(up.sum() + low.sum())


def _spend(kind, t, alpha):
    """Cumulative two-sided α spent by information fraction t (α/2 on each side)."""
    if kind == "lan_demets":  # O'Brien–Fleming type, per side: 2 - 2Φ(z_{1-α/4} / √t)
        return 2.0 * (2.0 - 2.0 * stats.norm.cdf(stats.norm.isf(alpha / 4) / math.sqrt(t)))
    return alpha * math.log(1 + (math.e - 1) * t)  # Pocock type


@lru_cache(maxsize=512)
def _boundary_z(peeks, alpha, kind):
    if peeks == 1:
        return (float(stats.norm.isf(alpha / 2)),)
    looks = np.arange(1, peeks + 1)
    if kind in ("pocock", "obrien_fleming"):
        shape = np.ones(peeks) if kind == "pocock" else np.sqrt(peeks / looks)

        def gap(c):
            return _null_crossing(c * shape) - alpha

        c = optimize.brentq(gap, stats.norm.isf(alpha / 2) * 0.8, 6.0, xtol=1e-7)
        return tuple(float(v) for v in c * shape)
    bounds: list[float] = []
    spent = 0.0
    for k in range(1, peeks + 1):
        target = _spend(kind, k / peeks, alpha) - spent

        def gap(c, k=k):  # only the first k looks matter for the k-th increment
            trial = np.array(bounds + [c])
            up, low, _ = _sequential_probs(np.zeros((1, k)), trial, np.zeros(k))
            return float(up[0, k - 1] + low[0, k - 1]) - target

        c = optimize.brentq(gap, 0.5, 12.0, xtol=1e-7) if target > 1e-12 else 12.0
        bounds.append(float(c))
        spent += target
    return tuple(bounds)


def boundary_z(k, *, alpha=0.05, kind="pocock") -> np.ndarray:
    """Critical values on |Z| at each of ``k`` equally spaced analyses."""
    k = check_int("k", k, low=1, high=10)
    alpha = check_alpha(alpha)
    kind = check_choice("kind", kind, BOUNDARIES)
    return np.array(_boundary_z(k, float(alpha), kind))


def boundary(k, *, alpha=0.05, kind="pocock") -> np.ndarray:
    """Nominal two-sided p-value thresholds of a group-sequential design.

    Parameters
    ----------
    k : int
        Number of equally spaced analyses (1–10).
    alpha : float, optional
        Overall two-sided false-positive rate.
    kind : {"pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock"}
        Boundary family (see :data:`BOUNDARIES`).

    Returns
    -------
    ndarray, shape (k,)
        Reject at analysis i when p_i is below the i-th threshold.

    Notes
    -----
    Constants are computed, not tabulated: the crossing probability of the
    canonical joint distribution (corr √(t_i/t_j)) under H0 is integrated
    recursively and the constant solved for by Brent's method; spending
    boundaries are solved look by look for the increments of the spending
    function, α/2 spent on each side (O'Brien–Fleming type
    ``2 - 2Φ(z_{1-α/4}/√t)`` per side, Pocock type ``α log(1 + (e - 1) t)`` in
    all), the convention of gsDesign's ``sfLDOF``/``sfLDPocock``.

    References
    ----------
    Pocock (1977); O'Brien & Fleming (1979); Lan & DeMets (1983); Jennison &
    Turnbull (2000), Tables 2.1 and 2.3; Wei et al. (2022), §7.2.

    Examples
    --------
    >>> [round(float(p), 4) for p in boundary(3)]  # Wei et al. §7.2: "is p < 0.0221?"
    [0.0221, 0.0221, 0.0221]
    """
    z = boundary_z(k, alpha=alpha, kind=kind)
    return 2.0 * stats.norm.sf(z)


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


def _look_sizes(budget, peeks):
    """Judgments per system at each analysis (equal steps, as close as integers allow)."""
    per_system = budget // 2
    return np.array([max(1, round(per_system * k / peeks)) for k in range(1, peeks + 1)], dtype=int)


def _design_bounds(design, peeks, kind, futility_p, alpha):
    if design == "fixed":
        return np.array([stats.norm.isf(alpha / 2)]), np.zeros(1)
    if design == "naive":
        eff = np.full(peeks, stats.norm.isf(alpha / 2))
    else:
        eff = boundary_z(peeks, alpha=alpha, kind=kind)
    fut = np.zeros(peeks)
    if design == "interim_futility" and peeks > 1:
        fut[:-1] = stats.norm.isf(futility_p / 2)  # p > futility_p ⇔ |Z| < z_{1 - f/2}
    return eff, fut


def _thetas(drifts):
    """Mean increments of S_k = Z_k sqrt(k) from the per-look drifts E[Z_k]."""
    drifts = np.atleast_2d(drifts)
    roots = np.sqrt(np.arange(1, drifts.shape[1] + 1))
    means = drifts * roots
    return np.diff(np.concatenate([np.zeros((drifts.shape[0], 1)), means], axis=1), axis=1)


def _summaries(up, low, fut, sizes, delta):
    looks = up.shape[1]
    eff = up + low
    stop = eff + fut
    stop[:, -1] = 1.0 - stop[:, :-1].sum(axis=1)  # everything left stops at the last look
    judgments = (stop * (2 * sizes)[None, :]).sum(axis=1)
    right = up.sum(axis=1) if delta >= 0 else low.sum(axis=1)
    wrong = low.sum(axis=1) if delta >= 0 else up.sum(axis=1)
    power = right if delta != 0 else eff.sum(axis=1)
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
        Number of equally spaced analyses K (1–10; ignored for ``"fixed"``).
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
    eff_z, fut_z = _design_bounds(design, peeks, kind, futility_p, alpha)
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
    up, low, fut = _sequential_probs(_thetas(np.vstack([drift, null])), eff_z, fut_z)
    power, wrong, judgments, stop, eff, futp, looks = _summaries(up[:1], low[:1], fut[:1], sizes, delta)
    false_positive_rate = float(up[1].sum() + low[1].sum())
    significant = float(up[0].sum() + low[0].sum())
    type_s = float(wrong[0]) / significant if delta != 0 and significant > 0 else math.nan
    return CampaignResult(
        power=float(power[0]), false_positive_rate=false_positive_rate, expected_judgments=float(judgments[0]),
        stop_probabilities=tuple(stop[0]), efficacy_probabilities=tuple(eff[0]),
        futility_probabilities=tuple(futp[0]), type_s=type_s, nominal_p=nominal, budget=budget,
        looks=looks,
    )


def _simulate_scores(rng, mean, sd, size):
    g = _gamma(mean, sd)
    return 100.0 - np.minimum(g.rvs(size=size, random_state=rng), 100.0)


def mwu_rows(x, y):
    """Two-sided asymptotic Mann–Whitney U test of each row of ``x`` against the same row of ``y``.

    Equal to scipy's ``mannwhitneyu(x, y, axis=1, method="asymptotic")``
    (continuity correction, tie-corrected variance) when the only ties are at
    the clipped score 0, as under the DA score model, and much faster: one
    sort of all rows at once instead of ranking each row.

    Returns
    -------
    (u, p) : ndarrays
        U statistic of ``x`` and the two-sided p-value, per row.
    """
    rows, m = x.shape
    n = y.shape[1]
    offset = (np.arange(rows, dtype=float) * 1e3)[:, None]  # scores are in [0, 100]: keep rows apart
    ys = np.sort((y + offset).ravel())
    # rows occupy disjoint ranges, so the global sort keeps each row's block in
    # place; sorted queries make searchsorted walk memory in order (much faster)
    xs = np.sort((x + offset).ravel())
    below = np.searchsorted(ys, xs, side="left").reshape(rows, m)
    upto = np.searchsorted(ys, xs, side="right").reshape(rows, m)
    start = (np.arange(rows) * n)[:, None]
    u = ((below - start) + 0.5 * (upto - below)).sum(axis=1)
    ties = (x == 0).sum(axis=1) + (y == 0).sum(axis=1)
    total = m + n
    var = m * n / 12.0 * ((total + 1) - (ties**3 - ties) / (total * (total - 1)))
    big = np.maximum(u, m * n - u)
    z = (big - m * n / 2.0 - 0.5) / np.sqrt(var)
    p = np.clip(2.0 * stats.norm.sf(z), 0.0, 1.0)
    return u, p


def _sequential_pvalues(a, b, sizes, test):
    """p-values (and signs) at each look for arrays of campaigns (rows); looks are prefixes of the rows."""
    if test == "mwu":
        u, p = _mwu_looks(a, b, sizes)
        return p, np.sign(u - (sizes * sizes / 2.0)[None, :])
    return _t_looks(a, b, sizes)


def _mwu_looks(a, b, sizes):
    """Mann–Whitney U and two-sided asymptotic p-values of every look (prefix) of every campaign, from one sort.

    The scores of a campaign and the look at which each enters are packed
    into one int64 key (score × 2⁴⁷ — exact for the model's scores, which are
    multiples of 2⁻⁴⁷ on [0, 100] — then the look and the system in the low
    bits) and sorted once. With one-hot look indicators, the running count of
    B scores per look gives, for every A score, how many B scores of each
    look lie below it; summing those by the A score's look yields the K × K
    matrix M[p, q] = #{(x, y): x in look p of A, y in look q of B, y < x}
    (one batched matrix product), and U at look k is the sum of its k × k
    corner. Ties occur only at the clipped score 0 and count ½ (as in
    :func:`mwu_rows`, whose values this reproduces).
    """
    rows, n = a.shape
    looks = sizes.size
    look = np.searchsorted(sizes, np.arange(n), side="right").astype(np.int64)  # look at which item j enters
    out_u = np.empty((rows, looks))
    per_row = 2 * n * looks
    chunk = max(1, 2_000_000 // per_row)
    zeros_a = np.cumsum(a == 0, axis=1)[:, sizes - 1]
    zeros_b = np.cumsum(b == 0, axis=1)[:, sizes - 1]
    levels = np.arange(looks)[None, :, None]
    for start in range(0, rows, chunk):
        stop = min(rows, start + chunk)
        qa = (a[start:stop] * 2.0**47).astype(np.int64)
        qb = (b[start:stop] * 2.0**47).astype(np.int64)
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


def _simulate(design, sizes, eff_z, fut_z, delta, mean, sd, test, n_sims, seed, budget, nominal):
    rng = np.random.default_rng(seed)
    looks = sizes.size
    eff_p = 2 * stats.norm.sf(eff_z)
    fut_p = np.where(fut_z > 0, 2 * stats.norm.sf(fut_z), 1.0)
    out = {}
    chunk = max(1, _SIM_CHUNK // (2 * int(sizes[-1])))  # campaigns per chunk: ~4 million scores (32 MB)
    for label, d in (("alt", delta), ("null", 0.0)):
        parts = []
        for start in range(0, n_sims, chunk):
            size = min(chunk, n_sims - start)
            a = _simulate_scores(rng, mean + d / 2, sd, (size, sizes[-1]))
            b = _simulate_scores(rng, mean - d / 2, sd, (size, sizes[-1]))
            pvals, signs = _sequential_pvalues(a, b, sizes, test)
            parts.append(_run_campaigns(pvals, signs, eff_p, fut_p))
        out[label] = tuple(np.concatenate([part[i] for part in parts]) for i in range(3))
    stop_look, reason, sign = out["alt"]
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
    return CampaignResult(
        power=float(power), false_positive_rate=float(fpr), expected_judgments=float(spent.mean()),
        stop_probabilities=tuple(stop), efficacy_probabilities=tuple(eff), futility_probabilities=tuple(fut),
        type_s=type_s, nominal_p=nominal, budget=budget, looks=looks,
        mc_se=math.sqrt(power * (1 - power) / n_sims), false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims),
        judgments_se=float(spent.std(ddof=1) / math.sqrt(n_sims)), n_sims=n_sims, method="simulate",
    )


# ---------------------------------------------------------------------------
# curves, populations, MDE, savings (analytic engine, batched)
# ---------------------------------------------------------------------------
def _batched(design, budgets, deltas, *, peeks, kind, futility_p, mean, sd, alpha, test):
    """Analytic power and expected judgments for every (budget, delta) pair."""
    budgets = np.atleast_1d(np.asarray(budgets, dtype=int))
    deltas = np.atleast_1d(np.asarray(deltas, dtype=float))
    looks = 1 if design == "fixed" else peeks
    eff_z, fut_z = _design_bounds(design, looks, kind, futility_p, alpha)
    sizes = np.array([_look_sizes(int(b), looks) for b in budgets])
    # drift = effect(delta) × scale(n): one effect per delta, one scale per look size
    effects = np.empty(deltas.size)
    _fill_effects(effects, deltas, mean, sd, test)
    n = sizes.astype(float)
    scale = 1.0 / np.sqrt((2 * n + 1) / (12 * n**2)) if test == "mwu" else np.sqrt(n / 2)
    drift_rows = (effects[None, :, None] * scale[:, None, :]).reshape(-1, looks)
    up, low, fut = _sequential_probs(_thetas(drift_rows), eff_z, fut_z)
    up = up.reshape(budgets.size, deltas.size, looks)
    low = low.reshape(budgets.size, deltas.size, looks)
    fut = fut.reshape(budgets.size, deltas.size, looks)
    eff = up + low
    stop = eff + fut
    stop[..., -1] = 1.0 - stop[..., :-1].sum(axis=-1)
    judgments = (stop * (2 * sizes)[:, None, :]).sum(axis=-1)
    sign = np.sign(deltas)[None, :]
    power = np.where(sign > 0, up.sum(-1), np.where(sign < 0, low.sum(-1), eff.sum(-1)))
    return power, judgments


def campaign_curves(budget, deltas, *, designs=("fixed", "interim", "interim_futility"), peeks=3,
                    boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05, test="mwu") -> pd.DataFrame:
    """Power and expected judgments vs true difference for several designs (Figure 5).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``design, delta, power, expected_judgments, budget``.
    """
    frames = []
    for design in designs:
        design_, budget_, peeks_, kind, futility_p_, alpha_ = _validate_design(design, budget, peeks, boundary,
                                                                               futility_p, alpha)
        for d in np.atleast_1d(deltas):
            _validate_model(mean, sd, float(d))
        power, judgments = _batched(design_, [budget_], deltas, peeks=peeks_, kind=kind, futility_p=futility_p_,
                                    mean=mean, sd=sd, alpha=alpha_, test=test)
        frames.append(pd.DataFrame({"design": design, "delta": np.atleast_1d(deltas).astype(float),
                                    "power": power[0], "expected_judgments": judgments[0], "budget": budget_}))
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


_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]+,[0-9]+")
_SEPARATORS = re.compile(r"[\s;\"']+")


def _is_number(token: str) -> bool:
    return bool(_NUMBER.fullmatch(token) or _NOT_FINITE.fullmatch(token))


def _difference_tokens(text: str, *, header: bool, max_values: int, name: str, one_column: bool = False):
    """(line, token) pairs of a list of numbers; the rules shared by pasted and uploaded differences.

    Values are separated by white space, semicolons, quotes or commas; empty
    cells (``,,`` or a line that is just ``,``) are skipped. Two digit groups
    joined by a single comma (``0,5``, ``12,75``, ``1,000``) are refused: that
    is a decimal comma (or a thousands separator), and reading it as two
    values would silently change the data. With ``header``, a first non-empty
    line made only of non-numbers (``difference``) is skipped; ``1e-1``,
    ``-2``, ``+3.5`` and ``.5`` are numbers. With ``one_column`` (uploaded
    files), a header naming several columns, or several lines each holding
    several values, is refused: that is a table (a system ranking, scores of
    two systems), and flattening it would read its cells as differences.
    """
    tokens = []
    first = True
    wide_lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        cells = []
        for chunk in _SEPARATORS.split(line):
            if not chunk:
                continue
            if _DECIMAL_COMMA.fullmatch(chunk):
                raise ValueError(
                    f"{name}, line {number:,}: {chunk[:20]!r} looks like a number with a decimal comma (or a "
                    f"thousands separator); write it with a point ({chunk[:20].replace(',', '.')}), or put a space "
                    "after the comma if these are two values.")
            cells.extend(cell for cell in chunk.split(",") if cell)
        if not cells:
            continue
        if header and first and not any(_is_number(cell) for cell in cells):
            first = False
            if one_column and len(cells) > 1:
                raise ValueError(_table_refusal(name, number, len(cells), "header names"))
            continue  # a header such as "difference"
        first = False
        if one_column and len(cells) > 1:
            wide_lines.append((number, len(cells)))
            if len(wide_lines) == 2 or (wide_lines and tokens and wide_lines[0][0] != tokens[0][0]):
                raise ValueError(_table_refusal(name, *wide_lines[-1], "values"))
        elif one_column and wide_lines:
            raise ValueError(_table_refusal(name, *wide_lines[0], "values"))
        tokens.extend((number, cell) for cell in cells)
        if len(tokens) > max_values:
            raise ValueError(f"At most {max_values:,} differences are supported; {name.lower()} has more.")
    return tokens


def _table_refusal(name: str, number: int, count: int, what: str) -> str:
    return (f"{name}, line {number:,}: {count} {what} on one line. This looks like a table with several columns "
            "(a system ranking or two systems' scores); give one column of pairwise differences (system A's score "
            "minus system B's, one per line), or type them into the box.")


def _differences_from_text(text: str, *, header: bool, max_values, name: str, one_column: bool = False) -> np.ndarray:
    max_values = check_int("max_values", max_values, low=1, high=1_000_000)
    tokens = _difference_tokens(text, header=header, max_values=max_values, name=name, one_column=one_column)
    if not tokens:
        raise ValueError("No differences found: give numbers separated by commas, spaces or new lines.")
    values = np.empty(len(tokens))
    for k, (number, token) in enumerate(tokens):
        if not _is_number(token):
            raise ValueError(f"{name}, line {number:,}: {token[:20]!r} is not a number.")
        value = float(token)
        if not math.isfinite(value) or abs(value) > 50:
            raise ValueError(f"{name}, line {number:,}: {token[:20]!r} must be a finite difference within ±50 DA "
                             "points.")
        values[k] = abs(value)
    return values


def parse_differences(text: str, *, max_values=10_000) -> np.ndarray:
    """Past system differences pasted as text (numbers separated by commas, spaces or new lines).

    Signs are dropped (|difference|). The tokenizer and its rules are those of
    :func:`read_differences` (decimal commas refused, empty cells skipped),
    without header detection.

    Raises
    ------
    ValueError
        When nothing numeric is found, a value is not a number, looks like a
        decimal comma, is beyond ±50 DA points, or there are too many (the
        message names the line).

    Examples
    --------
    >>> parse_differences("1.5, -2\\n0.3;4").tolist()
    [1.5, 2.0, 0.3, 4.0]
    """
    if not isinstance(text, str):
        raise ValueError("`text` must be a string of numbers.")
    return _differences_from_text(text, header=False, max_values=max_values, name="The pasted list")


def read_differences(data: bytes, *, max_values=10_000) -> np.ndarray:
    """Past system differences from an uploaded text or one-column CSV file.

    Parameters
    ----------
    data : bytes
        The file (UTF-8, decoded by :func:`core.uploads.decode_text`).
    max_values : int, optional
        Most differences accepted.

    Returns
    -------
    ndarray
        |difference| of every value, in file order.

    Raises
    ------
    ValueError
        For an unreadable file (empty, binary, not UTF-8, too large), a value
        that is not a number or is beyond ±50 DA points, a decimal comma
        (``0,5`` is refused, never read as 0 and 5), no numbers, or too many.
        Messages name the line.

    Notes
    -----
    A first non-empty line made only of non-numbers is a header and is
    skipped; ``1e-1``, ``-2``, ``+3.5`` and ``.5`` are numbers, so a first line
    holding them is data. Lines and cells that are empty (``,``) are skipped.
    The file is one column (one difference per line) or a single line
    listing them; a header naming several columns, or several lines with
    several values each, is a table (a system ranking, two systems' scores)
    and is refused rather than flattened into differences.

    Examples
    --------
    >>> read_differences(b"difference\\n1e-1\\n-2\\n,\\n.5\\n").tolist()
    [0.1, 2.0, 0.5]
    """
    text = uploads.decode_text(data, name="The uploaded file")
    return _differences_from_text(text, header=True, max_values=max_values, name="The uploaded file", one_column=True)


def population_curves(budgets, population, *, designs=("fixed", "interim", "interim_futility"), peeks=3,
                      boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05, test="mwu") -> pd.DataFrame:
    """Average power and expected judgments over a population of pairs (Figure 6a).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``design, budget, average_power, average_judgments``.
    """
    population = np.asarray(population, dtype=float)
    if population.size == 0:
        raise ValueError("`population` must contain at least one difference.")
    rows = []
    for design in designs:
        design_, _, peeks_, kind, futility_p_, alpha_ = _validate_design(design, int(np.min(budgets)), peeks,
                                                                          boundary, futility_p, alpha)
        power, judgments = _batched(design_, budgets, population, peeks=peeks_, kind=kind, futility_p=futility_p_,
                                    mean=mean, sd=sd, alpha=alpha_, test=test)
        for b, p, j in zip(np.atleast_1d(budgets), power.mean(axis=1), judgments.mean(axis=1)):
            rows.append((design, int(b), float(p), float(j)))
    return pd.DataFrame(rows, columns=["design", "budget", "average_power", "average_judgments"])


def budget_savings(budget, population, *, peeks=3, boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0,
                   alpha=0.05, test="mwu") -> pd.DataFrame:
    """Judgments each design needs to match the fixed design's average power (§7.3).

    For the fixed design at ``budget`` the average power over ``population``
    is the target; for each sequential design, the planned budget reaching it
    is found by root finding, and its expected judgments compared with
    ``budget``. (The paper reports 18% savings at its current budget, 1,200,
    and 27–28% at 3×, on its own data.)

    Returns
    -------
    pandas.DataFrame
        ``design, planned_budget, expected_judgments, saving`` (fraction of
        ``budget`` saved; ``nan`` when the design cannot reach the target).
    """
    population = np.asarray(population, dtype=float)
    budget = check_int("budget", budget, low=20, high=_MAX_BUDGET)
    kw = dict(peeks=peeks, boundary=boundary, futility_p=futility_p, mean=mean, sd=sd, alpha=alpha, test=test)
    target = float(population_curves([budget], population, designs=("fixed",), **kw)["average_power"].iloc[0])
    rows = [("fixed", budget, float(budget), 0.0)]
    # one batched pass over a geometric grid of planned budgets brackets the answer;
    # Brent's method then solves it inside the bracket with exact evaluations
    # sequential designs need a somewhat larger plan (typically 1.1–1.6×) to match the fixed design
    factors = np.array([0.75, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5, 3.0])
    for design in ("interim", "interim_futility"):
        grid = np.unique(np.maximum(np.round(budget * factors), 4 * peeks).astype(int))
        coarse = population_curves(grid, population, designs=(design,), **kw)["average_power"].to_numpy()
        while coarse[-1] < target and grid[-1] < 64 * budget:  # widen upwards if needed
            grid = np.append(grid, 2 * grid[-1])
            coarse = np.append(coarse, population_curves([grid[-1]], population, designs=(design,),
                                                          **kw)["average_power"].iloc[0])
        above = np.nonzero(coarse >= target)[0]
        if above.size == 0:
            rows.append((design, math.nan, math.nan, math.nan))
            continue

        def gap(b, design=design):
            row = population_curves([int(round(b))], population, designs=(design,), **kw).iloc[0]
            return row["average_power"] - target

        first = int(above[0])
        if first == 0:
            planned = float(grid[0])
        else:
            planned = optimize.brentq(gap, float(grid[first - 1]), float(grid[first]), xtol=1.0)
        row = population_curves([int(round(planned))], population, designs=(design,), **kw).iloc[0]
        spent = float(row["average_judgments"])
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
        return campaign_power(design, budget, d, **kw).power - target_power

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
        B); τ = 0 gives the power at μ. The prior is truncated to the
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
    from .assurance import assurance

    design, budget, peeks, kind, futility_p, alpha = _validate_design(design, budget, peeks, boundary, futility_p,
                                                                      alpha)
    mean, sd, mu = _validate_model(mean, sd, delta_mean)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=50.0)
    test = check_choice("test", test, TESTS)
    at_mean = campaign_power(design, budget, mu, peeks=peeks, boundary=kind, futility_p=futility_p, mean=mean,
                             sd=sd, alpha=alpha, test=test)
    sizes = _look_sizes(budget, peeks)
    eff_z, fut_z = _design_bounds(design, peeks, kind, futility_p, alpha)
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
            up, low, fut = _sequential_probs(_thetas(drift_rows), eff_z, fut_z)
            stop = up + low + fut
            stop[:, -1] = 1.0 - stop[:, :-1].sum(axis=1)
            memo[key] = (up.sum(axis=1), low.sum(axis=1), stop @ (2.0 * n))
        return memo[key]

    slope = abs(float(spline(mu, 1))) or abs(float(spline(0.0, 1)))
    se = 1.0 / max(slope * float(scale[-1]), 1e-12)  # standard error of the difference at the full budget
    return assurance(lambda d: parts(d)[:2], prior_mean=mu, prior_sd=tau, power_at_mean=at_mean.power, scale=se,
                     low=-limit, high=limit, extra=lambda d: parts(d)[2])


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

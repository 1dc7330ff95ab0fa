"""Simulation of the benchmark model: Beta difficulties through a calibrated Gaussian copula.

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import optimize, signal, stats

from ..results import PowerResult
from ..validation import rng_of
from ._common import _Design, _SIM_BLOCK, _Z_GRID, _Z_LO, _Z_N, _Z_STEP, _Z_WEIGHTS, _clusters

__all__ = [
]


# ---------------------------------------------------------------------------
# simulation: Beta difficulties through a calibrated Gaussian copula
# ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _margin(mu: float, sd: float) -> np.ndarray:
    """Quantile function z ↦ F⁻¹(Φ(z)) of the difficulty distribution on the latent grid.

    Beta with mean ``mu`` and standard deviation ``sd`` (shape a + b = μ(1 − μ)/σ² − 1);
    a point mass when σ = 0 and the two-point limit {0, 1} when σ² = μ(1 − μ).
    """
    if sd == 0.0 or mu in (0.0, 1.0):
        table = np.full(_Z_N, mu)
    elif sd * sd >= mu * (1.0 - mu) * (1.0 - 1e-9):
        table = (_Z_GRID > stats.norm.isf(mu)).astype(float)
    else:
        nu = mu * (1.0 - mu) / (sd * sd) - 1.0
        a, b = mu * nu, (1.0 - mu) * nu
        lower = stats.beta.ppf(stats.norm.cdf(_Z_GRID), a, b)
        upper = stats.beta.isf(stats.norm.sf(_Z_GRID), a, b)
        table = np.clip(np.nan_to_num(np.where(_Z_GRID > 0, upper, lower), nan=mu), 0.0, 1.0)
    table.setflags(write=False)
    return table


def _lookup(z, table: np.ndarray) -> np.ndarray:
    """Linear interpolation of a latent-grid table at ``z`` (uniform grid: no search; keeps float32)."""
    z = np.asarray(z)
    dtype = np.float32 if z.dtype == np.float32 else np.float64
    x = (z - dtype(_Z_LO)) * dtype(1.0 / _Z_STEP)
    np.clip(x, 0.0, _Z_N - 1.001, out=x)
    i = x.astype(np.intp)
    x -= i
    lo = table[i]
    return lo + x * (table[i + 1] - lo)


def _smooth(table: np.ndarray, s: float) -> np.ndarray:
    """z ↦ E[g(z + s·Z)] on the latent grid: the table convolved with a N(0, s²) kernel (FFT, edges extended)."""
    width = s / _Z_STEP
    if width < 1.0:  # narrower than the grid: smoothing changes nothing measurable
        return table
    half = math.ceil(9.0 * width)
    kernel = np.exp(-0.5 * (np.arange(-half, half + 1) / width) ** 2)
    padded = np.concatenate([np.full(half, table[0]), table, np.full(half, table[-1])])
    return signal.fftconvolve(padded, kernel / kernel.sum(), mode="valid")


def _latent_cov(ta: np.ndarray, tb: np.ndarray, r: float) -> float:
    """Cov(g_A(Z₁), g_B(Z₂)) for standard normals with correlation r.

    E[g_A(Z₁)g_B(Z₂)] = E[g_A(Z₁)·m(rZ₁)] with m = g_B smoothed by N(0, 1 − r²); the outer integral is
    a trapezoid rule on the 0.002-spaced latent grid, which resolves even near-step (U-shaped Beta)
    quantile functions.
    """
    m = _smooth(tb, math.sqrt(max(1.0 - r * r, 0.0)))
    inner = _lookup(r * _Z_GRID, m)
    return float((_Z_WEIGHTS * ta) @ inner - (_Z_WEIGHTS @ ta) * (_Z_WEIGHTS @ tb))


@lru_cache(maxsize=256)
def _calibrate(mu_a: float, mu_b: float, sd: float, rho: float, icc: float) -> tuple[float, float]:
    """Latent parameters (r, κ) whose Beta margins have Pearson correlation ρ and difference ICC icc.

    Latent normals: Z_Ai = √(1−κ)·e_Ai + √κ·c_Ag (same for B), Corr(e_A, e_B) = Corr(c_A, c_B) = r.
    Cov(p_Ai, p_Bi) = h_AB(r); Cov(D_i, D_j) = h_AA(κ) + h_BB(κ) − 2h_AB(κr) for i ≠ j in cluster g,
    with h_XY(t) = Cov(g_X(Z₁), g_Y(Z₂)) at latent correlation t. Both are increasing, so each
    equation has one root (Brent's method).
    """
    if sd == 0.0:
        return 0.0, 0.0
    ta, tb = _margin(mu_a, sd), _margin(mu_b, sd)
    target = rho * sd * sd
    low, high = _latent_cov(ta, tb, -1.0), _latent_cov(ta, tb, 1.0)
    tol = 1e-7 * sd * sd
    if target < low - tol or target > high + tol:
        raise ValueError(
            f"`correlation` = {rho:g} cannot be reached by Beta-distributed question difficulties with "
            f"these accuracies and `difficulty_sd` (attainable: {math.ceil(low / (sd * sd) * 1000) / 1000:.3f} to "
            f"{math.floor(high / (sd * sd) * 1000) / 1000:.3f}); "
            "use method=\"analytic\", which needs only the moments."
        )
    if target >= high - tol:
        r = 1.0
    elif target <= low + tol:
        r = -1.0
    else:
        r = optimize.brentq(lambda t: _latent_cov(ta, tb, t) - target, -1.0, 1.0, xtol=1e-10)
    var_d = 2.0 * sd * sd * (1.0 - rho)
    if icc == 0.0 or var_d <= 1e-12:
        return float(r), 0.0

    def gap(kappa):
        return (_latent_cov(ta, ta, kappa) + _latent_cov(tb, tb, kappa) - 2.0 * _latent_cov(ta, tb, kappa * r)
                - icc * var_d)

    if gap(1.0) <= 0.0:
        return float(r), 1.0
    return float(r), float(optimize.brentq(gap, 0.0, 1.0, xtol=1e-10))


def _draw_probabilities(rng, reps: int, n: int, m: int, d: _Design, r: float, kappa: float):
    """Latent probabilities p_A, p_B (float32, shape (reps, n)); questions i·m … i·m + m − 1 form cluster i."""
    ta, tb = _margin32(d.mu_a, d.sd), _margin32(d.mu_b, d.sd)
    r32, s32 = np.float32(r), np.float32(math.sqrt(max(1.0 - r * r, 0.0)))
    za = rng.standard_normal((reps, n), dtype=np.float32)
    zb = rng.standard_normal((reps, n), dtype=np.float32)
    zb *= s32
    zb += r32 * za
    if kappa > 0.0 and m > 1:
        g = -(-n // m)
        ca = rng.standard_normal((reps, g), dtype=np.float32)
        cb = r32 * ca + s32 * rng.standard_normal((reps, g), dtype=np.float32)
        idx = np.arange(n) // m
        keep, share = np.float32(math.sqrt(1.0 - kappa)), np.float32(math.sqrt(kappa))
        za = keep * za + share * ca[:, idx]
        zb = keep * zb + share * cb[:, idx]
    return _lookup(za, ta), _lookup(zb, tb)


@lru_cache(maxsize=64)
def _margin32(mu: float, sd: float) -> np.ndarray:
    table = _margin(mu, sd).astype(np.float32)
    table.setflags(write=False)
    return table


def _binomial(rng, k: int, p: np.ndarray) -> np.ndarray:
    """Binomial(k, p) counts: a sum of k Bernoulli(p) comparisons with uniforms for k <= 24
    (faster than numpy's per-element binomial set-up), numpy's sampler above."""
    if k > 24:
        return rng.binomial(k, p).astype(np.float32)
    count = rng.random(p.shape, dtype=np.float32) < p
    count = count.astype(np.float32)
    for _ in range(k - 1):
        count += rng.random(p.shape, dtype=np.float32) < p
    return count


def _mean_and_cluster_se(diff: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Row means and CR1 standard errors: √(G/(G − 1)·Σ_g (Σ_{i∈g} e_i)² / n²), e = d − d̄."""
    reps, n = diff.shape
    mean = diff.mean(axis=1)
    resid = diff - mean[:, None]
    if m == 1:
        g = n
        total = np.einsum("ij,ij->i", resid, resid)
    else:
        g = -(-n // m)
        if g * m != n:
            resid = np.concatenate([resid, np.zeros((reps, g * m - n))], axis=1)
        sums = resid.reshape(reps, g, m).sum(axis=2)
        total = np.einsum("ij,ij->i", sums, sums)
    return mean, np.sqrt(g / (g - 1.0) * total) / n


def _simulate_result(n: int, d: _Design, n_sims: int, seed, progress) -> PowerResult:
    rng = rng_of(seed)
    r, kappa = _calibrate(d.mu_a, d.mu_b, d.sd, d.rho, d.icc if d.m > 1 else 0.0)
    z = stats.t.isf(d.alpha / 2.0, int(_clusters(n, d.m)) - 1)  # CR1 with t(G − 1) (Cameron & Miller 2015, §VI)
    j, base = d.j, 1.0 - d.sp
    estimates = np.empty(n_sims)
    significant = np.empty(n_sims, dtype=bool)
    chunk = max(1, min(n_sims, _SIM_BLOCK // n))
    done = 0
    while done < n_sims:
        reps = min(chunk, n_sims - done)
        pa, pb = _draw_probabilities(rng, reps, n, d.m, d, r, kappa)
        if j < 1.0:
            pa, pb = np.float32(base) + np.float32(j) * pa, np.float32(base) + np.float32(j) * pb
        diff = (_binomial(rng, d.k, pb) - _binomial(rng, d.k, pa)).astype(float) * (1.0 / d.k)
        mean, se = _mean_and_cluster_se(diff, d.m)
        significant[done:done + reps] = (np.abs(mean) >= z * se) & (mean != 0.0)
        estimates[done:done + reps] = mean / j  # Rogan–Gladen corrected difference
        done += reps
        if progress is not None:
            progress(done / n_sims)
    return _mc_result(estimates, significant, d.delta, n_sims)


def _mc_result(estimates, significant, delta, n_sims) -> PowerResult:
    n_sig = int(significant.sum())
    rejection = n_sig / n_sims
    mean_sig = float(estimates[significant].mean()) if n_sig else math.nan
    if delta == 0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan, rejection_rate=rejection,
                           mc_se=math.sqrt(rejection * (1 - rejection) / n_sims), n_sims=n_sims,
                           method="simulate", mean_significant=mean_sig)
    right = significant & (np.sign(estimates) == np.sign(delta))
    power = right.sum() / n_sims
    if n_sig:
        wrong_share = 1.0 - right.sum() / n_sig
        ratio = np.abs(estimates[significant]) / abs(delta)
        type_m = float(ratio.mean())
        type_m_se = float(ratio.std(ddof=1) / math.sqrt(n_sig)) if n_sig > 1 else math.nan
        type_s_se = math.sqrt(wrong_share * (1 - wrong_share) / n_sig)
    else:
        wrong_share = type_m = type_m_se = type_s_se = math.nan
    return PowerResult(power=float(power), type_s=float(wrong_share), type_m=type_m, rejection_rate=rejection,
                       mc_se=math.sqrt(power * (1 - power) / n_sims), type_s_se=type_s_se, type_m_se=type_m_se,
                       n_sims=n_sims, method="simulate", mean_significant=mean_sig)



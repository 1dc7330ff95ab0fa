"""Recursive numerical integration of a sequentially monitored score process.

The running sum ``S_k`` observed at analyses k = 1..K has independent normal
increments, ``S_k - S_{k-1} ~ N(θ_k, v_k)`` (the canonical joint distribution;
Jennison & Turnbull 2000, ch. 3 and §19.2). A monitoring rule stops at look k
for efficacy when ``|S_k| >= b_k`` and for futility when ``|S_k| < a_k``.
The sub-density of ``S_k`` on the event "still running" obeys

    f_{k+1}(s') = ∫_{C_k} f_k(s) φ((s' - s - θ_{k+1}) / √v_{k+1}) / √v_{k+1} ds,

with ``C_k = {a_k <= |s| < b_k}`` (Armitage, McPherson & Rowe 1969). Crossing
probabilities and the partial means needed for the estimate at stopping
(``E[S_k; S_k >= b_k]``) are one-dimensional integrals of the same kind with
the normal CDF (and ``μΦ + σφ``) in closed form.

Quadrature
----------
All densities live on one uniform grid (step ``h = 0.05 √min v_k``, so the
normal kernel is resolved at every look), which makes each step a
convolution done by FFT for a whole batch of drift paths at once. The
continuation region ``C_k`` does not fall on grid points; integrals over it use
the weights of the local quintic interpolant through the six nearest grid
points (interior nodes get weight h, as the trapezoid rule, which is
spectrally accurate for the smooth, rapidly decaying integrands; the partial
sub-intervals at the region's ends are integrated exactly on the quintic), an
O(h⁶) rule at the ends. This replaces the ``density × cell length`` rule, whose O(h²)
error at a boundary with much density (a large drift) made probabilities sum
to more than 1 by up to 5·10⁻⁵. With the quintic rule the residual is below
10⁻⁹ (rounding and the h⁶ term); :func:`clip_probabilities` removes it.

References
----------
Armitage, McPherson & Rowe (1969), JRSS A 132:235–244; Jennison & Turnbull
(2000), *Group Sequential Methods with Applications to Clinical Trials*,
ch. 19 (§19.2, recursive numerical integration).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import fft as sp_fft
from scipy.special import ndtr

__all__ = ["recursion", "recursion_rows", "unit_recursion", "region_weights", "clip_probabilities",
           "stop_distribution"]

#: Grid step relative to the smallest increment SD.
GRID_STEP = 0.05
#: Residual numerical error tolerated before clipping a probability to [0, 1].
ROUNDING = 1e-8
_SQRT_2PI = math.sqrt(2 * math.pi)

# Lagrange basis on the nodes x = -2..3 around each sub-interval [s_j, s_{j+1}] (local coordinate
# x = (s - s_j)/h), and its antiderivatives: the quintic interpolant integrated exactly
_NODES = np.arange(-2, 4)
_BASIS = [np.poly1d(np.poly(np.delete(_NODES, i)) / np.prod(_NODES[i] - np.delete(_NODES, i)))
          for i in range(_NODES.size)]
_ANTI = [p.integ() for p in _BASIS]
# their coefficients (highest degree first, padded to one length) for a Horner evaluation of all six at once,
# the same operations as ``numpy.polyval`` on each
_ANTI_COEF = np.array([np.pad(p.coeffs, (max(len(q.coeffs) for q in _ANTI) - len(p.coeffs), 0)) for p in _ANTI])


def _antiderivatives(u):
    """The six antiderivatives of the Lagrange basis at ``u``, shape (6, u.size) (Horner, as ``numpy.polyval``)."""
    out = np.zeros((_ANTI_COEF.shape[0], u.size))
    for c in _ANTI_COEF.T:
        out = out * u[None, :] + c[:, None]
    return out


_FULL = _antiderivatives(np.ones(1)) - _antiderivatives(np.zeros(1))  # each basis integrated over [0, 1]


def _phi(x):
    return np.exp(-0.5 * x * x) / _SQRT_2PI


def region_weights(grid, step, low, high):
    """Quadrature weights on ``grid`` for ∫ over ``{low <= |s| < high}`` (``low = 0``: the interval (-high, high)).

    Local quintic interpolation through the grid points j-2, …, j+3 on each
    sub-interval [s_j, s_{j+1}], integrated exactly over its overlap with the
    region. The grid must extend at least three steps beyond ``high``.
    """
    weights = np.zeros(grid.size)
    intervals = [(-high, high)] if low <= 0 else [(-high, -low), (low, high)]
    base = grid[:-1]
    for left, right in intervals:
        u0 = np.clip((left - base) / step, 0.0, 1.0)
        u1 = np.clip((right - base) / step, 0.0, 1.0)
        idx = np.nonzero(u1 > u0)[0]
        if idx.size == 0:
            continue
        if idx[0] + _NODES[0] < 0 or idx[-1] + _NODES[-1] >= grid.size:
            raise RuntimeError("integration grid too narrow for the continuation region")
        a0, a1 = u0[idx], u1[idx]
        # sub-intervals inside the region all integrate over [0, 1]: the same six numbers; only the (at most
        # four) partial ones at the region's ends need their own evaluation
        parts = np.repeat(_FULL, idx.size, axis=1)
        partial = np.nonzero((a0 != 0.0) | (a1 != 1.0))[0]
        ends = _antiderivatives(np.concatenate([a1[partial], a0[partial]]))  # one Horner pass for both ends
        parts[:, partial] = ends[:, :partial.size] - ends[:, partial.size:]
        parts *= step
        for offset, part in zip(_NODES, parts):
            np.add.at(weights, idx + offset, part)
    return weights


def _interval_weights(grid, step, left, right):
    """:func:`region_weights` of the intervals ``[left_d, right_d)``, one per row: shape (D, grid.size).

    The same quintic rule, cell by cell, with the same order of additions at each node (offsets −2 … 3), so a row's
    weights are those :func:`region_weights` gives for its interval.
    """
    base = grid[:-1]
    u0 = np.clip((left[:, None] - base[None, :]) / step, 0.0, 1.0)
    u1 = np.clip((right[:, None] - base[None, :]) / step, 0.0, 1.0)
    active = u1 > u0
    cells = np.nonzero(active.any(axis=0))[0]
    if cells.size and (cells[0] + _NODES[0] < 0 or cells[-1] + _NODES[-1] >= grid.size):
        raise RuntimeError("integration grid too narrow for the continuation region")
    full = active & (u0 == 0.0) & (u1 == 1.0)
    partial = active & ~full
    parts = np.where(full[None], _FULL[:, :, None], 0.0)
    rows, cols = np.nonzero(partial)
    if rows.size:
        ends = _antiderivatives(np.concatenate([u1[rows, cols], u0[rows, cols]]))
        parts[:, rows, cols] = ends[:, :rows.size] - ends[:, rows.size:]
    parts *= step
    weights = np.zeros((left.size, grid.size))
    cells_n = base.size
    for offset, part in zip(_NODES, parts):
        lo, hi = max(0, -offset), min(cells_n, grid.size - offset)
        weights[:, lo + offset:hi + offset] += part[:, lo:hi]
    return weights


def _rows_region_weights(grid, step, low, high):
    """Per-row weights of ``{low_d <= |s| < high_d}`` (``low_d <= 0``: the interval (−high_d, high_d))."""
    two = low > 0
    out = _interval_weights(grid, step, -high, np.where(two, -low, high))
    if two.any():
        out[two] += _interval_weights(grid, step, low[two], high[two])
    return out


def recursion_rows(thetas, variances, efficacy, futility):
    """:func:`recursion` for paths with their own increments and boundaries: every argument has shape (D, K).

    A sample-size search evaluates many budgets whose realised looks differ (look sizes rounded to whole items),
    each with its own increments and boundaries; one call integrates them all on one grid (the step of the
    smallest increment SD among them, so every row is resolved at least as finely as alone). Returns
    ``up, low, fut`` of shape (D, K), as :func:`recursion`.
    """
    thetas = np.atleast_2d(np.asarray(thetas, dtype=float))
    n_paths, looks = thetas.shape
    v = np.broadcast_to(np.asarray(variances, dtype=float), (n_paths, looks))
    sig = np.sqrt(v)
    b = np.broadcast_to(np.asarray(efficacy, dtype=float), (n_paths, looks))
    a = np.minimum(np.broadcast_to(np.asarray(futility, dtype=float), (n_paths, looks)), b)
    up = np.zeros((n_paths, looks))
    low = np.zeros((n_paths, looks))
    fut = np.zeros((n_paths, looks))

    def stops(mass, mu, k):
        s = sig[:, k][:, None]
        hi, lo = (mu - b[:, k][:, None]) / s, (-b[:, k][:, None] - mu) / s
        up[:, k] = (mass * ndtr(hi)).sum(axis=1)
        low[:, k] = (mass * ndtr(lo)).sum(axis=1)
        if k < looks - 1 and np.any(a[:, k] > 0):
            ak = a[:, k][:, None]
            fut[:, k] = (mass * np.clip(ndtr((ak - mu) / s) - ndtr((-ak - mu) / s), 0, None)).sum(axis=1)

    t1 = thetas[:, :1]
    stops(np.ones((n_paths, 1)), t1, 0)
    if looks == 1:
        return up, low, fut
    step = GRID_STEP * float(sig.min())
    half = float(np.max(b[:, :-1])) + 12 * step
    size = int(math.ceil(half / step))
    grid = np.arange(-size, size + 1) * step
    density = _phi((grid[None, :] - t1) / sig[:, :1]) / sig[:, :1]
    m = grid.size
    fft_len = sp_fft.next_fast_len(3 * m - 2, real=True)
    offsets = np.arange(-(m - 1), m) * step
    for k in range(1, looks):
        mass = density * _rows_region_weights(grid, step, a[:, k - 1], b[:, k - 1])
        theta = thetas[:, k][:, None]
        stops(mass, grid[None, :] + theta, k)
        if k < looks - 1:
            sk = sig[:, k][:, None]
            kernel = _phi((offsets[None, :] - theta) / sk) / sk
            conv = sp_fft.irfft(sp_fft.rfft(mass, fft_len, axis=1) * sp_fft.rfft(kernel, fft_len, axis=1), fft_len,
                                axis=1)
            density = conv[:, m - 1: 2 * m - 1]
    return up, low, fut


def clip_probabilities(p):
    """Clip a probability array to [0, 1] after checking that the excess is numerical (below :data:`ROUNDING`)."""
    p = np.asarray(p, dtype=float)
    excess = max(float(np.max(-p, initial=0.0)), float(np.max(p - 1.0, initial=-1.0)))
    if excess > ROUNDING:  # a real error in the integration, not rounding: never hide it
        raise RuntimeError(f"recursive integration lost accuracy (probability off [0, 1] by {excess:.2g})")
    return np.clip(p, 0.0, 1.0)


def stop_distribution(up, low, fut):
    """P(stop at look k) from the crossing and futility probabilities: whatever is left stops at the last look.

    Each entry is checked and clipped with :func:`clip_probabilities`, so the
    row sums to 1 and every entry lies in [0, 1].
    """
    stop = np.asarray(up) + np.asarray(low) + np.asarray(fut)
    stop[..., -1] = 1.0 - stop[..., :-1].sum(axis=-1)
    return clip_probabilities(stop)


def recursion(thetas, variances, efficacy, futility, *, moments=False, on_look=None):
    """Crossing probabilities (and partial means) of the score process for a batch of drift paths.

    Parameters
    ----------
    thetas : ndarray, shape (D, K)
        Mean increments θ_k of S between looks (S_0 = 0), one row per path.
    variances : ndarray, shape (K,)
        Increment variances v_k (> 0).
    efficacy : ndarray, shape (K,)
        Boundaries b_k on |S_k| (stop with significance at |S_k| >= b_k).
    futility : ndarray, shape (K,)
        Stop for futility when |S_k| < a_k (0 for none; ignored at the last look).
    moments : bool, optional
        Also return ``E[S_k; S_k >= b_k]`` and ``E[S_k; S_k <= -b_k]``.
    on_look : callable, optional
        ``on_look(k, mass, mu, sigma)`` at every look k (0-based): S_k is the
        mixture of N(mu[d, i], sigma²) with weights mass[d, i] (the quadrature
        of the continuation region at look k - 1), for integrals of other
        functions of S_k over the stopping regions.

    Returns
    -------
    up, low, fut : ndarray, shape (D, K)
        P(stop at k with S_k >= b_k), P(stop at k with S_k <= -b_k), P(futility stop at k).
    m_up, m_low : ndarray, shape (D, K)
        Only with ``moments``: the partial means above.
    """
    thetas = np.atleast_2d(np.asarray(thetas, dtype=float))
    n_paths, looks = thetas.shape
    v = np.broadcast_to(np.asarray(variances, dtype=float), (looks,))
    sig = np.sqrt(v)
    b = np.asarray(efficacy, dtype=float)
    # a significant look stops for efficacy even where the futility threshold lies beyond the boundary
    a = np.minimum(np.asarray(futility, dtype=float), b)
    up = np.zeros((n_paths, looks))
    low = np.zeros((n_paths, looks))
    fut = np.zeros((n_paths, looks))
    m_up = np.zeros((n_paths, looks))
    m_low = np.zeros((n_paths, looks))

    def stops(mass, mu, k):
        """Stopping probabilities at look k from point masses at means ``mu`` (kernel SD sig[k])."""
        s = sig[k]
        if on_look is not None:
            on_look(k, mass, mu, s)
        hi, lo = (mu - b[k]) / s, (-b[k] - mu) / s
        up[:, k] = (mass * ndtr(hi)).sum(axis=1)
        low[:, k] = (mass * ndtr(lo)).sum(axis=1)
        if moments:  # E[X; X >= b] = μΦ((μ-b)/σ) + σφ((b-μ)/σ);  E[X; X <= -b] = μΦ((-b-μ)/σ) - σφ((-b-μ)/σ)
            m_up[:, k] = (mass * (mu * ndtr(hi) + s * _phi(hi))).sum(axis=1)
            m_low[:, k] = (mass * (mu * ndtr(lo) - s * _phi(lo))).sum(axis=1)
        if k < looks - 1 and a[k] > 0:
            fut[:, k] = (mass * np.clip(ndtr((a[k] - mu) / s) - ndtr((-a[k] - mu) / s), 0, None)).sum(axis=1)

    t1 = thetas[:, :1]
    stops(np.ones((n_paths, 1)), t1, 0)
    if looks == 1:
        return (up, low, fut, m_up, m_low) if moments else (up, low, fut)
    step = GRID_STEP * float(sig.min())
    half = float(np.max(b[:-1])) + 12 * step
    size = int(math.ceil(half / step))
    grid = np.arange(-size, size + 1) * step
    density = _phi((grid[None, :] - t1) / sig[0]) / sig[0]
    m = grid.size
    fft_len = sp_fft.next_fast_len(3 * m - 2, real=True)
    offsets = np.arange(-(m - 1), m) * step  # s' - s for s, s' on the grid
    for k in range(1, looks):
        mass = density * region_weights(grid, step, a[k - 1], b[k - 1])[None, :]
        theta = thetas[:, k][:, None]
        stops(mass, grid[None, :] + theta, k)
        if k < looks - 1:
            kernel = _phi((offsets[None, :] - theta) / sig[k]) / sig[k]
            conv = sp_fft.irfft(sp_fft.rfft(mass, fft_len, axis=1, workers=-1)
                                * sp_fft.rfft(kernel, fft_len, axis=1, workers=-1), fft_len, axis=1, workers=-1)
            density = conv[:, m - 1: 2 * m - 1]
    return (up, low, fut, m_up, m_low) if moments else (up, low, fut)


def unit_recursion(thetas, efficacy_z, futility_z, *, moments=False, on_look=None):
    """:func:`recursion` for K equally spaced looks with unit increments and boundaries on |Z_k| = |S_k|/√k."""
    thetas = np.atleast_2d(np.asarray(thetas, dtype=float))
    roots = np.sqrt(np.arange(1, thetas.shape[1] + 1))
    return recursion(thetas, np.ones(thetas.shape[1]), np.asarray(efficacy_z, float) * roots,
                     np.asarray(futility_z, float) * roots, moments=moments, on_look=on_look)

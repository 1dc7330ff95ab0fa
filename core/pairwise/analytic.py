"""The analytic engine: expected Fisher information, Wald power, orthant probabilities; K = 2 exactly.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats
from scipy.stats import qmc

from ._common import SCALE, _QMC_BLOCKS, _QMC_POINTS, _S, _Z95
from .solver import _center, _fit, _laplacian, _pairs

__all__ = [
]


# ---------------------------------------------------------------------------
# the analytic engine
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Design:
    """Per-unit-N quantities of one planned leaderboard (logit units; variances × N)."""

    values: np.ndarray  # true ratings, input order
    order: np.ndarray  # indices, best first
    p_obs: np.ndarray  # observed (judge) win rate of the first system of each pair
    beta_star: np.ndarray  # pseudo-true logits, centred, input order
    gap: np.ndarray  # true Elo gaps of adjacent pairs
    delta_star: np.ndarray  # pseudo-true logit gaps
    sd1: np.ndarray  # sampling SD of adjacent estimated gaps × √N
    se1: np.ndarray  # reported SE × √N
    cov_adj1: np.ndarray  # sampling covariance of adjacent gaps × N
    cov_dist1: np.ndarray  # sampling covariance of the logits × N
    cov_rep1: np.ndarray  # reported covariance of the logits × N


@functools.lru_cache(maxsize=256)
def _design(values: tuple, tie_rate: float, ties: str, judge: float) -> _Design:
    r = np.asarray(values, dtype=float)
    k = r.size
    i, j = _pairs(k)
    m_pairs = i.size
    p = special.expit(_S * (r[i] - r[j]))
    p_obs = 0.5 + (2.0 * judge - 1.0) * (p - 0.5)
    if ties == "drop":
        share = np.full(m_pairs, (1.0 - tie_rate) / m_pairs)
        mean = p_obs
        var = p_obs * (1.0 - p_obs)
    else:
        share = np.full(m_pairs, 1.0 / m_pairs)
        mean = (1.0 - tie_rate) * p_obs + tie_rate / 2.0
        var = (1.0 - tie_rate) * p_obs + tie_rate / 4.0 - mean**2
    beta = _fit((share * mean)[None], share[None], i, j, k, tol=1e-13)[0]
    sig = special.expit(beta[i] - beta[j])
    hess = _laplacian((share * sig * (1.0 - sig))[None], i, j, k)[0]
    cov = _center(np.linalg.inv(hess + 1.0 / k))
    meat = _laplacian((share * var)[None], i, j, k)[0]
    cov_dist = cov @ meat @ cov
    if ties == "drop":
        cov_rep = cov
    else:
        meat_emp = _laplacian((share * (var + (mean - sig) ** 2))[None], i, j, k)[0]
        cov_rep = cov @ meat_emp @ cov
    order = np.argsort(-r, kind="stable")
    adj = np.zeros((k - 1, k))
    adj[np.arange(k - 1), order[:-1]] = 1.0
    adj[np.arange(k - 1), order[1:]] = -1.0
    cov_adj = adj @ cov_dist @ adj.T
    return _Design(
        values=r, order=order, p_obs=p_obs, beta_star=beta,
        gap=r[order[:-1]] - r[order[1:]], delta_star=adj @ beta,
        sd1=np.sqrt(np.diag(cov_adj)), se1=np.sqrt(np.einsum("ik,kl,il->i", adj, cov_rep, adj)),
        cov_adj1=cov_adj, cov_dist1=cov_dist, cov_rep1=cov_rep,
    )


def _analytic_power(des: _Design, ns, alpha) -> np.ndarray:
    """Right-direction Wald power of every adjacent pair at every N: shape (len(ns), K - 1)."""
    root = np.sqrt(np.asarray(ns, dtype=float))[:, None]
    crit = stats.norm.isf(alpha / 2.0) * des.se1
    up = stats.norm.cdf((root * des.delta_star - crit) / des.sd1)
    down = stats.norm.cdf((-root * des.delta_star - crit) / des.sd1)
    return np.where(des.gap > 0, up, up + down)


def _halfwidth(des: _Design, ns) -> np.ndarray:
    """95% interval half-widths in Elo, (len(ns), K), input order."""
    return _Z95 * np.sqrt(np.diag(des.cov_rep1)[None, :] / np.asarray(ns, dtype=float)[:, None]) * SCALE


def _coverage(des: _Design, n) -> np.ndarray:
    """P(the reported 95% interval covers the true rating relative to the mean), per system."""
    truth = _S * (des.values - des.values.mean())
    bias = des.beta_star - truth
    sd = np.sqrt(np.diag(des.cov_dist1) / n)
    half = _Z95 * np.sqrt(np.diag(des.cov_rep1) / n)
    return stats.norm.cdf((half - bias) / sd) - stats.norm.cdf((-half - bias) / sd)


@functools.lru_cache(maxsize=8)
def _qmc_uniforms(dim: int) -> np.ndarray:
    """Randomized Sobol points, (blocks × points, dim), fixed seeds (common random numbers)."""
    blocks = [qmc.Sobol(dim, scramble=True, seed=20_240_000 + b).random(_QMC_POINTS) for b in range(_QMC_BLOCKS)]
    out = np.concatenate(blocks)
    out.flags.writeable = False
    return out


def _orthant(means, cov) -> tuple[np.ndarray, np.ndarray]:
    """P(X > 0 componentwise) for X ~ N(mean, cov), for each row of ``means`` (G, d).

    Sequential conditioning (Genz & Bretz 2009, §4.1.3) with fixed randomized
    Sobol points; returns the estimates and their standard errors across the
    independent scrambles.
    """
    means = np.atleast_2d(np.asarray(means, dtype=float))
    d = cov.shape[0]
    sd = np.sqrt(np.diag(cov))
    m = means / sd
    if d == 1:
        return stats.norm.cdf(m[:, 0]), np.zeros(m.shape[0])
    # Bounds settle the rows where the answer is within 1e-7 of 0 or 1: P <= min_k Φ(m_k) and
    # P >= 1 - Σ_k Φ(-m_k) (Bonferroni; then P = 1 - Σ_k Φ(-m_k) + O((Σ_k Φ(-m_k))²)).
    tail = special.ndtr(-m)
    fail = tail.sum(axis=1)
    low_side = special.ndtr(m).min(axis=1) < 1e-7
    high_side = fail < 1e-7
    out = np.where(high_side, 1.0 - fail, 0.0)
    se = np.zeros(m.shape[0])
    corr = cov / np.outer(sd, sd)
    # Differences that are negative with probability < 1e-10 are dropped (error <= d · 1e-10 by the union
    # bound); rows with the same remaining differences are computed together.
    active = tail > 1e-10
    rest = np.flatnonzero(~(low_side | high_side))
    groups: dict[bytes, list[int]] = {}
    for row in rest:
        groups.setdefault(active[row].tobytes(), []).append(row)
    for rows in groups.values():
        keep = np.flatnonzero(active[rows[0]])
        if keep.size == 0:
            out[rows] = 1.0
        elif keep.size == 1:
            out[rows] = special.ndtr(m[rows, keep[0]])
        else:
            out[rows], se[rows] = _ghk(m[np.ix_(rows, keep)], corr[np.ix_(keep, keep)], d - 1)
    return out, se


def _ghk(m, corr, dim) -> tuple[np.ndarray, np.ndarray]:
    """Sequential conditioning for standardized means ``m`` (G, d) and correlation ``corr``.

    Uses the first d - 1 columns of the fixed ``dim``-dimensional point set.
    """
    d = corr.shape[0]
    perm = np.argsort(m[-1], kind="stable")  # most restrictive variable first
    m = m[:, perm]
    corr = corr[np.ix_(perm, perm)]
    chol = np.linalg.cholesky(corr + 1e-12 * np.eye(d))
    uni = _qmc_uniforms(dim)[:, : d - 1]  # (points, d - 1)
    g, pts = m.shape[0], uni.shape[0]
    # limits[k] = m_k - Σ_{j<k} L_kj z_j, updated after each draw (elementwise: no threaded BLAS)
    limits = np.repeat(m.T, pts, axis=1) / np.diag(chol)[:, None]
    scaled = chol / np.diag(chol)[:, None]
    prod = np.ones(g * pts)
    for kk in range(d):
        e = special.ndtr(limits[kk])
        prod *= e
        if kk < d - 1:
            z = special.ndtri(np.clip(np.tile(uni[:, kk], g) * e, 1e-300, 1.0 - 1e-16))
            limits[kk + 1:] -= scaled[kk + 1:, kk, None] * z
    per_block = prod.reshape(g, _QMC_BLOCKS, _QMC_POINTS).mean(axis=2)
    return per_block.mean(axis=1), per_block.std(axis=1, ddof=1) / math.sqrt(_QMC_BLOCKS)


def _analytic_order(des: _Design, ns) -> tuple[np.ndarray, np.ndarray]:
    ns = np.asarray(ns, dtype=float)
    if np.any(des.gap <= 0):
        return np.full(ns.size, np.nan), np.zeros(ns.size)
    return _orthant(np.sqrt(ns)[:, None] * des.delta_star[None, :], des.cov_adj1)


# --- K = 2: the Accuracy page's exact engine --------------------------------
def _two_cells(des: _Design, tie_rate):
    """(p_a, p_b) of :func:`core.accuracy.preference_power`: A = the better (first in order) system."""
    better = des.order[0]
    p_better = des.p_obs[0] if better == 0 else 1.0 - des.p_obs[0]
    return (1.0 - tie_rate) * p_better, (1.0 - tie_rate) * (1.0 - p_better), p_better


def _two_order_correct(ns, p_better, tie_rate) -> np.ndarray:
    """Exact P(W > L): the better system has more non-tied wins (K = 2)."""
    out = np.empty(len(ns))
    for idx, n in enumerate(np.asarray(ns, dtype=np.int64)):
        if tie_rate == 0.0:
            d, w = np.array([n]), np.array([1.0])
        else:
            lo = int(max(stats.binom.ppf(1e-13, n, 1.0 - tie_rate), 0))
            hi = int(min(stats.binom.isf(1e-13, n, 1.0 - tie_rate), n))
            d = np.arange(lo, hi + 1)
            w = stats.binom.pmf(d, n, 1.0 - tie_rate)
        out[idx] = float(np.sum(w * stats.binom.sf(d // 2, d, p_better)))
    return out



"""The batched Bradley–Terry Newton solver (logit units) and the reported covariances.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import linalg, special
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components

from ._common import _RIDGE

__all__ = [
]


# ---------------------------------------------------------------------------
# the batched Bradley–Terry Newton solver (logit units)
# ---------------------------------------------------------------------------
def _pairs(k):
    i, j = np.triu_indices(k, 1)
    return i.astype(np.int64), j.astype(np.int64)


def _incidence(i, j, k):
    m = i.size
    rows = np.concatenate([np.arange(m), np.arange(m)])
    return csr_matrix((np.concatenate([np.ones(m), -np.ones(m)]), (rows, np.concatenate([i, j]))), shape=(m, k))


def _laplacian(w, i, j, k):
    """Σ_p w_p (e_i - e_j)(e_i - e_j)ᵀ for a batch of pair weights ``w`` (B, M)."""
    out = np.zeros((w.shape[0], k, k))
    out[:, i, j] = -w
    out[:, j, i] = -w
    diag = np.arange(k)
    out[:, diag, diag] = -out.sum(axis=2)
    return out


def _center(mat):
    """P A P with P = I - 11ᵀ/K: the covariance of ratings relative to their mean."""
    return mat - mat.mean(axis=-1, keepdims=True) - mat.mean(axis=-2, keepdims=True) + mat.mean(
        axis=(-1, -2), keepdims=True)


def _fit(y, n, i, j, k, *, ridge=None, beta0=None, tol=1e-10, max_iter=200):
    """Maximum-likelihood logits for a batch of aggregated vote tables.

    ``y`` (B, M): wins of the first system of each pair (ties as ½ under
    "split"); ``n`` (B, M): votes in the fit. ``ridge`` (B,): penalty λ of
    ½ λ Σβ² (0: plain ML). Newton–Raphson with the sum-to-zero constraint
    handled by solving (H + λI + 11ᵀ/K) δ = g - λβ (the gradient sums to
    zero, so δ does); steps are capped at 2 logits. Returns β (B, K), centred.
    """
    b = y.shape[0]
    lam = np.zeros(b) if ridge is None else np.asarray(ridge, dtype=float)
    beta = np.zeros((b, k)) if beta0 is None else np.array(beta0, dtype=float, copy=True)
    beta -= beta.mean(axis=1, keepdims=True)
    inc_t = _incidence(i, j, k).T.tocsr()
    eye = np.eye(k)
    live = np.ones(b, dtype=bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(live)
        bt = beta[idx]
        p = special.expit(bt[:, i] - bt[:, j])
        grad = (inc_t @ (y[idx] - n[idx] * p).T).T - lam[idx, None] * bt
        hess = _laplacian(n[idx] * p * (1.0 - p), i, j, k)
        hess += lam[idx, None, None] * eye + 1.0 / k
        step = np.linalg.solve(hess, grad[..., None])[..., 0]
        big = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, 2.0 / np.maximum(big, 1e-300))[:, None]
        beta[idx] = bt + step
        live[idx] = big > tol
        if not live.any():
            break
    return beta - beta.mean(axis=1, keepdims=True)


#: Replicates × K³ of exact bootstrap refits :func:`_fit_replicates` takes on (≈ seconds); beyond, it gives up.
_EXACT_REFIT_WORK = 5e9
#: Replicates × K × K Hessian cells of one batch of exact refits (≈ 32 MB an array).
_REFIT_CELLS = 4_000_000


def _fit_replicates(wins, losses, ties_n, i, j, k, ties, beta_hat, factor, inc_t, *, tol=1e-10, max_iter=100):
    """Bootstrap refits from the point estimate by the chord method; the exact fit only where that does not apply.

    Each replicate's likelihood is maximised by Newton steps that keep the
    point estimate's Hessian (K × K, with the 11ᵀ/K term of :func:`_fit`),
    whose Cholesky ``factor`` (:func:`scipy.linalg.cho_factor`, or None) is
    computed once: δ = H⁻¹ g(β); ``inc_t`` is the transposed incidence matrix. A replicate's Hessian differs
    from it only by resampling noise, so the iteration converges linearly to
    the same maximum (Ortega & Rheinboldt 1970, §7.1 "chord method"; Kelley
    1995, §5.4.3) at O(K²) per replicate and step instead of the O(K³) of a
    fresh factorisation — the difference between seconds and minutes at
    K = 1,000 models. Replicates that are separated (they need the ridge) or
    do not converge within ``max_iter`` steps are refitted by :func:`_fit`, a few at a time; if those refits
    would exceed ``_EXACT_REFIT_WORK`` (replicates × K³), returns None. Returns β (B, K), centred.
    """
    if ties == "drop":
        y, n = wins, wins + losses
    else:
        y, n = wins + 0.5 * ties_n, wins + losses + ties_n
    b = y.shape[0]
    beta = np.repeat(beta_hat[None], b, axis=0)
    separated = ~_strongly_connected(y, n, i, j, k)
    live = ~separated if factor is not None else np.zeros(b, dtype=bool)
    done = np.zeros(b, dtype=bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(live)
        if idx.size == 0:
            break
        bt = beta[idx]
        p = special.expit(bt[:, i] - bt[:, j])
        grad = inc_t @ (y[idx] - n[idx] * p).T  # (K, B)
        step = linalg.cho_solve(factor, grad).T
        big = np.abs(step).max(axis=1)
        if not np.all(np.isfinite(big)):
            live[idx[~np.isfinite(big)]] = False
            keep = np.isfinite(big)
            idx, bt, step, big = idx[keep], bt[keep], step[keep], big[keep]
        step *= np.minimum(1.0, 2.0 / np.maximum(big, 1e-300))[:, None]
        beta[idx] = bt + step
        converged = big <= tol
        done[idx[converged]] = True
        live[idx[converged]] = False
    rest = np.flatnonzero(~done)
    if rest.size * float(k) ** 3 > _EXACT_REFIT_WORK:
        return None  # too many exact refits at this K: the caller reports normal intervals instead
    # exact refits hold (replicates × K × K) Hessians: a few replicates at a time at large K
    per = max(1, _REFIT_CELLS // (k * k))
    for start in range(0, rest.size, per):
        part = rest[start:start + per]
        beta[part] = _fit_counts(wins[part], losses[part], ties_n[part], i, j, k, ties,
                                 beta0=np.repeat(beta_hat[None], part.size, axis=0))[0]
    return beta - beta.mean(axis=1, keepdims=True)


def _reported_covariance(beta, y, n, i, j, k, ties, ridge, t_counts=None, w_counts=None, l_counts=None):
    """Per-replicate reported covariance of the logits (relative to the mean).

    "drop": the inverse observed (= expected) information H⁺; "split": the
    empirical sandwich H⁺ Ĵ H⁺ with Ĵ = Σ_votes (y_v - σ̂)² (e_i - e_j)(…)ᵀ.
    """
    p = special.expit(beta[:, i] - beta[:, j])
    hess = _laplacian(n * p * (1.0 - p), i, j, k)
    lam = np.zeros(beta.shape[0]) if ridge is None else ridge
    cov = _center(np.linalg.inv(hess + lam[:, None, None] * np.eye(k) + 1.0 / k))
    if ties == "split":
        sq = w_counts * (1.0 - p) ** 2 + l_counts * p**2 + t_counts * (0.5 - p) ** 2
        meat = _laplacian(sq, i, j, k)
        cov = cov @ meat @ cov
    return cov


def _strongly_connected(y, n, i, j, k):
    """Per replicate: is the win graph (i → j when i won or tied a vote against j) strongly connected?

    That is the condition for a finite maximum-likelihood estimate (Ford 1957).
    """
    fwd, bwd = y > 0, (n - y) > 0
    b = y.shape[0]
    if k <= 32:
        reach = np.zeros((b, k, k))
        reach[:, i, j] = fwd
        reach[:, j, i] = bwd
        reach += np.eye(k)
        for _ in range(max(1, math.ceil(math.log2(k)))):
            reach = np.minimum(reach @ reach, 1.0)
        return (reach > 0).all(axis=(1, 2))
    out = np.empty(b, dtype=bool)
    for r in range(b):
        rows = np.concatenate([i[fwd[r]], j[bwd[r]]])
        cols = np.concatenate([j[fwd[r]], i[bwd[r]]])
        graph = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(k, k)).tocsr()
        out[r] = connected_components(graph, directed=True, connection="strong")[0] == 1
    return out

def _fit_counts(wins, losses, ties_n, i, j, k, ties, *, beta0=None):
    """Fit a batch of count tables; returns (β, ridge λ per table, separated flags, y, n)."""
    if ties == "drop":
        y, n = wins, wins + losses
    else:
        y, n = wins + 0.5 * ties_n, wins + losses + ties_n
    separated = ~_strongly_connected(y, n, i, j, k)
    ridge = np.where(separated, _RIDGE, 0.0)
    beta = _fit(y, n, i, j, k, ridge=ridge, beta0=beta0)
    return beta, ridge, separated, y, n



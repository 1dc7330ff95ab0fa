"""Two-sided group-sequential boundaries for K analyses (equally spaced, or at realised information fractions).

Shared by the DA campaign designs (:mod:`core.sequential.campaign`) and the
general engine (:mod:`core.sequential.general`). Constants are computed, not
tabulated: the crossing probability of the canonical joint distribution
(corr(Z_i, Z_j) = √(t_i/t_j)) under H0 is integrated recursively
(:mod:`core.sequential.recursion`) and the constant solved for by Brent's
method.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import optimize, stats

from ..validation import check_alpha, check_choice, check_int
from .recursion import recursion, recursion_rows, unit_recursion

__all__ = ["BOUNDARIES", "boundary", "boundary_z"]

#: Group-sequential boundary families: Pocock (1977) constant nominal level,
#: O'Brien & Fleming (1979), and Lan & DeMets (1983) α-spending with the
#: O'Brien–Fleming-type (``"lan_demets"``) or Pocock-type spending function.
BOUNDARIES = ("pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock")


def _null_crossing(efficacy, futility):
    up, low, _ = unit_recursion(np.zeros((1, len(efficacy))), efficacy, futility)
    return float(up.sum() + low.sum())


def _look_crossing(efficacy, futility, information):
    """P(reject at each look) under H0 for boundaries on |Z_k| at the looks with ``information``.

    ``information=None``: equally spaced looks (:func:`unit_recursion`, unit
    increments). Otherwise the information (or items) at each look, and the
    score process has increments of variance ``I_k - I_{k-1}``, so that
    ``corr(Z_j, Z_k) = √(I_j/I_k)`` (Jennison & Turnbull 2000, §3.1).
    """
    k = len(efficacy)
    if information is None:
        up, low, _ = unit_recursion(np.zeros((1, k)), efficacy, futility)
    else:
        info = np.asarray(information[:k], dtype=float)
        roots = np.sqrt(info)
        up, low, _ = recursion(np.zeros((1, k)), np.diff(np.concatenate([[0.0], info])),
                               np.asarray(efficacy, float) * roots, np.asarray(futility, float) * roots)
    return up[0] + low[0]


def equal_information(sizes):
    """``None`` if the looks ``sizes`` are equally spaced (``n_k = k n_1``), else the sizes as a tuple of floats.

    The key of :func:`_boundary_z` for the realised looks: equally spaced looks
    keep the classical computation (and its numbers) exactly.
    """
    sizes = np.asarray(sizes, dtype=float)
    if np.array_equal(sizes, sizes[0] * np.arange(1, sizes.size + 1)):
        return None
    return tuple(float(v) for v in sizes)


def _spend(kind, t, alpha):
    """Cumulative two-sided α spent by information fraction t (α/2 on each side)."""
    if kind == "lan_demets":  # O'Brien–Fleming type, per side: 2 - 2Φ(z_{1-α/4} / √t)
        return 2.0 * (2.0 - 2.0 * stats.norm.cdf(stats.norm.isf(alpha / 4) / math.sqrt(t)))
    return alpha * math.log(1 + (math.e - 1) * t)  # Pocock type


def _unspendable(kind, alpha, futility, look, reach, target):
    p = 2.0 * stats.norm.sf(futility)
    return ValueError(
        f"`futility_p` = {p:.4g} stops too many runs for the '{kind}' boundary to spend `alpha` = {alpha:g}: "
        f"with no true difference only {reach:.3%} of runs reach look {look}, where the spending function still "
        f"has {target:.3%} to spend. Use a larger `futility_p` (fewer futility stops), a smaller `alpha` or "
        f"fewer `looks`.")


#: Half-widths of the brackets tried in turn around the equally spaced boundary (:func:`_solve_near`): the first
#: holds the realised boundary of most budgets a search visits, the second of small or unevenly split ones.
_NEAR = (0.005, 0.03)


def _equally_spaced(peeks, alpha, kind, futility):
    """The equally spaced boundaries (cached), or None where binding futility leaves them unspendable: only a
    starting point for the realised looks, which may still have boundaries."""
    try:
        return _boundary_z(peeks, alpha, kind, futility)
    except ValueError:
        return None


def _brent(gap, lo, hi, known):
    """Brent's root of ``gap`` in ``[lo, hi]`` (xtol 1e-10), ``known``: its values already computed at the ends.

    Brent's method starts by evaluating both ends; each evaluation here is a recursive integration, and the
    callers have just computed them to check the bracket, so they are read back (the same numbers, the same root).
    """
    def cached(c):
        return known[c] if c in known else gap(c)

    return optimize.brentq(cached, lo, hi, xtol=1e-10)


def _solve_near(gap, near, widths):
    """The root of the decreasing ``gap`` in the first bracket ``[near − w, near + w]`` (``w`` in ``widths``) that
    holds it, by Brent's method (xtol 1e-10); None when none does (the caller then searches its wide bracket)."""
    for width in widths:
        lo, hi = near - width, near + width
        if lo <= 0.0:
            return None
        g_lo, g_hi = gap(lo), gap(hi)
        if g_lo >= 0.0 >= g_hi:
            if g_lo == 0.0:
                return lo
            if g_hi == 0.0:
                return hi
            return _brent(gap, lo, hi, {lo: g_lo, hi: g_hi})
    return None


# A DA sample-size search solves the boundaries of hundreds of realised looks (one per budget), and a move of the
# difference searches an overlapping range: enough entries to keep them.
@lru_cache(maxsize=8192)
def _boundary_z(peeks, alpha, kind, futility=0.0, information=None):
    """Efficacy boundaries on |Z_k|; ``futility`` > 0 makes a binding futility stop at |Z_k| < futility (k < K).

    With binding futility the boundaries are solved with the futility stops in
    place, so the false-positive rate is exactly α (Jennison & Turnbull 2000,
    §5.2); ``futility = 0`` gives the classical boundaries.

    ``information`` (a tuple, see :func:`equal_information`) gives the realised
    looks when they are not equally spaced (look sizes rounded to whole
    items): the boundaries are then computed at the realised information
    fractions ``t_k = I_k / I_K`` with the realised correlations, so the size
    is exactly α. Spending boundaries spend ``α(t_k)`` at the actual fractions
    (Lan & DeMets 1983, Biometrika 70:659–663; Jennison & Turnbull 2000, §7.2);
    Pocock and O'Brien–Fleming keep their shape (``c`` and ``c/√t_k``) with the
    constant ``c`` solved at the actual fractions (Jennison & Turnbull 2000,
    §7.2.2, the "exact" version of a classical boundary at unequal groups).

    Brackets: the crossing probability is non-increasing in the boundary
    (a run rejected with the higher boundary is rejected with the lower one,
    and cannot stop for futility first, as ``a_k = min(f, b_k)``) and is 1 at
    ``c = 0`` for the first look, so a root always exists in ``[0, 8]`` for
    the classical families. For spending, look k can spend at most
    P(reaching look k) (``c = 0`` rejects every run still going); when binding
    futility stops leave less than the increment to spend, no boundary exists
    and a ``ValueError`` names ``futility_p``.
    """
    if peeks == 1:
        return (float(stats.norm.isf(alpha / 2)),)
    looks = np.arange(1, peeks + 1)
    if information is None:
        fractions = looks / peeks
    else:
        fractions = np.asarray(information, dtype=float) / float(information[-1])
    fut = np.full(peeks, float(futility))
    fut[-1] = 0.0
    if kind in ("pocock", "obrien_fleming"):
        if kind == "pocock":
            shape = np.ones(peeks)
        else:
            shape = np.sqrt(peeks / looks) if information is None else 1.0 / np.sqrt(fractions)

        def gap(c):
            if information is None:
                return _null_crossing(c * shape, fut) - alpha
            return float(_look_crossing(c * shape, fut, information).sum()) - alpha

        if information is not None:
            # realised looks near equal spacing: the constant is within a few hundredths of the equally spaced
            # one (cached), so a narrow bracket around it saves half of Brent's iterations (a sample-size search
            # solves hundreds of these); the answer is the same root to 1e-10
            near = _equally_spaced(peeks, alpha, kind, futility)
            c = _solve_near(gap, near[-1], _NEAR) if near else None
            if c is not None:
                return tuple(float(v) for v in c * shape)
        low = stats.norm.isf(alpha / 2) * 0.5
        g_low = gap(low)
        if g_low < 0:  # binding futility stops so many runs that the constant falls below z_{1-α/2}/2
            low, g_low = 0.0, gap(0.0)
        c = _brent(gap, low, 8.0, {low: g_low})
        return tuple(float(v) for v in c * shape)
    bounds: list[float] = []
    spent = 0.0
    near = _equally_spaced(peeks, alpha, kind, futility) if information is not None else None  # as above
    for k in range(1, peeks + 1):
        target = (_spend(kind, 1.0 if k == peeks else float(fractions[k - 1]), alpha) if information is not None
                  else _spend(kind, k / peeks, alpha)) - spent

        def gap(c, k=k):  # only the first k looks matter for the k-th increment (futility at look k unused)
            return float(_look_crossing(np.array(bounds + [c]), fut[:k], information)[k - 1]) - target

        c = _solve_near(gap, near[k - 1], _NEAR) if near and target > 1e-12 else None
        if c is None:
            if target <= 1e-12:
                c = 12.0
            elif (g_tenth := gap(0.1)) >= 0:
                c = _brent(gap, 0.1, 12.0, {0.1: g_tenth})
            else:  # the increment is more than P(reaching look k, |Z_k| >= 0.1): only binding futility does this
                most = gap(0.0)
                if most < -1e-10:
                    raise _unspendable(kind, alpha, futility, k, most + target, target)
                c = _brent(gap, 0.0, 0.1, {0.0: most, 0.1: g_tenth}) if most > 0 else 0.0
        bounds.append(float(c))
        spent += target
    return tuple(bounds)


#: Realised-look boundaries solved together (:func:`realised_boundaries`), by (peeks, alpha, kind, information).
_SOLVED: dict = {}
_SOLVED_MAX = 8192


def _solve_rows(gap_rows, lo, hi, *, ends, xtol=1e-10, max_iter=60):
    """Roots of decreasing functions, one per row, bracketed in ``[lo_d, hi_d]`` (``ends``: the values there,
    gap(lo) >= 0 >= gap(hi)): the Illinois variant of regula falsi, all rows evaluated together by
    ``gap_rows(c, rows)``. It keeps the bracket and converges superlinearly; a row is done when its step falls
    below ``xtol`` (as Brent's method with that tolerance) or its bracket is narrower than ``2 xtol``."""
    lo, hi = lo.astype(float).copy(), hi.astype(float).copy()
    f_lo, f_hi = (np.asarray(e, dtype=float).copy() for e in ends)
    root = np.where(f_lo == 0.0, lo, np.where(f_hi == 0.0, hi, np.nan))
    last = np.full(lo.size, np.nan)
    side = np.zeros(lo.size, dtype=int)
    for _ in range(max_iter):
        todo = np.nonzero(np.isnan(root))[0]
        if todo.size == 0:
            break
        narrow = hi[todo] - lo[todo] <= 2 * xtol
        root[todo[narrow]] = 0.5 * (lo[todo[narrow]] + hi[todo[narrow]])
        todo = todo[~narrow]
        if todo.size == 0:
            break
        x = hi[todo] - f_hi[todo] * (hi[todo] - lo[todo]) / (f_hi[todo] - f_lo[todo])
        x = np.clip(x, lo[todo], hi[todo])
        still = ~(np.abs(x - last[todo]) <= xtol)
        root[todo[~still]] = x[~still]
        todo, x = todo[still], x[still]
        if todo.size == 0:
            break
        last[todo] = x
        fx = gap_rows(x, todo)
        root[todo[fx == 0.0]] = x[fx == 0.0]
        above = fx > 0.0  # the root lies above x: x becomes the low end
        # Illinois: an end kept twice in a row has its value halved, so the next step moves it
        f_hi[todo] = np.where(above & (side[todo] == 1), 0.5 * f_hi[todo], f_hi[todo])
        f_lo[todo] = np.where(~above & (side[todo] == -1), 0.5 * f_lo[todo], f_lo[todo])
        lo[todo] = np.where(above, x, lo[todo])
        f_lo[todo] = np.where(above, fx, f_lo[todo])
        hi[todo] = np.where(above, hi[todo], x)
        f_hi[todo] = np.where(above, f_hi[todo], fx)
        side[todo] = np.where(above, 1, -1)
    left = np.isnan(root)
    root[left] = 0.5 * (lo[left] + hi[left])
    return root


def realised_boundaries(peeks, alpha, kind, informations):
    """Efficacy boundaries on |Z_k| at many realised looks at once (no futility stops): one tuple per entry of
    ``informations`` (tuples as :func:`equal_information` gives; ``None``: equally spaced).

    The same boundaries as :func:`_boundary_z` (Pocock's and O'Brien–Fleming's constant solved at the realised
    fractions, Jennison & Turnbull 2000 §7.2.2; spending families look by look there), to the same tolerance
    (1e-10 on the constant): a sample-size search needs those of a block of budgets, and solving them together
    integrates every candidate constant of the block in one pass (:func:`core.sequential.recursion.recursion_rows`).
    """
    out: list = [None] * len(informations)
    todo = []
    for i, info in enumerate(informations):
        key = (peeks, alpha, kind, info)
        if info is None or peeks == 1 or kind not in ("pocock", "obrien_fleming"):
            out[i] = _boundary_z(peeks, alpha, kind, 0.0, info)
        elif key in _SOLVED:
            out[i] = _SOLVED[key]
        else:
            todo.append(i)
    if not todo:
        return out
    near = _equally_spaced(peeks, alpha, kind, 0.0)
    info = np.array([informations[i] for i in todo], dtype=float)
    fractions = info / info[:, -1:]
    shape = np.ones_like(info) if kind == "pocock" else 1.0 / np.sqrt(fractions)
    roots = np.sqrt(info)
    increments = np.diff(np.concatenate([np.zeros((len(todo), 1)), info], axis=1), axis=1)

    def gap_rows(c, rows):
        up, low, _ = recursion_rows(np.zeros((rows.size, peeks)), increments[rows],
                                    c[:, None] * shape[rows] * roots[rows], np.zeros((rows.size, peeks)))
        return (up + low).sum(axis=1) - alpha

    constants = np.full(len(todo), np.nan)
    for width in (_NEAR if near is not None else ()):  # the brackets of _solve_near, narrowest first
        rows = np.nonzero(np.isnan(constants))[0]
        if rows.size == 0 or near[-1] - width <= 0.0:
            break
        lo, hi = np.full(rows.size, near[-1] - width), np.full(rows.size, near[-1] + width)
        g_lo, g_hi = gap_rows(lo, rows), gap_rows(hi, rows)
        held = (g_lo >= 0.0) & (g_hi <= 0.0)
        if held.any():
            inside = rows[held]
            constants[inside] = _solve_rows(lambda c, r, inside=inside: gap_rows(c, inside[r]), lo[held], hi[held],
                                            ends=(g_lo[held], g_hi[held]))
    for j, i in enumerate(todo):
        if np.isnan(constants[j]):  # far from equal spacing: the one-by-one solver and its wide bracket
            out[i] = _boundary_z(peeks, alpha, kind, 0.0, informations[i])
            continue
        out[i] = tuple(float(v) for v in constants[j] * shape[j])
        if len(_SOLVED) < _SOLVED_MAX:
            _SOLVED[(peeks, alpha, kind, informations[i])] = out[i]
    return out


def boundary_z(k, *, alpha=0.05, kind="pocock") -> np.ndarray:
    """Critical values on |Z| at each of ``k`` equally spaced analyses.

    Examples
    --------
    >>> [round(float(c), 4) for c in boundary_z(3, kind="obrien_fleming")]  # Jennison & Turnbull Table 2.3
    [3.4711, 2.4544, 2.004]
    """
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

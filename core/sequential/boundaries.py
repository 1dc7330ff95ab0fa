"""Two-sided group-sequential boundaries for K equally spaced analyses.

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
from .recursion import unit_recursion

__all__ = ["BOUNDARIES", "boundary", "boundary_z"]

#: Group-sequential boundary families: Pocock (1977) constant nominal level,
#: O'Brien & Fleming (1979), and Lan & DeMets (1983) α-spending with the
#: O'Brien–Fleming-type (``"lan_demets"``) or Pocock-type spending function.
BOUNDARIES = ("pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock")


def _null_crossing(efficacy, futility):
    up, low, _ = unit_recursion(np.zeros((1, len(efficacy))), efficacy, futility)
    return float(up.sum() + low.sum())


def _spend(kind, t, alpha):
    """Cumulative two-sided α spent by information fraction t (α/2 on each side)."""
    if kind == "lan_demets":  # O'Brien–Fleming type, per side: 2 - 2Φ(z_{1-α/4} / √t)
        return 2.0 * (2.0 - 2.0 * stats.norm.cdf(stats.norm.isf(alpha / 4) / math.sqrt(t)))
    return alpha * math.log(1 + (math.e - 1) * t)  # Pocock type


@lru_cache(maxsize=512)
def _boundary_z(peeks, alpha, kind, futility=0.0):
    """Efficacy boundaries on |Z_k|; ``futility`` > 0 makes a binding futility stop at |Z_k| < futility (k < K).

    With binding futility the boundaries are solved with the futility stops in
    place, so the false-positive rate is exactly α (Jennison & Turnbull 2000,
    §5.2); ``futility = 0`` gives the classical boundaries.
    """
    if peeks == 1:
        return (float(stats.norm.isf(alpha / 2)),)
    looks = np.arange(1, peeks + 1)
    fut = np.full(peeks, float(futility))
    fut[-1] = 0.0
    if kind in ("pocock", "obrien_fleming"):
        shape = np.ones(peeks) if kind == "pocock" else np.sqrt(peeks / looks)

        def gap(c):
            return _null_crossing(c * shape, fut) - alpha

        c = optimize.brentq(gap, stats.norm.isf(alpha / 2) * 0.5, 8.0, xtol=1e-10)
        return tuple(float(v) for v in c * shape)
    bounds: list[float] = []
    spent = 0.0
    for k in range(1, peeks + 1):
        target = _spend(kind, k / peeks, alpha) - spent

        def gap(c, k=k):  # only the first k looks matter for the k-th increment
            trial = np.array(bounds + [c])
            up, low, _ = unit_recursion(np.zeros((1, k)), trial, fut[:k])  # futility at look k is unused
            return float(up[0, k - 1] + low[0, k - 1]) - target

        c = optimize.brentq(gap, 0.1, 12.0, xtol=1e-10) if target > 1e-12 else 12.0
        bounds.append(float(c))
        spent += target
    return tuple(bounds)


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

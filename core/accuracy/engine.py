"""The shared exact engine of the paired designs (McNemar and preference tests).

Let ``D`` be the number of discordant items (or non-tied raters), ``D ~
Binomial(n, p_d)``, and ``B | D ~ Binomial(D, q)`` the number of those in
favour of the new system. The observed effect is ``(2B - D) / n`` and the
true effect ``p_d (2q - 1)``. Every test offered here rejects exactly when
``min(B, D - B) <= k_D`` for a critical count ``k_D < D / 2`` that depends
only on ``D`` (a table with ``B = D - B`` has no observed difference and is
never a significant result in either direction), so power, Type-S and Type-M
error are finite sums over ``D`` of binomial tail probabilities and partial
expectations — no Monte Carlo error (Card et al. 2020, appendix B). Negligible
tails of ``D`` (mass < 1e-12 each side) are dropped, which keeps
``n = 400,000`` fast. ``method="simulate"`` runs the paper's Figure 2
simulation instead, vectorized over replicates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, special, stats

from ..results import PowerResult, nan_if_zero
from ..validation import check_real, rng_of

TESTS = ("exact", "midp", "chi2", "chi2_cc", "normal")
#: Engines: exact summation, or the Monte Carlo simulation of Card et al. Figure 2.
METHODS = ("exact", "simulate")

_TAIL_EPS = 1e-12
_N_MAX = 10_000_000


def _validate_power_target(target_power):
    return check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)



def pvalue_from_counts(k, d, test: str):
    """Two-sided p-value of the paired tests from the discordant counts.

    Parameters
    ----------
    k : array_like of int
        ``min(b, c)``, the smaller discordant count.
    d : array_like of int
        ``b + c``, the number of discordant pairs.
    test : {"exact", "midp", "chi2", "chi2_cc", "normal"}
        ``"normal"`` is the uncorrected asymptotic test (same as ``"chi2"``).

    Returns
    -------
    ndarray
        p-values (1 where ``d == 0``). ``"exact"``, ``"chi2"`` and ``"chi2_cc"``
        agree with statsmodels ``mcnemar``.
    """
    k = np.asarray(k, dtype=float)
    d = np.asarray(d, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if test == "exact":
            p = 2.0 * stats.binom.cdf(k, d, 0.5)
        elif test == "midp":
            p = 2.0 * stats.binom.cdf(k, d, 0.5) - stats.binom.pmf(k, d, 0.5)
        elif test in ("chi2", "normal"):
            p = stats.chi2.sf((d - 2.0 * k) ** 2 / d, 1)
        elif test == "chi2_cc":
            p = stats.chi2.sf((np.abs(d - 2.0 * k) - 1.0) ** 2 / d, 1)
        else:  # pragma: no cover - validated upstream
            raise ValueError(f"`test` must be one of {TESTS}, got {test!r}.")
    p = np.where(d > 0, np.minimum(p, 1.0), 1.0)
    return p


def _critical_counts(d: np.ndarray, test: str, alpha: float) -> np.ndarray:
    """Largest ``k < d / 2`` with p-value(k, d) <= alpha (``-1`` when none).

    ``k`` stays below ``d / 2``: a table with ``b = c`` shows no difference and
    is never significant, even where a test's p-value for it is <= alpha (the
    continuity-corrected chi-square gives p = 0.4795 at b = c = 1).
    """
    d = np.asarray(d, dtype=np.int64)
    if test == "exact" or test == "midp":
        # a start near the answer: Bin(d, 1/2)'s quantile where it is cheap, its normal approximation (within a
        # count or two) where the quantile function is slow; the loops below settle it on the p-value exactly
        small = d < 2000
        k = np.empty(d.shape, dtype=float)
        k[small] = stats.binom.ppf(alpha / 2.0, d[small], 0.5) - 1.0
        big = d[~small].astype(float)
        k[~small] = np.floor((big - 1.0) / 2.0 + stats.norm.ppf(alpha / 2.0) * np.sqrt(big) / 2.0)
    elif test in ("chi2", "normal"):
        crit = stats.chi2.ppf(1.0 - alpha, 1)
        k = np.floor((d - np.sqrt(crit * d)) / 2.0)
    else:  # chi2_cc
        crit = stats.chi2.ppf(1.0 - alpha, 1)
        k = np.floor((d - 1.0 - np.sqrt(crit * d)) / 2.0)
    k = np.clip(np.nan_to_num(k, nan=-1.0), -1, np.floor((d - 1) / 2.0)).astype(np.int64)
    # Settle the candidate on the p-value itself so that the exact engine and
    # the Monte Carlo engine use the very same rejection rule. The p-value
    # increases with k below d / 2 for every test, so stepping up while the
    # next count still rejects, then down while the count does not, ends at
    # the answer from any start (one or two steps from these starts).
    grow = np.ones(d.shape, dtype=bool)
    while grow.any():
        nxt = k + 1
        grow = (2 * nxt < d) & (pvalue_from_counts(nxt, d, test) <= alpha)
        k = np.where(grow, nxt, k)
    shrink = np.ones(d.shape, dtype=bool)
    while shrink.any():
        shrink = (k >= 0) & (pvalue_from_counts(np.maximum(k, 0), d, test) > alpha)
        k = np.where(shrink, k - 1, k)
    return k


_CRITICAL_TABLES: dict[tuple[str, float], np.ndarray] = {}
_UNKNOWN = -2


def _critical_lookup(test: str, alpha: float, d: np.ndarray) -> np.ndarray:
    """Critical counts ``k_d`` at the discordant counts ``d``, memoized per (test, alpha).

    The rejection rule depends on nothing but the discordant count, so one
    table serves every design, curve and slider move with that test and level.
    Only the counts asked for are computed (a design at n = 2,000,000 visits
    a few thousand counts around n·p_d, not all two million below it).
    """
    key = (test, float(alpha))
    d = np.asarray(d, dtype=np.int64)
    d_max = int(d.max()) if d.size else 0
    table = _CRITICAL_TABLES.get(key)
    if table is None or table.size <= d_max:
        grown = np.full(max(d_max + 1, 2 * (0 if table is None else table.size), 1024), _UNKNOWN, dtype=np.int64)
        if table is not None:
            grown[: table.size] = table
        if len(_CRITICAL_TABLES) > 32 and table is None:  # many (test, alpha) pairs: start afresh
            _CRITICAL_TABLES.clear()
        _CRITICAL_TABLES[key] = table = grown
    missing = np.unique(d[table[d] == _UNKNOWN])
    if missing.size:
        table[missing] = _critical_counts(missing, test, alpha)
    return table[d]


def _critical_table(test: str, alpha: float, d_max: int) -> np.ndarray:
    """Critical counts for every d = 0 … d_max (see :func:`_critical_lookup`)."""
    return _critical_lookup(test, alpha, np.arange(d_max + 1))


def _tie_lookup(test: str, alpha: float, d: np.ndarray) -> np.ndarray:
    """At the discordant counts ``d``: does the test reject a table with b = c = d/2?

    Such a table rejects the null hypothesis without pointing either way; it
    counts in the rejection rate but never as a significant result in a
    direction. Only the continuity-corrected chi-square at α >= 0.4795 does
    this (p = 0.4795 at b = c = 1); the other tests give p = 1 there.
    """
    d = np.asarray(d, dtype=np.int64)
    if test != "chi2_cc":
        return np.zeros(d.shape, dtype=bool)
    return (d > 0) & (d % 2 == 0) & (pvalue_from_counts(d // 2, d, test) <= alpha)


@dataclass(frozen=True)
class _Moments:
    p_up: np.ndarray  # P(significant, B > D - B)
    p_low: np.ndarray  # P(significant, B < D - B)
    abs_up: np.ndarray  # E[2B - D ; significant, B > D - B]
    abs_low: np.ndarray  # E[D - 2B ; significant, B < D - B]
    p_tie: np.ndarray  # P(p <= alpha, B = D - B): rejects, in no direction


def _exact_moments(n, p_disc, q, test, alpha) -> _Moments:
    """Vectorized over designs: arrays ``n``, ``p_disc``, ``q`` of equal shape."""
    n = np.atleast_1d(np.asarray(n, dtype=np.int64))
    p_disc = np.atleast_1d(np.asarray(p_disc, dtype=float))
    q = np.atleast_1d(np.asarray(q, dtype=float))
    n, p_disc, q = np.broadcast_arrays(n, p_disc, q)
    n, p_disc, q = n.ravel(), p_disc.ravel(), q.ravel()
    lo = np.where(p_disc > 0, stats.binom.ppf(_TAIL_EPS, n, p_disc), 0)
    hi = np.where(p_disc > 0, stats.binom.isf(_TAIL_EPS, n, p_disc), 0)
    lo = np.maximum(np.nan_to_num(lo, nan=0.0), 1).astype(np.int64)
    hi = np.minimum(np.nan_to_num(hi, nan=0.0), n).astype(np.int64)
    widths = np.maximum(hi - lo + 1, 0)
    design = np.repeat(np.arange(n.size), widths)
    offsets = np.arange(widths.sum()) - np.repeat(np.cumsum(widths) - widths, widths)
    d = lo[design] + offsets
    weight = stats.binom.pmf(d, n[design], p_disc[design])
    # Given D = d, the test's outcome depends on d and q only, so the conditional tails are computed once per
    # distinct (d, q) and gathered: a sample-size scan over a thousand n shares almost all of its counts.
    qs, q_index = np.unique(q, return_inverse=True)
    pairs, back = _dense_unique(d * qs.size + q_index.ravel()[design])
    up, low, abs_up, abs_low, tie_mass = (a[back] for a in _conditional_tails(pairs // qs.size,
                                                                              qs[pairs % qs.size], test, alpha))
    size = n.size
    p_up = np.bincount(design, weights=weight * up, minlength=size)
    p_low = np.bincount(design, weights=weight * low, minlength=size)
    sum_up = np.bincount(design, weights=weight * abs_up, minlength=size)
    sum_low = np.bincount(design, weights=weight * abs_low, minlength=size)
    if tie_mass.any():
        p_tie = np.bincount(design, weights=weight * tie_mass, minlength=size)
    else:
        p_tie = np.zeros(size)
    return _Moments(p_up=p_up, p_low=p_low, abs_up=sum_up, abs_low=sum_low, p_tie=p_tie)


def _dense_unique(keys):
    """``np.unique(keys, return_inverse=True)`` for non-negative integer keys, by a presence table (no sort)
    when their span is small, as in a sample-size scan's overlapping discordant counts."""
    if keys.size == 0:
        return keys, keys
    low, high = int(keys.min()), int(keys.max())
    if high - low > 4 * keys.size + 4096:
        return np.unique(keys, return_inverse=True)
    present = np.zeros(high - low + 1, dtype=bool)
    present[keys - low] = True
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present) + low, rank[keys - low]


def _conditional_tails(d, qd, test, alpha):
    """Given D = d discordant pairs with B ~ Bin(d, q): P(significant up), P(significant down), the partial
    expectations E[B − C; significant up] and E[C − B; significant down], and P(rejecting with B = C)."""
    k = _critical_lookup(test, alpha, d)
    t = d - k  # upper rejection region: B >= t
    up = stats.binom.sf(t - 1, d, qd)
    low = stats.binom.cdf(k, d, qd)
    # E[B 1{B >= t}] = d q P(Bin(d-1, q) >= t-1); E[B 1{B <= k}] = d q P(Bin(d-1, q) <= k-1).
    # Splitting off the last trial, P(Bin(d-1) >= t-1) = P(Bin(d) >= t) + (1-q) P(Bin(d-1) = t-1)
    # and P(Bin(d-1) <= k-1) = P(Bin(d) <= k) - (1-q) P(Bin(d-1) = k): pmfs are cheaper than tails.
    eb_up = d * qd * (up + (1.0 - qd) * stats.binom.pmf(t - 1, d - 1, qd))
    eb_low = d * qd * (low - (1.0 - qd) * stats.binom.pmf(k, d - 1, qd))
    ties = _tie_lookup(test, alpha, d)
    tie_mass = np.where(ties, stats.binom.pmf(d // 2, d, qd), 0.0) if ties.any() else np.zeros(d.shape)
    return up, low, 2.0 * eb_up - d * up, d * low - 2.0 * eb_low, tie_mass


def _result_from_moments(m: _Moments, i: int, n: int, effect: float) -> PowerResult:
    p_up, p_low = float(m.p_up[i]), float(m.p_low[i])
    abs_up, abs_low = float(m.abs_up[i]), float(m.abs_low[i])
    directed = p_up + p_low  # significant with a sign
    rejection = min(directed + float(m.p_tie[i]), 1.0)
    mean_sig = nan_if_zero((abs_up - abs_low) / n, directed)
    if effect == 0.0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan, rejection_rate=rejection,
                           mean_significant=mean_sig)
    right, wrong = (p_up, p_low) if effect > 0 else (p_low, p_up)
    return PowerResult(
        power=min(right, 1.0),
        type_s=nan_if_zero(wrong, directed),
        type_m=nan_if_zero((abs_up + abs_low) / n, directed) / abs(effect),
        rejection_rate=rejection,
        mean_significant=mean_sig,
    )


def _norm_pdf(x):
    """scipy.stats.norm.pdf's formula (``_norm_pdf``) for a scalar, on a one-element array as scipy evaluates it
    (numpy's exp of a scalar may differ from its exp of an array in the last digit)."""
    return (np.exp(-np.atleast_1d(x) ** 2 / 2.0) / _SQRT_2PI)[0]


_SQRT_2PI = np.sqrt(2 * np.pi)


def _normal_limit_tails(deltas, p_disc, n, test, alpha):
    """P(significant upwards), P(significant downwards) of the paired tests in their normal limit, per difference.

    Reject when |Δ̂| > z_{1−α/2} √(p_d / n), plus one discordant count (1/n) for the exact and the
    continuity-corrected tests, whose rejection region is Edwards' |B − C| − 1 > z √(B + C) (Edwards 1948);
    Δ̂ ~ N(Δ, (p_d − Δ²)/n). The assurance engines use it where the exact sums would be too long.
    """
    z = stats.norm.isf(alpha / 2.0)
    crit = z * np.sqrt(p_disc / n) + (1.0 / n if test in ("exact", "chi2_cc") else 0.0)
    sd = np.sqrt(np.maximum(p_disc - deltas**2, 1e-300) / n)
    return stats.norm.sf((crit - deltas) / sd), stats.norm.cdf((-crit - deltas) / sd)


def _normal_result(n, p_disc, effect, alpha) -> PowerResult:
    """Closed form for the asymptotic test (Connett et al. 1987; MESS "normal").

    Observed effect ~ N(Δ, (p_d - Δ²)/n); reject when |effect| >= z_{1-α/2} sqrt(p_d/n).
    """
    # scipy.stats.norm's own formulas (isf = -ndtri, sf(x) = ndtr(-x), cdf = ndtr, pdf = e^(-x²/2)/√(2π)) on
    # scalars, without its argument checking: the same numbers at a tenth of the cost (curves call this per point)
    if p_disc <= 0.0:  # no discordant items (P_a = 1): nothing to test, nothing rejects (as the exact engine)
        return PowerResult(power=0.0, type_s=math.nan, type_m=math.nan, rejection_rate=0.0, method="normal")
    z = -special.ndtri(alpha / 2.0)
    crit = z * math.sqrt(p_disc / n)
    sd = math.sqrt(max(p_disc - effect**2, 1e-300) / n)
    mu = abs(effect)
    right = special.ndtr(-((crit - mu) / sd))
    wrong = special.ndtr((-crit - mu) / sd)
    rejection = right + wrong
    if effect == 0.0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan,
                           rejection_rate=rejection, method="normal")
    # partial expectations of |X| over the two tails of N(mu, sd^2)
    a, b = (crit - mu) / sd, (-crit - mu) / sd
    e_right = mu * special.ndtr(-a) + sd * _norm_pdf(a)
    e_wrong = -(mu * special.ndtr(b) - sd * _norm_pdf(b))
    return PowerResult(
        power=right,
        type_s=nan_if_zero(wrong, rejection),
        type_m=nan_if_zero(e_right + e_wrong, rejection) / mu,
        rejection_rate=rejection,
        method="normal",
        mean_significant=math.copysign(nan_if_zero(e_right - e_wrong, rejection), effect),
    )


def _simulate_result(n, p_disc, q, effect, test, alpha, n_sims, seed) -> PowerResult:
    """Card et al. Figure 2 (+ appendix B steps 3–4), vectorized over replicates."""
    rng = rng_of(seed)
    p_b = p_disc * q
    p_c = p_disc * (1.0 - q)
    probs = np.array([p_b, p_c, max(1.0 - p_b - p_c, 0.0)])
    counts = rng.multinomial(n, probs / probs.sum(), size=n_sims)
    b, c = counts[:, 0], counts[:, 1]
    p = pvalue_from_counts(np.minimum(b, c), b + c, test)
    rejects = p <= alpha
    sig = rejects & (b != c)  # a table with no observed difference is significant in no direction
    observed = (b - c) / n
    n_sig = int(sig.sum())
    rejection = float(rejects.mean())
    if effect == 0.0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan,
                           rejection_rate=rejection,
                           mc_se=math.sqrt(rejection * (1 - rejection) / n_sims),
                           n_sims=n_sims, method="simulate")
    right = sig & (np.sign(observed) == np.sign(effect))
    power = right.sum() / n_sims
    if n_sig:
        wrong_share = 1.0 - right.sum() / n_sig
        ratio = np.abs(observed[sig]) / abs(effect)
        type_m = float(ratio.mean())
        type_m_se = float(ratio.std(ddof=1) / math.sqrt(n_sig)) if n_sig > 1 else math.nan
        type_s_se = math.sqrt(wrong_share * (1 - wrong_share) / n_sig)
    else:
        wrong_share = type_m = type_m_se = type_s_se = math.nan
    return PowerResult(
        power=float(power),
        type_s=float(wrong_share),
        type_m=type_m,
        rejection_rate=rejection,
        mc_se=math.sqrt(power * (1 - power) / n_sims),
        type_s_se=type_s_se,
        type_m_se=type_m_se,
        n_sims=n_sims,
        method="simulate",
        mean_significant=float(observed[sig].mean()) if n_sig else math.nan,
    )


def _paired_result(n, p_disc, q, effect, test, alpha, method, n_sims, seed) -> PowerResult:
    if test == "normal":
        return _normal_result(n, p_disc, effect, alpha)
    if method == "simulate":
        return _simulate_result(n, p_disc, q, effect, test, alpha, n_sims, seed)
    if p_disc <= 0.0:
        return PowerResult(power=0.0, type_s=math.nan, type_m=math.nan, rejection_rate=0.0)
    moments = _exact_moments(n, p_disc, q, test, alpha)
    return _result_from_moments(moments, 0, n, effect)




def _bisect_increasing(f, lo, hi, *, xtol):
    """Root of an increasing function with f(lo) < 0 <= f(hi)."""
    return optimize.brentq(f, lo, hi, xtol=xtol, rtol=1e-10, maxiter=200)



def _power_many(ns, *, p_disc, q, effect, test, alpha) -> np.ndarray:
    """Power at many sizes for one paired design, in one vectorized pass."""
    ns = np.asarray(ns, dtype=np.int64)
    if test == "normal" or p_disc <= 0:
        results = _batch_results(ns, np.full(ns.size, p_disc), np.full(ns.size, q), np.full(ns.size, effect),
                                 test, alpha)
        return np.array([r.power for r in results])
    if ns.size > 16 and np.all(np.diff(ns) == 1):
        return _power_run(int(ns[0]), ns.size, p_disc, q, effect, test, alpha)
    m = _exact_moments(ns, p_disc, q, test, alpha)  # the power as _result_from_moments defines it
    if effect == 0:
        return np.minimum(m.p_up + m.p_low + m.p_tie, 1.0)
    return np.minimum(m.p_up if effect > 0 else m.p_low, 1.0)




def _power_run(n0, count, p_disc, q, effect, test, alpha) -> np.ndarray:
    """Exact power at the consecutive sizes n0, n0 + 1, …, n0 + count − 1 of one paired design.

    The power is Σ_d P(D_n = d) r(d) with D_n ~ Bin(n, p_d) discordant pairs and r(d) the test's conditional
    probability of a significant result in the right direction (:func:`_conditional_tails`). r is computed once on
    the window of counts the whole run visits, and the weights move from n to n + 1 by Pascal's rule,
    P(D_{n+1} = d) = (1 − p_d) P(D_n = d) + p_d P(D_n = d − 1): a convex combination, so rounding errors do not
    grow. The window holds Bin(n0, p_d) from its 1e-12 lower quantile and Bin(n0 + count − 1, p_d) to its upper
    one, so at most 2e-12 of the mass is left out, as in :func:`_exact_moments`. Cost: O(count × window) adds and
    O(window) tail evaluations, instead of O(count × window) binomial tails.
    """
    n1 = n0 + count - 1
    lo = int(max(stats.binom.ppf(_TAIL_EPS, n0, p_disc), 0))
    hi = int(min(stats.binom.isf(_TAIL_EPS, n1, p_disc), n1))
    d = np.arange(lo, hi + 1, dtype=np.int64)
    live = d > 0
    up, low, _, _, tie = (np.where(live, a, 0.0) for a in _conditional_tails(np.maximum(d, 1), np.full(d.size, q),
                                                                               test, alpha))
    r = (up + low + tie) if effect == 0 else (up if effect > 0 else low)
    if p_disc >= 1.0:  # every pair discordant (preferences without ties): D_n = n, no weights to move
        return np.minimum(r[n0 - lo + np.arange(count)], 1.0)
    weights = stats.binom.pmf(d, n0, p_disc)
    weights[d > n0] = 0.0
    return np.minimum(_pascal_steps(weights, r, p_disc, count), 1.0)


def _pascal_steps(weights, r, p_disc, count) -> np.ndarray:
    """``weights · r`` for ``count`` consecutive n, moving Bin(n, p_d) to Bin(n + 1, p_d) by Pascal's rule."""
    out = np.empty(count)
    stay, move = 1.0 - p_disc, p_disc
    nxt = np.empty_like(weights)
    for j in range(count):
        # einsum's own loop, not BLAS: OpenBLAS splits dot products over 10,000 elements across threads, and on a
        # loaded 2-core machine every one of these thousands of small parallel calls waits for a time slice
        # (measured: 8 ms instead of 2 µs per call with four busy processes).
        out[j] = np.einsum("i,i->", weights, r)
        np.multiply(weights, stay, out=nxt)
        nxt[1:] += move * weights[:-1]
        weights, nxt = nxt, weights
    return out


def _batch_results(n_arr, p_disc, q, effects, test, alpha) -> list[PowerResult]:
    """Exact (or closed-form) results for many designs in one vectorized pass."""
    if test == "normal":
        return [_normal_result(int(n), pdc, e, alpha) for n, pdc, e in zip(n_arr, p_disc, effects)]
    results = [None] * len(n_arr)
    live = [i for i, pdc in enumerate(p_disc) if pdc > 0]
    for i, pdc in enumerate(p_disc):
        if pdc <= 0:
            results[i] = PowerResult(power=0.0, type_s=math.nan, type_m=math.nan, rejection_rate=0.0)
    if live:
        idx = np.array(live)
        moments = _exact_moments(np.asarray(n_arr)[idx], np.asarray(p_disc)[idx], np.asarray(q)[idx], test, alpha)
        for j, i in enumerate(live):
            results[i] = _result_from_moments(moments, j, int(n_arr[i]), float(effects[i]))
    return results




def _distribution(n, p_disc, q, test, alpha, bins) -> pd.DataFrame:
    if p_disc <= 0:
        return pd.DataFrame(
            {"diff_low": [-0.5 / n], "diff_high": [0.5 / n], "diff_mid": [0.0],
             "prob_significant": [0.0], "prob_not_significant": [1.0]}
        )
    d_lo = int(max(stats.binom.ppf(1e-10, n, p_disc), 0))
    d_hi = int(min(stats.binom.isf(1e-10, n, p_disc), n))
    # Above ~300 distinct discordant counts the pmf of D is smooth on the scale of
    # the bins, so D is visited on a stride (a Riemann sum over its pmf); below
    # that every count is summed exactly.
    stride = max(1, (d_hi - d_lo + 1) // 300)
    d = np.arange(d_lo, d_hi + 1, stride)
    w_d = stats.binom.pmf(d, n, p_disc) * stride
    spread = int(math.ceil(7 * math.sqrt(max(d_hi * q * (1 - q), 1.0)))) + 2
    centre = np.rint(d * q).astype(np.int64)
    offsets = np.arange(-spread, spread + 1)
    b = centre[:, None] + offsets[None, :]
    valid = (b >= 0) & (b <= d[:, None])
    b_safe = np.clip(b, 0, d[:, None])
    w = w_d[:, None] * np.where(valid, stats.binom.pmf(b_safe, d[:, None], q), 0.0)
    k = _critical_counts(d, "chi2" if test == "normal" else test, alpha)
    sig = np.minimum(b_safe, d[:, None] - b_safe) <= k[:, None]
    observed = (2 * b_safe - d[:, None]) / n
    mean = p_disc * (2 * q - 1)
    sd = math.sqrt(max(p_disc - mean**2, 1e-12) / n)
    half = max(5.0 * sd, 3.0 / n)
    # observed differences live on a lattice of step 1/n: bins are whole numbers
    # of lattice steps centred on lattice points, so no bin catches extra points
    step = 1.0 / n
    per_bin = max(1, math.ceil(2 * half / (bins * step)))
    width = per_bin * step
    start = (math.floor((mean - half) / step) - 0.5) * step
    bins = math.ceil(2 * half / width) + 1
    edges = start + width * np.arange(bins + 1)
    idx = np.clip(np.digitize(observed, edges) - 1, 0, bins - 1)
    p_sig = np.bincount(idx[valid & sig], weights=w[valid & sig], minlength=bins)
    p_not = np.bincount(idx[valid & ~sig], weights=w[valid & ~sig], minlength=bins)
    return pd.DataFrame(
        {
            "diff_low": edges[:-1],
            "diff_high": edges[1:],
            "diff_mid": (edges[:-1] + edges[1:]) / 2,
            "prob_significant": p_sig,
            "prob_not_significant": p_not,
        }
    )



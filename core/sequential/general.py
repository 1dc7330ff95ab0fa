"""The general sequential engine: monitoring a running sum of per-item paired differences.

Model: items arrive one at a time; item i contributes a difference
``d_i ~ (delta, sd²)`` (a per-question score difference of two models, a
vote coded ±1, the difference of two judgments). After n items the running
sum is ``S_n = Σ d_i`` and the estimate is the running mean ``S_n / n``. By
the central limit theorem the standardized sums at the looks have the
canonical joint distribution (independent normal increments; Jennison &
Turnbull 2000, ch. 3), with ``sd`` treated as known.

Designs (:data:`SEQUENTIAL_DESIGNS`):

* ``"fixed"`` — one two-sided z-test at ``n_max``;
* ``"group"`` — ``looks`` analyses at ``round(n_max k / looks)`` items with a
  boundary from :data:`BOUNDARIES`, optionally a binding futility stop when an
  interim p-value exceeds ``futility_p`` (the efficacy boundaries are then
  solved with the futility stops in place, so the false-positive rate is α).
  When rounding spaces the looks unequally, the boundaries are solved at the
  realised information fractions ``n_k / n_max`` (Lan & DeMets 1983), so the
  size is exactly α (:func:`core.sequential.boundaries._boundary_z`);
* ``"naive"`` — an unadjusted z-test at level α every ``every`` items (and at
  ``n_max``): what peeking at a fixed-n interval does;
* ``"anytime"`` — the normal-mixture confidence sequence
  (:mod:`core.sequential.confidence`) tuned for ``plan_n``, checked after
  every item, capped at ``n_max``: reject at the first n with
  ``|S_n| > √((n sd² + ρ) log((n sd² + ρ)/(ρ α²)))``.

Engines: recursive numerical integration
(:mod:`core.sequential.recursion`) for fixed, group and naive designs (up
to :data:`MAX_RECURSION_LOOKS` looks), exact up to the quadrature error
(< 10⁻⁹); vectorised simulation of the look-level sums (exact in
distribution for the normal model) with Monte Carlo standard errors for
``"anytime"`` and on request (``method="simulate"``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..sizing import smallest_reaching
from ..validation import check_alpha, check_choice, check_int, check_real, rng_of
from .boundaries import BOUNDARIES, _boundary_z, equal_information
from .confidence import cs_boundary, mixture_rho
from .recursion import clip_probabilities, recursion, stop_distribution

__all__ = ["SEQUENTIAL_DESIGNS", "SequentialResult", "sequential_power", "sequential_sample_size",
           "sequential_curves", "look_schedule", "MAX_RECURSION_LOOKS", "MAX_SIMULATED_ITEMS"]

SEQUENTIAL_DESIGNS = ("fixed", "group", "naive", "anytime")
_METHODS = ("analytic", "simulate")
#: Designs with more looks than this (naive peeking every few items) are simulated.
MAX_RECURSION_LOOKS = 1000
#: Most item-level (anytime) or look-level values simulated per call: ``n_sims`` × looks × 2 (alternative
#: and null share their normal draws).
MAX_SIMULATED_ITEMS = 100_000_000
_CHUNK = 4_000_000  # simulated values per chunk (32 MB of float64)
_MAX_N = 100_000_000
_ANYTIME_BINS = 10


@dataclass(frozen=True)
class SequentialResult:
    """Operating characteristics of one sequential design at one true difference.

    Attributes
    ----------
    power : float
        P(stop with a significant result in the direction of ``delta``); at
        ``delta = 0``, P(any significant result).
    type_s : float
        P(wrong sign | significant) (``nan`` at ``delta = 0`` or if nothing is significant).
    type_m : float
        ``E[|estimate| | significant] / |delta|``, the estimate being the
        running mean at the look that stopped (``nan`` at ``delta = 0``).
    false_positive_rate : float
        P(any significant result) at ``delta = 0``.
    expected_n, expected_n_null : float
        Expected items used under ``delta`` and under 0.
    stop_probabilities : tuple of float
        P(stop at look k), k = 1..K (sums to 1); for ``"anytime"``, P(stop
        within each tenth of ``n_max``), the last including runs that reach ``n_max``.
    look_n : tuple of int
        Items at each look (for ``"anytime"``: the right end of each tenth).
    boundaries_z : tuple of float
        Efficacy thresholds on |Z| at the looks (for ``"anytime"`` at ``look_n``).
    futility_z : tuple of float
        Futility thresholds on |Z| (0 = none).
    mc_se : float
        Monte Carlo SE of ``power`` (0 for the analytic engine); the other
        ``*_se`` fields are the SEs of the matching estimates.
    """

    power: float
    type_s: float
    type_m: float
    false_positive_rate: float
    expected_n: float
    expected_n_null: float
    stop_probabilities: tuple
    look_n: tuple
    boundaries_z: tuple
    futility_z: tuple
    design: str
    n_max: int
    delta: float
    sd: float
    alpha: float
    method: str = "analytic"
    n_sims: int = 0
    mc_se: float = 0.0
    type_m_se: float = 0.0
    false_positive_rate_se: float = 0.0
    expected_n_se: float = 0.0
    expected_n_null_se: float = 0.0


# ---------------------------------------------------------------------------
# validation and the look schedule
# ---------------------------------------------------------------------------
def _validate(n_max, delta, sd, design, looks, boundary, futility_p, every, plan_n, alpha, method, n_sims):
    design = check_choice("design", design, SEQUENTIAL_DESIGNS)
    n_max = check_int("n_max", n_max, low=2, high=_MAX_N)
    delta = check_real("delta", delta, low=-1e6, high=1e6)
    sd = check_real("sd", sd, low=0.0, high=1e6, low_open=True)
    looks = check_int("looks", looks, low=1, high=10)
    boundary = check_choice("boundary", boundary, BOUNDARIES)
    if futility_p is not None:
        futility_p = check_real("futility_p", futility_p, low=0.0, high=1.0, low_open=True, high_open=True)
    if every is not None:
        every = check_int("every", every, low=1, high=n_max)
    if plan_n is not None:
        plan_n = check_int("plan_n", plan_n, low=1, high=_MAX_N)
    alpha = check_alpha(alpha)
    method = check_choice("method", method, _METHODS)
    n_sims = check_int("n_sims", n_sims, low=100, high=1_000_000)
    if design == "group" and n_max < looks:
        raise ValueError(f"`n_max` must be at least `looks` ({looks}) for a group design, got {n_max:,}.")
    return n_max, delta, sd, design, looks, boundary, futility_p, every, plan_n, alpha, method, n_sims


def look_schedule(n_max, *, design="group", looks=3, every=None):
    """Items seen at each analysis.

    ``"fixed"``: ``[n_max]``; ``"group"``: ``round(n_max k / K)``, k = 1..K;
    ``"naive"``: every ``every`` items (default: 20 looks, ``every = ⌈n_max/20⌉``)
    and ``n_max``; ``"anytime"``: every item, 1..``n_max``.
    """
    if design == "fixed":
        return np.array([n_max])
    if design == "group":
        return np.array([max(1, round(n_max * k / looks)) for k in range(1, looks + 1)], dtype=np.int64)
    if design == "naive":
        step = every if every is not None else max(1, math.ceil(n_max / 20))
        sizes = np.arange(step, n_max + 1, step, dtype=np.int64)
        return sizes if sizes.size and sizes[-1] == n_max else np.append(sizes, n_max)
    return np.arange(1, n_max + 1, dtype=np.int64)


def _bounds_z(design, sizes, *, looks, boundary, futility_p, alpha):
    """Efficacy and futility thresholds on |Z| at the looks (not for ``"anytime"``)."""
    k = sizes.size
    z = float(stats.norm.isf(alpha / 2))
    if design in ("fixed", "naive") or k == 1:
        return np.full(k, z), np.zeros(k)
    fut = 0.0 if futility_p is None else float(stats.norm.isf(futility_p / 2))  # p > f ⇔ |Z| < z_{1-f/2}
    # at the realised looks (rounded to whole items), so the size is exactly α (Lan & DeMets 1983)
    eff = np.array(_boundary_z(looks, float(alpha), boundary, fut, equal_information(sizes)))
    futz = np.full(k, fut)
    futz[-1] = 0.0
    return eff, futz


# ---------------------------------------------------------------------------
# analytic engine
# ---------------------------------------------------------------------------
def _analytic(deltas, sd, sizes, eff_z, fut_z):
    """Recursion for a batch of true differences: up, low, fut, m_up, m_low (standardized sums S/sd)."""
    n = sizes.astype(float)
    incr = np.diff(np.concatenate([[0.0], n]))
    thetas = (np.asarray(deltas, dtype=float)[:, None] / sd) * incr[None, :]
    roots = np.sqrt(n)
    return recursion(thetas, incr, eff_z * roots, fut_z * roots, moments=True)


def _summaries(delta, sd, sizes, up, low, fut, m_up, m_low):
    """Power, Type-S, Type-M and expected n of each row."""
    up, low = clip_probabilities(up), clip_probabilities(low)
    stop = stop_distribution(up, low, clip_probabilities(fut))
    n = sizes.astype(float)
    sig = clip_probabilities((up + low).sum(axis=1))
    sign = np.sign(np.asarray(delta, dtype=float))
    right = np.where(sign >= 0, up.sum(axis=1), low.sum(axis=1))
    wrong = np.where(sign >= 0, low.sum(axis=1), up.sum(axis=1))
    power = clip_probabilities(np.where(sign == 0, sig, right))
    # E[|S_k/n_k| ; significant at k], S in units of sd: above the upper boundary S > 0, below the lower S < 0
    abs_mean = ((m_up - m_low) / n[None, :]).sum(axis=1) * sd
    with np.errstate(divide="ignore", invalid="ignore"):
        type_s = np.where((sign != 0) & (sig > 0), wrong / sig, np.nan)
        type_m = np.where((sign != 0) & (sig > 0), abs_mean / sig / np.abs(delta), np.nan)
    expected = stop @ n
    return power, type_s, type_m, sig, expected, stop


# ---------------------------------------------------------------------------
# simulation engine
# ---------------------------------------------------------------------------
def _simulate(delta, sd, sizes, bound_s, fut_s, n_sims, rng):
    """Simulated monitoring under ``delta`` and under 0 (common random numbers).

    ``bound_s``/``fut_s`` are boundaries on the standardized sum S/sd at the
    looks ``sizes``. Paths are processed in chunks of about :data:`_CHUNK`
    values; the look-level sums are exact draws of the normal model.
    """
    n = sizes.astype(float)
    incr = np.diff(np.concatenate([[0.0], n]))
    sd_incr = np.sqrt(incr)
    drift = (delta / sd) * np.cumsum(incr)
    looks = sizes.size
    chunk = max(1, _CHUNK // looks)
    out = {"alt": [], "null": []}
    active_fut = fut_s > 0
    active_fut[-1] = False
    for start in range(0, n_sims, chunk):
        rows = min(chunk, n_sims - start)
        z = rng.standard_normal((rows, looks), dtype=np.float32)
        if not np.all(incr == 1):
            z *= sd_incr.astype(np.float32)[None, :]
        s0 = np.cumsum(z, axis=1, dtype=np.float64 if looks < 64 else np.float32)
        for label, shift in (("alt", drift), ("null", None)):
            s = s0 if shift is None else s0 + shift[None, :]
            cross = np.abs(s) >= bound_s[None, :]
            if active_fut.any():
                cross |= (np.abs(s) < fut_s[None, :]) & active_fut[None, :]
            cross[:, -1] = True
            k = np.argmax(cross, axis=1)
            value = s[np.arange(rows), k].astype(np.float64)
            significant = np.abs(value) >= bound_s[k]
            out[label].append((k, value, significant))
    return {label: tuple(np.concatenate([part[i] for part in parts]) for i in range(3))
            for label, parts in out.items()}


def _se(x):
    return float(np.std(x, ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan


def _simulated_result(delta, sd, sizes, sims, n_sims, bins=None):
    n = sizes.astype(float)
    k, value, significant = sims["alt"]
    sign = math.copysign(1.0, delta) if delta != 0 else 0.0
    est = sd * value / n[k]
    right = significant & (np.sign(value) == sign) if sign else significant
    power = float(right.mean())
    n_sig = int(significant.sum())
    type_s = float((significant & ~right).sum() / n_sig) if sign and n_sig else math.nan
    if sign and n_sig:
        ratio = np.abs(est[significant]) / abs(delta)
        type_m, type_m_se = float(ratio.mean()), _se(ratio)
    else:
        type_m, type_m_se = math.nan, 0.0
    used = n[k]
    k0, _, sig0 = sims["null"]
    used0 = n[k0]
    fpr = float(sig0.mean())
    if bins is None:
        stop = np.bincount(k, minlength=sizes.size) / n_sims
    else:
        stop = np.bincount(np.searchsorted(bins, used, side="left"), minlength=bins.size) / n_sims
    return dict(power=power, type_s=type_s, type_m=type_m, false_positive_rate=fpr,
                expected_n=float(used.mean()), expected_n_null=float(used0.mean()),
                stop_probabilities=tuple(float(p) for p in stop), mc_se=math.sqrt(power * (1 - power) / n_sims),
                type_m_se=type_m_se, false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims),
                expected_n_se=_se(used), expected_n_null_se=_se(used0))


def _check_work(n_sims, looks):
    work = n_sims * looks * 2
    if work > MAX_SIMULATED_ITEMS * 2:
        most = MAX_SIMULATED_ITEMS // looks
        raise ValueError(f"`n_sims` × looks = {n_sims:,} × {looks:,} is more than the {MAX_SIMULATED_ITEMS:,} "
                         f"simulated values allowed; reduce `n_sims` to at most {max(most, 100):,} or `n_max`.")


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------
def sequential_power(n_max, delta, sd, *, design="group", looks=3, boundary="obrien_fleming", futility_p=None,
                     every=None, plan_n=None, alpha=0.05, method="analytic", n_sims=20_000,
                     seed=None) -> SequentialResult:
    """Power, Type-S, Type-M at stopping and expected items of a sequentially monitored evaluation.

    Parameters
    ----------
    n_max : int
        Most items (questions, votes, judgments) the evaluation may use.
    delta : float
        True mean per-item difference (system B minus A, in the items' units).
    sd : float
        Per-item SD of the differences (treated as known).
    design : {"fixed", "group", "naive", "anytime"}, optional
        See :data:`SEQUENTIAL_DESIGNS` and the module notes.
    looks : int, optional
        Analyses of a ``"group"`` design (1–10), at ``round(n_max k / looks)`` items; the boundaries are
        computed at these realised looks.
    boundary : str, optional
        Boundary family of a ``"group"`` design (:data:`BOUNDARIES`).
    futility_p : float, optional
        ``"group"`` only: stop for futility (binding) when an interim
        two-sided p-value exceeds this.
    every : int, optional
        ``"naive"``: items between looks (default ``⌈n_max/20⌉``).
    plan_n : int, optional
        ``"anytime"``: items the confidence sequence is tuned for (default ``n_max``).
    alpha : float, optional
        Two-sided level (the false-positive rate of every design but ``"naive"``).
    method : {"analytic", "simulate"}, optional
        Recursive integration, or simulation. ``"anytime"`` designs and
        designs with more than :data:`MAX_RECURSION_LOOKS` looks are always
        simulated (``.method`` says which engine ran).
    n_sims : int, optional
        Simulated runs (each under ``delta`` and under 0, sharing their draws).
    seed : int or numpy.random.Generator, optional
        Seed of the simulation.

    Returns
    -------
    SequentialResult
        ``.power``, ``.type_s``, ``.type_m``, ``.false_positive_rate``,
        ``.expected_n``, ``.expected_n_null``, ``.stop_probabilities``,
        ``.mc_se`` and the look schedule and boundaries.

    Notes
    -----
    With the standardized running sum ``S_k = Σ d_i / sd`` at the looks
    ``n_1 < … < n_K``, the increments are ``N(δ (n_k - n_{k-1})/sd, n_k - n_{k-1})``,
    and the design stops at the first k with ``|S_k| ≥ c_k √n_k`` (efficacy)
    or ``|S_k| < f_k √n_k`` (futility). Power, Type-S and the stopping
    distribution are crossing probabilities; Type-M is
    ``Σ_k E[|S_k| sd / n_k ; significant at k] / P(significant) / |δ|``, from
    the partial means of the normal increments (``E[X; X ≥ b] = μΦ((μ-b)/σ) + σφ((b-μ)/σ)``),
    integrated recursively (Armitage, McPherson & Rowe 1969; Jennison &
    Turnbull 2000, §19.2). Stopping early for efficacy selects large running
    means, so Type-M > 1 even at high power (Whitehead 1986).

    References
    ----------
    Jennison & Turnbull (2000), ch. 2–3 and 19; Howard et al. (2021), eq. (14);
    Whitehead (1986), Biometrika 73(3):573–581; Gelman & Carlin (2014) on Type-S/M.

    Examples
    --------
    >>> r = sequential_power(1000, 0.0, 1.0, design="group", looks=3)
    >>> round(r.false_positive_rate, 4)
    0.05
    >>> r = sequential_power(4000, 0.0, 1.0, design="naive", every=50)
    >>> round(r.false_positive_rate, 4)  # peeking every 50 items at a 95% z-interval
    0.3567
    """
    (n_max, delta, sd, design, looks, boundary, futility_p, every, plan_n, alpha, method,
     n_sims) = _validate(n_max, delta, sd, design, looks, boundary, futility_p, every, plan_n, alpha, method,
                         n_sims)
    sizes = look_schedule(n_max, design=design, looks=looks, every=every)
    common = dict(design=design, n_max=n_max, delta=delta, sd=sd, alpha=alpha)
    if design == "anytime":
        plan = n_max if plan_n is None else plan_n
        rho = mixture_rho(plan, 1.0, alpha=alpha)
        n = sizes.astype(float)
        bound_s = cs_boundary(n, 1.0, alpha=alpha, rho=rho)
        _check_work(n_sims, sizes.size)
        sims = _simulate(delta, sd, sizes, bound_s, np.zeros(sizes.size), n_sims, rng_of(seed))
        bins = np.array(sorted({max(1, math.ceil(n_max * j / _ANYTIME_BINS)) for j in range(1, _ANYTIME_BINS + 1)}))
        fields = _simulated_result(delta, sd, sizes, sims, n_sims, bins=bins)
        return SequentialResult(**fields, look_n=tuple(int(b) for b in bins),
                                boundaries_z=tuple(float(v) for v in bound_s[bins - 1] / np.sqrt(bins)),
                                futility_z=(0.0,) * bins.size, method="simulate", n_sims=n_sims, **common)
    eff_z, fut_z = _bounds_z(design, sizes, looks=looks, boundary=boundary, futility_p=futility_p, alpha=alpha)
    roots = np.sqrt(sizes.astype(float))
    schedule = dict(look_n=tuple(int(v) for v in sizes), boundaries_z=tuple(float(v) for v in eff_z),
                    futility_z=tuple(float(v) for v in fut_z))
    if method == "simulate" or sizes.size > MAX_RECURSION_LOOKS:
        _check_work(n_sims, sizes.size)
        sims = _simulate(delta, sd, sizes, eff_z * roots, fut_z * roots, n_sims, rng_of(seed))
        return SequentialResult(**_simulated_result(delta, sd, sizes, sims, n_sims), **schedule,
                                method="simulate", n_sims=n_sims, **common)
    parts = _analytic([delta, 0.0], sd, sizes, eff_z, fut_z)
    power, type_s, type_m, sig, expected, stop = _summaries(np.array([delta, 0.0]), sd, sizes, *parts)
    return SequentialResult(power=float(power[0]), type_s=float(type_s[0]), type_m=float(type_m[0]),
                            false_positive_rate=float(sig[1]), expected_n=float(expected[0]),
                            expected_n_null=float(expected[1]), stop_probabilities=tuple(float(p) for p in stop[0]),
                            **schedule, method="analytic", **common)


def sequential_curves(n_max, deltas, sd, *, designs=("fixed", "group", "anytime", "naive"), looks=3,
                      boundary="obrien_fleming", futility_p=None, every=None, plan_n=None, alpha=0.05,
                      n_sims=4000, seed=0) -> pd.DataFrame:
    """Power, expected items and Type-M against the true difference for several designs.

    Analytic designs are integrated for all ``deltas`` in one batched pass;
    ``"anytime"`` (and naive designs with very many looks) are simulated with
    ``n_sims`` runs per difference and common random numbers (one seed).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``design, delta, power, expected_n, type_m, type_s, mc_se``.
    """
    deltas = np.atleast_1d(np.asarray(deltas, dtype=float))
    if deltas.size == 0 or deltas.size > 400 or not np.all(np.isfinite(deltas)):
        raise ValueError("`deltas` must hold 1 to 400 finite differences.")
    frames = []
    for design in designs:
        (n_max_, _, sd_, design, looks_, boundary_, futility_p_, every_, plan_n_, alpha_, _,
         n_sims_) = _validate(n_max, 0.0, sd, design, looks, boundary, futility_p, every, plan_n, alpha,
                              "analytic", n_sims)
        sizes = look_schedule(n_max_, design=design, looks=looks_, every=every_)
        if design != "anytime" and sizes.size <= MAX_RECURSION_LOOKS:
            eff_z, fut_z = _bounds_z(design, sizes, looks=looks_, boundary=boundary_, futility_p=futility_p_,
                                     alpha=alpha_)
            parts = _analytic(deltas, sd_, sizes, eff_z, fut_z)
            power, type_s, type_m, _, expected, _ = _summaries(deltas, sd_, sizes, *parts)
            se = np.zeros(deltas.size)
        else:
            rows = [sequential_power(n_max_, float(d), sd_, design=design, looks=looks_, every=every_,
                                     plan_n=plan_n_, alpha=alpha_, n_sims=n_sims_, seed=seed) for d in deltas]
            power = np.array([r.power for r in rows])
            type_s = np.array([r.type_s for r in rows])
            type_m = np.array([r.type_m for r in rows])
            expected = np.array([r.expected_n for r in rows])
            se = np.array([r.mc_se for r in rows])
        frames.append(pd.DataFrame({"design": design, "delta": deltas, "power": power, "expected_n": expected,
                                    "type_m": type_m, "type_s": type_s, "mc_se": se}))
    return pd.concat(frames, ignore_index=True)


def sequential_sample_size(delta, sd, *, design="group", target_power=0.8, looks=3, boundary="obrien_fleming",
                           futility_p=None, every=None, plan_n=None, alpha=0.05, method="analytic",
                           n_sims=20_000, seed=0, n_limit=10_000_000) -> int:
    """Smallest ``n_max`` at which :func:`sequential_power` reaches ``target_power``.

    Parameters
    ----------
    delta, sd
        True mean difference (≠ 0) and per-item SD.
    design, looks, boundary, futility_p, every, plan_n, alpha, method, n_sims, seed
        As in :func:`sequential_power` (``plan_n`` defaults to the candidate ``n_max``).
    target_power : float, optional
        Power to reach, in (0, 1).
    n_limit : int, optional
        Largest ``n_max`` searched.

    Returns
    -------
    int
        The smallest ``n_max`` (whole items) reaching the target; raises
        ``ValueError`` if even ``n_limit`` does not.

    Notes
    -----
    The fixed design's closed form ``n = ((z_{1-α/2} + z_{power}) sd/δ)²`` starts
    the search; the bracket is widened by factors of 1.25 and bisected over
    whole numbers. Simulated designs use one ``seed`` for every candidate
    (common random numbers), so the power is nearly monotone in ``n_max``.

    Examples
    --------
    >>> sequential_sample_size(0.1, 1.0, design="fixed")  # ⌈(1.95996 + 0.84162)² / 0.01⌉
    785
    """
    delta = check_real("delta", delta, low=-1e6, high=1e6)
    if delta == 0:
        raise ValueError("`delta` must be non-zero: no sample size detects a zero difference.")
    sd = check_real("sd", sd, low=0.0, high=1e6, low_open=True)
    target = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_alpha(alpha)
    n_limit = check_int("n_limit", n_limit, low=2, high=_MAX_N)
    design = check_choice("design", design, SEQUENTIAL_DESIGNS)
    looks = check_int("looks", looks, low=1, high=10)
    if every is not None:
        every = check_int("every", every, low=1, high=_MAX_N)
        if design != "naive":  # only a naive design peeks every `every` items; it must not bound the others' n_max
            every = None
    # the smallest n_max the design accepts: a group design needs one item per look, a naive one at least one
    # interval of `every` items (with fewer items it would be the fixed design)
    low_n = max(2, looks if design == "group" else 2, every if design == "naive" and every is not None else 2)
    if low_n > n_limit:
        name = "looks" if design == "group" else "every"
        raise ValueError(f"`n_limit` = {n_limit:,} is below the smallest `n_max` the design accepts "
                         f"({low_n:,} items for `{name}` = {low_n:,}).")
    # every other option is checked once, at the smallest n_max, before the search
    _validate(low_n, delta, sd, design, looks, boundary, futility_p, every, plan_n, alpha, method, n_sims)
    kw = dict(design=design, looks=looks, boundary=boundary, futility_p=futility_p, every=every, plan_n=plan_n,
              alpha=alpha, method=method, n_sims=n_sims, seed=seed)

    def power(n):
        return sequential_power(int(n), delta, sd, **kw).power

    z = stats.norm.isf(alpha / 2) + stats.norm.ppf(target)
    fixed = max(2, math.ceil((z * sd / delta) ** 2))
    hi = max(low_n, fixed)
    if design == "fixed":  # power is increasing in n: walk down from the closed form (it ignores the far tail)
        while hi > low_n and power(hi - 1) >= target:
            hi -= 1
        while power(hi) < target:
            hi += 1
            if hi > n_limit:
                raise ValueError(f"`target_power` {target:g} is not reached with `n_limit` = {n_limit:,} items.")
        if hi > n_limit:
            raise ValueError(f"`target_power` {target:g} is not reached with `n_limit` = {n_limit:,} items.")
        return hi
    hi = min(hi, n_limit)
    lo = low_n
    while power(hi) < target:
        if hi >= n_limit:
            raise ValueError(f"`target_power` {target:g} is not reached with `n_limit` = {n_limit:,} items.")
        lo = hi
        hi = min(math.ceil(hi * 1.25) + 1, n_limit)
    if power(lo) >= target:
        return lo
    return smallest_reaching(lambda n: power(n) >= target, lo, hi)

"""Power of the fully crossed design: the paper's rule and REML fits by simulation, the analytic
Westfall–Kenny–Judd engine, MDE, smallest designs and budget plans (Card et al. 2020, §5.2)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..results import nan_if_zero
from ..sizing import smallest_reaching
from ..validation import check_alpha, check_int, check_real, rng_of
from ._model import (  # noqa: F401  (PRESETS: the doctests)
    _check_sigmas,
    PRESETS,
    RatingsResult,
    _analytic,
    _crossed_tails,
    _detect,
    _moments_fit,
    _t_type_m,
    _validate,
    fit_balanced,
    simulate_statistics,
)

# ---------------------------------------------------------------------------
# power
# ---------------------------------------------------------------------------


def likert_power(workers, items, effect, *, sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma, baseline=0.5,
                 alpha=0.05, rule="paper", method="simulate", n_sims=500, seed=None, likert=None) -> RatingsResult:
    """Power of a fully crossed Likert comparison of two systems (Card et al. 2020, §5.2).

    Parameters
    ----------
    workers, items : int
        W workers each rate all I items under both systems (2·W·I ratings).
    effect : float
        β1, the coefficient of the ±1-coded system indicator (Figure 6's x
        axis); the systems' mean ratings differ by 2 × effect on [0, 1].
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        Worker intercept/slope, item intercept/slope and residual SDs (Table 16).
    baseline : float, optional
        β0, the mean rating (matters only with ``likert``).
    alpha : float, optional
        Two-sided level for ``rule="satterthwaite"`` (the paper's rule is t > 1.96).
    rule : {"paper", "satterthwaite"}
        The paper's procedure (ML fit, detection when t > 1.96) or REML (the
        balanced design's mean-square solution, not truncated at zero) with a
        two-sided Satterthwaite t test.
    method : {"simulate", "analytic"}
        Vectorized simulation, or the Westfall–Kenny–Judd noncentral t
        (``rule="satterthwaite"`` only).
    n_sims : int
        Simulated experiments (the paper used 200).
    seed : int, optional
    likert : int, optional
        Round and clip every simulated rating to a k-point scale.

    Returns
    -------
    RatingsResult
        ``.power``, ``.type_s``, ``.type_m``, ``.false_positive_rate``, ``.mc_se``.

    References
    ----------
    Card et al. (2020), §5.2, appendix H.3, Figure 6, Table 16; Westfall, Kenny
    & Judd (2014), J. Exp. Psychol. Gen. 143:2020–2045.

    Examples
    --------
    Three workers and 100 items, high-variance setting (Table 16), effect 0.1:

    >>> r = likert_power(3, 100, 0.1, **PRESETS["high"], rule="satterthwaite", method="analytic")
    >>> round(r.power, 2)
    0.16
    """
    sigmas = dict(sigma_w0=sigma_w0, sigma_w1=sigma_w1, sigma_i0=sigma_i0, sigma_i1=sigma_i1, sigma=sigma)
    workers, items, effect, sigmas, baseline, alpha, rule, method = _validate(
        workers, items, effect, sigmas, baseline, alpha, rule, method)
    if method == "analytic":
        return _analytic(workers, items, effect, sigmas, alpha)
    n_sims = check_int("n_sims", n_sims, low=50, high=200_000)
    rng = rng_of(seed)
    alt = simulate_statistics(workers, items, effect, n_sims=n_sims, seed=rng, likert=likert, baseline=baseline,
                              **sigmas)
    null = simulate_statistics(workers, items, 0.0, n_sims=n_sims, seed=rng, likert=likert, baseline=baseline,
                               **sigmas)
    def fit_of(stats_):
        return fit_balanced(stats_, workers, items, ml=True) if rule == "paper" else _moments_fit(stats_, workers, items)

    fit = fit_of(alt)
    t, crit = _detect(fit, rule, alpha)
    fit0 = fit_of(null)
    t0, crit0 = _detect(fit0, rule, alpha)
    fpr = float(np.mean(t0 > crit0)) if rule == "paper" else float(np.mean(np.abs(t0) > crit0))
    sig = np.abs(t) > crit
    sign = np.sign(effect) if effect != 0 else 1.0
    right = sig & (np.sign(t) == sign)
    if effect == 0:  # no direction to get right: report the rule's rejection rate
        right = (t > crit) if rule == "paper" else sig
    power = float(right.mean())
    n_sig = int(sig.sum())
    # no true sign to get wrong at effect 0 (as the analytic engine): Type-S and Type-M are undefined there
    type_s = nan_if_zero(float((sig & ~right).sum()), n_sig) if effect != 0 else math.nan
    type_m = float(np.abs(fit["effect"][sig]).mean() / abs(effect)) if n_sig and effect != 0 else math.nan
    return RatingsResult(power=power, type_s=type_s, type_m=type_m, false_positive_rate=fpr,
                         mc_se=math.sqrt(power * (1 - power) / n_sims), false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims),
                         mean_difference=2 * effect, rule=rule, method="simulate", n_sims=n_sims)


def likert_mde(workers, items, *, target_power=0.8, alpha=0.05, **sigmas) -> float:
    """Smallest effect (β1) detected with ``target_power`` — analytic Satterthwaite engine.

    ``target_power`` must exceed α (power in the right direction tends to α/2 as the effect vanishes); ``nan`` when
    even β1 = 0.5 falls short. The root is bracketed from 10⁻⁶ down to 10⁻¹⁵ for designs with almost no noise.
    """
    alpha, target_power = _check_target(alpha, target_power)
    sigmas = _check_sigmas(sigmas)
    from scipy import optimize

    def gap(e):
        return likert_power(workers, items, e, **sigmas, alpha=alpha, rule="satterthwaite",
                            method="analytic").power - target_power

    if gap(0.5) < 0:
        return math.nan
    low = 1e-6
    while gap(low) >= 0 and low > 1e-15:
        low /= 10.0
    if gap(low) >= 0:
        return low
    return float(optimize.brentq(gap, low, 0.5, xtol=min(1e-6, low)))


def _check_target(alpha, target_power):
    """α, and a target power above α (power in the right direction tends to α/2 as the effect vanishes)."""
    alpha = check_alpha(alpha)
    return alpha, check_real("target_power", target_power, low=alpha, high=1.0, low_open=True, high_open=True)


def _analytic_power(w, i, effect, alpha, sigmas):
    return likert_power(w, i, effect, **sigmas, alpha=alpha, rule="satterthwaite", method="analytic").power


def _fewest_items(w, effect, target_power, alpha, max_items, sigmas):
    """(items, power) for the fewest items reaching the target with W = w, or (None, ceiling).

    Analytic power increases with the number of items, so bisection finds the smallest.
    """
    ceiling = _analytic_power(w, max_items, effect, alpha, sigmas)
    if ceiling < target_power:
        return None, ceiling
    hi = smallest_reaching(lambda n: _analytic_power(w, n, effect, alpha, sigmas) >= target_power, 2, max_items)
    return hi, _analytic_power(w, hi, effect, alpha, sigmas)


def smallest_design(effect, *, target_power=0.8, alpha=0.05, max_workers=50, max_items=5000, **sigmas):
    """Fewest ratings (2·W·I) reaching ``target_power`` (analytic engine): ``(W, I, ratings)`` or None."""
    alpha, target_power = _check_target(alpha, target_power)
    best = None
    for w in range(2, max_workers + 1):
        n_items, _ = _fewest_items(w, effect, target_power, alpha, max_items, sigmas)
        if n_items is not None and (best is None or 2 * w * n_items < best[2]):
            best = (w, n_items, 2 * w * n_items)
    return best


def budget_plans(effect, *, cost_per_rating=0.1, cost_per_worker=0.0, target_power=0.8, alpha=0.05,
                 worker_options=(2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50), max_items=5000,
                 **sigmas) -> pd.DataFrame:
    """Cheapest fully crossed designs reaching the target power (analytic Satterthwaite engine).

    For each number of workers W, the fewest items I reaching ``target_power``,
    with the total ratings 2·W·I and the cost ``2·W·I·cost_per_rating +
    W·cost_per_worker``; W for which even ``max_items`` items fall short are
    reported with the power ceiling at ``max_items``.

    Returns
    -------
    pandas.DataFrame
        ``workers, items, ratings, cost, power, reachable`` sorted by cost.
    """
    cost_per_rating = check_real("cost_per_rating", cost_per_rating, low=0.0, high=1e6)
    cost_per_worker = check_real("cost_per_worker", cost_per_worker, low=0.0, high=1e9)
    alpha, target_power = _check_target(alpha, target_power)
    rows = []
    for w in worker_options:
        n_items, power = _fewest_items(w, effect, target_power, alpha, max_items, sigmas)
        reachable = n_items is not None
        n_items = n_items if reachable else max_items
        rows.append((w, n_items, 2 * w * n_items, 2 * w * n_items * cost_per_rating + w * cost_per_worker, power,
                     reachable))
    frame = pd.DataFrame(rows, columns=["workers", "items", "ratings", "cost", "power", "reachable"])
    return frame.sort_values(["reachable", "cost"], ascending=[False, True]).reset_index(drop=True)


def analytic_grid(workers, items, effects, *, alpha=0.05, with_type_m=True, **sigmas) -> pd.DataFrame:
    """Analytic (Westfall–Kenny–Judd) power, Type-S and Type-M on a W × I × effect grid, vectorized.

    ``with_type_m=False`` leaves out the Type-M integrals (``type_m`` is ``nan``): the same power and Type-S in
    about half the time, for a chart of power alone.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``workers, items, effect, power, type_s, type_m``; equal to
        :func:`likert_power` with ``rule="satterthwaite", method="analytic"``.
    """
    alpha = check_alpha(alpha)
    sigmas = _check_sigmas(sigmas)
    if sigmas["sigma"] <= 0:
        raise ValueError("`sigma` (residual SD) must be positive, in (0, 2].")
    w, i, e = (a.ravel() for a in np.meshgrid(np.asarray(workers, float), np.asarray(items, float),
                                              np.asarray(effects, float), indexing="ij"))
    if np.any(w < 2) or np.any(i < 2):
        raise ValueError("`workers` and `items` must be at least 2.")
    up, low, lam0, crit, dof = _crossed_tails(w, i, e, sigmas, alpha)
    right = np.where(e >= 0, up, low)
    wrong = np.where(e >= 0, low, up)
    power = np.where(e != 0, right, up + low)
    type_m = _t_type_m(2 * e * np.sqrt(w * i / lam0), dof, crit) if with_type_m else np.full(e.size, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        type_s = np.where(e != 0, wrong / (up + low), np.nan)
    return pd.DataFrame({"workers": w.astype(int), "items": i.astype(int), "effect": e, "power": power,
                         "type_s": type_s, "type_m": type_m})

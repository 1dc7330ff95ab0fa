"""The crowdsourcing design: each item rated by k workers drawn from a pool of W (simulation and analytic)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..results import nan_if_zero
from ..validation import check_alpha, check_int, check_real, rng_of
from ._model import (RatingsResult, _check_sigmas, _check_simulated_cells, _chunks, _crowd_tails, _detect,
                     _validate)

# ---------------------------------------------------------------------------
# crowdsourcing design: each item rated by k workers drawn from a pool of W
# ---------------------------------------------------------------------------
def _crowd_fit(d, workers_of, pool):
    """Method-of-moments analysis of the per-cell differences D (shape R × I × k).

    With ``D = 2β1 + a_w + b_i + ε`` (a: worker slopes ×2, b: item slopes ×2),
    halved mean squared differences of cell pairs estimate
    ``A + E`` (same item), ``B + E`` (same worker) and ``A + B + E`` (neither),
    with A = Var(a), B = Var(b), E = Var(ε) = 2σ²; so
    ``E = Q_item + Q_worker − Q_cross``, ``A = Q_cross − Q_worker``,
    ``B = Q_cross − Q_item`` (negative estimates set to 0). The estimator
    β̂1 = mean(D)/2 has ``Var = (A Σ_w n_w² + B k² I + E k I) / (2kI)²``;
    its Satterthwaite df uses W − 1, I − 1 and kI − W − I + 1 degrees of
    freedom for A, B and E.
    """
    reps, items, k = d.shape
    n_cells = items * k
    flat = d.reshape(reps, n_cells)
    s1, s2 = flat.sum(axis=1), (flat**2).sum(axis=1)
    pairs_all = n_cells * s2 - s1**2
    item_sum, item_sq = d.sum(axis=2), (d**2).sum(axis=2)
    pairs_item = (k * item_sq - item_sum**2).sum(axis=1)
    count_item = items * k * (k - 1) / 2
    index = (np.arange(reps)[:, None] * pool + workers_of.reshape(reps, n_cells)).ravel()
    n_w = np.bincount(index, minlength=reps * pool).reshape(reps, pool).astype(float)
    w_sum = np.bincount(index, weights=flat.ravel(), minlength=reps * pool).reshape(reps, pool)
    w_sq = np.bincount(index, weights=(flat**2).ravel(), minlength=reps * pool).reshape(reps, pool)
    pairs_worker = (n_w * w_sq - w_sum**2).sum(axis=1)
    count_worker = (n_w * (n_w - 1) / 2).sum(axis=1)
    count_cross = n_cells * (n_cells - 1) / 2 - count_item - count_worker
    q_item = pairs_item / (2 * count_item)
    q_worker = pairs_worker / (2 * np.maximum(count_worker, 1))
    q_cross = (pairs_all - pairs_item - pairs_worker) / (2 * np.maximum(count_cross, 1))
    e_hat = np.maximum(q_item + q_worker - q_cross, 1e-12)
    a_hat = np.maximum(q_cross - q_worker, 0.0)
    b_hat = np.maximum(q_cross - q_item, 0.0)
    sum_nw2 = (n_w**2).sum(axis=1)
    c_a, c_b, c_e = sum_nw2 / n_cells**2, 1.0 / items, 1.0 / n_cells
    var_mean = c_a * a_hat + c_b * b_hat + c_e * e_hat
    df_e = max(n_cells - pool - items + 1, 1)
    dof = var_mean**2 / ((c_a * a_hat) ** 2 / max(pool - 1, 1) + (c_b * b_hat) ** 2 / (items - 1)
                         + (c_e * e_hat) ** 2 / df_e)
    return {"effect": flat.mean(axis=1) / 2, "se": 0.5 * np.sqrt(var_mean), "df": dof}


def crowd_power(pool, items, per_item, effect, *, sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma, baseline=0.5,
                alpha=0.05, rule="satterthwaite", n_sims=500, seed=None, likert=None) -> RatingsResult:
    """Power of a crowdsourcing design: each item rated by ``per_item`` workers drawn from a pool.

    Every chosen worker rates both systems' outputs for the item (2·k·I
    ratings). The analysis is the method-of-moments fit of :func:`_crowd_fit`
    (the unbalanced design has no cheap maximum-likelihood solution): the
    Satterthwaite rule tests two-sided at α with the approximate df; the
    paper-style rule counts t > 1.96.

    Parameters
    ----------
    pool : int
        Workers available (W >= k).
    items : int
        Items I.
    per_item : int
        Workers per item k (2 … W).
    effect, sigma_*, baseline, alpha, rule, n_sims, seed, likert
        As in :func:`likert_power`.
    """
    sigmas = dict(sigma_w0=sigma_w0, sigma_w1=sigma_w1, sigma_i0=sigma_i0, sigma_i1=sigma_i1, sigma=sigma)
    pool = check_int("pool", pool, low=2, high=10_000)
    pool, items, effect, sigmas, baseline, alpha, rule, _ = _validate(pool, items, effect, sigmas, baseline, alpha,
                                                                     rule, "simulate")
    per_item = check_int("per_item", per_item, low=2, high=pool)
    n_sims = check_int("n_sims", n_sims, low=50, high=100_000)
    _check_simulated_cells(n_sims, items * pool, "`items` × `pool`")
    scale = None if likert is None else check_int("likert", likert, low=2, high=1001) - 1
    rng = rng_of(seed)

    def simulate_chunk(eff, reps):
        workers_of = np.argsort(rng.random((reps, items, pool)), axis=2)[:, :, :per_item]
        w0 = rng.normal(0, sigmas["sigma_w0"], (reps, pool))
        w1 = rng.normal(0, sigmas["sigma_w1"], (reps, pool))
        i0 = rng.normal(0, sigmas["sigma_i0"], (reps, items, 1))
        i1 = rng.normal(0, sigmas["sigma_i1"], (reps, items, 1))
        rows = np.arange(reps)[:, None, None]
        centre = baseline + w0[rows, workers_of] + i0
        slope = eff + w1[rows, workers_of] + i1
        y_plus = centre + slope + rng.normal(0, sigmas["sigma"], workers_of.shape)
        y_minus = centre - slope + rng.normal(0, sigmas["sigma"], workers_of.shape)
        if scale is not None:
            y_plus = np.clip(np.rint(y_plus * scale), 0, scale) / scale
            y_minus = np.clip(np.rint(y_minus * scale), 0, scale) / scale
        return _crowd_fit(y_plus - y_minus, workers_of, pool)

    def simulate(eff):
        parts = [simulate_chunk(eff, reps) for reps in _chunks(n_sims, items * pool)]  # bounded memory
        return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}

    fit, fit0 = simulate(effect), simulate(0.0)
    t, crit = _detect(fit, rule, alpha)
    t0, crit0 = _detect(fit0, rule, alpha)
    fpr = float(np.mean(t0 > crit0)) if rule == "paper" else float(np.mean(np.abs(t0) > crit0))
    sig = np.abs(t) > crit
    right = sig & (np.sign(t) == (np.sign(effect) if effect else 1.0))
    if effect == 0:
        right = (t > crit) if rule == "paper" else sig
    power = float(right.mean())
    n_sig = int(sig.sum())
    return RatingsResult(
        power=power, type_s=nan_if_zero(float((sig & ~right).sum()), n_sig) if effect else math.nan,
        type_m=float(np.abs(fit["effect"][sig]).mean() / abs(effect)) if n_sig and effect else math.nan,
        false_positive_rate=fpr, mc_se=math.sqrt(power * (1 - power) / n_sims),
        false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims), mean_difference=2 * effect, rule=rule, method="simulate",
        n_sims=n_sims)


def crowd_analytic(pool, items, per_item, effects, *, alpha=0.05, **sigmas) -> pd.DataFrame:
    """Approximate analytic power of the crowdsourcing design (vectorized over ``items`` and ``effects``).

    Uses the moment analysis' variance with its expectation over the random
    assignment, ``E[Σ_w n_w²] = W (I p (1 − p) + I² p²)`` with p = k/W, a
    Satterthwaite df from the true components (W − 1, I − 1, kI − W − I + 1),
    and the noncentral t — the analogue of :func:`analytic_grid`; checked
    against :func:`crowd_power` in the tests.

    Returns
    -------
    pandas.DataFrame
        ``pool, per_item, items, effect, power``.
    """
    alpha = check_alpha(alpha)
    sigmas = _check_sigmas(sigmas)
    pool = check_int("pool", pool, low=2, high=10_000)
    per_item = check_int("per_item", per_item, low=2, high=pool)
    try:
        items_arr, effects_arr = np.asarray(items, float), np.asarray(effects, float)
    except (TypeError, ValueError):
        raise ValueError("`items` and `effects` must be numbers.") from None
    if items_arr.size == 0 or not np.all(np.isfinite(items_arr)) or np.any((items_arr < 2) | (items_arr > 100_000)):
        raise ValueError("`items` must be between 2 and 100,000.")
    if effects_arr.size == 0 or not np.all(np.isfinite(effects_arr)) or np.any(np.abs(effects_arr) > 0.5):
        raise ValueError("`effects` must be finite numbers in [-0.5, 0.5].")
    i, e = (a.ravel() for a in np.meshgrid(items_arr, effects_arr, indexing="ij"))
    up, low = _crowd_tails(pool, per_item, i, e, sigmas, alpha)
    power = np.where(e > 0, up, np.where(e < 0, low, up + low))
    return pd.DataFrame({"pool": pool, "per_item": per_item, "items": i.astype(int), "effect": e, "power": power})


def crowd_plans(effect, *, pool, cost_per_rating=0.1, target_power=0.8, alpha=0.05, max_items=5000,
                **sigmas) -> pd.DataFrame:
    """Cheapest (k, I) crowdsourcing designs from a pool of W workers reaching the target (approximate analytic).

    ``pool`` is 2 … 200 workers (k runs from 2 to the pool), ``max_items`` 2 … 100,000.

    Returns
    -------
    pandas.DataFrame
        ``per_item, items, ratings, cost, power, reachable`` sorted by cost.
    """
    cost_per_rating = check_real("cost_per_rating", cost_per_rating, low=0.0, high=1e6)
    pool = check_int("pool", pool, low=2, high=200)
    max_items = check_int("max_items", max_items, low=2, high=100_000)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    effect = check_real("effect", effect, low=-0.5, high=0.5)
    grid_items = np.unique(np.round(np.geomspace(2, max_items, 400)).astype(int))
    rows = []
    for k in range(2, pool + 1):
        frame = crowd_analytic(pool, grid_items, k, [effect], alpha=alpha, **sigmas)
        ok = frame[frame["power"] >= target_power]
        if ok.empty:
            last = frame.iloc[-1]
            rows.append((k, int(last["items"]), 2 * k * int(last["items"]),
                         2 * k * int(last["items"]) * cost_per_rating, float(last["power"]), False))
            continue
        n_items = int(ok["items"].iloc[0])
        rows.append((k, n_items, 2 * k * n_items, 2 * k * n_items * cost_per_rating, float(ok["power"].iloc[0]), True))
    table = pd.DataFrame(rows, columns=["per_item", "items", "ratings", "cost", "power", "reachable"])
    return table.sort_values(["reachable", "cost"], ascending=[False, True]).reset_index(drop=True)

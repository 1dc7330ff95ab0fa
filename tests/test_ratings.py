"""Tests of core.ratings (Card et al. 2020, §5.2, appendix H.3; Westfall, Kenny & Judd 2014).

Oracles: the paper's own Figure 6 grid (200 replicates per point, from its
repository), the exact Gaussian log-likelihood of the full data (brute-force
multivariate normal) and statsmodels ``MixedLM``, the noncentral t, and
simulated pilots with known components.
"""

from __future__ import annotations

import io
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from core import ratings as rt

# the paper's Figure 6 grid from its repository (dallascard/NLP-power-analysis, Apache-2.0;
# shared/data/card2020/human_eval/highvar_lowmer_lmer.csv), kept with the tests
FIGURE6 = Path(__file__).resolve().parent / "data" / "card2020_figure6_lmer.csv"


def _cells(rng, workers, items, effect, sig, baseline=0.5):
    w0 = rng.normal(0, sig["sigma_w0"], workers)
    w1 = rng.normal(0, sig["sigma_w1"], workers)
    i0 = rng.normal(0, sig["sigma_i0"], items)
    i1 = rng.normal(0, sig["sigma_i1"], items)
    rows = []
    for w in range(workers):
        for i in range(items):
            for x in (1.0, -1.0):
                y = baseline + w0[w] + i0[i] + (effect + w1[w] + i1[i]) * x + rng.normal(0, sig["sigma"])
                rows.append((f"w{w}", f"i{i}", x, y))
    return pd.DataFrame(rows, columns=["worker", "item", "x", "y"])


def _stats_of(df, workers, items):
    y = df["y"].to_numpy().reshape(workers, items, 2)
    return rt._stats_from_cells((y[:, :, 0] - y[:, :, 1])[None], (y[:, :, 0] + y[:, :, 1])[None])


# ---------------------------------------------------------------------------
# the paper's Figure 6
# ---------------------------------------------------------------------------
def test_figure_6_reproduced_by_the_paper_rule():
    grid = pd.read_csv(FIGURE6)
    # a spread of the 48 points (all would take ~40 s); the paper used 200 replicates per point
    picks = grid.iloc[[0, 3, 6, 9, 11, 13, 18, 24, 27, 29, 31]]
    for row in picks.itertuples():
        preset = rt.PRESETS["high" if row.settings.startswith("High") else "low"]
        ours = rt.likert_power(int(row._5), int(row.ex), float(row.diff), **preset, rule="paper", n_sims=2000,
                               seed=7)
        se = math.hypot(ours.mc_se, math.sqrt(max(row.power * (1 - row.power), 1e-4) / 200))
        assert abs(ours.power - row.power) <= 4 * se, (row, ours.power)


def test_paper_rule_false_positives_with_few_workers():
    # t > 1.96 on an ML fit with 3 workers rejects far more often than its nominal 2.5%
    res = rt.likert_power(3, 100, 0.1, **rt.PRESETS["high"], rule="paper", n_sims=4000, seed=2)
    assert res.false_positive_rate > 0.025 + 4 * math.sqrt(0.025 * 0.975 / 4000)
    many = rt.likert_power(30, 100, 0.1, **rt.PRESETS["high"], rule="paper", n_sims=4000, seed=2)
    assert many.false_positive_rate < res.false_positive_rate


# ---------------------------------------------------------------------------
# the fit itself
# ---------------------------------------------------------------------------
def _exact_loglik(df, comps):
    """Oracle: Gaussian log-likelihood of all ratings at given components (GLS fixed effects)."""
    y, x = df["y"].to_numpy(), df["x"].to_numpy()
    zw = pd.get_dummies(df["worker"]).to_numpy(float)
    zi = pd.get_dummies(df["item"]).to_numpy(float)
    v = (comps["w0"] * zw @ zw.T + comps["w1"] * (zw * x[:, None]) @ (zw * x[:, None]).T
         + comps["i0"] * zi @ zi.T + comps["i1"] * (zi * x[:, None]) @ (zi * x[:, None]).T
         + comps["s2"] * np.eye(len(y)))
    design = np.column_stack([np.ones_like(x), x])
    vi = np.linalg.inv(v)
    beta = np.linalg.solve(design.T @ vi @ design, design.T @ vi @ y)
    return stats.multivariate_normal(design @ beta, v).logpdf(y), beta


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_ml_fit_against_brute_force_and_mixedlm(seed):
    import statsmodels.formula.api as smf

    workers, items = 4, 12
    df = _cells(np.random.default_rng(seed), workers, items, 0.1, rt.PRESETS["high"])
    fit = rt.fit_balanced(_stats_of(df, workers, items), workers, items, ml=True)
    s, a, b = float(fit["s"][0]), float(fit["a_d"][0]), float(fit["b_d"][0])
    _, parts = rt._objective(fit["s"], _stats_of(df, workers, items), rt._dfs(workers, items), True)
    a_s, b_s = float(parts["S"][0][0]), float(parts["S"][1][0])
    ours = {"w0": (a_s - s) / (4 * items), "w1": (a - s) / (4 * items), "i0": (b_s - s) / (4 * workers),
            "i1": (b - s) / (4 * workers), "s2": s / 2}
    ll_ours, beta = _exact_loglik(df, ours)
    assert float(fit["effect"][0]) == pytest.approx(beta[1], abs=1e-10)
    # statsmodels MixedLM, ML, crossed variance components
    df = df.assign(one=1)
    model = smf.mixedlm("y ~ x", df, groups="one",
                        vc_formula={"w0": "0 + C(worker)", "i0": "0 + C(item)", "w1": "0 + C(worker):x",
                                    "i1": "0 + C(item):x"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = model.fit(reml=False, method=["lbfgs"])
    theirs = dict(zip(model.exog_vc.names, res.vcomp))
    theirs["s2"] = res.scale
    ll_theirs, _ = _exact_loglik(df, theirs)
    assert float(fit["effect"][0]) == pytest.approx(float(res.fe_params["x"]), abs=1e-8)
    # our maximum is never lower than statsmodels' (which sometimes stops early)
    assert ll_ours >= ll_theirs - 1e-6
    if abs(ll_ours - ll_theirs) < 1e-4:  # same optimum → same standard error
        assert float(fit["se"][0]) == pytest.approx(float(res.bse["x"]), rel=1e-3)


def test_sufficient_statistics_match_full_simulation():
    # the exact χ² shortcut and simulating every rating give the same power (within MC error)
    sig = rt.PRESETS["low"]
    quick = rt.likert_power(5, 40, 0.05, **sig, rule="paper", n_sims=4000, seed=1)
    rng = np.random.default_rng(9)
    st = rt.simulate_statistics(5, 40, 0.05, n_sims=4000, seed=rng, likert=1000, **sig)  # fine grid ≈ continuous
    fit = rt.fit_balanced(st, 5, 40, ml=True)
    full = float(np.mean(fit["effect"] / fit["se"] > 1.96))
    assert abs(full - quick.power) <= 4 * math.sqrt(quick.power * (1 - quick.power) * 2 / 4000)


# ---------------------------------------------------------------------------
# Satterthwaite rule and the analytic engine
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("workers, items, effect", [(10, 50, 0.1), (20, 20, 0.05), (12, 100, 0.05), (10, 200, 0.0)])
def test_analytic_agrees_with_satterthwaite_simulation(workers, items, effect):
    sig = rt.PRESETS["high"]
    exact = rt.likert_power(workers, items, effect, **sig, rule="satterthwaite", method="analytic")
    sim = rt.likert_power(workers, items, effect, **sig, rule="satterthwaite", n_sims=6000, seed=3)
    se = math.sqrt(max(exact.power * (1 - exact.power), 1e-4) / 6000)
    assert abs(exact.power - sim.power) <= 4 * se


def test_satterthwaite_false_positives_calibrated_with_enough_workers():
    sim = rt.likert_power(10, 100, 0.1, **rt.PRESETS["high"], rule="satterthwaite", n_sims=8000, seed=4)
    assert sim.false_positive_rate <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 8000)


def test_analytic_closed_form():
    # WKJ 2014: ncp = 2β1 sqrt(WI/λ0), Satterthwaite df from the true components
    sig = rt.PRESETS["low"]
    w, i, e = 6, 80, 0.05
    lam_e = 2 * sig["sigma"] ** 2
    lam_w = lam_e + 4 * i * sig["sigma_w1"] ** 2
    lam_i = lam_e + 4 * w * sig["sigma_i1"] ** 2
    lam0 = lam_w + lam_i - lam_e
    dof = lam0**2 / (lam_w**2 / (w - 1) + lam_i**2 / (i - 1) + lam_e**2 / (2 * (w - 1) * (i - 1)))
    crit = stats.t.isf(0.025, dof)
    expected = stats.nct.sf(crit, dof, 2 * e * math.sqrt(w * i / lam0))
    assert rt.likert_power(w, i, e, **sig, rule="satterthwaite", method="analytic").power == pytest.approx(expected)


def test_analytic_grid_matches_pointwise():
    grid = rt.analytic_grid([3, 12], [40, 300], [0.0, 0.05, -0.1], **rt.PRESETS["high"])
    for row in grid.itertuples():
        point = rt.likert_power(row.workers, row.items, row.effect, **rt.PRESETS["high"], rule="satterthwaite",
                                method="analytic")
        assert row.power == pytest.approx(point.power, abs=1e-12)
        if row.effect:
            assert row.type_m == pytest.approx(point.type_m, rel=1e-9)


def test_likert_rounding_costs_power():
    sig = rt.PRESETS["low"]
    smooth = rt.likert_power(5, 60, 0.05, **sig, rule="paper", n_sims=3000, seed=5)
    coarse = rt.likert_power(5, 60, 0.05, **sig, rule="paper", n_sims=3000, seed=5, likert=3)
    assert coarse.power < smooth.power


# ---------------------------------------------------------------------------
# planner, MDE, pilot fit
# ---------------------------------------------------------------------------
def test_budget_plans_reach_target_and_are_sorted_by_cost():
    plans = rt.budget_plans(0.1, cost_per_rating=0.2, cost_per_worker=5, **rt.PRESETS["high"])
    reachable = plans[plans["reachable"]]
    assert reachable["cost"].is_monotonic_increasing
    for row in reachable.itertuples():
        assert row.cost == pytest.approx(2 * row.workers * row.items * 0.2 + 5 * row.workers)
        below = rt.likert_power(row.workers, row.items - 1, 0.1, **rt.PRESETS["high"], rule="satterthwaite",
                                method="analytic").power
        assert row.power >= 0.8 > below


def test_mde_round_trip():
    mde = rt.likert_mde(10, 100, **rt.PRESETS["high"])
    power = rt.likert_power(10, 100, mde, **rt.PRESETS["high"], rule="satterthwaite", method="analytic").power
    assert power == pytest.approx(0.8, abs=1e-4)


def test_fit_pilot_recovers_components():
    sig = {"sigma_w0": 0.08, "sigma_w1": 0.06, "sigma_i0": 0.1, "sigma_i1": 0.07, "sigma": 0.15}
    df = _cells(np.random.default_rng(11), 25, 40, 0.08, sig)
    pilot = df.assign(system=np.where(df["x"] > 0, "new", "base"), rating=1 + 4 * df["y"])
    fit = rt.fit_pilot(pilot.drop(columns=["x", "y"]))
    # rescaling by the observed range changes units: compare ratios to the residual SD
    scale = fit.sigma / 0.15
    assert fit.effect / scale == pytest.approx(-0.08 if fit.systems[1] == "base" else 0.08, abs=0.02)
    for key in ("sigma_w1", "sigma_i0", "sigma_i1"):
        assert getattr(fit, key) / scale == pytest.approx(sig[key], abs=0.04)


@pytest.mark.parametrize(
    "frame, message",
    [
        (pd.DataFrame({"worker": [1], "item": [1], "rating": [3]}), "missing: system"),
        (pd.DataFrame({"worker": [1, 2], "item": [1, 2], "system": ["a", "a"], "rating": [1, 2]}), "exactly 2"),
        (pd.DataFrame({"worker": [1, 2], "item": [1, 2], "system": ["a", "b"], "rating": ["x", 2]}), "not numbers"),
    ],
)
def test_fit_pilot_bad_input(frame, message):
    with pytest.raises(ValueError, match=message):
        rt.fit_pilot(frame)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rt.likert_power(1, 100, 0.1, **rt.PRESETS["low"]), "`workers`"),
        (lambda: rt.likert_power(3, 1, 0.1, **rt.PRESETS["low"]), "`items`"),
        (lambda: rt.likert_power(3, 100, 0.9, **rt.PRESETS["low"]), "`effect`"),
        (lambda: rt.likert_power(3, 100, 0.1, **{**rt.PRESETS["low"], "sigma": 0}), "`sigma`"),
        (lambda: rt.likert_power(3, 100, 0.1, **rt.PRESETS["low"], rule="lmer"), "`rule`"),
        (lambda: rt.likert_power(3, 100, 0.1, **rt.PRESETS["low"], method="analytic"), "`method`"),
    ],
)
def test_value_errors(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


# ---------------------------------------------------------------------------
# crowdsourcing design (k workers per item from a pool)
# ---------------------------------------------------------------------------
def test_crowd_design_with_everyone_matches_the_crossed_design():
    sig = rt.PRESETS["high"]
    crowd = rt.crowd_power(10, 100, 10, 0.1, **sig, rule="satterthwaite", n_sims=3000, seed=1)
    crossed = rt.likert_power(10, 100, 0.1, **sig, rule="satterthwaite", method="analytic")
    assert abs(crowd.power - crossed.power) <= 4 * math.sqrt(crossed.power * (1 - crossed.power) / 3000)


def test_crowd_moment_estimates_are_unbiased():
    # oracle: the simulated components — E[Â] = 4σ_w1², E[B̂] = 4σ_i1², E[Ê] = 2σ² for the difference layout
    sig = {"sigma_w0": 0.05, "sigma_w1": 0.1, "sigma_i0": 0.05, "sigma_i1": 0.12, "sigma": 0.2}
    rng = np.random.default_rng(3)
    reps, pool, items, k = 3000, 15, 60, 4
    workers_of = np.argsort(rng.random((reps, items, pool)), axis=2)[:, :, :k]
    a = rng.normal(0, 2 * sig["sigma_w1"], (reps, pool))
    b = rng.normal(0, 2 * sig["sigma_i1"], (reps, items, 1))
    d = 0.2 + a[np.arange(reps)[:, None, None], workers_of] + b + rng.normal(0, math.sqrt(2) * sig["sigma"],
                                                                            workers_of.shape)
    fit = rt._crowd_fit(d, workers_of, pool)
    n_w = np.array([np.bincount(w.ravel(), minlength=pool) for w in workers_of[:200]])
    expected_var = ((n_w**2).sum(axis=1).mean() * 4 * sig["sigma_w1"] ** 2 + k**2 * items * 4 * sig["sigma_i1"] ** 2
                    + k * items * 2 * sig["sigma"] ** 2) / (k * items) ** 2
    # the variance of β̂1 = mean(D)/2 from the estimates matches its actual sampling variance
    assert np.mean(fit["se"] ** 2) == pytest.approx(expected_var / 4, rel=0.05)
    assert np.var(fit["effect"]) == pytest.approx(expected_var / 4, rel=0.08)


def test_crowd_false_positives_near_nominal_and_larger_pool_helps():
    sig = rt.PRESETS["high"]
    null = rt.crowd_power(20, 100, 5, 0.0, **sig, rule="satterthwaite", n_sims=3000, seed=2)
    # approximate analysis: within 1.5 points of α (documented on the page)
    assert null.false_positive_rate <= 0.065
    small_pool = rt.crowd_power(5, 100, 3, 0.1, **sig, rule="satterthwaite", n_sims=2000, seed=3)
    big_pool = rt.crowd_power(30, 100, 3, 0.1, **sig, rule="satterthwaite", n_sims=2000, seed=3)
    assert big_pool.power > small_pool.power  # same ratings, spread over more workers


@pytest.mark.parametrize("pool, items, k, effect", [(20, 100, 5, 0.1), (30, 100, 3, 0.1), (20, 50, 4, 0.15)])
def test_crowd_analytic_agrees_with_simulation(pool, items, k, effect):
    sig = rt.PRESETS["high"]
    exact = float(rt.crowd_analytic(pool, [items], k, [effect], **sig)["power"].iloc[0])
    sim = rt.crowd_power(pool, items, k, effect, **sig, rule="satterthwaite", n_sims=3000, seed=5)
    assert abs(exact - sim.power) <= 4 * math.sqrt(exact * (1 - exact) / 3000)


def test_crowd_plans_reach_target():
    table = rt.crowd_plans(0.1, pool=20, **rt.PRESETS["high"])
    ok = table[table["reachable"]]
    assert ok["cost"].is_monotonic_increasing and (ok["power"] >= 0.8).all()


# ---------------------------------------------------------------------------
# pilot fits whose cost fits the data; only ValueError for bad pilots
# ---------------------------------------------------------------------------
PILOT_SIG = {"sigma_w0": 0.3, "sigma_w1": 0.2, "sigma_i0": 0.4, "sigma_i1": 0.25, "sigma": 0.5}


def _crowd_pilot(rng, workers, items, per_item, effect, sig=PILOT_SIG, paired=True, repeats=0):
    """Each item rated by ``per_item`` workers of a pool (both systems when paired, one at random otherwise)."""
    w0, w1 = rng.normal(0, sig["sigma_w0"], workers), rng.normal(0, sig["sigma_w1"], workers)
    i0, i1 = rng.normal(0, sig["sigma_i0"], items), rng.normal(0, sig["sigma_i1"], items)
    who = (np.argsort(rng.random((items, workers)), axis=1)[:, :per_item] if workers <= 2000
           else rng.integers(0, workers, (items, per_item))).ravel()
    what = np.repeat(np.arange(items), per_item)
    if paired:
        who, what = np.repeat(who, 2), np.repeat(what, 2)
        x = np.tile([1.0, -1.0], who.size // 2)
    else:
        x = rng.choice([1.0, -1.0], who.size)
    if repeats:  # some cells rated twice
        again = rng.choice(who.size, repeats, replace=False)
        who, what, x = np.append(who, who[again]), np.append(what, what[again]), np.append(x, x[again])
    y = 3 + w0[who] + i0[what] + (effect + w1[who] + i1[what]) * x + rng.normal(0, sig["sigma"], who.size)
    frame = pd.DataFrame({"worker": [f"w{v}" for v in who], "item": [f"i{v}" for v in what],
                          "system": np.where(x > 0, "new", "base"), "rating": y})
    return frame, float(y.max() - y.min())


def _mixedlm_reml(frame):
    """Oracle: statsmodels MixedLM (REML) with crossed variance components, on the [0, 1]-rescaled ratings."""
    import statsmodels.formula.api as smf

    low, high = frame["rating"].min(), frame["rating"].max()
    data = frame.assign(y=(frame["rating"] - low) / (high - low), x=np.where(frame["system"] == "new", 1.0, -1.0),
                        one=1)
    model = smf.mixedlm("y ~ x", data, groups="one", vc_formula={"w0": "0 + C(worker)", "i0": "0 + C(item)",
                                                                   "w1": "0 + C(worker):x", "i1": "0 + C(item):x"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = model.fit(reml=True, method=["lbfgs"])
    sds = dict(zip(model.exog_vc.names, np.sqrt(np.maximum(res.vcomp, 0))))
    return {"effect": float(res.fe_params["x"]), "baseline": float(res.fe_params["Intercept"]),
            "sigma": math.sqrt(res.scale), "sigma_w0": sds["w0"], "sigma_w1": sds["w1"], "sigma_i0": sds["i0"],
            "sigma_i1": sds["i1"], "effect_se": float(res.bse["x"])}


KEYS = ("effect", "baseline", "sigma", "sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_balanced_pilot_reml_equals_mixedlm(seed):
    sig = {"sigma_w0": 0.08, "sigma_w1": 0.06, "sigma_i0": 0.1, "sigma_i1": 0.07, "sigma": 0.15}
    frame = _cells(np.random.default_rng(seed), 8, 30, 0.08, sig)
    frame = frame.assign(system=np.where(frame["x"] > 0, "new", "base"), rating=frame["y"]).drop(columns=["x", "y"])
    fit = rt.fit_pilot(frame)
    assert fit.method == "reml"
    oracle = _mixedlm_reml(frame)  # the same REML optimum, found by statsmodels' optimizer
    for key in KEYS:
        assert getattr(fit, key) == pytest.approx(oracle[key], abs=2e-4), key
    assert fit.effect_se == pytest.approx(oracle["effect_se"], rel=1e-2)


def test_moment_estimator_agrees_with_reml_within_sampling_error():
    # on balanced pilots both estimators are unbiased for the variances: their difference must be small
    # compared with the moment estimator's own sampling SD (from 20 replicate pilots)
    sig = {"sigma_w0": 0.08, "sigma_w1": 0.06, "sigma_i0": 0.1, "sigma_i1": 0.07, "sigma": 0.15}
    fits = []
    for seed in range(20):
        frame = _cells(np.random.default_rng(100 + seed), 10, 40, 0.05, sig)
        frame = frame.assign(system=np.where(frame["x"] > 0, "new", "base"), rating=frame["y"]).drop(columns=["x", "y"])
        fits.append((rt.fit_pilot(frame, method="moments"), rt.fit_pilot(frame, method="reml")))
    for key in KEYS:
        moments = np.array([getattr(m, key) for m, _ in fits])
        reml = np.array([getattr(r, key) for _, r in fits])
        sd = moments.std(ddof=1)
        assert np.all(np.abs(moments - reml) <= 3 * sd + 1e-12), key
        assert abs(np.mean(moments - reml)) <= 3 * sd / math.sqrt(20) + 1e-12, key


@pytest.mark.parametrize("paired, repeats", [(True, 0), (False, 0), (True, 300)])
def test_moment_estimator_recovers_components_of_crowdsourced_pilots(paired, repeats):
    # oracle: the simulated components; tolerance 4 SE of the mean over 20 replicate pilots
    estimates, effects, ses = [], [], []
    for seed in range(20):
        frame, scale = _crowd_pilot(np.random.default_rng(seed), 60, 300, 4, 0.1, paired=paired, repeats=repeats)
        fit = rt.fit_pilot(frame)
        assert fit.method == "moments"
        estimates.append([(getattr(fit, k) * scale) ** 2 for k in rt._SIGMAS])  # variances: unbiased
        effects.append(fit.effect * scale)
        ses.append(fit.effect_se * scale)
    estimates = np.array(estimates)
    for j, key in enumerate(rt._SIGMAS):
        mean, se = estimates[:, j].mean(), estimates[:, j].std(ddof=1) / math.sqrt(20)
        assert abs(mean - PILOT_SIG[key] ** 2) <= 4 * se + 1e-3, key
    assert abs(np.mean(effects) - 0.1) <= 4 * np.std(effects, ddof=1) / math.sqrt(20)
    # the reported standard error matches the spread of the effect across pilots
    assert np.mean(ses) == pytest.approx(np.std(effects, ddof=1), rel=0.35)


def test_large_pilot_with_many_workers_fits():
    # 200,000 ratings by 20,000 workers (the 6 GB case): O(N log N), recovers the components
    frame, scale = _crowd_pilot(np.random.default_rng(5), 20_000, 20_000, 5, 0.1)
    fit = rt.fit_pilot(frame)
    assert fit.n_ratings == 200_000 and fit.workers > 19_000 and fit.method == "moments"
    assert abs(fit.effect * scale - 0.1) <= 4 * fit.effect_se * scale
    for key in rt._SIGMAS:  # replicate SDs at this size are below 0.01 (20 pilots of a quarter of the size)
        assert getattr(fit, key) * scale == pytest.approx(PILOT_SIG[key], abs=0.04), key


def _pilot_frame(ratings):
    n = len(ratings)
    return pd.DataFrame({"worker": [f"w{i % 3}" for i in range(n)], "item": [f"i{i // 6}" for i in range(n)],
                         "system": ["a", "b"] * (n // 2), "rating": ratings})


@pytest.mark.parametrize(
    "frame, message",
    [
        (_pilot_frame(["1", "2", "inf", "4", "5", "6"]), "Data row 3.*not a finite number"),
        (_pilot_frame([1, 2, 1e308, -1e308, 5, 6]), "Data row 3.*too large"),
        (_pilot_frame([1, 2, "", 4, 5, 6]), "missing or not numbers"),
        (_pilot_frame([1, 2, "NaN", 4, 5, 6]), "missing or not numbers"),
        (_pilot_frame([1, 2, 3, 4, 5, 6]).assign(worker=["w1", None, "w2", "w1", "w2", "w1"]),
         "row 2: the worker is missing"),
        (pd.DataFrame({"worker": [f"w{i}" for i in range(8)], "item": ["i1", "i1", "i2", "i2"] * 2,
                       "system": ["a", "b"] * 4, "rating": np.arange(8.0)}), "does not identify"),
    ],
)
def test_bad_pilots_raise_value_errors(frame, message):
    with pytest.raises(ValueError, match=message):
        rt.fit_pilot(frame)


def test_reml_needs_a_balanced_pilot():
    frame, _ = _crowd_pilot(np.random.default_rng(1), 30, 40, 3, 0.1)
    with pytest.raises(ValueError, match="`method`"):
        rt.fit_pilot(frame, method="reml")


def test_crowd_design_with_a_pool_of_two():
    sig = rt.PRESETS["high"]
    result = rt.crowd_power(2, 100, 2, 0.1, **sig, n_sims=200, seed=1)
    assert 0 <= result.power <= 1 and 0 <= result.false_positive_rate <= 1
    assert rt.crowd_analytic(2, [50, 100], 2, [0.0, 0.1], **sig)["power"].between(0, 1).all()
    plans = rt.crowd_plans(0.1, pool=2, **sig)
    assert list(plans["per_item"]) == [2]
    for call, name in [(lambda: rt.crowd_power(1, 100, 2, 0.1, **sig), "`pool`"),
                       (lambda: rt.crowd_power(2, 100, 3, 0.1, **sig), "`per_item`"),
                       (lambda: rt.crowd_plans(0.1, pool=1, **sig), "`pool`"),
                       (lambda: rt.crowd_analytic(2, [1], 2, [0.1], **sig), "`items`"),
                       (lambda: rt.crowd_analytic(2, [100], 2, [math.nan], **sig), "`effects`")]:
        with pytest.raises(ValueError, match=name.replace("`", "\\`")):
            call()


# ---------------------------------------------------------------------------
# assurance: power averaged over a normal prior on β1 (O'Hagan, Stevens & Campbell 2005)
# ---------------------------------------------------------------------------
def _likert_tails(workers, items, effects, sig):
    """P(sig, β̂1 > 0 | β1) and P(sig, β̂1 < 0 | β1) from analytic_grid's public power and Type-S columns.

    For β1 ≠ 0: rejection = power / (1 − type_s); the hoped-for tail is the power, the other type_s × rejection.
    At β1 = 0 the noncentral t is central and symmetric: each tail is half the rejection rate (the power column).
    """
    grid = rt.analytic_grid([workers], [items], effects, **sig)
    e, power, type_s = (grid[c].to_numpy() for c in ("effect", "power", "type_s"))
    with np.errstate(invalid="ignore", divide="ignore"):
        wrong = type_s * power / (1 - type_s)
    up = np.where(e > 0, power, np.where(e < 0, wrong, power / 2))
    low = np.where(e < 0, power, np.where(e > 0, wrong, power / 2))
    return up, low


def _crowd_tails_from_the_docstring(pool, items, per_item, effects, sig, alpha=0.05):
    """crowd_analytic's documented approximation, re-derived: Var(mean D) with E[Σ n_w²] = W(Ip(1−p) + I²p²), p = k/W,
    Satterthwaite df from (W − 1, I − 1, kI − W − I + 1), noncentral t with ncp = 2β1/sd(mean D). Both tails as
    upper tails (P(T < −c | δ) = P(T > c | −δ)), which stays finite where scipy's nct.cdf far tail does not."""
    p = per_item / pool
    cells = per_item * items
    parts = np.array([pool * (items * p * (1 - p) + (items * p) ** 2) / cells**2 * 4 * sig["sigma_w1"] ** 2,
                      4 * sig["sigma_i1"] ** 2 / items, 2 * sig["sigma"] ** 2 / cells])
    dfs = np.array([pool - 1, items - 1, max(cells - pool - items + 1, 1)])
    var = parts.sum()
    dof = var**2 / np.sum(parts**2 / dfs)
    crit = stats.t.isf(alpha / 2, dof)
    ncp = 2 * np.asarray(effects, float) / math.sqrt(var)
    return stats.nct.sf(crit, dof, ncp), stats.nct.sf(crit, dof, -ncp)


def _truncated_prior(mu, tau, low=-0.5, high=0.5):
    """Mass of N(μ, τ²) on [low, high] and the renormalized probability of the sign of μ (positive when μ = 0)."""
    cdf = stats.norm.cdf
    mass = cdf(high, mu, tau) - cdf(low, mu, tau)
    hoped = cdf(high, mu, tau) - cdf(0, mu, tau) if mu >= 0 else cdf(0, mu, tau) - cdf(low, mu, tau)
    return mass, hoped / mass


def _grid_assurance(tails, mu, tau, points=8001):
    """Composite Simpson over the truncated prior's support (|Δ| <= 0.5 and within μ ± 10τ), renormalized."""
    x = np.linspace(max(-0.5, mu - 10 * tau), min(0.5, mu + 10 * tau), points)
    up, low = tails(x)
    hoped = up if mu >= 0 else low
    return integrate.simpson(hoped * stats.norm.pdf(x, mu, tau), x=x) / _truncated_prior(mu, tau)[0]


def _prior_draws(mu, tau, size=4000, seed=21):
    """Draws from N(μ, τ²) truncated to the feasible effects [−0.5, 0.5] (rejection)."""
    draws = np.random.default_rng(seed).normal(mu, tau, 4 * size)
    return draws[np.abs(draws) <= 0.5][:size]


# (workers, items, μ, τ, preset): informative, vague, heavily truncated (31% of the prior beyond 0.5), a loss
LIKERT_PRIORS = [(3, 100, 0.1, 0.03, "high"), (5, 60, 0.02, 0.2, "high"), (3, 100, 0.45, 0.1, "high"),
                 (3, 100, -0.1, 0.03, "high"), (6, 80, 0.05, 0.05, "low")]
CROWD_PRIORS = [(30, 200, 3, 0.1, 0.05, "high"), (20, 100, 5, 0.02, 0.2, "high"), (30, 200, 3, -0.05, 0.02, "high"),
                (30, 200, 3, 0.4, 0.15, "high")]


@pytest.mark.parametrize("workers, items, mu, preset", [(3, 100, 0.1, "high"), (10, 200, -0.05, "high"),
                                                        (5, 60, 0.0, "low"), (20, 40, 0.3, "low")])
def test_likert_assurance_with_a_point_prior_is_the_analytic_power(workers, items, mu, preset):
    # oracle: τ = 0 is the power at μ of likert_power's analytic Satterthwaite engine
    sig = rt.PRESETS[preset]
    res = rt.likert_assurance(workers, items, mu, 0.0, **sig)
    power = rt.likert_power(workers, items, mu, **sig, rule="satterthwaite", method="analytic").power
    # at μ = 0 the power is both directions' false-positive rate; the hoped-for (positive) one holds half
    assert res.assurance == pytest.approx(power / 2 if mu == 0 else power, abs=1e-12)
    assert res.power_at_mean == pytest.approx(power, abs=1e-12)
    assert res.ceiling == (0.5 if mu == 0 else 1.0) and res.direction == (1 if mu >= 0 else -1)


@pytest.mark.parametrize("pool, items, k, mu, preset", [(30, 200, 3, 0.1, "high"), (20, 100, 5, -0.08, "high"),
                                                        (10, 50, 10, 0.0, "low")])
def test_crowd_assurance_with_a_point_prior_is_the_analytic_power(pool, items, k, mu, preset):
    # oracle: τ = 0 is crowd_analytic's power at μ
    sig = rt.PRESETS[preset]
    res = rt.crowd_assurance(pool, items, k, mu, 0.0, **sig)
    power = float(rt.crowd_analytic(pool, [items], k, [mu], **sig)["power"].iloc[0])
    assert res.assurance == pytest.approx(power / 2 if mu == 0 else power, abs=1e-12)
    assert res.power_at_mean == pytest.approx(power, abs=1e-12)


def test_the_re_derived_crowd_tails_are_crowd_analytic():
    # validates the crowd oracle below: on the hoped-for side each tail is crowd_analytic's power
    for pool, items, k, _, _, preset in CROWD_PRIORS:
        effects = np.linspace(-0.5, 0.5, 41)
        effects = effects[effects != 0]
        power = rt.crowd_analytic(pool, [items], k, effects, **rt.PRESETS[preset])["power"].to_numpy()
        up, low = _crowd_tails_from_the_docstring(pool, items, k, effects, rt.PRESETS[preset])
        np.testing.assert_allclose(np.where(effects > 0, up, low), power, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("workers, items, mu, tau, preset", LIKERT_PRIORS)
def test_likert_assurance_against_a_fine_grid_integral(workers, items, mu, tau, preset):
    # oracle: Simpson on 8,001 points over the truncated prior with analytic_grid's tails at every point; at that
    # spacing (< 1.3e-4, against a standard error of β̂1 >= 0.02) its error is below 1e-12
    sig = rt.PRESETS[preset]
    res = rt.likert_assurance(workers, items, mu, tau, **sig)
    expected = _grid_assurance(lambda x: _likert_tails(workers, items, x, sig), mu, tau)
    assert res.assurance == pytest.approx(expected, abs=1e-8)
    mass, ceiling = _truncated_prior(mu, tau)
    assert res.ceiling == pytest.approx(ceiling, abs=1e-12)  # Φ(μ/τ) renormalized to [−0.5, 0.5]
    assert res.truncated_mass == pytest.approx(1 - mass, abs=1e-12)
    assert 0 < res.assurance < res.ceiling


@pytest.mark.parametrize("pool, items, k, mu, tau, preset", CROWD_PRIORS)
def test_crowd_assurance_against_a_fine_grid_integral(pool, items, k, mu, tau, preset):
    sig = rt.PRESETS[preset]
    res = rt.crowd_assurance(pool, items, k, mu, tau, **sig)
    expected = _grid_assurance(lambda x: _crowd_tails_from_the_docstring(pool, items, k, x, sig), mu, tau)
    assert res.assurance == pytest.approx(expected, abs=1e-8)
    assert res.ceiling == pytest.approx(_truncated_prior(mu, tau)[1], abs=1e-12)


@pytest.mark.parametrize("workers, items, mu, tau, preset", LIKERT_PRIORS)
def test_likert_assurance_against_monte_carlo_over_the_prior(workers, items, mu, tau, preset):
    # oracle: average analytic_grid's directional power over draws from the truncated prior; 4 Monte Carlo SEs
    sig = rt.PRESETS[preset]
    up, low = _likert_tails(workers, items, _prior_draws(mu, tau), sig)
    hoped = up if mu >= 0 else low
    mc, se = hoped.mean(), hoped.std(ddof=1) / math.sqrt(hoped.size)
    assert abs(rt.likert_assurance(workers, items, mu, tau, **sig).assurance - mc) <= 4 * se


@pytest.mark.parametrize("pool, items, k, mu, tau, preset", CROWD_PRIORS)
def test_crowd_assurance_against_monte_carlo_over_the_prior(pool, items, k, mu, tau, preset):
    sig = rt.PRESETS[preset]
    up, low = _crowd_tails_from_the_docstring(pool, items, k, _prior_draws(mu, tau), sig)
    hoped = up if mu >= 0 else low
    mc, se = hoped.mean(), hoped.std(ddof=1) / math.sqrt(hoped.size)
    assert abs(rt.crowd_assurance(pool, items, k, mu, tau, **sig).assurance - mc) <= 4 * se


def test_a_vague_prior_on_the_rating_effect_cannot_be_rescued_by_more_ratings():
    sig = rt.PRESETS["high"]
    mu, tau = 0.05, 0.2
    designs = [(3, 100), (10, 500), (25, 2000), (50, 5000)]
    values = [rt.likert_assurance(w, i, mu, tau, **sig) for w, i in designs]
    mass, ceiling = _truncated_prior(mu, tau)
    assert all(v.ceiling == pytest.approx(ceiling, abs=1e-12) and v.assurance < v.ceiling for v in values)
    gaps = [ceiling - v.assurance for v in values]
    assert all(a > b for a, b in zip(gaps, gaps[1:]))  # approaches the ceiling as the design grows
    # bracket at 50 × 5,000 from the analytic power at c = 4 SE (the upper tail rises with β1):
    # (1 − up(c))·P(0 < β1 < c) − α/2·P(β1 < 0) <= mass × gap <= P(0 < β1 < c) + (1 − up(c))·P(c < β1 < 0.5)
    w, i = designs[-1]
    lam0 = 2 * sig["sigma"] ** 2 + 4 * i * sig["sigma_w1"] ** 2 + 4 * w * sig["sigma_i1"] ** 2
    c = 4 * 0.5 * math.sqrt(lam0 / (w * i))
    miss = 1 - rt.likert_power(w, i, c, **sig, rule="satterthwaite", method="analytic").power
    cdf = stats.norm.cdf
    near, far, below = cdf(c, mu, tau) - cdf(0, mu, tau), cdf(0.5, mu, tau) - cdf(c, mu, tau), \
        cdf(0, mu, tau) - cdf(-0.5, mu, tau)
    assert miss * near - 0.025 * below <= mass * gaps[-1] <= near + miss * far
    assert gaps[-1] > 0.03  # even 500,000 ratings leave effects within ~2 SE (0.016) of zero undetected


@pytest.mark.parametrize("call", [
    lambda mu: rt.likert_assurance(3, 100, mu, 0.03, **rt.PRESETS["high"]),
    lambda mu: rt.likert_assurance(5, 100, mu, 0.05, **rt.PRESETS["high"]),
    lambda mu: rt.crowd_assurance(30, 200, 3, mu / 2, 0.02, **rt.PRESETS["high"]),
    lambda mu: rt.likert_assurance(10, 200, mu / 2, 0.05, **rt.PRESETS["high"]),
    lambda mu: rt.crowd_assurance(30, 200, 3, mu, 0.05, **rt.PRESETS["high"]),
    lambda mu: rt.crowd_assurance(10, 40, 2, mu, 0.05, **rt.PRESETS["low"]),
    lambda mu: rt.likert_assurance(6, 80, mu, 0.05, **rt.PRESETS["low"]),
], ids=["likert-3x100", "likert-5x100", "crowd-30-200-3", "likert-10x200", "crowd-30-200-3-wide", "crowd-low",
        "likert-low"])
def test_rating_assurance_is_symmetric_in_the_sign_of_the_prior_mean(call):
    # the model is symmetric in β1 (nct tails: P(T > c | δ) = P(T < −c | −δ)), so mirroring the prior mirrors the
    # hoped-for direction and leaves the assurance unchanged
    plus, minus = call(0.1), call(-0.1)
    assert math.isfinite(minus.assurance)
    assert minus.assurance == pytest.approx(plus.assurance, abs=1e-10)
    assert minus.direction == -plus.direction == -1


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rt.likert_assurance(3, 100, 0.7, 0.1, **rt.PRESETS["high"]), "`delta_mean`"),
        (lambda: rt.likert_assurance(3, 100, 0.1, -1, **rt.PRESETS["high"]), "`delta_sd`"),
        (lambda: rt.likert_assurance(1, 100, 0.1, 0.1, **rt.PRESETS["high"]), "`workers`"),
        (lambda: rt.likert_assurance(3, 100, 0.1, 0.1, **{**rt.PRESETS["high"], "sigma": 0}), "`sigma`"),
        (lambda: rt.crowd_assurance(30, 200, 3, 0.7, 0.1, **rt.PRESETS["high"]), "`delta_mean`"),
        (lambda: rt.crowd_assurance(30, 200, 3, 0.1, -1, **rt.PRESETS["high"]), "`delta_sd`"),
        (lambda: rt.crowd_assurance(30, 200, 31, 0.1, 0.1, **rt.PRESETS["high"]), "`per_item`"),
    ],
)
def test_rating_assurance_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


def test_far_tails_stay_finite_where_scipy_nct_cdf_is_nan():
    # regression: scipy's nct.cdf(-c, df, ncp) is nan for ncp >~ 8 (scipy 1.17), so the wrong-sign tail (and with
    # it Type S and assurance on a loss) came out nan; the tails are now both upper tails, P(T < −c | δ) = P(T > c | −δ)
    sig = rt.PRESETS["low"]
    grid = rt.analytic_grid([10], [200], [-0.5, -0.3, 0.3, 0.5], **sig)
    assert np.isfinite(grid["power"]).all() and np.isfinite(grid["type_s"]).all()
    assert (grid["power"] > 0.999).all() and (grid["type_s"] < 1e-12).all()
    res = rt.likert_power(10, 200, -0.5, **sig, rule="satterthwaite", method="analytic")
    assert math.isfinite(res.type_s) and res.power == pytest.approx(1.0, abs=1e-12)
    crowd = rt.crowd_analytic(30, [200], 3, [-0.5, 0.5], **sig)
    assert np.isfinite(crowd["power"]).all()
    assert math.isfinite(rt.crowd_assurance(30, 200, 3, -0.45, 0.05, **sig).assurance)


def test_simulations_are_chunked_and_capped(monkeypatch):
    # memory is bounded by simulating about a million cells at a time; the answer does not depend on the chunking
    # beyond Monte Carlo error (oracle: the same engine unchunked, 4 standard errors of the difference)
    sig = rt.PRESETS["high"]
    whole = rt.crowd_power(20, 100, 3, 0.08, **sig, n_sims=2000, seed=3)
    lik_whole = rt.likert_power(5, 60, 0.08, **sig, n_sims=2000, seed=3, likert=5)
    from core.ratings import _model

    monkeypatch.setattr(_model, "_CHUNK_CELLS", 5_000)  # 2 or 16 replicates per chunk
    chunked = rt.crowd_power(20, 100, 3, 0.08, **sig, n_sims=2000, seed=3)
    lik_chunked = rt.likert_power(5, 60, 0.08, **sig, n_sims=2000, seed=3, likert=5)
    for a, b in ((whole, chunked), (lik_whole, lik_chunked)):
        assert a.power != b.power or a.false_positive_rate != b.false_positive_rate  # really re-drawn
        assert abs(a.power - b.power) <= 4 * math.hypot(a.mc_se, b.mc_se)
        assert abs(a.false_positive_rate - b.false_positive_rate) <= 4 * math.hypot(a.false_positive_rate_se,
                                                                                    b.false_positive_rate_se)
    assert rt.crowd_power(20, 100, 3, 0.08, **sig, n_sims=2000, seed=3) == chunked  # reproducible
    with pytest.raises(ValueError, match=r"`n_sims` × `items` × `pool` = 500 × 100,000 .* reduce `n_sims` to at most 100"):
        rt.crowd_power(50, 2000, 50, 0.05, **sig, n_sims=500)
    with pytest.raises(ValueError, match=r"`n_sims` × `workers` × `items` = 500 × 1,000,000 .* reduce `workers` × `items`"):
        rt.likert_power(100, 10_000, 0.05, **sig, n_sims=500, likert=5)


def test_read_pilot_guesses_or_takes_the_columns():
    # Appraise-style names (username, itemId, SYS, score) are guessed; other names are given as columns=
    rows = "".join(f"u{w},{i},{s},{3 + (s == 'B') + (w + i) % 3}\n" for w in range(4) for i in range(6) for s in "AB")
    appraise = rt.read_pilot(f"username,itemId,SYS,score\n{rows}".encode())
    assert list(appraise.columns) == ["worker", "item", "system", "rating"] and len(appraise) == 48
    plain = rt.fit_pilot(pd.read_csv(io.StringIO(f"worker,item,system,rating\n{rows}"), dtype=str))
    guessed = rt.fit_pilot(appraise)
    assert guessed.effect == pytest.approx(plain.effect) and guessed.sigma == pytest.approx(plain.sigma)
    odd = f"judge_name,segment_no,engine,points\n{rows}".encode()
    with pytest.raises(ValueError, match=r"cannot tell which column is the worker, item, system, rating.*judge_name"):
        rt.read_pilot(odd)
    mapped = rt.read_pilot(odd, columns={"worker": "judge_name", "item": "segment_no", "system": "engine",
                                         "rating": "points"})
    assert rt.fit_pilot(mapped).effect == pytest.approx(plain.effect)


# ---------------------------------------------------------------------------
# analytic Type-M: the SE is estimated (noncentral-t model), not known
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("dof, ncp", [(1.0, 0.5), (2.2, 0.01), (2.2, 2.0), (5.0, 5.0), (30.0, 0.5), (1e3, 2.0),
                                      (1e9, 2.0), (2.2, 50.0)])
def test_analytic_type_m_is_the_noncentral_t_models_by_quadrature(dof, ncp):
    # oracle: adaptive quadrature over u = β̂/SE ~ N(δ, 1) of |u|·P(χ²_ν < ν·u²/c²), the chance that the estimated SE
    # is small enough for u to be significant (Westfall, Kenny & Judd 2014's noncentral t; Gelman & Carlin 2014)
    from core.ratings._model import _t_type_m
    c = stats.t.isf(0.025, dof)
    if dof > 1e6:  # ŝ = SE to double precision: the known-SE closed form
        a, b = c - ncp, -c - ncp
        want = (ncp * (stats.norm.sf(a) - stats.norm.cdf(b)) + stats.norm.pdf(a) + stats.norm.pdf(b)) / (
            stats.norm.sf(a) + stats.norm.cdf(b)) / ncp
    else:
        def weight(u):
            return stats.chi2.cdf(dof * u * u / (c * c), dof) * (stats.norm.pdf(u - ncp) + stats.norm.pdf(u + ncp))
        top = ncp + 15
        num = integrate.quad(lambda u: u * weight(u), 0, top, points=[c], limit=500, epsabs=1e-14)[0]
        den = integrate.quad(weight, 0, top, points=[c], limit=500, epsabs=1e-14)[0]
        want = num / den / ncp
        # the same average gives the power: P(|t| > c) of scipy's noncentral t
        assert den == pytest.approx(stats.nct.sf(c, dof, ncp) + stats.nct.sf(c, dof, -ncp), rel=1e-6)
    assert float(_t_type_m(ncp, dof, c)) == pytest.approx(want, rel=1e-4)


def test_analytic_type_m_at_the_page_default_against_simulation():
    # 3 workers × 100 items (the page's default, ν ≈ 2.2): significant results are often those whose SE came out
    # small. Oracle 1: the noncentral-t model simulated (β̂ ~ N(β, SE²), ŝ² = SE²·χ²_ν/ν); oracle 2: the
    # simulate engine, which fits each replicate's ratings (its Satterthwaite df are themselves approximate, so
    # a looser tolerance). Treating the SE as known said 2.82.
    from core.ratings._model import _eigen, _dfs
    sig = rt.PRESETS["high"]
    res = rt.likert_power(3, 100, 0.1, **sig, rule="satterthwaite", method="analytic")
    lam, df = _eigen(3, 100, sig), _dfs(3, 100)
    lam0 = lam[("D", "W")] + lam[("D", "I")] - lam[("D", "E")]
    nu = lam0**2 / (lam[("D", "W")] ** 2 / df["W"] + lam[("D", "I")] ** 2 / df["I"]
                    + lam[("D", "E")] ** 2 / (2 * df["E"]))
    se = 0.5 * math.sqrt(lam0 / 300)
    rng = np.random.default_rng(5)
    est = rng.normal(0.1, se, 400_000)
    s_hat = se * np.sqrt(rng.chisquare(nu, est.size) / nu)
    sig_ = np.abs(est / s_hat) > stats.t.isf(0.025, nu)
    ratio = np.abs(est[sig_]) / 0.1
    assert res.type_m == pytest.approx(ratio.mean(), abs=4 * ratio.std() / math.sqrt(ratio.size))
    assert res.power == pytest.approx((sig_ & (est > 0)).mean(), abs=4 * math.sqrt(0.16 * 0.84 / est.size))
    sim = rt.likert_power(3, 100, 0.1, **sig, rule="satterthwaite", method="simulate", n_sims=2000, seed=3)
    assert abs(res.type_m - sim.type_m) < 0.2 and res.type_m < 1.7


def test_analytic_grid_type_m_equals_the_point_engine_and_huge_effects_stay_finite():
    sig = rt.PRESETS["high"]
    grid = rt.analytic_grid([3, 10], [50, 100], [0.05, 0.1], **sig)
    for row in grid.itertuples():
        point = rt.likert_power(row.workers, row.items, row.effect, **sig, rule="satterthwaite", method="analytic")
        assert row.type_m == pytest.approx(point.type_m, rel=1e-12)
    # a residual SD of 10⁻⁹ and no slopes: a noncentrality of ≈ 10¹⁰, where scipy's noncentral t returns nan
    tiny = dict(sigma_w0=0.0, sigma_w1=0.0, sigma_i0=0.0, sigma_i1=0.0, sigma=1e-9)
    res = rt.likert_power(3, 100, 0.3, **tiny, rule="satterthwaite", method="analytic")
    assert (res.power, res.type_s) == (1.0, 0.0) and res.type_m == pytest.approx(1.0)
    assert rt.analytic_grid([3], [100], [0.3, -0.3], **tiny)["power"].tolist() == [1.0, 1.0]
    assert 0 < rt.likert_mde(3, 100, **tiny) < 1e-6


@pytest.mark.parametrize("rule", ["paper", "satterthwaite"])
def test_simulated_type_s_and_type_m_are_undefined_at_effect_zero(rule):
    # with no true effect there is no sign to get wrong: the analytic engine says nan, the simulated ones said 0.47
    # (paper rule: the share of t < −1.96 among |t| > 1.96) or 0
    sig = rt.PRESETS["high"]
    res = rt.likert_power(3, 100, 0.0, **sig, rule=rule, n_sims=500, seed=1)
    assert math.isnan(res.type_s) and math.isnan(res.type_m) and 0 <= res.power <= 1
    crowd = rt.crowd_power(10, 100, 3, 0.0, **sig, n_sims=500, seed=1)
    assert math.isnan(crowd.type_s) and math.isnan(crowd.type_m)


def test_missing_sds_are_named():
    for call in (lambda: rt.likert_mde(3, 100, sigma=0.2), lambda: rt.analytic_grid([3], [100], [0.1], sigma=0.2),
                 lambda: rt.crowd_analytic(10, [100], 3, [0.1], sigma=0.2)):
        with pytest.raises(ValueError, match="missing `sigma_w0`, `sigma_w1`, `sigma_i0`, `sigma_i1`"):
            call()
    with pytest.raises(ValueError, match="unknown `sigma_x`"):
        rt.analytic_grid([3], [100], [0.1], **rt.PRESETS["high"], sigma_x=1.0)


def test_read_pilot_names_a_bad_column_map_or_header():
    from core.ratings.pilot import read_pilot
    with pytest.raises(ValueError, match="`columns` must map worker, item, system and rating"):
        read_pilot(b"a,b,c,d\n1,2,3,4\n", columns=["worker"])
    with pytest.raises(ValueError, match="`header` must be one of"):
        read_pilot(b"a,b,c,d\n1,2,3,4\n", header="maybe")

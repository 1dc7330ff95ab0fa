"""Tests of core.llm (LLM benchmark comparisons: resampling, clusters, judges).

Oracles: an independent re-derivation of the closed form (statistics.NormalDist
and numerical integration, explicit cluster lists), the module's own
simulation of the generative model (tolerances from its Monte Carlo standard
errors, fixed seeds), brute-force searches over integer designs, recovery of
known parameters from synthetic logs (tolerances from the estimator's standard
errors), and lm-evaluation-harness-shaped files written with the keys of
``lm_eval/evaluator.py`` (EleutherAI/lm-evaluation-harness).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import statistics
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from core import llm

SAMPLE_DIR = Path(__file__).resolve().parents[1] / "core" / "data" / "llm_sample"
NORMAL = statistics.NormalDist()


# ---------------------------------------------------------------------------
# independent oracle of the closed form
# ---------------------------------------------------------------------------
def oracle(n, mu_a, mu_b, *, sd=0.0, rho=0.0, k=1, m=1, icc=0.0, se=1.0, sp=1.0, alpha=0.05):
    """Power, Type-S, Type-M re-derived: judge moments, explicit cluster sizes, tails integrated numerically."""
    j = se + sp - 1
    star_a = se * mu_a + (1 - sp) * (1 - mu_a)
    star_b = se * mu_b + (1 - sp) * (1 - mu_b)
    sd_star = j * sd
    w_a = star_a * (1 - star_a) - sd_star**2
    w_b = star_b * (1 - star_b) - sd_star**2
    sizes = [m] * (n // m) + ([n % m] if n % m else [])
    pairs = sum(s * (s - 1) for s in sizes)
    # Var(Σ d_i) = Σ_i Var(d_i) + Σ_{i≠j same cluster} Cov = n(τ² + noise) + pairs·icc·τ²
    tau2 = 2 * sd_star**2 * (1 - rho)
    var_mean = (n * (tau2 + (w_a + w_b) / k) + pairs * icc * tau2) / n**2
    s = math.sqrt(var_mean)
    effect = star_b - star_a
    # the t test on G − 1 degrees of freedom (CR1 with few clusters; Cameron & Miller 2015): scipy's noncentral t
    df = len(sizes) - 1
    t_crit = stats.t.isf(alpha / 2, df)
    upper, lower = stats.nct.sf(t_crit, df, effect / s), stats.nct.cdf(-t_crit, df, effect / s)
    if effect == 0:
        return {"power": upper + lower}
    right, wrong = (upper, lower) if effect > 0 else (lower, upper)

    def partial_abs(v):  # E[|d̄|; |d̄| >= t·SE | SE² = s²v/df], normal partial expectations
        c = t_crit * s * math.sqrt(v / df)
        dist = statistics.NormalDist(effect, s)
        above = effect * (1 - dist.cdf(c)) + s * s * dist.pdf(c)
        below = -effect * dist.cdf(-c) + s * s * dist.pdf(-c)
        return above + below

    lo, hi = stats.chi2.ppf(1e-15, df), stats.chi2.isf(1e-15, df)
    e_abs = integrate.quad(lambda v: stats.chi2.pdf(v, df) * partial_abs(v), lo, hi, points=[df], limit=400)[0]
    return {"power": right, "type_s": wrong / (upper + lower), "type_m": e_abs / (upper + lower) / abs(effect)}


CLOSED_FORM_DESIGNS = [
    {"n": 1000, "mu_a": 0.70, "mu_b": 0.73, "sd": 0.25, "rho": 0.6},
    {"n": 500, "mu_a": 0.50, "mu_b": 0.54, "sd": 0.20, "rho": 0.3, "k": 5},
    {"n": 1003, "mu_a": 0.60, "mu_b": 0.64, "sd": 0.30, "rho": 0.7, "k": 3, "m": 10, "icc": 0.4},  # partial last cluster
    {"n": 800, "mu_a": 0.80, "mu_b": 0.83, "sd": 0.15, "rho": 0.5, "k": 2, "se": 0.9, "sp": 0.85},
    {"n": 300, "mu_a": 0.75, "mu_b": 0.70, "sd": 0.10, "rho": 0.2, "k": 4, "m": 3, "icc": 0.2, "se": 0.95, "sp": 0.7},  # B worse
    {"n": 2000, "mu_a": 0.30, "mu_b": 0.30, "sd": 0.20, "rho": 0.5, "k": 2, "m": 5, "icc": 0.5},  # null
]


def _power(design, **extra):
    d = dict(design)
    return llm.benchmark_power(
        d.pop("n"), d.pop("mu_a"), d.pop("mu_b"), difficulty_sd=d.pop("sd", 0.0), correlation=d.pop("rho", 0.0),
        samples=d.pop("k", 1), cluster_size=d.pop("m", 1), icc=d.pop("icc", 0.0),
        judge_sensitivity=d.pop("se", 1.0), judge_specificity=d.pop("sp", 1.0), alpha=d.pop("alpha", 0.05), **extra)


@pytest.mark.parametrize("design", CLOSED_FORM_DESIGNS)
def test_closed_form_matches_independent_derivation(design):
    got = _power(design)
    want = oracle(**design)
    assert got.method == "analytic" and got.mc_se == 0.0 and got.n_sims == 0
    assert got.power == pytest.approx(want["power"], rel=1e-9, abs=1e-12)
    if design["mu_a"] == design["mu_b"]:
        assert math.isnan(got.type_s) and math.isnan(got.type_m)
        assert got.power == pytest.approx(0.05, abs=1e-12)  # the false-positive rate at Δ = 0
    else:
        assert got.type_s == pytest.approx(want["type_s"], rel=1e-6, abs=1e-12)
        assert got.type_m == pytest.approx(want["type_m"], rel=1e-6)


def test_issue_variance_formula_and_miller_assumptions():
    # Var(d̄) = [2σ²(1 − ρ)(1 + (m − 1)icc) + (w_A + w_B)/K]/n, w = μ(1 − μ) − σ²
    n, mu_a, mu_b, sd, rho, k, m, icc = 1200, 0.6, 0.65, 0.2, 0.4, 3, 4, 0.25
    w = [mu * (1 - mu) - sd**2 for mu in (mu_a, mu_b)]
    var = (2 * sd**2 * (1 - rho) * (1 + (m - 1) * icc) + sum(w) / k) / n
    budget = llm.variance_budget(mu_a, mu_b, difficulty_sd=sd, correlation=rho, cluster_size=m, icc=icc,
                                 max_samples=k)
    assert budget[budget.samples == k].variance.sum() / n == pytest.approx(var, rel=1e-12)
    # Miller's stated assumptions: variance 1/12 for each model, correlation 0.5 → paired variance 1/12 (not 1/9)
    uniform = llm.variance_budget(0.5, 0.5, difficulty_sd=math.sqrt(1 / 12), correlation=0.5, max_samples=1)
    assert uniform.loc[uniform.component == "question difficulty", "variance"].item() == pytest.approx(1 / 12)


def test_judge_is_exact_grading_on_the_observed_scale():
    # p* = (1 − Sp) + J p: a judged design equals an exactly graded one with μ* and σ* = Jσ
    se, sp, mu_a, mu_b, sd = 0.85, 0.9, 0.55, 0.6, 0.2
    j = se + sp - 1
    star = [se * mu + (1 - sp) * (1 - mu) for mu in (mu_a, mu_b)]
    judged = llm.benchmark_power(700, mu_a, mu_b, difficulty_sd=sd, correlation=0.4, samples=3, cluster_size=7,
                                 icc=0.1, judge_sensitivity=se, judge_specificity=sp)
    exact = llm.benchmark_power(700, star[0], star[1], difficulty_sd=j * sd, correlation=0.4, samples=3,
                                cluster_size=7, icc=0.1)
    assert judged.power == pytest.approx(exact.power, rel=1e-12)
    assert judged.type_m == pytest.approx(exact.type_m, rel=1e-12)  # Type-M is scale-free
    # mean of significant estimates on the Rogan–Gladen corrected scale
    assert judged.mean_significant == pytest.approx(exact.mean_significant / j, rel=1e-12)


# ---------------------------------------------------------------------------
# simulation vs closed form
# ---------------------------------------------------------------------------
SIM_DESIGNS = [
    {"n": 1000, "mu_a": 0.70, "mu_b": 0.73, "sd": 0.25, "rho": 0.6},
    {"n": 800, "mu_a": 0.50, "mu_b": 0.54, "sd": 0.20, "rho": 0.3, "k": 5},
    {"n": 1200, "mu_a": 0.60, "mu_b": 0.64, "sd": 0.30, "rho": 0.7, "k": 3, "m": 4, "icc": 0.3},
    {"n": 1003, "mu_a": 0.40, "mu_b": 0.435, "sd": 0.25, "rho": 0.5, "k": 2, "m": 10, "icc": 0.5},  # partial cluster
    {"n": 600, "mu_a": 0.80, "mu_b": 0.85, "sd": 0.15, "rho": 0.5, "k": 2, "se": 0.9, "sp": 0.85},  # judge
    {"n": 1000, "mu_a": 0.30, "mu_b": 0.34, "k": 1},  # σ = 0: every question alike
    {"n": 2000, "mu_a": 0.90, "mu_b": 0.915, "sd": 0.25, "rho": 0.8, "k": 20, "m": 10, "icc": 0.4},  # U-shaped Beta, K > 12
    {"n": 900, "mu_a": 0.75, "mu_b": 0.72, "sd": 0.2, "rho": 0.4, "k": 4, "m": 3, "icc": 0.2, "se": 0.95, "sp": 0.8},  # B worse, all on
]


@pytest.mark.parametrize("design", SIM_DESIGNS)
def test_simulation_agrees_with_closed_form(design):
    analytic = _power(design)
    sim = _power(design, method="simulate", n_sims=4000, seed=11)
    assert sim.method == "simulate" and sim.n_sims == 4000
    # SE of the simulated power if the closed form is right
    se = math.sqrt(max(analytic.power * (1 - analytic.power), 1e-3) / 4000)
    assert abs(sim.power - analytic.power) <= 4 * se
    assert sim.mc_se == pytest.approx(math.sqrt(sim.power * (1 - sim.power) / 4000))
    assert abs(sim.type_m - analytic.type_m) <= 4 * sim.type_m_se + 0.01
    assert sim.type_s <= analytic.type_s + 4 * max(sim.type_s_se, 1e-3)


@pytest.mark.parametrize("design", [
    {"n": 1000, "mu_a": 0.7, "mu_b": 0.7, "sd": 0.25, "rho": 0.6, "k": 3, "m": 5, "icc": 0.3},
    {"n": 600, "mu_a": 0.5, "mu_b": 0.5, "sd": 0.2, "rho": 0.2, "k": 1, "se": 0.9, "sp": 0.75},
    {"n": 800, "mu_a": 0.85, "mu_b": 0.85, "sd": 0.2, "rho": 0.7, "k": 8},
])
def test_simulation_is_calibrated_under_the_null(design):
    sim = _power(design, method="simulate", n_sims=4000, seed=5)
    se = math.sqrt(0.05 * 0.95 / 4000)
    assert math.isnan(sim.type_s) and math.isnan(sim.type_m)
    assert sim.power == sim.rejection_rate
    assert sim.rejection_rate <= 0.05 + 3 * se
    assert sim.rejection_rate >= 0.05 - 4 * se


def _batch_se(values_per_batch):
    v = np.asarray(values_per_batch)
    return v.mean(), v.std(ddof=1) / math.sqrt(len(v))


@pytest.mark.parametrize("mu_a, mu_b, sd, rho, icc", [
    (0.6, 0.7, 0.25, 0.6, 0.3),
    (0.9, 0.92, 0.25, 0.8, 0.5),  # U-shaped margins
    (0.3, 0.45, 0.15, -0.3, 0.1),
])
def test_copula_calibration_realizes_the_moments(mu_a, mu_b, sd, rho, icc):
    # The Gaussian copula's latent parameters are calibrated so that the Beta variables themselves
    # have correlation ρ and the differences have ICC icc; check with a large draw (batch-means SEs).
    d = llm._validate(mu_a, mu_b, sd, rho, 1, 2, icc, 1.0, 1.0, 0.05)
    r, kappa = llm._calibrate(mu_a, mu_b, sd, rho, icc)
    rng = np.random.default_rng(1)
    pa, pb = llm._draw_probabilities(rng, 20, 100_000, 2, d, r, kappa)  # 20 batches of 50,000 clusters of 2
    diff = pb - pa
    stats_ = {
        "mean_a": (pa.mean(axis=1), mu_a), "mean_b": (pb.mean(axis=1), mu_b),
        "sd_a": (pa.std(axis=1), sd), "sd_b": (pb.std(axis=1), sd),
        "rho": ([np.corrcoef(a, b)[0, 1] for a, b in zip(pa, pb)], rho),
        "icc": ([np.corrcoef(x[0::2], x[1::2])[0, 1] for x in diff], icc),
    }
    for name, (values, target) in stats_.items():
        mean, se = _batch_se(values)
        assert abs(mean - target) <= 4 * se + 1e-4, name


def test_unreachable_correlation_for_beta_margins_is_a_message():
    # very different Beta shapes cannot be perfectly correlated; the closed form still works
    assert 0 < llm.benchmark_power(500, 0.2, 0.8, difficulty_sd=0.15, correlation=1.0).power <= 1
    with pytest.raises(ValueError, match=r"`correlation` = 1 cannot be reached .*method=\"analytic\""):
        llm.benchmark_power(500, 0.2, 0.8, difficulty_sd=0.15, correlation=1.0, method="simulate", n_sims=100)


def test_simulation_reproducible_and_reports_progress():
    calls = []
    kwargs = {"difficulty_sd": 0.2, "correlation": 0.5, "samples": 3, "method": "simulate", "n_sims": 500, "seed": 9}
    a = llm.benchmark_power(1000, 0.6, 0.63, progress=calls.append, **kwargs)
    b = llm.benchmark_power(1000, 0.6, 0.63, **kwargs)
    assert a == b
    assert len(calls) >= 2 and calls == sorted(calls) and calls[-1] == 1.0


def test_degenerate_designs():
    # no variance at all: every replicate sees the true difference exactly
    r = llm.benchmark_power(10, 1.0, 0.0)  # B always wrong, A always right
    assert (r.power, r.type_s, r.type_m, r.mean_significant) == (1.0, 0.0, 1.0, -1.0)
    sim = llm.benchmark_power(10, 0.0, 1.0, method="simulate", n_sims=100, seed=1)
    assert sim.power == 1.0 and sim.type_m == pytest.approx(1.0)
    same = llm.benchmark_power(10, 1.0, 1.0, method="simulate", n_sims=100, seed=1)
    assert same.rejection_rate == 0.0


# ---------------------------------------------------------------------------
# sample size, MDE, plan
# ---------------------------------------------------------------------------
SIZE_DESIGNS = [
    {"mu_a": 0.70, "mu_b": 0.73, "sd": 0.25, "rho": 0.6, "k": 1, "m": 1, "icc": 0.0},
    {"mu_a": 0.50, "mu_b": 0.56, "sd": 0.20, "rho": 0.3, "k": 5, "m": 4, "icc": 0.3},
    {"mu_a": 0.80, "mu_b": 0.85, "sd": 0.15, "rho": 0.5, "k": 2, "m": 1, "icc": 0.0, "se": 0.9, "sp": 0.85},
    {"mu_a": 0.62, "mu_b": 0.55, "sd": 0.10, "rho": 0.0, "k": 3, "m": 7, "icc": 0.6},
]


def _design_kwargs(design, keys=("sd", "rho", "k", "m", "icc", "se", "sp")):
    names = {"sd": "difficulty_sd", "rho": "correlation", "k": "samples", "m": "cluster_size", "icc": "icc",
                 "se": "judge_sensitivity", "sp": "judge_specificity"}
    return {names[key]: design[key] for key in keys if key in design}


@pytest.mark.parametrize("design", SIZE_DESIGNS)
def test_sample_size_is_the_brute_force_smallest_whole_number_of_clusters(design):
    kwargs = _design_kwargs(design)
    n = llm.benchmark_sample_size(design["mu_a"], design["mu_b"], **kwargs)
    m = design["m"]
    assert n % m == 0 and n >= 2 * m
    # brute force: every whole number of clusters from 2 to well past the answer
    ns = np.arange(2, 3 * n // m + 10) * m
    curve = llm.power_curve(ns, design["mu_a"], design["mu_b"], samples_list=[design["k"]],
                            **_design_kwargs(design, ("sd", "rho", "m", "icc", "se", "sp")))
    reached = curve.power.to_numpy() >= 0.8
    assert n == int(ns[np.argmax(reached)])
    assert reached[np.argmax(reached):].all()  # monotone: first == conservative
    both = llm.benchmark_sample_sizes(design["mu_a"], design["mu_b"], **kwargs)
    assert both.first == both.conservative == n
    assert llm.benchmark_sample_size(design["mu_a"], design["mu_b"], conservative=True, **kwargs) == n


def test_sample_size_limits_and_messages():
    assert llm.benchmark_sample_size(0.5, 0.501, n_max=1000) == -1
    with pytest.raises(ValueError, match="`accuracy_b` must differ"):
        llm.benchmark_sample_size(0.5, 0.5)
    with pytest.raises(ValueError, match="`n_max`"):
        llm.benchmark_sample_size(0.5, 0.6, cluster_size=10, n_max=15)


@pytest.mark.parametrize("design", SIZE_DESIGNS[:3])
def test_mde_is_where_power_crosses_the_target(design):
    n = 1200
    kwargs = _design_kwargs(design, ("sd", "rho", "k", "m", "icc", "se", "sp"))
    mde = llm.benchmark_mde(n, design["mu_a"], target_power=0.8, **kwargs)
    at = llm.benchmark_power(n, design["mu_a"], design["mu_a"] + mde, **kwargs).power
    below = llm.benchmark_power(n, design["mu_a"], design["mu_a"] + mde - 1e-4, **kwargs).power
    assert at == pytest.approx(0.8, abs=1e-7)
    assert below < 0.8
    # and the sample size for that gain is at most n (up to rounding to whole clusters)
    size = llm.benchmark_sample_size(design["mu_a"], design["mu_a"] + mde + 1e-9, **kwargs)
    assert size <= n + design["m"]


def test_mde_unreachable_is_nan():
    assert math.isnan(llm.benchmark_mde(4, 0.5, difficulty_sd=0.3, correlation=0.0))
    assert math.isnan(llm.benchmark_mde(100, 1.0))


@pytest.mark.parametrize("design, costs", [
    (SIZE_DESIGNS[0], (1.0, 0.05)),
    (SIZE_DESIGNS[1], (2.0, 0.3)),
    (SIZE_DESIGNS[2], (0.5, 0.01)),
    (SIZE_DESIGNS[3], (5.0, 1.0)),
])
def test_plan_matches_brute_force_over_integer_designs(design, costs):
    max_k = 20
    plan = llm.benchmark_plan(design["mu_a"], design["mu_b"], cost_question=costs[0], cost_sample=costs[1],
                              max_samples=max_k, **_design_kwargs(design, ("sd", "rho", "m", "icc", "se", "sp")))
    m = design["m"]
    upper = int(plan.curve.n_questions.max())
    ns = np.arange(2, upper // m + 3) * m
    grid = llm.power_curve(ns, design["mu_a"], design["mu_b"], samples_list=range(1, max_k + 1),
                           **_design_kwargs(design, ("sd", "rho", "m", "icc", "se", "sp")))
    ok = grid[grid.power >= 0.8].copy()
    ok["cost"] = ok.n_questions * (costs[0] + 2 * ok.samples * costs[1])
    best = ok.sort_values(["cost", "samples"], kind="stable").iloc[0]
    assert plan.cost == pytest.approx(best.cost, rel=1e-12)
    assert (plan.n_questions, plan.samples) == (int(best.n_questions), int(best.samples))
    assert plan.power >= 0.8
    # the curve holds the cheapest n at each K (= benchmark_sample_size with samples=K)
    per_k = ok.groupby("samples").n_questions.min()
    assert plan.curve.set_index("samples").n_questions.to_dict() == per_k.to_dict()
    for k in (1, 7, 20):
        assert per_k[k] == llm.benchmark_sample_size(design["mu_a"], design["mu_b"], samples=k,
                                                     **_design_kwargs(design, ("sd", "rho", "m", "icc", "se",
                                                                               "sp")))
    assert list(plan.curve.columns) == ["samples", "n_questions", "cost", "power"]


def test_plan_costs():
    free_answers = llm.benchmark_plan(0.7, 0.73, difficulty_sd=0.25, correlation=0.6, cost_question=1.0,
                                      cost_sample=0.0, max_samples=30)
    curve = free_answers.curve
    assert free_answers.cost == curve.cost.min()
    assert free_answers.samples == int(curve.samples[curve.cost == curve.cost.min()].min())  # ties: smaller K
    with pytest.raises(ValueError, match="`cost_question` and `cost_sample` cannot both be 0"):
        llm.benchmark_plan(0.7, 0.73, cost_question=0, cost_sample=0)
    with pytest.raises(ValueError, match="`cost_sample`"):
        llm.benchmark_plan(0.7, 0.73, cost_question=1, cost_sample=-1)
    unreachable = llm.benchmark_plan(0.5, 0.5001, cost_question=1, cost_sample=1, max_samples=3, n_max=1000)
    assert unreachable.n_questions == -1 and math.isnan(unreachable.cost)
    assert (unreachable.curve.n_questions == -1).all()


# ---------------------------------------------------------------------------
# curves
# ---------------------------------------------------------------------------
def test_power_curve_matches_pointwise_power():
    ns = [100, 333, 1000, 5000]
    curve = llm.power_curve(ns, 0.6, 0.63, difficulty_sd=0.2, correlation=0.5, cluster_size=3, icc=0.2,
                            judge_sensitivity=0.9, judge_specificity=0.9)
    assert list(curve.columns) == ["samples", "n_questions", "power", "type_s", "type_m", "rejection_rate"]
    assert sorted(curve.samples.unique()) == [1, 2, 5, 10]
    for row in curve.itertuples():
        r = llm.benchmark_power(row.n_questions, 0.6, 0.63, difficulty_sd=0.2, correlation=0.5,
                                samples=row.samples, cluster_size=3, icc=0.2, judge_sensitivity=0.9,
                                judge_specificity=0.9)
        assert (row.power, row.type_s, row.type_m) == pytest.approx((r.power, r.type_s, r.type_m), rel=1e-12)


def test_variance_budget_shows_where_samples_stop_helping():
    b = llm.variance_budget(0.7, 0.73, difficulty_sd=0.25, correlation=0.6, cluster_size=5, icc=0.2,
                            judge_sensitivity=0.9, judge_specificity=0.8, max_samples=10)
    assert list(b.columns) == ["samples", "component", "variance", "share", "total"]
    wide = b.pivot(index="samples", columns="component", values="variance")
    assert np.allclose(wide.sum(axis=1), b.groupby("samples").total.first())
    assert np.allclose(b.groupby("samples").share.sum(), 1.0)
    # difficulty and clustering do not depend on K; sampling noise falls as 1/K
    assert wide["question difficulty"].nunique() == 1 and wide["clustering"].nunique() == 1
    assert np.allclose(wide["sampling noise"] * wide.index, wide["sampling noise"].iloc[0])
    assert wide["clustering"].iloc[0] == pytest.approx(wide["question difficulty"].iloc[0] * 4 * 0.2)
    # total/n on the corrected scale = the closed form's variance / J²
    j = 0.7
    n = 1000
    want = oracle(n, 0.7, 0.73, sd=0.25, rho=0.6, k=3, m=5, icc=0.2, se=0.9, sp=0.8)
    res = llm.benchmark_power(n, 0.7, 0.73, difficulty_sd=0.25, correlation=0.6, samples=3, cluster_size=5,
                              icc=0.2, judge_sensitivity=0.9, judge_specificity=0.8)
    s = j * math.sqrt(b[b.samples == 3].total.iloc[0] / n)
    power = stats.nct.sf(stats.t.isf(0.025, n // 5 - 1), n // 5 - 1, j * 0.03 / s)  # t test on G − 1 = 199 df
    assert power == pytest.approx(want["power"], rel=1e-9)
    assert res.power == pytest.approx(power, rel=1e-9)


def test_judge_curve():
    c = llm.judge_curve([200, 1000, 4000], 0.7, 0.75, judge_sensitivity=0.9, judge_specificity=0.8,
                        difficulty_sd=0.2, correlation=0.5, samples=2)
    exact, judged = c[c.grading == "exact"], c[c.grading == "judge"]
    assert (judged.power.to_numpy() < exact.power.to_numpy()).all()
    direct = llm.power_curve([200, 1000, 4000], 0.7, 0.75, samples_list=[2], difficulty_sd=0.2, correlation=0.5)
    assert np.allclose(exact.power, direct.power)
    with pytest.raises(ValueError, match="`judge_sensitivity` \\+ `judge_specificity` must exceed 1"):
        llm.judge_curve([200], 0.7, 0.75, judge_sensitivity=0.5, judge_specificity=0.5)


def _median_time(fn, repeat=5):
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def test_speed_of_page_computations():
    ns = np.unique(np.geomspace(50, 20_000, 120).astype(int))
    design = {"difficulty_sd": 0.25, "correlation": 0.6, "cluster_size": 1, "icc": 0.0}
    curves = {
        "power_curve": lambda: llm.power_curve(ns, 0.7, 0.73, **design),
        "variance_budget": lambda: llm.variance_budget(0.7, 0.73, difficulty_sd=0.25, correlation=0.6,
                                                       max_samples=50),
        "judge_curve": lambda: llm.judge_curve(ns, 0.7, 0.73, judge_sensitivity=0.9, judge_specificity=0.8,
                                               **design),
        "plan": lambda: llm.benchmark_plan(0.7, 0.73, cost_question=1, cost_sample=0.05, max_samples=50, **design),
        "sample_size": lambda: llm.benchmark_sample_sizes(0.7, 0.73, samples=5, **design),
        "mde": lambda: llm.benchmark_mde(1000, 0.7, samples=5, **design),
    }
    for name, fn in curves.items():
        assert _median_time(fn) <= 0.05, name
    point = _median_time(lambda: llm.benchmark_power(1000, 0.7, 0.73, samples=5, method="simulate", n_sims=2000,
                                                     seed=1, **design), repeat=3)
    assert point <= 1.0


# ---------------------------------------------------------------------------
# validation messages
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, pattern", [
    ({"difficulty_sd": 0.47}, r"`difficulty_sd` must satisfy difficulty_sd² <= accuracy × \(1 − accuracy\)"),
    ({"samples": 0}, r"`samples` must be between 1"),
    ({"icc": 1.5}, r"`icc` must be in \[0, 1\]"),
    ({"icc": -0.1}, r"`icc` must be in \[0, 1\]"),
    ({"correlation": 1.2}, r"`correlation` must be in \[-1, 1\]"),
    ({"judge_sensitivity": 0.6, "judge_specificity": 0.4}, r"`judge_sensitivity` \+ `judge_specificity` must exceed 1"),
    ({"cluster_size": 1000}, r"`n_questions` must give at least 2 clusters"),
    ({"alpha": 0.6}, r"`alpha` must be in \(0, 0.5\]"),
    ({"method": "bootstrap"}, r"`method` must be one of"),
    ({"method": "simulate", "n_sims": 10}, r"`n_sims` must be between 100"),
    ({"cluster_size": 0}, r"`cluster_size` must be between 1"),
])
def test_out_of_range_arguments_name_the_parameter(kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        llm.benchmark_power(1000, 0.8, 0.82, **kwargs)


def test_more_messages():
    with pytest.raises(ValueError, match="`accuracy_a` must be in"):
        llm.benchmark_power(100, 1.2, 0.5)
    with pytest.raises(ValueError, match="`n_questions` must be between 2"):
        llm.benchmark_power(1, 0.5, 0.6)
    with pytest.raises(ValueError, match="`target_power` must be in"):
        llm.benchmark_mde(100, 0.5, target_power=1.0)
    with pytest.raises(ValueError, match="`samples` must be between 1"):
        llm.power_curve([100], 0.5, 0.6, samples_list=[0])
    with pytest.raises(ValueError, match="`difficulty_sd` must satisfy"):
        llm.benchmark_power(100, 0.99, 0.5, difficulty_sd=0.2)


# ---------------------------------------------------------------------------
# fitting logs
# ---------------------------------------------------------------------------
TRUE = {"accuracy_a": 0.60, "accuracy_b": 0.66, "difficulty_sd": 0.22, "correlation": 0.55, "icc": 0.3}


def test_fit_recovers_known_parameters_from_a_large_clustered_log():
    log = llm.simulate_benchmark_log(6000, TRUE["accuracy_a"], TRUE["accuracy_b"], difficulty_sd=0.22,
                                     correlation=0.55, samples=4, cluster_size=5, icc=0.3, seed=21,
                                     models=("base", "new"))
    fit = llm.fit_benchmark(log, n_boot=300, seed=2)
    assert fit.models == ("base", "new") and fit.samples == 4 and fit.cluster_size == 5
    assert fit.n_questions == 6000 and fit.n_clusters == 1200 and fit.notes == ()
    estimates = {"accuracy_a": fit.accuracy["base"], "accuracy_b": fit.accuracy["new"],
                 "difficulty_sd": fit.difficulty_sd, "correlation": fit.correlation, "icc": fit.icc}
    for key, value in estimates.items():
        assert 0 < fit.se[key] < 0.1, key
        assert abs(value - TRUE[key]) <= 4 * fit.se[key], key
    assert abs(fit.delta - 0.06) <= 4 * fit.delta_se
    assert fit.design() == {"accuracy_a": fit.accuracy["base"], "accuracy_b": fit.accuracy["new"], "samples": 4,
                            "cluster_size": 5, "difficulty_sd": fit.difficulty_sd,
                            "correlation": fit.correlation, "icc": fit.icc}
    llm.benchmark_power(1000, **fit.design())  # the fitted design is a valid input


def test_fit_is_unbiased_and_its_standard_errors_are_calibrated():
    # 40 independent logs: the mean estimate is within 4 SE(mean) of the truth, and the bootstrap
    # (and CR1) standard errors match the spread of the estimates across logs
    keys = ("difficulty_sd", "correlation", "icc", "accuracy_b")
    est, ses, deltas, delta_ses = {k: [] for k in keys}, {k: [] for k in keys}, [], []
    for rep in range(40):
        log = llm.simulate_benchmark_log(1200, 0.60, 0.66, difficulty_sd=0.22, correlation=0.55, samples=3,
                                         cluster_size=4, icc=0.3, seed=1000 + rep)
        fit = llm.fit_benchmark(log, n_boot=200, seed=rep)
        values = {"difficulty_sd": fit.difficulty_sd, "correlation": fit.correlation, "icc": fit.icc,
                  "accuracy_b": fit.accuracy["B"]}
        for k in keys:
            est[k].append(values[k])
            ses[k].append(fit.se[k])
        deltas.append(fit.delta)
        delta_ses.append(fit.delta_se)
    for k in keys:
        values = np.asarray(est[k])
        spread = values.std(ddof=1)
        assert abs(values.mean() - TRUE[k]) <= 4 * spread / math.sqrt(40), k
        assert 0.7 <= np.mean(ses[k]) / spread <= 1.4, k
    assert 0.7 <= np.mean(delta_ses) / np.std(deltas, ddof=1) <= 1.4


def test_fit_with_judge_correction():
    se, sp = 0.9, 0.8
    log = llm.simulate_benchmark_log(5000, 0.6, 0.65, difficulty_sd=0.2, correlation=0.5, samples=4,
                                     judge_sensitivity=se, judge_specificity=sp, seed=8)
    raw = llm.fit_benchmark(log, n_boot=200)
    fit = llm.fit_benchmark(log, judge_sensitivity=se, judge_specificity=sp, n_boot=200)
    j = se + sp - 1
    # observed scale: μ* = Se μ + (1 − Sp)(1 − μ), σ* = Jσ
    assert abs(raw.accuracy["A"] - (se * 0.6 + (1 - sp) * 0.4)) <= 4 * raw.se["accuracy_a"]
    assert abs(raw.difficulty_sd - j * 0.2) <= 4 * raw.se["difficulty_sd"]
    # corrected scale
    assert abs(fit.accuracy["A"] - 0.6) <= 4 * fit.se["accuracy_a"]
    assert abs(fit.difficulty_sd - 0.2) <= 4 * fit.se["difficulty_sd"]
    assert abs(fit.delta - 0.05) <= 4 * fit.delta_se
    assert fit.correlation == pytest.approx(raw.correlation, abs=1e-9)
    assert any("Rogan–Gladen" in note for note in fit.notes)


def test_fit_with_one_answer_per_question_does_not_invent_the_spread():
    log = llm.simulate_benchmark_log(4000, 0.6, 0.65, difficulty_sd=0.2, correlation=0.5, samples=1,
                                     cluster_size=4, icc=0.3, seed=3)
    fit = llm.fit_benchmark(log, n_boot=100)
    assert fit.difficulty_sd is None and fit.correlation is None and fit.icc is None
    assert any("cannot be separated" in note for note in fit.notes)
    assert "difficulty_sd" not in fit.design() and fit.design()["samples"] == 1
    # the covariance ρσ² is identified from single answers
    assert abs(fit.covariance - 0.5 * 0.2**2) <= 0.004
    assert math.isnan(fit.se["difficulty_sd"])


def test_fit_notes_when_both_models_have_the_same_log():
    # the same file uploaded for both models: a gain of exactly 0 with SE 0, which the fit must not pass off silently
    log = llm.simulate_benchmark_log(200, 0.6, 0.7, difficulty_sd=0.2, correlation=0.5, samples=3, seed=4)
    a = log[log.model == "A"]
    twice = pd.concat([a, a.assign(model="B")], ignore_index=True)
    fit = llm.fit_benchmark(twice, n_boot=0)
    assert fit.delta == 0.0 and fit.delta_se == 0.0
    assert any("the same on every one of the 200 questions" in note for note in fit.notes)
    # one answer changed: two models, not one log twice
    flipped = twice.copy()
    last = flipped.index[-1]
    flipped.loc[last, "score"] = 1 - flipped.loc[last, "score"]
    assert not any("the same on every" in note for note in llm.fit_benchmark(flipped, n_boot=0).notes)
    assert not any("the same on every" in note for note in llm.fit_benchmark(log, n_boot=0).notes)


def test_fit_handles_unpaired_questions_baseline_choice_and_bad_frames():
    log = llm.simulate_benchmark_log(300, 0.6, 0.7, difficulty_sd=0.2, correlation=0.5, samples=2, seed=1)
    partial = log[~((log.question == "q00007") & (log.model == "B"))]
    fit = llm.fit_benchmark(partial, n_boot=0)
    assert fit.n_questions == 299 and any("only by A" in n for n in fit.notes)
    assert math.isnan(fit.se["delta"])
    swapped = llm.fit_benchmark(log, baseline="B", n_boot=0)
    assert swapped.models == ("B", "A") and swapped.delta == pytest.approx(-llm.fit_benchmark(log, n_boot=0).delta)
    with pytest.raises(ValueError, match="`baseline` must be one of"):
        llm.fit_benchmark(log, baseline="C")
    three = pd.concat([log, log.assign(model="C")])
    with pytest.raises(ValueError, match="exactly two models .* it has 3: 'A', 'B', 'C'"):
        llm.fit_benchmark(three)
    bad = log.copy()
    bad.loc[5, "score"] = 1.5
    with pytest.raises(ValueError, match="row 5: `score` must be a number in \\[0, 1\\]"):
        llm.fit_benchmark(bad)
    clustered = log.assign(cluster=np.where(log.model == "A", "c1", "c2"))
    with pytest.raises(ValueError, match="appears in more than one cluster"):
        llm.fit_benchmark(clustered)
    with pytest.raises(ValueError, match="lacks the column"):
        llm.fit_benchmark(log.drop(columns="score"))
    with pytest.raises(ValueError, match="At least 3 questions"):
        llm.fit_benchmark(log[log.question.isin(["q00000", "q00001"])])


# ---------------------------------------------------------------------------
# reading tidy logs
# ---------------------------------------------------------------------------
def test_read_csv_round_trip_and_jsonl():
    log = llm.simulate_benchmark_log(200, 0.6, 0.7, difficulty_sd=0.2, correlation=0.5, samples=3, cluster_size=4,
                                     icc=0.2, seed=4)
    data = log.to_csv(index=False).encode()
    back = llm.read_benchmark_log(data)
    assert list(back.columns) == ["question", "cluster", "model", "sample", "score"]
    assert back.score.tolist() == log.score.tolist()
    a, b = llm.fit_benchmark(log, n_boot=0), llm.fit_benchmark(back, n_boot=0)
    assert (a.difficulty_sd, a.correlation, a.icc) == pytest.approx((b.difficulty_sd, b.correlation, b.icc))
    lines = [json.dumps({"Question": r.question, "Model": r.model, "Correct": bool(r.score), "Cluster": r.cluster})
             for r in log.itertuples()]
    from_json = llm.read_benchmark_log(("\n".join(lines) + "\n").encode())
    assert from_json.score.tolist() == log.score.tolist()
    assert from_json["sample"].tolist() == log["sample"].tolist()  # numbered in file order
    tsv = llm.read_benchmark_log(b"doc_id\tsystem\tis_correct\n1\tA\tTRUE\n1\tB\t0.5\n")
    assert tsv.score.tolist() == [1.0, 0.5]


@pytest.mark.parametrize("data, pattern", [
    (b"question,model\nq1,A\n", r"needs the column\(s\) score"),
    (b"question,model,score\nq1,A,1\nq2,A,maybe\n", r"row 2 after the header: `score` must be a number in \[0, 1\]"),
    (b"question,model,score\nq1,A,1\nq2,A,1.5\n", r"row 2 after the header: `score`"),
    (b"question,model,score\nq1,A,1\n,A,1\n", r"row 2 after the header: `question` is empty"),
    (b"question,model,score\nq1,A,1,7\n", r"row 2 has 4 fields but row 1 has 3"),
    (b"question,model,sample,score\nq1,A,0,1\nq1,A,0,0\n", r"row 1 after the header and row 2 after the header"),
    (b"question,question_id,model,score\nq1,1,A,1\n", r"both 'question' and 'question_id'"),
    (b'{"question": "q1", "model": "A", "score": 1}\n{"question": "q2", "model": "A"}\n', r"record 2: no `score`"),
    (b'{"question": "q1", "model": "A", "score": 1}\n{"question": "q2", "model": "A", "score": [1]}\n',
     r"record 2: `score` must be a single value"),
    (b'{"question": "q1", "model": "A", "score": 1}\n{"question": \n', r"line 2: not valid JSON"),
    (b"\x00\x01binary", r"binary file"),
    (b"question,cluster,model,score\nq1,c1,A,1\nq1,c2,B,1\n", r"question 'q1' appears in more than one cluster"),
])
def test_malformed_logs_get_a_message(data, pattern):
    with pytest.raises(ValueError, match=pattern):
        llm.read_benchmark_log(data)


def test_reading_a_large_log_is_linear():
    rng = np.random.default_rng(0)
    rows = 200_000
    frame = pd.DataFrame({"question": np.repeat(np.arange(rows // 10), 10), "model": np.tile(["A", "B"], rows // 2),
                          "score": rng.integers(0, 2, rows)})
    small = frame.iloc[: rows // 4].to_csv(index=False).encode()
    big = frame.to_csv(index=False).encode()
    t_small = _median_time(lambda: llm.read_benchmark_log(small), repeat=1)
    t_big = _median_time(lambda: llm.read_benchmark_log(big), repeat=1)
    assert t_big <= 8 * t_small + 0.5  # 4× the data, far from quadratic
    assert t_big * 20e6 / len(big) < 30  # a 20 MB file in seconds


# ---------------------------------------------------------------------------
# lm-evaluation-harness --log_samples files
# ---------------------------------------------------------------------------
def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def harness_mc_line(doc_id: int, correct: bool, correct_norm: bool, *, filter_name: str = "none") -> dict:
    """A multiple-choice line as lm_eval/evaluator.py logs it (then evaluation_tracker sanitizes it)."""
    doc = {"question": f"Synthetic question {doc_id}?", "choices": ["red", "green", "blue", "yellow"], "answer": 2}
    ctx = f"Question: Synthetic question {doc_id}?\nAnswer:"
    lls = [[f"{-2.5 - i + (3 if (i == 2) == correct else 0):.4f}", "False"] for i in range(4)]
    return {
        "doc_id": doc_id,
        "doc": doc,
        "target": "2",
        "arguments": {f"gen_args_{i}": {"arg_0": ctx, "arg_1": f" {c}"} for i, c in enumerate(doc["choices"])},
        "resps": [[ll] for ll in lls],
        "filtered_resps": lls,
        "filter": filter_name,
        "metrics": ["acc", "acc_norm"],
        "doc_hash": _sha(json.dumps(doc, indent=2, ensure_ascii=False)),
        "prompt_hash": _sha(ctx),
        "target_hash": _sha("2"),
        "acc": 1.0 if correct else 0.0,
        "acc_norm": 1.0 if correct_norm else 0.0,
    }


def harness_gen_line(doc_id: int, correct: bool, filter_name: str) -> dict:
    """A generate_until line (GSM8K-style, several filter pipelines → one line per filter)."""
    doc = {"question": f"What is {doc_id} + 17?", "answer": f"#### {doc_id + 17}"}
    prompt = f"Question: {doc['question']}\nAnswer:"
    answer = str(doc_id + 17 if correct else doc_id + 18)
    return {
        "doc_id": doc_id, "doc": doc, "target": doc["answer"],
        "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["Question:"], "do_sample": False}}},
        "resps": [[f"{doc_id} + 17 = {answer}. The answer is {answer}."]], "filtered_resps": [answer],
        "filter": filter_name, "metrics": ["exact_match"], "doc_hash": _sha(json.dumps(doc, indent=2)),
        "prompt_hash": _sha(prompt), "target_hash": _sha(doc["answer"]), "exact_match": 1.0 if correct else 0.0,
    }


def _jsonl(lines) -> bytes:
    return ("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n").encode()


def test_harness_multiple_choice_files():
    rng = np.random.default_rng(2)
    n = 400
    correct_a, correct_b = rng.random(n) < 0.6, rng.random(n) < 0.7
    file_a = _jsonl(harness_mc_line(i, bool(c), bool(c)) for i, c in enumerate(correct_a))
    file_b = _jsonl(harness_mc_line(i, bool(c), not c) for i, c in enumerate(correct_b))
    files = {"pythia-1b": file_a, "pythia-2.8b": ("samples_hellaswag_2024-06-01T10-00-00.123456.jsonl", file_b)}
    opts = llm.harness_options(files)
    assert opts.metrics == ("acc", "acc_norm") and opts.filters == ("none",) and opts.n_lines == 2 * n
    with pytest.raises(ValueError, match=r"Several per-sample metrics could be the score \('acc', 'acc_norm'\)"):
        llm.read_harness_samples(files)
    log = llm.read_harness_samples(files, metric="acc")
    assert list(log.columns) == ["question", "model", "sample", "score"]
    assert log.attrs["metric"] == "acc" and log.attrs["filter"] == "none"
    assert log[log.model == "pythia-1b"].score.tolist() == correct_a.astype(float).tolist()
    fit = llm.fit_benchmark(log, n_boot=0)
    assert fit.models == ("pythia-1b", "pythia-2.8b") and fit.samples == 1
    assert fit.delta == pytest.approx(correct_b.mean() - correct_a.mean())
    norm = llm.read_harness_samples(files, metric="acc_norm")
    assert norm[norm.model == "pythia-2.8b"].score.tolist() == (~correct_b).astype(float).tolist()


def test_harness_samples_with_raw_line_separators_inside_strings():
    # the harness writes samples with ensure_ascii=False, so a U+2028 or U+2029 in a question stays raw in the line
    lines = [harness_mc_line(i, i % 2 == 0, True) for i in range(6)]
    lines[2]["doc"] = {"question": "Line one\u2028line two\u2029and \x85three"}
    data = _jsonl(lines)
    assert "\u2028".encode() in data
    log = llm.read_harness_samples({"a": data, "b": data}, metric="acc")
    assert len(log) == 12 and log[log.model == "a"].score.tolist() == [1.0, 0.0] * 3


def test_harness_filters_runs_and_mismatched_documents():
    def run(p, seed, ids):
        rng = np.random.default_rng(seed)
        right = rng.random(len(ids)) < p
        return _jsonl(line for i, c in zip(ids, right) for line in
                      (harness_gen_line(i, bool(c), "strict-match"), harness_gen_line(i, True, "flexible-extract")))

    ids_a, ids_b = list(range(300)), list(range(5, 305))  # 5 documents only in A's, 5 only in B's files
    files = [("base", run(0.5, 1, ids_a)), ("base", run(0.5, 2, ids_a)),
             ("new", run(0.6, 3, ids_b)), ("new", run(0.6, 4, ids_b))]
    with pytest.raises(ValueError, match=r"several filter pipelines \('strict-match', 'flexible-extract'\)"):
        llm.read_harness_samples(files)
    with pytest.raises(ValueError, match="`filter` 'maj@8' is not in the files"):
        llm.read_harness_samples(files, filter="maj@8")
    log = llm.read_harness_samples(files, filter="strict-match")
    assert log.attrs["metric"] == "exact_match"
    assert sorted(log["sample"].unique()) == [0, 1]  # two runs per model = two samples per question
    fit = llm.fit_benchmark(log, n_boot=0)
    assert fit.samples == 2 and fit.n_questions == 295
    assert any("10 question(s) answered by only one model" in note for note in fit.notes)
    flexible = llm.read_harness_samples(files, filter="flexible-extract")
    assert flexible.score.eq(1.0).all()


def test_harness_tasks_become_clusters_and_doc_hash_mismatch_is_noted():
    def task_file(task, p, seed, *, shift=0):
        rng = np.random.default_rng(seed)
        lines = [harness_mc_line(i + shift, bool(c), bool(c)) for i, c in enumerate(rng.random(40) < p)]
        for line in lines:
            line["doc_id"] -= shift
        return (f"samples_mmlu_{task}_2024-06-01T10-00-00.123456.jsonl", _jsonl(lines))

    tasks = ["anatomy", "astronomy", "virology", "sociology"]
    files = {"base": [task_file(t, 0.5, s) for s, t in enumerate(tasks)],
             "new": [task_file(t, 0.6, 10 + s, shift=1 if t == "virology" else 0) for s, t in enumerate(tasks)]}
    log = llm.read_harness_samples(files, metric="acc", files_per_model="tasks")
    assert list(log.columns) == ["question", "cluster", "model", "sample", "score"]
    assert set(log.cluster) == {f"mmlu_{t}" for t in tasks}
    assert log.question.iloc[0] == "mmlu_anatomy/0"
    assert any("doc_hash differs between the models for 40 of 160" in note for note in log.attrs["notes"])
    fit = llm.fit_benchmark(log, n_boot=0)
    assert fit.n_clusters == 4 and fit.cluster_size == 40
    dup = {"base": [files["base"][0], files["base"][0]], "new": files["new"][:2]}
    with pytest.raises(ValueError, match="both task 'mmlu_anatomy'"):
        llm.read_harness_samples(dup, metric="acc", files_per_model="tasks")


@pytest.mark.parametrize("mutate, pattern", [
    (lambda lines: lines.insert(3, "{not json"), r"`a.jsonl`, line 4: not valid JSON"),
    (lambda lines: lines.__setitem__(2, lines[2].replace('"acc": 1.0', '"acc": "yes"').replace(
        '"acc": 0.0', '"acc": "no"')), r"`a.jsonl`, line 3: `acc` is '(yes|no)'; expected a number in \[0, 1\]"),
    (lambda lines: lines.__setitem__(1, json.dumps({**json.loads(lines[1]), "acc": [0.5, 1]})),
     r"line 2: `acc` is \[0.5, 1\]"),
    (lambda lines: lines.__setitem__(4, json.dumps({k: v for k, v in json.loads(lines[4]).items() if k != "acc"})),
     r"line 5: no `acc` field \(metric fields on that line: acc_norm\)"),
    (lambda lines: lines.__setitem__(0, json.dumps({k: v for k, v in json.loads(lines[0]).items()
                                                    if k != "doc_id"})), r"line 1: no `doc_id` field"),
    (lambda lines: lines.__setitem__(6, lines[5]), r"doc_id 5 appears twice for filter 'none' \(lines 6 and 7\)"),
    (lambda lines: lines.insert(2, ""), r"`a.jsonl`, line 4: `acc` is"),  # blank lines do not shift line numbers
])
def test_malformed_harness_files_name_file_and_line(mutate, pattern):
    lines = [json.dumps(harness_mc_line(i, i % 2 == 0, True)) for i in range(10)]
    if "line 4: `acc` is" in pattern:
        lines[2] = lines[2].replace('"acc": 1.0', '"acc": 2.0')
    mutate(lines)
    bad = ("\n".join(lines) + "\n").encode()
    good = _jsonl(harness_mc_line(i, True, True) for i in range(10))
    with pytest.raises(ValueError, match=pattern):
        llm.read_harness_samples([("base", "a.jsonl", bad), ("new", "b.jsonl", good)], metric="acc")


def test_harness_input_shapes():
    good = _jsonl(harness_mc_line(i, True, True) for i in range(5))
    with pytest.raises(ValueError, match="exactly two models"):
        llm.read_harness_samples({"only": good}, metric="acc")
    with pytest.raises(ValueError, match=r"must be \(model, bytes\)"):
        llm.read_harness_samples([good, good])
    with pytest.raises(ValueError, match="`files_per_model` must be one of"):
        llm.read_harness_samples({"a": good, "b": good}, files_per_model="seeds")
    plain = [json.dumps({"doc_id": i, "acc": 1.0, "perplexity": 12.5, "bleu": ["ref", "hyp"]}) for i in range(3)]
    old = ("\n".join(plain)).encode()  # an old file without `filter`/`metrics`: only `acc` qualifies
    log = llm.read_harness_samples({"a": old, "b": old})
    assert log.attrs["metric"] == "acc" and log.attrs["filter"] == "none"


# ---------------------------------------------------------------------------
# the shipped synthetic example
# ---------------------------------------------------------------------------
def make_sample_files() -> dict[str, bytes]:
    """Deterministically generate every file of core/data/llm_sample (path relative to it → bytes).

    Regenerate with: .venv/bin/python -c "from tests.test_llm import write_sample_data; write_sample_data()"
    """
    out = {}
    log = llm.simulate_benchmark_log(300, 0.62, 0.67, difficulty_sd=0.22, correlation=0.6, samples=5,
                                     cluster_size=5, icc=0.3, models=("synthetic-baseline", "synthetic-candidate"),
                                     seed=20241101)
    log["score"] = log["score"].astype(int)
    buffer = io.StringIO()
    log.to_csv(buffer, index=False, lineterminator="\n")
    out["benchmark_log.csv"] = buffer.getvalue().encode()

    # lm-evaluation-harness-shaped: a generate_until task, 2 runs (temperature 0.7) per model
    harness = llm.simulate_benchmark_log(150, 0.55, 0.62, difficulty_sd=0.25, correlation=0.6, samples=2,
                                         models=("synthetic-baseline", "synthetic-candidate"), seed=7)
    dates = ["2025-01-01T10-00-00.000000", "2025-01-01T11-00-00.000000"]
    for model in ("synthetic-baseline", "synthetic-candidate"):
        for run in (0, 1):
            rows = harness[(harness.model == model) & (harness["sample"] == run)]
            lines = []
            for doc_id, right in enumerate(rows.score.to_numpy() == 1.0):
                a, b = 3 + (doc_id * 7) % 89, 11 + (doc_id * 13) % 97
                doc = {"question": f"(synthetic) What is {a} + {b}?", "answer": f"{a} + {b} = {a + b}. #### {a + b}"}
                prompt = f"Question: {doc['question']}\nAnswer:"
                said = a + b if right else a + b + 1 + (doc_id + run) % 9
                target = doc["answer"]
                lines.append({
                    "doc_id": doc_id, "doc": doc, "target": target,
                    "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {
                        "until": ["Question:", "\n\n"], "do_sample": True, "temperature": 0.7}}},
                    "resps": [[f"{a} + {b} = {said}. #### {said}"]], "filtered_resps": [str(said)],
                    "filter": "strict-match", "metrics": ["exact_match"],
                    "doc_hash": _sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                    "prompt_hash": _sha(prompt), "target_hash": _sha(target),
                    "exact_match": 1.0 if right else 0.0,
                })
            out[f"harness/{model}/samples_synthetic_arith_{dates[run]}.jsonl"] = _jsonl(lines)
    return out


def write_sample_data(directory: Path = SAMPLE_DIR) -> None:
    for relative, data in make_sample_files().items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def test_shipped_sample_data_is_reproducible_and_labelled():
    for relative, data in make_sample_files().items():
        assert (SAMPLE_DIR / relative).read_bytes() == data, relative
    readme = (SAMPLE_DIR / "README.txt").read_text()
    assert "synthetic" in readme.lower() and "not real" in readme.lower()


def test_sample_data_worked_example():
    fit = llm.fit_benchmark(llm.sample_log(), n_boot=200)
    assert fit.models == ("synthetic-baseline", "synthetic-candidate")
    assert fit.samples == 5 and fit.cluster_size == 5 and fit.n_questions == 300 and fit.n_clusters == 60
    truth = {"difficulty_sd": 0.22, "correlation": 0.6, "icc": 0.3}
    for key, value in truth.items():
        assert abs(getattr(fit, key) - value) <= 4 * fit.se[key], key
    files = llm.sample_harness_files()
    assert [f[0] for f in files] == ["synthetic-baseline"] * 2 + ["synthetic-candidate"] * 2
    log = llm.read_harness_samples(files)
    assert log.attrs["metric"] == "exact_match" and log.attrs["filter"] == "strict-match"
    hfit = llm.fit_benchmark(log, n_boot=0)
    assert hfit.samples == 2 and hfit.n_questions == 150 and hfit.difficulty_sd is not None


def test_simulation_work_is_capped_with_what_to_reduce():
    # a link with 10⁷ questions and the simulation on ran for minutes; now refused up front
    with pytest.raises(ValueError, match=r"`n_sims` × `n_questions` = 2,000 × 100,000 .*reduce `n_sims` to at most 100\b"):
        llm.benchmark_power(100_000, 0.7, 0.73, method="simulate", n_sims=2000)
    with pytest.raises(ValueError, match=r"reduce `n_questions` to at most 100,000"):
        llm.benchmark_power(10_000_000, 0.7, 0.73, method="simulate", n_sims=500)
    at_cap = llm.benchmark_power(100_000, 0.7, 0.701, method="simulate", n_sims=100, seed=2)
    assert at_cap.n_sims == 100 and 0 <= at_cap.power <= 1


@pytest.mark.parametrize("clusters", [5, 10, 40])
def test_few_clusters_hold_the_level(clusters):
    """The CR1 z test over-rejects with few clusters (8% at G = 10 in this model); the t test on G − 1 degrees of
    freedom holds α. Analytic: exactly α (the central t). Simulation of the generative model (Beta difficulties,
    binomial answers): within 4 MC SE of α, or below it."""
    design = dict(difficulty_sd=0.25, correlation=0.6, cluster_size=10, icc=0.3)
    n = clusters * 10
    assert llm.benchmark_power(n, 0.7, 0.7, **design).power == pytest.approx(0.05, abs=1e-9)
    sims = 20_000
    sim = llm.benchmark_power(n, 0.7, 0.7, **design, method="simulate", n_sims=sims, seed=11)
    assert sim.power <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / sims)
    assert sim.power >= 0.035  # not a test that never rejects


def test_few_clusters_power_matches_simulation():
    """Power and Type-M of the t test at G = 10 clusters against the simulated CR1 t test (4 MC SE)."""
    design = dict(difficulty_sd=0.2, correlation=0.5, cluster_size=10, icc=0.1, samples=3)
    exact = llm.benchmark_power(100, 0.6, 0.7, **design)
    sim = llm.benchmark_power(100, 0.6, 0.7, **design, method="simulate", n_sims=40_000, seed=5)
    assert abs(exact.power - sim.power) <= 4 * sim.mc_se + 0.01  # + the normal-theory approximation
    assert abs(exact.type_m - sim.type_m) <= 4 * sim.type_m_se + 0.02


def test_nothing_significant_has_no_mean():
    """Two models with identical per-question probabilities (ρ = 1, K = 1, σ at its limit): nothing can be
    significant, so the mean of significant estimates is undefined (nan), not 0."""
    r = llm.benchmark_power(100, 0.5, 0.5, difficulty_sd=0.5, correlation=1.0)
    assert r.rejection_rate == 0.0 and math.isnan(r.mean_significant)


def test_plan_cost_ties_go_to_the_smaller_k(monkeypatch):
    """Designs of 33 questions × 1 answer and 11 × 3 cost 19.8 each (0.3 per answer, two models): the documented
    rule gives K = 1, although 11 · 1.8 is one bit below 33 · 0.6 in floating point (the z test's sizes for
    95% vs 70%, where this was found)."""
    monkeypatch.setattr(llm.sizing, "_clusters_needed", lambda d, ks, target, g_max: np.array([33, 17, 11])[: ks.size])
    plan = llm.benchmark_plan(0.95, 0.70, cost_question=0.0, cost_sample=0.3, max_samples=3)
    assert 11 * (2 * 3 * 0.3) < 33 * (2 * 1 * 0.3)  # the floating-point order that misled the old rule
    assert (plan.samples, plan.n_questions) == (1, 33) and plan.cost == pytest.approx(19.8)


@pytest.mark.parametrize("clusters", [2, 3, 10, 50, 51, 400, 10**6])
def test_t_test_tails_match_scipy(clusters):
    """The quadrature over the standard error against scipy's central and noncentral t on G − 1 df."""
    df = clusters - 1
    crit = stats.t.isf(0.025, df)
    ncp = np.array([0.0, 0.7, 2.5, 6.0])
    right, wrong, _, _ = llm._t_tails(ncp, 1.0, clusters, 0.05)
    assert np.allclose(right, stats.nct.sf(crit, df, ncp), atol=1e-9, rtol=0)
    assert np.allclose(wrong, stats.nct.cdf(-crit, df, ncp), atol=1e-9, rtol=0)


def test_unreachable_correlation_names_attainable_bounds():
    """The refusal names bounds that are attainable: rounded inward, so the printed upper bound simulates."""
    import re

    design = dict(difficulty_sd=0.3, method="simulate", n_sims=100, seed=0)
    with pytest.raises(ValueError, match="`correlation`") as err:
        llm.benchmark_power(100, 0.7, 0.75, correlation=1.0, **design)
    low, high = map(float, re.search(r"attainable: (-?[\d.]+) to (-?[\d.]+)", str(err.value)).groups())
    assert high < 1.0
    for rho in (low, high):
        assert 0.0 <= llm.benchmark_power(100, 0.7, 0.75, correlation=rho, **design).power <= 1.0


def test_harness_pretty_printed_json_array_and_unnamed_filters():
    # harness 0.4.0–0.4.2 wrote samples as one pretty-printed JSON array; some files repeat each doc_id once per
    # filter pipeline (strict-match, then flexible-extract) without a `filter` key
    rng = np.random.default_rng(12)
    n = 30
    strict_a, flex_a = rng.random(n) < 0.4, rng.random(n) < 0.6
    strict_b, flex_b = rng.random(n) < 0.5, rng.random(n) < 0.7

    def lines(strict, flex):
        out = []
        for i in range(n):
            for ok, name in ((strict[i], "strict-match"), (flex[i], "flexible-extract")):
                line = harness_gen_line(i, bool(ok), name)
                del line["filter"]
                out.append(line)
        return out

    file_a = json.dumps(lines(strict_a, flex_a), indent=2).encode()  # a .json array
    file_b = _jsonl(lines(strict_b, flex_b))
    files = {"base": ("samples_gsm8k_2024-01-01.json", file_a), "new": ("samples_gsm8k_2024-01-01.jsonl", file_b)}
    assert llm.harness_options(files).filters == ("pipeline 1", "pipeline 2")
    with pytest.raises(ValueError, match="several filter pipelines"):
        llm.read_harness_samples(files)
    log = llm.read_harness_samples(files, filter="pipeline 2")
    assert log[log.model == "base"].score.tolist() == flex_a.astype(float).tolist()
    assert log[log.model == "new"].score.tolist() == flex_b.astype(float).tolist()
    first = llm.read_harness_samples(files, filter="pipeline 1")
    assert first[first.model == "base"].score.tolist() == strict_a.astype(float).tolist()


def test_one_answer_per_question_sets_sigma_and_rho_with_the_observed_covariance():
    # K = 1: Var(p̂_B − p̂_A) = μ_A(1 − μ_A) + μ_B(1 − μ_B) − 2ρσ², so only ρσ² is identified
    sd, rho = llm.difficulty_from_covariance(0.03, 0.7, 0.75, prefer_sd=0.25)
    assert (sd, rho) == (0.2, 0.75) and rho * sd**2 == pytest.approx(0.03)
    same = llm.benchmark_power(2000, 0.7, 0.75, difficulty_sd=sd, correlation=rho).power
    other = llm.benchmark_power(2000, 0.7, 0.75, difficulty_sd=math.sqrt(0.03 / 0.3), correlation=0.3).power
    assert same == pytest.approx(other, rel=1e-9)  # any pair with the same product plans the same K = 1 study
    # oracle: the t test's power with that variance (scipy's noncentral t on n − 1 df)
    var = 0.7 * 0.3 + 0.75 * 0.25 - 2 * 0.03
    ncp = 0.05 / math.sqrt(var / 2000)
    oracle = stats.nct.sf(stats.t.isf(0.025, 1999), 1999, ncp)
    assert same == pytest.approx(oracle, abs=1e-7)
    # the product is matched as closely as the grids allow, σ near the user's value among ties
    for cov in (0.0, 0.0123, -0.01, 0.08):
        sd, rho = llm.difficulty_from_covariance(cov, 0.6, 0.65, prefer_sd=0.1)
        assert abs(rho * sd**2 - cov) <= 0.0025 and -0.5 <= rho <= 1.0 and sd**2 <= 0.6 * 0.4
    assert llm.difficulty_from_covariance(0.0, 0.6, 0.65, prefer_sd=0.1)[0] == 0.1


def test_read_benchmark_log_takes_a_columns_mapping():
    data = b"prompt_id,system_name,judge_says\nq1,A,1\nq2,A,0\nq1,B,true\nq2,B,0\n"
    with pytest.raises(ValueError, match="needs the column"):
        llm.read_benchmark_log(data)
    mapped = llm.read_benchmark_log(data, columns={"question": "prompt_id", "model": "system_name",
                                                   "score": "judge_says"})
    plain = llm.read_benchmark_log(b"question,model,score\nq1,A,1\nq2,A,0\nq1,B,true\nq2,B,0\n")
    pd.testing.assert_frame_equal(mapped, plain)
    jsonl = b'{"prompt_id": "q1", "system_name": "A", "judge_says": 1}\n{"prompt_id": "q1", "system_name": "B", ' \
            b'"judge_says": 0}\n'
    assert llm.read_benchmark_log(jsonl, columns={"question": "prompt_id", "model": "system_name",
                                                  "score": "judge_says"}).score.tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match=r"has no column 'nope' \(for score\)"):
        llm.read_benchmark_log(data, columns={"question": "prompt_id", "model": "system_name", "score": "nope"})
    with pytest.raises(ValueError, match="unknown role 'x'"):
        llm.read_benchmark_log(data, columns={"x": "prompt_id"})

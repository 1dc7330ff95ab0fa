"""Prompts, samples and seeds (core.llm.facets) against independent oracles.

Oracles: the covariance matrix of the linear model written out cell by cell (Var(D̂) = 1ᵀΣ1/N²), scipy's normal
distribution and numerical integration, a simulation of whole data sets with the ANOVA computed here from
scratch, a brute-force search over every whole-number design, statsmodels' crossed REML, and the scores written
into the harness test files.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from core import llm

COMPS = dict(var_template=1e-4, var_item=0.05, var_item_template=0.03, var_sample=0.25)
DATA = Path(__file__).parent / "data" / "harness_templates"


# ---------------------------------------------------------------------------
# the closed form
# ---------------------------------------------------------------------------
def covariance_variance(n, t, k, vt, vi, vit, vs):
    """Var of the mean of all n·T·K cells from the model's full covariance matrix (no formula used)."""
    q, tt, _ = [a.ravel() for a in np.meshgrid(np.arange(n), np.arange(t), np.arange(k), indexing="ij")]
    same_q = q[:, None] == q[None, :]
    same_t = tt[:, None] == tt[None, :]
    cov = vt * same_t + vi * same_q + vit * (same_q & same_t) + vs * np.eye(len(q))
    return cov.sum() / len(q) ** 2


@pytest.mark.parametrize("n, t, k", [(1, 1, 1), (7, 3, 2), (12, 1, 4), (5, 6, 1)])
def test_facet_se_matches_the_covariance_matrix(n, t, k):
    comps = dict(var_template=0.003, var_item=0.04, var_item_template=0.02, var_sample=0.2)
    direct = covariance_variance(n, t, k, *comps.values())
    assert llm.facet_se(n, templates=t, samples=k, **comps) ** 2 == pytest.approx(direct, rel=1e-12)


def test_seeds_add_twice_the_seed_variance_over_s():
    # D̂ gets mean(seed effects of B) − mean(seed effects of A): Var = var_seed·cᵀc with c = (1/S, …, −1/S, …);
    # and the S seed models' answers are K·S independent answers per question and template
    s, vseed, k = 4, 2e-4, 2
    c = np.r_[np.full(s, 1 / s), np.full(s, -1 / s)]
    pooled = llm.facet_se(100, templates=2, samples=k * s, **COMPS) ** 2
    with_seeds = llm.facet_se(100, templates=2, samples=k, seeds=s, var_seed=vseed, **COMPS) ** 2
    assert with_seeds - pooled == pytest.approx(vseed * c @ c, rel=1e-12)


def test_se_with_seeds_against_a_simulation_of_every_seed_model():
    """Two recipes × S seed models, each answering n questions × T templates × K samples with fresh sampling noise;
    the question and template effects are the recipes' own (shared by their seeds). Oracle: the SD of D̂ over
    4,000 simulated evaluations (SE of an SD ≈ SD/√(2·4,000)). The formula used to leave the sampling term
    undivided by S (0.0320 against 0.0246 here)."""
    rng = np.random.default_rng(0)
    n, t, k, s, vseed = 200, 2, 1, 3, 0.007 ** 2
    comps = dict(var_template=1e-4, var_item=0.22 ** 2, var_item_template=0.17 ** 2, var_sample=0.5 ** 2)
    reps = 4000
    shared = (rng.normal(0, math.sqrt(comps["var_template"]), (reps, t)).mean(axis=1)
              + rng.normal(0, math.sqrt(comps["var_item"]), (reps, n)).mean(axis=1)
              + rng.normal(0, math.sqrt(comps["var_item_template"]), (reps, n * t)).mean(axis=1))
    # each of the 2S models: its seed effect plus the mean of its n·T·K answers' noise (half the pair's variance)
    runs = (rng.normal(0, math.sqrt(vseed), (reps, 2, s))
            + rng.normal(0, math.sqrt(comps["var_sample"] / 2 / (n * t * k)), (reps, 2, s)))
    d_hat = shared + runs[:, 1].mean(axis=1) - runs[:, 0].mean(axis=1)
    sd = d_hat.std(ddof=1)
    se = llm.facet_se(n, templates=t, samples=k, seeds=s, var_seed=vseed, **comps)
    assert se == pytest.approx(sd, abs=4 * sd / math.sqrt(2 * reps))


@pytest.mark.parametrize("delta", [0.02, -0.015, 0.0])
def test_analytic_power_type_s_type_m_against_scipy(delta):
    res = llm.facet_power(800, delta, templates=3, samples=2, **COMPS, alpha=0.05)
    se = llm.facet_se(800, templates=3, samples=2, **COMPS)
    z = stats.norm.ppf(0.975)
    hi, lo = stats.norm.sf(z - delta / se), stats.norm.cdf(-z - delta / se)
    assert res.rejection_rate == pytest.approx(hi + lo, abs=1e-12)
    assert isinstance(res, llm.FacetPower) and res.mc_se == 0 and res.df == math.inf
    if delta == 0:
        assert res.power == pytest.approx(0.05, abs=1e-12)
        return
    right, wrong = (hi, lo) if delta > 0 else (lo, hi)
    assert res.power == pytest.approx(right, abs=1e-12)
    assert res.type_s == pytest.approx(wrong / (hi + lo), rel=1e-9)
    dens = stats.norm(delta, se).pdf
    mass = integrate.quad(lambda x: abs(x) * dens(x), z * se, np.inf)[0] + \
        integrate.quad(lambda x: abs(x) * dens(x), -np.inf, -z * se)[0]
    assert res.type_m == pytest.approx(mass / (hi + lo) / abs(delta), rel=1e-6)


def test_ceiling_is_the_limit_and_more_questions_never_pass_it():
    ceiling = llm.facet_ceiling(0.02, templates=1, var_template=1e-4)
    assert ceiling == pytest.approx(stats.norm.cdf(0.02 / 0.01 - stats.norm.ppf(0.975)), abs=1e-12)
    powers = [llm.facet_power(n, 0.02, **COMPS).power for n in (100, 10_000, 1_000_000, 10_000_000)]
    assert all(p < ceiling for p in powers) and powers == sorted(powers)
    assert powers[-1] == pytest.approx(ceiling, abs=2e-3)
    assert llm.facet_ceiling(0.02, templates=10, var_template=1e-4) > 0.99
    assert llm.facet_ceiling(0.0, templates=3, var_template=1e-4) == 0.05


def test_teaser_states_the_ceiling():
    ceiling = llm.facet_ceiling(0.02, templates=1, var_template=llm.FACET_DEFAULTS["var_template"])
    assert llm.facets.teaser() == (f"With one prompt template, no number of questions gets past "
                                   f"{100 * ceiling:.0f}% power for +2 points.")


@pytest.mark.parametrize("bad, name", [(dict(n=0), "`n`"), (dict(templates=0), "`templates`"),
                                       (dict(var_item=-0.1), "`var_item`"), (dict(alpha=0.7), "`alpha`"),
                                       (dict(method="exact"), "`method`"), (dict(delta=2.0), "`delta`")])
def test_bad_input_names_the_parameter(bad, name):
    kw = dict(n=100, delta=0.02, **COMPS) | bad
    with pytest.raises(ValueError, match=name):
        llm.facet_power(kw.pop("n"), kw.pop("delta"), **kw)


# ---------------------------------------------------------------------------
# the simulation: the test a user runs on the data
# ---------------------------------------------------------------------------
def brute_force_power(n, t, k, delta, comps, alpha, reps, seed):
    """Whole data sets d_itk, the ANOVA written out here, the Satterthwaite t test; rejections and signs.

    With K = 1 the question × template mean square is the residual; with T = 1 the user's test is the paired t test
    over questions (their data cannot show a template term).
    """
    rng = np.random.default_rng(seed)
    vt, vi, vit, vs = comps.values()
    d = (delta + rng.normal(0, math.sqrt(vt), (reps, 1, t, 1)) + rng.normal(0, math.sqrt(vi), (reps, n, 1, 1))
         + rng.normal(0, math.sqrt(vit), (reps, n, t, 1)) + rng.normal(0, math.sqrt(vs), (reps, n, t, k)))
    grand = d.mean(axis=(1, 2, 3))
    cell = d.mean(axis=3)
    qm, tm = cell.mean(axis=2), cell.mean(axis=1)
    big = n * t * k
    if t == 1 and k == 1:
        var = ((qm - grand[:, None]) ** 2).sum(axis=1) / (n - 1) / n
        df = np.full(reps, n - 1.0)
    else:
        ss_t = n * k * ((tm - grand[:, None]) ** 2).sum(axis=1)
        ss_i = t * k * ((qm - grand[:, None]) ** 2).sum(axis=1)
        ss_it = k * ((cell - qm[:, :, None] - tm[:, None, :] + grand[:, None, None]) ** 2).sum(axis=(1, 2))
        ss_e = ((d - cell[..., None]) ** 2).sum(axis=(1, 2, 3))
        ms_i = ss_i / (n - 1)
        if t == 1:  # K > 1: items (with their template-specific part) against the samples
            ms_e = ss_e / (n * (k - 1))
            s_i = np.maximum((ms_i - ms_e) / k, 0)
            var = s_i / n + ms_e / big
            pi = ms_i > ms_e
            parts = [(pi * ms_i / big, n - 1), ((1.0 - pi) * ms_e / big, n * (k - 1))]
        else:
            ms_t, ms_it = ss_t / (t - 1), ss_it / ((n - 1) * (t - 1))
            # components truncated at zero, plugged into Var(D̂) = σ²_t/T + σ²_i/n + σ²_it/(nT) + σ²_e/(nTK)
            s_t = np.maximum((ms_t - ms_it) / (n * k), 0)
            s_i = np.maximum((ms_i - ms_it) / (t * k), 0)
            pt, pi = ms_t > ms_it, ms_i > ms_it
            if k > 1:
                ms_e = ss_e / (n * t * (k - 1))
                s_it = np.maximum((ms_it - ms_e) / k, 0)
                var = s_t / t + s_i / n + s_it / (n * t) + ms_e / big
                pit = ms_it > ms_e
                parts = [(pt * ms_t / big, t - 1), (pi * ms_i / big, n - 1),
                         ((pit * 1.0 - pt - pi) * ms_it / big, (n - 1) * (t - 1)),
                         ((1.0 - pit) * ms_e / big, n * t * (k - 1))]
            else:  # the residual holds question × template and sample
                var = s_t / t + s_i / n + ms_it / (n * t)
                parts = [(pt * ms_t / big, t - 1), (pi * ms_i / big, n - 1),
                         ((1.0 - pt - pi) * ms_it / big, (n - 1) * (t - 1))]
        # Satterthwaite: Var̂ written as Σ c_j MS_j (the coefficients of the positive components)
        assert np.allclose(sum(p for p, _ in parts), var)
        df = var ** 2 / sum(p ** 2 / f for p, f in parts)
    sig = np.abs(grand / np.sqrt(var)) > stats.t.ppf(1 - alpha / 2, df)
    right = sig & (np.sign(grand) == np.sign(delta)) if delta else sig
    return right.mean(), df


@pytest.mark.parametrize("delta, n, t, k", [(0.08, 20, 4, 2), (0.0, 20, 4, 2), (0.08, 25, 3, 1), (0.0, 30, 1, 1),
                                            (0.06, 15, 1, 3)])
def test_simulation_matches_whole_data_sets(delta, n, t, k):
    comps = dict(var_template=0.004, var_item=0.05, var_item_template=0.03, var_sample=0.2)
    reps = 6000
    oracle, oracle_df = brute_force_power(n, t, k, delta, comps, 0.05, reps, seed=11)
    res = llm.facet_power(n, delta, templates=t, samples=k, **comps, method="simulate", n_sims=reps, seed=5)
    tol = 4 * math.sqrt(res.mc_se ** 2 + oracle * (1 - oracle) / reps)
    assert abs(res.power - oracle) <= tol, (res.power, oracle, tol)
    assert res.df_median == pytest.approx(np.median(oracle_df), rel=0.1, abs=0.5)
    if delta == 0 and t > 1:  # null calibration of the Satterthwaite test
        assert res.power <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps)
    if delta == 0 and t == 1:  # one template: the template draw looks like a gain to the user's test
        assert res.power > 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps)


def test_degrees_of_freedom_collapse_when_templates_dominate():
    res = llm.facet_power(10_000, 0.02, templates=3, **COMPS, method="simulate", n_sims=4000, seed=3)
    assert res.df_median < 3.5  # Satterthwaite's df near T − 1 = 2
    few = llm.facet_power(300, 0.02, templates=3, **COMPS, method="simulate", n_sims=4000, seed=3)
    assert few.df_median > 20 * res.df_median
    # the t test with those df loses power against the z test with known components
    analytic = llm.facet_power(10_000, 0.02, templates=3, **COMPS)
    assert res.power < analytic.power - 8 * res.mc_se


def test_one_template_hides_the_template_variance_from_the_users_test():
    # the user's data cannot show the model × template term: their paired t test over-rejects at Δ = 0
    res = llm.facet_power(5000, 0.0, templates=1, **COMPS, method="simulate", n_sims=5000, seed=2)
    se_test = math.sqrt(llm.facet_se(5000, **(COMPS | {"var_template": 0.0})) ** 2)
    oracle = 2 * stats.norm.sf(stats.norm.ppf(0.975) * se_test / llm.facet_se(5000, **COMPS))
    assert res.power > 0.05 + 6 * res.mc_se
    assert res.power == pytest.approx(oracle, abs=4 * res.mc_se + 0.005)


def brute_force_recipes(n, t, k, seeds, delta, comps, alpha, reps, seed):
    """Power of the recipe test computed from whole data sets: every answer of every seed model drawn (recipe
    effects per template, question and cell with half of each difference component; a seed effect per run; answer
    noise var_sample/2), then the analysis of the docstring — ANOVA of the seed-averaged cell differences, the noise
    from each recipe's answers around cell + seed, the seed term from the runs' spread within each recipe."""
    rng = np.random.default_rng(seed)
    vt, vi, vit, vs, vseed = (comps[c] for c in ("var_template", "var_item", "var_item_template", "var_sample",
                                                 "var_seed"))
    out, dfs = [], []
    big = n * t
    for _ in range(reps // 1000):
        r = 1000
        y = (rng.normal(0, math.sqrt(vt / 2), (r, 2, 1, 1, t, 1)) + rng.normal(0, math.sqrt(vi / 2), (r, 2, 1, n, 1, 1))
             + rng.normal(0, math.sqrt(vit / 2), (r, 2, 1, n, t, 1)) + rng.normal(0, math.sqrt(vseed), (r, 2, seeds, 1, 1, 1))
             + rng.normal(0, math.sqrt(vs / 2), (r, 2, seeds, n, t, k)))
        y[:, 0] += delta
        d = y.mean(axis=(2, 5))[:, 0] - y.mean(axis=(2, 5))[:, 1]
        grand = d.mean(axis=(1, 2))
        qm, tm = d.mean(axis=2), d.mean(axis=1)
        ms_i = t * ((qm - grand[:, None]) ** 2).sum(axis=1) / (n - 1)
        resid = (y - y.mean(axis=(2, 5), keepdims=True) - y.mean(axis=(3, 4, 5), keepdims=True)
                 + y.mean(axis=(2, 3, 4, 5), keepdims=True))
        df_e = 2 * (n * t * (seeds * k - 1) - (seeds - 1))
        ms_e = (resid ** 2).sum(axis=(1, 2, 3, 4, 5)) / df_e
        noise = 2 * ms_e / (k * seeds)
        runs = y.mean(axis=(3, 4, 5)).reshape(r, 2, seeds)
        ms_s = ((runs - runs.mean(axis=2, keepdims=True)) ** 2).sum(axis=(1, 2)) / (2 * (seeds - 1))
        if t > 1:
            ms_t = n * ((tm - grand[:, None]) ** 2).sum(axis=1) / (t - 1)
            ms_it = ((d - qm[:, :, None] - tm[:, None, :] + grand[:, None, None]) ** 2).sum(axis=(1, 2)) / (
                (n - 1) * (t - 1))
            s_t, s_i = np.maximum(ms_t - ms_it, 0) / n, np.maximum(ms_i - ms_it, 0) / t
            s_it = np.maximum(ms_it - noise, 0)
            var = s_t / t + s_i / n + s_it / big + 2 * ms_s / seeds
            pt, pi, pit = ms_t > ms_it, ms_i > ms_it, ms_it > noise
            parts = [(pt * ms_t / big, t - 1), (pi * ms_i / big, n - 1),
                     ((pit * 1.0 - pt - pi) * ms_it / big, (n - 1) * (t - 1)),
                     (-1.0 * pit * 2 / (k * seeds) / big * ms_e, df_e), (2 * ms_s / seeds, 2 * (seeds - 1))]
        else:
            var = np.maximum(ms_i - noise, 0) / n + 2 * ms_s / seeds
            pi = ms_i > noise
            parts = [(pi * ms_i / big, n - 1), (-1.0 * pi * 2 / (k * seeds) / big * ms_e, df_e),
                     (2 * ms_s / seeds, 2 * (seeds - 1))]
        assert np.allclose(sum(p for p, _ in parts), var)
        df = var ** 2 / sum(p ** 2 / f for p, f in parts)
        sig = np.abs(grand / np.sqrt(var)) > stats.t.ppf(1 - alpha / 2, df)
        out.append(sig & (np.sign(grand) == np.sign(delta)) if delta else sig)
        dfs.append(df)
    return np.concatenate(out).mean(), np.concatenate(dfs)


@pytest.mark.parametrize("delta, n, t, k, seeds", [(0.05, 40, 3, 2, 3), (0.0, 40, 3, 2, 3), (0.05, 30, 1, 1, 4),
                                                   (0.06, 20, 4, 1, 2)])
def test_recipe_simulation_matches_whole_data_sets(delta, n, t, k, seeds):
    """Two training recipes with S seed models each: the sufficient-statistic simulation against whole data sets.
    (It once drew the seeds' mean square without the runs' own sampling noise and added the seed term to a variance
    that already held it: 33% power where whole data sets gave 22–30%.)"""
    comps = dict(var_template=0.002, var_item=0.01, var_item_template=0.005, var_sample=0.2, var_seed=0.001)
    reps = 6000
    oracle, oracle_df = brute_force_recipes(n, t, k, seeds, delta, comps, 0.05, reps, seed=13)
    res = llm.facet_power(n, delta, templates=t, samples=k, seeds=seeds, **comps, method="simulate", n_sims=reps,
                          seed=7)
    tol = 4 * math.sqrt(res.mc_se ** 2 + oracle * (1 - oracle) / reps)
    assert abs(res.power - oracle) <= tol, (res.power, oracle, tol)
    assert res.df_median == pytest.approx(np.median(oracle_df), rel=0.1, abs=0.5)
    if delta == 0 and t > 1:  # the recipe test keeps its level
        assert res.power <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps)


def test_simulation_is_seeded_and_seeds_are_estimated():
    kw = dict(templates=3, samples=2, seeds=3, var_seed=1e-4, **COMPS, method="simulate", n_sims=2000)
    a, b = llm.facet_power(500, 0.03, **kw, seed=9), llm.facet_power(500, 0.03, **kw, seed=9)
    assert a == b and 0 <= a.power <= 1 and a.mc_se > 0
    with pytest.raises(ValueError, match="`seeds`"):
        llm.facet_power(500, 0.03, **(kw | {"seeds": 1}))


# ---------------------------------------------------------------------------
# the best split of a budget, against brute force
# ---------------------------------------------------------------------------
def brute_plan(delta, calls, comps, max_t, target=None, cap=None, alpha=0.05):
    z = stats.norm.ppf(1 - alpha / 2)
    best = None
    for t in range(1, max_t + 1):
        for k in range(1, calls + 1):
            for n in range(1, calls // (t * k) + 1):
                if cap is not None and n > cap:
                    break
                se = llm.facet_se(n, templates=t, samples=k, **comps)
                power = stats.norm.cdf(abs(delta) / se - z)
                used = n * t * k
                if target is None:
                    key = (round(se, 13), -n, used)
                elif power >= target - 1e-12:
                    key = (used, round(se, 13), -n)
                else:
                    continue
                if best is None or key < best[0]:
                    best = (key, n, t, k, se, power)
    return best


@pytest.mark.parametrize("calls, cap, target", [(60, None, None), (97, None, None), (120, 10, None),
                                                (150, 7, None), (400, None, 0.5), (300, 40, 0.3),
                                                (300, 12, 0.3)])
def test_plan_is_the_brute_force_optimum(calls, cap, target):
    comps = dict(var_template=0.004, var_item=0.05, var_item_template=0.03, var_sample=0.25)
    plan = llm.facet_plan(0.1, calls=calls, **comps, max_templates=8, target_power=target, max_questions=cap)
    best = brute_plan(0.1, calls, comps, 8, target, cap)
    if best is None:  # no design within the budget reaches the target: the plan says so
        assert not plan.reached and plan.power < target
        return
    assert plan.reached
    _, n, t, k, se, power = best
    assert (plan.n, plan.templates, plan.samples) == (n, t, k)
    assert plan.se == pytest.approx(se, rel=1e-12) and plan.power == pytest.approx(power, rel=1e-9)
    assert plan.calls == n * t * k <= calls and plan.cost == pytest.approx(2 * plan.calls)


def test_plan_with_only_template_variance_keeps_questions_not_samples():
    """Only the template term: the SE is √(var_template/T) whatever n and K; every K ties, and the plan takes one
    sample and all the questions the budget buys at the largest T (it took the fewest calls: 1 question × 999
    samples). Oracle: the closed form and the brute force."""
    comps = dict(var_template=0.004, var_item=0.0, var_item_template=0.0, var_sample=0.0)
    plan = llm.facet_plan(0.05, calls=1000, **comps, max_templates=8)
    assert (plan.templates, plan.samples, plan.n) == (8, 1, 1000 // 8)
    assert plan.se == pytest.approx(math.sqrt(0.004 / 8), rel=1e-12)
    _, n, t, k, _, _ = brute_plan(0.05, 1000, comps, 8, None, None)
    assert (n, t, k) == (plan.n, plan.templates, plan.samples)


@pytest.mark.parametrize("calls, comps, best", [
    (338, dict(var_template=0.01, var_item=0.0, var_item_template=0.0, var_sample=0.04), (7, 48, 1)),
    (11_000, dict(var_template=0.002, var_item=0.0, var_item_template=0.0, var_sample=0.04), (220, 50, 1))])
def test_plan_ties_in_floating_point_still_keep_questions(calls, comps, best):
    """No question variance: the SE depends on n·K only, and splits with the same product differ in the last bits
    of their SE; they tie, and the one with more questions wins (it took 1 question × 7 samples)."""
    plan = llm.facet_plan(0.05, calls=calls, **comps)
    assert (plan.n, plan.templates, plan.samples) == best
    t = best[1]
    assert plan.se == pytest.approx(math.sqrt(comps["var_template"] / t + comps["var_sample"] / (best[0] * t)),
                                    rel=1e-12)


def test_plan_without_a_question_cap_uses_one_sample_and_says_when_out_of_reach():
    plan = llm.facet_plan(0.02, calls=20_000, **COMPS)
    assert plan.samples == 1 and plan.templates > 1
    # the continuous optimum T* = √(calls·var_template/var_item) (var_item dominates the per-question terms here)
    assert abs(plan.templates - math.sqrt(20_000 * 1e-4 / 0.05)) <= 3
    out = llm.facet_plan(0.02, calls=500, **COMPS, target_power=0.9)
    assert not out.reached and out.power < 0.9
    assert out.n * out.templates * out.samples <= 500


# ---------------------------------------------------------------------------
# fitting the components from a log
# ---------------------------------------------------------------------------
def simulated_log(n, t, k, comps, delta=0.03, seed=0):
    rng = np.random.default_rng(seed)
    vt, vi, vit, vs = comps.values()
    d = (delta + rng.normal(0, math.sqrt(vt), (1, t, 1)) + rng.normal(0, math.sqrt(vi), (n, 1, 1))
         + rng.normal(0, math.sqrt(vit), (n, t, 1)) + rng.normal(0, math.sqrt(vs), (n, t, k)))
    q, tt, kk = [a.ravel() for a in np.meshgrid(np.arange(n), np.arange(t), np.arange(k), indexing="ij")]
    base = rng.normal(0.5, 0.1, q.size)
    a = pd.DataFrame({"model": "old", "question": q, "prompt_id": tt, "sample": kk, "score": base})
    b = pd.DataFrame({"model": "new", "question": q, "prompt_id": tt, "sample": kk, "score": base + d.ravel()})
    return pd.concat([a, b], ignore_index=True).sample(frac=1.0, random_state=1), d


def test_balanced_fit_is_the_anova_by_hand():
    comps = dict(var_template=0.01, var_item=0.05, var_item_template=0.02, var_sample=0.1)
    log, d = simulated_log(30, 4, 3, comps)
    fit = llm.fit_facets(log)
    n, t, k = d.shape
    # expected mean squares by hand (groupby sums of squares, a different route from the module's)
    tidy = pd.DataFrame({"q": np.repeat(np.arange(n), t * k), "t": np.tile(np.repeat(np.arange(t), k), n),
                         "d": d.ravel()})
    g = tidy["d"].mean()
    ss_q = t * k * ((tidy.groupby("q")["d"].mean() - g) ** 2).sum()
    ss_t = n * k * ((tidy.groupby("t")["d"].mean() - g) ** 2).sum()
    cells = tidy.groupby(["q", "t"])["d"].transform("mean")
    ss_e = ((tidy["d"] - cells) ** 2).sum()
    ss_qt = ((tidy["d"] - g) ** 2).sum() - ss_q - ss_t - ss_e
    ms_q, ms_t, ms_qt, ms_e = ss_q / (n - 1), ss_t / (t - 1), ss_qt / ((n - 1) * (t - 1)), ss_e / (n * t * (k - 1))
    assert fit.method == "anova" and (fit.n, fit.templates, fit.samples) == (n, t, k)
    assert fit.models == ("old", "new")
    assert fit.var_sample == pytest.approx(ms_e, rel=1e-10)
    assert fit.var_item_template == pytest.approx(max((ms_qt - ms_e) / k, 0), rel=1e-10, abs=1e-15)
    assert fit.var_item == pytest.approx(max((ms_q - ms_qt) / (t * k), 0), rel=1e-10, abs=1e-15)
    assert fit.var_template == pytest.approx(max((ms_t - ms_qt) / (n * k), 0), rel=1e-10, abs=1e-15)
    assert fit.delta == pytest.approx(d.mean(), rel=1e-12)
    v = fit.var_template / t + fit.var_item / n + fit.var_item_template / (n * t) + fit.var_sample / (n * t * k)
    assert fit.se == pytest.approx(math.sqrt(v), rel=1e-10)
    assert 1 <= fit.df <= n * t * k


def test_negative_components_are_zero_with_a_note():
    comps = dict(var_template=0.0, var_item=0.05, var_item_template=0.0, var_sample=0.1)
    notes = []
    for seed in range(6):
        fit = llm.fit_facets(simulated_log(15, 3, 2, comps, seed=seed)[0])
        assert min(fit.var_template, fit.var_item, fit.var_item_template, fit.var_sample) >= 0
        notes += [n for n in fit.notes if "negative" in n]
    assert notes  # with true components of 0 some estimates fall below 0


def test_unbalanced_fit_matches_statsmodels_crossed_reml():
    import statsmodels.api as sm

    comps = dict(var_template=0.01, var_item=0.05, var_item_template=0.02, var_sample=0.1)
    log, _ = simulated_log(25, 4, 2, comps, seed=4)
    log = log[~((log["model"] == "new") & (log["question"] < 3) & (log["prompt_id"] == 0))]  # 3 empty cells
    log = log.drop(log[(log["model"] == "new") & (log["question"] == 7)].index[:1])  # and one lone answer
    fit = llm.fit_facets(log, baseline="old")
    assert fit.method == "reml" and any("Unbalanced" in n for n in fit.notes)
    wide = log.pivot_table(index=["question", "prompt_id", "sample"], columns="model", values="score").dropna()
    frame = pd.DataFrame({"d": wide["new"] - wide["old"]}).reset_index().assign(g=0)
    model = sm.MixedLM.from_formula("d ~ 1", groups="g", re_formula="0", data=frame,
                                    vc_formula={"q": "0 + C(question)", "t": "0 + C(prompt_id)",
                                                "qt": "0 + C(question):C(prompt_id)"})
    ref = model.fit(reml=True, method="lbfgs")
    vc = dict(zip(model.exog_vc.names, ref.vcomp))
    assert fit.var_item == pytest.approx(vc["q"], rel=0.02)
    assert fit.var_item_template == pytest.approx(vc["qt"], rel=0.05, abs=1e-3)
    assert fit.var_sample == pytest.approx(ref.scale, rel=0.02)
    # the template component: moments from the template means vs the crossed REML, within its sampling error
    assert fit.var_template == pytest.approx(vc["t"], abs=0.01)
    assert fit.delta == pytest.approx(ref.fe_params.iloc[0], abs=0.01)


def test_fit_reads_aliases_and_rejects_bad_logs():
    comps = dict(var_template=0.01, var_item=0.05, var_item_template=0.02, var_sample=0.1)
    log, _ = simulated_log(10, 2, 1, comps)
    renamed = log.rename(columns={"prompt_id": "fewshot_seed", "question": "doc_id"}).drop(columns="sample")
    fit = llm.fit_facets(renamed)
    assert fit.templates == 2 and fit.samples == 1 and fit.var_sample == 0
    assert any("together" in n for n in fit.notes)
    no_template = llm.fit_facets(log[log["prompt_id"] == 0].drop(columns="prompt_id"))
    assert no_template.var_template == 0 and any("One template" in n for n in no_template.notes)
    with pytest.raises(ValueError, match="exactly two models"):
        llm.fit_facets(log.assign(model="x"))
    with pytest.raises(ValueError, match="row"):
        llm.fit_facets(log.assign(score=["oops"] + list(log["score"].iloc[1:])))
    with pytest.raises(ValueError, match="`question`"):
        llm.fit_facets(log.drop(columns="question"))
    # identical models: every difference is 0, so nothing is estimable (it reported an SE of 0 and df nan)
    same = pd.concat([log[log["model"] == log["model"].iloc[0]].assign(model=m) for m in ("a", "b")])
    with pytest.raises(ValueError, match="do not vary"):
        llm.fit_facets(same)


def test_harness_files_one_per_prompt_variant():
    files = [(m, p.name, p.read_bytes()) for m in ("baseline", "candidate") for p in sorted((DATA / m).glob("*.jsonl"))]
    log = llm.read_harness_templates(files, metric="acc")
    expected = json.loads((DATA / "scores.json").read_text())
    assert len(log) == len(expected) == 48
    for row in log.itertuples():
        t = int(row.template.split()[-1]) - 1
        assert row.score == expected[f"{row.model}|{t}|{int(row.question)}"]
    fit = llm.fit_facets(log)
    assert (fit.n, fit.templates, fit.samples, fit.models) == (8, 3, 1, ("baseline", "candidate"))
    diffs = [expected[f"candidate|{t}|{i}"] - expected[f"baseline|{t}|{i}"] for t in range(3) for i in range(8)]
    assert fit.delta == pytest.approx(np.mean(diffs), abs=1e-12)
    with pytest.raises(ValueError, match="metric"):
        llm.read_harness_templates(files)  # acc and acc_norm: ambiguous


def test_sample_size_is_the_first_n_reaching_the_target():
    for t in (2, 5, 10, 30):
        need = llm.facet_sample_size(0.02, templates=t, **COMPS, target_power=0.8)
        if llm.facet_ceiling(0.02, templates=t, var_template=COMPS["var_template"]) <= 0.8:
            assert need == -1
            continue
        assert llm.facet_power(need, 0.02, templates=t, **COMPS).power >= 0.8
        assert llm.facet_power(need - 1, 0.02, templates=t, **COMPS).power < 0.8


def test_plan_item_states_the_ceiling_and_the_best_split():
    from core.llm.plan import facet_plan_item

    comps = dict(COMPS)
    design = llm.FacetDesign(n=2000, delta=0.02, templates=1, samples=1, calls=20_000, cost_call=0.002,
                             **{f"sd_{name}": math.sqrt(comps[f"var_{name}"])
                                for name in ("template", "item", "item_template", "sample")})
    res = llm.facet_power(2000, 0.02, templates=1, **comps)
    ceiling = llm.facet_ceiling(0.02, templates=1, var_template=comps["var_template"])
    best = llm.facet_plan(0.02, calls=20_000, **comps)
    item = facet_plan_item(design, res, ceiling=ceiling, se=llm.facet_se(2000, **comps), target_power=0.8, best=best)
    shown = dict(item.results)
    # the design's cost per call prices the current design (both models, n × T × K calls each) when a split is shown
    assert item.cost == pytest.approx(2 * 2000 * 1 * 1 * 0.002)
    assert facet_plan_item(design, res, ceiling=ceiling, se=0.01, target_power=0.8).cost is None
    assert shown["power"] == f"{100 * res.power:.1f}%" and shown["ceiling as n → ∞"] == f"{100 * ceiling:.1f}%"
    assert f"{best.n:,} questions × {best.templates} templates" in shown["best split of 20,000 calls per model"]
    assert f"stays below {100 * ceiling:.0f}%" in item.paragraph
    assert any(a.name == "model × template SD" and a.value == "1.00 points" for a in item.assumptions)


def test_budget_shares_add_up_to_se_squared():
    parts = llm.facet_budget(500, templates=3, samples=2, seeds=4, **COMPS, var_seed=1e-4)
    se = llm.facet_se(500, templates=3, samples=2, seeds=4, **COMPS, var_seed=1e-4)
    assert parts["variance"].sum() == pytest.approx(se ** 2, rel=1e-12)
    assert parts["share"].sum() == pytest.approx(1.0)
    assert parts.set_index("component").loc["template", "variance"] == pytest.approx(1e-4 / 3)


# --- the closed form's limits: no division by a zero SE, α at Δ = 0 everywhere --------------------------------------
def test_recipe_ceiling_without_template_or_seed_variance_is_one_not_a_crash():
    """Comparing recipes with both staying terms at 0 (the page's link fc_sd_t=0&fc_sd_seed=0): nothing bounds the
    power as questions grow, so the ceiling is 1 — as facet_ceiling gives without seeds — not a ZeroDivisionError."""
    design = llm.FacetDesign(recipe=True, sd_template=0.0, sd_seed=0.0)
    assert design.ceiling() == 1.0
    assert design.with_(delta=0.0).ceiling() == pytest.approx(design.alpha)
    curve = llm.facet_power_curve([100], 0.0, seeds=3, var_template=0.0, var_item=0.05, var_item_template=0.03,
                                  var_sample=0.25, var_seed=0.0)
    assert curve["ceiling"].notna().all() and np.allclose(curve["ceiling"], 0.05)


def test_power_at_no_difference_is_alpha_in_plan_curve_and_ceiling():
    """At Δ = 0 the two-sided test rejects with probability α (its false-positive rate), the value facet_power
    reports; the plan, its curve and the ceiling report the same (they used to give the one tail α/2)."""
    comps = {k: v for k, v in llm.FACET_DEFAULTS.items() if k != "var_seed"}
    plan = llm.facet_plan(0.0, calls=100, **comps)
    assert plan.power == pytest.approx(0.05) and np.allclose(plan.curve["power"], 0.05)
    assert llm.facet_power(100, 0.0, **comps).power == pytest.approx(0.05)
    assert llm.facet_ceiling(0.0, templates=2, var_template=1e-4) == pytest.approx(0.05)


def test_plan_for_a_vanishing_gain_is_not_reached():
    """At a gain of 10⁻¹⁰ the questions needed exceed int64; the count wrapped around to a negative number and the
    plan claimed the target was reached with 2.5% power."""
    plan = llm.facet_plan(1e-10, calls=1000, var_template=0.0, var_item=0.05, var_item_template=0.03,
                          var_sample=0.25, target_power=0.8)
    assert not plan.reached and plan.power < 0.8


def test_a_bad_seed_gets_a_message():
    """A negative or text seed reached numpy's own errors."""
    comps = {k: v for k, v in llm.FACET_DEFAULTS.items() if k != "var_seed"}
    for bad in (-1, "x"):
        with pytest.raises(ValueError, match="`seed`"):
            llm.facet_power(200, 0.02, templates=2, **comps, method="simulate", n_sims=200, seed=bad)


def test_the_largest_plan_keeps_one_row_per_template_count():
    # a billion calls over 1,000 template counts × 10,000 sample counts: the search keeps each T's best K only
    # (the full table was 10⁷ rows, ≈ 1.8 GB); memory is counted, not time, so a busy machine cannot fail it
    import tracemalloc
    comps = dict(var_template=0.004, var_item=0.05, var_item_template=0.03, var_sample=0.25)
    tracemalloc.start()
    try:
        plan = llm.facet_plan(0.01, calls=10**9, **comps, max_templates=1000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100e6
    assert list(plan.curve["templates"]) == list(range(1, 1001))
    # without a question cap K = 1 is best, and T* = √(calls·var_template/var_item) ≈ 8,944 is past the 1,000 allowed
    assert (plan.templates, plan.samples, plan.n) == (1000, 1, 10**6)
    assert plan.se == pytest.approx(llm.facet_se(10**6, templates=1000, samples=1, **comps), rel=1e-12)

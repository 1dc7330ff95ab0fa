"""Tests of core.judge against closed forms, published values, statsmodels and simulation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa

from core import judge as jg

# The worked PPI++ example: sd² = 0.25, ρ = 0.8, c_h = 1, c_j = 0.01, budget 1,000.
EX = dict(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01)


def closed_form_var(sd, rho, ch, cj, budget):
    """Optimal Var = (√(a·c_h) + √(b·c_j))²/C, a = σ²(1 − ρ²), b = σ²ρ² (Lagrange optimum of a/n + b/M)."""
    a, b = sd**2 * (1 - rho**2), sd**2 * rho**2
    return (math.sqrt(a * ch) + math.sqrt(b * cj)) ** 2 / budget


# ---------------------------------------------------------------------------
# PPI++: the oracles
# ---------------------------------------------------------------------------
def test_ppi_budget_oracle():
    plan = jg.ppi_plan(**EX, budget=1000)
    assert plan.se == pytest.approx(0.010752, abs=5e-7)
    assert plan.se**2 == pytest.approx(closed_form_var(0.5, 0.8, 1.0, 0.01, 1000), rel=1e-4)
    assert plan.cost <= 1000 and plan.cost > 999.9
    assert plan.effective_n == pytest.approx(2163, abs=1)
    # the split itself is flat near the optimum: within 1 % of n ≈ 882, N ≈ 10,882
    assert plan.n_human == pytest.approx(882, rel=0.01)
    assert plan.n_judge_only == pytest.approx(10882, rel=0.01)
    assert plan.human_only.se == pytest.approx(0.015811, abs=5e-7)
    assert plan.human_only.n_human == 1000 and plan.human_only.cost == 1000
    assert plan.mode == "budget" and math.isnan(plan.power)


def test_ppi_se_formula_and_cost_model():
    plan = jg.ppi_plan(**EX, budget=1000)
    n, big_n = plan.n_human, plan.n_judge_only
    assert plan.se == pytest.approx(math.sqrt(0.25 / n * (1 - 0.64 * big_n / (n + big_n))), rel=1e-12)
    # a labelled item costs c_h + c_j, a judge-only item c_j
    assert plan.cost == pytest.approx(n * (1.0 + 0.01) + big_n * 0.01, rel=1e-12)
    # power-tuned λ = ρ·N/(n + N) when the judge has the human's SD
    assert plan.lambda_ == pytest.approx(0.8 * big_n / (n + big_n))


def test_lambda_on_the_judge_scale_for_a_binary_judge():
    # PPI++ tuning for a mean: λ = Cov(human, judge)/Var(judge) · N/(n + N); for a 0/1 judge
    # Cov = θ(1 − θ)(Se + Sp − 1) and Var = π(1 − π), π the apparent rate
    sd, rho, pi = jg.judge_correlation(0.7, 0.9, 0.85)
    plan = jg.ppi_plan(sd=sd, correlation=rho, cost_human=1, cost_judge=0.01, budget=1000,
                       sd_judge=math.sqrt(pi * (1 - pi)))
    share = plan.n_judge_only / (plan.n_human + plan.n_judge_only)
    assert plan.lambda_ == pytest.approx(0.21 * 0.75 / (pi * (1 - pi)) * share)


@pytest.mark.parametrize("rho,ch,cj,budget", [(0.8, 1.0, 0.01, 1000), (0.5, 2.0, 0.1, 5000), (0.95, 1.0, 0.001, 300),
                                            (-0.7, 3.0, 0.05, 20000)])
def test_ppi_budget_close_to_closed_form_and_never_over(rho, ch, cj, budget):
    plan = jg.ppi_plan(sd=0.4, correlation=rho, cost_human=ch, cost_judge=cj, budget=budget)
    assert plan.cost <= budget
    assert plan.se**2 >= closed_form_var(0.4, rho, ch, cj, budget) * (1 - 1e-12)  # no integer plan beats the optimum
    assert plan.se**2 == pytest.approx(closed_form_var(0.4, rho, ch, cj, budget), rel=0.01)


def brute_force_budget(sd, rho, ch, cj, budget):
    """Best integer (n, M) by full enumeration of n."""
    a, b = sd**2 * (1 - rho**2), sd**2 * rho**2
    best = (math.inf, None)
    for n in range(2, int(budget // (ch + cj)) + 1):
        m = int(math.floor((budget - n * ch) / cj + 1e-9))
        if n * ch + m * cj > budget:
            m -= 1
        m = max(m, n)
        if n * ch + m * cj > budget + 1e-9:
            continue
        v = a / n + b / m
        if v < best[0]:
            best = (v, (n, m - n))
    return best


@pytest.mark.parametrize("rho,ch,cj,budget", [(0.8, 1.0, 0.01, 200), (0.3, 1.0, 0.2, 150), (0.9, 0.5, 0.05, 120)])
def test_ppi_budget_matches_brute_force(rho, ch, cj, budget):
    plan = jg.ppi_plan(sd=0.5, correlation=rho, cost_human=ch, cost_judge=cj, budget=budget)
    var, _ = brute_force_budget(0.5, rho, ch, cj, budget)
    assert plan.se**2 == pytest.approx(var, rel=1e-12)


@pytest.mark.parametrize("ch,cj", [(1.0, 0.01), (2.0, 0.5), (1.0, 1.0)])
def test_judge_only_items_bought_exactly_above_the_threshold(ch, cj):
    # b/c_j > a/c_h  ⟺  ρ² > c_j/(c_h + c_j): below it the continuous optimum has M = n (no judge-only items)
    rho_min = math.sqrt(cj / (ch + cj))
    below = jg.ppi_plan(sd=0.5, correlation=rho_min * 0.97, cost_human=ch, cost_judge=cj, budget=5000)
    above = jg.ppi_plan(sd=0.5, correlation=min(rho_min * 1.1, 0.99), cost_human=ch, cost_judge=cj, budget=5000)
    # below: only the change left after the last whole labelled item goes to judge calls
    assert below.n_judge_only * cj < ch + cj
    assert below.n_human == math.floor(5000 / (ch + cj))
    assert above.n_judge_only * cj > ch + cj


def test_no_judge_items_when_judge_is_useless():
    # corr² small and calls expensive → b/c_j < a/c_h: humans label everything
    plan = jg.ppi_plan(sd=0.5, correlation=0.1, cost_human=1.0, cost_judge=0.5, budget=300)
    assert plan.n_judge_only == 0
    assert plan.n_human == 200
    assert plan.lambda_ == 0.0


@pytest.mark.parametrize("target", [0.010752, 0.02, 0.0051, 0.0333])
def test_ppi_target_se_never_missed_and_cheapest(target):
    plan = jg.ppi_plan(**EX, target_se=target)
    assert plan.se <= target
    # one item fewer of either kind misses the target, or costs no less
    a, b = 0.25 * 0.36, 0.25 * 0.64
    n, m = plan.n_human, plan.n_human + plan.n_judge_only
    assert a / n + b / (m - 1) > target**2 or m - 1 < n
    assert a / (n - 1) + b / m > target**2
    # the cost is at least the continuous optimum C = (√(a c_h) + √(b c_j))²/T² and close to it
    c_star = (math.sqrt(a * 1.0) + math.sqrt(b * 0.01)) ** 2 / target**2
    assert c_star * (1 - 1e-12) <= plan.cost <= c_star * 1.01 + 1.01


def test_ppi_target_matches_budget_oracle():
    plan = jg.ppi_plan(**EX, target_se=0.010752)
    assert plan.cost == pytest.approx(1000, rel=2e-3)
    assert plan.se <= 0.010752


def test_ppi_delta_mode_reaches_power():
    plan = jg.ppi_plan(**EX, delta=0.03, target_power=0.8, alpha=0.05)
    assert plan.power >= 0.8
    z = stats.norm.isf(0.025)
    u = 0.03 / plan.se
    assert plan.power == pytest.approx(stats.norm.cdf(u - z) + stats.norm.cdf(-u - z), rel=1e-12)
    # target SE solves the power equation (independent: normal quantiles, one-tailed approximation + tiny tail)
    assert plan.target_se == pytest.approx(0.03 / (z + stats.norm.ppf(0.8)), rel=1e-4)
    # one fewer human item would fall short
    smaller = jg.ppi_se(plan.n_human - 1, plan.n_judge_only, sd=0.5, correlation=0.8)
    assert smaller > plan.target_se
    assert plan.human_only.power < plan.power


def test_paired_doubles_costs():
    single = jg.ppi_plan(sd=0.3, correlation=0.7, cost_human=2.0, cost_judge=0.02, budget=4000)
    paired = jg.ppi_plan(sd=0.3, correlation=0.7, cost_human=1.0, cost_judge=0.01, budget=4000, paired=True)
    # the paired design at unit costs (c_h, c_j) is the single design at (2c_h, 2c_j)
    assert (paired.n_human, paired.n_judge_only) == (single.n_human, single.n_judge_only)
    assert paired.se == pytest.approx(single.se)
    assert paired.paired and paired.judge_only is None
    assert paired.cost == pytest.approx(2 * (paired.n_human * 1.01 + paired.n_judge_only * 0.01))


@pytest.mark.parametrize("kwargs,words", [
    ({}, "`budget`, `target_se` and `delta`"),
    ({"budget": 100, "target_se": 0.01}, "exactly one"),
    ({"budget": 100, "delta": 0.1}, "`delta`"),
    ({"budget": -1}, "`budget`"),
    ({"target_se": 0}, "`target_se`"),
    ({"delta": 0.0}, "`delta`"),
    ({"budget": 1.0}, "`budget`"),
])
def test_ppi_mode_errors(kwargs, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        jg.ppi_plan(**EX, **kwargs)


@pytest.mark.parametrize("bad,name", [({"sd": 0}, "sd"), ({"correlation": 1.0001}, "correlation"),
                                      ({"correlation": -1.2}, "correlation"), ({"cost_human": 0}, "cost_human"),
                                      ({"cost_judge": -0.1}, "cost_judge"), ({"alpha": 0.7}, "alpha"),
                                      ({"sd": float("nan")}, "sd")])
def test_ppi_parameter_errors_name_parameter(bad, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        jg.ppi_plan(**{**EX, **bad}, budget=1000)


def test_ppi_se_matches_simulation():
    """The PPI++ estimator with the tuned λ, simulated on bivariate-normal labels (fixed seed)."""
    rng = np.random.default_rng(7)
    sd, rho, n, big_n, reps = 0.5, 0.8, 200, 2000, 4000
    lam = rho * big_n / (n + big_n)
    cov = np.array([[1.0, rho], [rho, 1.0]]) * sd**2
    lab = rng.multivariate_normal([0, 0], cov, size=(reps, n))
    unl = rng.normal(0, sd, size=(reps, big_n))
    est = lam * unl.mean(axis=1) + (lab[..., 0] - lam * lab[..., 1]).mean(axis=1)
    sim_sd = est.std(ddof=1)
    mc_se = sim_sd / math.sqrt(2 * (reps - 1))  # SE of a normal SD estimate
    assert abs(sim_sd - jg.ppi_se(n, big_n, sd=sd, correlation=rho)) < 4 * mc_se
    # λ estimated from each data set as PPI++ does, λ̂ = Ĉov(h, g)/((1 + n/N)·V̂ar(g)): the same SE to O(1/n)
    h, g = lab[..., 0], lab[..., 1]
    cov = ((h - h.mean(1, keepdims=True)) * (g - g.mean(1, keepdims=True))).sum(1) / (n - 1)
    var_g = np.concatenate([g, unl], axis=1).var(axis=1, ddof=1)
    lam_hat = cov / ((1 + n / big_n) * var_g)
    est_hat = lam_hat * unl.mean(axis=1) + (h - lam_hat[:, None] * g).mean(axis=1)
    assert abs(est_hat.std(ddof=1) - jg.ppi_se(n, big_n, sd=sd, correlation=rho)) < 4 * mc_se + 0.01 * sim_sd
    # and the human-only mean is worse, as the formula says
    assert jg.ppi_se(n, 0, sd=sd, correlation=rho) == pytest.approx(sd / math.sqrt(n))


def test_ppi_curve_and_split_curve():
    curve = jg.ppi_curve([100, 400], sd=0.5, correlation=0.8, n_judge_only=(0, 5000), cost_human=1, cost_judge=0.01,
                         delta=0.05)
    assert list(curve.columns) == ["n_judge_only", "n_human", "se", "effective_n", "cost", "power"]
    row = curve[(curve.n_judge_only == 5000) & (curve.n_human == 400)].iloc[0]
    assert row.se == pytest.approx(jg.ppi_se(400, 5000, sd=0.5, correlation=0.8))
    assert row.cost == pytest.approx(400 * 1.01 + 50)
    assert ((curve.power >= 0) & (curve.power <= 1)).all()
    split = jg.split_curve([0.0, 0.5, 0.8, 0.95], sd=0.5, cost_human=1.0, cost_judge=0.01, budget=1000)
    assert split.loc[split.correlation == 0.8, "se"].iloc[0] == pytest.approx(0.010752, abs=5e-7)
    assert split.se.is_monotonic_decreasing  # a better judge never hurts
    assert split.n_judge_only.iloc[0] == 0  # ρ = 0: no judge-only items


# ---------------------------------------------------------------------------
# Rogan–Gladen
# ---------------------------------------------------------------------------
def test_rogan_gladen_oracle():
    _, _, p_obs = jg.judge_correlation(0.70, 0.90, 0.85)
    assert p_obs == pytest.approx(0.675)
    r = jg.rogan_gladen(0.675, 0.90, 0.85, n=2000, m_pos=200, m_neg=200)
    assert r.estimate == pytest.approx(0.70)
    assert r.se == pytest.approx(0.02625, abs=5e-6)
    assert r.youden == pytest.approx(0.75)


def test_rogan_gladen_se_matches_simulation():
    rng = np.random.default_rng(11)
    reps, theta, se, sp, n, m = 20000, 0.70, 0.90, 0.85, 2000, 200
    p = se * theta + (1 - sp) * (1 - theta)
    p_hat = rng.binomial(n, p, reps) / n
    se_hat = rng.binomial(m, se, reps) / m
    sp_hat = rng.binomial(m, sp, reps) / m
    est = (p_hat + sp_hat - 1) / (se_hat + sp_hat - 1)
    sim = est.std(ddof=1)
    mc_se = sim / math.sqrt(2 * (reps - 1))
    # delta method vs simulation: allow 4 MC SE plus the delta method's small second-order bias (< 1 %)
    assert abs(sim - 0.02625) < 4 * mc_se + 0.01 * 0.02625


def test_rogan_gladen_clips_and_validates():
    r = jg.rogan_gladen(0.10, 0.90, 0.85, n=100, m_pos=50, m_neg=50)
    assert r.raw_estimate < 0 and r.estimate == 0.0
    with pytest.raises(ValueError, match="`sensitivity` \\+ `specificity`"):
        jg.rogan_gladen(0.5, 0.5, 0.4, n=10, m_pos=5, m_neg=5)
    with pytest.raises(ValueError, match="`m_pos`"):
        jg.rogan_gladen(0.5, 0.9, 0.9, n=10, m_pos=0, m_neg=5)
    with pytest.raises(ValueError, match="`p_observed`"):
        jg.rogan_gladen(1.5, 0.9, 0.9, n=10, m_pos=5, m_neg=5)


def test_judge_only_comparator_is_rogan_gladen_on_same_items():
    sd, rho, _ = jg.judge_correlation(0.7, 0.9, 0.85)
    plan = jg.ppi_plan(sd=sd, correlation=rho, cost_human=1, cost_judge=0.01, budget=1000, prevalence=0.7,
                       sensitivity=0.9, specificity=0.85)
    j = plan.judge_only
    assert (j.n_human, j.n_judge_only, j.cost) == (plan.n_human, plan.n_judge_only, plan.cost)
    p = 0.675
    var = (p * (1 - p) / j.n_judge_only + 0.49 * 0.09 / (0.7 * j.n_human) + 0.09 * 0.1275 / (0.3 * j.n_human)) / 0.5625
    assert j.se == pytest.approx(math.sqrt(var))
    table = jg.strategy_table(plan)
    assert table.strategy.tolist() == ["human only", "judge + Rogan–Gladen", "PPI++"]
    assert table.set_index("strategy").loc["PPI++", "se"] == plan.se
    # PPI++ is at least as precise as both comparators at equal cost
    assert plan.se <= j.se and plan.se <= plan.human_only.se


def test_judge_correlation_is_phi_coefficient():
    rng = np.random.default_rng(3)
    h = rng.random(200_000) < 0.3
    g = np.where(h, rng.random(h.size) < 0.8, rng.random(h.size) < 0.1)
    sd, rho, pi = jg.judge_correlation(0.3, 0.8, 0.9)
    assert sd == pytest.approx(math.sqrt(0.21))
    assert np.corrcoef(h, g)[0, 1] == pytest.approx(rho, abs=0.01)  # SE of r ≈ (1 − r²)/√n ≈ 0.0015
    assert pi == pytest.approx(0.3 * 0.8 + 0.7 * 0.1)


# ---------------------------------------------------------------------------
# calibration uploads
# ---------------------------------------------------------------------------
def test_read_and_fit_calibration_with_aliases():
    rng = np.random.default_rng(5)
    n = 3000
    h = (rng.random(n) < 0.6).astype(int)
    g = np.where(h == 1, rng.random(n) < 0.9, rng.random(n) < 0.2).astype(int)
    text = "ID,Gold,Prediction\n" + "".join(f"i{i},{h[i]},{'yes' if g[i] else 'no'}\n" for i in range(n))
    fit = jg.fit_judge(text.encode())
    assert fit.binary and not fit.paired and fit.n_items == n
    assert fit.sensitivity == pytest.approx(h[g == 1].size and (g[h == 1]).mean())
    assert fit.specificity == pytest.approx(1 - g[h == 0].mean())
    assert fit.correlation == pytest.approx(np.corrcoef(h, g)[0, 1])
    assert fit.mean_bias == pytest.approx((g - h).mean())
    # bootstrap SEs against binomial SEs (within 20 %, 500 replicates → MC error ≈ 3 %)
    se_binom = math.sqrt(fit.sensitivity * (1 - fit.sensitivity) / h.sum())
    assert fit.sensitivity_se == pytest.approx(se_binom, rel=0.2)
    assert fit.prevalence_se == pytest.approx(math.sqrt(0.6 * 0.4 / n), rel=0.2)


def test_fit_paired_scores():
    rng = np.random.default_rng(9)
    n = 500
    rows = []
    for i in range(n):
        for m in ("A", "B"):
            hv = rng.normal(3 + (m == "B") * 0.2, 1)
            rows.append({"question_id": f"q{i}", "system": m, "human_score": hv, "judge_score": hv + rng.normal(0, 1)})
    df = pd.DataFrame(rows)
    fit = jg.fit_judge(df)
    assert fit.paired and not fit.binary and fit.models == ("A", "B")
    wide = df.pivot(index="question_id", columns="system")
    d = wide["human_score"]["A"] - wide["human_score"]["B"]
    e = wide["judge_score"]["A"] - wide["judge_score"]["B"]
    assert fit.correlation == pytest.approx(np.corrcoef(d, e)[0, 1])
    assert fit.sd == pytest.approx(d.std(ddof=1))
    assert math.isnan(fit.sensitivity)


@pytest.mark.parametrize("data,words", [
    (b"item,human\n1,0\n", "at least 3"),
    (b"item,gold,x\n1,0,1\n", "judge"),
    (b"item,human,judge\n1,0,abc\n2,1,1\n3,1,0\n", "`judge` must be a number"),
    (b"item,human,judge\n1,0,1\n1,1,1\n3,1,0\n", "appears twice"),
    (b"item,human,judge\n1,1,1\n2,1,0\n3,1,0\n", "all the same"),
    (b"item,human,judge,model\n1,1,1,a\n2,1,0,b\n3,0,0,c\n", "exactly two"),
    (b"\x00\x01", "binary"),
    (b"", "empty"),
])
def test_bad_calibration_files(data, words):
    with pytest.raises(ValueError, match=words):
        jg.fit_judge(data)


def test_sample_calibration_file():
    df = jg.sample_calibration()
    assert list(df.columns) == ["item", "human", "judge"] and len(df) == 400
    fit = jg.fit_judge(df, seed=1)
    assert 0.8 < fit.sensitivity < 0.95 and 0.7 < fit.specificity < 0.95


# ---------------------------------------------------------------------------
# agreement studies
# ---------------------------------------------------------------------------
def test_cohen_kappa_oracle():
    assert jg.agreement_se(500, prevalence=0.3, kappa=0.6) == pytest.approx(0.039192, abs=5e-7)
    assert jg.agreement_se(100, prevalence=0.3, kappa=0.6) == pytest.approx(0.087636, abs=5e-7)


@pytest.mark.parametrize("prev,kappa", [(0.3, 0.6), (0.05, 0.4), ([0.5, 0.3, 0.2], 0.7), (0.5, -0.2)])
def test_cohen_matches_statsmodels(prev, kappa):
    table = jg.agreement_table(prev, kappa)
    res = cohens_kappa(table * 400)  # statsmodels: Fleiss, Cohen & Everitt (1969) asymptotic variance
    assert res.kappa == pytest.approx(kappa)
    assert jg.agreement_se(400, prevalence=prev, kappa=kappa) == pytest.approx(res.std_kappa, rel=1e-10)


def _delta_method_se(table, coef, n, h=1e-6):
    """Numerical delta method: gradient of the coefficient over the multinomial cells."""
    p = table.ravel()
    grad = np.empty(p.size)
    for i in range(p.size):
        up, dn = p.copy(), p.copy()
        up[i] += h
        dn[i] -= h
        grad[i] = (coef(up.reshape(table.shape)) - coef(dn.reshape(table.shape))) / (2 * h)
    cov = np.diag(p) - np.outer(p, p)
    return math.sqrt(grad @ cov @ grad / n)


def _ac1(t):
    q = t.shape[0]
    pi = (t.sum(0) + t.sum(1)) / 2 / t.sum()
    pa = np.trace(t) / t.sum()
    pe = (pi * (1 - pi)).sum() / (q - 1)
    return (pa - pe) / (1 - pe)


def _scott(t):
    pi = (t.sum(0) + t.sum(1)) / 2 / t.sum()
    pa = np.trace(t) / t.sum()
    pe = (pi**2).sum()
    return (pa - pe) / (1 - pe)


@pytest.mark.parametrize("prev,kappa", [(0.3, 0.6), (0.1, 0.5), ([0.6, 0.25, 0.15], 0.4)])
@pytest.mark.parametrize("statistic,coef", [("gwet_ac1", _ac1), ("krippendorff", _scott)])
def test_ac1_and_alpha_variances_are_the_delta_method(prev, kappa, statistic, coef):
    table = jg.agreement_table(prev, kappa)
    assert jg.agreement_value(prevalence=prev, kappa=kappa, statistic=statistic) == pytest.approx(coef(table))
    assert jg.agreement_se(300, prevalence=prev, kappa=kappa, statistic=statistic) == pytest.approx(
        _delta_method_se(table, coef, 300), rel=1e-5)


def _krippendorff_alpha(r1, r2):
    """Krippendorff's α, nominal, two raters, no missing data (Krippendorff 2004, §11.3.1, coincidence matrix)."""
    values = np.concatenate([r1, r2])
    n_pairable = values.size
    counts = np.bincount(values, minlength=2)
    d_e = 1 - (counts * (counts - 1)).sum() / (n_pairable * (n_pairable - 1))
    d_o = (r1 != r2).mean()
    return 1 - d_o / d_e


@pytest.mark.parametrize("statistic", ["cohen", "gwet_ac1", "krippendorff"])
def test_agreement_se_matches_two_rater_simulation(statistic):
    rng = np.random.default_rng(21)
    prev, kappa, n, reps = 0.3, 0.6, 500, 4000
    table = jg.agreement_table(prev, kappa)
    cells = rng.multinomial(n, table.ravel(), size=reps).reshape(reps, 2, 2).astype(float)
    if statistic == "cohen":  # κ̂ of each simulated table (Cohen 1960), vectorised
        p = cells / n
        po = p[:, 0, 0] + p[:, 1, 1]
        pe = p.sum(2)[:, 0] * p.sum(1)[:, 0] + p.sum(2)[:, 1] * p.sum(1)[:, 1]
        vals = (po - pe) / (1 - pe)
    elif statistic == "gwet_ac1":
        vals = np.array([_ac1(c) for c in cells])
    else:  # raters' labels rebuilt from the cells; the true α, not Scott's π
        vals = []
        for c in cells.astype(int):
            r1 = np.repeat([1, 1, 0, 0], [c[0, 0], c[0, 1], c[1, 0], c[1, 1]])
            r2 = np.repeat([1, 0, 1, 0], [c[0, 0], c[0, 1], c[1, 0], c[1, 1]])
            vals.append(_krippendorff_alpha(r1, r2))
        vals = np.array(vals)
    sim = vals.std(ddof=1)
    mc_se = sim / math.sqrt(2 * (reps - 1))
    assert abs(sim - jg.agreement_se(n, prevalence=prev, kappa=kappa, statistic=statistic)) < 4 * mc_se


@pytest.mark.parametrize("statistic", ["cohen", "gwet_ac1", "krippendorff"])
@pytest.mark.parametrize("halfwidth", [0.2, 0.1, 0.05, 0.0317])
def test_agreement_sample_size_is_smallest_n(statistic, halfwidth):
    kw = dict(prevalence=0.2, kappa=0.5, statistic=statistic)
    n = jg.agreement_sample_size(halfwidth=halfwidth, confidence=0.9, **kw)
    z = stats.norm.ppf(0.95)
    assert z * jg.agreement_se(n, **kw) <= halfwidth
    assert n == 25 or z * jg.agreement_se(n - 1, **kw) > halfwidth  # 25: the rarest label 5 times at 20%


def test_agreement_sample_size_oracle():
    # 1.96²·(500·0.039192²)/0.1² = 295.06 → 296
    assert jg.agreement_sample_size(prevalence=0.3, kappa=0.6, halfwidth=0.1) == 296


@pytest.mark.parametrize("kwargs,name", [
    (dict(n=100, prevalence=0.3, kappa=0.6, statistic="fleiss"), "statistic"),
    (dict(n=1, prevalence=0.3, kappa=0.6), "n"),
    (dict(n=100, prevalence=1.0, kappa=0.6), "prevalence"),
    (dict(n=100, prevalence=0.3, kappa=1.0), "kappa"),
    (dict(n=100, prevalence=0.3, kappa=-0.9), "kappa"),
    (dict(n=100, prevalence=[0.5, 0.6], kappa=0.5), "prevalence"),
])
def test_agreement_errors(kwargs, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        jg.agreement_se(**kwargs)
    with pytest.raises(ValueError, match="`halfwidth`"):
        jg.agreement_sample_size(prevalence=0.3, kappa=0.6, halfwidth=0)


def test_agreement_se_refuses_where_the_delta_method_breaks_down():
    # prevalence 1e-6, n = 100: the linearised SE was 43.3 for a coefficient in [−1, 1]
    with pytest.raises(ValueError, match=r"`n` must be at least 5,000,000"):
        jg.agreement_se(100, prevalence=1e-6, kappa=0.5, statistic="krippendorff")
    with pytest.raises(ValueError, match="`n`"):
        jg.agreement_se([20, 500], prevalence=0.02, kappa=0.5)  # 20 items: 0.4 expected positives
    assert jg.agreement_se(250, prevalence=0.02, kappa=0.5) > 0  # 5 expected positives: allowed
    # the three-category form uses the rarest share
    with pytest.raises(ValueError, match="`n` must be at least 100"):
        jg.agreement_se(99, prevalence=[0.6, 0.35, 0.05], kappa=0.4)


@pytest.mark.parametrize("statistic", ["cohen", "gwet_ac1", "krippendorff"])
def test_agreement_se_where_allowed_never_exceeds_the_coefficients_range(statistic):
    for prev in (1e-6, 1e-3, 0.02, 0.1, 0.3, 0.5):
        low = -prev / (1 - prev)
        for kappa in np.linspace(max(low, -0.999) + 1e-9, 0.999, 25):
            n = math.ceil(5 / prev - 1e-9)
            se = jg.agreement_se(n, prevalence=prev, kappa=kappa, statistic=statistic)
            assert 0 <= se <= 0.5, (prev, kappa, se)


def test_agreement_sample_size_is_at_least_the_smallest_usable_n():
    # a loose half-width would need few items, but 2% prevalence needs 250 for 5 expected positives
    n = jg.agreement_sample_size(prevalence=0.02, kappa=0.0, halfwidth=0.3, statistic="gwet_ac1")
    assert n == 250
    assert 1.96 * jg.agreement_se(250, prevalence=0.02, kappa=0.0, statistic="gwet_ac1") <= 0.3
    c = jg.agreement_curve([20, 249, 250, 1000], prevalence=0.02, kappa=0.5)
    assert c.reliable.tolist() == [False, False, True, True] * 3
    assert c[~c.reliable].se.isna().all() and c[c.reliable].se.notna().all()


def test_agreement_curve():
    c = jg.agreement_curve([50, 200], prevalence=0.3, kappa=0.6)
    assert set(c.statistic) == {"cohen", "gwet_ac1", "krippendorff"}
    row = c[(c.statistic == "cohen") & (c.n == 200)].iloc[0]
    assert row.halfwidth == pytest.approx(stats.norm.ppf(0.975) * jg.agreement_se(200, prevalence=0.3, kappa=0.6))
    assert row.value == pytest.approx(0.6)


def test_prevalence_paradox():
    c = jg.prevalence_paradox_curve(agreement=0.9)
    wide = c.pivot(index="prevalence", columns="statistic", values="value")
    # at θ = 0.5 both chance terms are 0.5: κ = AC1 = (0.9 − 0.5)/0.5 = 0.8
    mid = jg.prevalence_paradox_curve(agreement=0.9, prevalences=[0.5]).set_index("statistic").value
    assert mid["cohen"] == pytest.approx(0.8) and mid["gwet_ac1"] == pytest.approx(0.8)
    # κ from the table matches statsmodels at a skewed prevalence; AC1 stays high while κ collapses
    th, d = 0.08, 0.05
    table = np.array([[th - d, d], [d, 1 - th - d]])
    skew = jg.prevalence_paradox_curve(agreement=0.9, prevalences=[th]).set_index("statistic").value
    assert skew["cohen"] == pytest.approx(cohens_kappa(table * 1000).kappa)
    assert skew["gwet_ac1"] == pytest.approx(_ac1(table))
    assert skew["cohen"] < 0.35 < 0.85 < skew["gwet_ac1"]
    assert (wide["gwet_ac1"] >= wide["cohen"] - 1e-12).all()
    with pytest.raises(ValueError, match="`prevalences`"):
        jg.prevalence_paradox_curve(agreement=0.9, prevalences=[0.01])
    with pytest.raises(ValueError, match="`agreement`"):
        jg.prevalence_paradox_curve(agreement=0.3)


# --- the calibration bootstrap at scale -------------------------------------------------------------------------
from core.judge import calibration as _cal  # noqa: E402


@pytest.mark.parametrize("paired", [False, True])
@pytest.mark.parametrize("binary", [False, True])
def test_statistics_from_feature_sums_equal_the_itemwise_statistics(paired, binary):
    # the compressed bootstrap's statistics are the same function of the weights: Σ w·features → stats
    rng = np.random.default_rng(3)
    shape = (40, 2) if paired else (40,)
    h = rng.integers(0, 2, shape).astype(float) if binary else rng.normal(size=shape)
    g = rng.integers(0, 2, shape).astype(float) if binary else rng.normal(size=shape)
    w = rng.multinomial(40, np.full(40, 1 / 40), size=5).astype(float)
    want = _cal._stats(h, g, w)
    got = _cal._stats_from_sums(w @ _cal._features(h, g))
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-10, atol=1e-12, equal_nan=True)


def test_bootstrap_of_a_large_binary_calibration_set_matches_the_binomial_standard_errors():
    # 400,000 binary items (above the itemwise limit): distinct rows resampled with multinomial counts.
    # Oracle: the bootstrap SE of a proportion is √(p(1 − p)/m); 2,000 replicates estimate an SE to ≈ 1.6%.
    rng = np.random.default_rng(11)
    n = 400_000
    h = rng.binomial(1, 0.3, n).astype(float)
    g = np.where(rng.random(n) < 0.9, h, 1 - h)
    fit = jg.fit_judge(pd.DataFrame({"item": np.arange(n), "human": h, "judge": g}), n_boot=2000, seed=1)
    pos = h.sum()
    sens = (h * g).sum() / pos
    assert fit.sensitivity == pytest.approx(sens)
    assert fit.sensitivity_se == pytest.approx(math.sqrt(sens * (1 - sens) / pos), rel=0.08)
    prev = pos / n
    assert fit.prevalence_se == pytest.approx(math.sqrt(prev * (1 - prev) / n), rel=0.08)


def test_bootstrap_normal_limit_for_many_distinct_scores(monkeypatch):
    # continuous scores with more distinct rows than the limit: replicates from the bootstrap's normal limit.
    # Oracle: the SE of a difference of means, √(Var(e − d)/n) (divisor n, as the bootstrap).
    monkeypatch.setattr(_cal, "_ITEMWISE_MAX", 1_000)
    monkeypatch.setattr(_cal, "_DISTINCT_MAX", 1_000)
    rng = np.random.default_rng(12)
    n = 20_000
    h = rng.normal(size=n)
    g = 0.7 * h + rng.normal(scale=0.5, size=n) + 0.1
    fit = jg.fit_judge(pd.DataFrame({"item": np.arange(n), "human": h, "judge": g}), n_boot=2000, seed=2)
    assert fit.mean_bias == pytest.approx(float(np.mean(g - h)))
    assert fit.mean_bias_se == pytest.approx(float(np.std(g - h) / math.sqrt(n)), rel=0.08)
    r = float(np.corrcoef(h, g)[0, 1])
    assert fit.correlation_se == pytest.approx((1 - r * r) / math.sqrt(n), rel=0.1)  # normal-theory SE of r

# ---------------------------------------------------------------------------
# the integer optimum of ppi_plan against brute force over every (n, n + N)
# ---------------------------------------------------------------------------
def _brute_target(a, b, ch, cj, target_var, n_hi, m_hi):
    n = np.arange(2, n_hi + 1)[:, None]
    m = np.arange(2, m_hi + 1)[None, :]
    ok = (m >= n) & (a / n + b / m <= target_var)
    cost = np.where(ok, n * ch + m * cj, np.inf)
    return float(cost.min())


def _brute_budget(a, b, ch, cj, budget, n_hi, m_hi):
    n = np.arange(2, n_hi + 1)[:, None]
    m = np.arange(2, m_hi + 1)[None, :]
    ok = (m >= n) & (n * ch + m * cj <= budget)
    var = np.where(ok, a / n + b / m, np.inf)
    return float(var.min())


def test_ppi_plan_finds_the_corner_optimum():
    # the window around the continuous optimum missed n = 20,698, n + N = 20,700 (M ≈ n: judge barely worth it)
    sd, rho, ch, cj = 1.5987, 0.4115, 3.7437, 3.1695
    a, b = sd**2 * (1 - rho**2), sd**2 * rho**2
    target = math.sqrt(a / 20698 + b / 20700)
    plan = jg.ppi_plan(sd=sd, correlation=rho, cost_human=ch, cost_judge=cj, target_se=target)
    assert (plan.n_human, plan.n_human + plan.n_judge_only) == (20698, 20700)
    assert plan.cost == pytest.approx(20698 * ch + 20700 * cj, abs=1e-6) and plan.se <= target
    assert plan.cost < 20699 * (ch + cj)  # cheaper than the human-only design the old search returned


@pytest.mark.parametrize("seed", range(8))
def test_ppi_plan_is_the_integer_optimum_on_random_small_instances(seed):
    rng = np.random.default_rng(seed)
    for _ in range(5):
        sd, rho = rng.uniform(0.2, 2.0), rng.uniform(-0.95, 0.95)
        ch = rng.uniform(0.5, 5.0)
        cj = ch * rng.uniform(0.1, 1.0)
        a, b = sd**2 * (1 - rho**2), sd**2 * rho**2
        n_h = rng.uniform(20, 400)  # the human-only design's size: bounds every n of a cheaper design
        target_var = (a + b) / n_h
        plan = jg.ppi_plan(sd=sd, correlation=rho, cost_human=ch, cost_judge=cj, target_se=math.sqrt(target_var))
        n_hi = math.ceil(n_h) + 1
        best = _brute_target(a, b, ch, cj, target_var, n_hi, math.ceil(n_hi * (ch + cj) / cj) + 1)
        assert plan.se**2 <= target_var * (1 + 1e-12)
        assert plan.cost == pytest.approx(best, rel=1e-12), (sd, rho, ch, cj, n_h)
        budget = rng.uniform(10, 400) * (ch + cj)
        plan = jg.ppi_plan(sd=sd, correlation=rho, cost_human=ch, cost_judge=cj, budget=budget)
        n_hi = math.floor(budget / (ch + cj))
        best = _brute_budget(a, b, ch, cj, budget, n_hi, math.floor(budget / cj))
        assert plan.cost <= budget * (1 + 1e-12)
        assert plan.se**2 == pytest.approx(best, rel=1e-12), (sd, rho, ch, cj, budget)


@pytest.mark.parametrize("seed", range(4))
def test_ppi_plan_target_is_the_integer_optimum_on_random_large_near_corner_instances(seed):
    # weak judges that cost almost as much as a human: the optimum sits near M = n, far from the continuous one
    rng = np.random.default_rng(100 + seed)
    for _ in range(5):
        sd, rho = rng.uniform(0.5, 2.0), rng.uniform(0.2, 0.6)
        ch = rng.uniform(1.0, 5.0)
        cj = ch * rng.uniform(0.5, 0.95)
        a, b = sd**2 * (1 - rho**2), sd**2 * rho**2
        target_var = (a + b) / rng.uniform(5_000, 50_000)
        plan = jg.ppi_plan(sd=sd, correlation=rho, cost_human=ch, cost_judge=cj, target_se=math.sqrt(target_var))
        # every n up to the human-only size, each with its fewest judge-inclusive items M >= n (stepped up by one
        # while the target is missed, so float rounding cannot make a pair look feasible)
        n = np.arange(2, math.ceil((a + b) / target_var) + 2).astype(float)
        slack = target_var - a / n
        n, slack = n[slack > 0], slack[slack > 0]
        m = np.maximum(np.ceil(b / slack), n)
        for _ in range(3):
            m = np.where(a / n + b / m > target_var, m + 1, m)
        best = float((n * ch + m * cj).min())
        assert plan.cost == pytest.approx(best, rel=1e-12), (sd, rho, ch, cj)


def test_vanishing_targets_are_refused_with_the_parameter_named():
    """An SE of 10⁻¹⁷⁰ squares to 0 (ZeroDivisionError before); an agreement half-width of 10⁻¹⁷⁰ overflowed in
    math.ceil before the size check."""
    with pytest.raises(ValueError, match="`target_se` is too small"):
        jg.ppi_plan(sd=0.5, correlation=0.7, cost_human=1.0, cost_judge=0.01, target_se=1e-170)
    with pytest.raises(ValueError, match="`delta` is too small"):
        jg.ppi_plan(sd=0.5, correlation=0.7, cost_human=1.0, cost_judge=0.01, delta=1e-170)
    with pytest.raises(ValueError, match="`halfwidth` is too small"):
        jg.agreement_sample_size(prevalence=0.3, kappa=0.6, halfwidth=1e-170)


def test_a_budget_beyond_the_item_cap_is_refused_at_once():
    """At c_h = 1, c_j = 0.01, ρ = 0.8 the best design of a budget B uses ≈ 10.9·B items (the continuous optimum),
    so above ≈ 85,000,000 it passes the billion-item cap: the search took 35 s and 1.4 GB at 3·10⁸, ran out of
    memory at 10¹⁰ and returned a plan 3% worse than the capped optimum. Now a ValueError names `budget` and the
    largest budget that fits; a budget below it plans as before (oracle: n·c_h + N_total·c_j ≤ B)."""
    kw = dict(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01)
    for budget in (9e7, 1e10):
        with pytest.raises(ValueError, match=r"`budget` is too large: .*at most about 85,000,000"):
            jg.ppi_plan(**kw, budget=budget)
    plan = jg.ppi_plan(**kw, budget=1e7)
    assert plan.n_human * 1.0 + (plan.n_human + plan.n_judge_only) * 0.01 <= 1e7 * (1 + 1e-12)


def test_a_perfect_judge_has_the_variance_of_all_items():
    # |ρ| = 1 in σ²/n·(1 − ρ²·N/(n + N)) leaves σ²/(n + N); the phi coefficient of Se = Sp = 1 is exactly 1
    for rho in (1.0, -1.0):
        got = jg.ppi_se(np.array([2, 10, 500]), np.array([0, 90, 9500]), sd=0.5, correlation=rho)
        np.testing.assert_allclose(got, 0.5 / np.sqrt([2, 100, 10000]), rtol=1e-14)
    for theta in (0.05, 0.3, 0.7, 0.999):
        assert jg.judge_correlation(theta, 1.0, 1.0)[1] == 1.0
    assert all(-1.0 <= jg.judge_correlation(t, se, sp)[1] <= 1.0
               for t in (0.1, 0.5, 0.9) for se in (0.999999, 1.0) for sp in (0.999999, 1.0))

"""core.judge.JudgeDesign and core.judge.plan: the LLM-judges page's plan, checked against PPI++.

Oracle: the PPI++ variance σ²/n·(1 − ρ²·N/(n + N)) (Angelopoulos, Duchi & Zrnic 2023) written out here, and
core.judge.ppi_plan (tested against simulation in test_judge*.py).
"""

from __future__ import annotations

import hashlib
import math

import pytest
from streamlit.runtime.caching.hashing import update_hash

from core import judge as jg
from core.judge import plan as judge_plan
from core.plan import plan_html


def test_plan_states_the_ppi_numbers():
    d = jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    res = d.plan()
    assert res == jg.ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    n, big_n = res.n_human, res.n_judge_only
    se = math.sqrt(0.25 / n * (1 - 0.64 * big_n / (n + big_n)))  # PPI++ with the power-tuned weight
    assert res.se == pytest.approx(se, rel=1e-9)
    item = judge_plan.plan_item(d, res, currency="USD", sources={"rho": "fitted from labels.csv"})
    values = dict(item.results)
    assert values["human-labelled items"] == f"{n:,}" and values["judge-only items"] == f"{big_n:,}"
    assert values["standard error"] == f"{se:.4f}"
    assert values["effective n"] == f"{0.25 / se ** 2:,.0f}"
    assert f"the standard error is {se:.4f}" in item.paragraph and "power" not in values
    assert {a.name: a.source for a in item.assumptions}["judge–human correlation ρ"] == "fitted from labels.csv"
    assert item.cost == res.cost and "LLM judges and human labels" in plan_html([item])


def test_delta_mode_paired_with_a_binary_judge():
    d = jg.JudgeDesign(sd=0.458, correlation=0.73, cost_human=1.0, cost_judge=0.01, delta=0.03, paired=True,
                       prevalence=0.3, sensitivity=0.9, specificity=0.85, sd_judge=0.47)
    res = d.plan()
    item = judge_plan.plan_item(d, res, currency="EUR")
    values = dict(item.results)
    assert values["power"] == f"{100 * res.power:.1f}%" and res.power >= 0.8 - 1e-9
    assert "the difference between two models" in item.question
    assert f"detects an effect of 0.03 with {100 * res.power:.0f}% power" in item.paragraph
    assert {a.name: a.value for a in item.assumptions}["judge sensitivity / specificity"] == "90.0% / 85.0%"


def test_bad_input():
    with pytest.raises(ValueError, match="exactly one"):
        jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01)
    with pytest.raises(ValueError, match="`correlation`"):
        jg.JudgeDesign(sd=0.5, correlation=1.5, cost_human=1.0, cost_judge=0.01, budget=100)
    with pytest.raises(ValueError, match="`design`"):
        judge_plan.plan_item(None, None)


def test_design_is_a_cache_key_by_value():
    def key(obj):
        h = hashlib.new("md5")
        update_hash(obj, h, cache_type=None)
        return h.hexdigest()

    a = jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    assert key(a) == key(jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000))
    assert key(a) != key(jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1001))


@pytest.mark.parametrize("statistic", ["cohen", "gwet_ac1", "krippendorff"])
def test_agreement_plan_states_the_engines_numbers(statistic):
    # oracle: core.judge's own functions, and the half-width recomputed from the SE with scipy's normal quantile
    from scipy.stats import norm

    design = jg.JudgePageDesign(ag_prevalence_pct=20.0, kappa=0.5, halfwidth=0.08, statistic=statistic)
    item = judge_plan.agreement_plan_item(design, link="http://x/judge?view=Agreement+study")
    need = jg.agreement_sample_size(prevalence=0.2, kappa=0.5, halfwidth=0.08, statistic=statistic)
    reached = norm.ppf(0.975) * float(jg.agreement_se(need, prevalence=0.2, kappa=0.5, statistic=statistic))
    value = jg.agreement_value(prevalence=0.2, kappa=0.5, statistic=statistic)
    assert reached <= 0.08 < norm.ppf(0.975) * float(jg.agreement_se(need - 1, prevalence=0.2, kappa=0.5,
                                                                       statistic=statistic))
    results = dict(item.results)
    assert results["items both raters label"] == f"{need:,}"
    assert results[f"{jg.STATISTICS[statistic]} at this table"] == f"{value:.3f}"
    assert results["95% half-width at that n"] == f"± {reached:.3f}"
    assert f"Two raters both label {need:,} items" in item.paragraph
    assert jg.STATISTICS[statistic] in item.question and "± 0.08" in item.question
    assert "agreement study" in plan_html([item]) and f"{need:,}" in plan_html([item])
    with pytest.raises(ValueError, match="`design`"):
        judge_plan.agreement_plan_item(design.judge_design())

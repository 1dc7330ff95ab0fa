"""core.llm.plan: the LLM page's plan, checked against core.llm's engines (Miller 2024; Card et al. 2020)."""

from __future__ import annotations

import pytest

from core import llm
from core.llm import plan as llm_plan
from core.plan import plan_html


def test_plan_states_the_engines_numbers():
    d = llm.BenchmarkDesign(0.70, 0.73, difficulty_sd=0.25, correlation=0.6, n=2000)
    result, sizes = d.power(2000), d.sample_sizes()
    assert result == d.power()  # the design's n
    item = llm_plan.plan_item(d, result, target_power=0.8, mde=d.mde(2000), sizes=sizes)
    values = dict(item.results)
    # oracle: the keyword API (tested against independent derivations in test_llm.py)
    assert result == llm.benchmark_power(2000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    assert values["power"] == f"{100 * result.power:.1f}%" == "64.3%"
    assert values["questions for 80% power"] == f"{sizes.first:,}" == "2,899"
    assert "detects a +3.0-point gain with 64% power" in item.paragraph
    assert f"overstate the gain by {result.type_m:.2f}×" in item.paragraph
    assert item.test == "two-sided t test of the mean paired difference"


def test_clusters_judge_cheapest_and_assurance():
    d = llm.BenchmarkDesign(0.70, 0.73, difficulty_sd=0.2, correlation=0.5, samples=3, cluster_size=5, icc=0.2,
                            judge_sensitivity=0.9, judge_specificity=0.85, n=900, cost_question=0.5,
                            cost_sample=0.01)
    assert d.judged  # the judge's Se / Sp given: answers are graded by it
    result = d.power(900)
    best = d.plan(cost_question=0.5, cost_sample=0.01)
    assert best == d.plan()  # the design's unit costs
    row = {"assurance": 0.41, "ceiling": 0.97}
    item = llm_plan.plan_item(d, result, target_power=0.8, cheapest=best, assurance=row,
                              prior=(3.0, 1.0, "set on the page"), currency="EUR",
                              sources={"sd": "fitted from harness logs"})
    # the design's cost: n × (cost per question + 2 models × K answers × cost per answer)
    assert item.cost == pytest.approx(900 * (0.5 + 2 * 3 * 0.01))
    values = dict(item.results)
    assert values["cheapest design"] == f"{best.n_questions:,} questions × K = {best.samples} (EUR {best.cost:,.2f})"
    assert values["assurance"] == "41.0%" and values["assurance ceiling"] == "97.0%"
    assert "179 degrees of freedom" in item.paragraph  # G − 1 = ceil(900 / 5) − 1 (Cameron & Miller 2015)
    assert "sensitivity 90% and specificity 85%" in item.paragraph
    names = {a.name: (a.value, a.source) for a in item.assumptions}
    assert names["ICC"] == ("0.20", "slider") and names["difficulty spread σ"][1] == "fitted from harness logs"
    assert item.test.endswith("(cluster-robust SE, t on G − 1 df)")
    assert "LLM benchmark" in plan_html([item])


def test_bad_design():
    with pytest.raises(ValueError, match="`design`"):
        llm_plan.plan_item({"accuracy_a": 0.7}, None, target_power=0.8)


def test_no_unit_costs_no_cost():
    d = llm.BenchmarkDesign(0.70, 0.73, n=500, cost_question=0.0, cost_sample=0.0)
    item = llm_plan.plan_item(d, d.power(), target_power=0.8)
    assert item.cost is None and "With 500 questions" in item.paragraph

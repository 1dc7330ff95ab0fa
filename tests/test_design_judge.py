"""core.judge.design.JudgePageDesign: the LLM-judges page's one design, its links, ranges and delegations."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest

from core import judge as jg
from core.judge.design import BUDGETS, JudgePageDesign

D = JudgePageDesign
PAGE = (Path(__file__).resolve().parents[1] / "pages" / "judge.py").read_text()

KEYS = {"estimand": "estimand", "judge_spec": "judge_spec", "prevalence_pct": "prev", "sensitivity_pct": "se",
        "specificity_pct": "sp", "correlation": "rho", "sd": "sd", "cost_human": "c_h", "cost_judge": "c_j",
        "plan_by": "plan_by", "budget": "budget", "target_se": "target_se", "delta": "delta", "alpha": "alpha",
        "target_power": "target", "statistic": "ag_stat", "ag_prevalence_pct": "ag_prev", "kappa": "ag_kappa",
        "halfwidth": "ag_hw", "agreement": "ag_po"}


def test_default_design():
    assert D.from_params({}) == D()
    d = D()
    assert (d.prevalence_pct, d.sensitivity_pct, d.specificity_pct, d.cost_human, d.cost_judge, d.budget) == (
        70.0, 90.0, 85.0, 1.0, 0.01, 1000)
    assert d.judged_by_accuracy and not d.paired and d.judge() == (0.7, 0.9, 0.85)


@pytest.mark.parametrize("design", [
    D(estimand="paired", correlation=0.55, sd=1.3, cost_human=2.5, cost_judge=0.002, plan_by="delta", delta=0.04,
      target_power=0.9, alpha=0.01),
    D(judge_spec="correlation", plan_by="target_se", target_se=0.0065, statistic="gwet_ac1", ag_prevalence_pct=7.0,
      kappa=0.35, halfwidth=0.05, agreement=0.97),
    D(prevalence_pct=12.5, sensitivity_pct=99.5, specificity_pct=60.0, budget=50000, statistic="krippendorff"),
])
def test_round_trip(design):
    params = design.to_params()
    assert set(params) == set(KEYS.values())
    assert D.from_params(params) == design


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = D.from_params({"prev": "100", "rho": "1.5", "c_h": "0", "plan_by": "vibes", "ag_kappa": "x", "sd": "0.7"},
                      messages=notes)
    assert d == D(sd=0.7)
    assert [n.split(" ")[0] for n in notes] == ["`prevalence_pct`", "`correlation`", "`cost_human`", "`plan_by`",
                                                "`kappa`"]
    assert all(n.endswith("is used.") for n in notes)
    # checks that span fields: an impossible judge, κ below its floor at this prevalence
    notes = []
    assert D.from_params({"se": "50", "sp": "40"}, messages=notes) == D(sensitivity_pct=50.0)
    assert "`sensitivity` + `specificity` must exceed 100%" in notes[0]
    notes = []
    assert D.from_params({"ag_prev": "10", "ag_kappa": "-0.5"}, messages=notes) == D(ag_prevalence_pct=10.0)
    assert "`kappa`" in notes[0]


def test_every_field_has_a_unit_and_the_pages_url_key():
    assert {f.name: f.key for f in D.fields()} == KEYS
    assert all(isinstance(f.unit, str) and f.label and f.help for f in D.fields())
    assert D.field("prevalence_pct").unit == "%" and D.field("target_se").unit == "label units"
    # the target SE keeps the label's scale: a link's ?target_se=0.011 is 0.011 (1.1 points), as before
    assert D.field("target_se").scale == 1.0 and D.from_params({"target_se": "0.011"}).target_se == 0.011
    for name in KEYS:  # every field but α and the target power (the shared decision controls) has its widget here
        if name not in ("alpha", "target_power", "budget", "target_se", "delta"):
            assert re.search(rf'inp\("{name}"|"{name}"[,)]', PAGE), name
    assert 'inp(mode, top[0]' in PAGE and 'inp("budget", top[0]' in PAGE
    assert D.field("budget").default in BUDGETS


@pytest.mark.parametrize("name, outside", [
    ("prevalence_pct", 0.0), ("prevalence_pct", 100.0), ("sensitivity_pct", 100.5), ("specificity_pct", -0.5),
    ("correlation", 1.0), ("correlation", -1.0), ("sd", 0.0), ("cost_human", 0.0), ("cost_judge", -1e-9),
    ("budget", 0), ("target_se", 0.0), ("alpha", 0.51), ("alpha", 0.0), ("target_power", 1.0),
    ("ag_prevalence_pct", 0.0), ("kappa", 1.0), ("halfwidth", 0.0), ("agreement", 0.5), ("agreement", 1.0),
    ("delta", 0.0),
])
def test_a_value_just_outside_the_range_is_refused_by_name(name, outside):
    base = D(judge_spec="correlation") if name in ("sensitivity_pct", "specificity_pct") else D()
    with pytest.raises(ValueError, match=f"`{name.removesuffix('_pct')}"):
        base.with_(**{name: outside})


def test_the_engines_refuse_the_same_values():
    for kw in [dict(correlation=1.0), dict(sd=0.0), dict(cost_human=0.0), dict(alpha=0.51)]:
        with pytest.raises(ValueError):
            jg.ppi_plan(**{**dict(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000), **kw})
    with pytest.raises(ValueError):
        jg.agreement_sample_size(prevalence=0.1, kappa=-0.5, halfwidth=0.1)
    with pytest.raises(ValueError):
        jg.prevalence_paradox_curve(agreement=0.5)


def test_the_extremes_inside_are_accepted_by_the_engines():
    for d in [D(judge_spec="correlation", correlation=0.999, sd=1e-3, cost_human=1e-6, cost_judge=1e6, alpha=0.5,
                plan_by="target_se", target_se=1e-4),
              D(judge_spec="correlation", correlation=-0.999, plan_by="delta", delta=-5.0, target_power=0.999),
              D(prevalence_pct=0.5, sensitivity_pct=100.0, specificity_pct=1.0),
              D(prevalence_pct=99.5, sensitivity_pct=1.0, specificity_pct=100.0, budget=3)]:
        res = d.plan()
        assert res.n_human >= 1 and res.se > 0 and res.cost > 0
        assert d.plan_by != "delta" or 0.0 <= res.power <= 1.0
    d = D(ag_prevalence_pct=49.9, kappa=0.999, halfwidth=1e-3, agreement=0.999)
    assert d.agreement_sample_size() > 0 and len(d.paradox_curve()) > 0


def test_the_engine_design_is_the_pages_derivation():
    d = D()
    sd, rho, p_obs = jg.judge_correlation(0.7, 0.9, 0.85)
    assert d.judge_correlation() == (sd, rho, p_obs)
    assert d.judge_design() == jg.JudgeDesign(sd=sd, correlation=min(rho, 0.999), cost_human=1.0, cost_judge=0.01,
                                              budget=1000, sd_judge=math.sqrt(p_obs * (1 - p_obs)), prevalence=0.7,
                                              sensitivity=0.9, specificity=0.85)
    # a paired comparison always uses the correlation, whatever the (disabled) judge_spec says
    p = D(estimand="paired", plan_by="target_se")
    assert p.judge() is None and p.judge_design() == jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0,
                                                                    cost_judge=0.01, target_se=0.011, paired=True)
    # a perfect judge correlates perfectly: ρ is capped below 1 for the PPI++ algebra
    assert D(sensitivity_pct=100.0, specificity_pct=100.0).judge_design().correlation == 0.999


def test_methods_agree_with_the_engines():
    d = D(judge_spec="correlation", correlation=0.7, sd=0.4, plan_by="delta", delta=0.05, statistic="gwet_ac1",
          ag_prevalence_pct=20.0, kappa=0.5, halfwidth=0.08, agreement=0.85)
    kw = dict(sd=0.4, correlation=0.7, cost_human=1.0, cost_judge=0.01, delta=0.05, target_power=0.8, alpha=0.05)
    assert d.plan() == jg.ppi_plan(**kw)
    pd.testing.assert_frame_equal(d.curves([10, 100], (0, 1000)),
                                  jg.ppi_curve([10, 100], sd=0.4, correlation=0.7, n_judge_only=(0, 1000),
                                               cost_human=1.0, cost_judge=0.01, delta=0.05, alpha=0.05))
    pd.testing.assert_frame_equal(d.split_curve([0.2, 0.9]),
                                  jg.split_curve([0.2, 0.9], **{k: v for k, v in kw.items() if k != "correlation"}))
    assert d.agreement_sample_size() == jg.agreement_sample_size(prevalence=0.2, kappa=0.5, halfwidth=0.08,
                                                                 statistic="gwet_ac1", confidence=0.95)
    pd.testing.assert_frame_equal(d.agreement_curve([50, 500]),
                                  jg.agreement_curve([50, 500], prevalence=0.2, kappa=0.5, confidence=0.95))
    assert d.agreement_value() == jg.agreement_value(prevalence=0.2, kappa=0.5, statistic="gwet_ac1")
    pd.testing.assert_frame_equal(d.paradox_curve(), jg.prevalence_paradox_curve(agreement=0.85))
    # the budget mode buys the most precise split: never over budget
    b = D(judge_spec="correlation", budget=500)
    assert b.plan().cost <= 500 and b.plan() == jg.ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0,
                                                            cost_judge=0.01, budget=500)

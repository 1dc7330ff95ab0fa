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
        "halfwidth": "ag_hw", "agreement": "ag_po", "active_source": "al_source", "min_share": "al_share",
        "beta_a": "al_a", "beta_b": "al_b", "n_items": "al_items", "n_human": "al_n", "active_target_se": "al_target",
        "item_seed": "al_seed", "p10_pct": "lp_p10", "p01_pct": "lp_p01", "labels_kappa": "lp_kappa",
        "labels_prevalence": "lp_prev", "cost_item": "lp_c_item", "cost_label": "lp_c_label", "max_labels": "lp_max"}
LABELS_PAGE = (Path(__file__).resolve().parents[1] / "pages" / "_judge_labels.py").read_text()
#: The agreement study's and the κ paradox's fields, whose widgets sit in their views (pages/_judge_views.py)
VIEWS_PAGE = (Path(__file__).resolve().parents[1] / "pages" / "_judge_views.py").read_text()
VIEW_FIELDS = ("statistic", "ag_prevalence_pct", "kappa", "halfwidth", "agreement")
TAB_FIELDS = ("active_source", "min_share", "beta_a", "beta_b", "n_items", "n_human", "active_target_se", "item_seed",
              "p10_pct", "p01_pct", "labels_kappa", "labels_prevalence", "cost_item", "cost_label", "max_labels")


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
    D(active_source="calibration", min_share=0.25, beta_a=2.5, beta_b=0.3, n_items=50_000, n_human=2_000,
      active_target_se=0.0125, item_seed=77, p10_pct=12.5, p01_pct=3.0, labels_kappa=0.35, labels_prevalence=0.2,
      cost_item=2.5, cost_label=0.05, max_labels=11),
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
    for name in TAB_FIELDS:  # the two label tabs' widgets (pages/_judge_labels.py)
        assert f'"{name}"' in LABELS_PAGE, name
    for name in VIEW_FIELDS:  # the agreement and paradox views' widgets, above their charts
        assert f'"{name}"' in VIEWS_PAGE and f'inp("{name}"' not in PAGE, name
    for name in KEYS:  # every field but α and the target power (the shared decision controls) has its widget here
        if name not in ("alpha", "target_power", "budget", "target_se", "delta") + TAB_FIELDS + VIEW_FIELDS:
            assert re.search(rf'inp\("{name}"|"{name}"[,)]', PAGE), name
    assert 'inp(mode, top[0]' in PAGE and 'inp("budget", top[0]' in PAGE
    assert D.field("budget").default in BUDGETS


@pytest.mark.parametrize("name, outside", [
    ("prevalence_pct", 0.0), ("prevalence_pct", 100.0), ("sensitivity_pct", 100.5), ("specificity_pct", -0.5),
    ("correlation", 1.01), ("correlation", -1.01), ("sd", 0.0), ("cost_human", 0.0), ("cost_judge", -1e-9),
    ("budget", 0), ("target_se", 0.0), ("alpha", 0.51), ("alpha", 0.0), ("target_power", 1.0),
    ("ag_prevalence_pct", 0.0), ("kappa", 1.0), ("halfwidth", 0.0), ("agreement", 0.5), ("agreement", 1.0),
    ("delta", 0.0), ("min_share", 1.01), ("beta_a", 0.0), ("beta_b", 10_000.5), ("n_items", 1),
    ("n_items", 2_000_001), ("n_human", 0), ("n_human", 1001), ("active_target_se", 0.0), ("item_seed", -1),
    ("p10_pct", 100.5), ("p01_pct", -0.5), ("labels_kappa", 1.01), ("labels_prevalence", 1.0), ("cost_item", -0.01),
    ("cost_label", 0.0), ("max_labels", 0), ("max_labels", 100),
])
def test_a_value_just_outside_the_range_is_refused_by_name(name, outside):
    base = D(judge_spec="correlation") if name in ("sensitivity_pct", "specificity_pct") else D()
    names = {"p10_pct": "p10", "p01_pct": "p01"}
    with pytest.raises(ValueError, match=f"`{names.get(name, name.removesuffix('_pct'))}"):
        base.with_(**{name: outside})


def test_the_engines_refuse_the_same_values():
    for kw in [dict(correlation=1.01), dict(sd=0.0), dict(cost_human=0.0), dict(alpha=0.51)]:
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
    assert d.judge_design() == jg.JudgeDesign(sd=sd, correlation=rho, cost_human=1.0, cost_judge=0.01,
                                              budget=1000, sd_judge=math.sqrt(p_obs * (1 - p_obs)), prevalence=0.7,
                                              sensitivity=0.9, specificity=0.85)
    # a paired comparison always uses the correlation, whatever the (disabled) judge_spec says
    p = D(estimand="paired", plan_by="target_se")
    assert p.judge() is None and p.judge_design() == jg.JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0,
                                                                    cost_judge=0.01, target_se=0.011, paired=True)
    # a perfect judge correlates perfectly (phi coefficient 1), and the engine takes ρ = 1 as it is
    assert D(sensitivity_pct=100.0, specificity_pct=100.0).judge_design().correlation == 1.0


@pytest.mark.parametrize("plan_by", ["budget", "target_se", "delta"])
def test_a_perfect_judge_is_planned_with_its_exact_variance(plan_by):
    # Se = Sp = 1: the judge's label is the human label, so the PPI++ variance σ²/n·(1 − ρ²·N/(n + N)) at ρ = 1 is
    # σ²/(n + N), the judge's mean over every item (Angelopoulos, Duchi & Zrnic 2023, §2) — and Rogan–Gladen with
    # Se = Sp = 1 is the apparent rate over the N judge-only items, σ²/N. A cap at ρ = 0.999 overstated the PPI++
    # SE (0.002096 against the exact 0.001743 on the default budget's split) and ranked Rogan–Gladen first.
    d = D(sensitivity_pct=100.0, specificity_pct=100.0, plan_by=plan_by)
    res = d.plan()
    sd = math.sqrt(0.7 * 0.3)
    assert res.se == pytest.approx(sd / math.sqrt(res.n_human + res.n_judge_only), rel=1e-12)
    assert res.n_human == 2  # the estimator's floor: humans add nothing a perfect judge does not give
    assert res.judge_only.se == pytest.approx(sd / math.sqrt(res.n_judge_only), rel=1e-12)
    assert res.se < res.judge_only.se < res.human_only.se
    table = jg.strategy_table(res)
    assert table.sort_values("se").strategy.iloc[0] == "PPI++"
    if plan_by == "delta":
        assert 0.8 <= res.power <= 1.0


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


def test_the_label_tabs_delegate_to_their_engines():
    d = D(min_share=0.1, beta_a=2.0, beta_b=3.0, n_items=500, n_human=50, p10_pct=10.0, p01_pct=5.0,
          labels_kappa=0.5, labels_prevalence=0.3, cost_item=1.5, cost_label=0.5, max_labels=5, alpha=0.01,
          target_power=0.9)
    conf = tuple(jg.beta_confidences(2.0, 3.0, 500).tolist())
    assert d.active_design() == jg.ActiveDesign(conf, 50, 0.1)
    assert d.with_(n_human=2).active_design((0.2, 0.5, 0.9)) == jg.ActiveDesign((0.2, 0.5, 0.9), 2, 0.1)
    assert d.active_design().se() == jg.active_se(conf, 50, min_share=0.1)
    got = d.labels_plan()
    want = jg.labels_per_item(0.1, 0.05, kappa=0.5, prevalence=0.3, cost_item=1.5, cost_label=0.5, alpha=0.01,
                              target_power=0.9, max_labels=5)
    assert got.best == want.best
    pd.testing.assert_frame_equal(got.table, want.table)
    # Dorner & Hardt (2024)'s docstring example: at κ = 0.6 one label per item is cheapest for p10 = 8%, p01 = 4%
    assert D().labels_plan().best == 1
    # the engines refuse the ends the design refuses
    with pytest.raises(ValueError):
        jg.beta_confidences(0.0, 1.0, 100)
    with pytest.raises(ValueError):
        jg.labels_per_item(0.08, 0.04, kappa=0.6, max_labels=100)
    # and accept the extremes inside
    e = D(beta_a=1e4, beta_b=1e-3, n_items=2, n_human=2, min_share=1.0, p10_pct=100.0, p01_pct=0.0,
          labels_kappa=1.0, labels_prevalence=0.999, cost_item=0.0, cost_label=1e-9, max_labels=99)
    assert 0 <= e.active_design().se() and e.labels_plan().best >= 1

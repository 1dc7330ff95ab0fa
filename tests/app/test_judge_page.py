"""AppTest tests of the LLM judges and human labels page (pages/judge.py); oracle: core.judge called directly."""

from __future__ import annotations

import numpy as np
import pytest

from core import judge as jg

from .conftest import captions, chart, chart_data, decode, metrics, open_page, open_plan

SD, RHO, P_OBS = jg.judge_correlation(0.70, 0.90, 0.85)
DEFAULT = dict(sd=SD, correlation=RHO, cost_human=1.0, cost_judge=0.01, budget=1000, prevalence=0.7,
               sensitivity=0.9, specificity=0.85, sd_judge=(P_OBS * (1 - P_OBS)) ** 0.5)


@pytest.fixture
def page():
    at = open_page("judge")
    assert not at.exception, at.exception
    return at


def test_defaults_match_core(page):
    shown = metrics(page)
    res = jg.ppi_plan(**DEFAULT)
    assert shown["Human-labelled items"] == f"{res.n_human:,}"
    assert shown["Judge-only items"] == f"{res.n_judge_only:,}"
    # right/wrong labels: the SE of an accuracy, in points
    assert shown["Standard error"] == f"{100 * res.se:.2f} pts"
    assert shown["Equivalent human-only items"] == f"{res.effective_n:,.0f}"
    assert shown["Cost"] == f"USD {res.cost:,.2f}"
    # the judge's weight is explained in a caption, not shown as an unexplained symbol in the row
    assert not any("λ" in label for label in shown) and len(shown) <= 5
    assert any(c.startswith(f"Judge weight λ (power-tuned): {res.lambda_:.3f} — how much the judge's labels count")
               for c in captions(page))


def test_se_chart_has_marker_curves_and_hover(page):
    fig = chart(page, "se_chart")
    res = jg.ppi_plan(**DEFAULT)
    names = [t["name"] for t in fig["data"]]
    assert f"N = {res.n_judge_only:,} (current)" in names and "N = 0" in names and "current design" in names
    marker = fig["data"][names.index("current design")]
    # right/wrong labels: the SE reads in accuracy points (× 100) on the chart as in the metrics row
    assert marker["x"] == [res.n_human] and marker["y"][0] == pytest.approx(100 * res.se)
    assert fig["layout"]["yaxis"]["title"]["text"] == "Standard error (points)"
    assert all("hovertemplate" in t for t in fig["data"])


@pytest.mark.parametrize(
    "kind, key, value",
    [("slider", "prev", 60.0), ("slider", "se", 80.0), ("slider", "sp", 95.0), ("number_input", "c_h", 2.0),
     ("number_input", "c_j", 0.05), ("select_slider", "budget", 3000)],
)
def test_each_design_control_changes_the_chart(page, kind, key, value):
    before = chart_data(page, "se_chart")
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert chart_data(page, "se_chart") != before


def test_correlation_mode_sliders_and_target_modes():
    page = open_page("judge", {"judge_spec": "correlation"})
    for key, value in (("rho", 0.6), ("sd", 0.3)):
        before = chart_data(page, "se_chart")
        page.slider(key=key).set_value(value)
        page.run()
        assert not page.exception and chart_data(page, "se_chart") != before
    page = open_page("judge", {"judge_spec": "correlation", "rho": "0.8", "sd": "0.5", "plan_by": "a target SE (cheapest)",
                               "target_se": "0.011"})
    res = jg.ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, target_se=0.011)
    assert metrics(page)["Cost"] == f"USD {res.cost:,.2f}" and res.se <= 0.011
    fig = chart(page, "se_chart")
    assert any(s.get("y0") == pytest.approx(0.011) for s in fig["layout"]["shapes"])
    # correlation inputs describe scores on any scale: the chart keeps the scores' own units
    assert fig["layout"]["yaxis"]["title"]["text"] == "Standard error (score units)"
    page.slider(key="target_se").set_value(0.02)
    page.run()
    assert metrics(page)["Cost"] != f"USD {res.cost:,.2f}"
    page = open_page("judge", {"judge_spec": "correlation", "plan_by": "an effect (cheapest)", "delta": "0.03"})
    res = jg.ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, delta=0.03)
    assert metrics(page)["Power at 0.03 score units"] == f"{100 * res.power:.1f}%"
    for kind, key, value in (("slider", "delta", 0.05), ("slider", "target", 0.9), ("select_slider", "alpha", 0.01)):
        before = metrics(page)
        getattr(page, kind)(key=key).set_value(value)
        page.run()
        assert not page.exception and metrics(page) != before


def test_paired_doubles_the_cost():
    page = open_page("judge", {"estimand": "difference of two models", "rho": "0.7", "sd": "0.3"})
    res = jg.ppi_plan(sd=0.3, correlation=0.7, cost_human=1.0, cost_judge=0.01, budget=1000, paired=True)
    shown = metrics(page)
    assert shown["Human-labelled items"] == f"{res.n_human:,}" and shown["Standard error"] == f"{res.se:.4f} score units"


def test_split_and_strategy_views():
    page = open_page("judge", {"view": "Cheapest split vs correlation"})
    assert not page.exception
    fig = chart(page, "split_chart")
    assert {"human-labelled", "judge-only", "current design"} <= {t["name"] for t in fig["data"]}
    page = open_page("judge", {"view": "Three strategies at equal cost"})
    fig = chart(page, "strategies_chart")
    table = jg.strategy_table(jg.ppi_plan(**DEFAULT))
    bars = fig["data"][0]
    assert bars["x"] == table["strategy"].tolist()
    shown = [d.value for d in page.dataframe][0]
    assert shown["se"].tolist() == pytest.approx(table["se"].tolist())


def test_agreement_views_and_sliders():
    page = open_page("judge", {"view": "Agreement study"})
    assert not page.exception
    # the study's inputs are its own, above its chart (not among the sidebar's assumptions of the PPI plan)
    assert not {"ag_stat", "ag_prev", "ag_kappa", "ag_hw", "ag_po"} & {w.key for w in page.sidebar.get("slider")
                                                                        + page.sidebar.get("selectbox")}
    assert {"ag_prev", "ag_kappa", "ag_hw"} <= {w.key for w in page.main.get("slider")}
    need = jg.agreement_sample_size(prevalence=0.3, kappa=0.6, halfwidth=0.1)
    assert metrics(page)["Items for ± 0.1"] == f"{need:,}"
    for kind, key, value in (("slider", "ag_prev", 10.0), ("slider", "ag_kappa", 0.4), ("slider", "ag_hw", 0.05),
                             ("selectbox", "ag_stat", "gwet_ac1")):
        before = chart_data(page, "agreement_chart")
        getattr(page, kind)(key=key).set_value(value)
        page.run()
        assert not page.exception and chart_data(page, "agreement_chart") != before
    need = jg.agreement_sample_size(prevalence=0.1, kappa=0.4, halfwidth=0.05, statistic="gwet_ac1")
    assert metrics(page)["Items for ± 0.05"] == f"{need:,}"
    page = open_page("judge", {"view": "κ vs AC1 (prevalence paradox)"})
    before = chart_data(page, "paradox_chart")
    page.slider(key="ag_po").set_value(0.8)
    page.run()
    assert not page.exception and chart_data(page, "paradox_chart") != before


def test_sample_calibration_fills_the_sliders():
    page = open_page("judge", {"view": "Calibrate from your labels", "judge_spec": "correlation"})
    page.radio(key="cal_source").set_value("sample")
    page.run()
    assert not page.exception
    fitted = jg.fit_judge(jg.sample_calibration(), seed=0)
    table = [d.value for d in page.dataframe if "parameter" in d.value.columns][0].set_index("parameter")
    assert table.loc["sensitivity", "estimate"] == pytest.approx(fitted.sensitivity)
    assert table.loc["correlation ρ", "standard error"] == pytest.approx(fitted.correlation_se)
    page.button(key="use_fit").click()
    page.run()
    assert page.radio(key="judge_spec").value == "accuracy"
    assert page.slider(key="se").value == pytest.approx(round(200 * fitted.sensitivity) / 2)
    assert page.slider(key="sp").value == pytest.approx(round(200 * fitted.specificity) / 2)


def test_bad_upload_gets_a_message():
    page = open_page("judge", {"view": "Calibrate from your labels"})
    page.file_uploader(key="cal_file").set_value(("cal.csv", b"item,human,judge\n1,0,maybe\n2,1,1\n3,0,0\n", "text/csv"))
    page.run()
    assert not page.exception
    assert page.error and any("`judge` must be a number" in e.value for e in page.error)


def test_impossible_judge_is_explained(page):
    page.slider(key="se").set_value(50.0)
    page.slider(key="sp").set_value(50.0)
    page.run()
    assert not page.exception
    assert any("`sensitivity` + `specificity`" in e.value for e in page.error)


def test_url_plan_download_and_presentation():
    page = open_page("judge", {"budget": "5000", "present": "true"})
    assert not page.exception
    res = jg.ppi_plan(**{**DEFAULT, "budget": 5000})
    assert metrics(page)["Standard error"] == f"{100 * res.se:.2f} pts"
    assert "Download the plotted data (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert any("Explain" in e.proto.label for e in page.get("expander"))
    page = open_plan(page, "judge")
    assert not page.exception
    assert "Download the plan (HTML)" in [b.proto.label for b in page.get("download_button")]
    assert any(f"{res.n_human:,} items labelled by humans" in c.value for c in page.code)


def test_statistics_with_the_same_curve_are_drawn_once_and_named_together():
    # shared label rates: Cohen's κ = Scott's π, and Krippendorff's α shares its large-sample SE — two curves drawn
    # one over the other would hide κ
    page = open_page("judge", {"view": "Agreement study"})
    kappa = jg.agreement_se(np.array([100, 400]), prevalence=0.3, kappa=0.6, statistic="cohen")
    alpha = jg.agreement_se(np.array([100, 400]), prevalence=0.3, kappa=0.6, statistic="krippendorff")
    assert kappa == pytest.approx(alpha, rel=1e-12)
    names = [t["name"] for t in chart(page, "agreement_chart")["data"] if t.get("mode") == "lines"]
    assert names == ["Cohen's κ = Krippendorff's α", "Gwet's AC1"]
    assert any("share one curve" in c.value for c in page.caption)
    page = open_page("judge", {"view": "κ vs AC1 (prevalence paradox)"})
    curve = jg.JudgePageDesign().paradox_curve()
    same = curve.pivot(index="prevalence", columns="statistic", values="value")
    assert same["cohen"].to_numpy() == pytest.approx(same["krippendorff"].to_numpy(), rel=1e-12)
    names = [t["name"] for t in chart(page, "paradox_chart")["data"] if t.get("mode") == "lines"]
    assert names == ["Cohen's κ = Krippendorff's α", "Gwet's AC1"]


def test_the_agreement_study_plans_its_own_design_and_the_paradox_none():
    # the page's PPI plan reads none of these views' inputs: the agreement study exports its own, the κ paradox
    # (a lesson, not a design) nothing
    link = {"view": "Agreement study", "ag_prev": "10.0", "ag_stat": "Krippendorff's α"}
    page = open_plan(open_page("judge", link), "judge_agreement")
    assert not page.exception, page.exception
    need = jg.agreement_sample_size(prevalence=0.1, kappa=0.6, halfwidth=0.1, statistic="krippendorff")
    text = [c.value for c in page.code if c.language != "python"]
    assert any(f"Two raters both label {need:,} items" in t and "Krippendorff's α" in t for t in text), text
    assert not any("PPI" in t or "human-labelled" in t for t in text)
    assert "judge_open" not in page.session_state  # the PPI plan's expander is not made
    page = open_page("judge", {"view": "κ vs AC1 (prevalence paradox)"})
    assert not page.exception, page.exception
    labels = [e.proto.label for e in page.get("expander")]
    assert not any(label.startswith("Plan this design") for label in labels), labels
    assert any("agreement study's plan is in the view" in c.value for c in page.caption)


def test_agreement_tab_at_extreme_values_shows_a_message_not_a_traceback():
    # 2% prevalence, a loose half-width: the SE formula would suggest a handful of items; the page starts at the
    # smallest n where the rarer label is expected 5 times and says why
    page = open_page("judge", {"view": "Agreement study", "ag_prev": "2.0", "ag_kappa": "0.0", "ag_hw": "0.3",
                               "ag_stat": "gwet_ac1"})
    assert not page.exception and not page.error
    need = jg.agreement_sample_size(prevalence=0.02, kappa=0.0, halfwidth=0.3, statistic="gwet_ac1")
    assert need == 250 and metrics(page)["Items for ± 0.3"] == "250"
    assert any("expected fewer than 5 times" in c.value for c in page.caption)
    xs = [x for trace in chart(page, "agreement_chart")["data"] for x in decode(trace.get("x") or [])]
    assert xs and min(xs) >= 250


def test_a_perfect_judge_is_planned_exactly_and_said_to_rest_on_its_assumption():
    page = open_page("judge", {"se": "100.0", "sp": "100.0"})
    assert not page.exception and not page.error
    sd = (0.7 * 0.3) ** 0.5
    res = jg.ppi_plan(**{**DEFAULT, "sd": sd, "correlation": 1.0, "sensitivity": 1.0, "specificity": 1.0,
                         "sd_judge": sd})
    shown = metrics(page)
    assert shown["Human-labelled items"] == "2" and shown["Judge-only items"] == f"{res.n_judge_only:,}"
    assert shown["Standard error"] == f"{100 * sd / (res.n_human + res.n_judge_only) ** 0.5:.2f} pts"
    assert any("judge–human correlation ρ = 1.000" in c for c in captions(page))
    assert any("(|ρ| = 1)" in i.value and "Agreement study" in i.value for i in page.info)
    # an ordinary judge gets no such note
    assert not any("(|ρ| = 1)" in i.value for i in open_page("judge").info)

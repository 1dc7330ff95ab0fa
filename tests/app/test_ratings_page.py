"""AppTest tests of the human-ratings page (pages/ratings.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core import ratings as rt

from .conftest import captions, chart, chart_data, metrics, open_page, open_pins, open_plan


@pytest.fixture
def page():
    at = open_page("ratings", timeout=180)
    assert not at.exception, at.exception
    return at


def test_default_is_analytic_and_instant(page):
    # the default view runs no simulation at all
    res = rt.likert_power(3, 100, 0.1, **rt.PRESETS["high"], rule="satterthwaite", method="analytic")
    shown = metrics(page)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    # Type-M from the noncentral-t model (the SE estimated, not known): 1.58× here, where treating it as known said
    # 2.82× against a simulated 1.50×
    assert shown["Type-M (exaggeration)"] == f"{res.type_m:.2f}×" == "1.58×"
    # the false-positive rate is the fitted test's real one (its df estimated from 2 worker df: above the nominal
    # 5%), integrated exactly (oracle: fitted_test_power, itself tested against the simulated fit)
    fitted = rt.fitted_test_power(3, 100, 0.1, **rt.PRESETS["high"])
    assert shown["False-positive rate"] == f"{100 * fitted.false_positive_rate:.1f}%" == "7.3%"
    assert "fitted test" in captions(page)
    # stronger than the approximation here (it exceeds its level), so no warning: the verdict stays
    assert any("Under-powered" in w.value for w in page.warning)
    assert not any("test as fitted" in w.value for w in page.warning)
    assert not [c for c in captions(page) if "Monte Carlo" in c]
    assert not page.get("progress")
    fig = chart(page, "power_chart")
    assert "current design" in [t["name"] for t in fig["data"]]


def test_zero_slope_variances_warn_that_the_fitted_test_is_weaker():
    # the noncentral-t approximation says 98%; the test as fitted (its df estimated from nearly equal mean squares)
    # has 81%: the page says so in place of the verdict
    page = open_page("ratings", {"sigma_w1": "0", "sigma_i1": "0"}, timeout=180)
    assert not page.exception
    sig = dict(rt.PRESETS["high"], sigma_w1=0.0, sigma_i1=0.0)
    approx = rt.likert_power(3, 100, 0.1, **sig, rule="satterthwaite", method="analytic")
    fitted = rt.fitted_test_power(3, 100, 0.1, **sig)
    assert approx.power - fitted.power > 0.1
    shown = metrics(page)
    assert shown["Power"] == f"{100 * approx.power:.1f}%"
    warned = [w.value for w in page.warning if "test as fitted" in w.value]
    assert warned and f"{100 * fitted.power:.1f}% power, not {100 * approx.power:.1f}%" in warned[0]
    # ... and where the fitted test reaches the target, beside the MDE the row shows (oracle: fitted_test_mde)
    reach = rt.fitted_test_mde(3, 100, **sig)
    assert f"It reaches 80% power at β1 = {reach:.3f} (the MDE above says {rt.likert_mde(3, 100, **sig):.3f})" in warned[0]
    assert not page.success  # no "adequately powered" beside it


def test_paper_rule_is_simulated_with_its_false_positives():
    page = open_page("ratings", {"rule": "paper: ML fit, t > 1.96"}, timeout=180)
    assert not page.exception
    res = rt.likert_power(3, 100, 0.1, **rt.PRESETS["high"], rule="paper", n_sims=500, seed=2020)
    shown = metrics(page)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    assert f"± {100 * res.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)
    assert shown["False-positive rate"] == f"{100 * res.false_positive_rate:.1f}%"
    assert any("not calibrated" in e.value for e in page.error)  # 3 workers: far above 2.5%
    fig = chart(page, "power_chart")
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    assert "current design" in [t["name"] for t in fig["data"]]


@pytest.mark.parametrize(
    "kind, key, value",
    [("slider", "workers", 10), ("select_slider", "items", 500), ("slider", "sigma_w1", 0.05),
     ("slider", "sigma_i1", 0.05), ("slider", "sigma", 0.1), ("select_slider", "alpha", 0.01)],
)
def test_controls_change_the_curves(page, kind, key, value):
    before = chart_data(page, "power_chart")
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert chart_data(page, "power_chart") != before


def test_simulation_check_of_the_analytic_rule(page):
    page.toggle(key="simulate").set_value(True)
    page.run()
    assert not page.exception
    res = rt.likert_power(3, 100, 0.1, **rt.PRESETS["high"], rule="satterthwaite", n_sims=500, seed=2020)
    assert metrics(page)["Power"] == f"{100 * res.power:.1f}%"
    assert f"± {100 * res.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)
    names = [t["name"] for t in chart(page, "power_chart")["data"]]
    assert any("(simulated)" in n for n in names)


def test_preset_sets_the_sliders(page):
    page.selectbox(key="preset").set_value("low")
    page.run()
    assert not page.exception
    for key, value in rt.PRESETS["low"].items():
        assert page.slider(key=key).value == pytest.approx(value)
    page.selectbox(key="preset").set_value("WMT19")
    page.run()
    assert page.slider(key="baseline").value == pytest.approx(0.86)


def test_url_restores_view():
    at = open_page("ratings", {"workers": "10", "items": "50", "rule": "REML + Satterthwaite t"}, timeout=180)
    assert not at.exception
    res = rt.likert_power(10, 50, 0.1, **rt.PRESETS["high"], rule="satterthwaite", method="analytic")
    assert metrics(at)["Power"] == f"{100 * res.power:.1f}%"


PLAN = {"view": "Budget planner"}


def test_planner_table():
    page = open_page("ratings", PLAN, timeout=180)
    plans = rt.budget_plans(0.1, cost_per_rating=0.1, **rt.PRESETS["high"])
    best = plans.iloc[0]
    assert metrics(page)["Cheapest design"] == f"{int(best['workers'])} workers × {int(best['items']):,} items"
    assert chart_data(page, "planner_chart")


def test_pilot_upload_and_bad_pilot():
    page = open_page("ratings", {"view": "Fit a pilot"}, timeout=180)
    rng = np.random.default_rng(3)
    rows = [("w%d" % w, "i%d" % i, s, int(np.clip(round(3 + (0.4 if s == "new" else 0) + rng.normal(0, 1)), 1, 5)))
            for w in range(6) for i in range(20) for s in ("old", "new")]
    csv = pd.DataFrame(rows, columns=["worker", "item", "system", "rating"]).to_csv(index=False).encode()
    page.file_uploader(key="pilot").set_value(("pilot.csv", csv, "text/csv"))
    page.run()
    assert not page.exception
    assert metrics(page)["Workers × items"] == "6 × 20"
    page.button(key="use_pilot").click()
    page.run()
    assert not page.exception
    page.file_uploader(key="pilot").set_value(("bad.csv", b"worker,item,rating\n1,1,3\n2,2,4\n", "text/csv"))
    page.run()
    assert any("missing: system" in e.value for e in page.error)


def test_download_and_explainer(page):
    assert "Download the plotted data (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_crowdsourcing_layout(page):
    page.radio(key="layout").set_value("crowd")
    page.slider(key="workers").set_value(20)
    page.run()
    page.slider(key="per_item").set_value(5)
    page.run()
    assert not page.exception
    res = rt.crowd_power(20, 100, 5, 0.1, **rt.PRESETS["high"], rule="satterthwaite", n_sims=500, seed=2020)
    assert metrics(page)["Power"] == f"{100 * res.power:.1f}%"
    names = [t["name"] for t in chart(page, "power_chart")["data"]]
    assert any("k = 5 of 20" in n for n in names)


def test_crowd_planner():
    page = open_page("ratings", PLAN, timeout=180)
    page.radio(key="layout").set_value("crowd")
    page.slider(key="workers").set_value(20)
    page.run()
    assert not page.exception
    best = rt.crowd_plans(0.1, pool=20, **rt.PRESETS["high"]).iloc[0]
    assert metrics(page)["Cheapest design"] == f"{int(best['per_item'])} workers per item × {int(best['items']):,} items"


def test_pool_of_two_workers_is_not_an_error():
    # k workers per item with a pool of 2 (by dragging or by link)
    page = open_page("ratings", {"layout": "k workers per item", "workers": "2"}, timeout=180)
    assert not page.exception
    assert metrics(page)["Power"].endswith("%")


def test_false_positive_view_is_simulated_on_open():
    page = open_page("ratings", {"view": "False positives by rule", "items": "50"}, timeout=180)
    assert not page.exception
    fig = chart(page, "fpr_chart")
    assert len(fig["data"]) == 2 and any(s.get("y0") == 0.025 for s in fig["layout"]["shapes"])


# --- assurance, costs, plan and pins on the Ratings page -----------------------------------
def test_assurance_metric_chart_and_assurance_planner():
    page = open_page("ratings", {"assure": "true", "prior_mean": "0.1", "prior_sd": "0.03",
                                 "view": "Assurance vs items"}, timeout=180)
    assert not page.exception
    res = rt.likert_assurance(3, 100, 0.1, 0.03, **rt.PRESETS["high"])  # oracle: core (quadrature- and MC-tested)
    assert metrics(page)["Assurance"] == f"{100 * res.assurance:.1f}%"
    assert chart_data(page, "assurance_chart")
    page = open_page("ratings", {"assure": "true", "prior_mean": "0.1", "prior_sd": "0.03", "view": "Budget planner"},
                     timeout=180)
    best = rt.assurance_plans(0.1, 0.03, cost_per_rating=0.1, **rt.PRESETS["high"]).iloc[0]
    assert any(f"W = {int(best['workers'])}, I = {int(best['items'])}" in s.value for s in page.success)


def test_hourly_pay_sets_the_cost_per_rating():
    page = open_page("ratings", {"pay": "by the hour", "wage": "24", "per_hour": "60"}, timeout=180)
    assert not page.exception
    assert metrics(page)["Cost"] == f"USD {600 * 24 / 60:,.2f}"  # 2 × 3 workers × 100 items at 0.40 per rating


def test_presentation_mode_keeps_the_hourly_cost():
    # on a projector the cost controls are hidden: the costs are still the design the page was given (the wage
    # over the ratings per hour), not the per-rating default
    page = open_page("ratings", {"pay": "by the hour", "wage": "24", "per_hour": "60", "view": "Budget planner"},
                     timeout=180)
    page.toggle(key="present").set_value(True).run()
    assert not page.exception
    costs = rt.RatingsCostDesign(pay="hour", wage=24.0, ratings_per_hour=60.0)
    assert metrics(page)["Cost per rating"] == f"USD {costs.rating_cost:,.2f}" == "USD 0.40"
    best = costs.plans(rt.RatingsDesign()).iloc[0]
    assert metrics(page)["Cheapest design"] == f"{int(best['workers'])} workers × {int(best['items']):,} items"


def test_pins_and_plan(page):
    open_pins(page, "ratings")
    page.text_input(key="ratings_pin_name").set_value("three workers")
    page.button(key="ratings_pin_add").click()
    page.run()
    page.slider(key="workers").set_value(10)
    page.run()
    assert not page.exception
    assert "pinned: three workers" in [t["name"] for t in chart(page, "power_chart")["data"]]
    table = [d.value for d in page.dataframe if "pin" in d.value.columns][0].set_index("pin")
    high = rt.PRESETS["high"]
    assert table.loc["three workers", "power"] == pytest.approx(
        rt.likert_power(3, 100, 0.1, **high, rule="satterthwaite", method="analytic").power)
    open_plan(page, "ratings")
    text = [c.value for c in page.code if "mixed-model" in c.value][0]
    power = rt.likert_power(10, 100, 0.1, **high, rule="satterthwaite", method="analytic").power
    assert f"with {100 * power:.0f}% power" in text


def test_a_simulation_too_large_is_refused_with_what_to_reduce():
    # a link to a huge crowdsourcing design must not draw gigabytes; the page names what to reduce and
    # still shows the approximate analytic power (oracle: crowd_analytic)
    page = open_page("ratings", {"workers": "50", "items": "2000", "layout": "k workers per item", "per_item": "50"})
    assert not page.exception
    assert any("reduce `n_sims` to at most 100" in e.value for e in page.error)
    approx = rt.crowd_analytic(50, [2000], 50, [0.1], **rt.PRESETS["high"])["power"].iloc[0]
    shown = metrics(page)
    assert shown["Power"] == f"{100 * approx:.1f}%"
    assert shown["False-positive rate"] == "—"
    assert any("too large to simulate with 500 experiments" in i.value for i in page.info)


def test_pilot_with_other_column_names_gets_a_mapping_step():
    page = open_page("ratings", {"view": "Fit a pilot"}, timeout=180)
    rng = np.random.default_rng(4)
    rows = [("w%d" % w, "i%d" % i, s, int(np.clip(round(3 + (0.4 if s == "new" else 0) + rng.normal(0, 1)), 1, 5)))
            for w in range(5) for i in range(12) for s in ("old", "new")]
    csv = pd.DataFrame(rows, columns=["judge_name", "segment_no", "engine", "points"]).to_csv(index=False).encode()
    page.file_uploader(key="pilot").set_value(("pilot.csv", csv, "text/csv"))
    page.run()
    assert not page.exception and any("does not name worker" in i.value for i in page.info)
    for role, column in (("worker", "judge_name"), ("item", "segment_no"), ("system", "engine"), ("rating", "points")):
        page.selectbox(key=f"pilot_col_{role}").set_value(column)
    page.run()
    assert not page.exception and not page.error
    assert metrics(page)["Workers × items"] == "5 × 12"
    # Appraise-style names are guessed: the fit runs at once
    appraise = pd.DataFrame(rows, columns=["username", "itemId", "SYS", "score"]).to_csv(index=False).encode()
    page.file_uploader(key="pilot").set_value(("appraise.csv", appraise, "text/csv"))
    page.run()
    assert not page.exception and not page.error and metrics(page)["Workers × items"] == "5 × 12"


def test_widgets_are_the_designs_fields():
    # every declared field of core.ratings.RatingsDesign is a widget of the page under its URL key, and the design
    # a link describes (RatingsDesign.from_params) is the one the page computes
    link = {"workers": "10", "items": "50", "effect": "0.15", "sigma": "0.2", "alpha": "0.01", "likert": "continuous"}
    page = open_page("ratings", link, timeout=180)
    assert not page.exception
    keys = {f.key for f in rt.RatingsDesign.fields()} - {"per_item"}  # k: only with k workers per item
    assert all(key in page.session_state for key in keys)
    design = rt.RatingsDesign.from_params(link)
    assert design == rt.RatingsDesign(10, 50, 0.15, **{**rt.PRESETS["high"], "sigma": 0.2}, alpha=0.01)
    assert metrics(page)["Power"] == f"{100 * design.power(method='analytic').power:.1f}%"
    assert page.slider(key="workers").value == design.workers and page.slider(key="sigma").value == design.sigma
    # the sliders' ends and steps are the declared ones (inside the engines' ranges)
    for key in ("workers", "effect", "baseline", "sigma_w0", "sigma"):
        f, slider = rt.RatingsDesign.field(key), page.slider(key=key)
        assert (slider.min, slider.max, slider.step) == (f.widget_low, f.widget_high, f.widget_step), key
        assert f.low <= slider.min and slider.max <= f.high


def test_a_value_the_design_refuses_is_named_and_a_bad_pin_is_skipped(page):
    assert page.slider(key="sigma").min > 0  # the slider starts one step above 0: the model needs σ > 0
    zero = open_page("ratings", {"sigma": "0"}, timeout=180)  # a link can still say 0: named, and the default used
    assert not zero.exception
    assert any("`sigma=0`" in w.value and "takes a number from 0.005" in w.value for w in zero.warning)
    at = open_page("ratings", {"pins": "a~workers=inf|b~workers=10"}, timeout=180)
    assert not at.exception
    assert any("pinned design “a”" in e.value and "`workers`" in e.value for e in at.error)
    table = [d.value for d in at.dataframe if "pin" in d.value.columns][0].set_index("pin")
    assert list(table.index) == ["current", "b"]  # "a" is skipped, not drawn with a default in its place
    assert table.loc["b", "power"] == pytest.approx(
        rt.likert_power(10, 100, 0.1, **rt.PRESETS["high"], rule="satterthwaite", method="analytic").power)


def test_the_power_view_draws_power_alone_and_its_download_still_has_type_m(monkeypatch):
    """The power chart's grid leaves out the Type-M integrals (half its work on a slider move); the CSV, written when
    the button is clicked, has them (oracle: core.ratings.analytic_grid with Type-M, the same points)."""
    import io

    import streamlit as st

    from core.ratings.power import analytic_grid

    captured = {}
    original = st.download_button

    def capture(label, data, *args, **kwargs):
        captured[kwargs.get("key")] = data
        return original(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", capture)  # the page's download sits in the main area (st.…)
    at = open_page("ratings")
    assert not at.exception
    data = captured["download_curves"]
    table = pd.read_csv(io.BytesIO(data() if callable(data) else data))
    rows = table[table["chart"] == "power_vs_effect"]
    from pages._ratings_views import EFFECTS, worker_set
    from core.ratings import RatingsDesign

    d = RatingsDesign()
    want = analytic_grid(list(worker_set(d)), [d.items], list(EFFECTS), alpha=d.alpha, **d.sigmas)
    assert len(rows) == len(want)
    assert np.allclose(rows["type_m"].to_numpy(), want["type_m"].to_numpy(), equal_nan=True)
    assert rows.loc[rows["effect"] > 0, "type_m"].notna().all()
    assert np.allclose(rows["power"].to_numpy(), want["power"].to_numpy())
    # the drawn grid itself: power alone
    fast = analytic_grid(list(worker_set(d)), [d.items], list(EFFECTS), alpha=d.alpha, with_type_m=False, **d.sigmas)
    assert fast["type_m"].isna().all() and np.array_equal(fast["power"], want["power"])

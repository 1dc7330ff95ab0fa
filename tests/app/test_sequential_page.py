"""AppTest tests of the DA campaign page (pages/sequential.py)."""

from __future__ import annotations

import pytest

from core import sequential as sq

from .conftest import captions, chart, chart_data, decode, metrics, open_page, open_pins, open_plan


@pytest.fixture
def page():
    at = open_page("sequential", timeout=120)
    assert not at.exception, at.exception
    return at


BUDGET = {"view": "Budget curves (Figure 6)"}


@pytest.fixture
def budget_page():
    at = open_page("sequential", BUDGET, timeout=120)
    assert not at.exception, at.exception
    return at


def test_defaults_match_core(page):
    shown = metrics(page)
    res = sq.campaign_power("fixed", 1200, 2.0)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    assert shown["False-positive rate (no true difference)"] == "5.00%"
    assert shown["Expected judgments"] == "1,200"
    # the saving over a population of pairs is a property of the procedures, not of this design: the view Budget
    # curves (Figure 6) shows it (test_savings_table_has_current_and_triple_budget); the default view points there
    assert not any("Saving of interim-futility" in c for c in captions(page))
    assert any("Budget curves (Figure 6)" in c for c in captions(page))
    assert shown["MDE at 80% power"] == f"{sq.campaign_mde('fixed', 1200):.2f} pts"  # DA points, 0–100 scale
    fig = chart(page, "power_chart")
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    assert "current design" in [t["name"] for t in fig["data"]]


CONTROLS = [
    ("select_slider", "budget", 2400),
    ("slider", "peeks", 5),
    ("selectbox", "boundary", "obrien_fleming"),
    ("slider", "futility", 0.3),
    ("slider", "mean", 85.0),
    ("slider", "sd", 20.0),
    ("select_slider", "alpha", 0.01),
    ("radio", "test", "t"),
    ("slider", "delta", 4.0),  # moves the current-design marker
]


def _panel(at, axis: str) -> list:
    """The traces of one panel of the power view's figure (``"y"``: power, ``"y2"``: expected judgments)."""
    return [(t.get("name"), t.get("x"), t.get("y")) for t in chart(at, "power_chart")["data"]
            if t.get("yaxis", "y") == axis]


@pytest.mark.parametrize("kind, key, value", CONTROLS)
def test_each_control_changes_the_power_chart(page, kind, key, value):
    # Figure 5's two panels in one chart: power, and (for the budget and the judgments' model) expected judgments
    panels = ("y",) if key in ("test", "delta", "peeks", "boundary", "futility") else ("y", "y2")
    before = [_panel(page, axis) for axis in panels]
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert all(a != b for a, b in zip([_panel(page, axis) for axis in panels], before))


@pytest.mark.parametrize("kind, key, value", [c for c in CONTROLS if c[1] not in ("test", "delta")])
def test_each_control_changes_the_budget_curves(budget_page, kind, key, value):
    before = chart_data(budget_page, "budget_chart")
    getattr(budget_page, kind)(key=key).set_value(value)
    budget_page.run()
    assert not budget_page.exception
    assert chart_data(budget_page, "budget_chart") != before


def test_interim_design_and_stopping_distribution():
    page = open_page("sequential", {"view": "When does it stop?"}, timeout=120)
    page.radio(key="design").set_value("interim")
    page.run()
    res = sq.campaign_power("interim", 1200, 2.0)
    shown = metrics(page)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    assert shown["Expected judgments"] == f"{res.expected_judgments:,.0f}"
    bars = chart(page, "stops_chart")["data"]
    heights = decode(bars[0]["y"])
    assert len(heights) == 3 and sum(heights) == pytest.approx(sum(res.efficacy_probabilities))


def test_naive_peeking_is_flagged(page):
    page.radio(key="design").set_value("naive")
    page.run()
    assert any("Uncorrected peeking" in e.value for e in page.error)


def test_simulated_campaigns_on_demand(page):
    analytic = metrics(page)["Power"]
    page.toggle(key="simulate").set_value(True)
    page.run()
    page.select_slider(key="sims").set_value(500)
    page.run()
    assert not page.exception
    mc = sq.campaign_power("fixed", 1200, 2.0, method="simulate", n_sims=500, seed=2022)
    assert metrics(page)["Power"] == analytic
    assert metrics(page)["Simulated power"] == f"{100 * mc.power:.1f}%"
    assert f"± {100 * mc.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)


def test_pasted_population_and_bad_paste(budget_page):
    page = budget_page
    page.radio(key="pop").set_value("paste")
    page.run()
    before = chart_data(page, "budget_chart")
    page.text_area(key="pop_values").set_value("0.5 1 1.5 2 8 9")
    page.run()
    assert not page.exception
    assert chart_data(page, "budget_chart") != before
    page.text_area(key="pop_values").set_value("1, two, 3")
    page.run()
    assert not page.exception
    assert any("not a number" in e.value for e in page.error)


def test_url_restores_view():
    # bound radios and selectboxes carry their displayed label in the URL
    at = open_page("sequential", {"design": "interim-futility", "budget": "2400", "delta": "1.5"}, timeout=120)
    assert not at.exception
    res = sq.campaign_power("interim_futility", 2400, 1.5)
    assert metrics(at)["Power"] == f"{100 * res.power:.1f}%"


def test_control_variates_panel():
    page = open_page("sequential", {"view": "Control variates (§6.2)"}, timeout=120)
    assert metrics(page)["Effective budget multiplier"] == f"{sq.control_variates_efficiency(0.5, 0.231):.2f}×"
    page.slider(key="cv_rho").set_value(1.0)
    page.run()
    assert metrics(page)["Effective budget multiplier"] == "1.30×"  # Table 3, WMT21, ρ = 1


def test_download_and_explainer(page):
    assert "Download the plotted data (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_uploaded_population(budget_page):
    page = budget_page
    page.radio(key="pop").set_value("paste")
    page.run()
    before = chart_data(page, "budget_chart")
    page.file_uploader(key="pop_file").set_value(("diffs.csv", b"difference\n0.3\n1.2\n4.5\n", "text/csv"))
    page.run()
    assert not page.exception
    assert chart_data(page, "budget_chart") != before
    page.file_uploader(key="pop_file").set_value(("bad.csv", b"0.5\n\x80\x81\n", "text/csv"))
    page.run()
    assert not page.exception
    assert any("not UTF-8" in e.value for e in page.error)


def test_savings_table_has_current_and_triple_budget(budget_page):
    page = budget_page
    tables = [d.value for d in page.dataframe if "saving" in d.value.columns]
    assert tables, "no savings table"
    table = tables[0]
    assert set(table["budget"]) == {"1,200 (current)", "3,600 (3×)"}
    for budget, label in ((1200, "1,200 (current)"), (3600, "3,600 (3×)")):
        want = sq.budget_savings(budget, sq.default_population(30)).set_index("design")
        row = table[(table["budget"] == label) & (table["design"] == "interim-futility")].iloc[0]
        assert row["saving"] == pytest.approx(want.loc["interim_futility", "saving"])


# --- assurance, costs, plan and pins on the DA page ----------------------------------------
def test_assurance_metric_and_chart():
    page = open_page("sequential", {"assure": "true", "prior_mean": "2.0", "prior_sd": "2.0",
                                    "view": "Assurance vs budget"}, timeout=120)
    assert not page.exception
    res = sq.campaign_assurance("fixed", 1200, 2.0, 2.0)  # oracle: core (tested against direct quadrature)
    assert metrics(page)["Assurance"] == f"{100 * res.assurance:.1f}%"
    fig = chart(page, "assurance_chart")
    assert any(a["text"].startswith("ceiling 84%") for a in fig["layout"]["annotations"])  # Φ(2/2)


def test_expected_cost_and_money_chart():
    page = open_page("sequential", {"design": "interim-futility", "cost_unit": "0.8", "currency": "EUR",
                                    "view": "Power vs money"}, timeout=120)
    assert not page.exception
    res = sq.campaign_power("interim_futility", 1200, 2.0)
    assert metrics(page)["Expected cost"] == f"EUR {res.expected_judgments * 0.8:,.2f}"
    fig = chart(page, "money_chart")
    assert fig["layout"]["xaxis"]["title"]["text"] == "Expected cost (EUR)"
    assert {"fixed", "interim", "interim-futility"} <= {t["name"] for t in fig["data"]}


def test_plan_and_pins(page):
    open_plan(page, "sequential")
    text = [c.value for c in page.code if "Direct Assessment" in c.value][0]
    res = sq.campaign_power("fixed", 1200, 2.0)
    assert f"detected with {100 * res.power:.0f}% power" in text
    # the population saving (computed when the plan opens, not on every move) is in the plan's results
    page.button(key="sequential_add").click()
    page.run()
    item = page.session_state["plan_basket"][-1]
    saved = sq.budget_savings(1200, sq.default_population(30)).set_index("design")
    assert dict(item.results)["judgments saved by interim-futility (population)"] == \
        f"{100 * saved.loc['interim_futility', 'saving']:.0f}%"
    open_pins(page, "sequential")
    page.text_input(key="sequential_pin_name").set_value("small")
    page.button(key="sequential_pin_add").click()
    page.run()
    page.select_slider(key="budget").set_value(4800)
    page.run()
    assert not page.exception
    assert "pinned: small" in [t["name"] for t in chart(page, "power_chart")["data"]]
    table = [d.value for d in page.dataframe if "pin" in d.value.columns][0].set_index("pin")
    assert table.loc["small", "power"] == pytest.approx(res.power)
    assert table.loc["current", "power"] == pytest.approx(sq.campaign_power("fixed", 4800, 2.0).power)


def test_type_m_metric_and_curves_match_core(page):
    res = sq.campaign_power("fixed", 1200, 2.0)
    assert metrics(page)["Type-M at stopping"] == f"{res.type_m:.2f}×"
    # the curves have a view of their own: the default view draws power and judgments only (one figure, two panels)
    assert [a for a in chart(page, "power_chart")["layout"] if a.startswith("yaxis")] == ["yaxis", "yaxis2"]
    assert not any("Type-M" in c.proto.spec for c in page.get("plotly_chart"))
    page.segmented_control(key="view").set_value("Exaggeration (Type-M)")
    page.run()
    assert not page.exception
    fig = chart(page, "type_m_chart")
    names = [t["name"] for t in fig["data"]]
    assert {"fixed", "interim", "interim-futility"} <= set(names) and "naive peeking" not in names
    assert fig["layout"]["yaxis"]["type"] == "log"
    curves = sq.campaign_curves(1200, [4.0], designs=("fixed", "interim"))
    for trace in fig["data"]:
        if trace["name"] in ("fixed", "interim"):
            xs, ys = decode(trace["x"]), decode(trace["y"])
            want = float(curves.loc[curves["design"] == trace["name"], "type_m"].iloc[0])
            assert ys[xs.index(4.0)] == pytest.approx(want, rel=1e-9)
    assert any("difference of the two systems' mean scores at the analysis that stopped" in c for c in captions(page))
    page.radio(key="design").set_value("interim")
    page.run()
    assert metrics(page)["Type-M at stopping"] == f"{sq.campaign_power('interim', 1200, 2.0).type_m:.2f}×"


def test_warns_outside_the_score_models_range():
    """At a mean of 95 with an SD of 27 most scores sit at 100; the page says its numbers are unreliable there."""
    from .conftest import open_page as _open

    at = _open("sequential", {"mean": "95.0", "sd": "27.0"})
    assert not at.exception and any("Outside the score model" in w.value for w in at.warning)
    assert not any("Outside the score model" in w.value for w in _open("sequential").warning)


def _pct(p):
    return f"{100 * p:.1f}%"


def test_messages_state_the_design_whose_numbers_they_show(page):
    """Each message about the current design names its procedure and budget next to that design's own power."""
    fixed = sq.campaign_power("fixed", 1200, 2.0)
    warning = [w.value for w in page.warning if "Under-powered" in w.value]
    assert warning == [f"**Under-powered:** the fixed design (one test after 1,200 judgments) has {_pct(fixed.power)} "
                       f"power for a 2-point difference (target 80%); it collects 1,200 judgments on average."]
    page.radio(key="design").set_value("interim")
    page.run()
    interim = sq.campaign_power("interim", 1200, 2.0)  # oracle: the engine, for the design now selected
    assert interim.power < fixed.power
    warning = [w.value for w in page.warning if "Under-powered" in w.value]
    assert warning == [f"**Under-powered:** the interim design (3 analyses, Pocock boundary, 1,200 judgments planned) "
                       f"has {_pct(interim.power)} power for a 2-point difference (target 80%); it collects "
                       f"{interim.expected_judgments:,.0f} judgments on average."]
    power_help = next(m.proto.help for m in page.metric if m.label == "Power")  # the metric names its design
    assert "the interim design (3 analyses, Pocock boundary, 1,200 judgments planned), true difference 2 DA" in power_help
    assert metrics(page)["Power"] == _pct(interim.power)
    page.radio(key="design").set_value("interim_futility")
    page.slider(key="delta").set_value(4.0)
    page.run()
    futile = sq.campaign_power("interim_futility", 1200, 4.0)
    success = [s.value for s in page.success]
    assert success == [f"**Adequately powered:** the interim-futility design (3 analyses, Pocock boundary, futility "
                       f"stop at p > 0.5, 1,200 judgments planned) has {_pct(futile.power)} power for a 4-point "
                       f"difference (≥ 80%); it collects {futile.expected_judgments:,.0f} judgments on average."]
    assert not [w.value for w in page.warning if "Under-powered" in w.value]
    page.radio(key="design").set_value("naive")
    page.run()
    naive = sq.campaign_power("naive", 1200, 4.0)
    assert [e.value for e in page.error] == [
        f"**Uncorrected peeking:** naive peeking (3 uncorrected analyses, 1,200 judgments planned) declares false "
        f"winners {100 * naive.false_positive_rate:.1f}% of the time, not 5%. Use a boundary (Pocock, "
        "O'Brien–Fleming) instead."]


def test_assurance_caption_names_the_design():
    page = open_page("sequential", {"assure": "true", "prior_mean": "2.0", "prior_sd": "2.0",
                                    "design": "interim"}, timeout=120)
    assert not page.exception
    res = sq.campaign_assurance("interim", 1200, 2.0, 2.0)
    assert (f"The interim design (3 analyses, Pocock boundary, 1,200 judgments planned): ceiling "
            f"{100 * res.ceiling:.1f}%; expected judgments under the prior {res.expected_judgments:,.0f}"
            in captions(page))

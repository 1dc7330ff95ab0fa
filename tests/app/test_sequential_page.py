"""AppTest tests of the DA campaign page (pages/sequential.py)."""

from __future__ import annotations

import pytest

from core import sequential as sq

from .conftest import captions, chart, chart_data, metrics, open_page


@pytest.fixture
def page():
    at = open_page("sequential", timeout=120)
    assert not at.exception, at.exception
    return at


def test_defaults_match_core(page):
    shown = metrics(page)
    res = sq.campaign_power("fixed", 1200, 2.0)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    assert shown["False-positive rate (Δ = 0)"] == "5.00%"
    assert shown["Expected judgments"] == "1,200"
    saved = sq.budget_savings(1200, sq.default_population(30)).set_index("design")
    assert shown["Saving of interim-futility"] == f"{100 * saved.loc['interim_futility', 'saving']:.0f}%"
    fig = chart(page, "power_chart")
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    assert "current design" in [t["name"] for t in fig["data"]]


@pytest.mark.parametrize(
    "kind, key, value, charts",
    [
        ("select_slider", "budget", 2400, ("power_chart", "judgments_chart")),
        ("slider", "peeks", 5, ("power_chart", "budget_chart")),
        ("selectbox", "boundary", "obrien_fleming", ("power_chart", "budget_chart")),
        ("slider", "futility", 0.3, ("power_chart", "budget_chart")),
        ("slider", "mean", 85.0, ("power_chart", "budget_chart")),
        ("slider", "sd", 20.0, ("power_chart", "budget_chart")),
        ("select_slider", "alpha", 0.01, ("power_chart", "budget_chart")),
        ("radio", "test", "t", ("power_chart",)),
        ("slider", "delta", 4.0, ("power_chart",)),  # moves the current-design marker
    ],
)
def test_each_control_changes_the_charts(page, kind, key, value, charts):
    before = [chart_data(page, c) for c in charts]
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert [chart_data(page, c) for c in charts] != before


def test_interim_design_and_stopping_distribution(page):
    page.radio(key="design").set_value("interim")
    page.run()
    res = sq.campaign_power("interim", 1200, 2.0)
    shown = metrics(page)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    assert shown["Expected judgments"] == f"{res.expected_judgments:,.0f}"
    bars = chart(page, "stops_chart")["data"]
    assert len(bars[0]["y"]) == 3 and sum(bars[0]["y"]) == pytest.approx(sum(res.efficacy_probabilities))


def test_naive_peeking_is_flagged(page):
    page.radio(key="design").set_value("naive")
    page.run()
    assert any("Uncorrected peeking" in e.value for e in page.error)


def test_monte_carlo_engine(page):
    page.radio(key="engine").set_value("simulate")
    page.run()
    page.select_slider(key="sims").set_value(500)
    page.run()
    assert not page.exception
    mc = sq.campaign_power("fixed", 1200, 2.0, method="simulate", n_sims=500, seed=2022)
    assert metrics(page)["Power"] == f"{100 * mc.power:.1f}%"
    assert f"± {100 * mc.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)


def test_pasted_population_and_bad_paste(page):
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


def test_control_variates_panel(page):
    assert metrics(page)["Effective budget multiplier"] == f"{sq.control_variates_efficiency(0.5, 0.231):.2f}×"
    page.slider(key="cv_rho").set_value(1.0)
    page.run()
    assert metrics(page)["Effective budget multiplier"] == "1.30×"  # Table 3, WMT21, ρ = 1


def test_download_and_explainer(page):
    assert "Download the plotted curves (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_uploaded_population(page):
    page.radio(key="pop").set_value("paste")
    page.run()
    before = chart_data(page, "budget_chart")
    page.file_uploader(key="pop_file").set_value(("diffs.csv", b"difference\n0.3\n1.2\n4.5\n", "text/csv"))
    page.run()
    assert not page.exception
    assert chart_data(page, "budget_chart") != before
    page.file_uploader(key="pop_file").set_value(("bad.csv", b"\xff\xfe\x00\x01", "text/csv"))
    page.run()
    assert not page.exception
    assert any("not UTF-8" in e.value for e in page.error)


def test_savings_table_has_current_and_triple_budget(page):
    tables = [d.value for d in page.dataframe if "saving" in d.value.columns]
    assert tables, "no savings table"
    table = tables[0]
    assert set(table["budget"]) == {"1,200 (current)", "3,600 (3×)"}
    triple = sq.budget_savings(3600, sq.default_population(30)).set_index("design")
    row = table[(table["budget"] == "3,600 (3×)") & (table["design"] == "interim-futility")].iloc[0]
    assert row["saving"] == pytest.approx(triple.loc["interim_futility", "saving"])

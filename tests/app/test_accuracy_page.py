"""AppTest tests of the Accuracy page (pages/accuracy.py)."""

from __future__ import annotations

import pytest

from core import accuracy as acc

from .conftest import captions, chart, chart_data, metrics, open_page, open_pins, open_plan


@pytest.fixture
def page():
    at = open_page("accuracy")
    assert not at.exception, at.exception
    return at


def test_home_page_links_every_scenario():
    from streamlit.testing.v1 import AppTest

    from .conftest import APP

    at = AppTest.from_file(str(APP), default_timeout=30).run()
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    for word in ("Power", "Type-M", "Type-S"):
        assert word in text


def test_defaults_show_appendix_c_numbers(page):
    shown = metrics(page)
    exact = acc.mcnemar_power(500, 0.02, 0.9)
    assert shown["Power"] == f"{100 * exact.power:.1f}%"  # 24.9%: appendix C's "approximately 0.25"
    assert shown["Type-M (exaggeration)"] == f"{exact.type_m:.2f}×"
    assert shown["Items for 80% power"] == f"{acc.mcnemar_sample_size(0.02, 0.9):,}"
    assert shown["MDE at 80% power"] == f"{100 * acc.mcnemar_mde(500, agreement=0.9, test='exact'):.2f} pts"


def test_power_chart_has_target_line_marker_and_hover(page):
    fig = chart(page, "power_chart")
    names = [t.get("name") for t in fig["data"]]
    assert "current design" in names
    marker = fig["data"][names.index("current design")]
    assert marker["x"] == [500]
    assert marker["y"][0] == pytest.approx(acc.mcnemar_power(500, 0.02, 0.9).power)
    assert any(shape.get("y0") == 0.8 for shape in fig["layout"]["shapes"])
    assert all("hovertemplate" in t for t in fig["data"])


@pytest.mark.parametrize(
    "kind, key, value",
    [
        ("select_slider", "n", 2000),
        ("slider", "delta", 3.0),
        ("slider", "agreement", 95.0),
        ("select_slider", "alpha", 0.01),
        ("selectbox", "test", "chi2"),
    ],
)
def test_each_control_changes_the_chart(page, kind, key, value):
    before = chart_data(page, "power_chart")
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert chart_data(page, "power_chart") != before


def test_target_power_moves_line_and_mde(page):
    before = metrics(page)["MDE at 80% power"]
    page.slider(key="target").set_value(0.9)
    page.run()
    shown = metrics(page)
    assert shown["MDE at 90% power"] != before
    assert any(s.get("y0") == 0.9 for s in chart(page, "power_chart")["layout"]["shapes"])


def test_agreement_prior_drives_agreement(page):
    page.selectbox(key="pa_source").set_value("glue")
    page.run()
    assert not page.exception
    agree = acc.agreement_prior(0.9, 0.02, "glue")
    point = acc.mcnemar_power(500, 0.02, agree)
    assert metrics(page)["Power"] == f"{100 * point.power:.1f}%"
    assert page.slider(key="agreement").disabled


def test_url_parameters_restore_the_view():
    # bound radios and selectboxes carry their displayed label in the URL
    at = open_page("accuracy", {"n": "2000", "delta": "2.0", "agreement": "92.0", "test": "mid-p"})
    assert not at.exception
    assert at.select_slider(key="n").value == 2000
    assert at.selectbox(key="test").value == "midp"
    assert metrics(at)["Power"] == f"{100 * acc.mcnemar_power(2000, 0.02, 0.92, test='midp').power:.1f}%"


def test_impossible_combination_is_explained_not_a_traceback(page):
    page.slider(key="agreement").set_value(99.0)
    page.slider(key="delta").set_value(5.0)
    page.run()
    assert not page.exception
    messages = " ".join(e.value for e in page.error)
    assert "Impossible design" in messages and "1 − P\\_a" in messages


def test_null_effect_shows_false_positive_rate(page):
    page.slider(key="delta").set_value(0.0)
    page.run()
    assert not page.exception
    shown = metrics(page)
    assert float(shown["False-positive rate"].rstrip("%")) <= 5.0


def test_simulation_check_on_demand_shows_standard_error(page):
    exact = metrics(page)["Power"]
    page.toggle(key="simulate").set_value(True)
    page.run()
    assert not page.exception
    mc = acc.mcnemar_power(500, 0.02, 0.9, method="simulate", n_sims=10_000, seed=2020)
    shown = metrics(page)
    assert shown["Power"] == exact  # the exact number stays; the simulation is shown next to it
    assert shown["Simulated power"] == f"{100 * mc.power:.1f}%"
    assert f"± {100 * mc.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)
    assert any("agrees with the exact engine" in c for c in captions(page))


def test_unpaired_scenario(page):
    page.radio(key="scenario").set_value("unpaired")
    page.run()
    assert not page.exception
    res = acc.unpaired_power(500, 0.9, 0.02)
    assert metrics(page)["Power"] == f"{100 * res.power:.1f}%"
    before = chart_data(page, "power_chart")
    page.slider(key="baseline").set_value(80.0)
    page.run()
    assert chart_data(page, "power_chart") != before


def test_preference_scenario_and_bad_shares(page):
    page.radio(key="scenario").set_value("preference")
    page.select_slider(key="n").set_value(100)
    page.run()
    assert not page.exception
    assert metrics(page)["Power"] == f"{100 * acc.preference_power(100, 0.65, 0.35).power:.1f}%"
    before = chart_data(page, "power_chart")
    page.slider(key="ties_pct").set_value(20.0)
    page.run()
    assert chart_data(page, "power_chart") != before
    page.slider(key="p_new").set_value(90.0)
    page.run()
    assert not page.exception
    assert any("exceeds 100%" in e.value for e in page.error)


def test_downloads_and_explainer_present(page):
    labels = [b.proto.label for b in page.get("download_button")]
    assert "Download the plotted data (CSV)" in labels
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_squad_leaderboard_view():
    page = open_page("accuracy", {"view": "SQuAD 2.0 leaderboard"})
    page.radio(key="squad_size").set_value("dev")
    page.run()
    assert not page.exception
    text = " ".join(m.value for m in page.markdown)
    assert "**19 of 143**" in text  # appendix D



def test_assurance_metric_and_chart():
    page = open_page("accuracy", {"assure": "true", "prior_mean": "2.0", "prior_sd": "1.0",
                                  "view": "Assurance vs n"})
    assert not page.exception
    res = acc.mcnemar_assurance(500, 0.02, 0.01, 0.9)
    assert metrics(page)["Assurance"] == f"{100 * res.assurance:.1f}%"
    fig = chart(page, "assurance_chart")
    assert any(a["text"].startswith("ceiling") for a in fig["layout"]["annotations"])
    assert {"assurance (prior averaged)", "current design"} <= {t["name"] for t in fig["data"]}


def test_cost_metric():
    page = open_page("accuracy", {"cost_unit": "0.25", "currency": "EUR"})
    assert metrics(page)["Cost"] == "EUR 125.00"  # 500 items × 0.25


def test_plan_text_download_and_basket():
    page = open_plan(open_page("accuracy", {"n": "2000"}), "accuracy_paired")
    text = [c.value for c in page.code if "McNemar" in c.value][0]
    res = acc.mcnemar_power(2000, 0.02, 0.9)
    assert text.startswith("With 2,000 test items, an expected gain of 2 points and 90% agreement, an exact McNemar "
                           f"test at α = 0.05 has {100 * res.power:.0f}% power")
    assert f"overstate the gain by {res.type_m:.2f}× on average (Card et al., 2020)." in text
    assert "Download the plan (HTML)" in [b.proto.label for b in page.get("download_button")]
    page.button(key="accuracy_paired_add").click()
    page.run()
    page.switch_page("pages/plan.py")
    page.run()
    assert not page.exception
    assert any("Accuracy (paired (McNemar))" in m.value for m in page.markdown)
    assert "Download the combined plan (HTML)" in [b.proto.label for b in page.get("download_button")]


def test_pin_compare_remove_and_restore_from_url(page):
    open_pins(page, "accuracy")
    page.text_input(key="accuracy_pin_name").set_value("small test set")
    page.button(key="accuracy_pin_add").click()
    page.run()
    page.select_slider(key="n").set_value(2000)
    page.run()
    assert not page.exception
    fig = chart(page, "power_chart")
    pinned = [t for t in fig["data"] if t["name"] == "pinned: small test set"]
    assert pinned and pinned[0]["line"]["dash"] == "dash"
    table = [d.value for d in page.dataframe if "design" in d.value.columns][0]
    row = table.set_index("design").loc["small test set"]
    assert row["power"] == pytest.approx(acc.mcnemar_power(500, 0.02, 0.9).power)
    assert row["n_for_target"] == acc.mcnemar_sample_size(0.02, 0.9)
    link = page.query_params["pins"]
    restored = open_page("accuracy", {"pins": link if isinstance(link, str) else link[0]})
    assert "pinned: small test set" in [t["name"] for t in chart(restored, "power_chart")["data"]]
    open_pins(page, "accuracy")  # AppTest does not send an expander's state back on the next run
    page.button(key="accuracy_pin_remove_0").click()
    page.run()
    assert "pinned: small test set" not in [t["name"] for t in chart(page, "power_chart")["data"]]


def test_page_reads_its_design_from_a_link_and_pins_read_it_with_from_params():
    """A link written by AccuracyPageDesign.to_params() shows that design's numbers; the same link as a pin gives
    its row; a pin value that does not parse is reported naming the parameter."""
    from urllib.parse import quote

    from core.accuracy import AccuracyPageDesign

    d = AccuracyPageDesign(scenario="preference", n=300, p_new=55.5, tie_rate=12.0, ties="split", test="midp")
    at = open_page("accuracy", d.to_params())
    assert not at.exception and not at.error
    assert metrics(at)["Power"] == f"{100 * d.power().power:.1f}%"
    oracle = acc.preference_power(300, 0.555, round(1 - 0.555 - 0.12, 6), ties="split", test="midp")
    assert metrics(at)["Power"] == f"{100 * oracle.power:.1f}%"
    keys = ("scenario", "n", "p_new", "ties_pct", "ties", "test")
    pin = "pref~" + ",".join(f"{k}={quote(d.to_params()[k], safe='')}" for k in keys) + "|bad~scenario=unpaired,delta=x"
    at = open_page("accuracy", {"pins": pin})
    assert not at.exception
    table = [t.value for t in at.dataframe if "design" in t.value.columns][0].set_index("design")
    assert table.loc["pref", "power"] == pytest.approx(oracle.power)
    assert "bad" not in table.index
    assert any("“bad”" in e.value and "`delta` must be a number" in e.value for e in at.error)


@pytest.mark.parametrize("query, keys", [
    ({}, {"scenario", "n", "delta", "baseline", "pa_source", "agreement", "test", "alpha", "target"}),
    ({"scenario": "preference"}, {"scenario", "n", "p_new", "ties_pct", "ties", "test", "alpha", "target"}),
    ({"view": "No worse than (non-inferiority)"}, {"ni_kind", "ni_margin", "ni_test", "ni_alpha"}),
    ({"view": "Small test sets (intervals)"}, {"ci_level", "ci_p", "ci_half"}),
    ({"view": "SQuAD 2.0 leaderboard"}, {"squad_base", "squad_new", "squad_size"}),
])
def test_widgets_use_the_designs_url_keys(query, keys):
    """Every declared field's URL key is the key of the page's widget for it (links and pins use these keys)."""
    from core.accuracy import AccuracyPageDesign

    assert keys <= {f.key for f in AccuracyPageDesign.fields()}
    at = open_page("accuracy", query)
    assert not at.exception
    shown = {w.key for kind in ("slider", "select_slider", "selectbox", "radio") for w in getattr(at, kind)}
    assert keys <= shown, keys - shown

"""AppTest tests of the machine-translation page (pages/mt.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import mt

from .conftest import captions, chart, chart_data, metrics, open_page, open_pins, open_plan

SAMPLE = Path(__file__).resolve().parents[2] / "core" / "data" / "mt_sample" / "sample.tsv"


@pytest.fixture
def page():
    at = open_page("mt")
    assert not at.exception, at.exception
    return at


def test_defaults_show_the_papers_example(page):
    shown = metrics(page)
    expected = mt.bleu_power(2000, 1.0, 0.13, 25.8)
    assert shown["Power"] == f"{100 * expected.power:.1f}%"  # ≈ 75% (Figure 4)
    assert shown["MDE at 80% power"] == f"{mt.bleu_mde(2000, 0.13, 25.8):.2f} BLEU"
    assert shown["Sentences for 80% power"] == f"{mt.bleu_sample_size(1.0, 0.13, 25.8):,}"
    fig = chart(page, "power_chart")
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    assert "current design" in [t["name"] for t in fig["data"]]


@pytest.mark.parametrize(
    "kind, key, value",
    [("select_slider", "n", 3000), ("slider", "delta", 2.0), ("slider", "p0", 0.5), ("slider", "b0", 40.0),
     ("select_slider", "alpha", 0.01)],
)
def test_each_slider_changes_the_charts(page, kind, key, value):
    before = chart_data(page, "power_chart")
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert chart_data(page, "power_chart") != before


def test_sensitivity_view_draws_both_families():
    page = open_page("mt", {"view": "Sensitivity to P0 and b0 (Figure 17)"})
    assert not page.exception
    names = [t["name"] for t in chart(page, "p0_chart")["data"]]
    assert "P0 = 0.13" in names and "current design" in names
    assert "b0 = 25.8" in [t["name"] for t in chart(page, "b0_chart")["data"]]


def test_preset_sets_sliders(page):
    page.selectbox(key="preset").set_value("TF18 vs TF16, WMT18 (Table 3)")
    page.run()
    assert not page.exception
    assert page.slider(key="p0").value == pytest.approx(0.09)
    assert page.slider(key="b0").value == pytest.approx(29.4)
    assert page.slider(key="delta").value == pytest.approx(4.2)


def test_url_restores_view():
    at = open_page("mt", {"n": "3000", "p0": "0.5", "b0": "20.0", "delta": "0.5"})
    assert not at.exception
    assert metrics(at)["Power"] == f"{100 * mt.bleu_power(3000, 0.5, 0.5, 20.0).power:.1f}%"


def test_randomization_test_on_demand_shows_standard_error(page):
    fast = metrics(page)["Power"]
    page.toggle(key="simulate").set_value(True)
    page.run()
    page.select_slider(key="sims").set_value(500)
    page.run()
    assert not page.exception
    shown = metrics(page)
    full = mt.bleu_power(2000, 1.0, 0.13, 25.8, method="randomization", n_sims=500, n_trials=999, seed=2020)
    assert shown["Power"] == fast
    assert shown["Simulated power"] == f"{100 * full.power:.1f}%"
    assert f"± {100 * full.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)


def test_cached_randomization_run_replays_without_error(page):
    # a second run of a cached design (a rerun, or a second user) must not raise
    page.toggle(key="simulate").set_value(True)
    page.run()
    page.select_slider(key="sims").set_value(500)
    page.run()
    first = metrics(page)["Simulated power"]
    again = open_page("mt", {"simulate": "true", "sims": "500"})
    assert not again.exception
    assert metrics(again)["Simulated power"] == first


FIT_VIEW = {"view": "Fit P0 and b0 from your outputs"}


def test_upload_tsv_fits_and_fills_sliders():
    page = open_page("mt", FIT_VIEW)
    page.radio(key="upload_mode").set_value("tsv")
    page.run()
    page.file_uploader(key="file_tsv").set_value(("sample.tsv", SAMPLE.read_bytes(), "text/tab-separated-values"))
    page.run()
    assert not page.exception
    fitted = mt.fit_swap_effects(*mt.read_tsv(SAMPLE.read_bytes()))
    shown = metrics(page)
    assert shown["P0: segments unchanged by a swap"] == f"{fitted.p0:.3f}"
    assert shown["b0: spread of the swap effects"] == f"{fitted.b0:.1f}"
    assert chart_data(page, "additivity_chart")
    page.button(key="use_fit").click()
    page.run()
    assert page.slider(key="p0").value == pytest.approx(round(fitted.p0, 2))
    assert page.slider(key="b0").value == pytest.approx(min(round(fitted.b0, 1), 100.0))


@pytest.mark.parametrize(
    "files, message",
    [
        ((b"a b\nc d\n", b"a b\n", b"a b\nc d\n"), "same number of lines"),
        ((b"", b"a\n", b"a\n"), "empty"),
        ((b"\xff\xfe\xfa", b"a\n", b"a\n"), "UTF-8"),
    ],
)
def test_bad_uploads_get_clear_messages(files, message):
    page = open_page("mt", FIT_VIEW)
    for key, content in zip(("file_a", "file_b", "file_ref"), files):
        page.file_uploader(key=key).set_value((f"{key}.txt", content, "text/plain"))
    page.run()
    assert not page.exception
    assert any(message in e.value for e in page.error)


def test_sample_toggle_and_downloads():
    page = open_page("mt", FIT_VIEW)
    page.toggle(key="use_sample").set_value(True)
    page.run()
    assert not page.exception
    labels = [b.proto.label for b in page.get("download_button")]
    assert "Download the plotted data (CSV)" in labels
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_too_few_trials_is_explained(page):
    page.toggle(key="simulate").set_value(True)
    page.run()
    page.select_slider(key="trials").set_value(199)
    page.select_slider(key="alpha").set_value(0.001)
    page.run()
    assert not page.exception
    assert any("Too few trials" in e.value for e in page.error)


def test_small_effective_sample_warns(page):
    page.select_slider(key="n").set_value(100)
    page.slider(key="p0").set_value(0.5)
    page.run()
    assert any("unreliable" in w.value for w in page.warning)


# --- assurance, costs, plan and pins on the MT page ---------------------------------------
def test_assurance_metric_and_chart():
    page = open_page("mt", {"assure": "true", "prior_mean": "1.0", "prior_sd": "1.0", "view": "Assurance vs n"})
    assert not page.exception
    res = mt.bleu_assurance(2000, 1.0, 1.0, 0.13, 25.8)  # oracle: core (itself tested against quadrature and MC)
    assert metrics(page)["Assurance"] == f"{100 * res.assurance:.1f}%"
    fig = chart(page, "assurance_chart")
    assert any(a["text"].startswith("ceiling 84%") for a in fig["layout"]["annotations"])  # Φ(1) = 0.841
    assert {"assurance (prior averaged)", "current design"} <= {t["name"] for t in fig["data"]}


def test_cost_metric_and_money_chart():
    page = open_page("mt", {"cost_unit": "12.5", "currency": "EUR"})
    assert metrics(page)["Cost"] == "EUR 25,000.00"  # 2,000 sentences × 12.50
    need = mt.bleu_sample_size(1.0, 0.13, 25.8)
    fig = chart(page, "cost_chart")
    assert fig["layout"]["xaxis"]["title"]["text"] == "Cost (EUR)"
    assert any(f"EUR {need * 12.5:,.2f}" in a["text"] for a in fig["layout"]["annotations"])


def test_plan_paragraph_and_download():
    page = open_plan(open_page("mt", {"n": "3000"}), "mt")
    res = mt.bleu_power(3000, 1.0, 0.13, 25.8)
    text = [c.value for c in page.code if "randomization test" in c.value][0]
    assert text.startswith("With a test set of 3,000 sentences, an expected gain of +1.00 BLEU")
    assert f"has {100 * res.power:.0f}% power" in text
    assert "Download the plan (HTML)" in [b.proto.label for b in page.get("download_button")]


def test_pins_on_power_and_type_m_charts(page):
    open_pins(page, "mt")
    page.text_input(key="mt_pin_name").set_value("WMT size")
    page.button(key="mt_pin_add").click()
    page.run()
    page.select_slider(key="n").set_value(5000)
    page.run()
    assert not page.exception
    names = [t["name"] for t in chart(page, "power_chart")["data"]]
    assert "pinned: WMT size" in names
    table = [d.value for d in page.dataframe if "pin" in d.value.columns][0].set_index("pin")
    assert table.loc["WMT size", "power"] == pytest.approx(mt.bleu_power(2000, 1.0, 0.13, 25.8).power)
    link = page.query_params["pins"]
    restored = open_page("mt", {"pins": link if isinstance(link, str) else link[0], "view": "Type-M and Type-S"})
    assert "pinned: WMT size" in [t["name"] for t in chart(restored, "type_m_chart")["data"]]


def test_a_sample_size_where_the_normal_approximation_fails_is_flagged():
    # Δ_B = 10 BLEU with 90% of sentences unchanged: the normal engine asks for 58 sentences, of which about 6 change
    # BLEU; the randomization test (Card et al. 2020, appendix G) gives about half the claimed power there
    page = open_page("mt", {"delta": "10.0", "p0": "0.9", "n": "2000"})
    assert not page.exception
    need = mt.bleu_sample_size(10.0, 0.9, 25.8)
    assert need == 58 and metrics(page)["Sentences for 80% power"] == "58"
    assert any("58 sentences for 80% power" in w.value and "randomization test" in w.value for w in page.warning)
    # a design where the approximation holds gets no such warning
    assert not any("sentences for 80% power come from" in w.value for w in open_page("mt").warning)

"""Many claims page in a real browser: move the correlation slider, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_claims_chart(page, server_url):
    slide_and_check(page, server_url, "/claims", "Correlation between benchmarks' test statistics", presses=1,
                    url_fragment="rho=0.05", artifact="claims-after-slider.png")
    assert "claims=" in page.url  # the table is in the URL too


def test_key_input_in_the_fragment_updates_metrics_chart_and_url(page, server_url):
    """ρ and the correction are key inputs inside the page's fragment: moving one reruns the fragment only, and the
    metrics, the chart and the link follow (the oracle: ClaimsDesign at ρ = 0.05, the page's seeded simulation)."""
    from playwright.sync_api import expect

    from core.claims import ClaimsDesign

    slide_and_check(page, server_url, "/claims", "Correlation between benchmarks' test statistics", presses=1,
                    url_fragment="rho=0.05", artifact="claims-fragment-after-slider.png")
    shown = ClaimsDesign(correlation=0.05).power(n_sims=20_000, seed=0).all
    metric = page.locator('[data-testid="stMetric"]', has_text="All 5 claims hold (Holm)")
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(f"{100 * shown:.1f}%", timeout=30_000)
    expect(page.get_by_text("Decision rule")).to_be_visible()  # the sidebar outside the fragment is still there


def test_an_edit_of_the_table_under_the_chart_updates_the_answer_and_the_link(page, server_url):
    """The table of benchmarks is read outside the page's fragment (under the answer): editing a cell reruns the page,
    and the headline, the chart and the link follow (oracle: ClaimsDesign with the edited row, the page's seeded
    simulation)."""
    from playwright.sync_api import expect

    from core import claims as cl
    from core.claims import ClaimsDesign

    from .conftest import wait_idle, wait_settled

    page.goto(f"{server_url}/claims", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g.data && "
                           "g.data.length && !g.closest('.st-key-plotly_preload'))", timeout=90_000)
    wait_settled(page)
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    box = grid.bounding_box()
    # HumanEval (the second row) in the "Test items n" column: header and rows are 35 px high
    page.mouse.dblclick(box["x"] + 0.35 * box["width"], box["y"] + 35 + 35 + 17)
    editor = page.locator("textarea, input.gdg-input, .gdg-input").first
    expect(editor).to_be_visible(timeout=10_000)
    editor.fill("1640")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.location.search.includes('HumanEval%3A1640')", timeout=60_000)
    rows = [(name, 1640 if name == "HumanEval" else n, gain, agree) for name, n, gain, agree in cl.DEFAULT_CLAIMS]
    shown = ClaimsDesign(claims=cl.encode_claims(rows, exact=True)).power(n_sims=20_000, seed=0).all
    metric = page.locator('[data-testid="stMetric"]', has_text="All 5 claims hold (Holm)")
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(f"{100 * shown:.1f}%", timeout=60_000)

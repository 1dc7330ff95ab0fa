"""LLM benchmark page in a real browser: move the gain slider with the keyboard, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_llm_chart(page, server_url):
    slide_and_check(page, server_url, "/llm", "Expected gain of the new model B (points)", presses=2,
                    url_fragment="gain=4", artifact="llm-after-slider.png")
    from playwright.sync_api import expect

    from core import llm

    # 4 points over 70% with σ = 0.25, ρ = 0.6, 1,000 questions
    power = llm.benchmark_power(1000, 0.70, 0.74, difficulty_sd=0.25, correlation=0.6).power
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(f"{100 * power:.1f}%", timeout=30_000)



def test_key_inputs_rerun_the_fragment_and_the_sidebar_still_counts(page, server_url):
    """The key inputs and what depends on them are one fragment: moving the gain updates the metrics, the chart
    and the URL; a sidebar input afterwards (a full rerun) computes with both, the gain kept."""
    from playwright.sync_api import expect

    from core import llm

    from .conftest import plot_data, wait_for_new_plot

    slide_and_check(page, server_url, "/llm", "Expected gain of the new model B (points)", presses=2,
                    url_fragment="gain=4", artifact="llm-fragment-gain.png")
    metric = page.locator('[data-testid="stMetricValue"]').first
    power = llm.BenchmarkDesign(delta=0.04).power().power
    expect(metric).to_have_text(f"{100 * power:.1f}%", timeout=30_000)
    before = plot_data(page)
    page.get_by_role("slider", name="Question difficulty spread σ").focus()
    page.keyboard.press("ArrowLeft")  # σ 0.25 -> 0.24, in the sidebar
    wait_for_new_plot(page, before)
    assert "sd=0.24" in page.url and "gain=4" in page.url
    power = llm.BenchmarkDesign(delta=0.04, difficulty_sd=0.24).power().power
    expect(metric).to_have_text(f"{100 * power:.1f}%", timeout=30_000)
    assert not page.errors, page.errors


# Equal columns cut values short ("5.0…") once the presentation fonts meet a 1024-pixel projector, and the
# enlarged page list cut page names short.
_CUT = """sel => Array.from(document.querySelectorAll(sel))
  .filter(e => [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)).map(e => e.innerText)"""


@pytest.mark.parametrize("path", ["/llm", "/accuracy", "/ratings"])
def test_metric_values_and_page_names_are_never_cut_short_on_a_small_projector(browser, server_url, path):
    from .conftest import ARTIFACTS, wait_idle

    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(f"{server_url}{path}?present=true", wait_until="domcontentloaded")
        wait_idle(page, timeout=60_000)
        page.locator('[data-testid="stMetricValue"]').nth(4).wait_for(timeout=30_000)
        page.wait_for_timeout(300)  # fonts and layout settle
        values = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
        assert len(values) >= 5 and all(v.strip() and "…" not in v for v in values), values
        assert page.evaluate(_CUT, '[data-testid="stMetricValue"]') == []
        # the navigation runs across the top: Home and the three sections, none cut short
        names = '[data-testid="stTopNav"] [data-testid="stMarkdownContainer"]'
        assert page.locator(names).count() >= 4
        assert page.evaluate(_CUT, names) == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"metrics-1024-present-{path.strip('/')}.png"))
    finally:
        context.close()

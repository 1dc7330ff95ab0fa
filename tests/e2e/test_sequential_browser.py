"""DA campaign page in a real browser: move the budget slider with the keyboard, see the charts change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_campaign_chart(page, server_url):
    slide_and_check(page, server_url, "/sequential", "Planned judgments for the pair", presses=1,
                    url_fragment="budget=1500", artifact="sequential-after-slider.png")


def test_key_input_in_the_fragment_updates_metrics_chart_and_url(page, server_url):
    # the difference is a key input: it and everything it changes are one st.fragment (pages/sequential.py)
    from playwright.sync_api import expect

    from core.sequential import CampaignDesign

    slide_and_check(page, server_url, "/sequential", "True difference (DA points)", presses=5,
                    url_fragment="delta=2.5", artifact="sequential-after-key-input.png")
    power = CampaignDesign(delta=2.5).power().power  # five 0.1-point steps up from the default 2.0
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(f"{100 * power:.1f}%", timeout=30_000)


# Every title, axis title, legend entry and tick label of the visible charts lies inside its chart.
_SPILLED = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter(g => g.offsetParent !== null && !g.closest('.st-key-plotly_preload')).flatMap(g => {
    const r = g.getBoundingClientRect();
    return Array.from(g.querySelectorAll('.gtitle, .xtitle, .ytitle, .x2title, .y2title, .legendtext, '
                                         + '.xtick text, .ytick text, .x2tick text, .y2tick text'))
      .filter(t => { const b = t.getBoundingClientRect();
                     return b.width > 0 && (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1
                                            || b.bottom > r.bottom + 1); })
      .map(t => t.textContent); })"""


def test_side_by_side_charts_keep_their_titles_on_a_projector(browser, server_url):
    """Lab-meeting mode at 1280 × 720: Figure 5's two panels (one chart) keep their titles and labels inside the
    chart, and the second panel's axis title clears the first panel's tick labels."""
    from .conftest import ARTIFACTS, wait_idle

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{server_url}/sequential?present=true", wait_until="domcontentloaded")
        wait_idle(page, timeout=60_000)
        page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => "
                               "g.data && g.data.some(t => t.yaxis === 'y2') && !g.closest('.st-key-plotly_preload'))",
                               timeout=60_000)
        page.wait_for_timeout(500)
        titles = page.locator(".js-plotly-plot .gtitle").all_text_contents()
        assert any(t.startswith("Power and expected judgments") for t in titles), titles
        y_titles = page.locator(".js-plotly-plot .ytitle, .js-plotly-plot .y2title").all_text_contents()
        assert y_titles == ["Power", "Judgments"]
        assert page.evaluate(_SPILLED) == []
        clear = page.evaluate("""() => {
          const second = document.querySelector('.js-plotly-plot .y2title').getBoundingClientRect();
          const ticks = Array.from(document.querySelectorAll('.js-plotly-plot .subplot.xy .xtick text'));
          return ticks.length > 0 && ticks.every(t => t.getBoundingClientRect().right <= second.left); }""")
        assert clear
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "sequential-present-1280x720.png"))
    finally:
        context.close()

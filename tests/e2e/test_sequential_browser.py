"""DA campaign page in a real browser: load, move the budget slider with the keyboard, see the charts change."""

from __future__ import annotations


import pytest

from .conftest import ARTIFACTS, plot_data, wait_for_new_plot, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_campaign_chart(page, server_url):
    page.goto(f"{server_url}/sequential", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=60_000)
    before = plot_data(page)
    slider = page.get_by_role("slider", name="Planned judgments for the pair")
    slider.focus()
    page.keyboard.press("ArrowRight")  # 1,200 → 1,500
    wait_for_new_plot(page, before)
    assert plot_data(page) != before
    assert "budget=1500" in page.url
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sequential-after-slider.png"), full_page=True)

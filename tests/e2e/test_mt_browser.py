"""MT page in a real browser: load, move the P0 slider with the keyboard, see the chart change."""

from __future__ import annotations


import pytest

from .conftest import ARTIFACTS, plot_data, wait_for_new_plot, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_bleu_chart(page, server_url):
    page.goto(f"{server_url}/mt", wait_until="domcontentloaded")
    wait_idle(page)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=30_000)
    before = plot_data(page)
    slider = page.get_by_role("slider", name="P0: share of sentences whose swap changes nothing")
    slider.focus()
    for _ in range(10):  # 0.13 → 0.23
        page.keyboard.press("ArrowRight")
    wait_for_new_plot(page, before)
    assert plot_data(page) != before
    assert "p0=0.23" in page.url
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "mt-after-slider.png"), full_page=True)

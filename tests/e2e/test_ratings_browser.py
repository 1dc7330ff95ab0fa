"""Ratings page in a real browser: move the workers slider with the keyboard, see the chart change."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, plot_data, wait_for_new_plot, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_ratings_chart(page, server_url):
    page.goto(f"{server_url}/ratings", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=90_000)
    before = plot_data(page)
    slider = page.get_by_role("slider", name="Workers W (each rates every item)")
    slider.focus()
    page.keyboard.press("ArrowRight")  # 3 → 4 workers
    wait_for_new_plot(page, before, timeout=90_000)
    assert "workers=4" in page.url
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ratings-after-slider.png"), full_page=True)

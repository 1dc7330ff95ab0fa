"""Accuracy page in a real browser: load, move a slider with the keyboard, see the chart change."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, plot_data, wait_for_new_plot, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_power_chart(page, server_url):
    page.goto(f"{server_url}/accuracy", wait_until="domcontentloaded")
    wait_idle(page)
    page.wait_for_selector(".js-plotly-plot", timeout=30_000)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }")
    before = plot_data(page)
    assert before, "power chart has no data"

    metric = page.locator('[data-testid="stMetricValue"]').first
    power_before = metric.inner_text()

    slider = page.get_by_role("slider", name="Expected accuracy difference Δ (percentage points)")
    slider.focus()
    for _ in range(5):  # five 0.1-point steps: 2.0 → 2.5
        page.keyboard.press("ArrowRight")
    wait_for_new_plot(page, before)
    assert plot_data(page) != before
    assert metric.inner_text() != power_before
    assert "delta=2.5" in page.url  # the view is in the URL
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "accuracy-after-slider.png"), full_page=True)


def test_link_reproduces_the_view(page, server_url):
    page.goto(f"{server_url}/accuracy?n=2000&delta=2.0&agreement=90.0", wait_until="domcontentloaded")
    wait_idle(page)
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=30_000)
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "79.1%"

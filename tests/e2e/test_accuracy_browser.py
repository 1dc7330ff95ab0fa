"""Accuracy page in a real browser: load, move a slider with the keyboard, see the chart's data change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_power_chart(page, server_url):
    slide_and_check(page, server_url, "/accuracy", "Expected accuracy difference Δ (percentage points)",
                    presses=5, url_fragment="delta=2.5", artifact="accuracy-after-slider.png")
    # 2.5 points at n = 500, P_a = 90%: the metric follows the slider
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "37.6%"


def test_link_reproduces_the_view(page, server_url):
    page.goto(f"{server_url}/accuracy?n=2000&delta=2.0&agreement=90.0", wait_until="domcontentloaded")
    wait_idle(page)
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=30_000)
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "79.1%"

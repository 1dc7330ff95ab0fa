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

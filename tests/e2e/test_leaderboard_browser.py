"""Leaderboard page in a real browser: move the systems slider with the keyboard, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_leaderboard_chart(page, server_url):
    slide_and_check(page, server_url, "/leaderboard", "Number of systems", presses=2, url_fragment="k=8",
                    artifact="leaderboard-after-slider.png")


def test_key_input_in_the_fragment_updates_metrics_chart_and_url(page, server_url):
    """The number of systems is a key input inside the page's fragment: moving it reruns the fragment, and the
    headline metric, the chart and the link follow (oracle: core.pairwise at 8 systems 25 Elo apart, 5,000 votes)."""
    from playwright.sync_api import expect

    from core.pairwise import LeaderboardDesign

    slide_and_check(page, server_url, "/leaderboard", "Number of systems", presses=2, url_fragment="k=8",
                    artifact="leaderboard-fragment-after-slider.png")
    power = LeaderboardDesign(k=8).power().weakest_power
    metric = page.locator('[data-testid="stMetric"]', has_text="Weakest neighbours' power")
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(f"{100 * power:.1f}%", timeout=30_000)
    expect(page.get_by_text("Decision rule")).to_be_visible()  # the sidebar outside the fragment is still there

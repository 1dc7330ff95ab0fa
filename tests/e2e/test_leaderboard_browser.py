"""Leaderboard page in a real browser: move the systems slider with the keyboard, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_leaderboard_chart(page, server_url):
    slide_and_check(page, server_url, "/leaderboard", "Number of systems", presses=2, url_fragment="k=8",
                    artifact="leaderboard-after-slider.png")

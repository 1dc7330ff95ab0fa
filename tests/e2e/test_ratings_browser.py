"""Ratings page in a real browser: move the workers slider with the keyboard, see the chart change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_ratings_chart(page, server_url):
    slide_and_check(page, server_url, "/ratings", "Workers W (each rates every item)", presses=1,
                    url_fragment="workers=4", artifact="ratings-after-slider.png")

"""DA campaign page in a real browser: move the budget slider with the keyboard, see the charts change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_campaign_chart(page, server_url):
    slide_and_check(page, server_url, "/sequential", "Planned judgments for the pair", presses=1,
                    url_fragment="budget=1500", artifact="sequential-after-slider.png")

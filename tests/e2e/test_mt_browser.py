"""MT page in a real browser: move the P0 slider with the keyboard, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_bleu_chart(page, server_url):
    slide_and_check(page, server_url, "/mt", "P0: share of sentences whose swap changes nothing", presses=10,
                    url_fragment="p0=0.23", artifact="mt-after-slider.png")

"""Many claims page in a real browser: move the correlation slider, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_claims_chart(page, server_url):
    slide_and_check(page, server_url, "/claims", "Correlation between benchmarks' test statistics", presses=1,
                    url_fragment="rho=0.05", artifact="claims-after-slider.png")
    assert "claims=" in page.url  # the table is in the URL too

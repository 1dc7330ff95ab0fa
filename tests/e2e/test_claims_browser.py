"""Many claims page in a real browser: move the correlation slider, see the chart and the URL change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_claims_chart(page, server_url):
    slide_and_check(page, server_url, "/claims", "Correlation between benchmarks' test statistics", presses=1,
                    url_fragment="rho=0.05", artifact="claims-after-slider.png")
    assert "claims=" in page.url  # the table is in the URL too


def test_key_input_in_the_fragment_updates_metrics_chart_and_url(page, server_url):
    """ρ and the correction are key inputs inside the page's fragment: moving one reruns the fragment only, and the
    metrics, the chart and the link follow (the oracle: ClaimsDesign at ρ = 0.05, the page's seeded simulation)."""
    from playwright.sync_api import expect

    from core.claims import ClaimsDesign

    slide_and_check(page, server_url, "/claims", "Correlation between benchmarks' test statistics", presses=1,
                    url_fragment="rho=0.05", artifact="claims-fragment-after-slider.png")
    shown = ClaimsDesign(correlation=0.05).power(n_sims=20_000, seed=0).all
    metric = page.locator('[data-testid="stMetric"]', has_text="All 5 claims hold (Holm)")
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(f"{100 * shown:.1f}%", timeout=30_000)
    expect(page.get_by_text("Decision rule")).to_be_visible()  # the sidebar outside the fragment is still there

"""LLM page, "Prompts and seeds" tab, in a real browser: move the templates slider with the keyboard, see the
chart, the URL and the ceiling change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_templates_slider_raises_the_ceiling(page, server_url):
    from playwright.sync_api import expect

    from core import llm

    slide_and_check(page, server_url, "/llm?view=Prompts+and+seeds", "Prompt templates T", presses=2,
                    url_fragment="fc_t=3", artifact="llm-facets-after-slider.png")
    # three templates: the model × template term is divided by 3, so the ceiling rises
    ceiling = llm.facet_ceiling(0.02, templates=3, var_template=llm.FACET_DEFAULTS["var_template"])
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Power ceiling (unlimited questions)")
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(f"{100 * ceiling:.1f}%", timeout=30_000)
    expect(page.get_by_text("With 3 prompt templates, no number of questions gets past")).to_be_visible()

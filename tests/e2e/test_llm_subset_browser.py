"""LLM page's "Run a subset instead" tab in a real browser: a keyboard slider move changes the agreement chart, the
URL and the metric."""

from __future__ import annotations

import pytest

from .conftest import click_download, plot_data, wait_for_new_plot, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_the_subset_agreement(page, server_url):
    from playwright.sync_api import expect

    from core import llm

    page.goto(f"{server_url}/llm?view=Run+a+subset+instead", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 2 && "
                           "document.querySelectorAll('.js-plotly-plot')[1].data", timeout=90_000)
    before = plot_data(page, 1)
    page.get_by_role("slider", name="Only B right (% of items)").focus()
    page.keyboard.press("ArrowRight")
    wait_for_new_plot(page, before, index=1, timeout=90_000)
    assert "sub_b_only=8.5" in page.url
    agree = llm.subset_agreement(500, n_total=5000, a_only=250, b_only=425)
    value = page.locator('[data-testid="stMetric"]', has_text="Same winner as the full run").locator(
        '[data-testid="stMetricValue"]')
    expect(value).to_have_text(f"{100 * agree:.1f}%", timeout=30_000)
    download = click_download(page, page.get_by_role("button", name="Download the item list (CSV)"))
    import pandas as pd

    from core.runnable import item_list

    table = pd.read_csv(download.path())
    assert table["item"].tolist() == [int(i) for i in item_list(range(5000), 500, seed=0)["item"]]
    assert not page.errors, page.errors

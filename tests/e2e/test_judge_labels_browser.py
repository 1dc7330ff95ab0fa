"""Judge page's "Which items to label" and "Labels per item" tabs in a real browser: a keyboard slider move changes
the chart, the URL and the metrics; the item list downloads."""

from __future__ import annotations

import io

import pytest

from .conftest import click_download, plot_data, slide_and_check, wait_for_new_plot, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_the_active_labelling_chart(page, server_url):
    from playwright.sync_api import expect

    import pandas as pd

    from core import judge

    slide_and_check(page, server_url, "/judge?view=Which+items+to+label", "Beta a", presses=1,
                    url_fragment="al_a=0.6", artifact="judge-active-after-slider.png")
    f = judge.beta_confidences(0.6, 0.5, 1000)
    value = page.locator('[data-testid="stMetric"]', has_text="SE, active labels").locator(
        '[data-testid="stMetricValue"]')
    expect(value).to_have_text(f"{100 * judge.active_se(f, 100):.2f} pts", timeout=30_000)
    download = click_download(page, page.get_by_role("button", name="Download the item list (CSV)"))
    table = pd.read_csv(io.BytesIO(open(download.path(), "rb").read()))
    assert list(table.columns) == ["item", "confidence", "probability", "weight", "label"]
    assert table["probability"].sum() == pytest.approx(100, rel=1e-6)


def test_keyboard_slider_changes_the_labels_per_item_chart(page, server_url):
    from playwright.sync_api import expect

    from core import judge

    page.goto(f"{server_url}/judge?view=Labels+per+item", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=90_000)
    before = plot_data(page)
    page.get_by_role("slider", name="Pilot Cohen's κ").focus()
    page.keyboard.press("ArrowLeft")
    wait_for_new_plot(page, before, timeout=90_000)
    assert "lp_kappa=0.55" in page.url
    plan = judge.labels_per_item(0.08, 0.04, kappa=0.55)
    items = int(plan.table.set_index("labels").loc[plan.best, "items"])
    value = page.locator('[data-testid="stMetric"]', has_text="Items (best)").locator('[data-testid="stMetricValue"]')
    expect(value).to_have_text(f"{items:,}", timeout=30_000)
    assert not page.errors, page.errors

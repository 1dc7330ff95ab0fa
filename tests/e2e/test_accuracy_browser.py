"""Accuracy page in a real browser: load, move a slider with the keyboard, see the chart's data change."""

from __future__ import annotations

import pytest

from .conftest import click_download, slide_and_check, wait_idle

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_power_chart(page, server_url):
    slide_and_check(page, server_url, "/accuracy", "Expected accuracy difference Δ (percentage points)",
                    presses=5, url_fragment="delta=2.5", artifact="accuracy-after-slider.png")
    # 2.5 points at n = 500, P_a = 90%: the metric follows the slider
    from playwright.sync_api import expect

    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("37.6%", timeout=30_000)


def test_link_reproduces_the_view(page, server_url):
    from playwright.sync_api import expect

    page.goto(f"{server_url}/accuracy?n=2000&delta=2.0&agreement=90.0", wait_until="domcontentloaded")
    wait_idle(page)
    # the script may still be starting when the app first reports idle: wait for the value itself
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("79.1%", timeout=30_000)


def test_plan_downloads_as_a_self_contained_html(page, server_url):
    """The plan downloads in the browser; the file is self-contained and states the page's numbers."""
    import re

    from playwright.sync_api import expect

    from core import accuracy as acc

    page.goto(f"{server_url}/accuracy?n=2000&delta=2.0&agreement=90.0", wait_until="domcontentloaded")
    wait_idle(page)
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("79.1%", timeout=30_000)
    page.get_by_text("Plan this design", exact=False).first.click()
    button = page.get_by_role("button", name="Download the plan (HTML)")
    expect(button).to_be_visible(timeout=30_000)
    html = open(click_download(page, button).path(), encoding="utf-8").read()
    power = acc.mcnemar_power(2000, 0.02, 0.9).power  # oracle: the exact engine (tested against enumeration)
    assert f"{100 * power:.1f}%" in html
    assert "n=2000" in html  # the shareable link
    assert not re.search(r"<script[^>]+src=", html)  # no external scripts: opens offline
    assert "<html" in html.lower() and "</html>" in html.lower()
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "accuracy-plan.html").write_text(html, encoding="utf-8")


def test_chart_module_is_preloaded_once(page, server_url):
    """scripts/serve.py (first visit): the page asks for Plotly's chunk in its <head>, and the
    chart then uses that very module — one download, no errors."""
    html = page.request.get(f"{server_url}/accuracy").text()
    head = html[:html.index("</head>")]
    assert head.count('rel="modulepreload" crossorigin href="./static/js/PlotlyChart.') == 1
    page.goto(f"{server_url}/accuracy", wait_until="domcontentloaded")
    wait_idle(page)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => "
                           "g.data && g.data.length && !g.closest('.st-key-plotly_preload'))", timeout=60_000)
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map(r => r.name)"
                            ".filter(n => n.includes('/static/js/PlotlyChart.'))")
    assert len(fetched) == 1, fetched
    assert page.errors == []


def test_key_input_then_sidebar_input_both_update_the_outputs(page, server_url):
    """The key inputs and their outputs are one fragment: a key input reruns it (chart, metric, URL); a sidebar input
    afterwards still reaches it (the fragment takes the sidebar's values)."""
    from playwright.sync_api import expect

    from core import accuracy as acc

    slide_and_check(page, server_url, "/accuracy", "Expected accuracy difference Δ (percentage points)",
                    presses=5, url_fragment="delta=2.5", artifact="accuracy-fragment-key.png")
    values = page.locator('[data-testid="stMetricValue"]')
    expect(values.first).to_have_text("37.6%", timeout=30_000)
    page.get_by_role("slider", name="Target power").focus()
    page.keyboard.press("ArrowRight")  # 0.80 → 0.81 (the target is a line on the chart, not its data)
    expect(page.get_by_text("MDE at 81% power")).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert "target=0.81" in page.url and "delta=2.5" in page.url
    # the size for 81% power at the moved Δ = 2.5 pts (the fragment's Δ, the sidebar's target)
    need = acc.mcnemar_sample_size(0.025, 0.9, target_power=0.81)
    expect(page.get_by_text(f"{need:,}", exact=True).first).to_be_visible(timeout=30_000)
    assert not page.errors, page.errors

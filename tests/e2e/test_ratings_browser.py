"""Ratings page in a real browser: move the workers slider with the keyboard, see the chart change."""

from __future__ import annotations

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_ratings_chart(page, server_url):
    slide_and_check(page, server_url, "/ratings", "Workers W (each rates every item)", presses=1,
                    url_fragment="workers=4", artifact="ratings-after-slider.png")


def test_key_input_reruns_the_question_with_the_sidebars_assumptions(page, server_url):
    """β1 is a key input inside the page's fragment: moving it updates the metric, the chart and the URL; a
    sidebar assumption moved afterwards is computed with the key input's new value (nothing goes stale)."""
    from playwright.sync_api import expect

    from core import ratings as rt

    slide_and_check(page, server_url, "/ratings", "Effect β1 (±1-coded system coefficient)", presses=1,
                    url_fragment="effect=0.105", artifact="ratings-after-effect.png")
    d = rt.RatingsDesign(effect=0.105)  # oracle: the analytic engine (tested against simulation in core)
    power = page.locator('[data-testid="stMetric"]').filter(has_text="Power").locator('[data-testid="stMetricValue"]')
    expect(power.first).to_have_text(f"{100 * d.analytic_power():.1f}%", timeout=30_000)
    page.get_by_role("slider", name="Worker slope SD σ_w1").focus()
    page.keyboard.press("ArrowRight")
    d = d.with_(sigma_w1=0.115)  # 15.9%; a stale β1 = 0.1 would show 14.9%, a stale σ_w1 16.9%
    expect(power.first).to_have_text(f"{100 * d.analytic_power():.1f}%", timeout=30_000)
    assert "sigma_w1=0.115" in page.url and "effect=0.105" in page.url
    assert not page.errors, page.errors


def test_pilot_values_reach_the_sidebar_sliders(page, server_url, tmp_path):
    """The pilot tab is inside the page's fragment and the SDs are sidebar sliders: "Use these values" must rerun
    the whole app, so the sliders, the URL and the metrics take the fitted values."""
    import pandas as pd
    from playwright.sync_api import expect

    from core import ratings as rt

    from .conftest import wait_idle, wait_settled

    rows = [f"w{w},i{i},{s},{1 + (w + 2 * i + (s == 'new')) % 5}" for w in range(6) for i in range(20)
            for s in ("old", "new")]
    path = tmp_path / "pilot.csv"
    path.write_text("worker,item,system,rating\n" + "\n".join(rows) + "\n")
    fit = rt.fit_pilot(pd.read_csv(path))  # oracle: core's fit (tested against a mixed-model fit in core)
    residual = float(min(max(round(fit.sigma, 3), 0.0), 0.4))
    page.goto(f"{server_url}/ratings?view=Fit+a+pilot", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    page.get_by_text("6 × 20").first.wait_for(timeout=60_000)
    wait_settled(page)
    page.get_by_role("button", name="Use these values in the sliders").click()
    slider = page.get_by_role("slider", name="Residual SD σ")
    expect(slider).to_have_value(f"{residual:g}", timeout=30_000)
    wait_settled(page)
    assert f"sigma={residual:g}" in page.url
    assert not page.errors, page.errors


def test_views_inside_the_fragment_switch_and_keep_the_view_in_the_url(page, server_url):
    """The view switcher is drawn inside the page's fragment: choosing a view computes it, puts it in the URL and
    keeps the key inputs' values."""
    from .conftest import wait_idle, wait_settled

    page.goto(f"{server_url}/ratings?workers=10", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.locator(".st-key-power_chart .js-plotly-plot").wait_for(timeout=60_000)  # the first view's chart
    page.locator(".st-key-view").get_by_role("radio", name="Power vs items and workers").click()
    for key in ("items_chart", "workers_chart"):  # power vs items, power vs workers
        page.wait_for_function(f"() => {{ const g = document.querySelector('.st-key-{key} .js-plotly-plot');"
                               " return g && g.data && g.data.length; }", timeout=60_000)
    wait_settled(page)
    assert "view=Power" in page.url and "workers=10" in page.url
    assert page.locator(".st-key-power_chart").count() == 0  # the Figure 6 view is not computed when hidden
    assert not page.errors, page.errors

"""MT page in a real browser: move the P0 slider and the Δ_B key input with the keyboard, see the chart, metrics and
the URL change; the fit tab's values reach the sliders."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import slide_and_check

pytestmark = pytest.mark.e2e


def test_keyboard_slider_changes_bleu_chart(page, server_url):
    slide_and_check(page, server_url, "/mt", "P0: share of sentences whose swap changes nothing", presses=10,
                    url_fragment="p0=0.23", artifact="mt-after-slider.png")


def test_key_input_updates_metrics_chart_and_url(page, server_url):
    # Δ_B is a key input: it and everything it changes live in one st.fragment (pages/mt.py)
    slide_and_check(page, server_url, "/mt", "Expected BLEU difference Δ_B", presses=4, url_fragment="delta=1.2",
                    artifact="mt-after-key-input.png")
    from playwright.sync_api import expect

    from core import mt

    res = mt.bleu_power(2000, 1.2, 0.13, 25.8)  # four 0.05-BLEU steps up from the default 1.0
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(f"{100 * res.power:.1f}%",
                                                                            timeout=30_000)


def test_fitted_values_reach_the_sidebar_and_the_metrics(page, server_url):
    # the fit tab's button sits inside the key-input fragment but sets the sidebar's P0 and b0: the page reruns
    from playwright.sync_api import expect

    from core import mt

    from .conftest import wait_settled

    page.goto(f"{server_url}/mt?view=Fit+P0+and+b0+from+your+outputs", wait_until="domcontentloaded")
    wait_settled(page, timeout=90_000)
    page.get_by_text("Use the bundled sample").click()
    wait_settled(page, timeout=90_000)
    page.get_by_role("button", name="Use these values in the sliders").click()
    wait_settled(page, timeout=90_000)
    sample = Path(mt.__file__).resolve().parents[1] / "data" / "mt_sample" / "sample.tsv"
    fitted = mt.fit_swap_effects(*mt.read_tsv(sample.read_bytes()))
    p0, b0 = min(max(round(fitted.p0, 2), 0.0), 0.9), min(max(round(fitted.b0, 1), 5.0), 100.0)
    delta = min(max(round(fitted.delta_bleu / 0.05) * 0.05, -10.0), 10.0)
    res = mt.bleu_power(2000, delta, p0, b0)
    shown = page.locator('[data-testid="stMetricValue"]')
    expect(shown.first).to_have_text(f"{100 * res.power:.1f}%", timeout=30_000)
    # the MDE turns on P0 and b0 only (the sidebar's sliders): 2.05 BLEU at the default P0 = 0.13, b0 = 25.8
    expect(shown.nth(3)).to_have_text(f"{mt.bleu_mde(2000, p0, b0):.2f} BLEU", timeout=30_000)
    assert not page.errors, page.errors

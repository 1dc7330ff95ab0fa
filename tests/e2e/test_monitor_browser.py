"""Monitoring page in a real browser: replay the run with the keyboard, then play the simulated continuations."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, slide_and_check, wait_idle

pytestmark = pytest.mark.e2e


def test_replay_slider_moves_the_run(page, server_url):
    slide_and_check(page, server_url, "/monitor", "Items so far (replay the run)", presses=1,
                    url_fragment="upto=61", artifact="monitor-after-slider.png")
    # the replay slider is a key input: it and everything it changes are one st.fragment (pages/monitor.py)
    from playwright.sync_api import expect

    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("61", timeout=30_000)


def test_play_the_simulated_continuations_on_a_projector(browser, server_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server_url}/monitor?present=true&view=What+may+happen+next+%28animated%29",
                  wait_until="domcontentloaded")
        wait_idle(page, timeout=60_000)
        page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => "
                               "g._transitionData !== undefined && g.data && g.data.length >= 3)", timeout=60_000)
        page.get_by_text("continue: about").first.wait_for(timeout=30_000)
        page.get_by_text("▶ Play").first.click()  # the animation runs in the browser, no server round trip
        page.wait_for_timeout(1200)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "monitor-playing-1280x720.png"))
        assert not errors, errors
    finally:
        context.close()

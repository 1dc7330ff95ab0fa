"""Lab-meeting demo in a real browser at projector size: click through, press play, screenshot."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.e2e


def test_click_through_the_demo_in_presentation_mode(browser, server_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server_url}/demo?present=true", wait_until="domcontentloaded")
        wait_idle(page, timeout=60_000)
        page.get_by_text("One experiment").first.wait_for(timeout=30_000)
        page.get_by_role("button", name="Next →").click()
        page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot');"
                               " return g && g._transitionData !== undefined && g.data && g.data.length; }",
                               timeout=60_000)
        assert "step=2" in page.url
        page.get_by_text("▶ Play").first.click()  # the animation runs in the browser
        page.wait_for_timeout(1500)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "demo-playing-1280x720.png"))
        page.get_by_role("button", name="Next →").click()
        page.get_by_text("This is the").first.wait_for(timeout=30_000)
        wait_idle(page, timeout=60_000)
        assert "step=3" in page.url
        page.screenshot(path=str(ARTIFACTS / "demo-step3-1280x720.png"))
        # the main chart fits on a 720-pixel screen without scrolling
        box = page.locator(".js-plotly-plot").first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720 + 80  # the scrubber may touch the fold
        assert not errors, errors
    finally:
        context.close()

"""Links in a real browser: values a page cannot use are named under its title; a link the widgets wrote themselves
(options by their labels, sliders in their units) opens the same design with no note.

The oracle is the browser's own URL: what Streamlit's bound widgets write is what a user copies and shares.
"""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, wait_idle, wait_settled

pytestmark = pytest.mark.e2e

NOTE = "This link asked for values the page cannot use"


def _first_chart_top(page) -> float:
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=90_000)
    return page.locator(".js-plotly-plot").first.bounding_box()["y"]


def test_refused_values_are_named_above_the_first_chart(page, server_url):
    from playwright.sync_api import expect

    page.goto(f"{server_url}/monitor?target=-3&n_max=abc&alpha=0.01", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    note = page.get_by_text(NOTE)
    expect(note).to_be_visible(timeout=30_000)
    box = page.locator('[data-testid="stAlert"]', has_text=NOTE)
    expect(box).to_contain_text("target=-3")
    expect(box).to_contain_text("n_max=abc")
    expect(box).not_to_contain_text("alpha")  # taken: not named
    assert box.bounding_box()["y"] < _first_chart_top(page)
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "links-refused.png"))


def test_a_link_the_widgets_wrote_opens_the_same_design_without_a_note(page, server_url):
    from playwright.sync_api import expect

    page.goto(f"{server_url}/leaderboard", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    _first_chart_top(page)
    # an option written by its label, and a slider moved with the keyboard
    split = page.get_by_role("radio", name="split: half a win each")
    page.locator("label", has=split).click()
    wait_settled(page)
    page.get_by_role("slider", name="Number of systems").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.search.includes('k=7') && location.search.includes('ties=')",
                           timeout=30_000)
    wait_settled(page)
    link = page.url
    page.goto(link, wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    _first_chart_top(page)
    wait_settled(page)
    expect(page.get_by_role("slider", name="Number of systems")).to_have_attribute("aria-valuetext", "7")
    expect(page.get_by_role("radio", name="split: half a win each")).to_be_checked()
    assert page.get_by_text(NOTE).count() == 0
    assert not page.errors, page.errors


@pytest.mark.parametrize("path, base_asked", [
    ("/judge", ["/_stcore/health"]),
    ("/llm/?llm_delta=3", ["/_stcore/health"]),
    ("/", ["/_stcore/health"]),
    ("/nosuchpage", ["/nosuchpage/_stcore/health", "/_stcore/health"]),  # not a page: Streamlit's own search
])
def test_a_link_into_a_page_asks_the_server_at_its_base_first(page, server_url, path, base_asked):
    # scripts/serve.py's base-URL hint: without it Streamlit's page first asks /judge/_stcore/health, gets 404
    # and waits 0.1 s before asking the base
    asked = []
    page.on("request", lambda r: "/_stcore/health" in r.url and asked.append(r.url[len(server_url):]))
    page.goto(f"{server_url}{path}", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    assert asked[:len(base_asked)] == base_asked
    assert page.locator("h1").first.is_visible()
    assert not page.errors, page.errors

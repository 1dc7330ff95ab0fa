"""Every view of every scenario page opens from its switcher in a real browser: the choice is checked, it is in the
address bar (``?view=…``), the page shows no exception, and the key inputs keep their values. Oracle: the DOM."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from pages._registry import PAGES

from .conftest import wait_settled

pytestmark = pytest.mark.e2e

#: Scenario pages with views (Analyze is one report and Claims one table with its chart: no switcher).
SCENARIOS = [p.name for p in PAGES if p.section == "Scenarios" and p.name not in ("analysis", "claims")]


def _choose(page, switcher, label: str, attempts: int = 3) -> None:
    """Click the view ``label``; a click that lands while a rerun redraws the switcher can be lost on a loaded
    machine, so it is repeated (at most ``attempts`` times) until the choice is checked."""
    radio = switcher.get_by_role("radio", name=label, exact=True)
    for attempt in range(attempts):
        radio.click()
        wait_settled(page, timeout=120_000)
        try:
            expect(radio).to_have_attribute("aria-checked", "true", timeout=10_000)
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise


def _settled_values(page, values, timeout: float = 60.0) -> list[str]:
    """The key inputs' slider values once every slider shows one: a slider is a placeholder (``stSkeleton``) until
    its module has loaded, and on a loaded machine one can still be drawn after the run looks settled, so the list
    is read until it is the same twice, a second apart, with no placeholder left."""
    values.first.wait_for(timeout=timeout * 1000)
    skeleton = page.locator('.st-key-key_inputs [data-testid="stSkeleton"]')
    previous = None
    for _ in range(int(timeout)):
        current = values.all_inner_texts()
        if current == previous and skeleton.count() == 0:
            return current
        previous = current
        page.wait_for_timeout(1000)
    return values.all_inner_texts()


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_view_opens_from_the_switcher(page, server_url, name):
    page.goto(f"{server_url}/{name}", wait_until="domcontentloaded")
    wait_settled(page, timeout=120_000)
    switcher = page.locator(".st-key-view")
    values = page.locator('.st-key-key_inputs [data-testid="stSliderThumbValue"]')
    before = _settled_values(page, values)
    assert before, "no key-input slider values on the page"
    switcher.get_by_role("radio").first.wait_for(timeout=60_000)
    labels = switcher.get_by_role("radio").all_inner_texts()
    assert len(labels) >= 2, labels
    for label in labels[1:] + labels[:1]:  # every view, ending on the first
        _choose(page, switcher, label)
        # the first view is the default: Streamlit leaves a bound widget's default out of the address
        expected = None if label == labels[0] else [label]
        for _ in range(100):  # the address is written just after the run
            if parse_qs(urlparse(page.url).query).get("view") == expected:
                break
            page.wait_for_timeout(100)
        assert parse_qs(urlparse(page.url).query).get("view") == expected, (label, page.url)
        shown = page.locator('[data-testid="stException"]')
        assert shown.count() == 0, (label, shown.first.inner_text())
    expect(values).to_have_text(before, timeout=60_000)
    assert not page.errors, page.errors

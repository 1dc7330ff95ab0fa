"""User text from links in a real browser: shown as text, never fetched, never a link.

The oracle is the network itself: every request the page makes is recorded, and any host other than the app's
own (127.0.0.1) fails the test; the hostile names must appear on the page as typed.
"""

from __future__ import annotations

from urllib.parse import quote, urlparse

import pytest

from .conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.e2e

LINKS = [
    "/leaderboard?preset=" + quote("my ratings (table)") + "&ratings=" + quote("![q](http://evil.example/q.png)")
    + ":1000;B:1025",
    "/accuracy?pins=" + quote("![q](http://evil.example/q.png)") + "~n=abc",
    "/accuracy?pins=" + quote('<a href="http://evil.example/a">click</a>') + "~n=500",
    "/accuracy?cost_unit=1&currency=" + quote("![](//evil.example/x)"),
    "/llm?pins=" + quote('<img src="http://evil.example/i.png">') + "~n=500",
]


@pytest.mark.parametrize("path", LINKS, ids=["ratings-name", "pin-image", "pin-link", "currency", "pin-img-tag"])
def test_hostile_link_fetches_nothing_and_links_nowhere(page, server_url, path):
    from playwright.sync_api import expect

    hosts = []
    page.on("request", lambda request: hosts.append(urlparse(request.url).hostname))
    page.goto(f"{server_url}{path}", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=90_000)
    page.wait_for_timeout(1_000)  # images and legend links would load by now
    outside = sorted({h for h in hosts if h not in ("127.0.0.1", None)})
    assert not outside, f"requests to {outside}"
    assert page.locator('a[href*="evil.example"]').count() == 0  # no link, in Markdown or in a chart's legend
    assert page.locator('img[src*="evil.example"]').count() == 0
    if "pins" in path and "click" in path:  # the pin's name is shown as typed in the chart's legend
        expect(page.locator(".js-plotly-plot .legend").first).to_contain_text('<a href="http://evil.example/a">',
                                                                              timeout=30_000)
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"hostile-{LINKS.index(path)}.png"), full_page=True)

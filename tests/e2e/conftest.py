"""Real-browser fixtures: the app started as `make run` starts it (scripts/serve.py, which hands over to
`streamlit run`) on 127.0.0.1 at a free port + headless Chromium.

Chromium comes from the system (Debian's `chromium`, installed by `make test`
when missing) or from Playwright's own download; screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# Chromium must not try to reach the internet (this tool works offline).
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server_url():
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"),
         "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited: {proc.stdout.read().decode(errors='replace')}")
    else:
        proc.kill()
        raise RuntimeError("streamlit did not become healthy within 60 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as pw:
        launch = dict(headless=True, args=CHROMIUM_ARGS)
        if executable:
            launch["executable_path"] = executable
        browser = pw.chromium.launch(**launch)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-final.png"), full_page=True)
    context.close()


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until the app's script has finished running."""
    page.wait_for_selector(IDLE, timeout=timeout)


def wait_settled(page, timeout: float = 60_000, quiet_ms: int = 600) -> None:
    """Wait until the script has been idle for ``quiet_ms`` in a row (a rerun that an
    expander or the URL sync starts right after the first run is then over too)."""
    import time

    deadline = time.monotonic() + timeout / 1000
    quiet_since = None
    while time.monotonic() < deadline:
        state = page.locator('[data-testid="stApp"]').get_attribute("data-test-script-state")
        now = time.monotonic()
        if state == "notRunning":
            quiet_since = quiet_since or now
            if (now - quiet_since) * 1000 >= quiet_ms:
                return
        else:
            quiet_since = None
        page.wait_for_timeout(100)
    raise AssertionError("the app did not settle")


def click_download(page, button, *, attempts: int = 3, timeout: float = 30_000):
    """Click a download button once the app has settled and return the download.

    A click that lands while a rerun replaces the button can be lost on a loaded
    machine (the anchor the button creates belongs to the element being replaced);
    the click is then repeated on the settled page, up to ``attempts`` times. The
    file itself is still checked by the caller, so a retry cannot hide a wrong file.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(attempts):
        wait_settled(page)
        try:
            with page.expect_download(timeout=timeout) as info:
                button.click()
            return info.value
        except PlaywrightTimeout:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


_TRACE_Y = ("(t) => t.y === undefined ? null : (t.y.bdata !== undefined ? t.y.bdata : Array.from(t.y))")


def plot_data(page, index: int = 0):
    """The y data of every trace of the ``index``-th Plotly chart on the page.

    Plotly.py sends numpy arrays base64-encoded (``{dtype, bdata}``); the
    encoded string is compared as is.
    """
    return page.evaluate(
        f"(i) => {{ const g = document.querySelectorAll('.js-plotly-plot')[i];"
        f" return g && g.data ? g.data.map({_TRACE_Y}) : null; }}",
        index,
    )


def wait_for_new_plot(page, before, index: int = 0, timeout: float = 60_000) -> None:
    """Wait until the script is idle AND the chart's data differ from ``before``.

    A rerun replaces charts in steps, so a single "data changed" event can be
    a transient; the condition is re-checked on the settled page.
    """
    import time

    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        page.wait_for_timeout(200)
        state = page.locator('[data-testid="stApp"]').get_attribute("data-test-script-state")
        if state == "notRunning" and plot_data(page, index) != before:
            return
    raise AssertionError("the chart did not change")


def slide_and_check(page, server_url, path, slider_name, *, presses, url_fragment, artifact, timeout=90_000):
    """Open ``path``, press ArrowRight ``presses`` times on a slider, and check chart and URL change.

    Returns the chart data before the change, for further assertions.
    """
    page.goto(f"{server_url}{path}", wait_until="domcontentloaded")
    wait_idle(page, timeout=timeout)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g.data; }",
                           timeout=timeout)
    before = plot_data(page)
    assert before, "the first chart has no data"
    page.get_by_role("slider", name=slider_name).focus()
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    wait_for_new_plot(page, before, timeout=timeout)
    assert url_fragment in page.url  # the view is in the URL
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / artifact), full_page=True)
    return before

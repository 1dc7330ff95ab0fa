"""Browser benchmark: how live the sliders feel.

Starts the app the way ``make run`` does (``scripts/serve.py``) on a free port
of 127.0.0.1, drives headless Chromium with Playwright and, for each page,
moves its first key input (the sliders above the first chart, which rerun
only the page's fragment; else its first sidebar slider) with the keyboard
:data:`MOVES` times (five: a median of three wandered by ± 0.3× of the floor
from run to run). For each move
it records, from the key press:

* **first change** — the first moment any shown chart's data differs (a hash
  of all of it; hidden charts left out: :data:`_SIGNATURE`);
* **stable** — the moment after which no shown chart's data changes for 0.3 s
  and the script is idle.

It prints the medians next to the targets (first change ≤ 0.5 s, stable ≤
1.0 s, on every page at its defaults) and, for every page, the time from
opening it after the server starts (fresh browser profile) to its first chart
(target ≤ 3 s) — also for the home page and for Analyze, which open on charts
but have no slider above them (``PageInfo.bench_visit``). A single first visit
varies by ± 0.4 s from run to run on a small machine, so it is the median over
separate server starts.

**The floor.** In the same run it measures the smallest Streamlit app with a
slider and one Plotly line (``benchmarks/floor_app.py``, under plain
``streamlit run``) the same way, and reports every figure as a ratio to it:
first visit ≤ 1.2×, first change ≤ 1.5×, page stable ≤ 1.5×. The ratios say
what the app adds to Streamlit's own cost and are steadier across machines
than seconds. A second, **page-shaped floor** (``floor_page_app.py``: the
Accuracy page's element mix and structure — a sidebar of assumptions, and
in one fragment the key inputs, a metrics row, a view switcher, expanders, a download
and one seven-trace chart — with no statistics; its key input is moved)
shows how much of that is Streamlit's cost of a page with that many
elements; each page's ratios to it are printed too (no targets). ``python -m
benchmarks.where_time_goes`` splits a slider move further.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from pages._registry import PAGES as REGISTRY

ROOT = Path(__file__).resolve().parents[1]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: (page path, accessible name of the slider moved — None: the first one of the page's sidebar), from the registry
PAGES = [(f"/{page.name}", page.bench_slider) for page in REGISTRY if page.bench]
#: Pages whose first visit is timed although no slider of theirs is moved (Analyze: it opens on its charts).
VISIT_ONLY = [f"/{page.name}" for page in REGISTRY if page.bench_visit and not page.bench]
TARGET_FIRST, TARGET_STABLE, TARGET_VISIT = 0.5, 1.0, 3.0
#: Slider moves per page (and for each floor); the figures are their medians.
MOVES = 5
#: Targets as ratios to the floor app's figures (first visit, first change, page stable).
RATIO_VISIT, RATIO_FIRST, RATIO_STABLE = 1.2, 1.5, 1.5
QUIET = 0.3
VISITS = 5  # server starts for the floor's and the first page's first-visit figure
PAGE_VISITS = 3  # server starts for every other page's first visit
FLOOR_APP = ROOT / "benchmarks" / "floor_app.py"
#: The second floor: Streamlit's cost of a page with our pages' element mix and no statistics.
FLOOR_PAGE_APP = ROOT / "benchmarks" / "floor_page_app.py"

# A signature of every shown chart's data (error bars included, hashed whole); changes whenever a chart on screen is
# redrawn with new data. Charts with no size are left out: when a move gives a chart a new element id (Streamlit
# 1.67 hashes the figure into a Plotly chart's id), the frontend keeps the previous chart hidden (0 × 0, in a stale
# element) until the script run ends, and that hidden copy's removal is no change a user can see.
_SIGNATURE = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).filter(g => {
  const r = g.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).map(g => {
  if (!g.data) return '';
  let s = '';
  for (const t of g.data) {
    for (const k of ['x', 'y', 'z', 'error_x', 'error_y']) {
      const v = k.startsWith('error') ? (t[k] && t[k].array) : t[k];
      if (v === undefined) continue;
      s += (v.bdata !== undefined ? v.bdata : JSON.stringify(Array.from(v))) + '|';
    }
  }
  // a hash of all of it: the first and last 200 characters are the x grid and a constant line on some pages
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return s.length + ':' + h;
}).join('#')"""


def launch_browser(pw):
    """Headless Chromium: the system's (Debian's ``chromium``) when installed, else Playwright's own."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    launch = dict(headless=True, args=CHROMIUM_ARGS)
    if executable:
        launch["executable_path"] = executable
    return pw.chromium.launch(**launch)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_server(port: int, *, floor: bool | Path = False, workers: int = 1) -> subprocess.Popen:
    """The app as ``make run`` starts it (``workers`` > 1: as ``make lab`` does, several app processes behind
    ``scripts/lab.py``), or (``floor``) a floor app under plain ``streamlit run`` (``floor=True``: the one-chart
    floor; a path: that app)."""
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    floor_app = FLOOR_APP if floor is True else floor
    launcher = ([sys.executable, "-m", "streamlit", "run", str(floor_app)] if floor else
                [sys.executable, str(ROOT / "scripts" / "lab.py"), "--workers", str(workers)] if workers > 1 else
                [sys.executable, str(ROOT / "scripts" / "serve.py")])
    proc = subprocess.Popen(
        [*launcher, "--server.address", "127.0.0.1", "--server.port",
         str(port), "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90 * workers
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {proc.returncode} before answering")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        return proc
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"streamlit did not start within {90 * workers} s")
    except BaseException:  # not started, or interrupted while waiting: leave no server behind
        _stop_server(proc)
        raise


def _wait_chart(page, timeout_ms: float = 60_000) -> None:
    """Wait until a page chart has data (not app.py's invisible Plotly preload in the sidebar)."""
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => "
                           "g.data && g.data.length && !g.closest('.st-key-plotly_preload'))",
                           timeout=timeout_ms, polling=20)


def _first_visit(browser, path: str, *, floor: bool = False) -> float:
    """Seconds from opening ``path`` on a freshly started server (fresh browser profile) to its first chart."""
    port = _free_port()
    proc = _start_server(port, floor=floor)
    try:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        start = time.perf_counter()
        page.goto(f"http://127.0.0.1:{port}{path}", wait_until="commit")
        _wait_chart(page)
        seconds = time.perf_counter() - start
        context.close()
        return seconds
    finally:
        _stop_server(proc)


def _stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _existing_pages() -> list[tuple[str, str | None]]:
    """The benchmark's pages that this version of the app has."""
    out = []
    for path, slider in PAGES:
        page_file = ROOT / "pages" / f"{path.strip('/')}.py"
        if page_file.exists():
            out.append((path, slider))
    return out


def _slider(page, name: str | None):
    """The slider a user moves first: ``name`` anywhere on the page; else the first key input (the sliders above
    the first chart, inside the page's fragment); else the sidebar's first slider."""
    if name:
        return page.get_by_role("slider", name=name).first
    keys = page.locator('.st-key-key_inputs').get_by_role("slider")
    if keys.count():
        return keys.first
    return page.locator('[data-testid="stSidebar"]').get_by_role("slider").first


def _move(page, slider) -> tuple[float, float]:
    """Press ArrowRight once on ``slider``; seconds to the first chart change and to a stable page."""
    before = page.evaluate(_SIGNATURE)
    slider.focus()
    start = time.perf_counter()
    page.keyboard.press("ArrowRight")
    first = None
    last_change, current = start, before
    deadline = start + 60
    while time.perf_counter() < deadline:
        sig = page.evaluate(_SIGNATURE)
        now = time.perf_counter()
        if sig != current:
            current, last_change = sig, now
            if first is None:
                first = now - start
        idle = page.locator(IDLE).count() > 0
        if first is not None and idle and now - last_change >= QUIET:
            return first, last_change - start
        page.wait_for_timeout(15)
    raise RuntimeError("the charts did not settle within 60 s")


def measure() -> dict:
    """Run the browser benchmark; returns the medians per page and the first-visit time."""
    from playwright.sync_api import sync_playwright

    results: dict = {"pages": {}}
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        pages = _existing_pages()
        # the floors: the one-chart app and the page-shaped app, first visits and slider moves measured the same way
        for label, app, visits in (("floor", True, VISITS), ("floor_page", FLOOR_PAGE_APP, PAGE_VISITS)):
            floor_visits = [_first_visit(browser, "/", floor=app) for _ in range(visits)]
            port = _free_port()
            proc = _start_server(port, floor=app)
            try:
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/", wait_until="domcontentloaded")
                page.wait_for_selector(IDLE, timeout=120_000)
                _wait_chart(page)
                page.wait_for_timeout(500)
                slider = _slider(page, None)  # the page-shaped floor's key input, in its fragment; else the sidebar's
                moves = [_move(page, slider) for _ in range(MOVES)]
                context.close()
            finally:
                _stop_server(proc)
            results[label] = (statistics.median(floor_visits), statistics.median(m[0] for m in moves),
                              statistics.median(m[1] for m in moves))
            print(f"  {label} measured ({', '.join(f'{v:.2f}' for v in results[label])} s)", flush=True)
        # every page's first visit after a server start, fresh profile
        results["first_visit"] = {}
        # ... and the home page's (where a shared link without a path lands: cards and a chart), no slider moved
        visit_only = [(path, None) for path in VISIT_ONLY if (ROOT / "pages" / f"{path.strip('/')}.py").exists()]
        for i, (path, _) in enumerate([*pages, *visit_only, ("/", None)]):
            visits = [_first_visit(browser, path) for _ in range(VISITS if i == 0 else PAGE_VISITS)]
            results["first_visit"][path] = visits
            print(f"  first visits of {path} measured ({', '.join(f'{v:.2f}' for v in visits)} s)", flush=True)
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        proc = _start_server(port)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            for path, name in pages:
                print(f"  measuring {path} …", flush=True)
                try:
                    page.goto(base + path, wait_until="domcontentloaded")
                    page.wait_for_selector(IDLE, timeout=120_000)
                    _wait_chart(page)
                    page.wait_for_timeout(500)
                    slider = _slider(page, name)
                    moves = [_move(page, slider) for _ in range(MOVES)]
                    results["pages"][path] = (statistics.median(m[0] for m in moves),
                                              statistics.median(m[1] for m in moves))
                except Exception as err:  # report and go on with the other pages
                    results["pages"][path] = f"{type(err).__name__}: {str(err).splitlines()[0][:120]}"
        finally:
            _stop_server(proc)
        browser.close()
    return results


def check_browser(timed=None) -> bool:
    """Print the browser figures next to their targets, in seconds and as ratios to the floor app."""
    try:
        results = measure()
    except Exception as err:  # no Chromium, no Playwright: say so, do not hide it
        print(f"browser benchmark could not run: {type(err).__name__}: {err}")
        return False
    ok = True
    floor_visit, floor_first, floor_stable = results["floor"]
    shaped_visit, shaped_first, shaped_stable = results["floor_page"]
    print(f"floor (one slider, one Plotly line, plain `streamlit run`): first visit {floor_visit:.2f} s, "
          f"first change {floor_first:.2f} s, page stable {floor_stable:.2f} s")
    print(f"page-shaped floor (a page's element mix, no statistics; floor_page_app.py): first visit "
          f"{shaped_visit:.2f} s ({shaped_visit / floor_visit:.2f}×), first change {shaped_first:.2f} s "
          f"({shaped_first / floor_first:.2f}×), page stable {shaped_stable:.2f} s ({shaped_stable / floor_stable:.2f}×)")
    print(f"{'page':<14}{'first visit':>13}{'first change':>15}{'page stable':>14}   targets: ≤ {TARGET_VISIT:.0f} s and "
          f"≤ {RATIO_VISIT:.1f}× · ≤ {TARGET_FIRST} s and ≤ {RATIO_FIRST:.1f}× · ≤ {TARGET_STABLE} s and ≤ "
          f"{RATIO_STABLE:.1f}×")
    for path, visits in results["first_visit"].items():
        visit = statistics.median(visits)
        if path == "/" or path in VISIT_ONLY:
            good = visit <= TARGET_VISIT and visit / floor_visit <= RATIO_VISIT
            ok &= good
            label = "/ (home)" if path == "/" else path
            print(f"{label:<14}{visit:>6.2f} s {visit / floor_visit:4.2f}×{'':>30}   {'OK' if good else 'MISSED'}"
                  f"   (visits: {', '.join(f'{v:.2f}' for v in visits)} s; first visit only)")
            continue
        measured = results["pages"].get(path, "not measured")
        if isinstance(measured, str):
            ok = False
            print(f"{path:<14}{visit:>8.2f} s {visit / floor_visit:4.2f}×   slider could not be measured: {measured}")
            continue
        first, stable = measured
        good = (visit <= TARGET_VISIT and visit / floor_visit <= RATIO_VISIT
                and first <= TARGET_FIRST and first / floor_first <= RATIO_FIRST
                and stable <= TARGET_STABLE and stable / floor_stable <= RATIO_STABLE)
        ok &= good
        print(f"{path:<14}{visit:>6.2f} s {visit / floor_visit:4.2f}×{first:>8.2f} s {first / floor_first:4.2f}×"
              f"{stable:>7.2f} s {stable / floor_stable:4.2f}×   {'OK' if good else 'MISSED'}"
              f"   (visits: {', '.join(f'{v:.2f}' for v in visits)} s; to the page-shaped floor: "
              f"{visit / shaped_visit:.2f}×, {first / shaped_first:.2f}×, {stable / shaped_stable:.2f}×)")
    return ok


CHECKS = [check_browser]

if __name__ == "__main__":
    sys.exit(0 if check_browser() else 1)

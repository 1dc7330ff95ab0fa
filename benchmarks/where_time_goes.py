"""Where a slider move's time goes, page by page: ``python -m benchmarks.where_time_goes [path ...]``.

For each page (and the floor app of :mod:`benchmarks.browser_bench`) it moves the
benchmark's slider three times and records, for the median move:

* **wall** — key press → page stable (as ``make bench`` measures it);
* **script** — how long the server's script run took (the app's
  ``data-test-script-state`` is "running");
* **browser CPU** — the sampling profiler's time on the page's main thread,
  split into Plotly (the chart chunk: drawing and diffing the figures),
  the rest of Streamlit's JavaScript (React rendering of the deltas, the
  websocket, protobuf decoding), and the browser's own work (garbage
  collection, layout and paint, reported by the profiler as "(program)" and
  "(garbage collector)");
* **redraws** — how many charts got new data; **charts**, **traces**, **points**
  — what the page shows; **kB** — the websocket payload the move brought.

Two floors come first: the one-chart app of ``make bench`` (``floor``) and
``floor_page_app.py`` (``floor page``), which has a page's element mix and no
statistics. It is a diagnosis, not a benchmark with targets: run it on a quiet
machine.
"""

from __future__ import annotations

import statistics
import sys
import time

from benchmarks.browser_bench import (
    _SIGNATURE,
    FLOOR_PAGE_APP,
    IDLE,
    QUIET,
    _existing_pages,
    _free_port,
    _start_server,
    _slider,
    _stop_server,
    _wait_chart,
    launch_browser,
)

_CHART_STATS = """() => { let charts = 0, traces = 0, points = 0;
  for (const g of document.querySelectorAll('.js-plotly-plot')) {
    if (!g.data || g.closest('.st-key-plotly_preload')) continue;
    charts += 1; traces += g.data.length;
    for (const t of g.data) {
      const v = t.y || t.z || t.x;
      if (!v) continue;
      if (v.bdata !== undefined) points += atob(v.bdata).length / (parseInt((v.dtype || 'f8').slice(1)) || 8);
      else points += (v.length || 0);
    }
  }
  return [charts, traces, points]; }"""

_WATCH = """() => { window.__running = 0; window.__runStart = null;
  const app = document.querySelector('[data-testid="stApp"]');
  if (!window.__obs) {
    window.__obs = new MutationObserver(() => {
      const s = app.getAttribute('data-test-script-state');
      if (s === 'running' && window.__runStart === null) window.__runStart = performance.now();
      if (s !== 'running' && window.__runStart !== null) {
        window.__running += performance.now() - window.__runStart; window.__runStart = null; }
    });
    window.__obs.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  }
}"""


def _category(frame: dict) -> str:
    url, name = frame.get("url", ""), frame.get("functionName", "")
    if name in ("(program)", "(garbage collector)"):
        return "browser"
    if name == "(idle)":
        return "idle"
    if "PlotlyChart" in url or "plotly" in url.lower():
        return "plotly"
    if url:
        return "streamlit"
    return "browser"


def _profile_split(profile: dict) -> dict:
    by_id = {node["id"]: _category(node["callFrame"]) for node in profile["nodes"]}
    out: dict = {"plotly": 0.0, "streamlit": 0.0, "browser": 0.0, "idle": 0.0}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=False):
        out[by_id.get(sample, "browser")] += delta / 1e6
    return out


def _move(page, cdp, slider, frames: list) -> dict:
    page.evaluate(_WATCH)
    before = page.evaluate(_SIGNATURE)
    before_charts = before.split("#")
    slider.focus()
    frames.clear()
    cdp.send("Profiler.start")
    start = time.perf_counter()
    page.keyboard.press("ArrowRight")
    last_change, current, changed = start, before, False
    deadline = start + 60
    while time.perf_counter() < deadline:
        sig = page.evaluate(_SIGNATURE)
        now = time.perf_counter()
        if sig != current:
            current, last_change, changed = sig, now, True
        if changed and page.locator(IDLE).count() > 0 and now - last_change >= QUIET:
            break
        page.wait_for_timeout(15)
    profile = cdp.send("Profiler.stop")["profile"]
    split = _profile_split(profile)
    return {"wall": last_change - start, "script": page.evaluate("() => window.__running") / 1000,
            "redraws": sum(a != b for a, b in zip(before_charts, current.split("#"), strict=False)),
            "bytes": sum(frames), **split}


def diagnose(paths: list[str] | None = None) -> list[tuple[str, dict, list]]:
    from playwright.sync_api import sync_playwright

    rows = []
    pages = ([("/", "Slope", "floor"), ("/", "Slope", "floor page")]
             + [(p, s, "app") for p, s in _existing_pages() if not paths or p in paths])
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        servers = {}
        try:
            for which, floor in (("floor", True), ("floor page", FLOOR_PAGE_APP), ("app", False)):
                port = _free_port()
                servers[which] = (port, _start_server(port, floor=floor))
            for path, name, which in pages:
                port = servers[which][0]
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                frames: list = []
                page.on("websocket", lambda ws, frames=frames: ws.on(
                    "framereceived", lambda payload: frames.append(len(payload))))
                cdp = context.new_cdp_session(page)
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 250})
                page.goto(f"http://127.0.0.1:{port}{path}", wait_until="domcontentloaded")
                page.wait_for_selector(IDLE, timeout=120_000)
                _wait_chart(page)
                page.wait_for_timeout(800)
                # the slider make bench moves: the page's named one, else its first key input, else the sidebar's first
                slider = _slider(page, name)
                moves = [_move(page, cdp, slider, frames) for _ in range(3)]
                stats = page.evaluate(_CHART_STATS)
                median = {k: statistics.median(m[k] for m in moves) for k in moves[0]}
                rows.append((path if which == "app" else which, median, stats))
                print(f"  {rows[-1][0]} done", flush=True, file=sys.stderr)
                context.close()
        finally:
            for _, proc in servers.values():
                _stop_server(proc)
            browser.close()
    return rows


def main(argv: list[str]) -> int:
    rows = diagnose(argv or None)
    head = (f"{'page':<14}{'wall':>7}{'script':>8}{'plotly':>8}{'streamlit':>10}{'browser':>9}{'redraws':>9}"
            f"{'charts':>8}{'traces':>8}{'points':>8}{'kB':>8}")
    print(head)
    for path, m, (charts, traces, points) in rows:
        print(f"{path:<14}{m['wall']:>7.2f}{m['script']:>8.2f}{m['plotly']:>8.2f}{m['streamlit']:>10.2f}"
              f"{m['browser']:>9.2f}{m['redraws']:>9.0f}{charts:>8}{traces:>8}{points:>8}{m['bytes'] / 1000:>8.1f}")
    print("seconds (median of 3 moves); plotly / streamlit / browser: main-thread CPU by the sampling profiler")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Memory of a lab's server: 25 browser sessions opened, used and closed; the server's RSS afterwards.

Starts the app as ``make run`` does, records its resident memory once the warm-up is done, then opens 25 sessions
in headless Chromium (five at a time), each visiting the home page and three scenario pages and moving a slider,
closes them all and follows the server's RSS for up to three minutes. Target: back within 300 MB of the start.
``python -m benchmarks.memory_bench`` runs it alone.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from benchmarks.browser_bench import IDLE, _free_port, _start_server, _wait_chart, launch_browser

SESSIONS = 25
BATCH = 5
VISITS = ("/", "/accuracy", "/llm", "/sequential")
TARGET_MB = 300.0
WATCH_SECONDS = 180


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _use(page, url: str) -> None:
    for path in VISITS:
        page.goto(url + path, wait_until="domcontentloaded")
        page.locator(IDLE).wait_for(timeout=120_000)
        if path != "/":
            _wait_chart(page, 120_000)
            slider = page.get_by_role("slider").first
            slider.focus()
            slider.press("ArrowRight")
            page.wait_for_timeout(300)
            page.locator(IDLE).wait_for(timeout=120_000)


def measure() -> dict:
    from playwright.sync_api import sync_playwright

    port = _free_port()
    proc = _start_server(port)
    url = f"http://127.0.0.1:{port}"
    try:
        time.sleep(8)  # the launcher's warm-up (scripts/serve.py) runs after the server answers
        start = rss_mb(proc.pid)
        peak = start
        with sync_playwright() as pw:
            browser = launch_browser(pw)
            for first in range(0, SESSIONS, BATCH):
                contexts = [browser.new_context(viewport={"width": 1440, "height": 900})
                            for _ in range(min(BATCH, SESSIONS - first))]
                for context in contexts:
                    _use(context.new_page(), url)
                peak = max(peak, rss_mb(proc.pid))
                for context in contexts:
                    context.close()
            browser.close()
        closed = time.monotonic()
        after = rss_mb(proc.pid)
        while time.monotonic() - closed < WATCH_SECONDS:
            time.sleep(10)
            after = rss_mb(proc.pid)
            if after - start <= TARGET_MB * 0.5:
                break
        return {"start": start, "peak": peak, "after": after, "seconds": time.monotonic() - closed}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            proc.kill()


def check_memory(timed=None) -> bool:
    m = measure()
    good = m["after"] - m["start"] <= TARGET_MB
    print(f"Server memory, {SESSIONS} sessions opened and closed: start {m['start']:.0f} MB, peak {m['peak']:.0f} MB, "
          f"{m['seconds']:.0f} s after closing {m['after']:.0f} MB (+{m['after'] - m['start']:.0f} MB; target "
          f"<= +{TARGET_MB:.0f} MB) {'OK' if good else 'MISSED'}")
    return good


CHECKS = [check_memory]

if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    raise SystemExit(0 if check_memory() else 1)

"""A lab on one server in real browsers: two people on ``make lab`` (two app processes behind ``scripts/lab.py``)
each upload a results file and get their analysis.

The upload is the hard case for a proxy: the file goes to ``/_stcore/upload_file/<session>/…`` with the XSRF token of
the process that holds the session, so it only works if the browser's requests all reach that process. Oracles: each
browser's cookie names a different process (the second person went to the idle one), and each page shows the
analysis of the file that browser sent.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from .conftest import ARTIFACTS, ROOT, _free_port, click_download, wait_idle

pytestmark = pytest.mark.e2e

_spec = importlib.util.spec_from_file_location("lab", ROOT / "scripts" / "lab.py")
lab = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("lab", lab)  # dataclasses look their module up
_spec.loader.exec_module(lab)


@pytest.fixture(scope="module")
def lab_url():
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "lab.py"), "--workers", "2",
                             "--server.port", str(port), "--server.fileWatcherType", "none"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        lab.wait_until_healthy(url, proc, 300, what="the lab")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_two_people_upload_through_the_lab(browser, lab_url, tmp_path):
    people = []
    for who, shift in (("ana", 0.0), ("ben", 0.05)):
        rows = "\n".join(f"{0.60 + shift + 0.003 * (i % 17):.3f},{0.57 + 0.0025 * (i % 13):.3f}" for i in range(120))
        path = tmp_path / f"{who}.csv"
        path.write_text(f"{who},baseline\n" + rows + "\n")
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        page.goto(f"{lab_url}/analysis?data=upload", wait_until="domcontentloaded")
        wait_idle(page, timeout=90_000)
        people.append((who, path, context, page, errors))
    try:
        workers = [next(c["value"] for c in ctx.cookies() if c["name"] == "nlp_power_worker")
                   for _, _, ctx, _, _ in people]
        assert sorted(workers) == ["0", "1"]  # the second person went to the idle process
        for who, path, _, page, errors in people:
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
            page.get_by_text("Using 120 of 120 rows").wait_for(timeout=90_000)
            page.get_by_text(f"Comparison of {who} (A) and baseline (B)").first.wait_for(timeout=90_000)
            # a download is a file the session's own process made (/media/…): it must come from that process
            button = page.get_by_role("button", name="Download all results (CSV)").first
            text = open(click_download(page, button).path(), encoding="utf-8").read()
            assert who in text and "baseline" in text
            assert not errors, errors
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"lab-upload-{who}.png"))
    finally:
        for _, _, context, _, _ in people:
            context.close()

"""Analysis page in a real browser: upload a results file and see the report and charts."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.e2e


def test_upload_file_shows_results(page, server_url, tmp_path):
    rows = "\n".join(f"{0.60 + 0.003 * (i % 17):.3f},{0.57 + 0.0025 * (i % 13):.3f}" for i in range(120))
    csv_file = tmp_path / "results.csv"
    csv_file.write_text("mine,baseline\n" + rows + "\n")
    page.goto(f"{server_url}/analysis?data=upload", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(csv_file))
    page.get_by_text("Using 120 of 120 rows").wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    page.get_by_text("Comparison of mine (A) and baseline (B)").first.wait_for(timeout=60_000)
    # histograms, power curve and posterior: Plotly draws each chart when it is mounted, so wait for all four
    page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stPlotlyChart\"]').length >= 4",
                           timeout=60_000)
    page.get_by_text("Posterior of the difference").first.wait_for(timeout=60_000)
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "analysis-after-upload.png"), full_page=True)

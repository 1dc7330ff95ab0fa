"""Human judgments in a real browser: a Google MQM segment-scores file (tab and space mixed within rows, None
scores) or an mt-metrics-eval ratings file (``.seg.rating``, an extension the uploader must accept) uploaded on the
home page is recognised, and its link carries the fitted pair's mean, SD and difference to
the DA campaign page, which opens."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from core import home as hm
from pages._registry import by_name

from .conftest import wait_idle

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parents[1] / "data" / "humaneval"


@pytest.mark.parametrize("source, name", [
    ("mqm_synthetic.avg_seg_scores.tsv", "mqm_newstest2021_ende.avg_seg_scores.tsv"),
    ("en-de.mqm.merged.seg.rating", "en-de.mqm.merged.seg.rating"),
])
def test_an_mqm_segment_scores_file_opens_the_da_campaign_page(page, server_url, tmp_path, source, name):
    from playwright.sync_api import expect

    data = (DATA / source).read_bytes()
    path = tmp_path / name
    path.write_bytes(data)
    expected = hm.read_upload(path.name, data)
    page.goto(f"{server_url}/", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    expect(page.get_by_text("as human judgments of several systems", exact=False)).to_be_visible(timeout=30_000)
    link = page.get_by_role("link", name=f"Open {by_name('sequential').title} with these values")
    href = link.get_attribute("href")
    assert {k: v[0] for k, v in parse_qs(urlparse(href).query).items()} == expected.query, href
    link.click()
    page.wait_for_url("**/sequential?**", timeout=30_000)
    wait_idle(page, timeout=60_000)
    # the page keeps the values its widgets accept (an MQM mean of -3.65 is outside the 0–100 DA sliders, which
    # the DA page's own reading of the link is to handle) and opens without an error
    query = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
    assert query.get("fitted") == expected.query["fitted"] and query.get("delta") == expected.query["delta"]
    page.get_by_text("Direct Assessment campaigns: should you peek?", exact=False).first.wait_for(timeout=30_000)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    assert not page.errors, page.errors

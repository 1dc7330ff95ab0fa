"""Runnable plans and the code view in a real browser: open the expander, download the file, parse it."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from .conftest import click_download, wait_idle

pytestmark = pytest.mark.e2e


def download(page, server_url, path, expander, button):
    from playwright.sync_api import expect

    page.goto(f"{server_url}{path}", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.get_by_text(expander, exact=False).first.click()
    target = page.get_by_role("button", name=button)
    expect(target).to_be_visible(timeout=60_000)
    download_ = click_download(page, target)
    with open(download_.path(), "rb") as fh:
        data = fh.read()
    assert not page.errors, page.errors
    return data


def test_llm_item_list_downloads(page, server_url):
    from core import runnable as rn

    data = download(page, server_url, "/llm?n=200", "Download the item list", "Download the item list (JSON)")
    mapping = json.loads(data)
    # oracle: the same seed draws the same list in core (N = 10 n items numbered 0 … N − 1)
    assert mapping == json.loads(rn.item_list_json(rn.item_list(range(2000), 200, seed=0)))


def test_leaderboard_vote_allocation_downloads(page, server_url):
    data = download(page, server_url, "/leaderboard", "Download the vote allocation",
                    "Download the vote allocation (CSV)")
    alloc = pd.read_csv(io.BytesIO(data))
    assert len(alloc) >= 1 and (alloc["power"] >= 0.8).all() and (alloc["votes"] > 0).all()


def test_ratings_worker_assignment_downloads(page, server_url):
    data = download(page, server_url, "/ratings?workers=4&items=30", "Download the worker assignment",
                    "Download the worker assignment (CSV)")
    table = pd.read_csv(io.BytesIO(data))
    assert len(table) == 120 and (table.groupby("item")["worker"].nunique() == 4).all()


def test_code_view_shows_the_script(page, server_url):
    from playwright.sync_api import expect

    page.goto(f"{server_url}/mt", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.get_by_text("Python code for this view", exact=False).first.click()
    expect(page.get_by_text("mt.bleu_power(n, delta, p0, b0, alpha=alpha)", exact=False).first).to_be_visible(
        timeout=60_000)
    assert not page.errors, page.errors


def test_plotted_data_downloads_when_clicked(page, server_url):
    """The chart's CSV is written on click (deferred), and it is the chart's data: the MT page's power curve."""
    from playwright.sync_api import expect

    page.goto(f"{server_url}/mt", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    button = page.get_by_role("button", name="Download the plotted data (CSV)").first
    expect(button).to_be_visible(timeout=60_000)
    table = pd.read_csv(io.BytesIO(open(click_download(page, button).path(), "rb").read()))
    assert {"n", "power"} <= set(table.columns) and len(table) > 10
    assert table["power"].between(0, 1).all()
    assert not page.errors, page.errors

"""Home page in a real browser: a question card opens its page, whose metrics row shows the card's promised number;
an upload is recognised and its link opens the target page with the fitted values; presentation mode."""

from __future__ import annotations

import pytest

from core import home as hm
from pages._registry import teaser_of

from .conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.e2e


def _open_home(page, server_url, query: str = "") -> None:
    page.goto(f"{server_url}/{query}", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.locator(".st-key-card_llm").wait_for(timeout=60_000)


@pytest.mark.parametrize("name", ["llm", "mt"])
def test_a_card_opens_its_page_with_the_promised_number(page, server_url, name):
    from playwright.sync_api import expect

    promised = teaser_of(name)
    _open_home(page, server_url)
    card = page.locator(f".st-key-card_{name}")
    expect(card).to_contain_text(promised.answer, timeout=30_000)
    card.locator('[data-testid="stPageLink"] a').click()
    page.wait_for_url(f"**/{name}**", timeout=30_000)
    wait_idle(page, timeout=60_000)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text=promised.metric).first
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(promised.shown, timeout=30_000)
    assert f"{100 * promised.value:.0f}%" in promised.answer  # the card's rounded number is the page's
    assert not page.errors, page.errors


def test_the_filter_chart_is_drawn_next_to_the_definitions(page, server_url):
    _open_home(page, server_url)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g.data && "
                           "g.data.length && !g.closest('.st-key-plotly_preload'))", timeout=60_000)
    box = page.locator(".js-plotly-plot").last.bounding_box()
    definition = page.get_by_text("Type-M error", exact=False).first.bounding_box()
    assert box and definition and box["x"] > definition["x"] + 200  # side by side, not below
    assert not page.errors, page.errors


def test_an_upload_is_recognised_and_opens_the_page_with_fitted_values(page, server_url, tmp_path):
    from playwright.sync_api import expect

    from tests.test_home import MT_TSV

    path = tmp_path / "outputs.tsv"
    path.write_bytes(MT_TSV)
    expected = dict(hm.read_upload("outputs.tsv", MT_TSV).values)
    _open_home(page, server_url)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    expect(page.get_by_text("as MT outputs", exact=False)).to_be_visible(timeout=30_000)
    page.get_by_role("link", name="Open Machine translation (BLEU) with these values").click()
    page.wait_for_url("**/mt?**", timeout=30_000)
    wait_idle(page, timeout=60_000)
    assert f"p0={expected['p0']}" in page.url and f"b0={expected['b0']}" in page.url
    slider = page.get_by_role("slider", name="b0: spread of the swap effects")
    slider.wait_for(timeout=30_000)
    assert float(slider.input_value()) == pytest.approx(expected["b0"])
    assert not page.errors, page.errors


def test_presentation_mode_home_page_fits_a_projector(browser, server_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        _open_home(page, server_url, "?present=true")
        page.wait_for_timeout(300)
        cards = page.locator('[class*="st-key-card_"]')
        assert cards.count() >= 8
        # two cards per row: no card text is cut off horizontally
        widths = [cards.nth(i).bounding_box()["width"] for i in range(cards.count())]
        assert min(widths) > 400
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "home-present-1280.png"), full_page=True)
    finally:
        context.close()


def test_a_link_to_slash_home_opens_the_home_page(page, server_url):
    # "/home" (a hand-typed or old link) and "/" both open the home page, with the link's parameters kept
    from playwright.sync_api import expect

    page.goto(f"{server_url}/home?home_n=100", wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)
    page.locator(".st-key-card_llm").wait_for(timeout=60_000)
    expect(page.get_by_text("Page not found", exact=False)).to_have_count(0)
    page.wait_for_url("**/?home_n=100", timeout=30_000)
    slider = page.get_by_role("slider", name="Raters per study")
    expect(slider).to_have_attribute("aria-valuetext", "100", timeout=30_000)
    assert not page.errors, page.errors


def test_the_demo_card_opens_the_lab_meeting_demo(page, server_url):
    from playwright.sync_api import expect

    promised = teaser_of("demo")
    _open_home(page, server_url)
    card = page.locator(".st-key-card_demo")
    expect(card).to_contain_text(promised.answer, timeout=30_000)
    card.locator('[data-testid="stPageLink"] a').click()
    page.wait_for_url("**/demo**", timeout=30_000)
    wait_idle(page, timeout=60_000)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text=promised.metric).first
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(promised.shown, timeout=30_000)
    assert not page.errors, page.errors


def test_a_zip_of_two_harness_files_is_accepted_and_fitted(page, server_url, tmp_path):
    """A zipped output folder holding the baseline's and the new model's samples files: the browser's uploader
    accepts ``.zip`` and the home page fits the two files inside (core.packed.unpack_all)."""
    import io
    import zipfile
    from urllib.parse import parse_qsl, urlsplit

    from playwright.sync_api import expect

    from tests.app.test_home_page import HARNESS_DIR

    base = sorted(HARNESS_DIR.glob("synthetic-baseline/*.jsonl"))[0].read_bytes()
    new = sorted(HARNESS_DIR.glob("synthetic-candidate/*.jsonl"))[0].read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("output/baseline/samples_gsm8k.jsonl", base)
        archive.writestr("output/new/samples_gsm8k.jsonl", new)
    path = tmp_path / "harness_output.zip"
    path.write_bytes(buffer.getvalue())
    expected = hm.read_uploads([("base.jsonl", base), ("new.jsonl", new)]).query
    _open_home(page, server_url)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    expect(page.get_by_text("as lm-evaluation-harness sample log", exact=False)).to_be_visible(timeout=30_000)
    link = page.locator('[data-testid="stPageLink"] a', has_text="with these values").first
    link.wait_for(timeout=30_000)
    assert dict(parse_qsl(urlsplit(link.get_attribute("href")).query)) == expected
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot open").count()
    assert not page.errors, page.errors

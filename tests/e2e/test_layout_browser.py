"""Every page answers at a glance: on a laptop (1440 × 900) and in presentation mode on a projector (1280 × 720,
1024 × 768), the title, the inputs the question turns on, the headline metrics and the start of the first chart
are on the first screen, without scrolling; on a small laptop (1280 × 800) the headline metrics stay one row. Oracle: the elements' bounding boxes in headless Chromium."""

from __future__ import annotations

import math

import pytest

from pages._registry import PAGES

from .conftest import ARTIFACTS, wait_idle, wait_settled

pytestmark = pytest.mark.e2e

#: Pages with a design to plan: key inputs in the main area and a metrics row above the first chart.
PLANNING = [p.name for p in PAGES if p.section == "Scenarios" and p.name != "analysis"]
#: How much of the first chart must be on the first screen (its axes, target line and curves start there).
CHART_VISIBLE = 180

_BOXES = """() => {
  const box = e => { if (!e) return null; const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom,
                     left: b.left, right: b.right, width: b.width}; };
  const charts = Array.from(document.querySelectorAll('.js-plotly-plot')).filter(g => !g.closest('.st-key-plotly_preload'));
  const tabs = document.querySelector('.st-key-view [data-testid="stButtonGroup"]') || document.querySelector('[data-testid="stTabs"] [role="tablist"]');
  const metrics = Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetric"]'));
  const values = Array.from(document.querySelectorAll('[data-testid="stMetricValue"]'));
  return {title: box(document.querySelector('h1')), keys: box(document.querySelector('.st-key-key_inputs')),
          metric: box(metrics[0]), chart: box(charts[0]),
          sidebar: box(document.querySelector('[data-testid="stSidebar"]')),
          modebars: Array.from(document.querySelectorAll('.modebar')).filter(m => m.offsetParent !== null).length,
          tabsOverflow: tabs ? tabs.scrollWidth > tabs.clientWidth + 1 : false,
          // Plotly scrolls a legend taller than its plot: an entry (often the current-design marker) is hidden
          legendScrolls: Array.from(document.querySelectorAll('.js-plotly-plot .legend .scrollbar'))
                              .filter(b => b.getBoundingClientRect().height > 0).length,
          // the tops of the metrics above the first chart: one row on a projector
          metricTops: charts.length ? Array.from(new Set(metrics.map(m => Math.round(m.getBoundingClientRect().top))
                                        .filter(t => t < charts[0].getBoundingClientRect().top))) : [],
          // the tops of the metrics in the first metric's row (its horizontal block): one line, no metric alone below
          headlineTops: metrics.length ? Array.from(new Set(Array.from(metrics[0].closest('[data-testid="stHorizontalBlock"]')
                          .querySelectorAll('[data-testid="stMetric"]')).map(m => Math.round(m.getBoundingClientRect().top)))) : [],
          cut: values.filter(v => v.scrollWidth > v.clientWidth + 1).map(v => v.innerText)};
}"""


def _open(browser, server_url, name, width, height, query=""):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server_url}/{name}{query}", wait_until="domcontentloaded")
    wait_idle(page, timeout=90_000)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(g => g.data && "
                           "g.data.length && !g.closest('.st-key-plotly_preload'))", timeout=90_000)
    # the pages fill their metrics row after the first chart: wait for it and for the script to stay idle
    page.wait_for_selector('[data-testid="stMain"] [data-testid="stMetric"]', timeout=90_000)
    wait_settled(page, timeout=90_000)
    page.wait_for_timeout(400)  # fonts and layout settle
    return context, page


def _on_first_screen(box, height):
    return box is not None and box["top"] >= 0 and box["bottom"] <= height


@pytest.mark.parametrize("name", PLANNING)
def test_laptop_shows_inputs_metrics_and_chart_without_scrolling(browser, server_url, name):
    context, page = _open(browser, server_url, name, 1440, 900)
    try:
        b = page.evaluate(_BOXES)
        assert _on_first_screen(b["title"], 900), b
        assert _on_first_screen(b["keys"], 900), b
        assert _on_first_screen(b["metric"], 900), b
        assert b["chart"]["top"] <= 900 - CHART_VISIBLE, b
        assert not b["cut"], b
    finally:
        context.close()


@pytest.mark.parametrize("name", PLANNING)
def test_a_small_laptop_keeps_the_headline_metrics_on_one_line(browser, server_url, name):
    """1280 × 800 beside the open sidebar (a main area of about 820 pixels): the headline metrics stay one row
    (long labels and the lines under values wrap instead), no value is cut, and the metrics are on screen."""
    context, page = _open(browser, server_url, name, 1280, 800)
    try:
        b = page.evaluate(_BOXES)
        assert len(b["headlineTops"]) == 1, b
        assert _on_first_screen(b["metric"], 800) and not b["cut"], b
    finally:
        context.close()


@pytest.mark.parametrize("width, height", [(1280, 720), (1024, 768)])
@pytest.mark.parametrize("name", PLANNING)
def test_presentation_mode_fits_a_projector(browser, server_url, name, width, height):
    context, page = _open(browser, server_url, name, width, height, "?present=true")
    try:
        b = page.evaluate(_BOXES)
        assert b["sidebar"] is None or b["sidebar"]["width"] < 5 or b["sidebar"]["right"] <= 0, b  # folded
        assert _on_first_screen(b["title"], height), b
        assert _on_first_screen(b["keys"], height), b
        assert b["keys"]["top"] >= b["title"]["bottom"] - 1, b  # the key inputs' labels clear the title
        assert _on_first_screen(b["metric"], height), b
        assert b["chart"]["top"] <= height - CHART_VISIBLE, b
        assert b["chart"]["bottom"] <= height + 1, b  # the whole first chart, axes included
        assert b["modebars"] == 0 and not b["tabsOverflow"] and not b["cut"], b
        assert b["legendScrolls"] == 0, b
        assert b["chart"]["width"] >= 0.95 * b["keys"]["width"], b  # the first chart at full width, never half
        assert len(b["metricTops"]) == 1, b  # the headline metrics in one row
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"present-{width}-{name}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("width, height", [(1280, 720), (1024, 768)])
def test_demo_step_buttons_are_on_screen_at_every_step(browser, server_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for step in range(1, 6):
            page.goto(f"{server_url}/demo?present=true&step={step}", wait_until="domcontentloaded")
            wait_idle(page, timeout=90_000)
            for label in ("← Previous", "Next →"):
                button = page.get_by_role("button", name=label)
                button.wait_for(timeout=60_000)
                box = button.bounding_box()
                assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (step, label, box)
    finally:
        context.close()


_TICKS = """() => {
  const g = Array.from(document.querySelectorAll('.js-plotly-plot')).filter(g => !g.closest('.st-key-plotly_preload'))[0];
  const labels = sel => Array.from(g.querySelectorAll(sel)).filter(t => t.textContent.trim()).map(t => {
    const b = t.getBoundingClientRect(); return {text: t.textContent, left: b.left, right: b.right, top: b.top,
                                                 bottom: b.bottom}; });
  return {types: [g._fullLayout.xaxis.type, g._fullLayout.yaxis.type], x: labels('.xtick text'),
          y: labels('.ytick text')};
}"""


def _overlaps(labels):
    return [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
            if a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
            and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1]


@pytest.mark.parametrize("width, height, query", [(1440, 900, ""), (1024, 768, "?present=true")])
@pytest.mark.parametrize("name", ["accuracy", "llm", "judge", "mt"])
def test_log_axes_read_at_a_glance(browser, server_url, name, width, height, query):
    """The first chart's log axis is labelled with a few round numbers (20, 50, 100, 1,000, 10k …; Plotly's own
    labels put a small digit at every 2…9 of a decade), and no two tick labels overlap, on a laptop and on a
    projector."""
    context, page = _open(browser, server_url, name, width, height, query)
    try:
        ticks = page.evaluate(_TICKS)
        for letter, kind in zip("xy", ticks["types"]):
            labels = ticks[letter]
            assert labels and not _overlaps(labels), (letter, [t["text"] for t in labels])
            if kind == "log":
                values = [float(t["text"].replace(",", "").replace("k", "e3").replace("M", "e6")) for t in labels]
                assert 2 <= len(values) <= 12, values
                assert all(round(v / 10 ** math.floor(math.log10(v)), 6) in (1, 2, 3, 5)
                           for v in values), values
    finally:
        context.close()


#: Scenario pages with a view switcher.
WITH_VIEWS = [p for p in PLANNING if p != "claims"]

_VIEW_BOXES = """() => {
  const shown = e => e && e.offsetParent !== null && e.getBoundingClientRect().height > 0;
  const box = e => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom}; };
  const switcher = document.querySelector('.st-key-view');
  const below = switcher.getBoundingClientRect().bottom - 1;
  const charts = Array.from(document.querySelectorAll('.js-plotly-plot'))
                      .filter(g => shown(g) && !g.closest('.st-key-plotly_preload') && g.getBoundingClientRect().top >= below);
  const metrics = Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetric"]')).filter(shown);
  const keys = document.querySelector('.st-key-key_inputs');
  const group = document.querySelector('.st-key-view [data-testid="stButtonGroup"]');
  return {switcher: box(switcher), chart: charts.length ? box(charts[0]) : null, keys: shown(keys) ? box(keys) : null,
          title: box(document.querySelector('h1')),
          headline: metrics.filter(m => m.getBoundingClientRect().top < below).length,
          viewMetrics: metrics.filter(m => m.getBoundingClientRect().top >= below).length,
          own: !!document.querySelector('.st-key-view_own_design'),
          overflow: group ? group.scrollWidth > group.clientWidth + 1 : false,
          cut: Array.from(document.querySelectorAll('[data-testid="stMetricValue"]')).filter(shown)
                    .filter(v => v.scrollWidth > v.clientWidth + 1).map(v => v.innerText)};
}"""


@pytest.mark.parametrize("width, height", [(1280, 720), (1024, 768)])
@pytest.mark.parametrize("name", WITH_VIEWS)
def test_presentation_mode_fits_every_view(browser, server_url, name, width, height):
    """1280 × 720 and 1024 × 768, every view of the page chosen from its switcher: the view's first chart starts on the first
    screen (its top CHART_VISIBLE pixels at least). A view with a metrics row of its own (non-inferiority, prompts
    and seeds, which items to label, …) is the answer on the projector: the page's headline above the switcher steps
    aside; a view that plans a design of its own (``views(own=…)``) hides the key inputs too, which it does not read (and the headline with them, numbers in the view or not);
    every other view keeps them on screen. No switcher overflow, no value cut."""
    from .test_views_browser import _choose

    context, page = _open(browser, server_url, name, width, height, "?present=true")
    try:
        switcher = page.locator(".st-key-view")
        labels = switcher.get_by_role("radio").all_inner_texts()
        assert len(labels) >= 2, labels
        for label in labels:
            if label != labels[0]:
                _choose(page, switcher, label)
                page.wait_for_timeout(300)  # layout settles
            b = page.evaluate(_VIEW_BOXES)
            assert not page.locator('[data-testid="stException"]').count(), label
            assert not b["overflow"] and not b["cut"], (label, b)
            assert b["switcher"]["top"] >= b["title"]["bottom"] - 1, (label, b)  # nothing sits on the title
            if b["chart"] is not None:  # views that wait for an upload or a prior show a note instead
                assert b["chart"]["top"] <= height - CHART_VISIBLE, (label, b)
            if b["viewMetrics"]:
                assert b["headline"] == 0, (label, b)
            if b["own"]:  # with the headline they drive, numbers in the view or not
                assert b["keys"] is None and b["headline"] == 0, (label, b)
            else:
                assert b["keys"] is not None and b["keys"]["bottom"] <= height, (label, b)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"present-views-{width}-{name}-{labels.index(label)}.png"))
    finally:
        context.close()

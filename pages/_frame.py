"""The page frame: cache wrappers, chart config, frame check, title, presentation mode, key-input columns."""

from __future__ import annotations

import dataclasses

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from core import figures
from pages._links import notes_slot

__all__ = ['cached', 'design_key', 'cached_upload', 'CHART_CONFIG', 'PRESENTATION_CHART_CONFIG', 'ensure_frame', 'presentation', 'style', 'chart_row', 'start', 'key_inputs']


def design_key(design) -> tuple:
    """What identifies a design in a cache key: its class and every dataclass field's value.

    Designs are frozen dataclasses compared by their fields, so this is the key Streamlit's own hashing would reach
    through ``__reduce__`` — about a third of its cost, on every cached call of every rerun."""
    cls = type(design)
    return cls.__module__, cls.__qualname__, tuple(getattr(design, f.name) for f in dataclasses.fields(design))


def _design_hash_funcs() -> dict:
    """:func:`design_key` for every scenario's design class (and their subclasses)."""
    from core.design import Design
    from pages._registry import PAGES, design_classes

    for page in PAGES:  # imports every registered scenario's designs
        design_classes(page)
    found, todo = {}, [Design]
    while todo:
        for sub in todo.pop().__subclasses__():
            if dataclasses.is_dataclass(sub):
                found[sub] = design_key
            todo.append(sub)
    return found


#: Cache wrapper for every page's calls into ``core``.
cached = st.cache_data(show_spinner=False, max_entries=256, hash_funcs=_design_hash_funcs())


#: Cache wrapper for parsing uploads and for results as large as an upload (up to some 50 MB each): kept per session
#: (freed when the session closes), two entries per function, at most 128 MB and 30 minutes, so a server that
#: receives many large files keeps a bounded amount of them. (``.streamlit/config.toml`` also bounds all caches
#: together: ``server.maxCacheDataSize``.)
cached_upload = st.cache_data(show_spinner=False, max_entries=2, max_size="128MB", ttl="30m", scope="session")


#: Plotly config: no logo, no links to plotly's cloud; PNG export stays (it works offline).
CHART_CONFIG = {"displaylogo": False, "showLink": False, "modeBarButtonsToRemove": ["sendDataToCloud", "lasso2d",
                                                                                    "select2d"]}


#: On a projector: no mode bar over the chart (hover values stay).
PRESENTATION_CHART_CONFIG = {**CHART_CONFIG, "displayModeBar": False}


def ensure_frame() -> None:
    """Run the page inside app.py's frame even when a deep link is the first request.

    Before any session has run app.py, Streamlit falls back to its legacy
    pages/-folder mode for a URL such as /accuracy, which would skip the
    frame (page config, navigation); hand over to app.py instead.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def presentation() -> bool:
    """True in lab-meeting mode (the frame's "Presentation mode" toggle, ``?present=true`` in the URL)."""
    return bool(st.session_state.get("present", False))


def style(share: float = 1.0) -> figures.Style:
    """Chart sizes for the current mode; ``share`` is the chart's share of the page width (0.5: side by side)."""
    return figures.narrow(figures.PRESENTATION if presentation() else figures.STYLE, share)


def chart_row(spec=2) -> tuple[list, list[float]]:
    """Boxes for charts side by side (``spec`` as for ``st.columns``) and each one's share of the width, for
    :func:`style`. In lab-meeting mode they are stacked at full width instead: beside its 18-px legend a
    half-width chart keeps a plot of about 150 pixels on a 1024-pixel projector, too small to read."""
    widths = [1.0] * spec if isinstance(spec, int) else [float(w) for w in spec]
    if presentation():
        return [st.container() for _ in widths], [1.0] * len(widths)
    return list(st.columns(spec)), [w / sum(widths) for w in widths]


_PRESENTATION_CSS = """
<style>
/* lab-meeting mode: large numbers and text, compact top, captions and secondary controls hidden; the title, the
   headline metrics and the first chart fit one 1280 × 720 (or 1024 × 768) screen */
[data-testid="stMainBlockContainer"] { padding-top: 3.4rem; padding-bottom: 1rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 1.85rem !important; line-height: 1.1; }
[data-testid="stMetricLabel"] p { font-size: 0.95rem; }
[data-testid="stMain"] [data-testid="stVerticalBlock"] { gap: 0.25rem; }
[data-testid="stWidgetLabel"] p { font-size: 1.05rem !important; }
/* the metrics' help icons are for the desk, not the projector: the row stays on one line */
[data-testid="stMetricLabel"] [data-testid="stTooltipIcon"] { display: none; }
/* a long label wraps onto a second line rather than pushing the row's last metric onto a line of its own; the
   value keeps its own width, so it is never cut */
[data-testid="stMetricLabel"] { max-width: 11rem; }
/* the view switcher: every name on screen in at most two short rows */
.st-key-view button { min-height: 1.8rem; padding: 0 0.6rem; }
.st-key-view button p { font-size: 1.0rem; }
@media (max-width: 1100px) {
  [data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 1.65rem !important; }
  [data-testid="stMetricLabel"] p { font-size: 0.85rem; }
  /* long labels wrap onto two or three lines instead of pushing a row of five metrics onto a second line */
  [data-testid="stMetricLabel"] { max-width: 8.5rem; }
  [data-testid="stTab"] p { font-size: 0.9rem !important; }
  [data-testid="stTab"] { height: 2.1rem; }
  .st-key-view button p { font-size: 0.9rem; }
  [data-testid="stAlert"] p { font-size: 0.92rem !important; }
  [data-testid="stWidgetLabel"] p { font-size: 0.95rem !important; }
}
[data-testid="stMetricLabel"] * { white-space: normal !important; overflow: visible !important; }
[data-testid="stAlert"] p { font-size: 1.0rem !important; }
[data-testid="stAlertContainer"] { padding: 0.2rem 0.9rem; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.25rem; }
[data-testid="stCaptionContainer"] { display: none; }
h1 { font-size: 1.6rem !important; padding-top: 0 !important; padding-bottom: 0.1rem !important; }
[data-testid="stTab"] p { font-size: 1.05rem; }
[data-testid="stTab"] { height: 2.0rem; }
/* every tab's name on screen: the tab bar wraps instead of scrolling sideways */
[data-testid="stTabs"] [role="tablist"] { flex-wrap: wrap; row-gap: 0; }
/* secondary on a projector: links to other pages (except the home page's cards) and the pinned-designs panel */
[data-testid="stMainBlockContainer"] [data-testid="stPageLink"] { display: none; }
[data-testid="stMainBlockContainer"] [class*="st-key-card_"] [data-testid="stPageLink"] { display: block; }
.st-key-pins_panel { display: none; }
/* a view with numbers of its own (a metrics row in the view: non-inferiority, prompts and seeds, which items to
   label, a budget planner, …) is the answer on the projector: the page's headline above the switcher (its metrics
   rows and verdict, everything between the key inputs and the switcher) steps aside so the view's chart comes up on
   the first screen; the key inputs stay, as the view reads them */
[data-testid="stVerticalBlock"]:has(> .st-key-view + [data-testid="stLayoutWrapper"] [data-testid="stMetric"])
  > :has(~ .st-key-view):not(:has(.st-key-key_inputs)) { display: none; }
/* a view that plans a design of its own (pages._show.views, ``own``) reads none of the key inputs: they step aside,
   with the headline they drive, whether or not the view shows numbers yet */
[data-testid="stMain"]:has(.st-key-view_own_design) [data-testid="stVerticalBlock"]:has(> .st-key-view)
  > :has(~ .st-key-view) { display: none; }
/* ... and the switcher, now right under the title, keeps clear of the title's last line as the key inputs did */
[data-testid="stMain"]:has(.st-key-view_own_design) .st-key-view { margin-top: 0.75rem; }
/* the title's box is tighter than its text here: a link's note keeps clear of it */
.st-key-link_notes { margin-top: 0.6rem; }
/* ... and so do the key inputs: their labels would sit on the title's last line */
.st-key-key_inputs { margin-top: 0.75rem; }
</style>
"""


#: Every page: the navigation runs across the top, so the page starts right under it (Streamlit's default top
#: padding of 6rem would push the key inputs and the first chart further below the fold), and a metrics row stays
#: one row on a laptop.
_PAGE_CSS = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 4rem; }
/* the content a hidden view keeps (pages._show.Views) is never shown */
[class*="st-key-views_hidden_"] { display: none; }
/* the view switcher is as compact as the tab bar it replaced: one line of names that wraps when it must */
.st-key-view button { min-height: 2rem; padding: 0.1rem 0.8rem; }
h1 { padding-top: 0.25rem !important; }
/* beside the sidebar on a 1280–1440-pixel laptop the main area is 820–980 pixels wide: five metrics fit one row
   with a narrower gap, and below 1380 pixels with long labels and the lines under values wrapped (a value keeps
   its own width, so it is never cut) and slightly smaller values */
@media (max-width: 1500px) {
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stLayoutWrapper"] > [data-testid="stVerticalBlock"]
    > [data-testid="stElementContainer"] > [data-testid="stMetric"]) { column-gap: 1.25rem; }
}
@media (max-width: 1380px) {
  [data-testid="stMetricLabel"] { max-width: 9rem; }
  [data-testid="stMetricLabel"] * { white-space: normal !important; overflow: visible !important; }
  [data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 2rem; }
  /* a line under a value (a Monte Carlo SE, a condition) wraps at the metric's width instead of widening it */
  [data-testid="stVerticalBlock"]:has(> [data-testid="stElementContainer"] > [data-testid="stMetric"])
    > [data-testid="stElementContainer"]:has([data-testid="stCaptionContainer"]) { width: 0; min-width: max(100%, 9rem); }
}
</style>
"""


def start(title: str, caption: str) -> None:
    """Frame check, title and source line of a page (and the presentation styles when that mode is on)."""
    ensure_frame()
    st.html(_PAGE_CSS)
    if presentation():
        st.html(_PRESENTATION_CSS)
    st.title(title)
    if not presentation():
        st.caption(caption)
    notes_slot()  # where a link's values that the page cannot use are named (pages._links)


def key_inputs(count: int) -> list:
    """``count`` columns in the main area, above the metrics and the first chart, for the 2–4 inputs the page's
    question turns on (the rest stay in the sidebar's assumptions). Widgets keep their keys, so links are unchanged."""
    return list(st.container(key="key_inputs").columns(count, gap="medium"))

"""Showing results: errors as messages, the metrics row and verdicts, charts, short tables, lazy tabs, explain, CSV
download."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core.export import csv_bytes
from core.plan.text import currency_label, fmt_pct, fmt_ratio
from core.sizing import SampleSize
from pages._frame import CHART_CONFIG, PRESENTATION_CHART_CONFIG, presentation
from pages._text import md_escape, safe_message

__all__ = ['guard', 'Metric', 'metrics_row', 'metric_slots', 'verdict', 'sample_size_metric', 'fmt_points', 'chart', 'short_table', 'Views', 'views', 'OWN_VIEW_KEY', 'explain', 'download_csv', 'fmt_money']


@contextlib.contextmanager
def guard(what: str = "Cannot compute this design", *, stop: bool = True):
    """Turn a ``ValueError`` from ``core`` into a clear message (never a traceback).

    With ``stop=True`` the page stops there (nothing below can be computed);
    with ``stop=False`` the rest of the page goes on (e.g. after a bad upload).
    """
    try:
        yield
    except OverflowError:  # a link or a pin with inf, or a number too large for the engines
        st.error(f"**{md_escape(what)}.** A value in the link is out of range (infinite or too large).")
        if stop:
            st.stop()
    except ValueError as err:
        text = str(err)
        if text.startswith(("could not convert string to float", "invalid literal for int()")):
            # a value from a link or a pin that is not a number (core's own messages name their parameter)
            text = "A value in the link is not a number (" + text.rsplit(":", 1)[-1].strip()[:60] + ")."
        st.error(f"**{md_escape(what)}.** {safe_message(text)}")
        if stop:
            st.stop()


@dataclass(frozen=True)
class Metric:
    """One metric of the metrics row."""

    label: str
    value: str
    help: str | None = None
    se: str | None = None
    caption: str | None = None


def metrics_row(*items: Metric, container=None) -> list:
    """The metrics row; a Monte Carlo standard error goes on its own line under the value.

    Each metric is as wide as its label and value and the row wraps onto a
    second line when they do not fit: equal columns cut values short with an
    ellipsis ("5.0…") on a 1024- or 1280-pixel projector in presentation mode.
    """
    boxes = _metric_boxes(len(items), container)
    for box, item in zip(boxes, items):
        box.metric(item.label, item.value, help=item.help)
        if item.se:
            box.caption(f"± {item.se} (Monte Carlo standard error)")
        if item.caption and not presentation():
            box.caption(item.caption)
    return boxes


def _metric_boxes(count: int, container=None) -> list:
    """``count`` boxes as wide as their content, in a row that wraps when they do not fit."""
    row = (container or st).container(horizontal=True, gap="medium")
    return [row.container(width="content", gap=None) for _ in range(count)]


def metric_slots(count: int, container=None) -> list:
    """``count`` placeholders laid out like :func:`metrics_row`, for metrics filled later in the run."""
    return [box.empty() for box in _metric_boxes(count, container)]


def verdict(power: float, target: float, *, effect: float, type_m: float | None = None, what: str = "") -> None:
    """Under- or adequately powered, in one sentence."""
    if effect == 0 or power is None or not math.isfinite(power):
        return
    if power < target:
        tail = (f" Significant results would overstate the difference by {fmt_ratio(type_m)} on average."
                if type_m is not None and math.isfinite(type_m) else "")
        st.warning(f"**Under-powered:** only {fmt_pct(power)} of experiments like this would find "
                   f"{what or 'the difference'}.{tail}")
    else:
        st.success(f"**Adequately powered** ({fmt_pct(power)} ≥ {target:.0%}).")


def sample_size_metric(sizes: SampleSize | None, target: float, *, unit: str, condition: str = "",
                       help: str = "", limit: int | None = None) -> Metric:
    """The 'sample size for the target power' metric: first n, and the conservative n when power zigzags.

    ``unit`` is what is counted, in the plural ("questions", "items", "sentences", "judgments", "votes"): the label
    reads "Questions for 80% power", so the number answers at a glance what to collect. ``condition`` is appended to
    the label (e.g. " (no worse)") to tell two such metrics on one page apart.
    """
    if not unit:
        raise ValueError("`unit` must name what is counted (e.g. 'questions'), got an empty string")
    label = f"{unit[0].upper()}{unit[1:]} for {target:.0%} power{condition}"
    if sizes is None:
        return Metric(label, "—", help=help or "Set a non-zero difference to size a study.")
    if sizes.first < 0:
        return Metric(label, f"> {limit:,}" if limit else "not reachable", help=help)
    caption = None
    if sizes.differ:
        stays = "not within the search range" if sizes.conservative < 0 else f"{sizes.conservative:,}"
        caption = (f"Power zigzags (exact test): it first reaches {target:.0%} at {sizes.first:,} but stays above "
                   f"it only from {stays}.")
    return Metric(label, f"{sizes.first:,}", help=(help + " " if help else "") +
                  "The first size whose power reaches the target; when power zigzags the caption gives the size "
                  "from which it stays above the target.", caption=caption)


def fmt_points(value: float, *, digits: int = 2, sign: bool = False) -> str:
    """A difference of proportions (accuracies, label rates, win rates) in points on the 0–100 scale: "4.07 pts".

    Every page spells points "pts" in its metrics, so a difference reads the same on every page.
    """
    if value is None or not math.isfinite(value):
        return "—"
    return f"{100 * value:{'+' if sign else ''}.{digits}f} pts"


def chart(fig, key: str | None, container=None) -> None:
    """A Plotly chart at full width with the shared (offline) config.

    ``key=None`` for a provisional chart that is redrawn later in the same run
    (a key may appear only once per run).
    """
    # In presentation mode the figure's own large fonts are used as they are (Streamlit's chart theme would
    # replace them with its small defaults).
    (container or st).plotly_chart(fig, key=key, width="stretch",
                                   config=PRESENTATION_CHART_CONFIG if presentation() else CHART_CONFIG,
                                   theme=None if presentation() else "streamlit")


def short_table(frame: pd.DataFrame, *, labels: Mapping[str, str] | None = None,
                formats: Mapping[str, str] | None = None) -> None:
    """A short read-only table (a handful of rows) as a static table, its index hidden.

    ``st.dataframe`` draws a canvas data grid whose ≈ 1.7 MB module the browser loads, compiles and lays out on a
    page's first visit before the charts below it appear (Analyze, with four such tables: ≈ 0.5 s of its first
    visit). A static table shows every row without a scroll box, on a projector too. Its cells render Markdown, so
    text cells are escaped (:func:`pages._text.md_escape`) and show as typed. ``formats``: Python format
    strings by column (``"{:.4f}"``); booleans read yes/no; missing numbers "—", infinite ones ∞ (a one-sided
    interval's open end); then the columns are relabelled.
    """
    shown = frame.copy()
    for column in shown.columns:
        if column not in (formats or {}) and (shown[column].dtype == object
                                               or pd.api.types.is_string_dtype(shown[column].dtype)):
            # st.table renders Markdown in its cells: text from data (system and benchmark names, file labels)
            # is escaped to show as typed
            shown[column] = [md_escape(x) if isinstance(x, str) else x for x in shown[column]]
        elif shown[column].dtype == bool:
            shown[column] = shown[column].map({True: "yes", False: "no"})
        elif column in (formats or {}):
            spec = formats[column]
            shown[column] = [("—" if math.isnan(x) else "∞" if x == math.inf else "−∞" if x == -math.inf else
                              spec.format(x)) if isinstance(x, float) else spec.format(x) for x in shown[column]]
    st.table(shown.rename(columns=dict(labels or {})), hide_index=True)


class Views:
    """The page's views: a switcher whose choice is in the URL; only the chosen view's content is computed and
    sent. Content that a hidden view keeps (an uploader's file) goes to a container that is never shown."""

    def __init__(self, labels: Mapping[str, str], choice: str, key: str, own: tuple[str, ...] = ()):
        self._labels = dict(labels)
        self._chosen = next((k for k, v in self._labels.items() if v == choice), next(iter(self._labels)))
        # a view with a design of its own is marked (the presentation styles hide the key inputs and headline above it)
        self._box = st.container(key=OWN_VIEW_KEY if self._chosen in own else None)
        self._hidden = None
        self._key = key

    def open(self, key: str) -> bool:
        """True when the view ``key`` is the one shown (its content must be rendered)."""
        if key not in self._labels:
            raise KeyError(key)
        return key == self._chosen

    def __getitem__(self, key: str):
        if self.open(key):
            return self._box
        if self._hidden is None:
            self._hidden = st.container(key=f"views_hidden_{self._key}")
        return self._hidden

    @property
    def current(self) -> str:
        """Key of the open view."""
        return self._chosen


#: The key of the box of an open view that plans a design of its own (see :func:`views`).
OWN_VIEW_KEY = "view_own_design"


def views(labels: Mapping[str, str], *, key: str = "view", own: tuple[str, ...] = ()) -> Views:
    """The page's views (``?view=…`` in the URL); hidden views' content is never computed.

    ``own``: the views that plan a design of their own from their own inputs and read none of the page's key inputs
    (the LLM page's prompts-and-seeds and subset views). Their box is marked (:data:`OWN_VIEW_KEY`); in presentation
    mode the key inputs above the switcher then step aside with the headline they drive (the page's headline steps
    aside for every view with a metrics row of its own: the frame's presentation styles): on a projector the view's
    inputs, numbers and first chart fit one screen, and the audience is not shown sliders that change nothing below.
    """
    names = list(labels.values())
    unknown = set(own) - set(labels)
    if unknown:
        raise KeyError(sorted(unknown))
    choice = st.segmented_control("View", names, default=names[0], required=True, key=key, bind="query-params",
                                  label_visibility="collapsed")
    return Views(labels, choice, key, tuple(own))


def explain(text: str) -> None:
    """The "explain this page in plain language" expander."""
    # filled only when open: a collapsed expander still sends its text, which the browser lays out on every move
    with st.expander("Explain this page in plain language", key="explain_open", on_change="rerun") as box:
        if box.open:
            st.markdown(text)


def download_csv(frame: pd.DataFrame | Mapping[str, pd.DataFrame], file_name: str, *, key: str,
                 label: str = "Download the plotted data (CSV)", help: str | None = None,
                 column: str = "chart", container=None) -> None:
    """A CSV download of tidy data; several frames are stacked with a ``chart`` column naming each.

    A frame may be a function of no arguments returning it: columns the charts do not draw (a Type-M column beside a
    power chart) are then computed only when the button is clicked. Text cells are neutralized so a spreadsheet never
    evaluates them as formulas (:mod:`core.export`).
    """
    frames = dict(frame) if isinstance(frame, Mapping) else frame  # what is plotted now, not what a caller adds later

    def table() -> pd.DataFrame:
        if not isinstance(frames, dict):
            return frames() if callable(frames) else frames
        shown = {name: f() if callable(f) else f for name, f in frames.items()}
        parts = [f.assign(**{column: name}) for name, f in shown.items() if f is not None and len(f)]
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()

    # Deferred: the frames are stacked and the CSV written when the button is clicked, not in every rerun (≈ 10–20 ms
    # of a slider move).
    (container or st).download_button(label, lambda: csv_bytes(table()), file_name=file_name, mime="text/csv", key=key,
                                      help=help or "Tidy table of every point in the charts shown.",
                                      on_click="ignore")


def fmt_money(value, currency: str, *, markdown: bool = True) -> str:
    """An amount with its currency label; for Markdown (metrics, captions, messages) unless ``markdown=False``
    (plan documents and charts), where a "$" needs no escape (in Markdown two of them would start LaTeX)."""
    if value is None or not math.isfinite(value):
        return "—"
    label = currency_label(currency)
    return f"{md_escape(label) if markdown else label} {value:,.2f}".strip()

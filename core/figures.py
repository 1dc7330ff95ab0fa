"""Plotly figure builders shared by every page (one layout, one palette).

Every power chart draws the conventional 80% power line (Cohen 1962; Card et
al. 2020 Figure 3), a marker at the current design and hover values, so the
pages stay thin: they pick a builder and pass tidy data.

Speed. Building a ``plotly.graph_objects.Figure`` the usual way validates
every property and deep-copies the template: ≈ 30 ms per chart, most of a
slider move's server time. The builders here assemble plain dictionaries —
traces, shapes, annotations and a template resolved once — and wrap them with
validation switched off (``go.Figure(spec, _validate=False)``), ≈ 1 ms per
chart. ``tests/test_figures.py`` validates the output of every builder with
the full schema, so nothing invalid reaches the browser.

Styles. :data:`STYLE` is the normal look; :data:`PRESENTATION` enlarges
fonts, thickens lines and fixes the height to fit a 1280 × 720 projector
(lab-meeting mode). Both break long titles onto more lines (:func:`narrow`
for charts that share the page's width), so none runs off its chart.
Colours are the colour-blind-safe Okabe–Ito palette; legends sit below the
plot so they never cover data.
"""

from __future__ import annotations

import html

import math
import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "PALETTE",
    "Style",
    "STYLE",
    "PRESENTATION",
    "Line",
    "figure",
    "log_ticks",
    "curve_figure",
    "type_m_figure",
    "bar_figure",
    "histogram_figure",
    "scatter_figure",
    "density_figure",
    "heatmap_figure",
    "difference_distribution_figure",
    "leaderboard_figure",
    "mde_table_figure",
    "interval_figure",
    "with_style",
    "panels",
    "narrow",
    "wrap_text",
    "plotly_text",
    "replay_figure",
    "monitor_figure",
    "paths_figure",
]

#: Colour-blind-safe palette (Okabe & Ito 2008).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
_DASHES = ("solid", "dash", "dot", "dashdot")
_GREY = "#555555"
TYPE_M_TICKS = (1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 200)


@dataclass(frozen=True)
class Style:
    """Sizes shared by every chart."""

    font_size: int = 14
    title_size: int = 16
    line_width: float = 2.5
    marker_size: int = 15
    height: int = 460
    annotation_size: int = 13
    legend_right: bool = False
    #: Longest title line (characters) before it is broken at a space; ``None``: never broken.
    title_chars: int | None = None
    #: Longest x-axis title line (characters); ``None``: never broken.
    axis_title_chars: int | None = None
    #: Longest y-axis title line (characters, along the axis); ``None``: never broken.
    y_title_chars: int | None = None


#: The normal look. Titles break after 72 characters (a full-width chart in a 1024-pixel window holds ≈ 75 at
#: 16 px), and sooner in charts that share the width (:func:`narrow`).
STYLE = Style(title_chars=72, axis_title_chars=70)
#: Lab-meeting mode: large fonts and lines; the whole first chart fits a 1280 × 720 screen under the title, the key
#: inputs, the metrics, the verdict and a tab bar of two lines (310 px). At these fonts (≈ 11 px a character) a full-width chart
#: on that screen (≈ 820 px) holds ≈ 70 characters of title.
PRESENTATION = Style(font_size=18, title_size=21, line_width=4.5, marker_size=20, height=310, annotation_size=16,
                     legend_right=True, title_chars=64, axis_title_chars=60, y_title_chars=28)


@dataclass(frozen=True)
class Line:
    """A dashed reference line at ``x`` (vertical) or ``y`` (horizontal), with a label."""

    x: float | None = None
    y: float | None = None
    text: str = ""
    color: str = _GREY
    dash: str = "dash"


# ---------------------------------------------------------------------------
# the low-level pieces
# ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _template() -> dict:
    """The ``plotly_white`` template as a plain dict (resolved once per process)."""
    import plotly.io as pio

    return pio.templates["plotly_white"].to_plotly_json()


def _array(values) -> np.ndarray | list:
    """Numbers as a float array (sent base64-encoded); anything else as a list."""
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy()
    arr = np.asarray(values)
    if arr.dtype.kind in "biuf":
        return arr.astype(float)
    if arr.dtype.kind == "M":
        return [pd.Timestamp(v).isoformat() for v in arr]
    return [v.item() if isinstance(v, np.generic) else v for v in arr.tolist()]


def _axis(title: str, *, log: bool = False, rng=None, ticks: Sequence[float] | None = None,
          tick_text: Sequence[str] | None = None, **extra) -> dict:
    axis = {"title": {"text": title}, **extra}
    if log:
        axis["type"] = "log"
    if rng is not None:
        axis["range"] = [math.log10(v) for v in rng] if log else list(rng)
    if ticks is not None:
        axis["tickvals"] = list(ticks)
        axis["ticktext"] = list(tick_text) if tick_text is not None else [str(t) for t in ticks]
    return axis


#: Slots for a horizontal line's label, in order of preference: (side, which side of the line).
_LABEL_SLOTS = (("right", "bottom"), ("left", "bottom"), ("right", "top"), ("left", "top"))


def _label_slots(ys: Sequence[float], *, span: Sequence[float] | None, plot_px: float,
                 label_px: float) -> list[tuple[str, str]]:
    """Where each horizontal line's label goes so that none covers another: ``ys`` in axis units, ``span`` the
    axis range (``None``: unknown, every label keeps the first slot).

    Labels are placed from the last to the first (the figures append the target line last, so it keeps its
    usual place, above the line at the right); each takes the first of :data:`_LABEL_SLOTS` whose box, ``label_px``
    high, overlaps no label already placed on the same side. A label with no free slot keeps the first.
    """
    slots = [_LABEL_SLOTS[0]] * len(ys)
    if span is None or not (len(span) == 2 and _finite(*span)) or span[1] <= span[0] or len(ys) < 2:
        return slots
    placed: list[tuple[str, float, float]] = []
    for i in reversed(range(len(ys))):
        y_px = (ys[i] - span[0]) / (span[1] - span[0]) * plot_px
        for side, where in _LABEL_SLOTS:
            lo, hi = (y_px, y_px + label_px) if where == "bottom" else (y_px - label_px, y_px)
            if where == "top" and lo < 0:  # under the x axis
                continue
            if not any(s == side and lo < h and l < hi for s, l, h in placed):
                slots[i] = (side, where)
                break
        side, where = slots[i]
        placed.append((side, *((y_px, y_px + label_px) if where == "bottom" else (y_px - label_px, y_px))))
    return slots


def _lines(lines: Iterable[Line], *, log_x: bool, log_y: bool, style: Style, y_span: Sequence[float] | None = None,
           plot_px: float = 210.0) -> tuple[list, list]:
    """Shapes and annotations for reference lines (annotations on log axes take log10 positions).

    Labels of horizontal lines close together are spread over the line's two ends and sides
    (:func:`_label_slots`) when the y axis's range ``y_span`` (axis units) and the plot's height in pixels are
    known; otherwise each sits above its line at the right.
    """
    lines = list(lines)
    shapes, notes = [], []
    flat = [ln for ln in lines if ln.y is not None and ln.text and math.isfinite(ln.y) and not (log_y and ln.y <= 0)]
    slots = dict(zip(map(id, flat), _label_slots([math.log10(ln.y) if log_y else ln.y for ln in flat], span=y_span,
                                                 plot_px=plot_px, label_px=1.4 * style.annotation_size + 4)))
    for ln in lines:
        line = {"color": ln.color, "dash": ln.dash, "width": 1.5}
        if ln.x is not None and math.isfinite(ln.x) and not (log_x and ln.x <= 0):
            shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": ln.x, "x1": ln.x, "y0": 0, "y1": 1,
                           "line": line, "layer": "above"})
            if ln.text:
                notes.append({"x": math.log10(ln.x) if log_x else ln.x, "y": 1.0, "yref": "paper", "xref": "x",
                              "text": ln.text, "showarrow": False, "xanchor": "left", "yanchor": "top", "xshift": 4,
                              "font": {"color": ln.color, "size": style.annotation_size},
                              "bgcolor": "rgba(255,255,255,0.85)"})
        if ln.y is not None and math.isfinite(ln.y) and not (log_y and ln.y <= 0):
            shapes.append({"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": ln.y, "y1": ln.y,
                           "line": line, "layer": "above"})
            if ln.text:
                side, where = slots[id(ln)]
                notes.append({"x": 1.0 if side == "right" else 0.0, "xref": "paper",
                              "y": math.log10(ln.y) if log_y else ln.y, "yref": "y",
                              "text": ln.text, "showarrow": False, "xanchor": side, "yanchor": where,
                              "font": {"color": ln.color, "size": style.annotation_size},
                              "bgcolor": "rgba(255,255,255,0.85)"})
    return shapes, notes


def wrap_text(text: str, width: int | None) -> tuple[str, int]:
    """``text`` broken at spaces into lines of at most ``width`` characters (joined by ``<br>``), and its line count.

    Text that already has line breaks, fits, or carries markup with attributes
    (which a break could split) is returned as it is.
    """
    if not text:
        return text, 0
    if not width or len(text) <= width or "<br>" in text or re.search(r"<[^>]*\s[^>]*>", text):
        return text, text.count("<br>") + 1
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    return "<br>".join(lines), len(lines)


def narrow(style: Style, share: float) -> Style:
    """``style`` for a chart that takes ``share`` of the page width (0.5: two side by side).

    Its title breaks after ``share`` of the characters. Its x-axis title is
    centred on the plot, which loses a fixed width to the axis and, in
    lab-meeting mode, to the legend at its right, so that title breaks sooner
    still (a half-width chart on a 1280-pixel screen: a plot ≈ 140 px wide,
    ≈ 25 characters of axis title).
    """
    if not 0 < share <= 1:
        raise ValueError(f"`share` must be in (0, 1], got {share!r}.")
    if share == 1:
        return style

    def shorter(chars: int | None, cut: int) -> int | None:
        return None if chars is None else max(12, int(chars * share) - cut)

    return replace(style, title_chars=shorter(style.title_chars, 0),
                   axis_title_chars=shorter(style.axis_title_chars, 8))


def _wrap_axis_title(axis: dict, width: int | None) -> tuple[dict, int]:
    """``axis`` with its title broken into lines of at most ``width`` characters, and the line count."""
    text = (axis.get("title") or {}).get("text", "")
    wrapped, lines = wrap_text(text, width)
    if wrapped == text:
        return axis, lines
    return {**axis, "title": {**axis["title"], "text": wrapped}}, lines


def _title_room(style: Style, lines: int) -> int:
    """Pixels a title of ``lines`` lines needs above the default 60-pixel top margin. Plotly sets the lines of a
    title 1.3 font sizes apart, the first in the middle of the top margin: the margin must reach below the last
    line (half a font size) with a little room to spare."""
    if lines <= 1:
        return 0
    below_first = round(1.3 * style.title_size) * (lines - 1) + style.title_size / 2 + 8
    return max(0, round(2 * below_first) - 60)


def _layout(style: Style, *, title: str, x_axis: dict, y_axis: dict, lines: Iterable[Line] = (),
            legend: bool = True, **extra) -> dict:
    title, title_lines = wrap_text(title, style.title_chars)
    x_axis, x_lines = _wrap_axis_title(x_axis, style.axis_title_chars)
    y_axis, y_lines = _wrap_axis_title(y_axis, style.y_title_chars)
    extra_top = _title_room(style, title_lines)
    extra_bottom = round(1.3 * style.font_size) * max(x_lines - 1, 0)
    extra_left = round(1.3 * style.font_size) * max(y_lines - 1, 0)
    plot_height = max(style.height - 100 - extra_top - extra_bottom, 100)
    shapes, notes = _lines(lines, log_x=x_axis.get("type") == "log", log_y=y_axis.get("type") == "log",
                           style=style, y_span=y_axis.get("range"), plot_px=plot_height)
    layout = {
        "template": _template(),
        "title": {"text": title, "font": {"size": style.title_size}},
        "font": {"size": style.font_size},
        "height": style.height,  # the plot gives up the room, so charts side by side stay the same height
        "margin": {"l": 70 + extra_left, "r": 20, "t": 60 + extra_top, "b": 40 + extra_bottom},
        "hovermode": "closest",
        "showlegend": legend,
        "legend": ({"orientation": "v", "yanchor": "top", "y": 1.0, "xanchor": "left", "x": 1.02}
                   if style.legend_right else {"orientation": "h", "yanchor": "top", "xanchor": "left", "x": 0,
                                               # below the x-axis title, however many lines it has
                                               "y": -0.2 - extra_bottom / plot_height}),
        "xaxis": x_axis,
        "yaxis": y_axis,
        "shapes": shapes + list(extra.pop("shapes", [])),
        "annotations": notes + list(extra.pop("annotations", [])),
    }
    layout.update(extra)
    return layout


#: Height of one entry of a vertical legend, in font sizes, and the legend's own padding in pixels (measured in
#: Chromium at 18 px: five entries take 142 px, seven 190 px).
LEGEND_ROW = 1.4
LEGEND_PAD = 20
#: The smallest legend font a right-hand legend is shrunk to so that all its entries show.
LEGEND_MIN_FONT = 11


def legend_entries(traces: Sequence[dict]) -> int:
    """How many entries Plotly's legend shows for ``traces`` (one per trace that is not hidden from it)."""
    return sum(1 for t in traces if t.get("showlegend", True) is not False and t.get("name", "") != "")


#: The narrowest plot a chart is drawn in (a full-width chart on a 1024-pixel projector, beside its legend), and
#: a character's width in font sizes: category labels wider than that share are tilted by Plotly (30°).
NARROWEST_PLOT = 600
CHAR_WIDTH = 0.55


def _tilted_labels(traces: Sequence[dict], size: float) -> float:
    """Extra height, in pixels, that tilted category labels take under the plot: Plotly turns them 30° when the
    longest times the count is wider than the plot (:data:`NARROWEST_PLOT`), which lifts the plot by half the
    longest label's width."""
    longest = count = 0
    for t in traces:
        x = t.get("x")
        if isinstance(x, (list, tuple)) and x and all(isinstance(v, str) for v in x):
            longest, count = max(longest, max(len(v) for v in x)), max(count, len(x))
    width = longest * CHAR_WIDTH * size
    return 0.5 * width if width * count > NARROWEST_PLOT else 0.0


def fit_legend(layout: dict, entries: int, *, tilted: float = 0.0) -> dict:
    """``layout`` with a right-hand legend's font shrunk so that ``entries`` rows fit beside the plot.

    Plotly gives a vertical legend no more height than the plot area and scrolls the rest: in lab-meeting mode
    (18-px fonts, a 310-px chart) the last of eight entries — the current-design marker — was scrolled out of
    sight. The plot area is the figure's height less its top and bottom margins and the x axis's tick labels
    and title (two font sizes, which Plotly's automatic margins add); the font is the largest at most the
    chart's own for which ``entries`` rows of :data:`LEGEND_ROW` font sizes and :data:`LEGEND_PAD` fit, and
    never below :data:`LEGEND_MIN_FONT` (where Plotly's scroll bar takes over). ``tilted``: the height tilted
    category labels add (:func:`_tilted_labels`). Other legends are returned as they are.
    """
    legend = layout.get("legend") or {}
    if not layout.get("showlegend", True) or legend.get("orientation") != "v" or entries <= 0:
        return layout
    margin = layout.get("margin") or {}
    size = (layout.get("font") or {}).get("size", 12)
    plot_height = layout.get("height", 450) - margin.get("t", 100) - margin.get("b", 80) - 2 * size - tilted
    fits = int((plot_height - LEGEND_PAD) / (LEGEND_ROW * entries))
    if fits >= size:
        return layout
    return {**layout, "legend": {**legend, "font": {"size": max(LEGEND_MIN_FONT, fits)}}}


#: The labelled mantissas of a log axis by the decades its data span: 1-2-5 up to three and a half decades, 1-3 up
#: to six, decades beyond (the larger fonts of lab-meeting mode take one step fewer).
_LOG_MANTISSAS = ((3.5, (1, 2, 5)), (6.0, (1, 3)), (math.inf, (1,)))


def _tick_label(value: float) -> str:
    """A log axis's tick label: ``20``, ``5,000``, ``20k``, ``1M``, ``0.05``."""
    if value >= 1e6:
        return f"{value / 1e6:g}M"
    if value >= 1e4:
        return f"{value / 1e3:g}k"
    if value >= 1:
        return f"{value:,.0f}"
    return f"{value:g}"


def log_ticks(low: float, high: float, *, font_size: float = 14) -> tuple[list[float], list[str]] | None:
    """Tick values and labels for a log axis whose data span ``[low, high]`` (both > 0).

    Plotly labels a log axis of a few decades with every digit (``2 3 4 … 9``
    in small type between the decades): hard to read on a projector, and each
    label is a text measurement on every redraw, ≈ 20 ms of a chart's 45 ms
    in Chromium. Round 1-2-5 values read at a glance and draw in half the
    time. The ticks reach a decade beyond the data, so an axis padded by
    Plotly's autorange or by a reference line is labelled to its ends (values
    outside the axis are not drawn). ``None`` under one decade: Plotly then
    labels a few round values itself.
    """
    if not (math.isfinite(low) and math.isfinite(high)) or low <= 0 or high <= 0:
        return None
    span = math.log10(high / low)
    if span < 1:
        return None
    steps = [m for limit, m in _LOG_MANTISSAS]
    step = next(i for i, (limit, _) in enumerate(_LOG_MANTISSAS) if span <= limit)
    mantissas = steps[min(step + (font_size >= 18), len(steps) - 1)]
    decades = range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 2)
    values = [float(f"{m * 10.0 ** e:.12g}") for e in decades for m in mantissas]
    values = [v for v in values if low / 10 <= v <= high * 10]
    return values, [_tick_label(v) for v in values]


def _data_extent(traces: Sequence[dict], layout: dict, letter: str) -> tuple[float, float]:
    """The smallest and largest positive finite values plotted on the main ``letter`` ("x"/"y") axis."""
    found = []
    for trace in traces:
        if trace.get(f"{letter}axis", letter) != letter or trace.get(letter) is None:
            continue
        try:
            values = np.asarray(trace[letter], dtype=float).ravel()
        except (TypeError, ValueError):
            continue
        found.append(values)
    for shape in layout.get("shapes") or ():
        if shape.get(f"{letter}ref") == letter:
            found.append(np.asarray([shape.get(f"{letter}0", np.nan), shape.get(f"{letter}1", np.nan)], dtype=float))
    values = np.concatenate(found) if found else np.zeros(0)
    values = values[np.isfinite(values) & (values > 0)]
    return (float(values.min()), float(values.max())) if values.size else (math.nan, math.nan)


def _with_log_ticks(traces: Sequence[dict], layout: dict) -> dict:
    """``layout`` with round tick labels (:func:`log_ticks`) on its main log axes that set none of their own."""
    size = (layout.get("font") or {}).get("size", 14)
    for letter in ("x", "y"):
        axis = layout.get(f"{letter}axis") or {}
        if axis.get("type") != "log" or any(k in axis for k in ("tickvals", "dtick", "tickmode")):
            continue
        rng = axis.get("range")
        low, high = (10.0 ** rng[0], 10.0 ** rng[1]) if rng else _data_extent(traces, layout, letter)
        ticks = log_ticks(min(low, high), max(low, high), font_size=size)
        if ticks is not None:
            layout = {**layout, f"{letter}axis": {**axis, "tickvals": ticks[0], "ticktext": ticks[1]}}
    return layout


def _trimmed_template(traces: Sequence[dict], layout: dict) -> dict:
    """``layout`` whose template keeps the trace defaults of the trace types drawn only (the full template's
    other 23 types are 8 kB sent and read on every redraw)."""
    template = layout.get("template")
    if not isinstance(template, dict) or "data" not in template:
        return layout
    kinds = {trace.get("type", "scatter") for trace in traces}
    data = {kind: defaults for kind, defaults in template["data"].items() if kind in kinds}
    return {**layout, "template": {**template, "data": data}}


def figure(traces: list[dict], layout: dict) -> go.Figure:
    """A figure from plain trace and layout dictionaries, without per-property validation; a right-hand legend is
    fitted to the plot's height (:func:`fit_legend`), log axes get round tick labels (:func:`log_ticks`) and the
    template keeps the defaults of the drawn trace types only."""
    size = (layout.get("font") or {}).get("size", 12)
    layout = fit_legend(layout, legend_entries(traces), tilted=_tilted_labels(traces, size))
    layout = _trimmed_template(traces, _with_log_ticks(traces, layout))
    return go.Figure({"data": traces, "layout": layout}, _validate=False)


def plotly_text(text) -> str:
    """Text from data (system names, pin names, uploaded labels) made inert inside a chart.

    Plotly renders a subset of HTML in every label, legend entry, tick and hover text — ``<a href>`` becomes a
    clickable link, ``<br>`` a line break — and decodes entities (``&lt;`` shows as ``<``), so escaping ``&``,
    ``<`` and ``>`` shows the text as typed. A hover template would also read ``%{…}`` as a field: its ``%``
    is followed by a zero-width joiner so the text shows as typed. The figure builders apply it to every label that
    comes from data; titles, axis titles and :class:`Line` texts are the page's own (they may contain ``<br>``), so a
    page escapes any user text it puts there.
    """
    return html.escape(str(text), quote=False).replace("%{", "%\u200d{")


def _current_marker(x, y, *, x_title, y_title, hover_format, x_hover_format, style, name="current design"):
    return {
        "type": "scatter", "x": [x], "y": [y], "mode": "markers", "name": name,
        "marker": {"size": style.marker_size, "color": "#000000", "symbol": "diamond",
                   "line": {"color": "white", "width": 2}},
        "hovertemplate": f"{name}<br>{x_title}: %{{x:{x_hover_format}}}<br>{y_title}: %{{y:{hover_format}}}"
                         "<extra></extra>",
    }


def _groups(column: pd.Series) -> tuple[np.ndarray, list]:
    """Each row's group number and the groups' values in order of first appearance (as ``dict.fromkeys``); rows
    with a missing value get −1 and no group (a missing label never matched a series)."""
    codes, uniques = pd.factorize(column)
    return codes, list(uniques)


def _ascending(values: np.ndarray) -> np.ndarray:
    """The order ``Series.sort_values()`` gives: ascending by quicksort, missing values last."""
    if values.dtype.kind not in "biuf":
        return np.asarray(pd.Series(values).sort_values().index)
    missing = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.size, bool)
    present = np.flatnonzero(~missing)
    return np.concatenate([present[np.argsort(values[present], kind="quicksort")], np.flatnonzero(missing)])


def _finite(*values) -> bool:
    return all(v is not None and isinstance(v, (int, float, np.number)) and math.isfinite(float(v)) for v in values)


# ---------------------------------------------------------------------------
# curves
# ---------------------------------------------------------------------------
def curve_figure(
    data: pd.DataFrame,
    *,
    x: str,
    y: str,
    color: str,
    dash: str | None = None,
    current: tuple[float, float] | None = None,
    target: float | None = 0.8,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    log_x: bool = True,
    log_y: bool = False,
    y_range: Sequence[float] | None = None,
    x_range: Sequence[float] | None = None,
    color_format: str = "{}",
    dash_format: str = "{}",
    hover_format: str = ".3f",
    x_hover_format: str = ",",
    points: pd.DataFrame | None = None,
    lines: Iterable[Line] = (),
    pins: pd.DataFrame | None = None,
    y_ticks: Sequence[float] | None = None,
    y_tick_text: Sequence[str] | None = None,
    mode: str = "lines",
    style: Style = STYLE,
) -> go.Figure:
    """A family of curves ``y`` vs ``x``, one per value of ``color`` (× ``dash``).

    Parameters
    ----------
    data : DataFrame
        Tidy data with columns ``x``, ``y``, ``color`` (and ``dash``).
    current : (x, y), optional
        The current design, drawn as a large diamond.
    target : float, optional
        Horizontal target-power line; None to omit.
    points : DataFrame, optional
        Simulated points with columns ``x``, ``y``, ``se`` and ``name``, drawn
        as squares with ± 2 standard-error bars.
    lines : iterable of Line
        Further reference lines.
    pins : DataFrame, optional
        Pinned designs (columns ``x``, ``y``, ``pin``), drawn as grey dashed
        curves for comparison.
    color_format, dash_format : str
        ``str.format`` patterns for legend labels.
    """
    traces = []
    hover_x = x_title or x
    hover_y = y_title or y
    # one pass over the columns (pandas' boolean selection and sort per series cost ≈ 1 ms each, on every rerun)
    color_codes, color_values = _groups(data[color]) if len(data) else (np.zeros(0, int), [])
    dash_codes, dash_values = _groups(data[dash]) if dash else (np.zeros(len(data), int), [None])
    xs, ys = data[x].to_numpy(), data[y].to_numpy()
    for ci, cval in enumerate(color_values):
        for di, dval in enumerate(dash_values):
            rows = np.flatnonzero((color_codes == ci) & (dash_codes == di))
            if not rows.size:
                continue
            rows = rows[_ascending(xs[rows])]
            label = color_format.format(plotly_text(cval))
            if dash and len(dash_values) > 1:
                label += ", " + dash_format.format(plotly_text(dval))
            traces.append({
                "type": "scatter", "x": _array(xs[rows]), "y": _array(ys[rows]), "mode": mode, "name": label,
                "line": {"color": PALETTE[ci % len(PALETTE)], "dash": _DASHES[di % len(_DASHES)],
                         "width": style.line_width},
                "marker": {"size": max(6, style.marker_size // 2), "color": PALETTE[ci % len(PALETTE)]},
                "hovertemplate": f"{label}<br>{hover_x}: %{{x:{x_hover_format}}}<br>{hover_y}: "
                                 f"%{{y:{hover_format}}}<extra></extra>",
            })
    if pins is not None and len(pins):
        for pi, (name, part) in enumerate(pins.groupby("pin", sort=False)):
            name = plotly_text(name)
            part = part.sort_values("x")
            traces.append({
                "type": "scatter", "x": _array(part["x"]), "y": _array(part["y"]), "mode": "lines",
                "name": f"pinned: {name}",
                "line": {"color": ("#777777", "#AAAAAA", "#444444")[pi % 3], "dash": "dash",
                         "width": style.line_width * 0.8},
                "hovertemplate": f"pinned: {name}<br>{hover_x}: %{{x:{x_hover_format}}}<br>{hover_y}: "
                                 f"%{{y:{hover_format}}}<extra></extra>",
            })
    if points is not None and len(points):
        for name, part in points.groupby("name", sort=False):
            name = plotly_text(name)
            traces.append({
                "type": "scatter", "x": _array(part["x"]), "y": _array(part["y"]), "mode": "markers",
                "name": str(name),
                "marker": {"size": max(9, style.marker_size - 4), "color": PALETTE[3], "symbol": "square"},
                "error_y": {"type": "data", "array": _array(2 * part["se"]), "visible": True},
                "hovertemplate": f"{name}<br>{hover_x}: %{{x:{x_hover_format}}}<br>{hover_y}: %{{y:{hover_format}}}"
                                 "<extra>simulated ± 2 SE</extra>",
            })
    if current is not None and _finite(*current) and not (log_x and current[0] <= 0):
        traces.append(_current_marker(current[0], current[1], x_title=hover_x, y_title=hover_y,
                                      hover_format=hover_format, x_hover_format=x_hover_format, style=style))
    refs = list(lines)
    if target is not None:
        refs.append(Line(y=target, text=f"{target:.0%} power"))
    layout = _layout(
        style, title=title,
        x_axis=_axis(x_title, log=log_x, rng=x_range),
        y_axis=_axis(y_title, log=log_y, rng=y_range, ticks=y_ticks, tick_text=y_tick_text),
        lines=refs,
    )
    return figure(traces, layout)


def type_m_figure(data: pd.DataFrame, *, x: str, color: str, current: tuple[float, float] | None = None,
                  needed: float | None = None, needed_text: str = "", title: str = "Type-M error (exaggeration)",
                  x_title: str = "", dash: str | None = None, log_x: bool = True, pins=None,
                  style: Style = STYLE, **kwargs) -> go.Figure:
    """Exaggeration ratio vs ``x`` on a log axis with readable ticks and a 'no exaggeration' line.

    ``needed`` draws a vertical line where the current design reaches the
    target power (Card et al. Figure 7).
    """
    frame = data[np.isfinite(data["type_m"].to_numpy(float))] if len(data) else data
    top = float(frame["type_m"].max()) if len(frame) else 2.0
    ticks = [t for t in TYPE_M_TICKS if t <= max(top * 1.5, 2)]
    lines = [Line(y=1.0, text="no exaggeration")]
    if needed is not None and _finite(needed) and needed > 0:
        lines.append(Line(x=needed, text=needed_text))
    return curve_figure(frame, x=x, y="type_m", color=color, dash=dash, current=current, target=None, title=title,
                        x_title=x_title, y_title="Exaggeration ratio", log_x=log_x, log_y=True,
                        hover_format=".2f", lines=lines, y_ticks=ticks,
                        y_tick_text=[f"{t:g}×" for t in ticks], pins=pins, style=style, **kwargs)


# ---------------------------------------------------------------------------
# bars, histograms, scatters, densities, heatmaps
# ---------------------------------------------------------------------------
def bar_figure(categories: Sequence, series: Mapping[str, Sequence[float]], *, errors: Mapping | None = None,
               title: str = "", x_title: str = "", y_title: str = "", barmode: str = "group",
               lines: Iterable[Line] = (), hover_format: str = ".3f", colors: Sequence[str] | None = None,
               log_y: bool = False, y_range=None, current: tuple | None = None, style: Style = STYLE) -> go.Figure:
    """Grouped or stacked bars: one trace per entry of ``series`` over ``categories``.

    ``errors`` maps a series name to the half-widths of its error bars;
    ``current`` = (category, height) marks the current design with a diamond.
    """
    cats = [plotly_text(c) for c in categories]
    traces = []
    for i, (key, values) in enumerate(series.items()):
        name = plotly_text(key)
        trace = {"type": "bar", "x": cats, "y": _array(values), "name": name,
                 "marker": {"color": (colors or PALETTE)[i % len(colors or PALETTE)]},
                 "hovertemplate": f"{name}<br>{x_title or 'x'}: %{{x}}<br>{y_title or 'y'}: %{{y:{hover_format}}}"
                                  "<extra></extra>"}
        if errors and key in errors:
            trace["error_y"] = {"type": "data", "array": _array(errors[key]), "visible": True}
        traces.append(trace)
    if current is not None and current[1] is not None:
        traces.append(_current_marker(plotly_text(current[0]), float(current[1]), x_title=x_title or "x",
                                      y_title=y_title or "y", hover_format=hover_format, x_hover_format="",
                                      style=style))
    layout = _layout(style, title=title, x_axis=_axis(x_title, type="category"),
                     y_axis=_axis(y_title, log=log_y, rng=y_range), lines=lines, barmode=barmode)
    return figure(traces, layout)


def histogram_figure(samples: Mapping[str, Sequence[float]], *, title: str = "", x_title: str = "",
                     y_title: str = "Count", nbins: int = 40, density: tuple | None = None,
                     lines: Iterable[Line] = (), normalize: bool = False, style: Style = STYLE) -> go.Figure:
    """Overlaid histograms (one per entry of ``samples``), optionally with a fitted density curve.

    ``density`` is ``(name, x, y)``; with it (or ``normalize``) the bars are
    probability densities.
    """
    traces = []
    for i, (name, values) in enumerate(samples.items()):
        name = plotly_text(name)
        trace = {"type": "histogram", "x": _array(values), "name": name, "nbinsx": nbins,
                 "marker": {"color": PALETTE[i % len(PALETTE)]}, "opacity": 0.65 if len(samples) > 1 else 1.0,
                 "hovertemplate": f"{name}<br>{x_title or 'x'}: %{{x}}<br>{y_title}: %{{y}}<extra></extra>"}
        if density is not None or normalize:
            trace["histnorm"] = "probability density"
        traces.append(trace)
    if density is not None:
        name, dx, dy = density
        traces.append({"type": "scatter", "x": _array(dx), "y": _array(dy), "mode": "lines", "name": name,
                       "line": {"color": PALETTE[1], "width": style.line_width + 0.5},
                       "hovertemplate": f"{name}<br>%{{x:.3f}}<br>density %{{y:.3f}}<extra></extra>"})
    layout = _layout(style, title=title, x_axis=_axis(x_title),
                     y_axis=_axis("Density" if density is not None or normalize else y_title), lines=lines,
                     barmode="overlay", legend=len(traces) > 1)
    return figure(traces, layout)


def scatter_figure(x, y, *, title: str = "", x_title: str = "", y_title: str = "", text=None,
                   color_values=None, color_title: str = "", colors=None, hover: str | None = None,
                   customdata=None, identity: bool = False, lines: Iterable[Line] = (), log_x: bool = False,
                   log_y: bool = False, name: str = "", current: tuple | None = None, x_range=None, y_range=None,
                   style: Style = STYLE) -> go.Figure:
    """Points ``(x, y)``; optionally coloured by a continuous value (with a colour bar), labelled, and with y = x."""
    marker = {"size": max(8, style.marker_size - 5), "color": PALETTE[0]}
    if color_values is not None:
        marker.update(color=_array(color_values), colorscale="Viridis", showscale=True,
                      colorbar={"title": {"text": color_title}})
    elif colors is not None:
        marker["color"] = list(colors)
    trace = {"type": "scatter", "x": _array(x), "y": _array(y), "mode": "markers+text" if text is not None else
             "markers", "marker": marker, "name": plotly_text(name) if name else "points",
             "hovertemplate": hover or f"{x_title}: %{{x:.3f}}<br>{y_title}: %{{y:.3f}}<extra></extra>"}
    if text is not None:
        trace.update(text=[plotly_text(t) for t in text], textposition="top center")
    if customdata is not None:
        trace["customdata"] = np.asarray(customdata).tolist() if np.asarray(customdata).dtype.kind not in "biuf" \
            else np.asarray(customdata, dtype=float)
    traces = [trace]
    if identity:
        both = np.concatenate([np.asarray(x, float), np.asarray(y, float)])
        both = both[np.isfinite(both)]
        lim = [float(both.min()), float(both.max())] if both.size else [0.0, 1.0]
        traces.append({"type": "scatter", "x": lim, "y": lim, "mode": "lines", "name": "y = x",
                       "line": {"color": _GREY, "dash": "dash", "width": 1.5}, "hoverinfo": "skip"})
    if current is not None and _finite(*current):
        traces.append(_current_marker(current[0], current[1], x_title=x_title, y_title=y_title, hover_format=".3f",
                                      x_hover_format=",.2f", style=style))
    layout = _layout(style, title=title, x_axis=_axis(x_title, log=log_x, rng=x_range),
                     y_axis=_axis(y_title, log=log_y, rng=y_range), lines=lines,
                     legend=identity or current is not None)
    return figure(traces, layout)


def density_figure(grid, density, *, interval: tuple[float, float] | None = None, interval_name: str = "",
                   band: tuple[float, float] | None = None, band_name: str = "", title: str = "",
                   x_title: str = "", lines: Iterable[Line] = (), style: Style = STYLE) -> go.Figure:
    """A density curve, its credible interval shaded, and an optional band (e.g. a ROPE)."""
    grid, density = np.asarray(grid, float), np.asarray(density, float)
    traces = [{"type": "scatter", "x": grid, "y": density, "mode": "lines", "name": "posterior",
               "line": {"color": PALETTE[0], "width": style.line_width + 0.5},
               "hovertemplate": f"{x_title or 'x'} %{{x:.4f}}<br>density %{{y:.2f}}<extra></extra>"}]
    if interval is not None:
        inside = (grid >= interval[0]) & (grid <= interval[1])
        traces.append({"type": "scatter", "x": grid[inside], "y": density[inside], "fill": "tozeroy", "mode": "none",
                       "name": interval_name, "fillcolor": "rgba(0,114,178,0.25)", "hoverinfo": "skip"})
    shapes, notes = [], []
    if band is not None:
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": band[0], "x1": band[1], "y0": 0, "y1": 1,
                       "fillcolor": "rgba(213,94,0,0.15)", "line": {"width": 0}, "layer": "below"})
        notes.append({"x": band[0], "xref": "x", "y": 1.0, "yref": "paper", "text": band_name, "showarrow": False,
                      "xanchor": "left", "yanchor": "bottom", "font": {"color": PALETTE[1]}})
    layout = _layout(style, title=title, x_axis=_axis(x_title), y_axis=_axis("Density"), lines=lines,
                     shapes=shapes, annotations=notes)
    return figure(traces, layout)


def heatmap_figure(matrix, labels: Sequence[str], *, text=None, title: str = "", colorbar_title: str = "",
                   zmin: float = 0.0, zmax: float = 1.0, colorscale: str = "Viridis_r", hover: str = "",
                   style: Style = STYLE) -> go.Figure:
    """A square matrix over ``labels`` (e.g. adjusted p-values of all pairs)."""
    z = np.asarray(matrix, dtype=float)
    trace = {"type": "heatmap", "z": [[None if not math.isfinite(v) else v for v in row] for row in z.tolist()],
             "x": [plotly_text(v) for v in labels], "y": [plotly_text(v) for v in labels], "colorscale": colorscale, "zmin": zmin, "zmax": zmax,
             "colorbar": {"title": {"text": colorbar_title}},
             "hovertemplate": hover or "%{y} vs %{x}<br>%{z:.4f}<extra></extra>"}
    if text is not None:
        trace.update(text=[list(r) for r in text], texttemplate="%{text}")
    layout = _layout(style, title=title, x_axis=_axis("", type="category"), y_axis=_axis("", type="category"),
                     legend=False)
    return figure([trace], layout)


def interval_figure(names: Sequence[str], estimates, low, high, *, title: str = "", x_title: str = "",
                    lines: Iterable[Line] = (), hover_format: str = ".0f", color: str = PALETTE[0],
                    style: Style = STYLE) -> go.Figure:
    """A ranked list with intervals (an arena-style leaderboard): names on y, estimates with error bars on x."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (estimates, low, high))
    trace = {"type": "scatter", "x": est, "y": [plotly_text(v) for v in names], "mode": "markers", "name": "estimate",
             "marker": {"size": max(9, style.marker_size - 3), "color": color},
             "error_x": {"type": "data", "symmetric": False, "array": hi - est, "arrayminus": est - lo,
                         "visible": True, "thickness": max(1.5, style.line_width / 1.5)},
             # the interval as text: a fit without one (separated votes) reads "no interval", not "[NaN, NaN]"
             "customdata": [f"[{a:{hover_format}}, {b:{hover_format}}]" if math.isfinite(a) and math.isfinite(b)
                            else "no interval" for a, b in zip(lo, hi)],
             "hovertemplate": f"%{{y}}<br>%{{x:{hover_format}}} %{{customdata}}<extra></extra>"}
    layout = _layout(style, title=title, x_axis=_axis(x_title),
                     y_axis=_axis("", type="category", autorange="reversed"), lines=lines, legend=False)
    layout["height"] = max(style.height, 28 * len(names) + 120)
    return figure([trace], layout)


# ---------------------------------------------------------------------------
# figures of the papers
# ---------------------------------------------------------------------------
def difference_distribution_figure(
    dist: pd.DataFrame,
    *,
    true_effect: float,
    mean_significant: float | None,
    title: str = "",
    x_title: str = "Observed difference",
    scale: float = 100.0,
    unit: str = " pp",
    style: Style = STYLE,
) -> go.Figure:
    """Figure 1 of Card et al.: sampling distribution with significant samples highlighted.

    ``dist`` comes from :func:`core.accuracy.difference_distribution`; values
    are multiplied by ``scale`` (percentage points by default).
    """
    width = float((dist["diff_high"] - dist["diff_low"]).iloc[0]) * scale
    mids = _array(dist["diff_mid"] * scale)
    traces = [
        {"type": "bar", "x": mids, "y": _array(dist["prob_not_significant"]), "width": width,
         "name": "not significant", "marker": {"color": "#BBBBBB"},
         "hovertemplate": f"difference %{{x:.2f}}{unit}<br>P(not significant) %{{y:.4f}}<extra></extra>"},
        {"type": "bar", "x": mids, "y": _array(dist["prob_significant"]), "width": width, "name": "significant",
         "marker": {"color": PALETTE[1]},
         "hovertemplate": f"difference %{{x:.2f}}{unit}<br>P(significant) %{{y:.4f}}<extra></extra>"},
    ]
    marks = [(0.0, "no difference", "#333333", "dash", 1.10), (true_effect * scale, "true difference", PALETTE[0],
                                                                 "solid", 1.04)]
    if mean_significant is not None and _finite(mean_significant):
        marks.append((mean_significant * scale, "mean of significant results", PALETTE[1], "dot", 0.98))
    shapes, notes = [], []
    for x_value, label, colour, dash, y_label in marks:
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": x_value, "x1": x_value, "y0": 0, "y1": 1,
                       "line": {"color": colour, "dash": dash, "width": 3 if dash != "dash" else 1.5}})
        notes.append({"x": x_value, "xref": "x", "y": y_label, "yref": "paper", "text": label, "showarrow": False,
                      "xanchor": "left", "font": {"color": colour, "size": style.annotation_size},
                      "bgcolor": "rgba(255,255,255,0.8)"})
    layout = _layout(style, title=title, x_axis=_axis(x_title + f" ({unit.strip()})"), y_axis=_axis("Probability"),
                     shapes=shapes, annotations=notes, barmode="stack", bargap=0.02)
    return figure(traces, layout)


def leaderboard_figure(board: pd.DataFrame, *, target: float = 0.8, style: Style = STYLE) -> go.Figure:
    """Figure 10 of Card et al.: SQuAD 2.0 submissions over time, coloured by power."""
    groups = [
        (f"≥ {target:.0%} power on dev, significant on test (new SOTA)", board["new_sota"], PALETTE[2], "star", 14),
        (f"≥ {target:.0%} power, not significant", board["powered"] & ~board["new_sota"], PALETTE[0], "circle", 10),
        ("under-powered, significant improvement", ~board["powered"] & board["significant_improvement"], PALETTE[1],
         "x", 11),
        ("under-powered", ~board["powered"] & ~board["significant_improvement"], "#AAAAAA", "circle-open", 7),
    ]
    traces = []
    for name, mask, colour, symbol, size in groups:
        part = board[mask]
        traces.append({
            "type": "scatter", "x": _array(part["date"]), "y": _array(part["test_em"]), "mode": "markers", "name": name,
            "marker": {"color": colour, "symbol": symbol, "size": size},
            "customdata": [[str(r.description), float(r.power), float(r.delta_dev) * 100, float(r.p_test)]
                           for r in part.itertuples()],
            "hovertemplate": "%{customdata[0]}<br>test EM %{y:.2f}<br>power %{customdata[1]:.2f}"
                             "<br>dev Δ vs SOTA %{customdata[2]:.2f} pp<br>test p ≈ %{customdata[3]:.3g}<extra></extra>",
        })
    sota = board[board["new_sota"]]
    traces.append({"type": "scatter", "x": _array(sota["date"]), "y": _array(sota["test_em"]), "mode": "lines",
                   "line": {"shape": "hv", "color": PALETTE[2], "width": 1.5}, "name": "SOTA under the power rule",
                   "hoverinfo": "skip"})
    layout = _layout(style, title="SQuAD 2.0 submissions vs the state of the art at the time",
                     x_axis=_axis("Submission date", type="date"), y_axis=_axis("Test exact match (%)"))
    return figure(traces, layout)


def mde_table_figure(table: pd.DataFrame, *, current_delta: float | None = None, target: float = 0.8,
                     style: Style = STYLE) -> go.Figure:
    """Table 2 as a chart: each task's MDE next to its mean reported improvement (log scale)."""
    tasks = list(table["task"])
    traces = [
        {"type": "bar", "x": tasks, "y": _array(table["mde_regression"] * 100), "name": "MDE (regression prior)",
         "marker": {"color": PALETTE[0]}, "hovertemplate": "%{x}<br>MDE %{y:.2f} pp<extra></extra>"},
        {"type": "scatter", "x": tasks, "y": _array(table["mean_reported_delta"] * 100), "mode": "markers",
         "name": "mean reported improvement", "marker": {"color": PALETTE[1], "size": 12, "symbol": "diamond"},
         "hovertemplate": "%{x}<br>mean reported Δ %{y:.2f} pp<extra></extra>"},
    ]
    lines = [Line(y=current_delta * 100, text="your expected Δ")] if current_delta else []
    layout = _layout(style, title=f"Minimum detectable effect at {target:.0%} power vs typical improvements",
                     x_axis=_axis("", type="category"), y_axis=_axis("Accuracy difference (pp)", log=True),
                     lines=lines)
    return figure(traces, layout)


def _panel_ref(ref: str, letter: str, suffix: str) -> str:
    """A shape's or annotation's ``letter`` ("x" or "y") reference moved to the panel with axis ``suffix`` ("" for
    the first): its axis, or for ``paper`` its axis's domain (a reference line spans its own panel only)."""
    if ref == letter:
        return f"{letter}{suffix}"
    if ref in ("paper", f"{letter} domain"):
        return f"{letter}{suffix} domain"
    return ref


def panels(figs: Sequence[go.Figure], *, title: str = "", style: Style = STYLE, gap: float = 0.16) -> go.Figure:
    """Figures side by side as the panels of one figure: one chart for the browser to draw, not one per panel.

    A slider move redraws every chart of its view, each a separate Plotly plot with its own axes, legend and margin
    pass; two panels of one figure cost little more than one. Each panel keeps its axes, traces, reference lines
    (their ``paper`` coordinates become its axes' domain) and its title (an annotation above it); the legend is
    shared: a name already shown (the same procedures in both panels, the current-design marker) is listed once and
    toggles its traces in every panel. ``title``: the figure's own title (broken as ``style`` breaks titles), for
    panels told apart by their axes; each panel's title then stays off (else it sits above its panel). ``gap``: the
    share of the width between panels (room for the second y axis's ticks and title). The layout otherwise is the
    first figure's, with the largest height and top margin.
    """
    if not figs:
        raise ValueError("`figs` must hold at least one figure.")
    specs = [f.to_plotly_json() if isinstance(f, go.Figure) else f for f in figs]
    count = len(specs)
    width = (1.0 - gap * (count - 1)) / count
    first = specs[0]["layout"]
    layout = {k: v for k, v in first.items() if k not in ("title", "xaxis", "yaxis", "shapes", "annotations")}
    layout["height"] = max(spec["layout"].get("height", 450) for spec in specs)
    layout["margin"] = {**first.get("margin", {}),
                        "t": max((spec["layout"].get("margin") or {}).get("t", 60) for spec in specs),
                        "b": max((spec["layout"].get("margin") or {}).get("b", 40) for spec in specs)}
    traces, shapes, notes, listed = [], [], [], set()
    for i, spec in enumerate(specs):
        suffix = "" if i == 0 else str(i + 1)
        panel = spec["layout"]
        left = i * (width + gap)
        layout[f"xaxis{suffix}"] = {**panel.get("xaxis", {}), "domain": [left, left + width], "anchor": f"y{suffix}"}
        layout[f"yaxis{suffix}"] = {**panel.get("yaxis", {}), "anchor": f"x{suffix}"}
        for trace in spec["data"]:
            name = trace.get("name", "")
            shown = trace.get("showlegend", True) is not False and name != ""
            trace = {**trace, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
            if shown:
                trace["legendgroup"] = trace.get("legendgroup", name)
                if name in listed:
                    trace["showlegend"] = False
                listed.add(name)
            traces.append(trace)
        for shape in panel.get("shapes", ()):
            shapes.append({**shape, "xref": _panel_ref(shape.get("xref", "x"), "x", suffix),
                           "yref": _panel_ref(shape.get("yref", "y"), "y", suffix)})
        for note in panel.get("annotations", ()):
            notes.append({**note, "xref": _panel_ref(note.get("xref", "x"), "x", suffix),
                          "yref": _panel_ref(note.get("yref", "y"), "y", suffix)})
        own = panel.get("title") or {}
        if own.get("text") and not title:
            notes.append({"text": own["text"], "xref": f"x{suffix} domain", "x": 0.0, "xanchor": "left",
                          "yref": f"y{suffix} domain", "y": 1.0, "yanchor": "bottom", "yshift": 12,
                          "showarrow": False, "align": "left", "font": own.get("font", {})})
    layout["shapes"], layout["annotations"] = shapes, notes
    if title:
        text, lines = wrap_text(title, style.title_chars)
        layout["title"] = {"text": text, "font": {"size": style.title_size}}
        layout["margin"]["t"] = max(layout["margin"]["t"], 60 + _title_room(style, lines))
    # the shared legend lists the panels' names once: fitted again to the plot's height (:func:`fit_legend`)
    size = (layout.get("font") or {}).get("size", 12)
    layout = fit_legend(layout, legend_entries(traces), tilted=_tilted_labels(traces, size))
    return go.Figure({"data": traces, "layout": layout}, _validate=False)


def with_style(style: Style, **changes) -> Style:
    """A copy of ``style`` with some sizes changed."""
    return replace(style, **changes)


def replay_figure(replay, summary: pd.DataFrame, *, frame_every: int = 4, scale: float = 100.0,
                  title: str = "", style: Style = STYLE) -> go.Figure:
    """An animation of simulated replications on a number line (the lab-meeting demo).

    Every experiment's observed difference appears as a point (significant ones
    orange); a dotted line follows the mean of the significant estimates and
    the caption tracks the share significant, the exaggeration ratio and the
    wrong signs. The frames play in the browser (play/pause and a scrubber), so
    no round trip to the server is needed per frame.

    Parameters
    ----------
    replay : core.demo.Replay
    summary : DataFrame
        :func:`core.demo.running_summary` of the replay.
    frame_every : int
        Experiments added per frame.
    """
    e = replay.experiments
    x = e["observed"].to_numpy() * scale
    y = np.random.default_rng(0).uniform(0.08, 0.92, len(e))
    sig = e["significant"].to_numpy()
    true_x = replay.true_effect * scale
    span = max(abs(x).max(), abs(true_x)) + 5.0
    stops = list(range(frame_every, len(e) + 1, frame_every))
    if stops[-1] != len(e):
        stops.append(len(e))

    def caption(k: int) -> str:
        row = summary.iloc[k - 1]
        if row["significant"] == 0:
            return f"{k} experiments · none significant yet"
        mean = row["mean_significant"] * scale
        text = (f"{k} experiments · {int(row['significant'])} significant ({row['share_significant']:.0%})<br>"
                f"their mean {mean:+.1f} pp vs true {true_x:+.1f} pp")
        if math.isfinite(row["type_m"]):
            text += f" · {row['type_m']:.1f}× exaggerated"
        if row["wrong_sign"]:
            text += f" · {int(row['wrong_sign'])} with the wrong sign"
        return text

    def labels(k: int) -> list[dict]:
        row_mean = summary["mean_significant"].iloc[k - 1] * scale
        font = {"size": style.annotation_size}
        notes = [
            {"x": 0.5, "xref": "paper", "y": 1.06, "yref": "paper", "showarrow": False, "text": caption(k),
             "font": {"size": style.annotation_size + 2}, "xanchor": "center", "yanchor": "bottom"},
            {"x": true_x, "xref": "x", "y": 1.0, "yref": "paper", "showarrow": False, "xanchor": "right",
             "yanchor": "bottom", "text": f"true {true_x:+.0f}", "font": {**font, "color": PALETTE[0]}},
            {"x": 0.0, "xref": "x", "y": 0.01, "yref": "paper", "showarrow": False, "xanchor": "right",
             "yanchor": "bottom", "text": "no difference ", "font": {**font, "color": "#333333"},
             "bgcolor": "rgba(255,255,255,0.8)"},
        ]
        if math.isfinite(row_mean):
            notes.append({"x": row_mean, "xref": "x", "y": 0.97, "yref": "paper", "showarrow": False,
                          "xanchor": "left" if row_mean < 0.4 * span else "right", "yanchor": "top",
                          "text": f" significant mean {row_mean:+.0f} ", "bgcolor": "rgba(255,255,255,0.85)",
                          "font": {**font, "color": PALETTE[1]}})
        return notes

    def state(k: int) -> list:
        keep = np.arange(len(e)) < k
        mean = summary["mean_significant"].iloc[k - 1] * scale
        mean_line = [mean, mean] if math.isfinite(mean) else [None, None]
        return [
            {"type": "scatter", "x": x[keep & ~sig], "y": y[keep & ~sig]},
            {"type": "scatter", "x": x[keep & sig], "y": y[keep & sig]},
            {"type": "scatter", "x": mean_line, "y": [0, 1]},
        ]

    first = state(stops[-1])
    marker = max(7, style.marker_size // 2)
    traces = [
        {**first[0], "mode": "markers", "name": "not significant",
         "marker": {"color": "#AAAAAA", "size": marker, "opacity": 0.8},
         "hovertemplate": "observed %{x:+.1f} pp<br>not significant<extra></extra>"},
        {**first[1], "mode": "markers", "name": "significant",
         "marker": {"color": PALETTE[1], "size": marker + 2, "line": {"color": "white", "width": 1}},
         "hovertemplate": "observed %{x:+.1f} pp<br>significant<extra></extra>"},
        {**first[2], "mode": "lines", "name": "mean of the significant ones",
         "line": {"color": PALETTE[1], "dash": "dot", "width": style.line_width + 1}, "hoverinfo": "skip"},
        {"type": "scatter", "x": [true_x, true_x], "y": [0, 1], "mode": "lines", "name": "true difference",
         "line": {"color": PALETTE[0], "width": style.line_width + 1}, "hoverinfo": "skip"},
        {"type": "scatter", "x": [0, 0], "y": [0, 1], "mode": "lines", "name": "no difference",
         "line": {"color": "#333333", "dash": "dash", "width": 1.5}, "hoverinfo": "skip"},
    ]
    frames = [{"name": str(k), "data": state(k), "traces": [0, 1, 2], "layout": {"annotations": labels(k)}}
              for k in stops]
    play = {"label": "▶ Play", "method": "animate",
            "args": [None, {"frame": {"duration": 110, "redraw": True}, "fromcurrent": True,
                            "transition": {"duration": 0}}]}
    pause = {"label": "Pause", "method": "animate",
             "args": [[None], {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"}]}
    slider = {"active": len(stops) - 1, "x": 0.16, "len": 0.84, "y": -0.34, "yanchor": "top",
              "currentvalue": {"prefix": "experiments: ", "font": {"size": style.annotation_size}},
              "steps": [{"label": str(k) if i % 5 == 4 or k == stops[-1] else "", "method": "animate",
                         "args": [[str(k)], {"frame": {"duration": 0, "redraw": True}, "mode": "immediate"}]}
                        for i, k in enumerate(stops)]}
    layout = _layout(style, title=title, x_axis=_axis("Observed difference (pp): share preferring new − old",
                                                      rng=(-span, span)),
                     y_axis=_axis("", showticklabels=False, range=[0, 1], showgrid=False, zeroline=False),
                     annotations=labels(stops[-1]), legend=False,
                     updatemenus=[{"type": "buttons", "direction": "left", "x": 0.0, "y": -0.34, "xanchor": "left",
                                   "yanchor": "top", "buttons": [play, pause], "showactive": False,
                                   "font": {"size": style.annotation_size}}],
                     sliders=[slider])
    grown = layout["margin"]  # keep the room _layout made for broken titles
    layout["margin"] = {"l": 30, "r": 20, "t": 135 + grown["t"] - 60, "b": 170 + grown["b"] - 40}
    layout["height"] = style.height + 110
    fig = figure(traces, layout)
    fig.frames = [go.Frame(f, _validate=False) for f in frames]
    return fig


# ---------------------------------------------------------------------------
# monitoring a running evaluation
# ---------------------------------------------------------------------------
def _scaled(frame: pd.DataFrame, columns: Sequence[str], scale: float) -> pd.DataFrame:
    """``frame`` with ``columns`` multiplied by ``scale`` (the frame itself when ``scale`` is 1)."""
    if scale == 1:
        return frame
    return frame.assign(**{c: frame[c] * scale for c in columns if c in frame})


def _with_unit(title: str, unit: str) -> str:
    """"Running difference (B − A)" and "points" → "Running difference (B − A, points)"."""
    if not unit:
        return title
    return f"{title[:-1]}, {unit})" if title.endswith(")") else f"{title} ({unit})"


def _amount(value: float, unit: str) -> str:
    """A difference with its unit, as the reference lines label it: "5 points", or "0.05" without a unit."""
    return f"{value:g} {unit}".strip()


def _digits(scale: float) -> str:
    """Hover format of a difference: two decimals in points (× 100), four in the items' own units."""
    return ".2f" if scale >= 100 else ".4f"


def monitor_figure(sequence: pd.DataFrame, *, looks: Sequence[int] = (), look_bounds: Sequence[float] = (),
                   target: float | None = None, n_max: int | None = None, title: str = "",
                   x_title: str = "Items so far", y_title: str = "Running difference (B − A)",
                   scale: float = 1.0, unit: str = "", style: Style = STYLE) -> go.Figure:
    """Running estimate with its confidence sequence, the planned group boundaries and ±target lines.

    ``sequence`` has the columns ``n, estimate, lower, upper``; the last row is
    marked as the current state. ``looks``/``look_bounds`` draw the planned
    group-sequential efficacy boundaries on the estimate scale (±bound at each look).
    Differences, boundaries and ``target`` are drawn × ``scale`` in ``unit`` (100 and "points" for accuracies,
    so the chart reads as the page's metrics do); the y-axis title names the unit.
    """
    sequence, look_bounds, target = _scaled(sequence, ("estimate", "lower", "upper"), scale), \
        [scale * b for b in look_bounds], None if target is None else scale * target
    y_title = _with_unit(y_title, unit)
    n = sequence["n"].to_numpy()
    step = max(1, len(n) // 2000)  # at most ~2,000 points per line in the browser
    keep = np.r_[np.arange(0, len(n), step), len(n) - 1] if len(n) else np.arange(0)
    keep = np.unique(keep)
    s = sequence.iloc[keep]
    digits = _digits(scale)
    hover = f"n = %{{x:,}}<br>%{{y:{digits}}}<extra>%{{fullData.name}}</extra>"
    traces = [
        {"type": "scatter", "x": s["n"], "y": s["upper"], "mode": "lines", "name": "confidence sequence",
         "line": {"color": PALETTE[5], "width": 0.5}, "hovertemplate": hover, "legendgroup": "cs",
         "showlegend": False},
        {"type": "scatter", "x": s["n"], "y": s["lower"], "mode": "lines", "name": "confidence sequence",
         "line": {"color": PALETTE[5], "width": 0.5}, "fill": "tonexty", "fillcolor": "rgba(86,180,233,0.25)",
         "hovertemplate": hover, "legendgroup": "cs"},
        {"type": "scatter", "x": s["n"], "y": s["estimate"], "mode": "lines", "name": "running estimate",
         "line": {"color": PALETTE[0], "width": style.line_width}, "hovertemplate": hover},
    ]
    if len(looks):
        lk, lb = list(looks), list(look_bounds)
        traces.append({"type": "scatter", "x": lk + lk, "y": lb + [-b for b in lb], "mode": "markers",
                       "name": "planned group boundaries",
                       "marker": {"symbol": "line-ew-open", "size": 18, "color": PALETTE[1],
                                  "line": {"width": 3, "color": PALETTE[1]}},
                       "hovertemplate": f"planned look at n = %{{x:,}}<br>stop if |estimate| ≥ %{{y:{digits}}}"
                                        "<extra></extra>"})
    if len(n):
        last = sequence.iloc[-1]
        traces.append(_current_marker(float(last["n"]), float(last["estimate"]), x_title="n", y_title="estimate",
                                      hover_format=digits, x_hover_format=",", style=style, name="now"))
    lines = [Line(y=0.0, text="", color="#333333")]
    if target:
        lines += [Line(y=target, text=f"±{_amount(target, unit)}: smallest difference that matters",
                       color=PALETTE[2], dash="dot"),
                  Line(y=-target, text="", color=PALETTE[2], dash="dot")]
    if n_max:
        lines.append(Line(x=n_max, text=""))  # the axis ends at the planned items
    # the first items' sequence is very wide: scale the y axis to the run after its first 20 items or tenth
    settled = sequence[sequence["n"] >= min(max(20, int(n[-1]) // 10), int(n[-1]))] if len(n) else sequence
    if len(settled) == 0:
        settled = sequence
    values = np.concatenate([settled[["lower", "upper", "estimate"]].to_numpy(dtype=float).ravel(),
                             [target or 0.0, -(target or 0.0)], list(look_bounds), [-b for b in look_bounds]])
    values = values[np.isfinite(values)]
    pad = 0.08 * (values.max() - values.min()) if values.size else 1.0
    y_range = (float(values.min() - pad), float(values.max() + pad)) if values.size else None
    layout = _layout(style, title=title, x_axis=_axis(x_title, rng=(0, max(n_max or 0, int(n[-1]) if len(n) else 1)
                                                                     * 1.02)),
                     y_axis=_axis(y_title, rng=y_range), lines=lines)
    return figure(traces, layout)


def paths_figure(sequence: pd.DataFrame, paths: pd.DataFrame, *, n_max: int, target: float, frames: int = 25,
                 title: str = "", scale: float = 1.0, unit: str = "", style: Style = STYLE) -> go.Figure:
    """Simulated continuations of a run, animated in the browser (play/pause and a scrubber).

    ``paths`` has the columns ``path, n, estimate, stopped`` (one row per
    shown point; :func:`core.sequential.monitor`). Frame k shows every path up
    to the k-th of ``frames`` equally spaced item counts; a path that has
    stopped ends in a marker. ``target`` is the smallest difference that
    matters, X; differences are drawn × ``scale`` in ``unit``, as in :func:`monitor_figure`.
    """
    sequence, paths, target = _scaled(sequence, ("estimate",), scale), _scaled(paths, ("estimate",), scale), \
        scale * target
    digits = _digits(scale)
    n0 = int(sequence["n"].iloc[-1]) if len(sequence) else 0
    step = max(1, len(sequence) // 500)
    past = sequence.iloc[::step]
    ids = sorted(paths["path"].unique()) if len(paths) else []
    cuts = np.unique(np.linspace(n0 + 1, n_max, max(2, frames)).round().astype(int))

    def state(cut):
        xs, ys, sx, sy = [], [], [], []
        for p in ids:
            rows = paths[(paths["path"] == p) & (paths["n"] <= cut)]
            xs += [n0] + rows["n"].tolist() + [None]
            ys += [float(sequence["estimate"].iloc[-1])] + rows["estimate"].tolist() + [None]
            end = rows[rows["stopped"].astype(bool)]
            if len(end):
                sx.append(int(end["n"].iloc[0]))
                sy.append(float(end["estimate"].iloc[0]))
        return [{"type": "scatter", "x": xs, "y": ys}, {"type": "scatter", "x": sx, "y": sy}]

    first = state(cuts[-1])
    traces = [
        {"type": "scatter", "x": past["n"], "y": past["estimate"], "mode": "lines", "name": "observed so far",
         "line": {"color": PALETTE[0], "width": style.line_width + 1},
         "hovertemplate": f"n = %{{x:,}}<br>estimate %{{y:{digits}}}<extra>observed</extra>"},
        {**first[0], "mode": "lines", "name": "simulated continuations", "line": {"color": "#999999", "width": 1},
         "opacity": 0.7, "hovertemplate": f"n = %{{x:,}}<br>estimate %{{y:{digits}}}<extra>simulated</extra>"},
        {**first[1], "mode": "markers", "name": "stopped",
         "marker": {"color": PALETTE[1], "size": max(7, style.marker_size // 2), "symbol": "x"},
         "hovertemplate": f"stopped at n = %{{x:,}}<br>estimate %{{y:{digits}}}<extra></extra>"},
    ]
    play = {"label": "▶ Play", "method": "animate",
            "args": [None, {"frame": {"duration": 150, "redraw": True}, "fromcurrent": True,
                            "transition": {"duration": 0}}]}
    pause = {"label": "Pause", "method": "animate",
             "args": [[None], {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"}]}
    slider = {"active": len(cuts) - 1, "x": 0.24, "len": 0.76, "y": -0.3, "yanchor": "top",
              "currentvalue": {"prefix": "items: ", "font": {"size": style.annotation_size}},
              "steps": [{"label": f"{c:,}" if i % 5 == 4 or i == len(cuts) - 1 else "", "method": "animate",
                         "args": [[str(c)], {"frame": {"duration": 0, "redraw": True}, "mode": "immediate"}]}
                        for i, c in enumerate(cuts)]}
    lines = [Line(y=0.0, text="no difference", color="#333333"),
             Line(y=target, text=f"X = +{_amount(target, unit)}: smallest difference that matters",
                  color=PALETTE[2], dash="dot"),
             Line(y=-target, text=f"−{target:g}", color=PALETTE[2], dash="dot")]
    layout = _layout(style, title=title, x_axis=_axis("Items", rng=(0, n_max * 1.02)),
                     y_axis=_axis(_with_unit("Running difference (B − A)", unit)), lines=lines,
                     updatemenus=[{"type": "buttons", "direction": "left", "x": 0.0, "y": -0.3, "xanchor": "left",
                                   "yanchor": "top", "buttons": [play, pause], "showactive": False,
                                   "font": {"size": style.annotation_size}}],
                     sliders=[slider])
    layout["margin"] = {**layout["margin"], "b": layout["margin"].get("b", 40) + 110}
    layout["height"] = style.height + 110
    fig = figure(traces, layout)
    fig.frames = [go.Frame({"name": str(c), "data": state(c), "traces": [1, 2]}, _validate=False) for c in cuts]
    return fig

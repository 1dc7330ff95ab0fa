"""core.figures: every builder's output is a valid Plotly figure (oracle: Plotly's own schema validation).

The builders skip per-property validation for speed (``go.Figure(spec, _validate=False)``); these tests
rebuild each figure with full validation, so an invalid property fails here instead of in the browser.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from core import accuracy as acc
from core import figures


def validated(fig: go.Figure) -> go.Figure:
    return go.Figure(fig.to_dict())  # raises ValueError on any invalid property


@pytest.fixture
def curves():
    return acc.paired_curves([50, 500, 5000], [(0.02, 0.9), (0.04, 0.9)]).assign(series=lambda f: f["delta"].astype(str))


@pytest.mark.parametrize("style", [figures.STYLE, figures.PRESENTATION])
def test_curve_figure(curves, style):
    pins = pd.DataFrame({"x": [50, 500], "y": [0.1, 0.3], "pin": ["n = 500"] * 2})
    points = pd.DataFrame({"x": [500], "y": [0.25], "se": [0.01], "name": ["simulated"]})
    fig = validated(figures.curve_figure(curves, x="n", y="power", color="series", current=(500, 0.249), target=0.8,
                                         points=points, pins=pins, lines=[figures.Line(x=1000, text="n")],
                                         y_range=(0, 1.02), style=style))
    names = [t.name for t in fig.data]
    assert "current design" in names and "pinned: n = 500" in names and "simulated" in names
    assert any(s.y0 == 0.8 for s in fig.layout.shapes)  # the 80% power line
    assert fig.layout.xaxis.type == "log" and fig.layout.height == style.height
    assert all(t.hovertemplate for t in fig.data)


def test_log_axes_place_labels_in_log_units(curves):
    fig = figures.type_m_figure(curves, x="n", color="series", current=(500, 1.9), needed=2000, needed_text="80%")
    validated(fig)
    note = [a for a in fig.layout.annotations if a.text == "80%"][0]
    assert note.x == pytest.approx(np.log10(2000))  # annotations on log axes take log10 positions
    assert fig.layout.yaxis.type == "log"
    assert [a for a in fig.layout.annotations if a.text == "no exaggeration"][0].y == pytest.approx(0.0)


def _label_boxes(fig, plot_px, span, label_px):
    """Each horizontal line label's (side, bottom px, top px), from the figure's own annotations."""
    boxes = {}
    for a in fig.layout.annotations:
        if a.yref != "y":
            continue
        y = (a.y - span[0]) / (span[1] - span[0]) * plot_px
        boxes[a.text] = (a.xanchor, *((y, y + label_px) if a.yanchor == "bottom" else (y - label_px, y)))
    return boxes


def test_close_horizontal_labels_are_spread_so_none_covers_another(curves):
    # the prompts-and-seeds chart's case: a power ceiling at 79% under the 80% target line
    lines = [figures.Line(y=0.45, text="ceiling, T = 1: 45%"), figures.Line(y=0.79, text="ceiling, T = 2: 79%"),
             figures.Line(y=0.81, text="ceiling, T = 5: 81%")]
    style = figures.STYLE
    fig = figures.curve_figure(curves, x="n", y="power", color="series", target=0.8, lines=lines, y_range=(0, 1.02))
    validated(fig)
    notes = {a.text: a for a in fig.layout.annotations}
    assert (notes["80% power"].xanchor, notes["80% power"].yanchor) == ("right", "bottom")  # the target keeps its place
    assert (notes["ceiling, T = 1: 45%"].xanchor, notes["ceiling, T = 1: 45%"].yanchor) == ("right", "bottom")
    assert notes["ceiling, T = 1: 45%"].x == 1.0 and notes["ceiling, T = 2: 79%"].x in (0.0, 1.0)
    plot_px = style.height - 100
    boxes = list(_label_boxes(fig, plot_px, (0, 1.02), 1.4 * style.annotation_size + 4).values())
    for i, (side, lo, hi) in enumerate(boxes):  # no two boxes on the same side overlap
        for other_side, other_lo, other_hi in boxes[i + 1:]:
            assert side != other_side or hi <= other_lo or other_hi <= lo
    # far apart, or the axis range unknown: every label above its line at the right, as before
    far = figures.curve_figure(curves, x="n", y="power", color="series", target=0.8, lines=lines[:1],
                               y_range=(0, 1.02))
    unknown = figures.curve_figure(curves, x="n", y="power", color="series", target=0.8, lines=lines)
    for f in (far, unknown):
        assert {(a.xanchor, a.yanchor) for a in f.layout.annotations if a.yref == "y"} == {("right", "bottom")}


def test_label_slots_skip_the_place_under_a_line_at_the_axis():
    # three labels at the same height near the bottom: the third cannot go under its line (below the x axis)
    slots = figures._label_slots([0.01, 0.01, 0.01], span=(0, 1), plot_px=200, label_px=20)
    assert slots[2] == ("right", "bottom") and slots[1] == ("left", "bottom")
    assert slots[0] == ("right", "bottom")  # no free slot left: the first
    high = figures._label_slots([0.5, 0.5, 0.5], span=(0, 1), plot_px=200, label_px=20)
    assert high == [("right", "top"), ("left", "bottom"), ("right", "bottom")]
    assert figures._label_slots([0.5, 0.5], span=None, plot_px=200, label_px=20) == [("right", "bottom")] * 2


def test_other_builders_are_valid():
    rng = np.random.default_rng(0)
    dist = acc.difference_distribution(500, 0.02, 0.9)
    board = acc.squad_leaderboard(n=11873)
    table = acc.task_mde_table()
    built = [
        figures.bar_figure(["2", "3"], {"a": [0.1, 0.2], "b": [0.05, 0.04]}, errors={"a": [0.01, 0.01]},
                           lines=[figures.Line(y=0.05, text="α")], barmode="stack"),
        figures.histogram_figure({"A": rng.normal(size=50), "B": rng.normal(size=50)}),
        figures.histogram_figure({"x": rng.normal(size=50)}, density=("fit", np.linspace(-2, 2, 5), np.ones(5))),
        figures.scatter_figure(rng.random(5), rng.random(5), identity=True, color_values=rng.random(5),
                               color_title="Δ", text=list("abcde"), customdata=rng.random(5)),
        figures.density_figure(np.linspace(-1, 1, 50), np.ones(50), interval=(-0.5, 0.5), band=(-0.1, 0.1)),
        figures.heatmap_figure(np.array([[np.nan, 0.1], [0.1, np.nan]]), ["a", "b"], text=[["", "0.1"], ["0.1", ""]]),
        figures.interval_figure(["m1", "m2"], [1010, 990], [1000, 980], [1020, 1000]),
        figures.difference_distribution_figure(dist, true_effect=0.02, mean_significant=0.038),
        figures.leaderboard_figure(board),
        figures.mde_table_figure(table, current_delta=0.02),
    ]
    for fig in built:
        validated(fig)


def test_numeric_arrays_are_sent_as_binary(curves):
    # numpy arrays travel base64-encoded (small messages), which the browser tests decode
    spec = figures.curve_figure(curves, x="n", y="power", color="series").to_plotly_json()
    assert set(spec["data"][0]["y"]) == {"dtype", "bdata"}


def test_user_text_in_charts_is_not_markup():
    """Every label from data is escaped by the builders (Plotly renders <a href>, <img>, <br> in labels and
    decodes entities, so the escaped text shows as typed); developer text (titles, Line texts) is left alone."""
    link = '<a href="http://x">click</a>'
    assert figures.plotly_text(link) == '&lt;a href="http://x"&gt;click&lt;/a&gt;'
    assert figures.plotly_text("a & b") == "a &amp; b"
    assert figures.plotly_text("%{x}") != "%{x}" and "%{" not in figures.plotly_text("%{x}")  # no hover field
    assert figures.plotly_text(12) == "12"
    frame = pd.DataFrame({"n": [10, 20, 10, 20], "power": [0.1, 0.2, 0.3, 0.4], "series": [link] * 2 + ["b"] * 2})
    pins = pd.DataFrame({"x": [10, 20], "y": [0.2, 0.3], "pin": ["<img src=x>"] * 2})
    figs = [
        figures.curve_figure(frame, x="n", y="power", color="series", pins=pins, title="Power<br>two lines"),
        figures.histogram_figure({link: [1.0, 2.0]}),
        figures.bar_figure([link, "b"], {link: [1.0, 2.0]}),
        figures.interval_figure([link, "b"], [1.0, 2.0], [0.5, 1.5], [1.5, 2.5]),
        figures.heatmap_figure([[1.0, 0.5], [0.5, 1.0]], [link, "b"]),
        figures.scatter_figure([1.0], [2.0], text=[link], name=link),
    ]
    for fig in figs:
        texts = [str(v) for trace in fig.to_dict()["data"]
                 for key in ("name", "x", "y", "text", "hovertemplate") for v in np.atleast_1d(trace.get(key, []))]
        assert not any("<a " in t or "<img" in t for t in texts)
    assert "<br>" in figs[0].layout.title.text  # the page's own markup stays


def test_wrap_text_breaks_at_spaces_and_leaves_markup_and_short_text_alone():
    text = "Power vs true difference (1,200 judgments planned)"  # 50 characters
    wrapped, lines = figures.wrap_text(text, 32)
    assert lines == 2 and all(len(part) <= 32 for part in wrapped.split("<br>"))
    assert wrapped.replace("<br>", " ") == text  # nothing lost, broken only at spaces
    assert figures.wrap_text(text, None) == (text, 1)
    assert figures.wrap_text(text, 80) == (text, 1)
    assert figures.wrap_text("", 10) == ("", 0)
    assert figures.wrap_text("a<br>b c d e f g h", 3) == ("a<br>b c d e f g h", 2)  # already broken by hand
    styled = '<span style="color: red">a long red title here</span>'
    assert figures.wrap_text(styled, 10) == (styled, 1)  # a break could split the tag
    assert figures.wrap_text("supercalifragilistic", 5) == ("supercalifragilistic", 1)  # no space: one line


def test_narrow_charts_break_titles_sooner():
    half = figures.narrow(figures.PRESENTATION, 0.5)
    assert (half.title_chars, half.axis_title_chars, half.y_title_chars) == (32, 22, 28)
    assert half.legend_right and half.height == figures.PRESENTATION.height  # only where lines break changes
    assert figures.narrow(figures.PRESENTATION, 1.0) is figures.PRESENTATION
    assert figures.narrow(figures.PRESENTATION, 0.1).title_chars == 12  # never below a word or two
    assert (figures.narrow(figures.STYLE, 0.5).title_chars, figures.narrow(figures.STYLE, 0.5).axis_title_chars) \
        == (36, 27)
    assert figures.narrow(replace(figures.STYLE, title_chars=None), 0.5).title_chars is None  # never broken stays so
    for bad in (0, -0.5, 1.5):
        with pytest.raises(ValueError, match="`share`"):
            figures.narrow(figures.STYLE, bad)


def test_a_wrapped_title_gets_its_own_room(curves):
    # Lab-meeting mode on a 1280 × 720 screen: half-width charts held ≈ 34 characters of title, so a 50-character
    # title ran off the chart; it now takes two lines and the top margin grows by one line (the plot's height
    # gives up the room, so a chart beside it keeps the same height).
    title, x_title = "Power vs true difference (1,200 judgments planned)", "True difference of the pair (DA points)"
    kwargs = dict(x="n", y="power", color="series", title=title, x_title=x_title,
                  y_title="P(wrong sign | significant)")
    full = validated(figures.curve_figure(curves, **kwargs, style=figures.PRESENTATION))
    half = validated(figures.curve_figure(curves, **kwargs, style=figures.narrow(figures.PRESENTATION, 0.5)))
    normal = validated(figures.curve_figure(curves, **kwargs, style=figures.STYLE))
    assert full.layout.title.text == title and normal.layout.title.text == title  # 50 characters fit at full width
    assert half.layout.title.text.count("<br>") == 1 and half.layout.xaxis.title.text.count("<br>") == 1
    # the first line sits mid-margin; the second 1.3 font sizes lower must end above the plot
    size = figures.PRESENTATION.title_size
    assert half.layout.margin.t / 2 + 1.3 * size + size / 2 < half.layout.margin.t
    assert full.layout.margin.t == 60
    assert half.layout.margin.b - full.layout.margin.b == round(1.3 * figures.PRESENTATION.font_size)
    # a y title longer than the plot is tall breaks too, and the left margin grows by a line
    tall = validated(figures.curve_figure(curves, **{**kwargs, "y_title": "Share of significant results with the "
                                                     "wrong sign"}, style=figures.PRESENTATION))
    assert full.layout.yaxis.title.text == "P(wrong sign | significant)"
    assert tall.layout.yaxis.title.text.count("<br>") == 1
    assert tall.layout.margin.l - full.layout.margin.l == round(1.3 * figures.PRESENTATION.font_size)
    # in the normal look the legend sits below the plot: it moves down by the x title's extra line
    low = validated(figures.curve_figure(curves, **kwargs, style=figures.narrow(figures.STYLE, 0.5)))
    assert low.layout.xaxis.title.text.count("<br>") == 1 and low.layout.legend.y < normal.layout.legend.y == -0.2
    assert half.layout.height == full.layout.height == figures.PRESENTATION.height  # rows of charts stay aligned
    assert normal.layout.height == figures.STYLE.height


def test_curve_series_are_pandas_selections_sorted_by_x():
    """Each trace holds the rows of one colour × dash value, in the order ``DataFrame.sort_values(x)`` gives
    (quicksort, missing x last), series in order of first appearance; rows with a missing label draw nothing."""
    import numpy as np
    import pandas as pd

    from core import figures

    rng = np.random.default_rng(7)
    n = 400
    frame = pd.DataFrame({"n": rng.integers(1, 40, n).astype(float), "power": rng.random(n),
                          "series": rng.choice(["b", "a", "c"], n), "kind": rng.choice(["exact", "normal"], n)})
    frame.loc[rng.choice(n, 9, replace=False), "n"] = np.nan
    frame.loc[rng.choice(n, 5, replace=False), "series"] = None
    fig = figures.curve_figure(frame, x="n", y="power", color="series", dash="kind", target=None)
    expected = []
    for cval in dict.fromkeys(frame["series"].dropna()):
        for dval in dict.fromkeys(frame["kind"]):
            part = frame[(frame["series"] == cval) & (frame["kind"] == dval)].sort_values("n")
            if len(part):
                expected.append((f"{cval}, {dval}", part["n"].to_numpy(), part["power"].to_numpy()))
    curves = [t for t in fig.data if t.mode == "lines"]
    assert [t.name for t in curves] == [name for name, _, _ in expected]
    for trace, (_, x, y) in zip(curves, expected):
        np.testing.assert_array_equal(np.asarray(trace.x, float), x)
        np.testing.assert_array_equal(np.asarray(trace.y, float), y)


# ---------------------------------------------------------------------------
# a right-hand legend fits beside its plot (lab-meeting mode)
# ---------------------------------------------------------------------------
def _family(series: int) -> pd.DataFrame:
    n = np.array([10, 100, 1000])
    return pd.DataFrame({"n": np.tile(n, series), "power": np.linspace(0, 1, 3 * series),
                         "s": np.repeat([f"series {k}" for k in range(series)], 3)})


@pytest.mark.parametrize("series", [2, 4, 6, 7, 9])
def test_presentation_legend_font_fits_its_entries(series):
    fig = figures.curve_figure(_family(series), x="n", y="power", color="s", current=(100, 0.5),
                               style=figures.PRESENTATION)
    entries = series + 1  # the curves and the current-design marker
    assert figures.legend_entries([t.to_plotly_json() for t in fig.data]) == entries
    size = fig.layout.legend.font.size or figures.PRESENTATION.font_size
    plot = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b - 2 * figures.PRESENTATION.font_size
    assert figures.LEGEND_MIN_FONT <= size <= figures.PRESENTATION.font_size
    # the rows fit (Chromium: 5 entries at 18 px take 142 px, i.e. 1.33 font sizes a row and 22 px of padding);
    # a font one pixel larger would not, unless the chart's own size already fits
    assert entries * figures.LEGEND_ROW * size + figures.LEGEND_PAD <= plot
    if size < figures.PRESENTATION.font_size:
        assert entries * figures.LEGEND_ROW * (size + 1) + figures.LEGEND_PAD > plot


def test_few_entries_and_the_normal_look_keep_their_legends():
    few = figures.curve_figure(_family(2), x="n", y="power", color="s", style=figures.PRESENTATION)
    assert few.layout.legend.font.size is None  # three entries fit at the chart's own 18 px
    normal = figures.curve_figure(_family(9), x="n", y="power", color="s", current=(100, 0.5))
    assert normal.layout.legend.orientation == "h" and normal.layout.legend.font.size is None


def test_tilted_category_labels_leave_less_room_for_the_legend():
    short = [{"type": "bar", "x": ["A", "B", "C"], "y": [1, 2, 3]}]
    long = [{"type": "bar", "x": ["ARC-Challenge", "HellaSwag", "HumanEval", "GSM8K", "MMLU"], "y": [1] * 5}]
    assert figures._tilted_labels(short, 18) == 0
    assert figures._tilted_labels(long, 18) == pytest.approx(0.5 * 13 * figures.CHAR_WIDTH * 18)
    layout = figures._layout(figures.PRESENTATION, title="", x_axis={}, y_axis={})
    assert figures.fit_legend(layout, 5)["legend"].get("font") is None
    assert figures.fit_legend(layout, 5, tilted=64)["legend"]["font"]["size"] < figures.PRESENTATION.font_size


@pytest.mark.parametrize("scale, unit, title", [(1.0, "", "Running difference (B − A)"),
                                                (100.0, "points", "Running difference (B − A, points)")])
def test_monitor_figure_draws_in_the_metrics_units(scale, unit, title):
    seq = pd.DataFrame({"n": [10, 20, 30], "estimate": [0.1, 0.05, 0.04], "lower": [-0.3, -0.1, -0.02],
                        "upper": [0.5, 0.2, 0.1]})
    fig = figures.monitor_figure(seq, looks=[50, 100], look_bounds=[0.08, 0.05], target=0.03, n_max=100,
                                 scale=scale, unit=unit)
    by_name = {t.name: t for t in fig.data}
    assert list(by_name["running estimate"].y) == pytest.approx([scale * v for v in seq["estimate"]])
    assert list(by_name["planned group boundaries"].y) == pytest.approx([scale * b for b in (0.08, 0.05, -0.08, -0.05)])
    assert fig.layout.yaxis.title.text == title
    assert any(s.y0 == pytest.approx(scale * 0.03) for s in fig.layout.shapes)


def test_log_ticks_are_round_1_2_5_values_around_the_data():
    values, labels = figures.log_ticks(16, 15_000)
    # every value is m·10^e with m in {1, 2, 5}, within a decade of the data, labelled with its own value
    assert all(round(v / 10 ** np.floor(np.log10(v)), 9) in (1, 2, 5) for v in values)
    assert min(values) >= 1.6 and max(values) <= 150_000 and {20, 500, 1000, 10_000} <= set(values)
    assert [labels[values.index(v)] for v in (20, 2000, 10_000)] == ["20", "2,000", "10k"]
    # a projector's larger fonts take one step fewer (1-3), many decades only their powers of ten
    assert set(figures.log_ticks(16, 15_000, font_size=18)[0]) == {3, 10, 30, 100, 300, 1000, 3000, 10_000, 30_000,
                                                                         100_000}
    assert figures.log_ticks(1, 1e9)[0] == [10.0 ** e for e in range(-1, 11)]
    assert figures.log_ticks(0.23, 8.2)[1][:3] == ["0.05", "0.1", "0.2"]
    # under one decade Plotly's own round labels stay; nonsense spans give none
    assert figures.log_ticks(200, 800) is None and figures.log_ticks(0, 100) is None
    assert figures.log_ticks(float("nan"), 100) is None


def test_log_axes_get_round_ticks_and_the_template_only_the_drawn_types(curves):
    fig = validated(figures.curve_figure(curves, x="n", y="power", color="series", current=(500, 0.25)))
    axis = fig.layout.xaxis
    assert axis.type == "log" and 50 in axis.tickvals and 5000 in axis.tickvals and "5,000" in axis.ticktext
    assert fig.layout.yaxis.tickvals is None  # a linear axis keeps Plotly's ticks
    assert set(fig.layout.template.data.to_plotly_json()) == {"scatter"}
    assert fig.layout.template.layout.colorway  # the template's look is kept
    # ticks a caller sets (the Type-M axis) are left alone
    m = figures.type_m_figure(curves, x="n", color="series", current=(500, 1.9), needed=2000, needed_text="80%")
    assert m.layout.yaxis.tickvals == (1, 1.25, 1.5, 2, 3, 5, 10) and 2000 in m.layout.xaxis.tickvals


@pytest.mark.parametrize("style", [figures.STYLE, figures.PRESENTATION])
def test_panels_put_figures_side_by_side_in_one_valid_figure(curves, style):
    """Two figures become the two panels of one (one chart to draw): every trace on its panel's axes, the domains
    apart, each reference line and its label on its own panel (a ``paper`` reference becomes the panel's domain),
    a name shared by both panels listed once in the legend and toggling both, and the figure's own title."""
    half = figures.narrow(style, 0.5)
    left = figures.curve_figure(curves, x="n", y="power", color="series", current=(500, 0.249), target=0.8,
                                y_range=(0, 1.02), style=half)
    right = figures.curve_figure(curves, x="n", y="type_m", color="series", current=(500, 2.0), target=None,
                                 lines=[figures.Line(y=1.0, text="no exaggeration")], style=half)
    fig = validated(figures.panels([left, right], title="Power and exaggeration", style=style))
    assert len(fig.data) == len(left.data) + len(right.data)
    assert [t.xaxis for t in fig.data] == ["x"] * len(left.data) + ["x2"] * len(right.data)
    assert [t.yaxis for t in fig.data] == ["y"] * len(left.data) + ["y2"] * len(right.data)
    (a0, a1), (b0, b1) = fig.layout.xaxis.domain, fig.layout.xaxis2.domain
    assert 0 <= a0 < a1 < b0 < b1 <= 1
    assert fig.layout.xaxis.type == fig.layout.xaxis2.type == "log"
    assert fig.layout.xaxis2.anchor == "y2" and fig.layout.yaxis2.anchor == "x2"
    refs = {(s.xref, s.yref, s.y0) for s in fig.layout.shapes}
    assert ("x domain", "y", 0.8) in refs and ("x2 domain", "y2", 1.0) in refs
    labels = {a.text: (a.xref, a.yref) for a in fig.layout.annotations}
    assert labels["no exaggeration"] == ("x2 domain", "y2")
    shown = [t.name for t in fig.data if t.showlegend is not False]
    assert sorted(shown) == sorted({t.name for t in fig.data}) and len(shown) == len(set(shown))
    assert all(t.legendgroup == t.name for t in fig.data)
    assert fig.layout.title.text == "Power and exaggeration" and fig.layout.height == style.height
    # without a figure title each panel keeps its own, above it
    titled = validated(figures.panels([figures.curve_figure(curves, x="n", y="power", color="series", title="A"),
                                       figures.curve_figure(curves, x="n", y="power", color="series", title="B")]))
    assert {(a.text, a.xref) for a in titled.layout.annotations} >= {("A", "x domain"), ("B", "x2 domain")}
    with pytest.raises(ValueError, match="`figs`"):
        figures.panels([])

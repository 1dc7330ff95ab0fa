"""core.figures: every builder's output is a valid Plotly figure (oracle: Plotly's own schema validation).

The builders skip per-property validation for speed (``go.Figure(spec, _validate=False)``); these tests
rebuild each figure with full validation, so an invalid property fails here instead of in the browser.
"""

from __future__ import annotations

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
    # Plotly renders a subset of HTML in labels; pages pass user names through html.escape
    import html

    fig = validated(figures.histogram_figure({html.escape('<a href="http://x">click</a>'): [1.0, 2.0]}))
    assert "<a" not in fig.data[0].name

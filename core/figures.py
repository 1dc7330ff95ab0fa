"""Plotly figure builders shared by the pages.

Every power chart draws the conventional 80% power line (Cohen 1962; Card et
al. 2020 Figure 3) and a marker at the current design, and carries hover
values, so the pages stay thin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "PALETTE",
    "add_reference_line",
    "curve_figure",
    "difference_distribution_figure",
    "leaderboard_figure",
    "mde_table_figure",
]

#: Colour-blind-safe palette (Okabe & Ito 2008).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
_DASHES = ("solid", "dash", "dot", "dashdot")
_LAYOUT = dict(
    template="plotly_white",
    margin=dict(l=60, r=20, t=60, b=40),
    legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0),
    height=480,
    hovermode="closest",
    font=dict(size=14),
)


def add_reference_line(fig: go.Figure, *, x: float | None = None, y: float | None = None, text: str = "",
                       log_y: bool = False, color: str = "#555555") -> go.Figure:
    """Dashed reference line with a readable label (works on log axes too).

    Plotly places annotations on log axes in log10 units, and the shorthand
    ``add_hline(annotation_text=...)`` gets that wrong; labels are added here
    explicitly.
    """
    line = dict(color=color, dash="dash", width=1.5)
    if x is not None:
        fig.add_vline(x=x, line=line)
        if text:
            fig.add_annotation(x=math.log10(x) if fig.layout.xaxis.type == "log" else x, y=1.0, yref="paper",
                               text=text, showarrow=False, xanchor="left", yanchor="top", xshift=4,
                               font=dict(color=color), bgcolor="rgba(255,255,255,0.85)")
    if y is not None:
        fig.add_hline(y=y, line=line)
        if text:
            fig.add_annotation(x=1.0, xref="paper", y=math.log10(y) if log_y else y, text=text, showarrow=False,
                               xanchor="right", yanchor="bottom", font=dict(color=color),
                               bgcolor="rgba(255,255,255,0.85)")
    return fig


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
    y_range: Sequence[float] | None = None,
    color_format: str = "{}",
    dash_format: str = "{}",
    hover_format: str = ".3f",
) -> go.Figure:
    """Family of curves ``y`` vs ``x``, one per value of ``color`` (× ``dash``).

    Parameters
    ----------
    data : DataFrame
        Tidy data with columns ``x``, ``y``, ``color`` (and ``dash``).
    current : (x, y), optional
        The current design, drawn as a large marker.
    target : float, optional
        Horizontal reference line (the 80% power line); None to omit.
    color_format, dash_format : str
        ``str.format`` patterns for legend labels.
    """
    fig = go.Figure()
    dash_values = list(dict.fromkeys(data[dash])) if dash else [None]
    color_values = list(dict.fromkeys(data[color]))
    for ci, cval in enumerate(color_values):
        for di, dval in enumerate(dash_values):
            part = data[data[color] == cval]
            if dash:
                part = part[part[dash] == dval]
            part = part.sort_values(x)
            if part.empty:
                continue
            label = color_format.format(cval)
            if dash and len(dash_values) > 1:
                label += ", " + dash_format.format(dval)
            fig.add_trace(
                go.Scatter(
                    x=part[x],
                    y=part[y],
                    mode="lines",
                    name=label,
                    line=dict(color=PALETTE[ci % len(PALETTE)], dash=_DASHES[di % len(_DASHES)], width=2.5),
                    hovertemplate=f"{label}<br>{x_title or x}: %{{x:,}}<br>{y_title or y}: %{{y:{hover_format}}}<extra></extra>",
                )
            )
    if log_x:
        fig.update_xaxes(type="log")
    if target is not None:
        add_reference_line(fig, y=target, text=f"{target:.0%} power")
    if current is not None and all(v is not None and math.isfinite(v) for v in current):
        fig.add_trace(
            go.Scatter(
                x=[current[0]],
                y=[current[1]],
                mode="markers",
                name="current design",
                marker=dict(size=15, color="#000000", symbol="diamond", line=dict(color="white", width=2)),
                hovertemplate=f"current design<br>{x_title or x}: %{{x:,}}<br>{y_title or y}: %{{y:{hover_format}}}<extra></extra>",
            )
        )
    fig.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title, **_LAYOUT)
    if y_range is not None:
        fig.update_yaxes(range=list(y_range))
    return fig


def difference_distribution_figure(
    dist: pd.DataFrame,
    *,
    true_effect: float,
    mean_significant: float | None,
    title: str = "",
    x_title: str = "Observed difference",
    scale: float = 100.0,
    unit: str = " pp",
) -> go.Figure:
    """Figure 1 of Card et al.: sampling distribution with significant samples highlighted.

    ``dist`` comes from :func:`core.accuracy.difference_distribution`; values
    are multiplied by ``scale`` (percentage points by default).
    """
    width = float((dist["diff_high"] - dist["diff_low"]).iloc[0]) * scale
    mids = dist["diff_mid"] * scale
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=mids,
            y=dist["prob_not_significant"],
            width=width,
            name="not significant",
            marker_color="#BBBBBB",
            hovertemplate=f"difference %{{x:.2f}}{unit}<br>P(not significant) %{{y:.4f}}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Bar(
            x=mids,
            y=dist["prob_significant"],
            width=width,
            name="significant",
            marker_color=PALETTE[1],
            hovertemplate=f"difference %{{x:.2f}}{unit}<br>P(significant) %{{y:.4f}}<extra></extra>",
        )
    )
    fig.update_layout(barmode="stack", bargap=0.02)
    lines = [(0.0, "no difference", "#333333", "dash", 1.10), (true_effect * scale, "true difference", PALETTE[0],
                                                                 "solid", 1.04)]
    if mean_significant is not None and math.isfinite(mean_significant):
        lines.append((mean_significant * scale, "mean of significant results", PALETTE[1], "dot", 0.98))
    for x_value, label, colour, dash, y_label in lines:
        fig.add_vline(x=x_value, line=dict(color=colour, dash=dash, width=3 if dash != "dash" else 1.5))
        fig.add_annotation(x=x_value, y=y_label, yref="paper", text=label, showarrow=False, xanchor="left",
                           font=dict(color=colour, size=13), bgcolor="rgba(255,255,255,0.8)")
    fig.update_layout(title=title, xaxis_title=x_title + f" ({unit.strip()})", yaxis_title="Probability", **_LAYOUT)
    return fig


def leaderboard_figure(board: pd.DataFrame, *, target: float = 0.8) -> go.Figure:
    """Figure 10 of Card et al.: SQuAD 2.0 submissions over time, coloured by power."""
    fig = go.Figure()
    groups = [
        ("≥ {:.0%} power on dev, significant on test (new SOTA)".format(target), board["new_sota"], PALETTE[2], "star", 14),
        ("≥ {:.0%} power, not significant".format(target), board["powered"] & ~board["new_sota"], PALETTE[0], "circle", 10),
        ("under-powered, significant improvement", ~board["powered"] & board["significant_improvement"], PALETTE[1], "x", 11),
        ("under-powered", ~board["powered"] & ~board["significant_improvement"], "#AAAAAA", "circle-open", 7),
    ]
    for name, mask, colour, symbol, size in groups:
        part = board[mask]
        fig.add_trace(
            go.Scatter(
                x=part["date"],
                y=part["test_em"],
                mode="markers",
                name=name,
                marker=dict(color=colour, symbol=symbol, size=size),
                customdata=np.stack(
                    [part["description"], part["power"], part["delta_dev"] * 100, part["p_test"]], axis=-1
                ) if len(part) else None,
                hovertemplate=(
                    "%{customdata[0]}<br>test EM %{y:.2f}<br>power %{customdata[1]:.2f}"
                    "<br>dev Δ vs SOTA %{customdata[2]:.2f} pp<br>test p ≈ %{customdata[3]:.3g}<extra></extra>"
                ),
            )
        )
    sota = board[board["new_sota"]]
    fig.add_trace(
        go.Scatter(
            x=sota["date"], y=sota["test_em"], mode="lines", line=dict(shape="hv", color=PALETTE[2], width=1.5),
            name="SOTA under the power rule", hoverinfo="skip",
        )
    )
    fig.update_layout(title="SQuAD 2.0 submissions vs the state of the art at the time",
                      xaxis_title="Submission date", yaxis_title="Test exact match (%)", **_LAYOUT)
    return fig


def mde_table_figure(table: pd.DataFrame, *, current_delta: float | None = None, target: float = 0.8) -> go.Figure:
    """Table 2 as a chart: each task's MDE next to its mean reported improvement."""
    tasks = table["task"]
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=tasks, y=table["mde_regression"] * 100, name="MDE (regression prior)", marker_color=PALETTE[0],
        hovertemplate="%{x}<br>MDE %{y:.2f} pp<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=tasks, y=table["mean_reported_delta"] * 100, mode="markers", name="mean reported improvement",
        marker=dict(color=PALETTE[1], size=12, symbol="diamond"),
        hovertemplate="%{x}<br>mean reported Δ %{y:.2f} pp<extra></extra>",
    ))
    if current_delta is not None and current_delta > 0:
        add_reference_line(fig, y=current_delta * 100, text="your expected Δ", log_y=True)
    fig.update_layout(title=f"Minimum detectable effect at {target:.0%} power vs typical improvements",
                      yaxis_title="Accuracy difference (pp)", yaxis_type="log", **_LAYOUT)
    return fig

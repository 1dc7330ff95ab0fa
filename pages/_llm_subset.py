"""The LLM page's "Run a subset instead" tab (UI only: widgets built from ``core.llm.SubsetDesign``'s declared
fields → one design → one cached call per output).

A seeded random subset of m of the benchmark's N items: its SE around the full run (finite-population correction),
P(same winner as the full run) (exact multivariate hypergeometric), the m for ± a half-width and for a target
agreement, the item list to run, and the prediction-assisted (difference) estimator from an uploaded models × items
correctness matrix, with the best a prediction-assisted (or stratified) subset can do when difficulties follow
Beta(a, b).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import llm
from core.export import csv_bytes
from core.llm import plan as llm_plan
from core.llm.snippet import subset_snippet
from pages._fields import field_input
from pages._links import narrowed
from pages._scaffold import (
    Metric,
    cached,
    chart,
    chart_row,
    code_view,
    current_link,
    fmt_pct,
    guard,
    metrics_row,
    plan_actions,
    safe_message,
    style,
)
from pages._llm_subset_data import correctness_matrix

SUBSET_VIEW = "Run a subset instead"
Z95 = 1.959963984540054
S = llm.SubsetDesign


# one cached call per output, each taking the tab's one design (frozen, hashed by value)
@cached
def se(design: llm.SubsetDesign) -> float:
    return design.se()


@cached
def agreement(design: llm.SubsetDesign) -> float:
    return design.agreement()


@cached
def m_for_halfwidth(design: llm.SubsetDesign) -> int:
    return design.size_for_halfwidth()


@cached
def m_for_agreement(design: llm.SubsetDesign) -> int:
    return design.size_for_agreement()


@cached
def curves(design: llm.SubsetDesign, ms) -> pd.DataFrame:
    return design.curves(ms)


@cached
def subset_items(design: llm.SubsetDesign) -> pd.DataFrame:
    return design.items()


@cached
def assisted(matrix: pd.DataFrame, design: llm.SubsetDesign):
    return design.assisted(matrix)


def _input(name: str, box, **options):
    """The widget of a declared field of the tab's design, with the tab's label."""
    return field_input(S, name, box, label=S.field(name).label, **options)


def inputs() -> dict | None:
    """The tab's inputs above its metrics; None (with a warning) when the only-A and only-B counts cannot make a
    design (the engines need a winner, within the benchmark)."""
    c1, c2, c3 = st.columns(3)
    values = dict(n_total=_input("n_total", c1))
    # the subset is at most the benchmark: the widget ends at N, and starts at 500 or N
    at_most_n = dataclasses.replace(S.field("m"), ui_high=values["n_total"])
    narrowed(at_most_n)  # a link asking for more than N is told this range, not the declared one
    values["m"] = field_input(at_most_n, "m", c1, label=S.field("m").label,
                              default=min(llm.SUBSET_M, values["n_total"]))
    values.update({name: _input(name, c2, widget="slider") for name in ("accuracy", "a_only_share", "b_only_share")})
    values.update({name: _input(name, c3, widget="slider") for name in ("halfwidth", "target_agreement")})
    try:
        S(**values)  # the checks spanning fields, before the widgets below the charts are drawn
    except ValueError as e:
        if "only_share`" not in str(e):
            raise
        st.warning("Only-A and only-B items must differ (the full run needs a winner) and fit in the benchmark.")
        return None
    return values


def subset_view(plotted: dict) -> None:
    """The tab: inputs, metrics, SE and agreement charts, the item list, the prediction-assisted SE."""
    values = inputs()
    if values is None:
        return
    results = st.container()  # the metrics and charts, drawn once the widgets below them are read
    values["seed"] = _input("seed", st.container())
    download = st.container()
    st.subheader("Prediction-assisted subset")
    left, right = st.columns(2)
    values.update(beta_a=_input("beta_a", left, widget="slider"), beta_b=_input("beta_b", left, widget="slider"))
    d = S(**values)
    with results:
        numbers = _results(d, plotted)
    # drawn when the button is clicked (a million-item benchmark takes ≈ 2 s), not in every rerun
    download.download_button("Download the item list (CSV)", lambda: csv_bytes(subset_items(d)),
                             file_name="subset_item_list.csv", mime="text/csv", key="sub_items_csv",
                             on_click="ignore", help="The m item indices (0 … N − 1, the harness's doc_id order) to "
                             "run, the same for every model.")
    _assisted_section(d, right, plotted)
    snippet = subset_snippet(d)
    plan_actions(lambda: llm_plan.subset_plan_item(d, se=numbers["se"], agreement=numbers["agreement"],
                                           m_for_halfwidth=numbers["m_hw"], m_for_agreement=numbers["m_ag"],
                                           link=current_link(), code=snippet), key="llm_subset")
    code_view(snippet, key="llm_subset_code")


def _results(d: llm.SubsetDesign, plotted: dict) -> dict:
    """The metrics row and the SE and agreement charts."""
    m, n_total, hw, target_ag = d.m, d.n_total, d.halfwidth, d.target_agreement
    ms = tuple(sorted(set(np.unique(np.geomspace(min(10, n_total), n_total, 50).astype(int)).tolist()) | {m}))
    numbers = dict(se=se(d), agreement=agreement(d), m_hw=m_for_halfwidth(d), m_ag=m_for_agreement(d))
    se_, agree = numbers["se"], numbers["agreement"]
    metrics_row(Metric("SE vs the full run", f"{100 * se_:.2f} pts",
                       help="√(p(1 − p)/m · (N − m)/(N − 1)): without replacement, around the full run's score; in "
                       "accuracy points."),
                Metric("95% of full run", f"±{100 * Z95 * se_:.1f} pts", help="1.96 × SE, in accuracy points."),
                Metric("Same winner as the full run", fmt_pct(agree),
                       help="Exact multivariate hypergeometric; a tie in the subset counts one half.",
                       caption=f"{d.a_only:,} only-A vs {d.b_only:,} only-B items "
                               f"(gain {100 * (d.b_only - d.a_only) / n_total:+.1f} pts)"),
                Metric("Items for the half-width", f"{numbers['m_hw']:,}",
                       help="Fewest m with 1.96 × SE ≤ the half-width."),
                Metric("Items for the target agreement", f"{numbers['m_ag']:,}",
                       help="The m at which the exact agreement first reaches the target."))
    frame = curves(d, ms)
    plotted["subset_curves"] = frame
    (left, right), (s1, s2) = chart_row(2)
    frame = frame.assign(series="random subset")
    # in accuracy points, as the metrics read it
    chart(figures.curve_figure(frame.assign(se=100 * frame["se"]), x="m", y="se", color="series",
                               current=(m, 100 * se_), target=None,
                               lines=[figures.Line(y=100 * hw / Z95, text=f"± {100 * hw:g} pts")], log_y=True,
                               hover_format=".2f", title="SE of the subset's score vs the full run",
                               x_title="Items in the subset m", y_title="Standard error (points)", style=style(s1)),
          "subset_se_chart", container=left)
    chart(figures.curve_figure(frame, x="m", y="agreement", color="series", current=(m, agree), target=None,
                               lines=[figures.Line(y=target_ag, text=f"target {fmt_pct(target_ag)}")],
                               title="P(same winner as the full run)", x_title="Items in the subset m",
                               y_title="Agreement", y_range=(0.45, 1.01), style=style(s2)),
          "subset_agreement_chart", container=right)
    return numbers


def _assisted_section(d: llm.SubsetDesign, c2, plotted: dict) -> None:
    m = d.m
    bound = d.variance_bound()
    c2.metric("Best saving of a prediction-assisted subset", fmt_pct(1 - bound.variance_ratio),
              help="With every item's p_i known (a perfect IRT fit), the difference estimator on a random subset "
              "leaves E[p(1 − p)] = ab/((a + b)(a + b + 1)) of the variance μ(1 − μ): the ratio (a + b)/(a + b + 1) "
              f"is the least share of items it needs. Sampling in strata of p with optimal allocation saves up to "
              f"{fmt_pct(1 - bound.stratified_ratio)}. Both stay unbiased whatever the predictor; model-based "
              "estimators (tinyBenchmarks' p-IRT) can save more only by trusting their model.")
    matrix, name = correctness_matrix()
    if matrix is None:
        return
    with guard("Cannot read the correctness file", stop=False):
        if m > matrix.shape[1]:
            st.warning(f"The file has {matrix.shape[1]:,} items, fewer than m = {m:,}: lower m.")
            return
        res = assisted(matrix, d)
        st.markdown(f"{safe_message(name)}: **{res.n_models}** models × **{res.n_items:,}** items; with m = {m:,} "
                    f"the difference estimator keeps **{fmt_pct(res.variance_ratio)}** of the plain subset's variance.")
        plotted["prediction_assisted"] = res.table
        st.dataframe(res.table, hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(format="%.4f")
                                    for c in ("accuracy", "se_subset", "se_assisted", "variance_ratio")})

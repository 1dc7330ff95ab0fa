"""The LLM page's "Run a subset instead" tab (UI only; numbers from core.llm.subset).

A seeded random subset of m of the benchmark's N items: its SE around the full run (finite-population correction),
P(same winner as the full run) (exact multivariate hypergeometric), the m for ± a half-width and for a target
agreement, the item list to run, and the prediction-assisted (difference) estimator from an uploaded models × items
correctness matrix, with the best any IRT or stratified subset can do when difficulties follow Beta(a, b).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import llm
from core.export import csv_bytes
from core.llm import plan as llm_plan
from core.runnable import item_list
from core.llm.snippet import subset_snippet
from pages._scaffold import (
    Metric,
    cached,
    cached_upload,
    chart,
    code_view,
    current_link,
    fmt_pct,
    guard,
    metrics_row,
    plan_actions,
    safe_message,
    style,
)

SUBSET_VIEW = "Run a subset instead"
Z95 = 1.959963984540054


@cached
def subset_numbers(m, n_total, accuracy, a_only, b_only, halfwidth, target_agreement, ms):
    se = llm.subset_se(m, n_total, accuracy)
    agree = llm.subset_agreement(m, n_total=n_total, a_only=a_only, b_only=b_only)
    m_hw = llm.subset_size(n_total, accuracy, halfwidth)
    m_ag = llm.subset_size_for_agreement(n_total, a_only, b_only, target_agreement=target_agreement)
    curves = llm.subset_curve(ms, n_total=n_total, accuracy=accuracy, a_only=a_only, b_only=b_only)
    return se, agree, m_hw, m_ag, curves


@cached
def subset_items(n_total, m, seed):
    return item_list(range(n_total), m, seed=seed)


@cached_upload
def read_matrix(data: bytes, name: str):
    return llm.read_correctness(data, name=name)


@cached
def assisted(matrix: pd.DataFrame, m):
    return llm.prediction_assisted_se(matrix, m)


def subset_view(plotted: dict) -> None:
    """The tab: inputs, metrics, SE and agreement charts, the item list, the prediction-assisted SE."""
    c1, c2, c3 = st.columns(3)
    n_total = int(c1.number_input("Items in the benchmark N", 10, 1_000_000, 5000, 100, key="sub_total",
                                  bind="query-params", help="The full run's items."))
    m = int(c1.number_input("Items in the subset m", 1, n_total, min(500, n_total), 50, key="sub_m",
                            bind="query-params", help="Drawn at random without replacement, the same for both "
                            "models (not the first m, which the harness's --limit takes)."))
    acc = c2.slider("Accuracy (%)", 1.0, 99.0, 70.0, 0.5, key="sub_acc", bind="query-params",
                    help="The full run's accuracy of the model whose score you report.") / 100
    a_pct = c2.slider("Only A right (% of items)", 0.0, 50.0, 5.0, 0.5, key="sub_a_only", bind="query-params",
                      help="Items the baseline A gets right and B wrong.")
    b_pct = c2.slider("Only B right (% of items)", 0.0, 50.0, 8.0, 0.5, key="sub_b_only", bind="query-params",
                      help="Items B gets right and A wrong; B's gain is the difference.")
    hw = c3.slider("Half-width (points)", 0.2, 10.0, 2.0, 0.1, key="sub_hw", bind="query-params",
                   help="± of the subset's score around the full run's, at 95%.") / 100
    target_ag = c3.slider("Target agreement (%)", 60.0, 99.9, 95.0, 0.1, key="sub_target", bind="query-params",
                          help="P(the subset picks the full run's winner) to reach.") / 100
    a_only, b_only = round(a_pct / 100 * n_total), round(b_pct / 100 * n_total)
    if a_only == b_only or a_only + b_only > n_total:
        st.warning("Only-A and only-B items must differ (the full run needs a winner) and fit in the benchmark.")
        return
    ms = tuple(sorted(set(np.unique(np.geomspace(min(10, n_total), n_total, 50).astype(int)).tolist()) | {m}))
    se, agree, m_hw, m_ag, curves = subset_numbers(m, n_total, acc, a_only, b_only, hw, target_ag, ms)
    metrics_row(Metric("SE vs the full run", f"{100 * se:.2f} pts",
                       help="√(p(1 − p)/m · (N − m)/(N − 1)): without replacement, around the full run's score; in "
                       "accuracy points."),
                Metric("95% of full run", f"±{100 * Z95 * se:.1f} pts", help="1.96 × SE, in accuracy points."),
                Metric("Same winner as the full run", fmt_pct(agree),
                       help="Exact multivariate hypergeometric; a tie in the subset counts one half.",
                       caption=f"{a_only:,} only-A vs {b_only:,} only-B items (gain {100 * (b_only - a_only) / n_total:+.1f} pts)"),
                Metric("Items for the half-width", f"{m_hw:,}", help="Fewest m with 1.96 × SE ≤ the half-width."),
                Metric("Items for the target agreement", f"{m_ag:,}",
                       help="The m at which the exact agreement first reaches the target."))
    plotted["subset_curves"] = curves
    left, right = st.columns(2)
    curves = curves.assign(series="random subset")
    chart(figures.curve_figure(curves, x="m", y="se", color="series", current=(m, se), target=None,
                               lines=[figures.Line(y=hw / Z95, text=f"± {100 * hw:g} pts")], log_y=True,
                               hover_format=".4f", title="SE of the subset's score vs the full run",
                               x_title="Items in the subset m", y_title="Standard error", style=style(0.5)),
          "subset_se_chart", container=left)
    chart(figures.curve_figure(curves, x="m", y="agreement", color="series", current=(m, agree), target=None,
                               lines=[figures.Line(y=target_ag, text=f"target {fmt_pct(target_ag)}")],
                               title="P(same winner as the full run)", x_title="Items in the subset m",
                               y_title="Agreement", y_range=(0.45, 1.01), style=style(0.5)),
          "subset_agreement_chart", container=right)
    seed = int(st.number_input("Seed of the item list", 0, 2**31 - 1, 0, key="sub_seed", bind="query-params",
                               help="The same seed gives the same list; keep it in your plan."))
    # drawn when the button is clicked (a million-item benchmark takes ≈ 2 s), not in every rerun
    st.download_button("Download the item list (CSV)", lambda: csv_bytes(subset_items(n_total, m, seed)),
                       file_name="subset_item_list.csv", mime="text/csv", key="sub_items_csv", on_click="ignore",
                       help="The m item indices (0 … N − 1, the harness's doc_id order) to run, the same for every "
                       "model.")
    _assisted_section(m, plotted)
    snippet = subset_snippet(m=m, n_total=n_total, accuracy=acc, a_only=a_only, b_only=b_only, halfwidth=hw,
                             target_agreement=target_ag, seed=seed)
    plan_actions(llm_plan.subset_plan_item(m=m, n_total=n_total, accuracy=acc, a_only=a_only, b_only=b_only, se=se,
                                           agreement=agree, halfwidth=hw, m_for_halfwidth=m_hw,
                                           target_agreement=target_ag, m_for_agreement=m_ag, seed=seed,
                                           link=current_link(), code=snippet), key="llm_subset")
    code_view(snippet, key="llm_subset_code")


def _assisted_section(m: int, plotted: dict) -> None:
    st.subheader("Prediction-assisted subset")
    c1, c2 = st.columns(2)
    a = c1.slider("Item difficulty Beta a", 0.1, 10.0, 2.0, 0.1, key="sub_beta_a", bind="query-params",
                  help="Items' probabilities of being right ~ Beta(a, b); the bound below assumes they are known "
                  "exactly (the ideal IRT fit).")
    b = c1.slider("Item difficulty Beta b", 0.1, 10.0, 1.0, 0.1, key="sub_beta_b", bind="query-params",
                  help="See a; mean accuracy a/(a + b).")
    bound = llm.subset_variance_bound(a, b)
    c2.metric("Best saving of any IRT or stratified subset", fmt_pct(1 - bound.variance_ratio),
              help="Known p_i leave E[p(1 − p)] = ab/((a + b)(a + b + 1)) of the variance μ(1 − μ): the ratio "
              "(a + b)/(a + b + 1) is the least share of items any predictor needs.")
    up = st.file_uploader("Models × items correctness (CSV/TSV)", type=["csv", "tsv", "txt"], key="sub_file",
                          help="One row per model (first column its name), one column per item, 0/1 or scores in "
                          "[0, 1]; or a long table model, item, score. Nothing in the file is executed.")
    # the tab's uploader is not drawn while another tab is open, and Streamlit then forgets its file: the last file
    # read is kept for this session (one file), so a tab switch does not lose it
    if up is not None:
        st.session_state["sub_file_kept"] = (up.name, up.getvalue())
    kept = st.session_state.get("sub_file_kept")
    if up is None and kept is not None:
        st.caption(f"Using {safe_message(kept[0])} (uploaded earlier in this session).")
        st.button("Forget this file", key="sub_file_forget", on_click=lambda: st.session_state.pop("sub_file_kept", None))
    if up is None and kept is None:
        st.caption("Upload past models' per-item results to see the difference estimator's SE: the mean prediction "
                   "over all items plus the mean residual on the subset (unbiased whatever the predictor), each model "
                   "predicted by the other models' item means.")
        return
    name, data = kept
    with guard("Cannot read the correctness file", stop=False):
        matrix = read_matrix(data, name)
        if m > matrix.shape[1]:
            st.warning(f"The file has {matrix.shape[1]:,} items, fewer than m = {m:,}: lower m.")
            return
        res = assisted(matrix, m)
        st.markdown(f"{safe_message(name)}: **{res.n_models}** models × **{res.n_items:,}** items; with m = {m:,} "
                    f"the difference estimator keeps **{fmt_pct(res.variance_ratio)}** of the plain subset's variance.")
        plotted["prediction_assisted"] = res.table
        st.dataframe(res.table, hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(format="%.4f")
                                    for c in ("accuracy", "se_subset", "se_assisted", "variance_ratio")})

"""The Judge page's "Which items to label" and "Labels per item" tabs (UI only; numbers from core.judge).

Active labelling (Zrnic & Candès 2024) and labels per item vs more items (Dorner & Hardt 2024). Each tab has its own
inputs (bound to the URL), metrics row, chart with the target and the current design, CSV, plan and code view.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import judge as jg
from core.plan import judge as judge_plan
from core.snippets import active_snippet, labels_snippet
from pages._scaffold import (
    Metric,
    cached,
    chart,
    code_view,
    current_link,
    download_csv,
    fmt_money,
    metrics_row,
    plan_actions,
    safe_message,
    style,
)

ACTIVE_VIEW = "Which items to label"
LABELS_VIEW = "Labels per item"
SOURCES = {"beta": "Beta(a, b)", "calibration": "calibration file"}


@cached
def beta_design(a, b, n_items, n_human, share):
    return jg.ActiveDesign(tuple(jg.beta_confidences(a, b, n_items).tolist()), n_human, share)


@cached
def calibrated(cal: pd.DataFrame):
    return tuple(jg.calibrated_confidence(cal["human"], cal["judge"]).tolist())


@cached
def active_numbers(design: jg.ActiveDesign, target_se, ns):
    se = {p: design.se(p) for p in jg.POLICIES}
    need = {p: design.labels_for_se(target_se, p) for p in jg.POLICIES}
    return se, need, design.curve(ns)


@cached
def active_items(design: jg.ActiveDesign, seed):
    return design.item_list(seed)


@cached
def labels_plan(p10, p01, kappa, prevalence, cost_item, cost_label, alpha, target, max_labels):
    return jg.labels_per_item(p10, p01, kappa=kappa, prevalence=prevalence, cost_item=cost_item,
                              cost_label=cost_label, alpha=alpha, target_power=target, max_labels=max_labels)


def _se(x) -> str:
    """The SE of a mean 0/1 human label (a label rate) in points, as the page's headline SE."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.2f} pts"


def _need(k) -> str:
    return "not reachable" if k is None or k < 0 else f"{k:,}"


def active_view(cal: pd.DataFrame | None, origin: str | None, plotted: dict) -> None:
    """The "Which items to label" tab: human-only vs uniform vs active SE against human labels, and the item list."""
    c1, c2, c3 = st.columns(3)
    source = c1.radio("Judge confidences from", list(SOURCES), key="al_source", bind="query-params",
                      format_func=SOURCES.get,
                      help="A Beta(a, b) spread of the judge's calibrated probabilities, or the items of the file in "
                      "the tab 'Calibrate from your labels' (each item's P(human = 1 | the judge's output), binned).")
    share = c1.slider("Uniform share", 0.0, 1.0, 0.0, 0.05, key="al_share", bind="query-params",
                      help="Share of the labels spread uniformly (Li, Zrnic & Candès 2025): a floor on every item's "
                      "probability, in case the judge's uncertainties are wrong. 1 = uniform.")
    if source == "beta":
        a = c2.slider("Beta a", 0.1, 10.0, 0.5, 0.1, key="al_a", bind="query-params",
                      help="Judge confidences f ~ Beta(a, b): a = b = 0.5 is a confident judge (most f near 0 or 1), "
                      "a = b = 5 an unsure one.")
        b = c2.slider("Beta b", 0.1, 10.0, 0.5, 0.1, key="al_b", bind="query-params", help="See a; mean a/(a + b).")
        n_items = int(c3.number_input("Items scored by the judge N", 10, 200_000, 1000, 100, key="al_items",
                                      bind="query-params", help="The pool the human labels are drawn from."))
        src_text = f"Beta({a:g}, {b:g}) quantiles over {n_items:,} items"
    else:
        if cal is None:
            st.info("Upload a calibration file (or choose the built-in sample) in the tab **Calibrate from your "
                    "labels**: its items and the judge's outputs are the pool.")
            return
        conf = calibrated(cal)
        n_items = len(conf)
        src_text = f"calibrated judge outputs of {origin}"
        st.caption(f"{n_items:,} items from {safe_message(origin)}; f = share of human 1-labels per judge output.")
    n_human = int(c3.number_input("Human labels n (expected)", 1, n_items, min(100, n_items), 10, key="al_n",
                                  bind="query-params", help="Σπ_i: each item is labelled with probability π_i."))
    target_se = c2.slider("Target SE", 0.002, 0.1, 0.03, 0.001, format="%.3f", key="al_target",
                          bind="query-params", help="The SE of the estimated mean label to reach (the chart's line).")
    design = (beta_design(a, b, n_items, n_human, share) if source == "beta"
              else jg.ActiveDesign(conf, n_human, share))
    ns = tuple(sorted(set(np.unique(np.geomspace(1, n_items, 50).astype(int)).tolist()) | {n_human}))
    se, need, curves = active_numbers(design, target_se, ns)
    metrics_row(Metric("SE, human labels only", _se(se["human"]), help="√(p̄(1 − p̄)/n), p̄ the mean confidence."),
                Metric("SE, uniform labels (PPI)", _se(se["uniform"]),
                       help="Judge on every item + n uniformly random human labels (PPI, λ = 1)."),
                Metric("SE, active labels", _se(se["active"]),
                       help="π_i ∝ √(f_i(1 − f_i)), capped at 1; inverse-probability weighted (Zrnic & Candès 2024)."),
                Metric("Active labels for the target SE", _need(need["active"]),
                       help="Fewest expected labels whose active SE is at most the target.",
                       caption=f"human only: {_need(need['human'])}"))
    plotted["se_vs_labels_by_policy"] = curves
    fig = figures.curve_figure(curves, x="n_human", y="se", color="label", current=(n_human, se["active"]),
                               target=None, lines=[figures.Line(y=target_se, text="target SE")], log_y=True,
                               hover_format=".4f", title="Standard error vs human labels: which items to label",
                               x_title="Human labels n", y_title="Standard error", style=style())
    chart(fig, "active_chart")
    st.caption("Assumes a calibrated judge (E[Y | f] = f); the estimate itself is unbiased whatever the judge. The SE "
               "is for the population's mean label (adds p̄(1 − p̄)/N): labelling all N items gives the human-only SE "
               "at n = N.")
    seed = int(st.number_input("Seed of the item list", 0, 2**31 - 1, 0, key="al_seed", bind="query-params",
                               help="The same seed gives the same list; keep it in your plan."))
    items = active_items(design, seed)
    download_csv(items, "active_item_list.csv", key="al_items_csv", label="Download the item list (CSV)",
                 help="One row per item: its confidence f, probability π, weight 1/π and whether to label it "
                 "(label = True). Estimate: mean(f) + Σ_labelled (Y − f)·weight / N.")
    snippet = active_snippet(n_human=n_human, target_se=target_se, min_share=share,
                             beta=(a, b) if source == "beta" else None, n_items=n_items,
                             calibration=None if source == "beta" else
                             ("sample" if origin and origin.startswith("the built-in") else str(origin)))
    plan_actions(judge_plan.active_plan_item(design, target_se=target_se, labels_needed=need, source=src_text,
                                             link=current_link(), code=snippet), key="judge_active")
    code_view(snippet, key="judge_active_code")


def labels_view(alpha: float, target: float, currency: str, plotted: dict) -> None:
    """The "Labels per item" tab: one label on more items, or a majority of k per item (Dorner & Hardt 2024)."""
    c1, c2, c3 = st.columns(3)
    p10 = c1.slider("Only A right (%)", 0.5, 40.0, 8.0, 0.5, key="lp_p10", bind="query-params",
                    help="P(A right and B wrong) under the true labels.") / 100
    p01 = c1.slider("Only B right (%)", 0.5, 40.0, 4.0, 0.5, key="lp_p01", bind="query-params",
                    help="P(B right and A wrong) under the true labels.") / 100
    kappa = c2.slider("Pilot Cohen's κ", 0.05, 1.0, 0.6, 0.05, key="lp_kappa", bind="query-params",
                      help="Agreement of two annotators in a pilot; it fixes each annotator's error ε.")
    prev = c2.slider("Observed prevalence", 0.05, 0.95, 0.5, 0.05, key="lp_prev", bind="query-params",
                     help="Share of positive labels in the pilot (π′); chance agreement is π′² + (1 − π′)².")
    cost_item = c3.number_input("Cost per item", 0.0, 10_000.0, 0.0, 0.5, key="lp_c_item", bind="query-params",
                                help="What an item costs apart from its labels (collecting it, running the models).")
    cost_label = c3.number_input("Cost per label", 0.001, 10_000.0, 1.0, 0.1, key="lp_c_label", bind="query-params",
                                 help="What one human label costs.")
    max_labels = c3.select_slider("Most labels per item", [1, 3, 5, 7, 9, 11], 7, key="lp_max",
                                  bind="query-params", help="Odd k = 1, 3, … up to this (a majority without ties).")
    if p10 + p01 > 1 or p10 == p01:
        st.warning("Only-A and only-B shares must differ and sum to at most 100%.")
        return
    plan = labels_plan(p10, p01, kappa, prev, cost_item, cost_label, alpha, target, max_labels)
    table = plan.table
    row = table.set_index("labels").loc[plan.best]
    even = plan.break_even_cost_item
    metrics_row(Metric("Labels per item", f"{plan.best}", help="The cheapest odd k (fewest labels among ties)."),
                Metric("Items (best)", f"{int(row['items']):,}",
                       help="Connor (1987)'s items for McNemar's test at the attenuated gap (1 − 2e_k)Δ."),
                Metric("Cost (best)", fmt_money(float(row["cost"]), currency), help="items × (item + k × label)."),
                Metric("Annotator error rate", f"{plan.annotator_error:.3f}",
                       help="ε = (1 − √(2P_o − 1))/2 from the pilot's κ: the chance one label is wrong."),
                Metric("Break-even item cost", "never" if math.isinf(even) else "—" if math.isnan(even)
                       else fmt_money(even, currency), help="Above this item cost, 3 labels per item are cheaper "
                       "than 1: c_label·(3n₃ − n₁)/(n₁ − n₃)."))
    plotted["labels_per_item"] = table
    fig = figures.bar_figure([f"k = {k}" for k in table["labels"]], {"Cost": table["cost"]},
                             title=f"Cost of a {target:.0%}-power comparison by labels per item",
                             x_title="Labels per item (majority vote)", y_title=f"Cost ({currency})",
                             hover_format=",.2f", current=(f"k = {plan.best}", float(row["cost"])), style=style())
    chart(fig, "labels_chart")
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"error": st.column_config.NumberColumn("majority error e_k", format="%.4f"),
                                "gap": st.column_config.NumberColumn("attenuated gap", format="%.4f"),
                                "cost": st.column_config.NumberColumn(format="%.2f")})
    st.caption("A majority of k annotators errs with e_k = P(Bin(k, ε) > k/2); a wrong reference flips both "
               "classifiers' correctness, so p̃10 = (1 − e)p10 + e·p01 and the gap shrinks to (1 − 2e)Δ "
               "(Dorner & Hardt 2024).")
    snippet = labels_snippet(p10=p10, p01=p01, kappa=kappa, prevalence=prev, cost_item=cost_item,
                             cost_label=cost_label, alpha=alpha, target_power=target, max_labels=max_labels,
                             currency=currency)
    plan_actions(judge_plan.labels_plan_item(plan, p10=p10, p01=p01, kappa=kappa, prevalence=prev,
                                             cost_item=cost_item, cost_label=cost_label, alpha=alpha,
                                             target_power=target, currency=currency, link=current_link(),
                                             code=snippet), key="judge_labels")
    code_view(snippet, key="judge_labels_code")

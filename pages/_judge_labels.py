"""The Judge page's "Which items to label" and "Labels per item" tabs (UI only; numbers from core.judge).

Active labelling (Zrnic & Candès 2024) and labels per item vs more items (Dorner & Hardt 2024). Each tab has its own
inputs (bound to the URL), metrics row, chart with the target and the current design, CSV, plan and code view.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import judge as jg
from core.judge import plan as judge_plan
from core.judge.snippet import active_snippet, labels_snippet
from core.judge.design import JudgePageDesign
from pages._fields import field_input
from pages._links import asked_late, narrowed, report_late
from pages._scaffold import (
    Metric,
    guard,
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
LABEL_OPTIONS = [1, 3, 5, 7, 9, 11]
D = JudgePageDesign


@cached
def active_design(design: JudgePageDesign, confidence=None):
    return design.active_design(confidence)


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
def labels_plan(design: JudgePageDesign):
    return design.labels_plan()


def inp(name: str, box, **options):
    """A declared field's widget with its declared label (the unit is in the help, not added to the label): the Judge
    page's, its views' and these tabs' controls."""
    return field_input(D, name, box, label=options.pop("label", D.field(name).label), **options)


def _se(x) -> str:
    """The SE of a mean 0/1 human label (a label rate) in points, as the page's headline SE."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.2f} pts"


def _need(k) -> str:
    return "not reachable" if k is None or k < 0 else f"{k:,}"


def active_view(design: JudgePageDesign, cal: pd.DataFrame | None, origin: str | None, plotted: dict) -> None:
    """The "Which items to label" tab: human-only vs uniform vs active SE against human labels, and the item list."""
    c1, c2, c3 = st.columns(3)
    values = {"active_source": inp("active_source", c1, format_func=SOURCES.get)}
    source = values["active_source"]
    values["min_share"] = inp("min_share", c1, widget="slider")
    conf = None
    if source == "beta":
        a = values["beta_a"] = inp("beta_a", c2, widget="slider")
        b = values["beta_b"] = inp("beta_b", c2, widget="slider")
        n_items = values["n_items"] = inp("n_items", c3)
        src_text = f"Beta({a:g}, {b:g}) quantiles over {n_items:,} items"
    else:
        if cal is None:
            st.info("Upload a calibration file (or choose the built-in sample) in the view **Calibrate from your "
                    "labels**: its items and the judge's outputs are the pool.")
            return
        conf = calibrated(cal)
        n_items = len(conf)
        src_text = f"calibrated judge outputs of {origin}"
        st.caption(f"{n_items:,} items from {safe_message(origin)}; f = share of human 1-labels per judge output.")
    f = D.field("n_human")  # its upper end is the pool's size, known only here
    pool = dataclasses.replace(f, ui_high=n_items)
    narrowed(pool)  # a link asking for more is told so, with this range
    asked = asked_late(f.key)  # the pool arrived after the link was checked (an uploaded calibration file)
    n_human = values["n_human"] = f.check(int(c3.number_input(
        f.label, f.widget_low, n_items, min(f.default, n_items), f.widget_step, key=f.key, bind="query-params",
        help=f.help)))
    report_late(f.key, asked, pool, c3)
    target_se = values["active_target_se"] = inp("active_target_se", c2, widget="slider")
    with guard("Cannot plan these labels"):
        page_design = design.with_(**values)
    design = active_design(page_design, conf)
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
    seed = inp("item_seed", st)
    items = active_items(design, seed)
    download_csv(items, "active_item_list.csv", key="al_items_csv", label="Download the item list (CSV)",
                 help="One row per item: its confidence f, probability π, weight 1/π and whether to label it "
                 "(label = True). Estimate: mean(f) + Σ_labelled (Y − f)·weight / N.")
    snippet = active_snippet(page_design, calibration=None if source == "beta" else
                             ("sample" if origin and origin.startswith("the built-in") else str(origin)))
    plan_actions(lambda: judge_plan.active_plan_item(design, target_se=target_se, labels_needed=need, source=src_text,
                                             link=current_link(), code=snippet), key="judge_active")
    code_view(snippet, key="judge_active_code")


def labels_view(design: JudgePageDesign, currency: str, plotted: dict) -> None:
    """The "Labels per item" tab: one label on more items, or a majority of k per item (Dorner & Hardt 2024)."""
    c1, c2, c3 = st.columns(3)
    values = {name: inp(name, box, widget="slider") for name, box in (
        ("p10_pct", c1), ("p01_pct", c1), ("labels_kappa", c2), ("labels_prevalence", c2))}
    values["cost_item"] = inp("cost_item", c3)
    values["cost_label"] = inp("cost_label", c3)
    values["max_labels"] = inp("max_labels", c3, widget="select_slider", options=LABEL_OPTIONS)
    with guard("Cannot plan these labels"):
        design = design.with_(**values)
    p10, p01, target = design.p10_pct / 100, design.p01_pct / 100, design.target_power
    if p10 + p01 > 1 or p10 == p01:
        st.warning("Only-A and only-B shares must differ and sum to at most 100%.")
        return
    plan = labels_plan(design)
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
    snippet = labels_snippet(design, currency=currency)
    plan_actions(lambda: judge_plan.labels_plan_item(design, plan, currency=currency, link=current_link(), code=snippet),
                 key="judge_labels")
    code_view(snippet, key="judge_labels_code")

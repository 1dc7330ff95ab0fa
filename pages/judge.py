"""LLM judges and human labels: how many human labels to pair with judge labels, and how many items to double-annotate.

PPI++ (Angelopoulos, Duchi & Zrnic 2023), Rogan & Gladen (1978), Fleiss, Cohen & Everitt (1969), Gwet (2008).
Layout only: widgets built from :class:`core.judge.design.JudgePageDesign`'s declared fields → one design → cached
calls into ``core.judge`` → charts and metrics. Every number is closed form and instant. The agreement, paradox
and calibration tabs are in :mod:`pages._judge_views`, the active-labelling and labels-per-item tabs in
:mod:`pages._judge_labels`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import judge as jg
from core.judge.design import BUDGETS, JudgePageDesign
from core.judge import plan as judge_plan
from core.judge.snippet import judge_snippet
from pages import _judge_labels as judge_labels
from pages._judge_labels import inp
from pages._judge_views import agreement_tab, fit_tab, paradox_tab
from pages._scaffold import (
    Metric,
    cached,
    chart,
    code_view,
    currency_label,
    current_link,
    decision_controls,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    guard,
    key_inputs,
    metrics_row,
    plan_actions,
    source_of,
    start,
    style,
    views,
)

D = JudgePageDesign
VIEWS = {"se": "Precision vs human labels", "split": "Cheapest split vs correlation",
         "strategies": "Three strategies at equal cost", "agreement": "Agreement study",
         "paradox": "κ vs AC1 (prevalence paradox)", "active": judge_labels.ACTIVE_VIEW,
         "labels": judge_labels.LABELS_VIEW, "fit": "Calibrate from your labels"}
MODES = {"budget": "a budget (most precise)", "target_se": "a target SE (cheapest)", "delta": "an effect (cheapest)"}


# One cached call per output, each taking the page's one design (frozen, hashed by value).
@cached
def plan_of(design: D):
    return design.plan()


@cached
def se_curves(design: D, ns, n_judge_only):
    return design.curves(ns, n_judge_only)


@cached
def splits(design: D, rhos):
    return design.split_curve(rhos)


def fmt_se(x, *, points: bool) -> str:
    """An SE on the label's scale: in points (×100) for right/wrong labels, else in the scores' own units."""
    if x is None or not math.isfinite(x):
        return "—"
    return f"{100 * x:.2f} pts" if points else f"{x:.4f} score units"


def controls() -> tuple[dict, str]:
    """The sidebar's widgets (the assumptions); returns their values by field and the currency. The key inputs
    are read in :func:`body`, which they alone rerun."""
    start("LLM judges and human labels",
          "How many human labels to pair with an LLM judge's labels (PPI++: Angelopoulos, Duchi & Zrnic 2023), what a "
          "Rogan–Gladen corrected judge gives at the same cost, and how many items to double-annotate for an agreement "
          "study (Fleiss, Cohen & Everitt 1969; Gwet 2008).")
    side = st.sidebar
    side.subheader("What you estimate")
    values = {"estimand": inp("estimand", side, horizontal=True,
                              format_func={"one": "one model's score", "paired": "difference of two models"}.get)}
    paired = values["estimand"] == "paired"
    values["judge_spec"] = inp("judge_spec", side, horizontal=True, disabled=paired,
                               format_func={"accuracy": "sensitivity / specificity", "correlation": "correlation"}.get)
    if values["judge_spec"] == "accuracy" and not paired:
        values["sensitivity_pct"] = inp("sensitivity_pct", side, widget="slider")
        values["specificity_pct"] = inp("specificity_pct", side, widget="slider")
    else:
        values["sd"] = inp("sd", side, widget="slider", label="SD of a human label σ" if not paired else
                           "SD of the per-item human difference σ")
    side.subheader("Costs")
    c1, c2 = side.columns(2)
    values["cost_human"] = inp("cost_human", c1)
    values["cost_judge"] = inp("cost_judge", c2)
    currency = currency_label(side.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                                             help="A label for the amounts, e.g. USD, EUR, GBP."))
    side.subheader("Plan by")
    values["plan_by"] = inp("plan_by", side, format_func=MODES.get)
    values["alpha"], values["target_power"] = decision_controls(target_help=D.field("target_power").help)
    # the agreement study's and the κ paradox's inputs are in their views, above their charts (pages/_judge_views.py)
    return values, currency


def key_design(assumptions: dict) -> D:
    """The key inputs above the first chart (the model's accuracy or the judge's correlation; the budget, target
    SE or effect the plan aims at) completing the sidebar's assumptions into the one design."""
    top = key_inputs(2)  # the inputs the question turns on, above the first chart
    values = dict(assumptions)
    if values["judge_spec"] == "accuracy" and values["estimand"] != "paired":
        values["prevalence_pct"] = inp("prevalence_pct", top[1], widget="slider")
        with guard("Impossible judge"):
            sd, rho, p_obs = D(**values).judge_correlation()  # the design refuses Se + Sp <= 100%
        top[1].caption(f"σ = {sd:.3f}, judge–human correlation ρ = {rho:.3f}, apparent rate {p_obs:.1%}.")
    else:
        values["correlation"] = inp("correlation", top[1], widget="slider")
    mode = values["plan_by"]
    if mode == "budget":
        values["budget"] = inp("budget", top[0], widget="select_slider", options=list(BUDGETS))
    else:
        values[mode] = inp(mode, top[0], widget="slider")
    with guard("Cannot plan this design"):
        return D(**values)


def headline(design: D, currency: str):
    """The plan's metrics row and what it says; returns the plan and whether SEs read in points."""
    with guard("Cannot plan this design"):
        res = plan_of(design)
    paired, delta, target = design.paired, design.judge_design().delta, design.target_power
    gain = res.effective_n / max(res.human_only.effective_n, 1e-300)
    # Right/wrong labels (sensitivity/specificity): the estimate is an accuracy, so its SE and effect read in points
    # on the 0–100 scale like every page's accuracy differences. Correlation inputs describe scores (or a difference
    # of two models) on any scale: those keep the scores' own units.
    points = design.judged_by_accuracy
    effect_text = (f"{100 * delta:g} points" if points else f"{delta:g} score units") if delta is not None else ""
    metrics_row(
        Metric("Human-labelled items", f"{res.n_human:,}", help="Items labelled by a human and by the judge (n)."
               + (" Each item has both models' outputs." if paired else "")),
        Metric("Judge-only items", f"{res.n_judge_only:,}", help="Items labelled only by the judge (N)."),
        Metric("Standard error", fmt_se(res.se, points=points),
               help="SE of the PPI++ estimate: √(σ²/n·(1 − ρ²·N/(n + N)))"
               + (", in accuracy points (0.01 = 1 point)." if points else ", in the scores' units.")),
        Metric("Equivalent human-only items", f"{res.effective_n:,.0f}",
               help="Effective n: the human-only items that give the same SE, σ²/SE².",
               caption=f"{gain:.2f}× the human-only design at this cost"),
        Metric("Cost", fmt_money(res.cost, currency), help="n·(human + judge) + N·judge"
               + (", × 2 (two outputs per item)" if paired else "") + "."),
        *([Metric(f"Power at {effect_text}", fmt_pct(res.power), help="Two-sided z test at α.")]
          if delta is not None else []),
    )
    # the judge's weight is a detail of the estimator, not a headline number: a caption under the row says what it is
    st.caption(f"Judge weight λ (power-tuned): {res.lambda_:.3f} — how much the judge's labels count in the estimate "
               "(PPI++: λ = ρ·(σ/σ_judge)·N/(n + N); 0 ignores the judge, 1 is plain prediction-powered inference"
               + ("" if points else "; with correlation inputs, on the judge's standardised scale") + ").")
    if design.plan_by == "delta":
        st.success(f"**{fmt_pct(res.power)} power** (≥ {target:.0%}) for an effect of {effect_text}: human labels "
                   f"alone would give {fmt_pct(res.human_only.power)} at the same cost.")
    if res.n_judge_only == 0:
        st.info("At these costs and this correlation, judge-only items are not worth buying: label everything by hand.")
    if abs(design.judge_design().correlation) == 1.0:
        st.info("A judge that agrees with every human label (|ρ| = 1) makes human labels redundant, so the plan keeps "
                "only the 2 the estimator needs. That is only as true as the assumption: a judge's sensitivity and "
                "specificity are themselves estimated from human labels — size that study in the “Agreement study” view.")
    return res


def target_lines(design: D, res, scale: float = 1.0) -> list:
    return ([figures.Line(y=scale * res.target_se, text="target SE")] if design.plan_by != "budget" else
            [figures.Line(y=scale * res.human_only.se, text="human only, same cost")])


def se_scale(design: D) -> tuple[float, str]:
    """How the charts draw an SE: × 100 in points for right/wrong labels (as the metrics row reads it), as it is in
    the scores' own units otherwise; and the axis title that says which."""
    if design.judged_by_accuracy:
        return 100.0, "Standard error (points)"
    return 1.0, "Standard error (score units)"


def se_tab(design: D, res, plotted: dict) -> None:
    lo, hi = max(2, res.n_human // 20), max(res.n_human * 20, 200)
    ns = tuple(sorted(set(np.unique(np.geomspace(lo, hi, 50).astype(int)).tolist()) | {res.n_human}))
    nj = res.n_judge_only  # the current N, a quarter and four times it: curves that stay apart
    big = tuple(sorted({0, max(1, nj // 4), nj, 4 * nj} if nj > 0 else {0, 1000, 10000}))
    curves = se_curves(design, ns, big)
    curves = curves.assign(series=[f"N = {b:,}" + (" (current)" if b == res.n_judge_only else "")
                                   for b in curves["n_judge_only"]])
    plotted["se_vs_human_labels"] = curves
    if design.plan_by == "delta":
        fig = figures.curve_figure(curves, x="n_human", y="power", color="series", current=(res.n_human, res.power),
                                   target=design.target_power, title="Power vs human-labelled items, by judge-only "
                                   "items N", x_title="Human-labelled items n", y_title="Power", y_range=(0, 1.02),
                                   style=style())
    else:
        scale, y_title = se_scale(design)
        fig = figures.curve_figure(curves.assign(se=scale * curves["se"]), x="n_human", y="se", color="series",
                                   current=(res.n_human, scale * res.se), target=None,
                                   lines=target_lines(design, res, scale), log_y=True,
                                   hover_format=".2f" if scale == 100 else ".4f",
                                   title="Standard error vs human-labelled items, by judge-only items N",
                                   x_title="Human-labelled items n", y_title=y_title, style=style())
    chart(fig, "se_chart")
    st.caption("Judge-only items lower the floor only as far as σ·√(1 − ρ²)/√n: beyond that, only more human "
               "labels help.")


def split_tab(design: D, res, plotted: dict) -> None:
    rhos = tuple(np.round(np.linspace(0.0, 0.98, 50), 3).tolist())
    sp = splits(design, rhos)
    tidy = pd.concat([sp.assign(items=sp["n_human"], kind="human-labelled"),
                      sp.assign(items=sp["n_judge_only"], kind="judge-only")], ignore_index=True)
    tidy = tidy[tidy["items"] > 0]  # no judge-only items at weak correlations: nothing to draw on a log axis
    plotted["split_vs_correlation"] = sp
    chart(figures.curve_figure(tidy, x="correlation", y="items", color="kind",
                               current=(design.judge_design().correlation, res.n_human),
                               target=None, log_x=False, log_y=True, hover_format=",.0f", x_hover_format=".2f",
                               lines=[figures.Line(y=res.human_only.n_human, text="human only, same cost")],
                               title="The cheapest split against the judge–human correlation",
                               x_title="Judge–human correlation ρ", y_title="Items", style=style()),
          "split_chart")
    rho_min = math.sqrt(design.cost_judge / (design.cost_human + design.cost_judge))
    st.caption(f"The better the judge, the fewer human labels and the more judge-only items. Below ρ = "
               f"√(c_j/(c_h + c_j)) = {rho_min:.3f} judge-only items are not worth buying (b/c_j ≤ a/c_h).")


def strategies_tab(design: D, res, currency: str, plotted: dict) -> None:
    table = jg.strategy_table(res)
    plotted["strategies"] = table
    target = design.target_power
    y = "power" if design.plan_by == "delta" else "se"
    scale, se_title = se_scale(design) if y == "se" else (1.0, "Power")
    fig = figures.bar_figure(table["strategy"], {("Power" if y == "power" else "Standard error"): scale * table[y]},
                             title=f"Three strategies at equal cost ({fmt_money(res.cost, currency)})",
                             x_title="Strategy", y_title=se_title,
                             hover_format=".2f" if scale == 100 else ".4f",
                             current=("PPI++", res.power if y == "power" else scale * res.se),
                             lines=[figures.Line(y=target, text=f"{target:.0%} power")] if y == "power"
                             else target_lines(design, res, scale), style=style())
    chart(fig, "strategies_chart")
    st.dataframe(table, hide_index=True, width="stretch")
    if res.judge_only is None:
        st.caption("The Rogan–Gladen comparator needs binary labels: describe the judge by sensitivity / "
                   "specificity (one model).")


def plan(design: D, res, currency: str) -> None:
    jd = design.judge_design()
    snippet = judge_snippet(design, currency=currency)
    key = {name: D.field(name).key for name in ("correlation", "sd", "sensitivity_pct")}
    plan_actions(lambda: judge_plan.plan_item(
        jd, res, currency=currency, link=current_link(), code=snippet,
        sources={"rho": source_of(key["correlation"], jd.correlation, "slider"),
                 "sd": source_of(key["sd"], jd.sd, "slider"),
                 "se": source_of(key["sensitivity_pct"], design.sensitivity_pct, "slider")
                 if design.judged_by_accuracy else "slider"}), key="judge")
    code_view(snippet, key="judge_code")


@st.fragment
def body(assumptions: dict, currency: str) -> None:
    """The key inputs and everything they change (metrics, tabs, plan): moving a key input reruns only this; the
    sidebar's assumptions come in as values (a change there reruns the page)."""
    design = key_design(assumptions)
    res = headline(design, currency)
    plotted: dict[str, pd.DataFrame] = {}
    # views that read none of the key inputs: the agreement study and the κ paradox (their own fields), which items
    # to label and labels per item (their own designs, pages/_judge_labels.py)
    tab = views(VIEWS, own=("agreement", "paradox", "active", "labels"))
    for name, body in (("se", lambda: se_tab(design, res, plotted)), ("split", lambda: split_tab(design, res, plotted)),
                       ("strategies", lambda: strategies_tab(design, res, currency, plotted)),
                       ("agreement", lambda: agreement_tab(design, plotted)),
                       ("paradox", lambda: paradox_tab(design, plotted))):
        if tab.open(name):
            with tab[name], guard():
                body()
    with tab["fit"]:
        cal, origin = fit_tab(tab, plotted)
    if tab.open("active"):
        with tab["active"], guard():
            judge_labels.active_view(design, cal, origin, plotted)
    if tab.open("labels"):
        with tab["labels"], guard():
            judge_labels.labels_view(design, currency, plotted)
    # which items to label, labels per item and the agreement study plan their own designs; the κ paradox is a
    # lesson, with no design to plan
    if tab.current not in ("active", "labels", "agreement", "paradox"):
        plan(design, res, currency)
    if plotted:
        download_csv(plotted, f"judge_{tab.current}.csv", key="download_curves")
    explain(
        f"""
**The question.** An LLM judge labels items cheaply; humans label them well but dearly. Prediction-powered inference
(PPI++) labels **{res.n_human:,}** items both ways and **{res.n_judge_only:,}** only with the judge, and combines them:
the judge's mean over all its items, corrected by the human-minus-judge difference on the items humans labelled. The
weight λ given to the judge is tuned to make the estimate as precise as possible, so a poor judge can never hurt.

**The optimum.** The variance is a/n + b/(n + N) with a = σ²(1 − ρ²) and b = σ²ρ²; with human labels costing c_h and
judge calls c_j, the cheapest design has variance (√(a·c_h) + √(b·c_j))²/C for a budget C. The page rounds to whole
items without ever exceeding the budget or missing the target.

**Judge + Rogan–Gladen.** With right/wrong labels, the judge's rate can instead be corrected with its sensitivity and
specificity measured on the same human-labelled items; the correction divides by Se + Sp − 1 and carries the
calibration set's uncertainty.

**Agreement studies.** How many items two raters must both label to know their agreement to ± a half-width, with the
large-sample SE of Cohen's κ (Fleiss, Cohen & Everitt 1969), Gwet's AC1 (Gwet 2008) or Krippendorff's α (the
linearised variance of Scott's π). At skewed prevalence κ and α can be low although the raters almost always agree.

**Which items to label.** Instead of a uniformly random set, humans label the items the judge is unsure about more
often (probability ∝ √(f(1 − f))) and each label is weighted by 1/probability, which keeps the estimate unbiased
(Zrnic & Candès 2024). **Labels per item.** A majority of three annotators makes fewer label errors, but at a fixed
budget one label on three times as many items usually detects a difference sooner (Dorner & Hardt 2024).
"""
    )


body(*controls())

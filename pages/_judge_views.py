"""The LLM-judges page's agreement-study, prevalence-paradox and calibration tabs.

Layout only: the numbers come from :class:`core.judge.design.JudgePageDesign` and :mod:`core.judge` through
cached calls.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import judge as jg
from core.judge import plan as judge_plan
from core.judge.design import JudgePageDesign
from core.judge.snippet import agreement_snippet
from pages import _judge_labels as judge_labels
from pages._judge_labels import inp
from pages._scaffold import (Metric, apply_values, cached, chart, code_view, current_link, guard, metrics_row,
                             plan_actions, safe_message, style)
from pages._uploads import file_uploader, opened, upload_types

D = JudgePageDesign


@cached
def agreement(design: D, ns):
    return design.agreement_curve(ns)


@cached
def agreement_n(design: D):
    return design.agreement_sample_size()


@cached
def paradox(design: D):
    return design.paradox_curve()


@cached
def read_calibration(data: bytes, name: str):
    return jg.read_calibration(data, name=name)


@cached
def fit(df: pd.DataFrame):
    return jg.fit_judge(df, seed=0)


def _merge_equal_curves(curves: pd.DataFrame, x: str, y: str) -> tuple[pd.DataFrame, str]:
    """The curves (``y`` against ``x``, one per ``name``) with statistics that agree at every ``x`` drawn once and
    named together (a curve drawn exactly over another would hide it), and those names joined ("" when every curve
    differs)."""
    groups: list[list[str]] = []
    for name, part in curves.groupby("name", sort=False):
        values = part.sort_values(x)[y].to_numpy()
        for group in groups:
            first = curves[curves["name"] == group[0]].sort_values(x)[y].to_numpy()
            if len(first) == len(values) and np.allclose(first, values, rtol=1e-9, atol=1e-12):
                group.append(name)
                break
        else:
            groups.append([name])
    merged = {name: " = ".join(group) for group in groups for name in group}
    keep = [group[0] for group in groups]
    shown = curves[curves["name"].isin(keep)].assign(name=lambda f: f["name"].map(merged))
    return shown, " and ".join(" = ".join(group) for group in groups if len(group) > 1)


def _view_design(design: D, names: tuple[str, ...], what: str) -> D:
    """The view's own inputs, in a row above its chart (they are what its question turns on; the page's key inputs
    are not read here), completing the page's design."""
    boxes = st.columns(len(names))
    values = {name: inp(name, box, widget="selectbox", format_func=jg.STATISTICS.get) if name == "statistic"
              else inp(name, box, widget="slider") for name, box in zip(names, boxes)}
    with guard(what):
        return design.with_(**values)


def agreement_tab(design: D, plotted: dict) -> None:
    design = _view_design(design, ("statistic", "ag_prevalence_pct", "kappa", "halfwidth"),
                          "Cannot plan this agreement study")
    ag_prev, ag_kappa, ag_hw, ag_stat = design.ag_prevalence_pct, design.kappa, design.halfwidth, design.statistic
    need = agreement_n(design)
    ns_a = tuple(sorted(set(np.unique(np.geomspace(20, max(5000, 4 * need), 60).astype(int)).tolist()) | {need}))
    ac = agreement(design, ns_a)
    unreliable = ac[~ac.reliable]
    ac = ac[ac.reliable]
    ac = ac.assign(name=ac["statistic"].map(jg.STATISTICS))
    plotted["agreement_precision"] = ac
    cur = ac[(ac.statistic == ag_stat) & (ac.n == need)].halfwidth.iloc[0]
    shown, same = _merge_equal_curves(ac, "n", "halfwidth")
    chart(figures.curve_figure(shown, x="n", y="halfwidth", color="name", current=(need, cur), target=None,
                               lines=[figures.Line(y=ag_hw, text="wanted half-width")], log_y=True,
                               hover_format=".3f", title="Agreement precision vs double-annotated items",
                               x_title="Items rated by both raters", y_title="95% half-width", style=style()),
          "agreement_chart")
    if same:
        st.caption(f"{same} share one curve: the raters share their label rates here, so Cohen's κ equals Scott's π, "
                   "and Krippendorff's α differs from it by O(1/n) — the same large-sample SE (Gwet 2014, ch. 5).")
    metrics_row(Metric(f"Items for ± {ag_hw:g}", f"{need:,}",
                       help="Smallest n with 1.96·SE ≤ the half-width (large-sample SE), and with the rarer "
                       "label expected at least 5 times (below that the SE is unreliable)."),
                Metric("Value", f"{design.agreement_value():.3f}",
                       help="The statistic at the raters' table (prevalence, κ)."))
    if len(unreliable):
        st.caption(f"Below n = {int(ac.n.min()):,} the rarer label is expected fewer than "
                   f"{jg.agreement.MIN_EXPECTED} times at {ag_prev:g}% prevalence: the large-sample SE is "
                   "unreliable there, so the curve starts at that n and no smaller item count is suggested.")
    st.page_link("pages/judge.py", label="With this κ, one label on more items or a majority of several per "
                 "item? (view Labels per item)", icon=":material/arrow_forward:",
                 query_params={"view": judge_labels.LABELS_VIEW,
                               D.field("labels_kappa").key: f"{min(max(ag_kappa, 0.05), 1.0):g}"})
    # the study's own plan (the page's PPI plan reads none of these inputs)
    snippet = agreement_snippet(design)
    plan_actions(lambda: judge_plan.agreement_plan_item(design, link=current_link(), code=snippet), key="judge_agreement")
    code_view(snippet, key="judge_agreement_code")


def paradox_tab(design: D, plotted: dict) -> None:
    design = _view_design(design, ("agreement", "ag_prevalence_pct"), "Cannot draw the paradox")
    ag_po = design.agreement
    pc = paradox(design)
    pc = pc.assign(name=pc["statistic"].map(jg.STATISTICS))
    plotted["prevalence_paradox"] = pc
    d = (1 - ag_po) / 2
    th = min(max(design.ag_prevalence_pct / 100, d), 1 - d)
    k_now = float(design.paradox_curve([th]).value.iloc[0])
    shown, same = _merge_equal_curves(pc, "prevalence", "value")
    chart(figures.curve_figure(shown, x="prevalence", y="value", color="name", current=(th, k_now), target=None,
                               log_x=False, lines=[figures.Line(y=ag_po, text="raw agreement")],
                               x_hover_format=".2f", title=f"Same raw agreement ({ag_po:.0%}), different verdicts",
                               x_title="Prevalence", y_title="Coefficient", y_range=(-0.2, 1.02), style=style()),
          "paradox_chart")
    st.caption("Feinstein & Cicchetti (1990): at skewed prevalence κ (and α) fall although the raters agree as "
               "often; Gwet's AC1 stays near the raw agreement (Gwet 2008)."
               + (f" {same} share one curve: with the raters' label rates equal, κ is Scott's π, and α equals it for "
                  "two raters on a whole population." if same else "") + " This view shows a property of the "
               "statistics, not a design: the agreement study's plan is in the view **Agreement study**.")


def fit_tab(tab, plotted: dict):
    """The calibration uploader (always rendered, so an upload survives a tab switch) and, when the tab is open,
    the judge estimated from it; returns the calibration frame and where it came from."""
    src = st.radio("Calibration labels", ["upload", "sample"], horizontal=True, key="cal_source",
                   format_func={"upload": "upload a file", "sample": "built-in sample (synthetic)"}.get,
                   help="Columns item, human, judge (and optionally model, for two models); 0/1 labels or scores.")
    cal, origin = None, None
    with guard("Cannot read the calibration file", stop=False):
        if src == "upload":
            up = file_uploader(st, "Calibration file (CSV/TSV)", type=upload_types("csv", "tsv", "txt"), key="cal_file",
                               help="Nothing in the file is executed. Also accepted: id, gold, label, prediction, "
                               "llm, system …")
            up = opened(up)
            if up is not None:
                cal, origin = read_calibration(up.getvalue(), up.name), up.name
        else:
            cal, origin = jg.sample_calibration(), "the built-in synthetic sample (core/data/judge_sample)"
    if cal is None or not tab.open("fit"):
        return cal, origin
    fitted = None
    with guard("Cannot estimate the judge", stop=False):
        fitted = fit(cal)
    if fitted is None:
        return cal, origin
    st.markdown(f"Estimated from {safe_message(origin)}: **{fitted.n_items:,}** items"
                + (" (paired: two models)" if fitted.paired else "") + ".")
    rows = [("correlation ρ", fitted.correlation, fitted.correlation_se), ("SD σ", fitted.sd, fitted.sd_se),
            ("mean bias (judge − human)", fitted.mean_bias, fitted.mean_bias_se)]
    if fitted.binary:
        rows += [("sensitivity", fitted.sensitivity, fitted.sensitivity_se),
                 ("specificity", fitted.specificity, fitted.specificity_se),
                 ("prevalence", fitted.prevalence, fitted.prevalence_se)]
    ft = pd.DataFrame(rows, columns=["parameter", "estimate", "standard error"])
    plotted["fitted_judge"] = ft
    st.dataframe(ft, hide_index=True, width="stretch",
                 column_config={"estimate": st.column_config.NumberColumn(format="%.4f"),
                                "standard error": st.column_config.NumberColumn(format="%.4f")})
    st.caption(f"Bootstrap standard errors ({fitted.n_boot} resamples of items).")
    key = {f.name: f.key for f in D.fields()}
    values = {key["correlation"]: float(np.clip(round(fitted.correlation, 2), 0.0, 0.99)),
              key["sd"]: float(np.clip(round(fitted.sd, 2), 0.05, 2.0))}
    if fitted.binary and not fitted.paired:
        values.update({key["judge_spec"]: "accuracy", key["estimand"]: "one",
                       key["prevalence_pct"]: float(np.clip(round(200 * fitted.prevalence) / 2, 5.0, 95.0)),
                       key["sensitivity_pct"]: float(np.clip(round(200 * fitted.sensitivity) / 2, 50.0, 100.0)),
                       key["specificity_pct"]: float(np.clip(round(200 * fitted.specificity) / 2, 50.0, 100.0))})
    else:
        values.update({key["judge_spec"]: "correlation", key["estimand"]: "paired" if fitted.paired else "one"})
    if st.button("Use these values in the sliders", on_click=apply_values,
                 args=(values, f"fitted from {origin}"), key="use_fit", type="primary",
                 help="Sets the judge sliders (rounded to their steps)."):
        # the sliders it sets are in the sidebar too, outside the page's fragment: rerun the whole page
        st.rerun(scope="app")
    return cal, origin

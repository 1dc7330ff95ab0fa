"""LLM judges and human labels: how many human labels to pair with judge labels, and how many items to double-annotate.

PPI++ (Angelopoulos, Duchi & Zrnic 2023), Rogan & Gladen (1978), Fleiss, Cohen & Everitt (1969), Gwet (2008).
UI only: widgets → cached calls into ``core.judge`` → charts and metrics. Every number is closed form and instant.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import judge as jg
from core.plan import judge as judge_plan
from core.snippets import judge_snippet
from pages import _judge_labels as judge_labels
from pages._scaffold import (
    key_inputs,
    code_view,
    currency_label,
    Metric,
    apply_values,
    cached,
    chart,
    current_link,
    decision_controls,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    guard,
    metrics_row,
    plan_actions,
    safe_message,
    source_of,
    start,
    style,
    views,
)

BUDGETS = [100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 20000, 50000, 100000]
VIEWS = {"se": "Precision vs human labels", "split": "Cheapest split vs correlation",
         "strategies": "Three strategies at equal cost", "agreement": "Agreement study",
         "paradox": "κ vs AC1 (prevalence paradox)", "active": judge_labels.ACTIVE_VIEW,
         "labels": judge_labels.LABELS_VIEW, "fit": "Calibrate from your labels"}
MODES = {"budget": "a budget (most precise)", "target_se": "a target SE (cheapest)", "delta": "an effect (cheapest)"}


@cached
def plan_of(design: jg.JudgeDesign):
    return design.plan()


@cached
def se_curves(ns, n_judge_only, sd, rho, ch, cj, delta, alpha, paired):
    return jg.ppi_curve(list(ns), sd=sd, correlation=rho, n_judge_only=tuple(n_judge_only), cost_human=ch,
                        cost_judge=cj, delta=delta, alpha=alpha, paired=paired)


@cached
def splits(rhos, kw):
    kw = {k: v for k, v in dict(kw).items() if k not in ("correlation", "prevalence", "sensitivity", "specificity",
                                                         "sd_judge")}
    return jg.split_curve(list(rhos), **kw)


@cached
def agreement(ns, prev, kappa, confidence):
    return jg.agreement_curve(list(ns), prevalence=prev, kappa=kappa, confidence=confidence)


@cached
def agreement_n(prev, kappa, halfwidth, statistic, confidence):
    return jg.agreement_sample_size(prevalence=prev, kappa=kappa, halfwidth=halfwidth, statistic=statistic,
                                    confidence=confidence)


@cached
def paradox(po):
    return jg.prevalence_paradox_curve(agreement=po)


@cached
def read_calibration(data: bytes, name: str):
    return jg.read_calibration(data, name=name)


@cached
def fit(df: pd.DataFrame):
    return jg.fit_judge(df, seed=0)


def fmt_se(x, *, points: bool) -> str:
    """An SE on the label's scale: in points (×100) for right/wrong labels, else in the scores' own units."""
    if x is None or not math.isfinite(x):
        return "—"
    return f"{100 * x:.2f} pts" if points else f"{x:.4f} score units"


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("LLM judges and human labels",
      "How many human labels to pair with an LLM judge's labels (PPI++: Angelopoulos, Duchi & Zrnic 2023), what a "
      "Rogan–Gladen corrected judge gives at the same cost, and how many items to double-annotate for an agreement "
      "study (Fleiss, Cohen & Everitt 1969; Gwet 2008).")
side = st.sidebar
top = key_inputs(2)  # the inputs the question turns on, above the first chart
side.subheader("What you estimate")
estimand = side.radio("Estimate", ["one", "paired"], key="estimand", bind="query-params", horizontal=True,
                      format_func={"one": "one model's score", "paired": "difference of two models"}.get,
                      help="One model's accuracy (or mean score), or the difference between two models scored on the "
                      "same items (both outputs of an item are labelled: costs double).")
paired = estimand == "paired"
spec = side.radio("Describe the judge by", ["accuracy", "correlation"], key="judge_spec", bind="query-params",
                  horizontal=True, disabled=paired,
                  format_func={"accuracy": "sensitivity / specificity", "correlation": "correlation"}.get,
                  help="Binary labels (right/wrong): the judge's sensitivity and specificity against humans. Scores, "
                  "or a difference of two models: the judge–human correlation and the SD of a human label.")
if paired:
    spec = "correlation"
prev = se_j = sp_j = sd_judge = None
if spec == "accuracy":
    prev_pct = top[1].slider("True accuracy of the model (%)", 5.0, 95.0, 70.0, 0.5, key="prev", bind="query-params",
                           help="The rate humans would give (the quantity estimated).")
    se_pct = side.slider("Judge sensitivity (%)", 50.0, 100.0, 90.0, 0.5, key="se", bind="query-params",
                         help="P(the judge says right | a human says right).")
    sp_pct = side.slider("Judge specificity (%)", 50.0, 100.0, 85.0, 0.5, key="sp", bind="query-params",
                         help="P(the judge says wrong | a human says wrong).")
    prev, se_j, sp_j = prev_pct / 100, se_pct / 100, sp_pct / 100
    with guard("Impossible judge"):
        if se_j + sp_j <= 1.0:
            raise ValueError("`sensitivity` + `specificity` must exceed 100% (a judge better than chance).")
        sd, rho, p_obs = jg.judge_correlation(prev, se_j, sp_j)
    rho = min(rho, 0.999)
    sd_judge = math.sqrt(p_obs * (1 - p_obs))  # SD of a 0/1 judge label, for λ on the judge's own scale
    side.caption(f"σ = {sd:.3f}, judge–human correlation ρ = {rho:.3f}, apparent rate {p_obs:.1%}.")
else:
    rho = top[1].slider("Judge–human correlation ρ", 0.0, 0.99, 0.8, 0.01, key="rho", bind="query-params",
                      help="Correlation between the judge's label and the human label over items (for a difference of "
                      "two models: between the judge's and the humans' per-item differences).")
    sd = side.slider("SD of a human label σ" if not paired else "SD of the per-item human difference σ", 0.05, 2.0,
                     0.5, 0.01, key="sd", bind="query-params",
                     help="0.5 for a right/wrong label at 50% accuracy (√(p(1 − p)) in general); for the difference "
                     "of two models, about √(2·p(1 − p)·(1 − r)) with r the models' correlation.")
side.subheader("Costs")
c1, c2 = side.columns(2)
cost_h = c1.number_input("Per human label", 0.001, 10_000.0, 1.0, 0.1, format="%.3f", key="c_h", bind="query-params",
                         help="What one human label costs.")
cost_j = c2.number_input("Per judge call", 0.0001, 1_000.0, 0.01, 0.001, format="%.4f", key="c_j",
                         bind="query-params", help="What one LLM-judge call costs.")
currency = currency_label(side.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                                         help="A label for the amounts, e.g. USD, EUR, GBP."))
side.subheader("Plan by")
mode = side.radio("Plan for", list(MODES), key="plan_by", bind="query-params", format_func=MODES.get,
                  help="A budget: the most precise split it buys. A target SE or an effect to detect: the cheapest "
                  "split that reaches it.")
budget = target_se = delta = None
if mode == "budget":
    budget = top[0].select_slider("Budget", options=BUDGETS, value=1000, key="budget", bind="query-params",
                                help="Total spend on human labels and judge calls.")
elif mode == "target_se":
    target_se = top[0].slider("Target standard error", 0.002, 0.05, 0.011, 0.0005, format="%.4f", key="target_se",
                            bind="query-params", help="The SE of the estimate to reach (0.01 ≈ ±2 points at 95%).")
else:
    delta = top[0].slider("Effect to detect", 0.005, 0.2, 0.03, 0.005, format="%.3f", key="delta", bind="query-params",
                        help="A difference from a reference value (one model) or between the two models, on the "
                        "label's scale (0.03 = 3 points of accuracy).")
alpha, target = decision_controls(target_help="Power to reach in 'an effect' mode.")
side.subheader("Agreement study")
ag_stat = side.radio("Statistic", list(jg.STATISTICS), key="ag_stat", bind="query-params", format_func=jg.STATISTICS.get,
                     help="The coefficient whose confidence interval you size. AC1 does not collapse at skewed "
                     "prevalence (see the prevalence-paradox tab).")
ag_prev = side.slider("Prevalence of the label (%)", 2.0, 50.0, 30.0, 1.0, key="ag_prev", bind="query-params",
                      help="Share of items the raters label positive (binary labels).")
ag_kappa = side.slider("Expected Cohen's κ", 0.0, 0.95, 0.6, 0.05, key="ag_kappa", bind="query-params",
                       help="The raters' true agreement beyond chance; it fixes their joint table.")
ag_hw = side.slider("Half-width of the 95% interval", 0.02, 0.3, 0.1, 0.01, key="ag_hw", bind="query-params",
                    help="How precisely the coefficient must be known: estimate ± this.")
ag_po = side.slider("Raw agreement (paradox chart)", 0.6, 0.99, 0.9, 0.01, key="ag_po", bind="query-params",
                    help="Share of items on which the two raters agree, fixed across prevalence in the paradox chart.")

kw = (("sd", sd), ("correlation", rho), ("cost_human", cost_h), ("cost_judge", cost_j), ("budget", budget),
      ("target_se", target_se), ("delta", delta), ("target_power", target), ("alpha", alpha), ("paired", paired),
      ("prevalence", prev), ("sensitivity", se_j), ("specificity", sp_j), ("sd_judge", sd_judge))

# ---------------------------------------------------------------------------
# the current plan (closed form, instant)
# ---------------------------------------------------------------------------
with guard("Cannot plan this design"):
    design = jg.JudgeDesign(**dict(kw))
    res = plan_of(design)
gain = res.effective_n / max(res.human_only.effective_n, 1e-300)
# Right/wrong labels (sensitivity/specificity): the estimate is an accuracy, so its SE and effect read in points on
# the 0–100 scale like every page's accuracy differences. Correlation inputs describe scores (or a difference of two
# models) on any scale: those keep the scores' own units.
points = spec == "accuracy"
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
    Metric("Cost", fmt_money(res.cost, currency), help="n·(human + judge) + N·judge" + (", × 2 (two outputs per item)"
                                                                                        if paired else "") + "."),
    *([Metric(f"Power at {effect_text}", fmt_pct(res.power), help="Two-sided z test at α.")]
      if delta is not None else []),
)
# the judge's weight is a detail of the estimator, not a headline number: a caption under the row says what it is
st.caption(f"Judge weight λ (power-tuned): {res.lambda_:.3f} — how much the judge's labels count in the estimate "
           "(PPI++: λ = ρ·(σ/σ_judge)·N/(n + N); 0 ignores the judge, 1 is plain prediction-powered inference"
           + ("" if points else "; with correlation inputs, on the judge's standardised scale") + ").")
if mode == "delta":
    st.success(f"**{fmt_pct(res.power)} power** (≥ {target:.0%}) for an effect of {effect_text}: human labels alone "
               f"would give {fmt_pct(res.human_only.power)} at the same cost.")
if res.n_judge_only == 0:
    st.info("At these costs and this correlation, judge-only items are not worth buying: label everything by hand.")

# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------
plotted: dict[str, pd.DataFrame] = {}
tab = views(VIEWS)
target_line = ([figures.Line(y=res.target_se, text="target SE")] if mode != "budget" else
               [figures.Line(y=res.human_only.se, text="human only, same cost")])
if tab.open("se"):
    with tab["se"], guard():
        lo, hi = max(2, res.n_human // 20), max(res.n_human * 20, 200)
        ns = tuple(sorted(set(np.unique(np.geomspace(lo, hi, 50).astype(int)).tolist()) | {res.n_human}))
        nj = res.n_judge_only  # the current N, a quarter and four times it: curves that stay apart
        big = tuple(sorted({0, max(1, nj // 4), nj, 4 * nj} if nj > 0 else {0, 1000, 10000}))
        curves = se_curves(ns, big, sd, rho, cost_h, cost_j, delta, alpha, paired)
        curves = curves.assign(series=[f"N = {b:,}" + (" (current)" if b == res.n_judge_only else "")
                                       for b in curves["n_judge_only"]])
        plotted["se_vs_human_labels"] = curves
        if delta is not None:
            fig = figures.curve_figure(curves, x="n_human", y="power", color="series", current=(res.n_human, res.power),
                                       target=target, title="Power vs human-labelled items, by judge-only items N",
                                       x_title="Human-labelled items n", y_title="Power", y_range=(0, 1.02),
                                       style=style())
        else:
            fig = figures.curve_figure(curves, x="n_human", y="se", color="series", current=(res.n_human, res.se),
                                       target=None, lines=target_line, log_y=True, hover_format=".4f",
                                       title="Standard error vs human-labelled items, by judge-only items N",
                                       x_title="Human-labelled items n", y_title="Standard error", style=style())
        chart(fig, "se_chart")
        st.caption("Judge-only items lower the floor only as far as σ·√(1 − ρ²)/√n: beyond that, only more human "
                   "labels help.")
if tab.open("split"):
    with tab["split"], guard():
        rhos = tuple(np.round(np.linspace(0.0, 0.98, 50), 3).tolist())
        sp = splits(rhos, kw)
        tidy = pd.concat([sp.assign(items=sp["n_human"], kind="human-labelled"),
                          sp.assign(items=sp["n_judge_only"], kind="judge-only")], ignore_index=True)
        tidy = tidy[tidy["items"] > 0]  # no judge-only items at weak correlations: nothing to draw on a log axis
        plotted["split_vs_correlation"] = sp
        chart(figures.curve_figure(tidy, x="correlation", y="items", color="kind", current=(rho, res.n_human),
                                   target=None, log_x=False, log_y=True, hover_format=",.0f", x_hover_format=".2f",
                                   lines=[figures.Line(y=res.human_only.n_human, text="human only, same cost")],
                                   title="The cheapest split against the judge–human correlation",
                                   x_title="Judge–human correlation ρ", y_title="Items", style=style()),
              "split_chart")
        rho_min = math.sqrt(cost_j / (cost_h + cost_j))
        st.caption(f"The better the judge, the fewer human labels and the more judge-only items. Below ρ = "
                   f"√(c_j/(c_h + c_j)) = {rho_min:.3f} judge-only items are not worth buying (b/c_j ≤ a/c_h).")
if tab.open("strategies"):
    with tab["strategies"], guard():
        table = jg.strategy_table(res)
        plotted["strategies"] = table
        y = "power" if delta is not None else "se"
        fig = figures.bar_figure(table["strategy"], {("Power" if y == "power" else "Standard error"): table[y]},
                                 title=f"Three strategies at equal cost ({fmt_money(res.cost, currency)})",
                                 x_title="Strategy", y_title="Power" if y == "power" else "Standard error",
                                 hover_format=".4f", current=("PPI++", res.power if y == "power" else res.se),
                                 lines=[figures.Line(y=target, text=f"{target:.0%} power")] if y == "power"
                                 else target_line, style=style())
        chart(fig, "strategies_chart")
        st.dataframe(table, hide_index=True, width="stretch")
        if res.judge_only is None:
            st.caption("The Rogan–Gladen comparator needs binary labels: describe the judge by sensitivity / "
                       "specificity (one model).")
if tab.open("agreement"):
    with tab["agreement"], guard():
        need = agreement_n(ag_prev / 100, ag_kappa, ag_hw, ag_stat, 0.95)
        ns_a = tuple(sorted(set(np.unique(np.geomspace(20, max(5000, 4 * need), 60).astype(int)).tolist()) | {need}))
        ac = agreement(ns_a, ag_prev / 100, ag_kappa, 0.95)
        unreliable = ac[~ac.reliable]
        ac = ac[ac.reliable]
        ac = ac.assign(name=ac["statistic"].map(jg.STATISTICS))
        plotted["agreement_precision"] = ac
        cur = ac[(ac.statistic == ag_stat) & (ac.n == need)].halfwidth.iloc[0]
        chart(figures.curve_figure(ac, x="n", y="halfwidth", color="name", current=(need, cur), target=None,
                                   lines=[figures.Line(y=ag_hw, text="wanted half-width")], log_y=True,
                                   hover_format=".3f", title="Agreement precision vs double-annotated items",
                                   x_title="Items rated by both raters", y_title="95% half-width", style=style()),
              "agreement_chart")
        metrics_row(Metric(f"Items for ± {ag_hw:g}", f"{need:,}",
                           help="Smallest n with 1.96·SE ≤ the half-width (large-sample SE), and with the rarer "
                           "label expected at least 5 times (below that the SE is unreliable)."),
                    Metric("Value", f"{jg.agreement_value(prevalence=ag_prev / 100, kappa=ag_kappa, statistic=ag_stat):.3f}",
                           help="The statistic at the raters' table (prevalence, κ)."))
        if len(unreliable):
            st.caption(f"Below n = {int(ac.n.min()):,} the rarer label is expected fewer than "
                       f"{jg.agreement.MIN_EXPECTED} times at {ag_prev:g}% prevalence: the large-sample SE is "
                       "unreliable there, so the curve starts at that n and no smaller item count is suggested.")
        st.page_link("pages/judge.py", label="With this κ, one label on more items or a majority of several per "
                     "item? (tab Labels per item)", icon=":material/arrow_forward:",
                     query_params={"view": judge_labels.LABELS_VIEW, "lp_kappa": f"{min(max(ag_kappa, 0.05), 1.0):g}"})
if tab.open("paradox"):
    with tab["paradox"], guard():
        pc = paradox(ag_po)
        pc = pc.assign(name=pc["statistic"].map(jg.STATISTICS))
        plotted["prevalence_paradox"] = pc
        d = (1 - ag_po) / 2
        th = min(max(ag_prev / 100, d), 1 - d)
        k_now = float(jg.prevalence_paradox_curve(agreement=ag_po, prevalences=[th]).value.iloc[0])
        chart(figures.curve_figure(pc, x="prevalence", y="value", color="name", current=(th, k_now), target=None,
                                   log_x=False, lines=[figures.Line(y=ag_po, text="raw agreement")],
                                   x_hover_format=".2f", title=f"Same raw agreement ({ag_po:.0%}), different verdicts",
                                   x_title="Prevalence", y_title="Coefficient", y_range=(-0.2, 1.02), style=style()),
              "paradox_chart")
        st.caption("Feinstein & Cicchetti (1990): at skewed prevalence κ (and α) fall although the raters agree as "
                   "often; Gwet's AC1 stays near the raw agreement (Gwet 2008).")
with tab["fit"]:
    # the uploader is always rendered (hidden under another tab), so an upload survives a tab switch
    src = st.radio("Calibration labels", ["upload", "sample"], horizontal=True, key="cal_source",
                   format_func={"upload": "upload a file", "sample": "built-in sample (synthetic)"}.get,
                   help="Columns item, human, judge (and optionally model, for two models); 0/1 labels or scores.")
    cal, origin = None, None
    with guard("Cannot read the calibration file", stop=False):
        if src == "upload":
            up = st.file_uploader("Calibration file (CSV/TSV)", type=["csv", "tsv", "txt"], key="cal_file",
                                  help="Nothing in the file is executed. Also accepted: id, gold, label, prediction, "
                                  "llm, system …")
            if up is not None:
                cal, origin = read_calibration(up.getvalue(), up.name), up.name
        else:
            cal, origin = jg.sample_calibration(), "the built-in synthetic sample (core/data/judge_sample)"
    if cal is not None and tab.open("fit"):
        fitted = None
        with guard("Cannot estimate the judge", stop=False):
            fitted = fit(cal)
        if fitted is not None:
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
            values = {"rho": float(np.clip(round(fitted.correlation, 2), 0.0, 0.99)),
                      "sd": float(np.clip(round(fitted.sd, 2), 0.05, 2.0))}
            if fitted.binary and not fitted.paired:
                values.update({"judge_spec": "accuracy", "estimand": "one",
                               "prev": float(np.clip(round(200 * fitted.prevalence) / 2, 5.0, 95.0)),
                               "se": float(np.clip(round(200 * fitted.sensitivity) / 2, 50.0, 100.0)),
                               "sp": float(np.clip(round(200 * fitted.specificity) / 2, 50.0, 100.0))})
            else:
                values.update({"judge_spec": "correlation", "estimand": "paired" if fitted.paired else "one"})
            st.button("Use these values in the sliders", on_click=apply_values,
                      args=(values, f"fitted from {origin}"), key="use_fit", type="primary",
                      help="Sets the judge sliders (rounded to their steps).")

if tab.open("active"):
    with tab["active"], guard():
        judge_labels.active_view(cal, origin, plotted)
if tab.open("labels"):
    with tab["labels"], guard():
        judge_labels.labels_view(alpha, target, currency, plotted)

# ---------------------------------------------------------------------------
# the plan, download and explanation
# ---------------------------------------------------------------------------
if tab.current not in ("active", "labels"):  # those tabs plan their own designs (pages/_judge_labels.py)
    snippet = judge_snippet(plan=dict(kw), currency=currency,
                            judge=(prev, se_j, sp_j) if spec == "accuracy" else None)
    plan_actions(judge_plan.plan_item(
        design, res, currency=currency, link=current_link(), code=snippet,
        sources={"rho": source_of("rho", rho, "slider"), "sd": source_of("sd", sd, "slider"),
                 "se": source_of("se", se_pct, "slider") if spec == "accuracy" else "slider"}), key="judge")
    code_view(snippet, key="judge_code")
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

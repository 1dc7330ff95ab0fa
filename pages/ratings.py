"""Human-ratings page: Likert power with crossed worker × item variance, and a budget planner.

Card et al. (2020), §5.2 and appendix H.3; Westfall, Kenny & Judd (2014).
UI only: widgets → cached calls into ``core.ratings`` → charts and metrics.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core import analysis as an
from core import figures
from core import ratings as rt
from pages import apply_values, ensure_frame, fmt_pct, metric

ensure_frame()

cache = st.cache_data(show_spinner=False, max_entries=256)
ITEM_OPTIONS = [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000]
SIGMA_KEYS = ("sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma")
SIGMA_LABELS = {"sigma_w0": "Worker intercept SD σ_w0", "sigma_w1": "Worker slope SD σ_w1",
                "sigma_i0": "Item intercept SD σ_i0", "sigma_i1": "Item slope SD σ_i1", "sigma": "Residual SD σ"}
SIGMA_HELP = {
    "sigma_w0": "How much workers differ in their overall leniency.",
    "sigma_w1": "How much workers differ in how strongly they prefer the new system — the key driver of power "
                "with few workers.",
    "sigma_i0": "How much items differ in overall quality.",
    "sigma_i1": "How much the systems' difference varies from item to item.",
    "sigma": "Rating noise left over (on the [0, 1] scale).",
}
PRESET_NAMES = {"high": "Table 16: high variance", "low": "Table 16: low variance",
                **{name: f"Tables 13–15: {name}" for name in rt.DATASET_PRESETS}}


@cache
def point(w, i, effect, sig, baseline, alpha, rule, method, n_sims, seed, likert):
    return rt.likert_power(w, i, effect, **dict(sig), baseline=baseline, alpha=alpha, rule=rule, method=method,
                           n_sims=n_sims, seed=seed, likert=likert)


@cache
def crowd_point(w, i, k, effect, sig, baseline, alpha, rule, n_sims, seed, likert):
    return rt.crowd_power(w, i, k, effect, **dict(sig), baseline=baseline, alpha=alpha, rule=rule, n_sims=n_sims,
                          seed=seed, likert=likert)


@cache
def analytic_grid(workers_list, items_list, effects, sig, alpha):
    return rt.analytic_grid(list(workers_list), list(items_list), list(effects), alpha=alpha, **dict(sig))


@cache
def simulated_points(w, i, effects, sig, baseline, alpha, rule, n_sims, seed, likert):
    rows = []
    for e in effects:
        r = rt.likert_power(w, i, e, **dict(sig), baseline=baseline, alpha=alpha, rule=rule, n_sims=n_sims, seed=seed,
                            likert=likert)
        rows.append((e, r.power, r.mc_se))
    return pd.DataFrame(rows, columns=["effect", "power", "mc_se"])


@cache
def fpr_by_rule(workers_list, i, sig, alpha, n_sims, seed):
    rows = []
    for w in workers_list:
        for rule in rt.RULES:
            r = rt.likert_power(w, i, 0.0, **dict(sig), alpha=alpha, rule=rule, n_sims=n_sims, seed=seed)
            nominal = 0.025 if rule == "paper" else alpha
            rows.append((w, rule, r.false_positive_rate, r.false_positive_rate_se, nominal))
    return pd.DataFrame(rows, columns=["workers", "rule", "false_positive_rate", "mc_se", "nominal"])


@cache
def plans(effect, cost_rating, cost_worker, target, alpha, sig):
    return rt.budget_plans(effect, cost_per_rating=cost_rating, cost_per_worker=cost_worker, target_power=target,
                           alpha=alpha, **dict(sig))


@cache
def crowd_plan_table(effect, pool, cost_rating, target, alpha, sig):
    return rt.crowd_plans(effect, pool=pool, cost_per_rating=cost_rating, target_power=target, alpha=alpha,
                          **dict(sig))


@cache
def mde(w, i, target, alpha, sig):
    return rt.likert_mde(w, i, target_power=target, alpha=alpha, **dict(sig))


@cache
def pilot_fit(data: bytes):
    table = an.read_table(data)
    return rt.fit_pilot(table)


def apply_preset() -> None:
    name = st.session_state["preset"]
    values = dict(rt.PRESETS.get(name) or rt.DATASET_PRESETS[name])
    apply_values({k: float(values[k]) for k in SIGMA_KEYS})
    if "effect" in values:
        st.session_state["effect"] = float(min(max(abs(values["effect"]), 0.0), 0.3))
        st.session_state["baseline"] = float(values["baseline"])


# ---------------------------------------------------------------------------
# sidebar
# ---------------------------------------------------------------------------
st.title("Human ratings: how many workers and items?")
st.caption("Card et al. (2020), §5.2 and appendix H.3: every worker rates every item under both systems; ratings on "
           "[0, 1]; a mixed model with worker and item intercepts and slopes.")
side = st.sidebar
side.selectbox("Variance preset", list(PRESET_NAMES), format_func=PRESET_NAMES.get, key="preset",
               bind="query-params", on_change=apply_preset,
               help="Variance components fitted by Card et al.: Table 16's high/low settings, or the per-dataset fits "
               "of Tables 13–15 for datasets comparing two systems. Choosing one sets the sliders.")
side.subheader("Design")
layout = side.radio("Who rates what", ["crossed", "crowd"], key="layout", bind="query-params", horizontal=True,
                    format_func={"crossed": "every worker, every item", "crowd": "k workers per item"}.get,
                    help="Fully crossed (the paper's design), or a crowdsourcing design where each item is rated by k "
                    "workers drawn from a pool of W (simulation engine; moment-based analysis).")
workers = side.slider("Workers W (each rates every item)" if layout == "crossed" else "Worker pool W", 2, 50, 3, 1,
                      key="workers", bind="query-params",
                      help="3 was the most common choice at EMNLP 2019 (§5.1).")
per_item = None
if layout == "crowd":
    per_item = side.slider("Workers per item k", 2, max(2, workers), min(3, workers), 1, key="per_item",
                           bind="query-params", help="Each item's two outputs are rated by k workers from the pool.",
                           disabled=workers < 3)
items = side.select_slider("Items I", ITEM_OPTIONS, value=100, key="items", bind="query-params",
                           help="69% of EMNLP 2019 studies used 100 items or fewer.")
effect = side.slider("Effect β1 (±1-coded system coefficient)", 0.0, 0.3, 0.1, 0.005, key="effect",
                     bind="query-params", help="Figure 6's x axis. The systems' mean ratings differ by 2 × β1.")
side.caption(f"→ difference in mean rating: **{2 * effect:.3f}** on the [0, 1] scale "
             f"(≈ {2 * effect * 4:.2f} points on a 1–5 Likert scale).")
baseline = side.slider("Mean rating β0", 0.1, 0.9, 0.5, 0.01, key="baseline", bind="query-params",
                       help="Matters only when ratings are rounded to a Likert scale.")
side.subheader("Variance components (SDs)")
defaults = rt.PRESETS["high"]
sig = {k: side.slider(SIGMA_LABELS[k], 0.0, 0.4, float(defaults[k]), 0.005, key=k, bind="query-params",
                      help=SIGMA_HELP[k]) for k in SIGMA_KEYS}
side.subheader("Analysis")
rule = side.radio("Decision rule", list(rt.RULES), key="rule", bind="query-params",
                  format_func={"paper": "paper: ML fit, t > 1.96", "satterthwaite": "REML + Satterthwaite t"}.get,
                  help="The paper's rule counts a detection when the ML t value exceeds 1.96 (one-sided, no df "
                  "correction). The Satterthwaite rule is the two-sided test a careful analyst would run.")
engine = side.radio("Engine", list(rt.METHODS), key="engine", bind="query-params", horizontal=True,
                    format_func={"simulate": "simulation", "analytic": "analytic"}.get,
                    help="Analytic: noncentral t (Westfall, Kenny & Judd 2014), Satterthwaite rule only. Simulation: "
                    "simulated experiments fitted like the real analysis (either rule).")
alpha = side.select_slider("α (two-sided, Satterthwaite rule)", [0.01, 0.025, 0.05, 0.1], value=0.05, key="alpha",
                           bind="query-params", help="The paper's rule always uses t > 1.96.")
n_sims = side.select_slider("Simulated experiments", [200, 500, 1000, 2000, 5000], value=500, key="sims",
                            bind="query-params", help="The paper used 200 per point.")
seed = int(side.number_input("Random seed", min_value=0, max_value=2**31 - 1, value=2020, key="seed",
                             bind="query-params", help="Fixes the simulation."))
likert_choice = side.radio("Ratings", ["continuous", "5", "7"], key="likert", bind="query-params", horizontal=True,
                           format_func={"continuous": "continuous", "5": "5-point", "7": "7-point"}.get,
                           help="Round and clip simulated ratings to a Likert scale (simulation engine).")
likert = None if likert_choice == "continuous" else int(likert_choice)
target = side.slider("Target power", 0.5, 0.99, 0.8, 0.01, key="target", bind="query-params",
                     help="For the MDE and the planner.")

method = engine
if layout == "crowd" and engine == "analytic":
    st.info("The crowdsourcing design is simulated (each replicate draws which workers rate which items).")
    method = "simulate"
elif engine == "analytic" and (rule == "paper" or likert is not None):
    st.info("The analytic engine covers the Satterthwaite rule with continuous ratings; using simulation for this "
            "combination.")
    method = "simulate"
sig_key = tuple(sorted(sig.items()))

# ---------------------------------------------------------------------------
# computation
# ---------------------------------------------------------------------------
try:
    if layout == "crowd":
        result = crowd_point(workers, items, per_item, effect, sig_key, baseline, alpha, rule, n_sims, seed, likert)
    else:
        result = point(workers, items, effect, sig_key, baseline, alpha, rule, method, n_sims, seed, likert)
    mde_value = mde(workers, items, target, alpha, sig_key)
    effects = tuple(np.round(np.linspace(0.0, 0.3, 31), 3))
    worker_set = tuple(sorted({3, 10, workers}))
    curves = analytic_grid(worker_set, (items,), effects, sig_key, alpha)
    by_items = analytic_grid(worker_set, tuple(ITEM_OPTIONS), (effect,), sig_key, alpha) if effect > 0 else None
    if layout == "crowd":
        sims = pd.DataFrame([(e, r.power, r.mc_se) for e in (0.05, 0.1, 0.15, 0.2) for r in
                             [crowd_point(workers, items, per_item, e, sig_key, baseline, alpha, rule,
                                          min(n_sims, 1000), seed, likert)]], columns=["effect", "power", "mc_se"])
    else:
        sims = simulated_points(workers, items, (0.05, 0.1, 0.15, 0.2), sig_key, baseline, alpha, rule,
                                min(n_sims, 1000), seed, likert)
except ValueError as err:
    st.error(f"**Cannot compute this design.** {err}")
    st.stop()

# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------
cols = st.columns(5)
metric(cols[0], "Power" if effect else "Detection rate", fmt_pct(result.power),
       se=f"{100 * result.mc_se:.1f}%" if result.mc_se else None,
       help="P(a detection in the right direction) under the chosen rule.")
nominal = 0.025 if rule == "paper" else alpha
metric(cols[1], "False-positive rate", fmt_pct(result.false_positive_rate),
       se=f"{100 * result.false_positive_rate_se:.1f}%" if result.false_positive_rate_se else None,
       help=f"How often the rule declares a difference when the systems are equal; nominally {nominal:.1%}.")
cols[2].metric("Type-M (exaggeration)", "—" if not math.isfinite(result.type_m) else f"{result.type_m:.2f}×",
               help="Mean |estimated effect| / true effect among significant results.")
cols[3].metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the "
               "wrong sign.")
cols[4].metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else f"{mde_value:.3f}",
               help="Smallest β1 this design detects with the target power (analytic Satterthwaite engine).")
if math.isfinite(mde_value):
    cols[4].caption(f"= a difference of {2 * mde_value:.3f} in mean rating")
if result.false_positive_rate > nominal + 3 * max(result.false_positive_rate_se, 1e-9) and result.false_positive_rate_se:
    st.error(f"**This rule is not calibrated here:** with {workers} workers it declares a difference in "
             f"{fmt_pct(result.false_positive_rate)} of experiments where there is none (nominal {nominal:.1%}). With "
             "few workers the worker-slope variance is estimated from W − 1 degrees of freedom, and a test that "
             "ignores this (t > 1.96) — or even estimates its df from so little — is too optimistic. Add workers.")
elif effect and result.power < target:
    st.warning(f"**Under-powered:** {fmt_pct(result.power)} power for a {2 * effect:.3f} difference in mean rating.")
elif effect:
    st.success(f"**Adequately powered** ({fmt_pct(result.power)} ≥ {target:.0%}).")

# ---------------------------------------------------------------------------
# charts
# ---------------------------------------------------------------------------
tabs = st.tabs(["Power vs effect (Figure 6)", "Power vs items", "False positives by rule", "Type-M",
                "Budget planner", "Fit a pilot"])
with tabs[0]:
    curves = curves.assign(series=[f"W = {w} (analytic)" for w in curves["workers"]])
    fig = figures.curve_figure(curves, x="effect", y="power", color="series", current=(effect, result.power),
                               target=target, title=f"Power vs effect, {items} items", x_title="Effect β1",
                               y_title="Power", log_x=False, y_range=(0, 1.02))
    sim_label = (f"W = {workers}" if layout == "crossed" else f"k = {per_item} of {workers}") + f", {rule} rule"
    fig.add_trace(go.Scatter(x=sims["effect"], y=sims["power"], mode="markers", name=f"{sim_label} (simulated)", marker=dict(size=11, color=figures.PALETTE[3], symbol="square"),
                             error_y=dict(type="data", array=2 * sims["mc_se"]),
                             hovertemplate="effect %{x}<br>power %{y:.3f}<extra>simulated ± 2 SE</extra>"))
    st.plotly_chart(fig, key="power_chart", width="stretch")
    st.caption("Lines: analytic power of the Satterthwaite t test. Squares: the chosen rule simulated for the current "
               "design (± 2 standard errors). With the paper's rule and Table 16's settings these reproduce Figure 6.")
with tabs[1]:
    if by_items is None:
        st.info("Set a non-zero effect to see power against the number of items.")
    else:
        by_items = by_items.assign(series=[f"W = {w}" for w in by_items["workers"]])
        fig_items = figures.curve_figure(by_items, x="items", y="power", color="series", current=(items, result.power),
                                         target=target, title=f"Power vs items (effect {effect:g}, analytic)",
                                         x_title="Items I", y_title="Power", y_range=(0, 1.02))
        st.plotly_chart(fig_items, key="items_chart", width="stretch")
        st.caption("With few workers power hits a ceiling: more items cannot average away how much the workers "
                   "themselves disagree about the systems (the worker-slope variance)."
                   + (" Curves are fully crossed designs for comparison; the diamond is your crowdsourcing design."
                      if layout == "crowd" else ""))
        by_workers = analytic_grid(tuple(range(2, 51)), tuple(sorted({50, items, 500})), (effect,), sig_key, alpha)
        by_workers = by_workers.assign(series=[f"I = {i}" for i in by_workers["items"]])
        fig_w = figures.curve_figure(by_workers, x="workers", y="power", color="series",
                                     current=(workers, result.power), target=target, log_x=False, y_range=(0, 1.02),
                                     title=f"Power vs workers (effect {effect:g}, analytic)", x_title="Workers W",
                                     y_title="Power")
        st.plotly_chart(fig_w, key="workers_chart", width="stretch")
with tabs[2]:
    fpr = fpr_by_rule((2, 3, 5, 10, 20), items, sig_key, alpha, 1000, seed)
    bars = go.Figure()
    for k, r in enumerate(rt.RULES):
        part = fpr[fpr.rule == r]
        bars.add_trace(go.Bar(x=[str(w) for w in part["workers"]], y=part["false_positive_rate"],
                              error_y=dict(type="data", array=2 * part["mc_se"]), name={"paper": "paper (t > 1.96)",
                              "satterthwaite": f"Satterthwaite (α = {alpha})"}[r], marker_color=figures.PALETTE[k],
                              hovertemplate="W = %{x}<br>false positives %{y:.3f}<extra></extra>"))
    bars.add_hline(y=0.025, line=dict(color=figures.PALETTE[0], dash="dot"), annotation_text="paper's nominal 2.5%")
    bars.add_hline(y=alpha, line=dict(color=figures.PALETTE[1], dash="dot"), annotation_text=f"α = {alpha}",
                   annotation_position="bottom right")
    bars.update_layout(barmode="group", title=f"False-positive rate at effect 0 ({items} items, 1,000 simulations)",
                       xaxis_title="Workers", yaxis_title="Rate", template="plotly_white", height=440)
    st.plotly_chart(bars, key="fpr_chart", width="stretch")
with tabs[3]:
    tm = curves[curves["effect"] > 0]
    fig_m = figures.curve_figure(tm, x="effect", y="type_m", color="series", current=(effect, result.type_m),
                                 target=None, title="Exaggeration of significant results", x_title="Effect β1",
                                 y_title="Type-M", log_x=False, hover_format=".2f")
    fig_m.update_yaxes(type="log")
    figures.add_reference_line(fig_m, y=1.0, text="no exaggeration", log_y=True)
    if math.isfinite(mde_value):
        figures.add_reference_line(fig_m, x=mde_value, text=f"{target:.0%} power")
    st.plotly_chart(fig_m, key="type_m_chart", width="stretch")
with tabs[4]:
    c1, c2, c3 = st.columns(3)
    cost_rating = c1.number_input("Cost per rating", min_value=0.0, value=0.10, step=0.01, key="cost_rating",
                                  help="What one rating costs (e.g. USD).")
    cost_worker = c2.number_input("Fixed cost per worker", min_value=0.0, value=0.0, step=1.0, key="cost_worker",
                                  help="Recruiting/qualification cost per worker, if any.")
    if effect <= 0:
        st.info("Set a non-zero effect to plan a budget.")
    else:
        if layout == "crowd":
            plan = crowd_plan_table(effect, workers, cost_rating, target, alpha, sig_key)
            knob, symbol = "per_item", "k"
            title = f"Cheapest design per k (pool of {workers}; approximate analytic power)"
        else:
            plan = plans(effect, cost_rating, cost_worker, target, alpha, sig_key)
            knob, symbol = "workers", "W"
            title = "Cheapest design per number of workers (grey: never reaches the target, shown at 5,000 items)"
        ok = plan[plan["reachable"]]
        if len(ok):
            best = ok.iloc[0]
            c3.metric("Cheapest design", f"{symbol} = {int(best[knob])}, I = {int(best['items'])}",
                      help=f"{int(best['ratings']):,} ratings, cost {best['cost']:,.2f}")
        scatter = go.Figure(go.Scatter(
            x=plan["cost"], y=plan["power"], mode="markers+text", text=[f"{symbol}={v}" for v in plan[knob]],
            textposition="top center", marker=dict(size=11, color=np.where(plan["reachable"], figures.PALETTE[2],
                                                                           "#AAAAAA")),
            customdata=np.stack([plan[knob], plan["items"], plan["ratings"]], axis=-1),
            hovertemplate=f"{symbol} = %{{customdata[0]}}, I = %{{customdata[1]}}<br>%{{customdata[2]:,}} ratings"
                          "<br>cost %{x:,.2f}<br>power %{y:.3f}<extra></extra>", name="designs"))
        figures.add_reference_line(scatter, y=target, text=f"{target:.0%} power")
        scatter.update_layout(title=title, xaxis_title="Total cost", yaxis_title="Power", xaxis_type="log",
                              template="plotly_white", height=440)
        st.plotly_chart(scatter, key="planner_chart", width="stretch")
        st.dataframe(plan, hide_index=True, width="stretch", column_config={
            "cost": st.column_config.NumberColumn("Cost", format="%.2f"),
            "power": st.column_config.NumberColumn("Power", format="%.3f")})
        st.download_button("Download the plans (CSV)", plan.to_csv(index=False).encode(),
                           file_name=f"{layout}_rating_plans.csv", mime="text/csv", key="download_plans")
with tabs[5]:
    st.markdown("Upload pilot ratings with columns **worker, item, system, rating** (two systems; any Likert range — "
                "rescaled to [0, 1]). The crossed mixed model is fitted by REML with statsmodels.")
    pilot = st.file_uploader("Pilot ratings (CSV/TSV)", type=["csv", "tsv", "txt"], key="pilot",
                             help="One rating per row. Nothing in the file is executed.")
    if pilot is not None:
        try:
            fitted = pilot_fit(pilot.getvalue())
        except ValueError as err:
            st.error(f"**Cannot fit this pilot:** {err}")
        else:
            c = st.columns(4)
            c[0].metric("Ratings", f"{fitted.n_ratings:,}")
            c[1].metric("Workers × items", f"{fitted.workers} × {fitted.items}")
            c[2].metric("Effect β1", f"{fitted.effect:+.3f}", help=f"{fitted.systems[1]} coded +1.")
            c[3].metric("Residual SD", f"{fitted.sigma:.3f}")
            st.dataframe(pd.DataFrame([{k: getattr(fitted, k) for k in SIGMA_KEYS}]), hide_index=True)
            values = {k: float(min(max(round(getattr(fitted, k), 3), 0.0), 0.4)) for k in SIGMA_KEYS}
            values["effect"] = float(min(max(round(abs(fitted.effect) / 0.005) * 0.005, 0.0), 0.3))
            values["baseline"] = float(min(max(round(fitted.baseline, 2), 0.1), 0.9))
            st.button("Use these values in the sliders", on_click=apply_values, args=(values,), key="use_pilot",
                      type="primary", help="Effect (as a magnitude), mean rating and the five SDs.")

plotted = pd.concat([curves.assign(chart="power_vs_effect"),
                     (by_items.assign(chart="power_vs_items") if by_items is not None else None),
                     sims.assign(chart="simulated_points", workers=workers, items=items)], ignore_index=True)
st.download_button("Download the plotted curves (CSV)", plotted.to_csv(index=False).encode(),
                   file_name="ratings_power_curves.csv", mime="text/csv", key="download_curves")
with st.expander("Explain this page in plain language"):
    st.markdown(
        f"""
**The question.** {workers} workers each rate {items} outputs of both systems on a [0, 1] scale. Can that detect a
difference of **{2 * effect:.3f}** in mean rating?

**Why workers matter so much.** Workers differ not only in leniency but in *how much they prefer the new system*
(the worker-slope SD). That disagreement is averaged over workers, not items: with three workers it can never be
averaged away, so power stops growing with more items (second tab).

**Two ways to decide.** The paper counted a detection when the mixed model's t value exceeded 1.96. With few
workers that rule is too optimistic: it declares differences between equal systems far more often than the nominal
2.5% (third tab). A REML fit with a Satterthwaite t test is the careful analysis; it is calibrated from about ten
workers and still somewhat optimistic below that.

**Exaggeration.** When power is low, the significant results are the lucky ones and overstate the difference
(fourth tab).

**Planning.** The budget planner finds, for each number of workers, the fewest items reaching {target:.0%} power, with
the cost; more workers per item usually buy more power per rating than more items.

**Crowdsourcing designs.** With "k workers per item", each item is rated by k workers drawn from a pool of W.
Spreading the items over a larger pool averages the workers' disagreement better than asking the same three workers
to rate everything. This design is analysed with moment estimates of the same model (no per-replicate mixed-model
fit), which is approximately calibrated — the false-positive rate shown next to the power says how well.
"""
    )

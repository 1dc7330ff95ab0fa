"""Sequential-budget page: fixed vs interim vs interim-futility DA campaigns (Wei et al. 2022, §5–7).

UI only: widgets → cached calls into ``core.sequential`` → charts and metrics.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core import figures
from core import sequential as sq
from pages import ensure_frame, fmt_pct, metric

ensure_frame()

cache = st.cache_data(show_spinner=False, max_entries=256)
DESIGN_LABELS = {"fixed": "fixed", "interim": "interim", "interim_futility": "interim-futility",
                 "naive": "naive peeking"}
BUDGETS = [200, 300, 400, 600, 800, 1000, 1200, 1500, 1800, 2400, 3000, 3600, 4800, 6000, 8000, 10000]


@cache
def point(design, budget, delta, kw, method, n_sims, seed):
    return sq.campaign_power(design, budget, delta, method=method, n_sims=n_sims, seed=seed, **dict(kw))


@cache
def curves(budget, deltas, kw):
    return sq.campaign_curves(budget, list(deltas), designs=("fixed", "interim", "interim_futility", "naive"),
                              **dict(kw))


@cache
def population(budgets, pop, kw):
    return sq.population_curves(list(budgets), np.array(pop), **dict(kw))


@cache
def savings(budget, pop, kw):
    return sq.budget_savings(budget, np.array(pop), **dict(kw))


@cache
def mde(design, budget, target, kw):
    return sq.campaign_mde(design, budget, target_power=target, **dict(kw))


@cache
def per_pair(budget_fixed, budget_futility, pop, kw):
    fixed = sq.campaign_curves(budget_fixed, list(pop), designs=("fixed",), **dict(kw))
    futile = sq.campaign_curves(budget_futility, list(pop), designs=("interim_futility",), **dict(kw))
    return pd.DataFrame({"delta": fixed["delta"], "power_fixed": fixed["power"],
                         "power_interim_futility": futile["power"],
                         "judgments_interim_futility": futile["expected_judgments"]})


# ---------------------------------------------------------------------------
# sidebar
# ---------------------------------------------------------------------------
st.title("Planning a Direct Assessment campaign: should you peek?")
st.caption("Wei, Kocmi & Federmann (2022), §5–7: fixed, interim (Pocock-corrected peeks) and interim-futility "
           "testing of two MT systems with Mann–Whitney U.")
side = st.sidebar
side.subheader("Campaign")
budget = side.select_slider("Planned judgments for the pair", options=BUDGETS, value=1200, key="budget",
                            bind="query-params",
                            help="Split evenly between the two systems. ~1,200 is a typical WMT-style pair.")
design = side.radio("Design", list(sq.DESIGNS), format_func=DESIGN_LABELS.get, key="design", bind="query-params",
                    help="Fixed: one test at the end. Interim: K equally spaced analyses, stop at the first "
                    "significant one (corrected). Interim-futility: also stop when p > the futility threshold. "
                    "Naive: peek K times at α without correction (shown to warn).")
peeks = side.slider("Number of analyses K", min_value=1, max_value=10, value=3, step=1, key="peeks",
                    bind="query-params", help="Equally spaced looks at the data (the paper uses 3).")
kind = side.selectbox("Boundary", list(sq.BOUNDARIES), key="boundary", bind="query-params",
                      format_func={"pocock": "Pocock (constant; the paper's)", "obrien_fleming": "O'Brien–Fleming",
                                   "lan_demets": "Lan–DeMets spending (O'Brien–Fleming type)",
                                   "lan_demets_pocock": "Lan–DeMets spending (Pocock type)"}.get,
                      help="How the overall α is shared among the looks. Pocock: same nominal level every time "
                      "(K = 3 → p < 0.0221). O'Brien–Fleming: very strict early, nearly α at the end.")
futility_p = side.slider("Futility threshold (stop if p >)", min_value=0.1, max_value=0.9, value=0.5, step=0.05,
                         key="futility", bind="query-params",
                         help="Interim-futility stops a pair whose interim p-value exceeds this (0.5 in the paper). "
                         "Non-binding: it never raises the false-positive rate.")
side.subheader("Judgments")
mean = side.slider("Mean DA score", min_value=50.0, max_value=95.0, value=75.0, step=0.5, key="mean",
                   bind="query-params", help="Average 0–100 Direct Assessment score of the pair's systems.")
sd = side.slider("Judgment standard deviation", min_value=10.0, max_value=40.0, value=27.0, step=0.5, key="sd",
                 bind="query-params", help="Spread of individual judgments. WMT21 crowd DA: 29.4 (Table 2).")
delta = side.slider("True difference (DA points)", min_value=0.0, max_value=10.0, value=2.0, step=0.1, key="delta",
                    bind="query-params", help="Difference in mean score between the two systems. Most WMT pairs "
                    "differ by 1–2 points (Table 1 medians 0.5–3.2).")
side.subheader("Test")
alpha = side.select_slider("Overall α (two-sided)", options=[0.01, 0.025, 0.05, 0.1], value=0.05, key="alpha",
                           bind="query-params", help="False-positive rate of the whole campaign.")
test = side.radio("Test", list(sq.TESTS), horizontal=True, key="test", bind="query-params",
                  format_func={"mwu": "Mann–Whitney U", "t": "t test"}.get,
                  help="Mann–Whitney U is the MT standard (Akhbardeh et al. 2021).")
target = side.slider("Target power", min_value=0.5, max_value=0.99, value=0.8, step=0.01, key="target",
                     bind="query-params", help="Used for the minimum detectable effect.")
engine = side.radio("Engine", list(sq.METHODS), horizontal=True, key="engine", bind="query-params",
                    format_func={"analytic": "analytic", "simulate": "Monte Carlo"}.get,
                    help="Analytic: exact recursive integration of the sequential z statistics (instant; used for "
                    "all curves). Monte Carlo: simulated campaigns for the current design, with standard errors.")
if engine == "simulate":
    n_sims = side.select_slider("Simulated campaigns", options=[500, 1000, 2000, 5000], value=2000, key="sims",
                                bind="query-params", help="Per scenario (true difference and zero difference).")
    seed = int(side.number_input("Random seed", min_value=0, max_value=2**31 - 1, value=2022, step=1, key="seed",
                                 bind="query-params", help="Fixes the simulation."))
else:
    n_sims, seed = 2000, 2022
side.subheader("Population of system pairs")
pop_source = side.radio("True differences of the pairs you will compare", ["default", "paste"], key="pop",
                        bind="query-params", format_func={"default": "shaped like WMT (Figure 6)",
                                                          "paste": "my past differences"}.get,
                        help="Used for the budget curves: average power over many pairs.")
if pop_source == "paste":
    pasted = side.text_area("Past differences (DA points)", value="0.4, 0.8, 1.1, 1.5, 2.0, 3.2, 5.5, 0.2, 0.9, 1.3",
                            key="pop_values", help="Numbers separated by commas, spaces or new lines; signs are "
                            "ignored. Up to 10,000.")
    uploaded = side.file_uploader("…or upload them (text or one-column CSV)", type=["txt", "csv", "tsv"],
                                  key="pop_file", help="Replaces the pasted list. Plain UTF-8 text; a header line "
                                  "is skipped if it is not a number.")
    if uploaded is not None:
        raw = uploaded.getvalue()
        try:
            text = raw.decode("utf-8-sig")
            if "\x00" in text:
                raise UnicodeDecodeError("utf-8", raw, 0, 1, "binary")
        except UnicodeDecodeError:
            st.error("**Cannot read the uploaded differences:** the file is not UTF-8 text.")
            st.stop()
        lines = text.strip().splitlines()
        if lines and not lines[0].replace(",", " ").split()[0].lstrip("+-").replace(".", "", 1).isdigit():
            lines = lines[1:]  # a header such as "difference"
        pasted = "\n".join(lines)

# ---------------------------------------------------------------------------
# computation
# ---------------------------------------------------------------------------
kw = (("peeks", peeks), ("boundary", kind), ("futility_p", futility_p), ("mean", mean), ("sd", sd),
      ("alpha", alpha), ("test", test))
try:
    if pop_source == "paste":
        pop = sq.parse_differences(pasted)
        if pop.size > 200:  # quantiles keep the curves instant; averages are unchanged to < 1e-3
            pop = np.quantile(pop, (np.arange(200) + 0.5) / 200)
    else:
        pop = sq.default_population(30)
    pop = tuple(float(v) for v in pop)
    result = point(design, budget, delta, kw, engine, n_sims, seed)
    deltas = tuple(np.round(np.linspace(0, 8, 33), 3))
    fig5 = curves(budget, deltas, kw)
    fig6 = population(tuple(BUDGETS), pop, kw)
    saved = savings(budget, pop, kw)
    saved_3x = savings(3 * budget, pop, kw)  # §7.3 also reports the saving at three times the budget
    mde_value = mde(design, budget, target, kw)
    futility_budget = saved.set_index("design").loc["interim_futility", "planned_budget"]
    pairs = per_pair(budget, int(futility_budget), pop, kw) if math.isfinite(futility_budget) else None
except ValueError as err:
    st.error(f"**Cannot compute this campaign.** {err}")
    st.stop()

# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------
cols = st.columns(5)
metric(cols[0], "Power" if delta else "False-positive rate", fmt_pct(result.power),
       se=f"{100 * result.mc_se:.1f}%" if result.mc_se else None,
       help="P(a significant result in the right direction) for this design and true difference.")
metric(cols[1], "False-positive rate (Δ = 0)", fmt_pct(result.false_positive_rate, 2),
       se=f"{100 * result.false_positive_rate_se:.1f}%" if result.false_positive_rate_se else None,
       help="How often this design declares a winner when the systems are equal. Corrected designs stay ≤ α; naive "
       "peeking does not.")
metric(cols[2], "Expected judgments", f"{result.expected_judgments:,.0f}",
       se=f"{result.judgments_se:,.0f}" if result.judgments_se else None,
       help="Average number of judgments actually collected (interim designs stop early).")
cols[3].metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else
               f"{mde_value:.2f} DA", help="Smallest true difference this design detects with the target power "
               "(the sensitivity view of §5).")
fut_row = saved.set_index("design").loc["interim_futility"]
cols[4].metric("Saving of interim-futility", "—" if not math.isfinite(fut_row["saving"]) else
               f"{100 * fut_row['saving']:.0f}%",
               help=f"Judgments saved while matching the fixed design's average power at {budget:,} judgments over "
               f"the population of pairs (the paper: 18% at 1,200, 27% at 3×).")
if result.false_positive_rate > alpha + 1e-3:
    st.error(f"**Uncorrected peeking:** this design declares false winners {fmt_pct(result.false_positive_rate)} of the time, "
             f"not {alpha:.0%}. Use a boundary (Pocock, O'Brien–Fleming) instead.")
elif delta and result.power < target:
    st.warning(f"**Under-powered:** {fmt_pct(result.power)} power for a {delta:g}-point difference with "
               f"{budget:,} judgments.")
elif delta:
    st.success(f"**Adequately powered** ({fmt_pct(result.power)} ≥ {target:.0%}).")

# ---------------------------------------------------------------------------
# charts
# ---------------------------------------------------------------------------
tabs = st.tabs(["Power and cost vs difference (Figure 5)", "Budget curves (Figure 6)",
                "Per pair: fixed vs interim-futility (Figure 4)", "When does it stop?", "Control variates (§6.2)"])
fig5 = fig5.assign(label=fig5["design"].map(DESIGN_LABELS))
with tabs[0]:
    c1, c2 = st.columns(2)
    current = (delta, result.power if delta else result.false_positive_rate)
    c1.plotly_chart(
        figures.curve_figure(fig5, x="delta", y="power", color="label", current=current, target=target,
                             title=f"Power vs true difference ({budget:,} judgments planned)",
                             x_title="True difference (DA points)", y_title="Power", log_x=False, y_range=(0, 1.02)),
        key="power_chart", width="stretch",
    )
    cost = figures.curve_figure(fig5, x="delta", y="expected_judgments", color="label",
                                current=(delta, result.expected_judgments), target=None,
                                title="Expected judgments collected", x_title="True difference (DA points)",
                                y_title="Judgments", log_x=False, hover_format=",.0f")
    figures.add_reference_line(cost, y=budget, text="planned budget")
    c2.plotly_chart(cost, key="judgments_chart", width="stretch")
    st.caption("Interim designs stop early when the difference is large; futility stopping also gives up early on "
               "the smallest differences — it trades their (already low) power for savings.")

with tabs[1]:
    fig6 = fig6.assign(label=fig6["design"].map(DESIGN_LABELS))
    avg = figures.curve_figure(fig6, x="average_judgments", y="average_power", color="label",
                               current=(budget, float(fig6[(fig6.design == "fixed") & (fig6.budget == budget)]
                                                      ["average_power"].iloc[0]) if budget in BUDGETS else None),
                               target=target, title="Average power over the population vs judgments spent",
                               x_title="Average judgments actually spent per pair", y_title="Average power",
                               y_range=(0, 1.02), hover_format=".3f")
    for row in saved.itertuples():
        if row.design != "fixed" and math.isfinite(row.expected_judgments):
            figures.add_reference_line(avg, x=row.expected_judgments,
                                       text=f"{DESIGN_LABELS[row.design]}: {100 * row.saving:.0f}% saved",
                                       color=figures.PALETTE[list(DESIGN_LABELS).index(row.design)])
    c1, c2 = st.columns([3, 2])
    c1.plotly_chart(avg, key="budget_chart", width="stretch")
    hist = go.Figure(go.Histogram(x=list(pop), nbinsx=30, marker_color=figures.PALETTE[0],
                                  hovertemplate="difference %{x}<br>pairs %{y}<extra></extra>"))
    hist.update_layout(title="True differences of the pairs", xaxis_title="DA points", yaxis_title="Pairs",
                       template="plotly_white", height=480)
    c2.plotly_chart(hist, key="population_chart", width="stretch")
    table = pd.concat([saved.assign(budget=f"{budget:,} (current)"), saved_3x.assign(budget=f"{3 * budget:,} (3×)")],
                      ignore_index=True)
    table = table.assign(design=table["design"].map(DESIGN_LABELS))[["budget", "design", "planned_budget",
                                                                     "expected_judgments", "saving"]]
    st.dataframe(table, hide_index=True, width="stretch", column_config={
        "budget": "Fixed design's budget", "design": "Design", "planned_budget": st.column_config.NumberColumn("Planned budget", format="%d"),
        "expected_judgments": st.column_config.NumberColumn("Judgments actually spent", format="%.0f"),
        "saving": st.column_config.NumberColumn("Saving vs fixed", format="percent"),
    })
    st.caption(f"Each sequential design is planned with a larger budget so that its average power equals the fixed "
               f"design's at {budget:,} (and at {3 * budget:,}); the saving is what it then spends on average. Wei et "
               "al. report 18% at their current budget and 27% at 3× on their data.")

with tabs[2]:
    if pairs is None:
        st.info("Interim-futility cannot match the fixed design's average power here.")
    else:
        scatter = go.Figure()
        scatter.add_trace(go.Scatter(x=pairs["power_fixed"], y=pairs["power_interim_futility"], mode="markers",
                                     marker=dict(color=pairs["delta"], colorscale="Viridis", size=9,
                                                 colorbar=dict(title="Δ")),
                                     customdata=pairs["delta"], name="pairs",
                                     hovertemplate="Δ = %{customdata:.2f}<br>fixed %{x:.3f}<br>"
                                                   "interim-futility %{y:.3f}<extra></extra>"))
        scatter.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(dash="dash", color="#555"),
                                     name="equal power"))
        scatter.add_hline(y=target, line=dict(color="#999", dash="dot"))
        scatter.add_vline(x=target, line=dict(color="#999", dash="dot"))
        scatter.update_layout(title=f"Fixed at {budget:,} vs interim-futility planned at {int(futility_budget):,} "
                                    "(same average cost)", xaxis_title="Power, fixed",
                              yaxis_title="Power, interim-futility", template="plotly_white", height=480,
                              showlegend=False)  # the colour bar (true difference) explains the points
        st.plotly_chart(scatter, key="pairs_chart", width="stretch")
        st.caption("Above the diagonal: pairs that gain power. Futility stopping boosts moderate and large "
                   "differences and gives up on the smallest ones (cf. Figure 4).")

with tabs[3]:
    looks = np.arange(1, result.looks + 1)
    stops = go.Figure()
    stops.add_trace(go.Bar(x=looks, y=result.efficacy_probabilities, name="stopped: significant",
                           marker_color=figures.PALETTE[2], hovertemplate="analysis %{x}<br>P %{y:.3f}<extra></extra>"))
    stops.add_trace(go.Bar(x=looks, y=result.futility_probabilities, name="stopped: futile",
                           marker_color=figures.PALETTE[1], hovertemplate="analysis %{x}<br>P %{y:.3f}<extra></extra>"))
    rest = np.array(result.stop_probabilities) - np.array(result.efficacy_probabilities) - np.array(
        result.futility_probabilities)
    stops.add_trace(go.Bar(x=looks, y=rest, name="ended: not significant", marker_color="#BBBBBB",
                           hovertemplate="analysis %{x}<br>P %{y:.3f}<extra></extra>"))
    stops.update_layout(barmode="stack", title="Where the campaign stops", xaxis_title="Analysis",
                        yaxis_title="Probability", template="plotly_white", height=420, xaxis=dict(dtick=1))
    st.plotly_chart(stops, key="stops_chart", width="stretch")
    st.caption("Nominal p-value thresholds per analysis: " +
               ", ".join(f"{p:.4f}" for p in result.nominal_p))

with tabs[4]:
    c1, c2 = st.columns([1, 2])
    preset = c1.selectbox("Reducible variance (Table 2)", list(sq.REDUCIBLE_SHARE) + ["custom"], key="cv_preset",
                          help="Share of the judgment variance due to real quality differences, which a metric can "
                          "explain. The rest is annotator noise.")
    share = sq.REDUCIBLE_SHARE.get(preset) if preset != "custom" else c1.slider(
        "Reducible share", 0.05, 1.0, 0.3, 0.01, key="cv_share", help="σ_f² / (σ_f² + σ_a²).")
    rho = c1.slider("Metric correlation ρ", 0.0, 1.0, 0.5, 0.05, key="cv_rho",
                    help="Sentence-level Pearson correlation of the automatic metric with human scores.")
    eff = sq.control_variates_efficiency(rho, share)
    c1.metric("Effective budget multiplier", f"{eff:.2f}×", help="Equation 2: (1 + γ)/(1 − ρ² + γ).")
    c1.caption(f"{budget:,} judgments with control variates are worth {eff * budget:,.0f} without.")
    rhos = np.linspace(0, 1, 51)
    cv = pd.DataFrame([(name, r, sq.control_variates_efficiency(r, s)) for name, s in
                       list(sq.REDUCIBLE_SHARE.items()) + ([("custom", share)] if preset == "custom" else [])
                       for r in rhos], columns=["setting", "rho", "efficiency"])
    cv_fig = figures.curve_figure(cv, x="rho", y="efficiency", color="setting", current=(rho, eff), target=None,
                                  title="Data efficiency of control variates (Table 3)", x_title="Metric correlation ρ",
                                  y_title="Budget multiplier", log_x=False, hover_format=".2f")
    c2.plotly_chart(cv_fig, key="cv_chart", width="stretch")

plotted = pd.concat([fig5.assign(chart="figure5"), fig6.assign(chart="figure6")], ignore_index=True)
st.download_button("Download the plotted curves (CSV)", plotted.to_csv(index=False).encode(),
                   file_name="da_campaign_curves.csv", mime="text/csv", key="download_curves",
                   help="Power and expected judgments vs difference, and the budget curves.")
with st.expander("Explain this page in plain language"):
    st.markdown(
        f"""
**The planning question.** You have about **{budget:,} judgments** for comparing two MT systems and expect them to
differ by **{delta:g} DA points**. Is that enough, and should you look at the data while it comes in?

**Why peeking needs a correction.** Every look at the data is another chance for noise to look like a winner. Testing
at α = {alpha} at each of {peeks} looks declares false winners far more often than {alpha:.0%} (the *naive peeking*
design shows how often). Interim designs therefore test each look at a stricter nominal level — Pocock's constant
threshold, or O'Brien–Fleming's, which is strict early and lenient at the end — so the whole campaign keeps its
false-positive rate at α.

**Why stop early at all.** Large differences are detected long before the budget is spent, so interim testing saves
judgments there (first tab, right). Futility stopping also quits pairs whose interim p-value is hopeless
(p > {futility_p}): it gives up the smallest differences — which a campaign of this size would rarely detect anyway —
and spends the savings on the borderline pairs. Averaged over many pairs (second tab) it reaches the same average
power as the fixed design with fewer judgments.

**Sensitivity.** The minimum detectable effect is the smallest true difference this campaign detects with
{target:.0%} power; smaller differences will mostly end as ties. Halving it takes about four times the judgments.

**Control variates** use an automatic metric to reduce variance, but only the share of the variance due to real
quality differences can be removed, so the gain is modest (Table 3: 1.3× at best for crowd DA).
"""
    )

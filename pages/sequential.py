"""Sequential-budget page: fixed vs interim vs interim-futility DA campaigns (Wei et al. 2022, §5–7).

UI only: widgets → cached calls into ``core.sequential`` → charts and metrics.
The analytic engine gives every number at once; simulated campaigns run on
demand after the charts; only the open tab is computed.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import sequential as sq
from core.plan import sequential as sequential_plan
from core.snippets import sequential_snippet
from pages._scaffold import (
    key_inputs,
    Metric,
    cached,
    cached_upload,
    chart,
    cost_controls,
    current_link,
    decision_controls,
    fmt_money,
    pin_controls,
    pin_int,
    pinned_curve,
    pinned_designs,
    pins_table,
    plan_actions,
    prior_controls,
    download_csv,
    explain,
    fmt_pct,
    guard,
    metrics_row,
    simulation,
    simulation_controls,
    start,
    style,
    views,
)
from pages._scaffold import code_view, source_of
from pages import _campaign_data as campaign_data

DESIGN_LABELS = sequential_plan.DESIGN_LABELS
BUDGETS = [200, 300, 400, 600, 800, 1000, 1200, 1500, 1800, 2400, 3000, 3600, 4800, 6000, 8000, 10000]
VIEWS = {"power": "Power and cost vs difference (Figure 5)", "assurance": "Assurance vs budget",
         "money": "Power vs money", "budget": "Budget curves (Figure 6)",
         "pairs": "Per pair: fixed vs interim-futility (Figure 4)", "stops": "When does it stop?",
         "cv": "Control variates (§6.2)"}


# The current design's cached calls take the page's one sq.CampaignDesign (frozen, hashed by value); the curves
# over every procedure take its options only, so a new difference or procedure does not recompute them.
@cached
def point(campaign: sq.CampaignDesign, budget):
    return campaign.power(budget)


@cached
def curves(budget, deltas, kw):
    return sq.campaign_curves(budget, list(deltas), designs=tuple(DESIGN_LABELS), **dict(kw))


@cached
def population(budgets, pop, kw):
    return sq.population_curves(list(budgets), np.array(pop), **dict(kw))


@cached
def savings(budget, pop, kw):
    return sq.budget_savings(budget, np.array(pop), **dict(kw))


def futility_row(saved: pd.DataFrame) -> pd.Series:
    """The interim-futility design's row of :func:`savings`."""
    return saved.set_index("design").loc["interim_futility"]


@cached
def mde(campaign: sq.CampaignDesign, budget, target):
    return campaign.mde(budget, target_power=target)


@cached
def per_pair(budget_fixed, budget_futility, pop, kw):
    fixed = sq.campaign_curves(budget_fixed, list(pop), designs=("fixed",), **dict(kw))
    futile = sq.campaign_curves(budget_futility, list(pop), designs=("interim_futility",), **dict(kw))
    return pd.DataFrame({"delta": fixed["delta"], "power_fixed": fixed["power"],
                         "power_interim_futility": futile["power"],
                         "judgments_interim_futility": futile["expected_judgments"]})


@cached
def parse_pasted(text: str):
    return sq.parse_differences(text)


@cached_upload
def read_uploaded(data: bytes):
    return sq.read_differences(data)


@cached
def assurance_point(campaign: sq.CampaignDesign, budget, mean, sd):
    return sq.campaign_assurance(campaign.procedure, budget, mean, sd, **campaign.options())


@cached
def assurance_curve(campaign: sq.CampaignDesign, budgets, mean, sd):
    rows = []
    for b in budgets:
        res = sq.campaign_assurance(campaign.procedure, b, mean, sd, **campaign.options())
        rows.append((b, res.assurance, res.power_at_mean, res.ceiling, res.expected_judgments))
    return pd.DataFrame(rows, columns=["budget", "assurance", "power", "ceiling", "expected_judgments"])


@cached
def money_curves(budgets, delta, kw):
    """Power at the current difference and expected judgments of each design over planned budgets."""
    frames = [sq.campaign_curves(b, [delta], designs=("fixed", "interim", "interim_futility"), **dict(kw))
              for b in budgets]
    return pd.concat(frames, ignore_index=True)


BOUNDARY_LABELS = {"pocock": "Pocock", "obrien_fleming": "O'Brien–Fleming",
                   "lan_demets": "Lan–DeMets (O'Brien–Fleming type)",
                   "lan_demets_pocock": "Lan–DeMets (Pocock type)"}


def design_text(campaign: sq.CampaignDesign, budget) -> str:
    """The design a message describes, in words: procedure, analyses, boundary, futility threshold and budget.

    Every message about the current design's numbers names it, so a message never outlives the design it
    describes (a procedure change changes the power; the message says which procedure it is about).
    """
    label = DESIGN_LABELS[campaign.procedure]
    if campaign.procedure == "fixed":
        return f"the fixed design (one test after {budget:,} judgments)"
    if campaign.procedure == "naive":
        return f"naive peeking ({campaign.peeks} uncorrected analyses, {budget:,} judgments planned)"
    looks = f"{campaign.peeks} analyses, {BOUNDARY_LABELS[campaign.boundary]} boundary"
    if campaign.procedure == "interim_futility":
        looks += f", futility stop at p > {campaign.futility_p:g}"
    return f"the {label} design ({looks}, {budget:,} judgments planned)"


PIN_KEYS = ("budget", "design", "peeks", "boundary", "futility", "mean", "sd", "delta", "test", "alpha")


@cached
def pinned(values):
    """A pinned campaign: its power vs true difference and its summary (from the pin's widget values)."""
    v = dict(values)
    b, d = pin_int(v, "budget", 1200), float(v.get("delta", 2.0))
    des = v.get("design", "interim_futility")
    kw_p = dict(peeks=pin_int(v, "peeks", 3), boundary=v.get("boundary", "pocock"),
                futility_p=float(v.get("futility", 0.5)), mean=float(v.get("mean", 75.0)),
                sd=float(v.get("sd", 27.0)), alpha=float(v.get("alpha", 0.05)), test=v.get("test", "mwu"))
    frame = sq.campaign_curves(b, list(np.round(np.linspace(0, 8, 33), 3)), designs=(des,), **kw_p)
    res = sq.campaign_power(des, b, d, **kw_p)
    summary = {"budget": b, "design": f"{DESIGN_LABELS.get(des, des)}, Δ = {d:g}", "power": res.power,
               "expected_judgments": res.expected_judgments, "false_positive_rate": res.false_positive_rate}
    return frame[["delta", "power"]], summary


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("Direct Assessment campaigns: should you peek?",
      "Wei, Kocmi & Federmann (2022), §5–7: fixed, interim (Pocock-corrected peeks) and interim-futility testing of "
      "two MT systems with Mann–Whitney U.")
side = st.sidebar
top = key_inputs(3)  # the inputs the question turns on, above the first chart
side.subheader("Campaign")
budget = top[0].select_slider("Planned judgments for the pair", options=BUDGETS, value=1200, key="budget",
                            bind="query-params",
                            help="Split evenly between the two systems. ~1,200 is a typical WMT-style pair.")
design = side.radio("Design", list(sq.DESIGNS), format_func=DESIGN_LABELS.get, key="design", bind="query-params",
                    help="Fixed: one test at the end. Interim: K equally spaced analyses, stop at the first significant "
                    "one (corrected). Interim-futility: also stop when p > the futility threshold. Naive: peek K times "
                    "at α without correction (shown to warn).")
peeks = top[2].slider("Number of analyses K", min_value=1, max_value=10, value=3, step=1, key="peeks",
                    bind="query-params", help="Equally spaced looks at the data (the paper uses 3).")
kind = side.selectbox("Boundary", list(sq.BOUNDARIES), key="boundary", bind="query-params",
                      format_func={**BOUNDARY_LABELS, "pocock": "Pocock (constant; the paper's)",
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
delta = top[1].slider("True difference (DA points)", min_value=0.0, max_value=10.0, value=2.0, step=0.1, key="delta",
                    bind="query-params", help="Difference in mean score between the two systems. Most WMT pairs differ "
                    "by 1–2 points (Table 1 medians 0.5–3.2).")
test = side.radio("Test", list(sq.TESTS), horizontal=True, key="test", bind="query-params",
                  format_func={"mwu": "Mann–Whitney U", "t": "t test"}.get,
                  help="Mann–Whitney U is the MT standard (Akhbardeh et al. 2021).")
alpha, target = decision_controls(alphas=(0.01, 0.025, 0.05, 0.1), alpha_label="Overall α (two-sided)",
                                  alpha_help="False-positive rate of the whole campaign.",
                                  target_help="Used for the minimum detectable effect.")
prior = prior_controls(default_mean=delta, unit="DA points", low=-10.0, high=10.0, step=0.1, sd_default=1.0,
                       sd_high=10.0, help_unit=" (difference in mean DA score between the systems)")
cost_unit, currency = cost_controls(
    unit="judgment", default=0.0,
    help="What one DA judgment costs (crowd or professional rates). The plan reports the expected judgments × this. "
    "0 leaves costs out.")
sim = simulation_controls(options=(500, 1000, 2000, 5000), default=2000, seed_default=2022,
                          label="Check by simulating campaigns", unit="Simulated campaigns",
                          help="Simulated campaigns for the current design (per scenario: the true difference and "
                          "zero difference), with Monte Carlo standard errors, next to the analytic numbers.")
loaded = campaign_data.sidebar(side)
side.subheader("Population of system pairs")
pop_source = side.radio("True differences of the pairs you will compare", ["default", "paste"], key="pop",
                        bind="query-params", format_func={"default": "shaped like WMT (Figure 6)",
                                                          "paste": "my past differences"}.get,
                        help="Used for the budget curves: average power over many pairs.")

kw = (("peeks", peeks), ("boundary", kind), ("futility_p", futility_p), ("mean", mean), ("sd", sd), ("alpha", alpha),
      ("test", test))
if pop_source == "paste":
    pasted = side.text_area("Past differences (DA points)", value="0.4, 0.8, 1.1, 1.5, 2.0, 3.2, 5.5, 0.2, 0.9, 1.3",
                            key="pop_values", help="Numbers separated by commas (followed by a space), semicolons, "
                            "spaces or new lines; use a point for decimals. Signs are ignored. Up to 10,000.")
    uploaded = side.file_uploader("…or upload them (text or one-column CSV)", type=["txt", "csv", "tsv"],
                                  key="pop_file", help="Replaces the pasted list. Plain UTF-8 text; a header line is "
                                  "skipped if it is not a number.")
    with guard("Cannot read the differences"):
        pop = read_uploaded(uploaded.getvalue()) if uploaded is not None else parse_pasted(pasted)
    if pop.size > 200:  # quantiles keep the curves instant; averages change by < 1e-3
        pop = np.quantile(pop, (np.arange(200) + 0.5) / 200)
else:
    pop = sq.default_population(30)
pop = tuple(float(v) for v in pop)

# ---------------------------------------------------------------------------
# the current design (analytic, instant)
# ---------------------------------------------------------------------------
with guard("Cannot compute this campaign"):
    campaign = sq.CampaignDesign(design, delta, **dict(kw))
    result = point(campaign, budget)
# The metrics row is filled after the charts: its MDE and saving need root finding (≈ 0.1 s), and a slider move
# should redraw the charts first.
summary = st.container()
described = design_text(campaign, budget)
spent = f"it collects {result.expected_judgments:,.0f} judgments on average"
if result.false_positive_rate > alpha + 1e-3:
    st.error(f"**Uncorrected peeking:** {described} declares false winners {fmt_pct(result.false_positive_rate)} of "
             f"the time, not {alpha:.0%}. Use a boundary (Pocock, O'Brien–Fleming) instead.")
elif delta and result.power < target:
    st.warning(f"**Under-powered:** {described} has {fmt_pct(result.power)} power for a {delta:g}-point difference "
               f"(target {target:.0%}); {spent}.")
elif delta:
    st.success(f"**Adequately powered:** {described} has {fmt_pct(result.power)} power for a {delta:g}-point "
               f"difference (≥ {target:.0%}); {spent}.")
at_ceiling = sq.ceiling_share(min(mean + abs(delta) / 2, 99.0), sd)
if at_ceiling > sq.CEILING_WARNING:
    st.warning(f"**Outside the score model's range:** with a mean of {mean:g} and an SD of {sd:g}, "
               f"{at_ceiling:.0%} of the better system's scores sit at the ceiling (100). The Gamma score model treats "
               "scores as continuous, and its numbers are unreliable here (checked against a direct Mann–Whitney "
               "simulation): lower the mean or the SD, or treat these numbers as rough.")

# the prior on the difference (assurance) and the cost
assured = None
if prior.on:
    with guard("Cannot average over this prior"):
        assured = assurance_point(campaign, budget, prior.mean, prior.sd)
cost_now = result.expected_judgments * cost_unit if cost_unit > 0 else None
extra = []
if assured is not None:
    extra.append(Metric("Assurance", fmt_pct(assured.assurance),
                        help="P(the campaign ends significant in the hoped-for direction), averaged over the prior on "
                        "the true difference.",
                        caption=f"{described[0].upper()}{described[1:]}: ceiling {fmt_pct(assured.ceiling)}; "
                                f"expected judgments under the prior {assured.expected_judgments:,.0f}"))
if cost_now is not None:
    extra.append(Metric("Expected cost", fmt_money(cost_now, currency),
                        help="Expected judgments × the cost per judgment (interim designs stop early).",
                        caption=f"at most {fmt_money(budget * cost_unit, currency)} (the full budget)"))
if extra:
    metrics_row(*extra)

pins = pin_controls("sequential", PIN_KEYS, label=f"{DESIGN_LABELS[design]}, {budget:,} judgments")
pinned_frames, pinned_rows = pinned_designs(pins, pinned)
pinned_power = pinned_curve(pinned_frames, "delta", "power")
pins_table({"pin": "current", "budget": budget, "design": f"{DESIGN_LABELS[design]}, Δ = {delta:g}",
            "power": result.power, "expected_judgments": result.expected_judgments,
            "false_positive_rate": result.false_positive_rate}, pinned_rows, {
               "power": st.column_config.NumberColumn("Power", format="percent"),
               "expected_judgments": st.column_config.NumberColumn("Expected judgments", format="%.0f"),
               "false_positive_rate": st.column_config.NumberColumn("False-positive rate", format="percent")})

# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------
plotted: dict[str, pd.DataFrame] = {}
tab = views(VIEWS)
if tab.open("power"):
    with tab["power"], guard("Cannot compute this campaign"):
        fig5 = curves(budget, tuple(np.round(np.linspace(0, 8, 33), 3)), kw)
        fig5 = fig5.assign(label=fig5["design"].map(DESIGN_LABELS))
        plotted["figure5"] = fig5
        c1, c2 = st.columns(2)
        with c1:
            chart(figures.curve_figure(fig5, x="delta", y="power", color="label",
                                       current=(delta, result.power if delta else result.false_positive_rate),
                                       target=target, title=f"Power vs true difference ({budget:,} judgments planned)",
                                       x_title="True difference (DA points)", y_title="Power", log_x=False,
                                       y_range=(0, 1.02), pins=pinned_power, style=style(0.5)), "power_chart")
        with c2:
            chart(figures.curve_figure(fig5, x="delta", y="expected_judgments", color="label",
                                       current=(delta, result.expected_judgments), target=None,
                                       title="Expected judgments collected", x_title="True difference (DA points)",
                                       y_title="Judgments", log_x=False, hover_format=",.0f",
                                       lines=[figures.Line(y=budget, text="planned budget")], style=style(0.5)),
                  "judgments_chart")
        st.caption("Interim designs stop early when the difference is large; futility stopping also gives up early on "
                   "the smallest differences — it trades their (already low) power for savings.")
        exaggeration = fig5[(fig5["delta"] > 0) & fig5["design"].isin(["fixed", "interim", "interim_futility"])]
        plotted["type_m"] = exaggeration[["design", "delta", "type_m"]]
        chart(figures.curve_figure(exaggeration, x="delta", y="type_m", color="label",
                                   current=(delta, result.type_m) if delta and math.isfinite(result.type_m) else None,
                                   target=None, lines=[figures.Line(y=1.0, text="no exaggeration")],
                                   title="Type-M: how much a significant result exaggerates the difference",
                                   x_title="True difference (DA points)",
                                   y_title="Exaggeration ratio E[|estimate| | significant] / |true|", log_x=False,
                                   log_y=True, hover_format=".2f", style=style()), "type_m_chart")
        st.caption("The estimate is the difference of the two systems' mean scores at the analysis that stopped. "
                   "Stopping early for efficacy selects runs that happen to look large, so interim designs exaggerate "
                   "more than the fixed design at the same budget (Whitehead 1986), most of all at small differences.")
if tab.open("assurance"):
    with tab["assurance"]:
        if assured is None:
            st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                    "far apart the systems are, the assurance says how likely the campaign is to end with a winner, "
                    "and its ceiling why more judgments cannot make up for a vague prior.")
        else:
            with guard("Cannot average over this prior"):
                curve_a = assurance_curve(campaign, tuple(BUDGETS), prior.mean, prior.sd)
            plotted["assurance"] = curve_a
            tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                              curve_a.assign(series=f"power at the prior mean ({prior.mean:+.1f} points)",
                                             value=curve_a["power"])], ignore_index=True)
            chart(figures.curve_figure(tidy, x="budget", y="value", color="series",
                                       current=(budget, assured.assurance), target=target,
                                       lines=[figures.Line(y=assured.ceiling, text=f"ceiling {assured.ceiling:.0%}",
                                                           color=figures.PALETTE[1])],
                                       title=f"Assurance and power vs planned judgments ({DESIGN_LABELS[design]})",
                                       x_title="Planned judgments for the pair", y_title="Probability",
                                       y_range=(0, 1.02), style=style()), "assurance_chart")
            st.caption("The assurance levels off at the ceiling — the prior probability that the difference has the "
                       "hoped-for sign. Interim designs spend fewer judgments on average (hover for the expected "
                       "judgments in the downloaded data).")
if tab.open("money"):
    with tab["money"], guard("Cannot compute this campaign"):
        if delta == 0:
            st.info("Set a non-zero true difference to compare what each design costs for the power it buys.")
        else:
            money = money_curves(tuple(BUDGETS), delta, kw)
            unit_cost = cost_unit if cost_unit > 0 else 1.0
            money = money.assign(label=money["design"].map(DESIGN_LABELS),
                                 expected_cost=money["expected_judgments"] * unit_cost)
            plotted["power_vs_money"] = money
            here = money[(money["design"] == design) & (money["budget"] == budget)]
            x_title = f"Expected cost ({currency})" if cost_unit > 0 else "Expected judgments (set a cost per " \
                "judgment in the sidebar to see money)"
            chart(figures.curve_figure(money, x="expected_cost", y="power", color="label",
                                       current=(float(here["expected_cost"].iloc[0]), float(here["power"].iloc[0]))
                                       if len(here) else None, target=target,
                                       title=f"Power at Δ = {delta:g} vs what the campaign is expected to cost",
                                       x_title=x_title, y_title="Power", y_range=(0, 1.02), style=style()),
                  "money_chart")
            st.caption("Each point is a planned budget (200 … 10,000 judgments); interim designs reach the same power "
                       "for less because they stop early. The marker is the current design.")
if tab.open("budget"):
    with tab["budget"], guard("Cannot compute this campaign"):
        fig6 = population(tuple(BUDGETS), pop, kw)
        fig6 = fig6.assign(label=fig6["design"].map(DESIGN_LABELS))
        saved = savings(budget, pop, kw)
        saved_3x = savings(3 * budget, pop, kw)  # §7.3 also reports the saving at three times the budget
        plotted["figure6"] = fig6
        lines = [figures.Line(x=row.expected_judgments, text=f"{DESIGN_LABELS[row.design]}: {100 * row.saving:.0f}% "
                              "saved", color=figures.PALETTE[list(DESIGN_LABELS).index(row.design)])
                 for row in saved.itertuples() if row.design != "fixed" and math.isfinite(row.expected_judgments)]
        fixed_here = fig6[(fig6.design == "fixed") & (fig6.budget == budget)]["average_power"]
        c1, c2 = st.columns([3, 2])
        with c1:
            chart(figures.curve_figure(fig6, x="average_judgments", y="average_power", color="label",
                                       current=(budget, float(fixed_here.iloc[0])) if len(fixed_here) else None,
                                       target=target, title="Average power over the population vs judgments spent",
                                       x_title="Average judgments actually spent per pair", y_title="Average power",
                                       y_range=(0, 1.02), lines=lines, style=style(0.6)), "budget_chart")
        with c2:
            chart(figures.histogram_figure({"pairs": np.array(pop)}, nbins=30, title="True differences of the pairs",
                                           x_title="DA points", y_title="Pairs", style=style(0.4)), "population_chart")
        table = pd.concat([saved.assign(budget=f"{budget:,} (current)"),
                           saved_3x.assign(budget=f"{3 * budget:,} (3×)")], ignore_index=True)
        table = table.assign(design=table["design"].map(DESIGN_LABELS))[["budget", "design", "planned_budget",
                                                                         "expected_judgments", "saving"]]
        st.dataframe(table, hide_index=True, width="stretch", column_config={
            "budget": "Fixed design's budget", "design": "Design",
            "planned_budget": st.column_config.NumberColumn("Planned budget", format="%d"),
            "expected_judgments": st.column_config.NumberColumn("Judgments actually spent", format="%.0f"),
            "saving": st.column_config.NumberColumn("Saving vs fixed", format="percent")})
        st.caption(f"Each sequential design is planned with a larger budget so that its average power equals the fixed "
                   f"design's at {budget:,} (and at {3 * budget:,}); the saving is what it then spends on average. Wei "
                   "et al. report 18% at their current budget and 27% at 3× on their data.")
if tab.open("pairs"):
    with tab["pairs"], guard("Cannot compute this campaign"):
        futility_budget = futility_row(savings(budget, pop, kw))["planned_budget"]
        if not math.isfinite(futility_budget):
            st.info("Interim-futility cannot match the fixed design's average power here.")
        else:
            pairs = per_pair(budget, int(futility_budget), pop, kw)
            plotted["per_pair"] = pairs
            chart(figures.scatter_figure(
                pairs["power_fixed"], pairs["power_interim_futility"], color_values=pairs["delta"], color_title="Δ",
                identity=True, name="pairs", customdata=pairs["delta"],
                hover="Δ = %{customdata:.2f}<br>fixed %{x:.3f}<br>interim-futility %{y:.3f}<extra></extra>",
                lines=[figures.Line(x=target, color="#999999", dash="dot"),
                       figures.Line(y=target, color="#999999", dash="dot")],
                title=f"Fixed at {budget:,} vs interim-futility planned at {int(futility_budget):,} (same average "
                      "cost)", x_title="Power, fixed", y_title="Power, interim-futility", style=style()),
                "pairs_chart")
            st.caption("Above the diagonal: pairs that gain power. Futility stopping boosts moderate and large "
                       "differences and gives up on the smallest ones (cf. Figure 4).")
if tab.open("stops"):
    with tab["stops"]:
        looks = [str(k) for k in range(1, result.looks + 1)]
        rest = np.array(result.stop_probabilities) - np.array(result.efficacy_probabilities) - np.array(
            result.futility_probabilities)
        stops = pd.DataFrame({"analysis": np.arange(1, result.looks + 1),
                              "stopped_significant": result.efficacy_probabilities,
                              "stopped_futile": result.futility_probabilities, "ended_not_significant": rest})
        plotted["stops"] = stops
        chart(figures.bar_figure(looks, {"stopped: significant": result.efficacy_probabilities,
                                         "stopped: futile": result.futility_probabilities,
                                         "ended: not significant": rest}, barmode="stack",
                                 colors=(figures.PALETTE[2], figures.PALETTE[1], "#BBBBBB"),
                                 title="Where the campaign stops", x_title="Analysis", y_title="Probability",
                                 style=style()), "stops_chart")
        st.caption(f"{described[0].upper()}{described[1:]}, Δ = {delta:g} DA points. Nominal p-value thresholds per "
                   "analysis: " + ", ".join(f"{p:.4f}" for p in result.nominal_p))
if tab.open("cv"):
    with tab["cv"]:
        c1, c2 = st.columns([1, 2])
        preset = c1.selectbox("Reducible variance (Table 2)", list(sq.REDUCIBLE_SHARE) + ["custom"], key="cv_preset",
                              help="Share of the judgment variance due to real quality differences, which a metric "
                              "can explain. The rest is annotator noise.")
        share = sq.REDUCIBLE_SHARE.get(preset) if preset != "custom" else c1.slider(
            "Reducible share", 0.05, 1.0, 0.3, 0.01, key="cv_share", help="σ_f² / (σ_f² + σ_a²).")
        rho = c1.slider("Metric correlation ρ", 0.0, 1.0, 0.5, 0.05, key="cv_rho",
                        help="Sentence-level Pearson correlation of the automatic metric with human scores.")
        eff = sq.control_variates_efficiency(rho, share)
        c1.metric("Effective budget multiplier", f"{eff:.2f}×", help="Equation 2: (1 + γ)/(1 − ρ² + γ).")
        c1.caption(f"{budget:,} judgments with control variates are worth {eff * budget:,.0f} without.")
        rhos = np.linspace(0, 1, 51)
        settings = list(sq.REDUCIBLE_SHARE.items()) + ([("custom", share)] if preset == "custom" else [])
        cv = pd.DataFrame([(name, r, sq.control_variates_efficiency(r, s)) for name, s in settings for r in rhos],
                          columns=["setting", "rho", "efficiency"])
        plotted["control_variates"] = cv
        with c2:
            chart(figures.curve_figure(cv, x="rho", y="efficiency", color="setting", current=(rho, eff), target=None,
                                       title="Data efficiency of control variates (Table 3)",
                                       x_title="Metric correlation ρ", y_title="Budget multiplier", log_x=False,
                                       hover_format=".2f", style=style(2 / 3)), "cv_chart")

# ---------------------------------------------------------------------------
# the summary numbers, at the top of the page (see ``summary``)
# ---------------------------------------------------------------------------
with summary, guard("Cannot compute this campaign"):
    mde_value = mde(campaign, budget, target)
    saved = savings(budget, pop, kw)
fut_row = futility_row(saved)
metrics_row(
    Metric("Power" if delta else "False-positive rate", fmt_pct(result.power),
           # the design it describes is named in its help and in the verdict under the row (a caption here widened
           # the metric and pushed the row onto three lines)
           help=f"P(a significant result in the right direction) for {described}, true difference {delta:g} DA "
           "points."),
    Metric("False-positive rate (no true difference)", fmt_pct(result.false_positive_rate, 2),
           help="How often this design declares a winner when the systems are equal. Corrected designs stay ≤ α; "
           "naive peeking does not."),
    Metric("Expected judgments", f"{result.expected_judgments:,.0f}",
           help="Average number of judgments actually collected (interim designs stop early)."),
    Metric("Type-M at stopping", f"{result.type_m:.2f}×" if delta and math.isfinite(result.type_m) else "—",
           help="Exaggeration ratio: E[|difference of means at the stopping analysis| | significant] / |true "
           "difference of means|. Above 1: significant results overstate the difference."),
    Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else f"{mde_value:.2f} pts",
           help="Smallest true difference this design detects with the target power (the sensitivity view of §5), "
           "in DA points on the 0–100 scale."),
    container=summary,
)
found = campaign_data.headline(campaign, target, container=summary)

campaign_data.section(loaded, campaign, budget, target, plotted)
# a property of the procedures over a population of pairs, not of this design: a caption after the charts (the
# headline rows above say each procedure's own saving for this design)
if math.isfinite(fut_row["saving"]):
    st.caption(f"Saving of interim-futility: {100 * fut_row['saving']:.0f}% of the judgments, matching the fixed "
               f"design's average power at {budget:,} judgments over the population of pairs (the paper: 18% at "
               "1,200, 27% at 3×).")

# ---------------------------------------------------------------------------
# simulated campaigns, on demand
# ---------------------------------------------------------------------------
if sim.run:
    st.subheader("Simulated campaigns")
    st.caption(f"{described[0].upper()}{described[1:]}, true difference {delta:g} DA points, {sim.n_sims:,} "
               "campaigns.")
    key = ("sequential", design, budget, delta, kw, sim.n_sims, sim.seed)

    def run(progress):
        out = sq.campaign_power(design, budget, delta, method="simulate", n_sims=sim.n_sims, seed=sim.seed, **dict(kw))
        progress(1.0)
        return out

    with guard("Cannot simulate this campaign"):
        mc = simulation(key, run, text=f"Simulating {sim.n_sims:,} campaigns…")
    metrics_row(
        Metric("Simulated power" if delta else "Simulated false-positive rate", fmt_pct(mc.power),
               se=f"{100 * mc.mc_se:.1f}%", help=f"{mc.n_sims:,} simulated campaigns."),
        Metric("Simulated false-positive rate", fmt_pct(mc.false_positive_rate, 2),
               se=f"{100 * mc.false_positive_rate_se:.1f}%"),
        Metric("Simulated expected judgments", f"{mc.expected_judgments:,.0f}", se=f"{mc.judgments_se:,.0f}"),
        Metric("Simulated Type-M", f"{mc.type_m:.2f}×" if math.isfinite(mc.type_m) else "—",
               se=f"{mc.type_m_se:.2f}" if math.isfinite(mc.type_m) else None,
               help="Mean |difference of means at the stopping analysis| over the significant simulated campaigns, "
               "divided by the true difference of means."),
    )
    if abs(mc.power - result.power) <= 3 * max(mc.mc_se, 1e-12):
        st.caption("The analytic engine agrees with the simulated campaigns within 3 Monte Carlo standard errors.")
    else:
        st.warning("The analytic and simulated power differ by more than 3 Monte Carlo standard errors.")

# ---------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------
plan_figures = []
if tab.open("power"):
    plan_figures.append(("Power vs true difference", figures.curve_figure(
        fig5, x="delta", y="power", color="label", current=(delta, result.power), target=target,
        x_title="True difference (DA points)", y_title="Power", log_x=False, y_range=(0, 1.02))))
snippet = sequential_snippet(design=design, budget=budget, delta=delta, options=dict(kw), target_power=target,
                             prior=(prior.mean, prior.sd) if assured is not None else None,
                             **campaign_data.snippet_extras(found, loaded))
plan_actions(sequential_plan.plan_item(
    campaign, result, budget=budget, target_power=target, mde=mde_value,
    futility_saving=fut_row["saving"], assurance=assured,
    prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, cost=cost_now,
    cost_per_unit=cost_unit, currency=currency, figures=tuple(plan_figures), link=current_link(), code=snippet,
    **campaign_data.plan_extras(found, loaded, lambda key: source_of(key, st.session_state.get(key), "slider"))),
    key="sequential")
code_view(snippet, key="sequential_code")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
if plotted:
    download_csv(plotted, f"da_campaign_{tab.current}.csv", key="download_curves",
                 label="Download the plotted data (CSV)")
explain(
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
and spends the savings on the borderline pairs. Averaged over many pairs (second tab) it reaches the same average power
as the fixed design with fewer judgments.

**Exaggeration (Type-M).** A significant result overstates the true difference on average, because only runs that
happen to look large pass the test. Stopping early adds to it: an interim look stops for efficacy exactly when the
running difference is unusually large, and the difference of means reported at that look is biased away from zero
(Whitehead 1986). The Type-M chart shows the ratio E[|estimate| | significant] / |true difference| for each design.

**Sensitivity.** The minimum detectable effect is the smallest true difference this campaign detects with
{target:.0%} power; smaller differences will mostly end as ties. Halving it takes about four times the judgments.

**Control variates** use an automatic metric to reduce variance, but only the share of the variance due to real
quality differences can be removed, so the gain is modest (Table 3: 1.3× at best for crowd DA).
"""
)

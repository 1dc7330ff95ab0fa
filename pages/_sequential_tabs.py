"""The DA campaign page's views, one function per tab (layout only; ``pages/sequential.py`` calls them).

Every tab takes the page's one :class:`core.sequential.CampaignDesign`; the curves over every procedure are keyed
on its options only (:meth:`~core.sequential.CampaignDesign.options_only`), so a new difference or procedure does
not recompute them.
"""

from __future__ import annotations

from core.plan.text import fmt_level
import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import sequential as sq
from core.sequential import plan as sequential_plan
from pages._scaffold import cached, chart, chart_row, guard, style

DESIGN_LABELS = sequential_plan.DESIGN_LABELS
BUDGETS = list(sq.BUDGETS)
VIEWS = {"power": "Power and cost vs difference (Figure 5)", "type_m": "Exaggeration (Type-M)",
         "assurance": "Assurance vs budget",
         "money": "Power vs money", "budget": "Budget curves (Figure 6)",
         "pairs": "Per pair: fixed vs interim-futility (Figure 4)", "stops": "When does it stop?",
         "cv": "Control variates (§6.2)"}
#: The true differences of the power curves (Figure 5) and of the pins' curves.
CURVE_DELTAS = tuple(np.round(np.linspace(0, 8, 33), 3))


def default_population() -> tuple:
    """The true differences of the pairs that the budget curves and savings average over by default: 30 quantiles
    of the WMT-shaped population (Figure 6; :func:`core.sequential.default_population`)."""
    return tuple(float(v) for v in sq.default_population(30))


# The outputs over every procedure take the campaign's options_only() design and their budget: moving the difference
# or switching procedure recomputes none of them.
@cached
def curves(options: sq.CampaignDesign, budget, deltas, with_type_m=True):
    return options.curves(deltas, procedures=tuple(DESIGN_LABELS), budget=budget, with_type_m=with_type_m)


@cached
def population(options: sq.CampaignDesign, budgets, pop):
    return options.population_curves(budgets, pop)


@cached
def savings(options: sq.CampaignDesign, budget, pop, designs=("interim", "interim_futility")):
    return options.savings(pop, budget=budget, designs=designs)


#: The headline's saving: interim-futility's alone (half the work of both designs on every budget move).
FUTILITY_ONLY = ("interim_futility",)


def futility_row(saved: pd.DataFrame) -> pd.Series:
    """The interim-futility design's row of :func:`savings`."""
    return saved.set_index("design").loc["interim_futility"]


@cached
def per_pair(options: sq.CampaignDesign, budget_fixed, budget_futility, pop):
    fixed = options.curves(pop, procedures=("fixed",), budget=budget_fixed, with_type_m=False)
    futile = options.curves(pop, procedures=("interim_futility",), budget=budget_futility, with_type_m=False)
    return pd.DataFrame({"delta": fixed["delta"], "power_fixed": fixed["power"],
                         "power_interim_futility": futile["power"],
                         "judgments_interim_futility": futile["expected_judgments"]})


@cached
def assurance_curve(campaign: sq.CampaignDesign, budgets, mean, sd):
    rows = []
    for b in budgets:
        res = campaign.assurance(b, sd, delta_mean=mean)
        rows.append((b, res.assurance, res.power_at_mean, res.ceiling, res.expected_judgments))
    return pd.DataFrame(rows, columns=["budget", "assurance", "power", "ceiling", "expected_judgments"])


@cached
def money_curves(options: sq.CampaignDesign, budgets, delta):
    """Power at the current difference and expected judgments of each design over planned budgets."""
    frames = [options.curves([delta], procedures=("fixed", "interim", "interim_futility"), budget=b)
              for b in budgets]
    return pd.concat(frames, ignore_index=True)


def tab_power(campaign, result, target, plotted, pinned_power):
    """Figure 5: power and expected judgments against the true difference. Returns the curves."""
    budget, delta = campaign.budget, campaign.delta
    # power and judgments only (a tenth of the time of the Type-M integrals, which have their own view)
    fig5 = curves(campaign.options_only(), budget, CURVE_DELTAS, False)
    fig5 = fig5.assign(label=fig5["design"].map(DESIGN_LABELS))
    plotted["figure5"] = fig5.drop(columns="type_m")
    # the two panels of Figure 5 in one figure: a move redraws one chart, not two
    half = style(0.5)
    chart(figures.panels([
        figures.curve_figure(fig5, x="delta", y="power", color="label",
                             current=(delta, result.power if delta else result.false_positive_rate),
                             target=target, x_title="Difference (DA points)", y_title="Power", log_x=False,
                             y_range=(0, 1.02), pins=pinned_power, style=half),
        figures.curve_figure(fig5, x="delta", y="expected_judgments", color="label",
                             current=(delta, result.expected_judgments), target=None,
                             x_title="Difference (DA points)", y_title="Judgments", log_x=False,
                             hover_format=",.0f", lines=[figures.Line(y=budget, text="planned budget")],
                             style=half)],
        title=f"Power and expected judgments ({budget:,} judgments planned)",
        style=style()), "power_chart")
    st.caption("Interim designs stop early when the difference is large; futility stopping also gives up early on "
               "the smallest differences — it trades their (already low) power for savings. How much a significant "
               "result exaggerates the difference: the view **Exaggeration (Type-M)**; how much each procedure saves "
               "over a population of pairs at the same average power: **Budget curves (Figure 6)**.")
    return fig5


def tab_type_m(campaign, result, plotted):
    """Type-M at stopping against the true difference, for the three procedures at the planned budget."""
    budget, delta = campaign.budget, campaign.delta
    # with_type_m given, as scripts/serve.py warms it: Streamlit keys an argument left at its default apart
    fig5 = curves(campaign.options_only(), budget, CURVE_DELTAS, True)
    fig5 = fig5.assign(label=fig5["design"].map(DESIGN_LABELS))
    exaggeration = fig5[(fig5["delta"] > 0) & fig5["design"].isin(["fixed", "interim", "interim_futility"])]
    plotted["type_m"] = exaggeration[["design", "delta", "type_m"]]
    chart(figures.curve_figure(exaggeration, x="delta", y="type_m", color="label",
                               current=(delta, result.type_m) if delta and math.isfinite(result.type_m) else None,
                               target=None, lines=[figures.Line(y=1.0, text="no exaggeration")],
                               title=f"Type-M: how much a significant result exaggerates the difference ({budget:,} "
                               "judgments planned)",
                               x_title="True difference (DA points)",
                               y_title="Exaggeration ratio E[|estimate| | significant] / |true|", log_x=False,
                               log_y=True, hover_format=".2f", style=style()), "type_m_chart")
    st.caption("The estimate is the difference of the two systems' mean scores at the analysis that stopped. "
               "Stopping early for efficacy selects runs that happen to look large, so interim designs exaggerate "
               "more than the fixed design at the same budget (Whitehead 1986), most of all at small differences.")


def tab_assurance(campaign, assured, prior, target, plotted):
    """Assurance and power at the prior mean against the planned budget."""
    if assured is None:
        st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                "far apart the systems are, the assurance says how likely the campaign is to end with a winner, "
                "and its ceiling why more judgments cannot make up for a vague prior.")
        return
    with guard("Cannot average over this prior"):
        curve_a = assurance_curve(campaign, tuple(BUDGETS), prior.mean, prior.sd)
    plotted["assurance"] = curve_a
    tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                      curve_a.assign(series=f"power at the prior mean ({prior.mean:+.1f} points)",
                                     value=curve_a["power"])], ignore_index=True)
    chart(figures.curve_figure(tidy, x="budget", y="value", color="series",
                               current=(campaign.budget, assured.assurance), target=target,
                               lines=[figures.Line(y=assured.ceiling, text=f"ceiling {assured.ceiling:.0%}",
                                                   color=figures.PALETTE[1])],
                               title=f"Assurance and power vs planned judgments ({DESIGN_LABELS[campaign.procedure]})",
                               x_title="Planned judgments for the pair", y_title="Probability",
                               y_range=(0, 1.02), style=style()), "assurance_chart")
    st.caption("The assurance levels off at the ceiling — the prior probability that the difference has the "
               "hoped-for sign. Interim designs spend fewer judgments on average (hover for the expected "
               "judgments in the downloaded data).")


def tab_money(campaign, target, cost_unit, currency, plotted):
    """Power at the current difference against the expected cost of each procedure."""
    if campaign.delta == 0:
        st.info("Set a non-zero true difference to compare what each design costs for the power it buys.")
        return
    money = money_curves(campaign.options_only(), tuple(BUDGETS), campaign.delta)
    unit_cost = cost_unit if cost_unit > 0 else 1.0
    money = money.assign(label=money["design"].map(DESIGN_LABELS),
                         expected_cost=money["expected_judgments"] * unit_cost)
    plotted["power_vs_money"] = money
    here = money[(money["design"] == campaign.procedure) & (money["budget"] == campaign.budget)]
    x_title = f"Expected cost ({currency})" if cost_unit > 0 else "Expected judgments (set a cost per " \
        "judgment in the sidebar to see money)"
    chart(figures.curve_figure(money, x="expected_cost", y="power", color="label",
                               current=(float(here["expected_cost"].iloc[0]), float(here["power"].iloc[0]))
                               if len(here) else None, target=target,
                               title=f"Power at Δ = {campaign.delta:g} vs what the campaign is expected to cost",
                               x_title=x_title, y_title="Power", y_range=(0, 1.02), style=style()),
          "money_chart")
    st.caption("Each point is a planned budget (200 … 10,000 judgments); interim designs reach the same power "
               "for less because they stop early. The marker is the current design.")


def tab_budget(campaign, pop, target, plotted):
    """Figure 6: average power over the population of pairs against the judgments spent, and the savings."""
    budget, options = campaign.budget, campaign.options_only()
    fig6 = population(options, tuple(BUDGETS), pop)
    fig6 = fig6.assign(label=fig6["design"].map(DESIGN_LABELS))
    saved = savings(options, budget, pop)
    saved_3x = savings(options, 3 * budget, pop)  # §7.3 also reports the saving at three times the budget
    plotted["figure6"] = fig6
    lines = [figures.Line(x=row.expected_judgments, text=f"{DESIGN_LABELS[row.design]}: {100 * row.saving:.0f}% "
                          "saved", color=figures.PALETTE[list(DESIGN_LABELS).index(row.design)])
             for row in saved.itertuples() if row.design != "fixed" and math.isfinite(row.expected_judgments)]
    fixed_here = fig6[(fig6.design == "fixed") & (fig6.budget == budget)]["average_power"]
    (c1, c2), (s1, s2) = chart_row([3, 2])
    with c1:
        chart(figures.curve_figure(fig6, x="average_judgments", y="average_power", color="label",
                                   current=(budget, float(fixed_here.iloc[0])) if len(fixed_here) else None,
                                   target=target, title="Average power over the population vs judgments spent",
                                   x_title="Average judgments actually spent per pair", y_title="Average power",
                                   y_range=(0, 1.02), lines=lines, style=style(s1)), "budget_chart")
    with c2:
        chart(figures.histogram_figure({"pairs": np.array(pop)}, nbins=30, title="True differences of the pairs",
                                       x_title="DA points", y_title="Pairs", style=style(s2)), "population_chart")
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


def tab_pairs(campaign, pop, target, plotted):
    """Figure 4: each pair's power, fixed vs interim-futility at the same average cost."""
    budget, options = campaign.budget, campaign.options_only()
    futility_budget = futility_row(savings(options, budget, pop, FUTILITY_ONLY))["planned_budget"]
    if not math.isfinite(futility_budget):
        st.info("Interim-futility cannot match the fixed design's average power here.")
        return
    pairs = per_pair(options, budget, int(futility_budget), pop)
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


def tab_stops(campaign, result, described, plotted):
    """Where the campaign stops: significant, futile or at the end, per analysis."""
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
    st.caption(f"{described[0].upper()}{described[1:]}, Δ = {campaign.delta:g} DA points. Nominal p-value "
               "thresholds per analysis: " + ", ".join(f"{p:.4f}" for p in result.nominal_p))


def tab_cv(campaign, plotted):
    """Control variates (§6.2, Table 3): the budget multiplier of a metric correlated with the judgments."""
    budget = campaign.budget
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
                                   title="Data efficiency of control variates (Table 3)",
                                   x_title="Metric correlation ρ", y_title="Budget multiplier", log_x=False,
                                   hover_format=".2f", style=style(2 / 3)), "cv_chart")


def explanation(campaign, target) -> str:
    """The page's "explain" text for the current design."""
    budget, delta, alpha, peeks, futility_p = (campaign.budget, campaign.delta, campaign.alpha, campaign.looks,
                                               campaign.futility_p)
    return f"""
**The planning question.** You have about **{budget:,} judgments** for comparing two MT systems and expect them to
differ by **{delta:g} DA points**. Is that enough, and should you look at the data while it comes in?

**Why peeking needs a correction.** Every look at the data is another chance for noise to look like a winner. Testing
at α = {alpha} at each of {peeks} looks declares false winners far more often than {fmt_level(alpha)} (the *naive peeking*
design shows how often). Interim designs therefore test each look at a stricter nominal level — Pocock's constant
threshold, or O'Brien–Fleming's, which is strict early and lenient at the end — so the whole campaign keeps its
false-positive rate at α.

**Why stop early at all.** Large differences are detected long before the budget is spent, so interim testing saves
judgments there (the first view, right). Futility stopping also quits pairs whose interim p-value is hopeless
(p > {futility_p}): it gives up the smallest differences — which a campaign of this size would rarely detect anyway —
and spends the savings on the borderline pairs. Averaged over many pairs (the view **Budget curves (Figure 6)**) it reaches the same average power
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

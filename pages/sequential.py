"""Sequential-budget page: fixed vs interim vs interim-futility DA campaigns (Wei et al. 2022, §5–7).

UI only: widgets built from :class:`core.sequential.CampaignDesign`'s declared fields → one design → cached calls
into ``core.sequential`` → charts and metrics. The analytic engine gives every number at once; simulated campaigns
run on demand after the charts; only the open tab is computed. The tabs are in ``pages/_sequential_tabs.py``, last
year's judgments in ``pages/_campaign_data.py``.
"""

from __future__ import annotations

from core.plan.text import fmt_level
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import sequential as sq
from core.sequential import plan as sequential_plan
from core.sequential.snippet import sequential_snippet
from pages import _campaign_data as campaign_data
from pages import _sequential_tabs as tabs
from pages._sequential_more import BOUNDARY_LABELS, DESIGN_LABELS, design_text, simulated
from pages._fields import field_input
from pages._scaffold import (
    Metric,
    cached,
    cached_upload,
    code_view,
    cost_controls,
    current_link,
    decision_controls,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    guard,
    key_inputs,
    metrics_row,
    pin_controls,
    pinned_curve,
    pinned_designs,
    pins_table,
    plan_actions,
    prior_controls,
    simulation_controls,
    source_of,
    start,
    views,
)
from pages._uploads import file_uploader, opened, upload_types

Design = sq.CampaignDesign
#: The widget keys that define a pinned design: the design's URL keys.
PIN_KEYS = tuple(f.key for f in Design.fields())


# The current design's cached calls take the page's one CampaignDesign (frozen, hashed by value).
@cached
def point(campaign: Design):
    return campaign.power()


@cached
def mde(campaign: Design, target):
    return campaign.mde(target_power=target)


@cached
def assurance_point(campaign: Design, mean, sd):
    return campaign.assurance(delta_sd=sd, delta_mean=mean)


@cached
def parse_pasted(text: str):
    return sq.parse_differences(text)


@cached_upload
def read_uploaded(data: bytes):
    return sq.read_differences(data)


@cached
def pinned(pin: Design):
    """A pinned campaign: its power vs true difference and its summary."""
    frame = pin.curves(list(tabs.CURVE_DELTAS), procedures=(pin.procedure,))
    res = pin.power()
    summary = {"budget": pin.budget, "design": f"{DESIGN_LABELS[pin.procedure]}, Δ = {pin.delta:g}",
               "power": res.power, "expected_judgments": res.expected_judgments,
               "false_positive_rate": res.false_positive_rate}
    return frame[["delta", "power"]], summary



def _input(name, box, **options):
    """The widget of a declared field, with the page's label (the unit is in the label already)."""
    return field_input(Design, name, box, label=Design.field(name).label, **options)


def _linked(name):
    """A key input's value before its widget is drawn (this session's, else the link's, else the default)."""
    f = Design.field(name)
    if f.key in st.session_state:
        return st.session_state[f.key]
    try:
        return f.parse(st.query_params[f.key]) if f.key in st.query_params else f.default
    except ValueError:
        return f.default


def controls():
    """The sidebar's widgets (the assumptions). Returns their design fields and the page settings; the key inputs
    are drawn by :func:`key_controls`, inside the page's fragment."""
    start("Direct Assessment campaigns: should you peek?",
          "Wei, Kocmi & Federmann (2022), §5–7: fixed, interim (Pocock-corrected peeks) and interim-futility testing "
          "of two MT systems with Mann–Whitney U.")
    side = st.sidebar
    side.subheader("Campaign")
    v = {"procedure": _input("procedure", side, format_func=DESIGN_LABELS.get),
         "boundary": _input("boundary", side, widget="selectbox",
                            format_func={**BOUNDARY_LABELS, "pocock": "Pocock (constant; the paper's)",
                                         "lan_demets": "Lan–DeMets spending (O'Brien–Fleming type)",
                                         "lan_demets_pocock": "Lan–DeMets spending (Pocock type)"}.get),
         "futility_p": _input("futility_p", side, widget="slider")}
    side.subheader("Judgments")
    v["mean"] = _input("mean", side, widget="slider")
    v["sd"] = _input("sd", side, widget="slider")
    v["test"] = _input("test", side, horizontal=True, format_func={"mwu": "Mann–Whitney U", "t": "t test"}.get)
    alpha_field = Design.field("alpha")
    v["alpha"], target = decision_controls(alphas=(0.01, 0.025, 0.05, 0.1), alpha_default=alpha_field.default,
                                           alpha_label=alpha_field.label, alpha_help=alpha_field.help,
                                           target_help="Used for the minimum detectable effect.")
    # the prior starts at the difference (a key input, drawn later in the fragment): its value so far
    prior = prior_controls(default_mean=float(_linked("delta")), unit="DA points", low=-10.0, high=10.0, step=0.1,
                           sd_default=1.0, sd_high=10.0,
                           help_unit=" (difference in mean DA score between the systems)")
    cost_unit, currency = cost_controls(
        unit="judgment", default=0.0,
        help="What one DA judgment costs (crowd or professional rates). The plan reports the expected judgments × "
        "this. 0 leaves costs out.")
    sim = simulation_controls(options=(500, 1000, 2000, 5000), default=2000, seed_default=2022,
                              label="Check by simulating campaigns", unit="Simulated campaigns",
                              help="Simulated campaigns for the current design (per scenario: the true difference "
                              "and zero difference), with Monte Carlo standard errors, next to the analytic numbers.")
    loaded = campaign_data.sidebar(side)
    pop = population_input(side)
    return v, SimpleNamespace(target=target, prior=prior, cost_unit=cost_unit, currency=currency, sim=sim,
                              loaded=loaded, pop=pop)


def key_controls(v: dict) -> Design:
    """The inputs the question turns on, above the charts (budget, difference, analyses), and the one design."""
    top = key_inputs(3)
    v = {**v, "budget": _input("budget", top[0], widget="select_slider", options=tabs.BUDGETS),
         "delta": _input("delta", top[1], widget="slider"), "looks": _input("looks", top[2], widget="slider")}
    with guard("Cannot compute this campaign"):
        return Design(**v)


def population_input(side) -> tuple:
    """The population of true differences for the budget curves: WMT-shaped, pasted or uploaded."""
    side.subheader("Population of system pairs")
    pop_source = side.radio("True differences of the pairs you will compare", ["default", "paste"], key="pop",
                            bind="query-params", format_func={"default": "shaped like WMT (Figure 6)",
                                                              "paste": "my past differences"}.get,
                            help="Used for the budget curves: average power over many pairs.")
    if pop_source == "paste":
        pasted = side.text_area("Past differences (DA points)",
                                value="0.4, 0.8, 1.1, 1.5, 2.0, 3.2, 5.5, 0.2, 0.9, 1.3", key="pop_values",
                                help="Numbers separated by commas (followed by a space), semicolons, spaces or new "
                                "lines; use a point for decimals. Signs are ignored. Up to 10,000.")
        uploaded = file_uploader(side, "…or upload them (text or one-column CSV)",
                                 type=upload_types("txt", "csv", "tsv"),
                                 key="pop_file", help="Replaces the pasted list. Plain UTF-8 text; a header "
                                 "line is skipped if it is not a number.")
        with guard("Cannot read the differences"):
            uploaded = opened(uploaded)
            pop = read_uploaded(uploaded.getvalue()) if uploaded is not None else parse_pasted(pasted)
        if pop.size > 200:  # quantiles keep the curves instant; averages change by < 1e-3
            pop = np.quantile(pop, (np.arange(200) + 0.5) / 200)
    else:
        return tabs.default_population()
    return tuple(float(v) for v in pop)


def verdict(campaign: Design, result, target) -> str:
    """The messages under the metrics row: uncorrected peeking, under- or adequately powered, the ceiling."""
    described = design_text(campaign)
    delta, alpha = campaign.delta, campaign.alpha
    spent = f"it collects {result.expected_judgments:,.0f} judgments on average"
    if result.false_positive_rate > alpha + 1e-3:
        st.error(f"**Uncorrected peeking:** {described} declares false winners {fmt_pct(result.false_positive_rate)} "
                 f"of the time, not {fmt_level(alpha)}. Use a boundary (Pocock, O'Brien–Fleming) instead.")
    elif delta and result.power < target:
        st.warning(f"**Under-powered:** {described} has {fmt_pct(result.power)} power for a {delta:g}-point "
                   f"difference (target {target:.0%}); {spent}.")
    elif delta:
        st.success(f"**Adequately powered:** {described} has {fmt_pct(result.power)} power for a {delta:g}-point "
                   f"difference (≥ {target:.0%}); {spent}.")
    at_ceiling = sq.ceiling_share(min(campaign.mean + abs(delta) / 2, 99.0), campaign.sd)
    if at_ceiling > sq.CEILING_WARNING:
        st.warning(f"**Outside the score model's range:** with a mean of {campaign.mean:g} and an SD of "
                   f"{campaign.sd:g}, {at_ceiling:.0%} of the better system's scores sit at the ceiling (100). The "
                   "Gamma score model treats scores as continuous, and its numbers are unreliable here (checked "
                   "against a direct Mann–Whitney simulation): lower the mean or the SD, or treat these numbers as "
                   "rough.")
    return described


def prior_and_cost(campaign: Design, result, s):
    """Assurance under the prior and the expected cost, as a second metrics row. Returns (assured, cost)."""
    described = design_text(campaign)
    assured = None
    if s.prior.on:
        with guard("Cannot average over this prior"):
            assured = assurance_point(campaign, s.prior.mean, s.prior.sd)
    cost_now = result.expected_judgments * s.cost_unit if s.cost_unit > 0 else None
    extra = []
    if assured is not None:
        extra.append(Metric("Assurance", fmt_pct(assured.assurance),
                            help="P(the campaign ends significant in the hoped-for direction), averaged over the "
                            "prior on the true difference.",
                            caption=f"{described[0].upper()}{described[1:]}: ceiling {fmt_pct(assured.ceiling)}; "
                                    f"expected judgments under the prior {assured.expected_judgments:,.0f}"))
    if cost_now is not None:
        extra.append(Metric("Expected cost", fmt_money(cost_now, s.currency),
                            help="Expected judgments × the cost per judgment (interim designs stop early).",
                            caption=f"at most {fmt_money(campaign.budget * s.cost_unit, s.currency)} (the full "
                                    "budget)"))
    if extra:
        metrics_row(*extra)
    return assured, cost_now


def pins_panel(campaign: Design, result):
    """Pinned designs: their power curves (dashed) and a side-by-side table. Returns the pins' curve frame."""
    label = DESIGN_LABELS[campaign.procedure]
    pins = pin_controls("sequential", PIN_KEYS, label=f"{label}, {campaign.budget:,} judgments")
    pinned_frames, pinned_rows = pinned_designs(pins, pinned, design=Design)
    pins_table({"pin": "current", "budget": campaign.budget, "design": f"{label}, Δ = {campaign.delta:g}",
                "power": result.power, "expected_judgments": result.expected_judgments,
                "false_positive_rate": result.false_positive_rate}, pinned_rows, {
                   "power": st.column_config.NumberColumn("Power", format="percent"),
                   "expected_judgments": st.column_config.NumberColumn("Expected judgments", format="%.0f"),
                   "false_positive_rate": st.column_config.NumberColumn("False-positive rate", format="percent")})
    return pinned_curve(pinned_frames, "delta", "power")


def headline(campaign: Design, result, target, summary):
    """The metrics row at the top (filled after the charts). Returns (MDE, sizes)."""
    with summary, guard("Cannot compute this campaign"):
        mde_value = mde(campaign.key_for("mde"), target)  # reads no difference
    delta, described = campaign.delta, design_text(campaign)
    metrics_row(
        Metric("Power" if delta else "False-positive rate", fmt_pct(result.power),
               # the design it describes is named in its help and in the verdict under the row (a caption here
               # widened the metric and pushed the row onto three lines)
               help=f"P(a significant result in the right direction) for {described}, true difference {delta:g} DA "
               "points."),
        Metric("False-positive rate (no true difference)", fmt_pct(result.false_positive_rate, 2),
               help="How often this design declares a winner when the systems are equal. Corrected designs stay "
               "≤ α; naive peeking does not."),
        Metric("Expected judgments", f"{result.expected_judgments:,.0f}",
               help="Average number of judgments actually collected (interim designs stop early)."),
        Metric("Type-M at stopping", f"{result.type_m:.2f}×" if delta and math.isfinite(result.type_m) else "—",
               help="Exaggeration ratio: E[|difference of means at the stopping analysis| | significant] / |true "
               "difference of means|. Above 1: significant results overstate the difference."),
        Metric(f"MDE at {target:.0%} power",
               "not reachable" if not math.isfinite(mde_value) else f"{mde_value:.2f} pts",
               help="Smallest true difference this design detects with the target power (the sensitivity view of "
               "§5), in DA points on the 0–100 scale."),
        container=summary,
    )
    found = campaign_data.headline(campaign, target, container=summary)
    return mde_value, found


def futility_saving(campaign: Design, pop) -> float:
    """Interim-futility's saving over the population of pairs (§7.3; the view Budget curves shows it), for the
    plan: computed when the plan is opened, not on every move (``nan`` where it cannot be matched)."""
    try:
        saved = tabs.savings(campaign.options_only(), campaign.budget, pop, tabs.FUTILITY_ONLY)
    except ValueError:
        return math.nan
    return float(tabs.futility_row(saved)["saving"])


def plan(campaign: Design, result, s, fig5, assured, cost_now, mde_value, found):
    """The plan (HTML, paragraph, basket) and the code view of the current design."""
    def plan_figures():  # drawn only when the plan block is opened
        if fig5 is None:
            return ()
        return (("Power vs true difference", figures.curve_figure(
            fig5, x="delta", y="power", color="label", current=(campaign.delta, result.power), target=s.target,
            x_title="True difference (DA points)", y_title="Power", log_x=False, y_range=(0, 1.02))),)

    snippet = sequential_snippet(campaign, target_power=s.target,
                                 prior=(s.prior.mean, s.prior.sd) if assured is not None else None,
                                 **campaign_data.snippet_extras(found, s.loaded))
    plan_actions(lambda: sequential_plan.plan_item(
        campaign, result, target_power=s.target, mde=mde_value,
        futility_saving=futility_saving(campaign, s.pop), assurance=assured,
        prior=(s.prior.mean, s.prior.sd, s.prior.source) if assured is not None else None, cost=cost_now,
        cost_per_unit=s.cost_unit, currency=s.currency, figures=plan_figures(), link=current_link(),
        code=snippet,
        **campaign_data.plan_extras(found, s.loaded, lambda key: source_of(key, st.session_state.get(key), "slider"))),
        key="sequential")
    code_view(snippet, key="sequential_code")



@st.fragment
def answer(v: dict, s) -> None:
    """The key inputs and everything they change: a key input's move reruns only this (the sidebar's values come
    in as arguments; nothing here writes to the sidebar)."""
    campaign = key_controls(v)
    with guard("Cannot compute this campaign"):
        result = point(campaign)
    # The metrics row is filled after the charts: its MDE and saving need root finding (≈ 0.1 s), and a slider move
    # should redraw the charts first.
    summary = st.container()
    described = verdict(campaign, result, s.target)
    assured, cost_now = prior_and_cost(campaign, result, s)
    pinned_power = pins_panel(campaign, result)

    plotted: dict[str, pd.DataFrame] = {}
    tab = views(tabs.VIEWS)
    fig5 = None
    if tab.open("power"):
        with tab["power"], guard("Cannot compute this campaign"):
            fig5 = tabs.tab_power(campaign, result, s.target, plotted, pinned_power)
    if tab.open("type_m"):
        with tab["type_m"], guard("Cannot compute this campaign"):
            tabs.tab_type_m(campaign, result, plotted)
    if tab.open("assurance"):
        with tab["assurance"]:
            tabs.tab_assurance(campaign, assured, s.prior, s.target, plotted)
    if tab.open("money"):
        with tab["money"], guard("Cannot compute this campaign"):
            tabs.tab_money(campaign, s.target, s.cost_unit, s.currency, plotted)
    if tab.open("budget"):
        with tab["budget"], guard("Cannot compute this campaign"):
            tabs.tab_budget(campaign, s.pop, s.target, plotted)
    if tab.open("pairs"):
        with tab["pairs"], guard("Cannot compute this campaign"):
            tabs.tab_pairs(campaign, s.pop, s.target, plotted)
    if tab.open("stops"):
        with tab["stops"]:
            tabs.tab_stops(campaign, result, described, plotted)
    if tab.open("cv"):
        with tab["cv"]:
            tabs.tab_cv(campaign, plotted)

    mde_value, found = headline(campaign, result, s.target, summary)
    campaign_data.section(s.loaded, campaign, campaign.budget, s.target, plotted)
    if s.sim.run:
        simulated(campaign, result, s.sim)
    plan(campaign, result, s, fig5, assured, cost_now, mde_value, found)
    if plotted:
        download_csv(plotted, f"da_campaign_{tab.current}.csv", key="download_curves",
                     label="Download the plotted data (CSV)")
    explain(tabs.explanation(campaign, s.target))


def main():
    v, s = controls()
    answer(v, s)


main()

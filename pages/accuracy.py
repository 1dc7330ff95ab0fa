"""Accuracy page: McNemar (paired), unpaired accuracy, and head-to-head preferences.

UI only: the widgets of :class:`core.accuracy.AccuracyPageDesign`'s declared fields → one design → one cached call
per output → charts and metrics. Every widget is bound to the URL under its field's key, so a link reproduces the
view; only the open tab is computed and drawn (its layout is in ``pages/_accuracy_curves.py`` and
``pages/_accuracy_tabs.py``).
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from core import figures
from core.accuracy import AccuracyPageDesign
from core.accuracy.design import N_MAX, N_MIN, PREFERENCE_N, PREFERENCE_TESTS, SCENARIO_LABELS, SOURCE_LABELS
from core.accuracy.design import TEST_LABELS, TIE_LABELS
from core.accuracy import plan as accuracy_plan
from core.accuracy.snippet import accuracy_design_snippet
from pages import _accuracy_curves as curves_tabs
from pages import _accuracy_tabs as tabs
from pages._accuracy_tabs import design_input
from pages._scaffold import (
    Metric,
    cached,
    code_view,
    cost_controls,
    current_link,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    fmt_points,
    fmt_ratio,
    guard,
    key_inputs,
    link_values,
    metrics_row,
    pin_columns,
    pin_controls,
    pinned_curve,
    pinned_designs,
    pins_table,
    plan_actions,
    prior_controls,
    sample_size_metric,
    simulation,
    simulation_controls,
    source_of,
    start,
    verdict,
    views,
)

D = AccuracyPageDesign
PIN_KEYS = ("scenario", "n", "delta", "baseline", "pa_source", "agreement", "test", "p_new", "ties_pct", "ties", "alpha")
VIEWS = {"power": "Power vs n", "assurance": "Assurance vs n", "exaggeration": "Exaggeration (Type-M / Type-S)",
         "filter": "Why significant results exaggerate", "benchmarks": "Benchmarks (Table 2)",
         "squad": "SQuAD 2.0 leaderboard", "noworse": "No worse than (non-inferiority)",
         "intervals": "Small test sets (intervals)"}
N_LABELS = {"paired": "Test-set size (n)", "unpaired": "Items per model (n)", "preference": "Number of raters (n)"}
SIZE_UNITS = {"paired": "items", "unpaired": "items per model", "preference": "raters"}
UNITS_PER_N = {"paired": 1, "unpaired": 2, "preference": 1}  # items labelled per unit of n


# ---------------------------------------------------------------------------
# cached core calls: the design (frozen, compared by value) is the key; for_scenario() keeps what the headline reads
# ---------------------------------------------------------------------------
@cached
def power(design: AccuracyPageDesign):
    return design.power()


@cached
def mde(design: AccuracyPageDesign) -> float:
    return design.mde()


@cached
def sample_sizes(design: AccuracyPageDesign):
    return design.sample_sizes()


@cached
def pinned(design: AccuracyPageDesign):
    """A pinned design: its power/Type-M curves over n and its summary."""
    frame = design.curves(family=False)
    point = design.power()
    if design.scenario == "preference":
        effect_text = f"gap {100 * (design.p_new_fraction - design.p_old_fraction):+.1f} pp"
    elif design.scenario == "unpaired":
        effect_text = f"Δ {design.delta:+.1f} pp (unpaired)"
    else:
        effect_text = f"Δ {design.delta:+.1f} pp, P_a {design.paired().agreement:.1%}"
    summary = {"n": design.n, "effect": effect_text, "power": point.power, "type_m": point.type_m,
               "type_s": point.type_s, "n_for_target": design.sample_size()}
    return frame[["n", "power", "type_m", "type_s"]], summary


# ---------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------
def nice_sizes(lo: int, hi: int) -> list[int]:
    """1-1.5-2-3-5-7.5 sequence of sizes between lo and hi."""
    return [int(m * 10**e) for e in range(1, 8) for m in (1, 1.5, 2, 3, 5, 7.5) if lo <= m * 10**e <= hi]


#: Log-spaced sizes plus the GLUE/SQuAD test sets (Table 2) and QQP's.
N_OPTIONS = sorted(set(nice_sizes(N_MIN, 1_000_000) + [147, 1725, 1821, 3000, 5463, 8862, 9796, 11873, 390_965]))


def size_options() -> list[int]:
    """The size options, plus a size given in the link (e.g. from the Analyze page) if it is in range."""
    raw = st.query_params.get("n")
    try:
        linked = int(float(raw)) if raw is not None else None
    except (ValueError, OverflowError):  # not a number, or inf
        linked = None
    if linked is not None and N_MIN <= linked <= N_MAX and linked not in N_OPTIONS:
        return sorted(N_OPTIONS + [linked])
    return N_OPTIONS


# ---------------------------------------------------------------------------
# controls: the widgets of the declared fields, read into one design
# ---------------------------------------------------------------------------
def controls() -> dict:
    """The assumptions (sidebar): the scenario, its other inputs and the decision rule."""
    side = st.sidebar
    link_values("scenario", SCENARIO_LABELS)
    scenario = design_input("scenario", side, format_func=SCENARIO_LABELS.get, captions=[
        "two models, one test set", "each model on its own sample", "raters choose A, B or neither"])
    side.subheader("Design")
    values = {"scenario": scenario}
    if scenario in ("paired", "unpaired"):
        values["baseline"] = design_input("baseline", side, widget="slider")
    if scenario == "paired":
        link_values("pa_source", SOURCE_LABELS)
        values["source"] = design_input("source", side, widget="selectbox", format_func=SOURCE_LABELS.get)
        link_values("test", TEST_LABELS)
        values["test"] = design_input("test", side, widget="selectbox", format_func=TEST_LABELS.get)
    elif scenario == "preference":
        link_values("ties", TIE_LABELS)
        values["ties"] = design_input("ties", side, horizontal=True, format_func=TIE_LABELS.get)
        link_values("test", TEST_LABELS)
        f = D.field("test")  # the sign test's forms only (no normal approximation)
        values["test"] = f.check(side.selectbox(
            f.label, list(PREFERENCE_TESTS), format_func=TEST_LABELS.get, key=f.key, bind="query-params",
            help="Exact binomial (sign) test by default; its mid-p and asymptotic versions."))
    side.subheader("Decision rule")
    values["alpha"] = design_input("alpha", side, widget="select_slider")
    values["target_power"] = design_input("target_power", side, widget="slider")
    values.setdefault("test", D.field("test").default)
    return values


def key_controls(values: dict) -> dict:
    """The inputs the question turns on, in the main area above the first chart."""
    scenario = values["scenario"]
    top = key_inputs(3)
    keyed = {"n": design_input("n", top[0], widget="select_slider", options=size_options(),
                               label=N_LABELS[scenario], default=PREFERENCE_N if scenario == "preference" else None)}
    if scenario in ("paired", "unpaired"):
        keyed["delta"] = design_input("delta", top[1], widget="slider")
    if scenario == "paired":
        keyed["agreement"] = design_input("agreement", top[2], widget="slider",
                                          disabled=values["source"] != "manual")
        if values["source"] != "manual":
            with guard("Impossible design"):
                prior_design = D(**values, **keyed)
            top[2].caption(f"P_a from the {SOURCE_LABELS[prior_design.source]}: "
                           f"**{prior_design.paired().agreement:.2%}** at Δ = {prior_design.delta:+.1f} pp, "
                           f"baseline {prior_design.baseline:.1f}%.")
    elif scenario == "preference":
        keyed["p_new"] = design_input("p_new", top[1], widget="slider")
        keyed["tie_rate"] = design_input("tie_rate", top[2], widget="slider")
    return keyed


def current(name: str):
    """A key input's current value before its widget is drawn (session, else the link, else the default)."""
    f = D.field(name)
    if f.key in st.session_state:
        return st.session_state[f.key]
    try:
        return f.parse(st.query_params[f.key])
    except (KeyError, ValueError):
        return f.default


def assumptions(scenario: str):
    """The prior on the effect, the costs and the simulation check (sidebar)."""
    effect_pp = current("delta") if scenario != "preference" else \
        round(current("p_new") - (100.0 - current("p_new") - current("tie_rate")), 6)
    prior = prior_controls(default_mean=effect_pp, unit="pp", low=-20.0, high=20.0, step=0.1, sd_default=1.0,
                           sd_high=10.0, help_unit=" (new minus old, percentage points)",
                           measured_scale=100.0 if scenario == "paired" else None)
    cost_unit, currency = cost_controls(
        unit={"paired": "test item", "unpaired": "item (per model)", "preference": "judgment"}[scenario], default=0.0,
        help="What labelling one test item (or collecting one judgment) costs; the plan reports n × this. 0 leaves "
        "costs out.")
    return prior, cost_unit, currency


# ---------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------
def headline(design, prior, cost_unit, currency):
    """Power, Type-M, Type-S, MDE, the sizes (and assurance, cost) of the design; the verdict."""
    scenario, n, target, effect, key = design.scenario, design.n, design.target_power, design.effect, \
        design.for_scenario()
    with guard():
        # the MDE reads no effect and the sample sizes no n: a move of either reuses the other's cached value
        result, mde_now, sizes = power(key), mde(design.key_for("mde")), sample_sizes(design.key_for("sample_sizes"))
    assured = None
    if prior.on:
        with guard("Cannot average over this prior"):
            assured = curves_tabs.assurance_point(key, n, prior.mean / 100, prior.sd / 100)
            guess = sizes.first if sizes is not None and sizes.first > 0 and \
                math.isclose(prior.mean / 100, effect, abs_tol=1e-9) else n
            n_assured = curves_tabs.assurance_n(key, prior.mean / 100, prior.sd / 100, target, assured.ceiling, guess)
    units_needed = UNITS_PER_N[scenario]
    cost_now = n * units_needed * cost_unit if cost_unit > 0 else None
    size_unit = SIZE_UNITS[scenario]
    extra_metrics = []
    if assured is not None:
        extra_metrics.append(Metric(
            "Assurance", fmt_pct(assured.assurance),
            help="P(significant in the hoped-for direction), averaged over the prior on the effect.",
            caption=f"ceiling {fmt_pct(assured.ceiling)}; "
                    + (f"{size_unit} for {target:.0%} assurance: {n_assured:,}" if n_assured > 0 else
                       f"{target:.0%} assurance is out of reach (ceiling)")))
    if cost_now is not None:
        need = sizes.first if sizes is not None and sizes.first > 0 else None
        extra_metrics.append(Metric(
            "Cost", fmt_money(cost_now, currency), help="n × the cost per unit (both models' samples when unpaired).",
            caption=f"at the {size_unit} for {target:.0%} power: "
            f"{fmt_money(need * units_needed * cost_unit, currency)}" if need else None))
    metrics_row(
        Metric("Power" if effect != 0 else "False-positive rate", fmt_pct(result.power),
               help="P(significant and in the right direction). At Δ = 0 this is the rate of false positives, which "
               "should not exceed α."),
        Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
               help="Average |observed difference| / |true difference| among significant results (appendix B)."),
        Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2),
               help="Share of significant results whose sign is wrong (appendix B)."),
        Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_now) else fmt_points(mde_now),
               help=f"Smallest {'preference gap' if scenario == 'preference' else 'accuracy gain'} this design "
               "detects with the target power" + (" (the agreement prior is re-evaluated at each candidate Δ)."
                                                  if scenario == "paired" and design.source != "manual" else ".")),
        sample_size_metric(sizes, target, unit=size_unit, help={
            "paired": "Smallest test set reaching the target power at this Δ and P_a.",
            "unpaired": "Items per model (each model on its own sample).",
            "preference": "Raters reaching the target power."}[scenario], limit=10_000_000),
        *extra_metrics,
    )
    verdict(result.power, target, effect=effect, type_m=result.type_m)
    return result, mde_now, sizes, assured, cost_now


def pins_panel(design, result, sizes) -> list:
    """'Pin this design' and the pinned designs' table; returns the pins' curve frames."""
    n, target = design.n, design.target_power
    label = {"paired": f"n = {n:,}, Δ = {design.delta:+.1f} pp",
             "unpaired": f"n = {n:,}, Δ = {design.delta:+.1f} pp, unpaired",
             "preference": f"n = {n:,}, {design.p_new:.0f}% prefer new"}[design.scenario]
    pins = pin_controls("accuracy", PIN_KEYS, label=label)
    frames, rows = pinned_designs(pins, lambda d: pinned(d.with_(target_power=target).for_scenario()),
                                  design=D, name="design")
    pins_table({"design": f"current ({label})", "n": n, "effect": "", "power": result.power,
                "type_m": result.type_m, "type_s": result.type_s,
                "n_for_target": sizes.first if sizes is not None else -1}, rows, pin_columns(
                   target, type_s=st.column_config.NumberColumn("Type-S", format="percent")))
    return frames


def simulation_check(design, result, sim) -> None:
    """The paper's simulation of the current design, on demand, next to the exact numbers."""
    st.subheader("Simulation check")
    key = design.for_scenario()

    def run(progress):
        out = key.simulate(n_sims=sim.n_sims, seed=sim.seed)
        progress(1.0)
        return out

    with guard("Cannot simulate this design"):
        mc = simulation(("accuracy", key, sim.n_sims, sim.seed), run, text=f"Simulating {sim.n_sims:,} experiments…")
    metrics_row(
        Metric("Simulated power" if design.effect != 0 else "Simulated false-positive rate", fmt_pct(mc.power),
               se=f"{100 * mc.mc_se:.1f}%", help=f"{mc.n_sims:,} simulated experiments (Card et al. Figure 2)."),
        Metric("Simulated Type-M", fmt_ratio(mc.type_m),
               se=f"{mc.type_m_se:.2f}×" if math.isfinite(mc.type_m_se) else None),
        Metric("Simulated Type-S", fmt_pct(mc.type_s, 2),
               se=f"{100 * mc.type_s_se:.2f}%" if math.isfinite(mc.type_s_se) and mc.type_s_se else None),
    )
    if abs(mc.power - result.power) <= 3 * max(mc.mc_se, 1e-12):
        st.caption(f"The simulation agrees with the exact engine: |{fmt_pct(mc.power)} − {fmt_pct(result.power)}| is "
                   f"within 3 Monte Carlo standard errors.")
    else:
        st.warning(f"The simulated power differs from the exact {fmt_pct(result.power)} by more than 3 Monte Carlo "
                   "standard errors; with a fixed seed this happens in about 3 runs in 1,000.")


@st.fragment
def planner(values: dict, prior, cost_unit: float, currency: str, sim) -> None:
    """Everything the key inputs drive: moving one reruns only this (the sidebar's values come in as arguments)."""
    values = {**values, **key_controls(values)}
    with guard("Impossible design"):
        design = D(**values)
    scenario, n, target = design.scenario, design.n, design.target_power
    result, mde_now, sizes, assured, cost_now = headline(design, prior, cost_unit, currency)
    pinned_frames = pins_panel(design, result, sizes)
    plotted: dict[str, pd.DataFrame] = {}
    tab = views(VIEWS, own=("squad",))  # the SQuAD view reads none of the key inputs
    if tab.open("power") or tab.open("exaggeration"):
        with guard():
            frame, dash = curves_tabs.labelled_curves(design.for_scenario())
        plotted["curves"] = frame
    if tab.open("power"):
        with tab["power"]:
            curves_tabs.tab_power(design, frame, dash, result, sizes, pinned_curve(pinned_frames, "n", "power"))
    if tab.open("assurance"):
        with tab["assurance"]:
            curves_tabs.tab_assurance(design, prior, assured, plotted)
    if tab.open("exaggeration"):
        with tab["exaggeration"]:
            curves_tabs.tab_exaggeration(design, frame, dash, result, sizes,
                                         pinned_curve(pinned_frames, "n", "type_m"))
    for name, draw in (("filter", lambda: curves_tabs.tab_filter(design, result, plotted)),
                       ("benchmarks", lambda: tabs.tab_benchmarks(design, plotted)),
                       ("squad", lambda: tabs.tab_squad(design, plotted)),
                       ("noworse", lambda: tabs.tab_noworse(design, plotted)),
                       ("intervals", lambda: tabs.tab_intervals(design, plotted))):
        if tab.open(name):
            with tab[name]:
                draw()
    if sim is not None and sim.run:
        simulation_check(design, result, sim)
    # the plan, the code, the download and the explanation
    def plan_figures():  # drawn only when the plan block is opened
        if not tab.open("power"):
            return ()
        return (("Power vs sample size", figures.curve_figure(
            frame, x="n", y="power", color="series", dash=dash, current=(n, result.power), target=target,
            x_title=curves_tabs.X_TITLES[scenario], y_title="Power", y_range=(0, 1.02))),)

    snippet = accuracy_design_snippet(design, prior=(prior.mean, prior.sd) if assured is not None else None)
    plan_actions(lambda: accuracy_plan.plan_item(
        design, result, mde=mde_now, sizes=sizes, assurance=assured,
        prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, cost=cost_now,
        cost_per_unit=cost_unit, currency=currency, figures=plan_figures(), link=current_link(), code=snippet,
        sources={k: source_of(k, value, "slider") for k, value in (
            ("n", n), ("delta", design.delta), ("baseline", design.baseline))} if scenario == "paired" else None),
        key=f"accuracy_{scenario}")
    code_view(snippet, key="accuracy_code")
    if plotted:
        download_csv(plotted, f"accuracy_{scenario}_{tab.current}.csv", key="download_curves",
                     label="Download the plotted data (CSV)")
    explain(curves_tabs.EXPLANATION.format(target=target))


# ---------------------------------------------------------------------------
# the page
# ---------------------------------------------------------------------------
start("Comparing models on accuracy",
      "Card et al. (2020), §2–3 and appendices B, C, E, H.4. Power counts a result only when it is significant "
      "**and** points the right way (their Figure 2).")
sidebar_values = controls()
prior_settings, unit_cost, currency_label = assumptions(sidebar_values["scenario"])
simulation_settings = simulation_controls() \
    if sidebar_values["scenario"] in ("paired", "preference") and sidebar_values["test"] != "normal" else None
planner(sidebar_values, prior_settings, unit_cost, currency_label, simulation_settings)

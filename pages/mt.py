"""Machine-translation page: BLEU power with the randomization test (Card et al. 2020, §4, appendix G).

Layout only: widgets built from :class:`core.mt.BleuDesign`'s declared fields → one design → cached calls into
``core.mt`` → charts and metrics. The state lives in the URL; only the open tab is computed; the randomization
simulation runs on demand, after the charts, with a progress bar. The fit tab is in :mod:`pages._mt_fit`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from core import figures, mt
from core.mt import plan as mt_plan
from core.mt.snippet import mt_snippet
from pages._fields import field_input
from pages._mt_fit import fit_tab
from pages._mt_views import curves, exaggeration_tab, randomization, sensitivity_tab
from pages._scaffold import (
    Metric,
    apply_values,
    cached,
    chart,
    code_view,
    cost_controls,
    current_link,
    decision_controls,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    fmt_ratio,
    guard,
    key_inputs,
    metrics_row,
    pin_columns,
    pin_controls,
    pinned_curve,
    pinned_designs,
    pins_table,
    plan_actions,
    prior_controls,
    sample_size_metric,
    simulation_controls,
    source_of,
    start,
    style,
    verdict,
    views,
)

Design = mt.BleuDesign
N_OPTIONS = sorted({int(v) for v in np.round(np.geomspace(100, 20000, 40), -1)} | {2000, 3000})
TRIAL_OPTIONS = [199, 499, 999, 1999, 4999]
CURVE_NS = tuple(np.unique(np.geomspace(100, 20000, 36).astype(int)).tolist())
VIEWS = {"power": "Power vs n (Figure 4)", "assurance": "Assurance vs n", "sensitivity": "Sensitivity to P0 and b0 (Figure 17)",
         "exaggeration": "Type-M and Type-S", "fit": "Fit P0 and b0 from your outputs"}
#: The fields a pin keeps (their URL keys): the design but the simulation's trials.
PIN_KEYS = tuple(Design.field(name).key for name in ("n", "delta_bleu", "p0", "b0", "alpha"))


# One cached call per output, each taking the page's one design (frozen, hashed by value).
@cached
def power(design: Design):
    return design.power()


@cached
def mde(design: Design, target):
    return design.mde(target_power=target)


@cached
def sample_sizes(design: Design, target):
    return design.sample_sizes(target)


@cached
def assurance_curve(design: Design, ns, mean, sd):
    rows = []
    for size in ns:
        res = design.assurance(size, sd, delta_mean=mean)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n", "assurance", "power", "ceiling"])


@cached
def assurance_n(design: Design, mean, sd, target, ceiling, guess):
    from core.assurance import assurance_sample_size

    return assurance_sample_size(lambda size: design.assurance(size, sd, delta_mean=mean).assurance,
                                 target, n_min=2, n_max=1_000_000, ceiling=ceiling, guess=guess)


@cached
def pinned(d: Design, target):
    """A pinned design's power and Type-M curves over n (its own Δ_B, P0, b0) and its summary."""
    frame = d.curves(list(CURVE_NS))[["n", "power", "type_m"]]
    point_p = d.power()
    need = d.sample_size(target_power=target) if d.delta_bleu else -1
    summary = {"n": d.n, "design": f"Δ_B {d.delta_bleu:+.2f}, P0 {d.p0:g}, b0 {d.b0:g}", "power": point_p.power,
               "type_m": point_p.type_m, "n_for_target": need}
    return frame, summary


def apply_preset() -> None:
    chosen = mt.PRESETS[st.session_state["preset"]]
    key = {name: Design.field(name).key for name in ("p0", "b0", "delta_bleu", "n")}
    apply_values({key["p0"]: chosen["p0"], key["b0"]: chosen["b0"], key["delta_bleu"]: chosen["delta_bleu"],
                  key["n"]: min(N_OPTIONS, key=lambda v: abs(v - chosen["n"]))})


@dataclass(frozen=True)
class Settings:
    """What the page asks besides the design: the decision, the prior, the cost and the simulation."""

    target: float
    prior: object
    cost_unit: float
    currency: str
    sim: object


def current_delta() -> float:
    """Δ_B as the key input holds it (its widget state, else the link's value, else the default): the prior's
    starting mean, read in the sidebar, outside the key inputs' fragment."""
    key = Design.field("delta_bleu").key
    if key in st.session_state:
        return float(st.session_state[key])
    return Design.from_params({key: st.query_params[key]} if key in st.query_params else {}).delta_bleu


def controls() -> tuple[dict, Settings]:
    """The sidebar's widgets (the assumptions); returns their values by field and the other settings. The key
    inputs are read in :func:`key_design`, inside the fragment they alone rerun."""
    start("Machine translation: BLEU and the randomization test",
          "Card et al. (2020), §4 and appendix G. Power counts a result only when it is significant **and** in the "
          "right direction.")
    side = st.sidebar
    side.selectbox("Preset", list(mt.PRESETS), key="preset", bind="query-params", on_change=apply_preset,
                   help="P0 and b0 fitted by Card et al. to four WMT En–De comparisons (Table 3), or their average "
                   "(the paper's default for Figure 4). Choosing a preset sets the sliders.")
    side.subheader("Design")
    values = {"p0": field_input(Design, "p0", side, widget="slider"),
              "b0": field_input(Design, "b0", side, widget="slider")}
    values["alpha"], target = decision_controls()
    prior = prior_controls(default_mean=current_delta(), unit="BLEU", low=-10.0, high=10.0, step=0.05,
                           sd_default=0.5, sd_high=5.0, help_unit=" (new minus baseline, BLEU points)")
    cost_unit, currency = cost_controls(
        unit="test sentence", default=0.0,
        help="What one test sentence costs: sourcing it and a professional reference translation. The plan reports "
        "n × this. 0 leaves costs out.")
    sim = simulation_controls(
        options=(500, 1000, 2000, 5000), default=2000, label="Run the randomization test",
        help="The paper's full simulation for the current design: simulated test sets, each tested with the paired "
        "randomization test. It runs after the charts, with a progress bar, and its estimates carry Monte Carlo "
        "standard errors. The instant numbers come from the test's normal approximation.")
    if sim.run:
        values["n_trials"] = field_input(Design, "n_trials", st.sidebar, widget="select_slider", options=TRIAL_OPTIONS)
    return values, Settings(target, prior, cost_unit, currency, sim)


def key_design(assumptions: dict) -> Design:
    """The key inputs above the first chart (test-set size n and Δ_B) completing the sidebar's assumptions."""
    top = key_inputs(3)  # the inputs the question turns on, above the first chart
    n = field_input(Design, "n", top[0], widget="select_slider", options=N_OPTIONS)
    delta = field_input(Design, "delta_bleu", top[1], widget="slider")
    with guard():
        return Design(delta_bleu=delta, n=n, **assumptions)


def headline(design: Design, s: Settings) -> dict:
    """Metrics, verdict, assurance, cost and pins of the current design; returns what the tabs and plan reuse."""
    n, delta, target = design.n, design.delta_bleu, s.target
    expected_nonzero = n * (1 - design.p0)
    if expected_nonzero < 75:
        st.warning(f"Only about {expected_nonzero:.0f} sentences are expected to change the BLEU difference. The fast "
                   "engine's normal approximation is unreliable below ~75; run the randomization test for this design.")
    with guard():
        result = power(design)
        mde_value = mde(design, target)
        sizes = sample_sizes(design, target) if delta != 0 else None
    metrics_row(
        Metric("Power" if delta != 0 else "False-positive rate", fmt_pct(result.power),
               help="P(significant and in the right direction); at Δ_B = 0 the rate of false positives (≤ α)."),
        Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
               help="Average |observed Δ_B| / |true Δ_B| among significant results."),
        Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the wrong sign."),
        Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else f"{mde_value:.2f} BLEU",
               help="Smallest BLEU difference this test set detects with the target power (fast engine)."),
        sample_size_metric(sizes, target, unit="sentences",
                           help="Smallest test set (sentences) reaching the target power at this Δ_B.",
                           limit=1_000_000),
    )
    verdict(result.power, target, effect=delta, type_m=result.type_m)
    if sizes is not None and sizes.first > 0 and sizes.first * (1 - design.p0) < 75 <= expected_nonzero:
        st.warning(f"The {sizes.first:,} sentences for {target:.0%} power come from the normal approximation where it "
                   f"is unreliable: only about {sizes.first * (1 - design.p0):.0f} of them would change the BLEU "
                   "difference (below ~75). Set n to it and run the randomization test before relying on it.")

    # the prior on Δ_B (assurance) and the cost
    prior, assured, n_assured = s.prior, None, None
    if prior.on:
        with guard("Cannot average over this prior"):
            assured = design.assurance(n, prior.sd, delta_mean=prior.mean)
            guess = sizes.first if sizes is not None and sizes.first > 0 and math.isclose(prior.mean, delta) else n
            n_assured = assurance_n(design, prior.mean, prior.sd, target, assured.ceiling, guess)
    cost_now = n * s.cost_unit if s.cost_unit > 0 else None
    cost_needed = sizes.first * s.cost_unit if cost_now is not None and sizes is not None and sizes.first > 0 else None
    extra = []
    if assured is not None:
        extra.append(Metric("Assurance", fmt_pct(assured.assurance),
                            help="P(significant in the hoped-for direction), averaged over the prior on Δ_B.",
                            caption=f"ceiling {fmt_pct(assured.ceiling)}; " + (
                                f"sentences for {target:.0%} assurance: {n_assured:,}" if n_assured > 0 else
                                f"{target:.0%} assurance is out of reach (ceiling)")))
    if cost_now is not None:
        extra.append(Metric("Cost", fmt_money(cost_now, s.currency), help="n × the cost per test sentence.",
                            caption=f"at the sentences for {target:.0%} power: {fmt_money(cost_needed, s.currency)}"
                            if cost_needed is not None else None))
    if extra:
        metrics_row(*extra)

    pins = pin_controls("mt", PIN_KEYS, label=f"n = {n:,}, Δ_B = {delta:+.2f}")
    pinned_frames, pinned_rows = pinned_designs(pins, lambda d: pinned(d, target), design=Design)
    pins_table({"pin": "current", "n": n, "design": f"Δ_B {delta:+.2f}, P0 {design.p0:g}, b0 {design.b0:g}",
                "power": result.power, "type_m": result.type_m,
                "n_for_target": sizes.first if sizes is not None else -1}, pinned_rows, pin_columns(target))
    return dict(result=result, mde=mde_value, sizes=sizes, assured=assured, n_assured=n_assured, cost_now=cost_now,
                cost_needed=cost_needed, pinned_power=pinned_curve(pinned_frames, "n", "power"),
                pinned_type_m=pinned_curve(pinned_frames, "n", "type_m"))


def power_tab(design: Design, s: Settings, h: dict, fig4: pd.DataFrame, plotted: dict) -> None:
    n, delta, target, result = design.n, design.delta_bleu, s.target, h["result"]
    chart(figures.curve_figure(fig4, x="n", y="power", color="series", current=(n, result.power), target=target,
                               title=f"Power vs test-set size (P0 = {design.p0:g}, b0 = {design.b0:g})",
                               x_title="Test-set size n (sentences)", y_title="Power", y_range=(0, 1.02),
                               pins=h["pinned_power"], style=style()), "power_chart")
    cost_now, cost_needed, currency = h["cost_now"], h["cost_needed"], s.currency
    if cost_now is None:
        return
    money = fig4[fig4["delta_bleu"] == abs(delta)] if delta else fig4.iloc[0:0]
    if len(money):
        money = money.assign(cost=money["n"] * s.cost_unit, series=f"Δ_B = {abs(delta):g}")
        plotted["power_vs_cost"] = money
        chart(figures.curve_figure(
            money, x="cost", y="power", color="series", current=(cost_now, result.power), target=target,
            lines=[figures.Line(x=cost_needed, text=f"{target:.0%} power<br>{fmt_money(cost_needed, currency, markdown=False)}")]
            if cost_needed is not None and cost_needed <= money["cost"].max() else [],
            title=f"Power vs cost of the test set ({currency}, {fmt_money(s.cost_unit, currency, markdown=False)} "
                  "per sentence)",
            x_title=f"Cost ({currency})", y_title="Power", y_range=(0, 1.02), style=style()), "cost_chart")


def assurance_tab(design: Design, s: Settings, h: dict, plotted: dict) -> None:
    assured, prior, n = h["assured"], s.prior, design.n
    if assured is None:
        st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                "large the BLEU gain is, the assurance says how likely the comparison is to succeed, and its "
                "ceiling why a larger test set cannot make up for a vague prior.")
        return
    with guard("Cannot average over this prior"):
        ns_a = tuple(sorted(set(np.unique(np.geomspace(100, 20000, 18).astype(int)).tolist()) | {n}))
        curve_a = assurance_curve(design, ns_a, prior.mean, prior.sd)
    plotted["assurance"] = curve_a
    tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                      curve_a.assign(series=f"power at the prior mean (Δ_B = {prior.mean:+.2f})",
                                     value=curve_a["power"])], ignore_index=True)
    chart(figures.curve_figure(tidy, x="n", y="value", color="series", current=(n, assured.assurance),
                               target=s.target, lines=[figures.Line(y=assured.ceiling,
                                                                    text=f"ceiling {assured.ceiling:.0%}",
                                                                    color=figures.PALETTE[1])],
                               title="Assurance and power vs test-set size", x_title="Test-set size n "
                               "(sentences)", y_title="Probability", y_range=(0, 1.02), style=style()),
          "assurance_chart")
    st.caption("The assurance levels off at the ceiling — the prior probability that the new system is "
               "better at all: no test set can be surer than you are about the sign of the gain.")


def origin(key, value):
    """Where a slider's value came from: a fit, a preset of Card et al. Table 3, or the slider."""
    recorded = source_of(key, value, "")
    if recorded:
        return recorded
    preset_name = st.session_state.get("preset")
    chosen = mt.PRESETS.get(preset_name) if preset_name else None
    field = {"p0": "p0", "b0": "b0", "delta": "delta_bleu"}.get(key)
    if chosen is not None and field and math.isclose(float(chosen[field]), float(value), abs_tol=1e-9):
        return f"preset “{preset_name}” (Card et al. 2020, Table 3)"
    return source_of(key, value, "slider")


def plan(design: Design, s: Settings, h: dict, fig4, tab) -> None:
    n, delta, p0, b0, target, prior = design.n, design.delta_bleu, design.p0, design.b0, s.target, s.prior
    assured, result = h["assured"], h["result"]

    def plan_figures():  # drawn only when the plan block is opened
        if not tab.open("power"):
            return ()
        return (("Power vs test-set size", figures.curve_figure(
            fig4, x="n", y="power", color="series", current=(n, result.power), target=target,
            x_title="Test-set size n (sentences)", y_title="Power", y_range=(0, 1.02))),)

    snippet = mt_snippet(design, target_power=target, prior=(prior.mean, prior.sd) if assured is not None else None)
    key = {name: Design.field(name).key for name in ("n", "delta_bleu", "p0", "b0")}
    plan_actions(lambda: mt_plan.plan_item(
        design, result, target_power=target, mde=h["mde"], sizes=h["sizes"], assurance=assured,
        prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, n_assured=h["n_assured"],
        cost=h["cost_now"], cost_per_unit=s.cost_unit, cost_needed=h["cost_needed"], currency=s.currency,
        figures=plan_figures(), link=current_link(), code=snippet,
        sources={"n": source_of(key["n"], n, "slider"), "delta": origin(key["delta_bleu"], delta),
                 "p0": origin(key["p0"], p0), "b0": origin(key["b0"], b0)}),
        key="mt")
    code_view(snippet, key="mt_code")


@st.fragment
def body(assumptions: dict, s: Settings) -> None:
    """The key inputs and everything they change (metrics, pins, tabs, simulation, plan): moving a key input reruns
    only this; the sidebar's assumptions come in as values (a change there reruns the page)."""
    design = key_design(assumptions)
    h = headline(design, s)
    n, delta, target, sizes = design.n, design.delta_bleu, s.target, h["sizes"]
    plotted: dict[str, pd.DataFrame] = {}
    tab = views(VIEWS)
    ns = tuple(sorted(set(CURVE_NS) | {n}))
    needed = sizes.first if sizes is not None and 0 < sizes.first <= 20000 else None
    fig4 = None
    if tab.open("power") or tab.open("exaggeration"):
        with guard():
            fig4 = curves(design, ns, tuple(sorted({0.5, 1.0, 2.0, 3.0, abs(delta)} - {0.0})))
        fig4 = fig4.assign(series=[f"Δ_B = {d:g}" for d in fig4["delta_bleu"]])
        plotted["figure4"] = fig4
    if tab.open("power"):
        with tab["power"]:
            power_tab(design, s, h, fig4, plotted)
    if tab.open("assurance"):
        with tab["assurance"]:
            assurance_tab(design, s, h, plotted)
    if tab.open("sensitivity"):
        with tab["sensitivity"], guard():
            sensitivity_tab(design, s, h, ns, plotted)
    if tab.open("exaggeration"):
        with tab["exaggeration"]:
            exaggeration_tab(design, h, fig4, needed, target)
    with tab["fit"]:
        fit_tab(tab, plotted)
    if s.sim.run:
        randomization(design, s, h["result"])
    plan(design, s, h, fig4, tab)
    if plotted:
        download_csv(plotted, f"bleu_{tab.current}.csv", key="download_curves", label="Download the plotted data (CSV)")
    explain(
        f"""
**The question.** Your new MT system is expected to beat the baseline by **Δ_B = {delta:g} BLEU** on a test set of
**{n:,} sentences**. Will the usual significance test — the paired randomization test, which swaps the two systems'
outputs on random subsets of sentences — find that difference?

**How the page simulates a test set without translating anything.** Swapping one sentence's outputs changes the BLEU
difference by a small amount, its *swap effect*. Card et al. found that these effects add up (the effect of swapping a
subset is close to the sum of single-sentence effects) and follow a simple shape: exactly zero for a share **P0** of
sentences, and a Laplace distribution for the rest, whose spread shrinks as 1/n (**b0**). That is enough to simulate
the randomization test.

**Engines.** The instant numbers use the fact that the randomization test is a sign-flip test, whose null is very close
to normal, integrated over the distribution of the effects. Switch on *Run the randomization test* for the paper's full
simulation of the current design; its estimates come with Monte Carlo standard errors.

**Reading the charts.** Below the dashed {target:.0%} line an experiment is under-powered: a real gain is often
missed, and a significant result usually overstates it (Type-M) — see the view **Type-M and Type-S**.

**Your own data.** The last tab computes P0 and b0 from two systems' outputs with sacrebleu, shows how well the Laplace
fits (Figure 16) and checks the additivity assumption (Figure 15) on your data.
"""
    )


body(*controls())

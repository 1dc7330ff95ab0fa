"""The Ratings page below the tabs: the simulation of designs without a closed form (after the charts, with a
progress bar), the plan and its code, the worker assignment, the download and the explainer. Layout only: every
number comes from :class:`core.ratings.RatingsDesign`'s methods."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from core import ratings as rt
from core.ratings import plan as ratings_plan
from core.runnable import worker_assignment
from core.ratings.snippet import ratings_snippet
from pages._ratings_views import effect_chart
from pages._scaffold import (Metric, chart, code_view, current_link, download_csv, explain, fmt_pct, guard,
                             plan_actions, simulation, source_of)

SIM_EFFECTS = (0.05, 0.1, 0.15, 0.2)


def simulations(page, show_metrics) -> None:
    """Simulate the current design (automatic where there is no closed form, on demand otherwise)."""
    if not page.run_sims:
        return
    d, sim, target = page.design, page.sim, page.target
    st.subheader("Simulation" + (f" — {rt.RULE_LABELS[d.rule]}" if d.rule == "paper" else ""))

    def run_point(progress):
        out = d.power(n_sims=sim.n_sims, seed=sim.seed)
        progress(1.0)
        return out

    mc = None
    with guard("Cannot simulate this design", stop=False):
        mc = simulation(("ratings.point", d, sim.n_sims, sim.seed), run_point,
                        text=f"Simulating {sim.n_sims:,} experiments of this design…")
    if mc is None:  # refused (too large): say what is known instead of leaving the metrics pending
        refused(page)
        return
    show_metrics(page, mc, simulated=True)
    with page.verdict_slot:
        if mc.false_positive_rate > page.nominal + 3 * max(mc.false_positive_rate_se, 1e-9):
            st.error(f"**This rule is not calibrated here:** with {d.workers} workers it declares a difference in "
                     f"{fmt_pct(mc.false_positive_rate)} of experiments where there is none (nominal "
                     f"{page.nominal:.1%}). With few workers the worker-slope variance is estimated from W − 1 degrees "
                     "of freedom, and a test that ignores this (t > 1.96) — or even estimates its df from so little "
                     "— is too optimistic. Add workers.")
        elif d.effect and mc.power < target:
            st.warning(f"**Under-powered:** {fmt_pct(mc.power)} power for a {2 * d.effect:.3f} difference in mean "
                       "rating (simulated).")
        elif d.effect:
            st.success(f"**Adequately powered** ({fmt_pct(mc.power)} ≥ {target:.0%}, simulated).")
    if d.analytic:
        gap = abs(mc.power - page.exact.power)
        st.caption(("The simulation agrees with the analytic power within 3 Monte Carlo standard errors."
                    if gap <= 3 * max(mc.mc_se, 1e-12) else
                    f"The simulated power differs from the analytic {fmt_pct(page.exact.power)} by more than 3 Monte "
                    "Carlo standard errors (the analytic engine is a noncentral-t approximation)."))
    if d.layout == "crowd" and page.approx_crowd is not None:
        st.caption(f"Approximate analytic power of this crowdsourcing design: {fmt_pct(page.approx_crowd)}.")
    if page.effect_slot is not None:
        chart_points(page, mc)


def refused(page) -> None:
    """The metrics of a design too large to simulate: the approximate analytic power where there is one."""
    d, approx = page.design, page.approx_crowd
    fallback = [Metric("Power", fmt_pct(approx) if approx is not None else "—",
                       help="Approximate analytic power of this crowdsourcing design." if approx is not None
                       else "Needs the simulation."),
                Metric("False-positive rate", "—", help="Needs the simulation."),
                Metric("Type-M (exaggeration)", "—", help="Needs the simulation."),
                Metric("Type-S (wrong sign)", "—", help="Needs the simulation.")]
    for slot, item in zip(page.slots[:4], fallback):
        with slot.container(gap=None):
            st.metric(item.label, item.value, help=item.help)
    page.note_slot.info(f"This design is too large to simulate with {page.sim.n_sims:,} experiments (see the message "
                        "below the charts): " + ("the power shown is the approximate analytic one; "
                                                 if d.layout == "crowd" else "")
                        + "choose fewer simulated experiments or a smaller design for the simulated numbers.")


def chart_points(page, mc) -> None:
    """The chosen rule's simulated power at four effects, as squares on the Figure 6 chart."""
    d, seed = page.design, page.sim.seed
    n_points = min(page.sim.n_sims, 1000)

    def run_points(progress):
        rows = []
        for j, e in enumerate(SIM_EFFECTS):
            r = d.with_(effect=e).power(n_sims=n_points, seed=seed)
            rows.append((e, r.power, r.mc_se))
            progress((j + 1) / len(SIM_EFFECTS))
        return pd.DataFrame(rows, columns=["x", "y", "se"])

    with guard("Cannot simulate the chart's points"):
        pts = simulation(("ratings.points", d.with_(effect=0.0), n_points, seed), run_points,
                         text="Simulating the chart's points…")
    label = (f"W = {d.workers}" if d.layout == "crossed" else f"k = {d.per_item} of {d.workers}") + f", {d.rule} rule"
    pts = pts.assign(name=f"{label} (simulated)")
    page.plotted["simulated_points"] = pts.rename(columns={"x": "effect", "y": "power", "se": "mc_se"})
    with page.effect_slot:
        chart(effect_chart(page, pts, mc.power), "power_chart")


def origin(design, key, value):
    """Where a value came from, for the plan: a recorded preset or pilot fit, the design's preset, or the slider."""
    recorded = source_of(key, value, "")
    if recorded:
        return recorded
    values = rt.PRESETS.get(design.preset) or rt.DATASET_PRESETS.get(design.preset)
    if values is not None and key in values and math.isclose(float(values[key]), float(value), abs_tol=1e-9):
        return f"preset “{rt.PRESET_LABELS.get(design.preset, design.preset)}” (Card et al. 2020)"
    return "slider"


def plan_section(page) -> None:
    """The plan (text, figure, code) and the script that reproduces the numbers."""
    d, prior, assured = page.design, page.prior, page.assured
    def plan_figures():  # drawn only when the plan block is opened
        if page.curves is None:
            return ()
        return (("Power vs effect (analytic, fully crossed)", effect_chart(page)),)

    snippet = ratings_snippet(d, target_power=page.target,
                              prior=(prior.mean, prior.sd) if assured is not None else None)
    with guard("Cannot write the plan", stop=False):
        plan_actions(lambda: ratings_plan.plan_item(
            d, page.exact if d.analytic else None, target_power=page.target, mde=page.mde_value, assurance=assured,
            prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, costs=page.costs,
            currency=page.currency, figures=plan_figures(), link=current_link(), code=snippet,
            sources={"effect": origin(d, "effect", d.effect), **{k: origin(d, k, v) for k, v in d.sigmas.items()}}),
            key="ratings")
    code_view(snippet, key="ratings_code")


def assignment(d) -> None:
    """Who rates what: a balanced, seeded assignment for the chosen design."""
    box = st.expander("Download the worker assignment — which worker rates which item",
                      key="assign_open", on_change="rerun", icon=":material/assignment_ind:")
    if not box.open:
        return
    with box, guard("Cannot assign workers", stop=False):
        per_item_k = d.workers if d.layout == "crossed" else d.per_item
        seed = int(st.number_input("Seed", 0, 2**31 - 1, 0, key="assign_seed",
                                   help="The same seed gives the same assignment; keep it in your plan."))
        table = worker_assignment(d.items, d.workers, per_item_k, seed=seed)
        load = table["worker"].value_counts()
        st.markdown(f"{d.items:,} items × {per_item_k} of {d.workers} workers each = **{len(table):,}** assignments; "
                    f"each worker rates {load.min():,}–{load.max():,} items (both systems' outputs of each). Items "
                    "and workers are numbered from 1; the order is random (seeded), so no worker sees only one part "
                    "of the item list.")
        st.download_button("Download the worker assignment (CSV)",
                           data=table.to_csv(index=False).encode("utf-8"), file_name="worker_assignment.csv",
                           mime="text/csv", key="assign_csv", on_click="ignore")


def closing(page) -> None:
    """The download of the plotted data and the plain-language explanation."""
    d, target = page.design, page.target
    if page.plotted:
        download_csv(page.plotted, f"ratings_{page.tab.current}.csv", key="download_curves",
                     label="Download the plotted data (CSV)")
    explain(
        f"""
**The question.** {d.workers} workers rate {d.items} outputs of both systems on a [0, 1] scale. Can that detect a
difference of **{2 * d.effect:.3f}** in mean rating?

**Why workers matter so much.** Workers differ not only in leniency but in *how much they prefer the new system* (the
worker-slope SD). That disagreement is averaged over workers, not items: with three workers it can never be averaged
away, so power stops growing with more items (the view **Power vs items and workers**).

**Two ways to decide.** The paper counted a detection when the mixed model's t value exceeded 1.96. With few workers
that rule is too optimistic: it declares differences between equal systems far more often than the nominal 2.5% (the view
**False positives by rule**). A REML fit with a Satterthwaite t test is the careful analysis; its power has a closed form (Westfall, Kenny &
Judd 2014), which the page shows at once. The paper's rule has none, so it is simulated — after the charts, with a
progress bar.

**Exaggeration.** When power is low, the significant results are the lucky ones and overstate the difference (Type-M
view).

**Planning.** The budget planner finds, for each number of workers, the fewest items reaching {target:.0%} power, with
the cost; more workers per item usually buy more power per rating than more items.

**Crowdsourcing designs.** With "k workers per item", each item is rated by k workers drawn from a pool of W. Spreading
the items over a larger pool averages the workers' disagreement better than asking the same three workers to rate
everything. This design is analysed with moment estimates of the same model (no per-replicate mixed-model fit), which
is approximately calibrated — the false-positive rate shown next to the power says how well.
"""
    )

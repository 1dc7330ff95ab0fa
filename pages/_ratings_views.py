"""The Ratings page's tabs (power vs effect, assurance, items and workers, false positives, Type-M, budget
planner). Layout only: every number comes from a cached call that takes the page's one
:class:`core.ratings.RatingsDesign`."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import ratings as rt
from pages._scaffold import cached, chart, chart_row, fmt_money, fmt_pct, guard, metric_slots, simulation, style

ITEM_OPTIONS = [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000]
EFFECTS = tuple(np.round(np.linspace(0.0, 0.3, 31), 3))  # the x axis of Figure 6 (Card et al. 2020)
VIEWS = {"effect": "Power vs effect (Figure 6)", "assurance": "Assurance vs items",
         "items": "Power vs items and workers", "fpr": "False positives by rule", "type_m": "Type-M",
         "plan": "Budget planner", "pilot": "Fit a pilot"}
FPR_WORKERS = (2, 3, 5, 10, 20)
N_FPR = 1000


@cached
def grid(design: rt.RatingsDesign, workers: tuple, items: tuple, effects: tuple, with_type_m: bool) -> pd.DataFrame:
    """Analytic power of fully crossed designs on a grid (the design's SDs and α); Type-M only when asked for (its
    integrals are half of a power chart's work)."""
    return design.curves(effects, workers=workers, items=items, with_type_m=with_type_m)


@cached
def assurance_curve(design: rt.RatingsDesign, items_list: tuple, mean: float, sd: float) -> pd.DataFrame:
    rows = []
    for i in items_list:
        res = design.with_(items=i).assurance(sd, delta_mean=mean)
        rows.append((i, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["items", "assurance", "power", "ceiling"])


@cached
def plans(design: rt.RatingsDesign, costs: rt.RatingsCostDesign, target: float) -> pd.DataFrame:
    return costs.plans(design, target_power=target)


@cached
def assured_plans(design: rt.RatingsDesign, costs: rt.RatingsCostDesign, mean, sd, target) -> pd.DataFrame:
    return costs.assurance_plans(design, sd, delta_mean=mean, target=target)


def worker_set(design) -> tuple:
    return tuple(sorted({3, 10, design.workers}))


def effect_curves(page, with_type_m: bool = False) -> pd.DataFrame:
    d = page.design
    curves = grid(d, worker_set(d), (d.items,), EFFECTS, with_type_m)
    return curves.assign(series=[f"W = {w} (analytic)" for w in curves["workers"]])


def effect_chart(page, points=None, simulated_power=None):
    d = page.design
    current = ((d.effect, page.exact.power) if d.analytic else (d.effect, simulated_power)
               if simulated_power is not None else None)
    return figures.curve_figure(page.curves, x="effect", y="power", color="series", current=current,
                                target=page.target,
                                title=f"Power vs effect, {d.items} items (lines: Satterthwaite rule, analytic)",
                                x_title="Effect β1", y_title="Power", log_x=False, y_range=(0, 1.02), points=points,
                                pins=page.pinned_power, style=style())


def effect_tab(page) -> None:
    page.effect_slot = st.empty()
    with page.effect_slot:  # redrawn with the simulated points (and then keyed) when they come
        chart(effect_chart(page), None if page.run_sims else "power_chart")
    effect = page.design.effect  # what β1 means (a caption under the key input pushes the chart off screen)
    st.caption(f"β1 = {effect:g}: a difference of **{2 * effect:.3f}** in mean rating on the [0, 1] scale "
               f"(≈ {2 * effect * 4:.2f} points on a 1–5 Likert scale). Lines: analytic power of the Satterthwaite "
               "t test, fully crossed. Squares (when simulated): the chosen rule and design, ± 2 standard errors. "
               "With the paper's rule and Table 16's settings they reproduce Figure 6.")


def assurance_tab(page) -> None:
    d, assured, prior = page.design, page.assured, page.prior
    if assured is None:
        st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                "large the difference is, the assurance says how likely the study is to succeed, and its ceiling "
                "why more items cannot make up for a vague prior.")
        return
    with guard("Cannot average over this prior"):
        curve_a = assurance_curve(d, tuple(sorted(set(ITEM_OPTIONS) | {d.items})), prior.mean, prior.sd)
    page.plotted["assurance"] = curve_a
    tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                      curve_a.assign(series=f"power at the prior mean (β1 = {prior.mean:+.3f})",
                                     value=curve_a["power"])], ignore_index=True)
    who = f"W = {d.workers}" if d.layout == "crossed" else f"k = {d.per_item} of {d.workers} workers"
    chart(figures.curve_figure(tidy, x="items", y="value", color="series", current=(d.items, assured.assurance),
                               target=page.target, lines=[figures.Line(y=assured.ceiling,
                                                                       text=f"ceiling {assured.ceiling:.0%}",
                                                                       color=figures.PALETTE[1])],
                               title=f"Assurance and power vs items ({who}; Satterthwaite t test)",
                               x_title="Items I", y_title="Probability", y_range=(0, 1.02), style=style()),
          "assurance_chart")
    st.caption("Two ceilings meet here: with few workers power itself levels off (the worker-slope variance), "
               "and the assurance cannot pass the prior probability that the new system is better at all.")


def items_tab(page) -> None:
    d, target = page.design, page.target
    if d.effect <= 0:
        st.info("Set a non-zero effect to see power against the number of items and workers.")
        return
    by_items = grid(d, worker_set(d), tuple(ITEM_OPTIONS), (d.effect,), False)
    by_items = by_items.assign(series=[f"W = {w}" for w in by_items["workers"]])
    by_workers = grid(d, tuple(range(2, 51)), tuple(sorted({50, d.items, 500})), (d.effect,), False)
    by_workers = by_workers.assign(series=[f"I = {i}" for i in by_workers["items"]])
    page.plotted.update(power_vs_items=by_items, power_vs_workers=by_workers)
    current_power = page.exact.power if d.analytic else None
    (c1, c2), (s1, s2) = chart_row(2)
    with c1:
        chart(figures.curve_figure(by_items, x="items", y="power", color="series",
                                   current=(d.items, current_power) if current_power is not None else None,
                                   target=target, title=f"Power vs items (effect {d.effect:g}, analytic)",
                                   x_title="Items I", y_title="Power", y_range=(0, 1.02), style=style(s1)),
              "items_chart")
    with c2:
        chart(figures.curve_figure(by_workers, x="workers", y="power", color="series",
                                   current=(d.workers, current_power) if current_power is not None else None,
                                   target=target, log_x=False, y_range=(0, 1.02),
                                   title=f"Power vs workers (effect {d.effect:g}, analytic)", x_title="Workers W",
                                   y_title="Power", style=style(s2)), "workers_chart")
    st.caption("With few workers power hits a ceiling: more items cannot average away how much the workers "
               "themselves disagree about the systems (the worker-slope variance)."
               + (" Curves are fully crossed designs for comparison." if d.layout == "crowd" else ""))


def fpr_tab(page) -> None:
    d, seed = page.design, page.sim.seed

    def run_fpr(progress):
        rows, total = [], len(FPR_WORKERS) * len(rt.RULES)
        for w in FPR_WORKERS:
            for r in rt.RULES:  # equal systems (β1 = 0), fully crossed, continuous ratings
                res = rt.RatingsDesign(w, d.items, 0.0, **d.sigmas, alpha=d.alpha, rule=r).power(n_sims=N_FPR,
                                                                                                  seed=seed)
                rows.append((w, r, res.false_positive_rate, res.false_positive_rate_se))
                progress(len(rows) / total)
        return pd.DataFrame(rows, columns=["workers", "rule", "false_positive_rate", "mc_se"])

    with guard("Cannot simulate the false-positive rates"):
        fpr = simulation(("ratings.fpr", d.items, tuple(sorted(d.sigmas.items())), d.alpha, seed), run_fpr,
                         text=f"Simulating {N_FPR:,} experiments per bar…")
    page.plotted["false_positives"] = fpr
    labels = rt.RULE_LABELS
    series = {labels[r]: fpr[fpr.rule == r]["false_positive_rate"].to_numpy() for r in rt.RULES}
    errors = {labels[r]: 2 * fpr[fpr.rule == r]["mc_se"].to_numpy() for r in rt.RULES}
    chart(figures.bar_figure([str(w) for w in FPR_WORKERS], series, errors=errors,
                             lines=[figures.Line(y=0.025, text="paper's nominal 2.5%", color=figures.PALETTE[0],
                                                 dash="dot"),
                                    figures.Line(y=d.alpha, text=f"α = {d.alpha}", color=figures.PALETTE[1],
                                                 dash="dot")],
                             title=f"False-positive rate at effect 0 ({d.items} items, {N_FPR:,} simulations per "
                                   "bar, ± 2 SE)", x_title="Workers", y_title="Rate", style=style()), "fpr_chart")
    st.caption("With few workers the worker-slope variance is estimated from W − 1 degrees of freedom; a rule that "
               "ignores this (t > 1.96) declares differences between equal systems far more often than it says.")


def type_m_tab(page) -> None:
    d = page.design
    tm = page.curves[page.curves["effect"] > 0]
    chart(figures.type_m_figure(tm, x="effect", color="series",
                                current=(d.effect, page.exact.type_m) if d.analytic else None,
                                needed=page.mde_value if math.isfinite(page.mde_value) else None,
                                needed_text=f"{page.target:.0%} power", title="Exaggeration of significant results",
                                x_title="Effect β1", log_x=False, pins=page.pinned_type_m, style=style()),
          "type_m_chart")


def plan_tab(page) -> None:
    d, target, currency = page.design, page.target, page.currency
    c1, c2, c3 = metric_slots(3)
    c1.metric("Cost per rating", fmt_money(page.costs.rating_cost, currency),
              help="Set in the sidebar (per rating, or an hourly wage ÷ ratings per hour).")
    c2.metric("Fixed cost per worker", fmt_money(page.costs.cost_per_worker, currency))
    if d.effect <= 0:
        st.info("Set a non-zero effect to plan a budget.")
        return
    with guard("Cannot plan this budget"):
        plan = plans(d, page.costs, target)  # crowd_plans has no cost per worker
        if d.layout == "crowd":
            knob, symbol = "per_item", "k"
            title = f"Cheapest design per k (pool of {d.workers}; approximate analytic power)"
        else:
            knob, symbol = "workers", "W"
            title = "Cheapest design per number of workers (grey: never reaches the target, shown at 5,000 items)"
    page.plotted["plans"] = plan
    ok = plan[plan["reachable"]]
    if len(ok):
        best = ok.iloc[0]
        c3.metric("Cheapest design", (f"{int(best[knob])} workers × " if knob == "workers" else
                                      f"{int(best[knob])} workers per item × ") + f"{int(best['items']):,} items",
                  help=f"{int(best['ratings']):,} ratings, cost {fmt_money(best['cost'], currency)}")
    chart(figures.scatter_figure(
        plan["cost"], plan["power"], text=[f"{symbol}={v}" for v in plan[knob]],
        colors=np.where(plan["reachable"], figures.PALETTE[2], "#AAAAAA"),
        customdata=np.stack([plan[knob], plan["items"], plan["ratings"]], axis=-1),
        hover=f"{symbol} = %{{customdata[0]}}, I = %{{customdata[1]}}<br>%{{customdata[2]:,}} ratings"
              "<br>cost %{x:,.2f}<br>power %{y:.3f}<extra></extra>",
        lines=[figures.Line(y=target, text=f"{target:.0%} power")], log_x=True, name="designs",
        title=title, x_title=f"Total cost ({currency})", y_title="Power", style=style()), "planner_chart")
    money = st.column_config.NumberColumn(f"Cost ({currency})", format="%.2f")
    st.dataframe(plan, hide_index=True, width="stretch", column_config={
        "cost": money, "power": st.column_config.NumberColumn("Power", format="%.3f")})
    if page.assured is not None and d.layout == "crossed":
        assured_tab_part(page, money)


def assured_tab_part(page, money) -> None:
    """The planner's second table: the cheapest designs reaching the target *assurance* under the prior."""
    prior, target, currency = page.prior, page.target, page.currency
    st.markdown(f"**With your prior** N({prior.mean:+.3f}, {prior.sd:.3f}²) on β1: the cheapest designs "
                f"reaching {target:.0%} *assurance*")
    with guard("Cannot plan for this prior", stop=False):
        plan_a = assured_plans(page.design, page.costs, prior.mean, prior.sd, target)
        page.plotted["plans_assurance"] = plan_a
        ok_a = plan_a[plan_a["reachable"]]
        if len(ok_a):
            best_a = ok_a.iloc[0]
            st.success(f"Cheapest for {target:.0%} assurance: W = {int(best_a['workers'])}, "
                       f"I = {int(best_a['items'])} ({int(best_a['ratings']):,} ratings, "
                       f"{fmt_money(best_a['cost'], currency)}).")
        else:
            st.warning(f"No design reaches {target:.0%} assurance: the prior's ceiling is "
                       f"{fmt_pct(page.assured.ceiling)} — the probability that the new system is better at "
                       "all. More ratings cannot make up for that; narrow the prior with a pilot.")
        st.dataframe(plan_a, hide_index=True, width="stretch", column_config={
            "cost": money, "assurance": st.column_config.NumberColumn("Assurance", format="%.3f")})

"""The LLM page's chart tabs (UI only; numbers from ``core.llm.BenchmarkDesign`` and, for "no worse than",
``core.llm.NoWorseDesign``): power and assurance vs questions, the variance budget, cost vs samples, judge error and
"no worse than"; the simulation check and the sequential section below the tabs. Each takes the page's one design."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures, llm
from core.llm.sequential import benchmark_item_model
from pages._fields import field_input
from pages._scaffold import Metric, cached, chart, fmt_pct, fmt_ratio, guard, metrics_row, simulation, style
from pages._sequential_section import sequential_section

CURVE_KS = (1, 2, 5, 10)


@cached
def power_curves(ns, ks, design: llm.BenchmarkDesign):
    return design.power_curve(list(ns), samples_list=tuple(ks))


@cached
def budget(design: llm.BenchmarkDesign):
    return design.variance_budget(max_samples=20)


@cached
def judge_curves(ns, design: llm.BenchmarkDesign):
    return design.judge_curve(list(ns))


@cached
def assurance_at(ns, design: llm.BenchmarkDesign, mean, sd):
    rows = []
    for size in ns:
        res = design.assurance(size, mean, sd)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n_questions", "assurance", "power", "ceiling"])


@cached
def noworse_power(design: llm.NoWorseDesign) -> float:
    return design.power().power


@cached
def noworse_need(design: llm.NoWorseDesign, target):
    """Questions for the target power; None where no benchmark can show "no worse" (Δ ≤ −margin)."""
    return design.sample_size(target_power=target) if design.reachable else None


@cached
def noworse_curve(design: llm.NoWorseDesign) -> pd.DataFrame:
    return design.curves()


def sizes_grid(design: llm.BenchmarkDesign, count: int = 40) -> tuple[int, ...]:
    """The questions on the x axis: log-spaced around n, every size at least 2 clusters."""
    n, m = design.n, design.cluster_size
    lo, hi = max(20, n // 30, m + 1), min(10_000_000, max(n * 30, 2000))
    return tuple(sorted(set(np.unique(np.geomspace(lo, hi, count).astype(int)).tolist()) | {n}))


def tab_power(design, result, target, pins, plotted, plan_figures):
    k = design.samples
    ks = tuple(sorted(set(CURVE_KS) | {k}))
    curves = power_curves(sizes_grid(design), ks, design)
    curves = curves.assign(series=[f"K = {s}" + (" (current)" if s == k else "") for s in curves["samples"]])
    plotted["power_vs_questions"] = curves
    power_args = dict(x="n_questions", y="power", color="series", current=(design.n, result.power), target=target,
                      title="Power vs number of questions, by answers per question", x_title="Questions n",
                      y_title="Power", y_range=(0, 1.02), pins=pins)
    chart(figures.curve_figure(curves, **power_args, style=style()), "power_chart")
    plan_figures.append(("Power vs number of questions", figures.curve_figure(curves, **power_args)))
    st.caption("More questions help until the curve for your K reaches the target; more samples per question only "
               "shrink the sampling-noise part of the variance (see the variance budget).")


def tab_assurance(design, prior, assured, target, plotted):
    if not prior.on:
        st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                "large the gain is, the assurance says how likely the comparison is to succeed, and its ceiling "
                "why more questions cannot make up for a vague prior.")
        return
    with guard("Cannot average over this prior"):
        curve_a = assurance_at(sizes_grid(design, 16), design, prior.mean / 100, prior.sd / 100)
    plotted["assurance"] = curve_a
    tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                      curve_a.assign(series=f"power at the prior mean ({prior.mean:+.1f} points)",
                                     value=curve_a["power"])], ignore_index=True)
    chart(figures.curve_figure(tidy, x="n_questions", y="value", color="series",
                               current=(design.n, float(assured["assurance"])), target=target,
                               lines=[figures.Line(y=float(assured["ceiling"]), text=f"ceiling {assured['ceiling']:.0%}",
                                                   color=figures.PALETTE[1])],
                               title="Assurance and power vs number of questions", x_title="Questions n",
                               y_title="Probability", y_range=(0, 1.02), style=style()), "assurance_chart")


def tab_budget(design, plotted):
    k = design.samples
    parts = budget(design)
    plotted["variance_budget"] = parts
    ks_b = [str(v) for v in sorted(parts["samples"].unique())]
    series = {c: parts[parts["component"] == c].sort_values("samples")["variance"].to_numpy()
              for c in llm.BUDGET_COMPONENTS}
    here = parts[parts["samples"] == k]["variance"].sum() if k in set(parts["samples"]) else None
    chart(figures.bar_figure(ks_b, series, barmode="stack", colors=(figures.PALETTE[0], figures.PALETTE[4],
                                                                   figures.PALETTE[1]),
                             current=(str(k), float(here)) if here is not None else None,
                             title="Where the variance of the mean difference comes from (n × Var, by K)",
                             x_title="Samples per question K", y_title="Variance × n", hover_format=".4f",
                             style=style()), "budget_chart")
    row = parts[parts["samples"] == min(k, int(parts["samples"].max()))]
    noise = float(row[row["component"] == "sampling noise"]["share"].iloc[0])
    fixed = float(row[row["component"] != "sampling noise"]["variance"].sum())
    st.markdown(f"At K = {k}, sampling noise is **{100 * noise:.0f}%** of the variance. Question difficulty and "
                f"clustering ({fixed:.4f} × 1/n) do not shrink with K: once they dominate, more samples per question "
                "stop helping and only more questions (or more clusters) do.")


def tab_cost(design, best, target, currency, plotted):
    if best is None:
        st.info("Set a non-zero gain and a cost per question or per answer to find the cheapest design.")
        return
    k = design.samples
    curve = best.curve.dropna(subset=["cost"])
    plotted["cost_vs_samples"] = best.curve
    if curve.empty:
        st.warning("No K up to 50 reaches the target power within 10,000,000 questions.")
        return
    here = curve[curve["samples"] == k]
    chart(figures.curve_figure(
        curve.assign(series=f"cheapest n at {target:.0%} power ({currency})"), x="samples", y="cost", color="series",
        current=(k, float(here["cost"].iloc[0])) if len(here) else None, target=None, log_x=True,
        mode="lines+markers", hover_format=",.2f", x_hover_format="d",
        lines=[figures.Line(x=best.samples, text=f"cheapest: K = {best.samples}, n = {best.n_questions:,}",
                            color=figures.PALETTE[2])],
        title=f"Cost of reaching {target:.0%} power vs answers per question",
        x_title="Samples per question K", y_title=f"Cost ({currency})" if currency else "Cost",
        style=style()), "cost_chart")
    st.caption(f"Cheapest: {best.n_questions:,} questions × K = {best.samples} answers per model, cost "
               f"{best.cost:,.2f}. The diamond is your current K at the fewest questions reaching the target.")


def tab_judge(design, result, target, plotted):
    # without a judge of its own, the page shows the declared one (90% / 90%)
    judged = design if design.judged else design.with_(judged=True)
    jc = judge_curves(sizes_grid(design), judged)
    jc = jc.assign(series=jc["grading"].map({"exact": "exact grading",
                                             "judge": f"judge (Se = {judged.se:.0%}, Sp = {judged.sp:.0%})"}))
    plotted["judge"] = jc
    chart(figures.curve_figure(jc, x="n_questions", y="power", color="series", current=(design.n, result.power),
                               target=target, title="Power with and without judge error", x_title="Questions n",
                               y_title="Power", y_range=(0, 1.02), style=style()), "judge_chart")
    if not design.judged:
        st.caption("Showing a judge with 90% sensitivity and specificity; switch on “Graded by an LLM judge” to use "
                   "your own.")


def noworse_design(design: llm.BenchmarkDesign) -> llm.NoWorseDesign:
    """The tab's inputs (margin, one-sided α) over the page's benchmark: one design."""
    ni, (c1, c2) = llm.NoWorseDesign, st.columns(2)
    return ni(margin=field_input(ni, "margin", c1, widget="slider", label=ni.field("margin").label),
              alpha=field_input(ni, "alpha", c2, widget="select_slider", options=llm.NI_ALPHAS,
                                label=ni.field("alpha").label),
              benchmark=design)


def tab_noworse(design, target, plotted):
    n, k, gain = design.n, design.samples, round(100 * design.delta, 12)
    ni = noworse_design(design)
    margin_pts = ni.field("margin").to_widget(ni.margin)
    with guard("Cannot compute this design", stop=False):
        ni_power, ni_need, ni_curve = noworse_power(ni), noworse_need(ni, target), noworse_curve(ni)
        plotted["no_worse_than"] = ni_curve
        metrics_row(
            Metric("Power to show “no worse”", fmt_pct(ni_power),
                   help="P(the one-sided test rejects 'B is worse than A by the margin or more') at the expected "
                   "gain, with the variance model of this page (clusters, K answers, judge)."),
            Metric(f"Questions for {target:.0%} power (no worse)", "—" if ni_need is None else
                   ("not reachable" if ni_need < 0 else f"{ni_need:,}"),
                   help="Fewest questions (whole clusters) reaching the target power."),
        )
        if ni_need is None:
            st.warning("The expected gain is below −margin: no benchmark can show that B is no worse.")
        chart(figures.curve_figure(
            ni_curve.assign(series=f"n = {n:,}, K = {k}"), x="gain_pp", y="power", color="series",
            current=(gain, ni_power), target=target, log_x=False, x_hover_format=".1f",
            title="Power to show “no worse than” vs the true gain", x_title="True gain of B over A (points)",
            y_title="Power", y_range=(0, 1.02),
            lines=[figures.Line(x=-margin_pts, text=f"−margin ({-margin_pts:g} pts)", color=figures.PALETTE[3])],
            style=style()), "noworse_chart")
    st.markdown("**Why the hypothesis is reversed.** Failing to find a significant difference does not show that "
                "the new model is as good — the benchmark may simply be too small. To claim “no worse than”, the "
                "null hypothesis is that B is worse by the margin or more; only enough questions can reject it. "
                "Left of the margin line the curve is the rate of false claims (at most α).")


def simulation_check(design: llm.BenchmarkDesign, result, sim) -> None:
    """The closed form against a simulation of the whole model, on demand."""
    if not sim.run:
        return
    st.subheader("Simulation check")
    key = ("llm", design.n, design, sim.n_sims, sim.seed)
    mc = None
    with guard("Cannot simulate this design", stop=False):  # the rest of the page does not need it
        mc = simulation(key, lambda progress: design.power(method="simulate", n_sims=sim.n_sims, seed=sim.seed,
                                                           progress=progress),
                        text=f"Simulating {sim.n_sims:,} benchmark runs…")
    if mc is None:
        return
    metrics_row(
        Metric("Simulated power" if design.delta else "Simulated false-positive rate", fmt_pct(mc.power),
               se=f"{100 * mc.mc_se:.1f}%", help=f"{mc.n_sims:,} simulated benchmark runs."),
        Metric("Simulated Type-M", fmt_ratio(mc.type_m),
               se=f"{mc.type_m_se:.2f}×" if mc.type_m_se and math.isfinite(mc.type_m_se) else None),
        Metric("Simulated Type-S", fmt_pct(mc.type_s, 2),
               se=f"{100 * mc.type_s_se:.2f}%" if mc.type_s_se and math.isfinite(mc.type_s_se) else None),
    )
    if abs(mc.power - result.power) <= 3 * max(mc.mc_se, 1e-12):
        st.caption("The closed form agrees with the simulation within 3 Monte Carlo standard errors.")
    else:
        st.warning("The closed form and the simulation differ by more than 3 Monte Carlo standard errors; with few "
                   "questions or clusters the closed form's normal theory is rough — trust the simulation.")


def sequentially(design: llm.BenchmarkDesign, target: float, currency: str) -> dict:
    """Run it sequentially: core.sequential's engine on this page's variance model."""
    m, icc, gain = design.cluster_size, design.kwargs()["icc"], round(100 * design.delta, 12)
    with guard("Cannot run this design sequentially", stop=False):
        item = benchmark_item_model(**design.kwargs("alpha", "accuracy_b"),
                                       accuracy_b=min(max(design.accuracy_a + design.delta, 0.0), 1.0))
        cluster_note = (f"(clusters of {m} questions with ICC {icc:.2f} enter as the design effect "
                        f"{1 + (m - 1) * icc:.2f}: questions are assumed to arrive cluster by cluster, so every look "
                        "falls between clusters)." if m > 1 else "(independent questions).")
        return sequential_section(
            n=design.n, model=item, alpha=design.alpha, target=target, unit="question", units="questions",
            x_title="True gain (points)", to_x=lambda d: 100 * d / item.scale, x_max=max(2 * abs(gain), 5.0),
            current_x=abs(gain), cost_per_item=design.cost_question + 2 * design.samples * design.cost_sample,
            currency=currency, assumption="from the variance model above " + cluster_note, key="seq")
    return {}

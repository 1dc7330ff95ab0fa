"""The Machine-translation page's sensitivity and Type-M/Type-S tabs and the on-demand randomization test.

Layout only: every number comes from :class:`core.mt.BleuDesign` through the page's cached calls.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from core import figures, mt
from pages._scaffold import Metric, cached, chart, chart_row, fmt_pct, fmt_ratio, guard, metrics_row, simulation, style

Design = mt.BleuDesign


@cached
def curves(design: Design, ns, deltas, p0s=None, b0s=None):
    """Power, Type-S and Type-M over ``ns`` (Figures 4 and 17): :meth:`core.mt.BleuDesign.curves`."""
    return design.curves(list(ns), list(deltas), p0s=None if p0s is None else list(p0s),
                         b0s=None if b0s is None else list(b0s))


def sensitivity_tab(design: Design, s, h: dict, ns: tuple, plotted: dict) -> None:
    n, p0, b0, target, result = design.n, design.p0, design.b0, s.target, h["result"]
    base_delta = abs(design.delta_bleu) if design.delta_bleu else 1.0
    sens_p0 = curves(design, ns, (base_delta,), p0s=tuple(sorted({0.0, 0.13, 0.3, 0.5, 0.7, round(p0, 4)})))
    sens_b0 = curves(design, ns, (base_delta,), b0s=tuple(sorted({10.0, 20.0, 25.8, 35.0, 50.0, round(b0, 4)})))
    sens_p0 = sens_p0.assign(series=[f"P0 = {v:g}" for v in sens_p0["p0"]])
    sens_b0 = sens_b0.assign(series=[f"b0 = {v:g}" for v in sens_b0["b0"]])
    plotted.update(sensitivity_p0=sens_p0, sensitivity_b0=sens_b0)
    (c1, c2), (s1, s2) = chart_row(2)
    with c1:
        chart(figures.curve_figure(sens_p0, x="n", y="power", color="series", current=(n, result.power),
                                   target=target, title=f"Varying P0 (Δ_B = {base_delta:g}, b0 = {b0:g})",
                                   x_title="n", y_title="Power", y_range=(0, 1.02), style=style(s1)), "p0_chart")
    with c2:
        chart(figures.curve_figure(sens_b0, x="n", y="power", color="series", current=(n, result.power),
                                   target=target, title=f"Varying b0 (Δ_B = {base_delta:g}, P0 = {p0:g})",
                                   x_title="n", y_title="Power", y_range=(0, 1.02), style=style(s2)), "b0_chart")
    st.caption("More identical outputs (higher P0) make a difference easier to detect; noisier sentence-level "
               "effects (higher b0) make it harder — cf. Card et al. Figure 17.")


def exaggeration_tab(design: Design, h: dict, fig4: pd.DataFrame, needed, target: float) -> None:
    n, result = design.n, h["result"]
    (c1, c2), (s1, s2) = chart_row(2)
    text = f"{target:.0%} power<br>n = {needed:,}" if needed else ""
    with c1:
        chart(figures.type_m_figure(fig4, x="n", color="series", current=(n, result.type_m), needed=needed,
                                    needed_text=text, title="Type-M error (exaggeration ratio)", x_title="n",
                                    pins=h["pinned_type_m"], style=style(s1)), "type_m_chart")
    with c2:
        chart(figures.curve_figure(fig4, x="n", y="type_s", color="series", current=(n, result.type_s),
                                   target=None, title="Type-S error", x_title="n",
                                   y_title="P(wrong sign | significant)", hover_format=".4f",
                                   lines=[figures.Line(x=needed, text=text)] if needed else [], style=style(s2)),
              "type_s_chart")


def randomization(design: Design, s, result) -> None:
    """The paper's randomization test for the current design, on demand."""
    sim = s.sim
    st.subheader("Randomization test (simulation)")
    if design.n_trials + 1 < 1 / design.alpha:
        st.error(f"**Too few trials:** with {design.n_trials} randomization trials the smallest p-value is "
                 f"{1 / (design.n_trials + 1):.4f}, above α = {design.alpha}. Use more trials or a larger α.")
        return
    with guard("Cannot simulate this design"):
        mc = simulation(("mt.randomization", design, sim.n_sims, sim.seed), lambda progress: design.power(
            method="randomization", n_sims=sim.n_sims, seed=sim.seed, progress=progress),
            text="Running the randomization test…")
    metrics_row(
        Metric("Simulated power" if design.delta_bleu != 0 else "Simulated false-positive rate", fmt_pct(mc.power),
               se=f"{100 * mc.mc_se:.1f}%",
               help=f"{mc.n_sims:,} simulated test sets, each with a {design.n_trials:,}-trial randomization test."),
        Metric("Simulated Type-M", fmt_ratio(mc.type_m),
               se=f"{mc.type_m_se:.2f}×" if mc.type_m_se and math.isfinite(mc.type_m_se) else None),
        Metric("Simulated Type-S", fmt_pct(mc.type_s, 2),
               se=f"{100 * mc.type_s_se:.2f}%" if mc.type_s_se and math.isfinite(mc.type_s_se) else None),
    )
    if abs(mc.power - result.power) <= 3 * max(mc.mc_se, 1e-12):
        st.caption("The fast engine agrees with the randomization test within 3 Monte Carlo standard errors.")
    else:
        st.warning(f"The fast engine ({fmt_pct(result.power)}) and the randomization test differ by more than 3 "
                   "Monte Carlo standard errors: trust the randomization test for this design.")

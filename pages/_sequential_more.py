"""The DA page's shared wording and its on-demand simulation (layout only; the numbers come from
:class:`core.sequential.CampaignDesign`)."""

from __future__ import annotations

import math

import streamlit as st

from core import sequential as sq
from core.sequential import plan as sequential_plan
from pages._scaffold import Metric, fmt_pct, guard, metrics_row, simulation

__all__ = ["DESIGN_LABELS", "BOUNDARY_LABELS", "design_text", "simulated"]

Design = sq.CampaignDesign
DESIGN_LABELS = sequential_plan.DESIGN_LABELS
BOUNDARY_LABELS = {"pocock": "Pocock", "obrien_fleming": "O'Brien–Fleming",
                   "lan_demets": "Lan–DeMets (O'Brien–Fleming type)",
                   "lan_demets_pocock": "Lan–DeMets (Pocock type)"}


def design_text(campaign: Design) -> str:
    """The design a message describes, in words: procedure, analyses, boundary, futility threshold and budget.

    Every message about the current design's numbers names it, so a message never outlives the design it
    describes (a procedure change changes the power; the message says which procedure it is about).
    """
    label, budget = DESIGN_LABELS[campaign.procedure], campaign.budget
    if campaign.procedure == "fixed":
        return f"the fixed design (one test after {budget:,} judgments)"
    if campaign.procedure == "naive":
        return f"naive peeking ({campaign.looks} uncorrected analyses, {budget:,} judgments planned)"
    looks = f"{campaign.looks} analyses, {BOUNDARY_LABELS[campaign.boundary]} boundary"
    if campaign.procedure == "interim_futility":
        looks += f", futility stop at p > {campaign.futility_p:g}"
    return f"the {label} design ({looks}, {budget:,} judgments planned)"


def simulated(campaign: Design, result, sim):
    """Simulated campaigns beside the analytic numbers, on demand."""
    described = design_text(campaign)
    st.subheader("Simulated campaigns")
    st.caption(f"{described[0].upper()}{described[1:]}, true difference {campaign.delta:g} DA points, "
               f"{sim.n_sims:,} campaigns.")

    def run(progress):
        out = campaign.power(method="simulate", n_sims=sim.n_sims, seed=sim.seed)
        progress(1.0)
        return out

    with guard("Cannot simulate this campaign"):
        mc = simulation(("sequential", campaign, sim.n_sims, sim.seed), run,
                        text=f"Simulating {sim.n_sims:,} campaigns…")
    metrics_row(
        Metric("Simulated power" if campaign.delta else "Simulated false-positive rate", fmt_pct(mc.power),
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

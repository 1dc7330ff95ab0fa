"""The DA campaign page's "Ratings per segment" block: how many ratings each segment should get (UI only).

``pages/_campaign_data.py`` calls :func:`raters_block` once a campaign file is read. The numbers come from
:func:`core.humaneval.raters_per_segment` (Cochran 1977, §10.6: the optimum of a two-stage sample).
"""

from __future__ import annotations

import math

import streamlit as st

from core import humaneval as he
from core.design import Field
from pages._links import asked_late, narrowed, report_late
from pages._scaffold import cached, guard

#: The segment's cost, a plain widget declared here so that a link's note names its range.
COST_SEGMENT = Field("cost_segment", 1.0, "float", 0.0, 100.0, step=0.5, unit="judgments", key="seg_cost",
                     label="Cost of a segment")


@cached
def raters(segment_var, residual_var, budget, cost_segment, delta):
    return he.raters_per_segment(segment_var, residual_var, budget=budget, cost_segment=cost_segment,
                                 cost_judgment=1.0, max_ratings=10, delta=delta)


def raters_block(comps, every, fit, protocol: str, budget: int, plotted: dict) -> None:
    """Best ratings per segment for the fitted pair: the pair's variance components (else all systems', else the
    protocol's published segment share of the SD²), the planned budget with segments priced in judgments."""
    st.markdown("**Ratings per segment**")
    c1, c2 = st.columns([1, 2])
    # made once a campaign file is read, after the link was checked: what it cannot take is said under it
    narrowed(COST_SEGMENT)
    asked = asked_late(COST_SEGMENT.key)
    cost_segment = c1.number_input("Cost of a segment, in judgments", min_value=COST_SEGMENT.low,
                                   max_value=COST_SEGMENT.high, value=COST_SEGMENT.default, step=COST_SEGMENT.step,
                                   key=COST_SEGMENT.key, bind="query-params",
                                   help="What a segment costs whatever its ratings (reading the source and "
                                   "document), as a multiple of one judgment's cost.")
    report_late(COST_SEGMENT.key, asked, COST_SEGMENT, c1)
    segment_var, residual_var, origin = comps.segment, comps.rating_noise, f"fitted ({comps.method.upper()})"
    if math.isnan(segment_var) or math.isnan(residual_var):
        seg_comps = every.components
        segment_var, residual_var = seg_comps.segment, seg_comps.rating_noise
        origin = f"fitted on all systems ({seg_comps.method.upper()})"
    if math.isnan(segment_var) or math.isnan(residual_var):
        share = he.PROTOCOL_DEFAULTS[protocol].segment_share or he.PROTOCOL_DEFAULTS["da"].segment_share
        segment_var, residual_var = share * fit.sd**2, (1 - share) * fit.sd**2
        origin = f"no repeated ratings: the protocol's published segment share ({share:.1%}) of the SD²"
    with guard("Cannot plan ratings per segment", stop=False):
        plan = raters(float(segment_var), float(residual_var), float(budget) * (1 + cost_segment),
                      float(cost_segment), abs(fit.delta))
        plotted["raters_per_segment"] = plan.table
        c1.metric("Best ratings per segment", f"{plan.best}",
                  help="r* = √(c_seg σ²_res / (c_judg σ²_seg)) (Cochran 1977, §10.6), then whole segments.")
        c1.caption(f"r* = {plan.r_star:.2f}; variances {origin}. Budget: the planned judgments with one rating per "
                   "segment, segments included.")
        c2.dataframe(plan.table, hide_index=True, width="stretch", column_config={
            "se": st.column_config.NumberColumn("SE of A − B", format="%.3g"),
            "power": st.column_config.NumberColumn("Power (z test, fixed)", format="percent"),
            "relative_variance": st.column_config.NumberColumn("Variance vs best", format="%.2f")})

"""The Accuracy page's curve tabs: power vs n, assurance vs n, Type-M / Type-S, and the significance filter.

Layout only: each tab draws what :class:`core.accuracy.AccuracyPageDesign` computes through one cached call per
output (the design is frozen and compared by value, so it is the cache key).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core.accuracy import AccuracyPageDesign
from core.accuracy.design import N_MAX, N_MIN
from pages._scaffold import cached, chart, chart_row, fmt_pct, guard, style

#: The "Explain this page" text (``{target}``: the target power).
EXPLANATION = """
**What is being planned?** You expect a new model to beat a baseline by **Δ** accuracy points. You will test that on
**n** items. The question is whether that experiment is able to tell a real improvement from luck.

**Why agreement matters (paired tests).** On one test set, McNemar's test only looks at items where the two models
*disagree*. If two strong models agree on 95% of items, only 5% of the test set carries any information; the higher
the agreement, the less noise, and the easier a given Δ is to detect (Figure 3). If you can, measure agreement on the
dev set; otherwise the page can predict it from past leaderboards (appendix E.2.1) or bracket it (Lachenbruch 1992,
appendix E.3).

**Power** is the share of such experiments that would end in a significant result in the right direction. Below
{target:.0%} the experiment is under-powered: a real gain is likely to be missed.

**Type-M and Type-S.** When power is low, the only experiments that reach significance are those where luck
*inflated* the difference. So a significant result from a small test set systematically overstates the gain (Type-M,
exaggeration ratio), and can even have the wrong sign (Type-S). The view **Why significant results exaggerate** shows this directly: the orange
(significant) part of the distribution sits far from the true difference.

**MDE** is the smallest true difference this design detects with the target power. If the gain you can honestly
expect is below it, use a larger test set or a different benchmark (the paper suggests retiring WNLI, MRPC and SST-2
for SOTA claims).

**Why two sample sizes?** Exact tests on counts make power zigzag as n grows: one more item can move the critical
count and lower power a little. The page gives the first n that reaches the target and, when they differ, the n from
which power never drops below it again.

**Engines.** Numbers are computed exactly, by summing over the binomial distribution of discordant items and of their
split — no simulation noise. Switch on *Check by simulation* to run the paper's simulation (Figure 2) as well and see
its estimates, with their Monte Carlo standard errors, next to the exact ones.
"""
X_TITLES = {"paired": "Test-set size n", "unpaired": "Items per model n", "preference": "Number of raters"}


# ---------------------------------------------------------------------------
# cached core calls (the design is the key; see AccuracyPageDesign.for_scenario)
# ---------------------------------------------------------------------------
@cached
def curves(design: AccuracyPageDesign) -> pd.DataFrame:
    return design.curves()


@cached
def distribution(design: AccuracyPageDesign) -> pd.DataFrame:
    return design.distribution()


@cached
def assurance_point(design: AccuracyPageDesign, n, mean, sd):
    return design.assurance(n, mean, sd)


@cached
def assurance_curve(design: AccuracyPageDesign, ns, mean, sd) -> pd.DataFrame:
    rows = []
    for size in ns:
        res = assurance_point(design, size, mean, sd)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n", "assurance", "power", "ceiling"])


@cached
def assurance_n(design: AccuracyPageDesign, mean, sd, target, ceiling, guess):
    from core.assurance import assurance_sample_size

    return assurance_sample_size(lambda size: assurance_point(design, size, mean, sd).assurance, target,
                                 n_min=N_MIN, n_max=N_MAX, ceiling=ceiling, guess=guess)


def labelled_curves(design: AccuracyPageDesign) -> tuple[pd.DataFrame, str | None]:
    """The design's family of curves with the legend's series (and the dash of a manual P_a)."""
    frame = curves(design)
    if design.scenario == "paired":
        frame = frame.assign(series=[f"Δ = {100 * d:.2g} pp" for d in frame["delta"]],
                             agreement_label=[f"P_a = {a:.1%}" for a in frame["agreement"]])
        return frame, "agreement_label" if design.source == "manual" else None
    if design.scenario == "unpaired":
        return frame.assign(series=[f"Δ = {100 * d:.2g} pp" for d in frame["delta"]]), None
    return frame.assign(series=[f"gap = {100 * (a - b):.2g} pp" for a, b in zip(frame["p_a"], frame["p_b"])]), None


# ---------------------------------------------------------------------------
# tabs
# ---------------------------------------------------------------------------
def tab_power(design, frame, dash, result, sizes, pinned_power) -> None:
    target = design.target_power
    chart(figures.curve_figure(
        frame, x="n", y="power", color="series", dash=dash, current=(design.n, result.power), target=target,
        title="Power vs sample size (cf. Figure 3)", x_title=X_TITLES[design.scenario], y_title="Power",
        y_range=(0, 1.02), pins=pinned_power, style=style()), "power_chart")
    if sizes is not None and sizes.differ:
        st.caption(f"Exact tests make power zigzag in n: the current design first reaches {target:.0%} at "
                   f"n = {sizes.first:,} and stays there from n = {sizes.conservative:,} (use the latter in a "
                   "preregistration if you cannot choose n exactly).")


def tab_assurance(design, prior, assured, plotted) -> None:
    if not prior.on:
        st.info("Switch on **Average power over a prior on the effect** in the sidebar to see how uncertainty "
                "about the effect changes the picture: the assurance can never pass the prior probability that "
                "the effect points the hoped-for way, however large the test set.")
        return
    n = design.n
    with guard("Cannot average over this prior"):
        ns_a = tuple(sorted(set(np.unique(np.geomspace(max(N_MIN, n // 30), min(N_MAX, max(n * 30, 200)), 14)
                                          .astype(int)).tolist()) | {n}))
        curve_a = assurance_curve(design.for_scenario(), ns_a, prior.mean / 100, prior.sd / 100)
    plotted["assurance"] = curve_a
    tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                      curve_a.assign(series=f"power at the prior mean ({prior.mean:+.1f} pp)",
                                     value=curve_a["power"])], ignore_index=True)
    chart(figures.curve_figure(
        tidy, x="n", y="value", color="series", current=(n, assured.assurance), target=design.target_power,
        lines=[figures.Line(y=assured.ceiling, text=f"ceiling {assured.ceiling:.0%}: P(effect > 0)"
                            if assured.direction > 0 else f"ceiling {assured.ceiling:.0%}: P(effect < 0)",
                            color=figures.PALETTE[1])],
        title=f"Assurance and power vs n (prior N({prior.mean:+.1f}, {prior.sd:.1f}²) pp)",
        x_title=X_TITLES[design.scenario], y_title="Probability", y_range=(0, 1.02), style=style()),
        "assurance_chart")
    st.caption("The assurance levels off at the ceiling: with a vague prior, part of your belief is that the "
               "effect is zero or negative, and no test set can make that come out significant the hoped-for "
               "way (O'Hagan, Stevens & Campbell 2005). Prior source: " + prior.source + ".")


def tab_exaggeration(design, frame, dash, result, sizes, pinned_type_m) -> None:
    target, n, x_title = design.target_power, design.n, X_TITLES[design.scenario]
    needed_line = sizes.first if sizes is not None and sizes.first > 0 else None
    (c1, c2), (s1, s2) = chart_row(2)
    text = f"{target:.0%} power<br>n = {needed_line:,}" if needed_line else ""
    with c1:
        chart(figures.type_m_figure(frame, x="n", color="series", dash=dash, current=(n, result.type_m),
                                    needed=needed_line, needed_text=text, title="Type-M error (cf. Figure 7)",
                                    x_title=x_title, pins=pinned_type_m, style=style(s1)), "type_m_chart")
    with c2:
        lines = [figures.Line(x=needed_line, text=text)] if needed_line else []
        chart(figures.curve_figure(frame, x="n", y="type_s", color="series", dash=dash,
                                   current=(n, result.type_s), target=None, title="Type-S error (cf. Figure 8)",
                                   x_title=x_title, y_title="P(wrong sign | significant)", hover_format=".4f",
                                   lines=lines, style=style(s2)), "type_s_chart")
    st.caption(f"The dashed vertical line marks the size at which the current design reaches {target:.0%} power. "
               "Left of it, significant results overstate (Type-M) or even reverse (Type-S) the true difference.")


def tab_filter(design, result, plotted) -> None:
    scenario, n, effect = design.scenario, design.n, design.effect
    with guard():
        dist = distribution(design.for_scenario())
    plotted["distribution"] = dist
    noun = "rater" if scenario == "preference" else "item"
    chart(figures.difference_distribution_figure(
        dist, true_effect=effect, mean_significant=result.mean_significant,
        title=f"What {n:,}-{noun} experiments would observe (cf. Figure 1)",
        x_title="Observed " + ("preference gap (new − old)" if scenario == "preference" else "accuracy difference"),
        style=style()), "distribution_chart")
    if math.isfinite(result.mean_significant):
        st.markdown(
            f"Of all experiments like yours, **{fmt_pct(result.rejection_rate)}** come out significant (orange). "
            f"Their average observed difference is **{100 * result.mean_significant:+.2f} pp** against a true "
            f"**{100 * effect:+.2f} pp** — the filter 'only significant results get reported' inflates the effect.")
    if scenario == "unpaired":
        st.caption("Unpaired: normal approximation of the observed difference (the z test's own model).")

"""The Accuracy page's reference tabs: Table 2's benchmarks, the SQuAD 2.0 leaderboard, "no worse than" and small
test sets.

Layout only: each tab reads its own settings into :class:`core.accuracy.AccuracyPageDesign` (their widgets are
drawn only when the tab is open) and draws what the design computes through one cached call per output.
"""

from __future__ import annotations

from core.plan.text import fmt_level
import pandas as pd
import streamlit as st

from core import accuracy as acc
from core import figures
from core.accuracy import AccuracyPageDesign
from core.accuracy.design import CLAIM_LABELS, NI_TEST_LABELS, SQUAD_SIZE_LABELS
from core.datasets import SQUAD_DEV_SIZE, SQUAD_TEST_SIZE, squad_models
from core.accuracy import plan as accuracy_plan
from pages._fields import field_input
from pages._scaffold import (
    Metric,
    cached,
    chart,
    current_link,
    fmt_pct,
    fmt_points,
    guard,
    metrics_row,
    plan_actions,
    sample_size_metric,
    style,
)

D = AccuracyPageDesign
INTERVAL_LABELS = {"wilson": "Wilson", "wald": "Wald / CLT", "clopper_pearson": "Clopper–Pearson",
                   "jeffreys": "Jeffreys", "beta": "Beta (uniform prior)"}
#: What each tab's outputs read (the cache key keeps only these; see AccuracyPageDesign.only).
_NI = ("scenario", "n", "delta", "baseline", "source", "agreement", "target_power", "claim", "margin", "ni_test",
       "ni_alpha")
_INTERVALS = ("n", "confidence", "expected_accuracy", "half_width")


def design_input(name, box, **options):
    """The widget of a declared field of :class:`AccuracyPageDesign`, with the page's own label (unless given) and
    help text (the field's help, as the page has always shown it)."""
    f = D.field(name)
    return field_input(D, name, box, label=options.pop("label", f.label), help=f.help, **options)


# ---------------------------------------------------------------------------
# cached core calls
# ---------------------------------------------------------------------------
@cached
def benchmarks(design: AccuracyPageDesign) -> pd.DataFrame:
    return design.benchmarks()


@cached
def squad_board(design: AccuracyPageDesign) -> pd.DataFrame:
    return design.squad_board()


@cached
def squad_pair_power(design: AccuracyPageDesign):
    return design.squad_pair_power()


@cached
def noworse_power(design: AccuracyPageDesign, delta=None):
    return design.noninferiority_power(delta)


@cached
def noworse_sizes(design: AccuracyPageDesign):
    return design.noninferiority_sample_sizes()


@cached
def noworse_curve(design: AccuracyPageDesign) -> pd.DataFrame:
    return design.noninferiority_curve()


@cached
def interval_curves(design: AccuracyPageDesign) -> pd.DataFrame:
    return design.coverage_curves()


@cached
def interval_sizes(design: AccuracyPageDesign) -> dict:
    return design.interval_sizes()


# ---------------------------------------------------------------------------
# tabs
# ---------------------------------------------------------------------------
def tab_benchmarks(design, plotted) -> None:
    target = design.target_power
    table = benchmarks(design.only("alpha", "target_power"))
    plotted["benchmarks"] = table
    effect = design.effect
    chart(figures.mde_table_figure(table, current_delta=abs(effect) if design.scenario != "preference" and effect
                                   else None, target=target, style=style()), "mde_table_chart")
    show = table[["task", "n", "sota", "mde_regression", "mde_lachenbruch_mid", "mde_lachenbruch_low",
                  "mde_lachenbruch_high", "mde_unpaired", "mean_reported_delta", "paper_mde"]].copy()
    for col in show.columns[2:]:
        show[col] = show[col] * 100
    pct = st.column_config.NumberColumn
    st.dataframe(show, hide_index=True, width="stretch", column_config={
        "task": "Task", "n": pct("Test size", format="%d"), "sota": pct("SOTA (%)", format="%.1f"),
        "mde_regression": pct("MDE, regression prior (pp)", format="%.2f"),
        "mde_lachenbruch_mid": pct("MDE, Lachenbruch mid", format="%.2f"),
        "mde_lachenbruch_low": pct("… generous bound", format="%.2f"),
        "mde_lachenbruch_high": pct("… conservative bound", format="%.2f"),
        "mde_unpaired": pct("MDE, unpaired test", format="%.2f"),
        "mean_reported_delta": pct("Mean reported gain (pp)", format="%.2f"),
        "paper_mde": pct("Paper's MDE (pp)", format="%.2f")})
    st.caption("MDE of a typical next model against each task's SOTA (6 May 2020), McNemar normal approximation "
               "with the overlap regression of its benchmark — Card et al. Table 2 (paper's values, which used "
               "the exact unconditional test, in the last column) and Table 9. Where the mean reported gain is "
               "below the MDE (WNLI, MRPC, SST-2), typical claims of improvement are under-powered.")


def tab_squad(design, plotted) -> None:
    target = design.target_power
    models = squad_models()
    st.markdown("**Validation-data approach (§3.2, appendix D).** Pick a baseline and a new SQuAD 2.0 submission: "
                "their dev-set accuracy difference and agreement give the power of a comparison on the test set.")
    labels = {i: f"#{i} · {row.date:%Y-%m-%d} · {row.description[:60] or '(unnamed)'} · dev {row.dev_em:.1f}"
              for i, row in models.iterrows()}
    ids = list(models.index)
    c1, c2 = st.columns(2)
    picked = {}
    for name, box in (("squad_baseline", c1), ("squad_new", c2)):
        f = D.field(name)
        picked[name] = f.check(box.selectbox(f.label, ids, index=ids.index(f.default), format_func=labels.get,
                                             key=f.key, bind="query-params", help=f.help))
    if picked["squad_baseline"] == picked["squad_new"]:
        st.warning("Pick two different submissions.")
    else:
        pair, pair_power = squad_pair_power(design.only("alpha", **picked))
        if pair_power is None:
            st.info("These two submissions have the same dev accuracy: there is no expected difference to detect.")
        else:
            metrics_row(
                Metric("Dev accuracy difference", fmt_points(pair.delta_dev, sign=True),
                       help=f"New minus baseline exact match on the {SQUAD_DEV_SIZE:,} dev questions."),
                Metric("Dev agreement", f"{pair.agreement_dev:.2%}",
                       help="Share of dev questions both answer right or both wrong."),
                Metric(f"Power on the test set (n = {SQUAD_TEST_SIZE:,})", fmt_pct(pair_power.power),
                       help="Exact McNemar test, dev Δ and P_a assumed to carry over to test (§3.2)."),
                Metric("Observed test difference", fmt_points(pair.delta_test, sign=True),
                       help="What the leaderboard reported on the hidden test set."),
            )
    st.markdown("**Which leaderboard submissions were well powered?** (Figure 10)")
    size = design_input("squad_size", st, horizontal=True, format_func=SQUAD_SIZE_LABELS.get)
    board = squad_board(design.only("alpha", "target_power", squad_size=size))
    plotted["squad2"] = board
    chart(figures.leaderboard_figure(board, target=target, style=style()), "leaderboard_chart")
    powered = board["powered"]
    st.markdown(
        f"**{int(powered.sum())} of {len(board)}** submissions had ≥ {target:.0%} power against the SOTA of their "
        f"day; **{int((powered & board['significant_improvement']).sum())}** of those improved significantly on "
        f"test, against **{int((~powered & board['significant_improvement']).sum())} of {int((~powered).sum())}** "
        "under-powered ones.")
    st.caption("Rule used here: power requires significance *with the correct sign*; a 'significant improvement' "
               "needs p ≤ α and a positive test difference. The paper counted significance without the sign "
               "condition. Test-set disagreement counts were not released, so test p-values use the dev agreement "
               "rate.")


def tab_noworse(design, plotted) -> None:
    if design.scenario != "paired":
        st.info("“No worse than” is planned here for the paired design (both models on one test set). Switch the "
                "scenario to **paired (McNemar)** in the sidebar.")
        return
    c1, c2, c3, c4 = st.columns(4)
    design = design.with_(
        claim=design_input("claim", c1, format_func=CLAIM_LABELS.get),
        margin=design_input("margin", c2, widget="slider"),
        ni_test=design_input("ni_test", c3, widget="selectbox", format_func=NI_TEST_LABELS.get),
        ni_alpha=design_input("ni_alpha", c4, widget="select_slider"))
    n, target, agreement, kind = design.n, design.target_power, design.paired().agreement, design.claim
    margin, margin_pp, alpha = design.margin_fraction, design.margin, design.ni_alpha
    if design.ni_test == "wald":
        c3.caption("Wald is anti-conservative when few items are discordant: its false-claim rate can "
                   "exceed α (e.g. 14.5% at α = 2.5% with n = 60, P_a = 95%, margin 5 points); it never "
                   "rejects on a table with no discordant item. Prefer the score or exact test.")
    test = design.noninferiority_test()
    if test != design.ni_test:
        st.warning(f"The exact test is offered up to n = {acc.noninferiority.EXACT_TEST_N_MAX:,}; "
                   "showing the score test, which is accurate at this size.")
    key = design.only(*_NI)
    with guard("Cannot compute this design", stop=False):
        ni_res = noworse_power(key)
        ni_size = noworse_power(key, -margin) if margin <= 1 - agreement + 1e-12 else None
        inside = (design.delta_fraction + margin > 0) if kind == "ni" else (abs(design.delta_fraction) < margin)
        ni_sizes = noworse_sizes(key) if inside else None
        ni_curve = noworse_curve(key)
        plotted["noworse"] = ni_curve
        metrics_row(
            Metric("Power to show " + ("no worse" if kind == "ni" else "equivalence"),
                   fmt_pct(ni_res.power), help="P(the test rejects 'the new model is worse by the margin or "
                   "more') at the expected Δ — exact sum over the discordant counts."),
            Metric("False claim rate at the margin", "—" if ni_size is None else fmt_pct(ni_size.power, 2),
                   help="Rejection rate when the new model is exactly the margin worse: the test's size, "
                   f"which should not exceed α = {alpha:g}."),
            sample_size_metric(ni_sizes, target, unit="items",
                               condition=" (no worse)" if kind == "ni" else " (equivalence)",
                               help="Smallest test set reaching the target power at this Δ, P_a and margin"
                               + (" (score test)." if test == "exact" else "."),
                               limit=10_000_000),
        )
        if not inside:
            st.warning("The expected difference is outside the margin: no test set can show the claim.")
        lines = [figures.Line(x=-margin_pp, text=f"−margin ({-margin_pp:g} pp)", color=figures.PALETTE[3])]
        if kind == "eq":
            lines.append(figures.Line(x=margin_pp, text=f"+margin ({margin_pp:g} pp)", color=figures.PALETTE[3]))
        chart(figures.curve_figure(
            ni_curve.assign(series=f"n = {n:,}, P_a = {agreement:.1%}"), x="delta_pp", y="power",
            color="series", current=(design.delta, ni_res.power), target=target, log_x=False,
            title="Power to show " + ("“no worse than”" if kind == "ni" else "equivalence")
            + " vs the true difference", x_title="True accuracy difference Δ, new − old (pp)",
            y_title="Power", y_range=(0, 1.02), x_hover_format=".2f", lines=lines, style=style()),
            "noworse_chart")
        if ni_sizes is not None and ni_sizes.differ:
            st.caption(f"Power zigzags in n: it first reaches {target:.0%} at n = {ni_sizes.first:,} and "
                       f"stays there from n = {ni_sizes.conservative:,}.")
        plan_actions(lambda: accuracy_plan.noninferiority_plan_item(design, ni_res, size=ni_size, sizes=ni_sizes,
                                                            link=current_link()), key="accuracy_noworse")
    st.markdown(
        "**Why the hypothesis is reversed.** A non-significant superiority test does not show that two models "
        "are equally good — it may only show that the test set is too small. To *claim* that the cheaper model "
        "is no worse, make that claim the alternative: the null hypothesis is “the new model is worse by the "
        "margin or more” (Δ ≤ −margin), and only a test set large enough to rule that out lets you reject it. "
        "A small test set then fails to support the claim instead of supporting it by default. Left of the "
        "margin line, the curve is the rate of false claims (at most α); right of it, the power.")


def tab_intervals(design, plotted) -> None:
    c1, c2, c3 = st.columns(3)
    design = design.with_(confidence=design_input("confidence", c1, widget="select_slider"),
                          expected_accuracy=design_input("expected_accuracy", c2, widget="slider"),
                          half_width=design_input("half_width", c3, widget="slider"))
    n, n_cov, level = design.n, design.interval_n(), design.confidence
    ci_p, ci_half = design.expected_accuracy, design.half_width
    key = design.only(*_INTERVALS)
    with guard("Cannot compute the intervals", stop=False):
        cov = interval_curves(key)
        plotted["coverage"] = cov
        needed = interval_sizes(key)
        at_p = {m: design.coverage_at(m) for m in ("wald", "wilson")}
        metrics_row(
            Metric(f"Wald (CLT) coverage at {ci_p:.1f}%", fmt_pct(at_p["wald"]),
                   help=f"Exact share of {n_cov:,}-item test sets whose Wald interval contains the true accuracy "
                   f"(nominal {fmt_level(level)})."),
            Metric(f"Wilson coverage at {ci_p:.1f}%", fmt_pct(at_p["wilson"]),
                   help="The same for the Wilson score interval."),
            Metric(f"Items for ±{ci_half:g} pts (Wilson)", f"{needed['wilson']:,}",
                   help=f"Smallest n whose Wilson {fmt_level(level)} interval is at most ±{ci_half:g} points wide "
                   f"when the observed accuracy is {ci_p:.1f}%."),
        )
        chart(figures.curve_figure(
            cov.assign(series=cov["method"].map(INTERVAL_LABELS)), x="p", y="coverage", color="series",
            current=(ci_p / 100, at_p["wilson"]), target=level, log_x=False,
            title=f"Exact coverage of {fmt_level(level)} intervals at n = {n_cov:,}", x_title="True accuracy p",
            y_title="Coverage", y_range=(max(0.0, min(0.5, float(cov["coverage"].min()))), 1.0),
            x_hover_format=".3f", hover_format=".4f", style=style()), "coverage_chart")
        if n_cov < n:
            st.caption(f"Coverage is drawn at n = {n_cov:,}; above that every method is close to nominal.")
        st.dataframe(pd.DataFrame({"method": [INTERVAL_LABELS[m] for m in needed],
                                   f"items for ±{ci_half:g} pp": list(needed.values())}),
                     hide_index=True, width="stretch")
        st.caption("Sizes are measured on the interval you would report, clipped to [0%, 100%]: each is the "
                   "smallest n whose (high − low)/2 is at most the wanted precision. Near 0% or 100% clipping "
                   "narrows the Wald interval, so its size can be below the textbook ⌈z²p(1 − p)/h²⌉.")
    st.markdown(
        "**What to report.** Report the accuracy with a Wilson (or Clopper–Pearson) interval and the number of "
        "items, e.g. “83.5% (95% Wilson CI 77.1–88.4%, n = 164)”. Do not report the CLT standard error "
        "√(p̂(1 − p̂)/n) on a few hundred items: its interval under-covers near 0% and 100%, and when every item is "
        "right or wrong it claims zero uncertainty (Brown, Cai & DasGupta 2001; Bowyer et al. 2025). To compare "
        "two models on the same items, use the paired tests on this page, not overlapping intervals.")

"""Leaderboard page, layout only: the tabs that chart the current design (one cached call per output).

Every cached call takes the page's one :class:`core.pairwise.LeaderboardDesign` (frozen, hashed by value).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import pairwise as pw
from pages._scaffold import Metric, cached, chart, fmt_pct, guard, metrics_row, pinned_curve, style


@cached
def table(design: pw.LeaderboardDesign):
    return design.table()


@cached
def assurance_curve(design: pw.LeaderboardDesign, votes, pair):
    rows = []
    for v in votes:
        res = design.assurance(v)
        rows.append((v, float(res.assurance[pair]), float(res.power_at_mean[pair]), float(res.ceiling[pair]),
                     res.min_assurance))
    return pd.DataFrame(rows, columns=["n_votes", "assurance", "power", "ceiling", "min_assurance"])


@cached
def pair_curves(design: pw.LeaderboardDesign, votes):
    return design.curves(votes)


@cached
def order_curve(design: pw.LeaderboardDesign, votes):
    return design.order_curve(votes)


@cached
def judge_curve(design: pw.LeaderboardDesign, accuracies):
    return design.judge_curve(accuracies)


@cached
def resolution(design: pw.LeaderboardDesign):
    """Each neighbouring pair's power with no correction, Holm and Bonferroni across the pairs."""
    return design.resolution()


def tab_board(tab, design, plotted: dict, plan_figures: list) -> None:
    n_votes = design.n
    with tab["board"], guard("Cannot compute this leaderboard"):
        board_table = table(design)
        plotted["leaderboard"] = board_table
        board_args = dict(title=f"Expected leaderboard with 95% intervals after {n_votes:,} votes",
                          x_title="Rating (Elo)")
        board_data = ([str(s) for s in board_table["system"]], board_table["expected_rating"],
                      board_table["ci_low"], board_table["ci_high"])
        chart(figures.interval_figure(*board_data, **board_args, style=style()), "board_chart")
        plan_figures.append(("Expected leaderboard", figures.interval_figure(*board_data, **board_args)))
        st.dataframe(board_table, hide_index=True, width="stretch", column_config={
            c: st.column_config.NumberColumn(format="%.1f") for c in ("rating", "expected_rating", "ci_low",
                                                                      "ci_high", "halfwidth")})
        if design.ties == "split" and design.tie_rate > 0:
            st.caption("Half-win ties pull the fitted ratings toward the mean (expected_rating), so the intervals "
                       "cover the true ratings less often than 95% (coverage column).")


def tab_assurance(tab, design, assured, high: int, plotted: dict) -> None:
    n_votes, target = design.n, design.target_power
    with tab["assurance"]:
        if assured is None:
            st.info("Switch on **Average power over a prior on the gaps** in the sidebar: when you are unsure how far "
                    "apart the systems are, the assurance says how likely the neighbours are to be told apart, and its "
                    "ceiling why more votes cannot make up for a vague prior.")
            return
        with guard("Cannot average over this prior"):
            votes_a = tuple(sorted(set(int(v) for v in pw.vote_grid(max(high, 10 * n_votes), low=max(20, n_votes // 20),
                                                                     points=18)) | {n_votes}))
            curve_a = assurance_curve(design, votes_a, assured.weakest)
        plotted["assurance"] = curve_a
        a_name = f"{assured.pairs[assured.weakest][0]} vs {assured.pairs[assured.weakest][1]}"
        tidy = pd.concat([curve_a.assign(series=f"assurance, {a_name}", value=curve_a["assurance"]),
                          curve_a.assign(series=f"power at the assumed gap, {a_name}", value=curve_a["power"])],
                         ignore_index=True)
        ceiling_a = float(assured.ceiling[assured.weakest])
        chart(figures.curve_figure(tidy, x="n_votes", y="value", color="series",
                                   current=(n_votes, assured.min_assurance), target=target,
                                   lines=[figures.Line(y=ceiling_a, text=f"ceiling {ceiling_a:.0%}",
                                                       color=figures.PALETTE[1])],
                                   title="Assurance and power of the weakest neighbours vs votes",
                                   x_title="Total votes", y_title="Probability", y_range=(0, 1.02),
                                   style=style()), "assurance_chart")
        st.caption("With a prior SD comparable to the gap itself, the ceiling is well below 1: the votes can only "
                   "confirm an order you are already fairly sure of.")


def tab_pairs(tab, design, result, needed: int, grid: tuple, pinned_frames: list, plotted: dict,
              plan_figures: list) -> None:
    target = design.target_power
    with tab["pairs"], guard("Cannot compute this leaderboard"):
        curves = pair_curves(design, grid)
        curves = curves.assign(series=curves["pair"])
        plotted["adjacent_power"] = curves
        pair_args = dict(x="n_votes", y="power", color="series", current=(design.n, result.weakest_power),
                         target=target,
                         lines=[figures.Line(x=needed, text=f"{target:.0%} on every pair: {needed:,}")]
                         if needed > 0 else [],
                         title="Power of each pair of neighbours vs total votes", x_title="Total votes",
                         y_title="Power", y_range=(0, 1.02), pins=pinned_curve(pinned_frames, "n_votes", "power"))
        chart(figures.curve_figure(curves, **pair_args, style=style()), "pairs_chart")
        plan_figures.append(("Power of each pair of neighbours vs votes", figures.curve_figure(curves, **pair_args)))
        st.caption("The diamond is the weakest pair at the current votes; the closest neighbours set the budget.")


def tab_judge(tab, design, result, needed: int, plotted: dict) -> None:
    target = design.target_power
    with tab["judge"], guard("Cannot compute this leaderboard"):
        accuracies = tuple(np.round(np.linspace(0.6, 1.0, 5 if result.uses_exact_engine else 17), 3))
        jc = judge_curve(design, accuracies)
        plotted["votes_vs_judge"] = jc
        chart(figures.curve_figure(jc.assign(series=f"votes for {target:.0%} on every pair"), x="judge_accuracy",
                                   y="n_votes", color="series", log_x=False, log_y=True, target=None,
                                   current=(design.judge_accuracy, needed) if needed > 0 else None,
                                   hover_format=",.0f", x_hover_format=".2f", mode="lines+markers",
                                   title="Votes needed vs how often the judge agrees with the truth",
                                   x_title="Judge accuracy q", y_title="Votes needed", style=style()), "judge_chart")
        st.caption("A judge that agrees 80% of the time shrinks every preference by 2q − 1 = 0.6, so it needs about "
                   "1/0.36 ≈ 2.8 times the votes of a perfect one.")


def tab_order(tab, design, result, grid: tuple, plotted: dict) -> None:
    with tab["order"], guard("Cannot compute this leaderboard"):
        oc = order_curve(design, grid)
        plotted["order_correct"] = oc
        chart(figures.curve_figure(oc.assign(series="P(whole order right)"), x="n_votes", y="order_correct",
                                   color="series", current=(design.n, result.order_correct),
                                   target=design.target_power,
                                   title="Probability that the whole leaderboard is in the true order",
                                   x_title="Total votes", y_title="Probability", y_range=(0, 1.02), style=style()),
              "order_chart")
        st.caption("Getting every position right is harder than telling each pair of neighbours apart: all K − 1 "
                   "comparisons must come out right at once.")


def tab_resolution(tab, design, result, plotted: dict) -> None:
    n_votes, target = design.n, design.target_power
    with tab["resolution"], guard("Cannot compute the rank resolution"):
        resolved = resolution(design)
        pair_names = [f"{a} vs {b}" for a, b in result.pairs]  # the chart builders escape labels from data
        m_pairs = len(pair_names)
        counts = {c: int((r.per_comparison >= target).sum()) for c, r in resolved.items()}
        metrics_row(
            Metric("Neighbours told apart, no correction", f"{counts['none']} of {m_pairs}",
                   help=f"Neighbouring pairs whose power reaches {target:.0%} at {n_votes:,} votes, each tested at "
                   "α."),
            Metric("… with Holm across the pairs", f"{counts['holm']} of {m_pairs}",
                   help="The same after a family-wise (Holm) correction over the neighbouring pairs — what a claim "
                   "that 'the ranking is resolved' needs."),
            Metric("Expected resolved pairs (Holm)", f"{resolved['holm'].expected_rejections:.1f}",
                   se=f"{resolved['holm'].mc_se * m_pairs:.1f}" if resolved["holm"].mc_se > 0 else None,
                   help="Sum over neighbouring pairs of their power under Holm."),
            Metric("P(every neighbour resolved, Holm)", fmt_pct(resolved["holm"].all),
                   se=f"{100 * resolved['holm'].mc_se:.1f}%" if resolved["holm"].mc_se > 0 else None,
                   help="Probability that every neighbouring pair is significant, in the true order, after the "
                   "Holm correction."),
        )
        frame = pd.DataFrame({"pair": pair_names, **{f"power_{c}": r.per_comparison for c, r in resolved.items()}})
        plotted["rank_resolution"] = frame
        chart(figures.bar_figure(pair_names, {"no correction": resolved["none"].per_comparison,
                                              "Holm": resolved["holm"].per_comparison,
                                              "Bonferroni": resolved["bonferroni"].per_comparison},
                                 title=f"Which neighbours can be told apart at {n_votes:,} votes",
                                 x_title="Neighbouring pair (true order)", y_title="Power", y_range=(0, 1.02),
                                 lines=[figures.Line(y=target, text=f"target {target:.0%}")],
                                 current=(pair_names[int(np.argmin(result.adjacent_power))],
                                          float(np.min(resolved["holm"].per_comparison))), style=style()),
              "resolution_chart")
        st.caption("Each neighbouring pair's power comes from the Bradley–Terry fit (the Leaderboard view). The "
                   "neighbours' estimated gaps are drawn jointly — adjacent pairs share a system, so their tests "
                   "are negatively correlated and rarely all succeed together — and corrected per family "
                   "(20,000 simulated families, seed 0). A pair counts when significant in the true order.")

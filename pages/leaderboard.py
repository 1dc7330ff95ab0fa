"""Leaderboard page: how many pairwise votes to rank many systems, and what judge errors cost.

Bradley–Terry on the Elo scale (Bradley & Terry 1952; the Chatbot Arena convention, Chiang et al. 2024).
Layout only: widgets built from :class:`core.pairwise.LeaderboardDesign`'s declared fields → one design → cached
calls into ``core.pairwise`` → charts and metrics. The analytic engine (expected Fisher information) is instant;
simulated leaderboards run on demand. The tabs live in ``pages/_leaderboard_tabs.py`` and
``pages/_leaderboard_fit.py``, the ratings controls in ``pages/_leaderboard_ratings.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import pairwise as pw
from core import sequential as sq
from core.pairwise import plan as leaderboard_plan
from core.pairwise.snippet import leaderboard_snippet
from core.runnable import vote_allocation
from pages._leaderboard_fit import tab_fit
from pages._leaderboard_ratings import Design, key_ratings, preset_controls, put
from pages._leaderboard_tabs import tab_assurance, tab_board, tab_judge, tab_order, tab_pairs, tab_resolution
from pages._sequential_section import sequential_section
from pages._scaffold import (
    key_inputs,
    Metric,
    pin_controls,
    pinned_designs,
    pins_table,
    link_values,
    cached,
    code_view,
    cost_controls,
    current_link,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    guard,
    md_escape,
    metrics_row,
    plan_actions,
    simulation,
    simulation_controls,
    start,
    views,
)

VOTE_OPTIONS = sorted({int(m * 10**e) for e in range(2, 7) for m in (1, 1.5, 2, 3, 5, 7.5) if m * 10**e <= 1_000_000})
TIE_LABELS = {"drop": "dropped", "split": "split: half a win each"}
VIEWS = {"board": "Leaderboard", "pairs": "Neighbours vs votes", "assurance": "Assurance vs votes", "judge": "Votes vs judge accuracy",
         "order": "Whole order vs votes", "fit": "Fit your votes", "resolution": "Rank resolution"}
PIN_KEYS = ("preset", "k", "gap", "leaders", "lead_gap", "_ratings_text", "votes", "ties_pct", "ties", "judge", "alpha")
# Every cached call takes the page's one design (frozen, hashed by value).
@cached
def power(design: pw.LeaderboardDesign):
    return design.power()


@cached
def assurance(design: pw.LeaderboardDesign):
    return design.assurance()


@cached
def votes_needed(design: pw.LeaderboardDesign):
    return design.sample_sizes()


@cached
def pinned(design: pw.LeaderboardDesign, votes):
    """A pinned design's weakest-neighbour power over the vote grid, and its summary."""
    weakest = design.curves(votes).groupby("n_votes", as_index=False)["power"].min()
    res = design.power()
    return weakest, {"systems": len(design.expected_ratings()), "votes": design.n,
                     "weakest_power": res.weakest_power, "order_correct": res.order_correct,
                     "votes_for_target": design.sample_sizes()}


def sidebar_controls():
    """The sidebar (the assumptions): returns the design's fields read there, the cost and the simulation settings.

    Nothing here depends on a key input (the key inputs live in the fragment :func:`leaderboard_view`)."""
    side = st.sidebar
    fields, k_shown = preset_controls(side)
    side.subheader("Votes")
    fields["tie_pct"] = put("tie_pct", side, widget="slider")
    if st.query_params.get("ties") == "half":  # a link from before ties="half" became "split"
        st.query_params["ties"] = "split"
    link_values("ties", TIE_LABELS)
    fields["ties"] = put("ties", side, horizontal=True, format_func=TIE_LABELS.get)
    fields["judge_pct"] = put("judge_pct", side, widget="slider")
    side.subheader("Decision rule")
    fields["alpha"] = put("alpha", side, widget="select_slider")
    fields["target_power"] = put("target_power", side, widget="slider")
    cost = cost_controls(unit="vote", default=0.0, key="cost_vote",
                         help="What one vote costs (a rater's judgment or a judge call).")
    side.subheader("Uncertain gaps (assurance)")
    fields["assure"] = put("assure", side)
    if fields["assure"]:
        fields["delta_sd"] = put("delta_sd", side, widget="slider")
    sim = simulation_controls(options=(200, 500, 1000, 2000), default=500, unit="Simulated leaderboards",
                              help="Draws the votes, fits every leaderboard by maximum likelihood and counts, with "
                              "Monte Carlo standard errors, next to the Fisher-information numbers.")
    return fields, k_shown, cost, sim


def key_controls(fields: dict, k_shown):
    """The key inputs (votes, and the systems or the table) in the main area; returns the design and its ratings."""
    top = key_inputs(3)  # the inputs the question turns on, above the first chart
    fields, ratings = key_ratings(top, fields, k_shown)
    if len(ratings) < 2:
        st.error("**At least two systems are needed** to compare anything.")
        st.stop()
    fields["n"] = put("n", top[0], widget="select_slider", options=VOTE_OPTIONS)
    st.session_state["_ratings_text"] = pw.encode_ratings(ratings)  # so a pin keeps a custom table
    with guard("Cannot compute this leaderboard"):
        design = Design(**fields)
    return design, ratings


def upsets_text(design, needed: int) -> str | None:
    """Where the closest neighbours expect fewer than ``MIN_UPSETS`` upsets (the design's votes, the votes for the
    target), in words; None when the analytic engine's normal approximation holds at both."""
    fewest = float(design.upsets().min())
    at_need = float(design.upsets(needed).min()) if needed > 0 else math.inf
    where = [f"{fewest:.1f} upsets at {design.n:,} votes"] if fewest < pw.MIN_UPSETS else []
    where += ([f"{at_need:.1f} at the {needed:,} votes for {design.target_power:.0%}"]
              if at_need < pw.MIN_UPSETS else [])
    return "; ".join(where) or None


def headline(design, ratings, result, needed, cost):
    """The metrics, the assurance metric, the verdict and the links; returns the assurance (None when off)."""
    n_votes, target, (cost_vote, currency) = design.n, design.target_power, cost
    weakest = result.weakest_pair
    metrics_row(
        Metric("Weakest neighbours' power", fmt_pct(result.weakest_power),
               help="The lowest power among adjacent pairs (systems next to each other in the true order): P(their "
               "difference is significant in the right direction).",
               caption=f"{md_escape(weakest[0])} vs {md_escape(weakest[1])}" if weakest else None),
        Metric(f"Votes for {target:.0%} on every pair", "not reachable" if needed < 0 else f"{needed:,}",
               help="The fewest total votes with which every adjacent pair reaches the target power."),
        Metric("P(whole order right)", fmt_pct(result.order_correct),
               help="Probability that the fitted leaderboard ranks every system in its true order (normal "
               "approximation of the fitted ratings)."),
        Metric("Typical interval", "—" if not math.isfinite(result.typical_halfwidth) else
               f"± {result.typical_halfwidth:.1f} Elo", help="Median 95% half-width of a system's rating."),
        *([Metric("Cost", fmt_money(n_votes * cost_vote, currency),
                  caption=f"for {target:.0%}: {fmt_money(needed * cost_vote, currency)}" if needed > 0 else None)]
          if cost_vote > 0 else []),
    )
    assured = None
    if design.assure:
        with guard("Cannot average over this prior"):
            assured = assurance(design)
        pair_a = assured.pairs[assured.weakest]
        metrics_row(Metric("Weakest neighbours' assurance", fmt_pct(assured.min_assurance),
                           help="The lowest assurance among adjacent pairs: P(significant in the assumed order), "
                           "averaged over the prior on the pair's gap (Wald approximation).",
                           caption=f"{md_escape(pair_a[0])} vs {md_escape(pair_a[1])}; ceiling "
                           f"{fmt_pct(float(assured.ceiling[assured.weakest]))}"))
    few_upsets = None if result.uses_exact_engine else upsets_text(design, needed)
    if result.uses_exact_engine:
        st.info("With two systems this is a head-to-head preference study: the numbers come from the exact sign test "
                "of the Accuracy page.")
        p_top = float(pw.observed_win_rate(pw.win_probability(ratings.max(), ratings.min()),
                                           judge_accuracy=design.judge_accuracy))
        p_new = round(100 * (1 - design.tie_rate) * p_top * 2) / 2
        st.page_link("pages/accuracy.py", label="Open it on the Accuracy page", icon=":material/arrow_forward:",
                     query_params={"scenario": "preferences", "n": str(n_votes), "p_new": f"{p_new:.1f}",
                                   "ties_pct": f"{min(design.tie_pct, 90.0):.1f}"})
    elif result.weakest_power < target:
        st.warning(f"**Under-powered:** the closest neighbours ({md_escape(weakest[0])} vs {md_escape(weakest[1])}) "
                   f"would be told apart in only {fmt_pct(result.weakest_power)} of such leaderboards.")
    elif few_upsets is None:
        st.success(f"**Every pair of neighbours is adequately powered** (≥ {target:.0%}).")
    if few_upsets is not None:  # instead of the all-clear: the analytic power is not to be trusted here
        st.warning(f"**Few upsets expected:** the closest pair of neighbours expects only {few_upsets} (wins of the "
                   f"worse system). Below about {pw.MIN_UPSETS:.0f} the analytic numbers overstate power — fitted "
                   "leaderboards often separate (a system that never loses). Run the simulation in the sidebar for "
                   "this design.")
    st.page_link("pages/claims.py", label="Claiming several gains at once? See each claim's power after a "
                 "multiplicity correction", icon=":material/checklist:")
    return assured


def simulated(design, result, sim) -> None:
    """Simulated leaderboards, on demand, next to the analytic numbers."""
    st.subheader("Simulated leaderboards")

    def run(progress):
        out = design.power(method="simulate", n_sims=sim.n_sims, seed=sim.seed)
        progress(1.0)
        return out

    with guard("Cannot simulate this leaderboard"):
        mc = simulation(("pairwise", design, sim.n_sims, sim.seed), run,
                        text=f"Simulating {sim.n_sims:,} leaderboards…")
    worst = int(np.argmin(mc.adjacent_power)) if len(mc.adjacent_power) else 0
    metrics_row(
        Metric("Simulated weakest power", fmt_pct(float(mc.adjacent_power[worst])),
               se=f"{100 * float(np.atleast_1d(mc.mc_se)[worst]):.1f}%"),
        Metric("Simulated P(order right)", fmt_pct(mc.order_correct), se=f"{100 * mc.order_correct_mc_se:.1f}%"),
        Metric("Simulated typical interval", f"± {mc.typical_halfwidth:.1f} Elo"),
    )
    table_mc = pd.DataFrame({"pair": [f"{a} vs {b}" for a, b in mc.pairs], "analytic": result.adjacent_power,
                             "simulated": mc.adjacent_power, "mc_se": np.atleast_1d(mc.mc_se)})
    st.dataframe(table_mc, hide_index=True, width="stretch")


def sequential(design, ratings, weakest, cost, plotted: dict) -> None:
    """Run it sequentially: a head-to-head of the closest neighbours (core.sequential's engine)."""
    target, alpha, tie_rate, (cost_vote, currency) = design.target_power, design.alpha, design.tie_rate, cost
    with guard("Cannot run this design sequentially", stop=False):
        top, low_ = (weakest if ratings[weakest[0]] >= ratings[weakest[1]] else weakest[::-1])
        p_win = float(pw.observed_win_rate(pw.win_probability(ratings[top], ratings[low_]),
                                           judge_accuracy=design.judge_accuracy))
        vote = sq.vote_item_model(p_win, tie_rate=tie_rate)
        pair_votes = (sq.sequential_sample_size(vote.delta, vote.sd, design="fixed", target_power=target, alpha=alpha)
                      if vote.delta > 0 else 1000)
        gap_elo = float(ratings[top] - ratings[low_])
        plotted.update(sequential_section(
            n=int(min(pair_votes, 1_000_000)), model=vote, alpha=alpha, target=target, unit="vote", units="votes",
            x_title="Net win margin of the better system (share of votes)", to_x=lambda d: d,
            x_max=max(2 * vote.delta, 0.1), current_x=vote.delta, cost_per_item=cost_vote, currency=currency,
            assumption=(f"for a head-to-head of the closest neighbours ({md_escape(top)} vs "
                        f"{md_escape(low_)}, {gap_elo:.0f} Elo apart: {p_win:.1%} observed wins among decisive "
                        f"votes, {tie_rate:.0%} ties), each vote +1, −1 or 0; planned with the votes a fixed "
                        f"head-to-head test needs for {target:.0%} power."), key="seq"))


def plan_and_allocation(design, result, needed, assured, cost, plan_figures: list) -> None:
    """The plan, the code view and the vote allocation download."""
    target, (cost_vote, currency) = design.target_power, cost
    board = design.board()
    snippet = leaderboard_snippet(design)
    plan_actions(lambda: leaderboard_plan.plan_item(
        design, result, votes_needed=needed, assurance=assured, cost_per_vote=cost_vote,
        currency=currency, figures=tuple(plan_figures), link=current_link(), code=snippet), key="leaderboard")
    code_view(snippet, key="leaderboard_code")
    # how many votes each adjacent pair needs: a file the vote collection can follow
    votes_box = st.expander("Download the vote allocation — votes per pair of neighbours to reach the target",
                            key="alloc_open", on_change="rerun", icon=":material/how_to_vote:")
    if not votes_box.open:
        return
    with votes_box, guard("Cannot allocate votes for this leaderboard", stop=False):
        alloc = vote_allocation(board.series, target_power=target, tie_rate=design.tie_rate, ties=design.ties,
                                judge_accuracy=design.judge_accuracy, alpha=design.alpha)
        st.markdown(f"Collect votes **between neighbours** in the expected order, as many for each pair as listed: "
                    f"**{int(alloc['votes'].sum()):,}** votes in all (ties included), every pair at ≥ {target:.0%} "
                    "power. Close neighbours need more, about ∝ 1/gap². Each pair's gap is then estimated from its "
                    "own votes (a chain), so the pair's power is that of a head-to-head comparison (exact sign test)."
                    + (f" Spreading votes evenly over all pairs instead needs {needed:,}." if needed > 0 else ""))
        st.dataframe(alloc, hide_index=True, width="stretch", column_config={
            "system_a": "Better system", "system_b": "Next system",
            "gap_elo": st.column_config.NumberColumn("Gap (Elo)", format="%.1f"),
            "votes": st.column_config.NumberColumn("Votes", format="%d"),
            "share": st.column_config.NumberColumn("Share", format="percent"),
            "power": st.column_config.NumberColumn("Power", format="percent")})
        st.download_button("Download the vote allocation (CSV)", data=alloc.to_csv(index=False).encode("utf-8"),
                           file_name="vote_allocation.csv", mime="text/csv", key="alloc_csv", on_click="ignore")


EXPLANATION = """
**The model.** Each system has a rating on the Elo scale; system i beats system j with probability
1 / (1 + 10^((r_j − r_i)/400)) (Bradley–Terry). A 25-point gap is a 53.6% win rate, 100 points about 64%. Votes are
spread evenly over all pairs; the fit estimates every rating from all of them.

**Neighbours.** A leaderboard is only as good as its closest pairs: the power shown is, for each pair of systems next
to each other in the true order, the probability that their fitted difference is significant in the right direction.
The budget is set by the closest pair.

**The whole order.** Getting every position right at once is harder still; the page shows its probability from the
joint (normal) distribution of the fitted ratings.

**Ties.** Dropped ties carry no information. Counting a tie as half a win each way keeps the same power but pulls all
ratings toward the mean, so their intervals stop covering the true ratings.

**Judges.** A judge that agrees with the true preference with probability q shrinks every win rate toward ½ by the
factor 2q − 1, so it needs about 1/(2q − 1)² times the votes.

**Two systems** are a head-to-head preference study: the page uses the Accuracy page's exact sign test.
"""


def views_of(design, ratings, result, needed, assured, plotted: dict, plan_figures: list):
    """The tabs (each computed only when open) and the pins table."""
    n_votes, target = design.n, design.target_power
    pins = pin_controls("leaderboard", PIN_KEYS, label=f"{len(ratings)} systems, {n_votes:,} votes")
    tab = views(VIEWS)
    high = min(max(n_votes * 10, 2000, int(1.5 * needed) if 0 < needed <= 10_000_000 else 0), pw.MAX_VOTES)
    grid = tuple(int(v) for v in pw.vote_grid(high, low=max(20, min(n_votes, max(needed, 1)) // 20), points=41))
    grid = tuple(sorted(set(grid) | {n_votes}))
    if tab.open("board"):
        tab_board(tab, design, plotted, plan_figures)
    if tab.open("assurance"):
        tab_assurance(tab, design, assured, high, plotted)
    # the pin keeps the ratings table under its session key; a pin from before ties="half" became "split"
    pinned_frames, pinned_rows = pinned_designs(
        pins, lambda d: pinned(d.with_(target_power=target), grid), design=Design,
        renamed={"_ratings_text": "ratings"})
    pins_table({"pin": "current", "systems": len(ratings), "votes": n_votes, "weakest_power": result.weakest_power,
                "order_correct": result.order_correct, "votes_for_target": needed}, pinned_rows,
               {"weakest_power": st.column_config.NumberColumn("Weakest power", format="percent"),
                "order_correct": st.column_config.NumberColumn("P(order right)", format="percent")})
    if tab.open("pairs"):
        tab_pairs(tab, design, result, needed, grid, pinned_frames, plotted, plan_figures)
    if tab.open("judge"):
        tab_judge(tab, design, result, needed, plotted)
    if tab.open("order"):
        tab_order(tab, design, result, grid, plotted)
    tab_fit(tab, design.ties, plotted)
    if tab.open("resolution"):
        tab_resolution(tab, design, result, plotted)
    return tab


@st.fragment
def leaderboard_view(fields: dict, k_shown, cost, sim) -> None:
    """The key inputs and every output that depends on them: moving a key input reruns only this fragment (it
    writes nothing to the sidebar)."""
    design, ratings = key_controls(fields, k_shown)
    with guard("Cannot compute this leaderboard"):
        result = power(design)
        needed = votes_needed(design)
    assured = headline(design, ratings, result, needed, cost)
    plotted: dict[str, pd.DataFrame] = {}
    plan_figures: list = []  # the figures shown, for the plan document
    tab = views_of(design, ratings, result, needed, assured, plotted, plan_figures)
    if sim.run:
        simulated(design, result, sim)
    if result.weakest_pair:
        sequential(design, ratings, result.weakest_pair, cost, plotted)
    plan_and_allocation(design, result, needed, assured, cost, plan_figures)
    if plotted:
        download_csv(plotted, f"leaderboard_{tab.current}.csv", key="download_curves",
                     label="Download the plotted data (CSV)")
    explain(EXPLANATION)


start("Leaderboards from pairwise votes",
      "How many votes until neighbours on a leaderboard are told apart, how wide each system's interval is, how "
      "likely the whole order is right, and what a noisy judge costs — Bradley–Terry on the Elo scale.")
leaderboard_view(*sidebar_controls())

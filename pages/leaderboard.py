"""Leaderboard page: how many pairwise votes to rank many systems, and what judge errors cost.

Bradley–Terry on the Elo scale (Bradley & Terry 1952; the Chatbot Arena convention, Chiang et al. 2024).
UI only: widgets → cached calls into ``core.pairwise`` → charts and metrics. The analytic engine (expected
Fisher information) is instant; simulated leaderboards run on demand.
"""

from __future__ import annotations

import math
from urllib.parse import quote, unquote

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import pairwise as pw
from core import sequential as sq
from core.plan import leaderboard as leaderboard_plan
from core.snippets import leaderboard_snippet
from core.runnable import vote_allocation
from pages._sequential_section import sequential_section
from pages._scaffold import (
    key_inputs,
    Metric,
    pin_controls,
    pin_int,
    pinned_curve,
    pinned_designs,
    pins_table,
    apply_values,
    link_values,
    cached,
    cached_upload,
    chart,
    cost_controls,
    current_link,
    decision_controls,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    guard,
    list_of,
    md_escape,
    metrics_row,
    plan_actions,
    simulation,
    simulation_controls,
    start,
    style,
    views,
)
from pages._scaffold import code_view

VOTE_OPTIONS = sorted({int(m * 10**e) for e in range(2, 7) for m in (1, 1.5, 2, 3, 5, 7.5) if m * 10**e <= 1_000_000})
PRESETS = {"even": "evenly spaced", "crowded": "crowded top", "custom": "my ratings (table)"}
VIEWS = {"board": "Leaderboard", "pairs": "Neighbours vs votes", "assurance": "Assurance vs votes", "judge": "Votes vs judge accuracy",
         "order": "Whole order vs votes", "fit": "Fit your votes", "resolution": "Rank resolution"}


# Every cached call takes the page's one pw.Leaderboard (frozen, hashed by value).
@cached
def power(board: pw.Leaderboard, n_votes):
    return board.power(n_votes)


@cached
def assurance_at(board: pw.Leaderboard, n_votes, delta_sd):
    return board.assurance(n_votes, delta_sd)


@cached
def assurance_curve(board: pw.Leaderboard, votes, delta_sd, pair):
    rows = []
    for v in votes:
        res = board.assurance(v, delta_sd)
        rows.append((v, float(res.assurance[pair]), float(res.power_at_mean[pair]), float(res.ceiling[pair]),
                     res.min_assurance))
    return pd.DataFrame(rows, columns=["n_votes", "assurance", "power", "ceiling", "min_assurance"])


@cached
def votes_needed(board: pw.Leaderboard, target):
    return board.votes(target_power=target)


@cached
def table(board: pw.Leaderboard, n_votes):
    return board.table(n_votes)


@cached
def pair_curves(board: pw.Leaderboard, votes):
    return board.adjacent_power_curve(list(votes))


@cached
def order_curve(board: pw.Leaderboard, votes):
    return board.order_correct_curve(list(votes))


@cached
def judge_curve(board: pw.Leaderboard, accuracies, target):
    return board.votes_vs_judge(list(accuracies), target_power=target)


@cached
def resolution(powers, alpha):
    """Each neighbouring pair's power with no correction, Holm and Bonferroni across the pairs."""
    from core import multiplicity as mt

    clipped = [min(max(float(p), alpha), 1.0) for p in powers]  # two-sided rejection is at least α
    return {c: mt.family_power(clipped, alpha=alpha, correction=c, n_sims=20_000, seed=0)
            for c in ("none", "holm", "bonferroni")}


@cached_upload
def read_votes(data: bytes, name: str, columns=None):
    return pw.read_votes(data, name=name, columns=None if columns is None else dict(columns))


@cached_upload
def read_many_votes(files, columns=None):
    return pw.read_votes(list(files), name="The votes files", columns=None if columns is None else dict(columns))


@cached_upload
def header_of(data: bytes) -> list:
    from core import uploads

    return list(uploads.read_table(data, name="The votes file", min_columns=3, header="yes").columns)


def vote_columns(data: bytes):
    """The mapping step when a table's header does not name model_a, model_b and winner (None: not needed)."""
    from core import uploads

    if uploads.looks_like_json(data):
        return None
    names = header_of(data)
    lowered = {str(c).strip().lower() for c in names}
    guessed = uploads.guess_columns(names, ["model_a", "model_b", "winner"])
    if {"model_a", "model_b", "winner"} <= lowered or len(guessed) == 3:
        return None
    st.info("The header does not name model_a, model_b and winner: say which columns hold them.")
    cols = st.columns(3)
    labels = {"model_a": "First model", "model_b": "Second model", "winner": "Winner (model_a / model_b / tie, or "
              "an AlpacaEval preference)"}
    pick = {role: cols[k].selectbox(labels[role], names, index=names.index(guessed[role]) if role in guessed
                                    else min(k, len(names) - 1), key=f"votes_col_{role}")
            for k, role in enumerate(("model_a", "model_b", "winner"))}
    return tuple(pick.items())


@cached_upload
def fit(votes: pd.DataFrame, ties: str):
    return pw.fit_bradley_terry(votes, ties=ties, n_boot=200, seed=0)


PIN_KEYS = ("preset", "k", "gap", "leaders", "lead_gap", "_ratings_text", "votes", "ties_pct", "ties", "judge", "alpha")


def ratings_of(v: dict) -> pd.Series:
    """The expected ratings of a pinned design."""
    preset_p, k_p = v.get("preset", "even"), pin_int(v, "k", 6)
    if preset_p == "custom" and v.get("_ratings_text"):
        return decode_ratings(v["_ratings_text"])
    if preset_p == "crowded":
        return pd.Series(pw.crowded_top(k_p, leaders=min(pin_int(v, "leaders", 3), k_p),
                                        leader_gap=float(v.get("lead_gap", 5.0)), gap=float(v.get("gap", 30.0))),
                         index=pw.system_names(k_p))
    return pd.Series(pw.evenly_spaced(k_p, float(v.get("gap", 25.0))), index=pw.system_names(k_p))


@cached
def pinned(values, votes, target):
    """A pinned design's weakest-neighbour power over the vote grid, and its summary."""
    v = dict(values)
    r = ratings_of(v)
    pinned_board = pw.Leaderboard(r, tie_rate=float(v.get("ties_pct", 0.0)) / 100, ties=v.get("ties", "drop"),
                                  judge_accuracy=float(v.get("judge", 100.0)) / 100, alpha=float(v.get("alpha", 0.05)))
    curves = pinned_board.adjacent_power_curve(list(votes))
    weakest = curves.groupby("n_votes", as_index=False)["power"].min()
    size = pin_int(v, "votes", 5000)
    res = pinned_board.power(size)
    need = pinned_board.votes(target_power=target)
    return weakest, {"systems": len(r), "votes": size, "weakest_power": res.weakest_power,
                     "order_correct": res.order_correct, "votes_for_target": need}


def encode_ratings(ratings: pd.Series) -> str:
    """Names and ratings for the URL: ``name:rating`` pairs separated by ``;`` (names percent-encoded)."""
    return ";".join(f"{quote(str(k), safe='')}:{v:.1f}" for k, v in ratings.items())


def decode_ratings(text: str) -> pd.Series:
    """Inverse of :func:`encode_ratings`; raises ValueError with a clear message."""
    pairs = []
    for part in [p for p in str(text).split(";") if p.strip()][:50]:
        name, _, value = part.rpartition(":")
        try:
            rating = float(value)
        except ValueError:
            raise ValueError(f"The linked ratings have a value that is not a number: {value[:20]!r}.") from None
        pairs.append((unquote(name)[:60] or f"S{len(pairs) + 1}", rating))
    if not pairs:
        raise ValueError("The linked ratings list no systems: the link's `ratings` should read like "
                         "`A:1025;B:1000`. The table starts from the evenly spaced preset instead.")
    return pd.Series(dict(pairs), dtype=float)


def use_fitted(ratings: pd.Series) -> None:
    apply_values({"preset": "custom"})
    st.session_state["custom_ratings"] = ratings.round(1)
    st.session_state.pop("ratings_editor", None)


def on_preset_change() -> None:
    if st.session_state.get("preset") == "custom" and "custom_ratings" not in st.session_state:
        st.session_state["custom_ratings"] = st.session_state.get("_last_ratings", pw.evenly_spaced(6, 25.0))


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("Leaderboards from pairwise votes",
      "How many votes until neighbours on a leaderboard are told apart, how wide each system's interval is, how "
      "likely the whole order is right, and what a noisy judge costs — Bradley–Terry on the Elo scale.")
side = st.sidebar
top = key_inputs(3)  # the inputs the question turns on, above the first chart
side.subheader("Systems")
link_values("preset", PRESETS)
preset = side.radio("Expected ratings", list(PRESETS), format_func=PRESETS.get, key="preset", bind="query-params",
                    on_change=on_preset_change, help="Evenly spaced by a gap; a crowded top (a few close leaders, the "
                    "rest further apart); or your own table (from your guesses or a fit to past votes).")
if preset in ("even", "crowded"):
    k = top[1].slider("Number of systems", 2, 20, 6, 1, key="k", bind="query-params",
                    help="Systems on the leaderboard; votes are spread evenly over all pairs.")
    if preset == "even":
        gap = top[2].slider("Gap between neighbours (Elo)", 5.0, 200.0, 25.0, 5.0, key="gap", bind="query-params",
                          help="25 Elo ≈ a 53.6% win rate between neighbours; 100 Elo ≈ 64%.")
        with guard("Cannot build these ratings"):
            ratings = pd.Series(pw.evenly_spaced(k, gap), index=pw.system_names(k))
    else:
        leaders = side.slider("Close leaders", 2, max(2, k), min(3, k), 1, key="leaders", bind="query-params",
                              help="How many systems crowd at the top.") if k > 2 else 2
        lead_gap = side.slider("Gap among the leaders (Elo)", 1.0, 50.0, 5.0, 1.0, key="lead_gap", bind="query-params",
                               help="The leaders' neighbours differ by this much.")
        gap = side.slider("Gap among the rest (Elo)", 5.0, 200.0, 30.0, 5.0, key="gap", bind="query-params",
                          help="The other neighbours differ by this much.")
        with guard("Cannot build these ratings"):
            ratings = pd.Series(pw.crowded_top(k, leaders=min(leaders, k), leader_gap=lead_gap, gap=gap),
                                index=pw.system_names(k))
    st.session_state["_last_ratings"] = ratings
else:
    linked = st.query_params.get("ratings")
    if "custom_ratings" not in st.session_state:
        st.session_state["custom_ratings"] = pw.evenly_spaced(6, 25.0)
        if linked:
            with guard("Cannot read the linked ratings", stop=False):
                st.session_state["custom_ratings"] = decode_ratings(linked)
    base = st.session_state["custom_ratings"]
    base = base if isinstance(base, pd.Series) else pd.Series(base, index=pw.system_names(len(base)))
    st.markdown("**Expected ratings (Elo)** — edit the table; add or delete rows for systems.")
    edited = st.data_editor(pd.DataFrame({"system": pd.Series([str(i) for i in base.index], dtype=object),
                                          "rating": pd.Series(base.to_numpy(), dtype=float)}),
                            num_rows="dynamic", key="ratings_editor", hide_index=True,
                            column_config={"system": st.column_config.TextColumn("System", max_chars=60),
                                           "rating": st.column_config.NumberColumn("Rating (Elo)", min_value=0.0,
                                                                                   max_value=5000.0, step=1.0)})
    edited = edited.dropna()
    names = [str(s).strip() or f"S{i + 1}" for i, s in enumerate(edited["system"])]
    if len(set(names)) != len(names):
        st.error("**Two systems have the same name.** Give each row its own name.")
        st.stop()
    ratings = pd.Series(edited["rating"].astype(float).to_numpy(), index=names)
    st.query_params["ratings"] = encode_ratings(ratings)
if len(ratings) < 2:
    st.error("**At least two systems are needed** to compare anything.")
    st.stop()
side.subheader("Votes")
n_votes = top[0].select_slider("Total votes", options=VOTE_OPTIONS, value=5000, key="votes", bind="query-params",
                             help="Votes over all pairs of systems, spread evenly over the pairs.")
tie_pct = side.slider("Ties (%)", 0.0, 60.0, 0.0, 1.0, key="ties_pct", bind="query-params",
                      help="Share of votes that are ties (or 'both bad').")
TIE_LABELS = {"drop": "dropped", "split": "split: half a win each"}
if st.query_params.get("ties") == "half":  # a link from before ties="half" became "split"
    st.query_params["ties"] = "split"
link_values("ties", TIE_LABELS)
ties = side.radio("Ties in the fit", list(pw.TIES), key="ties", bind="query-params", horizontal=True,
                  format_func=TIE_LABELS.get,
                  help="Dropped: ties carry no information (default). Split: a tie counts half a win for each side, as "
                  "some arena fits do; this pulls every rating toward the mean (by about the tie rate), so intervals "
                  "no longer cover the true ratings.")
judge_pct = side.slider("Judge agrees with the true preference (%)", 55.0, 100.0, 100.0, 0.5, key="judge",
                        bind="query-params",
                        help="An LLM judge (or a noisy rater) that picks the truly preferred system with probability q "
                        "turns a win rate p into ½ + (2q − 1)(p − ½): every gap shrinks.")
alpha, target = decision_controls()
cost_vote, currency = cost_controls(unit="vote", default=0.0, key="cost_vote",
                                    help="What one vote costs (a rater's judgment or a judge call).")
side.subheader("Uncertain gaps (assurance)")
assure = side.toggle("Average power over a prior on the gaps", key="assure", bind="query-params",
                     help="Assurance (O'Hagan, Stevens & Campbell 2005): the probability that a pair of neighbours ends "
                     "significant in the assumed order, averaged over your uncertainty about their gap. No number of "
                     "votes can push it past the ceiling — the prior probability that the order is as assumed.")
gap_sd = side.slider("Prior SD of each gap (Elo)", 0.0, 200.0, 15.0, 1.0, key="gap_sd", bind="query-params",
                     help="How unsure you are about each adjacent gap in the table: about 95% of your belief lies "
                     "within ±2 SD of it. 0 gives the ordinary power.") if assure else 0.0
sim = simulation_controls(options=(200, 500, 1000, 2000), default=500, unit="Simulated leaderboards",
                          help="Draws the votes, fits every leaderboard by maximum likelihood and counts, with Monte "
                          "Carlo standard errors, next to the Fisher-information numbers.")
tie_rate, judge = tie_pct / 100, judge_pct / 100
st.session_state["_ratings_text"] = encode_ratings(ratings)  # so a pin keeps a custom table

# ---------------------------------------------------------------------------
# the current design (analytic, instant)
# ---------------------------------------------------------------------------
with guard("Cannot compute this leaderboard"):
    board = pw.Leaderboard(ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge, alpha=alpha)
    result = power(board, n_votes)
    needed = votes_needed(board, target)
weakest = result.weakest_pair
metrics_row(
    Metric("Weakest neighbours' power", fmt_pct(result.weakest_power),
           help="The lowest power among adjacent pairs (systems next to each other in the true order): P(their "
           "difference is significant in the right direction).",
           caption=f"{md_escape(weakest[0])} vs {md_escape(weakest[1])}" if weakest else None),
    Metric(f"Votes for {target:.0%} on every pair", "not reachable" if needed < 0 else f"{needed:,}",
           help="The fewest total votes with which every adjacent pair reaches the target power."),
    Metric("P(whole order right)", fmt_pct(result.order_correct),
           help="Probability that the fitted leaderboard ranks every system in its true order (normal approximation "
           "of the fitted ratings)."),
    Metric("Typical interval", "—" if not math.isfinite(result.typical_halfwidth) else
           f"± {result.typical_halfwidth:.1f} Elo", help="Median 95% half-width of a system's rating."),
    *([Metric("Cost", fmt_money(n_votes * cost_vote, currency),
              caption=f"for {target:.0%}: {fmt_money(needed * cost_vote, currency)}" if needed > 0 else None)]
      if cost_vote > 0 else []),
)
assured = None
if assure:
    with guard("Cannot average over this prior"):
        assured = assurance_at(board, n_votes, gap_sd)
    pair_a = assured.pairs[assured.weakest]
    metrics_row(Metric("Weakest neighbours' assurance", fmt_pct(assured.min_assurance),
                       help="The lowest assurance among adjacent pairs: P(significant in the assumed order), averaged "
                       "over the prior on the pair's gap (Wald approximation).",
                       caption=f"{md_escape(pair_a[0])} vs {md_escape(pair_a[1])}; ceiling {fmt_pct(float(assured.ceiling[assured.weakest]))}"))
if result.uses_exact_engine:
    st.info("With two systems this is a head-to-head preference study: the numbers come from the exact sign test "
            "of the Accuracy page.")
    p_top = float(pw.observed_win_rate(pw.win_probability(ratings.max(), ratings.min()), judge_accuracy=judge))
    p_new = round(100 * (1 - tie_rate) * p_top * 2) / 2
    st.page_link("pages/accuracy.py", label="Open it on the Accuracy page", icon=":material/arrow_forward:",
                 query_params={"scenario": "preferences", "n": str(n_votes), "p_new": f"{p_new:.1f}",
                               "ties_pct": f"{min(tie_pct, 90.0):.1f}"})
elif result.weakest_power < target:
    st.warning(f"**Under-powered:** the closest neighbours ({md_escape(weakest[0])} vs {md_escape(weakest[1])}) would be told apart in only "
               f"{fmt_pct(result.weakest_power)} of such leaderboards.")
else:
    st.success(f"**Every pair of neighbours is adequately powered** (≥ {target:.0%}).")

st.page_link("pages/claims.py", label="Claiming several gains at once? See each claim's power after a multiplicity "
             "correction", icon=":material/checklist:")
pins = pin_controls("leaderboard", PIN_KEYS, label=f"{len(ratings)} systems, {n_votes:,} votes")

# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------
plotted: dict[str, pd.DataFrame] = {}
plan_figures: list = []  # the figures shown, for the plan document
tab = views(VIEWS)
high = min(max(n_votes * 10, 2000, int(1.5 * needed) if 0 < needed <= 10_000_000 else 0), pw.MAX_VOTES)
grid = tuple(int(v) for v in pw.vote_grid(high, low=max(20, min(n_votes, max(needed, 1)) // 20), points=41))
grid = tuple(sorted(set(grid) | {n_votes}))
if tab.open("board"):
    with tab["board"], guard("Cannot compute this leaderboard"):
        board_table = table(board, n_votes)
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
        if ties == "split" and tie_rate > 0:
            st.caption("Half-win ties pull the fitted ratings toward the mean (expected_rating), so the intervals "
                       "cover the true ratings less often than 95% (coverage column).")
if tab.open("assurance"):
    with tab["assurance"]:
        if assured is None:
            st.info("Switch on **Average power over a prior on the gaps** in the sidebar: when you are unsure how far "
                    "apart the systems are, the assurance says how likely the neighbours are to be told apart, and its "
                    "ceiling why more votes cannot make up for a vague prior.")
        else:
            with guard("Cannot average over this prior"):
                votes_a = tuple(sorted(set(int(v) for v in pw.vote_grid(max(high, 10 * n_votes), low=max(20, n_votes
                                                                                                   // 20),
                                                                         points=18)) | {n_votes}))
                curve_a = assurance_curve(board, votes_a, gap_sd, assured.weakest)
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
pinned_frames, pinned_rows = pinned_designs(pins, lambda values: pinned(values, grid, target))
pins_table({"pin": "current", "systems": len(ratings), "votes": n_votes, "weakest_power": result.weakest_power,
            "order_correct": result.order_correct, "votes_for_target": needed}, pinned_rows,
           {"weakest_power": st.column_config.NumberColumn("Weakest power", format="percent"),
            "order_correct": st.column_config.NumberColumn("P(order right)", format="percent")})
if tab.open("pairs"):
    with tab["pairs"], guard("Cannot compute this leaderboard"):
        curves = pair_curves(board, grid)
        curves = curves.assign(series=curves["pair"])
        plotted["adjacent_power"] = curves
        pair_args = dict(x="n_votes", y="power", color="series", current=(n_votes, result.weakest_power),
                         target=target,
                         lines=[figures.Line(x=needed, text=f"{target:.0%} on every pair: {needed:,}")]
                         if needed > 0 else [],
                         title="Power of each pair of neighbours vs total votes", x_title="Total votes",
                         y_title="Power", y_range=(0, 1.02), pins=pinned_curve(pinned_frames, "n_votes", "power"))
        chart(figures.curve_figure(curves, **pair_args, style=style()), "pairs_chart")
        plan_figures.append(("Power of each pair of neighbours vs votes", figures.curve_figure(curves, **pair_args)))
        st.caption("The diamond is the weakest pair at the current votes; the closest neighbours set the budget.")
if tab.open("judge"):
    with tab["judge"], guard("Cannot compute this leaderboard"):
        accuracies = tuple(np.round(np.linspace(0.6, 1.0, 5 if result.uses_exact_engine else 17), 3))
        jc = judge_curve(board, accuracies, target)
        plotted["votes_vs_judge"] = jc
        chart(figures.curve_figure(jc.assign(series=f"votes for {target:.0%} on every pair"), x="judge_accuracy",
                                   y="n_votes", color="series", log_x=False, log_y=True, target=None,
                                   current=(judge, needed) if needed > 0 else None, hover_format=",.0f",
                                   x_hover_format=".2f", mode="lines+markers",
                                   title="Votes needed vs how often the judge agrees with the truth",
                                   x_title="Judge accuracy q", y_title="Votes needed", style=style()), "judge_chart")
        st.caption("A judge that agrees 80% of the time shrinks every preference by 2q − 1 = 0.6, so it needs about "
                   "1/0.36 ≈ 2.8 times the votes of a perfect one.")
if tab.open("order"):
    with tab["order"], guard("Cannot compute this leaderboard"):
        oc = order_curve(board, grid)
        plotted["order_correct"] = oc
        chart(figures.curve_figure(oc.assign(series="P(whole order right)"), x="n_votes", y="order_correct",
                                   color="series", current=(n_votes, result.order_correct), target=target,
                                   title="Probability that the whole leaderboard is in the true order",
                                   x_title="Total votes", y_title="Probability", y_range=(0, 1.02), style=style()),
              "order_chart")
        st.caption("Getting every position right is harder than telling each pair of neighbours apart: all K − 1 "
                   "comparisons must come out right at once.")
with tab["fit"]:
    # the uploader is always rendered (hidden under another tab) so an upload survives a tab switch
    source = st.radio("Votes", ["upload", "sample"], horizontal=True, key="votes_source",
                      format_func={"upload": "upload past votes", "sample": "synthetic sample votes"}.get,
                      help="A table with columns model_a, model_b, winner (model_a, model_b, tie or 'tie (bothbad)'), "
                      "as in public arena exports: CSV, JSONL or a JSON list.")
    votes = origin = None
    with guard("Cannot read these votes", stop=False):
        if source == "upload":
            up = st.file_uploader("Votes file", type=["csv", "tsv", "txt", "json", "jsonl"], key="votes_file",
                                  help="Arena exports (model_a, model_b, winner) or AlpacaEval annotations.json "
                                  "(generator_1, generator_2, preference). Nothing in the file is executed.")
            more = st.file_uploader("More vote files (optional; e.g. one AlpacaEval annotations.json per model)",
                                    type=["csv", "tsv", "txt", "json", "jsonl"], key="more_votes",
                                    accept_multiple_files=True, help="All files together make one vote table.")
            if up is not None and more:
                files = ((up.name, up.getvalue()),) + tuple((f.name, f.getvalue()) for f in more)
                votes, origin = read_many_votes(files), f"{len(files)} files"
            elif up is not None:
                mapping = vote_columns(up.getvalue())
                votes, origin = read_votes(up.getvalue(), up.name, mapping), up.name
        else:
            votes, origin = read_votes(pw.SAMPLE_VOTES.read_bytes(), "votes.csv"), "the synthetic sample votes"
            st.caption("Synthetic votes among 8 systems (core/data/pairwise_sample), labelled as such.")
    if votes is not None and tab.open("fit"):
        fitted = None
        with guard("Cannot fit these votes", stop=False):
            fitted = fit(votes, ties)
        if fitted is not None:
            for note in fitted.notes:
                st.caption(md_escape(note))
            st.markdown(f"Fitted from {md_escape(origin)}: **{fitted.n_votes:,}** votes ({fitted.n_ties:,} ties) "
                        f"among {len(fitted.models)} systems: {list_of(fitted.models, limit=8)}.")
            shown = fitted.table()
            plotted["fitted"] = shown
            chart(figures.interval_figure([str(m) for m in shown["model"]], shown["rating"],
                                          shown["ci_low"], shown["ci_high"],
                                          title="Fitted leaderboard with 95% bootstrap intervals",
                                          x_title="Rating (Elo, mean 1000)", style=style()), "fit_chart")
            st.dataframe(shown, hide_index=True, width="stretch")
            st.button("Use the fitted ratings in the table", key="use_fit", type="primary", on_click=use_fitted,
                      args=(fitted.ratings,), help="Switches the expected ratings to your table, filled with these "
                      "ratings, so you can plan the next round of votes.")

if tab.open("resolution"):
    with tab["resolution"], guard("Cannot compute the rank resolution"):
        resolved = resolution(tuple(float(p) for p in result.adjacent_power), alpha)
        pair_names = [f"{a} vs {b}" for a, b in result.pairs]  # the chart builders escape labels from data
        m_pairs = len(pair_names)
        counts = {c: int((r.per_comparison >= target).sum()) for c, r in resolved.items()}
        metrics_row(
            Metric("Neighbours told apart, no correction", f"{counts['none']} of {m_pairs}",
                   help=f"Neighbouring pairs whose power reaches {target:.0%} at {n_votes:,} votes, each tested at α."),
            Metric("… with Holm across the pairs", f"{counts['holm']} of {m_pairs}",
                   help="The same after a family-wise (Holm) correction over the neighbouring pairs — what a claim "
                   "that 'the ranking is resolved' needs."),
            Metric("Expected resolved pairs (Holm)", f"{resolved['holm'].expected_rejections:.1f}",
                   se=f"{resolved['holm'].mc_se * m_pairs:.1f}" if resolved["holm"].mc_se > 0 else None,
                   help="Sum over neighbouring pairs of their power under Holm."),
            Metric("P(every neighbour resolved, Holm)", fmt_pct(resolved["holm"].all),
                   help="Probability that every neighbouring pair is significant after the Holm correction."),
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
        st.caption("Each neighbouring pair's power comes from the Bradley–Terry fit (the Leaderboard tab); the "
                   "corrections treat the pairs' tests as independent — adjacent pairs share a system, so this is "
                   "an approximation. Holm with unequal powers is simulated (20,000 families, seed 0).")

# ---------------------------------------------------------------------------
# simulated leaderboards, on demand
# ---------------------------------------------------------------------------
if sim.run:
    st.subheader("Simulated leaderboards")
    key = ("pairwise", n_votes, board, sim.n_sims, sim.seed)

    def run(progress):
        out = board.power(n_votes, method="simulate", n_sims=sim.n_sims, seed=sim.seed)
        progress(1.0)
        return out

    with guard("Cannot simulate this leaderboard"):
        mc = simulation(key, run, text=f"Simulating {sim.n_sims:,} leaderboards…")
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

# ---------------------------------------------------------------------------
# run it sequentially: a head-to-head of the closest neighbours (core.sequential's engine)
# ---------------------------------------------------------------------------
if weakest:
    with guard("Cannot run this design sequentially", stop=False):
        top, low_ = (weakest if ratings[weakest[0]] >= ratings[weakest[1]] else weakest[::-1])
        p_win = float(pw.observed_win_rate(pw.win_probability(ratings[top], ratings[low_]), judge_accuracy=judge))
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

# ---------------------------------------------------------------------------
# the plan, download and explanation
# ---------------------------------------------------------------------------
snippet = leaderboard_snippet(n_votes=n_votes, ratings=dict(board.ratings), tie_rate=tie_rate, ties=ties,
                              judge_accuracy=judge, alpha=alpha, target_power=target,
                              gap_sd=gap_sd if assured is not None else None)
plan_actions(leaderboard_plan.plan_item(
    board, result, n_votes=n_votes, target_power=target, votes_needed=needed,
    ratings_source={"even": "evenly spaced preset", "crowded": "crowded-top preset", "custom": "table on the page"}[
        preset], assurance=assured, delta_sd=gap_sd if assured is not None else None, cost_per_vote=cost_vote,
    currency=currency, figures=tuple(plan_figures), link=current_link(), code=snippet), key="leaderboard")
code_view(snippet, key="leaderboard_code")

# how many votes each adjacent pair needs: a file the vote collection can follow
votes_box = st.expander("Download the vote allocation — votes per pair of neighbours to reach the target",
                        key="alloc_open", on_change="rerun", icon=":material/how_to_vote:")
if votes_box.open:
    with votes_box, guard("Cannot allocate votes for this leaderboard", stop=False):
        alloc = vote_allocation(board.series, target_power=target, tie_rate=tie_rate, ties=ties,
                                judge_accuracy=judge, alpha=alpha)
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
if plotted:
    download_csv(plotted, f"leaderboard_{tab.current}.csv", key="download_curves",
                 label="Download the plotted data (CSV)")
explain(
    """
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
)

"""AppTest tests of the Leaderboard page's rank resolution tab and its link to Many claims."""

from __future__ import annotations

import pandas as pd

from core import pairwise as pw

from .conftest import chart, metrics, open_page


def test_rank_resolution_matches_core():
    at = open_page("leaderboard", {"view": "Rank resolution"})
    assert not at.exception
    ratings = pd.Series(pw.evenly_spaced(6, 25.0), index=pw.system_names(6))
    resolved = pw.rank_resolution(5000, ratings, n_sims=20_000, seed=0)
    none, holm = resolved["none"], resolved["holm"]
    shown = metrics(at)
    assert shown["Neighbours told apart, no correction"] == f"{int((none.per_comparison >= 0.8).sum())} of 5"
    assert shown["… with Holm across the pairs"] == f"{int((holm.per_comparison >= 0.8).sum())} of 5"
    assert shown["Expected resolved pairs (Holm)"] == f"{holm.expected_rejections:.1f}"
    assert shown["P(every neighbour resolved, Holm)"] == f"{100 * holm.all:.1f}%"
    fig = chart(at, "resolution_chart")
    assert {"no correction", "Holm", "Bonferroni"} <= {t.get("name") for t in fig["data"]}
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])


def test_more_votes_resolve_more_pairs_and_page_links_to_claims():
    at = open_page("leaderboard", {"view": "Rank resolution", "votes": "100000"})
    assert not at.exception
    assert metrics(at)["… with Holm across the pairs"] == "5 of 5"
    assert any("claims" in str(link.proto.page) for link in at.get("page_link"))


def test_rank_resolution_shows_names_as_typed():
    """System names reach the chart escaped once (the builders escape labels from data; escaping on the page too
    showed '&amp;')."""
    ratings = ";".join(f"S{i + 1}%26x:{1200 - 25 * i}" for i in range(6))  # names S1&x … in a linked table
    at = open_page("leaderboard", {"view": "Rank resolution", "preset": "custom", "ratings": ratings})
    assert not at.exception
    spec = chart(at, "resolution_chart")
    assert "S1&amp;x vs S2&amp;x" in {str(c) for t in spec["data"] for c in t.get("x", [])}


def test_few_expected_upsets_are_flagged():
    # three systems 500 Elo apart: the Wald approximation asks for 54 votes (≈ 1 upset per pair of neighbours) and
    # claims 80%; simulated leaderboards separate and reach about 64%
    at = open_page("leaderboard", {"preset": "custom", "ratings": "A:1500;B:1000;C:500", "votes": "200"})
    assert not at.exception
    need = pw.leaderboard_votes(pw.evenly_spaced(3, 500.0))
    upsets = pw.expected_upsets(need, pw.evenly_spaced(3, 500.0))
    assert need == 54 and upsets.min() < pw.MIN_UPSETS
    text = [w.value for w in at.warning if "Few upsets expected" in w.value]
    assert text and f"{upsets.min():.1f} at the 54 votes for 80%" in text[0] and "simulation" in text[0]
    # the analytic all-clear is not shown beside it (100% power at 200 votes is what the warning doubts)
    assert not any("adequately powered" in s.value for s in at.success)
    # the page's default (six systems 25 Elo apart, 5,000 votes: ≈ 155 upsets a pair) gets no such warning
    assert not any("Few upsets" in w.value for w in open_page("leaderboard").warning)

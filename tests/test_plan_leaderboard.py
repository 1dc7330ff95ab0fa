"""core.pairwise.plan: the Leaderboard page's plan, checked against core.pairwise's engines.

Oracles: core.pairwise (the analytic engine is tested against simulation; two systems against the exact sign
test of the Accuracy page) and Bradley & Terry (1952)'s win probability 1 / (1 + 10^(−gap/400)).
"""

from __future__ import annotations

import pytest

from core import accuracy as acc
from core import pairwise as pw
from core.pairwise import plan as leaderboard_plan
from core.plan import plan_html


def test_two_systems_use_the_exact_sign_test():
    design = pw.LeaderboardDesign(preset="custom", ratings="A:1050;B:1000", n=3000)
    board = design.board()
    assert board.series.to_dict() == {"A": 1050.0, "B": 1000.0}
    result, needed = board.power(3000), board.votes()
    item = leaderboard_plan.plan_item(design, result, votes_needed=needed)
    p = 1 / (1 + 10 ** (-50 / 400))  # Bradley–Terry win probability
    exact = acc.preference_power(3000, p, 1 - p)  # the sign test on 3,000 decisive votes
    assert abs(result.weakest_power - exact.power) < 1e-9
    assert dict(item.results)["weakest neighbours' power"] == f"{100 * exact.power:.1f}%"
    assert "over the one pair of 2 systems" in item.paragraph
    assert f"takes {needed:,} votes." in item.paragraph
    assert item.test.startswith("exact two-sided sign test")


def test_many_systems_assurance_and_cost():
    design = pw.LeaderboardDesign(preset="even", k=6, gap=25.0, tie_pct=10.0, ties="split", judge_pct=90.0, n=5000,
                                  assure=True, delta_sd=20.0)
    board = design.board()
    assert list(board.series) == list(pw.evenly_spaced(6, 25))
    assert (board.tie_rate, board.ties, board.judge_accuracy) == (0.1, "split", 0.9)
    result, needed = board.power(5000), board.votes()
    assured = board.assurance(5000, 20.0)
    item = leaderboard_plan.plan_item(design, result, votes_needed=needed, assurance=assured, cost_per_vote=0.1,
                                      currency="USD")
    values = dict(item.results)
    assert values["P(whole order right)"] == f"{100 * result.order_correct:.1f}%"
    assert values["weakest neighbours' assurance"] == f"{100 * assured.min_assurance:.1f}%"
    assert values[f"cost of {needed:,} votes"] == f"USD {0.1 * needed:,.2f}"
    assert item.cost == pytest.approx(500.0)
    assert "10% ties (half wins) and a judge agreeing with the true preference 90% of the time" in item.paragraph
    assert {a.name: a.source for a in item.assumptions}["expected ratings (Elo)"] == "evenly spaced preset"
    assert "Wald tests" in item.test and "Leaderboard from pairwise votes" in plan_html([item])


def test_unreachable_and_bad_design():
    design = pw.LeaderboardDesign(preset="custom", ratings="A:1001;B:1000;C:999", n=1000)
    board = design.board()
    item = leaderboard_plan.plan_item(design, board.power(1000), votes_needed=-1)
    assert "With 1,000 pairwise votes" in item.paragraph and item.question.startswith("Can 1,000 pairwise votes")
    assert {a.name: a.source for a in item.assumptions}["expected ratings (Elo)"] == "table on the page"
    assert dict(item.results)["votes for 80% on every pair"] == "not reachable"
    assert "more votes than can be planned here" in item.paragraph
    with pytest.raises(ValueError, match="`design`"):
        leaderboard_plan.plan_item({"A": 1}, None, votes_needed=1)
    with pytest.raises(ValueError, match="`design`"):  # the engine's board: the votes and target are the page's
        leaderboard_plan.plan_item(board, board.power(1000), votes_needed=-1)


def test_plan_reads_votes_target_alpha_and_prior_from_the_design():
    """The page's design holds the votes, α, the target power and the prior SD: the plan states them."""
    design = pw.LeaderboardDesign(preset="crowded", k=5, n=8000, alpha=0.01, target_power=0.9, delta_sd=30.0)
    board = design.board()
    result, needed = board.power(8000), board.votes(target_power=0.9)
    assert result.weakest_power == design.power().weakest_power and needed == design.sample_sizes()
    item = leaderboard_plan.plan_item(design, result, votes_needed=needed, assurance=board.assurance(8000, 30.0))
    assert "With 8,000 pairwise votes" in item.paragraph and "α = 0.01" in item.paragraph
    assert item.alpha == 0.01 and "votes for 90% on every pair" in dict(item.results)
    assert {a.name: a.value for a in item.assumptions}["prior on each adjacent gap"] == "N(table gap, 30²) Elo"
    assert {a.name: a.source for a in item.assumptions}["expected ratings (Elo)"] == "crowded-top preset"

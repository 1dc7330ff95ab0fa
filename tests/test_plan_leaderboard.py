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
    board = pw.Leaderboard({"A": 1050, "B": 1000})
    result, needed = board.power(3000), board.votes()
    item = leaderboard_plan.plan_item(board, result, n_votes=3000, target_power=0.8, votes_needed=needed)
    p = 1 / (1 + 10 ** (-50 / 400))  # Bradley–Terry win probability
    exact = acc.preference_power(3000, p, 1 - p)  # the sign test on 3,000 decisive votes
    assert abs(result.weakest_power - exact.power) < 1e-9
    assert dict(item.results)["weakest neighbours' power"] == f"{100 * exact.power:.1f}%"
    assert "over the one pair of 2 systems" in item.paragraph
    assert f"takes {needed:,} votes." in item.paragraph
    assert item.test.startswith("exact two-sided sign test")


def test_many_systems_assurance_and_cost():
    board = pw.Leaderboard(dict(zip("ABCDEF", pw.evenly_spaced(6, 25))), tie_rate=0.1, ties="split",
                           judge_accuracy=0.9)
    result, needed = board.power(5000), board.votes()
    assured = board.assurance(5000, 20.0)
    item = leaderboard_plan.plan_item(board, result, n_votes=5000, target_power=0.8, votes_needed=needed,
                                      ratings_source="evenly spaced preset", assurance=assured, delta_sd=20.0,
                                      cost_per_vote=0.1, currency="USD")
    values = dict(item.results)
    assert values["P(whole order right)"] == f"{100 * result.order_correct:.1f}%"
    assert values["weakest neighbours' assurance"] == f"{100 * assured.min_assurance:.1f}%"
    assert values[f"cost of {needed:,} votes"] == f"USD {0.1 * needed:,.2f}"
    assert item.cost == pytest.approx(500.0)
    assert "10% ties (half wins) and a judge agreeing with the true preference 90% of the time" in item.paragraph
    assert {a.name: a.source for a in item.assumptions}["expected ratings (Elo)"] == "evenly spaced preset"
    assert "Wald tests" in item.test and "Leaderboard from pairwise votes" in plan_html([item])


def test_unreachable_and_bad_design():
    board = pw.Leaderboard({"A": 1001, "B": 1000, "C": 999})
    item = leaderboard_plan.plan_item(board, board.power(1000), n_votes=1000, target_power=0.8, votes_needed=-1)
    assert dict(item.results)["votes for 80% on every pair"] == "not reachable"
    assert "more votes than can be planned here" in item.paragraph
    with pytest.raises(ValueError, match="`design`"):
        leaderboard_plan.plan_item({"A": 1}, None, n_votes=1, target_power=0.8, votes_needed=1)

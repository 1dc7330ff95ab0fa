"""Runnable plans: the item list, the vote allocation and the worker assignment (core.runnable)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from core import pairwise as pw
from core import runnable as rn


# ---------------------------------------------------------------------------
# item list
# ---------------------------------------------------------------------------
def test_item_list_structure_and_reproducibility():
    frame = rn.item_list(range(1000), 100, seed=3)
    assert list(frame.columns) == ["task", "item"] and len(frame) == 100
    assert frame["item"].is_unique and frame["item"].between(0, 999).all()
    assert frame["item"].is_monotonic_increasing
    again = rn.item_list(range(1000), 100, seed=3)
    assert rn.item_list_json(frame) == rn.item_list_json(again)
    assert frame.to_csv(index=False) == again.to_csv(index=False)
    assert rn.item_list_json(rn.item_list(range(1000), 100, seed=4)) != rn.item_list_json(frame)
    assert json.loads(rn.item_list_json(frame)) == {"benchmark": frame["item"].tolist()}


def test_item_list_is_a_uniform_random_subset_not_the_first_n():
    """Each item is chosen with probability n/N (a simple random sample): over many seeds the inclusion counts
    follow Binomial(seeds, n/N) — checked against the chi-square distribution."""
    seeds, total, n = 400, 50, 10
    counts = np.zeros(total)
    for seed in range(seeds):
        counts[rn.item_list(range(total), n, seed=seed)["item"].to_numpy(dtype=int)] += 1
    expected = seeds * n / total
    chi2 = float(((counts - expected) ** 2 / (expected * (1 - n / total))).sum())
    assert stats.chi2.sf(chi2, total - 1) > 1e-3
    assert rn.item_list(range(total), n, seed=0)["item"].tolist() != list(range(n))


def test_item_list_stratified_balance():
    sizes = [3, 7, 20, 50, 120]
    clusters = np.repeat([f"c{c}" for c in range(len(sizes))], sizes)
    items = [f"q{i}" for i in range(len(clusters))]
    for n in (1, 17, 60, 199, 200):
        frame = rn.item_list(items, n, clusters=clusters, seed=1)
        assert len(frame) == n and frame["item"].is_unique
        got = frame["cluster"].value_counts().reindex([f"c{c}" for c in range(len(sizes))], fill_value=0)
        quota = n * np.array(sizes) / sum(sizes)
        assert np.all(got.to_numpy() >= np.floor(quota)) and np.all(got.to_numpy() <= np.ceil(quota))
        # every chosen item belongs to the cluster it is listed under
        truth = dict(zip(items, clusters))
        assert all(truth[i] == c for i, c in zip(frame["item"], frame["cluster"]))


def test_item_list_json_keyed_by_task_and_harness_command():
    items = [0, 1, 2, 3, 4, 5, 0, 1, 2, 3]
    tasks = ["mmlu_a"] * 6 + ["mmlu_b"] * 4
    frame = rn.item_list(items, 6, clusters=tasks, tasks=tasks, seed=0)
    mapping = json.loads(rn.item_list_json(frame))
    assert set(mapping) == {"mmlu_a", "mmlu_b"}
    assert sum(len(v) for v in mapping.values()) == 6
    assert all(isinstance(v, int) for ids in mapping.values() for v in ids)
    assert all(ids == sorted(ids) for ids in mapping.values())
    command = rn.harness_command(frame)
    assert "--samples" in command and "--limit" not in command and "mmlu_a,mmlu_b" in command
    text = rn.item_list(["who?", "what?", "why?"], 2, seed=0)
    assert rn.harness_command(text) is None
    assert all(isinstance(v, str) for v in json.loads(rn.item_list_json(text))["benchmark"])


@pytest.mark.parametrize("kwargs, match", [
    (dict(items=range(5), n=6), "`n`"), (dict(items=range(5), n=0), "`n`"), (dict(items=[], n=1), "`items`"),
    (dict(items=[1, 1, 2], n=1), "unique"), (dict(items=range(3), n=1, clusters=[1, 2]), "`clusters`"),
])
def test_item_list_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rn.item_list(kwargs.pop("items"), kwargs.pop("n"), **kwargs)


# ---------------------------------------------------------------------------
# vote allocation
# ---------------------------------------------------------------------------
def crowded():
    return pd.Series([1300.0, 1290.0, 1250.0, 1245.0, 1150.0], index=["a", "b", "c", "d", "e"])


def test_vote_allocation_reaches_the_target_on_every_pair():
    alloc = rn.vote_allocation(crowded(), target_power=0.8)
    assert list(alloc[["system_a", "system_b"]].itertuples(index=False, name=None)) == \
        [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")]
    assert alloc["gap_elo"].tolist() == [10.0, 40.0, 5.0, 95.0]
    assert math.isclose(alloc["share"].sum(), 1.0)
    for row in alloc.itertuples():
        pair = crowded()[[row.system_a, row.system_b]]
        # the oracle: the engine's power of the pair at its votes, and one vote fewer falls short
        assert pw.leaderboard_power(row.votes, pair).adjacent_power[0] >= 0.8
        assert row.power >= 0.8
        assert pw.leaderboard_power(row.votes - 1, pair).adjacent_power[0] < 0.8 or \
            pw.leaderboard_votes(pair) < row.votes  # the size from which the exact test's power stays above


def test_vote_allocation_two_systems_matches_the_closed_form():
    """A pair alone, no ties, perfect judge: the exact sign test's n (Card et al. 2020 appendix; scipy binomial)."""
    pair = pd.Series([1030.0, 1000.0], index=["x", "y"])
    votes = int(rn.vote_allocation(pair, target_power=0.8)["votes"].iloc[0])
    p = 1 / (1 + 10 ** (-30 / 400))
    crit = stats.binom.isf(0.025, votes, 0.5)  # reject when wins > crit (two-sided exact test, upper tail)
    assert stats.binom.sf(crit, votes, p) >= 0.79


def test_vote_allocation_monotone_in_gap_and_more_for_close_neighbours():
    gaps = [5.0, 10.0, 20.0, 40.0, 80.0]
    ratings = pd.Series(np.cumsum([1000.0] + gaps)[::-1], index=list("abcdef"))
    alloc = rn.vote_allocation(ratings)
    by_gap = alloc.sort_values("gap_elo")["votes"].to_numpy()
    assert np.all(np.diff(by_gap) < 0)
    # the Wald rule: votes ∝ 1/gap² for small gaps
    small = alloc.set_index("gap_elo")["votes"]
    assert 3.0 < small[5.0] / small[10.0] < 5.0


def test_vote_allocation_reproducible_and_judge_costs_votes():
    one = rn.vote_allocation(crowded())
    assert one.to_csv(index=False) == rn.vote_allocation(crowded()).to_csv(index=False)
    noisy = rn.vote_allocation(crowded(), judge_accuracy=0.9)
    assert (noisy["votes"] > one["votes"]).all()


def test_vote_allocation_rejects_equal_neighbours():
    with pytest.raises(ValueError, match="equal ratings"):
        rn.vote_allocation(pd.Series([1000.0, 1000.0, 900.0], index=list("abc")))


# ---------------------------------------------------------------------------
# worker assignment
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("items, workers, k", [(100, 10, 3), (7, 5, 5), (13, 6, 4), (1, 3, 2), (50, 50, 1)])
def test_worker_assignment_balanced(items, workers, k):
    frame = rn.worker_assignment(items, workers, k, seed=2)
    assert list(frame.columns) == ["item", "worker"] and len(frame) == items * k
    per_item = frame.groupby("item")["worker"].agg(["size", "nunique"])
    assert len(per_item) == items and (per_item["size"] == k).all() and (per_item["nunique"] == k).all()
    load = frame["worker"].value_counts().reindex(range(1, workers + 1), fill_value=0)
    assert load.max() - load.min() <= 1 and load.sum() == items * k
    assert frame["item"].between(1, items).all() and frame["worker"].between(1, workers).all()


def test_worker_assignment_reproducible():
    one = rn.worker_assignment(40, 8, 3, seed=5)
    assert one.to_csv(index=False) == rn.worker_assignment(40, 8, 3, seed=5).to_csv(index=False)
    assert not one.equals(rn.worker_assignment(40, 8, 3, seed=6))


def test_worker_assignment_rejects_more_workers_per_item_than_the_pool():
    with pytest.raises(ValueError, match="`per_item`"):
        rn.worker_assignment(10, 3, 4)

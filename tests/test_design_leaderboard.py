"""LeaderboardDesign (core.pairwise): the Leaderboard page's inputs declared once, with the page's URL keys."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core import pairwise as pw
from core.pairwise import LeaderboardDesign as D

#: The page's widget keys (links in the tests and the README use them): field -> URL key.
PAGE_KEYS = {"preset": "preset", "k": "k", "gap": "gap", "leaders": "leaders", "leader_gap": "lead_gap",
             "ratings": "ratings", "n": "votes", "tie_pct": "ties_pct", "ties": "ties", "judge_pct": "judge",
             "alpha": "alpha", "target_power": "target", "assure": "assure", "delta_sd": "gap_sd"}

CUSTOM = pw.encode_ratings(pd.Series({"A:1": 1210.25, "B;2": 1200.0, "C%": 1000 / 3}), decimals=None)
DESIGNS = [
    D(k=10, gap=40.0, n=20_000, tie_pct=12.0, ties="split", judge_pct=85.5, alpha=0.01, target_power=0.9),
    D(preset="crowded", k=8, gap=30.0, leaders=4, leader_gap=3.0, n=150_000, assure=True, delta_sd=20.0),
    D(preset="custom", ratings=CUSTOM, n=700, alpha=0.1, target_power=0.55),
]


def test_default_design_is_the_page_default():
    d = D.from_params({})
    assert d == D()
    assert (d.preset, d.k, d.gap_elo, d.n, d.tie_rate, d.ties, d.judge_accuracy, d.alpha, d.target_power) == (
        "even", 6, 25.0, 5000, 0.0, "drop", 1.0, 0.05, 0.8)
    pd.testing.assert_series_equal(d.expected_ratings(), pd.Series(pw.evenly_spaced(6, 25.0),
                                                                   index=pw.system_names(6)))
    # the crowded preset starts from its own gap (30 Elo), as the page's slider
    crowded = D.from_params({"preset": "crowded"})
    assert np.allclose(crowded.expected_ratings(), pw.crowded_top(6))


@pytest.mark.parametrize("design", DESIGNS, ids=["even", "crowded", "custom"])
def test_round_trip(design):
    params = design.to_params()
    assert set(params) == set(PAGE_KEYS.values()) and all(isinstance(v, str) for v in params.values())
    assert D.from_params(params) == design


def test_custom_table_keeps_names_and_ratings_exactly():
    d = D.from_params(DESIGNS[2].to_params())
    r = d.expected_ratings()
    assert list(r.index) == ["A:1", "B;2", "C%"] and r.iloc[2] == 1000 / 3
    # the page's link keeps one decimal, as before
    assert pw.encode_ratings(r) == "A%3A1:1210.2;B%3B2:1200.0;C%25:333.3"


@pytest.mark.parametrize("params, name", [
    ({"votes": "many"}, "`n` must be a whole number"),
    ({"votes": "0"}, "`n`"),
    ({"judge": "40"}, "`judge_pct` must be in (50, 100]"),
    ({"ties_pct": "100"}, "`tie_pct` must be in [0, 100)"),
    ({"alpha": "0.2"}, "`alpha` must be one of"),
    ({"target": "1"}, "`target_power` must be in (0, 1)"),
    ({"ties": "coin"}, "`ties` must be one of"),
    ({"k": "101"}, "`k`"),
    ({"k": "20", "gap": "200"}, "`gap` must be at most"),  # 19 × 200 Elo is beyond the 2,000-Elo span
    ({"preset": "custom", "ratings": "A:1000"}, "`ratings` must list between 2 and 100 systems"),
])
def test_bad_values_fall_back_with_a_message_naming_the_parameter(params, name):
    notes = []
    d = D.from_params(params, messages=notes)
    assert len(notes) == 1 and name in notes[0] and "the default" in notes[0]
    bad = [k for k in params if k not in ("preset", "k")] or ["k"]
    assert all(d.to_params()[k] == D().to_params()[k] for k in bad)


def test_fields_have_units_and_the_page_keys():
    assert {f.name: f.key for f in D.fields()} == PAGE_KEYS
    assert all(isinstance(f.unit, str) for f in D.fields())
    units = {f.name: f.unit for f in D.fields()}
    assert (units["n"], units["gap"], units["tie_pct"], units["judge_pct"], units["delta_sd"]) == (
        "votes", "Elo", "%", "%", "Elo")
    # the page's widget ranges (sliders' ends) lie inside the valid ranges
    for f in D.fields():
        if f.kind in ("int", "float") and f.ui_low is not None:
            assert f.low <= f.ui_low
        if f.kind in ("int", "float") and f.ui_high is not None:
            assert f.ui_high <= f.high


@pytest.mark.parametrize("changes, name", [
    ({"n": 0}, "n"), ({"n": pw.MAX_VOTES + 1}, "n"), ({"tie_pct": 100.0}, "tie_pct"), ({"tie_pct": -0.1}, "tie_pct"),
    ({"judge_pct": 50.0}, "judge_pct"), ({"judge_pct": 100.5}, "judge_pct"), ({"target_power": 1.0}, "target_power"),
    ({"target_power": 0.0}, "target_power"), ({"delta_sd": 2000.5}, "delta_sd"), ({"delta_sd": -1.0}, "delta_sd"),
    ({"k": 1}, "k"), ({"k": 101}, "k"), ({"leaders": 0}, "leaders"), ({"gap": 400.5}, "gap"),
    ({"alpha": 0.03}, "alpha"),
])
def test_just_outside_the_range_is_refused(changes, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        D(**changes)


def test_the_extremes_inside_are_accepted_by_the_engine():
    r = pw.evenly_spaced(6, 25.0)
    for n in (1, pw.MAX_VOTES):
        assert 0 <= D(n=n).power().weakest_power <= 1
        assert pw.leaderboard_power(n, r).weakest_power == D(n=n).power().weakest_power
    for tie_pct, judge_pct in ((99.9, 50.5), (0.0, 100.0)):
        d = D(tie_pct=tie_pct, judge_pct=judge_pct)
        assert d.power().weakest_power == pw.leaderboard_power(5000, r, tie_rate=tie_pct / 100,
                                                               judge_accuracy=judge_pct / 100).weakest_power
    for alpha in (0.001, 0.1):
        assert D(alpha=alpha).power().weakest_power == pw.leaderboard_power(5000, r, alpha=alpha).weakest_power
    for target in (0.01, 0.99):
        assert D(target_power=target).sample_sizes() == pw.leaderboard_votes(r, target_power=target)
    assert D(delta_sd=2000.0).assurance().min_assurance == pw.leaderboard_assurance(5000, r, 2000.0).min_assurance
    assert D(k=6, gap=400.0).board().series.max() - D(k=6, gap=400.0).board().series.min() == 2000.0
    assert len(D(k=100, gap=20.0).board().ratings) == 100  # the engine's most systems


def test_methods_delegate_to_the_engines():
    d = D(preset="crowded", k=5, gap=40.0, leaders=2, leader_gap=10.0, n=3000, tie_pct=10.0, judge_pct=90.0,
          alpha=0.01, target_power=0.85, delta_sd=30.0)
    r = pd.Series(pw.crowded_top(5, leaders=2, leader_gap=10.0, gap=40.0), index=pw.system_names(5))
    kw = dict(tie_rate=0.1, ties="drop", judge_accuracy=0.9, alpha=0.01)
    res, ref = d.power(), pw.leaderboard_power(3000, r, **kw)
    assert np.array_equal(res.adjacent_power, ref.adjacent_power) and res.order_correct == ref.order_correct
    assert d.power(800).weakest_power == pw.leaderboard_power(800, r, **kw).weakest_power
    assert d.sample_sizes() == pw.leaderboard_votes(r, target_power=0.85, **kw)
    assert d.sample_sizes(0.5) == pw.leaderboard_votes(r, target_power=0.5, **kw)
    a, b = d.assurance(), pw.leaderboard_assurance(3000, r, 30.0, **kw)
    assert np.array_equal(a.assurance, b.assurance)
    pd.testing.assert_frame_equal(d.table(), pw.leaderboard_table(r, 3000, tie_rate=0.1, judge_accuracy=0.9))
    votes = [500, 3000, 20_000]
    pd.testing.assert_frame_equal(d.curves(votes), pw.adjacent_power_curve(r, votes, **kw))
    pd.testing.assert_frame_equal(d.order_curve(votes), pw.order_correct_curve(r, votes, tie_rate=0.1,
                                                                               judge_accuracy=0.9))
    pd.testing.assert_frame_equal(d.judge_curve([0.7, 1.0]),
                                  pw.votes_vs_judge(r, [0.7, 1.0], target_power=0.85, tie_rate=0.1, alpha=0.01))
    sim = d.power(method="simulate", n_sims=200, seed=3)
    assert np.array_equal(sim.adjacent_power, pw.leaderboard_power(3000, r, **kw, method="simulate", n_sims=200,
                                                                   seed=3).adjacent_power)


def test_designs_are_cache_keys():
    assert hash(D()) == hash(D.from_params({})) and D() != D(n=5001)
    assert D().with_(n=20_000) == D(n=20_000)


def test_rank_resolution_draws_the_neighbours_gaps_jointly():
    # oracle: the Bradley–Terry Fisher information written out here (votes shared equally over the 15 pairs,
    # H = Σ n_pair·p(1 − p)·(e_i − e_j)(e_i − e_j)ᵀ), the adjacent gaps' covariance A·H⁺·Aᵀ, families drawn by
    # scipy and corrected by statsmodels' Holm; a pair counts when significant in the true order's direction
    from itertools import combinations

    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    d = D(k=6, gap=25.0, n=5000)
    got = d.resolution(n_sims=40_000, seed=1)
    k, n, s = 6, 5000, np.log(10) / 400
    r = np.array(pw.evenly_spaced(k, 25.0))
    h = np.zeros((k, k))
    for i, j in combinations(range(k), 2):
        p = 1 / (1 + np.exp(-s * (r[i] - r[j])))
        e = np.zeros(k)
        e[i], e[j] = 1, -1
        h += n / 15 * p * (1 - p) * np.outer(e, e)
    a = np.zeros((k - 1, k))
    a[np.arange(k - 1), np.arange(k - 1)], a[np.arange(k - 1), np.arange(1, k)] = 1, -1
    cov = a @ np.linalg.pinv(h) @ a.T
    assert cov[0, 1] / cov[0, 0] == pytest.approx(-0.5, abs=0.05)  # neighbouring gaps share a system
    draws = stats.multivariate_normal(s * 25.0 * np.ones(k - 1), cov).rvs(40_000, random_state=7)
    z = draws / np.sqrt(np.diag(cov))
    pv = 2 * stats.norm.sf(np.abs(z))
    def holm_row(row):  # Holm (1979) as written: step down the sorted p-values, stop at the first miss
        out, m = np.zeros(row.size, bool), row.size
        for rank, j in enumerate(np.argsort(row)):
            if row[j] > 0.05 / (m - rank):
                break
            out[j] = True
        return out

    holm = np.array([holm_row(row) for row in pv[:8000]])
    for row, mine in zip(pv[:40], holm[:40]):  # the written-out Holm is statsmodels' (slow: 40 rows)
        assert np.array_equal(multipletests(row, alpha=0.05, method="holm")[0], mine)
    holm &= z[:8000] > 0
    none = (pv <= 0.05) & (z > 0)

    def se(q, size):
        return np.sqrt(q * (1 - q) / size)

    assert got["holm"].all == pytest.approx(holm.all(axis=1).mean(), abs=4 * (se(0.01, 40_000) + se(0.01, 8000)))
    np.testing.assert_allclose(got["holm"].per_comparison, holm.mean(axis=0),
                               atol=4 * (se(0.45, 40_000) + se(0.45, 8000)))
    np.testing.assert_allclose(got["none"].per_comparison, none.mean(axis=0), atol=4 * np.sqrt(2) * se(0.6, 40_000))
    # each pair uncorrected is the Leaderboard tab's power; independent tests would say P(all resolved, Holm)
    # ≈ 6%, the joint draws well under 2%
    np.testing.assert_allclose(got["none"].per_comparison, d.power().adjacent_power, atol=4 * se(0.6, 40_000))
    assert got["holm"].all < 0.02 and got["holm"].all <= got["none"].all
    assert got["holm"].any == got["bonferroni"].any  # Holm rejects something exactly when Bonferroni does
    assert all(v.method == "simulate" and v.n_sims == 40_000 for v in got.values())
    # two systems: one pair, nothing to correct, the exact engine's power
    two = D(k=2, gap=25.0, n=5000)
    assert {v.method for v in two.resolution().values()} == {"exact"}
    assert two.resolution()["holm"].all == pytest.approx(float(two.power().adjacent_power[0]))


def test_rank_resolution_refuses_bad_arguments_by_name():
    with pytest.raises(ValueError, match="`corrections`"):
        D().resolution(corrections=("hochberg",))
    with pytest.raises(ValueError, match="`n_sims`"):
        D().resolution(n_sims=10)
    with pytest.raises(ValueError, match="`seed`"):
        D().resolution(seed="x")


def test_a_ratings_table_naming_a_system_twice_is_refused_not_merged():
    # a dict kept the last rating of each name: "A:1000;A:1010;B:990" became two systems, and the design said so
    # only as "got 1"/"2 systems" far from the cause
    with pytest.raises(ValueError, match=r"name a system more than once \('A'\)"):
        pw.decode_ratings("A:1000;A:1010;B:990")
    messages = []
    d = D.from_params({"preset": "custom", "ratings": "A:1000;A:1010;B:990"}, messages=messages)
    assert d.ratings is None and any("more than once" in m for m in messages)


def test_the_home_cards_spacing_reads_without_a_negative_zero():
    from core.pairwise.teaser import _spacing
    d = D(preset="crowded", leader_gap=0.0)
    assert _spacing(d, d.expected_ratings()) == "0 to 30 Elo apart"  # was "-0 to 30 Elo apart"
    d = D(preset="crowded")
    assert _spacing(d, d.expected_ratings()) == "5 to 30 Elo apart"


@pytest.mark.parametrize("text", ["", "   ", "none", "NULL", " None "])
def test_an_empty_ratings_table_is_no_table_and_survives_a_link(text):
    # regression: D(ratings="") wrote `ratings=` into its link, which reads back as None: the round trip changed it
    for preset in ("even", "custom"):
        d = D(preset=preset, ratings=text)
        assert d.ratings is None and d == D(preset=preset)
        assert D.from_params(d.to_params()) == d
    table = D(preset="custom", ratings=" A:1025;B:1000 ")  # trimmed, as a link reads it
    assert table.ratings == "A:1025;B:1000" and D.from_params(table.to_params()) == table

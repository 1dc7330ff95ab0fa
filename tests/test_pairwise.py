"""Tests of core.pairwise (leaderboards from pairwise votes) against independent oracles.

Oracles: the spread of simulated maximum-likelihood fits (for the expected
Fisher-information and sandwich covariances), the Accuracy page's exact
preference engine (K = 2 *is* that engine), brute-force enumeration of the
multinomial vote distribution, closed forms (equal systems, two systems,
judge attenuation), statsmodels ``Logit`` on the expanded votes (the fit and
its standard errors), scipy's multivariate normal CDF (Genz's algorithm, for
P(order correct)), and simulated null leaderboards (calibration).
"""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats

from core import accuracy as acc
from core import pairwise as pw
from core.results import PowerResult

S = math.log(10) / 400


def _logit_gap(p):
    return math.log(p / (1 - p)) / S


# ---------------------------------------------------------------------------
# model helpers and closed forms
# ---------------------------------------------------------------------------
def test_win_probability_is_the_elo_formula():
    for d in (-400, -35, 0, 10, 200, 800):
        assert pw.win_probability(1000 + d, 1000) == pytest.approx(1 / (1 + 10 ** (-d / 400)), rel=1e-13)
    grid = pw.win_probability(np.array([1000, 1100]), np.array([[1000], [900]]))
    assert grid.shape == (2, 2)


def test_judge_attenuation_closed_form():
    p = np.linspace(0, 1, 11)
    for q in (0.0, 0.3, 0.5, 0.75, 1.0):
        # the judge reports the truly preferred side with probability q
        assert np.allclose(pw.observed_win_rate(p, judge_accuracy=q), q * p + (1 - q) * (1 - p), atol=1e-15)
    assert np.allclose(pw.observed_win_rate(p, judge_accuracy=0.5), 0.5)
    assert pw.observed_win_rate(0.9, judge_accuracy=0.2) < 0.5  # below ½ the judge reverses
    with pytest.raises(ValueError, match="`judge_accuracy`"):
        pw.observed_win_rate(0.6, judge_accuracy=1.2)
    with pytest.raises(ValueError, match="`p`"):
        pw.observed_win_rate([0.2, 1.5], judge_accuracy=0.8)


def test_judge_attenuation_in_simulated_votes():
    q, t = 0.75, 0.2
    votes = pw.simulate_votes({"x": 1100, "y": 1000}, 40_000, tie_rate=t, judge_accuracy=q, seed=3)
    a_is_x = votes["model_a"] == "x"
    decided = votes["winner"].isin(["model_a", "model_b"])
    x_won = (a_is_x & (votes["winner"] == "model_a")) | (~a_is_x & (votes["winner"] == "model_b"))
    share = x_won[decided].mean()
    p_obs = 0.5 + (2 * q - 1) * (pw.win_probability(1100, 1000) - 0.5)
    assert abs(share - p_obs) <= 4 * math.sqrt(p_obs * (1 - p_obs) / decided.sum())
    assert abs((~decided).mean() - t) <= 4 * math.sqrt(t * (1 - t) / len(votes))


def test_two_systems_closed_forms():
    """K = 2: the fit converges to logit(p')/s (drop) or logit(½ + (1-t)(p'-½))/s (half); known variance."""
    p = pw.win_probability(1080, 1000)
    for ties, t, q in (("drop", 0.0, 1.0), ("drop", 0.3, 0.8), ("split", 0.3, 1.0), ("split", 0.2, 0.7)):
        r = pw.leaderboard_power(1000, [1000, 1080], tie_rate=t, ties=ties, judge_accuracy=q)
        p_obs = 0.5 + (2 * q - 1) * (p - 0.5)
        target = p_obs if ties == "drop" else 0.5 + (1 - t) * (p_obs - 0.5)
        gap = r.expected_ratings[1] - r.expected_ratings[0]
        assert gap == pytest.approx(_logit_gap(target), rel=1e-9)
        assert r.expected_ratings.mean() == pytest.approx(1040)
    # no ties, perfect judge: Var(β̂_1 - β̂_2) = 1 / (N p (1-p)); each rating relative to the mean has a quarter
    n = 2_500
    r = pw.leaderboard_power(n, [1080, 1000])
    half = stats.norm.isf(0.025) * math.sqrt(1 / (4 * n * p * (1 - p))) / S
    assert r.ci_halfwidth == pytest.approx([half, half], rel=1e-9)


def test_equal_systems_covariance_closed_form():
    """K equal systems, n per pair: H = (n/4)(K I - 11ᵀ), so Var(rating - mean) = (1 - 1/K) · 4/(nK) logit²."""
    k, n_pair = 5, 400
    cov = pw.rating_covariance(n_pair * k * (k - 1) // 2, [1000.0] * k)
    expected = (1 - 1 / k) * 4 / (n_pair * k) / S**2
    assert np.allclose(np.diag(cov), expected, rtol=1e-9)
    assert np.allclose(cov.to_numpy().sum(axis=1), 0, atol=1e-9)  # ratings relative to their mean
    r = pw.leaderboard_power(n_pair * 10, [1000.0] * k)
    assert np.allclose(r.adjacent_power, 0.05)  # equal ratings: the rejection rate, exactly α
    assert math.isnan(r.order_correct)  # no true order


def test_drop_with_a_perfect_judge_is_plain_fisher():
    ratings = [1150, 1100, 1090, 1000, 940]
    r = pw.leaderboard_power(5_000, ratings, tie_rate=0.25)
    assert np.allclose(r.expected_ratings, ratings, atol=1e-7)
    sampling = pw.rating_covariance(5_000, ratings, tie_rate=0.25)
    reported = pw.rating_covariance(5_000, ratings, tie_rate=0.25, which="reported")
    assert np.allclose(sampling, reported, rtol=1e-9, atol=1e-12)
    assert np.allclose(r.coverage, 0.95, atol=1e-9)


def test_half_shrinks_ratings_by_about_one_minus_t():
    t = 0.4
    r = pw.leaderboard_power(5_000, pw.evenly_spaced(6, 4.0), tie_rate=t, ties="split")
    shrink = np.diff(r.expected_ratings) / np.diff(r.ratings)
    assert np.allclose(shrink, 1 - t, rtol=2e-3)
    drop = pw.leaderboard_power(5_000, pw.evenly_spaced(6, 4.0), tie_rate=t, ties="drop")
    assert np.allclose(r.ci_halfwidth / drop.ci_halfwidth, 1 - t, rtol=5e-3)  # narrower by the same factor
    assert np.allclose(r.adjacent_power, drop.adjacent_power, rtol=5e-3)  # same power to first order


def test_presets_and_grid():
    assert pw.evenly_spaced(3, 40, top=1000).tolist() == [1000, 960, 920]
    assert pw.crowded_top(5, leaders=2, leader_gap=3, gap=20, top=1100).tolist() == [1100, 1097, 1077, 1057, 1037]
    grid = pw.vote_grid(50_000, low=500, points=30)
    assert grid[0] == 500 and grid[-1] == 50_000 and np.all(np.diff(grid) > 0)
    assert pw.system_names(2) == ("S1", "S2")


# ---------------------------------------------------------------------------
# analytic covariance against the spread of simulated MLEs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ties, tie_rate, judge", [("drop", 0.0, 1.0), ("drop", 0.3, 0.8), ("split", 0.3, 1.0)])
def test_fisher_covariance_matches_simulated_mles(ties, tie_rate, judge):
    ratings = [1120, 1080, 1060, 990, 950]
    n, reps = 8_000, 3_000
    fits = pw.simulate_fits(n, ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge, n_sims=reps, seed=11)
    emp = np.cov(fits, rowvar=False)
    theory = pw.rating_covariance(n, ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge).to_numpy()
    d = np.sqrt(np.diag(theory))
    # sampling error of a covariance estimate: Var(s_ij) ≈ (σ_ii σ_jj + σ_ij²)/(R - 1)
    se = np.sqrt((np.outer(d, d) ** 2 + theory**2) / (reps - 1))
    assert np.all(np.abs(emp - theory) <= 4.5 * se + 0.03 * np.outer(d, d)), (emp, theory)
    # the estimates centre on the pseudo-true ratings (shrunk under "split" and by a noisy judge)
    expected = pw.leaderboard_power(n, ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge).expected_ratings
    assert np.all(np.abs(fits.mean(axis=0) - expected) <= 4 * d / math.sqrt(reps) + 0.3)


# ---------------------------------------------------------------------------
# K = 2 is the Accuracy page's exact engine
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n, gap, t, q, ties", [(200, 50, 0.2, 1.0, "drop"), (57, 120, 0.0, 1.0, "drop"),
                                                (400, 30, 0.3, 0.85, "split"), (1_000, 0, 0.1, 1.0, "drop")])
def test_two_systems_use_the_exact_preference_engine(n, gap, t, q, ties):
    ratings = {"worse": 1000.0, "better": 1000.0 + gap}  # worse listed first: the engine must orient A = better
    r = pw.leaderboard_power(n, ratings, tie_rate=t, ties=ties, judge_accuracy=q, method="simulate")
    p_obs = 0.5 + (2 * q - 1) * (pw.win_probability(1000 + gap, 1000) - 0.5)
    ref = acc.preference_power(n, (1 - t) * p_obs, (1 - t) * (1 - p_obs), alpha=0.05, ties="drop")
    assert r.engine == "exact" and r.uses_exact_engine and r.n_sims == 0
    assert isinstance(r.exact, PowerResult)
    # the same engine on the same cells: equal up to the last bits of p' (computed along another route here)
    assert r.adjacent_power[0] == r.exact.power == pytest.approx(ref.power, rel=1e-12, abs=1e-14)
    assert r.exact.type_m == pytest.approx(ref.type_m, rel=1e-9, nan_ok=True) and r.mc_se[0] == 0
    if gap:
        assert r.pairs == [("better", "worse")]
    curve = pw.adjacent_power_curve(ratings, [n, 2 * n], tie_rate=t, ties=ties, judge_accuracy=q)
    assert curve["power"].iloc[0] == pytest.approx(ref.power, abs=1e-12)
    if gap >= 50:  # (the exact sample-size search takes about a second for small gaps)
        assert pw.leaderboard_votes(ratings, tie_rate=t, judge_accuracy=q, ties=ties) == acc.preference_sample_size(
            (1 - t) * p_obs, (1 - t) * (1 - p_obs))
        assert pw.leaderboard_votes(ratings, tie_rate=t, judge_accuracy=q, conservative=True) == \
            acc.preference_sample_size((1 - t) * p_obs, (1 - t) * (1 - p_obs), conservative=True)
    elif gap == 0:
        assert pw.leaderboard_votes(ratings, tie_rate=t) == -1


def test_two_systems_order_correct_by_enumeration():
    n, t = 30, 0.25
    p = pw.win_probability(1060, 1000)
    total = 0.0
    for w in range(n + 1):
        for l_ in range(n + 1 - w):
            if w > l_:
                total += stats.multinomial.pmf([w, l_, n - w - l_], n, [(1 - t) * p, (1 - t) * (1 - p), t])
    r = pw.leaderboard_power(n, [1060, 1000], tie_rate=t)
    assert r.order_correct == pytest.approx(total, abs=1e-12)
    curve = pw.order_correct_curve([1060, 1000], [n], tie_rate=t)
    assert curve["order_correct"].iloc[0] == pytest.approx(total, abs=1e-12)


# ---------------------------------------------------------------------------
# analytic engine against simulation; null calibration
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ties, tie_rate, judge", [("drop", 0.2, 1.0), ("split", 0.3, 1.0), ("drop", 0.1, 0.8)])
def test_analytic_power_matches_simulation(ties, tie_rate, judge):
    ratings = pw.crowded_top(8, leaders=3, leader_gap=15, gap=35)
    n = 12_000
    ana = pw.leaderboard_power(n, ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge)
    sim = pw.leaderboard_power(n, ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge, method="simulate",
                               n_sims=2_000, seed=5)
    assert sim.engine == "simulate" and sim.n_sims == 2_000 and ana.engine == "fisher"
    assert np.all(np.abs(sim.adjacent_power - ana.adjacent_power) <= 4 * sim.mc_se + 0.025)
    assert abs(sim.order_correct - ana.order_correct) <= 4 * sim.order_correct_mc_se + 0.03
    assert np.allclose(sim.ci_halfwidth, ana.ci_halfwidth, rtol=0.03)
    assert np.all(np.abs(sim.coverage - ana.coverage) <= 4 * np.sqrt(0.25 / 2_000) + 0.02)


def test_half_intervals_undercover_the_true_ratings():
    r = pw.leaderboard_power(20_000, pw.evenly_spaced(6, 40), tie_rate=0.3, ties="split", method="simulate",
                             n_sims=1_000, seed=2)
    assert r.coverage[0] < 0.5 and r.coverage[-1] < 0.5  # extremes are pulled toward the mean
    drop = pw.leaderboard_power(20_000, pw.evenly_spaced(6, 40), tie_rate=0.3, method="simulate", n_sims=1_000,
                                seed=2)
    assert np.all(np.abs(drop.coverage - 0.95) <= 4 * math.sqrt(0.95 * 0.05 / 1_000) + 0.01)


@pytest.mark.parametrize("ties, tie_rate", [("drop", 0.0), ("split", 0.3)])
def test_null_calibration(ties, tie_rate):
    reps, alpha = 4_000, 0.05
    r = pw.leaderboard_power(3_000, [1000.0] * 6, tie_rate=tie_rate, ties=ties, alpha=alpha, method="simulate",
                             n_sims=reps, seed=9)
    se = math.sqrt(alpha * (1 - alpha) / reps)
    assert np.all(r.adjacent_power <= alpha + 3 * se), r.adjacent_power
    assert np.all(r.adjacent_power >= alpha - 4 * se)
    assert math.isnan(r.order_correct)
    ana = pw.leaderboard_power(3_000, [1000.0] * 6, tie_rate=tie_rate, ties=ties, alpha=alpha)
    assert np.allclose(ana.adjacent_power, alpha, atol=1e-9)


def test_order_correct_against_scipy_multivariate_normal():
    ratings = pw.crowded_top(12, leaders=4, leader_gap=10, gap=30)
    n = 60_000
    r = pw.leaderboard_power(n, ratings, tie_rate=0.2, judge_accuracy=0.9)
    cov = pw.rating_covariance(n, ratings, tie_rate=0.2, judge_accuracy=0.9).to_numpy()
    order = r.order
    adj = np.zeros((11, 12))
    adj[np.arange(11), order[:-1]] = 1
    adj[np.arange(11), order[1:]] = -1
    mean = adj @ r.expected_ratings
    oracle = stats.multivariate_normal(mean=-mean, cov=adj @ cov @ adj.T).cdf(np.zeros(11),
                                                                              rng=np.random.default_rng(0))
    assert 0.2 < oracle < 0.9
    assert abs(r.order_correct - oracle) <= 4 * r.order_correct_mc_se + 2e-3
    assert r.order_correct_mc_se < 5e-3


def test_simulation_with_too_few_votes_reports_separation():
    r = pw.leaderboard_power(40, pw.evenly_spaced(10, 60), method="simulate", n_sims=200, seed=1)
    assert 0 < r.separated <= 1
    assert np.all(np.isfinite(r.adjacent_power)) and np.all((r.adjacent_power >= 0) & (r.adjacent_power <= 1))
    assert np.all(np.isfinite(r.ci_halfwidth))


def test_simulation_is_reproducible():
    a = pw.leaderboard_power(5_000, pw.evenly_spaced(5, 30), method="simulate", n_sims=300, seed=4)
    b = pw.leaderboard_power(5_000, pw.evenly_spaced(5, 30), method="simulate", n_sims=300, seed=4)
    assert np.array_equal(a.adjacent_power, b.adjacent_power) and a.order_correct == b.order_correct


# ---------------------------------------------------------------------------
# votes needed and page curves
# ---------------------------------------------------------------------------
def test_votes_needed_is_the_smallest_total():
    ratings = pw.crowded_top(10)
    for kw in ({}, {"tie_rate": 0.3, "judge_accuracy": 0.85}, {"tie_rate": 0.2, "ties": "split"}):
        n = pw.leaderboard_votes(ratings, target_power=0.8, **kw)
        assert pw.leaderboard_power(n, ratings, **kw).weakest_power >= 0.8
        assert pw.leaderboard_power(n - 1, ratings, **kw).weakest_power < 0.8
    n = pw.leaderboard_votes(ratings, halfwidth=15)
    assert pw.leaderboard_power(n, ratings).ci_halfwidth.max() <= 15
    assert pw.leaderboard_power(n - 1, ratings).ci_halfwidth.max() > 15
    assert pw.leaderboard_votes([1000, 1000, 990]) == -1  # equal neighbours are never told apart
    assert pw.leaderboard_votes(ratings, n_max=1_000) == -1


def test_votes_needed_scale_with_judge_attenuation():
    """Small gaps: the information scales with (2q - 1)², so votes with 1/(2q - 1)²."""
    table = pw.votes_vs_judge(pw.evenly_spaced(6, 3.0), [1.0, 0.9, 0.8, 0.7])
    assert table["n_votes"].is_monotonic_increasing
    assert np.allclose(table["relative"], 1 / (2 * table["judge_accuracy"] - 1) ** 2, rtol=0.01)


def test_curves_agree_with_single_points():
    ratings = pw.crowded_top(7)
    votes = pw.vote_grid(200_000, low=1_000, points=25)
    curve = pw.adjacent_power_curve(ratings, votes, tie_rate=0.1)
    assert len(curve) == 6 * len(votes)
    assert list(curve.columns) == ["pair", "upper", "lower", "gap", "n_votes", "power"]
    for _, block in curve.groupby("pair"):
        assert block["power"].is_monotonic_increasing
    order = pw.order_correct_curve(ratings, votes, tie_rate=0.1)
    assert order["order_correct"].is_monotonic_increasing  # common random numbers across the grid
    point = pw.leaderboard_power(int(votes[10]), ratings, tie_rate=0.1)
    at = curve[curve["n_votes"] == votes[10]]["power"].to_numpy()
    assert np.allclose(at, point.adjacent_power)
    assert order["order_correct"].iloc[10] == pytest.approx(point.order_correct)
    table = pw.leaderboard_table(ratings, int(votes[10]), tie_rate=0.1)
    assert list(table["system"]) == [f"S{i}" for i in range(1, 8)]
    assert np.allclose(table["ci_high"] - table["ci_low"], 2 * table["halfwidth"])
    pd.testing.assert_frame_equal(table, point.systems_table())
    assert list(point.pairs_table()["pair"]) == [f"S{i} vs S{i + 1}" for i in range(1, 7)]


def test_names_follow_the_input():
    ratings = pd.Series({"beta": 1010.0, "alpha": 1100.0, "gamma": 900.0})
    r = pw.leaderboard_power(3_000, ratings)
    assert r.systems == ("beta", "alpha", "gamma")
    assert r.pairs == [("alpha", "beta"), ("beta", "gamma")]
    assert r.gaps.tolist() == [90.0, 110.0]
    assert r.weakest_pair == ("alpha", "beta")


@pytest.mark.parametrize("call, name", [
    (lambda: pw.leaderboard_power(1000, [1000, 990], tie_rate=1.0), "tie_rate"),
    (lambda: pw.leaderboard_power(1000, [1000]), "ratings"),
    (lambda: pw.leaderboard_power(1000, [1000, "x"]), "ratings[1]"),
    (lambda: pw.leaderboard_power(1000, [1000, 990], alpha=0.6), "alpha"),
    (lambda: pw.leaderboard_power(1000, [1000, 990], alpha=0.0), "alpha"),
    (lambda: pw.leaderboard_power(1000, [1000, 990], judge_accuracy=0.5), "judge_accuracy"),
    (lambda: pw.leaderboard_power(0, [1000, 990]), "n_votes"),
    (lambda: pw.leaderboard_power(1000, [1000, 990], ties="halves"), "ties"),
    (lambda: pw.leaderboard_power(1000, [1000, 990, 980], method="exact"), "method"),
    (lambda: pw.leaderboard_power(1000, [1000, 990, 980], method="simulate", n_sims=5), "n_sims"),
    (lambda: pw.leaderboard_power(1000, [3000, 990]), "ratings"),
    (lambda: pw.leaderboard_votes([1000, 990], target_power=1.0), "target_power"),
    (lambda: pw.leaderboard_votes([1000, 990], halfwidth=0), "halfwidth"),
    (lambda: pw.fit_bradley_terry(pd.DataFrame({"model_a": ["x"], "model_b": ["y"], "winner": ["model_a"]}),
                                  ties="coin"), "ties"),
    (lambda: pw.fit_bradley_terry(pd.DataFrame({"model_a": ["x"], "model_b": ["y"], "winner": ["model_a"]}),
                                  n_boot=-1), "n_boot"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`".replace("[", r"\[").replace("]", r"\]")):
        call()


# ---------------------------------------------------------------------------
# fitting votes
# ---------------------------------------------------------------------------
def _votes(truth: dict, n: int, t: float, seed: int) -> pd.DataFrame:
    """Independent generator: every vote draws a random pair and outcome."""
    rng = np.random.default_rng(seed)
    names = list(truth)
    k = len(names)
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    r = np.array([truth[m] for m in names])
    p = 1 / (1 + 10 ** ((r[b] - r[a]) / 400))
    u = rng.random(n)
    winner = np.where(u < t, "tie", np.where(rng.random(n) < p, "model_a", "model_b"))
    return pd.DataFrame({"model_a": np.array(names)[a], "model_b": np.array(names)[b], "winner": winner})


def _statsmodels_fit(votes: pd.DataFrame, ties: str):
    """Logit without intercept on x_a - x_b (last model as reference), on the expanded votes."""
    names = sorted(set(votes["model_a"]) | set(votes["model_b"]))
    idx = {m: i for i, m in enumerate(names)}
    a = votes["model_a"].map(idx).to_numpy()
    b = votes["model_b"].map(idx).to_numpy()
    x = np.zeros((len(votes), len(names)))
    x[np.arange(len(votes)), a] = 1
    x[np.arange(len(votes)), b] = -1
    w = votes["winner"].to_numpy()
    if ties == "drop":
        keep = w != "tie"
        x, y, groups = x[keep], (w[keep] == "model_a").astype(float), None
        res = sm.Logit(y, x[:, :-1]).fit(disp=0, method="newton", tol=1e-12, maxiter=100)
    else:  # the Chatbot Arena notebook: every vote twice, a tie as one win each way
        x2 = np.vstack([x, x])
        y2 = np.concatenate([(w == "model_a") | (w == "tie"), w == "model_a"]).astype(float)
        groups = np.concatenate([np.arange(len(w)), np.arange(len(w))])
        res = sm.Logit(y2, x2[:, :-1]).fit(disp=0, method="newton", tol=1e-12, maxiter=100, cov_type="cluster",
                                           cov_kwds={"groups": groups, "use_correction": False})
    beta = np.append(res.params, 0.0)
    cov = np.zeros((len(names), len(names)))
    cov[:-1, :-1] = res.cov_params()
    proj = np.eye(len(names)) - 1 / len(names)
    cov = proj @ cov @ proj
    ratings = 1000 + (beta - beta.mean()) / S
    return pd.Series(ratings, index=names), pd.Series(np.sqrt(np.diag(cov)) / S, index=names)


@pytest.mark.parametrize("ties", ["drop", "split"])
def test_fit_matches_statsmodels_logit(ties):
    truth = {"m1": 1150, "m2": 1100, "m3": 1095, "m4": 1020, "m5": 990, "m6": 900}
    votes = _votes(truth, 6_000, 0.25, seed=21)
    fit = pw.fit_bradley_terry(votes, ties=ties, n_boot=0)
    ratings, se = _statsmodels_fit(votes, ties)
    assert np.allclose(fit.ratings.sort_index(), ratings.sort_index(), atol=1e-6)
    assert np.allclose(fit.se.sort_index(), se.sort_index(), rtol=1e-6)
    assert fit.ratings.mean() == pytest.approx(1000)
    assert fit.ratings.is_monotonic_decreasing and fit.ratings.index.name == "model"
    assert fit.n_votes == 6_000 and fit.n_ties == int((votes["winner"] == "tie").sum())
    assert fit.counts["n"].sum() == 6_000 and fit.counts["ties"].sum() == fit.n_ties
    assert np.isnan(fit.ci_low).all()


def test_bootstrap_intervals_match_the_fisher_standard_errors():
    fit = pw.fit_bradley_terry(pw.read_votes(pw.SAMPLE_VOTES.read_bytes()), n_boot=600, seed=3)
    boot_se = fit.bootstrap.std(axis=0, ddof=1)
    assert np.allclose(boot_se / fit.se, 1.0, atol=0.15), (boot_se, fit.se)
    assert np.all(fit.ci_low < fit.ratings) and np.all(fit.ratings < fit.ci_high)
    width = (fit.ci_high - fit.ci_low) / (2 * stats.norm.isf(0.025) * fit.se)
    assert np.allclose(width, 1.0, atol=0.2)
    again = pw.fit_bradley_terry(pw.read_votes(pw.SAMPLE_VOTES.read_bytes()), n_boot=600, seed=3)
    pd.testing.assert_series_equal(fit.ci_low, again.ci_low)


def test_fit_tables():
    votes = _votes({"a": 1100, "b": 1000, "c": 950}, 3_000, 0.2, seed=2)
    fit = pw.fit_bradley_terry(votes, ties="split", n_boot=50, seed=1)
    rates = fit.win_rates.to_numpy()
    assert np.isnan(np.diag(rates)).all()
    assert np.allclose(rates + rates.T, 1.0, equal_nan=True) or np.allclose(
        (rates + rates.T)[~np.eye(3, dtype=bool)], 1.0)
    assert list(fit.win_rates.index) == list(fit.models) == ["a", "b", "c"]
    first = fit.counts.iloc[0]
    assert (first["model_a"], first["model_b"]) == ("a", "b")
    mask = ((votes["model_a"] == "a") & (votes["model_b"] == "b")) | ((votes["model_a"] == "b") & (votes["model_b"] == "a"))
    sub = votes[mask]
    a_won = ((sub["model_a"] == "a") & (sub["winner"] == "model_a")) | ((sub["model_b"] == "a") & (sub["winner"] == "model_b"))
    assert first["wins_a"] == a_won.sum() and first["n"] == len(sub)
    assert rates[0, 1] == pytest.approx((first["wins_a"] + first["ties"] / 2) / first["n"])
    table = fit.table()
    assert list(table.columns) == ["rank", "model", "rating", "ci_low", "ci_high", "se", "votes"]
    assert table["votes"].sum() == 2 * fit.n_votes


def test_fit_refuses_disconnected_groups_and_handles_separation():
    split = pd.DataFrame({"model_a": ["a", "b", "c", "d"] * 5, "model_b": ["b", "a", "d", "c"] * 5,
                          "winner": ["model_a", "model_b"] * 10})
    with pytest.raises(ValueError, match="2 groups"):
        pw.fit_bradley_terry(split, n_boot=0)
    only_ties = pd.DataFrame({"model_a": ["a", "b", "a"], "model_b": ["b", "a", "c"],
                              "winner": ["model_a", "model_b", "tie"]})
    with pytest.raises(ValueError, match="try 'split'"):
        pw.fit_bradley_terry(only_ties, n_boot=0)
    tied = pw.fit_bradley_terry(only_ties, ties="split", n_boot=0)  # under "split" the tie links c to a
    assert tied.separated and tied.models[-1] == "b"  # b never won (both a-b votes went to a)
    champ = _votes({"a": 1100, "b": 1000, "c": 950}, 600, 0.0, seed=4)
    champ = champ[~champ["model_a"].eq("champ")]
    extra = pd.DataFrame({"model_a": ["champ"] * 20, "model_b": ["a", "b", "c", "a"] * 5, "winner": ["model_a"] * 20})
    fit = pw.fit_bradley_terry(pd.concat([champ, extra], ignore_index=True), n_boot=20, seed=1)
    assert fit.separated and fit.models[0] == "champ" and any("never loses" in note for note in fit.notes)
    assert np.isfinite(fit.ratings).all() and fit.ratings.iloc[0] > fit.ratings.iloc[1] + 300


@pytest.mark.parametrize("votes", [
    {"model_a": ["a"], "model_b": ["b"], "winner": ["model_a"]},  # a single vote: every replicate is the same
    {"model_a": ["a", "b", "c", "a"] * 3, "model_b": ["b", "c", "a", "c"] * 3,  # a never loses, b and c play both ways
     "winner": ["model_a", "model_a", "model_b", "model_a"] * 3},
])
def test_a_separated_fit_reports_no_intervals(votes):
    """Without a finite MLE (Ford 1957: the win graph is not strongly connected) the ridge sets the separated ratings,
    so bootstrap intervals would measure the ridge: a single vote gave intervals of zero width. None are reported."""
    fit = pw.fit_bradley_terry(pd.DataFrame(votes), n_boot=200, seed=0)
    assert fit.separated and fit.n_boot == 0 and fit.bootstrap is None
    assert fit.ci_low.isna().all() and fit.ci_high.isna().all() and fit.se.isna().all()
    assert np.isfinite(fit.ratings).all() and fit.models[0] == "a"
    assert any("No 95% intervals" in note for note in fit.notes)
    # a connected fit keeps its intervals, which contain the rating
    connected = pd.DataFrame({"model_a": ["a", "b", "a", "b"] * 5, "model_b": ["b", "a", "b", "a"] * 5,
                              "winner": ["model_a", "model_a", "model_a", "model_b"] * 5})
    fit = pw.fit_bradley_terry(connected, n_boot=200, seed=0)
    assert not fit.separated and ((fit.ci_low < fit.ratings) & (fit.ratings < fit.ci_high)).all()


def test_fit_accepts_plain_frames_and_drops_self_matches():
    votes = pd.DataFrame({"Model_A": ["x", "y", "x", "x", "z"], "MODEL_B": ["y", "x", "x", "z", "y"],
                          "Winner": ["Model_A", " tie (bothbad) ", "model_a", "model_b", "TIE"]})
    fit = pw.fit_bradley_terry(votes, ties="split", n_boot=0)
    assert fit.n_self_matches == 1 and fit.n_votes == 4 and fit.n_ties == 2
    assert any("self-match" in note for note in fit.notes)
    bad = votes.assign(Winner=["model_a", "draw", "tie", "model_b", "model_a"])
    with pytest.raises(ValueError, match="row 2.*'draw'.*model_a, model_b, tie, tie \\(bothbad\\)"):
        pw.fit_bradley_terry(bad)
    with pytest.raises(ValueError, match="model_a, model_b and winner"):
        pw.fit_bradley_terry(votes.drop(columns="Winner"))


# ---------------------------------------------------------------------------
# reading uploads
# ---------------------------------------------------------------------------
CSV = b"model_a,model_b,winner\nalpha,beta,model_a\nbeta,gamma,tie\ngamma,alpha,tie (bothbad)\nalpha,beta,model_b\n"


def _as_strings(frame):
    return frame.astype(str).to_dict("list")


def test_read_votes_csv_tsv_json_and_jsonl_agree():
    expected = {"model_a": ["alpha", "beta", "gamma", "alpha"], "model_b": ["beta", "gamma", "alpha", "beta"],
                "winner": ["model_a", "tie", "tie (bothbad)", "model_b"]}
    assert _as_strings(pw.read_votes(CSV)) == expected
    assert _as_strings(pw.read_votes(CSV.replace(b",", b"\t"))) == expected
    # arena "clean_battle" style: a JSON array of battles with many more fields
    battles = [{"model_a": a, "model_b": b, "winner": w, "question_id": f"q{i}", "anony": True, "language": "English",
                "tstamp": 1.7e9 + i, "turn": 1, "judge": f"arena_user_{i}"}
               for i, (a, b, w) in enumerate(zip(*expected.values()))]
    assert _as_strings(pw.read_votes(json.dumps(battles, indent=1).encode())) == expected
    jsonl = "\n".join(json.dumps(b) for b in battles).encode()
    assert _as_strings(pw.read_votes(jsonl)) == expected
    frame = pw.read_votes(CSV)
    assert isinstance(frame["model_a"].dtype, pd.CategoricalDtype)
    assert list(frame["winner"].cat.categories) == list(pw.WINNERS)


def test_read_votes_header_is_case_insensitive_and_extra_columns_are_ignored():
    data = b"id,Model_A,MODEL_B,Winner,turn\n1,a,b,MODEL_A,1\n2,b,a,Tie,1\n"
    assert _as_strings(pw.read_votes(data)) == {"model_a": ["a", "b"], "model_b": ["b", "a"],
                                                "winner": ["model_a", "tie"]}


@pytest.mark.parametrize("data, pattern", [
    (b"model_a,model_b,winner\na,b,model_a\na,b,draw\na,b,both\n",
     (r"row 2: unknown `winner` value 'draw' \(2 rows; values seen: 'draw', 'both'\)\. "
      r"Accepted values: model_a, model_b, tie, tie \(bothbad\)")),
    (b'{"model_a": "a", "model_b": "b", "winner": "model_a"}\n{"model_a": "a", "model_b": \n', "line 2"),
    (b'[{"model_a": "a", "model_b": "b", "winner": "model_a"}, {"model_a": "a"', "line 1, column"),
    (b'[{"model_a": "a", "model_b": "b", "winner": "model_a"}, {"model_a": "a", "model_b": "c"}]',
     "record 2: no `winner` field"),
    (b"model_a,model_b,winner\na,b,model_a\na,b\n", "row 3 has 2 fields"),
    (b"a,b,c\nx,y,model_a\n", "missing model_a, model_b, winner"),
    (b"model_a,model_b,winner\na,b,model_a\n,b,tie\n", r"row 2: `model_a` is empty"),
    (b"model_a,model_b,winner\na,a,model_a\nb,b,tie\n", "no votes between two different models"),
    (b"", "empty"),
])
def test_read_votes_errors_say_what_and_where(data, pattern):
    with pytest.raises(ValueError, match=pattern):
        pw.read_votes(data)


def test_read_votes_drops_self_matches_with_a_note():
    data = CSV + b"alpha,alpha,model_a\n"
    frame = pw.read_votes(data)
    assert len(frame) == 4 and frame.attrs["self_matches"] == 1
    assert frame.attrs["notes"] == ["1 self-match (model_a = model_b) dropped."]


def test_read_and_fit_many_votes_in_one_pass():
    """Aggregation early: 200,000 votes read and fitted give the same leaderboard as the frame itself."""
    truth = {f"m{i}": 1200 - 15 * i for i in range(12)}
    votes = pw.simulate_votes(truth, 200_000, tie_rate=0.1, bothbad_share=0.5, seed=8)
    buf = io.BytesIO()
    votes.to_csv(buf, index=False)
    read = pw.read_votes(buf.getvalue())
    assert len(read) == 200_000
    fit_read = pw.fit_bradley_terry(read, n_boot=20, seed=1)
    fit_frame = pw.fit_bradley_terry(votes, n_boot=20, seed=1)
    pd.testing.assert_series_equal(fit_read.ratings, fit_frame.ratings)
    pd.testing.assert_series_equal(fit_read.ci_high, fit_frame.ci_high)
    centred = pd.Series(truth) - np.mean(list(truth.values())) + 1000
    assert np.all(np.abs(fit_read.ratings - centred[fit_read.ratings.index]) <= 4.5 * fit_read.se)


def test_simulated_votes_are_spread_evenly():
    votes = pw.simulate_votes(pw.evenly_spaced(5, 20), 1_003, tie_rate=0.2, seed=1)
    pair = votes[["model_a", "model_b"]].apply(lambda r: tuple(sorted(r)), axis=1)
    counts = pair.value_counts()
    assert len(counts) == 10 and set(counts) <= {100, 101} and counts.sum() == 1_003


# ---------------------------------------------------------------------------
# the shipped sample
# ---------------------------------------------------------------------------
def test_sample_votes_are_synthetic_and_fit_their_truth():
    readme = (pw.SAMPLE_VOTES.parent / "README.txt").read_text(encoding="utf-8")
    assert "SYNTHETIC" in readme
    votes = pw.read_votes(pw.SAMPLE_VOTES.read_bytes())
    assert len(votes) == 3_000 and votes["model_a"].nunique() == 8
    assert set(votes["winner"].astype(str)) == set(pw.WINNERS)
    tie_share = votes["winner"].isin(["tie", "tie (bothbad)"]).mean()
    assert abs(tie_share - 0.2) < 0.03
    truth = pd.Series({"synthetic-A": 1150, "synthetic-B": 1120, "synthetic-C": 1100, "synthetic-D": 1060,
                       "synthetic-E": 1030, "synthetic-F": 1000, "synthetic-G": 960, "synthetic-H": 900})
    fit = pw.fit_bradley_terry(votes, n_boot=0)
    centred = truth - truth.mean() + 1000
    assert np.all(np.abs(fit.ratings - centred[fit.ratings.index]) <= 3.5 * fit.se)


def test_pairs_with_only_ties_are_counted_and_resampled():
    votes = _votes({"a": 1100, "b": 1000, "c": 950}, 900, 0.0, seed=6)
    ties = pd.DataFrame({"model_a": ["a", "d"] * 30, "model_b": ["d", "b"] * 30, "winner": ["tie"] * 60})
    extra = pd.DataFrame({"model_a": ["d", "c", "d"] * 20, "model_b": ["c", "d", "a"] * 20,
                          "winner": ["model_a", "model_a", "model_b"] * 20})
    fit = pw.fit_bradley_terry(pd.concat([votes, ties, extra], ignore_index=True), n_boot=30, seed=2)
    assert fit.counts["n"].sum() == fit.n_votes == 1_020 and fit.n_ties == 60
    assert math.isnan(fit.win_rates.loc["b", "d"])  # b-d: only ties, no information under "drop"
    both = fit.counts[(fit.counts["model_a"].isin(["b", "d"])) & (fit.counts["model_b"].isin(["b", "d"]))]
    assert both["ties"].tolist() == [30] and both["n"].tolist() == [30]
    half = pw.fit_bradley_terry(pd.concat([votes, ties, extra], ignore_index=True), ties="split", n_boot=0)
    assert half.win_rates.loc["b", "d"] == 0.5


# --- leaderboard_assurance on the leaderboard page --------------------------------------------------------
def test_leaderboard_assurance_zero_prior_sd_is_the_wald_power():
    ratings = [1250, 1200, 1190, 1150, 1100]
    res = pw.leaderboard_assurance(8000, ratings, 0.0, tie_rate=0.1, judge_accuracy=0.85)
    power = pw.leaderboard_power(8000, ratings, tie_rate=0.1, judge_accuracy=0.85).adjacent_power
    np.testing.assert_allclose(res.assurance, power, rtol=0, atol=1e-12)
    assert res.pairs[1] == ("S2", "S3") and res.weakest == 1


def test_leaderboard_assurance_matches_the_normal_closed_form():
    # Oracle: O'Hagan et al. (2005) closed form for a z test with standard error s,
    # Φ((μ − z s)/√(s² + τ²)) (+ the wrong-tail term, negligible here). With ties dropped the reported and
    # sampling SDs coincide, so each adjacent gap is a z test with s = its sampling SD (Elo), taken from
    # rating_covariance's Fisher information independently of the quadrature.
    ratings = np.array([1200.0, 1170.0, 1150.0, 1100.0])
    n, tau = 6000, 20.0
    res = pw.leaderboard_assurance(n, ratings, tau)
    power = pw.leaderboard_power(n, ratings)
    z = stats.norm.isf(0.025)
    # s from the power at the assumed gap: power = Φ(μ/s − z)  ⇒  s = μ / (Φ⁻¹(power) + z)
    s = res.gap / (stats.norm.ppf(power.adjacent_power) + z)
    wrong = stats.norm.cdf((-res.gap - z * s) / np.sqrt(s**2 + tau**2))
    closed = stats.norm.cdf((res.gap - z * s) / np.sqrt(s**2 + tau**2))
    np.testing.assert_allclose(res.assurance, closed, atol=1e-6 + wrong.max())
    np.testing.assert_allclose(res.ceiling, stats.norm.cdf(res.gap / tau), atol=1e-9)
    assert np.all(res.assurance < res.ceiling)


def test_leaderboard_assurance_approaches_the_ceiling_and_rejects_bad_input():
    ratings = [1200, 1180, 1160]
    small = pw.leaderboard_assurance(1000, ratings, 30.0)
    huge = pw.leaderboard_assurance(1_000_000, ratings, 30.0)
    assert np.all(small.assurance < huge.assurance)
    np.testing.assert_allclose(huge.assurance, huge.ceiling, atol=0.03)
    with pytest.raises(ValueError, match="`delta_sd`"):
        pw.leaderboard_assurance(1000, ratings, -1.0)
    with pytest.raises(ValueError, match="`n_votes`"):
        pw.leaderboard_assurance(0, ratings, 10.0)


def test_two_systems_without_ties_need_no_pascal_steps(monkeypatch):
    """Two systems 0.35 Elo apart need 7,734,552 votes (the sign-test search near its 10⁷ limit). Without ties
    every vote is discordant, D_n = n, so the exact power at n is the conditional rejection probability at n itself
    and the search moves no binomial weights. The answer is the brute-force exact power's first crossing."""
    from core.accuracy import engine

    calls = []
    real = engine._pascal_steps
    monkeypatch.setattr(engine, "_pascal_steps", lambda *a: calls.append(a[3]) or real(*a))
    n = pw.leaderboard_votes({"A": 1000, "B": 1000.35}, target_power=0.8)
    assert n == 7_734_552 and not calls
    q = float(pw.win_probability(1000.35, 1000))
    power = [acc.preference_power(m, 1 - q, q).power for m in (n - 1, n)]
    assert power[0] < 0.8 <= power[1]


def test_simulated_order_correct_does_not_depend_on_the_listing_order():
    """Order correct means every adjacent estimated difference is strictly positive (the documented definition):
    with 4 votes a pair many tables fit equal neighbours, which rounding used to count as correct or not depending
    on the order the systems were listed in (0.378 against 0.250). Both listings must agree within 4 MC SE."""
    runs = [pw.leaderboard_power(12, r, method="simulate", n_sims=20_000, seed=6)
            for r in ([1100, 1050, 1000], [1050, 1100, 1000])]
    a, b = (r.order_correct for r in runs)
    se = math.hypot(*(r.order_correct_mc_se for r in runs))
    assert abs(a - b) <= 4 * se
    assert all(abs(r.order_correct - 0.25) <= 4 * r.order_correct_mc_se for r in runs)


def test_leftover_votes_are_spread_anew_in_every_replicate():
    """13 votes over 3 pairs leave one vote over; it must go to a random pair in each replicate. Drawn once per
    call, the seed decided which pair got it in every replicate ([0.370, 0.475] against [0.331, 0.332]). By
    symmetry (equal gaps) both pairs have the same power, and seeds agree within their Monte Carlo error."""
    runs = [pw.leaderboard_power(13, [1300, 1100, 900], alpha=0.3, method="simulate", n_sims=20_000, seed=s)
            for s in (0, 1)]
    for r in runs:
        assert abs(r.adjacent_power[0] - r.adjacent_power[1]) <= 4 * math.hypot(*r.mc_se)
    assert np.all(np.abs(runs[0].adjacent_power - runs[1].adjacent_power) <= 4 * np.hypot(runs[0].mc_se, runs[1].mc_se))
    alloc = pw._allocate(13, 3, np.random.default_rng(0), 30_000)
    assert np.all(alloc.sum(axis=1) == 13) and set(np.unique(alloc)) == {4, 5}
    share = (alloc == 5).mean(axis=0)  # each pair gets the extra vote a third of the time
    assert np.all(np.abs(share - 1 / 3) <= 4 * math.sqrt(1 / 3 * 2 / 3 / 30_000))


def test_renamed_keywords_still_work_for_one_release():
    """``gap_sd``/``gap_mean`` became ``delta_sd``/``delta_mean`` (one vocabulary); the old names warn."""
    new = pw.leaderboard_assurance(5000, [1200, 1175, 1150], delta_sd=25.0)
    with pytest.warns(DeprecationWarning, match="delta_sd"):
        old = pw.leaderboard_assurance(5000, [1200, 1175, 1150], gap_sd=25.0)
    assert np.array_equal(new.assurance, old.assurance)
    with pytest.warns(DeprecationWarning):
        assert old.gap_sd == new.delta_sd == 25.0
    with pytest.raises(ValueError, match="`delta_sd`"):
        pw.leaderboard_assurance(5000, [1200, 1175, 1150], delta_sd=25.0, gap_sd=25.0)
    with pytest.warns(DeprecationWarning, match="delta_mean"), pytest.warns(DeprecationWarning, match="delta_sd"):
        old_pref = acc.preference_assurance(100, gap_mean=0.3, gap_sd=0.1)
    assert old_pref.assurance == acc.preference_assurance(100, 0.3, 0.1).assurance


def test_leaderboard_design_object_equals_the_keyword_functions():
    """pw.Leaderboard: validated once, frozen, equal for equal ratings however given, methods = the functions."""
    ratings = pd.Series([1100.0, 1075.0, 1040.0], index=["a", "b", "c"])
    kw = dict(tie_rate=0.1, ties="split", judge_accuracy=0.9, alpha=0.05)
    board = pw.Leaderboard(ratings, **kw)
    assert board == pw.Leaderboard({"a": 1100, "b": 1075, "c": 1040}, **kw) and hash(board)
    assert board.ratings == (("a", 1100.0), ("b", 1075.0), ("c", 1040.0))
    assert np.array_equal(board.power(3000).adjacent_power, pw.leaderboard_power(3000, ratings, **kw).adjacent_power)
    assert board.votes() == pw.leaderboard_votes(ratings, **kw)
    assert board.table(3000).equals(pw.leaderboard_table(ratings, 3000, tie_rate=0.1, ties="split", judge_accuracy=0.9))
    assert board.adjacent_power_curve([500, 5000]).equals(pw.adjacent_power_curve(ratings, [500, 5000], **kw))
    assert np.array_equal(board.assurance(3000, 20.0).assurance,
                          pw.leaderboard_assurance(3000, ratings, 20.0, **kw).assurance)
    with pytest.raises(ValueError, match="`judge_accuracy`"):
        board.with_(judge_accuracy=0.4)
    with pytest.raises(ValueError, match="`ties`"):
        pw.Leaderboard(ratings, ties="halves")


# ---------------------------------------------------------------------------
# the bootstrap's refits (chord method) and its work bound
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ties", ["drop", "split"])
@pytest.mark.parametrize("k, votes_per_pair", [(6, 30), (40, 3)])
def test_chord_refits_equal_exact_newton_refits(ties, k, votes_per_pair):
    # oracle: the full Newton fit of every replicate (its own Hessian each step), as before the speed-up
    rng = np.random.default_rng(k)
    truth = rng.normal(0, 0.8, k)
    i, j = (a.astype(np.int64) for a in np.triu_indices(k, 1))
    p = 1 / (1 + np.exp(-(truth[i] - truth[j])))
    n_pair = np.full(i.size, votes_per_pair)
    t = rng.binomial(n_pair, 0.1)
    w = rng.binomial(n_pair - t, p)
    l_ = n_pair - t - w
    beta, ridge, _, y, n = pw._fit_counts(w[None] * 1.0, l_[None] * 1.0, t[None] * 1.0, i, j, k, ties)
    cells = np.concatenate([w, l_, t]).astype(float)
    c = rng.multinomial(int(cells.sum()), cells / cells.sum(), size=12).astype(float)
    m = i.size
    bw, bl, bt = c[:, :m], c[:, m:2 * m], c[:, 2 * m:]
    bw[0, i == 0], bl[0, i == 0], bt[0, i == 0] = 5.0, 0.0, 0.0  # model 0 never loses: a separated replicate
    bl[0, j == 0] = 0.0
    bw[0, j == 0] = bw[0, j == 0] + 1.0
    from scipy import linalg

    q = 1 / (1 + np.exp(-(beta[0][i] - beta[0][j])))
    hess = pw._laplacian((n[0] * q * (1 - q))[None], i, j, k)[0] + ridge[0] * np.eye(k) + 1.0 / k
    chord = pw._fit_replicates(bw, bl, bt, i, j, k, ties, beta[0], linalg.cho_factor(hess),
                               pw._incidence(i, j, k).T.tocsr())
    exact = pw._fit_counts(bw, bl, bt, i, j, k, ties, beta0=np.repeat(beta, 12, axis=0))[0]
    assert np.allclose(chord, exact, atol=1e-8, rtol=0)


def test_bootstrap_work_is_bounded():
    # many compared pairs: fewer replicates (noted), or normal intervals from the reported SE (noted)
    rng = np.random.default_rng(4)
    k = 120
    i, j = np.triu_indices(k, 1)  # 7,140 pairs, one vote each
    names = np.array([f"m{x}" for x in range(k)])
    votes = pd.DataFrame({"model_a": names[i], "model_b": names[j],
                          "winner": rng.choice(["model_a", "model_b"], i.size)})
    fewer = pw.fit_bradley_terry(votes, n_boot=1000, seed=1)
    affordable = pw.BOOT_WORK // i.size
    assert fewer.bootstrap.shape == (affordable, k)
    assert any(f"use {affordable:,} replicates instead of 1,000" in note for note in fewer.notes)
    old = pw.fitting.BOOT_WORK  # the fit reads the limit where it lives
    try:
        pw.fitting.BOOT_WORK = 99 * i.size
        normal = pw.fit_bradley_terry(votes, n_boot=200, seed=1)
    finally:
        pw.fitting.BOOT_WORK = old
    assert normal.bootstrap is None and any("normal ones" in note for note in normal.notes)
    z = stats.norm.ppf(0.975)
    assert np.allclose(normal.ci_low, normal.ratings - z * normal.se)
    assert np.allclose(normal.ci_high, normal.ratings + z * normal.se)


# ---------------------------------------------------------------------------
# AlpacaEval annotations and column mapping
# ---------------------------------------------------------------------------
ALPACA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "synthetic_alpaca_eval_annotations.json"


def test_alpaca_eval_annotations_are_read_as_they_are():
    # preferences 1.9312, 1.0213, 1.5, null, 2, 1, 1.7781, 1.2004, 0, 2.0, 1.9999, 1.0001: AlpacaEval reads
    # 0 and 1.5 as draws and drops non-preferences (alpaca_eval.metrics.get_winrate)
    votes = pw.read_votes(ALPACA.read_bytes(), name="annotations.json")
    assert votes["winner"].astype(str).tolist() == ["model_b", "model_a", "tie", "model_b", "model_a", "model_b",
                                                    "model_a", "tie", "model_b", "model_b", "model_a"]
    assert set(votes["model_a"].astype(str)) == {"gpt4_1106_preview"}
    assert votes.attrs["notes"][0] == "1 annotation without a preference (null) dropped."
    # oracle for two models with ties dropped: the Bradley–Terry gap is 400·log10(wins_b / wins_a)
    fit = pw.fit_bradley_terry(votes, n_boot=0)
    gap = fit.ratings["synthetic-model"] - fit.ratings["gpt4_1106_preview"]
    assert gap == pytest.approx(400 * math.log10(5 / 4), abs=1e-6)


def test_several_alpaca_eval_files_make_one_table():
    data = ALPACA.read_bytes()
    votes = pw.read_votes([("a.json", data), ("b.json", data.replace(b"synthetic-model", b"other-model"))])
    assert len(votes) == 22 and set(votes["model_b"].astype(str)) == {"synthetic-model", "other-model"}
    assert votes.attrs["notes"] == ["a.json: 1 annotation without a preference (null) dropped.",
                                    "b.json: 1 annotation without a preference (null) dropped."]
    with pytest.raises(ValueError, match=r"^b.json, record 1: `preference` 3 is outside \[1, 2\]"):
        pw.read_votes([("a.json", data), ("b.json", data.replace(b'"preference": 1.9312', b'"preference": 3'))])


MT_BENCH = ALPACA.parent / "synthetic_mt_bench_gpt-4_pair.jsonl"


def test_mt_bench_pair_judgments_are_read_as_fastchat_counts_them():
    """FastChat's gpt-4_pair.jsonl (llm_judge/common.py: play_a_match_pair): both orders judged; as show_result.py
    counts them, an error drops the pair and orders that disagree make a tie. By hand from the file: 8 judgments, one
    with an error, two disagreeing."""
    votes = pw.read_votes(MT_BENCH.read_bytes(), name="gpt-4_pair.jsonl")
    assert list(zip(votes["model_a"].astype(str), votes["model_b"].astype(str), votes["winner"].astype(str))) == [
        ("gpt-4", "vicuna-13b", "model_a"), ("gpt-4", "vicuna-13b", "tie"), ("llama-13b", "vicuna-13b", "model_b"),
        ("llama-13b", "gpt-4", "tie"), ("vicuna-13b", "gpt-4", "model_b"), ("gpt-4", "llama-13b", "model_a"),
        ("vicuna-13b", "llama-13b", "tie")]
    assert "a tie (2 here)" in votes.attrs["notes"][0]
    assert votes.attrs["notes"][1] == "1 judgment with an error left out."
    from core import home
    assert home.recognise("gpt-4_pair.jsonl", MT_BENCH.read_bytes()) == "votes"
    bad = MT_BENCH.read_bytes().replace(b'"g2_winner": "tie"', b'"g2_winner": "draw"', 1)
    with pytest.raises(ValueError, match=r"line 5: unknown judgment 'draw'"):
        pw.read_votes(bad, name="gpt-4_pair.jsonl")


def test_votes_are_read_from_parquet_as_hugging_face_publishes_them():
    """chatbot_arena_conversations / mt_bench_human_judgments (model_a, model_b, winner beside nested conversations),
    the arena-human-preference one-hot outcome, and a mapped file: the same votes as from the CSV of those columns."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    def parquet(table):
        out = io.BytesIO()
        pq.write_table(table, out)
        return out.getvalue()

    rows = [("gpt-4", "vicuna", "model_a"), ("llama", "gpt-4", "tie (bothbad)"), ("x", "y", "model_b"),
            ("x", "gpt-4", "tie")]
    arena = pa.table({"question_id": ["q1", "q2", "q3", "q4"], "model_a": [r[0] for r in rows],
                      "model_b": [r[1] for r in rows], "winner": [r[2] for r in rows],
                      "conversation_a": [[{"role": "user", "content": "hi"}]] * 4})
    csv = ("model_a,model_b,winner\n" + "".join(",".join(r) + "\n" for r in rows)).encode()
    pd.testing.assert_frame_equal(pw.read_votes(parquet(arena), name="train.parquet"), pw.read_votes(csv))
    one_hot = pa.table({"id": [1, 2], "model_a": ["a", "b"], "model_b": ["b", "a"], "winner_model_a": [1, 0],
                        "winner_model_b": [0, 0], "winner_tie": [0, 1]})
    assert pw.read_votes(parquet(one_hot))["winner"].astype(str).tolist() == ["model_a", "tie"]
    other = parquet(pa.table({"left": ["a", "b"], "right": ["b", "a"], "outcome": ["model_a", "tie"]}))
    mapped = pw.read_votes(other, columns={"model_a": "left", "model_b": "right", "winner": "outcome"})
    assert mapped["winner"].astype(str).tolist() == ["model_a", "tie"]
    with pytest.raises(ValueError, match="needs the columns model_a, model_b and winner; found: left, right, outcome"):
        pw.read_votes(other)
    # a partial mapping keeps the usual columns for the other roles, as for a CSV; both_bad is a tie (bothbad)
    partial = parquet(pa.table({"model_a": ["a", "b"], "model_b": ["b", "a"], "outcome": ["model_a", "both_bad"]}))
    assert pw.read_votes(partial, columns={"winner": "outcome"})["winner"].astype(str).tolist() == [
        "model_a", "tie (bothbad)"]
    # one-hot flags stored as booleans
    flags = parquet(pa.table({"model_a": ["a", "b"], "model_b": ["b", "a"], "winner_model_a": [True, False],
                              "winner_model_b": [False, False], "winner_tie": [False, True]}))
    assert pw.read_votes(flags)["winner"].astype(str).tolist() == ["model_a", "tie"]
    from core import home
    assert home.recognise("train.parquet", parquet(arena)) == "votes"
    with pytest.raises(ValueError, match="the app reads votes from Parquet"):
        home.recognise("scores.parquet", parquet(pa.table({"a": [0.5, 0.6], "b": [0.7, 0.4]})))


def test_votes_columns_mapping_and_guessing():
    table = b"judge,left,right,outcome\nj,x,y,model_a\nj,y,x,tie\n"
    votes = pw.read_votes(table, columns={"model_a": "left", "model_b": "right", "winner": "outcome"})
    assert votes["model_a"].astype(str).tolist() == ["x", "y"] and votes["winner"].astype(str).tolist() == [
        "model_a", "tie"]
    guessed = pw.read_votes(b"generator_1,generator_2,preference\na,b,1\na,b,2\nb,a,1.5\n")
    assert guessed["winner"].astype(str).tolist() == ["model_a", "model_b", "tie"]
    with pytest.raises(ValueError, match="no column 'nope'"):
        pw.read_votes(table, columns={"model_a": "nope", "model_b": "right", "winner": "outcome"})
    with pytest.raises(ValueError, match="`columns` must map model_a, model_b and winner"):
        pw.read_votes(table, columns={"a": "left"})


def test_the_earlier_ties_name_still_works_with_a_warning():
    """`ties="half"` was renamed `"split"` (one vocabulary with core.accuracy); the old name warns for one release."""
    with pytest.warns(DeprecationWarning, match='ties="split"'):
        old = pw.leaderboard_power(2000, pw.evenly_spaced(3, 30), tie_rate=0.2, ties="half")
    new = pw.leaderboard_power(2000, pw.evenly_spaced(3, 30), tie_rate=0.2, ties="split")
    assert (old.weakest_power, old.order_correct) == (new.weakest_power, new.order_correct)
    with pytest.warns(DeprecationWarning):
        assert pw.Leaderboard({"A": 1020, "B": 1000}, ties="half").ties == "split"


def test_a_link_or_pin_with_the_former_ties_name_reads_as_split():
    """Pins kept before ``ties="half"`` became ``"split"`` carry the old name; the design reads it without a note."""
    notes: list[str] = []
    d = pw.LeaderboardDesign.from_params({"ties": "half", "ties_pct": "20"}, messages=notes)
    assert notes == [] and d.ties == "split"
    assert d == pw.LeaderboardDesign.from_params({"ties": "split", "ties_pct": "20"})
    notes = []
    assert pw.LeaderboardDesign.from_params({"ties": "halves"}, messages=notes).ties == "drop" and notes


def test_the_simulation_runs_in_blocks_with_the_same_answers_and_refuses_too_much_work(monkeypatch):
    from core.pairwise import power as pw_power
    ratings = pw.evenly_spaced(4, 40.0)
    whole = pw.leaderboard_power(3000, ratings, method="simulate", n_sims=4000, seed=11)
    # six pairs per leaderboard: a block of 18 replicate-pairs holds three leaderboards, so 4,000 take 1,334 blocks
    monkeypatch.setattr(pw_power, "_SIM_BLOCK", 18)
    assert pw_power._blocks(4000, 4)[:2] == [3, 3] and sum(pw_power._blocks(4000, 4)) == 4000
    blocks = pw.leaderboard_power(3000, ratings, method="simulate", n_sims=4000, seed=12)
    se = np.sqrt(whole.mc_se**2 + blocks.mc_se**2)
    assert np.all(np.abs(whole.adjacent_power - blocks.adjacent_power) <= 4 * se)
    assert abs(whole.order_correct - blocks.order_correct) <= 4 * math.hypot(whole.order_correct_mc_se,
                                                                             blocks.order_correct_mc_se)
    assert pw.simulate_fits(3000, ratings, n_sims=100, seed=1).shape == (100, 4)
    monkeypatch.undo()
    # 100 systems: 4,950 pairs a leaderboard, at most 2,020 leaderboards (the page offers up to 2,000)
    with pytest.raises(ValueError, match=r"`n_sims` is too large for 100 systems: at most 2,020"):
        pw.leaderboard_power(10**6, pw.evenly_spaced(100, 10.0), method="simulate", n_sims=3000)
    with pytest.raises(ValueError, match="`n_sims`"):
        pw.simulate_fits(10**6, pw.evenly_spaced(100, 10.0), n_sims=3000)


def test_expected_upsets_are_the_worse_systems_share_of_a_pairs_votes():
    # 3 systems: 3 pairs share the votes; neighbours 500 Elo apart: p = 1/(1 + 10^(−500/400))
    p = 1 / (1 + 10 ** (-500 / 400))
    got = pw.expected_upsets(54, [1500, 1000, 500])
    np.testing.assert_allclose(got, [54 / 3 * (1 - p)] * 2, rtol=1e-12)
    # ties take their share, a judge who errs turns some wins into upsets (½ + (2q − 1)(p − ½)), order by rating
    q, tie = 0.9, 0.2
    p_obs = 0.5 + (2 * q - 1) * (p - 0.5)
    got = pw.expected_upsets(600, pd.Series([500.0, 1500.0, 1000.0], index=list("abc")), tie_rate=tie,
                             judge_accuracy=q)
    np.testing.assert_allclose(got, [600 / 3 * (1 - tie) * (1 - p_obs)] * 2, rtol=1e-12)


def _sparse_votes(k, seed=0):
    """A ring of k models, each neighbour pair with one win each way (strongly connected: a finite fit), plus random
    pairs, about five votes a model: most bootstrap replicates separate (some model never loses) and need exact
    refits."""
    rng = np.random.default_rng(seed)
    extra = rng.integers(0, k, k // 2)
    a = list(range(k)) * 2 + extra.tolist()
    b = [(x + 1) % k for x in range(k)] * 2 + ((extra + 1 + rng.integers(0, k - 1, k // 2)) % k).tolist()
    winner = ["model_a"] * k + ["model_b"] * k + rng.choice(["model_a", "model_b"], k // 2).tolist()
    return pd.DataFrame({"model_a": [f"m{x}" for x in a], "model_b": [f"m{x}" for x in b], "winner": winner})


def test_exact_bootstrap_refits_run_a_few_at_a_time_and_give_way_to_normal_intervals(monkeypatch):
    from core.pairwise import solver
    votes = _sparse_votes(30)
    whole = pw.fit_bradley_terry(votes, n_boot=100, seed=3)
    assert whole.n_boot == 100
    # one replicate per batch of exact refits: the same replicates, the same intervals
    monkeypatch.setattr(solver, "_REFIT_CELLS", 30 * 30)
    one_by_one = pw.fit_bradley_terry(votes, n_boot=100, seed=3)
    pd.testing.assert_series_equal(one_by_one.ci_low, whole.ci_low)
    pd.testing.assert_series_equal(one_by_one.ci_high, whole.ci_high)
    # beyond the refit budget (hundreds of models with a few votes each: 1,000 models needed 1.6 GB and minutes):
    # normal intervals, rating ± 1.96 SE, with a note
    monkeypatch.setattr(solver, "_EXACT_REFIT_WORK", 1.0)
    normal = pw.fit_bradley_terry(votes, n_boot=100, seed=3)
    assert normal.n_boot == 0 and any("normal ones" in note for note in normal.notes)
    np.testing.assert_allclose(normal.ci_high - normal.ratings, 1.959963984540054 * normal.se, rtol=1e-9)


def test_text_and_wrong_types_get_messages_naming_the_argument():
    assert len(pw.read_votes("model_a,model_b,winner\nx,y,model_a\n")) == 1  # a file's text reads as its bytes
    with pytest.raises(ValueError, match="`data`"):
        pw.read_votes(3)
    with pytest.raises(ValueError, match="`r_i`"):
        pw.win_probability("a", 1)
    with pytest.raises(ValueError, match="`p`"):
        pw.observed_win_rate("a", judge_accuracy=0.9)


def test_arena_55k_one_hot_outcomes_are_read_as_votes():
    # lmsys' arena-human-preference-55k CSV: id, model_a, model_b, prompt, response_a, response_b, winner_model_a,
    # winner_model_b, winner_tie (one of the three is 1)
    data = (b'id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie\n'
            b'30192,gpt-4-1106-preview,gpt-4-0613,"[""Is it morally right, or not?""]","[""Yes""]","[""No""]",1,0,0\n'
            b'53567,koala-13b,gpt-4-0613,"[""What is 2+2?""]","[""4""]","[""four""]",0,1,0\n'
            b'65089,gpt-3.5-turbo-0613,mistral-medium,"[""hi""]","[""hello""]","[""hey""]",0,0,1\n')
    votes = pw.read_votes(data, name="`train.csv`")
    assert votes.astype(str).values.tolist() == [["gpt-4-1106-preview", "gpt-4-0613", "model_a"],
                                                 ["koala-13b", "gpt-4-0613", "model_b"],
                                                 ["gpt-3.5-turbo-0613", "mistral-medium", "tie"]]
    with pytest.raises(ValueError, match="row 1: exactly one of winner_model_a"):
        pw.read_votes(data.replace(b",1,0,0\n", b",1,1,0\n", 1), name="`train.csv`")

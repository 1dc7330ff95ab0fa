"""core.humaneval.resample: resampled campaigns against a brute-force loop, null calibration, scipy's test."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from core import humaneval as he
from core.humaneval import mwu_looks_ties, resampled_curves, resampled_power, system_pool
from core.sequential import boundary_z


def _long(per_system: dict, ratings=1, seed=0):
    """A long table (system, item, rater, score) from {system: (segment scores, rating noise sd)}."""
    rng = np.random.default_rng(seed)
    frames = []
    for name, (segments, noise) in per_system.items():
        scores = np.clip(np.round(segments[:, None] + rng.normal(0, noise, (segments.size, ratings))), 0, 100)
        frames.append(pd.DataFrame({"system": name, "item": np.repeat(np.arange(segments.size), ratings),
                                    "rater": pd.NA, "score": scores.ravel()}))
    return pd.concat(frames, ignore_index=True)


def _da_pair(mean_a=78.0, mean_b=74.0, segments=400, ratings=1, seed=0):
    rng = np.random.default_rng(seed)
    return _long({"A": (mean_a + rng.normal(0, 15, segments), 22.0), "B": (mean_b + rng.normal(0, 15, segments), 22.0)},
                 ratings=ratings, seed=seed + 1)


def _loop_power(scores, a, b, budget, procedure, *, n_sims, seed, peeks=3, futility_p=0.5, alpha=0.05, shift=0.0):
    """Brute force: one campaign at a time, segments drawn with rng.choice, scipy's mannwhitneyu at each look."""
    rng = np.random.default_rng(seed)
    segs = {s: [g["score"].to_numpy(float) + (shift if s == b else 0.0) for _, g in scores[scores.system == s]
                .groupby(scores[scores.system == s]["item"].astype(str), sort=True)] for s in (a, b)}
    per = budget // 2
    looks = 1 if procedure == "fixed" else peeks
    sizes = [max(1, round(per * k / looks)) for k in range(1, looks + 1)]
    if procedure == "fixed":
        bounds = [stats.norm.isf(alpha / 2)]
    else:
        bounds = list(boundary_z(looks, alpha=alpha, kind="pocock"))
    significant_right, spent = 0, []
    for _ in range(n_sims):
        stream = {}
        for s in (a, b):
            parts, total = [], 0
            while total < per:
                seg = segs[s][rng.integers(len(segs[s]))]
                parts.append(seg)
                total += seg.size
            stream[s] = np.concatenate(parts)[:per]
        for k, m in enumerate(sizes):
            res = stats.mannwhitneyu(stream[a][:m], stream[b][:m], method="asymptotic")
            if res.pvalue <= 2 * stats.norm.sf(bounds[k]):
                significant_right += res.statistic > m * m / 2
                spent.append(2 * m)
                break
            if procedure == "interim_futility" and k < looks - 1 and res.pvalue > futility_p:
                spent.append(2 * m)
                break
        else:
            spent.append(2 * sizes[-1])
    return significant_right / n_sims, float(np.mean(spent)), float(np.std(spent, ddof=1) / math.sqrt(n_sims))


def test_mwu_looks_ties_equals_scipy_with_ties_and_without():
    rng = np.random.default_rng(3)
    sizes = np.array([15, 30, 45])
    for a, b in ((rng.integers(0, 8, (40, 45)).astype(float), rng.integers(0, 9, (40, 45)).astype(float)),
                 (rng.normal(size=(40, 45)) * 1e3, rng.normal(0.3, 1, (40, 45)) * 1e3),  # > 4,096 distinct values
                 (-np.maximum(rng.poisson(0.8, (40, 45)) * 5.0 - 0.1 * rng.integers(0, 2, (40, 45)), 0.0),
                  -np.maximum(rng.poisson(1.2, (40, 45)) * 5.0, 0.0))):  # MQM-like: mass at 0
        u, p = mwu_looks_ties(a, b, sizes)
        for k, m in enumerate(sizes):
            ref = stats.mannwhitneyu(a[:, :m], b[:, :m], axis=1, method="asymptotic")
            np.testing.assert_allclose(u[:, k], ref.statistic, rtol=0, atol=1e-9)
            np.testing.assert_allclose(p[:, k], ref.pvalue, rtol=1e-10, atol=1e-12)


def test_pool_draws_whole_segments_in_order():
    table = pd.DataFrame({"system": "A", "item": np.repeat(["s1", "s2", "s3"], [1, 2, 3]),
                          "score": [10.0, 20.0, 21.0, 30.0, 31.0, 32.0]})
    pool = system_pool(table, "A")
    draws = pool.values[pool.draw(np.random.default_rng(0), 200, 7)]
    # every stream is a concatenation of whole segments (cut at 7): 20 is always followed by 21, 30 by 31 by 32
    for row in draws:
        for j, v in enumerate(row[:-1]):
            if v == 20.0:
                assert row[j + 1] == 21.0
            if v in (30.0, 31.0):
                assert row[j + 1] == v + 1
        assert row[0] in (10.0, 20.0, 30.0)


@pytest.mark.parametrize("procedure, ratings", [("fixed", 1), ("interim_futility", 2), ("interim", 3)])
def test_resampled_power_matches_a_brute_force_loop(procedure, ratings):
    scores = _da_pair(segments=300, ratings=ratings, seed=5)
    n_fast, n_loop = 4000, 600
    fast = resampled_power(scores, ("A", "B"), 300, procedure=procedure, n_sims=n_fast, seed=11)
    power, judgments, judgments_se = _loop_power(scores, "A", "B", 300, procedure, n_sims=n_loop, seed=12)
    se = math.sqrt(fast.mc_se**2 + power * (1 - power) / n_loop)
    assert abs(fast.power - power) <= 4 * se
    assert abs(fast.expected_judgments - judgments) <= 4 * math.hypot(fast.judgments_se, judgments_se)
    assert 0.05 < fast.power < 0.95  # a test that can fail: neither trivially 0 nor 1


def test_delta_shift_sets_the_difference_and_the_loop_agrees():
    scores = _da_pair(segments=300, seed=7)
    pool_a, pool_b = system_pool(scores, "A"), system_pool(scores, "B")
    shift = (pool_a.mean - pool_b.mean) - 2.0
    fast = resampled_power(scores, ("A", "B"), 400, procedure="interim", delta=2.0, n_sims=4000, seed=3)
    power, _, _ = _loop_power(scores, "A", "B", 400, "interim", n_sims=600, seed=4, shift=shift)
    assert abs(fast.power - power) <= 4 * math.sqrt(fast.mc_se**2 + power * (1 - power) / 600)
    big = resampled_power(scores, ("A", "B"), 4000, delta=6.0, test="t", n_sims=500, seed=1)
    assert big.power > 0.99 and abs(big.type_m - 1.0) < 0.05  # the estimate centres on the set difference


@pytest.mark.parametrize("procedure", ["fixed", "interim", "interim_futility"])
@pytest.mark.parametrize("test", ["mwu", "t"])
def test_null_calibration(procedure, test):
    # B's judgments are a copy of A's: with delta = 0 the two pools are the same distribution (an exact null;
    # two different samples shifted to equal means are not, for Mann–Whitney: see the pooled-null test below)
    rng = np.random.default_rng(2)
    a = _long({"A": (70 + rng.normal(0, 15, 500), 20.0)}, seed=9)
    scores = pd.concat([a, a.assign(system="B")], ignore_index=True)
    n_sims = 4000
    res = resampled_power(scores, ("A", "B"), 600, procedure=procedure, delta=0.0, test=test, n_sims=n_sims, seed=8)
    se = math.sqrt(0.05 * 0.95 / n_sims)
    assert res.power <= 0.05 + 3 * se
    assert res.false_positive_rate <= 0.05 + 3 * se
    assert math.isnan(res.type_m) and math.isnan(res.type_s)


def test_pooled_null_is_calibrated_even_when_shapes_differ():
    rng = np.random.default_rng(4)
    scores = _long({"A": (80 + rng.normal(0, 5, 400), 5.0), "B": (80 + rng.normal(0, 25, 400), 5.0)}, seed=2)
    res = resampled_power(scores, ("A", "B"), 800, delta=0.0, n_sims=4000, seed=5)
    assert res.false_positive_rate <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 4000)


def test_stop_probabilities_and_curves():
    scores = _da_pair(seed=1)
    res = resampled_power(scores, ("A", "B"), 600, procedure="interim_futility", n_sims=500, seed=0)
    assert res.looks == 3 and abs(sum(res.stop_probabilities) - 1) < 1e-12
    assert all(0 <= p <= 1 for p in res.efficacy_probabilities + res.futility_probabilities)
    assert res.expected_judgments < 600 and res.method == "resample"
    curves = resampled_curves(scores, ("A", "B"), [200, 800], procedures=("fixed",), n_sims=300, seed=0)
    assert list(curves.columns[:3]) == ["procedure", "budget", "power"] and len(curves) == 2
    assert curves["power"].iloc[1] > curves["power"].iloc[0]


def test_validation_messages():
    scores = _da_pair(seed=1)
    with pytest.raises(ValueError, match="`systems`"):
        resampled_power(scores, ("A", "A"), 400)
    with pytest.raises(ValueError, match="`systems`"):
        resampled_power(scores, ("A", "Z"), 400)
    with pytest.raises(ValueError, match="`n_sims`"):
        resampled_power(scores, ("A", "B"), 1_000_000, n_sims=200)
    with pytest.raises(ValueError, match="`scores`"):
        resampled_power(pd.DataFrame({"x": [1]}), ("A", "B"), 400)
    with pytest.raises(ValueError, match="`budget`"):
        resampled_power(scores, ("A", "B"), 5)


def test_resampling_the_score_model_reproduces_the_campaign_engine():
    """Judgments laid out on the DA score model's quantiles (Wei et al. §6.1, means 76 and 74; 100,000 each),
    resampled with their own difference: the campaign engine's analytic power, expected judgments and Type-M.
    (Shifting B instead would not be the model: in the model a lower mean also changes the Gamma's shape.)"""
    from core.sequential import _gamma, campaign_power

    pool = 100_000
    q = (np.arange(pool) + 0.5) / pool

    def model(mean):  # tenths: within the histogram test's 4,096 distinct values
        return np.round(100 - np.minimum(_gamma(mean, 27.0).ppf(q), 100), 1)

    scores = pd.DataFrame({"system": np.repeat(["A", "B"], pool), "item": np.tile(np.arange(pool), 2),
                           "score": np.r_[model(76.0), model(74.0)]})
    for procedure in ("fixed", "interim_futility"):
        res = resampled_power(scores, ("A", "B"), 1200, procedure=procedure, n_sims=4000, seed=3)
        ref = campaign_power(procedure, 1200, 2.0)
        # 4 Monte Carlo SEs, plus 0.01 for the tenths and the analytic engine's normal approximation
        assert abs(res.power - ref.power) <= 4 * res.mc_se + 0.01
        assert abs(res.expected_judgments - ref.expected_judgments) <= 4 * res.judgments_se + 5
        assert abs(res.type_m - ref.type_m) <= 4 * res.type_m_se + 0.02


def test_rows_without_ids_and_a_missing_pair_get_a_clear_message():
    """A table built by hand with a missing segment id would merge those rows into one segment (the fit) or stop
    with numpy's TypeError (the resampling); both now say which rows; ``systems=None`` names the parameter."""
    table = pd.DataFrame({"system": ["A", "A", "B", "B", "B"], "item": [1, 2, 1, 2, np.nan],
                          "score": [60.0, 70.0, 65.0, 75.0, 80.0]})
    with pytest.raises(ValueError, match=r"`scores`: 1 rows have no `system` or no `item` id \(rows 4\)"):
        he.resampled_power(table, ("A", "B"), 40, n_sims=100, seed=0)
    with pytest.raises(ValueError, match="`scores`: 1 rows"):
        he.variance_components(table)
    with pytest.raises(ValueError, match="`systems` must name two systems"):
        he.resampled_power(table.dropna(), None, 40, n_sims=100, seed=0)

"""A subset instead of the full benchmark (core.llm.subset)."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from core import llm


def test_subset_se_two_ways():
    for n_total, m, p in ((5000, 500, 0.7), (200, 199, 0.3), (1000, 1, 0.5), (50, 50, 0.6)):
        k = round(p * n_total)
        x = np.arange(0, min(k, m) + 1)
        pmf = stats.hypergeom.pmf(x, n_total, k, m)  # the subset's count of right items, enumerated
        mean = (x * pmf).sum()
        want = math.sqrt(((x - mean) ** 2 * pmf).sum()) / m
        assert llm.subset_se(m, n_total, k / n_total) == pytest.approx(want, abs=1e-12)


def test_subset_se_by_simulation():
    rng = np.random.default_rng(1)
    pop = rng.random(2000) < 0.65
    m, reps = 300, 4000
    means = np.array([pop[rng.choice(2000, m, replace=False)].mean() for _ in range(reps)])
    se = llm.subset_se(m, 2000, pop.mean())
    sd = means.std(ddof=1)
    assert abs(sd - se) < 4 * se / math.sqrt(2 * (reps - 1))


def test_subset_size_is_the_first():
    z = stats.norm.isf(0.025)
    for n_total, p, h in ((5000, 0.7, 0.02), (300, 0.5, 0.05), (10_000, 0.9, 0.01)):
        m = llm.subset_size(n_total, p, h)
        assert z * llm.subset_se(m, n_total, p) <= h + 1e-12
        assert m == 1 or z * llm.subset_se(m - 1, n_total, p) > h


def _brute_agreement(m, n, a, b):
    labels = np.array([1] * a + [-1] * b + [0] * (n - a - b))
    full = np.sign(labels.sum())
    total = 0.0
    for s in itertools.combinations(range(n), m):
        d = np.sign(labels[list(s)].sum())
        total += 1.0 if d == full else 0.5 if d == 0 else 0.0
    return total / math.comb(n, m)


@pytest.mark.parametrize("m,n,a,b", [(5, 12, 4, 2), (6, 12, 1, 3), (3, 10, 5, 0), (7, 11, 3, 4)])
def test_agreement_exact_by_enumeration(m, n, a, b):
    assert llm.subset_agreement(m, n_total=n, a_only=a, b_only=b) == pytest.approx(_brute_agreement(m, n, a, b))


def test_agreement_exact_by_simulation_and_normal_close():
    rng = np.random.default_rng(4)
    n, a, b, m, reps = 2000, 100, 140, 200, 20_000
    labels = np.array([1] * a + [-1] * b + [0] * (n - a - b))
    idx = np.argsort(rng.random((reps, n)), axis=1)[:, :m]
    d = np.sign(labels[idx].sum(axis=1))
    score = np.where(d == -1, 1.0, np.where(d == 0, 0.5, 0.0))
    exact = llm.subset_agreement(m, n_total=n, a_only=a, b_only=b)
    assert abs(score.mean() - exact) < 4 * score.std(ddof=1) / math.sqrt(reps)
    assert llm.subset_agreement(m, n_total=n, a_only=a, b_only=b, method="normal") == pytest.approx(exact, abs=0.01)
    assert llm.subset_agreement(n, n_total=n, a_only=a, b_only=b) == pytest.approx(1.0)


def test_size_for_agreement_is_a_crossing():
    for method in ("exact", "normal"):
        m = llm.subset_size_for_agreement(2000, 100, 140, target_agreement=0.95, method=method)
        assert llm.subset_agreement(m, n_total=2000, a_only=100, b_only=140, method=method) >= 0.95
        assert llm.subset_agreement(m - 1, n_total=2000, a_only=100, b_only=140, method=method) < 0.95


def test_prediction_assisted_unbiased_and_se_by_simulation():
    rng = np.random.default_rng(6)
    k, n, m, reps = 6, 400, 60, 4000
    p = rng.beta(2, 1, n)
    y = (rng.random((k, n)) < p).astype(float)
    res = llm.prediction_assisted_se(y, m)
    pred = (y.sum(0) - y[0]) / (k - 1)  # leave model 0 out
    draws = np.argsort(rng.random((reps, n)), axis=1)[:, :m]
    est = pred.mean() + (y[0][draws] - pred[draws]).mean(axis=1)
    truth = y[0].mean()
    assert abs(est.mean() - truth) < 4 * est.std(ddof=1) / math.sqrt(reps)
    se = res.table["se_assisted"].iloc[0]
    assert abs(est.std(ddof=1) - se) < 4 * se / math.sqrt(2 * (reps - 1))
    assert res.table["se_subset"].iloc[0] == pytest.approx(
        math.sqrt(y[0].var(ddof=1) / m * (1 - m / n)))
    assert 0 < res.variance_ratio < 1


def test_variance_bound_against_numerical_integration():
    for a, b in ((1, 1), (2, 0.5), (0.3, 0.7)):
        resid = integrate.quad(lambda p: p * (1 - p) * stats.beta.pdf(p, a, b), 0, 1)[0]
        mu = a / (a + b)
        bound = llm.subset_variance_bound(a, b)
        assert bound.residual_variance == pytest.approx(resid, rel=1e-6)
        assert bound.variance_ratio == pytest.approx(resid / (mu * (1 - mu)), rel=1e-6)
    # an oracle predictor (the true p_i) reaches the bound on a large simulated benchmark
    rng = np.random.default_rng(9)
    p = rng.beta(2, 3, 200_000)
    y = rng.random(p.size) < p
    assert np.var(y - p) / np.var(y) == pytest.approx(llm.subset_variance_bound(2, 3).variance_ratio, abs=0.01)


def test_stratified_bound_is_neyman_allocation_in_fine_strata():
    """Strata of known p with Neyman allocation (Cochran 1977, eq. 5.26: V = (Σ W_h S_h)²/n) leave
    E[√(p(1 − p))]²/μ(1 − μ) of a random subset's variance: against quadrature, against the Neyman variance over 400
    equal-probability strata of Beta(2, 1), and below the difference estimator's (a + b)/(a + b + 1) (for Beta(2, 1)
    0.694 vs 0.75: a prediction-assisted random subset is not the best design-based subset)."""
    for a, b in ((1, 1), (2, 1), (0.3, 0.7)):
        mean_sd = integrate.quad(lambda p: math.sqrt(p * (1 - p)) * stats.beta.pdf(p, a, b), 0, 1)[0]
        mu = a / (a + b)
        bound = llm.subset_variance_bound(a, b)
        assert bound.stratified_ratio == pytest.approx(mean_sd**2 / (mu * (1 - mu)), rel=1e-6)
        assert bound.stratified_ratio < bound.variance_ratio
    edges = stats.beta.ppf(np.linspace(0, 1, 401), 2, 1)
    s_h = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        p_bar = integrate.quad(lambda p: p * stats.beta.pdf(p, 2, 1), lo, hi)[0] * 400  # within-stratum mean of p
        s_h.append(math.sqrt(p_bar * (1 - p_bar)))  # S_h² = p̄_h(1 − p̄_h) for 0/1 items of the stratum
    neyman = np.mean(s_h) ** 2 / (2 / 3 * 1 / 3)
    assert neyman == pytest.approx(llm.subset_variance_bound(2, 1).stratified_ratio, abs=2e-3)


def test_read_correctness_wide_and_long():
    wide = b"model,q1,q2,q3\nA,1,0,1\nB,0,0,1\nC,1,1,1\n"
    got = llm.read_correctness(wide, name="w.csv")
    assert got.shape == (3, 3) and list(got.index) == ["A", "B", "C"]
    long = b"model,item,score\n" + b"".join(f"{m},{i},{(i + j) % 2}\n".encode()
                                            for j, m in enumerate("AB") for i in range(4))
    got = llm.read_correctness(long, name="l.csv")
    assert got.shape == (2, 4)
    with pytest.raises(ValueError, match="line 3"):
        llm.read_correctness(b"model,q1,q2\nA,1,0\nB,x,1\n", name="bad.csv")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        llm.read_correctness(b"model,q1,q2\nA,1,0\nB,2,1\n", name="bad.csv")


def test_validation_and_teaser():
    with pytest.raises(ValueError, match="`m`"):
        llm.subset_se(0, 10, 0.5)
    with pytest.raises(ValueError, match="`a_only`"):
        llm.subset_agreement(5, n_total=10, a_only=3, b_only=3)
    with pytest.raises(ValueError, match="`method`"):
        llm.subset_agreement(5, n_total=10, a_only=3, b_only=1, method="mc")
    t = llm.subset_teaser()
    assert t.value == pytest.approx(stats.norm.isf(0.025) * llm.subset_se(500, 5000, 0.7))
    assert isinstance(llm.prediction_assisted_se(pd.DataFrame([[1, 0], [0, 1]], index=["a", "b"]), 1).table,
                      pd.DataFrame)


def test_exact_window_loses_no_mass():
    # the exact sum over every x (no window) as the oracle, on a benchmark where the window is much narrower
    n, a, b, m = 20_000, 3000, 3100, 9000
    x = np.arange(0, min(a, m) + 1)
    px = stats.hypergeom.pmf(x, n, a, m)
    y_below = stats.hypergeom.cdf(x - 1, n - a, b, m - x)
    y_equal = stats.hypergeom.pmf(x, n - a, b, m - x)
    # B wins the full run: agreement = P(Y > X) + ½P(Y = X)
    full = np.sum(px * (1 - y_below - y_equal + 0.5 * y_equal))
    assert llm.subset_agreement(m, n_total=n, a_only=a, b_only=b) == pytest.approx(full, abs=1e-12)


def test_plan_item_states_the_numbers():
    from core.llm import plan as llm_plan

    se = llm.subset_se(500, 5000, 0.7)
    agree = llm.subset_agreement(500, n_total=5000, a_only=250, b_only=400)
    design = llm.SubsetDesign(n_total=5000, m=500, accuracy=0.7, a_only_share=0.05, b_only_share=0.08,
                              halfwidth=0.02, target_agreement=0.95, seed=3)
    assert (design.a_only, design.b_only) == (250, 400)
    item = llm_plan.subset_plan_item(design, se=se, agreement=agree,
                                     m_for_halfwidth=llm.subset_size(5000, 0.7, 0.02), m_for_agreement=360)
    results = dict(item.results)
    assert results["SE vs the full run"] == f"{se:.4f}"
    assert results["Same winner as the full run"] == f"{100 * agree:.1f}%"
    assert "seed 3" in item.paragraph and "not the first 500" in item.paragraph


def test_curve_matches_pointwise_values():
    curve = llm.subset_curve((10, 100, 1000), n_total=1000, accuracy=0.6, a_only=50, b_only=70)
    for row in curve.itertuples():
        assert row.se == pytest.approx(llm.subset_se(row.m, 1000, 0.6))
        assert row.agreement == pytest.approx(llm.subset_agreement(row.m, n_total=1000, a_only=50, b_only=70))
    assert curve["agreement"].iloc[-1] == pytest.approx(1.0) and curve["se"].iloc[-1] == 0.0


def test_agreement_when_every_item_is_one_model_s_alone_is_one():
    """a_only = N (so b_only = 0): every subset holds only items A alone gets right and picks A. Oracle: that
    certainty. The sum used to evaluate a hypergeometric on an
    empty population and return NaN (and the size search then returned N instead of 1)."""
    for n_total in (2, 3, 10, 57):
        for m in range(1, n_total + 1):
            assert llm.subset_agreement(m, n_total=n_total, a_only=n_total, b_only=0) == 1.0
            assert llm.subset_agreement(m, n_total=n_total, a_only=0, b_only=n_total) == 1.0
    assert llm.subset_size_for_agreement(10, 10, 0) == 1

"""Binomial intervals and their exact coverage (core.accuracy.intervals) against independent oracles.

Oracles: Brown, Cai & DasGupta (2001) formulas written out here (Wilson, Wald, Clopper–Pearson by
root-finding on the binomial tails), scipy beta quantiles for the Bayesian intervals, coverage by simulation
within 4 MC SE, and the values quoted for n = 100, p = 0.97.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from core import accuracy as acc

Z = stats.norm.isf(0.025)


def _wilson(k, n):
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z / (1 + Z**2 / n) * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n * n))
    return centre - half, centre + half


def _clopper_pearson(k, n):
    low = 0.0 if k == 0 else optimize.brentq(lambda p: stats.binom.sf(k - 1, n, p) - 0.025, 1e-12, 1 - 1e-12)
    high = 1.0 if k == n else optimize.brentq(lambda p: stats.binom.cdf(k, n, p) - 0.025, 1e-12, 1 - 1e-12)
    return low, high


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (10, 10), (150, 164), (164, 164), (47, 100)])
def test_limits_match_the_formulas(k, n):
    assert acc.interval(k, n) == pytest.approx(_wilson(k, n), abs=1e-10)
    assert acc.interval(k, n, method="clopper_pearson") == pytest.approx(_clopper_pearson(k, n), abs=1e-8)
    p = k / n
    half = Z * math.sqrt(p * (1 - p) / n)
    assert acc.interval(k, n, method="wald") == pytest.approx((max(p - half, 0), min(p + half, 1)), abs=1e-12)
    assert acc.interval(k, n, method="beta") == pytest.approx(
        (stats.beta.ppf(0.025, k + 1, n - k + 1), stats.beta.ppf(0.975, k + 1, n - k + 1)), abs=1e-10)
    # Jeffreys: the equal-tailed Beta(k + ½, n − k + ½) quantiles, with 0 at k = 0 and 1 at k = n (Brown, Cai &
    # DasGupta 2001, §4.1.2)
    jeffreys = (0.0 if k == 0 else stats.beta.ppf(0.025, k + 0.5, n - k + 0.5),
                1.0 if k == n else stats.beta.ppf(0.975, k + 0.5, n - k + 0.5))
    assert acc.interval(k, n, method="jeffreys") == pytest.approx(jeffreys, abs=1e-10)


def test_wald_collapses_at_all_right():
    assert acc.interval(164, 164, method="wald") == (1.0, 1.0)
    low, high = acc.interval(164, 164)
    assert low < 0.98 and high == pytest.approx(1.0)


def test_coverage_at_n100_p097():
    # exact coverage at n = 100, p = 0.97: Wald 0.8022, Wilson 0.9688, Clopper–Pearson 0.9894
    assert acc.interval_coverage(100, 0.97, method="wald") == pytest.approx(0.8022, abs=5e-5)
    assert acc.interval_coverage(100, 0.97, method="wilson") == pytest.approx(0.9688, abs=5e-5)
    assert acc.interval_coverage(100, 0.97, method="clopper_pearson") == pytest.approx(0.9894, abs=5e-5)


def test_coverage_by_brute_force_sum_and_simulation():
    n, p = 164, 0.9
    k = np.arange(n + 1)
    w = stats.binom.pmf(k, n, p)
    covered = np.array([_wilson(int(i), n)[0] <= p <= _wilson(int(i), n)[1] for i in k])
    assert acc.interval_coverage(n, p) == pytest.approx(float(w[covered].sum()), abs=1e-12)
    rng = np.random.default_rng(5)
    draws = rng.binomial(n, p, size=40_000)
    lims = {int(i): acc.interval(int(i), n, method="wald") for i in np.unique(draws)}
    hit = np.mean([lims[int(d)][0] <= p <= lims[int(d)][1] for d in draws])
    se = math.sqrt(hit * (1 - hit) / draws.size)
    assert abs(hit - acc.interval_coverage(n, p, method="wald")) <= 4 * se


def test_clopper_pearson_never_undercovers_and_vector_input():
    ps = np.linspace(0.01, 0.99, 99)
    cov = acc.interval_coverage(50, ps, method="clopper_pearson")
    assert cov.shape == ps.shape and cov.min() >= 0.95 - 1e-12 and cov.max() <= 1.0
    curves = acc.coverage_curves(50, points=21)
    assert set(curves["method"]) == set(acc.INTERVAL_METHODS) and len(curves) == 21 * 5
    assert curves["coverage"].between(0, 1).all()


def test_sample_size_for_halfwidth():
    # Wilson 95% half-width <= 0.02 at p̂ = p = 0.9 needs n = 868
    assert acc.interval_sample_size(0.9, 0.02) == 868
    lo, hi = _wilson(0.9 * 868, 868)
    assert (hi - lo) / 2 <= 0.02
    lo, hi = _wilson(0.9 * 867, 867)
    assert (hi - lo) / 2 > 0.02
    # Wald closed form ⌈z² p(1 − p)/h²⌉
    assert acc.interval_sample_size(0.9, 0.02, method="wald") == math.ceil(Z**2 * 0.09 / 0.02**2)


def test_wald_sample_size_is_the_closed_form_whenever_the_interval_is_not_clipped():
    rng = np.random.default_rng(11)
    for _ in range(60):
        p = rng.uniform(0.02, 0.98)
        h = rng.uniform(0.005, min(p, 1 - p))  # p ± h inside [0, 1]: no clipping at the answer
        closed = math.ceil(Z**2 * p * (1 - p) / h**2)
        if abs(Z**2 * p * (1 - p) / h**2 - round(Z**2 * p * (1 - p) / h**2)) < 1e-9:
            continue  # a float tie at an integer
        assert acc.interval_sample_size(p, h, method="wald") == closed, (p, h)


def test_wald_sample_size_measures_the_clipped_interval_the_user_reports():
    # p = 0.07443, h = 0.0818 > p: the textbook formula says 40, but the reported interval is clipped at 0
    p, h = 0.07443, 0.0818
    assert math.ceil(Z**2 * p * (1 - p) / h**2) == 40
    n = acc.interval_sample_size(p, h, method="wald")
    assert n == 34

    def reported_half(n):  # the Wald interval at p̂ = p, clipped to [0, 1], written out
        half = Z * math.sqrt(p * (1 - p) / n)
        return (min(p + half, 1.0) - max(p - half, 0.0)) / 2

    assert reported_half(34) <= h < reported_half(33)


def test_errors_name_the_parameter():
    with pytest.raises(ValueError, match="`k`"):
        acc.interval(11, 10)
    with pytest.raises(ValueError, match="`method`"):
        acc.interval(1, 10, method="agresti")
    with pytest.raises(ValueError, match="`confidence`"):
        acc.interval(1, 10, confidence=1.0)
    with pytest.raises(ValueError, match="`p`"):
        acc.interval_coverage(10, 1.2)
    with pytest.raises(ValueError, match="`halfwidth`"):
        acc.interval_sample_size(0.5, 0.0)


@pytest.mark.parametrize("n", [10, 100, 164, 1000])
def test_coverage_at_the_edges_is_one_for_intervals_that_reach_them(n):
    """At p = 0 or 1 every sample gives k = 0 or n, whose Wilson, Clopper–Pearson and (Brown, Cai & DasGupta's
    modified) Jeffreys limits are exactly 0 and 1: coverage 1. Floating point gave Wilson 0.9999999999999999 at
    k = n, so the enumerated coverage came out 0 (found by an independent review)."""
    for method in ("wilson", "clopper_pearson", "jeffreys"):
        assert acc.interval(n, n, method=method)[1] == 1.0 and acc.interval(0, n, method=method)[0] == 0.0
        assert acc.interval_coverage(n, 1.0, method=method) == 1.0
        assert acc.interval_coverage(n, 0.0, method=method) == 1.0


def test_coverage_names_a_p_that_is_not_a_number():
    from core.accuracy import interval_coverage
    with pytest.raises(ValueError, match="`p` must be numbers"):
        interval_coverage(10, "a")

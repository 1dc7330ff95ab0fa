"""The fitted Satterthwaite test's power by quadrature (core.ratings.fitted_test_power).

Oracles: the simulation engine (``likert_power(…, rule="satterthwaite", method="simulate")``), which fits every
replicate's mean squares exactly as the analyst's REML/lmerTest fit of the balanced design does (Card et al. 2020,
appendix H.3), with tolerances from its Monte Carlo SE; a much finer quadrature; the nominal level where the df are
large (null calibration).
"""

from __future__ import annotations

import math

import pytest

from core.ratings import PRESETS, fitted_test_power, likert_power

ZERO_SLOPES = dict(sigma_w0=0.5, sigma_w1=0.0, sigma_i0=0.5, sigma_i1=0.0, sigma=1.0)
N_SIMS = 200_000


def simulated(workers, items, effect, sigmas, seed):
    return likert_power(workers, items, effect, **sigmas, rule="satterthwaite", method="simulate", n_sims=N_SIMS,
                        seed=seed)


@pytest.mark.parametrize("workers, items, effect, sigmas", [
    (3, 100, 0.236, ZERO_SLOPES),      # the approximation's "80%" MDE here: the fitted test has 56%
    (10, 20, 0.168, ZERO_SLOPES),
    (3, 100, 0.1, PRESETS["high"]),    # the page's default
    (5, 50, -0.08, PRESETS["low"]),
])
def test_power_false_positives_and_type_m_match_the_simulated_fit(workers, items, effect, sigmas):
    q = fitted_test_power(workers, items, effect, **sigmas)
    s = simulated(workers, items, effect, sigmas, seed=workers * items)
    # 4 Monte Carlo SE, plus the quadrature's own error (below 2e-3, next test)
    assert abs(q.power - s.power) < 4 * s.mc_se + 2e-3
    assert abs(q.false_positive_rate - s.false_positive_rate) < 4 * s.false_positive_rate_se + 2e-3
    assert abs(q.type_m - s.type_m) < 0.02 * s.type_m
    assert q.method == "quadrature" and q.mc_se == 0.0


def test_the_approximation_overstates_power_with_zero_slope_variances():
    approx = likert_power(3, 100, 0.236, **ZERO_SLOPES, rule="satterthwaite", method="analytic")
    q = fitted_test_power(3, 100, 0.236, **ZERO_SLOPES)
    assert approx.power == pytest.approx(0.80, abs=0.005)
    assert q.power == pytest.approx(0.563, abs=0.005)


def test_at_table_16s_presets_the_approximation_is_within_about_a_point():
    for name, (workers, items, effect) in (("high", (5, 200, 0.185)), ("low", (10, 20, 0.096))):
        approx = likert_power(workers, items, effect, **PRESETS[name], rule="satterthwaite", method="analytic")
        assert abs(fitted_test_power(workers, items, effect, **PRESETS[name]).power - approx.power) < 0.015


@pytest.mark.parametrize("workers, items, effect, sigmas", [
    (3, 100, 0.236, ZERO_SLOPES), (3, 100, 0.1, PRESETS["high"]), (2, 5, 0.3, PRESETS["low"])])
def test_default_nodes_are_converged(workers, items, effect, sigmas):
    fine = fitted_test_power(workers, items, effect, **sigmas, nodes=(600, 200, 40))
    q = fitted_test_power(workers, items, effect, **sigmas)
    assert abs(q.power - fine.power) < 2e-3
    assert abs(q.false_positive_rate - fine.false_positive_rate) < 2e-3


def test_null_calibration():
    # many workers and items: the estimated df are large and the test holds its level
    big = fitted_test_power(50, 200, 0.0, **PRESETS["high"])
    assert big.power == big.false_positive_rate == pytest.approx(0.05, abs=1e-3)
    assert math.isnan(big.type_m) and math.isnan(big.type_s)
    # three workers: the df are estimated from two and the test exceeds its level (the simulated 7.3%)
    few = fitted_test_power(3, 100, 0.0, **PRESETS["high"])
    s = simulated(3, 100, 0.0, PRESETS["high"], seed=1)
    assert few.false_positive_rate > 0.065
    assert abs(few.false_positive_rate - s.false_positive_rate) < 4 * s.false_positive_rate_se + 2e-3


def test_symmetric_in_the_sign_and_probabilities_in_range():
    up = fitted_test_power(4, 30, 0.12, **PRESETS["high"], alpha=0.01)
    down = fitted_test_power(4, 30, -0.12, **PRESETS["high"], alpha=0.01)
    assert up.power == pytest.approx(down.power, abs=1e-12)
    assert up.type_s == pytest.approx(down.type_s, abs=1e-12)
    for r in (up, down, fitted_test_power(2, 2, 0.5, **ZERO_SLOPES), fitted_test_power(40, 1000, 0.5, **ZERO_SLOPES)):
        assert 0.0 <= r.power <= 1.0 and 0.0 <= r.false_positive_rate <= 1.0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="`nodes`"):
        fitted_test_power(3, 100, 0.1, **PRESETS["high"], nodes=(2, 2, 2))
    with pytest.raises(ValueError, match="`workers`"):
        fitted_test_power(1, 100, 0.1, **PRESETS["high"])
    with pytest.raises(ValueError, match="`effect`"):
        fitted_test_power(3, 100, 0.9, **PRESETS["high"])
    with pytest.raises(ValueError, match="`sigma`"):
        fitted_test_power(3, 100, 0.1, sigma_w0=0.1, sigma_w1=0.1, sigma_i0=0.1, sigma_i1=0.1, sigma=5.0)


def test_mde_reaches_the_target_exactly_and_is_larger_where_the_approximation_is_off():
    from core.ratings import fitted_test_mde, likert_mde

    for workers, items, sigmas in ((3, 100, ZERO_SLOPES), (10, 20, ZERO_SLOPES), (5, 200, PRESETS["high"])):
        m = fitted_test_mde(workers, items, **sigmas)
        assert fitted_test_power(workers, items, m, **sigmas).power == pytest.approx(0.8, abs=1e-6)
        assert fitted_test_power(workers, items, 0.98 * m, **sigmas).power < 0.8
    # zero slope variances: 0.371 against the approximation's 0.236 (whose power the simulated fit puts at 56%)
    assert fitted_test_mde(3, 100, **ZERO_SLOPES) == pytest.approx(0.371, abs=1e-3)
    assert likert_mde(3, 100, **ZERO_SLOPES) == pytest.approx(0.236, abs=1e-3)
    assert math.isnan(fitted_test_mde(2, 5, **PRESETS["high"]))  # not reachable for β1 ≤ 0.5
    with pytest.raises(ValueError, match="`target_power`"):
        fitted_test_mde(3, 100, target_power=0.01, **PRESETS["high"])  # below the fitted test's one-sided rate

"""Assurance: power averaged over a normal prior on the effect.

Oracles: the closed form for a normal test, Φ((μ − z s)/√(s² + τ²)) (O'Hagan, Stevens & Campbell 2005,
eq. 3); Monte Carlo over the prior with each scenario's exact engine at every draw (tolerance from its
standard error); τ → 0 gives the power at μ.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from core import accuracy as acc
from core import llm
from core.accuracy.engine import _exact_moments
from core.assurance import assurance, normal_assurance


@pytest.mark.parametrize("se, mu, tau", [(0.01, 0.02, 0.01), (0.005, 0.01, 0.05), (0.02, -0.03, 0.004),
                                         (0.001, 0.0005, 0.002), (0.05, 0.1, 0.0)])
def test_generic_integrator_matches_the_normal_closed_form(se, mu, tau):
    z = stats.norm.isf(0.025)

    def directional(d):
        return stats.norm.sf(z - d / se), stats.norm.cdf(-z - d / se)

    res = assurance(directional, prior_mean=mu, prior_sd=tau, power_at_mean=stats.norm.sf(z - abs(mu) / se),
                    scale=se)
    assert res.assurance == pytest.approx(normal_assurance(se, mu, tau), abs=2e-6)
    assert res.ceiling == pytest.approx(stats.norm.cdf(abs(mu) / tau) if tau else 1.0, abs=1e-9)
    assert res.direction == (1 if mu >= 0 else -1)


def test_a_vague_prior_cannot_be_rescued_by_more_data():
    # the ceiling P(Δ > 0) bounds the assurance at every n
    values = [acc.mcnemar_assurance(n, 0.01, 0.02, 0.9) for n in (500, 5_000, 50_000, 500_000)]
    assert [v.assurance for v in values] == sorted(v.assurance for v in values)
    ceiling = values[0].ceiling
    assert all(v.assurance <= v.ceiling + 1e-9 for v in values)
    gaps = [ceiling - v.assurance for v in values]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < 0.02  # only effects within ~2 SE of 0 stay hidden
    # P(0 < Δ ≤ 0.1) / P(|Δ| ≤ 0.1) under N(0.01, 0.02²): the prior truncated to feasible gains
    assert ceiling == pytest.approx((stats.norm.cdf(4.5) - stats.norm.cdf(-0.5)) / (stats.norm.cdf(4.5) - stats.norm.cdf(-5.5)))


def test_zero_prior_sd_gives_the_power():
    assert acc.mcnemar_assurance(2000, 0.02, 0.0, 0.9).assurance == pytest.approx(acc.mcnemar_power(2000, 0.02,
                                                                                                     0.9).power)
    res = llm.benchmark_assurance(800, 0.6, 0.04, 0.0, difficulty_sd=0.2, correlation=0.5, samples=3)
    assert res.assurance == pytest.approx(llm.benchmark_power(800, 0.6, 0.64, difficulty_sd=0.2, correlation=0.5,
                                                              samples=3).power)
    # and a tiny τ is continuous with it
    tiny = acc.mcnemar_assurance(2000, 0.02, 1e-6, 0.9)
    assert tiny.assurance == pytest.approx(acc.mcnemar_power(2000, 0.02, 0.9).power, abs=1e-4)


@pytest.mark.parametrize("n, mu, tau, agreement, test", [(2000, 0.02, 0.02, 0.9, "exact"), (500, 0.03, 0.01, 0.85, "midp"),
                                                         (1000, -0.02, 0.015, 0.9, "exact"), (3000, 0.01, 0.01, 0.95, "normal")])
def test_mcnemar_assurance_against_monte_carlo_over_the_prior(n, mu, tau, agreement, test):
    p_disc = 1 - agreement
    rng = np.random.default_rng(7)
    draws = rng.normal(mu, tau, 200_000)
    draws = draws[np.abs(draws) <= p_disc][:30_000]  # the prior truncated to feasible gains
    if test == "normal":
        z = stats.norm.isf(0.025)
        sd = np.sqrt((p_disc - draws**2) / n)
        crit = z * math.sqrt(p_disc / n)
        up, down = stats.norm.sf((crit - draws) / sd), stats.norm.cdf((-crit - draws) / sd)
    else:
        m = _exact_moments(np.full(draws.size, n), np.full(draws.size, p_disc), (p_disc + draws) / (2 * p_disc),
                           test, 0.05)
        up, down = m.p_up, m.p_low
    hoped = up if mu >= 0 else down
    mc, se = hoped.mean(), hoped.std(ddof=1) / math.sqrt(hoped.size)
    res = acc.mcnemar_assurance(n, mu, tau, agreement, test=test)
    assert abs(res.assurance - mc) <= 4 * se
    assert res.power_at_mean == pytest.approx(acc.mcnemar_power(n, mu, agreement, test=test).power)


def test_benchmark_assurance_against_monte_carlo_over_the_prior():
    kw = dict(difficulty_sd=0.2, correlation=0.6, samples=2, cluster_size=5, icc=0.3, judge_sensitivity=0.9,
              judge_specificity=0.95)
    rng = np.random.default_rng(3)
    draws = rng.normal(0.03, 0.02, 40_000)
    # P(significant, estimate > 0 | Δ) at each draw from the closed form, vectorized over the draws
    design = llm._validate(0.65, 0.65, kw["difficulty_sd"], kw["correlation"], kw["samples"], kw["cluster_size"],
                           kw["icc"], kw["judge_sensitivity"], kw["judge_specificity"], 0.05)
    cf = llm._closed_form(1500, design, mu_b=0.65 + draws)
    wrong = cf["rejection_rate"] - np.where(draws != 0, cf["power"], cf["rejection_rate"] / 2)
    positive = np.where(draws > 0, cf["power"], wrong)
    mc, se = positive.mean(), positive.std(ddof=1) / math.sqrt(positive.size)
    point = llm.benchmark_power(1500, 0.65, 0.67, **kw).power  # spot check of the vectorized oracle
    one = llm._closed_form(1500, design, mu_b=np.array([0.67]))["power"][0]
    assert one == pytest.approx(point)
    res = llm.benchmark_assurance(1500, 0.65, 0.03, 0.02, **kw)
    assert abs(res.assurance - mc) <= 4 * se
    assert res.ceiling == pytest.approx(stats.norm.cdf(1.5), abs=1e-6)


def test_bad_priors_are_refused():
    with pytest.raises(ValueError, match="`delta_sd`"):
        acc.mcnemar_assurance(100, 0.02, -0.1, 0.9)
    with pytest.raises(ValueError, match="`delta_mean`"):
        acc.mcnemar_assurance(100, 0.2, 0.01, 0.9)
    with pytest.raises(ValueError, match="`delta_mean`"):
        llm.benchmark_assurance(100, 0.95, 0.2, 0.01, difficulty_sd=0.2)


@pytest.mark.parametrize("test", ["exact", "midp", "chi2_cc", "chi2"])
@pytest.mark.parametrize("agreement", [0.9, 0.8, 0.6])
def test_normal_limit_used_for_large_counts_agrees_with_the_exact_sums(test, agreement):
    """Just below the switch (SD of the discordant count 100) the exact engine is used; evaluated both ways at the
    same designs they agree to 10⁻⁴. The exact and continuity-corrected tests need the limit's one extra discordant
    count (Edwards 1948): without it the gap reaches 0.0023 (P_a = 0.8, mean 0.4 pp, SD 0.2 pp)."""
    from core.accuracy import paired

    p_disc = 1 - agreement
    n = int((100.0 ** 2) / (p_disc * (1 - p_disc))) - 10
    for mean, sd in ((0.002, 0.002), (0.004, 0.002), (0.004, 0.005), (0.008, 0.002), (0.0, 0.005)):
        exact = acc.mcnemar_assurance(n, mean, sd, agreement, test=test)
        limit = paired._ASSURANCE_EXACT_LIMIT
        try:
            paired._ASSURANCE_EXACT_LIMIT = 0.0
            normal = acc.mcnemar_assurance(n, mean, sd, agreement, test=test)
        finally:
            paired._ASSURANCE_EXACT_LIMIT = limit
        assert abs(exact.assurance - normal.assurance) < 1e-4, (mean, sd)


@pytest.mark.parametrize("test", ["exact", "midp", "chi2_cc", "chi2"])
@pytest.mark.parametrize("tie_rate", [0.5, 0.2])
def test_preference_assurance_normal_limit_agrees_with_the_exact_sums(test, tie_rate):
    """As for McNemar: at the switch (SD of the non-tied count 100) the normal limit, with Edwards' extra count
    for the exact and continuity-corrected tests, agrees with the exact sums to 10⁻⁴ (without it: 0.0018 at a
    tie rate of 0.5, mean 0.8 pp, SD 0.4 pp)."""
    from core.accuracy import preferences

    share = 1 - tie_rate
    n = int((100.0 ** 2) / (share * (1 - share))) - 10
    for mean, sd in ((0.002, 0.002), (0.008, 0.004), (0.004, 0.005), (0.0, 0.005)):
        exact = acc.preference_assurance(n, mean, sd, tie_rate=tie_rate, test=test)
        limit = preferences._ASSURANCE_EXACT_LIMIT
        try:
            preferences._ASSURANCE_EXACT_LIMIT = 0.0
            normal = acc.preference_assurance(n, mean, sd, tie_rate=tie_rate, test=test)
        finally:
            preferences._ASSURANCE_EXACT_LIMIT = limit
        assert abs(exact.assurance - normal.assurance) < 1e-4, (mean, sd)


@pytest.mark.parametrize("prior_sd", [0.005, 0.01, 0.02])
def test_assurance_sample_size_is_the_bisection_answer_in_few_evaluations(prior_sd):
    """Secant steps on the probit against log n give the same smallest n as bisection over the integers, with
    about half the exact evaluations (each costs an exact power at every quadrature node)."""
    from core import accuracy as acc
    from core.assurance import assurance_sample_size

    calls = []

    def assure(n):
        calls.append(n)
        return acc.mcnemar_assurance(n, 0.02, prior_sd, 0.10, alpha=0.001).assurance

    ceiling = acc.mcnemar_assurance(500, 0.02, prior_sd, 0.10, alpha=0.001).ceiling
    n = assurance_sample_size(assure, 0.8, ceiling=ceiling, guess=38_512, n_min=10, n_max=2_000_000)
    assert assure(n - 1) < 0.8 <= assure(n)  # the smallest reaching n (assurance is increasing)
    assert len(calls) - 2 <= 12  # bisection over the bracket would take about 20 after the bracketing

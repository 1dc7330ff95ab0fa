"""Family power under multiplicity corrections (core.multiplicity) against independent oracles.

Oracles: statsmodels ``multipletests`` (Benjamini–Hochberg; Holm through its adjusted p-values, checked against
``multipletests``) applied to simulated z statistics, within 4 Monte Carlo standard errors; the Bonferroni closed
form; P(all) = power^m for independent comparisons without correction; and a direct simulation of equicorrelated
z's for the correlation option.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from core import multiplicity as mt


def _oracle(powers, correction, *, alpha=0.05, rho=0.0, n_sims=4000, seed=11):
    """Simulate z's and let statsmodels decide: (per-comparison, all, any) rejection rates."""
    mus = mt.effect_from_power(np.asarray(powers), alpha=alpha)
    rng = np.random.default_rng(seed)
    m = len(powers)
    z = math.sqrt(1 - rho) * rng.standard_normal((n_sims, m)) + math.sqrt(rho) * rng.standard_normal((n_sims, 1))
    p = 2 * stats.norm.sf(np.abs(z + mus))
    if correction == "holm":
        rejected = _holm_adjusted(p) <= alpha
    else:
        name = {"bh": "fdr_bh", "bonferroni": "bonferroni"}[correction]
        rejected = np.array([multipletests(row, alpha=alpha, method=name)[0] for row in p])
    return rejected.mean(axis=0), rejected.all(axis=1).mean(), rejected.any(axis=1).mean()


def _holm_adjusted(p):
    """Holm's adjusted p-values, row by row: p̃_(i) = max_{j <= i} min(1, (m − j + 1) p_(j)) (Holm 1979).

    statsmodels' Holm takes ~20 ms a call, so the simulated oracle uses this textbook formula, itself checked
    against ``multipletests(method="holm")`` on random rows in :func:`test_holm_oracle_matches_statsmodels`.
    """
    m = p.shape[1]
    order = np.argsort(p, axis=1)
    sorted_p = np.take_along_axis(p, order, axis=1)
    adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * sorted_p), axis=1)
    out = np.empty_like(adjusted)
    np.put_along_axis(out, order, adjusted, axis=1)
    return out


def test_holm_oracle_matches_statsmodels():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=(30, 7)) ** 3
    ours = _holm_adjusted(p)
    for row, adj in zip(p, ours):
        assert np.allclose(multipletests(row, alpha=0.05, method="holm")[1], adj, atol=1e-12)


def _within(estimate, exact, n_sims, k=4.0):
    se = math.sqrt(max(exact * (1 - exact), 1e-12) / n_sims)
    return abs(estimate - exact) <= k * se + 1e-12


def test_effect_from_power_inverts_the_two_sided_power():
    mu = mt.effect_from_power(0.8)
    z = stats.norm.isf(0.025)
    assert stats.norm.sf(z - mu) + stats.norm.cdf(-z - mu) == pytest.approx(0.8, abs=1e-12)
    assert mt.effect_from_power(0.05) == 0.0


def test_five_comparisons_at_80_percent():
    # Holm: ≈70% each and ≈29% for all five (exact chain); Bonferroni closed form; none: 0.8 and 0.8⁵
    holm = mt.family_power([0.8] * 5, correction="holm")
    assert holm.method == "exact" and holm.mc_se == 0
    assert holm.per_comparison[0] == pytest.approx(0.704, abs=5e-4)
    assert holm.all == pytest.approx(0.2915, abs=5e-4)
    none = mt.family_power([0.8] * 5, correction="none")
    assert none.all == pytest.approx(0.8**5, abs=1e-10) and none.per_comparison[0] == pytest.approx(0.8, abs=1e-10)
    bonf = mt.family_power([0.8] * 5, correction="bonferroni")
    mu = mt.effect_from_power(0.8)
    c = stats.norm.isf(0.005)
    each = stats.norm.sf(c - mu) + stats.norm.cdf(-c - mu)
    assert bonf.per_comparison[0] == pytest.approx(each, abs=1e-12)
    assert bonf.all == pytest.approx(each**5, abs=1e-12)
    assert bonf.any == pytest.approx(1 - (1 - each) ** 5, abs=1e-12)


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_exact_chain_matches_statsmodels_on_simulated_z(correction):
    n_sims = 4000
    exact = mt.family_power([0.7] * 6, correction=correction)
    per, all_, any_ = _oracle([0.7] * 6, correction, n_sims=n_sims)
    assert _within(per.mean(), exact.per_comparison[0], n_sims * 6)
    assert _within(all_, exact.all, n_sims) and _within(any_, exact.any, n_sims)
    assert exact.expected_rejections == pytest.approx(exact.per_comparison.sum())


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_simulation_with_unequal_powers_matches_statsmodels(correction):
    powers = [0.95, 0.8, 0.6, 0.4, 0.2]
    got = mt.family_power(powers, correction=correction, n_sims=100_000, seed=1)
    assert got.method == "simulate" and 0 < got.mc_se < 0.002
    per, all_, any_ = _oracle(powers, correction, n_sims=4000, seed=2)
    for j in range(5):
        assert _within(per[j], got.per_comparison[j], 4000, k=4.5)
    assert _within(all_, got.all, 4000, k=4.5) and _within(any_, got.any, 4000, k=4.5)


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_simulation_agrees_with_the_exact_chain(correction):
    exact = mt.family_power([0.8] * 5, correction=correction, correlation=0.3)
    # a tiny perturbation forces the simulation path
    sim = mt.family_power([0.8] * 4 + [0.800001], correction=correction, correlation=0.3, n_sims=200_000, seed=7)
    assert abs(sim.all - exact.all) <= 4 * sim.mc_se
    assert abs(sim.per_comparison.mean() - exact.per_comparison[0]) <= 4 * sim.mc_se


@pytest.mark.parametrize("correction", ["holm", "bh", "bonferroni"])
def test_correlation_option_matches_statsmodels(correction):
    exact = mt.family_power([0.75] * 4, correction=correction, correlation=0.6)
    per, all_, any_ = _oracle([0.75] * 4, correction, rho=0.6, n_sims=4000, seed=9)
    assert _within(all_, exact.all, 4000) and _within(any_, exact.any, 4000)
    # positive correlation makes "all claims hold" likelier than under independence
    assert exact.all > mt.family_power([0.75] * 4, correction=correction).all


def test_null_family_is_calibrated():
    # every comparison null (power = α): Holm and Bonferroni keep P(any rejection) <= α
    for correction in ("holm", "bonferroni"):
        r = mt.family_power([0.05] * 8, correction=correction)
        assert r.any <= 0.05 + 1e-12
    assert mt.family_power([0.05] * 8, correction="none").any == pytest.approx(1 - 0.95**8, abs=1e-12)


def test_family_sample_size():
    assert mt.family_sample_size(5) == pytest.approx(1.488, abs=5e-4)
    za, zb = stats.norm.isf(0.025), stats.norm.ppf(0.8)
    closed = ((stats.norm.isf(0.005) + zb) / (za + zb)) ** 2
    assert mt.family_sample_size(5) == pytest.approx(closed, abs=2e-4)  # the wrong-tail term is negligible
    holm = mt.family_sample_size(5, correction="holm")
    assert 1.0 < holm < mt.family_sample_size(5)
    # at that factor each comparison's Holm power is back at 80%
    mu = math.sqrt(holm) * mt.effect_from_power(0.8)
    z = stats.norm.isf(0.025)
    power = stats.norm.sf(z - mu) + stats.norm.cdf(-z - mu)
    assert mt.family_power([power] * 5, correction="holm").per_comparison[0] == pytest.approx(0.8, abs=1e-6)
    assert mt.family_sample_size(5, correction="none") == 1.0


def test_errors_name_the_parameter():
    with pytest.raises(ValueError, match="`powers`"):
        mt.family_power([])
    with pytest.raises(ValueError, match="`powers`"):
        mt.family_power([0.01, 0.8])
    with pytest.raises(ValueError, match="`correction`"):
        mt.family_power([0.8], correction="sidak")
    with pytest.raises(ValueError, match="`correlation`"):
        mt.family_power([0.8, 0.8], correlation=-0.2)
    with pytest.raises(ValueError, match="`m`"):
        mt.family_sample_size(0)


# ---------------------------------------------------------------------------
# strong correlation: quadrature over the shared factor, the limit ρ = 1, bounded work
# ---------------------------------------------------------------------------
def _bonferroni_by_quad(powers, rho, alpha=0.05):
    """P(all), P(any) for Bonferroni: scipy's adaptive quad over W of the conditionally independent product."""
    from scipy import integrate

    mus = mt.effect_from_power(np.asarray(powers), alpha=alpha)
    c, s = stats.norm.isf(alpha / len(powers) / 2), math.sqrt(1 - rho)

    def cond(w):
        centre = mus + math.sqrt(rho) * w
        return stats.norm.sf((c - centre) / s) + stats.norm.cdf((-c - centre) / s)

    scale = s / math.sqrt(rho)  # the conditional probabilities change on this scale in W
    points = sorted({float(x) for x in np.concatenate([(c - mus) / math.sqrt(rho), (-c - mus) / math.sqrt(rho)])
                     if abs(x) < 9})

    def integral(f):
        return integrate.quad(lambda w: f(w) * stats.norm.pdf(w), -9, 9, points=points, limit=2000,
                              epsabs=1e-11, epsrel=1e-11)[0] if scale > 0 else math.nan

    return integral(lambda w: np.prod(cond(w))), 1 - integral(lambda w: np.prod(1 - cond(w)))


@pytest.mark.parametrize("powers, rho", [([0.8] * 40, 0.9), ([0.8] * 5, 0.95), ([0.3, 0.6, 0.9, 0.99], 0.999),
                                         ([0.8] * 40, 0.6), ([0.8] * 40, 0.3)])
def test_bonferroni_quadrature_matches_adaptive_integration(powers, rho):
    # the 64-node Gauss–Hermite rule was off by 2.5e-3 at ρ = 0.9 with 40 comparisons
    got = mt.family_power(powers, correction="bonferroni", correlation=rho)
    all_, any_ = _bonferroni_by_quad(powers, rho)
    assert got.all == pytest.approx(all_, abs=2e-7) and got.any == pytest.approx(any_, abs=2e-7)


@pytest.mark.parametrize("correction", ["holm", "bh", "bonferroni", "none"])
def test_full_correlation_is_the_closed_form(correction):
    # ρ = 1: every z equals μ + W, so equal comparisons are all rejected or none; P = Φ(μ − c) + Φ(−μ − c)
    m = 50
    mu = mt.effect_from_power(0.8)
    level = {"holm": 0.05 / m, "bonferroni": 0.05 / m, "bh": 0.05, "none": 0.05}[correction]
    c = stats.norm.isf(level / 2)
    closed = stats.norm.sf(c - mu) + stats.norm.cdf(-c - mu)
    got = mt.family_power([0.8] * m, correction=correction, correlation=1.0)
    assert got.method == "exact" and got.mc_se == 0
    assert got.all == pytest.approx(closed, abs=1e-12) and got.any == pytest.approx(closed, abs=1e-12)
    assert np.allclose(got.per_comparison, closed, atol=1e-12)


@pytest.mark.parametrize("correction", ["holm", "bh", "bonferroni"])
def test_full_correlation_with_unequal_powers_matches_the_simulated_oracle(correction):
    powers = [0.95, 0.8, 0.6, 0.4, 0.2, 0.1]
    got = mt.family_power(powers, correction=correction, correlation=1.0)
    assert got.method == "exact"
    per, all_, any_ = _oracle(powers, correction, rho=1.0, n_sims=4000, seed=5)
    for j in range(len(powers)):
        assert _within(per[j], got.per_comparison[j], 4000)
    assert _within(all_, got.all, 4000) and _within(any_, got.any, 4000)


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_correlation_0999_answers_and_matches_the_simulated_oracle(correction):
    # 50 comparisons at ρ = 0.999 raised OverflowError in scipy's incomplete beta
    got = mt.family_power([0.8] * 50, correction=correction, correlation=0.999, n_sims=40_000, seed=3)
    per, all_, any_ = _oracle([0.8] * 50, correction, rho=0.999, n_sims=4000, seed=6)
    tol = lambda x: 4 * math.sqrt(got.mc_se**2 + max(x * (1 - x), 1e-12) / 4000)  # noqa: E731
    assert abs(got.all - all_) <= tol(all_) and abs(got.any - any_) <= tol(any_)
    assert abs(got.per_comparison.mean() - per.mean()) <= tol(per.mean())
    # near the limit ρ = 1 (all 50 statistics almost identical) P(all) is close to P(any)
    assert got.any - got.all < 0.05
    # and the exact chain on few comparisons answers too (no overflow)
    small = mt.family_power([0.8] * 5, correction=correction, correlation=0.999)
    assert small.method == "exact" and 0 < small.all <= small.any <= 1


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_500_comparisons_at_correlation_09_are_simulated_within_a_work_limit(correction):
    got = mt.family_power([0.8] * 500, correction=correction, correlation=0.9, seed=1)
    assert got.method == "simulate" and got.n_sims * 500 <= 10_000_000 and got.mc_se > 0
    per, all_, any_ = _oracle([0.8] * 500, correction, rho=0.9, n_sims=3000, seed=8)
    tol = lambda x: 4 * math.sqrt(got.mc_se**2 + max(x * (1 - x), 1e-12) / 3000)  # noqa: E731
    assert abs(got.all - all_) <= tol(all_) and abs(got.any - any_) <= tol(any_)
    assert abs(got.per_comparison.mean() - per.mean()) <= tol(per.mean())


def test_effect_from_power_refuses_what_is_not_a_power():
    # 1.5 returned the 40 cap, −0.5 returned 0 and α = 2 returned 0 without a word
    for bad in (1.5, -0.5, float("nan")):
        with pytest.raises(ValueError, match="`power`"):
            mt.effect_from_power(bad)
    with pytest.raises(ValueError, match="`alpha`"):
        mt.effect_from_power(0.5, alpha=2)
    with pytest.raises(ValueError, match="`alpha`"):
        mt.effect_from_power(0.5, alpha=0)

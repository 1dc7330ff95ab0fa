"""Tests of core.bayes (Azer et al. 2020, HyBayes §2.3–2.4, appendix A.3).

Oracles: the paper's ARC-easy example; sampling from the conjugate Beta
posteriors; closed forms (uniform-prior ROPE probability, Student-t posterior).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from core import bayes


def test_hybayes_arc_easy_example():
    # §2.3, Figure 2: 95% HDI (0.00939, 0.0612) from MCMC; P(H3, margin 0) = 0.996;
    # §2.4: P(H0|y) = 0.027, prior P(H0) = 0.019(9), BF01 = 1.382 from their rounded MCMC numbers.
    r = bayes.compare_accuracies(1721, 2376, 1637, 2376, prior=(1, 1), rope=0.01, hdi=0.95)
    assert r.hdi[0] == pytest.approx(0.00939, abs=3e-4)
    assert r.hdi[1] == pytest.approx(0.0612, abs=3e-4)
    assert round(r.p_superior, 3) == 0.996
    assert round(r.p_rope, 3) == 0.027
    assert r.prior_rope == pytest.approx(1 - 0.99**2, abs=1e-6)  # uniform priors: P(|θ1−θ2| < 0.01)
    assert r.bf01 == pytest.approx(1.382, abs=0.02)
    assert r.decision == "undecided"  # ROPE overlaps the HDI (§2.3)


def test_exact_agrees_with_sampling():
    exact = bayes.compare_accuracies(430, 500, 410, 500, prior=(2, 2), rope=0.02)
    draws = bayes.compare_accuracies(430, 500, 410, 500, prior=(2, 2), rope=0.02, method="sampling", seed=3)
    se = math.sqrt(exact.p_rope * (1 - exact.p_rope) / 400_000)
    assert draws.p_rope == pytest.approx(exact.p_rope, abs=4 * se)
    assert draws.p_superior == pytest.approx(exact.p_superior, abs=4 * math.sqrt(0.25 / 400_000))
    assert draws.hdi == pytest.approx(exact.hdi, abs=1e-3)


def test_decisions():
    assert bayes.compare_accuracies(5000, 10000, 5010, 10000, rope=0.05).decision == "practically equivalent"
    assert bayes.compare_accuracies(900, 1000, 700, 1000, rope=0.01).decision == "A better"
    assert bayes.compare_accuracies(700, 1000, 900, 1000, rope=0.01).decision == "B better"


def test_posterior_density_integrates_to_one():
    r = bayes.compare_accuracies(60, 100, 50, 100)
    step = r.grid[1] - r.grid[0]
    assert r.density.sum() * step == pytest.approx(1.0, abs=1e-4)


def test_arc_easy_interval_has_equal_density_at_its_ends():
    # the shortest 95% interval has the same density at both ends; the density here by convolution (regular shapes)
    from scipy import optimize

    r = bayes.compare_accuracies(1721, 2376, 1637, 2376)
    nodes, weights = np.polynomial.legendre.leggauss(400)
    lo, hi = stats.beta.ppf([1e-14, 1 - 1e-14], 1722, 656)
    t = 0.5 * (hi - lo) * nodes + 0.5 * (hi + lo)
    w = 0.5 * (hi - lo) * weights * stats.beta.pdf(t, 1722, 656)

    def cdf(x):
        return float(stats.beta.sf(t - x, 1638, 740) @ w)

    def density(x):
        return float(stats.beta.pdf(t - x, 1638, 740) @ w)

    low, high = r.hdi
    assert cdf(high) - cdf(low) == pytest.approx(0.95, abs=1e-6)
    assert density(low) == pytest.approx(density(high), rel=1e-4)
    right = optimize.brentq(lambda u: cdf(u) - cdf(low) - 0.95, low, 0.2)
    assert right == pytest.approx(high, abs=1e-6)


def test_singular_posteriors_are_integrated_on_the_probability_scale():
    # a prior below 1 with no correct answers: the posterior density is infinite at 0. Identical data give
    # P(A > B) = 1/2 and a symmetric interval; the old density quadrature said 0.789 and (−0.089, 0.241).
    r = bayes.compare_accuracies(0, 10, 0, 10, prior=(0.1, 0.1))
    assert r.p_superior == pytest.approx(0.5, abs=1e-9)
    rng = np.random.default_rng(4)
    d = rng.beta(0.1, 10.1, 2_000_000) - rng.beta(0.1, 10.1, 2_000_000)
    assert r.p_rope == pytest.approx(np.mean(np.abs(d) < 0.01), abs=2e-3)  # MC SE 3e-4 plus the quadrature's
    assert abs(r.hdi[0] + r.hdi[1]) < 0.01 and r.hdi[1] == pytest.approx(np.quantile(np.abs(d), 0.95), abs=0.01)
    # Jeffreys prior, both perfect on 100 items: symmetric to within a few 10⁻⁴
    perfect = bayes.compare_accuracies(100, 100, 100, 100, prior=(0.5, 0.5))
    assert perfect.p_superior == pytest.approx(0.5, abs=1e-9) and abs(sum(perfect.hdi)) < 5e-4
    step = perfect.grid[1] - perfect.grid[0]
    assert perfect.density.sum() * step == pytest.approx(1.0, abs=1e-3)  # the drawn density holds the mass


def test_prior_rope_below_a_half_against_sampling():
    # Beta(0.1, 0.1) priors: P(|θA − θB| < 0.02) is 0.245, not 0.152 (the Bayes factor changes side of 1)
    r = bayes.compare_accuracies(50, 100, 45, 100, prior=(0.1, 0.1), rope=0.02)
    rng = np.random.default_rng(5)
    d = rng.beta(0.1, 0.1, 2_000_000) - rng.beta(0.1, 0.1, 2_000_000)
    assert r.prior_rope == pytest.approx(np.mean(np.abs(d) < 0.02), abs=2e-3)
    assert r.bf01 < 1


def test_a_posterior_much_narrower_than_the_other():
    # 500,000 of 1,000,000 against 5 of 10: the difference is Beta(6, 6) − 1/2 up to a 5·10⁻⁴ blur
    r = bayes.compare_accuracies(5, 10, 500_000, 1_000_000)
    half = stats.beta.ppf(0.975, 6, 6) - 0.5  # symmetric and unimodal: the HDI is the central interval
    assert r.hdi == pytest.approx((-half, half), abs=1e-3)
    assert r.p_rope == pytest.approx(stats.beta.cdf(0.51, 6, 6) - stats.beta.cdf(0.49, 6, 6), abs=2e-4)


def test_compare_means_student_t():
    rng = np.random.default_rng(0)
    d = rng.normal(0.2, 1.0, 50)
    r = bayes.compare_means(d, rope=0.1, hdi=0.9)
    t = stats.t(49, loc=d.mean(), scale=d.std(ddof=1) / math.sqrt(50))
    assert r.hdi == pytest.approx(t.interval(0.9))
    assert r.p_rope == pytest.approx(t.cdf(0.1) - t.cdf(-0.1))
    assert math.isnan(r.bf01)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: bayes.compare_accuracies(11, 10, 5, 10), "`correct_a`"),
        (lambda: bayes.compare_accuracies(5, 0, 5, 10), "`n_a`"),
        (lambda: bayes.compare_accuracies(5, 10, 5, 10, prior=(0, 1)), "`prior`"),
        (lambda: bayes.compare_accuracies(5, 10, 5, 10, rope=0.9), "`rope`"),
        (lambda: bayes.compare_accuracies(5, 10, 5, 10, hdi=1.0), "`hdi`"),
        (lambda: bayes.compare_means([1.0, 2.0]), "`differences`"),
    ],
)
def test_value_errors(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()

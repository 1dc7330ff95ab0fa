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

"""core.sequential.campaign_sample_size against the campaign power engine (brute-force scans of the budget)."""

import numpy as np
import pytest

from core import sequential as sq
from core.sizing import SampleSize


@pytest.mark.parametrize("procedure, delta, test", [("fixed", 2.0, "mwu"), ("interim", 5.0, "mwu"),
                                                    ("interim_futility", -3.0, "mwu"), ("interim", 4.0, "t"),
                                                    ("naive", 3.0, "mwu")])
def test_first_budget_reaches_the_target_and_the_one_below_does_not(procedure, delta, test):
    size = sq.campaign_sample_size(procedure, delta, test=test)
    assert isinstance(size, SampleSize) and size.first > 0
    assert sq.campaign_power(procedure, size.first, delta, test=test).power >= 0.8
    assert sq.campaign_power(procedure, size.first - 1, delta, test=test).power < 0.8
    # brute force: no smaller budget in a window below reaches the target (campaign_power one budget at a time)
    below = [sq.campaign_power(procedure, b, delta, test=test).power for b in range(size.first - 40, size.first, 3)]
    assert max(below) < 0.8


def test_conservative_budget_stays_above_the_target():
    size = sq.campaign_sample_size("interim_futility", 2.5, target_power=0.9, peeks=4, boundary="obrien_fleming")
    assert size.conservative >= size.first > 0
    scan = [sq.campaign_power("interim_futility", b, 2.5, peeks=4, boundary="obrien_fleming").power
            for b in range(size.conservative, size.conservative + 120, 7)]
    assert min(scan) >= 0.9


def test_options_move_the_size_the_right_way():
    fixed = sq.campaign_sample_size("fixed", 2.0).first
    assert sq.campaign_sample_size("interim", 2.0).first > fixed  # Pocock's stricter threshold costs judgments
    assert sq.campaign_sample_size("fixed", 2.0, alpha=0.01).first > fixed
    assert sq.campaign_sample_size("fixed", 2.0, sd=20.0).first < fixed
    # the per-system size of the fixed t test is close to the two-sample normal formula 2σ²(z_α/2 + z_β)²/Δ² × 2
    from scipy import stats
    moments = sq.score_distribution(75.0, 27.0)
    z = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    formula = 2 * 2 * (moments.sd**2) * z**2 / 2.0**2
    assert abs(sq.campaign_sample_size("fixed", 2.0, test="t").first - formula) / formula < 0.05


def test_validation():
    with pytest.raises(ValueError, match="`delta`"):
        sq.campaign_sample_size("fixed", 0.0)
    with pytest.raises(ValueError, match="`target_power`"):
        sq.campaign_sample_size("fixed", 2.0, target_power=1.0)
    with pytest.raises(ValueError, match="`design`"):
        sq.campaign_sample_size("sometimes", 2.0)
    assert sq.campaign_sample_size("fixed", 0.05).first == -1  # beyond 1,000,000 judgments

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


# The DA search scans blocks of max(16, ⌊√n⌋) budgets (campaign._campaign_block), a quarter of the generic block that
# spans the O(√n) zigzag of exact tests on counts: the campaign's power rises with the budget without drops (only
# the rounding of looks to whole judgments moves its boundaries).
_DESIGNS = [("interim", 5.0, dict(peeks=3, boundary="pocock", test="mwu")),
            ("interim_futility", 4.0, dict(peeks=4, boundary="obrien_fleming", test="mwu")),
            ("interim", 8.0, dict(peeks=5, boundary="lan_demets", test="t")),
            ("naive", -3.0, dict(peeks=5, boundary="pocock", test="mwu"))]


def _power_of_budgets(procedure, delta, options):
    from core.sequential import campaign

    looks = options["peeks"]
    kind = options["boundary"]
    return campaign._power_of_budgets(procedure, delta, looks, kind, 0.5, 75.0, 27.0, 0.05, options["test"])


@pytest.mark.parametrize("procedure, delta, options", _DESIGNS)
def test_power_never_drops_as_the_budget_grows(procedure, delta, options):
    """Every even budget over six generic search blocks around the answer: power is non-decreasing (the premise
    of the short block)."""
    from core.sizing import search_block

    size = sq.campaign_sample_size(procedure, delta, **options)
    reach = 3 * search_block(size.first)
    budgets = np.arange(max(40, size.first - reach) // 2 * 2, size.first + reach, 2)
    power = _power_of_budgets(procedure, delta, options)(budgets)
    assert np.all(np.diff(power) >= 0), budgets[1:][np.diff(power) < 0]
    assert size.first == size.conservative


@pytest.mark.parametrize("procedure, delta, options", _DESIGNS)
@pytest.mark.parametrize("target", [0.8, 0.9])
def test_short_block_finds_what_the_generic_search_finds(procedure, delta, options, target):
    from core.sizing import sample_size_search

    found = sq.campaign_sample_size(procedure, delta, target_power=target, **options)
    generic = sample_size_search(_power_of_budgets(procedure, delta, options), target, guess=found.first / 2,
                                 n_max=1_000_000, low=max(20, 4 * options["peeks"]))
    assert found == generic

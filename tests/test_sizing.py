"""Sample sizes where power zigzags (issue: Foundation v2 §5).

Oracle: a brute-force scan of the exact power at every n (Chernick & Liu 2002
define both answers on that curve).
"""

from __future__ import annotations

import numpy as np
import pytest

from core import accuracy as acc
from core.accuracy.engine import _exact_moments, _power_many, _power_run
from core.accuracy.paired import _cells
from core.accuracy.preferences import _preference_cells
from core.sizing import SampleSize, sample_size_search


def per_n_power(ns, *, p_disc, q, effect, test, alpha):
    """The exact power at each n from its own Bin(n, p_d) pmf (_exact_moments), independent of the Pascal-rule
    recurrence that _power_many uses on runs of consecutive sizes."""
    m = _exact_moments(np.asarray(ns), p_disc, q, test, alpha)
    if effect == 0:
        return np.minimum(m.p_up + m.p_low + m.p_tie, 1.0)
    return np.minimum(m.p_up if effect > 0 else m.p_low, 1.0)


def brute_force(power, target, n_hi):
    """First n with power >= target, and 1 + the last n below it, scanning 1..n_hi."""
    ns = np.arange(1, n_hi + 1)
    reached = power(ns) >= target
    first = int(ns[np.argmax(reached)]) if reached.any() else -1
    below = ns[~reached]
    return first, int(below[-1]) + 1 if below.size else 1


def test_issue_examples_preferences():
    # first 786, stays >= 80% from 820; alpha 0.047 with split ties: 70 and 77
    assert acc.preference_sample_sizes(0.55, 0.45) == SampleSize(786, 820)
    assert acc.preference_sample_size(0.55, 0.45) == 786
    assert acc.preference_sample_size(0.55, 0.45, conservative=True) == 820
    assert acc.preference_sample_sizes(0.61, 0.27, alpha=0.047, ties="split") == SampleSize(70, 77)


@pytest.mark.parametrize(
    "p_a, p_b, alpha, ties, test",
    [
        (0.55, 0.45, 0.05, "drop", "exact"),
        (0.61, 0.27, 0.047, "split", "exact"),
        (0.65, 0.35, 0.05, "drop", "exact"),
        (0.40, 0.25, 0.01, "drop", "midp"),
        (0.30, 0.20, 0.05, "split", "chi2_cc"),
        (0.70, 0.30, 0.10, "drop", "chi2"),
    ],
)
def test_preference_sizes_equal_brute_force(p_a, p_b, alpha, ties, test):
    p_disc, q = _preference_cells(p_a, p_b, ties)

    def power(ns):
        return per_n_power(ns, p_disc=p_disc, q=q, effect=p_a - p_b, test=test, alpha=alpha)

    got = acc.preference_sample_sizes(p_a, p_b, alpha=alpha, ties=ties, test=test)
    want = brute_force(power, 0.8, 3 * max(got.conservative, 50))
    assert (got.first, got.conservative) == want


@pytest.mark.parametrize(
    "delta, agreement, alpha, test",
    [(0.05, 0.8, 0.05, "exact"), (0.1, 0.7, 0.05, "midp"), (0.08, 0.85, 0.01, "exact"), (0.15, 0.5, 0.05, "chi2_cc")],
)
def test_mcnemar_sizes_equal_brute_force(delta, agreement, alpha, test):
    p_disc, q = _cells(delta, agreement)

    def power(ns):
        return per_n_power(ns, p_disc=p_disc, q=q, effect=delta, test=test, alpha=alpha)

    got = acc.mcnemar_sample_sizes(delta, agreement, alpha=alpha, test=test)
    want = brute_force(power, 0.8, 3 * got.conservative)
    assert (got.first, got.conservative) == want
    assert acc.mcnemar_sample_size(delta, agreement, alpha=alpha, test=test) == got.first


def test_monotone_power_gives_equal_answers():
    # the two-proportion z test's power is monotone in n: both answers coincide
    sizes = acc.unpaired_sample_sizes(0.9, 0.02)
    assert sizes.first == sizes.conservative == acc.unpaired_sample_size(0.9, 0.02, conservative=True)


def test_search_on_a_synthetic_sawtooth():
    def saw(ns):
        return np.where((ns % 7 == 0) & (ns < 300), 0.0, np.minimum(ns / 200, 1.0))

    assert sample_size_search(saw, 0.8, guess=30, n_max=10_000) == SampleSize(160, 295)
    # a target that is never reached
    assert sample_size_search(lambda ns: np.full(len(ns), 0.5), 0.8, guess=10, n_max=1000) == SampleSize(-1, -1)


@pytest.mark.parametrize(
    "n0, p_disc, q, effect, test, alpha",
    [(1, 0.2, 0.75, 0.1, "exact", 0.05), (500, 0.1, 0.6, 0.02, "exact", 0.05), (40, 0.3, 0.3, -0.12, "midp", 0.01),
     (3, 0.5, 0.5, 0.0, "exact", 0.05), (2000, 0.9, 0.5005, 0.0009, "chi2_cc", 0.5), (1, 0.4, 0.5, 0.0, "chi2_cc", 0.6),
     (100_000, 0.5, 0.51, 0.01, "chi2", 0.05)],
)
def test_pascal_rule_run_equals_the_per_n_pmf(n0, p_disc, q, effect, test, alpha):
    # oracle: each n's power summed over its own binomial pmf; both truncate at most 2e-12 of the mass
    ns = np.arange(n0, n0 + 400)
    run = _power_run(n0, ns.size, p_disc, q, effect, test, alpha)
    np.testing.assert_allclose(run, per_n_power(ns, p_disc=p_disc, q=q, effect=effect, test=test, alpha=alpha),
                               rtol=0, atol=5e-12)
    np.testing.assert_array_equal(_power_many(ns, p_disc=p_disc, q=q, effect=effect, test=test, alpha=alpha), run)


def test_search_cost_is_a_few_blocks_however_far_the_guess():
    # the bracket is bisected before the block scans: a guess 4× too small or too large costs O(√n) evaluations
    first = 640_000

    def smooth(ns):
        smooth.evaluated += len(ns)
        return np.minimum(0.8 * np.asarray(ns, float) / first, 1.0)

    for guess in (first / 4, first * 4, first * 1.05, first):
        smooth.evaluated = 0
        assert sample_size_search(smooth, 0.8, guess=guess, n_max=10_000_000) == SampleSize(first, first)
        assert smooth.evaluated <= 6 * (4 * 800 + 4) + 60  # six blocks of 4√n + 4 and the bisection's points


def test_large_mcnemar_sample_size_in_bounded_time():
    # regression: at 10% agreement and Δ = 0.3 pp the scan used to evaluate every n in a 10% bracket one pmf
    # at a time (minutes, gigabytes). Oracle: the per-n exact power on either side of the answer, and the normal
    # approximation (Connett et al. 1987) within 0.1%
    got = acc.mcnemar_sample_sizes(0.003, 0.1)
    p_disc, q = _cells(0.003, 0.1)
    kw = dict(p_disc=p_disc, q=q, effect=0.003, test="exact", alpha=0.05)
    below, at = per_n_power([got.first - 1, got.first], **kw)
    assert below < 0.8 <= at
    assert (per_n_power(np.arange(got.conservative, got.conservative + 2000, 97), **kw) >= 0.8).all()
    normal = (1.959964 * np.sqrt(p_disc) + 0.841621 * np.sqrt(p_disc - 0.003**2)) ** 2 / 0.003**2
    assert got.first == pytest.approx(normal, rel=1e-3)


def test_smallest_reaching_is_the_first_true_of_a_scan():
    """The shared bisection gives what a scan from ``lo + 1`` finds, for monotone predicates and every bracket."""
    from core.sizing import smallest_reaching

    for threshold in range(1, 40):
        for lo in range(0, threshold):
            for hi in range(threshold, 41):
                calls = []
                found = smallest_reaching(lambda n: calls.append(n) or n >= threshold, lo, hi)
                assert found == next(n for n in range(lo + 1, hi + 1) if n >= threshold)
                assert all(lo < n < hi for n in calls)  # the ends are the caller's to check


def brute_force_within(power, target, n_max, low=1):
    """Both answers within the limit, by brute force over low..n_max: the first n reaching the target, and the
    smallest n from which every size up to n_max reaches it (-1 when n_max itself falls short)."""
    ns = np.arange(low, n_max + 1)
    reached = power(ns) >= target
    if not reached.any():
        return -1, -1
    first = int(ns[np.argmax(reached)])
    if not reached[-1]:
        return first, -1
    below = ns[~reached]
    return first, int(below[-1]) + 1 if below.size else low


# limits below, inside and above the zigzag band of the 55:45 preference (first 786, safe from 820) and of McNemar at
# Δ = 0.1 with no agreement (the same band: every pair discordant, as with preferences without ties)
BAND_LIMITS = (700, 785, 786, 787, 788, 790, 797, 800, 802, 816, 817, 819, 820, 830, 850, 900, 1000, 1200)


@pytest.mark.parametrize("n_max", BAND_LIMITS)
def test_preference_limit_inside_the_zigzag_band_equals_brute_force(n_max):
    # regression: a limit whose own power falls short gave (-1, -1) though n = 786 reaches 80% (0.8013), and a
    # limit past the band gave conservative -1 until two clean blocks fitted below it
    p_disc, q = _preference_cells(0.55, 0.45, "drop")

    def power(ns):
        return per_n_power(ns, p_disc=p_disc, q=q, effect=0.1, test="exact", alpha=0.05)

    got = acc.preference_sample_sizes(0.55, 0.45, n_max=n_max)
    assert (got.first, got.conservative) == brute_force_within(power, 0.8, n_max)


@pytest.mark.parametrize("n_max", BAND_LIMITS)
def test_mcnemar_limit_inside_the_zigzag_band_equals_brute_force(n_max):
    p_disc, q = _cells(0.1, 0.0)

    def power(ns):
        return per_n_power(ns, p_disc=p_disc, q=q, effect=0.1, test="exact", alpha=0.05)

    got = acc.mcnemar_sample_sizes(0.1, 0.0, n_max=n_max)
    assert (got.first, got.conservative) == brute_force_within(power, 0.8, n_max)


def test_issue_limits_inside_the_band():
    assert acc.preference_sample_sizes(0.55, 0.45, n_max=790) == SampleSize(786, -1)  # 790 itself: 0.784
    assert acc.preference_sample_sizes(0.55, 0.45, n_max=786) == SampleSize(786, 786)  # 787 is past the limit
    assert acc.preference_sample_sizes(0.55, 0.45, n_max=830) == SampleSize(786, 820)
    assert acc.preference_sample_sizes(0.55, 0.45, n_max=785) == SampleSize(-1, -1)
    assert acc.mcnemar_sample_sizes(0.1, 0.0, n_max=790) == SampleSize(786, -1)


@pytest.mark.parametrize("p_a, p_b, alpha, ties, test", [
    (0.61, 0.27, 0.047, "split", "exact"), (0.40, 0.25, 0.01, "drop", "midp"), (0.30, 0.20, 0.05, "split", "chi2_cc"),
])
def test_every_limit_around_the_band_equals_brute_force(p_a, p_b, alpha, ties, test):
    p_disc, q = _preference_cells(p_a, p_b, ties)

    def power(ns):
        return per_n_power(ns, p_disc=p_disc, q=q, effect=p_a - p_b, test=test, alpha=alpha)

    full = acc.preference_sample_sizes(p_a, p_b, alpha=alpha, ties=ties, test=test)
    for n_max in range(max(full.first - 10, 2), full.conservative + 12):
        got = acc.preference_sample_sizes(p_a, p_b, alpha=alpha, ties=ties, test=test, n_max=n_max)
        assert (got.first, got.conservative) == brute_force_within(power, 0.8, n_max), n_max


def test_synthetic_sawtooth_at_every_limit():
    # dips to 0 at multiples of 7 below 300 and a low end of 3: every limit from below the first n to past the band
    def saw(ns):
        return np.where((ns % 7 == 0) & (ns < 300), 0.0, np.minimum(ns / 200, 1.0))

    for n_max in range(3, 420):
        for guess in (30, 170, 5000):
            got = sample_size_search(saw, 0.8, guess=guess, n_max=n_max, low=3)
            assert (got.first, got.conservative) == brute_force_within(saw, 0.8, n_max, low=3), (n_max, guess)


def test_search_cost_when_the_limit_reaches_the_target_stays_a_few_blocks():
    # a limit far above the band is not scanned: the cost is that of the search without a limit
    first = 640_000

    def smooth(ns):
        smooth.evaluated += len(ns)
        return np.minimum(0.8 * np.asarray(ns, float) / first, 1.0)

    for n_max in (first + 10, first + 5_000, 9_000_000):
        smooth.evaluated = 0
        assert sample_size_search(smooth, 0.8, guess=first / 3, n_max=n_max) == SampleSize(first, first)
        assert smooth.evaluated <= 6 * (4 * 800 + 4) + 60


def test_a_target_out_of_reach_costs_one_short_window_below_the_limit():
    # n_max far under the band: no scan of two blocks below it (each costly for the campaign engines)
    def flat(ns):
        flat.evaluated += len(ns)
        return np.full(len(ns), 0.3)

    flat.evaluated = 0
    assert sample_size_search(flat, 0.8, guess=1000, n_max=10_000_000) == SampleSize(-1, -1)
    assert flat.evaluated <= 100
    # short of the target by less than a zigzag can dip (2/√n): the two blocks below the window are scanned, and the
    # one size reaching it, 150 below the limit, is found
    def spike(ns):
        return np.where(np.asarray(ns) == 550, 0.8, 0.79)

    assert sample_size_search(spike, 0.8, guess=100, n_max=700) == SampleSize(550, -1)

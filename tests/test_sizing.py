"""Sample sizes where power zigzags (issue: Foundation v2 §5).

Oracle: a brute-force scan of the exact power at every n (Chernick & Liu 2002
define both answers on that curve).
"""

from __future__ import annotations

import numpy as np
import pytest

from core import accuracy as acc
from core.accuracy.engine import _power_many
from core.accuracy.paired import _cells
from core.accuracy.preferences import _preference_cells
from core.sizing import SampleSize, sample_size_search


def brute_force(power, target, n_hi):
    """First n with power >= target, and 1 + the last n below it, scanning 1..n_hi."""
    ns = np.arange(1, n_hi + 1)
    reached = power(ns) >= target
    first = int(ns[np.argmax(reached)]) if reached.any() else -1
    below = ns[~reached]
    return first, int(below[-1]) + 1 if below.size else 1


def test_issue_examples_preferences():
    # issue 9 §5: first 786, stays >= 80% from 820; alpha 0.047 with split ties: 70 and 77
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
        return _power_many(ns, p_disc=p_disc, q=q, effect=p_a - p_b, test=test, alpha=alpha)

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
        return _power_many(ns, p_disc=p_disc, q=q, effect=delta, test=test, alpha=alpha)

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

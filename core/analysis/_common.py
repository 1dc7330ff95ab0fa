"""Shared pieces of :mod:`core.analysis`: limits, names and the input checks every engine uses. Package-internal."""

from __future__ import annotations

import os

import numpy as np

from .. import uploads


MAX_BYTES = uploads.MAX_BYTES
#: Most data rows (items) read from a results file.
MAX_ROWS = 1_000_000
#: Most system columns compared pairwise (200 systems = 19,900 pairs).
MAX_SYSTEMS = 200
#: Largest accepted |score|: beyond it differences, squares and sums of a
#: million rows could overflow double precision (1.8e308).
MAX_ABS_SCORE = 1e150
#: Monte Carlo sign flips of the mean run while n × resamples is at most this
#: (≈ 1 s); above it the permutation test uses its normal limit.
PERMUTATION_WORK = 500_000_000
#: Bootstrap resamples of the mean run while n × resamples is at most this
#: (≈ 1 s); above it the bootstrap test uses its normal limit.
BOOTSTRAP_WORK = 150_000_000
#: Most resampled values (pairs × rows × resamples, or pairs × rows for a
#: normal limit) for a permutation or bootstrap test of all pairs of systems.
PAIRWISE_WORK = 400_000_000
#: Most values ranked (pairs × rows) for a Wilcoxon test of all pairs of
#: systems (200 systems × 12,000 rows; about 5 s on two cores).
PAIRWISE_RANK_WORK = 250_000_000
#: Most resampled values (iterations × units) per size of the bootstrap power
#: curve drawn value by value; larger sizes use the normal limit (t test) or
#: fewer iterations (Wilcoxon test, at least 50).
CURVE_WORK = 10_000_000
#: Input layouts: two columns of paired scores; two 0/1 correctness columns;
#: predictions of A and B plus gold labels; one column per system.
KINDS = ("scores", "binary", "predictions", "systems")
TESTS = ("t", "wilcoxon", "sign", "permutation", "bootstrap", "mcnemar")
ALTERNATIVES = ("two-sided", "greater", "less")
_TEST_NAMES = {
    "t": "paired t test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "permutation": "paired permutation test",
    "bootstrap": "paired bootstrap test",
    "mcnemar": "McNemar's test",
}
#: Largest n for which the Wilcoxon test is exact (scipy's ``method="auto"``:
#: exact without ties or zeros, exact sign-flip enumeration with them when
#: n <= 13, the normal approximation otherwise and for every larger n).
WILCOXON_EXACT_MAX = 50
_CHUNK = 4_000_000  # elements per resampling chunk (32 MB of float64)
_EPS = 2.0**-52
_THREADS = max(1, min(2, os.cpu_count() or 1))  # worker threads for the pairwise tests


# ---------------------------------------------------------------------------
# input checks shared by the engines
# ---------------------------------------------------------------------------
def _is_binary(x) -> bool:
    return bool(np.all((x == 0.0) | (x == 1.0)))


def _paired(a, b, *, names=("a", "b"), min_size=3):
    """Validated float arrays a, b and d = a − b (1-D, equal length, finite, not too large)."""
    try:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{names[0]}` and `{names[1]}` must be arrays of numbers.") from None
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"`{names[0]}` and `{names[1]}` must be 1-D arrays of equal length.")
    if a.size < min_size:
        raise ValueError(f"`{names[0]}` and `{names[1]}` must hold at least {min_size} pairs; got {a.size}.")
    _check_values(a, names[0])
    _check_values(b, names[1])
    return a, b, a - b


def _check_values(x, name):
    """Finite and at most MAX_ABS_SCORE in absolute value (else differences and squares may overflow)."""
    if not np.all(np.isfinite(x)):
        raise ValueError(f"`{name}` must contain finite numbers only.")
    if x.size and float(np.max(np.abs(x))) > MAX_ABS_SCORE:
        raise ValueError(f"`{name}` holds values too large to compare (|x| up to {float(np.max(np.abs(x))):.3g}; at "
                         f"most {MAX_ABS_SCORE:g}); rescale the scores.")


def _differences(differences, *, name="differences", min_size=3):
    try:
        d = np.asarray(differences, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be an array of numbers.") from None
    if d.ndim != 1 or d.size < min_size:
        raise ValueError(f"`{name}` must be a 1-D array of at least {min_size} values.")
    _check_values(d, name)
    return d


_MEDIAN_PREFIX = (6.0, 64)  # sign flips drawn one by one for the M = 6√n' + 64 smallest |d|

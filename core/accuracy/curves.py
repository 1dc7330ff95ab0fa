"""Tidy power, Type-S and Type-M curves over sizes for the Accuracy page (Figures 3, 7, 8)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..validation import check_alpha, check_choice, check_int, check_probability, check_real
from .engine import TESTS, _N_MAX, _batch_results
from .paired import _cells, _validate_paired
from .preferences import _TIES, _preference_cells, preference_power
from .unpaired import unpaired_power

_CURVE_COLUMNS = ["n", "delta", "agreement", "power", "type_s", "type_m", "rejection_rate", "mean_significant"]


def _curve_frame(rows_keys, results, extra_columns):
    rows = [
        (*key, r.power, r.type_s, r.type_m, r.rejection_rate, r.mean_significant)
        for key, r in zip(rows_keys, results)
    ]
    return pd.DataFrame(rows, columns=extra_columns + _CURVE_COLUMNS[3:])


def paired_curves(ns, designs, *, alpha=0.05, test="exact") -> pd.DataFrame:
    """McNemar power, Type-S and Type-M over test-set sizes for given designs.

    Parameters
    ----------
    ns : array_like of int
        Test-set sizes.
    designs : sequence of (delta, agreement)
        Each pair must satisfy |delta| <= 1 - agreement.
    alpha, test
        As in :func:`mcnemar_power`.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``n, delta, agreement, power, type_s, type_m, rejection_rate,
        mean_significant``; all exact evaluations in one vectorized pass.
    """
    alpha = check_alpha(alpha)
    test = check_choice("test", test, TESTS)
    ns = [check_int("n", v, low=1, high=_N_MAX) for v in np.atleast_1d(ns)]
    checked = []
    for delta, agreement in designs:
        _, delta, agreement, _, _ = _validate_paired(1, delta, agreement, alpha, test)
        checked.append((delta, agreement))
    keys = [(n, d, a) for d, a in checked for n in ns]
    if not keys:
        return pd.DataFrame(columns=_CURVE_COLUMNS)
    cells = [_cells(d, a) for _, d, a in keys]
    results = _batch_results(
        np.array([k[0] for k in keys]), np.array([c[0] for c in cells]), np.array([c[1] for c in cells]),
        np.array([k[1] for k in keys]), test, alpha,
    )
    return _curve_frame(keys, results, ["n", "delta", "agreement"])


def power_curves(ns, deltas, agreements, *, alpha=0.05, test="exact") -> pd.DataFrame:
    """Power, Type-S and Type-M of McNemar's test on a grid (Figures 3, 7, 8).

    The grid is ``ns × deltas × agreements``; combinations with
    |Δ| > 1 - P_a are skipped. See :func:`paired_curves` for the columns.
    """
    deltas = [check_real("delta", v, low=-1.0, high=1.0) for v in np.atleast_1d(deltas)]
    agreements = [check_probability("agreement", v) for v in np.atleast_1d(agreements)]
    designs = [(d, a) for a in agreements for d in deltas if abs(d) <= 1.0 - a + 1e-12]
    return paired_curves(ns, designs, alpha=alpha, test=test)


def preference_curves(ns, designs, *, alpha=0.05, ties="drop", test="exact") -> pd.DataFrame:
    """Head-to-head power curves over numbers of raters.

    Parameters
    ----------
    designs : sequence of (p_a, p_b)
        Preference probabilities (the rest are ties).

    Returns
    -------
    pandas.DataFrame
        ``n, p_a, p_b, power, type_s, type_m, rejection_rate, mean_significant``.
    """
    alpha = check_alpha(alpha)
    ties = check_choice("ties", ties, _TIES)
    test = check_choice("test", test, TESTS)
    ns = [check_int("n", v, low=1, high=_N_MAX) for v in np.atleast_1d(ns)]
    for p_a, p_b in designs:
        preference_power(1, p_a, p_b, alpha=alpha, ties=ties, test=test)  # validates
    keys = [(n, a, b) for a, b in designs for n in ns]
    cells = [_preference_cells(a, b, ties) for _, a, b in keys]
    results = _batch_results(
        np.array([k[0] for k in keys]), np.array([c[0] for c in cells]), np.array([c[1] for c in cells]),
        np.array([k[1] - k[2] for k in keys]), test, alpha,
    )
    return _curve_frame(keys, results, ["n", "p_a", "p_b"])


def unpaired_curves(ns, baseline, deltas, *, alpha=0.05) -> pd.DataFrame:
    """Two-proportion test curves: ``n, baseline, delta`` plus the result columns."""
    keys, results = [], []
    for delta in np.atleast_1d(deltas):
        for n in np.atleast_1d(ns):
            keys.append((int(n), float(baseline), float(delta)))
            results.append(unpaired_power(int(n), baseline, float(delta), alpha=alpha))
    return _curve_frame(keys, results, ["n", "baseline", "delta"])



"""Shared pieces of :mod:`core.pairwise`: constants, limits and the input checks every engine uses.

Package-internal: the sibling modules import these from here (never from each other's public modules), so the
package's import graph has no cycle; the public constants are re-exported by :mod:`core.pairwise`.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ..validation import check_alpha, check_choice, check_int, check_real

#: Elo points per logit, 400 / ln(10) ≈ 173.7.
SCALE = 400.0 / math.log(10.0)
_S = 1.0 / SCALE
#: Tie handling: dropped from the fit, or split between the two systems — half a win each way (the word the
#: Accuracy page's preference test uses too, where a fair coin splits each tie so the sign test stays exact).
#: ``"half"``, this option's earlier name, is accepted for one release with a DeprecationWarning.
TIES = ("drop", "split")


def check_ties(ties) -> str:
    """``ties`` checked against :data:`TIES` (the deprecated ``"half"`` read as ``"split"``)."""
    if isinstance(ties, str) and ties == "half":
        warnings.warn('`ties="half"` is now `ties="split"` (one vocabulary with core.accuracy); "half" will be '
                      "removed in the next release.", DeprecationWarning, stacklevel=3)
        return "split"
    return check_choice("ties", ties, TIES)
#: Engines.
METHODS = ("analytic", "simulate")
#: Accepted values of the ``winner`` column (public arena vote exports).
WINNERS = ("model_a", "model_b", "tie", "tie (bothbad)")
#: Synthetic sample votes shipped with the app (8 systems; see its README.txt).
SAMPLE_VOTES = Path(__file__).resolve().parents[1] / "data" / "pairwise_sample" / "votes.csv"

_MEAN_RATING = 1000.0
_Z95 = float(stats.norm.isf(0.025))
_K_MAX = 100  # systems in a planned leaderboard
_FIT_K_MAX = 1000  # models in an uploaded vote table
_N_MAX = 10_000_000
#: Most votes a design, a grid or a sample-size search considers.
MAX_VOTES = _N_MAX
_SPREAD_MAX = 2000.0  # Elo between the best and the worst system (p ≈ 1e-5)
_RIDGE = 1e-3
_TIE_TOL = 1e-7  # logits: estimated differences this small are ties (the fit converges to 1e-10)
#: Most bootstrap work in :func:`fit_bradley_terry` (replicates × observed pairs): a few seconds.
BOOT_WORK = 5_000_000
_BOOT_MIN = 100  # fewer replicates give unstable 2.5% / 97.5% percentiles
_QMC_BLOCKS, _QMC_POINTS = 8, 128


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _ratings(ratings) -> tuple[tuple[str, ...], np.ndarray]:
    """System names and ratings (input order) from a Series, a dict or an array."""
    if isinstance(ratings, pd.Series):
        names, values = [str(i) for i in ratings.index], list(ratings.to_numpy())
    elif isinstance(ratings, dict):
        names, values = [str(k) for k in ratings], list(ratings.values())
    elif isinstance(ratings, (str, bytes)) or not np.iterable(ratings):
        raise ValueError(f"`ratings` must be a list of numbers (one per system), got {ratings!r}.")
    else:
        values = list(np.asarray(ratings, dtype=object).ravel())
        names = list(_default_names(len(values)))
    k = len(values)
    if k < 2 or k > _K_MAX:
        raise ValueError(f"`ratings` must list between 2 and {_K_MAX} systems, got {k}.")
    if len(set(names)) != k:
        raise ValueError("`ratings`: system names must be distinct.")
    checked = np.array([check_real(f"ratings[{i}]", float(v) if isinstance(v, (np.floating, np.integer)) else v,
                                   low=-10_000.0, high=10_000.0) for i, v in enumerate(values)])
    spread = float(checked.max() - checked.min())
    if spread > _SPREAD_MAX:
        raise ValueError(f"`ratings` must span at most {_SPREAD_MAX:g} Elo (best minus worst), got {spread:g}.")
    return tuple(names), checked


def _check_judge(judge) -> float:
    """``judge_accuracy`` in (0.5, 1]."""
    if isinstance(judge, bool) or not isinstance(judge, (int, float, np.integer, np.floating)) or not (
            math.isfinite(float(judge)) and 0.5 < float(judge) <= 1.0):
        raise ValueError(f"`judge_accuracy` must be in (0.5, 1] (0.5 carries no information and below 0.5 the "
                         f"judge reverses the order), got {judge!r}.")
    return float(judge)


def _validate(ratings, *, n_votes=None, tie_rate=0.0, ties="drop", judge_accuracy=1.0, alpha=0.05,
              method="analytic", n_sims=500, target_power=None, halfwidth=None):
    """Check every argument of the public functions; returns them converted."""
    names, values = _ratings(ratings)
    if n_votes is not None:
        n_votes = check_int("n_votes", n_votes, low=1, high=_N_MAX)
    tie_rate = check_real("tie_rate", tie_rate, low=0.0, high=1.0, high_open=True)
    ties = check_ties(ties)
    judge = _check_judge(judge_accuracy)
    alpha = check_alpha(alpha)
    method = check_choice("method", method, METHODS)
    if method == "simulate":
        n_sims = check_int("n_sims", n_sims, low=100, high=100_000)
    if target_power is not None:
        target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    if halfwidth is not None:
        halfwidth = check_real("halfwidth", halfwidth, low=0.0, high=10_000.0, low_open=True)
    return names, values, n_votes, tie_rate, ties, judge, alpha, method, n_sims, target_power, halfwidth


def _default_names(k: int) -> tuple[str, ...]:
    """``S1`` … ``Sk`` (``k`` already checked)."""
    return tuple(f"S{i + 1}" for i in range(k))

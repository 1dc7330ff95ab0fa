"""The planned leaderboard: constants, validation, small helpers and the :class:`Leaderboard` design.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import special, stats

from ..validation import check_alpha, check_choice, check_int, check_probability, check_real


if TYPE_CHECKING:
    from .power import LeaderboardPower
    from .votes import LeaderboardAssurance

__all__ = [
    "Leaderboard",
    "MAX_VOTES",
    "METHODS",
    "SAMPLE_VOTES",
    "SCALE",
    "TIES",
    "WINNERS",
    "crowded_top",
    "evenly_spaced",
    "observed_win_rate",
    "system_names",
    "vote_grid",
    "win_probability",
    "BOOT_WORK",
]


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
        names = list(system_names(len(values)))
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


@dataclass(frozen=True)
class Leaderboard:
    """A planned leaderboard, everything but its number of votes: the page builds it once and every call uses it.

    ``ratings`` may be given as a Series, a dict or an array (as in :func:`leaderboard_power`); it is kept as a tuple
    of ``(name, rating)`` pairs, so the object is frozen, compared by value and a cache key. The other fields are
    the keyword arguments of the module's functions, validated once, here; the methods are those functions.

    Examples
    --------
    >>> board = Leaderboard(evenly_spaced(10, 25))
    >>> board.votes()
    15320
    >>> round(float(board.power(20_000).adjacent_power[0]), 3)
    0.893
    """

    ratings: tuple
    tie_rate: float = 0.0
    ties: str = "drop"
    judge_accuracy: float = 1.0
    alpha: float = 0.05

    def __post_init__(self):
        ratings = self.ratings
        if isinstance(ratings, tuple) and ratings and all(isinstance(p, tuple) and len(p) == 2 for p in ratings):
            ratings = dict(ratings)  # the stored form, given back by dataclasses.replace
        names, values, _, tie_rate, ties, judge, alpha, *_ = _validate(
            ratings, tie_rate=self.tie_rate, ties=self.ties, judge_accuracy=self.judge_accuracy, alpha=self.alpha)
        set_ = partial(object.__setattr__, self)
        set_("ratings", tuple(zip(names, (float(v) for v in values))))
        set_("tie_rate", tie_rate)
        set_("ties", ties)
        set_("judge_accuracy", judge)
        set_("alpha", alpha)

    @property
    def series(self) -> pd.Series:
        """The expected ratings as a Series indexed by system name (input order)."""
        return pd.Series(dict(self.ratings), dtype=float)

    def _kw(self, *drop: str) -> dict:
        kw = {"tie_rate": self.tie_rate, "ties": self.ties, "judge_accuracy": self.judge_accuracy, "alpha": self.alpha}
        return {k: v for k, v in kw.items() if k not in drop}

    def with_(self, **changes) -> Leaderboard:
        """The same leaderboard with some fields changed (validated again)."""
        return replace(self, **changes)

    def power(self, n_votes, *, method="analytic", n_sims=500, seed=None) -> LeaderboardPower:
        """:func:`leaderboard_power` at ``n_votes``."""
        from .power import leaderboard_power

        return leaderboard_power(n_votes, self.series, **self._kw(), method=method, n_sims=n_sims, seed=seed)

    def votes(self, *, target_power=0.8, halfwidth=None, conservative=False, n_max=_N_MAX) -> int:
        """:func:`leaderboard_votes`: the fewest votes for ``target_power`` on every pair of neighbours."""
        from .votes import leaderboard_votes

        return leaderboard_votes(self.series, **self._kw(), target_power=target_power, halfwidth=halfwidth,
                                 conservative=conservative, n_max=n_max)

    def assurance(self, n_votes, delta_sd) -> LeaderboardAssurance:
        """:func:`leaderboard_assurance` with a normal prior of SD ``delta_sd`` (Elo) on every adjacent gap."""
        from .votes import leaderboard_assurance

        return leaderboard_assurance(n_votes, self.series, delta_sd, **self._kw())

    def table(self, n_votes) -> pd.DataFrame:
        """:func:`leaderboard_table` at ``n_votes``."""
        from .curves import leaderboard_table

        return leaderboard_table(self.series, n_votes, **self._kw("alpha"))

    def adjacent_power_curve(self, votes) -> pd.DataFrame:
        """:func:`adjacent_power_curve` over ``votes``."""
        from .curves import adjacent_power_curve

        return adjacent_power_curve(self.series, votes, **self._kw())

    def order_correct_curve(self, votes) -> pd.DataFrame:
        """:func:`order_correct_curve` over ``votes``."""
        from .curves import order_correct_curve

        return order_correct_curve(self.series, votes, **self._kw("alpha"))

    def votes_vs_judge(self, judge_accuracies, *, target_power=0.8) -> pd.DataFrame:
        """:func:`votes_vs_judge` (the judge's accuracy varies; this design's plays no part)."""
        from .curves import votes_vs_judge

        return votes_vs_judge(self.series, judge_accuracies, target_power=target_power, **self._kw("judge_accuracy"))


# ---------------------------------------------------------------------------
# small public helpers
# ---------------------------------------------------------------------------
def win_probability(r_i, r_j):
    """Bradley–Terry probability that a system rated ``r_i`` beats one rated ``r_j`` (Elo scale).

    ``1 / (1 + 10^((r_j - r_i) / 400))``, vectorized.

    Examples
    --------
    >>> round(float(win_probability(1100, 1000)), 4)
    0.6401
    """
    diff = np.asarray(r_i, dtype=float) - np.asarray(r_j, dtype=float)
    out = special.expit(diff * _S)
    return float(out) if out.ndim == 0 else out


def observed_win_rate(p, *, judge_accuracy):
    """Win rate reported by a judge who agrees with the true preference with probability q.

    Parameters
    ----------
    p : float or array_like
        True win rate(s), in [0, 1].
    judge_accuracy : float
        q in [0, 1]: the probability that the judge's verdict on a non-tied
        vote agrees with the true preference.

    Returns
    -------
    float or ndarray
        ``½ + (2q - 1)(p - ½)``: the judge picks the truly preferred side with
        probability q, so P(report i) = q p + (1 - q)(1 - p). q = ½ gives ½
        whatever p (no information); q < ½ reverses the preference.

    Raises
    ------
    ValueError
        When a ``p`` is outside [0, 1] or ``judge_accuracy`` outside [0, 1].

    Examples
    --------
    >>> round(observed_win_rate(0.7, judge_accuracy=0.8), 12)  # 0.8 · 0.7 + 0.2 · 0.3
    0.62
    >>> observed_win_rate([0.5, 0.9], judge_accuracy=1.0)
    array([0.5, 0.9])
    """
    q = check_probability("judge_accuracy", judge_accuracy)
    arr = np.asarray(p, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any((arr < 0.0) | (arr > 1.0)):
        raise ValueError("`p` must be in [0, 1].")
    out = 0.5 + (2.0 * q - 1.0) * (arr - 0.5)
    return float(out) if out.ndim == 0 else out


def system_names(k: int) -> tuple[str, ...]:
    """Default system names ``S1`` … ``Sk``.

    Examples
    --------
    >>> system_names(3)
    ('S1', 'S2', 'S3')
    """
    k = check_int("k", k, low=1, high=_FIT_K_MAX)
    return tuple(f"S{i + 1}" for i in range(k))


def evenly_spaced(k, gap=25.0, *, top=1200.0) -> np.ndarray:
    """Preset: ``k`` ratings ``top, top - gap, top - 2 gap, …`` (Elo).

    Defaults: 25 Elo between neighbours (a 53.6% win rate), best system at 1200.

    Examples
    --------
    >>> evenly_spaced(4, 50)
    array([1200., 1150., 1100., 1050.])
    """
    k = check_int("k", k, low=2, high=_K_MAX)
    if not (isinstance(gap, (int, float, np.number)) and 0 <= gap <= _SPREAD_MAX / (k - 1)):
        check_real("gap", gap, low=0.0)  # a non-number or a negative gap gets the usual message
        raise ValueError(f"`gap` must be at most {_SPREAD_MAX / (k - 1):.4g} Elo with {k} systems (the ratings span at "
                         f"most {_SPREAD_MAX:,.0f} Elo), got {gap:g}.")
    top = check_real("top", top, low=-10_000.0, high=10_000.0)
    return top - gap * np.arange(k, dtype=float)


def crowded_top(k, *, leaders=3, leader_gap=5.0, gap=30.0, top=1200.0) -> np.ndarray:
    """Preset: a "crowded top" — a few close leaders, then evenly spaced systems.

    The first ``leaders`` systems are ``leader_gap`` apart (default 3 systems
    5 Elo apart, a 50.7% win rate); the next one is ``gap`` below the last
    leader and the rest ``gap`` apart (default 30 Elo, 54.3%).

    Examples
    --------
    >>> crowded_top(6)
    array([1200., 1195., 1190., 1160., 1130., 1100.])
    """
    k = check_int("k", k, low=2, high=_K_MAX)
    leaders = check_int("leaders", leaders, low=1, high=k)
    leader_gap = check_real("leader_gap", leader_gap, low=0.0, high=_SPREAD_MAX / (k - 1))
    gap = check_real("gap", gap, low=0.0, high=_SPREAD_MAX / (k - 1))
    top = check_real("top", top, low=-10_000.0, high=10_000.0)
    steps = np.where(np.arange(1, k) < leaders, leader_gap, gap)
    return top - np.concatenate([[0.0], np.cumsum(steps)])


def vote_grid(high, *, low=None, points=41) -> np.ndarray:
    """Geometric grid of distinct vote totals from ``low`` to ``high`` for the x axis of the curves.

    Examples
    --------
    >>> vote_grid(10_000, low=100, points=5)
    array([  100,   316,  1000,  3162, 10000])
    """
    high = check_int("high", high, low=2, high=_N_MAX)
    low = max(1, high // 100) if low is None else check_int("low", low, low=1, high=high)
    points = check_int("points", points, low=2, high=1000)
    return np.unique(np.round(np.geomspace(low, high, points)).astype(np.int64))



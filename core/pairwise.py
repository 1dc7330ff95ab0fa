"""Leaderboards from pairwise votes: Bradley–Terry power, intervals and fits.

Many systems are ranked from head-to-head votes — by people (an arena, a
side-by-side study) or by an LLM judge — with a Bradley–Terry model on the Elo
scale. This module answers the planning questions: how many votes until the
leaderboard's neighbours are told apart, how wide is each system's interval,
how likely is the whole order to be right, and what a noisy judge costs. It
also fits the model to uploaded votes.

Model
-----
System i has a rating r_i on the Elo scale. In a vote between i and j that is
not a tie, i wins with probability (Bradley & Terry 1952, on Elo's scale)::

    P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)) = σ(s (r_i - r_j)),
    s = ln(10) / 400  (so 400 / ln 10 ≈ 173.7 Elo is one logit),

σ the logistic function. Only differences are identified; ratings are
reported relative to their mean (the sum-to-zero constraint), shifted to mean
1000 for fitted leaderboards and to the input's mean for planned ones.

*Design.* ``n_votes`` votes are spread evenly over all M = K(K - 1)/2 pairs
of the K systems (the analytic engine uses N/M votes per pair; the simulation
gives every pair ⌊N/M⌋ votes and N mod M distinct pairs, chosen at random,
one more). A share ``tie_rate`` = t of the votes are ties, whatever the pair.

*Ties.* ``ties="drop"`` (default) fits the non-tied votes only: the
maximum-likelihood Bradley–Terry fit. ``ties="half"`` counts a tie as half a
win for each side (the convention of the Chatbot Arena notebook, which counts
a tie as one win each way in a doubled data set). Then E[y] = ½ + (1 - t)(p - ½)
per vote: the half-win fit estimates ratings shrunk toward their mean (by
about the factor 1 - t near p = ½), its intervals are narrower by about the
same factor but centred on the shrunk ratings, so they under-cover the true
ratings; the model-based variance of the half-win fit treats a tie like a
Bernoulli trial and overstates the variance by about 1/(1 - t), so the Wald
tests of the half-win fit use the sandwich (robust) variance here — what the
arena's bootstrap estimates — and then have, to first order, the power of the
tie-dropping fit. See "Engines" for the formulas.

*Judge.* A judge that agrees with the true preference with probability q
(``judge_accuracy``) reports i over j with probability::

    p' = ½ + (2q - 1)(p - ½)         (observed_win_rate)

so votes from a noisy judge carry less information and the fitted ratings are
compressed toward their mean. q = ½ carries no information and q < ½
reverses the order; the planning functions accept q in (½, 1].
:func:`observed_win_rate` evaluates the formula for any q in [0, 1].

Engines
-------
``method="analytic"`` (K ≥ 3). Let n_ij be the expected number of votes of
pair ij in the fit (non-tied votes for "drop", all votes for "half"), m_ij =
E[y] per vote (y = 1 if i wins, 0 if j wins, ½ for a tie under "half") and
v_ij = Var(y). The estimator converges to the pseudo-true logits β* solving
Σ_j n_ij (m_ij - σ(β*_i - β*_j)) = 0 (β* = s(r - r̄) when the model holds:
"drop" with q = 1), and is asymptotically normal with covariance
V = H⁺ J H⁺, where::

    H = Σ_pairs n_ij w_ij (e_i - e_j)(e_i - e_j)ᵀ,   w_ij = σ*_ij (1 - σ*_ij),
    J = Σ_pairs n_ij v_ij (e_i - e_j)(e_i - e_j)ᵀ,

the expected Fisher information of a logit model (Agresti 2013, §5.5 and
§4.5) and the variance of the score; H⁺ is the Moore–Penrose inverse, the
covariance under the sum-to-zero constraint. When the model holds J = H and
V = H⁺, the inverse Fisher information. The analyst's reported covariance
(used by the Wald tests and the intervals) is H⁺ for "drop". For "half" it is
the probability limit of the empirical sandwich that the simulation and a
robust fit compute, H⁺ Ĵ H⁺ with Ĵ = Σ_pairs n_ij (v_ij + (m_ij - σ*_ij)²)
(e_i - e_j)(e_i - e_j)ᵀ: the squared residuals y - σ̂ of the half-win fit
average to v_ij plus the squared lack of fit m_ij - σ*_ij, which is not zero
because the half-win model is misspecified; it is slightly larger than V.
For an adjacent pair (u, l) — systems next to each other in the
true order, u above — the estimated difference D = β̂_u - β̂_l is
N(Δ*, sd²) with sd² = aᵀ V a, a = e_u - e_l, and the two-sided Wald test at
level α rejects when |D| / se ≥ z_{1-α/2}, se² = aᵀ V_reported a. Power is
right-direction power (Card et al. 2020): P(significant AND D > 0)::

    power = Φ((Δ* - z_{1-α/2} se) / sd);

for equal true ratings it is the rejection rate (the false-positive rate).
A system's 95% interval half-width is z_{0.975} times the reported standard
error of its rating relative to the mean of all K ratings, in Elo. Every
variance is proportional to 1/N, so curves over N are closed forms.

P(order correct) is P(the estimated order equals the true order) = P(all
K - 1 adjacent estimated differences are positive), an orthant probability of
the (K - 1)-variate normal N(Δ*, A V Aᵀ), computed by the
Genz–Keane–Hajivassiliou sequential-conditioning method with a fixed set of
randomized Sobol points (8 independent scrambles of 128, the same for every
N, so curves are smooth); ``order_correct_mc_se`` is the standard error
across the scrambles. Where the bounds min_k Φ(m_k) and 1 - Σ_k Φ(-m_k)
(m_k the standardized mean of difference k) already pin the probability within
10⁻⁷ of 0 or 1, they give it instead, and differences negative with
probability below 10⁻¹⁰ are left out of the integral (error at most
(K - 1) · 10⁻¹⁰). It is ``nan`` when two true ratings are
equal (no true order).

K = 2: the exact engine of the Accuracy page, :func:`core.accuracy.preference_power`
(exact sign test on the non-tied votes), gives the power — whatever
``method``. Under "half" the half-win statistic (W + T/2) - N/2 = (W - L)/2
is the sign test's statistic, so its exact test is the sign test on the
non-tied votes too (the Accuracy page's "split" — each tie to a side by a fair
coin — is a different, randomized and weaker, test and is not used).
P(order correct) = P(W > L) is an exact binomial sum; the interval half-width
comes from the Fisher covariance.

``method="simulate"`` (K ≥ 3). Vote counts are drawn per pair (one
multinomial draw of wins, losses and ties per pair and replicate, never per
vote), every replicate is fitted by a batched Newton–Raphson on the
aggregated counts (sum-to-zero by solving (H + 11ᵀ/K) δ = g), and Wald tests
use each replicate's reported covariance (H⁺, or the empirical sandwich for
"half"). A replicate whose win graph is not strongly connected (a system that
never loses, a group that never loses to the rest, or pairs with no votes)
has no finite MLE (Ford 1957); such replicates get a tiny ridge penalty
½ λ Σβ², λ = 10⁻³ (logit units), that keeps the fit finite; their huge
standard errors make their tests non-significant (the Hauck–Donner effect)
and their share is reported as ``separated``. ``mc_se`` is the binomial
Monte Carlo standard error of each estimate.

References
----------
Bradley, R. A., & Terry, M. E. (1952). Rank analysis of incomplete block
designs: I. The method of paired comparisons. *Biometrika* 39:324–345.
Elo, A. E. (1978). *The Rating of Chessplayers, Past and Present*. Arco.
Ford, L. R. (1957). Solution of a ranking problem from binary comparisons.
*American Mathematical Monthly* 64(8):28–33.
Chiang, W.-L., et al. (2024). Chatbot Arena: An open platform for evaluating
LLMs by human preference. arXiv:2403.04132 (vote format, Elo-scale
Bradley–Terry, bootstrap intervals).
Agresti, A. (2013). *Categorical Data Analysis*, 3rd ed. Wiley (Fisher
information of logit models, §4.5, §5.5; paired comparisons, §11.6).
Genz, A., & Bretz, F. (2009). *Computation of Multivariate Normal and t
Probabilities*. Springer (the sequential-conditioning orthant method).
Card, D., et al. (2020). With little power comes great responsibility.
EMNLP (right-direction power).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import linalg, special, stats
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.stats import qmc

from .accuracy import preference_curves, preference_power, preference_sample_sizes
from .results import PowerResult
from .uploads import MAX_BYTES, guess_columns, looks_like_json, map_columns, read_jsonl, read_table
from .validation import check_alpha, check_choice, check_int, check_probability, check_real, renamed

__all__ = [
    "Leaderboard",
    "MAX_VOTES",
    "METHODS",
    "SAMPLE_VOTES",
    "SCALE",
    "TIES",
    "WINNERS",
    "BradleyTerryFit",
    "LeaderboardPower",
    "LeaderboardAssurance",
    "leaderboard_assurance",
    "adjacent_power_curve",
    "crowded_top",
    "evenly_spaced",
    "fit_bradley_terry",
    "leaderboard_power",
    "leaderboard_table",
    "leaderboard_votes",
    "observed_win_rate",
    "order_correct_curve",
    "rating_covariance",
    "read_votes",
    "simulate_fits",
    "simulate_votes",
    "system_names",
    "vote_grid",
    "votes_vs_judge",
    "win_probability",
]

#: Elo points per logit, 400 / ln(10) ≈ 173.7.
SCALE = 400.0 / math.log(10.0)
_S = 1.0 / SCALE
#: Tie handling: dropped from the fit, or counted as half a win each way.
TIES = ("drop", "half")
#: Engines.
METHODS = ("analytic", "simulate")
#: Accepted values of the ``winner`` column (public arena vote exports).
WINNERS = ("model_a", "model_b", "tie", "tie (bothbad)")
#: Synthetic sample votes shipped with the app (8 systems; see its README.txt).
SAMPLE_VOTES = Path(__file__).resolve().parent / "data" / "pairwise_sample" / "votes.csv"

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
    ties = check_choice("ties", ties, TIES)
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
        return leaderboard_power(n_votes, self.series, **self._kw(), method=method, n_sims=n_sims, seed=seed)

    def votes(self, *, target_power=0.8, halfwidth=None, conservative=False, n_max=_N_MAX) -> int:
        """:func:`leaderboard_votes`: the fewest votes for ``target_power`` on every pair of neighbours."""
        return leaderboard_votes(self.series, **self._kw(), target_power=target_power, halfwidth=halfwidth,
                                 conservative=conservative, n_max=n_max)

    def assurance(self, n_votes, delta_sd) -> LeaderboardAssurance:
        """:func:`leaderboard_assurance` with a normal prior of SD ``delta_sd`` (Elo) on every adjacent gap."""
        return leaderboard_assurance(n_votes, self.series, delta_sd, **self._kw())

    def table(self, n_votes) -> pd.DataFrame:
        """:func:`leaderboard_table` at ``n_votes``."""
        return leaderboard_table(self.series, n_votes, **self._kw("alpha"))

    def adjacent_power_curve(self, votes) -> pd.DataFrame:
        """:func:`adjacent_power_curve` over ``votes``."""
        return adjacent_power_curve(self.series, votes, **self._kw())

    def order_correct_curve(self, votes) -> pd.DataFrame:
        """:func:`order_correct_curve` over ``votes``."""
        return order_correct_curve(self.series, votes, **self._kw("alpha"))

    def votes_vs_judge(self, judge_accuracies, *, target_power=0.8) -> pd.DataFrame:
        """:func:`votes_vs_judge` (the judge's accuracy varies; this design's plays no part)."""
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


# ---------------------------------------------------------------------------
# the batched Bradley–Terry Newton solver (logit units)
# ---------------------------------------------------------------------------
def _pairs(k):
    i, j = np.triu_indices(k, 1)
    return i.astype(np.int64), j.astype(np.int64)


def _incidence(i, j, k):
    m = i.size
    rows = np.concatenate([np.arange(m), np.arange(m)])
    return csr_matrix((np.concatenate([np.ones(m), -np.ones(m)]), (rows, np.concatenate([i, j]))), shape=(m, k))


def _laplacian(w, i, j, k):
    """Σ_p w_p (e_i - e_j)(e_i - e_j)ᵀ for a batch of pair weights ``w`` (B, M)."""
    out = np.zeros((w.shape[0], k, k))
    out[:, i, j] = -w
    out[:, j, i] = -w
    diag = np.arange(k)
    out[:, diag, diag] = -out.sum(axis=2)
    return out


def _center(mat):
    """P A P with P = I - 11ᵀ/K: the covariance of ratings relative to their mean."""
    return mat - mat.mean(axis=-1, keepdims=True) - mat.mean(axis=-2, keepdims=True) + mat.mean(
        axis=(-1, -2), keepdims=True)


def _fit(y, n, i, j, k, *, ridge=None, beta0=None, tol=1e-10, max_iter=200):
    """Maximum-likelihood logits for a batch of aggregated vote tables.

    ``y`` (B, M): wins of the first system of each pair (ties as ½ under
    "half"); ``n`` (B, M): votes in the fit. ``ridge`` (B,): penalty λ of
    ½ λ Σβ² (0: plain ML). Newton–Raphson with the sum-to-zero constraint
    handled by solving (H + λI + 11ᵀ/K) δ = g - λβ (the gradient sums to
    zero, so δ does); steps are capped at 2 logits. Returns β (B, K), centred.
    """
    b = y.shape[0]
    lam = np.zeros(b) if ridge is None else np.asarray(ridge, dtype=float)
    beta = np.zeros((b, k)) if beta0 is None else np.array(beta0, dtype=float, copy=True)
    beta -= beta.mean(axis=1, keepdims=True)
    inc_t = _incidence(i, j, k).T.tocsr()
    eye = np.eye(k)
    live = np.ones(b, dtype=bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(live)
        bt = beta[idx]
        p = special.expit(bt[:, i] - bt[:, j])
        grad = (inc_t @ (y[idx] - n[idx] * p).T).T - lam[idx, None] * bt
        hess = _laplacian(n[idx] * p * (1.0 - p), i, j, k)
        hess += lam[idx, None, None] * eye + 1.0 / k
        step = np.linalg.solve(hess, grad[..., None])[..., 0]
        big = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, 2.0 / np.maximum(big, 1e-300))[:, None]
        beta[idx] = bt + step
        live[idx] = big > tol
        if not live.any():
            break
    return beta - beta.mean(axis=1, keepdims=True)


def _fit_replicates(wins, losses, ties_n, i, j, k, ties, beta_hat, factor, inc_t, *, tol=1e-10, max_iter=100):
    """Bootstrap refits from the point estimate by the chord method; the exact fit only where that does not apply.

    Each replicate's likelihood is maximised by Newton steps that keep the
    point estimate's Hessian (K × K, with the 11ᵀ/K term of :func:`_fit`),
    whose Cholesky ``factor`` (:func:`scipy.linalg.cho_factor`, or None) is
    computed once: δ = H⁻¹ g(β); ``inc_t`` is the transposed incidence matrix. A replicate's Hessian differs
    from it only by resampling noise, so the iteration converges linearly to
    the same maximum (Ortega & Rheinboldt 1970, §7.1 "chord method"; Kelley
    1995, §5.4.3) at O(K²) per replicate and step instead of the O(K³) of a
    fresh factorisation — the difference between seconds and minutes at
    K = 1,000 models. Replicates that are separated (they need the ridge) or
    do not converge within ``max_iter`` steps are refitted by :func:`_fit`.
    Returns β (B, K), centred.
    """
    if ties == "drop":
        y, n = wins, wins + losses
    else:
        y, n = wins + 0.5 * ties_n, wins + losses + ties_n
    b = y.shape[0]
    beta = np.repeat(beta_hat[None], b, axis=0)
    separated = ~_strongly_connected(y, n, i, j, k)
    live = ~separated if factor is not None else np.zeros(b, dtype=bool)
    done = np.zeros(b, dtype=bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(live)
        if idx.size == 0:
            break
        bt = beta[idx]
        p = special.expit(bt[:, i] - bt[:, j])
        grad = inc_t @ (y[idx] - n[idx] * p).T  # (K, B)
        step = linalg.cho_solve(factor, grad).T
        big = np.abs(step).max(axis=1)
        if not np.all(np.isfinite(big)):
            live[idx[~np.isfinite(big)]] = False
            keep = np.isfinite(big)
            idx, bt, step, big = idx[keep], bt[keep], step[keep], big[keep]
        step *= np.minimum(1.0, 2.0 / np.maximum(big, 1e-300))[:, None]
        beta[idx] = bt + step
        converged = big <= tol
        done[idx[converged]] = True
        live[idx[converged]] = False
    rest = np.flatnonzero(~done)
    if rest.size:
        beta[rest] = _fit_counts(wins[rest], losses[rest], ties_n[rest], i, j, k, ties,
                                 beta0=np.repeat(beta_hat[None], rest.size, axis=0))[0]
    return beta - beta.mean(axis=1, keepdims=True)


def _reported_covariance(beta, y, n, i, j, k, ties, ridge, t_counts=None, w_counts=None, l_counts=None):
    """Per-replicate reported covariance of the logits (relative to the mean).

    "drop": the inverse observed (= expected) information H⁺; "half": the
    empirical sandwich H⁺ Ĵ H⁺ with Ĵ = Σ_votes (y_v - σ̂)² (e_i - e_j)(…)ᵀ.
    """
    p = special.expit(beta[:, i] - beta[:, j])
    hess = _laplacian(n * p * (1.0 - p), i, j, k)
    lam = np.zeros(beta.shape[0]) if ridge is None else ridge
    cov = _center(np.linalg.inv(hess + lam[:, None, None] * np.eye(k) + 1.0 / k))
    if ties == "half":
        sq = w_counts * (1.0 - p) ** 2 + l_counts * p**2 + t_counts * (0.5 - p) ** 2
        meat = _laplacian(sq, i, j, k)
        cov = cov @ meat @ cov
    return cov


def _strongly_connected(y, n, i, j, k):
    """Per replicate: is the win graph (i → j when i won or tied a vote against j) strongly connected?

    That is the condition for a finite maximum-likelihood estimate (Ford 1957).
    """
    fwd, bwd = y > 0, (n - y) > 0
    b = y.shape[0]
    if k <= 32:
        reach = np.zeros((b, k, k))
        reach[:, i, j] = fwd
        reach[:, j, i] = bwd
        reach += np.eye(k)
        for _ in range(max(1, math.ceil(math.log2(k)))):
            reach = np.minimum(reach @ reach, 1.0)
        return (reach > 0).all(axis=(1, 2))
    out = np.empty(b, dtype=bool)
    for r in range(b):
        rows = np.concatenate([i[fwd[r]], j[bwd[r]]])
        cols = np.concatenate([j[fwd[r]], i[bwd[r]]])
        graph = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(k, k)).tocsr()
        out[r] = connected_components(graph, directed=True, connection="strong")[0] == 1
    return out


# ---------------------------------------------------------------------------
# the analytic engine
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Design:
    """Per-unit-N quantities of one planned leaderboard (logit units; variances × N)."""

    values: np.ndarray  # true ratings, input order
    order: np.ndarray  # indices, best first
    p_obs: np.ndarray  # observed (judge) win rate of the first system of each pair
    beta_star: np.ndarray  # pseudo-true logits, centred, input order
    gap: np.ndarray  # true Elo gaps of adjacent pairs
    delta_star: np.ndarray  # pseudo-true logit gaps
    sd1: np.ndarray  # sampling SD of adjacent estimated gaps × √N
    se1: np.ndarray  # reported SE × √N
    cov_adj1: np.ndarray  # sampling covariance of adjacent gaps × N
    cov_dist1: np.ndarray  # sampling covariance of the logits × N
    cov_rep1: np.ndarray  # reported covariance of the logits × N


@functools.lru_cache(maxsize=256)
def _design(values: tuple, tie_rate: float, ties: str, judge: float) -> _Design:
    r = np.asarray(values, dtype=float)
    k = r.size
    i, j = _pairs(k)
    m_pairs = i.size
    p = special.expit(_S * (r[i] - r[j]))
    p_obs = 0.5 + (2.0 * judge - 1.0) * (p - 0.5)
    if ties == "drop":
        share = np.full(m_pairs, (1.0 - tie_rate) / m_pairs)
        mean = p_obs
        var = p_obs * (1.0 - p_obs)
    else:
        share = np.full(m_pairs, 1.0 / m_pairs)
        mean = (1.0 - tie_rate) * p_obs + tie_rate / 2.0
        var = (1.0 - tie_rate) * p_obs + tie_rate / 4.0 - mean**2
    beta = _fit((share * mean)[None], share[None], i, j, k, tol=1e-13)[0]
    sig = special.expit(beta[i] - beta[j])
    hess = _laplacian((share * sig * (1.0 - sig))[None], i, j, k)[0]
    cov = _center(np.linalg.inv(hess + 1.0 / k))
    meat = _laplacian((share * var)[None], i, j, k)[0]
    cov_dist = cov @ meat @ cov
    if ties == "drop":
        cov_rep = cov
    else:
        meat_emp = _laplacian((share * (var + (mean - sig) ** 2))[None], i, j, k)[0]
        cov_rep = cov @ meat_emp @ cov
    order = np.argsort(-r, kind="stable")
    adj = np.zeros((k - 1, k))
    adj[np.arange(k - 1), order[:-1]] = 1.0
    adj[np.arange(k - 1), order[1:]] = -1.0
    cov_adj = adj @ cov_dist @ adj.T
    return _Design(
        values=r, order=order, p_obs=p_obs, beta_star=beta,
        gap=r[order[:-1]] - r[order[1:]], delta_star=adj @ beta,
        sd1=np.sqrt(np.diag(cov_adj)), se1=np.sqrt(np.einsum("ik,kl,il->i", adj, cov_rep, adj)),
        cov_adj1=cov_adj, cov_dist1=cov_dist, cov_rep1=cov_rep,
    )


def _analytic_power(des: _Design, ns, alpha) -> np.ndarray:
    """Right-direction Wald power of every adjacent pair at every N: shape (len(ns), K - 1)."""
    root = np.sqrt(np.asarray(ns, dtype=float))[:, None]
    crit = stats.norm.isf(alpha / 2.0) * des.se1
    up = stats.norm.cdf((root * des.delta_star - crit) / des.sd1)
    down = stats.norm.cdf((-root * des.delta_star - crit) / des.sd1)
    return np.where(des.gap > 0, up, up + down)


def _halfwidth(des: _Design, ns) -> np.ndarray:
    """95% interval half-widths in Elo, (len(ns), K), input order."""
    return _Z95 * np.sqrt(np.diag(des.cov_rep1)[None, :] / np.asarray(ns, dtype=float)[:, None]) * SCALE


def _coverage(des: _Design, n) -> np.ndarray:
    """P(the reported 95% interval covers the true rating relative to the mean), per system."""
    truth = _S * (des.values - des.values.mean())
    bias = des.beta_star - truth
    sd = np.sqrt(np.diag(des.cov_dist1) / n)
    half = _Z95 * np.sqrt(np.diag(des.cov_rep1) / n)
    return stats.norm.cdf((half - bias) / sd) - stats.norm.cdf((-half - bias) / sd)


@functools.lru_cache(maxsize=8)
def _qmc_uniforms(dim: int) -> np.ndarray:
    """Randomized Sobol points, (blocks × points, dim), fixed seeds (common random numbers)."""
    blocks = [qmc.Sobol(dim, scramble=True, seed=20_240_000 + b).random(_QMC_POINTS) for b in range(_QMC_BLOCKS)]
    out = np.concatenate(blocks)
    out.flags.writeable = False
    return out


def _orthant(means, cov) -> tuple[np.ndarray, np.ndarray]:
    """P(X > 0 componentwise) for X ~ N(mean, cov), for each row of ``means`` (G, d).

    Sequential conditioning (Genz & Bretz 2009, §4.1.3) with fixed randomized
    Sobol points; returns the estimates and their standard errors across the
    independent scrambles.
    """
    means = np.atleast_2d(np.asarray(means, dtype=float))
    d = cov.shape[0]
    sd = np.sqrt(np.diag(cov))
    m = means / sd
    if d == 1:
        return stats.norm.cdf(m[:, 0]), np.zeros(m.shape[0])
    # Bounds settle the rows where the answer is within 1e-7 of 0 or 1: P <= min_k Φ(m_k) and
    # P >= 1 - Σ_k Φ(-m_k) (Bonferroni; then P = 1 - Σ_k Φ(-m_k) + O((Σ_k Φ(-m_k))²)).
    tail = special.ndtr(-m)
    fail = tail.sum(axis=1)
    low_side = special.ndtr(m).min(axis=1) < 1e-7
    high_side = fail < 1e-7
    out = np.where(high_side, 1.0 - fail, 0.0)
    se = np.zeros(m.shape[0])
    corr = cov / np.outer(sd, sd)
    # Differences that are negative with probability < 1e-10 are dropped (error <= d · 1e-10 by the union
    # bound); rows with the same remaining differences are computed together.
    active = tail > 1e-10
    rest = np.flatnonzero(~(low_side | high_side))
    groups: dict[bytes, list[int]] = {}
    for row in rest:
        groups.setdefault(active[row].tobytes(), []).append(row)
    for rows in groups.values():
        keep = np.flatnonzero(active[rows[0]])
        if keep.size == 0:
            out[rows] = 1.0
        elif keep.size == 1:
            out[rows] = special.ndtr(m[rows, keep[0]])
        else:
            out[rows], se[rows] = _ghk(m[np.ix_(rows, keep)], corr[np.ix_(keep, keep)], d - 1)
    return out, se


def _ghk(m, corr, dim) -> tuple[np.ndarray, np.ndarray]:
    """Sequential conditioning for standardized means ``m`` (G, d) and correlation ``corr``.

    Uses the first d - 1 columns of the fixed ``dim``-dimensional point set.
    """
    d = corr.shape[0]
    perm = np.argsort(m[-1], kind="stable")  # most restrictive variable first
    m = m[:, perm]
    corr = corr[np.ix_(perm, perm)]
    chol = np.linalg.cholesky(corr + 1e-12 * np.eye(d))
    uni = _qmc_uniforms(dim)[:, : d - 1]  # (points, d - 1)
    g, pts = m.shape[0], uni.shape[0]
    # limits[k] = m_k - Σ_{j<k} L_kj z_j, updated after each draw (elementwise: no threaded BLAS)
    limits = np.repeat(m.T, pts, axis=1) / np.diag(chol)[:, None]
    scaled = chol / np.diag(chol)[:, None]
    prod = np.ones(g * pts)
    for kk in range(d):
        e = special.ndtr(limits[kk])
        prod *= e
        if kk < d - 1:
            z = special.ndtri(np.clip(np.tile(uni[:, kk], g) * e, 1e-300, 1.0 - 1e-16))
            limits[kk + 1:] -= scaled[kk + 1:, kk, None] * z
    per_block = prod.reshape(g, _QMC_BLOCKS, _QMC_POINTS).mean(axis=2)
    return per_block.mean(axis=1), per_block.std(axis=1, ddof=1) / math.sqrt(_QMC_BLOCKS)


def _analytic_order(des: _Design, ns) -> tuple[np.ndarray, np.ndarray]:
    ns = np.asarray(ns, dtype=float)
    if np.any(des.gap <= 0):
        return np.full(ns.size, np.nan), np.zeros(ns.size)
    return _orthant(np.sqrt(ns)[:, None] * des.delta_star[None, :], des.cov_adj1)


# --- K = 2: the Accuracy page's exact engine --------------------------------
def _two_cells(des: _Design, tie_rate):
    """(p_a, p_b) of :func:`core.accuracy.preference_power`: A = the better (first in order) system."""
    better = des.order[0]
    p_better = des.p_obs[0] if better == 0 else 1.0 - des.p_obs[0]
    return (1.0 - tie_rate) * p_better, (1.0 - tie_rate) * (1.0 - p_better), p_better


def _two_order_correct(ns, p_better, tie_rate) -> np.ndarray:
    """Exact P(W > L): the better system has more non-tied wins (K = 2)."""
    out = np.empty(len(ns))
    for idx, n in enumerate(np.asarray(ns, dtype=np.int64)):
        if tie_rate == 0.0:
            d, w = np.array([n]), np.array([1.0])
        else:
            lo = int(max(stats.binom.ppf(1e-13, n, 1.0 - tie_rate), 0))
            hi = int(min(stats.binom.isf(1e-13, n, 1.0 - tie_rate), n))
            d = np.arange(lo, hi + 1)
            w = stats.binom.pmf(d, n, 1.0 - tie_rate)
        out[idx] = float(np.sum(w * stats.binom.sf(d // 2, d, p_better)))
    return out


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class LeaderboardPower:
    """Power and precision of a planned leaderboard (:func:`leaderboard_power`).

    Attributes
    ----------
    systems : tuple of str
        System names, input order.
    ratings : ndarray
        True ratings (Elo), input order.
    order : ndarray of int
        Indices of the systems, best first (the true order; ties kept in input order).
    adjacent_power : ndarray
        Right-direction power of the two-sided Wald test (K = 2: the exact
        sign test) for each adjacent pair, in true order: entry k compares
        ``systems[order[k]]`` with ``systems[order[k + 1]]``. For equal true
        ratings it is the rejection rate (the false-positive rate).
    mc_se : ndarray
        Monte Carlo standard error of each ``adjacent_power`` (0 when exact or analytic).
    ci_halfwidth : ndarray
        Half-width of each system's 95% interval (Elo), input order: z_{0.975}
        times the reported standard error of the rating relative to the mean
        of all ratings (simulation: the median over replicates).
    order_correct : float
        P(estimated order = true order); ``nan`` when two true ratings are equal.
    order_correct_mc_se : float
        Its standard error (simulation: binomial; analytic: across the
        quasi-Monte Carlo scrambles; K = 2: 0, exact).
    expected_ratings : ndarray
        What the fit converges to (pseudo-true ratings), on the input's mean;
        equal to ``ratings`` for ``ties="drop"`` and a perfect judge, shrunk
        toward the mean under "half" and by a noisy judge.
    coverage : ndarray
        P(a system's 95% interval covers its true rating relative to the mean), input order.
    n_votes : int
    tie_rate, judge_accuracy, alpha : float
    ties : str
    method : str
        The engine asked for: ``"analytic"`` or ``"simulate"``.
    engine : str
        The engine that ran: ``"exact"`` (K = 2, :func:`core.accuracy.preference_power`,
        the Accuracy page's engine), ``"fisher"`` (analytic, K ≥ 3) or ``"simulate"``.
    n_sims : int
        Simulated replicates (0 unless ``engine == "simulate"``).
    separated : float
        Share of simulated replicates without a finite MLE (fitted with the tiny ridge).
    exact : PowerResult or None
        For K = 2, the full result of :func:`core.accuracy.preference_power`
        (Type-S, Type-M, …).
    """

    systems: tuple
    ratings: np.ndarray
    order: np.ndarray
    adjacent_power: np.ndarray
    mc_se: np.ndarray
    ci_halfwidth: np.ndarray
    order_correct: float
    order_correct_mc_se: float
    expected_ratings: np.ndarray
    coverage: np.ndarray
    n_votes: int
    tie_rate: float
    ties: str
    judge_accuracy: float
    alpha: float
    method: str
    engine: str
    n_sims: int = 0
    separated: float = 0.0
    exact: PowerResult | None = field(default=None, repr=False)

    @property
    def uses_exact_engine(self) -> bool:
        """True when the Accuracy page's exact preference engine produced the power (K = 2)."""
        return self.engine == "exact"

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Adjacent pairs (upper, lower), in true order."""
        return [(self.systems[a], self.systems[b]) for a, b in zip(self.order[:-1], self.order[1:])]

    @property
    def gaps(self) -> np.ndarray:
        """True rating differences of the adjacent pairs (Elo)."""
        return self.ratings[self.order[:-1]] - self.ratings[self.order[1:]]

    @property
    def weakest_power(self) -> float:
        """Smallest adjacent power."""
        return float(np.min(self.adjacent_power))

    @property
    def weakest_pair(self) -> tuple[str, str]:
        """The adjacent pair with the smallest power."""
        return self.pairs[int(np.argmin(self.adjacent_power))]

    @property
    def typical_halfwidth(self) -> float:
        """Median interval half-width over the systems (Elo)."""
        return float(np.median(self.ci_halfwidth))

    def pairs_table(self) -> pd.DataFrame:
        """Tidy table of the adjacent pairs: ``pair, upper, lower, gap, power, mc_se``."""
        upper, lower = zip(*self.pairs)
        return pd.DataFrame({"pair": [f"{a} vs {b}" for a, b in self.pairs], "upper": upper, "lower": lower,
                             "gap": self.gaps, "power": self.adjacent_power, "mc_se": self.mc_se})

    def systems_table(self) -> pd.DataFrame:
        """The leaderboard at these votes, best first:
        ``rank, system, rating, expected_rating, ci_low, ci_high, halfwidth, coverage``."""
        o = self.order
        centre = self.expected_ratings[o]
        return pd.DataFrame({
            "rank": np.arange(1, len(o) + 1), "system": [self.systems[i] for i in o],
            "rating": self.ratings[o], "expected_rating": centre,
            "ci_low": centre - self.ci_halfwidth[o], "ci_high": centre + self.ci_halfwidth[o],
            "halfwidth": self.ci_halfwidth[o], "coverage": self.coverage[o],
        })


# ---------------------------------------------------------------------------
# leaderboard_power
# ---------------------------------------------------------------------------
def leaderboard_power(n_votes, ratings, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0, alpha=0.05,
                      method="analytic", n_sims=500, seed=None) -> LeaderboardPower:
    """Power to separate neighbours, interval widths and P(order correct) of a leaderboard.

    Parameters
    ----------
    n_votes : int
        Total number of votes (ties included), spread evenly over all pairs.
    ratings : array_like, pandas.Series or dict
        Expected ratings of the K ≥ 2 systems (Elo); a Series' index or a
        dict's keys name the systems (default ``S1`` … ``SK``). Only
        differences matter. At most 100 systems spanning at most 2000 Elo.
    tie_rate : float, optional
        Share of votes that are ties, in [0, 1).
    ties : {"drop", "half"}, optional
        Ties dropped from the fit, or counted as half a win each way (see the
        module notes: shrunk ratings, sandwich variance).
    judge_accuracy : float, optional
        q in (0.5, 1]: a non-tied verdict agrees with the true preference with
        probability q (p' = ½ + (2q - 1)(p - ½)).
    alpha : float, optional
        Two-sided level of each adjacent-pair test, in (0, 0.5].
    method : {"analytic", "simulate"}, optional
        Expected Fisher information and Wald tests, or simulation of the
        votes and maximum-likelihood fits. K = 2 always uses the exact engine.
    n_sims : int, optional
        Replicates for ``"simulate"`` (100 … 100,000).
    seed : int or numpy.random.Generator, optional
        Seed of the simulation.

    Returns
    -------
    LeaderboardPower
        ``.adjacent_power`` (per adjacent pair, true order), ``.mc_se``,
        ``.ci_halfwidth`` (per system, Elo), ``.order_correct``,
        ``.order_correct_mc_se``, ``.engine``, …

    Raises
    ------
    ValueError
        Naming the parameter, for out-of-range arguments.

    Notes
    -----
    Analytic power of adjacent pair (u, l): Φ((Δ* - z_{1-α/2} se)/sd) with
    Δ* the pseudo-true logit gap, se² = aᵀ V_rep a / N and sd² = aᵀ V a / N
    (module notes). P(order correct): the multivariate normal orthant
    probability of the K - 1 adjacent differences (a normal approximation).
    Simulation: see the module notes.

    References
    ----------
    Bradley & Terry (1952); Chiang et al. (2024); Agresti (2013), §11.6.

    Examples
    --------
    >>> r = leaderboard_power(20_000, evenly_spaced(10, 25))
    >>> r.engine, np.round(r.adjacent_power[:2], 3), round(r.typical_halfwidth, 1)
    ('fisher', array([0.893, 0.902]), 10.1)
    >>> two = leaderboard_power(200, [1050, 1000], tie_rate=0.2)  # K = 2: the Accuracy page's exact engine
    >>> two.engine, round(float(two.adjacent_power[0]), 3)
    ('exact', 0.41)
    """
    names, values, n_votes, tie_rate, ties, judge, alpha, method, n_sims, _, _ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha,
        method=method, n_sims=n_sims)
    des = _design(tuple(values), tie_rate, ties, judge)
    k = values.size
    expected = values.mean() + des.beta_star * SCALE
    common = {"systems": names, "ratings": values, "order": des.order, "n_votes": n_votes, "tie_rate": tie_rate,
              "ties": ties, "judge_accuracy": judge, "alpha": alpha, "method": method}
    if k == 2:
        p_a, p_b, p_better = _two_cells(des, tie_rate)
        exact = preference_power(n_votes, p_a, p_b, alpha=alpha, ties="drop", test="exact", method="exact")
        order = math.nan if des.gap[0] <= 0 else float(_two_order_correct([n_votes], p_better, tie_rate)[0])
        return LeaderboardPower(
            adjacent_power=np.array([exact.power]), mc_se=np.zeros(1), ci_halfwidth=_halfwidth(des, [n_votes])[0],
            order_correct=order, order_correct_mc_se=0.0, expected_ratings=expected,
            coverage=_coverage(des, n_votes), engine="exact", exact=exact, **common)
    if method == "analytic":
        power = _analytic_power(des, [n_votes], alpha)[0]
        order, order_se = _analytic_order(des, [n_votes])
        return LeaderboardPower(
            adjacent_power=power, mc_se=np.zeros(k - 1), ci_halfwidth=_halfwidth(des, [n_votes])[0],
            order_correct=float(order[0]), order_correct_mc_se=float(order_se[0]), expected_ratings=expected,
            coverage=_coverage(des, n_votes), engine="fisher", **common)
    sim = _simulate(n_votes, des, tie_rate, ties, alpha, n_sims, np.random.default_rng(seed))
    return LeaderboardPower(expected_ratings=expected, engine="simulate", n_sims=n_sims, **sim, **common)


def _allocate(n_votes, m_pairs, rng, n_sims) -> np.ndarray:
    """Votes per pair in each replicate, shape (n_sims, M): ⌊N/M⌋ each, plus one for N mod M distinct pairs chosen
    at random anew in every replicate (one draw for all replicates would favour the same pairs in every replicate,
    a bias the Monte Carlo SE does not show)."""
    alloc = np.full((n_sims, m_pairs), n_votes // m_pairs, dtype=np.int64)
    extra = n_votes % m_pairs
    if extra:
        ranks = np.argsort(rng.random((n_sims, m_pairs)), axis=1)  # a uniformly random order of the pairs per row
        alloc[np.arange(n_sims)[:, None], ranks[:, :extra]] += 1
    return alloc


def _draw_counts(n_votes, des: _Design, tie_rate, n_sims, rng):
    """Wins of the first system, wins of the second and ties per pair: three (n_sims, M) arrays."""
    k = des.values.size
    alloc = _allocate(n_votes, k * (k - 1) // 2, rng, n_sims)
    probs = np.stack([(1.0 - tie_rate) * des.p_obs, (1.0 - tie_rate) * (1.0 - des.p_obs),
                      np.full(des.p_obs.size, tie_rate)], axis=1)
    probs /= probs.sum(axis=1, keepdims=True)
    counts = rng.multinomial(alloc, probs).astype(float)  # (n_sims, M, 3): alloc broadcasts against probs
    return counts[..., 0], counts[..., 1], counts[..., 2]


def _fit_counts(wins, losses, ties_n, i, j, k, ties, *, beta0=None):
    """Fit a batch of count tables; returns (β, ridge λ per table, separated flags, y, n)."""
    if ties == "drop":
        y, n = wins, wins + losses
    else:
        y, n = wins + 0.5 * ties_n, wins + losses + ties_n
    separated = ~_strongly_connected(y, n, i, j, k)
    ridge = np.where(separated, _RIDGE, 0.0)
    beta = _fit(y, n, i, j, k, ridge=ridge, beta0=beta0)
    return beta, ridge, separated, y, n


def _simulate(n_votes, des: _Design, tie_rate, ties, alpha, n_sims, rng) -> dict:
    k = des.values.size
    i, j = _pairs(k)
    wins, losses, tied = _draw_counts(n_votes, des, tie_rate, n_sims, rng)
    beta, ridge, separated, y, n = _fit_counts(wins, losses, tied, i, j, k, ties)
    cov = _reported_covariance(beta, y, n, i, j, k, ties, ridge, t_counts=tied, w_counts=wins, l_counts=losses)
    up, low = des.order[:-1], des.order[1:]
    diff = beta[:, up] - beta[:, low]
    se = np.sqrt(cov[:, up, up] + cov[:, low, low] - 2.0 * cov[:, up, low])
    reject = np.abs(diff) >= stats.norm.isf(alpha / 2.0) * se
    power = np.where(des.gap > 0, (reject & (diff > 0)).mean(axis=0), reject.mean(axis=0))
    sd_sys = np.sqrt(np.clip(np.diagonal(cov, axis1=1, axis2=2), 0.0, None))
    truth = _S * (des.values - des.values.mean())
    covered = np.abs(beta - truth) <= _Z95 * sd_sys
    if np.any(des.gap <= 0):
        order, order_se = math.nan, 0.0
    else:
        # Strictly above: an estimated tie (equal tables give equal fits up to rounding, ~1e-15 logits, whose sign
        # would depend on the order the systems were listed in) is not a correct order.
        order = float((diff > _TIE_TOL).all(axis=1).mean())
        order_se = math.sqrt(order * (1.0 - order) / n_sims)
    return {
        "adjacent_power": power, "mc_se": np.sqrt(power * (1.0 - power) / n_sims),
        "ci_halfwidth": np.median(_Z95 * sd_sys, axis=0) * SCALE, "order_correct": order,
        "order_correct_mc_se": order_se, "coverage": covered.mean(axis=0), "separated": float(separated.mean()),
    }


def simulate_fits(n_votes, ratings, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0, n_sims=500,
                  seed=None) -> np.ndarray:
    """Fitted ratings of ``n_sims`` simulated leaderboards (the simulation engine's fits).

    Returns
    -------
    ndarray, shape (n_sims, K)
        Maximum-likelihood ratings (Elo, input order) of each replicate,
        centred on the mean of ``ratings`` (replicates without a finite MLE
        carry the ridge fit; see the module notes).

    Examples
    --------
    >>> simulate_fits(5_000, [1100, 1050, 1000], n_sims=200, seed=1).shape
    (200, 3)
    """
    _, values, n_votes, tie_rate, ties, judge, _, _, n_sims, _, _ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy,
        method="simulate", n_sims=n_sims)
    des = _design(tuple(values), tie_rate, ties, judge)
    k = values.size
    i, j = _pairs(k)
    wins, losses, tied = _draw_counts(n_votes, des, tie_rate, n_sims, np.random.default_rng(seed))
    beta = _fit_counts(wins, losses, tied, i, j, k, ties)[0]
    return values.mean() + beta * SCALE


def rating_covariance(n_votes, ratings, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0,
                      which="sampling") -> pd.DataFrame:
    """Asymptotic covariance (Elo²) of the fitted ratings relative to their mean.

    Parameters
    ----------
    which : {"sampling", "reported"}, optional
        ``"sampling"``: the sandwich H⁺ J H⁺ (the actual spread of the
        estimates; H⁺, the inverse Fisher information, when the model holds);
        ``"reported"``: what the analyst's fit reports (H⁺ for "drop", the
        sandwich for "half").

    Returns
    -------
    pandas.DataFrame
        K × K, indexed by system names (input order).

    Examples
    --------
    >>> cov = rating_covariance(3_000, [1000, 1000, 1000])
    >>> # three equal systems, 1,000 votes per pair: H = 250 · 3(I - 11ᵀ/3), so Var = (2/3)/750 logit²
    >>> round(float(cov.iloc[0, 0]), 2), round((2 / 3) / 750 * SCALE**2, 2)
    (26.82, 26.82)
    """
    names, values, n_votes, tie_rate, ties, judge, *_ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy)
    which = check_choice("which", which, ("sampling", "reported"))
    des = _design(tuple(values), tie_rate, ties, judge)
    cov = (des.cov_dist1 if which == "sampling" else des.cov_rep1) / n_votes * SCALE**2
    return pd.DataFrame(cov, index=list(names), columns=list(names))


# ---------------------------------------------------------------------------
# votes needed
# ---------------------------------------------------------------------------
def _votes_needed(des: _Design, k, tie_rate, target_power, alpha, halfwidth, conservative, n_max) -> int:
    if halfwidth is not None:
        need = (_Z95 * SCALE / halfwidth) ** 2 * float(np.max(np.diag(des.cov_rep1)))
        n = max(1, math.ceil(need * (1.0 - 1e-12)))
        return n if n <= n_max else -1
    if np.any(des.gap <= 0) or np.any(des.delta_star <= 0):
        return -1
    if k == 2:
        p_a, p_b, _ = _two_cells(des, tie_rate)
        return preference_sample_sizes(p_a, p_b, target_power=target_power, alpha=alpha, ties="drop",
                                       test="exact", n_max=n_max).pick(conservative)
    z_a, z_b = stats.norm.isf(alpha / 2.0), stats.norm.ppf(target_power)
    root = (z_b * des.sd1 + z_a * des.se1) / des.delta_star
    need = float(np.max(np.where(root > 0, root, 0.0) ** 2))
    n = max(1, math.ceil(need * (1.0 - 1e-12)))
    return n if n <= n_max else -1


@dataclass(frozen=True)
class LeaderboardAssurance:
    """Assurance of every adjacent pair under a normal prior on its Elo gap (:func:`leaderboard_assurance`).

    Attributes
    ----------
    pairs : tuple of (str, str)
        Adjacent pairs (better, worse) in the assumed order, best first.
    gap : ndarray
        Assumed Elo gaps of the adjacent pairs (the prior means).
    assurance : ndarray
        P(the pair's difference is significant in the assumed direction),
        averaged over the prior on its gap.
    ceiling : ndarray
        The prior probability that the gap has the assumed sign (the limit as
        the votes grow).
    power_at_mean : ndarray
        The Wald power of each pair at its assumed gap.
    delta_sd : float
        τ, the prior SD of every gap (Elo); ``gap_sd`` is its deprecated name.
    n_votes : int
    """

    pairs: tuple
    gap: np.ndarray
    assurance: np.ndarray
    ceiling: np.ndarray
    power_at_mean: np.ndarray
    delta_sd: float
    n_votes: int

    @property
    def gap_sd(self) -> float:
        """Deprecated name of :attr:`delta_sd`."""
        import warnings

        warnings.warn("`gap_sd` is now called `delta_sd`; the old name will be removed in the next release.",
                      DeprecationWarning, stacklevel=2)
        return self.delta_sd

    @property
    def weakest(self) -> int:
        """Index of the pair with the lowest assurance."""
        return int(np.argmin(self.assurance))

    @property
    def min_assurance(self) -> float:
        """The lowest assurance among adjacent pairs."""
        return float(np.min(self.assurance))


def leaderboard_assurance(n_votes, ratings, delta_sd=None, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0,
                          alpha=0.05, gap_sd=None) -> LeaderboardAssurance:
    """Assurance of each pair of neighbours: power averaged over a normal prior on its Elo gap.

    Parameters
    ----------
    n_votes, ratings, tie_rate, ties, judge_accuracy, alpha
        As in :func:`leaderboard_power`; ``ratings`` give the assumed order and
        the prior means of the adjacent gaps.
    delta_sd : float
        τ (Elo, 0 … 2000): the prior SD of each adjacent gap, independently. τ = 0
        gives the Wald power of :func:`leaderboard_power`'s analytic engine.
        (``gap_sd`` is its deprecated name.)

    Returns
    -------
    LeaderboardAssurance
        ``.assurance``, ``.ceiling`` and ``.power_at_mean`` per adjacent pair;
        ``.min_assurance`` and ``.weakest``.

    Notes
    -----
    For an adjacent pair with assumed gap μ and a true gap g ~ N(μ, τ²), the
    estimated logit gap is normal with mean c·g (c = the pseudo-true logit gap
    per Elo point of the design, which carries the judge's attenuation and the
    tie handling) and the design's sampling SD; the Wald test rejects with
    P(up) = Φ((√N c g − z σ̂)/σ) and P(down) = Φ((−√N c g − z σ̂)/σ) (σ̂, σ: the
    reported and the sampling SD × √N at the assumed ratings, held fixed as g
    varies, as in O'Hagan et al.'s normal approximation). The assurance
    integrates the assumed direction over the prior by composite Gauss–Legendre
    quadrature (:func:`core.assurance.assurance`). With two systems the page's
    power uses the exact sign test; this assurance uses the Wald approximation
    for every K.

    References
    ----------
    O'Hagan, Stevens & Campbell (2005), Pharmaceutical Statistics 4:187–201;
    Bradley & Terry (1952); Chiang et al. (2024), Chatbot Arena.

    Examples
    --------
    >>> r = leaderboard_assurance(5000, [1200, 1175, 1150, 1125], 0.0)
    >>> bool(np.allclose(r.assurance, r.power_at_mean))
    True
    >>> r = leaderboard_assurance(5000, [1200, 1175, 1150, 1125], 25.0)
    >>> [round(float(c), 3) for c in r.ceiling]  # Φ(25/25) for every pair
    [0.841, 0.841, 0.841]
    """
    from .assurance import assurance

    names, values, n_votes, tie_rate, ties, judge, alpha, *_ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha)
    tau = check_real("delta_sd", renamed(delta_sd, gap_sd, new="delta_sd", old="gap_sd"), low=0.0, high=2000.0)
    des = _design(tuple(float(v) for v in values), tie_rate, ties, judge)
    root = math.sqrt(n_votes)
    z = stats.norm.isf(alpha / 2.0)
    power = _analytic_power(des, [n_votes], alpha)[0]
    fallback = _S * (2.0 * judge - 1.0) * ((1.0 - tie_rate) if ties == "half" else 1.0)
    out_a, out_c = [], []
    for idx in range(des.gap.size):
        g = float(des.gap[idx])
        c = float(des.delta_star[idx]) / g if g > 1e-9 else fallback
        sd1, se1 = float(des.sd1[idx]), float(des.se1[idx])

        def directional(gaps, c=c, sd1=sd1, se1=se1):
            mean = root * c * np.asarray(gaps, dtype=float)
            return stats.norm.cdf((mean - z * se1) / sd1), stats.norm.cdf((-mean - z * se1) / sd1)

        res = assurance(directional, prior_mean=g, prior_sd=tau, power_at_mean=float(power[idx]),
                        scale=sd1 / (root * max(c, 1e-12)), low=-2000.0, high=2000.0)
        out_a.append(res.assurance)
        out_c.append(res.ceiling)
    order = des.order
    pairs = tuple((names[order[i]], names[order[i + 1]]) for i in range(order.size - 1))
    return LeaderboardAssurance(pairs=pairs, gap=des.gap.copy(), assurance=np.array(out_a), ceiling=np.array(out_c),
                                power_at_mean=np.asarray(power, dtype=float), delta_sd=tau, n_votes=n_votes)


def leaderboard_votes(ratings, *, target_power=0.8, tie_rate=0.0, judge_accuracy=1.0, alpha=0.05, halfwidth=None,
                      ties="drop", conservative=False, n_max=_N_MAX) -> int:
    """Smallest total number of votes so that every adjacent pair reaches ``target_power``.

    Parameters
    ----------
    ratings, tie_rate, judge_accuracy, alpha, ties
        As in :func:`leaderboard_power`.
    target_power : float, optional
        In (0, 1); ignored when ``halfwidth`` is given.
    halfwidth : float, optional
        If given (Elo), the smallest number of votes so that every system's
        95% interval half-width is at most this.
    conservative : bool, optional
        K = 2 only (exact test, whose power zigzags): the smallest n from which
        power stays at or above the target (:mod:`core.sizing`). For K ≥ 3 the
        analytic power is increasing in N and both answers coincide.
    n_max : int, optional
        Largest total considered (default 10,000,000).

    Returns
    -------
    int
        Total votes (ties included); ``-1`` when unreachable (two equal true
        ratings, or more than ``n_max`` votes needed).

    Notes
    -----
    Every variance is proportional to 1/N, so for K ≥ 3 the analytic power of
    pair k reaches the target at √N = (z_{power} sd₁ + z_{1-α/2} se₁)/Δ*
    (per-vote quantities of the module notes); the answer is the ceiling of
    the largest of these. K = 2: :func:`core.accuracy.preference_sample_sizes`
    (exact sign test). Half-width mode: N = ⌈(z_{0.975} · 400/ln 10 / h)² max_i V_ii⌉.

    Examples
    --------
    >>> leaderboard_votes(evenly_spaced(10, 25))
    15320
    >>> leaderboard_votes(evenly_spaced(10, 25), judge_accuracy=0.9)  # a judge right 90% of the time
    24950
    >>> leaderboard_votes(evenly_spaced(10, 25), halfwidth=10)
    21829
    """
    _, values, _, tie_rate, ties, judge, alpha, _, _, target_power, halfwidth = _validate(
        ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha,
        target_power=target_power, halfwidth=halfwidth)
    if not isinstance(conservative, (bool, np.bool_)):
        raise ValueError(f"`conservative` must be True or False, got {conservative!r}.")
    n_max = check_int("n_max", n_max, low=2, high=_N_MAX)
    des = _design(tuple(values), tie_rate, ties, judge)
    return _votes_needed(des, values.size, tie_rate, target_power, alpha, halfwidth, bool(conservative), n_max)


# ---------------------------------------------------------------------------
# page curves (tidy DataFrames)
# ---------------------------------------------------------------------------
def _votes_array(votes) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(votes))
    if arr.size == 0 or arr.size > 10_000:
        raise ValueError(f"`votes` must list between 1 and 10,000 vote totals, got {arr.size}.")
    return np.array([check_int("votes", v.item() if hasattr(v, "item") else v, low=1, high=_N_MAX) for v in arr],
                    dtype=np.int64)


def adjacent_power_curve(ratings, votes, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0,
                         alpha=0.05) -> pd.DataFrame:
    """Power of each adjacent pair against the total number of votes (analytic; K = 2 exact).

    Returns
    -------
    pandas.DataFrame
        One row per pair × vote total: ``pair, upper, lower, gap, n_votes, power``
        (pairs in true order).

    Examples
    --------
    >>> adjacent_power_curve([1100, 1050, 1000], [300, 3000]).round(3)
           pair upper lower   gap  n_votes  power
    0  S1 vs S2    S1    S2  50.0      300  0.411
    1  S1 vs S2    S1    S2  50.0     3000  1.000
    2  S2 vs S3    S2    S3  50.0      300  0.411
    3  S2 vs S3    S2    S3  50.0     3000  1.000
    """
    names, values, _, tie_rate, ties, judge, alpha, *_ = _validate(
        ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha)
    ns = _votes_array(votes)
    des = _design(tuple(values), tie_rate, ties, judge)
    if values.size == 2:
        p_a, p_b, _ = _two_cells(des, tie_rate)
        power = preference_curves(ns, [(p_a, p_b)], alpha=alpha, ties="drop", test="exact")["power"].to_numpy()
        power = power[:, None]
    else:
        power = _analytic_power(des, ns, alpha)
    upper = [names[a] for a in des.order[:-1]]
    lower = [names[b] for b in des.order[1:]]
    npair = len(upper)
    return pd.DataFrame({
        "pair": np.repeat([f"{a} vs {b}" for a, b in zip(upper, lower)], ns.size),
        "upper": np.repeat(upper, ns.size), "lower": np.repeat(lower, ns.size),
        "gap": np.repeat(des.gap, ns.size), "n_votes": np.tile(ns, npair), "power": power.T.ravel(),
    })


def order_correct_curve(ratings, votes, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0) -> pd.DataFrame:
    """P(estimated order = true order) against the total number of votes.

    Analytic normal approximation (K ≥ 3; the same quasi-Monte Carlo points
    at every N, so the curve is smooth) or the exact binomial sum (K = 2).

    Returns
    -------
    pandas.DataFrame
        ``n_votes, order_correct, mc_se``.

    Examples
    --------
    >>> order_correct_curve([1100, 1000], [10, 100]).round(3)
       n_votes  order_correct  mc_se
    0       10          0.729    0.0
    1      100          0.997    0.0
    """
    _, values, _, tie_rate, ties, judge, *_ = _validate(ratings, tie_rate=tie_rate, ties=ties,
                                                          judge_accuracy=judge_accuracy)
    ns = _votes_array(votes)
    des = _design(tuple(values), tie_rate, ties, judge)
    if values.size == 2:
        se = np.zeros(ns.size)
        prob = np.full(ns.size, np.nan) if des.gap[0] <= 0 else _two_order_correct(
            ns, _two_cells(des, tie_rate)[2], tie_rate)
    else:
        prob, se = _analytic_order(des, ns)
    return pd.DataFrame({"n_votes": ns, "order_correct": prob, "mc_se": se})


def votes_vs_judge(ratings, judge_accuracies, *, target_power=0.8, tie_rate=0.0, ties="drop", alpha=0.05,
                   halfwidth=None) -> pd.DataFrame:
    """Votes needed (:func:`leaderboard_votes`) against the judge's accuracy.

    For K ≥ 3 each point is a closed form (about 2 ms for 20 systems). For
    K = 2 each point is the exact sample-size search of the Accuracy page
    (:func:`core.accuracy.preference_sample_sizes`, 0.1–1.5 s for small
    gaps), so use a handful of accuracies there.

    Returns
    -------
    pandas.DataFrame
        ``judge_accuracy, n_votes, relative`` (votes relative to a perfect
        judge, q = 1); ``n_votes`` is ``-1`` (and ``relative`` ``nan``) when unreachable.

    Examples
    --------
    >>> votes_vs_judge(evenly_spaced(5, 50), [1.0, 0.8])
       judge_accuracy  n_votes  relative
    0             1.0     1661  1.000000
    1             0.8     4839  2.913305
    """
    _, values, _, tie_rate, ties, _, alpha, _, _, target_power, halfwidth = _validate(
        ratings, tie_rate=tie_rate, ties=ties, alpha=alpha, target_power=target_power, halfwidth=halfwidth)
    qs = np.atleast_1d(np.asarray(judge_accuracies, dtype=float))
    if qs.size == 0 or qs.size > 1000:
        raise ValueError(f"`judge_accuracies` must list between 1 and 1,000 values, got {qs.size}.")
    qs = np.array([_check_judge(float(q)) for q in qs])
    key = tuple(values)

    def needed_at(q):
        return _votes_needed(_design(key, tie_rate, ties, q), values.size, tie_rate, target_power, alpha, halfwidth,
                             False, _N_MAX)

    base = needed_at(1.0)
    needed = np.array([needed_at(q) for q in qs], dtype=np.int64)
    rel = np.where((needed > 0) & (base > 0), needed / max(base, 1), np.nan)
    return pd.DataFrame({"judge_accuracy": qs, "n_votes": needed, "relative": rel})


def leaderboard_table(ratings, n_votes, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0) -> pd.DataFrame:
    """The expected leaderboard at ``n_votes`` with 95% intervals, best first (arena style).

    Returns
    -------
    pandas.DataFrame
        ``rank, system, rating, expected_rating, ci_low, ci_high, halfwidth,
        coverage`` (see :class:`LeaderboardPower`): intervals around the
        rating the fit converges to.

    Examples
    --------
    >>> leaderboard_table([1100, 1050, 1000], 3_000)[["system", "ci_low", "ci_high"]].round(1)
      system  ci_low  ci_high
    0     S1  1089.6   1110.4
    1     S2  1039.7   1060.3
    2     S3   989.6   1010.4
    """
    return leaderboard_power(n_votes, ratings, tie_rate=tie_rate, ties=ties,
                             judge_accuracy=judge_accuracy).systems_table()


# ---------------------------------------------------------------------------
# votes: simulate, read, fit
# ---------------------------------------------------------------------------
def simulate_votes(ratings, n_votes, *, tie_rate=0.0, judge_accuracy=1.0, bothbad_share=0.0,
                   seed=None) -> pd.DataFrame:
    """A synthetic vote table (one row per vote) in the arena convention.

    Votes are spread evenly over the pairs (as :func:`leaderboard_power`'s
    simulation); the side each system sits on is a fair coin; a share
    ``bothbad_share`` of the ties is labelled ``"tie (bothbad)"``. Built from
    per-pair counts with ``numpy.repeat`` (no per-vote Python loop).

    Returns
    -------
    pandas.DataFrame
        ``model_a, model_b, winner`` in random order.

    Examples
    --------
    >>> votes = simulate_votes({"x": 1100, "y": 1000}, 6, seed=3)
    >>> sorted(votes.columns), len(votes)
    (['model_a', 'model_b', 'winner'], 6)
    """
    names, values, n_votes, tie_rate, _, judge, *_ = _validate(ratings, n_votes=n_votes, tie_rate=tie_rate,
                                                                 judge_accuracy=judge_accuracy)
    bothbad_share = check_probability("bothbad_share", bothbad_share)
    rng = np.random.default_rng(seed)
    des = _design(tuple(values), tie_rate, "drop", judge)
    k = values.size
    i, j = _pairs(k)
    wins, losses, tied = (c[0].astype(np.int64) for c in _draw_counts(n_votes, des, tie_rate, 1, rng))
    per_pair = wins + losses + tied
    first = np.repeat(i, per_pair)
    second = np.repeat(j, per_pair)
    # outcome per vote: 0 = first system wins, 1 = second wins, 2 = tie
    outcome = np.repeat(np.tile([0, 1, 2], per_pair.size), np.stack([wins, losses, tied], axis=1).ravel())
    swap = rng.random(outcome.size) < 0.5
    model_a = np.where(swap, second, first)
    model_b = np.where(swap, first, second)
    winner = np.where(outcome == 2, 2, np.where((outcome == 0) != swap, 0, 1))
    winner = np.where((winner == 2) & (rng.random(outcome.size) < bothbad_share), 3, winner)
    perm = rng.permutation(outcome.size)
    labels = np.array(WINNERS, dtype=object)
    names_arr = np.array(names, dtype=object)
    return pd.DataFrame({"model_a": names_arr[model_a[perm]], "model_b": names_arr[model_b[perm]],
                         "winner": labels[winner[perm]]})


def _factor(values):
    """Codes and unique values of a column (missing values get code -1): validation then costs per unique value."""
    arr = np.asarray(values, dtype=object)
    codes, uniques = pd.factorize(arr, use_na_sentinel=True)
    return codes.astype(np.int64), list(uniques)


def _clean_votes(model_a, model_b, winner, *, name, where) -> pd.DataFrame:
    """Validate three parallel columns; returns the tidy categorical vote table (self-matches dropped).

    Every check runs on the distinct values of a column (``pandas.factorize``),
    so a million votes cost a few vectorized passes.
    """
    size = len(model_a)
    codes, uniques = _factor(np.concatenate([np.asarray(model_a, dtype=object), np.asarray(model_b, dtype=object)]))
    text = [str(u).strip() for u in uniques]
    canon, labels = pd.factorize(np.array(text + [""], dtype=object))  # " x" and "x" are one model
    blank = canon[-1]
    remap = np.append(canon[:-1], blank)  # code -1 (missing) → blank
    codes = remap[codes]
    empty = codes == blank
    if empty.any():
        first = int(np.argmax(empty))
        col = "model_a" if first < size else "model_b"
        raise ValueError(f"{name}, {where} {first % size + 1:,}: `{col}` is empty ({int(empty.sum()):,} "
                         "model names are missing).")
    code_a, code_b = codes[:size], codes[size:]
    wcodes, wuniques = _factor(winner)
    normal = np.array([str(u).strip().lower() for u in wuniques] + [""], dtype=object)
    lookup = {value: idx for idx, value in enumerate(WINNERS)}
    mapped = np.array([lookup.get(v, -1) for v in normal], dtype=np.int64)
    wcodes = mapped[wcodes]  # code -1 (missing) → the appended "" → -1
    bad = wcodes < 0
    if bad.any():
        first = int(np.argmax(bad))
        seen = pd.unique(np.asarray(winner, dtype=object)[bad][:10_000])[:5]
        shown = ", ".join(repr(v) for v in seen)
        raise ValueError(f"{name}, {where} {first + 1:,}: unknown `winner` value {seen[0]!r} "
                         f"({int(bad.sum()):,} {where}s; values seen: {shown}). Accepted values: "
                         f"{', '.join(WINNERS)}.")
    selfmatch = code_a == code_b
    notes = []
    if selfmatch.any():
        keep = ~selfmatch
        code_a, code_b, wcodes = code_a[keep], code_b[keep], wcodes[keep]
        notes.append(f"{int(selfmatch.sum()):,} self-match{'es' if selfmatch.sum() > 1 else ''} "
                     "(model_a = model_b) dropped.")
    if code_a.size == 0:
        raise ValueError(f"{name} has no votes between two different models.")
    used = np.zeros(len(labels), dtype=bool)
    used[code_a] = True
    used[code_b] = True
    order = np.flatnonzero(used)  # models in order of first appearance
    new_code = np.full(len(labels), -1, dtype=np.int64)
    new_code[order] = np.arange(order.size)
    models = pd.Index(np.asarray(labels, dtype=object)[order])
    frame = pd.DataFrame({
        "model_a": pd.Categorical.from_codes(new_code[code_a], categories=models),
        "model_b": pd.Categorical.from_codes(new_code[code_b], categories=models),
        "winner": pd.Categorical.from_codes(wcodes, categories=list(WINNERS)),
    })
    frame.attrs["notes"] = notes
    frame.attrs["self_matches"] = int(selfmatch.sum())
    return frame


def _preference_winners(values, *, name, place):
    """AlpacaEval preferences → winners: 1 (or < 1.5) model_a, 2 (or > 1.5) model_b, 1.5 or 0 a tie; None/NaN dropped.

    AlpacaEval's ``get_winrate`` reads 0 and 1.5 as draws and drops values
    that are not preferences (Dubois et al. 2024, ``alpaca_eval.metrics``);
    weighted annotators give a preference in [1, 2] (the probability that
    the second output is better, plus 1). Returns the winners (object array,
    ``None`` where dropped) and the number dropped.
    """
    out = np.empty(len(values), dtype=object)
    dropped = 0
    for k, value in enumerate(values):
        if value is None or isinstance(value, bool) or value == "":
            out[k] = None
            dropped += 1
            continue
        try:
            p = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{name}, {place(k)}: `preference` {str(value)[:20]!r} is not a number (AlpacaEval "
                             "preferences are 1, 2 or a weight in [1, 2]; 1.5 or 0 is a tie).") from None
        if math.isnan(p):
            out[k] = None
            dropped += 1
        elif p == 0.0 or p == 1.5:
            out[k] = "tie"
        elif 1.0 <= p < 1.5:
            out[k] = "model_a"
        elif 1.5 < p <= 2.0:
            out[k] = "model_b"
        else:
            raise ValueError(f"{name}, {place(k)}: `preference` {p:g} is outside [1, 2] (AlpacaEval preferences are "
                             "1, 2 or a weight in [1, 2]; 1.5 or 0 is a tie).")
    return out, dropped


def _votes_from_columns(model_a, model_b, winner, *, name, where, place, preference):
    notes = []
    if preference:
        winner, dropped = _preference_winners(list(winner), name=name, place=place)
        if dropped:
            keep = np.array([w is not None for w in winner])
            model_a, model_b, winner = (np.asarray(x, dtype=object)[keep] for x in (model_a, model_b, winner))
            notes.append(f"{dropped:,} annotation{'s' if dropped != 1 else ''} without a preference (null) dropped.")
            if len(winner) == 0:
                raise ValueError(f"{name} has no annotations with a preference.")
    frame = _clean_votes(model_a, model_b, winner, name=name, where=where)
    frame.attrs["notes"] = notes + frame.attrs["notes"]
    return frame


def read_votes(data, *, name="The votes file", max_bytes=MAX_BYTES, columns=None) -> pd.DataFrame:
    """Pairwise votes from an upload: CSV/TSV, JSON Lines, or a JSON array (arena exports).

    Parameters
    ----------
    data : bytes
        The file. Tables need a header row with the columns ``model_a``,
        ``model_b`` and ``winner`` (any capitalisation; other columns are
        ignored); JSON records need those fields (lmsys "clean_battle" files
        have them, with many others).
    name : str, optional
        How messages call the file.
    max_bytes : int, optional
        Size limit of a CSV/TSV file (default: the upload limit,
        :data:`core.uploads.MAX_BYTES`); JSON files always have that limit.

    Returns
    -------
    pandas.DataFrame
        Columns ``model_a``, ``model_b`` (categoricals sharing the model
        names) and ``winner`` (categorical: ``model_a``, ``model_b``, ``tie``,
        ``tie (bothbad)``; read case-insensitively). Self-matches
        (``model_a == model_b``) carry no information and are dropped;
        ``frame.attrs["notes"]`` says so and ``frame.attrs["self_matches"]``
        counts them.

    columns : dict, optional
        Which columns (or JSON fields) hold ``model_a``, ``model_b`` and
        ``winner``. Without it, tables whose header lacks those names are
        read when :func:`core.uploads.guess_columns` finds all three (e.g.
        ``generator_1``, ``generator_2``, ``preference``).

    Raises
    ------
    ValueError
        For an unreadable or malformed file (the message names the line and
        column; see :mod:`core.uploads`), a missing column or field, an empty
        model name, or a ``winner`` value outside :data:`WINNERS` (the message
        lists the accepted values).

    Notes
    -----
    AlpacaEval ``annotations.json`` files are read as they are:
    ``generator_1`` and ``generator_2`` are the models and ``preference`` the
    outcome — 1 (or a weighted preference below 1.5) a win of
    ``generator_1``, 2 (or above 1.5) a win of ``generator_2``, 1.5 or 0 a
    tie, null dropped (noted), as AlpacaEval's own win rate reads them.
    ``data`` may also be a list of files (bytes, or ``(name, bytes)`` pairs):
    they make one vote table (messages name the file).

    Notes
    -----
    Uploads are capped at 20 MB (:data:`core.uploads.MAX_BYTES`, the
    server's upload limit; ``max_bytes`` raises it for CSV/TSV) and
    1,000,000 rows; a million votes fit in 20 MB as a three-column CSV with
    model names of up to about 6 characters. Arena JSON exports carry many
    fields per battle (about 0.3–1 KB each, so some 20,000–60,000 battles per
    20 MB); convert large ones to a three-column CSV first. Reading is linear
    in the file size (the :mod:`csv` module, then vectorized pandas); the
    model columns are stored as categoricals, so the table of a million votes
    takes a few MB once read.

    Examples
    --------
    >>> read_votes(b"model_a,model_b,winner\\nx,y,model_a\\ny,x,TIE (bothbad)\\n")
      model_a model_b         winner
    0       x       y        model_a
    1       y       x  tie (bothbad)
    """
    if isinstance(data, (list, tuple)):
        return _read_many_votes(data, name=name, max_bytes=max_bytes, columns=columns)
    if columns is not None and (not isinstance(columns, dict) or set(columns) - {"model_a", "model_b", "winner"}
                                or not all(isinstance(v, str) for v in columns.values())):
        raise ValueError("`columns` must map model_a, model_b and winner to column names, e.g. "
                         "{'model_a': 'generator_1', 'model_b': 'generator_2', 'winner': 'preference'}.")
    if looks_like_json(data):
        records = read_jsonl(data, name=name)
        keys = {"model_a": "model_a", "model_b": "model_b", "winner": "winner"}
        first = records[0]
        if columns is not None:
            keys.update(columns)
        elif "model_a" not in first and {"generator_1", "generator_2", "preference"} <= set(first):
            keys = {"model_a": "generator_1", "model_b": "generator_2", "winner": "preference"}  # AlpacaEval
        if keys != {"model_a": "model_a", "model_b": "model_b", "winner": "winner"}:
            cols = {}
            for role, key in keys.items():
                values = [rec.get(key, _ABSENT) for rec in records]
                absent = [v is _ABSENT for v in values]
                if any(absent):
                    raise ValueError(f"{name}, {_record_place(data, absent.index(True))}: no `{key}` field.")
                nested = [isinstance(v, (list, dict)) for v in values]
                if any(nested):
                    raise ValueError(f"{name}, {_record_place(data, nested.index(True))}: `{key}` is a JSON "
                                     f"{'list' if isinstance(values[nested.index(True)], list) else 'object'}.")
                cols[role] = values
            del records
            return _votes_from_columns(cols["model_a"], cols["model_b"], cols["winner"], name=name, where="record",
                                       place=lambda k: _record_place(data, k),
                                       preference=keys["winner"].strip().lower() == "preference")
        cols = {}
        for key in ("model_a", "model_b", "winner"):
            values = [rec.get(key, _ABSENT) for rec in records]
            absent = [v is _ABSENT for v in values]
            if any(absent):
                first = absent.index(True) + 1
                raise ValueError(f"{name}, record {first:,}: no `{key}` field (each vote needs model_a, model_b "
                                 "and winner).")
            nested = [isinstance(v, (list, dict)) for v in values]
            if any(nested):
                first = nested.index(True)
                raise ValueError(f"{name}, {_record_place(data, first)}: `{key}` is a JSON "
                                 f"{'list' if isinstance(values[first], list) else 'object'}; it must be "
                                 + ("a model name (text)." if key != "winner" else f"one of {', '.join(WINNERS)}."))
            cols[key] = values
        del records
        return _clean_votes(cols["model_a"], cols["model_b"], cols["winner"], name=name, where="record")
    table = read_table(data, name=name, min_columns=3, header="yes", max_bytes=max_bytes)
    lookup = {str(c).strip().lower(): c for c in table.columns}
    if columns is None and not {"model_a", "model_b", "winner"} <= set(lookup):
        guessed = guess_columns(table.columns, ["model_a", "model_b", "winner"])
        if len(guessed) == 3:
            columns = guessed
    if columns is not None:
        mapped = map_columns(table, {"model_a": columns.get("model_a", lookup.get("model_a", "model_a")),
                                     "model_b": columns.get("model_b", lookup.get("model_b", "model_b")),
                                     "winner": columns.get("winner", lookup.get("winner", "winner"))}, name=name)
        winner_column = columns.get("winner", "winner")
        return _votes_from_columns(mapped["model_a"].to_numpy(), mapped["model_b"].to_numpy(),
                                   mapped["winner"].to_numpy(), name=name, where="row",
                                   place=lambda k: f"row {k + 1:,}",
                                   preference=winner_column.strip().lower() == "preference")
    missing = [c for c in ("model_a", "model_b", "winner") if c not in lookup]
    if missing:
        found = ", ".join(str(c) for c in table.columns[:10])
        raise ValueError(f"{name} needs the columns model_a, model_b and winner in a header row; missing "
                         f"{', '.join(missing)} (found: {found}).")
    return _clean_votes(table[lookup["model_a"]].to_numpy(), table[lookup["model_b"]].to_numpy(),
                        table[lookup["winner"]].to_numpy(), name=name, where="row")


_ABSENT = object()


def _read_many_votes(files, *, name, max_bytes, columns):
    """Several vote files (e.g. one AlpacaEval annotations.json per model) as one table."""
    if not files:
        raise ValueError(f"{name}: no files given.")
    if len(files) > 200:
        raise ValueError(f"At most 200 vote files can be combined; got {len(files):,}.")
    parts, notes = [], []
    for number, item in enumerate(files, start=1):
        label, content = item if isinstance(item, tuple) else (f"{name} {number}", item)
        part = read_votes(content, name=str(label), max_bytes=max_bytes, columns=columns)
        notes.extend(f"{label}: {note}" for note in part.attrs.get("notes", []))
        parts.append(part)
    if sum(len(p) for p in parts) > 1_000_000:
        raise ValueError("The files hold more than 1,000,000 votes together; at most 1,000,000 are accepted.")
    cols = {key: np.concatenate([p[key].astype(str).to_numpy(dtype=object) for p in parts])
            for key in ("model_a", "model_b", "winner")}
    frame = _clean_votes(cols["model_a"], cols["model_b"], cols["winner"], name=name, where="vote")
    frame.attrs["notes"] = notes
    frame.attrs["self_matches"] = sum(p.attrs.get("self_matches", 0) for p in parts)
    return frame


def _record_place(data, index):
    """Where record ``index`` (0-based) of a JSON upload is: its line for JSON Lines, its number for an array."""
    head = bytes(data[:4096]).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] == b"[":
        return f"record {index + 1:,}"
    seen = -1
    for number, line in enumerate(bytes(data).splitlines(), start=1):
        if line.strip():
            seen += 1
            if seen == index:
                return f"line {number:,}"
    return f"record {index + 1:,}"


@dataclass(frozen=True, eq=False)
class BradleyTerryFit:
    """A Bradley–Terry leaderboard fitted to votes (:func:`fit_bradley_terry`).

    Attributes
    ----------
    ratings : pandas.Series
        Maximum-likelihood ratings (Elo, mean 1000), best first, indexed by model.
    ci_low, ci_high : pandas.Series
        95% bootstrap percentile intervals (same index; ``nan`` when ``n_boot == 0``).
    se : pandas.Series
        Standard error of each rating relative to the mean (Elo): inverse
        Fisher information for "drop", the sandwich for "half".
    counts : pandas.DataFrame
        Votes per pair (pairs with votes only): ``model_a, model_b, wins_a,
        wins_b, ties, n``; ``model_a`` is the higher-rated of the pair.
    win_rates : pandas.DataFrame
        K × K, models in rating order: the share of the row model's votes
        against the column model that it won (non-tied votes for "drop"; ties
        as halves for "half"); ``nan`` on the diagonal and for pairs with no votes.
    n_votes : int
        Votes between two different models (ties included).
    n_ties : int
        Ties among them (``tie`` and ``tie (bothbad)``).
    n_self_matches : int
        Self-matches dropped.
    models : tuple of str
        Model names, best first.
    ties : str
    n_boot : int
    separated : bool
        True when the votes have no finite MLE (some model or group never
        loses, or never wins); the fit then carries a tiny ridge penalty
        (λ = 10⁻³ per logit²) and the affected ratings are only lower or upper bounds.
    notes : tuple of str
        What was dropped or assumed, in plain language.
    bootstrap : pandas.DataFrame or None
        The bootstrap ratings (n_boot × K), for further analysis.
    """

    ratings: pd.Series
    ci_low: pd.Series
    ci_high: pd.Series
    se: pd.Series
    counts: pd.DataFrame
    win_rates: pd.DataFrame
    n_votes: int
    n_ties: int
    n_self_matches: int
    models: tuple
    ties: str
    n_boot: int
    separated: bool
    notes: tuple = ()
    bootstrap: pd.DataFrame | None = field(default=None, repr=False)

    def table(self) -> pd.DataFrame:
        """The leaderboard: ``rank, model, rating, ci_low, ci_high, se, votes`` (votes per model)."""
        per_model = pd.concat([self.counts.groupby("model_a", observed=True)["n"].sum(),
                               self.counts.groupby("model_b", observed=True)["n"].sum()]).groupby(level=0).sum()
        return pd.DataFrame({
            "rank": np.arange(1, len(self.models) + 1), "model": list(self.models),
            "rating": self.ratings.to_numpy(), "ci_low": self.ci_low.to_numpy(), "ci_high": self.ci_high.to_numpy(),
            "se": self.se.to_numpy(), "votes": per_model.reindex(list(self.models)).fillna(0).astype(int).to_numpy(),
        })


def _vote_codes(votes):
    """Model names and integer codes of a vote table (DataFrame or read_votes output)."""
    if not isinstance(votes, pd.DataFrame):
        raise ValueError("`votes` must be a table (pandas DataFrame) with columns model_a, model_b and winner.")
    lookup = {str(c).strip().lower(): c for c in votes.columns}
    missing = [c for c in ("model_a", "model_b", "winner") if c not in lookup]
    if missing:
        raise ValueError(f"`votes` needs the columns model_a, model_b and winner; missing {', '.join(missing)}.")
    a, b, w = votes[lookup["model_a"]], votes[lookup["model_b"]], votes[lookup["winner"]]
    notes, n_self = list(votes.attrs.get("notes", [])), int(votes.attrs.get("self_matches", 0))
    if (isinstance(a.dtype, pd.CategoricalDtype) and isinstance(b.dtype, pd.CategoricalDtype)
            and isinstance(w.dtype, pd.CategoricalDtype) and list(w.cat.categories) == list(WINNERS)
            and a.cat.categories.equals(b.cat.categories)
            and all(isinstance(c, str) and c == c.strip() and c for c in a.cat.categories)):
        # the output of read_votes: validate on the codes only
        ca, cb = a.cat.codes.to_numpy().astype(np.int64), b.cat.codes.to_numpy().astype(np.int64)
        outcome = w.cat.codes.to_numpy().astype(np.int64)
        used = np.bincount(np.concatenate([ca, cb]) + 1, minlength=len(a.cat.categories) + 1)[1:] > 0
        if len(votes) and ca.min(initial=0) >= 0 and cb.min(initial=0) >= 0 and outcome.min(initial=0) >= 0 \
                and used.all() and not np.any(ca == cb):
            return list(a.cat.categories), ca, cb, np.minimum(outcome, 2), notes, n_self
    if len(votes) == 0:
        raise ValueError("`votes` has no rows.")
    frame = _clean_votes(np.asarray(a, dtype=object), np.asarray(b, dtype=object), np.asarray(w, dtype=object),
                         name="`votes`", where="row")
    ca = frame["model_a"].cat.codes.to_numpy().astype(np.int64)
    cb = frame["model_b"].cat.codes.to_numpy().astype(np.int64)
    outcome = frame["winner"].cat.codes.to_numpy().astype(np.int64)
    return (list(frame["model_a"].cat.categories), ca, cb, np.minimum(outcome, 2),
            notes + frame.attrs["notes"], n_self + frame.attrs["self_matches"])


def _aggregate(ca, cb, outcome, k):
    """Per unordered pair (lo < hi): wins of lo, wins of hi, ties — only pairs with votes."""
    lo, hi = np.minimum(ca, cb), np.maximum(ca, cb)
    a_is_lo = ca == lo
    # outcome 0: model_a won; 1: model_b won; 2: tie
    lo_wins = ((outcome == 0) & a_is_lo) | ((outcome == 1) & ~a_is_lo)
    hi_wins = ((outcome == 1) & a_is_lo) | ((outcome == 0) & ~a_is_lo)
    key = lo * k + hi
    uniq, inv = np.unique(key, return_inverse=True)
    w = np.bincount(inv, weights=lo_wins, minlength=uniq.size)
    l_ = np.bincount(inv, weights=hi_wins, minlength=uniq.size)
    t = np.bincount(inv, weights=outcome == 2, minlength=uniq.size)
    return uniq // k, uniq % k, w, l_, t


def fit_bradley_terry(votes, *, ties="drop", n_boot=200, seed=None) -> BradleyTerryFit:
    """Fit a Bradley–Terry leaderboard (Elo scale, mean 1000) to pairwise votes, with bootstrap intervals.

    Parameters
    ----------
    votes : pandas.DataFrame
        One row per vote with columns ``model_a``, ``model_b``, ``winner``
        (values in :data:`WINNERS`; e.g. the output of :func:`read_votes`).
        Self-matches are dropped (noted).
    ties : {"drop", "half"}, optional
        Ties dropped from the fit, or counted as half a win each way (the
        Chatbot Arena convention; ratings shrink toward the mean).
    n_boot : int, optional
        Bootstrap replicates for the 95% percentile intervals (0 … 10,000;
        0 skips them).
    seed : int or numpy.random.Generator, optional
        Seed of the bootstrap.

    Returns
    -------
    BradleyTerryFit

    Raises
    ------
    ValueError
        For a malformed table, a single model, or models that split into
        groups never compared with each other (their ratings are not comparable).

    Notes
    -----
    Votes are aggregated per pair first (wins, losses, ties), so the cost is
    linear in the number of votes once and then depends on the number of
    observed pairs only. Newton–Raphson on the aggregated binomial
    likelihood, Σ_pairs [w log σ(β_i - β_j) + l log σ(β_j - β_i)] (ties as
    half-wins under "half"), with Σβ = 0; rating = 1000 + β · 400/ln 10. The
    bootstrap resamples the votes with replacement — one multinomial draw
    over the (pair, outcome) cells per replicate — and refits every replicate
    in one batch, as the arena's bootstrap of battles does (Chiang et al. 2024).
    Replicates are refitted from the point estimate by the chord method
    (Newton steps with the point estimate's Hessian factored once; see
    :func:`_fit_replicates`), which reaches the same maximum.

    The bootstrap's cost grows with replicates × observed pairs; it is kept
    within :data:`BOOT_WORK` (replicate–pair cells). Beyond it, fewer
    replicates are drawn (at least 100); when even 100 do not fit (above
    50,000 observed pairs), the intervals are the normal ones,
    rating ± 1.96 · ``se`` (the reported standard errors), and
    ``notes`` says so.

    Examples
    --------
    >>> votes = read_votes(SAMPLE_VOTES.read_bytes())
    >>> fit = fit_bradley_terry(votes, n_boot=100, seed=1)
    >>> fit.models[:3], fit.n_votes, round(float(fit.ratings.mean()), 6)
    (('synthetic-A', 'synthetic-B', 'synthetic-C'), 3000, 1000.0)
    """
    ties = check_choice("ties", ties, TIES)
    n_boot = check_int("n_boot", n_boot, low=0, high=10_000)
    models, ca, cb, outcome, notes, n_self = _vote_codes(votes)
    k = len(models)
    if k < 2:
        raise ValueError("`votes` must compare at least 2 different models.")
    if k > _FIT_K_MAX:
        raise ValueError(f"`votes` compare {k:,} models; at most {_FIT_K_MAX:,} are supported.")
    pi, pj, w, l_, t = _aggregate(ca, cb, outcome, k)
    n_votes, n_ties = int(ca.size), int(t.sum())
    used = (w + l_ > 0) if ties == "drop" else np.ones(pi.size, dtype=bool)
    graph = coo_matrix((np.ones(int(used.sum())), (pi[used], pj[used])), shape=(k, k))
    n_groups, labels = connected_components(graph, directed=False)
    if n_groups > 1:
        groups = [[models[m] for m in np.flatnonzero(labels == g)] for g in range(n_groups)]
        shown = "; ".join(", ".join(g[:4]) + (" …" if len(g) > 4 else "") for g in groups[:4])
        hint = (" (with `ties`='drop', votes that are all ties carry no information; try 'half')"
                if ties == "drop" and not used.all() else "")
        raise ValueError(f"`votes` split the models into {n_groups} groups never compared with each other "
                         f"({shown}); their ratings are not comparable{hint}.")
    i, j = pi, pj  # pairs with only ties stay (no weight under "drop", but resampled by the bootstrap)
    beta, ridge, separated, y, n = _fit_counts(w[None], l_[None], t[None], i, j, k, ties)
    cov = _reported_covariance(beta, y, n, i, j, k, ties, ridge, t_counts=t[None], w_counts=w[None],
                               l_counts=l_[None])[0]
    beta = beta[0]
    if separated[0]:
        notes.append("Some model or group of models never loses (or never wins) against the rest: the maximum-"
                     "likelihood ratings are infinite. A tiny ridge penalty keeps them finite; read those ratings as "
                     "bounds.")
    ratings = _MEAN_RATING + beta * SCALE
    order = np.argsort(-ratings, kind="stable")
    names = [models[m] for m in order]
    index = pd.Index(names, name="model")
    boot = None
    low = high = np.full(k, np.nan)
    if n_boot and n_boot * i.size > BOOT_WORK:
        affordable = BOOT_WORK // i.size
        if affordable >= _BOOT_MIN:
            notes.append(f"The bootstrap intervals use {affordable:,} replicates instead of {n_boot:,}: "
                         f"{i.size:,} compared pairs make each replicate costly.")
            n_boot = affordable
        else:
            n_boot = 0
            se_logit = np.sqrt(np.clip(np.diag(cov), 0.0, None))
            z = stats.norm.ppf(0.975)
            low, high = ratings - z * se_logit * SCALE, ratings + z * se_logit * SCALE
            notes.append(f"The 95% intervals are normal ones (rating ± 1.96 SE), not bootstrap percentiles: "
                         f"{i.size:,} compared pairs make a bootstrap too costly.")
    if n_boot:
        rng = np.random.default_rng(seed)
        cells = np.concatenate([w, l_, t])
        probs = cells / cells.sum()
        total = int(cells.sum())
        m_pairs = i.size
        chunk = max(1, min(n_boot, 16_000_000 // max(8 * m_pairs + k, 1)))
        p_hat = special.expit(beta[i] - beta[j])
        hess_hat = _laplacian((n[0] * p_hat * (1.0 - p_hat))[None], i, j, k)[0] + ridge[0] * np.eye(k) + 1.0 / k
        try:
            factor = linalg.cho_factor(hess_hat)
        except np.linalg.LinAlgError:
            factor = None
        inc_t = _incidence(i, j, k).T.tocsr()
        draws = []
        for start in range(0, n_boot, chunk):
            size = min(chunk, n_boot - start)
            c = rng.multinomial(total, probs, size=size).astype(float)
            bw, bl, bt = c[:, :m_pairs], c[:, m_pairs:2 * m_pairs], c[:, 2 * m_pairs:]
            draws.append(_fit_replicates(bw, bl, bt, i, j, k, ties, beta, factor, inc_t))
        boot = _MEAN_RATING + np.concatenate(draws) * SCALE
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
        boot = pd.DataFrame(boot[:, order], columns=index)
    counts = pd.DataFrame({"a": i, "b": j, "wa": w, "wb": l_, "t": t})
    swap = ratings[counts["a"]] < ratings[counts["b"]]
    counts = pd.DataFrame({
        "model_a": [models[m] for m in np.where(swap, counts["b"], counts["a"])],
        "model_b": [models[m] for m in np.where(swap, counts["a"], counts["b"])],
        "wins_a": np.where(swap, counts["wb"], counts["wa"]).astype(np.int64),
        "wins_b": np.where(swap, counts["wa"], counts["wb"]).astype(np.int64),
        "ties": counts["t"].astype(np.int64),
    })
    counts["n"] = counts["wins_a"] + counts["wins_b"] + counts["ties"]
    rank = {name_: r for r, name_ in enumerate(names)}
    counts = counts.iloc[np.lexsort((counts["model_b"].map(rank), counts["model_a"].map(rank)))].reset_index(drop=True)
    won = np.zeros((k, k))
    played = np.zeros((k, k))
    half = 0.5 if ties == "half" else 0.0
    np.add.at(won, (i, j), w + half * t)
    np.add.at(won, (j, i), l_ + half * t)
    n_pair = w + l_ + (t if ties == "half" else 0.0)
    np.add.at(played, (i, j), n_pair)
    np.add.at(played, (j, i), n_pair)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(played > 0, won / played, np.nan)
    rates = rates[np.ix_(order, order)]
    win_rates = pd.DataFrame(rates, index=index, columns=pd.Index(names, name="opponent"))
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None)) * SCALE
    return BradleyTerryFit(
        ratings=pd.Series(ratings[order], index=index, name="rating"),
        ci_low=pd.Series(low[order], index=index, name="ci_low"),
        ci_high=pd.Series(high[order], index=index, name="ci_high"),
        se=pd.Series(se[order], index=index, name="se"),
        counts=counts, win_rates=win_rates, n_votes=n_votes, n_ties=n_ties, n_self_matches=int(n_self),
        models=tuple(names), ties=ties, n_boot=n_boot, separated=bool(separated[0]), notes=tuple(notes),
        bootstrap=boot,
    )

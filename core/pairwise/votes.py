"""Votes needed for every pair of neighbours, and assurance under a prior on the gaps.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..accuracy import preference_sample_sizes
from ..assurance import assurance
from ..validation import check_int, check_real, renamed
from ._common import SCALE, _N_MAX, _S, _Z95, _validate
from .analytic import _Design, _analytic_power, _design, _two_cells

__all__ = [
    "LeaderboardAssurance",
    "leaderboard_assurance",
    "leaderboard_votes",
]


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
        gives the Wald power of :func:`leaderboard_power`'s analytic engine (a gap
        of 0: the positive direction's half of its false-positive rate).
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
    names, values, n_votes, tie_rate, ties, judge, alpha, *_ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha)
    tau = check_real("delta_sd", renamed(delta_sd, gap_sd, new="delta_sd", old="gap_sd"), low=0.0, high=2000.0)
    des = _design(tuple(float(v) for v in values), tie_rate, ties, judge)
    root = math.sqrt(n_votes)
    z = stats.norm.isf(alpha / 2.0)
    power = _analytic_power(des, [n_votes], alpha)[0]
    fallback = _S * (2.0 * judge - 1.0) * ((1.0 - tie_rate) if ties == "split" else 1.0)
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
    >>> from core.pairwise import evenly_spaced
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



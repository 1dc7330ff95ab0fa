"""Results and :func:`leaderboard_power` (analytic, exact for two systems, or simulated).

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from ..accuracy import preference_power
from ..multiplicity import FamilyPower
from ..results import PowerResult
from ..validation import check_choice, check_int, rng_of
from ._common import SCALE, _S, _TIE_TOL, _Z95, _validate
from .solver import _fit_counts, _pairs, _reported_covariance
from .analytic import (
    _Design,
    _analytic_order,
    _analytic_power,
    _coverage,
    _design,
    _halfwidth,
    _two_cells,
    _two_order_correct,
)

__all__ = [
    "LeaderboardPower",
    "MAX_SIM_WORK",
    "MIN_UPSETS",
    "expected_upsets",
    "RESOLUTION_CORRECTIONS",
    "leaderboard_power",
    "rank_resolution",
    "rating_covariance",
    "simulate_fits",
]


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
        toward the mean under "split" and by a noisy judge.
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
    ties : {"drop", "split"}, optional
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
    >>> from core.pairwise import evenly_spaced
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
    sim = _simulate(n_votes, des, tie_rate, ties, alpha, n_sims, rng_of(seed))
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




#: Replicates × pairs of systems fitted at once by the simulation engine (its Hessians are replicates × K × K):
#: about 100 MB of working arrays a block; more replicates are drawn and fitted block by block.
_SIM_BLOCK = 2_000_000
#: Most replicates × pairs one simulation may ask for (2,000 leaderboards of 100 systems; ≈ 10 s on one core).
MAX_SIM_WORK = 10_000_000


def _blocks(n_sims, k):
    """Replicate counts of the blocks (each at most ``_SIM_BLOCK`` replicates × pairs)."""
    per = max(1, _SIM_BLOCK // (k * (k - 1) // 2))
    return [min(per, n_sims - start) for start in range(0, n_sims, per)]


def _check_work(n_sims, k):
    pairs = k * (k - 1) // 2
    if n_sims * pairs > MAX_SIM_WORK:
        raise ValueError(f"`n_sims` is too large for {k} systems: at most {MAX_SIM_WORK // pairs:,} simulated "
                         f"leaderboards ({pairs:,} pairs each), got {n_sims:,}.")


def _simulate(n_votes, des: _Design, tie_rate, ties, alpha, n_sims, rng) -> dict:
    k = des.values.size
    _check_work(n_sims, k)
    i, j = _pairs(k)
    up, low = des.order[:-1], des.order[1:]
    truth = _S * (des.values - des.values.mean())
    crit = stats.norm.isf(alpha / 2.0)
    right, covered, ordered, separated, sd_all = np.zeros(k - 1), np.zeros(k), 0, 0.0, []
    for size in _blocks(n_sims, k):
        wins, losses, tied = _draw_counts(n_votes, des, tie_rate, size, rng)
        beta, ridge, sep, y, n = _fit_counts(wins, losses, tied, i, j, k, ties)
        cov = _reported_covariance(beta, y, n, i, j, k, ties, ridge, t_counts=tied, w_counts=wins, l_counts=losses)
        diff = beta[:, up] - beta[:, low]
        se = np.sqrt(cov[:, up, up] + cov[:, low, low] - 2.0 * cov[:, up, low])
        reject = np.abs(diff) >= crit * se
        right += np.where(des.gap > 0, (reject & (diff > 0)).sum(axis=0), reject.sum(axis=0))
        sd_sys = np.sqrt(np.clip(np.diagonal(cov, axis1=1, axis2=2), 0.0, None))
        sd_all.append(sd_sys)
        covered += (np.abs(beta - truth) <= _Z95 * sd_sys).sum(axis=0)
        # Strictly above: an estimated tie (equal tables give equal fits up to rounding, ~1e-15 logits, whose sign
        # would depend on the order the systems were listed in) is not a correct order.
        ordered += int((diff > _TIE_TOL).all(axis=1).sum())
        separated += float(sep.sum())
    power = right / n_sims
    if np.any(des.gap <= 0):
        order, order_se = math.nan, 0.0
    else:
        order = ordered / n_sims
        order_se = math.sqrt(order * (1.0 - order) / n_sims)
    return {
        "adjacent_power": power, "mc_se": np.sqrt(power * (1.0 - power) / n_sims),
        "ci_halfwidth": np.median(_Z95 * np.concatenate(sd_all), axis=0) * SCALE, "order_correct": order,
        "order_correct_mc_se": order_se, "coverage": covered / n_sims, "separated": separated / n_sims,
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
    _check_work(n_sims, k)
    i, j = _pairs(k)
    rng = rng_of(seed)
    fits = []
    for size in _blocks(n_sims, k):
        wins, losses, tied = _draw_counts(n_votes, des, tie_rate, size, rng)
        fits.append(_fit_counts(wins, losses, tied, i, j, k, ties)[0])
    return values.mean() + np.concatenate(fits) * SCALE


def rating_covariance(n_votes, ratings, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0,
                      which="sampling") -> pd.DataFrame:
    """Asymptotic covariance (Elo²) of the fitted ratings relative to their mean.

    Parameters
    ----------
    which : {"sampling", "reported"}, optional
        ``"sampling"``: the sandwich H⁺ J H⁺ (the actual spread of the
        estimates; H⁺, the inverse Fisher information, when the model holds);
        ``"reported"``: what the analyst's fit reports (H⁺ for "drop", the
        sandwich for "split").

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
# rank resolution: every pair of neighbours under a multiplicity correction
# ---------------------------------------------------------------------------
#: Corrections :func:`rank_resolution` applies across the K − 1 pairs of neighbours.
RESOLUTION_CORRECTIONS = ("none", "holm", "bonferroni")
#: Most normal draws (families × pairs) :func:`rank_resolution` holds at once.
_RESOLUTION_BLOCK = 2_000_000


def rank_resolution(n_votes, ratings, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0, alpha=0.05,
                    corrections=RESOLUTION_CORRECTIONS, n_sims=20_000, seed=0) -> dict:
    """Which neighbours a leaderboard tells apart after a multiplicity correction across its K − 1 pairs.

    The K − 1 estimated gaps between neighbours are jointly normal in the analytic engine's model (the
    expected Fisher information of the Bradley–Terry fit, :func:`leaderboard_power`): √N·(δ̂ − δ*) ~ N(0, Σ),
    where Σ is the gaps' sampling covariance. Adjacent gaps share a system, so they are **negatively
    correlated** (about −0.5 for evenly spaced systems): a family drawn with that covariance, not independent
    tests, decides how often every neighbour is resolved at once. Each pair's Wald test rejects when
    |δ̂_j| > z·SE_j; a pair counts as resolved when its test rejects in the direction of the true order (any
    rejection for tied true ratings). Holm (1979) steps down over the K − 1 p-values; Bonferroni tests each at
    α/(K − 1). Two systems have one pair and no correction: the exact engine's power.

    Parameters
    ----------
    n_votes, ratings, tie_rate, ties, judge_accuracy, alpha
        As :func:`leaderboard_power`.
    corrections : sequence of {"none", "holm", "bonferroni"}
    n_sims : int
        Simulated families (1,000 … 1,000,000), drawn in blocks; common to every correction.
    seed : int or numpy.random.Generator

    Returns
    -------
    dict of str to :class:`core.multiplicity.FamilyPower`
        Per correction: ``per_comparison`` (each pair resolved, true order), ``all`` (every pair), ``any``,
        ``expected_rejections``, ``mc_se`` (the largest binomial SE of those shares).
    """
    _, values, n_votes, tie_rate, ties, judge, alpha, _, _, _, _ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha)
    corrections = tuple(check_choice("corrections", c, RESOLUTION_CORRECTIONS) for c in corrections)
    n_sims = check_int("n_sims", n_sims, low=1_000, high=1_000_000)
    rng = rng_of(seed)
    des = _design(tuple(values), tie_rate, ties, judge)
    m = values.size - 1
    if m == 1:
        power = float(leaderboard_power(n_votes, ratings, tie_rate=tie_rate, ties=ties, judge_accuracy=judge,
                                        alpha=alpha).adjacent_power[0])
        return {c: FamilyPower(per_comparison=np.array([power]), all=power, any=power, expected_rejections=power,
                               mc_se=0.0, correction=c, method="exact") for c in corrections}
    mean = math.sqrt(n_votes) * des.delta_star  # √N·δ*, the gaps' centre on the √N scale
    chol = np.linalg.cholesky(des.cov_adj1 + 1e-14 * np.eye(m) * np.trace(des.cov_adj1) / m)
    positive = des.gap > 0  # the direction that counts as resolved (ties in truth: either)
    steps = alpha / (m - np.arange(m))  # Holm's thresholds for the sorted p-values
    resolved = {c: np.zeros(m) for c in corrections}
    every = dict.fromkeys(corrections, 0)
    some = dict.fromkeys(corrections, 0)
    done = 0
    while done < n_sims:
        size = min(n_sims - done, max(1, _RESOLUTION_BLOCK // m))
        est = mean + rng.standard_normal((size, m)) @ chol.T
        z = est / des.se1
        p = 2.0 * special.ndtr(-np.abs(z))
        right = np.where(positive, z > 0, True)
        for c in corrections:
            if c == "none":
                reject = p <= alpha
            elif c == "bonferroni":
                reject = p <= alpha / m
            else:
                order = np.argsort(p, axis=1, kind="stable")
                passed = np.take_along_axis(p, order, axis=1) <= steps
                count = np.where(passed.all(axis=1), m, np.argmin(passed, axis=1))
                reject = np.zeros_like(passed)
                np.put_along_axis(reject, order, np.arange(m)[None, :] < count[:, None], axis=1)
            ok = reject & right
            resolved[c] += ok.sum(axis=0)
            every[c] += int(ok.all(axis=1).sum())
            some[c] += int(ok.any(axis=1).sum())
        done += size
    out = {}
    for c in corrections:
        per = resolved[c] / n_sims
        shares = np.r_[per, every[c] / n_sims, some[c] / n_sims]
        out[c] = FamilyPower(per_comparison=per, all=float(every[c] / n_sims), any=float(some[c] / n_sims),
                             expected_rejections=float(per.sum()),
                             mc_se=float(np.sqrt(shares * (1 - shares) / n_sims).max()), correction=c,
                             method="simulate", n_sims=n_sims)
    return out


#: Fewest expected upsets (wins of the worse system) per pair of neighbours for the analytic engine's Wald
#: approximation: below it fits often separate (a system that never loses has no finite MLE) and the normal
#: approximation overstates power — 3 systems 500 Elo apart: 80% claimed at 54 votes, about 64% simulated.
MIN_UPSETS = 5.0


def expected_upsets(n_votes, ratings, *, tie_rate=0.0, ties="drop", judge_accuracy=1.0) -> np.ndarray:
    """Expected upsets per pair of neighbours (true order): votes the worse system of the pair wins.

    Votes are shared equally over the K(K − 1)/2 pairs, as in :func:`leaderboard_power`; a pair of neighbours
    gets n/(K(K − 1)/2) of them, of which a share (1 − tie rate)·min(p, 1 − p) are upsets, p the observed win
    rate (:func:`observed_win_rate`). Compare with :data:`MIN_UPSETS`.
    """
    _, values, n_votes, tie_rate, ties, judge, *_ = _validate(
        ratings, n_votes=n_votes, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy)
    k = values.size
    order = np.argsort(-values, kind="stable")
    p = special.expit(_S * (values[order[:-1]] - values[order[1:]]))
    p_obs = 0.5 + (2.0 * judge - 1.0) * (p - 0.5)
    return n_votes / (k * (k - 1) / 2) * (1.0 - tie_rate) * np.minimum(p_obs, 1.0 - p_obs)

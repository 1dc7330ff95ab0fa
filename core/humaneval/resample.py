"""Power of a campaign from last year's real judgments: resampled campaigns, no score model.

Wei, Kocmi & Federmann (2022), §7.2, benchmark the fixed, interim and
interim-futility procedures "by sampling with replacement" from each pair's
judgments. :func:`resampled_power` does the same for any two systems of an
uploaded campaign: each simulated campaign draws the judgments of each system
by resampling its **segments** with replacement, each with all its ratings
(so ratings of one segment stay together, as they would in a new campaign),
until the system's share of the budget is reached, and runs the procedure's
tests at its interim looks. The look schedule, the boundaries, the stopping
rule and the t test are the campaign engine's own
(:mod:`core.sequential.campaign`: ``_look_sizes``, ``_design_bounds``,
``_run_campaigns``, ``_t_looks``); the Mann–Whitney test is computed here
with mid-ranks and the tie-corrected variance at every look, because real
scores tie everywhere (DA's whole numbers, MQM's mass at 0), whereas the
engine's fast ranking assumes ties only at the clipped score 0.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from ..sequential import CampaignResult
from ..sequential.campaign import (MAX_SIMULATED_JUDGMENTS, TESTS, _design_bounds, _look_sizes, _run_campaigns,
                                   _t_looks, _type_m, _validate_design)
from ..validation import check_choice, check_int, check_real, rng_of

__all__ = ["SystemPool", "system_pool", "resampled_power", "resampled_curves", "mwu_looks_ties"]

#: Most distinct score values for the histogram form of the Mann–Whitney test (beyond it: scipy per look).
_MAX_CODES = 4096
_CELLS = 2_000_000  # histogram cells (campaigns × looks × values) or judgments per chunk


class SystemPool:
    """One system's judgments grouped by segment, ready to resample.

    Attributes
    ----------
    values : ndarray
        Every judgment (rating) of the system, segment after segment.
    starts, counts : ndarray
        Where each segment's ratings start in ``values`` and how many there are.
    mean : float
        Mean of all judgments (the long-run mean of the resampled stream of judgments).
    """

    __slots__ = ("values", "starts", "counts", "mean", "codes")

    def __init__(self, values, starts, counts, codes=None):
        self.values = np.asarray(values, dtype=float)
        self.codes = codes  # the values' ranks among every value a simulation can draw (set by the caller)
        self.starts = np.asarray(starts, dtype=np.int64)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.mean = float(self.values.mean())

    def shifted(self, shift: float) -> "SystemPool":
        return SystemPool(self.values + shift, self.starts, self.counts)

    @staticmethod
    def union(a: "SystemPool", b: "SystemPool") -> "SystemPool":
        """Both systems' segments in one pool (the exchangeable null: no difference between the systems)."""
        return SystemPool(np.concatenate([a.values, b.values]),
                          np.concatenate([a.starts, b.starts + a.values.size]),
                          np.concatenate([a.counts, b.counts]),
                          None if a.codes is None or b.codes is None else np.concatenate([a.codes, b.codes]))

    def draw(self, rng, rows: int, n: int) -> np.ndarray:
        """``rows`` resampled streams of ``n`` judgments: segments drawn with replacement, all their ratings in
        order, the stream cut at ``n`` judgments (the last segment may be cut short). Returns indices into
        ``values``."""
        counts = self.counts
        if np.all(counts == 1):  # one rating per segment: plain resampling of judgments
            return self.starts[rng.integers(0, counts.size, size=(rows, n))]
        slots = int(math.ceil(n / float(counts.mean()) * 1.25)) + 8
        seg = rng.integers(0, counts.size, size=(rows, slots))
        per_row = counts[seg].sum(axis=1)
        while np.any(per_row < n):  # rare: more segments for every stream, so all rows keep one width
            seg = np.concatenate([seg, rng.integers(0, counts.size, size=(rows, slots))], axis=1)
            per_row = counts[seg].sum(axis=1)
        # every stream's ratings laid end to end: segment s contributes starts[s], starts[s] + 1, …
        flat_seg = seg.ravel()
        lengths = counts[flat_seg]
        ends = np.cumsum(lengths)
        position = np.arange(int(ends[-1]), dtype=np.int64) - np.repeat(ends - lengths, lengths)
        index = np.repeat(self.starts[flat_seg], lengths) + position
        row_start = np.concatenate([[0], np.cumsum(per_row)[:-1]])
        return index[row_start[:, None] + np.arange(n)[None, :]]


def system_pool(scores: pd.DataFrame, system) -> SystemPool:
    """The judgments of ``system`` in a long table (``system``, ``item``, ``score``), grouped by segment."""
    rows = scores[(scores["system"] == system) & scores["score"].notna()]
    if rows.empty:
        raise ValueError(f"`systems`: no scores for the system {str(system)[:80]!r}.")
    keys = rows["item"].astype(str).to_numpy()
    order = np.argsort(keys, kind="stable")  # keeps each segment's ratings in their given order
    _, first = np.unique(keys[order], return_index=True)
    counts = np.diff(np.append(first, len(rows)))
    return SystemPool(rows["score"].to_numpy(dtype=float)[order], first, counts)


def _validate_scores(scores):
    if not isinstance(scores, pd.DataFrame) or not {"system", "item", "score"} <= set(scores.columns):
        raise ValueError("`scores` must be a long table with columns `system`, `item` and `score` "
                         "(core.humaneval.read_scores).")
    values = pd.to_numeric(scores["score"], errors="coerce")
    if values.notna().sum() == 0:
        raise ValueError("`scores` has no numeric score.")
    check_ids(scores)
    return scores.assign(score=values)


def check_ids(scores: pd.DataFrame) -> None:
    """Refuse rows without a system or a segment id: they would merge into one segment of their own (the readers
    never produce them; a table built by hand can)."""
    missing = scores["system"].isna() | scores["item"].isna()
    if missing.any():
        first = ", ".join(str(i) for i in scores.index[missing.to_numpy()][:5])
        raise ValueError(f"`scores`: {int(missing.sum()):,} rows have no `system` or no `item` id (rows {first}"
                         f"{', …' if missing.sum() > 5 else ''}); give them ids or drop them.")


def mwu_looks_ties(a, b, sizes):
    """Two-sided asymptotic Mann–Whitney U at every look (prefix) of every campaign, with any ties.

    Parameters
    ----------
    a, b : ndarray (campaigns, n)
        The two systems' judgments in the order they arrive.
    sizes : ndarray of int
        Judgments per system at each look (increasing, the last at most n).

    Returns
    -------
    (u, p) : ndarrays (campaigns, looks)
        U of ``a`` (pairs with a > b, ties counted ½) and the two-sided p-value with the continuity correction
        and the tie-corrected variance ``m n / 12 · ((N + 1) − Σ(t³ − t) / (N (N − 1)))`` — scipy's
        ``mannwhitneyu(method="asymptotic")``, which the tests use as the oracle.

    Notes
    -----
    With few distinct values (DA's 0–100 integers, MQM's weighted error counts) each look's counts per value
    are one histogram (``bincount``), cumulated over the looks; U is Σ_v c_A(v) (C_B(< v) + ½ c_B(v)).
    With more than 4,096 distinct values, scipy's vectorized test runs per look.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    sizes = np.asarray(sizes, dtype=np.int64)
    rows, looks = a.shape[0], sizes.size
    n = int(sizes[-1])
    a, b = a[:, :n], b[:, :n]
    uniq, inverse = np.unique(np.concatenate([a.ravel(), b.ravel()]), return_inverse=True)
    if uniq.size > _MAX_CODES:
        return _mwu_scipy(a, b, sizes)
    codes = inverse.reshape(2, rows, n)
    return _mwu_codes(codes[0], codes[1], sizes, uniq.size)


def _mwu_scipy(a, b, sizes):
    """scipy's vectorized test per look (many distinct values)."""
    rows, looks = a.shape[0], sizes.size
    u = np.empty((rows, looks))
    p = np.empty((rows, looks))
    for k, m in enumerate(sizes):
        res = stats.mannwhitneyu(a[:, :m], b[:, :m], axis=1, method="asymptotic", use_continuity=True)
        u[:, k], p[:, k] = res.statistic, res.pvalue
    return u, p


def _mwu_codes(code_a, code_b, sizes, values):
    """:func:`mwu_looks_ties` from the judgments' ranks among ``values`` distinct values (histograms per look)."""
    rows, looks = code_a.shape[0], sizes.size
    n = int(sizes[-1])
    size = sizes.astype(float)[None, :]
    look = np.searchsorted(sizes, np.arange(n), side="right")  # look at which judgment j enters
    u = np.empty((rows, looks))
    ties = np.empty((rows, looks))
    chunk = max(1, _CELLS // max(1, looks * values), 1)
    chunk = min(chunk, max(1, _CELLS // n))
    for start in range(0, rows, chunk):
        stop = min(rows, start + chunk)
        r = stop - start
        base = (np.arange(r)[:, None] * looks + look[None, :]) * values
        ca = np.bincount((base + code_a[start:stop, :n]).ravel(), minlength=r * looks * values)
        cb = np.bincount((base + code_b[start:stop, :n]).ravel(), minlength=r * looks * values)
        ca = np.cumsum(ca.reshape(r, looks, values), axis=1, dtype=np.float64)
        cb = np.cumsum(cb.reshape(r, looks, values), axis=1, dtype=np.float64)
        below = np.cumsum(cb, axis=2) - cb
        u[start:stop] = (ca * (below + 0.5 * cb)).sum(axis=2)
        t = ca + cb
        ties[start:stop] = (t * t * t - t).sum(axis=2)
    total = 2 * size
    var = size * size / 12.0 * ((total + 1) - ties / (total * (total - 1)))
    big = np.maximum(u, size * size - u)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (big - size * size / 2.0 - 0.5) / np.sqrt(var)
    p = np.where(var > 0, np.clip(2.0 * stats.norm.sf(z), 0.0, 1.0), 1.0)
    return u, p


def _pvalues(ia, ib, pool_a, pool_b, sizes, test, values):
    a, b = pool_a.values[ia], pool_b.values[ib]
    if test == "mwu":
        if values is None:
            u, p = _mwu_scipy(a, b, sizes)
        else:
            u, p = _mwu_codes(pool_a.codes[ia], pool_b.codes[ib], sizes, values)
        return a, b, p, np.sign(u - (sizes * sizes / 2.0)[None, :])
    return (a, b) + _t_looks(a, b, sizes)


def _campaigns(rng, pool_a, pool_b, sizes, test, eff_p, fut_p, n_sims, values):
    """Stopping look, reason, sign and the difference of means at stopping of ``n_sims`` resampled campaigns."""
    n = int(sizes[-1])
    chunk = max(1, _CELLS // (2 * n))
    parts = []
    for start in range(0, n_sims, chunk):
        size = min(chunk, n_sims - start)
        a, b, pvals, signs = _pvalues(pool_a.draw(rng, size, n), pool_b.draw(rng, size, n), pool_a, pool_b,
                                      sizes, test, values)
        stop_look, reason, sign = _run_campaigns(pvals, signs, eff_p, fut_p)
        means = (np.cumsum(a, axis=1)[:, sizes - 1] - np.cumsum(b, axis=1)[:, sizes - 1]) / sizes[None, :]
        parts.append((stop_look, reason, sign, means[np.arange(size), stop_look]))
    return tuple(np.concatenate([part[i] for part in parts]) for i in range(4))


def _validate_run(scores, systems, budget, procedure, peeks, boundary, futility_p, alpha, test, n_sims, delta):
    scores = _validate_scores(scores)
    if isinstance(systems, str) or not isinstance(systems, (tuple, list)) or len(tuple(systems)) != 2:
        raise ValueError("`systems` must name two systems, (A, B).")
    a, b = tuple(systems)
    if a == b:
        raise ValueError("`systems` must name two different systems.")
    procedure, budget, peeks, kind, futility_p, alpha = _validate_design(procedure, budget, peeks, boundary,
                                                                         futility_p, alpha)
    test = check_choice("test", test, TESTS)
    n_sims = check_int("n_sims", n_sims, low=100, high=200_000)
    if n_sims * budget > MAX_SIMULATED_JUDGMENTS:
        raise ValueError(f"`n_sims` × `budget` = {n_sims:,} × {budget:,} must be at most "
                         f"{MAX_SIMULATED_JUDGMENTS:,} resampled judgments; reduce `n_sims` or the `budget`.")
    if delta is not None:
        delta = check_real("delta", delta, low=-1e6, high=1e6)
    return scores, (a, b), procedure, budget, peeks, kind, futility_p, alpha, test, n_sims, delta


def resampled_power(scores, systems, budget, *, procedure="fixed", delta=None, peeks=3, boundary="pocock",
                    futility_p=0.5, alpha=0.05, test="mwu", n_sims=2000, seed=None) -> CampaignResult:
    """Power of a campaign design for two systems, from their real judgments (resampled campaigns).

    Parameters
    ----------
    scores : pandas.DataFrame
        Long table of judgments (:func:`core.humaneval.read_scores`): ``system``, ``item`` (segment id),
        ``score`` (and ``rater``, unused here).
    systems : (str, str)
        Systems A and B; the difference is A − B (as ``delta`` of :func:`core.sequential.campaign_power`).
    budget : int
        Planned judgments for the pair (split evenly; 20 … 1,000,000).
    procedure : {"fixed", "interim", "interim_futility", "naive"}
        The testing procedure (Wei et al. 2022, §7.2), as ``design`` of ``campaign_power``.
    delta : float or None
        ``None`` keeps the observed difference of the systems' mean judgments; a number shifts every judgment
        of B so that the difference of means is ``delta`` (0: the rejection rate with equal means).
    peeks, boundary, futility_p, alpha, test :
        As in :func:`core.sequential.campaign_power`.
    n_sims : int
        Resampled campaigns (100 … 200,000; ``n_sims × budget`` at most
        :data:`core.sequential.MAX_SIMULATED_JUDGMENTS`).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    core.sequential.CampaignResult
        ``power`` (significant in the direction of the true difference; at a true difference of 0 the
        rejection rate), ``false_positive_rate`` (rejection rate when both systems are drawn from the pooled
        segments of A and B — an exact null: the systems are exchangeable), ``type_s``, ``type_m`` (E|difference
        of means at the stopping analysis| over significant campaigns / |true difference|), ``expected_judgments``,
        the stopping probabilities per look, and the Monte Carlo standard errors (``mc_se`` of the power).

    Notes
    -----
    Segments are drawn with replacement, each with all its ratings in the order given, until the system's
    ``budget // 2`` judgments are reached; looks are prefixes of that stream (the campaign engine's
    ``_look_sizes``). The true difference is the difference of the two pools' mean judgments (the long-run
    mean of a resampled stream). Shifting B by a constant keeps its shape: the Mann–Whitney test at
    ``delta = 0`` may still reject more than α when A and B differ in shape (it tests P(A > B) = ½, not equal
    means), which is why the false-positive rate is computed on the pooled null instead.

    No distributional model is assumed: where the resampled and the parametric (Gamma) power disagree — DA's
    ceiling at 100, MQM's mass at 0 — the resampled one describes these systems' judgments, as far as last
    year's segments are like next year's.

    References
    ----------
    Wei, Kocmi & Federmann (2022), §7.2 (resampling each pair's judgments); Efron & Tibshirani (1993),
    ch. 16 (bootstrap power); Jennison & Turnbull (2000), ch. 2–3 (boundaries).

    Examples
    --------
    >>> import pandas as pd, numpy as np
    >>> rng = np.random.default_rng(0)
    >>> scores = pd.DataFrame({"system": np.repeat(["A", "B"], 300), "item": np.tile(np.arange(300), 2),
    ...                        "score": np.r_[rng.integers(40, 101, 300), rng.integers(30, 101, 300)]})
    >>> r = resampled_power(scores, ("A", "B"), 400, n_sims=500, seed=1)
    >>> 0 <= r.power <= 1 and r.expected_judgments == 400
    True
    """
    (scores, (a, b), procedure, budget, peeks, kind, futility_p, alpha, test, n_sims,
     delta) = _validate_run(scores, systems, budget, procedure, peeks, boundary, futility_p, alpha, test, n_sims,
                            delta)
    pool_a, pool_b = system_pool(scores, a), system_pool(scores, b)
    observed = pool_a.mean - pool_b.mean
    if delta is not None:
        pool_b = pool_b.shifted(observed - delta)
    true_difference = observed if delta is None else delta
    sizes = _look_sizes(budget, peeks)
    eff_z, fut_z = _design_bounds(procedure, peeks, kind, futility_p, alpha)
    nominal = tuple(float(v) for v in 2 * stats.norm.sf(eff_z))
    eff_p = 2 * stats.norm.sf(eff_z)
    fut_p = np.where(fut_z > 0, 2 * stats.norm.sf(fut_z), 1.0)
    uniq, inverse = np.unique(np.concatenate([pool_a.values, pool_b.values]), return_inverse=True)
    values = uniq.size if uniq.size <= _MAX_CODES else None
    pool_a.codes, pool_b.codes = inverse[:pool_a.values.size], inverse[pool_a.values.size:]
    rng = rng_of(seed)
    stop_look, reason, sign, estimate = _campaigns(rng, pool_a, pool_b, sizes, test, eff_p, fut_p, n_sims, values)
    pooled = SystemPool.union(pool_a, pool_b)
    null_reason = _campaigns(rng, pooled, pooled, sizes, test, eff_p, fut_p, n_sims, values)[1]
    looks = sizes.size
    significant = reason == 1
    direction = np.sign(true_difference)
    right = significant & (sign == direction) if direction != 0 else significant
    power = float(right.mean())
    n_significant = int(significant.sum())
    type_s = float((significant & ~right).sum() / n_significant) if direction != 0 and n_significant else math.nan
    spent = 2 * sizes[stop_look]
    fpr = float((null_reason == 1).mean())
    type_m, type_m_se = _type_m(estimate, significant, true_difference if direction != 0 else 0.0)
    return CampaignResult(
        power=power, false_positive_rate=fpr, expected_judgments=float(spent.mean()),
        stop_probabilities=tuple(np.bincount(stop_look, minlength=looks) / n_sims),
        efficacy_probabilities=tuple(np.bincount(stop_look[significant], minlength=looks) / n_sims),
        futility_probabilities=tuple(np.bincount(stop_look[reason == -1], minlength=looks) / n_sims),
        type_s=type_s, nominal_p=nominal, budget=budget, looks=looks,
        mc_se=math.sqrt(power * (1 - power) / n_sims), false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims),
        judgments_se=float(spent.std(ddof=1) / math.sqrt(n_sims)), n_sims=n_sims, method="resample",
        type_m=type_m, type_m_se=type_m_se)


def resampled_curves(scores, systems, budgets, *, procedures=("fixed", "interim", "interim_futility"), delta=None,
                     peeks=3, boundary="pocock", futility_p=0.5, alpha=0.05, test="mwu", n_sims=1000,
                     seed=0) -> pd.DataFrame:
    """:func:`resampled_power` over planned budgets and procedures, as a tidy frame.

    Returns
    -------
    pandas.DataFrame
        ``procedure, budget, power, mc_se, expected_judgments, false_positive_rate, type_m`` (one row per
        procedure and budget; each point its own seeded run, ``seed`` + its index).
    """
    rows = []
    seeds = np.random.SeedSequence(seed if seed is not None else None)
    children = seeds.spawn(len(procedures) * len(budgets))
    i = 0
    for procedure in procedures:
        for budget in budgets:
            r = resampled_power(scores, systems, int(budget), procedure=procedure, delta=delta, peeks=peeks,
                                boundary=boundary, futility_p=futility_p, alpha=alpha, test=test, n_sims=n_sims,
                                seed=np.random.default_rng(children[i]))
            i += 1
            rows.append((procedure, int(budget), r.power, r.mc_se, r.expected_judgments, r.false_positive_rate,
                         r.type_m))
    return pd.DataFrame(rows, columns=["procedure", "budget", "power", "mc_se", "expected_judgments",
                                       "false_positive_rate", "type_m"])

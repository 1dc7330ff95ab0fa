"""Ratings per segment vs more segments for a fixed budget (a two-stage sampling optimum).

A system's campaign score is the mean over m segments of the mean of r ratings of each. With the segment
(true-quality) variance σ²_seg and the rating variance within a segment σ²_res (rater plus residual noise),

    Var(system mean) = (σ²_seg + σ²_res / r) / m,

and a budget C per system buys m = C / (c_seg + r · c_judg) segments, where c_seg is what a segment costs
whatever its ratings (finding and preparing it, an annotator reading the source and document) and c_judg what
one rating costs. The product (σ²_seg + σ²_res / r)(c_seg + r c_judg) is minimised at

    r* = sqrt(c_seg σ²_res / (c_judg σ²_seg))

(Cochran 1977, *Sampling Techniques*, §10.6, the optimum subsample size of two-stage sampling;
Snijders & Bosker 2012, §11.3). With whole ratings and whole segments the best r is one of r*'s integer
neighbours for the continuous objective; :func:`raters_per_segment` also tabulates every r with whole segments.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..validation import check_alpha, check_int, check_real

__all__ = ["RatersPlan", "raters_per_segment"]


@dataclass(frozen=True)
class RatersPlan:
    """Ratings per segment for a budget (:func:`raters_per_segment`).

    Attributes
    ----------
    r_star : float
        The continuous optimum sqrt(c_seg σ²_res / (c_judg σ²_seg)) (``inf`` when σ²_seg = 0).
    neighbour : int
        The better of r*'s integer neighbours (⌊r*⌋, ⌈r*⌉, within 1 … ``max_ratings``) for the continuous
        objective (σ²_seg + σ²_res/r)(c_seg + r c_judg).
    best : int
        The r of the table with the smallest standard error with whole segments within the budget.
    table : pandas.DataFrame
        One row per r = 1 … ``max_ratings``: ``ratings, segments`` (per system), ``judgments`` (for the pair),
        ``cost`` (for the pair), ``se`` (of the difference of the two systems' means), ``power`` (two-sided
        z test at ``delta``; ``nan`` without ``delta``), ``relative_variance`` (to the best r).
    """

    r_star: float
    neighbour: int
    best: int
    table: pd.DataFrame


def _validate(segment_var, residual_var, budget, cost_segment, cost_judgment, max_ratings, delta, alpha):
    segment_var = check_real("segment_var", segment_var, low=0.0, high=1e12)
    residual_var = check_real("residual_var", residual_var, low=0.0, high=1e12)
    if segment_var == 0 and residual_var == 0:
        raise ValueError("`segment_var` and `residual_var` must not both be 0.")
    budget = check_real("budget", budget, low=0.0, high=1e12, low_open=True)
    cost_segment = check_real("cost_segment", cost_segment, low=0.0, high=1e9)
    cost_judgment = check_real("cost_judgment", cost_judgment, low=0.0, high=1e9, low_open=True)
    max_ratings = check_int("max_ratings", max_ratings, low=1, high=1000)
    if delta is not None:
        delta = check_real("delta", delta, low=-1e9, high=1e9)
    return segment_var, residual_var, budget, cost_segment, cost_judgment, max_ratings, delta, check_alpha(alpha)


def raters_per_segment(segment_var, residual_var, *, budget, cost_segment=0.0, cost_judgment=1.0, max_ratings=10,
                       delta=None, alpha=0.05) -> RatersPlan:
    """Cost-optimal number of ratings per segment (vs more segments) for a budget.

    Parameters
    ----------
    segment_var : float
        σ²_seg, the variance of the segments' true scores within a system (:class:`CampaignFit`'s segment
        component).
    residual_var : float
        σ²_res, the variance of ratings of one segment (rater plus residual components: a new rating comes from
        a new rater).
    budget : float
        Money (or time) for the pair of systems, split evenly.
    cost_segment : float
        Cost of one segment of one system, whatever its ratings (0 … ; 0 makes r = 1 optimal).
    cost_judgment : float
        Cost of one rating (> 0).
    max_ratings : int
        Largest r tabulated (1 … 1,000).
    delta : float, optional
        A difference of means to compute the power at (two-sided z test with the SE of the table).
    alpha : float

    Returns
    -------
    RatersPlan

    Notes
    -----
    Per system m_r = ⌊(budget/2) / (c_seg + r c_judg)⌋ segments; SE of the difference of the two systems'
    means sqrt(2 (σ²_seg + σ²_res/r) / m_r). The closed form r* minimises the continuous objective; the
    ``neighbour`` is the better of its two integer neighbours (the objective is convex in r), and ``best`` the
    minimum of the table with whole segments (it can differ from the neighbour only through the rounding of m).

    References
    ----------
    Cochran (1977), Sampling Techniques, 3rd ed., §10.6 (eq. 10.30: optimum subsample size);
    Wei, Kocmi & Federmann (2022), §6.2 (segment vs annotator variance of DA).

    Examples
    --------
    Equal variances, a segment costing as much as 4 ratings: r* = sqrt(4) = 2.

    >>> plan = raters_per_segment(100.0, 100.0, budget=1000, cost_segment=4.0, cost_judgment=1.0)
    >>> plan.r_star, plan.neighbour, plan.best
    (2.0, 2, 2)
    """
    (segment_var, residual_var, budget, cost_segment, cost_judgment, max_ratings, delta,
     alpha) = _validate(segment_var, residual_var, budget, cost_segment, cost_judgment, max_ratings, delta, alpha)
    if segment_var == 0:
        r_star = math.inf
    else:
        r_star = math.sqrt(cost_segment * residual_var / (cost_judgment * segment_var))

    def objective(r):
        return (segment_var + residual_var / r) * (cost_segment + r * cost_judgment)

    candidates = {min(max(1, c), max_ratings) for c in
                  ((max_ratings, max_ratings) if math.isinf(r_star) else (math.floor(r_star), math.ceil(r_star)))}
    neighbour = min(sorted(candidates), key=objective)
    r = np.arange(1, max_ratings + 1)
    per_unit = cost_segment + r * cost_judgment
    segments = np.floor(budget / 2 / per_unit).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = np.where(segments > 0, 2.0 * (segment_var + residual_var / r) / segments, np.inf)
    se = np.sqrt(variance)
    if delta is not None:
        z = stats.norm.isf(alpha / 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            power = np.where(segments > 0, stats.norm.sf(z - abs(delta) / se) + stats.norm.cdf(-z - abs(delta) / se),
                             np.nan)
    else:
        power = np.full(r.size, np.nan)
    finite = np.isfinite(variance)
    best = int(r[np.argmin(np.where(finite, variance, np.inf))]) if finite.any() else -1
    table = pd.DataFrame({"ratings": r, "segments": segments, "judgments": 2 * segments * r,
                          "cost": 2 * segments * per_unit, "se": se, "power": power,
                          "relative_variance": variance / variance[best - 1] if best > 0 else np.nan})
    return RatersPlan(r_star=float(r_star), neighbour=int(neighbour), best=best, table=table)

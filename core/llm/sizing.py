"""Sample sizes, the minimum detectable effect and the cheapest (questions × answers) design.

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..sizing import SampleSize, sample_size_search
from ..validation import check_int, check_real
from ._common import (
    _Design,
    _MAX_SAMPLES,
    _N_MAX,
    _check_n,
    _check_target,
    _closed_form,
    _t_tails,
    _validate,
    _variance_parts,
)

__all__ = [
    "BenchmarkPlan",
    "benchmark_sample_size",
    "benchmark_sample_sizes",
    "benchmark_mde",
    "benchmark_plan",
]


# ---------------------------------------------------------------------------
# sample size, MDE, cheapest design
# ---------------------------------------------------------------------------
def _clusters_needed(d: _Design, ks: np.ndarray, target_power: float, g_max: int) -> np.ndarray:
    """Fewest clusters (>= 2) reaching the target at each K, from Φ(J|Δ|/s − z) = target; -1 beyond g_max.

    Power is strictly increasing in n, so inverting the closed form is exact up to rounding, which
    the last step corrects by evaluating the power at G − 1 and G.
    """
    ks = np.asarray(ks, dtype=float)
    tau2, noise = _variance_parts(d, k=ks)
    unit = tau2 * (1.0 + (d.m - 1) * d.icc) + noise  # n·Var at whole clusters
    effect = d.j * abs(d.delta)
    if effect == 0.0:
        return np.full(ks.shape, -1, dtype=np.int64)
    # start: the normal-approximation size with t quantiles at the current G (two fixed-point rounds), then
    # whole steps on the t test's own power until G is the fewest reaching the target
    g = np.full(ks.shape, 2, dtype=np.int64)
    for _ in range(3):
        df = np.maximum(g - 1, 1)
        zsum = np.maximum(stats.t.isf(d.alpha / 2.0, df) + stats.t.ppf(target_power, df), 0.0)
        g = np.maximum(np.ceil(unit * zsum**2 / effect**2 / d.m - 1e-9), 2)
        g = np.minimum(g, g_max + 1).astype(np.int64)

    safe = np.where(unit > 0, unit, 1.0)

    def power(clusters):
        right = _t_tails(effect, np.sqrt(safe / (clusters * d.m)), clusters, d.alpha)[0]
        return np.where(unit > 0, right, 1.0)

    for _ in range(200):
        short = (power(g) < target_power) & (g <= g_max)
        g = np.where(short, g + 1, g)
        over = (g > 2) & (power(np.maximum(g - 1, 2)) >= target_power)
        g = np.where(over, g - 1, g)
        if not (short.any() or over.any()):
            break
    return np.where(g > g_max, -1, g)


def benchmark_sample_sizes(
    accuracy_a,
    accuracy_b,
    *,
    difficulty_sd=0.0,
    correlation=0.0,
    samples=1,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    alpha=0.05,
    target_power=0.8,
    n_max=_N_MAX,
) -> SampleSize:
    """Both sample-size answers of :func:`benchmark_sample_size` (``.first``, ``.conservative``), in questions.

    The search runs over the number of clusters G (>= 2) with
    :func:`core.sizing.sample_size_search` and returns G·m questions; ``-1``
    when ``n_max`` questions are not enough. The closed-form power is
    increasing in n, so the two answers coincide.
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, alpha)
    target_power = _check_target(target_power)
    n_max = check_int("n_max", n_max, low=2 * d.m, high=_N_MAX)
    if d.delta == 0:
        raise ValueError("`accuracy_b` must differ from `accuracy_a` to size a study (the gain is 0).")
    g_max = n_max // d.m
    guess = _clusters_needed(d, np.array([d.k]), target_power, _N_MAX)[0]
    guess = g_max if guess < 0 else guess

    def power_many(clusters):
        return _closed_form(np.asarray(clusters) * d.m, d)["power"]

    found = sample_size_search(power_many, target_power, guess=guess, n_max=g_max, low=2)
    scale = (lambda g: g * d.m if g > 0 else -1)
    return SampleSize(scale(found.first), scale(found.conservative))


def benchmark_sample_size(
    accuracy_a,
    accuracy_b,
    *,
    difficulty_sd=0.0,
    correlation=0.0,
    samples=1,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    alpha=0.05,
    target_power=0.8,
    conservative=False,
    n_max=_N_MAX,
) -> int:
    """Fewest questions (a whole number of clusters) whose power reaches ``target_power``.

    Parameters
    ----------
    accuracy_a, accuracy_b : float
        Baseline and new model's mean accuracy (must differ).
    difficulty_sd, correlation, samples, cluster_size, icc, judge_sensitivity, judge_specificity, alpha
        As in :func:`benchmark_power`.
    target_power : float, optional
        Power to reach, in (0, 1).
    conservative : bool, optional
        The smallest n from which power stays above the target (see
        :mod:`core.sizing`); identical to the first n here, because the
        closed-form power increases with n.
    n_max : int, optional
        Largest number of questions considered.

    Returns
    -------
    int
        n = G·m questions with G >= 2 clusters; ``-1`` if ``n_max`` is not enough.

    Raises
    ------
    ValueError
        On out-of-range arguments or equal accuracies.

    Notes
    -----
    Power ≈ Φ(J|Δ|√n/σ_1 − z_{1−α/2}) with σ_1² = J²·2σ²(1 − ρ)(1 + (m − 1)icc)
    + (w*_A + w*_B)/K (see :func:`benchmark_power`), so
    n ≈ σ_1²(z_{1−α/2} + z_{power})²/(JΔ)², rounded up to whole clusters
    (Miller 2024 gives the same formula for m = 1 without a judge); the
    search starts there with t quantiles on G − 1 degrees of freedom and
    settles on the exact power of the t test. Example of the variance term: uniform
    difficulties (σ² = 1/12 for both models) correlated ρ = 0.5 give
    2·(1/12)·(1 − 0.5) = 1/12 — the value Miller's stated assumptions imply.

    Examples
    --------
    >>> benchmark_sample_size(0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    2899
    >>> benchmark_sample_size(0.70, 0.73, difficulty_sd=0.25, correlation=0.6, samples=5)
    931
    >>> benchmark_sample_size(0.70, 0.73, difficulty_sd=0.25, correlation=0.6, samples=5,
    ...                       cluster_size=4, icc=0.3)
    1332
    """
    return benchmark_sample_sizes(
        accuracy_a, accuracy_b, difficulty_sd=difficulty_sd, correlation=correlation, samples=samples,
        cluster_size=cluster_size, icc=icc, judge_sensitivity=judge_sensitivity,
        judge_specificity=judge_specificity, alpha=alpha, target_power=target_power, n_max=n_max,
    ).pick(bool(conservative))


def _max_gain(mu_a: float, sd: float) -> float:
    """Largest Δ with μ_B = μ_A + Δ <= 1 and σ² <= μ_B(1 − μ_B)."""
    top = (1.0 + math.sqrt(max(1.0 - 4.0 * sd * sd, 0.0))) / 2.0
    return max(min(top, 1.0) - mu_a, 0.0)


def benchmark_mde(
    n_questions,
    accuracy_a,
    *,
    difficulty_sd=0.0,
    correlation=0.0,
    samples=1,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    alpha=0.05,
    target_power=0.8,
) -> float:
    """Smallest accuracy gain Δ = μ_B − μ_A > 0 detected with ``target_power``.

    Parameters
    ----------
    n_questions : int
        Number of questions.
    accuracy_a : float
        Baseline accuracy μ_A; the new model's accuracy is μ_A + Δ.
    difficulty_sd, correlation, samples, cluster_size, icc, judge_sensitivity, judge_specificity, alpha
        As in :func:`benchmark_power`.
    target_power : float, optional
        Power to reach, in (0, 1).

    Returns
    -------
    float
        The MDE on the true-accuracy scale (a fraction); ``nan`` if no
        feasible gain (μ_B <= 1 with σ² <= μ_B(1 − μ_B)) reaches the target.

    Notes
    -----
    w_B, and with it the variance, changes with Δ, so the power is evaluated on
    a grid of 256 gains up to the largest feasible one and the first crossing
    is refined with Brent's method.

    Examples
    --------
    >>> round(benchmark_mde(2000, 0.70, difficulty_sd=0.25, correlation=0.6), 4)
    0.036
    """
    d = _validate(accuracy_a, accuracy_a, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, alpha)
    n = _check_n(n_questions, d.m)
    target_power = _check_target(target_power)
    hi = _max_gain(d.mu_a, d.sd)
    if hi <= 0.0:
        return math.nan
    grid = np.linspace(hi / 256, hi, 256)
    powers = _closed_form(n, d, mu_b=d.mu_a + grid)["power"]
    reached = powers >= target_power
    if not reached.any():
        return math.nan
    first = int(np.argmax(reached))
    lo = grid[first - 1] if first > 0 else 1e-12

    def gap(delta):
        return float(_closed_form(n, d, mu_b=d.mu_a + delta)["power"]) - target_power

    if gap(lo) >= 0:
        return float(lo)
    return float(optimize.brentq(gap, lo, grid[first], xtol=1e-10))


@dataclass(frozen=True)
class BenchmarkPlan:
    """The cheapest design reaching the target power, and the cost at every K.

    Attributes
    ----------
    n_questions : int
        Questions of the cheapest design (a whole number of clusters); ``-1``
        when no K up to ``max_samples`` reaches the target within the limit.
    samples : int
        Answers per question and model, K (``-1`` when unreachable).
    cost : float
        n·(cost_question + 2·K·cost_sample): both models answer every question K times.
    power : float
        Power of that design.
    curve : pandas.DataFrame
        One row per K = 1 … max_samples: ``samples, n_questions, cost, power``
        (the fewest questions reaching the target at that K; ``n_questions``
        −1 and ``cost``/``power`` nan where unreachable).
    """

    n_questions: int
    samples: int
    cost: float
    power: float
    curve: pd.DataFrame = field(repr=False, compare=False)


def benchmark_plan(
    accuracy_a,
    accuracy_b,
    *,
    cost_question,
    cost_sample,
    difficulty_sd=0.0,
    correlation=0.0,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    alpha=0.05,
    target_power=0.8,
    max_samples=50,
    n_max=_N_MAX,
) -> BenchmarkPlan:
    """Cheapest (questions, answers per question) reaching ``target_power``.

    Parameters
    ----------
    accuracy_a, accuracy_b : float
        Baseline and new model's accuracy (must differ).
    cost_question : float
        Cost of adding one question to the benchmark (writing, vetting), >= 0.
    cost_sample : float
        Cost of one model answer (inference, and grading if any), >= 0. Not
        both costs may be 0.
    difficulty_sd, correlation, cluster_size, icc, judge_sensitivity, judge_specificity, alpha
        As in :func:`benchmark_power`.
    target_power : float, optional
        Power to reach, in (0, 1).
    max_samples : int, optional
        Largest K considered (1 … 1,000).
    n_max : int, optional
        Largest number of questions considered.

    Returns
    -------
    BenchmarkPlan
        ``n_questions``, ``samples``, ``cost``, ``power`` and the ``curve`` of
        cost against K (for the chart). Ties go to the smaller K.

    Notes
    -----
    At each K the fewest whole clusters follow from inverting
    Φ(J|Δ|√n/σ_1(K) − z) = target (see :func:`benchmark_sample_size`; power is
    increasing in n, so this is exact), and the design costs
    n·(cost_question + 2K·cost_sample). More answers only shrink the sampling
    part (w*_A + w*_B)/K of σ_1², never the difficulty and clustering parts,
    so the cost is U-shaped in K when answers cost anything (Miller 2024 on
    resampling). The tests compare the result with a brute-force search over
    integer K and n.

    Examples
    --------
    >>> plan = benchmark_plan(0.70, 0.73, difficulty_sd=0.25, correlation=0.6,
    ...                       cost_question=1.0, cost_sample=0.05)
    >>> plan.n_questions, plan.samples, round(plan.cost, 1)
    (746, 8, 1342.8)
    >>> plan.curve.iloc[[0, 4, 7]].round(1).values.tolist()  # K = 1, 5, 8
    [[1.0, 2899.0, 3188.9, 0.8], [5.0, 931.0, 1396.5, 0.8], [8.0, 746.0, 1342.8, 0.8]]
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, 1, cluster_size, icc,
                  judge_sensitivity, judge_specificity, alpha)
    cost_question = check_real("cost_question", cost_question, low=0.0)
    cost_sample = check_real("cost_sample", cost_sample, low=0.0)
    if cost_question == 0.0 and cost_sample == 0.0:
        raise ValueError("`cost_question` and `cost_sample` cannot both be 0: every design would be free.")
    target_power = _check_target(target_power)
    max_samples = check_int("max_samples", max_samples, low=1, high=_MAX_SAMPLES)
    n_max = check_int("n_max", n_max, low=2 * d.m, high=_N_MAX)
    if d.delta == 0:
        raise ValueError("`accuracy_b` must differ from `accuracy_a` to plan a study (the gain is 0).")
    ks = np.arange(1, max_samples + 1)
    clusters = _clusters_needed(d, ks, target_power, n_max // d.m)
    ok = clusters > 0
    n = np.where(ok, clusters * d.m, -1)
    cost = np.where(ok, n * (cost_question + 2.0 * ks * cost_sample), np.nan)
    power = np.full(ks.shape, np.nan)
    if ok.any():
        power[ok] = _closed_form(n[ok], d, k=ks[ok])["power"]
    curve = pd.DataFrame({"samples": ks, "n_questions": n, "cost": cost, "power": power})
    if not ok.any():
        return BenchmarkPlan(-1, -1, math.nan, math.nan, curve)
    # Ties go to the smaller K: costs equal in exact arithmetic can differ in the last bit (33 · 0.6 against
    # 11 · 1.8), so "equal" means within a relative 1e-9.
    lowest = float(np.nanmin(cost))
    best = int(np.flatnonzero(cost <= lowest + 1e-9 * abs(lowest))[0])
    return BenchmarkPlan(int(n[best]), int(ks[best]), float(cost[best]), float(power[best]), curve)



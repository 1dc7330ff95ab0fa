"""Curves for the LLM page: power vs questions, the variance budget, judge error.

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..validation import check_int
from ._common import _MAX_SAMPLES, _check_n, _closed_form, _validate, _variance_parts

__all__ = [
    "BUDGET_COMPONENTS",
    "power_curve",
    "variance_budget",
    "judge_curve",
]


# ---------------------------------------------------------------------------
# curves for the page
# ---------------------------------------------------------------------------
def _check_ns(ns, m: int) -> np.ndarray:
    values = [_check_n(v, m) for v in np.atleast_1d(ns).tolist()]
    return np.asarray(values, dtype=np.int64)


def power_curve(
    ns,
    accuracy_a,
    accuracy_b,
    *,
    samples_list=(1, 2, 5, 10),
    difficulty_sd=0.0,
    correlation=0.0,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    alpha=0.05,
) -> pd.DataFrame:
    """Closed-form power, Type-S and Type-M against the number of questions, one line per K.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``samples, n_questions, power, type_s, type_m, rejection_rate``,
        sorted by K then n.

    Examples
    --------
    >>> c = power_curve([500, 1000], 0.70, 0.73, samples_list=(1, 5), difficulty_sd=0.25, correlation=0.6)
    >>> c[["samples", "n_questions"]].values.tolist()
    [[1, 500], [1, 1000], [5, 500], [5, 1000]]
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, 1, cluster_size, icc,
                  judge_sensitivity, judge_specificity, alpha)
    ns = _check_ns(ns, d.m)
    ks = np.asarray([check_int("samples", k, low=1, high=_MAX_SAMPLES) for k in np.atleast_1d(samples_list)],
                    dtype=np.int64)
    kk, nn = np.meshgrid(ks, ns, indexing="ij")
    out = _closed_form(nn.ravel(), d, k=kk.ravel())
    return pd.DataFrame({"samples": kk.ravel(), "n_questions": nn.ravel(), "power": out["power"],
                         "type_s": out["type_s"], "type_m": out["type_m"],
                         "rejection_rate": out["rejection_rate"]})


#: Components of :func:`variance_budget`, bottom to top of the stacked bar.
BUDGET_COMPONENTS = ("question difficulty", "clustering", "sampling noise")


def variance_budget(
    accuracy_a,
    accuracy_b,
    *,
    difficulty_sd=0.0,
    correlation=0.0,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    max_samples=20,
) -> pd.DataFrame:
    """Where the variance of the mean difference comes from, for K = 1 … ``max_samples``.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``samples, component, variance, share, total``. ``variance`` is
        the component's part of n·Var(d̄) on the corrected (true-accuracy)
        scale: question difficulty 2σ²(1 − ρ), clustering 2σ²(1 − ρ)(m − 1)·icc,
        sampling noise (w*_A + w*_B)/(K·J²) (judge error inflates it). Only the
        last shrinks with K: once it is a small share of ``total`` more answers
        stop helping. ``SE(d̄) = √(total/n)``.

    Examples
    --------
    Uniform difficulties (σ² = 1/12) correlated 0.5: the difficulty term is 1/12.

    >>> import math
    >>> b = variance_budget(0.5, 0.5, difficulty_sd=math.sqrt(1 / 12), correlation=0.5, max_samples=2)
    >>> float(b.variance.iloc[0] * 12), float(b.variance.iloc[2] * 6)
    (1.0, 2.0)
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, 1, cluster_size, icc,
                  judge_sensitivity, judge_specificity, 0.05)
    max_samples = check_int("max_samples", max_samples, low=1, high=_MAX_SAMPLES)
    ks = np.arange(1, max_samples + 1)
    tau2, noise = _variance_parts(d, k=ks)
    j2 = d.j * d.j
    difficulty = np.full(ks.shape, tau2 / j2)
    clustering = difficulty * (d.m - 1) * d.icc
    sampling = noise / j2
    total = difficulty + clustering + sampling
    parts = np.stack([difficulty, clustering, sampling])
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(total > 0, parts / total, np.nan)
    return pd.DataFrame({
        "samples": np.tile(ks, 3),
        "component": np.repeat(BUDGET_COMPONENTS, len(ks)),
        "variance": parts.ravel(),
        "share": share.ravel(),
        "total": np.tile(total, 3),
    }).sort_values(["samples"], kind="stable").reset_index(drop=True)


def judge_curve(
    ns,
    accuracy_a,
    accuracy_b,
    *,
    judge_sensitivity,
    judge_specificity,
    difficulty_sd=0.0,
    correlation=0.0,
    samples=1,
    cluster_size=1,
    icc=0.0,
    alpha=0.05,
) -> pd.DataFrame:
    """Power against the number of questions with exact grading and with the LLM judge.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``grading`` (``"exact"`` or ``"judge"``), ``n_questions, power,
        type_s, type_m, rejection_rate``.

    Examples
    --------
    >>> c = judge_curve([2000], 0.70, 0.73, judge_sensitivity=0.9, judge_specificity=0.8,
    ...                 difficulty_sd=0.25, correlation=0.6)
    >>> c.round(3)[["grading", "power"]].values.tolist()
    [['exact', 0.643], ['judge', 0.329]]
    """
    frames = []
    for grading, se, sp in (("exact", 1.0, 1.0), ("judge", judge_sensitivity, judge_specificity)):
        d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc, se, sp, alpha)
        n = _check_ns(ns, d.m)
        out = _closed_form(n, d)
        frames.append(pd.DataFrame({"grading": grading, "n_questions": n, "power": out["power"],
                                    "type_s": out["type_s"], "type_m": out["type_m"],
                                    "rejection_rate": out["rejection_rate"]}))
    return pd.concat(frames, ignore_index=True)



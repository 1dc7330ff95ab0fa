"""Power of LLM benchmark comparisons: resampled answers, clustered questions, LLM judges.

Two language models answer the same benchmark: **A** (the baseline) and **B**
(the new model). This module plans such an evaluation — power, Type-M and
Type-S error, minimum detectable effect, number of questions, the cheapest
number of answers per question — and estimates the design's parameters from
per-answer logs (a tidy CSV/JSONL, or lm-evaluation-harness ``--log_samples``
files).

The model
---------
* **Questions.** Question *i* has latent probabilities ``p_Ai`` and ``p_Bi``
  that A and B answer it correctly. Over questions they have means
  ``accuracy_a`` = μ_A and ``accuracy_b`` = μ_B, the same standard deviation
  ``difficulty_sd`` = σ, and correlation ``correlation`` = ρ. Δ = μ_B − μ_A
  is the true accuracy gain.
* **Answers.** Each model answers each question ``samples`` = K times
  (temperature > 0); the answers are independent Bernoulli(p) draws and a
  question's score is the mean of its K answers.
* **Clusters.** Questions come in clusters of ``cluster_size`` = m (several
  questions per passage, document or template). The question-level
  differences ``p_Bi − p_Ai`` of two questions in the same cluster have
  correlation ``icc``; sampling noise is independent across questions and does
  not cluster. ``n_questions`` need not be a multiple of m: the last cluster
  is then smaller (at least 2 clusters are required).
* **Judge.** When an LLM judge with sensitivity Se and specificity Sp grades
  each answer, a right answer is graded right with probability Se and a wrong
  one graded right with probability 1 − Sp. A question's observed probability
  is ``p* = (1 − Sp) + J·p`` with Youden's ``J = Se + Sp − 1``, so observed
  means are ``Se·μ + (1 − Sp)(1 − μ)``, the spread is ``J·σ`` and every
  difference shrinks by J. Differences are reported on the Rogan–Gladen
  corrected scale (observed / J), which is the true-accuracy scale.
* **Test.** The two-sided t test of the mean paired difference of question
  scores, with the cluster-robust (CR1) standard error and G − 1 degrees of
  freedom for G clusters — the plain paired t test when m = 1. With few
  clusters the z test over-rejects (8% instead of 5% at G = 10 in this model's
  simulation); t(G − 1) is the usual small-G correction (Cameron & Miller
  2015, §VI) and holds the level within simulation error down to G = 5 when
  clusters hold many questions. The closed form assumes normal cluster totals:
  with G ≤ 20 and few questions per cluster, right/wrong answers make the
  test conservative (a false-positive rate near 1% at five single questions)
  and power depends on the shape of the difficulty distribution by 0.01–0.02
  (an independent review's simulations); ``method="simulate"`` shows it.

Variance of the mean difference (derived in :func:`benchmark_power`)::

    Var(D̄) = [2σ²(1 − ρ)(1 + (m − 1)·icc) + (w_A + w_B)/K] / n,
    w = μ(1 − μ) − σ²       (the mean within-question Bernoulli variance E[p(1 − p)])

Power counts significant results in the direction of the true effect; Type-S
is P(wrong sign | significant) and Type-M is E[|estimate| | significant]/|Δ|
(Card et al. 2020, Figure 2 and appendix B). At Δ = 0, ``power`` is the
rejection rate (the false-positive rate).

References
----------
Miller, E. (2024). "Adding Error Bars to Evals: A Statistical Approach to
Language Model Evaluations." arXiv:2411.00640 — the super-population view of
questions, the decomposition of a score's variance into between-question
variance and within-question (conditional) variance, resampling K answers per
question, clustered standard errors, paired differences and power analysis.
(Its worked sample-size example uses a paired variance of 1/9; its stated
assumptions — variance 1/12 for each model, correlation 0.5 — give
2·(1/12)·(1 − 0.5) = 1/12. The formulas here are derived, not copied.)

Card, D., Henderson, P., Khandelwal, U., Jia, R., Mahowald, K. & Jurafsky, D.
(2020). "With Little Power Comes Great Responsibility." EMNLP — power,
Type-M and Type-S error.

Rogan, W. J. & Gladen, B. (1978). "Estimating prevalence from the results of
a screening test." American Journal of Epidemiology 107:71–76.

Cameron, A. C. & Miller, D. L. (2015). "A Practitioner's Guide to
Cluster-Robust Inference." Journal of Human Resources 50:317–372 — the CR1
estimator and its small-number-of-clusters caveat.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache, partial
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize, signal, stats

from . import uploads
from .results import PowerResult
from .sizing import SampleSize, sample_size_search
from .validation import (
    check_alpha,
    check_choice,
    check_int,
    check_probability,
    check_real,
)

__all__ = [
    "BenchmarkDesign",
    "METHODS",
    "MAX_SIMULATED_QUESTIONS",
    "FILES_PER_MODEL",
    "BUDGET_COMPONENTS",
    "SAMPLE_DIR",
    "BenchmarkFit",
    "BenchmarkPlan",
    "HarnessOptions",
    "benchmark_power",
    "benchmark_sample_size",
    "benchmark_sample_sizes",
    "benchmark_mde",
    "benchmark_plan",
    "power_curve",
    "variance_budget",
    "judge_curve",
    "simulate_benchmark_log",
    "fit_benchmark",
    "read_benchmark_log",
    "read_harness_samples",
    "harness_options",
    "sample_log",
    "sample_harness_files",
    "benchmark_assurance",
    "benchmark_noninferiority_power",
    "benchmark_noninferiority_sample_size",
    "task_table",
]

#: Engines of :func:`benchmark_power`.
METHODS = ("analytic", "simulate")
#: How :func:`read_harness_samples` treats several files of one model.
FILES_PER_MODEL = ("runs", "tasks")
#: The shipped synthetic worked example (see its README.txt).
SAMPLE_DIR = Path(__file__).resolve().parent / "data" / "llm_sample"

_N_MAX = 10_000_000
_MAX_SAMPLES = 1_000
# answers drawn per model per simulated chunk: small enough to stay in cache
_SIM_BLOCK = 200_000
#: Most simulated questions per call (replicates × questions, each answered K times by both models): a few seconds.
MAX_SIMULATED_QUESTIONS = 10_000_000

# latent (probit-scale) grid on which the Beta quantile functions are tabulated
_Z_LO, _Z_HI, _Z_N = -8.5, 8.5, 8193
_Z_GRID = np.linspace(_Z_LO, _Z_HI, _Z_N)
_Z_STEP = (_Z_HI - _Z_LO) / (_Z_N - 1)
_Z_WEIGHTS = np.exp(-0.5 * _Z_GRID**2)
_Z_WEIGHTS[[0, -1]] *= 0.5
_Z_WEIGHTS /= _Z_WEIGHTS.sum()  # trapezoid rule for E[f(Z)], Z ~ N(0, 1)


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BenchmarkDesign:
    """A two-model benchmark comparison, everything but its size: the page builds it once and every call uses it.

    The fields are the keyword arguments of :func:`benchmark_power` (see there for their meaning); they are
    validated once, here, and the methods are the module's functions for this design. Frozen and compared by
    value, so it is a cache key (``st.cache_data`` hashes it by its fields).

    Examples
    --------
    >>> d = BenchmarkDesign(0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    >>> round(d.power(2000).power, 3), d.sample_size()
    (0.643, 2899)
    >>> d.power(2000) == benchmark_power(2000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    True
    """

    accuracy_a: float
    accuracy_b: float
    difficulty_sd: float = 0.0
    correlation: float = 0.0
    samples: int = 1
    cluster_size: int = 1
    icc: float = 0.0
    judge_sensitivity: float = 1.0
    judge_specificity: float = 1.0
    alpha: float = 0.05

    def __post_init__(self):
        set_ = partial(object.__setattr__, self)
        set_("accuracy_a", check_probability("accuracy_a", self.accuracy_a))
        set_("accuracy_b", check_probability("accuracy_b", self.accuracy_b))
        set_("difficulty_sd", check_real("difficulty_sd", self.difficulty_sd, low=0.0, high=0.5))
        set_("correlation", check_real("correlation", self.correlation, low=-1.0, high=1.0))
        set_("samples", check_int("samples", self.samples, low=1, high=_MAX_SAMPLES))
        set_("cluster_size", check_int("cluster_size", self.cluster_size, low=1, high=_N_MAX // 2))
        set_("icc", check_probability("icc", self.icc))
        set_("judge_sensitivity", check_probability("judge_sensitivity", self.judge_sensitivity))
        set_("judge_specificity", check_probability("judge_specificity", self.judge_specificity))
        set_("alpha", check_alpha(self.alpha))
        mu_a, mu_b, sd = self.accuracy_a, self.accuracy_b, self.difficulty_sd
        limit = min(mu_a * (1.0 - mu_a), mu_b * (1.0 - mu_b))
        if sd * sd > limit + 1e-12:
            raise ValueError(
                "`difficulty_sd` must satisfy difficulty_sd² <= accuracy × (1 − accuracy) for both models "
                f"(so difficulty_sd <= {math.sqrt(limit):.4g} here: no spread of probabilities in [0, 1] with "
                f"these means is wider), got {sd:g}."
            )
        if self.judge_sensitivity + self.judge_specificity <= 1.0:
            raise ValueError(
                "`judge_sensitivity` + `judge_specificity` must exceed 1 (Youden's J = Se + Sp − 1 > 0), "
                f"got {self.judge_sensitivity:g} + {self.judge_specificity:g}: a judge no better than chance "
                "carries no information about which answers are right, so no benchmark size can detect a difference."
            )

    # the engines' short names (the module notes' symbols)
    mu_a = property(lambda self: self.accuracy_a)
    mu_b = property(lambda self: self.accuracy_b)
    sd = property(lambda self: self.difficulty_sd)
    rho = property(lambda self: self.correlation)
    k = property(lambda self: self.samples)
    m = property(lambda self: self.cluster_size)
    se = property(lambda self: self.judge_sensitivity)
    sp = property(lambda self: self.judge_specificity)

    @property
    def j(self) -> float:
        """Youden's J = Se + Sp − 1: the factor by which the judge shrinks every difference."""
        return self.se + self.sp - 1.0

    @property
    def delta(self) -> float:
        """The true accuracy gain Δ = μ_B − μ_A."""
        return self.mu_b - self.mu_a

    def kwargs(self, *drop: str) -> dict:
        """The fields as keyword arguments of the module's functions, without those named in ``drop``."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in drop}

    def with_(self, **changes) -> BenchmarkDesign:
        """The same design with some fields changed (validated again)."""
        return replace(self, **changes)

    # the module's functions for this design
    def power(self, n_questions, *, method="analytic", n_sims=2000, seed=None, progress=None) -> PowerResult:
        """:func:`benchmark_power` at ``n_questions``."""
        return benchmark_power(n_questions, **self.kwargs(), method=method, n_sims=n_sims, seed=seed,
                               progress=progress)

    def sample_sizes(self, *, target_power=0.8, n_max=_N_MAX) -> SampleSize:
        """:func:`benchmark_sample_sizes`."""
        return benchmark_sample_sizes(**self.kwargs(), target_power=target_power, n_max=n_max)

    def sample_size(self, *, target_power=0.8, conservative=False, n_max=_N_MAX) -> int:
        """:func:`benchmark_sample_size`."""
        return self.sample_sizes(target_power=target_power, n_max=n_max).pick(conservative)

    def mde(self, n_questions, *, target_power=0.8) -> float:
        """:func:`benchmark_mde` from this design's baseline (its ``accuracy_b`` plays no part)."""
        return benchmark_mde(n_questions, **self.kwargs("accuracy_b"), target_power=target_power)

    def plan(self, *, cost_question, cost_sample, target_power=0.8, max_samples=50) -> BenchmarkPlan:
        """:func:`benchmark_plan` (every K up to ``max_samples``; this design's ``samples`` plays no part)."""
        return benchmark_plan(**self.kwargs("samples"), cost_question=cost_question, cost_sample=cost_sample,
                              target_power=target_power, max_samples=max_samples)

    def power_curve(self, ns, *, samples_list=(1, 2, 5, 10)) -> pd.DataFrame:
        """:func:`power_curve` over ``ns`` for each K in ``samples_list``."""
        return power_curve(ns, **self.kwargs("samples"), samples_list=samples_list)

    def variance_budget(self, *, max_samples=20) -> pd.DataFrame:
        """:func:`variance_budget` for K = 1 … ``max_samples``."""
        return variance_budget(**self.kwargs("samples", "alpha"), max_samples=max_samples)

    def judge_curve(self, ns) -> pd.DataFrame:
        """:func:`judge_curve`: this design's judge against exact grading."""
        return judge_curve(ns, **self.kwargs())

    def assurance(self, n_questions, delta_mean, delta_sd):
        """:func:`benchmark_assurance` with a normal prior on the gain (its ``accuracy_b`` plays no part)."""
        return benchmark_assurance(n_questions, delta_mean=delta_mean, delta_sd=delta_sd, **self.kwargs("accuracy_b"))

    def noninferiority_power(self, n_questions, margin, *, alpha=0.025) -> PowerResult:
        """:func:`benchmark_noninferiority_power` (one-sided ``alpha``, not the design's two-sided one)."""
        return benchmark_noninferiority_power(n_questions, margin=margin, alpha=alpha, **self.kwargs("alpha"))


#: The engines' name for the design (kept for the code written against it).
_Design = BenchmarkDesign


def _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
              judge_sensitivity, judge_specificity, alpha) -> BenchmarkDesign:
    return BenchmarkDesign(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                           judge_sensitivity, judge_specificity, alpha)


def _check_n(n_questions, m: int, name: str = "n_questions") -> int:
    n = check_int(name, n_questions, low=2, high=_N_MAX)
    if -(-n // m) < 2:
        raise ValueError(f"`{name}` must give at least 2 clusters of `cluster_size` = {m:,} questions "
                         f"(so at least {m + 1:,}), got {n:,}.")
    return n


def _check_target(target_power) -> float:
    return check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)


# ---------------------------------------------------------------------------
# closed form (vectorized)
# ---------------------------------------------------------------------------
def _variance_parts(d: _Design, *, mu_b=None, k=None):
    """Observed-scale per-question parts: (difficulty term J²·2σ²(1 − ρ), sampling noise (w*_A + w*_B)/K)."""
    mu_b = d.mu_b if mu_b is None else np.asarray(mu_b, dtype=float)
    k = d.k if k is None else np.asarray(k, dtype=float)
    j, sd2 = d.j, d.sd * d.sd
    tau2 = j * j * 2.0 * sd2 * (1.0 - d.rho)
    noise = 0.0
    for mu in (d.mu_a, mu_b):
        star = (1.0 - d.sp) + j * mu
        noise = noise + np.maximum(star * (1.0 - star) - j * j * sd2, 0.0)
    return tau2, noise / k


def _design_effect(n, m: int, icc: float):
    """1 + icc·Σ_g m_g(m_g − 1)/n for ⌊n/m⌋ clusters of m and one of n mod m (1 + (m − 1)icc when m | n)."""
    n = np.asarray(n, dtype=np.int64)
    full, rest = n // m, n % m
    pairs = full * m * (m - 1) + rest * (rest - 1)
    return 1.0 + icc * pairs / n


def _tails(mu, s, z):
    """Tails of N(mu, s²) beyond ±z·s (mu >= 0): P(right), P(wrong), E[|X|; right], E[|X|; wrong]."""
    mu, s = np.broadcast_arrays(np.asarray(mu, dtype=float), np.asarray(s, dtype=float))
    pos = s > 0
    ss = np.where(pos, s, 1.0)
    a = z - mu / ss
    b = -z - mu / ss
    sf_a, cdf_b = stats.norm.sf(a), stats.norm.cdf(b)
    exact = (mu > 0).astype(float)  # s = 0: the estimate equals its mean
    right = np.where(pos, sf_a, exact)
    wrong = np.where(pos, cdf_b, 0.0)
    e_right = np.where(pos, mu * sf_a + ss * stats.norm.pdf(a), mu * exact)
    e_wrong = np.where(pos, ss * stats.norm.pdf(b) - mu * cdf_b, 0.0)
    return right, wrong, e_right, e_wrong


_SE_RULES = {few: np.polynomial.legendre.leggauss(128 if few else 40) for few in (True, False)}
_FEW_DF = 50


def _se_nodes(df: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Quadrature over the estimated standard error: nodes f = √(V/ν), V ~ χ²_ν, and weights, one row per ν.

    Gauss–Legendre with the density of the integration variable as weight, a smooth bell for every ν, so the rule
    converges fast. Below ν = 50: 128 nodes in f itself between the χ²_ν quantiles 1e-16 and 1 − 1e-16 (half-normal
    at ν = 1). From ν = 50: 40 nodes in log V over Wilson–Hilferty's ±8.3 SD (the same probabilities to a few per
    cent; no gamma inversions for thousands of ν). Checked against scipy's t and noncentral t within 1e-9. All ν
    of one call must lie on the same side of 50.
    """
    df = np.asarray(df, dtype=float)
    few = bool(df.size) and bool(df[0] < _FEW_DF)
    nodes, weights = _SE_RULES[few]
    if few:
        lo = np.sqrt(stats.chi2.ppf(1e-16, df) / df)
        hi = np.sqrt(stats.chi2.isf(1e-16, df) / df)
        f = lo[:, None] + (hi - lo)[:, None] * (nodes[None, :] + 1.0) / 2.0
        v = df[:, None] * f * f
        w = weights[None, :] * np.exp(stats.chi2.logpdf(v, df[:, None]) + np.log(2.0 * df[:, None] * f))
        return f, w / w.sum(axis=1, keepdims=True)
    c = 2.0 / (9.0 * df)
    lo = 3.0 * np.log(1.0 - c - 8.3 * np.sqrt(c))
    hi = 3.0 * np.log(1.0 - c + 8.3 * np.sqrt(c))
    x = lo[:, None] + (hi - lo)[:, None] * (nodes[None, :] + 1.0) / 2.0
    v = df[:, None] * np.exp(x)
    w = weights[None, :] * np.exp(stats.chi2.logpdf(v, df[:, None]) + np.log(v))
    return np.exp(x / 2.0), w / w.sum(axis=1, keepdims=True)


def _clusters(n, m: int) -> np.ndarray:
    """G = ⌈n/m⌉ clusters (the last one may be smaller)."""
    n = np.asarray(n, dtype=np.int64)
    return -(-n // m)


def _t_tails(mu, s, clusters, alpha):
    """:func:`_tails` of the t test: |d̄| >= t_{1−α/2, G−1} · SE with SE² ~ s² χ²_{G−1}/(G−1) independent of d̄.

    Normal theory for the G cluster totals (the CR1 z statistic with equal clusters is the one-sample t statistic of
    the totals); the tails and partial expectations are averaged over the SE's distribution (:func:`_se_nodes`).
    """
    mu, s, clusters = np.broadcast_arrays(np.asarray(mu, dtype=float), np.asarray(s, dtype=float),
                                          np.asarray(clusters, dtype=np.int64))
    shape = mu.shape
    mu, s, clusters = mu.ravel(), s.ravel(), clusters.ravel()
    out = np.empty((4, mu.size))
    still = s <= 0  # no variance: the estimate is its mean, significant whenever it is not 0
    if still.any():
        out[:, still] = _tails(mu[still], s[still], 1.0)
    for group in (~still & (clusters - 1 < _FEW_DF), ~still & (clusters - 1 >= _FEW_DF)):
        if not group.any():
            continue
        dfs, index = np.unique(clusters[group] - 1, return_inverse=True)
        f, w = _se_nodes(dfs)
        z = stats.t.isf(alpha / 2.0, dfs)[:, None] * f  # (distinct df, nodes): critical values in units of s
        parts = _tails(mu[group, None], s[group, None], z[index])
        out[:, group] = [(part * w[index]).sum(axis=1) for part in parts]
    out[:2] = np.clip(out[:2], 0.0, 1.0)
    return tuple(part.reshape(shape) for part in out)


def _closed_form(n, d: _Design, *, mu_b=None, k=None) -> dict[str, np.ndarray]:
    """Power, Type-S, Type-M, rejection rate and signed mean of significant estimates, vectorized."""
    mu_b_arr = d.mu_b if mu_b is None else np.asarray(mu_b, dtype=float)
    tau2, noise = _variance_parts(d, mu_b=mu_b, k=k)
    n = np.asarray(n)
    s = np.sqrt((tau2 * _design_effect(n, d.m, d.icc) + noise) / n)
    delta = np.asarray(mu_b_arr - d.mu_a, dtype=float)
    effect = d.j * np.abs(delta)
    right, wrong, e_right, e_wrong = _t_tails(effect, s, _clusters(n, d.m), d.alpha)
    rejection = right + wrong
    null = delta == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        type_s = np.where(null | (rejection <= 0), np.nan, wrong / rejection)
        type_m = np.where(null | (rejection <= 0), np.nan, (e_right + e_wrong) / rejection / effect)
        mean_sig = np.where(rejection <= 0, np.nan,
                            np.sign(delta) * (e_right - e_wrong) / np.where(rejection > 0, rejection, 1.0) / d.j)
    return {
        "power": np.where(null, rejection, right),
        "type_s": type_s,
        "type_m": type_m,
        "rejection_rate": rejection,
        "mean_significant": np.where(null & (rejection > 0), 0.0, mean_sig),
        "se": s / d.j,
    }


def _analytic_result(n: int, d: _Design) -> PowerResult:
    out = {key: float(value) for key, value in _closed_form(n, d).items()}
    return PowerResult(power=out["power"], type_s=out["type_s"], type_m=out["type_m"],
                       rejection_rate=out["rejection_rate"], method="analytic",
                       mean_significant=out["mean_significant"])


# ---------------------------------------------------------------------------
# simulation: Beta difficulties through a calibrated Gaussian copula
# ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _margin(mu: float, sd: float) -> np.ndarray:
    """Quantile function z ↦ F⁻¹(Φ(z)) of the difficulty distribution on the latent grid.

    Beta with mean ``mu`` and standard deviation ``sd`` (shape a + b = μ(1 − μ)/σ² − 1);
    a point mass when σ = 0 and the two-point limit {0, 1} when σ² = μ(1 − μ).
    """
    if sd == 0.0 or mu in (0.0, 1.0):
        table = np.full(_Z_N, mu)
    elif sd * sd >= mu * (1.0 - mu) * (1.0 - 1e-9):
        table = (_Z_GRID > stats.norm.isf(mu)).astype(float)
    else:
        nu = mu * (1.0 - mu) / (sd * sd) - 1.0
        a, b = mu * nu, (1.0 - mu) * nu
        lower = stats.beta.ppf(stats.norm.cdf(_Z_GRID), a, b)
        upper = stats.beta.isf(stats.norm.sf(_Z_GRID), a, b)
        table = np.clip(np.nan_to_num(np.where(_Z_GRID > 0, upper, lower), nan=mu), 0.0, 1.0)
    table.setflags(write=False)
    return table


def _lookup(z, table: np.ndarray) -> np.ndarray:
    """Linear interpolation of a latent-grid table at ``z`` (uniform grid: no search; keeps float32)."""
    z = np.asarray(z)
    dtype = np.float32 if z.dtype == np.float32 else np.float64
    x = (z - dtype(_Z_LO)) * dtype(1.0 / _Z_STEP)
    np.clip(x, 0.0, _Z_N - 1.001, out=x)
    i = x.astype(np.intp)
    x -= i
    lo = table[i]
    return lo + x * (table[i + 1] - lo)


def _smooth(table: np.ndarray, s: float) -> np.ndarray:
    """z ↦ E[g(z + s·Z)] on the latent grid: the table convolved with a N(0, s²) kernel (FFT, edges extended)."""
    width = s / _Z_STEP
    if width < 1.0:  # narrower than the grid: smoothing changes nothing measurable
        return table
    half = math.ceil(9.0 * width)
    kernel = np.exp(-0.5 * (np.arange(-half, half + 1) / width) ** 2)
    padded = np.concatenate([np.full(half, table[0]), table, np.full(half, table[-1])])
    return signal.fftconvolve(padded, kernel / kernel.sum(), mode="valid")


def _latent_cov(ta: np.ndarray, tb: np.ndarray, r: float) -> float:
    """Cov(g_A(Z₁), g_B(Z₂)) for standard normals with correlation r.

    E[g_A(Z₁)g_B(Z₂)] = E[g_A(Z₁)·m(rZ₁)] with m = g_B smoothed by N(0, 1 − r²); the outer integral is
    a trapezoid rule on the 0.002-spaced latent grid, which resolves even near-step (U-shaped Beta)
    quantile functions.
    """
    m = _smooth(tb, math.sqrt(max(1.0 - r * r, 0.0)))
    inner = _lookup(r * _Z_GRID, m)
    return float((_Z_WEIGHTS * ta) @ inner - (_Z_WEIGHTS @ ta) * (_Z_WEIGHTS @ tb))


@lru_cache(maxsize=256)
def _calibrate(mu_a: float, mu_b: float, sd: float, rho: float, icc: float) -> tuple[float, float]:
    """Latent parameters (r, κ) whose Beta margins have Pearson correlation ρ and difference ICC icc.

    Latent normals: Z_Ai = √(1−κ)·e_Ai + √κ·c_Ag (same for B), Corr(e_A, e_B) = Corr(c_A, c_B) = r.
    Cov(p_Ai, p_Bi) = h_AB(r); Cov(D_i, D_j) = h_AA(κ) + h_BB(κ) − 2h_AB(κr) for i ≠ j in cluster g,
    with h_XY(t) = Cov(g_X(Z₁), g_Y(Z₂)) at latent correlation t. Both are increasing, so each
    equation has one root (Brent's method).
    """
    if sd == 0.0:
        return 0.0, 0.0
    ta, tb = _margin(mu_a, sd), _margin(mu_b, sd)
    target = rho * sd * sd
    low, high = _latent_cov(ta, tb, -1.0), _latent_cov(ta, tb, 1.0)
    tol = 1e-7 * sd * sd
    if target < low - tol or target > high + tol:
        raise ValueError(
            f"`correlation` = {rho:g} cannot be reached by Beta-distributed question difficulties with "
            f"these accuracies and `difficulty_sd` (attainable: {math.ceil(low / (sd * sd) * 1000) / 1000:.3f} to "
            f"{math.floor(high / (sd * sd) * 1000) / 1000:.3f}); "
            "use method=\"analytic\", which needs only the moments."
        )
    if target >= high - tol:
        r = 1.0
    elif target <= low + tol:
        r = -1.0
    else:
        r = optimize.brentq(lambda t: _latent_cov(ta, tb, t) - target, -1.0, 1.0, xtol=1e-10)
    var_d = 2.0 * sd * sd * (1.0 - rho)
    if icc == 0.0 or var_d <= 1e-12:
        return float(r), 0.0

    def gap(kappa):
        return (_latent_cov(ta, ta, kappa) + _latent_cov(tb, tb, kappa) - 2.0 * _latent_cov(ta, tb, kappa * r)
                - icc * var_d)

    if gap(1.0) <= 0.0:
        return float(r), 1.0
    return float(r), float(optimize.brentq(gap, 0.0, 1.0, xtol=1e-10))


def _draw_probabilities(rng, reps: int, n: int, m: int, d: _Design, r: float, kappa: float):
    """Latent probabilities p_A, p_B (float32, shape (reps, n)); questions i·m … i·m + m − 1 form cluster i."""
    ta, tb = _margin32(d.mu_a, d.sd), _margin32(d.mu_b, d.sd)
    r32, s32 = np.float32(r), np.float32(math.sqrt(max(1.0 - r * r, 0.0)))
    za = rng.standard_normal((reps, n), dtype=np.float32)
    zb = rng.standard_normal((reps, n), dtype=np.float32)
    zb *= s32
    zb += r32 * za
    if kappa > 0.0 and m > 1:
        g = -(-n // m)
        ca = rng.standard_normal((reps, g), dtype=np.float32)
        cb = r32 * ca + s32 * rng.standard_normal((reps, g), dtype=np.float32)
        idx = np.arange(n) // m
        keep, share = np.float32(math.sqrt(1.0 - kappa)), np.float32(math.sqrt(kappa))
        za = keep * za + share * ca[:, idx]
        zb = keep * zb + share * cb[:, idx]
    return _lookup(za, ta), _lookup(zb, tb)


@lru_cache(maxsize=64)
def _margin32(mu: float, sd: float) -> np.ndarray:
    table = _margin(mu, sd).astype(np.float32)
    table.setflags(write=False)
    return table


def _binomial(rng, k: int, p: np.ndarray) -> np.ndarray:
    """Binomial(k, p) counts: a sum of k Bernoulli(p) comparisons with uniforms for k <= 24
    (faster than numpy's per-element binomial set-up), numpy's sampler above."""
    if k > 24:
        return rng.binomial(k, p).astype(np.float32)
    count = rng.random(p.shape, dtype=np.float32) < p
    count = count.astype(np.float32)
    for _ in range(k - 1):
        count += rng.random(p.shape, dtype=np.float32) < p
    return count


def _mean_and_cluster_se(diff: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Row means and CR1 standard errors: √(G/(G − 1)·Σ_g (Σ_{i∈g} e_i)² / n²), e = d − d̄."""
    reps, n = diff.shape
    mean = diff.mean(axis=1)
    resid = diff - mean[:, None]
    if m == 1:
        g = n
        total = np.einsum("ij,ij->i", resid, resid)
    else:
        g = -(-n // m)
        if g * m != n:
            resid = np.concatenate([resid, np.zeros((reps, g * m - n))], axis=1)
        sums = resid.reshape(reps, g, m).sum(axis=2)
        total = np.einsum("ij,ij->i", sums, sums)
    return mean, np.sqrt(g / (g - 1.0) * total) / n


def _simulate_result(n: int, d: _Design, n_sims: int, seed, progress) -> PowerResult:
    rng = np.random.default_rng(seed)
    r, kappa = _calibrate(d.mu_a, d.mu_b, d.sd, d.rho, d.icc if d.m > 1 else 0.0)
    z = stats.t.isf(d.alpha / 2.0, int(_clusters(n, d.m)) - 1)  # CR1 with t(G − 1) (Cameron & Miller 2015, §VI)
    j, base = d.j, 1.0 - d.sp
    estimates = np.empty(n_sims)
    significant = np.empty(n_sims, dtype=bool)
    chunk = max(1, min(n_sims, _SIM_BLOCK // n))
    done = 0
    while done < n_sims:
        reps = min(chunk, n_sims - done)
        pa, pb = _draw_probabilities(rng, reps, n, d.m, d, r, kappa)
        if j < 1.0:
            pa, pb = np.float32(base) + np.float32(j) * pa, np.float32(base) + np.float32(j) * pb
        diff = (_binomial(rng, d.k, pb) - _binomial(rng, d.k, pa)).astype(float) * (1.0 / d.k)
        mean, se = _mean_and_cluster_se(diff, d.m)
        significant[done:done + reps] = (np.abs(mean) >= z * se) & (mean != 0.0)
        estimates[done:done + reps] = mean / j  # Rogan–Gladen corrected difference
        done += reps
        if progress is not None:
            progress(done / n_sims)
    return _mc_result(estimates, significant, d.delta, n_sims)


def _mc_result(estimates, significant, delta, n_sims) -> PowerResult:
    n_sig = int(significant.sum())
    rejection = n_sig / n_sims
    mean_sig = float(estimates[significant].mean()) if n_sig else math.nan
    if delta == 0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan, rejection_rate=rejection,
                           mc_se=math.sqrt(rejection * (1 - rejection) / n_sims), n_sims=n_sims,
                           method="simulate", mean_significant=mean_sig)
    right = significant & (np.sign(estimates) == np.sign(delta))
    power = right.sum() / n_sims
    if n_sig:
        wrong_share = 1.0 - right.sum() / n_sig
        ratio = np.abs(estimates[significant]) / abs(delta)
        type_m = float(ratio.mean())
        type_m_se = float(ratio.std(ddof=1) / math.sqrt(n_sig)) if n_sig > 1 else math.nan
        type_s_se = math.sqrt(wrong_share * (1 - wrong_share) / n_sig)
    else:
        wrong_share = type_m = type_m_se = type_s_se = math.nan
    return PowerResult(power=float(power), type_s=float(wrong_share), type_m=type_m, rejection_rate=rejection,
                       mc_se=math.sqrt(power * (1 - power) / n_sims), type_s_se=type_s_se, type_m_se=type_m_se,
                       n_sims=n_sims, method="simulate", mean_significant=mean_sig)


# ---------------------------------------------------------------------------
# power
# ---------------------------------------------------------------------------
def benchmark_power(
    n_questions,
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
    method="analytic",
    n_sims=2000,
    seed=None,
    progress: Callable[[float], None] | None = None,
) -> PowerResult:
    """Power, Type-S and Type-M error of a paired comparison of two LLMs on a benchmark.

    Parameters
    ----------
    n_questions : int
        Number of questions n (at least 2 clusters, at most 10,000,000).
    accuracy_a, accuracy_b : float
        Mean accuracies μ_A (baseline) and μ_B (new model), in [0, 1].
    difficulty_sd : float, optional
        σ, the standard deviation over questions of each model's probability
        of answering correctly; σ² <= μ(1 − μ) for both models.
    correlation : float, optional
        ρ, the correlation over questions of p_A and p_B, in [-1, 1].
    samples : int, optional
        K, answers per question and model (1 … 1,000).
    cluster_size : int, optional
        m, questions per cluster (passage, document, template); 1 = independent questions.
    icc : float, optional
        Intra-cluster correlation of the question-level differences p_B − p_A, in [0, 1].
    judge_sensitivity, judge_specificity : float, optional
        Se and Sp of the LLM judge grading each answer (1, 1 = exact grading); Se + Sp > 1.
    alpha : float, optional
        Two-sided significance level in (0, 0.5].
    method : {"analytic", "simulate"}, optional
        The closed form below, or a simulation of the model (Beta difficulties,
        binomial answers, CR1 t test), vectorized over replicates.
    n_sims : int, optional
        Replicates for ``method="simulate"`` (100 … 1,000,000; ``n_sims × n_questions`` at most
        :data:`MAX_SIMULATED_QUESTIONS`).
    seed : int or numpy.random.Generator, optional
        Seed for ``method="simulate"``.
    progress : callable, optional
        ``progress(fraction)`` is called between chunks of simulated replicates
        (for a progress bar). A plain callback; nothing here is cached.

    Returns
    -------
    PowerResult
        ``power`` (significant with the sign of Δ), ``type_s``, ``type_m``,
        ``rejection_rate``, ``mean_significant`` (signed, corrected scale);
        ``mc_se``, ``type_s_se``, ``type_m_se``, ``n_sims`` for the simulation.

    Raises
    ------
    ValueError
        For out-of-range arguments (the message names the parameter), e.g.
        σ² > μ(1 − μ), ``samples`` < 1, ``icc`` outside [0, 1], Se + Sp <= 1,
        fewer than 2 clusters, or (simulation only) a correlation that Beta
        margins with these moments cannot reach.

    Notes
    -----
    Let d_i = ȳ_Bi − ȳ_Ai be question i's score difference. Given the latent
    probabilities, the mean of K Bernoulli(p) answers has variance p(1 − p)/K,
    and E[p(1 − p)] = μ(1 − μ) − σ² = w (Miller 2024: the conditional,
    within-question variance, which resampling divides by K). By the law of
    total variance

    .. math:: \\operatorname{Var}(d_i) = \\underbrace{2σ^2(1 - ρ)}_{τ^2} + \\frac{w_A + w_B}{K}.

    Sampling noise is independent across questions; the question-level parts
    of two questions in one cluster have covariance icc·τ², so with n = G·m

    .. math:: \\operatorname{Var}(\\bar d) = \\frac{τ^2 (1 + (m - 1)\\,\\mathrm{icc}) + (w_A + w_B)/K}{n}.

    (When m does not divide n the design effect is 1 + icc·Σ_g m_g(m_g − 1)/n.)

    With a judge, the observed per-question probability is p* = (1 − Sp) + J·p,
    J = Se + Sp − 1, so μ* = Se·μ + (1 − Sp)(1 − μ), σ* = J·σ (ρ and icc are
    unchanged), w* = μ*(1 − μ*) − J²σ², and the observed mean difference has
    mean J·Δ. The t test is scale-free, so it is the same test on the
    Rogan–Gladen corrected scale d̄/J, where its mean is Δ; Type-M, the
    signed ``mean_significant`` and the simulation's estimates are reported
    on that scale (E[|d̄/J| | significant] / |Δ|).

    The closed form takes d̄ ~ N(J·Δ, s²) with s² the variance above on the
    observed scale, and the squared standard error independent of d̄ with
    SE² ~ s²·χ²_{G−1}/(G − 1) (normal theory for the G cluster totals: with
    equal clusters the CR1 statistic is the one-sample t statistic of the
    totals). It rejects when |d̄| >= t_{1−α/2, G−1}·SE, so the power is the
    noncentral t tail P(T_{G−1}(J|Δ|/s) >= t_{1−α/2, G−1}) and the
    false-positive rate is α. Type-S and Type-M average the normal tails and
    partial expectations (Card et al. 2020, appendix B) over the distribution
    of SE (Gauss–Legendre quadrature in log SE; checked against scipy's
    noncentral t). For many clusters this is the z test.

    The simulation draws p_A, p_B from Beta margins with the given means and
    σ through a Gaussian copula whose latent correlation r and within-cluster
    latent share κ are calibrated (quadrature on a fine latent grid, Brent's method)
    so that the Beta variables have Pearson correlation ρ and the differences
    have ICC icc: Z_Ai = √(1−κ)·e_Ai + √κ·c_Ag, likewise for B, with
    Corr(e_A, e_B) = Corr(c_A, c_B) = r (questions of a cluster share a
    fraction κ of their latent difficulty). Answers are Binomial(K, p*), and
    each replicate is tested with the CR1 standard error
    √(G/(G − 1)·Σ_g (Σ_{i∈g} e_i)²)/n, e_i = d_i − d̄ — for m = 1 the usual
    paired standard error s_d/√n — against t_{1−α/2, G−1}.

    References
    ----------
    Miller (2024), arXiv:2411.00640 (resampling, clustered standard errors,
    paired differences, power analysis); Card et al. (2020), Figure 2 and
    appendix B; Rogan & Gladen (1978); Cameron & Miller (2015).

    Examples
    --------
    2,000 questions, 70% vs 73%, difficulties spread with σ = 0.25 and
    correlated 0.6 between the models, one answer each:

    >>> r = benchmark_power(2000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    >>> round(r.power, 3), round(r.type_m, 2)
    (0.643, 1.25)

    Five answers per question remove most of the sampling noise; questions in
    groups of four with ICC 0.3 give some of the gain back:

    >>> round(benchmark_power(2000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6, samples=5).power, 3)
    0.984
    >>> round(benchmark_power(2000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6, samples=5,
    ...                       cluster_size=4, icc=0.3).power, 3)
    0.931
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, alpha)
    n = _check_n(n_questions, d.m)
    method = check_choice("method", method, METHODS)
    if method == "analytic":
        return _analytic_result(n, d)
    n_sims = check_int("n_sims", n_sims, low=100, high=1_000_000)
    if n_sims * n > MAX_SIMULATED_QUESTIONS:
        most = MAX_SIMULATED_QUESTIONS // n
        advice = (f"reduce `n_sims` to at most {most:,}" if most >= 100 else
                  f"reduce `n_questions` to at most {MAX_SIMULATED_QUESTIONS // 100:,}")
        raise ValueError(f"`n_sims` × `n_questions` = {n_sims:,} × {n:,} is more than one simulation draws "
                         f"({MAX_SIMULATED_QUESTIONS:,} questions); {advice}. At this size the analytic engine's "
                         "normal approximation is accurate.")
    return _simulate_result(n, d, n_sims, seed, progress)


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


# ---------------------------------------------------------------------------
# synthetic logs
# ---------------------------------------------------------------------------
def simulate_benchmark_log(
    n_questions,
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
    models=("A", "B"),
    seed=None,
) -> pd.DataFrame:
    """A per-answer log drawn from the model of this module (one benchmark run).

    Returns
    -------
    pandas.DataFrame
        Tidy, one row per answer: ``question`` (``"q00000"``, …), ``model``,
        ``sample`` (0 … K − 1), ``score`` (0.0 or 1.0, as graded), and
        ``cluster`` (``"c0000"``, …; questions i·m … i·m + m − 1) when m > 1 —
        the input of :func:`fit_benchmark`.

    Examples
    --------
    >>> log = simulate_benchmark_log(4, 0.6, 0.7, samples=2, cluster_size=2, seed=1)
    >>> log.shape, list(log.columns)
    ((16, 5), ['question', 'cluster', 'model', 'sample', 'score'])
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, 0.05)
    n = _check_n(n_questions, d.m)
    if len(models) != 2 or len({str(x) for x in models}) != 2:
        raise ValueError(f"`models` must be two different names, got {models!r}.")
    rng = np.random.default_rng(seed)
    r, kappa = _calibrate(d.mu_a, d.mu_b, d.sd, d.rho, d.icc if d.m > 1 else 0.0)
    pa, pb = (p[0] for p in _draw_probabilities(rng, 1, n, d.m, d, r, kappa))
    probs = np.stack([pa, pb], axis=1)  # (n, 2)
    probs = (1.0 - d.sp) + d.j * probs
    scores = (rng.random((n, 2, d.k)) < probs[:, :, None]).astype(float)
    q = np.arange(n)
    frame = pd.DataFrame({
        "question": np.repeat([f"q{i:05d}" for i in q], 2 * d.k),
        "model": np.tile(np.repeat([str(models[0]), str(models[1])], d.k), n),
        "sample": np.tile(np.arange(d.k), 2 * n),
        "score": scores.ravel(),
    })
    if d.m > 1:
        frame.insert(1, "cluster", np.repeat([f"c{g:04d}" for g in q // d.m], 2 * d.k))
    return frame


# ---------------------------------------------------------------------------
# fitting the design from per-answer logs
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BenchmarkFit:
    """Method-of-moments estimates of the model's parameters from a per-answer log.

    Attributes
    ----------
    models : tuple of str
        (baseline A, new model B). By default A is the model that appears
        first in the log; ``fit_benchmark(..., baseline=...)`` chooses.
    accuracy : dict
        Model → mean accuracy (mean over questions of the question scores).
    delta : float
        accuracy[B] − accuracy[A].
    delta_se : float
        Cluster-robust (CR1) standard error of ``delta`` — the test the page plans.
    difficulty_sd : float or None
        Pooled σ = √((σ_A² + σ_B²)/2), clipped to [0, √min μ(1 − μ)]; None
        with a single answer per question (not identified).
    correlation : float or None
        ρ = Cov(p_A, p_B)/σ² (so that 2σ²(1 − ρ) = Var(p_B − p_A)), clipped to
        [-1, 1]; None when σ is None.
    samples : int
        K, the median number of answers per question and model.
    icc : float or None
        ICC of the question-level differences, clipped to [0, 1]; None without
        a ``cluster`` column or when σ is not identified.
    cluster_size : int
        Median questions per cluster (1 without clusters).
    n_questions : int
        Questions answered by both models (the others are dropped, see ``notes``).
    n_clusters : int or None
        Number of clusters (None without a ``cluster`` column).
    covariance : float
        Cov(p_A, p_B) = ρσ², identified even with one answer per question.
    sd_by_model : dict
        Model → its own σ estimate (None when not identified).
    se : dict
        Bootstrap standard errors (resampling clusters, or questions, with
        replacement): ``accuracy_a``, ``accuracy_b``, ``delta``,
        ``difficulty_sd``, ``correlation``, ``icc`` (nan when not available).
    notes : tuple of str
        What was dropped, clipped or could not be estimated.
    per_question : pandas.DataFrame
        One row per kept question: ``question, cluster, mean_a, mean_b,
        samples_a, samples_b``.
    """

    models: tuple[str, str]
    accuracy: dict
    delta: float
    delta_se: float
    difficulty_sd: float | None
    correlation: float | None
    samples: int
    icc: float | None
    cluster_size: int
    n_questions: int
    n_clusters: int | None
    covariance: float
    sd_by_model: dict
    se: dict
    notes: tuple[str, ...] = ()
    per_question: pd.DataFrame = field(default=None, repr=False, compare=False)

    def design(self) -> dict:
        """Keyword arguments for :func:`benchmark_power` & co. (the identified parameters only)."""
        a, b = self.models
        out = {"accuracy_a": self.accuracy[a], "accuracy_b": self.accuracy[b], "samples": self.samples,
               "cluster_size": self.cluster_size}
        if self.difficulty_sd is not None:
            out["difficulty_sd"] = self.difficulty_sd
        if self.correlation is not None:
            out["correlation"] = self.correlation
        if self.icc is not None:
            out["icc"] = self.icc
        return out


_LOG_COLUMNS = ("question", "model", "score")


def _check_log_frame(df) -> dict[str, np.ndarray]:
    """Columns of a per-answer log as arrays: factor codes + string labels (no per-row string conversion)."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError("`df` must be a pandas DataFrame with columns question, model, score "
                         "(optional sample, cluster).")
    missing = [c for c in _LOG_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"`df` lacks the column(s) {', '.join(missing)}; it has {', '.join(map(str, df.columns))}.")
    if len(df) == 0:
        raise ValueError("`df` has no rows.")
    out = {}
    for name in ("question", "model") + (("cluster",) if "cluster" in df.columns else ()):
        codes, labels = pd.factorize(df[name].to_numpy())
        bad = codes < 0
        if bad.any():
            raise ValueError(f"`df` row {int(np.argmax(bad)):,}: `{name}` is missing.")
        out[name] = codes.astype(np.int64)
        out[name + "_labels"] = np.asarray([str(v) for v in labels], dtype=object)
    score = pd.to_numeric(df["score"], errors="coerce").to_numpy(dtype=float, copy=True)
    bad = ~np.isfinite(score) | (score < 0) | (score > 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"`df` row {i:,}: `score` must be a number in [0, 1], got {df['score'].iloc[i]!r}.")
    out["score"] = score
    return out


_STAT_NAMES = ("m", "sx", "sy", "sxx", "syy", "sxy", "nx", "ny", "cxx", "cyy", "cxy", "msx", "msy", "mm",
               "s2", "s3")


def _cluster_stats(x, y, nx, ny, codes, n_clusters) -> np.ndarray:
    """Per-cluster sums (G × 16) from which every moment estimate is a linear-then-nonlinear function."""
    def total(values):
        return np.bincount(codes, weights=values, minlength=n_clusters)

    m = np.bincount(codes, minlength=n_clusters).astype(float)
    sx, sy = total(x), total(y)
    return np.stack([m, sx, sy, total(x * x), total(y * y), total(x * y), total(nx), total(ny),
                     sx * sx, sy * sy, sx * sy, m * sx, m * sy, m * m, m * (m - 1), m * (m - 1) ** 2], axis=1)


def _estimates(totals: np.ndarray) -> dict[str, np.ndarray]:
    """Unbiased moment estimates from (weighted) cluster sums; rows are bootstrap replicates.

    For a per-question variable x with Var = V0 and within-cluster covariance C, centred at its
    grand mean, Q = Σ e_i² and P = Σ_{i≠j same cluster} e_i e_j have
    E[Q] = (n − 1)V0 − S2·C/n and E[P] = −S2·V0/n + (S2 − 2S3/n + S2²/n²)·C with
    S2 = Σ m_g(m_g − 1), S3 = Σ m_g(m_g − 1)²; solving gives V0 and C (bilinear for pairs x, y).
    """
    t = dict(zip(_STAT_NAMES, np.atleast_2d(totals).T))
    n = t["m"]
    xbar, ybar = t["sx"] / n, t["sy"] / n
    q = {"xx": t["sxx"] - n * xbar * xbar, "yy": t["syy"] - n * ybar * ybar, "xy": t["sxy"] - n * xbar * ybar}
    g = {"xx": t["cxx"] - 2 * xbar * t["msx"] + xbar * xbar * t["mm"],
         "yy": t["cyy"] - 2 * ybar * t["msy"] + ybar * ybar * t["mm"],
         "xy": t["cxy"] - ybar * t["msx"] - xbar * t["msy"] + xbar * ybar * t["mm"]}
    s2, s3 = t["s2"], t["s3"]
    a11, a12 = n - 1.0, -s2 / n
    a22 = s2 - 2.0 * s3 / n + s2 * s2 / (n * n)
    det = a11 * a22 - a12 * a12
    clustered = s2 > 0
    v0, c = {}, {}
    with np.errstate(divide="ignore", invalid="ignore"):
        for key, within in q.items():
            pairs = g[key] - within
            v0[key] = np.where(clustered, (within * a22 - a12 * pairs) / det, within / a11)
            c[key] = np.where(clustered, (a11 * pairs - a12 * within) / det, np.nan)
    noise_x, noise_y = t["nx"] / n, t["ny"] / n
    var_a, var_b = v0["xx"] - noise_x, v0["yy"] - noise_y
    tau2 = var_a + var_b - 2.0 * v0["xy"]
    with np.errstate(divide="ignore", invalid="ignore"):
        icc = (c["xx"] + c["yy"] - 2.0 * c["xy"]) / tau2
    return {"mu_a": xbar, "mu_b": ybar, "var_a": var_a, "var_b": var_b, "cov": v0["xy"], "tau2": tau2,
            "icc": icc}


def _finish(est: dict[str, np.ndarray], j: float, sp: float) -> dict[str, np.ndarray]:
    """Rogan–Gladen correction, clipping and the pooled parameters (vectorized over replicates)."""
    base = 1.0 - sp
    mu_a = np.clip((est["mu_a"] - base) / j, 0.0, 1.0)
    mu_b = np.clip((est["mu_b"] - base) / j, 0.0, 1.0)
    limit = np.minimum(mu_a * (1 - mu_a), mu_b * (1 - mu_b))
    var_a = np.clip(est["var_a"] / (j * j), 0.0, mu_a * (1 - mu_a))
    var_b = np.clip(est["var_b"] / (j * j), 0.0, mu_b * (1 - mu_b))
    pooled = np.minimum((var_a + var_b) / 2.0, limit)
    cov = est["cov"] / (j * j)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(pooled > 0, np.clip(cov / pooled, -1.0, 1.0), 0.0)
    icc = np.where(est["tau2"] > 0, np.clip(est["icc"], 0.0, 1.0), np.where(np.isnan(est["icc"]), np.nan, 0.0))
    return {"accuracy_a": mu_a, "accuracy_b": mu_b, "delta": (est["mu_b"] - est["mu_a"]) / j,
            "difficulty_sd": np.sqrt(pooled), "correlation": rho, "icc": icc, "var_a": var_a, "var_b": var_b,
            "cov": cov}


def fit_benchmark(
    df,
    *,
    baseline=None,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    n_boot=400,
    seed=0,
) -> BenchmarkFit:
    """Estimate accuracies, difficulty spread, correlation, K and ICC from a per-answer log.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per answer: ``question``, ``model``, ``score`` in [0, 1]
        (1 = right), optional ``sample`` (ignored by the estimates) and
        ``cluster`` — as returned by :func:`read_benchmark_log`,
        :func:`read_harness_samples` or :func:`simulate_benchmark_log`.
        Exactly two models.
    baseline : str, optional
        Which model is A (the baseline); default: the first model in the log.
    judge_sensitivity, judge_specificity : float, optional
        If the scores were graded by an LLM judge of known Se and Sp, the
        estimates are Rogan–Gladen corrected to the true-accuracy scale
        (μ = (μ* − (1 − Sp))/J, σ = σ*/J, Δ = Δ*/J; ρ and icc are unchanged),
        ready for the judge sliders. Default: exact grading.
    n_boot : int, optional
        Bootstrap replicates for the standard errors (0 … 10,000; 0 = none).
    seed : int or numpy.random.Generator, optional
        Seed of the bootstrap.

    Returns
    -------
    BenchmarkFit

    Raises
    ------
    ValueError
        If the frame lacks a column, a score is outside [0, 1], the log does not
        have exactly two models, ``baseline`` is not one of them, a question
        sits in two clusters, or fewer than 3 questions (2 clusters) are
        answered by both models.

    Notes
    -----
    Per question and model: the mean ȳ and the unbiased within-question
    variance s² of its K answers (for 0/1 scores s²/K = p̂(1 − p̂)/(K − 1), the
    estimated sampling variance of ȳ; questions with one answer borrow the
    model's mean s²). Miller (2024): Var(ȳ) = σ² + E[p(1 − p)]/K, so

    * σ_X² = Var_q(ȳ_X) − mean(s²_X/K_X) for each model, σ² = (σ_A² + σ_B²)/2;
    * Cov(p_A, p_B) = Cov_q(ȳ_A, ȳ_B) (the sampling noise of the two models is
      independent), ρ = Cov/σ²;
    * icc = C_D/τ² with τ² = σ_A² + σ_B² − 2Cov and C_D the covariance of the
      differences of two questions of the same cluster.

    The between-question (co)variances and within-cluster covariances come from
    moment equations that are unbiased under clustering for unequal cluster
    sizes (see ``_estimates``); estimates are clipped to their ranges (noted).
    Questions answered by only one model are dropped with a note. Scores that
    are not 0/1 are allowed; the power functions then assume Bernoulli noise
    w = μ(1 − μ) − σ², which is conservative. Standard errors: bootstrap over
    clusters (questions without clusters), vectorized over replicates; the
    CR1 standard error of Δ is analytic.

    Examples
    --------
    >>> log = simulate_benchmark_log(3000, 0.6, 0.65, difficulty_sd=0.2, correlation=0.5, samples=4, seed=3)
    >>> fit = fit_benchmark(log, n_boot=0)
    >>> fit.models, fit.samples, fit.n_questions, fit.icc
    (('A', 'B'), 4, 3000, None)
    >>> round(fit.difficulty_sd, 2), round(fit.correlation, 1)
    (0.2, 0.5)
    """
    frame = _check_log_frame(df)
    se_j = check_probability("judge_sensitivity", judge_sensitivity)
    sp_j = check_probability("judge_specificity", judge_specificity)
    if se_j + sp_j <= 1.0:
        raise ValueError("`judge_sensitivity` + `judge_specificity` must exceed 1 (Youden's J > 0): "
                         "scores from a judge no better than chance cannot be corrected.")
    j = se_j + sp_j - 1.0
    n_boot = check_int("n_boot", n_boot, low=0, high=10_000)
    models = list(frame["model_labels"])
    if len(models) != 2:
        listed = ", ".join(repr(x) for x in models[:10]) + (" …" if len(models) > 10 else "")
        raise ValueError(f"The log must contain exactly two models (baseline and new); it has {len(models)}: {listed}.")
    if baseline is not None:
        if str(baseline) not in models:
            raise ValueError(f"`baseline` must be one of {models[0]!r}, {models[1]!r}, got {baseline!r}.")
        models = [str(baseline), models[1] if models[0] == str(baseline) else models[0]]
    name_a, name_b = models
    notes: list[str] = []

    # per (question, model): answers, mean, unbiased variance — factor codes and bincounts (linear time)
    qcodes, qlabels = frame["question"], frame["question_labels"]
    n_all = len(qlabels)
    is_b = (frame["model"] == list(frame["model_labels"]).index(name_b)).astype(np.int64)
    key = 2 * qcodes + is_b
    score = frame["score"]
    count = np.bincount(key, minlength=2 * n_all).reshape(n_all, 2)
    total = np.bincount(key, weights=score, minlength=2 * n_all)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / count.ravel()
        resid = score - mean[key]
        var = np.bincount(key, weights=resid * resid, minlength=2 * n_all) / (count.ravel() - 1.0)
    mean, var = mean.reshape(n_all, 2), np.where(count.ravel() >= 2, var, np.nan).reshape(n_all, 2)
    both = (count > 0).all(axis=1)
    only_a = int(((count[:, 0] > 0) & ~both).sum())
    only_b = int(((count[:, 1] > 0) & ~both).sum())
    if only_a or only_b:
        notes.append(f"Dropped {only_a + only_b:,} question(s) answered by only one model "
                     f"({only_a:,} only by {name_a}, {only_b:,} only by {name_b}).")
    questions = np.asarray(qlabels)[both]
    n = len(questions)
    x, y = mean[both, 0], mean[both, 1]
    kx, ky = count[both, 0].astype(float), count[both, 1].astype(float)
    vx, vy = var[both, 0], var[both, 1]

    if "cluster" in frame:
        ccodes, clabels = frame["cluster"], frame["cluster_labels"]
        pairs = np.unique(qcodes.astype(np.int64) * len(clabels) + ccodes)
        pair_q = pairs // len(clabels)
        if len(pairs) > n_all:
            q = int(pair_q[np.flatnonzero(np.diff(pair_q) == 0)[0]])
            found = [repr(str(clabels[c])) for c in (pairs[pair_q == q] % len(clabels))[:3]]
            raise ValueError(f"Question {str(qlabels[q])!r} appears in more than one cluster ({', '.join(found)}); "
                             "each question must belong to exactly one cluster.")
        cluster_of_q = np.empty(n_all, dtype=np.int64)
        cluster_of_q[pair_q] = pairs % len(clabels)
        codes, uniques = pd.factorize(cluster_of_q[both])
        cluster_labels = np.asarray(clabels)[cluster_of_q[both]]
        n_clusters = len(uniques)
        has_clusters = True
    else:
        cluster_labels = questions
        codes, n_clusters = np.arange(n), n
        has_clusters = False
    if n_clusters < 2 or n < 3:
        raise ValueError(f"At least 3 questions in at least 2 clusters answered by both models are needed; "
                         f"the log has {n:,} question(s) in {n_clusters:,} cluster(s).")

    identified = bool((kx >= 2).any() and (ky >= 2).any())
    nx = np.zeros(n)
    ny = np.zeros(n)
    if identified:
        for noise, k, v in ((nx, kx, vx), (ny, ky, vy)):
            fill = float(np.nanmean(v[k >= 2]))
            noise[:] = np.where(k >= 2, v, fill) / k
        if ((kx < 2) | (ky < 2)).any():
            notes.append("Some questions have a single answer from a model; their sampling variance was "
                         "taken as that model's average.")
    else:
        notes.append("Each question has one answer per model, so question difficulty and sampling noise "
                     "cannot be separated (Miller 2024): difficulty_sd, correlation and icc are not "
                     "estimated. Resample each question at least twice (K >= 2).")

    cstats = _cluster_stats(x, y, nx, ny, codes, n_clusters)
    point = _finish(_estimates(cstats.sum(axis=0)), j, sp_j)
    point = {key: float(value[0]) for key, value in point.items()}

    # cluster-robust (CR1) SE of the difference
    dres = (y - x) - (y - x).mean()
    sums = np.bincount(codes, weights=dres, minlength=n_clusters)
    delta_se = math.sqrt(n_clusters / (n_clusters - 1.0) * float(sums @ sums)) / n / j

    se = {key: math.nan for key in ("accuracy_a", "accuracy_b", "delta", "difficulty_sd", "correlation", "icc")}
    if n_boot > 1:
        rng = np.random.default_rng(seed)
        chunk = max(1, min(n_boot, 4_000_000 // n_clusters))
        reps = {key: [] for key in se}
        done = 0
        while done < n_boot:
            size = min(chunk, n_boot - done)
            draws = rng.integers(0, n_clusters, size=(size, n_clusters))
            weights = np.bincount((draws + n_clusters * np.arange(size)[:, None]).ravel(),
                                  minlength=size * n_clusters).reshape(size, n_clusters)
            boot = _finish(_estimates(weights @ cstats), j, sp_j)
            for key, collected in reps.items():
                collected.append(boot[key])
            done += size
        for key in se:
            values = np.concatenate(reps[key])
            values = values[np.isfinite(values)]
            se[key] = float(values.std(ddof=1)) if len(values) > 1 else math.nan
    if not identified:
        for key in ("difficulty_sd", "correlation", "icc"):
            se[key] = math.nan
    if not has_clusters:
        se["icc"] = math.nan

    if identified:
        mu_a, mu_b = point["accuracy_a"], point["accuracy_b"]
        est = _estimates(cstats.sum(axis=0))
        pooled_raw = float((est["var_a"][0] + est["var_b"][0]) / 2.0 / (j * j))
        if pooled_raw < 0:
            notes.append("The between-question variance came out negative (sampling noise explains all the "
                         "spread); difficulty_sd was set to 0.")
        elif pooled_raw > min(mu_a * (1 - mu_a), mu_b * (1 - mu_b)) + 1e-12:
            notes.append("The between-question variance exceeded μ(1 − μ); difficulty_sd was clipped to its maximum.")
        difficulty_sd, correlation = point["difficulty_sd"], point["correlation"]
        if difficulty_sd == 0.0:
            notes.append("No between-question variation: correlation set to 0.")
        icc = None
        if has_clusters:
            icc = point["icc"] if math.isfinite(point["icc"]) else 0.0
            if float(est["tau2"][0]) <= 0:
                notes.append("The models' question-level differences show no variance: icc set to 0.")
        sd_by_model = {name_a: math.sqrt(point["var_a"]), name_b: math.sqrt(point["var_b"])}
    else:
        difficulty_sd = correlation = icc = None
        sd_by_model = {name_a: None, name_b: None}
    if j < 1.0:
        notes.append(f"Scores corrected for judge error (Rogan–Gladen, J = {j:.3g}).")
    sizes = np.bincount(codes, minlength=n_clusters)
    per_question = pd.DataFrame({"question": questions, "cluster": cluster_labels, "mean_a": x, "mean_b": y,
                                 "samples_a": kx.astype(int), "samples_b": ky.astype(int)})
    return BenchmarkFit(
        models=(name_a, name_b),
        accuracy={name_a: point["accuracy_a"], name_b: point["accuracy_b"]},
        delta=point["delta"],
        delta_se=delta_se,
        difficulty_sd=difficulty_sd,
        correlation=correlation,
        samples=round(float(np.median(np.concatenate([kx, ky])))),
        icc=icc,
        cluster_size=round(float(np.median(sizes))) if has_clusters else 1,
        n_questions=n,
        n_clusters=n_clusters if has_clusters else None,
        covariance=point["cov"],
        sd_by_model=sd_by_model,
        se=se,
        notes=tuple(notes),
        per_question=per_question,
    )


# ---------------------------------------------------------------------------
# readers (bytes in; nothing in a file is executed)
# ---------------------------------------------------------------------------
_ALIASES = {
    "question": ("question", "question_id", "doc_id", "item", "item_id"),
    "model": ("model", "model_name", "system"),
    "score": ("score", "correct", "is_correct"),
    "sample": ("sample", "sample_id", "repeat", "run"),
    "cluster": ("cluster", "cluster_id", "group", "passage"),
}
_TRUE, _FALSE = frozenset({"true", "yes"}), frozenset({"false", "no"})


def _find_columns(columns: Sequence[str], name: str) -> dict[str, str]:
    return uploads.find_columns(columns, _ALIASES, ("question", "model", "score"), name=name)


def _parse_scores(cells: pd.Series, name: str, where: Callable[[int], str]) -> np.ndarray:
    values = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float, copy=True)
    words = np.flatnonzero(np.isnan(values))
    if len(words):  # true/false/yes/no, any capitalisation
        lower = cells.iloc[words].astype(str).str.strip().str.lower()
        values[words[lower.isin(_TRUE).to_numpy()]] = 1.0
        values[words[lower.isin(_FALSE).to_numpy()]] = 0.0
    bad = ~np.isfinite(values) | (values < 0) | (values > 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name}, {where(i)}: `score` must be a number in [0, 1] or true/false, "
                         f"got {cells.iloc[i]!r}.")
    return values


def _tidy(frame: pd.DataFrame, roles: dict[str, str], name: str, where: Callable[[int], str]) -> pd.DataFrame:
    """Columns of stripped strings (``frame``) → the tidy log, with its checks."""
    out = {}
    for role in ("question", "cluster", "model"):
        if role not in roles:
            continue
        cells = frame[roles[role]]
        empty = (cells == "").to_numpy()
        if empty.any():
            raise ValueError(f"{name}, {where(int(np.argmax(empty)))}: `{roles[role]}` is empty.")
        out[role] = cells.to_numpy()
    if "sample" in roles:
        out["sample"] = frame[roles["sample"]].to_numpy()
    out["score"] = _parse_scores(frame[roles["score"]], name, where)
    tidy = pd.DataFrame(out)
    if "sample" in roles:
        dup = tidy.duplicated(["question", "model", "sample"], keep=False).to_numpy()
        if dup.any():
            first = int(np.argmax(dup))
            row = tidy.iloc[first]
            same = np.flatnonzero(dup & (tidy["question"] == row["question"]).to_numpy()
                                  & (tidy["model"] == row["model"]).to_numpy()
                                  & (tidy["sample"] == row["sample"]).to_numpy())
            raise ValueError(f"{name}: {where(int(same[0]))} and {where(int(same[1]))} both give question "
                             f"{row['question']!r}, model {row['model']!r}, sample {row['sample']!r}.")
    else:
        tidy["sample"] = tidy.groupby(["question", "model"], sort=False).cumcount()
    if "cluster" in tidy.columns:
        pairs = tidy.drop_duplicates(["question", "cluster"])
        clash = pairs["question"].duplicated().to_numpy()
        if clash.any():
            q = pairs["question"].to_numpy()[clash][0]
            raise ValueError(f"{name}: question {q!r} appears in more than one cluster.")
    columns = ["question"] + (["cluster"] if "cluster" in tidy.columns else []) + ["model", "sample", "score"]
    return tidy[columns]


def _given_columns(columns, available, name: str) -> dict[str, str]:
    """A ``columns=`` mapping (role → column) checked against the file's columns."""
    if not isinstance(columns, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in columns.items()):
        raise ValueError("`columns` must map roles to column names, e.g. {'question': 'doc_id', 'score': 'acc'}.")
    unknown = [r for r in columns if r not in _ALIASES]
    if unknown:
        raise ValueError(f"`columns`: unknown role {unknown[0]!r}; the roles are {', '.join(_ALIASES)}.")
    absent = [f"{c!r} (for {r})" for r, c in columns.items() if c not in set(available)]
    if absent:
        raise ValueError(f"{name} has no column {', '.join(absent)}; it has {', '.join(map(str, available))}.")
    missing = [r for r in ("question", "model", "score") if r not in columns]
    if missing:
        raise ValueError(f"`columns` needs the roles question, model and score; missing {', '.join(missing)}.")
    if len(set(columns.values())) != len(columns):
        raise ValueError("`columns` uses one column for two roles.")
    return dict(columns)


def read_benchmark_log(data, *, name: str = "The log", columns=None) -> pd.DataFrame:
    """Read a per-answer log: CSV/TSV (header required) or JSON Lines.

    Parameters
    ----------
    data : bytes
        The file. Columns (case-insensitive): ``question``, ``model``,
        ``score`` (a number in [0, 1], or true/false/yes/no), optional
        ``sample`` and ``cluster``. Also accepted: question_id/doc_id/item,
        model_name/system, correct/is_correct, sample_id/repeat/run,
        cluster_id/group/passage.
    name : str, optional
        How messages call the file.

    Returns
    -------
    pandas.DataFrame
        ``question, [cluster,] model, sample, score`` (strings, and float
        scores), the input of :func:`fit_benchmark`. Without a ``sample``
        column the answers of a question and model are numbered 0, 1, … in
        file order.

    Raises
    ------
    ValueError
        For an unreadable or oversized file (see :mod:`core.uploads`), missing
        columns (or a ``columns`` mapping — role → column name for
        ``question``, ``model``, ``score`` and optionally ``sample``,
        ``cluster`` — naming a column the file lacks), an empty cell, a
        score that is not in [0, 1] (the message
        names the row after the header, or the JSON record), a repeated
        (question, model, sample), or a question in two clusters.

    Examples
    --------
    >>> read_benchmark_log(b"question,model,score\\nq1,A,1\\nq1,A,0\\nq1,B,true\\n")
      question model  sample  score
    0       q1     A       0    1.0
    1       q1     A       1    0.0
    2       q1     B       0    1.0
    """
    if uploads.looks_like_json(data):
        records = uploads.read_jsonl(data, name=name)
        keys = list(dict.fromkeys(k for rec in records[:1000] for k in rec))
        roles = _find_columns(keys, name) if columns is None else _given_columns(columns, keys, name)
        columns = {}
        for key in roles.values():
            values = []
            for number, rec in enumerate(records, start=1):
                if key not in rec:
                    raise ValueError(f"{name}, record {number:,}: no `{key}` field.")
                value = rec[key]
                if isinstance(value, (dict, list)) or value is None:
                    raise ValueError(f"{name}, record {number:,}: `{key}` must be a single value, got {value!r}.")
                if isinstance(value, bool):
                    value = "true" if value else "false"
                values.append(value.strip() if isinstance(value, str) else str(value))
            columns[key] = pd.Series(values, dtype=object)
        frame = pd.DataFrame(columns)
        return _tidy(frame, roles, name, lambda i: f"record {i + 1:,}")
    table = uploads.read_table(data, name=name, min_columns=2, header="yes")
    roles = (_find_columns(list(table.columns), name) if columns is None
             else _given_columns(columns, list(table.columns), name))
    return _tidy(table, roles, name, lambda i: f"row {i + 1:,} after the header")


# ----- lm-evaluation-harness ------------------------------------------------
_HARNESS_KEYS = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
                           "doc_hash", "prompt_hash", "target_hash", "task_name"})
_TASK_FILE = re.compile(r"^samples_(?P<task>.+?)_(?P<date>\d{4}-\d{2}-\d{2}T[\d\-.:]+)\.jsonl$")


@dataclass(frozen=True)
class HarnessOptions:
    """What a set of lm-evaluation-harness sample files offers (to fill the page's selectors).

    Attributes
    ----------
    models : tuple of str
        Model names in the order given (the first is the baseline).
    metrics : tuple of str
        Per-sample metrics present on every line of every file with values in
        [0, 1] (or true/false), e.g. ``("acc", "acc_norm")``.
    filters : tuple of str
        Filter pipelines found (``"none"`` when the lines have no ``filter``).
    n_lines : int
        Lines read.
    """

    models: tuple[str, ...]
    metrics: tuple[str, ...]
    filters: tuple[str, ...]
    n_lines: int


def _harness_entries(files) -> list[tuple[str, str, bytes]]:
    """Normalise the inputs to (model, label, bytes) in order."""
    def one(model, item, index):
        if not isinstance(model, str) or not model.strip():
            raise ValueError(f"Model names must be non-empty strings, got {model!r}.")
        if isinstance(item, (bytes, bytearray, memoryview)):
            return (model.strip(), None, bytes(item))
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            return (model.strip(), item[0], item[1])
        raise ValueError(f"File {index} of model {model!r} must be bytes or (file_name, bytes).")

    entries = []
    if isinstance(files, Mapping):
        for model, value in files.items():
            items = value if isinstance(value, list) else [value]
            entries += [one(model, item, i + 1) for i, item in enumerate(items)]
    elif isinstance(files, (list, tuple)):
        for i, item in enumerate(files, start=1):
            if not isinstance(item, (list, tuple)) or len(item) not in (2, 3):
                raise ValueError(f"Entry {i} of `files` must be (model, bytes) or (model, file_name, bytes).")
            entries.append(one(item[0], item[1], i) if len(item) == 2 else one(item[0], (item[1], item[2]), i))
    else:
        raise ValueError("`files` must map model names to file bytes, or list (model, bytes) pairs.")
    if not entries:
        raise ValueError("`files` is empty: give one lm-evaluation-harness samples file per model.")
    labelled, counts = [], {}
    for model, label, data in entries:
        counts[model] = counts.get(model, 0) + 1
        labelled.append((model, label or f"{model} file {counts[model]}", data))
    models = list(dict.fromkeys(e[0] for e in labelled))
    if len(models) != 2:
        raise ValueError(f"Give the samples files of exactly two models (baseline and new); got {len(models)}: "
                         + ", ".join(repr(m) for m in models) + ".")
    return labelled


def _line_of(data: bytes, record: int) -> int:
    """1-based line number of the record-th (1-based) non-blank line (error path only)."""
    seen = 0
    for number, line in enumerate(bytes(data).decode("utf-8-sig", errors="replace").splitlines(), start=1):
        if line.strip():
            seen += 1
            if seen == record:
                return number
    return record


def _metric_value(value) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)) and math.isfinite(value) and 0.0 <= value <= 1.0:
        return float(value)
    return None


def _name_unnamed_filters(records) -> None:
    """Files that repeat each doc_id once per filter pipeline without a ``filter`` key: name them "pipeline k".

    Some harness versions write one line per (document, filter) but leave
    out ``filter``; the k-th line of a document then belongs to the k-th
    pipeline of the task's ``filter_list`` (e.g. gsm8k: strict-match, then
    flexible-extract). Files with a ``filter`` key, or without repeats, are
    left as they are (a repeated doc_id there stays an error).
    """
    if any("filter" in rec for rec in records):
        return
    seen: dict = {}
    for rec in records:
        doc_id = rec.get("doc_id")
        if isinstance(doc_id, (int, str)) and not isinstance(doc_id, bool):
            seen[doc_id] = seen.get(doc_id, 0) + 1
    if not seen or max(seen.values()) < 2:
        return
    counts = set(seen.values())
    if len(counts) != 1:
        return  # uneven repeats are not a per-filter layout: the duplicate check reports them
    occurrence: dict = {}
    for rec in records:
        doc_id = rec.get("doc_id")
        occurrence[doc_id] = occurrence.get(doc_id, 0) + 1
        rec["filter"] = f"pipeline {occurrence[doc_id]}"


def _scan_harness(entries):
    """Parse every file once: records, filters and the metrics valid on every line."""
    parsed, filters, metric_sets, n_lines = [], {}, None, 0
    for model, label, data in entries:
        records = uploads.read_jsonl(data, name=f"`{label}`")
        n_lines += len(records)
        _name_unnamed_filters(records)
        valid = None
        for number, rec in enumerate(records, start=1):
            if "doc_id" not in rec:
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: no `doc_id` field — is this an "
                                 "lm-evaluation-harness samples_<task>_<date>.jsonl file (written with --log_samples)?")
            doc_id = rec["doc_id"]
            if isinstance(doc_id, bool) or not isinstance(doc_id, (int, str)):
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: `doc_id` must be an integer or a "
                                 f"string, got {doc_id!r}.")
            flt = rec.get("filter", "none")
            if not isinstance(flt, str):
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: `filter` must be a string, "
                                 f"got {flt!r}.")
            filters.setdefault(flt, None)
            names = rec.get("metrics")
            keys = names if isinstance(names, list) and all(isinstance(k, str) for k in names) \
                else [k for k in rec if k not in _HARNESS_KEYS]
            good = {k for k in keys if _metric_value(rec.get(k)) is not None}
            valid = good if valid is None else valid & good
        metric_sets = valid if metric_sets is None else metric_sets & valid
        parsed.append((model, label, data, records))
    return parsed, tuple(filters), tuple(sorted(metric_sets or ())), n_lines


def harness_options(files) -> HarnessOptions:
    """Models, usable metrics and filters of lm-evaluation-harness sample files (see :func:`read_harness_samples`).

    Examples
    --------
    >>> line = b'{"doc_id": 0, "filter": "none", "metrics": ["acc", "acc_norm"], "acc": 1.0, "acc_norm": 0.0}'
    >>> harness_options({"base": line, "new": line})
    HarnessOptions(models=('base', 'new'), metrics=('acc', 'acc_norm'), filters=('none',), n_lines=2)
    """
    entries = _harness_entries(files)
    _, filters, metrics, n_lines = _scan_harness(entries)
    return HarnessOptions(tuple(dict.fromkeys(e[0] for e in entries)), metrics, filters, n_lines)


def _task_of(label: str, index: int) -> str:
    base = label.replace("\\", "/").rsplit("/", 1)[-1]
    match = _TASK_FILE.match(base)
    if match:
        return match.group("task")
    return base[:-6] if base.endswith(".jsonl") else (base if base else f"task {index}")


def read_harness_samples(files, *, metric=None, filter=None, files_per_model="runs") -> pd.DataFrame:
    """Read lm-evaluation-harness ``--log_samples`` files of two models into a per-answer log.

    Parameters
    ----------
    files : mapping or sequence
        ``{model: bytes}``, ``{model: [bytes, …]}`` or ``{model: (file_name, bytes)}``,
        or a list of ``(model, bytes)`` / ``(model, file_name, bytes)``. Exactly
        two models; the first is the baseline A. One file per model is the
        usual case.
    metric : str, optional
        The per-sample metric to use as the score (``acc``, ``acc_norm``,
        ``exact_match``, …; values in [0, 1] or true/false). Default: the only
        metric present on every line, else a message listing the candidates.
    filter : str, optional
        The filter pipeline whose lines to use (``"none"``, ``"strict-match"``,
        ``"flexible-extract"``, ``"maj@64"``, …). Required when the files
        contain more than one.
    files_per_model : {"runs", "tasks"}, optional
        What several files of one model are: ``"runs"`` — repeated runs of the
        same task (e.g. different seeds at temperature > 0), numbered as
        samples 0, 1, …; ``"tasks"`` — different tasks (e.g. MMLU subjects),
        which become clusters: questions ``"<task>/<doc_id>"`` with the task
        from the file name ``samples_<task>_<date>.jsonl`` (else the name, else
        the position), matched across models by task.

    Returns
    -------
    pandas.DataFrame
        ``question, [cluster,] model, sample, score``, the input of
        :func:`fit_benchmark`; ``.attrs`` holds ``metric``, ``filter`` and
        ``notes`` (e.g. documents whose ``doc_hash`` differs between models).
        doc_ids present for only one model are kept; :func:`fit_benchmark`
        drops them with a note.

    Raises
    ------
    ValueError
        For an unreadable file or a line that is not JSON (naming the file and
        line), a line without ``doc_id``, a metric that is missing or not a
        number in [0, 1] on some line (naming it), an ambiguous metric or filter
        (listing the choices), a doc_id repeated within a file and filter,
        or not exactly two models.

    Notes
    -----
    Format (checked against EleutherAI/lm-evaluation-harness at commit
    4e7e0d4, ``lm_eval/evaluator.py`` and ``lm_eval/loggers/evaluation_tracker.py``
    ``save_results_samples``; ``docs/interface.md`` for ``--log_samples``):
    each task's samples go to ``samples_<task>_<date>.jsonl``, one JSON
    object per line and per (document, filter pipeline), with keys
    ``doc_id, doc, target, arguments, resps, filtered_resps, filter, metrics,
    doc_hash, prompt_hash, target_hash`` and then one key per metric returned
    by the task's ``process_results`` (e.g. ``"acc": 1.0, "acc_norm": 0.0``
    or ``"exact_match": 0.0``); ``metrics`` lists those names. Older files
    may lack ``filter``/``metrics`` (then ``filter`` is taken as ``"none"``
    and metric candidates are the numeric keys that are not bookkeeping);
    files that lack ``filter`` but repeat every doc_id once per pipeline
    get the pipelines ``"pipeline 1"``, ``"pipeline 2"``, … in line order
    (the order of the task's ``filter_list``). Files written as one
    (pretty-printed) JSON array, as harness 0.4.0–0.4.2 did, are read too,
    whatever their extension. With ``repeats: K`` in a task's YAML (``docs/task_guide.md``), the K
    generations sit in ``resps`` but a filter pipeline (``take_first``,
    ``majority_vote``, ``maj@64``, …) reduces them to one scored answer per
    document and filter, so a single file carries one score per question;
    per-answer scores for K > 1 come from K runs (``files_per_model="runs"``).

    Examples
    --------
    >>> line = '{{"doc_id": {}, "filter": "none", "metrics": ["exact_match"], "exact_match": {}}}'
    >>> a = "\\n".join(line.format(i, s) for i, s in enumerate([1.0, 0.0, 1.0])).encode()
    >>> b = "\\n".join(line.format(i, s) for i, s in enumerate([1.0, 1.0, 1.0])).encode()
    >>> log = read_harness_samples({"base": a, "new": b})
    >>> log.attrs["metric"], log.score.tolist()
    ('exact_match', [1.0, 0.0, 1.0, 1.0, 1.0, 1.0])
    """
    entries = _harness_entries(files)
    files_per_model = check_choice("files_per_model", files_per_model, FILES_PER_MODEL)
    parsed, filters, candidates, _ = _scan_harness(entries)
    if filter is None:
        if len(filters) > 1:
            raise ValueError("The files contain several filter pipelines (" + ", ".join(map(repr, filters))
                             + "); choose one with `filter`.")
        filter = filters[0]
    elif filter not in filters:
        raise ValueError(f"`filter` {filter!r} is not in the files; they have " + ", ".join(map(repr, filters)) + ".")
    if metric is None:
        if len(candidates) != 1:
            if not candidates:
                raise ValueError("No per-sample metric with values in [0, 1] is present on every line; "
                                 "name one with `metric` (the message will say which line lacks it).")
            raise ValueError("Several per-sample metrics could be the score (" + ", ".join(map(repr, candidates))
                             + "); choose one with `metric`.")
        metric = candidates[0]
    elif not isinstance(metric, str) or not metric:
        raise ValueError(f"`metric` must be a metric name such as 'acc' or 'exact_match', got {metric!r}.")

    rows_q, rows_c, rows_m, rows_s, rows_y = [], [], [], [], []
    hashes: dict[str, dict[str, str]] = {}
    position: dict[str, int] = {}
    tasks_seen: dict[str, set] = {}
    for model, label, data, records in parsed:
        index = position[model] = position.get(model, -1) + 1
        task = None
        if files_per_model == "tasks":
            task = _task_of(label, index + 1)
            if task in tasks_seen.setdefault(model, set()):
                raise ValueError(f"Two files of model {model!r} are both task {task!r}; with "
                                 "files_per_model='tasks' give one file per task.")
            tasks_seen[model].add(task)
        sample = 0 if task is not None else index
        seen: dict = {}
        for number, rec in enumerate(records, start=1):
            if rec.get("filter", "none") != filter:
                continue
            doc_id = rec["doc_id"]
            if doc_id in seen:
                raise ValueError(f"`{label}`: doc_id {doc_id!r} appears twice for filter {filter!r} "
                                 f"(lines {_line_of(data, seen[doc_id]):,} and {_line_of(data, number):,}).")
            seen[doc_id] = number
            if metric not in rec:
                fields = ", ".join(k for k in rec if k not in _HARNESS_KEYS) or "none"
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: no `{metric}` field "
                                 f"(metric fields on that line: {fields}).")
            value = _metric_value(rec[metric])
            if value is None:
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: `{metric}` is {rec[metric]!r}; "
                                 "expected a number in [0, 1] or true/false.")
            question = str(doc_id) if task is None else f"{task}/{doc_id}"
            rows_q.append(question)
            rows_c.append(task)
            rows_m.append(model)
            rows_s.append(sample)
            rows_y.append(value)
            doc_hash = rec.get("doc_hash")
            if isinstance(doc_hash, str):
                hashes.setdefault(model, {}).setdefault(question, doc_hash)
        if not seen:
            raise ValueError(f"`{label}` has no lines for filter {filter!r}.")
    frame = pd.DataFrame({"question": rows_q, "cluster": rows_c, "model": rows_m, "sample": rows_s,
                          "score": np.asarray(rows_y, dtype=float)})
    if files_per_model == "runs":
        frame = frame.drop(columns="cluster")
    notes = [f"Score: metric `{metric}`, filter `{filter}`."]
    models = list(dict.fromkeys(e[0] for e in entries))
    if len(hashes) == 2:
        ha, hb = hashes.get(models[0], {}), hashes.get(models[1], {})
        shared = ha.keys() & hb.keys()
        differ = sum(ha[q] != hb[q] for q in shared)
        if differ:
            notes.append(f"doc_hash differs between the models for {differ:,} of {len(shared):,} shared documents: "
                         "check that both files come from the same task and dataset version.")
    frame.attrs.update({"metric": metric, "filter": filter, "notes": notes})
    return frame


def difficulty_from_covariance(covariance, accuracy_a, accuracy_b, *, prefer_sd=0.25, sd_step=0.01, rho_step=0.05,
                               rho_range=(-0.5, 1.0), sd_max=0.5) -> tuple[float, float]:
    """σ and ρ on the sliders' grids with ρσ² as close as possible to the covariance of the logs.

    With one answer per question (K = 1) the per-question variance of the
    paired difference is μ_A(1 − μ_A) + μ_B(1 − μ_B) − 2ρσ² (perfect judge;
    :func:`benchmark_power`'s variance with K = 1), so only the covariance
    ρσ² is identified, not σ and ρ apart. Any pair with the same product
    plans the same K = 1 evaluation; this picks the grid pair whose product
    is closest to ``covariance`` (σ² ≤ min μ(1 − μ), ρ in ``rho_range``),
    and among equally close pairs the σ nearest ``prefer_sd`` (the value the
    user had). Plans with K > 1 need σ itself: log several answers per question.

    Returns
    -------
    (float, float)
        (σ, ρ).

    Examples
    --------
    >>> difficulty_from_covariance(0.03, 0.7, 0.75, prefer_sd=0.25)
    (0.2, 0.75)
    """
    cov = check_real("covariance", covariance, low=-1.0, high=1.0)
    mu_a = check_real("accuracy_a", accuracy_a, low=0.0, high=1.0)
    mu_b = check_real("accuracy_b", accuracy_b, low=0.0, high=1.0)
    cap = min(sd_max, math.sqrt(min(mu_a * (1 - mu_a), mu_b * (1 - mu_b))))
    sds = np.round(np.arange(0.0, cap + 1e-12, sd_step), 10)
    rhos = np.round(np.arange(rho_range[0], rho_range[1] + 1e-12, rho_step), 10)
    gap = np.abs(rhos[None, :] * sds[:, None] ** 2 - cov)
    best = gap.min()
    rows, cols = np.nonzero(gap <= best + 1e-12)
    pick = int(np.argmin(np.abs(sds[rows] - prefer_sd) + 1e-9 * np.abs(rhos[cols])))
    return float(sds[rows[pick]]), float(rhos[cols[pick]]) + 0.0  # + 0.0: no "-0.0"


# ---------------------------------------------------------------------------
# the shipped synthetic example
# ---------------------------------------------------------------------------
def sample_log() -> pd.DataFrame:
    """The synthetic worked example (``core/data/llm_sample/benchmark_log.csv``), read like an upload."""
    path = SAMPLE_DIR / "benchmark_log.csv"
    return read_benchmark_log(path.read_bytes(), name=f"`{path.name}`")


def sample_harness_files() -> list[tuple[str, str, bytes]]:
    """The synthetic lm-evaluation-harness-shaped demo: ``[(model, file_name, bytes), …]``, two runs per model."""
    out = []
    for model in ("synthetic-baseline", "synthetic-candidate"):
        for path in sorted((SAMPLE_DIR / "harness" / model).glob("*.jsonl")):
            out.append((model, path.name, path.read_bytes()))
    return out



# ---------------------------------------------------------------------------
# assurance (power averaged over a prior on the gain)
# ---------------------------------------------------------------------------
def benchmark_assurance(
    n_questions,
    accuracy_a,
    delta_mean,
    delta_sd,
    *,
    difficulty_sd=0.0,
    correlation=0.0,
    samples=1,
    cluster_size=1,
    icc=0.0,
    judge_sensitivity=1.0,
    judge_specificity=1.0,
    alpha=0.05,
):
    """Assurance of a benchmark comparison: power averaged over a normal prior on the accuracy gain.

    Parameters
    ----------
    n_questions, accuracy_a
        As in :func:`benchmark_power`.
    delta_mean, delta_sd : float
        Prior N(μ, τ²) on the gain Δ = μ_B − μ_A.
    difficulty_sd, correlation, samples, cluster_size, icc, judge_sensitivity, judge_specificity, alpha
        As in :func:`benchmark_power` (the same keyword arguments).

    Returns
    -------
    core.assurance.AssuranceResult
        ``.assurance``, ``.ceiling``, ``.power_at_mean``.

    Notes
    -----
    The closed form of :func:`benchmark_power` gives P(significant, estimate
    > 0 | Δ) and P(significant, estimate < 0 | Δ) at every quadrature node
    (μ_B = μ_A + Δ, so the sampling noise w_B changes with Δ). The prior is
    truncated to the feasible gains: μ_B in [0, 1] with σ² <= μ_B(1 − μ_B).

    References
    ----------
    O'Hagan, Stevens & Campbell (2005), "Assurance in clinical trial design".

    Examples
    --------
    >>> r = benchmark_assurance(1000, 0.70, 0.03, 0.0, difficulty_sd=0.25, correlation=0.6)
    >>> round(r.assurance, 3) == round(benchmark_power(1000, 0.70, 0.73, difficulty_sd=0.25,
    ...                                                  correlation=0.6).power, 3)
    True
    """
    from .assurance import assurance

    mu = check_real("delta_mean", delta_mean, low=-1.0, high=1.0)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=1.0)
    base = _validate(accuracy_a, accuracy_a, difficulty_sd, correlation, samples, cluster_size, icc,
                     judge_sensitivity, judge_specificity, alpha)
    root = math.sqrt(max(1.0 - 4.0 * base.sd * base.sd, 0.0))
    low, high = (1.0 - root) / 2.0 - base.mu_a, (1.0 + root) / 2.0 - base.mu_a  # feasible μ_B − μ_A
    if not low - 1e-12 <= mu <= high + 1e-12:
        raise ValueError(f"`delta_mean` must keep the new model's accuracy feasible with this difficulty spread, in "
                         f"[{low:.4g}, {high:.4g}], got {mu:g}.")
    mu = min(max(mu, low), high)
    d = _validate(accuracy_a, base.mu_a + mu, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, alpha)
    n = _check_n(n_questions, d.m)

    def directional(deltas):
        deltas = np.clip(np.asarray(deltas, dtype=float), low, high)
        tau2, noise = _variance_parts(d, mu_b=d.mu_a + deltas)
        s = np.sqrt((tau2 * _design_effect(n, d.m, d.icc) + noise) / n)
        right, wrong, _, _ = _t_tails(d.j * np.abs(deltas), s, _clusters(n, d.m), d.alpha)
        up = np.where(deltas > 0, right, np.where(deltas < 0, wrong, right / 2.0 + wrong / 2.0))
        down = np.where(deltas > 0, wrong, np.where(deltas < 0, right, right / 2.0 + wrong / 2.0))
        return up, down

    power = float(_closed_form(n, d)["power"])
    tau2, noise = _variance_parts(d)
    se = math.sqrt((tau2 * float(_design_effect(n, d.m, d.icc)) + float(noise)) / n) / d.j
    return assurance(directional, prior_mean=mu, prior_sd=tau, power_at_mean=power, scale=se, low=low, high=high)


# ---------------------------------------------------------------------------
# "no worse than": non-inferiority on the benchmark's variance model
# ---------------------------------------------------------------------------
def _noninferiority_parts(d: _Design, margin, alpha):
    margin = check_real("margin", margin, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_real("alpha", alpha, low=0.0, high=0.5, low_open=True, high_open=True)
    return margin, alpha, stats.norm.isf(alpha)


def _noninferiority_closed_form(n, d: _Design, margin: float, alpha: float) -> np.ndarray:
    """P(T_{G−1}((Δ + m)/se) >= t_{1−α, G−1}): the one-sided t test against −m (se on the corrected scale)."""
    n = np.asarray(n)
    tau2, noise = _variance_parts(d)
    s = np.sqrt((tau2 * _design_effect(n, d.m, d.icc) + noise) / n) / d.j
    return _t_tails(d.delta + margin, s, _clusters(n, d.m), 2.0 * alpha)[0]


def benchmark_noninferiority_power(n_questions, accuracy_a, accuracy_b, margin, *, difficulty_sd=0.0,
                                   correlation=0.0, samples=1, cluster_size=1, icc=0.0, judge_sensitivity=1.0,
                                   judge_specificity=1.0, alpha=0.025) -> PowerResult:
    """Power to show that model B is no worse than model A by more than ``margin`` on a benchmark.

    Parameters
    ----------
    n_questions, accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
    judge_sensitivity, judge_specificity
        As in :func:`benchmark_power` (A is the current model, B the cheaper or newer one).
    margin : float
        Tolerated loss m in (0, 1) on the accuracy scale; H0: μ_B − μ_A <= −m.
    alpha : float, optional
        One-sided level in (0, 0.5); 0.025 matches a two-sided 95% interval whose lower end must clear −m.

    Returns
    -------
    PowerResult
        ``power`` = P(reject H0) (at μ_B − μ_A = −m it is the test's size); ``type_s``/``type_m`` are ``nan``.

    Notes
    -----
    The one-sided t test of the mean paired difference against −m with the variance and the G − 1 degrees of
    freedom of :func:`benchmark_power`: reject when (d̄/J + m)/SE >= t_{1−α, G−1}, so the power is the noncentral
    t tail P(T_{G−1}((Δ + m)/se) >= t_{1−α, G−1}) — about Φ((Δ + m)/se − z_{1−α}) for many clusters — with
    se² = [2σ²(1 − ρ)(1 + (m_c − 1)icc) + (w_A + w_B)/K]/(J² n) on the corrected scale (m_c the cluster size).

    References
    ----------
    Miller (2024), arXiv:2411.00640; Schuirmann (1987) for the one-sided tests against a margin.

    Examples
    --------
    >>> round(benchmark_noninferiority_power(2000, 0.70, 0.70, 0.02, difficulty_sd=0.25, correlation=0.6).power, 3)
    0.331
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, 0.05)
    n = _check_n(n_questions, d.m)
    margin, alpha, z = _noninferiority_parts(d, margin, alpha)
    power = float(_noninferiority_closed_form(n, d, margin, alpha))
    return PowerResult(power=power, type_s=math.nan, type_m=math.nan, rejection_rate=power, method="analytic")


def benchmark_noninferiority_sample_size(accuracy_a, accuracy_b, margin, *, difficulty_sd=0.0, correlation=0.0,
                                         samples=1, cluster_size=1, icc=0.0, judge_sensitivity=1.0,
                                         judge_specificity=1.0, alpha=0.025, target_power=0.8, conservative=False,
                                         n_max=_N_MAX) -> int:
    """Fewest questions (whole clusters) to show B no worse than A by more than ``margin`` with ``target_power``.

    Parameters
    ----------
    accuracy_a, accuracy_b, margin, alpha, ...
        As in :func:`benchmark_noninferiority_power`; μ_B − μ_A + margin must be > 0.
    target_power : float, optional
        Power to reach, in (0, 1).
    conservative : bool, optional
        Accepted for symmetry with the other sample sizes; the closed-form power increases with n, so the first
        and the conservative n coincide.
    n_max : int, optional
        Largest number of questions considered.

    Returns
    -------
    int
        n = G·m questions with G >= 2 clusters; ``-1`` if ``n_max`` is not enough.

    Notes
    -----
    n ≈ σ_1² (z_{1−α} + z_{power})² / (J (Δ + m))², the search's starting point (see
    :func:`benchmark_sample_size`).

    Examples
    --------
    >>> benchmark_noninferiority_sample_size(0.70, 0.70, 0.02, difficulty_sd=0.25, correlation=0.6)
    6772
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, 0.05)
    margin, alpha, z = _noninferiority_parts(d, margin, alpha)
    target_power = _check_target(target_power)
    n_max = check_int("n_max", n_max, low=2 * d.m, high=_N_MAX)
    if d.delta + margin <= 0:
        raise ValueError(f"`accuracy_b` − `accuracy_a` + `margin` must be > 0 to size a study (got "
                         f"{d.delta:+g} + {margin:g}): B is expected to be worse than the margin allows.")
    tau2, noise = _variance_parts(d)
    unit = (tau2 * (1.0 + (d.m - 1) * d.icc) + noise) / d.j**2
    guess = max(unit * (z + stats.norm.ppf(target_power)) ** 2 / (d.delta + margin) ** 2 / d.m, 2.0)

    def power_many(clusters):
        return _noninferiority_closed_form(np.asarray(clusters) * d.m, d, margin, alpha)

    found = sample_size_search(power_many, target_power, guess=guess, n_max=n_max // d.m, low=2)
    g = found.pick(bool(conservative))
    return g * d.m if g > 0 else -1


# ---------------------------------------------------------------------------
# per-task table from logs: n, accuracy, Wilson interval, MDE
# ---------------------------------------------------------------------------
def task_table(log: pd.DataFrame, *, by="auto", alpha=0.05, target_power=0.8, confidence=0.95,
               min_questions=30) -> pd.DataFrame:
    """Per-task summary of a two-model per-answer log: n, accuracies, Wilson intervals, MDE, flags.

    Parameters
    ----------
    log : pandas.DataFrame
        A per-answer log (:func:`read_benchmark_log`, :func:`read_harness_samples`) with columns
        ``question, model, score`` and optionally ``task`` or ``cluster``.
    by : str or None, optional
        Column that names the task; ``"auto"`` (default): ``"task"`` if present, else ``"cluster"``, else one row;
        None: one row per model for the whole log.
    alpha, target_power : float, optional
        Two-sided level and power of the MDE.
    confidence : float, optional
        Level of the Wilson intervals.
    min_questions : int, optional
        Tasks with fewer questions are flagged.

    Returns
    -------
    pandas.DataFrame
        One row per (task, model): ``task, model, n, accuracy, low, high, mde, flag``. ``accuracy`` is the mean
        of question scores (each the mean over the model's answers); the Wilson interval uses k = accuracy·n.
        ``mde`` is the paired MDE of the two models on that task, (t_{1−α/2} + t_{power}) s_d/√n (n − 1 df) with s_d the SD
        of per-question score differences (the same on both rows). ``flag`` says "all right", "all wrong" or
        "n < 30" (the Wald/CLT interval is a point, or unreliable, there: Bowyer et al. 2025).

    Examples
    --------
    >>> t = task_table(sample_log())
    >>> list(t.columns)
    ['task', 'model', 'n', 'accuracy', 'low', 'high', 'mde', 'flag']
    """
    from .accuracy.intervals import _limits

    if not isinstance(log, pd.DataFrame) or not {"question", "model", "score"} <= set(log.columns):
        raise ValueError("`log` must be a per-answer log with columns question, model, score.")
    if len(log) == 0:
        raise ValueError("`log` has no rows.")
    alpha = check_alpha(alpha)
    target_power = _check_target(target_power)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    min_questions = check_int("min_questions", min_questions, low=1)
    if by == "auto":
        by = "task" if "task" in log.columns else ("cluster" if "cluster" in log.columns else None)
    elif by is not None and by not in log.columns:
        raise ValueError(f"`by` must be a column of the log, \"auto\" or None, got {by!r}.")
    frame = log.assign(_task=log[by].astype(str) if by else "all questions")
    per_question = frame.groupby(["_task", "question", "model"], sort=False)["score"].mean().reset_index()
    models = list(dict.fromkeys(per_question["model"]))
    rows = []
    for task, part in per_question.groupby("_task", sort=False):
        wide = part.pivot(index="question", columns="model", values="score")
        mde = math.nan
        if len(models) == 2 and set(models) <= set(wide.columns):
            diff = (wide[models[1]] - wide[models[0]]).dropna()
            if len(diff) >= 2:  # the paired t test's MDE (t quantiles on n − 1 df: tasks can be small)
                df = len(diff) - 1
                mult = stats.t.isf(alpha / 2.0, df) + stats.t.ppf(target_power, df)
                mde = float(mult * diff.std(ddof=1) / math.sqrt(len(diff)))
        for model in models:
            if model not in wide.columns:
                continue
            scores = wide[model].dropna()
            n = int(len(scores))
            acc = float(scores.mean())
            low, high = _limits(acc * n, n, "wilson", confidence)
            flag = "all right" if acc >= 1.0 else ("all wrong" if acc <= 0.0 else "")
            if n < min_questions:
                flag = f"{flag}; n < {min_questions}" if flag else f"n < {min_questions}"
            rows.append((str(task), str(model), n, acc, float(low), float(high), mde, flag))
    return pd.DataFrame(rows, columns=["task", "model", "n", "accuracy", "low", "high", "mde", "flag"])

"""Shared pieces of :mod:`core.llm`: limits, constants, the engines' validated parameters and the closed form
(t test on G − 1 degrees of freedom). Package-internal: the engines (power, sizing, curves, simulation, fitting,
readers) import from here, and :mod:`core.llm.design` imports the engines, so no module of the package imports one
that imports it back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import partial
from pathlib import Path

import numpy as np
from scipy import stats

from ..results import PowerResult
from ..validation import check_alpha, check_int, check_probability, check_real


#: Engines of :func:`benchmark_power`.
METHODS = ("analytic", "simulate")
#: How :func:`read_harness_samples` treats several files of one model.
FILES_PER_MODEL = ("runs", "tasks")
#: The shipped synthetic worked example (see its README.txt).
SAMPLE_DIR = Path(__file__).resolve().parents[1] / "data" / "llm_sample"

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
class _Design:
    """The engines' validated parameters of one comparison (the keyword arguments of :func:`benchmark_power`).

    Every engine validates its arguments by building one (:func:`_validate`); the public
    :class:`core.llm.BenchmarkDesign` (the page's design) hands its effective values to the engines, which build
    this again. Frozen and compared by value.
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


def _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
              judge_sensitivity, judge_specificity, alpha) -> _Design:
    return _Design(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
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



"""Power, assurance and non-inferiority of a benchmark comparison.

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import stats

from ..assurance import assurance
from ..results import PowerResult
from ..sizing import sample_size_search
from ..validation import check_choice, check_int, check_real
from ._common import (
    MAX_SIMULATED_QUESTIONS,
    METHODS,
    _Design,
    _N_MAX,
    _analytic_result,
    _check_n,
    _check_target,
    _closed_form,
    _clusters,
    _design_effect,
    _t_tails,
    _validate,
    _variance_parts,
)
from .simulation import _simulate_result

__all__ = [
    "benchmark_power",
    "benchmark_assurance",
    "benchmark_noninferiority_power",
    "benchmark_noninferiority_sample_size",
]


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



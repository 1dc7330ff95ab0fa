"""Prompts, samples and seeds: the facets of an LLM comparison (generalizability theory, G-study → D-study).

Two models answer ``n`` questions under the same ``T`` prompt templates (prompt formats, instructions or few-shot
draws), ``K`` times each. The paired difference of one cell is

    d_itk = Δ + u_t + v_i + w_it + e_itk,

u_t ~ N(0, ``var_template``) the model × template interaction (how much the *gain* changes with the prompt),
v_i ~ N(0, ``var_item``) the model × question interaction, w_it ~ N(0, ``var_item_template``) and
e_itk ~ N(0, ``var_sample``) the sampling noise of the difference of two answers. The mean difference D̂ over the
n·T·K cells has (Cronbach et al. 1972; Brennan 2001, ch. 4, the D-study variance of a crossed p × i × o design)

    Var(D̂) = var_template/T + var_item/n + var_item_template/(nT) + var_sample/(nTK)   [+ 2·var_seed/S],

the last term when two training recipes are compared with S seeds each (the seed-to-seed variance of a run's
score; Madaan et al. 2024). The template term does not shrink with n: with T templates, power has a ceiling
(:func:`facet_ceiling`) that no number of questions passes.

All variances are on the score scale (a 0/1 score's differences: 1 point = 0.01; variance 1e-4 = an SD of 1 point).

References
----------
Cronbach, L. J., Gleser, G. C., Nanda, H. & Rajaratnam, N. (1972). *The Dependability of Behavioral
Measurements.* Wiley. · Brennan, R. L. (2001). *Generalizability Theory.* Springer (ch. 4: D studies; ch. 3:
ANOVA estimates of G-study components). · Searle, S. R., Casella, G. & McCulloch, C. E. (1992). *Variance
Components.* Wiley (ch. 4: balanced data, independence and χ² laws of the mean squares). · Satterthwaite, F. E.
(1946). Biometrics Bulletin 2:110–114. · Sclar, M., Choi, Y., Tsvetkov, Y. & Suhr, A. (2024). "Quantifying
Language Models' Sensitivity to Spurious Features in Prompt Design." ICLR. · Madaan, L. et al. (2024).
"Quantifying Variance in Evaluation Benchmarks." arXiv:2406.10229. · Card et al. (2020) for power, Type-M and
Type-S.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from ..results import PowerResult
from ..validation import check_alpha, check_int, check_probability, check_real
from .readers import read_harness_samples

__all__ = [
    "FACET_DEFAULTS",
    "FACET_COMPONENTS",
    "TEMPLATE_ALIASES",
    "FacetPower",
    "FacetPlan",
    "FacetFit",
    "facet_se",
    "facet_power",
    "facet_ceiling",
    "FACET_MAX_QUESTIONS",
    "facet_sample_size",
    "facet_plan",
    "facet_budget",
    "facet_power_curve",
    "fit_facets",
    "read_harness_templates",
]

#: Default components (score scale). Template: a model × template SD of 1 point of accuracy — Sclar et al. (2024)
#: report accuracy spreads across semantically equivalent prompt formats of several points up to tens of points,
#: and that format choice can reverse model comparisons; the interaction with a *difference* is smaller than one
#: model's spread, 1 point is a mild choice. Item: an SD of 22 points, 2σ²(1 − ρ) ≈ 0.05 with the LLM page's
#: defaults (σ = 0.25, ρ = 0.6). Item × template: an SD of 17 points (how differently questions react to the
#: prompt). Sample: an SD of 50 points (two answers at ~70% accuracy, temperature > 0: 2·(μ(1 − μ) − σ²) ≈ 0.3).
#: The page's inputs are these SDs in points. Seed: an SD of 0.7 points of a run's score across
#: training seeds, within the range Madaan et al. (2024) report for 7B models trained from scratch.
FACET_DEFAULTS = {"var_template": 0.01 ** 2, "var_item": 0.22 ** 2, "var_item_template": 0.17 ** 2,
                  "var_sample": 0.50 ** 2, "var_seed": 0.007 ** 2}

#: The components of Var(D̂), in the order of the variance budget.
FACET_COMPONENTS = ("template", "question", "question × template", "sample", "seed")

#: Column names accepted for the template facet of a log.
TEMPLATE_ALIASES = ("template", "prompt", "prompt_id", "template_id", "fewshot_seed")
_QUESTION = ("question", "question_id", "doc_id", "item", "item_id")
_MODEL = ("model", "model_name", "system")
_SCORE = ("score", "correct", "is_correct", "acc", "exact_match")
_SAMPLE = ("sample", "sample_id", "repeat", "run")
_N_MAX = 10_000_000
#: The most questions a size search considers (:func:`facet_sample_size`).
FACET_MAX_QUESTIONS = _N_MAX
#: Paired differences up to which an unbalanced log is fitted by REML (≈ 5 s at the limit on the 2-core machine).
REML_MAX_ROWS = 20_000


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _check(n, templates, samples, seeds, var_template, var_item, var_item_template, var_sample, var_seed):
    n = check_int("n", n, low=1, high=_N_MAX)
    templates = check_int("templates", templates, low=1, high=10_000)
    samples = check_int("samples", samples, low=1, high=10_000)
    if seeds is not None:
        seeds = check_int("seeds", seeds, low=1, high=10_000)
    comps = [check_real(name, value, low=0.0, high=1.0) for name, value in (
        ("var_template", var_template), ("var_item", var_item), ("var_item_template", var_item_template),
        ("var_sample", var_sample), ("var_seed", var_seed))]
    return (n, templates, samples, seeds, *comps)


def _answers(samples, seeds):
    """Answers per question and template behind each recipe's mean: K, or K·S when S seed models each answer the
    whole grid (their sampling noise is independent, so it averages over all K·S)."""
    return samples * (1 if seeds is None else seeds)


def _parts(n, templates, samples, seeds, vt, vi, vit, vs, vseed):
    """The five terms of Var(D̂) (the seed term is 0 without seeds)."""
    return (vt / templates, vi / n, vit / (n * templates), vs / (n * templates * _answers(samples, seeds)),
            0.0 if seeds is None else 2.0 * vseed / seeds)


# ---------------------------------------------------------------------------
# the closed form
# ---------------------------------------------------------------------------
def facet_se(n, *, templates=1, samples=1, seeds=None, var_template, var_item, var_item_template, var_sample,
             var_seed=0.0) -> float:
    """Standard error of the mean paired difference D̂ of two models over questions × templates × samples.

    Var(D̂) = var_template/T + var_item/n + var_item_template/(nT) + var_sample/(nTK) [+ 2·var_seed/S]
    (Brennan 2001, ch. 4: the D-study error variance of the mean over a crossed design, each random facet's
    component divided by the number of its levels that the mean averages). With S seeds per recipe every seed's
    model answers the whole grid, so a recipe's mean averages K·S answers per question and template and the
    sampling term is var_sample/(nTKS); the seed effects add 2·var_seed/S; the question and template terms are the
    recipes' own and do not shrink with seeds.

    Parameters
    ----------
    n : int
        Questions (each answered under every template).
    templates, samples : int
        Prompt templates T shared by both models; answers K per question, template and model.
    seeds : int, optional
        Training seeds S per recipe when two recipes (not two fixed models) are compared; adds 2·var_seed/S.
    var_template, var_item, var_item_template, var_sample, var_seed : float
        Variance components of the paired difference, score scale (in [0, 1]).

    Examples
    --------
    >>> round(facet_se(1000, templates=1, **{k: v for k, v in FACET_DEFAULTS.items() if k != "var_seed"}), 5)
    0.02067
    """
    args = _check(n, templates, samples, seeds, var_template, var_item, var_item_template, var_sample, var_seed)
    return math.sqrt(sum(_parts(*args)))


@dataclass(frozen=True)
class FacetPower(PowerResult):
    """:class:`core.results.PowerResult` plus the test's degrees of freedom.

    ``df`` is ``inf`` for the analytic engine (known components, normal test); for ``method="simulate"`` it is the
    mean Satterthwaite degrees of freedom of the test a user runs on the data, which collapse towards T − 1 when
    the template term dominates. ``df_median`` likewise; ``se`` is the true SE of D̂.
    """

    df: float = math.inf
    df_median: float = math.inf
    se: float = math.nan


def _normal_result(delta, se, alpha) -> FacetPower:
    """Power, Type-S and Type-M of a two-sided z test of D̂ ~ N(Δ, se²) (Card et al. 2020, Figure 2)."""
    z = stats.norm.ppf(1.0 - alpha / 2.0)
    c = z * se
    hi, lo = stats.norm.sf((c - delta) / se), stats.norm.cdf((-c - delta) / se)
    # E[D; D > c] and E[D; D < −c] for D ~ N(Δ, se²)
    e_hi = delta * hi + se * stats.norm.pdf((c - delta) / se)
    e_lo = delta * lo - se * stats.norm.pdf((-c - delta) / se)
    reject = hi + lo
    if delta > 0:
        power, wrong = hi, lo
    elif delta < 0:
        power, wrong = lo, hi
    else:
        power, wrong = reject, math.nan
    type_s = wrong / reject if delta != 0 and reject > 0 else math.nan
    type_m = (e_hi - e_lo) / reject / abs(delta) if delta != 0 and reject > 0 else math.nan
    return FacetPower(power=float(min(max(power, 0.0), 1.0)), type_s=float(type_s), type_m=float(type_m),
                      rejection_rate=float(reject), method="analytic",
                      mean_significant=float((e_hi + e_lo) / reject) if reject > 0 else math.nan, se=float(se))


def _coefficients(n, templates, samples, ms_t, ms_i, ms_it, ms_e):
    """Var̂(D̂) as a combination Σ c_j·MS_j of the ANOVA mean squares, components truncated at 0.

    σ̂²_template = (MS_T − MS_IT)/(nK), σ̂²_item = (MS_I − MS_IT)/(TK), σ̂²_item×template = (MS_IT − MS_E)/K,
    σ̂²_sample = MS_E (Brennan 2001, ch. 3, the p × i × o design with replications); each negative estimate is set to
    0, which drops its mean squares from the combination. With T = 1 the template and item × template terms cannot
    be estimated (they are confounded with Δ and with the items); with K = 1 the item × template term and the
    sampling noise share MS_IT. Arrays broadcast (one value per simulated replicate).
    """
    big = n * templates * samples
    zero = np.zeros_like(ms_i, dtype=float)
    if templates > 1:
        pt = (ms_t > ms_it).astype(float)
        pi = (ms_i > ms_it).astype(float)
        pit = (ms_it > ms_e).astype(float) if samples > 1 else np.ones_like(zero)
        c_t, c_i, c_it = pt / big, pi / big, (pit - pt - pi) / big
        c_e = (1.0 - pit) / big if samples > 1 else zero
    else:
        pi = (ms_i > ms_e).astype(float) if samples > 1 else np.ones_like(zero)
        c_t, c_i, c_it = zero, pi / big, zero
        c_e = (1.0 - pi) / big if samples > 1 else zero
    return c_t, c_i, c_it, c_e


def _satterthwaite(terms, dfs):
    """Var̂ = Σ c_j MS_j and its Satterthwaite (1946) degrees of freedom (Σ c_j MS_j)² / Σ (c_j MS_j)²/df_j."""
    var = sum(terms)
    denom = sum(np.where(d > 0, t * t / np.maximum(d, 1), 0.0) for t, d in zip(terms, dfs))
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(denom > 0, var * var / np.where(denom > 0, denom, 1.0), np.nan)
    return var, df


def facet_power(n, delta, *, templates=1, samples=1, seeds=None, var_template, var_item, var_item_template,
                var_sample, var_seed=0.0, alpha=0.05, method="analytic", n_sims=4000, seed=None) -> FacetPower:
    """Power, Type-M and Type-S of the paired comparison of two models over questions × templates × samples.

    Parameters
    ----------
    n, templates, samples, seeds, var_* :
        As :func:`facet_se`.
    delta : float
        True mean difference Δ (score scale: 0.02 = 2 points).
    alpha : float
        Two-sided level.
    method : {"analytic", "simulate"}
        ``"analytic"``: the z test with known components, D̂ ~ N(Δ, facet_se²); power = Φ(|Δ|/SE − z_{1−α/2})
        (significant in the right direction), Type-S and Type-M from the truncated normal. ``"simulate"``: the test a
        user runs on the data — the t test of D̂ with the ANOVA estimate of its variance (negative components set to
        0) and Satterthwaite's degrees of freedom. The replicates draw the sufficient statistics of the normal model
        exactly: D̂ ~ N(Δ, Var(D̂)) and independent mean squares MS_j ~ E[MS_j]·χ²_{df_j}/df_j with
        E[MS_T] = σ²_e + Kσ²_it + nKσ²_t, E[MS_I] = σ²_e + Kσ²_it + TKσ²_i, E[MS_IT] = σ²_e + Kσ²_it, E[MS_E] = σ²_e
        (Searle, Casella & McCulloch 1992, ch. 4, balanced crossed random model), so the cost does not grow with
        n·T·K. With seeds (two training recipes, S ≥ 2 seed models each), the test of :func:`_simulate_recipes`:
        the question and template terms from the ANOVA of the cell means, the seed term from the spread of the runs'
        mean scores within each recipe (2(S − 1) df). With T = 1 the template term is invisible in the data: the
        user's test omits it and rejects too often (see the false-positive rate at Δ = 0).
    n_sims : int
        Simulated replicates (``method="simulate"``), 100 to 1,000,000.
    seed : int, optional
        Seed of the random generator.

    Returns
    -------
    FacetPower
        A :class:`core.results.PowerResult` with ``mc_se`` (simulation) and ``df`` (mean Satterthwaite df).

    Examples
    --------
    >>> comps = {k: v for k, v in FACET_DEFAULTS.items() if k != "var_seed"}
    >>> round(facet_power(1000, 0.02, templates=10, **comps).power, 4)
    0.5765
    """
    n, templates, samples, seeds, vt, vi, vit, vs, vseed = _check(
        n, templates, samples, seeds, var_template, var_item, var_item_template, var_sample, var_seed)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    alpha = check_alpha(alpha)
    if method not in ("analytic", "simulate"):
        raise ValueError(f"`method` must be 'analytic' or 'simulate', got {method!r}.")
    var = sum(_parts(n, templates, samples, seeds, vt, vi, vit, vs, vseed))
    if var <= 0:
        raise ValueError("The variance components are all 0 (`var_template`, `var_item`, `var_item_template`, "
                         "`var_sample` and `var_seed`): at least one must be positive.")
    se = math.sqrt(var)
    if method == "analytic":
        return _normal_result(delta, se, alpha)
    n_sims = check_int("n_sims", n_sims, low=100, high=1_000_000)
    if seeds is not None and seeds < 2:
        raise ValueError("`seeds` must be at least 2 with method='simulate' (one run per recipe gives no estimate "
                         f"of the seed variance), got {seeds}.")
    rng = np.random.default_rng(None if seed is None else check_int("seed", seed, low=0))
    if seeds is not None:
        return _simulate_recipes(n, delta, se, templates, samples, seeds, vt, vi, vit, vs, vseed, alpha, n_sims, rng)
    k, t = samples, templates
    e_t = vs + k * vit + n * k * vt
    e_i = vs + k * vit + t * k * vi
    e_it = vs + k * vit
    df_t, df_i, df_it, df_e = t - 1, n - 1, (n - 1) * (t - 1), n * t * (k - 1)

    def draw(expect, df):
        return expect * rng.chisquare(df, n_sims) / df if df > 0 else np.zeros(n_sims)

    d_hat = delta + se * rng.standard_normal(n_sims)
    if t == 1:
        # one template: the template draw is part of what the user's data call "the gain"; the items' mean square
        # contains the item × template term
        e_i = vs + k * (vi + vit)
    if n == 1 and t == 1:
        raise ValueError("`n` must be at least 2 with one template for method='simulate' (no variance is "
                         "estimable).")
    ms_t, ms_i, ms_it = draw(e_t, df_t), draw(e_i, df_i), draw(e_it if t > 1 else vs, df_it)
    ms_e = draw(vs, df_e)
    if t > 1 and k == 1:
        ms_e = np.zeros(n_sims)
    c_t, c_i, c_it, c_e = _coefficients(n, t, k, ms_t, ms_i, ms_it, ms_e)
    terms = [c_t * ms_t, c_i * ms_i, c_it * ms_it, c_e * ms_e]
    dfs = [df_t, df_i, df_it, df_e]
    return _t_test(d_hat, terms, dfs, delta, alpha, n_sims, se)


def _t_test(d_hat, terms, dfs, delta, alpha, n_sims, se) -> FacetPower:
    """The Satterthwaite t test of each replicate's D̂ with its estimated variance Σ terms."""
    var_hat, df = _satterthwaite(terms, dfs)
    ok = var_hat > 0
    crit = np.full(n_sims, np.inf)
    crit[ok] = stats.t.ppf(1.0 - alpha / 2.0, df[ok])
    tstat = np.zeros(n_sims)
    tstat[ok] = d_hat[ok] / np.sqrt(var_hat[ok])
    sig = np.abs(tstat) > crit
    return _summarise(d_hat, sig, delta, n_sims, df, se)


def _simulate_recipes(n, delta, se, t, k, seeds, vt, vi, vit, vs, vseed, alpha, n_sims, rng) -> FacetPower:
    """The test of two training recipes with S seed models each, on its exact sufficient statistics.

    Var(D̂) = [var_template/T + var_item/n + var_item_template/(nT)] + [var_sample/(nTKS) + 2·var_seed/S]. The
    analysis estimates each bracket from its own mean squares:

    * the spread of the 2S runs' mean scores within their recipe, MS_seed on 2(S − 1) df, has expectation
      var_seed + var_sample/(2nTK) (a run's score carries its own answers' noise, var_sample/2 per answer), so
      2·MS_seed/S estimates the second bracket whole;
    * the n × T cell differences d_it (each recipe's S·K answers averaged) give the two-way ANOVA without
      replication, MS_T, MS_I, MS_IT with per-cell noise σ²_c = var_sample/(KS) (:func:`_coefficients` with one
      answer per cell), and each recipe's answers around the additive fit cell + seed give MS_E on
      2(nT(SK − 1) − (S − 1)) df with expectation var_sample/2; σ̂²_it = MS_IT − 2·MS_E/(KS) then keeps the noise,
      already counted by the runs' spread, out of the first bracket (each negative component set to 0, as
      without seeds).

    Var̂ is the sum, with Satterthwaite's df. In the balanced normal model the mean squares are independent χ² and
    independent of D̂ (Searle, Casella & McCulloch 1992, ch. 4). With T = 1 the template term is invisible, as
    without seeds.
    """
    sigma_c = vs / (k * seeds)
    e_it = sigma_c + vit
    e_t, e_i = e_it + n * vt, e_it + (t * vi if t > 1 else vi)
    df_t, df_i, df_it, df_s = t - 1, n - 1, (n - 1) * (t - 1), 2 * (seeds - 1)
    df_e = 2 * (n * t * (seeds * k - 1) - (seeds - 1))

    def draw(expect, df):
        return expect * rng.chisquare(df, n_sims) / df if df > 0 else np.zeros(n_sims)

    d_hat = delta + se * rng.standard_normal(n_sims)
    ms_t, ms_i, ms_it = draw(e_t, df_t), draw(e_i, df_i), draw(e_it, df_it)
    ms_s = draw(vseed + vs / (2.0 * n * t * k), df_s)
    ms_e = draw(vs / 2.0, df_e)
    big = n * t
    noise = 2.0 * ms_e / (k * seeds)  # σ̂²_c
    if t > 1:
        pt, pi = (ms_t > ms_it).astype(float), (ms_i > ms_it).astype(float)
        pit = (ms_it > noise).astype(float)
        # σ̂²_t/T + σ̂²_i/n + σ̂²_it/(nT), with σ̂²_it = (MS_IT − σ̂²_c)⁺ and the others against MS_IT
        c_t, c_i = pt / big, pi / big
        c_it = (pit - pt - pi) / big
        c_e = -pit * 2.0 / (k * seeds) / big
    else:
        # one template: MS_I estimates var_item + var_item_template + σ²_c; its noise part is taken out
        pi = (ms_i > noise).astype(float)
        c_t, c_it = np.zeros(n_sims), np.zeros(n_sims)
        c_i = pi / big
        c_e = -pi * 2.0 / (k * seeds) / big
    terms = [c_t * ms_t, c_i * ms_i, c_it * ms_it, c_e * ms_e, 2.0 * ms_s / seeds]
    return _t_test(d_hat, terms, [df_t, df_i, df_it, df_e, df_s], delta, alpha, n_sims, se)


def _summarise(d_hat, sig, delta, n_sims, df, se) -> FacetPower:
    reject = float(sig.mean())
    right = sig & (np.sign(d_hat) == np.sign(delta)) if delta != 0 else sig
    power = float(right.mean())
    n_sig = int(sig.sum())
    if delta != 0 and n_sig:
        wrong = sig & (np.sign(d_hat) != np.sign(delta))
        type_s = float(wrong.sum() / n_sig)
        type_s_se = math.sqrt(type_s * (1 - type_s) / n_sig)
        mag = np.abs(d_hat[sig]) / abs(delta)
        type_m = float(mag.mean())
        type_m_se = float(mag.std(ddof=1) / math.sqrt(n_sig)) if n_sig > 1 else math.nan
    else:
        type_s = type_m = type_s_se = type_m_se = math.nan
    finite = df[np.isfinite(df)]
    return FacetPower(power=power, type_s=type_s, type_m=type_m, rejection_rate=reject,
                      mc_se=math.sqrt(power * (1 - power) / n_sims), type_s_se=type_s_se, type_m_se=type_m_se,
                      n_sims=n_sims, method="simulate",
                      mean_significant=float(d_hat[sig].mean()) if n_sig else math.nan,
                      df=float(finite.mean()) if finite.size else math.nan,
                      df_median=float(np.median(finite)) if finite.size else math.nan, se=float(se))


def facet_ceiling(delta, *, templates, var_template, alpha=0.05, seeds=None, var_seed=0.0) -> float:
    """Power as n → ∞: every term but the template term (and, for two training recipes with S seeds each, the seed
    term 2·var_seed/S) vanishes, so power ≤ Φ(|Δ|/√(var_template/T [+ 2·var_seed/S]) − z_{1−α/2}).

    Examples
    --------
    >>> round(facet_ceiling(0.02, templates=1, var_template=1e-4), 3)
    0.516
    >>> round(facet_ceiling(0.02, templates=1, var_template=1e-4, seeds=3, var_seed=1e-4), 3)
    0.341
    """
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    templates = check_int("templates", templates, low=1, high=10_000)
    var_template = check_real("var_template", var_template, low=0.0, high=1.0)
    alpha = check_alpha(alpha)
    stay = var_template / templates
    if seeds is not None:
        seeds = check_int("seeds", seeds, low=1, high=10_000)
        stay += 2.0 * check_real("var_seed", var_seed, low=0.0, high=1.0) / seeds
    return float(_power_of_se(delta, math.sqrt(stay), alpha))


def facet_sample_size(delta, *, templates=1, samples=1, seeds=None, var_template, var_item, var_item_template,
                      var_sample, var_seed=0.0, alpha=0.05, target_power=0.8) -> int:
    """Fewest questions reaching ``target_power`` (analytic engine), or −1 when the ceiling is below it or more than
    :data:`FACET_MAX_QUESTIONS` questions would be needed (tell them apart with :func:`facet_ceiling`).

    n = ⌈(var_item + var_item_template/T + var_sample/(TK)) / (SE*² − var_template/T − 2·var_seed/S)⌉ with
    SE* = |Δ|/(z_{1−α/2} + z_{target}); the denominator is ≤ 0 exactly when :func:`facet_ceiling` < target.

    >>> comps = {k: v for k, v in FACET_DEFAULTS.items() if k != "var_seed"}
    >>> facet_sample_size(0.02, templates=1, **comps), facet_sample_size(0.02, templates=10, **comps)
    (-1, 1863)
    """
    _, t, k, s, vt, vi, vit, vs, vseed = _check(1, templates, samples, seeds, var_template, var_item,
                                                var_item_template, var_sample, var_seed)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    alpha = check_alpha(alpha)
    target_power = check_probability("target_power", target_power, open_low=True, open_high=True)
    if delta == 0:
        raise ValueError("`delta` must be non-zero to size a comparison.")
    z = stats.norm.ppf(1.0 - alpha / 2.0) + stats.norm.ppf(target_power)
    room = (delta / z) ** 2 - vt / t - (0.0 if s is None else 2.0 * vseed / s)
    per_n = vi + vit / t + vs / (t * _answers(k, s))
    if room <= 0:
        return -1
    if per_n == 0:
        return 1
    need = math.ceil(per_n / room * (1 - 1e-12))
    return int(need) if need <= _N_MAX else -1


# ---------------------------------------------------------------------------
# the best split of a budget
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FacetPlan:
    """A whole-number design (n questions × T templates × K samples) and its SE, power and cost.

    ``calls`` = n·T·K per model; ``cost`` = 2·``cost_call``·calls (both models answer every cell). ``reached`` is
    False when ``target_power`` was asked for and no design within the budget reaches it (the plan is then the
    most powerful one). ``curve``: the best design for each T (tidy).
    """

    n: int
    templates: int
    samples: int
    se: float
    power: float
    cost: float
    calls: int
    reached: bool = True
    curve: pd.DataFrame = field(default=None, compare=False, repr=False)


def _power_of_se(delta, se, alpha):
    """Φ(|Δ|/SE − z_{1−α/2}) (significant in the right direction; Card et al. 2020, Figure 2), with the two limits
    the closed form leaves undefined: α at Δ = 0 (the false-positive rate of the two-sided test, as every power in
    this package reports it) and 1 at SE = 0 with Δ ≠ 0."""
    delta = np.abs(np.asarray(delta, dtype=float))
    se = np.asarray(se, dtype=float)
    z = stats.norm.ppf(1.0 - alpha / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        power = np.where(se > 0, stats.norm.cdf(delta / np.where(se > 0, se, 1.0) - z), 1.0)
    return np.where(delta == 0, alpha, power)


def facet_plan(delta, *, calls, var_template, var_item, var_item_template, var_sample, cost_call=1.0,
               max_templates=50, target_power=None, alpha=0.05, max_questions=None, seeds=None,
               var_seed=0.0) -> FacetPlan:
    """The best whole-number split of a budget of model calls between questions, templates and samples.

    Every (T, K) with T ≤ ``max_templates``, K ≤ 10,000 and n·T·K ≤ ``calls`` is evaluated (n the largest whole
    number of questions that fits, at most ``max_questions``); the plan has the smallest SE (most power; ties: more
    questions, then fewer calls — an SE that samples cannot move, with no question or sampling variance, is not
    bought with one question and a thousand samples). With
    ``target_power``, the plan is the cheapest design reaching it (fewest calls; ties: more power), the least n for
    each (T, K) in closed form from Var(D̂) ≤ SE*², SE* = |Δ|/(z_{1−α/2} + z_{power}). Without a cap on questions
    K = 1 is always best (n·K calls buy var/(nK)·(K·var_item + …): more questions shrink every term that more
    samples shrink); with a benchmark of ``max_questions`` questions, samples spend what questions cannot.
    The template trade-off: var_template/T + T·var_item/calls is smallest near T = √(calls·var_template/var_item).

    Parameters
    ----------
    delta : float
        Expected gain (score scale).
    calls : int
        Calls per model (n·T·K ≤ calls).
    var_template, var_item, var_item_template, var_sample : float
        As :func:`facet_se`.
    cost_call : float
        Cost of one call; ``cost`` counts both models.
    max_templates : int
        Largest T considered.
    target_power : float, optional
        Find the cheapest design reaching it instead of the most powerful one.
    alpha : float
    max_questions : int, optional
        Questions available (a fixed benchmark).
    seeds, var_seed : optional
        Two training recipes with S seed models each (:func:`facet_se`): every seed model answers the split, so
        ``calls`` are per seed model, the sampling term is var_sample/(nTKS), 2·var_seed/S stays whatever the split,
        and ``cost`` counts the 2·S models.
    """
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    calls = check_int("calls", calls, low=1, high=10**9)
    _, _, _, seeds, vt, vi, vit, vs, vseed = _check(1, 1, 1, seeds, var_template, var_item, var_item_template,
                                                    var_sample, var_seed)
    runs = 1 if seeds is None else seeds  # models per side
    fixed = vt + (0.0 if seeds is None else 2.0 * vseed / seeds)  # the terms no split shrinks (vt over T below)
    cost_call = check_real("cost_call", cost_call, low=0.0, high=1e9)
    max_templates = check_int("max_templates", max_templates, low=1, high=1000)
    alpha = check_alpha(alpha)
    if target_power is not None:
        target_power = check_probability("target_power", target_power, open_low=True, open_high=True)
    cap = _N_MAX if max_questions is None else check_int("max_questions", max_questions, low=1, high=_N_MAX)
    if vt + vi + vit + vs <= 0:
        raise ValueError("The variance components are all 0: at least one of `var_template`, `var_item`, "
                         "`var_item_template`, `var_sample` must be positive.")
    need = None
    if target_power is not None:
        if delta == 0:
            raise ValueError("`delta` must be non-zero with `target_power`.")
        z = stats.norm.ppf(1.0 - alpha / 2.0) + stats.norm.ppf(target_power)
        need = (delta / z) ** 2
    rows = []
    for t in range(1, min(max_templates, calls) + 1):
        k = np.arange(1, min(calls // t, 10_000) + 1, dtype=np.int64)
        n_max = np.minimum(calls // (t * k), cap)
        keep = n_max >= 1
        k, n_max = k[keep], n_max[keep]
        if not k.size:
            continue
        per_n = vi + vit / t + vs / (t * k * runs)
        stays = vt / t + (fixed - vt)
        if need is None:
            n_use = n_max
        else:
            room = need - stays
            if room <= 0:
                continue
            # compared as floats before the cast: at a gain of 10⁻¹⁰ the count exceeds int64 and wraps around
            n_float = np.maximum(np.ceil(per_n / room * (1 - 1e-12)), 1.0)
            ok = n_float <= n_max
            k, n_use, per_n = k[ok], n_float[ok].astype(np.int64), per_n[ok]
            if not k.size:
                continue
        se = np.sqrt(stays + per_n / n_use)
        used = n_use * t * k
        # only each T's best K is kept (the curve's row and a candidate for the plan): the whole (T, K) table has
        # up to 10⁷ rows (gigabytes at a billion calls); np.lexsort is stable, so ties keep the smaller K. Without a
        # target, an SE that K does not move (no question or sampling variance: only the template term) ties every
        # K; more questions then win, not the fewest calls, which had bought 1 question × 999 samples
        # SEs equal up to rounding (n·K the same product: 7 × 1 and 1 × 7 give …489 and …484) count as ties
        tied = _se_key(se)
        i = int(np.lexsort((-n_use, tied, used) if need is not None else (used, -n_use, tied))[0])
        rows.append((t, int(k[i]), int(n_use[i]), int(used[i]), float(se[i])))
    reached = True
    if not rows:
        if need is None:
            raise ValueError("`calls` is too small for one question.")
        reached = False
        return _best_plan(delta, calls, vt, vi, vit, vs, cost_call, max_templates, alpha, cap, reached, seeds,
                          vseed)
    curve = pd.DataFrame(rows, columns=["templates", "samples", "n", "calls", "se"])
    curve["power"] = _power_of_se(delta, curve["se"].to_numpy(), alpha)
    keyed = curve.assign(tied=_se_key(curve["se"].to_numpy()))
    if need is None:
        order = keyed.sort_values(["tied", "n", "calls"], ascending=[True, False, True], kind="mergesort")
    else:
        order = keyed.sort_values(["calls", "tied", "n"], ascending=[True, True, False], kind="mergesort")
    best = order.iloc[0]
    curve["cost"] = 2.0 * runs * cost_call * curve["calls"]
    return FacetPlan(n=int(best["n"]), templates=int(best["templates"]), samples=int(best["samples"]),
                     se=float(best["se"]), power=float(best["power"]),
                     cost=2.0 * runs * cost_call * float(best["calls"]),
                     calls=int(best["calls"]), reached=reached, curve=curve.reset_index(drop=True))


def _se_key(se: np.ndarray) -> np.ndarray:
    """SEs as a sort key in which values equal to 12 significant digits tie (log, rounded)."""
    with np.errstate(divide="ignore"):
        return np.round(np.log(np.asarray(se, dtype=float)), 12)


def _best_plan(delta, calls, vt, vi, vit, vs, cost_call, max_templates, alpha, cap, reached, seeds, vseed):
    plan = facet_plan(delta, calls=calls, var_template=vt, var_item=vi, var_item_template=vit, var_sample=vs,
                      cost_call=cost_call, max_templates=max_templates, alpha=alpha,
                      max_questions=None if cap == _N_MAX else cap, seeds=seeds, var_seed=vseed)
    return FacetPlan(n=plan.n, templates=plan.templates, samples=plan.samples, se=plan.se, power=plan.power,
                     cost=plan.cost, calls=plan.calls, reached=reached, curve=plan.curve)


# ---------------------------------------------------------------------------
# the page's curves
# ---------------------------------------------------------------------------
def facet_budget(n, *, templates=1, samples=1, seeds=None, var_template, var_item, var_item_template, var_sample,
                 var_seed=0.0) -> pd.DataFrame:
    """How much each facet contributes to SE² = Var(D̂): tidy ``component, variance, share, sd_points``."""
    args = _check(n, templates, samples, seeds, var_template, var_item, var_item_template, var_sample, var_seed)
    parts = np.array(_parts(*args))
    total = parts.sum()
    return pd.DataFrame({"component": list(FACET_COMPONENTS), "variance": parts,
                         "share": parts / total if total > 0 else np.zeros(5),
                         "sd_points": 100 * np.sqrt(parts)})


def facet_power_curve(ns, delta, *, templates_list=(1, 2, 5, 10), samples=1, seeds=None, var_template, var_item,
                      var_item_template, var_sample, var_seed=0.0, alpha=0.05) -> pd.DataFrame:
    """Analytic power vs questions, one curve per T: tidy ``n, templates, se, power, ceiling``."""
    rows = []
    for t in templates_list:
        # the engine checks every argument (seeds = 0 among them) before any term is formed
        facet_se(1, templates=t, samples=samples, seeds=seeds, var_template=var_template, var_item=var_item,
                 var_item_template=var_item_template, var_sample=var_sample, var_seed=var_seed)
        ceiling = facet_ceiling(delta, templates=t, var_template=var_template, alpha=alpha, seeds=seeds,
                                var_seed=var_seed)
        for size in ns:
            se = facet_se(size, templates=t, samples=samples, seeds=seeds, var_template=var_template,
                          var_item=var_item, var_item_template=var_item_template, var_sample=var_sample,
                          var_seed=var_seed)
            rows.append((int(size), int(t), se, float(_power_of_se(delta, se, alpha)), ceiling))
    return pd.DataFrame(rows, columns=["n", "templates", "se", "power", "ceiling"])


def teaser(delta=0.02, *, templates=1, alpha=0.05, var_template=FACET_DEFAULTS["var_template"]) -> str:
    """The one-line answer at the defaults, e.g. for the home page's card (:func:`core.llm.teaser.llm_facets_teaser`).

    Called as ``core.llm.facets.teaser``: it is left out of ``__all__``, because ``core.llm.teaser`` is the package's
    module of home-page cards (importing it rebinds that name on the package).

    >>> teaser()
    'With one prompt template, no number of questions gets past 52% power for +2 points.'
    """
    ceiling = facet_ceiling(delta, templates=templates, var_template=var_template, alpha=alpha)
    which = "one prompt template" if templates == 1 else f"{templates} prompt templates"
    if not delta:
        return f"With {which} and no gain, any number of questions rejects at the false-positive rate, {alpha:g}."
    return (f"With {which}, no number of questions gets past {100 * ceiling:.0f}% power for "
            f"{100 * delta:+g} points.")


# ---------------------------------------------------------------------------
# estimating the components from a log
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FacetFit:
    """Variance components estimated from a two-model log (score scale), with the gain and its test.

    ``se`` is the estimated SE of the log's own mean difference ``delta`` (the components plugged into
    :func:`facet_se` at the log's n, T, K) and ``df`` its Satterthwaite degrees of freedom. ``method`` is
    ``"anova"`` (balanced: expected mean squares) or ``"reml"`` (statsmodels MixedLM).
    """

    var_template: float
    var_item: float
    var_item_template: float
    var_sample: float
    delta: float
    se: float
    df: float
    n: int
    templates: int
    samples: int
    models: tuple[str, str]
    method: str
    notes: tuple[str, ...] = ()

    def kwargs(self) -> dict:
        """The components as keyword arguments of :func:`facet_power` and friends."""
        return {"var_template": self.var_template, "var_item": self.var_item,
                "var_item_template": self.var_item_template, "var_sample": self.var_sample}


def _column(columns, spellings, role, required=True):
    lowered = {str(c).strip().lower(): c for c in columns}
    hits = [lowered[s] for s in spellings if s in lowered]
    if len(hits) > 1:
        raise ValueError(f"The log: both {hits[0]!r} and {hits[1]!r} could be the `{role}` column; rename or remove "
                         "one.")
    if not hits and required:
        raise ValueError(f"The log needs a `{role}` column (also accepted: {', '.join(spellings[1:])}); it has "
                         + ", ".join(repr(str(c)) for c in list(columns)[:20]) + ".")
    return hits[0] if hits else None


def _differences(log, baseline):
    """The paired differences d = score_B − score_A with integer codes for question, template and sample."""
    if not isinstance(log, pd.DataFrame):
        raise ValueError("`log` must be a pandas DataFrame with columns model, question, template, sample, score.")
    cols = log.columns
    c_model, c_q, c_s = _column(cols, _MODEL, "model"), _column(cols, _QUESTION, "question"), \
        _column(cols, _SCORE, "score")
    c_t, c_k = _column(cols, TEMPLATE_ALIASES, "template", False), _column(cols, _SAMPLE, "sample", False)
    # positional columns (a log's index may be shuffled or repeated)
    frame = pd.DataFrame({"model": log[c_model].astype(str).to_numpy(), "question": log[c_q].astype(str).to_numpy(),
                          "template": log[c_t].astype(str).to_numpy() if c_t is not None else "1"})
    score = pd.to_numeric(log[c_s].map(lambda v: {"true": 1.0, "false": 0.0}.get(str(v).strip().lower(), v)),
                          errors="coerce")
    bad = np.flatnonzero(~np.isfinite(score.to_numpy(dtype=float)))
    if bad.size:
        raise ValueError(f"The log: the score on row {bad[0] + 1:,} ({log[c_s].iloc[bad[0]]!r}) is not a number.")
    frame["score"] = score.to_numpy(dtype=float)
    models = list(dict.fromkeys(frame["model"]))
    if len(models) != 2:
        raise ValueError(f"The log must contain exactly two models (baseline and new); it has {len(models)}: "
                         + ", ".join(repr(m) for m in models[:10]) + ".")
    if baseline is not None:
        if str(baseline) not in models:
            raise ValueError(f"`baseline` must be one of {models[0]!r}, {models[1]!r}, got {baseline!r}.")
        models = [str(baseline), models[1] if models[0] == str(baseline) else models[0]]
    if c_k is not None:
        frame["sample"] = log[c_k].astype(str).to_numpy()
        dup = frame.duplicated(["model", "question", "template", "sample"])
        if dup.any():
            row = int(np.flatnonzero(dup.to_numpy())[0])
            raise ValueError(f"The log: row {row + 1:,} repeats a model, question, template and sample.")
    else:  # repeated answers are numbered in order
        frame["sample"] = frame.groupby(["model", "question", "template"]).cumcount().astype(str)
    keys = ["question", "template", "sample"]
    a = frame[frame["model"] == models[0]].set_index(keys)["score"]
    b = frame[frame["model"] == models[1]].set_index(keys)["score"]
    both = a.index.intersection(b.index)
    notes = []
    dropped = len(a) + len(b) - 2 * len(both)
    if dropped:
        notes.append(f"{dropped:,} answers without a partner (same question, template and sample) in the other "
                     "model were left out.")
    if not len(both):
        raise ValueError("The log: no question, template and sample was answered by both models.")
    d = (b.loc[both] - a.loc[both]).reset_index()
    d.columns = ["question", "template", "sample", "d"]
    return d, tuple(models), c_t is not None, notes


def _ems_df(vt, vi, vit, vs, n, t, k):
    """Satterthwaite df of Var̂(D̂) at the expected mean squares (used for the REML fit)."""
    e = [vs + k * vit + n * k * vt, vs + k * vi * t + k * vit, vs + k * vit, vs]
    ms = [np.array([x]) for x in e]
    c = _coefficients(n, t, k, *ms)
    var, df = _satterthwaite([ci * m for ci, m in zip(c, ms)],
                             [t - 1, n - 1, (n - 1) * (t - 1), n * t * (k - 1)])
    return float(df[0])


def fit_facets(log, *, baseline=None) -> FacetFit:
    """Estimate the facets' variance components from a long log of two models.

    Parameters
    ----------
    log : pandas.DataFrame
        One row per answer: ``model``, ``question``, ``template`` (also ``prompt``, ``prompt_id``, ``template_id``,
        ``fewshot_seed``; absent = one template), ``sample`` (optional; repeated answers are numbered in order) and
        ``score`` (0–1 or true/false). Exactly two models; the first listed is the baseline A.
    baseline : str, optional
        Name of the baseline model.

    Returns
    -------
    FacetFit

    Notes
    -----
    Differences d = score_B − score_A are paired by question, template and sample. **Balanced** logs (every
    question under every template, K answers in every cell) get the ANOVA (expected-mean-square) estimates of the
    crossed p × o design with replications (Brennan 2001, ch. 3; Searle et al. 1992, ch. 4):
    σ̂²_sample = MS_E, σ̂²_item×template = (MS_IT − MS_E)/K, σ̂²_item = (MS_I − MS_IT)/(TK),
    σ̂²_template = (MS_T − MS_IT)/(nK). Other logs are fitted by REML (statsmodels ``MixedLM``: questions as groups
    with a random intercept and a question × template variance component, templates as fixed effects, the template
    component by moments from them; see :func:`_reml`; up to ``REML_MAX_ROWS`` differences). Negative estimates are
    set to 0 with a note. With one template the template component is not estimable (it is part of the gain itself)
    and is reported as 0; with K = 1 the item × template term and the sampling noise cannot be told apart and are reported together as
    ``var_item_template`` (``var_sample`` = 0).
    """
    d, models, has_template, notes = _differences(log, baseline)
    q_codes, q_labels = pd.factorize(d["question"])
    t_codes, t_labels = pd.factorize(d["template"])
    n, t = len(q_labels), len(t_labels)
    if n < 2:
        raise ValueError("The log needs at least 2 questions answered by both models.")
    cell = q_codes * t + t_codes
    counts = np.bincount(cell, minlength=n * t)
    balanced = counts.min() > 0 and counts.min() == counts.max()
    if not has_template:
        notes.append("No template column (template, prompt, prompt_id, template_id or fewshot_seed): one template.")
    if t == 1:
        notes.append("One template: the model × template component cannot be estimated (it is part of the measured "
                     "gain); it is reported as 0. Evaluate under several templates to measure it.")
    if balanced:
        k = int(counts[0])
        order = np.lexsort((d["sample"].to_numpy(), t_codes, q_codes))
        y = d["d"].to_numpy(dtype=float)[order].reshape(n, t, k)
        grand = y.mean()
        m_it = y.mean(axis=2)
        m_i, m_t = m_it.mean(axis=1), m_it.mean(axis=0)
        ms_i = t * k * ((m_i - grand) ** 2).sum() / (n - 1)
        ms_t = n * k * ((m_t - grand) ** 2).sum() / (t - 1) if t > 1 else 0.0
        inter = m_it - m_i[:, None] - m_t[None, :] + grand
        ms_it = k * (inter ** 2).sum() / ((n - 1) * (t - 1)) if t > 1 else 0.0
        ms_e = ((y - m_it[:, :, None]) ** 2).sum() / (n * t * (k - 1)) if k > 1 else 0.0
        raw = {}
        if t > 1:
            raw["var_template"] = (ms_t - ms_it) / (n * k)
            raw["var_item"] = (ms_i - ms_it) / (t * k)
            raw["var_item_template"] = (ms_it - ms_e) / k if k > 1 else ms_it
        else:
            raw["var_template"] = 0.0
            raw["var_item"] = (ms_i - ms_e) / k if k > 1 else ms_i
            raw["var_item_template"] = 0.0
        raw["var_sample"] = ms_e if k > 1 else 0.0
        arrays = [np.array([x]) for x in (ms_t, ms_i, ms_it, ms_e)]
        c = _coefficients(n, t, k, *arrays)
        var_hat, df = _satterthwaite([ci * m for ci, m in zip(c, arrays)],
                                     [t - 1, n - 1, (n - 1) * (t - 1), n * t * (k - 1)])
        se, df, delta, method = math.sqrt(max(float(var_hat[0]), 0.0)), float(df[0]), float(grand), "anova"
    else:
        k = int(round(counts[counts > 0].mean()))
        raw, delta, se = _reml(d, q_codes, t_codes, t, int(counts.max()))
        method = "reml"
        notes.append(f"Unbalanced log ({int((counts == 0).sum()):,} question × template cells empty, "
                     f"{counts[counts > 0].min()}–{counts.max()} answers per cell): REML estimates (statsmodels "
                     "MixedLM; the template component by moments from the template means); the degrees of freedom "
                     "are Satterthwaite's at the mean K.")
        df = math.nan
    if k == 1 and t > 1:
        notes.append("One answer per cell: the question × template term and the sampling noise are reported "
                     "together as the question × template component.")
    if not all(math.isfinite(float(v)) for v in raw.values()) or not math.isfinite(float(se)) or se <= 0:
        raise ValueError("The two models' paired differences do not vary (every question and template gives the "
                         "same difference): no variance component can be estimated from these logs.")
    comps = {}
    for name, value in raw.items():
        if value < 0:
            notes.append(f"The estimate of `{name}` was negative ({value:.2e}) and is set to 0.")
        comps[name] = max(float(value), 0.0)
    if method == "reml":
        df = _ems_df(comps["var_template"], comps["var_item"], comps["var_item_template"], comps["var_sample"],
                     n, t, max(k, 1))
    return FacetFit(**comps, delta=delta, se=float(se), df=float(df), n=n, templates=t, samples=k, models=models,
                    method=method, notes=tuple(notes))


def _reml(d, q_codes, t_codes, t, k_max):
    """REML estimates for an unbalanced log (statsmodels ``MixedLM``) and the gain with its standard error.

    Questions are the groups: a random intercept per question (``var_item``), a random deviation per question and
    template (``var_item_template``, a variance component), residual ``var_sample``; the template means enter as
    fixed effects ĉ_t. Fitting the template facet as a third crossed random effect puts all answers in one group,
    where MixedLM's dense algebra takes minutes for a thousand answers; with templates fixed the fit takes a
    fraction of a second and gives the same within-template components. The template component is then the
    moment estimate from the fixed effects: E[Σ_t (ĉ_t − c̄)²] = (T − 1)·σ²_template + tr(P Σ̂ P), with P the
    centring matrix and Σ̂ the fixed effects' covariance (Searle et al. 1992, ch. 5, for unbalanced moments).
    D̂ is the plain mean of the template means, Var(D̂) = σ̂²_template/T + 1ᵀΣ̂1/T².
    """
    if len(d) > REML_MAX_ROWS:
        raise ValueError(f"The log is unbalanced and has {len(d):,} paired answers; the REML fit takes at most "
                         f"{REML_MAX_ROWS:,}. Keep the questions answered under every template with the same number "
                         "of samples (a balanced log is fitted at any size).")
    import warnings

    import statsmodels.api as sm

    frame = pd.DataFrame({"d": d["d"].to_numpy(dtype=float), "q": q_codes, "t": t_codes})
    vc = {"qt": "0 + C(t)"} if t > 1 and k_max > 1 else None
    formula = "d ~ 0 + C(t)" if t > 1 else "d ~ 1"
    model = sm.MixedLM.from_formula(formula, groups="q", re_formula="1", vc_formula=vc, data=frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = model.fit(reml=True)
    fe = np.asarray(fitted.fe_params, dtype=float)
    cov = np.asarray(fitted.cov_params(), dtype=float)[: len(fe), : len(fe)]
    raw = {"var_item": float(np.asarray(fitted.cov_re)[0, 0]), "var_sample": float(fitted.scale)}
    raw["var_item_template"] = float(np.asarray(fitted.vcomp)[0]) if vc else 0.0
    if t > 1 and not vc:  # one answer per cell: the residual holds item × template and sample
        raw["var_item_template"], raw["var_sample"] = raw["var_sample"], 0.0
    if t > 1:
        centre = np.eye(t) - 1.0 / t
        spread = float(((fe - fe.mean()) ** 2).sum())
        raw["var_template"] = (spread - float(np.trace(centre @ cov @ centre))) / (t - 1)
    else:
        raw["var_template"] = 0.0
    var_mean = float(cov.sum()) / len(fe) ** 2
    return raw, float(fe.mean()), math.sqrt(max(raw["var_template"], 0.0) / t + var_mean)


def read_harness_templates(files, *, metric=None, filter=None) -> pd.DataFrame:
    """lm-evaluation-harness ``--log_samples`` files, one per model and prompt variant (or few-shot seed).

    ``files`` as :func:`core.llm.read_harness_samples` (``[(model, file_name, bytes), …]``, baseline first); the
    k-th file of each model is template k (the same prompt variant for both models). Returns the long log of
    :func:`fit_facets`: ``question, model, template, sample, score``.
    """
    log = read_harness_samples(files, metric=metric, filter=filter, files_per_model="runs")
    out = pd.DataFrame({"question": log["question"], "model": log["model"],
                        "template": (log["sample"].astype(int) + 1).map(lambda v: f"template {v}"),
                        "sample": 0, "score": log["score"]})
    out.attrs.update(log.attrs)
    return out

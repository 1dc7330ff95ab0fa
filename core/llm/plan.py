"""The LLM-benchmark page's plan: questions × samples × clusters × judge error, in words.

The variance model is Miller (2024), "Adding Error Bars to Evals", with a judge's misclassification entering by
Rogan & Gladen (1978); power, Type-M and Type-S follow Card et al. (2020).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from . import BenchmarkDesign, FacetDesign
from .items import SubsetDesign
from ..sizing import SampleSize
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_level, fmt_money, fmt_pct, fmt_ratio
from ..validation import check_type

__all__ = ["plan_item", "facet_plan_item", "subset_plan_item"]

REFERENCES = (
    "Miller (2024). Adding Error Bars to Evals: A Statistical Approach to Language Model Evaluations. "
    "arXiv 2411.00640.",
    "Card et al. (2020). With Little Power Comes Great Responsibility. EMNLP.",
    "Rogan & Gladen (1978). Estimating prevalence from the results of a screening test.",
)

FACET_REFERENCES = (
    "Cronbach, Gleser, Nanda & Rajaratnam (1972). The Dependability of Behavioral Measurements. Wiley.",
    "Brennan (2001). Generalizability Theory. Springer.",
    "Sclar, Choi, Tsvetkov & Suhr (2024). Quantifying Language Models' Sensitivity to Spurious Features in Prompt "
    "Design. ICLR.",
    "Madaan et al. (2024). Quantifying Variance in Evaluation Benchmarks. arXiv 2406.10229.",
    "Satterthwaite (1946). An approximate distribution of estimates of variance components. Biometrics Bulletin 2.",
    "Card et al. (2020). With Little Power Comes Great Responsibility. EMNLP.",
)


def _get(row, name: str) -> float:
    """A field of an assurance result: a table row (the page's cached curve) or a result object."""
    try:
        return float(row[name])
    except (TypeError, KeyError, IndexError):
        return float(getattr(row, name))


def plan_item(design: BenchmarkDesign, result, *, target_power: float, mde: float = math.nan,
              sizes: SampleSize | None = None, cheapest=None, assurance=None,
              prior: tuple[float, float, str] | None = None, currency: str = "", figures: tuple = (), link: str = "",
              code: str = "", sources: Mapping[str, str] | None = None) -> PlanItem:
    """The plan of one two-model benchmark comparison, as the LLM page shows it.

    Parameters
    ----------
    design : BenchmarkDesign
        The comparison (accuracies, difficulty spread, correlation, K samples, clusters, whether answers are
        ``judged`` by an LLM judge and its Se / Sp, α), its ``n`` questions and its unit costs: the design's cost is
        n × (cost per question + 2 × K × cost per answer), left out when both unit costs are 0.
    result : PowerResult
        Power, Type-M and Type-S at ``design.n`` questions.
    target_power : float
        The power the sizes aim at (a page-level setting; the design holds none).
    mde : float
        Smallest gain (a fraction) detected with ``target_power`` at ``n``; ``inf`` when not reachable.
    sizes : SampleSize, optional
        Questions reaching ``target_power`` at this K (None when the gain is 0).
    cheapest : BenchmarkPlan, optional
        The cheapest (questions, K) design reaching the target (``n_questions``, ``samples``, ``cost``).
    assurance : mapping or object, optional
        ``assurance`` and ``ceiling`` of the power averaged over ``prior``.
    prior : (mean, sd, source), optional
        The normal prior on the gain in points.
    currency :
        The currency label of the costs.
    figures, link, code :
        Passed through to the plan.
    sources : mapping, optional
        Where ``"n"``, ``"acc_a"``, ``"sd"``, ``"rho"``, ``"k"``, ``"m"``, ``"icc"`` came from when not from a
        slider (a fit to uploaded logs).

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> d = BenchmarkDesign(0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    >>> plan_item(d.with_(n=2000), d.power(2000), target_power=0.8).results[0]
    ('power', '64.3%')
    """
    check_type("design", design, BenchmarkDesign)
    sources = dict(sources or {})

    def source(key: str) -> str:
        return sources.get(key, "slider")

    acc_a, gain = 100 * design.accuracy_a, 100 * design.delta
    sd, rho, k, m, icc, alpha = (design.difficulty_sd, design.correlation, design.samples, design.cluster_size,
                                 design.icc, design.alpha)
    se_pct, sp_pct = 100 * design.se, 100 * design.sp  # the grading in effect (exact unless judged)
    n, judged = design.n, design.judged
    cost_q, cost_s = design.cost_question, design.cost_sample
    cost = n * (cost_q + 2 * k * cost_s) if (cost_q or cost_s) else None  # two models, K graded answers each
    judge_text = (f", answers graded by an LLM judge with sensitivity {se_pct:.0f}% and specificity {sp_pct:.0f}%"
                  if judged else "")
    cluster_text = f" in clusters of {m} (ICC {icc:.2f})" if m > 1 else ""
    df_text = f" with cluster-robust standard errors and {-(-n // m) - 1:,} degrees of freedom" if m > 1 else ""
    sentence = (f"With {n:,} questions{cluster_text}, {k} sampled answer{'s' if k > 1 else ''} per question and model"
                f"{judge_text}, a baseline accuracy of {acc_a:.1f}%, a difficulty spread of σ = {sd:.2f} and a "
                f"correlation of ρ = {rho:.2f} between the models, a two-sided t test of the mean paired difference"
                f"{df_text} at α = {alpha:g} detects a {gain:+.1f}-point gain with {fmt_pct(result.power, 0)} power")
    if round(gain, 9) and math.isfinite(result.type_m):
        sentence += f"; a significant result would overstate the gain by {result.type_m:.2f}× on average"
    sentence += " (Miller, 2024; Card et al., 2020)."
    if sizes is not None and sizes.first > 0:
        sentence += f" Reaching {target_power:.0%} power takes {sizes.first:,} questions at this K."
    if cheapest is not None and cheapest.n_questions > 0:
        sentence += (f" The cheapest design reaching it is {cheapest.n_questions:,} questions × {cheapest.samples} "
                     f"answers, costing {fmt_money(cheapest.cost, currency)}.")
    assured = None if assurance is None or prior is None else (_get(assurance, "assurance"),
                                                                _get(assurance, "ceiling"))
    if assured is not None:
        sentence += (f" Averaged over a normal prior on the gain (mean {prior[0]:+.1f}, SD {prior[1]:.1f} points), the "
                     f"assurance is {fmt_pct(assured[0], 0)} (ceiling {fmt_pct(assured[1], 0)}).")
    assumptions = [Assumption("questions n", f"{n:,}", source("n")),
                   Assumption("baseline accuracy", f"{acc_a:.1f}%", source("acc_a")),
                   Assumption("expected gain", f"{gain:+.1f} points", "slider"),
                   Assumption("difficulty spread σ", f"{sd:.2f}", source("sd")),
                   Assumption("correlation ρ", f"{rho:.2f}", source("rho")),
                   Assumption("samples per question K", str(k), source("k")),
                   Assumption("questions per cluster m", str(m), source("m"))]
    if m > 1:
        assumptions.append(Assumption("ICC", f"{icc:.2f}", source("icc")))
    if judged:
        assumptions.append(Assumption("judge sensitivity / specificity", f"{se_pct:.1f}% / {sp_pct:.1f}%", "slider"))
    if assured is not None:
        assumptions.append(Assumption("prior on the gain", f"N({prior[0]:+.1f}, {prior[1]:.1f}²) points", prior[2]))
    results = [("power", fmt_pct(result.power)), ("Type-M", fmt_ratio(result.type_m)),
               ("Type-S", fmt_pct(result.type_s, 2)),
               (f"MDE at {target_power:.0%} power", "not reachable" if not math.isfinite(mde) else
                f"{100 * mde:.2f} points")]
    if sizes is not None:
        results.append((f"questions for {target_power:.0%} power", f"{sizes.first:,}" if sizes.first > 0
                        else "not reachable"))
    if cheapest is not None and cheapest.n_questions > 0:
        results.append(("cheapest design", f"{cheapest.n_questions:,} questions × K = {cheapest.samples} "
                                           f"({fmt_money(cheapest.cost, currency)})"))
    if assured is not None:
        results += [("assurance", fmt_pct(assured[0])), ("assurance ceiling", fmt_pct(assured[1]))]
    return PlanItem(
        scenario="LLM benchmark", question=f"Can {n:,} questions detect a {gain:+.1f}-point gain between two language "
        "models?", assumptions=tuple(assumptions),
        test="two-sided t test of the mean paired difference" + (" (cluster-robust SE, t on G − 1 df)" if m > 1 else ""),
        alpha=alpha, results=tuple(results), paragraph=sentence, cost=cost, currency=currency, figures=tuple(figures),
        link=link, code=code, references=REFERENCES)


def facet_plan_item(design: FacetDesign, result, *, ceiling: float, se: float, target_power: float, best=None,
                    currency: str = "", figures: tuple = (), link: str = "", code: str = "",
                    sources: Mapping[str, str] | None = None) -> PlanItem:
    """The plan of a comparison over questions × prompt templates × samples (× seeds), as the LLM page's "Prompts
    and seeds" tab shows it (generalizability theory: Cronbach et al. 1972; Brennan 2001).

    Parameters
    ----------
    design : FacetDesign
        The tab's design: n questions, the gain Δ (score scale), T prompt templates, K samples per cell, the
        variance components (:meth:`FacetDesign.components`), S training seeds per recipe when recipes are compared
        (:attr:`FacetDesign.seeds_used`; otherwise two fixed models), α, the calls per model and the cost per call.
    result : PowerResult
        Power, Type-M and Type-S of the design (:meth:`FacetDesign.power`, :func:`core.llm.facet_power`).
    ceiling : float
        Power as n → ∞ at this T (:meth:`FacetDesign.ceiling`).
    se : float
        SE of the mean difference (:meth:`FacetDesign.se`).
    target_power : float
        The page's target power (a sidebar setting, not a field of the design).
    best : FacetPlan, optional
        The best split of the design's calls per model (:meth:`FacetDesign.plan`); with it, the plan states the
        split and, when the cost per call is positive, the cost of the current design, 2·S·n·T·K × cost per call
        (S = 1 for two fixed models).
    currency : str
        The page's currency label.
    figures, link, code :
        Passed through to the plan.
    sources : mapping, optional
        Where each component came from (default "assumption (page defaults)").

    Examples
    --------
    >>> d = FacetDesign(templates=5)
    >>> item = facet_plan_item(d, d.power(), ceiling=d.ceiling(), se=d.se(), target_power=0.8)
    >>> item.results[0]
    ('power', '43.4%')
    """
    check_type("design", design, FacetDesign)
    n, delta, templates, samples, seeds = design.n, design.delta, design.templates, design.samples, design.seeds_used
    components, alpha = design.components(), design.alpha
    calls = design.calls if best is not None else None
    runs = seeds or 1  # models per side: S seed models per recipe each answer the whole grid
    cost = 2 * runs * n * templates * samples * design.cost_call if best is not None and design.cost_call else None
    sources = dict(sources or {})
    gain = 100 * delta
    ordered = 0.5 if se <= 0 else float(_phi(abs(delta) / se)) if delta else 0.5
    names = (("var_template", "model × template SD"), ("var_item", "model × question SD"),
             ("var_item_template", "model × question × template SD"), ("var_sample", "sampling noise SD"))
    assumptions = [Assumption("questions n", f"{n:,}", sources.get("n", "set on the page")),
                   Assumption("prompt templates T", str(templates), sources.get("templates", "set on the page")),
                   Assumption("samples per cell K", str(samples), sources.get("samples", "set on the page")),
                   Assumption("expected gain", f"{gain:+.1f} points", "set on the page")]
    for key, label in names:
        assumptions.append(Assumption(label, f"{100 * math.sqrt(components[key]):.2f} points",
                                      sources.get(key, "assumption (page defaults)")))
    if seeds is not None:
        assumptions += [Assumption("training seeds per recipe S", str(seeds), sources.get("seeds", "set on the page")),
                        Assumption("seed-to-seed SD of a run's score",
                                   f"{100 * math.sqrt(components.get('var_seed', 0.0)):.2f} points",
                                   sources.get("var_seed", "assumption (page defaults)"))]
    which = "one prompt template" if templates == 1 else f"{templates} prompt templates"
    sentence = (f"Both models answer {n:,} questions under {which}, {samples} sample{'s' if samples > 1 else ''} per "
                f"question and template" + (f", with {seeds} training seeds per recipe" if seeds else "") +
                f". With the variance components listed (generalizability theory; Brennan, 2001), the mean paired "
                f"difference has a standard error of {100 * se:.2f} points, and a two-sided test at α = {alpha:g} "
                f"detects a {gain:+.1f}-point gain with {fmt_pct(result.power, 0)} power")
    if delta and math.isfinite(result.type_m):
        sentence += f"; a significant result would overstate the gain by {result.type_m:.2f}× on average"
    sentence += (f". However many questions are added, power stays below {fmt_pct(ceiling, 0)} with {which}, "
                 "because the model × template interaction does not average out over questions (Card et al., 2020, "
                 "for power and Type-M).")
    results = [("power", fmt_pct(result.power)), ("Type-M", fmt_ratio(result.type_m)),
               ("Type-S", fmt_pct(result.type_s, 2)), ("SE of the gain", f"{100 * se:.2f} points"),
               ("ceiling as n → ∞", fmt_pct(ceiling)), ("P(correct order)", fmt_pct(ordered)),
               ("signal-to-noise Δ/SE", f"{abs(delta) / se:.2f}" if se > 0 else "—")]
    if best is not None and calls:
        per = "per seed model" if seeds else "per model"
        plural = "" if best.samples == 1 else "s"
        results.append((f"best split of {calls:,} calls {per}",
                        f"{best.n:,} questions × {best.templates} templates × {best.samples} sample{plural} "
                        f"(power {fmt_pct(best.power)})"))
        sentence += (f" Within {calls:,} calls {per}, the most powerful split is {best.n:,} questions × "
                     f"{best.templates} templates × {best.samples} sample{plural} ({fmt_pct(best.power, 0)} power).")
    return PlanItem(
        scenario="LLM benchmark: prompts and seeds",
        question=f"Can {n:,} questions under {which} detect a {gain:+.1f}-point gain between two language models?",
        assumptions=tuple(assumptions),
        test="two-sided test of the mean paired difference over questions × templates (Satterthwaite t on the "
             "ANOVA estimates when analysed)", alpha=alpha, results=tuple(results), paragraph=sentence, cost=cost,
        currency=currency, figures=tuple(figures), link=link, code=code, references=FACET_REFERENCES)


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))
SUBSET_REFERENCES = (
    "Cochran (1977). Sampling Techniques, 3rd ed., ch. 2–3 (finite-population correction), ch. 7 (difference estimator).",
    "Polo et al. (2024). tinyBenchmarks: evaluating LLMs with fewer examples. ICML.",
)


def subset_plan_item(design: SubsetDesign, *, se: float, agreement: float, m_for_halfwidth: int,
                     m_for_agreement: int, link: str = "", code: str = "") -> PlanItem:
    """The plan of the LLM page's "Run a subset instead" tab (:mod:`core.llm.subset`): the design's numbers, in words.

    ``design`` gives m, N, the accuracy, the items only A / only B gets right, the half-width, the target agreement
    and the seed; ``se``, ``agreement``, ``m_for_halfwidth`` and ``m_for_agreement`` are its results
    (:meth:`SubsetDesign.se`, :meth:`~SubsetDesign.agreement`, :meth:`~SubsetDesign.size_for_halfwidth`,
    :meth:`~SubsetDesign.size_for_agreement`).

    Examples
    --------
    >>> d = SubsetDesign(n_total=5000, m=500, accuracy=0.7, a_only_share=0.05, b_only_share=0.08)
    >>> subset_plan_item(d, se=0.0194, agreement=0.99, m_for_halfwidth=1438, m_for_agreement=300).results[0]
    ('SE vs the full run', '0.0194')
    """
    m, n_total, accuracy, a_only, b_only = design.m, design.n_total, design.accuracy, design.a_only, design.b_only
    halfwidth, target_agreement, seed = design.halfwidth, design.target_agreement, design.seed
    z = 1.959963984540054
    sentence = (f"Instead of all {n_total:,} items we evaluate a seeded random subset of {m:,} (seed {seed}), the same "
                f"for both models (not the first {m:,}). At an accuracy of {fmt_level(accuracy)} the subset's score is "
                f"within ±{100 * z * se:.1f} points of the full run's (95%, with the finite-population correction); ±"
                f"{100 * halfwidth:g} points need {m_for_halfwidth:,} items. With {a_only:,} items only A gets right "
                f"and {b_only:,} only B gets right, the subset picks the full run's winner with probability "
                f"{fmt_pct(agreement)} (exact hypergeometric; a tie counts one half); {fmt_level(target_agreement)} "
                f"needs {m_for_agreement:,} items.")
    return PlanItem(
        scenario="LLM benchmarks — a subset instead of the full run",
        question=f"How far is a {m:,}-item subset from the full {n_total:,}-item run, and does it pick the same "
                 "winner?",
        assumptions=(Assumption("benchmark items N", f"{n_total:,}", "slider"),
                     Assumption("accuracy", f"{accuracy:.1%}", "slider"),
                     Assumption("items only A / only B gets right", f"{a_only:,} / {b_only:,}", "slider")),
        test="simple random sample without replacement; exact multivariate hypergeometric agreement", alpha=0.05,
        results=(("SE vs the full run", f"{se:.4f}"), ("95% of full run", f"±{100 * z * se:.1f} pts"),
                 ("Same winner as the full run", fmt_pct(agreement)),
                 (f"items for ±{100 * halfwidth:g} pts", f"{m_for_halfwidth:,}"),
                 (f"items for {fmt_level(target_agreement)} same winner", f"{m_for_agreement:,}")),
        paragraph=sentence, link=link, code=code, references=SUBSET_REFERENCES)

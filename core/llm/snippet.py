"""The LLM page's "Python code for this view": the benchmark design (Miller 2024), the "Prompts and seeds" tab
(generalizability theory, Brennan 2001) and the "Run a subset instead" tab (Cochran 1977).

Each script prints the metrics row of its view with :mod:`core.llm`; the shared header and literals come from
:mod:`core.snippets`.
"""

from __future__ import annotations

from ..snippets import HEADER, kwargs_literal, literal, prior_ok
from . import BenchmarkDesign, FacetDesign
from ..validation import check_type

__all__ = ["llm_snippet", "llm_facets_snippet", "subset_snippet"]


def llm_snippet(design: BenchmarkDesign, *, target_power: float,
                prior: tuple[float, float] | None = None) -> str:
    """Script for the LLM benchmark page (:mod:`core.llm`) at ``design``.

    Parameters
    ----------
    design : BenchmarkDesign
        The page's design: its engine keyword arguments (:meth:`BenchmarkDesign.kwargs`: accuracies, spread,
        correlation, K, clusters, the grading in effect, ``alpha``), its ``n`` questions and its unit costs
        ``cost_question`` and ``cost_sample``; when either cost is positive, the cheapest (n, K) of
        :func:`core.llm.benchmark_plan` is printed too.
    target_power : float
        The page's target power (a sidebar setting, not a field of the design).
    prior : (mean, sd) in accuracy points, optional
        Prior on the gain for the assurance (:func:`core.llm.benchmark_assurance`).

    Examples
    --------
    >>> code = llm_snippet(BenchmarkDesign(), target_power=0.8)
    >>> "n = 1000" in code and "llm.benchmark_plan(" in code
    True
    """
    check_type("design", design, BenchmarkDesign)
    n, cost_question, cost_sample = design.n, design.cost_question, design.cost_sample
    kw = design.kwargs()  # the effective values: perfect grading unless judged, no ICC for single questions
    gain = kw["accuracy_b"] - kw["accuracy_a"]
    lines = [HEADER, "from core import llm", "",
             f"design = {kwargs_literal(kw)}", f"n = {int(n)!r}", f"target_power = {literal(float(target_power))}", "",
             "res = llm.benchmark_power(n, **design)",
             f"print({'Power' if gain else 'False-positive rate'!r} + ':', pct(res.power))",
             "print('Type-M (exaggeration):', ratio(res.type_m))",
             "print('Type-S (wrong sign):', pct(res.type_s, 2))",
             "no_b = {k: v for k, v in design.items() if k != 'accuracy_b'}",
             "mde = llm.benchmark_mde(n, **no_b, target_power=target_power)",
             "print(f'MDE at {target_power:.0%} power:', "
             "'not reachable' if not math.isfinite(mde) else f'{100 * mde:.2f} pts')"]
    if gain:
        lines += ["sizes = llm.benchmark_sample_sizes(**design, target_power=target_power)",
                  "print(f'Questions for {target_power:.0%} power:', first_n(sizes, 10_000_000))"]
        if cost_question or cost_sample:
            lines += ["no_k = {k: v for k, v in design.items() if k != 'samples'}",
                      f"best = llm.benchmark_plan(**no_k, cost_question={literal(float(cost_question))}, "
                      f"cost_sample={literal(float(cost_sample))}, target_power=target_power, max_samples=50)",
                      "# the page shows this under its metrics row",
                      "print(f'Cheapest design for {target_power:.0%} power:', 'not reachable' if best.n_questions < 0 "
                      "else f'{best.n_questions:,} questions × {best.samples} answers each')"]
    if prior_ok(prior):
        lines += ["# the prior on the gain, in accuracy points",
                  f"prior_mean, prior_sd = {literal(float(prior[0]))}, {literal(float(prior[1]))}",
                  "assured = llm.benchmark_assurance(n, delta_mean=prior_mean / 100, delta_sd=prior_sd / 100, **no_b)",
                  "print('Assurance:', pct(assured.assurance))"]
    return "\n".join(lines) + "\n"


def llm_facets_snippet(design: FacetDesign, *, target_power: float) -> str:
    """Script for the LLM page's "Prompts and seeds" tab (:mod:`core.llm.facets`) at ``design``.

    The design gives n, the gain (score scale: 0.02 = 2 points), T templates, K samples, the variance components
    (:meth:`FacetDesign.components`; ``var_seed`` only when training recipes are compared, with S seeds), α and the
    calls per model. With a non-zero gain the best split of those calls is printed too (:func:`core.llm.facet_plan`,
    as the tab shows it: it finds one for every design :class:`FacetDesign` accepts). ``target_power`` is the page's
    setting (not a field of the design).

    Examples
    --------
    >>> code = llm_facets_snippet(FacetDesign(), target_power=0.8)
    >>> "n, delta = 1000, 0.02" in code and "llm.facet_plan(delta, calls=20000," in code
    True
    """
    check_type("design", design, FacetDesign)
    n, delta, templates, samples, seeds = design.n, design.delta, design.templates, design.samples, design.seeds_used
    alpha, calls = design.alpha, design.calls if design.delta else None
    comps = {k: float(v) for k, v in design.components().items()}
    if seeds is None:
        comps.pop("var_seed", None)
    lines = [HEADER, "from scipy import stats", "", "from core import llm", "",
             f"components = {kwargs_literal(comps)}",
             f"n, delta = {int(n)!r}, {literal(float(delta))}",
             f"design = dict(templates={int(templates)!r}, samples={int(samples)!r}, seeds={literal(seeds)})",
             f"alpha, target_power = {literal(float(alpha))}, {literal(float(target_power))}", "",
             "res = llm.facet_power(n, delta, **design, **components, alpha=alpha)",
             "se = llm.facet_se(n, **design, **components)",
             "ceiling = llm.facet_ceiling(delta, templates=design['templates'], "
             "var_template=components['var_template'], alpha=alpha, seeds=design['seeds'], "
             "var_seed=components.get('var_seed', 0.0))",
             f"print({'Power (templates counted)' if delta else 'False-positive rate (templates counted)'!r} + ':', "
             "pct(res.power))",
             "print('Power ceiling (unlimited questions):', pct(ceiling))",
             "print('SE of the gain:', f'{100 * se:.2f} pts')",
             "# the page shows these two in captions under its metrics row",
             "print('P(correct order):', pct(stats.norm.cdf(abs(delta) / se)))",
             "print('Signal-to-noise (gain ÷ its SE):', f'{abs(delta) / se:.2f}')",
             "print('Type-M (templates counted):', ratio(res.type_m))"]
    if delta:
        lines += ["need = llm.facet_sample_size(delta, **design, **components, alpha=alpha, target_power=target_power)",
                  "print(f'Questions for {target_power:.0%} power (templates counted):', 'not reachable' if need < 0 "
                  "else f'{need:,}')"]
    if calls:
        lines += [f"best = llm.facet_plan(delta, calls={int(calls)!r}, **components, seeds=design['seeds'], "
                  "alpha=alpha)",
                  "print('Best split (questions × templates × answers):', "
                  "f'{best.n:,} × {best.templates} × {best.samples}')"]
    return "\n".join(lines) + "\n"


def subset_snippet(design) -> str:
    """Script for the LLM page's "Run a subset instead" tab (:mod:`core.llm.subset`) at ``design``
    (a :class:`core.llm.SubsetDesign`)."""
    m, n_total, accuracy, a_only, b_only = design.m, design.n_total, design.accuracy, design.a_only, design.b_only
    halfwidth, target_agreement, seed = design.halfwidth, design.target_agreement, design.seed
    lines = [HEADER, "from core import llm", "from core.runnable import item_list", "",
             f"m, n_total, accuracy = {int(m)}, {int(n_total)}, {literal(float(accuracy))}",
             f"a_only, b_only = {int(a_only)}, {int(b_only)}",
             "se = llm.subset_se(m, n_total, accuracy)",
             "print('SE vs the full run:', f'{100 * se:.2f} pts')",
             "print('95% of full run:', f'±{100 * 1.959963984540054 * se:.1f} pts')",
             "print('Same winner as the full run:', pct(llm.subset_agreement(m, n_total=n_total, a_only=a_only, "
             "b_only=b_only)))",
             f"print('Items for the half-width:', f'{{llm.subset_size(n_total, accuracy, {literal(float(halfwidth))}):,}}')",
             "print('Items for the target agreement:', f'{llm.subset_size_for_agreement(n_total, a_only, b_only, "
             f"target_agreement={literal(float(target_agreement))}):,}}')",
             f"items = item_list(range(n_total), m, seed={int(seed)})  # the m item indices to run, for every model"]
    return "\n".join(lines) + "\n"

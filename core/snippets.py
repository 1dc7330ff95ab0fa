"""Python code that reproduces a planning page's numbers with the public ``core`` API.

Each ``*_snippet`` function takes the values a page passes to ``core`` and returns a self-contained script: the
design, the power call, the sample size and (when a prior is given) the assurance. Run from the repository root (so
``core`` imports), the script prints one ``label: value`` line per number of the page's metrics row, formatted as
the page formats it, so a reader can paste it into a notebook and check the page, or change one value and re-run.

Every value is written with :func:`repr`, so user text (system or benchmark names) becomes an inert string literal.
Power planners that ship a "code" view this way: gsDesign's Shiny app (Anderson 2022) and powerlmm (Magnusson 2018).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["llm_snippet", "llm_facets_snippet", "accuracy_snippet", "accuracy_design_snippet", "mt_snippet", "ratings_snippet", "sequential_snippet",
           "leaderboard_snippet", "claims_snippet", "monitor_snippet", "judge_snippet", "active_snippet",
           "labels_snippet", "subset_snippet"]

# The page's formatting (pages/_scaffold.fmt_pct / fmt_ratio / sample_size_metric), repeated so the script runs
# without the app.
_HEADER = '''import math

import numpy as np
import pandas as pd


def pct(x, digits=1):
    """A probability as the page shows it."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def ratio(x):
    """An exaggeration ratio as the page shows it."""
    return "—" if x is None or not math.isfinite(x) else f"{x:.2f}×"


def first_n(sizes, limit=None):
    """The first size whose power reaches the target, as the page shows it."""
    if sizes.first < 0:
        return f"> {limit:,}" if limit else "not reachable"
    return f"{sizes.first:,}"

'''


#: A protocol's score unit in the metrics (the DA page's pages._campaign_data.SCORE_UNITS).
_SCORE_UNITS = {"da": "pts", "da-sqm": "pts", "esa": "pts", "sqm": "(0–6 scale)", "mqm": "MQM pts"}


def _r(value) -> str:
    """A Python literal for a value (floats round-trip exactly; inf and nan as ``float("inf")``)."""
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        value = value.item()  # numpy scalars print as np.float64(…) under numpy 2
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def _kwargs(mapping: Mapping) -> str:
    return "dict(" + ", ".join(f"{k}={_r(v)}" for k, v in mapping.items()) + ")"


def _prior_ok(prior) -> bool:
    return prior is not None and all(math.isfinite(float(v)) for v in prior)


def llm_snippet(*, n: int, design: Mapping, target_power: float, cost_question: float = 0.0,
                cost_sample: float = 0.0, prior: tuple[float, float] | None = None) -> str:
    """Script for the LLM benchmark page (:mod:`core.llm`).

    Parameters
    ----------
    n : int
        Questions.
    design : mapping
        Keyword arguments of :func:`core.llm.benchmark_power` (accuracies, spread, correlation, K, clusters, judge,
        ``alpha``).
    target_power : float
    cost_question, cost_sample : float, optional
        When either is positive, the cheapest (n, K) of :func:`core.llm.benchmark_plan` is printed too.
    prior : (mean, sd) in accuracy points, optional
        Prior on the gain for the assurance (:func:`core.llm.benchmark_assurance`).
    """
    design = dict(design)
    gain = design["accuracy_b"] - design["accuracy_a"]
    lines = [_HEADER, "from core import llm", "",
             f"design = {_kwargs(design)}", f"n = {int(n)!r}", f"target_power = {_r(float(target_power))}", "",
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
                      f"best = llm.benchmark_plan(**no_k, cost_question={_r(float(cost_question))}, "
                      f"cost_sample={_r(float(cost_sample))}, target_power=target_power, max_samples=50)",
                      "# the page shows this under its metrics row",
                      "print(f'Cheapest design for {target_power:.0%} power:', 'not reachable' if best.n_questions < 0 "
                      "else f'{best.n_questions:,} questions × {best.samples} answers each')"]
    if _prior_ok(prior):
        lines += ["# the prior on the gain, in accuracy points",
                  f"prior_mean, prior_sd = {_r(float(prior[0]))}, {_r(float(prior[1]))}",
                  "assured = llm.benchmark_assurance(n, delta_mean=prior_mean / 100, delta_sd=prior_sd / 100, **no_b)",
                  "print('Assurance:', pct(assured.assurance))"]
    return "\n".join(lines) + "\n"


def llm_facets_snippet(*, n: int, delta: float, templates: int, samples: int, components: Mapping,
                       target_power: float, alpha: float, seeds: int | None = None, calls: int | None = None) -> str:
    """Script for the LLM page's "Prompts and seeds" tab (:mod:`core.llm.facets`).

    ``delta`` is on the score scale (0.02 = 2 points); ``components`` holds ``var_template``, ``var_item``,
    ``var_item_template``, ``var_sample`` (and ``var_seed`` with ``seeds``); with ``calls`` the best split of that
    many calls per model is printed too.
    """
    comps = {k: float(v) for k, v in dict(components).items()}
    if seeds is None:
        comps.pop("var_seed", None)
    lines = [_HEADER, "from scipy import stats", "", "from core import llm", "",
             f"components = {_kwargs(comps)}",
             f"n, delta = {int(n)!r}, {_r(float(delta))}",
             f"design = dict(templates={int(templates)!r}, samples={int(samples)!r}, seeds={_r(seeds)})",
             f"alpha, target_power = {_r(float(alpha))}, {_r(float(target_power))}", "",
             "res = llm.facet_power(n, delta, **design, **components, alpha=alpha)",
             "se = llm.facet_se(n, **design, **components)",
             "ceiling = llm.facet_ceiling(delta, templates=design['templates'], "
             "var_template=components['var_template'], alpha=alpha)",
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
        lines += [f"best = llm.facet_plan(delta, calls={int(calls)!r}, "
                  "**{k: v for k, v in components.items() if k != 'var_seed'}, alpha=alpha)",
                  "print('Best split (questions × templates × answers):', "
                  "f'{best.n:,} × {best.templates} × {best.samples}')"]
    return "\n".join(lines) + "\n"


def accuracy_snippet(*, scenario: str, n: int, alpha: float, target_power: float, delta: float = 0.0,
                     test: str = "exact", source: str = "manual", agreement: float | None = None,
                     baseline: float = 0.8, p_new: float = 0.0, p_old: float = 0.0, tie_rate: float = 0.0,
                     ties: str = "drop", prior: tuple[float, float] | None = None) -> str:
    """Script for the Accuracy page (:mod:`core.accuracy`): paired (McNemar), unpaired, or preference designs.

    ``prior`` is (mean, sd) in percentage points of the effect.
    """
    lines = [_HEADER, "from core import accuracy as acc", "",
             f"n = {int(n)!r}", f"alpha = {_r(float(alpha))}", f"target_power = {_r(float(target_power))}"]
    if scenario == "paired":
        effect = delta
        lines += [f"delta = {_r(float(delta))}  # accuracy of the new model minus the old",
                  f"design = acc.paired_design({source!r}, delta=delta, agreement={_r(agreement)}, "
                  f"baseline={_r(float(baseline))})",
                  f"test = {test!r}",
                  "res = acc.mcnemar_power(n, delta, design.agreement, alpha=alpha, test=test)",
                  "mde = acc.mcnemar_mde(n, **design.mde_kwargs, target_power=target_power, alpha=alpha, test=test)"]
        size_call = ("acc.mcnemar_sample_sizes(delta, design.agreement, target_power=target_power, alpha=alpha, "
                     "test=test)")
        assure_call = "acc.mcnemar_assurance(n, mean, sd, design.agreement, alpha=alpha, test=test)"
    elif scenario == "unpaired":
        effect = delta
        lines += [f"baseline, delta = {_r(float(baseline))}, {_r(float(delta))}",
                  "res = acc.unpaired_power(n, baseline, delta, alpha=alpha)",
                  "mde = acc.unpaired_mde(n, baseline, target_power=target_power, alpha=alpha)"]
        size_call = "acc.unpaired_sample_sizes(baseline, delta, target_power=target_power, alpha=alpha)"
        assure_call = "acc.unpaired_assurance(n, baseline, mean, sd, alpha=alpha)"
    elif scenario == "preference":
        effect = p_new - p_old
        lines += [f"p_new, p_old, tie_rate = {_r(float(p_new))}, {_r(float(p_old))}, {_r(float(tie_rate))}",
                  f"ties, test = {ties!r}, {test!r}",
                  "res = acc.preference_power(n, p_new, p_old, alpha=alpha, ties=ties, test=test)",
                  "mde = acc.preference_mde(n, tie_rate=tie_rate, target_power=target_power, alpha=alpha, ties=ties, "
                  "test=test)"]
        size_call = "acc.preference_sample_sizes(p_new, p_old, target_power=target_power, alpha=alpha, ties=ties, " \
                    "test=test)"
        assure_call = "acc.preference_assurance(n, mean, sd, tie_rate=tie_rate, alpha=alpha, ties=ties, test=test)"
    else:
        raise ValueError(f"`scenario` must be 'paired', 'unpaired' or 'preference'; got {scenario!r}")
    lines += [f"print({'Power' if effect != 0 else 'False-positive rate'!r} + ':', pct(res.power))",
              "print('Type-M (exaggeration):', ratio(res.type_m))",
              "print('Type-S (wrong sign):', pct(res.type_s, 2))",
              "print(f'MDE at {target_power:.0%} power:', "
              "'not reachable' if not math.isfinite(mde) else f'{100 * mde:.2f} pts')"]
    if effect != 0:
        counted = {"paired": "Items", "unpaired": "Items per model", "preference": "Raters"}[scenario]
        lines += [f"sizes = {size_call}",
                  f"print(f'{counted} for {{target_power:.0%}} power:', first_n(sizes, 10_000_000))"]
    if _prior_ok(prior):
        lines += ["# the prior on the effect, in percentage points",
                  f"mean, sd = {_r(float(prior[0]))} / 100, {_r(float(prior[1]))} / 100",
                  f"assured = {assure_call}", "print('Assurance:', pct(assured.assurance))"]
    return "\n".join(lines) + "\n"



def accuracy_design_snippet(design, *, prior: tuple[float, float] | None = None) -> str:
    """:func:`accuracy_snippet` for the Accuracy page's design (:class:`core.accuracy.AccuracyPageDesign`).

    ``prior`` is (mean, sd) in percentage points of the effect.
    """
    if design.scenario == "paired":
        args = dict(delta=design.delta_fraction, test=design.test, source=design.source,
                    baseline=design.baseline_fraction, agreement=design.agreement_fraction)
    elif design.scenario == "unpaired":
        args = dict(delta=design.delta_fraction, baseline=design.baseline_fraction)
    else:
        args = dict(p_new=design.p_new_fraction, p_old=design.p_old_fraction, tie_rate=design.tie_fraction,
                    ties=design.ties, test=design.test)
    return accuracy_snippet(scenario=design.scenario, n=design.n, alpha=design.alpha,
                            target_power=design.target_power, prior=prior, **args)

def mt_snippet(*, n: int, delta: float, p0: float, b0: float, alpha: float, target_power: float,
               prior: tuple[float, float] | None = None) -> str:
    """Script for the machine-translation page (:mod:`core.mt`, Card et al. 2020 §4): ``prior`` in BLEU points."""
    lines = [_HEADER, "from core import mt", "",
             f"n, delta, p0, b0 = {int(n)!r}, {_r(float(delta))}, {_r(float(p0))}, {_r(float(b0))}",
             f"alpha, target_power = {_r(float(alpha))}, {_r(float(target_power))}",
             "res = mt.bleu_power(n, delta, p0, b0, alpha=alpha)",
             f"print({'Power' if delta != 0 else 'False-positive rate'!r} + ':', pct(res.power))",
             "print('Type-M (exaggeration):', ratio(res.type_m))",
             "print('Type-S (wrong sign):', pct(res.type_s, 2))",
             "mde = mt.bleu_mde(n, p0, b0, target_power=target_power, alpha=alpha)",
             "print(f'MDE at {target_power:.0%} power:', "
             "'not reachable' if not math.isfinite(mde) else f'{mde:.2f} BLEU')"]
    if delta != 0:
        lines += ["# the normal engine's power is monotone in n: the first size is the size",
                  "first = mt.bleu_sample_size(delta, p0, b0, target_power=target_power, alpha=alpha)",
                  "print(f'Sentences for {target_power:.0%} power:', f'{first:,}' if first >= 0 else '> 1,000,000')"]
    if _prior_ok(prior):
        lines += [f"assured = mt.bleu_assurance(n, {_r(float(prior[0]))}, {_r(float(prior[1]))}, p0, b0, alpha=alpha)",
                  "print('Assurance:', pct(assured.assurance))"]
    return "\n".join(lines) + "\n"


def ratings_snippet(*, layout: str, workers: int, items: int, per_item: int | None, effect: float,
                    sigmas: Mapping, alpha: float, target_power: float, analytic: bool = True,
                    prior: tuple[float, float] | None = None) -> str:
    """Script for the human-ratings page (:mod:`core.ratings`).

    The power, false-positive rate, Type-M and Type-S are printed for the analytic design (fully crossed, REML +
    Satterthwaite, continuous ratings); other designs are simulated on the page and the script shows the call.
    """
    lines = [_HEADER, "from core import ratings as rt", "",
             f"sigmas = {_kwargs(dict(sigmas))}",
             f"workers, items, effect = {int(workers)!r}, {int(items)!r}, {_r(float(effect))}",
             f"alpha, target_power = {_r(float(alpha))}, {_r(float(target_power))}"]
    if analytic:
        lines += ["res = rt.likert_power(workers, items, effect, **sigmas, alpha=alpha, rule='satterthwaite', "
                  "method='analytic')",
                  f"print({'Power' if effect else 'Detection rate'!r} + ':', pct(res.power))",
                  "print('False-positive rate:', pct(res.false_positive_rate))",
                  "print('Type-M (exaggeration):', ratio(res.type_m))",
                  "print('Type-S (wrong sign):', pct(res.type_s, 2))"]
    else:
        lines += ["# This design has no closed form: the page simulates it, e.g.",
                  "# rt.likert_power(workers, items, effect, **sigmas, alpha=alpha, rule=..., method='simulate', "
                  "seed=0)"]
    lines += ["mde = rt.likert_mde(workers, items, target_power=target_power, alpha=alpha, **sigmas)",
              "print(f'MDE at {target_power:.0%} power (effect β1):', 'not reachable' if not math.isfinite(mde) else "
              "f'{mde:.3f}')"]
    if _prior_ok(prior):
        if layout == "crowd":
            lines.append(f"assured = rt.crowd_assurance(workers, items, {int(per_item)!r}, {_r(float(prior[0]))}, "
                         f"{_r(float(prior[1]))}, alpha=alpha, **sigmas)")
        else:
            lines.append(f"assured = rt.likert_assurance(workers, items, {_r(float(prior[0]))}, "
                         f"{_r(float(prior[1]))}, alpha=alpha, **sigmas)")
        lines.append("print('Assurance:', pct(assured.assurance))")
    return "\n".join(lines) + "\n"


def sequential_snippet(*, design, budget: int | None = None, delta: float | None = None,
                       options: Mapping | None = None, target_power: float, prior: tuple[float, float] | None = None,
                       sizes: bool = False, fitted: tuple[str, str, str, str] | None = None) -> str:
    """Script for the DA-campaign page (:mod:`core.sequential`): ``design`` is the page's
    :class:`core.sequential.CampaignDesign` (its procedure, budget, difference and options), or the procedure's name
    with ``budget``, ``delta`` and ``options`` — the campaign keyword arguments (peeks, boundary, futility_p, mean,
    sd, alpha, test); given with a design they override its values. ``sizes`` also prints the judgments each procedure needs
    for ``target_power`` (:func:`core.sequential.campaign_sample_size`); ``fitted`` = (file name, system A, system B,
    protocol) reads last year's judgments from that file (next to the notebook) and prints the fit of the two
    systems (:func:`core.humaneval.fit_campaign`) as the page's metrics show it, and computes the resampled power at
    the page's budget (:func:`core.humaneval.resampled_power`)."""
    if not isinstance(design, str):  # the page's CampaignDesign
        budget = design.budget if budget is None else budget
        delta = design.delta if delta is None else delta
        options = design.options() if options is None else options
        design = design.procedure
    lines = [_HEADER, "from core import sequential as sq", "",
             f"design, budget, delta = {design!r}, {int(budget)!r}, {_r(float(delta))}",
             f"options = {_kwargs(dict(options))}", f"target_power = {_r(float(target_power))}",
             "res = sq.campaign_power(design, budget, delta, **options)",
             f"print({'Power' if delta else 'False-positive rate'!r} + ':', "
             "pct(res.power))",
             "print('False-positive rate (no true difference):', pct(res.false_positive_rate, 2))",
             "print('Expected judgments:', f'{res.expected_judgments:,.0f}')"]
    if delta:
        lines.append("print('Type-M at stopping:', f'{res.type_m:.2f}×' if math.isfinite(res.type_m) else '—')")
    else:
        lines.append("print('Type-M at stopping:', '—')")
    lines += ["mde = sq.campaign_mde(design, budget, target_power=target_power, **options)",
              "print(f'MDE at {target_power:.0%} power:', 'not reachable' if not math.isfinite(mde) else "
              "f'{mde:.2f} pts')"]
    if _prior_ok(prior):
        lines += [f"assured = sq.campaign_assurance(design, budget, {_r(float(prior[0]))}, {_r(float(prior[1]))}, "
                  "**options)", "print('Assurance:', pct(assured.assurance))"]
    if fitted is not None:
        name, a, b, protocol = (str(v) for v in fitted)
        lines += ["", "from core import humaneval as he", "",
                  f"with open({name!r}, 'rb') as fh:",
                  f"    scores = he.read_scores(fh.read(), {name!r}, protocol={protocol!r})",
                  f"fit = he.fit_campaign(scores, [{a!r}, {b!r}])",
                  # the protocol's unit, as the page shows it (pages._campaign_data.SCORE_UNITS)
                  f"unit = {_SCORE_UNITS.get(protocol, 'score units')!r}",
                  "print('Difference A − B:', f'{fit.delta:+.3g} {unit}')",
                  "print('Judgment SD:', f'{fit.sd:.3g} {unit}')",
                  "print('At the best score:', pct(fit.ceiling_share))",
                  "# power from the real scores (the page's resampled curve, one point; 1,000 campaigns):",
                  f"resampled = he.resampled_power(scores, ({a!r}, {b!r}), budget, procedure=design, "
                  "test=options['test'], peeks=options['peeks'], boundary=options['boundary'], "
                  "futility_p=options['futility_p'], alpha=options['alpha'], n_sims=1000, seed=2022)"]
    if sizes and delta:
        lines += ["labels = {'fixed': 'fixed', 'interim': 'interim', 'interim_futility': 'interim-futility'}",
                  "for procedure, label in labels.items():",
                  "    size = sq.campaign_sample_size(procedure, delta, target_power=target_power, **options)",
                  "    print(f'Judgments for {target_power:.0%} power ({label}):', first_n(size, 1_000_000))"]
    return "\n".join(lines) + "\n"


def leaderboard_snippet(*, n_votes: int, ratings: Mapping, tie_rate: float, ties: str, judge_accuracy: float,
                        alpha: float, target_power: float, gap_sd: float | None = None) -> str:
    """Script for the leaderboard page (:mod:`core.pairwise`, Bradley–Terry on the Elo scale)."""
    lines = [_HEADER, "from core import pairwise as pw", "",
             f"ratings = pd.Series({_r({str(k): float(v) for k, v in ratings.items()})})",
             f"options = dict(tie_rate={_r(float(tie_rate))}, ties={ties!r}, "
             f"judge_accuracy={_r(float(judge_accuracy))}, alpha={_r(float(alpha))})",
             f"n_votes, target_power = {int(n_votes)!r}, {_r(float(target_power))}",
             "res = pw.leaderboard_power(n_votes, ratings, **options)",
             "print(\"Weakest neighbours' power:\", pct(res.weakest_power))",
             "needed = pw.leaderboard_votes(ratings, target_power=target_power, **options)",
             "print(f'Votes for {target_power:.0%} on every pair:', 'not reachable' if needed < 0 else f'{needed:,}')",
             "print('P(whole order right):', pct(res.order_correct))",
             "print('Typical interval:', '—' if not math.isfinite(res.typical_halfwidth) else "
             "f'± {res.typical_halfwidth:.1f} Elo')"]
    if gap_sd is not None and math.isfinite(gap_sd):
        lines += [f"assured = pw.leaderboard_assurance(n_votes, ratings, {_r(float(gap_sd))}, **options)",
                  "print(\"Weakest neighbours' assurance:\", pct(assured.min_assurance))"]
    return "\n".join(lines) + "\n"


def claims_snippet(*, rows: Sequence, alpha: float, target_power: float, correction: str, correlation: float,
                   correction_label: str, n_sims: int = 20_000) -> str:
    """Script for the many-claims page (:mod:`core.multiplicity`): ``rows`` are (benchmark, n, gain in points,
    agreement in %)."""
    lines = [_HEADER, "from core import accuracy as acc", "from core import multiplicity as mt", "",
             f"rows = {_r([(str(a), int(b), float(c), float(d)) for a, b, c, d in rows])}",
             f"alpha, target_power = {_r(float(alpha))}, {_r(float(target_power))}",
             f"correction, correlation = {correction!r}, {_r(float(correlation))}",
             "# each benchmark's two-sided power (McNemar, normal form), never below alpha",
             "powers = [round(max(acc.mcnemar_power(n, gain / 100, agree / 100, alpha=alpha, test='normal')"
             ".rejection_rate, alpha), 12) for _, n, gain, agree in rows]",
             "m = len(powers)",
             f"fam = mt.family_power(powers, alpha=alpha, correction=correction, correlation=correlation, "
             f"n_sims={int(n_sims)!r}, seed=0)",
             f"label = {correction_label!r}",
             "print('Mean power per claim, unadjusted:', pct(float(np.mean(powers))))",
             "print(f'Mean power per claim, {label}:', pct(float(np.mean(fam.per_comparison))))",
             "print(f'All {m} claims hold ({label}):', pct(fam.all))",
             "print('Expected claims that hold:', f'{fam.expected_rejections:.2f} of {m}')",
             "factor = mt.family_sample_size(m, target_power=target_power, alpha=alpha, correction=correction) "
             "if correction != 'none' else 1.0",
             "print(f'Test-set growth to keep {target_power:.0%} each:', f'{factor:.3f}×')"]
    return "\n".join(lines) + "\n"


def monitor_snippet(*, upto: int, swap: bool, design=None, target: float | None = None, n_max: int | None = None,
                    alpha: float | None = None, bounded: bool | None = None, looks: int | None = None,
                    boundary: str | None = None, seed: int | None = None, data_file: str | None = None,
                    votes: bool = False, harness_files: Sequence[tuple[str, str]] = ()) -> str:
    """Script for the monitor page (:func:`core.sequential.monitor`).

    ``design`` is the page's :class:`core.sequential.MonitorDesign` (target, planned items, α, sequence, looks,
    boundary, seed); without it those are given one by one (given with it, they override its values).

    With ``data_file=None`` it uses the built-in example (:func:`core.sequential.sample_differences`); otherwise it
    reads the named file: per-item scores (:func:`core.sequential.read_paired_scores`, a per-answer log with
    :func:`core.llm.read_benchmark_log`) or, with ``votes=True``,
    pairwise votes (:func:`core.pairwise.read_votes`). ``harness_files`` — (model, file name) pairs — reads
    lm-evaluation-harness samples files instead (:func:`core.llm.read_harness_samples`).
    """
    if design is not None:
        given = dict(target=target, n_max=n_max, alpha=alpha, looks=looks, boundary=boundary, seed=seed)
        target, n_max, alpha, looks, boundary, seed = (getattr(design, k) if v is None else v for k, v in given.items())
        bounded = design.sequence == "bounded" if bounded is None else bounded
    if harness_files:
        pairs = [(str(m), str(f)) for m, f in harness_files]
        read = ("from core import llm\n\n"
                f"files = [(model, name, open(name, 'rb').read()) for model, name in {pairs!r}]\n"
                "data = sq.differences_from_log(llm.read_harness_samples(files))")
    elif data_file is None:
        read = "data = sq.sample_differences()"
    elif votes:
        read = (f"from core import pairwise as pw\n\nwith open({data_file!r}, 'rb') as fh:\n"
                f"    data = sq.differences_from_votes(pw.read_votes(fh.read(), name={data_file!r}))")
    else:
        read = (f"from core import llm\n\nwith open({data_file!r}, 'rb') as fh:\n"
                f"    data = sq.read_paired_scores(fh.read(), name={data_file!r}, read_log=llm.read_benchmark_log)")
    lines = [_HEADER, "from core import sequential as sq", "", read,
             "diffs = data['difference'].to_numpy(dtype=float)",
             "# points (x100) for accuracies and votes, as on the page; other scores keep their own units",
             f"points = {(data_file is None and not harness_files) or votes!r} or bool(np.isin(diffs, (-1.0, 0.0, 1.0)).all())"]
    if swap:
        lines.append("diffs = -diffs  # B and A swapped")
    lines += [f"upto, target, n_max, alpha = {int(upto)!r}, {_r(float(target))}, {int(n_max)!r}, {_r(float(alpha))}",
              f"res = sq.monitor(diffs[:upto], target=target, n_max=n_max, alpha=alpha, "
              f"bounds={(-1.0, 1.0) if bounded else None!r}, looks={int(looks)!r}, boundary={boundary!r}, "
              f"seed={int(seed)!r})",
              "last = res.sequence.iloc[-1]",
              "print('Items so far:', f'{res.n:,}')",
              "print('Running difference:', f\"{100 * last['estimate']:+.2f} pts\" if points else "
              "f\"{last['estimate']:+.4f} score units\")",
              "print(f'{1 - alpha:.0%} confidence sequence:', f\"[{100 * last['lower']:+.1f}, {100 * last['upper']:+.1f}] "
              "pts\" if points else f\"[{last['lower']:+.3f}, {last['upper']:+.3f}] score units\")",
              "print('Expected further items:', f'{math.ceil(res.expected_more):,}' if res.verdict == 'continue' "
              "else '0')",
              "print('P(ends with a winner):', pct(res.p_stop_effect))"]
    return "\n".join(lines) + "\n"


def judge_snippet(*, plan: Mapping, currency: str = "USD", judge: tuple[float, float, float] | None = None) -> str:
    """Script for the LLM-judges page (:func:`core.judge.ppi_plan`): ``plan`` are its keyword arguments; ``judge``
    (accuracy, sensitivity, specificity), when the page describes the judge that way, makes the script derive σ and
    ρ as the page does (:func:`core.judge.judge_correlation`)."""
    kw = {k: v for k, v in plan.items() if v is not None}
    lines = [_HEADER, "from core import judge as jg", ""]
    if judge is not None:
        acc_, se_, sp_ = (float(v) for v in judge)
        lines += [f"sd, rho, p_obs = jg.judge_correlation({_r(acc_)}, {_r(se_)}, {_r(sp_)})",
                  "plan = " + _kwargs({k: v for k, v in kw.items() if k not in ("sd", "correlation", "sd_judge")})[:-1]
                  + ", sd=sd, correlation=min(rho, 0.999), sd_judge=math.sqrt(p_obs * (1 - p_obs)))"]
    else:
        lines.append(f"plan = {_kwargs(kw)}")
    lines += ["res = jg.ppi_plan(**plan)",
              "print('Human-labelled items:', f'{res.n_human:,}')",
              "print('Judge-only items:', f'{res.n_judge_only:,}')",
              # right/wrong labels (judge given by sensitivity/specificity): an accuracy, in points; scores: their units
              "print('Standard error:', " + ("f'{100 * res.se:.2f} pts')" if judge is not None else
                                             "f'{res.se:.4f} score units')"),
              "print('Equivalent human-only items:', f'{res.effective_n:,.0f}')",
              f"currency = {currency!r}",
              "print('Cost:', f'{currency} {res.cost:,.2f}'.strip())",
              "effect = " + ("f\"{100 * plan['delta']:g} points\"" if judge is not None else
                             "f\"{plan['delta']:g} score units\"") + " if plan.get('delta') is not None else ''",
              "if plan.get('delta') is not None:",
              "    print(f'Power at {effect}:', pct(res.power))",
              "# the page shows the judge's weight in a caption under its metrics row",
              "print('Judge weight λ (power-tuned):', f'{res.lambda_:.3f}')"]
    return "\n".join(lines) + "\n"


def active_snippet(*, n_human: int, target_se: float, min_share: float = 0.0, beta: tuple[float, float] | None = None,
                   n_items: int = 1000, calibration: str | None = None) -> str:
    """Script for the Judge page's "Which items to label" tab (:mod:`core.judge.active`): the judge's confidences
    from ``beta`` = (a, b) over ``n_items`` items, or calibrated from a calibration file (``calibration``: its name,
    ``"sample"`` for the shipped one), then the three policies' SEs and the labels for ``target_se``."""
    lines = [_HEADER, "from core import judge as jg", ""]
    if beta is not None:
        lines.append(f"f = jg.beta_confidences({_r(float(beta[0]))}, {_r(float(beta[1]))}, {int(n_items)})")
    elif calibration == "sample":
        lines += ["cal = jg.sample_calibration()", "f = jg.calibrated_confidence(cal['human'], cal['judge'])"]
    else:
        lines += [f"cal = jg.read_calibration(open({calibration!r}, 'rb').read(), name={calibration!r})",
                  "f = jg.calibrated_confidence(cal['human'], cal['judge'])"]
    lines += [f"n_human, target_se, min_share = {int(n_human)}, {_r(float(target_se))}, {_r(float(min_share))}",
              "for label, policy in (('SE, human labels only', 'human'), ('SE, uniform labels (PPI)', 'uniform'),",
              "                      ('SE, active labels', 'active')):",
              "    print(f'{label}:', f'{100 * jg.active_se(f, n_human, policy=policy, min_share=min_share):.2f} pts')",
              "need = jg.active_labels_for_se(f, target_se, min_share=min_share)",
              "print('Active labels for the target SE:', f'{need:,}' if need > 0 else 'not reachable')",
              "items = jg.active_item_list(f, n_human, min_share=min_share, seed=0)  # the runnable list: label == True"]
    return "\n".join(lines) + "\n"


def labels_snippet(*, p10: float, p01: float, kappa: float, prevalence: float = 0.5, cost_item: float = 0.0,
                   cost_label: float = 1.0, alpha: float = 0.05, target_power: float = 0.8, max_labels: int = 7,
                   currency: str = "USD") -> str:
    """Script for the Judge page's "Labels per item" tab (:func:`core.judge.labels_per_item`)."""
    kw = dict(kappa=float(kappa), prevalence=float(prevalence), cost_item=float(cost_item),
              cost_label=float(cost_label), alpha=float(alpha), target_power=float(target_power),
              max_labels=int(max_labels))
    lines = [_HEADER, "from core import judge as jg", "",
             f"plan = jg.labels_per_item({_r(float(p10))}, {_r(float(p01))}, **{_kwargs(kw)})",
             "best = plan.table.set_index('labels').loc[plan.best]",
             f"currency = {currency!r}",
             "print('Labels per item:', plan.best)",
             "n_best, cost_best = int(best['items']), float(best['cost'])",
             "print('Items (best):', f'{n_best:,}')",
             "print('Cost (best):', f'{currency} {cost_best:,.2f}'.strip())",
             "print('Annotator error rate:', f'{plan.annotator_error:.3f}')",
             "even = plan.break_even_cost_item",
             "print('Break-even item cost:', 'never' if math.isinf(even) else '—' if math.isnan(even) else "
             "f'{currency} {even:,.2f}'.strip())",
             "# plan.table: one row per odd k (labels, error, items, cost, gap)"]
    return "\n".join(lines) + "\n"


def subset_snippet(*, m: int, n_total: int, accuracy: float, a_only: int, b_only: int, halfwidth: float,
                   target_agreement: float, seed: int = 0) -> str:
    """Script for the LLM page's "Run a subset instead" tab (:mod:`core.llm.subset`)."""
    lines = [_HEADER, "from core import llm", "from core.runnable import item_list", "",
             f"m, n_total, accuracy = {int(m)}, {int(n_total)}, {_r(float(accuracy))}",
             f"a_only, b_only = {int(a_only)}, {int(b_only)}",
             "se = llm.subset_se(m, n_total, accuracy)",
             "print('SE vs the full run:', f'{100 * se:.2f} pts')",
             "print('95% of full run:', f'±{100 * 1.959963984540054 * se:.1f} pts')",
             "print('Same winner as the full run:', pct(llm.subset_agreement(m, n_total=n_total, a_only=a_only, "
             "b_only=b_only)))",
             f"print('Items for the half-width:', f'{{llm.subset_size(n_total, accuracy, {_r(float(halfwidth))}):,}}')",
             "print('Items for the target agreement:', f'{llm.subset_size_for_agreement(n_total, a_only, b_only, "
             f"target_agreement={_r(float(target_agreement))}):,}}')",
             f"items = item_list(range(n_total), m, seed={int(seed)})  # the m item indices to run, for every model"]
    return "\n".join(lines) + "\n"

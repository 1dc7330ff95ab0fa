"""The LLM-judges page's plan: how many human labels to pair with judge labels (PPI++), in words.

Angelopoulos, Duchi & Zrnic (2023), PPI++: the estimate's variance is σ²/n·(1 − ρ²·N/(n + N)) with the
power-tuned weight; Rogan & Gladen (1978) for the judge-only correction it is compared with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from . import ActiveDesign, JudgeDesign, JudgePageDesign, LabelsPlan, PPIPlan
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_money, fmt_pct
from ..validation import check_type

__all__ = ["plan_item", "active_plan_item", "labels_plan_item", "agreement_plan_item"]

REFERENCES = (
    "Angelopoulos, Duchi & Zrnic (2023). PPI++: Efficient prediction-powered inference. arXiv 2311.01453.",
    "Rogan & Gladen (1978). Estimating prevalence from the results of a screening test.",
    "Fleiss, Cohen & Everitt (1969). Large sample standard errors of kappa and weighted kappa.",
    "Gwet (2008). Computing inter-rater reliability and its variance in the presence of high agreement.",
)


#: What each agreement statistic's large-sample SE rests on (core.judge.agreement.agreement_se).
AGREEMENT_SOURCES = {
    "cohen": "Fleiss, Cohen & Everitt (1969). Large sample standard errors of kappa and weighted kappa.",
    "gwet_ac1": "Gwet (2008). Computing inter-rater reliability and its variance in the presence of high agreement.",
    "krippendorff": "Gwet (2014). Handbook of inter-rater reliability, 4th ed., ch. 5 (Scott's π and "
                    "Krippendorff's α).",
}


def _se(x) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{x:.4f}"


def plan_item(design: JudgeDesign, result: PPIPlan, *, currency: str = "", link: str = "", code: str = "",
              sources: Mapping[str, str] | None = None) -> PlanItem:
    """The plan of one PPI++ labelling design, as the LLM-judges page shows it.

    Parameters
    ----------
    design : JudgeDesign
    result : PPIPlan
        ``design.plan()``: the split between human-labelled and judge-only items, its SE, effective n, cost,
        power and the human-only comparison at the same cost.
    currency : str
    link, code :
        Passed through to the plan.
    sources : mapping, optional
        Where ``"rho"``, ``"sd"`` and ``"se"`` (the judge's accuracy) came from when not from a slider (a
        calibration file).

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> d = JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    >>> plan_item(d, d.plan()).results[0]
    ('human-labelled items', '882')
    """
    check_type("design", design, JudgeDesign)
    sources = dict(sources or {})
    res, rho, sd, alpha, delta = result, design.correlation, design.sd, design.alpha, design.delta
    what = "the difference between two models" if design.paired else "a model's score"
    sentence = (f"We estimate {what} with prediction-powered inference (PPI++, Angelopoulos, Duchi & Zrnic, 2023): "
                f"{res.n_human:,} items labelled by humans and by the LLM judge and {res.n_judge_only:,} items labelled "
                f"by the judge only, with the power-tuned weight. Assuming a judge–human correlation of {rho:.2f} and "
                f"a label SD of {sd:.3f}, the standard error is {res.se:.4f} — as precise as {res.effective_n:,.0f} "
                f"human labels — at a cost of {fmt_money(res.cost, currency)} (human labels alone: SE "
                f"{res.human_only.se:.4f}).")
    if delta is not None:
        sentence += (f" A two-sided z test at α = {alpha:g} detects an effect of {delta:g} with "
                     f"{fmt_pct(res.power, 0)} power.")
    assumptions = [Assumption("judge–human correlation ρ", f"{rho:.3f}", sources.get("rho", "slider")),
                   Assumption("SD of a human label σ", f"{sd:.3f}", sources.get("sd", "slider")),
                   Assumption("cost per human label / judge call",
                              f"{design.cost_human:g} / {design.cost_judge:g} {currency}", "slider")]
    if design.judged_by_accuracy:
        assumptions.append(Assumption("judge sensitivity / specificity",
                                      f"{design.sensitivity:.1%} / {design.specificity:.1%}",
                                      sources.get("se", "slider")))
    results = [("human-labelled items", f"{res.n_human:,}"), ("judge-only items", f"{res.n_judge_only:,}"),
               ("standard error", _se(res.se)), ("effective n", f"{res.effective_n:,.0f}"),
               ("human-only SE at the same cost", _se(res.human_only.se))]
    if delta is not None:
        results.append(("power", fmt_pct(res.power)))
    return PlanItem(
        scenario="LLM judges and human labels",
        question=f"How many human labels should accompany the LLM judge to estimate {what}?",
        assumptions=tuple(assumptions), test="PPI++ mean estimate with a two-sided z test", alpha=alpha,
        results=tuple(results), paragraph=sentence, cost=res.cost, currency=currency, link=link, code=code,
        references=REFERENCES)


ACTIVE_REFERENCES = (
    "Zrnic & Candès (2024). Active Statistical Inference. ICML.",
    "Angelopoulos, Bates, Fannjiang, Jordan & Zrnic (2023). Prediction-powered inference. Science 382, 669–674.",
)
LABELS_REFERENCES = (
    "Dorner & Hardt (2024). Don't Label Twice: Quantity Beats Quality when Comparing Binary Classifiers on a "
    "Budget. ICML.",
    "Connor (1987). Sample size for testing differences in proportions for the paired-sample design. Biometrics 43, "
    "207–211.",
)


def active_plan_item(design, *, target_se: float, labels_needed: Mapping[str, int], source: str,
                     link: str = "", code: str = "") -> PlanItem:
    """The plan of the "Which items to label" tab: human-only, uniform and active labelling at ``design.n_human``.

    ``labels_needed`` maps each policy (``"human"``, ``"uniform"``, ``"active"``) to the labels for ``target_se``
    (:func:`core.judge.active_labels_for_se`; −1: not reachable); ``source`` says where the judge's confidences came
    from (a Beta(a, b) or a calibration file).

    Examples
    --------
    >>> from core.judge import ActiveDesign, beta_confidences
    >>> d = ActiveDesign(tuple(beta_confidences(0.5, 0.5, 1000)), 100)
    >>> active_plan_item(d, target_se=0.03, labels_needed={"human": 278, "uniform": 150, "active": 115},
    ...                  source="Beta(0.5, 0.5)").results[2]
    ('SE, active labels', '0.0337')
    """
    check_type("design", design, ActiveDesign)
    n, big = design.n_human, len(design.confidence)
    se = {p: design.se(p) for p in ("human", "uniform", "active")}

    def need(p):
        k = labels_needed.get(p, -1)
        return "not reachable" if k is None or k < 0 else f"{k:,}"

    sentence = (f"An LLM judge scores all {big:,} items; humans label about {n:,} of them, item i with probability "
                f"π_i ∝ √(f_i(1 − f_i)) (f_i the judge's calibrated probability, capped at 1"
                + (f", mixed with {design.min_share:.0%} uniform" if design.min_share else "")
                + "), and the mean label is estimated by the active inverse-probability-weighted estimator "
                f"(Zrnic & Candès, 2024). If the judge is calibrated its standard error is {se['active']:.4f}, "
                f"against {se['uniform']:.4f} with uniformly random labels (PPI) and {se['human']:.4f} with human "
                f"labels alone; the target SE {target_se:g} needs {need('active')} active labels "
                f"({need('human')} human-only).")
    return PlanItem(
        scenario="LLM judges and human labels — which items to label",
        question=f"Which of {big:,} judge-scored items should humans label?",
        assumptions=(Assumption("judge confidences", f"{big:,} items", source),
                     Assumption("human labels (expected)", f"{n:,}", "slider"),
                     Assumption("uniform share", f"{design.min_share:.0%}", "slider"),
                     Assumption("the judge is calibrated", "E[Y | f] = f", "assumption of the SE")),
        test="active PPI mean estimate (inverse-probability weighted), normal interval", alpha=0.05,
        results=(("SE, human labels only", _se(se["human"])), ("SE, uniform labels (PPI)", _se(se["uniform"])),
                 ("SE, active labels", _se(se["active"])), (f"labels for SE {target_se:g}, active", need("active")),
                 (f"labels for SE {target_se:g}, human only", need("human"))),
        paragraph=sentence, link=link, code=code, references=ACTIVE_REFERENCES)


def labels_plan_item(design: JudgePageDesign, plan: LabelsPlan, *, currency: str = "", link: str = "",
                     code: str = "") -> PlanItem:
    """The plan of the "Labels per item" tab (:func:`core.judge.labels_per_item`'s ``LabelsPlan``).

    Parameters
    ----------
    design : JudgePageDesign
        The tab's design: the only-A / only-B shares (``p10_pct``, ``p01_pct``, in percent), the pilot's κ and
        prevalence, the costs per item and per label, α and the target power are read from it.
    plan : LabelsPlan
        ``design.labels_plan()``.
    currency : str
        The page-level currency (not a design field).
    link, code :
        Passed through to the plan.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> d = JudgePageDesign(p10_pct=8.0, p01_pct=4.0, labels_kappa=0.6)
    >>> labels_plan_item(d, d.labels_plan()).results[0]
    ('labels per item', '1')
    """
    check_type("design", design, JudgePageDesign)
    if not isinstance(plan, LabelsPlan):
        raise ValueError(f"`plan` must be a core.judge.LabelsPlan; got {type(plan).__name__}.")
    p10, p01, kappa, prevalence = (design.p10_pct / 100, design.p01_pct / 100, design.labels_kappa,
                                   design.labels_prevalence)
    cost_item, cost_label, alpha, target_power = design.cost_item, design.cost_label, design.alpha, design.target_power
    row = plan.table.set_index("labels").loc[plan.best]
    one = plan.table.iloc[0]
    even = plan.break_even_cost_item
    even_text = ("never (three labels per item need as many items as one)" if math.isinf(even)
                 else "—" if math.isnan(even) else fmt_money(even, currency))
    sentence = (f"Annotators agree with Cohen's κ = {kappa:g} in a pilot (observed prevalence {prevalence:g}), so each "
                f"errs with probability {plan.annotator_error:.3f}. Comparing two classifiers (P(only A right) = "
                f"{p10:g}, P(only B right) = {p01:g}) by McNemar's test at α = {alpha:g} with {target_power:.0%} "
                f"power (Connor, 1987), the cheapest design labels each of {int(row['items']):,} items "
                f"{plan.best} time{'s' if plan.best > 1 else ''} (cost {fmt_money(row['cost'], currency)}"
                f"); one label per item needs {int(one['items']):,} items. Three labels per item pay off once an "
                f"item itself costs more than {even_text} (Dorner & Hardt, 2024).")
    return PlanItem(
        scenario="LLM judges and human labels — labels per item",
        question="One label on more items, or a majority of several labels per item?",
        assumptions=(Assumption("pilot Cohen's κ", f"{kappa:g}", "slider"),
                     Assumption("observed prevalence", f"{prevalence:g}", "slider"),
                     Assumption("P(only A right) / P(only B right)", f"{p10:g} / {p01:g}", "slider"),
                     Assumption("cost per item / per label", f"{cost_item:g} / {cost_label:g} {currency}".strip(),
                                "slider")),
        test="McNemar's test against majority-vote labels (Connor's sample size)", alpha=alpha,
        results=(("labels per item", f"{plan.best}"), ("items", f"{int(row['items']):,}"),
                 ("cost", fmt_money(row["cost"], currency)),
                 ("annotator error ε", f"{plan.annotator_error:.3f}"), ("break-even item cost", even_text)),
        paragraph=sentence, cost=float(row["cost"]), currency=currency, link=link, code=code,
        references=LABELS_REFERENCES)


def agreement_plan_item(design: JudgePageDesign, *, link: str = "", code: str = "") -> PlanItem:
    """The plan of the "Agreement study" tab: how many items two raters must both label for the chosen agreement
    statistic's 95% interval to be ± ``design.halfwidth`` (:func:`core.judge.agreement_sample_size`).

    Examples
    --------
    >>> d = JudgePageDesign()
    >>> agreement_plan_item(d).results[0]
    ('items both raters label', '296')
    """
    check_type("design", design, JudgePageDesign)
    from .agreement import MIN_EXPECTED, STATISTICS

    prevalence, kappa, hw, stat = design.ag_prevalence_pct, design.kappa, design.halfwidth, design.statistic
    need = design.agreement_sample_size()
    reached = float(design.agreement_curve([need]).set_index("statistic").loc[stat, "halfwidth"])
    value = design.agreement_value()
    name = STATISTICS[stat]
    sentence = (f"Two raters both label {need:,} items. At a prevalence of {prevalence:g}% and a true Cohen's κ of "
                f"{kappa:g} (so {name} = {value:.3f}), the 95% interval for {name} is then ± {reached:.3f}, within "
                f"the wanted ± {hw:g} (large-sample SE; the rarer label is expected at least {MIN_EXPECTED} times, "
                "below which that SE is unreliable).")
    return PlanItem(
        scenario="LLM judges and human labels — agreement study",
        question=f"How many items must two raters both label to report {name} to ± {hw:g}?",
        assumptions=(Assumption("prevalence of the positive label", f"{prevalence:g}%", "slider"),
                     Assumption("raters' true Cohen's κ", f"{kappa:g}", "slider"),
                     Assumption("statistic", name, "choice"),
                     Assumption("wanted 95% half-width", f"± {hw:g}", "slider")),
        test=f"{name}, 95% large-sample (delta-method) interval", alpha=0.05,
        results=(("items both raters label", f"{need:,}"), (f"{name} at this table", f"{value:.3f}"),
                 ("95% half-width at that n", f"± {reached:.3f}")),
        paragraph=sentence, link=link, code=code,
        references=(AGREEMENT_SOURCES[stat],
                    "Cochran (1954). Some methods for strengthening the common χ² tests. Biometrics 10:417–451."))

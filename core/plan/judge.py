"""The LLM-judges page's plan: how many human labels to pair with judge labels (PPI++), in words.

Angelopoulos, Duchi & Zrnic (2023), PPI++: the estimate's variance is σ²/n·(1 − ρ²·N/(n + N)) with the
power-tuned weight; Rogan & Gladen (1978) for the judge-only correction it is compared with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..judge import JudgeDesign, PPIPlan
from .document import Assumption, PlanItem
from .text import fmt_money, fmt_pct

__all__ = ["plan_item"]

REFERENCES = (
    "Angelopoulos, Duchi & Zrnic (2023). PPI++: Efficient prediction-powered inference. arXiv 2311.01453.",
    "Rogan & Gladen (1978). Estimating prevalence from the results of a screening test.",
    "Fleiss, Cohen & Everitt (1969). Large sample standard errors of kappa and weighted kappa.",
    "Gwet (2008). Computing inter-rater reliability and its variance in the presence of high agreement.",
)


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
    if not isinstance(design, JudgeDesign):
        raise ValueError(f"`design` must be a core.judge.JudgeDesign; got {type(design).__name__}.")
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

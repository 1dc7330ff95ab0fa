"""The Analysis page's plan: what the uploaded results showed, and the next evaluation sized from it.

NLPStatTest (Zhu et al. 2020) §3.4.1 for the prospective size; Card et al. (2020), appendix A, for why the
next evaluation is planned from an expected effect rather than the observed one.
"""

from __future__ import annotations

from . import NextEvaluation
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_pct
from ..validation import check_type

__all__ = ["plan_item"]

REFERENCES = (
    "Zhu, Jiang, Ding & Klakow (2020). NLPStatTest: A Toolkit for Comparing NLP System Performance. AACL.",
    "Card, Henderson, Khandelwal, Jia, Mahowald & Jurafsky (2020). With Little Power Comes Great Responsibility. "
    "EMNLP (appendix A).",
    "Dror, Baumer, Shlomov & Reichart (2018). The Hitchhiker's Guide to Testing Statistical Significance in NLP. ACL.",
)


def plan_item(design: NextEvaluation, *, report: str, name_a: str, name_b: str, n_units: int,
              sources: dict | None = None, link: str = "", code: str = "") -> PlanItem:
    """The plan of the next evaluation, with what this one showed.

    Parameters
    ----------
    design : NextEvaluation
        The expected mean difference and SD, α, target power and alternative.
    report : str
        The page's "What to report" text for the uploaded results (tests, effect sizes).
    name_a, name_b : str
        The two systems (user text; the plan document escapes it).
    n_units : int
        Evaluation units in the uploaded results.
    sources : dict, optional
        Where ``"mean"`` and ``"sd"`` came from (default "set on the page"; the page says "this data (pilot)" when
        they are the sample's own values).
    link, code :
        Passed through to the plan.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> item = plan_item(NextEvaluation(0.5, 1.0), report="", name_a="A", name_b="B", n_units=20)
    >>> dict(item.results)["pairs needed for 80% power"]
    '34'
    """
    check_type("design", design, NextEvaluation)
    sources = dict(sources or {})
    need = design.pairs_needed()
    power_now = design.power(max(int(n_units), 2))
    sided = "two-sided" if design.alternative == "two-sided" else f"one-sided ({design.alternative})"
    planning = (f"For the next evaluation we expect a mean difference of {design.expected_mean:g} (SD of the "
                f"differences {design.expected_sd:g}); a {sided} paired t test at α = {design.alpha:g} needs "
                f"{need:,} paired units for {design.target_power:.0%} power (NLPStatTest §3.4.1), where this "
                f"evaluation's {n_units:,} units would have {fmt_pct(power_now, 0)}.")
    return PlanItem(
        scenario="Analysis: the next evaluation",
        question=f"How many paired units does the next comparison of {name_b} with {name_a} need?",
        assumptions=(Assumption("expected mean difference", f"{design.expected_mean:g}",
                                sources.get("mean", "set on the page")),
                     Assumption("SD of the differences", f"{design.expected_sd:g}", sources.get("sd", "set on the page")),
                     Assumption("alternative", design.alternative, "set on the page")),
        test=f"paired t test ({sided})", alpha=design.alpha,
        results=((f"pairs needed for {design.target_power:.0%} power", f"{need:,}"),
                 (f"power with this evaluation's {n_units:,} units", fmt_pct(power_now))),
        paragraph=(report.strip() + " " + planning).strip(), link=link, code=code, references=REFERENCES)

"""The Claims page's plan: gains claimed on several benchmarks at once, under a multiplicity correction, in words.

Holm (1979) and Benjamini & Hochberg (1995) for the corrections; each claim is McNemar's test of Card et al.
(2020) on its benchmark.
"""

from __future__ import annotations

import numpy as np

from ..multiplicity import FamilyPower
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_pct
from . import ClaimsDesign
from ..validation import check_type

__all__ = ["CORRECTION_LABELS", "plan_item"]

CORRECTION_LABELS = {"none": "no correction", "bonferroni": "Bonferroni", "holm": "Holm", "bh": "Benjamini–Hochberg"}
REFERENCES = (
    "Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand J Stat 6:65–70.",
    "Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate. JRSS B 57:289–300.",
    "Card et al. (2020). With Little Power Comes Great Responsibility. EMNLP.",
)


def plan_item(design: ClaimsDesign, result: FamilyPower, *, figures: tuple = (), link: str = "",
              code: str = "") -> PlanItem:
    """The plan of a family of claims, as the Claims page shows it.

    Parameters
    ----------
    design : ClaimsDesign
        The page's design: the benchmarks (name, n, gain, P_a), the correction, ρ and α; each claim's unadjusted
        power is McNemar's (:meth:`ClaimsDesign.family`).
    result : FamilyPower
        ``design.power()``: each claim's power under the correction, P(all hold), the expected number that hold.
    figures, link, code :
        Passed through to the plan.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> d = ClaimsDesign(claims="A:500:2:90;B:500:2:90", correction="bonferroni")
    >>> plan_item(d, d.power()).results[-1]
    ('expected claims that hold', '0.41 of 2')
    """
    check_type("design", design, ClaimsDesign)
    family = design.family()  # the rows with each claim's unadjusted power, the correction, ρ and α
    names, m, label, alpha = family.names, len(family.powers), CORRECTION_LABELS[family.correction], family.alpha
    assumptions = tuple(Assumption(f"{name}: n, gain, P_a", f"{n:,} items, {gain:+.1f} pts, {agree:.1f}%",
                                   "table on the page") for name, n, gain, agree in family.claims) + (
        Assumption("correlation between benchmarks", f"{family.correlation:g}", "slider"),)
    sentence = (f"We claim gains on {m} benchmarks and control the family-wise error with {label} at α = {alpha:g}. "
                f"With the planned test sets, each claim has on average "
                f"{fmt_pct(float(np.mean(result.per_comparison)), 0)} "
                f"power after the correction (unadjusted {fmt_pct(float(np.mean(family.powers)), 0)}), and all {m} "
                f"claims hold together with probability {fmt_pct(result.all, 0)} (Holm, 1979; Benjamini & Hochberg, "
                "1995).")
    results = tuple([(f"power, {name}", fmt_pct(p)) for name, p in zip(names, result.per_comparison)]
                    + [("P(all claims hold)", fmt_pct(result.all)),
                       ("expected claims that hold", f"{result.expected_rejections:.2f} of {m}")])
    return PlanItem(
        scenario="Many claims (multiplicity)", question=f"Will the gains claimed on {m} benchmarks survive a {label} "
        "correction?", assumptions=assumptions, test=f"McNemar's test per benchmark, {label} across benchmarks",
        alpha=alpha, results=results, paragraph=sentence, figures=tuple(figures), link=link, code=code,
        references=REFERENCES)

"""The LLM-judges page's home-page card: what a budget buys with PPI++ (Angelopoulos, Duchi & Zrnic 2023)."""

from __future__ import annotations

from ..teaser import Teaser
from . import JudgePageDesign

__all__ = ["judge_teaser"]


def judge_teaser(design: JudgePageDesign | None = None) -> Teaser:
    """An LLM judge with human labels: the precision a budget buys with PPI++ at ``design`` (default: the judge
    page's default design, :class:`core.judge.JudgePageDesign`).

    One model's accuracy of 70%, a judge with sensitivity 90% and specificity 85%, a human label at 1 and a judge
    call at 0.01, a budget of 1,000 (:func:`core.judge.ppi_plan`; Angelopoulos, Duchi & Zrnic 2023). The card
    shows the effective n: the human-only labels with the same standard error.

    Examples
    --------
    >>> t = judge_teaser()
    >>> t.metric, t.shown == f"{t.value:,.0f}"
    ('Equivalent human-only items', True)
    """
    d = JudgePageDesign() if design is None else design
    plan = d.plan()
    return Teaser("judge", f"An LLM judge with human labels and {d.budget:,.0f} to spend: {plan.n_human:,} human and "
                  f"{plan.n_judge_only:,} judge labels are worth {plan.effective_n:,.0f} human ones.",
                  "Equivalent human-only items", float(plan.effective_n), f"{plan.effective_n:,.0f}")

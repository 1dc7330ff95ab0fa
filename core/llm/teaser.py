"""The LLM page's home-page cards: the benchmark's power (Miller 2024) and, for the "Prompts and seeds" tab, the
power ceiling one prompt template sets (generalizability theory; Brennan 2001)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import BenchmarkDesign, FacetDesign, facets

__all__ = ["llm_teaser", "llm_facets_teaser"]


def llm_teaser(design: BenchmarkDesign | None = None) -> Teaser:
    """Two LLMs on one benchmark: power of the paired t test at ``design`` (default: the LLM page's default
    :class:`core.llm.BenchmarkDesign`).

    The default: n = 1,000 questions, baseline 70%, a 3-point gain, difficulty spread σ = 0.25, correlation ρ = 0.6,
    K = 1 answer per question, independent questions, exact grading (:func:`core.llm.benchmark_power`; Miller 2024).

    Examples
    --------
    >>> llm_teaser().shown
    '37.6%'
    """
    design = BenchmarkDesign() if design is None else design
    power = design.power().power
    return Teaser("llm", f"Two LLMs on a {design.n:,}-question benchmark: {fmt_pct(power, 0)} power for a "
                  f"{100 * design.delta:g}-point gain.", "Power", power, fmt_pct(power))


def llm_facets_teaser(design: FacetDesign | None = None) -> Teaser:
    """Prompts and seeds: the power ceiling the design's prompt templates set, whatever the number of questions
    (:func:`core.llm.facet_ceiling`; generalizability theory, Cronbach et al. 1972; Brennan 2001), at ``design``
    (default: the LLM page's "Prompts and seeds" tab at its defaults, :class:`core.llm.FacetDesign`, one template and
    two fixed models).

    Examples
    --------
    >>> llm_facets_teaser().answer
    'With one prompt template, no number of questions gets past 52% power for +2 points.'
    """
    design = FacetDesign() if design is None else design
    ceiling, seeds = design.ceiling(), design.seeds_used
    if seeds is None:  # two fixed models: the sentence of core.llm.facets.teaser
        answer = facets.teaser(design.delta, templates=design.templates, alpha=design.alpha,
                               var_template=design.components()["var_template"])
    else:  # two training recipes: the seed term stays too (as the tab says it)
        which = "one prompt template" if design.templates == 1 else f"{design.templates} prompt templates"
        answer = (f"With {which}, no number of questions gets past {100 * ceiling:.0f}% power for "
                  f"{100 * design.delta:+g} points (with {seeds} seeds per recipe).")
    return Teaser("llm", answer, "Power ceiling (unlimited questions)", ceiling, fmt_pct(ceiling))

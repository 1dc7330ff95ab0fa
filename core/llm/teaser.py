"""The LLM page's home-page cards: the benchmark's power (Miller 2024) and, for the "Prompts and seeds" tab, the
power ceiling one prompt template sets (generalizability theory; Brennan 2001)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import BenchmarkDesign, FacetDesign, facets

__all__ = ["llm_teaser", "llm_facets_teaser"]

#: The LLM page's design at its defaults (K = 1, one question per cluster, exact grading).
_LLM = BenchmarkDesign()
#: The "Prompts and seeds" tab's design at its defaults (one template, two fixed models).
_FACETS = FacetDesign()


def llm_teaser(*, n=_LLM.n, accuracy_a=_LLM.accuracy_a, gain=_LLM.delta, difficulty_sd=_LLM.difficulty_sd,
               correlation=_LLM.correlation, alpha=_LLM.alpha) -> Teaser:
    """Two LLMs on one benchmark: power of the paired t test (the LLM page's defaults, :class:`core.llm.BenchmarkDesign`).

    n = 1,000 questions, baseline 70%, a 3-point gain, difficulty spread σ = 0.25, correlation ρ = 0.6, K = 1
    answer per question, independent questions, exact grading (:func:`core.llm.benchmark_power`; Miller 2024).

    Examples
    --------
    >>> llm_teaser().shown
    '37.6%'
    """
    design = _LLM.with_(n=n, accuracy_a=accuracy_a, delta=gain, difficulty_sd=difficulty_sd, correlation=correlation,
                        alpha=alpha)
    power = design.power().power
    return Teaser("llm", f"Two LLMs on a {n:,}-question benchmark: {fmt_pct(power, 0)} power for a "
                  f"{100 * gain:g}-point gain.", "Power", power, fmt_pct(power))


def llm_facets_teaser(*, delta=_FACETS.delta, templates=_FACETS.templates, alpha=_FACETS.alpha) -> Teaser:
    """Prompts and seeds (the LLM page's "Prompts and seeds" tab at its defaults, :class:`core.llm.FacetDesign`): the
    power ceiling one prompt template sets, whatever the number of questions (:func:`core.llm.facet_ceiling`;
    generalizability theory, Cronbach et al. 1972; Brennan 2001).

    Examples
    --------
    >>> llm_facets_teaser().answer
    'With one prompt template, no number of questions gets past 52% power for +2 points.'
    """
    design = _FACETS.with_(delta=delta, templates=templates, alpha=alpha)
    return Teaser("llm", facets.teaser(delta, templates=templates, alpha=alpha,
                                       var_template=design.components()["var_template"]),
                  "Power ceiling (unlimited questions)", design.ceiling(), fmt_pct(design.ceiling()))

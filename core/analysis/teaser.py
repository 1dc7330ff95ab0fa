"""The Analyze page's home-page card: the test recommended for the bundled sample (NLPStatTest, Zhu et al. 2020)."""

from __future__ import annotations

from pathlib import Path

from ..teaser import Teaser
from . import AnalysisDesign, parse_results

__all__ = ["ANALYSIS_SAMPLE", "analysis_teaser"]

#: The Analyze page's bundled example of paired scores.
ANALYSIS_SAMPLE = Path(__file__).resolve().parents[1] / "data" / "analysis_sample" / "scores.csv"


def analysis_teaser(design: AnalysisDesign | None = None) -> Teaser:
    """Results you already have: the test recommended for the Analyze page's sample (NLPStatTest §3.1.3) at
    ``design`` (default: the Analyze page's default design, :class:`core.analysis.AnalysisDesign`).

    :func:`core.analysis.parse_results` on the bundled paired scores (whatever the design's data source: the card
    shows the example), grouped into evaluation units as the page does when the design's ``m`` > 1 or its
    ``shuffle`` seed is set (:meth:`AnalysisDesign.units`), then :func:`core.analysis.recommend_tests` at the design's
    α (:meth:`AnalysisDesign.recommend`).

    Examples
    --------
    >>> analysis_teaser().value
    300.0
    """
    design = AnalysisDesign() if design is None else design
    data = parse_results(ANALYSIS_SAMPLE.read_bytes(), "scores")
    u, v = design.units(data.a, data.b) if design.m > 1 or design.shuffle else (data.a, data.b)
    rec = design.recommend(u - v, binary=False)
    names = list(rec.tests.query("verdict == 'recommended'")["name"])
    which = names[0] if names else "a paired test"
    return Teaser("analysis", f"Per-item scores of two systems ({data.rows_used:,} items in the example): the right "
                  f"test ({which}), effect sizes and what to write.", "Items", float(data.rows_used),
                  f"{data.rows_used:,}")

"""The Analyze page's home-page card: the test recommended for the bundled sample (NLPStatTest, Zhu et al. 2020)."""

from __future__ import annotations

from pathlib import Path

from ..teaser import Teaser
from . import parse_results, recommend_tests

__all__ = ["ANALYSIS_SAMPLE", "analysis_teaser"]

#: The Analyze page's bundled example of paired scores.
ANALYSIS_SAMPLE = Path(__file__).resolve().parents[1] / "data" / "analysis_sample" / "scores.csv"


def analysis_teaser(*, alpha=0.05) -> Teaser:
    """Results you already have: the test recommended for the Analyze page's sample (NLPStatTest §3.1.3).

    :func:`core.analysis.parse_results` and :func:`core.analysis.recommend_tests` on the bundled paired scores.

    Examples
    --------
    >>> analysis_teaser().value
    300.0
    """
    data = parse_results(ANALYSIS_SAMPLE.read_bytes(), "scores")
    rec = recommend_tests(data.a - data.b, alpha=alpha, binary=False)
    names = list(rec.tests.query("verdict == 'recommended'")["name"])
    which = names[0] if names else "a paired test"
    return Teaser("analysis", f"Per-item scores of two systems ({data.rows_used:,} items in the example): the right "
                  f"test ({which}), effect sizes and what to write.", "Items", float(data.rows_used),
                  f"{data.rows_used:,}")

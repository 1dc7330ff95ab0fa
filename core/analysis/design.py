"""The Analyze page's design: every setting of its analysis, declared once (:mod:`core.design`).

:class:`AnalysisDesign` holds what the page's sidebar and its sensitivity panel set — the data source and layout,
the evaluation units (NLPStatTest §3.1.1), the tests' level, alternative and seed, the Bayesian assessment's ROPE,
HDI mass and Beta prior (HyBayes §2.3–2.4, appendix A.3) and the target power — each with the page's URL key, the
engines' valid range (the widgets may show less), step, unit, label and help. Its methods run this package's
functions (and :mod:`core.bayes`) on the data with these settings; there are no statistics of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import bayes
from ..design import Design, spec
from ._common import ALTERNATIVES, KINDS, MAX_ROWS
from .describe import Recommendation, recommend_tests
from .parsing import evaluation_units
from .power import NextEvaluation, bootstrap_power_curve, paired_t_mde
from .systems import pairwise_comparisons
from .tests import paired_tests

__all__ = ["AnalysisDesign", "SOURCES", "ALPHAS", "HDI_MASSES"]

#: Where the data come from: the bundled sample, an uploaded file, pasted rows.
SOURCES = ("sample", "upload", "paste")
#: The α widget's values and the HDI-mass widget's values.
ALPHAS = (0.001, 0.005, 0.01, 0.05, 0.1)
HDI_MASSES = (0.8, 0.89, 0.9, 0.95, 0.99)
_SEED_MAX = 2**31 - 1
N_RESAMPLES = 5000  # resamples of the permutation and bootstrap tests on the page
N_ITER = 400  # resampled samples per size of the bootstrap power curve on the page


@dataclass(frozen=True)
class AnalysisDesign(Design):
    """The Analyze page's settings (NLPStatTest, Zhu et al. 2020 §3; HyBayes, Azer et al. 2020 §2.3–2.4).

    Examples
    --------
    >>> d = AnalysisDesign.from_params({"alpha": "0.01", "m": "5"})
    >>> (d.alpha, d.m, d.seed)
    (0.01, 5, 12345)
    >>> AnalysisDesign.from_params(d.to_params()) == d
    True
    """

    source: str = spec("sample", choices=SOURCES, key="data", label="Data",
                       help="Try the bundled sample data, upload a CSV/TSV file, or paste the rows.")
    kind: str = spec(
        "scores", choices=KINDS, key="kind", label="Layout",
        help="Paired scores: two numeric columns (A, B). 0/1 correctness: two columns of 0/1. Predictions + gold: "
        "three columns (A's prediction, B's prediction, gold label). One column per system: compare many systems "
        "pairwise.")
    m: int = spec(1, low=1, high=MAX_ROWS, ui_high=1000, step=1, unit="items", key="m",
                  label="Items per evaluation unit m",
                  help="Aggregate m adjacent items into one unit (e.g. documents of m sentences).")
    how: str = spec("mean", choices=("mean", "median"), key="how", label="Aggregate",
                    help="How the items of a unit are combined.")
    shuffle: int = spec(0, low=0, high=_SEED_MAX, step=1, unit="", key="shuffle",
                        label="Shuffle seed (0 = keep file order)", help="Shuffle items before grouping them.")
    alpha: float = spec(0.05, low=0.0, low_open=True, high=0.5, ui_low=0.001, unit="", key="alpha",
                        label="Significance level α",
                        help="Reject 'no difference' when p ≤ α; CIs are 1 − α.")
    alternative: str = spec("two-sided", choices=ALTERNATIVES, key="alternative", label="Alternative",
                            help="One-sided only if the direction was fixed before seeing the data.")
    seed: int = spec(12345, low=0, high=_SEED_MAX, step=1, unit="", key="seed",
                     label="Seed (permutation / bootstrap)", help="Fixes the resampling tests.")
    rope: float = spec(0.01, low=0.0, high=1e12, ui_high=10.0, step=0.005, fmt="%.3f", unit="score units",
                       key="rope", label="ROPE radius",
                       help="Differences smaller than this are practically equivalent (0.01 = one accuracy point; use "
                       "the scores' own unit).")
    hdi: float = spec(0.95, low=0.5, high=0.999, unit="", key="hdi", label="HDI mass",
                      help="Credibility of the highest-density interval.")
    prior_alpha: float = spec(1.0, low=0.0, low_open=True, high=1e6, ui_low=0.1, ui_high=1000.0, step=0.5, unit="",
                              key="prior_a", label="Beta prior α (accuracies)",
                              help="Beta(1, 1) is uniform (HyBayes' default).")
    prior_beta: float = spec(1.0, low=0.0, low_open=True, high=1e6, ui_low=0.1, ui_high=1000.0, step=0.5, unit="",
                             key="prior_b", label="Beta prior β (accuracies)", help="Beta(1, 1) is uniform.")
    target_power: float = spec(0.8, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.5, ui_high=0.99,
                               step=0.01, unit="", key="target", label="Target power",
                               help="Used for the MDE and the planner.")

    # --- the engines with these settings ----------------------------------------------------------------------
    def units(self, a, b):
        """:func:`~core.analysis.evaluation_units`: items grouped ``m`` at a time (shuffled first with a non-zero
        ``shuffle`` seed)."""
        return evaluation_units(np.asarray(a), np.asarray(b), self.m, how=self.how, seed=self.shuffle or None)

    def recommend(self, differences, *, binary=False) -> Recommendation:
        """:func:`~core.analysis.recommend_tests` at ``alpha``."""
        return recommend_tests(np.asarray(differences), alpha=self.alpha, binary=binary)

    def tests(self, a, b, tests, *, statistic="mean") -> pd.DataFrame:
        """:func:`~core.analysis.paired_tests` with the design's α, alternative and seed (5,000 resamples)."""
        return paired_tests(np.asarray(a), np.asarray(b), alpha=self.alpha, alternative=self.alternative,
                            seed=self.seed, tests=list(tests), statistic=statistic, n_resamples=N_RESAMPLES)

    def power_curve(self, differences, *, test="t") -> pd.DataFrame:
        """:func:`~core.analysis.bootstrap_power_curve` (retrospective, §3.4.2) with the design's α and seed."""
        return bootstrap_power_curve(np.asarray(differences), alpha=self.alpha, test=test, n_iter=N_ITER,
                                     seed=self.seed)

    def mde(self, n, sd_diff) -> float:
        """:func:`~core.analysis.paired_t_mde` at ``target_power``: the sensitivity of an evaluation of ``n`` units."""
        return paired_t_mde(n, sd_diff, target_power=self.target_power, alpha=self.alpha,
                            alternative=self.alternative)

    def next_evaluation(self, expected_mean, expected_sd) -> NextEvaluation:
        """The next evaluation (§3.4.1) at the design's α and target power; a one-sided alternative points the
        way the expected difference does."""
        alternative = "two-sided" if self.alternative == "two-sided" else ("greater" if expected_mean > 0 else "less")
        return NextEvaluation(expected_mean, expected_sd, alpha=self.alpha, target_power=self.target_power,
                              alternative=alternative)

    def sample_size(self, expected_mean, expected_sd) -> int:
        """Pairs the next evaluation needs for ``target_power`` (paired t test)."""
        return self.next_evaluation(expected_mean, expected_sd).pairs_needed()

    def bayes_accuracies(self, correct_a, n_a, correct_b, n_b):
        """:func:`core.bayes.compare_accuracies` with the design's Beta prior, ROPE and HDI mass."""
        return bayes.compare_accuracies(correct_a, n_a, correct_b, n_b, prior=(self.prior_alpha, self.prior_beta),
                                        rope=self.rope, hdi=self.hdi)

    def bayes_means(self, differences):
        """:func:`core.bayes.compare_means` with the design's ROPE and HDI mass."""
        return bayes.compare_means(np.asarray(differences), rope=self.rope, hdi=self.hdi)

    def pairwise(self, systems: pd.DataFrame, test="t") -> pd.DataFrame:
        """:func:`~core.analysis.pairwise_comparisons` of every pair of columns with the design's α and seed."""
        return pairwise_comparisons(systems, test=test, alpha=self.alpha, seed=self.seed)

"""Analysis of uploaded per-item results: data checks, tests, effect sizes, power, many systems.

Implements the comparison stage of NLPStatTest (Zhu, Liu, Dror et al. 2020,
§3): evaluation units (§3.1.1), summary statistics and the skewness rule of
thumb (§3.1.3), the Shapiro–Wilk check (§3.1.4), recommended tests (§3.1.5),
significance tests (§3.2), effect sizes (§3.3), prospective power and the
bootstrap power curve (§3.4), and multi-system comparison with Holm and
Bonferroni corrections (Figure 4).

Uploaded files are parsed defensively: bytes in, numbers out; nothing in a
file is ever executed or evaluated.

Cost and limits
---------------
Every computation costs time and memory in proportion to the data it needs,
never to the square of the number of rows, so any accepted upload (up to
:data:`MAX_ROWS` rows, :data:`MAX_BYTES` bytes, :data:`MAX_SYSTEMS` system
columns) is analysed in seconds and well under 1 GB:

* the Hodges–Lehmann estimator and its interval select order statistics of the
  n(n+1)/2 Walsh averages in O(n log n) time and O(n) memory, exactly
  (:func:`walsh_order_statistics`);
* resampling runs in chunks of at most ~32 MB. The permutation test of the
  mean draws sign flips eight at a time from a table of partial sums; the
  bootstrap and permutation tests of the median draw the middle order
  statistics directly (O(1) and O(√n) per resample). Mean-based resampling
  whose work ``n × resamples`` exceeds :data:`PERMUTATION_WORK` or
  :data:`BOOTSTRAP_WORK` uses the normal limit of the same resampling
  distribution instead — reported in the result's ``method`` column;
* all pairs of many systems are tested at once, vectorized across pairs
  (two threads); a Wilcoxon test of all pairs is refused above
  :data:`PAIRWISE_RANK_WORK` ranked differences and resampling tests of all
  pairs above :data:`PAIRWISE_WORK` resampled values, with a message saying
  what to reduce;
* scores must be finite and at most :data:`MAX_ABS_SCORE` in absolute value
  (beyond it differences, squares and sums could overflow).

The package by job: ``parsing`` (uploads, the four file kinds, evaluation units), ``describe`` (the shape of the
differences and the recommended tests), ``walsh`` (Walsh-average order statistics, Hodges–Lehmann), ``tests``
(the paired tests and effect sizes), ``power`` (prospective sizes, the bootstrap curve, the accuracy design,
the MDE), ``systems`` (all pairs of many systems); ``_common`` (limits, names, input checks) and
``_resampling`` (the chunked resampling engines) are package-internal. The limits are read from ``_common`` at
call time, so ``core.analysis._common`` is where a test or a deployment changes them. Every public name is
importable from ``core.analysis``.
"""

from __future__ import annotations

from ._common import (  # noqa: F401
    ALTERNATIVES,
    BOOTSTRAP_WORK,
    CURVE_WORK,
    KINDS,
    MAX_ABS_SCORE,
    MAX_BYTES,
    MAX_ROWS,
    MAX_SYSTEMS,
    PAIRWISE_RANK_WORK,
    PAIRWISE_WORK,
    PERMUTATION_WORK,
    TESTS,
)
from .parsing import (  # noqa: F401
    ParsedResults,
    evaluation_units,
    parse_results,
    read_table,
)
from .describe import (  # noqa: F401
    Recommendation,
    recommend_tests,
    summarize,
)
from .walsh import (  # noqa: F401
    hodges_lehmann,
    walsh_order_statistics,
)
from ._resampling import (  # noqa: F401
    _bootstrap_medians,
    _signflip_medians,
    _signflip_sums,
)
from .tests import (  # noqa: F401
    EffectSizes,
    effect_sizes,
    paired_tests,
)
from .power import (  # noqa: F401
    NextEvaluation,
    AccuracyDesign,
    accuracy_design,
    bootstrap_power_curve,
    paired_t_mde,
    prospective_sample_size,
)
from .systems import (  # noqa: F401
    pairwise_comparisons,
)
from .design import AnalysisDesign  # noqa: F401
from . import _common, walsh  # noqa: F401  (the tunable limits; the Walsh search's constants)

__all__ = [
    "AnalysisDesign",
    "NextEvaluation",
    "MAX_BYTES",
    "MAX_ROWS",
    "MAX_SYSTEMS",
    "MAX_ABS_SCORE",
    "PERMUTATION_WORK",
    "BOOTSTRAP_WORK",
    "PAIRWISE_WORK",
    "PAIRWISE_RANK_WORK",
    "CURVE_WORK",
    "KINDS",
    "TESTS",
    "ALTERNATIVES",
    "ParsedResults",
    "Recommendation",
    "EffectSizes",
    "read_table",
    "parse_results",
    "evaluation_units",
    "summarize",
    "recommend_tests",
    "paired_tests",
    "effect_sizes",
    "hodges_lehmann",
    "walsh_order_statistics",
    "prospective_sample_size",
    "bootstrap_power_curve",
    "pairwise_comparisons",
    "accuracy_design",
    "AccuracyDesign",
    "paired_t_mde",
]


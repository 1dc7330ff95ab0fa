"""Power, Type-M and Type-S error for comparing classifiers on accuracy.

Scenarios (Card et al. 2020, §2–3 and appendices B, C, E):

* paired comparison on one test set, McNemar's test (:func:`mcnemar_power`,
  :func:`mcnemar_mde`, :func:`mcnemar_sample_size`) — :mod:`.paired`;
* priors for the agreement rate when it is unknown: the GLUE and SQuAD 2.0
  overlap regressions (appendix E.2.1, Tables 5–6) and the Lachenbruch (1992)
  no-prior bounds (appendix E.3, :func:`lachenbruch_mde`), resolved for a
  design by :func:`paired_design` — :mod:`.paired`;
* unpaired comparison, two-proportion z test as R's ``power.prop.test``
  (appendix E.5, :func:`unpaired_power`, :func:`unpaired_mde`) — :mod:`.unpaired`;
* head-to-head preferences with ties (appendix H.4, Figure 1,
  :func:`preference_power`) — :mod:`.preferences`;
* "no worse than": paired non-inferiority and equivalence (TOST) tests with a margin
  (:func:`noninferiority_power`, :func:`equivalence_power` and their sample sizes) — :mod:`.noninferiority`;
* one accuracy on a small test set: Wilson, Clopper–Pearson, Jeffreys, Beta and Wald intervals, their exact
  coverage and the items needed for a given width (:func:`interval`, :func:`interval_coverage`,
  :func:`interval_sample_size`) — :mod:`.intervals`;
* curves for the page (:mod:`.curves`), Table 2 and the SQuAD 2.0
  leaderboard replay (:mod:`.leaderboards`).

All paired designs share one exact engine (:mod:`.engine`): with ``D ~
Binomial(n, p_d)`` discordant items and ``B | D ~ Binomial(D, q)`` of them in
favour of the new system, every test rejects when ``min(B, D - B) <= k_D``
with ``k_D < D / 2``, so power, Type-S and Type-M are finite sums (no Monte
Carlo error). ``method="simulate"`` runs the paper's Figure 2 simulation.

Sample sizes: every ``*_sample_size`` returns the first n whose power reaches
the target, or with ``conservative=True`` the smallest n from which power
stays at or above it (exact tests zigzag; :mod:`core.sizing`); the
``*_sample_sizes`` variants return both.
"""

from .design import AccuracyPageDesign
from .curves import paired_curves, power_curves, preference_curves, unpaired_curves
from .engine import METHODS, TESTS, pvalue_from_counts
from .intervals import INTERVAL_METHODS, coverage_curves, interval, interval_coverage, interval_sample_size
from .leaderboards import GLUE_TASKS, SquadPair, squad_leaderboard, squad_pair, task_mde_table
from .noninferiority import (
    NI_METHODS,
    NI_TESTS,
    NonInferiorityDesign,
    equivalence_power,
    equivalence_sample_size,
    equivalence_sample_sizes,
    noninferiority_power,
    noninferiority_sample_size,
    noninferiority_sample_sizes,
    restricted_variance,
)
from .paired import (
    AGREEMENT_SOURCES,
    MDE_PRIORS,
    PRIORS,
    LachenbruchMDE,
    PairedDesign,
    agreement_prior,
    design_agreement,
    difference_distribution,
    lachenbruch_mde,
    mcnemar_assurance,
    mcnemar_mde,
    mcnemar_power,
    mcnemar_sample_size,
    mcnemar_sample_sizes,
    paired_design,
)
from .preferences import (
    TIES,
    PreferenceDesign,
    preference_assurance,
    preference_distribution,
    preference_mde,
    preference_power,
    preference_sample_size,
    preference_sample_sizes,
)
from .unpaired import (
    UnpairedDesign,
    unpaired_assurance,
    unpaired_distribution,
    unpaired_mde,
    unpaired_power,
    unpaired_sample_size,
    unpaired_sample_sizes,
)

__all__ = [
    "AccuracyPageDesign",
    "TESTS",
    "METHODS",
    "PRIORS",
    "TIES",
    "GLUE_TASKS",
    "LachenbruchMDE",
    "PairedDesign",
    "NonInferiorityDesign",
    "PreferenceDesign",
    "UnpairedDesign",
    "SquadPair",
    "agreement_prior",
    "mcnemar_power",
    "mcnemar_assurance",
    "preference_assurance",
    "unpaired_assurance",
    "mcnemar_mde",
    "mcnemar_sample_size",
    "mcnemar_sample_sizes",
    "lachenbruch_mde",
    "unpaired_power",
    "unpaired_mde",
    "unpaired_sample_size",
    "unpaired_sample_sizes",
    "preference_sample_size",
    "preference_sample_sizes",
    "preference_power",
    "preference_mde",
    "power_curves",
    "paired_curves",
    "preference_curves",
    "unpaired_curves",
    "preference_distribution",
    "unpaired_distribution",
    "MDE_PRIORS",
    "difference_distribution",
    "task_mde_table",
    "pvalue_from_counts",
    "squad_pair",
    "squad_leaderboard",
    "AGREEMENT_SOURCES",
    "design_agreement",
    "paired_design",
    "NI_TESTS",
    "NI_METHODS",
    "noninferiority_power",
    "noninferiority_sample_size",
    "noninferiority_sample_sizes",
    "equivalence_power",
    "equivalence_sample_size",
    "equivalence_sample_sizes",
    "restricted_variance",
    "INTERVAL_METHODS",
    "interval",
    "interval_coverage",
    "interval_sample_size",
    "coverage_curves",
]

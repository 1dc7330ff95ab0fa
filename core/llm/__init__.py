"""Power of LLM benchmark comparisons: resampled answers, clustered questions, LLM judges.

Two language models answer the same benchmark: **A** (the baseline) and **B**
(the new model). This module plans such an evaluation — power, Type-M and
Type-S error, minimum detectable effect, number of questions, the cheapest
number of answers per question — and estimates the design's parameters from
per-answer logs (a tidy CSV/JSONL, or lm-evaluation-harness ``--log_samples``
files).

The model
---------
* **Questions.** Question *i* has latent probabilities ``p_Ai`` and ``p_Bi``
  that A and B answer it correctly. Over questions they have means
  ``accuracy_a`` = μ_A and ``accuracy_b`` = μ_B, the same standard deviation
  ``difficulty_sd`` = σ, and correlation ``correlation`` = ρ. Δ = μ_B − μ_A
  is the true accuracy gain.
* **Answers.** Each model answers each question ``samples`` = K times
  (temperature > 0); the answers are independent Bernoulli(p) draws and a
  question's score is the mean of its K answers.
* **Clusters.** Questions come in clusters of ``cluster_size`` = m (several
  questions per passage, document or template). The question-level
  differences ``p_Bi − p_Ai`` of two questions in the same cluster have
  correlation ``icc``; sampling noise is independent across questions and does
  not cluster. ``n_questions`` need not be a multiple of m: the last cluster
  is then smaller (at least 2 clusters are required).
* **Judge.** When an LLM judge with sensitivity Se and specificity Sp grades
  each answer, a right answer is graded right with probability Se and a wrong
  one graded right with probability 1 − Sp. A question's observed probability
  is ``p* = (1 − Sp) + J·p`` with Youden's ``J = Se + Sp − 1``, so observed
  means are ``Se·μ + (1 − Sp)(1 − μ)``, the spread is ``J·σ`` and every
  difference shrinks by J. Differences are reported on the Rogan–Gladen
  corrected scale (observed / J), which is the true-accuracy scale.
* **Test.** The two-sided t test of the mean paired difference of question
  scores, with the cluster-robust (CR1) standard error and G − 1 degrees of
  freedom for G clusters — the plain paired t test when m = 1. With few
  clusters the z test over-rejects (8% instead of 5% at G = 10 in this model's
  simulation); t(G − 1) is the usual small-G correction (Cameron & Miller
  2015, §VI) and holds the level within simulation error down to G = 5 when
  clusters hold many questions. The closed form assumes normal cluster totals:
  with G ≤ 20 and few questions per cluster, right/wrong answers make the
  test conservative (a false-positive rate near 1% at five single questions)
  and power depends on the shape of the difficulty distribution by 0.01–0.02
  (an independent review's simulations); ``method="simulate"`` shows it.

Variance of the mean difference (derived in :func:`benchmark_power`)::

    Var(D̄) = [2σ²(1 − ρ)(1 + (m − 1)·icc) + (w_A + w_B)/K] / n,
    w = μ(1 − μ) − σ²       (the mean within-question Bernoulli variance E[p(1 − p)])

Power counts significant results in the direction of the true effect; Type-S
is P(wrong sign | significant) and Type-M is E[|estimate| | significant]/|Δ|
(Card et al. 2020, Figure 2 and appendix B). At Δ = 0, ``power`` is the
rejection rate (the false-positive rate).

References
----------
Miller, E. (2024). "Adding Error Bars to Evals: A Statistical Approach to
Language Model Evaluations." arXiv:2411.00640 — the super-population view of
questions, the decomposition of a score's variance into between-question
variance and within-question (conditional) variance, resampling K answers per
question, clustered standard errors, paired differences and power analysis.
(Its worked sample-size example uses a paired variance of 1/9; its stated
assumptions — variance 1/12 for each model, correlation 0.5 — give
2·(1/12)·(1 − 0.5) = 1/12. The formulas here are derived, not copied.)

Card, D., Henderson, P., Khandelwal, U., Jia, R., Mahowald, K. & Jurafsky, D.
(2020). "With Little Power Comes Great Responsibility." EMNLP — power,
Type-M and Type-S error.

Rogan, W. J. & Gladen, B. (1978). "Estimating prevalence from the results of
a screening test." American Journal of Epidemiology 107:71–76.

Cameron, A. C. & Miller, D. L. (2015). "A Practitioner's Guide to
Cluster-Robust Inference." Journal of Human Resources 50:317–372 — the CR1
estimator and its small-number-of-clusters caveat.
"""

from __future__ import annotations

# A package by job: the shared limits, checks and closed form (_common, package-internal), the page's design, the
# simulation, power (with assurance and "no worse than"), sample sizes and the cheapest design, the page's curves,
# fitting from logs, and the readers of logs.
from .design import *  # noqa: F401,F403
from .simulation import *  # noqa: F401,F403
from .power import *  # noqa: F401,F403
from .sizing import *  # noqa: F401,F403
from .curves import *  # noqa: F401,F403
from .fitting import *  # noqa: F401,F403
from .readers import *  # noqa: F401,F403
from .facets import *  # noqa: F401,F403
from .inspect_logs import *  # noqa: F401,F403
from .inspect_templates import *  # noqa: F401,F403
from .helm import *  # noqa: F401,F403
from .lighteval import *  # noqa: F401,F403
from .correctness_files import *  # noqa: F401,F403
from .subset import *  # noqa: F401,F403
from .items import *  # noqa: F401,F403
from ._common import (  # noqa: F401  (private names used by the pages, tests and other modules)
    _N_MAX, _Design, _check_n, _check_target, _closed_form, _clusters, _t_tails, _validate, _variance_parts)
from .simulation import _binomial, _calibrate, _draw_probabilities, _mean_and_cluster_se  # noqa: F401
from .sizing import _clusters_needed  # noqa: F401
from .readers import _ALIASES, _find_columns, _task_of  # noqa: F401

__all__ = [
    "BenchmarkDesign",
    "NoWorseDesign",
    "NI_ALPHAS",
    "METHODS",
    "MAX_SIMULATED_QUESTIONS",
    "FILES_PER_MODEL",
    "BUDGET_COMPONENTS",
    "SAMPLE_DIR",
    "BenchmarkFit",
    "BenchmarkPlan",
    "HarnessOptions",
    "benchmark_power",
    "benchmark_sample_size",
    "benchmark_sample_sizes",
    "benchmark_mde",
    "benchmark_plan",
    "power_curve",
    "variance_budget",
    "judge_curve",
    "simulate_benchmark_log",
    "fit_benchmark",
    "read_benchmark_log",
    "read_harness_samples",
    "harness_options",
    # Inspect AI logs (.eval, .json): core.llm.inspect_logs
    "InspectLog",
    "InspectOptions",
    "is_inspect_log",
    "read_inspect_log",
    "inspect_options",
    "read_inspect_logs",
    "read_inspect_templates",
    # HELM runs (per_instance_stats.json): core.llm.helm
    "HelmRun",
    "HelmOptions",
    "HELM_TRIALS",
    "is_helm_stats",
    "read_helm_stats",
    "helm_run_model",
    "helm_run_name",
    "helm_run_scenario",
    "helm_options",
    "read_helm_runs",
    # lighteval details (details_<task>_<date>.parquet): core.llm.lighteval
    "LightevalRun",
    "LightevalOptions",
    "is_lighteval_details",
    "read_lighteval_details",
    "is_lighteval_results",
    "lighteval_run_model",
    "lighteval_options",
    "read_lighteval_runs",
    "sample_log",
    "sample_harness_files",
    "benchmark_assurance",
    "benchmark_noninferiority_power",
    "benchmark_noninferiority_sample_size",
    "task_table",
    "difficulty_from_covariance",
    # prompts, samples and seeds (generalizability theory): core.llm.facets
    "FacetDesign",
    "FACET_DEFAULTS",
    "FACET_MAX_QUESTIONS",
    "FACET_COMPONENTS",
    "TEMPLATE_ALIASES",
    "FacetPower",
    "FacetPlan",
    "FacetFit",
    "facet_se",
    "facet_power",
    "facet_ceiling",
    "facet_sample_size",
    "facet_plan",
    "facet_budget",
    "facet_power_curve",
    "fit_facets",
    "read_harness_templates",
    "SUBSET_METHODS",
    "SubsetBound",
    "SubsetPrediction",
    "subset_se",
    "subset_size",
    "subset_agreement",
    "subset_size_for_agreement",
    "subset_curve",
    "prediction_assisted_se",
    "read_correctness",
    # a models × items matrix from harness, Inspect AI or HELM files: core.llm.correctness_files
    "CorrectnessOptions",
    "CORRECTNESS_KINDS",
    "correctness_options",
    "read_correctness_files",
    "subset_variance_bound",
    "subset_teaser",
    # which items to run: the subset tab's design and the item list's (core.llm.items)
    "SubsetDesign",
    "ItemListDesign",
    "SUBSET_M",
    "ITEM_LIST_TOTAL_FACTOR",
    "TASK_CHARS",
]



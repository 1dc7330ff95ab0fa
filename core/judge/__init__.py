"""LLM judges and human labels: how many human labels to pair with judge labels, and agreement studies.

Two planning questions of an annotation campaign in which most labels come
from an LLM judge.

1. **Human labels next to a judge (PPI++).** ``n`` items are labelled by a
   human *and* the judge; ``N`` more items only by the judge. The estimate of
   the mean human label θ (an accuracy, a rate, a mean score) is the
   power-tuned prediction-powered estimate

       θ̂ = λ·mean(judge on the N judge-only items) + mean(human − λ·judge on the n labelled items)

   (Angelopoulos, Duchi & Zrnic 2023: the power-tuned estimator for a mean). With human
   label SD σ (``sd``), judge–human correlation ρ (``correlation``) and the
   tuned λ = ρ·(σ/σ_g)·N/(n + N) (their
   tuning for the mean, λ̂ = Ĉov/((1 + n/N)·V̂ar(g)); ppi_py's ``ppi_mean_pointestimate``),
   its variance is

       Var = σ²/n · (1 − ρ²·N/(n + N)) = a/n + b/(n + N),   a = σ²(1 − ρ²),  b = σ²ρ².

   A labelled item costs ``cost_human + cost_judge`` and a judge-only item
   ``cost_judge``, so the cost is C = n·c_h + (n + N)·c_j. Minimising a/n +
   b/M subject to n·c_h + M·c_j = C (M = n + N) gives n ∝ √(a/c_h),
   M ∝ √(b/c_j) and the optimum (Lagrange / Cauchy–Schwarz)

       Var* = (√(a·c_h) + √(b·c_j))² / C,

   as long as M ≥ n (otherwise no judge-only items are worth buying and the
   humans label everything). :func:`ppi_plan` rounds to whole items by
   searching integers around this optimum, so the result never exceeds its
   budget and never misses its target SE or power.

   **Paired comparison of two models** (``paired=True``): both models' outputs
   on the same items are labelled; D is the per-item human difference and g
   the judge difference, ``sd`` = SD(D), ``correlation`` = corr(D, g). The
   algebra is the same; an item now carries two outputs, so a labelled item
   costs 2·(c_h + c_j) and a judge-only item 2·c_j.

2. **Judge-only with a correction (Rogan & Gladen 1978).** For binary labels,
   a judge with sensitivity Se and specificity Sp gives an apparent rate
   p = Se·θ + (1 − Sp)(1 − θ); the corrected rate is θ̂ = (p̂ + Ŝp − 1)/(Ŝe + Ŝp − 1)
   with Se, Sp estimated on calibration items (:func:`rogan_gladen`).

3. **Agreement studies** for two raters (:func:`agreement_se`,
   :func:`agreement_sample_size`): the large-sample SE of Cohen's κ (Fleiss,
   Cohen & Everitt 1969), Gwet's AC1 (Gwet 2008) and Krippendorff's α
   (nominal; the linearised variance of Scott's π, to which α converges,
   Gwet 2014 §5), for a population table given by the category prevalence and
   Cohen's κ. :func:`prevalence_paradox_curve` shows κ collapsing at skewed
   prevalence while AC1 does not (Feinstein & Cicchetti 1990; Gwet 2008).

4. **Which items to label** (:mod:`core.judge.active`; Zrnic & Candès 2024): label item i with probability
   π_i ∝ √(f_i(1 − f_i)) and weight the residuals by 1/π_i (:func:`label_probabilities`, :func:`active_se`).

5. **Labels per item vs more items** (:mod:`core.judge.labels`; Dorner & Hardt 2024): the annotator error from a
   pilot κ, majority-of-k error and the cheapest k for a McNemar comparison (:func:`labels_per_item`).

The package: :mod:`core.judge.ppi` (1 and 2), :mod:`core.judge.calibration`
(calibration uploads, :func:`fit_judge`), :mod:`core.judge.agreement` (3), :mod:`core.judge.active` (4) and
:mod:`core.judge.labels` (5).

References
----------
Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I. & Zrnic, T.
(2023). "Prediction-powered inference." Science 382, 669–674.

Angelopoulos, A. N., Duchi, J. C. & Zrnic, T. (2023). "PPI++: Efficient
prediction-powered inference." arXiv:2311.01453 — power tuning of λ for mean estimation.

Rogan, W. J. & Gladen, B. (1978). "Estimating prevalence from the results of a
screening test." American Journal of Epidemiology 107, 71–76.

Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). "Large sample standard
errors of kappa and weighted kappa." Psychological Bulletin 72, 323–327.

Gwet, K. L. (2008). "Computing inter-rater reliability and its variance in the
presence of high agreement." British Journal of Mathematical and Statistical
Psychology 61, 29–48. Gwet, K. L. (2014). *Handbook of Inter-Rater
Reliability*, 4th ed., ch. 5 (two-rater variances of κ, π, AC1, α).

Krippendorff, K. (2004). *Content Analysis*, 2nd ed., ch. 11.

Feinstein, A. R. & Cicchetti, D. V. (1990). "High agreement but low kappa: I.
The problems of two paradoxes." Journal of Clinical Epidemiology 43, 543–549.
"""

from core.judge.active import (
    POLICIES,
    ActiveDesign,
    active_curve,
    active_estimate,
    active_item_list,
    active_labels_for_se,
    active_se,
    active_teaser,
    beta_confidences,
    calibrated_confidence,
    gap_conditional_variance,
    label_probabilities,
)
from core.judge.agreement import (
    STATISTICS,
    agreement_curve,
    agreement_sample_size,
    agreement_se,
    agreement_table,
    agreement_value,
    prevalence_paradox_curve,
)
from core.judge.calibration import SAMPLE_FILE, JudgeFit, fit_judge, read_calibration, sample_calibration
from core.judge.design import JudgePageDesign
from core.judge.labels import (
    LabelsPlan,
    annotator_error,
    connor_sample_size,
    labels_per_item,
    labels_teaser,
    majority_error,
    noisy_cells,
)
from core.judge.ppi import (
    CorrectedRate,
    JudgeDesign,
    PPIPlan,
    Strategy,
    judge_correlation,
    ppi_curve,
    ppi_plan,
    ppi_se,
    rogan_gladen,
    split_curve,
    strategy_table,
)

__all__ = [
    "JudgePageDesign",
    "Strategy",
    "JudgeDesign",
    "PPIPlan",
    "CorrectedRate",
    "JudgeFit",
    "STATISTICS",
    "ppi_se",
    "ppi_plan",
    "ppi_curve",
    "split_curve",
    "strategy_table",
    "judge_correlation",
    "rogan_gladen",
    "read_calibration",
    "fit_judge",
    "sample_calibration",
    "agreement_table",
    "agreement_value",
    "agreement_se",
    "agreement_sample_size",
    "agreement_curve",
    "prevalence_paradox_curve",
    "POLICIES",
    "ActiveDesign",
    "label_probabilities",
    "active_se",
    "active_labels_for_se",
    "active_curve",
    "active_item_list",
    "active_estimate",
    "beta_confidences",
    "gap_conditional_variance",
    "calibrated_confidence",
    "active_teaser",
    "LabelsPlan",
    "annotator_error",
    "majority_error",
    "noisy_cells",
    "connor_sample_size",
    "labels_per_item",
    "labels_teaser",
]

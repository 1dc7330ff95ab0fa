"""The LLM-judges page's design: every input of its PPI++ plan and its agreement study, declared once.

:class:`JudgePageDesign` is a :class:`core.design.Design`: each field carries the page's URL key, default, the
engine's valid range (the widgets show a narrower ``ui_low``/``ui_high``), step, unit, label and help. It builds
the engine's :class:`~core.judge.ppi.JudgeDesign` (:meth:`JudgePageDesign.judge_design`) and delegates every
number to :mod:`core.judge` — no statistics of its own.

Units are those of the page's links: the judge's accuracy inputs and the agreement study's prevalence are in
percent (``?prev=70``), the SE, effect and SD on the label's own scale (0.011 = 1.1 points of accuracy for
right/wrong labels). The page shows the SE in points in its metrics; the ``target_se`` widget keeps the label's
scale because its URL value does (a link ``?target_se=0.011`` must keep meaning 0.011).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ..design import Design, spec
from .agreement import (
    STATISTICS,
    _check_agreement,
    agreement_curve,
    agreement_sample_size,
    agreement_value,
    prevalence_paradox_curve,
)
from .active import _MAX_ITEMS as MAX_ACTIVE_ITEMS
from .active import ActiveDesign, beta_confidences
from .labels import MAX_LABELS, LabelsPlan, labels_per_item
from .ppi import JudgeDesign, PPIPlan, judge_correlation, ppi_curve, split_curve

__all__ = ["JudgePageDesign", "ACTIVE_SOURCES", "ESTIMANDS", "JUDGE_SPECS", "PLAN_BY", "BUDGETS"]

#: What is estimated: one model's score, or the difference of two models on the same items.
ESTIMANDS = ("one", "paired")
#: How the judge is described: sensitivity/specificity (binary labels, one model) or a correlation.
JUDGE_SPECS = ("accuracy", "correlation")
#: What the plan aims at: a budget (most precise), a target SE or an effect (cheapest).
PLAN_BY = ("budget", "target_se", "delta")
#: Where the active-labelling tab takes the judge's confidences from.
ACTIVE_SOURCES = ("beta", "calibration")
#: The budget widget's values.
BUDGETS = (100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 20000, 50000, 100000)
#: The agreement study's confidence level (the page sizes 95% intervals).
CONFIDENCE = 0.95


@dataclass(frozen=True)
class JudgePageDesign(Design):
    """The LLM-judges page's inputs: what is estimated, the judge, the costs, the plan's aim, α and target power,
    and the agreement study (Angelopoulos, Duchi & Zrnic 2023; Rogan & Gladen 1978; Fleiss, Cohen & Everitt 1969;
    Gwet 2008).

    Examples
    --------
    >>> d = JudgePageDesign()
    >>> d.judge_design() == JudgeDesign(**d.judge_design().kwargs())
    True
    >>> JudgePageDesign.from_params({"plan_by": "delta", "delta": "0.05"}).judge_design().delta
    0.05
    """

    estimand: str = spec(
        "one", choices=ESTIMANDS, key="estimand", label="Estimate",
        help="One model's accuracy (or mean score), or the difference between two models scored on the same items "
        "(both outputs of an item are labelled: costs double).")
    judge_spec: str = spec(
        "accuracy", choices=JUDGE_SPECS, key="judge_spec", label="Describe the judge by",
        help="Binary labels (right/wrong): the judge's sensitivity and specificity against humans. Scores, or a "
        "difference of two models: the judge–human correlation and the SD of a human label.")
    prevalence_pct: float = spec(
        70.0, low=0.0, high=100.0, low_open=True, high_open=True, ui_low=5.0, ui_high=95.0, step=0.5, unit="%",
        key="prev", label="True accuracy of the model (%)", help="The rate humans would give (the quantity estimated).")
    sensitivity_pct: float = spec(
        90.0, low=0.0, high=100.0, ui_low=50.0, ui_high=100.0, step=0.5, unit="%", key="se",
        label="Judge sensitivity (%)", help="P(the judge says right | a human says right).")
    specificity_pct: float = spec(
        85.0, low=0.0, high=100.0, ui_low=50.0, ui_high=100.0, step=0.5, unit="%", key="sp",
        label="Judge specificity (%)", help="P(the judge says wrong | a human says wrong).")
    correlation: float = spec(
        0.8, low=-1.0, high=1.0, ui_low=0.0, ui_high=0.99, step=0.01, unit="",
        key="rho", label="Judge–human correlation ρ",
        help="Correlation between the judge's label and the human label over items (for a difference of two models: "
        "between the judge's and the humans' per-item differences).")
    sd: float = spec(
        0.5, low=0.0, low_open=True, ui_low=0.05, ui_high=2.0, step=0.01, unit="label units", key="sd",
        label="SD of a human label σ",
        help="0.5 for a right/wrong label at 50% accuracy (√(p(1 − p)) in general); for the difference of two "
        "models, about √(2·p(1 − p)·(1 − r)) with r the models' correlation.")
    cost_human: float = spec(1.0, low=0.0, low_open=True, ui_low=0.001, ui_high=10_000.0, step=0.1, fmt="%.3f",
                             unit="currency per label", key="c_h", label="Per human label",
                             help="What one human label costs.")
    cost_judge: float = spec(0.01, low=0.0, low_open=True, ui_low=0.0001, ui_high=1_000.0, step=0.001, fmt="%.4f",
                             unit="currency per call", key="c_j", label="Per judge call",
                             help="What one LLM-judge call costs.")
    plan_by: str = spec(
        "budget", choices=PLAN_BY, key="plan_by", label="Plan for",
        help="A budget: the most precise split it buys. A target SE or an effect to detect: the cheapest split that "
        "reaches it.")
    budget: int = spec(1000, low=0, low_open=True, ui_low=BUDGETS[0], ui_high=BUDGETS[-1], unit="currency",
                         key="budget", label="Budget",
                         help="Total spend on human labels and judge calls.")
    target_se: float = spec(
        0.011, low=0.0, low_open=True, ui_low=0.002, ui_high=0.05, step=0.0005, fmt="%.4f", unit="label units",
        key="target_se", label="Target standard error",
        help="The SE of the estimate to reach (0.01 ≈ ±2 points at 95%).")
    delta: float = spec(
        0.03, ui_low=0.005, ui_high=0.2, step=0.005, fmt="%.3f", unit="label units", key="delta",
        label="Effect to detect",
        help="A difference from a reference value (one model) or between the two models, on the label's scale "
        "(0.03 = 3 points of accuracy).")
    alpha: float = spec(0.05, low=0.0, low_open=True, high=0.5, ui_low=0.001, unit="", key="alpha",
                        label="Significance level α (two-sided)", help="Reject 'no difference' when p ≤ α.")
    target_power: float = spec(0.8, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.5, ui_high=0.99,
                               step=0.01, unit="", key="target", label="Target power",
                               help="Power to reach in 'an effect' mode.")
    statistic: str = spec(
        "cohen", choices=tuple(STATISTICS), key="ag_stat", label="Statistic",
        help="The coefficient whose confidence interval you size. AC1 does not collapse at skewed prevalence (see the "
        "prevalence-paradox view).")
    ag_prevalence_pct: float = spec(
        30.0, low=0.0, high=100.0, low_open=True, high_open=True, ui_low=2.0, ui_high=50.0, step=1.0, unit="%",
        key="ag_prev", label="Prevalence of the label (%)",
        help="Share of items the raters label positive (binary labels).")
    kappa: float = spec(0.6, low=-1.0, high=1.0, high_open=True, ui_low=0.0, ui_high=0.95, step=0.05, unit="",
                        key="ag_kappa", label="Expected Cohen's κ",
                        help="The raters' true agreement beyond chance; it fixes their joint table.")
    halfwidth: float = spec(0.1, low=0.0, low_open=True, ui_low=0.02, ui_high=0.3, step=0.01, unit="",
                            key="ag_hw", label="Half-width of the 95% interval",
                            help="How precisely the coefficient must be known: estimate ± this.")
    agreement: float = spec(
        0.9, low=0.5, high=1.0, low_open=True, high_open=True, ui_low=0.6, ui_high=0.99, step=0.01, unit="",
        key="ag_po", label="Raw agreement (paradox chart)",
        help="Share of items on which the two raters agree, fixed across prevalence in the paradox chart.")

    # --- the "Which items to label" tab (Zrnic & Candès 2024) -----------------------------------------------------
    active_source: str = spec(
        "beta", choices=ACTIVE_SOURCES, key="al_source", label="Judge confidences from",
        help="A Beta(a, b) spread of the judge's calibrated probabilities, or the items of the file in the view "
        "'Calibrate from your labels' (each item's P(human = 1 | the judge's output), binned).")
    min_share: float = spec(
        0.0, low=0.0, high=1.0, step=0.05, unit="", key="al_share", label="Uniform share",
        help="Share of the labels spread uniformly (Li, Zrnic & Candès 2025): a floor on every item's probability, in "
        "case the judge's uncertainties are wrong. 1 = uniform.")
    beta_a: float = spec(0.5, low=0.0, low_open=True, high=1e4, ui_low=0.1, ui_high=10.0, step=0.1, unit="",
                         key="al_a", label="Beta a",
                         help="Judge confidences f ~ Beta(a, b): a = b = 0.5 is a confident judge (most f near 0 or "
                         "1), a = b = 5 an unsure one.")
    beta_b: float = spec(0.5, low=0.0, low_open=True, high=1e4, ui_low=0.1, ui_high=10.0, step=0.1, unit="",
                         key="al_b", label="Beta b", help="See a; mean a/(a + b).")
    n_items: int = spec(1000, low=2, high=MAX_ACTIVE_ITEMS, ui_low=10, ui_high=200_000, step=100, unit="items",
                        key="al_items", label="Items scored by the judge N",
                        help="The pool the human labels are drawn from.")
    n_human: int = spec(100, low=1, high=MAX_ACTIVE_ITEMS, step=10, unit="labels", key="al_n",
                        label="Human labels n (expected)",
                        help="Σπ_i: each item is labelled with probability π_i.")
    active_target_se: float = spec(
        0.03, low=0.0, low_open=True, ui_low=0.002, ui_high=0.1, step=0.001, fmt="%.3f", unit="label units",
        key="al_target", label="Target SE",
        help="The SE of the estimated mean label to reach (the chart's line).")
    item_seed: int = spec(0, low=0, high=2**31 - 1, step=1, unit="", key="al_seed", label="Seed of the item list",
                          help="The same seed gives the same list; keep it in your plan.")
    # --- the "Labels per item" tab (Dorner & Hardt 2024) ------------------------------------------------------------
    p10_pct: float = spec(8.0, low=0.0, high=100.0, ui_low=0.5, ui_high=40.0, step=0.5, unit="%", key="lp_p10",
                          label="Only A right (%)", help="P(A right and B wrong) under the true labels.")
    p01_pct: float = spec(4.0, low=0.0, high=100.0, ui_low=0.5, ui_high=40.0, step=0.5, unit="%", key="lp_p01",
                          label="Only B right (%)", help="P(B right and A wrong) under the true labels.")
    labels_kappa: float = spec(0.6, low=0.0, high=1.0, ui_low=0.05, ui_high=1.0, step=0.05, unit="", key="lp_kappa",
                               label="Pilot Cohen's κ",
                               help="Agreement of two annotators in a pilot; it fixes each annotator's error ε.")
    labels_prevalence: float = spec(
        0.5, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.05, ui_high=0.95, step=0.05, unit="",
        key="lp_prev", label="Observed prevalence",
        help="Share of positive labels in the pilot (π′); chance agreement is π′² + (1 − π′)².")
    cost_item: float = spec(0.0, low=0.0, ui_high=10_000.0, step=0.5, unit="currency per item", key="lp_c_item",
                            label="Cost per item",
                            help="What an item costs apart from its labels (collecting it, running the models).")
    cost_label: float = spec(1.0, low=0.0, low_open=True, ui_low=0.001, ui_high=10_000.0, step=0.1,
                             unit="currency per label", key="lp_c_label", label="Cost per label",
                             help="What one human label costs.")
    max_labels: int = spec(7, low=1, high=MAX_LABELS, unit="labels", key="lp_max", label="Most labels per item",
                           help="Odd k = 1, 3, … up to this (a majority without ties).")

    def __post_init__(self):
        self.check_fields()
        if self.delta == 0:
            raise ValueError("`delta` must not be 0: no design has power against no effect.")
        if self.plan_by == "delta" and self.target_power <= self.alpha:
            raise ValueError(f"`target_power` must be in ({self.alpha:g}, 1) (above `alpha`), got "
                             f"{self.target_power:g}.")
        if self.judged_by_accuracy and self.sensitivity_pct + self.specificity_pct <= 100.0:
            raise ValueError("`sensitivity` + `specificity` must exceed 100% (a judge better than chance).")
        _check_agreement(self.ag_prevalence_pct / 100, self.kappa, self.statistic)  # κ's lower end depends on p
        if self.active_source == "beta" and self.n_human > self.n_items:
            raise ValueError(f"`n_human` must be at most `n_items` ({self.n_items:,}), got {self.n_human:,}.")

    # --- what the page derives from its inputs ------------------------------------------------------------------
    @property
    def paired(self) -> bool:
        """Whether two models are compared on the same items."""
        return self.estimand == "paired"

    @property
    def judged_by_accuracy(self) -> bool:
        """Whether the judge is described by sensitivity/specificity (binary labels, one model; paired comparisons
        always use the correlation)."""
        return self.judge_spec == "accuracy" and not self.paired

    def judge(self) -> tuple[float, float, float] | None:
        """The judge's (accuracy, sensitivity, specificity) as rates, or None when described by a correlation."""
        if not self.judged_by_accuracy:
            return None
        return self.prevalence_pct / 100, self.sensitivity_pct / 100, self.specificity_pct / 100

    def judge_correlation(self) -> tuple[float, float, float]:
        """:func:`~core.judge.judge_correlation` of the judge's accuracy inputs: (σ, ρ, apparent rate)."""
        return judge_correlation(self.prevalence_pct / 100, self.sensitivity_pct / 100, self.specificity_pct / 100)

    def judge_design(self) -> JudgeDesign:
        """The engine's design: σ and ρ from :func:`~core.judge.judge_correlation` when the judge is described by
        sensitivity/specificity (a perfect judge, Se = Sp = 1, has ρ = 1; σ_judge of a 0/1 judge label), else the declared ones; the one
        of budget / target SE / effect that ``plan_by`` names."""
        aim = {name: (getattr(self, name) if name == self.plan_by else None) for name in PLAN_BY}
        rates = self.judge()
        if rates is None:
            return JudgeDesign(sd=self.sd, correlation=self.correlation, cost_human=self.cost_human,
                               cost_judge=self.cost_judge, **aim, target_power=self.target_power, alpha=self.alpha,
                               paired=self.paired)
        prev, se_j, sp_j = rates
        sd, rho, p_obs = self.judge_correlation()
        return JudgeDesign(sd=sd, correlation=rho, cost_human=self.cost_human,
                           cost_judge=self.cost_judge, **aim, target_power=self.target_power, alpha=self.alpha,
                           paired=False, sd_judge=math.sqrt(p_obs * (1 - p_obs)), prevalence=prev,
                           sensitivity=se_j, specificity=sp_j)

    # --- the engines, for this design ----------------------------------------------------------------------------
    def plan(self) -> PPIPlan:
        """:func:`~core.judge.ppi_plan` for this design (the split, its SE, cost and power)."""
        return self.judge_design().plan()

    def curves(self, n_human, n_judge_only) -> pd.DataFrame:
        """:func:`~core.judge.ppi_curve`: SE (and power in effect mode) against human-labelled items."""
        j = self.judge_design()
        return ppi_curve(list(n_human), sd=j.sd, correlation=j.correlation, n_judge_only=tuple(n_judge_only),
                         cost_human=j.cost_human, cost_judge=j.cost_judge, delta=j.delta, alpha=j.alpha,
                         paired=j.paired)

    def split_curve(self, correlations) -> pd.DataFrame:
        """:func:`~core.judge.split_curve`: the cheapest (or most precise) split at each correlation."""
        kw = {k: v for k, v in self.judge_design().kwargs().items()
              if k not in ("correlation", "prevalence", "sensitivity", "specificity", "sd_judge")}
        return split_curve(list(correlations), **kw)

    def agreement_sample_size(self) -> int:
        """:func:`~core.judge.agreement_sample_size`: items both raters label for ± ``halfwidth`` (95%)."""
        return agreement_sample_size(prevalence=self.ag_prevalence_pct / 100, kappa=self.kappa,
                                     halfwidth=self.halfwidth, statistic=self.statistic, confidence=CONFIDENCE)

    def agreement_curve(self, ns) -> pd.DataFrame:
        """:func:`~core.judge.agreement_curve`: every statistic's 95% half-width against the items."""
        return agreement_curve(list(ns), prevalence=self.ag_prevalence_pct / 100, kappa=self.kappa,
                               confidence=CONFIDENCE)

    def agreement_value(self) -> float:
        """:func:`~core.judge.agreement_value`: the statistic at the raters' table."""
        return agreement_value(prevalence=self.ag_prevalence_pct / 100, kappa=self.kappa, statistic=self.statistic)

    def paradox_curve(self, prevalences=None) -> pd.DataFrame:
        """:func:`~core.judge.prevalence_paradox_curve` at the raw agreement ``agreement``."""
        return prevalence_paradox_curve(agreement=self.agreement, prevalences=prevalences)

    def active_design(self, confidence=None) -> ActiveDesign:
        """The "Which items to label" tab's :class:`~core.judge.ActiveDesign`: ``n_human`` labels over the judge's
        ``confidence`` (default: ``n_items`` Beta(``beta_a``, ``beta_b``) quantiles), a uniform share ``min_share``."""
        if confidence is None:
            confidence = tuple(beta_confidences(self.beta_a, self.beta_b, self.n_items).tolist())
        return ActiveDesign(tuple(confidence), self.n_human, self.min_share)

    def labels_plan(self) -> LabelsPlan:
        """:func:`~core.judge.labels_per_item`: one label on more items or a majority of k (Dorner & Hardt 2024),
        at the design's α and target power."""
        return labels_per_item(self.p10_pct / 100, self.p01_pct / 100, kappa=self.labels_kappa,
                               prevalence=self.labels_prevalence, cost_item=self.cost_item,
                               cost_label=self.cost_label, alpha=self.alpha, target_power=self.target_power,
                               max_labels=self.max_labels)

"""The benchmark design: every input of the LLM page declared once (:mod:`core.design`), and its method set.

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there. The engines import
their shared pieces from :mod:`core.llm._common`; this module imports the engines, and none of them imports it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ..design import Design, spec
from ..results import PowerResult
from ..sizing import SampleSize
from ._common import (
    _MAX_SAMPLES,
    _N_MAX,
    FILES_PER_MODEL,
    MAX_SIMULATED_QUESTIONS,
    METHODS,
    SAMPLE_DIR,
    _check_n,
    _Design,
)
from .curves import judge_curve, power_curve, variance_budget
from .facets import (
    FACET_DEFAULTS,
    _power_of_se,
    facet_budget,
    facet_ceiling,
    facet_plan,
    facet_power,
    facet_power_curve,
    facet_sample_size,
    facet_se,
)
from .power import (
    benchmark_assurance,
    benchmark_noninferiority_power,
    benchmark_noninferiority_sample_size,
    benchmark_power,
)
from .sizing import BenchmarkPlan, benchmark_mde, benchmark_plan, benchmark_sample_sizes

__all__ = [
    "BenchmarkDesign",
    "NoWorseDesign",
    "NI_ALPHAS",
    "FacetDesign",
    "METHODS",
    "MAX_SIMULATED_QUESTIONS",
    "FILES_PER_MODEL",
    "SAMPLE_DIR",
]

_MISSING: Any = object()
#: The engines' defaults (:func:`benchmark_power`), used when a design is built the engines' way, with ``accuracy_b``.
_ENGINE_DEFAULTS = dict(difficulty_sd=0.0, correlation=0.0, icc=0.0, judge_sensitivity=1.0, judge_specificity=1.0)


@dataclasses.dataclass(frozen=True, init=False)
class BenchmarkDesign(Design):
    """A two-model benchmark comparison as the LLM page sets it up: every input declared once.

    Each field is declared with :func:`core.design.spec` (default, valid range, step, unit, label, help and the
    page's URL key: ``acc_a``, ``gain``, ``sd``, ``rho``, ``k``, ``m``, ``icc``, ``judge``, ``se``, ``sp``,
    ``alpha``, ``n``, ``cost_q``, ``cost_s``); the ranges are the engines' (:func:`benchmark_power`,
    :func:`benchmark_plan`). The methods are thin delegations to the engines with the design's *effective* values
    (:meth:`kwargs`): perfect grading (Se = Sp = 1) unless ``judged``, and no ICC for single questions (m = 1),
    as the page uses them. Frozen and compared by value, it is the page's cache key.

    Two ways to build one:

    * ``BenchmarkDesign(accuracy_a=0.7, delta=0.03, ...)`` (or :meth:`from_params`): missing fields take the
      declared (page) defaults — σ = 0.25, ρ = 0.6, ICC = 0.2, a judge of 90% / 90% when ``judged``;
    * ``BenchmarkDesign(0.70, 0.73, difficulty_sd=..., ...)``, the engines' way with ``accuracy_b``: missing
      fields take the engines' defaults (σ = ρ = ICC = 0, perfect grading), and ``judged`` is true when a
      sensitivity or specificity is given.

    Parameters
    ----------
    accuracy_a : float
        Baseline accuracy μ_A in [0, 1] (link ``acc_a``, in %).
    accuracy_b : float, optional
        The new model's accuracy μ_B (the engines' way); otherwise μ_B = μ_A + ``delta``.
    difficulty_sd, correlation, samples, cluster_size, icc, judge_sensitivity, judge_specificity, alpha :
        As in :func:`benchmark_power` (σ, ρ, K, m, ICC, Se, Sp, two-sided α).
    delta : float
        The expected gain Δ = μ_B − μ_A (link ``gain``, in points).
    judged : bool
        Whether an LLM judge grades the answers (with ``judge_sensitivity`` and ``judge_specificity``).
    n : int
        Questions (``power()``, ``mde()`` and ``assurance(None, …)`` use it when no size is given).
    cost_question, cost_sample : float
        Unit costs of :meth:`plan` (a new question; one sampled answer, graded).

    Links and pins (:meth:`to_params`, :meth:`from_params`) carry the widgets' values — percent for accuracies and
    the judge, points for the gain — to 12 decimals, as the widgets do.

    References
    ----------
    Miller (2024), "Adding Error Bars to Evals", arXiv 2411.00640 (the variance model); Card et al. (2020),
    "With Little Power Comes Great Responsibility", EMNLP (power, Type-M, Type-S); Rogan & Gladen (1978) (the judge).

    Examples
    --------
    >>> d = BenchmarkDesign(0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    >>> round(d.power(2000).power, 3), d.sample_size()
    (0.643, 2899)
    >>> from core.llm import benchmark_power
    >>> d.power(2000) == benchmark_power(2000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    True
    >>> BenchmarkDesign.from_params({"acc_a": "80", "gain": "2"}).accuracy_b
    0.82
    """

    accuracy_a: float = spec(0.70, low=0.0, high=1.0, ui_low=0.01, ui_high=0.99, step=0.005, scale=100.0,
                             unit="%", key="acc_a", label="Accuracy of the baseline A (%)",
                             help="Expected accuracy of the current model on this benchmark.")
    delta: float = spec(0.03, low=-1.0, high=1.0, ui_low=-0.30, ui_high=0.30, step=0.005, scale=100.0, unit="pts",
                        key="gain", label="Expected gain of the new model B (points)",
                        help="Accuracy of B minus accuracy of A, in percentage points. Be honest: recent headline "
                        "gains on saturated benchmarks are often 1–3 points.")
    difficulty_sd: float = spec(0.25, low=0.0, high=0.5, step=0.01, key="sd", label="Question difficulty spread σ",
                                help="Standard deviation over questions of the probability that a model answers "
                                "correctly. 0: all questions equally hard; near √(μ(1−μ)): every question is either "
                                "always or never solved. Must satisfy σ² ≤ μ(1 − μ) for both models.")
    correlation: float = spec(0.6, low=-1.0, high=1.0, ui_low=-0.5, step=0.05, key="rho",
                              label="Correlation between the models ρ",
                              help="How similarly the two models find questions hard. Models from one family share "
                              "most of their failures (high ρ), which makes a paired comparison much more precise.")
    samples: int = spec(1, low=1, high=_MAX_SAMPLES, step=1, unit="answers", key="k", label="Samples per question K",
                        help="Answers sampled per question and model (temperature > 0); a question's score is the "
                        "mean of its K answers. Greedy decoding is K = 1 with no sampling noise only if σ is at its "
                        "maximum.")
    cluster_size: int = spec(1, low=1, high=_N_MAX // 2, step=1, unit="questions", key="m",
                             label="Questions per cluster m",
                             help="Questions that share a passage, document or template. 1: independent questions.")
    icc: float = spec(0.2, low=0.0, high=1.0, step=0.05, key="icc", label="Intra-cluster correlation (ICC)",
                      help="How alike the models' difference is for questions of the same cluster. The design "
                      "effect is 1 + (m − 1)·ICC.")
    judged: bool = spec(False, key="judge", label="Graded by an LLM judge",
                        help="Answers graded by another model with known sensitivity and specificity (from a "
                        "validation against human labels).")
    judge_sensitivity: float = spec(0.9, low=0.0, high=1.0, ui_low=0.5, step=0.005, scale=100.0, unit="%", key="se",
                                    label="Judge sensitivity (%)", help="P(the judge grades a right answer right).")
    judge_specificity: float = spec(0.9, low=0.0, high=1.0, ui_low=0.5, step=0.005, scale=100.0, unit="%", key="sp",
                                    label="Judge specificity (%)", help="P(the judge grades a wrong answer wrong).")
    alpha: float = spec(0.05, low=0.0, high=0.5, low_open=True, ui_low=0.001, step=0.001, key="alpha",
                        label="Significance level α (two-sided)", help="Reject 'no difference' when p ≤ α.")
    n: int = spec(1000, low=2, high=_N_MAX, step=1, unit="questions", key="n", label="Questions n",
                  help="Questions both models answer (log-spaced steps; a link may carry any number). With clusters, "
                  "the last cluster may be partial.")
    cost_question: float = spec(0.50, low=0.0, high=10_000.0, step=0.05, key="cost_q", label="Cost per question",
                                help="Writing or labelling one new question (0 if the benchmark exists).")
    cost_sample: float = spec(0.01, low=0.0, high=1_000.0, step=0.001, fmt="%.3f", key="cost_s",
                              label="Cost per sampled answer",
                              help="One model call (plus its grading); both models answer every question K times.")
    #: μ_B = μ_A + Δ (given, when the design is built the engines' way).
    accuracy_b: float = dataclasses.field(init=False, repr=False, default=0.0)

    def __init__(self, accuracy_a=_MISSING, accuracy_b=None, difficulty_sd=_MISSING, correlation=_MISSING,
                 samples=_MISSING, cluster_size=_MISSING, icc=_MISSING, judge_sensitivity=_MISSING,
                 judge_specificity=_MISSING, alpha=_MISSING, *, delta=_MISSING, judged=_MISSING, n=_MISSING,
                 cost_question=_MISSING, cost_sample=_MISSING):
        given = dict(accuracy_a=accuracy_a, delta=delta, difficulty_sd=difficulty_sd, correlation=correlation,
                     samples=samples, cluster_size=cluster_size, icc=icc, judged=judged,
                     judge_sensitivity=judge_sensitivity, judge_specificity=judge_specificity, alpha=alpha, n=n,
                     cost_question=cost_question, cost_sample=cost_sample)
        engines_way = accuracy_b is not None
        if engines_way:
            if delta is not _MISSING:
                raise ValueError("Give `accuracy_b` or `delta`, not both.")
            if judged is _MISSING:
                given["judged"] = judge_sensitivity is not _MISSING or judge_specificity is not _MISSING
            for name, value in _ENGINE_DEFAULTS.items():
                if given[name] is _MISSING:
                    given[name] = value
        for f in self.fields():
            object.__setattr__(self, f.name, f.default if given[f.name] is _MISSING else given[f.name])
        self.check_fields()
        if engines_way:
            mu_b = _Design(self.accuracy_a, accuracy_b).accuracy_b  # `accuracy_b` checked with its own name
            # to 12 decimals, as the widgets and links carry it (the engines get accuracy_b as given)
            object.__setattr__(self, "delta", round(mu_b - self.accuracy_a, 12))
        else:
            mu_b = round(self.accuracy_a + self.delta, 12)
            if not 0.0 <= mu_b <= 1.0:
                raise ValueError(f"`delta` must keep the new model's accuracy in [0, 1] (so in [{-self.accuracy_a:g}, "
                                 f"{1.0 - self.accuracy_a:g}] from accuracy_a = {self.accuracy_a:g}), got "
                                 f"{self.delta:g}.")
        object.__setattr__(self, "accuracy_b", mu_b)
        self.model  # the engines' checks spanning fields: σ² <= μ(1 − μ) for both models, Se + Sp > 1
        _check_n(self.n, self.cluster_size, "n")

    #: The MDE reads no difference; the sample sizes no n; the plan (every K) neither n nor K (:meth:`key_for`).
    #: n is set to two clusters, which every cluster size allows.
    UNREAD = {"mde": {"delta": 0.0}, "sample_sizes": {"n": lambda d: 2 * d.cluster_size},
              "plan": {"n": lambda d: 2 * d.cluster_size, "samples": None}}

    def with_(self, **changes) -> BenchmarkDesign:
        """The same design with some fields changed (validated again); ``accuracy_b`` may be changed too."""
        values = {f.name: getattr(self, f.name) for f in self.fields()}
        if "accuracy_b" in changes:
            values.pop("delta")
        return type(self)(**{**values, **changes})

    # --- the engines' view --------------------------------------------------------------------------------------
    @property
    def model(self) -> _Design:
        """The engines' validated parameters (the effective values of :meth:`kwargs`)."""
        return _Design(**self.kwargs())

    def kwargs(self, *drop: str) -> dict:
        """The keyword arguments of the engines (:func:`benchmark_power` …), without those named in ``drop``.

        Effective values: perfect grading unless ``judged``, and ``icc`` = 0 for single questions (m = 1), where
        it plays no part in the variance.
        """
        values = dict(accuracy_a=self.accuracy_a, accuracy_b=self.accuracy_b, difficulty_sd=self.difficulty_sd,
                      correlation=self.correlation, samples=self.samples, cluster_size=self.cluster_size,
                      icc=self.icc if self.cluster_size > 1 else 0.0, judge_sensitivity=self.se,
                      judge_specificity=self.sp, alpha=self.alpha)
        return {name: value for name, value in values.items() if name not in drop}

    # the engines' short names (the module notes' symbols); se and sp are the grading in effect
    mu_a = property(lambda self: self.accuracy_a)
    mu_b = property(lambda self: self.accuracy_b)
    sd = property(lambda self: self.difficulty_sd)
    rho = property(lambda self: self.correlation)
    k = property(lambda self: self.samples)
    m = property(lambda self: self.cluster_size)
    se = property(lambda self: self.judge_sensitivity if self.judged else 1.0)
    sp = property(lambda self: self.judge_specificity if self.judged else 1.0)

    @property
    def j(self) -> float:
        """Youden's J = Se + Sp − 1: the factor by which the judge shrinks every difference."""
        return self.se + self.sp - 1.0

    def _n(self, n_questions) -> int:
        return self.n if n_questions is None else n_questions

    # --- the method set: thin delegations to the engines ---------------------------------------------------------
    def power(self, n_questions=None, *, method="analytic", n_sims=2000, seed=None, progress=None) -> PowerResult:
        """:func:`benchmark_power` at ``n_questions`` (default: the design's ``n``)."""
        return benchmark_power(self._n(n_questions), **self.kwargs(), method=method, n_sims=n_sims, seed=seed,
                               progress=progress)

    def sample_sizes(self, *, target_power=0.8, n_max=_N_MAX) -> SampleSize:
        """:func:`benchmark_sample_sizes`."""
        return benchmark_sample_sizes(**self.kwargs(), target_power=target_power, n_max=n_max)

    def sample_size(self, *, target_power=0.8, conservative=False, n_max=_N_MAX) -> int:
        """:func:`benchmark_sample_size`."""
        return self.sample_sizes(target_power=target_power, n_max=n_max).pick(conservative)

    def mde(self, n_questions=None, *, target_power=0.8) -> float:
        """:func:`benchmark_mde` from this design's baseline (its ``delta`` plays no part)."""
        return benchmark_mde(self._n(n_questions), **self.kwargs("accuracy_b"), target_power=target_power)

    def plan(self, *, cost_question=None, cost_sample=None, target_power=0.8, max_samples=50) -> BenchmarkPlan:
        """:func:`benchmark_plan` (every K up to ``max_samples``; this design's ``samples`` plays no part); the unit
        costs default to the design's."""
        return benchmark_plan(**self.kwargs("samples"),
                              cost_question=self.cost_question if cost_question is None else cost_question,
                              cost_sample=self.cost_sample if cost_sample is None else cost_sample,
                              target_power=target_power, max_samples=max_samples)

    def power_curve(self, ns, *, samples_list=(1, 2, 5, 10)) -> pd.DataFrame:
        """:func:`power_curve` over ``ns`` for each K in ``samples_list``."""
        return power_curve(ns, **self.kwargs("samples"), samples_list=samples_list)

    def curves(self, ns, *, samples_list=None) -> pd.DataFrame:
        """Tidy power curve over ``ns`` (:func:`power_curve`) for each K in ``samples_list`` (default: this K)."""
        return self.power_curve(ns, samples_list=(self.samples,) if samples_list is None else samples_list)

    def variance_budget(self, *, max_samples=20) -> pd.DataFrame:
        """:func:`variance_budget` for K = 1 … ``max_samples``."""
        return variance_budget(**self.kwargs("samples", "alpha"), max_samples=max_samples)

    def judge_curve(self, ns) -> pd.DataFrame:
        """:func:`judge_curve`: this design's judge against exact grading."""
        return judge_curve(ns, **self.kwargs())

    def assurance(self, n_questions, delta_mean, delta_sd):
        """:func:`benchmark_assurance` at ``n_questions`` (``None``: the design's ``n``) with a normal prior
        N(``delta_mean``, ``delta_sd``²) on the gain (the design's ``delta`` plays no part)."""
        return benchmark_assurance(self._n(n_questions), delta_mean=delta_mean, delta_sd=delta_sd,
                                   **self.kwargs("accuracy_b"))

    def noninferiority_power(self, n_questions, margin, *, alpha=0.025) -> PowerResult:
        """:func:`benchmark_noninferiority_power` (one-sided ``alpha``, not the design's two-sided one)."""
        return benchmark_noninferiority_power(self._n(n_questions), margin=margin, alpha=alpha,
                                              **self.kwargs("alpha"))

    def noninferiority_sample_size(self, margin, *, alpha=0.025, target_power=0.8) -> int:
        """:func:`benchmark_noninferiority_sample_size` (one-sided ``alpha``)."""
        kw = self.kwargs("alpha")
        return benchmark_noninferiority_sample_size(kw.pop("accuracy_a"), kw.pop("accuracy_b"), margin, alpha=alpha,
                                                    target_power=target_power, **kw)


#: The one-sided levels the "no worse than" tab offers (0.025: the lower end of a two-sided 95% interval).
NI_ALPHAS = (0.005, 0.01, 0.025, 0.05, 0.1)


@dataclasses.dataclass(frozen=True)
class NoWorseDesign(Design):
    """The LLM page's "No worse than" tab: is the new model B no worse than A by more than a margin?

    The hypothesis is reversed (H0: μ_B − μ_A ≤ −margin, rejected by the one-sided test at ``alpha``), on the
    variance model of the page's :class:`BenchmarkDesign` (``benchmark``: questions, K answers, clusters, judge),
    which this design wraps. Two fields of its own, declared once with the tab's URL keys: ``margin`` (``llm_margin``,
    in points on the page) and the one-sided ``alpha`` (``llm_ni_alpha``); their ranges are those of
    :func:`benchmark_noninferiority_power`, margin in (0, 1) and α in (0, 0.5). Links carry the benchmark's keys
    too (:meth:`to_params`, :meth:`from_params`). The methods delegate to
    :func:`benchmark_noninferiority_power` and :func:`benchmark_noninferiority_sample_size`.

    References
    ----------
    Schuirmann (1987) for the one-sided test against a margin; Miller (2024), arXiv 2411.00640, for the variance.

    Examples
    --------
    >>> d = NoWorseDesign()
    >>> d.power() == benchmark_noninferiority_power(1000, 0.70, 0.73, 0.02, difficulty_sd=0.25, correlation=0.6,
    ...                                            alpha=0.025)
    True
    >>> NoWorseDesign.from_params({"llm_margin": "1.5", "n": "2000"}).margin, NoWorseDesign().to_params()["llm_margin"]
    (0.015, '2')
    """

    margin: float = spec(0.02, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.005, ui_high=0.10,
                         step=0.005, scale=100.0, unit="pts", key="llm_margin", label="Margin (points)",
                         help="The largest loss of accuracy you accept for the new model (e.g. a cheaper or quantised "
                         "one).")
    alpha: float = spec(0.025, low=0.0, high=0.5, low_open=True, high_open=True, ui_low=0.005, ui_high=0.25, step=0.005,
                        key="llm_ni_alpha",
                        label="One-sided α",
                        help="0.025 matches a two-sided 95% interval whose lower end must clear −margin.")
    #: The benchmark's variance model (the page's design; not a field of the tab's own).
    benchmark: BenchmarkDesign = dataclasses.field(default_factory=BenchmarkDesign)

    def __post_init__(self):
        self.check_fields()
        if not isinstance(self.benchmark, BenchmarkDesign):
            raise ValueError(f"`benchmark` must be a BenchmarkDesign, got {type(self.benchmark).__name__}.")

    # --- links: the tab's keys and the benchmark's ----------------------------------------------------------------
    def to_params(self) -> dict[str, str]:
        """The benchmark's link parameters and the tab's own (``llm_margin``, ``llm_ni_alpha``)."""
        return {**self.benchmark.to_params(), **super().to_params()}

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None = None, *, messages: list | None = None):
        """The design a link describes: the benchmark from its keys, the margin and α from the tab's."""
        benchmark = BenchmarkDesign.from_params(params, messages=messages)
        return super().from_params(params, messages=messages).with_(benchmark=benchmark)

    # --- the method set --------------------------------------------------------------------------------------------
    @property
    def reachable(self) -> bool:
        """Whether any number of questions can show "no worse": μ_B − μ_A + margin > 0."""
        return self.benchmark.accuracy_b - self.benchmark.accuracy_a + self.margin > 0

    def power(self, n_questions=None) -> PowerResult:
        """:func:`benchmark_noninferiority_power` at ``n_questions`` (default: the benchmark's ``n``)."""
        return self.benchmark.noninferiority_power(n_questions, self.margin, alpha=self.alpha)

    def sample_size(self, *, target_power=0.8) -> int:
        """:func:`benchmark_noninferiority_sample_size` (whole clusters; −1 beyond the engine's largest n). The
        engine refuses a design that is not :attr:`reachable`."""
        return self.benchmark.noninferiority_sample_size(self.margin, alpha=self.alpha, target_power=target_power)

    def curves(self, *, points=41) -> pd.DataFrame:
        """Power at the benchmark's n against the true gain, over ±2 margins (tidy: ``gain_pp`` in points,
        ``power``): :func:`benchmark_noninferiority_power` at each gain whose accuracy of B the difficulty spread
        allows (σ² ≤ μ(1 − μ), i.e. μ within (1 ± √(1 − 4σ²))/2)."""
        b = self.benchmark
        kw = b.kwargs("accuracy_a", "accuracy_b", "alpha")
        sd = kw["difficulty_sd"]
        top = (1.0 + math.sqrt(max(1.0 - 4.0 * sd * sd, 0.0))) / 2.0  # largest accuracy with this spread
        bottom = 1.0 - top
        rows = []
        for g in np.linspace(-2 * self.margin, 2 * self.margin, points):
            acc_b = b.accuracy_a + g
            if bottom - 1e-12 <= acc_b <= top + 1e-12:
                rows.append((100 * g, benchmark_noninferiority_power(b.n, b.accuracy_a, min(max(acc_b, bottom), top),
                                                                     self.margin, alpha=self.alpha, **kw).power))
        return pd.DataFrame(rows, columns=["gain_pp", "power"])


def _sd(component: str) -> float:
    """A default variance component of :data:`FACET_DEFAULTS` as an SD (score units, to the widgets' 0.01 points)."""
    return round(math.sqrt(FACET_DEFAULTS[component]), 4)


@dataclasses.dataclass(frozen=True)
class FacetDesign(Design):
    """The LLM page's "Prompts and seeds" tab: questions × prompt templates × samples (× training seeds).

    Each field is declared once with the tab's URL key (``fc_gain``, ``fc_t``, ``fc_n``, ``fc_k``, ``fc_sd_t``,
    ``fc_sd_i``, ``fc_sd_it``, ``fc_sd_s``, ``fc_recipe``, ``fc_seeds``, ``fc_sd_seed``, ``alpha``, ``fc_calls``,
    ``fc_cost``). The variance components are given as SDs (score units; the widgets show points) and enter the
    engines (:func:`facet_power` …) as their squares; seeds count only when two training ``recipe`` s are compared.
    The methods delegate to the engines of :mod:`core.llm.facets` (generalizability theory's crossed design,
    Cronbach et al. 1972; Brennan 2001, D studies).

    Examples
    --------
    >>> d = FacetDesign()
    >>> round(d.ceiling(), 2)
    0.52
    >>> d.power() == facet_power(1000, 0.02, templates=1, samples=1, **d.components())
    True
    """

    delta: float = spec(0.02, low=-1.0, high=1.0, ui_low=-0.10, ui_high=0.10, step=0.005, scale=100.0, unit="pts",
                        key="fc_gain", label="Expected gain Δ (points)",
                        help="Accuracy of the new model minus the baseline's, in percentage points, averaged over "
                        "questions and prompt templates.")
    templates: int = spec(1, low=1, high=10_000, step=1, unit="templates", key="fc_t", label="Prompt templates T",
                          help="Prompt formats, instructions or few-shot draws, the same for both models; each "
                          "question is asked under every template.")
    n: int = spec(1000, low=1, high=_N_MAX, step=1, unit="questions", key="fc_n", label="Questions n",
                  help="Questions both models answer under every template.")
    samples: int = spec(1, low=1, high=10_000, step=1, unit="answers", key="fc_k", label="Samples K",
                        help="Answers per question, template and model (temperature > 0).")
    sd_template: float = spec(_sd("var_template"), low=0.0, high=1.0, ui_high=0.30, step=0.001, scale=100.0,
                              unit="pts", key="fc_sd_t", label="Model × template SD (points)",
                              help="How much the gain itself changes from one prompt template to another. Sclar et "
                              "al. (2024, ICLR) find accuracy spreads of several points — up to tens of points — "
                              "across meaning-preserving prompt formats, and format choice can reverse which model "
                              "looks better; 1 point for the gain is a mild default.")
    sd_item: float = spec(_sd("var_item"), low=0.0, high=1.0, step=0.005, scale=100.0, unit="pts", key="fc_sd_i",
                          label="Model × question SD (points)",
                          help="Spread of the per-question difference between the models (√(2σ²(1 − ρ)) on the "
                          "Power view's scale: 22 points at σ = 0.25, ρ = 0.6).")
    sd_item_template: float = spec(_sd("var_item_template"), low=0.0, high=1.0, step=0.005, scale=100.0, unit="pts",
                                   key="fc_sd_it", label="Model × question × template SD (points)",
                                   help="How differently single questions react to the template, beyond the "
                                   "template's average effect.")
    sd_sample: float = spec(_sd("var_sample"), low=0.0, high=1.0, step=0.005, scale=100.0, unit="pts", key="fc_sd_s",
                            label="Sampling noise SD (points)",
                            help="Spread of the difference of two sampled answers to the same question and template "
                            "(about √(2·0.21 − 2σ²) ≈ 50 points at 70% accuracy).")
    recipe: bool = spec(False, key="fc_recipe", label="Compare training recipes (seeds)",
                        help="Two training recipes, each trained with S seeds, instead of two fixed models: the "
                        "seed-to-seed variance adds 2·var_seed/S, and every seed's model answers the whole grid, so "
                        "the sampling noise averages over K·S answers.")
    seeds: int = spec(3, low=2, high=10_000, ui_high=30, step=1, unit="seeds", key="fc_seeds",
                      label="Seeds per recipe S", help="Training seeds per recipe (at least 2, to estimate their "
                      "variance).")
    sd_seed: float = spec(_sd("var_seed"), low=0.0, high=1.0, ui_high=0.20, step=0.001, scale=100.0, unit="pts",
                          key="fc_sd_seed", label="Seed-to-seed SD (points)",
                          help="SD of a run's benchmark score across training seeds; Madaan et al. (2024, arXiv "
                          "2406.10229) measure seed variance of this order for 7B models trained from scratch on "
                          "common benchmarks.")
    alpha: float = spec(0.05, low=0.0, high=0.5, low_open=True, ui_low=0.001, step=0.001, key="alpha",
                        label="Significance level α (two-sided)", help="Reject 'no difference' when p ≤ α.")
    calls: int = spec(20_000, low=1, high=10**9, ui_low=10, ui_high=10_000_000, step=1000, unit="calls",
                      key="fc_calls", label="Calls per model",
                      help="Model calls you can afford per model; both models answer every cell.")
    cost_call: float = spec(0.002, low=0.0, high=1e9, ui_high=100.0, step=0.001, fmt="%.4f", key="fc_cost",
                            label="Cost per call", help="Price of one call (0: count calls only).")

    def __post_init__(self):
        self.check_fields()
        if sum(self.components(seed=False).values()) <= 0:
            raise ValueError("`sd_template`, `sd_item`, `sd_item_template` and `sd_sample` must not all be 0: with "
                             "no variance the gain is known exactly.")

    @property
    def seeds_used(self) -> int | None:
        """Seeds per recipe, when recipes are compared (``None``: two fixed models)."""
        return self.seeds if self.recipe else None

    def components(self, *, seed: bool = True) -> dict:
        """The variance components (score units²), the keyword arguments of the engines."""
        out = {"var_template": self.sd_template ** 2, "var_item": self.sd_item ** 2,
               "var_item_template": self.sd_item_template ** 2, "var_sample": self.sd_sample ** 2}
        if seed:
            out["var_seed"] = self.sd_seed ** 2
        return out

    def _kw(self) -> dict:
        return dict(templates=self.templates, samples=self.samples, seeds=self.seeds_used, **self.components())

    def power(self, *, method="analytic", n_sims=4000, seed=None):
        """:func:`facet_power` at the design's n."""
        return facet_power(self.n, self.delta, **self._kw(), alpha=self.alpha, method=method, n_sims=n_sims,
                           seed=seed)

    def se(self) -> float:
        """:func:`facet_se`: the standard error of the mean paired difference."""
        return facet_se(self.n, **self._kw())

    def ceiling(self) -> float:
        """Power with unlimited questions: the template and seed terms do not shrink with questions.

        Φ(|Δ| / √(var_template/T + 2·var_seed/S) − z_{1−α/2}) (the normal test with only the terms that stay);
        :func:`facet_ceiling` without seeds; α at Δ = 0.
        """
        return facet_ceiling(self.delta, templates=self.templates, var_template=self.sd_template ** 2,
                             alpha=self.alpha, seeds=self.seeds_used, var_seed=self.sd_seed ** 2)

    def p_correct_order(self) -> float:
        """P(the evaluation ranks the two models the right way round, significant or not) = Φ(|Δ| / SE); ½ at Δ = 0."""
        return float(stats.norm.cdf(abs(self.delta) / self.se())) if self.delta else 0.5

    def sample_size(self, *, target_power=0.8) -> int:
        """:func:`facet_sample_size`: the fewest questions reaching ``target_power`` (−1: not reachable)."""
        return facet_sample_size(self.delta, **self._kw(), alpha=self.alpha, target_power=target_power)

    def curves(self, ns, *, templates_list=(1, 2, 5, 10)) -> pd.DataFrame:
        """:func:`facet_power_curve` over ``ns`` for each T in ``templates_list``."""
        kw = self._kw()
        kw.pop("templates")
        return facet_power_curve(list(ns), self.delta, templates_list=tuple(templates_list), **kw, alpha=self.alpha)

    def budget(self, templates_list) -> pd.DataFrame:
        """:func:`facet_budget` at the design's n for each T in ``templates_list`` (a ``templates`` column)."""
        kw = self._kw()
        kw.pop("templates")
        return pd.concat([facet_budget(self.n, templates=t, **kw).assign(templates=t) for t in templates_list],
                         ignore_index=True)

    def plan(self, *, max_templates=50):
        """:func:`facet_plan`: the most powerful split of ``calls`` per model (per seed model when recipes are
        compared: the seed term stays, and the cost counts every seed model)."""
        return facet_plan(self.delta, calls=self.calls, **self.components(), seeds=self.seeds_used,
                          alpha=self.alpha, cost_call=self.cost_call, max_templates=max_templates)

    def seed_curve(self, seeds=range(2, 31)) -> pd.DataFrame:
        """SE and power (normal test) for each number of seeds per recipe: columns ``seeds, se, power``."""
        rows = []
        for s in seeds:
            se = facet_se(self.n, templates=self.templates, samples=self.samples, seeds=s, **self.components())
            rows.append((s, se, float(_power_of_se(self.delta, se, self.alpha))))
        return pd.DataFrame(rows, columns=["seeds", "se", "power"])

"""Which items to run: the designs of the LLM page's "Run a subset instead" tab and of its item list.

Part of :mod:`core.llm`; every name is importable from there. Each input is declared once (:func:`core.design.spec`)
with the widget's URL key, its default, the engine's valid range, a step and a unit; the methods are thin
delegations to :mod:`core.llm.subset` and :func:`core.runnable.item_list`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..design import Design, spec
from ..runnable import item_list
from .subset import (
    MAX_ITEMS,
    SubsetBound,
    SubsetPrediction,
    prediction_assisted_se,
    subset_agreement,
    subset_curve,
    subset_se,
    subset_size,
    subset_size_for_agreement,
    subset_variance_bound,
)

__all__ = ["SubsetDesign", "ItemListDesign", "SUBSET_M", "ITEM_LIST_TOTAL_FACTOR", "TASK_CHARS"]

#: The subset tab's starting size m (at most the benchmark's N).
SUBSET_M = 500

#: Without a log, the item list's benchmark holds this many times the questions n (at most :data:`MAX_ITEMS`).
ITEM_LIST_TOTAL_FACTOR = 10
#: The longest task name the item list takes (the widget's limit).
TASK_CHARS = 80
_SEED_MAX = 2**31 - 1  # numpy's default_rng takes any non-negative int; the widgets stop at a 32-bit seed


def _share(default: float, *, key: str, label: str, help: str):
    """A share of the benchmark's items, shown in percent (the engine takes counts: share × N, rounded)."""
    return spec(default, low=0.0, high=1.0, ui_high=0.5, step=0.005, scale=100.0, unit="%", key=key, label=label,
                help=help)


@dataclass(frozen=True)
class SubsetDesign(Design):
    """A random m-item subset of an N-item benchmark instead of the full run (the LLM page's subset tab).

    Fields (URL key, unit): ``n_total`` (``sub_total``, items), ``m`` (``sub_m``, items, at most ``n_total``; a
    link without it starts, as the tab does, at :data:`SUBSET_M` or the whole benchmark when it is smaller),
    ``accuracy`` (``sub_acc``, %), ``a_only_share`` / ``b_only_share`` (``sub_a_only`` / ``sub_b_only``, % of the
    items only A / only B gets right; the engines take the counts :attr:`a_only` / :attr:`b_only`, which must differ
    and fit in the benchmark), ``halfwidth`` (``sub_hw``, pts), ``target_agreement`` (``sub_target``, %), ``seed``
    (``sub_seed``, of the item list), ``beta_a`` / ``beta_b`` (``sub_beta_a`` / ``sub_beta_b``, the Beta law of item
    difficulties for :meth:`variance_bound`). Ranges are the engines' (:mod:`core.llm.subset`).

    References
    ----------
    Cochran (1977), *Sampling Techniques*, ch. 2–3 (finite-population correction) and ch. 7 (difference estimator);
    Polo et al. (2024), tinyBenchmarks, ICML.

    Examples
    --------
    >>> d = SubsetDesign()
    >>> (d.m, d.n_total, d.a_only, d.b_only), round(d.se(), 5), d.size_for_halfwidth()
    ((500, 5000, 250, 400), 0.01944, 1438)
    >>> SubsetDesign.from_params({"sub_total": "2000", "sub_m": "200", "sub_a_only": "5", "sub_b_only": "7"}).b_only
    140
    """

    n_total: int = spec(5000, low=2, high=MAX_ITEMS, ui_low=10, ui_high=1_000_000, step=100, unit="items",
                        key="sub_total", label="Items in the benchmark N", help="The full run's items.")
    m: int = spec(SUBSET_M, low=1, high=MAX_ITEMS, ui_high=1_000_000, step=50, unit="items", key="sub_m",
                  label="Items in the subset m",
                  help="Drawn at random without replacement, the same for both models (not the first m, which the "
                  "harness's --limit takes).")
    accuracy: float = spec(0.70, low=0.0, high=1.0, ui_low=0.01, ui_high=0.99, step=0.005, scale=100.0, unit="%",
                           key="sub_acc", label="Accuracy (%)",
                           help="The full run's accuracy of the model whose score you report.")
    a_only_share: float = _share(0.05, key="sub_a_only", label="Only A right (% of items)",
                                 help="Items the baseline A gets right and B wrong.")
    b_only_share: float = _share(0.08, key="sub_b_only", label="Only B right (% of items)",
                                 help="Items B gets right and A wrong; B's gain is the difference.")
    halfwidth: float = spec(0.02, low=0.0, high=1.0, low_open=True, ui_low=0.002, ui_high=0.10, step=0.001,
                            scale=100.0, unit="pts", key="sub_hw", label="Half-width (points)",
                            help="± of the subset's score around the full run's, at 95%.")
    target_agreement: float = spec(0.95, low=0.5, high=1.0, high_open=True, ui_low=0.60, ui_high=0.999, step=0.001,
                                   scale=100.0, unit="%", key="sub_target", label="Target agreement (%)",
                                   help="P(the subset picks the full run's winner) to reach.")
    seed: int = spec(0, low=0, high=_SEED_MAX, step=1, key="sub_seed", label="Seed of the item list",
                     help="The same seed gives the same list; keep it in your plan.")
    beta_a: float = spec(2.0, low=0.0, high=1e6, low_open=True, ui_low=0.1, ui_high=10.0, step=0.1, key="sub_beta_a",
                         label="Item difficulty Beta a",
                         help="Items' probabilities of being right ~ Beta(a, b); the bound below assumes they are "
                         "known exactly (the ideal IRT fit).")
    beta_b: float = spec(1.0, low=0.0, high=1e6, low_open=True, ui_low=0.1, ui_high=10.0, step=0.1, key="sub_beta_b",
                         label="Item difficulty Beta b", help="See a; mean accuracy a/(a + b).")

    def __post_init__(self):
        self.check_fields()
        # the checks spanning fields, as the engines make them (subset_agreement: m ≤ N, counts that differ and fit)
        if self.m > self.n_total:
            raise ValueError(f"`m` must be in [1, {self.n_total:,}] (at most the benchmark's items), got {self.m:,}.")
        a, b = self.a_only, self.b_only
        if a + b > self.n_total:
            raise ValueError(f"`a_only_share` + `b_only_share` must fit in the benchmark: {a:,} + {b:,} items > "
                             f"`n_total` = {self.n_total:,}.")
        if a == b:
            raise ValueError(f"`a_only_share` and `b_only_share` must give different counts (the full run needs a "
                             f"winner), got {a:,} of {self.n_total:,} items each.")

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None = None, *, messages: list | None = None):
        """The design a link describes (:meth:`core.design.Design.from_params`). As the tab's widget, m starts at
        min(:data:`SUBSET_M`, N) when a link gives the benchmark's N but no m, or an m larger than N."""
        params = dict(params or {})
        f_n, f_m = cls.field("n_total"), cls.field("m")

        def parsed(f):
            raw = params.get(f.key)
            raw = raw[-1] if isinstance(raw, (list, tuple)) and raw else raw
            try:
                return None if raw is None else f.parse(raw)
            except (ValueError, TypeError):
                return None  # the base class says what is wrong with it

        n_total, m = parsed(f_n), parsed(f_m)
        if n_total is not None:
            start = min(SUBSET_M, n_total)
            if f_m.key not in params:
                params[f_m.key] = str(start)
            elif m is not None and m > n_total:
                if messages is not None:
                    messages.append(f"`m` must be in [1, {n_total:,}] (at most the benchmark's items), got {m:,}; "
                                    f"the view's start {start:,} is used.")
                params[f_m.key] = str(start)
        return super().from_params(params, messages=messages)

    # --- the engines' counts ------------------------------------------------------------------------------------------
    @property
    def a_only(self) -> int:
        """Items only A gets right: ``a_only_share`` × N, rounded."""
        return round(self.a_only_share * self.n_total)

    @property
    def b_only(self) -> int:
        """Items only B gets right: ``b_only_share`` × N, rounded."""
        return round(self.b_only_share * self.n_total)

    # --- the method set: thin delegations ---------------------------------------------------------------------------
    def se(self) -> float:
        """:func:`subset_se`: the subset score's SE around the full run's."""
        return subset_se(self.m, self.n_total, self.accuracy)

    def agreement(self, *, method="exact") -> float:
        """:func:`subset_agreement`: P(the subset picks the full run's winner)."""
        return subset_agreement(self.m, n_total=self.n_total, a_only=self.a_only, b_only=self.b_only, method=method)

    def size_for_halfwidth(self, *, confidence=0.95) -> int:
        """:func:`subset_size`: the fewest items for ± ``halfwidth``."""
        return subset_size(self.n_total, self.accuracy, self.halfwidth, confidence=confidence)

    def size_for_agreement(self, *, method="exact") -> int:
        """:func:`subset_size_for_agreement`: the items at which the agreement first reaches the target."""
        return subset_size_for_agreement(self.n_total, self.a_only, self.b_only,
                                         target_agreement=self.target_agreement, method=method)

    def curves(self, ms, *, method="exact") -> pd.DataFrame:
        """:func:`subset_curve` over subset sizes ``ms`` (tidy ``m, se, agreement``)."""
        return subset_curve(ms, n_total=self.n_total, accuracy=self.accuracy, a_only=self.a_only,
                            b_only=self.b_only, method=method)

    def items(self) -> pd.DataFrame:
        """:func:`core.runnable.item_list`: the seeded m of the N item indices (0 … N − 1) to run."""
        return item_list(range(self.n_total), self.m, seed=self.seed)

    def variance_bound(self) -> SubsetBound:
        """:func:`subset_variance_bound` at Beta(``beta_a``, ``beta_b``)."""
        return subset_variance_bound(self.beta_a, self.beta_b)

    def assisted(self, correctness) -> SubsetPrediction:
        """:func:`prediction_assisted_se` of an m-item subset for a models × items ``correctness`` matrix."""
        return prediction_assisted_se(correctness, self.m)


@dataclass(frozen=True)
class ItemListDesign(Design):
    """The LLM page's item list: which questions to evaluate, the same for every model.

    Fields (URL key): ``seed`` (``items_seed``), ``n_total`` (``items_total``, items; the benchmark's size when no
    log is uploaded, ``None``: :data:`ITEM_LIST_TOTAL_FACTOR` × the questions n) and ``task`` (``items_task``, the
    harness's task name, at most :data:`TASK_CHARS` characters; blank: ``"benchmark"``). :meth:`run` delegates to
    :func:`core.runnable.item_list`; the number of questions n is the benchmark design's.

    Examples
    --------
    >>> ItemListDesign().total(1000), ItemListDesign(n_total=2500).total(1000)
    (10000, 2500)
    >>> ItemListDesign(seed=3).run(5)["item"].tolist() == item_list(range(10 * 5), 5, seed=3)["item"].tolist()
    True
    """

    seed: int = spec(0, low=0, high=_SEED_MAX, step=1, key="items_seed", label="Seed",
                     help="The same seed gives the same list; keep it in your plan.")
    n_total: int | None = spec(None, kind="int", low=1, high=MAX_ITEMS, step=100, unit="items", key="items_total",
                               label="Items in the benchmark N",
                               help="No log uploaded: the benchmark's items are assumed numbered 0 … N − 1 in the "
                               "harness's order (its doc_id).")
    task: str = spec("benchmark", key="items_task", label="Task name (as the harness calls it)",
                     help="The key of the item list's JSON file, as lm-evaluation-harness names the task.")

    def __post_init__(self):
        self.check_fields()
        task = self.task.strip()
        if len(task) > TASK_CHARS:
            raise ValueError(f"`task` must be at most {TASK_CHARS} characters, got {len(task)}.")
        object.__setattr__(self, "task", task or "benchmark")

    def total(self, n: int) -> int:
        """The benchmark's items N for n questions: ``n_total``, or :data:`ITEM_LIST_TOTAL_FACTOR` × n."""
        return min(MAX_ITEMS, ITEM_LIST_TOTAL_FACTOR * n) if self.n_total is None else self.n_total

    def run(self, n: int, *, ids=None, clusters=None, task: str | None = None) -> pd.DataFrame:
        """:func:`core.runnable.item_list`: n of the items ``ids`` (default: 0 … :meth:`total` − 1), stratified by
        ``clusters`` when given, labelled ``task`` (default: the design's), drawn with the design's seed."""
        ids = range(self.total(n)) if ids is None else ids
        return item_list(ids, n, clusters=clusters, tasks=self.task if task is None else task, seed=self.seed)

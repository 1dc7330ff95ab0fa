"""Per-item difference models of the other scenarios, for running them sequentially.

The general engine (:func:`core.sequential.sequential_power`) needs the mean
and SD of one item's difference. Two scenarios supply them:

* an LLM benchmark (the variance model of :mod:`core.llm`, Miller 2024): a
  question's observed score difference has mean ``J (μ_B - μ_A)`` and
  variance ``2J²σ²(1 - ρ)·DE + noise/K`` (J the judge's Youden index);
  clusters enter through the design effect ``DE = 1 + (m - 1) ICC``, which
  assumes questions arrive cluster by cluster and looks fall between clusters;
* a pairwise vote between two systems (:mod:`core.pairwise`): +1 when B wins,
  -1 when A wins, 0 for a tie; with tie rate t and observed win rate p of B
  among decisive votes the mean is ``(1 - t)(2p - 1)`` and the variance
  ``(1 - t) - mean²`` (exact for this three-point distribution).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ..validation import check_alpha, check_choice, check_int, check_probability, check_real
from .boundaries import BOUNDARIES
from .general import sequential_curves, sequential_power, sequential_sample_size

__all__ = ["ItemModel", "SequentialDesign", "benchmark_item_model", "vote_item_model", "compare_designs"]


@dataclass(frozen=True)
class ItemModel:
    """Mean and SD of one item's difference (B minus A) on the scale the test uses.

    ``scale`` converts back to the scenario's own units (estimate = observed / scale), e.g. J for a judge.
    """

    delta: float
    sd: float
    scale: float = 1.0


def benchmark_item_model(*, accuracy_a, accuracy_b, difficulty_sd=0.0, correlation=0.0, samples=1, cluster_size=1,
                         icc=0.0, judge_sensitivity=1.0, judge_specificity=1.0) -> ItemModel:
    """One question's observed score difference under the LLM page's variance model.

    Examples
    --------
    >>> m = benchmark_item_model(accuracy_a=0.7, accuracy_b=0.73)
    >>> round(m.delta, 4), round(m.sd, 4)
    (0.03, 0.638)
    """
    from .. import llm

    d = llm._validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                      judge_sensitivity, judge_specificity, 0.05)
    tau2, noise = llm._variance_parts(d)
    design_effect = 1.0 + (d.m - 1) * d.icc  # whole clusters between looks
    return ItemModel(delta=d.j * (d.mu_b - d.mu_a), sd=math.sqrt(tau2 * design_effect + noise), scale=d.j)


def vote_item_model(win_rate, *, tie_rate=0.0) -> ItemModel:
    """One vote coded +1 (B wins), -1 (A wins), 0 (tie), with B's observed win rate among decisive votes.

    Examples
    --------
    >>> m = vote_item_model(0.6, tie_rate=0.2)
    >>> round(m.delta, 4), round(m.sd, 4)
    (0.16, 0.88)
    """
    p = check_probability("win_rate", win_rate)
    t = check_real("tie_rate", tie_rate, low=0.0, high=1.0, high_open=True)
    mean = (1.0 - t) * (2.0 * p - 1.0)
    return ItemModel(delta=mean, sd=math.sqrt(max((1.0 - t) - mean * mean, 1e-12)))


def compare_designs(n_max, delta, sd, *, looks=3, boundary="obrien_fleming", futility_p=None, alpha=0.05,
                    n_sims=2000, seed=0, designs=("fixed", "group", "anytime")) -> pd.DataFrame:
    """Fixed, group-sequential and anytime runs of the same planned ``n_max`` items, side by side.

    Returns
    -------
    pandas.DataFrame
        ``design, n_max, power, type_m, expected_n, expected_n_null, false_positive_rate, mc_se``; the anytime
        design is simulated (``n_sims`` runs, ``mc_se`` its power's SE), the others are exact.
    """
    n_max = check_int("n_max", n_max, low=2, high=10_000_000)
    rows = []
    options = {"fixed": {}, "group": dict(looks=looks, boundary=boundary, futility_p=futility_p),
               "anytime": dict(n_sims=n_sims, seed=seed)}
    for design in designs:
        kw = options[design]
        r = sequential_power(n_max, delta, sd, design=design, alpha=alpha, **kw)
        rows.append((design, n_max, r.power, r.type_m, r.expected_n, r.expected_n_null, r.false_positive_rate,
                     r.mc_se))
    return pd.DataFrame(rows, columns=["design", "n_max", "power", "type_m", "expected_n", "expected_n_null",
                                       "false_positive_rate", "mc_se"])


@dataclass(frozen=True)
class SequentialDesign:
    """A sequentially monitored comparison of per-item differences, everything but the items planned.

    ``delta`` and ``sd`` are the per-item difference's mean and SD (an :class:`ItemModel`'s); ``looks``,
    ``boundary``, ``futility_p`` and ``alpha`` configure the group-sequential design (Jennison & Turnbull 2000)
    that :func:`compare_designs` sets beside the fixed and the anytime runs. The "Run it sequentially" section
    builds it once from its page's model. Frozen and compared by value, so it is a cache key.

    Examples
    --------
    >>> d = SequentialDesign(0.1, 1.0)
    >>> d.power(800).power == sequential_power(800, 0.1, 1.0).power
    True
    """

    delta: float
    sd: float
    looks: int = 3
    boundary: str = "obrien_fleming"
    futility_p: float | None = None
    alpha: float = 0.05

    def __post_init__(self):
        object.__setattr__(self, "delta", check_real("delta", self.delta, low=-1e6, high=1e6))
        object.__setattr__(self, "sd", check_real("sd", self.sd, low=0.0, high=1e6, low_open=True))
        object.__setattr__(self, "looks", check_int("looks", self.looks, low=1, high=50))
        object.__setattr__(self, "boundary", check_choice("boundary", self.boundary, BOUNDARIES))
        object.__setattr__(self, "alpha", check_alpha(self.alpha))

    @classmethod
    def from_model(cls, model: ItemModel, **options) -> SequentialDesign:
        """The design for a page's per-item difference model."""
        return cls(model.delta, model.sd, **options)

    def _options(self) -> dict:
        return {"looks": self.looks, "boundary": self.boundary, "futility_p": self.futility_p, "alpha": self.alpha}

    def power(self, n_max, *, design="group", **options):
        """:func:`sequential_power` with ``n_max`` items planned (``options``: ``method``, ``n_sims``, ``seed``…)."""
        return sequential_power(n_max, self.delta, self.sd, design=design, **self._options(), **options)

    def sample_size(self, *, design="group", target_power=0.8, **options) -> int:
        """:func:`sequential_sample_size` for this difference."""
        return sequential_sample_size(self.delta, self.sd, design=design, target_power=target_power,
                                      **self._options(), **options)

    def compare(self, n_max, *, n_sims=2000, seed=0, designs=("fixed", "group", "anytime")) -> pd.DataFrame:
        """:func:`compare_designs` for this difference."""
        return compare_designs(n_max, self.delta, self.sd, **self._options(), n_sims=n_sims, seed=seed,
                               designs=designs)

    def curves(self, n_max, deltas, *, designs=("fixed", "group", "anytime", "naive"), n_sims=4000, seed=0):
        """:func:`sequential_curves` over true differences ``deltas`` at this SD."""
        return sequential_curves(n_max, list(deltas), self.sd, designs=designs, **self._options(), n_sims=n_sims,
                                 seed=seed)

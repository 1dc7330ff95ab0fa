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

from ..validation import check_int, check_probability, check_real
from .general import sequential_power

__all__ = ["ItemModel", "benchmark_item_model", "vote_item_model", "compare_designs"]


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

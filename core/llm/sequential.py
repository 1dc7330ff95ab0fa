"""The LLM benchmark's per-item difference model for the sequential engine (:mod:`core.sequential`).

:func:`core.sequential.sequential_power` needs the mean and SD of one item's difference. Under this package's
variance model (Miller 2024) a question's observed score difference has mean ``J (μ_B − μ_A)`` and variance
``2J²σ²(1 − ρ)·DE + noise/K`` (J the judge's Youden index); clusters enter through the design effect
``DE = 1 + (m − 1) ICC``, which assumes questions arrive cluster by cluster and looks fall between clusters.

It lives here, with the model it reads, so that the general engine imports no scenario package (it was
``core.sequential.benchmark_item_model``, which still forwards here with a ``DeprecationWarning``).
"""

from __future__ import annotations

import math

from ..sequential import ItemModel
from ._common import _validate, _variance_parts

__all__ = ["benchmark_item_model"]


def benchmark_item_model(*, accuracy_a, accuracy_b, difficulty_sd=0.0, correlation=0.0, samples=1, cluster_size=1,
                         icc=0.0, judge_sensitivity=1.0, judge_specificity=1.0) -> ItemModel:
    """One question's observed score difference under the LLM page's variance model.

    Examples
    --------
    >>> m = benchmark_item_model(accuracy_a=0.7, accuracy_b=0.73)
    >>> round(m.delta, 4), round(m.sd, 4)
    (0.03, 0.638)
    """
    d = _validate(accuracy_a, accuracy_b, difficulty_sd, correlation, samples, cluster_size, icc,
                  judge_sensitivity, judge_specificity, 0.05)
    tau2, noise = _variance_parts(d)
    design_effect = 1.0 + (d.m - 1) * d.icc  # whole clusters between looks
    return ItemModel(delta=d.j * (d.mu_b - d.mu_a), sd=math.sqrt(tau2 * design_effect + noise), scale=d.j)

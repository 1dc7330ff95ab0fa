"""Per-item difference models of the other scenarios, for running them sequentially.

The general engine (:func:`core.sequential.sequential_power`) needs the mean
and SD of one item's difference (an :class:`ItemModel`). Two scenarios supply them:

* an LLM benchmark: :func:`core.llm.sequential.benchmark_item_model` (the
  variance model of :mod:`core.llm`, Miller 2024), which lives with that model
  so that this engine package imports no scenario package;
* a pairwise vote between two systems (:mod:`core.pairwise`): +1 when B wins,
  -1 when A wins, 0 for a tie; with tie rate t and observed win rate p of B
  among decisive votes the mean is ``(1 - t)(2p - 1)`` and the variance
  ``(1 - t) - mean²`` (exact for this three-point distribution).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ..design import Design, spec
from ..validation import check_int, check_probability, check_real
from .boundaries import BOUNDARIES
from .general import sequential_curves, sequential_power, sequential_sample_size

__all__ = ["ItemModel", "SequentialDesign", "vote_item_model", "compare_designs"]


@dataclass(frozen=True)
class ItemModel:
    """Mean and SD of one item's difference (B minus A) on the scale the test uses.

    ``scale`` converts back to the scenario's own units (estimate = observed / scale), e.g. J for a judge.
    """

    delta: float
    sd: float
    scale: float = 1.0


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
class SequentialDesign(Design):
    """A sequentially monitored comparison of per-item differences, everything but the items planned.

    ``delta`` and ``sd`` are the per-item difference's mean and SD (an :class:`ItemModel`'s); ``looks``,
    ``boundary``, ``futility_p`` and ``alpha`` configure the group-sequential design (Jennison & Turnbull 2000)
    that :func:`compare_designs` sets beside the fixed and the anytime runs. Each field is declared once
    (:func:`core.design.spec`) with the engine's range — :func:`sequential_power` refuses more than 10 looks, and
    so does the design — and the URL key of the "Run it sequentially" section's widget (``seq_looks``,
    ``seq_boundary``). The section builds it once from its page's model. Frozen and compared by value, so it is
    a cache key.

    Examples
    --------
    >>> d = SequentialDesign(0.1, 1.0)
    >>> d.power(800).power == sequential_power(800, 0.1, 1.0).power
    True
    """

    delta: float = spec(0.0, low=-1e6, high=1e6, key="seq_delta", unit="score units",
                        label="Per-item mean difference", help="Mean of one item's difference (B − A).")
    sd: float = spec(1.0, low=0.0, high=1e6, low_open=True, ui_low=0.01, key="seq_sd", unit="score units",
                     label="Per-item SD", help="SD of one item's difference.")
    looks: int = spec(3, low=1, high=10, ui_low=2, step=1, key="seq_looks", label="Planned looks K (group design)",
                      help="Analyses after every n/K items. The anytime design looks after every one.")
    boundary: str = spec("obrien_fleming", choices=BOUNDARIES, key="seq_boundary", label="Group boundary",
                         help="How α is shared among the looks.")
    futility_p: float | None = spec(None, kind="float", low=0.0, high=1.0, low_open=True, high_open=True,
                                    ui_low=0.1, ui_high=0.9, key="seq_futility",
                                    label="Futility threshold (stop if p >)",
                                    help="Binding futility stop at p above this (none: no futility stop).")
    alpha: float = spec(0.05, low=0.0, high=0.5, low_open=True, ui_low=0.001, key="alpha", label="α (two-sided)",
                        help="False-positive rate of the whole run.")

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

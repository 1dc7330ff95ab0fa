"""The ratings design: one frozen object for a Likert comparison of two systems (Card et al. 2020, §5.2).

Part of :mod:`core.ratings`; every name is importable from there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from ..validation import check_choice, check_int
from ._model import _SIGMAS, RatingsResult, _validate
from .assurance import crowd_assurance, likert_assurance
from .crowd import crowd_power
from .power import likert_mde, likert_power

__all__ = ["LAYOUTS", "RatingsDesign"]

#: ``"crossed"``: every worker rates every item under both systems (the paper's design); ``"crowd"``: each item is
#: rated by ``per_item`` workers drawn from a pool of ``workers``.
LAYOUTS = ("crossed", "crowd")


@dataclass(frozen=True)
class RatingsDesign:
    """A Likert comparison of two systems: who rates what, the effect and the variance components.

    The Ratings page builds it once; the methods are the module's functions for this design. Frozen and compared
    by value, so it is a cache key.

    Attributes
    ----------
    workers, items : int
        Workers (the pool, for ``layout="crowd"``) and items.
    effect : float
        β1 of equation 5 (the two systems' mean ratings differ by 2 × effect).
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        Worker and item intercept and slope SDs and the residual SD (Table 16).
    layout : {"crossed", "crowd"}
    per_item : int or None
        Workers per item for ``layout="crowd"``.
    baseline, alpha, rule, likert :
        As in :func:`likert_power`.

    Examples
    --------
    >>> from core.ratings import PRESETS, likert_power
    >>> d = RatingsDesign(10, 100, 0.1, **PRESETS["high"], rule="satterthwaite")
    >>> d.power(method="analytic") == likert_power(10, 100, 0.1, **PRESETS["high"], rule="satterthwaite",
    ...                                            method="analytic")
    True
    """

    workers: int
    items: int
    effect: float
    sigma_w0: float
    sigma_w1: float
    sigma_i0: float
    sigma_i1: float
    sigma: float
    layout: str = "crossed"
    per_item: int | None = None
    baseline: float = 0.5
    alpha: float = 0.05
    rule: str = "satterthwaite"
    likert: int | None = None

    def __post_init__(self):
        set_ = partial(object.__setattr__, self)
        set_("layout", check_choice("layout", self.layout, LAYOUTS))
        # the engines' own checks (one validation helper for the module)
        workers, items, effect, sigmas, baseline, alpha, rule, _ = _validate(
            self.workers, self.items, self.effect, {name: getattr(self, name) for name in _SIGMAS}, self.baseline,
            self.alpha, self.rule, "simulate")
        for name, value in (("workers", workers), ("items", items), ("effect", effect), ("baseline", baseline),
                            ("alpha", alpha), ("rule", rule), *sigmas.items()):
            set_(name, value)
        if self.layout == "crowd":
            set_("per_item", check_int("per_item", self.per_item, low=2, high=workers))
        if self.likert is not None:
            set_("likert", check_int("likert", self.likert, low=2, high=1001))

    @property
    def sigmas(self) -> dict:
        """The five variance components as keyword arguments."""
        return {name: getattr(self, name) for name in _SIGMAS}

    @property
    def n_ratings(self) -> int:
        """Ratings collected: both systems for every (worker, item) cell rated."""
        return 2 * (self.workers if self.layout == "crossed" else self.per_item) * self.items

    def with_(self, **changes) -> RatingsDesign:
        """The same design with some fields changed (validated again)."""
        return replace(self, **changes)

    def power(self, *, method="simulate", n_sims=500, seed=None) -> RatingsResult:
        """:func:`likert_power` (crossed) or :func:`crowd_power` (crowd; always simulated)."""
        if self.layout == "crowd":
            return crowd_power(self.workers, self.items, self.per_item, self.effect, **self.sigmas,
                               baseline=self.baseline, alpha=self.alpha, rule=self.rule, n_sims=n_sims, seed=seed,
                               likert=self.likert)
        return likert_power(self.workers, self.items, self.effect, **self.sigmas, baseline=self.baseline,
                            alpha=self.alpha, rule=self.rule, method=method, n_sims=n_sims, seed=seed,
                            likert=self.likert)

    def mde(self, *, target_power=0.8) -> float:
        """:func:`likert_mde` of the fully crossed design with these workers and items (analytic)."""
        return likert_mde(self.workers, self.items, target_power=target_power, alpha=self.alpha, **self.sigmas)

    def assurance(self, delta_sd):
        """Power averaged over a normal prior N(effect, delta_sd²) on β1 (:func:`likert_assurance` or
        :func:`crowd_assurance`)."""
        if self.layout == "crowd":
            return crowd_assurance(self.workers, self.items, self.per_item, self.effect, delta_sd, **self.sigmas,
                                   alpha=self.alpha)
        return likert_assurance(self.workers, self.items, self.effect, delta_sd, **self.sigmas, alpha=self.alpha)

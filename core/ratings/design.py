"""The ratings design: one frozen object for a Likert comparison of two systems (Card et al. 2020, §5.2).

Every input of the Ratings page is a field declared once (:func:`core.design.spec`): default, valid range (the
engines' own), step, unit, label, help and URL key. ``RatingsDesign()`` is the page's default design: 3 workers
rating 100 items, β1 = 0.1, the "high" variance components of Card et al. (2020), Table 16.

Part of :mod:`core.ratings`; every name is importable from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..design import Design, spec
from ..validation import check_int
from ._model import _SIGMAS, DATASET_PRESETS, PRESETS, RULES, RatingsResult
from .assurance import assurance_plans, crowd_assurance, likert_assurance
from .crowd import crowd_analytic, crowd_plans, crowd_power
from .fitted import fitted_test_mde, fitted_test_power
from .power import analytic_grid, budget_plans, likert_mde, likert_power

__all__ = ["LAYOUTS", "LAYOUT_LABELS", "RULE_LABELS", "SIGMA_LABELS", "SIGMA_HELP", "PRESET_LABELS",
           "LIKERT_LABELS", "RatingsDesign", "PAY_LABELS", "RatingsCostDesign"]

#: ``"crossed"``: every worker rates every item under both systems (the paper's design); ``"crowd"``: each item is
#: rated by ``per_item`` workers drawn from a pool of ``workers``.
LAYOUTS = ("crossed", "crowd")
#: How the page (and so its links) names each layout.
LAYOUT_LABELS = {"crossed": "every worker, every item", "crowd": "k workers per item"}
#: How the page (and so its links) names each decision rule.
RULE_LABELS = {"paper": "paper: ML fit, t > 1.96", "satterthwaite": "REML + Satterthwaite t"}
SIGMA_LABELS = {"sigma_w0": "Worker intercept SD σ_w0", "sigma_w1": "Worker slope SD σ_w1",
                "sigma_i0": "Item intercept SD σ_i0", "sigma_i1": "Item slope SD σ_i1", "sigma": "Residual SD σ"}
SIGMA_HELP = {
    "sigma_w0": "How much workers differ in their overall leniency.",
    "sigma_w1": "How much workers differ in how strongly they prefer the new system — the key driver of power with "
                "few workers.",
    "sigma_i0": "How much items differ in overall quality.",
    "sigma_i1": "How much the systems' difference varies from item to item.",
    "sigma": "Rating noise left over (on the [0, 1] scale).",
}
#: The variance presets: Table 16's two settings and the per-dataset fits of Tables 13–15 (Card et al. 2020).
PRESET_LABELS = {"high": "Table 16: high variance", "low": "Table 16: low variance",
                 **{name: f"Tables 13–15: {name}" for name in DATASET_PRESETS}}
#: The page's rating-scale choice (a link's ``likert=continuous`` is no rounding).
LIKERT_LABELS = {"continuous": "continuous", "5": "5-point", "7": "7-point"}

_HIGH = PRESETS["high"]
_SIGMA_SPEC = dict(low=0.0, high=2.0, step=0.005, ui_low=0.0, ui_high=0.4, unit="")  # engines: [0, 2]


def _sigma(name: str, **extra):
    return spec(_HIGH[name], label=SIGMA_LABELS[name], help=SIGMA_HELP[name], key=name, **{**_SIGMA_SPEC, **extra})


@dataclass(frozen=True)
class RatingsDesign(Design):
    """A Likert comparison of two systems: who rates what, the effect and the variance components.

    The Ratings page builds it once from its widgets (each field's URL key is the widget's key) and passes it to
    one cached call per output; the methods are the module's functions for this design. Frozen and compared by
    value, so it is a cache key. ``RatingsDesign()`` is the page's default; positional construction
    ``RatingsDesign(workers, items, effect, **sigmas, …)`` works as before.

    Attributes
    ----------
    workers, items : int
        Workers (the pool, for ``layout="crowd"``; [2, 10,000]) and items ([2, 100,000]).
    effect : float
        β1 of equation 5, in [−0.5, 0.5] (the two systems' mean ratings differ by 2 × effect on [0, 1]).
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        Worker and item intercept and slope SDs and the residual SD, in [0, 2] (σ > 0); default: Table 16's
        "high" setting.
    layout : {"crossed", "crowd"}
    per_item : int or None
        Workers per item for ``layout="crowd"``, in [2, workers]; None there means min(3, workers), the page's
        default.
    baseline : float
        β0, the mean rating, in [0, 1] (matters only with ``likert``).
    alpha : float
        Two-sided level of the Satterthwaite rule, in (0, 0.5].
    rule : {"satterthwaite", "paper"}
    likert : int or None
        Round simulated ratings to a k-point scale (k in [2, 1001]); None: continuous.
    preset : str
        Where the variance components came from (a key of :data:`PRESET_LABELS`; the plan cites it). Choosing a
        preset on the page sets the SDs; the SDs are what the engines use.

    Examples
    --------
    >>> from core.ratings import PRESETS, likert_power
    >>> d = RatingsDesign(10, 100, 0.1, **PRESETS["high"], rule="satterthwaite")
    >>> d.power(method="analytic") == likert_power(10, 100, 0.1, **PRESETS["high"], rule="satterthwaite",
    ...                                            method="analytic")
    True
    >>> RatingsDesign() == RatingsDesign(3, 100, 0.1, **PRESETS["high"])
    True
    """

    workers: int = spec(3, low=2, high=10_000, step=1, ui_high=50, unit="workers", key="workers",
                        label="Workers W (each rates every item)",
                        help="3 was the most common choice at EMNLP 2019 (§5.1).")
    items: int = spec(100, low=2, high=100_000, step=1, unit="items", key="items", label="Items I",
                      help="69% of EMNLP 2019 studies used 100 items or fewer.")
    effect: float = spec(0.1, low=-0.5, high=0.5, step=0.005, ui_low=0.0, ui_high=0.3, unit="β1", key="effect",
                         label="Effect β1 (±1-coded system coefficient)",
                         help="Figure 6's x axis. The systems' mean ratings differ by 2 × β1.")
    sigma_w0: float = _sigma("sigma_w0")
    sigma_w1: float = _sigma("sigma_w1")
    sigma_i0: float = _sigma("sigma_i0")
    sigma_i1: float = _sigma("sigma_i1")
    # the engines need σ > 0 (a mixed model with no residual variance has nothing to fit), so the slider starts one
    # step above 0
    sigma: float = _sigma("sigma", low_open=True, ui_low=_SIGMA_SPEC["step"])
    layout: str = spec("crossed", choices=LAYOUTS, key="layout", label="Who rates what",
                       help="Fully crossed (the paper's design), or a crowdsourcing design where each item is rated "
                       "by k workers drawn from a pool of W (simulated; moment-based analysis).")
    per_item: int | None = spec(None, kind="int", low=2, high=10_000, step=1, unit="workers", key="per_item",
                                label="Workers per item k",
                                help="Each item's two outputs are rated by k workers from the pool.")
    baseline: float = spec(0.5, low=0.0, high=1.0, step=0.01, ui_low=0.1, ui_high=0.9, key="baseline",
                           label="Mean rating β0", help="Matters only when ratings are rounded to a Likert scale.")
    # α = 0 is no test: the widget's lowest value is one step above it
    alpha: float = spec(0.05, low=0.0, high=0.5, low_open=True, step=0.005, ui_low=0.005, key="alpha",
                        label="α (two-sided, Satterthwaite rule)", help="The paper's rule always uses t > 1.96.")
    rule: str = spec("satterthwaite", choices=RULES, key="rule", label="Decision rule",
                     help="REML + Satterthwaite: the two-sided test a careful analyst would run (analytic power, "
                     "Westfall, Kenny & Judd 2014). The paper's rule counts a detection when the ML t value exceeds "
                     "1.96 (one-sided, no df correction); it has no closed form and is simulated.")
    likert: int | None = spec(None, kind="int", low=2, high=1001, step=1, unit="points", key="likert",
                              label="Ratings", help="Round and clip simulated ratings to a Likert scale (simulated).")
    preset: str = spec("high", choices=tuple(PRESET_LABELS), key="preset", label="Variance preset",
                       help="Variance components fitted by Card et al.: Table 16's high/low settings, or the "
                       "per-dataset fits of Tables 13–15 for datasets comparing two systems. Choosing one sets the "
                       "sliders.")

    def __post_init__(self):
        self.check_fields()
        # the check spanning fields: k workers per item are drawn from the pool of W
        if self.layout == "crowd":
            per_item = min(3, self.workers) if self.per_item is None else self.per_item
            object.__setattr__(self, "per_item", check_int("per_item", per_item, low=2, high=self.workers))

    # --- links --------------------------------------------------------------------------------------------------
    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None = None, *, messages: list | None = None):
        """The design a link or pin describes (:meth:`core.design.Design.from_params`).

        The page's widgets write the layout, rule, preset and rating scale into the URL by their labels
        ("k workers per item", "REML + Satterthwaite t", "continuous"); those are read as the values they name.
        """
        params = dict(params or {})
        for key, labels in (("layout", LAYOUT_LABELS), ("rule", RULE_LABELS), ("preset", PRESET_LABELS),
                            ("likert", {"none": "continuous", "5": "5-point", "7": "7-point"})):
            raw = params.get(key)
            raw = raw[-1] if isinstance(raw, (list, tuple)) and raw else raw
            for value, label in labels.items():
                if raw == label:
                    params[key] = value
        return super().from_params(params, messages=messages)

    def to_params(self) -> dict[str, str]:
        """Every field as link text, by URL key (continuous ratings as ``likert=continuous``, the page's option)."""
        params = super().to_params()
        if self.likert is None:
            params["likert"] = "continuous"
        return params

    # --- derived ------------------------------------------------------------------------------------------------
    @property
    def sigmas(self) -> dict:
        """The five variance components as keyword arguments."""
        return {name: getattr(self, name) for name in _SIGMAS}

    @property
    def n_ratings(self) -> int:
        """Ratings collected: both systems for every (worker, item) cell rated."""
        return 2 * (self.workers if self.layout == "crossed" else self.per_item) * self.items

    @property
    def analytic(self) -> bool:
        """Whether the design's power has a closed form (crossed, Satterthwaite rule, continuous ratings)."""
        return self.layout == "crossed" and self.rule == "satterthwaite" and self.likert is None

    def label(self) -> str:
        """Short name of the design ("W = 3, I = 100, β1 = 0.1"), as pins and tables show it."""
        who = f"W = {self.workers}" if self.layout == "crossed" else f"k = {self.per_item} of {self.workers}"
        return f"{who}, I = {self.items}, β1 = {self.effect:g}"

    # --- the engines for this design ----------------------------------------------------------------------------
    def power(self, *, method="simulate", n_sims=500, seed=None) -> RatingsResult:
        """:func:`likert_power` (crossed) or :func:`crowd_power` (crowd; always simulated)."""
        if self.layout == "crowd":
            return crowd_power(self.workers, self.items, self.per_item, self.effect, **self.sigmas,
                               baseline=self.baseline, alpha=self.alpha, rule=self.rule, n_sims=n_sims, seed=seed,
                               likert=self.likert)
        return likert_power(self.workers, self.items, self.effect, **self.sigmas, baseline=self.baseline,
                            alpha=self.alpha, rule=self.rule, method=method, n_sims=n_sims, seed=seed,
                            likert=self.likert)

    def analytic_power(self) -> float:
        """Analytic power at ``effect`` of the Satterthwaite t test with continuous ratings: Westfall–Kenny–Judd
        (:func:`likert_power`, crossed) or the approximate :func:`crowd_analytic` (crowd)."""
        if self.layout == "crowd":
            frame = crowd_analytic(self.workers, self.items, self.per_item, [self.effect], alpha=self.alpha,
                                   **self.sigmas)
            return float(frame["power"].iloc[0])
        return self.with_(rule="satterthwaite", likert=None).power(method="analytic").power

    def fitted_power(self) -> RatingsResult:
        """:func:`fitted_test_power`: the crossed design's Satterthwaite t test as fitted (its df estimated from the
        mean squares), integrated exactly; continuous ratings. Beside :meth:`analytic_power` it shows where the
        noncentral-t approximation is off (both slope variances small against the residual)."""
        return fitted_test_power(self.workers, self.items, self.effect, **self.sigmas, alpha=self.alpha)

    def fitted_mde(self, *, target_power=0.8) -> float:
        """:func:`fitted_test_mde`: the smallest β1 the fitted test detects with ``target_power`` (crossed design with
        these workers and items, continuous ratings)."""
        return fitted_test_mde(self.workers, self.items, target_power=target_power, alpha=self.alpha, **self.sigmas)

    def mde(self, *, target_power=0.8) -> float:
        """:func:`likert_mde` of the fully crossed design with these workers and items (analytic)."""
        return likert_mde(self.workers, self.items, target_power=target_power, alpha=self.alpha, **self.sigmas)

    def curves(self, effects, *, workers=None, items=None, with_type_m=True) -> pd.DataFrame:
        """Analytic power, Type-S and Type-M of fully crossed designs on a workers × items × effects grid
        (:func:`analytic_grid`; tidy, one row per point). ``workers`` / ``items`` default to the design's;
        ``with_type_m=False``: ``type_m`` left out (``nan``), for charts of power alone."""
        return analytic_grid(list(workers or [self.workers]), list(items or [self.items]), list(effects),
                             alpha=self.alpha, with_type_m=with_type_m, **self.sigmas)

    def assurance(self, delta_sd, *, delta_mean=None):
        """Power averaged over a normal prior N(delta_mean, delta_sd²) on β1 (``delta_mean`` defaults to
        ``effect``): :func:`likert_assurance` or :func:`crowd_assurance`."""
        mean = self.effect if delta_mean is None else delta_mean
        if self.layout == "crowd":
            return crowd_assurance(self.workers, self.items, self.per_item, mean, delta_sd, **self.sigmas,
                                   alpha=self.alpha)
        return likert_assurance(self.workers, self.items, mean, delta_sd, **self.sigmas, alpha=self.alpha)

    def plans(self, *, cost_per_rating=0.1, cost_per_worker=0.0, target_power=0.8) -> pd.DataFrame:
        """Cheapest designs reaching ``target_power`` at ``effect``: :func:`budget_plans` over the number of
        workers (crossed) or :func:`crowd_plans` over k for this pool (crowd)."""
        if self.layout == "crowd":
            return crowd_plans(self.effect, pool=self.workers, cost_per_rating=cost_per_rating,
                               target_power=target_power, alpha=self.alpha, **self.sigmas)
        return budget_plans(self.effect, cost_per_rating=cost_per_rating, cost_per_worker=cost_per_worker,
                            target_power=target_power, alpha=self.alpha, **self.sigmas)

    def assurance_plans(self, delta_sd, *, delta_mean=None, cost_per_rating=0.1, cost_per_worker=0.0,
                        target=0.8) -> pd.DataFrame:
        """Cheapest fully crossed designs reaching a target assurance (:func:`assurance_plans`)."""
        mean = self.effect if delta_mean is None else delta_mean
        return assurance_plans(mean, delta_sd, cost_per_rating=cost_per_rating, cost_per_worker=cost_per_worker,
                               target=target, alpha=self.alpha, **self.sigmas)


#: How the Ratings page names the ways of paying workers (and so its links: ``pay=by the hour``).
PAY_LABELS = {"rating": "per rating", "hour": "by the hour"}


@dataclass(frozen=True)
class RatingsCostDesign(Design):
    """What the ratings cost: the Ratings page's cost inputs, declared once (URL keys ``pay``, ``cost_rating``,
    ``wage``, ``per_hour``, ``cost_worker``).

    Workers are paid per rating (``cost_per_rating``) or by the hour (``wage`` ÷ ``ratings_per_hour``); a fixed
    ``cost_per_worker`` (recruiting, training) comes on top. The ranges are those of the planners
    (:func:`budget_plans`, :func:`crowd_plans`, :func:`assurance_plans`): a cost per rating in [0, 10⁶] — a wage
    in [0, 10⁶] per hour over at least one rating per hour stays in it — and a cost per worker in [0, 10⁹]. The
    methods take the page's :class:`RatingsDesign` (who rates what) and delegate to its planners. A separate design,
    not fields of :class:`RatingsDesign`: the costs change no power, so the power outputs keep their cache keys.

    Examples
    --------
    >>> c = RatingsCostDesign(pay="hour", wage=24.0, ratings_per_hour=60.0)
    >>> c.rating_cost, c.cost(RatingsDesign())  # 2 × 3 workers × 100 items at 0.40
    (0.4, 240.0)
    >>> RatingsCostDesign.from_params({"pay": "by the hour", "wage": "24", "per_hour": "60"}) == c
    True
    """

    pay: str = spec("rating", choices=tuple(PAY_LABELS), key="pay", label="Workers are paid",
                    help="Per rating (crowdsourcing platforms), or an hourly wage and a rating speed (in-house or "
                    "professional annotators).")
    cost_per_rating: float = spec(0.10, low=0.0, high=1e6, ui_high=1000.0, step=0.01, unit="per rating",
                                  key="cost_rating", label="Cost per rating", help="What one rating costs.")
    wage: float = spec(15.0, low=0.0, high=1e6, ui_high=10_000.0, step=0.5, unit="per hour", key="wage",
                       label="Hourly wage", help="What one worker-hour costs.")
    ratings_per_hour: float = spec(120.0, low=1.0, high=10_000.0, step=10.0, unit="ratings per hour", key="per_hour",
                                   label="Ratings per hour",
                                   help="How many ratings a worker completes in an hour (time it on a pilot).")
    cost_per_worker: float = spec(0.0, low=0.0, high=1e9, ui_high=100_000.0, step=1.0, unit="per worker",
                                  key="cost_worker", label="Fixed cost per worker",
                                  help="Recruiting, training or qualification cost per worker, if any.")

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None = None, *, messages: list | None = None):
        """The costs a link describes; the page's widget writes the way of paying by its label ("by the hour")."""
        params = dict(params or {})
        raw = params.get("pay")
        raw = raw[-1] if isinstance(raw, (list, tuple)) and raw else raw
        for value, label in PAY_LABELS.items():
            if raw == label:
                params["pay"] = value
        return super().from_params(params, messages=messages)

    @property
    def rating_cost(self) -> float:
        """The cost per rating in effect: ``cost_per_rating``, or ``wage`` ÷ ``ratings_per_hour`` by the hour."""
        return self.wage / self.ratings_per_hour if self.pay == "hour" else self.cost_per_rating

    @property
    def paid_by_hour(self) -> bool:
        """Whether the cost per rating is a wage ÷ ratings per hour."""
        return self.pay == "hour"

    def cost(self, design: RatingsDesign) -> float | None:
        """The design's cost: its ratings × :attr:`rating_cost` + its workers × ``cost_per_worker`` (the pool, for
        k workers per item); None when both unit costs are 0 (no costs given)."""
        if not (self.rating_cost or self.cost_per_worker):
            return None
        return design.n_ratings * self.rating_cost + design.workers * self.cost_per_worker

    def plans(self, design: RatingsDesign, *, target_power=0.8) -> pd.DataFrame:
        """:meth:`RatingsDesign.plans` at these costs: the cheapest designs reaching ``target_power``
        (:func:`budget_plans`, or :func:`crowd_plans`, which has no cost per worker)."""
        return design.plans(cost_per_rating=self.rating_cost, cost_per_worker=self.cost_per_worker,
                            target_power=target_power)

    def assurance_plans(self, design: RatingsDesign, delta_sd, *, delta_mean=None, target=0.8) -> pd.DataFrame:
        """:meth:`RatingsDesign.assurance_plans` at these costs (:func:`assurance_plans`)."""
        return design.assurance_plans(delta_sd, delta_mean=delta_mean, cost_per_rating=self.rating_cost,
                                      cost_per_worker=self.cost_per_worker, target=target)

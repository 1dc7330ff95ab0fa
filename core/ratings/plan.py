"""The Ratings page's plan: a Likert comparison with crossed worker × item variance (Card et al. 2020, §5.2;
Westfall, Kenny & Judd 2014), in words."""

from __future__ import annotations

import math
from collections.abc import Mapping

from . import RatingsDesign
from .design import RULE_LABELS, SIGMA_LABELS, RatingsCostDesign  # the page's labels, declared with the design's fields
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_money, fmt_pct, fmt_ratio
from ..validation import check_type

__all__ = ["RULE_LABELS", "SIGMA_LABELS", "plan_item", "who"]

REFERENCES = (
    "Card, Henderson, Khandelwal, Jia, Mahowald & Jurafsky (2020). With Little Power Comes Great Responsibility. "
    "EMNLP (§5.2, appendix H.3).",
    "Westfall, Kenny & Judd (2014). Statistical power and optimal design in experiments in which samples of "
    "participants respond to samples of stimuli. J. Exp. Psychol. Gen. 143.",
    "O'Hagan, Stevens & Campbell (2005). Assurance in clinical trial design. Pharmaceutical Statistics 4.",
)


def who(design: RatingsDesign) -> str:
    """Who rates what, in words."""
    if design.layout == "crossed":
        return f"{design.workers} workers each rating all {design.items:,} items under both systems"
    return (f"{design.items:,} items, each rated under both systems by {design.per_item} workers drawn from a pool "
            f"of {design.workers}")


def plan_item(design: RatingsDesign, result=None, *, target_power: float, mde: float = math.nan, assurance=None,
              prior: tuple[float, float, str] | None = None, costs: RatingsCostDesign | None = None,
              currency: str = "", figures: tuple = (), link: str = "", code: str = "",
              sources: Mapping[str, str] | None = None) -> PlanItem:
    """The plan of one ratings design, as the Ratings page shows it.

    Parameters
    ----------
    design : RatingsDesign
    result : RatingsResult, optional
        The analytic power (fully crossed, REML + Satterthwaite, continuous ratings); None when the design has
        no closed form and the page simulates it (the plan then points to the page's simulation).
    target_power : float
    mde : float
        The fully crossed design's analytic MDE for β1 (``inf``: not reachable).
    assurance, prior : optional
        Power averaged over a normal prior on β1 (mean, sd, source).
    costs : RatingsCostDesign, optional
        What the ratings cost (per rating or a wage ÷ ratings per hour, and a fixed cost per worker); the plan
        states the design's cost (:meth:`RatingsCostDesign.cost`) when it has one.
    currency : str
    figures, link, code :
        Passed through to the plan.
    sources : mapping, optional
        Where ``"effect"`` and each variance component came from (a preset of Tables 13–16, a fitted pilot);
        default "slider".

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> from core.ratings import PRESETS
    >>> d = RatingsDesign(10, 100, 0.1, **PRESETS["high"])
    >>> plan_item(d, d.power(method="analytic"), target_power=0.8).results[0]
    ('power', '67.8%')
    """
    check_type("design", design, RatingsDesign)
    sources = dict(sources or {})
    effect, sig, alpha, rule = design.effect, design.sigmas, design.alpha, design.rule
    text = who(design)
    power = result.power if result is not None else None
    sentence = (f"With {text} ({design.n_ratings:,} ratings) and variance components σ_w1 = {sig['sigma_w1']:g}, "
                f"σ_i1 = {sig['sigma_i1']:g}, σ = {sig['sigma']:g}, a mixed-model comparison detects a difference of "
                f"{2 * effect:.3f} in mean rating (β1 = {effect:g})")
    sentence += (f" with {fmt_pct(power, 0)} power (REML with a Satterthwaite t test at α = {alpha:g}; Westfall, "
                 "Kenny & Judd, 2014; Card et al., 2020)." if power is not None else
                 " with the power shown by the simulation on the page (Card et al., 2020).")
    if result is not None and effect and math.isfinite(result.type_m):
        sentence += f" A significant result would overstate the difference by {result.type_m:.2f}× on average."
    if assurance is not None and prior is not None:
        sentence += (f" Averaged over a normal prior on β1 (mean {prior[0]:+.3f}, SD {prior[1]:.3f}), the assurance "
                     f"is {fmt_pct(assurance.assurance, 0)} (ceiling {fmt_pct(assurance.ceiling, 0)}; O'Hagan et al., "
                     "2005).")
    assumptions = [Assumption("design", text, "sliders"),
                   Assumption("effect β1", f"{effect:g} (mean ratings differ by {2 * effect:.3f})",
                              sources.get("effect", "slider"))]
    assumptions += [Assumption(SIGMA_LABELS[k], f"{sig[k]:g}", sources.get(k, "slider")) for k in SIGMA_LABELS]
    if design.likert is not None:
        assumptions.append(Assumption("rating scale", f"{design.likert}-point Likert (simulated rounding)",
                                      "set on the page"))
    results = [("power" + ("" if result is not None else " (see the page's simulation)"), fmt_pct(power)),
               ("Type-M", fmt_ratio(result.type_m) if result is not None else "—"),
               (f"MDE at {target_power:.0%} power (β1, crossed, analytic)", "not reachable" if not math.isfinite(mde)
                else f"{mde:.3f}")]
    if assurance is not None and prior is not None:
        assumptions.append(Assumption("prior on β1", f"N({prior[0]:+.3f}, {prior[1]:.3f}²)", prior[2]))
        results += [("assurance", fmt_pct(assurance.assurance)), ("assurance ceiling", fmt_pct(assurance.ceiling))]
    cost = costs.cost(design) if costs is not None else None
    if cost is not None:
        assumptions.append(Assumption("cost per rating", fmt_money(costs.rating_cost, currency) + (
            " (wage ÷ ratings per hour)" if costs.paid_by_hour else ""), "set on the page"))
        if costs.cost_per_worker:
            assumptions.append(Assumption("fixed cost per worker", fmt_money(costs.cost_per_worker, currency),
                                          "set on the page"))
        results.append(("ratings", f"{design.n_ratings:,}"))
    return PlanItem(
        scenario="Human ratings (Likert)", question=f"Can {text} detect a {2 * effect:.3f} difference in mean rating?",
        assumptions=tuple(assumptions), test=RULE_LABELS[rule] + (" on a mixed model with crossed worker and item "
                                                                  "random intercepts and slopes"),
        alpha=alpha if rule == "satterthwaite" else 0.05, results=tuple(results), paragraph=sentence, cost=cost,
        currency=currency, figures=tuple(figures), link=link, code=code, references=REFERENCES)

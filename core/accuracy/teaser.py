"""The Accuracy page's home-page card: exact McNemar power at the page's defaults (Card et al. 2020, §3)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import AccuracyPageDesign

__all__ = ["accuracy_teaser"]


def accuracy_teaser(design: AccuracyPageDesign | None = None) -> Teaser:
    """Two classifiers on one test set: exact McNemar power (the Accuracy page's paired scenario).

    ``design`` defaults to the page's (:class:`core.accuracy.AccuracyPageDesign`): n = 500 items, Δ = +2 points,
    agreement P_a = 90%, α = 0.05, exact conditional test (:func:`core.accuracy.mcnemar_power`; Card et al. 2020,
    §3 and appendix E).

    Examples
    --------
    >>> accuracy_teaser().shown
    '24.9%'
    """
    design = AccuracyPageDesign() if design is None else design
    power = design.power().power
    return Teaser("accuracy", f"Two classifiers on a {design.n:,}-item test set: {fmt_pct(power, 0)} power for a "
                  f"{design.delta:g}-point accuracy gain.", "Power", power, fmt_pct(power))

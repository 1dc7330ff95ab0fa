"""The MT page's home-page card: BLEU power at the page's defaults (Card et al. 2020, §4)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import BleuDesign

__all__ = ["mt_teaser"]


def mt_teaser(design: BleuDesign | None = None) -> Teaser:
    """MT with BLEU: power of the paired randomization test's normal form at ``design`` (default: the MT page's
    default design, :class:`core.BleuDesign`).

    n = 2,000 sentences, Δ_B = 1 BLEU, P0 = 0.13, b0 = 25.8 (the average of Card et al. 2020, Table 3)
    (:func:`core.mt.bleu_power`).

    Examples
    --------
    >>> mt_teaser().shown
    '74.7%'
    """
    d = BleuDesign() if design is None else design
    power = d.power().power
    return Teaser("mt", f"MT on a {d.n:,}-sentence test set: {fmt_pct(power, 0)} power for a {d.delta_bleu:g}-BLEU gain.",
                  "Power", power, fmt_pct(power))

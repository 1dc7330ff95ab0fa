"""The DA-campaign and Monitor pages' home-page cards: a fixed campaign's power (Wei, Kocmi & Federmann 2022) and
the confidence sequence of the built-in running evaluation (Waudby-Smith & Ramdas 2024)."""

from __future__ import annotations

from ..plan.text import fmt_level
from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import CampaignDesign, MonitorDesign, sample_differences

__all__ = ["sequential_teaser", "monitor_teaser"]


def sequential_teaser(design: CampaignDesign | None = None) -> Teaser:
    """A Direct Assessment campaign: the campaign's power at ``design`` (default: the DA campaigns page's default
    design, :class:`core.sequential.CampaignDesign`).

    The default: 1,200 judgments for the pair, a 2-point true difference, mean 75, SD 27, the fixed procedure
    (Mann–Whitney; its K = 3 Pocock settings are ignored by a fixed design; Wei, Kocmi & Federmann 2022).

    Examples
    --------
    >>> sequential_teaser().shown
    '55.0%'
    """
    design = CampaignDesign() if design is None else design
    power = design.power().power
    return Teaser("sequential", f"A DA campaign of {design.budget:,} judgments: {fmt_pct(power, 0)} power for a "
                  f"{design.delta:g}-point difference.", "Power", power, fmt_pct(power))


def monitor_teaser(design: MonitorDesign | None = None, *, upto: int = 60) -> Teaser:
    """A running evaluation: the confidence sequence after ``upto`` items of the built-in run (the Monitor page),
    watched by ``design`` (default: the Monitor page's default :class:`core.sequential.MonitorDesign`).

    The page's example (two models on 300 questions, :func:`core.sequential.sample_differences`) at 60 items (the
    page's replay slider, not a design field), watched by the betting confidence sequence, X = 0.05, 1,000 planned
    items, the page's seed for the simulated forecast (its interval and verdict are not simulated).

    Examples
    --------
    >>> monitor_teaser().metric
    'Running difference'
    """
    design = MonitorDesign() if design is None else design
    diffs = sample_differences()["difference"].to_numpy(dtype=float)
    res = design.run(diffs[:upto])
    last = res.sequence.iloc[-1]
    verdict = {"continue": "keep going", "budget": "the budget is spent"}.get(res.verdict, res.message)
    # the example's items are per-question accuracies: the page shows their difference in points (×100)
    return Teaser("monitor", f"{upto} of {diffs.size} questions into a run: difference {100 * last['estimate']:+.1f} "
                  f"points, {fmt_level(1 - design.alpha)} confidence sequence [{100 * last['lower']:+.0f}, "
                  f"{100 * last['upper']:+.0f}] points — {verdict}.", "Running difference", float(last["estimate"]),
                  f"{100 * last['estimate']:+.2f} pts")

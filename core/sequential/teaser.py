"""The DA-campaign and Monitor pages' home-page cards: a fixed campaign's power (Wei, Kocmi & Federmann 2022) and
the confidence sequence of the built-in running evaluation (Waudby-Smith & Ramdas 2024)."""

from __future__ import annotations

from ..plan.text import fmt_pct
from ..teaser import Teaser
from . import CampaignDesign, MonitorDesign, sample_differences

__all__ = ["sequential_teaser", "monitor_teaser"]


def sequential_teaser(*, budget=None, delta=None, mean=None, sd=None, alpha=None) -> Teaser:
    """A Direct Assessment campaign: fixed-design Mann–Whitney power (the DA campaigns page's defaults).

    The page's default design (:class:`core.sequential.CampaignDesign`: 1,200 judgments for the pair, a 2-point true
    difference, mean 75, SD 27, the fixed procedure — its K = 3 Pocock settings are ignored by a fixed design);
    keyword arguments other than ``None`` override its fields.

    Examples
    --------
    >>> sequential_teaser().shown
    '55.0%'
    """
    given = dict(budget=budget, delta=delta, mean=mean, sd=sd, alpha=alpha)
    design = CampaignDesign(**{k: v for k, v in given.items() if v is not None})
    power = design.power().power
    return Teaser("sequential", f"A DA campaign of {design.budget:,} judgments: {fmt_pct(power, 0)} power for a "
                  f"{design.delta:g}-point difference.", "Power", power, fmt_pct(power))


def monitor_teaser(*, upto=60, target=None, n_max=None, alpha=None) -> Teaser:
    """A running evaluation: the confidence sequence after ``upto`` items of the built-in run (the Monitor page).

    The page's example (two models on 300 questions, :func:`core.sequential.sample_differences`) at 60 items,
    watched by the page's default :class:`core.sequential.MonitorDesign` — the betting confidence sequence, X = 0.05,
    1,000 planned items, the page's seed for the simulated forecast (its interval and verdict are not simulated);
    ``target``, ``n_max`` and ``alpha`` other than ``None`` override them.

    Examples
    --------
    >>> monitor_teaser().metric
    'Running difference'
    """
    given = dict(target=target, n_max=n_max, alpha=alpha)
    design = MonitorDesign(**{k: v for k, v in given.items() if v is not None})
    diffs = sample_differences()["difference"].to_numpy(dtype=float)
    res = design.run(diffs[:upto])
    last = res.sequence.iloc[-1]
    verdict = {"continue": "keep going", "budget": "the budget is spent"}.get(res.verdict, res.message)
    # the example's items are per-question accuracies: the page shows their difference in points (×100)
    return Teaser("monitor", f"{upto} of {diffs.size} questions into a run: difference {100 * last['estimate']:+.1f} "
                  f"points, {1 - design.alpha:.0%} confidence sequence [{100 * last['lower']:+.0f}, "
                  f"{100 * last['upper']:+.0f}] points — {verdict}.", "Running difference", float(last["estimate"]),
                  f"{100 * last['estimate']:+.2f} pts")

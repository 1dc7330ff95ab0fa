"""The Machine-translation page's plan: a BLEU comparison (Card et al. 2020, §4 and appendix G) in words."""

from __future__ import annotations

import math
from collections.abc import Mapping

from . import BleuDesign
from ..sizing import SampleSize
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_money, fmt_pct, fmt_ratio
from ..validation import check_type

__all__ = ["plan_item"]

REFERENCES = (
    "Card, Henderson, Khandelwal, Jia, Mahowald & Jurafsky (2020). With Little Power Comes Great Responsibility. "
    "EMNLP (§4, appendix G).",
    "Post (2018). A Call for Clarity in Reporting BLEU Scores. WMT (sacrebleu).",
    "O'Hagan, Stevens & Campbell (2005). Assurance in clinical trial design. Pharmaceutical Statistics 4.",
)
TEST = "paired randomization (approximate permutation) test on corpus BLEU"


def plan_item(design: BleuDesign, result, *, target_power: float, mde: float = math.nan,
              sizes: SampleSize | None = None, assurance=None, prior: tuple[float, float, str] | None = None,
              n_assured: int | None = None, cost: float | None = None, cost_per_unit: float = 0.0,
              cost_needed: float | None = None, currency: str = "", figures: tuple = (), link: str = "",
              code: str = "", sources: Mapping[str, str] | None = None) -> PlanItem:
    """The plan of one BLEU comparison, as the MT page shows it.

    Parameters
    ----------
    design : BleuDesign
        The page's design: the test-set size ``n`` (sentences), Δ_B, P0, b0 and α are read from it.
    result : PowerResult
        Power, Type-M and Type-S at the design's ``n`` sentences.
    target_power : float
        The page's decision setting (not a design field).
    mde : float
        Smallest Δ_B detected with ``target_power`` at the design's ``n`` (``inf``: not reachable).
    sizes : SampleSize, optional
        Sentences reaching ``target_power`` (None when Δ_B = 0).
    assurance, prior, n_assured : optional
        Power averaged over the prior (mean, sd in BLEU, source) and the n reaching the target assurance.
    cost, cost_per_unit, cost_needed, currency : optional
        The design's cost, the cost of one test sentence, the cost at the sizes' n.
    figures, link, code :
        Passed through to the plan.
    sources : mapping, optional
        Where ``"n"``, ``"delta"``, ``"p0"``, ``"b0"`` came from when not from a slider (a preset of Card et al.
        Table 3, a fit to uploaded outputs).

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> from core import mt
    >>> d = mt.BleuDesign(1.0, 0.13, 25.8, n=2000)
    >>> plan_item(d, d.power(), target_power=0.8).results[0]
    ('power', '74.7%')
    """
    check_type("design", design, BleuDesign)
    sources = dict(sources or {})
    n, delta, p0, b0, alpha = design.n, design.delta_bleu, design.p0, design.b0, design.alpha
    sentence = (f"With a test set of {n:,} sentences, an expected gain of {delta:+.2f} BLEU, and swap effects with "
                f"P0 = {p0:g} and b0 = {b0:g} (Card et al., 2020, §4), the paired randomization test at α = {alpha:g} "
                f"has {fmt_pct(result.power, 0)} power")
    if delta and math.isfinite(result.type_m):
        sentence += f"; a significant result would overstate the gain by {result.type_m:.2f}× on average"
    sentence += "."
    if sizes is not None and sizes.first > 0:
        sentence += f" Reaching {target_power:.0%} power takes {sizes.first:,} sentences."
    if assurance is not None and prior is not None:
        sentence += (f" Averaged over a normal prior on the gain (mean {prior[0]:+.2f}, SD {prior[1]:.2f} BLEU), the "
                     f"assurance is {fmt_pct(assurance.assurance, 0)} (ceiling {fmt_pct(assurance.ceiling, 0)}; "
                     "O'Hagan et al., 2005).")
    assumptions = [Assumption("test-set size n", f"{n:,} sentences", sources.get("n", "slider")),
                   Assumption("expected BLEU difference Δ_B", f"{delta:+.2f}", sources.get("delta", "slider")),
                   Assumption("P0 (share of zero swap effects)", f"{p0:g}", sources.get("p0", "slider")),
                   Assumption("b0 (Laplace scale × n)", f"{b0:g}", sources.get("b0", "slider"))]
    results = [("power", fmt_pct(result.power)), ("Type-M", fmt_ratio(result.type_m)),
               ("Type-S", fmt_pct(result.type_s, 2)),
               (f"MDE at {target_power:.0%} power", "not reachable" if not math.isfinite(mde) else f"{mde:.2f} BLEU")]
    if sizes is not None:
        results.append((f"n for {target_power:.0%} power", f"{sizes.first:,}" if sizes.first > 0 else "not reachable"))
    if assurance is not None and prior is not None:
        assumptions.append(Assumption("prior on Δ_B", f"N({prior[0]:+.2f}, {prior[1]:.2f}²) BLEU", prior[2]))
        results += [("assurance", fmt_pct(assurance.assurance)), ("assurance ceiling", fmt_pct(assurance.ceiling)),
                    (f"n for {target_power:.0%} assurance", f"{n_assured:,}" if n_assured and n_assured > 0 else
                     "not reachable")]
    if cost is not None:
        assumptions.append(Assumption("cost per test sentence", fmt_money(cost_per_unit, currency), "set on the page"))
        if cost_needed is not None:
            results.append((f"cost at n for {target_power:.0%} power", fmt_money(cost_needed, currency)))
    return PlanItem(
        scenario="Machine translation (BLEU)",
        question=f"Can a {n:,}-sentence test set detect a {delta:+.2f} BLEU difference with the paired randomization "
        "test?", assumptions=tuple(assumptions), test=TEST, alpha=alpha, results=tuple(results), paragraph=sentence,
        cost=cost, currency=currency, figures=tuple(figures), link=link, code=code, references=REFERENCES)

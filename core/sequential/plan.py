"""The DA-campaign page's plan: a fixed, interim or interim-futility campaign (Wei, Kocmi & Federmann 2022), in words."""

from __future__ import annotations

import math

from . import CampaignDesign
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_money, fmt_pct
from ..validation import check_type

__all__ = ["DESIGN_LABELS", "plan_item"]

#: The page's names of the four procedures (Wei et al. 2022, §7.2; "naive" is uncorrected peeking).
DESIGN_LABELS = {"fixed": "fixed", "interim": "interim", "interim_futility": "interim-futility",
                 "naive": "naive peeking"}
REFERENCES = (
    "Wei, Kocmi & Federmann (2022). Searching for a higher power in the human evaluation of MT. WMT.",
    "Jennison & Turnbull (2000). Group Sequential Methods with Applications to Clinical Trials.",
    "O'Hagan, Stevens & Campbell (2005). Assurance in clinical trial design. Pharmaceutical Statistics 4.",
)


def plan_item(design: CampaignDesign, result, *, target_power: float, mde: float = math.nan,
              futility_saving: float = math.nan, assurance=None, prior: tuple[float, float, str] | None = None,
              cost: float | None = None, cost_per_unit: float = 0.0, currency: str = "", figures: tuple = (),
              link: str = "", code: str = "", sample_sizes: dict | None = None, sources: dict | None = None,
              fitted: str | None = None) -> PlanItem:
    """The plan of one DA campaign, as the DA page shows it.

    Parameters
    ----------
    design : CampaignDesign
        The page's design: the planned judgments (``budget``), procedure, difference, looks, boundary, futility,
        mean, SD, α and test are read from it.
    result : CampaignResult
        ``design.power()`` (:func:`core.sequential.campaign_power` with the design's budget): power, false-positive
        rate, expected judgments, Type-M at stopping.
    target_power : float
        The page's decision setting (not a design field).
    mde : float
        Smallest difference detected with ``target_power`` (``nan``/``inf``: not reachable).
    futility_saving : float
        Share of judgments interim-futility saves over the population of pairs (``nan``: not computed).
    assurance, prior : optional
        The campaign's assurance (``assurance``, ``ceiling``, ``expected_judgments``) over a normal prior
        (mean, sd in DA points, source).
    cost, cost_per_unit, currency :
        The expected cost and the cost of one judgment.
    figures, link, code :
        Passed through to the plan.
    sample_sizes : dict, optional
        Procedure → (:class:`core.sizing.SampleSize`, expected judgments at its first size), from
        :func:`core.sequential.campaign_sample_size` for ``target_power`` (the page's "judgments for 80% power").
    sources : dict, optional
        Where ``mean``, ``sd`` and ``delta`` came from (e.g. "fitted from wmt23.tsv: A vs B"); "slider" otherwise.
    fitted : str, optional
        The uploaded campaign and the two systems the values were fitted from.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> d = CampaignDesign("interim", 3.0, budget=1200)
    >>> plan_item(d, d.power(), target_power=0.8).test
    'Mann–Whitney U, interim design'
    """
    check_type("design", design, CampaignDesign)
    procedure, delta, peeks, kind, futility_p = (design.procedure, design.delta, design.looks, design.boundary,
                                                 design.futility_p)
    mean, sd, alpha, test, budget = design.mean, design.sd, design.alpha, design.test, design.budget
    design_text = {"fixed": "a single Mann–Whitney test after all judgments" if test == "mwu" else
                   "a single t test after all judgments",
                   "interim": f"{peeks} equally spaced analyses with {kind.replace('_', '–')} boundaries",
                   "interim_futility": f"{peeks} equally spaced analyses with {kind.replace('_', '–')} boundaries and "
                                       f"non-binding futility stopping at p > {futility_p:g}",
                   "naive": f"{peeks} uncorrected looks at α"}[procedure]
    sentence = (f"Comparing two systems with {budget:,} Direct Assessment judgments (mean score {mean:g}, SD {sd:g}) "
                f"and {design_text} at an overall α = {alpha:g}, a true difference of {delta:g} points is detected "
                f"with {fmt_pct(result.power, 0)} power, spending {result.expected_judgments:,.0f} judgments on "
                f"average; the campaign's false-positive rate is {fmt_pct(result.false_positive_rate, 1)} (Wei et al., "
                "2022).")
    if math.isfinite(mde):
        sentence += f" The smallest difference detected with {target_power:.0%} power is {mde:.2f} points."
    if assurance is not None and prior is not None:
        sentence += (f" Averaged over a normal prior on the difference (mean {prior[0]:+.1f}, SD {prior[1]:.1f} "
                     f"points), the assurance is {fmt_pct(assurance.assurance, 0)} (ceiling "
                     f"{fmt_pct(assurance.ceiling, 0)}; O'Hagan et al., 2005).")
    sources = dict(sources or {})
    model_source = sources.get("mean") if sources.get("mean") == sources.get("sd") and sources.get("mean") not in (
        None, "slider") else None
    assumptions = [Assumption("planned judgments", f"{budget:,}", "slider"),
                   Assumption("design", DESIGN_LABELS[procedure] + (f", K = {peeks}, {kind}" if procedure != "fixed"
                                                                    else ""), "set on the page"),
                   Assumption("mean DA score / judgment SD", f"{mean:g} / {sd:g}",
                              model_source or "slider (cf. Wei et al. 2022, Table 2)"),
                   Assumption("true difference", f"{delta:g} DA points", sources.get("delta") or "slider")]
    if fitted:
        assumptions.append(Assumption("last year's judgments", fitted, "uploaded on the page"))
    if model_source:
        sentence += f" The mean and SD were {model_source}."
    if procedure == "interim_futility":
        assumptions.append(Assumption("futility threshold", f"p > {futility_p:g}", "slider"))
    results = [("power", fmt_pct(result.power)), ("false-positive rate", fmt_pct(result.false_positive_rate, 2)),
               ("expected judgments", f"{result.expected_judgments:,.0f}"),
               ("Type-M at stopping (difference of means)", f"{result.type_m:.2f}×" if delta and
                math.isfinite(result.type_m) else "—"),
               (f"MDE at {target_power:.0%} power", "not reachable" if not math.isfinite(mde) else f"{mde:.2f} pts"),
               ("judgments saved by interim-futility (population)", "—" if not math.isfinite(futility_saving) else
                f"{100 * futility_saving:.0f}%")]
    if sample_sizes:
        fixed_first = sample_sizes["fixed"][0].first if "fixed" in sample_sizes else -1
        for procedure, (size, spent) in sample_sizes.items():
            if size.first < 0:
                text = "not reachable within 1,000,000"
            else:
                text = f"{size.first:,} planned, {spent:,.0f} expected"
                if procedure != "fixed" and fixed_first > 0:
                    text += f" ({100 * (1 - spent / fixed_first):.0f}% saved vs fixed)"
                if size.differ:
                    text += f"; stays above the target from {size.conservative:,}"
            results.append((f"judgments for {target_power:.0%} power ({DESIGN_LABELS[procedure]})", text))
        firsts = {p: s_[0].first for p, s_ in sample_sizes.items() if s_[0].first > 0}
        if "fixed" in firsts and "interim_futility" in firsts:
            spent = sample_sizes["interim_futility"][1]
            sentence += (f" Reaching {target_power:.0%} power takes {firsts['fixed']:,} judgments with the fixed "
                         f"design; interim-futility planned at {firsts['interim_futility']:,} expects to spend "
                         f"{spent:,.0f}.")
    if assurance is not None and prior is not None:
        assumptions.append(Assumption("prior on the difference", f"N({prior[0]:+.1f}, {prior[1]:.1f}²) DA points",
                                      prior[2]))
        results += [("assurance", fmt_pct(assurance.assurance)), ("assurance ceiling", fmt_pct(assurance.ceiling)),
                    ("expected judgments under the prior", f"{assurance.expected_judgments:,.0f}")]
    if cost is not None:
        assumptions.append(Assumption("cost per judgment", fmt_money(cost_per_unit, currency), "set on the page"))
        results.append(("expected cost", fmt_money(cost, currency)))
    return PlanItem(
        scenario="Direct Assessment campaign", question=f"Can {budget:,} DA judgments tell two MT systems {delta:g} "
        "points apart, and should the campaign stop early?", assumptions=tuple(assumptions),
        test=("Mann–Whitney U" if test == "mwu" else "t test") + f", {DESIGN_LABELS[procedure]} design", alpha=alpha,
        results=tuple(results), paragraph=sentence, cost=cost, currency=currency, figures=tuple(figures), link=link,
        code=code, references=REFERENCES)

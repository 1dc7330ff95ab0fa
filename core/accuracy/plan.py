"""The Accuracy page's plan: a paired (McNemar), unpaired or preference design and its numbers, in words.

Card et al. (2020) §2–3 and appendix C define the quantities (power counts a rejection with the true sign,
Type-M the average exaggeration of a significant estimate); the assurance is O'Hagan, Stevens & Campbell (2005).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from .design import SCENARIO_LABELS, SOURCE_LABELS, AccuracyPageDesign  # the page's names and its design
from ..sizing import SampleSize
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_money, fmt_pct, fmt_ratio
from ..validation import check_type

__all__ = ["SCENARIO_LABELS", "SOURCE_LABELS", "TEST_WORDS", "noninferiority_plan_item", "plan_item"]

#: The McNemar variants in words.
TEST_WORDS = {"exact": "an exact McNemar test", "midp": "a mid-p McNemar test", "chi2": "a chi-square McNemar test",
              "chi2_cc": "a continuity-corrected McNemar test", "normal": "McNemar's test (normal approximation)"}
_SIGN_TEST_WORDS = {"exact": "an exact sign test", "midp": "a mid-p sign test", "chi2": "a chi-square test",
                    "chi2_cc": "a continuity-corrected chi-square test"}
REFERENCES = (
    "Card, Henderson, Khandelwal, Jia, Mahowald & Jurafsky (2020). With Little Power Comes Great Responsibility. "
    "EMNLP.",
    "Fagerland, Lydersen & Laake (2013). The McNemar test for binary matched-pairs data. BMC Medical Research "
    "Methodology 13:91.",
    "O'Hagan, Stevens & Campbell (2005). Assurance in clinical trial design. Pharmaceutical Statistics 4.",
)


def plan_item(design: AccuracyPageDesign, result, *, mde: float = math.nan, sizes: SampleSize | None = None,
              assurance=None, prior: tuple[float, float, str] | None = None, cost: float | None = None,
              cost_per_unit: float = 0.0, currency: str = "", figures: tuple = (), link: str = "", code: str = "",
              sources: Mapping[str, str] | None = None) -> PlanItem:
    """The plan of one Accuracy-page design, as the page shows it.

    Parameters
    ----------
    design : AccuracyPageDesign
        The page's design: its ``scenario`` picks the engine design (:meth:`~AccuracyPageDesign.paired`,
        :meth:`~AccuracyPageDesign.unpaired` or :meth:`~AccuracyPageDesign.preference`); ``n`` (test items, items
        per model or raters), ``alpha``, ``target_power`` and ``test`` (the McNemar variant of a paired design; a
        preference design carries its own sign test) are read from it.
    result : PowerResult
        Its power, Type-M and Type-S at ``design.n``.
    mde : float
        Minimum detectable effect at ``n`` (a fraction; ``inf`` when not reachable).
    sizes : SampleSize, optional
        First and conservative n reaching ``target_power`` (None when the effect is 0).
    assurance : AssuranceResult, optional
        Power averaged over ``prior`` (``.assurance``, ``.ceiling``).
    prior : (mean, sd, source), optional
        The normal prior on the effect in percentage points, and where it came from.
    cost, cost_per_unit : float
        The design's cost and the cost of one unit (None / 0: no costs; a page-level setting).
    currency : str
        The currency label.
    figures, link, code :
        The charts shown, the link that reproduces the view, the Python code view (passed through).
    sources : mapping, optional
        Where a value came from when not from a slider: keys ``"n"``, ``"delta"``, ``"baseline"``.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> from core.accuracy import AccuracyPageDesign
    >>> d = AccuracyPageDesign(n=500, delta=2.0, agreement=90.0, baseline=80.0)
    >>> item = plan_item(d, d.power())
    >>> item.results[0]
    ('power', '24.9%')
    """
    check_type("design", design, AccuracyPageDesign)
    scenario, n, alpha, target_power = design.scenario, design.n, design.alpha, design.target_power
    test = design.test if scenario == "paired" else "exact"
    design = {"paired": design.paired, "unpaired": design.unpaired, "preference": design.preference}[scenario]()
    sources = dict(sources or {})

    def source(key: str) -> str:
        return sources.get(key, "slider")

    if scenario == "paired":
        delta_pp, baseline_pct, agreement = 100 * design.delta, 100 * (design.baseline or 0.0), design.agreement
        question = (f"Can a test set of {n:,} items tell two classifiers apart if the new one is {delta_pp:+.1f} points "
                    f"more accurate (agreement {agreement:.1%})?")
        assumptions = [Assumption("test-set size n", f"{n:,}", source("n")),
                       Assumption("expected accuracy difference Δ", f"{delta_pp:+.1f} pts", source("delta")),
                       Assumption("baseline accuracy", f"{baseline_pct:.1f}%", source("baseline")),
                       Assumption("agreement P_a", f"{agreement:.1%}",
                                  "slider" if design.source == "manual" else
                                  f"{SOURCE_LABELS[design.source]} (Card et al. 2020, "
                                  + ("appendix E.2.1, Tables 5–6)" if design.source in ("glue", "squad")
                                     else "appendix E.3)"))]
        test_text = TEST_WORDS.get(test, test)
        sentence = (f"With {n:,} test items, an expected gain of {delta_pp:g} points and {agreement:.0%} agreement, "
                    f"{test_text} at α = {alpha:g} has {fmt_pct(result.power, 0)} power")
        effect = design.delta
    elif scenario == "unpaired":
        delta_pp, baseline_pct = 100 * design.delta, 100 * design.baseline
        question = (f"Can {n:,} items per model detect a {delta_pp:+.1f}-point accuracy difference when each model is "
                    "scored on its own sample?")
        assumptions = [Assumption("items per model n", f"{n:,}", "slider"),
                       Assumption("expected accuracy difference Δ", f"{delta_pp:+.1f} pts", "slider"),
                       Assumption("baseline accuracy", f"{baseline_pct:.1f}%", "slider")]
        test_text = "a two-proportion z test"
        sentence = (f"With {n:,} items per model and an expected gain of {delta_pp:g} points over {baseline_pct:.1f}%, "
                    f"{test_text} at α = {alpha:g} has {fmt_pct(result.power, 0)} power")
        effect = design.delta
    else:
        p_new_pct, tie_pct = 100 * design.p_new, 100 * design.tie_rate
        question = f"Can {n:,} raters detect that {p_new_pct:.1f}% prefer the new system (ties {tie_pct:.1f}%)?"
        assumptions = [Assumption("raters n", f"{n:,}", "slider"),
                       Assumption("preferring the new system", f"{p_new_pct:.1f}%", "slider"),
                       Assumption("ties", f"{tie_pct:.1f}% ({'dropped' if design.ties == 'drop' else 'split by a coin'})",
                                  "slider")]
        test_text = _SIGN_TEST_WORDS.get(design.test, design.test)
        sentence = (f"With {n:,} raters, {p_new_pct:.0f}% preferring the new system and {tie_pct:.0f}% ties, {test_text} "
                    f"at α = {alpha:g} has {fmt_pct(result.power, 0)} power")
        effect = design.delta
    if effect != 0 and math.isfinite(result.type_m):
        sentence += (f"; a significant result would overstate the {'gap' if scenario == 'preference' else 'gain'} by "
                     f"{result.type_m:.2f}× on average")
    sentence += " (Card et al., 2020)."
    if sizes is not None and sizes.first > 0:
        sentence += f" Reaching {target_power:.0%} power takes n = {sizes.first:,}" + (
            f" (power stays at or above {target_power:.0%} from n = {sizes.conservative:,})." if sizes.differ else ".")
    if assurance is not None and prior is not None:
        sentence += (f" Averaged over a normal prior on the effect with mean {prior[0]:+.1f} and SD {prior[1]:.1f} "
                     f"points, the assurance is {fmt_pct(assurance.assurance, 0)} (ceiling "
                     f"{fmt_pct(assurance.ceiling, 0)}; O'Hagan et al., 2005).")
    results = [("power", fmt_pct(result.power)), ("Type-M", fmt_ratio(result.type_m)),
               ("Type-S", fmt_pct(result.type_s, 2)),
               (f"MDE at {target_power:.0%} power", "not reachable" if not math.isfinite(mde) else f"{100 * mde:.2f} pts")]
    if sizes is not None:
        results += [(f"n for {target_power:.0%} power (first)", f"{sizes.first:,}" if sizes.first > 0 else "not reachable"),
                    (f"n from which power stays ≥ {target_power:.0%}", f"{sizes.conservative:,}"
                     if sizes.conservative > 0 else "not reachable")]
    if assurance is not None and prior is not None:
        assumptions.append(Assumption("prior on the effect", f"N({prior[0]:+.1f}, {prior[1]:.1f}²) pts", prior[2]))
        results += [("assurance", fmt_pct(assurance.assurance)), ("assurance ceiling", fmt_pct(assurance.ceiling))]
    if cost is not None:
        assumptions.append(Assumption("cost per unit", fmt_money(cost_per_unit, currency), "set on the page"))
    return PlanItem(
        scenario=f"Accuracy ({SCENARIO_LABELS[scenario]})", question=question, assumptions=tuple(assumptions),
        test=test_text, alpha=alpha, results=tuple(results), paragraph=sentence, cost=cost, currency=currency,
        figures=tuple(figures), link=link, code=code, references=REFERENCES)


_NI_TEST_WORDS = {"score": "the score test of Nam (1997) and Tango (1998)", "wald": "a Wald test",
                  "exact": "the exact unconditional test (Sidik 2003)"}
NI_REFERENCES = (
    "Nam, J. (1997). Establishing equivalence of two treatments and sample size requirements in matched-pairs "
    "design. Biometrics 53:1422–1430.",
    "Tango, T. (1998). Equivalence test and confidence interval for the difference in proportions for the "
    "paired-sample design. Stat Med 17:891–908.",
    "Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the power approach for "
    "assessing the equivalence of average bioavailability. J Pharmacokinet Biopharm 15:657–680.",
)


def noninferiority_plan_item(design: AccuracyPageDesign, result, *, size=None, sizes: SampleSize | None = None,
                             link: str = "") -> PlanItem:
    """The plan of a "no worse than" or equivalence claim, as the Accuracy page's tab shows it.

    Parameters
    ----------
    design : AccuracyPageDesign
        The page's design: the claim is :meth:`~AccuracyPageDesign.noninferiority` with the tab's test at this n
        (:meth:`~AccuracyPageDesign.noninferiority_test`); the paired test items ``n``, ``target_power`` and where
        P_a came from (``source``, in words by :data:`SOURCE_LABELS`) are read from it.
    result : PowerResult
        The claim's power at ``design.n`` (:meth:`~AccuracyPageDesign.noninferiority_power`).
    size : PowerResult, optional
        The rejection rate at Δ = −margin (the test's size, which must not exceed α).
    sizes : SampleSize, optional
        Items reaching ``target_power``.
    link : str
        The link that reproduces the view.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> from core.accuracy import AccuracyPageDesign
    >>> d = AccuracyPageDesign(n=2000, delta=0.0, agreement=90.0, margin=1.0)
    >>> noninferiority_plan_item(d, d.noninferiority_power()).test
    'the score test of Nam (1997) and Tango (1998)'
    """
    check_type("design", design, AccuracyPageDesign)
    n, target_power, agreement_source = design.n, design.target_power, SOURCE_LABELS[design.source]
    design = design.noninferiority(test=design.noninferiority_test())
    margin_pp, delta_pp, agreement = 100 * design.margin, 100 * design.delta, design.agreement
    claim = "no worse than the baseline by more than" if design.claim == "ni" else "equivalent to the baseline within ±"
    test_text = _NI_TEST_WORDS[design.test]
    sentence = (f"To show that the new model is {claim} {margin_pp:g} points, we test "
                f"H0: Δ ≤ −{margin_pp:g} pts" + (f" and H0: Δ ≥ {margin_pp:g} pts (TOST)" if design.claim == "eq" else "")
                + f" with {test_text} at one-sided α = {design.alpha:g}. With {n:,} paired test items, "
                f"{agreement:.0%} agreement and an expected difference of {delta_pp:+.1f} points, the "
                f"power is {fmt_pct(result.power, 0)}"
                + (f"; {target_power:.0%} power needs n = {sizes.first:,}." if sizes is not None and sizes.first > 0
                   else "."))
    return PlanItem(
        scenario="Accuracy (no worse than)", question=f"Can {n:,} test items show that the new model is {claim} "
        f"{margin_pp:g} points?",
        assumptions=(Assumption("test-set size n", f"{n:,}", "slider"),
                     Assumption("expected accuracy difference Δ", f"{delta_pp:+.1f} pts", "slider"),
                     Assumption("agreement P_a", f"{agreement:.1%}", agreement_source),
                     Assumption("margin", f"{margin_pp:g} pts", "slider")),
        test=test_text, alpha=design.alpha,
        results=(("power", fmt_pct(result.power)), ("false claim rate at the margin",
                                                    "—" if size is None else fmt_pct(size.power, 2)),
                 (f"n for {target_power:.0%} power", "—" if sizes is None or sizes.first < 0 else f"{sizes.first:,}")),
        paragraph=sentence, link=link, references=NI_REFERENCES)

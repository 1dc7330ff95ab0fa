"""core.accuracy.plan: the Accuracy page's plan, checked number by number against the engines.

Oracles: the exact engines of core.accuracy (themselves tested against enumeration and statsmodels) and
Card et al. (2020), appendix C (n = 500, Δ = 2 pp, P_a = 90%: power ≈ 0.25, Type-M ≈ 1.9).
"""

from __future__ import annotations

import math

import pytest

from core import accuracy as acc
from core.plan import plan_html
from core.accuracy import plan as accuracy_plan
from core.plan.document import PlanItem


def _values(item: PlanItem) -> dict:
    return dict(item.results)


def test_paired_plan_states_the_engines_numbers():
    design = acc.AccuracyPageDesign(n=500, delta=2.0, agreement=90.0, baseline=80.0)  # paired, exact, α = 5%
    assert design.paired() == acc.paired_design("manual", delta=0.02, agreement=0.9, baseline=0.8)
    result = acc.mcnemar_power(500, 0.02, 0.9)
    assert design.power() == result
    mde = acc.mcnemar_mde(500, agreement=0.9)
    sizes = acc.mcnemar_sample_sizes(0.02, 0.9)
    item = accuracy_plan.plan_item(design, result, mde=mde, sizes=sizes)
    values = _values(item)
    assert values["power"] == f"{100 * result.power:.1f}%" == "24.9%"  # appendix C: ≈ 0.25
    assert values["Type-M"] == f"{result.type_m:.2f}×"
    assert abs(result.type_m - 1.9) < 0.05  # appendix C: ≈ 1.9
    assert values["MDE at 80% power"] == f"{100 * mde:.2f} pts"
    assert values["n for 80% power (first)"] == f"{sizes.first:,}"
    assert f"n = {sizes.first:,}" in item.paragraph
    assert "With 500 test items, an expected gain of 2 points and 90% agreement, an exact McNemar test" in item.paragraph
    assert f"overstate the gain by {result.type_m:.2f}×" in item.paragraph
    assert item.scenario == "Accuracy (paired (McNemar))" and item.test == "an exact McNemar test"
    assert {a.name: a.source for a in item.assumptions}["agreement P_a"] == "slider"


def test_paired_plan_names_a_prior_source_and_passes_sources_through():
    page = acc.AccuracyPageDesign(n=800, delta=1.0, baseline=90.0, source="glue")
    design = page.paired()
    assert design == acc.paired_design("glue", delta=0.01, baseline=0.9)
    result = acc.mcnemar_power(800, 0.01, design.agreement)
    item = accuracy_plan.plan_item(page, result, sources={"n": "fitted from my_results.csv"})
    sources = {a.name: a.source for a in item.assumptions}
    assert sources["test-set size n"] == "fitted from my_results.csv"
    assert sources["expected accuracy difference Δ"] == "slider"  # the default
    assert sources["agreement P_a"] == "GLUE regression (Card et al. 2020, appendix E.2.1, Tables 5–6)"
    assert {a.name: a.value for a in item.assumptions}["agreement P_a"] == f"{design.agreement:.1%}"


def test_unpaired_plan_against_the_z_test():
    page = acc.AccuracyPageDesign(scenario="unpaired", n=700, baseline=80.0, delta=3.0, target_power=0.9)
    design = page.unpaired()
    assert design == acc.UnpairedDesign(0.8, 0.03)
    result = design.power(700)
    assert result == acc.unpaired_power(700, 0.8, 0.03)
    sizes = design.sample_sizes(target_power=0.9)
    item = accuracy_plan.plan_item(page, result, mde=design.mde(700), sizes=sizes)
    assert _values(item)["power"] == f"{100 * result.power:.1f}%"
    assert item.test == "a two-proportion z test"
    assert f"Reaching 90% power takes n = {sizes.first:,}" in item.paragraph
    assert "over 80.0%" in item.paragraph


def test_preference_plan_against_the_sign_test_and_reports_ties():
    page = acc.AccuracyPageDesign(scenario="preference", n=90, p_new=60.0, tie_rate=10.0, ties="split")
    design = page.preference()
    assert design == acc.PreferenceDesign(0.6, 0.3, ties="split")
    result = design.power(90)
    assert result == acc.preference_power(90, 0.6, 0.3, ties="split")
    item = accuracy_plan.plan_item(page, result, mde=design.mde(90))
    assert _values(item)["power"] == f"{100 * result.power:.1f}%"
    assert {a.name: a.value for a in item.assumptions}["ties"] == "10.0% (split by a coin)"
    assert "overstate the gap" in item.paragraph and item.test == "an exact sign test"


def test_assurance_cost_and_unreachable_values():
    design = acc.AccuracyPageDesign(n=800, delta=2.0, agreement=90.0, baseline=80.0)
    result = acc.mcnemar_power(800, 0.02, 0.9)
    assured = acc.mcnemar_assurance(800, 0.02, 0.01, 0.9)
    item = accuracy_plan.plan_item(design, result, mde=math.inf,
                                   sizes=acc.mcnemar_sample_sizes(0.02, 0.9), assurance=assured,
                                   prior=(2.0, 1.0, "set on the page"), cost=400.0, cost_per_unit=0.5,
                                   currency="EUR")
    values = _values(item)
    assert values["assurance"] == f"{100 * assured.assurance:.1f}%"
    assert values["assurance ceiling"] == f"{100 * assured.ceiling:.1f}%"
    assert values["MDE at 80% power"] == "not reachable"
    assert f"the assurance is {100 * assured.assurance:.0f}%" in item.paragraph
    assert {a.name: a.value for a in item.assumptions}["cost per unit"] == "EUR 0.50"
    assert item.cost == 400.0
    html = plan_html([item])
    assert "EUR 400.00" in html and "Accuracy (paired (McNemar))" in html


def test_bad_designs_are_refused():
    with pytest.raises(ValueError, match="`design`"):
        accuracy_plan.plan_item(object(), acc.mcnemar_power(10, 0.0, 0.9))
    with pytest.raises(ValueError, match="`design`"):  # the engine's design: the plan reads n, α, target from the page's
        accuracy_plan.plan_item(acc.paired_design("manual", delta=0.0, agreement=0.9), acc.mcnemar_power(10, 0.0, 0.9))
    with pytest.raises(ValueError, match="`delta`"):
        acc.UnpairedDesign(0.99, 0.05)
    with pytest.raises(ValueError, match="`p_new`"):
        acc.PreferenceDesign(0.7, 0.5)
    with pytest.raises(ValueError, match="`ties`"):
        acc.PreferenceDesign(0.6, 0.3, ties="half")


def test_designs_are_cache_keys_by_value():
    """st.cache_data hashes a frozen dataclass by its fields: equal designs share an entry, different ones not."""
    from streamlit.runtime.caching.hashing import update_hash
    import hashlib

    def key(obj):
        h = hashlib.new("md5")
        update_hash(obj, h, cache_type=None)
        return h.hexdigest()

    assert key(acc.UnpairedDesign(0.8, 0.02)) == key(acc.UnpairedDesign(0.8, 0.02))
    assert key(acc.UnpairedDesign(0.8, 0.02)) != key(acc.UnpairedDesign(0.8, 0.03))
    assert key(acc.PreferenceDesign(0.6, 0.3)) != key(acc.PreferenceDesign(0.6, 0.3, ties="split"))


def test_noninferiority_plan_against_the_engines():
    """Nam (1997) / Tango (1998) score test: the plan quotes the engine's power, size and sample size."""
    page = acc.AccuracyPageDesign(n=2000, delta=0.0, agreement=90.0, margin=1.0)  # "no worse than", score, α 2.5%
    d = page.noninferiority()
    assert d == acc.NonInferiorityDesign("ni", 0.0, 0.9, 0.01)
    result, size, sizes = d.power(2000), d.power(2000, delta=-0.01), d.sample_sizes()
    assert result == acc.noninferiority_power(2000, 0.0, 0.9, 0.01) == page.noninferiority_power()
    assert size.power <= 0.025 + 0.01  # the score test's size stays near α at the margin
    item = accuracy_plan.noninferiority_plan_item(page, result, size=size, sizes=sizes)
    assert {a.name: a.source for a in item.assumptions}["agreement P_a"] == "my estimate"
    values = dict(item.results)
    assert values["power"] == f"{100 * result.power:.1f}%"
    assert values["false claim rate at the margin"] == f"{100 * size.power:.2f}%"
    assert values["n for 80% power"] == f"{sizes.first:,}"
    assert "no worse than the baseline by more than 1 points, we test H0: Δ ≤ −1 pts with the score test" in \
        item.paragraph
    eq_page = acc.AccuracyPageDesign(n=3000, delta=0.0, agreement=90.0, claim="eq", margin=0.7, ni_alpha=0.05,
                                     ni_test="wald", source="manual")
    eq = eq_page.noninferiority()
    assert eq == acc.NonInferiorityDesign("eq", 0.0, 0.9, 0.007, alpha=0.05, test="wald")
    eq_item = accuracy_plan.noninferiority_plan_item(eq_page, eq.power(3000))
    assert "With 3,000 paired test items" in eq_item.paragraph
    assert eq.power(3000) == acc.equivalence_power(3000, 0.0, 0.9, 0.007, alpha=0.05, test="wald")
    assert "and H0: Δ ≥ 0.7 pts (TOST) with a Wald test" in eq_item.paragraph
    with pytest.raises(ValueError, match="`claim`"):
        acc.NonInferiorityDesign("better", 0.0, 0.9, 0.01)
    with pytest.raises(ValueError, match="`design`"):  # the engine's claim: n and the target are the page's
        accuracy_plan.noninferiority_plan_item(d, result)


def test_plan_reads_n_alpha_target_and_test_from_the_page_design():
    """The page's design holds n, α, the target power and the McNemar variant: the plan states them."""
    design = acc.AccuracyPageDesign(n=600, delta=2.0, agreement=90.0, test="midp", alpha=0.01, target_power=0.9)
    result = acc.mcnemar_power(600, 0.02, 0.9, alpha=0.01, test="midp")
    assert design.power() == result
    item = accuracy_plan.plan_item(design, result, mde=design.mde())
    assert item.test == "a mid-p McNemar test" and item.alpha == 0.01
    assert "With 600 test items" in item.paragraph and "at α = 0.01 has" in item.paragraph
    assert "MDE at 90% power" in dict(item.results)
    assert {a.name: a.value for a in item.assumptions}["test-set size n"] == "600"

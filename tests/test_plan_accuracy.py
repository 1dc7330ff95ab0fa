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
    design = acc.paired_design("manual", delta=0.02, agreement=0.9, baseline=0.8)
    result = acc.mcnemar_power(500, 0.02, 0.9)
    mde = acc.mcnemar_mde(500, agreement=0.9)
    sizes = acc.mcnemar_sample_sizes(0.02, 0.9)
    item = accuracy_plan.plan_item(design, result, n=500, alpha=0.05, target_power=0.8, mde=mde, sizes=sizes)
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
    design = acc.paired_design("glue", delta=0.01, baseline=0.9)
    result = acc.mcnemar_power(800, 0.01, design.agreement)
    item = accuracy_plan.plan_item(design, result, n=800, alpha=0.05, target_power=0.8,
                                   sources={"n": "fitted from my_results.csv"})
    sources = {a.name: a.source for a in item.assumptions}
    assert sources["test-set size n"] == "fitted from my_results.csv"
    assert sources["expected accuracy difference Δ"] == "slider"  # the default
    assert sources["agreement P_a"] == "GLUE regression (Card et al. 2020, appendix E.2.1, Tables 5–6)"
    assert {a.name: a.value for a in item.assumptions}["agreement P_a"] == f"{design.agreement:.1%}"


def test_unpaired_plan_against_the_z_test():
    design = acc.UnpairedDesign(0.8, 0.03)
    result = design.power(700)
    assert result == acc.unpaired_power(700, 0.8, 0.03)
    sizes = design.sample_sizes(target_power=0.9)
    item = accuracy_plan.plan_item(design, result, n=700, alpha=0.05, target_power=0.9, mde=design.mde(700),
                                   sizes=sizes)
    assert _values(item)["power"] == f"{100 * result.power:.1f}%"
    assert item.test == "a two-proportion z test"
    assert f"Reaching 90% power takes n = {sizes.first:,}" in item.paragraph
    assert "over 80.0%" in item.paragraph


def test_preference_plan_against_the_sign_test_and_reports_ties():
    design = acc.PreferenceDesign(0.6, 0.3, ties="split")
    result = design.power(90)
    assert result == acc.preference_power(90, 0.6, 0.3, ties="split")
    item = accuracy_plan.plan_item(design, result, n=90, alpha=0.05, target_power=0.8, mde=design.mde(90))
    assert _values(item)["power"] == f"{100 * result.power:.1f}%"
    assert {a.name: a.value for a in item.assumptions}["ties"] == "10.0% (split by a coin)"
    assert "overstate the gap" in item.paragraph and item.test == "an exact sign test"


def test_assurance_cost_and_unreachable_values():
    design = acc.paired_design("manual", delta=0.02, agreement=0.9, baseline=0.8)
    result = acc.mcnemar_power(800, 0.02, 0.9)
    assured = acc.mcnemar_assurance(800, 0.02, 0.01, 0.9)
    item = accuracy_plan.plan_item(design, result, n=800, alpha=0.05, target_power=0.8, mde=math.inf,
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
        accuracy_plan.plan_item(object(), acc.mcnemar_power(10, 0.0, 0.9), n=10, alpha=0.05, target_power=0.8)
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
    d = acc.NonInferiorityDesign("ni", 0.0, 0.9, 0.01)
    result, size, sizes = d.power(2000), d.power(2000, delta=-0.01), d.sample_sizes()
    assert result == acc.noninferiority_power(2000, 0.0, 0.9, 0.01)
    assert size.power <= 0.025 + 0.01  # the score test's size stays near α at the margin
    item = accuracy_plan.noninferiority_plan_item(d, result, n=2000, target_power=0.8, size=size, sizes=sizes,
                                                  agreement_source="my estimate")
    values = dict(item.results)
    assert values["power"] == f"{100 * result.power:.1f}%"
    assert values["false claim rate at the margin"] == f"{100 * size.power:.2f}%"
    assert values["n for 80% power"] == f"{sizes.first:,}"
    assert "no worse than the baseline by more than 1 points, we test H0: Δ ≤ −1 pts with the score test" in \
        item.paragraph
    eq = acc.NonInferiorityDesign("eq", 0.0, 0.9, 0.007, alpha=0.05, test="wald")
    eq_item = accuracy_plan.noninferiority_plan_item(eq, eq.power(3000), n=3000, target_power=0.8)
    assert eq.power(3000) == acc.equivalence_power(3000, 0.0, 0.9, 0.007, alpha=0.05, test="wald")
    assert "and H0: Δ ≥ 0.7 pts (TOST) with a Wald test" in eq_item.paragraph
    with pytest.raises(ValueError, match="`claim`"):
        acc.NonInferiorityDesign("better", 0.0, 0.9, 0.01)

"""core.sequential.plan and core.sequential.CampaignDesign: the DA page's plan, checked against the engines.

Oracles: core.sequential's keyword API (the recursion is tested against simulation and Wei et al. 2022 §7.2)
and the fixed design's false-positive rate, which must not exceed α.
"""

from __future__ import annotations

import hashlib
import math

import pytest
from streamlit.runtime.caching.hashing import update_hash

from core import sequential as sq
from core.plan import plan_html
from core.sequential import plan as sequential_plan


def test_design_is_the_keyword_api():
    d = sq.CampaignDesign("interim_futility", 3.0, peeks=4, boundary="obrien_fleming", futility_p=0.4)
    assert d.power(1200) == sq.campaign_power("interim_futility", 1200, 3.0, peeks=4, boundary="obrien_fleming",
                                               futility_p=0.4)
    assert d.mde(1200) == sq.campaign_mde("interim_futility", 1200, peeks=4, boundary="obrien_fleming",
                                          futility_p=0.4)
    assert d.assurance(1200, 1.0) == sq.campaign_assurance("interim_futility", 1200, 3.0, 1.0, peeks=4,
                                                           boundary="obrien_fleming", futility_p=0.4)


def test_plan_states_the_engines_numbers():
    d = sq.CampaignDesign("interim_futility", 2.0, budget=3600)
    result, mde = d.power(), d.mde()
    assured = d.assurance(3600, 1.0)
    assert result == sq.campaign_power("interim_futility", 3600, 2.0)  # the design's budget
    item = sequential_plan.plan_item(d, result, target_power=0.8, mde=mde, futility_saving=0.18,
                                     assurance=assured, prior=(2.0, 1.0, "set on the page"),
                                     cost=0.3 * result.expected_judgments, cost_per_unit=0.3, currency="EUR")
    values = dict(item.results)
    assert values["power"] == f"{100 * result.power:.1f}%"
    assert values["false-positive rate"] == f"{100 * result.false_positive_rate:.2f}%"
    assert values["expected judgments"] == f"{result.expected_judgments:,.0f}"
    assert values["Type-M at stopping (difference of means)"] == f"{result.type_m:.2f}×"
    assert values["MDE at 80% power"] == f"{mde:.2f} pts"
    assert values["judgments saved by interim-futility (population)"] == "18%"
    assert values["assurance"] == f"{100 * assured.assurance:.1f}%"
    assert values["expected cost"] == f"EUR {0.3 * result.expected_judgments:,.2f}"
    assert "3 equally spaced analyses with pocock boundaries and non-binding futility stopping at p > 0.5" in \
        item.paragraph
    assert item.test == "Mann–Whitney U, interim-futility design"
    assert "Direct Assessment campaign" in plan_html([item])


def test_fixed_design_keeps_alpha_and_unreachable_mde():
    d = sq.CampaignDesign("fixed", 0.5, test="t", budget=200)
    result = d.power()
    assert result.false_positive_rate <= 0.05 + 1e-6
    item = sequential_plan.plan_item(d, result, target_power=0.8, mde=math.nan)
    assert {a.name: a.value for a in item.assumptions}["planned judgments"] == "200"
    assert dict(item.results)["MDE at 80% power"] == "not reachable"
    assert "a single t test after all judgments" in item.paragraph
    assert {a.name: a.value for a in item.assumptions}["design"] == "fixed"


def test_bad_input():
    # the design names its fields (procedure, looks); the engine's keywords stay design=, peeks=
    with pytest.raises(ValueError, match="`procedure`"):
        sq.CampaignDesign("sometimes", 1.0)
    with pytest.raises(ValueError, match="`looks`"):
        sq.CampaignDesign("interim", 1.0, peeks=11)
    with pytest.raises(ValueError, match="`delta`"):
        sq.CampaignDesign("interim", 60.0)
    with pytest.raises(ValueError, match="`design`"):
        sequential_plan.plan_item("interim", None, target_power=0.8)


def test_design_is_a_cache_key_by_value():
    def key(obj):
        h = hashlib.new("md5")
        update_hash(obj, h, cache_type=None)
        return h.hexdigest()

    assert key(sq.CampaignDesign("interim", 2.0)) == key(sq.CampaignDesign("interim", 2.0))
    assert key(sq.CampaignDesign("interim", 2.0)) != key(sq.CampaignDesign("interim", 2.0, peeks=4))


def test_judgments_for_the_target_and_the_fits_source():
    d = sq.CampaignDesign("interim_futility", 2.0)
    found = {}
    for procedure in ("fixed", "interim", "interim_futility"):
        size = sq.campaign_sample_size(procedure, 2.0)
        found[procedure] = (size, sq.campaign_power(procedure, size.first, 2.0).expected_judgments)
    source = "fitted from wmt23.tsv: A vs B"
    item = sequential_plan.plan_item(d, d.power(), target_power=0.8, sample_sizes=found,
                                     sources={"mean": source, "sd": source, "delta": source},
                                     fitted="wmt23.tsv: A vs B")
    results = dict(item.results)
    fixed, futile = found["fixed"][0].first, found["interim_futility"]
    assert results["judgments for 80% power (fixed)"] == f"{fixed:,} planned, {fixed:,.0f} expected"
    saving = 100 * (1 - futile[1] / fixed)
    assert results["judgments for 80% power (interim-futility)"] == (
        f"{futile[0].first:,} planned, {futile[1]:,.0f} expected ({saving:.0f}% saved vs fixed)")
    sources = {a.name: a.source for a in item.assumptions}
    assert sources["mean DA score / judgment SD"] == source and sources["true difference"] == source
    assert sources["last year's judgments"] == "uploaded on the page"
    assert f"takes {fixed:,} judgments with the fixed design" in item.paragraph and source in item.paragraph

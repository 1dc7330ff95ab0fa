"""core.ratings.RatingsDesign and core.ratings.plan: the Ratings page's plan, checked against the engines.

Oracles: core.ratings's keyword API (the analytic engine is tested against simulation and Card et al. 2020
Figure 6) and Table 16's presets.
"""

from __future__ import annotations

import hashlib

import pytest
from streamlit.runtime.caching.hashing import update_hash

from core import ratings as rt
from core.plan import plan_html
from core.ratings import plan as ratings_plan

HIGH = rt.PRESETS["high"]  # Card et al. (2020), Table 16


def test_design_is_the_keyword_api():
    d = rt.RatingsDesign(10, 100, 0.1, **HIGH)
    assert d.power(method="analytic") == rt.likert_power(10, 100, 0.1, **HIGH, rule="satterthwaite",
                                                         method="analytic")
    assert d.mde() == rt.likert_mde(10, 100, **HIGH)
    assert d.assurance(0.03) == rt.likert_assurance(10, 100, 0.1, 0.03, **HIGH)
    crowd = rt.RatingsDesign(30, 200, 0.1, **HIGH, layout="crowd", per_item=3)
    assert crowd.n_ratings == 2 * 3 * 200
    assert crowd.assurance(0.0) == rt.crowd_assurance(30, 200, 3, 0.1, 0.0, **HIGH)


def test_plan_states_the_analytic_numbers():
    d = rt.RatingsDesign(20, 300, 0.05, **HIGH)
    result, mde = d.power(method="analytic"), d.mde(target_power=0.9)
    assured = d.assurance(0.02)
    item = ratings_plan.plan_item(d, result, target_power=0.9, mde=mde, assurance=assured,
                                  prior=(0.05, 0.02, "set on the page"),
                                  costs=rt.RatingsCostDesign(cost_per_rating=0.2, cost_per_worker=5.0), currency="USD",
                                  sources={"sigma_w1": "preset “Table 16: high variance” (Card et al. 2020)"})
    values = dict(item.results)
    assert values["power"] == f"{100 * result.power:.1f}%" and values["Type-M"] == f"{result.type_m:.2f}×"
    assert values["MDE at 90% power (β1, crossed, analytic)"] == f"{mde:.3f}"
    assert values["assurance"] == f"{100 * assured.assurance:.1f}%" and values["ratings"] == "12,000"
    assert "20 workers each rating all 300 items under both systems (12,000 ratings)" in item.paragraph
    assert "a difference of 0.100 in mean rating (β1 = 0.05)" in item.paragraph
    sources = {a.name: a.source for a in item.assumptions}
    assert sources["Worker slope SD σ_w1"].startswith("preset") and sources["Residual SD σ"] == "slider"
    assert {a.name: a.value for a in item.assumptions}["fixed cost per worker"] == "USD 5.00"
    assert item.cost == 12_000 * 0.2 + 20 * 5  # ratings × cost per rating + workers × cost per worker
    assert item.alpha == 0.05 and "Human ratings (Likert)" in plan_html([item])


def test_simulated_designs_point_to_the_page():
    d = rt.RatingsDesign(30, 100, 0.1, **HIGH, layout="crowd", per_item=3, rule="paper", likert=5)
    item = ratings_plan.plan_item(d, None, target_power=0.8)
    values = dict(item.results)
    assert values["power (see the page's simulation)"] == "—" and values["Type-M"] == "—"
    assert "with the power shown by the simulation on the page" in item.paragraph
    assert "drawn from a pool of 30" in item.paragraph
    assert {a.name: a.value for a in item.assumptions}["rating scale"] == "5-point Likert (simulated rounding)"
    assert item.test.startswith("paper: ML fit, t > 1.96")


def test_bad_input():
    with pytest.raises(ValueError, match="`layout`"):
        rt.RatingsDesign(3, 100, 0.1, **HIGH, layout="pairs")
    with pytest.raises(ValueError, match="`per_item`"):
        rt.RatingsDesign(3, 100, 0.1, **HIGH, layout="crowd", per_item=5)
    with pytest.raises(ValueError, match="`effect`"):
        rt.RatingsDesign(3, 100, 0.9, **HIGH)
    with pytest.raises(ValueError, match="`design`"):
        ratings_plan.plan_item(None, None, target_power=0.8)


def test_design_is_a_cache_key_by_value():
    def key(obj):
        h = hashlib.new("md5")
        update_hash(obj, h, cache_type=None)
        return h.hexdigest()

    assert key(rt.RatingsDesign(3, 100, 0.1, **HIGH)) == key(rt.RatingsDesign(3, 100, 0.1, **HIGH))
    assert key(rt.RatingsDesign(3, 100, 0.1, **HIGH)) != key(rt.RatingsDesign(4, 100, 0.1, **HIGH))

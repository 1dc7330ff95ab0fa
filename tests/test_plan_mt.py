"""core.mt.plan and core.mt.BleuDesign: the MT page's plan, checked against the engines.

Oracles: core.mt's keyword API (tested against the randomization engine) and Card et al. (2020) §4 /
Figure 4: n = 2,000, Δ_B = 1, P0 = 0.13, b0 = 25.8 → power ≈ 75%.
"""

from __future__ import annotations

import hashlib

import pytest
from streamlit.runtime.caching.hashing import update_hash

from core import mt
from core.mt import plan as mt_plan
from core.plan import plan_html
from core.sizing import SampleSize


def test_design_is_the_keyword_api():
    d = mt.BleuDesign(1.0, 0.13, 25.8)
    assert d.power(2000) == mt.bleu_power(2000, 1.0, 0.13, 25.8)
    assert d.mde(2000) == mt.bleu_mde(2000, 0.13, 25.8)
    assert d.sample_size() == mt.bleu_sample_size(1.0, 0.13, 25.8)
    assert d.assurance(2000, 0.5) == mt.bleu_assurance(2000, 1.0, 0.5, 0.13, 25.8)
    assert abs(d.power(2000).power - 0.75) < 0.01  # §4, Figure 4


def test_plan_states_the_engines_numbers_and_the_paper():
    d = mt.BleuDesign(1.0, 0.13, 25.8, n=2000)
    result, first = d.power(), d.sample_size(target_power=0.9)
    item = mt_plan.plan_item(d, result, target_power=0.9, mde=d.mde(target_power=0.9),
                             sizes=SampleSize(first, first), cost=4000.0, cost_per_unit=2.0,
                             cost_needed=2.0 * first, currency="USD",
                             sources={"p0": "preset “WMT19 en-de” (Card et al. 2020, Table 3)"})
    values = dict(item.results)
    assert values["power"] == f"{100 * result.power:.1f}%" and values["Type-M"] == f"{result.type_m:.2f}×"
    assert values["n for 90% power"] == f"{first:,}"
    assert values["cost at n for 90% power"] == f"USD {2.0 * first:,.2f}"
    assert f"Reaching 90% power takes {first:,} sentences." in item.paragraph
    assert "P0 = 0.13 and b0 = 25.8 (Card et al., 2020, §4)" in item.paragraph
    sources = {a.name: a.source for a in item.assumptions}
    assert sources["P0 (share of zero swap effects)"].startswith("preset") and sources["test-set size n"] == "slider"
    assert "Machine translation (BLEU)" in plan_html([item])


def test_assurance_rows_and_a_null_design():
    d = mt.BleuDesign(0.0, 0.13, 25.8, n=2000)
    result = d.power()
    assured = mt.bleu_assurance(2000, 0.5, 0.5, 0.13, 25.8)
    item = mt_plan.plan_item(d, result, target_power=0.8, assurance=assured, prior=(0.5, 0.5, "set"),
                             n_assured=-1)
    values = dict(item.results)
    assert values["assurance"] == f"{100 * assured.assurance:.1f}%" and values["n for 80% assurance"] == "not reachable"
    assert "overstate" not in item.paragraph  # no gain, no exaggeration
    assert result.power <= 0.05 + 1e-9  # the false-positive rate at Δ_B = 0


def test_bad_input():
    with pytest.raises(ValueError, match="`p0`"):
        mt.BleuDesign(1.0, 1.0, 25.8)
    with pytest.raises(ValueError, match="`b0`"):
        mt.BleuDesign(1.0, 0.1, 0.0)
    with pytest.raises(ValueError, match="`design`"):
        mt_plan.plan_item(object(), None, target_power=0.8)


def test_design_is_a_cache_key_by_value():
    def key(obj):
        h = hashlib.new("md5")
        update_hash(obj, h, cache_type=None)
        return h.hexdigest()

    assert key(mt.BleuDesign(1.0, 0.13, 25.8)) == key(mt.BleuDesign(1.0, 0.13, 25.8))
    assert key(mt.BleuDesign(1.0, 0.13, 25.8)) != key(mt.BleuDesign(1.0, 0.13, 25.9))

"""core.analysis.NextEvaluation and core.analysis.plan: the next evaluation, checked against statsmodels.

Oracle: statsmodels' TTestPower (the one-sample t test on the paired differences; NLPStatTest §3.4.1).
"""

from __future__ import annotations

import math

import pytest
from statsmodels.stats.power import TTestPower

from core import analysis as an
from core.analysis import plan as analysis_plan
from core.plan import plan_html


def test_pairs_and_power_against_statsmodels():
    d = an.NextEvaluation(0.0181, 1.1708)
    expected = math.ceil(TTestPower().solve_power(effect_size=0.0181 / 1.1708, alpha=0.05, power=0.8))
    assert d.pairs_needed() == expected == 32_843
    assert d.power(500) == pytest.approx(TTestPower().power(effect_size=0.0181 / 1.1708, nobs=500, alpha=0.05))
    one = an.NextEvaluation(0.02, 0.1, alternative="greater", target_power=0.9, alpha=0.01)
    assert one.pairs_needed() == math.ceil(TTestPower().solve_power(effect_size=0.2, alpha=0.01, power=0.9,
                                                                    alternative="larger"))


def test_plan_item_states_the_numbers_and_escapes_names():
    d = an.NextEvaluation(0.0214, 0.1016)
    item = analysis_plan.plan_item(d, report="Comparison of A and B on n = 300 units.", name_a="base<script>",
                                   name_b="new", n_units=300, sources={"mean": "this data (pilot)"})
    values = dict(item.results)
    assert values["pairs needed for 80% power"] == f"{d.pairs_needed():,}"
    assert values["power with this evaluation's 300 units"] == f"{100 * d.power(300):.1f}%"
    assert item.paragraph.startswith("Comparison of A and B on n = 300 units. For the next evaluation")
    assert {a.name: a.source for a in item.assumptions}["expected mean difference"] == "this data (pilot)"
    html = plan_html([item])
    assert "base&lt;script&gt;" in html and "base<script>" not in html


def test_bad_input():
    with pytest.raises(ValueError, match="`mean_diff`"):
        an.NextEvaluation(0.0, 1.0)
    with pytest.raises(ValueError, match="`sd_diff`"):
        an.NextEvaluation(0.1, 0.0)
    with pytest.raises(ValueError, match="`design`"):
        analysis_plan.plan_item(None, report="", name_a="A", name_b="B", n_units=3)

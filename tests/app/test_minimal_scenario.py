"""Adding a scenario is its design, its page and their tests: a page built from a design alone through the shared
page functions (``pages._scenario``) shows the design's numbers, reads its links and refuses bad ones clearly."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest

from tests.app.minimal_scenario_design import ZDesign

PAGE = Path(__file__).with_name("minimal_scenario_page.py")


def run(query=None) -> AppTest:
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    if query:
        at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


def closed_form_power(delta, n, sd, alpha):
    z = stats.norm.ppf(1 - alpha / 2)
    return stats.norm.cdf(abs(delta) * math.sqrt(n) / sd - z)


def test_widgets_come_from_the_declared_fields():
    at = run()
    keys = {f.key for f in ZDesign.fields()}
    widget_keys = {w.key for w in list(at.number_input) + list(at.radio)}
    assert keys <= widget_keys
    # key inputs in the main area, the rest in the sidebar
    assert {w.key for w in at.main.number_input} == {"zd", "zn"}
    assert {w.key for w in at.sidebar.number_input} | {w.key for w in at.sidebar.radio} == {"zsd", "za"}
    labels = {w.key: w.label for w in at.number_input}
    assert labels["zd"] == "True difference (score units)" and labels["zn"] == "Items"  # the unit once


def test_numbers_are_the_designs_and_the_closed_form():
    at = run()
    m = {x.label: x.value for x in at.metric}
    p = closed_form_power(0.3, 50, 1.0, 0.05)
    assert m["Power at 50 items"] == f"{100 * p:.1f}%"
    n80 = ZDesign().sample_sizes(target_power=0.8).first
    # textbook n = ((z_.975 + z_.8) σ/δ)² = 87.2 → 88 (the other tail adds < 1e-6)
    assert n80 == 88 and m["Items for 80% power"] == "88"
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    names = [t.get("name") for t in spec["data"]]
    assert "current design" in names
    assert any(s.get("y0") == 0.8 for s in spec["layout"].get("shapes", []))


def test_a_link_sets_the_design_and_a_bad_one_is_refused_clearly():
    at = run({"zd": "0.5", "zn": "200", "zsd": "2.0", "za": "0.01"})
    m = {x.label: x.value for x in at.metric}
    assert m["Power at 200 items"] == f"{100 * closed_form_power(0.5, 200, 2.0, 0.01):.1f}%"
    assert ZDesign.from_params(dict(at.query_params)) == ZDesign(delta=0.5, n=200, sd=2.0, alpha=0.01)
    at = run({"zd": "0"})  # no effect: no size, no traceback
    assert {x.label: x.value for x in at.metric}["Items for 80% power"] == "not reachable"


@pytest.mark.parametrize("delta, n", [(0.3, 50), (-0.2, 400), (1.0, 10)])
def test_type_m_against_simulation(delta, n):
    import numpy as np

    d = ZDesign(delta=delta, n=n)
    rng = np.random.default_rng(7)
    s = 1.0 / math.sqrt(n)
    x = rng.normal(delta, s, 400_000)
    sig = np.abs(x) > stats.norm.ppf(0.975) * s
    ratio = np.abs(x[sig]) / abs(delta)
    se = ratio.std(ddof=1) / math.sqrt(sig.sum())
    assert abs(d.power().type_m - ratio.mean()) < 5 * se
    assert abs(d.power().power - np.mean(sig & (np.sign(x) == np.sign(delta)))) < 5 * math.sqrt(0.25 / x.size)

"""core.sequential.monitor_plan: the Monitor page's plan, checked against core.sequential.monitor.

Oracle: the running mean of the differences (numpy) and the engine's confidence sequence, which the plan must
quote; a run whose sequence excludes 0 by the planned margin has stopped (Howard et al. 2021).
"""

from __future__ import annotations

import numpy as np
import pytest

from core import sequential as sq
from core.sequential import monitor_plan
from core.plan import plan_html


def _run(n, shift, seed=1):
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 0.0, 1.0], size=n, p=[0.3 - shift / 2, 0.4, 0.3 + shift / 2])


def test_plan_quotes_the_running_estimate_and_the_sequence():
    x = _run(60, 0.1)
    d = sq.MonitorDesign(target=0.1, n_max=2000, alpha=0.05, sequence="mixture")
    res = d.run(x)
    assert res.sequence.equals(sq.monitor(x, target=0.1, n_max=2000).sequence)  # the engine's sequence
    item = monitor_plan.plan_item(d, res, name_a="baseline", name_b="new <b>model</b>", data="scores.csv")
    values = dict(item.results)
    assert values["items so far"] == "60"
    assert values["running difference"] == f"{x.mean():+.4f}"  # oracle: numpy's mean
    last = res.sequence.iloc[-1]
    assert values["confidence sequence"] == f"[{last['lower']:+.4f}, {last['upper']:+.4f}]"
    assert "95% normal-mixture confidence sequence (Howard et al., 2021)" in item.paragraph
    assert item.question == "Can we stop comparing new <b>model</b> with baseline yet?"
    html = plan_html([item])
    assert "new &lt;b&gt;model&lt;/b&gt;" in html and "<b>model</b>" not in html  # user text is escaped


def test_a_clear_run_stops():
    x = np.ones(400)
    x[::3] = 0.0
    d = sq.MonitorDesign(target=0.05, n_max=2000, alpha=0.05, sequence="mixture")
    res = d.run(x)
    item = monitor_plan.plan_item(d, res, name_a="A", name_b="B", data="example", data_source="built-in example")
    assert res.verdict != "continue" and dict(item.results)["verdict"] == res.message
    assert {a.name: a.source for a in item.assumptions}["data"] == "built-in example"


def test_bad_design_or_result():
    d = sq.MonitorDesign(target=0.1, n_max=100)
    with pytest.raises(ValueError, match="`result`"):
        monitor_plan.plan_item(d, None, name_a="A", name_b="B", data="x")
    with pytest.raises(ValueError, match="`design`"):
        monitor_plan.plan_item(None, d.run(_run(20, 0.1)), name_a="A", name_b="B", data="x")
    # a result of another sequence than the design's is refused, not described with the wrong words
    mixture = d.with_(sequence="mixture", bounds=None).run(_run(20, 0.1))
    with pytest.raises(ValueError, match="`result`"):
        monitor_plan.plan_item(d, mixture, name_a="A", name_b="B", data="x")


def test_plan_states_the_designs_settings():
    x = _run(80, 0.1, seed=2)
    d = sq.MonitorDesign(target=0.03, n_max=5000, alpha=0.01)
    item = monitor_plan.plan_item(d, d.run(x), name_a="A", name_b="B", data="x")
    assumptions = {a.name: a.value for a in item.assumptions}
    assert assumptions["smallest difference that matters"] == "0.03"
    assert assumptions["planned items"] == "5,000"
    assert assumptions["confidence sequence"] == "betting"
    assert item.alpha == 0.01 and "99% betting confidence sequence (Waudby-Smith & Ramdas, 2024)" in item.paragraph


def test_monitor_design_is_the_keyword_api_and_a_cache_key():
    import hashlib

    from streamlit.runtime.caching.hashing import update_hash

    x = _run(200, 0.1, seed=3)
    d = sq.MonitorDesign(0.1, 2000, bounds=(-1, 1), seed=1)
    a, b = d.run(x), sq.monitor(x, target=0.1, n_max=2000, bounds=(-1.0, 1.0), seed=1)
    assert a.verdict == b.verdict and a.sequence.equals(b.sequence)

    def key(obj):
        h = hashlib.new("md5")
        update_hash(obj, h, cache_type=None)
        return h.hexdigest()

    assert key(d) == key(sq.MonitorDesign(0.1, 2000, bounds=(-1.0, 1.0), seed=1))
    assert key(d) != key(sq.MonitorDesign(0.1, 2000, bounds=(-1.0, 1.0), seed=2))
    with pytest.raises(ValueError, match="`target`"):
        sq.MonitorDesign(0.0, 2000)
    with pytest.raises(ValueError, match="`boundary`"):
        sq.MonitorDesign(0.1, 2000, boundary="haybittle")


@pytest.mark.parametrize("alpha, level", [(0.005, "99.5%"), (0.025, "97.5%"), (0.05, "95%"), (0.001, "99.9%")])
def test_plan_states_the_confidence_level_as_written(alpha, level):
    # regression: the level was rounded to whole percent, so α = 0.005 read "a 100% … sequence" and 0.025 "98%"
    x = _run(80, 0.1, seed=4)
    d = sq.MonitorDesign(target=0.1, n_max=2000, alpha=alpha)
    item = monitor_plan.plan_item(d, d.run(x), name_a="A", name_b="B", data="x")
    assert f"item by item with a {level} betting confidence sequence (Waudby-Smith & Ramdas, 2024)" in item.paragraph
    assert monitor_plan.fmt_level(1 - alpha) == level


def test_fmt_level_keeps_every_digit_of_alpha_and_never_reads_100():
    assert [monitor_plan.fmt_level(1 - a) for a in (0.1, 0.01, 0.0125, 0.0001)] == ["90%", "99%", "98.75%", "99.99%"]
    assert monitor_plan.fmt_level(1 - 1e-13) != "100%"
    assert monitor_plan.fmt_level(float("nan")) == "—"

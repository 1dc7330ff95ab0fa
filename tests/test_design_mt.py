"""core.mt.BleuDesign as the MT page's one design: declared fields, links, ranges and methods against the engines."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest

from core import mt

D = mt.BleuDesign
PAGE = (Path(__file__).resolve().parents[1] / "pages" / "mt.py").read_text()


def test_default_design_is_the_papers_example():
    assert D.from_params({}) == D()
    # Card et al. (2020), Figure 4 / appendix G.2: P0 = 0.13, b0 = 25.8, Δ_B = 1, n = 2,000
    assert (D().delta_bleu, D().p0, D().b0, D().alpha, D().n, D().n_trials) == (1.0, 0.13, 25.8, 0.05, 2000, 999)
    assert D(1.0, 0.13, 25.8) == D()  # the positional constructor of earlier code still works


@pytest.mark.parametrize("design", [
    D(2.5, 0.3, 40.0, 0.01, n=5000, n_trials=4999),
    D(-0.35, 0.0, 5.0, 0.1, n=100),
    D(0.0, 0.9, 100.0, 0.001, n=20000, n_trials=199),
    D(1 / 3, 0.123456789, 25.81, 0.5, n=2),
])
def test_round_trip(design):
    params = design.to_params()
    assert set(params) == {"delta", "p0", "b0", "alpha", "n", "trials"}
    assert D.from_params(params) == design


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = D.from_params({"delta": "lots", "p0": "1.0", "n": "1e308", "b0": "30", "trials": "50"}, messages=notes)
    assert d == D(b0=30.0)
    assert len(notes) == 4
    assert notes[0].startswith("`delta_bleu` must be a number")
    assert "`p0`" in notes[1] and "`n`" in notes[2] and "`n_trials`" in notes[3]
    assert all(n.endswith("is used.") for n in notes)


def test_every_field_has_a_unit_and_the_pages_url_key():
    keys = {f.name: f.key for f in D.fields()}
    assert keys == {"delta_bleu": "delta", "p0": "p0", "b0": "b0", "alpha": "alpha", "n": "n", "n_trials": "trials"}
    assert all(isinstance(f.unit, str) and f.label and f.help for f in D.fields())
    assert D.field("delta_bleu").unit == "BLEU" and D.field("n").unit == "sentences"
    # the page builds these widgets from the fields (their keys are the fields'); α and target come from
    # the shared decision controls under the same key
    for name in ("n", "delta_bleu", "p0", "b0", "n_trials"):
        assert re.search(rf'field_input\(Design, "{name}"', PAGE), name
    # the widgets' ends are the page's sliders'
    assert (D.field("delta_bleu").widget_low, D.field("delta_bleu").widget_high) == (-10.0, 10.0)
    assert (D.field("p0").widget_low, D.field("p0").widget_high) == (0.0, 0.9)
    assert (D.field("b0").widget_low, D.field("b0").widget_high) == (5.0, 100.0)


@pytest.mark.parametrize("name, outside", [
    ("delta_bleu", 100.01), ("delta_bleu", -100.01), ("p0", 1.0), ("p0", -0.01), ("b0", 0.0), ("b0", 10_000.5),
    ("alpha", 0.0), ("alpha", 0.51), ("n", 1), ("n", 1_000_001), ("n_trials", 98), ("n_trials", 100_001),
])
def test_a_value_just_outside_the_range_is_refused_by_name(name, outside):
    with pytest.raises(ValueError, match=f"`{name}`"):
        D().with_(**{name: outside})


def test_the_extremes_inside_are_accepted_by_the_engine():
    for delta, p0, b0, alpha, n in [(100.0, 0.0, 1e-3, 0.5, 2), (-100.0, 0.999, 10_000.0, 1e-6, 1_000_000)]:
        d = D(delta, p0, b0, alpha, n=n)
        res = d.power()
        assert 0.0 <= res.power <= 1.0
        assert res == mt.bleu_power(n, delta, p0, b0, alpha=alpha)
    # the engine refuses what the design refuses
    for args in [(2, 100.01, 0.1, 25.8), (2, 1.0, 1.0, 25.8), (2, 1.0, 0.1, 0.0), (1, 1.0, 0.1, 25.8)]:
        with pytest.raises(ValueError):
            mt.bleu_power(*args)


def test_methods_agree_with_the_engines():
    d = D(1.5, 0.2, 30.0, 0.01, n=3000, n_trials=499)
    assert d.power() == mt.bleu_power(3000, 1.5, 0.2, 30.0, alpha=0.01)
    assert d.power(800) == mt.bleu_power(800, 1.5, 0.2, 30.0, alpha=0.01)
    assert d.mde(target_power=0.9) == mt.bleu_mde(3000, 0.2, 30.0, target_power=0.9, alpha=0.01)
    first = mt.bleu_sample_size(1.5, 0.2, 30.0, target_power=0.9, alpha=0.01)
    assert d.sample_size(target_power=0.9) == first
    assert d.sample_sizes(0.9).first == first == d.sample_sizes(0.9).conservative
    assert d.assurance(1000, 0.5) == mt.bleu_assurance(1000, 1.5, 0.5, 0.2, 30.0, alpha=0.01)
    assert d.assurance(1000, 0.5, delta_mean=-1.0) == mt.bleu_assurance(1000, -1.0, 0.5, 0.2, 30.0, alpha=0.01)
    pd.testing.assert_frame_equal(d.curves([100, 2000], [0.5, 1.5], p0s=[0.0, 0.2]),
                                  mt.power_grid([100, 2000], [0.5, 1.5], [0.0, 0.2], [30.0], alpha=0.01))
    # Card et al. (2020) §4: ≈ 75% power at n = 2,000 for the default design; the sample size of the docstring
    assert round(D().power().power, 2) == 0.75 and D().sample_size() == 2276


def test_randomization_uses_the_designs_trials():
    d = D(1.0, 0.13, 25.8, n=200, n_trials=199)
    sim = d.power(method="randomization", n_sims=100, seed=3)
    assert sim == mt.bleu_power(200, 1.0, 0.13, 25.8, method="randomization", n_sims=100, n_trials=199, seed=3)
    assert d.power(method="randomization", n_sims=100, seed=3, n_trials=499) == mt.bleu_power(
        200, 1.0, 0.13, 25.8, method="randomization", n_sims=100, n_trials=499, seed=3)  # an explicit count wins
    assert math.isfinite(sim.mc_se) and sim.mc_se > 0


def test_designs_are_cache_keys():
    assert hash(D()) == hash(D.from_params(D().to_params()))
    assert D() != D().with_(n_trials=499) and D() != D().with_(n=2010)

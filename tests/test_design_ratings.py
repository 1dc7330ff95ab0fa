"""core.ratings.RatingsDesign as a core.design.Design: declared fields, links and pins, ranges that agree with
the engines, and methods that agree with the engine functions they delegate to."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from core import ratings as rt
from core.design import Design

HIGH = rt.PRESETS["high"]
D = rt.RatingsDesign

# the Ratings page's widget keys (links in the tests and the README use them)
PAGE_KEYS = {"workers", "items", "effect", "sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma", "layout",
             "per_item", "baseline", "alpha", "rule", "likert", "preset"}


def test_default_design_is_the_pages_default():
    assert issubclass(D, Design)
    assert D.from_params({}) == D()
    # 3 workers, 100 items, β1 = 0.1, Table 16's high variance (Card et al. 2020), REML + Satterthwaite
    assert D() == D(3, 100, 0.1, **HIGH, layout="crossed", per_item=None, baseline=0.5, alpha=0.05,
                    rule="satterthwaite", likert=None, preset="high")
    assert D().sigmas == HIGH and D().analytic and D().n_ratings == 600
    # the home page's teaser states the page's default power (15.9%: core.ratings.teaser doctest)
    assert round(D().power(method="analytic").power, 3) == 0.159


def test_positional_construction_keeps_working():
    d = D(10, 200, 0.05, 0.0, 0.1, 0.02, 0.1, 0.2, "crowd", 4, 0.6, 0.01, "paper", 5)
    assert (d.workers, d.items, d.effect, d.layout, d.per_item, d.baseline, d.alpha, d.rule, d.likert) == (
        10, 200, 0.05, "crowd", 4, 0.6, 0.01, "paper", 5)
    assert d.sigmas == {"sigma_w0": 0.0, "sigma_w1": 0.1, "sigma_i0": 0.02, "sigma_i1": 0.1, "sigma": 0.2}


def test_every_field_has_a_unit_label_and_the_pages_key():
    fields = D.fields()
    assert {f.key for f in fields} == PAGE_KEYS
    for f in fields:
        assert isinstance(f.unit, str) and f.label and f.help, f.name
        if f.kind in ("int", "float"):
            assert f.step is not None and f.step > 0, f.name
    assert D.field("workers").unit == "workers" and D.field("items").unit == "items"
    assert D.field("per_item").optional and D.field("likert").optional


@pytest.mark.parametrize("design", [
    D(),
    D(20, 500, 0.05, **rt.PRESETS["low"], layout="crowd", per_item=5, alpha=0.01, preset="low"),
    D(10, 50, 0.0, **HIGH, rule="paper", likert=5, baseline=0.7),
    D(2, 2, -0.5, sigma_w0=0.0, sigma_w1=2.0, sigma_i0=0.0, sigma_i1=0.0, sigma=1 / 3, alpha=0.5, likert=1001,
      preset="WMT19"),
])
def test_round_trip(design):
    params = design.to_params()
    assert set(params) == PAGE_KEYS and all(isinstance(v, str) for v in params.values())
    assert D.from_params(params) == design


def test_links_as_the_page_writes_them():
    # the page's radios and select box write their labels into the URL
    link = {"layout": "k workers per item", "workers": "20", "per_item": "5", "rule": "paper: ML fit, t > 1.96",
            "likert": "5-point", "preset": "Table 16: low variance", "items": "50", "view": "Type-M"}
    d = D.from_params(link)
    assert d == D(20, 50, 0.1, **HIGH, layout="crowd", per_item=5, rule="paper", likert=5, preset="low")
    assert D.from_params({"likert": "continuous", "rule": "REML + Satterthwaite t"}) == D()
    assert D().to_params()["likert"] == "continuous"  # the page's option, not "none"
    # a pin holds the widgets' session values (option values, numbers as text)
    pin = {"layout": "crowd", "workers": "30", "per_item": "3", "items": "200", "effect": "0.1", "alpha": "0.05",
           **{k: str(v) for k, v in HIGH.items()}}
    assert D.from_params(pin) == D(30, 200, 0.1, **HIGH, layout="crowd", per_item=3)


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = D.from_params({"workers": "many", "items": "1", "effect": "0.9", "sigma": "0", "layout": "pairs",
                       "alpha": "nan", "likert": "1"}, messages=notes)
    assert d == D()
    assert len(notes) == 7
    for name, note in zip(("workers", "items", "effect", "sigma", "layout", "alpha", "likert"), notes):
        assert note.startswith(f"`{name}`") and "the default" in note, note
    # a pool smaller than k: k falls back (to min(3, W), the page's default)
    notes = []
    assert D.from_params({"workers": "4", "layout": "crowd", "per_item": "9"}, messages=notes) == D(
        4, layout="crowd", per_item=3)
    assert "`per_item` must be between 2 and 4" in notes[0]


# value just outside the design's range, the extreme inside, and the engine call that must accept the extreme
OUTSIDE = [("workers", 1, 2), ("workers", 10_001, 10_000), ("items", 1, 2), ("items", 100_001, 100_000),
           ("effect", -0.501, -0.5), ("effect", 0.501, 0.5), ("sigma_w1", -0.001, 0.0), ("sigma_w1", 2.001, 2.0),
           ("sigma", 0.0, 2.0), ("baseline", -0.01, 0.0), ("baseline", 1.01, 1.0), ("alpha", 0.0, 0.5),
           ("alpha", 0.501, 0.5)]


@pytest.mark.parametrize("name, outside, inside", OUTSIDE)
def test_ranges_agree_with_the_engine(name, outside, inside):
    with pytest.raises(ValueError, match=f"`{name}`"):
        D().with_(**{name: outside})
    with pytest.raises(ValueError, match=f"`{name}`"):  # the engine refuses it too: no drift either way
        rt.likert_power(**_engine_args(D(), **{name: outside}), rule="satterthwaite", method="analytic")
    res = rt.likert_power(**_engine_args(D().with_(**{name: inside})), rule="satterthwaite", method="analytic")
    assert 0.0 <= res.power <= 1.0


def _engine_args(d, **override):
    args = dict(workers=d.workers, items=d.items, effect=d.effect, **d.sigmas, baseline=d.baseline, alpha=d.alpha)
    args.update(override)
    return args


def test_likert_and_per_item_ranges_agree_with_the_simulating_engines():
    for bad in (1, 1002):
        with pytest.raises(ValueError, match="`likert`"):
            D(likert=bad)
        with pytest.raises(ValueError, match="`likert`"):
            rt.likert_power(3, 10, 0.1, **HIGH, likert=bad, n_sims=50, seed=1)
    for k in (2, 1001):
        assert 0 <= D(3, 10, likert=k).power(n_sims=50, seed=1).power <= 1
    with pytest.raises(ValueError, match="`per_item`"):
        D(5, 10, layout="crowd", per_item=6)
    with pytest.raises(ValueError, match="`per_item`"):
        rt.crowd_power(5, 10, 6, 0.1, **HIGH, n_sims=50, seed=1)
    assert 0 <= D(5, 10, layout="crowd", per_item=5).power(n_sims=50, seed=1).power <= 1


def test_methods_agree_with_the_engines():
    d = D(10, 150, 0.08, **HIGH, alpha=0.025)
    assert d.power(method="analytic") == rt.likert_power(10, 150, 0.08, **HIGH, alpha=0.025, rule="satterthwaite",
                                                         method="analytic")
    sim = d.with_(rule="paper", likert=5).power(n_sims=200, seed=7)
    assert sim == rt.likert_power(10, 150, 0.08, **HIGH, alpha=0.025, rule="paper", likert=5, n_sims=200, seed=7)
    assert sim.mc_se > 0 and 0 <= sim.power <= 1
    assert d.analytic_power() == d.power(method="analytic").power
    assert d.mde(target_power=0.9) == rt.likert_mde(10, 150, target_power=0.9, alpha=0.025, **HIGH)
    pd.testing.assert_frame_equal(d.curves([0.0, 0.1], workers=(3, 10), items=(50, 150)),
                                  rt.analytic_grid([3, 10], [50, 150], [0.0, 0.1], alpha=0.025, **HIGH))
    assert d.assurance(0.03) == rt.likert_assurance(10, 150, 0.08, 0.03, alpha=0.025, **HIGH)
    assert d.assurance(0.03, delta_mean=0.1) == rt.likert_assurance(10, 150, 0.1, 0.03, alpha=0.025, **HIGH)
    pd.testing.assert_frame_equal(d.plans(cost_per_rating=0.2, cost_per_worker=5.0, target_power=0.9),
                                  rt.budget_plans(0.08, cost_per_rating=0.2, cost_per_worker=5.0, target_power=0.9,
                                                  alpha=0.025, **HIGH))
    pd.testing.assert_frame_equal(d.assurance_plans(0.03, cost_per_rating=0.2, target=0.7),
                                  rt.assurance_plans(0.08, 0.03, cost_per_rating=0.2, target=0.7, alpha=0.025,
                                                     **HIGH))


def test_crowd_methods_agree_with_the_engines():
    d = D(30, 200, 0.1, **HIGH, layout="crowd", per_item=4)
    assert d.n_ratings == 2 * 4 * 200 and not d.analytic
    assert d.power(n_sims=100, seed=3) == rt.crowd_power(30, 200, 4, 0.1, **HIGH, n_sims=100, seed=3)
    approx = rt.crowd_analytic(30, [200], 4, [0.1], **HIGH)["power"].iloc[0]
    assert d.analytic_power() == pytest.approx(approx, abs=0) and 0 <= approx <= 1
    assert d.assurance(0.05) == rt.crowd_assurance(30, 200, 4, 0.1, 0.05, **HIGH)
    pd.testing.assert_frame_equal(d.plans(cost_per_rating=0.1), rt.crowd_plans(0.1, pool=30, **HIGH))
    assert d.label() == "k = 4 of 30, I = 200, β1 = 0.1" and D().label() == "W = 3, I = 100, β1 = 0.1"


def test_analytic_power_matches_simulation():
    # independent check of the analytic engine the page shows at once: the REML + Satterthwaite simulation
    d = D(10, 100, 0.1, **HIGH)
    sim = d.power(n_sims=2000, seed=2020)
    assert abs(sim.power - d.analytic_power()) <= 4 * sim.mc_se + 0.02  # noncentral-t approximation
    assert sim.false_positive_rate <= 0.05 + 4 * sim.false_positive_rate_se  # null calibration
    assert math.isfinite(d.mde())


# ---------------------------------------------------------------------------
# the page's costs: core.ratings.RatingsCostDesign
# ---------------------------------------------------------------------------
C = rt.RatingsCostDesign
COST_KEYS = {"pay": "pay", "cost_per_rating": "cost_rating", "wage": "wage", "ratings_per_hour": "per_hour",
             "cost_per_worker": "cost_worker"}


def test_cost_fields_keys_units_and_defaults():
    assert issubclass(C, Design)
    assert {f.name: f.key for f in C.fields()} == COST_KEYS
    # the page's defaults (pages/ratings.py before the design declared them)
    assert {f.name: f.default for f in C.fields()} == dict(pay="rating", cost_per_rating=0.10, wage=15.0,
                                                           ratings_per_hour=120.0, cost_per_worker=0.0)
    for f in C.fields():
        assert f.label and f.help, f.name
        if f.kind == "float":
            assert f.unit and f.step, f.name
    # the widgets' ends, as the page had them
    ends = {f.name: (f.widget_low, f.widget_high, f.widget_step) for f in C.fields() if f.kind == "float"}
    assert ends == {"cost_per_rating": (0.0, 1000.0, 0.01), "wage": (0.0, 10_000.0, 0.5),
                    "ratings_per_hour": (1.0, 10_000.0, 10.0), "cost_per_worker": (0.0, 100_000.0, 1.0)}
    assert C().rating_cost == 0.10 and not C().paid_by_hour


@pytest.mark.parametrize("costs", [
    C(), C(pay="hour", wage=24.0, ratings_per_hour=60.0), C(cost_per_rating=1e6, cost_per_worker=1e9),
    C(pay="hour", wage=1e6, ratings_per_hour=1.0, cost_per_rating=0.0, cost_per_worker=12.5)])
def test_cost_round_trip(costs):
    params = costs.to_params()
    assert set(params) == set(COST_KEYS.values()) and C.from_params(params) == costs


def test_cost_links_as_the_page_writes_them_and_bad_values():
    assert C.from_params({}) == C()
    # the radio writes its label into the URL; a link may name the value too
    assert C.from_params({"pay": "by the hour"}).pay == C.from_params({"pay": "hour"}).pay == "hour"
    assert C.from_params({"pay": "per rating"}) == C()
    notes: list = []
    d = C.from_params({"pay": "monthly", "cost_rating": "-1", "wage": "abc", "per_hour": "0",
                       "cost_worker": "1e10"}, messages=notes)
    assert d == C()
    for name in ("pay", "cost_per_rating", "wage", "ratings_per_hour", "cost_per_worker"):
        assert any(note.startswith(f"`{name}`") and note.endswith("is used.") for note in notes), (name, notes)


def test_cost_ranges_agree_with_the_planners():
    high = dict(alpha=0.05, **HIGH)
    with pytest.raises(ValueError, match="`cost_per_rating`"):
        C(cost_per_rating=1e6 * 1.001)
    with pytest.raises(ValueError, match="`cost_per_rating`"):  # the planner refuses it too
        rt.budget_plans(0.1, cost_per_rating=1e6 * 1.001, **high)
    with pytest.raises(ValueError, match="`cost_per_worker`"):
        C(cost_per_worker=-0.01)
    with pytest.raises(ValueError, match="`cost_per_worker`"):
        rt.budget_plans(0.1, cost_per_worker=-0.01, **high)
    with pytest.raises(ValueError, match="`cost_per_worker`"):
        C(cost_per_worker=1e9 * 1.001)
    with pytest.raises(ValueError, match="`ratings_per_hour`"):
        C(ratings_per_hour=0.99)
    # the extremes inside: the dearest rating (a wage of 10⁶ an hour at one rating an hour) and worker
    dear = C(pay="hour", wage=1e6, ratings_per_hour=1.0, cost_per_worker=1e9)
    assert dear.rating_cost == 1e6
    plan = dear.plans(D(10, 100, 0.1))
    assert len(plan) and (plan["cost"] > 0).all()


def test_cost_methods_agree_with_the_engines():
    d = D(10, 150, 0.08, **HIGH, alpha=0.025)
    hourly = C(pay="hour", wage=24.0, ratings_per_hour=60.0, cost_per_worker=5.0)
    assert hourly.rating_cost == 0.4 and hourly.paid_by_hour
    # 2 × 3 workers × 100 items = 600 ratings at 24/60 = 0.40 (the page's test of hourly pay)
    assert hourly.with_(cost_per_worker=0.0).cost(D()) == pytest.approx(240.0)
    assert hourly.cost(d) == pytest.approx(2 * 10 * 150 * 0.4 + 10 * 5.0)
    assert C(cost_per_rating=0.0).cost(d) is None  # no costs given: the page shows no cost
    assert C(cost_per_rating=0.0, cost_per_worker=3.0).cost(d) == 30.0
    pd.testing.assert_frame_equal(hourly.plans(d, target_power=0.9),
                                  rt.budget_plans(0.08, cost_per_rating=0.4, cost_per_worker=5.0, target_power=0.9,
                                                  alpha=0.025, **HIGH))
    pd.testing.assert_frame_equal(hourly.assurance_plans(d, 0.03, target=0.7),
                                  rt.assurance_plans(0.08, 0.03, cost_per_rating=0.4, cost_per_worker=5.0,
                                                     target=0.7, alpha=0.025, **HIGH))
    crowd = D(30, 200, 0.1, **HIGH, layout="crowd", per_item=4)
    assert C().cost(crowd) == pytest.approx(2 * 4 * 200 * 0.10)
    pd.testing.assert_frame_equal(C(cost_per_rating=0.2).plans(crowd),
                                  rt.crowd_plans(0.1, pool=30, cost_per_rating=0.2, **HIGH))


def test_the_residual_sd_slider_starts_at_a_valid_sigma():
    # regression: the slider's low end was σ = 0, which the design (and the engines) refuse
    f = rt.RatingsDesign.field("sigma")
    low = f.from_widget(f.widget_low)
    assert 0 < low == f.step
    d = rt.RatingsDesign(sigma=low)
    assert 0 <= d.power(method="analytic").power <= 1

"""The sequential scenarios' designs (:mod:`core.design`): the DA page's CampaignDesign, the Monitor page's
MonitorDesign and the "Run it sequentially" section's SequentialDesign — links, fall-backs, ranges against the
engines, and each method against the engine function it delegates to."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core import sequential as sq
from core.design import Design

# the URL keys of the pages' widgets (links in the tests and the README use them)
CAMPAIGN_KEYS = {"procedure": "design", "delta": "delta", "looks": "peeks", "boundary": "boundary",
                 "futility_p": "futility", "mean": "mean", "sd": "sd", "alpha": "alpha", "test": "test",
                 "budget": "budget"}
MONITOR_KEYS = {"target": "target", "n_max": "n_max", "alpha": "alpha", "sd": "sd", "looks": "looks",
                "boundary": "boundary", "n_sims": "n_sims", "n_paths": "n_paths", "seed": "seed", "sequence": "cs"}
SECTION_KEYS = {"delta": "seq_delta", "sd": "seq_sd", "looks": "seq_looks", "boundary": "seq_boundary",
                "futility_p": "seq_futility", "alpha": "alpha"}


@pytest.mark.parametrize("cls, keys", [(sq.CampaignDesign, CAMPAIGN_KEYS), (sq.MonitorDesign, MONITOR_KEYS),
                                       (sq.SequentialDesign, SECTION_KEYS)])
def test_fields_carry_the_pages_keys_and_units(cls, keys):
    assert issubclass(cls, Design)
    assert {f.name: f.key for f in cls.fields()} == keys
    assert all(isinstance(f.unit, str) and f.label and f.help for f in cls.fields())
    assert cls.from_params({}) == cls()


def test_page_defaults_and_units():
    d = sq.CampaignDesign()
    assert (d.procedure, d.delta, d.looks, d.boundary, d.futility_p, d.mean, d.sd, d.alpha, d.test, d.budget) == (
        "fixed", 2.0, 3, "pocock", 0.5, 75.0, 27.0, 0.05, "mwu", 1200)
    assert sq.CampaignDesign.field("delta").unit == "pts" and sq.CampaignDesign.field("budget").unit == "judgments"
    m = sq.MonitorDesign()
    assert (m.target, m.n_max, m.alpha, m.looks, m.boundary, m.seed, m.sequence, m.bounds) == (
        0.05, 1000, 0.05, 3, "obrien_fleming", 1, "bounded", (-1.0, 1.0))
    assert sq.MonitorDesign.field("n_max").unit == "items"
    # the page's sliders are narrower than the engine's range
    f = sq.CampaignDesign.field("mean")
    assert (f.low, f.high, f.widget_low, f.widget_high, f.widget_step) == (1.0, 99.0, 50.0, 95.0, 0.5)


@pytest.mark.parametrize("design", [
    sq.CampaignDesign("interim_futility", 3.5, looks=5, boundary="obrien_fleming", futility_p=0.35, mean=80.0,
                      sd=20.5, alpha=0.01, test="t", budget=2400),
    sq.CampaignDesign("naive", 0.0, looks=10, budget=40),
    sq.CampaignDesign("fixed", -1.7, mean=60.0, alpha=0.1),
])
def test_campaign_round_trip(design):
    params = design.to_params()
    assert all(isinstance(v, str) for v in params.values())
    assert sq.CampaignDesign.from_params(params) == design


@pytest.mark.parametrize("design", [
    sq.MonitorDesign(0.1, 5000, alpha=0.01, looks=5, boundary="pocock", seed=7, sequence="mixture"),
    sq.MonitorDesign(2.5, 300, sd=1.5, n_sims=500, n_paths=0, seed=0),
])
def test_monitor_round_trip(design):
    assert sq.MonitorDesign.from_params(design.to_params()) == design


def test_section_round_trip():
    d = sq.SequentialDesign(-0.02, 0.7, looks=6, boundary="lan_demets", futility_p=0.4, alpha=0.025)
    assert sq.SequentialDesign.from_params(d.to_params()) == d


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = sq.CampaignDesign.from_params({"design": "sometimes", "peeks": "11", "delta": "x", "budget": "1e308",
                                       "futility": "1", "mean": "75", "zzz": "1"}, messages=notes)
    assert d == sq.CampaignDesign()
    assert [n.split("`")[1] for n in notes] == ["procedure", "delta", "looks", "futility_p", "budget"]
    assert all(n.endswith("is used.") for n in notes)
    # a value refused together with the ones before it: 10 looks need 40 judgments
    notes = []
    assert sq.CampaignDesign.from_params({"design": "interim", "peeks": "10", "budget": "20"},
                                         messages=notes) == sq.CampaignDesign("interim", looks=10)
    assert "`budget`" in notes[0]
    notes = []
    assert sq.MonitorDesign.from_params({"cs": "betting", "seed": "-1", "target": "0"}, messages=notes) == \
        sq.MonitorDesign()
    assert [n.split("`")[1] for n in notes] == ["target", "seed", "sequence"]


def test_campaign_ranges_are_the_engines():
    # just outside: refused by the design, naming the field; the extremes inside: accepted by the engine
    for changes, name in ((dict(looks=11), "looks"), (dict(looks=0), "looks"), (dict(budget=19), "budget"),
                          (dict(futility_p=1.0), "futility_p"), (dict(futility_p=0.0), "futility_p"),
                          (dict(mean=99.5), "mean"), (dict(mean=0.5), "mean"), (dict(sd=60.5), "sd"),
                          (dict(sd=0.5), "sd"), (dict(alpha=0.51), "alpha"), (dict(alpha=0.0), "alpha"),
                          (dict(delta=50.1), "delta"), (dict(test="z"), "test"), (dict(boundary="x"), "boundary"),
                          (dict(procedure="x"), "procedure"), (dict(procedure="interim", looks=10, budget=39),
                                                               "budget")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            sq.CampaignDesign(**changes)
        field = name if name != "procedure" else "design"
        with pytest.raises(ValueError, match=f"`{'peeks' if name == 'looks' else field}`"):
            kw = {**dict(procedure="interim", budget=1200, delta=2.0), **changes}
            design, budget, delta = kw.pop("procedure"), kw.pop("budget"), kw.pop("delta")
            kw = {("peeks" if k == "looks" else k): v for k, v in kw.items()}
            sq.campaign_power(design, budget, delta, **kw)
    for changes in (dict(looks=10, budget=40), dict(looks=1, budget=20), dict(mean=1.0, delta=0.0, sd=1.0),
                    dict(mean=99.0, sd=60.0, delta=0.0, test="t"), dict(alpha=0.5, futility_p=0.01),
                    dict(futility_p=0.99, delta=49.0, mean=50.0)):
        d = sq.CampaignDesign("interim_futility", **{**dict(delta=2.0), **changes})
        r = d.power()
        assert 0.0 <= r.power <= 1.0 and 0.0 <= r.false_positive_rate <= 1.0


def test_mann_whitney_at_the_corner_of_the_range():
    # mean 99, SD 60: the Gamma score model's shape is μ²/σ² ≈ 3e-4 (its effect is computed in logs)
    r = sq.CampaignDesign("interim_futility", 0.0, mean=99.0, sd=60.0).power()
    assert 0.0 <= r.power <= 1.0 and r.power == pytest.approx(r.false_positive_rate)
    assert r.false_positive_rate <= 0.05 + 1e-6  # at Δ = 0 the test keeps its size
    moved = sq.CampaignDesign("interim_futility", 0.4, mean=98.5, sd=60.0).power()
    still = sq.CampaignDesign("interim_futility", 0.0, mean=98.5, sd=60.0).power()
    assert still.power < moved.power <= 1.0


def test_section_and_monitor_ranges_are_the_engines():
    # the engine refuses more than 10 looks; so does the design (it accepted 50 before)
    with pytest.raises(ValueError, match="`looks`"):
        sq.SequentialDesign(0.1, 1.0, looks=11)
    with pytest.raises(ValueError, match="`looks`"):
        sq.sequential_power(400, 0.1, 1.0, looks=11)
    assert 0 <= sq.SequentialDesign(0.1, 1.0, looks=10).power(400).power <= 1
    assert sq.SequentialDesign.field("looks").widget_low == 2  # the section's slider starts at 2
    with pytest.raises(ValueError, match="`futility_p`"):
        sq.SequentialDesign(0.1, 1.0, futility_p=1.0)
    x = np.r_[np.ones(40), -np.ones(20)]
    for changes, name in ((dict(looks=11), "looks"), (dict(n_sims=99), "n_sims"), (dict(n_paths=201), "n_paths"),
                          (dict(n_max=1), "n_max"), (dict(target=0.0), "target"), (dict(alpha=0.6), "alpha")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            sq.MonitorDesign(**changes)
        with pytest.raises(ValueError, match=f"`{name}`"):
            sq.monitor(x, **{**dict(target=0.05, n_max=1000), **changes})
    for changes in (dict(looks=10), dict(looks=1), dict(n_sims=100, n_paths=0), dict(n_paths=200),
                    dict(n_max=60), dict(seed=2**31 - 1)):
        assert sq.MonitorDesign(**changes).run(x).n == 60
    with pytest.raises(ValueError, match="`bounds`"):
        sq.MonitorDesign(sequence="mixture", bounds=(-1.0, 1.0))


def test_campaign_methods_delegate_to_the_engine():
    d = sq.CampaignDesign("interim_futility", 3.0, looks=4, boundary="obrien_fleming", futility_p=0.4, budget=1800)
    kw = dict(peeks=4, boundary="obrien_fleming", futility_p=0.4, mean=75.0, sd=27.0, alpha=0.05, test="mwu")
    assert d.options() == kw and d.peeks == d.looks == 4
    assert d.power() == sq.campaign_power("interim_futility", 1800, 3.0, **kw)
    assert d.power(1200) == sq.campaign_power("interim_futility", 1200, 3.0, **kw)
    assert d.mde(target_power=0.9) == sq.campaign_mde("interim_futility", 1800, target_power=0.9, **kw)
    assert d.sample_sizes(0.8) == sq.campaign_sample_size("interim_futility", 3.0, target_power=0.8, **kw)
    assert d.curves([0.0, 2.0], procedures=("fixed",)).equals(
        sq.campaign_curves(1800, [0.0, 2.0], designs=("fixed",), **kw))
    a = d.assurance(delta_sd=1.5, delta_mean=2.0)
    b = sq.campaign_assurance("interim_futility", 1800, 2.0, 1.5, **kw)
    assert (a.assurance, a.ceiling, a.expected_judgments) == (b.assurance, b.ceiling, b.expected_judgments)
    # the former keyword and positional calls still build the same design
    assert sq.CampaignDesign("interim_futility", 3.0, peeks=4, boundary="obrien_fleming", futility_p=0.4,
                             budget=1800) == d
    assert d.with_(looks=5).looks == 5
    with pytest.raises(TypeError, match="peeks"):
        sq.CampaignDesign(looks=3, peeks=4)


def test_monitor_and_section_methods_delegate_to_the_engine():
    x = np.r_[np.ones(30), np.zeros(10), -np.ones(5)] * 0.5
    d = sq.MonitorDesign(0.1, 2000, looks=4, boundary="pocock", seed=3)
    r, e = d.run(x), sq.monitor(x, target=0.1, n_max=2000, bounds=(-1.0, 1.0), looks=4, boundary="pocock", seed=3)
    assert (r.verdict, r.expected_more, r.look_bounds) == (e.verdict, e.expected_more, e.look_bounds)
    m = sq.MonitorDesign(0.1, 2000, seed=3, sequence="mixture").run(x)
    assert m.method == sq.monitor(x, target=0.1, n_max=2000, seed=3).method != r.method
    s = sq.SequentialDesign(0.05, 0.8, looks=5, boundary="pocock")
    assert s.power(900).power == sq.sequential_power(900, 0.05, 0.8, looks=5, boundary="pocock").power
    assert math.isfinite(s.power(900).type_m)


def test_the_snippet_reads_the_design():
    from core.sequential.snippet import sequential_snippet

    d = sq.CampaignDesign("interim", 2.5, looks=4, budget=1800, test="t")
    by_design = sequential_snippet(d, target_power=0.8, sizes=True)
    assert "design, budget, delta = 'interim', 1800, 2.5\n" in by_design
    assert ("options = dict(peeks=4, boundary='pocock', futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05, test='t')\n"
            in by_design)
    assert sequential_snippet(d.with_(budget=1200), target_power=0.8, sizes=True) != by_design
    with pytest.raises(ValueError, match="`design`"):
        sequential_snippet("interim", target_power=0.8)


def test_the_monitor_snippet_reads_the_design():
    from core.sequential.snippet import monitor_snippet

    d = sq.MonitorDesign(0.1, 5000, alpha=0.01, looks=5, boundary="pocock", seed=7, sequence="mixture")
    by_design = monitor_snippet(d, upto=80, swap=True)
    assert "upto, target, n_max, alpha = 80, 0.1, 5000, 0.01\n" in by_design
    assert "bounds=None, looks=5, boundary='pocock', seed=7)\n" in by_design
    assert "diffs = -diffs" in by_design
    assert "bounds=(-1.0, 1.0), looks=3, boundary='obrien_fleming', seed=1)\n" in monitor_snippet(
        sq.MonitorDesign(), upto=80, swap=False)
    # the fields the page does not set appear only when they differ from monitor()'s defaults
    extra = monitor_snippet(d.with_(sd=0.3, n_sims=500), upto=80, swap=True)
    assert "seed=7, sd=0.3, n_sims=500)\n" in extra and "n_paths" not in extra
    with pytest.raises(ValueError, match="`design`"):
        monitor_snippet(None, upto=80, swap=True)


@pytest.mark.parametrize("procedure", ["fixed", "interim", "interim_futility", "naive"])
def test_relevant_keeps_every_number(procedure):
    """The cache key without the fields a procedure does not read gives the same power, sizes and spending."""
    from core.sequential import CampaignDesign

    for looks, boundary, futility in ((3, "pocock", 0.5), (4, "obrien_fleming", 0.3), (2, "pocock", 0.7)):
        d = CampaignDesign(procedure=procedure, delta=3.0, looks=looks, boundary=boundary, futility_p=futility,
                           budget=800)
        r = d.relevant()
        assert r.procedure == procedure and r.delta == d.delta and r.budget == d.budget
        assert r.power() == d.power()
        assert r.sample_sizes(0.8) == d.sample_sizes(0.8)
        if procedure == "fixed":
            assert (r.looks, r.boundary, r.futility_p) == (3, "pocock", 0.5)
        if procedure != "interim_futility":
            assert r.futility_p == 0.5
        else:
            assert r == d


def test_options_only_keys_the_curves_over_every_procedure():
    """The cache key of Figures 5 and 6 and of the §7.3 savings: the same frames as the engine functions with the
    design's options, whatever the design's procedure, difference and budget."""
    kw = dict(peeks=4, boundary="obrien_fleming", futility_p=0.4, mean=70.0, sd=25.0, alpha=0.05, test="mwu")
    pop = (0.5, 1.0, 2.5, 4.0)
    keys = set()
    for procedure, delta, budget in (("interim", 3.0, 1800), ("fixed", -1.5, 400), ("interim_futility", 0.0, 2400)):
        d = sq.CampaignDesign(procedure, delta, looks=4, boundary="obrien_fleming", futility_p=0.4, mean=70.0,
                              sd=25.0, budget=budget)
        o = d.options_only()
        keys.add(o)
        assert o.options() == d.options() == kw and (o.procedure, o.delta, o.budget) == ("fixed", 0.0, 1200)
    assert len(keys) == 1  # one cache entry for every procedure, difference and budget
    o = keys.pop()
    assert o.curves([0.0, 2.0], budget=1000, with_type_m=False).equals(
        sq.campaign_curves(1000, [0.0, 2.0], with_type_m=False, **kw))
    assert o.curves([2.0], procedures=("interim",), budget=600).equals(
        sq.campaign_curves(600, [2.0], designs=("interim",), **kw))
    assert o.population_curves([400, 800], pop).equals(sq.population_curves([400, 800], np.array(pop), **kw))
    assert o.savings(pop, budget=800).equals(sq.budget_savings(800, np.array(pop), **kw))
    assert o.with_(budget=800).savings(pop).equals(o.savings(pop, budget=800))


def test_a_monitor_design_with_other_bounds_survives_a_link():
    # bounds are not a declared field; a pin of a [0, 1] betting sequence came back as [−1, 1]
    d = sq.MonitorDesign(bounds=(0.0, 1.0))
    assert d.to_params()["cs_bounds"] == "0.0,1.0" and sq.MonitorDesign.from_params(d.to_params()) == d
    assert "cs_bounds" not in sq.MonitorDesign().to_params()  # the default writes nothing
    messages = []
    assert sq.MonitorDesign.from_params({"cs_bounds": "1,0"}, messages=messages).bounds == (-1.0, 1.0)
    assert any("`bounds`" in m for m in messages)
    assert sq.MonitorDesign.from_params({"cs_bounds": "0,1", "cs": "mixture"}).bounds is None

"""The Accuracy page's design (core.accuracy.design.AccuracyPageDesign): declared fields, links and pins, ranges
that agree with the engines, and methods that agree with the engine functions they delegate to."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core import accuracy as acc
from core.accuracy import AccuracyPageDesign as D
from core.accuracy.design import CHOICE_LABELS, PREFERENCE_N
from core.datasets import SQUAD_TEST_SIZE

#: Every widget key of the page and its tab modules (the URL keys links use).
PAGE_KEYS = {"scenario", "n", "delta", "baseline", "pa_source", "agreement", "test", "p_new", "ties_pct", "ties",
             "alpha", "target", "ni_kind", "ni_margin", "ni_test", "ni_alpha", "ci_level", "ci_p", "ci_half",
             "squad_base", "squad_new", "squad_size"}

DESIGNS = [
    D(),
    D(scenario="paired", n=2000, delta=-1.5, agreement=95.0, test="midp", alpha=0.01, target_power=0.9),
    D(scenario="paired", n=3000, delta=0.7, baseline=92.3, source="lachenbruch_low", test="chi2_cc"),
    D(scenario="unpaired", n=1725, delta=3.4, baseline=80.0, alpha=0.1),
    D(scenario="preference", n=300, p_new=55.5, tie_rate=12.0, ties="split", test="chi2"),
    D(claim="eq", margin=2.5, ni_test="wald", ni_alpha=0.05, confidence=0.9, expected_accuracy=75.5, half_width=3.1,
      squad_baseline=3, squad_new=140, squad_size="dev"),
]


def test_default_and_round_trip():
    assert D.from_params({}) == D()
    for d in DESIGNS:
        params = d.to_params()
        assert set(params) == PAGE_KEYS and all(isinstance(v, str) for v in params.values())
        assert D.from_params(params) == d
    # a preference link without n has the page's default number of raters
    assert D.from_params({"scenario": "preference"}) == D(scenario="preference", n=PREFERENCE_N)


def test_links_may_name_choices_by_the_widgets_labels():
    # a bound radio or selectbox writes its label into the URL ("?test=mid-p")
    linked = D.from_params({"test": "mid-p", "pa_source": "GLUE regression", "scenario": "paired (McNemar)",
                            "ties": "split by coin flip", "ni_kind": "equivalent (TOST)"})
    assert linked == D(test="midp", source="glue", ties="split", claim="eq")
    for key, labels in CHOICE_LABELS.items():
        name = next(f.name for f in D.fields() if f.key == key)
        assert set(labels) == set(D.field(name).choices), key


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = D.from_params({"n": "1e308", "delta": "two", "alpha": "0.7", "ties_pct": "95", "test": "bogus",
                       "zzz": "1"}, messages=notes)
    assert d == D()
    assert len(notes) == 5
    for note, name in zip(notes, ("`n`", "`delta`", "`test`", "`tie_rate`", "`alpha`")):
        assert name in note and "the default" in note
    # a value refused together with the ones before it (|Δ| > 1 − P_a) falls back as well
    notes = []
    assert D.from_params({"delta": "15", "agreement": "90"}, messages=notes) == D()
    assert "`delta`" in notes[0] and "1 − P_a" in notes[0]
    notes = []
    assert D.from_params({"scenario": "preference", "test": "normal"}, messages=notes).test == "exact"
    assert "`test`" in notes[0]


def test_every_field_has_a_unit_a_label_and_the_pages_widget_key():
    keys = [f.key for f in D.fields()]
    assert len(keys) == len(set(keys)) and set(keys) == PAGE_KEYS
    for f in D.fields():
        assert isinstance(f.unit, str) and f.label and f.help
    assert {f.name: f.unit for f in D.fields() if f.unit} == {
        "n": "items", "delta": "pts", "baseline": "%", "agreement": "%", "p_new": "%", "tie_rate": "%",
        "margin": "pts", "expected_accuracy": "%", "half_width": "pts", "squad_baseline": "submission",
        "squad_new": "submission"}


@pytest.mark.parametrize("name", [f.name for f in D.fields() if f.kind in ("int", "float")])
def test_ranges_refuse_just_outside(name):
    f = D.field(name)
    step = f.step or 1
    for bad in (f.low - step, f.high + step):
        with pytest.raises(ValueError, match=f"`{name}`"):
            D(**{name: bad})



def test_choices_refuse_other_values():
    for name, bad in (("scenario", "bayesian"), ("source", "oracle"), ("test", "z"), ("ties", "half"),
                      ("alpha", 0.2), ("claim", "sup"), ("ni_test", "exact2"), ("ni_alpha", 0.2),
                      ("confidence", 0.5), ("squad_size", "train")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            D(**{name: bad})


def test_extremes_inside_are_accepted_by_the_engines():
    lo_n, hi_n = D.field("n").low, D.field("n").high
    # sizes: both ends, every scenario (the normal form keeps the largest paired size fast)
    assert 0 <= acc.mcnemar_power(lo_n, 0.02, 0.9).power <= 1
    assert 0 <= acc.mcnemar_power(hi_n, 0.02, 0.9, test="normal").power <= 1
    assert 0 <= acc.unpaired_power(lo_n, 0.9, 0.02).power <= 1
    assert 0 <= acc.unpaired_power(hi_n, 0.9, 0.02).power <= 1
    assert 0 <= acc.preference_power(lo_n, 0.65, 0.35).power <= 1
    # Δ at ±20 pts with the agreement that allows it; agreement at both ends; baseline at both ends
    for d in (D(delta=20.0, agreement=80.0), D(delta=-20.0, agreement=10.0), D(delta=0.0, agreement=99.9),
              D(scenario="unpaired", delta=-20.0, baseline=50.0), D(scenario="unpaired", delta=0.05, baseline=99.9),
              D(source="lachenbruch_low", baseline=50.0, delta=20.0)):
        assert 0 <= d.power().power <= 1
    # preferences: all prefer the new system; 90% ties; nobody prefers the new system
    for d in (D(scenario="preference", p_new=100.0), D(scenario="preference", p_new=5.0, tie_rate=90.0),
              D(scenario="preference", p_new=0.0, tie_rate=0.0)):
        assert 0 <= d.power().power <= 1
    # the decision rule: every α choice and both target ends
    for alpha in D.field("alpha").choices:
        assert 0 <= D(alpha=alpha).power().power <= 1
    for target in (D.field("target_power").low, D.field("target_power").high):
        assert D(target_power=target).sample_sizes().first > 0
    # the tabs: margins, one-sided α, intervals and SQuAD ids at their ends
    for margin in (0.1, 10.0):
        for ni_alpha in D.field("ni_alpha").choices:
            assert 0 <= D(margin=margin, ni_alpha=ni_alpha).noninferiority_power().power <= 1
    for p, h in ((50.0, 0.5), (99.9, 10.0)):
        assert all(v > 0 for v in D(expected_accuracy=p, half_width=h).interval_sizes().values())
    for c in D.field("confidence").choices:
        assert 0 <= D(confidence=c).coverage_at("wilson") <= 1
    assert acc.squad_pair(int(D.field("squad_baseline").low), int(D.field("squad_new").high)).agreement_dev > 0


def test_cross_field_checks_name_the_parameter():
    with pytest.raises(ValueError, match=r"`delta` must satisfy \|delta\| ≤ 1 − P_a"):
        D(delta=5.0, agreement=99.0)
    with pytest.raises(ValueError, match="`delta` must keep baseline"):
        D(scenario="unpaired", baseline=95.0, delta=5.0)
    with pytest.raises(ValueError, match="`tie_rate`.*exceeds 100%"):
        D(scenario="preference", p_new=90.0, tie_rate=20.0)
    with pytest.raises(ValueError, match="`test`"):
        D(scenario="preference", test="normal")
    # another scenario's fields are not checked together: the same values are fine for preferences
    assert D(scenario="preference", delta=5.0, agreement=99.0).scenario == "preference"


@pytest.mark.parametrize("d", DESIGNS[:5], ids=["default", "paired-midp", "paired-prior", "unpaired", "preference"])
def test_methods_agree_with_the_engines(d):
    n, alpha, target = d.n, d.alpha, d.target_power
    if d.scenario == "paired":
        # the page's sliders are in % and pts, rounded to 6 decimals as fractions
        agree = acc.paired_design(d.source, delta=round(d.delta / 100, 6), baseline=round(d.baseline / 100, 6),
                                  agreement=round(d.agreement / 100, 6) if d.source == "manual" else None).agreement
        assert d.paired().agreement == agree
        assert d.power() == acc.mcnemar_power(n, d.delta / 100, agree, alpha=alpha, test=d.test)
        kwargs = {"agreement": round(d.agreement / 100, 6)} if d.source == "manual" else \
            {"baseline": round(d.baseline / 100, 6), "prior": d.source}
        assert d.mde() == acc.mcnemar_mde(n, **kwargs, target_power=target, alpha=alpha, test=d.test)
        assert d.sample_sizes() == acc.mcnemar_sample_sizes(d.delta / 100, agree, target_power=target, alpha=alpha,
                                                            test=d.test)
        assert d.sample_size() == acc.mcnemar_sample_size(d.delta / 100, agree, target_power=target, alpha=alpha,
                                                          test=d.test)
        pd.testing.assert_frame_equal(d.distribution(), acc.difference_distribution(n, d.delta / 100, agree,
                                                                                     alpha=alpha, test=d.test))
        assert d.assurance(n, 0.01, 0.01) == acc.mcnemar_assurance(n, 0.01, 0.01, agree, alpha=alpha, test=d.test)
        pd.testing.assert_frame_equal(d.curves(family=False), acc.paired_curves(
            list(d.curve_sizes()), [(d.delta / 100, agree)], alpha=alpha, test=d.test))
    elif d.scenario == "unpaired":
        b, delta = d.baseline / 100, d.delta / 100
        assert d.power() == acc.unpaired_power(n, b, delta, alpha=alpha)
        assert d.mde() == acc.unpaired_mde(n, b, target_power=target, alpha=alpha)
        assert d.sample_size() == acc.unpaired_sample_size(b, delta, target_power=target, alpha=alpha)
        assert d.assurance(n, 0.01, 0.01) == acc.unpaired_assurance(n, b, 0.01, 0.01, alpha=alpha)
        pd.testing.assert_frame_equal(d.distribution(), acc.unpaired_distribution(n, b, delta, alpha=alpha))
    else:
        p_new, tie = d.p_new / 100, d.tie_rate / 100
        p_old = 1 - p_new - tie
        assert math.isclose(d.p_old_fraction, p_old, abs_tol=1e-6)
        assert d.power() == acc.preference_power(n, p_new, d.p_old_fraction, alpha=alpha, ties=d.ties, test=d.test)
        assert d.mde() == acc.preference_mde(n, tie_rate=tie, target_power=target, alpha=alpha, ties=d.ties,
                                             test=d.test)
        assert d.sample_size() == acc.preference_sample_size(p_new, d.p_old_fraction, target_power=target,
                                                             alpha=alpha, ties=d.ties, test=d.test)
        assert d.assurance(n, 0.1, 0.05) == acc.preference_assurance(n, 0.1, 0.05, tie_rate=tie, alpha=alpha,
                                                                     ties=d.ties, test=d.test)
    # the headline's cache key gives the same numbers
    assert d.for_scenario().power() == d.power() and d.for_scenario().mde() == d.mde()
    # sample sizes: the first n reaches the target, the one before does not (exact tests zigzag, so only first)
    sizes = d.sample_sizes()
    assert d.power(sizes.first).power >= target > d.power(sizes.first - 1).power


def test_family_of_curves_and_null_effect():
    d = D()
    frame = d.curves()
    assert set(zip(frame["delta"].round(6), frame["agreement"].round(6))) == set(d.paired().family())
    assert d.n in set(frame["n"])
    assert D(delta=0.0).sample_sizes() is None and D(delta=0.0).sample_size() == -1
    # at a null effect the power is the false-positive rate, at most α (exact test)
    assert 0 < D(delta=0.0).power().power <= 0.05


def test_noninferiority_and_intervals_agree_with_the_engines():
    d = D(n=800, delta=-0.5, agreement=94.0, margin=2.0, ni_test="score", ni_alpha=0.025)
    assert d.noninferiority_power() == acc.noninferiority_power(800, -0.005, 0.94, 0.02, alpha=0.025, test="score")
    size = d.noninferiority_power(-0.02).power
    assert size <= 0.025 + 0.01  # the score test's size at the margin is close to α (Tango 1998)
    assert d.noninferiority_sample_sizes() == acc.noninferiority_sample_sizes(
        -0.005, 0.94, 0.02, target_power=0.8, alpha=0.025, test="score", method="exact")
    eq = d.with_(claim="eq", delta=0.0)
    assert eq.noninferiority_power() == acc.equivalence_power(800, 0.0, 0.94, 0.02, alpha=0.025, test="score")
    # the exact test is offered up to EXACT_TEST_N_MAX items; the score test stands in above
    assert D(n=5000, ni_test="exact").noninferiority_test() == "score"
    assert D(n=1000, ni_test="exact").noninferiority_test() == "exact"
    curve = d.noninferiority_curve()
    assert np.all((curve["power"] >= 0) & (curve["power"] <= 1)) and -2.0 in set(curve["delta_pp"].round(8))
    ci = D(n=147, expected_accuracy=80.0, half_width=3.0, confidence=0.9)
    assert ci.interval_sizes() == {m: acc.interval_sample_size(0.8, 0.03, method=m, confidence=0.9)
                                   for m in acc.INTERVAL_METHODS}
    assert ci.coverage_at("wald") == acc.interval_coverage(147, 0.8, method="wald", confidence=0.9)


def test_squad_pair_power_is_mcnemar_on_the_test_set():
    pair, power = D(squad_baseline=128, squad_new=134).squad_pair_power()
    assert power == acc.mcnemar_power(SQUAD_TEST_SIZE, pair.delta_dev, pair.agreement_dev, alpha=0.05)


def test_snippet_of_the_design_runs_and_prints_its_power():
    import contextlib
    import io

    from core.accuracy.snippet import accuracy_design_snippet

    for d in (D(), DESIGNS[3], DESIGNS[4]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(accuracy_design_snippet(d), "<snippet>", "exec"), {})
        assert f"{100 * d.power().power:.1f}%" in out.getvalue()

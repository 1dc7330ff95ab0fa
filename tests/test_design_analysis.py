"""core.analysis.design.AnalysisDesign: the Analyze page's settings, their links, ranges and delegations."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core import analysis as an
from core import bayes
from core.analysis.design import ALPHAS, HDI_MASSES, AnalysisDesign

D = AnalysisDesign
PAGE = (Path(__file__).resolve().parents[1] / "pages" / "analysis.py").read_text()
KEYS = {"source": "data", "kind": "kind", "m": "m", "how": "how", "shuffle": "shuffle", "alpha": "alpha",
        "alternative": "alternative", "seed": "seed", "rope": "rope", "hdi": "hdi", "prior_alpha": "prior_a",
        "prior_beta": "prior_b", "target_power": "target"}

RNG = np.random.default_rng(7)
A = RNG.normal(0.62, 0.1, 60)
B = A - 0.02 + RNG.normal(0, 0.05, 60)


def test_default_design():
    assert D.from_params({}) == D()
    d = D()
    assert (d.source, d.kind, d.m, d.alpha, d.seed, d.rope, d.hdi, d.target_power) == (
        "sample", "scores", 1, 0.05, 12345, 0.01, 0.95, 0.8)
    assert d.alpha in ALPHAS and d.hdi in HDI_MASSES


@pytest.mark.parametrize("design", [
    D(source="upload", kind="binary", m=3, how="median", shuffle=99, alpha=0.001, alternative="less", seed=0,
      rope=0.025, hdi=0.89, prior_alpha=0.5, prior_beta=2.5, target_power=0.95),
    D(source="paste", kind="systems", alpha=0.1, alternative="greater", rope=0.0, hdi=0.99, target_power=0.51),
    D(kind="predictions", m=1000, shuffle=2**31 - 1, seed=2**31 - 1, rope=7.5, prior_alpha=1000.0),
])
def test_round_trip(design):
    params = design.to_params()
    assert set(params) == set(KEYS.values())
    assert D.from_params(params) == design


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = D.from_params({"m": "0", "alpha": "0.7", "hdi": "0.4", "prior_a": "-1", "kind": "tsv", "seed": "1.5",
                       "rope": "0.02"}, messages=notes)
    assert d == D(rope=0.02)
    assert [n.split(" ")[0] for n in notes] == ["`kind`", "`m`", "`alpha`", "`seed`", "`hdi`", "`prior_alpha`"]
    assert all(n.endswith("is used.") for n in notes)


def test_every_field_has_a_unit_and_the_pages_url_key():
    assert {f.name: f.key for f in D.fields()} == KEYS
    assert all(isinstance(f.unit, str) and f.label and f.help for f in D.fields())
    assert D.field("m").unit == "items" and D.field("rope").unit == "score units"
    for name in KEYS:  # the page builds every widget from the fields
        assert re.search(rf'inp\("{name}"', PAGE), name
    # the widgets' ends are the page's
    assert (D.field("m").widget_low, D.field("m").widget_high) == (1, 1000)
    assert (D.field("prior_alpha").widget_low, D.field("prior_alpha").widget_high) == (0.1, 1000.0)


@pytest.mark.parametrize("name, outside", [
    ("m", 0), ("shuffle", -1), ("shuffle", 2**31), ("seed", -1), ("alpha", 0.0), ("alpha", 0.501), ("rope", -0.001),
    ("hdi", 0.49), ("hdi", 0.9991), ("prior_alpha", 0.0), ("prior_beta", 1e6 + 1), ("target_power", 1.0),
    ("target_power", 0.0), ("how", "mode"), ("alternative", "both"), ("kind", "tsv"),
])
def test_a_value_just_outside_the_range_is_refused_by_name(name, outside):
    with pytest.raises(ValueError, match=f"`{name}`"):
        D().with_(**{name: outside})


def test_the_engines_refuse_and_accept_the_same_ends():
    d = np.diff(A)
    with pytest.raises(ValueError):
        bayes.compare_means(d, rope=0.01, hdi=0.49)
    with pytest.raises(ValueError):
        an.evaluation_units(A, B, 0)
    with pytest.raises(ValueError):
        bayes.compare_accuracies(30, 60, 25, 60, prior=(0.0, 1.0))
    lo = D(alpha=0.5, hdi=0.5, prior_alpha=1e-9, prior_beta=1e6, rope=0.5, target_power=0.999, m=60)
    hi = D(alpha=1e-6, hdi=0.999, rope=0.0, target_power=1e-3, alternative="greater")
    for design in (lo, hi):
        assert design.bayes_accuracies(30, 60, 25, 60).hdi[0] <= design.bayes_accuracies(30, 60, 25, 60).hdi[1]
        assert design.mde(60, 0.05) > 0
    assert lo.units(A, B)[0].size == 1  # m up to the number of items


def test_methods_agree_with_the_engines():
    d = D(m=3, how="median", shuffle=4, alpha=0.01, alternative="greater", seed=9, rope=0.02, hdi=0.9,
          prior_alpha=2.0, prior_beta=3.0, target_power=0.9)
    u, v = d.units(A, B)
    u0, v0 = an.evaluation_units(A, B, 3, how="median", seed=4)
    np.testing.assert_array_equal(u, u0)
    np.testing.assert_array_equal(v, v0)
    assert np.array_equal(D().units(A, B)[0], an.evaluation_units(A, B, 1, how="mean", seed=None)[0])
    diff = A - B
    got, want = d.recommend(diff), an.recommend_tests(diff, alpha=0.01, binary=False)
    assert (got.statistic, got.skewness, got.normal) == (want.statistic, want.skewness, want.normal)
    pd.testing.assert_frame_equal(got.tests, want.tests)
    pd.testing.assert_frame_equal(d.tests(A, B, ["t", "permutation"]),
                                  an.paired_tests(A, B, alpha=0.01, alternative="greater", seed=9,
                                                  tests=["t", "permutation"], statistic="mean", n_resamples=5000))
    pd.testing.assert_frame_equal(d.power_curve(diff, test="sign"),
                                  an.bootstrap_power_curve(diff, alpha=0.01, test="sign", n_iter=400, seed=9))
    assert d.mde(60, 0.05) == an.paired_t_mde(60, 0.05, target_power=0.9, alpha=0.01, alternative="greater")
    nxt = d.next_evaluation(-0.02, 0.05)
    assert nxt == an.NextEvaluation(-0.02, 0.05, alpha=0.01, target_power=0.9, alternative="less")
    assert d.sample_size(0.02, 0.05) == an.prospective_sample_size(0.02, 0.05, target_power=0.9, alpha=0.01,
                                                                   alternative="greater")
    assert D().next_evaluation(-0.02, 0.05).alternative == "two-sided"
    for got, want in ((d.bayes_accuracies(40, 60, 30, 60),
                       bayes.compare_accuracies(40, 60, 30, 60, prior=(2.0, 3.0), rope=0.02, hdi=0.9)),
                      (d.bayes_means(diff), bayes.compare_means(diff, rope=0.02, hdi=0.9))):
        assert (got.hdi, got.p_superior, got.p_rope, got.decision) == (want.hdi, want.p_superior, want.p_rope,
                                                                       want.decision)
        np.testing.assert_array_equal(got.density, want.density)
    systems = pd.DataFrame({"x": A, "y": B, "z": B + 0.01})
    pd.testing.assert_frame_equal(d.pairwise(systems, test="wilcoxon"),
                                  an.pairwise_comparisons(systems, test="wilcoxon", alpha=0.01, seed=9))

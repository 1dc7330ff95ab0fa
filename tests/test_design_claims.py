"""ClaimsDesign (core.claims): the Claims page's inputs declared once, with the page's URL keys."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core import accuracy as acc
from core import multiplicity as mt
from core import claims as cl
from core.claims import ClaimsDesign as D

#: The page's widget keys (links in the tests use them): field -> URL key.
PAGE_KEYS = {"claims": "claims", "correlation": "rho", "correction": "correction", "alpha": "alpha",
             "target_power": "target"}
ODD = (("a:b;c%", 1001, 1 / 3, 90.25), ("HumanEval", 164, -3.0, 85.0))
DESIGNS = [
    D(correlation=0.35, correction="bh", alpha=0.01, target_power=0.9),
    D(claims=cl.encode_claims(ODD, exact=True), correction="none", correlation=1.0),
    D(claims="A:10:0:0;B:10000000:50:0", correction="bonferroni", alpha=0.001, target_power=0.5),
]


def test_default_design_is_the_page_default():
    d = D.from_params({})
    assert d == D()
    assert d.rows == cl.DEFAULT_CLAIMS and (d.correction, d.correlation, d.alpha, d.target_power) == (
        "holm", 0.0, 0.05, 0.8)
    # the page's link text of the default table is the design's text
    assert cl.encode_claims(cl.DEFAULT_CLAIMS) == d.claims


@pytest.mark.parametrize("design", DESIGNS, ids=["bh", "odd-names", "extremes"])
def test_round_trip(design):
    params = design.to_params()
    assert set(params) == set(PAGE_KEYS.values())
    assert D.from_params(params) == design


def test_names_and_numbers_survive_exactly():
    assert D.from_params(DESIGNS[1].to_params()).rows == ODD
    assert cl.encode_claims(ODD) == "a b c%:1001:0.333333:90.25;HumanEval:164:-3:85"  # the page's link


@pytest.mark.parametrize("params, name", [
    ({"rho": "1.5"}, "`correlation` must be in [0, 1]"),
    ({"correction": "fdr"}, "`correction` must be one of"),
    ({"alpha": "0.5"}, "`alpha` must be one of"),
    ({"target": "0"}, "`target_power` must be in (0, 1)"),
    ({"alpha": "0.1", "target": "0.05"}, "`target_power` must be in (alpha, 1)"),
    ({"claims": "A:9:1:90"}, "`claims` row 1"),
    ({"claims": "A:1000:1:90;B:1000:50.5:10"}, "`claims` row 2"),
    ({"claims": "A:1000:1:100"}, "`claims` row 1"),
    ({"claims": ";".join(["A:1000:1:90"] * 101)}, "`claims` must list between 1 and 100"),
])
def test_bad_values_fall_back_with_a_message_naming_the_parameter(params, name):
    notes = []
    d = D.from_params(params, messages=notes)
    assert len(notes) == 1 and name in notes[0] and "the default" in notes[0]
    assert d.rows == cl.DEFAULT_CLAIMS


def test_fields_have_units_and_the_page_keys():
    assert {f.name: f.key for f in D.fields()} == PAGE_KEYS
    assert all(isinstance(f.unit, str) for f in D.fields())
    assert D.field("correction").choices == tuple(["none", "bonferroni", "holm", "bh"])  # the page's order


def test_ranges_agree_with_the_engine():
    for bad in ({"correlation": 1.01}, {"correlation": -0.01}, {"target_power": 1.0}, {"alpha": 0.2}):
        with pytest.raises(ValueError, match=f"`{next(iter(bad))}`"):
            D(**bad)
    # the extremes inside: correlation 1, the smallest and largest test sets, gains ±50 pp at agreement 0
    d = DESIGNS[2].with_(correlation=1.0)
    single = d.benchmark_powers()
    assert [w for _, _, w in single] == ["", ""]
    assert single[1][1] == acc.mcnemar_power(10_000_000, 0.5, 0.0, alpha=0.001, test="normal").rejection_rate
    assert 0 <= d.power(n_sims=2000, seed=1).all <= 1
    assert math.isfinite(d.sample_sizes())


def test_methods_delegate_to_the_engines():
    d = DESIGNS[0]
    single = d.benchmark_powers()
    for (name, n, gain, agree), (name2, p, why) in zip(d.rows, single):
        ref = acc.mcnemar_power(n, gain / 100, agree / 100, alpha=0.01, test="normal").rejection_rate
        assert name2 == name and why == "" and p == max(ref, 0.01)
    fam = d.family()
    assert fam.powers == tuple(round(p, 12) for _, p, _ in single) and fam.correlation == 0.35
    for c in mt.CORRECTIONS:
        res = d.power(c, n_sims=5000, seed=0)
        ref = mt.family_power(fam.powers, alpha=0.01, correction=c, correlation=0.35, n_sims=5000, seed=0)
        assert np.array_equal(res.per_comparison, ref.per_comparison) and res.all == ref.all
    assert d.sample_sizes() == mt.family_sample_size(5, target_power=0.9, alpha=0.01, correction="bh")
    assert d.with_(correction="none").sample_sizes() == 1.0


def test_an_impossible_row_is_reported_not_computed():
    d = D(claims="A:1000:20:90")  # a gain of 20 pp needs at least 20% disagreement
    (name, p, why), = d.benchmark_powers()
    assert math.isnan(p) and "exceeds 100 − agreement" in why
    with pytest.raises(ValueError, match="`claims` has impossible rows"):
        d.family()


def test_the_page_link_reader_is_lenient():
    assert cl.decode_claims("A:1000.7:2:90;bad;B:5:1:1;C:100:1:99.5") == (("A", 1000, 2.0, 90.0),
                                                                          ("C", 100, 1.0, 99.5))
    assert cl.decode_claims("::;x:nan:1:1") == cl.DEFAULT_CLAIMS and cl.decode_claims(None) == cl.DEFAULT_CLAIMS

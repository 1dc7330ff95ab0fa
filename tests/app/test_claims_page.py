"""AppTest tests of the Many claims page (pages/claims.py)."""

from __future__ import annotations

import numpy as np
import pytest

from core import accuracy as acc
from core import multiplicity as mt

from .conftest import chart, metrics, open_page, open_plan


def _powers(rows, alpha=0.05):
    return [max(acc.mcnemar_power(n, g / 100, a / 100, alpha=alpha, test="normal").rejection_rate, alpha)
            for _, n, g, a in rows]


def test_equal_benchmarks_reproduce_the_exact_holm_numbers():
    # three equal benchmarks: Holm is exact (no Monte Carlo error)
    at = open_page("claims", {"claims": "A:1000:2:90;B:1000:2:90;C:1000:2:90"})
    assert not at.exception
    shown = metrics(at)
    powers = _powers([("A", 1000, 2, 90)] * 3)
    holm = mt.family_power(powers, correction="holm")
    assert holm.method == "exact"
    assert shown["All 3 claims hold (Holm)"] == f"{100 * holm.all:.1f}%"
    assert shown["Power per claim, Holm"] == f"{100 * np.mean(holm.per_comparison):.1f}%"
    assert shown["Power per claim, unadjusted"] == f"{100 * powers[0]:.1f}%"
    assert shown["Test-set growth for 80% each"] == f"{mt.family_sample_size(3, correction='holm'):.3f}×"
    # the per-benchmark table (a static table under the charts) shows the same powers, in percent
    table = at.table[0].value
    assert list(table["Benchmark"]) == ["A", "B", "C"] and list(table["n"]) == ["1,000"] * 3
    assert list(table["Unadjusted"]) == [f"{100 * powers[0]:.1f}%"] * 3
    assert list(table["Holm"]) == [f"{100 * p:.1f}%" for p in holm.per_comparison]


def test_default_table_chart_and_correction_switch():
    at = open_page("claims")
    assert not at.exception
    fig = chart(at, "claims_chart")
    names = {t.get("name") for t in fig["data"]}
    assert {"no correction", "Bonferroni", "Holm", "Benjamini–Hochberg", "current design"} <= names
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    at.selectbox(key="correction").set_value("bonferroni").run()
    from pages.claims import DEFAULT

    bonf = mt.family_power(_powers(DEFAULT), correction="bonferroni")
    assert metrics(at)["All 5 claims hold (Bonferroni)"] == f"{100 * bonf.all:.1f}%"
    assert "claims=" in "&".join(f"{k}={v}" for k, v in at.query_params.items())


def test_unequal_powers_show_a_monte_carlo_error():
    at = open_page("claims", {"claims": "A:500:2:90;B:3000:1:92"})
    assert not at.exception
    assert any("simulated" in c.value for c in at.caption)


def test_bad_rows_are_explained_and_junk_links_fall_back():
    at = open_page("claims", {"claims": "A*:1000:20:90"})
    assert not at.exception
    assert any("Impossible rows" in e.value and "A\\*" in e.value for e in at.error)
    at = open_page("claims", {"claims": "::;x:nan:1:1;<b>y</b>:1e309:1:1"})
    assert not at.exception
    assert "All 5 claims hold (Holm)" in metrics(at)  # the default table


def test_correlation_and_plan():
    at = open_page("claims", {"claims": "A:1000:2:90;B:1000:2:90", "rho": "0.5"})
    assert not at.exception
    powers = _powers([("A", 1000, 2, 90)] * 2)
    holm = mt.family_power(powers, correction="holm", correlation=0.5)
    assert metrics(at)["All 2 claims hold (Holm)"] == f"{100 * holm.all:.1f}%"
    open_plan(at, "claims")
    assert not at.exception
    assert any("Holm" in c.value for c in at.code)


def test_a_family_as_large_as_mmlu_subjects_and_the_limit_said_out_loud():
    # MMLU's 57 subjects fit (equal rows: Holm is exact, oracle core.multiplicity); past MAX_CLAIMS the page says how
    # many rows it left out rather than dropping them silently
    from core import claims as cl

    rows = [(f"subject_{i}", 1000, 3.0, 85.0) for i in range(57)]
    at = open_page("claims", {"claims": cl.encode_claims(rows)})
    assert not at.exception
    holm = mt.family_power(_powers(rows), correction="holm")
    assert holm.method == "exact"
    assert metrics(at)["All 57 claims hold (Holm)"] == f"{100 * holm.all:.1f}%"
    assert not any("left out" in w.value for w in at.warning)
    rows = [(f"task_{i}", 1000, 2.0, 90.0) for i in range(cl.MAX_CLAIMS + 5)]
    at = open_page("claims", {"claims": cl.encode_claims(rows)})
    assert not at.exception
    assert f"All {cl.MAX_CLAIMS} claims hold (Holm)" in metrics(at)
    assert any(f"first {cl.MAX_CLAIMS} benchmarks are used and 5 more left out" in w.value for w in at.warning)


def test_benchmark_names_show_as_typed_in_the_table():
    """st.table renders Markdown in its cells: a name with markup is escaped (bold, links, math show as typed)."""
    from pages._text import md_escape

    name = "**bold** [x](e.com) $x^2$"
    at = open_page("claims", {"claims": f"{name}:1000:2:90;B:1000:2:90"})
    assert not at.exception, at.exception
    cells = list(at.table[0].value["Benchmark"])
    assert cells[0] == md_escape(name) and "\\*\\*bold\\*\\*" in cells[0] and "\\$x^2\\$" in cells[0]
    assert cells[1] == "B"


def test_one_chart_shows_each_claim_and_the_family_under_each_correction():
    """The chart's bars are each benchmark's power and then the family's P(all hold) and P(at least one holds), under
    each correction (oracle: core.multiplicity.family_power on McNemar's powers, exact for equal rows); the current
    design's marker sits on P(all hold) under the chosen correction, the metric of the same name."""
    from .conftest import decode

    rows = [("A", 1000, 2, 90)] * 3
    at = open_page("claims", {"claims": "A:1000:2:90;B:1000:2:90;C:1000:2:90", "rho": "0.3"})
    assert not at.exception
    fig = chart(at, "claims_chart")
    powers = _powers(rows)
    labels = {"none": "no correction", "bonferroni": "Bonferroni", "holm": "Holm", "bh": "Benjamini–Hochberg"}
    bars = {t["name"]: (t["x"], decode(t["y"])) for t in fig["data"] if t.get("type") == "bar"}
    assert set(bars) == set(labels.values())
    for correction, label in labels.items():
        exact = mt.family_power(powers, correction=correction, correlation=0.3)
        x, y = bars[label]
        assert x == ["A", "B", "C", "all 3 hold", "≥ 1 holds"]
        assert np.allclose(y, [*exact.per_comparison, exact.all, exact.any], atol=1e-12), label
    marker = next(t for t in fig["data"] if t.get("name") == "current design")
    holm = mt.family_power(powers, correction="holm", correlation=0.3)
    assert marker["x"] == ["all 3 hold"] and decode(marker["y"])[0] == pytest.approx(holm.all, abs=1e-12)
    assert metrics(at)["All 3 claims hold (Holm)"] == f"{100 * holm.all:.1f}%"
    # the line between the claims and the family, and the target line
    assert any(s.get("x0") == 2.5 and s.get("yref") == "paper" for s in fig["layout"]["shapes"])
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])


def test_the_family_categories_never_merge_with_a_benchmark_of_the_same_name():
    from pages.claims import family_labels

    assert family_labels(["A", "B"], 2) == ("all 2 hold", "≥ 1 holds")
    assert family_labels(["all 2 hold", "≥ 1 holds"], 2) == ("all 2 hold*", "≥ 1 holds*")


def test_the_benchmarks_are_named_above_the_key_inputs_as_typed():
    from pages._text import md_escape

    name = "**bold** [x](e.com)"
    at = open_page("claims", {"claims": f"{name}:1000:2:90;B:1000:2:90"})
    assert not at.exception
    line = next(m.value for m in at.markdown if m.value.startswith("Claims on"))
    assert "**2 benchmarks**" in line and md_escape(name) in line and "table under the chart" in line

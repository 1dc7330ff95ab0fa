"""AppTest tests of the Accuracy page's "no worse than" and "small test sets" tabs."""

from __future__ import annotations

import pytest

from core import accuracy as acc

from .conftest import chart, metrics, open_page

NOWORSE = "No worse than (non-inferiority)"
INTERVALS = "Small test sets (intervals)"


def test_noninferiority_tab_matches_core_and_draws_the_margin():
    at = open_page("accuracy", {"view": NOWORSE})
    assert not at.exception
    shown = metrics(at)
    power = acc.noninferiority_power(500, 0.02, 0.9, 0.01, alpha=0.025, test="score").power
    assert shown["Power to show no worse"] == f"{100 * power:.1f}%"
    size = acc.noninferiority_power(500, -0.01, 0.9, 0.01, alpha=0.025, test="score").power
    assert shown["False claim rate at the margin"] == f"{100 * size:.2f}%"
    first = acc.noninferiority_sample_sizes(0.02, 0.9, 0.01, method="exact").first
    assert shown["Items for 80% power (no worse)"] == f"{first:,}"
    fig = chart(at, "noworse_chart")
    shapes = fig["layout"]["shapes"]
    assert any(s.get("x0") == -1.0 for s in shapes)  # the margin
    assert any(s.get("y0") == 0.8 for s in shapes)  # the target
    names = [t.get("name") for t in fig["data"]]
    marker = fig["data"][names.index("current design")]
    assert marker["x"] == [2.0] and marker["y"][0] == pytest.approx(power)
    assert any("reversed" in m.value for m in at.markdown)


def test_equivalence_and_exact_test():
    at = open_page("accuracy", {"view": NOWORSE, "ni_margin": "3.0", "delta": "0.0"})
    at.radio(key="ni_kind").set_value("eq").run()
    at.selectbox(key="ni_test").set_value("exact").run()
    assert not at.exception
    power = acc.equivalence_power(500, 0.0, 0.9, 0.03, alpha=0.025, test="exact").power
    assert metrics(at)["Power to show equivalence"] == f"{100 * power:.1f}%"
    shapes = chart(at, "noworse_chart")["layout"]["shapes"]
    assert any(s.get("x0") == -3.0 for s in shapes) and any(s.get("x0") == 3.0 for s in shapes)
    # the exact test's false-claim rate never exceeds α
    size = float(metrics(at)["False claim rate at the margin"].rstrip("%")) / 100
    assert size <= 0.025


def test_noninferiority_tab_needs_the_paired_scenario():
    at = open_page("accuracy", {"view": NOWORSE, "scenario": "unpaired"})
    assert not at.exception
    assert any("paired" in i.value for i in at.info)


def test_intervals_tab_coverage_chart_and_sizes():
    at = open_page("accuracy", {"view": INTERVALS, "n": "150", "ci_p": "97.0"})
    assert not at.exception
    shown = metrics(at)
    wald = acc.interval_coverage(150, 0.97, method="wald")
    assert shown["Wald (CLT) coverage at 97.0%"] == f"{100 * wald:.1f}%"
    assert shown["Items for ±2 pts (Wilson)"] == f"{acc.interval_sample_size(0.97, 0.02):,}"
    fig = chart(at, "coverage_chart")
    names = {t.get("name") for t in fig["data"]}
    assert {"Wilson", "Wald / CLT", "Clopper–Pearson", "Jeffreys", "Beta (uniform prior)"} <= names
    assert any(s.get("y0") == 0.95 for s in fig["layout"]["shapes"])
    assert any("What to report" in m.value for m in at.markdown)


def test_noninferiority_plan_text():
    from .conftest import open_plan

    at = open_page("accuracy", {"view": NOWORSE})
    open_plan(at, "accuracy_noworse")
    assert not at.exception
    assert any("H0: Δ ≤ −1 pts" in c.value and "Nam (1997)" in c.value for c in at.code)


@pytest.mark.parametrize("query", [
    {"view": NOWORSE, "agreement": "99.9", "delta": "0.0", "ni_margin": "10.0"},  # margin wider than ψ
    {"view": NOWORSE, "n": "5463", "ni_test": "exact unconditional (n ≤ 2,000)"},  # beyond the exact test's range
    {"view": INTERVALS, "n": "2000000", "ci_p": "50.0", "ci_half": "10.0", "ci_level": "0.8"},
])
def test_extremes_give_numbers_or_messages(query):
    at = open_page("accuracy", query, timeout=120)
    assert not at.exception and not at.error
    if query.get("n") == "5463":
        assert any("offered up to n = 2,000" in w.value for w in at.warning)


def test_wald_choice_is_flagged_as_anti_conservative():
    at = open_page("accuracy", {"view": NOWORSE})
    assert not any("anti-conservative" in c.value for c in at.caption)
    at.selectbox(key="ni_test").set_value("wald").run()
    assert not at.exception
    size = acc.noninferiority_power(60, -0.05, 0.95, 0.05, test="wald").power
    warned = [c.value for c in at.caption if "anti-conservative" in c.value]
    assert warned and f"{100 * size:.1f}%" in warned[0]


def test_interval_sizes_say_they_measure_the_clipped_interval():
    at = open_page("accuracy", {"view": INTERVALS})
    assert not at.exception
    assert any("clipped to [0%, 100%]" in c.value and "Wald" in c.value for c in at.caption)

"""Labels per item vs more items (core.judge.labels; Dorner & Hardt 2024)."""

import itertools
import math

import numpy as np
import pytest

from core import accuracy
from core import judge as jg


def test_annotator_error_closed_form_at_half():
    # π′ = ½: P_e = ½, P_o = (1 + κ)/2, so κ = (1 − 2ε)² and ε = (1 − √κ)/2
    for kappa in (0.0, 0.2, 0.6, 0.9, 1.0):
        assert jg.annotator_error(kappa) == pytest.approx((1 - math.sqrt(kappa)) / 2)


def _kappa(r1, r2):
    po = np.mean(r1 == r2)
    p1, p2 = r1.mean(), r2.mean()
    pe = p1 * p2 + (1 - p1) * (1 - p2)
    return (po - pe) / (1 - pe), (p1 + p2) / 2


@pytest.mark.parametrize("eps,prev", [(0.15, 0.3), (0.05, 0.5), (0.2, 0.6)])
def test_annotator_error_inverts_simulated_annotators(eps, prev):
    rng = np.random.default_rng(21)
    got = []
    for _ in range(20):
        truth = rng.random(20_000) < prev
        r1 = truth ^ (rng.random(truth.size) < eps)
        r2 = truth ^ (rng.random(truth.size) < eps)
        k, p_obs = _kappa(r1.astype(float), r2.astype(float))
        got.append(jg.annotator_error(k, p_obs))
    got = np.array(got)
    assert abs(got.mean() - eps) < 4 * got.std(ddof=1) / math.sqrt(got.size) + 1e-4
    # the observed prevalence relation: π′ = π(1 − ε) + (1 − π)ε, so π = (π′ − ε)/(1 − 2ε)
    p_obs = prev * (1 - eps) + (1 - prev) * eps
    pe = p_obs**2 + (1 - p_obs) ** 2
    po = eps**2 + (1 - eps) ** 2
    assert jg.annotator_error((po - pe) / (1 - pe), p_obs) == pytest.approx(eps)


def test_majority_error_by_enumeration():
    for eps in (0.05, 0.2, 0.4):
        for k in (1, 3, 5, 7):
            want = sum(eps ** sum(w) * (1 - eps) ** (k - sum(w))
                       for w in itertools.product((0, 1), repeat=k) if sum(w) > k / 2)
            assert jg.majority_error(eps, k) == pytest.approx(want)
    with pytest.raises(ValueError, match="`k`"):
        jg.majority_error(0.1, 4)


def test_noisy_cells_by_simulation():
    rng = np.random.default_rng(2)
    n, p10, p01, e = 400_000, 0.12, 0.05, 0.1
    truth = rng.random(n) < 0.4
    cell = rng.choice(4, size=n, p=[0.6, p10, p01, 1 - 0.6 - p10 - p01])  # both right, only A, only B, both wrong
    a_right = np.isin(cell, (0, 1))
    b_right = np.isin(cell, (0, 2))
    pred_a, pred_b = np.where(a_right, truth, ~truth), np.where(b_right, truth, ~truth)
    ref = truth ^ (rng.random(n) < e)
    na, nb = pred_a == ref, pred_b == ref
    emp10, emp01 = np.mean(na & ~nb), np.mean(~na & nb)
    q10, q01 = jg.noisy_cells(p10, p01, e)
    for emp, q in ((emp10, q10), (emp01, q01)):
        assert abs(emp - q) < 4 * math.sqrt(q * (1 - q) / n)
    assert q10 + q01 == pytest.approx(p10 + p01)
    assert q10 - q01 == pytest.approx((1 - 2 * e) * (p10 - p01))


@pytest.mark.parametrize("delta,agreement", [(0.02, 0.9), (0.05, 0.8), (0.03, 0.85), (0.1, 0.7)])
def test_connor_matches_the_accuracy_engine(delta, agreement):
    psi = 1 - agreement
    p10, p01 = (psi + delta) / 2, (psi - delta) / 2
    n = math.ceil(jg.connor_sample_size(p10, p01))
    assert n == accuracy.mcnemar_sample_size(delta, agreement, test="normal")
    exact = accuracy.mcnemar_power(n, delta, agreement, test="exact").power
    assert abs(exact - 0.8) < 0.03  # the normal approximation is close to the exact test's power


def test_labels_plan_table_costs_and_break_even():
    plan = jg.labels_per_item(0.08, 0.04, kappa=0.6, cost_item=0.5, cost_label=1.0, max_labels=7)
    t = plan.table
    assert t["labels"].tolist() == [1, 3, 5, 7]
    assert list(t.columns[:4]) == ["labels", "error", "items", "cost"]
    eps = jg.annotator_error(0.6)
    for _, row in t.iterrows():
        k = int(row["labels"])
        e = jg.majority_error(eps, k)
        assert row["error"] == pytest.approx(e)
        q10, q01 = jg.noisy_cells(0.08, 0.04, e)
        assert row["items"] == math.ceil(jg.connor_sample_size(q10, q01))
        assert row["cost"] == pytest.approx(row["items"] * (0.5 + k))
        assert row["gap"] == pytest.approx((1 - 2 * e) * 0.04)
    assert plan.best == int(t.loc[t["cost"].idxmin(), "labels"])
    assert t["error"].is_monotonic_decreasing and t["items"].is_monotonic_decreasing
    # at the break-even item cost, one label and three labels per item cost the same
    c = plan.break_even_cost_item
    even = jg.labels_per_item(0.08, 0.04, kappa=0.6, cost_item=c, cost_label=1.0).table
    assert even["cost"].iloc[0] == pytest.approx(even["cost"].iloc[1])
    above = jg.labels_per_item(0.08, 0.04, kappa=0.6, cost_item=c * 1.5 + 1).table
    assert above["cost"].iloc[1] < above["cost"].iloc[0]


def test_quantity_beats_quality_for_free_items():
    # Dorner & Hardt 2024: with negligible item cost one label per item is cheapest
    for kappa in (0.3, 0.6, 0.9):
        assert jg.labels_per_item(0.1, 0.05, kappa=kappa).best == 1
    assert math.isinf(jg.labels_per_item(0.1, 0.05, kappa=1.0).break_even_cost_item)


def test_validation():
    with pytest.raises(ValueError, match="`kappa`"):
        jg.labels_per_item(0.1, 0.05, kappa=0.0)
    with pytest.raises(ValueError, match="`p10`"):
        jg.labels_per_item(0.1, 0.1, kappa=0.5)
    with pytest.raises(ValueError, match="`prevalence`"):
        jg.annotator_error(0.5, 1.0)
    t = jg.labels_teaser()
    assert t.shown == str(jg.labels_per_item(0.08, 0.04, kappa=0.6).best)


def test_plan_item_states_the_engines_numbers():
    from core.judge import plan as judge_plan

    plan = jg.labels_per_item(0.08, 0.04, kappa=0.4, cost_item=20.0, cost_label=1.0)
    design = jg.JudgePageDesign(p10_pct=8.0, p01_pct=4.0, labels_kappa=0.4, labels_prevalence=0.5, cost_item=20.0,
                                cost_label=1.0, alpha=0.05, target_power=0.8)
    again = design.labels_plan()  # the design's plan is the engine's at the same values
    assert again.best == plan.best and again.table.equals(plan.table)
    item = judge_plan.labels_plan_item(design, plan, currency="EUR")
    row = plan.table.set_index("labels").loc[plan.best]
    results = dict(item.results)
    assert results["labels per item"] == str(plan.best)
    assert results["items"] == f"{int(row['items']):,}"
    assert results["cost"] == f"EUR {row['cost']:,.2f}"
    assert item.cost == pytest.approx(row["cost"])
    assert "Dorner & Hardt" in item.paragraph


def test_majority_labels_reach_the_planned_power_by_simulation():
    """End to end, from scratch: annotators with error ε vote, the majority is the reference, McNemar's z test
    (the test Connor's formula plans) is run on the noisy correctness; power at n_k ≈ the target, and with no gap
    the false-positive rate stays at α."""
    from scipy import stats as st

    rng = np.random.default_rng(12)
    p10, p01, kappa, reps = 0.08, 0.04, 0.6, 1500
    plan = jg.labels_per_item(p10, p01, kappa=kappa, max_labels=3)
    eps = plan.annotator_error
    z = st.norm.isf(0.025)

    def rejections(n, k, q10, q01):
        cell = rng.choice(4, size=(reps, n), p=[0.5, q10, q01, 0.5 - q10 - q01])
        a_right, b_right = np.isin(cell, (0, 1)), np.isin(cell, (0, 2))
        wrong_votes = (rng.random((reps, n, k)) < eps).sum(axis=2)
        flipped = wrong_votes > k / 2  # the majority reference is wrong
        a_ok, b_ok = a_right ^ flipped, b_right ^ flipped
        b = (a_ok & ~b_ok).sum(axis=1)
        c = (~a_ok & b_ok).sum(axis=1)
        stat = (b - c) / np.sqrt(np.maximum(b + c, 1))
        return np.abs(stat) > z, stat

    for k in (1, 3):
        n = int(plan.table.set_index("labels").loc[k, "items"])
        hit, stat = rejections(n, k, p10, p01)
        power = np.mean(hit & (stat > 0))
        mc = math.sqrt(0.8 * 0.2 / reps)
        assert abs(power - 0.8) < 4 * mc + 0.02  # Connor's normal approximation is within ~2 points here
    hit, _ = rejections(600, 3, 0.06, 0.06)
    assert hit.mean() <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps)


def test_target_power_at_or_below_alpha_and_an_undetectable_gap_are_refused():
    """At target power ≤ α Connor's formula asks for more items to get less power (13 items at 0.05, 157 at
    0.001); a gap of 10⁻¹⁷ needs infinitely many items. Both are refused with a ValueError naming the parameter."""
    with pytest.raises(ValueError, match=r"`target_power` must be in \(0.05, 1\)"):
        jg.labels_per_item(0.08, 0.04, kappa=0.6, target_power=0.05)
    with pytest.raises(ValueError, match="`target_power`"):
        jg.connor_sample_size(0.08, 0.04, target_power=0.001)
    with pytest.raises(ValueError, match="`p10` and `p01` differ by too little"):
        jg.labels_per_item(float(np.nextafter(0.3, 1)), 0.3, kappa=0.6)

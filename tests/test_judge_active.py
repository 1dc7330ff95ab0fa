"""Active labelling (core.judge.active): water-filling, closed-form SEs, and the IPW estimator by simulation."""

import math

import numpy as np
import pytest
from scipy import optimize

from core import judge as jg


def test_probabilities_sum_cap_and_proportionality():
    f = np.random.default_rng(3).beta(0.4, 0.4, 500)
    for n in (5, 50, 200, 450, 500):
        pi = jg.label_probabilities(f, n)
        assert pi.sum() == pytest.approx(n, rel=1e-9)
        assert pi.min() > 0 and pi.max() <= 1 + 1e-12
        # independent oracle: solve Σ min(1, c·u_i) = n for c by root finding
        u = np.sqrt(f * (1 - f))
        c = optimize.brentq(lambda c: np.minimum(1, c * u).sum() - n, 1e-9, 1e9, xtol=1e-14)
        free = pi < 1 - 1e-9
        np.testing.assert_allclose(pi[free], np.minimum(1, c * u)[free], rtol=1e-6, atol=1e-12)
    assert np.all(jg.label_probabilities(f, 500) == 1.0)


def test_mixing_with_uniform_share():
    f = jg.beta_confidences(0.5, 0.5, 200)
    act, uni = jg.label_probabilities(f, 40), np.full(200, 0.2)
    mixed = jg.label_probabilities(f, 40, min_share=0.25)
    np.testing.assert_allclose(mixed, 0.75 * act + 0.25 * uni)
    assert mixed.min() >= 0.25 * 0.2 - 1e-12
    np.testing.assert_allclose(jg.label_probabilities(f, 40, min_share=1.0), uni)
    assert jg.active_se(f, 40, min_share=1.0) == pytest.approx(jg.active_se(f, 40, policy="uniform"))


def test_closed_forms_two_ways():
    f = jg.beta_confidences(0.5, 0.5, 1000)
    u2, n, big = f * (1 - f), 100, 1000
    sigma2 = f.mean() * (1 - f.mean())  # binary labels: mean(u²) + Var(f) = p̄(1 − p̄)
    assert u2.mean() + f.var() == pytest.approx(sigma2)
    assert jg.active_se(f, n, policy="human") == pytest.approx(math.sqrt(sigma2 / n))
    # uniform (PPI, λ = 1): mean(u²)·(1/n − 1/N) + σ²/N
    assert jg.active_se(f, n, policy="uniform") == pytest.approx(math.sqrt(u2.mean() * (1 / n - 1 / big) + sigma2 / big))
    # active without capping (all c·u_i < 1): (Σu)²/(N²n) − Σu²/N² (Cauchy–Schwarz optimum)
    pi = jg.label_probabilities(f, n)
    assert pi.max() < 1
    u = np.sqrt(u2)
    items = u.sum() ** 2 / (big**2 * n) - u2.sum() / big**2
    assert jg.active_se(f, n, target="items") == pytest.approx(math.sqrt(items))
    assert jg.active_se(f, n) == pytest.approx(math.sqrt(items + sigma2 / big))
    assert jg.active_se(f, n) < jg.active_se(f, n, policy="uniform") < jg.active_se(f, n, policy="human")
    # labelling every item: the population SE is that of N human labels
    assert jg.active_se(f, big) == pytest.approx(jg.active_se(f, big, policy="human"))
    assert jg.active_se(f, big, target="items") == 0.0


def _simulate(f_draw, n, reps, rng, policy="active"):
    est, truth_items, se2 = [], [], []
    for _ in range(reps):
        f = f_draw(rng)
        pi = jg.label_probabilities(f, n) if policy == "active" else np.full(f.size, n / f.size)
        y = (rng.random(f.size) < f).astype(float)
        seen = rng.random(f.size) < pi
        est.append(jg.active_estimate(f, np.where(seen, y, np.nan), pi))
        truth_items.append(y.mean())
        se2.append(jg.active_se(f, n, policy=policy) ** 2)
    return np.array(est), np.array(truth_items), np.array(se2)


@pytest.mark.parametrize("policy", ["active", "uniform"])
def test_ipw_estimator_sd_matches_active_se_population(policy):
    a, b, big, n, reps = 0.5, 0.7, 300, 40, 3000
    rng = np.random.default_rng(11)
    est, _, se2 = _simulate(lambda r: r.beta(a, b, big), n, reps, rng, policy)
    theta = a / (a + b)
    sq = (est - theta) ** 2
    mc_se = sq.std(ddof=1) / math.sqrt(reps)
    assert abs(sq.mean() - se2.mean()) < 4 * mc_se
    assert abs(est.mean() - theta) < 4 * est.std(ddof=1) / math.sqrt(reps)  # unbiased


def test_ipw_estimator_items_target_and_unbiased_with_a_miscalibrated_judge():
    rng = np.random.default_rng(5)
    big, n, reps = 400, 60, 4000
    f = jg.beta_confidences(0.5, 0.5, big)
    pi = jg.label_probabilities(f, n)
    truth_p = np.clip(f * 0.7 + 0.2, 0, 1)  # the judge is off: E[Y|f] ≠ f; IPW stays unbiased
    y = rng.random((reps, big)) < truth_p
    seen = rng.random((reps, big)) < pi
    est = f.mean() + ((y - f) * seen / pi).sum(axis=1) / big
    err = est - y.mean(axis=1)
    assert abs(err.mean()) < 4 * err.std(ddof=1) / math.sqrt(reps)
    # calibrated labels: the variance around the N items' own mean is the items-target SE²
    y = rng.random((reps, big)) < f
    err = f.mean() + ((y - f) * seen / pi).sum(axis=1) / big - y.mean(axis=1)
    sq = err**2
    assert abs(sq.mean() - jg.active_se(f, n, target="items") ** 2) < 4 * sq.std(ddof=1) / math.sqrt(reps)


def test_gap_of_two_models_by_simulation():
    rng = np.random.default_rng(8)
    big, n, reps = 300, 50, 4000
    fa, fb = jg.beta_confidences(0.6, 0.5, big), rng.permutation(jg.beta_confidences(0.5, 0.6, big))
    pred, u2 = jg.gap_conditional_variance(fa, fb)
    np.testing.assert_allclose(u2, fa * (1 - fa) + fb * (1 - fb))
    pi = jg.label_probabilities(pred, n, conditional_variance=u2)
    assert pi.sum() == pytest.approx(n)
    d = (rng.random((reps, big)) < fa).astype(float) - (rng.random((reps, big)) < fb)
    seen = rng.random((reps, big)) < pi
    err = pred.mean() + ((d - pred) * seen / pi).sum(axis=1) / big - d.mean(axis=1)
    sq = err**2
    want = jg.active_se(pred, n, conditional_variance=u2, target="items") ** 2
    assert abs(sq.mean() - want) < 4 * sq.std(ddof=1) / math.sqrt(reps)
    sigma2 = u2.mean() + pred.var()
    assert jg.active_se(pred, n, policy="human", conditional_variance=u2) == pytest.approx(math.sqrt(sigma2 / n))


@pytest.mark.parametrize("policy", ["human", "uniform", "active"])
def test_labels_for_target_se_is_the_first(policy):
    f = jg.beta_confidences(0.5, 0.5, 2000)
    n = jg.active_labels_for_se(f, 0.03, policy=policy)
    assert jg.active_se(f, n, policy=policy) <= 0.03 + 1e-12
    assert jg.active_se(f, n - 1, policy=policy) > 0.03
    assert jg.active_labels_for_se(f, 0.001) == -1  # below the floor σ/√N


def test_item_list_is_seeded_and_weighted():
    f = jg.beta_confidences(0.5, 0.5, 1000)
    one, two = jg.active_item_list(f, 100, seed=4), jg.active_item_list(f, 100, seed=4)
    assert one.equals(two)
    assert list(one.columns) == ["item", "confidence", "probability", "weight", "label"]
    np.testing.assert_allclose(one["weight"], 1 / one["probability"])
    assert abs(one["label"].sum() - 100) < 4 * math.sqrt((one.probability * (1 - one.probability)).sum())
    assert not one.equals(jg.active_item_list(f, 100, seed=5))


def test_validation_names_the_parameter():
    f = [0.2, 0.5, 0.9]
    with pytest.raises(ValueError, match="`n_human`"):
        jg.label_probabilities(f, 4)
    with pytest.raises(ValueError, match="`confidence`"):
        jg.active_se([0.2, 1.3], 1)
    with pytest.raises(ValueError, match="`policy`"):
        jg.active_se(f, 1, policy="random")
    with pytest.raises(ValueError, match="`min_share`"):
        jg.active_se(f, 1, min_share=2)
    # arrays that are not numbers, not one value per item, or a policy that is not a name
    for bad, name in ((["a", "b"], "confidence"), ([1j, 0.5], "confidence"), ([[0.2, 0.5], [0.1, 0.3]], "confidence")):
        with pytest.raises(ValueError, match=f"`{name}`"):
            jg.active_se(bad, 1)
    with pytest.raises(ValueError, match="`policy`"):
        jg.active_se(f, 1, policy=np.array(["active"]))
    with pytest.raises(ValueError, match="`ns`"):
        jg.active_curve(f, 2)
    with pytest.raises(ValueError, match="`items`"):
        jg.active_item_list(f, 2, items=3)
    with pytest.raises(ValueError, match="`confidence` must hold at least one item"):
        jg.active_estimate([], [], [])
    # SE targets: one so large its square overflows, and PPI plans whose target needs more items than the cap
    with pytest.raises(ValueError, match="`target_se` must be in"):
        jg.active_labels_for_se(f, 1e160)
    from core.judge.ppi import ppi_plan

    for key in ("target_se", "delta"):
        with pytest.raises(ValueError, match=f"`{key}` is too small"):
            ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, **{key: 1e-12})


def test_teaser_matches_the_tab_defaults():
    t = jg.active_teaser()
    f = jg.beta_confidences(0.5, 0.5, 1000)
    assert t.value == pytest.approx(jg.active_se(f, 100))
    assert t.shown == f"{100 * t.value:.2f} pts"  # the tab's SE of a label rate, in points


def test_plan_item_states_the_engines_numbers():
    from core.judge import plan as judge_plan

    f = jg.beta_confidences(0.5, 0.5, 1000)
    d = jg.ActiveDesign(tuple(f), 100, 0.1)
    need = {p: jg.active_labels_for_se(f, 0.03, policy=p, min_share=0.1) for p in jg.POLICIES}
    item = judge_plan.active_plan_item(d, target_se=0.03, labels_needed=need, source="Beta(0.5, 0.5)")
    results = dict(item.results)
    assert results["SE, active labels"] == f"{jg.active_se(f, 100, min_share=0.1):.4f}"
    assert results["SE, human labels only"] == f"{jg.active_se(f, 100, policy='human'):.4f}"
    assert results["labels for SE 0.03, active"] == f"{need['active']:,}"
    assert "mixed with 10% uniform" in item.paragraph
    with pytest.raises(ValueError, match="`design`"):
        judge_plan.active_plan_item(None, target_se=0.03, labels_needed={}, source="x")


def test_curve_matches_pointwise_se():
    f = jg.beta_confidences(0.7, 0.4, 800)
    ns = (1, 10, 100, 799, 800)
    curve = jg.active_curve(f, ns, min_share=0.2)
    assert list(curve.columns) == ["n_human", "policy", "label", "se"]
    for row in curve.itertuples():
        assert row.se == pytest.approx(jg.active_se(f, row.n_human, policy=row.policy, min_share=0.2), rel=1e-12)


def test_a_vanishing_target_se_is_refused_not_a_crash():
    """σ²/SE² for SE = 10⁻¹⁷⁰ divided by an underflowed 0 (ZeroDivisionError), or returned a 200-digit count."""
    f = jg.beta_confidences(2, 2, 1000)
    for tiny in (1e-170, 1e-100):
        with pytest.raises(ValueError, match="`target_se` is too small"):
            jg.active_labels_for_se(f, tiny, policy="human")


def test_active_estimate_refuses_a_missing_confidence_or_an_infinite_label():
    """A NaN confidence made the estimate NaN without a word; an infinite label made it infinite."""
    with pytest.raises(ValueError, match="`confidence`"):
        jg.active_estimate([np.nan, 0.5], [np.nan, 1.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="`labels`"):
        jg.active_estimate([0.4, 0.5], [np.inf, 1.0], [0.5, 0.5])
    # the estimator itself: mean(f) + Σ_labelled (y − f)/π / N
    assert jg.active_estimate([0.4, 0.5], [np.nan, 1.0], [0.5, 0.5]) == pytest.approx(0.45 + (1.0 - 0.5) / 0.5 / 2)


def test_calibrated_confidence_is_never_certain():
    """A pilot where all 60 judge-positive items were labelled 1 gives them (60 + ½)/(60 + 1), not 1: with f = 1
    their label probability was ~3e-10 and their weight ~3e9, with no variance counted for them. The other bin:
    (85 + ½)/(340 + 1)."""
    human = np.r_[np.ones(60), np.ones(85), np.zeros(255)]
    judge = np.r_[np.ones(60), np.zeros(340)]
    f = jg.calibrated_confidence(human, judge)
    assert f[0] == pytest.approx(60.5 / 61) and f[-1] == pytest.approx(85.5 / 341)
    pi = jg.label_probabilities(f, 40)
    assert pi.min() > 0.01 and 0 < f.min() and f.max() < 1

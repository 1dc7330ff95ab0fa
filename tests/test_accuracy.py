"""Tests of core.accuracy against independent oracles.

Oracles: brute-force enumeration of every 2×2 table (scipy multinomial pmf +
statsmodels ``mcnemar``), statsmodels on simulated tables, closed forms
(MESS / R ``power.prop.test`` documented values), and numbers printed in
Card et al. (2020) — section/table cited at each test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.proportion import power_proportions_2indep

from core import accuracy as acc


# ---------------------------------------------------------------------------
# brute-force oracle
# ---------------------------------------------------------------------------
def _oracle_pvalue(b: int, c: int, test: str) -> float:
    """p-value straight from statsmodels (or the mid-p definition, Fagerland 2013)."""
    if b + c == 0:
        return 1.0
    table = [[0, b], [c, 0]]
    if test == "exact":
        return float(sm_mcnemar(table, exact=True).pvalue)
    if test == "chi2":
        return float(sm_mcnemar(table, exact=False, correction=False).pvalue)
    if test == "chi2_cc":
        return float(sm_mcnemar(table, exact=False, correction=True).pvalue)
    if test == "midp":
        d, k = b + c, min(b, c)
        pmf = [math.comb(d, i) * 0.5**d for i in range(d + 1)]
        p = 2 * (sum(pmf[:k]) + 0.5 * pmf[k])  # Fagerland et al. (2013), eq. for mid-p
        return min(p, 1.0)
    raise AssertionError(test)


def _enumerate(n, delta, agreement, test, alpha=0.05):
    """Power, Type-S, Type-M by summing over every table (b, c, rest) of size n."""
    p10 = (1 - agreement + delta) / 2
    p01 = (1 - agreement - delta) / 2
    power = wrong = abs_sum = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            prob = stats.multinomial.pmf([b, c, n - b - c], n, [p10, p01, agreement])
            if prob == 0 or _oracle_pvalue(b, c, test) > alpha:
                continue
            effect = (b - c) / n
            abs_sum += prob * abs(effect)
            if np.sign(effect) == np.sign(delta):
                power += prob
            else:
                wrong += prob
    rejection = power + wrong
    return power, wrong / rejection, abs_sum / rejection / abs(delta), rejection


@pytest.mark.parametrize("test", ["exact", "midp", "chi2", "chi2_cc"])
@pytest.mark.parametrize("n, delta, agreement", [(12, 0.1, 0.6), (25, -0.08, 0.7), (30, 0.2, 0.5)])
def test_exact_engine_matches_enumeration(n, delta, agreement, test):
    power, type_s, type_m, rejection = _enumerate(n, delta, agreement, test)
    res = acc.mcnemar_power(n, delta, agreement, test=test)
    assert res.power == pytest.approx(power, abs=1e-10)
    assert res.type_s == pytest.approx(type_s, abs=1e-10)
    assert res.type_m == pytest.approx(type_m, rel=1e-10)
    assert res.rejection_rate == pytest.approx(rejection, abs=1e-10)
    assert res.mc_se == 0.0


@pytest.mark.parametrize("test", ["exact", "chi2", "chi2_cc"])
def test_pvalues_match_statsmodels_on_simulated_tables(test):
    rng = np.random.default_rng(7)
    counts = rng.multinomial(300, [0.07, 0.05, 0.88], size=300)
    b, c = counts[:, 0], counts[:, 1]
    ours = acc.pvalue_from_counts(np.minimum(b, c), b + c, test)
    theirs = [_oracle_pvalue(int(x), int(y), test) for x, y in zip(b, c)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-14)


# ---------------------------------------------------------------------------
# the two engines agree (Monte Carlo within its standard error)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "n, delta, agreement, test",
    [(500, 0.02, 0.9, "exact"), (200, -0.03, 0.85, "midp"), (1000, 0.01, 0.95, "chi2_cc"), (80, 0.04, 0.8, "chi2")],
)
def test_simulate_agrees_with_exact(n, delta, agreement, test):
    exact = acc.mcnemar_power(n, delta, agreement, test=test)
    mc = acc.mcnemar_power(n, delta, agreement, test=test, method="simulate", n_sims=20_000, seed=11)
    assert mc.n_sims == 20_000 and mc.mc_se > 0
    # 4 standard errors: a false alarm has probability ~6e-5 per comparison
    assert abs(mc.power - exact.power) <= 4 * mc.mc_se
    assert abs(mc.type_m - exact.type_m) <= 4 * mc.type_m_se
    assert abs(mc.type_s - exact.type_s) <= 4 * mc.type_s_se + 1e-9
    assert mc.mc_se == pytest.approx(math.sqrt(mc.power * (1 - mc.power) / 20_000))


def test_simulate_is_reproducible_with_seed():
    a = acc.mcnemar_power(300, 0.03, 0.9, method="simulate", n_sims=1000, seed=5)
    b = acc.mcnemar_power(300, 0.03, 0.9, method="simulate", n_sims=1000, seed=5)
    assert a == b


def test_normal_closed_form_agrees_with_simulated_asymptotic_test():
    # the closed form approximates the uncorrected asymptotic test
    closed = acc.mcnemar_power(3000, 0.01, 0.93, test="normal")
    mc = acc.mcnemar_power(3000, 0.01, 0.93, test="chi2", method="simulate", n_sims=40_000, seed=3)
    assert abs(closed.power - mc.power) <= 4 * mc.mc_se
    assert abs(closed.type_m - mc.type_m) <= 4 * mc.type_m_se


# ---------------------------------------------------------------------------
# values printed in the papers / reference implementations
# ---------------------------------------------------------------------------
def test_appendix_c_numerical_example():
    # Card et al. 2020, appendix C: n = 500, Δ = 0.02, P_a = 0.9 → power ≈ 0.25, Type-M ≈ 1.9;
    # n = 2000 → "nearly 80%" power with Type-M ≈ 1.1.
    small = acc.mcnemar_power(500, 0.02, 0.9)
    assert round(small.power, 2) == 0.25
    assert round(small.type_m, 1) == 1.9
    large = acc.mcnemar_power(2000, 0.02, 0.9)
    assert 0.75 <= large.power < 0.80
    assert round(large.type_m, 1) == 1.1


def test_appendix_c_cells():
    # Table 4: P_a = 0.9, Δ = 0.02 → p10 = 0.06, p01 = 0.04
    from core.accuracy.paired import _cells

    p_disc, q = _cells(0.02, 0.9)
    assert p_disc * q == pytest.approx(0.06)
    assert p_disc * (1 - q) == pytest.approx(0.04)


def test_figure_1_preferences():
    # Card et al. 2020, Figure 1: 65% prefer B; n = 100 gives > 80% power, n = 25 about 30%.
    assert acc.preference_power(100, 0.35, 0.65).power > 0.8
    assert acc.preference_power(25, 0.35, 0.65).power == pytest.approx(0.30, abs=0.01)
    # oracle: enumerate the binomial with scipy's binomtest
    n, p_b = 25, 0.65
    power = sum(
        stats.binom.pmf(x, n, p_b) for x in range(n + 1)
        if stats.binomtest(x, n, 0.5).pvalue <= 0.05 and x > n / 2
    )
    assert acc.preference_power(n, 0.35, 0.65).power == pytest.approx(power, abs=1e-12)


def test_preferences_with_ties_drop_and_split():
    # drop: sign test on the 60 non-tied raters is McNemar with P_a = tie rate
    dropped = acc.preference_power(200, 0.35, 0.25, ties="drop")
    same = acc.mcnemar_power(200, 0.10, 0.40)
    assert dropped.power == pytest.approx(same.power, abs=1e-12)
    # split: every rater counts, X ~ Bin(n, p_a + ties/2); oracle by enumeration
    n, p = 60, 0.35 + 0.40 / 2
    power = sum(
        stats.binom.pmf(x, n, p) for x in range(n + 1) if stats.binomtest(x, n, 0.5).pvalue <= 0.05 and x > n / 2
    )
    assert acc.preference_power(n, 0.35, 0.25, ties="split").power == pytest.approx(power, abs=1e-12)


def test_mess_normal_sample_size():
    # MESS power_mcnemar_test(paid = 0.05, psi = 45/5, power = .8)$n rounds to 22 (its test suite):
    # p01 = 0.05, p10 = 0.45 → P_a = 0.5, Δ = 0.4.
    # MESS reports the continuous solution n = 22.01; the smallest whole test set is 23.
    assert acc.mcnemar_power(22, 0.4, 0.5, test="normal").power == pytest.approx(0.8, abs=1e-3)
    assert acc.mcnemar_sample_size(0.4, 0.5, test="normal") == 23


# Card et al. 2020, Table 2 "Est. MDE (%)" (regression prior). The paper used the exact unconditional
# test (normal approximation for QQP); the closed form matches within 0.03 pp for n ≥ 1,725.
# WNLI (n = 147) is where the tests differ most: 5.42 vs 5.26 (checked separately).
TABLE2 = [("MRPC", 1.62), ("SST-2", 1.02), ("RTE", 1.23), ("QNLI", 0.55), ("MNLI-m", 0.67),
          ("MNLI-mm", 0.68), ("QQP", 0.11), ("SQuAD 2.0", 0.556)]


@pytest.mark.parametrize("task, printed", TABLE2)
def test_table2_regression_mde(task, printed):
    row = acc.GLUE_TASKS.set_index("task").loc[task]
    mde = acc.mcnemar_mde(int(row.n), baseline=row.sota, prior=row.prior)
    assert 100 * mde == pytest.approx(printed, abs=0.03)


def test_table2_wnli_small_sample_gap():
    mde = acc.mcnemar_mde(147, baseline=0.945, prior="glue")
    assert 5.26 < 100 * mde < 5.5  # normal approximation is slightly more conservative at n = 147


# Card et al. 2020, appendix Table 9: Lachenbruch (1992) mid-point (low, high) and binomial MDEs (%).
TABLE9 = [
    ("WNLI", 147, 0.945, 5.42, 5.45, 5.38),
    ("MRPC", 1725, 0.920, 1.91, 2.48, 2.40),
    ("SST-2", 1821, 0.972, 1.10, 1.35, 1.34),
    ("RTE", 3000, 0.917, 1.48, 1.96, 1.89),
    ("QNLI", 5463, 0.975, 0.60, 0.78, 0.77),
    ("MNLI-m", 9796, 0.916, 0.82, 1.12, 1.08),
    ("MNLI-mm", 9847, 0.913, 0.84, 1.14, 1.09),
    ("QQP", 390965, 0.910, 0.13, 0.19, 0.18),
    ("SQuAD 2.0", 8862, 0.90724, 0.91, 1.23, 1.18),
]


@pytest.mark.parametrize("task, n, sota, mid, high, binomial", TABLE9)
def test_table9_lachenbruch_and_binomial(task, n, sota, mid, high, binomial):
    bounds = acc.lachenbruch_mde(n, sota)
    # Lachenbruch: the paper's R code (biostatUZH sampleSizeMcNemar) searches a 1e-4 grid of joint
    # probabilities and rounds n up, so its printed MDEs sit within one printed unit (0.01 pp) of the
    # exact solution. Binomial: printed to two decimals (SQuAD's 1.1851 appears as 1.18).
    assert 100 * bounds.mid == pytest.approx(mid, abs=0.0101)
    assert 100 * bounds.high == pytest.approx(high, abs=0.0101)
    assert bounds.low < bounds.mid < bounds.high
    assert 100 * acc.unpaired_mde(n, sota) == pytest.approx(binomial, abs=0.006)


def test_table5_and_table6_regressions():
    # equation (2) with the Table 5 coefficients; Table 6 for SQuAD 2.0
    assert acc.agreement_prior(0.9, 0.01, "glue") == pytest.approx(0.4142 + 0.5819 * 0.9 - 0.4662 * 0.01)
    assert acc.agreement_prior(0.85, 0.01, "squad") == pytest.approx(0.4339 + 0.5932 * 0.85 - 1.2849 * 0.01)


def test_agreement_prior_clipped_to_feasible_range():
    # at a 99.5% baseline the GLUE line predicts more disagreement than two models can have
    agree = acc.agreement_prior(0.995, 0.004, "glue")
    p1, p2 = 0.995, 0.999
    assert 1 - agree <= (2 - p1 - p2) + 1e-12


def test_power_prop_test_documented_value():
    # R: power.prop.test(n = 50, p1 = .50, p2 = .75) → power = 0.7401659 (one tail, strict = FALSE);
    # our rejection rate adds the negligible opposite tail (strict = TRUE).
    res = acc.unpaired_power(50, 0.5, 0.25)
    assert res.power == pytest.approx(0.7401659, abs=1e-6)
    assert res.rejection_rate == pytest.approx(float(power_proportions_2indep(0.25, 0.5, 50).power))


def test_unpaired_type_m_by_simulation():
    # oracle: simulate two binomial samples and the pooled z test (statsmodels' model)
    rng = np.random.default_rng(2)
    n, p1, delta = 400, 0.8, 0.04
    x1 = rng.binomial(n, p1, size=100_000)
    x2 = rng.binomial(n, p1 + delta, size=100_000)
    diff = (x2 - x1) / n
    pooled = (x1 + x2) / (2 * n)
    z = diff / np.sqrt(2 * pooled * (1 - pooled) / n)
    sig = np.abs(z) >= stats.norm.isf(0.025)
    res = acc.unpaired_power(n, p1, delta)
    se = math.sqrt(res.rejection_rate * (1 - res.rejection_rate) / 100_000)
    # discreteness moves the exact rate off the normal approximation by more than MC error;
    # allow the approximation error seen in Table 9 checks (≤ 1 point) on top of 4 SE
    assert abs(sig.mean() - res.rejection_rate) <= 4 * se + 0.01
    ratio = np.abs(diff[sig]).mean() / delta
    assert res.type_m == pytest.approx(ratio, rel=0.03)


# ---------------------------------------------------------------------------
# null calibration, round trips, monotonicity
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("test", ["exact", "chi2_cc"])
@pytest.mark.parametrize("n", [10, 37, 200, 1500])
@pytest.mark.parametrize("agreement", [0.5, 0.9])
def test_null_calibration_exact(test, n, agreement):
    res = acc.mcnemar_power(n, 0.0, agreement, test=test, alpha=0.05)
    assert res.power == res.rejection_rate <= 0.05
    assert math.isnan(res.type_s) and math.isnan(res.type_m)


def test_null_calibration_montecarlo():
    res = acc.mcnemar_power(400, 0.0, 0.85, method="simulate", n_sims=20_000, seed=9)
    assert res.rejection_rate <= 0.05 + 3 * res.mc_se


def test_null_preferences_calibrated():
    assert acc.preference_power(57, 0.4, 0.4).rejection_rate <= 0.05
    assert acc.unpaired_power(500, 0.9, 0.0).rejection_rate == pytest.approx(0.05, abs=1e-12)


@pytest.mark.parametrize("test", ["normal", "exact"])
def test_mde_round_trip(test):
    mde = acc.mcnemar_mde(800, agreement=0.92, test=test)
    assert acc.mcnemar_power(800, mde, 0.92, test=test).power == pytest.approx(0.8, abs=1e-6)


def test_mde_with_prior_round_trip():
    mde = acc.mcnemar_mde(3000, baseline=0.917, prior="glue")
    agree = acc.agreement_prior(0.917, mde, "glue")
    assert acc.mcnemar_power(3000, mde, agree, test="normal").power == pytest.approx(0.8, abs=1e-6)


def test_mde_unreachable_is_nan():
    assert math.isnan(acc.mcnemar_mde(5, agreement=0.99, test="exact"))


@pytest.mark.parametrize("test", ["exact", "normal", "midp"])
def test_sample_size_is_smallest_reaching_target(test):
    n = acc.mcnemar_sample_size(0.03, 0.9, test=test)
    assert acc.mcnemar_power(n, 0.03, 0.9, test=test).power >= 0.8
    assert acc.mcnemar_power(n - 1, 0.03, 0.9, test=test).power < 0.8


def test_sample_size_matches_brute_force_scan():
    # oracle: scan every size from 1 (exact tests are saw-toothed: 91 raters have less power than 90)
    powers = [acc.preference_power(m, 0.65, 0.35).power for m in range(1, 120)]
    first = 1 + next(i for i, p in enumerate(powers) if p >= 0.8)
    assert acc.preference_sample_size(0.65, 0.35) == first == 90
    powers = [acc.mcnemar_power(m, 0.05, 0.85, test="exact").power for m in range(1, 800)]
    first = 1 + next(i for i, p in enumerate(powers) if p >= 0.8)
    assert acc.mcnemar_sample_size(0.05, 0.85) == first


def test_unpaired_and_preference_sample_sizes():
    n = acc.unpaired_sample_size(0.9, 0.02)
    assert acc.unpaired_power(n, 0.9, 0.02).rejection_rate >= 0.8 > acc.unpaired_power(n - 1, 0.9, 0.02).rejection_rate
    m = acc.preference_sample_size(0.65, 0.35)
    assert acc.preference_power(m, 0.65, 0.35).power >= 0.8 > acc.preference_power(m - 1, 0.65, 0.35).power


def test_large_n_is_fast_and_sane():
    res = acc.mcnemar_power(400_000, 0.002, 0.9)
    closed = acc.mcnemar_power(400_000, 0.002, 0.9, test="normal")
    # at this size the exact and asymptotic tests coincide to within 0.01
    assert res.power == pytest.approx(closed.power, abs=0.01)


def test_curves_match_pointwise():
    frame = acc.power_curves([100, 700], [0.02, -0.05], [0.9, 0.8], test="midp")
    assert len(frame) == 8
    for row in frame.itertuples():
        point = acc.mcnemar_power(row.n, row.delta, row.agreement, test="midp")
        assert row.power == pytest.approx(point.power, abs=1e-12)
        assert row.type_m == pytest.approx(point.type_m, rel=1e-12)


def test_type_m_shrinks_with_power():
    frame = acc.power_curves([100, 1000, 10000], [0.02], [0.9])
    assert frame["power"].is_monotonic_increasing
    assert frame["type_m"].is_monotonic_decreasing


# ---------------------------------------------------------------------------
# Figure 1 distribution
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [500, 50_000])
def test_difference_distribution_consistent_with_engine(n):
    dist = acc.difference_distribution(n, 0.01, 0.9)
    res = acc.mcnemar_power(n, 0.01, 0.9)
    total = dist["prob_significant"].sum() + dist["prob_not_significant"].sum()
    # exact below ~300 discordant counts; Riemann sum on a stride above (n = 50,000)
    tol = 1e-8 if n == 500 else 2e-3
    assert total == pytest.approx(1.0, abs=tol)
    assert dist["prob_significant"].sum() == pytest.approx(res.rejection_rate, abs=tol)
    binned_mean = (dist["diff_mid"] * dist["prob_significant"]).sum() / dist["prob_significant"].sum()
    width = float(dist["diff_high"].iloc[0] - dist["diff_low"].iloc[0])
    assert binned_mean == pytest.approx(res.mean_significant, abs=width)


def test_unpaired_distribution_mass():
    dist = acc.unpaired_distribution(500, 0.9, 0.02)
    assert dist["prob_significant"].sum() == pytest.approx(acc.unpaired_power(500, 0.9, 0.02).rejection_rate, abs=1e-6)


# ---------------------------------------------------------------------------
# SQuAD 2.0 leaderboard (appendix D, Figure 10)
# ---------------------------------------------------------------------------
def test_squad_pair_statistics():
    # models 0 and 1: dev EM 59.800 vs 61.787 → 236 more correct of 11,873; 3,058 disagreements
    pair = acc.squad_pair(0, 1)
    assert pair.delta_dev == pytest.approx((61.787248378674306 - 59.79954518655774) / 100, abs=1e-4)
    assert pair.agreement_dev == pytest.approx(1 - 3058 / 11873)
    reverse = acc.squad_pair(1, 0)
    assert reverse.delta_dev == pytest.approx(-pair.delta_dev)


def test_squad_leaderboard_reproduces_appendix_d():
    # "19 out of 143 submissions ... at least 80% power ... 14 (74%) attain a significant improvement ...
    # Of the remaining 124 submissions, 3 (2.5%) would show a significant improvement" (appendix D),
    # reproduced with the dev-set size.
    board = acc.squad_leaderboard(n=11_873)
    assert len(board) == 143
    assert int(board["powered"].sum()) == 19
    assert int((board["powered"] & board["significant_improvement"]).sum()) == 14
    assert int((~board["powered"] & board["significant_improvement"]).sum()) == 3


# ---------------------------------------------------------------------------
# bad input → ValueError naming the parameter
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: acc.mcnemar_power(0, 0.01, 0.9), "`n`"),
        (lambda: acc.mcnemar_power(100.5, 0.01, 0.9), "`n`"),
        (lambda: acc.mcnemar_power(100, 0.2, 0.9), "`delta`"),
        (lambda: acc.mcnemar_power(100, 0.01, 1.2), "`agreement`"),
        (lambda: acc.mcnemar_power(100, 0.01, 0.9, alpha=0.7), "`alpha`"),
        (lambda: acc.mcnemar_power(100, 0.01, 0.9, test="fisher"), "`test`"),
        (lambda: acc.mcnemar_power(100, 0.01, 0.9, method="bootstrap"), "`method`"),
        (lambda: acc.mcnemar_power(100, 0.01, 0.9, method="simulate", n_sims=5), "`n_sims`"),
        (lambda: acc.mcnemar_mde(100), "`agreement`"),
        (lambda: acc.mcnemar_mde(100, prior="glue"), "`baseline`"),
        (lambda: acc.mcnemar_mde(100, prior="imagenet", baseline=0.9), "`prior`"),
        (lambda: acc.mcnemar_mde(100, agreement=0.9, target_power=1.0), "`target_power`"),
        (lambda: acc.preference_power(10, 0.7, 0.5), "`p_a`"),
        (lambda: acc.preference_power(10, 0.5, 0.3, ties="coin"), "`ties`"),
        (lambda: acc.unpaired_power(100, 0.95, 0.1), "`delta`"),
        (lambda: acc.mcnemar_sample_size(0.0, 0.9), "`delta`"),
        (lambda: acc.squad_pair(0, 999), "`new_id`"),
    ],
)
def test_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


def test_chi2_cc_table_without_difference_is_never_significant_in_a_direction():
    # oracle: enumeration of every (b, c) table with statsmodels' p-value
    from scipy import stats
    from statsmodels.stats.contingency_tables import mcnemar

    n, delta, agreement, alpha = 9, 0.05, 0.3, 0.5
    p_disc = 1 - agreement
    q = (p_disc + delta) / (2 * p_disc)
    probs = [p_disc * q, p_disc * (1 - q), agreement]
    right = reject = wrong = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if b + c == 0:
                continue
            if mcnemar([[0, b], [c, 0]], exact=False, correction=True).pvalue <= alpha:
                mass = stats.multinomial.pmf([b, c, n - b - c], n, probs)
                reject += mass
                right += mass if b > c else 0.0
                wrong += mass if b < c else 0.0
    res = acc.mcnemar_power(n, delta, agreement, alpha=alpha, test="chi2_cc")
    assert res.power == pytest.approx(0.202872, abs=5e-7) and res.power == pytest.approx(right, abs=1e-9)
    assert res.rejection_rate == pytest.approx(0.321689, abs=5e-7) and res.rejection_rate == pytest.approx(reject)
    assert res.type_s == pytest.approx(wrong / (right + wrong))
    sim = acc.mcnemar_power(n, delta, agreement, alpha=alpha, test="chi2_cc", method="simulate", n_sims=100_000,
                            seed=4)
    assert abs(sim.power - res.power) <= 4 * sim.mc_se
    se_rej = (reject * (1 - reject) / 100_000) ** 0.5
    assert abs(sim.rejection_rate - res.rejection_rate) <= 4 * se_rej


def test_paired_design_resolves_and_checks_agreement():
    d = acc.paired_design("squad", delta=0.01, baseline=0.9)
    assert d.agreement == pytest.approx(acc.agreement_prior(0.9, 0.01, "squad"))
    assert d.mde_kwargs == {"baseline": 0.9, "prior": "squad"}
    manual = acc.paired_design("manual", delta=0.02, agreement=0.9)
    assert manual.family() == [(0.01, 0.9), (0.01, 0.85), (0.02, 0.9), (0.02, 0.85), (0.04, 0.9), (0.04, 0.85)]
    with pytest.raises(ValueError, match="`delta` must satisfy"):
        acc.paired_design("manual", delta=0.2, agreement=0.9)
    with pytest.raises(ValueError, match="`baseline`"):
        acc.paired_design("glue", delta=0.01)


@pytest.mark.parametrize("test, exact, correction", [("exact", True, False), ("chi2", False, False),
                                                     ("chi2_cc", False, True)])
@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.3])
def test_critical_counts_against_statsmodels_mcnemar(test, exact, correction, alpha):
    # oracle: statsmodels' mcnemar p-value of the table [[0, k], [d − k, 0]]: k_d is the largest k < d/2 that
    # rejects, so k_d rejects and k_d + 1 does not (or reaches d/2). Counts up to 8 million, where the start of
    # the search is the normal approximation rather than the binomial quantile
    from statsmodels.stats.contingency_tables import mcnemar

    from core.accuracy.engine import _critical_counts

    d = np.unique(np.concatenate([np.arange(1, 60), np.random.default_rng(4).integers(60, 8_000_000, 60),
                                  [1999, 2000, 2001]]))
    k = _critical_counts(d, test, alpha)
    for dd, kk in zip(d.tolist(), k.tolist()):
        def p(b):
            return mcnemar([[0, b], [dd - b, 0]], exact=exact, correction=correction).pvalue
        assert kk == -1 or p(kk) <= alpha * (1 + 1e-9), (dd, kk)
        assert 2 * (kk + 1) >= dd or p(kk + 1) > alpha * (1 - 1e-9), (dd, kk)


def test_normal_closed_form_is_scipy_norms_bit_for_bit():
    """The asymptotic McNemar closed form evaluates scipy.stats.norm's formulas without its argument checks
    (curves call it per point): the numbers of the scipy.stats.norm version, to the last digit."""
    from scipy import stats

    from core.accuracy.engine import _normal_result

    def with_scipy(n, p_disc, effect, alpha):  # the closed form as written with scipy.stats.norm
        z = stats.norm.isf(alpha / 2.0)
        crit, sd, mu = z * math.sqrt(p_disc / n), math.sqrt(max(p_disc - effect**2, 1e-300) / n), abs(effect)
        right, wrong = stats.norm.sf((crit - mu) / sd), stats.norm.cdf((-crit - mu) / sd)
        a, b = (crit - mu) / sd, (-crit - mu) / sd
        e_right = mu * stats.norm.sf(a) + sd * stats.norm.pdf(a)
        e_wrong = -(mu * stats.norm.cdf(b) - sd * stats.norm.pdf(b))
        return right, wrong, e_right, e_wrong

    rng = np.random.default_rng(11)
    for _ in range(400):
        n, p_disc = int(rng.integers(1, 100_000)), rng.uniform(1e-4, 1.0)
        effect = rng.uniform(-1, 1) * min(p_disc, 0.999) * rng.choice([1.0, 0.1, 0.01])
        alpha = rng.choice([0.001, 0.01, 0.05, 0.1])
        right, wrong, e_right, e_wrong = with_scipy(n, p_disc, effect, alpha)
        r = _normal_result(n, p_disc, effect, alpha)
        assert r.power == right and r.rejection_rate == right + wrong
        assert r.type_m == (e_right + e_wrong) / (right + wrong) / abs(effect) or not right + wrong
        assert r.mean_significant == math.copysign((e_right - e_wrong) / (right + wrong), effect) or not right + wrong


# ---------------------------------------------------------------------------
# corners found by an independent audit
# ---------------------------------------------------------------------------
def test_noninferiority_at_a_difference_equal_to_the_discordance_is_the_limit_not_nan():
    # P_a = 0.9 gives ψ = 1 − 0.9 = 0.09999999999999998 < Δ = 0.1 in floating point: q a hair above 1 made scipy's
    # binomial nan. Oracle: power is continuous in Δ, so Δ = ψ·(1 − 1e-9) (strictly inside) gives the same number
    inside = acc.noninferiority_power(100, 0.1 * (1 - 1e-9), 0.9, 0.01).power
    edge = acc.noninferiority_power(100, 0.1, 0.9, 0.01).power
    assert 0.99 < edge <= 1 and edge == pytest.approx(inside, abs=1e-6)
    assert acc.noninferiority_sample_size(0.1, 0.9, 0.01, method="exact") > 0
    for test in ("score", "wald"):
        at = acc.equivalence_power(100, 0.0, 0.9, 0.1, test=test).power
        assert 0 <= at <= 1 and not math.isnan(at)


def test_the_normal_test_rejects_nothing_without_discordant_items():
    # P_a = 1: no discordant item, no test can reject; the normal closed form said 100% (a zero SD floored at 1e-300)
    for test in ("normal", "exact", "chi2", "midp"):
        res = acc.mcnemar_power(10, 0.0, 1.0, test=test)
        assert res.power == 0.0 and res.rejection_rate == 0.0


def test_unpaired_curves_keep_the_sign_of_the_difference():
    # a new model 5 points below a 90% baseline: the family is −2.5, −5, −10 points; it drew +2.5 and +5 (the power
    # of a 95% model) and, at a 99.9% baseline, nothing
    from core.accuracy.design import AccuracyPageDesign as D

    d = D(scenario="unpaired", baseline=90.0, delta=-5.0, n=300)
    frame = d.curves([300])
    assert sorted(frame["delta"].round(4)) == [-0.1, -0.05, -0.025]
    at_design = frame.loc[frame["delta"].round(4) == -0.05, "power"].iloc[0]
    assert at_design == pytest.approx(acc.unpaired_power(300, 0.9, -0.05).power, rel=1e-12)
    assert len(D(scenario="unpaired", baseline=99.9, delta=-5.0, n=300).curves([300])) == 3


@pytest.mark.parametrize("source, want", [("lachenbruch_low", 0.75), ("lachenbruch_high", 0.95),
                                          ("glue", 0.4142 + 0.5819 * 0.85 - 0.4662 * 0.05)])
def test_agreement_priors_take_the_weaker_models_accuracy(source, want):
    # a new model at 85% against a 90% baseline is the same pair as a new model at 90% against 85%: the priors
    # (Lachenbruch 1992's bounds; Card et al. 2020's GLUE overlap regression on min_acc) depend on the weaker one
    down = acc.design_agreement(source, delta=-0.05, baseline=0.90)
    up = acc.design_agreement(source, delta=0.05, baseline=0.85)
    assert down == pytest.approx(up, abs=1e-12) and down == pytest.approx(want, abs=1e-9)
    assert acc.design_agreement("glue", delta=-0.05, baseline=0.99) > 0  # a new model at 94% is feasible
    with pytest.raises(ValueError, match="`delta` must keep the new model's accuracy"):
        acc.design_agreement(source, delta=-0.2, baseline=0.1)


def test_unpaired_mde_is_sized_on_the_power_the_page_shows():
    # the MDE solved the two-sided rejection rate: at n = 100, 80% baseline, α = 0.1 its answer had 49.95% power in
    # the gain's direction and needed 101 items; now n = 100 is exactly enough
    d = acc.unpaired_mde(100, 0.8, target_power=0.5, alpha=0.1)
    assert acc.unpaired_power(100, 0.8, d, alpha=0.1).power == pytest.approx(0.5, abs=1e-8)
    assert acc.unpaired_sample_size(0.8, d, target_power=0.5, alpha=0.1) == 100
    assert round(acc.unpaired_mde(147, 0.945) * 100, 2) == 5.38  # Card et al. 2020, Table 9 (WNLI)

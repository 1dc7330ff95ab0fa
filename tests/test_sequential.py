"""Tests of core.sequential (Wei, Kocmi & Federmann 2022, §5–7).

Oracles: published group-sequential constants (Pocock 1977; O'Brien & Fleming
1979 as tabulated by Jennison & Turnbull 2000, Tables 2.1 and 2.3; gsDesign's
Lan–DeMets boundaries), the paper's own numbers (p < 0.0221 for K = 3;
Table 3's WMT21 column), scipy's ``mannwhitneyu``, numerical integration and
Monte Carlo campaigns (tolerances from their standard errors).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from core import sequential as sq


# ---------------------------------------------------------------------------
# boundaries
# ---------------------------------------------------------------------------
# Pocock constants, two-sided α = 0.05 (Jennison & Turnbull 2000, Table 2.1)
@pytest.mark.parametrize("k, c", [(1, 1.960), (2, 2.178), (3, 2.289), (4, 2.361), (5, 2.413), (10, 2.555)])
def test_pocock_constants(k, c):
    assert sq.boundary_z(k)[0] == pytest.approx(c, abs=6e-4)


def test_wei_pocock_threshold():
    # Wei et al. §7.2: "We always plan for 3 peeks, and use the Pocock correction (e.g. is p < 0.0221?)"
    assert sq.boundary(3) == pytest.approx([0.0221] * 3, abs=5e-5)


# O'Brien–Fleming C_B(K, α = 0.05): c_k = C √(K/k) (Jennison & Turnbull 2000, Table 2.3)
@pytest.mark.parametrize("k, c", [(2, 1.977), (3, 2.004), (4, 2.024), (5, 2.040)])
def test_obrien_fleming_constants(k, c):
    z = sq.boundary_z(k, kind="obrien_fleming")
    assert z[-1] == pytest.approx(c, abs=6e-4)
    assert z == pytest.approx(c * np.sqrt(k / np.arange(1, k + 1)), abs=2e-3)


def test_lan_demets_boundaries_match_gsdesign():
    # gsDesign (sfLDOF / sfLDPocock, one-sided 0.025 = our two-sided 0.05), K = 5 and K = 3
    assert sq.boundary_z(5, kind="lan_demets") == pytest.approx([4.877, 3.357, 2.680, 2.290, 2.031], abs=1.5e-3)
    assert sq.boundary_z(3, kind="lan_demets") == pytest.approx([3.710, 2.511, 1.993], abs=1.5e-3)
    assert sq.boundary_z(5, kind="lan_demets_pocock") == pytest.approx([2.438, 2.427, 2.410, 2.397, 2.386],
                                                                       abs=1.5e-3)


@pytest.mark.parametrize("kind", sq.BOUNDARIES)
@pytest.mark.parametrize("k", [2, 4, 7])
def test_boundaries_spend_exactly_alpha(kind, k):
    # oracle: the multivariate normal (Genz) probability of staying inside the boundaries
    z = sq.boundary_z(k, alpha=0.05, kind=kind)
    t = np.arange(1, k + 1)
    cov = np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))
    inside = stats.multivariate_normal(mean=np.zeros(k), cov=cov).cdf(z, lower_limit=-z, rng=np.random.default_rng(0))
    assert 1 - inside == pytest.approx(0.05, abs=1e-3)


# ---------------------------------------------------------------------------
# score model and Mann–Whitney drift
# ---------------------------------------------------------------------------
def test_score_distribution_against_simulation_free_integration():
    # oracle: direct numerical integration of E[max(0, 100 - G)]
    m = sq.score_distribution(75, 27)
    g = sq._gamma(75, 27)
    # the score is 0 beyond G = 100, so the integral stops there
    mean, _ = integrate.quad(lambda x: (100 - x) * g.pdf(x), 0, 100, limit=400, points=[1e-6, 1, 10])
    assert m.mean == pytest.approx(mean, abs=1e-6)
    assert m.p_zero == pytest.approx(g.sf(100))


def test_mwu_effect_against_monte_carlo():
    p = sq.mwu_effect(77.0, 75.0, 27.0)
    rng = np.random.default_rng(1)
    a = sq._simulate_scores(rng, 77, 27, 400_000)
    b = sq._simulate_scores(rng, 75, 27, 400_000)
    sample = (a > b).mean() + 0.5 * (a == b).mean()
    se = math.sqrt(0.25 / 400_000)
    assert p == pytest.approx(sample, abs=4 * se)
    assert sq.mwu_effect(75.0, 75.0, 27.0) == pytest.approx(0.5, abs=1e-9)


def test_vectorized_mwu_matches_scipy():
    rng = np.random.default_rng(3)
    a = sq._simulate_scores(rng, 78, 27, (200, 150))
    b = sq._simulate_scores(rng, 75, 27, (200, 150))
    assert (a == 0).any()  # ties at the clipped 0 are exercised
    u, p = sq.mwu_rows(a, b)
    ref = stats.mannwhitneyu(a, b, axis=1, method="asymptotic")
    np.testing.assert_allclose(u, ref.statistic)
    np.testing.assert_allclose(p, ref.pvalue, rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("kind", ["integers", "negative", "shifted", "all equal"])
def test_mwu_rows_matches_scipy_with_ties_anywhere(kind):
    # ties away from 0 (Likert-like integers, negative scores, scores above 100, whole rows of one value): the
    # tie correction Σ(t³ − t) counts every group of equal scores, as scipy's does
    rng = np.random.default_rng(11)
    x = rng.integers(-3, 4, size=(40, 25)).astype(float)
    y = rng.integers(-2, 5, size=(40, 31)).astype(float)
    if kind == "integers":
        x, y = x + 3, y + 3
    elif kind == "shifted":
        x, y = 1000.0 * x + 5e3, 1000.0 * y + 5e3
    elif kind == "all equal":
        x, y = np.full((3, 4), 7.0), np.full((3, 6), 7.0)
    u, p = sq.mwu_rows(x, y)
    ref = stats.mannwhitneyu(x, y, axis=1, method="asymptotic")
    np.testing.assert_allclose(u, ref.statistic)
    np.testing.assert_allclose(p, ref.pvalue, rtol=1e-10, atol=1e-15)
    assert ((0 <= p) & (p <= 1)).all()


def test_mwu_rows_refuses_bad_shapes_by_name():
    with pytest.raises(ValueError, match="`x` and `y`"):
        sq.mwu_rows(np.zeros((3, 4)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="`x` and `y`"):
        sq.mwu_rows(np.zeros(4), np.zeros(4))
    with pytest.raises(ValueError, match="finite"):
        sq.mwu_rows(np.array([[1.0, np.nan]]), np.zeros((1, 2)))


# ---------------------------------------------------------------------------
# designs: false positives, expected cost, analytic vs Monte Carlo
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", sq.BOUNDARIES)
@pytest.mark.parametrize("design", ["interim", "interim_futility"])
def test_corrected_designs_control_false_positives(design, kind):
    res = sq.campaign_power(design, 1200, 0.0, peeks=4, boundary=kind)
    assert res.false_positive_rate <= 0.05 + 1e-4
    assert res.power == pytest.approx(res.false_positive_rate)


def test_naive_peeking_inflates_false_positives():
    # Armitage et al. (1969): five looks at 1.96 give ≈ 0.142
    res = sq.campaign_power("naive", 1200, 0.0, peeks=5)
    assert res.false_positive_rate == pytest.approx(0.142, abs=0.002)
    assert sq.campaign_power("naive", 1200, 0.0, peeks=2).false_positive_rate > 0.05


def test_expected_judgments():
    fixed = sq.campaign_power("fixed", 1200, 2.0)
    assert fixed.expected_judgments == 1200 and fixed.stop_probabilities == (1.0,)
    for design in ("interim", "interim_futility", "naive"):
        res = sq.campaign_power(design, 1200, 2.0)
        assert res.expected_judgments < 1200
        assert sum(res.stop_probabilities) == pytest.approx(1.0)
    # futility saves judgments on small differences (Figure 5)
    assert (sq.campaign_power("interim_futility", 1200, 0.5).expected_judgments
            < sq.campaign_power("interim", 1200, 0.5).expected_judgments)


GRID = [
    ("fixed", 1200, 2.0, 3, "pocock", "mwu"),
    ("interim", 1200, 2.0, 3, "pocock", "mwu"),
    ("interim_futility", 1200, 2.0, 3, "pocock", "mwu"),
    ("naive", 1200, 1.0, 5, "pocock", "mwu"),
    ("interim", 3000, 1.0, 4, "lan_demets", "mwu"),
    ("interim_futility", 2400, 3.0, 5, "obrien_fleming", "mwu"),
    ("interim", 1200, 2.0, 3, "pocock", "t"),
    ("interim_futility", 600, 0.0, 3, "lan_demets_pocock", "mwu"),
]


@pytest.mark.parametrize("design, budget, delta, peeks, kind, test", GRID)
def test_analytic_agrees_with_monte_carlo(design, budget, delta, peeks, kind, test):
    kw = dict(peeks=peeks, boundary=kind, test=test)
    exact = sq.campaign_power(design, budget, delta, **kw)
    mc = sq.campaign_power(design, budget, delta, method="simulate", n_sims=4000, seed=11, **kw)
    se = math.sqrt(max(exact.power * (1 - exact.power), 1e-4) / 4000)
    assert abs(exact.power - mc.power) <= 4 * se
    se1 = math.sqrt(exact.false_positive_rate * (1 - exact.false_positive_rate) / 4000)
    assert abs(exact.false_positive_rate - mc.false_positive_rate) <= 4 * se1
    assert abs(exact.expected_judgments - mc.expected_judgments) <= 4 * mc.judgments_se + 1e-9
    np.testing.assert_allclose(exact.stop_probabilities, mc.stop_probabilities, atol=0.035)


def test_fixed_design_closed_form():
    # one look: power = Φ(η - z) + Φ(-η - z) with η the Mann–Whitney drift (Noether)
    res = sq.campaign_power("fixed", 1000, 2.0)
    eta = float(sq._drifts("mwu", np.array([500]), 75, 27, 2.0)[0])
    z = stats.norm.isf(0.025)
    assert res.power == pytest.approx(stats.norm.sf(z - eta), abs=1e-12)


# ---------------------------------------------------------------------------
# budget curves, savings, MDE
# ---------------------------------------------------------------------------
def test_population_and_savings():
    pop = sq.default_population(40)
    assert np.median(pop) == pytest.approx(1.2, rel=0.05) and (pop < 2).mean() == pytest.approx(0.7, abs=0.05)
    curves = sq.population_curves([600, 1200, 2400], pop)
    fixed = curves[curves.design == "fixed"]
    assert fixed["average_power"].is_monotonic_increasing
    assert np.allclose(fixed["average_judgments"], fixed["budget"])
    savings = sq.budget_savings(1200, pop).set_index("design")
    target = float(fixed.loc[fixed.budget == 1200, "average_power"].iloc[0])
    for design in ("interim", "interim_futility"):
        planned = int(savings.loc[design, "planned_budget"])
        check = sq.population_curves([planned], pop, designs=(design,)).iloc[0]
        assert check["average_power"] == pytest.approx(target, abs=2e-3)
        assert savings.loc[design, "expected_judgments"] == pytest.approx(check["average_judgments"])
    assert savings.loc["interim_futility", "saving"] > 0  # §7.3: interim-futility saves judgments


def test_campaign_curves_and_mde_round_trip():
    curves = sq.campaign_curves(1200, [0.5, 1, 2, 4])
    assert set(curves.design) == {"fixed", "interim", "interim_futility"}
    row = curves[(curves.design == "interim") & (curves.delta == 2)].iloc[0]
    assert row["power"] == pytest.approx(sq.campaign_power("interim", 1200, 2.0).power, abs=1e-9)
    mde = sq.campaign_mde("fixed", 1200)
    assert sq.campaign_power("fixed", 1200, mde).power == pytest.approx(0.8, abs=1e-3)


def test_parse_differences():
    assert sq.parse_differences("1.5, -2\n0.3;4") == pytest.approx([1.5, 2, 0.3, 4])
    with pytest.raises(ValueError, match="not a number"):
        sq.parse_differences("1, two, 3")
    with pytest.raises(ValueError, match="No differences"):
        sq.parse_differences("  ")


# ---------------------------------------------------------------------------
# control variates (§6.2)
# ---------------------------------------------------------------------------
def test_control_variates_equation_2_and_table_3():
    # by hand: r = 0.231 → γ = 0.769/0.231 = 3.329; ρ = 0.5 → 4.329 / 4.079 = 1.0613
    assert sq.control_variates_efficiency(0.5, 0.231) == pytest.approx((1 + 0.769 / 0.231) / (0.75 + 0.769 / 0.231))
    # Table 3, WMT21 column (the only one consistent with equation 2 and Table 2)
    wmt21 = [sq.control_variates_efficiency(r, 0.231) for r in (1.0, 0.5, 0.2)]
    assert [round(v, 2) for v in wmt21] == [1.30, 1.06, 1.01]
    assert sq.control_variates_efficiency(0.0, 0.5) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: sq.boundary(0), "`k`"),
        (lambda: sq.boundary(3, kind="haybittle"), "`kind`"),
        (lambda: sq.campaign_power("bandit", 1200, 1.0), "`design`"),
        (lambda: sq.campaign_power("fixed", 5, 1.0), "`budget`"),
        (lambda: sq.campaign_power("interim", 1200, 1.0, peeks=11), "`peeks`"),
        (lambda: sq.campaign_power("interim", 1200, 1.0, futility_p=1.5), "`futility_p`"),
        (lambda: sq.campaign_power("fixed", 1200, 1.0, mean=120), "`mean`"),
        (lambda: sq.campaign_power("fixed", 1200, 60.0), "`delta`"),
        (lambda: sq.campaign_power("fixed", 1200, 1.0, test="wilcoxon"), "`test`"),
        (lambda: sq.control_variates_efficiency(1.2, 0.2), "`rho`"),
        (lambda: sq.control_variates_efficiency(0.5, 0.0), "`reducible_share`"),
    ],
)
def test_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


# ---------------------------------------------------------------------------
# uploaded and pasted differences; the Monte Carlo engine's cost
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data, expected",
    [
        (b"difference\n1.5\n-2\n", [1.5, 2.0]),
        (b"1e-1\n-2\n+3.5\n.5\n", [0.1, 2.0, 3.5, 0.5]),  # a numeric first line is data, not a header
        (b",\n1.5\n2\n", [1.5, 2.0]),  # a first line that is just a comma (was an IndexError)
        (b"diff,\n1.5,\n,\n2,\n", [1.5, 2.0]),  # one-column CSV with empty cells
        (b"\xef\xbb\xbfvalue\r\n0.4\r\n0.8\r\n", [0.4, 0.8]),  # BOM and CRLF
        (b'"delta"\n"1.5"\n"-0.5"\n', [1.5, 0.5]),
        (b"0.4,0.8,1.1;2 3\n", [0.4, 0.8, 1.1, 2, 3]),  # one line of values is a list, whatever the separators
        (b"0.4 0.8\n", [0.4, 0.8]),
    ],
)
def test_read_differences(data, expected):
    assert sq.read_differences(data).tolist() == pytest.approx(expected)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"0,5\n1,2\n", r"line 1: '0,5' looks like a number with a decimal comma.*0\.5"),
        (b"difference\n0.5\n12,75\n", r"line 3: '12,75' looks like a number with a decimal comma"),
        (b'"0,5"\n', "decimal comma"),
        (b"1,000\n", "thousands separator"),
        (b"difference\n1.5\nabc\n", r"line 3: 'abc' is not a number"),
        (b"1.5\ninf\n", r"line 2: 'inf' must be a finite difference"),
        (b"1.5\n75\n", "within ±50"),
        (b"difference\n", "No differences"),
        (b",\n,,\n", "No differences"),
        (b"", "empty"),
        (b"\x00\x01\x02", "binary"),
        (b"\xff\xfe1\x002\x00", "UTF-16"),
        (b"1\n" * 10_001, "At most 10,000"),
        # a table is refused, never flattened into one list (a,b / 0.5,1 / 1.2 / 3,4,5 used to give six values)
        (b"a,b\n0.5,1\n1.2\n3,4,5", r"line 1: a header with 2 names .* one column of pairwise differences"),
        (b"0.5,1\n1.2\n", r"line 1: 2 values on one line .* one column of pairwise differences"),
        (b"SYS,BLEU,DA\nA,70.8,71.2\nB,69.1,70.0\n", "ranking of systems"),  # WMT-style system scores
        (b"70.8 71.2\n69.1 70.0\n", "one column of pairwise differences"),  # not "within ±50"
        (b"1.2\n0.5,1\n", r"line 2: 2 values on one line"),
        (b"0.4,0.8,1.1\n2 3;4\n", r"line 1: 3 values on one line"),
        (b"system,BLEU,chrF\nA,70.8,60.1\nB,69.2,59.0\n", r"a header with 3 names.*one column of pairwise differences"),
    ],
)
def test_read_differences_refuses_with_the_line(data, message):
    with pytest.raises(ValueError, match=message):
        sq.read_differences(data)


def test_pasted_differences_share_the_rules():
    assert sq.parse_differences("0.4, 0.8\n1.1;2").tolist() == pytest.approx([0.4, 0.8, 1.1, 2.0])
    assert sq.parse_differences(",\n1.5,,2,").tolist() == [1.5, 2.0]
    with pytest.raises(ValueError, match="decimal comma"):
        sq.parse_differences("0,5 1,5")
    with pytest.raises(ValueError, match="not a number"):
        sq.parse_differences("difference\n1.5")  # no header detection for pasted text
    with pytest.raises(ValueError, match="`text`"):
        sq.parse_differences(b"1.5")  # type: ignore[arg-type]


def test_mwu_at_every_look_from_one_sort_equals_mwu_rows():
    rng = np.random.default_rng(4)
    la = sq._simulate_log_gaps(rng, 80, 30, (120, 600))
    lb = sq._simulate_log_gaps(rng, 76, 30, (120, 600))
    a, b = sq.campaign._scores(la), sq.campaign._scores(lb)
    assert (a == 0).any()  # clipped ties are exercised
    sizes = np.array([60, 200, 333, 600])
    u, p = sq._mwu_looks(la, lb, sizes)
    for k, m in enumerate(sizes):
        ref_u, ref_p = sq.mwu_rows(a[:, :m], b[:, :m])  # oracle: one look at a time (itself equal to scipy)
        np.testing.assert_array_equal(u[:, k], ref_u)
        np.testing.assert_allclose(p[:, k], ref_p, rtol=1e-12)
    p_t, sign_t = sq._t_looks(a, b, sizes)
    for k, m in enumerate(sizes):
        ref = stats.ttest_ind(a[:, :m], b[:, :m], axis=1)  # oracle: scipy
        np.testing.assert_allclose(p_t[:, k], ref.pvalue, rtol=1e-8)
        np.testing.assert_array_equal(sign_t[:, k], np.sign(ref.statistic))


def test_gap_keys_keep_the_scores_order_down_to_the_smallest_gaps():
    # _mwu_looks ranks log(100 − score) through its float bits: strictly in the scores' order however small the gap
    # (the scores themselves round every gap below 1e-14 to 100.0; a gap below 5e-324 is 0 as a float), and 0 for
    # the clipped score 0 (log 100)
    logs = np.array([-np.inf, -1e5, -2000.0, -745.2, -690.8, -46.1, -32.2, -1.0, -0.0, 0.0, 1e-300, 0.5, 3.0,
                     np.log(99.99), np.log(100.0)])
    keys = sq.campaign._gap_keys(logs)
    assert keys[-1] == 0 and keys.max() < 2**58  # room for 5 bits of look and system below 2^63
    distinct = np.diff(logs) > 0
    assert np.all(np.diff(keys)[distinct] < 0) and np.all(np.diff(keys)[~distinct] == 0)  # −0.0 and 0.0 tie
    assert (100.0 - np.exp(logs[:6]) == 100.0).all()  # what the scores would have tied (gaps below 1e-14)
    rng = np.random.default_rng(5)
    for mean, sd in ((75, 27), (95, 40), (50, 10)):
        lg = np.sort(sq._simulate_log_gaps(rng, mean, sd, 200_000))
        assert lg.max() <= np.log(100.0) and np.isfinite(lg).all()
        k = sq.campaign._gap_keys(lg)
        distinct = np.diff(lg) > 0
        assert np.all(np.diff(k)[distinct] < 0) and np.all(np.diff(k)[~distinct] == 0)


@pytest.mark.parametrize("mean, sd", [(75.0, 27.0), (95.0, 27.0), (50.0, 10.0)])
def test_log_gap_draws_follow_the_score_model(mean, sd):
    # oracle: scipy's Gamma(k, θ) distribution of the gaps (Kolmogorov–Smirnov on 20,000 draws, clipped at 100)
    rng = np.random.default_rng(11)
    g = sq._gamma(mean, sd)
    gaps = np.exp(sq._simulate_log_gaps(rng, mean, sd, 20_000))
    inside = gaps[gaps < 100.0]
    assert abs((gaps >= 100.0).mean() - g.sf(100.0)) <= 4 * math.sqrt(g.sf(100.0) * g.cdf(100.0) / 20_000) + 1e-12
    conditional = stats.kstest(inside, lambda x: g.cdf(x) / g.cdf(100.0))
    assert conditional.pvalue > 1e-3


@pytest.mark.parametrize("mean", [95.0, 97.0])  # Gamma shapes 0.034 and 0.012: most gaps below 1e-14
def test_simulated_mann_whitney_is_calibrated_at_very_skewed_scores(mean):
    # null calibration: two identical systems; the scores' rounding once tied a third of the pairs at 100.0 and
    # the simulated false-positive rate came out at 0.67 (mean 95) and 1.0 (mean 97)
    n_sims = 4000
    res = sq.campaign_power("fixed", 600, 0.0, mean=mean, sd=27.0, method="simulate", n_sims=n_sims, seed=2)
    se = math.sqrt(0.05 * 0.95 / n_sims)
    assert abs(res.false_positive_rate - 0.05) <= 4 * se, res.false_positive_rate


def test_monte_carlo_engine_is_capped_and_reproducible():
    with pytest.raises(ValueError, match=r"`n_sims` × `budget` = 5,000 × 10,000.*reduce `n_sims` to at most 1,200"):
        sq.campaign_power("interim", 10_000, 2.0, peeks=10, method="simulate", n_sims=5000, seed=1)
    first = sq.campaign_power("interim", 1200, 2.0, method="simulate", n_sims=500, seed=3)
    assert first == sq.campaign_power("interim", 1200, 2.0, method="simulate", n_sims=500, seed=3)


# ---------------------------------------------------------------------------
# assurance: power averaged over a normal prior on Δ (O'Hagan, Stevens & Campbell 2005, eq. 1)
# ---------------------------------------------------------------------------
def _hoped_tail(design, budget, delta, direction, **kw):
    """P(stop for efficacy in `direction` | Δ) and E[judgments | Δ] from campaign_power's public fields.

    campaign_power reports the right-direction crossing as `power` and Type S = wrong / (right + wrong), so the
    wrong-direction crossing is type_s × power / (1 − type_s) (0 when Type S is 0 or undefined).
    """
    res = sq.campaign_power(design, budget, delta, **kw)
    if delta == 0:
        return res.power / 2, res.expected_judgments  # the boundaries are symmetric: each tail is half
    if np.sign(delta) == direction:
        return res.power, res.expected_judgments
    ts = 0.0 if not math.isfinite(res.type_s) else res.type_s
    return (ts * res.power / (1 - ts) if ts < 1 else 0.0), res.expected_judgments


def _quad_assurance(design, budget, mu, tau, **kw):
    """Adaptive quadrature (scipy.integrate.quad) of the hoped-for tail and the judgments over the truncated prior,
    evaluated point by point by campaign_power (direct Mann–Whitney effects, no spline)."""
    mean = kw.get("mean", 75.0)
    limit = min(50.0, 2 * (mean - 1), 2 * (99 - mean))
    low, high = max(-limit, mu - 12 * tau), min(limit, mu + 12 * tau)
    direction = 1 if mu >= 0 else -1
    mass = stats.norm.cdf(limit, mu, tau) - stats.norm.cdf(-limit, mu, tau)
    opts = dict(epsabs=1e-10, epsrel=1e-10, limit=200, points=[0.0] if low < 0 < high else None)
    value = integrate.quad(lambda d: _hoped_tail(design, budget, d, direction, **kw)[0] * stats.norm.pdf(d, mu, tau),
                           low, high, **opts)[0] / mass
    judgments = integrate.quad(lambda d: _hoped_tail(design, budget, d, direction, **kw)[1]
                               * stats.norm.pdf(d, mu, tau), low, high, **opts)[0] / mass
    return value, judgments, mass


# (design, budget, μ, τ, options): the paper's interim design, futility stopping, a fixed design, a loss, t test
CAMPAIGN_PRIORS = [("interim", 1200, 3.0, 2.0, {}), ("interim_futility", 1200, 3.0, 2.0, {}),
                   ("fixed", 2000, 1.5, 1.0, {}), ("interim", 800, -4.0, 3.0, {"boundary": "obrien_fleming"}),
                   ("interim_futility", 3000, 2.0, 1.5, {"test": "t", "peeks": 5}),
                   ("interim", 600, 5.0, 4.0, {"mean": 10.0, "sd": 15.0})]


@pytest.mark.parametrize("design", sq.DESIGNS)
@pytest.mark.parametrize("delta", [4.0, -2.5])
def test_campaign_assurance_with_a_point_prior_is_the_power(design, delta):
    # oracle: τ = 0 is campaign_power at μ (its power and its expected judgments)
    res = sq.campaign_assurance(design, 1200, delta, 0.0)
    at = sq.campaign_power(design, 1200, delta)
    assert res.assurance == pytest.approx(at.power, abs=1e-6)  # spline drift vs direct Mann–Whitney effect
    assert res.power_at_mean == at.power
    assert res.expected_judgments == pytest.approx(at.expected_judgments, rel=1e-6)
    assert res.ceiling == 1.0 and res.direction == np.sign(delta)


@pytest.mark.parametrize("design, budget, mu, tau, kw", CAMPAIGN_PRIORS)
def test_campaign_assurance_against_adaptive_quadrature(design, budget, mu, tau, kw):
    res = sq.campaign_assurance(design, budget, mu, tau, **kw)
    value, judgments, mass = _quad_assurance(design, budget, mu, tau, **kw)
    assert res.assurance == pytest.approx(value, abs=1e-6)
    assert res.expected_judgments == pytest.approx(judgments, rel=1e-6)
    assert res.truncated_mass == pytest.approx(1 - mass, abs=1e-12)
    # ceiling: P(sign(Δ) = sign(μ)) under the prior renormalized to the feasible differences
    limit = min(50.0, 2 * (kw.get("mean", 75.0) - 1), 2 * (99 - kw.get("mean", 75.0)))
    side = (stats.norm.cdf(limit, mu, tau) - stats.norm.cdf(0, mu, tau) if mu >= 0
            else stats.norm.cdf(0, mu, tau) - stats.norm.cdf(-limit, mu, tau))
    assert res.ceiling == pytest.approx(side / mass, abs=1e-12)
    assert 0 < res.assurance < res.ceiling


def test_campaign_assurance_against_monte_carlo_over_the_prior():
    # oracle: average campaign_curves' power (batched, direct effects) over 1,200 prior draws; 4 Monte Carlo SEs.
    # μ = 6, τ = 2 puts < 0.2% of the prior below 0, where the hoped-for tail is at most α/2
    draws = np.random.default_rng(5).normal(6.0, 2.0, 1200)
    draws = draws[draws > 0]
    power = sq.campaign_curves(1200, draws, designs=("interim_futility",))["power"].to_numpy()
    mc, se = power.mean(), power.std(ddof=1) / math.sqrt(power.size)
    res = sq.campaign_assurance("interim_futility", 1200, 6.0, 2.0)
    below = stats.norm.cdf(0, 6.0, 2.0)
    assert abs(res.assurance - mc * (1 - below)) <= 4 * se + 0.025 * below


def test_the_drift_spline_matches_the_exact_effect():
    # the docstring's claim: the cubic spline through 241 exact Mann–Whitney / t effects is within 1e-8 of them
    for mean, sd, test in [(75.0, 27.0, "mwu"), (75.0, 27.0, "t"), (10.0, 15.0, "mwu"), (50.0, 40.0, "mwu")]:
        spline = sq._effect_spline(mean, sd, test)
        limit = min(50.0, 2 * (mean - 1), 2 * (99 - mean))
        for d in np.linspace(-limit, limit, 37)[1:-1] + 0.123:
            if test == "mwu":
                exact = sq.mwu_effect(mean + d / 2, mean - d / 2, sd) - 0.5
            else:
                a, b = sq.score_distribution(mean + d / 2, sd), sq.score_distribution(mean - d / 2, sd)
                exact = (a.mean - b.mean) / math.sqrt((a.sd**2 + b.sd**2) / 2)
            assert float(spline(d)) == pytest.approx(exact, abs=1e-8)


@pytest.mark.parametrize("design, budget, mu, tau, kw", CAMPAIGN_PRIORS[:3])
def test_campaign_assurance_is_symmetric_in_the_sign_of_the_prior_mean(design, budget, mu, tau, kw):
    # swapping the systems mirrors the Mann–Whitney effect (p(−Δ) − ½ = −(p(Δ) − ½)) and the boundaries are
    # symmetric, so mirroring the prior leaves the assurance and the expected judgments unchanged
    a, b = sq.campaign_assurance(design, budget, mu, tau, **kw), sq.campaign_assurance(design, budget, -mu, tau, **kw)
    assert a.assurance == pytest.approx(b.assurance, abs=1e-8)
    assert a.expected_judgments == pytest.approx(b.expected_judgments, rel=1e-8)
    assert a.direction == -b.direction


def test_campaign_assurance_grows_with_the_budget_towards_the_ceiling():
    values = [sq.campaign_assurance("interim", b, 2.0, 2.0) for b in (200, 800, 3200, 12800, 51200)]
    assurances = [v.assurance for v in values]
    assert all(a < b for a, b in zip(assurances, assurances[1:]))
    assert all(v.ceiling == pytest.approx(stats.norm.cdf(1.0), abs=1e-9) for v in values)
    assert 0.005 < values[-1].ceiling - assurances[-1] < 0.1  # differences within ~2 SE of zero stay undetected


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: sq.campaign_assurance("interim", 1200, 3.0, -1.0), "`delta_sd`"),
        (lambda: sq.campaign_assurance("interim", 1200, 3.0, 51.0), "`delta_sd`"),
        (lambda: sq.campaign_assurance("interim", 10, 3.0, 1.0), "`budget`"),
        (lambda: sq.campaign_assurance("sometimes", 1200, 3.0, 1.0), "`design`"),
        (lambda: sq.campaign_assurance("interim", 1200, 3.0, 1.0, alpha=0.7), "`alpha`"),
    ],
)
def test_campaign_assurance_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


# ---------------------------------------------------------------------------
# probabilities stay in [0, 1] (the recursion's quadrature at boundaries with much density)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("design", ["interim", "interim_futility", "naive"])
def test_campaign_probabilities_stay_in_the_unit_interval(design):
    # a grid of budgets, effects, looks and SDs, including large drifts whose density sits on a boundary
    # (e.g. interim, 5,000 judgments, Δ = 3, 6 looks, sd 15: the O(h²) cell rule gave power 1.0000495)
    worst = 0.0
    for budget in (400, 1200, 5000, 20000):
        for delta in (0.0, 1.0, 3.0, 8.0):
            for peeks in (2, 3, 6, 10):
                for sd in (15.0, 27.0):
                    r = sq.campaign_power(design, budget, delta, peeks=peeks, sd=sd)
                    probs = np.array([r.power, r.false_positive_rate, *r.stop_probabilities,
                                      *r.efficacy_probabilities, *r.futility_probabilities])
                    worst = max(worst, float(np.max(-probs)), float(np.max(probs - 1.0)))
                    assert sum(r.stop_probabilities) == pytest.approx(1.0, abs=1e-9)
    assert worst <= 0.0


def test_the_recursion_conserves_probability_before_clipping():
    # unclipped: up + low + futility over all looks plus what runs to the end is 1 to 1e-9
    from core.sequential.recursion import unit_recursion

    eff = sq.boundary_z(6, kind="pocock")
    fut = np.r_[np.full(5, 0.6745), 0.0]
    for drift in (0.0, 1.0, 2.5, 4.0):
        thetas = np.full((1, 6), drift)
        up, low, f = unit_recursion(thetas, eff, fut)
        assert (up + low + f)[0, :-1].sum() + up[0, -1] + low[0, -1] <= 1 + 1e-9
        assert np.all(up >= -1e-9) and np.all(low >= -1e-9) and np.all(f >= -1e-9)
    r = sq.campaign_power("interim", 5000, 3.0, peeks=6, sd=15.0)
    assert 0.0 <= r.power <= 1.0 and min(r.stop_probabilities) >= 0.0
    a = sq.campaign_assurance("interim", 5000, 3.0, 0.5, peeks=6, sd=15.0)
    assert 0.0 <= a.assurance <= 1.0


def test_boundary_constants_to_six_digits():
    # Jennison & Turnbull (2000), Tables 2.1 and 2.3, K = 3, two-sided α = 0.05: C_P = 2.289478, C_B = 2.004036
    assert sq.boundary_z(3, kind="pocock")[0] == pytest.approx(2.289478, abs=2e-6)
    assert sq.boundary_z(3, kind="obrien_fleming") == pytest.approx([3.4711, 2.4544, 2.0040], abs=6e-5)
    assert sq.boundary_z(3, kind="obrien_fleming")[-1] == pytest.approx(2.004036, abs=2e-6)


# ---------------------------------------------------------------------------
# Type-M at stopping (the estimate: difference of the two systems' means at the stopping analysis)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("design, delta, test, mean", [("fixed", 3.0, "mwu", 75.0), ("interim", 3.0, "mwu", 75.0),
                                                       ("interim_futility", -2.5, "mwu", 75.0),
                                                       ("interim", 3.0, "t", 75.0), ("naive", 2.0, "mwu", 75.0),
                                                       # skewed scores: Mann–Whitney and the mean difference
                                                       # correlate only ≈ 0.6, so their signs often disagree
                                                       ("interim", 2.0, "mwu", 92.0), ("fixed", 1.0, "mwu", 92.0)])
def test_campaign_type_m_agrees_with_monte_carlo(design, delta, test, mean):
    exact = sq.campaign_power(design, 1200, delta, test=test, mean=mean)
    mc = sq.campaign_power(design, 1200, delta, test=test, mean=mean, method="simulate", n_sims=4000, seed=5)
    assert exact.type_m > 1.0
    assert abs(exact.type_m - mc.type_m) <= 4 * mc.type_m_se


def test_campaign_type_m_in_the_curves_and_at_zero():
    curves = sq.campaign_curves(1200, [0.0, 1.5, 3.0], designs=("fixed", "interim", "interim_futility"))
    for _, row in curves.iterrows():
        point = sq.campaign_power(row["design"], 1200, row["delta"])
        if row["delta"] == 0:
            assert math.isnan(row["type_m"]) and math.isnan(point.type_m)
        else:
            assert row["type_m"] == pytest.approx(point.type_m, rel=1e-9)
    # stopping early for efficacy exaggerates more than the fixed design at the same budget
    at3 = curves[curves["delta"] == 3.0].set_index("design")["type_m"]
    assert at3["interim"] > at3["fixed"] > 1.0


@pytest.mark.parametrize("mean", [75.0, 95.0])  # 95: very skewed scores (Gamma shape 0.03), r ≈ 0.4
def test_mann_whitney_correlation_with_the_mean_difference(mean):
    # oracle: the correlation of U and X̄_A - X̄_B over simulated campaigns
    model = sq.estimate_model("mwu", mean, 27.0, 2.0)
    rng = np.random.default_rng(0)
    a = sq._simulate_scores(rng, mean + 1, 27.0, (4000, 300))
    b = sq._simulate_scores(rng, mean - 1, 27.0, (4000, 300))
    u, _ = sq.mwu_rows(a, b)
    r = np.corrcoef(u, a.mean(axis=1) - b.mean(axis=1))[0, 1]
    assert model.correlation == pytest.approx(r, abs=4 * (1 - r * r) / math.sqrt(4000))
    assert model.difference == pytest.approx(sq.score_distribution(mean + 1, 27).mean
                                             - sq.score_distribution(mean - 1, 27).mean)
    assert sq.estimate_model("t", 75.0, 27.0, 2.0).correlation == 1.0


def test_ceiling_share_is_the_gamma_mass_within_half_a_point_of_100():
    """Oracle: scipy's Gamma CDF at 0.5 with the model's shape (100 − mean)²/sd² and scale sd²/(100 − mean)."""
    from scipy import stats

    assert sq.ceiling_share(95, 27) == pytest.approx(stats.gamma.cdf(0.5, 25 / 729, scale=729 / 5))
    assert sq.ceiling_share(75, 27) < 0.05 < sq.CEILING_WARNING < sq.ceiling_share(95, 15)


# ---------------------------------------------------------------------------
# rounded looks: boundaries at the realised information fractions
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("budget, peeks, kind", [(26, 2, "pocock"), (20, 3, "pocock"), (22, 3, "obrien_fleming"),
                                                 (20, 4, "pocock"), (20, 4, "lan_demets_pocock")])
def test_campaign_boundaries_at_the_realised_looks_spend_exactly_alpha(budget, peeks, kind):
    # 13 judgments per system in 2 looks are 6 and 13, not 6.5 and 13: with the realised correlations √(n_i/n_j)
    # the equal-spacing boundaries spent up to 0.0510 (the analytic engine, assuming equal spacing, said 0.05).
    # Oracle: the multivariate normal (Genz) probability of staying inside the boundaries at the realised looks.
    r = sq.campaign_power("interim", budget, 0.0, peeks=peeks, boundary=kind, test="t")
    n = sq._look_sizes(budget, peeks).astype(float)
    assert not np.array_equal(n, n[0] * np.arange(1, peeks + 1))  # unequally spaced
    z = stats.norm.isf(np.array(r.nominal_p) / 2)
    cov = np.sqrt(np.minimum.outer(n, n) / np.maximum.outer(n, n))
    inside = stats.multivariate_normal(mean=np.zeros(peeks), cov=cov, abseps=1e-6, releps=0).cdf(
        z, lower_limit=-z, rng=np.random.default_rng(0))
    assert 1 - inside == pytest.approx(0.05, abs=1e-4)
    assert r.false_positive_rate == pytest.approx(0.05, abs=1e-9)
    futile = sq.campaign_power("interim_futility", budget, 0.0, peeks=peeks, boundary=kind, test="t")
    assert futile.nominal_p == r.nominal_p and futile.false_positive_rate <= 0.05 + 1e-9  # non-binding futility


def test_campaign_size_at_random_small_budgets():
    rng = np.random.default_rng(8)
    for _ in range(40):
        peeks = int(rng.integers(2, 11))
        budget = int(rng.integers(4 * peeks, 120)) if peeks * 4 >= 20 else int(rng.integers(20, 120))
        kind = str(rng.choice(sq.BOUNDARIES))
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        for design in ("interim", "interim_futility"):
            r = sq.campaign_power(design, budget, 0.0, peeks=peeks, boundary=kind, alpha=alpha,
                                  test=str(rng.choice(sq.TESTS)))
            assert r.false_positive_rate <= alpha + 1e-9, (design, budget, peeks, kind, alpha)


def test_campaign_equally_spaced_looks_keep_the_classical_thresholds():
    # 600 judgments per system in 3 looks (200, 400, 600): Wei et al.'s p < 0.0221 at every look, unchanged
    r = sq.campaign_power("interim", 1200, 2.0)
    assert r.nominal_p == tuple(float(p) for p in sq.boundary(3))
    # the batched curves over budgets with different realised looks agree with campaign_power at each budget
    table = sq.population_curves([200, 1000, 1200], [2.0], designs=("interim",))
    for b, p in zip(table["budget"], table["average_power"]):
        assert p == pytest.approx(sq.campaign_power("interim", int(b), 2.0).power, abs=1e-12)


@pytest.mark.parametrize("mean, sd, delta", [(95.0, 40.0, 1.0), (97.0, 20.0, 1.0), (90.0, 50.0, 1.0),
                                             (75.0, 27.0, 3.0)])
def test_mwu_effect_in_logs_agrees_with_the_quadrature_where_both_work(mean, sd, delta):
    """The log-space integral (used where the Gamma's shape is ≪ 1) against the Gauss–Legendre one."""
    from core.sequential.scores import _gamma, _inner_in_logs

    ga, gb = _gamma(mean + delta / 2, sd), _gamma(mean - delta / 2, sd)
    in_logs = ga.cdf(100.0) * gb.sf(100.0) + _inner_in_logs(ga, gb) + 0.5 * ga.sf(100.0) * gb.sf(100.0)
    assert in_logs == pytest.approx(sq.mwu_effect(mean + delta / 2, mean - delta / 2, sd), abs=1e-6)


@pytest.mark.parametrize("mean, sd", [(99.0, 60.0), (98.0, 27.0), (97.0, 40.0), (95.0, 50.0), (99.0, 10.0)])
def test_mwu_effect_where_the_gamma_shape_is_tiny(mean, sd):
    # shape μ²/σ² from 3e-4 to 0.01: the quadrature's nodes underflow; the log-space integral takes over
    half = min(0.5, (99.5 - mean) / 2 - 1e-9)
    assert sq.mwu_effect(mean, mean, sd) == pytest.approx(0.5, abs=1e-9)  # symmetry
    up = sq.mwu_effect(mean + half, mean - half, sd)
    assert 0.5 < up < 1.0
    assert sq.mwu_effect(mean - half, mean + half, sd) == pytest.approx(1.0 - up, abs=1e-12)
    assert sq.mwu_effect(mean + half / 2, mean - half / 2, sd) < up  # larger gaps, larger effects


def test_score_gamma_is_scipys_frozen_gamma():
    """The score model's Gamma (not frozen: scipy builds a frozen distribution's docstring on creation) gives
    scipy's frozen ``gamma(a=k, scale=θ)`` numbers bit for bit: cdf, sf, pdf (0 at the support's edge), ppf, rvs."""
    from core.sequential.scores import _gamma

    rng = np.random.default_rng(7)
    for _ in range(50):
        mean, sd = rng.uniform(1, 99), rng.uniform(1, 60)
        mu = 100.0 - mean
        frozen, ours = stats.gamma(a=mu**2 / sd**2, scale=sd**2 / mu), _gamma(mean, sd)
        assert ours.kwds == frozen.kwds
        x = np.concatenate([[0.0, 100.0], rng.uniform(0, 200, 30)])
        for method in ("cdf", "sf", "pdf"):
            assert np.array_equal(getattr(ours, method)(x), getattr(frozen, method)(x)), method
        q = rng.uniform(0, 1, 10)
        assert np.array_equal(ours.ppf(q), frozen.ppf(q))
        assert np.array_equal(ours.rvs(size=(2, 3), random_state=np.random.default_rng(3)),
                              frozen.rvs(size=(2, 3), random_state=np.random.default_rng(3)))


@pytest.mark.parametrize("design, budget, delta, peeks, boundary, test", [
    ("interim_futility", 1200, 1.3, 3, "pocock", "mwu"), ("interim", 777, -2.0, 5, "obrien_fleming", "t"),
    ("fixed", 500, 0.7, 3, "pocock", "mwu"), ("naive", 1001, 0.0, 4, "lan_demets", "mwu"),
    ("interim_futility", 20_002, 0.4, 7, "lan_demets_pocock", "t"),
])
def test_power_alone_is_campaign_powers_power(design, budget, delta, peeks, boundary, test):
    """The MDE's root search evaluates power without the Type-M integrals: the same number, bit for bit."""
    kw = dict(peeks=peeks, boundary=boundary, test=test)
    alone, full = sq.campaign_power(design, budget, delta, with_type_m=False, **kw), sq.campaign_power(
        design, budget, delta, **kw)
    assert alone.power == full.power
    assert alone.false_positive_rate == full.false_positive_rate and alone.stop_probabilities == full.stop_probabilities
    assert math.isnan(alone.type_m)


@pytest.mark.parametrize("budget, kw", [(1200, {}), (1402, dict(peeks=4, boundary="obrien_fleming")),
                                        (300, dict(test="t", futility_p=0.3))])
def test_budget_savings_reads_population_curves(budget, kw):
    """Each sequential row of the savings is population_curves' row at its planned budget (the search evaluates each
    budget once, without building frames), and that budget matches the fixed design's average power."""
    pop = sq.default_population(30)
    saved = sq.budget_savings(budget, pop, **kw).set_index("design")
    target = sq.population_curves([budget], pop, designs=("fixed",), **kw)["average_power"].iloc[0]
    for design in ("interim", "interim_futility"):
        planned = int(saved.loc[design, "planned_budget"])
        row = sq.population_curves([planned], pop, designs=(design,), **kw).iloc[0]
        assert saved.loc[design, "expected_judgments"] == row["average_judgments"]
        assert saved.loc[design, "saving"] == 1.0 - row["average_judgments"] / budget
        # Brent's answer on a step function lies within one judgment of where power reaches the target
        above = sq.population_curves([planned + 1, planned + 2], pop, designs=(design,), **kw)["average_power"]
        assert max(row["average_power"], *above) >= target - 1e-12


@pytest.mark.parametrize("budget, kw", [(1200, {}), (777, dict(peeks=5, boundary="obrien_fleming", test="t")),
                                        (20_002, dict(peeks=4, boundary="lan_demets"))])
def test_curves_without_type_m_have_the_same_power(budget, kw):
    """``with_type_m=False`` (the page's power and judgments charts, drawn before the Type-M integrals run): the
    same power and expected judgments, bit for bit, and no Type-M."""
    deltas = list(np.round(np.linspace(-2, 8, 21), 3))
    designs = ("fixed", "naive", "interim", "interim_futility")
    full = sq.campaign_curves(budget, deltas, designs=designs, **kw)
    fast = sq.campaign_curves(budget, deltas, designs=designs, with_type_m=False, **kw)
    pd.testing.assert_frame_equal(full.drop(columns="type_m"), fast.drop(columns="type_m"), check_exact=True)
    assert fast["type_m"].isna().all() and full.loc[full["delta"] != 0, "type_m"].notna().all()


@pytest.mark.parametrize("kind", ["pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock"])
def test_boundaries_at_realised_looks_solved_near_the_equally_spaced_ones_are_the_same_roots(kind, monkeypatch):
    """The solver first tries a narrow bracket around the equally spaced boundary (a sample-size search solves
    hundreds of realised looks); the roots are those of the wide bracket, and the size is α at the realised looks,
    also for looks far from equal spacing (where the narrow bracket misses and the wide one is used)."""
    from core.sequential import boundaries as b

    looks = [(200, 401, 601), (203, 406, 610), (33, 67, 100), (2, 5, 8, 10), (10, 11, 40), (120, 240, 361, 481)]
    narrow = {info: b._boundary_z.__wrapped__(len(info), 0.05, kind, 0.0, tuple(map(float, info)))
              for info in looks}
    monkeypatch.setattr(b, "_NEAR", ())  # no narrow bracket: the wide one only
    for info, bounds in narrow.items():
        wide = b._boundary_z.__wrapped__(len(info), 0.05, kind, 0.0, tuple(map(float, info)))
        assert np.allclose(bounds, wide, rtol=0, atol=1e-8), (info, bounds, wide)
        size = b._look_crossing(np.asarray(bounds), np.zeros(len(info)), tuple(map(float, info))).sum()
        assert size == pytest.approx(0.05, abs=1e-8)


@pytest.mark.parametrize("kind", ["pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock"])
@pytest.mark.parametrize("futility", [0.0, 0.6745])
def test_a_boundary_solve_integrates_each_candidate_once_and_finds_brents_root(kind, futility, monkeypatch):
    """Each candidate boundary costs a recursive integration; Brent's method re-evaluates the bracket's ends, which
    the solver has just checked, so those are read back: no candidate is integrated twice, and the root is plain
    Brent's on the same bracket (oracle: scipy.optimize.brentq on the crossing probability, to 1e-12)."""
    from scipy import optimize

    from core.sequential import boundaries as b

    seen = []
    real = b._look_crossing

    def counted(efficacy, fut, information):
        seen.append((tuple(np.round(efficacy, 15)), tuple(fut), information))
        return real(efficacy, fut, information)

    monkeypatch.setattr(b, "_look_crossing", counted)
    info = (203.0, 406.0, 610.0)
    bounds = b._boundary_z.__wrapped__(3, 0.05, kind, futility, info)
    assert seen and len(seen) == len(set(seen))
    monkeypatch.setattr(b, "_look_crossing", real)
    if kind in ("pocock", "obrien_fleming"):
        shape = np.asarray(bounds) / bounds[-1]
        fut = np.array([futility, futility, 0.0])

        def gap(c):
            return float(real(c * shape, fut, info).sum()) - 0.05

        near = b._boundary_z(3, 0.05, kind, futility)[-1]
        lo, hi = near - b._NEAR[0], near + b._NEAR[0]
        assert bounds[-1] == pytest.approx(optimize.brentq(gap, lo, hi, xtol=1e-10), abs=1e-12)
    else:
        size = real(np.asarray(bounds), np.array([futility, futility, 0.0]), info).sum()
        assert size == pytest.approx(0.05, abs=1e-8)


def test_the_planned_budget_is_the_first_that_reaches_the_fixed_designs_average_power():
    # oracle: population_curves at the planned budget and one judgment below it (Brent's method with xtol = 1
    # could stop a judgment short: 1,461 averaged 0.39063 against a target of 0.39073)
    pop = sq.default_population(30)
    table = sq.budget_savings(1200, pop).set_index("design")
    target = sq.population_curves([1200], pop, designs=("fixed",))["average_power"].iloc[0]
    for design in ("interim", "interim_futility"):
        b = int(table.loc[design, "planned_budget"])
        below, at = sq.population_curves([b - 1, b], pop, designs=(design,))["average_power"]
        assert below < target <= at


def test_a_population_the_score_model_cannot_take_is_refused_by_name():
    # at a mean score of 90 a 25-point difference puts one system's mean above 99.5: it was numpy's "math domain
    # error" in the savings and nan in the curves
    with pytest.raises(ValueError, match=r"`population`: at a mean score of 90 the differences must stay below 19"):
        sq.CampaignDesign(mean=90.0).savings(sq.parse_differences("0.4, 0.8, 25"))
    with pytest.raises(ValueError, match="`population`"):
        sq.CampaignDesign(mean=75.0).population_curves([1200], sq.parse_differences("1, 50"))
    with pytest.raises(ValueError, match="`population` must hold finite"):
        sq.population_curves([1200], [float("nan")])


def test_curves_and_the_monitor_name_inputs_that_are_not_numbers():
    with pytest.raises(ValueError, match="`deltas` must hold at least one"):
        sq.campaign_curves(1200, [])
    with pytest.raises(ValueError, match="`deltas` must be numbers"):
        sq.campaign_curves(1200, ["a"])
    with pytest.raises(ValueError, match="`population` must contain"):
        sq.population_curves([1200], [])
    with pytest.raises(ValueError, match="`x` must be"):
        sq.monitor("abc", target=0.1, n_max=10)


def test_savings_of_one_design_are_its_rows_of_both():
    """``designs`` picks the sequential designs compared: the same rows as asking for both (each is its own root
    search); anything else is refused by name."""
    pop = sq.default_population(20)
    both = sq.budget_savings(1200, pop).set_index("design")
    one = sq.budget_savings(1200, pop, designs=("interim_futility",)).set_index("design")
    assert list(one.index) == ["fixed", "interim_futility"]
    pd.testing.assert_frame_equal(one, both.loc[["fixed", "interim_futility"]])
    with pytest.raises(ValueError, match="`designs`"):
        sq.budget_savings(1200, pop, designs=("naive",))
    with pytest.raises(ValueError, match="`designs`"):
        sq.budget_savings(1200, pop, designs=())

"""Tests of the general sequential engine and the confidence sequences (core.sequential).

Oracles: published constants (Jennison & Turnbull 2000, Tables 2.1 and 2.3;
Howard et al. 2021's normal-mixture boundary evaluated by hand; the
false-positive rate of naive peeking every 50 items up to 4,000, 0.3567),
closed forms of the fixed z-test, numerical integration (scipy.integrate),
vectorised simulation (tolerances of 4 Monte Carlo standard errors), and
coverage of the confidence sequences by simulation at fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from core import sequential as sq
from core.llm.sequential import benchmark_item_model


# ---------------------------------------------------------------------------
# published values
# ---------------------------------------------------------------------------
def test_group_boundaries_of_the_general_engine_are_the_published_constants():
    # K = 3, two-sided α = .05: O'Brien–Fleming C = 2.004036 (3.4711, 2.4544, 2.0040), Pocock C = 2.289478
    of = sq.sequential_power(900, 0.1, 1.0, design="group", looks=3, boundary="obrien_fleming")
    assert of.boundaries_z == pytest.approx([3.4711, 2.4544, 2.0040], abs=6e-5)
    assert of.boundaries_z[-1] == pytest.approx(2.004036, abs=2e-6)
    assert of.look_n == (300, 600, 900)
    po = sq.sequential_power(900, 0.1, 1.0, design="group", looks=3, boundary="pocock")
    assert po.boundaries_z == pytest.approx([2.289478] * 3, abs=2e-6)


def test_normal_mixture_published_values():
    # sd = 0.5, α = .05, tuned for 1,000 items: ρ = 30.44337; half-width 0.047989 vs 0.030990 for a z-interval
    assert sq.mixture_rho(1000, 0.5, alpha=0.05) == pytest.approx(30.44337, abs=5e-6)
    assert sq.cs_halfwidth(1000, 0.5, alpha=0.05, plan_n=1000) == pytest.approx(0.047989, abs=5e-7)
    assert stats.norm.isf(0.025) * 0.5 / math.sqrt(1000) == pytest.approx(0.030990, abs=5e-7)
    # ρ minimises the half-width at plan_n (the defining property)
    rho = sq.mixture_rho(1000, 0.5)
    width = [sq.cs_boundary(1000, 0.5, alpha=0.05, rho=r) for r in (0.98 * rho, rho, 1.02 * rho)]
    assert width[1] < width[0] and width[1] < width[2]


def test_naive_peeking_every_50_to_4000_published_false_positive_rate():
    r = sq.sequential_power(4000, 0.0, 1.0, design="naive", every=50)
    assert len(r.look_n) == 80
    assert r.false_positive_rate == pytest.approx(0.3567, abs=5e-5)


# ---------------------------------------------------------------------------
# closed form: the fixed design
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n, delta, sd", [(600, 0.1, 1.0), (250, -0.3, 2.0), (1000, 0.02, 0.5)])
def test_fixed_design_against_the_z_test(n, delta, sd):
    r = sq.sequential_power(n, delta, sd, design="fixed")
    c = stats.norm.isf(0.025)
    mu = abs(delta) * math.sqrt(n) / sd
    assert r.power == pytest.approx(stats.norm.sf(c - mu), abs=1e-10)
    assert r.type_s == pytest.approx(stats.norm.cdf(-c - mu) / (stats.norm.sf(c - mu) + stats.norm.cdf(-c - mu)),
                                     rel=1e-8)
    # Type-M: E[|Z| ; |Z| > c] / P(|Z| > c) / μ, Z ~ N(μ, 1), by adaptive quadrature
    tail = integrate.quad(lambda z: z * stats.norm.pdf(z - mu), c, np.inf)[0] + \
        integrate.quad(lambda z: -z * stats.norm.pdf(z - mu), -np.inf, -c)[0]
    significant = stats.norm.sf(c - mu) + stats.norm.cdf(-c - mu)
    assert r.type_m == pytest.approx(tail / significant / mu, rel=1e-7)
    assert r.false_positive_rate == pytest.approx(0.05, abs=1e-10)
    assert r.expected_n == n and r.stop_probabilities == (1.0,)


# ---------------------------------------------------------------------------
# recursion against vectorised simulation
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n_max, delta, kw", [
    (600, 0.1, dict(design="group", looks=3, boundary="obrien_fleming")),
    (600, -0.12, dict(design="group", looks=5, boundary="pocock", futility_p=0.5)),
    (900, 0.08, dict(design="group", looks=4, boundary="lan_demets")),
    (4000, 0.04, dict(design="naive", every=50)),
])
def test_recursion_agrees_with_simulation(n_max, delta, kw):
    a = sq.sequential_power(n_max, delta, 1.0, **kw)
    s = sq.sequential_power(n_max, delta, 1.0, method="simulate", n_sims=40_000, seed=11, **kw)
    assert a.method == "analytic" and s.method == "simulate"
    assert abs(a.power - s.power) <= 4 * s.mc_se
    assert abs(a.type_m - s.type_m) <= 4 * s.type_m_se
    assert abs(a.false_positive_rate - s.false_positive_rate) <= 4 * s.false_positive_rate_se
    assert abs(a.expected_n - s.expected_n) <= 4 * s.expected_n_se
    assert abs(a.expected_n_null - s.expected_n_null) <= 4 * s.expected_n_null_se
    se_stop = np.sqrt(np.array(s.stop_probabilities) * (1 - np.array(s.stop_probabilities)) / s.n_sims)
    assert np.all(np.abs(np.array(a.stop_probabilities) - s.stop_probabilities) <= 4 * se_stop + 1e-12)
    assert sum(a.stop_probabilities) == pytest.approx(1.0, abs=1e-9)


def test_group_designs_control_the_false_positive_rate_and_stopping_exaggerates():
    for boundary in sq.BOUNDARIES:
        r = sq.sequential_power(1200, 0.0, 1.0, design="group", looks=4, boundary=boundary)
        assert r.false_positive_rate == pytest.approx(0.05, abs=1e-6)
    # binding futility: the boundaries are re-solved, so the rate is still α
    f = sq.sequential_power(1200, 0.0, 1.0, design="group", looks=4, boundary="pocock", futility_p=0.4)
    assert f.false_positive_rate == pytest.approx(0.05, abs=1e-6)
    assert f.expected_n_null < 1200
    # early efficacy stops select large running means: Type-M above the fixed design's at equal power
    fixed = sq.sequential_power(1000, 0.1, 1.0, design="fixed")
    n = sq.sequential_sample_size(0.1, 1.0, design="group", looks=5, boundary="pocock",
                                  target_power=fixed.power)
    group = sq.sequential_power(n, 0.1, 1.0, design="group", looks=5, boundary="pocock")
    assert group.type_m > fixed.type_m > 1.0


def test_probabilities_stay_in_the_unit_interval_over_a_grid():
    for design, kw in (("fixed", {}), ("group", dict(looks=6, boundary="pocock")),
                       ("group", dict(looks=10, futility_p=0.5)), ("naive", dict(every=25))):
        for delta in (0.0, 0.05, 0.2, 1.0):
            r = sq.sequential_power(2000, delta, 1.0, design=design, **kw)
            probs = np.array([r.power, r.false_positive_rate, *r.stop_probabilities])
            assert np.all((probs >= 0) & (probs <= 1))
            assert 0 <= r.type_s <= 1 or (delta == 0 and math.isnan(r.type_s))


# ---------------------------------------------------------------------------
# anytime design
# ---------------------------------------------------------------------------
def test_anytime_false_positive_rate_is_at_most_alpha():
    r = sq.sequential_power(4000, 0.0, 1.0, design="anytime", n_sims=20_000, seed=3)
    assert r.method == "simulate" and r.mc_se > 0
    assert r.false_positive_rate <= 0.05  # observed ≈ 0.02: Ville's inequality is conservative
    assert sum(r.stop_probabilities) == pytest.approx(1.0)
    assert r.expected_n_null <= 4000


def test_anytime_engine_matches_the_confidence_sequence_run_item_by_item():
    # independent oracle: run confidence_sequence on simulated per-item data and stop when 0 leaves it
    rng = np.random.default_rng(5)
    n_max, delta, sd, runs = 800, 0.1, 1.0, 1500
    stops = []
    for _ in range(runs):
        cs = sq.confidence_sequence(rng.normal(delta, sd, n_max), sd=sd, plan_n=n_max)
        stops.append(cs.attrs["first_n"])
    hit = np.array([s is not None for s in stops])
    used = np.array([s if s is not None else n_max for s in stops])
    r = sq.sequential_power(n_max, delta, sd, design="anytime", n_sims=20_000, seed=6)
    se = math.sqrt(r.power * (1 - r.power) * (1 / runs + 1 / r.n_sims))
    assert abs(hit.mean() - r.power) <= 4 * se
    se_n = math.hypot(used.std(ddof=1) / math.sqrt(runs), r.expected_n_se)
    assert abs(used.mean() - r.expected_n) <= 4 * se_n


def test_anytime_is_wider_than_fixed_but_valid_and_costs_less_when_the_effect_is_large():
    fixed = sq.sequential_power(1000, 0.2, 1.0, design="fixed")
    anytime = sq.sequential_power(1000, 0.2, 1.0, design="anytime", n_sims=4000, seed=1)
    assert anytime.expected_n < 0.7 * fixed.expected_n
    assert anytime.type_s <= 0.01 and anytime.type_m >= 1.0


# ---------------------------------------------------------------------------
# sample size
# ---------------------------------------------------------------------------
def test_fixed_sample_size_is_the_closed_form():
    z = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    assert sq.sequential_sample_size(0.1, 1.0, design="fixed") == math.ceil((z / 0.1) ** 2) == 785


@pytest.mark.parametrize("kw", [dict(design="group", looks=3), dict(design="group", looks=4, futility_p=0.5,
                                                                      boundary="pocock")])
def test_sample_size_is_the_smallest_reaching_the_target(kw):
    n = sq.sequential_sample_size(0.15, 1.0, target_power=0.9, **kw)
    assert sq.sequential_power(n, 0.15, 1.0, **kw).power >= 0.9
    assert sq.sequential_power(n - 1, 0.15, 1.0, **kw).power < 0.9


# ---------------------------------------------------------------------------
# confidence sequences
# ---------------------------------------------------------------------------
def test_normal_mixture_cs_columns_and_width():
    x = np.random.default_rng(0).normal(0.2, 0.5, 1000)
    cs = sq.confidence_sequence(x, sd=0.5, plan_n=1000)
    assert list(cs.columns) == ["n", "estimate", "lower", "upper"] and cs.attrs["method"] == "normal mixture"
    raw = cs["estimate"].iloc[-1] - cs["lower"].iloc[-1]
    assert raw <= 0.047989 + 1e-6  # the running intersection is never wider than the mixture half-width
    assert cs["estimate"].iloc[-1] == pytest.approx(x.mean())
    first = cs.attrs["first_n"]
    assert first is not None and (cs["lower"].iloc[first - 1] > 0) and not (cs["lower"].iloc[first - 2] > 0)


@pytest.mark.parametrize("bounds, draw, mean", [
    ((0, 1), lambda rng, n: rng.binomial(1, 0.3, n).astype(float), 0.3),
    ((-1, 1), lambda rng, n: rng.choice([-1.0, 0.0, 1.0], size=n, p=[0.2, 0.5, 0.3]), 0.1),
    ((0, 1), lambda rng, n: rng.beta(2, 5, n), 2 / 7),
])
def test_betting_cs_covers_the_mean_at_all_n(bounds, draw, mean):
    rng = np.random.default_rng(42)
    runs, n = 150, 300
    missed = 0
    for _ in range(runs):
        cs = sq.confidence_sequence(draw(rng, n), bounds=bounds)
        missed += bool(np.any((cs["lower"] > mean) | (cs["upper"] < mean)))
    assert cs.attrs["method"] == "betting"
    assert missed / runs <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)
    # not trivially wide: at n = 300 far inside the range
    assert (cs["upper"] - cs["lower"]).iloc[-1] < 0.3 * (bounds[1] - bounds[0])


def test_normal_mixture_cs_covers_at_all_n():
    rng = np.random.default_rng(7)
    x = rng.normal(0.0, 1.0, (400, 500))
    missed = sum(sq.confidence_sequence(row, sd=1.0).attrs["first_n"] is not None for row in x)
    assert missed / 400 <= 0.05


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("call, name", [
    (lambda: sq.sequential_power(1, 0.1, 1.0), "n_max"),
    (lambda: sq.sequential_power(100, 0.1, 0.0), "sd"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, design="bayes"), "design"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, looks=11), "looks"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, boundary="haybittle"), "boundary"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, futility_p=1.0), "futility_p"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, design="naive", every=0), "every"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, alpha=0.7), "alpha"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, method="bootstrap"), "method"),
    (lambda: sq.sequential_power(100, 0.1, 1.0, n_sims=10), "n_sims"),
    (lambda: sq.sequential_power(100_000, 0.1, 1.0, design="anytime", n_sims=10_000), "n_sims"),
    (lambda: sq.sequential_sample_size(0.0, 1.0), "delta"),
    (lambda: sq.sequential_sample_size(0.1, 1.0, target_power=1.0), "target_power"),
    (lambda: sq.cs_halfwidth(0, 1.0, plan_n=10), "n"),
    (lambda: sq.cs_halfwidth(10, 1.0, plan_n=0), "plan_n"),
    (lambda: sq.confidence_sequence([1.0]), "x"),
    (lambda: sq.confidence_sequence([1.0, np.nan]), "x"),
    (lambda: sq.confidence_sequence([0.5, 2.0], bounds=(0, 1)), "x"),
    (lambda: sq.confidence_sequence([0.5, 0.2], bounds=(1, 0)), "bounds"),
    (lambda: sq.confidence_sequence([1.0, 1.0]), "sd"),
])
def test_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


# ---------------------------------------------------------------------------
# per-item models of the other scenarios
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(), dict(difficulty_sd=0.25, correlation=0.6),
                                dict(difficulty_sd=0.2, correlation=0.5, samples=5, cluster_size=10, icc=0.2,
                                     judge_sensitivity=0.9, judge_specificity=0.85)])
def test_benchmark_item_model_reproduces_the_llm_closed_form(kw):
    # the model lives in core.llm.sequential: the engine imports no scenario package
    assert not hasattr(sq, "benchmark_item_model")
    # oracles: the z test with the per-item SD of core.llm's variance model (Miller 2024), in closed form; and
    # core.llm.benchmark_power, whose t test on G − 1 degrees of freedom differs from the z test only by t vs z
    from scipy import stats

    from core import llm

    m = benchmark_item_model(accuracy_a=0.7, accuracy_b=0.73, **kw)
    fixed = sq.sequential_power(1000, m.delta, m.sd, design="fixed")
    shift = abs(m.delta) * math.sqrt(1000) / m.sd
    z = stats.norm.isf(0.025)
    assert fixed.power == pytest.approx(stats.norm.sf(z - shift), rel=1e-9)
    assert fixed.type_s == pytest.approx(stats.norm.cdf(-z - shift) / (stats.norm.sf(z - shift)
                                                                      + stats.norm.cdf(-z - shift)), rel=1e-6)
    ref = llm.benchmark_power(1000, 0.7, 0.73, **kw)
    df = -(-1000 // kw.get("cluster_size", 1)) - 1  # G − 1
    assert ref.power == pytest.approx(stats.nct.sf(stats.t.isf(0.025, df), df, shift), rel=1e-8)


def test_vote_item_model_by_enumeration():
    p, t = 0.62, 0.15
    values, probs = np.array([1.0, -1.0, 0.0]), np.array([(1 - t) * p, (1 - t) * (1 - p), t])
    mean = float(values @ probs)
    m = sq.vote_item_model(p, tie_rate=t)
    assert m.delta == pytest.approx(mean) and m.sd == pytest.approx(math.sqrt(float(values**2 @ probs) - mean**2))


def test_compare_designs_rows():
    table = sq.compare_designs(1200, 0.03, 0.5, looks=4, n_sims=2000, seed=1).set_index("design")
    assert list(table.index) == ["fixed", "group", "anytime"]
    assert table.loc["fixed", "expected_n"] == 1200
    assert table.loc["group", "expected_n"] < 1200 and table.loc["anytime", "mc_se"] > 0
    assert table.loc["group", "power"] == pytest.approx(
        sq.sequential_power(1200, 0.03, 0.5, design="group", looks=4).power)


def test_futility_threshold_beyond_the_efficacy_boundary():
    # p > 0.01 at an interim look is futile, but a significant look stops for efficacy first
    a = sq.sequential_power(1000, 0.1, 1.0, design="group", looks=3, boundary="pocock", futility_p=0.01)
    s = sq.sequential_power(1000, 0.1, 1.0, design="group", looks=3, boundary="pocock", futility_p=0.01,
                            method="simulate", n_sims=20_000, seed=2)
    assert a.stop_probabilities == pytest.approx((1.0, 0.0, 0.0))
    assert a.false_positive_rate == pytest.approx(0.05, abs=1e-6)
    assert abs(a.power - s.power) <= 4 * s.mc_se
    r = sq.campaign_power("interim_futility", 1200, 2.0, futility_p=0.01)
    assert 0 <= r.power <= 1 and sum(r.stop_probabilities) == pytest.approx(1.0)


def test_sequential_design_is_the_keyword_api():
    """SequentialDesign wraps sequential_power / compare_designs / sequential_curves with one set of options."""
    d = sq.SequentialDesign(0.1, 1.0, looks=4, boundary="pocock")
    assert d.power(800).power == sq.sequential_power(800, 0.1, 1.0, looks=4, boundary="pocock").power
    assert d.sample_size() == sq.sequential_sample_size(0.1, 1.0, looks=4, boundary="pocock")
    table = d.compare(800, n_sims=200, designs=("fixed", "group"))
    assert table.equals(sq.compare_designs(800, 0.1, 1.0, looks=4, boundary="pocock", n_sims=200,
                                           designs=("fixed", "group")))
    assert sq.SequentialDesign.from_model(sq.ItemModel(delta=0.1, sd=1.0)) == sq.SequentialDesign(0.1, 1.0)
    with pytest.raises(ValueError, match="`sd`"):
        sq.SequentialDesign(0.1, 0.0)
    with pytest.raises(ValueError, match="`boundary`"):
        sq.SequentialDesign(0.1, 1.0, boundary="haybittle")


# ---------------------------------------------------------------------------
# binding futility, realised looks, sample sizes of every design
# ---------------------------------------------------------------------------
def _null_rejection_mc(look_n, eff_z, fut_z, n_sims, seed):
    """Independent Monte Carlo of the monitoring rule under H0: Z_k = S_{n_k}/√n_k from normal increments,
    stop for efficacy at |Z_k| >= eff_z[k], else for futility at |Z_k| < fut_z[k] (k < K)."""
    n = np.asarray(look_n, dtype=float)
    rng = np.random.default_rng(seed)
    s = np.cumsum(rng.standard_normal((n_sims, n.size)) * np.sqrt(np.diff(np.concatenate([[0.0], n]))), axis=1)
    z = np.abs(s) / np.sqrt(n)
    running = np.ones(n_sims, dtype=bool)
    rejected = np.zeros(n_sims, dtype=bool)
    for k in range(n.size):
        hit = running & (z[:, k] >= eff_z[k])
        rejected |= hit
        running &= ~hit
        if k < n.size - 1:
            running &= z[:, k] >= fut_z[k]
    return rejected.mean()


def test_binding_futility_when_the_constant_falls_low():
    # O'Brien–Fleming, K = 10, binding futility at p > 0.2: so many null runs stop for futility that the constant
    # falls below z_{0.975}/2 (the root finder's old lower bracket); the design exists and has size α
    r = sq.sequential_power(1000, 0.0, 1.0, design="group", looks=10, boundary="obrien_fleming", futility_p=0.2)
    assert r.false_positive_rate == pytest.approx(0.05, abs=1e-8)
    assert r.boundaries_z[-1] < stats.norm.isf(0.025) / 2
    assert sum(r.stop_probabilities) == pytest.approx(1.0) and all(0 <= p <= 1 for p in r.stop_probabilities)
    mc = _null_rejection_mc(r.look_n, r.boundaries_z, r.futility_z, 200_000, seed=11)
    assert abs(mc - r.false_positive_rate) <= 4 * math.sqrt(0.05 * 0.95 / 200_000)
    alt = sq.sequential_power(1000, 0.1, 1.0, design="group", looks=10, boundary="obrien_fleming", futility_p=0.2)
    assert 0 <= alt.type_s <= 1 and 0 <= alt.power <= 1


def test_spending_more_than_the_runs_left_is_refused_naming_futility_p():
    # Lan–DeMets (O'Brien–Fleming type), K = 7, α = 0.0775, binding futility at p > 0.3: the spending function asks
    # for more at the late looks than the fraction of null runs still going, so no boundary spends α
    with pytest.raises(ValueError, match="`futility_p`.*`alpha`"):
        sq.sequential_power(1000, 0.0, 1.0, design="group", looks=7, boundary="lan_demets", futility_p=0.3,
                            alpha=0.0775)
    # the same design with rarer futility stops exists
    r = sq.sequential_power(1000, 0.0, 1.0, design="group", looks=7, boundary="lan_demets", futility_p=0.8,
                            alpha=0.0775)
    assert r.false_positive_rate == pytest.approx(0.0775, abs=1e-8)


def test_rounded_looks_keep_the_size_at_alpha():
    # n = 5 in 4 looks: looks at 1, 2, 4, 5 items, not 1.25, 2.5, 3.75, 5; boundaries at the realised information
    # fractions (Lan & DeMets 1983) keep the size at α (equal-spacing boundaries gave 0.0517)
    r = sq.sequential_power(5, 0.0, 1.0, looks=4, boundary="pocock")
    assert r.look_n == (1, 2, 4, 5)
    assert r.false_positive_rate == pytest.approx(0.05, abs=1e-9)
    rng = np.random.default_rng(5)
    for _ in range(100):
        looks = int(rng.integers(2, 11))
        n = int(rng.integers(looks, 60))
        kind = str(rng.choice(sq.BOUNDARIES))
        alpha = float(rng.choice([0.01, 0.05, 0.1, 0.2]))
        fut = float(rng.uniform(0.3, 0.9)) if rng.random() < 0.3 else None
        try:
            r = sq.sequential_power(n, 0.0, 1.0, looks=looks, boundary=kind, alpha=alpha, futility_p=fut)
        except ValueError as err:  # only binding futility can make a spending design impossible
            assert fut is not None and "`futility_p`" in str(err)
            continue
        assert r.false_positive_rate <= alpha + 1e-9, (n, looks, kind, alpha, fut)


@pytest.mark.parametrize("n, looks, kind, futility_p", [(5, 4, "pocock", None), (7, 3, "obrien_fleming", None),
                                                         (13, 5, "lan_demets", None),
                                                         (11, 4, "lan_demets_pocock", 0.6), (9, 6, "pocock", 0.7)])
def test_null_rejection_at_rounded_looks_against_an_independent_monte_carlo(n, looks, kind, futility_p):
    r = sq.sequential_power(n, 0.0, 1.0, looks=looks, boundary=kind, futility_p=futility_p)
    assert len(set(np.diff(r.look_n))) > 1  # the looks are unequally spaced
    mc = _null_rejection_mc(r.look_n, r.boundaries_z, r.futility_z, 200_000, seed=n)
    assert abs(mc - r.false_positive_rate) <= 4 * math.sqrt(0.05 * 0.95 / 200_000)
    assert r.false_positive_rate == pytest.approx(0.05, abs=1e-9)


def test_equally_spaced_looks_keep_the_classical_boundaries():
    # 900 items in 3 looks are equally spaced: the published constants, exactly as boundary_z gives them
    for kind in sq.BOUNDARIES:
        r = sq.sequential_power(900, 0.1, 1.0, looks=3, boundary=kind)
        assert r.boundaries_z == tuple(sq.boundary_z(3, kind=kind))


@pytest.mark.parametrize("kw", [dict(design="naive", every=50), dict(design="naive", every=7),
                                dict(design="group", looks=10, boundary="pocock", futility_p=0.9),
                                dict(design="group", looks=7, boundary="lan_demets_pocock", alpha=0.2),
                                dict(design="fixed", alpha=0.3, target_power=0.99)])
def test_sample_size_of_designs_with_odd_parameters(kw):
    n = sq.sequential_sample_size(0.1, 1.0, **kw)
    power_kw = {k: v for k, v in kw.items() if k != "target_power"}
    target = kw.get("target_power", 0.8)
    assert sq.sequential_power(n, 0.1, 1.0, **power_kw).power >= target
    assert sq.sequential_power(n - 1, 0.1, 1.0, **power_kw).power < target


def test_sample_size_of_a_naive_design_starts_at_one_interval_and_anytime_is_found():
    # every = 5,000 > the items needed: the smallest n_max the design accepts is one interval
    assert sq.sequential_sample_size(0.1, 1.0, design="naive", every=5000) == 5000
    # `every` belongs to naive designs: given to a group design it does not bound the search
    assert sq.sequential_sample_size(0.1, 1.0, design="group", every=5000) == sq.sequential_sample_size(0.1, 1.0)
    n = sq.sequential_sample_size(0.2, 1.0, design="anytime", n_sims=1000, seed=3)
    assert sq.sequential_power(n, 0.2, 1.0, design="anytime", n_sims=1000, seed=3).power >= 0.8
    assert n > sq.sequential_sample_size(0.2, 1.0, design="fixed")  # anytime-valid costs items


@pytest.mark.parametrize("kw, name", [
    (dict(design="naive", every=50, n_limit=40), "n_limit"),
    (dict(design="group", looks=10, n_limit=5), "n_limit"),
    (dict(design="fixed", n_limit=100), "n_limit"),
    (dict(design="naive", every=0), "every"),
    (dict(design="group", boundary="haybittle"), "boundary"),
    (dict(design="group", looks=7, boundary="lan_demets", futility_p=0.3, alpha=0.0775), "futility_p"),
    (dict(design="sprt"), "design"),
])
def test_sample_size_refusals_name_the_parameter(kw, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        sq.sequential_sample_size(0.1, 1.0, **kw)

"""Paired non-inferiority and equivalence (core.accuracy.noninferiority) against independent oracles.

Oracles: the closed-form sample sizes of Nam (1997) and the usual TOST formula (Schuirmann 1987),
recomputed here from a numerically maximised restricted likelihood; brute-force enumeration of every
trinomial table (b, c, n − b − c) with scipy's multinomial pmf; Monte Carlo within 4 standard errors; and null
calibration (rejection rate at Δ = −margin).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from core import accuracy as acc
from core.accuracy import noninferiority as ni


def _restricted_mle(b, c, n, delta0):
    """Numerical restricted MLE of (p_b, p_c) under p_b − p_c = delta0 (scipy, bounded scalar search)."""
    a = n - b - c
    lo = max(0.0, -delta0) + 1e-12
    hi = (1.0 - delta0) / 2.0 - 1e-12

    def nll(x):
        pb, pc = x + delta0, x
        pa = 1.0 - pb - pc
        return -(b * math.log(max(pb, 1e-300)) + c * math.log(max(pc, 1e-300)) + a * math.log(max(pa, 1e-300)))

    x = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12}).x
    return x + delta0, x


# ---------------------------------------------------------------------------
# published / closed-form sample sizes
# ---------------------------------------------------------------------------
def test_noninferiority_sample_sizes_reproduce_closed_forms():
    # ψ = 0.10, Δ = 0, margin 0.01, one-sided α = 0.025, 80%: Wald 7,849, score (Nam 1997 / Tango 1998) 7,893
    assert acc.noninferiority_sample_size(0.0, 0.9, 0.01, test="wald") == 7849
    assert acc.noninferiority_sample_size(0.0, 0.9, 0.01, test="score") == 7893
    za, zb = stats.norm.isf(0.025), stats.norm.ppf(0.8)
    assert math.ceil((za + zb) ** 2 * 0.1 / 0.01**2) == 7849
    # score: the null variance is the restricted MLE at the margin evaluated at the true cells (0.05, 0.05)
    pb, pc = _restricted_mle(0.05, 0.05, 1.0, -0.01)
    null_sd = math.sqrt(pb + pc - 0.01**2)
    assert math.ceil((za * null_sd + zb * math.sqrt(0.1)) ** 2 / 0.01**2) == 7893


def test_equivalence_sample_size_reproduces_tost_formula():
    # margins ±0.02, α = 0.05 per side, Δ = 0, ψ = 0.10: n = (z_0.95 + z_0.90)² ψ / m² = 2,141
    assert acc.equivalence_sample_size(0.0, 0.9, 0.02, test="wald") == 2141
    z = stats.norm.isf(0.05) + stats.norm.ppf(0.9)
    assert math.ceil(z**2 * 0.1 / 0.02**2) == 2141
    # the score TOST needs more (its null variances at ±m exceed ψ)
    assert acc.equivalence_sample_size(0.0, 0.9, 0.02) > 2141


def test_normal_power_at_the_sizes_straddles_the_target():
    for test, n in (("wald", 7849), ("score", 7893)):
        assert acc.noninferiority_power(n, 0.0, 0.9, 0.01, test=test, method="normal").power >= 0.8
        assert acc.noninferiority_power(n - 1, 0.0, 0.9, 0.01, test=test, method="normal").power < 0.8
    assert acc.equivalence_power(2141, 0.0, 0.9, 0.02, test="wald", method="normal").power >= 0.8
    assert acc.equivalence_power(2140, 0.0, 0.9, 0.02, test="wald", method="normal").power < 0.8


@pytest.mark.parametrize("cells", [(3, 5, 40), (0, 0, 25), (7, 0, 30), (0, 9, 30), (12, 4, 200), (40, 41, 90)])
@pytest.mark.parametrize("margin", [0.01, 0.05, 0.2])
def test_restricted_variance_matches_numerical_mle(cells, margin):
    b, c, n = cells
    pb, pc = _restricted_mle(b, c, n, -margin)
    expected = pb + pc - margin**2
    assert acc.restricted_variance(b / n, c / n, -margin) == pytest.approx(expected, abs=1e-7)


# ---------------------------------------------------------------------------
# exact power by brute-force enumeration of the trinomial
# ---------------------------------------------------------------------------
def _enumerated_power(n, delta, agreement, margin, alpha, test, sides):
    psi = 1.0 - agreement
    pb, pc = (psi + delta) / 2, (psi - delta) / 2
    b, c = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = b + c <= n
    b, c = b[keep], c[keep]
    pmf = stats.multinomial.pmf(np.stack([b, c, n - b - c], axis=1), n, [pb, pc, 1 - pb - pc])
    kind = "wald" if test == "wald" else "score"
    crit = ni._exact_critical(n, margin, alpha) if test == "exact" else stats.norm.isf(alpha)
    reject = ni._statistic(b, c, n, margin, kind) >= crit  # every table, no monotonicity assumed
    if sides == 2:
        reject &= ni._statistic(c, b, n, margin, kind) >= crit
    return float(pmf[reject].sum())


@pytest.mark.parametrize("test", ["wald", "score", "exact"])
@pytest.mark.parametrize("design", [(60, 0.0, 0.8, 0.1), (45, -0.05, 0.7, 0.1), (70, 0.05, 0.85, 0.05),
                                    (30, 0.0, 0.95, 0.1)])
def test_exact_power_equals_full_enumeration(test, design):
    n, delta, agreement, margin = design
    got = acc.noninferiority_power(n, delta, agreement, margin, test=test).power
    assert got == pytest.approx(_enumerated_power(n, delta, agreement, margin, 0.025, test, 1), abs=1e-9)
    got2 = acc.equivalence_power(n, delta, agreement, margin, test=test).power
    assert got2 == pytest.approx(_enumerated_power(n, delta, agreement, margin, 0.05, test, 2), abs=1e-9)


@pytest.mark.parametrize("test", ["wald", "score", "exact"])
def test_exact_power_agrees_with_simulation(test):
    args = (400, -0.01, 0.85, 0.05)
    exact = acc.noninferiority_power(*args, test=test).power
    sim = acc.noninferiority_power(*args, test=test, method="simulate", n_sims=40_000, seed=3)
    assert sim.mc_se > 0
    assert abs(sim.power - exact) <= 4 * sim.mc_se
    exact2 = acc.equivalence_power(*args, test=test).power
    sim2 = acc.equivalence_power(*args, test=test, method="simulate", n_sims=40_000, seed=4)
    assert abs(sim2.power - exact2) <= 4 * sim2.mc_se


def test_normal_closed_form_approaches_exact_power_at_large_n():
    for test in ("wald", "score"):
        exact = acc.noninferiority_power(7893, 0.0, 0.9, 0.01, test=test).power
        normal = acc.noninferiority_power(7893, 0.0, 0.9, 0.01, test=test, method="normal").power
        assert abs(exact - normal) < 0.005


# ---------------------------------------------------------------------------
# null calibration
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [40, 150, 600])
def test_exact_test_never_exceeds_alpha_on_the_null_boundary(n):
    margin, alpha = 0.05, 0.025
    for psi in np.linspace(0.051, 0.95, 37):
        size = acc.noninferiority_power(n, -margin, 1 - psi, margin, test="exact").power
        assert size <= alpha + 1e-9, (n, psi, size)


def test_score_test_is_close_to_its_level_and_wald_can_overshoot_at_small_n():
    # large n: both asymptotic tests hold their level closely at Δ = −m
    for test in ("wald", "score"):
        size = acc.noninferiority_power(5000, -0.02, 0.8, 0.02, test=test).power
        assert abs(size - 0.025) < 0.004
    # small n, few discordant items: the Wald test is anti-conservative (its variance estimate is too small)
    wald = acc.noninferiority_power(60, -0.05, 0.95, 0.05, test="wald").power
    exact = acc.noninferiority_power(60, -0.05, 0.95, 0.05, test="exact").power
    assert wald > 0.1 and 0.025 >= exact
    # the value the Accuracy page quotes next to the Wald choice
    assert round(100 * wald, 1) == 14.5


@pytest.mark.parametrize("n", [1, 2, 5, 10, 20])
def test_wald_never_rejects_on_a_zero_variance_table(n):
    # no discordant item: p̂_b = p̂_c = 0, the Wald variance is 0 and the statistic undefined (Tango 1998)
    assert ni._statistic(0, 0, n, 0.05, "wald") == -np.inf
    assert ni._statistic(n, 0, n, 0.05, "wald") == -np.inf  # every item discordant one way: variance 0 as well
    # at n = 10, P_a = 0.95 the table (0, 0) alone has mass 0.95^10 = 0.599: the size must stay <= α
    for fn, alpha in ((acc.noninferiority_power, 0.025), (acc.equivalence_power, 0.05)):
        size = fn(n, -0.05, 0.95, 0.05, test="wald", alpha=alpha).power
        assert size <= alpha
        assert size == pytest.approx(_enumerated_power(n, -0.05, 0.95, 0.05, alpha, "wald",
                                                       1 if fn is acc.noninferiority_power else 2), abs=1e-12)
    # the rejection region without the zero-variance tables, by full enumeration, at a design where (n, 0) has mass
    got = acc.noninferiority_power(n, 0.4, 0.2, 0.05, test="wald").power
    assert got == pytest.approx(_enumerated_power(n, 0.4, 0.2, 0.05, 0.025, "wald", 1), abs=1e-12)


def _first_by_scan(psi, delta, margin, alpha, test, sides, target, top):
    ns = np.arange(1, top + 1)
    reached = ni._exact_power_many(ns, psi, delta, margin, alpha, test, sides) >= target
    return int(ns[np.argmax(reached)]) if reached.any() else -1


def test_exact_sample_size_of_the_reported_design_is_the_first_n_reaching_the_target():
    # the engine's power at n = 1 was 0.79 (the table with no discordant item rejected) while .first said 233
    sizes = acc.noninferiority_sample_sizes(0.0388, 0.549, 0.0807, target_power=0.7756, test="wald", method="exact")
    assert acc.noninferiority_power(1, 0.0388, 0.549, 0.0807, test="wald").power == 0.0
    assert sizes.first == _first_by_scan(0.451, 0.0388, 0.0807, 0.025, "wald", 1, 0.7756, sizes.first)


@pytest.mark.parametrize("seed", range(6))
def test_exact_sample_sizes_equal_a_brute_force_scan_on_random_small_designs(seed):
    rng = np.random.default_rng(seed)
    for test in ("wald", "score"):
        for sides in (1, 2):
            agreement = rng.uniform(0.4, 0.97)
            psi = 1.0 - agreement
            margin = rng.uniform(0.04, 0.15)
            if sides == 1:
                delta = rng.uniform(max(-psi, -margin) * 0.8, min(psi, 0.1))
            else:
                delta = rng.uniform(-1, 1) * 0.6 * min(psi, margin)
            target, alpha = rng.uniform(0.3, 0.9), float(rng.choice([0.025, 0.05, 0.1]))
            fn = acc.noninferiority_sample_sizes if sides == 1 else acc.equivalence_sample_sizes
            sizes = fn(delta, agreement, margin, target_power=target, alpha=alpha, test=test, method="exact",
                       n_max=4000)
            top = sizes.first if sizes.first > 0 else 4000
            assert sizes.first == _first_by_scan(psi, delta, margin, alpha, test, sides, target, top), (
                test, sides, delta, agreement, margin, target, alpha)


def test_power_rises_with_the_true_difference_and_tost_is_symmetric():
    powers = [acc.noninferiority_power(800, d, 0.85, 0.03).power for d in (-0.03, -0.01, 0.0, 0.02)]
    assert powers == sorted(powers) and powers[0] < 0.05 and powers[-1] > 0.9
    a = acc.equivalence_power(900, 0.01, 0.85, 0.04).power
    b = acc.equivalence_power(900, -0.01, 0.85, 0.04).power
    assert a == pytest.approx(b, abs=1e-12)


# ---------------------------------------------------------------------------
# first / conservative sample sizes of the exact power
# ---------------------------------------------------------------------------
def test_exact_sample_sizes_match_a_brute_force_scan():
    sizes = acc.noninferiority_sample_sizes(0.0, 0.8, 0.05, method="exact", test="score")
    ns = np.arange(1, sizes.conservative + 400)
    power = ni._exact_power_many(ns, 0.2, 0.0, 0.05, 0.025, "score", 1)
    reached = power >= 0.8
    assert sizes.first == int(ns[np.argmax(reached)])
    assert sizes.conservative == int(ns[np.flatnonzero(~reached)[-1]] + 1)
    assert acc.noninferiority_sample_size(0.0, 0.8, 0.05, method="exact", conservative=True) == sizes.conservative


def test_errors_name_the_parameter():
    with pytest.raises(ValueError, match="`margin`"):
        acc.noninferiority_power(100, 0.0, 0.9, 0.0)
    with pytest.raises(ValueError, match="`delta`"):
        acc.noninferiority_power(100, 0.2, 0.9, 0.01)
    with pytest.raises(ValueError, match="`delta`"):
        acc.noninferiority_sample_size(-0.02, 0.9, 0.01)
    with pytest.raises(ValueError, match="`delta`"):
        acc.equivalence_sample_size(0.03, 0.9, 0.02)
    with pytest.raises(ValueError, match="`test`"):
        acc.noninferiority_power(100, 0.0, 0.9, 0.01, test="t")
    with pytest.raises(ValueError, match="`n`"):
        acc.noninferiority_power(3000, 0.0, 0.9, 0.01, test="exact")
    with pytest.raises(ValueError, match="`test`"):
        acc.noninferiority_sample_size(0.0, 0.9, 0.01, test="exact")
    with pytest.raises(ValueError, match="`alpha`"):
        acc.equivalence_power(100, 0.0, 0.9, 0.01, alpha=0.6)

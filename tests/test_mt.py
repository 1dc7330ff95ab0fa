"""Tests of core.mt (Card et al. 2020, §4 and appendix G).

Oracles: the full randomization engine (Monte Carlo, tolerance from its
standard error), sacrebleu's own corpus BLEU on actually swapped texts, the
paper's printed statements, and simulated data with known parameters.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import integrate, stats

from core import mt
from core.assurance import normal_assurance

SAMPLE = Path(__file__).resolve().parents[1] / "core" / "data" / "mt_sample" / "sample.tsv"


def _sample():
    return mt.read_tsv(SAMPLE.read_bytes())


# ---------------------------------------------------------------------------
# the paper's statements
# ---------------------------------------------------------------------------
def test_figure_4_running_example():
    # §4 / Figure 4: "an experiment with a test set of 2000 sentences would have approximately 75% power
    # to detect a difference of 1 BLEU point" (P0, b0 = averages of Table 3: 0.13, 25.8). The paper's
    # notebook reports 0.756 from 500 replicates × 1,000 trials (SE 0.019).
    fast = mt.bleu_power(2000, 1.0, 0.13, 25.8)
    assert fast.power == pytest.approx(0.756, abs=2 * 0.019)
    full = mt.bleu_power(2000, 1.0, 0.13, 25.8, method="randomization", n_sims=2000, n_trials=1000, seed=4)
    assert full.power == pytest.approx(0.756, abs=3 * math.hypot(0.019, full.mc_se))


def test_presets_are_table_3():
    # Table 3: (P0, b0) per WMT comparison; the default is their mean (0.125 → 0.13, 25.8)
    table3 = [(0.19, 23.7), (0.09, 29.4), (0.12, 22.5), (0.10, 27.6)]
    rows = [(v["p0"], v["b0"]) for k, v in mt.PRESETS.items() if "Table 3" in k and "default" not in k]
    assert rows == table3
    default = mt.PRESETS["Paper default (mean of Table 3)"]
    assert default["p0"] == pytest.approx(np.mean([r[0] for r in table3]), abs=0.006)
    assert default["b0"] == pytest.approx(np.mean([r[1] for r in table3]), abs=1e-9)


def test_generative_process_moments():
    # §4: E[Σ δ_i] = -2 Δ_B; share of zeros = P0; b = b0 / n
    n, delta, p0, b0 = 1000, 1.5, 0.2, 25.0
    eff = mt.simulate_effects(n, delta, p0, b0, size=2000, seed=1)
    sums = eff.sum(axis=1)
    assert sums.mean() == pytest.approx(-2 * delta, abs=4 * sums.std(ddof=1) / math.sqrt(2000))
    zeros = (eff == 0).mean()
    assert zeros == pytest.approx(p0, abs=4 * math.sqrt(p0 * (1 - p0) / eff.size))


# ---------------------------------------------------------------------------
# fast engine vs randomization engine across the slider ranges
# ---------------------------------------------------------------------------
# corners and interior of the page's ranges (n 100–20,000, Δ_B 0–5, P0 0–0.9, b0 5–60) where at
# least 75 sentences are expected to change the BLEU difference (n(1 - P0) >= 75; the page warns below)
GRID = [
    (100, 1.0, 0.0, 5.0), (100, 3.0, 0.2, 60.0), (150, 1.5, 0.5, 15.0), (250, 2.0, 0.7, 25.8),
    (800, 0.5, 0.9, 10.0), (1000, 1.0, 0.5, 25.8), (2000, 1.0, 0.13, 25.8), (3000, 4.2, 0.09, 60.0),
    (20000, 0.3, 0.13, 25.8), (20000, 0.1, 0.9, 5.0), (500, 0.0, 0.3, 25.8), (5000, 0.0, 0.9, 60.0),
]


@pytest.mark.parametrize("n, delta, p0, b0", GRID)
def test_fast_engine_agrees_with_randomization(n, delta, p0, b0):
    fast = mt.bleu_power(n, delta, p0, b0)
    full = mt.bleu_power(n, delta, p0, b0, method="randomization", n_sims=3000, n_trials=999, seed=10)
    # SE of the simulation under the hypothesis that the fast value is right
    se = math.sqrt(max(fast.power * (1 - fast.power), 1e-4) / 3000)
    assert abs(fast.power - full.power) <= 4 * se
    if delta > 0 and full.type_m_se > 0:
        assert abs(fast.type_m - full.type_m) <= 4 * full.type_m_se + 0.01


def test_null_calibration():
    for n, p0, b0 in [(300, 0.13, 25.8), (5000, 0.5, 10.0)]:
        fast = mt.bleu_power(n, 0.0, p0, b0)
        assert fast.rejection_rate == pytest.approx(0.05, abs=0.002)  # calibrated by construction
        full = mt.bleu_power(n, 0.0, p0, b0, method="randomization", n_sims=4000, n_trials=999, seed=3)
        assert full.rejection_rate <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 4000)


def test_randomization_engine_progress_and_seed():
    seen = []
    a = mt.bleu_power(300, 1.0, 0.13, 25.8, method="randomization", n_sims=600, n_trials=199, seed=7,
                      progress=seen.append)
    b = mt.bleu_power(300, 1.0, 0.13, 25.8, method="randomization", n_sims=600, n_trials=199, seed=7)
    assert a == b
    assert seen[-1] == 1.0 and all(x <= y for x, y in zip(seen, seen[1:]))


def test_randomization_pvalue_matches_loop():
    # oracle: the textbook per-replicate randomization test (one replicate, explicit subsets)
    rng = np.random.default_rng(0)
    effects = mt.simulate_effects(200, 2.0, 0.13, 25.8, size=1, seed=rng)[0]
    observed = -0.5 * effects.sum()
    swaps = rng.random((999, 200)) < 0.5
    swapped = observed + swaps.astype(float) @ effects
    p_loop = (1 + np.sum(np.abs(swapped) >= abs(observed))) / 1000
    # sign-flip identity used by the engines: swapped = ½ Σ ε_i δ_i with ε = 2s - 1
    np.testing.assert_allclose(swapped, 0.5 * ((2 * swaps - 1) @ effects), atol=1e-12)
    assert 0 < p_loop <= 1


# ---------------------------------------------------------------------------
# MDE and sample size
# ---------------------------------------------------------------------------
def test_mde_and_sample_size_round_trip():
    mde = mt.bleu_mde(2000, 0.13, 25.8)
    assert mt.bleu_power(2000, mde, 0.13, 25.8).power == pytest.approx(0.8, abs=1e-6)
    n = mt.bleu_sample_size(1.0, 0.13, 25.8)
    assert mt.bleu_power(n, 1.0, 0.13, 25.8).power >= 0.8 > mt.bleu_power(n - 1, 1.0, 0.13, 25.8).power


def test_power_grid_is_figure_4_shape():
    grid = mt.power_grid([500, 2000, 5000], [0.5, 1.0, 2.0], [0.13], [25.8])
    assert len(grid) == 9
    for _, part in grid.groupby("delta_bleu"):
        assert part.sort_values("n")["power"].is_monotonic_increasing
    # Figure 17: larger b0 lowers power, larger P0 raises it
    assert mt.bleu_power(2000, 1, 0.13, 40).power < mt.bleu_power(2000, 1, 0.13, 20).power
    assert mt.bleu_power(2000, 1, 0.6, 25.8).power > mt.bleu_power(2000, 1, 0.1, 25.8).power


# ---------------------------------------------------------------------------
# fitting
# ---------------------------------------------------------------------------
def test_fit_recovers_known_parameters():
    n, p0, b0 = 3000, 0.15, 26.0
    eff = mt.simulate_effects(n, 1.0, p0, b0, size=1, seed=5)[0]
    p0_hat, b0_hat, _ = mt.fit_effects(eff)
    assert p0_hat == pytest.approx(p0, abs=4 * math.sqrt(p0 * (1 - p0) / n))
    # MLE of a Laplace scale: SE ≈ b / sqrt(m) for m non-zero effects
    assert b0_hat == pytest.approx(b0, abs=4 * b0 / math.sqrt(n * (1 - p0)))


def test_swap_effects_match_sacrebleu_on_real_text():
    a, b, r = _sample()
    fit = mt.fit_swap_effects(a, b, r)
    # Δ_B against sacrebleu's own corpus BLEU
    bleu_a = sacrebleu.corpus_bleu(a, [r]).score
    bleu_b = sacrebleu.corpus_bleu(b, [r]).score
    assert fit.delta_bleu == pytest.approx(bleu_a - bleu_b, abs=1e-9)
    # each δ_i against a full recomputation on the actually swapped texts
    for i in (0, 3, 7, 19, len(r) - 1):
        a2, b2 = list(a), list(b)
        a2[i], b2[i] = b[i], a[i]
        swapped = sacrebleu.corpus_bleu(a2, [r]).score - sacrebleu.corpus_bleu(b2, [r]).score
        assert fit.effects[i] == pytest.approx(swapped - fit.delta_bleu, abs=1e-9)
    identical = [i for i in range(len(r)) if a[i] == b[i]]
    assert identical and all(fit.effects[i] == 0.0 for i in identical)
    assert fit.p0 == pytest.approx(np.mean(np.abs(fit.effects) <= 1e-9))
    assert fit.b0 == pytest.approx(fit.b * len(r))


def test_additivity_check_on_real_text():
    # appendix G.1 / Figure 15: Σ single-swap effects ≈ effect of swapping the subset
    a, b, r = _sample()
    check = mt.additivity_check(a, b, r, n_subsets=100, seed=2)
    assert check.correlation > 0.95
    # oracle for one subset: sacrebleu on the swapped texts
    rng = np.random.default_rng(2)
    mask = rng.random((100, len(r))) < 0.5
    a2 = [y if m else x for x, y, m in zip(a, b, mask[0])]
    b2 = [x if m else y for x, y, m in zip(a, b, mask[0])]
    fit = mt.fit_swap_effects(a, b, r)
    actual = sacrebleu.corpus_bleu(a2, [r]).score - sacrebleu.corpus_bleu(b2, [r]).score - fit.delta_bleu
    assert check.actual[0] == pytest.approx(actual, abs=1e-9)


# ---------------------------------------------------------------------------
# uploads and errors
# ---------------------------------------------------------------------------
def test_read_parallel_texts_and_errors():
    a, b, r = mt.read_parallel_texts(b"x y\nz w\n", b"x q\nz w\n", b"x y\nz w\n\n")
    assert (a, b, r) == (["x y", "z w"], ["x q", "z w"], ["x y", "z w"])
    with pytest.raises(ValueError, match="same number of lines"):
        mt.read_parallel_texts(b"a\nb\n", b"a\n", b"a\nb\n")
    with pytest.raises(ValueError, match="empty"):
        mt.read_parallel_texts(b"", b"a\n", b"a\n")
    with pytest.raises(ValueError, match="UTF-8"):
        mt.read_parallel_texts(b"\xff\xfe\xfa bad", b"a\n", b"a\n")
    with pytest.raises(ValueError, match="binary"):
        mt.read_parallel_texts(b"\x00\x01\x02", b"a\n", b"a\n")
    with pytest.raises(ValueError, match="at most"):
        mt.read_parallel_texts(b"a\n" * (mt.MAX_SEGMENTS + 1), b"a\n", b"a\n")


def test_read_tsv_errors():
    with pytest.raises(ValueError, match="3"):
        mt.read_tsv(b"a\tb\nc\td\n")
    a, b, r = mt.read_tsv(b"hyp_a\thyp_b\tref\nx\ty\tz\nu\tv\tw\n")
    assert a == ["x", "u"] and r == ["z", "w"]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: mt.bleu_power(1, 1.0, 0.1, 25), "`n`"),
        (lambda: mt.bleu_power(100, 1.0, 1.0, 25), "`p0`"),
        (lambda: mt.bleu_power(100, 1.0, 0.1, 0), "`b0`"),
        (lambda: mt.bleu_power(100, 1.0, 0.1, 25, alpha=0.9), "`alpha`"),
        (lambda: mt.bleu_power(100, 1.0, 0.1, 25, method="bootstrap"), "`method`"),
        (lambda: mt.bleu_power(100, 1.0, 0.1, 25, method="randomization", n_trials=5), "`n_trials`"),
        (lambda: mt.bleu_sample_size(0.0, 0.1, 25), "`delta_bleu`"),
        (lambda: mt.fit_swap_effects(["a"], ["a", "b"], ["a", "b"]), "`hyp_a`"),
    ],
)
def test_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


# ---------------------------------------------------------------------------
# the randomization engine in bounded time and memory
# ---------------------------------------------------------------------------
def test_randomization_engine_replays_the_textbook_test():
    # oracle: replay the engine's random stream (effects, then fair swap bits) and run the textbook test in float64
    n, n_sims, n_trials, seed = 50, 60, 199, 4
    res = mt.bleu_power(n, 2.0, 0.13, 25.8, method="randomization", n_sims=n_sims, n_trials=n_trials, seed=seed)
    rng = np.random.default_rng(seed)
    effects = mt.simulate_effects(n, 2.0, 0.13, 25.8, size=n_sims, seed=rng)
    swaps = mt._swap_block(rng, n_trials, n).astype(float)
    observed = -0.5 * effects.sum(axis=1)
    swapped = observed[None, :] + swaps @ effects.T
    p = (1 + (np.abs(swapped) >= np.abs(observed)[None, :] * (1 - 1e-9)).sum(axis=0)) / (n_trials + 1)
    assert res.power == pytest.approx(np.mean((p <= 0.05) & (observed > 0)))
    assert res.rejection_rate == pytest.approx(np.mean(p <= 0.05))


def test_swap_bits_are_fair_and_independent():
    bits = mt._swap_block(np.random.default_rng(1), 2000, 1001)
    assert bits.shape == (2000, 1001) and set(np.unique(bits)) == {0.0, 1.0}
    assert bits.mean() == pytest.approx(0.5, abs=4 * math.sqrt(0.25 / bits.size))
    corr = np.corrcoef(bits[:, :-1].ravel(), bits[:, 1:].ravel())[0, 1]  # neighbours within a byte and across
    assert abs(corr) <= 4 / math.sqrt(bits.size)


def test_randomization_work_is_capped_with_what_to_reduce():
    with pytest.raises(ValueError, match=r"`n` × `n_sims` × `n_trials` = 20,000 × 3,000 × 4,999.*`n_sims` to at "
                                         r"most 600 or `n_trials` to at most 1,000.*`method` 'normal'"):
        mt.bleu_power(20_000, 1.0, 0.13, 25.8, method="randomization", n_sims=3000, n_trials=4999, seed=1)
    with pytest.raises(ValueError, match=r"`n` × `n_sims` = 20,000 × 5,000.*`n_sims` to at most 3,000 "):
        mt.bleu_power(20_000, 1.0, 0.13, 25.8, method="randomization", n_sims=5000, n_trials=99, seed=1)


# ---------------------------------------------------------------------------
# assurance: power averaged over a normal prior on Δ_B (O'Hagan, Stevens & Campbell 2005)
# ---------------------------------------------------------------------------
def _bleu_tails(n, deltas, p0, b0, alpha=0.05):
    """P(significant, Δ̂ > 0 | Δ) and P(significant, Δ̂ < 0 | Δ) of the normal engine at every Δ (its own tails)."""
    deltas = np.asarray(deltas, dtype=float)
    full = [np.full(deltas.shape, v, dtype=float) for v in (n, p0, b0)]
    up, down, _, _ = mt._normal_tails(full[0], deltas, full[1], full[2], alpha)
    return up, down


# (n, μ, τ, p0, b0): the paper's default, a prior on a loss, a vague prior and a different alpha-free corner
ASSURANCE_CASES = [(2000, 1.0, 1.0, 0.13, 25.8), (2000, -1.0, 0.5, 0.13, 25.8), (500, 0.3, 2.0, 0.2, 30.0),
                   (20000, 0.5, 0.3, 0.09, 29.4)]


@pytest.mark.parametrize("n, mu, p0, b0, alpha", [(2000, 1.0, 0.13, 25.8, 0.05), (300, -2.0, 0.5, 40.0, 0.05),
                                                  (5000, 0.4, 0.1, 27.6, 0.01), (800, 0.0, 0.13, 25.8, 0.05)])
def test_bleu_assurance_with_a_point_prior_is_the_power(n, mu, p0, b0, alpha):
    # oracle: τ = 0 puts all prior mass on μ, so the assurance is bleu_power's power at μ (same engine); at μ = 0
    # that power is the false-positive rate of both directions, of which the hoped-for (positive) direction holds
    # half, the limit of a narrower and narrower prior
    res = mt.bleu_assurance(n, mu, 0.0, p0, b0, alpha=alpha)
    power = mt.bleu_power(n, mu, p0, b0, alpha=alpha).power
    assert res.assurance == pytest.approx(power / 2 if mu == 0 else power, abs=1e-12)
    assert res.assurance == pytest.approx(mt.bleu_assurance(n, mu, 1e-6, p0, b0, alpha=alpha).assurance, abs=1e-6)
    assert res.power_at_mean == pytest.approx(power, abs=1e-12)
    assert res.ceiling == (0.5 if mu == 0 else 1.0) and res.prior_sd == 0.0
    assert res.direction == (1 if mu >= 0 else -1)


@pytest.mark.parametrize("n, mu, tau, p0, b0", ASSURANCE_CASES)
def test_bleu_assurance_ceiling_is_the_prior_probability_of_the_sign(n, mu, tau, p0, b0):
    # oracle: P(sign(Δ) = sign(μ)) = Φ(|μ|/τ) under N(μ, τ²); the truncation at ±100 removes < Φ(-40) (negligible)
    res = mt.bleu_assurance(n, mu, tau, p0, b0)
    assert res.ceiling == pytest.approx(stats.norm.cdf(abs(mu) / tau), abs=1e-9)
    assert res.truncated_mass < 1e-12
    assert 0.0 < res.assurance < res.ceiling
    assert res.power_at_mean == pytest.approx(mt.bleu_power(n, mu, p0, b0).power, abs=1e-12)


@pytest.mark.parametrize("n, mu, tau, p0, b0", ASSURANCE_CASES)
def test_bleu_assurance_against_monte_carlo_over_the_prior(n, mu, tau, p0, b0):
    # oracle: draw Δ_B from the prior and average the engine's directional power (P(significant with sign μ)
    # from _normal_tails, its first value when μ >= 0); tolerance 4 Monte Carlo standard errors
    draws = np.random.default_rng(12).normal(mu, tau, 4000)
    up, down = _bleu_tails(n, draws, p0, b0)
    hoped = up if mu >= 0 else down
    mc, se = hoped.mean(), hoped.std(ddof=1) / math.sqrt(hoped.size)
    assert abs(mt.bleu_assurance(n, mu, tau, p0, b0).assurance - mc) <= 4 * se


@pytest.mark.parametrize("n, mu, tau, p0, b0", ASSURANCE_CASES)
def test_bleu_assurance_against_a_fine_grid_integral(n, mu, tau, p0, b0):
    # oracle: composite Simpson over μ ± 10τ (the prior beyond holds < 2e-23) on 20,001 points; the integrand is
    # smooth and its Simpson error at this spacing (τ/1000) is below 1e-12 (checked against 10,001 points)
    x = np.linspace(mu - 10 * tau, mu + 10 * tau, 20001)
    up, down = _bleu_tails(n, x, p0, b0)
    hoped = up if mu >= 0 else down
    value = integrate.simpson(hoped * stats.norm.pdf(x, mu, tau), x=x)
    assert mt.bleu_assurance(n, mu, tau, p0, b0).assurance == pytest.approx(value, abs=1e-8)


@pytest.mark.parametrize("mu, tau, p0, b0", [(1.0, 1.0, 0.13, 25.8), (-0.4, 0.3, 0.13, 25.8), (0.2, 0.05, 0.5, 40.0),
                                             (0.0, 0.5, 0.13, 25.8)])
def test_bleu_assurance_near_the_normal_closed_form_at_large_n(mu, tau, p0, b0):
    # oracle: O'Hagan et al. (2005) eq. 3 for a z test with SE b0·sqrt((1-P0)/(2n)), the null SD of Δ̂. The normal
    # engine departs from that z test only by O(1/n) terms (the randomness of Σδ² and the alternative's variance
    # inflation 2P0Δ²/((1-P0)²b0²)); at n = 20,000 that is a few 1e-5, so 4/n = 2e-4 bounds it
    n = 20000
    se = b0 * math.sqrt((1 - p0) / (2 * n))
    assert mt.bleu_assurance(n, mu, tau, p0, b0).assurance == pytest.approx(
        normal_assurance(se, mu, tau), abs=4 / n)


@pytest.mark.parametrize("n, mu, tau, p0, b0", ASSURANCE_CASES)
def test_bleu_assurance_is_symmetric_in_the_sign_of_the_prior_mean(n, mu, tau, p0, b0):
    # the Delta–Laplace process is symmetric: P(sig, Δ̂ > 0 | Δ) = P(sig, Δ̂ < 0 | −Δ), so mirroring the prior
    # mirrors the hoped-for direction and leaves the assurance unchanged
    a, b = mt.bleu_assurance(n, mu, tau, p0, b0), mt.bleu_assurance(n, -mu, tau, p0, b0)
    assert a.assurance == pytest.approx(b.assurance, abs=1e-10)
    assert a.ceiling == pytest.approx(b.ceiling, abs=1e-12)
    assert a.direction == -b.direction


def test_bleu_assurance_grows_with_n_towards_the_ceiling():
    values = [mt.bleu_assurance(n, 1.0, 1.0, 0.13, 25.8) for n in (100, 500, 2000, 5000, 20000, 100_000, 1_000_000)]
    assurances = [v.assurance for v in values]
    assert all(a < b for a, b in zip(assurances, assurances[1:]))
    ceiling = stats.norm.cdf(1.0)
    assert all(v.ceiling == pytest.approx(ceiling, abs=1e-9) and v.assurance < v.ceiling for v in values)
    # what stays out of reach is bracketed by the engine's power at a cut c = 4 SE (power rises with Δ > 0):
    # (1 − up(c))·P(0 < Δ < c) − α/2·P(Δ < 0) <= ceiling − assurance <= P(0 < Δ < c) + (1 − up(c))·P(Δ > c)
    n = 1_000_000
    c = 4 * 25.8 * math.sqrt(0.87 / (2 * n))
    miss = 1 - float(_bleu_tails(n, [c], 0.13, 25.8)[0][0])
    near, far = stats.norm.cdf(c, 1, 1) - stats.norm.cdf(0, 1, 1), stats.norm.sf(c, 1, 1)
    gap = ceiling - assurances[-1]
    assert miss * near - 0.025 * stats.norm.cdf(0, 1, 1) <= gap <= near + miss * far
    assert gap < 0.02 and gap > 0.001  # a vague prior keeps a gap even at a million sentences


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: mt.bleu_assurance(2000, 1.0, -0.1, 0.13, 25.8), "`delta_sd`"),
        (lambda: mt.bleu_assurance(1, 1.0, 1.0, 0.13, 25.8), "`n`"),
        (lambda: mt.bleu_assurance(2000, 1.0, 1.0, 1.0, 25.8), "`p0`"),
        (lambda: mt.bleu_assurance(2000, 1.0, 1.0, 0.13, 0.0), "`b0`"),
        (lambda: mt.bleu_assurance(2000, 1.0, 1.0, 0.13, 25.8, alpha=0.9), "`alpha`"),
    ],
)
def test_bleu_assurance_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


def test_additivity_check_reuses_the_fits_segment_statistics():
    import dataclasses

    a, b, r = _sample()
    fit = mt.fit_swap_effects(a, b, r)
    reused = mt.additivity_check(a, b, r, n_subsets=50, seed=4, fit=fit)
    fresh = mt.additivity_check(a, b, r, n_subsets=50, seed=4, fit=dataclasses.replace(fit, segment_stats=None))
    assert np.array_equal(reused.actual, fresh.actual) and reused.correlation == fresh.correlation


def test_segment_limit_is_refused_up_front_with_what_to_reduce():
    rows = "".join(f"a{i}\tb{i}\tr{i}\n" for i in range(mt.MAX_SEGMENTS))
    a, _, _ = mt.read_tsv(("hyp_a\thyp_b\tref\n" + rows).encode())  # the header is not a segment
    assert len(a) == mt.MAX_SEGMENTS
    with pytest.raises(ValueError, match=r"has 20,001 segments; at most 20,000 .*random sample"):
        mt.read_tsv(("hyp_a\thyp_b\tref\n" + rows + "x\ty\tz\n").encode())
    with pytest.raises(ValueError, match=r"`refs` has 20,001 segments; at most 20,000"):
        mt.read_parallel_texts(b"a\n" * 3, b"a\n" * 3, b"a\n" * (mt.MAX_SEGMENTS + 1))


def test_mde_reaches_the_end_of_the_engines_range():
    # the doubling search stopped at 64 < MDE ≤ 100 and said "not reachable" though 100 BLEU reaches the target
    got = mt.bleu_mde(2000, 0.13, 2000.0)
    assert 64 < got < 100
    assert mt.bleu_power(2000, got, 0.13, 2000.0).power == pytest.approx(0.8, abs=1e-6)
    assert math.isnan(mt.bleu_mde(2, 0.13, 25.8))  # two sentences: nothing within 100 points reaches 80%


def test_mt_inputs_are_checked_by_name():
    with pytest.raises(ValueError, match="`delta_bleu` values must be finite"):
        mt.power_grid([100], [float("nan")], [0.13], [25.8])
    with pytest.raises(ValueError, match="`p0` values must be finite"):
        mt.power_grid([100], [1.0], [float("nan")], [25.8])
    with pytest.raises(ValueError, match="`delta_mean`"):
        mt.bleu_assurance(2000, 200.0, 1.0, 0.13, 25.8)
    with pytest.raises(ValueError, match="`hyp_a` must hold strings"):
        mt.fit_swap_effects([1, 2], [3, 4], [5, 6])
    with pytest.raises(ValueError, match="`hyp_a` must be a list"):
        mt.fit_swap_effects(None, None, None)

"""Tests of core.analysis (NLPStatTest, Zhu et al. 2020, §3).

Oracles: hand-computed values, scipy/statsmodels, exact enumeration of the
permutation and bootstrap distributions on tiny inputs, statsmodels
``multipletests``.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from core import analysis as an

SAMPLES = Path(__file__).resolve().parents[1] / "core" / "data" / "analysis_sample"
A = np.array([0.61, 0.72, 0.55, 0.80, 0.67, 0.74, 0.59, 0.70])
B = np.array([0.58, 0.70, 0.57, 0.71, 0.60, 0.73, 0.52, 0.69])


# ---------------------------------------------------------------------------
# parsing and bad input
# ---------------------------------------------------------------------------
def test_parse_sample_files():
    scores = an.parse_results((SAMPLES / "scores.csv").read_bytes(), "scores")
    assert scores.rows_used == scores.rows_total == 300 and scores.names == ("system_a", "system_b")
    binary = an.parse_results((SAMPLES / "correctness.csv").read_bytes(), "binary")
    assert set(np.unique(binary.a)) <= {0.0, 1.0}
    systems = an.parse_results((SAMPLES / "systems.csv").read_bytes(), "systems")
    assert systems.systems.shape == (200, 4)


def test_parse_tsv_without_header_and_predictions():
    parsed = an.parse_results(b"0.5\t0.4\n0.6\t0.6\n0.7\t0.2\n", "scores")
    assert parsed.names == ("column 1", "column 2") and parsed.a.tolist() == [0.5, 0.6, 0.7]
    preds = an.parse_results(b"a,b,gold\npos,neg,pos\nneg,neg,neg\npos,pos,neg\nneg,pos,pos\n", "predictions")
    assert preds.a.tolist() == [1, 1, 0, 0] and preds.b.tolist() == [0, 1, 0, 1]


def test_numeric_predictions_are_compared_by_value():
    """A class written "1.0" by one tool and "1" by another is the same class; text labels stay exact ("Pos" is not
    "pos"), and "01" is the number 1 (numeric columns written with padding)."""
    preds = an.parse_results(b"a,b,gold\n1.0,0,1\n1,1e0,1\n2,2.00,2.0\nPos,pos,pos\n01,1,1\n3,4,3\n",
                             "predictions")
    assert preds.a.tolist() == [1, 1, 1, 0, 1, 1] and preds.b.tolist() == [0, 1, 1, 1, 1, 0]
    # numbers compare exactly: ids beyond 2^53 that one float would hold are different classes
    ids = an.parse_results(b"a,b,gold\n9007199254740993,9007199254740992,9007199254740993\n1,0,1\n0,0,0\n",
                           "predictions")
    assert ids.a.tolist() == [1, 1, 1] and ids.b.tolist() == [0, 0, 1]


def test_missing_values_are_dropped_and_counted():
    parsed = an.parse_results(b"a,b\n1,2\n,3\n4,5\n6,NA\n7,8\n", "scores")
    assert parsed.rows_total == 5 and parsed.rows_used == 3
    assert any("2 rows" in note for note in parsed.notes)


@pytest.mark.parametrize(
    "data, kind, message",
    [
        (b"", "scores", "empty"),
        (b"a,b\n1,x\n2,3\n", "scores", "not a number"),
        (b"a,b\n1,2\n3\n", "scores", "unequal"),
        (b"a\n1\n2\n", "scores", "single column"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "scores", "binary"),
        (b"a,b\n\xff\xfe,1\n", "scores", "UTF-8"),
        (b"a,b\n1,2\n0,3\n1,1\n", "binary", "only 0 and 1"),
        (b"a,b\n1,2\n", "scores", "at least 3"),
        (b"x,y\n1,2\n3,4\n", "predictions", "3 columns"),
    ],
)
def test_bad_uploads(data, kind, message):
    with pytest.raises(ValueError, match=message):
        an.parse_results(data, kind)


def test_oversized_upload(monkeypatch):
    monkeypatch.setattr(an._common, "MAX_BYTES", 100)
    with pytest.raises(ValueError, match="at most"):
        an.read_table(b"1,2\n" * 100)


def test_evaluation_units():
    u, v = an.evaluation_units(np.arange(10), np.arange(10) * 2, 3)
    assert u.tolist() == [1, 4, 7] and v.tolist() == [2, 8, 14]  # remainder of 1 item dropped
    u2, _ = an.evaluation_units(np.arange(10), np.arange(10), 3, how="median", seed=1)
    assert len(u2) == 3


# ---------------------------------------------------------------------------
# recommendation (§3.1.3–3.1.5)
# ---------------------------------------------------------------------------
def test_bootstrap_is_not_recommended_for_few_units_where_it_rejects_too_often():
    # null calibration: normal differences with mean 0, 10 units, α = 5%: the bootstrap test rejects ≈ 10%
    rng = np.random.default_rng(11)
    reps = 400
    rejected = sum(an.paired_tests(rng.standard_normal(10), np.zeros(10), tests=["bootstrap"], n_resamples=1000,
                                   seed=k).loc[0, "p_value"] <= 0.05 for k in range(reps))
    assert rejected / reps > 0.05 + 2 * math.sqrt(0.05 * 0.95 / reps)
    small = an.recommend_tests(rng.normal(0.1, 1.0, 10)).tests.set_index("test")
    assert small.loc["bootstrap", "verdict"] == "less preferred" and "rejects too often" in small.loc["bootstrap",
                                                                                                      "reason"]
    large = an.recommend_tests(rng.normal(0.1, 1.0, 200)).tests.set_index("test")
    assert large.loc["bootstrap", "verdict"] == "recommended"


def test_recommendation_rules():
    rng = np.random.default_rng(1)
    normal = an.recommend_tests(rng.normal(0.1, 1, 200))
    assert normal.symmetry == "roughly symmetric" and normal.statistic == "mean" and normal.normal
    assert normal.tests.set_index("test").loc["t", "verdict"] == "recommended"
    skewed = an.recommend_tests(rng.exponential(1, 200) - 0.5)
    assert skewed.symmetry == "highly skewed" and skewed.statistic == "median" and math.isnan(skewed.shapiro_p)
    assert skewed.tests.set_index("test").loc["t", "verdict"] == "inappropriate"
    assert skewed.tests.set_index("test").loc["sign", "verdict"] == "recommended"
    binary = an.recommend_tests(np.array([1, 0, -1, 0, 1, 1, 0]), binary=True)
    assert binary.tests.set_index("test").loc["mcnemar", "verdict"] == "recommended"
    # the skewness is the bias-corrected sample skewness
    x = rng.normal(size=50)
    assert an.recommend_tests(x).skewness == pytest.approx(stats.skew(x, bias=False))


# ---------------------------------------------------------------------------
# tests (§3.2)
# ---------------------------------------------------------------------------
def test_t_and_wilcoxon_and_sign_against_hand_and_scipy():
    res = an.paired_tests(A, B, seed=0, tests=["t", "wilcoxon", "sign"]).set_index("test")
    d = A - B
    t = d.mean() / (d.std(ddof=1) / math.sqrt(d.size))  # by hand
    assert res.loc["t", "statistic"] == pytest.approx(t)
    assert res.loc["t", "p_value"] == pytest.approx(2 * stats.t.sf(abs(t), d.size - 1))
    half = stats.t.isf(0.025, 7) * d.std(ddof=1) / math.sqrt(8)
    assert (res.loc["t", "ci_low"], res.loc["t", "ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    assert res.loc["wilcoxon", "p_value"] == pytest.approx(stats.wilcoxon(A, B).pvalue)
    pos, neg = int((d > 0).sum()), int((d < 0).sum())  # 7 up, 1 down → 2·P(X ≤ 1 | 8, ½)
    assert res.loc["sign", "p_value"] == pytest.approx(2 * sum(math.comb(8, k) for k in range(min(pos, neg) + 1)) / 2**8)


def test_permutation_matches_exact_enumeration():
    d = A - B
    flips = np.array(list(itertools.product([1, -1], repeat=d.size)))
    null = (flips * d).mean(axis=1)
    exact = np.mean(np.abs(null) >= abs(d.mean()) - 1e-12)
    res = an.paired_tests(A, B, tests=["permutation"], n_resamples=10_000, seed=0)
    assert res["p_value"].iloc[0] == pytest.approx(exact, abs=1e-12)  # 2^8 = 256 ≤ 10,000: scipy enumerates


@pytest.mark.parametrize("n", [60, 100_000])  # resampled percentiles; the normal limit of the bootstrap mean
def test_one_sided_bootstrap_interval_has_the_tests_side(n):
    """With a one-sided alternative the bootstrap interval is one-sided, as scipy's t interval is: for "greater" its
    lower end is the 5th percentile (the two-sided 90% interval's lower end from the same resamples) and its upper
    end ∞; for "less" the mirror image."""
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.3, 1.0, n), np.zeros(n)
    row = {alt: an.paired_tests(a, b, alternative=alt, alpha=alpha, tests=["bootstrap", "t"], seed=3)
           .set_index("test") for alt, alpha in (("greater", 0.05), ("less", 0.05), ("two-sided", 0.10))}
    two = row["two-sided"].loc["bootstrap"]
    same = dict(rel=1e-12, abs=1e-15)  # 1 − 0.95 and 0.10 / 2 differ in the last bit
    assert row["greater"].loc["bootstrap", "ci_low"] == pytest.approx(two["ci_low"], **same)
    assert row["greater"].loc["bootstrap", "ci_high"] == math.inf
    assert row["less"].loc["bootstrap", "ci_high"] == pytest.approx(two["ci_high"], **same)
    assert row["less"].loc["bootstrap", "ci_low"] == -math.inf
    # and it sides with the t test's interval
    assert row["greater"].loc["t", "ci_high"] == math.inf and row["less"].loc["t", "ci_low"] == -math.inf


def test_bootstrap_matches_exact_enumeration_on_tiny_input():
    a = np.array([0.9, 0.7, 0.8, 0.6])
    b = np.array([0.5, 0.6, 0.9, 0.4])
    d = a - b
    shifted = d - d.mean()
    # all 4^4 equally likely resamples of the null-shifted differences
    means = np.array([shifted[list(idx)].mean() for idx in itertools.product(range(4), repeat=4)])
    exact = np.mean(np.abs(means) >= abs(d.mean()) - 1e-12)
    res = an.paired_tests(a, b, tests=["bootstrap"], n_resamples=40_000, seed=5)
    se = math.sqrt(exact * (1 - exact) / 40_000)
    assert res["p_value"].iloc[0] == pytest.approx(exact, abs=4 * se + 1 / 40_000)


def test_mcnemar_against_statsmodels():
    a = np.array([1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1])
    b = np.array([0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0])
    res = an.paired_tests(a, b, tests=["mcnemar"]).iloc[0]
    assert res["p_value"] == pytest.approx(mcnemar([[0, 5], [1, 0]], exact=True).pvalue)


def test_one_sided_alternative():
    greater = an.paired_tests(A, B, alternative="greater", tests=["t"]).iloc[0]["p_value"]
    assert greater == pytest.approx(stats.ttest_rel(A, B, alternative="greater").pvalue)


# ---------------------------------------------------------------------------
# effect sizes (§3.3)
# ---------------------------------------------------------------------------
def test_effect_sizes_by_hand():
    e = an.effect_sizes([3, 4, 6, 8, 9], [1, 3, 3, 5, 6])
    d = np.array([2, 1, 3, 3, 3.0])
    assert e.cohen_d == pytest.approx(d.mean() / d.std(ddof=1))  # eq. 2
    assert e.hedges_g == pytest.approx(e.cohen_d * (1 - 3 / (4 * 5 - 9)))  # eq. 3
    walsh = [(d[i] + d[j]) / 2 for i in range(5) for j in range(i, 5)]
    assert e.hodges_lehmann == pytest.approx(np.median(walsh))  # eq. 5
    # eq. 4: W+ = 15 (all positive), ranks of |d| = [2, 1, 4, 4, 4], ties {3, 3, 3}
    var = 5 * 6 * 11 / 24 - (3**3 - 3) / 48
    assert e.wilcoxon_r == pytest.approx((15 - 5 * 6 / 4) / math.sqrt(var) / math.sqrt(5))


# ---------------------------------------------------------------------------
# power (§3.4)
# ---------------------------------------------------------------------------
def test_prospective_sample_size_against_noncentral_t():
    n = an.prospective_sample_size(0.3, 1.0, target_power=0.9, alpha=0.05)

    def power(m):  # oracle: scipy's noncentral t
        crit = stats.t.isf(0.025, m - 1)
        nc = 0.3 * math.sqrt(m)
        return stats.nct.sf(crit, m - 1, nc) + stats.nct.cdf(-crit, m - 1, nc)

    assert power(n) >= 0.9 > power(n - 1)


def _t_power_by_quadrature(effect, n, alpha, two_sided=True):
    """Oracle: the t statistic is (Z + δ√n)/√(V/(n−1)), V ~ χ²(n−1); integrate Φ over V (no noncentral t)."""
    from scipy import integrate

    df, nc = n - 1, effect * math.sqrt(n)
    crit = stats.t.isf(alpha / 2 if two_sided else alpha, df)

    def tail(shift):
        f = lambda v: stats.norm.sf(crit * math.sqrt(v / df) - shift) * stats.chi2.pdf(v, df)  # noqa: E731
        lo, hi = stats.chi2.ppf(1e-16, df), stats.chi2.isf(1e-16, df)  # where V's mass is (quad misses a far peak)
        return integrate.quad(f, lo, hi, epsabs=1e-13, limit=200, points=[df])[0]

    return tail(nc) + (tail(-nc) if two_sided else 0.0)


@pytest.mark.parametrize("effect, n", [(0.5, 300), (0.3, 1000), (0.2, 3000), (2.0, 30), (0.5, 34), (6.0, 3)])
def test_paired_t_power_deep_in_the_tail_is_a_number(effect, n):
    # scipy's noncentral-t cdf is NaN deep in its lower tail, and statsmodels' TTestPower added it in (nan power)
    power = an.NextEvaluation(effect, 1.0).power(n)
    assert 0.0 <= power <= 1.0 and power == pytest.approx(_t_power_by_quadrature(effect, n, 0.05), abs=1e-8)


@pytest.mark.parametrize("effect, alpha", [(6.0, 0.05), (4.703, 0.01), (1.6, 0.1), (0.3, 0.05)])
def test_prospective_sample_size_at_large_effects_is_the_first_n_reaching_the_target(effect, alpha):
    n = an.prospective_sample_size(effect, 1.0, alpha=alpha)
    assert _t_power_by_quadrature(effect, n, alpha) >= 0.8 - 1e-9
    assert n == 2 or _t_power_by_quadrature(effect, n - 1, alpha) < 0.8


def test_paired_t_mde_is_monotone_and_reaches_its_target():
    mdes = [an.paired_t_mde(3, 1.0, target_power=t, alpha=0.01) for t in (0.5, 0.8, 0.9, 0.99)]
    assert mdes == sorted(mdes)
    for t, mde in zip((0.5, 0.8, 0.9, 0.99), mdes):
        assert _t_power_by_quadrature(mde, 3, 0.01) == pytest.approx(t, abs=1e-7)
    one_sided = an.paired_t_mde(50, 1.0, target_power=0.9, alternative="less")
    assert _t_power_by_quadrature(one_sided, 50, 0.05, two_sided=False) == pytest.approx(0.9, abs=1e-7)
    for target in (0.01, 0.02):
        with pytest.raises(ValueError, match="`target_power`"):
            an.paired_t_mde(30, 1.0, target_power=target, alternative="greater")


def test_bootstrap_power_curve_shape_and_error():
    rng = np.random.default_rng(0)
    curve = an.bootstrap_power_curve(rng.normal(0.3, 1, 200), sizes=[20, 100, 200], n_iter=400, seed=1)
    assert curve["power"].iloc[-1] > curve["power"].iloc[0]
    assert curve["mc_se"].iloc[0] == pytest.approx(math.sqrt(curve["power"].iloc[0] * (1 - curve["power"].iloc[0]) / 400))


# ---------------------------------------------------------------------------
# many systems
# ---------------------------------------------------------------------------
def test_pairwise_holm_and_bonferroni():
    systems = an.parse_results((SAMPLES / "systems.csv").read_bytes(), "systems").systems
    table = an.pairwise_comparisons(systems, test="t")
    assert len(table) == 6
    raw = table["p_value"].to_numpy()
    assert table["p_bonferroni"].to_numpy() == pytest.approx(np.minimum(raw * 6, 1))
    assert table["p_holm"].to_numpy() == pytest.approx(multipletests(raw, method="holm")[1])
    # Holm by hand: step-down with multipliers 6, 5, ..., 1 and running maximum
    order = np.argsort(raw)
    adjusted = np.maximum.accumulate(np.minimum(raw[order] * np.arange(6, 0, -1), 1))
    assert table["p_holm"].to_numpy()[order] == pytest.approx(adjusted)


def test_accuracy_bridge():
    design = an.accuracy_design([1, 1, 0, 1, 0], [1, 0, 0, 1, 1])
    assert design.agreement == pytest.approx(0.6) and design.delta == pytest.approx(0.0)
    with pytest.raises(ValueError, match="0/1"):
        an.accuracy_design([0.5, 1], [1, 0])


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: an.paired_tests(A, B, alternative="bigger"), "`alternative`"),
        (lambda: an.paired_tests(A, B, alpha=2), "`alpha`"),
        (lambda: an.prospective_sample_size(0.5, 0), "`sd_diff`"),
        (lambda: an.evaluation_units(A, B, 0), "`m`"),
        (lambda: an.parse_results(b"1,2\n3,4\n5,6\n", "json"), "`kind`"),
    ],
)
def test_value_errors(call, name):
    with pytest.raises(ValueError, match=name.replace("`", "\\`")):
        call()


# ---------------------------------------------------------------------------
# cost that fits the data, and inputs that used to end in a traceback
# ---------------------------------------------------------------------------
def _walsh_brute(d):
    """Oracle: all n(n+1)/2 Walsh averages, sorted (the O(n²) definition)."""
    i, j = np.triu_indices(d.size)
    return np.sort((d[i] + d[j]) / 2.0)


def _samples(rng, n, kind):
    if kind == "normal":
        return rng.normal(size=n)
    if kind == "ties":
        return rng.integers(-3, 4, n) / 10.0
    if kind == "signs":
        return rng.choice([0.0, 1.0, -1.0], n)
    if kind == "magnitudes":  # 280 orders of magnitude: rounding of every sum matters
        return rng.normal(size=n) * 10.0 ** rng.integers(-140, 140, n).astype(float)
    if kind == "subnormal":
        return rng.choice([0.1, 0.3, 1e-300, 5e-324, -5e-324], n) * rng.choice([1, -1, 3], n)
    return np.round(rng.exponential(size=n), 2) - 0.3  # skewed, ties


@pytest.mark.parametrize("kind", ["normal", "ties", "signs", "magnitudes", "subnormal", "skewed"])
@pytest.mark.parametrize("n", [1, 2, 7, 60, 900, 2500])
def test_walsh_order_statistics_equal_brute_force(monkeypatch, kind, n):
    # force the selection path (not only the final gather) on these small inputs
    monkeypatch.setattr(an.walsh, "_WALSH_GATHER", 400)
    monkeypatch.setattr(an.walsh, "_WALSH_SAMPLE", 200)
    rng = np.random.default_rng(n)
    d = _samples(rng, n, kind)
    walsh = _walsh_brute(d)  # oracle: brute-force O(n²) Walsh averages
    ranks = sorted({0, walsh.size - 1, walsh.size // 2, max(walsh.size // 2 - 1, 0), *rng.integers(0, walsh.size, 6)})
    assert an.walsh_order_statistics(d, ranks).tolist() == [float(walsh[k]) for k in ranks]  # bit for bit
    assert an.hodges_lehmann(d) == float(np.median(walsh))


@pytest.mark.parametrize("kind", ["normal", "ties", "skewed"])
def test_hodges_lehmann_interval_equals_brute_force(kind):
    rng = np.random.default_rng(7)
    a = rng.normal(0.5, 0.2, 1500)
    b = a - _samples(rng, 1500, kind) * 0.1
    e = an.effect_sizes(a, b, confidence=0.9)
    d = a - b
    walsh = _walsh_brute(d)  # oracle: the former O(n²) implementation
    big_n, n = walsh.size, d.size
    # beyond 400 pairs the normal form of P(T⁺ ≤ k) ≤ α/2, with its continuity correction
    k = int(math.floor(big_n / 2 - 0.5 - stats.norm.isf(0.05) * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
    assert e.hodges_lehmann == float(np.median(walsh))
    assert e.hodges_lehmann_ci == (float(walsh[k]), float(walsh[big_n - 1 - k]))
    wilcoxon = an.paired_tests(a, b, tests=["wilcoxon"]).iloc[0]
    assert wilcoxon["estimate"] == e.hodges_lehmann


@pytest.mark.parametrize("alternative, p", [("greater", 1.0), ("less", 0.0), ("two-sided", 0.0)])
def test_constant_differences_count_only_on_their_own_side(alternative, p):
    # A is always 1 below B: evidence that A < B, none that A > B (scipy's ttest_rel gives p = 1 for "greater")
    out = an.paired_tests([0, 1, 2, 3, 4], [1, 2, 3, 4, 5], alternative=alternative, tests=["t"])
    assert out.loc[0, "p_value"] == p
    a = np.arange(30001.0)
    boot = an.paired_tests(a, a + 1, alternative=alternative, tests=["bootstrap"], n_resamples=5000)
    assert boot.loc[0, "p_value"] == p and boot.loc[0, "method"] == "normal limit"


def test_two_sided_permutation_p_se_matches_the_spread_over_seeds():
    # p = 2 min(tails): its Monte Carlo SE is 2 √(q(1 − q)/R) with q = p/2, not √(p(1 − p)/R)
    d = np.random.default_rng(0).normal(0.45, 1.0, 25)
    runs = [an.paired_tests(d, np.zeros(d.size), tests=["permutation"], n_resamples=2000, seed=s) for s in range(200)]
    ps = np.array([r.loc[0, "p_value"] for r in runs])
    reported = runs[0].loc[0, "p_se"]
    q = ps.mean() / 2
    assert reported == pytest.approx(2 * math.sqrt(q * (1 - q) / 2000), rel=0.15)
    sd, sd_se = ps.std(ddof=1), ps.std(ddof=1) / math.sqrt(2 * 199)
    assert abs(sd - reported) < 4 * sd_se + 0.1 * reported


def test_signed_rank_distribution_is_the_enumerated_one():
    from core.analysis.walsh import _signed_rank_cdf

    for n in (1, 2, 5, 9, 12):
        sums = [sum(i + 1 for i in range(n) if mask >> i & 1) for mask in range(2**n)]
        counts = np.bincount(sums, minlength=n * (n + 1) // 2 + 1)
        assert np.allclose(_signed_rank_cdf(n), np.cumsum(counts) / 2**n, atol=1e-15)


@pytest.mark.parametrize("n", [6, 8, 12, 16, 21])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_hodges_lehmann_interval_covers_at_least_its_level(n, confidence):
    # symmetric continuous differences about 0: the distribution-free interval must cover 0 with probability ≥ the
    # level (Hollander & Wolfe §3.3); one rank too narrow gave 93.75% at n = 6 for 95%
    rng = np.random.default_rng(n)
    reps = 4000
    hits = 0
    for _ in range(reps):
        _, (lo, hi) = an.hodges_lehmann(rng.standard_normal(n), confidence=confidence)
        hits += lo <= 0 <= hi
    assert hits / reps >= confidence - 3 * math.sqrt(confidence * (1 - confidence) / reps)


def test_hodges_lehmann_interval_needs_enough_pairs():
    assert all(math.isnan(v) for v in an.hodges_lehmann([1.0, 2.0, 3.0], confidence=0.95)[1])
    assert an.hodges_lehmann(np.arange(1.0, 7.0), confidence=0.95)[1] == (1.0, 6.0)  # ranks 1 and N: 96.9%


def test_permutation_median_matches_exact_enumeration():
    rng = np.random.default_rng(2)
    d = np.round(rng.exponential(1, 15) - 0.6, 1)  # skewed, ties and zeros
    flips = np.array(list(itertools.product([1, -1], repeat=d.size)))
    null = np.median(flips * d, axis=1)  # oracle: all 2^15 sign flips
    obs = np.median(d)
    exact = np.mean(np.abs(null) >= abs(obs) - 1e-12)
    res = an.paired_tests(d, np.zeros_like(d), tests=["permutation"], statistic="median", n_resamples=20_000, seed=4)
    row = res.iloc[0]
    assert row["method"] == "Monte Carlo" and row["resamples"] == 20_000
    assert abs(row["p_value"] - exact) <= 4 * math.sqrt(exact * (1 - exact) / 20_000) + 1 / 20_000


def test_signflip_medians_are_exact_in_distribution(monkeypatch):
    # the O(√n) sampler (prefix of small magnitudes + binomial count) against plain sign flips
    rng = np.random.default_rng(8)
    d = np.round(rng.normal(0.05, 1, 301), 1)
    fast = an._signflip_medians(d, 40_000, np.random.default_rng(1))
    signs = np.where(np.random.default_rng(2).random((40_000, d.size)) < 0.5, -1.0, 1.0)
    plain = np.median(signs * d, axis=1)  # oracle: the definition, value by value
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        assert np.mean(fast <= np.quantile(plain, q)) == pytest.approx(np.mean(plain <= np.quantile(plain, q)),
                                                                       abs=4 * math.sqrt(0.25 / 20_000))
    # the rare fallback (q-th value beyond the drawn prefix) is exact too: force it with a tiny prefix
    monkeypatch.setattr(an._common, "_MEDIAN_PREFIX", (0.0, 2))
    forced = an._signflip_medians(d, 2_000, np.random.default_rng(3))
    assert set(np.unique(forced)) <= set(np.unique(plain)) | {0.0}
    assert np.mean(forced) == pytest.approx(np.mean(plain), abs=4 * np.std(plain) / math.sqrt(2_000))


def test_bootstrap_median_sampler_matches_exact_distribution():
    # oracle: the exact bootstrap distribution of the median, enumerating all n^n resamples
    for d in (np.array([0.3, -0.1, 0.8, 0.8, 2.0]), np.array([1.0, -2.0, 0.5, 4.0])):
        n = d.size
        medians = np.array([np.median(d[list(idx)]) for idx in itertools.product(range(n), repeat=n)])
        values, counts = np.unique(medians, return_counts=True)
        draws = an._bootstrap_medians(d, 200_000, np.random.default_rng(5))
        for value, count in zip(values, counts):
            p = count / medians.size
            assert np.mean(draws == value) == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / 200_000) + 1e-9)


def test_bootstrap_median_test_matches_exact_enumeration():
    a = np.array([0.9, 0.7, 0.8, 0.6, 0.75])
    b = np.array([0.5, 0.6, 0.9, 0.4, 0.7])
    d = a - b
    shifted = d - np.median(d)
    medians = np.array([np.median(shifted[list(idx)]) for idx in itertools.product(range(5), repeat=5)])
    exact = np.mean(np.abs(medians) >= abs(np.median(d)) - 1e-12)  # oracle: all 5^5 resamples
    res = an.paired_tests(a, b, tests=["bootstrap"], statistic="median", n_resamples=40_000, seed=6).iloc[0]
    assert res["p_value"] == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / 40_000) + 1 / 40_000)


def test_signflip_sums_distribution_and_seed():
    rng = np.random.default_rng(9)
    for n in (37, 200_000):  # 8-bit and 4-bit lookup tables
        d = rng.normal(0.1, 1, n)
        sums, total = an._signflip_sums(d, 4000 if n < 1000 else 300, np.random.default_rng(1))
        assert total == pytest.approx(d.sum(), rel=1e-12)
        # oracle: Σ ε_i d_i has mean 0 and variance Σ d_i² exactly
        assert abs(sums.mean()) <= 4 * math.sqrt(d @ d / sums.size)
        assert sums.var() == pytest.approx(d @ d, rel=5 * math.sqrt(2 / sums.size))
    again, _ = an._signflip_sums(d, 300, np.random.default_rng(1))
    assert np.array_equal(again, an._signflip_sums(d, 300, np.random.default_rng(1))[0])


def test_normal_limits_agree_with_resampling(monkeypatch):
    rng = np.random.default_rng(10)
    a = rng.normal(0.5, 0.2, 3000)
    b = a - rng.normal(0.012, 0.3, 3000)
    full = an.paired_tests(a, b, tests=["permutation", "bootstrap"], n_resamples=20_000, seed=1).set_index("test")
    assert (full["method"] == "Monte Carlo").all() and (full["resamples"] == 20_000).all()
    monkeypatch.setattr(an._common, "PERMUTATION_WORK", 1000)
    monkeypatch.setattr(an._common, "BOOTSTRAP_WORK", 1000)
    limit = an.paired_tests(a, b, tests=["permutation", "bootstrap"], n_resamples=20_000, seed=1).set_index("test")
    assert (limit["method"] == "normal limit").all() and (limit["resamples"] == 0).all()
    for test in ("permutation", "bootstrap"):
        se = full.loc[test, "p_se"]
        assert abs(limit.loc[test, "p_value"] - full.loc[test, "p_value"]) <= 4 * se + 0.005
    for bound in ("ci_low", "ci_high"):
        assert limit.loc["bootstrap", bound] == pytest.approx(full.loc["bootstrap", bound], abs=0.002)


def test_large_upload_runs_every_test():
    # 200,000 items (≈ 3 MB): every test, effect size and curve returns finite numbers, with bounded work
    rng = np.random.default_rng(11)
    a = rng.normal(0.6, 0.2, 200_000)
    b = a - (rng.exponential(0.1, 200_000) - 0.09)
    for statistic in ("mean", "median"):
        res = an.paired_tests(a, b, statistic=statistic, n_resamples=5000, seed=1,
                              tests=["t", "wilcoxon", "sign", "permutation", "bootstrap"]).set_index("test")
        assert np.isfinite(res["p_value"]).all() and np.isfinite(res["estimate"]).all()
        assert res.loc["wilcoxon", "method"] == "normal approximation"
    e = an.effect_sizes(a, b)
    assert e.hodges_lehmann_ci[0] <= e.hodges_lehmann <= e.hodges_lehmann_ci[1]
    curve = an.bootstrap_power_curve(a - b, n_iter=400, seed=1)
    assert len(curve) == 10 and curve["power"].between(0, 1).all()


@pytest.mark.parametrize("n", [3, 4])
def test_three_and_four_units_do_not_raise(n):
    a = np.array([0.61, 0.72, 0.55, 0.80])[:n]
    b = np.array([0.58, 0.70, 0.57, 0.71])[:n]
    res = an.paired_tests(a, b, seed=0, n_resamples=5000, tests=["t", "wilcoxon", "sign", "permutation", "bootstrap"])
    assert res["p_value"].between(0, 1).all()
    assert (res.set_index("test").loc["permutation", "method"]) == "exact enumeration"  # 2^n flips
    e = an.effect_sizes(a, b)
    assert math.isfinite(e.cohen_d) and math.isfinite(e.hodges_lehmann)
    rec = an.recommend_tests(a - b)
    assert rec.symmetry in ("roughly symmetric", "slightly skewed", "highly skewed")
    for test in ("t", "wilcoxon", "sign"):
        curve = an.bootstrap_power_curve(a - b, test=test, n_iter=400, seed=1)
        assert curve["n"].min() >= 3 and curve["power"].between(0, 1).all()
    parsed = an.parse_results(("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(a, b))).encode())
    assert parsed.rows_used == n


def test_units_of_the_shipped_sample_with_large_m():
    # ?m=100 on the 300-row sample: 3 evaluation units, and the page's calls go through
    data = an.parse_results((SAMPLES / "scores.csv").read_bytes(), "scores")
    u, v = an.evaluation_units(data.a, data.b, 100)
    assert u.size == 3
    an.bootstrap_power_curve(u - v, test="t", n_iter=400, seed=1)
    an.paired_tests(u, v, n_resamples=5000, seed=1)
    an.effect_sizes(u, v)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"a,b\n1e308,-1e308\n1,2\n3,4\n", "too large to compare"),
        (b"a,b\n1,2\ninf,3\n3,4\n4,5\n", "not a finite number"),
        (b"a,b\n1,2\n-Infinity,3\n3,4\n4,5\n", "not a finite number"),
    ],
)
def test_overflowing_or_infinite_scores_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        an.parse_results(data, "scores")


def test_overflowing_arrays_are_refused():
    huge = np.array([1e308, -1e308, 1.0, 2.0])
    with pytest.raises(ValueError, match="too large to compare"):
        an.paired_tests(huge, -huge)
    with pytest.raises(ValueError, match="too large to compare"):
        an.effect_sizes(huge, np.zeros(4))
    with pytest.raises(ValueError, match="finite"):
        an.recommend_tests([1.0, np.inf, 2.0])
    with pytest.raises(ValueError, match="too large to compare"):
        an.bootstrap_power_curve([1e200, -1e200, 3.0])
    from core import bayes

    with pytest.raises(ValueError, match="too large to compare"):
        bayes.compare_means([1e200, -1e200, 3.0])


def _scipy_pvalue(test, d):
    """Oracle: the one-pair scipy test."""
    if test == "t":
        return stats.ttest_1samp(d, 0.0).pvalue if np.any(d != d[0]) else (1.0 if d[0] == 0 else 0.0)
    if test == "sign":
        pos, neg = int((d > 0).sum()), int((d < 0).sum())
        return stats.binomtest(pos, pos + neg).pvalue if pos + neg else 1.0
    return stats.wilcoxon(d).pvalue if np.any(d != 0) else 1.0


@pytest.mark.parametrize("n", [3, 8, 13, 14, 40, 50, 51, 300])
@pytest.mark.parametrize("kind", ["continuous", "ties"])
def test_vectorized_pairwise_tests_equal_scipy(n, kind):
    rng = np.random.default_rng(n)
    k = 3 if n == 13 else 6  # scipy's exact sign-flip Wilcoxon at n = 13 takes ~1 s per pair
    values = rng.normal(size=(n, k)) if kind == "continuous" else rng.integers(0, 4, size=(n, k)) / 4
    systems = pd.DataFrame(values, columns=list("abcdef")[:k])
    for test in ("t", "sign", "wilcoxon"):
        table = an.pairwise_comparisons(systems, test=test)
        for row in table.itertuples():
            expected = _scipy_pvalue(test, systems[row.system_a].to_numpy() - systems[row.system_b].to_numpy())
            assert row.p_value == pytest.approx(expected, rel=1e-9, abs=1e-15), (test, row)


def test_pairwise_limits_say_what_to_reduce(monkeypatch):
    rng = np.random.default_rng(12)
    systems = pd.DataFrame(rng.normal(size=(2000, 30)))
    with pytest.raises(ValueError,
                       match=r"permutation test on all 435 pairs.*t, sign or Wilcoxon.*at most \d+ systems"):
        an.pairwise_comparisons(systems, test="permutation")
    monkeypatch.setattr(an._common, "PAIRWISE_RANK_WORK", 100_000)
    with pytest.raises(ValueError, match=r"Wilcoxon test on all 435 pairs.*t or sign test"):
        an.pairwise_comparisons(systems, test="wilcoxon")
    width = an.MAX_SYSTEMS + 1
    too_many = ",".join(f"s{i}" for i in range(width)) + "\n" + ("\n".join([",".join(["1"] * width)] * 3)) + "\n"
    with pytest.raises(ValueError, match=f"201 system columns; at most {an.MAX_SYSTEMS}"):
        an.parse_results(too_many.encode(), "systems")


def test_pairwise_resampling_within_the_cap_matches_paired_tests():
    systems = an.parse_results((SAMPLES / "systems.csv").read_bytes(), "systems").systems
    table = an.pairwise_comparisons(systems, test="permutation", seed=3)
    first = an.paired_tests(systems.iloc[:, 0], systems.iloc[:, 1], tests=["permutation"], n_resamples=2000, seed=3)
    assert table["p_value"].iloc[0] == first["p_value"].iloc[0]


def test_power_curve_sign_test_is_exact_multinomial():
    # oracle: P(sign test significant) for m draws, summed over the exact multinomial distribution
    d = np.array([1.0, 1.0, 1.0, -1.0, 0.0, 2.0, -0.5])
    m = 12
    p_pos, p_neg, p_zero = 4 / 7, 2 / 7, 1 / 7
    exact = 0.0
    for pos in range(m + 1):
        for neg in range(m + 1 - pos):
            prob = stats.multinomial.pmf([pos, neg, m - pos - neg], m, [p_pos, p_neg, p_zero])
            p = stats.binomtest(pos, pos + neg).pvalue if pos + neg else 1.0
            exact += prob * (p <= 0.05)
    curve = an.bootstrap_power_curve(d, sizes=[m], test="sign", n_iter=20_000, seed=2)
    assert curve["power"].iloc[0] == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / 20_000))


def test_power_curve_normal_limit_agrees_with_resampling(monkeypatch):
    rng = np.random.default_rng(13)
    d = rng.exponential(1.0, 500) - 0.92
    resampled = an.bootstrap_power_curve(d, sizes=[400], n_iter=4000, seed=1)
    monkeypatch.setattr(an._common, "CURVE_WORK", 1000)
    limit = an.bootstrap_power_curve(d, sizes=[400], n_iter=4000, seed=1)
    assert limit["method"].iloc[0] == "normal limit" and resampled["method"].iloc[0] == "resampling"
    se = math.hypot(resampled["mc_se"].iloc[0], limit["mc_se"].iloc[0])
    assert abs(limit["power"].iloc[0] - resampled["power"].iloc[0]) <= 4 * se + 0.01
    fewer = an.bootstrap_power_curve(d, sizes=[400], test="wilcoxon", n_iter=4000, seed=1)
    assert fewer["iterations"].iloc[0] == 50  # max(50, CURVE_WORK // m)


def test_skewness_of_nearly_constant_differences_is_finite():
    rec = an.recommend_tests(np.array([1.0, 1.0, 1.0 + 1e-15, 1.0, 1.0]))
    assert math.isfinite(rec.skewness)


def test_long_table_pivoted_to_the_wide_layout():
    # WMT DA ad-seg-scores (one row per system × segment): the pivot equals the hand-made wide file
    data = (Path(__file__).resolve().parent / "data" / "synthetic_ad-seg-scores-de-en.csv").read_bytes()
    fair, online = "newstest2019.Facebook_FAIR.6750.de-en", "newstest2019.online-B.0.de-en"
    parsed = an.parse_results(data, "scores", columns={"item": "SID", "system": "SYS", "score": "RAW.SCR",
                                                       "systems": [fair, online]})
    wide = an.parse_results(b"fair,online\n80,71.5\n61.5,55\n87,90\n47,38.5\n", "scores")
    assert parsed.names == (fair, online)
    assert parsed.a.tolist() == wide.a.tolist() and parsed.b.tolist() == wide.b.tolist()
    assert any("1 items without a score for every chosen system were dropped" in n for n in parsed.notes)
    # two systems in the file: no need to choose
    two = an.parse_results(data, "scores", columns={"item": "SID", "system": "SYS", "score": "Z.SCR"})
    assert two.rows_used == 4
    with pytest.raises(ValueError, match="No rows for system 'x'"):
        an.parse_results(data, "scores", columns={"item": "SID", "system": "SYS", "score": "Z.SCR",
                                                  "systems": ["x", fair]})


def test_long_table_with_three_systems_asks_which():
    data = (Path(__file__).resolve().parent / "data" / "synthetic_mqm.avg_seg_scores.tsv").read_bytes()
    cols = {"item": "seg_id", "system": "system", "score": "mqm_avg_score"}
    with pytest.raises(ValueError, match=r"3 systems \(Human-B.0, Online-A.1574, Tohoku-AIP-NTT.890\); choose the "
                                         "two"):
        an.parse_results(data, "scores", columns=cols)
    every = an.parse_results(data, "systems", columns=cols)
    assert every.systems.shape == (4, 3) and every.systems["Online-A.1574"].tolist() == pytest.approx(
        [-5 / 3, -3.0, 0.0, -25.0])


def test_columns_choose_wide_columns_and_first_row_is_data():
    parsed = an.parse_results(b"x,y,z\n1,2,3\n2,3,4\n3,5,6\n", "scores", columns={"a": "z", "b": "x"})
    assert parsed.names == ("z", "x") and parsed.a.tolist() == [3, 4, 6] and parsed.b.tolist() == [1, 2, 3]
    with pytest.raises(ValueError, match="needs the roles a, b"):
        an.parse_results(b"x,y\n1,2\n2,3\n3,5\n", "scores", columns={"a": "x"})
    assert an.parse_results(b"1,2\n2,3\n3,5\n4,4\n", "scores", header="no").rows_used == 4


def test_google_mqm_segment_scores_with_mixed_separators_are_compared():
    """A long MQM table whose rows mix tab and space separators (Google's newstest2020 layout) pivots to one
    column per system; the paired scores are the file's own (checked by hand)."""
    data = (b"system mqm_avg_score seg_id\nA\t -1.0\t1\nB -2.0 1\nA\t-1.5 2\nB\t -2.0\t2\nA 0 3\nB\t-1 3\n"
            b"A -4 4\nB -4.5 4\n")
    parsed = an.parse_results(data, "scores", columns={"item": "seg_id", "system": "system",
                                                       "score": "mqm_avg_score"})
    assert parsed.names == ("A", "B") and parsed.rows_used == 4
    assert parsed.a.tolist() == [-1.0, -1.5, 0.0, -4.0] and parsed.b.tolist() == [-2.0, -2.0, -1.0, -4.5]


@pytest.mark.parametrize("a, b, name", [([1, 0, 1, 1], [1], "`a` and `b` must be paired"), ([], [], "`a`"),
                                        ([[1, 0], [0, 1]], [[1, 0], [0, 1]], "`a`"), (["x", "y"], [1, 0], "`a`"),
                                        ([1, 0.5], [1, 0], "`a` and `b` must be 0/1")])
def test_accuracy_design_refuses_what_is_not_two_paired_correctness_columns(a, b, name):
    with pytest.raises(ValueError, match=name):
        an.accuracy_design(a, b)


def test_too_few_pairs_or_a_bad_test_list_are_named():
    with pytest.raises(ValueError, match="`a` and `b` must hold at least 3 pairs; got 2"):
        an.paired_tests([1, 2], [1, 2])
    with pytest.raises(ValueError, match="`tests` must be a list"):
        an.paired_tests([1, 2, 3], [1, 2, 4], tests=5)

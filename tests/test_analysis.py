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
    monkeypatch.setattr(an, "MAX_BYTES", 100)
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

"""Describing the differences and recommending tests (NLPStatTest's rule: skewness, symmetry, normality)."""

from __future__ import annotations

import math

import warnings

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..validation import check_alpha
from ._common import _differences, _paired, _TEST_NAMES

# ---------------------------------------------------------------------------
# description and recommendation
# ---------------------------------------------------------------------------
def _skewness(x) -> float:
    """Bias-corrected sample skewness; 0 for (numerically) constant data."""
    if x.size < 3 or not x.std() > 0:
        return 0.0
    with np.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            gamma = float(stats.skew(x, bias=False))
    return gamma if math.isfinite(gamma) else 0.0


def summarize(a, b, names=("A", "B")) -> pd.DataFrame:
    """Summary statistics of A, B and A − B (NLPStatTest §3.1.2)."""
    a, b, d = _paired(a, b, min_size=1)
    rows = []
    for label, x in ((names[0], a), (names[1], b), (f"{names[0]} − {names[1]}", d)):
        rows.append({"": label, "n": x.size, "mean": x.mean(), "median": float(np.median(x)),
                     "sd": x.std(ddof=1) if x.size > 1 else math.nan, "min": x.min(), "max": x.max(),
                     "skewness": _skewness(x) if x.size > 2 and x.std() > 0 else math.nan})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Recommendation:
    """Data checks and the recommended tests (NLPStatTest §3.1.3–3.1.5).

    Attributes
    ----------
    skewness : float
        Sample skewness γ of the differences.
    symmetry : str
        "roughly symmetric" (|γ| < 0.5), "slightly skewed" (0.5 <= |γ| < 1),
        "highly skewed" (|γ| >= 1) — Bulmer's rule of thumb.
    statistic : str
        "mean" for symmetric differences, "median" otherwise.
    shapiro_w, shapiro_p : float
        Shapiro–Wilk statistic and p-value (nan when skewed: not run).
    normal : bool
        Whether normality is plausible (symmetric and p > alpha).
    binary : bool
        Whether the scores are 0/1.
    tests : DataFrame
        ``test, name, verdict, reason`` for every test of :data:`TESTS`.
    """

    skewness: float
    symmetry: str
    statistic: str
    shapiro_w: float
    shapiro_p: float
    normal: bool
    binary: bool
    tests: pd.DataFrame


#: Fewest units for which the bootstrap test is recommended (below, its level exceeds α: see recommend_tests).
_BOOTSTRAP_MIN = 30


def recommend_tests(differences, *, alpha=0.05, binary=False) -> Recommendation:
    """Check the differences and recommend significance tests (NLPStatTest §3.1.3–3.1.5).

    Parameters
    ----------
    differences : array_like
        Paired differences A − B (per item or per evaluation unit).
    alpha : float, optional
        Level of the Shapiro–Wilk normality check (α1 in NLPStatTest).
    binary : bool, optional
        The scores are 0/1 correctness (then McNemar's test is the right test).

    Returns
    -------
    Recommendation
    """
    d = _differences(differences)
    alpha = check_alpha(alpha)
    gamma = _skewness(d)
    size = abs(gamma)
    symmetry = "roughly symmetric" if size < 0.5 else ("slightly skewed" if size < 1 else "highly skewed")
    statistic = "mean" if size < 0.5 else "median"
    w = p = math.nan
    head = d[:5000]  # Shapiro–Wilk is defined for at most 5,000 values: the first 5,000 units
    if size < 0.5 and head.std() > 0 and not binary:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            w, p = (float(v) for v in stats.shapiro(head))
        if not (math.isfinite(w) and math.isfinite(p)):
            w = p = math.nan
    normal = bool(size < 0.5 and not binary and (p > alpha))
    rows = []

    def add(test, verdict, reason):
        if test == "bootstrap" and verdict == "recommended" and d.size < _BOOTSTRAP_MIN:
            # resamples of few units spread less than the statistic does (the plug-in SD has divisor n): simulated
            # normal differences under H0 are declared significant 16% of the time at n = 5, 10% at 10, 6% at 20
            verdict, reason = "less preferred", (f"With fewer than {_BOOTSTRAP_MIN} units the bootstrap rejects too "
                                                 "often under the null (about 10% at α = 5% with 10 units); the "
                                                 "permutation test is exact.")
        rows.append((test, _TEST_NAMES[test], verdict, reason))

    if binary:
        add("mcnemar", "recommended", "0/1 correctness on the same items: the exact McNemar test uses the items "
            "where the systems disagree.")
        add("sign", "less preferred", "Equivalent to McNemar's exact test on the discordant items, without its "
            "familiar name.")
        add("permutation", "less preferred", "Valid (exact under the null) but McNemar's test is the standard.")
        add("bootstrap", "less preferred", "Approximate; McNemar's exact test needs no resampling.")
        add("t", "inappropriate", "0/1 differences are far from normal.")
        add("wilcoxon", "inappropriate", "Differences take only the values −1, 0, 1: almost everything is tied.")
    elif normal:
        add("t", "recommended", f"The differences look normal (Shapiro–Wilk p = {p:.3g} > {alpha}): the t test is the "
            "most powerful choice.")
        add("permutation", "recommended", "Exact under the null whatever the distribution; tests the mean.")
        add("bootstrap", "recommended", "Makes no normality assumption; tests the mean.")
        add("wilcoxon", "less preferred", "Valid for symmetric differences, slightly less powerful than t here.")
        add("sign", "less preferred", "Valid but uses only the signs: the least powerful.")
        add("mcnemar", "inappropriate", "For 0/1 correctness only.")
    elif statistic == "mean":
        add("wilcoxon", "recommended", f"Symmetric but not normal (Shapiro–Wilk p = {p:.3g} <= {alpha}): the "
            "signed-rank test needs only symmetry.")
        add("permutation", "recommended", "Exact under the null whatever the distribution.")
        add("bootstrap", "recommended", "Makes no normality assumption.")
        add("sign", "less preferred", "Valid but uses only the signs.")
        add("t", "less preferred" if d.size >= 30 else "inappropriate",
            "Normality is rejected; with many items the t test is still approximately valid."
            if d.size >= 30 else "Normality is rejected and the sample is small.")
        add("mcnemar", "inappropriate", "For 0/1 correctness only.")
    else:
        add("sign", "recommended", f"The differences are {symmetry} (γ = {gamma:.2f}): the median is the better "
            "centre, and the sign test tests it without assuming symmetry.")
        add("bootstrap", "recommended", "Tests the median without distributional assumptions.")
        add("permutation", "recommended", "Exact under the null of exchangeable signs (tests the median here).")
        add("wilcoxon", "less preferred" if size < 1 else "inappropriate",
            "The signed-rank test assumes symmetric differences.")
        add("t", "inappropriate", "Skewed differences: the mean is a poor centre and normality fails.")
        add("mcnemar", "inappropriate", "For 0/1 correctness only.")
    table = pd.DataFrame(rows, columns=["test", "name", "verdict", "reason"])
    return Recommendation(skewness=gamma, symmetry=symmetry, statistic=statistic, shapiro_w=w, shapiro_p=p,
                          normal=normal, binary=binary, tests=table)

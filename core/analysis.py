"""Analysis of uploaded per-item results: data checks, tests, effect sizes, power, many systems.

Implements the comparison stage of NLPStatTest (Zhu, Liu, Dror et al. 2020,
§3): evaluation units (§3.1.1), summary statistics and the skewness rule of
thumb (§3.1.3), the Shapiro–Wilk check (§3.1.4), recommended tests (§3.1.5),
significance tests (§3.2), effect sizes (§3.3), prospective power and the
bootstrap power curve (§3.4), and multi-system comparison with Holm and
Bonferroni corrections (Figure 4).

Uploaded files are parsed defensively: bytes in, numbers out; nothing in a
file is ever executed or evaluated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower

from . import uploads
from .validation import check_alpha, check_choice, check_int, check_real

__all__ = [
    "MAX_BYTES",
    "MAX_ROWS",
    "KINDS",
    "TESTS",
    "ALTERNATIVES",
    "ParsedResults",
    "Recommendation",
    "EffectSizes",
    "read_table",
    "parse_results",
    "evaluation_units",
    "summarize",
    "recommend_tests",
    "paired_tests",
    "effect_sizes",
    "prospective_sample_size",
    "bootstrap_power_curve",
    "pairwise_comparisons",
    "accuracy_design",
    "AccuracyDesign",
    "paired_t_mde",
]

#: Uploads above this size are refused (per-item result files are small).
MAX_BYTES = uploads.MAX_BYTES
MAX_ROWS = 1_000_000
#: Input layouts: two columns of paired scores; two 0/1 correctness columns;
#: predictions of A and B plus gold labels; one column per system.
KINDS = ("scores", "binary", "predictions", "systems")
TESTS = ("t", "wilcoxon", "sign", "permutation", "bootstrap", "mcnemar")
ALTERNATIVES = ("two-sided", "greater", "less")
_TEST_NAMES = {
    "t": "paired t test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "permutation": "paired permutation test",
    "bootstrap": "paired bootstrap test",
    "mcnemar": "McNemar's test",
}


# ---------------------------------------------------------------------------
# defensive parsing
# ---------------------------------------------------------------------------
def read_table(data: bytes) -> pd.DataFrame:
    """A results file as a table of strings (:func:`core.uploads.read_table`, at least two columns).

    Raises
    ------
    ValueError
        For an empty, binary, non-UTF-8, oversized, malformed or ragged file,
        or a file with a single column.
    """
    return uploads.read_table(data, name="The file", min_columns=2, max_rows=MAX_ROWS, max_bytes=MAX_BYTES)


def _to_numbers(frame: pd.DataFrame, columns) -> tuple[pd.DataFrame, int]:
    """Numeric columns; rows with empty cells are dropped (counted), other non-numbers are errors."""
    sub = frame[list(columns)]
    missing = sub.apply(lambda col: col.isin(["", "NA", "NaN", "nan", "N/A", "null", "None"]))
    dropped = int(missing.any(axis=1).sum())
    kept = sub[~missing.any(axis=1)]
    out = {}
    for name in columns:
        values = pd.to_numeric(kept[name], errors="coerce")
        bad = values.isna() | ~np.isfinite(values.astype(float))
        if bad.any():
            row = int(kept.index[bad.to_numpy()][0]) + 1
            raise ValueError(f"Column {name!r}, data row {row}: {str(kept[name].iloc[int(np.argmax(bad))])[:30]!r} "
                             "is not a number.")
        out[name] = values.astype(float).to_numpy()
    return pd.DataFrame(out), dropped


@dataclass(frozen=True)
class ParsedResults:
    """Per-item results ready for analysis.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    a, b : ndarray
        Scores (or 0/1 correctness) of systems A and B; for ``"systems"`` the
        first two columns.
    systems : DataFrame or None
        All system columns for ``"systems"``.
    names : tuple of str
        Names of A and B (or of every system).
    rows_total, rows_used : int
        Data rows in the file and rows used after dropping incomplete ones.
    notes : tuple of str
        What was dropped or assumed, in plain language.
    """

    kind: str
    a: np.ndarray
    b: np.ndarray
    names: tuple
    rows_total: int
    rows_used: int
    notes: tuple = ()
    systems: pd.DataFrame | None = field(default=None, compare=False)


def parse_results(data: bytes, kind: str = "scores") -> ParsedResults:
    """Read an upload as one of the supported layouts (see :data:`KINDS`).

    ``"scores"`` and ``"binary"`` use the first two columns; ``"predictions"``
    expects three columns (prediction of A, prediction of B, gold label) and
    turns them into 0/1 correctness; ``"systems"`` uses every column.

    Raises
    ------
    ValueError
        With a message saying what is wrong (and where).
    """
    kind = check_choice("kind", kind, KINDS)
    table = read_table(data)
    total = len(table)
    notes = []
    if kind == "predictions":
        if table.shape[1] != 3:
            raise ValueError(f"Predictions need exactly 3 columns (A, B, gold); the file has {table.shape[1]}.")
        pa, pb, gold = (table.iloc[:, i].astype(str) for i in range(3))
        blank = (pa == "") | (pb == "") | (gold == "")
        if blank.any():
            notes.append(f"{int(blank.sum())} rows with an empty cell were dropped.")
        a = (pa[~blank] == gold[~blank]).to_numpy(float)
        b = (pb[~blank] == gold[~blank]).to_numpy(float)
        names = tuple(table.columns[:2])
    else:
        columns = list(table.columns) if kind == "systems" else list(table.columns[:2])
        if kind != "systems" and table.shape[1] > 2:
            notes.append(f"Only the first two of {table.shape[1]} columns are used (choose 'one column per system' "
                         "to compare them all).")
        numbers, dropped = _to_numbers(table, columns)
        if dropped:
            notes.append(f"{dropped} rows with missing values were dropped.")
        a, b = numbers.iloc[:, 0].to_numpy(), numbers.iloc[:, 1].to_numpy()
        names = tuple(columns)
        if kind == "binary" and not np.all(np.isin(np.concatenate([a, b]), (0.0, 1.0))):
            raise ValueError("Correctness columns must contain only 0 and 1.")
        if kind == "systems":
            if numbers.shape[1] < 2:
                raise ValueError("Need at least two system columns.")
            return ParsedResults(kind=kind, a=a, b=b, names=names, rows_total=total, rows_used=len(numbers),
                                 notes=tuple(notes), systems=numbers)
    used = len(a)
    if used < 3:
        raise ValueError(f"Only {used} usable rows; at least 3 are needed.")
    return ParsedResults(kind=kind, a=np.asarray(a), b=np.asarray(b), names=names, rows_total=total, rows_used=used,
                         notes=tuple(notes))


def evaluation_units(a, b, m=1, *, how="mean", seed=None):
    """Aggregate ``m`` adjacent items into one evaluation unit (NLPStatTest §3.1.1).

    Parameters
    ----------
    a, b : array_like
        Per-item metric values of systems A and B.
    m : int
        Evaluation-unit size; a remainder of fewer than m items is dropped.
    how : {"mean", "median"}
        Aggregate of each unit.
    seed : int, optional
        Shuffle the (paired) items with this seed before grouping.

    Returns
    -------
    (u, v) : ndarrays
        Unit-level values of A and B.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    m = check_int("m", m, low=1, high=max(1, a.size))
    how = check_choice("how", how, ("mean", "median"))
    if seed is not None:
        order = np.random.default_rng(seed).permutation(a.size)
        a, b = a[order], b[order]
    units = a.size // m
    if units < 1:
        raise ValueError(f"`m` must be at most the number of items ({a.size}).")
    agg = np.mean if how == "mean" else np.median
    u = agg(a[: units * m].reshape(units, m), axis=1)
    v = agg(b[: units * m].reshape(units, m), axis=1)
    return u, v


# ---------------------------------------------------------------------------
# description and recommendation
# ---------------------------------------------------------------------------
def summarize(a, b, names=("A", "B")) -> pd.DataFrame:
    """Summary statistics of A, B and A − B (NLPStatTest §3.1.2)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    rows = []
    for label, x in ((names[0], a), (names[1], b), (f"{names[0]} − {names[1]}", a - b)):
        rows.append({"": label, "n": x.size, "mean": x.mean(), "median": float(np.median(x)),
                     "sd": x.std(ddof=1) if x.size > 1 else math.nan, "min": x.min(), "max": x.max(),
                     "skewness": float(stats.skew(x, bias=False)) if x.size > 2 and x.std() > 0 else math.nan})
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
    d = np.asarray(differences, dtype=float)
    if d.ndim != 1 or d.size < 3:
        raise ValueError("`differences` must be a 1-D array of at least 3 values.")
    alpha = check_alpha(alpha)
    gamma = float(stats.skew(d, bias=False)) if d.std() > 0 else 0.0
    size = abs(gamma)
    symmetry = "roughly symmetric" if size < 0.5 else ("slightly skewed" if size < 1 else "highly skewed")
    statistic = "mean" if size < 0.5 else "median"
    if size < 0.5 and d.std() > 0 and not binary:
        w, p = stats.shapiro(d[:5000]) if d.size > 5000 else stats.shapiro(d)
        w, p = float(w), float(p)
    else:
        w = p = math.nan
    normal = bool(size < 0.5 and not binary and (p > alpha))
    rows = []

    def add(test, verdict, reason):
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


# ---------------------------------------------------------------------------
# tests and effect sizes
# ---------------------------------------------------------------------------
def _bootstrap_test(d, statistic, alternative, n_resamples, rng, confidence):
    """Paired bootstrap test of H0: centre(d) = 0, by resampling the null-shifted differences."""
    centre = np.mean if statistic == "mean" else np.median
    observed = float(centre(d))
    shifted = d - observed
    idx = rng.integers(0, d.size, size=(n_resamples, d.size))
    null = centre(shifted[idx], axis=1)
    if alternative == "two-sided":
        extreme = np.abs(null) >= abs(observed) - 1e-12
    elif alternative == "greater":
        extreme = null >= observed - 1e-12
    else:
        extreme = null <= observed + 1e-12
    p = (1 + int(extreme.sum())) / (n_resamples + 1)
    boot = stats.bootstrap((d,), lambda x, axis: centre(x, axis=axis), n_resamples=min(n_resamples, 9999),
                           confidence_level=confidence, method="percentile", random_state=rng)
    return observed, p, float(boot.confidence_interval.low), float(boot.confidence_interval.high)


def paired_tests(a, b, *, alpha=0.05, alternative="two-sided", seed=None, tests=None, statistic="mean",
                 n_resamples=10_000) -> pd.DataFrame:
    """Run paired significance tests of A vs B (NLPStatTest §3.2).

    Parameters
    ----------
    a, b : array_like
        Paired scores (or 0/1 correctness) of systems A and B.
    alpha : float, optional
        Significance level (α2 in NLPStatTest); also sets the CI level 1 − α.
    alternative : {"two-sided", "greater", "less"}, optional
        "greater": A is better than B.
    seed : int, optional
        Seed for the permutation and bootstrap tests.
    tests : sequence of str, optional
        Subset of :data:`TESTS` (default: all that apply; McNemar only for 0/1 data).
    statistic : {"mean", "median"}, optional
        Centre tested by the permutation and bootstrap tests.
    n_resamples : int, optional
        Resamples of the permutation and bootstrap tests.

    Returns
    -------
    pandas.DataFrame
        ``test, name, estimate, statistic, p_value, ci_low, ci_high, significant``.
        The permutation test is exact (all 2^n sign flips) when 2^n <= n_resamples.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("`a` and `b` must be 1-D arrays of equal length.")
    if a.size < 3:
        raise ValueError("At least 3 pairs are needed.")
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    statistic = check_choice("statistic", statistic, ("mean", "median"))
    n_resamples = check_int("n_resamples", n_resamples, low=99, high=1_000_000)
    binary = bool(np.all(np.isin(np.concatenate([a, b]), (0.0, 1.0))))
    if tests is None:
        tests = [t for t in TESTS if t != "mcnemar" or binary]
    for t in tests:
        check_choice("tests", t, TESTS)
    d = a - b
    rng = np.random.default_rng(seed)
    rows = []
    for test in tests:
        est = stat = p = lo = hi = math.nan
        if test == "t":
            res = stats.ttest_rel(a, b, alternative=alternative)
            ci = res.confidence_interval(1 - alpha)
            est, stat, p, lo, hi = d.mean(), float(res.statistic), float(res.pvalue), float(ci.low), float(ci.high)
        elif test == "wilcoxon":
            if np.all(d == 0):
                p, stat = 1.0, 0.0
            else:
                res = stats.wilcoxon(a, b, alternative=alternative)
                stat, p = float(res.statistic), float(res.pvalue)
            est = _hodges_lehmann(d)
        elif test == "sign":
            pos, neg = int((d > 0).sum()), int((d < 0).sum())
            est, stat = float(np.median(d)), float(pos)
            p = float(stats.binomtest(pos, pos + neg, 0.5, alternative=alternative).pvalue) if pos + neg else 1.0
        elif test == "permutation":
            centre = np.mean if statistic == "mean" else np.median
            res = stats.permutation_test((a, b), lambda x, y, axis: centre(x - y, axis=axis),
                                         permutation_type="samples", n_resamples=n_resamples,
                                         alternative=alternative, vectorized=True, random_state=rng)
            est, stat, p = float(centre(d)), float(res.statistic), float(res.pvalue)
        elif test == "bootstrap":
            est, p, lo, hi = _bootstrap_test(d, statistic, alternative, n_resamples, rng, 1 - alpha)
            stat = est
        elif test == "mcnemar":
            if not binary:
                raise ValueError("McNemar's test needs 0/1 correctness columns.")
            b_only = int(((a == 1) & (b == 0)).sum())
            c_only = int(((a == 0) & (b == 1)).sum())
            res = mcnemar([[0, b_only], [c_only, 0]], exact=True)
            two = float(res.pvalue) if b_only + c_only else 1.0
            if alternative == "two-sided":
                p = two
            else:
                k = b_only if alternative == "greater" else c_only
                p = float(stats.binomtest(k, b_only + c_only, 0.5, alternative="greater").pvalue) \
                    if b_only + c_only else 1.0
            est, stat = d.mean(), float(min(b_only, c_only))
        rows.append((test, _TEST_NAMES[test], est, stat, p, lo, hi, p <= alpha))
    return pd.DataFrame(rows, columns=["test", "name", "estimate", "statistic", "p_value", "ci_low", "ci_high",
                                       "significant"])


def _hodges_lehmann(d):
    d = np.asarray(d, float)
    i, j = np.triu_indices(d.size)
    return float(np.median((d[i] + d[j]) / 2.0))


@dataclass(frozen=True)
class EffectSizes:
    """Effect sizes of the paired difference (NLPStatTest §3.3, equations 2–5).

    Attributes
    ----------
    cohen_d : float
        mean(d) / sd(d) (equation 2).
    hedges_g : float
        d (1 − 3/(4n − 9)) (equation 3, as NLPStatTest defines it).
    wilcoxon_r : float
        Z / √n with Z the tie-corrected normal score of the signed-rank
        statistic (equation 4).
    hodges_lehmann : float
        Median of the Walsh averages (d_i + d_j)/2, i <= j (equation 5).
    cohen_d_ci, hedges_g_ci, hodges_lehmann_ci : (float, float)
        95% confidence intervals (normal approximation for d and g:
        se = sqrt(1/n + d²/(2n)); distribution-free Walsh-average interval for
        the Hodges–Lehmann estimator).
    n : int
    """

    cohen_d: float
    hedges_g: float
    wilcoxon_r: float
    hodges_lehmann: float
    cohen_d_ci: tuple
    hedges_g_ci: tuple
    hodges_lehmann_ci: tuple
    n: int


def effect_sizes(a, b, *, confidence=0.95) -> EffectSizes:
    """Cohen's d, Hedges' g, Wilcoxon r and the Hodges–Lehmann estimator of A − B.

    Examples
    --------
    >>> e = effect_sizes([3, 4, 6, 8, 9], [1, 3, 3, 5, 6])
    >>> round(e.cohen_d, 3), e.hodges_lehmann
    (2.683, 2.5)
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or a.size < 3:
        raise ValueError("`a` and `b` must be 1-D arrays of equal length, at least 3.")
    confidence = check_real("confidence", confidence, low=0.5, high=0.999)
    d = a - b
    n = d.size
    sd = d.std(ddof=1)
    cohen = d.mean() / sd if sd > 0 else math.nan
    hedges = cohen * (1 - 3 / (4 * n - 9)) if n > 2 else math.nan
    z_conf = stats.norm.isf((1 - confidence) / 2)
    se = math.sqrt(1 / n + cohen**2 / (2 * n)) if math.isfinite(cohen) else math.nan
    # Wilcoxon r (equation 4): zeros dropped, average ranks, tie-corrected variance
    nz = d[d != 0]
    m = nz.size
    if m > 0:
        ranks = stats.rankdata(np.abs(nz))
        w_plus = ranks[nz > 0].sum()
        _, counts = np.unique(np.abs(nz), return_counts=True)
        var = m * (m + 1) * (2 * m + 1) / 24 - (counts**3 - counts).sum() / 48
        z = (w_plus - m * (m + 1) / 4) / math.sqrt(var) if var > 0 else 0.0
        r = z / math.sqrt(n)
    else:
        r = 0.0
    walsh = np.sort((d[np.triu_indices(n)[0]] + d[np.triu_indices(n)[1]]) / 2)
    hl = float(np.median(walsh))
    # distribution-free CI: order statistics of the Walsh averages at the Wilcoxon critical value
    big_n = walsh.size
    k = int(math.floor(big_n / 2 - z_conf * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
    k = min(max(k, 0), big_n - 1)
    hl_ci = (float(walsh[k]), float(walsh[big_n - 1 - k]))
    return EffectSizes(cohen_d=float(cohen), hedges_g=float(hedges), wilcoxon_r=float(r), hodges_lehmann=hl,
                       cohen_d_ci=(cohen - z_conf * se, cohen + z_conf * se),
                       hedges_g_ci=(hedges - z_conf * se, hedges + z_conf * se), hodges_lehmann_ci=hl_ci, n=n)


# ---------------------------------------------------------------------------
# power
# ---------------------------------------------------------------------------
def prospective_sample_size(mean_diff, sd_diff, *, target_power=0.8, alpha=0.05, alternative="two-sided",
                            conservative=False) -> int:
    """Pairs needed for the paired t test to reach ``target_power`` (NLPStatTest §3.4.1).

    Solves the noncentral-t power equation (statsmodels ``TTestPower``) for
    effect size ``mean_diff / sd_diff`` and rounds up. That power is monotone
    in n, so the first and the conservative sample size coincide;
    ``conservative`` is accepted for the package's uniform API.

    Examples
    --------
    >>> prospective_sample_size(0.5, 1.0)  # Cohen's medium effect
    34
    """
    mean_diff = check_real("mean_diff", mean_diff, low=-1e12, high=1e12)
    sd_diff = check_real("sd_diff", sd_diff, low=0.0, high=1e12, low_open=True)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    if mean_diff == 0:
        raise ValueError("`mean_diff` must be non-zero to size a study.")
    effect = mean_diff / sd_diff
    alt = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}[alternative]
    if alternative != "two-sided" and (effect > 0) != (alternative == "greater"):
        raise ValueError("`mean_diff` points the other way from the one-sided `alternative`.")
    n = TTestPower().solve_power(effect_size=abs(effect) if alternative == "two-sided" else effect,
                                 power=target_power, alpha=alpha, alternative=alt)
    return int(math.ceil(float(np.asarray(n).item()) - 1e-9))


def bootstrap_power_curve(differences, *, sizes=None, test="t", alpha=0.05, n_iter=500, seed=None) -> pd.DataFrame:
    """Retrospective bootstrap power curve (NLPStatTest §3.4.2).

    Resamples ``m`` differences with replacement ``n_iter`` times for each size
    m and reports the share of significant tests. It describes *this sample*,
    treating its observed effect as the truth: it is not evidence about the
    true effect (Card et al. 2020, appendix A; post-hoc power).

    Returns
    -------
    pandas.DataFrame
        ``n, power, mc_se``.
    """
    d = np.asarray(differences, dtype=float)
    if d.ndim != 1 or d.size < 5:
        raise ValueError("`differences` must hold at least 5 values.")
    test = check_choice("test", test, ("t", "wilcoxon", "sign"))
    alpha = check_alpha(alpha)
    n_iter = check_int("n_iter", n_iter, low=50, high=100_000)
    if sizes is None:
        sizes = np.unique(np.linspace(max(5, d.size // 10), d.size, 10).astype(int))
    rng = np.random.default_rng(seed)
    rows = []
    for m in sizes:
        m = check_int("sizes", m, low=3, high=10 * d.size)
        sample = d[rng.integers(0, d.size, size=(n_iter, m))]
        if test == "t":
            with np.errstate(divide="ignore", invalid="ignore"):
                p = stats.ttest_1samp(sample, 0.0, axis=1).pvalue
        elif test == "wilcoxon":
            with np.errstate(divide="ignore", invalid="ignore"):
                p = stats.wilcoxon(sample, axis=1, method="approx").pvalue
        else:
            pos, neg = (sample > 0).sum(axis=1), (sample < 0).sum(axis=1)
            tot = pos + neg
            k = np.minimum(pos, neg)
            p = np.where(tot > 0, np.minimum(1.0, 2 * stats.binom.cdf(k, np.maximum(tot, 1), 0.5)), 1.0)
        power = float(np.mean(np.nan_to_num(p, nan=1.0) <= alpha))
        rows.append((int(m), power, math.sqrt(power * (1 - power) / n_iter)))
    return pd.DataFrame(rows, columns=["n", "power", "mc_se"])


# ---------------------------------------------------------------------------
# many systems
# ---------------------------------------------------------------------------
def pairwise_comparisons(systems: pd.DataFrame, *, test="t", alpha=0.05, seed=None) -> pd.DataFrame:
    """All pairwise tests among K systems with Holm and Bonferroni corrections (NLPStatTest Figure 4).

    Returns
    -------
    pandas.DataFrame
        ``system_a, system_b, mean_difference, p_value, p_holm, p_bonferroni,
        significant_holm, significant_bonferroni`` (statsmodels ``multipletests``).
    """
    if not isinstance(systems, pd.DataFrame) or systems.shape[1] < 2:
        raise ValueError("`systems` must be a table with at least two system columns.")
    test = check_choice("test", test, ("t", "wilcoxon", "sign", "permutation", "bootstrap"))
    alpha = check_alpha(alpha)
    rows = []
    for x, y in combinations(systems.columns, 2):
        res = paired_tests(systems[x].to_numpy(float), systems[y].to_numpy(float), alpha=alpha, seed=seed,
                           tests=[test], n_resamples=2000)
        rows.append((x, y, float((systems[x] - systems[y]).mean()), float(res["p_value"].iloc[0])))
    table = pd.DataFrame(rows, columns=["system_a", "system_b", "mean_difference", "p_value"])
    table["p_holm"] = multipletests(table["p_value"], alpha=alpha, method="holm")[1]
    table["p_bonferroni"] = multipletests(table["p_value"], alpha=alpha, method="bonferroni")[1]
    table["significant_holm"] = table["p_holm"] <= alpha
    table["significant_bonferroni"] = table["p_bonferroni"] <= alpha
    return table


@dataclass(frozen=True)
class AccuracyDesign:
    """A measured paired accuracy comparison, the bridge to the Accuracy page.

    Attributes
    ----------
    n : int
        Items.
    agreement : float
        Share of items both systems get right or both get wrong (P_a).
    delta : float
        Accuracy of A minus accuracy of B.
    accuracy_a, accuracy_b : float
        The two accuracies.
    """

    n: int
    agreement: float
    delta: float
    accuracy_a: float
    accuracy_b: float


def accuracy_design(a, b) -> AccuracyDesign:
    """Agreement rate and accuracy difference of two 0/1 columns (bridge to the Accuracy page).

    Examples
    --------
    >>> accuracy_design([1, 1, 0, 1], [1, 0, 0, 0])
    AccuracyDesign(n=4, agreement=0.5, delta=0.5, accuracy_a=0.75, accuracy_b=0.25)
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if not np.all(np.isin(np.concatenate([a, b]), (0.0, 1.0))):
        raise ValueError("Both columns must be 0/1 correctness.")
    return AccuracyDesign(n=int(a.size), agreement=float((a == b).mean()), delta=float(a.mean() - b.mean()),
                          accuracy_a=float(a.mean()), accuracy_b=float(b.mean()))


def paired_t_mde(n, sd_diff, *, target_power=0.8, alpha=0.05, alternative="two-sided") -> float:
    """Minimum detectable mean difference of the paired t test with ``n`` pairs (in score units).

    The sensitivity view that replaces post-hoc power: the smallest true
    difference this sample size detects with ``target_power`` (statsmodels
    ``TTestPower`` solved for the effect size, times ``sd_diff``).

    Examples
    --------
    >>> round(paired_t_mde(34, 1.0), 3)
    0.495
    """
    n = check_int("n", n, low=3, high=10**8)
    sd_diff = check_real("sd_diff", sd_diff, low=0.0, high=1e12, low_open=True)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    alt = {"two-sided": "two-sided", "greater": "larger", "less": "larger"}[alternative]
    effect = TTestPower().solve_power(nobs=n, power=target_power, alpha=alpha, alternative=alt)
    return float(np.asarray(effect).item()) * sd_diff

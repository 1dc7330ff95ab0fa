"""Analysis of uploaded per-item results: data checks, tests, effect sizes, power, many systems.

Implements the comparison stage of NLPStatTest (Zhu, Liu, Dror et al. 2020,
§3): evaluation units (§3.1.1), summary statistics and the skewness rule of
thumb (§3.1.3), the Shapiro–Wilk check (§3.1.4), recommended tests (§3.1.5),
significance tests (§3.2), effect sizes (§3.3), prospective power and the
bootstrap power curve (§3.4), and multi-system comparison with Holm and
Bonferroni corrections (Figure 4).

Uploaded files are parsed defensively: bytes in, numbers out; nothing in a
file is ever executed or evaluated.

Cost and limits
---------------
Every computation costs time and memory in proportion to the data it needs,
never to the square of the number of rows, so any accepted upload (up to
:data:`MAX_ROWS` rows, :data:`MAX_BYTES` bytes, :data:`MAX_SYSTEMS` system
columns) is analysed in seconds and well under 1 GB:

* the Hodges–Lehmann estimator and its interval select order statistics of the
  n(n+1)/2 Walsh averages in O(n log n) time and O(n) memory, exactly
  (:func:`walsh_order_statistics`);
* resampling runs in chunks of at most ~32 MB. The permutation test of the
  mean draws sign flips eight at a time from a table of partial sums; the
  bootstrap and permutation tests of the median draw the middle order
  statistics directly (O(1) and O(√n) per resample). Mean-based resampling
  whose work ``n × resamples`` exceeds :data:`PERMUTATION_WORK` or
  :data:`BOOTSTRAP_WORK` uses the normal limit of the same resampling
  distribution instead — reported in the result's ``method`` column;
* all pairs of many systems are tested at once, vectorized across pairs
  (two threads); a Wilcoxon test of all pairs is refused above
  :data:`PAIRWISE_RANK_WORK` ranked differences and resampling tests of all
  pairs above :data:`PAIRWISE_WORK` resampled values, with a message saying
  what to reduce;
* scores must be finite and at most :data:`MAX_ABS_SCORE` in absolute value
  (beyond it differences, squares and sums could overflow).
"""

from __future__ import annotations

import math
import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

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
    "MAX_SYSTEMS",
    "MAX_ABS_SCORE",
    "PERMUTATION_WORK",
    "BOOTSTRAP_WORK",
    "PAIRWISE_WORK",
    "PAIRWISE_RANK_WORK",
    "CURVE_WORK",
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
    "hodges_lehmann",
    "walsh_order_statistics",
    "prospective_sample_size",
    "bootstrap_power_curve",
    "pairwise_comparisons",
    "accuracy_design",
    "AccuracyDesign",
    "paired_t_mde",
]

#: Uploads above this size are refused (per-item result files are small).
MAX_BYTES = uploads.MAX_BYTES
#: Most data rows (items) read from a results file.
MAX_ROWS = 1_000_000
#: Most system columns compared pairwise (200 systems = 19,900 pairs).
MAX_SYSTEMS = 200
#: Largest accepted |score|: beyond it differences, squares and sums of a
#: million rows could overflow double precision (1.8e308).
MAX_ABS_SCORE = 1e150
#: Monte Carlo sign flips of the mean run while n × resamples is at most this
#: (≈ 1 s); above it the permutation test uses its normal limit.
PERMUTATION_WORK = 500_000_000
#: Bootstrap resamples of the mean run while n × resamples is at most this
#: (≈ 1 s); above it the bootstrap test uses its normal limit.
BOOTSTRAP_WORK = 150_000_000
#: Most resampled values (pairs × rows × resamples, or pairs × rows for a
#: normal limit) for a permutation or bootstrap test of all pairs of systems.
PAIRWISE_WORK = 400_000_000
#: Most values ranked (pairs × rows) for a Wilcoxon test of all pairs of
#: systems (200 systems × 12,000 rows; about 5 s on two cores).
PAIRWISE_RANK_WORK = 250_000_000
#: Most resampled values (iterations × units) per size of the bootstrap power
#: curve drawn value by value; larger sizes use the normal limit (t test) or
#: fewer iterations (Wilcoxon test, at least 50).
CURVE_WORK = 10_000_000
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
#: Largest n for which the Wilcoxon test is exact (scipy's ``method="auto"``:
#: exact without ties or zeros, exact sign-flip enumeration with them when
#: n <= 13, the normal approximation otherwise and for every larger n).
WILCOXON_EXACT_MAX = 50
_CHUNK = 4_000_000  # elements per resampling chunk (32 MB of float64)
_EPS = 2.0**-52
_THREADS = max(1, min(2, os.cpu_count() or 1))  # worker threads for the pairwise tests


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
    """Numeric columns; rows with empty cells are dropped (counted), other non-numbers are errors.

    Numbers must be finite and at most :data:`MAX_ABS_SCORE` in absolute
    value; the message names the column and the data row.
    """
    sub = frame[list(columns)]
    missing = np.zeros(len(sub), dtype=bool)
    for name in columns:
        missing |= sub[name].isin(uploads._MISSING).to_numpy()
    dropped = int(missing.sum())
    kept = sub[~missing]
    out = {}
    for name in columns:
        cells = kept[name]
        values = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(values)
        if bad.any():
            i = int(np.argmax(bad))
            what = "is not a number" if np.isnan(values[i]) and str(cells.iloc[i]).strip().lower() != "nan" \
                else "is not a finite number"
            raise ValueError(f"Column {str(name)[:40]!r}, data row {int(kept.index[i]) + 1:,}: "
                             f"{str(cells.iloc[i])[:30]!r} {what}.")
        big = np.abs(values) > MAX_ABS_SCORE
        if big.any():
            i = int(np.argmax(big))
            raise ValueError(f"Column {str(name)[:40]!r}, data row {int(kept.index[i]) + 1:,}: "
                             f"{str(cells.iloc[i])[:30]!r} is too large to compare (at most {MAX_ABS_SCORE:g} in "
                             "absolute value); rescale the scores.")
        out[name] = values
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


def long_to_wide(table: pd.DataFrame, *, item="item", system="system", score="score", systems=None):
    """Pivot a long table (one row per item × system) to one column per system, rows = items.

    Parameters
    ----------
    table : pandas.DataFrame
        String cells, with the ``item``, ``system`` and ``score`` columns.
    systems : sequence of str, optional
        The systems to keep, in this order (default: all, in order of first appearance).

    Returns
    -------
    (pandas.DataFrame, list of str)
        The wide table of strings (items with a score for every chosen system; item order of first appearance)
        and notes (items dropped, repeated item × system rows averaged).

    Raises
    ------
    ValueError
        For a chosen system that is not in the table, or fewer than two systems.
    """
    notes = []
    names = list(pd.unique(table[system].to_numpy()))
    if systems is None:
        systems = names
    systems = [str(x) for x in systems]
    unknown = [x for x in systems if x not in set(names)]
    if unknown:
        raise ValueError(f"No rows for system {unknown[0]!r}; the systems are: {', '.join(map(str, names[:20]))}.")
    if len(systems) < 2:
        raise ValueError(f"Choose at least two systems to compare (the file has {len(names)}).")
    rows = table[table[system].isin(systems)]
    values = pd.to_numeric(rows[score].where(~rows[score].isin(list(uploads._MISSING))), errors="coerce")
    bad = values.isna() & ~rows[score].isin(list(uploads._MISSING))
    if bad.any():
        where = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(f"Column {score!r}: {rows[score].iloc[where][:20]!r} is not a number.")
    frame = pd.DataFrame({"item": rows[item].to_numpy(), "system": rows[system].to_numpy(), "score": values})
    counts = frame.groupby(["item", "system"], sort=False)["score"].size()
    if (counts > 1).any():
        notes.append(f"{int((counts > 1).sum()):,} item × system pairs have several rows; their scores were "
                     "averaged.")
    wide = frame.pivot_table(index="item", columns="system", values="score", aggfunc="mean", sort=False)
    wide = wide.reindex(columns=systems)
    complete = wide.notna().all(axis=1)
    if not complete.all():
        notes.append(f"{int((~complete).sum()):,} items without a score for every chosen system were dropped.")
    wide = wide[complete]
    out = pd.DataFrame({str(c): wide[c].map(repr).to_numpy() for c in systems}, dtype=object)
    return out, notes


def parse_results(data: bytes, kind: str = "scores", *, columns=None, header="auto") -> ParsedResults:
    """Read an upload as one of the supported layouts (see :data:`KINDS`).

    ``"scores"`` and ``"binary"`` use the first two columns; ``"predictions"``
    expects three columns (prediction of A, prediction of B, gold label) and
    turns them into 0/1 correctness; ``"systems"`` uses every column (at most
    :data:`MAX_SYSTEMS`).

    ``columns`` (role → column name) chooses the columns instead: ``a``,
    ``b`` (and ``gold`` for predictions); or ``item``, ``system`` and
    ``score`` for a long table (one row per item × system, e.g. WMT
    ``ad-seg-scores`` or MQM ``avg_seg_scores``), pivoted to one column per
    system (:func:`long_to_wide`), with ``systems`` (a list) choosing which
    — required unless the file has exactly two. ``header="no"``: the first
    row is data.

    Raises
    ------
    ValueError
        With a message saying what is wrong (and where): an unreadable file,
        a cell that is not a finite number or exceeds :data:`MAX_ABS_SCORE`,
        fewer than 3 usable rows, too many system columns.
    """
    kind = check_choice("kind", kind, KINDS)
    header = check_choice("header", header, ("auto", "yes", "no"))
    table = uploads.read_table(data, name="The file", min_columns=2, max_rows=MAX_ROWS, max_bytes=MAX_BYTES,
                               header=header)
    total = len(table)
    notes = []
    if columns is not None:
        if not isinstance(columns, dict):
            raise ValueError("`columns` must map roles to column names, e.g. {'a': 'bleu_A', 'b': 'bleu_B'}.")
        columns = dict(columns)
        systems = columns.pop("systems", None)
        if {"item", "system", "score"} <= set(columns):
            long = uploads.map_columns(table, {r: columns[r] for r in ("item", "system", "score")})
            if systems is None and kind != "systems":
                found = list(pd.unique(long["system"].to_numpy()))
                if len(found) != 2:
                    raise ValueError(f"The file has {len(found)} systems ({', '.join(map(str, found[:10]))}); "
                                     "choose the two to compare (`columns['systems']`).")
            table, pivot_notes = long_to_wide(long, systems=systems)
            notes.extend(pivot_notes)
            total = len(table)
        else:
            roles = {"predictions": ("a", "b", "gold")}.get(kind, ("a", "b"))
            if kind == "systems" and systems is not None:
                wanted = {str(x): str(x) for x in systems}
            else:
                missing = [r for r in roles if r not in columns]
                if missing:
                    raise ValueError(f"`columns` needs the roles {', '.join(roles)} for this layout (or item, "
                                     f"system and score for a long table); missing {', '.join(missing)}.")
                wanted = {columns[r]: columns[r] for r in roles}
                if len(wanted) < len(roles):
                    raise ValueError("`columns` uses one column for two roles.")
            table = uploads.map_columns(table, wanted)
            if table.shape[1] < 2:
                raise ValueError("Choose at least two system columns to compare.")
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
        if kind == "systems" and table.shape[1] > MAX_SYSTEMS:
            raise ValueError(f"The file has {table.shape[1]:,} system columns; at most {MAX_SYSTEMS} can be compared "
                             f"pairwise ({MAX_SYSTEMS * (MAX_SYSTEMS - 1) // 2:,} pairs). Keep the systems you want "
                             "to compare.")
        columns = list(table.columns) if kind == "systems" else list(table.columns[:2])
        if kind != "systems" and table.shape[1] > 2:
            notes.append(f"Only the first two of {table.shape[1]} columns are used (choose 'one column per system' "
                         "to compare them all).")
        numbers, dropped = _to_numbers(table, columns)
        if dropped:
            notes.append(f"{dropped} rows with missing values were dropped.")
        a, b = numbers.iloc[:, 0].to_numpy(), numbers.iloc[:, 1].to_numpy()
        names = tuple(columns)
        if kind == "binary" and not (_is_binary(a) and _is_binary(b)):
            raise ValueError("Correctness columns must contain only 0 and 1.")
        if kind == "systems":
            if numbers.shape[1] < 2:
                raise ValueError("Need at least two system columns.")
            if len(numbers) < 3:
                raise ValueError(f"Only {len(numbers)} usable rows; at least 3 are needed.")
            return ParsedResults(kind=kind, a=a, b=b, names=names, rows_total=total, rows_used=len(numbers),
                                 notes=tuple(notes), systems=numbers)
    used = len(a)
    if used < 3:
        raise ValueError(f"Only {used} usable rows; at least 3 are needed.")
    return ParsedResults(kind=kind, a=np.asarray(a), b=np.asarray(b), names=names, rows_total=total, rows_used=used,
                         notes=tuple(notes))


def _is_binary(x) -> bool:
    return bool(np.all((x == 0.0) | (x == 1.0)))


def _paired(a, b, *, names=("a", "b"), min_size=3):
    """Validated float arrays a, b and d = a − b (1-D, equal length, finite, not too large)."""
    try:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{names[0]}` and `{names[1]}` must be arrays of numbers.") from None
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"`{names[0]}` and `{names[1]}` must be 1-D arrays of equal length.")
    if a.size < min_size:
        raise ValueError(f"At least {min_size} pairs are needed; got {a.size}.")
    _check_values(a, names[0])
    _check_values(b, names[1])
    return a, b, a - b


def _check_values(x, name):
    """Finite and at most MAX_ABS_SCORE in absolute value (else differences and squares may overflow)."""
    if not np.all(np.isfinite(x)):
        raise ValueError(f"`{name}` must contain finite numbers only.")
    if x.size and float(np.max(np.abs(x))) > MAX_ABS_SCORE:
        raise ValueError(f"`{name}` holds values too large to compare (|x| up to {float(np.max(np.abs(x))):.3g}; at "
                         f"most {MAX_ABS_SCORE:g}); rescale the scores.")


def _differences(differences, *, name="differences", min_size=3):
    try:
        d = np.asarray(differences, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be an array of numbers.") from None
    if d.ndim != 1 or d.size < min_size:
        raise ValueError(f"`{name}` must be a 1-D array of at least {min_size} values.")
    _check_values(d, name)
    return d


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
    a, b, _ = _paired(a, b, min_size=1)
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
# order statistics of the Walsh averages in O(n log n)
# ---------------------------------------------------------------------------
_WALSH_GATHER = 1 << 21  # candidate cells gathered and sorted once this few remain
_WALSH_SAMPLE = 100_000  # candidates sampled to place the pivots
_MEDIAN_PREFIX = (6.0, 64)  # sign flips drawn one by one for the M = 6√n' + 64 smallest |d|


def _first_true(predicate, lo, hi):
    """Vectorized binary search: per row k, the first j in [lo_k, hi_k) with predicate(k, j) (hi_k if none)."""
    lo, hi = lo.copy(), hi.copy()
    rows = np.nonzero(lo < hi)[0]
    while rows.size:
        mid = (lo[rows] + hi[rows]) // 2
        ok = predicate(rows, mid)
        hi[rows] = np.where(ok, mid, hi[rows])
        lo[rows] = np.where(ok, lo[rows], mid + 1)
        rows = rows[lo[rows] < hi[rows]]
    return lo


def _walsh_split(x, p, lo, hi):
    """Per row i of the sorted x: the first column j in [lo_i, hi_i] with fl(x_i + x_j) >= p and with > p.

    Exact in floating point: ``searchsorted`` on ``p - x_i`` brackets the
    boundary to within the rounding error of the two operations, and a binary
    search on the computed sums themselves settles it. Rows with an empty
    range return ``lo_i``.
    """
    ge, gt = lo.copy(), lo.copy()
    rows = np.nonzero(hi > lo)[0]
    if rows.size == 0:
        return ge, gt
    xi = x[rows]
    lo_r, hi_r = lo[rows], hi[rows]
    threshold = p - xi
    # |fl(p - x_i) - (p - x_i)| and |fl(x_i + x_j) - (x_i + x_j)| are below this margin
    margin = 4 * _EPS * (abs(p) + 2 * np.abs(xi)) + 1e-300
    # thresholds decrease along the rows: search them in increasing order (cache-friendly)
    lo_b = np.clip(np.searchsorted(x, (threshold - margin)[::-1], side="left")[::-1], lo_r, hi_r)
    hi_b = lo_b.copy()
    # columns j < lo_b have sums < p and j >= hi_b sums > p; the bracket between is usually empty
    near = np.nonzero((lo_b < hi_r) & (x[np.minimum(lo_b, x.size - 1)] <= threshold + margin))[0]
    if near.size:
        ends = np.searchsorted(x, (threshold[near] + margin[near])[::-1], side="right")[::-1]
        hi_b[near] = np.clip(ends, lo_b[near], hi_r[near])
    first_ge, first_gt = lo_b.copy(), lo_b.copy()
    # a bracket of equal values (ties): one sum decides for all of it
    same = near[x[lo_b[near]] == x[hi_b[near] - 1]]
    total = xi[same] + x[lo_b[same]]
    first_ge[same] = np.where(total >= p, lo_b[same], hi_b[same])
    first_gt[same] = np.where(total > p, lo_b[same], hi_b[same])
    mixed = near[x[lo_b[near]] != x[hi_b[near] - 1]]
    if mixed.size:
        xm = xi[mixed]
        first_ge[mixed] = _first_true(lambda k, j: xm[k] + x[j] >= p, lo_b[mixed], hi_b[mixed])
        first_gt[mixed] = _first_true(lambda k, j: xm[k] + x[j] > p, first_ge[mixed], hi_b[mixed])
    ge[rows], gt[rows] = first_ge, first_gt
    return ge, gt


def _walsh_sums(x, ranks, rng):
    """Order statistics (0-based ``ranks``) of the sums x_i + x_j, i <= j, of the sorted array ``x``.

    A randomized selection on the implicit sorted matrix of sums (Monahan
    1984; Johnson & Mizoguchi 1978), over the distinct values u_1 < … < u_m
    with multiplicities c: cell (a, b), b >= a, stands for c_a c_b sums
    (c_a (c_a + 1)/2 on the diagonal), so tied data cost O(m), not O(n).
    Every row keeps a range of candidate columns; two pivots drawn from a
    sample of the candidates bracket the wanted ranks (Floyd & Rivest 1975)
    and each pivot is located in every row by :func:`_walsh_split`. Once few
    candidate cells remain they are gathered, sorted and the ranks read off
    the cumulative weights. Expected O(m log m) time, O(m) memory; the result
    is exact whatever the pivots, so the seed only affects the running time.
    """
    u, c = np.unique(x, return_counts=True)
    m = u.size
    c = c.astype(np.int64)
    cum = np.concatenate(([0], np.cumsum(c)))  # cum[j] = Σ_{b < j} c_b
    rows = np.arange(m)
    diagonal = c * (c - 1) // 2  # c_a² counted for the diagonal cell minus its c_a (c_a + 1)/2 sums

    tied = bool(diagonal.any())

    def weight(lo, hi):
        """Sums in columns [lo, hi) of every row (b >= a)."""
        w = c * (cum[hi] - cum[lo])
        return w - np.where((lo <= rows) & (rows < hi), diagonal, 0) if tied else w

    def total(lo, hi):
        """Σ weight(lo, hi), without the per-row array."""
        out_ = int(np.dot(c, cum[hi])) - int(np.dot(c, cum[lo]))
        return out_ - int(diagonal[(lo <= rows) & (rows < hi)].sum()) if tied else out_

    out = {}
    ranks = sorted({int(k) for k in ranks})

    def gather(lo, hi, below):
        count = hi - lo
        live = np.nonzero(count)[0]
        k = count[live]
        a = np.repeat(live, k)
        b = lo[a] + (np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k))
        sums = u[a] + u[b]
        w = np.where(a == b, c[a] * (c[a] + 1) // 2, c[a] * c[b])
        order = np.argsort(sums, kind="stable")
        position = np.cumsum(w[order]) + below  # rank just past each cell's sums
        for r in ranks:
            if r not in out:
                idx = int(np.searchsorted(position, r, side="right"))
                if idx < order.size:
                    out[r] = float(sums[order[idx]])

    def narrow(lo, hi, k_low, k_high, size, below):
        """One round: two pivots from a sample of the candidates bracket ranks k_low … k_high."""
        rw = weight(lo, hi)
        samples = min(_WALSH_SAMPLE, int((hi - lo).sum()))
        draws = np.sort(rng.random(samples)) * size
        pick = np.minimum(np.searchsorted(np.cumsum(rw), draws, side="right"), m - 1)
        # a column of the picked row, drawn by the multiplicities (the diagonal's weight is approximate here:
        # the sample only places the pivots)
        t = cum[lo[pick]] + rng.random(samples) * (cum[hi[pick]] - cum[lo[pick]])
        col = np.clip(np.searchsorted(cum, t, side="right") - 1, lo[pick], np.maximum(hi[pick] - 1, lo[pick]))
        sample = np.sort(u[pick] + u[col])
        q_low, q_high = (k_low - below) / size, (k_high - below) / size
        spread_low = 2.5 * math.sqrt(samples * q_low * (1 - q_low)) + 2
        spread_high = 2.5 * math.sqrt(samples * q_high * (1 - q_high)) + 2
        pivots = [sample[min(max(int(q_low * samples - spread_low), 0), samples - 1)],
                  sample[min(int(math.ceil(q_high * samples + spread_high)), samples - 1)]]
        for p in pivots:
            ge, gt = _walsh_split(u, p, lo, hi)
            less, upto = total(rows, ge), total(rows, gt)
            for r in ranks:
                if less <= r < upto:
                    out[r] = float(p)
            if upto <= k_low:
                lo = gt
            if less > k_high:
                hi = ge
        return lo, hi

    def state(lo, hi):
        return total(lo, hi), total(rows, lo), int((hi - lo).sum())

    lo0, hi0 = rows.copy(), np.full(m, m)
    size, below, cells = state(lo0, hi0)
    if len(ranks) > 1 and cells > _WALSH_GATHER:  # a shared first round brackets all the ranks
        lo0, hi0 = narrow(lo0, hi0, ranks[0], ranks[-1], size, below)
    for k in ranks:
        lo, hi = lo0, hi0
        while k not in out:
            size, below, cells = state(lo, hi)
            if cells <= _WALSH_GATHER:
                gather(lo, hi, below)
                break
            lo, hi = narrow(lo, hi, k, k, size, below)
    return out


def walsh_order_statistics(d, ranks, *, seed=0) -> np.ndarray:
    """Order statistics of the Walsh averages (d_i + d_j)/2, i <= j, without forming them.

    Parameters
    ----------
    d : array_like
        Paired differences (finite; at most :data:`MAX_ABS_SCORE` in absolute value).
    ranks : sequence of int
        0-based ranks among the n(n+1)/2 Walsh averages sorted ascending.
    seed : int, optional
        Seed of the pivot sampling (affects only the running time).

    Returns
    -------
    ndarray
        The averages at ``ranks``, bit-for-bit equal to sorting
        ``(d[i] + d[j]) / 2.0`` over ``np.triu_indices(n)``.

    Notes
    -----
    O(n log n) expected time and O(n) memory (Monahan 1984's selection of
    the Hodges–Lehmann estimator, with Floyd–Rivest pivots). Order is
    preserved by halving, so the sums x_i + x_j are selected and halved.

    References
    ----------
    Monahan, J. F. (1984), Algorithm 616: fast computation of the
    Hodges–Lehmann location estimator, ACM TOMS 10(3):265–270; Johnson, D. B.
    & Mizoguchi, T. (1978), SIAM J. Comput. 7(2):147–153.

    Examples
    --------
    >>> walsh_order_statistics([2, 1, 3, 3, 3], [0, 7, 14]).tolist()
    [1.0, 2.5, 3.0]
    """
    d = _differences(d, name="d", min_size=1)
    n = d.size
    total = n * (n + 1) // 2
    ranks = [int(r) for r in np.atleast_1d(ranks)]
    for r in ranks:
        check_int("ranks", r, low=0, high=total - 1)
    sums = _walsh_sums(np.sort(d), ranks, np.random.default_rng(seed))
    return np.array([sums[r] for r in ranks]) / 2.0


def _walsh_median(values) -> float:
    """np.median of two (or one) middle values: their mean, computed as numpy does."""
    return float(np.mean(np.asarray(values, dtype=float)))


def hodges_lehmann(d, *, confidence=None):
    """Hodges–Lehmann estimator (median of the Walsh averages, NLPStatTest eq. 5) and its interval.

    Parameters
    ----------
    d : array_like
        Paired differences.
    confidence : float, optional
        Also return the distribution-free interval: Walsh averages of ranks
        k and N − 1 − k, k = ⌊N/2 − z √(n(n+1)(2n+1)/24)⌋ (N = n(n+1)/2, the
        Wilcoxon signed-rank critical value in its normal form).

    Returns
    -------
    float or (float, (float, float))

    Examples
    --------
    >>> hodges_lehmann([2, 1, 3, 3, 3])
    2.5
    """
    d = _differences(d, name="d", min_size=1)
    n = d.size
    total = n * (n + 1) // 2
    middle = [(total - 1) // 2, total // 2]
    ranks = list(middle)
    if confidence is not None:
        confidence = check_real("confidence", confidence, low=0.5, high=0.999)
        z_conf = stats.norm.isf((1 - confidence) / 2)
        k = int(math.floor(total / 2 - z_conf * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
        k = min(max(k, 0), total - 1)
        ranks += [k, total - 1 - k]
    values = walsh_order_statistics(d, ranks)
    hl = _walsh_median(values[:1] if middle[0] == middle[1] else values[:2])
    if confidence is None:
        return hl
    return hl, (float(values[2]), float(values[3]))


# ---------------------------------------------------------------------------
# resampling engines (chunked, bounded memory)
# ---------------------------------------------------------------------------
def _p_values(null, observed, exact):
    """scipy ``permutation_test`` p-values: (less, greater, two-sided), tolerance 100 eps |observed|."""
    tol = abs(observed) * np.finfo(float).eps * 100
    adjust = 0 if exact else 1
    size = null.size
    greater = (int(np.count_nonzero(null >= observed - tol)) + adjust) / (size + adjust)
    less = (int(np.count_nonzero(null <= observed + tol)) + adjust) / (size + adjust)
    return less, greater, min(1.0, 2 * min(less, greater))


def _pick(p_three, alternative):
    less, greater, two = p_three
    return {"two-sided": two, "greater": greater, "less": less}[alternative]


def _all_signs(n):
    """All 2^n sign vectors (rows), the identity first."""
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
    return 1.0 - 2.0 * bits


def _signflip_sums(d, size, rng):
    """Σ ε_i d_i for ``size`` vectors of fair random signs, and Σ d_i computed the same way.

    Signs are drawn 8 (or 4, for long inputs) at a time as one random byte per
    group, which indexes a table of the group's 256 (16) signed partial sums:
    one lookup per group instead of 8 multiply-adds, in chunks of ~32 MB.
    """
    n = d.size
    bits = 8 if n <= 131_072 else 4
    width = 1 << bits
    groups = -(-n // bits)
    padded = np.zeros(groups * bits)
    padded[:n] = d
    signs = 2.0 * ((np.arange(width)[:, None] >> np.arange(bits)[None, :]) & 1) - 1.0  # bit set = +1
    table = (padded.reshape(groups, bits) @ signs.T).ravel()
    offsets = (np.arange(groups) * width).astype(np.int32 if groups * width < 2**31 else np.int64)
    observed = float(np.take(table, (offsets + (width - 1))[None, :]).sum(axis=1)[0])
    out = np.empty(size)
    rows = max(1, _CHUNK // groups)
    for start in range(0, size, rows):
        stop = min(size, start + rows)
        draws = rng.integers(0, width, size=(stop - start, groups), dtype=np.uint8)
        out[start:stop] = np.take(table, offsets + draws).sum(axis=1)
    return out, observed


def _signflip_medians(d, size, rng):
    """Medians of ε_i d_i for ``size`` vectors of fair random signs, exactly, in O(√n) per vector.

    With b the sorted non-zero |d| (n' of them) and z zeros, a flipped sample
    sorted ascending is: the N− negatives (largest |d| first), the zeros, the
    positives. Its middle value is the q-th smallest magnitude among the
    negatives or the positives, q ≈ |N− − n/2| = O(√n). So only the signs of
    the M ≈ 6√n' + 64 smallest magnitudes are drawn one by one; N− adds a
    Binomial(n' − M, ½) count for the rest. In the rare event that the q-th
    value lies beyond the M smallest, the rest of that vector's signs are
    drawn (a uniform subset of the drawn size): the distribution is exact.
    """
    n = d.size
    mags = np.sort(np.abs(d))
    zeros = int(np.count_nonzero(mags == 0))
    b = mags[zeros:]
    nz = b.size
    ranks = sorted({(n - 1) // 2, n // 2})
    out = np.empty(size)
    if nz == 0:
        out[:] = 0.0
        return out
    m_pre = min(nz, int(_MEDIAN_PREFIX[0] * math.sqrt(nz)) + _MEDIAN_PREFIX[1])
    rows = max(1, _CHUNK // (4 * m_pre))
    for start in range(0, size, rows):
        stop = min(size, start + rows)
        c = stop - start
        negative = rng.integers(0, 2, size=(c, m_pre), dtype=np.int8).astype(bool)
        rest = rng.binomial(nz - m_pre, 0.5, size=c) if nz > m_pre else np.zeros(c, dtype=np.int64)
        cum_neg = np.cumsum(negative, axis=1, dtype=np.int32)
        cum_pos = np.arange(1, m_pre + 1, dtype=np.int32)[None, :] - cum_neg
        n_neg = cum_neg[:, -1] + rest
        values = []
        ok = np.ones(c, dtype=bool)
        for r in ranks:
            val = np.zeros(c)
            in_neg = r < n_neg
            in_pos = r >= n_neg + zeros
            q = np.where(in_neg, n_neg - 1 - r, np.where(in_pos, r - n_neg - zeros, 0))
            pos_neg = (cum_neg < (q + 1)[:, None]).sum(axis=1)  # index of the q-th negative in the prefix
            pos_pos = (cum_pos < (q + 1)[:, None]).sum(axis=1)
            ok &= ~(in_neg & (pos_neg >= m_pre)) & ~(in_pos & (pos_pos >= m_pre))
            val[in_neg] = -b[np.minimum(pos_neg[in_neg], m_pre - 1)]
            val[in_pos] = b[np.minimum(pos_pos[in_pos], m_pre - 1)]
            values.append(val)
        med = values[0] if len(values) == 1 else (values[0] + values[1]) / 2
        for i in np.nonzero(~ok)[0]:  # complete the vector: rest[i] negatives among the other magnitudes
            sign = np.ones(nz)
            sign[:m_pre][negative[i]] = -1.0
            if nz > m_pre:
                sign[m_pre + rng.choice(nz - m_pre, size=int(rest[i]), replace=False)] = -1.0
            med[i] = np.median(np.concatenate([np.zeros(zeros), sign * b]))
        out[start:stop] = med
    return out


def _bootstrap_means(d, size, rng):
    """Means of ``size`` bootstrap resamples of d, in chunks of ~32 MB of indices."""
    n = d.size
    out = np.empty(size)
    rows = max(1, _CHUNK // n)
    dtype = np.int32 if n < 2**31 else np.int64
    for start in range(0, size, rows):
        stop = min(size, start + rows)
        out[start:stop] = d[rng.integers(0, n, size=(stop - start, n), dtype=dtype)].mean(axis=1)
    return out


def _bootstrap_medians(d, size, rng):
    """Medians of ``size`` bootstrap resamples of d, exactly, in O(1) per resample.

    A resample's sorted indices are ⌊n U_(1)⌋ ≤ … ≤ ⌊n U_(n)⌋ for uniform order
    statistics U_(k) ~ Beta(k, n − k + 1); the next one is
    U_(k+1) = U_(k) + (1 − U_(k)) Beta(1, n − k). The median of the resample is
    therefore x_(⌊n U_(k)⌋) (and the mean of two such values for even n),
    with x the sorted data (Maritz & Jarrett 1978 for the exact bootstrap
    distribution of the median).
    """
    x = np.sort(d)
    n = x.size
    k = (n - 1) // 2 + 1  # 1-based rank of the (lower) middle value
    u1 = rng.beta(k, n - k + 1, size=size)
    j1 = np.minimum((u1 * n).astype(np.int64), n - 1)
    if n % 2:
        return x[j1]
    u2 = u1 + (1.0 - u1) * rng.beta(1, n - k, size=size)
    j2 = np.minimum((u2 * n).astype(np.int64), n - 1)
    return (x[j1] + x[j2]) / 2


def _permutation_test(d, statistic, alternative, n_resamples, rng):
    """Paired permutation (sign-flip) test of H0: the differences are symmetric about 0.

    Returns (estimate, p, method, resamples, p_se).
    """
    n = d.size
    centre = np.mean if statistic == "mean" else np.median
    observed = float(centre(d))
    if 2**n <= n_resamples:  # every sign vector: exact (scipy's permutation_test does the same)
        flips = _all_signs(n) * d[None, :]
        null = centre(flips, axis=1)
        return observed, _pick(_p_values(null, observed, True), alternative), "exact enumeration", 2**n, 0.0
    if statistic == "median":
        null = _signflip_medians(d, n_resamples, rng)
        p = _pick(_p_values(null, observed, False), alternative)
    elif n * n_resamples <= PERMUTATION_WORK:
        null, total = _signflip_sums(d, n_resamples, rng)
        p = _pick(_p_values(null, total, False), alternative)
    else:  # normal limit of the sign-flip distribution: mean 0, variance Σd² exactly
        scale = math.sqrt(float(np.dot(d, d)))
        if scale == 0:
            return observed, 1.0, "normal limit", 0, math.nan
        z = float(d.sum()) / scale
        p = _pick((float(stats.norm.cdf(z)), float(stats.norm.sf(z)), min(1.0, 2 * float(stats.norm.sf(abs(z))))),
                  alternative)
        return observed, p, "normal limit", 0, math.nan
    return observed, p, "Monte Carlo", n_resamples, math.sqrt(p * (1 - p) / n_resamples)


def _bootstrap_test(d, statistic, alternative, n_resamples, rng, confidence):
    """Paired bootstrap test of H0: centre(d) = 0 and the percentile interval, from one set of resamples.

    The null distribution is that of the centre of resamples of the
    null-shifted differences d − centre(d), i.e. the bootstrap replicates
    minus the observed centre (both centres are shift-equivariant).

    Returns (estimate, p, ci_low, ci_high, method, resamples, p_se).
    """
    n = d.size
    observed = float(np.mean(d) if statistic == "mean" else np.median(d))
    if statistic == "mean" and n * n_resamples > BOOTSTRAP_WORK:
        # normal limit of the bootstrap distribution of the mean: N(d̄, σ̂²/n), σ̂ with divisor n
        se = float(d.std()) / math.sqrt(n)
        z_conf = float(stats.norm.isf((1 - confidence) / 2))
        if se == 0:
            return observed, (1.0 if observed == 0 else 0.0), observed, observed, "normal limit", 0, math.nan
        z = observed / se
        p = {"two-sided": 2 * float(stats.norm.sf(abs(z))), "greater": float(stats.norm.sf(z)),
             "less": float(stats.norm.cdf(z))}[alternative]
        return observed, min(p, 1.0), observed - z_conf * se, observed + z_conf * se, "normal limit", 0, math.nan
    boot = _bootstrap_means(d, n_resamples, rng) if statistic == "mean" else _bootstrap_medians(d, n_resamples, rng)
    null = boot - observed
    tol = 1e-12 * max(abs(observed), float(np.max(np.abs(d))))
    if alternative == "two-sided":
        extreme = np.abs(null) >= abs(observed) - tol
    elif alternative == "greater":
        extreme = null >= observed - tol
    else:
        extreme = null <= observed + tol
    p = (1 + int(np.count_nonzero(extreme))) / (n_resamples + 1)
    low, high = np.percentile(boot, [100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2])
    return observed, p, float(low), float(high), "Monte Carlo", n_resamples, math.sqrt(p * (1 - p) / n_resamples)


# ---------------------------------------------------------------------------
# tests and effect sizes
# ---------------------------------------------------------------------------
def paired_tests(a, b, *, alpha=0.05, alternative="two-sided", seed=None, tests=None, statistic="mean",
                 n_resamples=10_000) -> pd.DataFrame:
    """Run paired significance tests of A vs B (NLPStatTest §3.2).

    Parameters
    ----------
    a, b : array_like
        Paired scores (or 0/1 correctness) of systems A and B (finite, at
        most :data:`MAX_ABS_SCORE` in absolute value).
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
        ``test, name, estimate, statistic, p_value, ci_low, ci_high,
        significant, method, resamples, p_se``: ``method`` says how the
        p-value was obtained ("t distribution", "exact", "normal
        approximation", "exact enumeration", "Monte Carlo", "normal limit"),
        ``resamples`` how many resamples it used (0 when none) and ``p_se``
        its Monte Carlo standard error √(p(1 − p)/R) (0 for an exact
        enumeration, nan when nothing was resampled).

    Notes
    -----
    * Wilcoxon: scipy's ``method="auto"`` — exact for n <= 50 (no ties or
      zeros; sign-flip enumeration with them up to n = 13), the normal
      approximation above (O(n log n)).
    * Permutation test: exact (all 2^n sign flips) when 2^n <= n_resamples;
      otherwise ``n_resamples`` random sign flips (p = (1 + #as extreme) /
      (R + 1), scipy's definition), drawn in chunks. For the mean, when
      n × n_resamples exceeds :data:`PERMUTATION_WORK`, the sign-flip
      distribution is replaced by its normal limit N(0, Σd²) — its variance is
      exact, and the sign-flip sum is symmetric so the first correction is
      O(1/n) (below 10⁻⁴ in p at n = 10⁵, against a Monte Carlo standard error
      of 0.003 for 5,000 resamples at p = 0.05).
    * Bootstrap test: one set of resamples gives the p-value (null-shifted
      replicates) and the percentile interval. For the mean, when
      n × n_resamples exceeds :data:`BOOTSTRAP_WORK`, the normal limit
      N(d̄, σ̂²/n) of the bootstrap distribution is used instead (first
      correction: skewness γ/(6√n), about 10⁻³ in p at n = 3 × 10⁴ and γ = 2).
    * Medians are resampled exactly at any n in O(√n) (permutation) or O(1)
      (bootstrap) per resample: see :func:`_signflip_medians` and
      :func:`_bootstrap_medians`.
    """
    a, b, d = _paired(a, b)
    alpha = check_alpha(alpha)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    statistic = check_choice("statistic", statistic, ("mean", "median"))
    n_resamples = check_int("n_resamples", n_resamples, low=99, high=1_000_000)
    binary = _is_binary(a) and _is_binary(b)
    if tests is None:
        tests = [t for t in TESTS if t != "mcnemar" or binary]
    if isinstance(tests, str):
        tests = [tests]
    for t in tests:
        check_choice("tests", t, TESTS)
    n = d.size
    rows = []
    for test in tests:
        rng = np.random.default_rng(seed)  # every test reproducible on its own
        est = stat = p = lo = hi = p_se = math.nan
        method, resamples = "exact", 0
        if test == "t":
            method = "t distribution"
            if not np.any(d != d[0]):  # constant differences: no spread to test against
                est, lo, hi = float(d[0]), float(d[0]), float(d[0])
                p = 1.0 if d[0] == 0 else 0.0
            else:
                res = stats.ttest_rel(a, b, alternative=alternative)
                ci = res.confidence_interval(1 - alpha)
                est, stat, p, lo, hi = d.mean(), res.statistic, res.pvalue, ci.low, ci.high
        elif test == "wilcoxon":
            nonzero = d[d != 0]
            if nonzero.size == 0:
                p, stat = 1.0, 0.0
            else:
                res = stats.wilcoxon(d, alternative=alternative,
                                     method="auto" if n <= WILCOXON_EXACT_MAX else "asymptotic")
                stat, p = res.statistic, res.pvalue
                untied = nonzero.size == n and np.unique(np.abs(d)).size == n
                method = "exact" if n <= 13 or (n <= WILCOXON_EXACT_MAX and untied) else "normal approximation"
            est = hodges_lehmann(d)
        elif test == "sign":
            pos, neg = int((d > 0).sum()), int((d < 0).sum())
            est, stat = float(np.median(d)), float(pos)
            p = float(stats.binomtest(pos, pos + neg, 0.5, alternative=alternative).pvalue) if pos + neg else 1.0
        elif test == "permutation":
            est, p, method, resamples, p_se = _permutation_test(d, statistic, alternative, n_resamples, rng)
            stat = est
        elif test == "bootstrap":
            est, p, lo, hi, method, resamples, p_se = _bootstrap_test(d, statistic, alternative, n_resamples, rng,
                                                                      1 - alpha)
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
        rows.append((test, _TEST_NAMES[test], float(est), float(stat), float(p), float(lo), float(hi),
                     bool(p <= alpha), method, int(resamples), float(p_se)))
    return pd.DataFrame(rows, columns=["test", "name", "estimate", "statistic", "p_value", "ci_low", "ci_high",
                                       "significant", "method", "resamples", "p_se"])


@dataclass(frozen=True)
class EffectSizes:
    """Effect sizes of the paired difference (NLPStatTest §3.3, equations 2–5).

    Attributes
    ----------
    cohen_d : float
        mean(d) / sd(d) (equation 2).
    hedges_g : float
        d (1 − 3/(4n − 9)) (equation 3, as NLPStatTest defines it; 0 at n = 3).
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

    Every index costs O(n log n) time and O(n) memory: the Hodges–Lehmann
    estimator and its interval are order statistics of the Walsh averages
    selected without forming them (:func:`walsh_order_statistics`).

    Examples
    --------
    >>> e = effect_sizes([3, 4, 6, 8, 9], [1, 3, 3, 5, 6])
    >>> round(e.cohen_d, 3), e.hodges_lehmann
    (2.683, 2.5)
    """
    a, b, d = _paired(a, b)
    confidence = check_real("confidence", confidence, low=0.5, high=0.999)
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
        counts = counts.astype(float)
        var = m * (m + 1) * (2 * m + 1) / 24 - (counts**3 - counts).sum() / 48
        z = (w_plus - m * (m + 1) / 4) / math.sqrt(var) if var > 0 else 0.0
        r = z / math.sqrt(n)
    else:
        r = 0.0
    hl, hl_ci = hodges_lehmann(d, confidence=confidence)
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


def _signed_rank_rows(rows):
    """Wilcoxon signed-rank statistics of every row of a 2-D array (zeros dropped, average ranks).

    Returns ``(r_plus, count, tie_term, untied)``: the sum of the ranks of
    |d| over positive d, the number of non-zero values, Σ(t³ − t) over tie
    groups of the non-zero |d|, and whether a row has neither ties nor zeros.

    Notes
    -----
    One sort per row of a uint64 key — the bits of |d| (order-preserving for
    non-negative doubles) shifted left, the sign in the lowest bit — gives
    ranks and signs together. Within a tie group of size g holding p positive
    values, the positives sort first; their raw positions then sum to
    p(g − p)/2 less than their average ranks, which is added back for the
    (rare) rows with ties.
    """
    rows = np.asarray(rows, dtype=float)
    k, n = rows.shape
    keys = np.abs(rows).view(np.uint64) << np.uint64(1)
    keys |= (rows < 0).view(np.uint8)
    keys.sort(axis=1)
    nonzero = keys != 0  # +0.0 and -0.0 both give the key 0, and sort first
    count = nonzero.sum(axis=1)
    positive = nonzero & ((keys & np.uint64(1)) == 0)
    zeros = n - count
    # 1-based rank among the non-zero values, before averaging over ties
    r_plus = (positive * np.arange(1, n + 1)).sum(axis=1) - positive.sum(axis=1) * zeros
    r_plus = r_plus.astype(float)
    tie_term = np.zeros(k)
    same = ((keys[:, 1:] ^ keys[:, :-1]) < 2) & nonzero[:, 1:]  # equal |d|, neither zero
    tied_rows = np.nonzero(same.any(axis=1))[0]
    for r in tied_rows:  # few rows for continuous scores; per row O(n)
        mag = keys[r] >> np.uint64(1)
        live = nonzero[r]
        starts = np.flatnonzero(np.concatenate(([True], mag[1:] != mag[:-1])))
        sizes = np.diff(np.append(starts, n))
        pos_counts = np.add.reduceat(positive[r].astype(np.int64), starts)
        keep = live[starts] & (sizes > 1)
        g, pc = sizes[keep].astype(float), pos_counts[keep].astype(float)
        r_plus[r] += (pc * (g - pc) / 2).sum()
        tie_term[r] = (g**3 - g).sum()
    untied = (count == n) & (tie_term == 0)
    return r_plus, count, tie_term, untied


def _signed_rank_pvalues(rows):
    """Two-sided Wilcoxon p-values of each row, as ``scipy.stats.wilcoxon(row)`` (method "auto")."""
    rows = np.asarray(rows, dtype=float)
    n = rows.shape[1]
    r_plus, count, tie_term, untied = _signed_rank_rows(rows)
    mean = count * (count + 1) / 4
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt((count * (count + 1) * (2 * count + 1) - tie_term / 2) / 24)
        z = (r_plus - mean) / se
    p = np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))
    if n <= WILCOXON_EXACT_MAX and untied.any():  # exact null distribution of W+ (no ties, no zeros)
        pmf = _signed_rank_pmf(n)
        cdf, sf = np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]
        w = np.rint(r_plus[untied]).astype(int)
        p[untied] = np.clip(2 * np.minimum(sf[w], cdf[w]), 0, 1)
    tied = np.nonzero(~untied & (count > 0))[0]
    if n <= 13 and tied.size:  # exact: all 2^n sign flips of the ranks (scipy's PermutationMethod)
        patterns = ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1).astype(float)  # 1: positive
        for block in np.array_split(tied, -(-tied.size // 500)):
            sub = rows[block]
            ranks = np.zeros(sub.shape)
            for i, row in enumerate(sub):
                nonzero = row != 0
                ranks[i, nonzero] = stats.rankdata(np.abs(row[nonzero]))
            observed = np.where(sub > 0, ranks, 0.0).sum(axis=1)
            null = patterns @ ranks.T  # W+ of every sign pattern (zeros have rank 0)
            tol = np.abs(observed) * np.finfo(float).eps * 100
            less = (null <= observed + tol).mean(axis=0)
            greater = (null >= observed - tol).mean(axis=0)
            p[block] = np.minimum(1.0, 2 * np.minimum(less, greater))
    p[count == 0] = 1.0
    return p


def _signed_rank_pmf(n):
    """Null distribution of W+ for n untied non-zero values: counts of subsets of {1..n} by sum / 2^n."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for j in range(1, n + 1):
        counts[j:] = counts[j:] + counts[:-j].copy()
    return counts / 2.0**n


def _sign_pvalues(pos, neg):
    """Two-sided exact sign-test p-values (scipy ``binomtest(pos, pos + neg)``), vectorized."""
    total = pos + neg
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(pos, neg), np.maximum(total, 1), 0.5))
    return np.where((total == 0) | (pos == neg), 1.0, p)


def bootstrap_power_curve(differences, *, sizes=None, test="t", alpha=0.05, n_iter=500, seed=None) -> pd.DataFrame:
    """Retrospective bootstrap power curve (NLPStatTest §3.4.2).

    Resamples ``m`` differences with replacement ``n_iter`` times for each size
    m and reports the share of significant tests. It describes *this sample*,
    treating its observed effect as the truth: it is not evidence about the
    true effect (Card et al. 2020, appendix A; post-hoc power).

    Parameters
    ----------
    differences : array_like
        At least 3 differences.
    sizes : sequence of int, optional
        Sample sizes (3 … 10 n); default: 10 sizes from max(3, n/10) to n.
    test : {"t", "wilcoxon", "sign"}, optional
    alpha : float, optional
    n_iter : int, optional
        Resamples per size.
    seed : int, optional

    Returns
    -------
    pandas.DataFrame
        ``n, power, mc_se, iterations, method``.

    Notes
    -----
    Cost is bounded whatever the sizes: the sign test draws the counts of
    positive, negative and zero differences of each resample from their exact
    multinomial distribution (O(1) per resample). The t and Wilcoxon tests
    draw resamples value by value, in chunks, while iterations × m is at most
    :data:`CURVE_WORK`; beyond that the t test draws each resample's sum and
    sum of squares from their bivariate normal limit (exact first two
    moments; ``method`` "normal limit") and the Wilcoxon test uses fewer
    iterations (at least 50; ``mc_se`` grows accordingly).
    """
    d = _differences(differences)
    test = check_choice("test", test, ("t", "wilcoxon", "sign"))
    alpha = check_alpha(alpha)
    n_iter = check_int("n_iter", n_iter, low=50, high=100_000)
    n = d.size
    if sizes is None:
        sizes = np.unique(np.linspace(max(3, n // 10), n, 10).astype(int))
    sizes = [check_int("sizes", m, low=3, high=10 * n) for m in np.atleast_1d(sizes).tolist()]
    if len(sizes) > 1000:
        raise ValueError(f"`sizes` may hold at most 1,000 sizes, got {len(sizes):,}.")
    rng = np.random.default_rng(seed)
    probs = np.array([np.mean(d > 0), np.mean(d < 0), np.mean(d == 0)])
    moments = [float(np.mean(d**k)) for k in (1, 2, 3, 4)]
    rows = []
    for m in sizes:
        iterations, method = n_iter, "resampling"
        if test == "sign":
            counts = rng.multinomial(m, probs / probs.sum(), size=n_iter)
            p = _sign_pvalues(counts[:, 0], counts[:, 1])
        elif test == "t" and m * n_iter > CURVE_WORK:
            p, method = _t_pvalues_normal_limit(moments, m, n_iter, rng), "normal limit"
        else:
            if m * n_iter > CURVE_WORK:
                iterations = max(50, CURVE_WORK // m)
            p = np.empty(iterations)
            chunk = max(1, _CHUNK // m)
            for start in range(0, iterations, chunk):
                stop = min(iterations, start + chunk)
                sample = d[rng.integers(0, n, size=(stop - start, m))]
                if test == "t":
                    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)  # resamples of identical values
                        p[start:stop] = stats.ttest_1samp(sample, 0.0, axis=1).pvalue
                else:  # normal approximation, as scipy's method="approx"
                    r_plus, count, tie_term, _ = _signed_rank_rows(sample)
                    with np.errstate(divide="ignore", invalid="ignore"):
                        se = np.sqrt((count * (count + 1) * (2 * count + 1) - tie_term / 2) / 24)
                        z = (r_plus - count * (count + 1) / 4) / se
                    p[start:stop] = 2 * stats.norm.sf(np.abs(z))
        power = float(np.mean(np.nan_to_num(p, nan=1.0) <= alpha))
        rows.append((int(m), power, math.sqrt(power * (1 - power) / iterations), int(iterations), method))
    return pd.DataFrame(rows, columns=["n", "power", "mc_se", "iterations", "method"])


def _t_pvalues_normal_limit(moments, m, size, rng):
    """t-test p-values of ``size`` resamples of m values, from the normal limit of (Σx, Σx²)."""
    m1, m2, m3, m4 = moments
    if not m2 - m1**2 > 0:  # constant differences: the t test has nothing to test against
        return np.ones(size)
    cov = np.array([[m2 - m1**2, m3 - m1 * m2], [m3 - m1 * m2, m4 - m2**2]]) * m
    # a tiny ridge keeps the factorization defined for degenerate (e.g. two-valued) data
    chol = np.linalg.cholesky(cov + np.eye(2) * 1e-300 + np.diag(np.abs(np.diag(cov))) * 1e-12)
    draws = np.array([m * m1, m * m2]) + rng.standard_normal((size, 2)) @ chol.T
    total, squares = draws[:, 0], draws[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        var = (squares - total**2 / m) / (m - 1)
        t = (total / m) / np.sqrt(var / m)
        p = 2 * stats.t.sf(np.abs(t), m - 1)
    return np.where(var > 0, p, 1.0)


# ---------------------------------------------------------------------------
# many systems
# ---------------------------------------------------------------------------
def pairwise_comparisons(systems: pd.DataFrame, *, test="t", alpha=0.05, seed=None, n_resamples=2000) -> pd.DataFrame:
    """All pairwise tests among K systems with Holm and Bonferroni corrections (NLPStatTest Figure 4).

    Parameters
    ----------
    systems : DataFrame
        One numeric column per system (2 … :data:`MAX_SYSTEMS`), at least 3 rows.
    test : {"t", "wilcoxon", "sign", "permutation", "bootstrap"}, optional
        Two-sided test applied to every pair.
    alpha : float, optional
    seed : int, optional
        Seed of the resampling tests (the same seed for every pair).
    n_resamples : int, optional
        Resamples per pair for the permutation and bootstrap tests (of the mean).

    Returns
    -------
    pandas.DataFrame
        ``system_a, system_b, mean_difference, p_value, p_holm, p_bonferroni,
        significant_holm, significant_bonferroni`` (statsmodels ``multipletests``).

    Raises
    ------
    ValueError
        For more than :data:`MAX_SYSTEMS` systems, non-finite values, a
        Wilcoxon test ranking more than :data:`PAIRWISE_RANK_WORK` differences
        (pairs × rows), or a permutation/bootstrap test whose work (pairs ×
        rows × resamples) exceeds :data:`PAIRWISE_WORK` — the message says
        what to reduce.

    Notes
    -----
    The t, sign and Wilcoxon tests run on all pairs at once, in chunks of
    pairs (the differences of one chunk take ≈ 32 MB): O(K² n) for t and sign,
    O(K² n log n) for Wilcoxon, each p-value equal to the one-pair test's
    (scipy ``ttest_rel``, ``binomtest``, ``wilcoxon``).
    """
    if not isinstance(systems, pd.DataFrame) or systems.shape[1] < 2:
        raise ValueError("`systems` must be a table with at least two system columns.")
    test = check_choice("test", test, ("t", "wilcoxon", "sign", "permutation", "bootstrap"))
    alpha = check_alpha(alpha)
    n_resamples = check_int("n_resamples", n_resamples, low=99, high=1_000_000)
    k = systems.shape[1]
    if k > MAX_SYSTEMS:
        raise ValueError(f"`systems` has {k:,} columns; at most {MAX_SYSTEMS} systems can be compared pairwise.")
    try:
        values = systems.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise ValueError("`systems` must hold numbers only.") from None
    n = values.shape[0]
    if n < 3:
        raise ValueError(f"At least 3 rows are needed; `systems` has {n}.")
    _check_values(values, "systems")
    names = list(systems.columns)
    first, second = np.triu_indices(k, 1)  # the order of itertools.combinations
    pairs = first.size
    if test in ("permutation", "bootstrap"):
        limit = PERMUTATION_WORK if test == "permutation" else BOOTSTRAP_WORK
        per_pair = n * n_resamples if n * n_resamples <= limit else n
        if pairs * per_pair > PAIRWISE_WORK:
            most = int((1 + math.sqrt(1 + 8 * PAIRWISE_WORK / per_pair)) / 2)
            raise ValueError(
                f"The {test} test on all {pairs:,} pairs of {k} systems × {n:,} rows × {n_resamples:,} resamples is "
                f"too much work ({pairs * per_pair:.2g} resampled values; at most {PAIRWISE_WORK:.2g}). Choose the t, "
                f"sign or Wilcoxon test, or compare at most {max(most, 2)} systems (or use fewer rows or resamples).")
    if test == "wilcoxon" and pairs * n > PAIRWISE_RANK_WORK:
        most = int((1 + math.sqrt(1 + 8 * PAIRWISE_RANK_WORK / n)) / 2)
        raise ValueError(
            f"The Wilcoxon test on all {pairs:,} pairs of {k} systems × {n:,} rows ranks {pairs * n:.2g} differences "
            f"(at most {PAIRWISE_RANK_WORK:.2g}). Choose the t or sign test, or compare at most {max(most, 2)} "
            "systems (or use fewer rows).")
    columns = np.ascontiguousarray(values.T)  # one row per system
    mean_diff = np.empty(pairs)
    p = np.empty(pairs)
    chunk = max(1, _CHUNK // n)

    def run(start):
        stop = min(pairs, start + chunk)
        diff = columns[first[start:stop]] - columns[second[start:stop]]
        mean_diff[start:stop] = diff.mean(axis=1)
        if test == "t":
            p[start:stop] = _t_pvalues_rows(diff)
        elif test == "sign":
            p[start:stop] = _sign_pvalues((diff > 0).sum(axis=1), (diff < 0).sum(axis=1))
        elif test == "wilcoxon":
            p[start:stop] = _signed_rank_pvalues(diff)
        else:
            for j, row in enumerate(diff):
                rng = np.random.default_rng(seed)
                if test == "permutation":
                    p[start + j] = _permutation_test(row, "mean", "two-sided", n_resamples, rng)[1]
                else:
                    p[start + j] = _bootstrap_test(row, "mean", "two-sided", n_resamples, rng, 1 - alpha)[1]

    starts = range(0, pairs, chunk)
    if test in ("t", "sign", "wilcoxon") and len(starts) > 1:
        # numpy releases the GIL in sorts and reductions: two threads use both cores
        with ThreadPoolExecutor(max_workers=_THREADS) as pool:
            list(pool.map(run, starts))
    else:
        for start in starts:
            run(start)
    table = pd.DataFrame({"system_a": [names[i] for i in first], "system_b": [names[i] for i in second],
                          "mean_difference": mean_diff, "p_value": p})
    table["p_holm"] = multipletests(table["p_value"], alpha=alpha, method="holm")[1]
    table["p_bonferroni"] = multipletests(table["p_value"], alpha=alpha, method="bonferroni")[1]
    table["significant_holm"] = table["p_holm"] <= alpha
    table["significant_bonferroni"] = table["p_bonferroni"] <= alpha
    return table


def _t_pvalues_rows(diff):
    """Two-sided paired t-test p-values of each row of differences (scipy ``ttest_rel``)."""
    n = diff.shape[1]
    mean = diff.mean(axis=1)
    sd = diff.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / math.sqrt(n))
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    # constant differences: no spread to test against (0 identical → 1; a constant shift → 0)
    return np.where(sd > 0, p, np.where(mean == 0, 1.0, 0.0))


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

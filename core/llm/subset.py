"""A random subset of a benchmark instead of the full run: how far from the full score, and the same winner?

m of the benchmark's N items are drawn at random without replacement (a seeded list, :func:`core.runnable.item_list`
— not the first m, which lm-evaluation-harness's ``--limit`` takes). The quantity of interest is the **full run's**
score, so the finite-population correction applies:

* :func:`subset_se` — SE of the subset accuracy around the full run's accuracy p:
  √(p(1 − p)/m · (N − m)/(N − 1)) (Cochran 1977, ch. 2–3: simple random sampling of a proportion, S² = N·p(1 − p)/(N − 1));
  :func:`subset_size` — the fewest m for ± a half-width.
* :func:`subset_agreement` — P(the subset picks the same winner as the full run) for two models with
  ``a_only`` items only A gets right and ``b_only`` only B gets right; a tie in the subset counts one half. The
  numbers of a_only and b_only items in the subset are multivariate hypergeometric; ``method="exact"`` sums it,
  ``"normal"`` approximates the difference by a normal with the hypergeometric mean and variance.
  :func:`subset_size_for_agreement` — the m for a target agreement.
* :func:`prediction_assisted_se` — the difference estimator (Cochran 1977, ch. 7; Särndal, Swensson & Wretman 1992,
  ch. 6): the mean prediction over all N items plus the mean residual on the subset, unbiased for the full run's
  accuracy whatever the predictor, with SE √(S²_r/m · (1 − m/N)) from the residuals. The predictor of model j's
  correctness on item i is the mean correctness of the other models on item i (leave one model out), so the SE is
  the honest one for a new model not in the matrix.
* :func:`subset_variance_bound` — what a prediction-assisted random subset can save at best (tinyBenchmarks, Polo
  et al. 2024, report point estimates without SEs): if items' probabilities of being right follow Beta(a, b) and
  were known exactly, the difference estimator's residual variance is E[p(1 − p)] = ab/((a + b)(a + b + 1)) against
  the total μ(1 − μ), a ratio (a + b)/(a + b + 1); sampling the items in strata of p with optimal (Neyman)
  allocation reaches E[√(p(1 − p))]²/μ(1 − μ). Model-based estimators (p-IRT: labelled items plus predicted ones)
  can go lower still, but only by trusting their model: their error is then a bias, not a variance.

References
----------
Cochran, W. G. (1977). *Sampling Techniques*, 3rd ed. Wiley — ch. 2–3 (finite-population correction), ch. 7 (difference
estimator).

Särndal, C.-E., Swensson, B. & Wretman, J. (1992). *Model Assisted Survey Sampling*, ch. 6 (the difference estimator).

Polo, F. M., Weber, L., Choshen, L., Sun, Y., Xu, G. & Yurochkin, M. (2024). "tinyBenchmarks: evaluating LLMs with
fewer examples." ICML (PMLR 235).

Miller, E. (2024). "Adding Error Bars to Evals." arXiv:2411.00640.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from core.sizing import smallest_reaching
from core.teaser import Teaser
from core.uploads import read_table
from core.validation import check_choice, check_int, check_real

__all__ = ["SUBSET_METHODS", "SubsetBound", "SubsetPrediction", "subset_se", "subset_size", "subset_agreement",
           "subset_size_for_agreement", "subset_curve", "prediction_assisted_se", "read_correctness",
           "subset_variance_bound", "subset_teaser"]

SUBSET_METHODS = ("exact", "normal")
MAX_ITEMS = 10_000_000


def _check(m, n_total):
    n_total = check_int("n_total", n_total, low=2, high=MAX_ITEMS)
    m = check_int("m", m, low=1, high=n_total)
    return m, n_total


def subset_se(m, n_total, accuracy) -> float:
    """SE of a random m-item subset's accuracy around the full N-item run's accuracy p.

    √(p(1 − p)/m · (N − m)/(N − 1)): sampling without replacement (Cochran 1977, ch. 2–3); 0 at m = N.

    Examples
    --------
    >>> round(subset_se(500, 5000, 0.7), 5)
    0.01944
    """
    m, n_total = _check(m, n_total)
    p = check_real("accuracy", accuracy, low=0.0, high=1.0)
    return math.sqrt(p * (1 - p) / m * (n_total - m) / (n_total - 1))


def subset_size(n_total, accuracy, halfwidth, *, confidence=0.95) -> int:
    """Fewest items m whose interval z·:func:`subset_se` is at most ± ``halfwidth``.

    From p(1 − p)/m·(N − m)/(N − 1) ≤ h²/z²: m ≥ N/(1 + r), r = h²(N − 1)/(z²·p(1 − p)).

    Examples
    --------
    >>> subset_size(5000, 0.7, 0.02)
    1438
    """
    n_total = check_int("n_total", n_total, low=2, high=MAX_ITEMS)
    p = check_real("accuracy", accuracy, low=0.0, high=1.0)
    h = check_real("halfwidth", halfwidth, low=0.0, high=1.0, low_open=True)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    var = p * (1 - p)
    if var == 0:
        return 1
    z = stats.norm.isf((1 - confidence) / 2)
    r = h**2 * (n_total - 1) / (z**2 * var)
    m = max(1, math.ceil(n_total / (1 + r) * (1 - 1e-12)))
    while m > 1 and z * subset_se(m - 1, n_total, p) <= h:  # guard against rounding at the boundary
        m -= 1
    while z * subset_se(m, n_total, p) > h * (1 + 1e-12):
        m += 1
    return m


def _check_counts(n_total, a_only, b_only):
    a = check_int("a_only", a_only, low=0, high=n_total)
    b = check_int("b_only", b_only, low=0, high=n_total)
    if a + b > n_total:
        raise ValueError(f"`a_only` + `b_only` must be at most `n_total` ({n_total:,}), got {a + b:,}.")
    if a == b:
        raise ValueError("`a_only` and `b_only` must differ: the full run needs a winner.")
    return a, b


def _agreement_exact(m, n, a, b):
    """Σ_x P(X = x)·[P(Y < x | x) + ½P(Y = x | x)] with A the full-run winner (a > b)."""
    if a == n:  # every item is one only A gets right: any subset picks A (and Y's population is empty)
        return 1.0
    # Hoeffding's bound holds for sampling without replacement (Hoeffding 1963, Theorem 4): P(|X − E X| ≥ 6√m) ≤ 2e^(−72),
    # so x outside that window carries no mass at double precision and the sum skips it (a window of ~12√m values).
    centre, reach = m * a / n, 6.0 * math.sqrt(m) + 2
    x = np.arange(max(0, m - (n - a), math.floor(centre - reach)), min(a, m, math.ceil(centre + reach)) + 1)
    px = stats.hypergeom.pmf(x, n, a, m)
    rest, draws = n - a, m - x  # given X = x: Y ~ Hypergeom(population n − a, b successes, m − x draws)
    below = stats.hypergeom.cdf(x - 1, rest, b, draws)
    equal = stats.hypergeom.pmf(x, rest, b, draws)
    return float(np.clip(np.sum(px * (below + 0.5 * equal)), 0.0, 1.0))


def _agreement_normal(m, n, a, b):
    pa, pb = a / n, b / n
    mean = m * (pa - pb)
    var = m * (n - m) / (n - 1) * (pa + pb - (pa - pb) ** 2)
    if var <= 0:
        return 1.0
    # P(D > 0) + ½P(D = 0) ≈ P(N(mean, var) > 0): the half-count of ties is the continuity correction at 0
    return float(stats.norm.cdf(mean / math.sqrt(var)))


def subset_agreement(m, *, n_total, a_only, b_only, method="exact") -> float:
    """P(a random m-item subset picks the same winner as the full N-item run); a subset tie counts one half.

    Parameters
    ----------
    m : int
        Items in the subset (drawn without replacement), 1 ≤ m ≤ N.
    n_total : int
        N, the full benchmark.
    a_only, b_only : int
        Items (counts) only model A / only model B gets right in the full run; they must differ.
    method : {"exact", "normal"}
        ``"exact"``: the multivariate hypergeometric sum over X (a_only items drawn) and Y (b_only items drawn),
        Σ_x P(X = x)[P(Y < x | X = x) + ½P(Y = x | X = x)] (for A the winner). ``"normal"``: Φ(E[D]/SD[D]) for
        D = X − Y with E[D] = m(a − b)/N and Var[D] = m(N − m)/(N − 1)·(p_a + p_b − (p_a − p_b)²).

    Examples
    --------
    >>> round(subset_agreement(200, n_total=2000, a_only=100, b_only=140), 4)
    0.8047
    """
    m, n_total = _check(m, n_total)
    a, b = _check_counts(n_total, a_only, b_only)
    check_choice("method", method, SUBSET_METHODS)
    if a < b:
        a, b = b, a
    return (_agreement_exact if method == "exact" else _agreement_normal)(m, n_total, a, b)


def subset_size_for_agreement(n_total, a_only, b_only, *, target_agreement=0.95, method="exact") -> int:
    """The m at which :func:`subset_agreement` first reaches ``target_agreement`` (bisection over 1..N).

    Agreement rises with m (to 1 at m = N); the exact sum may wobble by a hair between neighbouring m, so the answer
    is an m with agreement ≥ target whose predecessor is below it.

    Examples
    --------
    >>> subset_size_for_agreement(2000, 100, 140)
    577
    """
    n_total = check_int("n_total", n_total, low=2, high=MAX_ITEMS)
    a, b = _check_counts(n_total, a_only, b_only)
    target = check_real("target_agreement", target_agreement, low=0.5, high=1.0, high_open=True)
    check_choice("method", method, SUBSET_METHODS)

    def agree(m):
        return subset_agreement(m, n_total=n_total, a_only=a, b_only=b, method=method)

    if agree(1) >= target:
        return 1
    return smallest_reaching(lambda m: agree(m) >= target, 1, n_total)


def subset_curve(ms, *, n_total, accuracy, a_only=None, b_only=None, method="exact") -> pd.DataFrame:
    """The page's curves: tidy ``m, se`` (and ``agreement`` when a_only and b_only are given)."""
    if (a_only is None) != (b_only is None):
        raise ValueError("Give both `a_only` and `b_only` (items only A / only B gets right) for the agreement "
                         "curve, or neither.")
    if isinstance(ms, (str, bytes)) or np.ndim(ms) != 1:
        raise ValueError("`ms` must be a list of subset sizes.")
    rows = []
    for m in ms:
        m = check_int("m", m, low=1)
        row = {"m": m, "se": subset_se(m, n_total, accuracy)}
        if a_only is not None:
            row["agreement"] = subset_agreement(m, n_total=n_total, a_only=a_only, b_only=b_only, method=method)
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class SubsetPrediction:
    """The prediction-assisted (difference) estimator's SE per model (:func:`prediction_assisted_se`).

    Attributes
    ----------
    table : DataFrame
        One row per model: ``model, accuracy, se_subset`` (plain subset mean), ``se_assisted`` (difference
        estimator), ``variance_ratio`` (se_assisted² / se_subset²).
    variance_ratio : float
        Σ se_assisted² / Σ se_subset² over models: the share of the plain subset's variance left.
    items_factor : float
        The same, as the share of items the assisted estimator needs for the plain subset's SE (for m ≪ N).
    m, n_items, n_models : int
    """

    table: pd.DataFrame
    variance_ratio: float
    items_factor: float
    m: int
    n_items: int
    n_models: int


def prediction_assisted_se(correctness, m) -> SubsetPrediction:
    """SE of the difference estimator on a random m-item subset, from a models × items correctness matrix.

    For model j, the prediction of item i is the mean correctness of the **other** models on i (leave one model
    out); θ̂_j = mean_i p̂_ij (all N items) + mean_{i ∈ S}(y_ij − p̂_ij). Over random subsets S of size m without
    replacement, E[θ̂_j] = mean_i y_ij exactly (whatever the predictor) and Var = S²_r/m·(1 − m/N) with S²_r the
    variance (divisor N − 1) of the residuals y_ij − p̂_ij over all N items (Cochran 1977, ch. 7). The plain subset
    mean has S²_y in its place.

    Parameters
    ----------
    correctness : array_like or DataFrame
        Models × items, entries in [0, 1] (right/wrong, or a score); at least 2 models and 2 items. A DataFrame's
        index names the models.
    m : int
        Subset size, 1 ≤ m ≤ N.
    """
    names = list(correctness.index) if isinstance(correctness, pd.DataFrame) else None
    y = np.asarray(correctness, dtype=float)
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2:
        raise ValueError(f"`correctness` must be a models × items matrix with at least 2 models and 2 items, "
                         f"got shape {y.shape}.")
    if not np.all(np.isfinite(y)) or y.min() < 0 or y.max() > 1:
        raise ValueError("`correctness` must hold numbers in [0, 1] (1 = right).")
    k, n = y.shape
    m = check_int("m", m, low=1, high=n)
    pred = (y.sum(axis=0, keepdims=True) - y) / (k - 1)  # leave-one-model-out item means
    resid = y - pred
    fpc = (1 - m / n) / m
    s2_y = y.var(axis=1, ddof=1)
    s2_r = resid.var(axis=1, ddof=1)
    table = pd.DataFrame({"model": names if names is not None else [f"model {j + 1}" for j in range(k)],
                          "accuracy": y.mean(axis=1), "se_subset": np.sqrt(s2_y * fpc),
                          "se_assisted": np.sqrt(s2_r * fpc)})
    with np.errstate(divide="ignore", invalid="ignore"):
        table["variance_ratio"] = np.where(s2_y > 0, s2_r / np.where(s2_y > 0, s2_y, 1), np.nan)
    ratio = float(s2_r.sum() / s2_y.sum()) if s2_y.sum() > 0 else math.nan
    return SubsetPrediction(table, ratio, ratio, m, n, k)


def read_correctness(data, *, name="correctness.csv") -> pd.DataFrame:
    """A models × items correctness matrix from an upload (CSV/TSV through :mod:`core.uploads`).

    Accepted: a wide table with one row per model (a first text column names it) and one column per item; or a long
    table with columns ``model``, ``item``, ``score`` (aliases as for logs: ``question``, ``correct``, ``acc`` …),
    where several rows of one model and item (samples, repeated runs) are averaged into that item's score. Values
    must be numbers in [0, 1]; a malformed file gets a message naming the file and line.
    """
    table = read_table(data, name=name)
    cols = {str(c).strip().lower(): c for c in table.columns}
    long_roles = {"model": ("model", "system", "name"), "item": ("item", "question", "doc_id", "id"),
                  "score": ("score", "correct", "acc", "accuracy", "exact_match")}
    found = {role: next((cols[a] for a in aliases if a in cols), None) for role, aliases in long_roles.items()}
    if all(found.values()) and len(table.columns) <= 6:
        scores = pd.to_numeric(table[found["score"]], errors="coerce")
        bad = scores.isna().to_numpy().nonzero()[0]
        if bad.size:
            raise ValueError(f"{name}, line {bad[0] + 2}: `{found['score']}` is not a number.")
        wide = pd.DataFrame({"model": table[found["model"]].astype(str), "item": table[found["item"]].astype(str),
                             "score": scores}).pivot_table(index="model", columns="item", values="score",
                                                            aggfunc="mean")
        if wide.isna().any().any():
            raise ValueError(f"{name}: every model needs a score on every item (some model–item pairs are missing).")
    else:
        first = table.columns[0]
        body = table.set_index(first) if not pd.api.types.is_numeric_dtype(table[first]) else table
        wide = body.apply(pd.to_numeric, errors="coerce")
        bad = np.argwhere(wide.isna().to_numpy())
        if bad.size:
            r, c = bad[0]
            raise ValueError(f"{name}, line {r + 2}, column {wide.columns[c]!s}: not a number.")
        wide.index = [str(i) for i in wide.index]
    if wide.shape[0] < 2 or wide.shape[1] < 2:
        raise ValueError(f"{name}: need at least 2 models and 2 items, got {wide.shape[0]} × {wide.shape[1]}.")
    values = wide.to_numpy(dtype=float)
    if values.min() < 0 or values.max() > 1:
        raise ValueError(f"{name}: scores must be in [0, 1] (1 = right).")
    return wide


@dataclass(frozen=True)
class SubsetBound:
    """The best design-based subsets can do when p_i ~ Beta(a, b) is known for every item.

    ``residual_variance`` = E[p(1 − p)] = ab/((a + b)(a + b + 1)); ``total_variance`` = μ(1 − μ);
    ``variance_ratio`` = (a + b)/(a + b + 1), the share of the plain subset's variance the difference estimator
    with a perfect predictor leaves on a random subset, hence of its items needed for the same SE; ``se_ratio`` its
    square root; ``stratified_ratio`` = E[√(p(1 − p))]²/μ(1 − μ) = (B(a + ½, b + ½)/B(a, b))²/μ(1 − μ), the share
    left by strata of p with Neyman allocation (Cochran 1977, §5.5: n_h ∝ N_h S_h), which is lower.
    """

    residual_variance: float
    total_variance: float
    variance_ratio: float
    se_ratio: float
    stratified_ratio: float = math.nan


def subset_variance_bound(a, b) -> SubsetBound:
    """The smallest variance factors of design-based subsets when item probabilities follow Beta(a, b).

    A right/wrong item with probability p has Var(Y) = μ(1 − μ) = E[p(1 − p)] + Var(p). Knowing every p_i exactly
    (the ideal IRT fit), the difference estimator on a random subset removes Var(p) and leaves E[p(1 − p)] =
    ab/((a + b)(a + b + 1)): the ratio is (a + b)/(a + b + 1). Stratifying on p with Neyman allocation leaves
    E[√(p(1 − p))]²/μ(1 − μ) (Cochran 1977, eq. 5.26 with S_h² = p_h(1 − p_h) in fine strata), with
    E[√(p(1 − p))] = B(a + ½, b + ½)/B(a, b). Both estimators stay unbiased whatever the predictor; a model-based
    one (tinyBenchmarks' p-IRT) can go lower only by trusting its model.

    Examples
    --------
    >>> subset_variance_bound(1, 1).variance_ratio
    0.6666666666666666
    >>> round(subset_variance_bound(2, 1).stratified_ratio, 3)  # below the difference estimator's 0.75
    0.694
    """
    a = check_real("a", a, low=0.0, high=1e6, low_open=True)
    b = check_real("b", b, low=0.0, high=1e6, low_open=True)
    mu = a / (a + b)
    resid = a * b / ((a + b) * (a + b + 1))
    total = mu * (1 - mu)
    ratio = (a + b) / (a + b + 1)
    mean_sd = math.exp(special.betaln(a + 0.5, b + 0.5) - special.betaln(a, b))
    return SubsetBound(resid, total, ratio, math.sqrt(ratio), min(mean_sd**2 / total, ratio))


def subset_teaser(*, m=500, n_total=5000, accuracy=0.7):
    """Home card: a 500-item subset of a 5,000-item benchmark, ± of the full run's score (the tab's defaults).

    Examples
    --------
    >>> subset_teaser().shown
    '±3.8 pts'
    """
    se = subset_se(m, n_total, accuracy)
    hw = 1.959963984540054 * se
    return Teaser("llm", f"A random {m:,} of {n_total:,} benchmark items: within ±{100 * hw:.1f} points of the full "
                  f"run (95%).", "95% of full run", hw, f"±{100 * hw:.1f} pts")

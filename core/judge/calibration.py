"""Calibration uploads: a judge's correlation, sensitivity/specificity and bias from human-labelled items."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from core import uploads
from core.validation import check_int, rng_of

__all__ = ["JudgeFit", "read_calibration", "fit_judge", "sample_calibration", "SAMPLE_FILE"]

SAMPLE_FILE = Path(__file__).resolve().parents[1] / "data" / "judge_sample" / "calibration.csv"


# ---------------------------------------------------------------------------
# calibration uploads
# ---------------------------------------------------------------------------
_ALIASES = {
    "item": ("item", "item_id", "id", "question", "question_id", "doc_id", "example", "example_id"),
    "human": ("human", "human_label", "human_score", "gold", "gold_label", "label", "reference", "annotation"),
    "judge": ("judge", "judge_label", "judge_score", "llm", "llm_judge", "llm_label", "prediction", "pred", "auto"),
    "model": ("model", "model_name", "system"),
}
_TRUE, _FALSE = frozenset({"true", "yes", "correct", "pass"}), frozenset({"false", "no", "incorrect", "fail"})
_MAX_ROWS = 1_000_000


def _find_columns(columns, name):
    return uploads.find_columns(columns, _ALIASES, ("item", "human", "judge"), name=name)


def _numbers(cells: pd.Series, column: str, name: str) -> np.ndarray:
    text = cells.astype(str).str.strip()
    values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, copy=True)
    words = np.flatnonzero(np.isnan(values))
    if len(words):
        lower = text.iloc[words].str.lower()
        values[words[lower.isin(_TRUE).to_numpy()]] = 1.0
        values[words[lower.isin(_FALSE).to_numpy()]] = 0.0
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name}, row {i + 1:,} after the header: `{column}` must be a number or true/false, got "
                         f"{cells.iloc[i]!r}.")
    return values


def _tidy(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    roles = _find_columns(list(frame.columns), name)
    if len(frame) == 0:
        raise ValueError(f"{name} has no rows.")
    out = {"item": frame[roles["item"]].astype(str).str.strip().to_numpy()}
    if "model" in roles:
        out["model"] = frame[roles["model"]].astype(str).str.strip().to_numpy()
    for role in ("human", "judge"):
        out[role] = _numbers(frame[roles[role]], roles[role], name)
    tidy = pd.DataFrame(out)
    keys = ["item", "model"] if "model" in tidy.columns else ["item"]
    dup = tidy.duplicated(keys, keep="first").to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        what = f"item {tidy['item'].iloc[i]!r}" + (f", model {tidy['model'].iloc[i]!r}" if "model" in tidy else "")
        raise ValueError(f"{name}: {what} appears twice (row {i + 1:,} after the header); give one row each.")
    return tidy


def read_calibration(data, *, name: str = "The calibration file") -> pd.DataFrame:
    """Read a calibration upload (CSV/TSV with a header), defensively, via :mod:`core.uploads`.

    Parameters
    ----------
    data : bytes
        Columns (case-insensitive): ``item``, ``human``, ``judge``, optional
        ``model``. Also accepted: item_id/id/question/question_id/doc_id/
        example/example_id; human_label/human_score/gold/gold_label/label/
        reference/annotation; judge_label/judge_score/llm/llm_judge/llm_label/
        prediction/pred/auto; model_name/system. Labels are numbers (0/1 or
        scores) or true/false/yes/no.
    name : str, optional
        How messages call the file.

    Returns
    -------
    pandas.DataFrame
        ``item, [model,] human, judge`` (floats for the labels).

    Raises
    ------
    ValueError
        Unreadable file (see :func:`core.uploads.read_table`), missing columns,
        a label that is not a number, a repeated item (per model).
    """
    table = uploads.read_table(data, name=name, min_columns=3, header="yes", max_rows=_MAX_ROWS)
    return _tidy(table, name)


@dataclass(frozen=True)
class JudgeFit:
    """Judge–human agreement estimated from calibration items, with bootstrap SEs.

    Attributes
    ----------
    n_items : int
        Items used (items with both models when ``paired``).
    paired : bool
        True when the file had two models: the estimates are of D = human_A −
        human_B and g = judge_A − judge_B (``sd``, ``correlation``, ``mean_bias``).
    binary : bool
        True when every human and judge label is 0 or 1.
    models : tuple of str
        The two models (paired files), else ``()``.
    sd, correlation, mean_bias : float
        SD of the human label (of D), Pearson corr(human, judge) (corr(D, g)),
        mean(judge − human) (mean(g − D)).
    sensitivity, specificity, prevalence : float
        P(judge 1 | human 1), P(judge 0 | human 0), mean human label over all
        rows (``nan`` unless ``binary``).
    sd_judge : float
        SD of the judge label (of g).
    sd_se, correlation_se, mean_bias_se, sensitivity_se, specificity_se, prevalence_se : float
        Bootstrap SEs (resampling items).
    n_boot : int
        Bootstrap replicates.
    """

    n_items: int
    paired: bool
    binary: bool
    models: tuple
    sd: float
    correlation: float
    mean_bias: float
    sensitivity: float
    specificity: float
    prevalence: float
    sd_judge: float
    sd_se: float
    correlation_se: float
    mean_bias_se: float
    sensitivity_se: float
    specificity_se: float
    prevalence_se: float
    n_boot: int


def _stats(h, g, w):
    """Weighted (bootstrap-count) statistics; rows of ``w`` are replicates. h, g: (n,) or (n, 2)."""
    tot = w.sum(axis=1)
    if h.ndim == 2:
        d, e = h[:, 0] - h[:, 1], g[:, 0] - g[:, 1]
    else:
        d, e = h, g
    md, me = w @ d / tot, w @ e / tot
    vd = w @ d**2 / tot - md**2
    ve = w @ e**2 / tot - me**2
    cov = w @ (d * e) / tot - md * me
    with np.errstate(divide="ignore", invalid="ignore"):
        corr = cov / np.sqrt(vd * ve)
    k = tot / np.maximum(tot - 1, 1)  # n − 1 divisor
    out = {"sd": np.sqrt(np.maximum(vd * k, 0)), "sd_judge": np.sqrt(np.maximum(ve * k, 0)), "correlation": corr,
           "mean_bias": me - md}
    hh, gg = (h, g) if h.ndim == 1 else (h.ravel(), g.ravel())
    ww = w if h.ndim == 1 else np.repeat(w, 2, axis=1)
    pos = ww @ hh
    neg = ww @ (1 - hh)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["sensitivity"] = ww @ (hh * gg) / pos
        out["specificity"] = ww @ ((1 - hh) * (1 - gg)) / neg
    out["prevalence"] = pos / ww.sum(axis=1)
    return out


#: Up to this many items the bootstrap reweights every item (as it always has); beyond, it resamples the distinct
#: label rows with multinomial counts, which is the same distribution (items with equal labels are exchangeable).
_ITEMWISE_MAX = 50_000
#: Beyond this many distinct label rows the replicates come from the bootstrap's normal limit (below).
_DISTINCT_MAX = 200_000


def _features(h, g):
    """Per-item terms whose sums give every statistic of :func:`_stats` (columns: items, Σd, Σe, Σd², Σe², Σde,
    positives, negatives, true positives, true negatives, labels)."""
    if h.ndim == 2:
        d, e = h[:, 0] - h[:, 1], g[:, 0] - g[:, 1]
        pos, labels = h.sum(axis=1), np.full(len(h), 2.0)
        tp, tn = (h * g).sum(axis=1), ((1 - h) * (1 - g)).sum(axis=1)
    else:
        d, e = h, g
        pos, labels = h, np.ones(len(h))
        tp, tn = h * g, (1 - h) * (1 - g)
    return np.column_stack([np.ones(len(d)), d, e, d * d, e * e, d * e, pos, labels - pos, tp, tn, labels])


def _stats_from_sums(sums):
    """The statistics of :func:`_stats` from weighted sums of :func:`_features` (rows: replicates)."""
    tot, sd_, se_, sdd, see, sde, pos, neg, tp, tn, labels = sums.T
    md, me = sd_ / tot, se_ / tot
    vd, ve = sdd / tot - md**2, see / tot - me**2
    cov = sde / tot - md * me
    with np.errstate(divide="ignore", invalid="ignore"):
        corr = cov / np.sqrt(vd * ve)
        sens, spec = tp / pos, tn / neg
    k = tot / np.maximum(tot - 1, 1)
    return {"sd": np.sqrt(np.maximum(vd * k, 0)), "sd_judge": np.sqrt(np.maximum(ve * k, 0)), "correlation": corr,
            "mean_bias": me - md, "sensitivity": sens, "specificity": spec, "prevalence": pos / labels}


def _bootstrap(h, g, n_boot, rng):
    """Bootstrap replicates of :func:`_stats`, resampling items.

    Up to :data:`_ITEMWISE_MAX` items every item gets a multinomial count. Beyond, items with the same labels are
    merged and the distinct rows drawn with multinomial counts in proportion to their frequencies — the same
    distribution at a cost that grows with the distinct rows, not the items (binary labels: at most 4 or 16 rows).
    With more than :data:`_DISTINCT_MAX` distinct rows (continuous scores on a very large set) the sums are drawn
    from the bootstrap's normal limit: the mean feature vector with its exact bootstrap covariance (the items'
    covariance / n; Efron & Tibshirani 1993, §5.2 and §21.3), where n > 50,000 items make the two agree.
    """
    n = len(h)
    if n <= _ITEMWISE_MAX:
        reps = []
        chunk = max(1, min(n_boot, 2_000_000 // n))
        done = 0
        while done < n_boot:
            b = min(chunk, n_boot - done)
            w = rng.multinomial(n, np.full(n, 1.0 / n), size=b).astype(float)
            reps.append(_stats(h, g, w))
            done += b
        return {k: np.concatenate([r[k] for r in reps]) for k in reps[0]}
    labels = np.column_stack([h.reshape(n, -1), g.reshape(n, -1)])
    codes = [np.unique(col, return_inverse=True) for col in labels.T]
    sizes = [len(values) for values, _ in codes]
    if math.prod(sizes) < 2**62:  # one integer key per distinct label row (mixed radix)
        key = np.zeros(n, dtype=np.int64)
        for size, (_, inverse) in zip(sizes, codes):
            key = key * size + inverse
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
    else:
        first, counts = np.arange(n), np.ones(n, dtype=np.int64)
    if len(first) <= _DISTINCT_MAX:
        rows = _features(h[first], g[first])
        sums = []
        chunk = max(1, min(n_boot, 2_000_000 // len(rows)))
        done = 0
        while done < n_boot:
            b = min(chunk, n_boot - done)
            w = rng.multinomial(n, counts / n, size=b).astype(float)
            sums.append(w @ rows)
            done += b
        return _stats_from_sums(np.concatenate(sums))
    feats = _features(h, g)
    mean = feats.mean(axis=0)
    cov = np.cov(feats, rowvar=False, bias=True) / n
    draws = rng.multivariate_normal(mean, cov, size=n_boot, method="eigh")
    draws[:, 0] = 1.0  # the item count is fixed: every replicate has n items
    return _stats_from_sums(n * draws)


def fit_judge(df, *, n_boot: int = 500, seed=0) -> JudgeFit:
    """Estimate the judge's correlation, Se/Sp and bias from calibration items.

    Parameters
    ----------
    df : pandas.DataFrame or bytes
        Calibration items: columns ``item``, ``human``, ``judge``, optional
        ``model`` (common alternative names accepted, see
        :func:`read_calibration`); bytes are read with :func:`read_calibration`.
        Without ``model`` each row is one item. With exactly two models the
        items both models have form a paired comparison.
    n_boot : int, optional
        Bootstrap replicates (100 … 10,000), resampling items.
    seed : int, optional
        Seed of the bootstrap.

    Returns
    -------
    JudgeFit

    Raises
    ------
    ValueError
        Fewer than 3 items, a constant human or judge label, or a ``model``
        column with other than two models (or no item with both).
    """
    if isinstance(df, (bytes, bytearray, memoryview)):
        df = read_calibration(bytes(df))
    elif not isinstance(df, pd.DataFrame):
        raise ValueError("`df` must be a table (pandas.DataFrame) or the file's bytes.")
    else:
        df = _tidy(df, "The calibration table")
    n_boot = check_int("n_boot", n_boot, low=100, high=10_000)
    models: tuple = ()
    if "model" in df.columns:
        models = tuple(pd.unique(df["model"]))
        if len(models) != 2:
            raise ValueError(f"The calibration table has {len(models)} model(s) in `model`; give exactly two "
                             "(a paired comparison) or drop the column.")
        wide = df.pivot(index="item", columns="model", values=["human", "judge"]).dropna()
        if len(wide) == 0:
            raise ValueError("No item has labels for both models.")
        h = wide["human"][list(models)].to_numpy(float)
        g = wide["judge"][list(models)].to_numpy(float)
    else:
        h, g = df["human"].to_numpy(float), df["judge"].to_numpy(float)
    n = len(h)
    if n < 3:
        raise ValueError(f"The calibration table has {n} usable item(s); at least 3 are needed.")
    binary = bool(np.isin(h, (0.0, 1.0)).all() and np.isin(g, (0.0, 1.0)).all())
    point = {k: float(v[0]) for k, v in _stats(h, g, np.ones((1, n))).items()}
    if not (point["sd"] > 0 and point["sd_judge"] > 0):
        raise ValueError("The human or the judge labels are all the same: the correlation is undefined.")
    boot = _bootstrap(h, g, n_boot, rng_of(seed))

    def sd_of(key):
        v = boot[key]
        v = v[np.isfinite(v)]
        return float(np.std(v, ddof=1)) if len(v) > 1 else math.nan

    nan = math.nan
    return JudgeFit(
        n_items=n, paired=bool(models), binary=binary, models=models, sd=point["sd"],
        correlation=point["correlation"], mean_bias=point["mean_bias"],
        sensitivity=point["sensitivity"] if binary else nan, specificity=point["specificity"] if binary else nan,
        prevalence=point["prevalence"] if binary else nan, sd_judge=point["sd_judge"], sd_se=sd_of("sd"),
        correlation_se=sd_of("correlation"), mean_bias_se=sd_of("mean_bias"),
        sensitivity_se=sd_of("sensitivity") if binary else nan,
        specificity_se=sd_of("specificity") if binary else nan,
        prevalence_se=sd_of("prevalence") if binary else nan, n_boot=n_boot)


def sample_calibration() -> pd.DataFrame:
    """The shipped synthetic calibration file (``core/data/judge_sample/calibration.csv``), read like an upload."""
    return read_calibration(SAMPLE_FILE.read_bytes(), name=f"`{SAMPLE_FILE.name}`")

"""Pilot data: reading a pilot's ratings and fitting the five variance components (REML or moments)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..validation import check_choice
from ._model import _SIGMAS, _dfs, _objective, _stats_from_cells, fit_balanced

# ---------------------------------------------------------------------------
# pilot data
# ---------------------------------------------------------------------------
#: Most ratings accepted in a pilot file.
MAX_PILOT_RATINGS = 200_000
#: Largest accepted |rating| (any Likert or slider scale is far below).
MAX_ABS_RATING = 1e12
PILOT_METHODS = ("auto", "reml", "moments")


@dataclass(frozen=True)
class PilotFit:
    """Variance components and effect fitted to pilot ratings (:func:`fit_pilot`).

    Attributes
    ----------
    effect, baseline : float
        β1 of the ±1-coded system (the second system in sorted order is +1)
        and β0, on the [0, 1]-rescaled ratings.
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        The five standard deviations, keyed as :func:`likert_power`'s arguments.
    n_ratings, workers, items : int
        Size of the pilot.
    systems : tuple of str
        The two systems, in the order coded -1, +1.
    method : str
        ``"reml"`` (fully crossed, balanced pilot: exact REML from sufficient
        statistics) or ``"moments"`` (any other layout: pairwise-difference
        moment equations).
    effect_se : float
        Standard error of ``effect`` implied by the fitted components.
    """

    effect: float
    baseline: float
    sigma_w0: float
    sigma_w1: float
    sigma_i0: float
    sigma_i1: float
    sigma: float
    n_ratings: int
    workers: int
    items: int
    systems: tuple
    method: str = "reml"
    effect_se: float = math.nan

    @property
    def sigmas(self) -> dict:
        """The five SDs as keyword arguments of :func:`likert_power`."""
        return {k: getattr(self, k) for k in _SIGMAS}


def _pilot_labels(values, column):
    """A label column as strings; a missing label is an error naming the data row."""
    labels = pd.Series(values).astype(object)
    missing = labels.isna().to_numpy() | labels.astype(str).str.strip().isin(
        ["", "NA", "NaN", "nan", "N/A", "null", "None"]).to_numpy()
    if missing.any():
        raise ValueError(f"Data row {int(np.argmax(missing)) + 1:,}: the {column} is missing.")
    return labels.astype(str).str.strip().to_numpy()


def _pilot_ratings(values):
    """Ratings as finite floats of at most MAX_ABS_RATING; the message names the first bad data row."""
    raw = pd.Series(values)
    numbers = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(numbers) & ~raw.astype(str).str.strip().str.lower().isin(["nan"]).to_numpy()
    nan_text = np.isnan(numbers) & ~bad
    if bad.any() or nan_text.any():
        first = int(np.argmax(bad | nan_text))
        count = int((bad | nan_text).sum())
        raise ValueError(f"{count:,} ratings are missing or not numbers (first at data row {first + 1:,}: "
                         f"{str(raw.iloc[first])[:30]!r}).")
    infinite = ~np.isfinite(numbers)
    if infinite.any():
        first = int(np.argmax(infinite))
        raise ValueError(f"Data row {first + 1:,}: the rating {str(raw.iloc[first])[:30]!r} is not a finite number.")
    huge = np.abs(numbers) > MAX_ABS_RATING
    if huge.any():
        first = int(np.argmax(huge))
        raise ValueError(f"Data row {first + 1:,}: the rating {str(raw.iloc[first])[:30]!r} is too large (at most "
                         f"{MAX_ABS_RATING:g} in absolute value).")
    return numbers


PILOT_ROLES = ("worker", "item", "system", "rating")


def read_pilot(data, *, columns=None, header="auto", name="The pilot file") -> pd.DataFrame:
    """Pilot ratings from an upload, as the table :func:`fit_pilot` takes (columns worker, item, system, rating).

    Parameters
    ----------
    data : bytes
        CSV, TSV, semicolon- or space-separated text (:func:`core.uploads.read_table`).
    columns : dict, optional
        Role → column name for ``worker``, ``item``, ``system`` and
        ``rating``. Without it, columns so named are used, else names
        guessed from the usual ones (:data:`core.uploads.ALIASES`: Appraise
        ``username``/``itemId``/``score``, MTurk ``WorkerId``, WMT ``SYS``/
        ``SID``/``Z.SCR``, …).
    header : {"auto", "yes", "no"}, optional
        ``"no"``: the first row is data (headerless exports).

    Raises
    ------
    ValueError
        As :func:`core.uploads.read_table`; when the roles cannot all be found
        (the message names the missing roles and lists the file's columns, so
        the page can ask for them).
    """
    from .. import uploads

    if columns is not None and (not isinstance(columns, dict) or set(columns) - set(PILOT_ROLES)
                                or not all(isinstance(v, str) for v in columns.values())):
        raise ValueError("`columns` must map worker, item, system and rating to column names, e.g. "
                         "{'worker': 'WorkerId', 'item': 'Input.id', 'system': 'Input.system', "
                         "'rating': 'Answer.score'}.")
    table = uploads.read_table(data, name=name, min_columns=4 if columns is None else 2, header=header)
    if columns is None:
        lowered = {str(c).strip().lower(): c for c in table.columns}
        if set(PILOT_ROLES) <= set(lowered):
            return table
        columns = uploads.guess_columns(table.columns, PILOT_ROLES)
        missing = [r for r in PILOT_ROLES if r not in columns]
        if missing:
            found = ", ".join(str(c) for c in table.columns[:12])
            raise ValueError(f"{name} needs columns for worker, item, system and rating; cannot tell which column "
                             f"is the {', '.join(missing)} (its columns are: {found}). Choose them.")
    return uploads.map_columns(table, dict(columns), name=name)


def fit_pilot(df: pd.DataFrame, *, method="auto", systems=None) -> PilotFit:
    """Fit the crossed model to pilot ratings and return slider values.

    Parameters
    ----------
    df : DataFrame
        Columns ``worker``, ``item``, ``system`` (two distinct values) and
        ``rating`` (any numeric scale; rescaled to [0, 1] by its observed
        minimum and maximum), one row per rating, at most
        :data:`MAX_PILOT_RATINGS` rows.
    method : {"auto", "reml", "moments"}, optional
        ``"auto"``: REML when every worker rated every item once under each
        system (the design of Card et al.), the moment estimator otherwise.
    systems : (str, str), optional
        The two systems to compare when the pilot rated more (e.g. 15 systems
        of a WMT campaign): only their ratings are fitted, the first coded
        -1, the second +1 (:func:`core.humaneval.default_pair` suggests the
        closest pair at the top). Without it the pilot must hold exactly two
        systems, coded in sorted order.

    Returns
    -------
    PilotFit
        ``effect`` (β1 of the ±1-coded system, second system = +1), ``baseline``
        and the five SDs, keyed as :func:`likert_power`'s arguments, plus
        ``n_ratings``, ``workers``, ``items``, ``systems``, ``method`` and
        ``effect_se`` (counts of the two compared systems' ratings).

    Raises
    ------
    ValueError
        For a missing column, a missing label, a rating that is not a finite
        number or exceeds :data:`MAX_ABS_RATING`, not exactly two systems
        (without ``systems``), ``systems`` not naming two systems of the pilot,
        fewer than 2 workers or items, too many ratings, constant ratings, or
        a pilot the model cannot be fitted to. Nothing else is raised.

    Notes
    -----
    Model (Card et al. 2020, appendix H.3): ``y = β0 + β1 x + W0_w + W1_w x +
    I0_i + I1_i x + e`` with x = ±1 and independent normal effects. Cost is
    O(N log N) time and O(N) memory in the number of ratings N.

    * ``"reml"`` (balanced, fully crossed): per worker × item cell the
      difference D = y₊ − y₋ and the sum S = y₊ + y₋ are independent balanced
      two-way layouts, so REML depends on the data only through six sums of
      squares; :func:`fit_balanced` maximizes it (variance components
      bounded at zero, as lme4 and statsmodels do). This is the same optimum
      as statsmodels ``MixedLM`` (REML) on the full data.
    * ``"moments"`` (any layout: crowdsourced pilots where each item is rated
      by a few workers, unpaired ratings, repeated ratings): half the mean
      squared difference of two ratings has expectation
      ``2β1²[x ≠ x'] + σ² + (σ_w0² + σ_w1², or 2σ_w1²[x ≠ x'] for the same
      worker) + (the same for items)``. The sums over all pairs that share a
      worker, an item, a system — and the 8 combinations — follow from grouped
      sums in O(N) (Gao & Owen 2017); Möbius inversion gives each class of
      pairs, and non-negative least squares (each equation weighted by its
      approximate inverse standard error, √min(pairs, N) / value) solves the
      up to 8 equations for β1², σ² and the four components. β0, β1 are
      the ordinary least-squares estimates (unbiased whatever the layout;
      equal to GLS for balanced data); ``effect_se`` is the exact standard
      error of that β1 under the fitted components.
      Assumes the rating pattern does not depend on the ratings (missing at
      random) and enough overlap: at least two workers per item or two items
      per worker for the corresponding components.

    References
    ----------
    Card et al. (2020), appendix H.3; Gao, K. & Owen, A. B. (2017),
    "Efficient moment calculations for variance components in large
    unbalanced crossed random effects models", Electron. J. Statist.
    11:1235–1296; Henderson, C. R. (1953), Biometrics 9:226–252.
    """
    method = check_choice("method", method, PILOT_METHODS)
    required = ("worker", "item", "system", "rating")
    if not isinstance(df, pd.DataFrame):
        raise ValueError("`df` must be a table with columns worker, item, system, rating.")
    columns = {str(c).lower().strip(): c for c in df.columns}
    missing = set(required) - set(columns)
    if missing:
        raise ValueError(f"The pilot file needs columns worker, item, system, rating; missing: {', '.join(sorted(missing))}.")
    if systems is not None:
        df, systems = _two_systems(df, columns["system"], systems)
    if len(df) > MAX_PILOT_RATINGS:
        raise ValueError(f"The pilot has {len(df):,} ratings; at most {MAX_PILOT_RATINGS:,} are supported (use a "
                         "sample).")
    rating = _pilot_ratings(df[columns["rating"]].to_numpy())
    worker = _pilot_labels(df[columns["worker"]].to_numpy(), "worker")
    item = _pilot_labels(df[columns["item"]].to_numpy(), "item")
    system = _pilot_labels(df[columns["system"]].to_numpy(), "system")
    if systems is None:
        systems = sorted(set(system))
        if len(systems) != 2:
            raise ValueError(f"The pilot must compare exactly 2 systems; found {len(systems)}. Choose two with "
                             "`systems=(a, b)`.")
    w_codes, w_names = pd.factorize(worker)
    i_codes, i_names = pd.factorize(item)
    if len(w_names) < 2 or len(i_names) < 2:
        raise ValueError("The pilot needs at least 2 workers and 2 items.")
    low, high = float(rating.min()), float(rating.max())
    if not high > low:
        raise ValueError("All ratings are equal: nothing to estimate.")
    y = (rating - low) / (high - low)
    x = np.where(system == systems[1], 1.0, -1.0)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            balanced = _balanced_cells(w_codes, i_codes, x, len(w_names), len(i_names))
            if method == "reml" and balanced is None:
                raise ValueError("`method` 'reml' needs a fully crossed pilot: every worker rates every item once "
                                 "under each system.")
            if method != "moments" and balanced is not None:
                fit = _fit_pilot_reml(y, balanced, len(w_names), len(i_names))
            else:
                fit = _fit_pilot_moments(y, x, w_codes, i_codes)
    except ValueError:
        raise
    except (ArithmeticError, np.linalg.LinAlgError, MemoryError, IndexError, TypeError) as err:
        raise ValueError(f"The variance components could not be estimated from this pilot ({type(err).__name__}).") \
            from None
    values = [fit[k] for k in ("effect", "baseline", *_SIGMAS, "effect_se")]
    if not all(math.isfinite(v) for v in values):
        raise ValueError("The variance components could not be estimated from this pilot (non-finite result).")
    return PilotFit(**{k: float(fit[k]) for k in ("effect", "baseline", *_SIGMAS)}, n_ratings=int(len(y)),
                    workers=int(len(w_names)), items=int(len(i_names)), systems=tuple(systems),
                    method=fit["method"], effect_se=float(fit["effect_se"]))


def _two_systems(df, column, systems):
    """The rows of the two chosen systems and their names (labels compared as stripped strings)."""
    if isinstance(systems, str) or not hasattr(systems, "__len__") or len(systems) != 2:
        raise ValueError(f"`systems` must be two system names (a, b), got {str(systems)[:60]!r}.")
    chosen = [str(s).strip() for s in systems]
    if chosen[0] == chosen[1]:
        raise ValueError(f"`systems` must name two different systems, got {chosen[0][:40]!r} twice.")
    labels = df[column].astype(str).str.strip()
    present = set(labels.unique())
    absent = [s for s in chosen if s not in present]
    if absent:
        shown = ", ".join(sorted(present)[:10])
        raise ValueError(f"`systems`: the pilot has no ratings of {absent[0][:40]!r}; its systems are {shown}.")
    rows = df[labels.isin(chosen).to_numpy()].copy()
    rows[column] = labels[labels.isin(chosen)].to_numpy()
    return rows, tuple(chosen)


def _balanced_cells(w, i, x, workers, items):
    """Row order (W × I × 2, system −1 then +1) of a fully crossed pilot with one rating per cell, or None."""
    n = w.size
    if n != 2 * workers * items:
        return None
    key = (w.astype(np.int64) * items + i) * 2 + (x > 0)
    if np.unique(key).size != n:
        return None
    order = np.empty(n, dtype=np.int64)
    order[key] = np.arange(n)
    return order


def _fit_pilot_reml(y, order, workers, items):
    """REML of the balanced crossed model from its six sums of squares (:func:`fit_balanced`)."""
    cells = y[order].reshape(workers, items, 2)
    d = (cells[:, :, 1] - cells[:, :, 0])[None]
    s = (cells[:, :, 1] + cells[:, :, 0])[None]
    st = _stats_from_cells(d, s)
    fit = fit_balanced(st, workers, items, ml=False)
    lam_e = float(fit["s"][0])
    _, parts = _objective(fit["s"], st, _dfs(workers, items), False)
    a_s, b_s = float(parts["S"][0][0]), float(parts["S"][1][0])
    a_d, b_d = float(fit["a_d"][0]), float(fit["b_d"][0])
    comps = {"sigma": lam_e / 2, "sigma_w1": (a_d - lam_e) / (4 * items), "sigma_i1": (b_d - lam_e) / (4 * workers),
             "sigma_w0": (a_s - lam_e) / (4 * items), "sigma_i0": (b_s - lam_e) / (4 * workers)}
    out = {k: math.sqrt(max(v, 0.0)) for k, v in comps.items()}
    out.update(effect=float(st.mean_d[0]) / 2, baseline=float(s.mean()) / 2, effect_se=float(fit["se"][0]),
               method="reml")
    return out


#: Design rows of the pairwise moment equations, per class (same worker, same item, same system):
#: coefficients of (β1², σ², σ_w0², σ_w1², σ_i0², σ_i1²) in ½ E[(y − y')²].
_PAIR_CLASSES = [(sw, si, sx) for sw in (0, 1) for si in (0, 1) for sx in (0, 1)]


def _pair_row(sw, si, sx):
    return [2.0 * (1 - sx), 1.0, float(1 - sw), (1 - sw) + 2.0 * sw * (1 - sx), float(1 - si),
            (1 - si) + 2.0 * si * (1 - sx)]


def _fit_pilot_moments(y, x, w, i):
    """Pairwise-difference moment estimator of the crossed model (any layout), O(N log N)."""
    from scipy.optimize import nnls

    n = y.size
    yc = y - y.mean()  # centring keeps n Σy² − (Σy)² accurate
    xb = (x > 0).astype(np.int64)
    items = int(i.max()) + 1
    keys = {
        (0, 0, 0): np.zeros(n, dtype=np.int64), (0, 0, 1): xb, (1, 0, 0): w.astype(np.int64),
        (0, 1, 0): i.astype(np.int64), (1, 0, 1): w * 2 + xb, (0, 1, 1): i * 2 + xb,
        (1, 1, 0): w.astype(np.int64) * items + i, (1, 1, 1): (w.astype(np.int64) * items + i) * 2 + xb,
    }
    at_least = {}  # sums over unordered pairs sharing at least these factors: Σ (y − y')², and their number
    for cls, key in keys.items():
        _, groups = np.unique(key, return_inverse=True)
        size = np.bincount(groups).astype(float)
        s1 = np.bincount(groups, weights=yc)
        s2 = np.bincount(groups, weights=yc * yc)
        at_least[cls] = (float((size * s2 - s1 * s1).sum()), float((size * (size - 1) / 2).sum()))
    design, target, weight = [], [], []
    for cls in _PAIR_CLASSES:  # Möbius inversion over the factors shared: exactly these, no more
        total = count = 0.0
        for sup in _PAIR_CLASSES:
            if all(s >= c for s, c in zip(sup, cls)):
                sign = (-1) ** (sum(sup) - sum(cls))
                total += sign * at_least[sup][0]
                count += sign * at_least[sup][1]
        if count < 0.5:
            continue
        q = max(total, 0.0) / (2 * count)  # mean of ½(y − y')² over the class
        design.append(_pair_row(*cls))
        target.append(q)
        # approximate inverse standard error: SD(q) ≈ q √(2/m), m = pairs, but never more than N independent ones
        weight.append(math.sqrt(min(count, n)) / max(q, 1e-12))
    design, target, weight = np.array(design), np.array(target), np.array(weight)
    if design.shape[0] == 0 or np.linalg.matrix_rank(design[:, 1:]) < 5:
        raise ValueError("The pilot's layout does not identify the five variance components: each part of the "
                         "model needs pairs of ratings that share a worker, an item or a system, and pairs that "
                         "share none (e.g. at least two workers per item, two items per worker, both systems).")
    theta, _ = nnls(design * weight[:, None], target * weight)
    _, s2, w0, w1, i0, i1 = theta  # β1² is a nuisance parameter of the equations
    # ordinary least squares for β0, β1 and the exact variance of that β1 under the fitted components
    xm = x.mean()
    sxx = float(((x - xm) ** 2).sum())
    if sxx <= 0:
        raise ValueError("The pilot must rate both systems.")
    c = (x - xm) / sxx
    effect = float(c @ y)
    baseline = float(y.mean() - effect * xm)
    var = s2 * float(c @ c)
    for codes, v0, v1 in ((w, w0, w1), (i, i0, i1)):
        var += v0 * float((np.bincount(codes, weights=c) ** 2).sum())
        var += v1 * float((np.bincount(codes, weights=c * x) ** 2).sum())
    return {"effect": effect, "baseline": baseline, "sigma": math.sqrt(s2), "sigma_w0": math.sqrt(w0),
            "sigma_w1": math.sqrt(w1), "sigma_i0": math.sqrt(i0), "sigma_i1": math.sqrt(i1),
            "effect_se": math.sqrt(max(var, 0.0)), "method": "moments"}

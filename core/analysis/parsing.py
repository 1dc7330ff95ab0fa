"""Reading uploaded results defensively: tables, long-to-wide, the four kinds of files, evaluation units."""

from __future__ import annotations

import decimal
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import uploads
from ..validation import check_choice, check_int, rng_of
from . import _common
from ._common import _is_binary, KINDS, _paired

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
    return uploads.read_table(data, name="The file", min_columns=2, max_rows=_common.MAX_ROWS, max_bytes=_common.MAX_BYTES)


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
        big = np.abs(values) > _common.MAX_ABS_SCORE
        if big.any():
            i = int(np.argmax(big))
            raise ValueError(f"Column {str(name)[:40]!r}, data row {int(kept.index[i]) + 1:,}: "
                             f"{str(cells.iloc[i])[:30]!r} is too large to compare (at most {_common.MAX_ABS_SCORE:g} in "
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
    table = uploads.read_table(data, name="The file", min_columns=2, max_rows=_common.MAX_ROWS, max_bytes=_common.MAX_BYTES,
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
        pa, pb, gold = (_label_keys(col[~blank]) for col in (pa, pb, gold))
        a = (pa == gold).to_numpy(float)
        b = (pb == gold).to_numpy(float)
        names = tuple(table.columns[:2])
    else:
        if kind == "systems" and table.shape[1] > _common.MAX_SYSTEMS:
            raise ValueError(f"The file has {table.shape[1]:,} system columns; at most {_common.MAX_SYSTEMS} can be compared "
                             f"pairwise ({_common.MAX_SYSTEMS * (_common.MAX_SYSTEMS - 1) // 2:,} pairs). Keep the systems you want "
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


def _label_keys(labels: pd.Series) -> pd.Series:
    """Labels as compared with the gold label: a number by its value ("1.0" = "1" = "1e0"; files written by
    different tools format numeric classes differently), exactly (as a decimal, so ids beyond 2⁵³ stay apart), and
    any other label as written (cells are already trimmed). Each distinct label is converted once."""
    codes, uniques = pd.factorize(labels.astype(str))
    keys = []
    for text in uniques:
        try:
            number = decimal.Decimal(text)
        except decimal.InvalidOperation:
            keys.append(text)
            continue
        keys.append(number.normalize() if number.is_finite() else text)
    return pd.Series(np.array(keys + [None], dtype=object)[codes], index=labels.index)


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
        order = rng_of(seed).permutation(a.size)
        a, b = a[order], b[order]
    units = a.size // m
    if units < 1:
        raise ValueError(f"`m` must be at most the number of items ({a.size}).")
    agg = np.mean if how == "mean" else np.median
    u = agg(a[: units * m].reshape(units, m), axis=1)
    v = agg(b[: units * m].reshape(units, m), axis=1)
    return u, v

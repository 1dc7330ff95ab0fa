"""Vectorised parsing shared by the readers: pandas' C parser with line numbers in every message."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from .. import uploads

#: Spellings of a missing score.
MISSING = ("", "None", "NA", "NaN", "nan", "N/A", "null")


def _text(data, label: str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    return uploads.decode_text(data, name=label)


_PANDAS_LINE = re.compile(r"line (\d+), saw (\d+)")


def _read_frame(text: str, label: str, *, sep, width: int | None, header, quoting=csv.QUOTE_MINIMAL,
                names=None) -> tuple[pd.DataFrame, np.ndarray]:
    """A table of strings read by pandas' C parser, and each row's line number (1-based).

    Rows with too many fields are refused by pandas (its message gives the line); rows with too few are found
    here; blank lines are dropped.
    """
    try:
        frame = pd.read_csv(io.StringIO(text), sep=sep, header=header, names=names, dtype=str,
                            keep_default_na=False, na_filter=True, na_values=[], skip_blank_lines=False,
                            quoting=quoting, engine="c")
    except pd.errors.ParserError as err:
        match = _PANDAS_LINE.search(str(err))
        if match:
            raise ValueError(f"{label}, line {int(match.group(1)):,}: {match.group(2)} fields where "
                             f"{width or 'fewer'} are expected.") from None
        raise ValueError(f"{label}: the table is malformed ({str(err)[:120]}).") from None
    except (pd.errors.EmptyDataError, UnicodeError):
        raise ValueError(f"{label} has no data rows.") from None
    offset = 2 if header == 0 else 1
    lines = np.arange(len(frame)) + offset
    blank = frame.isna().all(axis=1).to_numpy().copy()
    if frame.shape[1] > 1:  # a line of spaces only
        blank |= (frame.iloc[:, 0].astype(str).str.strip() == "").to_numpy() & frame.iloc[:, 1:].isna().all(
            axis=1).to_numpy()
    frame, lines = frame[~blank].reset_index(drop=True), lines[~blank]
    if frame.empty:
        raise ValueError(f"{label} has no data rows.")
    short = frame.isna().any(axis=1).to_numpy()
    if short.any():
        k = int(np.argmax(short))
        have = int(frame.iloc[k].notna().sum())
        raise ValueError(f"{label}, line {int(lines[k]):,}: {have} fields where {frame.shape[1]} are expected.")
    return frame, lines


def _scores(cells: pd.Series, lines: np.ndarray, label: str, column: str) -> np.ndarray:
    """Numbers of a score column; missing spellings are NaN; anything else is an error naming the line."""
    text = cells.astype(str).str.strip()
    values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, copy=True)
    missing = text.isin(MISSING).to_numpy()
    bad = (np.isnan(values) & ~missing) | np.isinf(values)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"{label}, line {int(lines[k]):,}: the {column} {text.iloc[k][:30]!r} is not a finite "
                         "number.")
    values[missing] = np.nan
    return values


def _labels(cells: pd.Series, lines: np.ndarray, label: str, role: str) -> np.ndarray:
    text = cells.astype(str).str.strip()
    empty = text.isin(("",)).to_numpy()
    if empty.any():
        k = int(np.argmax(empty))
        raise ValueError(f"{label}, line {int(lines[k]):,}: the {role} is empty.")
    return text.to_numpy(dtype=object)

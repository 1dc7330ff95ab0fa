"""Safe tabular exports: CSV downloads that spreadsheets cannot turn into formulas.

A CSV cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is evaluated as a formula by Excel, LibreOffice and Google Sheets
(OWASP, "CSV Injection"). Downloads echo user-supplied names (systems,
columns, models), so every text cell that starts with one of those characters
is prefixed with a single quote, as OWASP recommends. Numeric columns are
written as numbers (a negative number is data, not a formula).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["FORMULA_START", "neutralize", "csv_bytes"]

#: First characters that make a spreadsheet cell a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _safe(value):
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def neutralize(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names cannot start a formula.

    Examples
    --------
    >>> neutralize(pd.DataFrame({"system": ["=HYPERLINK(1)", "ok"], "x": [-1.5, 2.0]}))
              system    x
    0  '=HYPERLINK(1)  -1.5
    1             ok  2.0
    """
    out = frame.copy()
    out.columns = [_safe(str(c)) for c in out.columns]
    for column in out.columns:
        series = out[column]
        if series.dtype == object or pd.api.types.is_string_dtype(series) or isinstance(series.dtype,
                                                                                        pd.CategoricalDtype):
            out[column] = series.astype(object).map(_safe)
    return out


def csv_bytes(frame: pd.DataFrame, *, index: bool = False) -> bytes:
    """UTF-8 CSV of ``frame`` after :func:`neutralize`."""
    return neutralize(frame).to_csv(index=index).encode("utf-8")

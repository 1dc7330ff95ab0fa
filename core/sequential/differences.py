"""Past system differences for the DA campaign page's population of pairs: pasted text or an uploaded file."""

from __future__ import annotations

import math
import re

import numpy as np

from .. import uploads
from ..validation import check_int

__all__ = ["parse_differences", "read_differences"]


_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]+,[0-9]+")
_SEPARATORS = re.compile(r"[\s;\"']+")


def _is_number(token: str) -> bool:
    return bool(_NUMBER.fullmatch(token) or _NOT_FINITE.fullmatch(token))


_TABLE_HELP = ("it looks like a table with several columns. The page needs one column of pairwise differences: one "
               "difference per line (system A's mean DA score minus system B's, within ±50 points). A ranking of "
               "systems (one score per system and column) is not that: subtract the scores of the pairs you want "
               "to compare first.")


def _difference_tokens(text: str, *, header: bool, max_values: int, name: str, one_column: bool = False):
    """(line, token) pairs of a list of numbers; the rules shared by pasted and uploaded differences.

    Values are separated by white space, semicolons, quotes or commas; empty
    cells (``,,`` or a line that is just ``,``) are skipped. Two digit groups
    joined by a single comma (``0,5``, ``12,75``, ``1,000``) are refused: that
    is a decimal comma (or a thousands separator), and reading it as two
    values would silently change the data. With ``header``, a first non-empty
    line made only of non-numbers (``difference``) is skipped; ``1e-1``,
    ``-2``, ``+3.5`` and ``.5`` are numbers. With ``one_column`` (an uploaded
    file), a table is refused rather than flattened: a header of several names,
    or several values on a line of a file with several lines of values.
    """
    tokens = []
    first = True
    wide_line = None  # the first line holding more than one value
    for number, line in enumerate(uploads.split_lines(text), start=1):
        cells = []
        for chunk in _SEPARATORS.split(line):
            if not chunk:
                continue
            if _DECIMAL_COMMA.fullmatch(chunk):
                raise ValueError(
                    f"{name}, line {number:,}: {chunk[:20]!r} looks like a number with a decimal comma (or a "
                    f"thousands separator); write it with a point ({chunk[:20].replace(',', '.')}), or put a space "
                    "after the comma if these are two values.")
            cells.extend(cell for cell in chunk.split(",") if cell)
        if not cells:
            continue
        if header and first and not any(_is_number(cell) for cell in cells):
            first = False
            if one_column and len(cells) > 1:
                raise ValueError(f"{name}, line {number:,}: a header with {len(cells)} names — {_TABLE_HELP}")
            continue  # a header such as "difference"
        first = False
        if one_column and len(cells) > 1 and wide_line is None:
            wide_line = (number, len(cells))
        if one_column and wide_line is not None and tokens and tokens[0][0] != number:
            line_no, count = wide_line
            raise ValueError(f"{name}, line {line_no:,}: {count} values on one line of a file with several lines "
                             f"of values — {_TABLE_HELP}")
        tokens.extend((number, cell) for cell in cells)
        if len(tokens) > max_values:
            raise ValueError(f"At most {max_values:,} differences are supported; {name.lower()} has more.")
    return tokens


def _differences_from_text(text: str, *, header: bool, max_values, name: str, one_column: bool = False) -> np.ndarray:
    max_values = check_int("max_values", max_values, low=1, high=1_000_000)
    tokens = _difference_tokens(text, header=header, max_values=max_values, name=name, one_column=one_column)
    if not tokens:
        raise ValueError("No differences found: give numbers separated by commas, spaces or new lines.")
    values = np.empty(len(tokens))
    for k, (number, token) in enumerate(tokens):
        if not _is_number(token):
            raise ValueError(f"{name}, line {number:,}: {token[:20]!r} is not a number.")
        value = float(token)
        if not math.isfinite(value) or abs(value) > 50:
            raise ValueError(f"{name}, line {number:,}: {token[:20]!r} must be a finite difference within ±50 DA "
                             "points.")
        values[k] = abs(value)
    return values


def parse_differences(text: str, *, max_values=10_000) -> np.ndarray:
    """Past system differences pasted as text (numbers separated by commas, spaces or new lines).

    Signs are dropped (|difference|). The tokenizer and its rules are those of
    :func:`read_differences` (decimal commas refused, empty cells skipped),
    without header detection.

    Raises
    ------
    ValueError
        When nothing numeric is found, a value is not a number, looks like a
        decimal comma, is beyond ±50 DA points, or there are too many (the
        message names the line).

    Examples
    --------
    >>> parse_differences("1.5, -2\\n0.3;4").tolist()
    [1.5, 2.0, 0.3, 4.0]
    """
    if not isinstance(text, str):
        raise ValueError("`text` must be a string of numbers.")
    return _differences_from_text(text, header=False, max_values=max_values, name="The pasted list")


def read_differences(data: bytes, *, max_values=10_000) -> np.ndarray:
    """Past system differences from an uploaded text or one-column CSV file.

    Parameters
    ----------
    data : bytes
        The file (UTF-8, decoded by :func:`core.uploads.decode_text`).
    max_values : int, optional
        Most differences accepted.

    Returns
    -------
    ndarray
        |difference| of every value, in file order.

    Raises
    ------
    ValueError
        For an unreadable file (empty, binary, not UTF-8, too large), a value
        that is not a number or is beyond ±50 DA points, a decimal comma
        (``0,5`` is refused, never read as 0 and 5), no numbers, or too many.
        Messages name the line.

    Notes
    -----
    A first non-empty line made only of non-numbers is a header and is
    skipped; ``1e-1``, ``-2``, ``+3.5`` and ``.5`` are numbers, so a first line
    holding them is data. Lines and cells that are empty (``,``) are skipped.

    Examples
    --------
    >>> read_differences(b"difference\\n1e-1\\n-2\\n,\\n.5\\n").tolist()
    [0.1, 2.0, 0.5]
    """
    text = uploads.decode_text(data, name="The uploaded file")
    return _differences_from_text(text, header=True, max_values=max_values, name="The uploaded file", one_column=True)

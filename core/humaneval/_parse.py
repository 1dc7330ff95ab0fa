"""Vectorised parsing shared by the readers: pandas' C parser with line numbers in every message."""

from __future__ import annotations

import csv
import io
import math
import numbers

import numpy as np
import pandas as pd

from .. import uploads

#: Spellings of a missing score.
MISSING = ("", "None", "NA", "NaN", "nan", "N/A", "null")


def _text(data, label: str) -> str:
    """A judgments file's text: up to :data:`core.uploads.MAX_JUDGMENT_BYTES` (files with every rating are large)."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    return uploads.decode_text(data, name=label, max_bytes=uploads.MAX_JUDGMENT_BYTES)


def _line_stats(raw: bytes, sep: str, quoting):
    """(non-blank line numbers, fields on each of those lines, lines that are not empty), vectorised over bytes.

    Fields are counted from the positions of tabs (TSV) or of word starts (white space) between newlines; CSV
    lines go through the csv module, which knows quotes. Memory stays a few bytes per byte of the file (a mask
    per byte, reduced per line), not an index per character: judgments files run to tens of megabytes.
    """
    data = np.frombuffer(raw, dtype=np.uint8)
    space = data == 10
    ends = np.flatnonzero(space)
    if data.size and data[-1] != 10:
        ends = np.append(ends, data.size)
    starts = np.concatenate(([0], ends[:-1] + 1))
    for byte in (32, 9, 13):
        space |= data == byte
    solid = ~space
    # a line's segment runs from its start to the next line's start (its newline, a space, included); an empty
    # line's segment is its own newline: reduceat then gives that one byte, which is space
    has_text = ends > starts
    filled = np.zeros(len(starts), dtype=bool)
    if has_text.any():
        filled[has_text] = np.logical_or.reduceat(solid, starts)[has_text]
    nonempty = int(has_text.sum())
    numbers = np.flatnonzero(filled) + 1
    starts, ends = starts[filled], ends[filled]
    if sep == "\t":
        tabs = np.flatnonzero(data == 9)
        counts = np.searchsorted(tabs, ends) - np.searchsorted(tabs, starts) + 1
    elif sep == r"\s+":
        solid[1:] &= space[:-1]  # word starts: a solid byte after a space (or the file's first byte)
        counts = np.add.reduceat(solid, starts, dtype=np.int64) if len(starts) else np.zeros(0, dtype=np.int64)
    else:
        lines = (raw[s:e].decode("utf-8") for s, e in zip(starts.tolist(), ends.tolist()))
        counts = np.fromiter((len(row) for row in csv.reader(lines, delimiter=sep, quoting=quoting)),
                             dtype=np.int64, count=len(starts))
    return numbers, counts, nonempty


def _read_frame(text: str, label: str, *, sep, width: int | None, header, quoting=csv.QUOTE_MINIMAL,
                names=None, usecols=None) -> tuple[pd.DataFrame, np.ndarray]:
    """A table of strings read by pandas' C parser, and each row's line number (1-based).

    Blank lines are dropped. Every other line must have the header's number of fields (``width`` without a
    header; the first line's without either): a longer or shorter line is an error naming it, never a row padded
    or cut by the parser. ``usecols`` (pandas') keeps only the columns a reader needs: the others are checked for
    their count but never become strings (a Marot file's metadata column is most of its bytes).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    uploads.check_width(text, None if sep == r"\s+" else sep, name=label)
    raw = text.encode("utf-8")  # the parser reads the bytes: a text buffer would hold 4 bytes per character
    numbers, counts, nonempty = _line_stats(raw, sep, quoting)
    if len(numbers) < (2 if header == 0 else 1):
        raise ValueError(f"{label} has no data rows.")
    expected = int(counts[0]) if header == 0 or width is None else width
    body_counts, body_lines = (counts[1:], numbers[1:]) if header == 0 else (counts, numbers)
    wrong = body_counts != expected
    if wrong.any():
        k = int(np.argmax(wrong))
        have = int(body_counts[k])
        raise ValueError(f"{label}, line {int(body_lines[k]):,}: {have} field{'' if have == 1 else 's'} where "
                         f"{expected} are expected" + (" (as in the header)." if header == 0 else "."))
    if len(numbers) != nonempty:  # lines of spaces only: leave them out for the parser
        lines = text.split("\n")
        raw = "\n".join(lines[i - 1] for i in numbers).encode("utf-8")
        del lines
    del text
    try:
        frame = pd.read_csv(io.BytesIO(raw), sep=sep, header=header, names=names, dtype=str, usecols=usecols,
                            keep_default_na=False, na_filter=False, skip_blank_lines=True, quoting=quoting,
                            engine="c", encoding="utf-8")
    except pd.errors.ParserError as err:
        raise ValueError(f"{label}: the table is malformed ({str(err)[:120]}).") from None
    except (pd.errors.EmptyDataError, UnicodeError):
        raise ValueError(f"{label} has no data rows.") from None
    if len(frame) != len(body_lines):  # a quoted field spanning lines: number the rows instead
        body_lines = np.arange(1, len(frame) + 1) + (1 if header == 0 else 0)
    if frame.empty:
        raise ValueError(f"{label} has no data rows.")
    return frame, body_lines


def _cells(cells: pd.Series) -> pd.Series:
    """Stripped text of a column; a missing value (None, NaN: pandas keeps them through ``astype(str)``) is ""."""
    return cells.astype(object).where(cells.notna(), "").astype(str).str.strip()


def _scores(cells: pd.Series, lines: np.ndarray, label: str, column: str) -> np.ndarray:
    """Numbers of a score column; missing spellings are NaN; anything else is an error naming the line."""
    text = _cells(cells)
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
    text = _cells(cells)
    empty = text.isin(("",)).to_numpy()
    if empty.any():
        k = int(np.argmax(empty))
        raise ValueError(f"{label}, line {int(lines[k]):,}: the {role} is empty.")
    return text.to_numpy(dtype=object)


def split_language_pairs(system, item, source, target, notes):
    """Systems and segments kept apart by language pair when a file holds several (WMT24's ESA waves hold four,
    WMT21's raw DA files two directions each): a system's judgments in another pair are another population, and
    the same item id in another pair is another segment. Systems become ``"<system> (<src>-<tgt>)"`` and items
    ``"<src>-<tgt>:<item>"``, with a note; one pair leaves both as they are."""
    pair = (pd.Series(source).astype(str).str.strip() + "-" + pd.Series(target).astype(str).str.strip()).to_numpy(
        object)
    return name_by_pair(system, item, pair, notes)


def name_by_pair(system, item, pair, notes, *, what="language pairs", whose="pair"):
    """:func:`split_language_pairs` for a file that gives each row's pair (``"en-de"``) as one field; ``what`` and
    ``whose`` word the note for other groups (``"language pairs and years"``, ``"pair and year"``)."""
    pair = np.asarray(pair, dtype=object)
    pairs = sorted(set(pair))
    if len(pairs) <= 1:
        return system, item
    named = [p for p in pairs if p != ""]
    blank = " and rows without one are a group of their own" if "" in pairs else ""
    notes.append(f"{len(named)} {what if len(named) != 1 else what.replace('pairs', 'pair').replace('years', 'year')} "
                 f"({', '.join(named[:6])}{', …' if len(named) > 6 else ''}): each system "
                 f"is named with its {whose}{blank}; compare two systems of the same {whose}.")
    # a row with no pair keeps its system's and segment's names (a group of its own)
    return (np.array([f"{s} ({p})" if p != "" else s for s, p in zip(system, pair)], dtype=object),
            np.array([f"{p}:{i}" if p != "" else i for p, i in zip(pair, item)], dtype=object))


def json_number(value, where: str) -> float:
    """A JSON field's number as a finite float, or a ValueError ``"<where> is not a (finite) number"``.

    ``where`` names the field and its place (``"`x.jsonl`, record 3: a score of system 'A'"``). Booleans and text
    are refused; an integer too large for a float (JSON allows any number of digits) is not finite.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{where} is not a number ({str(value)[:20]!r}).")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{where} is not a finite number.")
    return number

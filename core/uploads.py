"""Defensive decoding of uploaded and pasted files, shared by every page.

Bytes in, text or a table of strings out. Nothing in a file is ever executed
or evaluated: text is decoded as UTF-8, tables are split by the :mod:`csv`
module, JSON lines by :func:`json.loads`. Every failure is a ``ValueError``
whose message says what is wrong and where (line, column), so pages can show
it verbatim. Cost is linear in the file size; the size is capped at
:data:`MAX_BYTES`, and at :data:`MAX_JUDGMENT_BYTES` for human judgments (the
only uploader that takes more).
"""

from __future__ import annotations

import contextlib
import csv
import gc
import io
import json
import math
import re

import numpy as np
import pandas as pd

__all__ = [
    "MAX_BYTES",
    "MAX_JUDGMENT_BYTES",
    "MAX_ROWS",
    "MAX_PARQUET_CELLS_BYTES",
    "is_parquet",
    "parquet_columns",
    "read_parquet",
    "decode_text",
    "text_lines",
    "read_table",
    "read_jsonl",
    "looks_like_json",
    "ALIASES",
    "guess_columns",
    "map_columns",
]

#: Largest accepted upload (each uploader's ``max_upload_size``, but one: :data:`MAX_JUDGMENT_BYTES`).
MAX_BYTES = 20 * 1024 * 1024
#: Largest file of human judgments (the DA campaign page's uploader; ``server.maxUploadSize`` of
#: ``.streamlit/config.toml``). Published judgments with every rating are larger than other uploads: Google's WMT 2023
#: MQM files with three ratings per segment unpack to 31 MB (en-de) and 40 MB (zh-en)
#: (google/wmt-mqm-human-evaluation, ``generalMT2023/*/sxs_mqm_generalMT2023_*.3ratingsPerSegment.tsv.tar.gz``).
#: Read as text, a file of this size stays within ≈ 1 GB (JSON stays at :data:`MAX_BYTES`: its records cost more).
MAX_JUDGMENT_BYTES = 64 * 1024 * 1024
#: Largest number of data rows read from a table.
MAX_ROWS = 1_000_000

# A single CSV field may be as long as the whole upload (long segments in MT
# files, long answers in LLM logs); the csv module's default is 128 KB.
csv.field_size_limit(MAX_JUDGMENT_BYTES + 1)

_MISSING = frozenset({"", "NA", "NaN", "nan", "N/A", "null", "None"})


def decode_text(data, *, name: str = "The file", max_bytes: int = MAX_BYTES) -> str:
    """UTF-8 text of an upload (a leading byte-order mark is dropped).

    Parameters
    ----------
    data : bytes
        The uploaded file's content.
    name : str, optional
        How the message calls the file (e.g. ``"System A outputs"``).
    max_bytes : int, optional
        Size limit.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For a non-bytes object, an empty, oversized or binary file, or a file
        that is not UTF-8 (the message gives the byte offset).

    Examples
    --------
    >>> decode_text(b"\\xef\\xbb\\xbfa,b\\n1,2\\n")
    'a,b\\n1,2\\n'
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"{name} must be given as the file's bytes.")
    data = bytes(data)
    if len(data) == 0:
        raise ValueError(f"{name} is empty.")
    if len(data) > max_bytes:
        raise ValueError(f"{name} is {len(data) / 2**20:.1f} MB; at most {max_bytes / 2**20:g} MB is accepted.")
    if data[:4] == b"PAR1":
        state = "a Parquet file" if data[-4:] == b"PAR1" else "a damaged or truncated Parquet file"
        raise ValueError(f"{name} is {state}: Parquet is read for pairwise votes only (model_a, model_b, winner); "
                         "for other uploads save it as CSV or JSONL.")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ValueError(f"{name} is UTF-16 text; save it as UTF-8 and upload it again.")
    nul = data.find(b"\x00")  # anywhere: a NUL after the first block would end up inside a label
    if nul >= 0:
        if nul < 65536:
            raise ValueError(f"{name} looks like a binary file; upload a plain-text (CSV, TSV, JSONL or TXT) file.")
        line = data[:nul].count(b"\n") + 1
        raise ValueError(f"{name} has a NUL character (byte 0) at position {nul:,}, line {line:,}: text files have "
                         "none; save it again as plain UTF-8 text.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ValueError(f"{name} is not UTF-8 text (invalid byte at position {err.start:,}, line {line:,}).") from None


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` split at \\n, \\r\\n and \\r only, as Python's text files read them (universal newlines)
    and as sacrebleu reads MT outputs.

    ``str.splitlines`` also splits at U+2028, U+2029, U+0085 and other separators, which JSON writers leave raw inside
    strings (lm-evaluation-harness writes its samples with ``ensure_ascii=False``): a JSON line or a segment would
    be cut in two. A final newline ends the last line (no empty line after it).
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def text_lines(data, *, name: str = "The file", max_lines: int = MAX_ROWS) -> list[str]:
    """Lines of an uploaded text file; trailing blank lines are dropped.

    Raises
    ------
    ValueError
        As :func:`decode_text`, or when the file has no text or more than
        ``max_lines`` lines.
    """
    lines = split_lines(decode_text(data, name=name))
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ValueError(f"{name} has no text.")
    if len(lines) > max_lines:
        raise ValueError(f"{name} has {len(lines):,} lines; at most {max_lines:,} are supported.")
    return lines


#: Column names that published evaluation files use for each role (compared case-insensitively, ignoring
#: spaces, dots, dashes and underscores): Appraise / WMT DA (``username``, ``itemId``, ``SYS``, ``SID``,
#: ``RAW.SCR``, ``Z.SCR``), Google's WMT MQM (``system``, ``seg_id``, ``mqm_avg_score``), MTurk
#: (``WorkerId``), lm-evaluation-harness (``doc_id``), AlpacaEval (``generator_1``, ``generator_2``,
#: ``preference``).
ALIASES = {
    "worker": ("worker", "username", "workerid", "worker_id", "annotator", "rater", "judge", "user", "userid"),
    "item": ("item", "itemid", "item_id", "sid", "seg_id", "segid", "segment", "segment_id", "doc_id", "docid",
             "question", "question_id", "id"),
    "system": ("system", "sys", "sys_id", "sysid", "system_id", "model", "systemid"),
    "score": ("score", "z.scr", "z", "raw.scr", "raw", "mqm_avg_score", "mqm", "rating", "da", "value", "acc",
              "accuracy", "correct"),
    "rating": ("rating", "score", "z.scr", "raw.scr", "z", "raw", "mqm_avg_score", "mqm", "da", "value"),
    "model_a": ("model_a", "generator_1", "model_1", "system_a", "model1", "sys_a"),
    "model_b": ("model_b", "generator_2", "model_2", "system_b", "model2", "sys_b"),
    "winner": ("winner", "preference", "label", "judgment"),
}


def _key(name) -> str:
    return "".join(ch for ch in str(name).strip().lower() if ch not in " ._-")


def guess_columns(names, roles) -> dict:
    """Map each role to a column whose name is one of its :data:`ALIASES` (first alias wins; a column is used once).

    Parameters
    ----------
    names : sequence of str
        The table's column names.
    roles : sequence of str
        Keys of :data:`ALIASES` (other roles are guessed from their own name only).

    Returns
    -------
    dict
        Role → column name, for the roles that could be guessed.

    Examples
    --------
    >>> guess_columns(["SYS", "SID", "RAW.SCR", "Z.SCR", "N"], ["system", "item", "score"])
    {'system': 'SYS', 'item': 'SID', 'score': 'Z.SCR'}
    """
    by_key = {}
    for name in names:
        by_key.setdefault(_key(name), name)
    found, used = {}, set()
    for role in roles:
        for alias in ALIASES.get(role, (role,)):
            name = by_key.get(_key(alias))
            if name is not None and name not in used:
                found[role] = name
                used.add(name)
                break
    return found


def find_columns(columns, aliases, required, *, name: str = "The file") -> dict:
    """Role → column, matching each role's ``aliases`` (lower-case, first spelling the canonical one) to the
    table's column names, case- and space-insensitively.

    Raises
    ------
    ValueError
        When two columns could play one role, or a ``required`` role has no column (the message lists the
        accepted spellings and the table's columns).

    Examples
    --------
    >>> find_columns(["Doc_ID", "Model", "acc"], {"question": ("question", "doc_id"), "model": ("model",),
    ...               "score": ("score", "acc")}, ("question", "model", "score"))
    {'question': 'Doc_ID', 'model': 'Model', 'score': 'acc'}
    """
    lowered = {}
    for col in columns:
        lowered.setdefault(str(col).strip().lower(), col)
    found = {}
    for role, spellings in aliases.items():
        hits = [lowered[a] for a in spellings if a in lowered]
        if len(hits) > 1:
            raise ValueError(f"{name}: both {hits[0]!r} and {hits[1]!r} could be the `{role}` column; rename or "
                             "remove one.")
        if hits:
            found[role] = hits[0]
    missing = [role for role in required if role not in found]
    if missing:
        raise ValueError(f"{name} needs the column(s) {', '.join(missing)} (also accepted: "
                         + "; ".join(f"{r}: {', '.join(aliases[r][1:])}" for r in missing)
                         + f"); it has {', '.join(map(str, columns))}.")
    return found


def map_columns(table: pd.DataFrame, columns, *, name: str = "The file") -> pd.DataFrame:
    """The columns a ``columns=`` mapping (role → column name) names, renamed to their roles, in its order.

    Raises
    ------
    ValueError
        When ``columns`` is not a mapping of strings, or names a column the table does not have (the message
        lists the table's columns).
    """
    if not isinstance(columns, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in columns.items()):
        raise ValueError("`columns` must map roles to column names (strings), e.g. {'score': 'Z.SCR'}.")
    missing = [f"{column!r} (for {role})" for role, column in columns.items() if column not in table.columns]
    if missing:
        found = ", ".join(str(c) for c in table.columns[:12])
        raise ValueError(f"{name} has no column {', '.join(missing)}; its columns are: {found}.")
    if len(set(columns.values())) != len(columns):
        raise ValueError("`columns` uses one column for two roles.")
    out = table[list(columns.values())].copy()
    out.columns = list(columns)
    return out


def _numeric(cell: str) -> bool:
    try:
        return math.isfinite(float(cell)) or cell.strip().lower() in ("nan", "inf", "-inf", "+inf")
    except ValueError:
        return False


def _delimiter(sample: str) -> str | None:
    for candidate in ("\t", ",", ";"):
        if candidate in sample:
            return candidate
    return None  # runs of whitespace


#: Most bytes the chosen columns of a Parquet upload may take in memory, counted batch by batch as they are
#: decoded (a footer's sizes and row counts are the file's own claims, and a 20 MB file of compressed text could
#: otherwise ask for gigabytes).
MAX_PARQUET_CELLS_BYTES = 64 * 1024 * 1024
#: Rows decoded at a time.
_PARQUET_BATCH = 16_384


def is_parquet(data) -> bool:
    """Whether ``data`` is a Parquet file (``PAR1`` at both ends, as Hugging Face datasets are published)."""
    if not isinstance(data, (bytes, bytearray, memoryview)) or len(data) < 12:
        return False
    return bytes(data[:4]) == b"PAR1" and bytes(data[-4:]) == b"PAR1"


def _parquet_file(data, name, columns=(), *, max_bytes: int = MAX_BYTES):
    import pyarrow.parquet as pq  # Streamlit's own dependency: imported only for a Parquet upload

    if len(data) > max_bytes:
        raise ValueError(f"{name} is {len(data) / 2**20:.1f} MB; at most {max_bytes / 2**20:g} MB is accepted.")
    try:
        # text columns come as dictionaries where the file stores them so: a value repeated a million times is
        # decoded once (a plain read materialised every copy)
        return pq.ParquetFile(io.BytesIO(bytes(data)), read_dictionary=list(columns) or None)
    except Exception as err:  # pyarrow raises ArrowInvalid, OSError, … on a damaged file
        raise ValueError(f"{name} is not a readable Parquet file ({_arrow_reason(err)}).") from None


def _arrow_reason(err) -> str:
    text = str(err).strip().splitlines()[0][:120] if str(err).strip() else ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def parquet_columns(data, *, name: str = "The file", max_bytes: int = MAX_BYTES) -> list[str]:
    """The top-level column names of a Parquet file, from its schema (no data read)."""
    return [str(c) for c in _parquet_file(data, name, max_bytes=max_bytes).schema_arrow.names]


def _text_values(array, column, name):
    """One batch of a column as stripped Python strings (missing: ""); a dictionary's values are converted once."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        if pa.types.is_dictionary(array.type):
            values = _text_values(array.dictionary, column, name)
            indices = array.indices.fill_null(len(values)).to_numpy(zero_copy_only=False)
            return np.append(values, "")[indices]
        if pa.types.is_boolean(array.type):
            text = pc.if_else(array, "1", "0")
        else:
            text = pc.cast(array, pa.large_string())
        if pc.any(pc.match_substring(text, "\x00")).as_py():
            raise ValueError(f"{name}: column {column!r} holds a NUL character; text has none.")
        return pd.Series(text.to_numpy(zero_copy_only=False), dtype=object).fillna("").str.strip().to_numpy(object)
    except pa.ArrowException as err:  # ArrowInvalid ("Invalid UTF8 payload") is a ValueError too, naming no column
        raise ValueError(f"{name}: column {column!r} cannot be read as text (not UTF-8, or values with no text form: "
                         f"{type(err).__name__}).") from None
    except ValueError:
        raise
    except Exception as err:  # invalid UTF-8, a type with no text form (binary, …); the bytes stay out of it
        raise ValueError(f"{name}: column {column!r} cannot be read as text (not UTF-8, or values with no text form: "
                         f"{type(err).__name__}).") from None


def read_parquet(data, columns, *, name: str = "The file", max_rows: int = MAX_ROWS,
                 max_bytes: int = MAX_BYTES) -> pd.DataFrame:
    """The chosen columns of a Parquet file as a table of stripped strings, like :func:`read_table`'s.

    Only ``columns`` are decoded (a chat dataset's conversation columns are most of its bytes), a batch at a time,
    counting rows (at most ``max_rows``) and bytes in memory (at most :data:`MAX_PARQUET_CELLS_BYTES`) as they come:
    the file's footer is not trusted for either. The file itself is at most ``max_bytes`` (:data:`MAX_BYTES`;
    :data:`MAX_JUDGMENT_BYTES` for human judgments). Dictionary-encoded text is converted once per distinct value.
    Booleans read ``"1"``/``"0"``; nested values (lists, structs) are refused with the column's name; missing values
    read as ``""``.

    Raises
    ------
    ValueError
        For a file that is not Parquet or is damaged, a missing, repeated or nested column, text that is not
        UTF-8 or holds a NUL, too many rows or too many bytes.
    """
    import pyarrow as pa

    columns = list(dict.fromkeys(columns))
    schema = _parquet_file(data, name, max_bytes=max_bytes).schema_arrow
    names = [str(c) for c in schema.names]
    for c in columns:
        if c not in names:
            raise ValueError(f"{name} has no column {c!r} (its columns: {', '.join(names[:12])}).")
        if names.count(c) > 1:
            raise ValueError(f"{name}: the header has repeated column names ({c!r}).")
        kind = schema.field(names.index(c)).type
        if pa.types.is_nested(kind):
            raise ValueError(f"{name}: column {c!r} holds {kind} values, not text or numbers.")
    text = [c for c in columns if pa.types.is_string(kind := schema.field(names.index(c)).type)
            or pa.types.is_large_string(kind)]
    handle = _parquet_file(data, name, text, max_bytes=max_bytes)
    parts = {c: [] for c in columns}
    rows = held = 0
    try:
        batches = handle.iter_batches(batch_size=_PARQUET_BATCH, columns=columns, use_threads=False)
        for batch in batches:
            rows += batch.num_rows
            if rows > max_rows:
                raise ValueError(f"{name} has more than {max_rows:,} rows; at most {max_rows:,} are read.")
            held += sum(batch.column(k).nbytes for k in range(batch.num_columns))
            if held > MAX_PARQUET_CELLS_BYTES:
                raise ValueError(f"{name}: the columns {', '.join(columns)} take more than "
                                 f"{MAX_PARQUET_CELLS_BYTES / 2**20:g} MB once decompressed; at most that is read "
                                 "(keep the vote columns only, or save them as CSV).")
            for k, c in enumerate(columns):
                parts[c].append(_text_values(batch.column(k), c, name))
    except ValueError:
        raise
    except Exception as err:  # a damaged page, a footer that does not match the data, …
        raise ValueError(f"{name}: its Parquet data cannot be read ({_arrow_reason(err)}).") from None
    if rows == 0:
        raise ValueError(f"{name} has no rows.")
    return pd.DataFrame({c: np.concatenate(parts[c]) for c in columns}, dtype=object)


def read_table(
    data,
    *,
    name: str = "The file",
    min_columns: int = 2,
    max_rows: int = MAX_ROWS,
    max_bytes: int = MAX_BYTES,
    header: str = "auto",
    columns=None,
) -> pd.DataFrame:
    """Parse CSV, TSV, semicolon- or whitespace-separated text into a table of strings.

    Parameters
    ----------
    data : bytes
        The file.
    name : str, optional
        How messages call the file.
    min_columns : int, optional
        Fewest columns accepted.
    max_rows : int, optional
        Most data rows accepted.
    max_bytes : int, optional
        Size limit.
    header : {"auto", "yes", "no"}, optional
        ``"auto"``: the first row is a header when any of its cells is not a
        number; ``"no"``: the first row is data (headerless files such as
        WMT Appraise ``SegLvl`` CSVs; columns are then ``"column 1"``, …).
    columns : dict, optional
        Role → column name: only those columns are returned, renamed to
        their roles (see :func:`map_columns`, :func:`guess_columns`).

    Returns
    -------
    pandas.DataFrame
        Stripped string cells (dtype ``object``); column names from the header
        or ``"column 1"``, ``"column 2"``, ….

    Raises
    ------
    ValueError
        For an unreadable file (see :func:`decode_text`), a malformed CSV line,
        unequal row lengths (the message names the first offending row), too
        few columns, too many rows, repeated header names, no data rows, or a
        ``columns`` mapping naming a column the file does not have.

    Notes
    -----
    The delimiter is the first of tab, comma and semicolon found in the first
    50 lines, else runs of white space (space-aligned tables with trailing
    spaces, WMT ``ad-seg-scores-*.csv``). A header separated by spaces over
    tab- or comma-separated rows (WMT MQM ``*.avg_seg_scores.tsv``, WMT DA
    ``ad-*-good-stnd.csv``) is split on white space, and so is a file whose rows
    mix tabs and spaces (Google's MQM ``newstest2020`` segment scores) when
    runs of white space give every row the same width and tabs do not.

    Examples
    --------
    >>> read_table(b"a,b\\n1,2\\n3,4\\n")
       a  b
    0  1  2
    1  3  4
    """
    if header not in ("auto", "yes", "no"):
        raise ValueError(f"`header` must be one of 'auto', 'yes', 'no', got {header!r}.")
    text = decode_text(data, name=name, max_bytes=max_bytes)
    sample = "\n".join(split_lines(text[:65536])[:50])
    delimiter = _delimiter(sample)
    check_width(text, delimiter, name=name)
    with _gc_paused():
        try:
            table = _read_rows(text, delimiter, [], name, min_columns, max_rows, header)
        except ValueError as err:
            # Google's MQM *.avg_seg_scores.tsv files separate some rows by a tab (and a space) and others by
            # spaces only (newstest2020): a tab-separated reading gives unequal rows, runs of white space equal ones.
            if delimiter != "\t" or "the columns are unequal" not in str(err):
                raise
            try:
                table = _read_rows(text, None, [], name, min_columns, max_rows, header)
            except ValueError:
                raise err from None
    return table if columns is None else map_columns(table, columns, name=name)


#: Most columns a table may have: score tables have a few, wide ones a column per system or per item of a short
#: test set. Checked on the first line before parsing: a file of a million columns took 45 s and 1.2 GB to refuse.
MAX_COLUMNS = 10_000


def check_width(text: str, delimiter: str | None, *, name: str = "The file", max_columns: int = MAX_COLUMNS) -> None:
    """Refuse a table whose first line has more than ``max_columns`` fields (``delimiter`` None: runs of white
    space), before any parsing."""
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    fields = (first.count(delimiter) + 1) if delimiter else len(first.split())
    if fields > max_columns:
        raise ValueError(f"{name} has {fields:,} columns in its first line; at most {max_columns:,} are read (a table "
                         "of scores has a column per role, or per system).")


@contextlib.contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while millions of row lists are built (halves parsing time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_rows(text, delimiter, rows, name, min_columns, max_rows, header):
    try:
        if delimiter is None:
            source = (line.split() for line in split_lines(text))
        else:
            source = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        append, limit = rows.append, max_rows + 1
        for row in source:
            if not "".join(row).strip():  # no cells, or only blank ones
                continue
            append(row)
            if len(rows) > limit:
                raise ValueError(f"{name} has more than {max_rows:,} rows; at most {max_rows:,} are accepted.")
    except csv.Error as err:
        line = getattr(source, "line_num", len(rows) + 1)
        raise ValueError(f"{name}, line {line:,}: the CSV is malformed ({err}).") from None
    if not rows:
        raise ValueError(f"{name} has no data rows.")
    if delimiter is not None and len(rows) > 1 and len(rows[0]) == 1 and len(rows[1]) > 1:
        # A header separated by spaces over delimited rows (WMT MQM *.avg_seg_scores.tsv, WMT DA
        # ad-*-good-stnd.csv): split it on white space when that gives the rows' width.
        words = rows[0][0].split()
        if len(words) == len(rows[1]):
            rows[0] = words
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        number = next(i for i, row in enumerate(rows, start=1) if len(row) != width)
        raise ValueError(f"{name}: row {number:,} has {len(rows[number - 1])} fields but row 1 has {width}; the "
                         "columns are unequal.")
    if width < min_columns:
        shape = "a single column" if width == 1 else f"{width} columns"
        raise ValueError(f"{name} has {shape}; at least {min_columns} are needed.")
    first = [cell.strip() for cell in rows[0]]
    if header == "auto":
        has_header = not all(_numeric(c) or not c for c in first)
    else:
        has_header = header == "yes"
    if has_header:
        names = [c or f"column {i + 1}" for i, c in enumerate(first)]
        if len(set(names)) != len(names):
            raise ValueError(f"{name}: the header has repeated column names.")
        body = rows[1:]
    else:
        names = [f"column {i + 1}" for i in range(width)]
        body = rows
    if not body:
        raise ValueError(f"{name} has a header but no data rows.")
    # strip the cells column by column (str.strip returns the same object when there is nothing to strip)
    columns = {col: [cell.strip() for cell in cells] for col, cells in zip(names, zip(*body))}
    return pd.DataFrame(columns, columns=names, dtype=object)


def looks_like_json(data) -> bool:
    """True when the upload's first non-blank character opens a JSON object or array."""
    head = bytes(data[:4096]).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"{", b"[")


def _json_value(text: str, *, name: str, line: int | None):
    """``json.loads`` with every failure a message that names the file and the line."""
    where = f"{name}, line {line:,}" if line is not None else name
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        if line is None:
            raise ValueError(f"{name}: not valid JSON (line {err.lineno:,}, column {err.colno}: {err.msg}).") from None
        raise ValueError(f"{where}: not valid JSON (column {err.colno}: {err.msg}).") from None
    except RecursionError:
        raise ValueError(f"{where}: the JSON is nested too deeply.") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's limit on converting them)
        raise ValueError(_long_number(name, text) if line is None else
                         f"{where}: a number has too many digits (more than {_MAX_DIGITS:,}).") from None
    if "\\u" in text:  # json.loads accepts a lone surrogate, which no later step can print or encode
        _refuse_lone_surrogates(text, name, offset=0 if line is None else line - 1)
    return value


def read_jsonl(data, *, name: str = "The file", max_records: int = MAX_ROWS) -> list[dict]:
    """JSON Lines (one object per line) or a JSON array of objects.

    Parameters
    ----------
    data : bytes
        The file.
    name : str, optional
        How messages call the file.
    max_records : int, optional
        Most records accepted.

    Returns
    -------
    list of dict

    Raises
    ------
    ValueError
        For an unreadable file, a line that is not valid JSON or not an object
        (the message names the line), or too many records.

    Examples
    --------
    >>> read_jsonl(b'{"doc_id": 0, "acc": 1.0}\\n{"doc_id": 1, "acc": 0.0}\\n')
    [{'doc_id': 0, 'acc': 1.0}, {'doc_id': 1, 'acc': 0.0}]
    """
    text = decode_text(data, name=name)
    stripped = text.lstrip()
    if stripped.startswith("["):
        records = _json_value(stripped, name=name, line=None)
        if not isinstance(records, list):
            raise ValueError(f"{name}: expected a list of objects.")
        if len(records) > max_records:
            raise ValueError(f"{name} has {len(records):,} records; at most {max_records:,} are accepted.")
        for number, record in enumerate(records, start=1):
            if not isinstance(record, dict):
                raise ValueError(f"{name}: record {number:,} is not an object.")
        return records
    lines = split_lines(text)
    first = next((line for line in lines if line.strip()), "")
    if first.strip() == "{":  # one object written over several lines (json.dump with indent): one record
        record = _json_value(stripped, name=name, line=None)
        if isinstance(record, dict):
            return [record]
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = _json_value(line, name=name, line=number)
        if not isinstance(record, dict):
            raise ValueError(f"{name}, line {number:,}: expected a JSON object ({{…}}), got {type(record).__name__}.")
        records.append(record)
        if len(records) > max_records:
            raise ValueError(f"{name} has more than {max_records:,} records; at most {max_records:,} are accepted.")
    if not records:
        raise ValueError(f"{name} has no records.")
    return records


_MAX_DIGITS = 4300  # Python's default sys.get_int_max_str_digits()
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u[dD]([89a-fA-F])[0-9a-fA-F]{2}")


def _long_number(name: str, text: str) -> str:
    match = re.search(r"\d{%d,}" % (_MAX_DIGITS + 1), text)
    where = f", line {text.count(chr(10), 0, match.start()) + 1:,}" if match else ""
    return f"{name}{where}: a number has too many digits (more than {_MAX_DIGITS:,})."


def _refuse_lone_surrogates(text: str, name: str, *, offset: int = 0) -> None:
    """Refuse ``\\ud800``-style escapes that are not a surrogate pair: such strings cannot be shown or saved as UTF-8."""
    pending = None  # end of a high-surrogate escape waiting for its low half
    for match in _SURROGATE_ESCAPE.finditer(text):
        start = match.end() - 6
        high = match.group(1).lower() in "89ab"
        if pending is not None:
            if not high and start == pending:
                pending = None
                continue
            start = pending - 6
            break
        if high:
            pending = match.end()
            continue
        break
    else:
        if pending is None:
            return
        start = pending - 6
    line = offset + text.count("\n", 0, start) + 1
    raise ValueError(f"{name}, line {line:,}: the escape {text[start:start + 6]!r} is half of a UTF-16 surrogate "
                     "pair, not a character.")


def is_missing(cell: str) -> bool:
    """True for the spellings of a missing value in uploaded tables (empty, NA, NaN, null, …)."""
    return cell in _MISSING

"""One reader for published human-evaluation files: judgments as a long table (system, item, rater, score).

Formats are recognised by their content (the name only where a format exists by convention: mt-metrics-eval's
``<lp>.<protocol>.<level>.score``). Parsing is vectorised (pandas' C parser), so a 20 MB file reads in a few
seconds; nothing in a file is executed. Every failure is a ``ValueError`` naming the file and, where it is about
one line, the line.
"""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd

from .. import uploads
from ..validation import check_choice
from ._parse import _cells, _labels, _scores, _text, name_by_pair, split_language_pairs
from .google import (GOOGLE_AVG_HEADER, GOOGLE_COLUMNS, MAROT_COLUMNS, MTME_NAME, MTME_RATING_NAME, PSQM_COLUMNS,
                     google_annotations, google_psqm, google_seg_scores, looks_like_mtme_ratings, mtme_protocol,
                     read_mtme, read_mtme_ratings)
from .wmt_jsonl import looks_like_unified, read_unified

__all__ = ["PROTOCOLS", "FORMATS", "ROLES", "read_scores", "sniff_format", "guess_roles"]

#: The evaluation protocols a score table can carry (``attrs["protocol"]``).
PROTOCOLS = ("mqm", "esa", "da", "da-sqm", "sqm", "scores")
#: Recognised formats (``attrs["format"]``) and how they are described.
FORMATS = {
    "mqm_seg_scores": "Google MQM segment scores (*.avg_seg_scores.tsv)",
    "mqm_annotations": "Google MQM error annotations (mqm_*.tsv)",
    "psqm": "Google pSQM ratings (psqm_*.tsv)",
    "mtme_seg": "mt-metrics-eval segment scores (*.seg.score)",
    "mtme_doc": "mt-metrics-eval document scores (*.doc.score)",
    "mtme_rating": "mt-metrics-eval error-span ratings (*.seg.rating)",
    "appraise": "Appraise scores export (ExportSystemScoresToCSV)",
    "wmt_da": "WMT DA table (SYS, SID, RAW.SCR / Z.SCR)",
    "table": "long table (system, item, rater, score columns)",
    "jsonl": "JSON lines (system, item, rater, score fields)",
    "wmt_jsonl": "WMT unified human-evaluation JSON lines (wmt24-genmt-humeval.jsonl: scores per system per segment)",
    "hf_wmt": "WMT judgments as copied to Hugging Face (lp, src, mt, ref, score, system, annotators, domain, year)",
    "parquet": "Parquet table (system, item, rater, score columns)",
}
#: Roles of the long table and the column names that play them (compared ignoring case, spaces, dots, dashes and
#: underscores; the first match wins). Raw DA scores are preferred to z-scores: the DA campaign page plans on the
#: raw 0–100 scale.
ROLES = {
    "system": ("system", "sys", "sys_id", "system_id", "systemid", "model"),
    "item": ("item", "seg_id", "segid", "sid", "segment", "segment_id", "item_id", "itemid", "id"),
    "rater": ("rater", "annotator", "worker", "workerid", "worker_id", "username", "user", "judge", "uid"),
    "score": ("raw.scr", "raw_score", "raw", "score", "mqm_avg_score", "mqm", "rating", "esa", "da", "z.scr",
              "z_score", "z", "value"),
}
_REQUIRED = ("system", "item", "score")
#: Columns (as :func:`_key` reads them) of the Hugging Face copies of WMT's judgments
#: (huggingface.co/datasets/RicardoRei/wmt-mqm-human-evaluation and its -sqm- and -da- siblings: lp, src, mt, ref,
#: score, system, annotators, domain, year).
_HF_KEYS = frozenset({"lp", "src", "mt"})
#: A row's language pair as one field (``"en-de"``).
_PAIR_KEYS = ("lp", "langpair", "languagepair")
#: A row's count of the ratings it averages (WMT's ``N``; the Hugging Face copies' ``annotators``).
_COUNT_KEYS = ("n", "annotators")
#: Columns besides the roles' that the long table reads (groups, counts, quality control, language columns).
_CONTEXT_KEYS = frozenset({*_PAIR_KEYS, *_COUNT_KEYS, "year", "domain", "type", "hitid", "workerid", "sid",
                           "inputsrc", "inputtrg", "srclang", "trglang", "sourcelang", "targetlang", "zscr", "zscore",
                           "z"})
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


#: Most fields a JSON judgments file may have (its first 1,000 records' keys).
_MAX_JSON_FIELDS = 200


def _key(name) -> str:
    return "".join(ch for ch in str(name).strip().lower() if ch not in " ._-")


def _is_number(cell: str) -> bool:
    return bool(_NUMBER.fullmatch(cell.strip()))


# ---------------------------------------------------------------------------
# recognition
# ---------------------------------------------------------------------------
def _head_lines(text: str, count: int = 50) -> list[str]:
    return [line for line in uploads.split_lines(text[:200_000])[: count * 4] if line.strip()][:count]


def _mtme_level(name: str):
    match = MTME_NAME.search(str(name).strip())
    return match.group(1).lower() if match else None


def _looks_like_mtme(lines) -> bool:
    """Every line is ``system score`` (a label and a number or None), no header."""
    for line in lines:
        cells = line.split()
        if len(cells) != 2 or _is_number(cells[0]) or not (_is_number(cells[1]) or cells[1] == "None"):
            return False
    return bool(lines)


def _looks_like_appraise(lines) -> bool:
    from .appraise import APPRAISE_TYPES as _APPRAISE_TYPES

    rows = list(csv.reader(lines[:1]))  # the first row decides; a later bad row is an error naming its line
    return bool(rows) and all(len(r) >= 7 and r[3].strip() in _APPRAISE_TYPES and _is_number(r[6]) for r in rows)


def guess_roles(names) -> dict:
    """Role → column for the roles whose column can be told from the names (:data:`ROLES`).

    Examples
    --------
    >>> guess_roles(["SYS", "SID", "RAW.SCR", "Z.SCR", "WorkerId"])
    {'system': 'SYS', 'item': 'SID', 'rater': 'WorkerId', 'score': 'RAW.SCR'}
    """
    by_key = {}
    for col in names:
        by_key.setdefault(_key(col), col)
    found, used = {}, set()
    for role, aliases in ROLES.items():
        for alias in aliases:
            col = by_key.get(_key(alias))
            if col is not None and col not in used:
                found[role] = col
                used.add(col)
                break
    if "item" not in found and _HF_KEYS <= set(by_key):
        # the Hugging Face copies of WMT's judgments have no segment id: a segment is its source text (only in that
        # layout: elsewhere a column named src may hold a language code)
        found["item"] = by_key["src"]
    return found


def column_names(data, name: str = "", *, header: str = "auto") -> list[str]:
    """The columns :func:`read_scores` would map roles onto, for a page's column mapping: a table's header (or
    ``column 1``, ``column 2``, … without one; ``header`` as in :func:`read_scores`) or the fields of a JSON file's
    first records.

    Examples
    --------
    >>> column_names(b"sys,seg,who,esa\\nA,1,r,70\\n")
    ['sys', 'seg', 'who', 'esa']
    """
    label = f"`{str(name)[:80]}`" if name else "The file"
    raw = bytes(data) if not isinstance(data, str) else data.encode("utf-8")
    if uploads.is_parquet(raw):
        return uploads.parquet_columns(raw, name=label, max_bytes=uploads.MAX_JUDGMENT_BYTES)
    if uploads.looks_like_json(raw):
        records = uploads.read_jsonl(raw, name=label)
        keys = list(dict.fromkeys(str(k) for record in records[:1000] for k in record))
        return keys[:_MAX_JSON_FIELDS]
    text = _text(raw, label)
    table, _ = _generic_table(text, raw, label, [], header)
    return [str(c) for c in table.columns]


def sniff_format(data, name: str = "") -> str | None:
    """The format of a human-evaluation file from its first lines (and name), or None when it is none of them.

    Parameters
    ----------
    data : bytes or str
        The file (only its first 200 KB are looked at).
    name : str, optional
        The file's name: mt-metrics-eval files named ``….seg.score``, ``.sys.score``, ``.doc.score`` or
        ``.domain.score`` take their level from it (their first line must have the layout's fields); otherwise
        they are recognised by their content (``system score`` lines).

    Returns
    -------
    str or None
        A key of :data:`FORMATS` (``"mtme_sys"`` and ``"mtme_domain"`` for system- and domain-level files, which
        :func:`read_scores` refuses with what is needed), or None.
    """
    head = data[:200_000] if isinstance(data, str) else bytes(data[:200_000]).decode("utf-8-sig", errors="replace")
    lines = _head_lines(head)
    if not lines:
        return None
    level = _mtme_level(name)
    first = lines[0]
    if MTME_RATING_NAME.search(str(name).strip()) and looks_like_mtme_ratings(lines[:1], named=True):
        return "mtme_rating"  # the name tells the layout; a later bad line is an error naming it
    if level is not None and len(first.split()) == (3 if level == "domain" else 2):
        return f"mtme_{level}"  # the name tells the level; the first line must have the layout's fields
    if first.split() == GOOGLE_AVG_HEADER:
        return "mqm_seg_scores"
    tab_names = {c.strip().lower() for c in first.split("\t")}
    if set(GOOGLE_COLUMNS) <= tab_names or set(MAROT_COLUMNS) <= tab_names:
        return "mqm_annotations"
    if set(PSQM_COLUMNS) <= tab_names:
        return "psqm"
    if first.lstrip().startswith(("{", "[")):
        return None
    if looks_like_mtme_ratings(_head_lines(head, 2_000)):  # a rater's file may open on many unrated segments
        return "mtme_rating"
    if _looks_like_mtme(lines):
        return "mtme_seg"
    if _looks_like_appraise(lines):
        return "appraise"
    names = first.split("\t") if "\t" in first else (first.split(",") if "," in first else first.split())
    roles = guess_roles(names)
    if set(_REQUIRED) <= set(roles):
        keys = {_key(c) for c in names}
        return "wmt_da" if {"sys", "sid"} <= keys and keys & {"rawscr", "zscr"} else "table"
    return None


# ---------------------------------------------------------------------------
# parsing helpers
# ---------------------------------------------------------------------------
def _unified(records, columns) -> bool:
    """WMT's unified JSON lines (nested scores per system), unless columns are mapped by hand."""
    return columns is None and bool(records) and looks_like_unified(records[0])


def _finish(system, item, rater, score, *, fmt, protocol, notes, label) -> pd.DataFrame:
    score = np.asarray(score, dtype=float)
    keep = ~np.isnan(score)
    if not keep.all():
        missing = int((~keep).sum())
        notes.append(f"{missing:,} judgment{'s' if missing != 1 else ''} with no score (None or empty) "
                     f"{'were' if missing != 1 else 'was'} left out.")
    if not keep.any():
        raise ValueError(f"{label} has no scores (every score is missing).")
    rater = (pd.array([pd.NA] * len(score), dtype=object) if rater is None
             else pd.array(np.asarray(rater, dtype=object), dtype=object))
    frame = pd.DataFrame({"system": np.asarray(system, dtype=object)[keep],
                          "item": np.asarray(item, dtype=object)[keep],
                          "rater": np.asarray(rater, dtype=object)[keep],
                          "score": score[keep] + 0.0})  # -0.0 (a segment without errors) reads as 0
    frame.attrs.update(protocol=protocol, notes=list(notes), format=fmt)
    return frame


#: Column names of WMT's per-rater standardised scores.
_Z_KEYS = ("zscr", "zscore", "z")
#: What the readers say of z-scores.
Z_NOTE = ("These are z-scores (each rater's scores standardised), not 0–100 DA points: they are planned as plain "
          "scores, their observed range mapped onto the 0–100 scale. Upload the raw scores (RAW.SCR, `wmt-raw`) to "
          "plan in DA points.")


def _table_protocol(score_column: str) -> str:
    key = _key(score_column)
    if key.startswith("mqm"):
        return "mqm"
    if key in ("rawscr", "rawscore", "raw", "da"):
        return "da"
    # z-scores (each rater's scores standardised, WMT's Z.SCR) are not on the 0–100 DA scale: read as plain scores
    # (their observed range is mapped onto the campaign scale), never as DA points
    if key == "esa":
        return "esa"
    return "scores"


def _long_table(table: pd.DataFrame, lines, label, notes, columns, names=None):
    """``names``: all the file's column names, when ``table`` holds only those read (a Parquet file's)."""
    names = list(table.columns) if names is None else list(names)
    if columns is not None:
        if not isinstance(columns, dict):
            raise ValueError("`columns` must map roles (system, item, rater, score) to column names.")
        unknown = [r for r in columns if r not in ROLES]
        if unknown:
            raise ValueError(f"`columns`: unknown role {str(unknown[0])!r}; the roles are system, item, rater, score.")
        missing = [r for r in _REQUIRED if r not in columns]
        if missing:
            raise ValueError(f"`columns` must name the {', '.join(missing)} column (roles: system, item, score and "
                             "optionally rater).")
        mapped = uploads.map_columns(table, {r: str(c) for r, c in columns.items()}, name=label)
        roles = {r: r for r in columns}
        table = mapped
    else:
        roles = guess_roles(names)
        _check_roles(roles, names, label)
        zs = [c for c in table.columns if _key(c) in _Z_KEYS and c != roles["score"]]
        if zs:
            notes.append(f"Scores from column {roles['score']!r} (raw); {zs[0]!r} (standardised per rater) is not "
                         "used.")
    keys = {_key(c): c for c in table.columns}
    # WMT's raw DA files (ad-latest.csv, ad-good-raw-redup.csv: HITId, WorkerId, Input.src, Input.trg, …, sys_id,
    # type, sid, score): 0–100 direct assessments; rows of other types than SYSTEM are quality control
    raw_da = columns is None and {"hitid", "workerid", "type", "sid", "score"} <= set(keys)
    if raw_da:
        kind = table[keys["type"]].astype(str).str.strip()
        keep = (kind == "SYSTEM").to_numpy()
        if not keep.all():
            counts = kind[~keep].value_counts()
            notes.append("Quality-control rows left out: " + ", ".join(f"{n:,} {t}" for t, n in counts.items())
                         + " (only SYSTEM rows are judgments of the systems).")
            table, lines = table[keep].reset_index(drop=True), np.asarray(lines)[keep]
            if table.empty:
                raise ValueError(f"{label} has no SYSTEM rows.")
    system = _labels(table[roles["system"]], lines, label, "system")
    # a whitespace-separated file keeps the quotes around a quoted name ("Online-G.7")
    system = np.array([v[1:-1] if len(v) > 1 and v[0] == v[-1] == '"' else v for v in system], dtype=object)
    item = _labels(table[roles["item"]], lines, label, "item")
    rater = _labels(table[roles["rater"]], lines, label, "rater") if "rater" in roles else None
    score = _scores(table[roles["score"]], lines, label, str(roles["score"]) if columns is None else "score")
    protocol = "da" if raw_da else _table_protocol(roles["score"] if columns is None else columns["score"])
    sources = [keys[k] for k in ("inputsrc", "inputtrg", "srclang", "trglang", "sourcelang", "targetlang")
               if k in keys]
    if columns is None and len(sources) == 2:
        system, item = split_language_pairs(system, item, table[sources[0]].to_numpy(), table[sources[1]].to_numpy(),
                                            notes)
    else:
        text_items = columns is None and _key(roles["item"]) == "src" and _hf_layout(names)
        if text_items and "domain" in keys:  # the same sentence in two domains' documents is two segments
            item = _cells(table[keys["domain"]]).to_numpy(object) + "|" + np.asarray(item, dtype=object)
        if columns is None:
            system, item = _split_groups(table, keys, system, item, lines, label, notes)
        if text_items:
            _note_text_items(roles["item"], system, item, rater, notes)
    if _key(roles["score"] if columns is None else columns["score"]) in _Z_KEYS:
        notes.append(Z_NOTE)
    if columns is None:
        _note_averaged_rows(table, notes)
    return system, item, rater, score, protocol


def _check_roles(roles: dict, names: list, label: str, *, headed: bool = False) -> None:
    """A ValueError when the system, item or score column cannot be told from the column names."""
    missing = [r for r in _REQUIRED if r not in roles]
    if not missing:
        return
    found = ", ".join(str(c) for c in names[:12])
    if "system" in missing and _HF_KEYS <= {_key(c) for c in names}:
        # no mapping can help: the file does not say which system wrote each translation
        raise ValueError(f"{label} has no column naming the system that wrote each translation (its columns are: "
                         f"{found}), so two systems cannot be compared from it. Upload judgments that name the "
                         "system: WMT's own DA files (ad-seg-scores, ad-latest), google/wmt-mqm-human-evaluation's "
                         "MQM files, or a Hugging Face copy with a `system` column.")
    raise ValueError(f"{label}: cannot tell which column is the {', '.join(missing)} (its columns are: "
                     f"{found}). Name them with `columns={{'system': …, 'item': …, 'score': …}}` (and "
                     "'rater' if there is one)" + ("." if headed else "; a file without a header has columns "
                                                    "'column 1', 'column 2', …."))


def _split_groups(table: pd.DataFrame, keys: dict, system, item, lines, label: str, notes: list):
    """Systems and segments kept apart by the row's language pair (``lp``) and, when a file spans several, its year:
    the Hugging Face copies of WMT's judgments hold every pair of several campaigns in one table, and a system's
    judgments in another pair (or another year's test set) are another population (:func:`name_by_pair`)."""
    pair_column = next((keys[k] for k in _PAIR_KEYS if k in keys), None)
    year_column = keys.get("year")
    years = _years(table[year_column]) if year_column is not None else None
    several_years = years is not None and len(set(years) - {""}) > 1
    if pair_column is None and not several_years:
        return system, item
    if pair_column is not None:
        group = _cells(table[pair_column]).to_numpy(object)  # a blank pair is a group of its own, left unnamed
        if several_years:
            group = np.array([f"{p} {y}".strip() for p, y in zip(group, years)], dtype=object)
        what, whose = (("language pairs and years", "pair and year") if several_years else
                       ("language pairs", "pair"))
    else:
        group, what, whose = years, "years", "year"
    return name_by_pair(system, item, group, notes, what=what, whose=whose)


def _years(cells: pd.Series) -> np.ndarray:
    """A year column as text: ``2022.0`` (a JSON or pandas float) reads ``2022``; a missing year is ``""``."""
    text = _cells(cells)
    number = pd.to_numeric(text, errors="coerce")
    whole = number.notna() & np.isfinite(number) & (number == number.round())
    text = text.where(~whole, number.where(whole).astype("Int64").astype(str))
    return text.replace({"nan": "", "NaN": "", "None": "", "<NA>": ""}).to_numpy(object)


def _note_text_items(column: str, system, item, rater, notes: list) -> None:
    """Say that segments are told apart by their source text (a file with no segment id: the Hugging Face copies of
    WMT's judgments), and how many judgments repeat a system's text."""
    notes.append(f"Segments are told apart by their source text (column {column!r}): the file has no segment id.")
    if rater is None:
        repeats = int(pd.DataFrame({"system": system, "item": item}).duplicated().sum())
        if repeats:
            notes.append(f"{repeats:,} judgment{'s repeat' if repeats != 1 else ' repeats'} a system's source text "
                         "already seen (the same sentence twice in a test set, or another rating of it): read as "
                         "further ratings of that segment.")


def _note_averaged_rows(table: pd.DataFrame, notes: list) -> None:
    """Say so when each row is the mean of several ratings (the ``N`` column of WMT's ``ad-seg-scores-*.csv``).

    WMT's segment-level DA files (``SYS SID RAW.SCR Z.SCR N``) average the ``N`` ratings a segment received, so
    their spread is that of segment means, smaller than a single judgment's, and a "judgment" planned from them
    is a segment mean of about that many ratings. The individual ratings are published in the same campaign's
    ``ad-good-raw-redup`` / ``ad-latest`` files.
    """
    counts = [c for c in table.columns if _key(c) in _COUNT_KEYS]
    if not counts:
        return
    n = pd.to_numeric(table[counts[0]], errors="coerce")
    if not (n.notna().all() and (n >= 1).all() and (n > 1).any()):
        return
    where = ("WMT's `ad-good-raw-redup` or `ad-latest` files" if _key(counts[0]) == "n" else
             "WMT's `ad-latest` files for DA, google/wmt-mqm-human-evaluation's `mqm_*.tsv` for MQM")
    notes.append(f"Each row is the mean of the {n.sum():,.0f} ratings its column {counts[0]!r} counts ({n.mean():.2f} "
                 f"per row on average, up to {n.max():,.0f}): the spread read here is that of these means, smaller "
                 "than a single rating's, so a planned judgment is a segment mean of about that many ratings. Upload "
                 f"the individual ratings ({where}) to plan per rating.")


def _generic_table(text, data_bytes, label, notes, header):
    """A delimited table through :func:`core.uploads.read_table`; ``header="auto"``: the first row is data when
    one of its cells is a number."""
    table = uploads.read_table(data_bytes, name=label, min_columns=2, header="no",
                               max_bytes=uploads.MAX_JUDGMENT_BYTES)
    first = [str(c).strip() for c in table.iloc[0]]
    if header == "auto":  # a header never holds a number: Appraise-style exports start with data
        has_header = not any(_is_number(c) for c in first)
        if not has_header:
            notes.append("The first row holds a number, so it was read as data, not as a header.")
    else:
        has_header = header == "yes"
    # line numbers of the rows (blank lines are not rows)
    rows = [i for i, line in enumerate(uploads.split_lines(text), start=1) if line.strip()]
    lines = np.array(rows if len(rows) == len(table) else range(1, len(table) + 1))
    if has_header:
        names = [c or f"column {i + 1}" for i, c in enumerate(first)]
        if len(set(names)) != len(names):
            raise ValueError(f"{label}: the header has repeated column names; choose header='no' if the first row "
                             "is data.")
        table = table.iloc[1:].reset_index(drop=True)
        table.columns = names
        lines = lines[1:]
        if table.empty:
            raise ValueError(f"{label} has a header but no data rows.")
    return table, lines


def read_scores(data, name: str = "", *, columns=None, protocol=None, header="auto") -> pd.DataFrame:
    """Human judgments of a published or exported evaluation file, as one long table.

    Parameters
    ----------
    data : bytes or str
        The file's content (at most :data:`core.uploads.MAX_JUDGMENT_BYTES`, UTF-8; JSON at most
        :data:`core.uploads.MAX_BYTES`).
    name : str, optional
        The file's name: used in messages, and to recognise mt-metrics-eval files (``<lp>.<protocol>.<level>.score``)
        and their protocol.
    columns : dict, optional
        Role → column name for a long table: ``system``, ``item``, ``score`` and optionally ``rater`` (a file without
        a header has columns ``"column 1"``, ``"column 2"``, …). Without it, a table's columns are recognised by
        their names (:data:`ROLES`: ``SYS``, ``SID``, ``RAW.SCR``, ``WorkerId``, ``seg_id``, …).
    protocol : {"mqm", "esa", "da", "da-sqm", "sqm", "scores"}, optional
        Overrides the recognised protocol. For an Appraise document-level export, ``"mqm"`` scores the error spans
        and ``"esa"`` takes the annotators' ratings.
    header : {"auto", "yes", "no"}, optional
        For long tables: ``"no"`` reads the first row as data. ``"auto"``: the first row is data when one of its
        cells is a number (a header never holds one).

    Returns
    -------
    pandas.DataFrame
        Columns ``system``, ``item`` (the segment), ``rater`` (NA where the file has none) and ``score`` (float;
        higher is better — MQM scores are minus the weighted errors). ``attrs``: ``"protocol"`` (one of
        :data:`PROTOCOLS`), ``"format"`` (a key of :data:`FORMATS`), ``"notes"`` (a list of sentences: rows left
        out and why, how scores were made).

    Raises
    ------
    ValueError
        For an unreadable file (:func:`core.uploads.decode_text`), a row with too many or too few fields, a score
        that is not a number, an empty label, a system- or domain-level mt-metrics-eval file (no segment scores: no
        power), an unknown error-span severity, or a table whose columns cannot be told — the message names the file
        and the line.

    Notes
    -----
    Formats, recognised by content:

    * Google MQM segment scores (``mqm_*.avg_seg_scores.tsv``, github.com/google/wmt-mqm-human-evaluation):
      ``system mqm_avg_score seg_id``, fields separated by tabs, spaces or both; ``None`` scores are left out.
    * Google MQM error annotations (``mqm_*.tsv``: system, doc, doc_id, seg_id, rater, source, target, category,
      severity[, comment]; TSV without quoting): one judgment per (system, seg_id, rater), minus the sum of the error
      weights of Freitag et al. (2021), Table 2 (:data:`core.humaneval.mqm.MQM_WEIGHTS`), matched as
      mt-metrics-eval's ``converters/score_mqm.py`` does. Averaging the raters reproduces the published
      ``avg_seg_scores``.
    * Google pSQM ratings (``psqm_*.tsv``: the same columns with a 0–6 ``score`` instead of category and severity).
    * mt-metrics-eval ``<lp>.<name>.seg.score`` (github.com/google-research/mt-metrics-eval): ``system score`` per
      line, the segment being the line's position within its system (``data.ReadScoreFile``); ``None`` = not
      rated. The protocol comes from ``<name>``: ``mqm…`` → mqm, ``esa…`` → esa, ``da-sqm`` → da-sqm, ``psqm`` →
      sqm, ``wmt-raw``, ``wmt-z``, ``wmt-appraise…`` → da. ``.sys.score`` and ``.domain.score`` files hold one
      score per system (or domain): they are refused, since power needs the spread of segment scores.
    * mt-metrics-eval ``<lp>.<name>.seg.rating`` (``ratings.py``): ``system<TAB>{"errors": [...]}<TAB>rater`` per
      line, ``system<TAB>None`` for an unrated segment; segments by position as above, each rating scored minus its
      errors' MQM weights (:func:`core.humaneval.google.read_mtme_ratings`), so the raters of every segment are
      known.
    * Appraise ``ExportSystemScoresToCSV`` (github.com/AppraiseDev/Appraise; no header): annotator, system, item
      id, item type, source and target language, score, then for document-level campaigns (ESA, MQM) document id
      (``<document>#<system>``), is-document, error spans, and start and end times. Only target rows (``TGT``) are
      judgments: ``BAD``, ``REF`` and ``CHK`` quality-control rows and whole-document rows are left out and counted
      in a note. The segment of a document-level row is ``<document>#<item id>``. An MQM campaign (spans with
      error types) is scored from its spans with the same weights (Appraise's major 5, minor 1, neutral 0).
    * WMT DA tables (``ad-seg-scores-*.csv``, ``ad-*-good-stnd*.csv``) and any long table with system, item,
      (rater) and score columns, read by :func:`core.uploads.read_table`; raw DA scores are preferred to z-scores.
    * JSON lines with the same fields.
    * WMT's unified human-evaluation JSON lines (``wmt24-genmt-humeval.jsonl``, github.com/wmt-conference/
      wmt24-news-systems ``humeval/merge_to_jsonl.py``): a record per segment with ``scores`` per system, each
      annotation a judgment with its annotator and protocol (:func:`core.humaneval.wmt_jsonl.read_unified`).

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. & Macherey, W. (2021). Experts, Errors, and
    Context: A Large-Scale Study of Human Evaluation for Machine Translation. TACL 9, §3.3 and Table 2.
    Kocmi, T. et al. (2024). Error Span Annotation (ESA). WMT.

    Examples
    --------
    >>> s = read_scores(b"system mqm_avg_score seg_id\\nA\\t-1.0 1\\nA\\tNone 2\\nB -0.5 1\\n")
    >>> s.attrs["protocol"], len(s), list(s.columns)
    ('mqm', 2, ['system', 'item', 'rater', 'score'])
    """
    label = f"`{str(name)[:80]}`" if name else "The file"
    if protocol is not None:
        protocol = check_choice("protocol", protocol, PROTOCOLS)
    header = check_choice("header", header, ("auto", "yes", "no"))
    notes: list[str] = []
    if uploads.is_parquet(data):  # Hugging Face datasets' files (their copies of WMT's judgments among them)
        table, names = _parquet_table(data, label, columns)
        system, item, rater, score, found = _long_table(table, np.arange(1, len(table) + 1), label, notes, columns,
                                                        names)
        fmt = "hf_wmt" if columns is None and _hf_layout(names) else "parquet"
        return _finish(system, item, rater, score, fmt=fmt, protocol=protocol or _hf_protocol(found, fmt, notes),
                       notes=notes, label=label)
    text = _text(data, label)
    raw = text.encode("utf-8")
    fmt = "table" if columns is not None else sniff_format(text, name)
    if fmt == "mtme_seg" and not _mtme_level(name) and '\t{"errors"' in text:
        fmt = "mtme_rating"  # ratings whose first 2,000 lines are all unrated (None) segments
    rater = None
    if fmt == "mqm_seg_scores":
        system, item, rater, score = google_seg_scores(text, label, notes)
        found = "mqm"
    elif fmt == "mqm_annotations":
        system, item, rater, score = google_annotations(text, label, notes)
        found = "mqm"
    elif fmt == "psqm":
        system, item, rater, score = google_psqm(text, label, notes)
        found = "sqm"
    elif fmt == "mtme_rating":
        system, item, rater, score = read_mtme_ratings(text, label, notes, name)
        found = "mqm"
    elif fmt is not None and fmt.startswith("mtme_"):
        system, item, rater, score = read_mtme(text, label, notes, fmt.split("_", 1)[1] if _mtme_level(name) else None,
                                           name)
        fmt = "mtme_doc" if fmt == "mtme_doc" else "mtme_seg"
        found = mtme_protocol(name) if name else "scores"
        if name and ".wmt-z." in f".{str(name).lower()}":
            notes.append(Z_NOTE)
    elif fmt == "appraise":
        from .appraise import read_appraise

        system, item, rater, score, found = read_appraise(text, label, notes, protocol)
    elif uploads.looks_like_json(raw) and _unified(records := uploads.read_jsonl(raw, name=label), columns):
        system, item, rater, score, found = read_unified(records, label, notes, protocol)
        fmt = "wmt_jsonl"
    elif uploads.looks_like_json(raw):
        # the fields are those of the first records: a frame of every key of every record grows as records × keys
        # (a 1 MB file of records with a key each asked for gigabytes)
        keys = list(dict.fromkeys(k for record in records[:1000] for k in record))
        if len(keys) > _MAX_JSON_FIELDS:
            raise ValueError(f"{label}: the first records have {len(keys):,} different fields; a file of judgments has "
                             f"a few (system, segment, rater, score), at most {_MAX_JSON_FIELDS} are read.")
        table = pd.DataFrame.from_records(records, columns=keys)
        lines = np.arange(1, len(table) + 1)
        if text.lstrip().startswith("["):
            notes.append("Rows are numbered by record (a JSON array).")
        system, item, rater, score, found = _long_table(table, lines, label, notes, columns)
        fmt = "jsonl"
    else:
        table, lines = _generic_table(text, raw, label, notes, header)
        system, item, rater, score, found = _long_table(table, lines, label, notes, columns)
        if columns is None:
            keys = {_key(c) for c in table.columns}
            fmt = ("wmt_da" if {"sys", "sid"} <= keys and keys & {"rawscr", "zscr"} else
                   "hf_wmt" if _hf_layout(table.columns) else "table")
        else:
            fmt = "table"
    return _finish(system, item, rater, score, fmt=fmt, protocol=protocol or _hf_protocol(found, fmt, notes),
                   notes=notes, label=label)


def _hf_layout(names) -> bool:
    """Whether a table has the columns of the Hugging Face copies of WMT's judgments (lp, src, mt, …)."""
    return _HF_KEYS <= {_key(c) for c in names}


def _hf_protocol(found: str, fmt: str, notes: list) -> str:
    """The protocol a table says (``found``); for the Hugging Face copies of WMT's judgments, whose MQM, DA+SQM and
    DA files share their columns, a note that the page's Protocol choice says which."""
    if fmt == "hf_wmt" and found == "scores":  # first: what the user has to do
        notes.insert(0, "The file does not say its protocol (the Hugging Face copies of WMT's MQM, DA+SQM and DA "
                     "judgments share these columns): its scores are read as plain scores, their observed range "
                     "mapped onto the 0–100 scale. Choose the protocol (MQM, DA+SQM, DA) to plan on its own scale.")
    return found


def _parquet_table(data, label: str, columns) -> tuple[pd.DataFrame, list[str]]:
    """The columns of a Parquet file that :func:`_long_table` reads (the roles' and the context's; a copy of WMT's
    judgments is mostly source, translation and reference text, which are not needed), and all its column names."""
    names = uploads.parquet_columns(data, name=label, max_bytes=uploads.MAX_JUDGMENT_BYTES)
    if columns is not None:
        if not isinstance(columns, dict):
            raise ValueError("`columns` must map roles (system, item, rater, score) to column names.")
        wanted = [str(c) for c in columns.values()]
    else:
        roles = guess_roles(names)
        _check_roles(roles, names, label, headed=True)  # a Parquet file's columns always have names
        wanted = list(roles.values()) + [c for c in names if _key(c) in _CONTEXT_KEYS]
    return uploads.read_parquet(data, wanted, name=label, max_bytes=uploads.MAX_JUDGMENT_BYTES), names

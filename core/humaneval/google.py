"""Google's WMT MQM files and mt-metrics-eval score files (see :func:`core.humaneval.read_scores`).

Layouts checked against github.com/google/wmt-mqm-human-evaluation (``ted/ende/mqm_ted_ende.tsv`` and its
``avg_seg_scores.tsv``, ``newstest2020``/``newstest2021`` ``avg_seg_scores.tsv``) and
github.com/google-research/mt-metrics-eval (``data.py``: ``ReadScoreFile``, ``ParseHumanScoreFilename``;
``converters/score_mqm.py``; ``ratings.py``: ``ReadRatingFile``).
"""

from __future__ import annotations

import csv
import functools
import json
import math
import re

import numpy as np
import pandas as pd

from .. import uploads
from ._parse import _labels, _read_frame, _scores, json_number
from .mqm import KNOWN_SEVERITIES, error_weights, mqm_weight

GOOGLE_AVG_HEADER = ["system", "mqm_avg_score", "seg_id"]
GOOGLE_COLUMNS = ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity")
#: The same annotations as Google publishes them from WMT 2023 on (generalMT2023/2024, written by the Marot viewer):
#: ``docSegId`` and ``globalSegId`` for ``doc_id`` and ``seg_id``, a ``metadata`` column, and a last header field
#: ``# Documentation: <url>`` that no row fills.
MAROT_COLUMNS = ("system", "doc", "docsegid", "globalsegid", "rater", "source", "target", "category", "severity")
#: Google's pSQM files (``psqm_*.tsv``): the annotation layout with a 0–6 ``score`` instead of errors.
PSQM_COLUMNS = ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "score")
MTME_NAME = re.compile(r"\.(seg|sys|doc|domain)\.score$", re.IGNORECASE)
#: mt-metrics-eval's error-span ratings, ``<lp>.<name>.seg.rating`` (``ratings.py``).
MTME_RATING_NAME = re.compile(r"\.seg\.rating$", re.IGNORECASE)


# ---------------------------------------------------------------------------
def google_seg_scores(text, label, notes):
    # the header is separated by spaces, the rows by a tab and a space, or spaces only (newstest2020)
    frame, lines = _read_frame(text, label, sep=r"\s+", width=3, header=0)
    if list(frame.columns) != GOOGLE_AVG_HEADER:
        raise ValueError(f"{label}, line 1: expected the header `system mqm_avg_score seg_id`.")
    system = _labels(frame["system"], lines, label, "system")
    item = _labels(frame["seg_id"], lines, label, "seg_id")
    score = _scores(frame["mqm_avg_score"], lines, label, "mqm_avg_score")
    notes.append("Scores are MQM averages over a segment's raters (minus the weighted errors; higher is better), so "
                 "the file has no rater column.")
    return system, item, None, score


#: The columns of Google's MQM annotations that give the judgments (the source, target and Marot's metadata, most of
#: the bytes, are not read).
_ANNOTATION_COLUMNS = frozenset({"system", "seg_id", "globalsegid", "rater", "category", "severity"})


def google_annotations(text, label, notes):
    # TSV without quoting: a source or target sentence may hold quotes (csv.QUOTE_NONE, as mt-metrics-eval's
    # converters/score_mqm.py reads these files)
    end = text.find("\n")
    header = text if end < 0 else text[:end]
    fields = header.rstrip("\r").split("\t")
    if fields and fields[-1].lstrip().startswith("#"):  # Marot's "# Documentation: <url>": a note, not a column
        text = "\t".join(fields[:-1]) + ("" if end < 0 else text[end:])
    frame, lines = _read_frame(text, label, sep="\t", width=None, header=0, quoting=csv.QUOTE_NONE,
                               usecols=lambda c: str(c).strip().lower() in _ANNOTATION_COLUMNS)
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    if "seg_id" not in frame.columns and "globalsegid" in frame.columns:
        # the segment across the whole test set, as WMT24's humeval/tools.py (load_mqm) keys these files
        frame = frame.rename(columns={"globalsegid": "seg_id"})
    missing = [c for c in ("system", "seg_id", "rater", "category", "severity") if c not in frame.columns]
    if missing:
        raise ValueError(f"{label}, line 1: the header lacks {', '.join(missing)}.")
    system = _labels(frame["system"], lines, label, "system")
    item = _labels(frame["seg_id"], lines, label, "seg_id")
    rater = _labels(frame["rater"], lines, label, "rater")
    severity = frame["severity"].astype(str).str.strip()
    weights = error_weights(severity, frame["category"])
    unknown = ~severity.str.lower().isin(KNOWN_SEVERITIES).to_numpy()
    if unknown.any():
        kinds = ", ".join(sorted({s[:20] for s in severity[unknown]})[:5])
        notes.append(f"{int(unknown.sum()):,} annotations have a severity without a weight ({kinds}); they weigh 0, "
                     "as in mt-metrics-eval's score_mqm.py.")
    keys = pd.DataFrame({"system": system, "item": item, "rater": rater, "w": weights})
    per = keys.groupby(["system", "item", "rater"], sort=False)["w"].sum().reset_index()
    errors = int((weights > 0).sum())
    notes.append(f"{len(frame):,} annotation rows ({errors:,} weighted errors) give {len(per):,} judgments: one per "
                 "system, segment and rater, minus the summed error weights (Freitag et al. 2021, Table 2: Major 5, "
                 "Minor 1, Minor Fluency/Punctuation 0.1, Non-translation 25, Neutral and No-error 0).")
    return per["system"].to_numpy(object), per["item"].to_numpy(object), per["rater"].to_numpy(object), \
        -per["w"].to_numpy(float) + 0.0


def mtme_protocol(name: str) -> str:
    """Protocol of an mt-metrics-eval human-score file from its name, ``<lp>.<name>.<level>.score``."""
    tokens = str(name).strip().rsplit("/", 1)[-1].split(".")
    scorer = ".".join(tokens[1:-2]).lower() if len(tokens) >= 4 else (tokens[0].lower() if tokens else "")
    if "mqm" in scorer:
        return "mqm"
    if scorer.startswith("esa"):
        return "esa"
    if "da-sqm" in scorer or "dasqm" in scorer:
        return "da-sqm"
    if "sqm" in scorer:
        return "sqm"
    if scorer.startswith("wmt-z"):  # per-rater z-scores: not DA points (readers.Z_NOTE)
        return "scores"
    if scorer.startswith(("wmt-raw", "wmt-appraise", "wmt", "da", "appraise")):
        return "da"
    return "scores"


def read_mtme(text, label, notes, level, name):
    if level in ("sys", "domain"):
        what = "system" if level == "sys" else "domain"
        raise ValueError(f"{label} is an mt-metrics-eval {what}-level file (one score per {what}): it cannot tell "
                         "how scores vary between segments, so it cannot give power. Upload the segment-level file "
                         f"of the same scores (`….seg.score`).")
    frame, lines = _read_frame(text, label, sep=r"\s+", width=2, header=None, names=["system", "score"])
    system = _labels(frame["system"], lines, label, "system")
    score = _scores(frame["score"], lines, label, "score")
    # a segment is its line's position within its system's lines (mt-metrics-eval's data.ReadScoreFile)
    item = (pd.Series(system).groupby(system, sort=False).cumcount() + 1).astype(str).to_numpy(object)
    counts = pd.Series(system).value_counts()
    if level is None and (counts == 1).all():
        raise ValueError(f"{label} has one score per system: a system-level file cannot give power. Upload the "
                         "segment-level file (`….seg.score`).")
    if counts.nunique() > 1:
        notes.append(f"The systems have different numbers of lines ({counts.min():,}–{counts.max():,}); segments "
                     "are matched by their position within each system.")
    unit = "document" if level == "doc" else "segment"
    notes.append(f"Each line's {unit} is its position within its system's lines (mt-metrics-eval); the file has no "
                 "rater column.")
    return system, item, None, score


def google_psqm(text, label, notes):
    """Google pSQM ratings: one 0–6 score per (system, segment, rater) line, TSV without quoting."""
    frame, lines = _read_frame(text, label, sep="\t", width=None, header=0, quoting=csv.QUOTE_NONE)
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    system = _labels(frame["system"], lines, label, "system")
    item = _labels(frame["seg_id"], lines, label, "seg_id")
    rater = _labels(frame["rater"], lines, label, "rater")
    score = _scores(frame["score"], lines, label, "score")
    notes.append("Scores are professional raters' SQM ratings (0–6; Freitag et al. 2021, §3.2).")
    return system, item, rater, score


# ---------------------------------------------------------------------------
# mt-metrics-eval ratings
# ---------------------------------------------------------------------------
def looks_like_mtme_ratings(lines, *, named: bool = False) -> bool:
    """Every line is ``system<TAB>rating[<TAB>rater]``, the rating ``None`` or a JSON object whose ``errors`` is a
    list; at least one is JSON unless the file is ``named`` ``….seg.rating`` (a rater's file may open on many
    segments it did not rate)."""
    found = False
    for line in lines:
        cells = line.rstrip().split("\t")
        if len(cells) not in (2, 3) or not cells[0].strip():
            return False
        rating = cells[1].strip()
        if rating == "None":
            continue
        if not rating.startswith("{"):
            return False
        try:
            parsed = json.loads(rating)
        except (ValueError, RecursionError):
            return named  # a damaged rating in a named file: the reader names its line
        if not (isinstance(parsed, dict) and isinstance(parsed.get("errors"), list)):
            return named
        found = True
    return found or (named and bool(lines))


@functools.lru_cache(maxsize=4096)
def _weight(severity: str, category: str) -> float:
    return mqm_weight(severity, category)


def _error_score(error, label, number):
    """An error's own ``score`` as a finite float, or None when it has none."""
    score = error.get("score")
    return None if score is None else json_number(score, f"{label}, line {number}: an error's score")


def _rating_penalty(rating, label, number) -> tuple[float, int]:
    """(summed error weight, errors with neither a weighted severity nor a score) of one rating."""
    errors = rating.get("errors") if isinstance(rating, dict) else None
    if not isinstance(errors, list):
        raise ValueError(f'{label}, line {number}: a rating is a JSON object {{"errors": [...]}} (mt-metrics-eval\'s '
                         "ratings.Rating).")
    total, unweighted = 0.0, 0
    for error in errors:
        if not isinstance(error, dict):
            raise ValueError(f"{label}, line {number}: each error of a rating is a JSON object (start, end, "
                             "category, severity, …).")
        severity = str(error.get("severity") or "").strip()
        score = _error_score(error, label, number)
        if severity.lower() == "critical":
            severity = "major"  # as WMT24's humeval/tools.py and the Appraise reader weigh it
        if severity.lower() in KNOWN_SEVERITIES:
            total += _weight(severity, str(error.get("category") or ""))
        elif score is not None:
            # no severity with a weight, but the rater's or model's own score for the error: that is its weight
            total += abs(score)
        else:
            unweighted += 1
    return total, unweighted


def rating_name(name: str) -> str:
    """The ratings' name in ``<lp>.<name>.seg.rating`` (``mqm.rater1``, ``mqm.merged``), mt-metrics-eval's default
    rater of lines that name none; ``"ratings"`` when the file name does not say.

    Examples
    --------
    >>> rating_name("wmt22/human-scores/en-de.mqm.rater3.seg.rating"), rating_name("upload.tsv")
    ('mqm.rater3', 'ratings')
    """
    tokens = str(name).strip().replace("\\", "/").rsplit("/", 1)[-1].split(".")
    if len(tokens) >= 4 and MTME_RATING_NAME.search(str(name).strip()):
        return ".".join(tokens[1:-2])
    return "ratings"


def read_mtme_ratings(text, label, notes, name):
    """mt-metrics-eval's ``<lp>.<name>.seg.rating``: one judgment per rated line, minus its errors' MQM weights.

    Each line is ``system<TAB>rating<TAB>rater`` with the rating a JSON ``{"errors": [{"start", "end",
    "category", "severity", "score", "is_source_error"}, ...]}``, or ``system<TAB>None`` for a segment that was not
    rated (``ratings.ReadRatingFile``). As in ``data.ReadScoreFile``, a line's segment is its position within its
    system's lines, ``None`` lines included. A rating scores minus the summed weights of its errors (Freitag et al.
    2021, Table 2, matched as ``converters/score_mqm.py`` matches them: :func:`core.humaneval.mqm.mqm_weight`;
    "critical" weighs as major, as WMT24's ``humeval/tools.py`` weighs it; an error whose severity has no weight but
    that carries a ``score`` weighs that score's size); a line without a rater is the file's rating name's
    (``mqm.rater1``), as mt-metrics-eval's default rater.
    """
    default_rater = rating_name(name)
    systems, items, raters, scores = [], [], [], []
    position: dict[str, int] = {}
    unweighted = 0
    for number, line in enumerate(uploads.split_lines(text), 1):
        if not line.strip():
            continue
        cells = line.rstrip().split("\t")  # not lstrip: an empty system name is an error, not a shifted line
        if len(cells) not in (2, 3):
            raise ValueError(f"{label}, line {number}: expected 2 or 3 tab-separated fields (system, rating, rater), "
                             f"as mt-metrics-eval writes ratings; found {len(cells)}.")
        system = cells[0].strip()
        if not system:
            raise ValueError(f"{label}, line {number}: the system name is empty.")
        position[system] = position.get(system, 0) + 1
        systems.append(system)
        items.append(str(position[system]))
        rating = cells[1].strip()
        if rating == "None":
            raters.append(None)
            scores.append(math.nan)
            continue
        try:
            parsed = json.loads(rating)
        except (ValueError, RecursionError):
            raise ValueError(f"{label}, line {number}: the rating is neither JSON nor None.") from None
        penalty, missing = _rating_penalty(parsed, label, number)
        unweighted += missing
        rater = cells[2].strip() if len(cells) == 3 else ""
        raters.append(rater or default_rater)
        scores.append(-penalty)
    if not systems:
        raise ValueError(f"{label} has no ratings.")
    if unweighted:
        notes.append(f"{unweighted:,} error{'s have' if unweighted != 1 else ' has'} neither a severity with a "
                     f"weight nor a score; {'they weigh' if unweighted != 1 else 'it weighs'} 0, as in "
                     "mt-metrics-eval's score_mqm.py.")
    counts = pd.Series(systems).value_counts()
    if counts.nunique() > 1:
        notes.append(f"The systems have different numbers of lines ({counts.min():,}–{counts.max():,}); segments "
                     "are matched by their position within each system.")
    notes.append("Each line's segment is its position within its system's lines (mt-metrics-eval); each rating "
                 "scores minus the summed weights of its error spans (Freitag et al. 2021, Table 2: Major 5, Minor 1, "
                 "Minor Fluency/Punctuation 0.1, Non-translation 25, Neutral 0).")
    if ".esa" in f".{default_rater.lower()}":
        notes.append("ESA ratings hold the error spans only: their 0–100 scores are in the matching `.seg.score` "
                     "file; here the spans are scored with MQM's weights.")
    return (np.asarray(systems, dtype=object), np.asarray(items, dtype=object), np.asarray(raters, dtype=object),
            np.asarray(scores, dtype=float))

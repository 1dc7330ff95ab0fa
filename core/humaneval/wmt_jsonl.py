"""WMT's unified human-evaluation JSON lines (``wmt24-genmt-humeval.jsonl``; see :func:`core.humaneval.read_scores`).

Layout checked against github.com/wmt-conference/wmt24-news-systems, ``humeval/merge_to_jsonl.py``
(``convert_to_unified_format``): one record per segment, ``{"doc_id": "<lp>_#_<domain>_#_<document>_#_<line>",
"src_text": …, "tgt_text": {system: …}, "scores": {system: [{"score", "annotator", "errors", "times",
"protocol"}, …]}}``.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ._parse import json_number, name_by_pair

__all__ = ["looks_like_unified", "read_unified"]

#: The separator of the fields of a unified record's ``doc_id``.
DOC_SEPARATOR = "_#_"


def looks_like_unified(record) -> bool:
    """A record of the unified layout: a ``scores`` object of systems and a ``doc_id``."""
    return isinstance(record, dict) and isinstance(record.get("scores"), dict) and "doc_id" in record


def _protocol_of(name) -> str | None:
    key = str(name or "").strip().lower()
    if not key:
        return None
    if "mqm" in key:
        return "mqm"
    if key.startswith("esa"):
        return "esa"
    if "sqm" in key:
        return "da-sqm" if "da" in key else "sqm"
    if key.startswith("da"):
        return "da"
    return "scores"


def _score(value, label, number, system):
    """A score as a finite float (None: not rated), or a ValueError naming the record."""
    if value is None:
        return math.nan
    return json_number(value, f"{label}, record {number}: a score of system {system[:40]!r}")


def _finished(annotation) -> float:
    """When an annotation was finished (its ``times``' end), for keeping an annotator's latest rating."""
    times = annotation.get("times")
    try:
        return float(times[-1])
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        return -math.inf


def read_unified(records, label, notes, protocol=None):
    """(system, item, rater, score, protocol) of unified records: one judgment per annotation of a system's output.

    A segment is the record's ``doc_id`` (it holds the language pair, domain, document and line); systems are kept
    apart by the pair that opens it (:func:`core.humaneval._parse.name_by_pair`). Annotations name their protocol
    (``"ESA"``); when a file mixes several, those of ``protocol`` (else the most frequent) are read and the others
    counted in a note, since two protocols' scores are on different scales. An annotator who rated a system's
    segment twice counts once, with the rating finished last (``times``), as WMT24's ``humeval/tools.py`` keeps
    "the latest one".
    """
    rows, kinds = {}, Counter()
    repeated = 0
    for number, record in enumerate(records, 1):
        if not looks_like_unified(record):
            raise ValueError(f"{label}, record {number}: expected a `scores` object of systems and a `doc_id`, as in "
                             "WMT's unified human-evaluation JSON lines.")
        doc = record["doc_id"]
        if not isinstance(doc, (str, int)) or isinstance(doc, bool) or not str(doc).strip():
            raise ValueError(f"{label}, record {number}: the `doc_id` is empty or not text.")
        doc = str(doc).strip()
        for system, annotations in record["scores"].items():
            system = str(system).strip()
            if not system:
                raise ValueError(f"{label}, record {number}: a system name is empty.")
            if not isinstance(annotations, list):
                raise ValueError(f"{label}, record {number}: the scores of system {system[:40]!r} are not a list "
                                 "of annotations.")
            for annotation in annotations:
                if not isinstance(annotation, dict):
                    raise ValueError(f"{label}, record {number}: an annotation of system {system[:40]!r} is not "
                                     "an object with a score.")
                score = _score(annotation.get("score"), label, number, system)
                rater = annotation.get("annotator")
                if rater is not None and not isinstance(rater, (str, int)) or isinstance(rater, bool):
                    raise ValueError(f"{label}, record {number}: an annotator of system {system[:40]!r} is not a "
                                     "name.")
                rater = None if rater is None else str(rater).strip() or None
                kind = _protocol_of(annotation.get("protocol"))
                kinds[kind] += 1
                key = (system, doc, rater, kind) if rater is not None else (system, doc, len(rows), kind)
                finished = _finished(annotation)
                if key in rows:
                    repeated += 1
                    if finished < rows[key][1]:
                        continue
                rows[key] = (score, finished)
    if not rows:
        raise ValueError(f"{label} has no annotations.")
    named = [k for k in kinds if k is not None]
    if protocol is not None and protocol in named:
        chosen = protocol
    else:
        chosen = max(named, key=kinds.__getitem__) if named else None
    if protocol is not None and chosen is not None and protocol != chosen:
        notes.append(f"The file's annotations are {chosen.upper()}; they are read as {protocol.upper()}, as chosen.")
    if len(named) > 1:
        others = ", ".join(f"{kinds[k]:,} {k.upper()}" for k in named if k != chosen)
        notes.append(f"The file mixes protocols: its {kinds[chosen]:,} {chosen.upper()} annotation"
                     f"{'s are' if kinds[chosen] != 1 else ' is'} read and {others} left out (another scale); choose "
                     "the protocol to read the others.")
    if repeated:
        notes.append(f"{repeated:,} repeated rating{'s' if repeated != 1 else ''} of a system's segment by the same "
                     "annotator left out: the one finished last is kept, as WMT24's humeval/tools.py does.")
    kept = [(key, value) for key, value in rows.items() if key[3] in (chosen, None)]
    system = np.array([k[0] for k, _ in kept], dtype=object)
    item = np.array([k[1] for k, _ in kept], dtype=object)
    rater = np.array([k[2] if isinstance(k[2], str) else None for k, _ in kept], dtype=object)
    score = np.array([v[0] for _, v in kept], dtype=float)
    prefixed = np.array([DOC_SEPARATOR in d for d in item])
    if prefixed.all():
        pair = np.array([d.split(DOC_SEPARATOR, 1)[0] for d in item], dtype=object)
        if len(set(pair)) > 1:
            system, _ = name_by_pair(system, item, pair, notes)  # the doc_id names its pair already
    notes.append("Each record is a segment (its `doc_id`); each annotation of a system's output is a judgment with "
                 "its annotator (WMT's unified human-evaluation layout).")
    return system, item, rater, score, chosen or "scores"

"""WMT's unified human-evaluation JSON lines (``wmt24-genmt-humeval.jsonl``; see :func:`core.humaneval.read_scores`).

Layout checked against github.com/wmt-conference/wmt24-news-systems, ``humeval/merge_to_jsonl.py``
(``convert_to_unified_format``): one record per segment, ``{"doc_id": "<lp>_#_<domain>_#_<document>_#_<line>",
"src_text": …, "tgt_text": {system: …}, "scores": {system: [{"score", "annotator", "errors", "times",
"protocol"}, …]}}``.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter

import numpy as np

from ._parse import name_by_pair

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


def read_unified(records, label, notes, protocol=None):
    """(system, item, rater, score, protocol) of unified records: one judgment per annotation of a system's output.

    A segment is the record's ``doc_id`` (it holds the language pair, domain, document and line); systems are kept
    apart by the pair that opens it (:func:`core.humaneval._parse.name_by_pair`). Annotations name their protocol
    (``"ESA"``); when a file mixes several, those of ``protocol`` (else the most frequent) are read and the others
    counted in a note, since two protocols' scores are on different scales.
    """
    rows, kinds = [], Counter()
    for number, record in enumerate(records, 1):
        if not looks_like_unified(record):
            raise ValueError(f"{label}, record {number}: expected a `scores` object of systems and a `doc_id`, as in "
                             "WMT's unified human-evaluation JSON lines.")
        doc = str(record["doc_id"]).strip()
        if not doc:
            raise ValueError(f"{label}, record {number}: the `doc_id` is empty.")
        for system, annotations in record["scores"].items():
            if not isinstance(annotations, list):
                raise ValueError(f"{label}, record {number}: the scores of system {str(system)[:40]!r} are not a list "
                                 "of annotations.")
            for annotation in annotations:
                if not isinstance(annotation, dict):
                    raise ValueError(f"{label}, record {number}: an annotation of system {str(system)[:40]!r} is not "
                                     "an object with a score.")
                score = annotation.get("score")
                if score is not None and (isinstance(score, bool) or not isinstance(score, numbers.Real)):
                    raise ValueError(f"{label}, record {number}: a score of system {str(system)[:40]!r} is not a "
                                     f"number ({str(score)[:20]!r}).")
                kind = _protocol_of(annotation.get("protocol"))
                kinds[kind] += 1
                rater = annotation.get("annotator")
                rows.append((str(system).strip(), doc, None if rater is None else str(rater).strip(),
                             math.nan if score is None else float(score), kind))
    if not rows:
        raise ValueError(f"{label} has no annotations.")
    named = [k for k in kinds if k is not None]
    if protocol is not None and protocol in named:
        chosen = protocol
    else:
        chosen = max(named, key=kinds.__getitem__) if named else None
    if len(named) > 1:
        others = ", ".join(f"{kinds[k]:,} {k.upper()}" for k in named if k != chosen)
        notes.append(f"The file mixes protocols: its {kinds[chosen]:,} {chosen.upper()} annotation"
                     f"{'s are' if kinds[chosen] != 1 else ' is'} read and {others} left out (another scale); choose "
                     "the protocol to read the others.")
        rows = [r for r in rows if r[4] in (chosen, None)]
    system = np.array([r[0] for r in rows], dtype=object)
    item = np.array([r[1] for r in rows], dtype=object)
    rater = np.array([r[2] for r in rows], dtype=object)
    score = np.array([r[3] for r in rows], dtype=float)
    pair = np.array([d.split(DOC_SEPARATOR, 1)[0] if DOC_SEPARATOR in d else "" for d in item], dtype=object)
    if len(set(pair)) > 1:
        system, _ = name_by_pair(system, item, pair, notes)  # the doc_id names its pair already
    notes.append("Each record is a segment (its `doc_id`); each annotation of a system's output is a judgment with "
                 "its annotator (WMT's unified human-evaluation layout).")
    return system, item, rater, score, chosen or "scores"

"""Appraise's scores export (``manage.py ExportSystemScoresToCSV <campaign>``) as judgments.

The export has no header. Its columns (AppraiseDev/Appraise, ``EvalData/models/direct_assessment.py`` and
``direct_assessment_document.py``, ``get_system_data(extended_csv=True)``): annotator, system, item id, item type
(``TGT``; ``BAD``, ``REF``, ``CHK`` for quality control), source language, target language, score; then, for
document-level campaigns, document id and is-complete-document, followed by the MQM error spans in ESA and MQM
campaigns (not in document-level DA with context, ``direct_assessment_context.py``); then start and end times (and
batch number and item with ``--batch-info``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._parse import _labels, _read_frame, _scores, split_language_pairs
from .mqm import span_scores

__all__ = ["APPRAISE_TYPES", "read_appraise"]

#: Item types of an Appraise export: target segments and the quality-control items.
APPRAISE_TYPES = {"TGT", "BAD", "REF", "CHK"}


def read_appraise(text, label, notes, protocol):
    """(system, item, rater, score, protocol) of an Appraise export; see :func:`core.humaneval.read_scores`."""
    frame, lines = _read_frame(text, label, sep=",", width=None, header=None)
    width = frame.shape[1]
    frame.columns = [f"c{i}" for i in range(width)]
    kind = frame["c3"].astype(str).str.strip()
    unknown = ~kind.isin(APPRAISE_TYPES).to_numpy()
    if unknown.any():
        k = int(np.argmax(unknown))
        raise ValueError(f"{label}, line {int(lines[k]):,}: item type {kind.iloc[k][:20]!r} is not one of TGT, BAD, "
                         "REF, CHK (Appraise scores export: annotator, system, item id, item type, source and target "
                         "language, score, …).")
    # document-level campaigns: document id (c7) and is-complete-document (c8); the pairwise document export
    # (PairwiseAssessmentDocumentResult.get_system_data) has nothing after them unless extended, so 9 columns
    document = width >= 9 and frame["c8"].astype(str).str.strip().isin(["True", "False"]).all()
    keep = (kind == "TGT").to_numpy().copy()
    dropped = kind[~keep].value_counts()
    if len(dropped):
        notes.append("Quality-control rows left out: " + ", ".join(f"{n:,} {t}" for t, n in dropped.items())
                     + " (only target-segment rows, TGT, are judgments of the systems).")
    if document:
        whole = (frame["c8"].astype(str).str.strip() == "True").to_numpy()
        if (whole & keep).any():
            n_doc = int((whole & keep).sum())
            notes.append(f"{n_doc:,} whole-document judgment{'' if n_doc == 1 else 's'} left out (segment scores "
                         "only).")
        keep &= ~whole
        # WMT's own loader (wmt24-news-systems, humeval/merge_to_jsonl.py, load_line) leaves out the campaign's
        # control documents: repeated ("#dup"), unfinished ("#incomplete"), planted bad ("#bad") and tutorial ones
        doc = frame["c7"].astype(str).str.strip()
        control = (doc.str.endswith("#dup") | doc.str.endswith("#incomplete") | doc.str.endswith("#bad")
                   | doc.str.contains("-tutorial", regex=False)).to_numpy()
        if (control & keep).any():
            n_control = int((control & keep).sum())
            notes.append(f"{n_control:,} judgment{'' if n_control == 1 else 's'} of control documents left out "
                         "(repeated, unfinished, planted-bad and tutorial documents: '#dup', '#incomplete', '#bad', "
                         "'-tutorial'), as WMT's own loader does.")
        keep &= ~control
    frame, lines = frame[keep].reset_index(drop=True), lines[keep]
    if frame.empty:
        raise ValueError(f"{label} has no target-segment (TGT) rows.")
    system = _labels(frame["c1"], lines, label, "system")
    rater = _labels(frame["c0"], lines, label, "annotator")
    item = _labels(frame["c2"], lines, label, "item id")
    system, item = split_language_pairs(system, item, frame["c4"].to_numpy(), frame["c5"].to_numpy(), notes)
    fmt_protocol = "da"
    score = _scores(frame["c6"], lines, label, "score")
    if document:
        # the document id reads "<document>#<system>"; the segment is (document, item id), the same for all systems
        doc = frame["c7"].astype(str).str.strip()
        base = doc.str.rsplit("#", n=1).str[0].where(doc.str.contains("#", regex=False), doc).to_numpy(object)
        item = (pd.Series(base, dtype=object) + "#" + pd.Series(item, dtype=object)).to_numpy(object)
        # document-level DA with context has no error-span column: there, column 10 is the start time
        cells = frame["c9"].astype(str).str.strip() if width >= 10 else pd.Series([], dtype=object)
        with_spans = width >= 10 and bool(cells.str.match(r"^(?:\[|\{|None$|$)").all())
        spans, typed = span_scores(cells, lines, label) if with_spans else (None, False)
        has_spans = with_spans and bool((~cells.isin(["", "[]", "None"])).any())
        if protocol == "mqm" and not with_spans:
            raise ValueError(f"{label} has no error spans to score as MQM (an Appraise export without the MQM "
                             "column).")
        if protocol == "mqm" or (protocol is None and typed):
            score = spans
            fmt_protocol = "mqm"
            notes.append("MQM campaign (error spans with error types): each score is minus the summed weights of "
                         "its error spans (Freitag et al. 2021, Table 2: Major 5, Minor 1, Minor punctuation 0.1, "
                         "Neutral 0); the slider score is ignored.")
        elif has_spans or protocol == "esa":
            fmt_protocol = "esa"
            notes.append("ESA campaign (error spans without types): scores are the annotators' 0–100 ratings.")
    if protocol == "mqm" and fmt_protocol != "mqm":  # a segment-level export has no span column at all
        raise ValueError(f"{label} has no error spans to score as MQM (an Appraise export without the MQM column); "
                         "its 0–100 scores are not MQM scores.")
    return system, item, rater, score, fmt_protocol

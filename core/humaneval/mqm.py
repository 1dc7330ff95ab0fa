"""MQM error weights: segment scores from error annotations (Freitag et al. 2021).

A segment's MQM score from one rater is minus the sum of the weights of the errors that rater marked
(Freitag et al. 2021, "Experts, Errors, and Context", TACL 9, §3.3 and Table 2): Major 5, Minor 1, Neutral 0,
with two exceptions — a Major ``Non-translation!`` error weighs 25 (five Major errors) and a Minor
``Fluency/Punctuation`` error 0.1. ``No-error`` rows weigh 0. The weights are matched as mt-metrics-eval's
``converters/score_mqm.py`` matches them: ``severity[/category[/subcategory]]``, case-insensitively, the most
specific match applies, and an error that matches nothing (an unknown severity) weighs 0.
"""

from __future__ import annotations

import ast
import json
import re

import numpy as np
import pandas as pd

__all__ = ["MQM_WEIGHTS", "mqm_weight", "error_weights", "span_scores"]

#: Error weights of Freitag et al. (2021), Table 2, as ``severity[/category[/subcategory]]`` (lower case).
MQM_WEIGHTS = {
    "major": 5.0,
    "minor": 1.0,
    "neutral": 0.0,
    "major/non-translation!": 25.0,
    "minor/fluency/punctuation": 0.1,
}
#: Severities with a weight (other severities, e.g. ``No-error``, weigh 0).
KNOWN_SEVERITIES = ("major", "minor", "neutral", "no-error")


def mqm_weight(severity: str, category: str = "", *, weights=None) -> float:
    """The weight of one error: the most specific ``severity[/category[/subcategory]]`` entry of ``weights``.

    Examples
    --------
    >>> mqm_weight("Major", "Non-translation!"), mqm_weight("Minor", "Fluency/Punctuation"), mqm_weight("No-error")
    (25.0, 0.1, 0.0)
    """
    weights = MQM_WEIGHTS if weights is None else weights
    parts = [str(severity).strip().lower()] + [p.strip().lower() for p in str(category).split("/") if p.strip()]
    while parts:
        key = "/".join(parts)
        if key in weights:
            return float(weights[key])
        parts = parts[:-1]
    return 0.0


def error_weights(severity: pd.Series, category: pd.Series) -> np.ndarray:
    """Vectorised :func:`mqm_weight`: one lookup per distinct (severity, category) pair."""
    pairs = pd.DataFrame({"s": severity.astype(str).to_numpy(), "c": category.astype(str).to_numpy()})
    codes, uniques = pd.factorize(pd.MultiIndex.from_frame(pairs))
    table = np.array([mqm_weight(s, c) for s, c in uniques], dtype=float)
    return table[codes]


# Appraise spans: {"start_i": …, "end_i": …, "severity": "minor"|"major"|"neutral", "error_type": [...] or null}
# (EvalView/static/EvalView/js/direct-assessment-document-mqm-esa.js: SEVERITY_TO_SCORE major 5, minor 1, neutral 0).
# Real exports also hold "undecided" spans (WMT24's ESA waves: the annotator marked a span and chose no severity;
# they weigh 0, as neutral) and "critical" ones, weighed as major as WMT24's own humeval/tools.py does.
_SPAN_SEVERITIES = {"major", "minor", "neutral", "critical", "undecided"}
_SEVERITY_AS = {"critical": "major", "undecided": "neutral"}
#: Appraise's MQM 2.0 category for punctuation (``Linguistic conventions > Punctuation``) is Freitag et al.'s
#: ``Fluency/Punctuation``; it gets the same 0.1 weight when Minor.
_PUNCTUATION = {"fluency/punctuation", "linguistic conventions/punctuation"}


#: A Python literal's single-quoted string without quotes or escapes inside, or one of its constants: the parts
#: that differ from JSON in the span lists Appraise stores (``[{'start_i': 3, 'severity': 'minor', 'error_type':
#: None}]``). The alternation scans left to right, so a constant's name inside a string is part of that string.
_PY_LITERAL_PARTS = re.compile(r"'([^'\"\\]*)'|\b(None|True|False)\b")
_PY_CONSTANTS = {"None": "null", "True": "true", "False": "false"}


def _as_json(text: str) -> str:
    """A Python literal in JSON's spelling, for the parts :data:`_PY_LITERAL_PARTS` matches; for a text without
    double quotes or backslashes (the caller's condition), where single quotes pair up unambiguously. Anything else
    Python spells differently (tuples, ``nan``) keeps its spelling, so JSON refuses it and the caller falls back to
    :func:`ast.literal_eval`."""
    return _PY_LITERAL_PARTS.sub(lambda m: f'"{m.group(1)}"' if m.group(2) is None else _PY_CONSTANTS[m.group(2)],
                                 text)


def _parse_spans(text: str):
    """A JSON list of spans, or the Python literal MakeAnnotation stores (parsed as a literal, never evaluated)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        if len(text) > 100_000:
            raise ValueError("the error spans are too long") from None
        value = None
        if '"' not in text and "\\" not in text:
            # without double quotes or escapes every string is single-quoted and holds no quote, so the quotes pair
            # up unambiguously: the literal in JSON's spelling parses about three times faster than
            # ast.literal_eval (a 19 MB export of such spans took 6–12 s); what it cannot translate falls through to
            # the literal parser
            try:
                value = json.loads(_as_json(text))
            except (json.JSONDecodeError, RecursionError):
                value = None
        try:
            value = ast.literal_eval(text) if value is None else value
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise ValueError("the error spans are not a JSON list") from None
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError("the error spans are not a list of objects")
    return value


def span_scores(cells: pd.Series, lines: np.ndarray, name: str) -> tuple[np.ndarray, bool]:
    """Minus the summed weights of each row's Appraise error spans; and whether any span carries an error type.

    Raises
    ------
    ValueError
        For spans that are not a JSON list of objects, or a severity other than major, minor, neutral, critical
        (weighed as major) or undecided (weight 0) — the message names the file and the line.
    """
    text = cells.astype(str).str.strip()
    scores = np.zeros(len(text))
    typed = False
    busy = np.flatnonzero(~text.isin(["", "[]", "None", "nan"]).to_numpy())
    for k in busy:
        try:
            spans = _parse_spans(text.iloc[k])
        except ValueError as err:
            raise ValueError(f"{name}, line {int(lines[k]):,}: {err} ({text.iloc[k][:40]!r}).") from None
        total = 0.0
        for span in spans:
            severity = str(span.get("severity", "")).strip().lower()
            if severity not in _SPAN_SEVERITIES:
                raise ValueError(f"{name}, line {int(lines[k]):,}: an error span has severity {severity[:20]!r}; "
                                 "only major (or critical), minor, neutral and undecided spans have a weight "
                                 "(Freitag et al. 2021, Table 2).")
            severity = _SEVERITY_AS.get(severity, severity)
            kind = span.get("error_type")
            category = "/".join(str(x) for x in kind) if isinstance(kind, (list, tuple)) else str(kind or "")
            typed = typed or bool(category)
            if severity == "minor" and category.strip().lower() in _PUNCTUATION:
                total += MQM_WEIGHTS["minor/fluency/punctuation"]
            else:
                total += mqm_weight(severity, category)
        scores[k] = -total
    return scores, typed

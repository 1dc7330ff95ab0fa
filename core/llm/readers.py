"""Readers of per-answer logs and lm-evaluation-harness samples files (bytes in; nothing is executed).

Part of :mod:`core.llm` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import uploads
from ..runnable import task_from_file_name
from ..validation import check_choice, check_real
from ._common import FILES_PER_MODEL, SAMPLE_DIR

__all__ = [
    "HarnessOptions",
    "read_benchmark_log",
    "read_harness_samples",
    "harness_options",
    "sample_log",
    "sample_harness_files",
    "difficulty_from_covariance",
]


# ---------------------------------------------------------------------------
# readers (bytes in; nothing in a file is executed)
# ---------------------------------------------------------------------------
_ALIASES = {
    "question": ("question", "question_id", "doc_id", "item", "item_id"),
    "model": ("model", "model_name", "system"),
    "score": ("score", "correct", "is_correct"),
    "sample": ("sample", "sample_id", "repeat", "run"),
    "cluster": ("cluster", "cluster_id", "group", "passage"),
}
_TRUE, _FALSE = frozenset({"true", "yes"}), frozenset({"false", "no"})


def _find_columns(columns: Sequence[str], name: str) -> dict[str, str]:
    return uploads.find_columns(columns, _ALIASES, ("question", "model", "score"), name=name)


def _parse_scores(cells: pd.Series, name: str, where: Callable[[int], str]) -> np.ndarray:
    values = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float, copy=True)
    words = np.flatnonzero(np.isnan(values))
    if len(words):  # true/false/yes/no, any capitalisation
        lower = cells.iloc[words].astype(str).str.strip().str.lower()
        values[words[lower.isin(_TRUE).to_numpy()]] = 1.0
        values[words[lower.isin(_FALSE).to_numpy()]] = 0.0
    bad = ~np.isfinite(values) | (values < 0) | (values > 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name}, {where(i)}: `score` must be a number in [0, 1] or true/false, "
                         f"got {cells.iloc[i]!r}.")
    return values


def _tidy(frame: pd.DataFrame, roles: dict[str, str], name: str, where: Callable[[int], str]) -> pd.DataFrame:
    """Columns of stripped strings (``frame``) → the tidy log, with its checks."""
    out = {}
    for role in ("question", "cluster", "model"):
        if role not in roles:
            continue
        cells = frame[roles[role]]
        empty = (cells == "").to_numpy()
        if empty.any():
            raise ValueError(f"{name}, {where(int(np.argmax(empty)))}: `{roles[role]}` is empty.")
        out[role] = cells.to_numpy()
    if "sample" in roles:
        out["sample"] = frame[roles["sample"]].to_numpy()
    out["score"] = _parse_scores(frame[roles["score"]], name, where)
    tidy = pd.DataFrame(out)
    if "sample" in roles:
        dup = tidy.duplicated(["question", "model", "sample"], keep=False).to_numpy()
        if dup.any():
            first = int(np.argmax(dup))
            row = tidy.iloc[first]
            same = np.flatnonzero(dup & (tidy["question"] == row["question"]).to_numpy()
                                  & (tidy["model"] == row["model"]).to_numpy()
                                  & (tidy["sample"] == row["sample"]).to_numpy())
            raise ValueError(f"{name}: {where(int(same[0]))} and {where(int(same[1]))} both give question "
                             f"{row['question']!r}, model {row['model']!r}, sample {row['sample']!r}.")
    else:
        tidy["sample"] = tidy.groupby(["question", "model"], sort=False).cumcount()
    if "cluster" in tidy.columns:
        pairs = tidy.drop_duplicates(["question", "cluster"])
        clash = pairs["question"].duplicated().to_numpy()
        if clash.any():
            q = pairs["question"].to_numpy()[clash][0]
            raise ValueError(f"{name}: question {q!r} appears in more than one cluster.")
    columns = ["question"] + (["cluster"] if "cluster" in tidy.columns else []) + ["model", "sample", "score"]
    return tidy[columns]


def _given_columns(columns, available, name: str) -> dict[str, str]:
    """A ``columns=`` mapping (role → column) checked against the file's columns."""
    if not isinstance(columns, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in columns.items()):
        raise ValueError("`columns` must map roles to column names, e.g. {'question': 'doc_id', 'score': 'acc'}.")
    unknown = [r for r in columns if r not in _ALIASES]
    if unknown:
        raise ValueError(f"`columns`: unknown role {unknown[0]!r}; the roles are {', '.join(_ALIASES)}.")
    absent = [f"{c!r} (for {r})" for r, c in columns.items() if c not in set(available)]
    if absent:
        raise ValueError(f"{name} has no column {', '.join(absent)}; it has {', '.join(map(str, available))}.")
    missing = [r for r in ("question", "model", "score") if r not in columns]
    if missing:
        raise ValueError(f"`columns` needs the roles question, model and score; missing {', '.join(missing)}.")
    if len(set(columns.values())) != len(columns):
        raise ValueError("`columns` uses one column for two roles.")
    return dict(columns)


def read_benchmark_log(data, *, name: str = "The log", columns=None) -> pd.DataFrame:
    """Read a per-answer log: CSV/TSV (header required) or JSON Lines.

    Parameters
    ----------
    data : bytes
        The file. Columns (case-insensitive): ``question``, ``model``,
        ``score`` (a number in [0, 1], or true/false/yes/no), optional
        ``sample`` and ``cluster``. Also accepted: question_id/doc_id/item,
        model_name/system, correct/is_correct, sample_id/repeat/run,
        cluster_id/group/passage.
    name : str, optional
        How messages call the file.

    Returns
    -------
    pandas.DataFrame
        ``question, [cluster,] model, sample, score`` (strings, and float
        scores), the input of :func:`fit_benchmark`. Without a ``sample``
        column the answers of a question and model are numbered 0, 1, … in
        file order.

    Raises
    ------
    ValueError
        For an unreadable or oversized file (see :mod:`core.uploads`), missing
        columns (or a ``columns`` mapping — role → column name for
        ``question``, ``model``, ``score`` and optionally ``sample``,
        ``cluster`` — naming a column the file lacks), an empty cell, a
        score that is not in [0, 1] (the message
        names the row after the header, or the JSON record), a repeated
        (question, model, sample), or a question in two clusters.

    Examples
    --------
    >>> read_benchmark_log(b"question,model,score\\nq1,A,1\\nq1,A,0\\nq1,B,true\\n")
      question model  sample  score
    0       q1     A       0    1.0
    1       q1     A       1    0.0
    2       q1     B       0    1.0
    """
    if uploads.looks_like_json(data):
        records = uploads.read_jsonl(data, name=name)
        keys = list(dict.fromkeys(k for rec in records[:1000] for k in rec))
        roles = _find_columns(keys, name) if columns is None else _given_columns(columns, keys, name)
        columns = {}
        for key in roles.values():
            values = []
            for number, rec in enumerate(records, start=1):
                if key not in rec:
                    raise ValueError(f"{name}, record {number:,}: no `{key}` field.")
                value = rec[key]
                if isinstance(value, (dict, list)) or value is None:
                    raise ValueError(f"{name}, record {number:,}: `{key}` must be a single value, got {value!r}.")
                if isinstance(value, bool):
                    value = "true" if value else "false"
                values.append(value.strip() if isinstance(value, str) else str(value))
            columns[key] = pd.Series(values, dtype=object)
        frame = pd.DataFrame(columns)
        return _tidy(frame, roles, name, lambda i: f"record {i + 1:,}")
    table = uploads.read_table(data, name=name, min_columns=2, header="yes")
    roles = (_find_columns(list(table.columns), name) if columns is None
             else _given_columns(columns, list(table.columns), name))
    return _tidy(table, roles, name, lambda i: f"row {i + 1:,} after the header")


# ----- lm-evaluation-harness ------------------------------------------------
_HARNESS_KEYS = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
                           "doc_hash", "prompt_hash", "target_hash", "task_name"})


@dataclass(frozen=True)
class HarnessOptions:
    """What a set of lm-evaluation-harness sample files offers (to fill the page's selectors).

    Attributes
    ----------
    models : tuple of str
        Model names in the order given (the first is the baseline).
    metrics : tuple of str
        Per-sample metrics present on every line of every file with values in
        [0, 1] (or true/false), e.g. ``("acc", "acc_norm")``.
    filters : tuple of str
        Filter pipelines found (``"none"`` when the lines have no ``filter``).
    n_lines : int
        Lines read.
    """

    models: tuple[str, ...]
    metrics: tuple[str, ...]
    filters: tuple[str, ...]
    n_lines: int


def _harness_entries(files) -> list[tuple[str, str, bytes]]:
    """Normalise the inputs to (model, label, bytes) in order."""
    def one(model, item, index):
        if not isinstance(model, str) or not model.strip():
            raise ValueError(f"Model names must be non-empty strings, got {model!r}.")
        if isinstance(item, (bytes, bytearray, memoryview)):
            return (model.strip(), None, bytes(item))
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            return (model.strip(), item[0], item[1])
        raise ValueError(f"File {index} of model {model!r} must be bytes or (file_name, bytes).")

    entries = []
    if isinstance(files, Mapping):
        for model, value in files.items():
            items = value if isinstance(value, list) else [value]
            entries += [one(model, item, i + 1) for i, item in enumerate(items)]
    elif isinstance(files, (list, tuple)):
        for i, item in enumerate(files, start=1):
            if not isinstance(item, (list, tuple)) or len(item) not in (2, 3):
                raise ValueError(f"Entry {i} of `files` must be (model, bytes) or (model, file_name, bytes).")
            entries.append(one(item[0], item[1], i) if len(item) == 2 else one(item[0], (item[1], item[2]), i))
    else:
        raise ValueError("`files` must map model names to file bytes, or list (model, bytes) pairs.")
    if not entries:
        raise ValueError("`files` is empty: give one lm-evaluation-harness samples file per model.")
    labelled, counts = [], {}
    for model, label, data in entries:
        counts[model] = counts.get(model, 0) + 1
        labelled.append((model, label or f"{model} file {counts[model]}", data))
    models = list(dict.fromkeys(e[0] for e in labelled))
    if len(models) != 2:
        raise ValueError(f"Give the samples files of exactly two models (baseline and new); got {len(models)}: "
                         + ", ".join(repr(m) for m in models) + ".")
    return labelled


def _line_of(data: bytes, record: int) -> int:
    """1-based line number of the record-th (1-based) non-blank line (error path only)."""
    seen = 0
    for number, line in enumerate(uploads.split_lines(bytes(data).decode("utf-8-sig", errors="replace")), start=1):
        if line.strip():
            seen += 1
            if seen == record:
                return number
    return record


def _metric_value(value) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)) and math.isfinite(value) and 0.0 <= value <= 1.0:
        return float(value)
    return None


def _name_unnamed_filters(records) -> None:
    """Files that repeat each doc_id once per filter pipeline without a ``filter`` key: name them "pipeline k".

    Some harness versions write one line per (document, filter) but leave
    out ``filter``; the k-th line of a document then belongs to the k-th
    pipeline of the task's ``filter_list`` (e.g. gsm8k: strict-match, then
    flexible-extract). Files with a ``filter`` key, or without repeats, are
    left as they are (a repeated doc_id there stays an error).
    """
    if any("filter" in rec for rec in records):
        return
    seen: dict = {}
    for rec in records:
        doc_id = rec.get("doc_id")
        if isinstance(doc_id, (int, str)) and not isinstance(doc_id, bool):
            seen[doc_id] = seen.get(doc_id, 0) + 1
    if not seen or max(seen.values()) < 2:
        return
    counts = set(seen.values())
    if len(counts) != 1:
        return  # uneven repeats are not a per-filter layout: the duplicate check reports them
    occurrence: dict = {}
    for rec in records:
        doc_id = rec.get("doc_id")
        occurrence[doc_id] = occurrence.get(doc_id, 0) + 1
        rec["filter"] = f"pipeline {occurrence[doc_id]}"


def _scan_harness(entries):
    """Parse every file once: records, filters and the metrics valid on every line."""
    parsed, filters, metric_sets, n_lines = [], {}, None, 0
    for model, label, data in entries:
        records = uploads.read_jsonl(data, name=f"`{label}`")
        if not records:
            raise ValueError(f"`{label}` has no records.")
        n_lines += len(records)
        _name_unnamed_filters(records)
        valid = None
        for number, rec in enumerate(records, start=1):
            if "doc_id" not in rec:
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: no `doc_id` field — is this an "
                                 "lm-evaluation-harness samples_<task>_<date>.jsonl file (written with --log_samples)?")
            doc_id = rec["doc_id"]
            if isinstance(doc_id, bool) or not isinstance(doc_id, (int, str)):
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: `doc_id` must be an integer or a "
                                 f"string, got {doc_id!r}.")
            flt = rec.get("filter", "none")
            if not isinstance(flt, str):
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: `filter` must be a string, "
                                 f"got {flt!r}.")
            filters.setdefault(flt, None)
            names = rec.get("metrics")
            keys = names if isinstance(names, list) and all(isinstance(k, str) for k in names) \
                else [k for k in rec if k not in _HARNESS_KEYS]
            good = {k for k in keys if _metric_value(rec.get(k)) is not None}
            valid = good if valid is None else valid & good
        metric_sets = valid if metric_sets is None else metric_sets & valid
        parsed.append((model, label, data, records))
    return parsed, tuple(filters), tuple(sorted(metric_sets or ())), n_lines


def harness_options(files) -> HarnessOptions:
    """Models, usable metrics and filters of lm-evaluation-harness sample files (see :func:`read_harness_samples`).

    Examples
    --------
    >>> line = b'{"doc_id": 0, "filter": "none", "metrics": ["acc", "acc_norm"], "acc": 1.0, "acc_norm": 0.0}'
    >>> harness_options({"base": line, "new": line})
    HarnessOptions(models=('base', 'new'), metrics=('acc', 'acc_norm'), filters=('none',), n_lines=2)
    """
    entries = _harness_entries(files)
    _, filters, metrics, n_lines = _scan_harness(entries)
    return HarnessOptions(tuple(dict.fromkeys(e[0] for e in entries)), metrics, filters, n_lines)


def _task_of(label: str, index: int) -> str:
    """The task of a harness file (:func:`core.runnable.task_from_file_name`, which the item list shares)."""
    return task_from_file_name(label, index)


def read_harness_samples(files, *, metric=None, filter=None, files_per_model="runs") -> pd.DataFrame:
    """Read lm-evaluation-harness ``--log_samples`` files of two models into a per-answer log.

    Parameters
    ----------
    files : mapping or sequence
        ``{model: bytes}``, ``{model: [bytes, …]}`` or ``{model: (file_name, bytes)}``,
        or a list of ``(model, bytes)`` / ``(model, file_name, bytes)``. Exactly
        two models; the first is the baseline A. One file per model is the
        usual case.
    metric : str, optional
        The per-sample metric to use as the score (``acc``, ``acc_norm``,
        ``exact_match``, …; values in [0, 1] or true/false). Default: the only
        metric present on every line, else a message listing the candidates.
    filter : str, optional
        The filter pipeline whose lines to use (``"none"``, ``"strict-match"``,
        ``"flexible-extract"``, ``"maj@64"``, …). Required when the files
        contain more than one.
    files_per_model : {"runs", "tasks"}, optional
        What several files of one model are: ``"runs"`` — repeated runs of the
        same task (e.g. different seeds at temperature > 0), numbered as
        samples 0, 1, …; ``"tasks"`` — different tasks (e.g. MMLU subjects),
        which become clusters: questions ``"<task>/<doc_id>"`` with the task
        from the file name ``samples_<task>_<date>.jsonl`` (else the name, else
        the position), matched across models by task.

    Returns
    -------
    pandas.DataFrame
        ``question, [cluster,] model, sample, score``, the input of
        :func:`fit_benchmark`; ``.attrs`` holds ``metric``, ``filter`` and
        ``notes`` (e.g. documents whose ``doc_hash`` differs between models).
        doc_ids present for only one model are kept; :func:`fit_benchmark`
        drops them with a note.

    Raises
    ------
    ValueError
        For an unreadable file or a line that is not JSON (naming the file and
        line), a line without ``doc_id``, a metric that is missing or not a
        number in [0, 1] on some line (naming it), an ambiguous metric or filter
        (listing the choices), a doc_id repeated within a file and filter,
        or not exactly two models.

    Notes
    -----
    Format (checked against EleutherAI/lm-evaluation-harness at commit
    4e7e0d4, ``lm_eval/evaluator.py`` and ``lm_eval/loggers/evaluation_tracker.py``
    ``save_results_samples``; ``docs/interface.md`` for ``--log_samples``):
    each task's samples go to ``samples_<task>_<date>.jsonl``, one JSON
    object per line and per (document, filter pipeline), with keys
    ``doc_id, doc, target, arguments, resps, filtered_resps, filter, metrics,
    doc_hash, prompt_hash, target_hash`` and then one key per metric returned
    by the task's ``process_results`` (e.g. ``"acc": 1.0, "acc_norm": 0.0``
    or ``"exact_match": 0.0``); ``metrics`` lists those names. Older files
    may lack ``filter``/``metrics`` (then ``filter`` is taken as ``"none"``
    and metric candidates are the numeric keys that are not bookkeeping);
    files that lack ``filter`` but repeat every doc_id once per pipeline
    get the pipelines ``"pipeline 1"``, ``"pipeline 2"``, … in line order
    (the order of the task's ``filter_list``). Files written as one
    (pretty-printed) JSON array, as harness 0.4.0–0.4.2 did, are read too,
    whatever their extension. With ``repeats: K`` in a task's YAML (``docs/task_guide.md``), the K
    generations sit in ``resps`` but a filter pipeline (``take_first``,
    ``majority_vote``, ``maj@64``, …) reduces them to one scored answer per
    document and filter, so a single file carries one score per question;
    per-answer scores for K > 1 come from K runs (``files_per_model="runs"``).

    Examples
    --------
    >>> line = '{{"doc_id": {}, "filter": "none", "metrics": ["exact_match"], "exact_match": {}}}'
    >>> a = "\\n".join(line.format(i, s) for i, s in enumerate([1.0, 0.0, 1.0])).encode()
    >>> b = "\\n".join(line.format(i, s) for i, s in enumerate([1.0, 1.0, 1.0])).encode()
    >>> log = read_harness_samples({"base": a, "new": b})
    >>> log.attrs["metric"], log.score.tolist()
    ('exact_match', [1.0, 0.0, 1.0, 1.0, 1.0, 1.0])
    """
    entries = _harness_entries(files)
    files_per_model = check_choice("files_per_model", files_per_model, FILES_PER_MODEL)
    parsed, filters, candidates, _ = _scan_harness(entries)
    if filter is None:
        if len(filters) > 1:
            raise ValueError("The files contain several filter pipelines (" + ", ".join(map(repr, filters))
                             + "); choose one with `filter`.")
        filter = filters[0]
    elif filter not in filters:
        raise ValueError(f"`filter` {filter!r} is not in the files; they have " + ", ".join(map(repr, filters)) + ".")
    if metric is None:
        if len(candidates) != 1:
            if not candidates:
                raise ValueError("No per-sample metric with values in [0, 1] is present on every line; "
                                 "name one with `metric` (the message will say which line lacks it).")
            raise ValueError("Several per-sample metrics could be the score (" + ", ".join(map(repr, candidates))
                             + "); choose one with `metric`.")
        metric = candidates[0]
    elif not isinstance(metric, str) or not metric:
        raise ValueError(f"`metric` must be a metric name such as 'acc' or 'exact_match', got {metric!r}.")

    rows_q, rows_c, rows_m, rows_s, rows_y = [], [], [], [], []
    hashes: dict[str, dict[str, str]] = {}
    position: dict[str, int] = {}
    tasks_seen: dict[str, set] = {}
    for model, label, data, records in parsed:
        index = position[model] = position.get(model, -1) + 1
        task = None
        if files_per_model == "tasks":
            task = _task_of(label, index + 1)
            if task in tasks_seen.setdefault(model, set()):
                raise ValueError(f"Two files of model {model!r} are both task {task!r}; with "
                                 "files_per_model='tasks' give one file per task.")
            tasks_seen[model].add(task)
        sample = 0 if task is not None else index
        seen: dict = {}
        for number, rec in enumerate(records, start=1):
            if rec.get("filter", "none") != filter:
                continue
            doc_id = rec["doc_id"]
            if doc_id in seen:
                raise ValueError(f"`{label}`: doc_id {doc_id!r} appears twice for filter {filter!r} "
                                 f"(lines {_line_of(data, seen[doc_id]):,} and {_line_of(data, number):,}).")
            seen[doc_id] = number
            if metric not in rec:
                fields = ", ".join(k for k in rec if k not in _HARNESS_KEYS) or "none"
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: no `{metric}` field "
                                 f"(metric fields on that line: {fields}).")
            value = _metric_value(rec[metric])
            if value is None:
                raise ValueError(f"`{label}`, line {_line_of(data, number):,}: `{metric}` is {rec[metric]!r}; "
                                 "expected a number in [0, 1] or true/false.")
            question = str(doc_id) if task is None else f"{task}/{doc_id}"
            rows_q.append(question)
            rows_c.append(task)
            rows_m.append(model)
            rows_s.append(sample)
            rows_y.append(value)
            doc_hash = rec.get("doc_hash")
            if isinstance(doc_hash, str):
                hashes.setdefault(model, {}).setdefault(question, doc_hash)
        if not seen:
            raise ValueError(f"`{label}` has no lines for filter {filter!r}.")
    frame = pd.DataFrame({"question": rows_q, "cluster": rows_c, "model": rows_m, "sample": rows_s,
                          "score": np.asarray(rows_y, dtype=float)})
    if files_per_model == "runs":
        frame = frame.drop(columns="cluster")
    notes = [f"Score: metric `{metric}`, filter `{filter}`."]
    models = list(dict.fromkeys(e[0] for e in entries))
    if len(hashes) == 2:
        ha, hb = hashes.get(models[0], {}), hashes.get(models[1], {})
        shared = ha.keys() & hb.keys()
        differ = sum(ha[q] != hb[q] for q in shared)
        if differ:
            notes.append(f"doc_hash differs between the models for {differ:,} of {len(shared):,} shared documents: "
                         "check that both files come from the same task and dataset version.")
    frame.attrs.update({"metric": metric, "filter": filter, "notes": notes})
    return frame


def difficulty_from_covariance(covariance, accuracy_a, accuracy_b, *, prefer_sd=0.25, sd_step=0.01, rho_step=0.05,
                               rho_range=(-0.5, 1.0), sd_max=0.5) -> tuple[float, float]:
    """σ and ρ on the sliders' grids with ρσ² as close as possible to the covariance of the logs.

    With one answer per question (K = 1) the per-question variance of the
    paired difference is μ_A(1 − μ_A) + μ_B(1 − μ_B) − 2ρσ² (perfect judge;
    :func:`benchmark_power`'s variance with K = 1), so only the covariance
    ρσ² is identified, not σ and ρ apart. Any pair with the same product
    plans the same K = 1 evaluation; this picks the grid pair whose product
    is closest to ``covariance`` (σ² ≤ min μ(1 − μ), ρ in ``rho_range``),
    and among equally close pairs the σ nearest ``prefer_sd`` (the value the
    user had). Plans with K > 1 need σ itself: log several answers per question.

    Returns
    -------
    (float, float)
        (σ, ρ).

    Examples
    --------
    >>> difficulty_from_covariance(0.03, 0.7, 0.75, prefer_sd=0.25)
    (0.2, 0.75)
    """
    cov = check_real("covariance", covariance, low=-1.0, high=1.0)
    mu_a = check_real("accuracy_a", accuracy_a, low=0.0, high=1.0)
    mu_b = check_real("accuracy_b", accuracy_b, low=0.0, high=1.0)
    cap = min(sd_max, math.sqrt(min(mu_a * (1 - mu_a), mu_b * (1 - mu_b))))
    sds = np.round(np.arange(0.0, cap + 1e-12, sd_step), 10)
    rhos = np.round(np.arange(rho_range[0], rho_range[1] + 1e-12, rho_step), 10)
    gap = np.abs(rhos[None, :] * sds[:, None] ** 2 - cov)
    best = gap.min()
    rows, cols = np.nonzero(gap <= best + 1e-12)
    pick = int(np.argmin(np.abs(sds[rows] - prefer_sd) + 1e-9 * np.abs(rhos[cols])))
    return float(sds[rows[pick]]), float(rhos[cols[pick]]) + 0.0  # + 0.0: no "-0.0"


# ---------------------------------------------------------------------------
# the shipped synthetic example
# ---------------------------------------------------------------------------
def sample_log() -> pd.DataFrame:
    """The synthetic worked example (``core/data/llm_sample/benchmark_log.csv``), read like an upload."""
    path = SAMPLE_DIR / "benchmark_log.csv"
    return read_benchmark_log(path.read_bytes(), name=f"`{path.name}`")


def sample_harness_files() -> list[tuple[str, str, bytes]]:
    """The synthetic lm-evaluation-harness-shaped demo: ``[(model, file_name, bytes), …]``, two runs per model."""
    out = []
    for model in ("synthetic-baseline", "synthetic-candidate"):
        for path in sorted((SAMPLE_DIR / "harness" / model).glob("*.jsonl")):
            out.append((model, path.name, path.read_bytes()))
    return out




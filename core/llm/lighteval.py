"""lighteval's per-sample details (``details_<task>_<date>.parquet``) as per-answer logs: bytes in, nothing executed.

Part of :mod:`core.llm`; every name is importable from there.

Format (read from huggingface/lighteval at commit 3fd1526: ``logging/evaluation_tracker.py`` saves each task's
details with ``Dataset.from_list([asdict(detail) for detail in task_details]).to_parquet(...)`` as
``{output_dir}/details/{model_name}/{date}/details_{task}_{date}.parquet``; ``logging/info_loggers.py``
``DetailsLogger.Detail`` has the fields ``doc`` (``tasks/requests.py`` ``Doc``: ``query``, ``choices``,
``gold_index``, …, ``id`` — the document's index in the task, ``lighteval_task.py`` — and ``task_name``),
``model_response`` and ``metric``, a struct of the sample's metric values (``{"acc": 1.0, ...}``)). Details written
before lighteval's refactoring of June 2025 (commit 9288bd8) are flat: ``example`` (the question), ``full_prompt``,
``predictions``, ``gold``, ``metrics`` (the struct), … and no id; their samples are matched by ``example``.

Only the id, task and metric columns are decoded (the prompts and responses are most of a file's bytes). The model
is not in the file: it is in the run's ``results/<model_name>/results_<date>.json`` (``config_general.model_name``,
:func:`lighteval_run_model`), else the caller names it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import uploads
from ._model_files import checked_entries, no_repeats, shared_metrics, two_models

__all__ = ["LightevalRun", "LightevalOptions", "is_lighteval_details", "read_lighteval_details",
           "is_lighteval_results", "lighteval_run_model", "lighteval_options", "read_lighteval_runs"]

#: Most samples of one file.
MAX_SAMPLES = uploads.MAX_ROWS
#: The decoded id, question and metric columns of one file, at most (checked against the footer first, and while
#: decoding, since a footer can understate).
MAX_DECODED_BYTES = uploads.MAX_PARQUET_CELLS_BYTES
#: Samples × scores of one file, at most (each a Python float in its sample's dict).
MAX_VALUES = 2_000_000
#: ``details_<task>_<date>.parquet``: the date lighteval writes (``2025-11-05T14-43-47.148527``).
_FILE_NAME = re.compile(r"details_(?P<task>.+?)_(?P<date>\d{4}-\d\d-\d\dT[\d.\-]+)\.parquet$")


@dataclass(frozen=True)
class LightevalRun:
    """One lighteval details file.

    Attributes
    ----------
    task : str
        ``doc.task_name``, else the task in the file's name (``details_<task>_<date>.parquet``), else "".
    records : tuple of (str, dict)
        ``(sample id, {metric: value})`` per sample in file order: the id is ``doc.id``; in details without ids
        (lighteval before June 2025) the question (``example``), with `` #2``, `` #3`` … after a repeated one.
        Metrics whose value is missing are left out of a sample's dict.
    metrics : tuple of str
        The numeric metrics whose values all lie in [0, 1] (``acc``, ``em``, ``pass@1``, …), in the file's order.
    matched_by : str
        ``"id"`` or ``"example"``.
    """

    task: str
    records: tuple[tuple[str, dict], ...]
    metrics: tuple[str, ...]
    matched_by: str = "id"


@dataclass(frozen=True)
class LightevalOptions:
    """What a set of lighteval details files offers the page: the models given, the metrics every file has with
    values in [0, 1], and the tasks."""

    models: tuple[str, ...]
    metrics: tuple[str, ...]
    tasks: tuple[str, ...]


def _columns(data) -> list[str] | None:
    if not uploads.is_parquet(data):
        return None
    try:
        return uploads.parquet_columns(data)
    except ValueError:
        return None


def is_lighteval_details(data) -> bool:
    """Whether ``data`` is a lighteval details Parquet file: top-level columns ``doc`` and ``metric`` (else the
    older ``example`` and ``metrics``)."""
    names = _columns(data)
    return bool(names) and ({"doc", "metric"} <= set(names) or {"example", "metrics"} <= set(names))


def lighteval_run_model(data, *, name: str = "The results file") -> str:
    """The model a lighteval run evaluated: ``config_general.model_name`` of the run's
    ``results_<date>.json`` (``logging/evaluation_tracker.py`` writes ``asdict(general_config_logger)`` there;
    ``info_loggers.py`` ``GeneralConfigLogger.model_name``).

    Examples
    --------
    >>> lighteval_run_model(b'{"config_general": {"model_name": "HuggingFaceTB/SmolLM2-1.7B"}, "results": {}}')
    'HuggingFaceTB/SmolLM2-1.7B'
    """
    value = uploads._json_value(uploads.decode_text(data, name=name), name=name, line=None)
    config = value.get("config_general") if isinstance(value, dict) else None
    model = config.get("model_name") if isinstance(config, dict) else None
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"{name} is not a lighteval results file naming its model (`config_general.model_name`).")
    if any(ord(c) < 32 or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069 for c in model):
        raise ValueError(f"{name}: `config_general.model_name` holds control characters; a model name has none.")
    return model.strip()[:200]


def is_lighteval_results(data) -> bool:
    """Whether ``data`` looks like a lighteval ``results_<date>.json``: a JSON object with ``config_general``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return False
    head = bytes(data[:4096]).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    return head.startswith("{") and '"config_general"' in head


def _struct_fields(kind) -> list[str]:
    import pyarrow as pa

    return [kind.field(i).name for i in range(kind.num_fields)] if pa.types.is_struct(kind) else []


def _is_number(kind) -> bool:
    import pyarrow as pa

    return pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)


def read_lighteval_details(data, *, name: str = "The file") -> LightevalRun:
    """Read one lighteval details file (``details_<task>_<date>.parquet``).

    Parameters
    ----------
    data : bytes
        The file as lighteval wrote it.
    name : str, optional
        How messages call the file; its ``details_<task>_<date>.parquet`` names the task when the samples do not.

    Returns
    -------
    LightevalRun
        Every sample's numeric metric values, by ``doc.id`` (by question in details written before June 2025).

    Raises
    ------
    ValueError
        A file that is not lighteval details (no ``doc`` and ``metric`` columns), a sample id listed twice, no
        sample, too many samples or too many decoded bytes.

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> rows = [{"doc": {"query": "2+2?", "id": str(i), "task_name": "gsm8k"}, "metric": {"em": v}}
    ...         for i, v in enumerate([1.0, 0.0])]
    >>> buffer = io.BytesIO(); pq.write_table(pa.Table.from_pylist(rows), buffer)
    >>> run = read_lighteval_details(buffer.getvalue())
    >>> run.task, run.records, run.metrics
    ('gsm8k', (('0', {'em': 1.0}), ('1', {'em': 0.0})), ('em',))
    """
    import pyarrow as pa

    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise ValueError(f"{name}: `data` must be the file's bytes.")
    if not uploads.is_parquet(data):
        raise ValueError(f"{name} is not a Parquet file (lighteval writes its details as "
                         "details_<task>_<date>.parquet).")
    handle = uploads._parquet_file(data, name)
    schema = handle.schema_arrow
    names = [str(c) for c in schema.names]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:  # a second `metric` would be read under the first one's names
        raise ValueError(f"{name}: its columns repeat ({', '.join(n[:40] for n in repeated[:6])}).")
    if {"doc", "metric"} <= set(names):
        doc, metric_column = schema.field("doc").type, "metric"
        doc_fields = _struct_fields(doc)
        if doc_fields.count("id") != 1 or doc_fields.count("task_name") > 1:
            raise ValueError(f"{name}: its `doc` column has no `id` (lighteval writes one per sample)."
                             if "id" not in doc_fields else f"{name}: its `doc` column repeats a field.")
        key_columns = ["doc.id"] + (["doc.task_name"] if "task_name" in doc_fields else [])
        matched_by = "id"
    elif {"example", "metrics"} <= set(names):
        key_columns, metric_column, matched_by = ["example"], "metrics", "example"
    else:
        raise ValueError(f"{name} is not lighteval details: it has no `doc` and `metric` columns (its columns: "
                         + ", ".join(n[:40] for n in names[:12]) + ").")
    metric_type = schema.field(metric_column).type
    if not pa.types.is_struct(metric_type):
        raise ValueError(f"{name}: its `{metric_column}` column is not a struct of metric values ({metric_type}).")
    fields = _struct_fields(metric_type)
    if len(set(fields)) != len(fields):
        raise ValueError(f"{name}: the metric names repeat ({', '.join(f[:40] for f in fields[:12])}).")
    metrics = [m for k, m in enumerate(fields) if _is_number(metric_type.field(k).type)]
    # only the ids, the task and the numeric metrics' leaves are decoded (a full path selects a leaf even when the
    # metric's name holds a dot: ``metric.pass@k:k=1&temperature=0.7``)
    columns = key_columns + [f"{metric_column}.{m}" for m in metrics]
    _check_decoded_size(handle, columns, name)
    keys: list[list] = [[] for _ in key_columns]
    values: list[list] = [[] for _ in metrics]
    rows = held = 0
    try:
        for batch in handle.iter_batches(batch_size=2_048, columns=columns, use_threads=False):
            rows += batch.num_rows
            if rows > MAX_SAMPLES:
                raise ValueError(f"{name} has more than {MAX_SAMPLES:,} samples; at most that many are read.")
            held += batch.nbytes
            if held > MAX_DECODED_BYTES:
                raise ValueError(f"{name}: its ids and metrics take more than {MAX_DECODED_BYTES / 2**20:g} MB once "
                                 "decompressed; at most that is read.")
            for k, c in enumerate(key_columns):
                parent, _, child = c.partition(".")
                column = batch.column(batch.schema.get_field_index(parent))
                if child:
                    column = column.flatten()[[f.name for f in column.type].index(child)]
                keys[k].append(uploads._text_values(column, c, name))
            if metrics:
                # flatten(): a sample whose whole struct is missing has missing fields (field() would read under it)
                children = batch.column(batch.schema.get_field_index(metric_column)).flatten()
                for k in range(len(metrics)):  # unsafe: an integer beyond 2^53 (a token count) is rounded, not refused
                    values[k].append(children[k].cast(pa.float64(), safe=False).to_numpy(zero_copy_only=False))
    except pa.ArrowException as err:  # ArrowInvalid is a ValueError too: its text names no file
        raise ValueError(f"{name}: its Parquet data cannot be read ({uploads._arrow_reason(err)}).") from None
    except ValueError:
        raise
    except Exception as err:  # a damaged page, a footer that does not match the data, …
        raise ValueError(f"{name}: its Parquet data cannot be read ({uploads._arrow_reason(err)}).") from None
    if rows == 0:
        raise ValueError(f"{name} has no samples.")
    ids = np.concatenate(keys[0]).astype(object)
    tasks = np.concatenate(keys[1]) if len(keys) > 1 else np.array([""] * rows, dtype=object)
    if len({t for t in tasks if t}) > 1:
        raise ValueError(f"{name} holds samples of several tasks ({', '.join(sorted({t for t in tasks if t})[:6])}); "
                         "lighteval writes one file per task.")
    found = _FILE_NAME.search(str(name).replace("`", ""))
    task = next((t for t in dict.fromkeys(tasks) if t), found.group("task") if found else "")
    for number, sample in enumerate(ids, start=1):
        if not sample:
            raise ValueError(f"{name}, sample {number:,}: "
                             + ("`doc.id` is empty." if matched_by == "id" else "its question (`example`) is empty."))
    arrays = [np.concatenate(v) for v in values]
    if matched_by == "example":
        ids = _numbered(ids)
    else:
        seen: dict[str, int] = {}
        for number, sample in enumerate(ids, start=1):
            if sample in seen:
                raise ValueError(f"{name}: sample id {sample[:40]!r} is listed twice (samples {seen[sample]:,} and "
                                 f"{number:,}).")
            seen[sample] = number
    # a score: some value, and every value in [0, 1] (missing ones aside); log-likelihoods, lengths, … are not
    scores = tuple(m for m, a in zip(metrics, arrays)
                   if (~np.isnan(a)).any() and bool((((a >= 0) & (a <= 1)) | np.isnan(a)).all()))
    if rows * len(scores) > MAX_VALUES:
        raise ValueError(f"{name} has {rows:,} samples × {len(scores)} scores; at most {MAX_VALUES:,} values are "
                         "read.")
    kept = [(m, a) for m, a in zip(metrics, arrays) if m in scores]  # the samples keep their scores only
    records = tuple((str(sample), {m: float(a[i]) for m, a in kept if not math.isnan(a[i])})
                    for i, sample in enumerate(ids))
    return LightevalRun(task, records, scores, matched_by)


def _check_decoded_size(handle, columns, name: str) -> None:
    """Refuse up front a file whose chosen columns the footer says decode to more than :data:`MAX_DECODED_BYTES`
    (text a million times as large as its compressed bytes); the running count while decoding stays."""
    try:
        meta = handle.metadata
        wanted = set(columns)
        size = sum(meta.row_group(g).column(c).total_uncompressed_size for g in range(meta.num_row_groups)
                   for c in range(meta.num_columns) if meta.row_group(g).column(c).path_in_schema in wanted
                   or meta.row_group(g).column(c).path_in_schema.startswith(tuple(f"{w}." for w in wanted)))
    except Exception:  # a footer that cannot be read is refused while decoding
        return
    if size > MAX_DECODED_BYTES:
        raise ValueError(f"{name}: its ids and metrics take {size / 2**20:,.0f} MB once decompressed; at most "
                         f"{MAX_DECODED_BYTES / 2**20:g} MB is read.")


def _numbered(texts) -> np.ndarray:
    """Question texts as ids; a repeated question gets `` #2``, `` #3`` … in order of appearance, and a number is
    skipped where it would give another question's text (``q``, ``q``, ``q #2`` → ``q``, ``q #3``, ``q #2``... in
    the order the texts come, each id unique)."""
    texts = [str(t) for t in texts]
    taken = set(texts)
    count: dict[str, int] = {}
    out, used = [], set()
    for text in texts:
        if text not in used:
            out.append(text)
            used.add(text)
            continue
        k = count.get(text, 1)
        while True:
            k += 1
            candidate = f"{text} #{k}"
            if candidate not in taken and candidate not in used:
                break
        count[text] = k
        out.append(candidate)
        used.add(candidate)
    return np.array(out, dtype=object)


def _footer_rows(data) -> int:
    """The rows a Parquet file's footer claims (0 for anything else: the reader's own message follows)."""
    try:
        return int(uploads._parquet_file(data, "The file").metadata.num_rows) if uploads.is_parquet(data) else 0
    except (ValueError, TypeError):
        return 0


def _runs(files) -> list[tuple[str, str, LightevalRun]]:
    files = checked_entries(files, "lighteval details files", "lighteval details file")
    rows = sum(_footer_rows(data) for _, _, data in files)
    if rows > MAX_SAMPLES:  # refused before any file is decoded
        raise ValueError(f"The files hold {rows:,} samples together; at most {MAX_SAMPLES:,} are read at once.")
    runs = [(model, file_name, read_lighteval_details(data, name=f"`{file_name}`"))
            for model, file_name, data in files]
    no_repeats(files)
    two_models(runs)
    return runs


def lighteval_options(files) -> LightevalOptions:
    """The models, shared metrics and tasks of a set of lighteval details files (see :func:`read_lighteval_runs`)."""
    runs = _runs(files)
    return LightevalOptions(tuple(dict.fromkeys(model for model, _, _ in runs)), tuple(shared_metrics(runs)),
                            tuple(dict.fromkeys(run.task for _, _, run in runs)))


def read_lighteval_runs(files, *, metric: str | None = None) -> pd.DataFrame:
    """Read lighteval details files of two models into a per-answer log.

    Parameters
    ----------
    files : sequence of (str, str, bytes)
        ``(model, file_name, bytes)``, the baseline's first. A model's files of different tasks are one benchmark
        (its questions named ``<task> · <id>``); a further file of a task already read is a further run (the
        LLM page's K: sample 1, 2, …).
    metric : str, optional
        The per-sample metric to use as the score (``acc``, ``em``, ``pass@1``, …; values in [0, 1]). Default: the
        only such metric every file has, else a message listing them.

    Returns
    -------
    pandas.DataFrame
        ``question, model, sample, score`` — and ``cluster``, the task, when the files are of several tasks (as
        the harness's tasks are read) —, the input of :func:`fit_benchmark`; ``.attrs`` holds ``metric``,
        ``models`` and ``notes`` (samples without the metric, details matched by question).

    Raises
    ------
    ValueError
        A file that cannot be read (:func:`read_lighteval_details`), not exactly two models, an unknown or
        ambiguous ``metric``.

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> def details(values):
    ...     rows = [{"doc": {"id": str(i), "task_name": "gsm8k"}, "metric": {"em": v}} for i, v in enumerate(values)]
    ...     buffer = io.BytesIO(); pq.write_table(pa.Table.from_pylist(rows), buffer); return buffer.getvalue()
    >>> log = read_lighteval_runs([("a", "a.parquet", details([1, 0])), ("b", "b.parquet", details([1, 1]))])
    >>> log.question.tolist(), log.score.tolist()
    (['0', '1', '0', '1'], [1.0, 0.0, 1.0, 1.0])
    """
    runs = _runs(files)
    shared = shared_metrics(runs)
    if metric is None:
        if len(shared) != 1:
            raise ValueError("The files share no per-sample metric with values in [0, 1]." if not shared else
                             "The files have several metrics (" + ", ".join(map(repr, shared)) + "); choose one "
                             "with `metric`.")
        metric = shared[0]
    if metric not in shared:
        raise ValueError(f"`metric` {str(metric)[:40]!r} is not in every file; they share "
                         + (", ".join(map(repr, shared)) or "none") + ".")
    for model in dict.fromkeys(m for m, _, _ in runs):
        unnamed = [f for m, f, run in runs if m == model and not run.task]
        if len(unnamed) > 1:  # two tasks, or two runs of one? lighteval names the task in the file and its name
            raise ValueError(f"The files {', '.join(f'`{f[:60]}`' for f in unnamed[:4])} of {model[:40]} name no "
                             "task (no `doc.task_name`, and not named details_<task>_<date>.parquet): upload one "
                             "such file per model, or the files as lighteval named them.")
    several_tasks = len({run.task for _, _, run in runs}) > 1
    notes = [f"Metric: `{metric}`."]
    rows, repeat, missing = [], {}, {}
    for model, _, run in runs:
        sample = repeat.get((model, run.task), 0)
        repeat[(model, run.task)] = sample + 1
        for question, scores in run.records:
            if metric not in scores:
                missing[model] = missing.get(model, 0) + 1
                continue
            rows.append((f"{run.task} · {question}" if several_tasks else question, model, sample, scores[metric],
                         run.task))
    for model, count in missing.items():
        notes.append(f"Samples of {model} without a `{metric}` value, left out: {count:,}.")
    further = {f"{model} ({task or 'the task'}: {count})" for (model, task), count in repeat.items() if count > 1}
    if further:
        notes.append("Several files of one model and task are further runs (K): " + ", ".join(sorted(further)) + ".")
    if any(run.matched_by == "example" for _, _, run in runs):
        notes.append("Details written before June 2025 have no sample id: their samples are matched by question "
                     "(`example`).")
    if not rows:
        raise ValueError(f"No sample of these files has a `{metric}` value.")
    frame = pd.DataFrame(rows, columns=["question", "model", "sample", "score", "cluster"])
    frame["score"] = frame["score"].astype(float)
    if not several_tasks:
        frame = frame.drop(columns="cluster")
    frame.attrs.update({"metric": metric, "models": tuple(dict.fromkeys(m for m, _, _ in runs)), "notes": notes})
    return frame

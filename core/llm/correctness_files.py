"""A models × items correctness matrix from evaluation frameworks' own files, one run per file: bytes in, nothing
executed.

Part of :mod:`core.llm`; every name is importable from there.

The subset planner's prediction-assisted estimator (:func:`prediction_assisted_se`) needs past models' results on
every item — what a leaderboard's per-item outputs hold. Each file is one model's run, as its framework wrote it:

* an lm-evaluation-harness ``samples_<task>_<date>.jsonl`` (``--log_samples``; read as
  :func:`read_harness_samples` reads it: the lines of one filter pipeline, a per-document metric; the harness writes
  ``<output>/<model>/samples_…`` so a file's folder names its model);
* an Inspect AI log (``.eval`` or ``.json``; :func:`read_inspect_log`: the model is ``eval.model``, a sample's epochs
  are averaged);
* a HELM run's ``per_instance_stats.json`` (:func:`read_helm_stats`: unperturbed instances, the train trials
  averaged; the run folder's name ``…,model=openai_gpt-4o`` names its model, or a ``run_spec.json`` beside it).
* a lighteval ``details_<task>_<date>.parquet`` (``--save-details``; :func:`read_lighteval_details`): the run's
  ``results_<date>.json`` (same date) names its model (``config_general.model_name``), else the
  ``details/<model>/<date>/`` folders; several tasks' files of a model are one benchmark (items ``<task> · <id>``).

Items are matched by the framework's own id (``doc_id``, the sample id, ``instance_id``); only the items every model
has are kept, with a note. Several files of one model (further runs) are averaged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import uploads
from .helm import helm_run_model, helm_run_name, helm_run_scenario, is_helm_stats, read_helm_stats
from .inspect_logs import _value, is_inspect_log, read_inspect_log
from .lighteval import is_lighteval_details, is_lighteval_results, lighteval_run_model, read_lighteval_details
from ..runnable import task_from_file_name
from .readers import _metric_value, _scan_harness

__all__ = ["CorrectnessOptions", "CORRECTNESS_KINDS", "correctness_options", "read_correctness_files"]

#: The frameworks whose files are read, by the kind :func:`correctness_options` reports.
CORRECTNESS_KINDS = {"harness": "lm-evaluation-harness samples files", "inspect": "Inspect AI logs",
                     "helm": "HELM runs", "lighteval": "lighteval details"}
#: Most files (models and runs) in one matrix.
MAX_FILES = 500
_HELM_MODEL = re.compile(r"(?:^|,)model=([^,/]+)")


@dataclass(frozen=True)
class CorrectnessOptions:
    """What a set of per-model files offers: their framework (a key of :data:`CORRECTNESS_KINDS`), the model each
    file is of, the metrics (scores) every file has and, for harness files, the filter pipelines."""

    kind: str
    models: tuple[str, ...]
    metrics: tuple[str, ...]
    filters: tuple[str, ...] = ()


def _kind(name: str, data: bytes) -> str:
    if is_inspect_log(name, data):
        return "inspect"
    if is_helm_stats(data):
        return "helm"
    if is_lighteval_details(data):
        return "lighteval"
    if uploads.looks_like_json(data):
        return "harness"
    raise ValueError(f"`{name}` is not an lm-evaluation-harness samples file, an Inspect AI log, a HELM "
                     "per_instance_stats.json or lighteval details.")


def _folder_model(name: str) -> str | None:
    """The model a file's folder names: HELM's run folder ``…,model=openai_gpt-4o``, else the harness's
    ``<output>/<model>/samples_…``."""
    parts = name.replace("\\", "/").split("/")
    if len(parts) < 2:
        return None
    folder = parts[-2]
    match = _HELM_MODEL.search(folder)
    return match.group(1) if match else folder


def _files(files) -> list[tuple[str, bytes]]:
    if not isinstance(files, (list, tuple)) or not files:
        raise ValueError("Give the files as a list of (file_name, bytes), one model's run per file.")
    if len(files) > MAX_FILES:
        raise ValueError(f"{len(files):,} files: at most {MAX_FILES:,} are read together.")
    out = []
    for item in files:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], (bytes, bytearray, memoryview))):
            raise ValueError("Each file must be (file_name, bytes).")
        out.append((item[0], bytes(item[1])))
    total = sum(len(data) for _, data in out)
    if total > MAX_TOTAL_BYTES:
        raise ValueError(f"The files take {total / 2**20:.1f} MB together; at most {MAX_TOTAL_BYTES / 2**20:g} MB "
                         "are read at once (keep fewer models or runs).")
    return out


def _helm_specs(files) -> dict[str, tuple[str, str]]:
    """Folder → (model, run name) from the run_spec.json files among the uploads."""
    specs: dict[str, tuple[str, str]] = {}
    for name, data in files:
        parts = name.replace("\\", "/").rsplit("/", 1)
        if parts[-1] == "run_spec.json":
            folder = parts[0] if len(parts) == 2 else ""
            spec = (helm_run_model(data, name=f"`{name}`"), helm_run_name(data, name=f"`{name}`"))
            if folder in specs and specs[folder][0] != spec[0]:
                # two run folders zipped one by one lose their folders: which spec names which stats is unknown
                raise ValueError(f"Several run_spec.json name different models ({specs[folder][0][:40]!r}, "
                                 f"{spec[0][:40]!r}) and their run folders are not told apart; zip the runs' "
                                 "folders together (benchmark_output/runs/<suite>/), so that each keeps its folder.")
            specs[folder] = spec
    return specs


#: The files HELM writes in a run folder beside per_instance_stats.json (runner.py, and helm-summarize's displays).
HELM_RUN_FILES = ("stats.json", "scenario.json", "scenario_state.json", "instances.json", "display_predictions.json",
                  "display_requests.json", "costs.json")
#: The uploads' bytes together, at most (the readers hold every file; a plain upload's limit).
MAX_TOTAL_BYTES = uploads.MAX_BYTES


_LIGHTEVAL_DATE = re.compile(r"_(\d{4}-\d\d-\d\dT[\d.\-]+)\.(?:parquet|json)$")


def _naming_only(name: str, data: bytes) -> bool:
    """A file that only names a run's model: HELM's run_spec.json, lighteval's results_<date>.json."""
    stem = name.replace("\\", "/").rsplit("/", 1)[-1]
    return stem == "run_spec.json" or (stem.startswith("results_") and is_lighteval_results(data))


def _lighteval_models(files) -> dict[str, str]:
    """Date → model from lighteval's results_<date>.json files (a run's details files carry the same date)."""
    models = {}
    for name, data in files:
        stem = name.replace("\\", "/").rsplit("/", 1)[-1]
        date = _LIGHTEVAL_DATE.search(stem)
        if stem.startswith("results_") and date and is_lighteval_results(data):
            model = lighteval_run_model(data, name=f"`{name}`")
            if models.get(date.group(1), model) != model:  # two runs started at one moment: which is whose?
                raise ValueError(f"Two results files of the date {date.group(1)} name different models "
                                 f"({models[date.group(1)][:40]!r}, {model[:40]!r}); upload them separately.")
            models[date.group(1)] = model
    return models


def _lighteval_model(name: str, dates: dict[str, str]) -> str | None:
    """A details file's model: its run's results file (by date), else ``…/details/<model>/<date>/``."""
    parts = name.replace("\\", "/").split("/")
    date = _LIGHTEVAL_DATE.search(parts[-1])
    if date and date.group(1) in dates:
        return dates[date.group(1)]
    if "details" in parts[:-2]:
        start = len(parts) - 1 - parts[::-1].index("details")
        return "/".join(parts[start + 1:-2]) or None
    return None


def _scan(files):
    """Each data file's kind, model and parsed content; run_spec.json and lighteval's results files only name the
    runs' models."""
    specs, dates = _helm_specs(files), _lighteval_models(files)
    data_files = [(n, d) for n, d in files if not _naming_only(n, d)]
    if not data_files:
        raise ValueError("No results file among the uploads (only run_spec.json or lighteval's results files).")
    notes = []
    if any(is_helm_stats(d) for _, d in data_files):  # a zipped run folder holds HELM's other files too
        others = [n for n, d in data_files if not is_helm_stats(d)
                  and n.replace("\\", "/").rsplit("/", 1)[-1] in HELM_RUN_FILES]
        if others:
            data_files = [(n, d) for n, d in data_files if n not in others]
            notes.append(f"Other files of the HELM run folders, left out: {len(others):,}.")
    kinds = {_kind(n, d) for n, d in data_files}
    if len(kinds) > 1:
        raise ValueError("The files are of different frameworks (" + ", ".join(CORRECTNESS_KINDS[k] for k in
                                                                              sorted(kinds)) + "); upload one kind.")
    kind = kinds.pop()
    parsed, units = [], []  # units: each file's task (harness, Inspect, lighteval) or scenario (HELM)
    for index, (name, data) in enumerate(data_files, start=1):
        folder = name.replace("\\", "/").rsplit("/", 1)[0] if "/" in name.replace("\\", "/") else ""
        stem = name.replace("\\", "/").rsplit("/", 1)[-1]
        if kind == "inspect":
            log = read_inspect_log(data, name=f"`{name}`")
            parsed.append((log.model, name, log))
            units.append(log.task)
            if log.status != "success":
                notes.append(f"`{name}` has status '{log.status}': its run did not finish; the samples it scored "
                             "are read.")
        elif kind == "helm":
            model, run_name = specs.get(folder, (None, ""))
            parsed.append((model or _folder_model(name) or stem, name, read_helm_stats(data, name=f"`{name}`")))
            units.append(helm_run_scenario(run_name or folder.rsplit("/", 1)[-1]))
        elif kind == "lighteval":
            model = _lighteval_model(name, dates) or stem.rsplit(".", 1)[0]
            run = read_lighteval_details(data, name=f"`{name}`")
            parsed.append((model, name, run))
            units.append(run.task)
        else:
            parsed.append((_folder_model(name) or stem.rsplit(".", 1)[0], name, data))
            units.append(task_from_file_name(name, index))
    return kind, parsed, units, notes


def _options(kind, parsed) -> tuple[CorrectnessOptions, list | None]:
    """The options of scanned files, and the harness files' parsed records (None for other kinds)."""
    models = tuple(model for model, _, _ in parsed)
    if kind == "inspect":
        logs = [log for _, _, log in parsed]
        metrics = tuple(s for s in logs[0].scorers if all(s in log.scorers for log in logs[1:]))
        return CorrectnessOptions(kind, models, metrics), None
    if kind in ("helm", "lighteval"):
        runs = [run for _, _, run in parsed]
        return CorrectnessOptions(kind, models, tuple(m for m in runs[0].metrics
                                                      if all(m in run.metrics for run in runs[1:]))), None
    records, filters, metrics, _ = _scan_harness([(model, name, data) for model, name, data in parsed])
    return CorrectnessOptions(kind, models, metrics, filters), records


def correctness_options(files) -> CorrectnessOptions:
    """The framework, the model of each file, and the metrics (and harness filters) every file has.

    Parameters
    ----------
    files : sequence of (str, bytes)
        ``(file_name, bytes)``: one model's run per file, all of one framework (see the module); a HELM
        ``run_spec.json`` beside a ``per_instance_stats.json`` (same folder) names that run's model, and a lighteval
        ``results_<date>.json`` the model of the details files of its date.
    """
    kind, parsed, _, _ = _scan(_files(files))
    return _options(kind, parsed)[0]


def read_correctness_files(files, *, metric: str | None = None, filter: str | None = None) -> pd.DataFrame:
    """A models × items correctness matrix from one file per model's run (harness, Inspect AI, HELM or
    lighteval).

    Parameters
    ----------
    files : sequence of (str, bytes)
        As :func:`correctness_options`; at least two models.
    metric : str, optional
        The per-item score: a harness metric (``acc``), an Inspect score (``match``) or a HELM metric
        (``exact_match``), with values in [0, 1]. Default: the only one every file has.
    filter : str, optional
        The harness filter pipeline (default: the only one).

    Returns
    -------
    pandas.DataFrame
        Models (index, in order of first file) × items (columns: the framework's item ids as text, in the first
        file's order), each entry the mean of that model's answers to the item (samples, epochs, trials, runs);
        only the items every model has. ``.attrs`` ``kind``, ``metric``, ``notes``: the input of
        :func:`prediction_assisted_se`.

    Raises
    ------
    ValueError
        A file that none of the readers takes (naming it), files of different frameworks, fewer than two models
        or two shared items, an unknown or ambiguous metric or filter, or a score outside [0, 1].

    Examples
    --------
    >>> def helm(values):
    ...     return ("[" + ", ".join(f'{{"instance_id": "id{i}", "stats": [{{"name": {{"name": "exact_match"}}, '
    ...                             f'"mean": {v}}}]}}' for i, v in enumerate(values)) + "]").encode()
    >>> read_correctness_files([("runs/mmlu,model=a/per_instance_stats.json", helm([1, 0, 1])),
    ...                         ("runs/mmlu,model=b/per_instance_stats.json", helm([1, 1, 0]))]).to_numpy().tolist()
    [[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    kind, parsed, units, scan_notes = _scan(_files(files))
    options, harness_records = _options(kind, parsed)
    if metric is None:
        if len(options.metrics) != 1:
            raise ValueError("The files share no score with values in [0, 1]." if not options.metrics else
                             "Several scores could be used (" + ", ".join(map(repr, options.metrics))
                             + "); choose one with `metric`.")
        metric = options.metrics[0]
    elif metric not in options.metrics:
        raise ValueError(f"`metric` {str(metric)[:40]!r} is not in every file; they share "
                         + (", ".join(map(repr, options.metrics)) or "none") + ".")
    notes = [f"Score: `{metric}`.", *scan_notes]
    rows = []  # (model, unit, item, value), a file's unit its task or scenario
    if kind == "inspect":
        for (model, name, log), unit in zip(parsed, units):
            for item, epoch, scores in log.samples:
                value = scores.get(metric)
                value = None if value is None else _value(value, f"`{name}`, sample {item[:40]!r}, epoch {epoch}")
                if value is not None:
                    rows.append((model, unit, item, value))
    elif kind == "helm":
        for (model, _, run), unit in zip(parsed, units):
            rows += [(model, unit, item, means[metric]) for item, _, means in run.records]
    elif kind == "lighteval":
        for (model, _, run), unit in zip(parsed, units):
            rows += [(model, unit, item, scores[metric]) for item, scores in run.records if metric in scores]
    else:
        if filter is None:
            if len(options.filters) > 1:
                raise ValueError("The files contain several filter pipelines (" + ", ".join(map(repr, options.filters))
                                 + "); choose one with `filter`.")
            filter = options.filters[0]
        elif filter not in options.filters:
            raise ValueError(f"`filter` {str(filter)[:40]!r} is not in the files; they have "
                             + ", ".join(map(repr, options.filters)) + ".")
        notes[0] = f"Score: `{metric}`, filter `{filter}`."
        for (model, name, _, records), unit in zip(harness_records, units):
            seen = set()
            for rec in records:
                if rec.get("filter", "none") == filter:
                    doc = str(rec["doc_id"])
                    if doc in seen:  # as read_harness_samples: a document twice is not two answers
                        raise ValueError(f"`{name}`: document {doc[:40]!r} appears twice under the filter "
                                         f"{filter!r}.")
                    seen.add(doc)
                    value = _metric_value(rec.get(metric))
                    if value is None:
                        raise ValueError(f"`{name}`, document {doc[:40]!r}: `{metric}` is not a number in [0, 1].")
                    rows.append((model, unit, doc, value))
    frame = pd.DataFrame(rows, columns=["model", "unit", "item", "score"])
    if frame["unit"].nunique() > 1:  # two tasks' (scenarios') items share ids: an item is its task's
        frame["item"] = frame["unit"].astype(str) + " · " + frame["item"].astype(str)
    models = list(dict.fromkeys(model for model, _, _ in parsed))
    if len(models) < 2:
        raise ValueError(f"The files are runs of one model ({models[0][:60]!r}); the matrix needs at least 2 models.")
    runs: dict[tuple[str, str], int] = {}  # files per model and task: a task's further files are further runs
    for (model, _, _), unit in zip(parsed, units):
        runs[model, unit] = runs.get((model, unit), 0) + 1
    if any(count > 1 for count in runs.values()):
        notes.append("Several files of one model and task are further runs, averaged: " + ", ".join(
            f"{m} ({c})" for (m, _), c in runs.items() if c > 1) + ".")
    items = list(dict.fromkeys(frame["item"]))
    # the items every model has, before the models × items table (200 models of disjoint items would fill memory)
    shared = set(items)
    for _, group in frame.groupby("model", sort=False):
        shared &= set(group["item"])
    kept = [item for item in items if item in shared]
    if len(kept) < 2:
        raise ValueError("The models share fewer than 2 items with a score; are the files of the same task?")
    wide = frame[frame["item"].isin(shared)].pivot_table(index="model", columns="item", values="score",
                                                         aggfunc="mean").reindex(index=models, columns=kept)
    complete = wide.columns[wide.notna().all(axis=0).to_numpy()]
    if len(complete) < len(items):
        notes.append(f"Items not answered by every model, left out: {len(items) - len(complete):,} of {len(items):,}.")
    wide = wide[complete]
    if wide.shape[1] < 2:
        raise ValueError("The models share fewer than 2 items with a score; are the files of the same task?")
    values = wide.to_numpy(dtype=float)
    if not np.isfinite(values).all() or values.min() < 0 or values.max() > 1:
        raise ValueError(f"`{metric}` has values outside [0, 1]; the matrix needs right/wrong or a score in [0, 1].")
    wide.index = [str(m) for m in wide.index]
    wide.columns = [str(c) for c in wide.columns]
    wide.attrs.update({"kind": kind, "metric": metric, "notes": notes})
    return wide

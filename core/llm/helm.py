"""HELM runs' per-instance statistics (``per_instance_stats.json``) as per-answer logs: bytes in, nothing executed.

Part of :mod:`core.llm`; every name is importable from there.

Format (read from stanford-crfm/helm at commit 63754d0: ``benchmark/runner.py`` writes each run's
``per_instance_stats.json`` as ``json.dumps(list(map(asdict_without_nones, per_instance_stats)), indent=2)``;
``benchmark/metrics/metric.py`` ``PerInstanceStats``, ``metrics/statistic.py`` ``Stat``, ``metrics/metric_name.py``
``MetricName``, ``augmentations/perturbation_description.py``): a JSON array with one object per instance, trial
and perturbation::

    {"instance_id": "id1234", "train_trial_index": 0,
     "stats": [{"name": {"name": "exact_match", "split": "test"}, "count": 1, "sum": 1.0, "sum_squared": 1.0,
                "min": 1.0, "max": 1.0, "mean": 1.0, "variance": 0.0, "stddev": 0.0}, ...]}

``perturbation`` (``{"name": "typos", "robustness": true, ...}``) is present only on the perturbed copies of an
instance (robustness and fairness variants), and then in each stat's ``name`` too; fields that are ``None`` are left
out (``asdict_without_nones``). ``train_trial_index`` numbers the run's trials: HELM's ``num_train_trials`` draws
"an independent, random set of training instances" (the in-context examples) per trial (``adapter_spec.py``). The
model is not in the file (it is in ``run_spec.json``'s ``adapter_spec.model`` and the run directory's name).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from .. import uploads
from ._model_files import checked_entries, no_repeats, shared_metrics, two_models
from ..validation import check_choice

__all__ = ["HelmRun", "HelmOptions", "HELM_TRIALS", "is_helm_stats", "read_helm_stats", "helm_run_model",
           "helm_run_name", "helm_run_scenario", "helm_options", "read_helm_runs"]

#: What HELM's train trials (different in-context example sets) are read as: repeated answers per question (the
#: LLM page's K) or prompt templates (the "Prompts and seeds" tab's facet).
HELM_TRIALS = ("samples", "templates")
#: Most records of one file (instances × trials × perturbations).
MAX_RECORDS = uploads.MAX_ROWS
#: HELM's bookkeeping statistics, never a score even when every value lies in [0, 1] (``metrics/basic_metrics.py``,
#: ``efficiency_metrics.py``): sizes, costs and runtimes, truncation and finish-reason flags, log probabilities,
#: calibration terms and the chosen option's index.
BOOKKEEPING = ("num_", "finish_reason", "inference_", "batch_size", "training_", "prompt_truncated", "max_prob",
               "logprob", "predicted_index", "platt_", "ece_", "bits_per_byte", "perplexity", "selective_")


@dataclass(frozen=True)
class HelmRun:
    """One HELM run's per-instance statistics.

    Attributes
    ----------
    records : tuple of (str, int, dict)
        ``(instance_id, train_trial_index, {metric: mean})`` for each unperturbed instance and trial, in file order.
    metrics : tuple of str
        The metrics every record has with a value in [0, 1], in the order of the first record, except HELM's
        bookkeeping (:data:`BOOKKEEPING`: token counts, runtimes, truncation flags, …).
    trials : int
        The number of train trials seen.
    perturbed : int
        Records of perturbed copies of instances, left out.
    other_splits : int
        Records of the ``valid`` split (or another), left out when the run has ``test`` records: HELM evaluates
        both splits (``adapter.py`` ``EVAL_SPLITS``), and a run's scores are those on ``test``.
    """

    records: tuple[tuple[str, int, dict], ...]
    metrics: tuple[str, ...]
    trials: int
    perturbed: int = 0
    other_splits: int = 0


@dataclass(frozen=True)
class HelmOptions:
    """What a set of HELM files offers the page: the models given, the metrics every record of every file has with
    values in [0, 1], and the trials per file."""

    models: tuple[str, ...]
    metrics: tuple[str, ...]
    trials: tuple[int, ...]


def is_helm_stats(data) -> bool:
    """Whether ``data`` looks like a ``per_instance_stats.json``: a JSON array whose first object starts with
    ``instance_id`` and has ``stats``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return False
    head = bytes(data[:4096]).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    # "stats": [ — display_predictions.json, written beside it by helm-summarize, has "stats": {…}
    return (head.startswith("[") and '"instance_id"' in head[:400]
            and re.search(r'"stats"\s*:\s*\[', head) is not None)


def _split(stats) -> str | None:
    """The split a record's statistics name (``name.split``: ``test``, ``valid``), from its first that names one."""
    for stat in stats if isinstance(stats, list) else ():
        if isinstance(stat, dict) and isinstance(stat.get("name"), dict) and isinstance(stat["name"].get("split"), str):
            return stat["name"]["split"]
    return None


def _metric_means(stats, where: str) -> dict:
    if not isinstance(stats, list):
        raise ValueError(f"{where}: `stats` is not a list of statistics.")
    means = {}
    for stat in stats:
        if not isinstance(stat, dict) or not isinstance(stat.get("name"), dict):
            raise ValueError(f"{where}: a statistic without a `name` object.")
        label = stat["name"].get("name")
        if not isinstance(label, str) or stat["name"].get("perturbation") is not None or label in means:
            continue  # a perturbed copy's statistic, or the same metric again (another sub-split): the first holds
        mean = stat.get("mean")
        if isinstance(mean, bool):
            mean = float(mean)
        if isinstance(mean, (int, float)):
            try:
                means[label] = float(mean)
            except OverflowError:
                raise ValueError(f"{where}: `{label[:40]}` is a number too large to read.") from None
    return means


def read_helm_stats(data, *, name: str = "The file") -> HelmRun:
    """Read one HELM run's ``per_instance_stats.json``.

    Parameters
    ----------
    data : bytes
        The file as HELM wrote it.
    name : str, optional
        How messages call the file.

    Returns
    -------
    HelmRun
        Every unperturbed instance's metric means per train trial; perturbed copies are counted and left out.

    Raises
    ------
    ValueError
        A file that is not a list of per-instance statistics, a record without ``instance_id`` or a whole-number
        ``train_trial_index``, an instance and trial listed twice, or no unperturbed record.

    Examples
    --------
    >>> run = read_helm_stats(b'[{"instance_id": "id7", "train_trial_index": 0, "stats": [{"name": {"name": '
    ...                       b'"exact_match", "split": "test"}, "count": 1, "mean": 1.0}]}]')
    >>> run.records, run.metrics
    ((('id7', 0, {'exact_match': 1.0}),), ('exact_match',))
    """
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise ValueError(f"{name}: `data` must be the file's bytes.")
    value = uploads._json_value(uploads.decode_text(data, name=name), name=name, line=None)
    if not isinstance(value, list):
        raise ValueError(f"{name} is not a HELM per_instance_stats.json (a JSON array of per-instance statistics).")
    if len(value) > MAX_RECORDS:
        raise ValueError(f"{name} has {len(value):,} records; at most {MAX_RECORDS:,} are read.")
    records, seen, perturbed = [], {}, 0
    for number, record in enumerate(value, start=1):
        where = f"{name}, record {number:,}"
        if not isinstance(record, dict) or "instance_id" not in record:
            raise ValueError(f"{where} is not per-instance statistics (no `instance_id`).")
        instance, trial = record["instance_id"], record.get("train_trial_index", 0)
        if isinstance(instance, bool) or not isinstance(instance, (str, int)) or str(instance).strip() == "":
            raise ValueError(f"{where}: the instance_id must be a text, got {str(instance)[:40]!r}.")
        if isinstance(trial, bool) or not isinstance(trial, int) or not 0 <= trial <= 100_000:
            raise ValueError(f"{where}: the train_trial_index must be a whole number from 0, got "
                             f"{str(trial)[:40]!r}.")
        if record.get("perturbation"):  # asdict_without_nones: an unperturbed record has none
            perturbed += 1
            continue
        key = (str(instance), trial)
        if key in seen:
            raise ValueError(f"{where}: instance {key[0][:40]!r}, trial {trial} is listed twice (records "
                             f"{seen[key]:,} and {number:,}).")
        seen[key] = number
        records.append((key[0], trial, _metric_means(record.get("stats"), where), _split(record.get("stats"))))
    if not records:
        raise ValueError(f"{name} has no unperturbed instance" + (" (only perturbed copies)." if perturbed else "."))
    # HELM scores the valid and the test split (adapter.py EVAL_SPLITS); a run's results are its test split's
    tested = [r for r in records if r[3] == "test"]
    other_splits = len(records) - len(tested) if tested else 0
    records = [r[:3] for r in (tested or records)]
    metrics = tuple(m for m in records[0][2] if not m.startswith(BOOKKEEPING)
                    and all(0.0 <= r[2].get(m, math.nan) <= 1.0 for r in records))
    return HelmRun(tuple(records), metrics, len({t for _, t, _ in records}), perturbed, other_splits)


def helm_run_model(data, *, name: str = "run_spec.json") -> str:
    """The model a HELM run evaluated: ``adapter_spec.model`` of its ``run_spec.json`` (``benchmark/run_spec.py``
    ``RunSpec``; else ``adapter_spec.model_deployment``).

    Examples
    --------
    >>> helm_run_model(b'{"name": "mmlu:subject=anatomy,model=openai_gpt-4o", '
    ...                b'"adapter_spec": {"model": "openai/gpt-4o"}}')
    'openai/gpt-4o'
    """
    spec = uploads._json_value(uploads.decode_text(data, name=name), name=name, line=None)
    adapter = spec.get("adapter_spec") if isinstance(spec, dict) else None
    model = (adapter.get("model") or adapter.get("model_deployment")) if isinstance(adapter, dict) else None
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"{name} is not a HELM run_spec.json naming its model (`adapter_spec.model`).")
    return model.strip()[:200]


def helm_run_scenario(run_name: str) -> str:
    """A HELM run's scenario: its run name (``run_spec.json``'s ``name``, the run folder's name) without
    ``model=…``. HELM numbers instances ``id0``, ``id1``, … in every scenario, so two runs' instances match only within
    one scenario.

    Examples
    --------
    >>> helm_run_scenario("mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt-4o")
    'mmlu:subject=anatomy,method=multiple_choice_joint'
    """
    return ",".join(part for part in str(run_name).split(",")
                    if not part.startswith(("model=", "model_deployment=")))


def helm_run_name(data, *, name: str = "run_spec.json") -> str:
    """A ``run_spec.json``'s ``name`` (``mmlu:subject=anatomy,method=…,model=…``), or "" when it has none."""
    spec = uploads._json_value(uploads.decode_text(data, name=name), name=name, line=None)
    run = spec.get("name") if isinstance(spec, dict) else None
    return run[:400] if isinstance(run, str) else ""


def _runs(files) -> list[tuple[str, str, HelmRun]]:
    files = checked_entries(files, "HELM files", "HELM file")
    runs = [(model, file_name, read_helm_stats(data, name=f"`{file_name}`")) for model, file_name, data in files]
    no_repeats(files)
    two_models(runs)
    return runs


def helm_options(files) -> HelmOptions:
    """The models, shared metrics and trials of a set of HELM files (see :func:`read_helm_runs`)."""
    runs = _runs(files)
    return HelmOptions(tuple(dict.fromkeys(model for model, _, _ in runs)), tuple(shared_metrics(runs)),
                       tuple(run.trials for _, _, run in runs))


def read_helm_runs(files, *, metric: str | None = None, trials: str = "samples") -> pd.DataFrame:
    """Read HELM runs of two models (their ``per_instance_stats.json``) into a per-answer log.

    Parameters
    ----------
    files : sequence of (str, str, bytes)
        ``(model, file_name, bytes)``, the baseline's first; the model is named by the caller (HELM's file does
        not name it). Several files of one model are further runs.
    metric : str, optional
        The per-instance metric to use as the score (``exact_match``, ``quasi_exact_match``, ``f1_score``, …; its
        mean per instance and trial, in [0, 1]). Default: the only such metric every record has, else a message
        listing them.
    trials : {"samples", "templates"}, optional
        What HELM's train trials are: ``"samples"`` — repeated answers per question (the LLM page's K; a model's
        further files numbered after the trials before); ``"templates"`` — prompt templates (``trial k``), the
        "Prompts and seeds" facet, since each trial draws its own in-context examples; a model's further files are
        then repeated samples.

    Returns
    -------
    pandas.DataFrame
        ``question, model, sample, score`` (``trials="samples"``; the input of :func:`fit_benchmark`) or
        ``question, model, template, sample, score`` (``"templates"``; the input of :func:`fit_facets`), question =
        ``instance_id``, of the ``test`` split when the run has one. ``.attrs`` holds ``metric``, ``models`` and
        ``notes`` (perturbed copies and the valid split left out, instances
        without the metric).

    Raises
    ------
    ValueError
        A file that cannot be read (:func:`read_helm_stats`), not exactly two models, an unknown or ambiguous
        ``metric``, or a value outside [0, 1] (naming the instance).

    Examples
    --------
    >>> def run(values):
    ...     return ("[" + ", ".join(f'{{"instance_id": "id{i}", "train_trial_index": 0, "stats": [{{"name": '
    ...                             f'{{"name": "exact_match"}}, "count": 1, "mean": {v}}}]}}'
    ...                             for i, v in enumerate(values)) + "]").encode()
    >>> log = read_helm_runs([("a", "a.json", run([1, 0])), ("b", "b.json", run([1, 1]))])
    >>> log.question.tolist(), log.score.tolist()
    (['id0', 'id1', 'id0', 'id1'], [1.0, 0.0, 1.0, 1.0])
    """
    trials = check_choice("trials", trials, HELM_TRIALS)
    runs = _runs(files)
    shared = shared_metrics(runs)
    if metric is None:
        if len(shared) != 1:
            raise ValueError("No metric with values in [0, 1] is in every record of every file." if not shared else
                             "Several metrics could be the score (" + ", ".join(map(repr, shared))
                             + "); choose one with `metric`.")
        metric = shared[0]
    elif not isinstance(metric, str) or metric not in shared:
        raise ValueError(f"`metric` {str(metric)[:40]!r} is not a metric with values in [0, 1] in every file; they "
                         "share " + (", ".join(map(repr, shared)) or "none") + ".")
    models = tuple(dict.fromkeys(model for model, _, _ in runs))
    rows, notes, offsets, perturbed = [], [f"Metric: `{metric}`."], {}, {}
    for model, file_name, run in runs:
        offset = offsets.get(model, 0)
        for instance, trial, means in run.records:
            value = means[metric]
            if trials == "samples":
                rows.append((instance, model, offset + trial, value))
            else:
                rows.append((instance, model, f"trial {trial}", offset, value))
        offsets[model] = offset + (max(t for _, t, _ in run.records) + 1 if trials == "samples" else 1)
        perturbed[model] = perturbed.get(model, 0) + run.perturbed
    for model, count in perturbed.items():
        if count:
            notes.append(f"Perturbed copies of instances (robustness and fairness variants) of {model}, left out: "
                         f"{count:,}.")
    valid = sum(run.other_splits for _, _, run in runs)
    if valid:
        notes.append(f"Instances of the valid split (HELM evaluates it beside test), left out: {valid:,}; the runs' "
                     "test instances are read.")
    if trials == "samples" and any(run.trials > 1 for _, _, run in runs):
        notes.append("HELM's train trials draw different in-context examples: read here as repeated answers (K); "
                     "the Prompts and seeds tab reads them as templates.")
    columns = (["question", "model", "sample", "score"] if trials == "samples" else
               ["question", "model", "template", "sample", "score"])
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs.update({"metric": metric, "models": models, "notes": notes})
    return frame

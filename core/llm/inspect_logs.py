"""Inspect AI evaluation logs (``.eval`` and ``.json``) as per-answer logs: bytes in, nothing executed.

Part of :mod:`core.llm`; every name is importable from there.

Format (read from UKGovernmentBEIS/inspect_ai at commit 499e615, release 0.3.260, and checked on logs written by
that release; the layout is unchanged in 0.3.285):

* A ``.eval`` log is a zip archive (``log/_recorders/eval.py``): ``header.json`` (the log without its samples:
  ``version``, ``status``, ``eval``, ``plan``, ``results``, ``stats``), written when the run ends;
  ``_journal/start.json`` (``version``, ``eval``, ``plan``) from its start; ``summaries.json`` (a list of sample
  summaries: ``id``, ``epoch``, ``scores``, ``error``, … with long texts shortened but score values exact) and,
  while it runs, ``_journal/summaries/<n>.json``; ``samples/<id>_epoch_<epoch>.json``, one per sample, with its
  messages and events (large). A name can repeat when a sample is retried; the last entry holds. Members are
  Deflate-compressed up to release 0.3.205 and Zstandard-compressed since (zip method 93, read with
  ``backports.zstd``).
* A ``.json`` log is the same object with ``samples`` (and ``reductions``) inside.
* A sample's ``scores`` maps each scorer's name (``match``, ``choice``, ``model_graded_fact``, …; ``match1`` for a
  second ``match``) to a Score whose ``value`` is a string, number, boolean, list or dict (``scorer/_metric.py``);
  an errored sample has ``scores: {}`` and an ``error``; NaN means unscored. Logs of version 1 carry one ``score``.
* The model is ``eval.model`` (``"openai/gpt-4o"``), the task ``eval.task``, the epochs ``eval.config.epochs``.
  How the run was set up: ``eval.task_args`` (the task's arguments with their defaults, e.g. a prompt template
  passed with ``-T template=cot``), ``eval.solver`` and ``eval.solver_args``, and the plan's steps
  (``plan.steps``: each a ``solver`` with its ``params``, e.g. ``prompt_template`` with its ``template``).

Scores become numbers as Inspect's own ``value_to_float`` makes them (``scorer/_metric.py``: ``"C"`` correct 1,
``"P"`` partial 0.5, ``"I"`` incorrect and ``"N"`` no answer 0, booleans, numbers, ``yes``/``true``/``no``/
``false``, numeric strings), except that a value it cannot convert is refused with its sample named instead of
counted as 0, and a number outside [0, 1] is refused: the LLM page models proportions correct. A dict-valued
score offers each key as its own score (``scorer/key``).
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from .. import uploads
from ..packed import zip_entries, zip_module, zip_read_errors

__all__ = ["InspectLog", "InspectOptions", "is_inspect_log", "read_inspect_log", "inspect_options",
           "read_inspect_logs"]

#: Inspect's score constants (``scorer/_metric.py``: CORRECT, PARTIAL, INCORRECT, NOANSWER) as proportions.
SCORE_LETTERS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
_WORDS = {"yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}
#: Most bytes of JSON read from one ``.eval`` log's members together (its header and summaries are small; sample
#: files with their transcripts are read only when a log has no summaries).
MAX_JSON_BYTES = uploads.MAX_BYTES
#: Most entries of a ``.eval`` zip (a sample file per sample and epoch, and the journal's).
MAX_ENTRIES = 200_000
_SAMPLE_FILE = re.compile(r"^samples/[^/]+_epoch_\d+(\.json|/sample\.json)$")
_JOURNAL_SUMMARY = re.compile(r"^_journal/summaries/(\d{1,9})\.json$")


@dataclass(frozen=True)
class InspectLog:
    """One Inspect log: who was evaluated on what, and every sample's scores.

    Attributes
    ----------
    model, task : str
        ``eval.model`` and ``eval.task``.
    status : str
        ``success``, ``error``, ``cancelled`` or ``started`` (a ``.eval`` log whose run has not ended).
    epochs : int
        ``eval.config.epochs`` (else the largest epoch seen).
    scorers : tuple of str
        The scores a sample can have, in order of first appearance (``scorer/key`` for a dict-valued score).
    samples : tuple of (str, int, dict)
        ``(id, epoch, {score name: value})`` per sample; an errored sample has an empty dict.
    invalidated : int
        Samples marked invalid (``invalidation``) and left out.
    settings : tuple of (str, str)
        How the run was set up, as sorted ``(path, JSON value)`` pairs: ``task``, ``task_args.<name>``, ``solver``,
        ``solver_args.<name>``, ``plan.config.system_message`` (``--system-message``) and ``plan.<solver>.<param>``
        (``plan.<solver>#2.<param>`` for a solver's second step). Two runs under different prompt templates differ
        here.
    """

    model: str
    task: str
    status: str
    epochs: int
    scorers: tuple[str, ...]
    samples: tuple[tuple[str, int, dict], ...]
    invalidated: int = 0
    settings: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class InspectOptions:
    """What two sets of Inspect logs offer the page: the models (from the logs), the scores every log has, the
    tasks and epochs."""

    models: tuple[str, str]
    scorers: tuple[str, ...]
    tasks: tuple[str, ...]
    epochs: tuple[int, ...]
    #: Why there is no score to choose, naming each log's scores (a log whose samples all errored has none); "" when
    #: the logs share one.
    no_score: str = ""


def is_inspect_log(name: str, data) -> bool:
    """Whether ``data`` looks like an Inspect log: a zip with ``header.json`` or ``_journal/start.json``, or a JSON
    object that starts with Inspect's ``version`` and ``status`` keys and has ``eval``."""
    head = bytes(data[:4096])
    if head[:4] == b"PK\x03\x04":
        return b"header.json" in bytes(data[-65_536:]) or b"_journal/start.json" in bytes(data[-65_536:])
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    return bool(re.match(r'\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:', text)) and '"eval"' in text


def _value(value, where: str) -> float | None:
    """A score value as a proportion (Inspect's ``value_to_float``; ``None``: unscored (NaN))."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise ValueError(f"{where}: the value is a number too large to read.") from None
    elif isinstance(value, str):
        if value in SCORE_LETTERS:
            return SCORE_LETTERS[value]
        text = value.lower()
        if text in _WORDS:
            return _WORDS[text]
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{where}: the value {value[:40]!r} is not a score the page can use (C, P, I, N, "
                             "yes/no, true/false or a number in [0, 1]).") from None
        if not math.isfinite(number):
            raise ValueError(f"{where}: the value {value[:40]!r} is not a finite number.")
    else:
        raise ValueError(f"{where}: the value is a {type(value).__name__}; choose a score with one value.")
    if math.isnan(number):
        return None
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"{where}: the value {number:g} is outside [0, 1]; the page models proportions correct "
                         "(choose a score of right/wrong or partial credit).")
    return number


def _flat_scores(scores) -> dict:
    """``{score name: raw value}``: a dict-valued score gives one entry per key (``scorer/key``)."""
    flat = {}
    if not isinstance(scores, dict):
        return flat
    for scorer, score in scores.items():
        value = score.get("value") if isinstance(score, dict) else None
        pairs = ([(f"{scorer}/{key}", inner) for key, inner in value.items()] if isinstance(value, dict) else
                 [(str(scorer), value)] if value is not None else [])
        for key, inner in pairs:
            if key in flat:  # a scorer named "a/b" beside key b of a dict-valued scorer a
                raise ValueError(f"two scores of one sample are both named `{key}`.")
            flat[key] = inner
    return flat


def _sample_entry(sample, scorer_v1: str, name: str, number: int):
    where = f"{name}, sample record {number:,}"
    if not isinstance(sample, dict) or "id" not in sample or "epoch" not in sample:
        raise ValueError(f"{where} is not a sample with an `id` and an `epoch`.")
    sample_id, epoch = sample["id"], sample["epoch"]
    if isinstance(sample_id, bool) or not isinstance(sample_id, (int, str)):
        raise ValueError(f"{where}: the id must be a number or a text, got {str(sample_id)[:40]!r}.")
    if isinstance(epoch, bool) or not isinstance(epoch, int) or not 1 <= epoch <= 100_000:
        raise ValueError(f"{where}: the epoch must be a whole number from 1, got {str(epoch)[:40]!r}.")
    scores = sample.get("scores")
    if scores is None and "score" in sample:  # version 1: one score, named by the results
        scores = {scorer_v1: sample["score"]}
    try:
        flat = _flat_scores(scores)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None
    return sample_id, epoch, flat, bool(sample.get("invalidation"))


def _json_text(value) -> str:
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):  # keys of mixed types, circular: compared as their repr
        return repr(value)[:10_000]


def _settings(evaluation: dict, plan) -> tuple[tuple[str, str], ...]:
    """``(path, JSON value)`` pairs of the run's set-up: task arguments, the solver and its arguments, the plan's
    steps with their parameters (Inspect's ``EvalSpec.task_args``, ``solver``, ``solver_args`` and
    ``EvalPlan.steps``)."""
    pairs = {}
    for field in ("task_args", "solver_args"):
        args = evaluation.get(field)
        if isinstance(args, dict):
            pairs.update({f"{field}.{key}": _json_text(value) for key, value in args.items()})
    if isinstance(evaluation.get("solver"), str):
        pairs["solver"] = _json_text(evaluation["solver"])
    # one @task per template names the template by the task; `--system-message` lands in the plan's config
    if isinstance(evaluation.get("task"), str):
        pairs["task"] = _json_text(evaluation["task"])
    config = plan.get("config") if isinstance(plan, dict) else None
    if isinstance(config, dict) and config.get("system_message") is not None:
        pairs["plan.config.system_message"] = _json_text(config["system_message"])
    steps = plan.get("steps") if isinstance(plan, dict) else None
    seen: dict[str, int] = {}
    for step in steps if isinstance(steps, list) else []:
        if not isinstance(step, dict) or not isinstance(step.get("solver"), str):
            continue
        solver = step["solver"]
        seen[solver] = seen.get(solver, 0) + 1
        name = solver if seen[solver] == 1 else f"{solver}#{seen[solver]}"
        params = step.get("params")
        pairs[f"plan.{name}"] = ""  # the step itself: a plan with one more step is set up differently
        if isinstance(params, dict):
            pairs.update({f"plan.{name}.{key}": _json_text(value) for key, value in params.items()})
    return tuple(sorted(pairs.items()))


def _log_from(header: dict, samples: Sequence, name: str, status_default: str) -> InspectLog:
    if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
        raise ValueError(f"{name} is not an Inspect log (no `eval` header).")
    version = header.get("version", 2)
    if isinstance(version, int) and version > 2:
        raise ValueError(f"{name} is an Inspect log of version {version}; versions 1 and 2 are read.")
    evaluation = header["eval"]
    model, task = str(evaluation.get("model") or "model"), str(evaluation.get("task") or "task")
    results = header.get("results") if isinstance(header.get("results"), dict) else {}
    listed = results.get("scores") if isinstance(results.get("scores"), list) else []
    names = [s.get("scorer") or s.get("name") for s in listed if isinstance(s, dict)]
    scorer_v1 = next((s for s in names if isinstance(s, str) and s), "score")
    latest: dict = {}
    for number, sample in enumerate(samples, start=1):
        sample_id, epoch, flat, invalid = _sample_entry(sample, scorer_v1, name, number)
        key = (str(sample_id), epoch)
        earlier = latest.get(key)
        if earlier is not None and earlier[0] != sample_id:  # 1 and "1": two samples one text would merge
            raise ValueError(f"{name} has samples with ids {earlier[0]!r} and {sample_id!r}, which read the same.")
        latest[key] = (sample_id, flat, invalid)  # a retried sample: its last record holds
    invalidated = sum(invalid for _, _, invalid in latest.values())
    kept = tuple((i, e, flat) for (i, e), (_, flat, invalid) in latest.items() if not invalid)
    if not kept:
        raise ValueError(f"{name} holds no samples (the run logged none, or `log_samples` was off).")
    scorers = tuple(dict.fromkeys(k for _, _, s in kept for k in s))
    config = evaluation.get("config") if isinstance(evaluation.get("config"), dict) else {}
    epochs = config.get("epochs")
    seen = max(e for _, e, _ in kept)
    # the config's epochs, or more when samples go beyond them: a further log's answers are numbered after these
    epochs = max(epochs, seen) if isinstance(epochs, int) and not isinstance(epochs, bool) and epochs > 0 else seen
    return InspectLog(model, task, str(header.get("status") or status_default), epochs, scorers, kept, invalidated,
                      _settings(evaluation, header.get("plan")))


def _read_member(archive, info, budget: list[int], name: str) -> object:
    if info.flag_bits & 0x1:
        raise ValueError(f"{name} is encrypted; upload the log as Inspect wrote it.")
    with archive.open(info) as handle:
        text = handle.read(budget[0] + 1)
    budget[0] -= len(text)
    if budget[0] < 0:
        raise ValueError(f"{name}: the parts of the log that are read ({info.filename} and those before it) exceed "
                         f"{MAX_JSON_BYTES / 2**20:g} MB; a log whose run ended has small sample summaries, one "
                         "still running is read from its sample files, with their transcripts.")
    try:
        return uploads._json_value(text.decode("utf-8"), name=f"{name} ({info.filename})", line=None)
    except UnicodeDecodeError as err:
        raise ValueError(f"{name}: {info.filename} is not UTF-8 text ({err}).") from None


def _read_eval(data: bytes, name: str) -> InspectLog:
    if zip_entries(data) > MAX_ENTRIES:  # bounded before zipfile parses the index
        raise ValueError(f"{name} lists more than {MAX_ENTRIES:,} files; it is not an Inspect log this page reads.")
    zipfile_ = zip_module()
    budget = [MAX_JSON_BYTES]
    try:
        with zipfile_.ZipFile(io.BytesIO(data)) as archive:
            latest = {info.filename: info for info in archive.infolist()}  # a repeated name: the last entry holds
            head = latest.get("header.json") or latest.get("_journal/start.json")
            if head is None:
                raise ValueError(f"{name} is a zip archive without Inspect's header.json or _journal/start.json.")
            header = _read_member(archive, head, budget, name)
            if "summaries.json" in latest:
                samples = _read_member(archive, latest["summaries.json"], budget, name)
            else:
                journal = sorted(((int(m.group(1)), info) for n, info in latest.items()
                                  if (m := _JOURNAL_SUMMARY.match(n))), key=lambda pair: pair[0])
                if journal:
                    samples = []
                    for _, info in journal:
                        part = _read_member(archive, info, budget, name)
                        if not isinstance(part, list):
                            raise ValueError(f"{name}: {info.filename} is not a list of sample summaries.")
                        samples += part
                else:
                    samples = [_read_member(archive, info, budget, name) for n, info in latest.items()
                               if _SAMPLE_FILE.match(n)]
    except NotImplementedError as err:
        raise ValueError(f"{name} uses a compression this installation cannot read ({err}); install the "
                         "requirements (backports.zstd) or convert it with `inspect log convert --to json`.") from None
    except zip_read_errors() as err:
        raise ValueError(f"{name} is not a readable .eval log ({err}).") from None
    if not isinstance(samples, list):
        raise ValueError(f"{name}: its sample summaries are not a list.")
    return _log_from(header, samples, name, "started" if head.filename != "header.json" else "success")


def read_inspect_log(data, *, name: str = "The log") -> InspectLog:
    """Read one Inspect AI log, ``.eval`` (zip) or ``.json``.

    Parameters
    ----------
    data : bytes
        The file as Inspect wrote it.
    name : str, optional
        How messages call the file.

    Returns
    -------
    InspectLog
        The model, task, status, epochs, score names and every sample's raw score values. From a ``.eval`` log
        only ``header.json`` and ``summaries.json`` are read (the sample files, with their transcripts, only when
        a log has no summaries); at most :data:`MAX_JSON_BYTES` of JSON in all.

    Raises
    ------
    ValueError
        A file that is not an Inspect log, is damaged or too large, or holds no samples.

    Examples
    --------
    >>> log = read_inspect_log(b'{"version": 2, "status": "success", "eval": {"model": "openai/gpt-4o", '
    ...                        b'"task": "arc", "config": {"epochs": 1}}, "samples": [{"id": 1, "epoch": 1, '
    ...                        b'"scores": {"choice": {"value": "C"}}}]}')
    >>> log.model, log.scorers, log.samples
    ('openai/gpt-4o', ('choice',), (('1', 1, {'choice': 'C'}),))
    """
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise ValueError(f"{name}: `data` must be the file's bytes.")
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        if len(data) > uploads.MAX_BYTES:
            raise ValueError(f"{name} is {len(data) / 2**20:.1f} MB; at most {uploads.MAX_BYTES / 2**20:g} MB is "
                             "accepted.")
        return _read_eval(data, name)
    log = uploads._json_value(uploads.decode_text(data, name=name), name=name, line=None)
    if not isinstance(log, dict):
        raise ValueError(f"{name} is not an Inspect log (a JSON object with `eval` and `samples`).")
    samples = log.get("samples", [])
    if not isinstance(samples, list):
        raise ValueError(f"{name}: its `samples` is not a list of samples.")
    return _log_from(log, samples, name, "success")


def _groups(baseline, new) -> list[list[tuple[str, InspectLog]]]:
    groups = []
    for role, files in (("baseline", baseline), ("new model", new)):
        if not isinstance(files, (list, tuple)) or not files:
            raise ValueError(f"Give the {role}'s Inspect logs as a list of (file_name, bytes).")
        group = []
        for item in files:
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
                raise ValueError(f"Each of the {role}'s logs must be (file_name, bytes).")
            group.append((item[0], read_inspect_log(item[1], name=f"`{item[0]}`")))
        groups.append(group)
    return groups


def _model_names(groups) -> tuple[str, str]:
    names = [group[0][1].model for group in groups]
    if names[0] == names[1]:  # one model under two prompts or settings: the roles tell them apart
        names = [f"{names[0]} (baseline)", f"{names[1]} (new)"]
    return names[0], names[1]


def _shared_scorers(groups) -> list[str]:
    """The scores every log has, in the first log's order."""
    logs = [log for group in groups for _, log in group]
    return [s for s in logs[0].scorers if all(s in log.scorers for log in logs[1:])]


def _no_score(groups) -> str:
    """The message when the logs share no score: each log's scores, up to eight logs."""
    named = [f"`{name[:80]}` has " + (", ".join(map(repr, log.scorers[:6])) + (" …" if len(log.scorers) > 6 else "")
                                     if log.scorers else "none (every sample errored or is unscored)")
             for group in groups for name, log in group]
    more = f"; and {len(named) - 8:,} more logs" if len(named) > 8 else ""
    return "The logs share no score: " + "; ".join(named[:8]) + more + "."


def _choose_scorer(groups, scorer: str | None) -> str:
    shared = _shared_scorers(groups)
    if scorer is None:
        if len(shared) != 1:
            raise ValueError(_no_score(groups) if not shared else
                             "The logs have several scores (" + ", ".join(map(repr, shared))
                             + "); choose one with `scorer`.")
        return shared[0]
    if scorer not in shared:
        raise ValueError(f"`scorer` {scorer!r} is not in every log; they share "
                         + (", ".join(map(repr, shared)) or "none") + ".")
    return scorer


def _scored(groups, models, scorer: str) -> tuple[list[list[list[tuple[str, int, float]]]], list[str]]:
    """Each model's logs' scored answers ``(sample id, epoch, value)``, log by log, and the notes on what was left
    out (unscored, errored and invalidated samples, runs that did not finish, logs of other models or tasks)."""
    notes = [f"Score: `{scorer}`."]
    for model, group in zip(models, groups):
        others = sorted({log.model for _, log in group[1:]} - {group[0][1].model})
        if others:
            notes.append(f"The logs read as {model} also name " + ", ".join(others) + "; they are read as runs of "
                         f"{model}.")
    runs = []
    for model, group in zip(models, groups):
        unscored, invalid, answers = 0, 0, []
        for file_name, log in group:
            run = []
            for question, epoch, scores in log.samples:
                value = scores.get(scorer)
                value = None if value is None else _value(value, f"`{file_name}`, sample {question[:40]!r}, "
                                                                 f"epoch {epoch}, score `{scorer}`")
                if value is None:
                    unscored += 1
                else:
                    run.append((question, epoch, value))
            answers.append(run)
            invalid += log.invalidated
            if log.status != "success":
                notes.append(f"`{file_name}` has status '{log.status}': its run did not finish; the samples it "
                             "scored are read.")
        if unscored:
            notes.append(f"Samples of {model} without a `{scorer}` score (errors, or unscored), left out: "
                         f"{unscored:,}.")
        if invalid:
            notes.append(f"Samples of {model} marked invalid in the log, left out: {invalid:,}.")
        runs.append(answers)
    tasks = list(dict.fromkeys(log.task for g in groups for _, log in g))
    if len(tasks) > 1:
        notes.append("The logs are of different tasks (" + ", ".join(tasks) + "); questions are matched by sample "
                     "id.")
    return runs, notes


def _ended_only(groups, models, runs, notes: list[str]) -> list:
    """``runs`` without the questions of a model that a running log of it has not ended every epoch of; a note per
    model names how many questions wait."""
    out = []
    for model, group, answers in zip(models, groups, runs):
        waiting: set[str] = set()
        for _, log in group:
            if log.status != "started":
                continue
            ended: dict[str, set[int]] = {}
            for question, epoch, _ in log.samples:  # an errored sample has ended too
                ended.setdefault(question, set()).add(epoch)
            waiting |= {question for question, epochs in ended.items() if len(epochs) < log.epochs}
        if waiting:
            notes.append(f"Questions of {model} whose epochs have not all ended yet, left out until they have: "
                         f"{len(waiting):,}.")
        out.append([[answer for answer in run if answer[0] not in waiting] for run in answers])
    return out


def inspect_options(baseline, new) -> InspectOptions:
    """The models, shared scores, tasks and epochs of two sets of Inspect logs (see :func:`read_inspect_logs`)."""
    groups = _groups(baseline, new)
    shared = tuple(_shared_scorers(groups))
    return InspectOptions(_model_names(groups), shared,
                          tuple(dict.fromkeys(log.task for g in groups for _, log in g)),
                          tuple(dict.fromkeys(log.epochs for g in groups for _, log in g)),
                          "" if shared else _no_score(groups))


def read_inspect_logs(baseline, new, *, scorer: str | None = None, ended_only: bool = False) -> pd.DataFrame:
    """Read the Inspect AI logs of two models on one task into a per-answer log.

    Parameters
    ----------
    baseline, new : sequence of (str, bytes)
        ``(file_name, bytes)`` of each model's logs (``.eval`` or ``.json``); usually one log each. The epochs of
        a log are the answers per question (K); several logs of one model are further runs, numbered after the
        epochs of the one before.
    scorer : str, optional
        The score to use (``match``, ``choice``, ``model_graded_fact``, ``scorer/key`` for a dict-valued score).
        Default: the only score every log has, else a message listing them.
    ended_only : bool
        For a log whose run is still going (status ``started``), keep only the questions whose every epoch has
        ended (scored or errored); a question left out of one log of a model is left out of all of them (one the
        running log has not begun is read from the model's other logs). While a
        run goes, the epochs that end first are not a random subset of a question's epochs (a long, often wrong
        answer takes longer), so a mean over them would weigh the quick answers too much. Default ``False``: every
        scored answer is read.

    Returns
    -------
    pandas.DataFrame
        ``question, model, sample, score`` (the sample id as text, the model named by ``eval.model``, or by its
        role when both logs name the same model; ``sample`` from 0), the input of :func:`fit_benchmark`;
        ``.attrs`` holds ``scorer``, ``models`` and ``notes`` (unscored and errored samples left out, a log that
        did not finish, tasks that differ).

    Raises
    ------
    ValueError
        A log that cannot be read (:func:`read_inspect_log`), an unknown or ambiguous ``scorer``, or a score value
        that is not a proportion (naming the sample and epoch).

    Examples
    --------
    >>> def log(model, letters):
    ...     samples = ", ".join(f'{{"id": {i}, "epoch": 1, "scores": {{"match": {{"value": "{v}"}}}}}}'
    ...                         for i, v in enumerate(letters))
    ...     return (f'{{"version": 2, "status": "success", "eval": {{"model": "{model}", "task": "qa"}}, '
    ...             f'"samples": [{samples}]}}').encode()
    >>> frame = read_inspect_logs([("a.json", log("m/a", "CIC"))], [("b.json", log("m/b", "CCC"))])
    >>> frame.score.tolist(), frame.attrs["models"]
    ([1.0, 0.0, 1.0, 1.0, 1.0, 1.0], ('m/a', 'm/b'))
    """
    groups = _groups(baseline, new)
    scorer = _choose_scorer(groups, scorer)
    models = _model_names(groups)
    runs, notes = _scored(groups, models, scorer)
    if ended_only:
        runs = _ended_only(groups, models, runs, notes)
    rows = []
    for model, group, answers in zip(models, groups, runs):
        offset = 0
        for (_, log), run in zip(group, answers):  # a further log's answers are numbered after the epochs before
            rows += [(question, model, offset + epoch - 1, value) for question, epoch, value in run]
            offset += log.epochs
    if not rows:
        raise ValueError(f"No sample of these logs has a `{scorer}` score.")
    frame = pd.DataFrame(rows, columns=["question", "model", "sample", "score"])
    frame["score"] = frame["score"].astype(float)
    frame.attrs.update({"scorer": scorer, "models": models, "notes": notes})
    return frame

"""Inspect AI logs of two models under several prompt templates, as the long log of :func:`core.llm.fit_facets`.

Part of :mod:`core.llm`; every name is importable from there.

Each model is run once per prompt template (or few-shot set, or system prompt): one log per run. A run's epochs
are its repeated answers per question (Inspect's ``--epochs``), the replications of the crossed
question × template design with replications (Brennan 2001, ch. 3). Which log of the new model goes with which
of the baseline's is read from how the runs were set up (:attr:`InspectLog.settings`: the task's arguments, the
solver's, the plan's steps and their parameters) when those tell every run of a model apart; else the k-th log of
each model is template k.
"""

from __future__ import annotations

import pandas as pd

from .inspect_logs import InspectLog, _choose_scorer, _groups, _model_names, _scored

__all__ = ["read_inspect_templates"]

#: Longest text of one setting's value in a template's label, and of a whole label.
LABEL_VALUE_CHARS, LABEL_CHARS = 40, 120


def _short(path: str) -> str:
    for prefix in ("task_args.", "solver_args.", "plan."):
        path = path.removeprefix(prefix)
    return path


def _differing(logs: list[InspectLog]) -> list[str]:
    """The setting paths whose value is not the same in every log (absent counts as a value)."""
    settings = [dict(log.settings) for log in logs]
    paths = sorted({path for s in settings for path in s})
    return [path for path in paths if len({s.get(path) for s in settings}) > 1]


def _labels(logs: list[InspectLog]) -> list[str]:
    """``template=cot``-like labels from the settings that differ between a model's runs; ``template k`` when
    none do."""
    paths = _differing(logs)
    labels = []
    for k, log in enumerate(logs, start=1):
        settings = dict(log.settings)
        parts = []
        for path in paths:
            value = settings.get(path)
            if value == "":  # a plan step without parameters: named by being there
                parts.append(_short(path))
            elif value is not None:
                text = value if len(value) <= LABEL_VALUE_CHARS else value[:LABEL_VALUE_CHARS - 1] + "…"
                parts.append(f"{_short(path)}={text}")
        label = ", ".join(parts) or f"template {k}"
        labels.append(label if len(label) <= LABEL_CHARS else label[:LABEL_CHARS - 1] + "…")
    if len(set(labels)) < len(labels):  # values cut to the same text
        labels = [f"{label} ({k})" for k, label in enumerate(labels, start=1)]
    return labels


def read_inspect_templates(baseline, new, *, scorer: str | None = None) -> pd.DataFrame:
    """Read Inspect AI logs, one per model and prompt template, into the long log of :func:`fit_facets`.

    Parameters
    ----------
    baseline, new : sequence of (str, bytes)
        ``(file_name, bytes)`` of each model's logs (``.eval`` or ``.json``), one log per template, the same
        number for both models. A log's epochs are its answers per question and template (K).
    scorer : str, optional
        The score to use, as in :func:`read_inspect_logs` (default: the only score every log has).

    Returns
    -------
    pandas.DataFrame
        ``question, model, template, sample, score`` (the sample id as text; ``sample`` = epoch − 1), the input
        of :func:`fit_facets`. ``.attrs`` holds ``scorer``, ``models``, ``notes`` and ``templates``: a tuple of
        ``(label, baseline file, new file)``.

    Notes
    -----
    **Pairing the runs.** A log's set-up (:attr:`InspectLog.settings`: ``eval.task_args``, ``eval.solver``,
    ``eval.solver_args`` and the plan's steps with their parameters) names its template when it differs between
    a model's runs. When every run of each model is set up differently and the two models were run under the same
    set-ups, runs are paired by set-up and a template is labelled by what differs (``template="cot"``); the
    baseline's order is the templates' order. Otherwise the k-th log of each model is template k, labelled
    ``template k``, with a note (and one more for each pair whose set-ups differ).

    Raises
    ------
    ValueError
        A log that cannot be read (:func:`read_inspect_log`), models with different numbers of logs, an unknown or
        ambiguous ``scorer``, a score value that is not a proportion, or no scored sample.

    Examples
    --------
    >>> def log(model, template, letters):
    ...     samples = ", ".join(f'{{"id": {i}, "epoch": 1, "scores": {{"match": {{"value": "{v}"}}}}}}'
    ...                         for i, v in enumerate(letters))
    ...     return (f'{{"version": 2, "status": "success", "eval": {{"model": "{model}", "task": "qa", '
    ...             f'"task_args": {{"template": "{template}"}}}}, "samples": [{samples}]}}').encode()
    >>> frame = read_inspect_templates([("a1.json", log("m/a", "plain", "CI")), ("a2.json", log("m/a", "cot", "CC"))],
    ...                                [("b2.json", log("m/b", "cot", "IC")), ("b1.json", log("m/b", "plain", "CC"))])
    >>> frame.attrs["templates"]
    (('template="plain"', 'a1.json', 'b1.json'), ('template="cot"', 'a2.json', 'b2.json'))
    >>> frame[frame.model == "m/b"].score.tolist()
    [1.0, 1.0, 0.0, 1.0]
    """
    groups = _groups(baseline, new)
    if len(groups[0]) != len(groups[1]):
        raise ValueError(f"The baseline has {len(groups[0])} logs and the new model {len(groups[1])}; give one log "
                         "per prompt template for each model.")
    scorer = _choose_scorer(groups, scorer)
    models = _model_names(groups)
    base_logs = [log for _, log in groups[0]]
    new_logs = [log for _, log in groups[1]]
    # only what varies within a model names its templates: a setting constant within each model (another Inspect
    # release's defaults, a model-specific argument) must not keep the runs apart
    varying = sorted(set(_differing(base_logs)) | set(_differing(new_logs)))
    base_keys = [tuple(dict(log.settings).get(p) for p in varying) for log in base_logs]
    new_keys = [tuple(dict(log.settings).get(p) for p in varying) for log in new_logs]
    matched = (bool(varying) and len(set(base_keys)) == len(base_keys) == len(set(new_keys))
               and set(base_keys) == set(new_keys))
    if matched:
        where = {key: j for j, key in enumerate(new_keys)}
        partner = [where[key] for key in base_keys]
    else:
        partner = list(range(len(new_keys)))
    labels = _labels(base_logs) if matched else [f"template {k}" for k in range(1, len(base_logs) + 1)]
    runs, notes = _scored(groups, models, scorer)
    if matched:
        notes.append("Templates are paired by how each run was set up (task, task arguments, solver, plan).")
    else:
        if len(base_logs) > 1:
            notes.append("The runs' set-ups (task, task arguments, solver, plan) do not pair the templates, so the "
                         "k-th log of each model is template k.")
        for k, (a, b) in enumerate(zip(base_logs, new_logs), start=1):
            differ = _differing([a, b])
            if differ:
                notes.append(f"Template {k}: the two models' runs are set up differently ("
                             + ", ".join(_short(p)[:60] for p in differ[:4]) + ("…" if len(differ) > 4 else "")
                             + ").")
    rows = []  # the baseline's rows first: fit_facets takes the first model listed as the baseline
    for model, side, order in ((models[0], runs[0], range(len(labels))), (models[1], runs[1], partner)):
        for label, i in zip(labels, order):
            rows += [(question, model, label, epoch - 1, value) for question, epoch, value in side[i]]
    if not rows:
        raise ValueError(f"No sample of these logs has a `{scorer}` score.")
    frame = pd.DataFrame(rows, columns=["question", "model", "template", "sample", "score"])
    frame["score"] = frame["score"].astype(float)
    templates = tuple((label, groups[0][i][0], groups[1][partner[i]][0]) for i, label in enumerate(labels))
    frame.attrs.update({"scorer": scorer, "models": models, "notes": notes, "templates": templates})
    return frame

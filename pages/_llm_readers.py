"""The LLM page's uploaders of evaluation frameworks' logs that name their own models or settings — Inspect AI
logs, HELM runs and lighteval details — shared by the "Estimate from your logs" and "Prompts and seeds" tabs and the Monitor (UI only;
numbers from ``core.llm``)."""

from __future__ import annotations

import streamlit as st

from core import llm
from pages._scaffold import cached_upload, list_of, safe_message
from pages._uploads import file_uploader, opened, upload_types


@cached_upload
def inspect_options(baseline, new):
    return llm.inspect_options(list(baseline), list(new))


@cached_upload
def read_inspect(baseline, new, scorer):
    return llm.read_inspect_logs(list(baseline), list(new), scorer=scorer)


@cached_upload
def read_inspect_templates(baseline, new, scorer):
    return llm.read_inspect_templates(list(baseline), list(new), scorer=scorer)


def read_inspect_uploads(*, prefix: str = "inspect", templates: bool = False):
    """The Inspect AI uploaders (one or more logs per model) and the score to use; ``(log, origin)`` or Nones.

    ``templates``: one log per prompt template (the "Prompts and seeds" tab's long log, paired by the runs' set-up);
    else further logs of a model are further runs (K)."""
    c1, c2 = st.columns(2)
    first = ("One .eval (or .json) log per prompt template, as `inspect eval` wrote them; a log's epochs are the "
             "answers per question and template." if templates else
             "The .eval (or .json) log that `inspect eval` wrote; its epochs are the answers per question (K).")
    files = [file_uploader(c, label, type=upload_types("eval", "json"), accept_multiple_files=True, key=key, help=hint)
             for c, label, key, hint in (
                 (c1, "Baseline's Inspect logs", f"{prefix}_a", first + " Nothing in the file is executed."),
                 (c2, "New model's Inspect logs", f"{prefix}_b", "The same task and samples as the baseline's"
                  + (", under the same templates." if templates else ".")))]
    # templates sorted by name: logs that do not say which template they ran are paired in this order
    files = [tuple((f.name, f.getvalue()) for f in (sorted(opened(group), key=lambda f: f.name) if templates else
                                                    opened(group))) for group in files]
    if not all(files):
        return None, None
    options = inspect_options(*files)
    c1, c2 = st.columns(2)
    scorer = c1.selectbox("Score", options.scorers, key=f"{prefix}_scorer",
                          help="The scorer whose value is the answer's score: C/I (correct, incorrect), P (partial, "
                          "0.5), N (no answer, 0), true/false or a number in [0, 1].")
    c2.caption(f"Models: {list_of(options.models)}; task {list_of(options.tasks)}; epochs "
               f"{', '.join(map(str, options.epochs))}.")
    if scorer is None:
        raise ValueError(options.no_score)
    log = (read_inspect_templates if templates else read_inspect)(*files, scorer)
    if templates:
        st.caption(safe_message("Templates: " + "; ".join(f"{label} ({a} ↔ {b})"
                                                          for label, a, b in log.attrs["templates"])))
    for note in log.attrs.get("notes", ())[1:]:  # the first names the score, which the selector shows
        st.caption(safe_message(note))
    return log, f"{sum(map(len, files))} Inspect logs"



@cached_upload
def helm_options(entries):
    return llm.helm_options(list(entries))


@cached_upload
def read_helm(entries, metric, trials):
    return llm.read_helm_runs(list(entries), metric=metric, trials=trials)


def _helm_group(files):
    """A model's uploads (an archive of a run folder is unpacked by :func:`opened`): its per_instance_stats.json
    files, the model its run_spec.json names (or None), the scenarios the run specs name, and the other files'
    names (left out)."""
    stats, model, scenarios, others = [], None, set(), []
    for f in files:
        data = f.getvalue()
        if llm.is_helm_stats(data):
            stats.append(f)
        elif f.name.rpartition("/")[2] == "run_spec.json":
            named = llm.helm_run_model(data, name=f"`{f.name}`")
            if model is not None and named != model:  # a zipped suite: runs of several models in one upload
                raise ValueError(f"The upload holds runs of several models ({model[:40]!r}, {named[:40]!r}); "
                                 "upload each model's run folders under its own name.")
            model = named
            scenarios.add(llm.helm_run_scenario(llm.helm_run_name(data, name=f"`{f.name}`")))
        else:
            others.append(f.name)
    return stats, model, scenarios - {""}, others


def read_helm_uploads(*, prefix: str = "helm", trials: str = "samples"):
    """The HELM uploaders (a model's name and its runs' per_instance_stats.json, or a zipped run folder whose
    run_spec.json names the model) and the metric to use; ``(log, origin)`` or Nones. ``trials``: what HELM's train
    trials are (:data:`core.llm.HELM_TRIALS`)."""
    c1, c2 = st.columns(2)
    groups = []
    for box, role, default in ((c1, "a", "baseline"), (c2, "b", "new")):
        name = box.text_input(f"{'Baseline' if role == 'a' else 'New'} model name", default,
                              key=f"{prefix}_name_{role}", max_chars=80,
                              help="Taken from the run's run_spec.json when it is uploaded too (a zipped run folder); "
                              "per_instance_stats.json does not name the model.")
        ups = file_uploader(box, "Its per_instance_stats.json", type=upload_types("json"), accept_multiple_files=True,
                            key=f"{prefix}_files_{role}",
                            help="From the HELM run's folder (benchmark_output/runs/<suite>/<run>/), or that "
                            "folder zipped; several runs of one model are further "
                            + ("runs (K)." if trials == "samples" else "samples.")
                            + " Perturbed copies of instances are left out. Nothing in the file is executed.")
        stats, model, scenarios, others = _helm_group(opened(ups))
        if others:
            box.caption("Not per-instance statistics, left out: " + list_of(others, limit=6))
        if model is not None and name.strip() == default:
            name = model
            box.caption("Model from run_spec.json: " + list_of([model]))
        if ups and not stats:
            raise ValueError(f"The {'baseline' if role == 'a' else 'new model'}'s uploads hold no HELM "
                             "per_instance_stats.json.")
        groups.append((name.strip() or default, stats, scenarios))
    if not all(files for _, files, _ in groups):
        return None, None
    if groups[0][0] == groups[1][0]:
        raise ValueError("The two models need different names.")
    named = [scenarios for _, _, scenarios in groups]
    if all(named) and named[0] != named[1]:  # HELM numbers instances id0, id1, … in every scenario
        raise ValueError("The two models' runs are of different scenarios (" + "; ".join(
            ", ".join(sorted(s))[:120] for s in named) + "); their instances would be matched by id across "
            "scenarios. Upload runs of the same scenario.")
    entries = tuple((name, f.name, f.getvalue()) for name, files, _ in groups for f in files)
    options = helm_options(entries)
    c1, c2 = st.columns(2)
    metric = c1.selectbox("Metric", options.metrics, key=f"{prefix}_metric",
                          help="The per-instance score: exact_match, quasi_exact_match, f1_score, … (the metrics "
                          "with values in [0, 1] that every instance has).")
    c2.caption(f"Train trials per run: {', '.join(map(str, options.trials))}"
               + (" (each a set of in-context examples: the templates)." if trials == "templates" else "."))
    if metric is None:
        raise ValueError("The files share no per-instance metric with values in [0, 1].")
    log = read_helm(entries, metric, trials)
    for note in log.attrs.get("notes", ())[1:]:  # the first names the metric, which the selector shows
        st.caption(safe_message(note))
    return log, f"{len(entries)} HELM files"


@cached_upload
def lighteval_options(entries):
    return llm.lighteval_options(list(entries))


@cached_upload
def read_lighteval(entries, metric):
    return llm.read_lighteval_runs(list(entries), metric=metric)


def read_lighteval_uploads(*, prefix: str = "lighteval"):
    """The lighteval uploaders (a model's name and its details_<task>_<date>.parquet files, or its zipped output
    folder, whose results_<date>.json names the model) and the metric to use; ``(log, origin)`` or Nones."""
    c1, c2 = st.columns(2)
    groups = []
    for box, role, default in ((c1, "a", "baseline"), (c2, "b", "new")):
        name = box.text_input(f"{'Baseline' if role == 'a' else 'New'} model name", default,
                              key=f"{prefix}_name_{role}", max_chars=80,
                              help="Taken from the run's results_<date>.json when it is uploaded too (the output "
                              "folder zipped); the Parquet file does not name the model.")
        ups = file_uploader(box, "Its details_*.parquet files", type=upload_types("parquet"),
                            accept_multiple_files=True, key=f"{prefix}_files_{role}",
                            help="What `lighteval … --save-details` writes to <output-dir>/details/<model>/<date>/"
                            " (or the output folder zipped), one file per task (several tasks are one benchmark, "
                            "each task a cluster; a task's further file is a further run, K). Only the ids and "
                            "metrics are read; nothing in the file is executed.")
        files, found, others = [], [], []
        for f in opened(ups):
            data = f.getvalue()
            if llm.is_lighteval_details(data):
                files.append(f)
            elif llm.is_lighteval_results(data):
                found.append(llm.lighteval_run_model(data, name=f"`{f.name}`"))
            else:
                others.append(f.name)
        if others:
            box.caption("Not lighteval details, left out: " + list_of(others, limit=6))
        found = list(dict.fromkeys(found))
        if len(found) == 1 and name.strip() == default:
            name = found[0]
            box.caption("Model from the results file: " + list_of(found))
        if ups and not files:
            raise ValueError(f"The {'baseline' if role == 'a' else 'new model'}'s uploads hold no lighteval "
                             "details (a Parquet file with `doc` and `metric` columns).")
        groups.append((name.strip() or default, files))
    if not all(files for _, files in groups):
        return None, None
    if groups[0][0] == groups[1][0]:
        raise ValueError("The two models need different names.")
    entries = tuple((name, f.name, f.getvalue()) for name, files in groups for f in files)
    options = lighteval_options(entries)
    c1, c2 = st.columns(2)
    metric = c1.selectbox("Metric", options.metrics, key=f"{prefix}_metric",
                          help="The per-sample score: acc, acc_norm, em, extractive_match, pass@k, … (the numeric "
                          "metrics with values in [0, 1] that every file has).")
    c2.caption(f"Tasks: {list_of(options.tasks)}.")
    if metric is None:
        raise ValueError("The files share no per-sample metric with values in [0, 1].")
    log = read_lighteval(entries, metric)
    for note in log.attrs.get("notes", ())[1:]:  # the first names the metric, which the selector shows
        st.caption(safe_message(note))
    return log, f"{len(entries)} lighteval details files"

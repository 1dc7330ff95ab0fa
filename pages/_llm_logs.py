"""The LLM page's logs: the "Estimate from your logs" tab (uploaders, the fitted parameters, per-task accuracy) and
the item list to evaluate (UI only; numbers from ``core.llm``)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import streamlit as st

from core import llm, uploads
from core.runnable import harness_command, harness_task, item_list_json
from pages._fields import field_help, field_input
from pages._links import asked_late, narrowed, report_late
from pages._llm_readers import read_helm_uploads, read_inspect_uploads, read_lighteval_uploads
from pages._scaffold import apply_values, cached, cached_upload, guard, list_of, safe_message
from pages._uploads import file_uploader, opened, upload_types

FIT_VIEW = "Estimate from your logs"
K_OPTIONS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50]
M_OPTIONS = [1, 2, 3, 4, 5, 8, 10, 15, 20, 25, 50, 100]


@cached_upload
def read_log(data: bytes, name: str, columns=None):
    return llm.read_benchmark_log(data, name=name, columns=None if columns is None else dict(columns))


@cached_upload
def log_header(data: bytes):
    """The log's column names (a table's header, or the keys of the first JSON records)."""
    if uploads.looks_like_json(data):
        records = uploads.read_jsonl(data, name="The log")
        return list(dict.fromkeys(k for rec in records[:1000] for k in rec))
    return list(uploads.read_table(data, name="The log", min_columns=2, header="yes").columns)


def log_mapping(data: bytes):
    """The mapping step when the log's columns are not named question, model and score (or a known alias)."""
    names = log_header(data)
    try:
        llm._find_columns(names, "The log")
        return None
    except ValueError:
        pass
    if len(names) < 3:
        return None  # the reader says what is missing
    st.info("The log's columns are not named question, model and score: say which columns hold them.")
    cols = st.columns(3)
    labels = {"question": "Question", "model": "Model", "score": "Score (0–1 or true/false)"}
    return tuple((role, cols[k].selectbox(labels[role], names, index=min(k, len(names) - 1), key=f"log_col_{role}"))
                 for k, role in enumerate(("question", "model", "score")))


@cached
def harness_options(entries):
    return llm.harness_options(list(entries))


@cached_upload
def read_harness(entries, metric, filter_, files_per_model="runs"):
    return llm.read_harness_samples(list(entries), metric=metric, filter=filter_, files_per_model=files_per_model)


@cached_upload
def fit(log: pd.DataFrame, judge_se, judge_sp):
    return llm.fit_benchmark(log, judge_sensitivity=judge_se, judge_specificity=judge_sp, seed=0)


@cached
def tasks_of(log: pd.DataFrame, by, alpha, target):
    return llm.task_table(log, by=by, alpha=alpha, target_power=target)


def nearest(options, value):
    return min(options, key=lambda o: abs(o - value))


def read_logs():
    """The tab's uploaders, always rendered (hidden under another tab) so that an upload survives a tab switch.

    Returns ``(log, origin, task)``: the per-answer log (None without one), where it came from, and the harness
    task of its first file (for the item list)."""
    log, origin, files_a = None, None, []
    source = st.radio("Logs", ["tidy", "harness", "inspect", "helm", "lighteval", "sample"], horizontal=True,
                      key="log_source",
                      format_func={"tidy": "per-answer table (CSV/JSONL)", "harness": "lm-evaluation-harness files",
                                   "inspect": "Inspect AI logs", "helm": "HELM runs", "lighteval": "lighteval details",
                                   "sample": "worked example (synthetic)"}.get,
                      help="A tidy log has columns question, model, score (0–1) and optionally sample and cluster. "
                      "lm-evaluation-harness files come from `--log_samples` (one or more per model). Inspect AI "
                      "logs are the .eval (or .json) files `inspect eval` writes, one or more per model. HELM runs: "
                      "each run's per_instance_stats.json; its train trials are read as K. lighteval details: "
                      "the details_<task>_<date>.parquet files of `--save-details`.")
    with guard("Cannot read these logs", stop=False):
        if source == "tidy":
            up = file_uploader(st, "Per-answer log",
                               type=upload_types("csv", "tsv", "txt", "jsonl", "json"), key="log_file",
                               help="Nothing in the file is executed.")
            up = opened(up)
            if up is not None:
                log, origin = read_log(up.getvalue(), up.name, log_mapping(up.getvalue())), up.name
        elif source == "harness":
            c1, c2 = st.columns(2)
            name_a = c1.text_input("Baseline model name", "baseline", key="name_a", max_chars=80)
            files_a = file_uploader(c1, "Its samples_*.jsonl files",
                                    type=upload_types("jsonl", "json"), accept_multiple_files=True,
                                    key="files_a", help="One file per run; several runs give K > 1.")
            name_b = c2.text_input("New model name", "new", key="name_b", max_chars=80)
            files_b = file_uploader(c2, "Its samples_*.jsonl files",
                                    type=upload_types("jsonl", "json"), accept_multiple_files=True,
                                    key="files_b", help="The same task and documents as the baseline.")
            files_a, files_b = opened(files_a), opened(files_b)
            if files_a and files_b:
                if name_a.strip() == name_b.strip():
                    raise ValueError("The two models need different names.")
                entries = tuple((name, f.name, f.getvalue()) for name, files in ((name_a, files_a), (name_b, files_b))
                                for f in files)
                options = harness_options(entries)
                c1, c2 = st.columns(2)
                metric = c1.selectbox("Metric", options.metrics, key="harness_metric",
                                      help="The per-sample score, e.g. acc or exact_match.")
                filt = c2.selectbox("Filter", options.filters, key="harness_filter",
                                    help="The answer-extraction pipeline (e.g. strict-match).")
                per_model = st.radio("Several files of one model are", list(llm.FILES_PER_MODEL), horizontal=True,
                                     key="harness_files", format_func={"runs": "repeated runs (K > 1)",
                                                                       "tasks": "different tasks"}.get,
                                     help="Tasks (e.g. MMLU subjects) become clusters, and the table below gets one "
                                     "row per task.")
                log, origin = read_harness(entries, metric, filt, per_model), f"{len(entries)} harness files"
        elif source == "inspect":
            log, origin = read_inspect_uploads()
        elif source == "helm":
            log, origin = read_helm_uploads()
        elif source == "lighteval":
            log, origin = read_lighteval_uploads()
        else:
            log, origin = llm.sample_log(), "the synthetic worked example (core/data/llm_sample/benchmark_log.csv)"
            st.caption("Synthetic data, generated from the page's own model: two models × 300 questions in 60 "
                       "clusters × K = 5 answers.")
    task = harness_task(files_a[0].name) if source == "harness" and files_a else "benchmark"
    return log, origin, task


def show_fit(log, origin, design, target, plotted):
    """The fitted parameters, the button that puts them in the sliders, and the per-task table."""
    fitted = None
    with guard("Cannot estimate the parameters", stop=False):
        fitted = fit(log, design.se, design.sp)
    if fitted is not None:
        a_name, b_name = fitted.models
        st.markdown(f"Estimated from {safe_message(origin)}: baseline {list_of([a_name])}, new model "
                    f"{list_of([b_name])}; **{fitted.n_questions:,}** questions"
                    + (f" in {fitted.n_clusters:,} clusters" if fitted.n_clusters else "") + f", K = {fitted.samples}.")
        for note in fitted.notes:
            st.caption(safe_message(note))
        rows = [("accuracy of A", fitted.accuracy[a_name], fitted.se.get("accuracy_a")),
                ("accuracy of B", fitted.accuracy[b_name], fitted.se.get("accuracy_b")),
                ("gain B − A", fitted.delta, fitted.se.get("delta")),
                ("difficulty spread σ", fitted.difficulty_sd, fitted.se.get("difficulty_sd")),
                ("correlation ρ", fitted.correlation, fitted.se.get("correlation")),
                ("ICC", fitted.icc, fitted.se.get("icc"))]
        table = pd.DataFrame([(name, value, se) for name, value, se in rows if value is not None],
                             columns=["parameter", "estimate", "standard error"])
        plotted["fitted_parameters"] = table
        st.dataframe(table, hide_index=True, width="stretch",
                     column_config={"estimate": st.column_config.NumberColumn(format="%.4f"),
                                    "standard error": st.column_config.NumberColumn(format="%.4f")})
        st.caption("Standard errors: bootstrap over clusters (or questions). The gain's cluster-robust standard "
                   f"error is {fitted.delta_se:.4f}. The logs' own gain is not your expected gain: plan for the "
                   "gain you hope to detect.")
        values = {"acc_a": float(np.clip(round(200 * fitted.accuracy[a_name]) / 2, 1.0, 99.0)),
                  "k": nearest(K_OPTIONS, fitted.samples), "m": nearest(M_OPTIONS, fitted.cluster_size)}
        if fitted.difficulty_sd is not None:
            values["sd"] = float(np.clip(round(fitted.difficulty_sd, 2), 0.0, 0.5))
        if fitted.correlation is not None:
            values["rho"] = float(np.clip(round(fitted.correlation * 20) / 20, -0.5, 1.0))
        if fitted.icc is not None:
            values["icc"] = float(np.clip(round(fitted.icc * 20) / 20, 0.0, 1.0))
        if fitted.difficulty_sd is None and math.isfinite(fitted.covariance):
            # one answer per question: only ρσ² is identified; set σ and ρ with that product
            values["sd"], values["rho"] = llm.difficulty_from_covariance(
                float(np.clip(fitted.covariance, -1.0, 1.0)), fitted.accuracy[a_name], fitted.accuracy[b_name],
                prefer_sd=float(design.difficulty_sd))
            st.caption(f"With one answer per question only the covariance of the two models' question scores "
                       f"is identified (ρσ² = {fitted.covariance:.4f}), not σ and ρ apart: the paired variance "
                       "of a K = 1 evaluation depends on their product only. The button sets σ = "
                       f"{values['sd']:.2f} and ρ = {values['rho']:.2f} (ρσ² = "
                       f"{values['rho'] * values['sd'] ** 2:.4f}), which plans the same K = 1 evaluation; for "
                       "K > 1 log several answers per question so that σ itself can be estimated.")
        # most of these sliders are in the sidebar, outside the page's fragment: the whole page reruns with them
        if st.button("Use these values in the sliders", on_click=apply_values, args=(values,), key="use_fit",
                     type="primary", help="Sets the baseline accuracy, σ, ρ, K, m and ICC (rounded to the sliders' "
                     "steps); the expected gain stays yours."):
            st.rerun()
    with guard("Cannot summarise the tasks", stop=False):
        grouped = False
        if "cluster" in log.columns:
            typical = int(log.groupby("cluster")["question"].nunique().median())
            grouped = st.toggle("One row per cluster (task)", value=typical >= 30, key="per_cluster",
                                help="Clusters are tasks when several tasks were uploaded (e.g. MMLU subjects); "
                                f"here a cluster has {typical:,} questions in the middle.")
        per_task = tasks_of(log, "cluster" if grouped else None, design.alpha, target)
        plotted["per_task"] = per_task
        st.markdown("**Per " + ("task (cluster)" if grouped else "model, whole log") + ":** questions, accuracy "
                    f"with its Wilson 95% interval, and the paired gain detectable with {target:.0%} power.")
        st.dataframe(per_task, hide_index=True, width="stretch", column_config={
            "task": "Task", "model": "Model", "n": st.column_config.NumberColumn("Questions", format="%d"),
            "accuracy": st.column_config.NumberColumn("Accuracy", format="percent"),
            "low": st.column_config.NumberColumn("Wilson low", format="percent"),
            "high": st.column_config.NumberColumn("Wilson high", format="percent"),
            "mde": st.column_config.NumberColumn(f"MDE at {target:.0%} (pts)", format="percent"),
            "flag": "Check"})
        flagged = int((per_task["flag"] != "").sum())
        if flagged:
            st.warning(f"**{flagged} row(s) flagged:** all right or all wrong (a CLT standard error would be 0), "
                       "or fewer than 30 questions. Report Wilson intervals there, and do not rank models on such "
                       "tasks alone (Bowyer et al. 2025).")


def text_input(cls, name: str, box) -> str:
    """A declared text field's widget (bound to the URL under its key, as :func:`pages._fields.field_input` binds
    the others), at most :data:`core.llm.TASK_CHARS` characters."""
    f = cls.field(name)
    return box.text_input(f.label, f.default, max_chars=llm.TASK_CHARS, key=f.key, bind="query-params",
                          help=field_help(f))


def item_list_box(n, log, origin, task):
    """The questions to evaluate: a seeded random subset (not the first n), the same for every model."""
    items_box = st.expander("Download the item list — which questions to evaluate, the same for every model",
                            key="items_open", on_change="rerun", icon=":material/format_list_numbered:")
    if not items_box.open:
        return
    with items_box, guard("Cannot draw the item list", stop=False):
        c1, c2 = st.columns(2)
        lst = llm.ItemListDesign
        values = dict(seed=field_input(lst, "seed", c1, label=lst.field("seed").label))
        if log is not None:
            questions = log.drop_duplicates("question")
            item_ids = questions["question"].tolist()
            item_clusters = questions["cluster"].tolist() if "cluster" in questions.columns else None
            item_task = task
            st.caption(f"Drawn from the {len(item_ids):,} questions of {safe_message(origin)}"
                       + (", stratified by cluster (each cluster keeps its share)." if item_clusters else "."))
        else:
            # the benchmark holds at least the n questions: the widget starts at n (and at 10 × n)
            at_least_n = dataclasses.replace(lst.field("n_total"), ui_low=n)
            narrowed(at_least_n)  # a link asking for fewer than the n questions is told this range
            asked = asked_late(at_least_n.key)  # the box opens on a later run than the link's check
            values["n_total"] = field_input(at_least_n, "n_total", c2, label=lst.field("n_total").label,
                                            default=lst().total(n))
            report_late(at_least_n.key, asked, at_least_n, c2)
            values["task"] = text_input(lst, "task", c1)
        items = lst(**values)
        if log is None:
            total_items = items.total(n)
            item_ids, item_clusters, item_task = range(total_items), None, items.task
            st.caption(f"No log uploaded (view “{FIT_VIEW}”): {n:,} of {total_items:,} items numbered 0 … "
                       f"{total_items - 1:,}, assumed to be the harness's doc_ids. Upload a log to draw from its own "
                       "questions, stratified by cluster.")
        if n > len(item_ids):
            st.warning(f"The log has {len(item_ids):,} questions, fewer than n = {n:,}: lower n, or evaluate them "
                       "all.")
        else:
            chosen = items.run(n, ids=item_ids, clusters=item_clusters, task=item_task)
            d1, d2 = st.columns(2)
            d1.download_button("Download the item list (JSON)", data=item_list_json(chosen).encode("utf-8"),
                               file_name="item_list.json", mime="application/json", key="items_json",
                               on_click="ignore", help="{task: [doc_id, …]}: what lm-evaluation-harness's "
                               "--samples takes.")
            d2.download_button("Download the item list (CSV)", data=chosen.to_csv(index=False).encode("utf-8"),
                               file_name="item_list.csv", mime="text/csv", key="items_csv", on_click="ignore")
            command = harness_command(chosen)
            if command:
                st.markdown("Run **each model** with the same list (lm-evaluation-harness ≥ 0.4.9; `--samples` "
                            "cannot be combined with `--limit`):")
                st.code(command, language="bash", wrap_lines=True)
                st.caption("In the logs of such a run, doc_id numbers the chosen documents 0, 1, … in the order of "
                           "the list, so the k-th logged doc_id is the list's k-th id.")
            else:
                st.markdown("These ids are question texts or names, which the harness cannot select. Evaluate each "
                            "model on the benchmark, then keep only the listed questions before the analysis, e.g. "
                            "`log[log['question'].isin(pd.read_csv('item_list.csv')['item'])]`.")


"""The subset tab's past results: a models × items correctness table, or one evaluation log per model
(lm-evaluation-harness, Inspect AI, HELM), kept for the session (UI only; numbers from ``core.llm``)."""

from __future__ import annotations

import streamlit as st

from core import llm
from pages._scaffold import cached_upload, guard, safe_message
from pages._uploads import file_uploader, opened, upload_types

SOURCES = {"table": "a models × items table (CSV/TSV)",
           "runs": "one evaluation log per model (lm-evaluation-harness, Inspect AI, HELM)"}


@cached_upload
def read_matrix(data: bytes, name: str):
    return llm.read_correctness(data, name=name)


@cached_upload
def run_options(files):
    return llm.correctness_options(list(files))


@cached_upload
def read_runs(files, metric, filter_):
    return llm.read_correctness_files(list(files), metric=metric, filter=filter_)


def _kept(key: str, files, label: str):
    """The uploads, else those of earlier in the session: the tab's uploader is not drawn while another tab is
    open, and Streamlit then forgets its files, so the last ones read are kept (one set per source)."""
    if files:
        st.session_state[key] = files
        return files
    kept = st.session_state.get(key)
    if kept:
        st.caption(f"Using {safe_message(label(kept))} (uploaded earlier in this session).")
        st.button("Forget this upload", key=f"{key}_forget", on_click=lambda: st.session_state.pop(key, None))
    return kept


def correctness_matrix():
    """The uploaded past results as a models × items matrix and what to call it; Nones without an upload."""
    source = st.radio("Past models' results", list(SOURCES), format_func=SOURCES.get, horizontal=True,
                      key="sub_source", help="The per-item results of models already evaluated on this benchmark: "
                      "each model is predicted from the others' item means.")
    with guard("Cannot read the correctness file", stop=False):
        if source == "table":
            up = file_uploader(st, "Models × items correctness (CSV/TSV)",
                               type=upload_types("csv", "tsv", "txt"), key="sub_file",
                               help="One row per model (first column its name), one column per item, 0/1 or "
                               "scores in [0, 1]; or a long table model, item, score. Nothing in the file is "
                               "executed.")
            up = opened(up)
            kept = _kept("sub_file_kept", (up.name, up.getvalue()) if up is not None else None, lambda k: k[0])
            if kept is None:
                _hint()
                return None, None
            return read_matrix(kept[1], kept[0]), kept[0]
        ups = file_uploader(st, "One run per file: harness samples_*.jsonl, Inspect .eval/.json logs, HELM "
                            "per_instance_stats.json or lighteval details_*.parquet",
                            type=upload_types("jsonl", "json", "eval", "parquet"),
                            accept_multiple_files=True, key="sub_runs",
                            help="Models are named by the harness output's model folder, the Inspect log's "
                            "model, the HELM run folder (or its run_spec.json), or lighteval's results_<date>.json "
                            "beside the details; a zipped folder of runs is read whole. Items are matched by "
                            "doc_id, sample id, instance_id or doc.id. Nothing in the files is executed.")
        files = tuple((f.name, f.getvalue()) for f in opened(ups))
        kept = _kept("sub_runs_kept", files, lambda k: f"{len(k)} files")
        if not kept:
            _hint()
            return None, None
        options = run_options(kept)
        c1, c2 = st.columns(2)
        metric = c1.selectbox("Score", options.metrics, key="sub_runs_metric",
                              help="The per-item score with values in [0, 1] that every file has.")
        filter_ = (c2.selectbox("Filter", options.filters, key="sub_runs_filter",
                                help="The harness's answer-extraction pipeline.") if options.kind == "harness"
                   else None)
        if metric is None:
            raise ValueError("The files share no per-item score with values in [0, 1].")
        matrix = read_runs(kept, metric, filter_)
        for note in matrix.attrs["notes"][1:]:  # the first names the score, which the selector shows
            st.caption(safe_message(note))
        return matrix, f"{len(options.models)} {llm.CORRECTNESS_KINDS[options.kind]}"
    return None, None


def _hint() -> None:
    st.caption("Upload past models' per-item results to see the difference estimator's SE: the mean prediction over "
               "all items plus the mean residual on the subset (unbiased whatever the predictor), each model "
               "predicted by the other models' item means.")

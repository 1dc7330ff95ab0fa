"""The Monitor page's results so far: the data sources' widgets and readers (UI only; numbers from
``core.sequential``'s readers, :func:`core.llm.read_harness_samples` and :func:`core.llm.read_inspect_logs`)."""

from __future__ import annotations

from types import SimpleNamespace

import streamlit as st

from core import llm
from core import pairwise as pw
from core import sequential as sq
from pages._llm_readers import inspect_options
from pages._scaffold import cached, cached_upload, guard, md_escape, safe_message
from pages._uploads import file_uploader, opened, upload_types

SOURCES = {"sample": "built-in example", "scores": "per-item scores", "harness": "lm-evaluation-harness files",
           "inspect": "Inspect AI logs", "votes": "pairwise votes"}


@cached
def sample():
    return sq.sample_differences()


@cached
def read_scores(data: bytes, name: str):
    return sq.read_paired_scores(data, name=f"`{name}`", read_log=llm.read_benchmark_log)


@cached
def read_harness(entries):
    return sq.differences_from_log(llm.read_harness_samples(list(entries)))


@cached_upload
def read_inspect(baseline, new, scorer):
    log = llm.read_inspect_logs(list(baseline), list(new), scorer=scorer, ended_only=True)
    out = sq.differences_from_log(log)
    out.attrs["notes"] = log.attrs["notes"][1:]  # the first names the score, which the selector shows
    return out


@cached
def read_votes(data: bytes, name: str):
    return sq.differences_from_votes(pw.read_votes(data, name=f"`{name}`"))


def _inspect_data(side):
    """The Inspect AI uploaders and the score to use: the per-question differences and ``(model A's file names,
    model B's, the score)``."""
    groups = {}
    for role in ("a", "b"):
        ups = file_uploader(side, f"Model {role.upper()}: Inspect logs", type=upload_types("eval", "json"),
                            accept_multiple_files=True, key=f"inspect_log_{role}",
                            help="The .eval (or .json) log that `inspect eval` writes, also while the run is "
                            "going (its journal is read); several logs of a model are further runs. Nothing in "
                            "the file is executed.")
        groups[role] = tuple((f.name, f.getvalue()) for f in opened(ups))
    if not all(groups.values()):
        st.info("Upload the Inspect logs of both models in the sidebar, or switch to the built-in example.")
        st.stop()
    options = inspect_options(groups["a"], groups["b"])
    scorer = side.selectbox("Score", options.scorers, key="inspect_log_scorer",
                            help="The scorer whose value is the answer's score (C/I, P as 0.5, N as 0, true/false "
                            "or a number in [0, 1]); a question's epochs are averaged.")
    if scorer is None:
        raise ValueError(options.no_score)
    data = read_inspect(groups["a"], groups["b"], scorer)
    side.caption(safe_message(f"Questions answered by both models, in the order {options.models[0]}'s log lists "
                              "them."))
    for note in data.attrs["notes"]:
        side.caption(safe_message(note))
    return data, (*(tuple(name for name, _ in groups[role]) for role in "ab"), scorer)


def load(side):
    """The results so far: the data source's widgets and the per-item differences they give."""
    up, files, inspect = None, {}, None
    source = side.radio("Data", list(SOURCES), format_func=SOURCES.get, key="source", bind="query-params",
                        help="Per-item results in the order they came in: scores of two systems (a CSV with one column "
                        "per system, or the LLM page's per-answer log), lm-evaluation-harness samples files or Inspect "
                        "AI logs of two models, or pairwise votes (the Leaderboard page's format). "
                        "The example is the LLM page's synthetic benchmark log (two models, 300 questions).")
    with guard("Cannot read the results", stop=True):
        if source == "sample":
            data = sample()
            origin = "the built-in synthetic LLM benchmark log"
        elif source == "harness":
            files = {}
            for role, default in (("a", "baseline"), ("b", "new")):
                name = side.text_input(f"Model {role.upper()} name", default, key=f"harness_name_{role}", max_chars=80)
                ups = file_uploader(side, f"Model {role.upper()}: samples_*.jsonl files", type=upload_types("jsonl"),
                                    accept_multiple_files=True, key=f"harness_{role}",
                                    help="lm-evaluation-harness `--log_samples` output, read as on the LLM page "
                                    "(first metric and filter). Nothing in the file is executed.")
                files[name.strip() or default] = opened(ups)
            if not all(files.values()):
                st.info("Upload the samples files of both models in the sidebar, or switch to the built-in example.")
                st.stop()
            if len(files) < 2:
                raise ValueError("The two models need different names.")
            data = read_harness(tuple((name, f.name, f.getvalue()) for name, ups in files.items() for f in ups))
            origin = f"{sum(len(v) for v in files.values())} harness files"
        elif source == "inspect":
            data, inspect = _inspect_data(side)
            origin = f"{len(inspect[0]) + len(inspect[1])} Inspect logs"
        else:
            up = file_uploader(side, "Upload the results", type=upload_types("csv", "tsv", "txt", "json", "jsonl"),
                               key=f"{source}_file",
                               help="Scores: a CSV with one column per system (one row per item), or the LLM page's "
                               "per-answer log (question, model, score). Votes: model_a, model_b, winner (Leaderboard "
                               "format). Nothing in the file is executed." if source == "scores" else
                               "model_a, model_b, winner per vote, in the order they came in; the pair of systems "
                               "with the most battles is monitored. Nothing in the file is executed.")
            if up is None:
                st.info("Upload a file in the sidebar, or switch to the built-in example.")
                st.stop()
            up = opened(up)
            data = read_scores(up.getvalue(), up.name) if source == "scores" else read_votes(up.getvalue(), up.name)
            origin = f"`{md_escape(up.name)}`"
    return SimpleNamespace(source=source, data=data, origin=origin, up=up, files=files, inspect=inspect)



"""Plans that can be run, in the app: the item list (LLM), the vote allocation (Leaderboard) and the worker
assignment (Ratings) — the buttons exist and their files parse and match ``core.runnable``."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from core import llm, pairwise as pw, runnable as rn
from tests.app.conftest import open_page


@pytest.fixture
def files(monkeypatch):
    """The bytes of every download button, by file name (AppTest keeps media in a storage it discards)."""
    seen: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def record(self, path_or_data, mimetype, kind, filename=None):
        if filename and isinstance(path_or_data, bytes):
            seen[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", record)
    return seen


def open_box(at, key: str):
    at.session_state[key] = True
    at.run()
    assert not at.exception, at.exception
    return at


def labels(at) -> list[str]:
    return [b.proto.label for b in at.get("download_button")]


def test_item_list_without_an_upload(files):
    at = open_page("llm", {"n": "300"})
    assert "Download the item list (JSON)" not in labels(at)  # filled only when opened
    open_box(at, "items_open")
    assert {"Download the item list (JSON)", "Download the item list (CSV)"} <= set(labels(at))
    mapping = json.loads(files["item_list.json"])
    assert list(mapping) == ["benchmark"] and len(mapping["benchmark"]) == 300
    assert all(0 <= i < 3000 for i in mapping["benchmark"])  # N = 10 n by default, numbered 0 … N − 1
    table = pd.read_csv(io.BytesIO(files["item_list.csv"]))
    assert table["item"].tolist() == mapping["benchmark"]
    assert any("--samples" in c.value for c in at.code)
    expected = rn.item_list(range(3000), 300, tasks="benchmark", seed=0)
    assert mapping == json.loads(rn.item_list_json(expected))


def test_item_list_inputs_come_from_the_link(files):
    # the item list's inputs are a design's fields, bound to the URL: a link reproduces the list
    query = {"n": "300", "items_seed": "7", "items_total": "5000", "items_task": "arc_easy"}
    at = open_page("llm", query)
    open_box(at, "items_open")
    design = llm.ItemListDesign.from_params(query)
    assert (design.seed, design.n_total, design.task) == (7, 5000, "arc_easy")
    expected = rn.item_list(range(5000), 300, tasks="arc_easy", seed=7)
    assert json.loads(files["item_list.json"]) == json.loads(rn.item_list_json(expected))
    assert json.loads(rn.item_list_json(design.run(300))) == json.loads(rn.item_list_json(expected))
    # a benchmark smaller than n in the link: the widget keeps its start (10 × n), no traceback, and says why under
    # the control (the box opens after the link was checked)
    at = open_page("llm", {"n": "300", "items_total": "100"})
    open_box(at, "items_open")
    assert len(json.loads(files["item_list.json"])["benchmark"]) == 300
    assert any("of 3,000 items" in c.value for c in at.caption)
    notes = [w.value for w in at.warning if "This link asked for" in w.value]
    assert len(notes) == 1 and "`items_total=100`" in notes[0] and "from 300 to" in notes[0], notes


def test_item_list_from_the_sample_log_is_stratified(files):
    at = open_page("llm", {"n": "100", "view": "Estimate from your logs"})
    at.radio(key="log_source").set_value("sample")
    at.run()
    open_box(at, "items_open")
    table = pd.read_csv(io.BytesIO(files["item_list.csv"]), dtype=str)
    log = llm.sample_log().drop_duplicates("question")
    assert len(table) == 100 and set(table["item"]) <= set(log["question"].astype(str))
    sizes = log["cluster"].value_counts()
    got = table["cluster"].value_counts().reindex(sizes.index, fill_value=0)
    quota = 100 * sizes / sizes.sum()
    assert ((got >= quota.apply(int)) & (got <= quota.apply(lambda q: -int(-q // 1)))).all()
    # question texts cannot be passed to the harness: the page says how to filter instead
    assert not any(c.language == "bash" for c in at.code)
    # another seed, another list; the same seed, the same list
    at.number_input(key="items_seed").set_value(7)
    at.run()
    assert pd.read_csv(io.BytesIO(files["item_list.csv"]), dtype=str)["item"].tolist() != table["item"].tolist()


def test_item_list_warns_when_n_exceeds_the_log():
    at = open_page("llm", {"n": "1000", "view": "Estimate from your logs"})
    at.radio(key="log_source").set_value("sample")
    at.run()
    open_box(at, "items_open")
    assert any("fewer than n" in w.value for w in at.warning)


def test_explain_warns_that_limit_takes_the_first_items():
    at = open_page("llm")
    open_box(at, "explain_open")  # the explanation is filled only when open
    text = " ".join(m.value for m in at.markdown)
    assert "--limit" in text and "first" in text


def test_vote_allocation_download(files):
    at = open_page("leaderboard")
    open_box(at, "alloc_open")
    assert "Download the vote allocation (CSV)" in labels(at)
    alloc = pd.read_csv(io.BytesIO(files["vote_allocation.csv"]))
    assert list(alloc.columns) == ["system_a", "system_b", "gap_elo", "votes", "share", "power"]
    assert (alloc["power"] >= 0.8).all()
    shown = at.dataframe[-1].value
    assert shown["votes"].tolist() == alloc["votes"].tolist()
    # the oracle: the engine's power of each pair at its votes (it depends on the gap only)
    for row in alloc.itertuples():
        pair = pd.Series([1000.0 + row.gap_elo, 1000.0], index=[row.system_a, row.system_b])
        assert pw.leaderboard_power(int(row.votes), pair).adjacent_power[0] >= 0.8

def test_worker_assignment_download(files):
    at = open_page("ratings", {"workers": "10", "items": "50"})
    open_box(at, "assign_open")
    crossed = pd.read_csv(io.BytesIO(files["worker_assignment.csv"]))
    assert len(crossed) == 500 and (crossed.groupby("item")["worker"].nunique() == 10).all()  # everyone, every item
    at.radio(key="layout").set_value("crowd")
    at.run()
    at.slider(key="per_item").set_value(3)
    at.run()
    assert not at.exception
    assert "Download the worker assignment (CSV)" in labels(at)
    table = pd.read_csv(io.BytesIO(files["worker_assignment.csv"]))
    assert len(table) == 150 and (table.groupby("item")["worker"].nunique() == 3).all()
    load = table["worker"].value_counts()
    assert load.max() - load.min() <= 1 and set(load.index) == set(range(1, 11))
    assert table.equals(rn.worker_assignment(50, 10, 3, seed=0))


def test_item_list_from_harness_logs_gives_the_command(files):
    at = open_page("llm", {"n": "50", "view": "Estimate from your logs"})
    at.radio(key="log_source").set_value("harness")
    at.run()
    harness = llm.sample_harness_files()
    for key, model in (("files_a", "synthetic-baseline"), ("files_b", "synthetic-candidate")):
        at.file_uploader(key=key).set_value([(name, data, "application/jsonl") for m, name, data in harness
                                             if m == model])
    at.run()
    open_box(at, "items_open")
    mapping = json.loads(files["item_list.json"])
    task = rn.harness_task([name for m, name, _ in harness if m == "synthetic-baseline"][0])
    assert list(mapping) == [task] and len(mapping[task]) == 50
    assert all(isinstance(i, int) for i in mapping[task]) and mapping[task] == sorted(mapping[task])
    command = [c.value for c in at.code if c.language == "bash"]
    assert command and f"--tasks {task}" in command[0] and "--samples" in command[0]

"""lighteval details (``details_<task>_<date>.parquet``) as per-answer logs (core.llm.lighteval).

Oracles: the values written into files of lighteval's layout (``tests/lighteval_files.py``: the ``Detail`` fields of
huggingface/lighteval at 3fd1526, and the flat layout before June 2025) come back exactly, under their sample id,
model and run; the fit of the log equals the fit of the same values given as a tidy log.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core import llm
from core.llm import lighteval as lv
from tests.lighteval_files import details_name, lighteval_details


def _files(a_values, b_values, **options):
    return [("org/a", details_name(), lighteval_details(a_values, **options)),
            ("org/b", details_name(), lighteval_details(b_values, **options))]


def test_the_values_written_come_back_by_sample_id_and_model():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 2, 40).astype(float), rng.integers(0, 2, 40).astype(float)
    log = llm.read_lighteval_runs(_files(list(a), list(b)))
    assert log.attrs["metric"] == "acc" and log.attrs["models"] == ("org/a", "org/b")
    for model, values in (("org/a", a), ("org/b", b)):
        rows = log[log.model == model]
        assert rows.question.tolist() == [str(i) for i in range(40)] and (rows["sample"] == 0).all()
        assert rows.score.tolist() == values.tolist()
    run = llm.read_lighteval_details(_files(list(a), list(b))[0][2], name=details_name())
    assert run.task == "leaderboard|arc:challenge|25" and run.matched_by == "id" and run.metrics == ("acc",)


def test_the_fit_equals_the_fit_of_the_same_values_as_a_tidy_log():
    rng = np.random.default_rng(8)
    a, b = rng.integers(0, 2, 60).astype(float), (rng.random(60) < 0.7).astype(float)
    log = llm.read_lighteval_runs(_files(list(a), list(b)))
    tidy = pd.DataFrame({"question": [str(i) for i in range(60)] * 2, "model": ["org/a"] * 60 + ["org/b"] * 60,
                         "sample": 0, "score": np.r_[a, b]})
    got, want = llm.fit_benchmark(log, seed=0), llm.fit_benchmark(tidy, seed=0)
    assert got == want
    assert got.delta == pytest.approx(b.mean() - a.mean(), abs=1e-12)


def test_only_metrics_in_0_1_are_scores_and_one_must_be_chosen_among_several():
    n = 6
    extra = {"acc_norm": [1.0, 0.0] * 3, "loglikelihood": [-1.5] * n, "pass@k:k=1&n=4&temperature=0.7": [0.25] * n,
             "bleu": [["a", "b"]] * n}
    files = _files([1.0, 0.0, 1.0, 1.0, 0.0, 1.0], [1.0] * n, extra=extra)
    assert llm.lighteval_options(files).metrics == ("acc", "acc_norm", "pass@k:k=1&n=4&temperature=0.7")
    with pytest.raises(ValueError, match="several metrics"):
        llm.read_lighteval_runs(files)
    log = llm.read_lighteval_runs(files, metric="pass@k:k=1&n=4&temperature=0.7")
    assert log.score.tolist() == [0.25] * 12
    with pytest.raises(ValueError, match="`metric` 'loglikelihood' is not in every file"):
        llm.read_lighteval_runs(files, metric="loglikelihood")


def test_missing_values_are_left_out_with_a_note():
    log = llm.read_lighteval_runs(_files([1.0, None, 0.0, 1.0], [1.0, 1.0, None, None]))
    assert log[log.model == "org/a"].question.tolist() == ["0", "2", "3"]
    assert log[log.model == "org/b"].question.tolist() == ["0", "1"]
    assert "Samples of org/b without a `acc` value, left out: 2." in log.attrs["notes"]


def test_several_tasks_are_one_benchmark_and_a_repeated_task_is_a_further_run():
    arc, gsm = "leaderboard|arc:challenge|25", "lighteval|gsm8k|5"
    files = [("org/a", details_name(arc), lighteval_details([1.0, 0.0], task=arc)),
             ("org/a", details_name(gsm), lighteval_details([0.0, 0.0, 1.0], task=gsm, metric="acc")),
             ("org/b", details_name(arc), lighteval_details([1.0, 1.0], task=arc)),
             ("org/b", details_name(gsm), lighteval_details([1.0, 0.0, 1.0], task=gsm)),
             ("org/b", details_name(gsm, "2025-11-06T10-00-00.000001"), lighteval_details([0.0, 0.0, 0.0], task=gsm))]
    log = llm.read_lighteval_runs(files)
    b = log[log.model == "org/b"]
    assert b.question.tolist() == [f"{arc} · 0", f"{arc} · 1"] + [f"{gsm} · {i}" for i in range(3)] * 2
    assert b["sample"].tolist() == [0, 0, 0, 0, 0, 1, 1, 1]
    assert b.score.tolist() == [1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    assert b.cluster.tolist() == [arc] * 2 + [gsm] * 6  # tasks are clusters, as the harness's tasks
    assert "cluster" not in llm.read_lighteval_runs(files[:1] + files[2:3]).columns
    assert llm.lighteval_options(files).tasks == (arc, gsm)


def test_details_before_june_2025_are_matched_by_question():
    questions = ["What is 2+2?", "Capital of France?", "What is 2+2?"]
    a = lighteval_details([1.0, 0.0, 1.0], old=True, questions=questions)
    b = lighteval_details([1.0, 0.0, 0.5], old=True, questions=[questions[1], questions[0], questions[2]])
    run = llm.read_lighteval_details(a, name=details_name())
    assert run.matched_by == "example" and run.task == "leaderboard|arc:challenge|25"
    assert [q for q, _ in run.records] == ["What is 2+2?", "Capital of France?", "What is 2+2? #2"]
    log = llm.read_lighteval_runs([("a", "a.parquet", a), ("b", "b.parquet", b)])
    means = log.pivot(index="question", columns="model", values="score")
    assert means.loc["Capital of France?"].tolist() == [0.0, 1.0] and means.loc["What is 2+2?"].tolist() == [1.0, 0.0]
    assert means.loc["What is 2+2? #2"].tolist() == [1.0, 0.5]
    assert any("matched by question" in note for note in log.attrs["notes"])


def test_the_model_is_named_by_the_runs_results_file():
    results = b'{"config_general": {"lighteval_sha": "3fd1526", "model_name": "meta-llama/Llama-3.1-8B"}, "results": {}}'
    assert llm.is_lighteval_results(results) and not llm.is_lighteval_results(lighteval_details([1.0]))
    assert llm.lighteval_run_model(results) == "meta-llama/Llama-3.1-8B"
    for bad in (b'{"config_general": {}}', b'{"config_general": {"model_name": 3}}', b"[1]", b"{"):
        with pytest.raises(ValueError):
            llm.lighteval_run_model(bad)


def test_detection():
    assert llm.is_lighteval_details(lighteval_details([1.0]))
    assert llm.is_lighteval_details(lighteval_details([1.0], old=True))
    assert not llm.is_lighteval_details(b"question,model,score\n1,a,1\n")
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"model_a": ["x"], "model_b": ["y"], "winner": ["model_a"]}), buffer)
    assert not llm.is_lighteval_details(buffer.getvalue())


def _parquet(rows) -> bytes:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows) if isinstance(rows, list) else rows, buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("data, message", [
    (b"not parquet at all", "is not a Parquet file"),
    (b"PAR1" + b"\x00" * 40 + b"PAR1", "not a readable Parquet file"),
    (_parquet([{"question": "q", "score": 1.0}]), "has no `doc` and `metric` columns"),
    (_parquet([{"doc": {"query": "q"}, "metric": {"acc": 1.0}}]), "has no `id`"),
    (_parquet([{"doc": {"id": "1"}, "metric": {"acc": 1.0}}, {"doc": {"id": "1"}, "metric": {"acc": 0.0}}]),
     "sample id '1' is listed twice"),
    (_parquet([{"doc": {"id": ""}, "metric": {"acc": 1.0}}]), "`doc.id` is empty"),
    (_parquet([{"doc": {"id": "1", "task_name": "a"}, "metric": {"acc": 1.0}},
               {"doc": {"id": "2", "task_name": "b"}, "metric": {"acc": 1.0}}]), "several tasks"),
    (_parquet([{"doc": {"id": "1"}, "metric": {"acc": 1.0}}]).replace(b"acc", b"ac\xff"), "cannot be read|readable"),
])
def test_files_that_are_not_usable_details_get_a_message(data, message):
    with pytest.raises(ValueError, match=message):
        llm.read_lighteval_details(data, name="`x.parquet`")


def test_empty_and_oversized_files_and_damaged_pages_get_a_message(monkeypatch):
    import pyarrow as pa

    empty = pa.table({"doc": pa.array([], pa.struct([("id", pa.string())])),
                      "metric": pa.array([], pa.struct([("acc", pa.float64())]))})
    with pytest.raises(ValueError, match="has no samples"):
        llm.read_lighteval_details(_parquet(empty))
    data = lighteval_details([1.0] * 50)
    monkeypatch.setattr(lv, "MAX_SAMPLES", 10)
    with pytest.raises(ValueError, match="more than 10 samples"):
        llm.read_lighteval_details(data)
    monkeypatch.setattr(lv, "MAX_SAMPLES", 1_000_000)
    monkeypatch.setattr(lv, "MAX_DECODED_BYTES", 100)
    with pytest.raises(ValueError, match="MB once decompressed"):
        llm.read_lighteval_details(data)
    monkeypatch.setattr(lv, "MAX_DECODED_BYTES", 64 * 2**20)
    damaged = bytearray(data)
    middle = len(damaged) // 3
    damaged[middle:middle + 200] = b"\x00" * 200
    try:
        llm.read_lighteval_details(bytes(damaged))
    except ValueError:
        pass  # a damaged page gets a message (or the damage missed every page read: the file still reads)


@pytest.mark.parametrize("files, message", [
    ([], "as a list of"),
    ([("a", "a.parquet", lighteval_details([1.0]))], "exactly two models"),
    ([("a", "a.parquet", b"x"), ("b", "b.parquet", b"y")], "not a Parquet file"),
    ([("a", 1, b"x")], "must be \\(model, file_name, bytes\\)"),
])
def test_bad_file_lists_get_a_message(files, message):
    with pytest.raises(ValueError, match=message):
        llm.read_lighteval_runs(files)


def test_the_same_file_twice_for_a_model_is_refused():
    """The same bytes uploaded twice for one model would double its K silently."""
    data = lighteval_details([1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="`b.parquet` is the same file as `a.parquet`"):
        llm.read_lighteval_runs([("m", "a.parquet", data), ("m", "b.parquet", data), ("n", "c.parquet", data)])
    assert len(llm.read_lighteval_runs([("m", "a.parquet", data), ("n", "c.parquet", data)])) == 6


def test_hostile_files_from_the_review_get_a_message_or_the_right_numbers(monkeypatch):
    """What a hostile-input review found: a token count beyond 2^53 (read, not a pyarrow error), an id that is not
    UTF-8, a repeated `metric` column (refused: it was read under the first one's names), a footer announcing huge
    text (refused before decoding), repeated questions whose numbering met a real question, files naming no task,
    results files' odd model names, and too many samples together."""
    import pyarrow as pa

    doc = pa.array([{"id": "0", "task_name": "t"}, {"id": "1", "task_name": "t"}])
    big = pa.table({"doc": doc, "metric": pa.StructArray.from_arrays(
        [pa.array([1.0, 0.0]), pa.array([2**60, 0], pa.int64())], names=["acc", "num_tokens"])})
    run = llm.read_lighteval_details(_parquet(big))
    assert run.metrics == ("acc",) and [r[1] for r in run.records] == [{"acc": 1.0}, {"acc": 0.0}]
    binary = pa.table({"doc": pa.StructArray.from_arrays([pa.array([b"\xff\xfe", b"a"], pa.binary())], names=["id"]),
                       "metric": pa.StructArray.from_arrays([pa.array([1.0, 0.0])], names=["acc"])})
    with pytest.raises(ValueError, match="cannot be read as text") as err:
        llm.read_lighteval_details(_parquet(binary), name="`x.parquet`")
    assert type(err.value) is ValueError
    metric = lambda acc: pa.StructArray.from_arrays([pa.array(acc)], names=["acc"])  # noqa: E731
    twice = pa.Table.from_arrays([doc, metric([1.0, 1.0]), metric([0.0, 0.0])], names=["doc", "metric", "metric"])
    with pytest.raises(ValueError, match="its columns repeat \\(metric\\)"):
        llm.read_lighteval_details(_parquet(twice))
    text = pa.table({"doc": doc, "metric": pa.StructArray.from_arrays(
        [pa.array([1.0, 0.0]), pa.array(["x" * 300_000] * 2)], names=["acc", "note"])})
    monkeypatch.setattr(lv, "MAX_DECODED_BYTES", 100_000)
    assert llm.read_lighteval_details(_parquet(text)).metrics == ("acc",)  # the text leaf is never decoded
    monkeypatch.setattr(lv, "MAX_DECODED_BYTES", 100)
    with pytest.raises(ValueError, match="MB once decompressed"):
        llm.read_lighteval_details(_parquet(text))
    monkeypatch.setattr(lv, "MAX_DECODED_BYTES", 64 * 2**20)
    assert lv._numbered(["q", "q", "q #2", "q"]).tolist() == ["q", "q #3", "q #2", "q #4"]
    questions = ["q", "q", "q #2"]
    a = lighteval_details([1.0, 0.0, 0.5], old=True, questions=questions)
    log = llm.read_lighteval_runs([("a", "a.parquet", a), ("b", "b.parquet", a)])
    assert not log.duplicated(["question", "model", "sample"]).any() and log.question.nunique() == 3
    unnamed = pa.table({"doc": pa.array([{"id": "0"}, {"id": "1"}]), "metric": metric([1.0, 0.0])})
    gsm, arc = _parquet(unnamed), _parquet(unnamed.set_column(1, "metric", metric([0.0, 0.0])))
    with pytest.raises(ValueError, match="name no task"):
        llm.read_lighteval_runs([("m", "gsm.parquet", gsm), ("m", "arc.parquet", arc), ("n", "gsm.parquet", gsm)])
    assert not llm.is_lighteval_results(None) and not llm.is_lighteval_results(5)
    assert not llm.is_lighteval_results("{}")
    with pytest.raises(ValueError, match="control characters"):
        llm.lighteval_run_model(b'{"config_general": {"model_name": "evil\\u202emodel"}}')
    monkeypatch.setattr(lv, "MAX_SAMPLES", 5)
    three = lighteval_details([1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="6 samples together"):
        llm.read_lighteval_runs([("m", "a.parquet", three), ("n", "b.parquet", lighteval_details([0.0] * 3))])


def test_a_further_file_of_a_task_is_noted_as_a_further_run():
    first, second = lighteval_details([1.0, 0.0]), lighteval_details([1.0, 1.0])
    log = llm.read_lighteval_runs([("m", "a.parquet", first), ("m", "a2.parquet", second),
                                   ("n", "b.parquet", first)])
    assert any("further runs (K): m (leaderboard|arc:challenge|25: 2)" in n for n in log.attrs["notes"])

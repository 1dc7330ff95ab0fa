"""A models × items correctness matrix from harness, Inspect AI, HELM and lighteval files (core.llm.read_correctness_files).

Oracles: the values written into files of each framework's layout (tests/inspect_files.py, tests/helm_files.py,
tests/lighteval_files.py, and
harness lines as core.llm.read_harness_samples documents them) must give the matrix of their means, and that
matrix must give the same prediction-assisted SE as the CSV reader (:func:`core.llm.read_correctness`) fed the
same means.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from core import llm
from tests.helm_files import helm_stats, run_spec
from tests.inspect_files import inspect_log

MODELS = ("org/m1", "org/m2", "org/m3")


def _harness(values: dict) -> bytes:
    lines = [{"doc_id": i, "doc": {"q": f"question {i}"}, "target": "A", "arguments": [], "resps": [["A"]],
              "filtered_resps": ["A"], "filter": flt, "metrics": ["acc", "acc_norm"], "acc": v,
              "acc_norm": 1.0 - v, "doc_hash": f"h{i}"}
             for flt in ("none", "strict") for i, v in values.items()]
    return "\n".join(json.dumps(line) for line in lines).encode()


def _oracle_se(matrix: pd.DataFrame, m: int):
    csv = matrix.reset_index(names="model").to_csv(index=False).encode()
    return llm.prediction_assisted_se(llm.read_correctness(csv, name="m.csv"), m)


def test_harness_files_one_per_model_named_by_their_folders():
    rng = np.random.default_rng(0)
    values = {m: {i: float(rng.random() < p) for i in range(30)} for m, p in zip(MODELS, (0.4, 0.6, 0.8))}
    files = [(f"out/{m.replace('/', '__')}/samples_arc_easy_2026-11-28T06-00-00.jsonl", _harness(v))
             for m, v in values.items()]
    options = llm.correctness_options(files)
    assert options.kind == "harness" and options.metrics == ("acc", "acc_norm") and options.filters == ("none",
                                                                                                         "strict")
    assert options.models == tuple(m.replace("/", "__") for m in MODELS)
    with pytest.raises(ValueError, match="several filter pipelines"):
        llm.read_correctness_files(files, metric="acc")
    matrix = llm.read_correctness_files(files, metric="acc", filter="none")
    assert matrix.to_numpy().tolist() == [[values[m][i] for i in range(30)] for m in MODELS]
    assert list(matrix.columns) == [str(i) for i in range(30)]
    got, want = llm.prediction_assisted_se(matrix, 10), _oracle_se(matrix, 10)
    pd.testing.assert_frame_equal(got.table, want.table)


def test_inspect_logs_average_the_epochs_and_keep_the_shared_items():
    rng = np.random.default_rng(1)
    values = {m: {(i, e): ("C" if rng.random() < p else "I") for i in range(1, 21) for e in (1, 2, 3)}
              for m, p in zip(MODELS, (0.4, 0.6, 0.8))}
    del values[MODELS[2]][(20, 1)], values[MODELS[2]][(20, 2)], values[MODELS[2]][(20, 3)]  # item 20 not reached
    files = [(f"{k}.eval", inspect_log(m, v)) for k, (m, v) in enumerate(values.items())]
    matrix = llm.read_correctness_files(files)
    assert matrix.attrs["kind"] == "inspect" and list(matrix.index) == list(MODELS)
    assert sorted(matrix.columns, key=int) == [str(i) for i in range(1, 20)]  # in the first log's order
    for m in MODELS:
        for i in range(1, 20):
            assert matrix.loc[m, str(i)] == pytest.approx(np.mean([values[m][i, e] == "C" for e in (1, 2, 3)]),
                                                          abs=1e-15)
    assert any("left out: 1 of 20" in note for note in matrix.attrs["notes"])
    got, want = llm.prediction_assisted_se(matrix, 8), _oracle_se(matrix, 8)
    assert got.variance_ratio == pytest.approx(want.variance_ratio, rel=1e-12)


def test_helm_runs_zipped_with_their_run_specs_and_folder_names():
    rng = np.random.default_rng(2)
    values = {m: {(f"id{i}", t): float(rng.random() < p) for t in range(2) for i in range(25)}
              for m, p in zip(MODELS, (0.4, 0.6, 0.8))}
    files = []
    for k, (m, v) in enumerate(values.items()):
        folder = f"runs/v1/mmlu:subject=anatomy,method=multiple_choice_joint,model={m.replace('/', '_')}"
        files.append((f"{folder}/per_instance_stats.json", helm_stats(v, perturbed=3)))
        if k == 0:
            files.append((f"{folder}/run_spec.json", run_spec(m)))  # names this run's model exactly
    matrix = llm.read_correctness_files(files, metric="exact_match")
    assert list(matrix.index) == ["org/m1", "org_m2", "org_m3"]
    for m, name in zip(MODELS, matrix.index):
        assert matrix.loc[name].tolist() == [np.mean([values[m][f"id{i}", t] for t in range(2)]) for i in range(25)]
    # a model's second run is averaged in, with a note
    again = files + [("runs/v2/mmlu:subject=anatomy,method=multiple_choice_joint,model=org_m2/per_instance_stats.json",
                      helm_stats(values["org/m2"]))]  # the same run in another suite
    twice = llm.read_correctness_files(again, metric="exact_match")
    assert twice.loc["org_m2"].tolist() == matrix.loc["org_m2"].tolist()
    assert any("further runs" in note for note in twice.attrs["notes"])


def test_lighteval_details_named_by_their_runs_results_files():
    """lighteval details of three models, two tasks each: a model is named by the results_<date>.json of its run's
    date, else by its details/<model>/<date>/ folders; items are <task> · <doc.id>; a missing value leaves that
    item out (it is not answered by every model); the matrix is the values written, and gives the CSV reader's SE."""
    from tests.lighteval_files import details_name, lighteval_details

    rng = np.random.default_rng(7)
    tasks = ("leaderboard|arc:challenge|25", "lighteval|gsm8k|5")
    dates = ("2025-11-05T14-43-47.148527", "2025-11-06T09-00-00.000001", "2025-11-07T10-30-00.500000")
    values = {m: {t: (rng.random(20) < p).astype(float) for t in tasks} for m, p in zip(MODELS, (0.4, 0.6, 0.8))}
    files = []
    for k, (m, date) in enumerate(zip(MODELS, dates)):
        for t in tasks:
            v = list(values[m][t])
            if k == 2 and t == tasks[1]:
                v[3] = None
            files.append((details_name(t, date) if k < 2 else f"out/details/{m}/{date}/{details_name(t, date)}",
                          lighteval_details(v, task=t)))
        if k < 2:
            files.append((f"results_{date}.json", json.dumps({"config_general": {"model_name": m}}).encode()))
    options = llm.correctness_options(files)
    assert options.kind == "lighteval" and options.models == (*(MODELS[0],) * 2, *(MODELS[1],) * 2, *(MODELS[2],) * 2)
    matrix = llm.read_correctness_files(files, metric="acc")
    assert list(matrix.index) == list(MODELS)
    items = [f"{tasks[0]} · {i}" for i in range(20)] + [f"{tasks[1]} · {i}" for i in range(20) if i != 3]
    assert list(matrix.columns) == items
    for m in MODELS:
        want = list(values[m][tasks[0]]) + [v for i, v in enumerate(values[m][tasks[1]]) if i != 3]
        assert matrix.loc[m].tolist() == want
    assert any("left out: 1 of 40" in note for note in matrix.attrs["notes"])
    got, want = llm.prediction_assisted_se(matrix, 10), _oracle_se(matrix, 10)
    pd.testing.assert_frame_equal(got.table, want.table)


def test_helm_scenarios_are_told_apart_and_run_folders_keep_only_their_statistics():
    """HELM numbers instances id0, id1, … in every scenario: two subjects' runs are different items (scenario ·
    id), not further runs; a zipped run folder's stats.json and display files are left out with a note."""
    from core.packed import unpack_all
    from tests.helm_files import run_folder

    rng = np.random.default_rng(9)
    subjects = ("anatomy", "astronomy")
    values = {(m, sub): {(f"id{i}", 0): float(rng.random() < 0.6) for i in range(10)} for m in MODELS[:2]
              for sub in subjects}
    files = []
    for (m, sub), v in values.items():
        folder = f"runs/v1/mmlu:subject={sub},method=multiple_choice_joint,model={m.replace('/', '_')}"
        files.append((f"{folder}/per_instance_stats.json", helm_stats(v)))
        files.append((f"{folder}/stats.json", b'[{"name": {"name": "exact_match", "split": "test"}, "mean": 0.5}]'))
        files.append((f"{folder}/display_predictions.json", b'[{"instance_id": "id0", "stats": {"a": 1}}]'))
    matrix = llm.read_correctness_files(files, metric="exact_match")
    assert matrix.shape == (2, 20)
    scenario = "mmlu:subject={},method=multiple_choice_joint"
    assert list(matrix.columns) == [f"{scenario.format(sub)} · id{i}" for sub in subjects for i in range(10)]
    assert matrix.loc["org_m1"].tolist() == [values["org/m1", sub][f"id{i}", 0] for sub in subjects for i in range(10)]
    assert "Other files of the HELM run folders, left out: 8." in matrix.attrs["notes"]
    assert not any("further runs" in note for note in matrix.attrs["notes"])
    # HELM's own zipped run folders (run_folder writes run_spec.json, per_instance_stats.json and stats.json)
    va, vb = ({(f"id{i}", 0): float(rng.random() < p) for i in range(12)} for p in (0.4, 0.8))
    zipped = [(n, d) for z in (run_folder("org/a", va), run_folder("org/b", vb))
              for d, n in unpack_all(z, "runs.zip")]
    with pytest.raises(ValueError, match="not told apart"):  # each zip flattened: which spec names which stats?
        llm.read_correctness_files(zipped, metric="exact_match")
    named = [(f"{k}/{n}", d) for k, z in enumerate((run_folder("org/a", va), run_folder("org/b", vb)))
             for d, n in unpack_all(z, "runs.zip")]
    both = llm.read_correctness_files(named, metric="exact_match")
    assert list(both.index) == ["org/a", "org/b"] and both.loc["org/b"].tolist() == list(vb.values())


def test_harness_duplicates_tasks_empty_files_and_the_total_size():
    """A document twice in a harness file is refused (as read_harness_samples does); a model's files of two tasks are
    two tasks' items, not further runs; an empty file gets a message; more than 20 MB together is refused up
    front."""
    from core.llm import correctness_files as cf

    twice = b'{"doc_id": 0, "acc": 1}\n{"doc_id": "0", "acc": 0}\n{"doc_id": 1, "acc": 0}'
    with pytest.raises(ValueError, match="document '0' appears twice"):
        llm.read_correctness_files([("a/s.jsonl", twice), ("b/s.jsonl", _harness({0: 1.0, 1: 1.0}))], metric="acc",
                                   filter="none")
    arc = {"easy": {0: 1.0, 1: 0.0, 2: 1.0}, "challenge": {0: 0.0, 1: 0.0, 2: 1.0}}
    files = [(f"out/{m}/samples_arc_{t}_2026-01-01T00-00-00.jsonl", _harness(v)) for m in ("mA", "mB")
             for t, v in arc.items()]
    matrix = llm.read_correctness_files(files, metric="acc", filter="none")
    assert list(matrix.columns) == [f"arc_{t} · {i}" for t in arc for i in range(3)]
    assert matrix.loc["mA"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="`b/s.jsonl` has no records"):
        llm.read_correctness_files([("a/s.jsonl", _harness({0: 1.0, 1: 0.0})), ("b/s.jsonl", b"[]")])
    big = [("a/s.jsonl", b" " * (cf.MAX_TOTAL_BYTES // 2 + 1)), ("b/s.jsonl", b" " * (cf.MAX_TOTAL_BYTES // 2 + 1))]
    with pytest.raises(ValueError, match="MB together"):
        llm.read_correctness_files(big)


def test_bad_sets_of_files_get_messages():
    harness = ("a/samples_x.jsonl", _harness({0: 1.0, 1: 0.0}))
    helm = ("per_instance_stats.json", helm_stats({("i0", 0): 1.0, ("i1", 0): 0.0}))
    with pytest.raises(ValueError, match="different frameworks"):
        llm.read_correctness_files([harness, helm])
    with pytest.raises(ValueError, match="runs of one model"):
        llm.read_correctness_files([helm, helm], metric="exact_match")
    with pytest.raises(ValueError, match="`metric` 'nope'"):
        llm.read_correctness_files([harness, ("b/samples_x.jsonl", harness[1])], metric="nope")
    with pytest.raises(ValueError, match="not an lm-evaluation-harness"):
        llm.read_correctness_files([("x.csv", b"a,b\n1,2\n"), harness])
    with pytest.raises(ValueError, match="no `doc_id`"):
        llm.read_correctness_files([("a/x.json", b'{"x": 1}'), harness])
    with pytest.raises(ValueError, match="fewer than 2 items"):
        llm.read_correctness_files([harness, ("b/samples_x.jsonl", _harness({5: 1.0, 6: 0.0}))], metric="acc",
                                   filter="none")
    with pytest.raises(ValueError, match="list of"):
        llm.read_correctness_files([])
    with pytest.raises(ValueError, match="only run_spec.json"):
        llm.read_correctness_files([("r/run_spec.json", run_spec("m"))])


def test_two_lighteval_results_files_of_one_date_naming_different_models_are_refused():
    from tests.lighteval_files import details_name, lighteval_details

    date = "2025-11-05T14-43-47.148527"
    files = [(f"x/{details_name(date=date)}", lighteval_details([1.0, 0.0])),
             (f"y/{details_name(date=date)}", lighteval_details([0.0, 0.0])),
             (f"x/results_{date}.json", b'{"config_general": {"model_name": "org/A"}}'),
             (f"y/results_{date}.json", b'{"config_general": {"model_name": "org/B"}}')]
    with pytest.raises(ValueError, match="Two results files of the date"):
        llm.read_correctness_files(files)

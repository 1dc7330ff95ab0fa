"""HELM runs' per_instance_stats.json as per-answer logs (core.llm.helm).

Oracles: the values written into files of HELM's layout (tests/helm_files.py) must come back exactly, and the fits
of the LLM page and the "Prompts and seeds" tab must equal those of the tidy log of the same values (the CSV reader,
:func:`core.llm.fit_benchmark`, :func:`core.llm.fit_facets`).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from core import llm
from tests.helm_files import helm_stats


def _values(seed, n=30, trials=3, p=0.6):
    rng = np.random.default_rng(seed)
    return {(f"id{1000 + i}", t): float(rng.random() < p) for t in range(trials) for i in range(n)}


def _files(trials=3, perturbed=0):
    a, b = _values(1, trials=trials, p=0.5), _values(2, trials=trials, p=0.7)
    return a, b, [("model-a", "a/per_instance_stats.json", helm_stats(a, perturbed=perturbed)),
                  ("model-b", "b/per_instance_stats.json", helm_stats(b, perturbed=perturbed))]


def test_a_file_reads_back_exactly_without_perturbed_copies_or_bookkeeping():
    a, _, files = _files(perturbed=5)
    run = llm.read_helm_stats(files[0][2], name="a")
    assert run.metrics == ("exact_match", "quasi_exact_match")  # not inference_runtime or prompt_truncated
    assert run.trials == 3 and run.perturbed == 5
    assert {(i, t): m["exact_match"] for i, t, m in run.records} == a
    assert llm.is_helm_stats(files[0][2]) and not llm.is_helm_stats(b'{"instance_id": 1}')


def test_trials_as_samples_give_the_llm_pages_fit_of_the_same_values():
    a, b, files = _files(perturbed=4)
    log = llm.read_helm_runs(files, metric="exact_match")
    assert log.attrs["models"] == ("model-a", "model-b") and log.attrs["metric"] == "exact_match"
    assert any("Perturbed copies" in note and "4" in note for note in log.attrs["notes"])
    assert any("in-context examples" in note for note in log.attrs["notes"])
    tidy = pd.DataFrame([(q, m, t, v) for m, vals in (("model-a", a), ("model-b", b)) for (q, t), v in vals.items()],
                        columns=["question", "model", "sample", "score"])
    pd.testing.assert_frame_equal(log.reset_index(drop=True), tidy, check_dtype=False)
    csv = tidy.to_csv(index=False).encode()
    fit, oracle = llm.fit_benchmark(log, seed=0), llm.fit_benchmark(llm.read_benchmark_log(csv), seed=0)
    assert (fit.n_questions, fit.samples) == (30, 3)
    assert fit.models == oracle.models == ("model-a", "model-b")
    for name in ("accuracy", "delta", "delta_se", "difficulty_sd", "correlation", "se", "sd_by_model"):
        got, want = getattr(fit, name), getattr(oracle, name)
        if isinstance(want, dict):
            got, want = [got[k] for k in sorted(want)], [want[k] for k in sorted(want)]
        assert np.allclose(got, want, rtol=1e-12, atol=0, equal_nan=True), name


def test_trials_as_templates_give_the_facets_fit_of_the_same_values():
    a, b, files = _files(trials=4)
    log = llm.read_helm_runs(files, metric="quasi_exact_match", trials="templates")
    assert sorted(log.template.unique()) == ["trial 0", "trial 1", "trial 2", "trial 3"]
    assert not any("in-context examples" in note for note in log.attrs["notes"])
    tidy = pd.DataFrame([(m, q, f"trial {t}", 0, v) for m, vals in (("model-a", a), ("model-b", b))
                         for (q, t), v in vals.items()], columns=["model", "question", "template", "sample", "score"])
    fit, oracle = llm.fit_facets(log), llm.fit_facets(tidy, baseline="model-a")
    assert (fit.method, fit.n, fit.templates, fit.samples) == ("anova", 30, 4, 1)
    for name in ("var_template", "var_item", "var_item_template", "var_sample", "delta", "se"):
        assert getattr(fit, name) == pytest.approx(getattr(oracle, name), rel=1e-12, abs=1e-15), name


def test_a_models_further_files_are_further_runs():
    a1, a2, b1, b2 = (_values(s, n=10, trials=2) for s in (3, 4, 5, 6))
    files = [("A", "a1.json", helm_stats(a1)), ("A", "a2.json", helm_stats(a2)),
             ("B", "b1.json", helm_stats(b1)), ("B", "b2.json", helm_stats(b2))]
    log = llm.read_helm_runs(files, metric="exact_match")
    a = log[log.model == "A"]
    assert sorted(a["sample"].unique()) == [0, 1, 2, 3]
    assert a[a["sample"] == 3].set_index("question").score.to_dict() == {q: v for (q, t), v in a2.items() if t == 1}
    facets = llm.read_helm_runs(files, metric="exact_match", trials="templates")
    assert sorted(facets[facets.model == "B"]["sample"].unique()) == [0, 1]


def test_bad_files_and_choices_get_messages():
    _, _, files = _files()
    with pytest.raises(ValueError, match="Several metrics"):
        llm.read_helm_runs(files)
    with pytest.raises(ValueError, match="`metric` 'inference_runtime'"):
        llm.read_helm_runs(files, metric="inference_runtime")
    with pytest.raises(ValueError, match="`trials`"):
        llm.read_helm_runs(files, metric="exact_match", trials="seeds")
    with pytest.raises(ValueError, match="exactly two models"):
        llm.read_helm_runs(files[:1])
    bad = {
        b'{"a": 1}': "not a HELM per_instance_stats.json",
        b'[{"stats": []}]': "no `instance_id`",
        b'[{"instance_id": "x", "train_trial_index": -1, "stats": []}]': "train_trial_index",
        b'[{"instance_id": "x", "train_trial_index": 0, "stats": {}}]': "`stats` is not a list",
        b'[{"instance_id": "x", "train_trial_index": 0, "stats": [1]}]': "without a `name`",
        b'[{"instance_id": "x", "stats": []}, {"instance_id": "x", "stats": []}]': "listed twice",
        b'[{"instance_id": "x", "perturbation": {"name": "typos"}, "stats": []}]': "only perturbed copies",
        b'[{"instance_id": [1], "stats": []}]': "instance_id must be a text",
        b"[1, 2": "not valid JSON",
    }
    for data, message in bad.items():
        with pytest.raises(ValueError, match=message):
            llm.read_helm_stats(data, name="f")


def test_a_metric_outside_zero_one_is_not_offered():
    values = {(f"id{i}", 0): 1.0 for i in range(5)}
    data = json.loads(helm_stats(values))
    data[2]["stats"][0]["mean"] = 1.5  # one instance's exact_match out of range
    run = llm.read_helm_stats(json.dumps(data).encode())
    assert run.metrics == ("quasi_exact_match",)
    options = llm.helm_options([("a", "a.json", json.dumps(data).encode()), ("b", "b.json", helm_stats(values))])
    assert options.metrics == ("quasi_exact_match",) and options.models == ("a", "b") and options.trials == (1, 1)


def test_the_run_spec_names_the_model():
    from tests.helm_files import run_spec

    assert llm.helm_run_model(run_spec("openai/gpt-4o-2024-05-13")) == "openai/gpt-4o-2024-05-13"
    assert llm.helm_run_model(b'{"adapter_spec": {"model": "", "model_deployment": "together/x"}}') == "together/x"
    for bad in (b'{"adapter_spec": {}}', b"[1]", b'{"adapter_spec": "m"}', b"{"):
        with pytest.raises(ValueError):
            llm.helm_run_model(bad)


def test_the_valid_split_is_left_out_when_the_run_has_a_test_split():
    """HELM scores the valid and the test split (adapter.py EVAL_SPLITS): the run's numbers are its test split's.
    With the valid instances mixed in, A's mean would be 0.50 and B's 0.75; on test they are 1.0 and 0.5."""
    valid_a, valid_b = {("v0", 0): 0.0, ("v1", 0): 0.0}, {("v0", 0): 1.0, ("v1", 0): 1.0}
    a = helm_stats({("t0", 0): 1.0, ("t1", 0): 1.0}, valid=valid_a)
    b = helm_stats({("t0", 0): 1.0, ("t1", 0): 0.0}, valid=valid_b)
    run = llm.read_helm_stats(a)
    assert [r[0] for r in run.records] == ["t0", "t1"] and run.other_splits == 2
    log = llm.read_helm_runs([("A", "a.json", a), ("B", "b.json", b)], metric="exact_match")
    assert log.groupby("model").score.mean().to_dict() == {"A": 1.0, "B": 0.5}
    assert any("valid split" in note and "left out: 4" in note for note in log.attrs["notes"])
    only_valid = llm.read_helm_stats(helm_stats({}, valid=valid_a))  # no test split: the valid one is read
    assert len(only_valid.records) == 2 and only_valid.other_splits == 0
    matrix = llm.read_correctness_files([("r/x,model=a/per_instance_stats.json", a),
                                         ("r/x,model=b/per_instance_stats.json", b)], metric="exact_match")
    assert list(matrix.columns) == ["t0", "t1"]


def test_display_predictions_odd_perturbations_and_empty_ids():
    """helm-summarize's display_predictions.json (``"stats": {…}``) is not per-instance statistics; a
    ``perturbation`` of false or {} is no perturbation; an empty instance_id is refused; non-bytes are no file."""
    display = json.dumps([{"instance_id": "id1", "train_trial_index": 0, "predicted_text": "B",
                           "stats": {"exact_match": 1.0}}], indent=2).encode()
    assert not llm.is_helm_stats(display) and llm.is_helm_stats(helm_stats({("i", 0): 1.0}))
    assert not llm.is_helm_stats(None) and not llm.is_helm_stats("[]")
    stats = [{"name": {"name": "exact_match", "split": "test"}, "mean": 1.0}]
    plain = [{"instance_id": "a", "perturbation": False, "stats": stats},
             {"instance_id": "b", "perturbation": {}, "stats": stats}]
    assert [r[0] for r in llm.read_helm_stats(json.dumps(plain).encode()).records] == ["a", "b"]
    with pytest.raises(ValueError, match="instance_id must be a text"):
        llm.read_helm_stats(json.dumps([{"instance_id": " ", "stats": stats}]).encode())


def test_the_same_file_twice_for_a_model_is_refused():
    """The same bytes uploaded twice for one model would double its K silently."""
    data = helm_stats({("i0", 0): 1.0, ("i1", 0): 0.0})
    with pytest.raises(ValueError, match="is the same file as"):
        llm.read_helm_runs([("m", "a.json", data), ("m", "b.json", data), ("n", "c.json", data)])

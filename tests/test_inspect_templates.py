"""Inspect AI logs under several prompt templates as the long log of the facets fit
(core.llm.read_inspect_templates).

Oracles: the values written into the logs (the long log must hold exactly them, each under its template and epoch),
Inspect's own metric in real logs' results (tests/data/inspect), and the balanced ANOVA of
:func:`core.llm.fit_facets` on the tidy log of the same values.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from core import llm
from tests.inspect_files import INSPECT_DIR, inspect_log
from tests.test_inspect_logs import _inspect_metric

TEMPLATES = ("plain", "cot", "json")


def _values(rng, n, k, p):
    return {(f"q{i}", e): ("C" if rng.random() < p else "I") for i in range(n) for e in range(1, k + 1)}


def _campaign(seed=0, n=12, k=2, *, fmt="eval"):
    """Two models × three templates, passed with ``-T template=…``; the new model's logs in another order."""
    rng = np.random.default_rng(seed)
    values = {(m, t): _values(rng, n, k, p) for (m, p), t in itertools.product((("m/a", 0.5), ("m/b", 0.7)),
                                                                            TEMPLATES)}
    logs = {key: inspect_log(key[0], v, task="qa", task_args={"template": key[1], "shots": 0}, fmt=fmt)
            for key, v in values.items()}
    baseline = [(f"a_{t}.{fmt}", logs["m/a", t]) for t in TEMPLATES]
    new = [(f"b_{t}.{fmt}", logs["m/b", t]) for t in reversed(TEMPLATES)]
    return values, baseline, new


@pytest.mark.parametrize("fmt", ["eval", "json"])
def test_runs_are_paired_by_their_task_arguments_and_read_exactly(fmt):
    values, baseline, new = _campaign(fmt=fmt)
    frame = llm.read_inspect_templates(baseline, new)
    assert frame.attrs["scorer"] == "match" and frame.attrs["models"] == ("m/a", "m/b")
    assert frame.attrs["templates"] == tuple((f'template="{t}"', f"a_{t}.{fmt}", f"b_{t}.{fmt}") for t in TEMPLATES)
    assert any("paired by how each run was set up" in note for note in frame.attrs["notes"])
    assert len(frame) == 2 * 3 * 12 * 2
    for row in frame.itertuples():
        template = row.template.split('"')[1]
        expected = values[row.model, template][row.question, row.sample + 1]
        assert row.score == {"C": 1.0, "I": 0.0}[expected]


def test_the_fit_is_the_balanced_anova_of_the_same_values():
    values, baseline, new = _campaign(seed=3, n=20, k=3)
    fit = llm.fit_facets(llm.read_inspect_templates(baseline, new))
    tidy = pd.DataFrame([(m, q, t, e, {"C": 1.0, "I": 0.0}[v]) for (m, t), vals in values.items()
                         for (q, e), v in vals.items()], columns=["model", "question", "template", "sample", "score"])
    oracle = llm.fit_facets(tidy, baseline="m/a")
    assert (fit.method, fit.n, fit.templates, fit.samples) == ("anova", 20, 3, 3)
    for name in ("var_template", "var_item", "var_item_template", "var_sample", "delta", "se", "df"):
        assert getattr(fit, name) == pytest.approx(getattr(oracle, name), rel=1e-12, abs=1e-15), name
    # the gain by hand: the mean over questions, templates and epochs of the paired differences
    diffs = [(values["m/b", t][q, e] == "C") - (values["m/a", t][q, e] == "C") for t in TEMPLATES
             for (q, e) in values["m/a", t]]
    assert fit.delta == pytest.approx(np.mean(diffs), abs=1e-12)


def test_runs_are_paired_by_their_plans_prompt_template():
    rng = np.random.default_rng(1)
    steps = [[{"solver": "prompt_template", "params": {"template": f"Answer {style}: {{prompt}}"}},
              {"solver": "generate", "params": {}}] for style in ("briefly", "step by step")]
    a = [(f"a{k}.eval", inspect_log("m/a", _values(rng, 5, 1, 0.5), steps=s)) for k, s in enumerate(steps)]
    b = [(f"b{k}.eval", inspect_log("m/b", _values(rng, 5, 1, 0.5), steps=s)) for k, s in enumerate(steps[::-1])]
    frame = llm.read_inspect_templates(a, b)
    labels = [label for label, _, _ in frame.attrs["templates"]]
    assert labels == ['prompt_template.template="Answer briefly: {prompt}"',
                      'prompt_template.template="Answer step by step: {prompt}"']
    assert [(x, y) for _, x, y in frame.attrs["templates"]] == [("a0.eval", "b1.eval"), ("a1.eval", "b0.eval")]


def test_runs_that_look_alike_are_paired_in_order_with_a_note():
    rng = np.random.default_rng(2)
    a = [(f"a{k}.eval", inspect_log("m/a", _values(rng, 4, 2, 0.5))) for k in range(2)]
    b = [(f"b{k}.json", inspect_log("m/b", _values(rng, 4, 2, 0.5), fmt="json")) for k in range(2)]
    frame = llm.read_inspect_templates(a, b)
    assert frame.attrs["templates"] == (("template 1", "a0.eval", "b0.json"), ("template 2", "a1.eval", "b1.json"))
    assert any("k-th log of each model is template k" in note for note in frame.attrs["notes"])
    assert not any("set up differently" in note for note in frame.attrs["notes"])
    # the second pair set up differently from each other (another template in the new model's run)
    b[1] = ("b1.json", inspect_log("m/b", _values(rng, 4, 2, 0.5), fmt="json", task_args={"template": "cot"}))
    notes = llm.read_inspect_templates(a, b).attrs["notes"]
    assert "Template 2: the two models' runs are set up differently (template)." in notes


def test_labels_cut_to_the_same_text_stay_apart():
    rng = np.random.default_rng(4)
    long = ["x" * 60 + "A", "x" * 60 + "B"]
    a = [(f"a{k}.eval", inspect_log("m/a", _values(rng, 3, 1, 0.5), task_args={"t": t})) for k, t in enumerate(long)]
    b = [(f"b{k}.eval", inspect_log("m/b", _values(rng, 3, 1, 0.5), task_args={"t": t})) for k, t in enumerate(long)]
    labels = [label for label, _, _ in llm.read_inspect_templates(a, b).attrs["templates"]]
    assert len(set(labels)) == 2 and labels[0].endswith("(1)") and labels[1].endswith("(2)")
    assert len(labels[0]) < 60


def test_logs_written_by_inspect_give_inspects_own_metric_per_template():
    real = {name: (INSPECT_DIR / name).read_bytes() for name in ("tiny_qa.eval", "tiny_qa_with_error.eval",
                                                                 "tiny_qa.json")}
    baseline = [("tiny_qa.eval", real["tiny_qa.eval"]), ("tiny_qa_with_error.eval", real["tiny_qa_with_error.eval"])]
    new = [("tiny_qa.json", real["tiny_qa.json"]), ("tiny_qa_with_error.eval", real["tiny_qa_with_error.eval"])]
    frame = llm.read_inspect_templates(baseline, new, scorer="length_ratio")
    assert frame.attrs["models"] == ("mockllm/model (baseline)", "mockllm/model (new)")
    for (label, a_name, b_name), (model, name) in itertools.product(
            frame.attrs["templates"], [("mockllm/model (baseline)", 0), ("mockllm/model (new)", 1)]):
        file_name = (a_name, b_name)[name]
        cell = frame[(frame.template == label) & (frame.model == model)]
        # Inspect averages each sample's epochs, then the samples (errored ones left out)
        assert cell.groupby("question").score.mean().mean() == pytest.approx(
            _inspect_metric(real[file_name], "length_ratio"), abs=1e-12)
    assert any("without a `length_ratio` score" in note for note in frame.attrs["notes"])


def test_bad_sets_of_logs_get_messages():
    rng = np.random.default_rng(5)
    one = [("a.eval", inspect_log("m/a", _values(rng, 3, 1, 0.5)))]
    two = [(f"b{k}.eval", inspect_log("m/b", _values(rng, 3, 1, 0.5))) for k in range(2)]
    with pytest.raises(ValueError, match="baseline has 1 logs and the new model 2"):
        llm.read_inspect_templates(one, two)
    with pytest.raises(ValueError, match="Inspect logs as a list"):
        llm.read_inspect_templates([], two)
    several = [("c.eval", inspect_log("m/c", {("q0", 1): {"__scores__": True, "match": {"value": "C"},
                                                          "f1": {"value": 0.5}}}))]
    with pytest.raises(ValueError, match="several scores"):
        llm.read_inspect_templates(several, several)
    with pytest.raises(ValueError, match="`scorer` 'nope'"):
        llm.read_inspect_templates(one, one, scorer="nope")
    with pytest.raises(ValueError, match="outside \\[0, 1\\]"):
        llm.read_inspect_templates(one, [("d.json", inspect_log("m/d", {("q0", 1): 3}, fmt="json"))])


def test_one_log_each_is_one_template():
    rng = np.random.default_rng(6)
    a = [("a.eval", inspect_log("m/a", _values(rng, 6, 2, 0.5), task_args={"template": "x"}))]
    b = [("b.eval", inspect_log("m/b", _values(rng, 6, 2, 0.5), task_args={"template": "y"}))]
    frame = llm.read_inspect_templates(a, b)
    assert frame.attrs["templates"] == (("template 1", "a.eval", "b.eval"),)
    assert frame.template.unique().tolist() == ["template 1"]
    fit = llm.fit_facets(frame)
    assert (fit.templates, fit.samples) == (1, 2)


def test_one_task_per_template_and_other_releases_defaults_still_pair():
    """Templates run as one @task each (the task names them), with the new model's runs written by another Inspect
    release (a default parameter constant within that model) and named so that file order would mispair them."""
    rng = np.random.default_rng(8)
    a = [(f"a{k}.eval", inspect_log("m/a", _values(rng, 6, 1, 0.5), task=t)) for k, t in enumerate(("qa_plain",
                                                                                                   "qa_cot"))]
    steps = [{"solver": "generate", "params": {"tool_calls": "loop"}}]
    b = [(f"b{k}.eval", inspect_log("m/b", _values(rng, 6, 1, 0.5), task=t, steps=steps))
         for k, t in enumerate(("qa_cot", "qa_plain"))]
    frame = llm.read_inspect_templates(a, b)
    assert frame.attrs["templates"] == (('task="qa_plain"', "a0.eval", "b1.eval"),
                                        ('task="qa_cot"', "a1.eval", "b0.eval"))


def test_the_baseline_stays_the_baseline_when_its_first_template_has_no_scores():
    rng = np.random.default_rng(9)
    a = [("a0.eval", inspect_log("m/a", {("q0", 1): float("nan"), ("q1", 1): float("nan")},  # unscored
                                 task_args={"template": "x"})),
         ("a1.eval", inspect_log("m/a", {("q0", 1): "I", ("q1", 1): "C", ("q2", 1): "I"},
                                 task_args={"template": "y"}))]
    b = [(f"b{k}.eval", inspect_log("m/b", {("q0", 1): "C", ("q1", 1): "C", ("q2", 1): "I"},
                                    task_args={"template": t})) for k, t in enumerate(("x", "y"))]
    del rng
    frame = llm.read_inspect_templates(a, b)
    assert frame.model.iloc[0] == "m/a"
    fit = llm.fit_facets(frame)
    assert fit.models == ("m/a", "m/b") and fit.delta == pytest.approx(1 / 3)  # B − A on the paired answers


def test_one_log_each_set_up_differently_gets_a_note():
    rng = np.random.default_rng(10)
    a = [("a.eval", inspect_log("m/a", _values(rng, 4, 1, 0.5), task_args={"template": "x"}))]
    b = [("b.eval", inspect_log("m/b", _values(rng, 4, 1, 0.5), task_args={"template": "y"}))]
    notes = llm.read_inspect_templates(a, b).attrs["notes"]
    assert "Template 1: the two models' runs are set up differently (template)." in notes

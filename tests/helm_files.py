"""HELM ``per_instance_stats.json`` files written in HELM's layout for tests.

The layout follows stanford-crfm/helm at 63754d0: ``benchmark/runner.py`` writes
``json.dumps(list(map(asdict_without_nones, per_instance_stats)), indent=2)``, one ``PerInstanceStats`` per instance,
train trial and perturbation, each ``Stat`` with its ``MetricName`` (``name``, ``split``, ``perturbation``) and
``count, sum, sum_squared, min, max, mean, variance, stddev``; fields that are None are left out.
"""

from __future__ import annotations

import json


def _stat(name: str, value: float, perturbation: dict | None = None, split: str = "test") -> dict:
    metric = {"name": name, "split": split}
    if perturbation is not None:
        metric["perturbation"] = perturbation
    return {"name": metric, "count": 1, "sum": value, "sum_squared": value * value, "min": value, "max": value,
            "mean": value, "variance": 0.0, "stddev": 0.0}


def helm_stats(values: dict, *, perturbed: int = 0, extra_metrics: bool = True, valid: dict | None = None) -> bytes:
    """``values[(instance_id, trial)]`` = the exact_match of that instance and trial (quasi_exact_match is the
    same value; num_output_tokens and inference_runtime beside them, as HELM logs them). ``perturbed`` instances
    get a perturbed copy (typos, robustness) with its own statistics. ``valid``: instances of the valid split, first
    (HELM evaluates both splits), the same way."""
    records = [{"instance_id": instance, "train_trial_index": trial,
                "stats": [_stat("exact_match", value, split="valid"), _stat("quasi_exact_match", value, split="valid")]}
               for (instance, trial), value in (valid or {}).items()]
    for (instance, trial), value in values.items():
        stats = [_stat("exact_match", value), _stat("quasi_exact_match", value)]
        if extra_metrics:
            stats += [_stat("num_output_tokens", 7.0), _stat("inference_runtime", 0.42),
                      _stat("prompt_truncated", 0.0), _stat("num_train_instances", 5.0)]
        records.append({"instance_id": instance, "train_trial_index": trial, "stats": stats})
    typos = {"name": "typos", "robustness": True, "fairness": False, "computed_on": "perturbed", "prob": 0.1}
    for (instance, trial), value in list(values.items())[:perturbed]:
        records.append({"instance_id": instance, "perturbation": typos, "train_trial_index": trial,
                        "stats": [_stat("exact_match", 1.0 - value, typos),
                                  _stat("quasi_exact_match", 1.0 - value, typos)]})
    return json.dumps(records, indent=2).encode()


def run_spec(model: str, scenario: str = "mmlu:subject=anatomy") -> bytes:
    """A run's ``run_spec.json`` (``benchmark/run_spec.py`` ``RunSpec``), the fields the app reads and a few beside."""
    return json.dumps({"name": f"{scenario},method=multiple_choice_joint,model={model.replace('/', '_')}",
                       "scenario_spec": {"class_name": "helm.benchmark.scenarios.mmlu_scenario.MMLUScenario",
                                         "args": {"subject": "anatomy"}},
                       "adapter_spec": {"method": "multiple_choice_joint", "model_deployment": model, "model": model,
                                        "max_train_instances": 5, "num_train_trials": 1},
                       "metric_specs": [], "data_augmenter_spec": {}, "groups": ["mmlu"]}, indent=2).encode()


def run_folder(model: str, values: dict, *, perturbed: int = 0, scenario: str = "mmlu:subject=anatomy") -> bytes:
    """A HELM run folder zipped as a user would: run_spec.json, per_instance_stats.json and stats.json."""
    import io
    import zipfile

    folder = f"runs/v1/{scenario},model={model.replace('/', '_')}"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{folder}/run_spec.json", run_spec(model, scenario))
        archive.writestr(f"{folder}/per_instance_stats.json", helm_stats(values, perturbed=perturbed))
        archive.writestr(f"{folder}/stats.json", json.dumps([{"name": {"name": "exact_match", "split": "test"},
                                                               "count": len(values)}]))
    return buffer.getvalue()

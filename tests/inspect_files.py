"""Inspect AI logs written in Inspect's layout for tests (``.eval`` zips and ``.json`` logs).

The layout follows inspect_ai 0.3.260 (``log/_recorders/eval.py``, ``log/_log.py``), as the real logs in
``tests/data/inspect`` show it: ``_journal/start.json``, ``samples/<id>_epoch_<n>.json``,
``_journal/summaries/<n>.json``, then ``summaries.json``, ``reductions.json`` and ``header.json`` when the run ends;
members compressed with Zstandard (since 0.3.206) or Deflate (before).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

INSPECT_DIR = Path(__file__).resolve().parent / "data" / "inspect"


def _score(value):
    return {"value": value, "answer": "an answer", "explanation": "why", "history": []}


def inspect_log(model: str, values: dict, *, scorer: str = "match", fmt: str = "eval", compression: str = "zstd",
                status: str = "success", task: str = "arc_easy", finished: bool = True, transcript: int = 200,
                extra: dict | None = None, task_args: dict | None = None, steps: list | None = None) -> bytes:
    """A log of ``model`` whose samples ``(id, epoch)`` have ``values[(id, epoch)]`` as their ``scorer`` value
    (``None``: an errored sample with ``scores: {}``; a dict with the key ``"__scores__"``: the sample's whole
    ``scores``, written as they are).
    ``finished=False`` writes a ``.eval`` of a run still going (no header.json, no summaries.json).
    ``task_args`` are the run's ``eval.task_args``; ``steps`` its plan's steps (default: one ``generate``)."""
    from backports.zstd import zipfile

    epochs = max(e for _, e in values)
    evaluation = {"eval_id": "E1", "run_id": "R1", "created": "2026-11-28T03:27:10+00:00", "task": task,
                  "task_id": "T1", "task_version": 0, "dataset": {"name": task, "samples": len({i for i, _ in values})},
                  "task_args": task_args or {}, "model": model, "model_args": {},
                  "config": {"epochs": epochs, "log_samples": True},
                  "packages": {"inspect_ai": "0.3.260"}, "scorers": [{"name": scorer, "options": {}, "metrics": []}]}
    plan = {"name": "plan", "steps": steps if steps is not None else [{"solver": "generate", "params": {}}],
            "config": {}}
    samples = []
    for (sample_id, epoch), value in sorted(values.items(), key=lambda kv: (kv[0][1], str(kv[0][0]))):
        sample = {"id": sample_id, "epoch": epoch, "input": f"Question {sample_id}?", "target": "A",
                  "messages": [{"role": "user", "content": "x" * transcript}], "events": [], "metadata": {}}
        if value is None:
            sample.update(scores={}, error={"message": "RuntimeError('boom')", "traceback": "…"})
        else:
            several = isinstance(value, dict) and "__scores__" in value
            sample["scores"] = ({k: v for k, v in value.items() if k != "__scores__"} if several
                                else {scorer: _score(value)})
        sample.update(extra or {})
        samples.append(sample)
    header = {"version": 2, "status": status, "eval": evaluation, "plan": plan,
              "results": {"total_samples": len(samples), "completed_samples": len(samples),
                          "scores": [{"name": scorer, "scorer": scorer, "params": {}, "metrics": {}}]},
              "stats": {"started_at": "2026-11-28T03:27:10+00:00", "completed_at": "2026-11-28T03:27:11+00:00"}}
    if fmt == "json":
        return json.dumps({**header, "invalidated": False, "samples": samples}, indent=2).encode()
    method = zipfile.ZIP_ZSTANDARD if compression == "zstd" else zipfile.ZIP_DEFLATED
    summaries = [{k: v for k, v in s.items() if k not in ("messages", "events")} for s in samples]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        archive.writestr("_journal/start.json", json.dumps({"version": 2, "eval": evaluation, "plan": plan}))
        for k, sample in enumerate(samples):
            archive.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json", json.dumps(sample))
            if k % 2 == 1 or k == len(samples) - 1:
                archive.writestr(f"_journal/summaries/{k // 2 + 1}.json", json.dumps(summaries[k - k % 2:k + 1]))
        if finished:
            archive.writestr("summaries.json", json.dumps(summaries))
            archive.writestr("reductions.json", json.dumps([]))
            archive.writestr("header.json", json.dumps(header))
    return buffer.getvalue()

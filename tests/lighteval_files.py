"""lighteval details files written as lighteval writes them, for the tests.

``logging/evaluation_tracker.py`` (huggingface/lighteval at 3fd1526) saves a task's details with
``Dataset.from_list([asdict(detail) for detail in task_details]).to_parquet(...)``: one row per sample with the
``Detail`` fields ``doc`` (every ``Doc`` field), ``model_response`` (every ``ModelResponse`` field) and ``metric``;
details before June 2025 (lighteval 9288bd8^) were flat, with ``example``, ``full_prompt``, ``predictions``,
``gold``, ``metrics``, …. Written here with pyarrow, which ``datasets`` uses underneath.
"""

from __future__ import annotations

import io


def lighteval_details(values, *, task: str = "leaderboard|arc:challenge|25", metric: str = "acc",
                      extra: dict | None = None, ids=None, old: bool = False, questions=None) -> bytes:
    """Details of one task: sample i has ``values[i]`` as its ``metric`` (``None``: missing); ``extra`` adds
    further metrics (name → values); ``ids`` the samples' ``doc.id`` (default ``"0"``, ``"1"``, …); ``old`` writes
    the flat layout before June 2025, whose ``example`` is ``questions[i]`` (default ``"Question i?"``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    ids = [str(i) for i in range(len(values))] if ids is None else list(ids)
    questions = [f"Question {i}?" for i in range(len(values))] if questions is None else list(questions)
    rows = []
    for i, value in enumerate(values):
        metrics = {metric: value, **{name: vals[i] for name, vals in (extra or {}).items()}}
        if old:
            rows.append({"example": questions[i], "instruction": "", "full_prompt": f"Q: {questions[i]}\nA:",
                         "num_effective_few_shots": 25, "num_asked_few_shots": 25, "predictions": [[-1.2, 0.0]],
                         "input_tokens": [], "cont_tokens": [], "truncated": [0], "padded": [0],
                         "gold": [[" A"]], "pred_logits": [], "choices": [" A", " B"], "gold_index": [0],
                         "metrics": metrics, "specifics": {"kind": "mc"}})
            continue
        rows.append({
            "doc": {"query": f"Q: {questions[i]}\nA:", "choices": [" A", " B"], "gold_index": 0, "instruction": None,
                    "images": None, "specific": None, "unconditioned_query": "A:", "original_query": questions[i],
                    "id": ids[i], "task_name": task, "fewshot_samples": [], "sampling_methods": ["LOGPROBS"],
                    "fewshot_sorting_class": None, "generation_size": None, "stop_sequences": None,
                    "use_logits": False, "num_samples": 1, "generation_grammar": None},
            "model_response": {"input": f"Q: {questions[i]}\nA:", "text": [], "logprobs": [-1.2, -2.3],
                               "argmax_logits_eq_gold": [True, False], "input_tokens": [1, 2, 3],
                               "output_tokens": [], "truncated_tokens_count": 0, "padded_tokens_count": 0},
            "metric": metrics})
    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows), buffer)
    return buffer.getvalue()


def details_name(task: str = "leaderboard|arc:challenge|25", date: str = "2025-11-05T14-43-47.148527") -> str:
    """The file name lighteval gives a task's details."""
    return f"details_{task}_{date}.parquet"

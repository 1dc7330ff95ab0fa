"""What the readers of frameworks' per-model result files share (HELM runs, lighteval details): the
``(model, file_name, bytes)`` entries checked, one file per run, exactly two models, the metrics every file has.

Private to :mod:`core.llm`; it imports none of its siblings, so each reader imports it without a circle.
"""

from __future__ import annotations

import hashlib


def checked_entries(files, what: str, one: str) -> list:
    """``files`` as a list of ``(model, file_name, data)``; ``what`` and ``one`` name the files and a file in
    messages ("HELM files", "HELM file")."""
    if not isinstance(files, (list, tuple)) or not files:
        raise ValueError(f"Give the {what} as a list of (model, file_name, bytes).")
    for item in files:
        if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str)):
            raise ValueError(f"Each {one} must be (model, file_name, bytes).")
    return list(files)


def no_repeats(files) -> None:
    """The same bytes twice for one model would count its answers twice (K doubled): refused, naming both files."""
    seen: dict = {}
    for model, file_name, data in files:
        key = (model, hashlib.sha256(bytes(data)).hexdigest())
        if key in seen:
            raise ValueError(f"`{file_name[:80]}` is the same file as `{seen[key][:80]}` ({model[:40]}'s); upload "
                             "each run once.")
        seen[key] = file_name


def two_models(runs) -> None:
    """Refuse read runs ``(model, file_name, run)`` that are not of exactly two models."""
    models = list(dict.fromkeys(model for model, _, _ in runs))
    if len(models) != 2:
        raise ValueError(f"Give the files of exactly two models (the baseline's first); got {len(models)}: "
                         + ", ".join(repr(m[:40]) for m in models) + ".")


def shared_metrics(runs) -> list[str]:
    """The metrics (``run.metrics``) of the first run that every other run has, in its order."""
    return [m for m in runs[0][2].metrics if all(m in run.metrics for _, _, run in runs[1:])]

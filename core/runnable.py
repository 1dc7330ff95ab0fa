"""Plans that can be run: which items to evaluate, how many votes each pair needs, which worker rates what.

* :func:`item_list` — a seeded random subset of a benchmark's items (stratified by cluster), the same for every
  model, with :func:`item_list_json` (``{task: [doc_id, …]}``, the format of lm-evaluation-harness's ``--samples``)
  and :func:`harness_command`. A random subset, not the first n: the harness's ``--limit`` takes the first n
  documents of each task (lm-evaluation-harness ``docs/interface.md``), which are often ordered by source or
  difficulty.
* :func:`vote_allocation` — votes per adjacent pair of a leaderboard so that every pair reaches the target power.
* :func:`worker_assignment` — a balanced item × worker assignment for a crowd design with k of W workers per item.

Every function is deterministic given its ``seed``: the same inputs give the same file.
"""

from __future__ import annotations

import json
import re
import shlex

import numpy as np
import pandas as pd

from core.validation import check_int, rng_of

__all__ = ["item_list", "item_list_json", "harness_command", "harness_task", "task_from_file_name", "TASK_FILE",
           "vote_allocation", "worker_assignment"]


def _allocate(sizes: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Proportional allocation of n over strata (largest remainder, Hamilton's method); ties broken at random.

    Each stratum gets ⌊n·s_c/N⌋ or ⌈n·s_c/N⌉ items (Cochran 1977, §5.5: proportional allocation), never more than
    its size.
    """
    quota = n * sizes / sizes.sum()
    base = np.floor(quota).astype(int)
    left = n - int(base.sum())
    if left:
        rank = np.lexsort((rng.permutation(sizes.size), -(quota - base)))  # largest remainder first, random ties
        base[rank[:left]] += 1
    return base


def item_list(items, n, *, clusters=None, tasks=None, seed=0) -> pd.DataFrame:
    """A seeded random subset of ``n`` items to evaluate, stratified by cluster.

    Parameters
    ----------
    items : sequence
        The benchmark's item ids (lm-evaluation-harness ``doc_id``, or a tidy log's ``question``), one per item;
        ids must be unique within a task.
    n : int
        Items to evaluate, 1 ≤ n ≤ len(items).
    clusters : sequence, optional
        Each item's cluster (passage, document, template, or task). When given, the subset is stratified:
        each cluster gets ⌊n·s_c/N⌋ or ⌈n·s_c/N⌉ of its s_c items (proportional allocation, largest remainder),
        so the subset keeps the benchmark's mix and the clustered analysis its clusters.
    tasks : sequence or str, optional
        Each item's task (the key of the JSON file), or one task for all. Default ``"benchmark"``.
    seed : int, optional
        Seed of the draw (``numpy.random.default_rng``): the same seed gives the same list.

    Returns
    -------
    DataFrame
        One row per chosen item, columns ``task, item`` (and ``cluster`` when given), sorted by task and item. The
        same list serves every model, so the comparison stays paired.

    Raises
    ------
    ValueError
        For n out of range, lengths that differ, or an item id repeated within a task.
    """
    ids = pd.Series(list(items), dtype=object)
    if ids.empty:
        raise ValueError("`items` is empty: give at least one item id.")
    total = len(ids)
    n = check_int("n", n, low=1, high=total)
    seed = check_int("seed", seed, low=0)
    if tasks is None or isinstance(tasks, str):
        task = pd.Series([tasks or "benchmark"] * total, dtype=object)
    else:
        task = pd.Series(list(tasks), dtype=object).astype(str)
        if len(task) != total:
            raise ValueError(f"`tasks` must have one entry per item ({total:,}); got {len(task):,}.")
    frame = pd.DataFrame({"task": task, "item": ids})
    if clusters is not None:
        cl = pd.Series(list(clusters), dtype=object).astype(str)
        if len(cl) != total:
            raise ValueError(f"`clusters` must have one entry per item ({total:,}); got {len(cl):,}.")
        frame["cluster"] = cl
    dup = frame.duplicated(["task", "item"])
    if dup.any():
        raise ValueError(f"`items` must be unique within a task; {frame.loc[dup, 'item'].iloc[0]!r} is repeated.")
    rng = rng_of(seed)
    if clusters is None:
        chosen = np.sort(rng.choice(total, size=n, replace=False))
    else:
        codes, labels = pd.factorize(frame["cluster"], sort=True)
        sizes = np.bincount(codes, minlength=labels.size)
        counts = _allocate(sizes.astype(float), n, rng)
        picks = [rng.choice(np.flatnonzero(codes == c), size=counts[c], replace=False) for c in range(labels.size)]
        chosen = np.sort(np.concatenate(picks))
    out = frame.iloc[chosen].reset_index(drop=True)
    key = out["item"].map(lambda v: (0, int(v), "") if _is_index(v) else (1, 0, str(v)))
    return out.assign(_k=key).sort_values(["task", "_k"], kind="stable").drop(columns="_k").reset_index(drop=True)


def _is_index(value) -> bool:
    """A non-negative whole number (an lm-evaluation-harness doc_id), as int or text."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return value >= 0
    return isinstance(value, str) and value.isascii() and value.isdigit()


def item_list_json(frame: pd.DataFrame) -> str:
    """The list as ``{task: [id, …]}`` JSON: ids that are doc_ids (whole numbers) become integers, in ascending
    order — the mapping lm-evaluation-harness's ``--samples`` takes."""
    out = {}
    for task, group in frame.groupby("task", sort=True):
        values = list(group["item"])
        out[str(task)] = [int(v) for v in values] if all(_is_index(v) for v in values) else [str(v) for v in values]
    return json.dumps(out)


def harness_command(frame: pd.DataFrame, *, file_name: str = "item_list.json") -> str | None:
    """The lm-evaluation-harness command that evaluates exactly the listed items, or None when it cannot.

    ``--samples`` takes a JSON mapping of task names to document indices (``{"task1": [0, 1, 2]}``), is
    incompatible with ``--limit`` (``docs/interface.md``, ``lm_eval/_cli/run.py``) and indexes the task's
    evaluation documents 0 … k − 1, the same numbers the harness logs as ``doc_id``. Items that are not whole
    numbers (a tidy log's question text) cannot be selected that way: None. ``--samples`` exists from
    lm-evaluation-harness 0.4.9; the command uses the ``lm_eval`` entry point without a subcommand, which
    later versions (``lm-eval run``) still accept.
    """
    if frame.empty or not all(_is_index(v) for v in frame["item"]):
        return None
    tasks = ",".join(sorted({str(t) for t in frame["task"]}))
    return ("lm_eval --model <backend> --model_args <model arguments> "
            f"--tasks {shlex.quote(tasks)} --samples \"$(cat {shlex.quote(file_name)})\" "
            "--log_samples --output_path <results directory>")


#: An lm-evaluation-harness samples file's name: ``samples_<task>_<date>.jsonl``.
TASK_FILE = re.compile(r"^samples_(?P<task>.+?)_(?P<date>\d{4}-\d{2}-\d{2}T[\d\-.:]+)\.jsonl$")


def task_from_file_name(label: str, index: int = 1) -> str:
    """The task a samples file holds, from its name (:data:`TASK_FILE`); else the name without ``.jsonl``, or
    ``"task <index>"`` for a blank name. (Here rather than in :mod:`core.llm`, whose harness readers use it, so
    that this module imports no scenario package: :mod:`core.llm`'s item-list designs import this one.)"""
    base = label.replace("\\", "/").rsplit("/", 1)[-1]
    match = TASK_FILE.match(base)
    if match:
        return match.group("task")
    return base[:-6] if base.endswith(".jsonl") else (base if base else f"task {index}")


def harness_task(file_name: str) -> str:
    """The task of an lm-evaluation-harness samples file, from its name ``samples_<task>_<date>.jsonl``."""
    return task_from_file_name(str(file_name), 1)


def vote_allocation(ratings, *, target_power=0.8, tie_rate=0.0, ties="drop", judge_accuracy=1.0,
                    alpha=0.05) -> pd.DataFrame:
    """Votes each adjacent pair of a leaderboard needs to reach ``target_power``.

    The votes go to neighbours in the assumed order (a chain of K − 1 pairs). On a chain the Bradley–Terry fit
    of each adjacent gap uses only that pair's votes (a tree has no other path between two systems), so pair k
    is a head-to-head comparison and needs exactly the votes of a two-system leaderboard:
    :func:`core.pairwise.leaderboard_votes` for the pair alone (the exact sign test, the size from which its
    power stays at or above the target). Close neighbours need more votes, roughly ∝ 1/gap².

    Parameters
    ----------
    ratings : Series or mapping or array
        Expected ratings (Elo) of K ≥ 2 systems, as in :func:`core.pairwise.leaderboard_power`.
    target_power, tie_rate, ties, judge_accuracy, alpha
        As in :func:`core.pairwise.leaderboard_votes`.

    Returns
    -------
    DataFrame
        One row per adjacent pair, best first: ``system_a, system_b, gap_elo, votes, share, power`` — ``votes``
        includes ties, ``share`` is the pair's part of the total, ``power`` the pair's analytic power at its
        votes (:func:`core.pairwise.leaderboard_power` of the pair).

    Raises
    ------
    ValueError
        When two neighbours have equal ratings (no number of votes orders them) or a pair needs more than
        10,000,000 votes.
    """
    from core import pairwise as pw

    series = ratings if isinstance(ratings, pd.Series) else pd.Series(ratings)
    if not isinstance(ratings, (pd.Series, dict)):
        series.index = pw.system_names(len(series))
    if len(series) < 2:
        raise ValueError("`ratings` must have at least 2 systems.")
    values = series.astype(float)
    order = np.argsort(-values.to_numpy(), kind="stable")
    rows = []
    for a, b in zip(order[:-1], order[1:]):
        pair = values.iloc[[a, b]]
        gap = float(pair.iloc[0] - pair.iloc[1])
        if not gap > 0:
            raise ValueError(f"Systems {pair.index[0]!r} and {pair.index[1]!r} have equal ratings: no number of "
                             "votes orders them; give them different `ratings`.")
        kw = dict(target_power=target_power, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy, alpha=alpha)
        need = pw.leaderboard_votes(pair, conservative=True, **kw)
        if need < 0:
            need = pw.leaderboard_votes(pair, **kw)
        if need < 0:
            raise ValueError(f"Systems {pair.index[0]!r} and {pair.index[1]!r} need more than 10,000,000 votes.")
        power = float(pw.leaderboard_power(need, pair, tie_rate=tie_rate, ties=ties, judge_accuracy=judge_accuracy,
                                           alpha=alpha).adjacent_power[0])
        rows.append((str(pair.index[0]), str(pair.index[1]), gap, int(need), power))
    frame = pd.DataFrame(rows, columns=["system_a", "system_b", "gap_elo", "votes", "power"])
    frame.insert(4, "share", frame["votes"] / frame["votes"].sum())
    return frame


def worker_assignment(items, workers, per_item, *, seed=0) -> pd.DataFrame:
    """A balanced assignment of items to workers: each item gets ``per_item`` distinct workers of ``workers``.

    Workers are put in a seeded random order and the items, in a seeded random order, take consecutive blocks of
    k workers around that cycle (item t gets workers t·k, …, t·k + k − 1 mod W). Each item thus has k distinct
    workers (k ≤ W) and each worker gets ⌊I·k/W⌋ or ⌈I·k/W⌉ items — the balanced incomplete layout the crowd
    analysis assumes.

    Parameters
    ----------
    items : int
        Items I (numbered 1 … I).
    workers : int
        Worker pool W (numbered 1 … W).
    per_item : int
        Workers per item k, 1 ≤ k ≤ W; k = W is the fully crossed design.
    seed : int, optional

    Returns
    -------
    DataFrame
        I·k rows ``item, worker``, sorted by item then worker: each worker rates both systems' outputs of the
        items assigned to them.
    """
    items = check_int("items", items, low=1, high=10_000_000)
    workers = check_int("workers", workers, low=1, high=100_000)
    per_item = check_int("per_item", per_item, low=1, high=workers)
    seed = check_int("seed", seed, low=0)
    if items * per_item > 50_000_000:
        raise ValueError("`items` × `per_item` must be at most 50,000,000 assignments.")
    rng = rng_of(seed)
    cycle = rng.permutation(workers) + 1
    item_order = rng.permutation(items) + 1
    slots = (np.arange(items)[:, None] * per_item + np.arange(per_item)[None, :]) % workers
    frame = pd.DataFrame({"item": np.repeat(item_order, per_item), "worker": cycle[slots].ravel()})
    return frame.sort_values(["item", "worker"]).reset_index(drop=True)


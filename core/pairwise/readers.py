"""Simulated votes and readers of published vote files (arena, AlpacaEval; nothing is executed).

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..uploads import (MAX_BYTES, guess_columns, is_parquet, looks_like_json, map_columns, parquet_columns,
                       read_jsonl, read_parquet, read_table)
from ..validation import check_probability, rng_of
from ._common import WINNERS, _validate
from .solver import _pairs
from .analytic import _design
from .power import _draw_counts

__all__ = [
    "read_votes",
    "simulate_votes",
]


# ---------------------------------------------------------------------------
# votes: simulate, read, fit
# ---------------------------------------------------------------------------
def simulate_votes(ratings, n_votes, *, tie_rate=0.0, judge_accuracy=1.0, bothbad_share=0.0,
                   seed=None) -> pd.DataFrame:
    """A synthetic vote table (one row per vote) in the arena convention.

    Votes are spread evenly over the pairs (as :func:`leaderboard_power`'s
    simulation); the side each system sits on is a fair coin; a share
    ``bothbad_share`` of the ties is labelled ``"tie (bothbad)"``. Built from
    per-pair counts with ``numpy.repeat`` (no per-vote Python loop).

    Returns
    -------
    pandas.DataFrame
        ``model_a, model_b, winner`` in random order.

    Examples
    --------
    >>> votes = simulate_votes({"x": 1100, "y": 1000}, 6, seed=3)
    >>> sorted(votes.columns), len(votes)
    (['model_a', 'model_b', 'winner'], 6)
    """
    names, values, n_votes, tie_rate, _, judge, *_ = _validate(ratings, n_votes=n_votes, tie_rate=tie_rate,
                                                                 judge_accuracy=judge_accuracy)
    bothbad_share = check_probability("bothbad_share", bothbad_share)
    rng = rng_of(seed)
    des = _design(tuple(values), tie_rate, "drop", judge)
    k = values.size
    i, j = _pairs(k)
    wins, losses, tied = (c[0].astype(np.int64) for c in _draw_counts(n_votes, des, tie_rate, 1, rng))
    per_pair = wins + losses + tied
    first = np.repeat(i, per_pair)
    second = np.repeat(j, per_pair)
    # outcome per vote: 0 = first system wins, 1 = second wins, 2 = tie
    outcome = np.repeat(np.tile([0, 1, 2], per_pair.size), np.stack([wins, losses, tied], axis=1).ravel())
    swap = rng.random(outcome.size) < 0.5
    model_a = np.where(swap, second, first)
    model_b = np.where(swap, first, second)
    winner = np.where(outcome == 2, 2, np.where((outcome == 0) != swap, 0, 1))
    winner = np.where((winner == 2) & (rng.random(outcome.size) < bothbad_share), 3, winner)
    perm = rng.permutation(outcome.size)
    labels = np.array(WINNERS, dtype=object)
    names_arr = np.array(names, dtype=object)
    return pd.DataFrame({"model_a": names_arr[model_a[perm]], "model_b": names_arr[model_b[perm]],
                         "winner": labels[winner[perm]]})


def _factor(values):
    """Codes and unique values of a column (missing values get code -1): validation then costs per unique value."""
    arr = np.asarray(values, dtype=object)
    codes, uniques = pd.factorize(arr, use_na_sentinel=True)
    return codes.astype(np.int64), list(uniques)


#: Other spellings of a winner in published vote files (arena-human-preference releases write ``both_bad``).
_WINNER_ALIASES = {"both_bad": "tie (bothbad)", "tie_bothbad": "tie (bothbad)"}


def _clean_votes(model_a, model_b, winner, *, name, where) -> pd.DataFrame:
    """Validate three parallel columns; returns the tidy categorical vote table (self-matches dropped).

    Every check runs on the distinct values of a column (``pandas.factorize``),
    so a million votes cost a few vectorized passes.
    """
    size = len(model_a)
    codes, uniques = _factor(np.concatenate([np.asarray(model_a, dtype=object), np.asarray(model_b, dtype=object)]))
    text = [str(u).strip() for u in uniques]
    canon, labels = pd.factorize(np.array(text + [""], dtype=object))  # " x" and "x" are one model
    blank = canon[-1]
    remap = np.append(canon[:-1], blank)  # code -1 (missing) → blank
    codes = remap[codes]
    empty = codes == blank
    if empty.any():
        first = int(np.argmax(empty))
        col = "model_a" if first < size else "model_b"
        raise ValueError(f"{name}, {where} {first % size + 1:,}: `{col}` is empty ({int(empty.sum()):,} "
                         "model names are missing).")
    code_a, code_b = codes[:size], codes[size:]
    wcodes, wuniques = _factor(winner)
    normal = np.array([str(u).strip().lower() for u in wuniques] + [""], dtype=object)
    lookup = {value: idx for idx, value in enumerate(WINNERS)}
    lookup.update({alias: WINNERS.index(value) for alias, value in _WINNER_ALIASES.items()})
    mapped = np.array([lookup.get(v, -1) for v in normal], dtype=np.int64)
    wcodes = mapped[wcodes]  # code -1 (missing) → the appended "" → -1
    bad = wcodes < 0
    if bad.any():
        first = int(np.argmax(bad))
        seen = pd.unique(np.asarray(winner, dtype=object)[bad][:10_000])[:5]
        shown = ", ".join(repr(v) for v in seen)
        raise ValueError(f"{name}, {where} {first + 1:,}: unknown `winner` value {seen[0]!r} "
                         f"({int(bad.sum()):,} {where}s; values seen: {shown}). Accepted values: "
                         f"{', '.join(WINNERS)}.")
    selfmatch = code_a == code_b
    notes = []
    if selfmatch.any():
        keep = ~selfmatch
        code_a, code_b, wcodes = code_a[keep], code_b[keep], wcodes[keep]
        notes.append(f"{int(selfmatch.sum()):,} self-match{'es' if selfmatch.sum() > 1 else ''} "
                     "(model_a = model_b) dropped.")
    if code_a.size == 0:
        raise ValueError(f"{name} has no votes between two different models.")
    used = np.zeros(len(labels), dtype=bool)
    used[code_a] = True
    used[code_b] = True
    order = np.flatnonzero(used)  # models in order of first appearance
    new_code = np.full(len(labels), -1, dtype=np.int64)
    new_code[order] = np.arange(order.size)
    models = pd.Index(np.asarray(labels, dtype=object)[order])
    frame = pd.DataFrame({
        "model_a": pd.Categorical.from_codes(new_code[code_a], categories=models),
        "model_b": pd.Categorical.from_codes(new_code[code_b], categories=models),
        "winner": pd.Categorical.from_codes(wcodes, categories=list(WINNERS)),
    })
    frame.attrs["notes"] = notes
    frame.attrs["self_matches"] = int(selfmatch.sum())
    return frame


def _preference_winners(values, *, name, place):
    """AlpacaEval preferences → winners: 1 (or < 1.5) model_a, 2 (or > 1.5) model_b, 1.5 or 0 a tie; None/NaN dropped.

    AlpacaEval's ``get_winrate`` reads 0 and 1.5 as draws and drops values
    that are not preferences (Dubois et al. 2024, ``alpaca_eval.metrics``);
    weighted annotators give a preference in [1, 2] (the probability that
    the second output is better, plus 1). Returns the winners (object array,
    ``None`` where dropped) and the number dropped.
    """
    out = np.empty(len(values), dtype=object)
    dropped = 0
    for k, value in enumerate(values):
        if value is None or isinstance(value, bool) or value == "":
            out[k] = None
            dropped += 1
            continue
        try:
            p = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{name}, {place(k)}: `preference` {str(value)[:20]!r} is not a number (AlpacaEval "
                             "preferences are 1, 2 or a weight in [1, 2]; 1.5 or 0 is a tie).") from None
        if math.isnan(p):
            out[k] = None
            dropped += 1
        elif p == 0.0 or p == 1.5:
            out[k] = "tie"
        elif 1.0 <= p < 1.5:
            out[k] = "model_a"
        elif 1.5 < p <= 2.0:
            out[k] = "model_b"
        else:
            raise ValueError(f"{name}, {place(k)}: `preference` {p:g} is outside [1, 2] (AlpacaEval preferences are "
                             "1, 2 or a weight in [1, 2]; 1.5 or 0 is a tie).")
    return out, dropped


def _votes_from_columns(model_a, model_b, winner, *, name, where, place, preference):
    notes = []
    if preference:
        winner, dropped = _preference_winners(list(winner), name=name, place=place)
        if dropped:
            keep = np.array([w is not None for w in winner])
            model_a, model_b, winner = (np.asarray(x, dtype=object)[keep] for x in (model_a, model_b, winner))
            notes.append(f"{dropped:,} annotation{'s' if dropped != 1 else ''} without a preference (null) dropped.")
            if len(winner) == 0:
                raise ValueError(f"{name} has no annotations with a preference.")
    frame = _clean_votes(model_a, model_b, winner, name=name, where=where)
    frame.attrs["notes"] = notes + frame.attrs["notes"]
    return frame


def read_votes(data, *, name="The votes file", max_bytes=MAX_BYTES, columns=None) -> pd.DataFrame:
    """Pairwise votes from an upload: CSV/TSV, JSON Lines, or a JSON array (arena exports).

    Parameters
    ----------
    data : bytes
        The file. Tables need a header row with the columns ``model_a``,
        ``model_b`` and ``winner`` (any capitalisation; other columns are
        ignored); JSON records need those fields (lmsys "clean_battle" files
        have them, with many others).
    name : str, optional
        How messages call the file.
    max_bytes : int, optional
        Size limit of a CSV/TSV file (default: the upload limit,
        :data:`core.uploads.MAX_BYTES`); JSON files always have that limit.

    Returns
    -------
    pandas.DataFrame
        Columns ``model_a``, ``model_b`` (categoricals sharing the model
        names) and ``winner`` (categorical: ``model_a``, ``model_b``, ``tie``,
        ``tie (bothbad)``; read case-insensitively). Self-matches
        (``model_a == model_b``) carry no information and are dropped;
        ``frame.attrs["notes"]`` says so and ``frame.attrs["self_matches"]``
        counts them.

    columns : dict, optional
        Which columns (or JSON fields) hold ``model_a``, ``model_b`` and
        ``winner``. Without it, tables whose header lacks those names are
        read when :func:`core.uploads.guess_columns` finds all three (e.g.
        ``generator_1``, ``generator_2``, ``preference``).

    Raises
    ------
    ValueError
        For an unreadable or malformed file (the message names the line and
        column; see :mod:`core.uploads`), a missing column or field, an empty
        model name, or a ``winner`` value outside :data:`WINNERS` (the message
        lists the accepted values).

    Notes
    -----
    FastChat's MT-Bench judgments (``model_judgment/gpt-4_pair.jsonl``: ``model_1``,
    ``model_2``, ``g1_winner``, ``g2_winner``) are read as ``show_result.py``
    counts them: a pair with an ``error`` is left out, one whose two judging
    orders disagree is a tie (noted).
    AlpacaEval ``annotations.json`` files are read as they are:
    ``generator_1`` and ``generator_2`` are the models and ``preference`` the
    outcome — 1 (or a weighted preference below 1.5) a win of
    ``generator_1``, 2 (or above 1.5) a win of ``generator_2``, 1.5 or 0 a
    tie, null dropped (noted), as AlpacaEval's own win rate reads them.
    ``data`` may also be a list of files (bytes, or ``(name, bytes)`` pairs):
    they make one vote table (messages name the file).

    Notes
    -----
    Uploads are capped at 20 MB (:data:`core.uploads.MAX_BYTES`, the
    server's upload limit; ``max_bytes`` raises it for CSV/TSV) and
    1,000,000 rows; a million votes fit in 20 MB as a three-column CSV with
    model names of up to about 6 characters. Arena JSON exports carry many
    fields per battle (about 0.3–1 KB each, so some 20,000–60,000 battles per
    20 MB); convert large ones to a three-column CSV first. Reading is linear
    in the file size (the :mod:`csv` module, then vectorized pandas); the
    model columns are stored as categoricals, so the table of a million votes
    takes a few MB once read.

    Examples
    --------
    >>> read_votes(b"model_a,model_b,winner\\nx,y,model_a\\ny,x,TIE (bothbad)\\n")
      model_a model_b         winner
    0       x       y        model_a
    1       y       x  tie (bothbad)
    """
    if isinstance(data, (list, tuple)):
        return _read_many_votes(data, name=name, max_bytes=max_bytes, columns=columns)
    if isinstance(data, str):  # the file's text (a notebook's string): read as UTF-8, as an upload would be
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"`data` must be the file's bytes (or its text, or a list of files); got "
                         f"{type(data).__name__}.")
    if columns is not None and (not isinstance(columns, dict) or set(columns) - {"model_a", "model_b", "winner"}
                                or not all(isinstance(v, str) for v in columns.values())):
        raise ValueError("`columns` must map model_a, model_b and winner to column names, e.g. "
                         "{'model_a': 'generator_1', 'model_b': 'generator_2', 'winner': 'preference'}.")
    if looks_like_json(data):
        records = read_jsonl(data, name=name)
        keys = {"model_a": "model_a", "model_b": "model_b", "winner": "winner"}
        first = records[0]
        if columns is None and "model_a" not in first and set(_MT_BENCH_FIELDS) <= set(first):
            return _mt_bench_votes(records, data, name=name)
        if columns is not None:
            keys.update(columns)
        elif "model_a" not in first and {"generator_1", "generator_2", "preference"} <= set(first):
            keys = {"model_a": "generator_1", "model_b": "generator_2", "winner": "preference"}  # AlpacaEval
        if keys != {"model_a": "model_a", "model_b": "model_b", "winner": "winner"}:
            cols = {}
            for role, key in keys.items():
                values = [rec.get(key, _ABSENT) for rec in records]
                absent = [v is _ABSENT for v in values]
                if any(absent):
                    raise ValueError(f"{name}, {_record_place(data, absent.index(True))}: no `{key}` field.")
                nested = [isinstance(v, (list, dict)) for v in values]
                if any(nested):
                    raise ValueError(f"{name}, {_record_place(data, nested.index(True))}: `{key}` is a JSON "
                                     f"{'list' if isinstance(values[nested.index(True)], list) else 'object'}.")
                cols[role] = values
            del records
            return _votes_from_columns(cols["model_a"], cols["model_b"], cols["winner"], name=name, where="record",
                                       place=lambda k: _record_place(data, k),
                                       preference=keys["winner"].strip().lower() == "preference")
        cols = {}
        for key in ("model_a", "model_b", "winner"):
            values = [rec.get(key, _ABSENT) for rec in records]
            absent = [v is _ABSENT for v in values]
            if any(absent):
                first = absent.index(True) + 1
                raise ValueError(f"{name}, record {first:,}: no `{key}` field (each vote needs model_a, model_b "
                                 "and winner).")
            nested = [isinstance(v, (list, dict)) for v in values]
            if any(nested):
                first = nested.index(True)
                raise ValueError(f"{name}, {_record_place(data, first)}: `{key}` is a JSON "
                                 f"{'list' if isinstance(values[first], list) else 'object'}; it must be "
                                 + ("a model name (text)." if key != "winner" else f"one of {', '.join(WINNERS)}."))
            cols[key] = values
        del records
        return _clean_votes(cols["model_a"], cols["model_b"], cols["winner"], name=name, where="record")
    if is_parquet(data):
        table = _parquet_votes_table(data, name=name, columns=columns)
    else:
        table = read_table(data, name=name, min_columns=3, header="yes", max_bytes=max_bytes)
    lookup = {str(c).strip().lower(): c for c in table.columns}
    if columns is None and not {"model_a", "model_b", "winner"} <= set(lookup):
        guessed = guess_columns(table.columns, ["model_a", "model_b", "winner"])
        if len(guessed) == 3:
            columns = guessed
    if columns is not None:
        mapped = map_columns(table, {"model_a": columns.get("model_a", lookup.get("model_a", "model_a")),
                                     "model_b": columns.get("model_b", lookup.get("model_b", "model_b")),
                                     "winner": columns.get("winner", lookup.get("winner", "winner"))}, name=name)
        winner_column = columns.get("winner", "winner")
        return _votes_from_columns(mapped["model_a"].to_numpy(), mapped["model_b"].to_numpy(),
                                   mapped["winner"].to_numpy(), name=name, where="row",
                                   place=lambda k: f"row {k + 1:,}",
                                   preference=winner_column.strip().lower() == "preference")
    one_hot = ("winner_model_a", "winner_model_b", "winner_tie")
    if "winner" not in lookup and set(one_hot) <= set(lookup) and columns is None:
        # the arena-human-preference-55k release (lmsys, Kaggle): the outcome as three 0/1 columns
        flags = np.column_stack([table[lookup[c]].astype(str).str.strip().str.lower().to_numpy() for c in one_hot])
        ones = np.isin(flags, _ONE)
        bad = ~np.isin(flags, _ONE + _ZERO).all(axis=1) | (ones.sum(axis=1) != 1)
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"{name}, row {k + 1:,}: exactly one of winner_model_a, winner_model_b and winner_tie "
                             f"must be 1 (got {', '.join(flags[k])}).")
        winner = np.array(["model_a", "model_b", "tie"], dtype=object)[np.argmax(ones, axis=1)]
        return _clean_votes(table[lookup["model_a"]].to_numpy(), table[lookup["model_b"]].to_numpy(), winner,
                            name=name, where="row")
    missing = [c for c in ("model_a", "model_b", "winner") if c not in lookup]
    if missing:
        found = ", ".join(str(c) for c in table.columns[:10])
        raise ValueError(f"{name} needs the columns model_a, model_b and winner in a header row; missing "
                         f"{', '.join(missing)} (found: {found}).")
    return _clean_votes(table[lookup["model_a"]].to_numpy(), table[lookup["model_b"]].to_numpy(),
                        table[lookup["winner"]].to_numpy(), name=name, where="row")


_ABSENT = object()
#: How a one-hot outcome flag is spelled (integers, floats as pandas writes them, booleans).
_ONE, _ZERO = ("1", "1.0", "true"), ("0", "0.0", "false")
#: Columns a votes table may hold its outcome in (the one-hot ones: the arena-human-preference-55k release).
_VOTE_FIELDS = ("model_a", "model_b", "winner", "winner_model_a", "winner_model_b", "winner_tie")


def _parquet_votes_table(data, *, name, columns):
    """The vote columns of a Parquet file (Hugging Face's chatbot_arena_conversations, mt_bench_human_judgments,
    arena-human-preference releases), read alone: the conversations beside them are most of the file."""
    names = parquet_columns(data, name=name)
    if columns is not None:
        # roles left out of the mapping keep their usual column, as in a CSV
        lowered = {c.strip().lower(): c for c in names}
        needed = [columns.get(role, lowered.get(role, role)) for role in ("model_a", "model_b", "winner")]
    else:
        needed = [c for c in names if c.strip().lower() in _VOTE_FIELDS]
        if not {"model_a", "model_b", "winner"} <= {c.strip().lower() for c in needed}:
            needed += list(guess_columns(names, ["model_a", "model_b", "winner"]).values())
    if not needed:
        raise ValueError(f"{name} needs the columns model_a, model_b and winner; found: {', '.join(names[:12])}.")
    return read_parquet(data, needed, name=name)
#: Fields of FastChat's MT-Bench pairwise judgments (``data/mt_bench/model_judgment/gpt-4_pair.jsonl``).
_MT_BENCH_FIELDS = ("model_1", "model_2", "g1_winner", "g2_winner")


def _mt_bench_votes(records, data, *, name):
    """FastChat's MT-Bench judgments: each pair is judged in both orders (``g1_winner``, ``g2_winner``, each
    ``model_1``, ``model_2``, ``tie`` or ``error``). As ``fastchat/llm_judge/show_result.py`` counts them, a pair with
    an ``error`` is left out and one whose two orders disagree is a tie (position bias, Zheng et al. 2023, §3.4)."""
    model_a, model_b, winner = [], [], []
    errors = inconsistent = 0
    for k, rec in enumerate(records):
        values = [rec.get(f, _ABSENT) for f in _MT_BENCH_FIELDS]
        if any(v is _ABSENT for v in values):
            missing = _MT_BENCH_FIELDS[[v is _ABSENT for v in values].index(True)]
            raise ValueError(f"{name}, {_record_place(data, k)}: no `{missing}` field.")
        if not all(isinstance(v, str) for v in values):
            raise ValueError(f"{name}, {_record_place(data, k)}: model_1, model_2, g1_winner and g2_winner must be "
                             "text (a model name, model_1, model_2, tie or error).")
        first_model, second_model, g1, g2 = (v.strip() for v in values)
        g1, g2 = g1.lower(), g2.lower()
        for g in (g1, g2):
            if g not in ("model_1", "model_2", "tie", "error"):
                raise ValueError(f"{name}, {_record_place(data, k)}: unknown judgment {g[:20]!r} (MT-Bench's are "
                                 "model_1, model_2, tie and error).")
        if "error" in (g1, g2):
            errors += 1
            continue
        if g1 != g2:
            inconsistent += 1
        outcome = g1 if g1 == g2 else "tie"
        model_a.append(first_model)
        model_b.append(second_model)
        winner.append({"model_1": "model_a", "model_2": "model_b", "tie": "tie"}[outcome])
    if not winner:
        raise ValueError(f"{name} has no judgments without an error.")
    frame = _clean_votes(model_a, model_b, winner, name=name, where="record")
    notes = ["MT-Bench judgments (FastChat): each pair judged in both orders; a pair whose orders disagree counts as "
             f"a tie ({f'{inconsistent:,}' if inconsistent else 'none'} here), as FastChat's show_result.py counts it."]
    if errors:
        notes.append(f"{errors:,} judgment{'s' if errors != 1 else ''} with an error left out.")
    frame.attrs["notes"] = notes + frame.attrs["notes"]
    return frame


def _read_many_votes(files, *, name, max_bytes, columns):
    """Several vote files (e.g. one AlpacaEval annotations.json per model) as one table."""
    if not files:
        raise ValueError(f"{name}: no files given.")
    if len(files) > 200:
        raise ValueError(f"At most 200 vote files can be combined; got {len(files):,}.")
    parts, notes = [], []
    for number, item in enumerate(files, start=1):
        label, content = item if isinstance(item, tuple) else (f"{name} {number}", item)
        part = read_votes(content, name=str(label), max_bytes=max_bytes, columns=columns)
        notes.extend(f"{label}: {note}" for note in part.attrs.get("notes", []))
        parts.append(part)
    if sum(len(p) for p in parts) > 1_000_000:
        raise ValueError("The files hold more than 1,000,000 votes together; at most 1,000,000 are accepted.")
    cols = {key: np.concatenate([p[key].astype(str).to_numpy(dtype=object) for p in parts])
            for key in ("model_a", "model_b", "winner")}
    frame = _clean_votes(cols["model_a"], cols["model_b"], cols["winner"], name=name, where="vote")
    frame.attrs["notes"] = notes
    frame.attrs["self_matches"] = sum(p.attrs.get("self_matches", 0) for p in parts)
    return frame


def _record_place(data, index):
    """Where record ``index`` (0-based) of a JSON upload is: its line for JSON Lines, its number for an array."""
    head = bytes(data[:4096]).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] == b"[":
        return f"record {index + 1:,}"
    seen = -1
    for number, line in enumerate(bytes(data).splitlines(), start=1):
        if line.strip():
            seen += 1
            if seen == index:
                return f"line {number:,}"
    return f"record {index + 1:,}"



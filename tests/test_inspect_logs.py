"""Inspect AI logs as per-answer logs (core.llm.inspect_logs).

Oracles: logs written by Inspect itself (tests/data/inspect, whose ``results`` hold Inspect's own accuracy and mean
of the epoch-averaged samples), Inspect's ``value_to_float`` (scorer/_metric.py, quoted in the module), and the
tidy CSV reader fed the same values.
"""

from __future__ import annotations

import io
import json
import math
import zipfile

import numpy as np
import pandas as pd
import pytest

from core import llm
from core.packed import unpack, unpack_all
from tests.inspect_files import INSPECT_DIR, inspect_log

REAL = {name: (INSPECT_DIR / name).read_bytes() for name in ("tiny_qa.eval", "tiny_qa_with_error.eval",
                                                             "tiny_qa.json")}


def _inspect_metric(data: bytes, scorer: str) -> float:
    """Inspect's own metric of ``scorer`` in a real log's results (accuracy or mean of the epoch means)."""
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:  # the header's name only; its bytes via backports
            assert "header.json" in archive.namelist()
        from backports.zstd import zipfile as zstd_zip

        header = json.loads(zstd_zip.ZipFile(io.BytesIO(data)).read("header.json"))
    else:
        header = json.loads(data)
    score = next(s for s in header["results"]["scores"] if s["scorer"] == scorer)
    return next(iter(score["metrics"].values()))["value"]


@pytest.mark.parametrize("name", sorted(REAL))
@pytest.mark.parametrize("scorer", ["match", "length_ratio"])
def test_logs_written_by_inspect_give_inspects_own_metrics(name, scorer):
    log = llm.read_inspect_log(REAL[name], name=name)
    assert (log.model, log.task, log.status, log.epochs) == ("mockllm/model", "tiny_qa", "success", 2)
    assert log.scorers == ("match", "length_ratio")
    assert llm.is_inspect_log(name, REAL[name])
    frame = llm.read_inspect_logs([(name, REAL[name])], [(name, REAL[name])], scorer=scorer)
    assert frame.attrs["models"] == ("mockllm/model (baseline)", "mockllm/model (new)")
    one = frame[frame.model == "mockllm/model (baseline)"]
    # Inspect reduces the epochs of a sample by their mean, then averages the samples (errored ones left out)
    assert one.groupby("question").score.mean().mean() == pytest.approx(_inspect_metric(REAL[name], scorer), abs=1e-12)
    assert sorted(one["sample"].unique()) == [0, 1]


def test_errored_samples_are_left_out_with_a_note():
    frame = llm.read_inspect_logs([("ok.eval", REAL["tiny_qa.eval"])], [("err.eval", REAL["tiny_qa_with_error.eval"])],
                                  scorer="match")
    new = frame[frame.model.str.endswith("(new)")]
    assert sorted(new.question.unique()) == ["1", "3"] and len(new) == 4
    assert "Samples of mockllm/model (new) without a `match` score (errors, or unscored), left out: 2." in (
        frame.attrs["notes"])


@pytest.mark.parametrize("fmt, compression, finished", [("eval", "zstd", True), ("eval", "deflate", True),
                                                        ("json", None, True), ("eval", "zstd", False)])
def test_every_layout_reads_the_same_answers(fmt, compression, finished):
    # .eval with Zstandard (Inspect ≥ 0.3.206) or Deflate members, .json, and a .eval whose run is still going
    # (its summaries in _journal/summaries only)
    rng = np.random.default_rng(0)
    values_a = {(i, e): "C" if rng.random() < 0.6 else "I" for i in range(1, 41) for e in (1, 2, 3)}
    values_b = {(i, e): "C" if rng.random() < 0.7 else "I" for i in range(1, 41) for e in (1, 2, 3)}
    kw = dict(fmt=fmt, compression=compression or "zstd", finished=finished)
    frame = llm.read_inspect_logs([("a", inspect_log("openai/gpt-a", values_a, **kw))],
                                  [("b", inspect_log("openai/gpt-b", values_b, **kw))])
    rows = [f"{i},{m},{e - 1},{1 if v == 'C' else 0}" for m, values in (("openai/gpt-a", values_a),
                                                                         ("openai/gpt-b", values_b))
            for (i, e), v in values.items()]
    tidy = llm.read_benchmark_log(("question,model,sample,score\n" + "\n".join(rows)).encode())
    key = ["model", "question", "sample"]
    mine = frame.sort_values(key).reset_index(drop=True)
    theirs = tidy.assign(sample=tidy["sample"].astype(int)).sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(mine[["question", "model", "sample", "score"]],
                                  theirs[["question", "model", "sample", "score"]], check_dtype=False)
    assert frame.attrs["scorer"] == "match" and frame.attrs["models"] == ("openai/gpt-a", "openai/gpt-b")
    if not finished:
        assert any("status 'started'" in n for n in frame.attrs["notes"])
    fitted = llm.fit_benchmark(frame, seed=0)
    assert fitted.samples == 3 and fitted.n_questions == 40
    assert fitted.accuracy["openai/gpt-a"] == pytest.approx(np.mean([v == "C" for v in values_a.values()]))


def test_score_values_follow_inspects_value_to_float_and_refuse_what_it_would_count_as_zero():
    letters = {(1, 1): "C", (2, 1): "P", (3, 1): "I", (4, 1): "N", (5, 1): True, (6, 1): "yes", (7, 1): "False",
               (8, 1): "0.25", (9, 1): 0.75, (10, 1): 1, (11, 1): float("nan")}
    frame = llm.read_inspect_logs([("a", inspect_log("a", letters))], [("b", inspect_log("b", letters))])
    got = frame[frame.model == "a"].set_index("question").score
    assert got.to_dict() == {"1": 1.0, "2": 0.5, "3": 0.0, "4": 0.0, "5": 1.0, "6": 1.0, "7": 0.0, "8": 0.25,
                             "9": 0.75, "10": 1.0}  # NaN: unscored, left out
    assert "Samples of a without a `match` score (errors, or unscored), left out: 1." in frame.attrs["notes"]
    for bad, message in (("c", r"sample '1', epoch 1, score `match`: the value 'c' is not a score"),
                         (3, r"the value 3 is outside \[0, 1\]"), ([1, 0], "the value is a list"),
                         ("inf", "not a finite number")):
        log = inspect_log("a", {(1, 1): bad})
        with pytest.raises(ValueError, match=message):
            llm.read_inspect_logs([("a.eval", log)], [("b.eval", log)])


def test_dict_valued_scores_and_several_scorers_are_offered_by_name():
    both = {"__scores__": True, "match": {"value": "C"}, "f1": {"value": {"precision": 0.5, "recall": 1.0}}}
    log = inspect_log("a", {(1, 1): both, (2, 1): both})
    options = llm.inspect_options([("a", log)], [("b", inspect_log("b", {(1, 1): both, (2, 1): both}))])
    assert options.scorers == ("match", "f1/precision", "f1/recall") and options.models == ("a", "b")
    with pytest.raises(ValueError, match=r"several scores \('match', 'f1/precision', 'f1/recall'\)"):
        llm.read_inspect_logs([("a", log)], [("b", log)])
    frame = llm.read_inspect_logs([("a", log)], [("b", log)], scorer="f1/recall")
    assert frame.score.tolist() == [1.0] * 4
    with pytest.raises(ValueError, match="`scorer` 'choice' is not in every log; they share 'match'"):
        llm.read_inspect_logs([("a", log)], [("b", inspect_log("b", {(1, 1): "C"}))], scorer="choice")


def test_several_logs_of_a_model_are_further_runs_and_retried_samples_count_once():
    first = inspect_log("a", {(1, 1): "C", (2, 1): "I", (1, 2): "C", (2, 2): "C"})
    second = inspect_log("a", {(1, 1): "I", (2, 1): "I"})
    frame = llm.read_inspect_logs([("a1", first), ("a2", second)], [("b", first)])
    a = frame[frame.model == "a (baseline)"]
    assert sorted(a["sample"].unique()) == [0, 1, 2]  # the second log's epoch 1 follows the first's two epochs
    assert a[a["sample"] == 2].score.tolist() == [0.0, 0.0]
    # a sample written twice (retried) in a .eval without summaries: its last record holds
    buffer = io.BytesIO()
    from backports.zstd import zipfile as zstd_zip

    with zstd_zip.ZipFile(io.BytesIO(first)) as source, zstd_zip.ZipFile(buffer, "w") as out:
        for info in source.infolist():
            if info.filename.startswith("_journal/summaries") or info.filename == "summaries.json":
                continue
            out.writestr(info.filename, source.read(info.filename))
        sample = json.loads(source.read("samples/1_epoch_1.json"))
        sample["scores"]["match"]["value"] = "I"
        with pytest.warns(UserWarning, match="Duplicate name"):
            out.writestr("samples/1_epoch_1.json", json.dumps(sample))
    log = llm.read_inspect_log(buffer.getvalue())
    assert dict(((i, e), s) for i, e, s in log.samples)[("1", 1)] == {"match": "I"}


def test_version_1_logs_and_invalidated_samples():
    v1 = {"version": 1, "status": "success", "eval": {"model": "m", "task": "t", "config": {"epochs": 1}},
          "results": {"scores": [{"name": "accuracy_scorer", "metrics": {}}]},
          "samples": [{"id": "q1", "epoch": 1, "score": {"value": "C"}},
                      {"id": "q2", "epoch": 1, "score": {"value": "I"}}]}
    log = llm.read_inspect_log(json.dumps(v1).encode())
    assert log.scorers == ("accuracy_scorer",) and log.samples[1] == ("q2", 1, {"accuracy_scorer": "I"})
    flagged = inspect_log("m", {(1, 1): "C", (2, 1): "C"}, fmt="json")
    data = json.loads(flagged)
    data["samples"][0]["invalidation"] = {"reason": "contaminated"}
    frame = llm.read_inspect_logs([("a", json.dumps(data).encode())], [("b", flagged)])
    assert len(frame[frame.model.str.endswith("(baseline)")]) == 1
    assert "Samples of m (baseline) marked invalid in the log, left out: 1." in frame.attrs["notes"]


@pytest.mark.parametrize("data, message", [
    (b'{"version": 2, "status": "success", "samples": []}', "not an Inspect log"),
    (b'{"version": 3, "status": "success", "eval": {"model": "m"}}', "version 3"),
    (b'{"version": 2, "status": "success", "eval": {"model": "m", "task": "t"}}', "holds no samples"),
    (b"[1, 2]", "not an Inspect log"),
    (b"{not json", "not valid JSON"),
    (b"PK\x03\x04" + b"\x00" * 40, "not a readable .eval log"),
])
def test_files_that_are_not_usable_logs_get_a_message(data, message):
    with pytest.raises(ValueError, match=message):
        llm.read_inspect_log(data, name="up")


def test_a_zip_without_inspects_header_and_an_oversized_transcript_are_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("votes.csv", "a,b\n")
    with pytest.raises(ValueError, match="without Inspect's header.json"):
        llm.read_inspect_log(buffer.getvalue(), name="x.eval")
    # a run without summaries whose sample files (with their transcripts) pass the budget: refused, not read
    from core.llm import inspect_logs

    big = inspect_log("m", {(i, 1): "C" for i in range(30)}, finished=False, transcript=1_000_000, compression="zstd")
    with zipfile.ZipFile(io.BytesIO(big)) as archive:
        names = [n for n in archive.namelist() if not n.startswith("_journal/summaries")]
    assert len(big) < 2**20  # a megabyte of x's compresses to almost nothing
    from backports.zstd import zipfile as zstd_zip

    buffer = io.BytesIO()
    with zstd_zip.ZipFile(io.BytesIO(big)) as source, zstd_zip.ZipFile(buffer, "w", zstd_zip.ZIP_ZSTANDARD) as out:
        for name in names:
            out.writestr(name, source.read(name))
    with pytest.raises(ValueError, match=f"exceed {inspect_logs.MAX_JSON_BYTES / 2**20:g} MB"):
        llm.read_inspect_log(buffer.getvalue(), name="big.eval")


def test_eval_logs_pass_through_the_archive_unpacker():
    # a .eval is a zip by format: uploaders hand it to its reader whole; inside an archive it is one file
    data = REAL["tiny_qa.eval"]
    assert unpack(data, "run.eval") == (data, "run.eval")
    assert unpack_all(data, "run.eval") == [(data, "run.eval")]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("logs/a.eval", data)
        archive.writestr("logs/b.eval", REAL["tiny_qa_with_error.eval"])
    assert [n for _, n in unpack_all(buffer.getvalue(), "logs.zip")] == ["a.eval", "b.eval"]
    assert not llm.is_inspect_log("votes.csv", b"model_a,model_b,winner\n")
    assert not llm.is_inspect_log("x.json", b'{"version": 2, "other": 1}')


def test_the_same_model_in_both_logs_is_named_by_role_and_nan_never_reaches_a_score():
    frame = llm.read_inspect_logs([("a", REAL["tiny_qa.json"])], [("b", REAL["tiny_qa.eval"])], scorer="length_ratio")
    assert set(frame.model) == {"mockllm/model (baseline)", "mockllm/model (new)"}
    assert frame.score.between(0, 1).all() and not frame.score.isna().any()
    assert all(math.isfinite(v) for v in frame.score)


def _with(header_patch=None, sample_patch=None, fmt="json"):
    data = json.loads(inspect_log("m", {(1, 1): "C", (2, 1): "I"}, fmt="json"))
    data.update(header_patch or {})
    if sample_patch is not None:
        data["samples"][0].update(sample_patch)
    return json.dumps(data).encode()


@pytest.mark.parametrize("data, message", [
    (_with({"samples": "oops"}), "`samples` is not a list"),
    (_with(sample_patch={"epoch": "x"}), "sample record 1: the epoch must be a whole number"),
    (_with(sample_patch={"epoch": 0}), "the epoch must be a whole number from 1"),
    (_with(sample_patch={"epoch": 1.9}), "the epoch must be a whole number"),
    (_with(sample_patch={"epoch": True}), "the epoch must be a whole number"),
    (_with(sample_patch={"id": [1]}), "the id must be a number or a text"),
    (_with(sample_patch={"scores": {"a/b": {"value": 1}, "a": {"value": {"b": 0}}}}), "both named `a/b`"),
    (_with({"samples": [{"id": 1, "epoch": 1, "scores": {}}, {"id": "1", "epoch": 1, "scores": {}}]}),
     "ids 1 and '1', which read the same"),
    (_with({"samples": [{"epoch": 1}]}), "not a sample with an `id`"),
    (_with({"results": {"scores": 5}, "samples": [{"id": 1, "epoch": 1, "score": {"value": "C"}}]}), None),
    (_with({"results": {"scores": [{"name": ["x"]}]}, "samples": [{"id": 1, "epoch": 1, "score": {"value": 1}}]}),
     None),
])
def test_odd_shapes_inside_a_log_get_a_message_not_a_traceback(data, message):
    if message is None:  # version-1 samples whose results name no usable scorer: read under "score"
        assert llm.read_inspect_log(data).scorers == ("score",)
        return
    with pytest.raises(ValueError, match=message):
        llm.read_inspect_log(data, name="up")


def test_huge_values_and_damaged_or_odd_eval_members_get_a_message():
    log = inspect_log("a", {(1, 1): 10 ** 400})
    with pytest.raises(ValueError, match="too large to read"):
        llm.read_inspect_logs([("a", log)], [("b", log)])
    from backports.zstd import zipfile as zstd_zip

    good = inspect_log("a", {(i, 1): "C" for i in range(1, 30)}, transcript=5000)
    with zstd_zip.ZipFile(io.BytesIO(good)) as source:
        info = source.getinfo("summaries.json")
        start = info.header_offset + 30 + len(info.filename)
    broken = bytearray(good)
    broken[start + 8:start + 40] = b"\x13" * 32  # inside the Zstandard frame of summaries.json
    with pytest.raises(ValueError, match="not a readable .eval log"):
        llm.read_inspect_log(bytes(broken), name="broken.eval")
    encrypted = bytearray(good)
    for signature in (b"PK\x03\x04", b"PK\x01\x02"):  # every entry's general purpose bit 0: encrypted
        at = encrypted.find(signature)
        while at >= 0:
            encrypted[at + (6 if signature == b"PK\x03\x04" else 8)] |= 0x1
            at = encrypted.find(signature, at + 4)
    with pytest.raises(ValueError, match="encrypted|not a readable"):
        llm.read_inspect_log(bytes(encrypted), name="locked.eval")
    # journal summaries that are not lists, numbered 1 and 01
    buffer = io.BytesIO()
    with zstd_zip.ZipFile(io.BytesIO(inspect_log("a", {(1, 1): "C"}, finished=False))) as source, \
            zstd_zip.ZipFile(buffer, "w") as out:
        out.writestr("_journal/start.json", source.read("_journal/start.json"))
        out.writestr("_journal/summaries/1.json", json.dumps([{"id": 1, "epoch": 1, "scores": {}}]))
        out.writestr("_journal/summaries/01.json", "5")
    with pytest.raises(ValueError, match="is not a list of sample summaries"):
        llm.read_inspect_log(buffer.getvalue(), name="odd.eval")
    with pytest.raises(ValueError, match="not a readable .eval log|without Inspect's header"):
        llm.read_inspect_log(b"PK\x05\x06" + b"\x00" * 18, name="empty.eval")


def test_a_further_log_is_numbered_after_the_epochs_it_has_even_beyond_its_config():
    data = json.loads(inspect_log("a", {(1, 1): "C", (1, 2): "I"}, fmt="json"))
    data["eval"]["config"]["epochs"] = 1  # the config says one epoch; the samples have two
    first = json.dumps(data).encode()
    frame = llm.read_inspect_logs([("a1", first), ("a2", inspect_log("a", {(1, 1): "C"}))], [("b", first)])
    a = frame[frame.model == "a (baseline)"]
    assert sorted(a["sample"]) == [0, 1, 2] and not a.duplicated(["question", "sample"]).any()


def test_logs_of_another_model_in_a_group_are_named_in_a_note():
    a, other = inspect_log("x", {(1, 1): "C"}), inspect_log("y", {(1, 1): "I"})
    frame = llm.read_inspect_logs([("a", a), ("b", other)], [("c", other)])
    assert "The logs read as x also name y; they are read as runs of x." in frame.attrs["notes"]


def test_ended_only_waits_for_every_epoch_of_a_question_in_a_running_log():
    """``ended_only``: in a log whose run is going (status ``started``), a question is read once all its epochs have
    ended — an errored epoch has ended too; a question waiting in one log of a model waits in all of them; finished
    logs are read whole. Oracle: the values written, question by question."""
    a_values = {(i, e): "C" if (i + e) % 3 else "I" for i in range(1, 9) for e in (1, 2, 3)}
    running = {(i, e): "C" for i in range(1, 5) for e in (1, 2, 3)}  # questions 1-4 ended every epoch...
    running.update({(5, 1): "I", (5, 2): None, (5, 3): "C"})  # ... 5 too (epoch 2 errored) ...
    running.update({(6, 1): "I", (6, 3): "I", (7, 2): "C"})  # ... 6 and 7 are waiting; 8 has not started
    a = ("a.eval", inspect_log("m/a", a_values))
    b_first = ("b1.eval", inspect_log("m/b", {(i, e): "I" for i in range(1, 9) for e in (1, 2, 3)}))
    b = ("b2.eval", inspect_log("m/b", {**running, (1, 3): "C"}, finished=False))
    assert llm.read_inspect_log(b[1]).status == "started" and llm.read_inspect_log(b[1]).epochs == 3
    frame = llm.read_inspect_logs([a], [b_first, b], ended_only=True)
    a_rows, b_rows = frame[frame.model == "m/a"], frame[frame.model == "m/b"]
    # 6 and 7 wait; 8, which the running log has not begun, is read from the finished log
    assert sorted(b_rows.question.unique(), key=int) == ["1", "2", "3", "4", "5", "8"]
    assert len(b_rows) == 6 * 3 + 4 * 3 + 2  # the first log's epochs of questions 1-5 and 8, then the running log's
    assert b_rows[b_rows.question == "5"].score.tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert len(a_rows) == 8 * 3  # model A's finished log is read whole; the matching is the monitor's
    assert ("Questions of m/b whose epochs have not all ended yet, left out until they have: 2."
            in frame.attrs["notes"])
    everything = llm.read_inspect_logs([a], [b_first, b])
    assert sorted(everything[everything.model == "m/b"].question.unique(), key=int) == [str(i) for i in range(1, 9)]
    assert not any("not all ended" in note for note in everything.attrs["notes"])
    finished = llm.read_inspect_logs([a], [b_first], ended_only=True)
    assert finished.equals(llm.read_inspect_logs([a], [b_first]))


def test_logs_that_share_no_score_are_named_with_their_scores():
    """A log whose samples all errored has no score: the message names it and what the other log has."""
    ok = ("ok.eval", inspect_log("m/a", {(1, 1): "C", (2, 1): "I"}))
    broken = ("all_errored.eval", inspect_log("m/b", {(1, 1): None, (2, 1): None}))
    options = llm.inspect_options([ok], [broken])
    assert options.scorers == ()
    assert options.no_score == ("The logs share no score: `ok.eval` has 'match'; `all_errored.eval` has none "
                                "(every sample errored or is unscored).")
    with pytest.raises(ValueError, match="`all_errored.eval` has none"):
        llm.read_inspect_logs([ok], [broken])
    assert llm.inspect_options([ok], [ok]).no_score == ""

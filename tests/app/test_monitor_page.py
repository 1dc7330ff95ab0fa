"""AppTest tests of the monitoring page (pages/monitor.py)."""

from __future__ import annotations

import numpy as np
import pytest

from core import pairwise as pw
from core import sequential as sq

from .conftest import captions, chart, chart_data, decode, metrics, open_page, open_plan

PATHS = {"view": "What may happen next (animated)"}


@pytest.fixture
def page():
    at = open_page("monitor", timeout=120)
    assert not at.exception, at.exception
    return at


def core_result(upto=60, **kw):
    d = sq.sample_differences()["difference"].to_numpy()[:upto]
    args = dict(target=0.05, n_max=1000, alpha=0.05, bounds=(-1.0, 1.0), looks=3, boundary="obrien_fleming", seed=1)
    args.update(kw)
    return sq.monitor(d, **args)


def test_defaults_match_core(page):
    res = core_result()
    shown = metrics(page)
    last = res.sequence.iloc[-1]
    assert shown["Items so far"] == "60"
    # the example's items are per-question accuracies: points (×100)
    assert shown["Running difference"] == f"{100 * last['estimate']:+.2f} pts"
    assert shown["95% confidence sequence"] == f"[{100 * last['lower']:+.1f}, {100 * last['upper']:+.1f}] pts"
    assert res.verdict == "continue"
    # the verdict names the value the user set, not an unexplained "planned effect"
    verdict = " ".join(i.value for i in page.info)
    assert "smallest difference that matters (X = +5 points, set above" in verdict
    assert "planned effect" not in verdict
    assert "= 5 points (the items are accuracies or votes)" in captions(page)  # under the X input (0.050)
    assert shown["Expected further items"] == f"{int(np.ceil(res.expected_more)):,}"
    assert any(res.message in i.value for i in page.info)
    fig = chart(page, "monitor_chart")
    names = [t["name"] for t in fig["data"]]
    assert {"running estimate", "confidence sequence", "planned group boundaries", "now"} <= set(names)
    bounds = next(t for t in fig["data"] if t["name"] == "planned group boundaries")
    # the chart reads in the metrics' units: the estimate, the boundaries and X in points (× 100)
    assert decode(bounds["y"])[:3] == pytest.approx([100 * b for b in res.look_bounds])
    estimate = next(t for t in fig["data"] if t["name"] == "running estimate")
    assert decode(estimate["y"])[-1] == pytest.approx(100 * last["estimate"])
    assert fig["layout"]["yaxis"]["title"]["text"] == "Running difference (B − A, points)"
    assert any(a["text"].startswith("±5 points: smallest difference") for a in fig["layout"]["annotations"])
    assert any("betting" in c for c in captions(page))


def test_replay_to_the_end_stops_with_the_winner():
    at = open_page("monitor", {"upto": "300"})
    assert not at.exception
    res = core_result(300)
    assert res.verdict == "b_better"
    assert any("synthetic-candidate is better" in s.value for s in at.success)
    assert metrics(at)["Expected further items"] == "0"


def test_swap_and_controls_change_the_chart(page):
    before = chart_data(page, "monitor_chart")
    page.toggle(key="swap").set_value(True)
    page.run()
    assert not page.exception
    assert metrics(page)["Running difference"].startswith("-")
    assert chart_data(page, "monitor_chart") != before
    for kind, key, value in (("slider", "looks", 5), ("radio", "cs", "mixture"), ("select_slider", "alpha", 0.1)):
        before = chart_data(page, "monitor_chart")
        getattr(page, kind)(key=key).set_value(value)
        page.run()
        assert not page.exception
        assert chart_data(page, "monitor_chart") != before


def test_animated_paths_have_frames_and_play_buttons():
    at = open_page("monitor", PATHS)
    assert not at.exception
    fig = chart(at, "paths_chart")
    assert len(fig["frames"]) >= 10
    labels = [b["label"] for b in fig["layout"]["updatemenus"][0]["buttons"]]
    assert labels == ["▶ Play", "Pause"]
    assert fig["layout"]["sliders"][0]["steps"]


def test_uploaded_scores_and_votes():
    at = open_page("monitor", {"source": "per-item scores"})
    rows = "item,base,new\n" + "\n".join(f"q{i},{i % 2},{1 if i % 3 else 0}" for i in range(200))
    at.file_uploader(key="scores_file").set_value(("scores.csv", rows.encode(), "text/csv"))
    at.run()
    assert not at.exception
    assert metrics(at)["Items so far"] == "200"
    d = np.array([(1 if i % 3 else 0) - i % 2 for i in range(200)], dtype=float)
    assert metrics(at)["Running difference"] == f"{100 * d.mean():+.2f} pts"  # right/wrong scores: points
    # scores that are not right/wrong keep their own units
    at = open_page("monitor", {"source": "per-item scores"})
    rows = "item,base,new\n" + "\n".join(f"q{i},{(i % 7) / 10},{(i % 5) / 10}" for i in range(200))
    at.file_uploader(key="scores_file").set_value(("scores.csv", rows.encode(), "text/csv"))
    at.run()
    assert not at.exception
    d = np.array([(i % 5) / 10 - (i % 7) / 10 for i in range(200)])
    assert metrics(at)["Running difference"] == f"{d.mean():+.4f} score units"
    assert metrics(at)["95% confidence sequence"].endswith("] score units")
    votes = pw.SAMPLE_VOTES.read_bytes()
    at = open_page("monitor", {"source": "pairwise votes"})
    at.file_uploader(key="votes_file").set_value(("votes.csv", votes, "text/csv"))
    at.run()
    assert not at.exception
    want = sq.differences_from_votes(pw.read_votes(votes))
    assert metrics(at)["Items so far"] == f"{len(want):,}"
    assert metrics(at)["Running difference"].endswith(" pts")  # votes coded ±1: a win-rate difference in points


@pytest.mark.parametrize("finished", [True, False])
def test_inspect_logs_are_read_like_the_llm_page(finished):
    """Two Inspect AI logs, model B's from a run still going (its journal read): the questions both have answered,
    epochs averaged, in points; the code view reads the same files."""
    from core import llm
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(11)
    a_values = {(i, e): "C" if rng.random() < 0.5 else "I" for i in range(1, 81) for e in (1, 2)}
    b_values = {(i, e): "C" if rng.random() < 0.65 else "I" for i in range(1, 61 if not finished else 81)
                for e in (1, 2)}
    if not finished:  # five questions of the running log have ended one epoch of two: they wait
        b_values.update({(i, 1): "C" for i in range(61, 66)})
    a = ("a.eval", inspect_log("org/a", a_values))
    b = ("b.eval", inspect_log("org/b", b_values, finished=finished, status="started" if not finished else "success"))
    at = open_page("monitor", {"source": "Inspect AI logs"})
    assert not at.exception and at.info
    at.file_uploader(key="inspect_log_a").set_value([(*a, "application/octet-stream")])
    at.file_uploader(key="inspect_log_b").set_value([(*b, "application/octet-stream")])
    at.run()
    assert not at.exception, at.exception
    # the oracle: per question, the mean of its two epochs' C (1) / I (0), over the questions both models ended
    score = {"C": 1.0, "I": 0.0}
    ended = range(1, 61 if not finished else 81)
    diffs = [(score[b_values[i, 1]] + score[b_values[i, 2]] - score[a_values[i, 1]] - score[a_values[i, 2]]) / 2
             for i in ended]
    shown = metrics(at)
    assert shown["Items so far"] == f"{len(diffs):,}"
    assert shown["Running difference"] == f"{100 * np.mean(diffs):+.2f} pts"
    notes = [c.value.replace("\\", "") for c in at.sidebar.caption]
    assert "Questions answered by both models, in the order org/a's log lists them." in notes
    assert any("did not finish" in c for c in notes) == (not finished)
    assert any("epochs have not all ended yet, left out until they have: 5" in c for c in notes) == (not finished)
    at.session_state["monitor_code_open"] = True
    at.run()
    code = [c.value for c in at.code if c.language == "python"]
    assert code and "llm.read_inspect_logs(baseline, new, scorer='match', ended_only=True)" in code[0]
    assert "'b.eval'" in code[0]


def test_inspect_logs_that_are_not_logs_get_a_message():
    at = open_page("monitor", {"source": "Inspect AI logs"})
    at.file_uploader(key="inspect_log_a").set_value([("a.json", b'{"version": 2, "status": "success"}', "text/json")])
    at.file_uploader(key="inspect_log_b").set_value([("b.json", b"[1, 2]", "text/json")])
    at.run()
    assert not at.exception, at.exception
    assert at.error and "Cannot read the results" in at.error[0].value


def test_bad_upload_is_a_message():
    at = open_page("monitor", {"source": "per-item scores"})
    at.file_uploader(key="scores_file").set_value(("bad.csv", b"a,b\n1,x\n2,3\n", "text/csv"))
    at.run()
    assert not at.exception
    assert at.error and "not a number" in at.error[0].value


def test_url_state_download_plan_and_explainer():
    at = open_page("monitor", {"upto": "120", "target": "0.1", "n_max": "2000", "cs": "normal mixture"})
    assert not at.exception
    assert metrics(at)["Items so far"] == "120"
    res = core_result(120, target=0.1, n_max=2000, bounds=None)
    assert metrics(at)["95% confidence sequence"] == (f"[{100 * res.sequence['lower'].iloc[-1]:+.1f}, "
                                                      f"{100 * res.sequence['upper'].iloc[-1]:+.1f}] pts")
    assert at.get("download_button")
    assert any("Explain" in e.label for e in at.expander)
    open_plan(at, "monitor")
    assert not at.exception
    assert any("confidence sequence" in c.value for c in at.code)


def test_planned_items_below_the_items_seen_is_a_message():
    at = open_page("monitor", {"upto": "120", "n_max": "100"})
    assert not at.exception
    assert at.error and "Planned items" in at.error[0].value


@pytest.mark.parametrize("zipped", [False, True])
def test_harness_files_are_read_like_the_llm_page(zipped):
    """A model's runs uploaded as files or as one zip of them (core.packed.unpack_all) read the same."""
    import io
    import zipfile

    from core import llm

    at = open_page("monitor", {"source": "lm-evaluation-harness files"})
    assert not at.exception and at.info
    files = llm.sample_harness_files()
    by_model = {}
    for model, name, data in files:
        by_model.setdefault(model, []).append((name, data))
    for role, model in zip("ab", by_model):
        uploads = [(n, d, "application/jsonl") for n, d in by_model[model]]
        if zipped:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w") as archive:
                for name, data, _ in uploads:
                    archive.writestr(name, data)
            uploads = [(f"{model}.zip", buffer.getvalue(), "application/zip")]
        at.text_input(key=f"harness_name_{role}").set_value(model)
        at.file_uploader(key=f"harness_{role}").set_value(uploads)
    at.run()
    assert not at.exception, at.exception
    want = sq.differences_from_log(llm.read_harness_samples(files))
    assert metrics(at)["Items so far"] == f"{len(want):,}"  # uploads open at their last item


def test_inspect_logs_without_a_shared_score_name_the_log_that_has_none():
    from tests.inspect_files import inspect_log

    at = open_page("monitor", {"source": "Inspect AI logs"})
    at.file_uploader(key="inspect_log_a").set_value(
        [("a.eval", inspect_log("org/a", {(i, 1): "C" for i in range(1, 5)}), "application/octet-stream")])
    at.file_uploader(key="inspect_log_b").set_value(
        [("b_errored.eval", inspect_log("org/b", {(i, 1): None for i in range(1, 5)}), "application/octet-stream")])
    at.run()
    assert not at.exception, at.exception
    shown = at.error[0].value.replace("\\", "")
    assert "Cannot read the results" in shown and "`b_errored.eval` has none" in shown and "`a.eval` has 'match'" in shown

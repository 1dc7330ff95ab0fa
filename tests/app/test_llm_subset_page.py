"""AppTest tests of the LLM page's "Run a subset instead" tab; oracle: core.llm.subset."""

from __future__ import annotations

import pytest

from core import llm

from .conftest import chart, chart_data, metrics, open_page, open_plan

VIEW = {"view": "Run a subset instead"}


def test_defaults_match_core():
    at = open_page("llm", VIEW)
    assert not at.exception, at.exception
    shown = metrics(at)
    se = llm.subset_se(500, 5000, 0.7)
    assert shown["SE vs the full run"] == f"{100 * se:.2f} pts"  # an accuracy SE, in points
    agree = llm.subset_agreement(500, n_total=5000, a_only=250, b_only=400)
    assert shown["Same winner as the full run"] == f"{100 * agree:.1f}%"
    assert shown["Items for the half-width"] == f"{llm.subset_size(5000, 0.7, 0.02):,}"
    assert shown["Items for the target agreement"] == f"{llm.subset_size_for_agreement(5000, 250, 400):,}"
    fig = chart(at, "subset_agreement_chart")
    names = [t["name"] for t in fig["data"]]
    marker = fig["data"][names.index("current design")]
    assert marker["x"] == [500] and marker["y"][0] == pytest.approx(agree)
    fig = chart(at, "subset_se_chart")  # the SE in points, as the metric reads it
    names = [t["name"] for t in fig["data"]]
    assert fig["data"][names.index("current design")]["y"][0] == pytest.approx(100 * se)
    assert fig["layout"]["yaxis"]["title"]["text"] == "Standard error (points)"
    assert "Download the item list (CSV)" in [b.proto.label for b in at.get("download_button")]


def test_link_inputs_change_the_charts():
    at = open_page("llm", {**VIEW, "sub_total": "2000", "sub_m": "200", "sub_a_only": "5.0", "sub_b_only": "7.0"})
    assert not at.exception, at.exception
    assert metrics(at)["Same winner as the full run"] == \
        f"{100 * llm.subset_agreement(200, n_total=2000, a_only=100, b_only=140):.1f}%"
    before = chart_data(at, "subset_se_chart")
    at.slider(key="sub_acc").set_value(90.0)
    at.run()
    assert chart_data(at, "subset_se_chart") != before


def test_correctness_upload_and_plan():
    at = open_page("llm", {**VIEW, "sub_m": "20"})
    rows = ["model," + ",".join(f"q{i}" for i in range(60))]
    for j in range(4):
        rows.append(f"m{j}," + ",".join(str((i * (j + 3)) % 5 > 1 and 1 or 0) for i in range(60)))
    data = ("\n".join(rows) + "\n").encode()
    at.file_uploader(key="sub_file").set_value([("correct.csv", data, "text/csv")])
    at.run()
    assert not at.exception, at.exception
    res = llm.prediction_assisted_se(llm.read_correctness(data, name="correct.csv"), 20)
    assert any(f"**{100 * res.variance_ratio:.1f}%**" in m.value for m in at.markdown)
    # the uploader forgets its file while another tab is open: the page keeps the file read last
    at.file_uploader(key="sub_file").set_value(None)
    at.run()
    assert not at.exception, at.exception
    assert any(f"**{100 * res.variance_ratio:.1f}%**" in m.value for m in at.markdown)
    assert any("uploaded earlier in this session" in c.value for c in at.caption)
    bad = open_page("llm", VIEW)
    bad.file_uploader(key="sub_file").set_value([("bad.csv", b"model,q1,q2\nA,1,0\nB,x,1\n", "text/csv")])
    bad.run()
    assert not bad.exception
    assert any("line 3" in e.value for e in bad.error)
    at = open_plan(at, "llm_subset")
    assert any("seeded random subset" in c.value for c in at.code)


def test_one_inspect_log_per_model_gives_the_cores_matrix():
    """Three models' Inspect AI logs (two epochs each): the tab's difference-estimator figure is core.llm's, read
    from the same files; the score selector lists the scores every log has; the upload is kept across reruns."""
    import numpy as np

    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(5)
    files = []
    for k, p in enumerate((0.4, 0.6, 0.75)):
        values = {(i, e): "C" if rng.random() < p else "I" for i in range(1, 51) for e in (1, 2)}
        files.append((f"run{k}.eval", inspect_log(f"org/model-{k}", values)))
    at = open_page("llm", {**VIEW, "sub_m": "20"})
    at.radio(key="sub_source").set_value("runs")
    at.run()
    at.file_uploader(key="sub_runs").set_value([(n, d, "application/octet-stream") for n, d in files])
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="sub_runs_metric").options == ["match"]
    res = llm.prediction_assisted_se(llm.read_correctness_files(files), 20)
    assert res.n_models == 3 and res.n_items == 50
    assert any(f"**{100 * res.variance_ratio:.1f}%**" in m.value and "3 Inspect AI logs" in m.value
               for m in at.markdown)
    at.file_uploader(key="sub_runs").set_value(None)
    at.run()
    assert any(f"**{100 * res.variance_ratio:.1f}%**" in m.value for m in at.markdown)
    # files of two frameworks are a message, not a traceback
    at.file_uploader(key="sub_runs").set_value([(*files[0], "application/octet-stream"),
                                                ("samples_x.jsonl", b'{"doc_id": 0, "acc": 1}', "text/plain")])
    at.run()
    assert not at.exception
    assert any("different frameworks" in e.value for e in at.error)


def test_junk_links_and_extremes_never_crash():
    from .test_fuzz_pages import assert_clean

    at = open_page("llm", {**VIEW, "sub_total": "1e308", "sub_m": "-1", "sub_acc": "nan", "sub_a_only": "inf",
                           "sub_b_only": "abc", "sub_hw": "0", "sub_target": "200", "sub_seed": "1e309",
                           "sub_beta_a": "-1", "sub_beta_b": "inf"})
    assert_clean(at, "junk subset link")
    at = open_page("llm", VIEW)
    for total, m, a, b in ((10, 10, 0.0, 50.0), (1_000_000, 1, 50.0, 49.5), (1_000_000, 1_000_000, 0.5, 0.0),
                           (10, 1, 5.0, 5.0), (20, 5, 50.0, 50.0)):
        at.number_input(key="sub_total").set_value(total)
        at.number_input(key="sub_m").set_value(min(m, total))
        at.slider(key="sub_a_only").set_value(a)
        at.slider(key="sub_b_only").set_value(b)
        at.run(timeout=120)
        assert_clean(at, f"N={total}, m={m}, a={a}, b={b}")


def test_lighteval_runs_zipped_with_their_results_files_give_the_cores_matrix():
    """Three models' lighteval output folders zipped together (details_<task>_<date>.parquet beside each run's
    results_<date>.json, which names the model): the tab's figure is core.llm's, read from the same files; the
    models are named by the results files."""
    import io
    import json
    import zipfile

    import numpy as np

    from tests.lighteval_files import details_name, lighteval_details

    rng = np.random.default_rng(8)
    files, buffer = [], io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for k, p in enumerate((0.4, 0.6, 0.75)):
            model, date = f"org/model-{k}", f"2025-11-0{k + 1}T10-00-00.000001"
            details = lighteval_details(list((rng.random(40) < p).astype(float)), task="lighteval|gsm8k|5")
            results = json.dumps({"config_general": {"model_name": model}, "results": {}}).encode()
            archive.writestr(f"out/details/{model}/{date}/{details_name('lighteval|gsm8k|5', date)}", details)
            archive.writestr(f"out/results/{model}/results_{date}.json", results)
            files += [(details_name("lighteval|gsm8k|5", date), details), (f"results_{date}.json", results)]
    at = open_page("llm", {**VIEW, "sub_m": "15"})
    at.radio(key="sub_source").set_value("runs")
    at.run()
    at.file_uploader(key="sub_runs").set_value([("outputs.zip", buffer.getvalue(), "application/zip")])
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    matrix = llm.read_correctness_files(files)
    assert list(matrix.index) == ["org/model-0", "org/model-1", "org/model-2"]
    res = llm.prediction_assisted_se(matrix, 15)
    assert res.n_models == 3 and res.n_items == 40
    assert any(f"**{100 * res.variance_ratio:.1f}%**" in m.value and "3 lighteval details" in m.value
               for m in at.markdown)

"""AppTest tests of the LLM benchmark page (pages/llm.py); oracle: core.llm called directly."""

from __future__ import annotations

import pytest

from core import llm

from .conftest import captions, chart, chart_data, decode, metrics, open_page, open_pins, open_plan

DEFAULT = dict(accuracy_a=0.70, accuracy_b=0.73, difficulty_sd=0.25, correlation=0.6, samples=1, cluster_size=1,
               icc=0.0, judge_sensitivity=1.0, judge_specificity=1.0, alpha=0.05)


@pytest.fixture
def page():
    at = open_page("llm")
    assert not at.exception, at.exception
    return at


def test_defaults_match_core(page):
    shown = metrics(page)
    res = llm.benchmark_power(1000, **DEFAULT)
    assert shown["Power"] == f"{100 * res.power:.1f}%"
    assert shown["Type-M (exaggeration)"] == f"{res.type_m:.2f}×"
    assert shown["MDE at 80% power"] == \
        f"{100 * llm.benchmark_mde(1000, **{k: v for k, v in DEFAULT.items() if k != 'accuracy_b'}):.2f} pts"
    assert shown["Questions for 80% power"] == f"{llm.benchmark_sample_size(**DEFAULT):,}"
    plan = llm.benchmark_plan(**{k: v for k, v in DEFAULT.items() if k != "samples"}, cost_question=0.5,
                              cost_sample=0.01)
    # an aside under the row (five headline metrics at most): a caption, not a metric
    assert "Cheapest n × K" not in shown and len(shown) <= 5
    assert any(f"Cheapest design for 80% power: {plan.n_questions:,} questions × {plan.samples} answers each" in c
               for c in captions(page))


def test_power_chart_has_line_marker_and_one_curve_per_k(page):
    fig = chart(page, "power_chart")
    names = [t["name"] for t in fig["data"]]
    assert {"K = 1 (current)", "K = 2", "K = 5", "K = 10", "current design"} <= set(names)
    marker = fig["data"][names.index("current design")]
    assert marker["x"] == [1000] and marker["y"][0] == pytest.approx(llm.benchmark_power(1000, **DEFAULT).power)
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    assert all("hovertemplate" in t for t in fig["data"])


@pytest.mark.parametrize(
    "kind, key, value",
    [("select_slider", "n", 2000), ("slider", "acc_a", 60.0), ("slider", "gain", 5.0), ("slider", "sd", 0.1),
     ("slider", "rho", 0.2), ("select_slider", "k", 5), ("select_slider", "m", 10), ("select_slider", "alpha", 0.01)],
)
def test_each_control_changes_the_chart(page, kind, key, value):
    before = chart_data(page, "power_chart")
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert chart_data(page, "power_chart") != before


def test_clusters_and_judge_change_the_numbers(page):
    page.select_slider(key="m").set_value(10)
    page.toggle(key="judge").set_value(True)
    page.run()
    page.slider(key="icc").set_value(0.3)
    page.slider(key="se").set_value(85.0)
    page.run()
    assert not page.exception
    res = llm.benchmark_power(1000, **{**DEFAULT, "cluster_size": 10, "icc": 0.3, "judge_sensitivity": 0.85,
                                       "judge_specificity": 0.9})
    assert metrics(page)["Power"] == f"{100 * res.power:.1f}%"


def test_impossible_designs_are_explained(page):
    page.slider(key="acc_a").set_value(95.0)
    page.slider(key="sd").set_value(0.5)  # σ² = 0.25 > μ(1 − μ) = 0.0475
    page.run()
    assert not page.exception
    assert any("difficulty\\_sd" in e.value or "difficulty_sd" in e.value for e in page.error)
    page.slider(key="acc_a").set_value(99.0)
    page.slider(key="sd").set_value(0.05)
    page.run()
    assert any("Lower the gain" in e.value for e in page.error)


def test_variance_budget_view():
    page = open_page("llm", {"view": "Variance budget", "k": "5"})
    assert not page.exception
    fig = chart(page, "budget_chart")
    parts = llm.variance_budget(0.7, 0.73, difficulty_sd=0.25, correlation=0.6, max_samples=20)
    noise = parts[parts["component"] == "sampling noise"].sort_values("samples")["variance"].to_numpy()
    trace = [t for t in fig["data"] if t["name"] == "sampling noise"][0]
    assert decode(trace["y"]) == pytest.approx(noise.tolist())
    assert "current design" in [t["name"] for t in fig["data"]]
    assert fig["layout"]["barmode"] == "stack"


def test_cost_and_judge_views():
    page = open_page("llm", {"view": "Cost vs samples"})
    assert not page.exception
    fig = chart(page, "cost_chart")
    assert any("cheapest: K = " in a["text"] for a in fig["layout"]["annotations"])
    page = open_page("llm", {"view": "Judge error"})
    names = [t["name"] for t in chart(page, "judge_chart")["data"]]
    assert "exact grading" in names and any(n.startswith("judge (") for n in names)


def test_sample_log_fit_fills_the_sliders():
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("sample")
    page.run()
    assert not page.exception
    fitted = llm.fit_benchmark(llm.sample_log(), seed=0)
    table = [d.value for d in page.dataframe if "parameter" in d.value.columns][0]
    row = table.set_index("parameter").loc["correlation ρ"]
    assert row["estimate"] == pytest.approx(fitted.correlation)
    assert row["standard error"] == pytest.approx(fitted.se["correlation"])
    page.button(key="use_fit").click()
    page.run()
    assert page.select_slider(key="k").value == 5 and page.select_slider(key="m").value == 5
    assert page.slider(key="sd").value == pytest.approx(round(fitted.difficulty_sd, 2))


def test_harness_files_upload():
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("harness")
    page.run()
    files = llm.sample_harness_files()
    page.file_uploader(key="files_a").set_value([(name, data, "application/jsonl") for model, name, data in files
                                                 if model == "synthetic-baseline"])
    page.file_uploader(key="files_b").set_value([(name, data, "application/jsonl") for model, name, data in files
                                                 if model == "synthetic-candidate"])
    page.run()
    assert not page.exception
    assert any("parameter" in d.value.columns for d in page.dataframe)


def _fitted_harness_table(packed: str | None):
    """The fitted table from the synthetic harness files uploaded plain, gzipped (``"gz"``), or as one zip archive
    of each model's runs in folders (``"zip"``, as a zipped output directory)."""
    import gzip
    import io
    import zipfile

    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("harness")
    page.run()
    for key, model in (("files_a", "synthetic-baseline"), ("files_b", "synthetic-candidate")):
        files = [(n, d) for m, n, d in llm.sample_harness_files() if m == model]
        if packed == "zip":
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                for name, data in files:
                    archive.writestr(f"output/{model}/{name}", data)
            files = [(f"{model}.zip", buffer.getvalue())]
        elif packed == "gz":
            files = [(f"{name}.gz", gzip.compress(data)) for name, data in files]
        page.file_uploader(key=key).set_value([(n, d, "application/octet-stream") for n, d in files])
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    return next(d.value for d in page.dataframe if "parameter" in d.value.columns)


@pytest.mark.parametrize("packed", ["gz", "zip"])
def test_harness_files_compressed_fit_as_the_plain_files(packed):
    """``samples_*.jsonl.gz`` (how large harness logs are shared), and a zipped folder of a model's runs, give the
    same fitted table as the plain files."""
    import pandas as pd

    pd.testing.assert_frame_equal(_fitted_harness_table(packed), _fitted_harness_table(None))


def test_inspect_logs_fit_as_the_core_reads_them():
    """Two Inspect AI logs (.eval, Zstandard members as Inspect writes them): the fitted table is
    core.llm.fit_benchmark of core.llm.read_inspect_logs; the score selector switches the scorer; errored samples
    are named in a caption."""
    import numpy as np

    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(1)
    logs = []
    for model, p in (("openai/gpt-a", 0.6), ("openai/gpt-b", 0.72)):
        values = {(i, e): {"__scores__": True, "match": {"value": "C" if rng.random() < p else "I"},
                           "judge": {"value": float(rng.integers(0, 5)) / 4}}
                  for i in range(1, 61) for e in (1, 2)}
        values[(7, 2)] = None  # an errored sample
        logs.append((f"{model.split('/')[1]}.eval", inspect_log(model, values)))
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("inspect")
    page.run()
    page.file_uploader(key="inspect_a").set_value([(logs[0][0], logs[0][1], "application/octet-stream")])
    page.file_uploader(key="inspect_b").set_value([(logs[1][0], logs[1][1], "application/octet-stream")])
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    assert page.selectbox(key="inspect_scorer").options == ["match", "judge"]
    for scorer in ("match", "judge"):
        page.selectbox(key="inspect_scorer").set_value(scorer)
        page.run()
        assert not page.exception and not page.error
        fitted = llm.fit_benchmark(llm.read_inspect_logs([logs[0]], [logs[1]], scorer=scorer), seed=0)
        table = next(d.value for d in page.dataframe if "parameter" in d.value.columns)
        shown = dict(zip(table["parameter"], table["estimate"]))
        assert shown["accuracy of A"] == pytest.approx(fitted.accuracy["openai/gpt-a"])
        assert shown["gain B − A"] == pytest.approx(fitted.delta)
        assert any("K = 2" in m.value and "**60** questions" in m.value for m in page.markdown)
        notes = [c.value for c in page.caption]
        assert any("Samples of openai/gpt-a without a" in c and "left out: 1." in c for c in notes), notes


def test_an_inspect_upload_that_is_not_a_log_gets_a_message():
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("inspect")
    page.run()
    for key in ("inspect_a", "inspect_b"):
        page.file_uploader(key=key).set_value([("x.json", b'{"version": 2, "status": "success"}', "text/json")])
    page.run()
    assert not page.exception
    assert any("not an Inspect log" in e.value for e in page.error), [e.value for e in page.error]


def test_helm_runs_fit_as_the_core_reads_them():
    """Two HELM runs' per_instance_stats.json (three train trials, perturbed copies beside the originals): the
    fitted table is core.llm.fit_benchmark of core.llm.read_helm_runs with the trials as K; the metric selector
    offers the scores, not HELM's bookkeeping; same names for both models are refused."""
    import numpy as np

    from tests.helm_files import helm_stats

    rng = np.random.default_rng(2)
    files = []
    for model, p in (("gpt-a", 0.55), ("gpt-b", 0.7)):
        values = {(f"id{100 + i}", t): float(rng.random() < p) for t in range(3) for i in range(50)}
        files.append((model, f"{model}_per_instance_stats.json", helm_stats(values, perturbed=10)))
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("helm")
    page.run()
    for role, (model, name, data) in zip("ab", files):
        page.text_input(key=f"helm_name_{role}").set_value(model)
        page.file_uploader(key=f"helm_files_{role}").set_value([(name, data, "application/json")])
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    assert page.selectbox(key="helm_metric").options == ["exact_match", "quasi_exact_match"]
    fitted = llm.fit_benchmark(llm.read_helm_runs(files, metric="exact_match"), seed=0)
    table = next(d.value for d in page.dataframe if "parameter" in d.value.columns)
    shown = dict(zip(table["parameter"], table["estimate"]))
    assert shown["accuracy of A"] == pytest.approx(fitted.accuracy["gpt-a"], rel=1e-12)
    assert shown["gain B − A"] == pytest.approx(fitted.delta, rel=1e-12)
    assert any("K = 3" in m.value and "**50** questions" in m.value for m in page.markdown)
    notes = [c.value for c in page.caption]
    assert any("Perturbed copies" in c and "left out: 10." in c for c in notes), notes
    page.text_input(key="helm_name_b").set_value("gpt-a")
    page.run()
    assert not page.exception
    assert any("need different names" in e.value for e in page.error)


def test_zipped_helm_run_folders_name_their_models():
    """Each model's HELM run folder uploaded zipped (run_spec.json, per_instance_stats.json, stats.json): the models
    are named by their run_spec.json, the other files are left out with a caption, and the fit is that of the
    per_instance_stats.json files alone."""
    import numpy as np

    from tests.helm_files import helm_stats, run_folder, run_spec

    rng = np.random.default_rng(4)
    values = [{(f"id{i}", 0): float(rng.random() < p) for i in range(40)} for p in (0.5, 0.7)]
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("helm")
    page.run()
    for role, model, v in zip("ab", ("openai/gpt-a", "openai/gpt-b"), values):
        folder = [(f"{role}.zip", run_folder(model, v), "application/zip")]
        page.file_uploader(key=f"helm_files_{role}").set_value(folder)
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    page.selectbox(key="helm_metric").set_value("exact_match")
    page.run()
    files = [(m, "per_instance_stats.json", helm_stats(v)) for m, v in zip(("openai/gpt-a", "openai/gpt-b"), values)]
    fitted = llm.fit_benchmark(llm.read_helm_runs(files, metric="exact_match"), seed=0)
    table = next(d.value for d in page.dataframe if "parameter" in d.value.columns)
    shown = dict(zip(table["parameter"], table["estimate"]))
    assert shown["accuracy of A"] == pytest.approx(fitted.accuracy["openai/gpt-a"], rel=1e-12)
    notes = [c.value for c in page.caption]
    assert any("Model from run_spec.json" in c and "openai/gpt-b" in c for c in notes), notes
    assert any("left out" in c and "stats.json" in c for c in notes), notes
    # a zip without per-instance statistics is a message
    page.file_uploader(key="helm_files_b").set_value([("x.json", b'{"adapter_spec": {"model": "m"}}', "text/json")])
    page.run()
    assert not page.exception
    assert any("hold no HELM per\\_instance\\_stats.json" in e.value for e in page.error), [e.value for e in page.error]
    # a zipped suite (runs of two models in one upload) is refused, not read as one model's runs
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as suite:
        for model, v in zip(("openai/gpt-a", "openai/gpt-b"), values):
            folder = f"runs/v1/mmlu:subject=anatomy,model={model.replace('/', '_')}"
            suite.writestr(f"{folder}/run_spec.json", run_spec(model))
            suite.writestr(f"{folder}/per_instance_stats.json", helm_stats(v))
    page.file_uploader(key="helm_files_b").set_value([("suite.zip", buffer.getvalue(), "application/zip")])
    page.run()
    assert not page.exception
    assert any("runs of several models" in e.value for e in page.error), [e.value for e in page.error]


def test_malformed_log_gets_a_message():
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.file_uploader(key="log_file").set_value(("log.csv", b"question,model,score\n1,a,0.5\n1,b,high\n", "text/csv"))
    page.run()
    assert not page.exception
    assert page.error and any("line" in e.value.lower() or "row" in e.value.lower() for e in page.error)


def test_simulation_on_demand(page):
    page.toggle(key="simulate").set_value(True)
    page.run()
    page.select_slider(key="sims").set_value(500)
    page.run()
    assert not page.exception
    mc = llm.benchmark_power(1000, **DEFAULT, method="simulate", n_sims=500, seed=2020)
    assert metrics(page)["Simulated power"] == f"{100 * mc.power:.1f}%"
    assert f"± {100 * mc.mc_se:.1f}% (Monte Carlo standard error)" in captions(page)


def test_url_restores_view_and_downloads():
    page = open_page("llm", {"n": "5000", "gain": "2.0", "k": "5"})
    assert not page.exception
    res = llm.benchmark_power(5000, **{**DEFAULT, "accuracy_b": 0.72, "samples": 5})
    assert metrics(page)["Power"] == f"{100 * res.power:.1f}%"
    assert "Download the plotted data (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_linked_question_count_off_the_slider_steps():
    page = open_page("llm", {"n": "1234"})
    assert not page.exception
    assert page.select_slider(key="n").value == 1234


def test_assurance_and_plan():
    page = open_page("llm", {"assure": "true", "prior_mean": "3.0", "prior_sd": "2.0", "view": "Assurance vs questions"})
    assert not page.exception
    kw = {k: v for k, v in DEFAULT.items() if k != "accuracy_b"}
    res = llm.benchmark_assurance(1000, delta_mean=0.03, delta_sd=0.02, **kw)
    assert metrics(page)["Assurance"] == f"{100 * res.assurance:.1f}%"
    assert chart(page, "assurance_chart")["data"]
    open_plan(page, "llm")
    text = [c.value for c in page.code if "Miller, 2024" in c.value][0]
    assert text.startswith("With 1,000 questions, 1 sampled answer per question and model")
    assert f"assurance is {100 * res.assurance:.0f}%" in text


def test_pins_on_the_power_chart(page):
    open_pins(page, "llm")
    page.button(key="llm_pin_add").click()
    page.run()
    page.select_slider(key="k").set_value(5)
    page.run()
    assert not page.exception
    names = [t["name"] for t in chart(page, "power_chart")["data"]]
    assert any(n.startswith("pinned: n = 1,000, K = 1") for n in names)
    table = [d.value for d in page.dataframe if "pin" in d.value.columns][0]
    assert table["power"].iloc[1] == pytest.approx(llm.benchmark_power(1000, **DEFAULT).power)


def test_a_simulation_too_large_is_refused_and_the_page_goes_on():
    # 2,000 replicates × 100,000 questions is refused with what to reduce; the plan below still renders
    page = open_page("llm", {"n": "100000", "simulate": "true"})
    assert not page.exception
    assert any("reduce `n_sims` to at most 100" in e.value for e in page.error)
    assert not any(m.label == "Simulated power" for m in page.metric)
    assert any(e.label.startswith("Plan this design") for e in page.expander)


def test_run_it_sequentially_section_matches_core():
    from core import sequential as sq

    at = open_page("llm")
    assert "seq_power_chart" not in str([c.proto.id for c in at.get("plotly_chart")])  # computed only when open
    at.session_state["seq_open"] = True
    at.run()
    assert not at.exception
    from core.llm.sequential import benchmark_item_model

    item = benchmark_item_model(accuracy_a=0.70, accuracy_b=0.73, difficulty_sd=0.25, correlation=0.6)
    table = sq.compare_designs(1000, item.delta, item.sd, looks=3, boundary="obrien_fleming", n_sims=2000,
                               seed=0).set_index("design")
    shown = metrics(at)
    assert shown["Expected questions, group"] == f"{table.loc['group', 'expected_n']:,.0f} of 1,000"
    assert shown["Type-M at stopping, group"] == f"{table.loc['group', 'type_m']:.2f}×"
    assert shown["Power fixed / group / anytime"].startswith(f"{100 * table.loc['fixed', 'power']:.0f}%")
    assert any("independent questions" in c for c in captions(at))
    fig = chart(at, "seq_type_m_chart")
    assert fig["layout"]["yaxis"]["type"] == "log"
    at.slider(key="seq_looks").set_value(5)
    at.run()
    assert not at.exception and metrics(at)["Expected questions, group"] != shown["Expected questions, group"]


def test_one_answer_per_question_sets_sigma_and_rho_consistently():
    # K = 1: σ and ρ are not identified apart, only ρσ²; the button sets a pair with that product and says so
    import numpy as np

    rng = np.random.default_rng(21)
    n = 600
    p = np.clip(rng.normal(0.7, 0.3, n), 0, 1)
    a = (rng.random(n) < p).astype(int)
    b = (rng.random(n) < np.clip(p + 0.05, 0, 1)).astype(int)
    rows = "".join(f"q{i},base,{x}\nq{i},new,{y}\n" for i, (x, y) in enumerate(zip(a, b)))
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.file_uploader(key="log_file").set_value(("log.csv", f"question,model,score\n{rows}".encode(), "text/csv"))
    page.run()
    assert not page.exception and not page.error
    fitted = llm.fit_benchmark(llm.read_benchmark_log(f"question,model,score\n{rows}".encode()), seed=0)
    assert fitted.difficulty_sd is None
    assert any("only the covariance" in c.value for c in page.caption)
    page.button(key="use_fit").click()
    page.run()
    assert not page.exception
    sd, rho = page.slider(key="sd").value, page.slider(key="rho").value
    assert (sd, rho) == llm.difficulty_from_covariance(fitted.covariance, fitted.accuracy["base"],
                                                       fitted.accuracy["new"], prefer_sd=0.25)
    assert abs(rho * sd**2 - fitted.covariance) <= 0.0025


def test_log_with_other_column_names_gets_a_mapping_step():
    rows = "".join(f"p{i},{m},{(i * 7 + len(m)) % 3 == 0}\n" for i in range(40) for m in ("A", "B"))
    data = f"prompt_id,system_name,judge_says\n{rows}".encode()
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.file_uploader(key="log_file").set_value(("log.csv", data, "text/csv"))
    page.run()
    assert not page.exception and any("not named question, model and score" in i.value for i in page.info)
    page.selectbox(key="log_col_question").set_value("prompt_id")
    page.selectbox(key="log_col_model").set_value("system_name")
    page.selectbox(key="log_col_score").set_value("judge_says")
    page.run()
    assert not page.exception and not page.error
    assert any("**40** questions" in m.value for m in page.markdown)


def test_few_independent_units_are_flagged():
    """Five single questions: the closed form's normal theory is rough there (an independent review found a 1%
    false-positive rate by simulation); the page says so and points to the simulation. The defaults do not."""
    from .conftest import open_page as _open

    at = _open("llm", {"n": "15", "m": "1"})
    assert not at.exception and any("Few independent units" in i.value for i in at.info)
    assert not any("Few independent units" in i.value for i in _open("llm").info)


def test_cheapest_design_says_when_it_rests_on_the_example_costs(page):
    # the example unit costs were never entered by the user: the metric says so until costs are set
    assert any("at the example unit costs" in c for c in captions(page))
    page.number_input(key="cost_q").set_value(1.0)
    page.run()
    assert not page.exception
    plan = llm.benchmark_plan(**{k: v for k, v in DEFAULT.items() if k != "samples"}, cost_question=1.0,
                              cost_sample=0.01)
    assert any(f"Cheapest design for 80% power: {plan.n_questions:,} questions × {plan.samples} answers each" in c
               for c in captions(page))
    assert not any("at the example unit costs" in c for c in captions(page))


def test_every_design_field_is_a_widget_of_the_page_under_its_url_key():
    """The page builds its widgets from llm.BenchmarkDesign's fields: each URL key is a widget key (se and sp show
    with the judge), and a link is read as BenchmarkDesign.from_params reads it."""
    query = {"n": "3000", "acc_a": "62.5", "gain": "4.5", "sd": "0.2", "rho": "0.4", "k": "4", "m": "5",
             "icc": "0.1", "judge": "true", "se": "88.0", "sp": "93.5", "alpha": "0.01", "cost_q": "1.5",
             "cost_s": "0.02"}
    at = open_page("llm", query)
    assert not at.exception
    keys = {w.key for kind in ("slider", "select_slider", "toggle", "number_input") for w in at.get(kind)}
    assert {f.key for f in llm.BenchmarkDesign.fields()} <= keys
    design = llm.BenchmarkDesign.from_params(query)
    assert design.judged and design.judge_specificity == 0.935 and design.n == 3000
    assert metrics(at)["Power"] == f"{100 * design.power().power:.1f}%"
    res = llm.benchmark_power(3000, 0.625, 0.67, difficulty_sd=0.2, correlation=0.4, samples=4, cluster_size=5,
                              icc=0.1, judge_sensitivity=0.88, judge_specificity=0.935, alpha=0.01)
    assert metrics(at)["Power"] == f"{100 * res.power:.1f}%"


def test_the_prior_starts_at_the_linked_gain():
    """The sidebar draws before the key inputs (a fragment): the prior's starting mean is the link's gain."""
    at = open_page("llm", {"gain": "5.0", "assure": "true"})
    assert not at.exception
    assert at.slider(key="prior_mean").value == 5.0
    kw = {k: v for k, v in DEFAULT.items() if k != "accuracy_b"}
    res = llm.benchmark_assurance(1000, delta_mean=0.05, delta_sd=0.02, **kw)
    assert metrics(at)["Assurance"] == f"{100 * res.assurance:.1f}%"


def test_lighteval_details_fit_as_the_core_reads_them():
    """lighteval details of two models, two tasks each, uploaded as their zipped output folders: the models are
    named by the results files, the tasks are clusters, and the fitted table is core.llm.fit_benchmark of
    core.llm.read_lighteval_runs; the metric selector offers only metrics in [0, 1]; a file that is not details is
    left out with a caption."""
    import io
    import zipfile

    import numpy as np

    from tests.lighteval_files import details_name, lighteval_details

    rng = np.random.default_rng(6)
    tasks = ("leaderboard|arc:challenge|25", "leaderboard|hellaswag|10")
    files, uploads = [], []
    for role, model, p in (("a", "org/model-a", 0.5), ("b", "org/model-b", 0.7)):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as folder:
            for task in tasks:
                data = lighteval_details(list((rng.random(30) < p).astype(float)), task=task,
                                         extra={"loglikelihood": [-2.0] * 30, "acc_norm": [1.0] * 30})
                path = f"details/{model}/2025-11-05T14-43-47.148527/{details_name(task)}"
                folder.writestr(path, data)
                files.append((model, path, data))
            folder.writestr(f"results/{model}/results_2025-11-05T14-43-47.148527.json",
                            '{"config_general": {"model_name": "%s"}, "results": {}}' % model)
            folder.writestr("README.md", "notes")
        uploads.append((role, [(f"{role}.zip", buffer.getvalue(), "application/zip")]))
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("lighteval")
    page.run()
    for role, upload in uploads:
        page.file_uploader(key=f"lighteval_files_{role}").set_value(upload)
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    assert page.selectbox(key="lighteval_metric").options == ["acc", "acc_norm"]
    fitted = llm.fit_benchmark(llm.read_lighteval_runs(files, metric="acc"), seed=0)
    assert fitted.models == ("org/model-a", "org/model-b")
    table = next(d.value for d in page.dataframe if "parameter" in d.value.columns)
    shown = dict(zip(table["parameter"], table["estimate"]))
    assert shown["accuracy of A"] == pytest.approx(fitted.accuracy["org/model-a"], rel=1e-12)
    assert shown["gain B − A"] == pytest.approx(fitted.delta, rel=1e-12)
    assert any("**60** questions" in m.value for m in page.markdown)
    notes = [c.value.replace("\\", "") for c in page.caption]
    assert any("Model from the results file" in c and "org/model-a" in c for c in notes), notes
    assert any("Not lighteval details, left out" in c and "README.md" in c for c in notes), notes
    page.file_uploader(key="lighteval_files_b").set_value([("x.parquet", b"PAR1 not really PAR1",
                                                            "application/octet-stream")])
    page.run()
    assert not page.exception
    assert any("hold no lighteval details" in e.value for e in page.error)


def test_the_same_details_file_for_both_models_is_pointed_out():
    """The same lighteval details file given for the baseline and the new model: a gain of exactly 0 with a standard
    error of 0, which the page shows with a note saying to check the uploads."""
    import numpy as np

    from tests.lighteval_files import details_name, lighteval_details

    values = (np.random.default_rng(2).random(40) < 0.6).astype(float)
    data = lighteval_details(list(values), task="leaderboard|arc:challenge|25")
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("lighteval")
    page.run()
    for role in "ab":
        page.file_uploader(key=f"lighteval_files_{role}").set_value(
            [(details_name("leaderboard|arc:challenge|25"), data, "application/octet-stream")])
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    table = next(d.value for d in page.dataframe if "parameter" in d.value.columns)
    assert dict(zip(table["parameter"], table["estimate"]))["gain B − A"] == 0.0
    notes = [c.value.replace("\\", "") for c in page.caption]
    assert any("the same on every one of the 40 questions" in c for c in notes), notes


def test_helm_runs_of_different_scenarios_are_refused():
    """HELM numbers instances id0, id1, … in every scenario: two models' run folders of different MMLU subjects
    would pair unrelated questions, so the page refuses them, naming the scenarios."""
    from tests.helm_files import run_folder

    values = {(f"id{i}", 0): float(i % 2) for i in range(20)}
    page = open_page("llm", {"view": "Estimate from your logs"})
    page.radio(key="log_source").set_value("helm")
    page.run()
    for role, model, subject in (("a", "openai/gpt-a", "anatomy"), ("b", "openai/gpt-b", "astronomy")):
        page.file_uploader(key=f"helm_files_{role}").set_value(
            [(f"{role}.zip", run_folder(model, values, scenario=f"mmlu:subject={subject}"), "application/zip")])
    page.run()
    assert not page.exception
    shown = [e.value.replace("\\", "") for e in page.error]
    assert any("different scenarios" in e and "subject=anatomy" in e and "subject=astronomy" in e for e in shown), shown

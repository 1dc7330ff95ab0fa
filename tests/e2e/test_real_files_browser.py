"""Files of published shapes uploaded in a real browser, one per uploader: Analyze (WMT DA ad-seg-scores, a long
space-aligned table), Ratings (Appraise-style column names), DA (a WMT system ranking, refused with what it needs),
LLM (lm-evaluation-harness samples as a pretty-printed JSON array, Inspect AI .eval logs) and Leaderboard (AlpacaEval annotations.json,
arena votes as Hugging Face's Parquet).
The files are small synthetic ones of the same shapes (tests/data/README.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.e2e
DATA = Path(__file__).resolve().parents[1] / "data"
DROPZONE = '[data-testid="stFileUploaderDropzoneInput"]'


def _open(page, url):
    page.goto(url, wait_until="domcontentloaded")
    wait_idle(page, timeout=60_000)


def _dropzones(page, label: str):
    """The dropzones of the uploaders labelled ``label``, once they are drawn: a click on a source's radio may not
    have started its rerun when the page reads idle, and a file set then lands in the old source's uploader."""
    uploaders = page.locator('[data-testid="stFileUploader"]').filter(has_text=label)
    uploaders.first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    return uploaders.locator(DROPZONE)


def _done(page, name):
    assert not page.errors, page.errors
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"real-files-{name}.png"), full_page=True)


def test_analyze_wmt_da_seg_scores(page, server_url, tmp_path):
    lines = ["SYS SID RAW.SCR Z.SCR N "]
    for s, system in enumerate(("newstest2019.online-B.0.de-en", "newstest2019.Facebook_FAIR.6750.de-en")):
        lines += [f"{system} {i} {40 + (7 * i + 3 * s) % 50} {((7 * i + 3 * s) % 50 - 25) / 25:.3f} 1 "
                  for i in range(1, 31)]
    path = tmp_path / "ad-seg-scores-de-en.csv"
    path.write_text("\n".join(lines) + "\n")
    _open(page, f"{server_url}/analysis?data=upload")
    page.locator(DROPZONE).first.set_input_files(str(path))
    page.get_by_text("Using 30 of 30 rows").wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    _done(page, "analysis")


def _upload_appraise_pilot(page, server_url, tmp_path) -> None:
    """An Appraise-style export (username, itemId, SYS, score: 5 raters × 12 items × 2 systems) uploaded on the
    Ratings page's pilot view; returns once the fit names its 5 × 12 design."""
    rows = [f"u{w},{i},{s},{3 + (s == 'B') + (w * i) % 3}" for w in range(5) for i in range(12) for s in "AB"]
    path = tmp_path / "appraise.csv"
    path.write_text("username,itemId,SYS,score\n" + "\n".join(rows) + "\n")
    _open(page, f"{server_url}/ratings?view=Fit+a+pilot")
    page.locator(DROPZONE).first.set_input_files(str(path))
    page.get_by_text("5 × 12").first.wait_for(timeout=60_000)


def test_ratings_appraise_column_names(page, server_url, tmp_path):
    _upload_appraise_pilot(page, server_url, tmp_path)
    _done(page, "ratings")


def test_da_system_ranking_is_refused_with_what_it_needs(page, server_url, tmp_path):
    path = tmp_path / "ranking.csv"
    path.write_text("system,BLEU,chrF\nonline-B,70.8,60.1\nFacebook-FAIR,69.2,59.0\nonline-A,65.1,55.2\n")
    _open(page, f"{server_url}/sequential?pop=my+past+differences")
    # the past differences' uploader (the page also has one for last year's judgments)
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="or upload them")
    uploader.locator(DROPZONE).set_input_files(str(path))
    page.get_by_text("one column of pairwise differences").first.wait_for(timeout=60_000)
    _done(page, "sequential")


def test_llm_harness_pretty_printed_json(page, server_url, tmp_path):
    def records(shift):
        return [{"doc_id": i, "doc": {"question": f"Synthetic {i}?"}, "target": "2", "filter": "none",
                 "metrics": ["acc"], "acc": float((i * 7 + shift) % 3 != 0)} for i in range(40)]

    base, new = tmp_path / "samples_arc_easy_2024-05-01T10-00-00.json", tmp_path / "samples_arc_easy_new.json"
    base.write_text(json.dumps(records(0), indent=2))
    new.write_text(json.dumps(records(1), indent=2))
    _open(page, f"{server_url}/llm?view=Estimate+from+your+logs")
    page.get_by_text("lm-evaluation-harness files").click()
    zones = _dropzones(page, "Its samples_*.jsonl files")
    zones.nth(0).set_input_files(str(base))
    page.get_by_text(re.compile(r"\.json$")).first.wait_for(timeout=60_000)  # A's file is listed
    wait_idle(page, timeout=60_000)
    zones.nth(1).set_input_files(str(new))
    page.get_by_text("40 questions").first.wait_for(timeout=60_000)
    _done(page, "llm")


def test_llm_inspect_eval_logs(page, server_url, tmp_path):
    """Inspect AI's .eval logs (zip archives with Zstandard members, as inspect_ai ≥ 0.3.206 writes them): the
    browser's uploader accepts them whole (they are not unpacked as archives) and the page fits the two models."""
    import numpy as np

    from core import llm
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(5)
    paths = []
    for model, p in (("openai/gpt-a", 0.55), ("openai/gpt-b", 0.7)):
        values = {(i, e): "C" if rng.random() < p else "I" for i in range(1, 41) for e in (1, 2, 3)}
        path = tmp_path / f"2026-11-28T03-27-10-00-00_arc-easy_{model.split('/')[1]}.eval"
        path.write_bytes(inspect_log(model, values))
        paths.append(path)
    fitted = llm.fit_benchmark(llm.read_inspect_logs([(paths[0].name, paths[0].read_bytes())],
                                                     [(paths[1].name, paths[1].read_bytes())]), seed=0)
    _open(page, f"{server_url}/llm?view=Estimate+from+your+logs")
    page.get_by_text("Inspect AI logs").click()
    zones = _dropzones(page, "Inspect logs")
    zones.nth(0).set_input_files(str(paths[0]))
    page.get_by_text(re.compile(r"gpt-a\.eval$")).first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    zones.nth(1).set_input_files(str(paths[1]))
    page.get_by_text("40 questions").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "K = 3" in text and "openai/gpt-a" in text
    assert fitted.n_questions == 40 and fitted.samples == 3
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot read").count()
    _done(page, "llm-inspect")


def test_llm_facets_inspect_logs_one_per_template(page, server_url, tmp_path):
    """Inspect AI .eval logs of two models under three prompt templates (``-T template=…``), uploaded several at a
    time on the "Prompts and seeds" tab: paired by their task arguments and fitted as core.llm.fit_facets does."""
    import numpy as np

    from core import llm
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(8)
    groups = []
    for model, p, order in (("openai/gpt-a", 0.55, (0, 1, 2)), ("openai/gpt-b", 0.7, (2, 1, 0))):
        paths = []
        for k, template in zip(order, ("plain", "cot", "json")):
            values = {(i, e): "C" if rng.random() < p else "I" for i in range(1, 21) for e in (1, 2)}
            path = tmp_path / f"2026-11-28T0{k}-00-00-00-00_qa_{model.split('/')[1]}_{k}.eval"
            path.write_bytes(inspect_log(model, values, task="qa", task_args={"template": template}))
            paths.append(path)
        groups.append(sorted(paths))
    fit = llm.fit_facets(llm.read_inspect_templates(*[[(p.name, p.read_bytes()) for p in g] for g in groups]))
    _open(page, f"{server_url}/llm?view=Prompts+and+seeds")
    page.get_by_text("Estimate the components from your logs").first.click()
    wait_idle(page, timeout=60_000)
    page.get_by_text("Inspect AI logs, one per prompt variant").click()
    zones = _dropzones(page, "Inspect logs")
    zones.nth(0).set_input_files([str(p) for p in groups[0]])
    page.get_by_text(re.compile(r"a_2\.eval$")).first.wait_for(timeout=60_000)  # the uploader cuts long names
    wait_idle(page, timeout=60_000)
    zones.nth(1).set_input_files([str(p) for p in groups[1]])
    page.get_by_text("Estimated from 6 Inspect logs").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "20 questions × 3 templates × 2 samples" in text
    assert 'template="plain"' in text and "Templates are paired by how each run was set up" in text
    assert f"{100 * fit.delta:+.2f} points" in text
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot").count()
    _done(page, "llm-facets-inspect")


def test_monitor_inspect_log_of_a_run_still_going(page, server_url, tmp_path):
    """The Monitor fed two Inspect AI .eval logs, the new model's from a run still going (no header.json yet: its
    journal is read): the questions both have answered, in points, with the note that the run has not finished."""
    import numpy as np

    from core import llm
    from core import sequential as sq
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(12)
    a_path, b_path = tmp_path / "2026-11-28_qa_gpt-a.eval", tmp_path / "2026-11-28_qa_gpt-b.eval"
    a_path.write_bytes(inspect_log("openai/gpt-a", {(i, 1): "C" if rng.random() < 0.5 else "I"
                                                    for i in range(1, 201)}))
    b_path.write_bytes(inspect_log("openai/gpt-b", {(i, 1): "C" if rng.random() < 0.6 else "I"
                                                    for i in range(1, 151)}, finished=False, status="started"))
    want = sq.differences_from_log(llm.read_inspect_logs([(a_path.name, a_path.read_bytes())],
                                                         [(b_path.name, b_path.read_bytes())]))
    assert len(want) == 150
    _open(page, f"{server_url}/monitor?source=Inspect+AI+logs")
    zones = _dropzones(page, "Inspect logs")
    zones.nth(1).wait_for(state="attached", timeout=60_000)
    zones.nth(0).set_input_files(str(a_path))
    page.get_by_text(re.compile(r"gpt-a\.eval$")).first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    zones.nth(1).set_input_files(str(b_path))
    page.get_by_text("its run did not finish").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    from playwright.sync_api import expect

    values = page.locator('[data-testid="stMetricValue"]')
    expect(values.first).to_have_text("150", timeout=30_000)  # uploads open at their last item
    expect(values.nth(1)).to_contain_text(f"{100 * want['difference'].mean():+.2f}".replace("-", "−"))
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot").count()
    _done(page, "monitor-inspect")


def test_llm_helm_run_folders_zipped(page, server_url, tmp_path):
    """Each model's HELM run folder zipped (run_spec.json, per_instance_stats.json, stats.json) uploaded on the LLM
    page: the models named by their run specs, fitted with the train trials as K."""
    import numpy as np

    from core import llm
    from tests.helm_files import helm_stats, run_folder

    rng = np.random.default_rng(13)
    values = [{(f"id{i}", t): float(rng.random() < p) for t in range(2) for i in range(60)} for p in (0.5, 0.7)]
    paths = []
    for model, v in zip(("openai/gpt-a", "openai/gpt-b"), values):
        path = tmp_path / f"{model.split('/')[1]}_run.zip"
        path.write_bytes(run_folder(model, v, perturbed=6))
        paths.append(path)
    fitted = llm.fit_benchmark(llm.read_helm_runs([(m, "p.json", helm_stats(v)) for m, v in
                                                   zip(("openai/gpt-a", "openai/gpt-b"), values)],
                                                  metric="exact_match"), seed=0)
    _open(page, f"{server_url}/llm?view=Estimate+from+your+logs")
    page.get_by_text("HELM runs").first.click()
    zones = _dropzones(page, "per_instance_stats.json")
    zones.nth(0).set_input_files(str(paths[0]))
    page.get_by_text(re.compile(r"gpt-a_run\.zip$")).first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    zones.nth(1).set_input_files(str(paths[1]))
    page.get_by_text("60 questions").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "K = 2" in text and "openai/gpt-a" in text and "openai/gpt-b" in text
    assert "Perturbed copies" in text
    assert fitted.n_questions == 60
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot").count()
    _done(page, "llm-helm")


def test_llm_lighteval_details_as_published(page, server_url, tmp_path):
    """Two models' lighteval details_<task>_<date>.parquet files uploaded as lighteval writes them (Parquet, the
    doc / model_response / metric structs) on the LLM page: fitted as core.llm reads them."""
    import numpy as np

    from core import llm
    from tests.lighteval_files import details_name, lighteval_details

    rng = np.random.default_rng(15)
    values = [list((rng.random(70) < p).astype(float)) for p in (0.5, 0.7)]
    paths = []
    for k, v in enumerate(values):
        folder = tmp_path / f"model{k}"
        folder.mkdir()
        path = folder / details_name(date=f"2025-11-0{k + 5}T14-43-47.148527")
        path.write_bytes(lighteval_details(v))
        paths.append(path)
    fitted = llm.fit_benchmark(llm.read_lighteval_runs([(m, p.name, p.read_bytes()) for m, p in
                                                        zip(("baseline", "new"), paths)]), seed=0)
    _open(page, f"{server_url}/llm?view=Estimate+from+your+logs")
    page.get_by_text("lighteval details").first.click()
    zones = _dropzones(page, "details_*.parquet")
    zones.nth(0).set_input_files(str(paths[0]))
    page.get_by_text(re.compile(r"8527\.parquet$")).first.wait_for(timeout=60_000)  # a long name is cut in the middle
    wait_idle(page, timeout=60_000)
    zones.nth(1).set_input_files(str(paths[1]))
    page.get_by_text("70 questions").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "2 lighteval details files" in text and "K = 1" in text  # the table itself is a canvas grid
    assert fitted.n_questions == 70
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot").count()
    _done(page, "llm-lighteval")


def test_llm_subset_helm_runs_folder_zipped(page, server_url, tmp_path):
    """A zipped HELM runs folder (four models' runs of one scenario, each with its per_instance_stats.json and
    run_spec.json) on the subset tab: every model a row, named by its run spec; the difference estimator's figure is
    core.llm's."""
    import io
    import zipfile

    import numpy as np

    from core import llm
    from tests.helm_files import helm_stats, run_spec

    rng = np.random.default_rng(14)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for k, p in enumerate((0.4, 0.55, 0.7, 0.8)):
            model = f"lab/model-{k}"
            folder = f"runs/v1/mmlu:subject=anatomy,model={model.replace('/', '_')}"
            archive.writestr(f"{folder}/per_instance_stats.json",
                             helm_stats({(f"id{i}", 0): float(rng.random() < p) for i in range(80)}))
            archive.writestr(f"{folder}/run_spec.json", run_spec(model))
    path = tmp_path / "runs.zip"
    path.write_bytes(buffer.getvalue())
    from core.packed import unpack_all

    files = [(name, data) for data, name in unpack_all(path.read_bytes(), path.name)]
    res = llm.prediction_assisted_se(llm.read_correctness_files(files, metric="exact_match"), 30)
    _open(page, f"{server_url}/llm?view=Run+a+subset+instead&sub_m=30")
    page.get_by_text("one evaluation log per model").first.click()
    _dropzones(page, "One run per file").set_input_files(str(path))
    page.get_by_text("4 HELM runs").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    page.get_by_text(f"{100 * res.variance_ratio:.1f}%").first.wait_for(timeout=30_000)
    assert res.n_models == 4 and res.n_items == 80
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "4 models × 80 items" in text  # the table (a canvas grid) names them
    assert not page.locator('[data-testid="stAlert"]', has_text="Cannot").count()
    _done(page, "llm-subset-helm")


def test_leaderboard_alpaca_eval_annotations(page, server_url):
    _open(page, f"{server_url}/leaderboard?view=Fit+your+votes")
    page.locator(DROPZONE).first.set_input_files(str(DATA / "synthetic_alpaca_eval_annotations.json"))
    page.get_by_text("1 annotation without a preference (null) dropped").first.wait_for(timeout=60_000)
    page.get_by_text("synthetic-model").first.wait_for(timeout=60_000)
    _done(page, "leaderboard")


def test_leaderboard_parquet_votes(page, server_url, tmp_path):
    """A Parquet file as Hugging Face publishes arena votes (model_a, model_b, winner beside nested conversations):
    the uploader accepts the extension and the page fits the votes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "train-00000-of-00001.parquet"
    pq.write_table(pa.table({"model_a": ["sys-a", "sys-b", "sys-a", "sys-c"],
                             "model_b": ["sys-b", "sys-c", "sys-c", "sys-a"],
                             "winner": ["model_a", "model_b", "tie", "model_a"],
                             "conversation_a": [[{"role": "user", "content": "hi"}]] * 4}), path)
    _open(page, f"{server_url}/leaderboard?view=Fit+your+votes")
    page.locator(DROPZONE).first.set_input_files(str(path))
    page.get_by_text("sys-c").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    assert page.locator('[data-testid="stException"]').count() == 0
    _done(page, "leaderboard-parquet")


def test_leaderboard_separated_votes_draw_without_intervals(page, server_url, tmp_path):
    """Votes with no finite fit (one vote: a beats b) draw their ratings without interval bars, say why, and the
    hover reads "no interval"."""
    path = tmp_path / "one-vote.csv"
    path.write_text("model_a,model_b,winner\nsys-a,sys-b,model_a\n")
    _open(page, f"{server_url}/leaderboard?view=Fit+your+votes")
    page.locator(DROPZONE).first.set_input_files(str(path))
    page.get_by_text("No 95% intervals").first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    ratings = ("() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
               ".filter(g => g.data && g.data.some(t => t.customdata))"
               ".map(g => Array.from(g.data[0].customdata))")
    # the note is written before the chart; on a loaded machine the chart can arrive after the script is idle
    page.wait_for_function(f"() => ({ratings})().length > 0", timeout=60_000, polling=100)
    hover = page.evaluate(ratings)
    assert ["no interval", "no interval"] in hover
    _done(page, "leaderboard-separated")


def test_an_upload_survives_switching_views(page, server_url, tmp_path):
    """A view's upload is kept while another view is shown (its uploader stays in a container that is never shown,
    ``pages._show.Views``): back on the view, the fit is there without uploading again."""
    from .conftest import wait_idle

    _upload_appraise_pilot(page, server_url, tmp_path)
    switcher = page.locator(".st-key-view")
    switcher.get_by_role("radio", name="Power vs effect (Figure 6)").click()
    page.locator(".st-key-power_chart .js-plotly-plot").wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    assert not page.get_by_text("5 × 12").first.is_visible()
    switcher.get_by_role("radio", name="Fit a pilot").click()
    page.get_by_text("5 × 12").first.wait_for(timeout=60_000)
    assert "view=Fit" in page.url
    _done(page, "ratings-views")

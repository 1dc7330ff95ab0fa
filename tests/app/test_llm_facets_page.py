"""AppTest of the LLM page's "Prompts and seeds" tab (pages/_llm_facets.py); oracle: core.llm.facets called directly."""

from __future__ import annotations

import io
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats
from streamlit.runtime.media_file_manager import MediaFileManager

from core import llm

from .conftest import captions, chart, metrics, open_page, open_plan

ROOT = Path(__file__).resolve().parents[2]
VIEW = {"view": "Prompts and seeds"}
COMPS = {k: v for k, v in llm.FACET_DEFAULTS.items() if k != "var_seed"}


@pytest.fixture
def deferred(monkeypatch):
    """The callables behind deferred download buttons, by file name (the CSV is written on click)."""
    seen: dict = {}
    original = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kw):
        if file_name:
            seen[file_name] = data_callable
        return original(self, data_callable, mimetype, coordinates, file_name, **kw)

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)
    return seen


def expected_metrics(n=1000, delta=0.02, t=1, k=1, comps=COMPS):
    res = llm.facet_power(n, delta, templates=t, samples=k, **comps)
    se = llm.facet_se(n, templates=t, samples=k, **comps)
    ceiling = llm.facet_ceiling(delta, templates=t, var_template=comps["var_template"])
    return res, se, ceiling


def test_defaults_match_core_and_state_the_ceiling():
    at = open_page("llm", VIEW)
    assert not at.exception, at.exception
    shown = metrics(at)
    res, se, ceiling = expected_metrics()
    assert shown["Power (templates counted)"] == f"{100 * res.power:.1f}%"
    assert shown["Power ceiling (unlimited questions)"] == f"{100 * ceiling:.1f}%"
    assert shown["SE of the gain"] == f"{100 * se:.2f} pts"
    # the ranking chance and the signal-to-noise ratio are captions under the row, in words; no symbol labels
    notes = captions(at)
    assert any(c.startswith(f"P(correct order): {100 * stats.norm.cdf(0.02 / se):.1f}% — ") for c in notes)
    assert any(c.startswith(f"Signal-to-noise (gain ÷ its SE): {0.02 / se:.2f} — ") for c in notes)
    assert not any("Δ" in label or "→" in label for label in shown)
    # the value stays short (a projector's metric); its help names the reason: one template's ceiling
    assert shown["Questions for 80% power (templates counted)"] == "not reachable"
    help_ = next(m.proto.help for m in at.metric if m.label == "Questions for 80% power (templates counted)")
    assert f"not reachable with one prompt template: its power ceiling, {100 * ceiling:.1f}%, is below" in help_
    best = llm.facet_plan(0.02, calls=20_000, **COMPS)
    assert shown["Best split (questions × templates × answers)"] == f"{best.n:,} × {best.templates} × {best.samples}"
    teaser = llm.facets.teaser()
    assert f"past **{100 * ceiling:.0f}%** power" in " ".join(i.value for i in at.info)
    assert f"{100 * ceiling:.0f}%" in teaser


def test_power_chart_has_a_curve_per_t_and_dashed_ceilings():
    at = open_page("llm", VIEW)
    fig = chart(at, "facets_power_chart")
    names = [t["name"] for t in fig["data"]]
    assert {"T = 1 (current)", "T = 2", "T = 5", "T = 10", "current design"} <= set(names)
    ceilings = [s["y0"] for s in fig["layout"]["shapes"] if s.get("line", {}).get("dash") == "dash"]
    for t in (1, 2, 5, 10):
        assert any(y == pytest.approx(llm.facet_ceiling(0.02, templates=t, var_template=1e-4)) for y in ceilings)
    budget = chart(at, "facets_budget_chart")
    assert budget["layout"]["barmode"] == "stack"
    assert {"template", "question", "question × template", "sample"} <= {t["name"] for t in budget["data"]}


@pytest.mark.parametrize("kind, key, value, change", [
    ("select_slider", "fc_t", 10, dict(t=10)), ("select_slider", "fc_n", 5000, dict(n=5000)),
    ("slider", "fc_gain", 4.0, dict(delta=0.04)), ("select_slider", "fc_k", 4, dict(k=4)),
    ("number_input", "fc_sd_t", 2.0, dict(comps=COMPS | {"var_template": 0.02 ** 2}))])
def test_each_input_moves_the_numbers(kind, key, value, change):
    at = open_page("llm", VIEW)
    getattr(at, kind)(key=key).set_value(value)
    at.run()
    assert not at.exception, at.exception
    res, se, ceiling = expected_metrics(**change)
    shown = metrics(at)
    assert shown["Power (templates counted)"] == f"{100 * res.power:.1f}%"
    assert shown["SE of the gain"] == f"{100 * se:.2f} pts"
    assert shown["Power ceiling (unlimited questions)"] == f"{100 * ceiling:.1f}%"


def test_link_restores_the_design_and_seeds():
    at = open_page("llm", VIEW | {"fc_t": "5", "fc_n": "2000", "fc_recipe": "True", "fc_seeds": "4"})
    assert not at.exception, at.exception
    comps = llm.FACET_DEFAULTS
    res = llm.facet_power(2000, 0.02, templates=5, seeds=4, **comps)
    assert metrics(at)["Power (templates counted)"] == f"{100 * res.power:.1f}%"
    seeds = chart(at, "facets_seeds_chart")
    marker = [t for t in seeds["data"] if t["name"] == "current design"][0]
    assert marker["x"] == [4]


def test_recipes_without_template_or_seed_spread_open_without_an_error():
    """Both staying terms at 0 (a link can set them): the ceiling is 1 and the tab opens; it used to stop with a
    ZeroDivisionError on Streamlit's error screen."""
    at = open_page("llm", VIEW | {"fc_recipe": "True", "fc_sd_t": "0", "fc_sd_seed": "0"})
    assert not at.exception, at.exception
    assert "Power (templates counted)" in metrics(at)


def test_a_size_beyond_the_search_is_not_blamed_on_the_templates():
    """No template spread (ceiling 100%) but a 0.05-point gain: more than the 10,000,000 questions searched are
    needed (oracle: the closed form n = z²·(var_item + var_item_template + var_sample)/Δ²). The metric said
    "not reachable" (with one prompt template), blaming the wrong term."""
    at = open_page("llm", VIEW | {"fc_gain": "0.05", "fc_sd_t": "0"})
    assert not at.exception, at.exception
    shown = metrics(at)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert z**2 * (COMPS["var_item"] + COMPS["var_item_template"] + COMPS["var_sample"]) / 0.0005**2 > 1e7
    assert shown["Power ceiling (unlimited questions)"] == "100.0%"
    assert shown["Questions for 80% power (templates counted)"] == f"> {llm.FACET_MAX_QUESTIONS:,}"


def test_csv_download_holds_the_plotted_numbers(deferred):
    at = open_page("llm", VIEW)
    assert "Download the plotted data (CSV)" in [b.proto.label for b in at.get("download_button")]
    table = pd.read_csv(io.BytesIO(deferred["llm_facets.csv"]()))
    curve = table[table["chart"] == "power_vs_questions_by_templates"]
    row = curve[(curve["templates"] == 5) & (curve["n"] == 1000)].iloc[0]
    assert row["power"] == pytest.approx(llm.facet_power(1000, 0.02, templates=5, **COMPS).power)
    assert row["ceiling"] == pytest.approx(llm.facet_ceiling(0.02, templates=5, var_template=1e-4))
    assert {"variance_budget_by_templates", "best_split_by_templates"} <= set(table["chart"])


def test_plan_and_code_view_reproduce_the_tab():
    at = open_page("llm", VIEW | {"fc_t": "3"})
    open_plan(at, "llm_facets")
    _, _, ceiling = expected_metrics(t=3)
    text = [c.value for c in at.code if "Brennan, 2001" in c.value][0]
    assert f"power stays below {100 * ceiling:.0f}% with 3 prompt templates" in text
    at.session_state["llm_facets_code_open"] = True
    at.run()
    script = [c.value for c in at.code if c.language == "python" and "facet_power" in c.value][0]
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    shown = metrics(at)
    for label in ("Power (templates counted)", "Power ceiling (unlimited questions)", "SE of the gain",
                  "Questions for 80% power (templates counted)", "Type-M (templates counted)"):
        assert printed[label] == shown[label], label
    for label in ("P(correct order)", "Signal-to-noise (gain ÷ its SE)"):  # in captions under the row
        assert any(c.startswith(f"{label}: {printed[label]} — ") for c in captions(at)), label


def test_simulation_shows_the_satterthwaite_df():
    at = open_page("llm", VIEW | {"fc_t": "3", "fc_n": "100000", "fc_sim": "True"})
    assert not at.exception, at.exception
    mc = llm.facet_power(100_000, 0.02, templates=3, **COMPS, method="simulate", n_sims=4000, seed=0)
    shown = metrics(at)
    assert shown["Simulated power (Satterthwaite t)"] == f"{100 * mc.power:.1f}%"
    assert shown["Median Satterthwaite df"] == f"{mc.df_median:,.1f}"
    assert shown["Mean Satterthwaite df"] == f"{mc.df:,.1f}"
    assert mc.df_median < 4


@pytest.mark.parametrize("zipped", [False, True])
def test_harness_files_fit_and_fill_the_components(zipped):
    """One samples file per template and model, uploaded as they are or as one zipped folder per model (its files
    read as if uploaded one by one, core.packed.unpack_all)."""
    import io
    import zipfile

    data = ROOT / "tests" / "data" / "harness_templates"
    at = open_page("llm", VIEW)
    at.session_state["fc_fit_open"] = True
    at.run()
    at.radio(key="fc_source").set_value("harness")
    at.run()
    for key, model in (("fc_files_a", "baseline"), ("fc_files_b", "candidate")):
        uploads = [(p.name, p.read_bytes(), "application/jsonl") for p in sorted((data / model).glob("*.jsonl"))]
        if zipped:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                for name, content, _ in reversed(uploads):  # the page orders a model's files by name
                    archive.writestr(f"{model}/{name}", content)
            uploads = [(f"{model}.zip", buffer.getvalue(), "application/zip")]
        at.file_uploader(key=key).set_value(uploads)
    at.run()
    at.selectbox(key="fc_metric").set_value("acc")
    at.run()
    assert not at.exception, at.exception
    files = [(name, p.name, p.read_bytes()) for name, m in (("baseline", "baseline"), ("new", "candidate"))
             for p in sorted((data / m).glob("*.jsonl"))]
    fit = llm.fit_facets(llm.read_harness_templates(files, metric="acc"))
    table = [d.value for d in at.dataframe if "component" in d.value.columns][0]
    assert table["variance"].tolist() == pytest.approx([fit.var_template, fit.var_item, fit.var_item_template,
                                                        fit.var_sample])
    at.button(key="fc_use_fit").click()
    at.run()
    assert at.number_input(key="fc_sd_i").value == pytest.approx(round(100 * math.sqrt(fit.var_item), 2))


def test_inspect_logs_one_per_template_fit_and_fill_the_components():
    """Inspect logs of two models under three templates (``-T template=…``), the new model's named so that their
    order differs from the baseline's: paired by the runs' task arguments, fitted as core.llm.fit_facets fits
    core.llm.read_inspect_templates of the same files."""
    import numpy as np

    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(7)
    templates = ("plain", "cot", "json")

    def log(model, template, p):
        values = {(f"q{i}", e): ("C" if rng.random() < p else "I") for i in range(15) for e in (1, 2)}
        return inspect_log(model, values, task="qa", task_args={"template": template})

    a = [(f"a_{k}_{t}.eval", log("org/a", t, 0.5)) for k, t in enumerate(templates)]
    b = [(f"b_{2 - k}_{t}.eval", log("org/b", t, 0.7)) for k, t in enumerate(templates)]
    at = open_page("llm", VIEW)
    at.session_state["fc_fit_open"] = True
    at.run()
    at.radio(key="fc_source").set_value("inspect")
    at.run()
    for key, files in (("fc_inspect_a", a), ("fc_inspect_b", b)):
        at.file_uploader(key=key).set_value([(name, data, "application/octet-stream") for name, data in files])
    at.run()
    assert not at.exception, at.exception
    frame = llm.read_inspect_templates(sorted(a), sorted(b), scorer="match")
    fit = llm.fit_facets(frame)
    assert (fit.n, fit.templates, fit.samples) == (15, 3, 2)
    table = [d.value for d in at.dataframe if "component" in d.value.columns][0]
    assert table["variance"].tolist() == pytest.approx([fit.var_template, fit.var_item, fit.var_item_template,
                                                        fit.var_sample], rel=1e-12, abs=1e-15)
    shown = [c.replace("\\", "") for c in captions(at)]  # shown escaped (file names are user text)
    assert ('Templates: template="plain" (a_0_plain.eval ↔ b_2_plain.eval); template="cot" (a_1_cot.eval ↔ '
            'b_1_cot.eval); template="json" (a_2_json.eval ↔ b_0_json.eval)') in shown, shown
    assert any("paired by how each run was set up" in c for c in shown)
    at.button(key="fc_use_fit").click()
    at.run()
    assert at.number_input(key="fc_sd_i").value == pytest.approx(round(100 * math.sqrt(fit.var_item), 2))
    # a log of another number of templates gets a message, not a traceback
    at.file_uploader(key="fc_inspect_b").set_value([(name, data, "application/octet-stream") for name, data in b[:2]])
    at.run()
    assert not at.exception, at.exception
    assert any("baseline has 3 logs and the new model 2" in e.value for e in at.error)


def test_helm_train_trials_are_the_templates():
    """HELM runs with four train trials (four sets of in-context examples): fitted as core.llm.fit_facets fits
    core.llm.read_helm_runs(..., trials="templates") of the same files."""
    import numpy as np

    from tests.helm_files import helm_stats

    rng = np.random.default_rng(3)
    files = []
    for model, p in (("gpt-a", 0.5), ("gpt-b", 0.65)):
        values = {(f"id{i}", t): float(rng.random() < p) for t in range(4) for i in range(25)}
        files.append((model, f"{model}.json", helm_stats(values)))
    at = open_page("llm", VIEW)
    at.session_state["fc_fit_open"] = True
    at.run()
    at.radio(key="fc_source").set_value("helm")
    at.run()
    for role, (model, name, data) in zip("ab", files):
        at.text_input(key=f"fc_helm_name_{role}").set_value(model)
        at.file_uploader(key=f"fc_helm_files_{role}").set_value([(name, data, "application/json")])
    at.run()
    at.selectbox(key="fc_helm_metric").set_value("exact_match")
    at.run()
    assert not at.exception, at.exception
    fit = llm.fit_facets(llm.read_helm_runs(files, metric="exact_match", trials="templates"))
    assert (fit.n, fit.templates, fit.samples) == (25, 4, 1)
    table = [d.value for d in at.dataframe if "component" in d.value.columns][0]
    assert table["variance"].tolist() == pytest.approx([fit.var_template, fit.var_item, fit.var_item_template,
                                                        fit.var_sample], rel=1e-12, abs=1e-15)
    assert any("**25** questions × **4** templates × **1** samples" in m.value for m in at.markdown)


def test_malformed_log_gets_a_message():
    at = open_page("llm", VIEW)
    at.session_state["fc_fit_open"] = True
    at.run()
    at.file_uploader(key="fc_log").set_value(("log.csv", b"model,question,prompt,score\na,1,p,1\nb,1,p,high\n",
                                              "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert any("row" in e.value for e in at.error)


@pytest.mark.parametrize("view", ["Prompts and seeds", "Run a subset instead"])
def test_views_with_their_own_design_leave_out_the_key_inputs_sections(view):
    """Under a view that plans its own design, the page's plan, "Run it sequentially" and the item list (all of the
    key inputs' design) are left out: one plan on the page, the view's own."""
    at = open_page("llm", {"view": view})
    assert not at.exception, at.exception
    labels = [e.proto.label for e in at.get("expander")]
    assert not any("sequentially" in label.lower() for label in labels), labels
    assert not any("item list" in label.lower() for label in labels), labels
    assert sum("Plan this design" in label for label in labels) == 1, labels
    base = [e.proto.label for e in open_page("llm").get("expander")]
    assert any("sequentially" in label.lower() for label in base) and any("item list" in label.lower() for label in base)

"""The "Python code for this view" scripts: each page's script, run as a user would run it (a fresh Python process
in the repository's root), prints the numbers of the page's metrics row, at the defaults and at a non-default link.

The oracle is the page itself (AppTest): the script must reproduce what the page really shows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.accuracy.snippet import accuracy_snippet
from core.mt.snippet import mt_snippet
from core.pairwise import LeaderboardDesign, encode_ratings
from core.pairwise.snippet import leaderboard_snippet
from core.plan import PlanItem, plan_html
from core.ratings.snippet import ratings_snippet
from core.sequential.snippet import monitor_snippet, sequential_snippet

ROOT = Path(__file__).resolve().parents[1]

# (page, code-view key, URL parameters, labels that must be printed and match)
CASES = [
    ("llm", "llm_code", {}, ("Power", "Type-M (exaggeration)", "MDE at 80% power", "Questions for 80% power",
                             "Cheapest design for 80% power")),
    ("llm", "llm_code", {"n": "300", "gain": "5", "k": "4", "m": "5", "judge": "True", "assure": "True"},
     ("Power", "Type-S (wrong sign)", "Questions for 80% power", "Cheapest design for 80% power", "Assurance")),
    ("accuracy", "accuracy_code", {}, ("Power", "Type-M (exaggeration)", "MDE at 80% power", "Items for 80% power")),
    ("accuracy", "accuracy_code", {"scenario": "unpaired", "n": "3000", "delta": "3", "assure": "True"},
     ("Power", "Type-S (wrong sign)", "Items per model for 80% power", "Assurance")),
    ("mt", "mt_code", {}, ("Power", "Type-M (exaggeration)", "MDE at 80% power", "Sentences for 80% power")),
    ("mt", "mt_code", {"n": "3000", "delta": "0.5", "assure": "True", "target": "0.9"},
     ("Power", "MDE at 90% power", "Sentences for 90% power", "Assurance")),
    ("sequential", "sequential_code", {}, ("Power", "False-positive rate (no true difference)", "Expected judgments",
                                           "Type-M at stopping", "MDE at 80% power",
                                           "Judgments for 80% power (fixed)",
                                           "Judgments for 80% power (interim-futility)")),
    ("sequential", "sequential_code", {"design": "interim_futility", "delta": "1.5", "budget": "2400",
                                       "assure": "True"}, ("Power", "Expected judgments", "Assurance")),
    ("ratings", "ratings_code", {}, ("Power", "False-positive rate", "Type-M (exaggeration)",
                                     "MDE at 80% power (effect β1)")),
    ("ratings", "ratings_code", {"workers": "5", "items": "200", "effect": "0.05", "assure": "True"},
     ("Power", "Type-S (wrong sign)", "MDE at 80% power (effect β1)", "Assurance")),
    ("leaderboard", "leaderboard_code", {}, ("Weakest neighbours' power", "Votes for 80% on every pair",
                                             "P(whole order right)", "Typical interval")),
    ("leaderboard", "leaderboard_code", {"votes": "10000", "judge": "90", "assure": "True"},
     ("Weakest neighbours' power", "P(whole order right)", "Weakest neighbours' assurance")),
    ("claims", "claims_code", {}, ("Power per claim, unadjusted", "Expected claims that hold")),
    ("claims", "claims_code", {"correction": "bonferroni", "rho": "0.3"},
     ("Power per claim, unadjusted", "Expected claims that hold", "Test-set growth for 80% each")),
    ("judge", "judge_code", {}, ("Human-labelled items", "Judge-only items", "Standard error",
                                 "Equivalent human-only items", "Cost", "Judge weight λ (power-tuned)")),
    ("judge", "judge_code", {"judge_spec": "correlation", "rho": "0.6", "plan_by": "an effect (cheapest)",
                             "delta": "0.05"}, ("Human-labelled items", "Standard error", "Power at 0.05 score units")),
    ("judge", "judge_code", {"plan_by": "an effect (cheapest)", "delta": "0.05"},
     ("Standard error", "Power at 5 points", "Judge weight λ (power-tuned)")),
    ("judge", "judge_active_code", {"view": "Which items to label", "al_a": "2.0", "al_share": "0.1"},
     ("SE, human labels only", "SE, uniform labels (PPI)", "SE, active labels", "Active labels for the target SE")),
    ("judge", "judge_agreement_code", {"view": "Agreement study"}, ("Items for ± 0.1", "Value")),
    ("judge", "judge_agreement_code", {"view": "Agreement study", "ag_prev": "10.0", "ag_kappa": "0.4",
                                       "ag_hw": "0.05", "ag_stat": "Gwet's AC1"}, ("Items for ± 0.05", "Value")),
    ("judge", "judge_labels_code", {"view": "Labels per item", "lp_c_item": "5.0"},
     ("Labels per item", "Items (best)", "Cost (best)", "Annotator error rate", "Break-even item cost")),
    ("llm", "llm_subset_code", {"view": "Run a subset instead", "sub_m": "300"},
     ("SE vs the full run", "95% of full run", "Same winner as the full run", "Items for the half-width",
      "Items for the target agreement")),
    ("monitor", "monitor_code", {}, ("Items so far", "Running difference", "Expected further items",
                                     "P(ends with a winner)")),
    ("monitor", "monitor_code", {"upto": "120", "alpha": "0.1", "swap": "True"},
     ("Items so far", "Running difference", "90% confidence sequence")),
]


def page_code(page: str, key: str, query: dict) -> tuple[dict, str]:
    """The page's metrics row and the script of its code view (opened like a user opens it)."""
    from tests.app.conftest import metrics, open_page

    at = open_page(page, query)
    assert not at.exception, at.exception
    assert not [c for c in at.code if c.language == "python"], "the code view is filled only when opened"
    at.session_state[f"{key}_open"] = True
    at.run()
    assert not at.exception, at.exception
    blocks = [c for c in at.code if c.language == "python"]
    assert len(blocks) == 1, "the code view shows one Python block"
    shown = metrics(at)
    # a number the page keeps out of its metrics row, in a caption under it ("label: value, then more words")
    for text in (c.value for c in at.caption):
        label, sep, value = text.partition(": ")
        if sep and label not in shown:
            shown[label] = Caption(value)
    return shown, blocks[0].value


class Caption(str):
    """A caption's text after its label: the script prints the value, the caption may go on after it."""

    def matches(self, value: str) -> bool:
        return self == value or self.startswith(value + " ")


def run_script(code: str) -> dict[str, str]:
    """Run the script in a fresh interpreter from the repository root; its ``label: value`` lines."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = {}
    for line in done.stdout.splitlines():
        label, _, value = line.partition(": ")
        printed[label] = value
    return printed


@pytest.mark.parametrize(("page", "key", "query", "required"), CASES,
                         ids=[f"{c[0]}-{'default' if not c[2] else 'link'}" for c in CASES])
def test_script_prints_the_metrics_row(page, key, query, required):
    import streamlit as st

    st.cache_data.clear()
    shown, code = page_code(page, key, query)
    printed = run_script(code)
    for label in required:
        assert label in printed, f"the script does not print {label!r}: {printed}"
    for label, value in printed.items():
        assert label in shown, f"{label!r} is not in the metrics row {sorted(shown)}"
        same = shown[label].matches(value) if isinstance(shown[label], Caption) else value == shown[label]
        assert same, f"{label}: script {value!r}, page {shown[label]!r}"


def test_plan_html_includes_the_code():
    from core import mt

    code = mt_snippet(mt.BleuDesign(1.0, 0.13, 25.8, n=2000), target_power=0.8)
    page = plan_html([PlanItem(scenario="MT", question="q", code=code)], generated="today")
    assert "<h3>Python code</h3>" in page and "mt.bleu_power(n, delta, p0, b0, alpha=alpha)" in page
    assert "<pre><code>" in page
    assert "Python code" not in plan_html([PlanItem(scenario="MT", question="q")], generated="today")


def test_user_text_is_an_inert_literal():
    name = "x'); import os; os.system('echo pwned'); ('"
    table = encode_ratings({name: 1000.0, "b": 1100.0}, decimals=None)
    code = leaderboard_snippet(LeaderboardDesign(preset="custom", ratings=table, n=100))
    compile(code, "<snippet>", "exec")  # still valid Python
    assert repr(name) in code
    assert "pwned" not in run_script(code).get("Weakest neighbours' power", "")


def test_design_snippets_read_the_design():
    from core import llm
    from core.claims import ClaimsDesign
    from core.claims.snippet import claims_snippet
    from core.llm.snippet import llm_facets_snippet, llm_snippet

    # the best split of the design's calls: printed (and equal to core's) with a gain, left out without one
    design = llm.FacetDesign(delta=0.03, templates=3, calls=50_000)
    printed = run_here(llm_facets_snippet(design, target_power=0.8))
    best = llm.facet_plan(0.03, calls=50_000, **design.components(seed=False), alpha=0.05)
    assert printed["Best split (questions × templates × answers)"] == f"{best.n:,} × {best.templates} × {best.samples}"
    assert printed["Power ceiling (unlimited questions)"] == f"{100 * design.ceiling():.1f}%"
    assert "facet_plan" not in llm_facets_snippet(design.with_(delta=0.0), target_power=0.8)
    # the benchmark's unit costs come from the design: the cheapest (n, K) only when one is positive
    free = llm.BenchmarkDesign(cost_question=0.0, cost_sample=0.0)
    assert "benchmark_plan" in llm_snippet(llm.BenchmarkDesign(), target_power=0.8)
    assert "benchmark_plan" not in llm_snippet(free, target_power=0.8)
    assert "n = 2500" in llm_snippet(free.with_(n=2500), target_power=0.8)
    # the leaderboard's assurance only with `assure`, at the design's prior SD
    board = LeaderboardDesign(assure=True, delta_sd=30.0)
    assert "leaderboard_assurance(n_votes, ratings, 30.0," in leaderboard_snippet(board)
    assert "assurance" not in leaderboard_snippet(board.with_(assure=False))
    assert "label = 'Benjamini–Hochberg'" in claims_snippet(ClaimsDesign(correction="bh"))
    for snippet in (llm_snippet, llm_facets_snippet):
        with pytest.raises(ValueError, match="`design` must be a core.llm"):
            snippet({"n": 100}, target_power=0.8)
    for snippet in (claims_snippet, leaderboard_snippet):
        with pytest.raises(ValueError, match="`design` must be a core"):
            snippet({"n": 100})


def test_bad_scenario_is_rejected():
    with pytest.raises(ValueError, match="`scenario`"):
        accuracy_snippet(scenario="nope", n=10, alpha=0.05, target_power=0.8)


def run_here(code: str) -> dict[str, str]:
    """Run a script in this process (no subprocess) and collect its ``label: value`` lines."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})
    return dict(line.partition(": ")[::2] for line in out.getvalue().splitlines())


def test_preference_script_matches_core():
    """The preference design (raters choosing A, B or neither), against core.accuracy directly."""
    from core import accuracy as acc

    code = accuracy_snippet(scenario="preference", n=150, alpha=0.05, target_power=0.8, p_new=0.55,
                                     p_old=0.35, tie_rate=0.1, ties="drop", test="exact", prior=(20.0, 5.0))
    printed = run_here(code)
    res = acc.preference_power(150, 0.55, 0.35, alpha=0.05, ties="drop", test="exact")
    assert printed["Power"] == f"{100 * res.power:.1f}%"
    sizes = acc.preference_sample_sizes(0.55, 0.35, target_power=0.8, alpha=0.05, ties="drop", test="exact")
    assert printed["Raters for 80% power"] == f"{sizes.first:,}"
    assured = acc.preference_assurance(150, 0.2, 0.05, tie_rate=0.1, alpha=0.05, ties="drop", test="exact")
    assert printed["Assurance"] == f"{100 * assured.assurance:.1f}%"


def test_simulated_ratings_design_prints_only_closed_form_numbers():
    from core import ratings as rt

    sig = dict(rt.PRESETS["high"])
    design = rt.RatingsDesign(20, 100, 0.1, **sig, layout="crowd", per_item=5, alpha=0.05)
    assert not design.analytic
    code = ratings_snippet(design, target_power=0.8, prior=(0.1, 0.05))
    printed = run_here(code)
    assert "Power" not in printed and "method='simulate'" in code
    assert printed["MDE at 80% power (effect β1)"] == f"{rt.likert_mde(20, 100, target_power=0.8, alpha=0.05, **sig):.3f}"
    assured = rt.crowd_assurance(20, 100, 5, 0.1, 0.05, alpha=0.05, **sig)
    assert printed["Assurance"] == f"{100 * assured.assurance:.1f}%"


def test_monitor_script_reads_the_uploaded_file(tmp_path, monkeypatch):
    """With an upload the script reads the file by its name (next to the notebook), as the page read it."""
    from core import sequential as sq

    rng = np.random.default_rng(4)
    scores = pd.DataFrame({"old": rng.integers(0, 2, 200), "new": rng.integers(0, 2, 200)})
    (tmp_path / "run.csv").write_text(scores.to_csv(index=False))
    monkeypatch.chdir(tmp_path)
    design = sq.MonitorDesign(target=0.05, n_max=1000, alpha=0.05, sequence="bounded", looks=3,
                              boundary="obrien_fleming", seed=1)
    code = monitor_snippet(design, upto=150, swap=False, data_file="run.csv")
    printed = run_here(code)
    data = sq.read_paired_scores((tmp_path / "run.csv").read_bytes(), name="run.csv")
    res = sq.monitor(data["difference"].to_numpy(dtype=float)[:150], target=0.05, n_max=1000, alpha=0.05,
                     bounds=(-1.0, 1.0), looks=3, boundary="obrien_fleming", seed=1)
    assert printed["Items so far"] == "150"
    # right/wrong (0/1) scores: an accuracy difference, in points as on the page
    assert printed["Running difference"] == f"{100 * res.sequence.iloc[-1]['estimate']:+.2f} pts"
    assert printed["P(ends with a winner)"] == f"{100 * res.p_stop_effect:.1f}%"


def test_monitor_script_reads_inspect_logs(tmp_path, monkeypatch):
    """With Inspect AI logs the script reads them by name, as the page did: epochs averaged per question, in
    points (the scores are proportions correct)."""
    from core import llm
    from core import sequential as sq
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(9)
    for name, model, p in (("a.eval", "org/a", 0.5), ("b.json", "org/b", 0.6)):
        values = {(i, e): "C" if rng.random() < p else "I" for i in range(1, 121) for e in (1, 2)}
        (tmp_path / name).write_bytes(inspect_log(model, values, fmt=name.rpartition(".")[2]))
    monkeypatch.chdir(tmp_path)
    design = sq.MonitorDesign(target=0.05, n_max=1000, alpha=0.05, sequence="bounded", looks=3,
                              boundary="obrien_fleming", seed=1)
    code = monitor_snippet(design, upto=100, swap=False, inspect_files=(("a.eval",), ("b.json",), "match"))
    printed = run_here(code)
    data = sq.differences_from_log(llm.read_inspect_logs([("a.eval", (tmp_path / "a.eval").read_bytes())],
                                                         [("b.json", (tmp_path / "b.json").read_bytes())]))
    assert not np.isin(data["difference"], (-1.0, 0.0, 1.0)).all()  # halves: epochs averaged, still points
    res = sq.monitor(data["difference"].to_numpy(dtype=float)[:100], target=0.05, n_max=1000, alpha=0.05,
                     bounds=(-1.0, 1.0), looks=3, boundary="obrien_fleming", seed=1)
    assert printed["Items so far"] == "100"
    assert printed["Running difference"] == f"{100 * res.sequence.iloc[-1]['estimate']:+.2f} pts"


def test_monitor_script_reads_same_named_logs_from_two_folders(tmp_path, monkeypatch):
    """Both models' logs named alike (one file name cannot hold both): the script reads model A's from ``A/`` and
    model B's from ``B/``, and prints the numbers of the two different files, not one file twice."""
    from core import sequential as sq
    from tests.inspect_files import inspect_log

    rng = np.random.default_rng(5)
    for folder, model, p in (("A", "org/a", 0.4), ("B", "org/b", 0.7)):
        values = {(i, 1): "C" if rng.random() < p else "I" for i in range(1, 81)}
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "run.eval").write_bytes(inspect_log(model, values))
    monkeypatch.chdir(tmp_path)
    design = sq.MonitorDesign(target=0.05, n_max=1000, alpha=0.05, sequence="bounded", looks=3,
                              boundary="obrien_fleming", seed=1)
    code = monitor_snippet(design, upto=80, swap=False, inspect_files=(("run.eval",), ("run.eval",), "match"))
    assert "['A/run.eval']" in code and "['B/run.eval']" in code
    printed = run_here(code)
    a = pd.Series(llm_scores(tmp_path / "A" / "run.eval"))
    b = pd.Series(llm_scores(tmp_path / "B" / "run.eval"))
    assert a.sub(b).abs().sum() > 0
    assert printed["Running difference"] == f"{100 * (b - a).mean():+.2f} pts"


def llm_scores(path) -> dict:
    """A one-epoch log's C/I answers as 1/0 by question, read with the single-log reader."""
    from core import llm

    return {q: 1.0 if s["match"] == "C" else 0.0 for q, _, s in llm.read_inspect_log(path.read_bytes()).samples}


def test_the_plan_carries_the_pages_script():
    """The plan basket's item (and so the plan HTML) holds the script the code view shows."""
    from tests.app.conftest import open_page, open_plan

    at = open_page("mt")
    at.session_state["mt_code_open"] = True
    open_plan(at, "mt")
    at.button(key="mt_add").click()
    at.run()
    shown = [c.value for c in at.code if c.language == "python"][0]
    item = at.session_state["plan_basket"][-1]
    assert item.code.rstrip("\n") == shown.rstrip("\n")
    assert "<h3>Python code</h3>" in plan_html([item], generated="today")


def test_paired_script_with_a_regression_prior_on_the_agreement():
    """P_a from the GLUE regression: the script rebuilds the design like the page (core.accuracy.paired_design)."""
    from core import accuracy as acc

    code = accuracy_snippet(scenario="paired", n=1000, alpha=0.05, target_power=0.9, delta=0.02,
                                     test="exact", source="glue", agreement=None, baseline=0.8)
    printed = run_here(code)
    design = acc.paired_design("glue", delta=0.02, agreement=None, baseline=0.8)
    res = acc.mcnemar_power(1000, 0.02, design.agreement, alpha=0.05, test="exact")
    mde = acc.mcnemar_mde(1000, **design.mde_kwargs, target_power=0.9, alpha=0.05, test="exact")
    assert printed["Power"] == f"{100 * res.power:.1f}%"
    assert printed["MDE at 90% power"] == f"{100 * mde:.2f} pts"


def test_sequential_script_reads_and_fits_last_years_judgments(tmp_path, monkeypatch):
    """With an upload the DA page's script reads the file by its name and prints the fit's metrics as the page."""
    import core.humaneval as he

    if not hasattr(he, "read_scores"):
        pytest.skip("core.humaneval.read_scores (the reader) is not in this build")
    rng = np.random.default_rng(1)
    rows = [(s, f"s{i}", f"r{j}", float(np.clip(round(m + rng.normal(0, 20)), 0, 100)))
            for s, m in (("A", 80), ("B", 76)) for i in range(100) for j in range(2)]
    pd.DataFrame(rows, columns=["system", "item", "rater", "score"]).to_csv(tmp_path / "last.csv", index=False)
    monkeypatch.chdir(tmp_path)
    from core import sequential as sq

    design = sq.CampaignDesign("fixed", 2.0, looks=3, boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0,
                               alpha=0.05, test="mwu", budget=1200)
    code = sequential_snippet(design, target_power=0.8, fitted=("last.csv", "A", "B", "da"))
    printed = run_here(code)
    scores = he.read_scores((tmp_path / "last.csv").read_bytes(), "last.csv", protocol="da")
    fit = he.fit_campaign(scores, ["A", "B"])
    assert printed["Difference A − B"] == f"{fit.delta:+.3g} pts"  # DA: points on the 0–100 scale
    assert printed["Judgment SD"] == f"{fit.sd:.3g} pts"

"""AppTest tests of the LLM page's "No worse than" tab, its per-task table and its link to Many claims."""

from __future__ import annotations

import pytest

from core import llm

from .conftest import chart, metrics, open_page

KW = dict(difficulty_sd=0.25, correlation=0.6, samples=1, cluster_size=1, icc=0.0, judge_sensitivity=1.0,
          judge_specificity=1.0)


def test_no_worse_than_tab_matches_core_and_draws_the_margin():
    at = open_page("llm", {"view": "No worse than"})
    assert not at.exception
    shown = metrics(at)
    power = llm.benchmark_noninferiority_power(1000, 0.70, 0.73, 0.02, alpha=0.025, **KW).power
    assert shown["Power to show “no worse”"] == f"{100 * power:.1f}%"
    need = llm.benchmark_noninferiority_sample_size(0.70, 0.73, 0.02, alpha=0.025, **KW)
    assert shown["Questions for 80% power (no worse)"] == f"{need:,}"
    fig = chart(at, "noworse_chart")
    assert any(s.get("x0") == -2.0 for s in fig["layout"]["shapes"])
    names = [t.get("name") for t in fig["data"]]
    marker = fig["data"][names.index("current design")]
    assert marker["x"] == [3.0] and marker["y"][0] == pytest.approx(power)


def test_page_links_to_many_claims():
    at = open_page("llm")
    assert any("claims" in str(link.proto.page) for link in at.get("page_link"))


def test_per_task_table_from_the_worked_example():
    at = open_page("llm", {"view": "Estimate from your logs"})
    at.radio(key="log_source").set_value("sample").run()
    assert not at.exception
    table = at.dataframe[-1].value
    expected = llm.task_table(llm.sample_log(), by=None)
    assert list(table["n"]) == list(expected["n"]) and list(table["flag"]) == list(expected["flag"])
    at.toggle(key="per_cluster").set_value(True).run()
    assert len(at.dataframe[-1].value) == len(llm.task_table(llm.sample_log(), by="cluster"))
    assert any("flagged" in w.value for w in at.warning)


def test_harness_files_as_tasks_give_one_row_per_task():
    at = open_page("llm", {"view": "Estimate from your logs"})
    at.radio(key="log_source").set_value("harness").run()
    files = llm.sample_harness_files()
    # relabel the synthetic runs as two tasks per model (samples_<task>_<date>.jsonl)
    renamed = {}
    for model, name, data in files:
        index = len(renamed.setdefault(model, []))
        if index < 2:
            renamed[model].append((f"samples_task{index}_2024-01-01T00-00-00.jsonl", data, "application/jsonl"))
    at.file_uploader(key="files_a").set_value(renamed["synthetic-baseline"])
    at.file_uploader(key="files_b").set_value(renamed["synthetic-candidate"])
    at.run()
    at.radio(key="harness_files").set_value("tasks").run()
    assert not at.exception
    at.toggle(key="per_cluster").set_value(True).run()
    table = at.dataframe[-1].value
    assert sorted(set(table["task"])) == ["task0", "task1"] and len(table) == 4


def test_no_worse_than_link_is_read_by_the_tabs_design():
    # a link with the tab's keys (margin in points, the one-sided α) and the benchmark's: the design it describes
    query = {"view": "No worse than", "llm_margin": "3.5", "llm_ni_alpha": "0.01", "n": "3000", "gain": "0"}
    at = open_page("llm", query)
    assert not at.exception
    d = llm.NoWorseDesign.from_params(query)
    assert (d.margin, d.alpha, d.benchmark.n) == (0.035, 0.01, 3000)
    oracle = llm.benchmark_noninferiority_power(3000, 0.70, 0.70, 0.035, alpha=0.01, **KW).power
    assert metrics(at)["Power to show “no worse”"] == f"{100 * d.power().power:.1f}%" == f"{100 * oracle:.1f}%"
    fig = chart(at, "noworse_chart")
    assert any(s.get("x0") == -3.5 for s in fig["layout"]["shapes"])
    # a gain below −margin: no benchmark can show "no worse"
    at = open_page("llm", {"view": "No worse than", "llm_margin": "1", "gain": "-2"})
    assert not at.exception
    assert metrics(at)["Questions for 80% power (no worse)"] == "—"
    assert any("below −margin" in w.value for w in at.warning)

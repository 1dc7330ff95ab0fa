"""AppTest tests of the analyze-your-results page (pages/analysis.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core import analysis as an
from core import bayes

from .conftest import chart, metrics, open_page

SAMPLES = Path(__file__).resolve().parents[2] / "core" / "data" / "analysis_sample"


@pytest.fixture
def page():
    at = open_page("analysis", timeout=120)
    assert not at.exception, at.exception
    return at


def report_text(at) -> str:
    """The "What to report" paragraph (a text box the user copies from)."""
    return next(t.value for t in at.text_area if t.label == "Text for the paper")


def test_sample_scores_end_to_end(page):
    data = an.parse_results((SAMPLES / "scores.csv").read_bytes(), "scores")
    d = data.a - data.b
    post = bayes.compare_means(d, rope=0.01, hdi=0.95)
    shown = metrics(page)
    assert shown["95% HDI of A − B"] == f"[{post.hdi[0]:.4f}, {post.hdi[1]:.4f}] score units"
    assert shown["MDE of the paired t test at 80% power"] == \
        f"{an.paired_t_mde(300, float(d.std(ddof=1))):.4f} score units"
    report = report_text(page)
    assert "n = 300" in report and "Paired t test" in report
    assert chart(page, "posterior_chart")["data"]


def test_binary_sample_uses_mcnemar_and_beta_posterior(page):
    page.selectbox(key="kind").set_value("binary")
    page.run()
    assert not page.exception
    data = an.parse_results((SAMPLES / "correctness.csv").read_bytes(), "binary")
    post = bayes.compare_accuracies(int(data.a.sum()), data.a.size, int(data.b.sum()), data.b.size)
    assert metrics(page)["P(A > B)"] == f"{post.p_superior:.3f}"
    assert metrics(page)["BF01 (ROPE vs not)"] == f"{post.bf01:.3f}"
    # 0/1 correctness: the difference of accuracies in points
    assert metrics(page)["95% HDI of A − B"] == f"[{100 * post.hdi[0]:.2f}, {100 * post.hdi[1]:.2f}] pts"
    assert "P(A − B > 1 pts)" in metrics(page)
    assert "mcnemar" in page.multiselect[0].value


def test_many_systems_heatmap(page):
    page.selectbox(key="kind").set_value("systems")
    page.run()
    assert not page.exception
    heat = chart(page, "pairwise_chart")["data"][0]
    assert heat["type"] == "heatmap"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"a,b\n1,x\n2,3\n4,5\n", "not a number"),
        (b"a,b\n1,2\n3\n", "unequal"),
        (b"a\n1\n2\n3\n", "single column"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        (b"a,b\n\xff\xfe,1\n", "UTF-8"),
    ],
)
def test_broken_uploads_get_messages(page, content, message):
    page.radio(key="data").set_value("upload")
    page.run()
    page.file_uploader(key="file").set_value(("results.csv", content, "text/csv"))
    page.run()
    assert not page.exception
    assert any(message in e.value for e in page.error)


def test_a_file_past_the_uploaders_limit_is_refused_by_the_server_too(page):
    """The server takes uploads up to the judgments' limit (the DA page's); every other uploader holds its files to
    the plain limit on the server as well as in the browser (pages._uploads.opened), with a message."""
    from core import uploads

    page.radio(key="data").set_value("upload")
    page.run()
    big = b"a,b\n" + b"0.5,0.4\n" * (uploads.MAX_BYTES // 8 + 1)
    page.file_uploader(key="file").set_value(("results.csv", big, "text/csv"))
    page.run()
    assert not page.exception
    assert any("results.csv is 20.0 MB; this uploader takes files of at most 20 MB" in e.value for e in page.error)


def test_missing_values_reported_with_rows_used(page):
    page.radio(key="data").set_value("upload")
    page.run()
    rows = "\n".join(f"{0.5 + 0.01 * i},{0.45 + 0.012 * i}" for i in range(20))
    page.file_uploader(key="file").set_value(("r.csv", f"a,b\n{rows}\n,0.3\n0.2,NA\n".encode(), "text/csv"))
    page.run()
    assert not page.exception
    assert any("2 rows with missing values were dropped" in w.value for w in page.warning)
    assert any("**20** of 22 rows" in s.value for s in page.success)


def test_paste_and_units(page):
    page.radio(key="data").set_value("paste")
    page.run()
    rng = np.random.default_rng(0)
    rows = "\n".join(f"{x:.3f}\t{y:.3f}" for x, y in rng.uniform(0, 1, (40, 2)))
    page.text_area(key="pasted").set_value("A\tB\n" + rows)
    page.number_input(key="m").set_value(4)
    page.run()
    assert not page.exception
    assert "n = 10 evaluation units of 4 items" in report_text(page)


def test_url_restores_view():
    at = open_page("analysis", {"kind": "0/1 correctness", "alpha": "0.01"}, timeout=120)
    assert not at.exception
    assert at.selectbox(key="kind").value == "binary"
    assert "α = 0.01" in report_text(at)


def test_downloads_and_explainer(page):
    assert "Download all results (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert any("Explain" in e.proto.label for e in page.get("expander"))


def test_upload_replaces_the_sample_numbers_in_the_planner(page):
    # the planning inputs kept the sample's 0.0214 / 0.1016 (and 179 pairs) after an upload
    assert metrics(page)["Pairs needed for 80% power (paired t)"] == "179"
    rng = np.random.default_rng(5)
    z = rng.standard_normal(400)
    d = 0.0181 + 1.1708 * (z - z.mean()) / z.std(ddof=1)  # mean 0.0181, SD 1.1708 exactly
    rows = "\n".join(f"{float(x)!r},0" for x in d)
    page.radio(key="data").set_value("upload")
    page.run()
    page.file_uploader(key="file").set_value(("r.csv", f"a,b\n{rows}\n".encode(), "text/csv"))
    page.run()
    assert not page.exception
    assert page.number_input(key="exp_mean").value == pytest.approx(0.0181)
    assert page.number_input(key="exp_sd").value == pytest.approx(1.1708)
    # oracle: statsmodels' one-sample t power for d = 0.0181 / 1.1708 (two-sided, α = 0.05, 80%) → 32,843 pairs
    from statsmodels.stats.power import TTestPower

    expected = int(np.ceil(TTestPower().solve_power(effect_size=0.0181 / 1.1708, alpha=0.05, power=0.8)))
    assert expected == 32_843
    assert metrics(page)["Pairs needed for 80% power (paired t)"] == f"{expected:,}"
    # an edit the user makes to the planner is kept while the data stay the same
    page.number_input(key="exp_mean").set_value(0.05)
    page.run()
    assert page.number_input(key="exp_mean").value == pytest.approx(0.05)


def test_parsed_uploads_are_kept_in_a_small_cache(page):
    # every distinct upload stayed in a 256-entry cache for the server's lifetime (≈45 MB each for large files)
    import tomllib

    from streamlit.runtime.caching.cache_data_api import _data_caches

    page.radio(key="data").set_value("upload")
    page.run()
    for i in range(5):
        rows = "\n".join(f"{0.5 + 0.01 * j + i},{0.45 + 0.012 * j}" for j in range(30))
        page.file_uploader(key="file").set_value((f"r{i}.csv", f"a,b\n{rows}\n".encode(), "text/csv"))
        page.run()
        assert not page.exception
    caches = [c for scope in _data_caches._function_caches.values() for c in scope.values()]
    kept = [s for c in caches for family in c.get_stats().values() for s in family if s.cache_name.endswith(".parse")]
    assert 1 <= len(kept) <= 2  # one stat per cached entry
    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxCacheDataSize"] == "192mb"  # and all caches together stay bounded


def _long_file(rng, systems=("sysA", "sysB", "sysC"), items=30):
    lines = ["SYS SID RAW.SCR Z.SCR N "]
    scores = {}
    for s_i, system in enumerate(systems):
        for item in range(1, items + 1):
            raw = float(np.round(rng.uniform(20, 95) + 3 * s_i, 1))
            scores[(system, item)] = raw
            lines.append(f"{system} {item} {raw} {raw / 50 - 1:.3f} 1 ")
    return ("\n".join(lines) + "\n").encode(), scores


def test_long_table_is_pivoted_and_the_user_picks_the_systems(page):
    # WMT DA ad-seg-scores shape: one row per system × segment, space-aligned, trailing spaces
    data, scores = _long_file(np.random.default_rng(8))
    page.radio(key="data").set_value("upload")
    page.run()
    page.file_uploader(key="file").set_value(("ad-seg-scores-de-en.csv", data, "text/csv"))
    page.run()
    assert not page.exception
    assert page.radio(key="shape").value == "long"  # guessed from SYS, SID, RAW.SCR
    assert page.selectbox(key="col_score").value == "Z.SCR"
    page.selectbox(key="col_score").set_value("RAW.SCR")
    page.multiselect(key="long_systems").set_value(["sysC", "sysA"])
    page.run()
    assert not page.exception
    assert any("**30** of 30 rows" in s.value and "`sysC`, `sysA`" in s.value for s in page.success)
    # oracle: the differences C − A computed here from the long file
    d = np.array([scores[("sysC", i)] - scores[("sysA", i)] for i in range(1, 31)])
    assert metrics(page)["MDE of the paired t test at 80% power"] == \
        f"{an.paired_t_mde(30, float(d.std(ddof=1))):.4f} score units"


def test_wide_columns_can_be_chosen_and_first_row_is_data(page):
    page.radio(key="data").set_value("upload")
    page.run()
    rng = np.random.default_rng(9)
    rows = "\n".join(f"item{i},{x:.3f},{y:.3f}" for i, (x, y) in enumerate(rng.uniform(0, 1, (12, 2))))
    page.file_uploader(key="file").set_value(("r.csv", f"id,x,y\n{rows}\n".encode(), "text/csv"))
    page.run()
    assert any("not a number" in e.value for e in page.error)  # the first two columns are id and x
    page.selectbox(key="col_a_wide").set_value("y")
    page.selectbox(key="col_b_wide").set_value("x")
    page.run()
    assert not page.exception and not page.error
    assert any("**12** of 12 rows" in s.value and "`y`, `x`" in s.value for s in page.success)
    # a headerless file whose first row holds text is read as data when asked
    page.file_uploader(key="file").set_value(("r.csv", f"{rows}\n".encode(), "text/csv"))
    page.checkbox(key="no_header").check()
    page.run()
    page.selectbox(key="col_a_wide").set_value("column 2")
    page.selectbox(key="col_b_wide").set_value("column 3")
    page.run()
    assert not page.exception
    assert any("**12** of 12 rows" in s.value for s in page.success)


def test_plan_of_the_next_evaluation(page):
    """The page's plan states the planner's number (statsmodels' TTestPower) and the report of this data."""
    from core.plan import plan_text
    from core.analysis import plan as analysis_plan

    from .conftest import open_plan

    assert "Plan this design" in " ".join(e.proto.label for e in page.get("expander"))
    open_plan(page, "analysis")
    assert not page.exception
    text = [c.value for c in page.code if "next evaluation" in c.value][0]
    assert "needs 179 paired units for 80% power" in text  # the metric's 179, checked against statsmodels above
    assert "n = 300" in text  # the report of the uploaded data leads the paragraph
    item = analysis_plan.plan_item(an.NextEvaluation(0.0214, 0.1016), report="", name_a="A", name_b="B",
                                   n_units=300)
    assert dict(item.results)["pairs needed for 80% power"] == "179" and plan_text(item)


def test_google_mqm_segment_scores_with_mixed_separators_open_as_a_long_table(page):
    # Google's MQM newstest2020 avg_seg_scores.tsv: a space-separated header over rows separated by a tab (and a
    # space) or by spaces only; the page reads it, guesses the long shape and compares the two systems
    rng = np.random.default_rng(5)
    lines, scores = ["system mqm_avg_score seg_id"], {}
    for item in range(1, 41):
        for k, system in enumerate(("Human-A.0", "Online-B.1")):
            value = float(np.round(-rng.gamma(1.5, 2.0) - k, 4))
            scores[(system, item)] = value
            sep = "\t " if (item + k) % 3 else " "
            lines.append(f"{system}{sep}{value}{sep}{item}")
    page.radio(key="data").set_value("upload")
    page.run()
    page.file_uploader(key="file").set_value(("mqm_newstest2020_ende.avg_seg_scores.tsv",
                                              ("\n".join(lines) + "\n").encode(), "text/tab-separated-values"))
    page.run()
    assert not page.exception and not page.error
    assert page.radio(key="shape").value == "long"
    assert page.selectbox(key="col_score").value == "mqm_avg_score"
    d = np.array([scores[("Human-A.0", i)] - scores[("Online-B.1", i)] for i in range(1, 41)])
    assert metrics(page)["MDE of the paired t test at 80% power"] == \
        f"{an.paired_t_mde(40, float(d.std(ddof=1))):.4f} score units"


def test_short_tables_are_static_and_formatted_like_the_engine(page):
    # the four short tables are static (no data-grid module on the first visit), numbers to 4 decimals
    # (oracle: the engine's own summary and tests at the page's design)
    assert not page.dataframe
    assert len(page.table) == 4
    data = an.parse_results((SAMPLES / "scores.csv").read_bytes(), "scores")
    summary = an.summarize(data.a, data.b, ("system_a", "system_b"))
    shown = page.table[0].value
    assert list(shown["mean"]) == [f"{x:.4f}" for x in summary["mean"]]
    assert list(shown["n"]) == list(summary["n"])
    from core.analysis.design import AnalysisDesign

    tests = AnalysisDesign().tests(data.a, data.b, ("t",), statistic="mean")
    results = page.table[2].value
    t_row = results[results["Test"] == tests["name"].iloc[0]]
    assert t_row["Estimate"].iloc[0] == f"{tests['estimate'].iloc[0]:.4f}"
    assert t_row["95% CI low"].iloc[0] == f"{tests['ci_low'].iloc[0]:.4f}"
    assert t_row["p ≤ 0.05"].iloc[0] == ("yes" if tests["significant"].iloc[0] else "no")
    assert "—" in set(page.table[3].value["95% CI low"])  # Wilcoxon r has no interval

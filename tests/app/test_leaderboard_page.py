"""AppTest tests of the leaderboard page (pages/leaderboard.py); oracle: core.pairwise (and core.accuracy for K = 2)."""

from __future__ import annotations

import pandas as pd
import pytest

from core import accuracy as acc
from core import pairwise as pw

from .conftest import captions, chart, metrics, open_page, open_pins, open_plan

DEFAULT = pd.Series(pw.evenly_spaced(6, 25.0), index=pw.system_names(6))


@pytest.fixture
def page():
    at = open_page("leaderboard")
    assert not at.exception, at.exception
    return at


def test_defaults_match_core(page):
    res = pw.leaderboard_power(5000, DEFAULT)
    shown = metrics(page)
    assert shown["Weakest neighbours' power"] == f"{100 * res.weakest_power:.1f}%"
    assert shown["Votes for 80% on every pair"] == f"{pw.leaderboard_votes(DEFAULT):,}"
    assert shown["P(whole order right)"] == f"{100 * res.order_correct:.1f}%"
    assert shown["Typical interval"] == f"± {res.typical_halfwidth:.1f} Elo"
    assert chart(page, "board_chart")["data"][0]["type"] == "scatter"


@pytest.mark.parametrize("kind, key, value", [("select_slider", "votes", 20000), ("slider", "k", 8),
                                              ("slider", "gap", 50.0), ("slider", "ties_pct", 20.0),
                                              ("slider", "judge", 80.0)])
def test_each_control_changes_the_leaderboard(page, kind, key, value):
    before = chart(page, "board_chart")["data"]  # estimates and their interval bars
    getattr(page, kind)(key=key).set_value(value)
    page.run()
    assert not page.exception
    assert chart(page, "board_chart")["data"] != before


def test_judge_and_ties_enter_the_numbers(page):
    page.slider(key="ties_pct").set_value(20.0)
    page.slider(key="judge").set_value(80.0)
    page.radio(key="ties").set_value("split")
    page.run()
    res = pw.leaderboard_power(5000, DEFAULT, tie_rate=0.2, ties="split", judge_accuracy=0.8)
    assert metrics(page)["Weakest neighbours' power"] == f"{100 * res.weakest_power:.1f}%"


def test_pairs_view_has_target_line_marker_and_votes_needed():
    page = open_page("leaderboard", {"view": "Neighbours vs votes"})
    fig = chart(page, "pairs_chart")
    assert any(s.get("y0") == 0.8 for s in fig["layout"]["shapes"])
    assert "current design" in [t["name"] for t in fig["data"]]
    assert any(a["text"].startswith("80% on every pair") for a in fig["layout"]["annotations"])


def test_order_and_judge_views():
    page = open_page("leaderboard", {"view": "Whole order vs votes"})
    assert chart(page, "order_chart")["data"]
    page = open_page("leaderboard", {"view": "Votes vs judge accuracy"})
    assert not page.exception and chart(page, "judge_chart")["data"]


def test_two_systems_use_the_exact_preference_engine():
    page = open_page("leaderboard", {"k": "2", "votes": "300"})
    assert not page.exception
    p = pw.win_probability(1200.0, 1175.0)
    exact = acc.preference_power(300, p, 1 - p)
    assert metrics(page)["Weakest neighbours' power"] == f"{100 * exact.power:.1f}%"
    assert any("exact sign test" in i.value for i in page.info)


def test_fit_sample_votes_and_use_them():
    page = open_page("leaderboard", {"view": "Fit your votes"})
    page.radio(key="votes_source").set_value("sample")
    page.run()
    assert not page.exception
    fitted = pw.fit_bradley_terry(pw.read_votes(pw.SAMPLE_VOTES.read_bytes()), n_boot=200, seed=0)
    table = [d.value for d in page.dataframe if "model" in d.value.columns][0]
    assert table["rating"].iloc[0] == pytest.approx(fitted.ratings.iloc[0])
    page.button(key="use_fit").click()
    page.run()
    assert not page.exception
    assert page.radio(key="preset").value == "custom"
    assert len(metrics(page)) >= 4


def test_bad_votes_get_a_message():
    page = open_page("leaderboard", {"view": "Fit your votes"})
    page.file_uploader(key="votes_file").set_value(("v.csv", b"model_a,model_b,winner\na,b,maybe\n", "text/csv"))
    page.run()
    assert not page.exception
    assert page.error


def test_separated_votes_show_no_interval():
    """One vote (a beats b) has no finite Bradley–Terry fit: the table and the chart show no interval, and the captions
    say why (they used to show intervals of zero width)."""
    page = open_page("leaderboard", {"view": "Fit your votes"})
    page.file_uploader(key="votes_file").set_value(("v.csv", b"model_a,model_b,winner\na,b,model_a\n", "text/csv"))
    page.run()
    assert not page.exception
    table = [d.value for d in page.dataframe if "model" in d.value.columns][0]
    assert list(table["model"]) == ["a", "b"] and table[["ci_low", "ci_high", "se"]].isna().all().all()
    assert list(chart(page, "fit_chart")["data"][0]["customdata"]) == ["no interval", "no interval"]
    assert any("No 95% intervals" in c for c in captions(page)) and any("never loses" in c for c in captions(page))


def test_linked_custom_ratings_and_hostile_names():
    page = open_page("leaderboard", {"preset": "my ratings (table)",
                                     "ratings": "%3Cimg%20src%3Dx%3E:1100;B:1050;C:1000"})
    assert not page.exception
    res = pw.leaderboard_power(5000, pd.Series({"<img src=x>": 1100.0, "B": 1050.0, "C": 1000.0}))
    assert metrics(page)["Weakest neighbours' power"] == f"{100 * res.weakest_power:.1f}%"
    names = chart(page, "board_chart")["data"][0]["y"]
    assert "&lt;img src=x&gt;" in names  # escaped for Plotly


def test_simulation_on_demand(page):
    page.toggle(key="simulate").set_value(True)
    page.run()
    page.select_slider(key="sims").set_value(200)
    page.run()
    assert not page.exception
    mc = pw.leaderboard_power(5000, DEFAULT, method="simulate", n_sims=200, seed=2020)
    assert metrics(page)["Simulated P(order right)"] == f"{100 * mc.order_correct:.1f}%"
    assert any("Monte Carlo standard error" in c for c in captions(page))


def test_plan_and_download(page):
    assert "Download the plotted data (CSV)" in [b.proto.label for b in page.get("download_button")]
    assert not page.code  # the plan expander is filled only when opened
    open_plan(page, "leaderboard")
    assert "Download the plan (HTML)" in [b.proto.label for b in page.get("download_button")]
    assert any("Bradley–Terry" in c.value for c in page.code)


def test_pins_compare_designs():
    page = open_page("leaderboard", {"view": "Neighbours vs votes"})
    open_pins(page, "leaderboard")
    page.button(key="leaderboard_pin_add").click()
    page.run()
    page.select_slider(key="votes").set_value(20000)
    page.run()
    assert not page.exception
    names = [t["name"] for t in chart(page, "pairs_chart")["data"]]
    assert any(n.startswith("pinned: 6 systems, 5,000 votes") for n in names)
    table = [d.value for d in page.dataframe if "pin" in d.value.columns][0]
    assert table["weakest_power"].iloc[1] == pytest.approx(pw.leaderboard_power(5000, DEFAULT).weakest_power)


def test_assurance_metric_chart_and_plan():
    page = open_page("leaderboard", {"assure": "true", "gap_sd": "25", "view": "Assurance vs votes"})
    assert not page.exception
    ratings = pd.Series(pw.evenly_spaced(6, 25.0), index=pw.system_names(6))  # the page's default preset
    res = pw.leaderboard_assurance(5000, ratings, 25.0)  # oracle: core (tested against the normal closed form)
    assert metrics(page)["Weakest neighbours' assurance"] == f"{100 * res.min_assurance:.1f}%"
    fig = chart(page, "assurance_chart")
    assert any(a["text"].startswith("ceiling 84%") for a in fig["layout"]["annotations"])  # Φ(25/25)
    open_plan(page, "leaderboard")
    text = [c.value for c in page.code if "Bradley–Terry" in c.value][0]
    assert f"assurance is {100 * res.min_assurance:.0f}%" in text


def test_run_it_sequentially_head_to_head_of_the_closest_neighbours():
    from core import sequential as sq

    at = open_page("leaderboard")
    at.session_state["seq_open"] = True
    at.run()
    assert not at.exception
    text = next(c for c in captions(at) if c.startswith("Per-vote difference"))
    assert "closest neighbours" in text and "+1, −1 or 0" in text
    shown = metrics(at)
    votes = int(shown["Expected votes, group"].split(" of ")[1].replace(",", ""))
    # the planned votes are the fixed head-to-head test's sample size at the target power
    mean = float(text.split("mean ")[1].split(",")[0])
    sd = float(text.split("SD ")[1].split(" ")[0])
    fixed = sq.sequential_power(votes, mean, sd, design="fixed")
    assert fixed.power == pytest.approx(0.8, abs=0.01)
    assert chart(at, "seq_expected_n_chart")["data"]


def test_alpaca_eval_annotations_and_a_mapping_step():
    from pathlib import Path

    alpaca = (Path(__file__).resolve().parents[1] / "data" / "synthetic_alpaca_eval_annotations.json").read_bytes()
    page = open_page("leaderboard", {"view": "Fit your votes"})
    page.file_uploader(key="votes_file").set_value(("annotations.json", alpaca, "application/json"))
    page.run()
    assert not page.exception and not page.error
    votes = pw.read_votes(alpaca)
    fitted = pw.fit_bradley_terry(votes, n_boot=200, seed=0)
    table = [d.value for d in page.dataframe if "model" in d.value.columns][0]
    assert set(table["model"]) == {"gpt4_1106_preview", "synthetic-model"}
    assert table["rating"].iloc[0] == pytest.approx(fitted.ratings.iloc[0])
    assert any("1 annotation without a preference (null) dropped" in c.value.replace("\\", "") for c in page.caption)
    # a table whose header names none of the roles: the page asks which columns hold them
    page.file_uploader(key="votes_file").set_value(("v.csv", b"left,right,outcome\nx,y,model_a\ny,x,model_b\n"
                                                   b"x,y,tie\ny,x,model_a\n", "text/csv"))
    page.run()
    assert not page.exception and any("does not name model_a" in i.value for i in page.info)
    page.selectbox(key="votes_col_model_a").set_value("left")
    page.selectbox(key="votes_col_model_b").set_value("right")
    page.selectbox(key="votes_col_winner").set_value("outcome")
    page.run()
    assert not page.exception and not page.error
    assert any("**4** votes" in m.value for m in page.markdown)


def test_crowded_top_follows_the_number_of_systems():
    """The sidebar's "Close leaders" slider ranges up to the number of systems, a key input in the page's fragment:
    moving it reruns the whole app, so the sidebar and the numbers agree (oracle: core's crowded-top preset)."""
    page = open_page("leaderboard", {"preset": "crowded"})
    assert page.slider(key="leaders").max == 6
    page.slider(key="k").set_value(10).run()
    assert not page.exception
    assert page.slider(key="leaders").max == 10 and page.slider(key="leaders").value == 3
    ratings = pd.Series(pw.crowded_top(10), index=pw.system_names(10))
    assert metrics(page)["Weakest neighbours' power"] == f"{100 * pw.leaderboard_power(5000, ratings).weakest_power:.1f}%"


def test_a_pin_kept_before_the_renames_draws_its_own_design():
    """A pin in a link keeps the ratings table under its session key and may carry ``ties=half`` (now "split"):
    the page reads it with the design, and a bad pin beside it is reported and skipped."""
    from urllib.parse import quote

    ratings = "A:1000;B:1030;C:1045"
    old = "old~" + ",".join(f"{k}={quote(v, safe='')}" for k, v in (
        ("preset", "custom"), ("_ratings_text", ratings), ("votes", "3000"), ("ties", "half"), ("ties_pct", "20")))
    at = open_page("leaderboard", {"pins": old + "|bad~votes=abc"}, timeout=120)
    assert not at.exception
    table = [t.value for t in at.dataframe if "pin" in t.value.columns][0].set_index("pin")
    expected = pw.LeaderboardDesign(preset="custom", ratings=ratings, n=3000, ties="split", tie_pct=20.0).power()
    assert table.loc["old", "systems"] == 3 and table.loc["old", "votes"] == 3000
    assert table.loc["old", "weakest_power"] == pytest.approx(expected.weakest_power)
    assert "bad" not in table.index
    assert any("“bad”" in e.value and "`n`" in e.value for e in at.error)


def test_more_vote_files_in_one_zip_fit_as_the_files_themselves():
    """The optional "more vote files" uploader reads every file of a zip archive as if uploaded one by one
    (core.packed.unpack_all): the fitted table is the plain files' table."""
    import io
    import zipfile

    first = b"model_a,model_b,winner\nx,y,model_a\ny,z,model_b\nx,z,tie\n"
    more = {"round2/votes.csv": b"model_a,model_b,winner\nz,x,model_a\ny,x,model_b\n",
            "round3/votes.csv": b"model_a,model_b,winner\nx,y,model_b\nz,y,model_a\ny,z,tie\n"}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, data in more.items():
            archive.writestr(path, data)
    tables = []
    for extra in ([(p.split("/")[0] + ".csv", d, "text/csv") for p, d in more.items()],
                  [("more.zip", buffer.getvalue(), "application/zip")]):
        page = open_page("leaderboard", {"view": "Fit your votes"})
        page.file_uploader(key="votes_file").set_value(("votes.csv", first, "text/csv"))
        page.file_uploader(key="more_votes").set_value(extra)
        page.run()
        assert not page.exception and not page.error, [e.value for e in page.error]
        assert any("**8** votes" in m.value for m in page.markdown), [m.value for m in page.markdown]
        tables.append([d.value for d in page.dataframe if "model" in d.value.columns][0])
    pd.testing.assert_frame_equal(*tables)

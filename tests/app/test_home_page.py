"""AppTest tests of the home page (app.py's home → pages/_home_page.py): the question cards and their numbers, the
significance-filter chart, "Start from your data" for every kind of file, and presentation mode."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from streamlit.testing.v1 import AppTest

from core import home as hm
from core import pairwise as pw
from pages._registry import PAGES, teaser_of
from pages._scaffold import md_escape
from tests.test_home import BINARY, HARNESS, MT_TSV, PREDICTIONS, SCORES, SYSTEMS, VOTES_CSV, llm_log_csv, pilot_csv

from .conftest import APP, chart, metrics, open_page
from .test_fuzz_pages import HOSTILE_FILES

HARNESS_DIR = Path(hm.__file__).resolve().parent / "data" / "llm_sample" / "harness"
CARD_PAGES = [p.name for p in PAGES if p.question and p.teaser]


def open_home(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    if query:
        at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def home():
    return open_home()


def upload(at: AppTest, name: str, data: bytes, *more: tuple) -> AppTest:
    files = [(name, data, "text/plain")] + [(n, d, "text/plain") for n, d in more]
    at.file_uploader(key="home_file").set_value(files)
    at.run()
    assert not at.exception, at.exception
    return at


def links(at: AppTest) -> list:
    return [(link.proto.page, link.proto.label, dict(parse_qsl(link.proto.query_string)))
            for link in at.get("page_link")]


def test_every_registered_scenario_has_a_card():
    # the questions of the home page: two classifiers, two LLMs, votes, MT, ratings, DA, a running evaluation,
    # results already in hand (the judge page's card appears once that page is registered)
    assert {"accuracy", "llm", "leaderboard", "mt", "ratings", "sequential", "monitor", "analysis"} <= set(CARD_PAGES)


def test_cards_show_their_question_answer_and_link(home):
    text = [m.value for m in home.markdown]
    targets = {page for page, _, _ in links(home)}
    for name in CARD_PAGES:
        info = next(p for p in PAGES if p.name == name)
        answer = teaser_of(name)
        assert f"**{md_escape(info.question)}**" in text
        assert md_escape(answer.answer) in text
        assert name in targets
    assert "Two LLMs on a 1,000-question benchmark: 38% power for a 3-point gain." in " ".join(text)
    assert "Power" in " ".join(text) and "Type-M" in " ".join(text) and "Type-S" in " ".join(text)


def test_a_page_with_a_question_but_no_teaser_gets_no_card(monkeypatch):
    # the cards follow the registry: an entry without a teaser (a page still being written) shows no card
    import dataclasses

    import pages._home_page as home_page

    bare = tuple(dataclasses.replace(p, teaser="") if p.name == "mt" else p for p in home_page.REGISTRY)
    monkeypatch.setattr(home_page, "REGISTRY", bare)
    at = open_home()
    text = " ".join(m.value for m in at.markdown)
    assert md_escape(next(p for p in PAGES if p.name == "mt").question) not in text
    assert "mt" not in {page for page, _, _ in links(at)}
    assert md_escape(teaser_of("llm").answer) in text  # the other cards stay


@pytest.mark.parametrize("name", CARD_PAGES)
def test_each_card_promises_what_its_page_shows_at_its_defaults(name):
    # the teaser's defaults are the page's: the page's own metrics row shows the card's number
    promised = teaser_of(name)
    at = open_page(name)
    assert not at.exception, at.exception
    if name == "analysis":
        assert any(f"**{promised.shown}**" in s.value for s in at.success)
        return
    shown = {label: value for label, value in metrics(at).items() if label.startswith(promised.metric)}
    assert shown, f"no metric {promised.metric!r} on {name}: {metrics(at)}"
    assert list(shown.values())[0] == promised.shown
    if promised.shown.endswith("%"):
        assert f"{100 * promised.value:.0f}%" in promised.answer


def test_filter_chart_highlights_the_significant_studies(home):
    fig = chart(home, "filter_chart")
    points = fig["data"][0]
    colors = points["marker"]["color"]
    assert len(colors) == 400 and "#D55E00" in colors and "#BBBBBB" in colors
    assert any(t.get("name") == "y = x" for t in fig["data"])
    assert "with 25 raters" in fig["layout"]["title"]["text"]


def test_filter_chart_follows_the_raters_slider(home):
    before = sum(c == "#D55E00" for c in chart(home, "filter_chart")["data"][0]["marker"]["color"])
    home.select_slider(key="home_n").set_value(100)
    home.run()
    assert not home.exception
    after = sum(c == "#D55E00" for c in chart(home, "filter_chart")["data"][0]["marker"]["color"])
    assert after > before  # more raters, more significant studies
    assert "with 100 raters" in chart(home, "filter_chart")["layout"]["title"]["text"]


@pytest.mark.parametrize("name, data, page, label", [
    ("samples_gsm8k.jsonl", HARNESS, "llm", "lm-evaluation-harness sample log"),
    ("log.csv", llm_log_csv(), "llm", "per-answer LLM log"),
    ("votes.csv", VOTES_CSV, "leaderboard", "pairwise votes"),
    ("pilot.csv", pilot_csv(), "ratings", "pilot ratings"),
    ("outputs.tsv", MT_TSV, "mt", "MT outputs"),
    ("scores.csv", SCORES, "analysis", "per-item scores"),
    ("binary.csv", BINARY, "analysis", "per-item scores"),
    ("systems.csv", SYSTEMS, "analysis", "per-item scores"),
    ("predictions.csv", PREDICTIONS, "analysis", "per-item predictions and gold labels"),
])
def test_each_kind_of_upload_is_recognised_and_linked(home, name, data, page, label):
    at = upload(home, name, data)
    assert any(f"as **{label}**" in s.value for s in at.success), [s.value for s in at.success]
    expected = hm.read_upload(name, data)
    target = [(p, q) for p, text, q in links(at) if text.startswith("Open ") and p == page]
    assert target, links(at)
    assert target[-1][1] == expected.query
    assert not at.error


def test_fitted_values_arrive_in_the_llm_pages_sliders(home):
    data = llm_log_csv(1)
    upload(home, "log.csv", data)
    query = [q for p, _, q in links(home) if p == "llm" and q][-1]
    at = open_page("llm", query)
    assert not at.exception
    values = dict(hm.read_upload("log.csv", data).values)
    assert at.slider(key="acc_a").value == pytest.approx(values["acc_a"])
    assert at.slider(key="rho").value == pytest.approx(values["rho"])
    assert at.select_slider(key="k").value == values["k"]


def test_fitted_values_arrive_in_the_mt_and_ratings_sliders(home):
    upload(home, "outputs.tsv", MT_TSV)
    query = [q for p, _, q in links(home) if p == "mt" and q][-1]
    at = open_page("mt", query)
    assert not at.exception
    assert at.slider(key="p0").value == pytest.approx(float(query["p0"]))
    assert at.slider(key="b0").value == pytest.approx(float(query["b0"]))
    upload(home, "pilot.csv", pilot_csv())
    query = [q for p, _, q in links(home) if p == "ratings" and q][-1]
    at = open_page("ratings", query)
    assert not at.exception
    assert at.slider(key="sigma").value == pytest.approx(float(query["sigma"]))
    assert at.slider(key="effect").value == pytest.approx(float(query["effect"]))


def test_fitted_ratings_arrive_in_the_leaderboard_table(home):
    upload(home, "votes.csv", VOTES_CSV)
    query = [q for p, _, q in links(home) if p == "leaderboard" and q][-1]
    at = open_page("leaderboard", query)
    assert not at.exception, at.exception
    fitted = pw.fit_bradley_terry(pw.read_votes(VOTES_CSV), n_boot=0, seed=0).ratings
    table = at.session_state["custom_ratings"]
    assert set(map(str, table.index)) == set(map(str, fitted.index))
    for name, rating in fitted.items():
        assert float(table[str(name)]) == pytest.approx(rating, abs=0.05 + 1e-9)


def test_a_harness_file_opens_the_llm_pages_log_tab(home):
    upload(home, "samples_gsm8k.jsonl", HARNESS)
    query = [q for p, _, q in links(home) if p == "llm" and q][-1]
    assert query == {"view": hm.LLM_LOG_TAB}
    at = open_page("llm", query)
    assert not at.exception
    with pytest.raises(AssertionError, match="no chart"):
        chart(at, "power_chart")  # lazy tabs: the default "Power vs questions" tab is not the open one
    assert chart(open_page("llm"), "power_chart")["data"]  # (it is, without the link)


def test_a_gzipped_upload_is_recognised_as_the_file_inside(home):
    """``votes.csv.gz`` links to the leaderboard exactly as ``votes.csv`` does (core.packed.unpack)."""
    import gzip

    at = upload(home, "votes.csv.gz", gzip.compress(VOTES_CSV))
    assert any("as **pairwise votes**" in s.value for s in at.success), [s.value for s in at.success]
    target = [q for p, text, q in links(at) if text.startswith("Open ") and p == "leaderboard"]
    assert target and target[-1] == hm.read_upload("votes.csv", VOTES_CSV).query
    assert not at.error


def test_a_compressed_file_that_unpacks_too_large_gets_a_message(home):
    import gzip

    at = upload(home, "huge.csv.gz", gzip.compress(b"0" * (21 * 2**20)))
    assert any("unpacks to more than 20 MB" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.success


@pytest.mark.parametrize("index", range(len(HOSTILE_FILES)))
def test_hostile_uploads_get_messages_not_tracebacks(home, index):
    at = upload(home, f"upload{index}.txt", HOSTILE_FILES[index])
    assert at.error or at.success  # a message either way
    assert not any("Traceback" in e.value for e in at.error)


def test_two_harness_files_are_fitted_here_and_open_the_llm_page_with_the_values(home):
    base = sorted(HARNESS_DIR.glob("synthetic-baseline/*.jsonl"))[0]
    new = sorted(HARNESS_DIR.glob("synthetic-candidate/*.jsonl"))[0]
    files = [("base.jsonl", base.read_bytes()), ("new.jsonl", new.read_bytes())]
    at = upload(home, *files[0], files[1])
    assert any("as **lm-evaluation-harness sample log**" in s.value for s in at.success)
    expected = hm.read_uploads(files)
    query = [q for p, text, q in links(at) if p == "llm" and "with these values" in text][-1]
    assert query == expected.query and "acc_a" in query
    # the baseline's accuracy: the share of exact matches in its file (read independently of core)
    import json

    records = [json.loads(line) for line in base.read_text().splitlines() if line.strip()]
    chosen = [r for r in records if r.get("filter", "none") == expected.summary.split("filter ")[1].split(")")[0]]
    accuracy = sum(float(r["exact_match"]) for r in chosen) / len(chosen)
    assert float(query["acc_a"]) == pytest.approx(round(200 * accuracy) / 2)
    assert open_page("llm", query).slider(key="acc_a").value == pytest.approx(float(query["acc_a"]))


def test_a_zip_of_the_two_harness_files_links_as_the_two_files(home):
    """A zipped folder of the baseline's and the new model's samples files (core.packed.unpack_all) gives the same
    fit and link as the two files uploaded together; an archive of other files is refused naming them."""
    import io
    import zipfile

    base = sorted(HARNESS_DIR.glob("synthetic-baseline/*.jsonl"))[0]
    new = sorted(HARNESS_DIR.glob("synthetic-candidate/*.jsonl"))[0]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("out/baseline/base.jsonl", base.read_bytes())
        archive.writestr("out/new/new.jsonl", new.read_bytes())
    at = upload(home, "logs.zip", buffer.getvalue())
    expected = hm.read_uploads([("base.jsonl", base.read_bytes()), ("new.jsonl", new.read_bytes())])
    assert [q for p, text, q in links(at) if p == "llm" and "with these values" in text][-1] == expected.query
    assert not at.error
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("votes.csv", VOTES_CSV)
        archive.writestr("scores.csv", SCORES)
    at = upload(home, "both.zip", buffer.getvalue())
    shown = [e.value.replace("\\", "") for e in at.error]  # Markdown escapes, as the page renders them
    assert any("both.zip holds 2 files (votes.csv, scores.csv)" in text for text in shown), shown
    assert not at.success


def test_two_inspect_logs_are_fitted_here_together(home):
    """Two Inspect AI .eval logs uploaded together are read together (as two harness files are) and link to the
    LLM page with core.home.read_uploads' values."""
    from tests.inspect_files import inspect_log

    logs = [(f"{m}.eval", inspect_log(f"openai/{m}", {(i, e): "C" if (i * e + k) % 3 else "I"
                                                       for i in range(1, 31) for e in (1, 2)}))
            for k, m in enumerate(("gpt-a", "gpt-b"))]
    at = upload(home, *logs[0], logs[1])
    assert any("as **Inspect AI log**" in s.value for s in at.success), [s.value for s in at.success]
    query = [q for p, text, q in links(at) if p == "llm" and "with these values" in text][-1]
    assert query == hm.read_uploads(logs).query
    assert any("gpt-a.eval" in s.value and "gpt-b.eval" in s.value for s in at.success)
    assert not at.error


def test_a_new_upload_replaces_the_previous_one(home):
    # a multi-file uploader keeps every file it received; the page reads the newest and lets the others go
    at = upload(home, "a.csv", SCORES, ("votes.csv", VOTES_CSV))
    assert any("votes.csv" in s.value and "pairwise votes" in s.value for s in at.success)
    assert not any("a.csv" in s.value for s in at.success)
    assert [name for name, _ in at.session_state["home_kept"]] == ["votes.csv"]
    assert any("In use: `votes.csv`" in c.value for c in at.caption)
    # the uploader was emptied (a new widget): the next upload replaces the kept file
    at.file_uploader(key="home_file_1").set_value([("p.csv", pilot_csv(), "text/plain")])
    at.run()
    assert not at.exception, at.exception
    assert any("p.csv" in s.value and "pilot ratings" in s.value for s in at.success)
    assert [name for name, _ in at.session_state["home_kept"]] == ["p.csv"]


def test_many_uploads_keep_at_most_two_files(home):
    at = home
    for i in range(6):
        key = "home_file" if i == 0 else f"home_file_{i}"
        at.file_uploader(key=key).set_value([(f"s{i}.csv", SCORES, "text/plain"), (f"t{i}.csv", SCORES, "text/plain")])
        at.run()
        assert not at.exception, at.exception
        assert len(at.session_state["home_kept"]) <= 2
    assert [name for name, _ in at.session_state["home_kept"]] == ["t5.csv"]
    at.button(key="home_clear").click()
    at.run()
    assert at.session_state["home_kept"] == [] and not at.success


def test_fitted_values_are_recorded_as_their_source(home):
    upload(home, "pilot.csv", pilot_csv())
    sources = home.session_state["_sources"]
    assert "fitted from pilot.csv" in sources["sigma"][1]


@pytest.mark.parametrize("name, data", [
    ("notes.txt", b"name,city\nada,london\nalan,wilmslow\n"),
    ("x.jsonl", b'{"foo": 1}\n'),
    ("blob.csv", b"\x00\x01\x02\x03"),
    ("[click](http://evil.example) **bold**.csv", b"name,city\nada,london\n"),
])
def test_unknown_files_get_the_accepted_formats(home, name, data):
    at = upload(home, name, data)
    errors = [e.value for e in at.error]
    assert errors and errors[0].startswith("**Cannot use this file.**")
    outside_code = re.sub(r"`[^`]*`", "", errors[0])  # the file name is shown only as an (inert) code span
    assert "http://evil" not in outside_code and "](" not in outside_code and "**bold**" not in outside_code
    listing = " ".join(m.value for m in at.markdown)
    for kind in hm.UPLOAD_KINDS.values():
        assert kind.label in listing
    assert not at.success


def test_presentation_mode_renders_the_home_page():
    at = open_home({"present": "true"})
    assert at.session_state["present"] is True
    assert chart(at, "filter_chart")["layout"]["font"]["size"] >= 18  # the projector's larger fonts
    text = " ".join(m.value for m in at.markdown)
    assert md_escape(teaser_of("llm").answer) in text


@pytest.mark.parametrize("value", ["1e309", "inf", "abc", "7", "-25", ""])
def test_hostile_links_to_the_home_chart_are_ignored(value):
    at = open_home({"home_n": value})
    assert not at.error
    assert "with 25 raters" in chart(at, "filter_chart")["layout"]["title"]["text"]


def test_a_link_sets_the_home_charts_raters():
    at = open_home({"home_n": "100"})
    assert "with 100 raters" in chart(at, "filter_chart")["layout"]["title"]["text"]


def test_a_tab_with_a_question_of_its_own_gets_a_card_that_opens_the_tab(home):
    # "Do my prompts matter more than my questions?" opens the LLM page's "Prompts and seeds" tab, whose metrics
    # row shows the card's number (the ceiling of one template: Φ(Δ/√(σ²_template)) − … , core.llm.facet_ceiling)
    from pages._registry import VIEW_CARDS

    card = next(v for v in VIEW_CARDS if v.key == "llm_facets")
    promised = teaser_of(card.key)
    text = [m.value for m in home.markdown]
    assert f"**{card.question}**" in text and promised.answer in text
    assert ("llm", {"view": card.view}) in [(p, q) for p, _, q in links(home)]
    at = open_page("llm", {"view": card.view})
    assert not at.exception, at.exception
    assert metrics(at)[promised.metric] == promised.shown
    assert f"{100 * promised.value:.0f}%" in promised.answer

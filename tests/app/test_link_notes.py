"""A link's values that a page cannot use are named under its title (pages._links), never dropped in silence.

Oracles: Streamlit itself decides what a bound widget takes (the value it shows after the run); a link the page's
widgets can show must give no note (every page, its continuous controls each moved one step, and every declared
field written at its default, choices by value), and a refused value must give exactly one note naming it.
"""

from __future__ import annotations

import pytest

from pages._links import _same
from pages._registry import PAGES as REGISTRY, design_classes

from .conftest import open_page

PAGES = tuple(page.name for page in REGISTRY)
HEADLINE = "This link asked for values the page cannot use"


def notes(at) -> list[str]:
    return [w.value for w in at.warning if HEADLINE in w.value]


def test_refused_values_are_named_once_and_escaped():
    at = open_page("monitor", {"target": "-3", "n_max": "abc", "alpha": "0.01", "present": "maybe",
                               "looks": "<b>7</b>"}, timeout=120)
    assert not at.exception, at.exception
    [note] = notes(at)
    # the refused ones, each with what the control takes and what it shows instead
    assert "`target=-3`: **Smallest difference that matters (X)** takes a number from 0.001 to 100" in note
    assert "it shows `0.05`" in note
    assert "`n_max=abc`: **Planned items** takes a whole number from 2 to 1,000,000 items; it shows `1,000`" in note
    assert "`present=maybe`: **Presentation mode** takes `true` or `false`; it shows `false`" in note
    assert "`looks=<b>7</b>`" in note  # user text inside a code span: shown as typed, inert
    # the accepted one is not named, and it was taken
    assert "alpha" not in note
    assert at.session_state["alpha"] == 0.01
    # said once, on the visit the link opened: the next rerun carries what the widgets show
    at.run()
    assert not notes(at)


def test_an_option_the_control_does_not_list_is_named_with_its_options():
    at = open_page("leaderboard", {"ties": "half"}, timeout=120)
    [note] = notes(at)
    assert "`ties=half`: **Ties in the fit** takes one of `dropped`, `split: half a win each`" in note


def test_a_select_sliders_options_are_listed_and_long_lists_elided():
    at = open_page("accuracy", {"alpha": "0.02"}, timeout=120)
    [note] = notes(at)
    assert ("`alpha=0.02`: **Significance level α (two-sided)** takes one of `0.001`, `0.005`, `0.01`, `0.025`, "
            "`0.05`, `0.1`; it shows `0.05`") in note
    at = open_page("sequential", {"budget": "1234"}, timeout=120)
    [note] = notes(at)
    assert ("`budget=1234`: **Planned judgments for the pair** takes one of `200`, `300`, `400`, …, `8000`, "
            "`10000`") in note


def test_a_value_beyond_the_sliders_end_is_named():
    # the slider ends at 99% although the design's valid range is [0, 100]: Streamlit refuses 100
    at = open_page("llm", {"acc_a": "100"}, timeout=120)
    [note] = notes(at)
    assert "`acc_a=100`: **Accuracy of the baseline A (%)** takes a number from 1 to 99 %; it shows `70`" in note


@pytest.mark.parametrize("page, link, asked, takes", [
    # ranges known only on the page: the subset is at most the benchmark, the close leaders at most the systems
    ("llm", {"view": "Run a subset instead", "sub_total": "1000", "sub_m": "5000"}, "`sub_m=5000`",
     "from 1 to 1,000 items"),
    ("leaderboard", {"preset": "crowded", "k": "6", "leaders": "9"}, "`leaders=9`", "from 2 to 6 systems"),
    # the replay slider ends at the run's length (the sample: 300 items); it had been "this control takes another
    # value"
    ("monitor", {"upto": "5000"}, "`upto=5000`", "**Items so far (replay the run)** takes a whole number from 2 to "
     "300 items"),
])
def test_a_range_known_only_on_the_page_is_the_one_named(page, link, asked, takes):
    at = open_page(page, link)
    assert not at.exception, at.exception
    [note] = notes(at)
    assert asked in note and takes in note, note


@pytest.mark.parametrize("page, link, said", [
    # controls no design declares are named, with their ranges or options (they read "this control takes another
    # value")
    ("demo", {"demo_seed": "-4", "demo_p": "95", "demo_n": "33"},
     ("**Replay seed** takes a whole number from 0 to 2,147,483,647",
      "**Raters who truly prefer the new system** takes a number from 51 to 80 %", "**Raters per experiment** takes")),
    ("sequential", {"protocol": "zzz"}, ("**Protocol** takes one of", "`MQM (≤ 0, error-weighted)`")),
])
def test_controls_no_design_declares_are_named(page, link, said):
    at = open_page(page, link, timeout=120)
    assert not at.exception, at.exception
    [note] = notes(at)
    for text in said:
        assert text in note, note
    assert "this control" not in note


def test_controls_in_a_box_opened_later_say_what_they_could_not_take():
    # "Run it sequentially" fills its box when opened, after the link was checked
    at = open_page("llm", {"seq_looks": "99", "seq_boundary": "zzz"})
    assert not notes(at) and not [w for w in at.warning if "This link asked for" in w.value]
    at.session_state["seq_open"] = True
    at.run()
    assert not at.exception, at.exception
    said = " ".join(w.value for w in at.warning if "This link asked for" in w.value)
    assert "`seq_looks=99`: **Planned looks K (group design)** takes a whole number from 2 to 10" in said, said
    assert "`seq_boundary=zzz`: **Group boundary** takes one of `Pocock`" in said, said


@pytest.mark.parametrize("page", PAGES)
def test_defaults_written_out_give_no_note(page):
    """Every declared field at its default, as the design writes it (choices by value): all taken silently."""
    query = {}
    for info in REGISTRY:
        if info.name == page:
            for cls in design_classes(info):
                query.update(cls().to_params())
    at = open_page(page, query, timeout=120)
    assert not at.exception, at.exception
    assert not notes(at), notes(at)


@pytest.mark.parametrize("page", [p for p in PAGES if p != "plan"])  # the plan basket has no slider or number box
def test_continuous_controls_moved_one_step_give_no_note(page):
    """Each slider and number box of the page moved one step inside its ends, all in one link: every value is taken
    (the widgets show them) and nothing is reported."""
    at = open_page(page, timeout=120)
    query, expected = {}, {}
    for widget in list(at.slider) + list(at.number_input):
        bound = getattr(widget.proto, "query_param_key", "")  # widgets the link can set
        if not bound or widget.key == "present" or isinstance(widget.value, (tuple, list)):
            continue
        if widget.value is None:
            continue
        lo = -float("inf") if widget.min is None else widget.min
        hi = float("inf") if widget.max is None else widget.max
        step = widget.step or 1
        value = widget.value + step if widget.value + step <= hi else widget.value - step
        if not lo <= value <= hi:
            continue
        value = round(value, 9)
        query[widget.key] = f"{value:g}" if isinstance(value, float) else str(value)
        expected[widget.key] = value
    assert query, f"{page}: no bound slider or number box found"
    moved = open_page(page, query, timeout=120)
    assert not moved.exception, moved.exception
    assert not notes(moved), (query, notes(moved))
    for key, value in expected.items():
        if key in moved.session_state:
            assert moved.session_state[key] == pytest.approx(value), key


@pytest.mark.parametrize("text, value, same", [
    ("0.8", 0.8, True), ("0.80", 0.8, True), ("2", 2.0, True), ("1e3", 1000, True), ("0.81", 0.8, False),
    ("TRUE", True, True), ("true", False, False), ("1", True, False),
    ("split", "split", True), ("Split", "split", False), (["a", "b"], ["a", "b"], True), (["a"], ["a", "b"], False),
    ("abc", 1000, False), ("nan", 0.5, False),
])
def test_same_reads_numbers_by_value_and_flags_in_any_case(text, value, same):
    assert _same(text, value) is same


def _home_uploads():
    from core import home
    from tests.test_home import HUMANEVAL, MT_TSV, VOTES_CSV, llm_log_csv, pilot_csv

    files = [("log.csv", llm_log_csv(1)), ("votes.csv", VOTES_CSV), ("pilot.csv", pilot_csv(2)),
             ("outputs.tsv", MT_TSV), ("mqm_synthetic.tsv", (HUMANEVAL / "mqm_synthetic.tsv").read_bytes())]
    return [(name, home.read_upload(name, data)) for name, data in files]


@pytest.mark.parametrize("name, upload", _home_uploads(), ids=lambda x: x if isinstance(x, str) else "")
def test_the_home_pages_upload_links_give_no_note(name, upload):
    """"Start from your data" hands a page values fitted from a file, rounded and clipped to its widgets: every one
    is taken (no note) and the widgets show them."""
    at = open_page(upload.page, dict(upload.query), timeout=120)
    assert not at.exception, at.exception
    assert not notes(at), (name, upload.query, notes(at))
    for key, value in dict(upload.values).items():
        if key in at.session_state and isinstance(value, (int, float)) and not isinstance(value, bool):
            assert at.session_state[key] == pytest.approx(value, abs=1e-9), key

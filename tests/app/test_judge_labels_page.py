"""AppTest tests of the Judge page's "Which items to label" and "Labels per item" tabs; oracle: core.judge."""

from __future__ import annotations

import pytest

from core import figures
from core import judge as jg

from .conftest import chart, chart_data, metrics, open_page, open_plan

ACTIVE = {"view": "Which items to label"}
LABELS = {"view": "Labels per item"}


def test_active_defaults_match_core():
    at = open_page("judge", ACTIVE)
    assert not at.exception, at.exception
    f = jg.beta_confidences(0.5, 0.5, 1000)
    shown = metrics(at)
    for label, policy in (("SE, human labels only", "human"), ("SE, uniform labels (PPI)", "uniform"),
                          ("SE, active labels", "active")):
        assert shown[label] == f"{100 * jg.active_se(f, 100, policy=policy):.2f} pts"  # a label rate: points
    assert shown["Active labels for the target SE"] == f"{jg.active_labels_for_se(f, 0.03):,}"
    fig = chart(at, "active_chart")
    names = [t["name"] for t in fig["data"]]
    assert "current design" in names and "judge + active labels" in names and "human labels only" in names
    marker = fig["data"][names.index("current design")]
    assert marker["x"] == [100] and marker["y"][0] == pytest.approx(jg.active_se(f, 100))
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download the item list (CSV)" in labels and "Download the plotted data (CSV)" in labels


def test_active_link_inputs_and_controls():
    at = open_page("judge", {**ACTIVE, "al_a": "2.0", "al_b": "1.0", "al_items": "500", "al_n": "50",
                             "al_share": "0.2", "al_target": "0.05"})
    assert not at.exception, at.exception
    f = jg.beta_confidences(2.0, 1.0, 500)
    assert metrics(at)["SE, active labels"] == f"{100 * jg.active_se(f, 50, min_share=0.2):.2f} pts"
    before = chart_data(at, "active_chart")
    at.number_input(key="al_n").set_value(80)
    at.run()
    assert not at.exception
    assert chart_data(at, "active_chart") != before


def test_a_link_asking_for_more_labels_than_items_is_told_the_pools_range():
    """The labels' upper end is the pool's size, known only on the page: a link's note names that range (it named the
    declared 1 to 2,000,000), and a link inside it is taken."""
    at = open_page("judge", {**ACTIVE, "al_items": "400", "al_n": "5000"})
    assert not at.exception, at.exception
    notes = [w.value for w in at.warning if "This link asked for" in w.value]
    assert len(notes) == 1 and "`al_n=5000`" in notes[0] and "from 1 to 400 labels" in notes[0], notes
    assert at.number_input(key="al_n").value == 100
    at = open_page("judge", {**ACTIVE, "al_items": "400", "al_n": "400"})
    assert at.number_input(key="al_n").value == 400
    assert not [w for w in at.warning if "This link asked for" in w.value]


def test_active_from_the_calibration_sample():
    at = open_page("judge", {**ACTIVE, "al_source": "calibration file"})
    assert any("Calibrate from your labels" in i.value for i in at.info)  # nothing uploaded yet
    at.radio(key="cal_source").set_value("sample")
    at.run()
    assert not at.exception, at.exception
    cal = jg.sample_calibration()
    f = jg.calibrated_confidence(cal["human"], cal["judge"])
    assert metrics(at)["SE, active labels"] == f"{100 * jg.active_se(f, 100):.2f} pts"


def test_a_link_asking_for_more_labels_than_a_calibration_file_has_items_is_told_once_the_file_is_there():
    """The pool's size is known only once the calibration file is chosen — after the link was checked: the note
    comes under the control then, naming the file's range, not the declared one."""
    n_items = len(jg.sample_calibration())
    at = open_page("judge", {**ACTIVE, "al_source": "calibration file", "al_n": str(n_items + 5000)})
    assert not [w for w in at.warning if "This link asked for" in w.value]  # no pool yet: nothing to say
    at.radio(key="cal_source").set_value("sample")
    at.run()
    assert not at.exception, at.exception
    notes = [w.value for w in at.warning if "This link asked for" in w.value]
    assert len(notes) == 1 and f"`al_n={n_items + 5000}`" in notes[0], notes
    assert f"from 1 to {n_items:,} labels" in notes[0] and "it shows `100`" in notes[0], notes
    assert at.number_input(key="al_n").value == 100
    at.number_input(key="al_n").set_value(80)  # once the control exists, nothing more is said
    at.run()
    assert not [w for w in at.warning if "This link asked for" in w.value]
    # a link inside the file's range is taken, silently
    at = open_page("judge", {**ACTIVE, "al_source": "calibration file", "al_n": "60"})
    at.radio(key="cal_source").set_value("sample")
    at.run()
    assert at.number_input(key="al_n").value == 60
    assert not [w for w in at.warning if "This link asked for" in w.value]


def test_active_plan_and_presentation():
    at = open_page("judge", ACTIVE)
    at.toggle(key="present").set_value(True)  # the frame's toggle
    at.run()
    assert chart(at, "active_chart")["layout"]["height"] == figures.PRESENTATION.height
    at = open_plan(at, "judge_active")
    assert not at.exception, at.exception
    assert any("active inverse-probability-weighted estimator" in c.value for c in at.code)
    assert "Download the plan (HTML)" in [b.proto.label for b in at.get("download_button")]


def test_labels_defaults_match_core_and_link_from_agreement():
    at = open_page("judge", LABELS)
    assert not at.exception, at.exception
    plan = jg.labels_per_item(0.08, 0.04, kappa=0.6)
    shown = metrics(at)
    row = plan.table.set_index("labels").loc[plan.best]
    assert shown["Labels per item"] == str(plan.best)
    assert shown["Items (best)"] == f"{int(row['items']):,}"
    assert shown["Annotator error rate"] == f"{plan.annotator_error:.3f}"
    assert shown["Break-even item cost"] == f"USD {plan.break_even_cost_item:,.2f}"
    fig = chart(at, "labels_chart")
    assert "current design" in [t["name"] for t in fig["data"]]
    agreement = open_page("judge", {"view": "Agreement study"})
    links = agreement.get("page_link")
    assert any("Labels per item" in link.proto.label for link in links)


def test_labels_costly_items_favour_majority_votes():
    at = open_page("judge", {**LABELS, "lp_c_item": "20.0", "lp_kappa": "0.4"})
    assert not at.exception, at.exception
    plan = jg.labels_per_item(0.08, 0.04, kappa=0.4, cost_item=20.0)
    assert plan.best > 1
    assert metrics(at)["Labels per item"] == str(plan.best)
    at = open_plan(at, "judge_labels")
    assert any("Dorner & Hardt" in c.value for c in at.code)


JUNK_KEYS = {"al_source": "x", "al_a": "inf", "al_b": "-1", "al_items": "1e308", "al_n": "nan", "al_share": "2",
             "al_target": "abc", "al_seed": "-5", "lp_p10": "1e308", "lp_p01": "nan", "lp_kappa": "-1",
             "lp_prev": "inf", "lp_c_item": "-1", "lp_c_label": "0", "lp_max": "4"}


@pytest.mark.parametrize("view", [ACTIVE, LABELS])
def test_junk_links_and_extremes_never_crash(view):
    from .test_fuzz_pages import assert_clean

    at = open_page("judge", {**view, **JUNK_KEYS})
    assert_clean(at, f"junk {view}")
    extremes = ([("slider", "al_a", (0.1, 10.0)), ("slider", "al_b", (0.1, 10.0)), ("number_input", "al_items", (10, 200_000)),
                 ("slider", "al_share", (0.0, 1.0)), ("slider", "al_target", (0.002, 0.1))] if view is ACTIVE else
                [("slider", "lp_p10", (0.5, 40.0)), ("slider", "lp_p01", (0.5, 40.0)), ("slider", "lp_kappa", (0.05, 1.0)),
                 ("slider", "lp_prev", (0.05, 0.95)), ("number_input", "lp_c_item", (0.0, 10_000.0))])
    at = open_page("judge", view)
    for (k1, key1, ends1), (k2, key2, ends2) in list(zip(extremes, extremes[1:] + extremes[:1])):
        for v1, v2 in ((ends1[0], ends2[1]), (ends1[1], ends2[0]), (ends1[1], ends2[1])):
            getattr(at, k1)(key=key1).set_value(v1)
            getattr(at, k2)(key=key2).set_value(v2)
            at.run(timeout=120)
            assert_clean(at, f"{key1}={v1}, {key2}={v2}")

"""AppTest tests of the lab-meeting demo (pages/demo.py) and of presentation mode."""

from __future__ import annotations

import pytest

from core import demo, figures

from .conftest import chart, metrics, open_page


@pytest.mark.parametrize("step", ["1", "2", "3", "4", "5"])
def test_every_step_renders(step):
    page = open_page("demo", {"step": step})
    assert not page.exception
    assert page.segmented_control(key="step").value == int(step)


def test_step_three_numbers_come_from_the_replay_and_the_exact_engine():
    page = open_page("demo", {"step": "3"})
    rep = demo.replay_experiments(25, 0.6, n_experiments=200, seed=2020)
    final = demo.running_summary(rep).iloc[-1]
    shown = metrics(page)
    assert shown["Significant"] == f"{int(final['significant'])} of 200"
    assert shown["Exaggeration"] == f"{final['type_m']:.2f}×"
    fig = chart(page, "replay_chart_3")
    assert len(fig["frames"]) == 50 and fig["frames"][-1]["name"] == "200"


def test_next_and_previous_move_the_step():
    page = open_page("demo")
    page.button(key="next").click()
    page.run()
    assert page.segmented_control(key="step").value == 2
    page.button(key="prev").click()
    page.run()
    assert page.segmented_control(key="step").value == 1


def test_last_step_links_to_the_planning_page():
    page = open_page("demo", {"step": "5"})
    assert metrics(page)["Raters for 80% power"] == f"{demo.replay_experiments(25, 0.6).n_for_target:,}"


def test_presentation_mode_enlarges_charts_and_hides_captions():
    normal = open_page("accuracy")
    big = open_page("accuracy")
    big.toggle(key="present").set_value(True)  # the frame's toggle (a link's ?present=true sets it on first load)
    big.run()
    assert chart(big, "power_chart")["layout"]["height"] == figures.PRESENTATION.height
    assert chart(normal, "power_chart")["layout"]["height"] == figures.STYLE.height
    assert chart(big, "power_chart")["layout"]["font"]["size"] > chart(normal, "power_chart")["layout"]["font"]["size"]
    assert len(big.caption) < len(normal.caption)
    assert "simulate" not in [t.key for t in big.toggle]  # a secondary control, hidden on the projector

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


def test_the_demo_comparison_can_be_filed_as_a_plan():
    """The plan states the exact engine's numbers for the demo's n and preference (Card et al. 2020, Figure 1)."""
    from core import accuracy as acc

    from .conftest import open_page, open_plan

    at = open_plan(open_page("demo", {"demo_n": "25", "demo_p": "60.0"}), "demo")
    assert not at.exception, at.exception
    power = acc.preference_power(25, 0.6, 0.4)
    text = [c.value for c in at.code if "raters" in c.value][0]
    assert f"has {100 * power.power:.0f}% power" in text
    first = acc.preference_sample_sizes(0.6, 0.4).first
    assert f"takes n = {first:,}" in text

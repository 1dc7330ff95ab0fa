"""A slider move redraws few elements: a page's views are one switcher whose hidden views are never computed, and
the pins panel and the explanation are filled only when opened (``pages._show.views``, ``pages._show.explain``,
``pages._pins.pin_controls``). Oracle: the elements AppTest receives, and the same page with the block opened."""

from __future__ import annotations

import json

from .conftest import open_page, open_pins


def _chart_keys(at) -> set[str]:
    return {e.proto.id.rsplit("-", 1)[-1] for e in at.get("plotly_chart")}


def test_one_switcher_and_only_the_chosen_view_is_computed():
    at = open_page("accuracy")
    switchers = at.get("button_group")
    assert len(switchers) == 1 and not at.get("tab")
    assert list(switchers[0].proto.options[i].content for i in range(3)) == [
        "Power vs n", "Assurance vs n", "Exaggeration (Type-M / Type-S)"]
    assert "power_chart" in _chart_keys(at) and "assurance_chart" not in _chart_keys(at)
    other = open_page("accuracy", {"view": "Exaggeration (Type-M / Type-S)"})
    assert {"type_m_chart", "type_s_chart"} <= _chart_keys(other) and "power_chart" not in _chart_keys(other)
    # the same numbers whichever view is open: the metrics row does not depend on the view
    assert [m.value for m in at.metric] == [m.value for m in other.metric]


def test_a_link_to_an_unknown_view_opens_the_first_one():
    at = open_page("accuracy", {"view": "no such view"})
    assert not at.exception
    assert "power_chart" in _chart_keys(at)


def test_the_explanation_is_sent_only_when_opened():
    at = open_page("llm")
    closed = " ".join(m.value for m in at.markdown)
    assert "Explain this page in plain language" in [e.label for e in at.expander]
    assert "--limit" not in closed
    at.session_state["explain_open"] = True
    at.run()
    assert "--limit" in " ".join(m.value for m in at.markdown)


def test_the_pins_panel_is_filled_only_when_opened_and_pins_still_draw():
    at = open_page("accuracy")
    assert not [w for w in at.text_input if w.key == "accuracy_pin_name"]
    open_pins(at, "accuracy")
    at.text_input(key="accuracy_pin_name").set_value("first")
    at.button(key="accuracy_pin_add").click()
    at.run()
    at.session_state["accuracy_pins_open"] = False
    at.run()
    assert not [w for w in at.text_input if w.key == "accuracy_pin_name"]
    spec = next(json.loads(e.proto.spec) for e in at.get("plotly_chart") if e.proto.id.endswith("-power_chart"))
    assert "pinned: first" in [t.get("name") for t in spec["data"]]  # a closed panel keeps its pins on the chart


def test_the_plan_is_built_only_when_its_block_is_opened(monkeypatch):
    """A plan's prose and figures are built when its block opens, not on every slider move (the page passes
    ``pages._plans.plan_actions`` a function); opened, the block shows the same plan as the core builds."""
    from core.claims import plan as claims_plan

    from .conftest import open_plan

    built = []
    real = claims_plan.plan_item
    monkeypatch.setattr(claims_plan, "plan_item", lambda *a, **k: built.append(1) or real(*a, **k))
    at = open_page("claims")
    at.slider(key="rho").set_value(0.3).run()
    assert not at.exception and built == []
    open_plan(at, "claims")
    assert not at.exception and built
    assert any("Holm" in c.value for c in at.code)

"""Shared fixtures for AppTest page tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "app.py"

# Tests see full error details (the app itself shows only the type to users, see .streamlit/config.toml).
st.config.set_option("client.showErrorDetails", "full")


@pytest.fixture(autouse=True)
def clear_cache():
    """Each test starts with cold caches, so cached results never hide a bug."""
    from pages._scaffold import clear_simulations

    st.cache_data.clear()
    clear_simulations()
    yield
    st.cache_data.clear()
    clear_simulations()


def open_page(page: str, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """Run the app, switch to ``pages/<page>.py`` (optionally with URL parameters)."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.run()
    at.switch_page(f"pages/{page}.py")
    if query:
        at.query_params.update(query)
    at.run()
    return at


def open_plan(at: AppTest, key: str) -> AppTest:
    """Open the page's plan expander (it is filled only when open: ``pages._scaffold.plan_actions``)."""
    at.session_state[f"{key}_open"] = True
    at.run()
    return at


def open_pins(at: AppTest, page: str) -> AppTest:
    """Open the page's pinned-designs panel (filled only when open: ``pages._pins.pin_controls``)."""
    at.session_state[f"{page}_pins_open"] = True
    at.run()
    return at


def chart(at: AppTest, key: str) -> dict:
    """The Plotly figure (data + layout) of the chart with the given widget key."""
    for element in at.get("plotly_chart"):
        if element.proto.id.endswith(f"-{key}"):
            return json.loads(element.proto.spec)
    raise AssertionError(f"no chart with key {key!r}")


def chart_data(at: AppTest, key: str) -> list:
    """Just the traces' x/y data, for before/after comparisons."""
    return [(t.get("name"), t.get("x"), t.get("y")) for t in chart(at, key)["data"]]


def decode(values) -> list:
    """A trace's data array as a list: Plotly sends numeric arrays base64-encoded (``{dtype, bdata}``)."""
    if isinstance(values, dict) and "bdata" in values:
        import base64

        import numpy as np

        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def captions(at: AppTest) -> list[str]:
    """Texts of every st.caption on the page (standard errors are shown there)."""
    return [c.value for c in at.caption]

"""Shared UI helpers for the scenario pages (Streamlit only; no statistics here)."""

from __future__ import annotations

import math

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

__all__ = ["ensure_frame", "apply_values", "fmt_pct", "metric"]


def ensure_frame() -> None:
    """Run the page inside app.py's frame even when a deep link is the first request.

    Before any session has run app.py, Streamlit falls back to its legacy
    pages/-folder mode for a URL such as /accuracy, which would skip the
    frame (page config, navigation); hand over to app.py instead.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def apply_values(values: dict) -> None:
    """Callback: put preset or fitted values into bound widgets (via session state)."""
    for key, value in values.items():
        st.session_state[key] = value


def fmt_pct(x, digits: int = 1) -> str:
    """A probability as a percentage, or an em dash when undefined."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def metric(column, label: str, value: str, *, se: str | None = None, help: str | None = None) -> None:
    """A metric whose Monte Carlo standard error sits on its own line (keeps the value readable on a projector)."""
    column.metric(label, value, help=help)
    if se:
        column.caption(f"± {se} (Monte Carlo standard error)")

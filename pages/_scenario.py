"""The shared page functions of a scenario: controls from a design's declared fields, and the standard answer of
a power question (metrics row, verdict, power curve, CSV) computed from the design alone.

A design that follows the contract of :mod:`core.design` — declared fields plus ``power(n)`` (a
:class:`core.results.PowerResult`), ``sample_sizes(target_power=…)`` (a :class:`core.sizing.SampleSize`) and
``curves(ns)`` (a tidy frame with columns ``n`` and ``power``) — gets a working page from these two calls::

    design = design_controls(MyDesign, key_fields=("delta", "n"))
    power_answer(design, n=design.n, unit="items", effect=design.delta)

The scenario pages add their own tabs around the same blocks; ``tests/app/test_minimal_scenario.py`` renders a
scenario built from a design alone this way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core.plan.text import fmt_pct, fmt_ratio
from pages._fields import field_input
from pages._frame import cached, key_inputs, style
from pages._show import Metric, chart, download_csv, guard, metrics_row, sample_size_metric, verdict

__all__ = ["design_controls", "power_answer", "size_grid"]


def design_controls(cls, *, key_fields: Sequence[str], options: Mapping[str, Mapping] | None = None,
                    heading: str = "Assumptions", **fixed):
    """The design's widgets — ``key_fields`` (2–4) in the main area above the first chart, every other declared
    field in the sidebar under ``heading`` — read into one design (checked; a refusal is a message, not a traceback).
    ``fixed`` fields get no widget."""
    options = options or {}
    columns = key_inputs(len(key_fields)) if key_fields else []
    places = dict(zip(key_fields, columns))
    values = dict(fixed)
    rest = [f for f in cls.fields() if f.name not in places and f.name not in fixed]
    for f in cls.fields():
        if f.name in places:
            values[f.name] = field_input(cls, f.name, places[f.name], **options.get(f.name, {}))
    if rest:
        st.sidebar.subheader(heading)
    for f in rest:
        values[f.name] = field_input(cls, f.name, st.sidebar, **options.get(f.name, {}))
    with guard("Cannot build this design"):
        return cls(**values)


def size_grid(n: int, *, low: int = 2, points: int = 60) -> np.ndarray:
    """Sizes for a power curve: log-spaced from ``low`` to well past ``n`` (whole numbers, ``n`` included)."""
    high = max(10 * n, low + 10)
    grid = np.unique(np.round(np.geomspace(low, high, points)).astype(int))
    return np.unique(np.append(grid, int(n)))


@cached
def _answer(design, n: int, target_power: float):
    result = design.power(n)
    sizes = design.sample_sizes(target_power=target_power)
    curve = design.curves(size_grid(n))
    return result, sizes, curve


def power_answer(design, *, n: int, unit: str, effect: float, target_power: float = 0.8, what: str = "",
                 key: str = "power") -> tuple:
    """Metrics row (power at ``n`` with its unit and condition, Type-M, the size for ``target_power``), the verdict,
    the power curve with the target line and a marker at the current design, and its CSV — one cached call."""
    with guard():
        result, sizes, curve = _answer(design, int(n), float(target_power))
    metrics_row(
        Metric(f"Power at {int(n):,} {unit}", fmt_pct(result.power),
               help="P(significant, in the true direction) for this design."),
        Metric("Type-M (exaggeration)", fmt_ratio(result.type_m) if math.isfinite(result.type_m) else "—",
               help="How much a significant result overstates the true effect on average (Gelman & Carlin 2014)."),
        sample_size_metric(sizes, target_power, unit=unit),
    )
    verdict(result.power, target_power, effect=effect, type_m=result.type_m, what=what)
    frame = curve.assign(design="this design")
    fig = figures.curve_figure(frame, x="n", y="power", color="design", current=(int(n), result.power),
                               target=target_power, x_title=unit.capitalize(), y_title="Power", style=style())
    chart(fig, f"{key}_chart")
    download_csv(pd.DataFrame(curve), f"{key}_curve.csv", key=f"{key}_csv")
    return result, sizes, curve

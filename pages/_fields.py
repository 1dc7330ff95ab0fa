"""Widgets built from a design's declared fields (:mod:`core.design`): one place for label, range, step, unit,
help and URL key, so a page never repeats a default or a bound.

>>> d = read_design(BenchmarkDesign, {"accuracy_a": top[0], "accuracy_b": top[1]}, side)  # doctest: +SKIP

Every widget is bound to the URL under the field's key (``bind="query-params"``), so links and the design's
:meth:`~core.design.Design.to_params` speak the same names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import streamlit as st

from core.design import Field

__all__ = ["field_input", "read_design", "field_help"]


def field_help(f: Field, extra: str = "") -> str:
    """The widget's help: the field's help, its unit and its valid range."""
    parts = [f.help or f.label]
    if f.kind in ("float", "int") and (f.low is not None or f.high is not None):
        unit = f" {f.unit}" if f.unit and f.scale == 1.0 else ""
        shown = f.scale == 1.0 and f.ui_low is None and f.ui_high is None
        # the widget's own ends (a slider may be narrower than the valid range), in the units it shows
        parts.append(f"Range {f.range_text()}{unit}." if shown else
                     f"Range {f.widget_range_text()}{f' {f.unit}' if f.unit else ''}.")
    if extra:
        parts.append(extra)
    return " ".join(p for p in parts if p)


def field_input(design, name: str, container=None, *, widget: str | None = None, options=None,
                format_func: Callable | None = None, label: str | None = None, help: str | None = None,
                default=None, **extra):
    """The widget of a declared field; returns the field's value (in the design's units, checked).

    ``widget``: ``"slider"``, ``"number"``, ``"select_slider"``, ``"radio"``, ``"selectbox"`` or ``"toggle"``
    (default: number input for numbers, radio for choices, toggle for flags). ``options`` are a select slider's
    values (field units); ``default`` overrides the declared default for this page (e.g. a data-driven start).
    """
    f = design.field(name) if hasattr(design, "field") else design
    box = container or st.sidebar
    start = f.default if default is None else default
    label = label or (f"{f.label} ({f.unit})" if f.unit and f.unit.lower() not in f.label.lower() else f.label)
    common = dict(key=f.key, bind="query-params", help=help if help is not None else field_help(f), **extra)
    if f.kind == "bool":
        return f.check(bool(box.toggle(label, value=bool(start), **common)))
    if f.kind == "choice":
        kind = widget or "radio"
        choices = list(f.choices)
        fn = format_func or str
        if kind == "select_slider":
            value = box.select_slider(label, options=choices, value=start, format_func=fn, **common)
        elif kind == "selectbox":
            value = box.selectbox(label, choices, index=choices.index(start), format_func=fn, **common)
        else:
            value = box.radio(label, choices, index=choices.index(start), format_func=fn, **common)
        return f.check(value)
    kind = widget or "number"
    if kind == "select_slider":
        shown = [f.to_widget(v) for v in (options if options is not None else f.choices)]
        value = box.select_slider(label, options=shown, value=f.to_widget(start), format_func=format_func or str,
                                  **common)
        return f.from_widget(value)
    lo, hi, step = f.widget_low, f.widget_high, f.widget_step
    if f.kind == "float":
        lo, hi = (None if v is None else float(v) for v in (lo, hi))
        step = None if step is None else float(step)
    value = f.to_widget(start)
    if kind == "slider":
        value = box.slider(label, min_value=lo, max_value=hi, value=value, step=step, format=f.fmt, **common)
    else:
        value = box.number_input(label, min_value=lo, max_value=hi, value=value, step=step, format=f.fmt, **common)
    return f.from_widget(value)


def read_design(cls, places: Mapping[str, object] | None = None, container=None, *,
                options: Mapping[str, Mapping] | None = None, **fixed):
    """One design from its fields' widgets: ``places`` puts some fields' widgets in given containers (the key
    inputs), the rest go to ``container`` (the assumptions panel); ``fixed`` fields get no widget; ``options``
    passes per-field keyword arguments to :func:`field_input`."""
    places = places or {}
    options = options or {}
    values = dict(fixed)
    for f in cls.fields():
        if f.name in fixed:
            continue
        values[f.name] = field_input(cls, f.name, places.get(f.name, container), **options.get(f.name, {}))
    return cls(**values)

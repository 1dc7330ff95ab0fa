"""Pinned designs: kept for comparison across reruns, carried in ``?pins=``, drawn dashed beside the current one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from pages._show import guard

__all__ = ['Pin', 'pin_controls', 'pinned_designs', 'pinned_curve', 'pins_table', 'pin_columns']


@dataclass(frozen=True)
class Pin:
    """A design kept for comparison: a name and the values of the page's design widgets (as text)."""

    name: str
    values: tuple

    def get(self, key: str, default=None):
        return dict(self.values).get(key, default)

    def design(self, cls, *, renamed: Mapping[str, str] | None = None):
        """This pin's design, read by ``cls.from_params`` from its link text (``renamed``: keys an older pin kept
        under another name). A pin is a saved design, so a value the design refuses is reported with the pin's
        name (:func:`pinned_designs` then skips the pin); it is never drawn with a default in its place."""
        values = dict(self.values)
        for old, new in (renamed or {}).items():
            if old in values:
                values.setdefault(new, values.pop(old))
        notes: list[str] = []
        design = cls.from_params(values, messages=notes)
        if notes:
            raise ValueError("A value in the pin is out of range or not a number: "
                             + "; ".join(note.split("; the default")[0] for note in notes) + ".")
        return design


def _encode_pins(pins: list) -> str:
    from urllib.parse import quote

    return "|".join(quote(p.name, safe="") + "~" + ",".join(f"{quote(k, safe='')}={quote(v, safe='')}"
                                                            for k, v in p.values) for p in pins)


def _decode_pins(text: str) -> list:
    from urllib.parse import unquote

    pins = []
    for chunk in [c for c in str(text).split("|") if c][:8]:
        name, _, rest = chunk.partition("~")
        values = []
        for item in [i for i in rest.split(",") if "=" in i][:40]:
            k, _, v = item.partition("=")
            values.append((unquote(k)[:40], unquote(v)[:200]))
        pins.append(Pin(unquote(name)[:60] or f"design {len(pins) + 1}", tuple(values)))
    return pins


def _pin_state(page: str) -> list:
    store = st.session_state.setdefault("_pins", {})
    if page not in store:
        store[page] = _decode_pins(st.query_params.get("pins", ""))
    return store[page]


def _add_pin(page: str, keys: tuple, name_key: str) -> None:
    pins = _pin_state(page)
    name = str(st.session_state.get(name_key) or "").strip()[:60] or f"design {len(pins) + 1}"
    values = tuple((k, str(st.session_state.get(k))) for k in keys if k in st.session_state)
    pins.append(Pin(name, values))
    del pins[:-8]  # at most 8 pins


def _remove_pin(page: str, index: int) -> None:
    pins = _pin_state(page)
    if 0 <= index < len(pins):
        pins.pop(index)


def _rename_pin(page: str, index: int, key: str) -> None:
    pins = _pin_state(page)
    if 0 <= index < len(pins):
        pins[index] = Pin(str(st.session_state.get(key) or pins[index].name).strip()[:60], pins[index].values)


def _pin_fields(page: str, keys, label: str, pins: list) -> None:
    """The open pins panel: the new pin's name and button, then a row per pin (rename, remove)."""
    c1, c2 = st.columns([3, 1])
    c1.text_input("Name of the pin", label, key=f"{page}_pin_name", max_chars=60,
                  help="How the pinned curve is labelled.")
    c2.button("📌 Pin this design", key=f"{page}_pin_add", on_click=_add_pin,
              args=(page, tuple(keys), f"{page}_pin_name"),
              help="Keeps the current setting as a dashed curve on the charts, next to what you try next.")
    for i, pin in enumerate(pins):
        d1, d2 = st.columns([3, 1])
        d1.text_input("Rename", pin.name, key=f"{page}_pin_rename_{i}_{pin.name}", max_chars=60,
                      label_visibility="collapsed", on_change=_rename_pin,
                      args=(page, i, f"{page}_pin_rename_{i}_{pin.name}"))
        d2.button("Remove", key=f"{page}_pin_remove_{i}", on_click=_remove_pin, args=(page, i))


def pin_controls(page: str, keys, *, label: str) -> list:
    """'Pin this design' controls; returns the pinned designs (they survive reruns and travel in ``?pins=``).

    ``keys`` are the widget keys that define a design on this page; ``label`` is the suggested name of the
    current design (e.g. "n = 500, Δ = 2.0 pp").
    """
    pins = _pin_state(page)
    # keyed, so presentation mode can hide it (a secondary control on a projector; the pins still draw); filled
    # only when open (a rerun), like the plan: a collapsed expander would still send its fields on every move
    with st.container(key="pins_panel"), \
            st.expander(f"Pinned designs ({len(pins)}) — compare settings on one chart", key=f"{page}_pins_open",
                        on_change="rerun") as box:
        if box.open:
            _pin_fields(page, keys, label, pins)
    encoded = _encode_pins(pins)
    if encoded:
        st.query_params["pins"] = encoded
    elif "pins" in st.query_params:
        del st.query_params["pins"]
    return list(pins)


def pinned_designs(pins, compute: Callable, *, design, name: str = "pin",
                   renamed: Mapping[str, str] | None = None) -> tuple[list, list]:
    """Every pin's curve frame (with a ``pin`` column) and table row, from ``compute(d) -> (frame, summary)`` on
    the pin's design ``d`` (:meth:`Pin.design` of the page's design class ``design``).

    A pin that cannot be read or computed (a bad value in the link) is reported and skipped; the page goes on.
    """
    frames, rows = [], []
    for pin in pins:
        with guard(f"Cannot compute the pinned design “{pin.name}”", stop=False):
            frame, summary = compute(pin.design(design, renamed=renamed))
            frames.append(frame.assign(pin=pin.name))
            rows.append({name: pin.name, **summary})
    return frames, rows


def pinned_curve(frames: list, x: str, y: str) -> pd.DataFrame | None:
    """The pins' ``x`` and ``y`` columns as the tidy ``x, y, pin`` frame the figures draw dashed (None without)."""
    if not frames:
        return None
    return pd.concat([f.rename(columns={x: "x", y: "y"})[["x", "y", "pin"]] for f in frames], ignore_index=True)


def pins_table(current: dict, rows: list, column_config: dict) -> None:
    """The pinned designs' metrics side by side, the current design first (shown only when there are pins)."""
    if rows:
        st.dataframe(pd.DataFrame([current] + rows), hide_index=True, width="stretch", column_config=column_config)


def pin_columns(target: float, **extra) -> dict:
    """Column formats of :func:`pins_table` for power, Type-M and the n reaching ``target``, plus ``extra`` columns."""
    return {"power": st.column_config.NumberColumn("Power", format="percent"),
            "type_m": st.column_config.NumberColumn("Type-M", format="%.2f×"),
            "n_for_target": st.column_config.NumberColumn(f"n for {target:.0%} power", format="%d"), **extra}

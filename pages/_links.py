"""Links that ask for a value a control cannot take: said under the page's title, never dropped in silence.

A widget bound to the URL (``bind="query-params"``) starts from the link's value. When the widget cannot take it —
``?target=-3`` for a slider from 0.50 to 0.99, ``?n_max=abc`` for a number, an option it does not list — Streamlit
drops it (or moves it to the nearest end) and the page shows another value without a word. On the first run of a
page visit, :func:`link_notes` compares each bound widget's link text with the value the widget shows and names every
difference: the parameter, what the link asked for, what the control takes and the value used instead.

The page frame calls :func:`notes_slot` under the title (where the notes appear); ``app.py`` calls
:func:`remember_link` before the page runs and :func:`report_link` after it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping

import streamlit as st

from pages._text import code

__all__ = ["notes_slot", "remember_link", "report_link", "link_notes", "narrowed", "asked_late", "report_late"]

#: This run's placeholder for the notes (each session's script runs in its own thread).
_RUN = threading.local()

#: What the notes call the frame's and shared controls that no design declares (their widgets' labels, short).
CONTROL_NAMES = {"present": "Presentation mode", "alpha": "Significance level α", "target": "Target power",
                 "simulate": "Check by simulation", "sims": "Simulated experiments", "seed": "Random seed",
                 "assure": "Average power over a prior", "prior_mean": "Prior mean of the effect",
                 "prior_sd": "Prior SD of the effect", "cost_unit": "Cost per unit", "currency": "Currency",
                 "sys_a": "System A", "sys_b": "System B", "protocol": "Protocol",
                 "resample": "Resample last year's judgments", "fc_sim": "Check with the test you would run",
                 "demo_n": "Raters per experiment", "demo_n_big": "Raters per experiment, now",
                 "home_n": "Raters per study"}

#: The page whose link was checked last in this session: a link is read once per visit (later reruns carry what
#: the widgets wrote themselves).
_CHECKED = "_link_checked_page"
#: The page this session is on (set on every full run, read by fragment reruns too).
_VISITING = "_link_visiting_page"


def notes_slot() -> None:
    """The place under the page's title where a link's refused values are reported (empty otherwise)."""
    _RUN.slot = st.empty()
    _RUN.narrowed = {}


def narrowed(field) -> None:
    """This run's control for ``field`` takes a narrower range than the field declares, an end known only on the page
    (the number of items in a pool): a note on a link that asks for more names that range, not the declared one.
    ``field`` is the declared :class:`core.design.Field` with its widget ends narrowed (``ui_low``/``ui_high``)."""
    if not hasattr(_RUN, "narrowed"):
        _RUN.narrowed = {}
    _RUN.narrowed[field.key] = field


def remember_link(page: str) -> dict[str, str] | None:
    """The link's parameters on the first run of a visit to ``page`` (None on later reruns of the same visit)."""
    _RUN.slot = None
    st.session_state[_VISITING] = page
    if st.session_state.get(_CHECKED) == page:
        return None
    return st.query_params.to_dict()


def report_link(page: str, link: Mapping[str, str] | None, fields: Mapping | None = None) -> list[str]:
    """After the page has run: report the link's values its widgets did not take (see :func:`link_notes`)."""
    if link is None:
        return []
    st.session_state[_CHECKED] = page
    notes = link_notes(link, fields or {})
    if notes:
        slot = getattr(_RUN, "slot", None) or st.empty()
        text = "**This link asked for values the page cannot use**, so it shows others:\n\n" + "\n".join(
            f"- {n}" for n in notes)
        slot.container(key="link_notes").warning(text, icon=":material/link_off:")
    return notes


def asked_late(key: str) -> str | None:
    """The link's text for ``key`` when its bound control is first made on a later run of the visit than the first,
    which checked the link (:func:`report_link`) without it: a control whose range is known only once a file is
    uploaded (labels up to the pool's size). ``None`` when the control exists already, on the visit's first run
    (its own check names it) or when the link has no such parameter. Call it just before making the control, and
    :func:`report_late` just after."""
    state = st.session_state
    if key in state or state.get(_VISITING) is None or state.get(_CHECKED) != state.get(_VISITING):
        return None
    return st.query_params.get(key)


def report_late(key: str, text: str | None, field, container) -> list[str]:
    """Under the control just made for ``key``: the note of :func:`link_notes` when it could not take the link's
    ``text`` (from :func:`asked_late`); ``field`` is the declared field with the control's ends (narrowed)."""
    if text is None:
        return []
    notes = link_notes({key: text}, {key: field})
    if notes:
        container.warning("**This link asked for a value this control cannot take here**, so it shows another:\n\n"
                          + "\n".join(f"- {n}" for n in notes), icon=":material/link_off:")
    return notes


def link_notes(link: Mapping[str, str], fields: Mapping) -> list[str]:
    """One sentence (Markdown, user text inert) per link parameter whose widget shows something else.

    ``fields`` maps URL keys to the page's declared fields (:class:`core.design.Field`), for the control's name and
    the widget's range. Parameters without a bound widget in this run are left alone: pins, uploads and
    settings of views that are not open read the link themselves.
    """
    from streamlit.runtime.state import get_session_state

    state = get_session_state()._state  # the session's SessionState: which widgets are bound, and how they write
    fields = {**fields, **getattr(_RUN, "narrowed", {})}
    notes = []
    for key, text in link.items():
        widget = state.get_widget_id_from_key(key)
        meta = None if widget is None else state.get_widget_metadata(widget)
        if meta is None or widget not in state._query_param_bound_widget_ids or key not in st.session_state:
            continue
        value = st.session_state[key]
        written = meta.serializer(value)  # what the widget writes into the URL for the value it shows
        if _same(text, written) or _same(text, value) or _asks_default(fields.get(key), text):
            continue
        notes.append(_sentence(key, text, written, fields.get(key), meta))
    return notes


def _sentence(key: str, text: str, written, field, meta) -> str:
    shown = written[0] if isinstance(written, list) and len(written) == 1 else written
    asked = code(f"{key}={text}", limit=60)
    label = field.label if field is not None and field.label else CONTROL_NAMES.get(key, "")
    name = f"**{label}**" if label else "this control"
    options = _options(meta)
    if field is not None and field.kind in ("float", "int") and not options:
        takes = f"a {'whole ' if field.kind == 'int' else ''}number from {field.widget_range_text()}" + (
            f" {field.unit}" if field.unit else "")
    elif meta.value_type == "bool_value":
        takes = "`true` or `false`"
    elif options:
        shown_options = options if len(options) <= 8 else [*options[:3], None, *options[-2:]]
        takes = "one of " + ", ".join("…" if o is None else code(o, limit=40) for o in shown_options)
    else:
        takes = "another value"
    return f"{asked}: {name} takes {takes}; it shows {code(_plain(shown))}."


def _options(meta) -> list[str]:
    """The labels a choice widget writes into the URL, in order: a radio's or selectbox's ``formatted_options``, a
    select slider's from its serializer (Streamlit keeps them there); ``[]`` for other widgets."""
    found = getattr(meta, "formatted_options", None)
    if not found:
        serde = getattr(meta.deserializer, "__self__", None)
        found = getattr(serde, "formatted_options", None) or list(getattr(serde, "formatted_option_to_index", None)
                                                                  or [])
    return [str(o) for o in found or []]


def _asks_default(field, text) -> bool:
    """Whether the link asks for the design's default (``gap=none``: the page's own start, e.g. a preset's value)."""
    if field is None:
        return False
    try:
        return field.parse(text[-1] if isinstance(text, list) else text) == field.default
    except (ValueError, TypeError):
        return False


def _plain(x) -> str:
    if isinstance(x, bool) or x is None:
        return str(x).lower()
    if isinstance(x, float) and math.isfinite(x):
        return f"{int(x):,}" if x.is_integer() and abs(x) < 1e15 else f"{x:g}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def _same(text, value) -> bool:
    """Whether a link's text names ``value`` (a widget's value or what it writes: numbers by value, flags in any
    case, repeated parameters element by element)."""
    texts = text if isinstance(text, list) else [text]
    values = value if isinstance(value, (list, tuple)) else [value]
    return len(texts) == len(values) and all(_one(t, v) for t, v in zip(texts, values))


def _one(text, value) -> bool:
    raw = str(text).strip()
    if isinstance(value, bool):
        return raw.lower() == str(value).lower()
    if raw == str(value):
        return True
    if isinstance(value, (int, float)):
        try:
            return math.isclose(float(raw), float(value), rel_tol=1e-12, abs_tol=1e-12)
        except ValueError:
            return False
    return False

"""Leaderboard page, layout only: the expected ratings (a preset's sliders or an editable table).

The widgets come from :class:`core.pairwise.LeaderboardDesign`'s declared fields (same URL keys as before:
``preset``, ``k``, ``gap``, ``leaders``, ``lead_gap``, ``ratings``).
"""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from core import pairwise as pw
from pages._fields import field_input
from pages._links import narrowed
from pages._scaffold import apply_values, guard, link_values

Design = pw.LeaderboardDesign
PRESETS = {"even": "evenly spaced", "crowded": "crowded top", "custom": "my ratings (table)"}


def put(name: str, box, **options):
    """A declared field's widget with the page's own label (the unit is in it, or the page never showed it)."""
    options.setdefault("label", Design.field(name).label)
    return field_input(Design, name, box, **options)


def use_fitted(ratings: pd.Series) -> None:
    apply_values({"preset": "custom"})
    st.session_state["custom_ratings"] = ratings.round(1)
    st.session_state.pop("ratings_editor", None)


def on_preset_change() -> None:
    if st.session_state.get("preset") == "custom" and "custom_ratings" not in st.session_state:
        st.session_state["custom_ratings"] = st.session_state.get("_last_ratings", pw.evenly_spaced(6, 25.0))


def shown_k() -> int:
    """The number of systems the ``k`` widget shows (its state, or the link's before the widget first runs)."""
    if "k" in st.session_state:
        return int(st.session_state["k"])
    return Design.from_params({"k": st.query_params.get("k", "")} if "k" in st.query_params else {}).k


def preset_controls(side) -> tuple[dict, int | None]:
    """The sidebar's ratings inputs: the preset and, for a crowded top, its leaders and gaps (``leaders`` ranges up
    to the number of systems, a key input: :func:`key_ratings` reruns the app when that number moves). Returns the
    fields and the number of systems the sidebar assumed (None: it assumed none)."""
    side.subheader("Systems")
    link_values("preset", PRESETS)
    fields = {"preset": put("preset", side, format_func=PRESETS.get, on_change=on_preset_change)}
    k = None
    if fields["preset"] == "crowded":
        k = shown_k()
        leaders = Design.field("leaders")
        at_most_k = dataclasses.replace(leaders, ui_high=max(2, k))
        narrowed(at_most_k)  # a link asking for more leaders than systems is told this range
        fields["leaders"] = field_input(at_most_k, "leaders", side, widget="slider", label=leaders.label,
                                        default=min(3, k)) if k > 2 else 2
        fields["leader_gap"] = put("leader_gap", side, widget="slider")
        fields["gap"] = put("gap", side, widget="slider", default=pw.design.PRESET_GAPS["crowded"],
                            label="Gap among the rest (Elo)", help="The other neighbours differ by this much.")
    return fields, k


def key_ratings(top, fields: dict, k_shown: int | None) -> tuple[dict, pd.Series]:
    """The ratings' key inputs (``k``, and ``gap`` when evenly spaced) or the editable table, in the main area;
    returns the design's ratings fields and the ratings."""
    fields = dict(fields)
    preset = fields["preset"]
    if preset in ("even", "crowded"):
        fields["k"] = k = put("k", top[1], widget="slider")
        if preset == "crowded" and k != k_shown:
            st.rerun()  # the sidebar's leaders slider ranges up to k: rerun the app, not only the fragment
        if preset == "even":
            fields["gap"] = put("gap", top[2], widget="slider", default=pw.design.PRESET_GAPS["even"])
        with guard("Cannot build these ratings"):
            ratings = Design(**fields).expected_ratings()
        st.session_state["_last_ratings"] = ratings
        return fields, ratings
    linked = st.query_params.get("ratings")
    if "custom_ratings" not in st.session_state:
        st.session_state["custom_ratings"] = pw.evenly_spaced(6, 25.0)
        if linked:
            with guard("Cannot read the linked ratings", stop=False):
                st.session_state["custom_ratings"] = pw.decode_ratings(linked)
    base = st.session_state["custom_ratings"]
    base = base if isinstance(base, pd.Series) else pd.Series(base, index=pw.system_names(len(base)))
    st.markdown("**Expected ratings (Elo)** — edit the table; add or delete rows for systems.")
    edited = st.data_editor(pd.DataFrame({"system": pd.Series([str(i) for i in base.index], dtype=object),
                                          "rating": pd.Series(base.to_numpy(), dtype=float)}),
                            num_rows="dynamic", key="ratings_editor", hide_index=True,
                            column_config={"system": st.column_config.TextColumn("System", max_chars=60),
                                           "rating": st.column_config.NumberColumn("Rating (Elo)", min_value=0.0,
                                                                                   max_value=5000.0, step=1.0)})
    edited = edited.dropna()
    names = [str(s).strip() or f"S{i + 1}" for i, s in enumerate(edited["system"])]
    if len(set(names)) != len(names):
        st.error("**Two systems have the same name.** Give each row its own name.")
        st.stop()
    ratings = pd.Series(edited["rating"].astype(float).to_numpy(), index=names)
    st.query_params["ratings"] = pw.encode_ratings(ratings)
    return {"preset": preset, "ratings": pw.encode_ratings(ratings, decimals=None) if len(ratings) else None}, ratings

"""The Ratings page's "Fit a pilot" tab: upload pilot ratings (or judgments with raters), fit the model's
variance components (:func:`core.ratings.fit_pilot`) and put them into the sliders. Layout only."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core import humaneval as he
from core import ratings as rt
from core import uploads
from pages._scaffold import Metric, apply_values, cached, cached_upload, guard, md_escape, metrics_row
from pages._uploads import file_uploader, opened, upload_types


@cached_upload
def pilot_scores(data: bytes, name: str, header: str):
    """A file of human judgments with raters (core.humaneval formats: Appraise exports, Google MQM annotations,
    WMT DA tables, long tables) as the pilot table, with its notes; None when the file is not one of them."""
    try:
        scores = he.read_scores(data, name, header=header)
    except ValueError:
        if he.sniff_format(data, name) not in (None, "table", "wmt_da"):
            raise  # a file of a format of its own (Appraise, MQM): its reader's message names the line
        return None
    if scores["rater"].isna().all():
        fmt = he.FORMATS.get(scores.attrs["format"], scores.attrs["format"])
        raise ValueError(f"This file ({fmt}) has no rater column: the pilot fit needs who rated what (worker "
                         "variance). Open it from the home page to plan a DA campaign from its scores instead.")
    table = pd.DataFrame({"worker": scores["rater"].astype(str), "item": scores["item"], "system": scores["system"],
                          "rating": scores["score"]})
    return table, tuple(scores.attrs["notes"]), scores.attrs["protocol"]


@cached_upload
def pilot_table(data: bytes, columns=None, header="auto"):
    """The pilot table of a CSV/TSV named (or mapped) as worker, item, system, rating."""
    if columns is None:
        return uploads.read_table(data, name="The pilot file", min_columns=2, header=header)
    return rt.read_pilot(data, columns=dict(columns), header=header)


@cached
def pilot_systems(table: pd.DataFrame):
    """Per-system table and the suggested pair (core.humaneval.system_table / default_pair)."""
    scores = table.rename(columns={"worker": "rater", "rating": "score"})
    scores = scores.assign(score=pd.to_numeric(scores["score"], errors="coerce")).dropna(subset=["score"])
    return he.system_table(scores), he.default_pair(scores)


@cached
def pilot_fit(table: pd.DataFrame, systems=None):
    return rt.fit_pilot(table, systems=systems)


@cached_upload
def pilot_columns(data: bytes, header="auto"):
    """(column names, guessed roles, whether the mapping step is needed)."""
    table = uploads.read_table(data, name="The pilot file", min_columns=2, header=header)
    lowered = {str(c).strip().lower() for c in table.columns}
    if set(rt.PILOT_ROLES) <= lowered or len(table.columns) < len(rt.PILOT_ROLES):
        return list(table.columns), {}, False  # named as expected, or too few columns (the fit says which is missing)
    return list(table.columns), uploads.guess_columns(table.columns, rt.PILOT_ROLES), True


def pilot_mapping(data: bytes, header="auto"):
    """The mapping step when the header does not name worker, item, system and rating."""
    names, guessed, needed = pilot_columns(data, header)
    if not needed:
        return None
    st.info("The header does not name worker, item, system and rating: say which columns hold them (guessed from "
            "the usual names).")
    cols = st.columns(4)
    return tuple((role, cols[k].selectbox(role.capitalize(), names, index=names.index(guessed[role])
                                          if role in guessed else min(k, len(names) - 1), key=f"pilot_col_{role}"))
                 for k, role in enumerate(rt.PILOT_ROLES))


def pilot_pair(table: pd.DataFrame):
    """With more than two systems: their table and a choice of the two to compare (default: the closest at the
    top). Returns the chosen pair, or None for a two-system pilot."""
    names = sorted(pd.unique(table["system"].astype(str).str.strip()))
    if len(names) <= 2:
        return None
    summary, (best, other, reason) = pilot_systems(table)
    st.markdown(f"**{len(names)} systems in the pilot** — the fit compares two of them.")
    st.dataframe(summary, hide_index=True, width="stretch", key="pilot_systems", column_config={
        "mean": st.column_config.NumberColumn("Mean", format="%.3f"),
        "sd": st.column_config.NumberColumn("SD", format="%.3f")})
    ranked = list(summary["system"])
    c1, c2 = st.columns(2)
    first = c1.selectbox("System A (coded −1)", ranked, index=ranked.index(best), key="pilot_sys_a",
                         help="Default: the closest pair in mean among the top systems.")
    second = c2.selectbox("System B (coded +1)", ranked, index=ranked.index(other), key="pilot_sys_b")
    st.caption(("Suggested pair: " if (first, second) == (best, other) else "The suggestion was: ") + md_escape(reason))
    if first == second:
        raise ValueError("Choose two different systems.")
    return first, second


def clip(name: str, value: float) -> float:
    """``value`` inside the slider of the design field ``name`` (its widget range)."""
    f = rt.RatingsDesign.field(name)
    return float(min(max(value, f.widget_low), f.widget_high))


def pilot_tab(tab) -> None:
    """The pilot tab (the uploader is rendered even when the tab is hidden, so an upload survives a tab switch)."""
    # the uploader is always rendered (hidden under another tab) so an upload survives a tab switch
    st.markdown("Upload pilot ratings with columns **worker, item, system, rating** (any Likert range — rescaled to "
                "[0, 1]), or last year's judgments with raters (an Appraise export, Google MQM error annotations, a "
                "WMT DA table). The model's variance components are estimated from the file; with more than two "
                "systems, choose the two to compare.")
    pilot = file_uploader(st, "Pilot ratings (CSV/TSV)",
                          type=upload_types("csv", "tsv", "txt", "score", "jsonl"), key="pilot",
                          help="One rating per row. Nothing in the file is executed.")
    if pilot is not None and tab.open("pilot"):
        fitted = None
        no_header = st.checkbox("First row is data (no header)", key="pilot_no_header",
                                help="For exports without a header row; columns are then called column 1, 2, ….")
        header = "no" if no_header else "auto"
        with guard("Cannot fit this pilot", stop=False):
            pilot = opened(pilot)
            data = pilot.getvalue()
            found = pilot_scores(data, pilot.name, header)
            if found is not None:
                table, notes, _ = found
                if notes:
                    st.caption(md_escape(" ".join(notes)))
            else:
                table = pilot_table(data, pilot_mapping(data, header), header)
                table = table.rename(columns={c: str(c).strip().lower() for c in table.columns
                                              if str(c).strip().lower() in rt.PILOT_ROLES})
            pair = pilot_pair(table) if "system" in table.columns else None
            fitted = pilot_fit(table, pair)
        if fitted is not None:
            metrics_row(
                Metric("Ratings", f"{fitted.n_ratings:,}"),
                Metric("Workers × items", f"{fitted.workers} × {fitted.items}"),
                Metric("Effect β1", f"{fitted.effect:+.3f}", help=f"{md_escape(fitted.systems[1])} is coded +1, "
                       f"{md_escape(fitted.systems[0])} −1."),
                Metric("Residual SD", f"{fitted.sigma:.3f}"),
            )
            st.dataframe(pd.DataFrame([fitted.sigmas]), hide_index=True)
            values = {k: clip(k, round(v, 3)) for k, v in fitted.sigmas.items()}
            values["effect"] = clip("effect", round(abs(fitted.effect) / 0.005) * 0.005)
            values["baseline"] = clip("baseline", round(fitted.baseline, 2))
            if st.button("Use these values in the sliders", on_click=apply_values, args=(values,), key="use_pilot",
                         type="primary", help="Effect (as a magnitude), mean rating and the five SDs."):
                st.rerun(scope="app")  # the SDs are sidebar sliders, outside the page's fragment

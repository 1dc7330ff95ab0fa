"""The Analyze page's data step: the sample, an upload or pasted rows, the column mapping and the evaluation units.

Layout only: reading and grouping are :mod:`core.analysis`'s (``parse_results``, ``evaluation_units`` through
:class:`core.analysis.design.AnalysisDesign`), through cached calls. Uploaded names are shown escaped.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from core import analysis as an
from core.analysis.design import AnalysisDesign
from pages._scaffold import cached_upload, guard, list_of, safe_message
from pages._uploads import file_uploader, opened, upload_types

SAMPLES = Path(an.__file__).resolve().parents[1] / "data" / "analysis_sample"
SAMPLE_FILES = {"scores": "scores.csv", "binary": "correctness.csv", "systems": "systems.csv"}
KIND_LABELS = {"scores": "paired scores", "binary": "0/1 correctness", "predictions": "predictions + gold",
               "systems": "one column per system"}


@cached_upload
def parse(data: bytes, kind: str, columns=None, header="auto"):
    mapping = None
    if columns is not None:
        mapping = {role: (list(value) if isinstance(value, tuple) else value) for role, value in columns}
    return an.parse_results(data, kind, columns=mapping, header=header)


@cached_upload
def table_shape(data: bytes, header: str):
    """Column names, guessed roles of a long table, and each column's first distinct values (for the pickers)."""
    from core import uploads

    table = uploads.read_table(data, name="The file", min_columns=2, max_rows=an.MAX_ROWS, header=header)
    guessed = uploads.guess_columns(table.columns, ["item", "system", "score"])
    values = {c: [str(x) for x in pd.unique(table[c].to_numpy())[:an.MAX_SYSTEMS + 1]] for c in table.columns[:50]}
    return list(table.columns), guessed, values


def column_mapping(raw: bytes, kind: str):
    """The mapping step: which columns hold what, wide or long shape, first row is data (None, "auto": defaults)."""
    with st.expander("Columns: which hold what", expanded=False):
        header = "no" if st.checkbox("First row is data (the file has no header)", key="no_header",
                                     help="For headerless files (e.g. WMT Appraise SegLvl CSVs) whose first row "
                                     "holds text.") else "auto"
        names, guessed, values = table_shape(raw, header)
        long_guess = len(guessed) == 3 and len(names) >= 3
        shape = st.radio("Shape", ["wide", "long"], index=1 if long_guess else 0, horizontal=True, key="shape",
                         format_func={"wide": "one column per system", "long": "one row per item × system"}.get,
                         help="Long tables (WMT DA ad-seg-scores, MQM avg_seg_scores) hold a system column, an item "
                         "column and a score column; they are pivoted to one column per system.")
        if shape == "long":
            c1, c2, c3 = st.columns(3)
            pick = {}
            for col, role, label in ((c1, "item", "Item (segment) column"), (c2, "system", "System column"),
                                     (c3, "score", "Score column")):
                default = names.index(guessed[role]) if role in guessed else min(len(names) - 1,
                                                                                  ["item", "system", "score"].index(role))
                pick[role] = col.selectbox(label, names, index=default, key=f"col_{role}",
                                           help="Guessed from the usual names (SID, seg_id, SYS, Z.SCR, …).")
            options = values.get(pick["system"], [])
            wanted = 2 if kind != "systems" else min(len(options), an.MAX_SYSTEMS)
            chosen = st.multiselect("Systems to compare", options, default=options[:wanted], key="long_systems",
                                    max_selections=None if kind == "systems" else 2,
                                    help="Two systems (A, B) for paired layouts; any number for 'one column per "
                                    "system'.")
            return tuple(pick.items()) + (("systems", tuple(chosen)),), header
        roles = ("a", "b", "gold") if kind == "predictions" else ("a", "b") if kind != "systems" else ()
        if not roles:
            return None, header
        cols = st.columns(len(roles))
        labels = {"a": "System A column", "b": "System B column", "gold": "Gold label column"}
        pick = {role: cols[k].selectbox(labels[role], names, index=min(k, len(names) - 1), key=f"col_{role}_wide")
                for k, role in enumerate(roles)}
        if [pick[r] for r in roles] == names[:len(roles)]:
            return None, header  # the default: the first columns, as without a mapping
        return tuple(pick.items()), header


@cached_upload
def units(design: AnalysisDesign, a, b):
    return design.units(np.array(a), np.array(b))


def load(design: AnalysisDesign):
    """The data the design points at, as evaluation units: ``(kind, data, u, v, binary, names, d)``; stops the
    page with a message when there is nothing (yet) to compare."""
    source, kind, m = design.source, design.kind, design.m
    raw = None
    if source == "sample":
        if kind not in SAMPLE_FILES:
            st.info("The sample has no predictions file; showing the paired-scores sample.")
            kind = "scores"
        raw = (SAMPLES / SAMPLE_FILES[kind]).read_bytes()
        st.caption(f"Sample data: `{SAMPLE_FILES[kind]}` (synthetic, shipped with the app).")
    elif source == "upload":
        uploaded = file_uploader(st, "Results file (CSV or TSV)", type=upload_types("csv", "tsv", "txt"), key="file",
                                 help="One row per test item; a header row is optional. At most 20 MB. Nothing in the "
                                 "file is executed.")
        with guard("Cannot read this file"):
            uploaded = opened(uploaded)
        raw = uploaded.getvalue() if uploaded is not None else None
    else:
        pasted = st.text_area("Paste rows (comma- or tab-separated)", key="pasted", height=150,
                              placeholder="system_a,system_b\n0.61,0.58\n0.72,0.70\n…", help="The same format as a file.")
        raw = pasted.encode("utf-8") if pasted.strip() else None
    if raw is None:
        st.info("Upload a file or paste rows to start (or choose the sample data).")
        st.stop()
    mapping, header = (None, "auto")
    if source != "sample":
        with guard("Cannot read this file"):
            mapping, header = column_mapping(raw, kind)
    with guard("Cannot use this data"):
        data = parse(raw, kind, mapping, header)
    for note in data.notes:
        st.warning(safe_message(note))
    st.success(f"Using **{data.rows_used:,}** of {data.rows_total:,} rows · layout: {KIND_LABELS[kind]} · systems: "
               + list_of(data.names))

    with guard("Cannot form evaluation units"):
        if m > 1 or design.shuffle:
            u, v = units(design, data.a, data.b)
            if data.a.size % m:
                st.caption(f"{data.a.size % m} items that do not fill a last unit of {m} were left out.")
        else:
            u, v = data.a, data.b
        if u.size < 5:
            raise ValueError(f"Only {u.size} evaluation units; at least 5 are needed for the tests, effect sizes and "
                             "power curve. Use a smaller m (items per unit) or more rows.")
    binary = kind in ("binary", "predictions") and m == 1
    names = (str(data.names[0]), str(data.names[1]))
    d = u - v
    if not np.all(np.isfinite(d)):
        st.error("**Cannot compare these scores:** some differences are too large to represent (the scores overflow). "
                 "Rescale the scores (e.g. divide by 1,000) and upload again.")
        st.stop()

    return kind, data, u, v, binary, names, d

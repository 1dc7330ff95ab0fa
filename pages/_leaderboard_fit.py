"""Leaderboard page, layout only: the "Fit your votes" tab (upload past votes, fit Bradley–Terry, use the fit)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core import figures
from core import pairwise as pw
from core import uploads
from pages._leaderboard_ratings import use_fitted
from pages._scaffold import cached_upload, chart, guard, list_of, md_escape, style
from pages._uploads import file_uploader, opened, upload_types


@cached_upload
def read_votes(data: bytes, name: str, columns=None):
    return pw.read_votes(data, name=name, columns=None if columns is None else dict(columns))


@cached_upload
def read_many_votes(files, columns=None):
    return pw.read_votes(list(files), name="The votes files", columns=None if columns is None else dict(columns))


@cached_upload
def header_of(data: bytes) -> list:
    return list(uploads.read_table(data, name="The votes file", min_columns=3, header="yes").columns)


def vote_columns(data: bytes, name: str = "The file"):
    """The mapping step when a table's header does not name model_a, model_b and winner (None: not needed)."""
    if uploads.looks_like_json(data):
        return None
    names = uploads.parquet_columns(data, name=name) if uploads.is_parquet(data) else header_of(data)
    lowered = {str(c).strip().lower() for c in names}
    guessed = uploads.guess_columns(names, ["model_a", "model_b", "winner"])
    if {"model_a", "model_b", "winner"} <= lowered or len(guessed) == 3:
        return None
    st.info("The header does not name model_a, model_b and winner: say which columns hold them.")
    cols = st.columns(3)
    labels = {"model_a": "First model", "model_b": "Second model", "winner": "Winner (model_a / model_b / tie, or "
              "an AlpacaEval preference)"}
    pick = {role: cols[k].selectbox(labels[role], names, index=names.index(guessed[role]) if role in guessed
                                    else min(k, len(names) - 1), key=f"votes_col_{role}")
            for k, role in enumerate(("model_a", "model_b", "winner"))}
    return tuple(pick.items())


@cached_upload
def fit(votes: pd.DataFrame, ties: str):
    return pw.fit_bradley_terry(votes, ties=ties, n_boot=200, seed=0)


def tab_fit(tab, ties: str, plotted: dict) -> None:
    """Upload (always rendered, so an upload survives a tab switch) and, when the tab is open, the fit."""
    with tab["fit"]:
        source = st.radio("Votes", ["upload", "sample"], horizontal=True, key="votes_source",
                          format_func={"upload": "upload past votes", "sample": "synthetic sample votes"}.get,
                          help="A table with columns model_a, model_b, winner (model_a, model_b, tie or 'tie "
                          "(bothbad)'), as in public arena exports: CSV, JSONL, a JSON list or Parquet.")
        votes = origin = None
        with guard("Cannot read these votes", stop=False):
            if source == "upload":
                up = file_uploader(st, "Votes file", type=upload_types("csv", "tsv", "txt", "json", "jsonl", "parquet"),
                                   key="votes_file",
                                   help="Arena exports (model_a, model_b, winner; CSV, JSON or Hugging Face's "
                                   "Parquet), AlpacaEval annotations.json (generator_1, generator_2, preference) "
                                   "or MT-Bench judgments (gpt-4_pair.jsonl). Nothing in the file is executed.")
                more = file_uploader(st, "More vote files (optional; e.g. one AlpacaEval annotations.json per model)",
                                     type=upload_types("csv", "tsv", "txt", "json", "jsonl", "parquet"),
                                     key="more_votes",
                                     accept_multiple_files=True, help="All files together make one vote table.")
                up, more = opened(up), opened(more)
                if up is not None and more:
                    files = ((up.name, up.getvalue()),) + tuple((f.name, f.getvalue()) for f in more)
                    votes, origin = read_many_votes(files), f"{len(files)} files"
                elif up is not None:
                    mapping = vote_columns(up.getvalue(), f"`{up.name[:80].replace('`', '')}`")
                    votes, origin = read_votes(up.getvalue(), up.name, mapping), up.name
            else:
                votes, origin = read_votes(pw.SAMPLE_VOTES.read_bytes(), "votes.csv"), "the synthetic sample votes"
                st.caption("Synthetic votes among 8 systems (core/data/pairwise_sample), labelled as such.")
        if votes is None or not tab.open("fit"):
            return
        fitted = None
        with guard("Cannot fit these votes", stop=False):
            fitted = fit(votes, ties)
        if fitted is None:
            return
        for note in fitted.notes:
            st.caption(md_escape(note))
        st.markdown(f"Fitted from {md_escape(origin)}: **{fitted.n_votes:,}** votes ({fitted.n_ties:,} ties) "
                    f"among {len(fitted.models)} systems: {list_of(fitted.models, limit=8)}.")
        shown = fitted.table()
        plotted["fitted"] = shown
        chart(figures.interval_figure([str(m) for m in shown["model"]], shown["rating"],
                                      shown["ci_low"], shown["ci_high"],
                                      title="Fitted leaderboard with 95% bootstrap intervals",
                                      x_title="Rating (Elo, mean 1000)", style=style()), "fit_chart")
        st.dataframe(shown, hide_index=True, width="stretch")
        if st.button("Use the fitted ratings in the table", key="use_fit", type="primary", on_click=use_fitted,
                     args=(fitted.ratings,), help="Switches the expected ratings to your table, filled with these "
                     "ratings, so you can plan the next round of votes."):
            st.rerun()  # the preset lives in the sidebar, outside the page's fragment: rerun the whole app

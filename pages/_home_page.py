"""The home page (UI only): the user's question → a card with the page's answer at its defaults; the significance
filter as a picture next to the three definitions; "Start from your data" (an upload recognised and handed to the
right page with fitted values).

Cards come from ``pages/_registry.py``: pages (and tabs, ``VIEW_CARDS``) with a ``question`` and a ``teaser``, the
function in the page's scenario package that computes the card's one-line answer (``teaser_of``); so a new page's
card is its registry entry plus one teaser function in its package. Every number is an exact or closed-form engine,
cached; the chart is a seeded simulation of 400 small studies (≈ 50 ms).
"""

from __future__ import annotations

import streamlit as st

from core import demo, figures
from core import home as hm
from core.teaser import Teaser
from pages._registry import PAGES as REGISTRY, VIEW_CARDS, by_name, teaser_of
from pages._scaffold import (cached, cached_upload, chart, guard, list_of, md_escape, presentation, safe_message,
                             start, style)
from pages._uploads import file_uploader, opened, upload_types

#: Raters per simulated study in the significance-filter chart (the lab-meeting demo's options), and its default.
RATERS = [10, 15, 20, 25, 30, 40, 50, 75, 100]
FILTER_RATERS = 25


@cached
def teaser(name: str) -> Teaser:
    return teaser_of(name)


@cached
def filter_points(n: int):
    return demo.significance_filter(n)


@cached
def read_uploads(files: tuple) -> hm.Upload:
    return hm.read_uploads(files)


def card_pages() -> list:
    """The registered pages with a question and a teaser, in navigation order."""
    return [info for info in REGISTRY if info.question and info.teaser]


def definitions(box) -> None:
    box.markdown(
        "**Power** is the probability that your experiment finds a real difference "
        "*significant, in the right direction*. Below 80% an experiment is usually called "
        "under-powered: a real improvement will often go unnoticed."
    )
    box.markdown(
        "**Type-M error** (exaggeration ratio) is how much, on average, a *significant* "
        "observed difference overstates the true one. Under-powered studies only reach "
        "significance when noise inflates the difference, so their published gains are too big."
    )
    box.markdown(
        "**Type-S error** is the chance that a significant result points the *wrong way*: "
        "the worse system looks better. It becomes real when power is very low."
    )


def filter_chart(box) -> None:
    """Observed vs true difference of many small studies, the significant ones highlighted."""
    with box:
        above = st.container()  # the chart, drawn above its slider once the slider's value is known
        n = st.select_slider("Raters per study", RATERS, value=FILTER_RATERS, key="home_n", bind="query-params",
                             help="Each dot is a simulated head-to-head study with this many raters (exact sign test, "
                             "α = 0.05). More raters: more dots are significant and they sit on the truth.")
        points = filter_points(n)
        sig = points["significant"].to_numpy()
        colors = [figures.PALETTE[1] if s else "#BBBBBB" for s in sig]
        top = float(max(100 * points["observed"].abs().max(), 45.0)) + 5
        fig = figures.scatter_figure(
            100 * points["position"], 100 * points["observed"], colors=colors, identity=True,
            name="simulated studies (orange: significant)",
            title=f"{int(sig.sum())} of {len(sig)} studies with {n} raters are significant",
            x_title="True gap (points)", y_title="Observed gap (points)",
            hover="true %{x:.0f} · observed %{y:+.0f} points<extra></extra>", x_range=(-2, 42), y_range=(-top, top),
            style=figures.with_style(style(0.55), height=460 if presentation() else 360))
        fig.update_layout(showlegend=False)  # the caption says what the colours and the dashed line are
        fig.update_traces(marker={"size": 10 if presentation() else 8, "opacity": 0.8}, selector={"mode": "markers"})
        chart(fig, "filter_chart", container=above)
        small = points[points["true_effect"] <= 0.2 + 1e-9]
        hits = small[small["significant"]]
        if len(hits):
            ratio = (hits["observed"].abs() / hits["true_effect"]).mean()
            st.caption(f"The significance filter: orange dots are significant. For true gaps up to 20 points they "
                       f"overstate the truth {ratio:.1f}× on average (Type-M); the dashed line is observed = true "
                       "(Card et al. 2020, Figure 1).")


def all_cards() -> list:
    """(key, question, page info, link parameters) of every card: one per page with a question, then one per tab
    with a question of its own (``pages._registry.VIEW_CARDS``), placed after its page's card."""
    out = []
    for info in card_pages():
        out.append((info.name, info.question, info, {}))
        out += [(v.key, v.question, info, {"view": v.view}) for v in VIEW_CARDS if v.page == info.name
                and v.teaser]
    return out


def cards() -> None:
    """One card per question: the question, the page's answer at its defaults, and a link."""
    entries = all_cards()
    per_row = 2 if presentation() else 3
    for start_at in range(0, len(entries), per_row):
        row = st.columns(per_row)
        for box, (key, question, info, query) in zip(row, entries[start_at:start_at + per_row]):
            with box.container(border=True, key=f"card_{key}"):
                st.markdown(f"**{md_escape(question)}**")
                try:
                    answer = teaser(key)
                except ValueError:  # a page whose defaults cannot be computed keeps its card and link
                    answer = None
                if answer is not None:
                    st.markdown(md_escape(answer.answer))
                label = info.title + (f" · {query['view']}" if query else "")
                st.page_link(info.path, label=label, icon=info.icon, query_params=query or None)


def record_sources(upload: hm.Upload, file_name: str) -> None:
    """Let the target page's plan say where the values came from (``pages._scaffold.source_of``)."""
    sources = st.session_state.setdefault("_sources", {})
    for key, value in upload.values:
        sources[key] = (value, f"fitted from {str(file_name)[:80]} (home page upload)")


@cached_upload
def kind_of(name: str, data: bytes) -> str:
    try:
        return hm.recognise(name, data)
    except ValueError:
        return ""


def in_use(files: list) -> list:
    """The files the home page reads: the newest upload, or the newest two when both are lm-evaluation-harness
    samples files, or both Inspect AI logs (the baseline's and the new model's, read together)."""
    return files[-2:] if len(files) >= 2 and _pair(files[-2:]) else files[-1:]


def _pair(files: list) -> bool:
    """Two files the home page reads together: both harness samples files, or both Inspect logs."""
    kinds = {kind_of(name, data) for name, data in files}
    return len(files) == 2 and len(kinds) == 1 and kinds <= {"harness", "inspect"}


def _uploader_key() -> str:
    generation = int(st.session_state.get("home_file_generation", 0))
    return "home_file" if generation == 0 else f"home_file_{generation}"


def _release(ups) -> None:
    """Free the uploader's copies of files the page no longer reads (Streamlit keeps every file a multi-file
    uploader received until the session ends, so 50 uploads held 50 files in memory)."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        for up in ups:
            ctx.uploaded_file_mgr.remove_file(ctx.session_id, up.file_id)
    except Exception:  # noqa: BLE001 (a private interface: if it changes, the files are freed with the session)
        pass


def _opened(up) -> list:
    """[(name, bytes)] of an upload, unpacked if compressed (an archive of the two models' harness samples files
    gives both); ``[]`` (with a message) if it cannot be read."""
    with guard(f"Cannot open {up.name[:80]}", stop=False):
        files = [(f.name, f.getvalue()) for f in opened([up])]
        if len(files) > 1 and not _pair(files):
            listed = ", ".join(n for n, _ in files[:5]) + (f" and {len(files) - 5:,} more" if len(files) > 5 else "")
            raise ValueError(f"{up.name} holds {len(files):,} files ({listed}); the home page reads one file, or "
                             "the two models' harness samples files or Inspect logs together. Upload the file to "
                             "read.")
        return files
    return []


def clear_files() -> None:
    st.session_state["home_kept"] = []
    st.session_state["home_file_generation"] = int(st.session_state.get("home_file_generation", 0)) + 1


def uploaded_files() -> list:
    """(name, bytes) of the files in use. A new upload replaces the one before (two harness files stay together):
    the uploader is emptied and the files kept are held here, so at most two files are in memory per session."""
    ups = file_uploader(
        st, "Upload an evaluation file: the app recognises its kind and opens the right page",
        type=upload_types("csv", "tsv", "txt", "json", "jsonl", "score", "rating", "parquet", "eval"),
        key=_uploader_key(), accept_multiple_files=True,
        help="lm-evaluation-harness sample logs or Inspect AI logs (two files, baseline first, to fit them here), a "
        "per-answer LLM log, "
        "pairwise votes, per-item scores, pilot ratings, human judgments of a campaign (Google MQM, mt-metrics-eval "
        "`.seg.score`, an Appraise export, WMT DA) or MT outputs (TSV), also gzipped or in a zip or tar archive. At "
        "most 20 MB a file (larger judgments, up to 64 MB: on the DA page); nothing in a file is executed. A new "
        "upload replaces the previous one.")
    kept = list(st.session_state.get("home_kept", []))
    files = kept + [f for up in ups or [] for f in _opened(up)]
    chosen = in_use(files)
    if len(chosen) < len(files):
        _release(ups or [])
        st.session_state["home_kept"] = chosen
        st.session_state["home_file_generation"] = int(st.session_state.get("home_file_generation", 0)) + 1
        st.rerun()
    if kept:
        c1, c2 = st.columns([4, 1])
        c1.caption("In use: " + list_of([name for name, _ in kept]) + " — a new upload replaces it.")
        c2.button("Clear", key="home_clear", on_click=clear_files, help="Forget the uploaded file.")
    return chosen


def from_your_data() -> None:
    st.subheader("Start from your data")
    files = uploaded_files()
    if not files:
        if not presentation():
            st.caption("Accepted: " + "; ".join(f"{k.label}" for k in hm.UPLOAD_KINDS.values()) + ".")
        return
    names = [name for name, _ in files]
    try:
        upload = read_uploads(tuple(files))
    except ValueError as err:
        message = str(err).partition(" Accepted formats:")[0].partition("\nAccepted formats:")[0]
        st.error(f"**Cannot use this file.** {safe_message(message)}")
        st.markdown("**Accepted formats**\n\n" + "\n".join(f"- **{k.label}** — {k.shape}"
                                                            for k in hm.UPLOAD_KINDS.values()))
        return
    kind = hm.UPLOAD_KINDS[upload.kind]
    st.success(f"Recognised {list_of(names)} as **{kind.label}**. {md_escape(upload.summary)}")
    try:
        info = by_name(upload.page)
    except KeyError:  # the page for this kind is not part of this app
        st.info("The page that uses this kind of file is not available in this version of the app.")
        return
    if upload.values:
        record_sources(upload, " and ".join(names))
    label = f"Open {info.title}" + (" with these values" if upload.values else "")
    st.page_link(info.path, label=label, icon=info.icon, query_params=upload.query or None)
    st.caption(md_escape(upload.next_step))


def render() -> None:
    """The home page."""
    start("NLP Power Explorer", "Definitions and methods follow Card et al. (2020), With Little Power Comes Great "
          "Responsibility (EMNLP), Figure 2 and appendix B.")
    st.markdown(
        "Before you spend a cent on a test set or an annotation campaign, see whether your "
        "evaluation can detect the difference you care about — and how much a significant "
        "result would exaggerate it."
    )
    left, right = st.columns([1, 1.2] if presentation() else [1, 1], gap="large")
    definitions(left)
    filter_chart(right)
    st.subheader("What are you evaluating?")
    cards()
    from_your_data()

"""The Machine-translation page's last tab: P0 and b0 fitted from two systems' outputs (Card et al. 2020, app. G.1).

Layout only: the reading, the fit and the additivity check are :mod:`core.mt`'s, through cached calls.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from core import figures, mt
from pages._scaffold import Metric, apply_values, cached, cached_upload, chart, chart_row, guard, metrics_row, style
from pages._uploads import file_uploader, opened, upload_types

SAMPLE = Path(mt.__file__).resolve().parents[1] / "data" / "mt_sample" / "sample.tsv"


@cached_upload
def read_three(a: bytes, b: bytes, r: bytes):
    return mt.read_parallel_texts(a, b, r)


@cached_upload
def read_tsv(data: bytes):
    return mt.read_tsv(data)


@cached
def fit(hyp_a, hyp_b, refs):
    result = mt.fit_swap_effects(hyp_a, hyp_b, refs)
    check = mt.additivity_check(hyp_a, hyp_b, refs, n_subsets=200, seed=0, fit=result)
    return result, check


def _clipped(name: str, value: float, digits_step: float) -> float:
    """A fitted value rounded to the widget's step and clipped to the widget's range (the design's ``ui`` ends)."""
    f = mt.BleuDesign.field(name)
    return float(min(max(round(value / digits_step) * digits_step, f.widget_low), f.widget_high))


def fit_tab(tab, plotted: dict) -> None:
    """Uploaders (always rendered, so an upload survives a tab switch); the fit only when the tab is open."""
    st.markdown(
        "Upload two systems' outputs and the references (one segment per line). Each segment's **swap effect** — "
        "the change in BLEU(A) − BLEU(B) when only that segment's outputs are exchanged — is computed with "
        "sacrebleu; P0 is the share of zero effects and b0 = n × the Laplace scale of the rest (appendix G.1).")
    mode = st.radio("Format", ["three", "tsv"], horizontal=True, key="upload_mode",
                    format_func={"three": "three text files", "tsv": "one TSV (A, B, reference)"}.get,
                    help="Plain UTF-8 text. Nothing in the files is executed.")
    texts = None
    with guard("Cannot read the upload", stop=False):
        if mode == "three":
            u1, u2, u3 = st.columns(3)
            fa = file_uploader(u1, "System A outputs",
                               type=upload_types("txt"), key="file_a", help="One segment per line.")
            fb = file_uploader(u2, "System B outputs", type=upload_types("txt"), key="file_b", help="Aligned with A.")
            fr = file_uploader(u3, "References", type=upload_types("txt"), key="file_ref", help="Aligned with A and B.")
            fa, fb, fr = opened(fa), opened(fb), opened(fr)
            if fa and fb and fr:
                texts = read_three(fa.getvalue(), fb.getvalue(), fr.getvalue())
        else:
            ft = file_uploader(st, "TSV file", type=upload_types("tsv", "txt"), key="file_tsv",
                               help="Three tab-separated columns: system A, system B, reference.")
            ft = opened(ft)
            if ft:
                texts = read_tsv(ft.getvalue())
    if texts is None and st.toggle("Use the bundled sample (40 news sentences, two paraphrasing systems)",
                                   key="use_sample", help="A small example so the fit can be tried without files."):
        texts = read_tsv(SAMPLE.read_bytes())
    if texts is None or not tab.open("fit"):
        return
    with guard("Cannot fit these outputs"):
        fitted, additivity = fit(*texts)
    metrics_row(
        Metric("Segments", f"{fitted.n:,}"),
        Metric("Observed BLEU difference", f"{fitted.delta_bleu:+.2f} BLEU",
               help=f"Corpus BLEU A = {fitted.bleu_a:.2f}, B = {fitted.bleu_b:.2f} (sacrebleu defaults)."),
        Metric("P0: segments unchanged by a swap", f"{fitted.p0:.3f}",
               help="Share of segments whose swap changes nothing."),
        Metric("b0: spread of the swap effects", f"{fitted.b0:.1f}",
               help="n × maximum-likelihood Laplace scale of the non-zero effects."),
    )
    keys = {name: mt.BleuDesign.field(name).key for name in ("p0", "b0", "delta_bleu")}
    new_values = {keys["p0"]: float(min(max(round(fitted.p0, 2), 0.0), 0.9)),
                  keys["b0"]: float(min(max(round(fitted.b0, 1), 5.0), 100.0)),
                  keys["delta_bleu"]: _clipped("delta_bleu", fitted.delta_bleu, 0.05)}
    if st.button("Use these values in the sliders", on_click=apply_values, key="use_fit",
                 args=(new_values, "fitted to the uploaded outputs with sacrebleu (Card et al. 2020, app. G.1)"),
                 type="primary", help="Sets P0, b0 and Δ_B (clipped to the sliders' ranges)."):
        # P0 and b0 are sidebar sliders, outside the page's key-input fragment: rerun the whole page
        st.rerun(scope="app")
    if fitted.n < 100:
        st.info("With fewer than ~100 segments the fitted P0 and b0 are rough; use a full test set.")
    effects = fitted.effects
    nonzero = effects[np.abs(effects) > 1e-9]
    xs = np.linspace(nonzero.min(), nonzero.max(), 200) if nonzero.size else np.array([0.0])
    dens = np.exp(-np.abs(xs - fitted.location) / fitted.b) / (2 * fitted.b)
    (g1, g2), (s1, s2) = chart_row(2)
    with g1:
        chart(figures.histogram_figure({"non-zero effects": nonzero}, density=("fitted Laplace", xs, dens),
                                       title="Swap effects and the fitted Laplace (cf. Figure 16)",
                                       x_title="Swap effect δ_i (BLEU points)", style=style(s1)),
              "effects_chart")
    with g2:
        chart(figures.scatter_figure(additivity.sum_of_effects, additivity.actual, identity=True,
                                     name="random subsets",
                                     title=f"Additivity (cf. Figure 15): r = {additivity.correlation:.3f}",
                                     x_title="Sum of single-swap effects",
                                     y_title="Effect of swapping the subset", style=style(s2)),
              "additivity_chart")
    st.caption(f"200 random subsets (each segment swapped with probability ½). RMS difference "
               f"{additivity.rmse:.3f} BLEU: the paper's simulation assumes these agree.")
    plotted["swap_effects"] = pd.DataFrame({"segment": np.arange(1, fitted.n + 1), "effect": effects})

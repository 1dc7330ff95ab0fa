"""Machine-translation page: BLEU power with the randomization test (Card et al. 2020, §4, appendix G).

UI only: widgets → cached calls into ``core.mt`` → charts and metrics. The
state lives in the URL (``bind="query-params"``).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core import figures
from core import mt
from pages import apply_values, ensure_frame, fmt_pct, metric

ensure_frame()

SAMPLE = Path(mt.__file__).resolve().parent / "data" / "mt_sample" / "sample.tsv"
N_OPTIONS = sorted({int(v) for v in np.round(np.geomspace(100, 20000, 40), -1)} | {2000, 3000})
cache = st.cache_data(show_spinner=False, max_entries=256)


@cache
def point(n, delta, p0, b0, alpha, method, n_sims, n_trials, seed, _progress=None):
    return mt.bleu_power(n, delta, p0, b0, alpha=alpha, method=method, n_sims=n_sims, n_trials=n_trials,
                         seed=seed, progress=_progress)


@cache
def grid(ns, deltas, p0s, b0s, alpha):
    return mt.power_grid(list(ns), list(deltas), list(p0s), list(b0s), alpha=alpha)


@cache
def mde(n, p0, b0, target, alpha):
    return mt.bleu_mde(n, p0, b0, target_power=target, alpha=alpha)


@cache
def sample_size(delta, p0, b0, target, alpha):
    return mt.bleu_sample_size(delta, p0, b0, target_power=target, alpha=alpha)


@cache
def fit(hyp_a, hyp_b, refs):
    result = mt.fit_swap_effects(hyp_a, hyp_b, refs)
    check = mt.additivity_check(hyp_a, hyp_b, refs, n_subsets=200, seed=0, fit=result)
    return result, check


def apply_preset() -> None:
    chosen = mt.PRESETS[st.session_state["preset"]]
    apply_values({"p0": chosen["p0"], "b0": chosen["b0"], "delta": chosen["delta_bleu"],
                  "n": min(N_OPTIONS, key=lambda v: abs(v - chosen["n"]))})


# ---------------------------------------------------------------------------
# sidebar
# ---------------------------------------------------------------------------
st.title("Machine translation: BLEU and the randomization test")
st.caption("Card et al. (2020), §4 and appendix G. Power counts a result only when it is significant **and** "
           "in the right direction.")

side = st.sidebar
side.selectbox(
    "Preset", list(mt.PRESETS), key="preset", bind="query-params", on_change=apply_preset,
    help="P0 and b0 fitted by Card et al. to four WMT En–De comparisons (Table 3), or their average "
    "(the paper's default for Figure 4). Choosing a preset sets the sliders.",
)
side.subheader("Design")
n = side.select_slider("Test-set size n (sentences)", options=N_OPTIONS, value=2000, key="n", bind="query-params",
                       help="Log-spaced steps from 100 to 20,000 sentences. WMT test sets have 2,000–3,000.")
delta = side.slider("Expected BLEU difference Δ_B", min_value=-10.0, max_value=10.0, value=1.0, step=0.05,
                    key="delta", bind="query-params",
                    help="New system minus baseline, in BLEU points. Typical claimed gains are 0.5–2 points.")
p0 = side.slider("P0: share of sentences whose swap changes nothing", min_value=0.0, max_value=0.9, value=0.13,
                 step=0.01, key="p0", bind="query-params",
                 help="Sentences where both systems' outputs contribute identically (often identical outputs). "
                 "Table 3: 0.09–0.19.")
b0 = side.slider("b0: spread of the swap effects", min_value=5.0, max_value=100.0, value=25.8, step=0.1, key="b0",
                 bind="query-params",
                 help="Laplace scale of the non-zero swap effects times n (b = b0/n). Larger means noisier "
                 "sentence-level differences. Table 3: 22.5–29.4.")
side.subheader("Test")
alpha = side.select_slider("Significance level α (two-sided)", options=[0.001, 0.005, 0.01, 0.025, 0.05, 0.1],
                           value=0.05, key="alpha", bind="query-params", help="Reject 'no difference' when p ≤ α.")
target = side.slider("Target power", min_value=0.5, max_value=0.99, value=0.8, step=0.01, key="target",
                     bind="query-params", help="Used for the MDE and the required test-set size.")
engine = side.radio(
    "Engine", list(mt.METHODS), key="engine", bind="query-params", horizontal=True,
    format_func={"normal": "fast (normal)", "randomization": "randomization test"}.get,
    help="Fast: the randomization test's normal approximation, integrated exactly over the effect "
    "distribution — instant, used for all curves. Randomization: the paper's full simulation for the "
    "current design (Monte Carlo, with its standard error).",
)
if engine == "randomization":
    n_trials = side.select_slider("Randomization trials per test", options=[199, 499, 999, 1999, 4999], value=999,
                                  key="trials", bind="query-params",
                                  help="Swapped subsets per test; p = (1 + #as extreme)/(trials + 1).")
    n_sims = side.select_slider("Simulated experiments", options=[500, 1000, 2000, 5000], value=2000, key="sims",
                                bind="query-params", help="More replicates, smaller Monte Carlo error.")
    seed = int(side.number_input("Random seed", min_value=0, max_value=2**31 - 1, value=2020, step=1, key="seed",
                                 bind="query-params", help="Fixes the simulation."))
else:
    n_trials, n_sims, seed = 999, 2000, 2020

# ---------------------------------------------------------------------------
# computation
# ---------------------------------------------------------------------------
if n_trials + 1 < 1 / alpha:
    st.error(f"**Too few trials:** with {n_trials} randomization trials the smallest p-value is "
             f"{1 / (n_trials + 1):.4f}, above α = {alpha}. Use more trials or a larger α.")
    st.stop()
expected_nonzero = n * (1 - p0)
if expected_nonzero < 75:
    st.warning(
        f"Only about {expected_nonzero:.0f} sentences are expected to change the BLEU difference. The fast "
        "engine's normal approximation is unreliable below ~75; use the randomization engine for this design."
    )
try:
    if engine == "randomization":
        bar = st.progress(0.0, text="Running the randomization test…")
        result = point(n, delta, p0, b0, alpha, engine, n_sims, n_trials, seed,
                       _progress=lambda f: bar.progress(f, text=f"Running the randomization test… {f:.0%}"))
        bar.empty()
    else:
        result = point(n, delta, p0, b0, alpha, engine, n_sims, n_trials, seed)
    mde_value = mde(n, p0, b0, target, alpha)
    n_needed = sample_size(delta, p0, b0, target, alpha) if delta != 0 else None
    ns = tuple(sorted(set(np.unique(np.geomspace(100, 20000, 36).astype(int)).tolist() + [n])))
    deltas = tuple(sorted({0.5, 1.0, 2.0, 3.0, abs(delta)} - {0.0}))
    fig4 = grid(ns, deltas, (p0,), (b0,), alpha)
    base_delta = abs(delta) if delta else 1.0
    p0_family = tuple(sorted({0.0, 0.13, 0.3, 0.5, 0.7, round(p0, 4)}))
    b0_family = tuple(sorted({10.0, 20.0, 25.8, 35.0, 50.0, round(b0, 4)}))
    sens_p0 = grid(ns, (base_delta,), p0_family, (b0,), alpha)
    sens_b0 = grid(ns, (base_delta,), (p0,), b0_family, alpha)
except ValueError as err:
    st.error(f"**Cannot compute this design.** {err}")
    st.stop()

# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------
cols = st.columns(5)
label = "Power" if delta != 0 else "False-positive rate"
metric(cols[0], label, fmt_pct(result.power if delta != 0 else result.rejection_rate),
       se=f"{100 * result.mc_se:.1f}%" if result.mc_se else None,
       help="P(significant and in the right direction); at Δ_B = 0 the rate of false positives (≤ α).")
cols[1].metric("Type-M (exaggeration)", "—" if not math.isfinite(result.type_m) else f"{result.type_m:.2f}×",
               help="Average |observed Δ_B| / |true Δ_B| among significant results.")
cols[2].metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the "
               "wrong sign.")
cols[3].metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else
               f"{mde_value:.2f} BLEU", help="Smallest BLEU difference this test set detects with the target power "
               "(fast engine).")
cols[4].metric(f"n for {target:.0%} power", "—" if n_needed is None else ("> 1,000,000" if n_needed < 0 else
               f"{n_needed:,}"), help="Smallest test set (sentences) reaching the target power at this Δ_B.")
if delta != 0 and result.power < target:
    st.warning(f"**Under-powered:** {fmt_pct(result.power)} power. A significant result would overstate the "
               f"difference by {result.type_m:.2f}× on average.")
elif delta != 0:
    st.success(f"**Adequately powered** ({fmt_pct(result.power)} ≥ {target:.0%}).")

# ---------------------------------------------------------------------------
# charts
# ---------------------------------------------------------------------------
current_power = result.power if delta != 0 else result.rejection_rate
tabs = st.tabs(["Power vs n (Figure 4)", "Sensitivity to P0 and b0 (Figure 17)", "Type-M and Type-S",
                "Fit P0 and b0 from your outputs"])
fig4 = fig4.assign(series=[f"Δ_B = {d:g}" for d in fig4["delta_bleu"]])
with tabs[0]:
    st.plotly_chart(
        figures.curve_figure(fig4, x="n", y="power", color="series", current=(n, current_power), target=target,
                             title=f"Power vs test-set size (P0 = {p0:g}, b0 = {b0:g})",
                             x_title="Test-set size n (sentences)", y_title="Power", y_range=(0, 1.02)),
        key="power_chart", width="stretch",
    )
with tabs[1]:
    c1, c2 = st.columns(2)
    sens_p0 = sens_p0.assign(series=[f"P0 = {v:g}" for v in sens_p0["p0"]])
    sens_b0 = sens_b0.assign(series=[f"b0 = {v:g}" for v in sens_b0["b0"]])
    c1.plotly_chart(
        figures.curve_figure(sens_p0, x="n", y="power", color="series", current=(n, current_power), target=target,
                             title=f"Varying P0 (Δ_B = {base_delta:g}, b0 = {b0:g})", x_title="n",
                             y_title="Power", y_range=(0, 1.02)),
        key="p0_chart", width="stretch",
    )
    c2.plotly_chart(
        figures.curve_figure(sens_b0, x="n", y="power", color="series", current=(n, current_power), target=target,
                             title=f"Varying b0 (Δ_B = {base_delta:g}, P0 = {p0:g})", x_title="n",
                             y_title="Power", y_range=(0, 1.02)),
        key="b0_chart", width="stretch",
    )
    st.caption("More identical outputs (higher P0) make a difference easier to detect; noisier sentence-level "
               "effects (higher b0) make it harder — cf. Card et al. Figure 17.")
with tabs[2]:
    c1, c2 = st.columns(2)
    fig_m = figures.curve_figure(fig4, x="n", y="type_m", color="series", current=(n, result.type_m), target=None,
                                 title="Type-M error (exaggeration ratio)", x_title="n", y_title="Exaggeration",
                                 hover_format=".2f")
    fig_m.update_yaxes(type="log", tickvals=[1, 1.25, 1.5, 2, 3, 5, 10], ticktext=["1×", "1.25×", "1.5×", "2×",
                                                                                "3×", "5×", "10×"])
    figures.add_reference_line(fig_m, y=1.0, text="no exaggeration", log_y=True)
    fig_s = figures.curve_figure(fig4, x="n", y="type_s", color="series", current=(n, result.type_s), target=None,
                                 title="Type-S error", x_title="n", y_title="P(wrong sign | significant)",
                                 hover_format=".4f")
    if n_needed is not None and 0 < n_needed <= 20000:
        for f in (fig_m, fig_s):
            figures.add_reference_line(f, x=n_needed, text=f"{target:.0%} power<br>n = {n_needed:,}")
    c1.plotly_chart(fig_m, key="type_m_chart", width="stretch")
    c2.plotly_chart(fig_s, key="type_s_chart", width="stretch")

with tabs[3]:
    st.markdown(
        "Upload two systems' outputs and the references (one segment per line). Each segment's **swap effect** "
        "— the change in BLEU(A) − BLEU(B) when only that segment's outputs are exchanged — is computed with "
        "sacrebleu; P0 is the share of zero effects and b0 = n × the Laplace scale of the rest (appendix G.1)."
    )
    mode = st.radio("Format", ["three", "tsv"], horizontal=True, key="upload_mode",
                    format_func={"three": "three text files", "tsv": "one TSV (A, B, reference)"}.get,
                    help="Plain UTF-8 text. Nothing in the files is executed.")
    texts = None
    try:
        if mode == "three":
            u1, u2, u3 = st.columns(3)
            fa = u1.file_uploader("System A outputs", type=["txt"], key="file_a", help="One segment per line.")
            fb = u2.file_uploader("System B outputs", type=["txt"], key="file_b", help="Aligned with A.")
            fr = u3.file_uploader("References", type=["txt"], key="file_ref", help="Aligned with A and B.")
            if fa and fb and fr:
                texts = mt.read_parallel_texts(fa.getvalue(), fb.getvalue(), fr.getvalue())
        else:
            ft = st.file_uploader("TSV file", type=["tsv", "txt"], key="file_tsv",
                                  help="Three tab-separated columns: system A, system B, reference.")
            if ft:
                texts = mt.read_tsv(ft.getvalue())
    except ValueError as err:
        st.error(f"**Cannot read the upload.** {err}")
        texts = None
    if texts is None and st.toggle("Use the bundled sample (40 news sentences, two paraphrasing systems)",
                                   key="use_sample", help="A small example so the fit can be tried without files."):
        texts = mt.read_tsv(SAMPLE.read_bytes())
    if texts is not None:
        try:
            fitted, additivity = fit(*texts)
        except ValueError as err:
            st.error(f"**Cannot fit these outputs.** {err}")
        else:
            f1, f2, f3, f4 = st.columns(4)
            f1.metric("Segments", f"{fitted.n:,}")
            f2.metric("Observed Δ_B", f"{fitted.delta_bleu:+.2f} BLEU",
                      help=f"Corpus BLEU A = {fitted.bleu_a:.2f}, B = {fitted.bleu_b:.2f} (sacrebleu defaults).")
            f3.metric("P0", f"{fitted.p0:.3f}", help="Share of segments whose swap changes nothing.")
            f4.metric("b0", f"{fitted.b0:.1f}", help="n × maximum-likelihood Laplace scale of the non-zero effects.")
            new_values = {"p0": float(min(max(round(fitted.p0, 2), 0.0), 0.9)),
                          "b0": float(min(max(round(fitted.b0, 1), 5.0), 100.0)),
                          "delta": float(min(max(round(fitted.delta_bleu / 0.05) * 0.05, -10.0), 10.0))}
            st.button("Use these values in the sliders", on_click=apply_values, args=(new_values,),
                      key="use_fit", type="primary",
                      help="Sets P0, b0 and Δ_B (clipped to the sliders' ranges).")
            if fitted.n < 100:
                st.info("With fewer than ~100 segments the fitted P0 and b0 are rough; use a full test set.")
            g1, g2 = st.columns(2)
            effects = fitted.effects
            nonzero = effects[np.abs(effects) > 1e-9]
            hist = go.Figure()
            hist.add_trace(go.Histogram(x=nonzero, nbinsx=40, histnorm="probability density", name="non-zero effects",
                                        marker_color=figures.PALETTE[0],
                                        hovertemplate="δ %{x:.3f}<br>density %{y:.2f}<extra></extra>"))
            xs = np.linspace(nonzero.min(), nonzero.max(), 200) if nonzero.size else np.array([0.0])
            dens = np.exp(-np.abs(xs - fitted.location) / fitted.b) / (2 * fitted.b)
            hist.add_trace(go.Scatter(x=xs, y=dens, name="fitted Laplace", line=dict(color=figures.PALETTE[1], width=3),
                                      hovertemplate="δ %{x:.3f}<br>Laplace density %{y:.2f}<extra></extra>"))
            hist.update_layout(title="Swap effects and the fitted Laplace (cf. Figure 16)",
                               xaxis_title="Swap effect δ_i (BLEU points)", yaxis_title="Density",
                               template="plotly_white", height=420)
            g1.plotly_chart(hist, key="effects_chart", width="stretch")
            add = go.Figure()
            add.add_trace(go.Scatter(x=additivity.sum_of_effects, y=additivity.actual, mode="markers",
                                     name="random subsets", marker=dict(color=figures.PALETTE[2], size=7),
                                     hovertemplate="Σ single-swap effects %{x:.3f}<br>actual %{y:.3f}<extra></extra>"))
            lim = [float(min(additivity.sum_of_effects.min(), additivity.actual.min())),
                   float(max(additivity.sum_of_effects.max(), additivity.actual.max()))]
            add.add_trace(go.Scatter(x=lim, y=lim, mode="lines", name="y = x", line=dict(color="#555555", dash="dash")))
            add.update_layout(title=f"Additivity (cf. Figure 15): r = {additivity.correlation:.3f}",
                              xaxis_title="Sum of single-swap effects", yaxis_title="Effect of swapping the subset",
                              template="plotly_white", height=420)
            g2.plotly_chart(add, key="additivity_chart", width="stretch")
            st.caption(f"200 random subsets (each segment swapped with probability ½). RMS difference "
                       f"{additivity.rmse:.3f} BLEU: the paper's simulation assumes these agree.")
            st.download_button("Download the swap effects (CSV)",
                               pd.DataFrame({"segment": np.arange(1, fitted.n + 1), "effect": effects})
                               .to_csv(index=False).encode(), file_name="swap_effects.csv", mime="text/csv",
                               key="download_effects")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
plotted = pd.concat([fig4.assign(chart="figure4"), sens_p0.assign(chart="sensitivity_p0"),
                     sens_b0.assign(chart="sensitivity_b0")], ignore_index=True)
st.download_button("Download the plotted curves (CSV)", plotted.to_csv(index=False).encode(),
                   file_name="bleu_power_curves.csv", mime="text/csv", key="download_curves",
                   help="Every point of the power, sensitivity, Type-M and Type-S charts.")
with st.expander("Explain this page in plain language"):
    st.markdown(
        f"""
**The question.** Your new MT system is expected to beat the baseline by **Δ_B = {delta:g} BLEU** on a test set
of **{n:,} sentences**. Will the usual significance test — the paired randomization test, which swaps the two
systems' outputs on random subsets of sentences — find that difference?

**How the page simulates a test set without translating anything.** Swapping one sentence's outputs changes
the BLEU difference by a small amount, its *swap effect*. Card et al. found that these effects add up (the
effect of swapping a subset is close to the sum of single-sentence effects) and follow a simple shape: exactly
zero for a share **P0** of sentences, and a Laplace distribution for the rest, whose spread shrinks as 1/n
(**b0**). That is enough to simulate the randomization test.

**Engines.** The *randomization* engine runs the paper's simulation; the *fast* engine uses the fact that the
randomization test is a sign-flip test, whose null is very close to normal, and integrates that over the
distribution of the effects — instant, and checked against the full simulation.

**Reading the charts.** Below the dashed {target:.0%} line an experiment is under-powered: a real gain is
often missed, and a significant result usually overstates it (Type-M) — see the third tab.

**Your own data.** The last tab computes P0 and b0 from two systems' outputs with sacrebleu, shows how well the
Laplace fits (Figure 16) and checks the additivity assumption (Figure 15) on your data.
"""
    )

"""Machine-translation page: BLEU power with the randomization test (Card et al. 2020, §4, appendix G).

UI only: widgets → cached calls into ``core.mt`` → charts and metrics. The
state lives in the URL; only the open tab is computed; the randomization
simulation runs on demand, after the charts, with a progress bar.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from core import figures, mt
from core.plan import mt as mt_plan
from core.snippets import mt_snippet
from core.sizing import SampleSize
from pages._scaffold import (
    key_inputs,
    Metric,
    apply_values,
    cached,
    cached_upload,
    chart,
    cost_controls,
    current_link,
    decision_controls,
    fmt_money,
    pin_controls,
    pin_int,
    pinned_curve,
    pinned_designs,
    pin_columns,
    pins_table,
    plan_actions,
    prior_controls,
    source_of,
    download_csv,
    explain,
    fmt_pct,
    fmt_ratio,
    guard,
    metrics_row,
    sample_size_metric,
    simulation,
    simulation_controls,
    start,
    style,
    verdict,
    views,
)
from pages._scaffold import code_view

SAMPLE = Path(mt.__file__).resolve().parent / "data" / "mt_sample" / "sample.tsv"
N_OPTIONS = sorted({int(v) for v in np.round(np.geomspace(100, 20000, 40), -1)} | {2000, 3000})
CURVE_NS = tuple(np.unique(np.geomspace(100, 20000, 36).astype(int)).tolist())
VIEWS = {"power": "Power vs n (Figure 4)", "assurance": "Assurance vs n", "sensitivity": "Sensitivity to P0 and b0 (Figure 17)",
         "exaggeration": "Type-M and Type-S", "fit": "Fit P0 and b0 from your outputs"}


# The current design's cached calls take the page's one mt.BleuDesign (frozen, hashed by value).
@cached
def point(n, design: mt.BleuDesign):
    return design.power(n)


@cached
def grid(ns, deltas, p0s, b0s, alpha):
    return mt.power_grid(list(ns), list(deltas), list(p0s), list(b0s), alpha=alpha)


@cached
def mde(n, design: mt.BleuDesign, target):
    return design.mde(n, target_power=target)


@cached
def sample_sizes(design: mt.BleuDesign, target):
    first = design.sample_size(target_power=target)
    return SampleSize(first, first)  # the normal engine's power is monotone in n


@cached
def assurance_curve(ns, mean, sd, p0, b0, alpha):
    rows = []
    for size in ns:
        res = mt.bleu_assurance(size, mean, sd, p0, b0, alpha=alpha)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n", "assurance", "power", "ceiling"])


@cached
def assurance_n(mean, sd, p0, b0, alpha, target, ceiling, guess):
    from core.assurance import assurance_sample_size

    return assurance_sample_size(lambda size: mt.bleu_assurance(size, mean, sd, p0, b0, alpha=alpha).assurance,
                                 target, n_min=2, n_max=1_000_000, ceiling=ceiling, guess=guess)


PIN_KEYS = ("n", "delta", "p0", "b0", "alpha")


@cached
def pinned(values, target):
    """A pinned design's power and Type-M curves over n (its own Δ_B, P0, b0) and its summary."""
    v = dict(values)
    size, d = pin_int(v, "n", 2000), float(v.get("delta", 1.0))
    p0_p, b0_p, alpha_p = float(v.get("p0", 0.13)), float(v.get("b0", 25.8)), float(v.get("alpha", 0.05))
    frame = mt.power_grid(list(CURVE_NS), [d], [p0_p], [b0_p], alpha=alpha_p)[["n", "power", "type_m"]]
    point_p = mt.bleu_power(size, d, p0_p, b0_p, alpha=alpha_p)
    need = mt.bleu_sample_size(d, p0_p, b0_p, target_power=target, alpha=alpha_p) if d else -1
    summary = {"n": size, "design": f"Δ_B {d:+.2f}, P0 {p0_p:g}, b0 {b0_p:g}", "power": point_p.power,
               "type_m": point_p.type_m, "n_for_target": need}
    return frame, summary


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


def apply_preset() -> None:
    chosen = mt.PRESETS[st.session_state["preset"]]
    apply_values({"p0": chosen["p0"], "b0": chosen["b0"], "delta": chosen["delta_bleu"],
                  "n": min(N_OPTIONS, key=lambda v: abs(v - chosen["n"]))})


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("Machine translation: BLEU and the randomization test",
      "Card et al. (2020), §4 and appendix G. Power counts a result only when it is significant **and** in the "
      "right direction.")
side = st.sidebar
top = key_inputs(3)  # the inputs the question turns on, above the first chart
side.selectbox("Preset", list(mt.PRESETS), key="preset", bind="query-params", on_change=apply_preset,
               help="P0 and b0 fitted by Card et al. to four WMT En–De comparisons (Table 3), or their average (the "
               "paper's default for Figure 4). Choosing a preset sets the sliders.")
side.subheader("Design")
n = top[0].select_slider("Test-set size n (sentences)", options=N_OPTIONS, value=2000, key="n", bind="query-params",
                       help="Log-spaced steps from 100 to 20,000 sentences. WMT test sets have 2,000–3,000.")
delta = top[1].slider("Expected BLEU difference Δ_B", min_value=-10.0, max_value=10.0, value=1.0, step=0.05,
                    key="delta", bind="query-params",
                    help="New system minus baseline, in BLEU points. Typical claimed gains are 0.5–2 points.")
p0 = side.slider("P0: share of sentences whose swap changes nothing", min_value=0.0, max_value=0.9, value=0.13,
                 step=0.01, key="p0", bind="query-params",
                 help="Sentences where both systems' outputs contribute identically (often identical outputs). "
                 "Table 3: 0.09–0.19.")
b0 = side.slider("b0: spread of the swap effects", min_value=5.0, max_value=100.0, value=25.8, step=0.1, key="b0",
                 bind="query-params", help="Laplace scale of the non-zero swap effects times n (b = b0/n). Larger "
                 "means noisier sentence-level differences. Table 3: 22.5–29.4.")
alpha, target = decision_controls()
prior = prior_controls(default_mean=delta, unit="BLEU", low=-10.0, high=10.0, step=0.05, sd_default=0.5,
                       sd_high=5.0, help_unit=" (new minus baseline, BLEU points)")
cost_unit, currency = cost_controls(
    unit="test sentence", default=0.0,
    help="What one test sentence costs: sourcing it and a professional reference translation. The plan reports "
    "n × this. 0 leaves costs out.")
sim = simulation_controls(
    options=(500, 1000, 2000, 5000), default=2000, label="Run the randomization test",
    help="The paper's full simulation for the current design: simulated test sets, each tested with the paired "
    "randomization test. It runs after the charts, with a progress bar, and its estimates carry Monte Carlo "
    "standard errors. The instant numbers come from the test's normal approximation.")
n_trials = 999
if sim.run:
    n_trials = st.sidebar.select_slider("Randomization trials per test", options=[199, 499, 999, 1999, 4999],
                                        value=999, key="trials", bind="query-params",
                                        help="Swapped subsets per test; p = (1 + #as extreme)/(trials + 1).")

# ---------------------------------------------------------------------------
# the current design (fast engine, instant)
# ---------------------------------------------------------------------------
expected_nonzero = n * (1 - p0)
if expected_nonzero < 75:
    st.warning(f"Only about {expected_nonzero:.0f} sentences are expected to change the BLEU difference. The fast "
               "engine's normal approximation is unreliable below ~75; run the randomization test for this design.")
with guard():
    design = mt.BleuDesign(delta, p0, b0, alpha)
    result = point(n, design)
    mde_value = mde(n, design, target)
    sizes = sample_sizes(design, target) if delta != 0 else None

metrics_row(
    Metric("Power" if delta != 0 else "False-positive rate", fmt_pct(result.power),
           help="P(significant and in the right direction); at Δ_B = 0 the rate of false positives (≤ α)."),
    Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
           help="Average |observed Δ_B| / |true Δ_B| among significant results."),
    Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the wrong sign."),
    Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else f"{mde_value:.2f} BLEU",
           help="Smallest BLEU difference this test set detects with the target power (fast engine)."),
    sample_size_metric(sizes, target, unit="sentences",
                       help="Smallest test set (sentences) reaching the target power at this Δ_B.",
                       limit=1_000_000),
)
verdict(result.power, target, effect=delta, type_m=result.type_m)

# the prior on Δ_B (assurance) and the cost
assured = n_assured = None
if prior.on:
    with guard("Cannot average over this prior"):
        assured = mt.bleu_assurance(n, prior.mean, prior.sd, p0, b0, alpha=alpha)
        guess = sizes.first if sizes is not None and sizes.first > 0 and math.isclose(prior.mean, delta) else n
        n_assured = assurance_n(prior.mean, prior.sd, p0, b0, alpha, target, assured.ceiling, guess)
cost_now = n * cost_unit if cost_unit > 0 else None
cost_needed = sizes.first * cost_unit if cost_now is not None and sizes is not None and sizes.first > 0 else None
extra = []
if assured is not None:
    extra.append(Metric("Assurance", fmt_pct(assured.assurance),
                        help="P(significant in the hoped-for direction), averaged over the prior on Δ_B.",
                        caption=f"ceiling {fmt_pct(assured.ceiling)}; " + (
                            f"sentences for {target:.0%} assurance: {n_assured:,}" if n_assured > 0 else
                            f"{target:.0%} assurance is out of reach (ceiling)")))
if cost_now is not None:
    extra.append(Metric("Cost", fmt_money(cost_now, currency), help="n × the cost per test sentence.",
                        caption=f"at the sentences for {target:.0%} power: {fmt_money(cost_needed, currency)}"
                        if cost_needed is not None else None))
if extra:
    metrics_row(*extra)

pins = pin_controls("mt", PIN_KEYS, label=f"n = {n:,}, Δ_B = {delta:+.2f}")
pinned_frames, pinned_rows = pinned_designs(pins, lambda values: pinned(values, target))
pinned_power = pinned_curve(pinned_frames, "n", "power")
pinned_type_m = pinned_curve(pinned_frames, "n", "type_m")
pins_table({"pin": "current", "n": n, "design": f"Δ_B {delta:+.2f}, P0 {p0:g}, b0 {b0:g}",
            "power": result.power, "type_m": result.type_m,
            "n_for_target": sizes.first if sizes is not None else -1}, pinned_rows, pin_columns(target))

# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------
plotted: dict[str, pd.DataFrame] = {}
tab = views(VIEWS)
ns = tuple(sorted(set(CURVE_NS) | {n}))
needed = sizes.first if sizes is not None and 0 < sizes.first <= 20000 else None
if tab.open("power") or tab.open("exaggeration"):
    with guard():
        fig4 = grid(ns, tuple(sorted({0.5, 1.0, 2.0, 3.0, abs(delta)} - {0.0})), (p0,), (b0,), alpha)
    fig4 = fig4.assign(series=[f"Δ_B = {d:g}" for d in fig4["delta_bleu"]])
    plotted["figure4"] = fig4
if tab.open("power"):
    with tab["power"]:
        chart(figures.curve_figure(fig4, x="n", y="power", color="series", current=(n, result.power), target=target,
                                   title=f"Power vs test-set size (P0 = {p0:g}, b0 = {b0:g})",
                                   x_title="Test-set size n (sentences)", y_title="Power", y_range=(0, 1.02),
                                   pins=pinned_power, style=style()), "power_chart")
        if cost_now is not None:
            money = fig4[fig4["delta_bleu"] == abs(delta)] if delta else fig4.iloc[0:0]
            if len(money):
                money = money.assign(cost=money["n"] * cost_unit, series=f"Δ_B = {abs(delta):g}")
                plotted["power_vs_cost"] = money
                chart(figures.curve_figure(
                    money, x="cost", y="power", color="series", current=(cost_now, result.power), target=target,
                    lines=[figures.Line(x=cost_needed, text=f"{target:.0%} power<br>{fmt_money(cost_needed, currency, markdown=False)}")]
                    if cost_needed is not None and cost_needed <= money["cost"].max() else [],
                    title=f"Power vs cost of the test set ({currency}, {fmt_money(cost_unit, currency, markdown=False)} "
                          "per sentence)",
                    x_title=f"Cost ({currency})", y_title="Power", y_range=(0, 1.02), style=style()), "cost_chart")
if tab.open("assurance"):
    with tab["assurance"]:
        if assured is None:
            st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                    "large the BLEU gain is, the assurance says how likely the comparison is to succeed, and its "
                    "ceiling why a larger test set cannot make up for a vague prior.")
        else:
            with guard("Cannot average over this prior"):
                ns_a = tuple(sorted(set(np.unique(np.geomspace(100, 20000, 18).astype(int)).tolist()) | {n}))
                curve_a = assurance_curve(ns_a, prior.mean, prior.sd, p0, b0, alpha)
            plotted["assurance"] = curve_a
            tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                              curve_a.assign(series=f"power at the prior mean (Δ_B = {prior.mean:+.2f})",
                                             value=curve_a["power"])], ignore_index=True)
            chart(figures.curve_figure(tidy, x="n", y="value", color="series", current=(n, assured.assurance),
                                       target=target, lines=[figures.Line(y=assured.ceiling,
                                                                          text=f"ceiling {assured.ceiling:.0%}",
                                                                          color=figures.PALETTE[1])],
                                       title="Assurance and power vs test-set size", x_title="Test-set size n "
                                       "(sentences)", y_title="Probability", y_range=(0, 1.02), style=style()),
                  "assurance_chart")
            st.caption("The assurance levels off at the ceiling — the prior probability that the new system is "
                       "better at all: no test set can be surer than you are about the sign of the gain.")
if tab.open("sensitivity"):
    with tab["sensitivity"], guard():
        base_delta = abs(delta) if delta else 1.0
        sens_p0 = grid(ns, (base_delta,), tuple(sorted({0.0, 0.13, 0.3, 0.5, 0.7, round(p0, 4)})), (b0,), alpha)
        sens_b0 = grid(ns, (base_delta,), (p0,), tuple(sorted({10.0, 20.0, 25.8, 35.0, 50.0, round(b0, 4)})), alpha)
        sens_p0 = sens_p0.assign(series=[f"P0 = {v:g}" for v in sens_p0["p0"]])
        sens_b0 = sens_b0.assign(series=[f"b0 = {v:g}" for v in sens_b0["b0"]])
        plotted.update(sensitivity_p0=sens_p0, sensitivity_b0=sens_b0)
        c1, c2 = st.columns(2)
        with c1:
            chart(figures.curve_figure(sens_p0, x="n", y="power", color="series", current=(n, result.power),
                                       target=target, title=f"Varying P0 (Δ_B = {base_delta:g}, b0 = {b0:g})",
                                       x_title="n", y_title="Power", y_range=(0, 1.02), style=style(0.5)), "p0_chart")
        with c2:
            chart(figures.curve_figure(sens_b0, x="n", y="power", color="series", current=(n, result.power),
                                       target=target, title=f"Varying b0 (Δ_B = {base_delta:g}, P0 = {p0:g})",
                                       x_title="n", y_title="Power", y_range=(0, 1.02), style=style(0.5)), "b0_chart")
        st.caption("More identical outputs (higher P0) make a difference easier to detect; noisier sentence-level "
                   "effects (higher b0) make it harder — cf. Card et al. Figure 17.")
if tab.open("exaggeration"):
    with tab["exaggeration"]:
        c1, c2 = st.columns(2)
        text = f"{target:.0%} power<br>n = {needed:,}" if needed else ""
        with c1:
            chart(figures.type_m_figure(fig4, x="n", color="series", current=(n, result.type_m), needed=needed,
                                        needed_text=text, title="Type-M error (exaggeration ratio)", x_title="n",
                                        pins=pinned_type_m, style=style(0.5)), "type_m_chart")
        with c2:
            chart(figures.curve_figure(fig4, x="n", y="type_s", color="series", current=(n, result.type_s),
                                       target=None, title="Type-S error", x_title="n",
                                       y_title="P(wrong sign | significant)", hover_format=".4f",
                                       lines=[figures.Line(x=needed, text=text)] if needed else [], style=style(0.5)),
                  "type_s_chart")
# The uploaders are always rendered (hidden when another tab is open) so an upload survives a tab switch;
# the fit and its charts are computed only when this tab is open.
with tab["fit"]:
    if True:  # noqa: SIM108 (keeps the block aligned with the other tabs)
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
                fa = u1.file_uploader("System A outputs", type=["txt"], key="file_a", help="One segment per line.")
                fb = u2.file_uploader("System B outputs", type=["txt"], key="file_b", help="Aligned with A.")
                fr = u3.file_uploader("References", type=["txt"], key="file_ref", help="Aligned with A and B.")
                if fa and fb and fr:
                    texts = read_three(fa.getvalue(), fb.getvalue(), fr.getvalue())
            else:
                ft = st.file_uploader("TSV file", type=["tsv", "txt"], key="file_tsv",
                                      help="Three tab-separated columns: system A, system B, reference.")
                if ft:
                    texts = read_tsv(ft.getvalue())
        if texts is None and st.toggle("Use the bundled sample (40 news sentences, two paraphrasing systems)",
                                       key="use_sample", help="A small example so the fit can be tried without files."):
            texts = read_tsv(SAMPLE.read_bytes())
        if texts is not None and tab.open("fit"):
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
            new_values = {"p0": float(min(max(round(fitted.p0, 2), 0.0), 0.9)),
                          "b0": float(min(max(round(fitted.b0, 1), 5.0), 100.0)),
                          "delta": float(min(max(round(fitted.delta_bleu / 0.05) * 0.05, -10.0), 10.0))}
            st.button("Use these values in the sliders", on_click=apply_values, key="use_fit",
                      args=(new_values, "fitted to the uploaded outputs with sacrebleu (Card et al. 2020, app. G.1)"),
                      type="primary", help="Sets P0, b0 and Δ_B (clipped to the sliders' ranges).")
            if fitted.n < 100:
                st.info("With fewer than ~100 segments the fitted P0 and b0 are rough; use a full test set.")
            effects = fitted.effects
            nonzero = effects[np.abs(effects) > 1e-9]
            xs = np.linspace(nonzero.min(), nonzero.max(), 200) if nonzero.size else np.array([0.0])
            dens = np.exp(-np.abs(xs - fitted.location) / fitted.b) / (2 * fitted.b)
            g1, g2 = st.columns(2)
            with g1:
                chart(figures.histogram_figure({"non-zero effects": nonzero}, density=("fitted Laplace", xs, dens),
                                               title="Swap effects and the fitted Laplace (cf. Figure 16)",
                                               x_title="Swap effect δ_i (BLEU points)", style=style(0.5)),
                      "effects_chart")
            with g2:
                chart(figures.scatter_figure(additivity.sum_of_effects, additivity.actual, identity=True,
                                             name="random subsets",
                                             title=f"Additivity (cf. Figure 15): r = {additivity.correlation:.3f}",
                                             x_title="Sum of single-swap effects",
                                             y_title="Effect of swapping the subset", style=style(0.5)),
                      "additivity_chart")
            st.caption(f"200 random subsets (each segment swapped with probability ½). RMS difference "
                       f"{additivity.rmse:.3f} BLEU: the paper's simulation assumes these agree.")
            plotted["swap_effects"] = pd.DataFrame({"segment": np.arange(1, fitted.n + 1), "effect": effects})

# ---------------------------------------------------------------------------
# the randomization test, on demand
# ---------------------------------------------------------------------------
if sim.run:
    st.subheader("Randomization test (simulation)")
    if n_trials + 1 < 1 / alpha:
        st.error(f"**Too few trials:** with {n_trials} randomization trials the smallest p-value is "
                 f"{1 / (n_trials + 1):.4f}, above α = {alpha}. Use more trials or a larger α.")
    else:
        key = ("mt.randomization", n, delta, p0, b0, alpha, sim.n_sims, n_trials, sim.seed)
        with guard("Cannot simulate this design"):
            mc = simulation(key, lambda progress: mt.bleu_power(
                n, delta, p0, b0, alpha=alpha, method="randomization", n_sims=sim.n_sims, n_trials=n_trials,
                seed=sim.seed, progress=progress), text="Running the randomization test…")
        metrics_row(
            Metric("Simulated power" if delta != 0 else "Simulated false-positive rate", fmt_pct(mc.power),
                   se=f"{100 * mc.mc_se:.1f}%",
                   help=f"{mc.n_sims:,} simulated test sets, each with a {n_trials:,}-trial randomization test."),
            Metric("Simulated Type-M", fmt_ratio(mc.type_m),
                   se=f"{mc.type_m_se:.2f}×" if mc.type_m_se and math.isfinite(mc.type_m_se) else None),
            Metric("Simulated Type-S", fmt_pct(mc.type_s, 2),
                   se=f"{100 * mc.type_s_se:.2f}%" if mc.type_s_se and math.isfinite(mc.type_s_se) else None),
        )
        if abs(mc.power - result.power) <= 3 * max(mc.mc_se, 1e-12):
            st.caption("The fast engine agrees with the randomization test within 3 Monte Carlo standard errors.")
        else:
            st.warning(f"The fast engine ({fmt_pct(result.power)}) and the randomization test differ by more than 3 "
                       "Monte Carlo standard errors: trust the randomization test for this design.")

# ---------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------
preset_name = st.session_state.get("preset")


def origin(key, value):
    recorded = source_of(key, value, "")
    if recorded:
        return recorded
    chosen = mt.PRESETS.get(preset_name) if preset_name else None
    field = {"p0": "p0", "b0": "b0", "delta": "delta_bleu"}.get(key)
    if chosen is not None and field and math.isclose(float(chosen[field]), float(value), abs_tol=1e-9):
        return f"preset “{preset_name}” (Card et al. 2020, Table 3)"
    return source_of(key, value, "slider")


plan_figures = []
if tab.open("power"):
    plan_figures.append(("Power vs test-set size", figures.curve_figure(
        fig4, x="n", y="power", color="series", current=(n, result.power), target=target,
        x_title="Test-set size n (sentences)", y_title="Power", y_range=(0, 1.02))))
snippet = mt_snippet(n=n, delta=delta, p0=p0, b0=b0, alpha=alpha, target_power=target,
                     prior=(prior.mean, prior.sd) if assured is not None else None)
plan_actions(mt_plan.plan_item(
    design, result, n=n, target_power=target, mde=mde_value, sizes=sizes, assurance=assured,
    prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, n_assured=n_assured,
    cost=cost_now, cost_per_unit=cost_unit, cost_needed=cost_needed, currency=currency, figures=tuple(plan_figures),
    link=current_link(), code=snippet,
    sources={"n": source_of("n", n, "slider"), "delta": origin("delta", delta), "p0": origin("p0", p0),
             "b0": origin("b0", b0)}),
    key="mt")
code_view(snippet, key="mt_code")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
if plotted:
    download_csv(plotted, f"bleu_{tab.current}.csv", key="download_curves", label="Download the plotted data (CSV)")
explain(
    f"""
**The question.** Your new MT system is expected to beat the baseline by **Δ_B = {delta:g} BLEU** on a test set of
**{n:,} sentences**. Will the usual significance test — the paired randomization test, which swaps the two systems'
outputs on random subsets of sentences — find that difference?

**How the page simulates a test set without translating anything.** Swapping one sentence's outputs changes the BLEU
difference by a small amount, its *swap effect*. Card et al. found that these effects add up (the effect of swapping a
subset is close to the sum of single-sentence effects) and follow a simple shape: exactly zero for a share **P0** of
sentences, and a Laplace distribution for the rest, whose spread shrinks as 1/n (**b0**). That is enough to simulate
the randomization test.

**Engines.** The instant numbers use the fact that the randomization test is a sign-flip test, whose null is very close
to normal, integrated over the distribution of the effects. Switch on *Run the randomization test* for the paper's full
simulation of the current design; its estimates come with Monte Carlo standard errors.

**Reading the charts.** Below the dashed {target:.0%} line an experiment is under-powered: a real gain is often
missed, and a significant result usually overstates it (Type-M) — see the third tab.

**Your own data.** The last tab computes P0 and b0 from two systems' outputs with sacrebleu, shows how well the Laplace
fits (Figure 16) and checks the additivity assumption (Figure 15) on your data.
"""
)

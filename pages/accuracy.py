"""Accuracy page: McNemar (paired), unpaired accuracy, and head-to-head preferences.

UI only: widgets → cached calls into ``core.accuracy`` → charts and metrics.
Every widget is bound to the URL (``bind="query-params"``), so a link
reproduces the view.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import accuracy as acc
from core import figures
from core.datasets import SQUAD_TEST_SIZE, squad_models
from pages import ensure_frame, fmt_pct, metric

ensure_frame()

# ---------------------------------------------------------------------------
# cached core calls (all arguments hashable; results are frozen/picklable)
# ---------------------------------------------------------------------------
cache = st.cache_data(show_spinner=False, max_entries=256)


@cache
def paired_point(n, delta, agreement, alpha, test, method, n_sims, seed):
    return acc.mcnemar_power(n, delta, agreement, alpha=alpha, test=test, method=method, n_sims=n_sims, seed=seed)


@cache
def paired_mde(n, agreement, baseline, prior, target, alpha, test):
    return acc.mcnemar_mde(n, agreement=agreement, baseline=baseline, prior=prior,
                           target_power=target, alpha=alpha, test=test)


@cache
def paired_n(delta, agreement, target, alpha, test):
    return acc.mcnemar_sample_size(delta, agreement, target_power=target, alpha=alpha, test=test)


@cache
def paired_curves(ns, designs, alpha, test):
    return acc.paired_curves(list(ns), list(designs), alpha=alpha, test=test)


@cache
def paired_distribution(n, delta, agreement, alpha, test):
    return acc.difference_distribution(n, delta, agreement, alpha=alpha, test=test)


@cache
def unpaired_point(n, baseline, delta, alpha):
    return acc.unpaired_power(n, baseline, delta, alpha=alpha)


@cache
def unpaired_mde(n, baseline, target, alpha):
    return acc.unpaired_mde(n, baseline, target_power=target, alpha=alpha)


@cache
def unpaired_n(baseline, delta, target, alpha):
    return acc.unpaired_sample_size(baseline, delta, target_power=target, alpha=alpha)


@cache
def preference_n(p_new, p_old, target, alpha, ties, test):
    return acc.preference_sample_size(p_new, p_old, target_power=target, alpha=alpha, ties=ties, test=test)


@cache
def unpaired_curves(ns, baseline, deltas, alpha):
    return acc.unpaired_curves(list(ns), baseline, list(deltas), alpha=alpha)


@cache
def unpaired_distribution(n, baseline, delta, alpha):
    return acc.unpaired_distribution(n, baseline, delta, alpha=alpha)


@cache
def preference_point(n, p_new, p_old, alpha, ties, test, method, n_sims, seed):
    return acc.preference_power(n, p_new, p_old, alpha=alpha, ties=ties, test=test,
                                method=method, n_sims=n_sims, seed=seed)


@cache
def preference_mde(n, tie_rate, target, alpha, ties, test):
    return acc.preference_mde(n, tie_rate=tie_rate, target_power=target, alpha=alpha, ties=ties, test=test)


@cache
def preference_curves(ns, designs, alpha, ties, test):
    return acc.preference_curves(list(ns), list(designs), alpha=alpha, ties=ties, test=test)


@cache
def preference_distribution(n, p_new, p_old, alpha, ties, test):
    return acc.preference_distribution(n, p_new, p_old, alpha=alpha, ties=ties, test=test)


@cache
def task_table(target, alpha):
    return acc.task_mde_table(target_power=target, alpha=alpha)


@cache
def squad_board(n, target, alpha, test):
    return acc.squad_leaderboard(n=n, target_power=target, alpha=alpha, test=test)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def nice_sizes(lo: int, hi: int) -> list[int]:
    """1-1.5-2-3-5-7.5 sequence of sizes between lo and hi."""
    out = []
    for exp in range(1, 8):
        for m in (1, 1.5, 2, 3, 5, 7.5):
            v = int(m * 10**exp)
            if lo <= v <= hi:
                out.append(v)
    return out


N_OPTIONS = nice_sizes(10, 1_000_000) + [390_965]  # includes QQP's test set
N_OPTIONS = sorted(set(N_OPTIONS + [147, 1725, 1821, 3000, 5463, 8862, 9796, 11873]))


def curve_sizes(n: int) -> list[int]:
    lo, hi = max(10, n // 30), min(2_000_000, max(n * 30, 200))
    return sorted(set(np.unique(np.geomspace(lo, hi, 36).astype(int)).tolist() + [n]))


def fmt_ratio(x: float) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{x:.2f}×"


def fmt_n(x: int) -> str:
    return "not reachable" if x is None or x < 0 else f"{x:,}"


def show_error(err: Exception) -> None:
    st.error(f"**Cannot compute this design.** {err}")
    st.stop()


def tidy_for_download(frame: pd.DataFrame, scenario: str) -> bytes:
    out = frame.copy()
    out.insert(0, "scenario", scenario)
    return out.to_csv(index=False).encode("utf-8")


# Bound widgets carry their displayed label in the URL, so labels are short and stable.
TEST_LABELS = {
    "exact": "exact (default)",
    "midp": "mid-p",
    "chi2": "chi-square",
    "chi2_cc": "chi-square, corrected",
    "normal": "normal approximation",
}
SOURCE_LABELS = {
    "manual": "my estimate",
    "glue": "GLUE regression",
    "squad": "SQuAD 2.0 regression",
    "lachenbruch_mid": "no prior: midpoint",
    "lachenbruch_low": "no prior: least agreement",
    "lachenbruch_high": "no prior: most agreement",
}
SCENARIO_LABELS = {
    "paired": "paired (McNemar)",
    "unpaired": "unpaired",
    "preference": "preferences",
}
# ---------------------------------------------------------------------------
# sidebar: the design
# ---------------------------------------------------------------------------
st.title("Comparing models on accuracy")
st.caption(
    "Card et al. (2020), §2–3 and appendices B, C, E, H.4. Power counts a result only when it is "
    "significant **and** points the right way (their Figure 2)."
)

side = st.sidebar
scenario = side.radio(
    "Scenario",
    list(SCENARIO_LABELS),
    format_func=SCENARIO_LABELS.get,
    key="scenario",
    bind="query-params",
    captions=["two models, one test set", "each model on its own sample", "raters choose A, B or neither"],
    help="Paired: both models scored on the same items (McNemar's test). Unpaired: each model on a "
    "different sample from the same distribution (two-proportion test, appendix E.5). Preferences: "
    "raters choose A, B or neither (Figure 1, appendix H.4).",
)

side.subheader("Design")
if scenario == "preference":
    n = side.select_slider(
        "Number of raters (n)", options=N_OPTIONS, value=100, key="n", bind="query-params",
        help="Independent judgments, one per rater (log-spaced steps).",
    )
else:
    n = side.select_slider(
        "Test-set size (n)" if scenario == "paired" else "Items per model (n)",
        options=N_OPTIONS, value=500, key="n", bind="query-params",
        help="Number of test items (log-spaced steps; includes the GLUE/SQuAD test-set sizes).",
    )

if scenario in ("paired", "unpaired"):
    delta_pp = side.slider(
        "Expected accuracy difference Δ (percentage points)", min_value=-20.0, max_value=20.0, value=2.0,
        step=0.1, key="delta", bind="query-params",
        help="New model minus baseline, in accuracy points. Use your honest expectation, not the hoped-for "
        "best case; recent SOTA gains on GLUE were typically 0.5–1.5 points (Table 2).",
    )
    delta = round(delta_pp / 100.0, 6)
    baseline_pct = side.slider(
        "Baseline accuracy (%)", min_value=50.0, max_value=99.9, value=90.0, step=0.1, key="baseline",
        bind="query-params",
        help="Accuracy of the current best model. Needed for the agreement priors and the unpaired test.",
    )
    baseline = round(baseline_pct / 100.0, 6)

if scenario == "paired":
    source = side.selectbox(
        "Where does the agreement rate come from?", list(SOURCE_LABELS), format_func=SOURCE_LABELS.get,
        key="source", bind="query-params",
        help="P_a, the share of items on which both models are right or both wrong. If you have both models' "
        "dev-set predictions, measure it there (§3.2). Otherwise use a regression on past leaderboard models "
        "(appendix E.2.1) or Lachenbruch's no-prior assumptions (appendix E.3).",
    )
    manual_agreement_pct = side.slider(
        "Agreement rate P_a (%)", min_value=10.0, max_value=99.9, value=90.0, step=0.1, key="agreement",
        bind="query-params", disabled=source != "manual",
        help="Share of test items on which the two models agree (both right or both wrong). Higher agreement "
        "means fewer discordant items and less noise. Must be at most 100 − |Δ|.",
    )
    test = side.selectbox(
        "Significance test", list(acc.TESTS), format_func=TEST_LABELS.get, key="test", bind="query-params",
        help="Exact: conditional binomial test on the discordant items (statsmodels `mcnemar(exact=True)`). "
        "Mid-p: its less conservative mid-p version (Fagerland et al. 2013). Chi-square: the asymptotic test, "
        "with or without continuity correction. Normal approximation: the closed form used for fast MDE tables "
        "(Connett et al. 1987; MESS `power_mcnemar_test`, method 'normal').",
    )
elif scenario == "preference":
    p_new_pct = side.slider(
        "Raters preferring the new system (%)", min_value=0.0, max_value=100.0, value=65.0, step=0.5,
        key="p_new", bind="query-params",
        help="Figure 1 of Card et al. uses 65% preferring system B and no ties.",
    )
    tie_pct = side.slider(
        "Raters saying 'neither' (%)", min_value=0.0, max_value=90.0, value=0.0, step=0.5, key="ties_pct",
        bind="query-params", help="Ties. The rest prefer the baseline system.",
    )
    ties = side.radio(
        "Ties in the test", ["drop", "split"], key="ties", bind="query-params", horizontal=True,
        format_func={"drop": "dropped", "split": "split by coin flip"}.get,
        help="Dropped: sign test on the raters with a preference (default). Split: each tie counts for one "
        "side at random, then the binomial test on all raters.",
    )
    test = side.selectbox(
        "Significance test", ["exact", "midp", "chi2", "chi2_cc"], format_func=TEST_LABELS.get, key="test",
        bind="query-params", help="Exact binomial (sign) test by default; its mid-p and asymptotic versions.",
    )

if scenario in ("paired", "preference"):
    engine = side.radio(
        "Engine", list(acc.METHODS), key="engine", bind="query-params", horizontal=True,
        format_func={"exact": "exact", "simulate": "Monte Carlo (Figure 2)"}.get,
        help="Exact summation has no simulation error. Monte Carlo runs the paper's simulation (Figure 2) for "
        "the current design and reports its standard error; the curves always use the exact engine.",
    )
    if engine == "simulate":
        n_sims = side.select_slider(
            "Simulated experiments", options=[1000, 2000, 5000, 10000, 20000, 50000, 100000], value=10000,
            key="sims", bind="query-params", help="More replicates, smaller Monte Carlo error.",
        )
        seed = int(side.number_input("Random seed", min_value=0, max_value=2**31 - 1, value=2020, step=1,
                                     key="seed", bind="query-params", help="Fixes the simulation."))
    else:
        n_sims, seed = 10000, 2020
else:
    engine, n_sims, seed = "exact", 10000, 2020

side.subheader("Decision rule")
alpha = side.select_slider(
    "Significance level α (two-sided)", options=[0.001, 0.005, 0.01, 0.025, 0.05, 0.1], value=0.05,
    key="alpha", bind="query-params", help="Reject 'no difference' when p ≤ α.",
)
target = side.slider(
    "Target power", min_value=0.5, max_value=0.99, value=0.8, step=0.01, key="target", bind="query-params",
    help="80% is the common minimum (Cohen 1962). Used for the MDE and the required n.",
)

# ---------------------------------------------------------------------------
# computation
# ---------------------------------------------------------------------------
curves_frame: pd.DataFrame
try:
    if scenario == "paired":
        if source == "manual":
            agreement = round(manual_agreement_pct / 100.0, 6)
            mde_prior, mde_agreement, mde_baseline = None, agreement, None
        else:
            agreement = acc.design_agreement(source, delta=delta, baseline=baseline)
            mde_prior, mde_agreement, mde_baseline = source, None, baseline
            side.info(f"P_a from the {SOURCE_LABELS[source]}: **{agreement:.2%}** at Δ = {delta_pp:+.1f} pp, "
                      f"baseline {baseline_pct:.1f}%.")
        if abs(delta) > 1 - agreement + 1e-12:
            side.error(
                f"With agreement {agreement:.1%}, the models disagree on only {1 - agreement:.1%} of items, "
                f"so their accuracies can differ by at most {100 * (1 - agreement):.1f} points. "
                "Lower the agreement or |Δ|."
            )
            st.error(
                f"**Impossible design:** |Δ| = {abs(delta_pp):.1f} pp exceeds 1 − P_a = {100 * (1 - agreement):.1f} pp. "
                "Two models can only differ in accuracy on items where they disagree."
            )
            st.stop()
        result = paired_point(n, delta, agreement, alpha, test, engine, n_sims, seed)
        mde = paired_mde(n, mde_agreement, mde_baseline, mde_prior, target, alpha, test)
        n_needed = paired_n(delta, agreement, target, alpha, test) if delta != 0 else None
        ns = tuple(curve_sizes(n))
        base_d = abs(delta) if delta != 0 else 0.02
        deltas = sorted({round(base_d * m, 4) for m in (0.5, 1.0, 2.0)})
        designs = []
        for d in deltas:
            if source == "manual":
                for a in sorted({agreement, round(agreement - 0.05, 4)}, reverse=True):
                    if 0 < 1 - a and d <= 1 - a + 1e-12:
                        designs.append((d, a))
            elif baseline + d <= 1:
                designs.append((d, acc.design_agreement(source, delta=d, baseline=baseline)))
        curves_frame = paired_curves(ns, tuple(designs), alpha, test)
        curves_frame["series"] = [f"Δ = {100 * d:.2g} pp" for d in curves_frame["delta"]]
        curves_frame["agreement_label"] = [f"P_a = {a:.1%}" for a in curves_frame["agreement"]]
        dist = paired_distribution(n, delta, agreement, alpha, test)
        effect = delta
        dash_col = "agreement_label" if source == "manual" else None
    elif scenario == "unpaired":
        agreement = None
        if not 0 < baseline + delta < 1:
            st.error(f"**Impossible design:** baseline {baseline_pct:.1f}% + Δ {delta_pp:+.1f} pp must stay "
                     "between 0% and 100%.")
            st.stop()
        result = unpaired_point(n, baseline, delta, alpha)
        mde = unpaired_mde(n, baseline, target, alpha)
        n_needed = unpaired_n(baseline, delta, target, alpha) if delta != 0 else None
        ns = tuple(curve_sizes(n))
        base_d = abs(delta) if delta != 0 else 0.02
        deltas = tuple(sorted({round(base_d * m, 4) for m in (0.5, 1.0, 2.0) if baseline + base_d * m < 1}))
        curves_frame = unpaired_curves(ns, baseline, deltas, alpha)
        curves_frame["series"] = [f"Δ = {100 * d:.2g} pp" for d in curves_frame["delta"]]
        dist = unpaired_distribution(n, baseline, delta, alpha)
        effect = delta
        dash_col = None
    else:
        p_new, tie_rate = p_new_pct / 100.0, tie_pct / 100.0
        p_old = round(1.0 - p_new - tie_rate, 6)
        if p_old < -1e-9:
            side.error("Preferring the new system plus ties cannot exceed 100%.")
            st.error(f"**Impossible design:** {p_new_pct:.1f}% + {tie_pct:.1f}% ties exceeds 100% of raters.")
            st.stop()
        p_old = max(p_old, 0.0)
        if p_new + p_old <= 0:
            st.error("**Nothing to test:** every rater says 'neither'.")
            st.stop()
        result = preference_point(n, p_new, p_old, alpha, ties, test, engine, n_sims, seed)
        mde = preference_mde(n, tie_rate, target, alpha, ties, test)
        n_needed = preference_n(p_new, p_old, target, alpha, ties, test) if p_new != p_old else None
        ns = tuple(curve_sizes(n))
        share = 1 - tie_rate
        gap = p_new - p_old if p_new != p_old else 0.1
        gaps = sorted({round(abs(gap) * m, 4) for m in (0.5, 1.0, 2.0) if abs(gap) * m <= share})
        designs = tuple(((share + g) / 2, (share - g) / 2) for g in gaps)
        curves_frame = preference_curves(ns, designs, alpha, ties, test)
        curves_frame["series"] = [f"gap = {100 * (a - b):.2g} pp" for a, b in zip(curves_frame["p_a"], curves_frame["p_b"])]
        dist = preference_distribution(n, p_new, p_old, alpha, ties, test)
        effect = p_new - p_old
        dash_col = None
        agreement = None
except ValueError as err:
    show_error(err)

# ---------------------------------------------------------------------------
# metrics row
# ---------------------------------------------------------------------------
unit = "preference gap" if scenario == "preference" else "accuracy gain"
cols = st.columns(5)
power_label = "Power" if effect != 0 else "False-positive rate"
metric(
    cols[0], power_label, fmt_pct(result.power), se=f"{100 * result.mc_se:.1f}%" if result.mc_se else None,
    help="P(significant and in the right direction). At Δ = 0 this is the rate of false positives, which "
    "should not exceed α." + (f" Monte Carlo: {result.n_sims:,} simulated experiments." if result.mc_se else ""),
)
cols[1].metric(
    "Type-M (exaggeration)", fmt_ratio(result.type_m),
    help="Average |observed difference| / |true difference| among significant results (appendix B).",
)
cols[2].metric(
    "Type-S (wrong sign)", fmt_pct(result.type_s, 2),
    help="Share of significant results whose sign is wrong (appendix B).",
)
cols[3].metric(
    f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde) else f"{100 * mde:.2f} pp",
    help=f"Smallest {unit} this design detects with the target power"
    + (" (the agreement prior is re-evaluated at each candidate Δ)." if scenario == "paired" and agreement is not None
       and source != "manual" else "."),
)
n_help = {
    "paired": "Smallest test set reaching the target power at this Δ and P_a.",
    "unpaired": "Smallest number of items per model (each model on its own sample).",
    "preference": "Smallest number of raters reaching the target power.",
}[scenario]
cols[4].metric(f"n for {target:.0%} power", "—" if n_needed is None else fmt_n(n_needed), help=n_help)

if result.power < target and effect != 0:
    st.warning(
        f"**Under-powered:** only {fmt_pct(result.power)} of experiments like this would find the "
        f"difference. Significant results would overstate it by {fmt_ratio(result.type_m)} on average."
    )
elif effect != 0:
    st.success(f"**Adequately powered** ({fmt_pct(result.power)} ≥ {target:.0%}).")

# ---------------------------------------------------------------------------
# charts
# ---------------------------------------------------------------------------
x_title = "Number of raters" if scenario == "preference" else (
    "Test-set size n" if scenario == "paired" else "Items per model n")
tabs = st.tabs(["Power vs n", "Exaggeration (Type-M / Type-S)", "Why significant results exaggerate",
                "Benchmarks (Table 2)", "SQuAD 2.0 leaderboard"])

current_power = result.power if effect != 0 else result.rejection_rate
with tabs[0]:
    fig = figures.curve_figure(
        curves_frame, x="n", y="power", color="series", dash=dash_col, current=(n, current_power),
        target=target, title="Power vs sample size (cf. Figure 3)", x_title=x_title, y_title="Power",
        y_range=(0, 1.02),
    )
    st.plotly_chart(fig, key="power_chart", width="stretch")

with tabs[1]:
    c1, c2 = st.columns(2)
    fig_m = figures.curve_figure(
        curves_frame, x="n", y="type_m", color="series", dash=dash_col,
        current=(n, result.type_m), target=None, title="Type-M error (cf. Figure 7)",
        x_title=x_title, y_title="Exaggeration ratio", hover_format=".2f",
    )
    fig_m.update_yaxes(type="log", tickvals=[1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 200],
                       ticktext=["1×", "1.25×", "1.5×", "2×", "3×", "5×", "10×", "20×", "50×", "100×", "200×"])
    figures.add_reference_line(fig_m, y=1.0, text="no exaggeration", log_y=True)
    fig_s = figures.curve_figure(
        curves_frame, x="n", y="type_s", color="series", dash=dash_col,
        current=(n, result.type_s), target=None, title="Type-S error (cf. Figure 8)",
        x_title=x_title, y_title="P(wrong sign | significant)", hover_format=".4f",
    )
    if n_needed is not None and n_needed > 0:
        for fig_ in (fig_m, fig_s):  # where the current design reaches the target power
            figures.add_reference_line(fig_, x=n_needed, text=f"{target:.0%} power<br>n = {n_needed:,}")
    c1.plotly_chart(fig_m, key="type_m_chart", width="stretch")
    c2.plotly_chart(fig_s, key="type_s_chart", width="stretch")
    st.caption(f"The dashed vertical line marks the size at which the current design reaches {target:.0%} power. "
               "Left of it, significant results overstate (Type-M) or even reverse (Type-S) the true difference.")

with tabs[2]:
    fig_d = figures.difference_distribution_figure(
        dist, true_effect=effect, mean_significant=result.mean_significant,
        title=f"What {n:,}-{'rater' if scenario == 'preference' else 'item'} experiments would observe (cf. Figure 1)",
        x_title="Observed " + ("preference gap (new − old)" if scenario == "preference" else "accuracy difference"),
    )
    st.plotly_chart(fig_d, key="distribution_chart", width="stretch")
    sig_share = result.rejection_rate
    if math.isfinite(result.mean_significant):
        st.markdown(
            f"Of all experiments like yours, **{fmt_pct(sig_share)}** come out significant (orange). "
            f"Their average observed difference is **{100 * result.mean_significant:+.2f} pp** against a true "
            f"**{100 * effect:+.2f} pp** — the filter 'only significant results get reported' inflates the effect."
        )
    if scenario == "unpaired":
        st.caption("Unpaired: normal approximation of the observed difference (the z test's own model).")

with tabs[3]:
    table = task_table(target, alpha)
    st.plotly_chart(
        figures.mde_table_figure(table, current_delta=abs(effect) if scenario != "preference" and effect else None,
                                 target=target),
        key="mde_table_chart", width="stretch",
    )
    show = table[["task", "n", "sota", "mde_regression", "mde_lachenbruch_mid", "mde_lachenbruch_low",
                  "mde_lachenbruch_high", "mde_unpaired", "mean_reported_delta", "paper_mde"]].copy()
    for col in show.columns[2:]:
        show[col] = show[col] * 100
    st.dataframe(
        show, hide_index=True, width="stretch",
        column_config={
            "task": "Task", "n": st.column_config.NumberColumn("Test size", format="%d"),
            "sota": st.column_config.NumberColumn("SOTA (%)", format="%.1f"),
            "mde_regression": st.column_config.NumberColumn("MDE, regression prior (pp)", format="%.2f"),
            "mde_lachenbruch_mid": st.column_config.NumberColumn("MDE, Lachenbruch mid", format="%.2f"),
            "mde_lachenbruch_low": st.column_config.NumberColumn("… generous bound", format="%.2f"),
            "mde_lachenbruch_high": st.column_config.NumberColumn("… conservative bound", format="%.2f"),
            "mde_unpaired": st.column_config.NumberColumn("MDE, unpaired test", format="%.2f"),
            "mean_reported_delta": st.column_config.NumberColumn("Mean reported gain (pp)", format="%.2f"),
            "paper_mde": st.column_config.NumberColumn("Paper's MDE (pp)", format="%.2f"),
        },
    )
    st.caption(
        "MDE of a typical next model against each task's SOTA (6 May 2020), McNemar normal approximation with "
        "the overlap regression of its benchmark — Card et al. Table 2 (paper's values, which used the exact "
        "unconditional test, in the last column) and Table 9. Where the mean reported gain is below the MDE "
        "(WNLI, MRPC, SST-2), typical claims of improvement are under-powered."
    )
    st.download_button("Download this table (CSV)", tidy_for_download(table, "benchmarks"),
                       file_name="benchmark_mde.csv", mime="text/csv", key="download_table")

with tabs[4]:
    models = squad_models()
    st.markdown(
        "**Validation-data approach (§3.2, appendix D).** Pick a baseline and a new SQuAD 2.0 submission: "
        "their dev-set accuracy difference and agreement give the power of a comparison on the test set."
    )
    labels = {i: f"#{i} · {row.date:%Y-%m-%d} · {row.description[:60] or '(unnamed)'} · dev {row.dev_em:.1f}"
              for i, row in models.iterrows()}
    ids = list(models.index)
    c1, c2 = st.columns(2)
    base_id = c1.selectbox("Baseline submission", ids, index=ids.index(128), format_func=labels.get,
                           key="squad_base", bind="query-params", help="Usually the current state of the art.")
    new_id = c2.selectbox("New submission", ids, index=ids.index(134), format_func=labels.get,
                          key="squad_new", bind="query-params", help="The model you want to show is better.")
    pair = acc.squad_pair(base_id, new_id) if base_id != new_id else None
    if pair is None:
        st.warning("Pick two different submissions.")
    elif pair.delta_dev == 0:
        st.info("These two submissions have the same dev accuracy: there is no expected difference to detect.")
    else:
        pair_power = paired_point(SQUAD_TEST_SIZE, pair.delta_dev, pair.agreement_dev,
                                  alpha, "exact", "exact", 10000, 0)
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("Dev Δ accuracy", f"{100 * pair.delta_dev:+.2f} pp",
                  help="New minus baseline exact match on the 11,873 dev questions.")
        m2.metric("Dev agreement P_a", f"{pair.agreement_dev:.2%}",
                  help="Share of dev questions both answer right or both wrong.")
        m3.metric(f"Power on the test set (n = {SQUAD_TEST_SIZE:,})", fmt_pct(pair_power.power),
                  help="Exact McNemar test, dev Δ and P_a assumed to carry over to test (§3.2).")
        m4.metric("Observed test Δ", f"{100 * pair.delta_test:+.2f} pp",
                  help="What the leaderboard reported on the hidden test set.")

    st.markdown("**Which leaderboard submissions were well powered?** (Figure 10)")
    size_choice = st.radio(
        "Test-set size used for power", ["test", "dev"], horizontal=True, key="squad_size", bind="query-params",
        format_func={"test": "SQuAD 2.0 test set (8,862)", "dev": "dev-set size (11,873), as the paper's counts"}.get,
        help="The paper's numbers (19 of 143 submissions with ≥ 80% power; 14 of them significant on test) are "
        "reproduced with the dev-set size. The hidden test set has 8,862 questions.",
    )
    board = squad_board(11873 if size_choice == "dev" else None, target, alpha, "exact")
    st.plotly_chart(figures.leaderboard_figure(board, target=target), key="leaderboard_chart", width="stretch")
    powered = board["powered"]
    st.markdown(
        f"**{int(powered.sum())} of {len(board)}** submissions had ≥ {target:.0%} power against the SOTA of "
        f"their day; **{int((powered & board['significant_improvement']).sum())}** of those improved "
        f"significantly on test, against **{int((~powered & board['significant_improvement']).sum())} of "
        f"{int((~powered).sum())}** under-powered ones."
    )
    st.caption(
        "Rule used here: power requires significance *with the correct sign*; a 'significant improvement' needs "
        "p ≤ α and a positive test difference. The paper counted significance without the sign condition. "
        "Test-set disagreement counts were not released, so test p-values use the dev agreement rate."
    )
    st.download_button("Download the leaderboard analysis (CSV)", tidy_for_download(board, "squad2"),
                       file_name="squad2_power.csv", mime="text/csv", key="download_board")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
st.download_button(
    "Download the plotted curves (CSV)", tidy_for_download(curves_frame, scenario),
    file_name=f"accuracy_{scenario}_curves.csv", mime="text/csv", key="download_curves",
    help="Tidy table of every point in the power, Type-M and Type-S charts.",
)

with st.expander("Explain this page in plain language"):
    st.markdown(
        f"""
**What is being planned?** You expect a new model to beat a baseline by **Δ** accuracy points. You will
test that on **n** items. The question is whether that experiment is able to tell a real improvement from luck.

**Why agreement matters (paired tests).** On one test set, McNemar's test only looks at items where the
two models *disagree*. If two strong models agree on 95% of items, only 5% of the test set carries any
information; the higher the agreement, the less noise, and the easier a given Δ is to detect (Figure 3).
If you can, measure agreement on the dev set; otherwise the page can predict it from past leaderboards
(appendix E.2.1) or bracket it (Lachenbruch 1992, appendix E.3).

**Power** is the share of such experiments that would end in a significant result in the right direction.
Below {target:.0%} the experiment is under-powered: a real gain is likely to be missed.

**Type-M and Type-S.** When power is low, the only experiments that reach significance are those where luck
*inflated* the difference. So a significant result from a small test set systematically overstates the gain
(Type-M, exaggeration ratio), and can even have the wrong sign (Type-S). The third tab shows this directly:
the orange (significant) part of the distribution sits far from the true difference.

**MDE** is the smallest true difference this design detects with the target power. If the gain you can
honestly expect is below it, use a larger test set or a different benchmark (the paper suggests retiring
WNLI, MRPC and SST-2 for SOTA claims).

**Engines.** Numbers are computed exactly, by summing over the binomial distribution of discordant items
and of their split — no simulation noise. The Monte Carlo engine runs the paper's simulation (Figure 2)
and reports a ± standard error, so you can check that the two agree.
"""
    )

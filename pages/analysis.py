"""Analyze-your-results page: tests, effect sizes, Bayesian assessment, many systems.

NLPStatTest (Zhu et al. 2020, §3) and HyBayes (Azer et al. 2020, §2.3–2.4).
UI only: widgets → cached calls into ``core.analysis`` / ``core.bayes``.
Uploaded names are shown escaped (code spans in Markdown, escaped HTML in charts).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from core import analysis as an
from core import bayes, figures
from core.plan import analysis as analysis_plan
from pages._scaffold import (
    link_values,
    Metric,
    cached,
    cached_upload,
    chart,
    current_link,
    download_csv,
    explain,
    guard,
    list_of,
    metrics_row,
    plan_actions,
    safe_message,
    start,
    style,
)

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
def units(a, b, m, how, seed):
    return an.evaluation_units(np.array(a), np.array(b), m, how=how, seed=seed)


@cached
def run_tests(a, b, alpha, alternative, seed, tests, statistic):
    return an.paired_tests(np.array(a), np.array(b), alpha=alpha, alternative=alternative, seed=seed,
                           tests=list(tests), statistic=statistic, n_resamples=5000)


@cached
def effect_sizes(a, b):
    return an.effect_sizes(np.array(a), np.array(b))


@cached
def recommend(d, alpha, binary):
    return an.recommend_tests(np.array(d), alpha=alpha, binary=binary)


@cached
def power_curve(d, alpha, test, seed):
    return an.bootstrap_power_curve(np.array(d), alpha=alpha, test=test, n_iter=400, seed=seed)


@cached
def pairwise(systems: pd.DataFrame, test, alpha, seed):
    return an.pairwise_comparisons(systems, test=test, alpha=alpha, seed=seed)


@cached
def bayes_accuracy(ca, na, cb, nb, prior, rope, hdi):
    return bayes.compare_accuracies(ca, na, cb, nb, prior=prior, rope=rope, hdi=hdi)


@cached
def bayes_means(d, rope, hdi):
    return bayes.compare_means(np.array(d), rope=rope, hdi=hdi)


def fmt_p(p):
    return "—" if p is None or not math.isfinite(p) else (f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}")


def plot_text(name: str) -> str:
    """A user-supplied name inside a chart, cut to 60 characters (the figure builders escape it)."""
    return str(name)[:60]


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("Analyze your results",
      "Upload per-item results of two (or more) systems: data checks, the right significance test, effect sizes with "
      "intervals, a Bayesian HDI/ROPE assessment, and what to write in the paper. NLPStatTest (Zhu et al. 2020) and "
      "HyBayes (Azer et al. 2020).")
side = st.sidebar
source = side.radio("Data", ["sample", "upload", "paste"], key="data", bind="query-params", horizontal=True,
                    help="Try the bundled sample data, upload a CSV/TSV file, or paste the rows.")
link_values("kind", KIND_LABELS)
kind = side.selectbox("Layout", list(an.KINDS), format_func=KIND_LABELS.get, key="kind", bind="query-params",
                      help="Paired scores: two numeric columns (A, B). 0/1 correctness: two columns of 0/1. Predictions "
                      "+ gold: three columns (A's prediction, B's prediction, gold label). One column per system: "
                      "compare many systems pairwise.")
side.subheader("Evaluation units (§3.1.1)")
m = int(side.number_input("Items per evaluation unit m", min_value=1, max_value=1000, value=1, step=1, key="m",
                          bind="query-params",
                          help="Aggregate m adjacent items into one unit (e.g. documents of m sentences)."))
how = side.radio("Aggregate", ["mean", "median"], key="how", horizontal=True, bind="query-params",
                 help="How the items of a unit are combined.")
shuffle = int(side.number_input("Shuffle seed (0 = keep file order)", min_value=0, max_value=2**31 - 1, value=0,
                                key="shuffle", bind="query-params", help="Shuffle items before grouping them."))
side.subheader("Tests")
alpha = side.select_slider("Significance level α", options=[0.001, 0.005, 0.01, 0.05, 0.1], value=0.05, key="alpha",
                           bind="query-params", help="Reject 'no difference' when p ≤ α; CIs are 1 − α.")
alternative = side.radio("Alternative", list(an.ALTERNATIVES), key="alternative", bind="query-params",
                         format_func={"two-sided": "A ≠ B", "greater": "A > B", "less": "A < B"}.get,
                         horizontal=True, help="One-sided only if the direction was fixed before seeing the data.")
seed = int(side.number_input("Seed (permutation / bootstrap)", min_value=0, max_value=2**31 - 1, value=12345,
                             key="seed", bind="query-params", help="Fixes the resampling tests."))
side.subheader("Bayesian assessment")
rope = side.number_input("ROPE radius", min_value=0.0, max_value=10.0, value=0.01, step=0.005, format="%.3f",
                         key="rope", bind="query-params",
                         help="Differences smaller than this are practically equivalent (0.01 = one accuracy point; "
                         "use the scores' own unit).")
hdi_mass = side.select_slider("HDI mass", options=[0.8, 0.89, 0.9, 0.95, 0.99], value=0.95, key="hdi",
                              bind="query-params", help="Credibility of the highest-density interval.")
prior_a = side.number_input("Beta prior α (accuracies)", min_value=0.1, max_value=1000.0, value=1.0, step=0.5,
                            key="prior_a", bind="query-params", help="Beta(1, 1) is uniform (HyBayes' default).")
prior_b = side.number_input("Beta prior β (accuracies)", min_value=0.1, max_value=1000.0, value=1.0, step=0.5,
                            key="prior_b", bind="query-params", help="Beta(1, 1) is uniform.")

# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------
raw = None
if source == "sample":
    if kind not in SAMPLE_FILES:
        st.info("The sample has no predictions file; showing the paired-scores sample.")
        kind = "scores"
    raw = (SAMPLES / SAMPLE_FILES[kind]).read_bytes()
    st.caption(f"Sample data: `{SAMPLE_FILES[kind]}` (synthetic, shipped with the app).")
elif source == "upload":
    uploaded = st.file_uploader("Results file (CSV or TSV)", type=["csv", "tsv", "txt"], key="file",
                                help="One row per test item; a header row is optional. At most 20 MB. Nothing in the "
                                "file is executed.")
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
    if m > 1 or shuffle:
        u, v = units(data.a, data.b, m, how, shuffle or None)
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

# ---------------------------------------------------------------------------
# 1. description and recommendation
# ---------------------------------------------------------------------------
st.header("1 · Data")
summary = an.summarize(u, v, names)
st.dataframe(summary.round(4), hide_index=True, width="stretch")
c1, c2 = st.columns(2)
with c1:
    chart(figures.histogram_figure({plot_text(names[0]): u, plot_text(names[1]): v}, title="Scores per evaluation unit",
                                   x_title="Score", style=style(0.5)), "scores_chart")
with c2:
    chart(figures.histogram_figure({"A − B": d}, title="Differences A − B", x_title="Difference",
                                   lines=[figures.Line(x=0.0, color="#333333")], style=style(0.5)), "differences_chart")

st.header("2 · Which test?")
if np.all(d == d[0]):
    st.error("All differences are identical: there is nothing to test.")
    st.stop()
with guard("Cannot check these differences"):
    rec = recommend(d, alpha, binary)
st.markdown(
    f"Skewness of the differences γ = **{rec.skewness:.2f}** → {rec.symmetry}, so the test statistic is the "
    f"**{rec.statistic}** (NLPStatTest §3.1.3). " + (
        f"Shapiro–Wilk: W = {rec.shapiro_w:.3f}, p = {fmt_p(rec.shapiro_p)} → "
        f"{'normality is plausible' if rec.normal else 'not normal'}." if math.isfinite(rec.shapiro_p) else
        "No normality test: skewed or 0/1 data are not normal."))
st.dataframe(rec.tests[["name", "verdict", "reason"]], hide_index=True, width="stretch",
             column_config={"name": "Test", "verdict": "Verdict",
                            "reason": st.column_config.TextColumn("Why", width="large")})

# ---------------------------------------------------------------------------
# 3. tests and effect sizes
# ---------------------------------------------------------------------------
st.header("3 · Significance tests")
available = [t for t in an.TESTS if t != "mcnemar" or binary]
recommended = [t for t in rec.tests.query("verdict == 'recommended'")["test"] if t in available]
# keyed by the situation so a new layout or data shape starts from its own recommendation
chosen = st.multiselect("Tests to run", available, default=recommended,
                        key=f"tests_{'binary' if binary else rec.statistic}_{rec.normal}",
                        format_func=lambda t: rec.tests.set_index("test").loc[t, "name"],
                        help="The recommended tests are preselected; add others to compare.")
results = None
if chosen:
    with guard("Cannot run these tests"):
        results = run_tests(u, v, alpha, alternative, seed, tuple(chosen), rec.statistic)
if results is not None:
    shown = results.assign(p_value=results["p_value"].map(fmt_p))
    number = st.column_config.NumberColumn
    st.dataframe(shown[["name", "estimate", "statistic", "p_value", "ci_low", "ci_high", "significant"]],
                 hide_index=True, width="stretch",
                 column_config={"name": "Test", "estimate": number("Estimate", format="%.4f"),
                                "statistic": number("Statistic", format="%.4f"), "p_value": "p-value",
                                "ci_low": number(f"{1 - alpha:.0%} CI low", format="%.4f"),
                                "ci_high": number(f"{1 - alpha:.0%} CI high", format="%.4f"),
                                "significant": st.column_config.CheckboxColumn(f"p ≤ {alpha}")})
    st.caption("Estimates: mean difference (t, McNemar), Hodges–Lehmann (Wilcoxon), median (sign), and the "
               f"{rec.statistic} for the permutation and bootstrap tests.")

st.header("4 · Effect size")
with guard("Cannot compute effect sizes"):
    eff = effect_sizes(u, v)
effects = pd.DataFrame([
    ("Cohen's d", eff.cohen_d, *eff.cohen_d_ci, "mean(d) / sd(d) — eq. 2"),
    ("Hedges' g", eff.hedges_g, *eff.hedges_g_ci, "small-sample corrected d — eq. 3"),
    ("Wilcoxon r", eff.wilcoxon_r, math.nan, math.nan, "Z / √n of the signed-rank test — eq. 4"),
    ("Hodges–Lehmann", eff.hodges_lehmann, *eff.hodges_lehmann_ci, "median of Walsh averages, score units — eq. 5"),
], columns=["index", "value", "ci_low", "ci_high", "definition"])
st.dataframe(effects, hide_index=True, width="stretch",
             column_config={"value": st.column_config.NumberColumn("Value", format="%.4f"),
                            "ci_low": st.column_config.NumberColumn("95% CI low", format="%.4f"),
                            "ci_high": st.column_config.NumberColumn("95% CI high", format="%.4f")})

# ---------------------------------------------------------------------------
# 5. power and sensitivity
# ---------------------------------------------------------------------------
st.header("5 · Power and sensitivity")
sd_d = float(d.std(ddof=1))
curve = None
next_plan = next_sources = None  # the next evaluation's plan, once sized
c1, c2 = st.columns(2)
with c1:
    st.markdown("**Sensitivity of this evaluation** (what a reviewer should see instead of post-hoc power)")
    target = st.slider("Target power", 0.5, 0.99, 0.8, 0.01, key="target", bind="query-params",
                       help="Used for the MDE and the planner.")
    if binary:
        design = an.accuracy_design(u, v)
        st.markdown(f"Agreement P_a = **{design.agreement:.1%}**, accuracy difference Δ = **{100 * design.delta:+.2f} "
                    f"pp** on n = {design.n:,} items.")
        if design.n >= 10:
            delta_pp = float(np.clip(round(100 * design.delta, 1), -20.0, 20.0))
            base_pct = float(np.clip(round(100 * design.accuracy_b, 1), 50.0, 99.9))
            agree_pct = float(np.clip(round(100 * design.agreement, 1), 10.0, 99.9))
            st.page_link("pages/accuracy.py", label="Open the Accuracy page with this design",
                         icon=":material/arrow_forward:",
                         query_params={"scenario": "paired (McNemar)", "n": str(min(design.n, 2_000_000)),
                                       "pa_source": "my estimate", "agreement": f"{agree_pct:.1f}",
                                       "delta": f"{delta_pp:.1f}", "baseline": f"{base_pct:.1f}"},
                         help="Power, Type-M and the MDE of McNemar's test for a test set like this one (A is the new "
                         "system, B the baseline; values outside the sliders' ranges are clipped).")
    elif sd_d > 0:
        with guard("Cannot compute the MDE"):
            mde = an.paired_t_mde(u.size, sd_d, target_power=target, alpha=alpha, alternative=alternative)
        metrics_row(Metric(f"MDE of the paired t test at {target:.0%} power", f"{mde:.4f} score units",
                           help=f"Smallest true mean difference {u.size:,} units detect with the target power, given "
                           f"the observed SD of the differences ({sd_d:.4f})."))
    st.markdown("**Plan the next evaluation** (prospective, §3.4.1)")
    plan_defaults = {"exp_mean": float(round(max(abs(float(d.mean())), 1e-4), 4)),
                     "exp_sd": float(round(sd_d, 4)) or 1.0}
    # New data (another file, layout or grouping) starts the planner from its own values: keyed widgets would
    # otherwise keep the previous data's numbers, since Streamlit ignores a new default once a key has state.
    if st.session_state.get("_plan_defaults_of") != plan_defaults:
        st.session_state["_plan_defaults_of"] = plan_defaults
        st.session_state.update(plan_defaults)
    exp_mean = st.number_input("Expected mean difference", value=plan_defaults["exp_mean"],
                               format="%.4f", key="exp_mean", help="What you expect, ideally not this sample's value.")
    exp_sd = st.number_input("Standard deviation of differences", min_value=1e-6, value=plan_defaults["exp_sd"],
                             format="%.4f", key="exp_sd", help="From this data (pilot) by default.")
    with guard("Cannot size the next evaluation", stop=False):
        next_plan = an.NextEvaluation(exp_mean, exp_sd, alpha=alpha, target_power=target,
                                      alternative="two-sided" if alternative == "two-sided" else
                                      ("greater" if exp_mean > 0 else "less"))
        metrics_row(Metric(f"Pairs needed for {target:.0%} power (paired t)", f"{next_plan.pairs_needed():,}"))
        next_sources = {"mean": "this data (pilot)" if exp_mean == plan_defaults["exp_mean"] else "set on the page",
                        "sd": "this data (pilot)" if exp_sd == plan_defaults["exp_sd"] else "set on the page"}
with c2:
    st.markdown("**Bootstrap power curve of this sample** (retrospective, §3.4.2)")
    curve_test = "t" if rec.statistic == "mean" and not binary else "sign"
    with guard("Cannot resample this sample", stop=False):
        curve = power_curve(d, alpha, curve_test, seed)
        chart(figures.curve_figure(curve.assign(series=f"{curve_test} test"), x="n", y="power", color="series",
                                   current=(int(u.size), float(curve["power"].iloc[-1])), target=target,
                                   title="Resampled power vs number of units", x_title="Evaluation units",
                                   y_title="Share significant", log_x=False, y_range=(0, 1.02), style=style(0.5)),
              "power_curve_chart")
    st.warning("This curve treats the effect observed in this sample as the truth. Power computed from the observed "
               "effect is a restatement of the p-value, not evidence (Card et al. 2020, appendix A). Use the MDE and "
               "the planner instead.")

# ---------------------------------------------------------------------------
# 6. Bayesian assessment
# ---------------------------------------------------------------------------
st.header("6 · Bayesian assessment (HyBayes)")
post = None
with guard("Bayesian assessment not possible", stop=False):
    if binary:
        post = bayes_accuracy(int(u.sum()), int(u.size), int(v.sum()), int(v.size), (prior_a, prior_b), rope,
                              hdi_mass)
        model = f"Beta({prior_a:g}, {prior_b:g}) priors on each accuracy, binomial likelihood (HyBayes appendix A.3)"
    else:
        post = bayes_means(d, rope, hdi_mass)
        model = "mean difference, reference prior p(μ, σ²) ∝ 1/σ² (Student-t posterior)"
if post is not None:
    # 0/1 correctness: A − B is an accuracy difference, in points (×100) like every page's; other scores keep theirs
    hdi_text = (f"[{100 * post.hdi[0]:.2f}, {100 * post.hdi[1]:.2f}] pts" if binary else
                f"[{post.hdi[0]:.4f}, {post.hdi[1]:.4f}] score units")
    rope_text = f"{100 * rope:g} pts" if binary else f"{rope:g}"
    metrics_row(
        Metric(f"{hdi_mass:.0%} HDI of A − B", hdi_text,
               help="Highest-density interval: the most credible differences, holding this share of the posterior."),
        Metric("P(A > B)", f"{post.p_superior:.3f}"),
        Metric("P(inside ROPE)", f"{post.p_rope:.3f}", help=f"P(|A − B| < {rope_text}): the region of practical "
               "equivalence set in the sidebar."),
        Metric(f"P(A − B > {rope_text})", f"{post.p_above_margin:.3f}"),
        Metric("BF01 (ROPE vs not)", "—" if not math.isfinite(post.bf01) else f"{post.bf01:.3f}",
               help="Bayes factor for 'practically equivalent' against 'different' (HyBayes §2.4). Sensitive to the "
               "prior; not defined for the improper prior of continuous scores."),
    )
    chart(figures.density_figure(post.grid, post.density, interval=post.hdi, interval_name=f"{hdi_mass:.0%} HDI",
                                 band=(-rope, rope), band_name="ROPE", lines=[figures.Line(x=0.0, color="#333333")],
                                 title=f"Posterior of the difference — decision: {post.decision}", x_title="A − B",
                                 style=style()), "posterior_chart")
    st.caption(f"Model: {model}. Decision rule (Kruschke 2018): HDI inside the ROPE → practically equivalent; HDI "
               "entirely outside → a practical difference; otherwise undecided.")

# ---------------------------------------------------------------------------
# 7. many systems
# ---------------------------------------------------------------------------
table = None
if kind == "systems":
    st.header("7 · Many systems: all pairs")
    multi_test = st.selectbox("Test for every pair", ["t", "wilcoxon", "sign", "permutation", "bootstrap"],
                              key="multi_test", help="Applied to each pair of columns; p-values corrected below.")
    correction = st.radio("Correction", ["holm", "bonferroni"], horizontal=True, key="correction",
                          help="Holm is uniformly more powerful than Bonferroni and controls the same error rate.")
    with guard("Cannot compare every pair", stop=False):
        table = pairwise(data.systems, multi_test, alpha, seed)
    if table is not None:
        systems = list(data.systems.columns)
        matrix = pd.DataFrame(np.nan, index=systems, columns=systems)
        for row in table.itertuples():
            value = getattr(row, f"p_{correction}")
            matrix.loc[row.system_a, row.system_b] = matrix.loc[row.system_b, row.system_a] = value
        values = matrix.to_numpy()
        chart(figures.heatmap_figure(values, [plot_text(s) for s in systems],
                                     text=[[fmt_p(x) if math.isfinite(x) else "" for x in r] for r in values],
                                     colorbar_title="adj. p", hover="%{y} vs %{x}<br>adjusted p %{text}<extra></extra>",
                                     title=f"{correction.capitalize()}-adjusted p-values ({multi_test} test)",
                                     style=style()), "pairwise_chart")
        st.dataframe(table, hide_index=True, width="stretch")

# ---------------------------------------------------------------------------
# report and downloads
# ---------------------------------------------------------------------------
st.header("What to report")
main = None
if results is not None and len(results):
    preferred = [t for t in recommended if t in list(results["test"])]
    main = results.set_index("test").loc[preferred[0] if preferred else results["test"].iloc[0]]
lines = [f"Comparison of {names[0]} (A) and {names[1]} (B) on n = {u.size:,} evaluation units"
         + (f" of {m} items ({how})" if m > 1 else "") + "."]
if main is not None:
    ci = (f", {1 - alpha:.0%} CI [{main['ci_low']:.4f}, {main['ci_high']:.4f}]" if math.isfinite(main["ci_low"]) else "")
    lines.append(f"{main['name'][0].upper() + main['name'][1:]} ({alternative}, α = {alpha}): estimate "
                 f"{main['estimate']:.4f}{ci}, p = {fmt_p(main['p_value'])}.")
lines.append(f"Effect size: Cohen's d = {eff.cohen_d:.3f} (95% CI [{eff.cohen_d_ci[0]:.3f}, {eff.cohen_d_ci[1]:.3f}]), "
             f"Hodges–Lehmann = {eff.hodges_lehmann:.4f}.")
if post is not None:
    lines.append(f"Bayesian: {hdi_mass:.0%} HDI of A − B [{post.hdi[0]:.4f}, {post.hdi[1]:.4f}] with ROPE ±{rope:g}: "
                 f"{post.decision}; P(A > B) = {post.p_superior:.3f}.")
lines.append(f"Test choice: differences {rec.symmetry} (γ = {rec.skewness:.2f}); test statistic: {rec.statistic}.")
st.code(" ".join(lines), language=None, wrap_lines=True)  # a code block shows user text literally
if next_plan is not None:
    plan_actions(analysis_plan.plan_item(next_plan, report=" ".join(lines), name_a=names[0], name_b=names[1],
                                         n_units=int(u.size), sources=next_sources, link=current_link()),
                 key="analysis")
download_csv({"tests": results, "effect_sizes": effects, "summary": summary, "power_curve": curve, "pairwise": table},
             "analysis_results.csv", key="download_results", label="Download all results (CSV)", column="table",
             help="Summary, tests, effect sizes, the power curve and pairwise comparisons in one tidy file.")
explain(
    """
**What the page does.** You give it the per-item results of two systems on the same test items. It checks the shape of
the differences, recommends significance tests that fit that shape, runs them, and reports effect sizes with intervals
and a Bayesian reading of the same data.

**Why the shape matters.** If the differences are symmetric and roughly normal, the t test is best. If they are skewed,
the mean is a poor summary, so the median-based sign and bootstrap tests are recommended instead (NLPStatTest's rule:
|skewness| ≥ 0.5 counts as skewed).

**p-values are not the whole story.** A p-value says how surprising the data would be if the systems were equal. The
effect size and its interval say how big the difference is. The Bayesian panel says how probable a *practically
meaningful* difference is: if the 95% highest-density interval lies inside the ROPE (differences too small to matter),
the systems are practically equivalent; if it lies outside, the difference is practically real; otherwise the data
cannot tell.

**About power.** Power computed from the effect you observed is just the p-value in disguise (Card et al. 2020,
appendix A). The page therefore shows the *minimum detectable effect* of your evaluation and a planner for the next
one; the bootstrap curve is labelled for what it is.

**Many systems.** Testing every pair of K systems makes K(K−1)/2 tests; Holm's and Bonferroni's corrections keep the
chance of any false claim at α.
"""
)

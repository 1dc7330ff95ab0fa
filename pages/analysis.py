"""Analyze-your-results page: tests, effect sizes, Bayesian assessment, many systems.

NLPStatTest (Zhu et al. 2020, §3) and HyBayes (Azer et al. 2020, §2.3–2.4).
Layout only: widgets built from :class:`core.analysis.design.AnalysisDesign`'s declared fields → one design →
cached calls into ``core.analysis`` / ``core.bayes``. The data step is in :mod:`pages._analysis_data`, the Bayesian
and many-systems sections in :mod:`pages._analysis_more`.
Uploaded names are shown escaped (code spans in Markdown, escaped HTML in charts).
"""

from __future__ import annotations

from core.plan.text import fmt_interval, fmt_level
import math

import numpy as np
import pandas as pd
import streamlit as st

from core import analysis as an
from core import figures
from core.analysis.design import ALPHAS, HDI_MASSES, AnalysisDesign
from core.analysis import plan as analysis_plan
from pages._analysis_data import KIND_LABELS, load
from pages._analysis_more import bayes_section, fmt_p, plot_text, systems_section
from pages._fields import field_input
from pages._scaffold import (
    Metric,
    cached,
    chart,
    current_link,
    download_csv,
    explain,
    guard,
    link_values,
    metrics_row,
    plan_actions,
    short_table,
    start,
    style,
)

D = AnalysisDesign


# One cached call per output, each taking the page's design (frozen, hashed by value).
@cached
def run_tests(design: D, a, b, tests, statistic):
    return design.tests(np.array(a), np.array(b), tests, statistic=statistic)


@cached
def effect_sizes(a, b):
    return an.effect_sizes(np.array(a), np.array(b))


@cached
def recommend(design: D, d, binary):
    return design.recommend(np.array(d), binary=binary)


@cached
def power_curve(design: D, d, test):
    return design.power_curve(np.array(d), test=test)


def inp(name: str, box, **options):
    """A declared field's widget with the page's own label (the unit is in the help, not added to the label)."""
    return field_input(D, name, box, label=options.pop("label", D.field(name).label), **options)


def controls() -> D:
    """The sidebar: data, evaluation units, tests and the Bayesian assessment; the target power is set in the
    sensitivity panel (section 5), so the design starts with its default there."""
    start("Analyze your results",
          "Upload per-item results of two (or more) systems: data checks, the right significance test, effect sizes "
          "with intervals, a Bayesian HDI/ROPE assessment, and what to write in the paper. NLPStatTest (Zhu et al. "
          "2020) and HyBayes (Azer et al. 2020).")
    side = st.sidebar
    values = {"source": inp("source", side, horizontal=True)}
    link_values(D.field("kind").key, KIND_LABELS)
    values["kind"] = inp("kind", side, widget="selectbox", format_func=KIND_LABELS.get)
    side.subheader("Evaluation units (§3.1.1)")
    values["m"] = inp("m", side)
    values["how"] = inp("how", side, horizontal=True)
    values["shuffle"] = inp("shuffle", side)
    side.subheader("Tests")
    values["alpha"] = inp("alpha", side, widget="select_slider", options=list(ALPHAS))
    values["alternative"] = inp("alternative", side, horizontal=True,
                                format_func={"two-sided": "A ≠ B", "greater": "A > B", "less": "A < B"}.get)
    values["seed"] = inp("seed", side)
    side.subheader("Bayesian assessment")
    values["rope"] = inp("rope", side)
    values["hdi"] = inp("hdi", side, widget="select_slider", options=list(HDI_MASSES))
    values["prior_alpha"] = inp("prior_alpha", side)
    values["prior_beta"] = inp("prior_beta", side)
    with guard("Cannot use these settings"):
        return D(**values)


design = controls()
alpha, alternative, seed, rope, hdi_mass = design.alpha, design.alternative, design.seed, design.rope, design.hdi
m, how = design.m, design.how
kind, data, u, v, binary, names, d = load(design)

# ---------------------------------------------------------------------------
# 1. description and recommendation
# ---------------------------------------------------------------------------
st.header("1 · Data")
summary = an.summarize(u, v, names)
short_table(summary, formats={c: "{:.4f}" for c in ("mean", "median", "sd", "min", "max", "skewness")})
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
    rec = recommend(design, d, binary)
st.markdown(
    f"Skewness of the differences γ = **{rec.skewness:.2f}** → {rec.symmetry}, so the test statistic is the "
    f"**{rec.statistic}** (NLPStatTest §3.1.3). " + (
        f"Shapiro–Wilk: W = {rec.shapiro_w:.3f}, p = {fmt_p(rec.shapiro_p)} → "
        f"{'normality is plausible' if rec.normal else 'not normal'}." if math.isfinite(rec.shapiro_p) else
        "No normality test: skewed or 0/1 data are not normal."))
short_table(rec.tests[["name", "verdict", "reason"]], labels={"name": "Test", "verdict": "Verdict", "reason": "Why"})

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
        results = run_tests(design, u, v, tuple(chosen), rec.statistic)
if results is not None:
    shown = results.assign(p_value=results["p_value"].map(fmt_p))
    short_table(shown[["name", "estimate", "statistic", "p_value", "ci_low", "ci_high", "significant"]],
                labels={"name": "Test", "estimate": "Estimate", "statistic": "Statistic", "p_value": "p-value",
                        "ci_low": f"{fmt_level(1 - alpha)} CI low", "ci_high": f"{fmt_level(1 - alpha)} CI high",
                        "significant": f"p ≤ {alpha}"},
                formats=dict.fromkeys(("estimate", "statistic", "ci_low", "ci_high"), "{:.4f}"))
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
short_table(effects, labels={"index": "Index", "value": "Value", "ci_low": "95% CI low", "ci_high": "95% CI high",
                              "definition": "Definition"},
            formats=dict.fromkeys(("value", "ci_low", "ci_high"), "{:.4f}"))

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
    design = design.with_(target_power=inp("target_power", st, widget="slider"))
    target = design.target_power
    if binary:
        measured = an.accuracy_design(u, v)
        st.markdown(f"Agreement P_a = **{measured.agreement:.1%}**, accuracy difference Δ = **{100 * measured.delta:+.2f} "
                    f"pp** on n = {measured.n:,} items.")
        if measured.n >= 10:
            delta_pp = float(np.clip(round(100 * measured.delta, 1), -20.0, 20.0))
            base_pct = float(np.clip(round(100 * measured.accuracy_b, 1), 50.0, 99.9))
            agree_pct = float(np.clip(round(100 * measured.agreement, 1), 10.0, 99.9))
            st.page_link("pages/accuracy.py", label="Open the Accuracy page with this design",
                         icon=":material/arrow_forward:",
                         query_params={"scenario": "paired (McNemar)", "n": str(min(measured.n, 2_000_000)),
                                       "pa_source": "my estimate", "agreement": f"{agree_pct:.1f}",
                                       "delta": f"{delta_pp:.1f}", "baseline": f"{base_pct:.1f}"},
                         help="Power, Type-M and the MDE of McNemar's test for a test set like this one (A is the new "
                         "system, B the baseline; values outside the sliders' ranges are clipped).")
    elif sd_d > 0:
        with guard("Cannot compute the MDE"):
            mde = design.mde(u.size, sd_d)
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
        next_plan = design.next_evaluation(exp_mean, exp_sd)
        metrics_row(Metric(f"Pairs needed for {target:.0%} power (paired t)", f"{next_plan.pairs_needed():,}"))
        next_sources = {"mean": "this data (pilot)" if exp_mean == plan_defaults["exp_mean"] else "set on the page",
                        "sd": "this data (pilot)" if exp_sd == plan_defaults["exp_sd"] else "set on the page"}
with c2:
    st.markdown("**Bootstrap power curve of this sample** (retrospective, §3.4.2)")
    curve_test = "t" if rec.statistic == "mean" and not binary else "sign"
    with guard("Cannot resample this sample", stop=False):
        curve = power_curve(design, d, curve_test)
        chart(figures.curve_figure(curve.assign(series=f"{curve_test} test"), x="n", y="power", color="series",
                                   current=(int(u.size), float(curve["power"].iloc[-1])), target=target,
                                   title="Resampled power vs number of units", x_title="Evaluation units",
                                   y_title="Share significant", log_x=False, y_range=(0, 1.02), style=style(0.5)),
              "power_curve_chart")
    st.warning("This curve treats the effect observed in this sample as the truth. Power computed from the observed "
               "effect is a restatement of the p-value, not evidence (Card et al. 2020, appendix A). Use the MDE and "
               "the planner instead.")

# ---------------------------------------------------------------------------
# 6. Bayesian assessment and 7. many systems
# ---------------------------------------------------------------------------
post = bayes_section(design, u, v, d, binary)
table = systems_section(design, data, kind) if kind == "systems" else None

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
    ci = (f", {fmt_level(1 - alpha)} CI {fmt_interval(main['ci_low'], main['ci_high'])}"
          if not (math.isnan(main["ci_low"]) or math.isnan(main["ci_high"])) else "")
    lines.append(f"{main['name'][0].upper() + main['name'][1:]} ({alternative}, α = {alpha}): estimate "
                 f"{main['estimate']:.4f}{ci}, p = {fmt_p(main['p_value'])}.")
lines.append(f"Effect size: Cohen's d = {eff.cohen_d:.3f} (95% CI [{eff.cohen_d_ci[0]:.3f}, {eff.cohen_d_ci[1]:.3f}]), "
             f"Hodges–Lehmann = {eff.hodges_lehmann:.4f}.")
if post is not None:
    lines.append(f"Bayesian: {hdi_mass:.0%} HDI of A − B [{post.hdi[0]:.4f}, {post.hdi[1]:.4f}] with ROPE ±{rope:g}: "
                 f"{post.decision}; P(A > B) = {post.p_superior:.3f}.")
lines.append(f"Test choice: differences {rec.symmetry} (γ = {rec.skewness:.2f}); test statistic: {rec.statistic}.")
# a text box shows user text (system names from the file) literally, as a code block did; a code block also loaded
# a 1.5 MB syntax highlighter whose parsing delayed the page's charts on a first visit by ≈ 0.5 s
# no key: the box is a new one whenever the text changes (a keyed box would keep showing the old text)
st.text_area("Text for the paper", " ".join(lines), height=130,
             help="Copy it into your paper; you may edit it here first (the edits are not kept when the results "
             "change).")
if next_plan is not None:
    plan_actions(lambda: analysis_plan.plan_item(next_plan, report=" ".join(lines), name_a=names[0], name_b=names[1],
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

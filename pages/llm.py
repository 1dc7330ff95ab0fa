"""LLM benchmark page: how many questions, how many samples per question, and what a judge's errors cost.

Miller (2024), "Adding Error Bars to Evals" (arXiv 2411.00640); Card et al. (2020) for power, Type-M and
Type-S; Rogan & Gladen (1978) for judge error. UI only: widgets → cached calls into ``core.llm`` → charts
and metrics. Every number is closed-form and instant; the simulation runs on demand.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures, llm
from core import sequential as sq
from core.plan import llm as llm_plan
from core.snippets import llm_snippet
from core.runnable import harness_command, harness_task, item_list, item_list_json
from pages._sequential_section import sequential_section
from pages._llm_facets import facets_section
from pages._scaffold import (
    key_inputs,
    Metric,
    pin_controls,
    pin_int,
    pinned_curve,
    pinned_designs,
    pin_columns,
    pins_table,
    current_link,
    fmt_money,
    currency_label,
    plan_actions,
    prior_controls,
    source_of,
    apply_values,
    cached,
    cached_upload,
    chart,
    decision_controls,
    download_csv,
    explain,
    fmt_pct,
    fmt_ratio,
    guard,
    list_of,
    metrics_row,
    safe_message,
    sample_size_metric,
    simulation,
    simulation_controls,
    start,
    style,
    verdict,
    views,
)
from pages._scaffold import code_view
from pages import _llm_subset as llm_subset

N_OPTIONS = sorted({int(m * 10**e) for e in range(1, 6) for m in (1, 1.5, 2, 3, 5, 7.5) if 50 <= m * 10**e <= 100_000}
                   | {100_000})
K_OPTIONS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50]
#: Example unit costs (the metric says when the cheapest design still rests on them).
COST_QUESTION, COST_SAMPLE = 0.50, 0.01
M_OPTIONS = [1, 2, 3, 4, 5, 8, 10, 15, 20, 25, 50, 100]
CURVE_KS = (1, 2, 5, 10)
VIEWS = {"power": "Power vs questions", "assurance": "Assurance vs questions", "budget": "Variance budget",
         "cost": "Cost vs samples",
         "judge": "Judge error", "fit": "Estimate from your logs", "noworse": "No worse than",
         "facets": "Prompts and seeds", "subset": llm_subset.SUBSET_VIEW}


def linked_options(key: str, options: list[int], low: int, high: int) -> list[int]:
    """Slider options plus a value given in the link, if it is a whole number in range."""
    raw = st.query_params.get(key)
    try:
        value = int(float(raw)) if raw is not None else None
    except (ValueError, OverflowError):  # not a number, or inf
        value = None
    return sorted(set(options) | {value}) if value is not None and low <= value <= high else options


# Every cached call takes the page's one llm.BenchmarkDesign (frozen, hashed by value).
@cached
def point(n, design: llm.BenchmarkDesign):
    return design.power(n)


@cached
def sizes(design: llm.BenchmarkDesign, target):
    return design.sample_sizes(target_power=target)


@cached
def mde(n, design: llm.BenchmarkDesign, target):
    return design.mde(n, target_power=target)


@cached
def plan(design: llm.BenchmarkDesign, cost_question, cost_sample, target):
    return design.plan(cost_question=cost_question, cost_sample=cost_sample, target_power=target, max_samples=50)


@cached
def power_curves(ns, ks, design: llm.BenchmarkDesign):
    return design.power_curve(list(ns), samples_list=tuple(ks))


@cached
def budget(design: llm.BenchmarkDesign):
    return design.variance_budget(max_samples=20)


@cached
def judge_curves(ns, design: llm.BenchmarkDesign):
    return design.judge_curve(list(ns))


@cached
def assurance_at(ns, design: llm.BenchmarkDesign, mean, sd):
    rows = []
    for size in ns:
        res = design.assurance(size, mean, sd)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n_questions", "assurance", "power", "ceiling"])


PIN_KEYS = ("n", "acc_a", "gain", "sd", "rho", "k", "m", "icc", "judge", "se", "sp", "alpha")


@cached
def pinned(values, target):
    """A pinned design's power curve over questions (its own K) and its summary."""
    v = dict(values)
    size, a, g = pin_int(v, "n", 1000), float(v.get("acc_a", 70.0)) / 100, float(v.get("gain", 3.0)) / 100
    judged_p = v.get("judge") == "True"
    m_p = pin_int(v, "m", 1)
    kw = dict(accuracy_a=a, accuracy_b=round(a + g, 6), difficulty_sd=float(v.get("sd", 0.25)),
              correlation=float(v.get("rho", 0.6)), cluster_size=m_p,
              icc=float(v.get("icc", 0.2)) if m_p > 1 else 0.0,
              judge_sensitivity=float(v.get("se", 90.0)) / 100 if judged_p else 1.0,
              judge_specificity=float(v.get("sp", 90.0)) / 100 if judged_p else 1.0, alpha=float(v.get("alpha", 0.05)))
    k_p = pin_int(v, "k", 1)
    lo_p, hi_p = max(20, size // 30), min(10_000_000, max(size * 30, 2000))
    grid = np.unique(np.concatenate([np.geomspace(lo_p, hi_p, 40).astype(int), [size]]))
    curve = llm.power_curve(grid, samples_list=(k_p,), **kw)
    point_p = llm.benchmark_power(size, samples=k_p, **kw)
    need = llm.benchmark_sample_size(samples=k_p, target_power=target, **kw) if g else -1
    summary = {"n": size, "design": f"{100 * a:.1f}% + {100 * g:+.1f} pts, K = {k_p}, m = {m_p}",
               "power": point_p.power, "type_m": point_p.type_m, "n_for_target": need}
    return curve[["n_questions", "power"]], summary


@cached_upload
def read_log(data: bytes, name: str, columns=None):
    return llm.read_benchmark_log(data, name=name, columns=None if columns is None else dict(columns))


@cached_upload
def log_header(data: bytes):
    """The log's column names (a table's header, or the keys of the first JSON records)."""
    from core import uploads

    if uploads.looks_like_json(data):
        records = uploads.read_jsonl(data, name="The log")
        return list(dict.fromkeys(k for rec in records[:1000] for k in rec))
    return list(uploads.read_table(data, name="The log", min_columns=2, header="yes").columns)


def log_mapping(data: bytes):
    """The mapping step when the log's columns are not named question, model and score (or a known alias)."""
    names = log_header(data)
    try:
        llm._find_columns(names, "The log")
        return None
    except ValueError:
        pass
    if len(names) < 3:
        return None  # the reader says what is missing
    st.info("The log's columns are not named question, model and score: say which columns hold them.")
    cols = st.columns(3)
    labels = {"question": "Question", "model": "Model", "score": "Score (0–1 or true/false)"}
    return tuple((role, cols[k].selectbox(labels[role], names, index=min(k, len(names) - 1), key=f"log_col_{role}"))
                 for k, role in enumerate(("question", "model", "score")))


@cached
def harness_options(entries):
    return llm.harness_options(list(entries))


@cached_upload
def read_harness(entries, metric, filter_, files_per_model="runs"):
    return llm.read_harness_samples(list(entries), metric=metric, filter=filter_, files_per_model=files_per_model)


@cached_upload
def fit(log: pd.DataFrame, judge_se, judge_sp):
    return llm.fit_benchmark(log, judge_sensitivity=judge_se, judge_specificity=judge_sp, seed=0)


@cached
def tasks_of(log: pd.DataFrame, by, alpha, target):
    return llm.task_table(log, by=by, alpha=alpha, target_power=target)


@cached
def noworse(n, design: llm.BenchmarkDesign, margin, alpha, target):
    """Non-inferiority power at n, the questions for the target, and power vs the true gain."""
    kw = design.kwargs("accuracy_a", "accuracy_b", "alpha")
    mu_a, mu_b = design.accuracy_a, design.accuracy_b
    power = design.noninferiority_power(n, margin, alpha=alpha).power
    gap = mu_b - mu_a + margin
    need = llm.benchmark_noninferiority_sample_size(mu_a, mu_b, margin, alpha=alpha,
                                                    target_power=target, **kw) if gap > 0 else None
    sd = kw["difficulty_sd"]
    top = (1.0 + math.sqrt(max(1.0 - 4.0 * sd * sd, 0.0))) / 2.0  # largest accuracy with this spread
    bottom = 1.0 - top
    gains = np.linspace(-2 * margin, 2 * margin, 41)
    rows = []
    for g in gains:
        b = mu_a + g
        if bottom - 1e-12 <= b <= top + 1e-12:
            rows.append((100 * g, llm.benchmark_noninferiority_power(n, mu_a, min(max(b, bottom), top), margin,
                                                                     alpha=alpha, **kw).power))
    return power, need, pd.DataFrame(rows, columns=["gain_pp", "power"])


def nearest(options, value):
    return min(options, key=lambda o: abs(o - value))


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("LLM benchmarks: questions, samples and judges",
      "Two language models on one benchmark: paired differences, K sampled answers per question, clustered questions "
      "and an LLM judge's errors (Miller 2024, arXiv 2411.00640; Card et al. 2020 for power, Type-M and Type-S).")
side = st.sidebar
top = key_inputs(3)  # the inputs the question turns on, above the first chart
side.subheader("Benchmark")
n = top[0].select_slider("Questions n", options=linked_options("n", N_OPTIONS, 4, 10_000_000), value=1000, key="n",
                       bind="query-params", help="Questions both models answer (log-spaced steps; a link may carry any "
                       "number). With clusters, the last cluster may be partial.")
acc_a = side.slider("Accuracy of the baseline A (%)", 1.0, 99.0, 70.0, 0.5, key="acc_a", bind="query-params",
                    help="Expected accuracy of the current model on this benchmark.")
gain = top[1].slider("Expected gain of the new model B (points)", -30.0, 30.0, 3.0, 0.5, key="gain",
                   bind="query-params", help="Accuracy of B minus accuracy of A, in percentage points. Be honest: "
                   "recent headline gains on saturated benchmarks are often 1–3 points.")
sd = side.slider("Question difficulty spread σ", 0.0, 0.5, 0.25, 0.01, key="sd", bind="query-params",
                 help="Standard deviation over questions of the probability that a model answers correctly. 0: all "
                 "questions equally hard; near √(μ(1−μ)): every question is either always or never solved. Must satisfy "
                 "σ² ≤ μ(1 − μ) for both models.")
rho = side.slider("Correlation between the models ρ", -0.5, 1.0, 0.6, 0.05, key="rho", bind="query-params",
                  help="How similarly the two models find questions hard. Models from one family share most of their "
                  "failures (high ρ), which makes a paired comparison much more precise.")
k = top[2].select_slider("Samples per question K", options=K_OPTIONS, value=1, key="k", bind="query-params",
                       help="Answers sampled per question and model (temperature > 0); a question's score is the mean "
                       "of its K answers. Greedy decoding is K = 1 with no sampling noise only if σ is at its maximum.")
m = side.select_slider("Questions per cluster m", options=M_OPTIONS, value=1, key="m", bind="query-params",
                       help="Questions that share a passage, document or template. 1: independent questions.")
icc = side.slider("Intra-cluster correlation (ICC)", 0.0, 1.0, 0.2, 0.05, key="icc", bind="query-params",
                  disabled=m == 1, help="How alike the models' difference is for questions of the same cluster. The "
                  "design effect is 1 + (m − 1)·ICC.")
judged = side.toggle("Graded by an LLM judge", key="judge", bind="query-params",
                     help="Answers graded by another model with known sensitivity and specificity (from a validation "
                     "against human labels).")
se_pct, sp_pct = 100.0, 100.0
if judged:
    se_pct = side.slider("Judge sensitivity (%)", 50.0, 100.0, 90.0, 0.5, key="se", bind="query-params",
                         help="P(the judge grades a right answer right).")
    sp_pct = side.slider("Judge specificity (%)", 50.0, 100.0, 90.0, 0.5, key="sp", bind="query-params",
                         help="P(the judge grades a wrong answer wrong).")
    side.page_link("pages/judge.py", label="How many human labels to calibrate the judge?", icon=":material/gavel:")
side.subheader("Costs")
cost_question = side.number_input("Cost per question", 0.0, 10_000.0, COST_QUESTION, 0.05, key="cost_q",
                                   bind="query-params",
                                   help="Writing or labelling one new question (0 if the benchmark exists).")
cost_sample = side.number_input("Cost per sampled answer", 0.0, 1_000.0, COST_SAMPLE, 0.001, format="%.3f", key="cost_s",
                                bind="query-params", help="One model call (plus its grading); both models answer every "
                                "question K times.")
currency = currency_label(side.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                                         help="A label for the amounts, e.g. USD, EUR, GBP."))
alpha, target = decision_controls()
prior = prior_controls(default_mean=gain, unit="points", low=-30.0, high=30.0, step=0.5, sd_default=2.0, sd_high=15.0,
                       help_unit=" (accuracy of B minus A, in points)", measured_scale=100.0)
sim = simulation_controls(options=(500, 1000, 2000, 5000), default=2000,
                          help="Simulates the whole model — Beta-distributed question difficulties, binomial answers, "
                          "clustered standard errors — and shows its estimates with Monte Carlo standard errors next to "
                          "the closed form.")

icc_used = icc if m > 1 else 0.0
delta = gain / 100

# ---------------------------------------------------------------------------
# the current design (closed form, instant)
# ---------------------------------------------------------------------------
if not 0 <= acc_a + gain <= 100:
    st.error(f"**Impossible design:** the new model's accuracy would be {acc_a:.1f}% {gain:+.1f} points = "
             f"{acc_a + gain:.1f}%. Lower the gain or the baseline accuracy.")
    st.stop()
with guard("Impossible design"):
    design = llm.BenchmarkDesign(acc_a / 100, round(acc_a / 100 + gain / 100, 6), difficulty_sd=sd, correlation=rho,
                                 samples=k, cluster_size=m, icc=icc_used, judge_sensitivity=se_pct / 100,
                                 judge_specificity=sp_pct / 100, alpha=alpha)
    result = point(n, design)
    mde_value = mde(n, design, target)
    n_sizes = sizes(design, target) if gain != 0 else None
    best = plan(design, cost_question, cost_sample, target) if gain != 0 and (cost_question or cost_sample) else None
cheapest = ("—" if best is None else "not reachable" if best.n_questions < 0 else
            f"{best.n_questions:,} questions × {best.samples} answers each")
# the cheapest design depends on the unit costs: say so when they are still the page's example values
default_costs = (cost_question, cost_sample) == (COST_QUESTION, COST_SAMPLE)
clusters_now = -(-n // m)
if clusters_now <= 20 and m <= 5:
    st.info(f"**Few independent units:** {clusters_now} cluster{'s' if clusters_now != 1 else ''} of at most {m} "
            "question" + ("s" if m > 1 else "") + ". The closed form assumes near-normal cluster totals; with so few "
            "right/wrong answers per unit the t test is conservative and power depends on how difficulty is "
            "distributed (by 1–2 points). Switch on the simulation check for this design.")
metrics_row(
    Metric("Power" if gain else "False-positive rate", fmt_pct(result.power),
           help="P(significant and in the right direction); at zero gain, the false-positive rate."),
    Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
           help="Average |estimated gain| / |true gain| among significant results (on the judge-corrected scale)."),
    Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the wrong sign."),
    Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else
           f"{100 * mde_value:.2f} pts", help="Smallest accuracy gain this benchmark detects with the target power."),
    sample_size_metric(n_sizes, target, unit="questions", help="Questions at the current K; a whole number of "
                       "clusters.", limit=10_000_000),
)
# the cheapest (n, K) is a planning aside, not a headline number: a caption under the row keeps the row at five
if best is not None:
    st.caption(f"Cheapest design for {target:.0%} power: {cheapest}"
               + ("" if best.n_questions < 0 else f" (cost {fmt_money(best.cost, currency, markdown=False)}"
                  + (" at the example unit costs: set yours under Costs" if default_costs else "") + ")")
               + "; cost = questions × (cost per question + 2 × answers × cost per answer).")
verdict(result.power, target, effect=gain, type_m=result.type_m)
st.page_link("pages/claims.py", label="Claiming gains on several benchmarks? See each claim's power after a "
             "multiplicity correction", icon=":material/checklist:")
pins = pin_controls("llm", PIN_KEYS, label=f"n = {n:,}, K = {k}, gain {gain:+.1f}")
pinned_frames, pinned_rows = pinned_designs(pins, lambda values: pinned(values, target))
pinned_power = pinned_curve(pinned_frames, "n_questions", "power")
pins_table({"pin": "current", "n": n, "design": f"{acc_a:.1f}% + {gain:+.1f} pts, K = {k}, m = {m}",
            "power": result.power, "type_m": result.type_m,
            "n_for_target": n_sizes.first if n_sizes is not None else -1}, pinned_rows, pin_columns(target))
assured = None
if prior.on:
    with guard("Cannot average over this prior"):
        assured_row = assurance_at((n,), design, prior.mean / 100, prior.sd / 100)
    assured = assured_row.iloc[0]
    metrics_row(Metric("Assurance", fmt_pct(assured["assurance"]),
                       help="P(significant in the hoped-for direction), averaged over the prior on the gain.",
                       caption=f"ceiling {fmt_pct(assured['ceiling'])}; prior N({prior.mean:+.1f}, {prior.sd:.1f}²) "
                               f"points ({prior.source})"))
if judged and (se_pct + sp_pct) / 100 - 1 < 0.5:
    st.caption(f"The judge's Youden index J = {(se_pct + sp_pct) / 100 - 1:.2f} shrinks every difference by that "
               "factor: a weak judge costs more questions than a few extra samples can buy back.")

# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------
plotted: dict[str, pd.DataFrame] = {}
plan_figures: list = []  # the figures shown, for the plan document
tab = views(VIEWS)
lo, hi = max(20, n // 30, m + 1), min(10_000_000, max(n * 30, 2000))  # every size has at least 2 clusters
ns = tuple(sorted(set(np.unique(np.geomspace(lo, hi, 40).astype(int)).tolist()) | {n}))
if tab.open("power"):
    with tab["power"], guard():
        ks = tuple(sorted(set(CURVE_KS) | {k}))
        curves = power_curves(ns, ks, design)
        curves = curves.assign(series=[f"K = {s}" + (" (current)" if s == k else "") for s in curves["samples"]])
        plotted["power_vs_questions"] = curves
        power_args = dict(x="n_questions", y="power", color="series", current=(n, result.power), target=target,
                          title="Power vs number of questions, by answers per question", x_title="Questions n",
                          y_title="Power", y_range=(0, 1.02), pins=pinned_power)
        chart(figures.curve_figure(curves, **power_args, style=style()), "power_chart")
        plan_figures.append(("Power vs number of questions", figures.curve_figure(curves, **power_args)))
        st.caption("More questions help until the curve for your K reaches the target; more samples per question only "
                   "shrink the sampling-noise part of the variance (see the variance budget).")
if tab.open("assurance"):
    with tab["assurance"]:
        if not prior.on:
            st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                    "large the gain is, the assurance says how likely the comparison is to succeed, and its ceiling "
                    "why more questions cannot make up for a vague prior.")
        else:
            with guard("Cannot average over this prior"):
                ns_a = tuple(sorted(set(np.unique(np.geomspace(lo, hi, 16).astype(int)).tolist()) | {n}))
                curve_a = assurance_at(ns_a, design, prior.mean / 100, prior.sd / 100)
            plotted["assurance"] = curve_a
            tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                              curve_a.assign(series=f"power at the prior mean ({prior.mean:+.1f} points)",
                                             value=curve_a["power"])], ignore_index=True)
            chart(figures.curve_figure(tidy, x="n_questions", y="value", color="series",
                                       current=(n, float(assured["assurance"])), target=target,
                                       lines=[figures.Line(y=float(assured["ceiling"]),
                                                           text=f"ceiling {assured['ceiling']:.0%}",
                                                           color=figures.PALETTE[1])],
                                       title="Assurance and power vs number of questions", x_title="Questions n",
                                       y_title="Probability", y_range=(0, 1.02), style=style()), "assurance_chart")
if tab.open("budget"):
    with tab["budget"], guard():
        parts = budget(design)
        plotted["variance_budget"] = parts
        ks_b = [str(v) for v in sorted(parts["samples"].unique())]
        series = {c: parts[parts["component"] == c].sort_values("samples")["variance"].to_numpy()
                  for c in llm.BUDGET_COMPONENTS}
        here = parts[parts["samples"] == k]["variance"].sum() if k in set(parts["samples"]) else None
        chart(figures.bar_figure(ks_b, series, barmode="stack", colors=(figures.PALETTE[0], figures.PALETTE[4],
                                                                       figures.PALETTE[1]),
                                 current=(str(k), float(here)) if here is not None else None,
                                 title="Where the variance of the mean difference comes from (n × Var, by K)",
                                 x_title="Samples per question K", y_title="Variance × n", hover_format=".4f",
                                 style=style()), "budget_chart")
        row = parts[parts["samples"] == min(k, int(parts["samples"].max()))]
        noise = float(row[row["component"] == "sampling noise"]["share"].iloc[0])
        fixed = float(row[row["component"] != "sampling noise"]["variance"].sum())
        st.markdown(f"At K = {k}, sampling noise is **{100 * noise:.0f}%** of the variance. Question difficulty and "
                    f"clustering ({fixed:.4f} × 1/n) do not shrink with K: once they dominate, more samples per question "
                    "stop helping and only more questions (or more clusters) do.")
if tab.open("cost"):
    with tab["cost"]:
        if best is None:
            st.info("Set a non-zero gain and a cost per question or per answer to find the cheapest design.")
        else:
            curve = best.curve.dropna(subset=["cost"])
            plotted["cost_vs_samples"] = best.curve
            if curve.empty:
                st.warning("No K up to 50 reaches the target power within 10,000,000 questions.")
            else:
                here = curve[curve["samples"] == k]
                chart(figures.curve_figure(
                    curve.assign(series=f"cheapest n at {target:.0%} power ({currency})"), x="samples", y="cost",
                    color="series",
                    current=(k, float(here["cost"].iloc[0])) if len(here) else None, target=None, log_x=True,
                    mode="lines+markers", hover_format=",.2f", x_hover_format="d",
                    lines=[figures.Line(x=best.samples, text=f"cheapest: K = {best.samples}, n = {best.n_questions:,}",
                                        color=figures.PALETTE[2])],
                    title=f"Cost of reaching {target:.0%} power vs answers per question",
                    x_title="Samples per question K", y_title=f"Cost ({currency})" if currency else "Cost",
                    style=style()), "cost_chart")
                st.caption(f"Cheapest: {best.n_questions:,} questions × K = {best.samples} answers per model, cost "
                           f"{best.cost:,.2f}. The diamond is your current K at the fewest questions reaching the target.")
if tab.open("judge"):
    with tab["judge"], guard():
        j_se, j_sp = (se_pct / 100, sp_pct / 100) if judged else (0.9, 0.9)
        jc = judge_curves(ns, design.with_(judge_sensitivity=j_se, judge_specificity=j_sp))
        jc = jc.assign(series=jc["grading"].map({"exact": "exact grading",
                                                 "judge": f"judge (Se = {j_se:.0%}, Sp = {j_sp:.0%})"}))
        plotted["judge"] = jc
        chart(figures.curve_figure(jc, x="n_questions", y="power", color="series", current=(n, result.power),
                                   target=target, title="Power with and without judge error", x_title="Questions n",
                                   y_title="Power", y_range=(0, 1.02), style=style()), "judge_chart")
        if not judged:
            st.caption("Showing a judge with 90% sensitivity and specificity; switch on “Graded by an LLM judge” to use "
                       "your own.")
if tab.open("facets"):  # questions × prompt templates × samples × seeds (pages/_llm_facets.py)
    with tab["facets"]:
        plotted.update(facets_section(alpha=alpha, target=target, currency=currency))
with tab["fit"]:
    # the uploaders are always rendered (hidden under another tab), so an upload survives a tab switch
    source = st.radio("Logs", ["tidy", "harness", "sample"], horizontal=True, key="log_source",
                      format_func={"tidy": "per-answer table (CSV/JSONL)", "harness": "lm-evaluation-harness files",
                                   "sample": "worked example (synthetic)"}.get,
                      help="A tidy log has columns question, model, score (0–1) and optionally sample and cluster. "
                      "lm-evaluation-harness files come from `--log_samples` (one or more per model).")
    log, origin = None, None
    with guard("Cannot read these logs", stop=False):
        if source == "tidy":
            up = st.file_uploader("Per-answer log", type=["csv", "tsv", "txt", "jsonl", "json"], key="log_file",
                                  help="Nothing in the file is executed.")
            if up is not None:
                log, origin = read_log(up.getvalue(), up.name, log_mapping(up.getvalue())), up.name
        elif source == "harness":
            c1, c2 = st.columns(2)
            name_a = c1.text_input("Baseline model name", "baseline", key="name_a", max_chars=80)
            files_a = c1.file_uploader("Its samples_*.jsonl files", type=["jsonl", "json"], accept_multiple_files=True,
                                       key="files_a", help="One file per run; several runs give K > 1.")
            name_b = c2.text_input("New model name", "new", key="name_b", max_chars=80)
            files_b = c2.file_uploader("Its samples_*.jsonl files", type=["jsonl", "json"], accept_multiple_files=True,
                                       key="files_b", help="The same task and documents as the baseline.")
            if files_a and files_b:
                if name_a.strip() == name_b.strip():
                    raise ValueError("The two models need different names.")
                entries = tuple((name, f.name, f.getvalue()) for name, files in ((name_a, files_a), (name_b, files_b))
                                for f in files)
                options = harness_options(entries)
                c1, c2 = st.columns(2)
                metric = c1.selectbox("Metric", options.metrics, key="harness_metric",
                                      help="The per-sample score, e.g. acc or exact_match.")
                filt = c2.selectbox("Filter", options.filters, key="harness_filter",
                                    help="The answer-extraction pipeline (e.g. strict-match).")
                per_model = st.radio("Several files of one model are", list(llm.FILES_PER_MODEL), horizontal=True,
                                     key="harness_files", format_func={"runs": "repeated runs (K > 1)",
                                                                       "tasks": "different tasks"}.get,
                                     help="Tasks (e.g. MMLU subjects) become clusters, and the table below gets one "
                                     "row per task.")
                log, origin = read_harness(entries, metric, filt, per_model), f"{len(entries)} harness files"
        else:
            log, origin = llm.sample_log(), "the synthetic worked example (core/data/llm_sample/benchmark_log.csv)"
            st.caption("Synthetic data, generated from the page's own model: two models × 300 questions in 60 "
                       "clusters × K = 5 answers.")
    if log is not None and tab.open("fit"):
        fitted = None
        with guard("Cannot estimate the parameters", stop=False):
            fitted = fit(log, se_pct / 100, sp_pct / 100)
        if fitted is not None:
            a_name, b_name = fitted.models
            st.markdown(f"Estimated from {safe_message(origin)}: baseline {list_of([a_name])}, new model "
                        f"{list_of([b_name])}; **{fitted.n_questions:,}** questions"
                        + (f" in {fitted.n_clusters:,} clusters" if fitted.n_clusters else "") + f", K = {fitted.samples}.")
            for note in fitted.notes:
                st.caption(safe_message(note))
            rows = [("accuracy of A", fitted.accuracy[a_name], fitted.se.get("accuracy_a")),
                    ("accuracy of B", fitted.accuracy[b_name], fitted.se.get("accuracy_b")),
                    ("gain B − A", fitted.delta, fitted.se.get("delta")),
                    ("difficulty spread σ", fitted.difficulty_sd, fitted.se.get("difficulty_sd")),
                    ("correlation ρ", fitted.correlation, fitted.se.get("correlation")),
                    ("ICC", fitted.icc, fitted.se.get("icc"))]
            table = pd.DataFrame([(name, value, se) for name, value, se in rows if value is not None],
                                 columns=["parameter", "estimate", "standard error"])
            plotted["fitted_parameters"] = table
            st.dataframe(table, hide_index=True, width="stretch",
                         column_config={"estimate": st.column_config.NumberColumn(format="%.4f"),
                                        "standard error": st.column_config.NumberColumn(format="%.4f")})
            st.caption("Standard errors: bootstrap over clusters (or questions). The gain's cluster-robust standard "
                       f"error is {fitted.delta_se:.4f}. The logs' own gain is not your expected gain: plan for the "
                       "gain you hope to detect.")
            values = {"acc_a": float(np.clip(round(200 * fitted.accuracy[a_name]) / 2, 1.0, 99.0)),
                      "k": nearest(K_OPTIONS, fitted.samples), "m": nearest(M_OPTIONS, fitted.cluster_size)}
            if fitted.difficulty_sd is not None:
                values["sd"] = float(np.clip(round(fitted.difficulty_sd, 2), 0.0, 0.5))
            if fitted.correlation is not None:
                values["rho"] = float(np.clip(round(fitted.correlation * 20) / 20, -0.5, 1.0))
            if fitted.icc is not None:
                values["icc"] = float(np.clip(round(fitted.icc * 20) / 20, 0.0, 1.0))
            if fitted.difficulty_sd is None and math.isfinite(fitted.covariance):
                # one answer per question: only ρσ² is identified; set σ and ρ with that product
                values["sd"], values["rho"] = llm.difficulty_from_covariance(
                    float(np.clip(fitted.covariance, -1.0, 1.0)), fitted.accuracy[a_name], fitted.accuracy[b_name],
                    prefer_sd=float(sd))
                st.caption(f"With one answer per question only the covariance of the two models' question scores "
                           f"is identified (ρσ² = {fitted.covariance:.4f}), not σ and ρ apart: the paired variance "
                           "of a K = 1 evaluation depends on their product only. The button sets σ = "
                           f"{values['sd']:.2f} and ρ = {values['rho']:.2f} (ρσ² = "
                           f"{values['rho'] * values['sd'] ** 2:.4f}), which plans the same K = 1 evaluation; for "
                           "K > 1 log several answers per question so that σ itself can be estimated.")
            st.button("Use these values in the sliders", on_click=apply_values, args=(values,), key="use_fit",
                      type="primary", help="Sets the baseline accuracy, σ, ρ, K, m and ICC (rounded to the sliders' "
                      "steps); the expected gain stays yours.")
        with guard("Cannot summarise the tasks", stop=False):
            grouped = False
            if "cluster" in log.columns:
                typical = int(log.groupby("cluster")["question"].nunique().median())
                grouped = st.toggle("One row per cluster (task)", value=typical >= 30, key="per_cluster",
                                    help="Clusters are tasks when several tasks were uploaded (e.g. MMLU subjects); "
                                    f"here a cluster has {typical:,} questions in the middle.")
            per_task = tasks_of(log, "cluster" if grouped else None, alpha, target)
            plotted["per_task"] = per_task
            st.markdown("**Per " + ("task (cluster)" if grouped else "model, whole log") + ":** questions, accuracy "
                        f"with its Wilson 95% interval, and the paired gain detectable with {target:.0%} power.")
            st.dataframe(per_task, hide_index=True, width="stretch", column_config={
                "task": "Task", "model": "Model", "n": st.column_config.NumberColumn("Questions", format="%d"),
                "accuracy": st.column_config.NumberColumn("Accuracy", format="percent"),
                "low": st.column_config.NumberColumn("Wilson low", format="percent"),
                "high": st.column_config.NumberColumn("Wilson high", format="percent"),
                "mde": st.column_config.NumberColumn(f"MDE at {target:.0%} (pts)", format="percent"),
                "flag": "Check"})
            flagged = int((per_task["flag"] != "").sum())
            if flagged:
                st.warning(f"**{flagged} row(s) flagged:** all right or all wrong (a CLT standard error would be 0), "
                           "or fewer than 30 questions. Report Wilson intervals there, and do not rank models on such "
                           "tasks alone (Bowyer et al. 2025).")

if tab.open("noworse"):
    with tab["noworse"]:
        c1, c2 = st.columns(2)
        margin_pts = c1.slider("Margin (points)", min_value=0.5, max_value=10.0, value=2.0, step=0.5, key="llm_margin",
                               bind="query-params", help="The largest loss of accuracy you accept for the new model "
                               "(e.g. a cheaper or quantised one).")
        ni_alpha = c2.select_slider("One-sided α", options=[0.005, 0.01, 0.025, 0.05, 0.1], value=0.025,
                                    key="llm_ni_alpha", bind="query-params",
                                    help="0.025 matches a two-sided 95% interval whose lower end must clear −margin.")
        with guard("Cannot compute this design", stop=False):
            ni_power, ni_need, ni_curve = noworse(n, design, round(margin_pts / 100, 6), ni_alpha, target)
            plotted["no_worse_than"] = ni_curve
            metrics_row(
                Metric("Power to show “no worse”", fmt_pct(ni_power),
                       help="P(the one-sided test rejects 'B is worse than A by the margin or more') at the expected "
                       "gain, with the variance model of this page (clusters, K answers, judge)."),
                Metric(f"Questions for {target:.0%} power (no worse)", "—" if ni_need is None else
                       ("not reachable" if ni_need < 0 else f"{ni_need:,}"),
                       help="Fewest questions (whole clusters) reaching the target power."),
            )
            if ni_need is None:
                st.warning("The expected gain is below −margin: no benchmark can show that B is no worse.")
            chart(figures.curve_figure(
                ni_curve.assign(series=f"n = {n:,}, K = {k}"), x="gain_pp", y="power", color="series",
                current=(gain, ni_power), target=target, log_x=False, x_hover_format=".1f",
                title="Power to show “no worse than” vs the true gain", x_title="True gain of B over A (points)",
                y_title="Power", y_range=(0, 1.02),
                lines=[figures.Line(x=-margin_pts, text=f"−margin ({-margin_pts:g} pts)", color=figures.PALETTE[3])],
                style=style()), "noworse_chart")
        st.markdown("**Why the hypothesis is reversed.** Failing to find a significant difference does not show that "
                    "the new model is as good — the benchmark may simply be too small. To claim “no worse than”, the "
                    "null hypothesis is that B is worse by the margin or more; only enough questions can reject it. "
                    "Left of the margin line the curve is the rate of false claims (at most α).")

# ---------------------------------------------------------------------------
# simulation check, on demand
# ---------------------------------------------------------------------------
if sim.run:
    st.subheader("Simulation check")
    key = ("llm", n, design, sim.n_sims, sim.seed)
    mc = None
    with guard("Cannot simulate this design", stop=False):  # the rest of the page does not need it
        mc = simulation(key, lambda progress: design.power(n, method="simulate", n_sims=sim.n_sims, seed=sim.seed,
                                                           progress=progress),
                        text=f"Simulating {sim.n_sims:,} benchmark runs…")
if sim.run and mc is not None:
    metrics_row(
        Metric("Simulated power" if gain else "Simulated false-positive rate", fmt_pct(mc.power),
               se=f"{100 * mc.mc_se:.1f}%", help=f"{mc.n_sims:,} simulated benchmark runs."),
        Metric("Simulated Type-M", fmt_ratio(mc.type_m),
               se=f"{mc.type_m_se:.2f}×" if mc.type_m_se and math.isfinite(mc.type_m_se) else None),
        Metric("Simulated Type-S", fmt_pct(mc.type_s, 2),
               se=f"{100 * mc.type_s_se:.2f}%" if mc.type_s_se and math.isfinite(mc.type_s_se) else None),
    )
    if abs(mc.power - result.power) <= 3 * max(mc.mc_se, 1e-12):
        st.caption("The closed form agrees with the simulation within 3 Monte Carlo standard errors.")
    else:
        st.warning("The closed form and the simulation differ by more than 3 Monte Carlo standard errors; with few "
                   "questions or clusters the closed form's normal theory is rough — trust the simulation.")

# ---------------------------------------------------------------------------
# run it sequentially (core.sequential's engine on this page's variance model)
# ---------------------------------------------------------------------------
with guard("Cannot run this design sequentially", stop=False):
    item = sq.benchmark_item_model(accuracy_a=acc_a / 100, accuracy_b=min(max(acc_a / 100 + gain / 100, 0.0), 1.0),
                                   difficulty_sd=sd, correlation=rho, samples=k, cluster_size=m, icc=icc_used,
                                   judge_sensitivity=se_pct / 100, judge_specificity=sp_pct / 100)
    cluster_note = (f"(clusters of {m} questions with ICC {icc_used:.2f} enter as the design effect "
                    f"{1 + (m - 1) * icc_used:.2f}: questions are assumed to arrive cluster by cluster, so every look "
                    "falls between clusters)." if m > 1 else "(independent questions).")
    plotted.update(sequential_section(
        n=n, model=item, alpha=alpha, target=target, unit="question", units="questions",
        x_title="True gain (points)", to_x=lambda d: 100 * d / item.scale, x_max=max(2 * abs(gain), 5.0),
        current_x=abs(gain), cost_per_item=cost_question + 2 * k * cost_sample, currency=currency,
        assumption="from the variance model above " + cluster_note, key="seq"))

if tab.open("subset"):
    with tab["subset"], guard():
        llm_subset.subset_view(plotted)

# ---------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------
cost_now = n * (cost_question + 2 * k * cost_sample) if (cost_question or cost_sample) else None
if tab.current != "subset":  # the subset tab plans its own design (pages/_llm_subset.py)
    snippet = llm_snippet(n=n, design=design.kwargs(), target_power=target, cost_question=cost_question,
                          cost_sample=cost_sample, prior=(prior.mean, prior.sd) if assured is not None else None)
    plan_actions(llm_plan.plan_item(
        design, result, n=n, target_power=target, judged=judged, mde=mde_value, sizes=n_sizes, cheapest=best,
        assurance=assured, prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, cost=cost_now,
        currency=currency, figures=tuple(plan_figures), link=current_link(), code=snippet,
        sources={key: source_of(key, value, "slider") for key, value in (
            ("n", n), ("acc_a", acc_a), ("sd", sd), ("rho", rho), ("k", k), ("m", m), ("icc", icc))}), key="llm")
    code_view(snippet, key="llm_code")

# the questions to evaluate: a seeded random subset (not the first n), the same for every model
items_box = st.expander("Download the item list — which questions to evaluate, the same for every model",
                        key="items_open", on_change="rerun", icon=":material/format_list_numbered:")
if items_box.open:
    with items_box, guard("Cannot draw the item list", stop=False):
        c1, c2 = st.columns(2)
        item_seed = int(c1.number_input("Seed", 0, 2**31 - 1, 0, key="items_seed",
                                        help="The same seed gives the same list; keep it in your plan."))
        if log is not None:
            questions = log.drop_duplicates("question")
            item_ids = questions["question"].tolist()
            item_clusters = questions["cluster"].tolist() if "cluster" in questions.columns else None
            item_task = harness_task(files_a[0].name) if source == "harness" else "benchmark"
            st.caption(f"Drawn from the {len(item_ids):,} questions of {safe_message(origin)}"
                       + (", stratified by cluster (each cluster keeps its share)." if item_clusters else "."))
        else:
            total_items = int(c2.number_input("Items in the benchmark N", min_value=n, max_value=10_000_000,
                                              value=min(10_000_000, 10 * n), step=100, key="items_total",
                                              help="No log uploaded: the benchmark's items are assumed numbered "
                                              "0 … N − 1 in the harness's order (its doc_id)."))
            item_task = c1.text_input("Task name (as the harness calls it)", "benchmark", max_chars=80,
                                      key="items_task").strip() or "benchmark"
            item_ids, item_clusters = range(total_items), None
            st.caption(f"No log uploaded (tab “{VIEWS['fit']}”): {n:,} of {total_items:,} items numbered 0 … "
                       f"{total_items - 1:,}, assumed to be the harness's doc_ids. Upload a log to draw from its own "
                       "questions, stratified by cluster.")
        if n > len(item_ids):
            st.warning(f"The log has {len(item_ids):,} questions, fewer than n = {n:,}: lower n, or evaluate them "
                       "all.")
        else:
            chosen = item_list(item_ids, n, clusters=item_clusters, tasks=item_task, seed=item_seed)
            d1, d2 = st.columns(2)
            d1.download_button("Download the item list (JSON)", data=item_list_json(chosen).encode("utf-8"),
                               file_name="item_list.json", mime="application/json", key="items_json",
                               on_click="ignore", help="{task: [doc_id, …]}: what lm-evaluation-harness's "
                               "--samples takes.")
            d2.download_button("Download the item list (CSV)", data=chosen.to_csv(index=False).encode("utf-8"),
                               file_name="item_list.csv", mime="text/csv", key="items_csv", on_click="ignore")
            command = harness_command(chosen)
            if command:
                st.markdown("Run **each model** with the same list (lm-evaluation-harness ≥ 0.4.9; `--samples` "
                            "cannot be combined with `--limit`):")
                st.code(command, language="bash", wrap_lines=True)
                st.caption("In the logs of such a run, doc_id numbers the chosen documents 0, 1, … in the order of "
                           "the list, so the k-th logged doc_id is the list's k-th id.")
            else:
                st.markdown("These ids are question texts or names, which the harness cannot select. Evaluate each "
                            "model on the benchmark, then keep only the listed questions before the analysis, e.g. "
                            "`log[log['question'].isin(pd.read_csv('item_list.csv')['item'])]`.")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
if plotted:
    download_csv(plotted, f"llm_{tab.current}.csv", key="download_curves", label="Download the plotted data (CSV)")
explain(
    f"""
**The question.** Two language models answer the same **{n:,}** questions. You expect the new one to be
**{gain:+.1f} points** more accurate than the baseline's {acc_a:.1f}%. Will the comparison find that difference?

**Paired questions.** Both models answer the same questions, so the test looks at each question's difference. Questions
differ in difficulty (σ), but if the models find the same questions hard (correlation ρ), most of that cancels in the
difference — which is why a paired comparison needs far fewer questions than two separate accuracies.

**Sampling noise and K.** A model that samples its answers (temperature > 0) gets a hard question right only some of
the time. Averaging K answers per question shrinks this noise, but not the differences between questions: the variance
budget tab shows when more samples stop helping.

**Clusters.** Questions that share a passage or template are not independent: the design effect 1 + (m − 1)·ICC says
how many independent questions a cluster is really worth. The test uses cluster-robust standard errors.

**Judges.** An LLM judge that grades right answers right with probability Se and wrong answers wrong with probability
Sp shrinks every difference by J = Se + Sp − 1 (the Rogan–Gladen correction divides by it again, enlarging the noise).

**Power, Type-M, Type-S** as on the other pages: the share of such experiments that come out significant in the right
direction, and how much, and how often in the wrong direction, significant results mislead.

**Which questions.** Evaluate a *random* subset, the same for every model ("Download the item list"). The harness's
`--limit` takes the **first** n documents of each task, which are often sorted by source, topic or difficulty: the
first n are not a sample of the benchmark. `--samples` with the downloaded list evaluates exactly the chosen ones.
The tab "Run a subset instead" says how far such a subset lands from the full run and how often it picks its winner.
"""
)

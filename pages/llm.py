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
from core.plan import Assumption, PlanItem
from pages._scaffold import (
    Metric,
    pin_controls,
    pinned_curve,
    pinned_designs,
    pin_columns,
    pins_table,
    current_link,
    fmt_money,
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

N_OPTIONS = sorted({int(m * 10**e) for e in range(1, 6) for m in (1, 1.5, 2, 3, 5, 7.5) if 50 <= m * 10**e <= 100_000}
                   | {100_000})
K_OPTIONS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50]
M_OPTIONS = [1, 2, 3, 4, 5, 8, 10, 15, 20, 25, 50, 100]
CURVE_KS = (1, 2, 5, 10)
VIEWS = {"power": "Power vs questions", "assurance": "Assurance vs questions", "budget": "Variance budget",
         "cost": "Cost vs samples",
         "judge": "Judge error", "fit": "Estimate from your logs"}


def linked_options(key: str, options: list[int], low: int, high: int) -> list[int]:
    """Slider options plus a value given in the link, if it is a whole number in range."""
    raw = st.query_params.get(key)
    try:
        value = int(float(raw)) if raw is not None else None
    except (ValueError, OverflowError):  # not a number, or inf
        value = None
    return sorted(set(options) | {value}) if value is not None and low <= value <= high else options


@cached
def point(n, design):
    return llm.benchmark_power(n, **dict(design))


@cached
def sizes(design, target):
    return llm.benchmark_sample_sizes(**dict(design), target_power=target)


@cached
def mde(n, design, target):
    kw = {k: v for k, v in dict(design).items() if k != "accuracy_b"}
    return llm.benchmark_mde(n, **kw, target_power=target)


@cached
def plan(design, cost_question, cost_sample, target):
    kw = {k: v for k, v in dict(design).items() if k != "samples"}
    return llm.benchmark_plan(**kw, cost_question=cost_question, cost_sample=cost_sample, target_power=target,
                              max_samples=50)


@cached
def power_curves(ns, ks, design):
    kw = {k: v for k, v in dict(design).items() if k != "samples"}
    return llm.power_curve(list(ns), samples_list=tuple(ks), **kw)


@cached
def budget(design):
    kw = {k: v for k, v in dict(design).items() if k not in ("samples", "alpha")}
    return llm.variance_budget(**kw, max_samples=20)


@cached
def judge_curves(ns, design, se, sp):
    kw = {k: v for k, v in dict(design).items() if k not in ("judge_sensitivity", "judge_specificity")}
    return llm.judge_curve(list(ns), judge_sensitivity=se, judge_specificity=sp, **kw)


@cached
def assurance_at(ns, design, mean, sd):
    kw = {k: v for k, v in dict(design).items() if k != "accuracy_b"}
    rows = []
    for size in ns:
        res = llm.benchmark_assurance(size, delta_mean=mean, delta_sd=sd, **kw)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n_questions", "assurance", "power", "ceiling"])


PIN_KEYS = ("n", "acc_a", "gain", "sd", "rho", "k", "m", "icc", "judge", "se", "sp", "alpha")


@cached
def pinned(values, target):
    """A pinned design's power curve over questions (its own K) and its summary."""
    v = dict(values)
    size, a, g = int(float(v.get("n", 1000))), float(v.get("acc_a", 70.0)) / 100, float(v.get("gain", 3.0)) / 100
    judged_p = v.get("judge") == "True"
    m_p = int(float(v.get("m", 1)))
    kw = dict(accuracy_a=a, accuracy_b=round(a + g, 6), difficulty_sd=float(v.get("sd", 0.25)),
              correlation=float(v.get("rho", 0.6)), cluster_size=m_p,
              icc=float(v.get("icc", 0.2)) if m_p > 1 else 0.0,
              judge_sensitivity=float(v.get("se", 90.0)) / 100 if judged_p else 1.0,
              judge_specificity=float(v.get("sp", 90.0)) / 100 if judged_p else 1.0, alpha=float(v.get("alpha", 0.05)))
    k_p = int(float(v.get("k", 1)))
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
def read_harness(entries, metric, filter_):
    return llm.read_harness_samples(list(entries), metric=metric, filter=filter_)


@cached_upload
def fit(log: pd.DataFrame, judge_se, judge_sp):
    return llm.fit_benchmark(log, judge_sensitivity=judge_se, judge_specificity=judge_sp, seed=0)


def nearest(options, value):
    return min(options, key=lambda o: abs(o - value))


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("LLM benchmarks: questions, samples per question, and judges",
      "Two language models on one benchmark: paired differences, K sampled answers per question, clustered questions "
      "and an LLM judge's errors (Miller 2024, arXiv 2411.00640; Card et al. 2020 for power, Type-M and Type-S).")
side = st.sidebar
side.subheader("Benchmark")
n = side.select_slider("Questions n", options=linked_options("n", N_OPTIONS, 4, 10_000_000), value=1000, key="n",
                       bind="query-params", help="Questions both models answer (log-spaced steps; a link may carry any "
                       "number). With clusters, the last cluster may be partial.")
acc_a = side.slider("Accuracy of the baseline A (%)", 1.0, 99.0, 70.0, 0.5, key="acc_a", bind="query-params",
                    help="Expected accuracy of the current model on this benchmark.")
gain = side.slider("Expected gain of the new model B (points)", -30.0, 30.0, 3.0, 0.5, key="gain",
                   bind="query-params", help="Accuracy of B minus accuracy of A, in percentage points. Be honest: "
                   "recent headline gains on saturated benchmarks are often 1–3 points.")
sd = side.slider("Question difficulty spread σ", 0.0, 0.5, 0.25, 0.01, key="sd", bind="query-params",
                 help="Standard deviation over questions of the probability that a model answers correctly. 0: all "
                 "questions equally hard; near √(μ(1−μ)): every question is either always or never solved. Must satisfy "
                 "σ² ≤ μ(1 − μ) for both models.")
rho = side.slider("Correlation between the models ρ", -0.5, 1.0, 0.6, 0.05, key="rho", bind="query-params",
                  help="How similarly the two models find questions hard. Models from one family share most of their "
                  "failures (high ρ), which makes a paired comparison much more precise.")
k = side.select_slider("Samples per question K", options=K_OPTIONS, value=1, key="k", bind="query-params",
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
side.subheader("Costs")
cost_question = side.number_input("Cost per question", 0.0, 10_000.0, 0.50, 0.05, key="cost_q", bind="query-params",
                                   help="Writing or labelling one new question (0 if the benchmark exists).")
cost_sample = side.number_input("Cost per sampled answer", 0.0, 1_000.0, 0.01, 0.001, format="%.3f", key="cost_s",
                                bind="query-params", help="One model call (plus its grading); both models answer every "
                                "question K times.")
currency = side.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                           help="A label for the amounts, e.g. USD, EUR, GBP.").strip()
alpha, target = decision_controls()
prior = prior_controls(default_mean=gain, unit="points", low=-30.0, high=30.0, step=0.5, sd_default=2.0, sd_high=15.0,
                       help_unit=" (accuracy of B minus A, in points)", measured_scale=100.0)
sim = simulation_controls(options=(500, 1000, 2000, 5000), default=2000,
                          help="Simulates the whole model — Beta-distributed question difficulties, binomial answers, "
                          "clustered standard errors — and shows its estimates with Monte Carlo standard errors next to "
                          "the closed form.")

icc_used = icc if m > 1 else 0.0
design = (("accuracy_a", acc_a / 100), ("accuracy_b", round(acc_a / 100 + gain / 100, 6)), ("difficulty_sd", sd),
          ("correlation", rho), ("samples", k), ("cluster_size", m), ("icc", icc_used),
          ("judge_sensitivity", se_pct / 100), ("judge_specificity", sp_pct / 100), ("alpha", alpha))
delta = gain / 100

# ---------------------------------------------------------------------------
# the current design (closed form, instant)
# ---------------------------------------------------------------------------
if not 0 <= acc_a + gain <= 100:
    st.error(f"**Impossible design:** the new model's accuracy would be {acc_a:.1f}% {gain:+.1f} points = "
             f"{acc_a + gain:.1f}%. Lower the gain or the baseline accuracy.")
    st.stop()
with guard("Impossible design"):
    result = point(n, design)
    mde_value = mde(n, design, target)
    n_sizes = sizes(design, target) if gain != 0 else None
    best = plan(design, cost_question, cost_sample, target) if gain != 0 and (cost_question or cost_sample) else None
cheapest = ("—" if best is None else "not reachable" if best.n_questions < 0 else
            f"{best.n_questions:,} × {best.samples}")
metrics_row(
    Metric("Power" if gain else "False-positive rate", fmt_pct(result.power),
           help="P(significant and in the right direction); at zero gain, the false-positive rate."),
    Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
           help="Average |estimated gain| / |true gain| among significant results (on the judge-corrected scale)."),
    Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the wrong sign."),
    Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else
           f"{100 * mde_value:.2f} pts", help="Smallest accuracy gain this benchmark detects with the target power."),
    sample_size_metric(n_sizes, target, help="Questions at the current K; a whole number of clusters.",
                       limit=10_000_000),
    Metric("Cheapest n × K", cheapest,
           help="Fewest-cost (questions, samples per question) reaching the target power, with cost "
           "n·(cost per question + 2·K·cost per answer).",
           caption=None if best is None or best.n_questions < 0 else f"cost {fmt_money(best.cost, currency)}"),
)
verdict(result.power, target, effect=gain, type_m=result.type_m)
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
tab = views(VIEWS)
lo, hi = max(20, n // 30, m + 1), min(10_000_000, max(n * 30, 2000))  # every size has at least 2 clusters
ns = tuple(sorted(set(np.unique(np.geomspace(lo, hi, 40).astype(int)).tolist()) | {n}))
if tab.open("power"):
    with tab["power"], guard():
        ks = tuple(sorted(set(CURVE_KS) | {k}))
        curves = power_curves(ns, ks, design)
        curves = curves.assign(series=[f"K = {s}" + (" (current)" if s == k else "") for s in curves["samples"]])
        plotted["power_vs_questions"] = curves
        chart(figures.curve_figure(curves, x="n_questions", y="power", color="series", current=(n, result.power),
                                   target=target, title="Power vs number of questions, by answers per question",
                                   x_title="Questions n", y_title="Power", y_range=(0, 1.02), pins=pinned_power,
                                   style=style()), "power_chart")
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
        jc = judge_curves(ns, tuple((a, b) for a, b in design if a not in ("judge_sensitivity", "judge_specificity")),
                          j_se, j_sp)
        jc = jc.assign(series=jc["grading"].map({"exact": "exact grading",
                                                 "judge": f"judge (Se = {j_se:.0%}, Sp = {j_sp:.0%})"}))
        plotted["judge"] = jc
        chart(figures.curve_figure(jc, x="n_questions", y="power", color="series", current=(n, result.power),
                                   target=target, title="Power with and without judge error", x_title="Questions n",
                                   y_title="Power", y_range=(0, 1.02), style=style()), "judge_chart")
        if not judged:
            st.caption("Showing a judge with 90% sensitivity and specificity; switch on “Graded by an LLM judge” to use "
                       "your own.")
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
                log, origin = read_harness(entries, metric, filt), f"{len(entries)} harness files"
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

# ---------------------------------------------------------------------------
# simulation check, on demand
# ---------------------------------------------------------------------------
if sim.run:
    st.subheader("Simulation check")
    key = ("llm", n, design, sim.n_sims, sim.seed)
    mc = None
    with guard("Cannot simulate this design", stop=False):  # the rest of the page does not need it
        mc = simulation(key, lambda progress: llm.benchmark_power(n, **dict(design), method="simulate",
                                                                  n_sims=sim.n_sims, seed=sim.seed, progress=progress),
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
                   "questions or clusters the z test's normal approximation is rough — trust the simulation.")

# ---------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------
judge_text = (f", answers graded by an LLM judge with sensitivity {se_pct:.0f}% and specificity {sp_pct:.0f}%"
              if judged else "")
cluster_text = f" in clusters of {m} (ICC {icc:.2f})" if m > 1 else ""
sentence = (f"With {n:,} questions{cluster_text}, {k} sampled answer{'s' if k > 1 else ''} per question and model"
            f"{judge_text}, a baseline accuracy of {acc_a:.1f}%, a difficulty spread of σ = {sd:.2f} and a correlation "
            f"of ρ = {rho:.2f} between the models, a two-sided z test of the mean paired difference"
            f"{' with cluster-robust standard errors' if m > 1 else ''} at α = {alpha:g} detects a {gain:+.1f}-point "
            f"gain with {fmt_pct(result.power, 0)} power")
if gain and math.isfinite(result.type_m):
    sentence += f"; a significant result would overstate the gain by {result.type_m:.2f}× on average"
sentence += " (Miller, 2024; Card et al., 2020)."
if n_sizes is not None and n_sizes.first > 0:
    sentence += f" Reaching {target:.0%} power takes {n_sizes.first:,} questions at this K."
if best is not None and best.n_questions > 0:
    sentence += (f" The cheapest design reaching it is {best.n_questions:,} questions × {best.samples} answers, "
                 f"costing {fmt_money(best.cost, currency)}.")
if assured is not None:
    sentence += (f" Averaged over a normal prior on the gain (mean {prior.mean:+.1f}, SD {prior.sd:.1f} points), the "
                 f"assurance is {fmt_pct(assured['assurance'], 0)} (ceiling {fmt_pct(assured['ceiling'], 0)}).")
assumptions = [Assumption("questions n", f"{n:,}", source_of("n", n, "slider")),
               Assumption("baseline accuracy", f"{acc_a:.1f}%", source_of("acc_a", acc_a, "slider")),
               Assumption("expected gain", f"{gain:+.1f} points", "slider"),
               Assumption("difficulty spread σ", f"{sd:.2f}", source_of("sd", sd, "slider")),
               Assumption("correlation ρ", f"{rho:.2f}", source_of("rho", rho, "slider")),
               Assumption("samples per question K", str(k), source_of("k", k, "slider")),
               Assumption("questions per cluster m", str(m), source_of("m", m, "slider"))]
if m > 1:
    assumptions.append(Assumption("ICC", f"{icc:.2f}", source_of("icc", icc, "slider")))
if judged:
    assumptions.append(Assumption("judge sensitivity / specificity", f"{se_pct:.1f}% / {sp_pct:.1f}%", "slider"))
if assured is not None:
    assumptions.append(Assumption("prior on the gain", f"N({prior.mean:+.1f}, {prior.sd:.1f}²) points", prior.source))
results = [("power", fmt_pct(result.power)), ("Type-M", fmt_ratio(result.type_m)), ("Type-S", fmt_pct(result.type_s, 2)),
           (f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else
            f"{100 * mde_value:.2f} points")]
if n_sizes is not None:
    results.append((f"questions for {target:.0%} power", f"{n_sizes.first:,}" if n_sizes.first > 0 else "not reachable"))
if best is not None and best.n_questions > 0:
    results.append(("cheapest design", f"{best.n_questions:,} questions × K = {best.samples} "
                                       f"({fmt_money(best.cost, currency)})"))
if assured is not None:
    results += [("assurance", fmt_pct(assured["assurance"])), ("assurance ceiling", fmt_pct(assured["ceiling"]))]
cost_now = n * (cost_question + 2 * k * cost_sample) if (cost_question or cost_sample) else None
plan_actions(PlanItem(
    scenario="LLM benchmark", question=f"Can {n:,} questions detect a {gain:+.1f}-point gain between two language "
    "models?", assumptions=tuple(assumptions),
    test="two-sided z test of the mean paired difference" + (" (cluster-robust SE)" if m > 1 else ""), alpha=alpha,
    results=tuple(results), paragraph=sentence, cost=cost_now, currency=currency,
    link=current_link(),
    references=("Miller (2024). Adding Error Bars to Evals: A Statistical Approach to Language Model Evaluations. "
                "arXiv 2411.00640.", "Card et al. (2020). With Little Power Comes Great Responsibility. EMNLP.",
                "Rogan & Gladen (1978). Estimating prevalence from the results of a screening test.")), key="llm")

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
"""
)

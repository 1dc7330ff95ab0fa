"""LLM benchmark page: how many questions, how many samples per question, and what a judge's errors cost.

Miller (2024), "Adding Error Bars to Evals" (arXiv 2411.00640); Card et al. (2020) for power, Type-M and
Type-S; Rogan & Gladen (1978) for judge error. UI only: widgets → one ``core.llm.BenchmarkDesign`` → cached calls
into ``core.llm`` → charts and metrics. Every number is closed-form and instant; the simulation runs on demand.
The tabs are laid out in ``pages/_llm_views.py``, ``pages/_llm_logs.py``, ``pages/_llm_facets.py`` and
``pages/_llm_subset.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from core import llm
from core.llm import plan as llm_plan
from core.llm.snippet import llm_snippet
from pages import _llm_logs as logs
from pages import _llm_subset as llm_subset
from pages import _llm_views as tabs
from pages._fields import field_input
from pages._llm_facets import facets_section
from pages._scaffold import (
    Metric,
    PriorSettings,
    SimulationSettings,
    cached,
    code_view,
    currency_label,
    current_link,
    decision_controls,
    download_csv,
    explain,
    fmt_money,
    fmt_pct,
    fmt_ratio,
    guard,
    key_inputs,
    metrics_row,
    pin_columns,
    pin_controls,
    pinned_curve,
    pinned_designs,
    pins_table,
    plan_actions,
    prior_controls,
    sample_size_metric,
    simulation_controls,
    source_of,
    start,
    verdict,
    views,
)

Design = llm.BenchmarkDesign
N_OPTIONS = sorted({int(m * 10**e) for e in range(1, 6) for m in (1, 1.5, 2, 3, 5, 7.5) if 50 <= m * 10**e <= 100_000}
                   | {100_000})
K_OPTIONS, M_OPTIONS = logs.K_OPTIONS, logs.M_OPTIONS
#: The example unit costs (the metric says when the cheapest design still rests on them).
COST_QUESTION, COST_SAMPLE = Design.field("cost_question").default, Design.field("cost_sample").default
#: The views that plan a design of their own from their own inputs (pages/_llm_facets.py, pages/_llm_subset.py): they
#: read none of the key inputs, and the page's plan, sequential section and item list are left out under them.
OWN_VIEWS = ("facets", "subset")
VIEWS = {"power": "Power vs questions", "assurance": "Assurance vs questions", "budget": "Variance budget",
         "cost": "Cost vs samples",
         "judge": "Judge error", "fit": logs.FIT_VIEW, "noworse": "No worse than",
         "facets": "Prompts and seeds", "subset": llm_subset.SUBSET_VIEW}
#: The widget keys a pin keeps (the design's URL keys the pinned curve turns on).
PIN_KEYS = tuple(Design.field(name).key for name in ("n", "accuracy_a", "delta", "difficulty_sd", "correlation",
                                                     "samples", "cluster_size", "icc", "judged", "judge_sensitivity",
                                                     "judge_specificity", "alpha"))


@dataclass(frozen=True)
class Settings:
    """What the sidebar sets besides the design: the decision rule's target, the currency, prior and simulation."""

    target: float
    currency: str
    prior: PriorSettings
    sim: SimulationSettings


def shown(design: llm.BenchmarkDesign, name: str):
    """A field of the design in its widget's units (percent, points)."""
    return Design.field(name).to_widget(getattr(design, name))


def linked_options(key: str, options: list[int], low: int, high: int) -> list[int]:
    """Slider options plus a value given in the link, if it is a whole number in range."""
    raw = st.query_params.get(key)
    try:
        value = int(float(raw)) if raw is not None else None
    except (ValueError, OverflowError):  # not a number, or inf
        value = None
    return sorted(set(options) | {value}) if value is not None and low <= value <= high else options


# one cached call per output, each taking the page's one design (frozen, hashed by value)
@cached
def point(design: llm.BenchmarkDesign):
    return design.power()


@cached
def sizes(design: llm.BenchmarkDesign, target):
    return design.sample_sizes(target_power=target)


@cached
def mde(design: llm.BenchmarkDesign, target):
    return design.mde(target_power=target)


@cached
def plan(design: llm.BenchmarkDesign, target):
    return design.plan(target_power=target, max_samples=50)


@cached
def pinned(d: llm.BenchmarkDesign, target):
    """A pinned design's power curve over questions (its own K) and its summary."""
    lo_p, hi_p = max(20, d.n // 30), min(10_000_000, max(d.n * 30, 2000))
    grid = np.unique(np.concatenate([np.geomspace(lo_p, hi_p, 40).astype(int), [d.n]]))
    point_p = d.power()
    summary = {"n": d.n, "design": f"{100 * d.accuracy_a:.1f}% + {100 * d.delta:+.1f} pts, K = {d.samples}, "
               f"m = {d.cluster_size}", "power": point_p.power, "type_m": point_p.type_m,
               "n_for_target": d.sample_size(target_power=target) if d.delta else -1}
    return d.curves(grid)[["n_questions", "power"]], summary


def _field(name: str, box, **options):
    """The widget of a declared field, with the page's label."""
    return field_input(Design, name, box, label=Design.field(name).label, **options)


def gain_shown() -> float:
    """The gain the key input shows — its value in this session, else the link's — where the sidebar needs it
    (the prior's starting mean) before the key inputs are drawn."""
    f = Design.field("delta")
    if f.key in st.session_state:
        return float(st.session_state[f.key])
    return f.to_widget(Design.from_params({f.key: st.query_params[f.key]} if f.key in st.query_params else {}).delta)


def assumptions() -> tuple[dict, Settings]:
    """The sidebar: every field but the key inputs, the costs, the decision rule, the prior and the simulation."""
    side = st.sidebar
    side.subheader("Benchmark")
    v = dict(accuracy_a=_field("accuracy_a", side, widget="slider"))
    v["difficulty_sd"] = _field("difficulty_sd", side, widget="slider")
    v["correlation"] = _field("correlation", side, widget="slider")
    v["cluster_size"] = _field("cluster_size", side, widget="select_slider", options=M_OPTIONS)
    v["icc"] = _field("icc", side, widget="slider", disabled=v["cluster_size"] == 1)
    v["judged"] = _field("judged", side)
    if v["judged"]:
        v["judge_sensitivity"] = _field("judge_sensitivity", side, widget="slider")
        v["judge_specificity"] = _field("judge_specificity", side, widget="slider")
        side.page_link("pages/judge.py", label="How many human labels to calibrate the judge?",
                       icon=":material/gavel:")
    side.subheader("Costs")
    v["cost_question"] = _field("cost_question", side)
    v["cost_sample"] = _field("cost_sample", side)
    currency = currency_label(side.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                                              help="A label for the amounts, e.g. USD, EUR, GBP."))
    v["alpha"], target = decision_controls()
    prior = prior_controls(default_mean=gain_shown(), unit="points", low=-30.0, high=30.0, step=0.5, sd_default=2.0,
                           sd_high=15.0, help_unit=" (accuracy of B minus A, in points)", measured_scale=100.0)
    sim = simulation_controls(options=(500, 1000, 2000, 5000), default=2000,
                              help="Simulates the whole model — Beta-distributed question difficulties, binomial "
                              "answers, clustered standard errors — and shows its estimates with Monte Carlo standard "
                              "errors next to the closed form.")
    return v, Settings(target, currency, prior, sim)


def key_values() -> dict:
    """The inputs the question turns on, above the first chart: questions n, the gain and samples K."""
    top = key_inputs(3)
    f_n = Design.field("n")
    return dict(n=_field("n", top[0], widget="select_slider",
                         options=linked_options(f_n.key, N_OPTIONS, int(f_n.low), int(f_n.high))),
                delta=_field("delta", top[1], widget="slider"),
                samples=_field("samples", top[2], widget="select_slider", options=K_OPTIONS))


def build(values: dict) -> llm.BenchmarkDesign:
    """The one design, or the page stops with what is impossible about it."""
    acc_a, gain = 100 * values["accuracy_a"], 100 * values["delta"]
    if not 0 <= round(values["accuracy_a"] + values["delta"], 12) <= 1:
        st.error(f"**Impossible design:** the new model's accuracy would be {acc_a:.1f}% {gain:+.1f} points = "
                 f"{acc_a + gain:.1f}%. Lower the gain or the baseline accuracy.")
        st.stop()
    with guard("Impossible design"):
        return Design(**values)


@dataclass(frozen=True)
class Headline:
    """The numbers above the tabs, which the tabs and the plan reuse."""

    result: object
    mde: float
    sizes: object
    best: object
    assured: object
    pinned_power: object


def headline(design: llm.BenchmarkDesign, s: Settings) -> Headline:
    """Power, Type-M, Type-S, MDE and size for the target; pins; the assurance under the prior."""
    target, n, m, k = s.target, design.n, design.cluster_size, design.samples
    acc_a, gain = shown(design, "accuracy_a"), shown(design, "delta")
    with guard("Impossible design"):
        result = point(design)
        # each keyed on the fields it reads (the MDE no gain, the sizes no n, the plan neither n nor K)
        mde_value = mde(design.key_for("mde"), target)
        n_sizes = sizes(design.key_for("sample_sizes"), target) if gain != 0 else None
        best = plan(design.key_for("plan"), target) if gain != 0 and (design.cost_question or design.cost_sample) \
            else None
    cheapest = ("—" if best is None else "not reachable" if best.n_questions < 0 else
                f"{best.n_questions:,} questions × {best.samples} answers each")
    # the cheapest design depends on the unit costs: say so when they are still the page's example values
    default_costs = (design.cost_question, design.cost_sample) == (COST_QUESTION, COST_SAMPLE)
    clusters_now = -(-n // m)
    if clusters_now <= 20 and m <= 5:
        st.info(f"**Few independent units:** {clusters_now} cluster{'s' if clusters_now != 1 else ''} of at most {m} "
                "question" + ("s" if m > 1 else "") + ". The closed form assumes near-normal cluster totals; with so "
                "few right/wrong answers per unit the t test is conservative and power depends on how difficulty is "
                "distributed (by 1–2 points). Switch on the simulation check for this design.")
    metrics_row(
        Metric("Power" if gain else "False-positive rate", fmt_pct(result.power),
               help="P(significant and in the right direction); at zero gain, the false-positive rate."),
        Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
               help="Average |estimated gain| / |true gain| among significant results (on the judge-corrected "
               "scale)."),
        Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2), help="Share of significant results with the wrong "
               "sign."),
        Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde_value) else
               f"{100 * mde_value:.2f} pts", help="Smallest accuracy gain this benchmark detects with the target "
               "power."),
        sample_size_metric(n_sizes, target, unit="questions", help="Questions at the current K; a whole number of "
                           "clusters.", limit=10_000_000),
    )
    # the cheapest (n, K) is a planning aside, not a headline number: a caption under the row keeps the row at five
    if best is not None:
        st.caption(f"Cheapest design for {target:.0%} power: {cheapest}"
                   + ("" if best.n_questions < 0 else f" (cost {fmt_money(best.cost, s.currency, markdown=False)}"
                      + (" at the example unit costs: set yours under Costs" if default_costs else "") + ")")
                   + "; cost = questions × (cost per question + 2 × answers × cost per answer).")
    verdict(result.power, target, effect=gain, type_m=result.type_m)
    st.page_link("pages/claims.py", label="Claiming gains on several benchmarks? See each claim's power after a "
                 "multiplicity correction", icon=":material/checklist:")
    pins = pin_controls("llm", PIN_KEYS, label=f"n = {n:,}, K = {k}, gain {gain:+.1f}")
    pinned_frames, pinned_rows = pinned_designs(pins, lambda d: pinned(d, target), design=Design)
    pins_table({"pin": "current", "n": n, "design": f"{acc_a:.1f}% + {gain:+.1f} pts, K = {k}, m = {m}",
                "power": result.power, "type_m": result.type_m,
                "n_for_target": n_sizes.first if n_sizes is not None else -1}, pinned_rows, pin_columns(target))
    assured = None
    if s.prior.on:
        with guard("Cannot average over this prior"):
            assured_row = tabs.assurance_at((n,), design, s.prior.mean / 100, s.prior.sd / 100)
        assured = assured_row.iloc[0]
        metrics_row(Metric("Assurance", fmt_pct(assured["assurance"]),
                           help="P(significant in the hoped-for direction), averaged over the prior on the gain.",
                           caption=f"ceiling {fmt_pct(assured['ceiling'])}; prior N({s.prior.mean:+.1f}, "
                                   f"{s.prior.sd:.1f}²) points ({s.prior.source})"))
    if design.judged and design.j < 0.5:
        st.caption(f"The judge's Youden index J = {design.j:.2f} shrinks every difference by that "
                   "factor: a weak judge costs more questions than a few extra samples can buy back.")
    return Headline(result, mde_value, n_sizes, best, assured, pinned_curve(pinned_frames, "n_questions", "power"))


def plan_section(design: llm.BenchmarkDesign, s: Settings, h: Headline, plan_figures: list) -> None:
    """The plan document and the code that reproduces the numbers."""
    prior = (s.prior.mean, s.prior.sd) if h.assured is not None else None
    snippet = llm_snippet(design, target_power=s.target, prior=prior)
    sources = {f.key: source_of(f.key, shown(design, f.name), "slider") for f in map(Design.field, (
        "n", "accuracy_a", "difficulty_sd", "correlation", "samples", "cluster_size", "icc"))}
    plan_actions(lambda: llm_plan.plan_item(
        design, h.result, target_power=s.target, mde=h.mde, sizes=h.sizes, cheapest=h.best, assurance=h.assured,
        prior=prior and (*prior, s.prior.source), currency=s.currency, figures=tuple(plan_figures),
        link=current_link(), code=snippet, sources=sources), key="llm")
    code_view(snippet, key="llm_code")


EXPLAIN = """
**The question.** Two language models answer the same **{n:,}** questions. You expect the new one to be
**{gain:+.1f} points** more accurate than the baseline's {acc_a:.1f}%. Will the comparison find that difference?

**Paired questions.** Both models answer the same questions, so the test looks at each question's difference. Questions
differ in difficulty (σ), but if the models find the same questions hard (correlation ρ), most of that cancels in the
difference — which is why a paired comparison needs far fewer questions than two separate accuracies.

**Sampling noise and K.** A model that samples its answers (temperature > 0) gets a hard question right only some of
the time. Averaging K answers per question shrinks this noise, but not the differences between questions: the variance
budget view shows when more samples stop helping.

**Clusters.** Questions that share a passage or template are not independent: the design effect 1 + (m − 1)·ICC says
how many independent questions a cluster is really worth. The test uses cluster-robust standard errors.

**Judges.** An LLM judge that grades right answers right with probability Se and wrong answers wrong with probability
Sp shrinks every difference by J = Se + Sp − 1 (the Rogan–Gladen correction divides by it again, enlarging the noise).

**Power, Type-M, Type-S** as on the other pages: the share of such experiments that come out significant in the right
direction, and how much, and how often in the wrong direction, significant results mislead.

**Which questions.** Evaluate a *random* subset, the same for every model ("Download the item list"). The harness's
`--limit` takes the **first** n documents of each task, which are often sorted by source, topic or difficulty: the
first n are not a sample of the benchmark. `--samples` with the downloaded list evaluates exactly the chosen ones.
The view "Run a subset instead" says how far such a subset lands from the full run and how often it picks its winner.
"""


@st.fragment
def main(sidebar: dict, s: Settings) -> None:
    """The key inputs and everything that depends on them: moving a key input reruns only this."""
    design = build({**sidebar, **key_values()})
    h = headline(design, s)
    plotted: dict[str, pd.DataFrame] = {}
    plan_figures: list = []  # the figures shown, for the plan document
    tab = views(VIEWS, own=OWN_VIEWS)
    if tab.open("power"):
        with tab["power"], guard():
            tabs.tab_power(design, h.result, s.target, h.pinned_power, plotted, plan_figures)
    if tab.open("assurance"):
        with tab["assurance"]:
            tabs.tab_assurance(design, s.prior, h.assured, s.target, plotted)
    if tab.open("budget"):
        with tab["budget"], guard():
            tabs.tab_budget(design, plotted)
    if tab.open("cost"):
        with tab["cost"]:
            tabs.tab_cost(design, h.best, s.target, s.currency, plotted)
    if tab.open("judge"):
        with tab["judge"], guard():
            tabs.tab_judge(design, h.result, s.target, plotted)
    if tab.open("facets"):  # questions × prompt templates × samples × seeds (pages/_llm_facets.py)
        with tab["facets"]:
            plotted.update(facets_section(alpha=design.alpha, target=s.target, currency=s.currency))
    with tab["fit"]:
        log, origin, task = logs.read_logs()
        if log is not None and tab.open("fit"):
            logs.show_fit(log, origin, design, s.target, plotted)
    if tab.open("noworse"):
        with tab["noworse"]:
            tabs.tab_noworse(design, s.target, plotted)
    own = tab.current in OWN_VIEWS  # the key inputs' design has nothing below: no check, sequel, plan or item list
    if not own:
        tabs.simulation_check(design, h.result, s.sim)
        plotted.update(tabs.sequentially(design, s.target, s.currency))
    if tab.open("subset"):
        with tab["subset"], guard():
            llm_subset.subset_view(plotted)
    if not own:
        plan_section(design, s, h, plan_figures)
        logs.item_list_box(design.n, log, origin, task)
    if plotted:
        download_csv(plotted, f"llm_{tab.current}.csv", key="download_curves", label="Download the plotted data (CSV)")
    explain(EXPLAIN.format(n=design.n, gain=shown(design, "delta"), acc_a=shown(design, "accuracy_a")))


start("LLM benchmarks: questions, samples and judges",
      "Two language models on one benchmark: paired differences, K sampled answers per question, clustered questions "
      "and an LLM judge's errors (Miller 2024, arXiv 2411.00640; Card et al. 2020 for power, Type-M and Type-S).")
main(*assumptions())

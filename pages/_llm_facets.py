"""The LLM page's "Prompts and seeds" tab: questions × prompt templates × samples (× training seeds).

UI only: widgets (bound to the URL) → cached calls into :mod:`core.llm.facets` → metrics and charts. The model is
generalizability theory's crossed design (Cronbach et al. 1972; Brennan 2001): the model × template interaction
does not shrink with more questions, so power has a ceiling that only more templates raise.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures, llm
from core.llm.plan import facet_plan_item
from core.llm.snippet import llm_facets_snippet
from pages._fields import field_input
from pages._llm_facets_logs import fit_from_logs
from pages._scaffold import (
    Metric,
    cached,
    chart,
    code_view,
    current_link,
    fmt_money,
    fmt_pct,
    fmt_ratio,
    guard,
    metrics_row,
    plan_actions,
    simulation,
    source_of,
    style,
)

N_OPTIONS = [50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10_000, 20_000, 50_000, 100_000, 1_000_000]
T_OPTIONS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50]
K_OPTIONS = [1, 2, 3, 4, 5, 8, 10, 16, 20]
CURVE_TS = (1, 2, 5, 10)
SIM_RUNS = 4000
F = llm.FacetDesign


@cached
def _point(design: llm.FacetDesign, target):
    res, se, ceiling = design.power(), design.se(), design.ceiling()
    need = design.sample_size(target_power=target) if design.delta else None
    return res, se, ceiling, need, design.p_correct_order()


@cached
def _curves(design: llm.FacetDesign, ns, ts):
    return design.curves(ns, templates_list=ts)


@cached
def _budgets(design: llm.FacetDesign, ts):
    return design.budget(ts)


@cached
def _best(design: llm.FacetDesign):
    return design.plan(max_templates=50)


@cached
def _seed_curve(design: llm.FacetDesign):
    return design.seed_curve(range(2, 31))


def _field(name: str, box, **options):
    return field_input(F, name, box, label=F.field(name).label, **options)


def _inputs(alpha: float) -> dict:
    """The question's inputs, above the first chart; the components in an assumptions expander."""
    c1, c2, c3, c4 = st.columns(4)
    v = dict(delta=_field("delta", c1, widget="slider"),
             templates=_field("templates", c2, widget="select_slider", options=T_OPTIONS),
             n=_field("n", c3, widget="select_slider", options=N_OPTIONS),
             samples=_field("samples", c4, widget="select_slider", options=K_OPTIONS), alpha=alpha)
    box = st.expander("Assumptions: variance components of the paired difference (SDs in points)",
                      icon=":material/tune:")
    with box:
        a1, a2, a3, a4 = st.columns(4)
        for col, name in zip((a1, a2, a3, a4), ("sd_template", "sd_item", "sd_item_template", "sd_sample")):
            v[name] = _field(name, col)
        r1, r2, r3 = st.columns(3)
        v["recipe"] = _field("recipe", r1)
        v["seeds"] = _field("seeds", r2, widget="slider", disabled=not v["recipe"])
        v["sd_seed"] = _field("sd_seed", r3, disabled=not v["recipe"])
    return v


def facets_section(*, alpha: float, target: float, currency: str) -> dict[str, pd.DataFrame]:
    """Render the tab; returns the plotted frames for the page's CSV download."""
    plotted: dict[str, pd.DataFrame] = {}
    plan_figures: list = []
    values = _inputs(alpha)
    if not any(values[name] for name in ("sd_template", "sd_item", "sd_item_template", "sd_sample")):
        st.error("**Every variance component is 0.** Set at least one SD above 0.")
        return plotted
    point, design = None, None
    with guard("Cannot compute this design", stop=False):
        design = F(**values)
        point = _point(design, target)
    if point is None:
        return plotted
    n, t, seeds, delta = design.n, design.templates, design.seeds_used, design.delta
    gain = F.field("delta").to_widget(delta)
    res, se, ceiling, need, ordered = point
    which = "one prompt template" if t == 1 else f"{t} prompt templates"
    metrics_row(
        Metric("Power (templates counted)" if gain else "False-positive rate (templates counted)", fmt_pct(res.power),
               help="P(significant and in the right direction) with the template, question, sample (and seed) "
               "variance all counted (known components, normal test)."),
        Metric("Power ceiling (unlimited questions)", fmt_pct(ceiling), help=f"Power with infinitely many questions "
               f"and {which}: the template (and seed) terms do not shrink with questions."),
        Metric("SE of the gain", f"{100 * se:.2f} pts", help="Standard error of the mean paired difference, in "
               "accuracy points."),
        Metric(f"Questions for {target:.0%} power (templates counted)", "—" if need is None else
               (f"{need:,}" if need > 0 else "not reachable" if ceiling < target else
                f"> {llm.FACET_MAX_QUESTIONS:,}"),
               help="Fewest questions reaching the target power at this T and K" + (
                   f"; not reachable with {which}: its power ceiling, {fmt_pct(ceiling)}, is below the target."
                   if need is not None and need <= 0 and ceiling < target else ".")),
        Metric("Type-M (templates counted)", fmt_ratio(res.type_m),
               help="Average |estimated gain| / |true gain| among significant results."),
    )
    # five metrics in the row; the ranking chance and the signal-to-noise ratio go under it, in words
    st.caption(f"P(correct order): {fmt_pct(ordered)} — the chance that the evaluation ranks the two models the right "
               "way round, significant or not (Φ of the gain over its SE).")
    st.caption(f"Signal-to-noise (gain ÷ its SE): {abs(delta) / se:.2f} — the expected gain in standard errors "
               "(Heineman et al. 2025); about 2.8 gives 80% power at α = 0.05.")
    if gain:
        st.info(f"With {which}, no number of questions gets past **{fmt_pct(ceiling, 0)}** power for "
                f"{gain:+.1f} points" + (f" (with {seeds} seeds per recipe)." if seeds else "."))

    # power vs questions, one curve per T, the ceilings dashed
    ts = tuple(sorted(set(CURVE_TS) | {t}))
    ns = tuple(sorted(set(np.unique(np.geomspace(20, 10_000_000, 45).astype(int)).tolist()) | {n}))
    curves = _curves(design, ns, ts)
    curves = curves.assign(series=[f"T = {v}" + (" (current)" if v == t else "") for v in curves["templates"]])
    plotted["power_vs_questions_by_templates"] = curves
    ceilings = curves.drop_duplicates("templates")
    lines = [figures.Line(y=float(row.ceiling), text=f"ceiling, T = {row.templates}: {row.ceiling:.0%}",
                          color=figures.PALETTE[i % len(figures.PALETTE)])
             for i, row in enumerate(ceilings.itertuples()) if gain]
    args = dict(x="n", y="power", color="series", current=(n, res.power), target=target, lines=lines,
                title="Power vs questions, one curve per number of prompt templates (dashed: the ceilings)",
                x_title="Questions n", y_title="Power", y_range=(0, 1.02))
    chart(figures.curve_figure(curves, **args, style=style()), "facets_power_chart")
    plan_figures.append(("Power vs questions by prompt templates", figures.curve_figure(curves, **args)))
    st.caption((f"With one prompt, no number of questions gets past {fmt_pct(float(ceilings.iloc[0]['ceiling']), 0)} "
                "power here. " if gain else "With no gain every curve is the false-positive rate, α. ")
               + "Questions shrink the question, question × template and sampling terms; only more templates shrink "
               "the model × template term (Brennan 2001, D studies).")

    # the variance budget: how much of SE² each facet contributes
    parts = _budgets(design, ts)
    plotted["variance_budget_by_templates"] = parts
    shown = [c for c in llm.FACET_COMPONENTS if c != "seed" or seeds]
    series = {c: (parts[parts["component"] == c].sort_values("templates")["variance"] * 1e4).to_numpy()
              for c in shown}
    here = float(parts[parts["templates"] == t]["variance"].sum() * 1e4)
    chart(figures.bar_figure([str(v) for v in ts], series, barmode="stack", current=(str(t), here),
                             title=f"Where SE² comes from at n = {n:,} (points², by prompt templates T)",
                             x_title="Prompt templates T", y_title="SE² (points²)", hover_format=".4f",
                             style=style()), "facets_budget_chart")
    now = parts[parts["templates"] == t].set_index("component")["share"]
    st.markdown(f"At T = {t} and n = {n:,}, the model × template term is **{100 * now['template']:.0f}%** of SE²"
                + (f" and the seeds **{100 * now['seed']:.0f}%**" if seeds else "") + ".")

    budget, best = _budget_split(design, currency, plotted)  # the design with the budget's calls and cost
    if seeds is not None:
        _seeds(design, target, plotted)
    _simulate(design, res)
    fit_from_logs(sd_keys=("fc_sd_t", "fc_sd_i", "fc_sd_it", "fc_sd_s"))

    sources = {key: source_of(widget, value, "assumption (page defaults)") for key, widget, value in (
        ("var_template", "fc_sd_t", st.session_state.get("fc_sd_t")), ("var_item", "fc_sd_i",
                                                                       st.session_state.get("fc_sd_i")),
        ("var_item_template", "fc_sd_it", st.session_state.get("fc_sd_it")),
        ("var_sample", "fc_sd_s", st.session_state.get("fc_sd_s")))}
    snippet = llm_facets_snippet(budget, target_power=target)
    plan_actions(lambda: facet_plan_item(
        budget, res, ceiling=ceiling, se=se, target_power=target, best=best, currency=currency,
        figures=tuple(plan_figures), link=current_link(), code=snippet, sources=sources), key="llm_facets")
    code_view(snippet, key="llm_facets_code")
    return plotted


def _budget_split(design: llm.FacetDesign, currency, plotted):
    """The best whole-number split of a budget of calls per model: the design with the budget's calls and cost per
    call, and its best split (a FacetPlan; None at a zero gain or when it cannot be found)."""
    st.markdown("**The best split of a budget of calls** (per model: questions × templates × samples ≤ calls"
                + ("; every seed model answers it, and the seed term stays whatever the split)" if design.seeds_used
                   else ")"))
    c1, c2 = st.columns(2)
    design = design.with_(calls=_field("calls", c1), cost_call=_field("cost_call", c2))
    n, t, k, delta, calls, cost_call = (design.n, design.templates, design.samples, design.delta, design.calls,
                                        design.cost_call)
    if not delta:
        st.caption("Set a non-zero gain to compare splits by power.")
        return design, None
    found = None
    with guard("Cannot split this budget", stop=False):
        best = _best(design)
        found = best
        metrics_row(
            Metric("Best split (questions × templates × answers)", f"{best.n:,} × {best.templates} × {best.samples}",
                   help="The most powerful whole-number design within the budget (searched over every T ≤ 50 and K)."),
            Metric("Its power", fmt_pct(best.power), help=f"SE {100 * best.se:.2f} pts."),
            Metric("Its cost", fmt_money(best.cost, currency, markdown=False) if cost_call else
                   f"{2 * (design.seeds_used or 1) * best.calls:,} calls",
                   help="Both sides' calls × cost per call" + (f" (every one of the {design.seeds_used} seed models "
                   "per recipe answers the split)." if design.seeds_used else ".")),
        )
        curve = best.curve.assign(series=f"best n × K for {calls:,} calls")
        plotted["best_split_by_templates"] = best.curve
        chart(figures.curve_figure(curve, x="templates", y="power", color="series",
                                   current=None, target=None, log_x=False,
                                   lines=[figures.Line(x=best.templates, text=f"best: {best.n:,} × {best.templates} × "
                                                       f"{best.samples}", color=figures.PALETTE[2])],
                                   mode="lines+markers", x_hover_format="d",
                                   title="Best power within the budget, by number of templates",
                                   x_title="Prompt templates T", y_title="Power", y_range=(0, 1.02), style=style()),
              "facets_split_chart")
        now_calls = n * t * k
        st.caption(f"Your current design uses {now_calls:,} calls per model. With few templates the template term "
                   "caps power; with many, too few questions remain: the optimum balances var_template/T against "
                   "T·var_item/calls.")
    return design, found


def _seeds(design: llm.FacetDesign, target, plotted):
    """Seeds per recipe when two training recipes are compared."""
    n, t, seeds = design.n, design.templates, design.seeds
    st.markdown("**Seeds per recipe** (two training recipes, S seeds each)")
    curve = _seed_curve(design)
    plotted["power_vs_seeds"] = curve
    reach = curve[curve["power"] >= target]
    now = curve[curve["seeds"] == seeds]
    chart(figures.curve_figure(curve.assign(series=f"n = {n:,}, T = {t}"), x="seeds", y="power", color="series",
                               current=(seeds, float(now["power"].iloc[0])) if len(now) else None, target=target,
                               log_x=False, mode="lines+markers", x_hover_format="d",
                               title="Power vs training seeds per recipe", x_title="Seeds per recipe S",
                               y_title="Power", y_range=(0, 1.02), style=style()), "facets_seeds_chart")
    st.caption(f"Seeds per recipe for {target:.0%} power at n = {n:,} and T = {t}: "
               + (f"**{int(reach['seeds'].iloc[0])}**." if len(reach) else "more than 30 (or not reachable)."))


def _simulate(design: llm.FacetDesign, res):
    """The test a user would run on the data (Satterthwaite t on the ANOVA estimates), simulated on demand."""
    n, t, delta = design.n, design.templates, design.delta
    if not st.toggle("Check with the test you would run on the data (simulation)", key="fc_sim", bind="query-params",
                     help="Simulates the facets and the Satterthwaite t test on the ANOVA estimates; shows its power "
                     "and its degrees of freedom."):
        return
    if t == 1 and n < 2:
        return
    with guard("Cannot simulate this design", stop=False):
        mc = simulation(("llm_facets", design, SIM_RUNS),
                        lambda progress: design.power(method="simulate", n_sims=SIM_RUNS, seed=0),
                        text=f"Simulating {SIM_RUNS:,} evaluations…")
        metrics_row(
            Metric("Simulated power (Satterthwaite t)" if delta else "Simulated false-positive rate",
                   fmt_pct(mc.power), se=f"{100 * mc.mc_se:.1f}%", help=f"{mc.n_sims:,} simulated evaluations."),
            Metric("Mean Satterthwaite df", f"{mc.df:,.1f}" if math.isfinite(mc.df) else "—",
                   help="Average degrees of freedom of the test; large values come from replicates whose template "
                   "estimate was truncated at 0. — when no replicate has an estimable variance."),
            Metric("Median Satterthwaite df", f"{mc.df_median:,.1f}" if math.isfinite(mc.df_median) else "—",
                   help=f"With the template term dominant they collapse towards T − 1 = {t - 1}."),
        )
        shares = design.budget((t,)).set_index("component")["share"]
        template_share = float(shares["template"])
        if t == 1:
            st.warning("With one template the data cannot show the model × template term: the test you would run "
                       "treats it as part of the gain and rejects too often (compare the simulated rate at Δ = 0 "
                       "with α).")
        elif math.isfinite(mc.df_median) and mc.df_median < min(10, 2 * (t - 1)) and template_share >= 0.5:
            st.caption(f"The median df ({mc.df_median:.1f}) is close to T − 1 = {t - 1}: the template term dominates "
                       f"({fmt_pct(template_share, 0)} of SE²) and the t test's critical value is large, so power is "
                       f"lower than the normal {fmt_pct(res.power)}.")
        elif math.isfinite(mc.df_median) and mc.df_median < 10:
            st.caption(f"The median df is only {mc.df_median:.1f}: the variance of the gain is estimated from few "
                       f"degrees of freedom, so the t test's critical value is large and power is lower than the "
                       f"normal {fmt_pct(res.power)}.")

"""Human-ratings page: Likert power with crossed worker × item variance, and a budget planner.

Card et al. (2020), §5.2 and appendix H.3; Westfall, Kenny & Judd (2014).
Layout only: widgets built from :class:`core.ratings.RatingsDesign`'s declared fields → one design → cached calls
into ``core.ratings`` → charts and metrics. The key inputs and everything that depends on them are one
``st.fragment`` (:func:`question`); the tabs live in ``pages/_ratings_views.py`` and ``pages/_ratings_pilot.py``,
the simulation, plan, worker assignment and explainer in ``pages/_ratings_after.py``.

The default (REML + Satterthwaite rule, fully crossed, continuous ratings) is
analytic and instant. A rule or layout without a closed form (the paper's
t > 1.96 rule, Likert rounding, k workers per item) is simulated after the
charts are drawn, with a progress bar; a slider move interrupts it.
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from types import SimpleNamespace

import numpy as np
import streamlit as st

from core import ratings as rt
from pages import _ratings_after as after
from pages import _ratings_views as views_
from pages._fields import field_input
from pages._ratings_pilot import clip, pilot_tab
from pages._scaffold import (Metric, apply_values, cached, currency_label, decision_controls, fmt_money, fmt_pct,
                             fmt_ratio, guard, key_inputs, link_values, metric_slots, metrics_row,
                             pin_controls, pinned_curve, pinned_designs, pins_table, presentation, prior_controls,
                             simulation_controls, start, views)

D = rt.RatingsDesign
SIGMA_KEYS = tuple(D.field(k).key for k in ("sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma"))
PIN_KEYS = ("layout", "workers", "per_item", "items", "effect", "alpha") + SIGMA_KEYS


# One cached call per output, each taking the page's one design (frozen, hashed by value).
@cached
def analytic_point(design: rt.RatingsDesign):
    """The fully crossed design's analytic power (REML + Satterthwaite, continuous ratings), whatever the rule."""
    return design.with_(layout="crossed", per_item=None, rule="satterthwaite", likert=None).power(method="analytic")


@cached
def fitted_point(design: rt.RatingsDesign):
    return design.fitted_power()


@cached
def fitted_mde(design: rt.RatingsDesign, target):
    return design.fitted_mde(target_power=target)


@cached
def crowd_approx(design: rt.RatingsDesign) -> float:
    return design.analytic_power()


@cached
def mde(design: rt.RatingsDesign, target):
    return design.mde(target_power=target)


@cached
def assurance_point(design: rt.RatingsDesign, mean, sd):
    return design.assurance(sd, delta_mean=mean)


@cached
def pinned(design: rt.RatingsDesign):
    """A pinned design's analytic power (and Type-M) vs effect, and its summary."""
    if design.layout == "crowd":
        frame = rt.crowd_analytic(design.workers, [design.items], design.per_item, views_.EFFECTS,
                                  alpha=design.alpha, **design.sigmas).assign(type_m=np.nan)
        power_here, type_m_here = design.analytic_power(), math.nan
    else:
        frame = design.curves(views_.EFFECTS)
        here = analytic_point(design)
        power_here, type_m_here = here.power, here.type_m
    summary = {"design": design.label(), "ratings": design.n_ratings, "power": power_here, "type_m": type_m_here}
    return frame[["effect", "power", "type_m"]], summary


def apply_preset() -> None:
    name = st.session_state["preset"]
    values = dict(rt.PRESETS.get(name) or rt.DATASET_PRESETS[name])
    apply_values({k: float(values[k]) for k in SIGMA_KEYS})
    if "effect" in values:
        st.session_state["effect"] = clip("effect", abs(values["effect"]))
        st.session_state["baseline"] = float(values["baseline"])


def inp(name: str, box, *, cls=D, **options):
    """The widget of the field ``name`` of the design ``cls`` (the page's :class:`core.ratings.RatingsDesign`, or
    its costs), with the page's label (the field's, without a unit suffix).

    A value the widget offers but the design refuses (a residual SD of 0) is returned as it is: the design, built
    under a guard once every control is drawn, says what is wrong."""
    try:
        return field_input(cls, name, box, label=options.pop("label", None) or cls.field(name).label, **options)
    except ValueError:
        return st.session_state[cls.field(name).key]


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
def controls() -> SimpleNamespace:
    """The sidebar: the design's assumptions (every field but the key inputs) and the decision, prior, cost and
    simulation settings. Nothing here depends on a key input, so moving one reruns only :func:`question`."""
    side = st.sidebar
    link_values("preset", rt.PRESET_LABELS)
    preset = inp("preset", side, widget="selectbox", format_func=rt.PRESET_LABELS.get, on_change=apply_preset)
    side.subheader("Design")
    link_values("layout", rt.LAYOUT_LABELS)
    layout = inp("layout", side, format_func=rt.LAYOUT_LABELS.get, horizontal=True)
    baseline = inp("baseline", side, widget="slider")
    side.subheader("Variance components (SDs)")
    sig = {k: inp(k, side, widget="slider") for k in SIGMA_KEYS}
    side.subheader("Analysis")
    link_values("rule", rt.RULE_LABELS)
    rule = inp("rule", side, format_func=rt.RULE_LABELS.get)
    f = D.field("likert")
    likert_choice = side.radio(f.label, list(rt.LIKERT_LABELS), key=f.key, bind="query-params", horizontal=True,
                               format_func=rt.LIKERT_LABELS.get, help=f.help)
    alpha, target = decision_controls(alphas=(0.01, 0.025, 0.05, 0.1), alpha_label=D.field("alpha").label,
                                      alpha_help=D.field("alpha").help, target_help="For the MDE and the planner.")
    # the prior's starting mean is the effect (a key input) as it stands when the prior is switched on
    effect = st.session_state.get("effect", D.from_params(st.query_params.to_dict()).effect)
    prior = prior_controls(default_mean=effect, unit="β1", low=-0.3, high=0.3, step=0.005, sd_default=0.05,
                           sd_high=0.3, help_unit=" (β1: half the difference in mean rating on the [0, 1] scale)")
    page = SimpleNamespace(target=target, prior=prior, nominal=0.025 if rule == "paper" else alpha)
    cost_controls(page)
    page.sim = simulation_controls(options=(200, 500, 1000, 2000, 5000), default=500,
                                   help="Simulated experiments, each fitted like the real analysis, for the current "
                                   "design and four effects on the Figure 6 chart (squares). The paper used 200 per "
                                   "point.", unit="Simulated experiments")
    page.fixed = dict(sig, layout=layout, baseline=baseline, alpha=alpha, rule=rule, preset=preset,
                      likert=None if likert_choice == "continuous" else int(likert_choice))
    return page


def key_design(fixed: dict):
    """The key inputs above the first chart (W, k with k workers per item, I, β1) and the page's one design."""
    crowd = fixed["layout"] == "crowd"
    top = key_inputs(4 if crowd else 3)  # the inputs the question turns on, above the first chart
    workers = inp("workers", top[0], widget="slider", label="Worker pool W" if crowd else None)
    per_item = None
    if crowd:
        if workers >= 3:
            f = D.field("per_item")
            per_item = top[1].slider(f.label, 2, workers, min(3, workers), 1, key=f.key, bind="query-params",
                                     help=f"{f.help} Valid: 2 to the pool W.")
        else:
            per_item = 2
            top[1].caption("With a pool of 2 workers, each item is rated by both (k = 2): this is the crossed design.")
    items = inp("items", top[-2], widget="select_slider", options=views_.ITEM_OPTIONS)
    effect = inp("effect", top[-1], widget="slider")
    with guard():
        return D(workers, items, effect, per_item=per_item, **fixed)


@st.fragment
def question(settings: SimpleNamespace) -> None:
    """The key inputs and everything that depends on them: moving a key input reruns only this."""
    page = SimpleNamespace(**vars(settings), plotted={}, curves=None, effect_slot=None, exact=None, fitted=None,
                           assured=None)
    page.design = key_design(settings.fixed)
    page.run_sims = page.sim.run or not page.design.analytic
    headline(page)
    tabs(page)
    after.simulations(page, show_metrics)
    after.plan_section(page)
    after.assignment(page.design)
    after.closing(page)


def cost_controls(page) -> None:
    """Pay per rating or by the hour, the currency and a fixed cost per worker (secondary: hidden on a projector):
    one :class:`core.ratings.RatingsCostDesign`."""
    side, C = st.sidebar, rt.RatingsCostDesign
    if presentation():  # the values this session set, else the link's
        page.costs = costs_kept()
        page.currency = currency_label(st.session_state.get("currency", "USD"))
        return
    side.subheader("Cost")
    link_values("pay", rt.PAY_LABELS)
    values = dict(pay=inp("pay", side, widget="radio", format_func=rt.PAY_LABELS.get, horizontal=True, cls=C))
    c1, c2 = side.columns([2, 1])
    if values["pay"] == "hour":
        values["wage"] = inp("wage", c1, cls=C)
        values["ratings_per_hour"] = inp("ratings_per_hour", side, cls=C)
        side.caption(f"→ {C(**values).rating_cost:.4f} per rating")
    else:
        values["cost_per_rating"] = inp("cost_per_rating", c1, cls=C)
    page.currency = currency_label(c2.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                                                 help="A label for the amounts, e.g. USD, EUR, GBP."))
    values["cost_per_worker"] = inp("cost_per_worker", side, cls=C)
    page.costs = C(**values)


def costs_kept() -> rt.RatingsCostDesign:
    """The costs without their widgets (presentation mode): each field's value in this session, else the link's."""
    C = rt.RatingsCostDesign
    linked = C.from_params(st.query_params.to_dict())
    try:
        return C(**{f.name: f.from_widget(st.session_state[f.key]) if f.key in st.session_state
                    else getattr(linked, f.name) for f in C.fields()})
    except (ValueError, TypeError):
        return linked


# ---------------------------------------------------------------------------
# the current design: metrics, pins
# ---------------------------------------------------------------------------
NOTES = {"crowd": "k workers per item: the numbers below are simulated (moment-based analysis of the same model); the "
                  "curves are fully crossed designs for comparison.",
         "paper": "The paper's rule (ML fit, t > 1.96) has no closed form: its numbers are simulated below the charts; "
                  "the curves show the Satterthwaite rule's analytic power for comparison.",
         "likert": "Likert rounding is simulated; the curves show continuous ratings (analytic)."}
#: Largest shortfall of the fitted test's exact power below the noncentral-t approximation that the page lets pass
#: silently (Table 16's presets stay within about a point at 3 or more workers; at the approximation's "80%" MDE the
#: fitted test has 56% with zero slope variances at 3 × 100, 41–74% with 2 workers and small worker slopes).
FITTED_GAP = 0.02
QUANTITIES = ("Power", "False-positive rate", "Type-M (exaggeration)", "Type-S (wrong sign)")


def show_metrics(page, res, *, simulated: bool) -> None:
    items_ = [
        Metric("Power" if page.design.effect else "Detection rate", fmt_pct(res.power),
               se=f"{100 * res.mc_se:.1f}%" if simulated and res.mc_se else None,
               help="P(a detection in the right direction) under the chosen rule."),
        # analytic: the fitted test's real rate (its Satterthwaite df are estimated: above α with few workers),
        # integrated exactly; the noncentral-t engine would only restate the nominal level
        Metric("False-positive rate", fmt_pct(res.false_positive_rate if simulated or page.fitted is None
                                              else page.fitted.false_positive_rate),
               se=f"{100 * res.false_positive_rate_se:.1f}%" if simulated and res.false_positive_rate_se else None,
               caption=None if simulated else "fitted test",
               help=f"How often the rule declares a difference when the systems are equal; nominally "
                    f"{page.nominal:.1%}." + ("" if simulated else " The t test as fitted, integrated exactly over "
                                              "its estimated mean squares: with few workers its degrees of freedom "
                                              "are estimated from little and the real rate departs from the nominal "
                                              "level (above it at Table 16's presets, below it when the slope "
                                              "variances are small).")),
        Metric("Type-M (exaggeration)", fmt_ratio(res.type_m),
               help="Mean |estimated effect| / true effect among significant results."),
        Metric("Type-S (wrong sign)", fmt_pct(res.type_s, 2), help="Share of significant results with the wrong sign."),
    ]
    for slot, item in zip(page.slots[:4], items_):
        with slot.container(gap=None):
            st.metric(item.label, item.value, help=item.help)
            if item.se:
                st.caption(f"± {item.se} (Monte Carlo standard error)")
            elif item.caption:
                st.caption(item.caption)


def reach_text(effect: float, shown: float, target: float) -> str:
    """Where the fitted test reaches the target, beside the MDE the page shows (the approximation's)."""
    if not math.isfinite(effect):
        return f"It does not reach {target:.0%} power for any β1 ≤ 0.5. "
    return f"It reaches {target:.0%} power at β1 = {effect:.3f}" + (
        f" (the MDE above says {shown:.3f}). " if math.isfinite(shown) else ". ")


def headline(page) -> None:
    """The metrics row (analytic at once, or placeholders the simulation fills), assurance and cost, and pins."""
    d, target = page.design, page.target
    with guard():
        page.exact = analytic_point(d) if d.layout == "crossed" else None
        page.fitted = fitted_point(d) if d.analytic else None
        page.approx_crowd = crowd_approx(d) if d.layout == "crowd" else None
        page.mde_value = mde(d, target)
    note = (None if d.analytic else NOTES["crowd"] if d.layout == "crowd" else NOTES["paper"] if d.rule == "paper"
            else NOTES["likert"])
    page.slots = metric_slots(5)
    with page.slots[4].container():
        st.metric(f"MDE at {target:.0%} power (effect β1)",
                  "not reachable" if not math.isfinite(page.mde_value) else f"{page.mde_value:.3f}",
                  help="Smallest β1 this design detects with the target power (analytic Satterthwaite rule, crossed).")
        if math.isfinite(page.mde_value):
            st.caption(f"= a difference of {2 * page.mde_value:.3f} in mean rating")
    if d.analytic:
        show_metrics(page, page.exact, simulated=False)
        if d.effect and page.exact.power - page.fitted.power > FITTED_GAP:
            # replaces the verdict: the curves, MDE and sizes rest on an approximation that overstates power here
            # (where the fitted test is stronger instead, it is because it exceeds its level: the rate shown)
            st.warning(f"**The test as fitted has {fmt_pct(page.fitted.power)} power, not "
                       f"{fmt_pct(page.exact.power)}.** It estimates its Satterthwaite df from the mean squares, "
                       "and here they are often far fewer than the curves, MDE and sizes assume (noncentral t, df at "
                       "their expected value): few workers, or slope variances small against the residual. "
                       + reach_text(fitted_mde(d, target), page.mde_value, target) + "More workers help.")
        elif d.effect and page.exact.power < target:
            st.warning(f"**Under-powered:** {fmt_pct(page.exact.power)} power for a {2 * d.effect:.3f} difference in "
                       "mean rating.")
        elif d.effect:
            st.success(f"**Adequately powered** ({fmt_pct(page.exact.power)} ≥ {target:.0%}).")
    else:
        for slot, label in zip(page.slots[:4], QUANTITIES):
            slot.metric(label, "…",
                        help="Simulated after the charts are drawn (no closed form for this rule or design).")
    page.note_slot = st.empty()
    if note:
        page.note_slot.info(note)
    page.verdict_slot = st.empty()
    # the prior on β1 (assurance; analytic Satterthwaite engine) and the cost of the current design
    prior = page.prior
    if prior.on:
        with guard("Cannot average over this prior"):
            page.assured = assurance_point(d, prior.mean, prior.sd)
    page.cost_now = page.costs.cost(d)
    extra = []
    if page.assured is not None:
        extra.append(Metric("Assurance", fmt_pct(page.assured.assurance),
                            help="P(significant in the hoped-for direction), averaged over the prior on β1 "
                            "(Satterthwaite t test, analytic" + (", approximate for k workers per item"
                                                                  if d.layout == "crowd" else "") + ").",
                            caption=f"ceiling {fmt_pct(page.assured.ceiling)}; power at the prior mean "
                                    f"{fmt_pct(page.assured.power_at_mean)}"))
    if page.cost_now is not None:
        money = page.currency
        costs = page.costs
        extra.append(Metric("Cost", fmt_money(page.cost_now, money),
                            help=f"{d.n_ratings:,} ratings × {fmt_money(costs.rating_cost, money)}"
                                 + (f" + {d.workers} workers × {fmt_money(costs.cost_per_worker, money)}"
                                    if costs.cost_per_worker else ""), caption=f"{d.n_ratings:,} ratings"))
    # on a projector the first chart comes first: the cost and assurance row stays on the desk (the plan has them)
    if extra and not presentation():
        metrics_row(*extra)
    pins_section(page)


def pins_section(page) -> None:
    d = page.design
    pins = pin_controls("ratings", PIN_KEYS, label=d.label())
    frames, rows = pinned_designs(pins, pinned, design=D)
    page.pinned_power = pinned_curve(frames, "effect", "power")
    type_m = pinned_curve([f[f["effect"] > 0] for f in frames], "effect", "type_m")
    if type_m is not None:  # Type-M is undefined at β1 = 0 and where nothing is significant
        type_m = type_m.dropna()
    page.pinned_type_m = type_m if type_m is not None and len(type_m) else None
    here_power = page.exact.power if d.analytic else (page.approx_crowd if d.layout == "crowd" else None)
    pins_table({"pin": "current", "design": d.label(), "ratings": d.n_ratings, "power": here_power,
                "type_m": page.exact.type_m if d.analytic else math.nan}, rows, {
                   "power": st.column_config.NumberColumn("Power (analytic)", format="percent"),
                   "type_m": st.column_config.NumberColumn("Type-M", format="%.2f×")})


def tabs(page) -> None:
    page.tab = tab = views(views_.VIEWS)
    if tab.open("effect") or tab.open("type_m"):
        with guard():
            page.curves = views_.effect_curves(page, with_type_m=tab.open("type_m"))
        # the download has Type-M too (computed when it is clicked, on the power view)
        page.plotted["power_vs_effect"] = page.curves if tab.open("type_m") else \
            (lambda page=page: views_.effect_curves(page, with_type_m=True))
    for key, draw in (("effect", views_.effect_tab), ("assurance", views_.assurance_tab),
                      ("items", views_.items_tab), ("fpr", views_.fpr_tab), ("type_m", views_.type_m_tab),
                      ("plan", views_.plan_tab)):
        if tab.open(key):
            with tab[key], guard() if key == "items" else nullcontext():
                draw(page)
    with tab["pilot"]:
        pilot_tab(tab)


# ---------------------------------------------------------------------------
# the page
# ---------------------------------------------------------------------------
start("Human ratings: how many workers and items?",
      "Card et al. (2020), §5.2 and appendix H.3: workers rate items under both systems; ratings on [0, 1]; a mixed "
      "model with worker and item intercepts and slopes.")
question(controls())

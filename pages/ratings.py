"""Human-ratings page: Likert power with crossed worker × item variance, and a budget planner.

Card et al. (2020), §5.2 and appendix H.3; Westfall, Kenny & Judd (2014).
UI only: widgets → cached calls into ``core.ratings`` → charts and metrics.

The default (REML + Satterthwaite rule, fully crossed, continuous ratings) is
analytic and instant. A rule or layout without a closed form (the paper's
t > 1.96 rule, Likert rounding, k workers per item) is simulated after the
charts are drawn, with a progress bar; a slider move interrupts it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import humaneval as he
from core import ratings as rt
from core import uploads
from core.plan import ratings as ratings_plan
from core.snippets import ratings_snippet
from core.runnable import worker_assignment
from pages._scaffold import (
    key_inputs,
    Metric,
    apply_values,
    link_values,
    cached,
    cached_upload,
    chart,
    current_link,
    decision_controls,
    fmt_money,
    currency_label,
    pin_controls,
    pin_int,
    pinned_curve,
    pinned_designs,
    pins_table,
    plan_actions,
    presentation,
    prior_controls,
    source_of,
    download_csv,
    explain,
    fmt_pct,
    fmt_ratio,
    guard,
    metric_slots,
    md_escape,
    metrics_row,
    simulation,
    simulation_controls,
    start,
    style,
    views,
)
from pages._scaffold import code_view

ITEM_OPTIONS = [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000]
SIGMA_KEYS = ("sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma")
SIGMA_LABELS = ratings_plan.SIGMA_LABELS
SIGMA_HELP = {
    "sigma_w0": "How much workers differ in their overall leniency.",
    "sigma_w1": "How much workers differ in how strongly they prefer the new system — the key driver of power with "
                "few workers.",
    "sigma_i0": "How much items differ in overall quality.",
    "sigma_i1": "How much the systems' difference varies from item to item.",
    "sigma": "Rating noise left over (on the [0, 1] scale).",
}
PRESET_NAMES = {"high": "Table 16: high variance", "low": "Table 16: low variance",
                **{name: f"Tables 13–15: {name}" for name in rt.DATASET_PRESETS}}
RULE_LABELS = ratings_plan.RULE_LABELS
VIEWS = {"effect": "Power vs effect (Figure 6)", "assurance": "Assurance vs items", "items": "Power vs items and workers",
         "fpr": "False positives by rule", "type_m": "Type-M", "plan": "Budget planner", "pilot": "Fit a pilot"}
SIM_EFFECTS = (0.05, 0.1, 0.15, 0.2)


# The current design's cached calls take the page's one rt.RatingsDesign (frozen, hashed by value).
@cached
def analytic_point(design: rt.RatingsDesign):
    """The fully crossed design's analytic power (REML + Satterthwaite, continuous ratings), whatever the rule."""
    return design.with_(layout="crossed", per_item=None, rule="satterthwaite", likert=None).power(method="analytic")


@cached
def crowd_approx(pool, i, k, effect, sig, alpha):
    frame = rt.crowd_analytic(pool, i, k, [effect], alpha=alpha, **dict(sig))
    return float(frame["power"].iloc[0])


@cached
def analytic_grid(workers_list, items_list, effects, sig, alpha):
    return rt.analytic_grid(list(workers_list), list(items_list), list(effects), alpha=alpha, **dict(sig))


@cached
def plans(effect, cost_rating, cost_worker, target, alpha, sig):
    return rt.budget_plans(effect, cost_per_rating=cost_rating, cost_per_worker=cost_worker, target_power=target,
                           alpha=alpha, **dict(sig))


@cached
def crowd_plan_table(effect, pool, cost_rating, target, alpha, sig):
    return rt.crowd_plans(effect, pool=pool, cost_per_rating=cost_rating, target_power=target, alpha=alpha,
                          **dict(sig))


@cached
def assurance_point(layout, w, i, k, mean, sd, sig, alpha):
    if layout == "crowd":
        return rt.crowd_assurance(w, i, k, mean, sd, alpha=alpha, **dict(sig))
    return rt.likert_assurance(w, i, mean, sd, alpha=alpha, **dict(sig))


@cached
def assurance_curve(layout, w, k, items_list, mean, sd, sig, alpha):
    rows = []
    for i in items_list:
        res = assurance_point(layout, w, i, k, mean, sd, sig, alpha)
        rows.append((i, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["items", "assurance", "power", "ceiling"])


@cached
def assured_plans(mean, sd, cost_rating, cost_worker, target, alpha, sig):
    return rt.assurance_plans(mean, sd, cost_per_rating=cost_rating, cost_per_worker=cost_worker, target=target,
                              alpha=alpha, **dict(sig))


PIN_KEYS = ("layout", "workers", "per_item", "items", "effect", "alpha") + SIGMA_KEYS


@cached
def pinned(values, target):
    """A pinned design's analytic power (and Type-M) vs effect, and its summary."""
    v = dict(values)
    w, i = pin_int(v, "workers", 3), pin_int(v, "items", 100)
    e, alpha_p = float(v.get("effect", 0.1)), float(v.get("alpha", 0.05))
    sig_p = {k: float(v.get(k, rt.PRESETS["high"][k])) for k in SIGMA_KEYS}
    effects = np.round(np.linspace(0.0, 0.3, 31), 3)
    if v.get("layout") == "crowd":
        k = min(pin_int(v, "per_item", 3), w)
        frame = rt.crowd_analytic(w, [i], max(k, 2), effects, alpha=alpha_p, **sig_p)
        frame = frame.assign(type_m=np.nan)
        power_here = float(rt.crowd_analytic(w, [i], max(k, 2), [e], alpha=alpha_p, **sig_p)["power"].iloc[0])
        type_m_here, text = math.nan, f"k = {k} of {w}, I = {i}, β1 = {e:g}"
    else:
        frame = rt.analytic_grid([w], [i], effects, alpha=alpha_p, **sig_p)
        here = rt.likert_power(w, i, e, **sig_p, alpha=alpha_p, rule="satterthwaite", method="analytic")
        power_here, type_m_here, text = here.power, here.type_m, f"W = {w}, I = {i}, β1 = {e:g}"
    summary = {"design": text, "ratings": 2 * (w if v.get("layout") != "crowd" else min(int(float(
        v.get("per_item", 3))), w)) * i, "power": power_here, "type_m": type_m_here}
    return frame[["effect", "power", "type_m"]], summary


@cached
def mde(design: rt.RatingsDesign, target):
    return design.mde(target_power=target)


@cached_upload
def pilot_scores(data: bytes, name: str, header: str):
    """A file of human judgments with raters (core.humaneval formats: Appraise exports, Google MQM annotations,
    WMT DA tables, long tables) as the pilot table, with its notes; None when the file is not one of them."""
    try:
        scores = he.read_scores(data, name, header=header)
    except ValueError:
        if he.sniff_format(data, name) not in (None, "table", "wmt_da"):
            raise  # a file of a format of its own (Appraise, MQM): its reader's message names the line
        return None
    if scores["rater"].isna().all():
        fmt = he.FORMATS.get(scores.attrs["format"], scores.attrs["format"])
        raise ValueError(f"This file ({fmt}) has no rater column: the pilot fit needs who rated what (worker "
                         "variance). Open it from the home page to plan a DA campaign from its scores instead.")
    table = pd.DataFrame({"worker": scores["rater"].astype(str), "item": scores["item"], "system": scores["system"],
                          "rating": scores["score"]})
    return table, tuple(scores.attrs["notes"]), scores.attrs["protocol"]


@cached_upload
def pilot_table(data: bytes, columns=None, header="auto"):
    """The pilot table of a CSV/TSV named (or mapped) as worker, item, system, rating."""
    if columns is None:
        return uploads.read_table(data, name="The pilot file", min_columns=2, header=header)
    return rt.read_pilot(data, columns=dict(columns), header=header)


@cached
def pilot_systems(table: pd.DataFrame):
    """Per-system table and the suggested pair (core.humaneval.system_table / default_pair)."""
    scores = table.rename(columns={"worker": "rater", "rating": "score"})
    scores = scores.assign(score=pd.to_numeric(scores["score"], errors="coerce")).dropna(subset=["score"])
    return he.system_table(scores), he.default_pair(scores)


@cached
def pilot_fit(table: pd.DataFrame, systems=None):
    return rt.fit_pilot(table, systems=systems)


@cached_upload
def pilot_columns(data: bytes, header="auto"):
    """(column names, guessed roles, whether the mapping step is needed)."""
    table = uploads.read_table(data, name="The pilot file", min_columns=2, header=header)
    lowered = {str(c).strip().lower() for c in table.columns}
    if set(rt.PILOT_ROLES) <= lowered or len(table.columns) < len(rt.PILOT_ROLES):
        return list(table.columns), {}, False  # named as expected, or too few columns (the fit says which is missing)
    return list(table.columns), uploads.guess_columns(table.columns, rt.PILOT_ROLES), True


def pilot_mapping(data: bytes, header="auto"):
    """The mapping step when the header does not name worker, item, system and rating."""
    names, guessed, needed = pilot_columns(data, header)
    if not needed:
        return None
    st.info("The header does not name worker, item, system and rating: say which columns hold them (guessed from "
            "the usual names).")
    cols = st.columns(4)
    return tuple((role, cols[k].selectbox(role.capitalize(), names, index=names.index(guessed[role])
                                          if role in guessed else min(k, len(names) - 1), key=f"pilot_col_{role}"))
                 for k, role in enumerate(rt.PILOT_ROLES))


def pilot_pair(table: pd.DataFrame):
    """With more than two systems: their table and a choice of the two to compare (default: the closest at the
    top). Returns the chosen pair, or None for a two-system pilot."""
    names = sorted(pd.unique(table["system"].astype(str).str.strip()))
    if len(names) <= 2:
        return None
    summary, (best, other, reason) = pilot_systems(table)
    st.markdown(f"**{len(names)} systems in the pilot** — the fit compares two of them.")
    st.dataframe(summary, hide_index=True, width="stretch", key="pilot_systems", column_config={
        "mean": st.column_config.NumberColumn("Mean", format="%.3f"),
        "sd": st.column_config.NumberColumn("SD", format="%.3f")})
    ranked = list(summary["system"])
    c1, c2 = st.columns(2)
    first = c1.selectbox("System A (coded −1)", ranked, index=ranked.index(best), key="pilot_sys_a",
                         help="Default: the closest pair in mean among the top systems.")
    second = c2.selectbox("System B (coded +1)", ranked, index=ranked.index(other), key="pilot_sys_b")
    st.caption(("Suggested pair: " if (first, second) == (best, other) else "The suggestion was: ") + md_escape(reason))
    if first == second:
        raise ValueError("Choose two different systems.")
    return first, second


def simulate_design(layout, w, i, k, effect, sig, baseline, alpha, rule, n_sims, seed, likert):
    """One simulated design (the same call the AppTest checks against)."""
    if layout == "crowd":
        return rt.crowd_power(w, i, k, effect, **dict(sig), baseline=baseline, alpha=alpha, rule=rule, n_sims=n_sims,
                              seed=seed, likert=likert)
    return rt.likert_power(w, i, effect, **dict(sig), baseline=baseline, alpha=alpha, rule=rule, method="simulate",
                           n_sims=n_sims, seed=seed, likert=likert)


def apply_preset() -> None:
    name = st.session_state["preset"]
    values = dict(rt.PRESETS.get(name) or rt.DATASET_PRESETS[name])
    apply_values({k: float(values[k]) for k in SIGMA_KEYS})
    if "effect" in values:
        st.session_state["effect"] = float(min(max(abs(values["effect"]), 0.0), 0.3))
        st.session_state["baseline"] = float(values["baseline"])


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("Human ratings: how many workers and items?",
      "Card et al. (2020), §5.2 and appendix H.3: workers rate items under both systems; ratings on [0, 1]; a mixed "
      "model with worker and item intercepts and slopes.")
side = st.sidebar
top = key_inputs(3)  # the inputs the question turns on, above the first chart
link_values("preset", PRESET_NAMES)
side.selectbox("Variance preset", list(PRESET_NAMES), format_func=PRESET_NAMES.get, key="preset", bind="query-params",
               on_change=apply_preset,
               help="Variance components fitted by Card et al.: Table 16's high/low settings, or the per-dataset fits of "
               "Tables 13–15 for datasets comparing two systems. Choosing one sets the sliders.")
side.subheader("Design")
layout = side.radio("Who rates what", ["crossed", "crowd"], key="layout", bind="query-params", horizontal=True,
                    format_func={"crossed": "every worker, every item", "crowd": "k workers per item"}.get,
                    help="Fully crossed (the paper's design), or a crowdsourcing design where each item is rated by k "
                    "workers drawn from a pool of W (simulated; moment-based analysis).")
workers = top[0].slider("Workers W (each rates every item)" if layout == "crossed" else "Worker pool W", 2, 50, 3, 1,
                      key="workers", bind="query-params", help="3 was the most common choice at EMNLP 2019 (§5.1).")
per_item = None
if layout == "crowd":
    if workers >= 3:
        per_item = side.slider("Workers per item k", 2, workers, min(3, workers), 1, key="per_item",
                               bind="query-params", help="Each item's two outputs are rated by k workers from the pool.")
    else:
        per_item = 2
        side.caption("With a pool of 2 workers, each item is rated by both (k = 2): this is the crossed design.")
items = top[1].select_slider("Items I", ITEM_OPTIONS, value=100, key="items", bind="query-params",
                           help="69% of EMNLP 2019 studies used 100 items or fewer.")
effect = top[2].slider("Effect β1 (±1-coded system coefficient)", 0.0, 0.3, 0.1, 0.005, key="effect",
                     bind="query-params", help="Figure 6's x axis. The systems' mean ratings differ by 2 × β1.")
side.caption(f"→ difference in mean rating: **{2 * effect:.3f}** on the [0, 1] scale "
             f"(≈ {2 * effect * 4:.2f} points on a 1–5 Likert scale).")
baseline = side.slider("Mean rating β0", 0.1, 0.9, 0.5, 0.01, key="baseline", bind="query-params",
                       help="Matters only when ratings are rounded to a Likert scale.")
side.subheader("Variance components (SDs)")
defaults = rt.PRESETS["high"]
sig = {k: side.slider(SIGMA_LABELS[k], 0.0, 0.4, float(defaults[k]), 0.005, key=k, bind="query-params",
                      help=SIGMA_HELP[k]) for k in SIGMA_KEYS}
side.subheader("Analysis")
rule = side.radio("Decision rule", list(rt.RULES), index=list(rt.RULES).index("satterthwaite"), key="rule",
                  bind="query-params", format_func=RULE_LABELS.get,
                  help="REML + Satterthwaite: the two-sided test a careful analyst would run (analytic power, Westfall, "
                  "Kenny & Judd 2014). The paper's rule counts a detection when the ML t value exceeds 1.96 (one-sided, "
                  "no df correction); it has no closed form and is simulated.")
likert_choice = side.radio("Ratings", ["continuous", "5", "7"], key="likert", bind="query-params", horizontal=True,
                           format_func={"continuous": "continuous", "5": "5-point", "7": "7-point"}.get,
                           help="Round and clip simulated ratings to a Likert scale (simulated).")
likert = None if likert_choice == "continuous" else int(likert_choice)
alpha, target = decision_controls(alphas=(0.01, 0.025, 0.05, 0.1), alpha_label="α (two-sided, Satterthwaite rule)",
                                  alpha_help="The paper's rule always uses t > 1.96.",
                                  target_help="For the MDE and the planner.")
prior = prior_controls(default_mean=effect, unit="β1", low=-0.3, high=0.3, step=0.005, sd_default=0.05,
                       sd_high=0.3, help_unit=" (β1: half the difference in mean rating on the [0, 1] scale)")
if presentation():  # secondary controls: hidden on the projector
    pay = st.session_state.get("pay", "rating")
    cost_rating = float(st.session_state.get("cost_rating", 0.10) or 0.0)
    cost_worker = float(st.session_state.get("cost_worker", 0.0) or 0.0)
    currency = currency_label(st.session_state.get("currency", "USD"))
else:
    side.subheader("Cost")
    pay = side.radio("Workers are paid", ["rating", "hour"], horizontal=True, key="pay", bind="query-params",
                     format_func={"rating": "per rating", "hour": "by the hour"}.get,
                     help="Per rating (crowdsourcing platforms), or an hourly wage and a rating speed (in-house or "
                     "professional annotators).")
    c1, c2 = side.columns([2, 1])
    if pay == "hour":
        wage = c1.number_input("Hourly wage", 0.0, 10_000.0, 15.0, 0.5, key="wage", bind="query-params",
                               help="What one worker-hour costs.")
        per_hour = side.number_input("Ratings per hour", 1.0, 10_000.0, 120.0, 10.0, key="per_hour",
                                     bind="query-params", help="How many ratings a worker completes in an hour "
                                     "(time it on a pilot).")
        cost_rating = wage / per_hour
        side.caption(f"→ {cost_rating:.4f} per rating")
    else:
        cost_rating = c1.number_input("Cost per rating", min_value=0.0, max_value=1000.0, value=0.10, step=0.01,
                                      key="cost_rating", bind="query-params", help="What one rating costs.")
    currency = currency_label(c2.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                                            help="A label for the amounts, e.g. USD, EUR, GBP."))
    cost_worker = side.number_input("Fixed cost per worker", min_value=0.0, max_value=100000.0, value=0.0, step=1.0,
                                    key="cost_worker", bind="query-params",
                                    help="Recruiting, training or qualification cost per worker, if any.")
sim = simulation_controls(options=(200, 500, 1000, 2000, 5000), default=500,
                          help="Simulated experiments, each fitted like the real analysis, for the current design and "
                          "four effects on the Figure 6 chart (squares). The paper used 200 per point.",
                          unit="Simulated experiments")
analytic = layout == "crossed" and rule == "satterthwaite" and likert is None
must_simulate = not analytic
run_sims = sim.run or must_simulate
sig_key = tuple(sorted(sig.items()))
nominal = 0.025 if rule == "paper" else alpha

# ---------------------------------------------------------------------------
# the current design
# ---------------------------------------------------------------------------
with guard():
    design = rt.RatingsDesign(workers, items, effect, **sig, layout=layout,
                              per_item=per_item if layout == "crowd" else None, baseline=baseline, alpha=alpha,
                              rule=rule, likert=likert)
    exact = analytic_point(design) if layout == "crossed" else None
    approx_crowd = crowd_approx(workers, items, per_item, effect, sig_key, alpha) if layout == "crowd" else None
    mde_value = mde(design, target)
if analytic:
    note = None
elif layout == "crowd":
    note = ("k workers per item: the numbers below are simulated (moment-based analysis of the same model); the curves "
            "are fully crossed designs for comparison.")
elif rule == "paper":
    note = ("The paper's rule (ML fit, t > 1.96) has no closed form: its numbers are simulated below the charts; the "
            "curves show the Satterthwaite rule's analytic power for comparison.")
else:
    note = "Likert rounding is simulated; the curves show continuous ratings (analytic)."
slots = metric_slots(5)


def show_metrics(res, *, simulated: bool, power_override=None):
    power = res.power if power_override is None else power_override
    items_ = [
        Metric("Power" if effect else "Detection rate", fmt_pct(power),
               se=f"{100 * res.mc_se:.1f}%" if simulated and res.mc_se else None,
               help="P(a detection in the right direction) under the chosen rule."),
        Metric("False-positive rate", fmt_pct(res.false_positive_rate),
               se=f"{100 * res.false_positive_rate_se:.1f}%" if simulated and res.false_positive_rate_se else None,
               help=f"How often the rule declares a difference when the systems are equal; nominally {nominal:.1%}."),
        Metric("Type-M (exaggeration)", fmt_ratio(res.type_m),
               help="Mean |estimated effect| / true effect among significant results."),
        Metric("Type-S (wrong sign)", fmt_pct(res.type_s, 2), help="Share of significant results with the wrong sign."),
    ]
    for slot, item in zip(slots[:4], items_):
        with slot.container(gap=None):
            st.metric(item.label, item.value, help=item.help)
            if item.se:
                st.caption(f"± {item.se} (Monte Carlo standard error)")


with slots[4].container():
    st.metric(f"MDE at {target:.0%} power (effect β1)", "not reachable" if not math.isfinite(mde_value) else f"{mde_value:.3f}",
              help="Smallest β1 this design detects with the target power (analytic Satterthwaite rule, crossed).")
    if math.isfinite(mde_value):
        st.caption(f"= a difference of {2 * mde_value:.3f} in mean rating")
if analytic:
    show_metrics(exact, simulated=False)
    if effect and exact.power < target:
        st.warning(f"**Under-powered:** {fmt_pct(exact.power)} power for a {2 * effect:.3f} difference in mean rating.")
    elif effect:
        st.success(f"**Adequately powered** ({fmt_pct(exact.power)} ≥ {target:.0%}).")
else:
    for slot, label in zip(slots[:4], ("Power", "False-positive rate", "Type-M (exaggeration)",
                                       "Type-S (wrong sign)")):
        slot.metric(label, "…", help="Simulated after the charts are drawn (no closed form for this rule or design).")
note_slot = st.empty()
if note:
    note_slot.info(note)
verdict_slot = st.empty()

# the prior on β1 (assurance; analytic Satterthwaite engine) and the cost of the current design
assured = None
if prior.on:
    with guard("Cannot average over this prior"):
        assured = assurance_point(layout, workers, items, per_item, prior.mean, prior.sd, sig_key, alpha)
n_ratings = 2 * (workers if layout == "crossed" else per_item) * items
cost_now = n_ratings * cost_rating + workers * cost_worker if (cost_rating or cost_worker) else None
extra = []
if assured is not None:
    extra.append(Metric("Assurance", fmt_pct(assured.assurance),
                        help="P(significant in the hoped-for direction), averaged over the prior on β1 (Satterthwaite "
                        "t test, analytic" + (", approximate for k workers per item" if layout == "crowd" else "")
                        + ").", caption=f"ceiling {fmt_pct(assured.ceiling)}; power at the prior mean "
                                        f"{fmt_pct(assured.power_at_mean)}"))
if cost_now is not None:
    extra.append(Metric("Cost", fmt_money(cost_now, currency),
                        help=f"{n_ratings:,} ratings × {fmt_money(cost_rating, currency)}"
                             + (f" + {workers} workers × {fmt_money(cost_worker, currency)}" if cost_worker else ""),
                        caption=f"{n_ratings:,} ratings"))
if extra:
    metrics_row(*extra)

pins = pin_controls("ratings", PIN_KEYS, label=(f"W = {workers}" if layout == "crossed" else
                                                f"k = {per_item} of {workers}") + f", I = {items}, β1 = {effect:g}")
pinned_frames, pinned_rows = pinned_designs(pins, lambda values: pinned(values, target))
pinned_power = pinned_curve(pinned_frames, "effect", "power")
pinned_type_m = pinned_curve([f[f["effect"] > 0] for f in pinned_frames], "effect", "type_m")
if pinned_type_m is not None:  # Type-M is undefined at β1 = 0 and where nothing is significant
    pinned_type_m = pinned_type_m.dropna()
    pinned_type_m = pinned_type_m if len(pinned_type_m) else None
here_power = exact.power if analytic else (approx_crowd if layout == "crowd" else None)
pins_table({"pin": "current", "design": (f"W = {workers}" if layout == "crossed" else f"k = {per_item} of {workers}")
            + f", I = {items}, β1 = {effect:g}", "ratings": n_ratings,
            "power": here_power, "type_m": exact.type_m if analytic else math.nan}, pinned_rows, {
               "power": st.column_config.NumberColumn("Power (analytic)", format="percent"),
               "type_m": st.column_config.NumberColumn("Type-M", format="%.2f×")})

# ---------------------------------------------------------------------------
# views
# ---------------------------------------------------------------------------
plotted: dict[str, pd.DataFrame] = {}
tab = views(VIEWS)
worker_set = tuple(sorted({3, 10, workers}))
curves = None
effect_slot = None
if tab.open("effect") or tab.open("type_m"):
    with guard():
        curves = analytic_grid(worker_set, (items,), tuple(np.round(np.linspace(0.0, 0.3, 31), 3)), sig_key, alpha)
    curves = curves.assign(series=[f"W = {w} (analytic)" for w in curves["workers"]])
    plotted["power_vs_effect"] = curves


def effect_chart(points=None, simulated_power=None):
    current = (effect, exact.power) if analytic else (effect, simulated_power) if simulated_power is not None else None
    return figures.curve_figure(curves, x="effect", y="power", color="series", current=current, target=target,
                                title=f"Power vs effect, {items} items (lines: Satterthwaite rule, analytic)",
                                x_title="Effect β1", y_title="Power", log_x=False, y_range=(0, 1.02), points=points,
                                pins=pinned_power, style=style())


if tab.open("effect"):
    with tab["effect"]:
        effect_slot = st.empty()
        with effect_slot:  # redrawn with the simulated points (and then keyed) when they come
            chart(effect_chart(), None if run_sims else "power_chart")
        st.caption("Lines: analytic power of the Satterthwaite t test, fully crossed. Squares (when simulated): the "
                   "chosen rule and design, ± 2 standard errors. With the paper's rule and Table 16's settings they "
                   "reproduce Figure 6.")
if tab.open("assurance"):
    with tab["assurance"]:
        if assured is None:
            st.info("Switch on **Average power over a prior on the effect** in the sidebar: when you are unsure how "
                    "large the difference is, the assurance says how likely the study is to succeed, and its ceiling "
                    "why more items cannot make up for a vague prior.")
        else:
            with guard("Cannot average over this prior"):
                curve_a = assurance_curve(layout, workers, per_item, tuple(sorted(set(ITEM_OPTIONS) | {items})),
                                          prior.mean, prior.sd, sig_key, alpha)
            plotted["assurance"] = curve_a
            tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                              curve_a.assign(series=f"power at the prior mean (β1 = {prior.mean:+.3f})",
                                             value=curve_a["power"])], ignore_index=True)
            who = f"W = {workers}" if layout == "crossed" else f"k = {per_item} of {workers} workers"
            chart(figures.curve_figure(tidy, x="items", y="value", color="series", current=(items, assured.assurance),
                                       target=target, lines=[figures.Line(y=assured.ceiling,
                                                                          text=f"ceiling {assured.ceiling:.0%}",
                                                                          color=figures.PALETTE[1])],
                                       title=f"Assurance and power vs items ({who}; Satterthwaite t test)",
                                       x_title="Items I", y_title="Probability", y_range=(0, 1.02), style=style()),
                  "assurance_chart")
            st.caption("Two ceilings meet here: with few workers power itself levels off (the worker-slope variance), "
                       "and the assurance cannot pass the prior probability that the new system is better at all.")
if tab.open("items"):
    with tab["items"], guard():
        if effect <= 0:
            st.info("Set a non-zero effect to see power against the number of items and workers.")
        else:
            by_items = analytic_grid(worker_set, tuple(ITEM_OPTIONS), (effect,), sig_key, alpha)
            by_items = by_items.assign(series=[f"W = {w}" for w in by_items["workers"]])
            by_workers = analytic_grid(tuple(range(2, 51)), tuple(sorted({50, items, 500})), (effect,), sig_key, alpha)
            by_workers = by_workers.assign(series=[f"I = {i}" for i in by_workers["items"]])
            plotted.update(power_vs_items=by_items, power_vs_workers=by_workers)
            current_power = exact.power if analytic else None
            c1, c2 = st.columns(2)
            with c1:
                chart(figures.curve_figure(by_items, x="items", y="power", color="series",
                                           current=(items, current_power) if current_power is not None else None,
                                           target=target, title=f"Power vs items (effect {effect:g}, analytic)",
                                           x_title="Items I", y_title="Power", y_range=(0, 1.02), style=style(0.5)),
                      "items_chart")
            with c2:
                chart(figures.curve_figure(by_workers, x="workers", y="power", color="series",
                                           current=(workers, current_power) if current_power is not None else None,
                                           target=target, log_x=False, y_range=(0, 1.02),
                                           title=f"Power vs workers (effect {effect:g}, analytic)", x_title="Workers W",
                                           y_title="Power", style=style(0.5)), "workers_chart")
            st.caption("With few workers power hits a ceiling: more items cannot average away how much the workers "
                       "themselves disagree about the systems (the worker-slope variance)."
                       + (" Curves are fully crossed designs for comparison." if layout == "crowd" else ""))
if tab.open("fpr"):
    with tab["fpr"]:
        fpr_workers = (2, 3, 5, 10, 20)
        n_fpr = 1000

        def run_fpr(progress):
            rows, total = [], len(fpr_workers) * len(rt.RULES)
            for w in fpr_workers:
                for r in rt.RULES:
                    res = rt.likert_power(w, items, 0.0, **sig, alpha=alpha, rule=r, n_sims=n_fpr, seed=sim.seed)
                    rows.append((w, r, res.false_positive_rate, res.false_positive_rate_se))
                    progress(len(rows) / total)
            return pd.DataFrame(rows, columns=["workers", "rule", "false_positive_rate", "mc_se"])

        with guard("Cannot simulate the false-positive rates"):
            fpr = simulation(("ratings.fpr", items, sig_key, alpha, sim.seed), run_fpr,
                             text=f"Simulating {n_fpr:,} experiments per bar…")
        plotted["false_positives"] = fpr
        series = {f"{RULE_LABELS[r]}": fpr[fpr.rule == r]["false_positive_rate"].to_numpy() for r in rt.RULES}
        errors = {f"{RULE_LABELS[r]}": 2 * fpr[fpr.rule == r]["mc_se"].to_numpy() for r in rt.RULES}
        chart(figures.bar_figure([str(w) for w in fpr_workers], series, errors=errors,
                                 lines=[figures.Line(y=0.025, text="paper's nominal 2.5%", color=figures.PALETTE[0],
                                                     dash="dot"),
                                        figures.Line(y=alpha, text=f"α = {alpha}", color=figures.PALETTE[1], dash="dot")],
                                 title=f"False-positive rate at effect 0 ({items} items, {n_fpr:,} simulations per bar,"
                                       " ± 2 SE)", x_title="Workers", y_title="Rate", style=style()), "fpr_chart")
        st.caption("With few workers the worker-slope variance is estimated from W − 1 degrees of freedom; a rule that "
                   "ignores this (t > 1.96) declares differences between equal systems far more often than it says.")
if tab.open("type_m"):
    with tab["type_m"]:
        tm = curves[curves["effect"] > 0]
        chart(figures.type_m_figure(tm, x="effect", color="series",
                                    current=(effect, exact.type_m) if analytic else None,
                                    needed=mde_value if math.isfinite(mde_value) else None,
                                    needed_text=f"{target:.0%} power", title="Exaggeration of significant results",
                                    x_title="Effect β1", log_x=False, pins=pinned_type_m, style=style()),
              "type_m_chart")
if tab.open("plan"):
    with tab["plan"]:
        c1, c2, c3 = metric_slots(3)
        c1.metric("Cost per rating", fmt_money(cost_rating, currency),
                  help="Set in the sidebar (per rating, or an hourly wage ÷ ratings per hour).")
        c2.metric("Fixed cost per worker", fmt_money(cost_worker, currency))
        if effect <= 0:
            st.info("Set a non-zero effect to plan a budget.")
        else:
            with guard("Cannot plan this budget"):
                if layout == "crowd":
                    plan = crowd_plan_table(effect, workers, cost_rating, target, alpha, sig_key)
                    knob, symbol = "per_item", "k"
                    title = f"Cheapest design per k (pool of {workers}; approximate analytic power)"
                else:
                    plan = plans(effect, cost_rating, cost_worker, target, alpha, sig_key)
                    knob, symbol = "workers", "W"
                    title = "Cheapest design per number of workers (grey: never reaches the target, shown at 5,000 items)"
            plotted["plans"] = plan
            ok = plan[plan["reachable"]]
            if len(ok):
                best = ok.iloc[0]
                c3.metric("Cheapest design", (f"{int(best[knob])} workers × " if knob == "workers" else
                                              f"{int(best[knob])} workers per item × ") + f"{int(best['items']):,} items",
                          help=f"{int(best['ratings']):,} ratings, cost {fmt_money(best['cost'], currency)}")
            chart(figures.scatter_figure(
                plan["cost"], plan["power"], text=[f"{symbol}={v}" for v in plan[knob]],
                colors=np.where(plan["reachable"], figures.PALETTE[2], "#AAAAAA"),
                customdata=np.stack([plan[knob], plan["items"], plan["ratings"]], axis=-1),
                hover=f"{symbol} = %{{customdata[0]}}, I = %{{customdata[1]}}<br>%{{customdata[2]:,}} ratings"
                      "<br>cost %{x:,.2f}<br>power %{y:.3f}<extra></extra>",
                lines=[figures.Line(y=target, text=f"{target:.0%} power")], log_x=True, name="designs",
                title=title, x_title=f"Total cost ({currency})", y_title="Power", style=style()), "planner_chart")
            st.dataframe(plan, hide_index=True, width="stretch", column_config={
                "cost": st.column_config.NumberColumn(f"Cost ({currency})", format="%.2f"),
                "power": st.column_config.NumberColumn("Power", format="%.3f")})
            if assured is not None and layout == "crossed":
                st.markdown(f"**With your prior** N({prior.mean:+.3f}, {prior.sd:.3f}²) on β1: the cheapest designs "
                            f"reaching {target:.0%} *assurance*")
                with guard("Cannot plan for this prior", stop=False):
                    plan_a = assured_plans(prior.mean, prior.sd, cost_rating, cost_worker, target, alpha, sig_key)
                    plotted["plans_assurance"] = plan_a
                    ok_a = plan_a[plan_a["reachable"]]
                    if len(ok_a):
                        best_a = ok_a.iloc[0]
                        st.success(f"Cheapest for {target:.0%} assurance: W = {int(best_a['workers'])}, "
                                   f"I = {int(best_a['items'])} ({int(best_a['ratings']):,} ratings, "
                                   f"{fmt_money(best_a['cost'], currency)}).")
                    else:
                        st.warning(f"No design reaches {target:.0%} assurance: the prior's ceiling is "
                                   f"{fmt_pct(assured.ceiling)} — the probability that the new system is better at "
                                   "all. More ratings cannot make up for that; narrow the prior with a pilot.")
                    st.dataframe(plan_a, hide_index=True, width="stretch", column_config={
                        "cost": st.column_config.NumberColumn(f"Cost ({currency})", format="%.2f"),
                        "assurance": st.column_config.NumberColumn("Assurance", format="%.3f")})
with tab["pilot"]:
    # the uploader is always rendered (hidden under another tab) so an upload survives a tab switch
    st.markdown("Upload pilot ratings with columns **worker, item, system, rating** (any Likert range — rescaled to "
                "[0, 1]), or last year's judgments with raters (an Appraise export, Google MQM error annotations, a "
                "WMT DA table). The model's variance components are estimated from the file; with more than two "
                "systems, choose the two to compare.")
    pilot = st.file_uploader("Pilot ratings (CSV/TSV)", type=["csv", "tsv", "txt", "score", "jsonl"], key="pilot",
                             help="One rating per row. Nothing in the file is executed.")
    if pilot is not None and tab.open("pilot"):
        fitted = None
        no_header = st.checkbox("First row is data (no header)", key="pilot_no_header",
                                help="For exports without a header row; columns are then called column 1, 2, ….")
        header = "no" if no_header else "auto"
        with guard("Cannot fit this pilot", stop=False):
            data = pilot.getvalue()
            found = pilot_scores(data, pilot.name, header)
            if found is not None:
                table, notes, _ = found
                if notes:
                    st.caption(md_escape(" ".join(notes)))
            else:
                table = pilot_table(data, pilot_mapping(data, header), header)
                table = table.rename(columns={c: str(c).strip().lower() for c in table.columns
                                              if str(c).strip().lower() in rt.PILOT_ROLES})
            pair = pilot_pair(table) if "system" in table.columns else None
            fitted = pilot_fit(table, pair)
        if fitted is not None:
            metrics_row(
                Metric("Ratings", f"{fitted.n_ratings:,}"),
                Metric("Workers × items", f"{fitted.workers} × {fitted.items}"),
                Metric("Effect β1", f"{fitted.effect:+.3f}", help=f"{md_escape(fitted.systems[1])} is coded +1, "
                       f"{md_escape(fitted.systems[0])} −1."),
                Metric("Residual SD", f"{fitted.sigma:.3f}"),
            )
            st.dataframe(pd.DataFrame([fitted.sigmas]), hide_index=True)
            values = {k: float(min(max(round(v, 3), 0.0), 0.4)) for k, v in fitted.sigmas.items()}
            values["effect"] = float(min(max(round(abs(fitted.effect) / 0.005) * 0.005, 0.0), 0.3))
            values["baseline"] = float(min(max(round(fitted.baseline, 2), 0.1), 0.9))
            st.button("Use these values in the sliders", on_click=apply_values, args=(values,), key="use_pilot",
                      type="primary", help="Effect (as a magnitude), mean rating and the five SDs.")

# ---------------------------------------------------------------------------
# simulations (after the charts; automatic only where there is no closed form)
# ---------------------------------------------------------------------------
if run_sims:
    st.subheader("Simulation" + (f" — {RULE_LABELS[rule]}" if rule == "paper" else ""))
    args = (layout, workers, items, per_item, effect, sig_key, baseline, alpha, rule, sim.n_sims, sim.seed, likert)

    def run_point(progress):
        out = simulate_design(*args)
        progress(1.0)
        return out

    mc = None
    with guard("Cannot simulate this design", stop=False):
        mc = simulation(("ratings.point",) + args, run_point,
                        text=f"Simulating {sim.n_sims:,} experiments of this design…")
    if mc is None:  # refused (too large): say what is known instead of leaving the metrics pending
        fallback = [Metric("Power", fmt_pct(approx_crowd) if approx_crowd is not None else "—",
                           help="Approximate analytic power of this crowdsourcing design." if approx_crowd is not None
                           else "Needs the simulation."),
                    Metric("False-positive rate", "—", help="Needs the simulation."),
                    Metric("Type-M (exaggeration)", "—", help="Needs the simulation."),
                    Metric("Type-S (wrong sign)", "—", help="Needs the simulation.")]
        for slot, item in zip(slots[:4], fallback):
            with slot.container(gap=None):
                st.metric(item.label, item.value, help=item.help)
        note_slot.info(f"This design is too large to simulate with {sim.n_sims:,} experiments (see the message below "
                       "the charts): " + ("the power shown is the approximate analytic one; " if layout == "crowd"
                                          else "")
                       + "choose fewer simulated experiments or a smaller design for the simulated numbers.")
if run_sims and mc is not None:
    show_metrics(mc, simulated=True)
    with verdict_slot:
        if mc.false_positive_rate > nominal + 3 * max(mc.false_positive_rate_se, 1e-9):
            st.error(f"**This rule is not calibrated here:** with {workers} workers it declares a difference in "
                     f"{fmt_pct(mc.false_positive_rate)} of experiments where there is none (nominal {nominal:.1%}). "
                     "With few workers the worker-slope variance is estimated from W − 1 degrees of freedom, and a "
                     "test that ignores this (t > 1.96) — or even estimates its df from so little — is too "
                     "optimistic. Add workers.")
        elif effect and mc.power < target:
            st.warning(f"**Under-powered:** {fmt_pct(mc.power)} power for a {2 * effect:.3f} difference in mean "
                       "rating (simulated).")
        elif effect:
            st.success(f"**Adequately powered** ({fmt_pct(mc.power)} ≥ {target:.0%}, simulated).")
    if analytic:
        gap = abs(mc.power - exact.power)
        st.caption(("The simulation agrees with the analytic power within 3 Monte Carlo standard errors."
                    if gap <= 3 * max(mc.mc_se, 1e-12) else
                    f"The simulated power differs from the analytic {fmt_pct(exact.power)} by more than 3 Monte Carlo "
                    "standard errors (the analytic engine is a noncentral-t approximation)."))
    if layout == "crowd" and approx_crowd is not None:
        st.caption(f"Approximate analytic power of this crowdsourcing design: {fmt_pct(approx_crowd)}.")
    if effect_slot is not None:
        n_points = min(sim.n_sims, 1000)

        def run_points(progress):
            rows = []
            for j, e in enumerate(SIM_EFFECTS):
                r = simulate_design(layout, workers, items, per_item, e, sig_key, baseline, alpha, rule, n_points,
                                    sim.seed, likert)
                rows.append((e, r.power, r.mc_se))
                progress((j + 1) / len(SIM_EFFECTS))
            return pd.DataFrame(rows, columns=["x", "y", "se"])

        with guard("Cannot simulate the chart's points"):
            pts = simulation(("ratings.points",) + args[:-3] + (n_points, sim.seed, likert), run_points,
                             text="Simulating the chart's points…")
        label = (f"W = {workers}" if layout == "crossed" else f"k = {per_item} of {workers}") + f", {rule} rule"
        pts = pts.assign(name=f"{label} (simulated)")
        plotted["simulated_points"] = pts.rename(columns={"x": "effect", "y": "power", "se": "mc_se"})
        with effect_slot:
            chart(effect_chart(pts, mc.power), "power_chart")

# ---------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------
preset_name = st.session_state.get("preset")


def origin(key, value):
    recorded = source_of(key, value, "")
    if recorded:
        return recorded
    values = rt.PRESETS.get(preset_name) or rt.DATASET_PRESETS.get(preset_name) if preset_name else None
    if values is not None and key in values and math.isclose(float(values[key]), float(value), abs_tol=1e-9):
        return f"preset “{PRESET_NAMES.get(preset_name, preset_name)}” (Card et al. 2020)"
    return "slider"


plan_figures = []
if curves is not None:
    plan_figures.append(("Power vs effect (analytic, fully crossed)", effect_chart()))
snippet = ratings_snippet(layout=layout, workers=workers, items=items, per_item=per_item, effect=effect, sigmas=sig,
                          alpha=alpha, target_power=target, analytic=analytic,
                          prior=(prior.mean, prior.sd) if assured is not None else None)
with guard("Cannot write the plan", stop=False):
    plan_actions(ratings_plan.plan_item(
        design, exact if analytic else None, target_power=target, mde=mde_value, assurance=assured,
        prior=(prior.mean, prior.sd, prior.source) if assured is not None else None, cost=cost_now,
        cost_per_rating=cost_rating, paid_by_hour=pay == "hour", cost_per_worker=cost_worker, currency=currency,
        figures=tuple(plan_figures), link=current_link(), code=snippet,
        sources={"effect": origin("effect", effect), **{k: origin(k, sig[k]) for k in SIGMA_KEYS}}),
        key="ratings")
code_view(snippet, key="ratings_code")

# who rates what: a balanced assignment for the chosen design
assign_box = st.expander("Download the worker assignment — which worker rates which item",
                         key="assign_open", on_change="rerun", icon=":material/assignment_ind:")
if assign_box.open:
    with assign_box, guard("Cannot assign workers", stop=False):
        per_item_k = workers if layout == "crossed" else per_item
        assign_seed = int(st.number_input("Seed", 0, 2**31 - 1, 0, key="assign_seed",
                                          help="The same seed gives the same assignment; keep it in your plan."))
        assignment = worker_assignment(items, workers, per_item_k, seed=assign_seed)
        load = assignment["worker"].value_counts()
        st.markdown(f"{items:,} items × {per_item_k} of {workers} workers each = **{len(assignment):,}** assignments; "
                    f"each worker rates {load.min():,}–{load.max():,} items (both systems' outputs of each). Items "
                    "and workers are numbered from 1; the order is random (seeded), so no worker sees only one part "
                    "of the item list.")
        st.download_button("Download the worker assignment (CSV)",
                           data=assignment.to_csv(index=False).encode("utf-8"), file_name="worker_assignment.csv",
                           mime="text/csv", key="assign_csv", on_click="ignore")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
if plotted:
    download_csv(plotted, f"ratings_{tab.current}.csv", key="download_curves", label="Download the plotted data (CSV)")
explain(
    f"""
**The question.** {workers} workers rate {items} outputs of both systems on a [0, 1] scale. Can that detect a
difference of **{2 * effect:.3f}** in mean rating?

**Why workers matter so much.** Workers differ not only in leniency but in *how much they prefer the new system* (the
worker-slope SD). That disagreement is averaged over workers, not items: with three workers it can never be averaged
away, so power stops growing with more items (second tab).

**Two ways to decide.** The paper counted a detection when the mixed model's t value exceeded 1.96. With few workers
that rule is too optimistic: it declares differences between equal systems far more often than the nominal 2.5% (third
tab). A REML fit with a Satterthwaite t test is the careful analysis; its power has a closed form (Westfall, Kenny &
Judd 2014), which the page shows at once. The paper's rule has none, so it is simulated — after the charts, with a
progress bar.

**Exaggeration.** When power is low, the significant results are the lucky ones and overstate the difference (Type-M
tab).

**Planning.** The budget planner finds, for each number of workers, the fewest items reaching {target:.0%} power, with
the cost; more workers per item usually buy more power per rating than more items.

**Crowdsourcing designs.** With "k workers per item", each item is rated by k workers drawn from a pool of W. Spreading
the items over a larger pool averages the workers' disagreement better than asking the same three workers to rate
everything. This design is analysed with moment estimates of the same model (no per-replicate mixed-model fit), which
is approximately calibrated — the false-positive rate shown next to the power says how well.
"""
)

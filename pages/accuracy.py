"""Accuracy page: McNemar (paired), unpaired accuracy, and head-to-head preferences.

UI only: widgets → cached calls into ``core.accuracy`` → charts and metrics.
Every widget is bound to the URL, so a link reproduces the view; only the
open tab is computed and drawn.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from core import accuracy as acc
from core import figures
from core.datasets import SQUAD_DEV_SIZE, SQUAD_TEST_SIZE, squad_models
from core.plan import accuracy as accuracy_plan
from core.snippets import accuracy_snippet
from pages._scaffold import (
    key_inputs,
    link_values,
    Metric,
    pin_controls,
    pin_int,
    pinned_curve,
    pinned_designs,
    pin_columns,
    pins_table,
    cost_controls,
    current_link,
    fmt_money,
    plan_actions,
    prior_controls,
    source_of,
    cached,
    chart,
    decision_controls,
    download_csv,
    explain,
    fmt_pct,
    fmt_points,
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


# ---------------------------------------------------------------------------
# cached core calls (hashable arguments; frozen results)
# ---------------------------------------------------------------------------
@cached
def paired_design(source, delta, agreement, baseline):
    return acc.paired_design(source, delta=delta, agreement=agreement, baseline=baseline)


# The current design's power and sizes take the page's design object (frozen, hashed by value); MDEs and curves
# take only what they depend on, so moving the effect does not recompute them.
@cached
def paired_point(n, design: acc.PairedDesign, alpha, test):
    return acc.mcnemar_power(n, design.delta, design.agreement, alpha=alpha, test=test)


@cached
def paired_mde(n, mde_kwargs, target, alpha, test):
    return acc.mcnemar_mde(n, **dict(mde_kwargs), target_power=target, alpha=alpha, test=test)


@cached
def paired_sizes(design: acc.PairedDesign, target, alpha, test):
    return acc.mcnemar_sample_sizes(design.delta, design.agreement, target_power=target, alpha=alpha, test=test)


@cached
def paired_curves(ns, designs, alpha, test):
    return acc.paired_curves(list(ns), list(designs), alpha=alpha, test=test)


@cached
def paired_distribution(n, delta, agreement, alpha, test):
    return acc.difference_distribution(n, delta, agreement, alpha=alpha, test=test)


@cached
def unpaired_point(n, design: acc.UnpairedDesign):
    return design.power(n)


@cached
def unpaired_mde(n, baseline, target, alpha):
    return acc.unpaired_mde(n, baseline, target_power=target, alpha=alpha)


@cached
def unpaired_sizes(design: acc.UnpairedDesign, target):
    return design.sample_sizes(target_power=target)


@cached
def unpaired_curves(ns, baseline, deltas, alpha):
    return acc.unpaired_curves(list(ns), baseline, list(deltas), alpha=alpha)


@cached
def unpaired_distribution(n, baseline, delta, alpha):
    return acc.unpaired_distribution(n, baseline, delta, alpha=alpha)


@cached
def preference_point(n, design: acc.PreferenceDesign):
    return design.power(n)


@cached
def preference_mde(n, tie_rate, target, alpha, ties, test):
    return acc.preference_mde(n, tie_rate=tie_rate, target_power=target, alpha=alpha, ties=ties, test=test)


@cached
def preference_sizes(design: acc.PreferenceDesign, target):
    return design.sample_sizes(target_power=target)


@cached
def preference_curves(ns, designs, alpha, ties, test):
    return acc.preference_curves(list(ns), list(designs), alpha=alpha, ties=ties, test=test)


@cached
def preference_distribution(n, p_new, p_old, alpha, ties, test):
    return acc.preference_distribution(n, p_new, p_old, alpha=alpha, ties=ties, test=test)


@cached
def assurance_point(scenario, n, mean, sd, args):
    """Assurance at n for the scenario's design (args: the scenario's fixed design parameters)."""
    a = dict(args)
    if scenario == "paired":
        return acc.mcnemar_assurance(n, mean, sd, a["agreement"], alpha=a["alpha"], test=a["test"])
    if scenario == "unpaired":
        return acc.unpaired_assurance(n, a["baseline"], mean, sd, alpha=a["alpha"])
    return acc.preference_assurance(n, mean, sd, tie_rate=a["tie_rate"], alpha=a["alpha"], ties=a["ties"],
                                    test=a["test"])


@cached
def assurance_curve(scenario, ns, mean, sd, args):
    rows = []
    for size in ns:
        res = assurance_point(scenario, size, mean, sd, args)
        rows.append((size, res.assurance, res.power_at_mean, res.ceiling))
    return pd.DataFrame(rows, columns=["n", "assurance", "power", "ceiling"])


@cached
def assurance_n(scenario, mean, sd, args, target, ceiling, guess):
    from core.assurance import assurance_sample_size

    return assurance_sample_size(lambda size: assurance_point(scenario, size, mean, sd, args).assurance, target,
                                 n_min=10, n_max=N_MAX, ceiling=ceiling, guess=guess)


PIN_KEYS = ("scenario", "n", "delta", "baseline", "pa_source", "agreement", "test", "p_new", "ties_pct", "ties", "alpha")


@cached
def pinned(values, target):
    """A pinned design: its power/Type-M curves over n and its summary (from the pin's widget values)."""
    v = dict(values)
    scen = v.get("scenario", "paired")
    size = pin_int(v, "n", 500)
    alpha_p = float(v.get("alpha", 0.05))
    ns_p = curve_sizes(size)
    if scen == "preference":
        p_a = float(v.get("p_new", 65.0)) / 100
        tie = float(v.get("ties_pct", 0.0)) / 100
        p_b = max(1 - p_a - tie, 0.0)
        ties_p, test_p = v.get("ties", "drop"), v.get("test", "exact")
        test_p = test_p if test_p in ("exact", "midp", "chi2", "chi2_cc") else "exact"
        frame = acc.preference_curves(list(ns_p), [(p_a, p_b)], alpha=alpha_p, ties=ties_p, test=test_p)
        point_p = acc.preference_power(size, p_a, p_b, alpha=alpha_p, ties=ties_p, test=test_p)
        need = acc.preference_sample_size(p_a, p_b, target_power=target, alpha=alpha_p, ties=ties_p, test=test_p) \
            if p_a != p_b else -1
        effect_text = f"gap {100 * (p_a - p_b):+.1f} pp"
    else:
        d = float(v.get("delta", 2.0)) / 100
        base = float(v.get("baseline", 90.0)) / 100
        if scen == "unpaired":
            frame = acc.unpaired_curves(list(ns_p), base, [d], alpha=alpha_p)
            point_p = acc.unpaired_power(size, base, d, alpha=alpha_p)
            need = acc.unpaired_sample_size(base, d, target_power=target, alpha=alpha_p) if d else -1
            effect_text = f"Δ {100 * d:+.1f} pp (unpaired)"
        else:
            src = v.get("pa_source", "manual")
            des = acc.paired_design(src, delta=d, agreement=float(v.get("agreement", 90.0)) / 100 if src == "manual"
                                    else None, baseline=base)
            test_p = v.get("test", "exact")
            frame = acc.paired_curves(list(ns_p), [(d, des.agreement)], alpha=alpha_p, test=test_p)
            point_p = acc.mcnemar_power(size, d, des.agreement, alpha=alpha_p, test=test_p)
            need = acc.mcnemar_sample_size(d, des.agreement, target_power=target, alpha=alpha_p, test=test_p) if d else -1
            effect_text = f"Δ {100 * d:+.1f} pp, P_a {des.agreement:.1%}"
    summary = {"n": size, "effect": effect_text, "power": point_p.power, "type_m": point_p.type_m,
               "type_s": point_p.type_s, "n_for_target": need}
    return frame[["n", "power", "type_m", "type_s"]], summary


@cached
def task_table(target, alpha):
    return acc.task_mde_table(target_power=target, alpha=alpha)


@cached
def noworse_point(kind, n, delta, agreement, margin, alpha, test):
    fn = acc.noninferiority_power if kind == "ni" else acc.equivalence_power
    return fn(n, delta, agreement, margin, alpha=alpha, test=test)


@cached
def noworse_sizes(kind, delta, agreement, margin, alpha, test, target):
    fn = acc.noninferiority_sample_sizes if kind == "ni" else acc.equivalence_sample_sizes
    return fn(delta, agreement, margin, target_power=target, alpha=alpha, test=test, method="exact")


@cached
def noworse_curve(kind, n, agreement, margin, alpha, test):
    psi = 1.0 - agreement
    top = min(psi, 3 * margin)
    deltas = np.unique(np.round(np.concatenate([np.linspace(-min(psi, 2 * margin), top, 61), [-margin, 0.0]]), 8))
    if kind == "eq":
        deltas = np.unique(np.concatenate([deltas, -deltas]))
        deltas = deltas[np.abs(deltas) <= 2 * margin]
    deltas = deltas[np.abs(deltas) <= psi + 1e-12]  # two models can only differ where they disagree
    power = [noworse_point(kind, n, float(d), agreement, margin, alpha, test).power for d in deltas]
    return pd.DataFrame({"delta_pp": 100 * deltas, "power": power})


@cached
def interval_curves(n, confidence):
    return acc.coverage_curves(n, confidence=confidence)


@cached
def interval_sizes(p, half, confidence):
    return {m: acc.interval_sample_size(p, half, method=m, confidence=confidence) for m in acc.INTERVAL_METHODS}


@cached
def squad_board(n, target, alpha):
    return acc.squad_leaderboard(n=n, target_power=target, alpha=alpha, test="exact")


@cached
def squad_pair_power(base_id, new_id, alpha):
    pair = acc.squad_pair(base_id, new_id)
    power = acc.mcnemar_power(SQUAD_TEST_SIZE, pair.delta_dev, pair.agreement_dev, alpha=alpha) \
        if pair.delta_dev != 0 else None
    return pair, power


# ---------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------
def nice_sizes(lo: int, hi: int) -> list[int]:
    """1-1.5-2-3-5-7.5 sequence of sizes between lo and hi."""
    return [int(m * 10**e) for e in range(1, 8) for m in (1, 1.5, 2, 3, 5, 7.5) if lo <= m * 10**e <= hi]


N_MIN, N_MAX = 10, 2_000_000
#: Log-spaced sizes plus the GLUE/SQuAD test sets (Table 2) and QQP's.
N_OPTIONS = sorted(set(nice_sizes(N_MIN, 1_000_000) + [147, 1725, 1821, 3000, 5463, 8862, 9796, 11873, 390_965]))


def size_options() -> list[int]:
    """The size options, plus a size given in the link (e.g. from the Analyze page) if it is in range."""
    raw = st.query_params.get("n")
    try:
        linked = int(float(raw)) if raw is not None else None
    except (ValueError, OverflowError):  # not a number, or inf
        linked = None
    if linked is not None and N_MIN <= linked <= N_MAX and linked not in N_OPTIONS:
        return sorted(N_OPTIONS + [linked])
    return N_OPTIONS


def curve_sizes(n: int) -> tuple[int, ...]:
    lo, hi = max(10, n // 30), min(N_MAX, max(n * 30, 200))
    return tuple(sorted(set(np.unique(np.geomspace(lo, hi, 36).astype(int)).tolist() + [n])))


TEST_LABELS = {"exact": "exact (default)", "midp": "mid-p", "chi2": "chi-square", "chi2_cc": "chi-square, corrected",
               "normal": "normal approximation"}
SOURCE_LABELS = accuracy_plan.SOURCE_LABELS
SCENARIO_LABELS = accuracy_plan.SCENARIO_LABELS
VIEWS = {"power": "Power vs n", "assurance": "Assurance vs n", "exaggeration": "Exaggeration (Type-M / Type-S)",
         "filter": "Why significant results exaggerate", "benchmarks": "Benchmarks (Table 2)",
         "squad": "SQuAD 2.0 leaderboard", "noworse": "No worse than (non-inferiority)",
         "intervals": "Small test sets (intervals)"}

# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
start("Comparing models on accuracy",
      "Card et al. (2020), §2–3 and appendices B, C, E, H.4. Power counts a result only when it is significant "
      "**and** points the right way (their Figure 2).")
side = st.sidebar
top = key_inputs(3)  # the inputs the question turns on, above the first chart
link_values("scenario", SCENARIO_LABELS)
scenario = side.radio(
    "Scenario", list(SCENARIO_LABELS), format_func=SCENARIO_LABELS.get, key="scenario", bind="query-params",
    captions=["two models, one test set", "each model on its own sample", "raters choose A, B or neither"],
    help="Paired: both models scored on the same items (McNemar's test). Unpaired: each model on a different sample "
    "from the same distribution (two-proportion test, appendix E.5). Preferences: raters choose A, B or neither "
    "(Figure 1, appendix H.4).",
)
side.subheader("Design")
n = top[0].select_slider(
    {"paired": "Test-set size (n)", "unpaired": "Items per model (n)", "preference": "Number of raters (n)"}[scenario],
    options=size_options(), value=100 if scenario == "preference" else 500, key="n", bind="query-params",
    help="Log-spaced steps; includes the GLUE/SQuAD test-set sizes. A link may carry any size from 10 to 2,000,000.",
)
if scenario in ("paired", "unpaired"):
    delta_pp = top[1].slider(
        "Expected accuracy difference Δ (percentage points)", min_value=-20.0, max_value=20.0, value=2.0, step=0.1,
        key="delta", bind="query-params",
        help="New model minus baseline, in accuracy points. Use your honest expectation, not the hoped-for best "
        "case; recent SOTA gains on GLUE were typically 0.5–1.5 points (Table 2).",
    )
    delta = round(delta_pp / 100.0, 6)
    baseline_pct = side.slider(
        "Baseline accuracy (%)", min_value=50.0, max_value=99.9, value=90.0, step=0.1, key="baseline",
        bind="query-params", help="Accuracy of the current best model. Needed for the agreement priors and the "
        "unpaired test.",
    )
    baseline = round(baseline_pct / 100.0, 6)
if scenario == "paired":
    link_values("pa_source", SOURCE_LABELS)
    source = side.selectbox(
        "Where does the agreement rate come from?", list(SOURCE_LABELS), format_func=SOURCE_LABELS.get, key="pa_source",
        bind="query-params",
        help="P_a, the share of items on which both models are right or both wrong. If you have both models' dev-set "
        "predictions, measure it there (§3.2). Otherwise use a regression on past leaderboard models (appendix "
        "E.2.1) or Lachenbruch's no-prior assumptions (appendix E.3).",
    )
    agreement_pct = top[2].slider(
        "Agreement rate P_a (%)", min_value=10.0, max_value=99.9, value=90.0, step=0.1, key="agreement",
        bind="query-params", disabled=source != "manual",
        help="Share of test items on which the two models agree (both right or both wrong). Higher agreement means "
        "fewer discordant items and less noise. Must be at most 100 − |Δ|.",
    )
    link_values("test", TEST_LABELS)
    test = side.selectbox(
        "Significance test", list(acc.TESTS), format_func=TEST_LABELS.get, key="test", bind="query-params",
        help="Exact: conditional binomial test on the discordant items (statsmodels `mcnemar(exact=True)`). Mid-p: its "
        "less conservative mid-p version (Fagerland et al. 2013). Chi-square: the asymptotic test, with or without "
        "continuity correction. Normal approximation: the closed form used for fast MDE tables (Connett et al. 1987).",
    )
elif scenario == "preference":
    p_new_pct = top[1].slider("Raters preferring the new system (%)", min_value=0.0, max_value=100.0, value=65.0,
                            step=0.5, key="p_new", bind="query-params",
                            help="Figure 1 of Card et al. uses 65% preferring system B and no ties.")
    tie_pct = top[2].slider("Raters saying 'neither' (%)", min_value=0.0, max_value=90.0, value=0.0, step=0.5,
                          key="ties_pct", bind="query-params", help="Ties. The rest prefer the baseline system.")
    tie_labels = {"drop": "dropped", "split": "split by coin flip"}
    link_values("ties", tie_labels)
    ties = side.radio("Ties in the test", list(acc.TIES), key="ties", bind="query-params", horizontal=True,
                      format_func=tie_labels.get,
                      help="Dropped: sign test on the raters with a preference (default). Split: each tie counts for "
                      "one side at random, then the binomial test on all raters.")
    link_values("test", TEST_LABELS)
    test = side.selectbox("Significance test", ["exact", "midp", "chi2", "chi2_cc"], format_func=TEST_LABELS.get,
                          key="test", bind="query-params",
                          help="Exact binomial (sign) test by default; its mid-p and asymptotic versions.")
alpha, target = decision_controls()
effect_pp = (delta_pp if scenario != "preference" else round(p_new_pct - (100.0 - p_new_pct - tie_pct), 6))
prior = prior_controls(default_mean=effect_pp, unit="pp", low=-20.0, high=20.0, step=0.1, sd_default=1.0,
                       sd_high=10.0, help_unit=" (new minus old, percentage points)",
                       measured_scale=100.0 if scenario == "paired" else None)
cost_unit, currency = cost_controls(
    unit={"paired": "test item", "unpaired": "item (per model)", "preference": "judgment"}[scenario], default=0.0,
    help="What labelling one test item (or collecting one judgment) costs; the plan reports n × this. 0 leaves costs "
    "out.")
sim = simulation_controls() if scenario in ("paired", "preference") and test != "normal" else None

# ---------------------------------------------------------------------------
# the current design (exact numbers, instant)
# ---------------------------------------------------------------------------
if scenario == "paired":
    with guard("Impossible design"):
        design = paired_design(source, delta, round(agreement_pct / 100, 6) if source == "manual" else None, baseline)
    agreement = design.agreement
    if source != "manual":
        side.info(f"P_a from the {SOURCE_LABELS[source]}: **{agreement:.2%}** at Δ = {delta_pp:+.1f} pp, baseline "
                  f"{baseline_pct:.1f}%.")
    with guard():
        result = paired_point(n, design, alpha, test)
        mde = paired_mde(n, tuple(sorted(design.mde_kwargs.items())), target, alpha, test)
        sizes = paired_sizes(design, target, alpha, test) if delta != 0 else None
    effect = delta
elif scenario == "unpaired":
    if not 0 < baseline + delta < 1:
        st.error(f"**Impossible design:** baseline {baseline_pct:.1f}% + Δ {delta_pp:+.1f} pp must stay between 0% "
                 "and 100%.")
        st.stop()
    with guard():
        design = acc.UnpairedDesign(baseline, delta, alpha=alpha)
        result = unpaired_point(n, design)
        mde = unpaired_mde(n, baseline, target, alpha)
        sizes = unpaired_sizes(design, target) if delta != 0 else None
    effect = delta
else:
    p_new, tie_rate = p_new_pct / 100.0, tie_pct / 100.0
    p_old = round(1.0 - p_new - tie_rate, 6)
    if p_old < -1e-9:
        st.error(f"**Impossible design:** {p_new_pct:.1f}% preferring the new system + {tie_pct:.1f}% ties exceeds "
                 "100% of raters.")
        st.stop()
    p_old = max(p_old, 0.0)
    if p_new + p_old <= 0:
        st.error("**Nothing to test:** every rater says 'neither'.")
        st.stop()
    with guard():
        design = acc.PreferenceDesign(p_new, p_old, ties=ties, test=test, alpha=alpha)
        result = preference_point(n, design)
        mde = preference_mde(n, tie_rate, target, alpha, ties, test)
        sizes = preference_sizes(design, target) if p_new != p_old else None
    effect = p_new - p_old

# the prior on the effect (assurance) and the costs
if scenario == "paired":
    assure_args = (("agreement", agreement), ("alpha", alpha), ("test", test))
elif scenario == "unpaired":
    assure_args = (("baseline", baseline), ("alpha", alpha))
else:
    assure_args = (("tie_rate", tie_rate), ("alpha", alpha), ("ties", ties), ("test", test))
assured = None
if prior.on:
    with guard("Cannot average over this prior"):
        assured = assurance_point(scenario, n, prior.mean / 100, prior.sd / 100, assure_args)
        guess = sizes.first if sizes is not None and sizes.first > 0 and \
            math.isclose(prior.mean / 100, effect, abs_tol=1e-9) else n
        n_assured = assurance_n(scenario, prior.mean / 100, prior.sd / 100, assure_args, target, assured.ceiling,
                                guess)
units_needed = {"paired": 1, "unpaired": 2, "preference": 1}[scenario]  # items labelled per unit of n
cost_now = n * units_needed * cost_unit if cost_unit > 0 else None

# ---------------------------------------------------------------------------
# metrics row
# ---------------------------------------------------------------------------
unit = "preference gap" if scenario == "preference" else "accuracy gain"
size_unit = {"paired": "items", "unpaired": "items per model", "preference": "raters"}[scenario]
extra_metrics = []
if assured is not None:
    extra_metrics.append(Metric(
        "Assurance", fmt_pct(assured.assurance),
        help="P(significant in the hoped-for direction), averaged over the prior on the effect.",
        caption=f"ceiling {fmt_pct(assured.ceiling)}; "
                + (f"{size_unit} for {target:.0%} assurance: {n_assured:,}" if n_assured > 0 else
                   f"{target:.0%} assurance is out of reach (ceiling)")))
if cost_now is not None:
    need = sizes.first if sizes is not None and sizes.first > 0 else None
    extra_metrics.append(Metric(
        "Cost", fmt_money(cost_now, currency), help="n × the cost per unit (both models' samples when unpaired).",
        caption=f"at the {size_unit} for {target:.0%} power: {fmt_money(need * units_needed * cost_unit, currency)}" if need else None))
metrics_row(
    Metric("Power" if effect != 0 else "False-positive rate", fmt_pct(result.power),
           help="P(significant and in the right direction). At Δ = 0 this is the rate of false positives, which "
           "should not exceed α."),
    Metric("Type-M (exaggeration)", fmt_ratio(result.type_m),
           help="Average |observed difference| / |true difference| among significant results (appendix B)."),
    Metric("Type-S (wrong sign)", fmt_pct(result.type_s, 2),
           help="Share of significant results whose sign is wrong (appendix B)."),
    Metric(f"MDE at {target:.0%} power", "not reachable" if not math.isfinite(mde) else fmt_points(mde),
           help=f"Smallest {unit} this design detects with the target power"
           + (" (the agreement prior is re-evaluated at each candidate Δ)." if scenario == "paired" and
              source != "manual" else ".")),
    sample_size_metric(sizes, target, unit=size_unit, help={"paired": "Smallest test set reaching the target power at this Δ and P_a.",
                                            "unpaired": "Items per model (each model on its own sample).",
                                            "preference": "Raters reaching the target power."}[scenario],
                       limit=10_000_000),
    *extra_metrics,
)
verdict(result.power, target, effect=effect, type_m=result.type_m)
design_label = {"paired": f"n = {n:,}, Δ = {delta_pp:+.1f} pp" if scenario != "preference" else "",
                "unpaired": f"n = {n:,}, Δ = {delta_pp:+.1f} pp, unpaired" if scenario != "preference" else "",
                "preference": f"n = {n:,}, {p_new_pct:.0f}% prefer new" if scenario == "preference" else ""}[scenario]
pins = pin_controls("accuracy", PIN_KEYS, label=design_label)
pinned_curves, pinned_rows = pinned_designs(pins, lambda values: pinned(values, target), name="design")
pinned_power = pinned_curve(pinned_curves, "n", "power")
pinned_type_m = pinned_curve(pinned_curves, "n", "type_m")
pins_table({"design": f"current ({design_label})", "n": n, "effect": "", "power": result.power,
            "type_m": result.type_m, "type_s": result.type_s,
            "n_for_target": sizes.first if sizes is not None else -1}, pinned_rows, pin_columns(
               target, type_s=st.column_config.NumberColumn("Type-S", format="percent")))

# ---------------------------------------------------------------------------
# views (only the open one is computed)
# ---------------------------------------------------------------------------
x_title = {"paired": "Test-set size n", "unpaired": "Items per model n", "preference": "Number of raters"}[scenario]
plotted: dict[str, pd.DataFrame] = {}
tab = views(VIEWS)
needs_curves = tab.open("power") or tab.open("exaggeration")
if needs_curves:
    ns = curve_sizes(n)
    with guard():
        if scenario == "paired":
            curves = paired_curves(ns, tuple(design.family()), alpha, test)
            curves = curves.assign(series=[f"Δ = {100 * d:.2g} pp" for d in curves["delta"]],
                                   agreement_label=[f"P_a = {a:.1%}" for a in curves["agreement"]])
            dash = "agreement_label" if source == "manual" else None
        elif scenario == "unpaired":
            base_d = abs(delta) if delta != 0 else 0.02
            deltas = tuple(sorted({round(base_d * m, 4) for m in (0.5, 1.0, 2.0) if baseline + base_d * m < 1}))
            curves = unpaired_curves(ns, baseline, deltas, alpha)
            curves = curves.assign(series=[f"Δ = {100 * d:.2g} pp" for d in curves["delta"]])
            dash = None
        else:
            share = 1 - tie_rate
            gap = abs(effect) if effect != 0 else 0.1
            gaps = sorted({round(gap * m, 4) for m in (0.5, 1.0, 2.0) if gap * m <= share})
            curves = preference_curves(ns, tuple(((share + g) / 2, (share - g) / 2) for g in gaps), alpha, ties, test)
            curves = curves.assign(series=[f"gap = {100 * (a - b):.2g} pp" for a, b in zip(curves["p_a"],
                                                                                          curves["p_b"])])
            dash = None
    plotted["curves"] = curves

needed_line = sizes.first if sizes is not None and sizes.first > 0 else None
if tab.open("power"):
    with tab["power"]:
        chart(figures.curve_figure(
            curves, x="n", y="power", color="series", dash=dash, current=(n, result.power), target=target,
            title="Power vs sample size (cf. Figure 3)", x_title=x_title, y_title="Power", y_range=(0, 1.02),
            pins=pinned_power, style=style()), "power_chart")
        if sizes is not None and sizes.differ:
            st.caption(f"Exact tests make power zigzag in n: the current design first reaches {target:.0%} at "
                       f"n = {sizes.first:,} and stays there from n = {sizes.conservative:,} (use the latter in a "
                       "preregistration if you cannot choose n exactly).")

if tab.open("assurance"):
    with tab["assurance"]:
        if not prior.on:
            st.info("Switch on **Average power over a prior on the effect** in the sidebar to see how uncertainty "
                    "about the effect changes the picture: the assurance can never pass the prior probability that "
                    "the effect points the hoped-for way, however large the test set.")
        else:
            with guard("Cannot average over this prior"):
                ns_a = tuple(sorted(set(np.unique(np.geomspace(max(10, n // 30), min(N_MAX, max(n * 30, 200)), 14)
                                                  .astype(int)).tolist()) | {n}))
                curve_a = assurance_curve(scenario, ns_a, prior.mean / 100, prior.sd / 100, assure_args)
            plotted["assurance"] = curve_a
            tidy = pd.concat([curve_a.assign(series="assurance (prior averaged)", value=curve_a["assurance"]),
                              curve_a.assign(series=f"power at the prior mean ({prior.mean:+.1f} pp)",
                                             value=curve_a["power"])], ignore_index=True)
            chart(figures.curve_figure(
                tidy, x="n", y="value", color="series", current=(n, assured.assurance), target=target,
                lines=[figures.Line(y=assured.ceiling, text=f"ceiling {assured.ceiling:.0%}: P(effect > 0)"
                                    if assured.direction > 0 else f"ceiling {assured.ceiling:.0%}: P(effect < 0)",
                                    color=figures.PALETTE[1])],
                title=f"Assurance and power vs n (prior N({prior.mean:+.1f}, {prior.sd:.1f}²) pp)", x_title=x_title,
                y_title="Probability", y_range=(0, 1.02), style=style()), "assurance_chart")
            st.caption("The assurance levels off at the ceiling: with a vague prior, part of your belief is that the "
                       "effect is zero or negative, and no test set can make that come out significant the hoped-for "
                       "way (O'Hagan, Stevens & Campbell 2005). Prior source: " + prior.source + ".")

if tab.open("exaggeration"):
    with tab["exaggeration"]:
        c1, c2 = st.columns(2)
        text = f"{target:.0%} power<br>n = {needed_line:,}" if needed_line else ""
        with c1:
            chart(figures.type_m_figure(curves, x="n", color="series", dash=dash, current=(n, result.type_m),
                                        needed=needed_line, needed_text=text, title="Type-M error (cf. Figure 7)",
                                        x_title=x_title, pins=pinned_type_m, style=style(0.5)), "type_m_chart")
        with c2:
            lines = [figures.Line(x=needed_line, text=text)] if needed_line else []
            chart(figures.curve_figure(curves, x="n", y="type_s", color="series", dash=dash,
                                       current=(n, result.type_s), target=None, title="Type-S error (cf. Figure 8)",
                                       x_title=x_title, y_title="P(wrong sign | significant)", hover_format=".4f",
                                       lines=lines, style=style(0.5)), "type_s_chart")
        st.caption(f"The dashed vertical line marks the size at which the current design reaches {target:.0%} power. "
                   "Left of it, significant results overstate (Type-M) or even reverse (Type-S) the true difference.")

if tab.open("filter"):
    with tab["filter"], guard():
        if scenario == "paired":
            dist = paired_distribution(n, delta, agreement, alpha, test)
        elif scenario == "unpaired":
            dist = unpaired_distribution(n, baseline, delta, alpha)
        else:
            dist = preference_distribution(n, p_new, p_old, alpha, ties, test)
        plotted["distribution"] = dist
        noun = "rater" if scenario == "preference" else "item"
        chart(figures.difference_distribution_figure(
            dist, true_effect=effect, mean_significant=result.mean_significant,
            title=f"What {n:,}-{noun} experiments would observe (cf. Figure 1)",
            x_title="Observed " + ("preference gap (new − old)" if scenario == "preference" else "accuracy difference"),
            style=style()), "distribution_chart")
        if math.isfinite(result.mean_significant):
            st.markdown(
                f"Of all experiments like yours, **{fmt_pct(result.rejection_rate)}** come out significant (orange). "
                f"Their average observed difference is **{100 * result.mean_significant:+.2f} pp** against a true "
                f"**{100 * effect:+.2f} pp** — the filter 'only significant results get reported' inflates the effect.")
        if scenario == "unpaired":
            st.caption("Unpaired: normal approximation of the observed difference (the z test's own model).")

if tab.open("benchmarks"):
    with tab["benchmarks"]:
        table = task_table(target, alpha)
        plotted["benchmarks"] = table
        chart(figures.mde_table_figure(table, current_delta=abs(effect) if scenario != "preference" and effect else None,
                                       target=target, style=style()), "mde_table_chart")
        show = table[["task", "n", "sota", "mde_regression", "mde_lachenbruch_mid", "mde_lachenbruch_low",
                      "mde_lachenbruch_high", "mde_unpaired", "mean_reported_delta", "paper_mde"]].copy()
        for col in show.columns[2:]:
            show[col] = show[col] * 100
        pct = st.column_config.NumberColumn
        st.dataframe(show, hide_index=True, width="stretch", column_config={
            "task": "Task", "n": pct("Test size", format="%d"), "sota": pct("SOTA (%)", format="%.1f"),
            "mde_regression": pct("MDE, regression prior (pp)", format="%.2f"),
            "mde_lachenbruch_mid": pct("MDE, Lachenbruch mid", format="%.2f"),
            "mde_lachenbruch_low": pct("… generous bound", format="%.2f"),
            "mde_lachenbruch_high": pct("… conservative bound", format="%.2f"),
            "mde_unpaired": pct("MDE, unpaired test", format="%.2f"),
            "mean_reported_delta": pct("Mean reported gain (pp)", format="%.2f"),
            "paper_mde": pct("Paper's MDE (pp)", format="%.2f")})
        st.caption("MDE of a typical next model against each task's SOTA (6 May 2020), McNemar normal approximation "
                   "with the overlap regression of its benchmark — Card et al. Table 2 (paper's values, which used "
                   "the exact unconditional test, in the last column) and Table 9. Where the mean reported gain is "
                   "below the MDE (WNLI, MRPC, SST-2), typical claims of improvement are under-powered.")

if tab.open("squad"):
    with tab["squad"]:
        models = squad_models()
        st.markdown("**Validation-data approach (§3.2, appendix D).** Pick a baseline and a new SQuAD 2.0 submission: "
                    "their dev-set accuracy difference and agreement give the power of a comparison on the test set.")
        labels = {i: f"#{i} · {row.date:%Y-%m-%d} · {row.description[:60] or '(unnamed)'} · dev {row.dev_em:.1f}"
                  for i, row in models.iterrows()}
        ids = list(models.index)
        c1, c2 = st.columns(2)
        base_id = c1.selectbox("Baseline submission", ids, index=ids.index(128), format_func=labels.get,
                               key="squad_base", bind="query-params", help="Usually the current state of the art.")
        new_id = c2.selectbox("New submission", ids, index=ids.index(134), format_func=labels.get, key="squad_new",
                              bind="query-params", help="The model you want to show is better.")
        if base_id == new_id:
            st.warning("Pick two different submissions.")
        else:
            pair, pair_power = squad_pair_power(base_id, new_id, alpha)
            if pair_power is None:
                st.info("These two submissions have the same dev accuracy: there is no expected difference to detect.")
            else:
                metrics_row(
                    Metric("Dev accuracy difference", fmt_points(pair.delta_dev, sign=True),
                           help=f"New minus baseline exact match on the {SQUAD_DEV_SIZE:,} dev questions."),
                    Metric("Dev agreement", f"{pair.agreement_dev:.2%}",
                           help="Share of dev questions both answer right or both wrong."),
                    Metric(f"Power on the test set (n = {SQUAD_TEST_SIZE:,})", fmt_pct(pair_power.power),
                           help="Exact McNemar test, dev Δ and P_a assumed to carry over to test (§3.2)."),
                    Metric("Observed test difference", fmt_points(pair.delta_test, sign=True),
                           help="What the leaderboard reported on the hidden test set."),
                )
        st.markdown("**Which leaderboard submissions were well powered?** (Figure 10)")
        size_choice = st.radio(
            "Test-set size used for power", ["test", "dev"], horizontal=True, key="squad_size", bind="query-params",
            format_func={"test": f"SQuAD 2.0 test set ({SQUAD_TEST_SIZE:,})",
                         "dev": f"dev-set size ({SQUAD_DEV_SIZE:,}), as the paper's counts"}.get,
            help="The paper's numbers (19 of 143 submissions with ≥ 80% power; 14 of them significant on test) are "
            "reproduced with the dev-set size. The hidden test set has 8,862 questions.")
        board = squad_board(SQUAD_DEV_SIZE if size_choice == "dev" else None, target, alpha)
        plotted["squad2"] = board
        chart(figures.leaderboard_figure(board, target=target, style=style()), "leaderboard_chart")
        powered = board["powered"]
        st.markdown(
            f"**{int(powered.sum())} of {len(board)}** submissions had ≥ {target:.0%} power against the SOTA of their "
            f"day; **{int((powered & board['significant_improvement']).sum())}** of those improved significantly on "
            f"test, against **{int((~powered & board['significant_improvement']).sum())} of {int((~powered).sum())}** "
            "under-powered ones.")
        st.caption("Rule used here: power requires significance *with the correct sign*; a 'significant improvement' "
                   "needs p ≤ α and a positive test difference. The paper counted significance without the sign "
                   "condition. Test-set disagreement counts were not released, so test p-values use the dev agreement "
                   "rate.")

NI_TEST_LABELS = {"score": "score (Nam 1997 / Tango 1998)", "wald": "Wald", "exact": "exact unconditional (n ≤ 2,000)"}
INTERVAL_LABELS = {"wilson": "Wilson", "wald": "Wald / CLT", "clopper_pearson": "Clopper–Pearson",
                   "jeffreys": "Jeffreys", "beta": "Beta (uniform prior)"}
if tab.open("noworse"):
    with tab["noworse"]:
        if scenario != "paired":
            st.info("“No worse than” is planned here for the paired design (both models on one test set). Switch the "
                    "scenario to **paired (McNemar)** in the sidebar.")
        else:
            c1, c2, c3, c4 = st.columns(4)
            ni_kind = c1.radio("Claim", ["ni", "eq"], key="ni_kind", bind="query-params",
                               format_func={"ni": "no worse than (non-inferiority)",
                                            "eq": "equivalent (TOST)"}.get,
                               help="Non-inferiority: the new model loses at most the margin. Equivalence: the "
                               "difference lies within ± the margin (two one-sided tests, Schuirmann 1987).")
            ni_margin_pp = c2.slider("Margin (percentage points)", min_value=0.1, max_value=10.0, value=1.0, step=0.1,
                                     key="ni_margin", bind="query-params",
                                     help="The largest loss you would accept, e.g. 1 point for a cheaper model.")
            ni_test = c3.selectbox("Test", list(acc.NI_TESTS), format_func=NI_TEST_LABELS.get, key="ni_test",
                                   bind="query-params",
                                   help="Score: restricted maximum likelihood at the margin (recommended). Wald: the "
                                   "plain z test, liberal with few discordant items. Exact: never exceeds α.")
            ni_alpha = c4.select_slider("One-sided α per test", options=[0.005, 0.01, 0.025, 0.05, 0.1], value=0.025,
                                        key="ni_alpha", bind="query-params",
                                        help="0.025 matches a two-sided 95% interval (non-inferiority); TOST at 0.05 "
                                        "per side matches a 90% interval.")
            if ni_test == "wald":
                c3.caption("Wald is anti-conservative when few items are discordant: its false-claim rate can "
                           "exceed α (e.g. 14.5% at α = 2.5% with n = 60, P_a = 95%, margin 5 points); it never "
                           "rejects on a table with no discordant item. Prefer the score or exact test.")
            margin = round(ni_margin_pp / 100, 6)
            if ni_test == "exact" and n > acc.noninferiority.EXACT_TEST_N_MAX:
                st.warning(f"The exact test is offered up to n = {acc.noninferiority.EXACT_TEST_N_MAX:,}; "
                           "showing the score test, which is accurate at this size.")
                ni_test = "score"
            with guard("Cannot compute this design", stop=False):
                ni_res = noworse_point(ni_kind, n, delta, agreement, margin, ni_alpha, ni_test)
                ni_size = (noworse_point(ni_kind, n, -margin, agreement, margin, ni_alpha, ni_test)
                           if margin <= 1 - agreement + 1e-12 else None)
                inside = (delta + margin > 0) if ni_kind == "ni" else (abs(delta) < margin)
                ni_sizes = noworse_sizes(ni_kind, delta, agreement, margin, ni_alpha,
                                         "score" if ni_test == "exact" else ni_test, target) if inside else None
                ni_curve = noworse_curve(ni_kind, n, agreement, margin, ni_alpha, ni_test)
                plotted["noworse"] = ni_curve
                metrics_row(
                    Metric("Power to show " + ("no worse" if ni_kind == "ni" else "equivalence"),
                           fmt_pct(ni_res.power), help="P(the test rejects 'the new model is worse by the margin or "
                           "more') at the expected Δ — exact sum over the discordant counts."),
                    Metric("False claim rate at the margin", "—" if ni_size is None else fmt_pct(ni_size.power, 2),
                           help="Rejection rate when the new model is exactly the margin worse: the test's size, "
                           f"which should not exceed α = {ni_alpha:g}."),
                    sample_size_metric(ni_sizes, target, unit="items",
                                       condition=" (no worse)" if ni_kind == "ni" else " (equivalence)",
                                       help="Smallest test set reaching the target power at this Δ, P_a and margin"
                                       + (" (score test)." if ni_test == "exact" else "."),
                                       limit=10_000_000),
                )
                if not inside:
                    st.warning("The expected difference is outside the margin: no test set can show the claim.")
                lines = [figures.Line(x=-ni_margin_pp, text=f"−margin ({-ni_margin_pp:g} pp)", color=figures.PALETTE[3])]
                if ni_kind == "eq":
                    lines.append(figures.Line(x=ni_margin_pp, text=f"+margin ({ni_margin_pp:g} pp)",
                                              color=figures.PALETTE[3]))
                chart(figures.curve_figure(
                    ni_curve.assign(series=f"n = {n:,}, P_a = {agreement:.1%}"), x="delta_pp", y="power",
                    color="series", current=(delta_pp, ni_res.power), target=target, log_x=False,
                    title="Power to show " + ("“no worse than”" if ni_kind == "ni" else "equivalence")
                    + " vs the true difference", x_title="True accuracy difference Δ, new − old (pp)",
                    y_title="Power", y_range=(0, 1.02), x_hover_format=".2f", lines=lines, style=style()),
                    "noworse_chart")
                if ni_sizes is not None and ni_sizes.differ:
                    st.caption(f"Power zigzags in n: it first reaches {target:.0%} at n = {ni_sizes.first:,} and "
                               f"stays there from n = {ni_sizes.conservative:,}.")
                plan_actions(accuracy_plan.noninferiority_plan_item(
                    acc.NonInferiorityDesign(ni_kind, delta, agreement, margin, alpha=ni_alpha, test=ni_test),
                    ni_res, n=n, target_power=target, size=ni_size, sizes=ni_sizes,
                    agreement_source=SOURCE_LABELS[source], link=current_link()), key="accuracy_noworse")
            st.markdown(
                "**Why the hypothesis is reversed.** A non-significant superiority test does not show that two models "
                "are equally good — it may only show that the test set is too small. To *claim* that the cheaper model "
                "is no worse, make that claim the alternative: the null hypothesis is “the new model is worse by the "
                "margin or more” (Δ ≤ −margin), and only a test set large enough to rule that out lets you reject it. "
                "A small test set then fails to support the claim instead of supporting it by default. Left of the "
                "margin line, the curve is the rate of false claims (at most α); right of it, the power.")

if tab.open("intervals"):
    with tab["intervals"]:
        c1, c2, c3 = st.columns(3)
        ci_level = c1.select_slider("Confidence", options=[0.8, 0.9, 0.95, 0.99], value=0.95, key="ci_level",
                                    bind="query-params", help="Nominal coverage of the interval.")
        ci_p = c2.slider("Expected accuracy (%)", min_value=50.0, max_value=99.9, value=90.0, step=0.1, key="ci_p",
                         bind="query-params", help="The accuracy you expect to report; intervals are widest at 50%.")
        ci_half = c3.slider("Wanted precision ± (percentage points)", min_value=0.5, max_value=10.0, value=2.0,
                            step=0.1, key="ci_half", bind="query-params",
                            help="Half-width of the interval you want to report.")
        n_cov = min(n, 20_000)
        with guard("Cannot compute the intervals", stop=False):
            cov = interval_curves(n_cov, ci_level)
            plotted["coverage"] = cov
            needed = interval_sizes(round(ci_p / 100, 6), round(ci_half / 100, 6), ci_level)
            at_p = {m: acc.interval_coverage(n_cov, ci_p / 100, method=m, confidence=ci_level)
                    for m in ("wald", "wilson")}
            metrics_row(
                Metric(f"Wald (CLT) coverage at {ci_p:.1f}%", fmt_pct(at_p["wald"]),
                       help=f"Exact share of {n_cov:,}-item test sets whose Wald interval contains the true accuracy "
                       f"(nominal {ci_level:.0%})."),
                Metric(f"Wilson coverage at {ci_p:.1f}%", fmt_pct(at_p["wilson"]),
                       help="The same for the Wilson score interval."),
                Metric(f"Items for ±{ci_half:g} pts (Wilson)", f"{needed['wilson']:,}",
                       help=f"Smallest n whose Wilson {ci_level:.0%} interval is at most ±{ci_half:g} points wide "
                       f"when the observed accuracy is {ci_p:.1f}%."),
            )
            chart(figures.curve_figure(
                cov.assign(series=cov["method"].map(INTERVAL_LABELS)), x="p", y="coverage", color="series",
                current=(ci_p / 100, at_p["wilson"]), target=ci_level, log_x=False,
                title=f"Exact coverage of {ci_level:.0%} intervals at n = {n_cov:,}", x_title="True accuracy p",
                y_title="Coverage", y_range=(max(0.0, min(0.5, float(cov["coverage"].min()))), 1.0),
                x_hover_format=".3f", hover_format=".4f", style=style()), "coverage_chart")
            if n_cov < n:
                st.caption(f"Coverage is drawn at n = {n_cov:,}; above that every method is close to nominal.")
            st.dataframe(pd.DataFrame({"method": [INTERVAL_LABELS[m] for m in needed],
                                       f"items for ±{ci_half:g} pp": list(needed.values())}),
                         hide_index=True, width="stretch")
            st.caption("Sizes are measured on the interval you would report, clipped to [0%, 100%]: each is the "
                       "smallest n whose (high − low)/2 is at most the wanted precision. Near 0% or 100% clipping "
                       "narrows the Wald interval, so its size can be below the textbook ⌈z²p(1 − p)/h²⌉.")
        st.markdown(
            "**What to report.** Report the accuracy with a Wilson (or Clopper–Pearson) interval and the number of "
            "items, e.g. “83.5% (95% Wilson CI 77.1–88.4%, n = 164)”. Do not report the CLT standard error "
            "√(p̂(1 − p̂)/n) on a few hundred items: its interval under-covers near 0% and 100%, and when every item is "
            "right or wrong it claims zero uncertainty (Brown, Cai & DasGupta 2001; Bowyer et al. 2025). To compare "
            "two models on the same items, use the paired tests on this page, not overlapping intervals.")

# ---------------------------------------------------------------------------
# simulation check (on demand, after the charts)
# ---------------------------------------------------------------------------
if sim is not None and sim.run:
    st.subheader("Simulation check")
    if scenario == "paired":
        key = ("accuracy.paired", n, delta, agreement, alpha, test, sim.n_sims, sim.seed)

        def run(progress):
            out = acc.mcnemar_power(n, delta, agreement, alpha=alpha, test=test, method="simulate",
                                    n_sims=sim.n_sims, seed=sim.seed)
            progress(1.0)
            return out
    else:
        key = ("accuracy.preference", n, p_new, p_old, alpha, ties, test, sim.n_sims, sim.seed)

        def run(progress):
            out = acc.preference_power(n, p_new, p_old, alpha=alpha, ties=ties, test=test, method="simulate",
                                       n_sims=sim.n_sims, seed=sim.seed)
            progress(1.0)
            return out
    with guard("Cannot simulate this design"):
        mc = simulation(key, run, text=f"Simulating {sim.n_sims:,} experiments…")
    metrics_row(
        Metric("Simulated power" if effect != 0 else "Simulated false-positive rate", fmt_pct(mc.power),
               se=f"{100 * mc.mc_se:.1f}%", help=f"{mc.n_sims:,} simulated experiments (Card et al. Figure 2)."),
        Metric("Simulated Type-M", fmt_ratio(mc.type_m),
               se=f"{mc.type_m_se:.2f}×" if math.isfinite(mc.type_m_se) else None),
        Metric("Simulated Type-S", fmt_pct(mc.type_s, 2),
               se=f"{100 * mc.type_s_se:.2f}%" if math.isfinite(mc.type_s_se) and mc.type_s_se else None),
    )
    gap = abs(mc.power - result.power)
    if gap <= 3 * max(mc.mc_se, 1e-12):
        st.caption(f"The simulation agrees with the exact engine: |{fmt_pct(mc.power)} − {fmt_pct(result.power)}| is "
                   f"within 3 Monte Carlo standard errors.")
    else:
        st.warning(f"The simulated power differs from the exact {fmt_pct(result.power)} by more than 3 Monte Carlo "
                   "standard errors; with a fixed seed this happens in about 3 runs in 1,000.")

# ---------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------
plan_figures = []
if tab.open("power"):
    plan_figures.append(("Power vs sample size", figures.curve_figure(
        curves, x="n", y="power", color="series", dash=dash, current=(n, result.power), target=target,
        x_title=x_title, y_title="Power", y_range=(0, 1.02))))
if scenario == "paired":
    code_args = dict(delta=delta, test=test, source=source, baseline=baseline,
                     agreement=round(agreement_pct / 100, 6) if source == "manual" else None)
elif scenario == "unpaired":
    code_args = dict(delta=delta, baseline=baseline)
else:
    code_args = dict(p_new=p_new, p_old=p_old, tie_rate=tie_rate, ties=ties, test=test)
snippet = accuracy_snippet(scenario=scenario, n=n, alpha=alpha, target_power=target,
                           prior=(prior.mean, prior.sd) if assured is not None else None, **code_args)
plan_actions(accuracy_plan.plan_item(
    design, result, n=n, alpha=alpha, target_power=target, test=test if scenario != "unpaired" else "exact",
    mde=mde, sizes=sizes, assurance=assured, prior=(prior.mean, prior.sd, prior.source) if assured is not None else None,
    cost=cost_now, cost_per_unit=cost_unit, currency=currency, figures=tuple(plan_figures), link=current_link(),
    code=snippet, sources={key: source_of(key, value, "slider") for key, value in (
        ("n", n), ("delta", delta_pp), ("baseline", baseline_pct))} if scenario == "paired" else None),
    key=f"accuracy_{scenario}")
code_view(snippet, key="accuracy_code")

# ---------------------------------------------------------------------------
# download and explanation
# ---------------------------------------------------------------------------
if plotted:
    download_csv(plotted, f"accuracy_{scenario}_{tab.current}.csv", key="download_curves",
                 label="Download the plotted data (CSV)")
explain(
    f"""
**What is being planned?** You expect a new model to beat a baseline by **Δ** accuracy points. You will test that on
**n** items. The question is whether that experiment is able to tell a real improvement from luck.

**Why agreement matters (paired tests).** On one test set, McNemar's test only looks at items where the two models
*disagree*. If two strong models agree on 95% of items, only 5% of the test set carries any information; the higher
the agreement, the less noise, and the easier a given Δ is to detect (Figure 3). If you can, measure agreement on the
dev set; otherwise the page can predict it from past leaderboards (appendix E.2.1) or bracket it (Lachenbruch 1992,
appendix E.3).

**Power** is the share of such experiments that would end in a significant result in the right direction. Below
{target:.0%} the experiment is under-powered: a real gain is likely to be missed.

**Type-M and Type-S.** When power is low, the only experiments that reach significance are those where luck
*inflated* the difference. So a significant result from a small test set systematically overstates the gain (Type-M,
exaggeration ratio), and can even have the wrong sign (Type-S). The third tab shows this directly: the orange
(significant) part of the distribution sits far from the true difference.

**MDE** is the smallest true difference this design detects with the target power. If the gain you can honestly
expect is below it, use a larger test set or a different benchmark (the paper suggests retiring WNLI, MRPC and SST-2
for SOTA claims).

**Why two sample sizes?** Exact tests on counts make power zigzag as n grows: one more item can move the critical
count and lower power a little. The page gives the first n that reaches the target and, when they differ, the n from
which power never drops below it again.

**Engines.** Numbers are computed exactly, by summing over the binomial distribution of discordant items and of their
split — no simulation noise. Switch on *Check by simulation* to run the paper's simulation (Figure 2) as well and see
its estimates, with their Monte Carlo standard errors, next to the exact ones.
"""
)

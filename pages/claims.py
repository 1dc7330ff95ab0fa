"""Many claims page: gains on several benchmarks at once, under a multiplicity correction.

UI only: an editable table of benchmarks → cached calls into ``core.accuracy`` (each benchmark's unadjusted power,
McNemar's test in its normal form), ``core.claims`` (the design) and ``core.multiplicity`` (Holm, Bonferroni, Benjamini–Hochberg) → charts
and metrics. The table lives in the URL (``?claims=…``), so a link reproduces it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import claims as cl
from core.claims import plan as claims_plan
from core.claims.snippet import claims_snippet
from pages._fields import field_input
from pages._scaffold import (
    Metric,
    cached,
    chart,
    code_view,
    current_link,
    download_csv,
    explain,
    fmt_pct,
    guard,
    key_inputs,
    md_escape,
    metrics_row,
    plan_actions,
    short_table,
    start,
    style,
)

CORRECTION_LABELS = claims_plan.CORRECTION_LABELS
DEFAULT = list(cl.DEFAULT_CLAIMS)  # the starting table (tests read it)
COLUMNS = ["benchmark", "n", "gain_pp", "agreement_pct"]
N_SIMS = 20_000
Design = cl.ClaimsDesign


# Every cached call takes the page's one design (frozen, hashed by value).
@cached
def benchmark_powers(design: cl.ClaimsDesign):
    """Unadjusted two-sided power of each benchmark's comparison (McNemar, normal form), with any problem."""
    return design.benchmark_powers()


@cached
def family(design: cl.ClaimsDesign):
    """The family's power under the design's correction (each correction is its own cache entry)."""
    return design.power(n_sims=N_SIMS, seed=0)


@cached
def growth(design: cl.ClaimsDesign):
    return design.sample_sizes()


def decision_rule() -> dict:
    """The sidebar: the decision rule (α, target power)."""
    side = st.sidebar
    side.subheader("Decision rule")
    inputs = {"alpha": field_input(Design, "alpha", side, widget="select_slider"),
              "target_power": field_input(Design, "target_power", side, widget="slider")}
    side.subheader("Dependence")
    return inputs


def benchmark_table(table_box) -> tuple:
    """The editable table of benchmarks (kept in the URL as ``?claims=…``): (name, n, gain in pp, agreement in %)."""
    if "claims_table" not in st.session_state:
        link = st.query_params.get("claims")
        linked = cl.decode_claims(link)
        st.session_state["claims_table"] = pd.DataFrame(linked, columns=COLUMNS)
        st.session_state["claims_left_out"] = max(0, len(link.split(";")) - cl.MAX_CLAIMS) if link else 0
    edited = table_box.data_editor(
        st.session_state["claims_table"], key="claims_editor", num_rows="dynamic", hide_index=True, width="stretch",
        column_config={
            "benchmark": st.column_config.TextColumn("Benchmark", max_chars=60, required=True),
            "n": st.column_config.NumberColumn("Test items n", min_value=10, max_value=10_000_000, step=1,
                                               format="%d", required=True, help="Items both models answer (paired)."),
            "gain_pp": st.column_config.NumberColumn("Expected gain (pp)", min_value=-50.0, max_value=50.0, step=0.1,
                                                     format="%.1f", required=True,
                                                     help="New minus old accuracy, in percentage points."),
            "agreement_pct": st.column_config.NumberColumn("Agreement P_a (%)", min_value=0.0, max_value=99.9,
                                                           step=0.1, format="%.1f", required=True,
                                                           help="Items both models get right or both wrong."),
        })
    complete = edited.dropna()
    left_out = max(len(complete) - cl.MAX_CLAIMS, st.session_state.get("claims_left_out", 0))
    if left_out:  # never silently: the family is what is corrected for
        table_box.warning(f"The page corrects at most {cl.MAX_CLAIMS} claims together: the first {cl.MAX_CLAIMS} "
                          f"benchmarks are used and {left_out:,} more left out.")
    table = complete.head(cl.MAX_CLAIMS)
    table = table[table["benchmark"].astype(str).str.strip() != ""]
    if len(table) == 0:
        st.info("Add at least one benchmark to the table.")
        st.stop()
    rows = tuple((str(r.benchmark), int(r.n), float(r.gain_pp), float(r.agreement_pct))
                 for r in table.itertuples(index=False))
    encoded = cl.encode_claims(rows)
    if st.query_params.get("claims") != encoded:
        st.query_params["claims"] = encoded
    return rows


def family_labels(names, m: int) -> tuple[str, str]:
    """The chart's two family categories ("all m hold", "≥ 1 holds"), kept apart from the benchmarks' names
    (a category shared with a benchmark would merge their bars)."""
    labels = [f"all {m} hold", "≥ 1 holds"]
    taken = set(names)
    for i, label in enumerate(labels):
        while label in taken:
            label += "*"
        labels[i] = label
    return labels[0], labels[1]


@st.fragment
def claims_view(rows: tuple, **inputs) -> None:
    """The key inputs (ρ, the correction) and every output that depends on them: moving a key input reruns only
    this fragment. The editable table is read outside it (``rows``: an edit reruns the page), so a move neither
    resends nor redraws the table's data grid. It writes nothing to the sidebar."""
    shown = ", ".join(md_escape(r[0]) for r in rows[:6]) + (f" and {len(rows) - 6} more" if len(rows) > 6 else "")
    st.markdown(f"Claims on **{len(rows)} benchmark{'s' if len(rows) != 1 else ''}** ({shown}): edit them in the "
                "table under the chart.")
    top = key_inputs(2)  # the inputs the question turns on, above the first chart
    inputs["correlation"] = field_input(Design, "correlation", top[0], widget="slider")
    inputs["correction"] = field_input(Design, "correction", top[1], widget="selectbox",
                                       format_func=CORRECTION_LABELS.get)
    correction, target = inputs["correction"], inputs["target_power"]
    metrics_box = st.container()
    with guard("Cannot compute these benchmarks"):
        design = Design(claims=cl.encode_claims(rows, exact=True), **inputs)
        single = benchmark_powers(design)
    problems = [(name, why) for name, _, why in single if why]
    if problems:
        st.error("**Impossible rows:** " + "; ".join(f"{md_escape(name)}: {why}" for name, why in problems)
                 + ". Two models can only differ in accuracy on items where they disagree.")
        st.stop()
    with guard("Cannot compute the family power"):
        claims = design.family()
        results = {c: family(design.with_(correction=c)) for c in CORRECTION_LABELS}
    names, powers, m = claims.names, claims.powers, len(claims.powers)
    chosen = results[correction]
    factor = growth(design)

    # ---------------------------------------------------------------------------
    # metrics, chart
    # ---------------------------------------------------------------------------
    se_text = (lambda r: f"{100 * r.mc_se:.1f}%" if r.mc_se > 0 else None)
    metrics_row(
        Metric("Power per claim, unadjusted", fmt_pct(float(np.mean(powers))),
               help="Each benchmark's two-sided power at α, averaged (McNemar's test, normal form)."),
        Metric(f"Power per claim, {CORRECTION_LABELS[correction]}", fmt_pct(float(np.mean(chosen.per_comparison))),
               se=se_text(chosen), help="P(a benchmark's claim survives the correction), averaged over benchmarks."),
        Metric(f"All {m} claims hold ({CORRECTION_LABELS[correction]})", fmt_pct(chosen.all), se=se_text(chosen),
               help="P(every benchmark's comparison is significant after the correction)."),
        Metric("Expected claims that hold", f"{chosen.expected_rejections:.2f} of {m}",
               help="Sum of the per-benchmark powers under the correction."),
        Metric(f"Test-set growth for {target:.0%} each", f"{factor:.3f}×",
               help=f"With {m} equal-effect comparisons, each test set must grow by this factor to keep {target:.0%} "
               f"power per claim under {CORRECTION_LABELS[correction]} (independent comparisons)."),
        container=metrics_box,
    )
    per = pd.DataFrame({"benchmark": names, "n": [r[1] for r in rows], "gain_pp": [r[2] for r in rows],
                        "agreement_pct": [r[3] for r in rows], "power_unadjusted": powers,
                        **{f"power_{c}": results[c].per_comparison for c in CORRECTION_LABELS}})
    summary = pd.DataFrame({"correction": list(CORRECTION_LABELS),
                            "all_claims": [results[c].all for c in CORRECTION_LABELS],
                            "any_claim": [results[c].any for c in CORRECTION_LABELS],
                            "expected_claims": [results[c].expected_rejections for c in CORRECTION_LABELS],
                            "mc_se": [results[c].mc_se for c in CORRECTION_LABELS],
                            "method": [results[c].method for c in CORRECTION_LABELS]})
    # one chart: each claim's power, then the family's two probabilities, under each correction (one figure redrawn
    # per move, and the whole story on the first screen)
    family_names = family_labels(names, m)
    bars = {CORRECTION_LABELS[c]: [*results[c].per_comparison, results[c].all, results[c].any]
            for c in CORRECTION_LABELS}
    chart(figures.bar_figure(
        [*names, *family_names], bars,
        title="Power of each claim, and of the family, under each correction", x_title="Benchmark or family",
        y_title="Probability", y_range=(0, 1.02), hover_format=".3f",
        lines=[figures.Line(y=target, text=f"target {target:.0%}"),
               figures.Line(x=m - 0.5, text="family", dash="dot")],
        current=(family_names[0], chosen.all), style=style()),
        "claims_chart")
    if any(r.method == "simulate" for r in results.values()):
        st.caption(f"Holm and Benjamini–Hochberg with unequal powers are simulated ({N_SIMS:,} families, seed 0); "
                   "the metrics show their Monte Carlo standard errors. Equal powers, Bonferroni and no correction "
                   "are exact.")
    # a static table (pages._show.short_table): a second canvas grid beside the editable one is redrawn on every move
    short_table(per, labels={"benchmark": "Benchmark", "n": "n", "gain_pp": "Gain (pp)", "agreement_pct": "P_a (%)",
                             "power_unadjusted": "Unadjusted", **{f"power_{c}": CORRECTION_LABELS[c]
                                                                  for c in CORRECTION_LABELS}},
                formats={"n": "{:,d}", "gain_pp": "{:.1f}", "agreement_pct": "{:.1f}", "power_unadjusted": "{:.1%}",
                         **{f"power_{c}": "{:.1%}" for c in CORRECTION_LABELS}})
    weak = [name for name, p in zip(names, chosen.per_comparison) if p < target]
    if weak:
        st.warning(f"**{len(weak)} of {m} claims are under-powered** after the {CORRECTION_LABELS[correction]} "
                   f"correction (below {target:.0%}). Plan larger test sets, fewer claims, or report them "
                   "as exploratory.")

    download_csv({"per_benchmark": per, "family": summary}, "many_claims.csv", key="download_claims",
                 label="Download the table and the family results (CSV)")

    # ---------------------------------------------------------------------------
    # plan and explanation
    # ---------------------------------------------------------------------------
    snippet = claims_snippet(design, n_sims=N_SIMS)
    plan_actions(lambda: claims_plan.plan_item(
        design, chosen,
        figures=(("Power of each claim", figures.bar_figure(
            names, {CORRECTION_LABELS[c]: results[c].per_comparison for c in CORRECTION_LABELS}, y_range=(0, 1.02),
            title="Power of each claim under each correction", x_title="Benchmark", y_title="Power")),),
        link=current_link(), code=snippet), key="claims")
    code_view(snippet, key="claims_code")
    explain(EXPLANATION.format(m=m))


EXPLANATION = """
**What is being planned?** A paper claims a gain on each of several benchmarks. Each claim is a separate test; with
{m} of them, the chance that at least one "gain" is luck grows, so the tests are corrected for multiplicity.

**What a correction costs.** Bonferroni tests each benchmark at α/m. Holm does the same for the smallest p-value,
then relaxes step by step, so it never rejects less than Bonferroni. Benjamini–Hochberg controls the expected share
of false claims instead and is the most lenient. All of them lower each claim's power — and the chance that **every**
claim holds is lower still: with five comparisons at 80% each, Holm leaves about 70% each and only about 29% for all
five together.

**How it is computed.** Each benchmark's unadjusted power comes from McNemar's test on its test set (normal form:
the gain, the agreement rate and n). Each power fixes a standardized effect; the corrections then act on the
benchmarks' z statistics, independent by default or equicorrelated (slider). Bonferroni and no correction are closed
forms; Holm and Benjamini–Hochberg are exact when every benchmark has the same power and are simulated otherwise,
with Monte Carlo standard errors.

**What to do about it.** Plan test sets for the corrected power (the growth factor), claim fewer benchmarks, or
declare one primary benchmark and report the rest as secondary.
"""

def main() -> None:
    start("Many claims at once",
          "Gains claimed on several benchmarks: each claim's power, and the chance that all hold, once corrected for "
          "multiplicity (Holm 1979; Benjamini & Hochberg 1995).")
    rule = decision_rule()
    # the answer first (key inputs, headline, chart), the table of benchmarks under it: read outside the fragment, so
    # a key input's move neither resends nor redraws its data grid, and an edit reruns the page
    view_box, table_box = st.container(), st.container()
    with table_box:
        st.markdown("**Your benchmarks** — one row per claimed gain. Edit, add or delete rows.")
    rows = benchmark_table(table_box)
    with view_box:
        claims_view(rows, **rule)


main()

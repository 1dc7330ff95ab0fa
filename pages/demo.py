"""Lab-meeting demo: why under-powered studies mislead, in five clicks (Card et al. 2020, Figure 1 and §2).

UI only: ``core.demo`` simulates the replications (seeded), ``core.figures.replay_figure`` animates them in
the browser. The step is in the URL (``?step=3``), so a presenter can link straight to it.
"""

from __future__ import annotations

import math

import streamlit as st

from core import accuracy as acc
from core import demo, figures
from core.accuracy import plan as accuracy_plan
from core.design import Field
from pages._links import narrowed
from pages._scaffold import (
    Metric,
    cached,
    chart,
    current_link,
    explain,
    fmt_pct,
    fmt_ratio,
    guard,
    metrics_row,
    plan_actions,
    start,
    style,
)

STEPS = {1: "1 · One experiment", 2: "2 · Run it 200 times", 3: "3 · The filter", 4: "4 · More data",
         5: "5 · What it takes"}


@cached
def replay(n, p_new, seed):
    r = demo.replay_experiments(n, p_new, n_experiments=200, seed=seed)
    return r, demo.running_summary(r)


@cached
def plan_numbers(design: acc.PreferenceDesign, n):
    """The demo's comparison as a plan: exact power, MDE and raters for 80% (the Accuracy page's engines)."""
    return design.power(n), design.mde(n), design.sample_sizes()


def go_to(step: int) -> None:
    st.session_state["step"] = min(max(step, 1), len(STEPS))


start("Why small evaluations mislead",
      "A five-step story for a lab meeting, after Card et al. (2020), Figure 1 and §2: the same under-powered "
      "comparison, replayed many times.")
side = st.sidebar
side.subheader("The comparison")
# plain widgets (no design declares them): a link's note names their ranges
# (their widgets read these ends, so a note and its control cannot disagree)
TRUTH = Field(name="p_pct", default=60.0, kind="float", low=51.0, high=80.0, step=1.0, unit="%", key="demo_p",
              label="Raters who truly prefer the new system")
SEED = Field(name="seed", default=2020, kind="int", low=0, high=2**31 - 1, key="demo_seed", label="Replay seed")
narrowed(TRUTH)
narrowed(SEED)
p_pct = side.slider(f"{TRUTH.label} (%)", TRUTH.low, TRUTH.high, TRUTH.default, TRUTH.step, key=TRUTH.key,
                    bind="query-params", help="The truth the experiments try to detect (no ties). 60% is a +20-point "
                    "preference gap.")
n = side.select_slider("Raters per experiment", [10, 15, 20, 25, 30, 40, 50, 75, 100], value=25, key="demo_n",
                       bind="query-params", help="A typical small human evaluation.")
seed = int(side.number_input(SEED.label, SEED.low, SEED.high, SEED.default, key=SEED.key, bind="query-params",
                             help="The same seed replays the same 200 experiments."))
p_new, gap = p_pct / 100, 2 * p_pct - 100

# the step travels in the URL as a plain number (?step=3): read it once, then keep it in sync
if "step" not in st.session_state:
    try:
        st.session_state["step"] = min(max(int(st.query_params.get("step", 1)), 1), len(STEPS))
    except ValueError:
        st.session_state["step"] = 1
step = st.segmented_control("Step", list(STEPS), format_func=STEPS.get, key="step", required=True,
                            label_visibility="collapsed")
step = int(step or 1)
st.query_params["step"] = str(step)
# the step buttons sit under the step bar, so they are on a projector's screen at every step (below the chart they
# were off a 1280 × 720 screen on steps 2–4)
c1, _, c3 = st.columns([1, 4, 1])
c1.button("← Previous", key="prev", on_click=go_to, args=(step - 1,), disabled=step == 1, width="stretch")
c3.button("Next →", key="next", on_click=go_to, args=(step + 1,), disabled=step == len(STEPS), width="stretch",
          type="primary")
with guard("Cannot replay this comparison"):
    rep, summary = replay(n, p_new, seed)
final = summary.iloc[-1]

if step == 1:
    first = rep.experiments.iloc[0]
    st.markdown(f"### Two systems, **{n} raters**, and in truth **{p_pct:.0f}%** prefer the new one")
    metrics_row(Metric("True difference", f"{gap:+.0f} pts"), Metric("Raters", f"{n}"),
                Metric("This experiment saw", f"{100 * first['observed']:+.0f} pts"),
                Metric("p-value", f"{first['p_value']:.2f}"))
    st.markdown(f"In this one experiment {int(first['prefer_new'])} of {n} raters preferred the new system. "
                + ("That is **significant**." if first["significant"] else "That is **not significant**.")
                + " But what would happen if many labs ran exactly this experiment?")
elif step in (2, 3):
    if step == 3:  # the numbers first: on a projector they are what the room reads
        metrics_row(
            Metric("Significant", f"{int(final['significant'])} of 200", caption=f"exact power {fmt_pct(rep.exact.power)}"),
            Metric("Their average", f"{100 * final['mean_significant']:+.0f} pts" if final["significant"] else "—",
                   caption=f"true {gap:+.0f} pts"),
            Metric("Exaggeration", fmt_ratio(final["type_m"]), caption=f"exact Type-M {fmt_ratio(rep.exact.type_m)}"),
            Metric("Wrong sign", f"{int(final['wrong_sign'])}", caption=f"exact Type-S {fmt_pct(rep.exact.type_s, 1)}"),
        )
    chart(figures.replay_figure(rep, summary, title=f"200 experiments with {n} raters each (true difference "
                                f"{gap:+.0f} pp)", style=style()), f"replay_chart_{step}")  # fresh per step
    if step == 2:
        st.markdown("Press **▶ Play**: every dot is one experiment's observed difference. **Orange** ones are "
                    "significant — the ones that get written up.")
    else:
        st.markdown(f"Only the lucky experiments cross the significance line, so the published ones overstate the "
                    f"truth about **{fmt_ratio(final['type_m'])}**. This is the *significance filter*.")
elif step == 4:
    big = st.select_slider("Raters per experiment, now", [50, 75, 100, 150, 200, 300, 400, 600, 800], value=200,
                           key="demo_n_big", bind="query-params", help="Replay the same comparison with more data.")
    with guard("Cannot replay this comparison"):
        rep_big, summary_big = replay(big, p_new, seed)
    end = summary_big.iloc[-1]
    metrics_row(Metric("Significant", f"{int(end['significant'])} of 200", caption=f"was {int(final['significant'])}"),
                Metric("Exaggeration", fmt_ratio(end["type_m"]), caption=f"was {fmt_ratio(final['type_m'])}"),
                Metric("Power", fmt_pct(rep_big.exact.power), caption=f"was {fmt_pct(rep.exact.power)}"))
    chart(figures.replay_figure(rep_big, summary_big, title=f"200 experiments with {big} raters each",
                                style=style()), "replay_big_chart")
    st.markdown("With enough raters most experiments are significant and their average sits on the truth: the filter "
                "disappears.")
else:
    need = rep.n_for_target
    metrics_row(Metric("Raters for 80% power", f"{need:,}" if need > 0 else "—"),
                Metric("Raters you had", f"{n}"), Metric("Power you had", fmt_pct(rep.exact.power)))
    st.markdown(f"To detect a {gap:+.0f}-point preference 8 times out of 10, plan **{need:,} raters**, not {n}."
                if need > 0 else "")
    st.page_link("pages/accuracy.py", label="Plan it on the Accuracy page", icon=":material/arrow_forward:",
                 query_params={"scenario": "preferences", "n": str(n), "p_new": f"{p_pct:.1f}", "ties_pct": "0.0"})

# the demo's comparison, as a plan to file (the same numbers as the Accuracy page's preference view)
with guard("Cannot plan this comparison", stop=False):
    plan_design = acc.AccuracyPageDesign(scenario="preference", n=n, p_new=p_pct, tie_rate=0.0)  # 5%, 80% by default
    exact, mde_value, sizes = plan_numbers(plan_design.preference(), n)
    plan_actions(lambda: accuracy_plan.plan_item(plan_design, exact, mde=mde_value, sizes=sizes, link=current_link()),
                 key="demo")
explain(
    f"""
**The story.** Two systems are compared by asking {n} raters which output they prefer; in truth {p_pct:.0f}% prefer the
new one. Each experiment's result is noisy. Some experiments come out significant — usually the ones where chance
pushed the observed difference far above the truth. If only significant results are reported, the literature
overstates the effect (Type-M error) and occasionally gets its sign wrong (Type-S error) (Gelman & Carlin 2014;
Card et al. 2020). The replay is a seeded simulation of the same model as the exact engine; the numbers under the chart
compare them. With more data almost every experiment is significant and the exaggeration vanishes.
"""
)
if math.isfinite(rep.exact.power) and rep.exact.power < 0.8:
    st.caption(f"Exact numbers for {n} raters: power {fmt_pct(rep.exact.power)}, Type-M {fmt_ratio(rep.exact.type_m)}.")

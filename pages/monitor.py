"""Monitor a running evaluation: running estimate, confidence sequence, verdict and forecast.

UI only: widgets → cached calls into ``core.sequential`` (readers, :func:`core.sequential.monitor`) → charts and
metrics. The confidence sequence is valid at every n, so the page may be reloaded after every new item.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import sequential as sq
from core.sequential import monitor_plan
from core.design import Field
from core.sequential.snippet import monitor_snippet
from pages._scaffold import (
    key_inputs,
    Metric,
    cached,
    chart,
    current_link,
    download_csv,
    explain,
    fmt_pct,
    guard,
    md_escape,
    metrics_row,
    plan_actions,
    presentation,
    start,
    style,
    views,
)
from pages._fields import field_input
from pages._links import narrowed
from pages._monitor_data import load
from pages._scaffold import code_view

VIEWS = {"monitor": "Where the run stands", "paths": "What may happen next (animated)"}
CS_METHODS = monitor_plan.SEQUENCE_WORDS  # the sequence widget shows the words the plan states
Design = sq.MonitorDesign
BOUNDARY_LABELS = {"pocock": "Pocock", "obrien_fleming": "O'Brien–Fleming",
                   "lan_demets": "Lan–DeMets (O'Brien–Fleming type)", "lan_demets_pocock": "Lan–DeMets (Pocock type)"}


@cached
def watch(values: np.ndarray, design: sq.MonitorDesign):
    # an array, not a tuple: Streamlit hashes an array's bytes at once, a million-item tuple item by item (≈ 2 s)
    return design.run(values, forecast=False)


@cached
def forecast_of(values: np.ndarray, design: sq.MonitorDesign):
    # the continuations alone (small): the sequence stays in watch's entry, computed once
    return design.forecast(watch(values, design), values)


def _input(name, box, **options):
    """The widget of a declared field, with the page's label."""
    return field_input(Design, name, box, label=Design.field(name).label, **options)


def controls(side, d):
    """Swap and the plan's sidebar widgets (built from MonitorDesign's fields); the key inputs are in :func:`answer`."""
    data = d.data
    swap = side.toggle("Swap A and B", key="swap", bind="query-params",
                       help="The difference is B − A; swap to monitor the other direction.")
    name_a, name_b = data.attrs.get("models", ("A", "B"))
    diffs = data["difference"].to_numpy(dtype=float)
    if swap:
        diffs, name_a, name_b = -diffs, name_b, name_a
    total = int(diffs.size)
    if total < 2:
        st.error("**Cannot monitor this run.** At least 2 items are needed.")
        st.stop()
    side.subheader("Plan")
    with guard("Cannot read the planned items"):  # a link with ?n_max=inf overflows Streamlit's integer input
        n_max = _input("n_max", side, default=max(Design.field("n_max").default, total))
    alpha = _input("alpha", side, widget="select_slider", options=[0.01, 0.025, 0.05, 0.1])
    cs_method = _input("sequence", side, format_func=CS_METHODS.get)
    looks = _input("looks", side, widget="slider")
    boundary = _input("boundary", side, widget="selectbox", format_func=BOUNDARY_LABELS.get)
    with guard("Cannot read the seed"):
        seed = _input("seed", side)
    return SimpleNamespace(swap=swap, name_a=name_a, name_b=name_b, diffs=diffs, total=total, n_max=n_max,
                           alpha=alpha, cs_method=cs_method, looks=looks, boundary=boundary, seed=seed)


def key_controls(r, d):
    """The inputs the question turns on, above the first chart — the smallest difference that matters and the
    items so far — and the run as watched (added to ``r``)."""
    top = key_inputs(2)
    total = r.total
    # the replay slider's range depends on the data: keep a value from the URL or an earlier file inside it
    if "upto" in st.session_state and not 2 <= int(st.session_state["upto"]) <= total:
        st.session_state["upto"] = total
    if total == 2:  # a slider needs two different ends
        upto = 2
    else:
        # the example opens mid-run (60 of its 300 questions), where the verdict is still "continue"; uploads at
        # their end
        narrowed(Field(name="upto", default=total, kind="int", low=2, high=total, unit="items",
                       label="Items so far (replay the run)", key="upto"))  # a link's note names the run's length
        upto = top[1].slider("Items so far (replay the run)", min_value=2, max_value=total,
                             value=min(60, total) if d.source == "sample" else total, key="upto",
                             bind="query-params", help="Show the run as it stood after this many items: the sequence "
                             "is valid at every n, so any stopping point is honest.")
    target = _input("target", top[0])
    points, scale = units(r, d)
    if points:  # the input is in the items' units; the metrics and the verdict read points
        top[0].caption(f"= {scale * target:g} points (the items are accuracies or votes)")
    with guard("Cannot monitor this run"):
        if r.n_max < upto:
            raise ValueError(f"`Planned items` must be at least the {upto:,} items already seen.")
        design = Design(target, r.n_max, alpha=r.alpha, looks=r.looks, boundary=r.boundary, seed=r.seed,
                        sequence=r.cs_method)
        values = np.ascontiguousarray(r.diffs[:upto])
        # the sequence first, for the chart; the forecast (a simulation, half of a move) is added after it is drawn
        res = watch(values, design)
    return SimpleNamespace(**vars(r), upto=upto, target=target, design=design, res=res, values=values)


def units(r, d):
    """Points (×100) for accuracies and votes, the scores' own units otherwise."""
    # Inspect scores are proportions correct (its reader refuses others): points even when epochs are averaged
    points = d.source in ("sample", "votes", "inspect") or bool(np.isin(r.diffs, (-1.0, 0.0, 1.0)).all())
    return points, (100.0 if points else 1.0)


def report(r, d, points, scale):
    """The verdict, the metrics row and the open view; returns the plotted frames. The verdict and the metrics are
    filled after the chart is drawn: they need the forecast (``r.res`` becomes the result with it)."""
    name_a, name_b, target, n_max, alpha = r.name_a, r.name_b, r.target, r.n_max, r.alpha
    verdict_box, metrics_box = st.container(), st.container()
    last = r.res.sequence.iloc[-1]  # the sequence is the same with the forecast

    def fmt_diff(x: float) -> str:
        return f"{scale * x:+.2f} pts" if points else f"{x:+.4f} score units"

    x_text = f"{scale * target:g} {'points' if points else 'score units'}"
    x_signed = f"{'+' if last['estimate'] >= 0 else '−'}{x_text}"
    plotted = views_of(r, x_signed, points, scale)
    res = r.res
    text = {"b_better": f"**{res.message.replace('B', md_escape(name_b), 1)}** — 0 left the confidence sequence at item "
                        f"{res.first_n:,}." if res.first_n else "",
            "a_better": f"**{res.message.replace('A', md_escape(name_a), 1)}** — 0 left the confidence sequence at item "
                        f"{res.first_n:,}." if res.first_n else "",
            "no_difference": f"**{res.message}** — the whole sequence lies inside ± {x_text} (the smallest difference "
                             "that matters, X).",
            "budget": f"**{res.message}.**",
            "continue": f"**{res.message}** if the true difference is the smallest difference that matters "
                        f"(X = {x_signed}, set above; ± {res.expected_more_se:.0f} Monte Carlo SE)."}[res.verdict]
    {"b_better": verdict_box.success, "a_better": verdict_box.success, "no_difference": verdict_box.info,
     "budget": verdict_box.warning, "continue": verdict_box.info}[res.verdict](text)

    metrics_row(
        Metric("Items so far", f"{res.n:,}", help=f"Of {n_max:,} planned."),
        Metric("Running difference", fmt_diff(last["estimate"]),
               help=f"Mean of {md_escape(name_b)} − {md_escape(name_a)} over the items so far"
               + (", in points (×100: the items are accuracies or votes)." if points else
                  ", in the scores' own units (the items are neither right/wrong accuracies nor votes).")),
        Metric(f"{monitor_plan.fmt_level(1 - alpha)} confidence sequence",
               f"[{scale * last['lower']:+.1f}, {scale * last['upper']:+.1f}] pts" if points else
               f"[{last['lower']:+.3f}, {last['upper']:+.3f}] score units",
               help="Valid at every n simultaneously: looking after every item keeps the false-positive rate ≤ α."),
        Metric("Expected further items", f"{math.ceil(res.expected_more):,}" if res.verdict == "continue" else "0",
               se=f"{res.expected_more_se:.0f}" if res.verdict == "continue" else None,
               help=f"Mean further items until a stop, over {res.n_sims:,} simulated continuations whose true difference "
               f"is X = {x_signed}, the smallest difference that matters (capped at the planned items), each checked with the "
               "sequence shown: betting — further items drawn like those so far, tilted to X —, or the normal mixture "
               "with the SD of the data."),
        Metric("P(ends with a winner)", fmt_pct(res.p_stop_effect),
               help=f"Share of simulated continuations with true difference X = {x_signed} that stop with 0 outside the "
               "sequence."),
        container=metrics_box,
    )
    return plotted, x_text


def views_of(r, x_signed: str, points: bool, scale: float) -> dict:
    """The open view: the sequence's chart (drawn before the forecast is simulated), then the forecast, then the
    continuations' view, in the metrics' units (``scale``: 100 for points). Sets ``r.res`` to the result with the
    forecast; returns the plotted frames (in the items' own units, as the engine gives them)."""
    unit = "points" if points else "score units"
    res, name_a, name_b, target, n_max, looks, boundary = r.res, r.name_a, r.name_b, r.target, r.n_max, r.looks, \
        r.boundary
    plotted: dict[str, pd.DataFrame] = {"sequence": res.sequence}
    tab = views(VIEWS)
    title = f"{md_escape(name_b)} − {md_escape(name_a)}: running difference with its confidence sequence"
    if tab.open("monitor"):
        with tab["monitor"]:
            chart(figures.monitor_figure(res.sequence, looks=res.looks, look_bounds=res.look_bounds, target=target,
                                         n_max=n_max, title=title, scale=scale, unit=unit, style=style(),
                                         # on a projector the plot is ≈ 150 px tall: the title names the difference
                                         **({"y_title": "B − A"} if presentation() else {})),
                  "monitor_chart")
            planned = ", ".join(f"n = {n:,}: |estimate| ≥ {scale * b:.2f} pts" if points else
                                f"n = {n:,}: |estimate| ≥ {b:.4f}" for n, b in zip(res.looks, res.look_bounds))
            group = (f"The planned group design would have stopped at its look at n = {res.group_stop:,}."
                     if res.group_stop else "No planned group look passed so far has crossed its boundary.")
            if res.method == "betting":
                how = "Waudby-Smith & Ramdas 2024, hedged capital with predictable plug-in bets"
            else:
                how = f"Howard et al. 2021, eq. 14, tuned for the planned items, SD {res.sd:.4f} from the data"
            family = {"pocock": "Pocock", "obrien_fleming": "O'Brien–Fleming", "lan_demets": "Lan–DeMets (OF type)",
                      "lan_demets_pocock": "Lan–DeMets (Pocock type)"}[boundary]
            st.caption(f"Confidence sequence: {res.method} ({how}). Planned {looks}-look {family} "
                       f"boundaries on the estimate (SD {res.sd:.4f}): {planned}. {group}")
    if res.verdict == "continue":  # a stopped run has nothing to forecast: the result is already whole
        with guard("Cannot monitor this run"):
            res = r.res = res.with_forecast(forecast_of(r.values, r.design))
    if tab.open("paths"):
        with tab["paths"]:
            if res.verdict != "continue":
                st.info("The run has stopped: there is nothing left to simulate. Move **Items so far** back to replay an "
                        "earlier moment.")
            else:
                plotted["paths"] = res.paths
                chart(figures.paths_figure(res.sequence, res.paths, n_max=n_max, target=target, scale=scale, unit=unit,
                                           title=f"{len(res.paths['path'].unique())} simulated continuations if the "
                                           f"true difference is X = {x_signed}",
                                           style=style()), "paths_chart")
                st.caption("Press ▶ Play: each grey line is one way the rest of the run may go if the true difference is "
                           "X, the smallest difference that matters; × marks where it would stop (0 or ±X settled by the confidence sequence).")
    return plotted


def plan(r, d, plotted):
    """The download, the plan and the code view."""
    source, up, files, origin = d.source, d.up, d.files, d.origin
    download_csv(plotted, "monitor.csv", key="download_monitor", label="Download the running estimate (CSV)")

    snippet = monitor_snippet(r.design, upto=r.upto, swap=r.swap,
                              data_file=up.name if source in ("scores", "votes") else None, votes=source == "votes",
                              harness_files=tuple((name, f.name) for name, ups in files.items() for f in ups)
                              if source == "harness" else (), inspect_files=d.inspect)
    plan_actions(lambda: monitor_plan.plan_item(
        r.design, r.res, name_a=r.name_a, name_b=r.name_b, data=origin.strip("`"),
        data_source="upload" if source != "sample" else "built-in example", link=current_link(), code=snippet),
        key="monitor")
    code_view(snippet, key="monitor_code")


def explanation(alpha, x_text, points) -> str:
    """The page's "explain" text."""
    return f"""
**The question.** Results of two systems come in item by item — benchmark questions, judge labels, arena votes. When
can you stop? Checking a fixed-n 95% interval after every batch and stopping when it excludes 0 declares false winners
far more often than 5% (every 50 items up to 4,000: about 36%).

**The confidence sequence** (blue band) is built to be looked at after every item: with probability at least
{monitor_plan.fmt_level(1 - alpha)} it contains the true difference at *all* n at once. So stopping the moment it excludes 0 is honest.
The price: it is wider than a fixed-n interval at the same n (about 1.5× at the planned size).

**The verdict.** *Stop: B is better* when the band lies above 0; *stop: no difference of at least X is plausible* when
it lies inside ±X (X = {x_text} here, the smallest difference that matters, set above the chart); otherwise *continue*,
with the number of further items expected if the true difference is X (simulated continuations — the view **What may happen next** shows
them moving).

**Units.** The differences read in points (×100) when the items are accuracies (the example's questions, 0/1 scores)
or votes, and in the scores' own units ("score units") otherwise: {'points' if points else 'score units'} here.

**The planned group boundaries** (orange marks) are the alternative when you only look a few times: stop at a look if
the running difference is beyond the mark. They are narrower than the band at their looks but are valid only at those
looks.

**Exaggeration.** A run that stops early because the difference looks large tends to overstate it (Type-M); report the
confidence sequence, not just the point estimate.
"""


@st.fragment
def answer(side_values, d):
    """The key inputs and everything they change: moving one reruns only this (the sidebar's values come in as
    arguments; nothing here writes to the sidebar)."""
    r = key_controls(side_values, d)
    points, scale = units(r, d)
    plotted, x_text = report(r, d, points, scale)
    plan(r, d, plotted)
    explain(explanation(r.alpha, x_text, points))


def main():
    start("Monitor a running evaluation",
          "Look after every item without inflating false positives: a confidence sequence (Howard et al. 2021; "
          "Waudby-Smith & Ramdas 2024) around the running difference, the planned group-sequential boundaries "
          "(Jennison & Turnbull 2000), and what to do next.")
    side = st.sidebar
    side.subheader("Results so far")
    d = load(side)
    answer(controls(side, d), d)


main()

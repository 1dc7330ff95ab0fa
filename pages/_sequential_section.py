"""The "Run it sequentially" section shared by the LLM benchmark and Leaderboard pages.

UI only: the page passes its per-item difference model (:class:`core.sequential.ItemModel`); the section compares the
fixed design with a group-sequential and an anytime run of the same planned items (``core.sequential``).
"""

from __future__ import annotations

import dataclasses

from core.plan.text import fmt_level
import numpy as np
import pandas as pd
import streamlit as st

from core import figures
from core import sequential as sq
from pages._links import asked_late, narrowed, report_late
from pages._scaffold import Metric, cached, chart, fmt_money, fmt_pct, fmt_ratio, metrics_row, style

LABELS = {"fixed": "fixed", "group": "group-sequential", "anytime": "anytime (look after every item)",
          "naive": "naive peeking"}


#: Simulated item-level values the anytime design may use on a slider move (point, and each point of the curves).
POINT_WORK, CURVE_WORK = 8_000_000, 1_000_000


@cached
def _compare(n, design: sq.SequentialDesign, n_sims):
    designs = ("fixed", "group", "anytime") if n_sims else ("fixed", "group")
    return design.compare(n, n_sims=max(n_sims, 100), seed=0, designs=designs)


@cached
def _curves(n, design: sq.SequentialDesign, deltas, n_sims):
    """The curves over ``deltas`` read the design's SD and options, not its difference: ``design`` comes with
    ``delta=0`` so a move of the difference alone recomputes nothing."""
    designs = ("fixed", "group", "anytime", "naive") if n_sims else ("fixed", "group", "naive")
    return design.curves(n, deltas, designs=designs, n_sims=max(n_sims, 100), seed=0)


def _sims(n, work):
    """Simulated runs that fit ``work`` item-level values (0 below 200 runs: the design is then left out)."""
    runs = min(2000, work // max(n, 1))
    return int(runs) if runs >= 200 else 0


def sequential_section(*, n: int, model: sq.ItemModel, alpha: float, target: float, unit: str, units: str,
                       x_title: str, to_x, x_max: float, current_x: float, cost_per_item: float = 0.0,
                       currency: str = "", assumption: str = "", key: str = "seq") -> dict[str, pd.DataFrame]:
    """Render the section (filled only when opened); returns the plotted frames for the page's CSV.

    ``to_x`` maps a per-item mean difference to the page's effect scale (x axis); ``x_max`` is the largest
    effect drawn on that scale.
    """
    box = st.expander(f"Run it sequentially: look at the {units} as they come in, stop early when it is clear",
                      key=f"{key}_open", on_change="rerun")
    if not box.open:
        return {}
    with box:
        c1, c2 = st.columns(2)
        # ranges and defaults from the design's declarations (the engine's: at most 10 looks); keys per page
        f_looks, f_boundary = sq.SequentialDesign.field("looks"), sq.SequentialDesign.field("boundary")
        # under this page's keys: a link's note names the control and its range; the box opens after the link's
        # check, so what the controls cannot take is said under them
        mine = {f.name: dataclasses.replace(f, key=f"{key}_{f.name}") for f in (f_looks, f_boundary)}
        for f in mine.values():
            narrowed(f)
        asked = {name: asked_late(f.key) for name, f in mine.items()}
        looks = c1.slider(f_looks.label, f_looks.widget_low, f_looks.widget_high, f_looks.default,
                          key=f"{key}_looks", bind="query-params",
                          help=f"Analyses after every n/K {units}. The anytime design looks after every one.")
        boundary = c2.selectbox(f_boundary.label, list(f_boundary.choices),
                                index=f_boundary.choices.index(f_boundary.default), key=f"{key}_boundary",
                                bind="query-params",
                                format_func={"pocock": "Pocock", "obrien_fleming": "O'Brien–Fleming",
                                             "lan_demets": "Lan–DeMets (OF type)",
                                             "lan_demets_pocock": "Lan–DeMets (Pocock type)"}.get,
                                help="How α is shared among the looks.")
        for (name, f), box_ in zip(mine.items(), (c1, c2)):
            report_late(f.key, asked[name], f, box_)
        sims_point, sims_curve = _sims(n, POINT_WORK), _sims(n, CURVE_WORK)
        design = sq.SequentialDesign.from_model(model, looks=looks, boundary=boundary, alpha=alpha)
        table = _compare(n, design, sims_point).set_index("design")
        fixed, group = table.loc["fixed"], table.loc["group"]
        anytime = table.loc["anytime"] if "anytime" in table.index else None

        def spend(row):
            return f"{row['expected_n']:,.0f} of {n:,}"

        metrics_row(
            Metric(f"Expected {units}, group", spend(group),
                   help=f"Average {units} used when the true difference is the planned one (stops at the first "
                   "significant look).",
                   caption=f"{1 - group['expected_n'] / n:.0%} saved; {group['expected_n_null']:,.0f} if no "
                           "difference"),
            Metric(f"Expected {units}, anytime", spend(anytime) if anytime is not None else "—",
                   help="Confidence sequence checked after every item (normal mixture tuned for the planned size; "
                   f"simulated, {sims_point:,} runs; left out when the plan is too large to simulate on a slider "
                   "move).", caption=f"{1 - anytime['expected_n'] / n:.0%} saved" if anytime is not None else None),
            Metric("Power fixed / group / anytime",
                   f"{fmt_pct(fixed['power'], 0)} / {fmt_pct(group['power'], 0)} / "
                   f"{fmt_pct(anytime['power'], 0) if anytime is not None else '—'}",
                   help="Sequential designs spend part of α early, so at the same maximum size they have slightly "
                   "less power; they make it up in the items they save."),
            Metric("Type-M at stopping, group", fmt_ratio(group["type_m"]),
                   help="E[|running mean at the look that stopped| | significant] / |true difference|: early stops "
                   "select lucky runs and exaggerate more than the fixed design.",
                   caption=f"fixed {fmt_ratio(fixed['type_m'])}" + (
                       f", anytime {fmt_ratio(anytime['type_m'])}" if anytime is not None else "")),
            *([Metric("Expected cost, group", fmt_money(group["expected_n"] * cost_per_item, currency),
                      caption=f"fixed {fmt_money(n * cost_per_item, currency)}")] if cost_per_item > 0 else []),
        )
        deltas = tuple(np.round(np.linspace(0, 1, 13) * x_max_to_delta(x_max, to_x, model), 8))
        curves = _curves(n, design.with_(delta=0.0), deltas, sims_curve)
        curves = curves.assign(label=curves["design"].map(LABELS), effect=[to_x(d) for d in curves["delta"]])
        cols = st.columns(3)
        here = {d: table.loc[d] for d in table.index}
        for col, (y, y_title, fmt, key_y) in zip(cols, (("power", "Power", ".3f", "power"),
                                                        ("expected_n", f"Expected {units}", ",.0f", "expected_n"),
                                                        ("type_m", "Type-M at stopping", ".2f", "type_m"))):
            with col:
                data = curves if y != "type_m" else curves[curves["delta"] > 0]
                chart(figures.curve_figure(
                    data, x="effect", y=y, color="label",
                    current=(current_x, float(here["group"][key_y])) if np.isfinite(here["group"][key_y]) else None,
                    target=target if y == "power" else None, title=f"{y_title} vs true difference ({n:,} {units})",
                    x_title=x_title, y_title=y_title, log_x=False, log_y=y == "type_m", hover_format=fmt,
                    y_range=(0, 1.02) if y == "power" else None, style=style(1 / 3)), f"{key}_{y}_chart")
        st.caption(f"Per-{unit} difference: mean {model.delta:+.4f}, SD {model.sd:.4f} {assumption} The marker is the "
                   "group design at the current difference. Naive peeking (a plain z-test every n/20 "
                   f"{units}) is shown to warn: its false-positive rate is "
                   f"{fmt_pct(sq.sequential_power(n, 0.0, model.sd, design='naive', alpha=alpha).false_positive_rate)}, "
                   f"not {fmt_level(alpha)}. "
                   + (f"The anytime design is simulated ({sims_point:,} runs, ±{fmt_pct(float(anytime['mc_se']), 1)} "
                      f"on its power; curves {sims_curve:,} runs per point)." if anytime is not None else
                      f"The anytime design is not simulated for {n:,} {units} (too many to simulate on a slider "
                      "move)."))
        return {"sequential_designs": table.reset_index(), "sequential_curves": curves}


def x_max_to_delta(x_max, to_x, model):
    """The per-item mean difference whose effect on the page's scale is ``x_max`` (``to_x`` is linear)."""
    unit = to_x(1.0) - to_x(0.0)
    return x_max / unit if unit else 0.0

"""The page scaffold: the blocks every scenario page shares (Streamlit only; no statistics here).

A page reads "controls → compute → show":

>>> start("Title", "Source")                              # doctest: +SKIP
>>> alpha, target = decision_controls()                   # doctest: +SKIP
>>> with guard():                                         # doctest: +SKIP
...     result = power(design)                     # a page function decorated with @cached
>>> metrics_row(Metric("Power", fmt_pct(result.power)), …) # doctest: +SKIP
>>> view = views({"power": "Power vs n", …})              # doctest: +SKIP
>>> if view.open("power"): chart(figures.curve_figure(…), "power_chart")  # doctest: +SKIP

Speed rules the page follows: only the open view's charts are computed and
sent (:func:`views`: one switcher, not a tab bar, whose eight tabs the browser
would lay out again on every move), expanders are filled only when open,
figures come from :mod:`core.figures` (no per-property
validation), exact/analytic numbers appear at once, and simulations run on
demand after the charts (:func:`simulation`), in chunks with a progress bar,
outside ``st.cache_data`` (a progress bar inside a cached function cannot be
replayed), so a slider move interrupts them between chunks.

The scaffold is split by job — :mod:`pages._frame` (frame, title, presentation mode, key inputs),
:mod:`pages._controls` (shared controls), :mod:`pages._fields` (widgets from a design's declared fields),
:mod:`pages._simulate` (simulations on demand), :mod:`pages._show` (messages, metrics, charts, views, downloads),
:mod:`pages._plans` (plan block, code view), :mod:`pages._pins` (pinned designs) and :mod:`pages._text` (user text
made inert) — and this module gathers them, so a page imports its blocks from one place.
"""

from __future__ import annotations

from core.plan.text import currency_label, fmt_n, fmt_pct, fmt_ratio
from pages._controls import (PriorSettings, SimulationSettings, apply_values, cost_controls, decision_controls,
                             link_values, prior_controls, simulation_controls, source_of)
from pages._fields import field_input, read_design
from pages._frame import (CHART_CONFIG, PRESENTATION_CHART_CONFIG, cached, cached_upload, ensure_frame, key_inputs,
                          presentation, start, style, chart_row)
from pages._pins import (Pin, pin_columns, pin_controls, pinned_curve, pinned_designs, pins_table)
from pages._plans import add_to_basket, code_view, current_link, plan_actions
from pages._show import (Metric, Views, chart, download_csv, explain, fmt_money, fmt_points, guard, metric_slots,
                         metrics_row, sample_size_metric, short_table, verdict, views)
from pages._simulate import clear_simulations, simulation
from pages._text import code, list_of, md_escape, safe_message

__all__ = [
    "cached", "cached_upload", "ensure_frame", "start", "presentation", "style", "chart_row", "key_inputs", "CHART_CONFIG",
    "PRESENTATION_CHART_CONFIG", "decision_controls", "SimulationSettings", "simulation_controls", "link_values",
    "apply_values", "source_of", "PriorSettings", "prior_controls", "cost_controls", "field_input", "read_design",
    "simulation", "clear_simulations", "guard", "Metric", "metrics_row", "metric_slots", "verdict",
    "sample_size_metric", "fmt_points", "fmt_money", "chart", "short_table", "Views", "views", "explain", "download_csv",
    "current_link", "add_to_basket", "plan_actions", "code_view", "Pin", "pin_controls", "pinned_designs",
    "pinned_curve", "pins_table", "pin_columns", "currency_label", "fmt_pct", "fmt_ratio", "fmt_n", "md_escape",
    "safe_message", "code", "list_of",
]

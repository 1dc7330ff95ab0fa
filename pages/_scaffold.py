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
sent (lazy tabs), figures come from :mod:`core.figures` (no per-property
validation), exact/analytic numbers appear at once, and simulations run on
demand after the charts (:func:`simulation`), in chunks with a progress bar,
outside ``st.cache_data`` (a progress bar inside a cached function cannot be
replayed), so a slider move interrupts them between chunks.
"""

from __future__ import annotations

import contextlib
import html
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from core import figures
from core.export import csv_bytes
from core.plan.text import currency_label, fmt_n, fmt_pct, fmt_ratio
from core.sizing import SampleSize

__all__ = [
    "cached",
    "ensure_frame",
    "start",
    "presentation",
    "style",
    "key_inputs",
    "decision_controls",
    "SimulationSettings",
    "simulation_controls",
    "simulation",
    "guard",
    "Metric",
    "metrics_row",
    "verdict",
    "sample_size_metric",
    "chart",
    "Views",
    "views",
    "explain",
    "download_csv",
    "apply_values",
    "link_values",
    "source_of",
    "current_link",
    "plan_actions",
    "Pin",
    "pin_controls",
    "pinned_designs",
    "pin_int",
    "pinned_curve",
    "pins_table",
    "pin_columns",
    "PriorSettings",
    "prior_controls",
    "cost_controls",
    "fmt_money",
    "currency_label",
    "fmt_pct",
    "fmt_ratio",
    "fmt_points",
    "fmt_n",
    "md_escape",
    "safe_message",
    "cached_upload",
    "code",
]

#: Cache wrapper for every page's calls into ``core``.
cached = st.cache_data(show_spinner=False, max_entries=256)

#: Cache wrapper for parsing uploads and for results as large as an upload (up to some 50 MB each): kept per session
#: (freed when the session closes), two entries per function, at most 128 MB and 30 minutes, so a server that
#: receives many large files keeps a bounded amount of them. (``.streamlit/config.toml`` also bounds all caches
#: together: ``server.maxCacheDataSize``.)
cached_upload = st.cache_data(show_spinner=False, max_entries=2, max_size="128MB", ttl="30m", scope="session")

#: Plotly config: no logo, no links to plotly's cloud; PNG export stays (it works offline).
CHART_CONFIG = {"displaylogo": False, "showLink": False, "modeBarButtonsToRemove": ["sendDataToCloud", "lasso2d",
                                                                                    "select2d"]}


#: On a projector: no mode bar over the chart (hover values stay).
PRESENTATION_CHART_CONFIG = {**CHART_CONFIG, "displayModeBar": False}


# ---------------------------------------------------------------------------
# frame, header and presentation mode
# ---------------------------------------------------------------------------
def ensure_frame() -> None:
    """Run the page inside app.py's frame even when a deep link is the first request.

    Before any session has run app.py, Streamlit falls back to its legacy
    pages/-folder mode for a URL such as /accuracy, which would skip the
    frame (page config, navigation); hand over to app.py instead.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def presentation() -> bool:
    """True in lab-meeting mode (the frame's "Presentation mode" toggle, ``?present=true`` in the URL)."""
    return bool(st.session_state.get("present", False))


def style(share: float = 1.0) -> figures.Style:
    """Chart sizes for the current mode; ``share`` is the chart's share of the page width (0.5: side by side)."""
    return figures.narrow(figures.PRESENTATION if presentation() else figures.STYLE, share)


_PRESENTATION_CSS = """
<style>
/* lab-meeting mode: large numbers and text, compact top, captions and secondary controls hidden; the title, the
   headline metrics and the first chart fit one 1280 × 720 (or 1024 × 768) screen */
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; padding-bottom: 1rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 2.1rem !important; line-height: 1.1; }
[data-testid="stMetricLabel"] p { font-size: 0.95rem; }
[data-testid="stMain"] [data-testid="stVerticalBlock"] { gap: 0.4rem; }
[data-testid="stWidgetLabel"] p { font-size: 1.05rem !important; }
/* the metrics' help icons are for the desk, not the projector: the row stays on one line */
[data-testid="stMetricLabel"] [data-testid="stTooltipIcon"] { display: none; }
@media (max-width: 1100px) {
  [data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 1.65rem !important; }
  [data-testid="stMetricLabel"] p { font-size: 0.85rem; }
  /* long labels wrap onto two lines instead of pushing a row of five metrics onto a second line */
  [data-testid="stMetric"] { max-width: 9.5rem; }
  [data-testid="stTab"] p { font-size: 0.9rem !important; }
  [data-testid="stTab"] { height: 2.1rem; }
  [data-testid="stAlert"] p { font-size: 0.92rem !important; }
  [data-testid="stWidgetLabel"] p { font-size: 0.95rem !important; }
}
[data-testid="stMetricLabel"] * { white-space: normal !important; overflow: visible !important; }
[data-testid="stAlert"] p { font-size: 1.0rem !important; }
[data-testid="stAlertContainer"] { padding: 0.3rem 0.9rem; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.25rem; }
[data-testid="stCaptionContainer"] { display: none; }
h1 { font-size: 1.75rem !important; padding-top: 0 !important; padding-bottom: 0.1rem !important; }
[data-testid="stTab"] p { font-size: 1.1rem; }
/* every tab's name on screen: the tab bar wraps instead of scrolling sideways */
[data-testid="stTabs"] [role="tablist"] { flex-wrap: wrap; row-gap: 0.2rem; }
/* secondary on a projector: links to other pages (except the home page's cards) and the pinned-designs panel */
[data-testid="stMainBlockContainer"] [data-testid="stPageLink"] { display: none; }
[data-testid="stMainBlockContainer"] [class*="st-key-card_"] [data-testid="stPageLink"] { display: block; }
.st-key-pins_panel { display: none; }
</style>
"""


#: Every page: the navigation runs across the top, so the page starts right under it (Streamlit's default top
#: padding of 6rem would push the key inputs and the first chart further below the fold).
_PAGE_CSS = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 4rem; }
h1 { padding-top: 0.25rem !important; }
</style>
"""


def start(title: str, caption: str) -> None:
    """Frame check, title and source line of a page (and the presentation styles when that mode is on)."""
    ensure_frame()
    st.html(_PAGE_CSS)
    if presentation():
        st.html(_PRESENTATION_CSS)
    st.title(title)
    if not presentation():
        st.caption(caption)


# ---------------------------------------------------------------------------
# controls
# ---------------------------------------------------------------------------
def key_inputs(count: int) -> list:
    """``count`` columns in the main area, above the metrics and the first chart, for the 2–4 inputs the page's
    question turns on (the rest stay in the sidebar's assumptions). Widgets keep their keys, so links are unchanged."""
    return list(st.container(key="key_inputs").columns(count, gap="medium"))


def decision_controls(
    *,
    alphas=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1),
    alpha_default: float = 0.05,
    alpha_label: str = "Significance level α (two-sided)",
    alpha_help: str = "Reject 'no difference' when p ≤ α.",
    target_help: str = "80% is the common minimum (Cohen 1962). Used for the MDE and the required size.",
    container=None,
) -> tuple[float, float]:
    """The α and target-power controls (URL keys ``alpha`` and ``target``)."""
    side = container or st.sidebar
    side.subheader("Decision rule")
    alpha = side.select_slider(alpha_label, options=list(alphas), value=alpha_default, key="alpha",
                               bind="query-params", help=alpha_help)
    target = side.slider("Target power", min_value=0.5, max_value=0.99, value=0.8, step=0.01, key="target",
                         bind="query-params", help=target_help)
    return float(alpha), float(target)


@dataclass(frozen=True)
class SimulationSettings:
    """Whether to run the simulation check, with how many replicates and which seed."""

    run: bool
    n_sims: int
    seed: int


def simulation_controls(
    *,
    options=(1000, 2000, 5000, 10000, 20000, 50000, 100000),
    default: int = 10000,
    seed_default: int = 2020,
    label: str = "Check by simulation",
    help: str = "Runs the simulation of Card et al. (Figure 2) for the current design after the charts, and shows "
    "its estimates with their Monte Carlo standard errors next to the exact numbers.",
    unit: str = "Simulated experiments",
    container=None,
) -> SimulationSettings:
    """Sidebar controls of the on-demand simulation (URL keys ``simulate``, ``sims``, ``seed``)."""
    side = container or st.sidebar
    if presentation():  # a secondary control: hidden on the projector (the link keeps its settings)
        run = bool(st.session_state.get("simulate", False))
        return SimulationSettings(run, int(st.session_state.get("sims", default)),
                                  int(st.session_state.get("seed", seed_default)))
    side.subheader("Simulation")
    run = side.toggle(label, key="simulate", bind="query-params", help=help)
    if not run:
        return SimulationSettings(False, int(default), int(seed_default))
    n_sims = side.select_slider(unit, options=list(options), value=default, key="sims", bind="query-params",
                                help="More replicates, smaller Monte Carlo error (it shrinks as 1/√replicates).")
    seed = side.number_input("Random seed", min_value=0, max_value=2**31 - 1, value=seed_default, step=1,
                             key="seed", bind="query-params", help="Fixes the simulation, so a link reproduces it.")
    return SimulationSettings(True, int(n_sims), int(seed))


def link_values(key: str, labels: Mapping) -> None:
    """Let a link name a bound choice widget's option by its value (``?ties=half``) as well as by its label.

    Streamlit writes a choice widget with a ``format_func`` into the URL by its label ("half a win each") and
    ignores anything else; a hand-written or scripted link naturally uses the value (core's vocabulary). Call it
    just before the widget.
    """
    raw = st.query_params.get(key)
    if raw is None or raw in labels.values():
        return
    for value, label in labels.items():
        if str(value) == raw:
            st.session_state[key] = value  # the widget starts from it (the link's value is not a label it knows)
            st.query_params[key] = label  # and the URL shows the label, as the widget writes it from now on
            return


def apply_values(values: Mapping, source: str | None = None) -> None:
    """Callback: put preset or fitted values into bound widgets (via session state).

    ``source`` (e.g. "preset: Table 3 of Card et al. 2020" or "fitted from pilot.csv") is remembered for the
    plan document as long as the widget keeps that value.
    """
    sources = st.session_state.setdefault("_sources", {})
    for key, value in values.items():
        st.session_state[key] = value
        if source:
            sources[key] = (value, source)


def source_of(key: str, value, default: str = "set on the page") -> str:
    """Where a widget's current value came from: the preset or fit that set it, or the page."""
    recorded = st.session_state.get("_sources", {}).get(key)
    if recorded is not None and recorded[0] == value:
        return recorded[1]
    return default


# ---------------------------------------------------------------------------
# simulations on demand (outside st.cache_data, with progress)
# ---------------------------------------------------------------------------
_SIM_CACHE: OrderedDict = OrderedDict()
_SIM_LOCK = threading.Lock()
_SIM_MAX = 256


def simulation(key: tuple, run: Callable[[Callable[[float], None]], object], *, text: str = "Simulating…"):
    """Result of ``run(progress)``, computed once per ``key`` with a progress bar, then served from memory.

    ``run`` receives a callback taking the finished fraction; the engines call
    it between chunks of replicates, which is also where a slider move
    interrupts the script. Results are shared across sessions (bounded LRU).
    """
    with _SIM_LOCK:
        if key in _SIM_CACHE:
            _SIM_CACHE.move_to_end(key)
            return _SIM_CACHE[key]
    bar = st.progress(0.0, text=text)

    def progress(fraction: float) -> None:
        fraction = min(max(float(fraction), 0.0), 1.0)
        bar.progress(fraction, text=f"{text} {fraction:.0%}")

    try:
        result = run(progress)
    finally:
        bar.empty()
    with _SIM_LOCK:
        _SIM_CACHE[key] = result
        while len(_SIM_CACHE) > _SIM_MAX:
            _SIM_CACHE.popitem(last=False)
    return result


def clear_simulations() -> None:
    """Forget cached simulations (tests)."""
    with _SIM_LOCK:
        _SIM_CACHE.clear()


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------
@contextlib.contextmanager
def guard(what: str = "Cannot compute this design", *, stop: bool = True):
    """Turn a ``ValueError`` from ``core`` into a clear message (never a traceback).

    With ``stop=True`` the page stops there (nothing below can be computed);
    with ``stop=False`` the rest of the page goes on (e.g. after a bad upload).
    """
    try:
        yield
    except OverflowError:  # a link or a pin with inf, or a number too large for the engines
        st.error(f"**{md_escape(what)}.** A value in the link is out of range (infinite or too large).")
        if stop:
            st.stop()
    except ValueError as err:
        text = str(err)
        if text.startswith(("could not convert string to float", "invalid literal for int()")):
            # a value from a link or a pin that is not a number (core's own messages name their parameter)
            text = "A value in the link is not a number (" + text.rsplit(":", 1)[-1].strip()[:60] + ")."
        st.error(f"**{md_escape(what)}.** {safe_message(text)}")
        if stop:
            st.stop()


# ---------------------------------------------------------------------------
# metrics and verdicts
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """One metric of the metrics row."""

    label: str
    value: str
    help: str | None = None
    se: str | None = None
    caption: str | None = None


def metrics_row(*items: Metric, container=None) -> list:
    """The metrics row; a Monte Carlo standard error goes on its own line under the value.

    Each metric is as wide as its label and value and the row wraps onto a
    second line when they do not fit: equal columns cut values short with an
    ellipsis ("5.0…") on a 1024- or 1280-pixel projector in presentation mode.
    """
    boxes = _metric_boxes(len(items), container)
    for box, item in zip(boxes, items):
        box.metric(item.label, item.value, help=item.help)
        if item.se:
            box.caption(f"± {item.se} (Monte Carlo standard error)")
        if item.caption and not presentation():
            box.caption(item.caption)
    return boxes


def _metric_boxes(count: int, container=None) -> list:
    """``count`` boxes as wide as their content, in a row that wraps when they do not fit."""
    row = (container or st).container(horizontal=True, gap="medium")
    return [row.container(width="content", gap=None) for _ in range(count)]


def metric_slots(count: int, container=None) -> list:
    """``count`` placeholders laid out like :func:`metrics_row`, for metrics filled later in the run."""
    return [box.empty() for box in _metric_boxes(count, container)]


def verdict(power: float, target: float, *, effect: float, type_m: float | None = None, what: str = "") -> None:
    """Under- or adequately powered, in one sentence."""
    if effect == 0 or power is None or not math.isfinite(power):
        return
    if power < target:
        tail = (f" Significant results would overstate the difference by {fmt_ratio(type_m)} on average."
                if type_m is not None and math.isfinite(type_m) else "")
        st.warning(f"**Under-powered:** only {fmt_pct(power)} of experiments like this would find "
                   f"{what or 'the difference'}.{tail}")
    else:
        st.success(f"**Adequately powered** ({fmt_pct(power)} ≥ {target:.0%}).")


def sample_size_metric(sizes: SampleSize | None, target: float, *, unit: str, condition: str = "",
                       help: str = "", limit: int | None = None) -> Metric:
    """The 'sample size for the target power' metric: first n, and the conservative n when power zigzags.

    ``unit`` is what is counted, in the plural ("questions", "items", "sentences", "judgments", "votes"): the label
    reads "Questions for 80% power", so the number answers at a glance what to collect. ``condition`` is appended to
    the label (e.g. " (no worse)") to tell two such metrics on one page apart.
    """
    if not unit:
        raise ValueError("`unit` must name what is counted (e.g. 'questions'), got an empty string")
    label = f"{unit[0].upper()}{unit[1:]} for {target:.0%} power{condition}"
    if sizes is None:
        return Metric(label, "—", help=help or "Set a non-zero difference to size a study.")
    if sizes.first < 0:
        return Metric(label, f"> {limit:,}" if limit else "not reachable", help=help)
    caption = None
    if sizes.differ:
        stays = "not within the search range" if sizes.conservative < 0 else f"{sizes.conservative:,}"
        caption = (f"Power zigzags (exact test): it first reaches {target:.0%} at {sizes.first:,} but stays above "
                   f"it only from {stays}.")
    return Metric(label, f"{sizes.first:,}", help=(help + " " if help else "") +
                  "The first size whose power reaches the target; when power zigzags the caption gives the size "
                  "from which it stays above the target.", caption=caption)


def fmt_points(value: float, *, digits: int = 2, sign: bool = False) -> str:
    """A difference of proportions (accuracies, label rates, win rates) in points on the 0–100 scale: "4.07 pts".

    Every page spells points "pts" in its metrics, so a difference reads the same on every page.
    """
    if value is None or not math.isfinite(value):
        return "—"
    return f"{100 * value:{'+' if sign else ''}.{digits}f} pts"


# ---------------------------------------------------------------------------
# charts and lazy views
# ---------------------------------------------------------------------------
def chart(fig, key: str | None, container=None) -> None:
    """A Plotly chart at full width with the shared (offline) config.

    ``key=None`` for a provisional chart that is redrawn later in the same run
    (a key may appear only once per run).
    """
    # In presentation mode the figure's own large fonts are used as they are (Streamlit's chart theme would
    # replace them with its small defaults).
    (container or st).plotly_chart(fig, key=key, width="stretch",
                                   config=PRESENTATION_CHART_CONFIG if presentation() else CHART_CONFIG,
                                   theme=None if presentation() else "streamlit")


class Views:
    """Lazily filled tabs: only the open one's content is computed and sent."""

    def __init__(self, tabs, keys: list[str]):
        self._tabs = dict(zip(keys, tabs))

    def open(self, key: str) -> bool:
        """True when the tab ``key`` is the one shown (its content must be rendered)."""
        tab = self._tabs[key]
        return tab.open is None or bool(tab.open)

    def __getitem__(self, key: str):
        return self._tabs[key]

    @property
    def current(self) -> str:
        """Key of the open tab."""
        for key, tab in self._tabs.items():
            if tab.open:
                return key
        return next(iter(self._tabs))


def views(labels: Mapping[str, str], *, key: str = "view") -> Views:
    """Tabs whose choice is in the URL (``?view=…``) and whose hidden content is never computed."""
    tabs = st.tabs(list(labels.values()), key=key, bind="query-params", on_change="rerun")
    return Views(tabs, list(labels))


def explain(text: str) -> None:
    """The "explain this page in plain language" expander."""
    with st.expander("Explain this page in plain language"):
        st.markdown(text)


def download_csv(frame: pd.DataFrame | Mapping[str, pd.DataFrame], file_name: str, *, key: str,
                 label: str = "Download the plotted data (CSV)", help: str | None = None,
                 column: str = "chart", container=None) -> None:
    """A CSV download of tidy data; several frames are stacked with a ``chart`` column naming each.

    Text cells are neutralized so a spreadsheet never evaluates them as formulas (:mod:`core.export`).
    """
    if isinstance(frame, Mapping):
        parts = [f.assign(**{column: name}) for name, f in frame.items() if f is not None and len(f)]
        frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    # Deferred: the CSV is written when the button is clicked, not in every rerun (≈ 10 ms of a slider move).
    (container or st).download_button(label, lambda: csv_bytes(frame), file_name=file_name, mime="text/csv", key=key,
                                      help=help or "Tidy table of every point in the charts shown.",
                                      on_click="ignore")


# ---------------------------------------------------------------------------
# plans: download, text for the paper, plan basket
# ---------------------------------------------------------------------------
def current_link() -> str:
    """The shareable URL of the current view (page address plus its query parameters)."""
    from urllib.parse import urlencode

    try:
        base = st.context.url or ""
    except Exception:  # no browser context (tests, bare mode)
        base = ""
    query = urlencode(st.query_params.to_dict())
    return f"{base}?{query}" if query else base


@dataclass(frozen=True)
class PriorSettings:
    """A normal prior on the effect, in the page's display unit (e.g. percentage points)."""

    on: bool
    mean: float
    sd: float
    source: str


def prior_controls(*, default_mean: float, unit: str, low: float, high: float, step: float, sd_default: float,
                   sd_high: float, help_unit: str = "", measured_scale: float | None = None) -> PriorSettings:
    """Sidebar controls of the prior on the effect (URL keys ``assure``, ``prior_mean``, ``prior_sd``).

    When the Analyze page has measured an effect in the same unit (``st.session_state["measured_effect"]``), the
    prior can be taken from it: mean = the estimate, sd = its standard error. ``measured_scale`` converts the
    measured effect (a fraction) to the page's unit (e.g. 100 for percentage points); None disables that option.
    """
    side = st.sidebar
    side.subheader("Uncertain effect (assurance)")
    on = side.toggle("Average power over a prior on the effect", key="assure", bind="query-params",
                     help="Assurance (O'Hagan, Stevens & Campbell 2005): the probability that the study ends "
                     "significant in the hoped-for direction, averaged over your uncertainty about the effect. No sample "
                     "size can push it past the ceiling — the prior probability that the effect points that way.")
    if not on:
        return PriorSettings(False, default_mean, sd_default, "")
    measured = st.session_state.get("measured_effect") if measured_scale is not None else None
    origin = "set on the page"
    if measured is not None:
        use = side.toggle("From my measured results", key="prior_measured",
                          help=f"Use the Analyze page's estimate ({measured['description']}) and its standard error.")
        if use:
            mean = float(np.clip(measured["estimate"] * measured_scale, low, high))
            sd = float(np.clip(measured["se"] * measured_scale, 0.0, sd_high))
            side.caption(f"Prior N({mean:.3g}, {sd:.3g}²) {unit} from the Analyze page.")
            return PriorSettings(True, mean, sd, f"measured on the Analyze page ({measured['description']})")
    mean = side.slider(f"Prior mean of the effect ({unit})", low, high, float(np.clip(default_mean, low, high)), step,
                       key="prior_mean", bind="query-params",
                       help=f"Your best guess of the effect{help_unit}.")
    sd = side.slider(f"Prior SD of the effect ({unit})", 0.0, sd_high, sd_default, step, key="prior_sd",
                     bind="query-params", help="How unsure you are: about 95% of your belief lies within ±2 SD of the "
                     "mean. 0 gives the ordinary power.")
    return PriorSettings(True, float(mean), float(sd), origin)


def cost_controls(*, unit: str, default: float, key: str = "cost_unit", help: str = "") -> tuple[float, str]:
    """Unit cost and currency label (URL keys ``<key>`` and ``currency``); returns (cost per unit, currency)."""
    side = st.sidebar
    if presentation():  # a secondary control: hidden on the projector
        return float(st.session_state.get(key, default) or 0.0), currency_label(st.session_state.get("currency", "USD"))
    side.subheader("Cost")
    c1, c2 = side.columns([2, 1])
    cost = c1.number_input(f"Cost per {unit}", min_value=0.0, max_value=1e6, value=default, step=0.01, format="%.3f",
                           key=key, bind="query-params", help=help or f"What one {unit} costs; 0 to leave costs out.")
    currency = c2.text_input("Currency", "USD", max_chars=8, key="currency", bind="query-params",
                             help="A label for the amounts, e.g. USD, EUR, GBP.")
    return float(cost), currency_label(currency)


def fmt_money(value, currency: str, *, markdown: bool = True) -> str:
    """An amount with its currency label; for Markdown (metrics, captions, messages) unless ``markdown=False``
    (plan documents and charts), where a "$" needs no escape (in Markdown two of them would start LaTeX)."""
    if value is None or not math.isfinite(value):
        return "—"
    label = currency_label(currency)
    return f"{md_escape(label) if markdown else label} {value:,.2f}".strip()


# ---------------------------------------------------------------------------
# pinned designs
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Pin:
    """A design kept for comparison: a name and the values of the page's design widgets (as text)."""

    name: str
    values: tuple

    def get(self, key: str, default=None):
        return dict(self.values).get(key, default)


def _encode_pins(pins: list) -> str:
    from urllib.parse import quote

    return "|".join(quote(p.name, safe="") + "~" + ",".join(f"{quote(k, safe='')}={quote(v, safe='')}"
                                                            for k, v in p.values) for p in pins)


def _decode_pins(text: str) -> list:
    from urllib.parse import unquote

    pins = []
    for chunk in [c for c in str(text).split("|") if c][:8]:
        name, _, rest = chunk.partition("~")
        values = []
        for item in [i for i in rest.split(",") if "=" in i][:40]:
            k, _, v = item.partition("=")
            values.append((unquote(k)[:40], unquote(v)[:200]))
        pins.append(Pin(unquote(name)[:60] or f"design {len(pins) + 1}", tuple(values)))
    return pins


def _pin_state(page: str) -> list:
    store = st.session_state.setdefault("_pins", {})
    if page not in store:
        store[page] = _decode_pins(st.query_params.get("pins", ""))
    return store[page]


def _add_pin(page: str, keys: tuple, name_key: str) -> None:
    pins = _pin_state(page)
    name = str(st.session_state.get(name_key) or "").strip()[:60] or f"design {len(pins) + 1}"
    values = tuple((k, str(st.session_state.get(k))) for k in keys if k in st.session_state)
    pins.append(Pin(name, values))
    del pins[:-8]  # at most 8 pins


def _remove_pin(page: str, index: int) -> None:
    pins = _pin_state(page)
    if 0 <= index < len(pins):
        pins.pop(index)


def _rename_pin(page: str, index: int, key: str) -> None:
    pins = _pin_state(page)
    if 0 <= index < len(pins):
        pins[index] = Pin(str(st.session_state.get(key) or pins[index].name).strip()[:60], pins[index].values)


def pin_controls(page: str, keys, *, label: str) -> list:
    """'Pin this design' controls; returns the pinned designs (they survive reruns and travel in ``?pins=``).

    ``keys`` are the widget keys that define a design on this page; ``label`` is the suggested name of the
    current design (e.g. "n = 500, Δ = 2.0 pp").
    """
    pins = _pin_state(page)
    # keyed, so presentation mode can hide it (a secondary control on a projector; the pins still draw)
    with st.container(key="pins_panel"), \
            st.expander(f"Pinned designs ({len(pins)}) — compare settings on one chart", expanded=False):
        c1, c2 = st.columns([3, 1])
        c1.text_input("Name of the pin", label, key=f"{page}_pin_name", max_chars=60,
                      help="How the pinned curve is labelled.")
        c2.button("📌 Pin this design", key=f"{page}_pin_add", on_click=_add_pin,
                  args=(page, tuple(keys), f"{page}_pin_name"),
                  help="Keeps the current setting as a dashed curve on the charts, next to what you try next.")
        for i, pin in enumerate(pins):
            d1, d2 = st.columns([3, 1])
            d1.text_input("Rename", pin.name, key=f"{page}_pin_rename_{i}_{pin.name}", max_chars=60,
                          label_visibility="collapsed", on_change=_rename_pin,
                          args=(page, i, f"{page}_pin_rename_{i}_{pin.name}"))
            d2.button("Remove", key=f"{page}_pin_remove_{i}", on_click=_remove_pin, args=(page, i))
    encoded = _encode_pins(pins)
    if encoded:
        st.query_params["pins"] = encoded
    elif "pins" in st.query_params:
        del st.query_params["pins"]
    return list(pins)


def pin_int(values: Mapping, key: str, default: int) -> int:
    """A pinned design's whole-number setting (from its link text), or a clear message: a link may carry
    ``n=1e308``, whose ``int`` is a 309-digit number that numpy cannot take."""
    number = float(values.get(key, default))
    if not math.isfinite(number) or abs(number) > 1e12:
        raise OverflowError(key)
    return int(number)


def pinned_designs(pins, compute: Callable, *, name: str = "pin") -> tuple[list, list]:
    """Every pin's curve frame (with a ``pin`` column) and table row, from ``compute(values) -> (frame, summary)``.

    A pin that cannot be computed (a bad value in the link) is reported and skipped; the page goes on.
    """
    frames, rows = [], []
    for pin in pins:
        with guard(f"Cannot compute the pinned design “{pin.name}”", stop=False):
            frame, summary = compute(pin.values)
            frames.append(frame.assign(pin=pin.name))
            rows.append({name: pin.name, **summary})
    return frames, rows


def pinned_curve(frames: list, x: str, y: str) -> pd.DataFrame | None:
    """The pins' ``x`` and ``y`` columns as the tidy ``x, y, pin`` frame the figures draw dashed (None without)."""
    if not frames:
        return None
    return pd.concat([f.rename(columns={x: "x", y: "y"})[["x", "y", "pin"]] for f in frames], ignore_index=True)


def pins_table(current: dict, rows: list, column_config: dict) -> None:
    """The pinned designs' metrics side by side, the current design first (shown only when there are pins)."""
    if rows:
        st.dataframe(pd.DataFrame([current] + rows), hide_index=True, width="stretch", column_config=column_config)


def pin_columns(target: float, **extra) -> dict:
    """Column formats of :func:`pins_table` for power, Type-M and the n reaching ``target``, plus ``extra`` columns."""
    return {"power": st.column_config.NumberColumn("Power", format="percent"),
            "type_m": st.column_config.NumberColumn("Type-M", format="%.2f×"),
            "n_for_target": st.column_config.NumberColumn(f"n for {target:.0%} power", format="%d"), **extra}


def add_to_basket(item) -> None:
    """Callback: keep a design for the combined plan."""
    basket = st.session_state.setdefault("plan_basket", [])
    basket.append(item)


def plan_actions(item, *, key: str = "plan") -> None:
    """The plan block of a planning page: HTML download, the paper's paragraph, the plan basket."""
    from core.plan import plan_html, plan_text

    # Filled only when opened (a rerun): a collapsed expander still sends its content, and the code block would
    # make every first visit download and compile the browser's syntax highlighter (≈ 1.5 MB).
    box = st.expander("Plan this design — download it, copy the text for your paper, or add it to the plan basket",
                      key=f"{key}_open", on_change="rerun")
    if not box.open:
        return
    with box:
        c1, c2, c3 = st.columns(3)
        c1.download_button("Download the plan (HTML)", data=lambda: plan_html([item]).encode("utf-8"),
                           file_name=f"plan_{key}.html", mime="text/html", key=f"{key}_html", on_click="ignore",
                           help="One self-contained file that opens offline: assumptions and their sources, the test, "
                           "the numbers, the charts, references and the link to this view.")
        c2.button("Add to the plan basket", key=f"{key}_add", on_click=add_to_basket, args=(item,),
                  help="Collect designs from several pages into one plan with the total cost.")
        basket = st.session_state.get("plan_basket", [])
        c3.page_link("pages/plan.py", label=f"Open the plan basket ({len(basket)})", icon=":material/shopping_basket:")
        st.markdown("**Copy the text for your paper**")
        st.code(plan_text(item), language=None, wrap_lines=True)


def code_view(snippet: str | Callable[[], str], *, key: str = "code") -> None:
    """The "Python code for this view" expander: a script that reproduces the metrics row with ``core``.

    Filled only when opened, like :func:`plan_actions`: the code block would load the syntax highlighter on every
    first visit. ``snippet`` may be a callable, so the script is built only then.
    """
    box = st.expander("Python code for this view", key=f"{key}_open", on_change="rerun", icon=":material/code:")
    if not box.open:
        return
    with box:
        st.caption("Run it from the repository's root (so `core` imports): it prints the numbers of the metrics "
                   "row above. Change a value and re-run to explore beyond the sliders.")
        st.code(snippet() if callable(snippet) else snippet, language="python")


# ---------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------
# Characters that can start markup in Streamlit's Markdown (GitHub-flavoured, with LaTeX): links and images,
# emphasis, code, HTML, tables, strikethrough, math, e-mail autolinks. URL and "www." autolinks are broken
# separately, so ordinary colons and full stops stay readable.
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#!|<>~$@"})
_AUTOLINK = re.compile(r"(://)|(www)\.|(\\@)", re.IGNORECASE)
# The browser's Markdown (GFM autolink literals) links "http://…", "www.…" and "name@host" even when their
# punctuation is backslash-escaped; a zero-width space inside each breaks the pattern and shows nothing.
_ZWSP = "\u200b"


def md_escape(text) -> str:
    """User text made inert inside Markdown: entities escaped, line breaks flattened, markup characters backslashed."""
    flat = " ".join(str(text).splitlines())
    escaped = html.escape(flat, quote=False).translate(_MD_SPECIAL)
    return _AUTOLINK.sub(lambda m: (_ZWSP + "\\:" + _ZWSP + "\\/\\/" + _ZWSP) if m.group(1) else
                         (m.group(2) + _ZWSP + "\\.") if m.group(2) else (_ZWSP + "\\@" + _ZWSP), escaped)


def safe_message(text: str) -> str:
    """A message from ``core`` made safe for Markdown while keeping its `code spans`.

    Text outside backticks is escaped (:func:`md_escape`); text inside a pair
    of backticks stays a code span, where Markdown, HTML and LaTeX are inert.
    A stray backtick (from user data) is escaped.
    """
    parts = str(text).split("`")
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 1 and i < len(parts) - 1:
            out.append("`" + part.replace("\n", " ") + "`")
        elif i % 2 == 1:
            out.append("\\`" + md_escape(part))
        else:
            out.append(md_escape(part))
    return "".join(out)


def code(text, limit: int = 80) -> str:
    """User text as an inline code span that cannot be broken out of (backticks removed, length capped)."""
    clean = str(text).replace("`", "'").replace("\n", " ")
    if len(clean) > limit:
        clean = clean[: limit - 1] + "…"
    return f"`{clean}`"


def list_of(texts: Iterable, limit: int = 12) -> str:
    """Several user strings as code spans, comma-separated, at most ``limit`` shown."""
    texts = list(texts)
    shown = ", ".join(code(t) for t in texts[:limit])
    return shown + (f" and {len(texts) - limit} more" if len(texts) > limit else "")

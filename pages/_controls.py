"""Shared controls: decision rule, simulation settings, links naming choices by value, presets, prior and cost."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from core.plan.text import currency_label
from pages._frame import presentation

__all__ = ['decision_controls', 'SimulationSettings', 'simulation_controls', 'link_values', 'apply_values', 'source_of', 'PriorSettings', 'prior_controls', 'cost_controls']


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

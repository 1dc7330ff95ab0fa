"""Sequential evaluation: group-sequential and anytime-valid monitoring of a running comparison.

Modules
-------
:mod:`~core.sequential.recursion`
    Recursive numerical integration of the monitored score process
    (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19).
:mod:`~core.sequential.boundaries`
    Pocock, O'Brien–Fleming and Lan–DeMets boundaries (:data:`BOUNDARIES`).
:mod:`~core.sequential.campaign`
    Direct Assessment campaigns tested with Mann–Whitney or t at interim looks
    (Wei, Kocmi & Federmann 2022); their score model in :mod:`~core.sequential.scores`,
    pasted or uploaded past differences in :mod:`~core.sequential.differences`.
:mod:`~core.sequential.general`
    The general engine on a running sum of per-item paired differences:
    :func:`sequential_power`, :func:`sequential_sample_size`.
:mod:`~core.sequential.confidence`
    Confidence sequences: :func:`cs_halfwidth`, :func:`confidence_sequence`.
:mod:`~core.sequential.monitor`
    A running evaluation: :func:`monitor` (verdict and forecast), readers.
:mod:`~core.sequential.adapters`
    The per-item difference model of votes, :class:`SequentialDesign`, :func:`compare_designs`. The LLM
    benchmark's model is :func:`core.llm.sequential.benchmark_item_model`: this engine package imports no
    scenario package (``tests/test_sequential_imports.py``).
:mod:`~core.sequential.sizing`
    :func:`campaign_sample_size`: the judgments a DA campaign needs for a target power.

Every name importable from the former single module ``core.sequential`` is
re-exported here.
"""

from .boundaries import BOUNDARIES, _boundary_z, _spend, boundary, boundary_z  # noqa: F401
from .campaign import *  # noqa: F401,F403
from .campaign import (  # noqa: F401  (private helpers used by tests and benchmarks)
    _batched, _design_bounds, _drifts, _effect_spline, _feasible_delta, _fill_effects, _gamma, _look_sizes,
    _mwu_looks, _run_campaigns, _sequential_probs, _simulate, _simulate_log_gaps, _simulate_scores, _t_looks, _thetas,
    _validate_design, _validate_model, _MAX_BUDGET, _SIM_CHUNK)
from .campaign import __all__ as _campaign_all
from .confidence import CS_GRID, confidence_sequence, cs_boundary, cs_halfwidth, mixture_rho  # noqa: F401
from .general import (  # noqa: F401
    MAX_RECURSION_LOOKS, MAX_SIMULATED_ITEMS, SEQUENTIAL_DESIGNS, SequentialResult, look_schedule,
    sequential_curves, sequential_power, sequential_sample_size)
from .sizing import campaign_sample_size  # noqa: F401
from .adapters import ItemModel, SequentialDesign, compare_designs, vote_item_model  # noqa: F401
from .monitor import (  # noqa: F401
    SEQUENCES, VERDICTS, MonitorDesign, MonitorForecast, MonitorResult, differences_from_log, differences_from_votes,
    monitor, monitor_forecast, read_paired_scores, sample_differences)

__all__ = list(_campaign_all) + [
    "SEQUENTIAL_DESIGNS", "SequentialResult", "sequential_power", "sequential_sample_size", "sequential_curves",
    "look_schedule", "cs_halfwidth", "confidence_sequence", "mixture_rho", "MAX_RECURSION_LOOKS",
    "MAX_SIMULATED_ITEMS", "VERDICTS", "MonitorDesign", "MonitorForecast", "MonitorResult", "monitor",
    "monitor_forecast", "read_paired_scores", "differences_from_log",
    "differences_from_votes", "sample_differences", "SEQUENCES", "ItemModel", "SequentialDesign", "vote_item_model",
    "compare_designs", "campaign_sample_size"]


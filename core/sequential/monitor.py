"""Monitoring a running evaluation of two systems: running estimate, confidence sequence, verdict, forecast.

The items so far give per-item differences ``d_i`` (system B minus A: a
question's mean score difference, a vote coded +1 for B, -1 for A, 0 for a
tie). The confidence sequence of :func:`core.sequential.confidence_sequence`
is valid at every n, so the verdict may be read after every item:

* ``"b_better"`` / ``"a_better"`` — 0 is outside the sequence;
* ``"no_difference"`` — the sequence lies inside (-X, X): no difference of at
  least X (the smallest difference that matters) is plausible;
* ``"budget"`` — the planned items are used up without either;
* ``"continue"`` — otherwise, with the expected number of further items
  forecast by simulating the rest of the run under the planned effect.

The planned group-sequential boundaries (:func:`core.sequential.boundary_z`)
are shown on the estimate scale, ``± c_k sd / √n_k`` at the planned looks.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd

from .. import uploads
from ..design import Design, spec
from ..validation import as_floats, check_alpha, check_choice, check_int, check_real, rng_of
from .boundaries import BOUNDARIES, _boundary_z, boundary_z, equal_information
from .confidence import confidence_sequence, cs_boundary, mixture_rho
from .monitor_betting import forecast_betting

__all__ = ["VERDICTS", "SEQUENCES", "MonitorDesign", "MonitorResult", "MonitorForecast", "monitor",
           "monitor_forecast", "read_paired_scores", "differences_from_log",
           "differences_from_votes", "sample_differences"]

VERDICTS = ("b_better", "a_better", "no_difference", "budget", "continue")
_FORECAST_CHUNK = 4_000_000
#: Most item counts at which a simulated continuation is checked (every item for runs up to this long).
_FORECAST_LOOKS = 2000


@dataclass(frozen=True)
class MonitorResult:
    """The state of a monitored run.

    Attributes
    ----------
    sequence : pandas.DataFrame
        ``n, estimate, lower, upper`` (:func:`confidence_sequence`).
    verdict : str
        One of :data:`VERDICTS`.
    message : str
        The verdict in words ("stop: B is better", …).
    n : int
        Items so far.
    sd : float
        Per-item SD used (given, or the sample SD of the differences).
    method : str
        ``"normal mixture"`` or ``"betting"``.
    first_n : int or None
        First n at which 0 left the sequence.
    looks : tuple of int
        Planned group-sequential looks (items).
    look_bounds : tuple of float
        Efficacy boundary on the running estimate at each look: ``c_k sd / √n_k``.
    group_stop : int or None
        The first planned look already passed at which the running estimate was beyond its boundary.
    expected_more, expected_more_se : float
        Forecast further items until a stop (or the budget) under the planned
        effect, with its Monte Carlo SE (0 when the run has stopped; ``nan`` while it continues when
        :func:`monitor` was asked for no forecast).
    p_stop_effect : float
        Share of simulated continuations that end with a significant difference (``nan`` likewise).
    paths : pandas.DataFrame
        A few simulated continuations for display: ``path, n, estimate, stopped``.
    target, n_max, n_sims : float, int, int
        The smallest difference that matters, the items planned and the continuations asked for.
    bounds : (float, float) or None
        The range of the differences for the betting sequence (``None``: the normal mixture).
    """

    sequence: pd.DataFrame
    verdict: str
    message: str
    n: int
    sd: float
    method: str
    first_n: int | None
    looks: tuple
    look_bounds: tuple
    group_stop: int | None
    expected_more: float
    expected_more_se: float
    p_stop_effect: float
    paths: pd.DataFrame
    target: float
    n_max: int
    n_sims: int
    bounds: tuple | None = None

    def with_forecast(self, forecast: MonitorForecast) -> MonitorResult:
        """This result with ``forecast``'s fields (:func:`monitor_forecast`)."""
        return dataclasses.replace(self, message=forecast.message, expected_more=forecast.expected_more,
                                   expected_more_se=forecast.expected_more_se, p_stop_effect=forecast.p_stop_effect,
                                   paths=forecast.paths,
                                   n_sims=self.n_sims if forecast.n_sims is None else forecast.n_sims)


@dataclass(frozen=True)
class MonitorForecast:
    """What the simulated continuations say (:func:`monitor_forecast`): the fields of :class:`MonitorResult` of the
    same names."""

    message: str
    expected_more: float
    expected_more_se: float
    p_stop_effect: float
    paths: pd.DataFrame
    #: Continuations simulated (``None``: as asked; a long betting forecast may use fewer, its SE says so).
    n_sims: int | None = None


def _verdict(lower, upper, target, n, n_max):
    if lower > 0:
        return "b_better", "stop: B is better"
    if upper < 0:
        return "a_better", "stop: A is better"
    if -target < lower and upper < target:
        return "no_difference", f"stop: no difference of at least {target:g} is plausible"
    if n >= n_max:
        return "budget", "stop: the planned items are used up, and neither system is shown better"
    return "continue", "continue"


def _forecast(start_sum, n, n_max, delta, sd, target, alpha, rho, n_sims, n_paths, rng):
    """Continue the run from (n, S_n) to n_max under ``delta``; stop rules as :func:`_verdict` on the mixture CS.

    The continuation is checked at up to :data:`_FORECAST_LOOKS` item counts
    between n and ``n_max`` (every item for short runs); the sums at those
    counts are exact draws of the normal model (increments N(δm, σ²m) over m
    items). It uses the normal-mixture boundary without the running
    intersection, and a coarse grid of checks can only stop later than item
    by item, so the forecast errs towards more items.
    """
    t = np.unique(np.linspace(n + 1, n_max, min(n_max - n, _FORECAST_LOOKS)).round()).astype(float)
    incr = np.diff(np.concatenate([[float(n)], t]))
    half = cs_boundary(t, sd, alpha=alpha, rho=rho) / t
    frame_at = np.unique(np.linspace(0, t.size - 1, min(t.size, 40)).round().astype(int))
    used = np.empty(n_sims)
    effect = np.zeros(n_sims, dtype=bool)
    shown = []
    chunk = max(1, _FORECAST_CHUNK // t.size)
    for start in range(0, n_sims, chunk):
        rows = min(chunk, n_sims - start)
        # the same arithmetic as z·σ√m + δm, S_n + cumsum, S/t, est ∓ half, in place on one (rows × checks)
        # array: its temporaries cost a tenth of a Monitor move
        est = rng.standard_normal((rows, t.size))
        est *= (sd * np.sqrt(incr))[None, :]
        est += (delta * incr)[None, :]
        np.cumsum(est, axis=1, out=est)
        est += start_sum
        est /= t[None, :]
        lo = np.subtract(est, half[None, :])
        hi = np.add(est, half[None, :])
        sig = (lo > 0) | (hi < 0)
        stop = sig | ((lo > -target) & (hi < target))
        stop[:, -1] = True
        k = np.argmax(stop, axis=1)
        used[start:start + rows] = t[k] - n
        effect[start:start + rows] = sig[np.arange(rows), k]
        if start == 0:
            for p in range(min(n_paths, rows)):
                idx = frame_at[frame_at <= k[p]]
                if idx.size == 0 or idx[-1] != k[p]:
                    idx = np.append(idx, k[p])
                shown.append(pd.DataFrame({"path": p, "n": t[idx].astype(int), "estimate": est[p, idx],
                                           "stopped": idx == k[p]}))
    paths = pd.concat(shown, ignore_index=True) if shown else pd.DataFrame(columns=["path", "n", "estimate",
                                                                                       "stopped"])
    se = float(used.std(ddof=1) / math.sqrt(n_sims)) if n_sims > 1 else math.nan
    return float(used.mean()), se, float(effect.mean()), paths


#: The confidence sequences of the Monitor page (URL key ``cs``): betting on differences in [−1, 1], or the normal
#: mixture with the sample SD.
SEQUENCES = ("bounded", "mixture")


@dataclass(frozen=True)
class MonitorDesign(Design):
    """How a running comparison is watched: everything :func:`monitor` needs but the data.

    The fields are :func:`monitor`'s keyword arguments (the smallest difference that matters, the most items
    planned, α, a known per-item SD or score bounds for the betting sequence, the planned group looks and
    their boundary, the forecast's simulations and seed), declared once with :func:`core.design.spec`: the
    Monitor page's defaults, the engine's valid ranges and the page's URL keys. ``sequence`` (URL key ``cs``)
    chooses the confidence sequence: ``"bounded"`` — betting, with ``bounds`` (default (−1, 1): accuracies and
    votes) — or ``"mixture"`` — the normal mixture (no ``bounds``). The Monitor page builds it once; ``.run(x)``
    watches the items so far. Frozen and compared by value, so it is a cache key.

    Examples
    --------
    >>> d = MonitorDesign(target=0.2, n_max=400, bounds=(-1.0, 1.0))
    >>> x = np.r_[np.ones(60), -np.ones(20)]
    >>> d.run(x).verdict == monitor(x, target=0.2, n_max=400, bounds=(-1, 1)).verdict
    True
    >>> MonitorDesign.from_params({"cs": "mixture", "looks": "5"}).bounds is None
    True
    """

    target: float = spec(
        0.05, low=0.0, high=1e6, low_open=True, ui_low=0.001, ui_high=100.0, step=0.01, fmt="%.3f", key="target",
        unit="score units", label="Smallest difference that matters (X)",
        help="In the items' units: 0.05 = 5 accuracy points; for votes coded ±1, 0.1 = a 55/45 split. The run stops "
        "for 'no difference' when the sequence lies inside ±X.")
    n_max: int = spec(1000, low=2, high=10_000_000, ui_high=1_000_000, step=100, key="n_max", unit="items",
                      label="Planned items",
                      help="The most items the run may use; the confidence sequence is tuned for it.")
    alpha: float = spec(0.05, low=0.0, high=0.5, low_open=True, ui_low=0.001, key="alpha", label="α (two-sided)",
                        help="The sequence misses the true difference at any n with probability at most α, however "
                        "often you look.")
    sd: float | None = spec(None, kind="float", low=0.0, high=1e6, low_open=True, ui_low=0.01,
                            key="sd", unit="score units",
                            label="Per-item SD", help="A known per-item SD (default: the sample SD of the data).")
    bounds: tuple | None = None
    looks: int = spec(3, low=1, high=10, step=1, key="looks", label="Planned group looks K",
                      help="The group-sequential plan drawn for comparison: K analyses at round(n_max·k/K) items, "
                      "with boundaries solved at the looks as rounded (size exactly α).")
    boundary: str = spec("obrien_fleming", choices=BOUNDARIES, key="boundary", label="Group boundary",
                         help="How α is shared among the planned looks.")
    n_sims: int = spec(2000, low=100, high=100_000, step=100, key="n_sims", unit="runs",
                       label="Simulated continuations", help="Simulated continuations of the forecast.")
    n_paths: int = spec(30, low=0, high=200, step=1, key="n_paths", unit="runs", label="Continuations drawn",
                        help="How many simulated continuations the animation draws.")
    seed: int = spec(1, low=0, high=2**31 - 1, step=1, key="seed", label="Simulation seed",
                     help="Seed of the simulated continuations (forecast and animation).")
    sequence: str = spec(
        "bounded", choices=SEQUENCES, key="cs", label="Confidence sequence",
        help="Betting (Waudby-Smith & Ramdas 2024) needs no variance guess and is valid for any distribution of "
        "differences in [−1, 1] (accuracies, votes). The normal mixture (Howard et al. 2021) treats the sample SD "
        "as known: narrower early, an approximation.")

    def __post_init__(self):
        self.check_fields()
        if self.sequence == "mixture":
            if self.bounds is not None:
                raise ValueError("`bounds` must be None for the normal-mixture sequence (`sequence` = 'mixture'); "
                                 f"got {self.bounds!r}.")
            return
        # refused here rather than at .run(): the betting sequence bets on x scaled into the bounds (Waudby-Smith &
        # Ramdas 2024), which needs a finite range; a text ("ab") is not a pair even when it has two characters
        problem = f"`bounds` must be a pair (low, high) of finite numbers with low < high, got {self.bounds!r}."
        if isinstance(self.bounds, (str, bytes)):
            raise ValueError(problem)
        try:
            bounds = (-1.0, 1.0) if self.bounds is None else tuple(float(b) for b in self.bounds)
        except (TypeError, ValueError):
            raise ValueError(problem) from None
        if len(bounds) != 2 or not (math.isfinite(bounds[0]) and math.isfinite(bounds[1]) and bounds[0] < bounds[1]):
            raise ValueError(problem)
        object.__setattr__(self, "bounds", bounds)

    #: URL key of ``bounds`` (not a declared field: a pair of numbers, written "low,high").
    BOUNDS_KEY: ClassVar[str] = "cs_bounds"

    def to_params(self) -> dict[str, str]:
        """The declared fields as link text, and ``bounds`` as "low,high" when the betting sequence has other
        bounds than its default (−1, 1)."""
        params = super().to_params()
        if self.bounds is not None and tuple(self.bounds) != (-1.0, 1.0):
            params[self.BOUNDS_KEY] = f"{self.bounds[0]!r},{self.bounds[1]!r}"
        return params

    @classmethod
    def from_params(cls, params=None, *, messages=None):
        """:meth:`core.design.Design.from_params`, with ``cs_bounds`` ("low,high") read into ``bounds``."""
        params = dict(params or {})
        raw = params.pop(cls.BOUNDS_KEY, None)
        design = super().from_params(params, messages=messages)
        raw = raw[-1] if isinstance(raw, (list, tuple)) and raw else raw
        if raw is None or design.sequence != "bounded":
            return design
        try:
            low, high = (float(v) for v in str(raw).split(","))
            return dataclasses.replace(design, bounds=(low, high))
        except (ValueError, TypeError):
            if messages is not None:
                messages.append(f"`bounds` must read 'low,high' with finite low < high, got {str(raw)[:40]!r}; the "
                                "default (−1, 1) is used.")
            return design

    def run(self, x, *, forecast=True) -> MonitorResult:
        """:func:`monitor` on the per-item differences so far (``forecast=False``: the sequence, verdict and
        planned looks only)."""
        return monitor(x, target=self.target, n_max=self.n_max, alpha=self.alpha, sd=self.sd, bounds=self.bounds,
                       looks=self.looks, boundary=self.boundary, n_sims=self.n_sims, n_paths=self.n_paths,
                       seed=self.seed, forecast=forecast)

    def forecast(self, result: MonitorResult, x) -> MonitorForecast:
        """:func:`monitor_forecast` of ``result`` (``self.run(x, forecast=False)``): ``result.with_forecast(…)`` is
        ``self.run(x)``."""
        return monitor_forecast(result, x, alpha=self.alpha, n_sims=self.n_sims, n_paths=self.n_paths,
                                seed=self.seed)


def monitor(x, *, target, n_max, alpha=0.05, sd=None, bounds=None, looks=3, boundary="obrien_fleming",
            n_sims=2000, n_paths=30, seed=0, forecast=True) -> MonitorResult:
    """Where a running comparison stands, and what to do next.

    Parameters
    ----------
    x : array_like
        Per-item differences so far, in arrival order (B minus A).
    target : float
        X > 0: the smallest difference that matters (the planned effect).
    n_max : int
        Items planned (the forecast never goes beyond).
    alpha : float, optional
        Level of the confidence sequence and of the planned boundaries.
    sd : float, optional
        Per-item SD (default: the sample SD of ``x``).
    bounds : (float, float), optional
        Known range of the differences: use the betting CS (no variance guess).
    looks, boundary : optional
        The planned group-sequential design drawn for comparison.
    n_sims, n_paths, seed : optional
        Simulated continuations for the forecast, how many to return for
        display, and the seed.
    forecast : bool, optional
        False: skip the simulated continuations (a page draws the sequence first and adds the forecast after);
        a run that continues then has ``nan`` for ``expected_more``, ``expected_more_se`` and
        ``p_stop_effect``, no ``paths`` and the message "continue". Everything else is as with the forecast.

    Returns
    -------
    MonitorResult

    Examples
    --------
    >>> r = monitor(np.r_[np.ones(60), -np.ones(20)], target=0.2, n_max=400, bounds=(-1, 1))
    >>> r.message
    'stop: B is better'
    """
    values = as_floats("x", x, what="the per-item differences so far, as numbers").ravel()
    target = check_real("target", target, low=0.0, high=1e6, low_open=True)
    n_max = check_int("n_max", n_max, low=2, high=10_000_000)
    alpha = check_alpha(alpha)
    looks = check_int("looks", looks, low=1, high=10)
    boundary = check_choice("boundary", boundary, BOUNDARIES)
    n_sims = check_int("n_sims", n_sims, low=100, high=100_000)
    n_paths = check_int("n_paths", n_paths, low=0, high=200)
    if values.size > n_max:
        raise ValueError(f"`n_max` must be at least the {values.size:,} items already seen, got {n_max:,}.")
    if values.size < 2:
        raise ValueError(f"`x` must hold at least 2 items so far, got {values.size}.")
    if not np.all(np.isfinite(values)):
        raise ValueError("`x` must hold finite numbers only (no NaN or infinite differences).")
    if sd is not None:
        sd_used = check_real("sd", sd, low=0.0, high=1e6, low_open=True)
    elif np.ptp(values) > 0:
        sd_used = float(np.std(values, ddof=1))
    elif bounds is not None:
        # betting needs no SD; only the planned looks drawn for comparison do: the largest SD a difference inside
        # the bounds can have (Popoviciu's inequality), so those boundaries err wide
        sd_used = check_real("sd", (float(bounds[1]) - float(bounds[0])) / 2, low=0.0, high=1e6, low_open=True)
    else:
        raise ValueError("`sd` cannot be estimated from constant differences; give `sd` (or `bounds` for the betting "
                         "sequence).")
    seq = confidence_sequence(values, alpha=alpha, sd=sd_used, plan_n=n_max, bounds=bounds)
    n = int(values.size)
    last = seq.iloc[-1]
    verdict, message = _verdict(float(last["lower"]), float(last["upper"]), target, n, n_max)
    # (with fewer items than looks some looks coincide: each distinct one is analysed once)
    planned = np.unique([max(1, round(n_max * k / looks)) for k in range(1, looks + 1)])
    # looks rounded to whole items are unequally spaced unless K divides n_max: the boundaries are solved at the
    # realised information fractions, so the plan's size is exactly α (Lan & DeMets 1983; Jennison & Turnbull
    # 2000, §7.2), as the general engine's group designs do
    information = equal_information(planned)
    z = boundary_z(planned.size, alpha=alpha, kind=boundary) if information is None else \
        np.asarray(_boundary_z(planned.size, float(alpha), boundary, 0.0, information))
    bounds_est = z * sd_used / np.sqrt(planned)
    group_stop = None
    for nk, b in zip(planned, bounds_est):
        if nk <= n and abs(seq["estimate"].iloc[nk - 1]) >= b:
            group_stop = int(nk)
            break
    # the forecast's fields, filled by monitor_forecast (a stopped run's at once: nothing is simulated)
    result = MonitorResult(sequence=seq, verdict=verdict, message=message, n=n, sd=sd_used,
                           method=seq.attrs["method"], first_n=seq.attrs["first_n"],
                           looks=tuple(int(v) for v in planned), look_bounds=tuple(float(v) for v in bounds_est),
                           group_stop=group_stop, expected_more=math.nan, expected_more_se=math.nan,
                           p_stop_effect=math.nan, paths=_NO_PATHS.copy(), target=target, n_max=n_max, n_sims=n_sims,
                           bounds=None if bounds is None else tuple(float(b) for b in bounds))
    if forecast or verdict != "continue":
        return result.with_forecast(monitor_forecast(result, values, alpha=alpha, n_sims=n_sims, n_paths=n_paths,
                                                     seed=seed))
    return result


_NO_PATHS = pd.DataFrame(columns=["path", "n", "estimate", "stopped"])


def monitor_forecast(result: MonitorResult, x, *, alpha=0.05, n_sims=2000, n_paths=30, seed=0) -> MonitorForecast:
    """The simulated continuations of a run: what :func:`monitor` adds to ``monitor(x, …, forecast=False)``.

    Parameters
    ----------
    result : MonitorResult
        ``monitor(x, …, forecast=False)`` of the same items.
    x : array_like
        The items of ``result`` (their sum starts the continuations).
    alpha, n_sims, n_paths, seed : optional
        As in :func:`monitor` (the same values give the same forecast).

    Returns
    -------
    MonitorForecast
        For a run that continues, the simulated continuations under the smallest difference that matters, in
        the direction of the running estimate, each checked with the run's own sequence: the normal mixture
        (:func:`_forecast`) or betting (:func:`core.sequential.monitor_betting.forecast_betting`, whose
        continuations draw items from those seen, tilted to that mean); for a stopped run, nothing more to expect.
        ``result.with_forecast(…)`` is what :func:`monitor` returns.
    """
    if result.verdict != "continue":
        return MonitorForecast(result.message, 0.0, 0.0, float(result.verdict in ("a_better", "b_better")),
                               _NO_PATHS.copy())
    values = np.asarray(x, dtype=float).ravel()
    if values.size != result.n:
        raise ValueError(f"`x` must hold the {result.n:,} items of `result`, got {values.size:,}.")
    alpha = check_alpha(alpha)
    n_sims = check_int("n_sims", n_sims, low=100, high=100_000)
    n_paths = check_int("n_paths", n_paths, low=0, high=200)
    sign = 1.0 if result.sequence["estimate"].iloc[-1] >= 0 else -1.0
    if result.method == "betting":
        lo, hi = result.bounds
        # a planned difference at the end of the range (or beyond it) means every further item at that end
        delta = float(np.clip(sign * result.target, lo + 1e-9 * (hi - lo), hi - 1e-9 * (hi - lo)))
        more, more_se, p_effect, paths, n_sims = forecast_betting(values, result.n_max, delta, result.target, alpha,
                                                                  (lo, hi), n_sims, n_paths, rng_of(seed))
    else:
        rho = mixture_rho(result.n_max, result.sd, alpha=alpha)
        more, more_se, p_effect, paths = _forecast(float(values.sum()), result.n, result.n_max,
                                                   sign * result.target, result.sd, result.target, alpha, rho,
                                                   n_sims, n_paths, rng_of(seed))
    return MonitorForecast(f"continue: about {math.ceil(more):,} more items expected", more, more_se, p_effect,
                           paths, n_sims)


# ---------------------------------------------------------------------------
# inputs: the readers of the other pages, turned into per-item differences
# ---------------------------------------------------------------------------
def _two_models(models, model_a, model_b, what):
    names = list(dict.fromkeys(models))
    if len(names) < 2:
        raise ValueError(f"{what} must hold two systems; found {len(names)}.")
    a = model_a if model_a is not None else names[0]
    b = model_b if model_b is not None else next(m for m in names if m != a)
    for label, m in (("model_a", a), ("model_b", b)):
        if m not in names:
            raise ValueError(f"`{label}` must be one of the systems in the file; {m!r} is not.")
    if a == b:
        raise ValueError("`model_a` and `model_b` must be different systems.")
    return a, b


def differences_from_log(log: pd.DataFrame, *, model_a=None, model_b=None) -> pd.DataFrame:
    """Per-question differences from a per-answer log (:func:`core.llm.read_benchmark_log`).

    Each question's score is the mean over its samples; questions answered by
    both systems are kept, in the order they first appear.

    Returns
    -------
    pandas.DataFrame
        ``item, a, b, difference`` (b - a); ``attrs["models"] = (A, B)``.
    """
    a, b = _two_models(log["model"].astype(str), model_a, model_b, "The log")
    means = log[log["model"].isin([a, b])].groupby(["question", "model"], sort=False)["score"].mean().unstack()
    means = means.dropna()
    if len(means) < 2:
        raise ValueError(f"The log must have at least 2 questions answered by both {a!r} and {b!r}.")
    out = pd.DataFrame({"item": means.index.astype(str), "a": means[a].to_numpy(), "b": means[b].to_numpy()})
    out["difference"] = out["b"] - out["a"]
    out.attrs["models"] = (a, b)
    return out


def differences_from_votes(votes: pd.DataFrame, *, model_a=None, model_b=None) -> pd.DataFrame:
    """Votes between two systems (:func:`core.pairwise.read_votes`) coded +1 (B wins), -1 (A wins), 0 (tie).

    Without names, the pair with the most battles is used. Votes keep file order.
    """
    ma, mb = votes["model_a"].astype(str).to_numpy(), votes["model_b"].astype(str).to_numpy()
    if model_a is None or model_b is None:
        pairs = pd.Series([tuple(sorted(p)) for p in zip(ma, mb)])
        if pairs.empty:
            raise ValueError("The votes file has no battles.")
        top = pairs.value_counts().index[0]
        model_a, model_b = top
    keep = ((ma == model_a) & (mb == model_b)) | ((ma == model_b) & (mb == model_a))
    if keep.sum() < 2:
        raise ValueError(f"`model_a` and `model_b` must have at least 2 battles between them; {model_a!r} and "
                         f"{model_b!r} have {int(keep.sum())}.")
    winner = votes["winner"].astype(str).to_numpy()[keep]
    first = ma[keep]
    b_won = ((winner == "model_a") & (first == model_b)) | ((winner == "model_b") & (first == model_a))
    a_won = ((winner == "model_a") & (first == model_a)) | ((winner == "model_b") & (first == model_b))
    diff = b_won.astype(float) - a_won.astype(float)
    out = pd.DataFrame({"item": np.arange(1, diff.size + 1).astype(str), "a": a_won.astype(float),
                        "b": b_won.astype(float), "difference": diff})
    out.attrs["models"] = (str(model_a), str(model_b))
    return out


def read_paired_scores(data, *, name="The file", read_log=None) -> pd.DataFrame:
    """Per-item scores of two systems from an upload.

    Two layouts are read:

    * wide: a header and two numeric columns, one per system (an optional
      ``item``/``question``/``id`` column names the items), one row per item
      in arrival order;
    * long: the LLM page's per-answer log (``question, model, score``, CSV or
      JSON Lines), averaged per question: read by ``read_log`` (pass
      :func:`core.llm.read_benchmark_log`; this engine package reads no
      scenario's format itself).

    ``read_log(data, name=name)`` returns the per-answer log for
    :func:`differences_from_log`; without it a log is refused with a message
    saying so.

    Returns
    -------
    pandas.DataFrame
        ``item, a, b, difference`` (b - a); ``attrs["models"] = (A, B)``.

    Raises
    ------
    ValueError
        Unreadable files (limits and messages of :mod:`core.uploads`), missing
        or non-numeric columns (the message names the row), fewer than 2 items.
    """
    if uploads.looks_like_json(data):
        return _read_log(data, name, read_log)
    table = uploads.read_table(data, name=name, min_columns=2, header="yes")
    lower = [str(c).strip().lower() for c in table.columns]
    if "model" in lower or "model_name" in lower or "system" in lower:
        return _read_log(data, name, read_log)
    id_names = {"item", "question", "id", "question_id", "doc_id"}
    ids = [c for c, low in zip(table.columns, lower) if low in id_names]
    systems = [c for c, low in zip(table.columns, lower) if low not in id_names]
    if len(systems) < 2:
        raise ValueError(f"{name} needs two score columns, one per system; found {len(systems)}.")
    a, b = systems[:2]
    columns = {}
    for col in (a, b):
        cells = table[col]
        values = pd.to_numeric(cells, errors="coerce")
        bad = np.nonzero(~np.isfinite(values.to_numpy(dtype=float)))[0]
        if bad.size:
            row = int(bad[0])
            raise ValueError(f"{name}, row {row + 2:,}, column {str(col)[:40]!r}: {str(cells.iloc[row])[:20]!r} is "
                             "not a number.")
        columns[col] = values.to_numpy(dtype=float)
    if len(table) < 2:
        raise ValueError(f"{name} must have at least 2 items.")
    item = table[ids[0]].astype(str).to_numpy() if ids else np.arange(1, len(table) + 1).astype(str)
    out = pd.DataFrame({"item": item, "a": columns[a], "b": columns[b]})
    with np.errstate(over="ignore", invalid="ignore"):
        out["difference"] = out["b"] - out["a"]
    huge = np.nonzero(~np.isfinite(out["difference"].to_numpy()) | (out["difference"].abs().to_numpy() > 1e12))[0]
    if huge.size:
        raise ValueError(f"{name}, row {int(huge[0]) + 2:,}: the scores must differ by at most 10¹² (got "
                         f"{out['a'].iloc[huge[0]]:g} and {out['b'].iloc[huge[0]]:g}).")
    out.attrs["models"] = (str(a), str(b))
    return out


def _read_log(data, name, read_log) -> pd.DataFrame:
    if read_log is None:
        raise ValueError(f"{name} is a per-answer log (question, model, score): read it with `read_log` = "
                         "core.llm.read_benchmark_log.")
    return differences_from_log(read_log(data, name=name))


#: The built-in example: the LLM page's synthetic per-answer log (``question, cluster, model, sample, score``).
SAMPLE_LOG = Path(__file__).resolve().parents[1] / "data" / "llm_sample" / "benchmark_log.csv"


def sample_differences() -> pd.DataFrame:
    """The built-in example: the LLM page's synthetic log (300 questions, 5 samples each), per-question differences.

    The shipped file (:data:`SAMPLE_LOG`) is a plain CSV of 0/1 scores, read directly (the same per-question means as
    :func:`core.llm.sample_log` gives, which the tests check).
    """
    log = pd.read_csv(SAMPLE_LOG, dtype={"question": str, "cluster": str, "model": str})
    log["score"] = log["score"].astype(float)
    return differences_from_log(log)

"""The lab-meeting demo: many replications of one under-powered experiment (Card et al. 2020, Figure 1 and §2).

Two systems are compared by ``n`` raters, each preferring the new system
with probability ``p_new`` (no ties); the exact two-sided sign test decides.
:func:`replay_experiments` simulates ``n_experiments`` such studies with a
fixed seed — the same model as :func:`core.accuracy.preference_power`'s
simulation engine — and :func:`running_summary` follows, experiment by
experiment, what a reader of the published (significant) results would see:
the share that is significant, the mean of the significant estimates next to
the true difference, the exaggeration ratio (Type-M) and the share of
significant results with the wrong sign (Type-S). Their final values agree
with the exact engine within Monte Carlo error (tested). :func:`demo_teaser` is
the home page's card for the demo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .accuracy import preference_power, preference_sample_sizes, pvalue_from_counts
from .plan.text import fmt_pct
from .results import PowerResult
from .teaser import Teaser
from .validation import check_alpha, check_int, check_probability, rng_of

__all__ = ["Replay", "replay_experiments", "running_summary", "significance_filter", "demo_teaser"]


@dataclass(frozen=True)
class Replay:
    """Simulated replications of one design.

    Attributes
    ----------
    n : int
        Raters per experiment.
    p_new : float
        Share of raters preferring the new system.
    true_effect : float
        The true preference gap 2·p_new − 1.
    alpha : float
    experiments : pandas.DataFrame
        One row per simulated experiment: ``experiment`` (1 …), ``prefer_new``
        (count), ``observed`` (gap), ``p_value``, ``significant``, ``wrong_sign``.
    exact : PowerResult
        The exact engine's numbers for the same design.
    n_for_target : int
        Raters needed for 80% power (first size reaching it).
    """

    n: int
    p_new: float
    true_effect: float
    alpha: float
    experiments: pd.DataFrame = field(repr=False)
    exact: PowerResult = field(repr=False)
    n_for_target: int = -1


def replay_experiments(n, p_new, *, n_experiments=200, alpha=0.05, seed=2020, target_power=0.8) -> Replay:
    """Simulate ``n_experiments`` head-to-head preference studies of ``n`` raters each.

    Parameters
    ----------
    n : int
        Raters per study (2 … 100,000).
    p_new : float
        Probability that a rater prefers the new system, in (0, 1).
    n_experiments : int, optional
        Replications (10 … 5,000).
    alpha : float, optional
        Two-sided level of the exact sign test.
    seed : int, optional
        Fixes the replications (a lab meeting sees the same story every time).
    target_power : float, optional
        For ``n_for_target``.

    Returns
    -------
    Replay

    Examples
    --------
    >>> r = replay_experiments(25, 0.6, n_experiments=200, seed=1)
    >>> int(r.experiments["significant"].sum()) < 60  # ≈ 15% of 200 are significant
    True
    """
    n = check_int("n", n, low=2, high=100_000)
    p_new = check_probability("p_new", p_new, open_low=True, open_high=True)
    n_experiments = check_int("n_experiments", n_experiments, low=10, high=5000)
    alpha = check_alpha(alpha)
    rng = rng_of(seed)
    wins = rng.binomial(n, p_new, size=n_experiments)
    p = pvalue_from_counts(np.minimum(wins, n - wins), np.full(n_experiments, n), "exact")
    observed = (2 * wins - n) / n
    significant = (p <= alpha) & (2 * wins != n)
    effect = 2 * p_new - 1
    wrong = significant & (np.sign(observed) != np.sign(effect)) if effect != 0 else np.zeros(n_experiments, bool)
    frame = pd.DataFrame({"experiment": np.arange(1, n_experiments + 1), "prefer_new": wins, "observed": observed,
                          "p_value": p, "significant": significant, "wrong_sign": wrong})
    exact = preference_power(n, p_new, 1 - p_new, alpha=alpha)
    sizes = preference_sample_sizes(p_new, 1 - p_new, alpha=alpha, target_power=target_power) if effect != 0 else None
    return Replay(n=n, p_new=p_new, true_effect=effect, alpha=alpha, experiments=frame, exact=exact,
                  n_for_target=sizes.first if sizes is not None else -1)


def running_summary(replay: Replay) -> pd.DataFrame:
    """What the significant results say after each experiment.

    Returns
    -------
    pandas.DataFrame
        One row per experiment k: ``experiment``, ``significant`` (count so
        far), ``share_significant``, ``mean_significant`` (mean observed gap of
        the significant ones, nan before the first), ``type_m`` (mean
        |significant gap| / |true gap|), ``wrong_sign`` (count) and
        ``share_wrong_sign`` (among the significant).
    """
    e = replay.experiments
    sig = e["significant"].to_numpy()
    k = np.arange(1, len(e) + 1)
    count = np.cumsum(sig)
    total = np.cumsum(np.where(sig, e["observed"].to_numpy(), 0.0))
    total_abs = np.cumsum(np.where(sig, np.abs(e["observed"].to_numpy()), 0.0))
    wrong = np.cumsum(e["wrong_sign"].to_numpy())
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(count > 0, total / np.maximum(count, 1), math.nan)
        type_m = np.where(count > 0, total_abs / np.maximum(count, 1) / abs(replay.true_effect), math.nan) \
            if replay.true_effect != 0 else np.full(len(e), math.nan)
        share_wrong = np.where(count > 0, wrong / np.maximum(count, 1), math.nan)
    return pd.DataFrame({"experiment": k, "significant": count, "share_significant": count / k,
                         "mean_significant": mean, "type_m": type_m, "wrong_sign": wrong,
                         "share_wrong_sign": share_wrong})


def significance_filter(n=25, effects=(0.04, 0.08, 0.12, 0.16, 0.2, 0.24, 0.28, 0.32, 0.36, 0.4), *,
                        n_experiments=40, alpha=0.05, seed=2020, jitter=0.012) -> pd.DataFrame:
    """Observed vs true difference for replications at several true preference gaps (the significance filter).

    For each true gap g in ``effects`` (raters prefer the new system with probability (1 + g)/2, no ties),
    :func:`replay_experiments` simulates ``n_experiments`` studies of ``n`` raters with the exact sign test.
    Plotted against the truth, the significant ones sit above the line observed = true when the gap is small:
    only studies whose noise inflated the difference pass the test (Gelman & Carlin 2014; Card et al. 2020,
    Figure 1).

    Parameters
    ----------
    n : int
        Raters per study.
    effects : sequence of float
        True preference gaps 2·p_new − 1, each in (−1, 1).
    n_experiments : int, optional
        Studies per gap (10 … 5,000).
    alpha : float, optional
        Two-sided level.
    seed : int, optional
        Fixes the studies; gap i uses ``seed + i``.
    jitter : float, optional
        Half-width of the uniform horizontal jitter in ``position`` (so equal points do not hide each other).

    Returns
    -------
    pandas.DataFrame
        One row per study: ``true_effect``, ``position`` (true effect plus jitter, for plotting), ``observed``,
        ``significant``, and ``power`` (the exact power of its design, from :func:`replay_experiments`).

    Examples
    --------
    >>> f = significance_filter(25, (0.2,), n_experiments=200, seed=1)
    >>> bool(f.loc[f["significant"], "observed"].mean() > 0.2)  # the significant ones exaggerate
    True
    """
    frames = []
    for i, effect in enumerate(effects):
        r = replay_experiments(n, (1 + float(effect)) / 2, n_experiments=n_experiments, alpha=alpha, seed=seed + i)
        e = r.experiments
        frames.append(pd.DataFrame({"true_effect": r.true_effect, "observed": e["observed"].to_numpy(),
                                    "significant": e["significant"].to_numpy(), "power": r.exact.power}))
    frame = pd.concat(frames, ignore_index=True)
    shift = rng_of(seed).uniform(-jitter, jitter, len(frame)) if jitter else 0.0
    frame.insert(1, "position", frame["true_effect"] + shift)
    return frame


def demo_teaser(*, n=25, p_new=0.60, alpha=0.05) -> Teaser:
    """The lab-meeting demo: how often its under-powered comparison is significant and how much it exaggerates.

    The demo's defaults: 25 raters per head-to-head study, 60% truly prefer the new system (a +20-point gap), the
    exact two-sided sign test at α = 0.05; power and Type-M are the exact engine the demo reports
    (:func:`core.accuracy.preference_power`, as ``Replay.exact``; Card et al. 2020, Figure 1 and §2).

    Examples
    --------
    >>> demo_teaser().shown
    '+20 pts'
    >>> demo_teaser().answer
    'Show your lab why small evaluations mislead: 25 raters, a true 20-point gap, 15% of studies significant, and those overstate the gap 2.5×.'
    """
    exact = preference_power(n, p_new, round(1 - p_new, 12), alpha=alpha)
    gap = round(100 * (2 * p_new - 1))
    return Teaser("demo", f"Show your lab why small evaluations mislead: {n} raters, a true {gap}-point gap, "
                  f"{fmt_pct(exact.power, 0)} of studies significant, and those overstate the gap "
                  f"{exact.type_m:.1f}×.",
                  "True difference", float(gap), f"{gap:+d} pts")

"""Which items humans should label: active labelling for an LLM judge (Zrnic & Candès 2024).

An LLM judge gives every one of N items a calibrated probability f_i that the human label is 1 (``confidence``).
Humans label item i with probability π_i (independent Bernoulli draws ξ_i, so about n = Σπ_i labels), and the mean
human label is estimated by the inverse-probability-weighted (active PPI) estimator

    θ̂ = (1/N) Σ_i [ f_i + (Y_i − f_i)·ξ_i/π_i ]

(Zrnic & Candès 2024, "Active Statistical Inference", ICML: their mean-estimation estimator with λ = 1). It is
unbiased for every
choice of π_i > 0, whatever the judge. If the judge is calibrated, E[Y | f] = f and Var(Y | f) = f(1 − f), and

    Var(θ̂ − θ_N) = (1/N²) Σ_i u_i²·(1/π_i − 1),      u_i² = Var(Y_i | f_i) = f_i(1 − f_i),

where θ_N = (1/N)ΣY_i is the mean label of the N items (the ξ_i are independent of Y: conditional on the labels the
IPW term has variance Σ(Y_i − f_i)²(1 − π_i)/π_i / N², whose expectation over Y | f is the sum above). Minimising it
subject to Σπ_i = n gives π_i ∝ u_i = √(f_i(1 − f_i)) (their variance-minimising rule π ∝ √E[(Y − f)² | X] under the label budget; Lagrange), capped at 1: items whose
share would exceed 1 are labelled surely and the rest of the budget is spread over the others in proportion to u_i
(water-filling). Mixing in a uniform share s, π_i = (1 − s)·π_i^active + s·n/N, keeps every π_i ≥ s·n/N and guards
against a judge whose uncertainties are wrong (Li, Zrnic & Candès 2025, "Robust Sampling for Active Statistical
Inference": budget-preserving paths between the uniform and the active rule).

**Target.** :func:`active_se` reports the SE for the **population** mean label θ = E[Y] of the population the N items
were drawn from (the quantity a benchmark score or a judge-calibrated accuracy estimates), so the variance of the N
items' own mean, σ²/N with σ² = Var(Y) = mean(u²) + Var(f) (= p̄(1 − p̄) for binary labels with p̄ = mean f), is added:

    Var(θ̂) = (1/N²) Σ_i u_i²·(1/π_i − 1) + σ²/N.

With ``target="items"`` it is the first term alone (the mean label of these N items). The three policies:

* ``"active"``: π ∝ u, water-filled, optionally mixed with ``min_share`` of uniform;
* ``"uniform"``: π_i = n/N — prediction-powered inference with λ = 1 (Angelopoulos et al. 2023), which labels a
  uniformly random subset;
* ``"human"``: human labels only on n random items, SE = √(σ²/n) (σ² = p̄(1 − p̄) for binary labels).

**A gap between two models.** For the difference D = Y_A − Y_B of two models' human labels on the same item, pass the
judge's predicted difference as ``confidence`` and Var(D | x) as ``conditional_variance`` (for independent binary
labels given x, u² = f_A(1 − f_A) + f_B(1 − f_B); :func:`gap_conditional_variance`). The formulas are the same, with
σ² = mean(u²) + Var(prediction).

References
----------
Zrnic, T. & Candès, E. J. (2024). "Active Statistical Inference." ICML (PMLR 235); arXiv:2403.03208 — the
estimator (1/N)Σ[f + (Y − f)ξ/π], its variance (1/N)(Var(Y) + E[(Y − f)²(1/π − 1)]) and the sampling rule
π ∝ √E[(Y − f)² | X] under a budget on the expected number of labels, capped at 1.

Li, P., Zrnic, T. & Candès, E. J. (2025). "Robust Sampling for Active Statistical Inference." NeurIPS;
arXiv:2511.08991 — interpolating between uniform and active sampling so the estimator is never worse than uniform.

Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I. & Zrnic, T. (2023). "Prediction-powered inference."
Science 382, 669–674.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from core.sizing import smallest_reaching
from core.validation import check_choice, check_int, check_real, rng_of
from core.teaser import Teaser

from .ppi import _N_MAX  # the judge package's one cap on item counts (human labels a plan may ask for)

__all__ = [
    "POLICIES",
    "ActiveDesign",
    "label_probabilities",
    "active_se",
    "active_labels_for_se",
    "active_curve",
    "active_item_list",
    "active_estimate",
    "beta_confidences",
    "gap_conditional_variance",
    "calibrated_confidence",
    "active_teaser",
]

POLICIES = {"human": "human labels only", "uniform": "judge + uniform labels (PPI)",
            "active": "judge + active labels"}
TARGETS = ("population", "items")
_MAX_ITEMS = 2_000_000


def _numbers(values, name: str) -> np.ndarray:
    """A one-dimensional float array of ``values``, or a ValueError naming the argument."""
    try:
        if np.iscomplexobj(values):
            raise TypeError
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a list or array of (real) numbers.") from None
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional (one value per item), got shape {array.shape}.")
    return array


def _validate(confidence, n_human, min_share, conditional_variance):
    """The inputs of every function here: arrays of probabilities / predictions and the label budget."""
    f = _numbers(confidence, "confidence")
    if f.size < 2:
        raise ValueError(f"`confidence` must hold at least 2 items, got {f.size}.")
    if f.size > _MAX_ITEMS:
        raise ValueError(f"`confidence` must hold at most {_MAX_ITEMS:,} items, got {f.size:,}.")
    if not np.all(np.isfinite(f)):
        raise ValueError("`confidence` must be finite numbers.")
    if conditional_variance is None:
        if f.min() < 0 or f.max() > 1:
            raise ValueError(f"`confidence` must be probabilities in [0, 1], got values in [{f.min():g}, {f.max():g}].")
        u2 = f * (1.0 - f)
    else:
        u2 = _numbers(conditional_variance, "conditional_variance")
        if u2.shape != f.shape:
            raise ValueError(f"`conditional_variance` must have one value per item ({f.size}), got {u2.size}.")
        if not np.all(np.isfinite(u2)) or u2.min() < 0:
            raise ValueError("`conditional_variance` must be finite and >= 0.")
    n_human = check_real("n_human", n_human, low=0.0, high=float(f.size), low_open=True)
    min_share = check_real("min_share", min_share, low=0.0, high=1.0)
    return f, u2, n_human, min_share


class _Sorted:
    """The weights sorted once (descending) with their tail sums, so each budget n is filled in O(N)."""

    def __init__(self, weights: np.ndarray):
        w = np.asarray(weights, dtype=float)
        self.size = w.size
        self.flat = w.max() <= 0
        # a floor keeps every probability positive, so the estimator stays unbiased whatever the judge
        w = np.maximum(w, w.max() * 1e-9) if not self.flat else w
        self.order = np.argsort(-w, kind="stable")
        self.ws = w[self.order]
        self.tail = np.cumsum(self.ws[::-1])[::-1]  # Σ of w over sorted positions k..N-1
        self.ks = np.arange(w.size)

    def fill(self, n: float) -> np.ndarray:
        """π_i = min(1, c·w_i) with Σπ_i = n (the excess of capped items redistributed over the rest)."""
        if n >= self.size:
            return np.ones(self.size)
        if self.flat:
            return np.full(self.size, n / self.size)
        # k capped items: c_k = (n − k)/tail[k]; the smallest k with c_k·ws[k] <= 1 (then all later items fit below 1)
        ok = (n - self.ks) * self.ws <= self.tail * (1 + 1e-12)
        k = int(np.argmax(ok))
        c = (n - k) / self.tail[k]
        pi_sorted = np.minimum(1.0, c * self.ws)
        pi_sorted[:k] = 1.0
        out = np.empty(self.size)
        out[self.order] = pi_sorted
        return out


def _water_fill(weights: np.ndarray, n: float) -> np.ndarray:
    """π_i = min(1, c·w_i) with Σπ_i = n (water-filling)."""
    return _Sorted(weights).fill(n)


def label_probabilities(confidence, n_human, *, min_share=0.0, conditional_variance=None) -> np.ndarray:
    """Each item's probability of a human label under the active rule (Zrnic & Candès 2024).

    π_i ∝ u_i = √(f_i(1 − f_i)) (or √``conditional_variance``), capped at 1 with the excess redistributed
    (water-filling), then mixed with a uniform share: π_i = (1 − s)·π_i + s·n/N.

    Parameters
    ----------
    confidence : array_like
        The judge's calibrated probability f_i that item i's human label is 1, one per item (N ≥ 2). With
        ``conditional_variance``, any real prediction of the label.
    n_human : float
        Expected number of human labels n = Σπ_i, 0 < n ≤ N.
    min_share : float, optional
        Share s in [0, 1] of the labels spread uniformly (s = 1 is uniform sampling).
    conditional_variance : array_like, optional
        Var(Y_i | x_i) per item; default f_i(1 − f_i) (a calibrated judge of a binary label).

    Returns
    -------
    numpy.ndarray
        π_i in (0, 1], summing to ``n_human``.

    Examples
    --------
    >>> label_probabilities([0.5, 0.5, 0.9, 1.0], 2).round(3).tolist()
    [0.769, 0.769, 0.462, 0.0]
    """
    f, u2, n, s = _validate(confidence, n_human, min_share, conditional_variance)
    active = _water_fill(np.sqrt(u2), n)
    return (1.0 - s) * active + s * n / f.size


def _variance(f, u2, n, s, policy, target, filler=None):
    total = f.size
    sigma2 = float(u2.mean() + f.var())  # Var(Y) = E Var(Y|x) + Var E(Y|x)
    if policy == "human":
        var = sigma2 / n
        if target == "items":  # n of the N items drawn without replacement, estimating their mean
            var *= max(total - n, 0.0) / (total - 1)
        return var
    pi = np.full(total, n / total) if policy == "uniform" else (
        (1.0 - s) * (filler or _Sorted(np.sqrt(u2))).fill(n) + s * n / total)
    var = float(np.sum(u2 * (1.0 / pi - 1.0))) / total**2
    return var + (sigma2 / total if target == "population" else 0.0)


def active_se(confidence, n_human, *, policy="active", min_share=0.0, conditional_variance=None,
              target="population") -> float:
    """Standard error of the estimated mean human label with n human labels, assuming a calibrated judge.

    Var(θ̂) = (1/N²)·Σ u_i²·(1/π_i − 1) + σ²/N for ``"active"`` and ``"uniform"`` (module docstring), σ²/n for
    ``"human"``; u_i² = f_i(1 − f_i) and σ² = mean(u²) + Var(f) = p̄(1 − p̄) with p̄ = mean f.

    Parameters
    ----------
    confidence, n_human, min_share, conditional_variance
        As in :func:`label_probabilities` (``min_share`` is used by ``"active"`` only).
    policy : {"active", "uniform", "human"}
        Active labels (π ∝ u), uniformly random labels (π = n/N, PPI with λ = 1), or human labels only.
    target : {"population", "items"}
        ``"population"`` (default): the mean label of the population the N items come from (adds σ²/N; for
        ``"human"``, σ²/n). ``"items"``: the mean label of these N items (the finite-population SE; for
        ``"human"``, σ²/n·(N − n)/(N − 1)).

    Returns
    -------
    float
        The SE.

    Examples
    --------
    >>> f = beta_confidences(2, 2, 1000)
    >>> round(active_se(f, 100, policy="human"), 4), round(active_se(f, 100, policy="uniform"), 4)
    (0.05, 0.0453)
    """
    f, u2, n, s = _validate(confidence, n_human, min_share, conditional_variance)
    _check_policy(policy)
    check_choice("target", target, TARGETS)
    return math.sqrt(_variance(f, u2, n, s, policy, target))


def _check_policy(policy):
    if not isinstance(policy, str):
        raise ValueError(f"`policy` must be one of {', '.join(POLICIES)}, got {type(policy).__name__}.")
    return check_choice("policy", policy, POLICIES)


def active_labels_for_se(confidence, target_se, *, policy="active", min_share=0.0, conditional_variance=None,
                         target="population") -> int:
    """Fewest human labels (whole, expected count) whose SE (:func:`active_se`) is at most ``target_se``.

    The SE falls monotonically in n (each π_i grows with n), so a bisection over whole n finds the first n.
    ``"human"`` may need more labels than N items (the population is larger than the N items); the other policies
    cannot exceed N: ``-1`` if even labelling all N items misses the target (the floor σ/√N of the population target).

    Examples
    --------
    >>> f = beta_confidences(2, 2, 1000)
    >>> active_labels_for_se(f, 0.03, policy="human"), active_labels_for_se(f, 0.03)
    (278, 230)
    """
    f, u2, _, s = _validate(confidence, 1.0, min_share, conditional_variance)
    # an SE above 1 on right/wrong labels (any label in [0, 1]) is met by one label; its square must stay finite
    target_se = check_real("target_se", target_se, low=0.0, high=1e6, low_open=True)
    _check_policy(policy)
    check_choice("target", target, TARGETS)
    total = f.size
    goal = target_se**2
    if policy == "human" and target == "population":
        sigma2 = float(u2.mean() + f.var())
        need = sigma2 / goal * (1 - 1e-12) if goal > 0 else math.inf  # target_se 1e-170 squares to 0
        if not need <= _N_MAX:
            raise ValueError(f"`target_se` is too small: more than {_N_MAX:,} human labels would be needed.")
        return max(1, math.ceil(need))
    filler = _Sorted(np.sqrt(u2))
    if _variance(f, u2, float(total), s, policy, target, filler) > goal * (1 + 1e-12):
        return -1
    # var(0) > goal (0 means "none"), var(total) <= goal
    return smallest_reaching(lambda m: _variance(f, u2, float(m), s, policy, target, filler) <= goal * (1 + 1e-12),
                             0, total)


def active_curve(confidence, ns, *, policies=("human", "uniform", "active"), min_share=0.0,
                 conditional_variance=None, target="population") -> pd.DataFrame:
    """SE against human labels for each policy: a tidy frame ``n_human, policy, label, se`` (the page's chart)."""
    f, u2, _, s = _validate(confidence, 1.0, min_share, conditional_variance)
    check_choice("target", target, TARGETS)
    filler = _Sorted(np.sqrt(u2))
    if isinstance(policies, str):
        policies = (policies,)
    if np.ndim(ns) == 0:
        raise ValueError("`ns` must be a list of human-label counts.")
    rows = []
    for policy in policies:
        _check_policy(policy)
        for n in ns:
            n = check_real("n_human", n, low=0.0, high=float(f.size), low_open=True)
            rows.append((n, policy, POLICIES[policy], math.sqrt(_variance(f, u2, n, s, policy, target, filler))))
    return pd.DataFrame(rows, columns=["n_human", "policy", "label", "se"])


def active_item_list(confidence, n_human, *, min_share=0.0, conditional_variance=None, items=None,
                     seed=0) -> pd.DataFrame:
    """The runnable design: which items to send to humans, with π_i and the weight 1/π_i of the estimator.

    Each item is drawn independently with probability π_i (:func:`label_probabilities`; ``numpy.random.default_rng(seed)``),
    so the number of labels is random around ``n_human``. Estimate the mean label with :func:`active_estimate`:
    mean(f) + (1/N)·Σ_labelled (Y_i − f_i)·weight_i.

    Returns
    -------
    DataFrame
        One row per item: ``item, confidence, probability, weight, label`` (``label`` True for the items to label).
    """
    f, _, _, _ = _validate(confidence, n_human, min_share, conditional_variance)
    seed = check_int("seed", seed, low=0)
    pi = label_probabilities(f, n_human, min_share=min_share, conditional_variance=conditional_variance)
    if items is not None and (isinstance(items, (str, bytes)) or np.ndim(items) != 1):
        raise ValueError(f"`items` must be a list of item ids, one per item ({f.size}).")
    ids = np.arange(f.size) if items is None else np.asarray(list(items), dtype=object)
    if ids.size != f.size:
        raise ValueError(f"`items` must have one id per item ({f.size}), got {ids.size}.")
    chosen = rng_of(seed).random(f.size) < pi
    return pd.DataFrame({"item": ids, "confidence": f, "probability": pi, "weight": 1.0 / pi, "label": chosen})


def active_estimate(confidence, labels, probability) -> float:
    """The active (IPW) estimate θ̂ = mean(f) + (1/N)·Σ_labelled (Y_i − f_i)/π_i (Zrnic & Candès 2024).

    ``labels`` holds Y_i for labelled items and NaN for the others.
    """
    f, y, pi = (_numbers(v, name) for v, name in ((confidence, "confidence"), (labels, "labels"),
                                                    (probability, "probability")))
    if not (f.shape == y.shape == pi.shape):
        raise ValueError("`confidence`, `labels` and `probability` must have one value per item.")
    if f.size == 0:
        raise ValueError("`confidence` must hold at least one item.")
    if not np.all(np.isfinite(f)):
        raise ValueError("`confidence` must be a finite number for every item (the judge scores them all).")
    if np.any(np.isinf(y)):
        raise ValueError("`labels` must be finite numbers (NaN marks an unlabelled item).")
    if not np.all(np.isfinite(pi)) or np.any(pi <= 0) or np.any(pi > 1):
        raise ValueError("`probability` must be in (0, 1].")
    seen = ~np.isnan(y)
    return float(f.mean() + np.sum((y[seen] - f[seen]) / pi[seen]) / f.size)


def beta_confidences(a, b, n_items) -> np.ndarray:
    """N judge confidences spread like Beta(a, b): the quantiles at (i − ½)/N (deterministic, no sampling)."""
    a = check_real("a", a, low=0.0, high=1e4, low_open=True)
    b = check_real("b", b, low=0.0, high=1e4, low_open=True)
    n_items = check_int("n_items", n_items, low=2, high=_MAX_ITEMS)
    return stats.beta.ppf((np.arange(n_items) + 0.5) / n_items, a, b)


def gap_conditional_variance(confidence_a, confidence_b):
    """(prediction, Var(D | x)) of the gap D = Y_A − Y_B for two calibrated judges' probabilities.

    With the two human labels independent given the item: E[D | x] = f_A − f_B and
    Var(D | x) = f_A(1 − f_A) + f_B(1 − f_B). Pass the pair to :func:`active_se` as ``confidence`` and
    ``conditional_variance``.
    """
    fa = np.asarray(confidence_a, dtype=float)
    fb = np.asarray(confidence_b, dtype=float)
    if fa.shape != fb.shape:
        raise ValueError("`confidence_a` and `confidence_b` must have one value per item.")
    for name, v in (("confidence_a", fa), ("confidence_b", fb)):
        if not np.all(np.isfinite(v)) or v.min() < 0 or v.max() > 1:
            raise ValueError(f"`{name}` must be probabilities in [0, 1].")
    return fa - fb, fa * (1 - fa) + fb * (1 - fb)


def calibrated_confidence(human, judge, *, bins=10) -> np.ndarray:
    """Each calibration item's calibrated judge probability f_i = P(human = 1 | the judge's output), by binning.

    A judge with at most ``bins`` distinct outputs (e.g. 0/1 verdicts) is calibrated per output value: f is the share
    of human 1-labels among the items with that output (for a 0/1 judge, the positive and 1 − negative predictive
    values). A judge with more distinct scores is grouped into ``bins`` quantile bins first (histogram binning,
    Zadrozny & Elkan 2001). Human labels must be 0/1.

    Each bin's rate is the posterior mean under a Jeffreys prior, (k + ½)/(n + 1) for k human 1-labels among n
    items, never exactly 0 or 1: a bin whose pilot labels all agree (60 of 60) does not make the judge certain, and
    a probability of exactly 1 would give its items a label probability of ~0 and an inverse weight of ~10⁹, with no
    variance counted for them (the estimator is unbiased only where every π_i > 0).
    """
    h = np.asarray(human, dtype=float).ravel()
    g = np.asarray(judge, dtype=float).ravel()
    if h.shape != g.shape or h.size < 2:
        raise ValueError("`human` and `judge` must have one value per item (at least 2 items).")
    if not np.all(np.isfinite(h)) or not np.all(np.isin(h, (0.0, 1.0))):
        raise ValueError("`human` must be 0/1 labels to calibrate a probability.")
    if not np.all(np.isfinite(g)):
        raise ValueError("`judge` must be finite numbers.")
    bins = check_int("bins", bins, low=2, high=1000)
    values = np.unique(g)
    if values.size <= bins:
        group = np.searchsorted(values, g)
    else:
        edges = np.unique(np.quantile(g, np.linspace(0, 1, bins + 1)[1:-1]))
        group = np.searchsorted(edges, g, side="right")
    sums = np.bincount(group, weights=h)
    counts = np.bincount(group)
    return ((sums + 0.5) / (counts + 1.0))[group]


@dataclass(frozen=True)
class ActiveDesign:
    """The "Which items to label" tab's design: N judge confidences (as a tuple) and the label budget.

    ``.se(policy)``, ``.labels_for_se(target_se, policy)``, ``.curve(ns)``, ``.item_list(seed)``.
    """

    confidence: tuple
    n_human: int
    min_share: float = 0.0

    def __post_init__(self):
        _validate(self.confidence, self.n_human, self.min_share, None)

    def se(self, policy="active"):
        return active_se(self.confidence, self.n_human, policy=policy, min_share=self.min_share)

    def labels_for_se(self, target_se, policy="active"):
        return active_labels_for_se(self.confidence, target_se, policy=policy, min_share=self.min_share)

    def curve(self, ns):
        return active_curve(self.confidence, ns, min_share=self.min_share)

    def item_list(self, seed=0):
        return active_item_list(self.confidence, self.n_human, min_share=self.min_share, seed=seed)


def active_teaser(*, a=0.5, b=0.5, n_items=1000, n_human=100):
    """Home card: the SE of human-only vs active labels at the tab's defaults (Beta(0.5, 0.5) judge, 100 of 1,000).

    Returns a :class:`core.teaser.Teaser` for the Judge page's "Which items to label" metric "SE, active labels".

    Examples
    --------
    >>> active_teaser().shown
    '3.37 pts'
    """
    f = beta_confidences(a, b, n_items)
    human, active = active_se(f, n_human, policy="human"), active_se(f, n_human)
    # the tab shows the SE of a label rate in points (×100), as the Judge page's headline SE
    return Teaser("judge", f"{n_human} human labels next to an LLM judge on {n_items:,} items: SE {100 * active:.2f} "
                  f"points with active labels, {100 * human:.2f} with humans alone.", "SE, active labels", active,
                  f"{100 * active:.2f} pts")

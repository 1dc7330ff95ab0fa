"""LLM judges and human labels: how many human labels to pair with judge labels, and agreement studies.

Two planning questions of an annotation campaign in which most labels come
from an LLM judge.

1. **Human labels next to a judge (PPI++).** ``n`` items are labelled by a
   human *and* the judge; ``N`` more items only by the judge. The estimate of
   the mean human label θ (an accuracy, a rate, a mean score) is the
   power-tuned prediction-powered estimate

       θ̂ = λ·mean(judge on the N judge-only items) + mean(human − λ·judge on the n labelled items)

   (Angelopoulos, Duchi & Zrnic 2023: the power-tuned estimator for a mean). With human
   label SD σ (``sd``), judge–human correlation ρ (``correlation``) and the
   tuned λ = ρ·(σ/σ_g)·N/(n + N) (their
   tuning for the mean, λ̂ = Ĉov/((1 + n/N)·V̂ar(g)); ppi_py's ``ppi_mean_pointestimate``),
   its variance is

       Var = σ²/n · (1 − ρ²·N/(n + N)) = a/n + b/(n + N),   a = σ²(1 − ρ²),  b = σ²ρ².

   A labelled item costs ``cost_human + cost_judge`` and a judge-only item
   ``cost_judge``, so the cost is C = n·c_h + (n + N)·c_j. Minimising a/n +
   b/M subject to n·c_h + M·c_j = C (M = n + N) gives n ∝ √(a/c_h),
   M ∝ √(b/c_j) and the optimum (Lagrange / Cauchy–Schwarz)

       Var* = (√(a·c_h) + √(b·c_j))² / C,

   as long as M ≥ n (otherwise no judge-only items are worth buying and the
   humans label everything). :func:`ppi_plan` rounds to whole items by
   searching integers around this optimum, so the result never exceeds its
   budget and never misses its target SE or power.

   **Paired comparison of two models** (``paired=True``): both models' outputs
   on the same items are labelled; D is the per-item human difference and g
   the judge difference, ``sd`` = SD(D), ``correlation`` = corr(D, g). The
   algebra is the same; an item now carries two outputs, so a labelled item
   costs 2·(c_h + c_j) and a judge-only item 2·c_j.

2. **Judge-only with a correction (Rogan & Gladen 1978).** For binary labels,
   a judge with sensitivity Se and specificity Sp gives an apparent rate
   p = Se·θ + (1 − Sp)(1 − θ); the corrected rate is θ̂ = (p̂ + Ŝp − 1)/(Ŝe + Ŝp − 1)
   with Se, Sp estimated on calibration items (:func:`rogan_gladen`).

3. **Agreement studies** for two raters (:func:`agreement_se`,
   :func:`agreement_sample_size`): the large-sample SE of Cohen's κ (Fleiss,
   Cohen & Everitt 1969), Gwet's AC1 (Gwet 2008) and Krippendorff's α
   (nominal; the linearised variance of Scott's π, to which α converges,
   Gwet 2014 §5), for a population table given by the category prevalence and
   Cohen's κ. :func:`prevalence_paradox_curve` shows κ collapsing at skewed
   prevalence while AC1 does not (Feinstein & Cicchetti 1990; Gwet 2008).

References
----------
Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I. & Zrnic, T.
(2023). "Prediction-powered inference." Science 382, 669–674.

Angelopoulos, A. N., Duchi, J. C. & Zrnic, T. (2023). "PPI++: Efficient
prediction-powered inference." arXiv:2311.01453 — power tuning of λ for mean estimation.

Rogan, W. J. & Gladen, B. (1978). "Estimating prevalence from the results of a
screening test." American Journal of Epidemiology 107, 71–76.

Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). "Large sample standard
errors of kappa and weighted kappa." Psychological Bulletin 72, 323–327.

Gwet, K. L. (2008). "Computing inter-rater reliability and its variance in the
presence of high agreement." British Journal of Mathematical and Statistical
Psychology 61, 29–48. Gwet, K. L. (2014). *Handbook of Inter-Rater
Reliability*, 4th ed., ch. 5 (two-rater variances of κ, π, AC1, α).

Krippendorff, K. (2004). *Content Analysis*, 2nd ed., ch. 11.

Feinstein, A. R. & Cicchetti, D. V. (1990). "High agreement but low kappa: I.
The problems of two paradoxes." Journal of Clinical Epidemiology 43, 543–549.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize, stats

from core import uploads
from core.validation import check_choice, check_int, check_probability, check_real

__all__ = [
    "Strategy",
    "PPIPlan",
    "CorrectedRate",
    "JudgeFit",
    "STATISTICS",
    "ppi_se",
    "ppi_plan",
    "ppi_curve",
    "split_curve",
    "strategy_table",
    "judge_correlation",
    "rogan_gladen",
    "read_calibration",
    "fit_judge",
    "sample_calibration",
    "agreement_table",
    "agreement_value",
    "agreement_se",
    "agreement_sample_size",
    "agreement_curve",
    "prevalence_paradox_curve",
]

#: Agreement statistics and their display names.
STATISTICS = {"cohen": "Cohen's κ", "gwet_ac1": "Gwet's AC1", "krippendorff": "Krippendorff's α"}
SAMPLE_FILE = Path(__file__).resolve().parent / "data" / "judge_sample" / "calibration.csv"
_N_MAX = 10**9  # largest item count considered (a billion judge calls)


# ---------------------------------------------------------------------------
# validation (one helper for the module)
# ---------------------------------------------------------------------------
def _check_ppi(sd, correlation, cost_human=None, cost_judge=None, alpha=0.05):
    sd = check_real("sd", sd, low=0.0, low_open=True)
    correlation = check_real("correlation", correlation, low=-1.0, high=1.0, low_open=True, high_open=True)
    out = [sd, correlation]
    if cost_human is not None:
        out.append(check_real("cost_human", cost_human, low=0.0, low_open=True))
    if cost_judge is not None:
        out.append(check_real("cost_judge", cost_judge, low=0.0, low_open=True))
    out.append(check_real("alpha", alpha, low=0.0, high=0.5, low_open=True))
    return out


def _two_sided_power(se, delta, alpha):
    """Power of the two-sided z test of the estimate against 0 when the truth is ``delta``."""
    se = np.asarray(se, dtype=float)
    z = stats.norm.isf(alpha / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.abs(delta) / se
    return stats.norm.cdf(u - z) + stats.norm.cdf(-u - z)


def _se_for_power(delta, target_power, alpha):
    """The SE at which the two-sided z test has exactly ``target_power`` (power is decreasing in the SE)."""
    z = stats.norm.isf(alpha / 2)
    f = lambda u: stats.norm.cdf(u - z) + stats.norm.cdf(-u - z) - target_power  # noqa: E731
    u = optimize.brentq(f, 0.0, 60.0, xtol=1e-14, rtol=1e-14)
    return abs(delta) / u


# ---------------------------------------------------------------------------
# PPI++ planning
# ---------------------------------------------------------------------------
def ppi_se(n_human, n_judge_only, *, sd, correlation):
    """Standard error of the power-tuned PPI++ estimate of a mean.

    Parameters
    ----------
    n_human : int or array_like
        Items labelled by a human and by the judge, n >= 1.
    n_judge_only : int or array_like
        Items labelled only by the judge, N >= 0 (broadcast against ``n_human``).
    sd : float
        SD of a human label σ (> 0); of the per-item human difference D in a
        paired comparison.
    correlation : float
        Judge–human correlation ρ in (−1, 1).

    Returns
    -------
    float or ndarray
        √(σ²/n·(1 − ρ²·N/(n + N))) (Angelopoulos, Duchi & Zrnic 2023, §2:
        the variance at the tuned λ = Cov/((1 + n/N)·Var(g))).

    Examples
    --------
    >>> round(float(ppi_se(882, 10882, sd=0.5, correlation=0.8)), 6)
    0.010754
    """
    sd, correlation, _ = _check_ppi(sd, correlation)
    n = np.asarray(n_human, dtype=float)
    big_n = np.asarray(n_judge_only, dtype=float)
    if np.any(~np.isfinite(n)) or np.any(n < 1):
        raise ValueError("`n_human` must be at least 1.")
    if np.any(~np.isfinite(big_n)) or np.any(big_n < 0):
        raise ValueError("`n_judge_only` must be at least 0.")
    var = sd**2 / n * (1.0 - correlation**2 * big_n / (n + big_n))
    out = np.sqrt(var)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class Strategy:
    """One way of spending the money: its items, SE, cost and power.

    Attributes
    ----------
    name : str
        ``"human only"``, ``"judge + Rogan–Gladen"`` or ``"PPI++"``.
    n_human : int
        Items with a human label.
    n_judge_only : int
        Items labelled only by the judge.
    se : float
        Standard error of the estimate (``inf`` when the strategy cannot estimate).
    cost : float
        Its cost.
    effective_n : float
        Human-only items with the same SE (σ²/SE²).
    power : float
        Power of the two-sided z test at ``delta`` (``nan`` without ``delta``).
    """

    name: str
    n_human: int
    n_judge_only: int
    se: float
    cost: float
    effective_n: float
    power: float = math.nan


@dataclass(frozen=True)
class PPIPlan:
    """The cheapest (or most precise) whole-number split between human and judge-only items.

    Attributes
    ----------
    n_human : int
        Items labelled by a human and by the judge (n).
    n_judge_only : int
        Items labelled only by the judge (N).
    se : float
        SE of the PPI++ estimate.
    effective_n : float
        Human-only items with the same SE: σ²/SE².
    cost : float
        n·(c_h + c_j) + N·c_j (twice that for a paired comparison).
    power : float
        Two-sided z-test power at ``delta`` (``nan`` when no ``delta`` was given).
    lambda_ : float
        The power-tuned weight λ = ρ·(σ/σ_g)·N/(n + N).
    human_only : Strategy
        The same money spent on human labels only (⌊cost / c_h⌋ items; no judge calls).
    judge_only : Strategy or None
        The judge's apparent rate on the N judge-only items, corrected by Rogan–Gladen with Se and Sp estimated
        on the same n calibration items (same cost as PPI++). Only for binary
        labels (``prevalence``, ``sensitivity``, ``specificity`` given) and a
        single rate; ``None`` otherwise.
    mode : str
        ``"budget"``, ``"target_se"`` or ``"delta"``.
    target_se : float
        The SE aimed at (``nan`` in budget mode; in delta mode the SE giving
        ``target_power``).
    paired : bool
        True for the paired comparison of two models.
    """

    n_human: int
    n_judge_only: int
    se: float
    effective_n: float
    cost: float
    power: float
    lambda_: float
    human_only: Strategy
    judge_only: Strategy | None
    mode: str
    target_se: float = math.nan
    paired: bool = False

    def as_dict(self) -> dict:
        """Plain dictionary of the scalar fields (for tables and CSV export)."""
        return {"n_human": self.n_human, "n_judge_only": self.n_judge_only, "se": self.se,
                "effective_n": self.effective_n, "cost": self.cost, "power": self.power, "lambda_": self.lambda_,
                "mode": self.mode, "target_se": self.target_se, "paired": self.paired}


def _continuous_split(a, b, ch, cj):
    """Continuous optimum per unit budget: (n, M) with n·c_h + M·c_j = 1, M >= n."""
    ra, rb = math.sqrt(a * ch), math.sqrt(b * cj)
    denom = ra + rb
    n, m = (math.sqrt(a / ch) / denom, math.sqrt(b / cj) / denom) if a > 0 else (0.0, 1.0 / cj)
    if m < n:  # no judge-only items are worth buying: humans label everything
        n = m = 1.0 / (ch + cj)
    return n, m


def _window(center: float, hi: float) -> np.ndarray:
    half = 200 + int(0.02 * center)
    lo = max(2, int(center) - half)
    top = min(int(hi), int(center) + half + 1)
    return np.arange(lo, max(lo, top) + 1, dtype=np.int64)


def _plan_budget(a, b, ch, cj, budget):
    n_top = math.floor(budget / (ch + cj) * (1 + 1e-12))
    if n_top < 2:
        raise ValueError(f"`budget` must buy at least 2 human-labelled items ({2 * (ch + cj):g}); got {budget:g}.")
    nu, _ = _continuous_split(a, b, ch, cj)
    ns = _window(nu * budget, n_top)
    ns = ns[ns <= n_top]
    m = np.floor((budget - ns * ch) / cj * (1 + 1e-12)).astype(np.int64)
    m = np.minimum(m, _N_MAX)
    # never over budget after rounding (the 1e-12 only absorbs float noise in budget/cost)
    m = np.where(ns * ch + m * cj > budget * (1 + 1e-12), m - 1, m)
    m = np.maximum(m, ns) if b > 0 else ns  # a useless judge (ρ = 0): buy no judge-only calls
    var = a / ns + b / m
    best = int(np.argmin(var))  # first minimum → the smaller n on ties
    return int(ns[best]), int(m[best])


def _plan_target(a, b, ch, cj, target_var):
    total = (math.sqrt(a * ch) + math.sqrt(b * cj)) ** 2 / target_var  # continuous optimal cost
    nu, _ = _continuous_split(a, b, ch, cj)
    n_floor = a / target_var  # n must exceed a/T² when M is unlimited
    ns = _window(max(nu * total, n_floor + 1), _N_MAX)
    ns = np.unique(np.concatenate([ns, [max(2, math.ceil((a + b) / target_var))]]))  # the human-only design
    slack = target_var - a / ns
    ok = slack > 0
    ns, slack = ns[ok], slack[ok]
    with np.errstate(divide="ignore"):
        m = np.where(b > 0, np.ceil(b / slack), ns).astype(float)
    m = np.maximum(m, ns)
    # float noise: step M up until the target is met exactly as computed
    bad = a / ns + b / m > target_var
    m = np.where(bad, m + 1, m)
    bad = a / ns + b / m > target_var
    m = np.where(bad, m + 1, m)
    keep = (a / ns + b / m <= target_var) & (m <= _N_MAX)
    if not keep.any():
        raise ValueError("`target_se` is too small: the design would need more than a billion items.")
    ns, m = ns[keep], m[keep].astype(np.int64)
    cost = ns * ch + m * cj
    var = a / ns + b / m
    order = np.lexsort((var, cost))  # cheapest, then most precise
    best = int(order[0])
    return int(ns[best]), int(m[best])


def ppi_plan(
    *,
    sd,
    correlation,
    cost_human,
    cost_judge,
    budget=None,
    target_se=None,
    delta=None,
    target_power=0.8,
    alpha=0.05,
    paired=False,
    sd_judge=None,
    prevalence=None,
    sensitivity=None,
    specificity=None,
) -> PPIPlan:
    """Cost-optimal split between human-labelled and judge-only items (PPI++).

    Parameters
    ----------
    sd : float
        SD σ of a human label (of the per-item human difference D when
        ``paired``), > 0. For a binary label with rate θ, σ = √(θ(1 − θ)).
    correlation : float
        Judge–human correlation ρ (corr(D, g) when ``paired``), in (−1, 1).
    cost_human : float
        Cost of one human label c_h, > 0.
    cost_judge : float
        Cost of one judge call c_j, > 0.
    budget : float, optional
        Spend at most this and minimise the SE.
    target_se : float, optional
        Reach this SE (> 0) at the lowest cost.
    delta : float, optional
        Reach ``target_power`` against this true effect (≠ 0; a difference
        between two models when ``paired``) at the lowest cost. Exactly one of
        ``budget``, ``target_se`` and ``delta`` must be given.
    target_power : float, optional
        Power to reach in delta mode, in (α, 1).
    alpha : float, optional
        Two-sided level of the z test, in (0, 0.5].
    paired : bool, optional
        Paired comparison of two models on the same items: each item carries
        two outputs, so a labelled item costs 2·(c_h + c_j) and a judge-only
        item 2·c_j. (A flag, not a separate function.)
    sd_judge : float, optional
        SD of a judge label σ_g, used only for ``lambda_`` (default σ: λ on
        the judge's standardised scale).
    prevalence, sensitivity, specificity : float, optional
        For binary labels: the true rate θ and the judge's Se and Sp, to add
        the Rogan–Gladen comparator ``judge_only`` (not for ``paired``). They
        should match ``sd`` and ``correlation`` (see :func:`judge_correlation`).

    Returns
    -------
    PPIPlan

    Raises
    ------
    ValueError
        For values out of range, or unless exactly one of ``budget``,
        ``target_se`` and ``delta`` is given.

    Notes
    -----
    Var(n, N) = a/n + b/(n + N) with a = σ²(1 − ρ²), b = σ²ρ²; the continuous
    optimum is Var* = (√(a·c_h) + √(b·c_j))²/C at n ∝ √(a/c_h),
    n + N ∝ √(b/c_j) (module docstring). Whole numbers: every n in a window
    around the optimum is paired with the largest affordable N (budget mode)
    or the smallest N meeting the target (target modes), and the best pair is
    kept, so the plan never exceeds ``budget`` nor misses ``target_se`` or
    ``target_power``. In delta mode the target SE solves
    Φ(|δ|/SE − z) + Φ(−|δ|/SE − z) = target_power, z = z_{1−α/2}.

    Examples
    --------
    >>> plan = ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    >>> round(plan.se, 6), plan.cost <= 1000, round(plan.human_only.se, 6)
    (0.010752, True, 0.015811)
    """
    sd, correlation, cost_human, cost_judge, alpha = _check_ppi(sd, correlation, cost_human, cost_judge, alpha)
    given = [name for name, v in (("budget", budget), ("target_se", target_se), ("delta", delta)) if v is not None]
    if len(given) != 1:
        raise ValueError("Give exactly one of `budget`, `target_se` and `delta`"
                         + (f"; got {', '.join(f'`{g}`' for g in given)}." if given else "; got none."))
    mode = given[0]
    paired = bool(paired)
    k = 2.0 if paired else 1.0
    ch, cj = k * cost_human, k * cost_judge
    a, b = sd**2 * (1 - correlation**2), sd**2 * correlation**2
    target = math.nan
    if mode == "budget":
        budget = check_real("budget", budget, low=0.0, low_open=True)
        n, m = _plan_budget(a, b, ch, cj, budget)
    else:
        if mode == "target_se":
            target = check_real("target_se", target_se, low=0.0, low_open=True)
        else:
            delta = check_real("delta", delta)
            if delta == 0:
                raise ValueError("`delta` must not be 0: no design has power against no effect.")
            target_power = check_real("target_power", target_power, low=alpha, high=1.0, low_open=True,
                                      high_open=True)
            target = _se_for_power(delta, target_power, alpha)
        n, m = _plan_target(a, b, ch, cj, target**2)
    big_n = m - n
    se = math.sqrt(a / n + b / m)
    cost = n * ch + m * cj
    power = float(_two_sided_power(se, delta, alpha)) if delta is not None else math.nan
    sd_g = sd if sd_judge is None else check_real("sd_judge", sd_judge, low=0.0, low_open=True)
    lam = correlation * sd / sd_g * big_n / m
    n_h = max(1, math.floor(cost / ch * (1 + 1e-12)))
    se_h = sd / math.sqrt(n_h)
    human_only = Strategy("human only", n_h, 0, se_h, n_h * ch, float(n_h),
                          float(_two_sided_power(se_h, delta, alpha)) if delta is not None else math.nan)
    judge_only = None
    if not paired and None not in (prevalence, sensitivity, specificity):
        theta = check_probability("prevalence", prevalence, open_low=True, open_high=True)
        se_j, sp_j = (check_probability("sensitivity", sensitivity), check_probability("specificity", specificity))
        if se_j + sp_j <= 1:
            raise ValueError("`sensitivity` + `specificity` must exceed 1 (a judge better than chance); got "
                             f"{se_j + sp_j:g}.")
        if big_n > 0:
            p_obs = se_j * theta + (1 - sp_j) * (1 - theta)
            rg_se = _rg_se(p_obs, theta, se_j, sp_j, big_n, theta * n, (1 - theta) * n)
        else:
            rg_se = math.inf
        judge_only = Strategy("judge + Rogan–Gladen", n, big_n, rg_se, cost, sd**2 / rg_se**2,
                              float(_two_sided_power(rg_se, delta, alpha)) if delta is not None else math.nan)
    return PPIPlan(n_human=n, n_judge_only=big_n, se=se, effective_n=sd**2 / se**2, cost=float(cost), power=power,
                   lambda_=float(lam), human_only=human_only, judge_only=judge_only, mode=mode,
                   target_se=float(target), paired=paired)


def strategy_table(plan: PPIPlan) -> pd.DataFrame:
    """The three strategies of a plan at equal cost, as a tidy table.

    Returns
    -------
    pandas.DataFrame
        ``strategy, n_human, n_judge_only, se, cost, effective_n, power``;
        one row per strategy (the Rogan–Gladen row only for binary labels).
    """
    ppi = Strategy("PPI++", plan.n_human, plan.n_judge_only, plan.se, plan.cost, plan.effective_n, plan.power)
    rows = [plan.human_only] + ([plan.judge_only] if plan.judge_only is not None else []) + [ppi]
    return pd.DataFrame([{"strategy": s.name, "n_human": s.n_human, "n_judge_only": s.n_judge_only, "se": s.se,
                          "cost": s.cost, "effective_n": s.effective_n, "power": s.power} for s in rows])


def ppi_curve(n_human, *, sd, correlation, n_judge_only=(0, 1000, 10000), cost_human=None, cost_judge=None,
              delta=None, alpha=0.05, paired=False) -> pd.DataFrame:
    """SE (and power) of PPI++ against the number of human labels, for several judge-only counts.

    Parameters
    ----------
    n_human : array_like of int
        Human-labelled items (>= 1).
    sd, correlation, paired
        As in :func:`ppi_plan`.
    n_judge_only : sequence of int, optional
        Judge-only counts N, one line each.
    cost_human, cost_judge : float, optional
        When both are given, a ``cost`` column.
    delta : float, optional
        When given, a ``power`` column (two-sided z test at ``alpha``).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``n_judge_only, n_human, se, effective_n`` [, ``cost``] [, ``power``].
    """
    sd, correlation, alpha = _check_ppi(sd, correlation, alpha=alpha)
    ns = np.asarray(n_human, dtype=float).ravel()
    frames = []
    for big_n in n_judge_only:
        big_n = check_int("n_judge_only", big_n, low=0)
        se = ppi_se(ns, np.full(ns.shape, float(big_n)), sd=sd, correlation=correlation)
        frame = pd.DataFrame({"n_judge_only": big_n, "n_human": ns.astype(np.int64), "se": se,
                              "effective_n": sd**2 / se**2})
        if cost_human is not None and cost_judge is not None:
            k = 2.0 if paired else 1.0
            frame["cost"] = k * (ns * (cost_human + cost_judge) + big_n * cost_judge)
        if delta is not None:
            frame["power"] = _two_sided_power(se, check_real("delta", delta), alpha)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def split_curve(correlations, *, sd, cost_human, cost_judge, budget=None, target_se=None, delta=None,
                target_power=0.8, alpha=0.05, paired=False) -> pd.DataFrame:
    """The cheapest (or most precise) split at each judge–human correlation.

    Returns
    -------
    pandas.DataFrame
        ``correlation, n_human, n_judge_only, se, cost, effective_n, power, human_only_se``:
        one :func:`ppi_plan` per correlation.
    """
    rows = []
    for rho in np.atleast_1d(correlations).tolist():
        p = ppi_plan(sd=sd, correlation=rho, cost_human=cost_human, cost_judge=cost_judge, budget=budget,
                     target_se=target_se, delta=delta, target_power=target_power, alpha=alpha, paired=paired)
        rows.append({"correlation": rho, "n_human": p.n_human, "n_judge_only": p.n_judge_only, "se": p.se,
                     "cost": p.cost, "effective_n": p.effective_n, "power": p.power, "human_only_se": p.human_only.se})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# binary judges: Se/Sp ↔ correlation, Rogan–Gladen
# ---------------------------------------------------------------------------
def judge_correlation(prevalence, sensitivity, specificity) -> tuple[float, float, float]:
    """SD of the human label, judge–human correlation and apparent rate of a binary judge.

    Parameters
    ----------
    prevalence : float
        True rate θ in (0, 1).
    sensitivity, specificity : float
        P(judge 1 | human 1) and P(judge 0 | human 0), each in [0, 1].

    Returns
    -------
    (sd, correlation, p_observed) : tuple of float
        σ = √(θ(1 − θ)); the phi coefficient ρ = J·√(θ(1 − θ)/(π(1 − π))) with
        J = Se + Sp − 1 and the apparent rate π = Se·θ + (1 − Sp)(1 − θ)
        (Cov(human, judge) = θ(1 − θ)·J).

    Examples
    --------
    >>> [round(v, 4) for v in judge_correlation(0.7, 0.9, 0.85)]
    [0.4583, 0.7338, 0.675]
    """
    theta = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    se = check_probability("sensitivity", sensitivity)
    sp = check_probability("specificity", specificity)
    pi = se * theta + (1 - sp) * (1 - theta)
    if pi <= 0 or pi >= 1:
        raise ValueError("`sensitivity` and `specificity` must not make the judge constant (both 1 − Sp and Se "
                         "equal to 0 or to 1).")
    j = se + sp - 1
    rho = j * math.sqrt(theta * (1 - theta) / (pi * (1 - pi)))
    return math.sqrt(theta * (1 - theta)), rho, pi


@dataclass(frozen=True)
class CorrectedRate:
    """A Rogan–Gladen corrected rate.

    Attributes
    ----------
    estimate : float
        The corrected rate, clipped to [0, 1].
    se : float
        Its delta-method SE (including the calibration set's uncertainty).
    raw_estimate : float
        (p + Sp − 1)/(Se + Sp − 1) before clipping.
    p_observed : float
        The apparent (judge) rate.
    youden : float
        J = Se + Sp − 1.
    """

    estimate: float
    se: float
    raw_estimate: float
    p_observed: float
    youden: float


def _rg_se(p, theta, se, sp, n, m_pos, m_neg):
    j = se + sp - 1
    var = (p * (1 - p) / n + theta**2 * se * (1 - se) / m_pos + (1 - theta) ** 2 * sp * (1 - sp) / m_neg) / j**2
    return math.sqrt(var)


def rogan_gladen(p_observed, sensitivity, specificity, *, n, m_pos, m_neg) -> CorrectedRate:
    """Rogan–Gladen corrected rate and its delta-method SE.

    Parameters
    ----------
    p_observed : float
        Apparent rate: the share of the ``n`` items the judge labels positive.
    sensitivity, specificity : float
        The judge's Se and Sp estimated on calibration items; Se + Sp > 1.
    n : int
        Items behind ``p_observed`` (>= 1).
    m_pos, m_neg : int
        Calibration items whose human label is positive (for Se) and negative
        (for Sp), each >= 1.

    Returns
    -------
    CorrectedRate

    Notes
    -----
    θ̂ = (p̂ + Ŝp − 1)/J, J = Ŝe + Ŝp − 1 (Rogan & Gladen 1978). With
    independent binomial p̂, Ŝe, Ŝp the delta method gives

        Var(θ̂) = [p(1 − p)/n + θ²·Se(1 − Se)/m_pos + (1 − θ)²·Sp(1 − Sp)/m_neg] / J²

    (∂θ/∂p = 1/J, ∂θ/∂Se = −θ/J, ∂θ/∂Sp = (1 − θ)/J), evaluated at the
    unclipped θ̂.

    Examples
    --------
    >>> r = rogan_gladen(0.675, 0.90, 0.85, n=2000, m_pos=200, m_neg=200)
    >>> round(r.estimate, 4), round(r.se, 5)
    (0.7, 0.02625)
    """
    p = check_probability("p_observed", p_observed)
    se = check_probability("sensitivity", sensitivity)
    sp = check_probability("specificity", specificity)
    if se + sp <= 1:
        raise ValueError(f"`sensitivity` + `specificity` must exceed 1 (a judge better than chance); got {se + sp:g}.")
    n = check_int("n", n, low=1)
    m_pos = check_int("m_pos", m_pos, low=1)
    m_neg = check_int("m_neg", m_neg, low=1)
    j = se + sp - 1
    raw = (p + sp - 1) / j
    return CorrectedRate(estimate=min(1.0, max(0.0, raw)), se=_rg_se(p, raw, se, sp, n, m_pos, m_neg),
                         raw_estimate=raw, p_observed=p, youden=j)


# ---------------------------------------------------------------------------
# calibration uploads
# ---------------------------------------------------------------------------
_ALIASES = {
    "item": ("item", "item_id", "id", "question", "question_id", "doc_id", "example", "example_id"),
    "human": ("human", "human_label", "human_score", "gold", "gold_label", "label", "reference", "annotation"),
    "judge": ("judge", "judge_label", "judge_score", "llm", "llm_judge", "llm_label", "prediction", "pred", "auto"),
    "model": ("model", "model_name", "system"),
}
_TRUE, _FALSE = frozenset({"true", "yes", "correct", "pass"}), frozenset({"false", "no", "incorrect", "fail"})
_MAX_ROWS = 1_000_000


def _find_columns(columns, name):
    lowered = {}
    for col in columns:
        lowered.setdefault(str(col).strip().lower(), col)
    found = {}
    for role, aliases in _ALIASES.items():
        hits = [lowered[a] for a in aliases if a in lowered]
        if len(hits) > 1:
            raise ValueError(f"{name}: both {hits[0]!r} and {hits[1]!r} could be the `{role}` column; rename or "
                             "remove one.")
        if hits:
            found[role] = hits[0]
    missing = [role for role in ("item", "human", "judge") if role not in found]
    if missing:
        raise ValueError(f"{name} needs the column(s) {', '.join(missing)} (also accepted: "
                         + "; ".join(f"{r}: {', '.join(_ALIASES[r][1:])}" for r in missing)
                         + f"); it has {', '.join(map(str, columns))}.")
    return found


def _numbers(cells: pd.Series, column: str, name: str) -> np.ndarray:
    text = cells.astype(str).str.strip()
    values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, copy=True)
    words = np.flatnonzero(np.isnan(values))
    if len(words):
        lower = text.iloc[words].str.lower()
        values[words[lower.isin(_TRUE).to_numpy()]] = 1.0
        values[words[lower.isin(_FALSE).to_numpy()]] = 0.0
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name}, row {i + 1:,} after the header: `{column}` must be a number or true/false, got "
                         f"{cells.iloc[i]!r}.")
    return values


def _tidy(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    roles = _find_columns(list(frame.columns), name)
    if len(frame) == 0:
        raise ValueError(f"{name} has no rows.")
    out = {"item": frame[roles["item"]].astype(str).str.strip().to_numpy()}
    if "model" in roles:
        out["model"] = frame[roles["model"]].astype(str).str.strip().to_numpy()
    for role in ("human", "judge"):
        out[role] = _numbers(frame[roles[role]], roles[role], name)
    tidy = pd.DataFrame(out)
    keys = ["item", "model"] if "model" in tidy.columns else ["item"]
    dup = tidy.duplicated(keys, keep="first").to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        what = f"item {tidy['item'].iloc[i]!r}" + (f", model {tidy['model'].iloc[i]!r}" if "model" in tidy else "")
        raise ValueError(f"{name}: {what} appears twice (row {i + 1:,} after the header); give one row each.")
    return tidy


def read_calibration(data, *, name: str = "The calibration file") -> pd.DataFrame:
    """Read a calibration upload (CSV/TSV with a header), defensively, via :mod:`core.uploads`.

    Parameters
    ----------
    data : bytes
        Columns (case-insensitive): ``item``, ``human``, ``judge``, optional
        ``model``. Also accepted: item_id/id/question/question_id/doc_id/
        example/example_id; human_label/human_score/gold/gold_label/label/
        reference/annotation; judge_label/judge_score/llm/llm_judge/llm_label/
        prediction/pred/auto; model_name/system. Labels are numbers (0/1 or
        scores) or true/false/yes/no.
    name : str, optional
        How messages call the file.

    Returns
    -------
    pandas.DataFrame
        ``item, [model,] human, judge`` (floats for the labels).

    Raises
    ------
    ValueError
        Unreadable file (see :func:`core.uploads.read_table`), missing columns,
        a label that is not a number, a repeated item (per model).
    """
    table = uploads.read_table(data, name=name, min_columns=3, header="yes", max_rows=_MAX_ROWS)
    return _tidy(table, name)


@dataclass(frozen=True)
class JudgeFit:
    """Judge–human agreement estimated from calibration items, with bootstrap SEs.

    Attributes
    ----------
    n_items : int
        Items used (items with both models when ``paired``).
    paired : bool
        True when the file had two models: the estimates are of D = human_A −
        human_B and g = judge_A − judge_B (``sd``, ``correlation``, ``mean_bias``).
    binary : bool
        True when every human and judge label is 0 or 1.
    models : tuple of str
        The two models (paired files), else ``()``.
    sd, correlation, mean_bias : float
        SD of the human label (of D), Pearson corr(human, judge) (corr(D, g)),
        mean(judge − human) (mean(g − D)).
    sensitivity, specificity, prevalence : float
        P(judge 1 | human 1), P(judge 0 | human 0), mean human label over all
        rows (``nan`` unless ``binary``).
    sd_judge : float
        SD of the judge label (of g).
    sd_se, correlation_se, mean_bias_se, sensitivity_se, specificity_se, prevalence_se : float
        Bootstrap SEs (resampling items).
    n_boot : int
        Bootstrap replicates.
    """

    n_items: int
    paired: bool
    binary: bool
    models: tuple
    sd: float
    correlation: float
    mean_bias: float
    sensitivity: float
    specificity: float
    prevalence: float
    sd_judge: float
    sd_se: float
    correlation_se: float
    mean_bias_se: float
    sensitivity_se: float
    specificity_se: float
    prevalence_se: float
    n_boot: int


def _stats(h, g, w):
    """Weighted (bootstrap-count) statistics; rows of ``w`` are replicates. h, g: (n,) or (n, 2)."""
    tot = w.sum(axis=1)
    if h.ndim == 2:
        d, e = h[:, 0] - h[:, 1], g[:, 0] - g[:, 1]
    else:
        d, e = h, g
    md, me = w @ d / tot, w @ e / tot
    vd = w @ d**2 / tot - md**2
    ve = w @ e**2 / tot - me**2
    cov = w @ (d * e) / tot - md * me
    with np.errstate(divide="ignore", invalid="ignore"):
        corr = cov / np.sqrt(vd * ve)
    k = tot / np.maximum(tot - 1, 1)  # n − 1 divisor
    out = {"sd": np.sqrt(np.maximum(vd * k, 0)), "sd_judge": np.sqrt(np.maximum(ve * k, 0)), "correlation": corr,
           "mean_bias": me - md}
    hh, gg = (h, g) if h.ndim == 1 else (h.ravel(), g.ravel())
    ww = w if h.ndim == 1 else np.repeat(w, 2, axis=1)
    pos = ww @ hh
    neg = ww @ (1 - hh)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["sensitivity"] = ww @ (hh * gg) / pos
        out["specificity"] = ww @ ((1 - hh) * (1 - gg)) / neg
    out["prevalence"] = pos / ww.sum(axis=1)
    return out


def fit_judge(df, *, n_boot: int = 500, seed=0) -> JudgeFit:
    """Estimate the judge's correlation, Se/Sp and bias from calibration items.

    Parameters
    ----------
    df : pandas.DataFrame or bytes
        Calibration items: columns ``item``, ``human``, ``judge``, optional
        ``model`` (common alternative names accepted, see
        :func:`read_calibration`); bytes are read with :func:`read_calibration`.
        Without ``model`` each row is one item. With exactly two models the
        items both models have form a paired comparison.
    n_boot : int, optional
        Bootstrap replicates (100 … 10,000), resampling items.
    seed : int, optional
        Seed of the bootstrap.

    Returns
    -------
    JudgeFit

    Raises
    ------
    ValueError
        Fewer than 3 items, a constant human or judge label, or a ``model``
        column with other than two models (or no item with both).
    """
    if isinstance(df, (bytes, bytearray, memoryview)):
        df = read_calibration(bytes(df))
    elif not isinstance(df, pd.DataFrame):
        raise ValueError("`df` must be a table (pandas.DataFrame) or the file's bytes.")
    else:
        df = _tidy(df, "The calibration table")
    n_boot = check_int("n_boot", n_boot, low=100, high=10_000)
    models: tuple = ()
    if "model" in df.columns:
        models = tuple(pd.unique(df["model"]))
        if len(models) != 2:
            raise ValueError(f"The calibration table has {len(models)} model(s) in `model`; give exactly two "
                             "(a paired comparison) or drop the column.")
        wide = df.pivot(index="item", columns="model", values=["human", "judge"]).dropna()
        if len(wide) == 0:
            raise ValueError("No item has labels for both models.")
        h = wide["human"][list(models)].to_numpy(float)
        g = wide["judge"][list(models)].to_numpy(float)
    else:
        h, g = df["human"].to_numpy(float), df["judge"].to_numpy(float)
    n = len(h)
    if n < 3:
        raise ValueError(f"The calibration table has {n} usable item(s); at least 3 are needed.")
    binary = bool(np.isin(h, (0.0, 1.0)).all() and np.isin(g, (0.0, 1.0)).all())
    point = {k: float(v[0]) for k, v in _stats(h, g, np.ones((1, n))).items()}
    if not (point["sd"] > 0 and point["sd_judge"] > 0):
        raise ValueError("The human or the judge labels are all the same: the correlation is undefined.")
    rng = np.random.default_rng(seed)
    reps = []
    chunk = max(1, min(n_boot, 2_000_000 // n))
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        w = rng.multinomial(n, np.full(n, 1.0 / n), size=b).astype(float)
        reps.append(_stats(h, g, w))
        done += b
    boot = {k: np.concatenate([r[k] for r in reps]) for k in point}

    def sd_of(key):
        v = boot[key]
        v = v[np.isfinite(v)]
        return float(np.std(v, ddof=1)) if len(v) > 1 else math.nan

    nan = math.nan
    return JudgeFit(
        n_items=n, paired=bool(models), binary=binary, models=models, sd=point["sd"],
        correlation=point["correlation"], mean_bias=point["mean_bias"],
        sensitivity=point["sensitivity"] if binary else nan, specificity=point["specificity"] if binary else nan,
        prevalence=point["prevalence"] if binary else nan, sd_judge=point["sd_judge"], sd_se=sd_of("sd"),
        correlation_se=sd_of("correlation"), mean_bias_se=sd_of("mean_bias"),
        sensitivity_se=sd_of("sensitivity") if binary else nan,
        specificity_se=sd_of("specificity") if binary else nan,
        prevalence_se=sd_of("prevalence") if binary else nan, n_boot=n_boot)


def sample_calibration() -> pd.DataFrame:
    """The shipped synthetic calibration file (``core/data/judge_sample/calibration.csv``), read like an upload."""
    return read_calibration(SAMPLE_FILE.read_bytes(), name=f"`{SAMPLE_FILE.name}`")


# ---------------------------------------------------------------------------
# agreement studies (two raters, binary or nominal labels)
# ---------------------------------------------------------------------------
def _check_agreement(prevalence, kappa, statistic="cohen"):
    check_choice("statistic", statistic, tuple(STATISTICS))
    if np.ndim(prevalence) == 0:
        p = np.array([check_probability("prevalence", prevalence, open_low=True, open_high=True)])
        p = np.array([p[0], 1 - p[0]])
    else:
        p = np.asarray(prevalence, dtype=float).ravel()
        if len(p) < 2 or not np.all(np.isfinite(p)) or np.any(p <= 0) or abs(p.sum() - 1) > 1e-9:
            raise ValueError("`prevalence` must be a rate in (0, 1) or category shares > 0 that sum to 1; got "
                             f"{np.asarray(prevalence).tolist()!r}.")
    low = float(np.max(-p / (1 - p)))
    kappa = check_real("kappa", kappa, low=low, high=1.0, high_open=True)
    return p, kappa


def agreement_table(prevalence, kappa) -> np.ndarray:
    """The population table of two raters with shared category shares and Cohen's κ.

    P = κ·diag(p) + (1 − κ)·p·pᵀ: both raters have shares p, and they agree
    beyond chance by κ (P_o = κ + (1 − κ)Σp², P_e = Σp², so Cohen's κ = κ).
    ``prevalence`` is the rate of the positive class (binary) or the shares
    of q >= 2 categories; κ must lie in [max(−p/(1 − p)), 1).

    Examples
    --------
    >>> agreement_table(0.3, 0.6).round(3).tolist()
    [[0.216, 0.084], [0.084, 0.616]]
    """
    p, kappa = _check_agreement(prevalence, kappa)
    return kappa * np.diag(p) + (1 - kappa) * np.outer(p, p)


def _coefficient_and_var1(table: np.ndarray, statistic: str) -> tuple[float, float]:
    """(coefficient, n·Var) of a two-rater statistic at a population table (Gwet 2014, ch. 5, nominal weights)."""
    q = table.shape[0]
    pa = float(np.trace(table))
    row, col = table.sum(axis=1), table.sum(axis=0)
    if statistic == "cohen":
        # Fleiss, Cohen & Everitt (1969), written in Gwet's (2014, ch. 5) two-rater form
        pe = float(row @ col)
        c = (pa - pe) / (1 - pe)
        term = np.eye(q) - (1 - c) * (col[:, None] + row[None, :])
    elif statistic == "krippendorff":
        # α = 1 − D_o/D_e with pooled shares π; as n → ∞ it is Scott's π, whose linearised variance is used
        pi = (row + col) / 2
        pe = float(pi @ pi)
        c = (pa - pe) / (1 - pe)
        term = np.eye(q) - (1 - c) * (pi[:, None] + pi[None, :])
    else:  # gwet_ac1 — Gwet (2008), the two-rater variance of AC1
        pi = (row + col) / 2
        pe = float(pi @ (1 - pi)) / (q - 1)
        c = (pa - pe) / (1 - pe)
        term = np.eye(q) - 2 * (1 - c) * (1 - (pi[:, None] + pi[None, :]) / 2) / (q - 1)
    var1 = (float(np.sum(table * term**2)) - (pa - 2 * (1 - c) * pe) ** 2) / (1 - pe) ** 2
    return c, max(var1, 0.0)


def agreement_value(*, prevalence, kappa, statistic="cohen") -> float:
    """The population value of ``statistic`` at the table of :func:`agreement_table`.

    Examples
    --------
    >>> round(agreement_value(prevalence=0.3, kappa=0.6, statistic="gwet_ac1"), 4)
    0.7103
    """
    p, kappa = _check_agreement(prevalence, kappa, statistic)
    table = kappa * np.diag(p) + (1 - kappa) * np.outer(p, p)
    return _coefficient_and_var1(table, statistic)[0]


def agreement_se(n, *, prevalence, kappa, statistic="cohen"):
    """Large-sample SE of an agreement coefficient of two raters on n items.

    Parameters
    ----------
    n : int or array_like of int
        Items rated by both raters (>= 2).
    prevalence : float or sequence of float
        Rate of the positive label (binary), or the shares of the q categories
        (nominal), shared by both raters.
    kappa : float
        The raters' true Cohen's κ, which fixes the table (:func:`agreement_table`).
    statistic : {"cohen", "krippendorff", "gwet_ac1"}
        Cohen's κ: the large-sample variance of Fleiss, Cohen & Everitt (1969).
        Gwet's AC1: Gwet's (2008) linearised variance for two raters.
        Krippendorff's α (nominal): the linearised variance of Scott's π
        (Gwet 2014, ch. 5); for two raters without missing data α differs from
        Scott's π by O(1/n), so both share the large-sample variance.

    Returns
    -------
    float or ndarray
        √(V₁/n), where V₁ is n times the variance at the population table.

    Examples
    --------
    >>> round(agreement_se(500, prevalence=0.3, kappa=0.6), 6)
    0.039192
    """
    p, kappa = _check_agreement(prevalence, kappa, statistic)
    arr = np.asarray(n, dtype=float)
    if np.any(~np.isfinite(arr)) or np.any(arr < 2):
        raise ValueError(f"`n` must be at least 2; got {n!r}.")
    table = kappa * np.diag(p) + (1 - kappa) * np.outer(p, p)
    _, var1 = _coefficient_and_var1(table, statistic)
    out = np.sqrt(var1 / arr)
    return float(out) if out.ndim == 0 else out


def agreement_sample_size(*, prevalence, kappa, halfwidth, statistic="cohen", confidence=0.95) -> int:
    """Fewest items for which the confidence interval's half-width z·SE is at most ``halfwidth``.

    Parameters
    ----------
    prevalence, kappa, statistic
        As in :func:`agreement_se`.
    halfwidth : float
        Wanted half-width of the interval, > 0.
    confidence : float, optional
        Confidence level in (0, 1); z = z_{(1+confidence)/2}.

    Returns
    -------
    int
        The smallest n >= 2 with z·agreement_se(n) <= halfwidth.

    Examples
    --------
    >>> agreement_sample_size(prevalence=0.3, kappa=0.6, halfwidth=0.1)
    296
    """
    p, kappa = _check_agreement(prevalence, kappa, statistic)
    halfwidth = check_real("halfwidth", halfwidth, low=0.0, low_open=True)
    confidence = check_probability("confidence", confidence, open_low=True, open_high=True)
    table = kappa * np.diag(p) + (1 - kappa) * np.outer(p, p)
    _, var1 = _coefficient_and_var1(table, statistic)
    z = stats.norm.ppf((1 + confidence) / 2)
    n = max(2, math.ceil(var1 * (z / halfwidth) ** 2))
    if n > _N_MAX:
        raise ValueError("`halfwidth` is too small: more than a billion items would be needed.")
    # float noise: the smallest n as computed by agreement_se
    while n > 2 and z * math.sqrt(var1 / (n - 1)) <= halfwidth:
        n -= 1
    while z * math.sqrt(var1 / n) > halfwidth:
        n += 1
    return int(n)


def agreement_curve(ns, *, prevalence, kappa, statistics=tuple(STATISTICS), confidence=0.95) -> pd.DataFrame:
    """Precision of agreement coefficients against the number of double-annotated items.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``statistic, n, value, se, halfwidth`` (halfwidth = z·se).
    """
    confidence = check_probability("confidence", confidence, open_low=True, open_high=True)
    z = stats.norm.ppf((1 + confidence) / 2)
    ns = np.asarray(ns, dtype=float).ravel()
    frames = []
    for s in statistics:
        se = agreement_se(ns, prevalence=prevalence, kappa=kappa, statistic=s)
        frames.append(pd.DataFrame({"statistic": s, "n": ns.astype(np.int64),
                                    "value": agreement_value(prevalence=prevalence, kappa=kappa, statistic=s),
                                    "se": se, "halfwidth": z * se}))
    return pd.concat(frames, ignore_index=True)


def prevalence_paradox_curve(*, agreement=0.9, prevalences=None) -> pd.DataFrame:
    """Cohen's κ, Krippendorff's α and Gwet's AC1 across prevalence at fixed raw agreement.

    Two raters with the same prevalence θ disagree on a share 1 − P_o of
    items, split evenly between the two kinds of disagreement:
    P = [[θ − d, d], [d, 1 − θ − d]], d = (1 − P_o)/2. Raw agreement is P_o
    everywhere, yet κ (chance term θ² + (1 − θ)²) falls towards 0 as θ moves
    away from 0.5 — the first paradox of Feinstein & Cicchetti (1990) — while
    AC1 (chance term 2θ(1 − θ)) stays near P_o (Gwet 2008, §3). α tracks κ.

    Parameters
    ----------
    agreement : float
        Raw agreement P_o in (0.5, 1).
    prevalences : array_like, optional
        Prevalences θ; the default is 199 points across the feasible range
        [d, 1 − d].

    Returns
    -------
    pandas.DataFrame
        Tidy: ``prevalence, statistic, value, agreement``.

    Examples
    --------
    >>> c = prevalence_paradox_curve(agreement=0.9, prevalences=[0.5, 0.1])
    >>> c.round(3).pivot(index="prevalence", columns="statistic", values="value").values.tolist()
    [[0.444, 0.878, 0.444], [0.8, 0.8, 0.8]]
    """
    po = check_real("agreement", agreement, low=0.5, high=1.0, low_open=True, high_open=True)
    d = (1 - po) / 2
    if prevalences is None:
        th = np.linspace(d, 1 - d, 201)[1:-1]
    else:
        th = np.asarray(prevalences, dtype=float).ravel()
        if np.any(~np.isfinite(th)) or np.any(th < d) or np.any(th > 1 - d):
            raise ValueError(f"`prevalences` must lie in [{d:g}, {1 - d:g}] at raw agreement {po:g}.")
    pe_k = th**2 + (1 - th) ** 2  # Cohen and Scott/α coincide: both raters share the prevalence
    pe_g = 2 * th * (1 - th)
    kappa = (po - pe_k) / (1 - pe_k)
    ac1 = (po - pe_g) / (1 - pe_g)
    return pd.concat([pd.DataFrame({"prevalence": th, "statistic": s, "value": v, "agreement": po})
                      for s, v in (("cohen", kappa), ("krippendorff", kappa), ("gwet_ac1", ac1))],
                     ignore_index=True)

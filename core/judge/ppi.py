"""PPI++ planning of human and judge labels, and the Rogan–Gladen corrected judge (see :mod:`core.judge`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, stats

from core.validation import check_int, check_probability, check_real

__all__ = ["JudgeDesign", "Strategy", "PPIPlan", "CorrectedRate", "ppi_se", "ppi_plan", "ppi_curve", "split_curve", "strategy_table",
           "judge_correlation", "rogan_gladen"]

#: Largest item count any judge plan considers (a billion judge calls; also the agreement and active-labelling
#: searches' cap).
_N_MAX = 10**9


# ---------------------------------------------------------------------------
# validation (one helper for the module)
# ---------------------------------------------------------------------------
def _check_ppi(sd, correlation, cost_human=None, cost_judge=None, alpha=0.05):
    sd = check_real("sd", sd, low=0.0, low_open=True)
    correlation = check_real("correlation", correlation, low=-1.0, high=1.0)
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
        Judge–human correlation ρ in [−1, 1] (|ρ| = 1: a judge that agrees with
        every human label, so Var = σ²/(n + N)).

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


#: Largest interval of human-label counts enumerated around the optimum (see :func:`_candidates`).
_SCAN_MAX = 5_000_000


def _quadratic_interval(qa, qb, qc):
    """Real interval where qa·n² + qb·n + qc < 0 (qa > 0), or None; widened by 2 against float noise."""
    disc = qb * qb - 4.0 * qa * qc
    if disc < 0:
        return None
    root = math.sqrt(disc)
    return (-qb - root) / (2.0 * qa) - 2.0, (-qb + root) / (2.0 * qa) + 2.0


def _candidates(window, interval, low, high):
    """The window plus every integer of ``interval`` ∩ [low, high] (at most ``_SCAN_MAX`` of them, centred)."""
    if interval is None:
        return window
    lo = max(low, math.floor(interval[0]))
    hi = min(high, math.ceil(interval[1]))
    if hi < lo:
        return window
    if hi - lo > _SCAN_MAX:  # a cost this flat: the plan is within one judge call of the optimum (docstring)
        mid = (lo + hi) // 2
        lo, hi = mid - _SCAN_MAX // 2, mid + _SCAN_MAX // 2
    return np.unique(np.concatenate([window, np.arange(lo, hi + 1, dtype=np.int64)]))


def _budget_pairs(a, b, ch, cj, budget, ns):
    m = np.floor((budget - ns * ch) / cj * (1 + 1e-12)).astype(np.int64)
    m = np.minimum(m, _N_MAX)
    # never over budget after rounding (the 1e-12 only absorbs float noise in budget/cost)
    m = np.where(ns * ch + m * cj > budget * (1 + 1e-12), m - 1, m)
    m = np.maximum(m, ns) if b > 0 else ns  # a useless judge (ρ = 0): buy no judge-only calls
    return m, a / ns + b / m


def _plan_budget(a, b, ch, cj, budget):
    """Most precise whole-number design within ``budget``.

    Every n in a window around the continuous optimum is tried, then every n the following bound cannot
    exclude. With M(n) the judge-inclusive count bought, M(n) <= (B − n·c_h)/c_j, so
    Var(n) = a/n + b/M(n) >= v(n) = a/n + b·c_j/(B − n·c_h), convex on (0, B/c_h). An n can beat the best
    variance V* found only if v(n) < V*, i.e. on the interval where
    V*·c_h·n² + (b·c_j − a·c_h − V*·B)·n + a·B < 0; all its integers are tried.
    """
    n_top = math.floor(budget / (ch + cj) * (1 + 1e-12))
    if n_top < 2:
        raise ValueError(f"`budget` must buy at least 2 human-labelled items ({2 * (ch + cj):g}); got {budget:g}.")
    nu, _ = _continuous_split(a, b, ch, cj)
    ns = _window(nu * budget, n_top)
    ns = ns[ns <= n_top]
    _, var = _budget_pairs(a, b, ch, cj, budget, ns)
    best = float(var.min())
    ns = _candidates(ns, _quadratic_interval(best * ch, b * cj - a * ch - best * budget, a * budget), 2, n_top)
    m, var = _budget_pairs(a, b, ch, cj, budget, ns)
    i = int(np.argmin(var))  # first minimum → the smaller n on ties
    return int(ns[i]), int(m[i])


def _target_pairs(a, b, target_var, ns):
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
    return ns[keep], m[keep].astype(np.int64)


def _plan_target(a, b, ch, cj, target_var, *, name="target_se"):
    """Cheapest whole-number design with Var <= ``target_var`` (then the most precise among equally cheap).

    Every n in a window around the continuous optimum is tried, plus the human-only design, then every n the
    following bound cannot exclude. For n > a/T² the fewest judge-inclusive items are
    M(n) = max(n, ⌈b/(T² − a/n)⌉), so cost(n) = n·c_h + M(n)·c_j >= f(n) = n·c_h + c_j·max(n, b·n/(T²n − a)),
    a maximum of convex functions, hence convex. An n can beat the cheapest cost C* found only if f(n) < C*:
    n < C*/(c_h + c_j) and n·c_h + c_j·b·n/(T²n − a) < C*, i.e.
    c_h·T²·n² + (c_j·b − c_h·a − C*·T²)·n + C*·a < 0; all integers of that interval are tried (at most
    5,000,000 around its centre — were it wider, f would be flat to within c_j there and the plan is within one
    judge call's cost of the optimum, since cost(n) < f(n) + c_j).
    """
    total = (math.sqrt(a * ch) + math.sqrt(b * cj)) ** 2 / target_var  # continuous optimal cost
    nu, _ = _continuous_split(a, b, ch, cj)
    n_floor = a / target_var  # n must exceed a/T² when M is unlimited
    ns = _window(max(nu * total, n_floor + 1), _N_MAX)
    ns = np.unique(np.concatenate([ns, [max(2, math.ceil((a + b) / target_var))]]))  # the human-only design
    ns, m = _target_pairs(a, b, target_var, ns)
    if ns.size == 0:
        raise ValueError(f"`{name}` is too small: the design would need more than {_N_MAX:,} items.")
    best = float((ns * ch + m * cj).min())
    interval = _quadratic_interval(ch * target_var, cj * b - ch * a - best * target_var, best * a)
    if interval is not None:
        interval = (max(interval[0], n_floor), min(interval[1], best / (ch + cj) + 2.0))
    ns = _candidates(ns, interval, 2, _N_MAX)
    ns, m = _target_pairs(a, b, target_var, ns)
    cost = ns * ch + m * cj
    var = a / ns + b / m
    order = np.lexsort((var, cost))  # cheapest, then most precise
    i = int(order[0])
    return int(ns[i]), int(m[i])


@dataclass(frozen=True)
class JudgeDesign:
    """An estimate from human and LLM-judge labels, everything :func:`ppi_plan` needs: the page builds it once.

    The fields are :func:`ppi_plan`'s keyword arguments (see there): the label SD and judge–human correlation,
    the two costs, one of ``budget`` / ``target_se`` / ``delta`` (with ``target_power``), α, whether two models are
    compared on the same items, and for binary labels the judge's prevalence, sensitivity and specificity. They are
    checked once, here, by the module's validation helper. Frozen and compared by value, so it is a cache key.

    Examples
    --------
    >>> d = JudgeDesign(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    >>> d.plan() == ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01, budget=1000)
    True
    """

    sd: float
    correlation: float
    cost_human: float
    cost_judge: float
    budget: float | None = None
    target_se: float | None = None
    delta: float | None = None
    target_power: float = 0.8
    alpha: float = 0.05
    paired: bool = False
    sd_judge: float | None = None
    prevalence: float | None = None
    sensitivity: float | None = None
    specificity: float | None = None

    def __post_init__(self):
        sd, correlation, cost_human, cost_judge, alpha = _check_ppi(self.sd, self.correlation, self.cost_human,
                                                                    self.cost_judge, self.alpha)
        for name, value in (("sd", sd), ("correlation", correlation), ("cost_human", cost_human),
                            ("cost_judge", cost_judge), ("alpha", alpha)):
            object.__setattr__(self, name, value)
        if sum(x is not None for x in (self.budget, self.target_se, self.delta)) != 1:
            raise ValueError("Give exactly one of `budget`, `target_se` and `delta` (what the plan aims at).")

    @property
    def judged_by_accuracy(self) -> bool:
        """Whether the judge is described by its sensitivity and specificity on binary labels."""
        return self.sensitivity is not None and self.specificity is not None

    def kwargs(self) -> dict:
        """The fields as keyword arguments of :func:`ppi_plan`."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def plan(self) -> PPIPlan:
        """:func:`ppi_plan` for this design."""
        return ppi_plan(**self.kwargs())


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
        Judge–human correlation ρ (corr(D, g) when ``paired``), in [−1, 1].
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
    ``target_power``. The window is then widened to every n that a convex
    lower bound on the cost (target modes) or the variance (budget mode)
    cannot rule out, so the pair is the integer optimum (proof in
    ``_plan_target`` / ``_plan_budget``; it can lie at the corner M ≈ n,
    e.g. n = 20,698, n + N = 20,700). In delta mode the target SE solves
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
        items_per_unit = _continuous_split(a, b, ch, cj)[1]
        if items_per_unit * budget > _N_MAX:
            # beyond the item cap the whole-number search is neither fast nor optimal (it scans millions of n)
            raise ValueError(f"`budget` is too large: its best design would use more than {_N_MAX:,} items "
                             f"(at most about {_N_MAX / items_per_unit:,.0f} at these costs).")
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
        name = "target_se" if mode == "target_se" else "delta"
        # a/n + b/m <= T² needs n >= a/T² human labels and m >= b/T² items: beyond the item cap, no design (and the
        # search window around the optimum would overflow)
        if not target**2 > 0 or max(a, b) / target**2 > _N_MAX:
            raise ValueError(f"`{name}` is too small: no design of at most {_N_MAX:,} items reaches it.")
        n, m = _plan_target(a, b, ch, cj, target**2, name=name)
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
    rho = min(1.0, max(-1.0, rho))  # |ρ| <= 1 exactly; rounding must not leave the engines' range
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

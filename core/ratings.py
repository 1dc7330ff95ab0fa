"""Power of Likert human evaluations with crossed worker × item variance.

Card et al. (2020), §5.2 and appendix H.3 (equations 5–10, Tables 13–16);
Westfall, Kenny & Judd (2014) for the analytic power of crossed designs.

Model (equation 5), system indicator x = ±1 (so the two systems' mean ratings
differ by 2 × ``effect``)::

    Y_wis = β0 + W0_w + I0_i + (β1 + W1_w + I1_i) x_s + e_wis

with independent W0 ~ N(0, σ_w0²), W1 ~ N(0, σ_w1²), I0 ~ N(0, σ_i0²),
I1 ~ N(0, σ_i1²), e ~ N(0, σ²). In the paper's fully crossed design every one
of W workers rates every one of I items under both systems.

Why the fit is cheap: per worker × item cell, the difference
``D = Y+ − Y−`` and the sum ``S = Y+ + Y−`` are independent, and each is a
balanced two-way crossed layout (worker, item) with residual variance 2σ²
(shared). For such a layout the likelihood depends on the data only through
the grand mean and three sums of squares (workers, items, residual), with
covariance eigenvalues

    λ_E = 2σ²,  λ_W = 2σ² + 4Iσ_w²,  λ_I = 2σ² + 4Wσ_i²,  λ_0 = λ_W + λ_I − λ_E,

(slopes for D, intercepts for S). So maximum likelihood (or REML) for the
five variance components is a one-dimensional search over σ² with the other
components in near-closed form — vectorized over all simulated replicates
instead of one mixed-model fit per replicate. β̂1 = mean(D)/2 with
Var(β̂1) = λ_0 / (4WI).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .results import nan_if_zero
from .validation import check_alpha, check_choice, check_int, check_real

__all__ = [
    "PILOT_ROLES",
    "read_pilot",
    "PRESETS",
    "DATASET_PRESETS",
    "RULES",
    "METHODS",
    "RatingsResult",
    "likert_power",
    "likert_mde",
    "smallest_design",
    "budget_plans",
    "fit_pilot",
    "PilotFit",
    "MAX_PILOT_RATINGS",
    "MAX_ABS_RATING",
    "MAX_SIMULATED_CELLS",
    "simulate_statistics",
    "fit_balanced",
    "analytic_grid",
    "likert_assurance",
    "assurance_plans",
    "crowd_assurance",
    "crowd_power",
    "crowd_analytic",
    "crowd_plans",
]

RULES = ("paper", "satterthwaite")
METHODS = ("simulate", "analytic")
_SIGMAS = ("sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma")

#: Table 16 of Card et al. (2020): "low" and "high" variance settings
#: (worker intercept, worker slope, item intercept, item slope, residual SD).
PRESETS: dict[str, dict[str, float]] = {
    "low": {"sigma_w0": 0.01, "sigma_w1": 0.04, "sigma_i0": 0.01, "sigma_i1": 0.13, "sigma": 0.16},
    "high": {"sigma_w0": 0.01, "sigma_w1": 0.11, "sigma_i0": 0.04, "sigma_i1": 0.14, "sigma": 0.26},
}

#: Per-dataset fits of Tables 13–15 for the datasets that compare two systems
#: (β0, β1 = effect, σ_wi = residual; worker and item intercept/slope SDs from
#: the first two columns of Tables 14 and 15 — the extracted tables list a
#: third value for these datasets that the text does not explain).
DATASET_PRESETS: dict[str, dict[str, float]] = {
    "Hashimoto et al. 2019 (LM)": {"baseline": 0.55, "effect": -0.03, "sigma_w0": 0.0, "sigma_w1": 0.11,
                                   "sigma_i0": 0.04, "sigma_i1": 0.14, "sigma": 0.25},
    "Hashimoto et al. 2019 (summarization)": {"baseline": 0.58, "effect": 0.06, "sigma_w0": 0.0, "sigma_w1": 0.13,
                                              "sigma_i0": 0.07, "sigma_i1": 0.0, "sigma": 0.26},
    "WMT19": {"baseline": 0.86, "effect": 0.04, "sigma_w0": 0.07, "sigma_w1": 0.04, "sigma_i0": 0.05,
              "sigma_i1": 0.03, "sigma": 0.12},
}

_Z_PAPER = 1.96


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _validate(workers, items, effect, sigmas, baseline, alpha, rule, method):
    workers = check_int("workers", workers, low=2, high=10_000)
    items = check_int("items", items, low=2, high=100_000)
    effect = check_real("effect", effect, low=-0.5, high=0.5)
    sigmas = {k: check_real(k, v, low=0.0, high=2.0) for k, v in sigmas.items()}
    if sigmas["sigma"] <= 0:
        raise ValueError("`sigma` (residual SD) must be positive, in (0, 2].")
    baseline = check_real("baseline", baseline, low=0.0, high=1.0)
    alpha = check_alpha(alpha)
    rule = check_choice("rule", rule, RULES)
    method = check_choice("method", method, METHODS)
    if method == "analytic" and rule != "satterthwaite":
        raise ValueError("`method` 'analytic' is available with `rule` 'satterthwaite' only (the paper's rule "
                         "has no closed form).")
    return workers, items, effect, sigmas, baseline, alpha, rule, method


# ---------------------------------------------------------------------------
# sufficient statistics and the balanced-design fit
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Stats:
    """Per-replicate sufficient statistics of the D (difference) and S (sum) layouts."""

    mean_d: np.ndarray
    ss: dict  # ("D"|"S", "E"|"W"|"I") -> array


def _eigen(workers, items, sigmas):
    two_s2 = 2 * sigmas["sigma"] ** 2
    return {
        ("D", "E"): two_s2, ("D", "W"): two_s2 + 4 * items * sigmas["sigma_w1"] ** 2,
        ("D", "I"): two_s2 + 4 * workers * sigmas["sigma_i1"] ** 2,
        ("S", "E"): two_s2, ("S", "W"): two_s2 + 4 * items * sigmas["sigma_w0"] ** 2,
        ("S", "I"): two_s2 + 4 * workers * sigmas["sigma_i0"] ** 2,
    }


def _dfs(workers, items):
    return {"E": (workers - 1) * (items - 1), "W": workers - 1, "I": items - 1}


def simulate_statistics(workers, items, effect, *, n_sims, seed=None, likert=None, baseline=0.5,
                        **sigmas) -> _Stats:
    """Draw the sufficient statistics of ``n_sims`` simulated experiments.

    Without ``likert`` the statistics are drawn from their exact joint
    distribution (independent scaled χ² sums of squares and a normal grand
    mean), which is the same as simulating every rating. With ``likert = k``
    every rating is simulated, rounded to a k-point scale on [0, 1] and
    clipped, and the statistics are computed from the ratings.
    """
    rng = np.random.default_rng(seed)
    df = _dfs(workers, items)
    if likert is None:
        lam = _eigen(workers, items, sigmas)
        ss = {key: lam[key] * rng.chisquare(df[key[1]], size=n_sims) for key in lam}
        lam0 = lam[("D", "W")] + lam[("D", "I")] - lam[("D", "E")]
        mean_d = rng.normal(2 * effect, math.sqrt(lam0 / (workers * items)), size=n_sims)
        return _Stats(mean_d=mean_d, ss=ss)
    k = check_int("likert", likert, low=2, high=1001)
    _check_simulated_cells(n_sims, workers * items, "`workers` × `items`")
    scale = k - 1
    parts = []
    for reps in _chunks(n_sims, workers * items):  # bounded memory: about a million cells at a time
        size = (reps, workers, items)
        w0 = rng.normal(0, sigmas["sigma_w0"], (reps, workers, 1))
        w1 = rng.normal(0, sigmas["sigma_w1"], (reps, workers, 1))
        i0 = rng.normal(0, sigmas["sigma_i0"], (reps, 1, items))
        i1 = rng.normal(0, sigmas["sigma_i1"], (reps, 1, items))
        centre = baseline + w0 + i0
        slope = effect + w1 + i1
        y_plus = np.clip(np.rint((centre + slope + rng.normal(0, sigmas["sigma"], size)) * scale), 0, scale) / scale
        y_minus = np.clip(np.rint((centre - slope + rng.normal(0, sigmas["sigma"], size)) * scale), 0, scale) / scale
        parts.append(_stats_from_cells(y_plus - y_minus, y_plus + y_minus))
    return _Stats(mean_d=np.concatenate([p.mean_d for p in parts]),
                  ss={key: np.concatenate([p.ss[key] for p in parts]) for key in parts[0].ss})


#: Most cells one simulation may draw (replicates × cells per replicate, for each of the effect and the null):
#: about 1–2 s on a small machine. Larger requests are refused with what to reduce.
MAX_SIMULATED_CELLS = 10_000_000
_CHUNK_CELLS = 1_000_000


def _check_simulated_cells(n_sims, cells, what):
    if n_sims * cells > MAX_SIMULATED_CELLS:
        most = MAX_SIMULATED_CELLS // cells
        advice = (f"reduce `n_sims` to at most {most:,}" if most >= 50 else f"reduce {what}")
        raise ValueError(f"`n_sims` × {what} = {n_sims:,} × {cells:,} is more than one simulation can draw "
                         f"({MAX_SIMULATED_CELLS:,} cells); {advice}.")


def _chunks(n_sims, cells):
    """Replicate counts of at most about :data:`_CHUNK_CELLS` cells each, summing to ``n_sims``."""
    step = max(1, _CHUNK_CELLS // max(cells, 1))
    return [min(step, n_sims - start) for start in range(0, n_sims, step)]


def _stats_from_cells(d, s) -> _Stats:
    """Sufficient statistics from per-cell D and S arrays of shape (R, W, I)."""
    workers, items = d.shape[1], d.shape[2]
    ss = {}
    for name, x in (("D", d), ("S", s)):
        grand = x.mean(axis=(1, 2))
        w_mean = x.mean(axis=2)
        i_mean = x.mean(axis=1)
        ss[(name, "W")] = items * ((w_mean - grand[:, None]) ** 2).sum(axis=1)
        ss[(name, "I")] = workers * ((i_mean - grand[:, None]) ** 2).sum(axis=1)
        resid = x - w_mean[:, :, None] - i_mean[:, None, :] + grand[:, None, None]
        ss[(name, "E")] = (resid**2).sum(axis=(1, 2))
        if name == "D":
            mean_d = grand
    return _Stats(mean_d=mean_d, ss=ss)


def _inner(s, ssw, ssi, nw, ni, ml, iterations=40):
    """Given λ_E = s, the λ_W = a and λ_I = b that maximize one layout's likelihood (a, b >= s)."""
    a = np.maximum(ssw / nw, s)
    b = np.maximum(ssi / ni, s)
    if not ml:  # REML: no grand-mean term, the stationary point is explicit
        return a, b
    for _ in range(iterations):
        # stationarity of n log a + SS/a + log(a + b - s): a = SS / (n + a/(a + b - s))
        lam0 = a + b - s
        a = np.maximum(ssw / (nw + a / lam0), s)
        b = np.maximum(ssi / (ni + b / lam0), s)
    return a, b


def _objective(s, st: _Stats, df, ml):
    total = 0.0
    parts = {}
    for part in ("D", "S"):
        a, b = _inner(s, st.ss[(part, "W")], st.ss[(part, "I")], df["W"], df["I"], ml)
        value = (df["E"] * np.log(s) + st.ss[(part, "E")] / s + df["W"] * np.log(a) + st.ss[(part, "W")] / a
                 + df["I"] * np.log(b) + st.ss[(part, "I")] / b)
        if ml:
            value = value + np.log(a + b - s)
        total = total + value
        parts[part] = (a, b)
    return total, parts


def _moments_fit(st: _Stats, workers, items):
    """REML for the balanced design: the mean-square (ANOVA) solution of the REML equations.

    λ̂0 = MS_W + MS_I − MS_E and the Satterthwaite df
    λ̂0² / (MS_W²/ν_W + MS_I²/ν_I + MS_E²/ν_E) (Satterthwaite 1946; the df
    lmerTest reports for this balanced design). With few workers the df is
    estimated from very few degrees of freedom and the test is
    anti-conservative (about 8% false positives at W = 3, 5.7% at W = 5 for the
    high-variance setting; calibrated from W ≈ 10) — the page shows this rate.
    """
    df = _dfs(workers, items)
    s = (st.ss[("D", "E")] + st.ss[("S", "E")]) / (2 * df["E"])
    a = st.ss[("D", "W")] / df["W"]
    b = st.ss[("D", "I")] / df["I"]
    lam0 = a + b - s
    lam0 = np.where(lam0 > 0, lam0, np.minimum(a, b))  # rare: negative estimate, fall back conservatively
    sat_df = lam0**2 / (a**2 / df["W"] + b**2 / df["I"] + s**2 / (2 * df["E"]))
    return {"effect": st.mean_d / 2, "se": 0.5 * np.sqrt(lam0 / (workers * items)), "df": sat_df, "s": s,
            "a_d": a, "b_d": b}


def fit_balanced(st: _Stats, workers, items, *, ml=True, iterations=60):
    """ML (``ml=True``) or REML fit of the crossed model from sufficient statistics, per replicate.

    Returns
    -------
    dict
        ``effect`` (β̂1), ``se`` (its standard error from the fitted
        components), ``df`` (Satterthwaite degrees of freedom), and the
        fitted eigenvalues ``s``, ``a_d``, ``b_d``.

    Notes
    -----
    Golden-section search over log λ_E between 1/50 and 50 times the pooled
    residual mean square, all replicates at once; λ_W, λ_I follow from their
    stationarity conditions (clamped at λ_E, i.e. a zero variance component,
    as the bounded optimizers of lme4/statsmodels do).
    """
    df = _dfs(workers, items)
    pooled = (st.ss[("D", "E")] + st.ss[("S", "E")]) / (2 * df["E"])
    lo, hi = np.log(pooled / 50), np.log(pooled * 50)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(iterations):
        x1 = hi - ratio * (hi - lo)
        x2 = lo + ratio * (hi - lo)
        f1, _ = _objective(np.exp(x1), st, df, ml)
        f2, _ = _objective(np.exp(x2), st, df, ml)
        left = f1 < f2  # the minimum lies in [lo, x2]
        hi = np.where(left, x2, hi)
        lo = np.where(left, lo, x1)
    s = np.exp((lo + hi) / 2)
    _, parts = _objective(s, st, df, ml)
    a, b = parts["D"]
    lam0 = a + b - s
    se = 0.5 * np.sqrt(lam0 / (workers * items))
    # Satterthwaite: Var(λ̂0) from the mean squares entering it (a and b pool into s at the boundary)
    a_free, b_free = a > s * (1 + 1e-9), b > s * (1 + 1e-9)
    coef_s = -1.0 + (~a_free) + (~b_free)
    df_s = 2 * df["E"] + df["W"] * (~a_free) + df["I"] * (~b_free)
    denominator = (np.where(a_free, a**2 / df["W"], 0.0) + np.where(b_free, b**2 / df["I"], 0.0)
                   + coef_s**2 * s**2 / df_s)
    sat_df = np.where(denominator > 0, lam0**2 / np.maximum(denominator, 1e-300), np.inf)
    return {"effect": st.mean_d / 2, "se": se, "df": sat_df, "s": s, "a_d": a, "b_d": b}


# ---------------------------------------------------------------------------
# power
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class RatingsResult:
    """Operating characteristics of a human-rating design.

    Attributes
    ----------
    power : float
        P(detection in the right direction): for ``rule="paper"``, t > 1.96
        when the effect is positive (the paper counts only positive
        detections); for ``"satterthwaite"``, two-sided significance at α with
        the right sign.
    type_s, type_m : float
        Among significant results (|t| beyond the critical value): share with
        the wrong sign, and mean |β̂1| / |β1|.
    false_positive_rate : float
        Share of replicates at effect 0 that the rule counts as a detection
        (paper: t > 1.96, nominally 2.5%; Satterthwaite: |t| > t_crit, nominally α).
    mc_se, false_positive_rate_se : float
        Monte Carlo standard errors (0 for the analytic engine).
    mean_difference : float
        Difference in mean rating between the systems (2 × effect).
    n_sims : int
    """

    power: float
    type_s: float
    type_m: float
    false_positive_rate: float
    mc_se: float
    false_positive_rate_se: float
    mean_difference: float
    rule: str
    method: str
    n_sims: int = 0


def _detect(fit, rule, alpha):
    t = fit["effect"] / fit["se"]
    if rule == "paper":
        crit = np.full(t.shape, _Z_PAPER)
    else:
        crit = stats.t.isf(alpha / 2, np.where(np.isfinite(fit["df"]), fit["df"], 1e9))
    return t, crit


def likert_power(workers, items, effect, *, sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma, baseline=0.5,
                 alpha=0.05, rule="paper", method="simulate", n_sims=500, seed=None, likert=None) -> RatingsResult:
    """Power of a fully crossed Likert comparison of two systems (Card et al. 2020, §5.2).

    Parameters
    ----------
    workers, items : int
        W workers each rate all I items under both systems (2·W·I ratings).
    effect : float
        β1, the coefficient of the ±1-coded system indicator (Figure 6's x
        axis); the systems' mean ratings differ by 2 × effect on [0, 1].
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        Worker intercept/slope, item intercept/slope and residual SDs (Table 16).
    baseline : float, optional
        β0, the mean rating (matters only with ``likert``).
    alpha : float, optional
        Two-sided level for ``rule="satterthwaite"`` (the paper's rule is t > 1.96).
    rule : {"paper", "satterthwaite"}
        The paper's procedure (ML fit, detection when t > 1.96) or REML (the
        balanced design's mean-square solution, not truncated at zero) with a
        two-sided Satterthwaite t test.
    method : {"simulate", "analytic"}
        Vectorized simulation, or the Westfall–Kenny–Judd noncentral t
        (``rule="satterthwaite"`` only).
    n_sims : int
        Simulated experiments (the paper used 200).
    seed : int, optional
    likert : int, optional
        Round and clip every simulated rating to a k-point scale.

    Returns
    -------
    RatingsResult
        ``.power``, ``.type_s``, ``.type_m``, ``.false_positive_rate``, ``.mc_se``.

    References
    ----------
    Card et al. (2020), §5.2, appendix H.3, Figure 6, Table 16; Westfall, Kenny
    & Judd (2014), J. Exp. Psychol. Gen. 143:2020–2045.

    Examples
    --------
    Three workers and 100 items, high-variance setting (Table 16), effect 0.1:

    >>> r = likert_power(3, 100, 0.1, **PRESETS["high"], rule="satterthwaite", method="analytic")
    >>> round(r.power, 2)
    0.16
    """
    sigmas = dict(sigma_w0=sigma_w0, sigma_w1=sigma_w1, sigma_i0=sigma_i0, sigma_i1=sigma_i1, sigma=sigma)
    workers, items, effect, sigmas, baseline, alpha, rule, method = _validate(
        workers, items, effect, sigmas, baseline, alpha, rule, method)
    if method == "analytic":
        return _analytic(workers, items, effect, sigmas, alpha)
    n_sims = check_int("n_sims", n_sims, low=50, high=200_000)
    rng = np.random.default_rng(seed)
    alt = simulate_statistics(workers, items, effect, n_sims=n_sims, seed=rng, likert=likert, baseline=baseline,
                              **sigmas)
    null = simulate_statistics(workers, items, 0.0, n_sims=n_sims, seed=rng, likert=likert, baseline=baseline,
                               **sigmas)
    def fit_of(stats_):
        return fit_balanced(stats_, workers, items, ml=True) if rule == "paper" else _moments_fit(stats_, workers, items)

    fit = fit_of(alt)
    t, crit = _detect(fit, rule, alpha)
    fit0 = fit_of(null)
    t0, crit0 = _detect(fit0, rule, alpha)
    fpr = float(np.mean(t0 > crit0)) if rule == "paper" else float(np.mean(np.abs(t0) > crit0))
    sig = np.abs(t) > crit
    sign = np.sign(effect) if effect != 0 else 1.0
    right = sig & (np.sign(t) == sign)
    if effect == 0:  # no direction to get right: report the rule's rejection rate
        right = (t > crit) if rule == "paper" else sig
    power = float(right.mean())
    n_sig = int(sig.sum())
    type_s = nan_if_zero(float((sig & ~right).sum()), n_sig)
    type_m = float(np.abs(fit["effect"][sig]).mean() / abs(effect)) if n_sig and effect != 0 else math.nan
    return RatingsResult(power=power, type_s=type_s, type_m=type_m, false_positive_rate=fpr,
                         mc_se=math.sqrt(power * (1 - power) / n_sims), false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims),
                         mean_difference=2 * effect, rule=rule, method="simulate", n_sims=n_sims)


def _analytic(workers, items, effect, sigmas, alpha) -> RatingsResult:
    """Noncentral t with Satterthwaite df from the true components (Westfall, Kenny & Judd 2014)."""
    lam = _eigen(workers, items, sigmas)
    df = _dfs(workers, items)
    lam0 = lam[("D", "W")] + lam[("D", "I")] - lam[("D", "E")]
    dof = lam0**2 / (lam[("D", "W")] ** 2 / df["W"] + lam[("D", "I")] ** 2 / df["I"]
                     + lam[("D", "E")] ** 2 / (2 * df["E"]))
    ncp = 2 * effect * math.sqrt(workers * items / lam0)
    crit = stats.t.isf(alpha / 2, dof)
    up, low = stats.nct.sf(crit, dof, ncp), stats.nct.sf(crit, dof, -ncp)
    right, wrong = (up, low) if effect >= 0 else (low, up)
    power = float(right) if effect != 0 else float(up + low)
    return RatingsResult(power=power, type_s=nan_if_zero(float(wrong), float(up + low)) if effect else math.nan,
                         type_m=_analytic_type_m(effect, lam0, workers, items, crit, dof),
                         false_positive_rate=float(alpha), mc_se=0.0, false_positive_rate_se=0.0, mean_difference=2 * effect,
                         rule="satterthwaite", method="analytic")


def _analytic_type_m(effect, lam0, workers, items, crit, dof):
    """E|β̂1| over significant results, treating the SE as known (normal approximation of the t)."""
    if effect == 0:
        return math.nan
    se = 0.5 * math.sqrt(lam0 / (workers * items))
    mu = abs(effect)
    c = crit * se
    a, b = (c - mu) / se, (-c - mu) / se
    e_right = mu * stats.norm.sf(a) + se * stats.norm.pdf(a)
    e_wrong = -(mu * stats.norm.cdf(b) - se * stats.norm.pdf(b))
    mass = stats.norm.sf(a) + stats.norm.cdf(b)
    return float((e_right + e_wrong) / mass / mu) if mass > 0 else math.nan


def likert_mde(workers, items, *, target_power=0.8, alpha=0.05, **sigmas) -> float:
    """Smallest effect (β1) detected with ``target_power`` — analytic Satterthwaite engine."""
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    from scipy import optimize

    def gap(e):
        return likert_power(workers, items, e, **sigmas, alpha=alpha, rule="satterthwaite",
                            method="analytic").power - target_power

    if gap(0.5) < 0:
        return math.nan
    return float(optimize.brentq(gap, 1e-6, 0.5, xtol=1e-6))


def _analytic_power(w, i, effect, alpha, sigmas):
    return likert_power(w, i, effect, **sigmas, alpha=alpha, rule="satterthwaite", method="analytic").power


def _fewest_items(w, effect, target_power, alpha, max_items, sigmas):
    """(items, power) for the fewest items reaching the target with W = w, or (None, ceiling).

    Analytic power increases with the number of items, so bisection finds the smallest.
    """
    ceiling = _analytic_power(w, max_items, effect, alpha, sigmas)
    if ceiling < target_power:
        return None, ceiling
    lo, hi = 2, max_items
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _analytic_power(w, mid, effect, alpha, sigmas) >= target_power:
            hi = mid
        else:
            lo = mid
    return hi, _analytic_power(w, hi, effect, alpha, sigmas)


def smallest_design(effect, *, target_power=0.8, alpha=0.05, max_workers=50, max_items=5000, **sigmas):
    """Fewest ratings (2·W·I) reaching ``target_power`` (analytic engine): ``(W, I, ratings)`` or None."""
    best = None
    for w in range(2, max_workers + 1):
        n_items, _ = _fewest_items(w, effect, target_power, alpha, max_items, sigmas)
        if n_items is not None and (best is None or 2 * w * n_items < best[2]):
            best = (w, n_items, 2 * w * n_items)
    return best


def budget_plans(effect, *, cost_per_rating=0.1, cost_per_worker=0.0, target_power=0.8, alpha=0.05,
                 worker_options=(2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50), max_items=5000,
                 **sigmas) -> pd.DataFrame:
    """Cheapest fully crossed designs reaching the target power (analytic Satterthwaite engine).

    For each number of workers W, the fewest items I reaching ``target_power``,
    with the total ratings 2·W·I and the cost ``2·W·I·cost_per_rating +
    W·cost_per_worker``; W for which even ``max_items`` items fall short are
    reported with the power ceiling at ``max_items``.

    Returns
    -------
    pandas.DataFrame
        ``workers, items, ratings, cost, power, reachable`` sorted by cost.
    """
    cost_per_rating = check_real("cost_per_rating", cost_per_rating, low=0.0, high=1e6)
    cost_per_worker = check_real("cost_per_worker", cost_per_worker, low=0.0, high=1e9)
    rows = []
    for w in worker_options:
        n_items, power = _fewest_items(w, effect, target_power, alpha, max_items, sigmas)
        reachable = n_items is not None
        n_items = n_items if reachable else max_items
        rows.append((w, n_items, 2 * w * n_items, 2 * w * n_items * cost_per_rating + w * cost_per_worker, power,
                     reachable))
    frame = pd.DataFrame(rows, columns=["workers", "items", "ratings", "cost", "power", "reachable"])
    return frame.sort_values(["reachable", "cost"], ascending=[False, True]).reset_index(drop=True)


# ---------------------------------------------------------------------------
# pilot data
# ---------------------------------------------------------------------------
#: Most ratings accepted in a pilot file.
MAX_PILOT_RATINGS = 200_000
#: Largest accepted |rating| (any Likert or slider scale is far below).
MAX_ABS_RATING = 1e12
PILOT_METHODS = ("auto", "reml", "moments")


@dataclass(frozen=True)
class PilotFit:
    """Variance components and effect fitted to pilot ratings (:func:`fit_pilot`).

    Attributes
    ----------
    effect, baseline : float
        β1 of the ±1-coded system (the second system in sorted order is +1)
        and β0, on the [0, 1]-rescaled ratings.
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        The five standard deviations, keyed as :func:`likert_power`'s arguments.
    n_ratings, workers, items : int
        Size of the pilot.
    systems : tuple of str
        The two systems, in the order coded -1, +1.
    method : str
        ``"reml"`` (fully crossed, balanced pilot: exact REML from sufficient
        statistics) or ``"moments"`` (any other layout: pairwise-difference
        moment equations).
    effect_se : float
        Standard error of ``effect`` implied by the fitted components.
    """

    effect: float
    baseline: float
    sigma_w0: float
    sigma_w1: float
    sigma_i0: float
    sigma_i1: float
    sigma: float
    n_ratings: int
    workers: int
    items: int
    systems: tuple
    method: str = "reml"
    effect_se: float = math.nan

    @property
    def sigmas(self) -> dict:
        """The five SDs as keyword arguments of :func:`likert_power`."""
        return {k: getattr(self, k) for k in _SIGMAS}


def _pilot_labels(values, column):
    """A label column as strings; a missing label is an error naming the data row."""
    labels = pd.Series(values).astype(object)
    missing = labels.isna().to_numpy() | labels.astype(str).str.strip().isin(
        ["", "NA", "NaN", "nan", "N/A", "null", "None"]).to_numpy()
    if missing.any():
        raise ValueError(f"Data row {int(np.argmax(missing)) + 1:,}: the {column} is missing.")
    return labels.astype(str).str.strip().to_numpy()


def _pilot_ratings(values):
    """Ratings as finite floats of at most MAX_ABS_RATING; the message names the first bad data row."""
    raw = pd.Series(values)
    numbers = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(numbers) & ~raw.astype(str).str.strip().str.lower().isin(["nan"]).to_numpy()
    nan_text = np.isnan(numbers) & ~bad
    if bad.any() or nan_text.any():
        first = int(np.argmax(bad | nan_text))
        count = int((bad | nan_text).sum())
        raise ValueError(f"{count:,} ratings are missing or not numbers (first at data row {first + 1:,}: "
                         f"{str(raw.iloc[first])[:30]!r}).")
    infinite = ~np.isfinite(numbers)
    if infinite.any():
        first = int(np.argmax(infinite))
        raise ValueError(f"Data row {first + 1:,}: the rating {str(raw.iloc[first])[:30]!r} is not a finite number.")
    huge = np.abs(numbers) > MAX_ABS_RATING
    if huge.any():
        first = int(np.argmax(huge))
        raise ValueError(f"Data row {first + 1:,}: the rating {str(raw.iloc[first])[:30]!r} is too large (at most "
                         f"{MAX_ABS_RATING:g} in absolute value).")
    return numbers


PILOT_ROLES = ("worker", "item", "system", "rating")


def read_pilot(data, *, columns=None, header="auto", name="The pilot file") -> pd.DataFrame:
    """Pilot ratings from an upload, as the table :func:`fit_pilot` takes (columns worker, item, system, rating).

    Parameters
    ----------
    data : bytes
        CSV, TSV, semicolon- or space-separated text (:func:`core.uploads.read_table`).
    columns : dict, optional
        Role → column name for ``worker``, ``item``, ``system`` and
        ``rating``. Without it, columns so named are used, else names
        guessed from the usual ones (:data:`core.uploads.ALIASES`: Appraise
        ``username``/``itemId``/``score``, MTurk ``WorkerId``, WMT ``SYS``/
        ``SID``/``Z.SCR``, …).
    header : {"auto", "yes", "no"}, optional
        ``"no"``: the first row is data (headerless exports).

    Raises
    ------
    ValueError
        As :func:`core.uploads.read_table`; when the roles cannot all be found
        (the message names the missing roles and lists the file's columns, so
        the page can ask for them).
    """
    from . import uploads

    table = uploads.read_table(data, name=name, min_columns=4 if columns is None else 2, header=header)
    if columns is None:
        lowered = {str(c).strip().lower(): c for c in table.columns}
        if set(PILOT_ROLES) <= set(lowered):
            return table
        columns = uploads.guess_columns(table.columns, PILOT_ROLES)
        missing = [r for r in PILOT_ROLES if r not in columns]
        if missing:
            found = ", ".join(str(c) for c in table.columns[:12])
            raise ValueError(f"{name} needs columns for worker, item, system and rating; cannot tell which column "
                             f"is the {', '.join(missing)} (its columns are: {found}). Choose them.")
    return uploads.map_columns(table, dict(columns), name=name)


def fit_pilot(df: pd.DataFrame, *, method="auto") -> PilotFit:
    """Fit the crossed model to pilot ratings and return slider values.

    Parameters
    ----------
    df : DataFrame
        Columns ``worker``, ``item``, ``system`` (two distinct values) and
        ``rating`` (any numeric scale; rescaled to [0, 1] by its observed
        minimum and maximum), one row per rating, at most
        :data:`MAX_PILOT_RATINGS` rows.
    method : {"auto", "reml", "moments"}, optional
        ``"auto"``: REML when every worker rated every item once under each
        system (the design of Card et al.), the moment estimator otherwise.

    Returns
    -------
    PilotFit
        ``effect`` (β1 of the ±1-coded system, second system = +1), ``baseline``
        and the five SDs, keyed as :func:`likert_power`'s arguments, plus
        ``n_ratings``, ``workers``, ``items``, ``systems``, ``method`` and
        ``effect_se``.

    Raises
    ------
    ValueError
        For a missing column, a missing label, a rating that is not a finite
        number or exceeds :data:`MAX_ABS_RATING`, not exactly two systems,
        fewer than 2 workers or items, too many ratings, constant ratings, or
        a pilot the model cannot be fitted to. Nothing else is raised.

    Notes
    -----
    Model (Card et al. 2020, appendix H.3): ``y = β0 + β1 x + W0_w + W1_w x +
    I0_i + I1_i x + e`` with x = ±1 and independent normal effects. Cost is
    O(N log N) time and O(N) memory in the number of ratings N.

    * ``"reml"`` (balanced, fully crossed): per worker × item cell the
      difference D = y₊ − y₋ and the sum S = y₊ + y₋ are independent balanced
      two-way layouts, so REML depends on the data only through six sums of
      squares; :func:`fit_balanced` maximizes it (variance components
      bounded at zero, as lme4 and statsmodels do). This is the same optimum
      as statsmodels ``MixedLM`` (REML) on the full data.
    * ``"moments"`` (any layout: crowdsourced pilots where each item is rated
      by a few workers, unpaired ratings, repeated ratings): half the mean
      squared difference of two ratings has expectation
      ``2β1²[x ≠ x'] + σ² + (σ_w0² + σ_w1², or 2σ_w1²[x ≠ x'] for the same
      worker) + (the same for items)``. The sums over all pairs that share a
      worker, an item, a system — and the 8 combinations — follow from grouped
      sums in O(N) (Gao & Owen 2017); Möbius inversion gives each class of
      pairs, and non-negative least squares (each equation weighted by its
      approximate inverse standard error, √min(pairs, N) / value) solves the
      up to 8 equations for β1², σ² and the four components. β0, β1 are
      the ordinary least-squares estimates (unbiased whatever the layout;
      equal to GLS for balanced data); ``effect_se`` is the exact standard
      error of that β1 under the fitted components.
      Assumes the rating pattern does not depend on the ratings (missing at
      random) and enough overlap: at least two workers per item or two items
      per worker for the corresponding components.

    References
    ----------
    Card et al. (2020), appendix H.3; Gao, K. & Owen, A. B. (2017),
    "Efficient moment calculations for variance components in large
    unbalanced crossed random effects models", Electron. J. Statist.
    11:1235–1296; Henderson, C. R. (1953), Biometrics 9:226–252.
    """
    method = check_choice("method", method, PILOT_METHODS)
    required = ("worker", "item", "system", "rating")
    if not isinstance(df, pd.DataFrame):
        raise ValueError("`df` must be a table with columns worker, item, system, rating.")
    columns = {str(c).lower().strip(): c for c in df.columns}
    missing = set(required) - set(columns)
    if missing:
        raise ValueError(f"The pilot file needs columns worker, item, system, rating; missing: {', '.join(sorted(missing))}.")
    if len(df) > MAX_PILOT_RATINGS:
        raise ValueError(f"The pilot has {len(df):,} ratings; at most {MAX_PILOT_RATINGS:,} are supported (use a "
                         "sample).")
    rating = _pilot_ratings(df[columns["rating"]].to_numpy())
    worker = _pilot_labels(df[columns["worker"]].to_numpy(), "worker")
    item = _pilot_labels(df[columns["item"]].to_numpy(), "item")
    system = _pilot_labels(df[columns["system"]].to_numpy(), "system")
    systems = sorted(set(system))
    if len(systems) != 2:
        raise ValueError(f"The pilot must compare exactly 2 systems; found {len(systems)}.")
    w_codes, w_names = pd.factorize(worker)
    i_codes, i_names = pd.factorize(item)
    if len(w_names) < 2 or len(i_names) < 2:
        raise ValueError("The pilot needs at least 2 workers and 2 items.")
    low, high = float(rating.min()), float(rating.max())
    if not high > low:
        raise ValueError("All ratings are equal: nothing to estimate.")
    y = (rating - low) / (high - low)
    x = np.where(system == systems[1], 1.0, -1.0)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            balanced = _balanced_cells(w_codes, i_codes, x, len(w_names), len(i_names))
            if method == "reml" and balanced is None:
                raise ValueError("`method` 'reml' needs a fully crossed pilot: every worker rates every item once "
                                 "under each system.")
            if method != "moments" and balanced is not None:
                fit = _fit_pilot_reml(y, balanced, len(w_names), len(i_names))
            else:
                fit = _fit_pilot_moments(y, x, w_codes, i_codes)
    except ValueError:
        raise
    except (ArithmeticError, np.linalg.LinAlgError, MemoryError, IndexError, TypeError) as err:
        raise ValueError(f"The variance components could not be estimated from this pilot ({type(err).__name__}).") \
            from None
    values = [fit[k] for k in ("effect", "baseline", *_SIGMAS, "effect_se")]
    if not all(math.isfinite(v) for v in values):
        raise ValueError("The variance components could not be estimated from this pilot (non-finite result).")
    return PilotFit(**{k: float(fit[k]) for k in ("effect", "baseline", *_SIGMAS)}, n_ratings=int(len(y)),
                    workers=int(len(w_names)), items=int(len(i_names)), systems=tuple(systems),
                    method=fit["method"], effect_se=float(fit["effect_se"]))


def _balanced_cells(w, i, x, workers, items):
    """Row order (W × I × 2, system −1 then +1) of a fully crossed pilot with one rating per cell, or None."""
    n = w.size
    if n != 2 * workers * items:
        return None
    key = (w.astype(np.int64) * items + i) * 2 + (x > 0)
    if np.unique(key).size != n:
        return None
    order = np.empty(n, dtype=np.int64)
    order[key] = np.arange(n)
    return order


def _fit_pilot_reml(y, order, workers, items):
    """REML of the balanced crossed model from its six sums of squares (:func:`fit_balanced`)."""
    cells = y[order].reshape(workers, items, 2)
    d = (cells[:, :, 1] - cells[:, :, 0])[None]
    s = (cells[:, :, 1] + cells[:, :, 0])[None]
    st = _stats_from_cells(d, s)
    fit = fit_balanced(st, workers, items, ml=False)
    lam_e = float(fit["s"][0])
    _, parts = _objective(fit["s"], st, _dfs(workers, items), False)
    a_s, b_s = float(parts["S"][0][0]), float(parts["S"][1][0])
    a_d, b_d = float(fit["a_d"][0]), float(fit["b_d"][0])
    comps = {"sigma": lam_e / 2, "sigma_w1": (a_d - lam_e) / (4 * items), "sigma_i1": (b_d - lam_e) / (4 * workers),
             "sigma_w0": (a_s - lam_e) / (4 * items), "sigma_i0": (b_s - lam_e) / (4 * workers)}
    out = {k: math.sqrt(max(v, 0.0)) for k, v in comps.items()}
    out.update(effect=float(st.mean_d[0]) / 2, baseline=float(s.mean()) / 2, effect_se=float(fit["se"][0]),
               method="reml")
    return out


#: Design rows of the pairwise moment equations, per class (same worker, same item, same system):
#: coefficients of (β1², σ², σ_w0², σ_w1², σ_i0², σ_i1²) in ½ E[(y − y')²].
_PAIR_CLASSES = [(sw, si, sx) for sw in (0, 1) for si in (0, 1) for sx in (0, 1)]


def _pair_row(sw, si, sx):
    return [2.0 * (1 - sx), 1.0, float(1 - sw), (1 - sw) + 2.0 * sw * (1 - sx), float(1 - si),
            (1 - si) + 2.0 * si * (1 - sx)]


def _fit_pilot_moments(y, x, w, i):
    """Pairwise-difference moment estimator of the crossed model (any layout), O(N log N)."""
    from scipy.optimize import nnls

    n = y.size
    yc = y - y.mean()  # centring keeps n Σy² − (Σy)² accurate
    xb = (x > 0).astype(np.int64)
    items = int(i.max()) + 1
    keys = {
        (0, 0, 0): np.zeros(n, dtype=np.int64), (0, 0, 1): xb, (1, 0, 0): w.astype(np.int64),
        (0, 1, 0): i.astype(np.int64), (1, 0, 1): w * 2 + xb, (0, 1, 1): i * 2 + xb,
        (1, 1, 0): w.astype(np.int64) * items + i, (1, 1, 1): (w.astype(np.int64) * items + i) * 2 + xb,
    }
    at_least = {}  # sums over unordered pairs sharing at least these factors: Σ (y − y')², and their number
    for cls, key in keys.items():
        _, groups = np.unique(key, return_inverse=True)
        size = np.bincount(groups).astype(float)
        s1 = np.bincount(groups, weights=yc)
        s2 = np.bincount(groups, weights=yc * yc)
        at_least[cls] = (float((size * s2 - s1 * s1).sum()), float((size * (size - 1) / 2).sum()))
    design, target, weight = [], [], []
    for cls in _PAIR_CLASSES:  # Möbius inversion over the factors shared: exactly these, no more
        total = count = 0.0
        for sup in _PAIR_CLASSES:
            if all(s >= c for s, c in zip(sup, cls)):
                sign = (-1) ** (sum(sup) - sum(cls))
                total += sign * at_least[sup][0]
                count += sign * at_least[sup][1]
        if count < 0.5:
            continue
        q = max(total, 0.0) / (2 * count)  # mean of ½(y − y')² over the class
        design.append(_pair_row(*cls))
        target.append(q)
        # approximate inverse standard error: SD(q) ≈ q √(2/m), m = pairs, but never more than N independent ones
        weight.append(math.sqrt(min(count, n)) / max(q, 1e-12))
    design, target, weight = np.array(design), np.array(target), np.array(weight)
    if design.shape[0] == 0 or np.linalg.matrix_rank(design[:, 1:]) < 5:
        raise ValueError("The pilot's layout does not identify the five variance components: each part of the "
                         "model needs pairs of ratings that share a worker, an item or a system, and pairs that "
                         "share none (e.g. at least two workers per item, two items per worker, both systems).")
    theta, _ = nnls(design * weight[:, None], target * weight)
    _, s2, w0, w1, i0, i1 = theta  # β1² is a nuisance parameter of the equations
    # ordinary least squares for β0, β1 and the exact variance of that β1 under the fitted components
    xm = x.mean()
    sxx = float(((x - xm) ** 2).sum())
    if sxx <= 0:
        raise ValueError("The pilot must rate both systems.")
    c = (x - xm) / sxx
    effect = float(c @ y)
    baseline = float(y.mean() - effect * xm)
    var = s2 * float(c @ c)
    for codes, v0, v1 in ((w, w0, w1), (i, i0, i1)):
        var += v0 * float((np.bincount(codes, weights=c) ** 2).sum())
        var += v1 * float((np.bincount(codes, weights=c * x) ** 2).sum())
    return {"effect": effect, "baseline": baseline, "sigma": math.sqrt(s2), "sigma_w0": math.sqrt(w0),
            "sigma_w1": math.sqrt(w1), "sigma_i0": math.sqrt(i0), "sigma_i1": math.sqrt(i1),
            "effect_se": math.sqrt(max(var, 0.0)), "method": "moments"}


def _crossed_tails(w, i, e, sigmas, alpha):
    """P(significant, β̂1 > 0), P(significant, β̂1 < 0), λ0 and the critical t of the crossed design (vectorized).

    Noncentral t with Satterthwaite df from the true components (Westfall, Kenny & Judd 2014), as in
    :func:`_analytic`.
    """
    two_s2 = 2 * sigmas["sigma"] ** 2
    lam_w = two_s2 + 4 * i * sigmas["sigma_w1"] ** 2
    lam_i = two_s2 + 4 * w * sigmas["sigma_i1"] ** 2
    lam0 = lam_w + lam_i - two_s2
    dof = lam0**2 / (lam_w**2 / (w - 1) + lam_i**2 / (i - 1) + two_s2**2 / (2 * (w - 1) * (i - 1)))
    ncp = 2 * e * np.sqrt(w * i / lam0)
    crit = stats.t.isf(alpha / 2, dof)
    return stats.nct.sf(crit, dof, ncp), stats.nct.sf(crit, dof, -ncp), lam0, crit


def analytic_grid(workers, items, effects, *, alpha=0.05, **sigmas) -> pd.DataFrame:
    """Analytic (Westfall–Kenny–Judd) power, Type-S and Type-M on a W × I × effect grid, vectorized.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``workers, items, effect, power, type_s, type_m``; equal to
        :func:`likert_power` with ``rule="satterthwaite", method="analytic"``.
    """
    alpha = check_alpha(alpha)
    sigmas = {k: check_real(k, sigmas[k], low=0.0, high=2.0) for k in _SIGMAS}
    if sigmas["sigma"] <= 0:
        raise ValueError("`sigma` (residual SD) must be positive, in (0, 2].")
    w, i, e = (a.ravel() for a in np.meshgrid(np.asarray(workers, float), np.asarray(items, float),
                                              np.asarray(effects, float), indexing="ij"))
    if np.any(w < 2) or np.any(i < 2):
        raise ValueError("`workers` and `items` must be at least 2.")
    up, low, lam0, crit = _crossed_tails(w, i, e, sigmas, alpha)
    right = np.where(e >= 0, up, low)
    wrong = np.where(e >= 0, low, up)
    power = np.where(e != 0, right, up + low)
    se = 0.5 * np.sqrt(lam0 / (w * i))
    mu = np.abs(e)
    c = crit * se
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = (c - mu) / se, (-c - mu) / se
        mass = stats.norm.sf(a) + stats.norm.cdf(b)
        e_abs = mu * stats.norm.sf(a) + se * stats.norm.pdf(a) - (mu * stats.norm.cdf(b) - se * stats.norm.pdf(b))
        type_m = np.where((e != 0) & (mass > 0), e_abs / mass / mu, np.nan)
        type_s = np.where(e != 0, wrong / (up + low), np.nan)
    return pd.DataFrame({"workers": w.astype(int), "items": i.astype(int), "effect": e, "power": power,
                         "type_s": type_s, "type_m": type_m})


# ---------------------------------------------------------------------------
# crowdsourcing design: each item rated by k workers drawn from a pool of W
# ---------------------------------------------------------------------------
def _crowd_fit(d, workers_of, pool):
    """Method-of-moments analysis of the per-cell differences D (shape R × I × k).

    With ``D = 2β1 + a_w + b_i + ε`` (a: worker slopes ×2, b: item slopes ×2),
    halved mean squared differences of cell pairs estimate
    ``A + E`` (same item), ``B + E`` (same worker) and ``A + B + E`` (neither),
    with A = Var(a), B = Var(b), E = Var(ε) = 2σ²; so
    ``E = Q_item + Q_worker − Q_cross``, ``A = Q_cross − Q_worker``,
    ``B = Q_cross − Q_item`` (negative estimates set to 0). The estimator
    β̂1 = mean(D)/2 has ``Var = (A Σ_w n_w² + B k² I + E k I) / (2kI)²``;
    its Satterthwaite df uses W − 1, I − 1 and kI − W − I + 1 degrees of
    freedom for A, B and E.
    """
    reps, items, k = d.shape
    n_cells = items * k
    flat = d.reshape(reps, n_cells)
    s1, s2 = flat.sum(axis=1), (flat**2).sum(axis=1)
    pairs_all = n_cells * s2 - s1**2
    item_sum, item_sq = d.sum(axis=2), (d**2).sum(axis=2)
    pairs_item = (k * item_sq - item_sum**2).sum(axis=1)
    count_item = items * k * (k - 1) / 2
    index = (np.arange(reps)[:, None] * pool + workers_of.reshape(reps, n_cells)).ravel()
    n_w = np.bincount(index, minlength=reps * pool).reshape(reps, pool).astype(float)
    w_sum = np.bincount(index, weights=flat.ravel(), minlength=reps * pool).reshape(reps, pool)
    w_sq = np.bincount(index, weights=(flat**2).ravel(), minlength=reps * pool).reshape(reps, pool)
    pairs_worker = (n_w * w_sq - w_sum**2).sum(axis=1)
    count_worker = (n_w * (n_w - 1) / 2).sum(axis=1)
    count_cross = n_cells * (n_cells - 1) / 2 - count_item - count_worker
    q_item = pairs_item / (2 * count_item)
    q_worker = pairs_worker / (2 * np.maximum(count_worker, 1))
    q_cross = (pairs_all - pairs_item - pairs_worker) / (2 * np.maximum(count_cross, 1))
    e_hat = np.maximum(q_item + q_worker - q_cross, 1e-12)
    a_hat = np.maximum(q_cross - q_worker, 0.0)
    b_hat = np.maximum(q_cross - q_item, 0.0)
    sum_nw2 = (n_w**2).sum(axis=1)
    c_a, c_b, c_e = sum_nw2 / n_cells**2, 1.0 / items, 1.0 / n_cells
    var_mean = c_a * a_hat + c_b * b_hat + c_e * e_hat
    df_e = max(n_cells - pool - items + 1, 1)
    dof = var_mean**2 / ((c_a * a_hat) ** 2 / max(pool - 1, 1) + (c_b * b_hat) ** 2 / (items - 1)
                         + (c_e * e_hat) ** 2 / df_e)
    return {"effect": flat.mean(axis=1) / 2, "se": 0.5 * np.sqrt(var_mean), "df": dof}


def crowd_power(pool, items, per_item, effect, *, sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma, baseline=0.5,
                alpha=0.05, rule="satterthwaite", n_sims=500, seed=None, likert=None) -> RatingsResult:
    """Power of a crowdsourcing design: each item rated by ``per_item`` workers drawn from a pool.

    Every chosen worker rates both systems' outputs for the item (2·k·I
    ratings). The analysis is the method-of-moments fit of :func:`_crowd_fit`
    (the unbalanced design has no cheap maximum-likelihood solution): the
    Satterthwaite rule tests two-sided at α with the approximate df; the
    paper-style rule counts t > 1.96.

    Parameters
    ----------
    pool : int
        Workers available (W >= k).
    items : int
        Items I.
    per_item : int
        Workers per item k (2 … W).
    effect, sigma_*, baseline, alpha, rule, n_sims, seed, likert
        As in :func:`likert_power`.
    """
    sigmas = dict(sigma_w0=sigma_w0, sigma_w1=sigma_w1, sigma_i0=sigma_i0, sigma_i1=sigma_i1, sigma=sigma)
    pool = check_int("pool", pool, low=2, high=10_000)
    pool, items, effect, sigmas, baseline, alpha, rule, _ = _validate(pool, items, effect, sigmas, baseline, alpha,
                                                                     rule, "simulate")
    per_item = check_int("per_item", per_item, low=2, high=pool)
    n_sims = check_int("n_sims", n_sims, low=50, high=100_000)
    _check_simulated_cells(n_sims, items * pool, "`items` × `pool`")
    scale = None if likert is None else check_int("likert", likert, low=2, high=1001) - 1
    rng = np.random.default_rng(seed)

    def simulate_chunk(eff, reps):
        workers_of = np.argsort(rng.random((reps, items, pool)), axis=2)[:, :, :per_item]
        w0 = rng.normal(0, sigmas["sigma_w0"], (reps, pool))
        w1 = rng.normal(0, sigmas["sigma_w1"], (reps, pool))
        i0 = rng.normal(0, sigmas["sigma_i0"], (reps, items, 1))
        i1 = rng.normal(0, sigmas["sigma_i1"], (reps, items, 1))
        rows = np.arange(reps)[:, None, None]
        centre = baseline + w0[rows, workers_of] + i0
        slope = eff + w1[rows, workers_of] + i1
        y_plus = centre + slope + rng.normal(0, sigmas["sigma"], workers_of.shape)
        y_minus = centre - slope + rng.normal(0, sigmas["sigma"], workers_of.shape)
        if scale is not None:
            y_plus = np.clip(np.rint(y_plus * scale), 0, scale) / scale
            y_minus = np.clip(np.rint(y_minus * scale), 0, scale) / scale
        return _crowd_fit(y_plus - y_minus, workers_of, pool)

    def simulate(eff):
        parts = [simulate_chunk(eff, reps) for reps in _chunks(n_sims, items * pool)]  # bounded memory
        return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}

    fit, fit0 = simulate(effect), simulate(0.0)
    t, crit = _detect(fit, rule, alpha)
    t0, crit0 = _detect(fit0, rule, alpha)
    fpr = float(np.mean(t0 > crit0)) if rule == "paper" else float(np.mean(np.abs(t0) > crit0))
    sig = np.abs(t) > crit
    right = sig & (np.sign(t) == (np.sign(effect) if effect else 1.0))
    if effect == 0:
        right = (t > crit) if rule == "paper" else sig
    power = float(right.mean())
    n_sig = int(sig.sum())
    return RatingsResult(
        power=power, type_s=nan_if_zero(float((sig & ~right).sum()), n_sig),
        type_m=float(np.abs(fit["effect"][sig]).mean() / abs(effect)) if n_sig and effect else math.nan,
        false_positive_rate=fpr, mc_se=math.sqrt(power * (1 - power) / n_sims),
        false_positive_rate_se=math.sqrt(fpr * (1 - fpr) / n_sims), mean_difference=2 * effect, rule=rule, method="simulate",
        n_sims=n_sims)


def _crowd_tails(pool, per_item, i, e, sigmas, alpha):
    """P(significant, β̂1 > 0) and P(significant, β̂1 < 0) of the crowdsourcing design (see :func:`crowd_analytic`)."""
    p = per_item / pool
    n_cells = per_item * i
    sum_nw2 = pool * (i * p * (1 - p) + (i * p) ** 2)
    big_a, big_b, big_e = 4 * sigmas["sigma_w1"] ** 2, 4 * sigmas["sigma_i1"] ** 2, 2 * sigmas["sigma"] ** 2
    c_a, c_b, c_e = sum_nw2 / n_cells**2, 1.0 / i, 1.0 / n_cells
    var_mean = c_a * big_a + c_b * big_b + c_e * big_e
    df_e = np.maximum(n_cells - pool - i + 1, 1)
    dof = var_mean**2 / ((c_a * big_a) ** 2 / max(pool - 1, 1) + (c_b * big_b) ** 2 / (i - 1)
                         + (c_e * big_e) ** 2 / df_e)
    ncp = 2 * e / np.sqrt(var_mean)
    crit = stats.t.isf(alpha / 2, dof)
    return stats.nct.sf(crit, dof, ncp), stats.nct.sf(crit, dof, -ncp)


def crowd_analytic(pool, items, per_item, effects, *, alpha=0.05, **sigmas) -> pd.DataFrame:
    """Approximate analytic power of the crowdsourcing design (vectorized over ``items`` and ``effects``).

    Uses the moment analysis' variance with its expectation over the random
    assignment, ``E[Σ_w n_w²] = W (I p (1 − p) + I² p²)`` with p = k/W, a
    Satterthwaite df from the true components (W − 1, I − 1, kI − W − I + 1),
    and the noncentral t — the analogue of :func:`analytic_grid`; checked
    against :func:`crowd_power` in the tests.

    Returns
    -------
    pandas.DataFrame
        ``pool, per_item, items, effect, power``.
    """
    alpha = check_alpha(alpha)
    sigmas = {k: check_real(k, sigmas[k], low=0.0, high=2.0) for k in _SIGMAS}
    pool = check_int("pool", pool, low=2, high=10_000)
    per_item = check_int("per_item", per_item, low=2, high=pool)
    try:
        items_arr, effects_arr = np.asarray(items, float), np.asarray(effects, float)
    except (TypeError, ValueError):
        raise ValueError("`items` and `effects` must be numbers.") from None
    if items_arr.size == 0 or not np.all(np.isfinite(items_arr)) or np.any((items_arr < 2) | (items_arr > 100_000)):
        raise ValueError("`items` must be between 2 and 100,000.")
    if effects_arr.size == 0 or not np.all(np.isfinite(effects_arr)) or np.any(np.abs(effects_arr) > 0.5):
        raise ValueError("`effects` must be finite numbers in [-0.5, 0.5].")
    i, e = (a.ravel() for a in np.meshgrid(items_arr, effects_arr, indexing="ij"))
    up, low = _crowd_tails(pool, per_item, i, e, sigmas, alpha)
    power = np.where(e > 0, up, np.where(e < 0, low, up + low))
    return pd.DataFrame({"pool": pool, "per_item": per_item, "items": i.astype(int), "effect": e, "power": power})


def crowd_plans(effect, *, pool, cost_per_rating=0.1, target_power=0.8, alpha=0.05, max_items=5000,
                **sigmas) -> pd.DataFrame:
    """Cheapest (k, I) crowdsourcing designs from a pool of W workers reaching the target (approximate analytic).

    ``pool`` is 2 … 200 workers (k runs from 2 to the pool), ``max_items`` 2 … 100,000.

    Returns
    -------
    pandas.DataFrame
        ``per_item, items, ratings, cost, power, reachable`` sorted by cost.
    """
    cost_per_rating = check_real("cost_per_rating", cost_per_rating, low=0.0, high=1e6)
    pool = check_int("pool", pool, low=2, high=200)
    max_items = check_int("max_items", max_items, low=2, high=100_000)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    effect = check_real("effect", effect, low=-0.5, high=0.5)
    grid_items = np.unique(np.round(np.geomspace(2, max_items, 400)).astype(int))
    rows = []
    for k in range(2, pool + 1):
        frame = crowd_analytic(pool, grid_items, k, [effect], alpha=alpha, **sigmas)
        ok = frame[frame["power"] >= target_power]
        if ok.empty:
            last = frame.iloc[-1]
            rows.append((k, int(last["items"]), 2 * k * int(last["items"]),
                         2 * k * int(last["items"]) * cost_per_rating, float(last["power"]), False))
            continue
        n_items = int(ok["items"].iloc[0])
        rows.append((k, n_items, 2 * k * n_items, 2 * k * n_items * cost_per_rating, float(ok["power"].iloc[0]), True))
    table = pd.DataFrame(rows, columns=["per_item", "items", "ratings", "cost", "power", "reachable"])
    return table.sort_values(["reachable", "cost"], ascending=[False, True]).reset_index(drop=True)


# ---------------------------------------------------------------------------
# assurance (power averaged over a prior on the effect)
# ---------------------------------------------------------------------------
_ASSURANCE_DOC = """

    Returns
    -------
    core.assurance.AssuranceResult
        ``.assurance`` (P(significant with the hoped-for sign), averaged over
        the prior), ``.ceiling`` (the prior probability of that sign: the
        limit as the design grows) and ``.power_at_mean``.

    Notes
    -----
    The analytic (Satterthwaite, noncentral t) engine gives P(significant,
    β̂1 > 0 | β1) and P(significant, β̂1 < 0 | β1) at every quadrature node;
    the assurance integrates the hoped-for one over the prior N(μ, τ²),
    truncated to the feasible effects [−0.5, 0.5] (O'Hagan et al. 2005, eq. 1;
    :func:`core.assurance.assurance`).

    References
    ----------
    O'Hagan, Stevens & Campbell (2005), Pharmaceutical Statistics 4:187–201;
    Westfall, Kenny & Judd (2014); Card et al. (2020), §5.2.
"""


def _prior(delta_mean, delta_sd):
    mu = check_real("delta_mean", delta_mean, low=-0.5, high=0.5)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=1.0)
    return mu, tau


def likert_assurance(workers, items, delta_mean, delta_sd, *, sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma,
                     alpha=0.05):
    """Assurance of a fully crossed Likert comparison: power averaged over a normal prior on the effect β1.

    Parameters
    ----------
    workers, items : int
        W workers each rate all I items under both systems (as in :func:`likert_power`).
    delta_mean, delta_sd : float
        Prior N(μ, τ²) on β1 (the ±1-coded system coefficient; the systems'
        mean ratings differ by 2β1); τ = 0 gives the power at μ.
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        Variance components (Table 16), as in :func:`likert_power`.
    alpha : float, optional
        Two-sided level of the Satterthwaite t test.

    Examples
    --------
    >>> r = likert_assurance(3, 100, 0.1, 0.0, **PRESETS["high"])  # τ = 0: the analytic power
    >>> round(r.assurance, 2)
    0.16
    """
    from .assurance import assurance

    mu, tau = _prior(delta_mean, delta_sd)
    sig = dict(sigma_w0=sigma_w0, sigma_w1=sigma_w1, sigma_i0=sigma_i0, sigma_i1=sigma_i1, sigma=sigma)
    workers, items, mu, sig, _, alpha, _, _ = _validate(workers, items, mu, sig, 0.5, alpha, "satterthwaite",
                                                        "analytic")
    power = _analytic(workers, items, mu, sig, alpha).power
    lam0 = float(_crossed_tails(float(workers), float(items), 0.0, sig, alpha)[2])
    se = 0.5 * math.sqrt(lam0 / (workers * items))
    return assurance(lambda e: _crossed_tails(float(workers), float(items), np.asarray(e, float), sig, alpha)[:2],
                     prior_mean=mu, prior_sd=tau, power_at_mean=power, scale=se, low=-0.5, high=0.5)


likert_assurance.__doc__ += _ASSURANCE_DOC


def crowd_assurance(pool, items, per_item, delta_mean, delta_sd, *, sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma,
                    alpha=0.05):
    """Assurance of the crowdsourcing design (each item rated by k of W workers) under a prior on β1.

    Parameters
    ----------
    pool, items, per_item : int
        W workers in the pool, I items, k workers per item (as in :func:`crowd_analytic`).
    delta_mean, delta_sd : float
        Prior N(μ, τ²) on β1; τ = 0 gives :func:`crowd_analytic`'s power at μ.
    sigma_w0, sigma_w1, sigma_i0, sigma_i1, sigma : float
        Variance components (Table 16).
    alpha : float, optional
        Two-sided level.

    Examples
    --------
    >>> r = crowd_assurance(30, 200, 3, 0.1, 0.0, **PRESETS["high"])
    >>> bool(r.assurance == crowd_analytic(30, [200], 3, [0.1], **PRESETS["high"])["power"].iloc[0])
    True
    """
    from .assurance import assurance

    mu, tau = _prior(delta_mean, delta_sd)
    sig = dict(sigma_w0=sigma_w0, sigma_w1=sigma_w1, sigma_i0=sigma_i0, sigma_i1=sigma_i1, sigma=sigma)
    power = float(crowd_analytic(pool, [items], per_item, [mu], alpha=alpha, **sig)["power"].iloc[0])
    alpha = check_alpha(alpha)
    sig = {k: float(v) for k, v in sig.items()}
    pool, per_item, items = int(pool), int(per_item), float(items)
    p = per_item / pool
    n_cells = per_item * items
    sum_nw2 = pool * (items * p * (1 - p) + (items * p) ** 2)
    var_mean = (sum_nw2 / n_cells**2 * 4 * sig["sigma_w1"] ** 2 + 4 * sig["sigma_i1"] ** 2 / items
                + 2 * sig["sigma"] ** 2 / n_cells)
    se = 0.5 * math.sqrt(var_mean)
    return assurance(lambda e: _crowd_tails(pool, per_item, items, np.asarray(e, float), sig, alpha),
                     prior_mean=mu, prior_sd=tau, power_at_mean=power, scale=se, low=-0.5, high=0.5)


crowd_assurance.__doc__ += _ASSURANCE_DOC


def assurance_plans(delta_mean, delta_sd, *, cost_per_rating=0.1, cost_per_worker=0.0, target=0.8, alpha=0.05,
                    worker_options=(2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50), max_items=5000,
                    **sigmas) -> pd.DataFrame:
    """Cheapest fully crossed designs reaching a target *assurance* (the prior-averaged analogue of :func:`budget_plans`).

    For each number of workers W, the fewest items I whose assurance under the
    prior N(``delta_mean``, ``delta_sd``²) on β1 reaches ``target`` (bisection:
    the assurance increases with I for a prior centred on the hoped-for side),
    with the ratings 2·W·I and the cost ``2·W·I·cost_per_rating +
    W·cost_per_worker``. W whose assurance at ``max_items`` stays below the
    target — always the case when the prior's ceiling (the probability of the
    hoped-for sign) is below it — are reported at ``max_items`` with
    ``reachable`` False.

    Returns
    -------
    pandas.DataFrame
        ``workers, items, ratings, cost, assurance, reachable`` sorted by cost.

    Examples
    --------
    >>> plans = assurance_plans(0.1, 0.03, **PRESETS["high"])
    >>> bool(plans["reachable"].iloc[0] and plans["assurance"].iloc[0] >= 0.8)
    True
    """
    from .assurance import assurance_sample_size

    cost_per_rating = check_real("cost_per_rating", cost_per_rating, low=0.0, high=1e6)
    cost_per_worker = check_real("cost_per_worker", cost_per_worker, low=0.0, high=1e9)
    target = check_real("target", target, low=0.0, high=1.0, low_open=True, high_open=True)
    max_items = check_int("max_items", max_items, low=3, high=100_000)
    rows = []
    for w in worker_options:
        def assure(i, w=w):
            return likert_assurance(w, i, delta_mean, delta_sd, alpha=alpha, **sigmas).assurance

        top = assure(max_items)
        if top < target:
            rows.append((w, max_items, 2 * w * max_items, 2 * w * max_items * cost_per_rating + w * cost_per_worker,
                         top, False))
            continue
        hi = assurance_sample_size(assure, target, n_min=2, n_max=max_items, ceiling=top)
        rows.append((w, hi, 2 * w * hi, 2 * w * hi * cost_per_rating + w * cost_per_worker, assure(hi), True))
    frame = pd.DataFrame(rows, columns=["workers", "items", "ratings", "cost", "assurance", "reachable"])
    return frame.sort_values(["reachable", "cost"], ascending=[False, True]).reset_index(drop=True)

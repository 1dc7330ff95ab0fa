"""The ratings model's shared pieces: constants, validation, simulated sufficient statistics and the
balanced-design fit (Card et al. 2020, §5.2 and appendix H.3, equation 5). Package-internal."""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np

from scipy import special, stats

from ..results import nan_if_zero
from ..validation import check_alpha, check_choice, check_int, check_real, rng_of

RULES = ("paper", "satterthwaite")
METHODS = ("simulate", "analytic")
_SIGMAS = ("sigma_w0", "sigma_w1", "sigma_i0", "sigma_i1", "sigma")


def _check_sigmas(sigmas: dict) -> dict:
    """The five SDs, each a number in [0, 2]; a missing or unknown one is named (not a KeyError or TypeError)."""
    missing = [k for k in _SIGMAS if k not in sigmas]
    unknown = sorted(set(sigmas) - set(_SIGMAS))
    if missing or unknown:
        raise ValueError("Give the five SDs `sigma_w0`, `sigma_w1`, `sigma_i0`, `sigma_i1` and `sigma` (e.g. "
                         "`**PRESETS['high']`)" + (f"; missing {', '.join(f'`{k}`' for k in missing)}" if missing
                                                   else "") + (f"; unknown {', '.join(f'`{k}`' for k in unknown)}"
                                                               if unknown else "") + ".")
    return {k: check_real(k, sigmas[k], low=0.0, high=2.0) for k in _SIGMAS}

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
    rng = rng_of(seed)
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
# results and the analytic tails shared by the engines
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


def _analytic(workers, items, effect, sigmas, alpha) -> RatingsResult:
    """Noncentral t with Satterthwaite df from the true components (Westfall, Kenny & Judd 2014)."""
    lam = _eigen(workers, items, sigmas)
    df = _dfs(workers, items)
    lam0 = lam[("D", "W")] + lam[("D", "I")] - lam[("D", "E")]
    dof = lam0**2 / (lam[("D", "W")] ** 2 / df["W"] + lam[("D", "I")] ** 2 / df["I"]
                     + lam[("D", "E")] ** 2 / (2 * df["E"]))
    ncp = 2 * effect * math.sqrt(workers * items / lam0)
    crit = stats.t.isf(alpha / 2, dof)
    up, low = _nct_tails(crit, dof, ncp)
    right, wrong = (up, low) if effect >= 0 else (low, up)
    power = float(right) if effect != 0 else float(up + low)
    return RatingsResult(power=power, type_s=nan_if_zero(float(wrong), float(up + low)) if effect else math.nan,
                         type_m=_analytic_type_m(effect, lam0, workers, items, crit, dof),
                         false_positive_rate=float(alpha), mc_se=0.0, false_positive_rate_se=0.0, mean_difference=2 * effect,
                         rule="satterthwaite", method="analytic")


#: Gauss–Legendre nodes on (0, 1) for :func:`_t_type_m`'s average over the estimated SE (256: Type-M to a relative
#: 1e-5 against adaptive quadrature from 1 to 10⁹ degrees of freedom, tested).
_GL_P, _GL_W = np.polynomial.legendre.leggauss(256)
_GL_P, _GL_W = (_GL_P + 1.0) / 2.0, _GL_W / 2.0
_PDF_SCALE = 1.0 / math.sqrt(2.0 * math.pi)
#: Largest |noncentrality| passed to scipy's noncentral t: beyond ≈ 10⁹ its tails come back nan, and at 10⁸ they are
#: already 1 and 0 to double precision.
_NCP_MAX = 1e8


def _nct_tails(crit, dof, ncp):
    """P(t > c) and P(t < −c) of the noncentral t (ν = ``dof``, δ = ``ncp``), finite at any δ."""
    ncp = np.clip(ncp, -_NCP_MAX, _NCP_MAX)
    return stats.nct.sf(crit, dof, ncp), stats.nct.sf(crit, dof, -ncp)


def _beyond(delta, k):
    """P(|u| > k) and E[|u|; |u| > k] for u ~ N(δ, 1), δ ≥ 0 (elementwise):
    Φ(δ − k) + Φ(−δ − k) and δ·(Φ(δ − k) − Φ(−δ − k)) + φ(k − δ) + φ(k + δ)."""
    hi, lo = k - delta, -k - delta
    mass = special.ndtr(-hi) + special.ndtr(lo)
    first = delta * (special.ndtr(-hi) - special.ndtr(lo)) + _PDF_SCALE * (np.exp(-0.5 * hi * hi)
                                                                         + np.exp(-0.5 * lo * lo))
    return mass, first


def _t_type_m(ncp, dof, crit):
    """Type-M of the two-sided t test in the noncentral-t model of its power (vectorized).

    The estimate is β̂ ~ N(β, SE²) and its squared SE is estimated as SE²·V/ν with V ~ χ²_ν independent (ν the
    Satterthwaite df), so t = β̂/ŝ is noncentral t with δ = β/SE (Westfall, Kenny & Judd 2014). A result is
    significant when |β̂| > c·ŝ: given V the threshold on u = β̂/SE is k = c·√(V/ν), and with u ~ N(δ, 1)

        E[|u|; |u| > k] = δ·(Φ(δ − k) − Φ(−δ − k)) + φ(k − δ) + φ(k + δ),   P(|u| > k) = Φ(δ − k) + Φ(−δ − k).

    Both are averaged over V through its quantiles, p ↦ k(F⁻¹_{χ²_ν}(p)), by Gauss–Legendre on (0, 1); Type-M is
    the ratio of the averages over |δ| (Gelman & Carlin 2014). Treating the SE as known — the threshold c·SE —
    overstated Type-M at few df (2.82 against a simulated 1.50 at 3 workers × 100 items): significant results
    are often the ones whose SE came out small, not only the ones whose estimate came out large.
    """
    delta = np.abs(np.asarray(ncp, dtype=float))[..., None]
    dof = np.asarray(dof, dtype=float)[..., None]
    k = np.asarray(crit, dtype=float)[..., None] * np.sqrt(stats.chi2.ppf(_GL_P, dof) / dof)
    mass, first = _beyond(delta, k)
    mass, first = (mass * _GL_W).sum(axis=-1), (first * _GL_W).sum(axis=-1)
    delta = delta[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((delta > 0) & (mass > 0), first / mass / delta, np.nan)


def _analytic_type_m(effect, lam0, workers, items, crit, dof):
    """Type-M of the crossed design's Satterthwaite t test (:func:`_t_type_m`), ``nan`` at effect 0."""
    if effect == 0:
        return math.nan
    ncp = 2 * effect * math.sqrt(workers * items / lam0)
    return float(_t_type_m(ncp, dof, crit))


def _crossed_tails(w, i, e, sigmas, alpha):
    """P(significant, β̂1 > 0), P(significant, β̂1 < 0), λ0, the critical t and the Satterthwaite df of the crossed
    design (vectorized).

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
    return (*_nct_tails(crit, dof, ncp), lam0, crit, dof)


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
    return _nct_tails(crit, dof, ncp)

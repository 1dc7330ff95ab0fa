"""Non-inferiority and equivalence of two classifiers on one test set (paired accuracies).

"Is the cheaper model no worse than the current one by more than a margin?" reverses the usual question: the
null hypothesis is that the new model *is* worse by at least the margin, H0: Δ ≤ −margin, and rejecting it
supports "no worse than" (non-inferiority). Equivalence (TOST, Schuirmann 1987) rejects both H0: Δ ≤ −margin
and H0: Δ ≥ +margin, each one-sided at α.

Data are the paired table's discordant counts: ``B`` items only the new model gets right, ``C`` only the old
one, ``(B, C, n − B − C) ~ Multinomial(n; p_b, p_c, P_a)`` with ``p_b = (ψ + Δ)/2``, ``p_c = (ψ − Δ)/2`` and
ψ = 1 − P_a the discordance. The estimate is ``Δ̂ = (B − C)/n``. Tests of H0: Δ ≤ −m reject when

.. math:: T = \\frac{\\hat Δ + m}{\\sqrt{V / n}} \\ge z_{1-α}

* ``"wald"``: V = p̂_b + p̂_c − Δ̂², the unrestricted variance. V = 0 on the tables with no discordant item
  (or with every item discordant one way); there the statistic is undefined and the test does not reject (Tango
  1998 notes that McNemar-type Wald tests cannot be applied to tables with zero off-diagonal cells). With few
  discordant items it is still anti-conservative (size 0.145 at α = 0.025, n = 60, P_a = 0.95, m = 0.05);
* ``"score"``: V = p̃_b + p̃_c − m², with (p̃_b, p̃_c) the maximum-likelihood estimates restricted to
  p̃_b − p̃_c = −m (Nam 1997; Tango 1998; closed form in :func:`restricted_variance`);
* ``"exact"``: the exact unconditional test that orders tables by the score statistic and takes the
  critical value c* so that the size, sup over the nuisance ψ of P(T ≥ c* | Δ = −m, ψ), is at most α
  (Sidik 2003); the supremum is taken on a grid over ψ fine on the scale of ψ's standard error.

Power is computed exactly (``method="exact"``): given D = B + C discordant items, T increases with B (for the
Wald statistic ∂T/∂Δ̂ ∝ D/n + mΔ̂ > 0; for the score statistic checked against full enumeration of the
trinomial in the tests), so each test rejects when B ≥ b*(D) and power = Σ_D P(D) P(B ≥ b*(D) | D), summed over
the D with mass above 1e-12. ``method="normal"`` is the closed form behind the published sample-size formulas
(Nam 1997 for the score test); ``method="simulate"`` draws tables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from ..results import PowerResult
from ..sizing import SampleSize, sample_size_search
from ..validation import check_choice, check_int, check_probability, check_real, rng_of

__all__ = [
    "CLAIMS",
    "NonInferiorityDesign",
    "NI_TESTS",
    "NI_METHODS",
    "restricted_variance",
    "noninferiority_power",
    "noninferiority_sample_size",
    "noninferiority_sample_sizes",
    "equivalence_power",
    "equivalence_sample_size",
    "equivalence_sample_sizes",
]

#: Tests of H0: Δ ≤ −margin.
NI_TESTS = ("score", "wald", "exact")
#: Engines: exact summation over the discordant counts, the normal closed form, or simulation.
NI_METHODS = ("exact", "normal", "simulate")

_N_MAX = 10_000_000
#: Largest n for ``test="exact"``: its critical value needs the size at every nuisance value on a fine grid.
EXACT_TEST_N_MAX = 2_000
_TAIL_EPS = 1e-12
#: Step of the exact test's nuisance grid, in standard errors of ψ̂.
_GRID_STEP = 0.5


def _validate(n, delta, agreement, margin, alpha, test, method):
    if n is not None:
        n = check_int("n", n, low=1, high=_N_MAX)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    agreement = check_probability("agreement", agreement)
    margin = check_real("margin", margin, low=0.0, high=1.0, low_open=True, high_open=True)
    alpha = check_real("alpha", alpha, low=0.0, high=0.5, low_open=True, high_open=True)
    test = check_choice("test", test, NI_TESTS)
    method = check_choice("method", method, NI_METHODS)
    psi = 1.0 - agreement
    if abs(delta) > psi + 1e-12:
        raise ValueError(f"`delta` must satisfy |delta| <= 1 - agreement = {psi:.4g} (the models can only "
                         f"differ where they disagree), got {delta:g}.")
    if test == "exact" and method == "normal":
        raise ValueError("`method` 'normal' has no meaning for `test` 'exact' (an exact test); use 'exact' or "
                         "'simulate'.")
    if test == "exact" and n is not None and n > EXACT_TEST_N_MAX:
        raise ValueError(f"`n` must be at most {EXACT_TEST_N_MAX:,} for `test` 'exact' (its critical value needs the "
                         f"size at every nuisance value), got {n:,}; the score test is accurate at this size.")
    return n, delta, psi, margin, alpha, test, method


def restricted_variance(pb, pc, delta0):
    """Per-item variance of Δ̂ at the restricted MLE under H0: p_b − p_c = ``delta0`` (Nam 1997; Tango 1998).

    Parameters
    ----------
    pb, pc : array_like
        Observed shares of items only the new (``pb``) or only the old (``pc``) model gets right.
    delta0 : float
        The difference at the null boundary (−margin for non-inferiority).

    Returns
    -------
    ndarray
        ``p̃_b + p̃_c − delta0²``.

    Notes
    -----
    Maximising ``b log p_b + c log p_c + a log(1 − p_b − p_c)`` subject to ``p_b = p_c + δ0`` gives, with
    x = p̃_c, the quadratic ``2x² + βx + γ = 0`` with ``β = −(p̂_b + p̂_c) + δ0(2 − p̂_b + p̂_c)`` and
    ``γ = −p̂_c δ0 (1 − δ0)``, whose larger root is the MLE (Tango 1998, in these symbols; the tests check it
    against a numerical maximisation).
    """
    pb = np.asarray(pb, dtype=float)
    pc = np.asarray(pc, dtype=float)
    beta = -(pb + pc) + delta0 * (2.0 - pb + pc)
    gamma = -pc * delta0 * (1.0 - delta0)
    x = (-beta + np.sqrt(np.maximum(beta * beta - 8.0 * gamma, 0.0))) / 4.0
    return np.maximum(2.0 * x + delta0 - delta0 * delta0, 0.0)


def _statistic(b, c, n, margin, kind, *, ordering=False):
    """T of H0: Δ ≤ −margin for tables (b, c) of n items.

    Where the Wald variance estimate is 0 — no discordant item (b = c = 0) or every item discordant one way
    (b = n or c = n) — the Wald statistic is undefined and the test does not reject (T = −inf): Tango (1998,
    Summary and §1) notes that the McNemar-type (Wald) tests cannot be applied to tables with zero off-diagonal
    cells, which is the score test's advantage. ``ordering=True`` gives instead the ordering used to find the
    thresholds b*(D), ±inf by the sign of the numerator, which increases in b for fixed D; the engines remove
    the zero-variance tables from the rejection region afterwards (:func:`_undefined_wald_mass`).
    """
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    n = np.asarray(n, dtype=float)
    pb, pc = b / n, c / n
    est = pb - pc
    if kind == "wald":
        var = pb + pc - est * est
    else:  # score and the exact test's ordering
        var = restricted_variance(pb, pc, -margin)
    num = est + margin
    with np.errstate(divide="ignore", invalid="ignore"):
        t = num / np.sqrt(var / n)
    limit = np.where(num > 0, np.inf, np.where(num < 0, -np.inf, 0.0))
    if kind == "wald" and not ordering:
        limit = np.full(np.shape(limit), -np.inf)
    return np.where(var > 0, t, limit)


def _thresholds(d, n, margin, kind, crit):
    """Smallest b in [0, d] with T(b, d − b) >= crit (``d + 1`` when none); T increases in b for fixed d."""
    d = np.asarray(d, dtype=np.int64)
    n = np.broadcast_to(np.asarray(n, dtype=np.int64), d.shape)
    lo = np.zeros(d.shape, dtype=np.int64)
    hi = d + 1
    while True:
        open_ = lo < hi
        if not open_.any():
            return lo
        mid = (lo + hi) // 2
        ok = _statistic(mid, d - mid, n, margin, kind, ordering=True) >= crit
        hi = np.where(open_ & ok, mid, hi)
        lo = np.where(open_ & ~ok, mid + 1, lo)


def _windows(ns, psi):
    """Ragged layout of the discordant counts D with mass above 1e-12 at each n: (index of n, D)."""
    ns = np.asarray(ns, dtype=np.int64)
    if psi <= 0.0:
        return np.arange(ns.size), np.zeros(ns.size, dtype=np.int64)
    lo = np.maximum(np.nan_to_num(stats.binom.ppf(_TAIL_EPS, ns, psi), nan=0.0) - 1, 0).astype(np.int64)
    hi = np.minimum(np.nan_to_num(stats.binom.isf(_TAIL_EPS, ns, psi), nan=0.0) + 1, ns).astype(np.int64)
    widths = hi - lo + 1
    which = np.repeat(np.arange(ns.size), widths)
    d = lo[which] + np.arange(widths.sum()) - np.repeat(np.cumsum(widths) - widths, widths)
    return which, d


def _crit(n, margin, alpha, test):
    if test == "exact":
        return _exact_critical(int(n), margin, alpha)
    return stats.norm.isf(alpha)


def _exact_power_many(ns, psi, delta, margin, alpha, test, sides):
    """Exact power at each n; ``sides`` = 1 (non-inferiority) or 2 (TOST: b*(D) <= B <= D − b*(D))."""
    ns = np.asarray(ns, dtype=np.int64)
    which, d = _windows(ns, psi)
    kind = "wald" if test == "wald" else "score"
    crit = np.array([_crit(n, margin, alpha, test) for n in ns]) if test == "exact" else stats.norm.isf(alpha)
    crit_d = crit[which] if test == "exact" else crit
    b_star = _thresholds(d, ns[which], margin, kind, crit_d)
    # |Δ| = ψ (every discordant item favours one model) is allowed up to float noise: 1 − 0.9 = 0.0999…98 < 0.1
    # would put q a hair outside [0, 1], where scipy's binomial returns nan (as McNemar's cells, clipped)
    q = 0.5 if psi <= 0 else min(max((psi + delta) / (2.0 * psi), 0.0), 1.0)
    if sides == 1:
        cond = stats.binom.sf(b_star - 1, d, q)
    else:
        top = d - b_star
        cond = np.where(top >= b_star, stats.binom.cdf(top, d, q) - stats.binom.cdf(b_star - 1, d, q), 0.0)
    weight = stats.binom.pmf(d, ns[which], psi) if psi > 0 else np.ones(d.size)
    power = np.bincount(which, weights=weight * cond, minlength=ns.size)
    if kind == "wald":
        power = power - _undefined_wald_mass(ns, which, d, psi, delta, margin, crit, sides)
    return np.clip(power, 0.0, 1.0)


def _undefined_wald_mass(ns, which, d, psi, delta, margin, crit, sides):
    """Mass the thresholds counted as rejecting on the tables where the Wald variance is 0, at each n.

    Those tables are (b, c) = (0, 0), (n, 0) and (0, n); the ordering gives them ±inf, so b*(D) counts a table
    whose numerator is positive as rejecting, while the Wald test does not reject there (:func:`_statistic`).
    Only tables whose D lies in the summed window were counted.
    """
    pb, pc = (psi + delta) / 2.0, (psi - delta) / 2.0
    out = np.zeros(ns.size)
    for b_frac, c_frac, prob in ((0, 0, 1.0 - psi), (1, 0, pb), (0, 1, pc)):
        b, c = b_frac * ns, c_frac * ns
        reject = _statistic(b, c, ns, margin, "wald", ordering=True) >= crit
        if sides == 2:
            reject &= _statistic(c, b, ns, margin, "wald", ordering=True) >= crit
        summed = np.bincount(which[d == (b + c)[which]], minlength=ns.size) > 0
        with np.errstate(divide="ignore"):
            mass = np.exp(ns * np.log(max(prob, 0.0)))
        out += np.where(reject & summed, mass, 0.0)
    return out


@lru_cache(maxsize=256)
def _exact_critical(n, margin, alpha):
    """Critical value c* of the exact unconditional test: the smallest c with sup_ψ P(T_score >= c | Δ = −m) <= α.

    The nuisance ψ (the discordance at the null boundary, p_b = (ψ − m)/2, p_c = (ψ + m)/2) runs over
    [m, 1] on a grid whose step is half of ψ̂'s standard error sqrt(ψ(1 − ψ)/n) (at least 1e-4), so the
    size, a smooth function of ψ on that scale, is resolved (the tests check the size off the grid); c is found by bisection to 1e-5 (the upper end is
    kept, so the size stays <= α).
    """
    lo_psi = margin
    grid = [lo_psi]
    while grid[-1] < 1.0:
        p = grid[-1]
        step = max(_GRID_STEP * math.sqrt(max(p * (1.0 - p), 1.0 / n) / n), 1e-4)
        grid.append(min(p + step, 1.0))
    psi0 = np.array(grid)
    q0 = (psi0 - margin) / (2.0 * psi0)
    # per-ψ windows of D
    lo = np.maximum(np.nan_to_num(stats.binom.ppf(_TAIL_EPS, n, psi0), nan=0.0) - 1, 0).astype(np.int64)
    hi = np.minimum(np.nan_to_num(stats.binom.isf(_TAIL_EPS, n, psi0), nan=float(n)) + 1, n).astype(np.int64)
    widths = hi - lo + 1
    which = np.repeat(np.arange(psi0.size), widths)
    d = lo[which] + np.arange(widths.sum()) - np.repeat(np.cumsum(widths) - widths, widths)
    weight = stats.binom.pmf(d, n, psi0[which])
    qd = q0[which]
    all_d = np.arange(n + 1)

    last = {}

    def size(c):
        # successive critical values move few thresholds b*(D): only those cells' tails are recomputed
        b_star = _thresholds(all_d, n, margin, "score", c)[d]
        if last:
            tail = last["tail"].copy()
            moved = b_star != last["b_star"]
            tail[moved] = stats.binom.sf(b_star[moved] - 1, d[moved], qd[moved])
        else:
            tail = stats.binom.sf(b_star - 1, d, qd)
        last.update(b_star=b_star, tail=tail)
        return np.bincount(which, weights=weight * tail, minlength=psi0.size).max()

    z = stats.norm.isf(alpha)
    low, high = z - 1.0, z + 1.0
    while size(low) <= alpha:
        low -= 1.0
    while size(high) > alpha:
        high += 1.0
    while high - low > 1e-5:
        mid = 0.5 * (low + high)
        if size(mid) > alpha:
            low = mid
        else:
            high = mid
    return high


def _normal_parts(delta, psi, margin, test):
    """(per-item SD of Δ̂ at the truth, per-item null SD at −margin and at +margin)."""
    sd = math.sqrt(max(psi - delta * delta, 0.0))
    if test == "wald":
        return sd, sd, sd
    pb, pc = max((psi + delta) / 2.0, 0.0), max((psi - delta) / 2.0, 0.0)  # float noise at |Δ| = ψ
    low = math.sqrt(float(restricted_variance(pb, pc, -margin)))
    high = math.sqrt(float(restricted_variance(pc, pb, -margin)))  # mirror image: swap the roles of b and c
    return sd, low, high


def _normal_power_many(ns, psi, delta, margin, alpha, test, sides):
    """Closed form: Δ̂ ~ N(Δ, σ²/n); reject when Δ̂ >= −m + z σ̃_−/√n (and, for TOST, Δ̂ <= m − z σ̃_+/√n)."""
    ns = np.asarray(ns, dtype=float)
    sd, null_low, null_high = _normal_parts(delta, psi, margin, test)
    z = stats.norm.isf(alpha)
    root = np.sqrt(ns)
    lower = -margin + z * null_low / root
    if sd == 0.0:
        inside = delta >= lower
        if sides == 2:
            inside = inside & (delta <= margin - z * null_high / root)
        return inside.astype(float)
    if sides == 1:
        return stats.norm.sf((lower - delta) * root / sd)
    upper = margin - z * null_high / root
    return np.clip(stats.norm.cdf((upper - delta) * root / sd) - stats.norm.cdf((lower - delta) * root / sd), 0.0, 1.0)


def _simulate(n, psi, delta, margin, alpha, test, sides, n_sims, seed):
    rng = rng_of(seed)
    pb, pc = (psi + delta) / 2.0, (psi - delta) / 2.0
    counts = rng.multinomial(n, [max(pb, 0.0), max(pc, 0.0), max(1.0 - pb - pc, 0.0)], size=n_sims)
    b, c = counts[:, 0], counts[:, 1]
    kind = "wald" if test == "wald" else "score"
    crit = _crit(n, margin, alpha, test)
    reject = _statistic(b, c, n, margin, kind) >= crit
    if sides == 2:
        reject &= _statistic(c, b, n, margin, kind) >= crit
    power = float(reject.mean())
    return power, math.sqrt(power * (1.0 - power) / n_sims)


def _result(n, delta, psi, margin, alpha, test, method, sides, n_sims, seed) -> PowerResult:
    if method == "simulate":
        n_sims = check_int("n_sims", n_sims, low=100, high=2_000_000)
        power, se = _simulate(n, psi, delta, margin, alpha, test, sides, n_sims, seed)
        return PowerResult(power=power, type_s=math.nan, type_m=math.nan, rejection_rate=power, mc_se=se,
                           n_sims=n_sims, method="simulate")
    engine = _exact_power_many if method == "exact" else _normal_power_many
    power = float(engine(np.array([n]), psi, delta, margin, alpha, test, sides)[0])
    return PowerResult(power=power, type_s=math.nan, type_m=math.nan, rejection_rate=power, method=method)


def noninferiority_power(n, delta, agreement, margin, *, alpha=0.025, test="score", method="exact", n_sims=10_000,
                         seed=None) -> PowerResult:
    """Power of a paired non-inferiority test: P(reject H0: Δ ≤ −margin).

    Parameters
    ----------
    n : int
        Test-set size (paired items), 1 … 10,000,000 (at most 2,000 for ``test="exact"``).
    delta : float
        True accuracy difference, new minus old; |delta| <= 1 − agreement.
    agreement : float
        P_a, the share of items both models get right or both wrong; ψ = 1 − P_a is the discordance.
    margin : float
        The tolerated loss m > 0 (a fraction: 0.01 = one point); H0: Δ ≤ −m.
    alpha : float, optional
        One-sided significance level in (0, 0.5); 0.025 matches a two-sided 95% interval.
    test : {"score", "wald", "exact"}, optional
        Restricted-MLE score test (Nam 1997; Tango 1998), Wald test, or the exact unconditional test ordered
        by the score statistic (Sidik 2003), whose size never exceeds ``alpha``.
    method : {"exact", "normal", "simulate"}, optional
        Exact summation over the discordant counts, the closed form ``Φ((Δ + m − z σ̃/√n)√n/σ)`` (not for
        ``test="exact"``), or Monte Carlo.
    n_sims, seed
        Replicates and seed for ``method="simulate"``.

    Returns
    -------
    PowerResult
        ``power`` = ``rejection_rate`` (at Δ = −m it is the test's size), ``mc_se`` for the simulation;
        ``type_s`` and ``type_m`` are ``nan`` (no directional claim is made).

    Raises
    ------
    ValueError
        On out-of-range arguments, named in backticks.

    Notes
    -----
    See the module docstring for the statistics. The closed form takes Δ̂ ~ N(Δ, (ψ − Δ²)/n) and the test's
    null variance σ̃² at its large-sample limit (the restricted MLE evaluated at the true cell probabilities),
    which inverts to Nam's (1997) sample size
    ``n = (z_{1−α} σ̃ + z_{power} σ)² / (Δ + m)²``.

    References
    ----------
    Nam, J. (1997). Establishing equivalence of two treatments and sample size requirements in matched-pairs
    design. Biometrics 53:1422–1430. Tango, T. (1998). Equivalence test and confidence interval for the
    difference in proportions for the paired-sample design. Stat Med 17:891–908. Sidik, K. (2003). Exact
    unconditional tests for testing non-inferiority in matched-pairs design. Stat Med 22:265–278.

    Examples
    --------
    >>> round(noninferiority_power(7893, 0.0, 0.9, 0.01, method="normal").power, 4)
    0.8
    """
    n, delta, psi, margin, alpha, test, method = _validate(n, delta, agreement, margin, alpha, test, method)
    return _result(n, delta, psi, margin, alpha, test, method, 1, n_sims, seed)


def equivalence_power(n, delta, agreement, margin, *, alpha=0.05, test="score", method="exact", n_sims=10_000,
                      seed=None) -> PowerResult:
    """Power of a paired equivalence test (TOST): P(reject both H0: Δ ≤ −margin and H0: Δ ≥ +margin).

    Parameters
    ----------
    n, delta, agreement, margin, test, method, n_sims, seed
        As in :func:`noninferiority_power`; the upper test is the lower one with the roles of the two models
        swapped.
    alpha : float, optional
        Level of each one-sided test (the TOST has size at most ``alpha``; it matches a 1 − 2α interval).

    Returns
    -------
    PowerResult

    Notes
    -----
    Schuirmann's (1987) two one-sided tests. The closed form is
    ``P(−m + z σ̃_−/√n <= Δ̂ <= m − z σ̃_+/√n)`` with Δ̂ ~ N(Δ, (ψ − Δ²)/n); at Δ = 0 with the Wald test it is
    ``2Φ(m√n/√ψ − z_{1−α}) − 1``.

    References
    ----------
    Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the power approach for
    assessing the equivalence of average bioavailability. J Pharmacokinet Biopharm 15:657–680. Nam (1997).

    Examples
    --------
    >>> round(equivalence_power(2141, 0.0, 0.9, 0.02, test="wald", method="normal").power, 3)
    0.8
    """
    n, delta, psi, margin, alpha, test, method = _validate(n, delta, agreement, margin, alpha, test, method)
    return _result(n, delta, psi, margin, alpha, test, method, 2, n_sims, seed)


def _sizes(delta, agreement, margin, target_power, alpha, test, method, sides, n_max) -> SampleSize:
    if test == "exact":
        raise ValueError("`test` 'exact' has no sample-size search (its critical value is recomputed at every n): "
                         "size the study with 'score', then check the exact test's power at that n.")
    _, delta, psi, margin, alpha, test, method = _validate(None, delta, agreement, margin, alpha, test, method)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    if method == "simulate":
        raise ValueError("`method` must be 'exact' or 'normal' for a sample size (a simulated power is noisy).")
    n_max = check_int("n_max", n_max, low=2, high=_N_MAX)
    gap = delta + margin if sides == 1 else margin - abs(delta)
    if gap <= 0:
        which = "delta + margin" if sides == 1 else "margin − |delta|"
        raise ValueError(f"`delta` must lie inside the margin to size a study ({which} must be > 0), got "
                         f"delta = {delta:g}, margin = {margin:g}: no test set is large enough.")
    sd, null_low, null_high = _normal_parts(delta, psi, margin, test)
    z_a, z_b = stats.norm.isf(alpha), stats.norm.ppf(target_power if sides == 1 else (1 + target_power) / 2)
    null = null_low if sides == 1 else max(null_low, null_high)
    guess = max((z_a * null + z_b * sd) ** 2 / gap**2, 1.0)
    engine = _exact_power_many if method == "exact" else _normal_power_many

    def power_many(ns):
        return engine(ns, psi, delta, margin, alpha, test, sides)

    return sample_size_search(power_many, target_power, guess=guess, n_max=n_max, low=1)


def noninferiority_sample_sizes(delta, agreement, margin, *, target_power=0.8, alpha=0.025, test="score",
                                method="normal", n_max=_N_MAX) -> SampleSize:
    """Both answers of :func:`noninferiority_sample_size` (``.first``, ``.conservative``)."""
    return _sizes(delta, agreement, margin, target_power, alpha, test, method, 1, n_max)


def noninferiority_sample_size(delta, agreement, margin, *, target_power=0.8, alpha=0.025, test="score",
                               conservative=False, method="normal", n_max=_N_MAX) -> int:
    """Smallest test set for which a paired non-inferiority test reaches ``target_power``.

    Parameters
    ----------
    delta, agreement, margin, alpha, test
        As in :func:`noninferiority_power`; ``delta + margin`` must be > 0.
    target_power : float, optional
        Power to reach, in (0, 1).
    conservative : bool, optional
        False: the first n whose power reaches the target; True: the smallest n from which it stays there
        (exact power zigzags in n; :mod:`core.sizing`).
    method : {"normal", "exact"}, optional
        ``"normal"`` (default) inverts the closed form — Nam's (1997) formula, the number protocols quote;
        ``"exact"`` searches the exact power of the Wald or score test. ``test="exact"`` is not offered here
        (size with the score test, then check the exact test's power).
    n_max : int, optional
        Search limit.

    Returns
    -------
    int
        The sample size, or ``-1`` when ``n_max`` is not enough.

    Notes
    -----
    ``n = (z_{1−α} σ̃ + z_{power} σ)² / (Δ + m)²`` with σ² = ψ − Δ² and σ̃² the restricted variance at the
    margin (Nam 1997); the Wald test uses σ̃ = σ.

    Examples
    --------
    ψ = 0.10, Δ = 0, margin one point, one-sided α = 0.025, 80% power:

    >>> noninferiority_sample_size(0.0, 0.9, 0.01, test="wald"), noninferiority_sample_size(0.0, 0.9, 0.01)
    (7849, 7893)
    """
    return noninferiority_sample_sizes(delta, agreement, margin, target_power=target_power, alpha=alpha, test=test,
                                       method=method, n_max=n_max).pick(bool(conservative))


def equivalence_sample_sizes(delta, agreement, margin, *, target_power=0.8, alpha=0.05, test="score",
                             method="normal", n_max=_N_MAX) -> SampleSize:
    """Both answers of :func:`equivalence_sample_size` (``.first``, ``.conservative``)."""
    return _sizes(delta, agreement, margin, target_power, alpha, test, method, 2, n_max)


def equivalence_sample_size(delta, agreement, margin, *, target_power=0.8, alpha=0.05, test="score",
                            conservative=False, method="normal", n_max=_N_MAX) -> int:
    """Smallest test set for which the paired TOST reaches ``target_power``.

    Parameters
    ----------
    delta, agreement, margin, alpha, test, conservative, method, n_max
        As in :func:`equivalence_power` and :func:`noninferiority_sample_size`; |delta| < margin.
    target_power : float, optional
        Power to reach, in (0, 1).

    Returns
    -------
    int
        The sample size, or ``-1`` when ``n_max`` is not enough.

    Notes
    -----
    At Δ = 0 with the Wald test, ``n = (z_{1−α} + z_{(1+power)/2})² ψ / m²`` (the usual TOST formula).

    Examples
    --------
    Margins ±2 points, α = 0.05 per side, Δ = 0, ψ = 0.10:

    >>> equivalence_sample_size(0.0, 0.9, 0.02, test="wald")
    2141
    """
    return equivalence_sample_sizes(delta, agreement, margin, target_power=target_power, alpha=alpha, test=test,
                                    method=method, n_max=n_max).pick(bool(conservative))


#: ``"ni"``: show the new model is no worse than the old by more than the margin; ``"eq"``: show equivalence (TOST).
CLAIMS = ("ni", "eq")


@dataclass(frozen=True)
class NonInferiorityDesign:
    """A paired "no worse than" (or equivalence) claim, everything but the test-set size n.

    Attributes
    ----------
    claim : {"ni", "eq"}
        Non-inferiority or equivalence (two one-sided tests).
    delta : float
        Expected accuracy difference, new minus old.
    agreement : float
        P_a, the share of items both models get right or both get wrong.
    margin : float
        The margin, in (0, 1).
    alpha : float
        One-sided level of each test.
    test : {"score", "wald", "exact"}

    Examples
    --------
    >>> d = NonInferiorityDesign("ni", 0.0, 0.9, 0.02)
    >>> d.power(2000) == noninferiority_power(2000, 0.0, 0.9, 0.02)
    True
    """

    claim: str
    delta: float
    agreement: float
    margin: float
    alpha: float = 0.025
    test: str = "score"

    def __post_init__(self):
        object.__setattr__(self, "claim", check_choice("claim", self.claim, CLAIMS))
        _, delta, _, margin, alpha, test, _ = _validate(None, self.delta, self.agreement, self.margin, self.alpha,
                                                        self.test, "exact")
        for name, value in (("delta", delta), ("agreement", check_probability("agreement", self.agreement)),
                            ("margin", margin), ("alpha", alpha), ("test", test)):
            object.__setattr__(self, name, value)

    def power(self, n, *, delta=None, method="exact") -> PowerResult:
        """Power at ``n`` items (at ``delta``, default the design's; ``delta=-margin`` gives the test's size)."""
        engine = noninferiority_power if self.claim == "ni" else equivalence_power
        return engine(n, self.delta if delta is None else delta, self.agreement, self.margin, alpha=self.alpha,
                      test=self.test, method=method)

    def sample_sizes(self, *, target_power=0.8, method="normal") -> SampleSize:
        """Both sample-size answers for this claim (``.first``, ``.conservative``)."""
        engine = noninferiority_sample_sizes if self.claim == "ni" else equivalence_sample_sizes
        return engine(self.delta, self.agreement, self.margin, target_power=target_power, alpha=self.alpha,
                      test=self.test, method=method)

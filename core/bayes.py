"""Bayesian assessment of a comparison: posterior, HDI, ROPE and Bayes factor.

Azer, Khashabi, Sabharwal & Roth (2020), "Not All Claims are Created Equal:
Choosing the Right Statistical Approach to Assess Hypotheses" (HyBayes), §2.3–2.4
and appendix A.3.

* Accuracies: ``a_i ~ Binomial(n_i, θ_i)`` with ``θ_i ~ Beta(α, β)``; the
  posteriors are Beta (conjugate). The posterior of the difference θ_A − θ_B
  is computed exactly by numerical integration (Gauss–Legendre), not by MCMC,
  so the reported numbers carry no sampling error; ``method="sampling"`` draws
  from the two Betas instead, as a cross-check.
* Continuous paired scores: the mean difference under the reference prior
  ``p(μ, σ²) ∝ 1/σ²`` has the Student-t posterior ``t_{n-1}(d̄, s/√n)``
  (Gelman et al., BDA3 §3.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .validation import check_choice, check_int, check_real, rng_of

__all__ = ["BayesResult", "compare_accuracies", "compare_means", "DECISIONS"]

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(400)

#: Possible ROPE decisions (Kruschke 2018; HyBayes §2.3, §6 recommendations).
DECISIONS = ("practically equivalent", "A better", "B better", "undecided")


@dataclass(frozen=True)
class BayesResult:
    """Posterior summary of the difference A − B.

    Attributes
    ----------
    mean : float
        Posterior mean of the difference.
    hdi : (float, float)
        Highest-density interval of the difference with mass ``hdi_mass``.
    hdi_mass : float
        Credibility of the HDI (e.g. 0.95).
    p_superior : float
        P(A > B | data).
    p_rope : float
        P(|A − B| < rope | data).
    p_above_margin : float
        P(A − B > rope | data): A better by more than the ROPE radius.
    bf01 : float
        Bayes factor of H0: |A − B| < rope against H1: |A − B| >= rope
        (posterior odds / prior odds, HyBayes §2.4); ``nan`` when the prior is
        improper.
    prior_rope : float
        Prior probability of the ROPE hypothesis.
    decision : str
        "practically equivalent" (HDI inside the ROPE), "A better" / "B better"
        (HDI entirely outside the ROPE on that side), or "undecided".
    rope : float
        ROPE radius.
    grid, density : ndarray
        The posterior density of the difference on a grid (for plotting).
    """

    mean: float
    hdi: tuple
    hdi_mass: float
    p_superior: float
    p_rope: float
    p_above_margin: float
    bf01: float
    prior_rope: float
    decision: str
    rope: float
    grid: np.ndarray
    density: np.ndarray
    method: str = "exact"


def _decision(low, high, rope):
    if -rope <= low and high <= rope:
        return "practically equivalent"
    if low >= rope:
        return "A better"
    if high <= -rope:
        return "B better"
    return "undecided"


def _hdi_from_cdf(grid, cdf, mass):
    """Shortest interval holding ``mass`` of a unimodal distribution, from its CDF on a grid around it.

    The CDF is interpolated by a cubic spline (error O(h⁴) where it is smooth); for each left end l the right end is
    the quantile at F(l) + mass, and the width is minimised over l. Working from the CDF rather than a density
    keeps the interval right where the density is infinite (a Beta shape below 1 with all or no answers correct).
    """
    from scipy import interpolate, optimize

    cdf = np.maximum.accumulate(np.clip(cdf, 0.0, 1.0))
    keep = np.concatenate([[True], np.diff(cdf) > 0])  # strictly increasing knots
    x, f = grid[keep], cdf[keep]
    if f[-1] - f[0] < mass or x.size < 2:
        return float(grid[0]), float(grid[-1])
    spline = interpolate.CubicSpline(x, f)

    def right(left):
        goal = min(float(spline(left)) + mass, f[-1])
        return optimize.brentq(lambda u: float(spline(u)) - goal, left, x[-1], xtol=1e-13)

    last = float(np.interp(f[-1] - mass, f, x))  # the largest left end with mass to its right
    if last <= x[0]:
        return float(x[0]), right(float(x[0]))
    best = optimize.minimize_scalar(lambda left: right(left) - left, bounds=(x[0], last), method="bounded",
                                    options={"xatol": 1e-12 * max(1.0, abs(last - x[0]))})
    return float(best.x), float(right(best.x))


def _difference_cdf(x, a1, b1, a2, b2):
    """P(θ1 − θ2 <= x) for independent θ1 ~ Beta(a1, b1), θ2 ~ Beta(a2, b2); vectorized over x.

    P(θ1 − θ2 <= x) = ∫₀¹ S₂(F₁⁻¹(u) − x) du = ∫₀¹ F₁(F₂⁻¹(v) + x) dv, by Gauss–Legendre over the quantiles
    (probability scale) of the narrower of the two: the integrand is then a bounded CDF that varies slowly over
    the nodes, even where a density is infinite (a Beta shape below 1 at 0 or n correct) or one posterior is
    far narrower than the other.
    """
    u = 0.5 * (_GL_NODES + 1.0)
    w = 0.5 * _GL_WEIGHTS
    x = np.atleast_1d(np.asarray(x, dtype=float))
    if stats.beta.var(a1, b1) <= stats.beta.var(a2, b2):  # ∫ S₂(t − x) over θ1's quantiles t
        t, args, sign, upper = stats.beta.ppf(u, a1, b1), (a2, b2), -1.0, True
    else:  # ∫ F₁(s + x) over θ2's quantiles s
        t, args, sign, upper = stats.beta.ppf(u, a2, b2), (a1, b1), 1.0, False
    y = t[None, :] + sign * x[:, None]
    # outside the other Beta's bulk (all but 10⁻¹⁵ of its mass) its CDF is 0 or 1: the incomplete beta function
    # (≈ 2 µs a value) is evaluated only inside
    lo, hi = stats.beta.ppf([1e-15, 1 - 1e-15], *args)
    inside = (y > lo) & (y < hi)
    cdf = (y >= hi).astype(float)
    cdf[inside] = special.betainc(*args, y[inside])
    values = 1.0 - cdf if upper else cdf
    return np.clip(values @ w, 0.0, 1.0)


def _difference_grid(a1, b1, a2, b2, size=401):
    """A grid over all but ≈ 10⁻¹² of the difference's mass (its ends from the two Betas' quantiles), in [−1, 1]."""
    lo1, hi1 = stats.beta.ppf([1e-13, 1 - 1e-13], a1, b1)
    lo2, hi2 = stats.beta.ppf([1e-13, 1 - 1e-13], a2, b2)
    return np.linspace(max(lo1 - hi2, -1.0), min(hi1 - lo2, 1.0), size)


def compare_accuracies(correct_a, n_a, correct_b, n_b, *, prior=(1, 1), rope=0.01, hdi=0.95, seed=None,
                       method="exact") -> BayesResult:
    """Bayesian comparison of two accuracies (HyBayes §2.3–2.4, appendix A.3).

    Parameters
    ----------
    correct_a, n_a, correct_b, n_b : int
        Correct answers and test-set size of systems A and B.
    prior : (float, float), optional
        Beta(α, β) prior on each accuracy; (1, 1) is uniform.
    rope : float, optional
        Radius of the region of practical equivalence (0.01 = one point).
    hdi : float, optional
        Mass of the highest-density interval.
    seed : int, optional
        Seed for ``method="sampling"``.
    method : {"exact", "sampling"}, optional
        Exact numerical integration (default) or 400,000 posterior draws.

    Returns
    -------
    BayesResult
        ``.hdi`` of A − B, ``.p_superior``, ``.p_rope``, ``.bf01``, ``.decision``.

    Raises
    ------
    ValueError
        If counts are out of range or the prior is not positive.

    Notes
    -----
    Posterior: θ_A ~ Beta(α + a, β + n_A − a), θ_B likewise.
    ``BF01 = [P(H0|y)/P(H1|y)] / [P(H0)/P(H1)]`` with ``H0: |θ_A − θ_B| < rope``.
    The CDF of θ_A − θ_B is integrated over the quantiles of the narrower posterior (:func:`_difference_cdf`), the
    HDI is the shortest interval of that CDF (:func:`_hdi_from_cdf`; its two ends have equal density, to 10⁻⁴ on
    the ARC example) and the density drawn is the CDF's slope. Where a posterior's shape is below 1 (a prior below
    1 with all or no answers correct: an infinite density at 0 or 1) the quadrature converges slowly: the
    probabilities are then right to a few 10⁻⁴ and the HDI's ends to about 1% of its width.

    References
    ----------
    Azer et al. (2020), Figure 2 and §2.4 (ARC-easy, 1721/2376 vs 1637/2376:
    95% HDI (0.00939, 0.0612), P(A > B) = 0.996, BF01 = 1.382 from their MCMC).

    Examples
    --------
    >>> r = compare_accuracies(1721, 2376, 1637, 2376)
    >>> tuple(round(v, 4) for v in r.hdi), round(r.p_superior, 3), r.decision
    ((0.0095, 0.0612), 0.996, 'undecided')
    """
    n_a = check_int("n_a", n_a, low=1, high=10**9)
    n_b = check_int("n_b", n_b, low=1, high=10**9)
    correct_a = check_int("correct_a", correct_a, low=0, high=n_a)
    correct_b = check_int("correct_b", correct_b, low=0, high=n_b)
    if not isinstance(prior, (tuple, list)) or len(prior) != 2:
        raise ValueError("`prior` must be a pair (alpha, beta) of positive numbers.")
    alpha0 = check_real("prior", prior[0], low=0.0, high=1e6, low_open=True)
    beta0 = check_real("prior", prior[1], low=0.0, high=1e6, low_open=True)
    rope = check_real("rope", rope, low=0.0, high=0.5)
    hdi_mass = check_real("hdi", hdi, low=0.5, high=0.999)
    method = check_choice("method", method, ("exact", "sampling"))
    a1, b1 = alpha0 + correct_a, beta0 + n_a - correct_a
    a2, b2 = alpha0 + correct_b, beta0 + n_b - correct_b
    mean = a1 / (a1 + b1) - a2 / (a2 + b2)
    grid = _difference_grid(a1, b1, a2, b2)
    grid_cdf = _difference_cdf(grid, a1, b1, a2, b2)
    # the density drawn: the CDF's slope (finite and holding the mass even where the density itself is infinite)
    density = np.gradient(grid_cdf, grid)
    if method == "exact":
        cdf = _difference_cdf([0.0, -rope, rope], a1, b1, a2, b2)
        p_superior = 1.0 - float(cdf[0])
        p_rope = float(cdf[2] - cdf[1])
        p_above = 1.0 - float(cdf[2])
        low, high = _hdi_from_cdf(grid, grid_cdf, hdi_mass)
        # then on a finer grid around it (the interpolated CDF is exact to ≈ 10⁻⁹ there)
        step = grid[1] - grid[0]
        fine = np.linspace(max(low - 3 * step, grid[0]), min(high + 3 * step, grid[-1]), 201)
        low, high = _hdi_from_cdf(fine, _difference_cdf(fine, a1, b1, a2, b2), hdi_mass)
    else:
        rng = rng_of(seed)
        draws = rng.beta(a1, b1, 400_000) - rng.beta(a2, b2, 400_000)
        p_superior = float((draws > 0).mean())
        p_rope = float((np.abs(draws) < rope).mean())
        p_above = float((draws > rope).mean())
        sorted_draws = np.sort(draws)
        k = int(math.floor(hdi_mass * draws.size))
        widths = sorted_draws[k:] - sorted_draws[: draws.size - k]
        i = int(np.argmin(widths))
        low, high = float(sorted_draws[i]), float(sorted_draws[i + k])
    prior_cdf = _difference_cdf([-rope, rope], alpha0, beta0, alpha0, beta0)
    prior_rope = float(prior_cdf[1] - prior_cdf[0])
    if 0 < p_rope < 1 and 0 < prior_rope < 1:
        bf01 = (p_rope / (1 - p_rope)) / (prior_rope / (1 - prior_rope))
    else:
        bf01 = math.nan
    return BayesResult(mean=mean, hdi=(low, high), hdi_mass=hdi_mass, p_superior=p_superior, p_rope=p_rope,
                       p_above_margin=p_above, bf01=bf01, prior_rope=prior_rope,
                       decision=_decision(low, high, rope), rope=rope, grid=grid, density=density, method=method)


def compare_means(differences, *, rope=0.01, hdi=0.95) -> BayesResult:
    """Posterior of the mean paired difference A − B under the reference prior.

    With ``p(μ, σ²) ∝ 1/σ²`` the marginal posterior of μ is Student-t with
    n − 1 degrees of freedom, centre d̄ and scale s/√n (BDA3 §3.2), so the HDI
    is the t interval and the ROPE probabilities are t CDF differences. The
    prior is improper, so no Bayes factor is reported (``bf01 = nan``).
    """
    d = np.asarray(differences, dtype=float)
    if d.ndim != 1 or d.size < 3:
        raise ValueError("`differences` must be a 1-D array of at least 3 paired differences.")
    if not np.all(np.isfinite(d)):
        raise ValueError("`differences` must be finite numbers.")
    if float(np.max(np.abs(d))) > 1e150:  # squares and sums of up to a million values must stay finite
        raise ValueError("`differences` are too large to compare (at most 1e+150 in absolute value); rescale the "
                         "scores.")
    rope = check_real("rope", rope, low=0.0, high=1e12)
    hdi_mass = check_real("hdi", hdi, low=0.5, high=0.999)
    n = d.size
    scale = d.std(ddof=1) / math.sqrt(n)
    if scale == 0:
        raise ValueError("`differences` are all equal: the posterior is degenerate.")
    post = stats.t(df=n - 1, loc=d.mean(), scale=scale)
    low, high = (float(v) for v in post.interval(hdi_mass))
    grid = np.linspace(d.mean() - 8 * scale, d.mean() + 8 * scale, 2001)
    return BayesResult(mean=float(d.mean()), hdi=(low, high), hdi_mass=hdi_mass, p_superior=float(post.sf(0)),
                       p_rope=float(post.cdf(rope) - post.cdf(-rope)), p_above_margin=float(post.sf(rope)),
                       bf01=math.nan, prior_rope=math.nan, decision=_decision(low, high, rope), rope=rope,
                       grid=grid, density=post.pdf(grid), method="exact")

"""Confidence intervals for one accuracy on a small test set, and their exact coverage.

With a few hundred items or fewer — HumanEval has 164 — the normal-approximation (Wald, "CLT") interval
``p̂ ± z sqrt(p̂(1 − p̂)/n)`` that evaluation frameworks report covers the true accuracy far less often than
its nominal level near 0 or 1, and collapses to a single point when every item is right or every item is
wrong (Brown, Cai & DasGupta 2001; Bowyer et al. 2025). The Wilson score interval, the Clopper–Pearson
interval, and the equal-tailed Bayesian intervals (Jeffreys prior Beta(½, ½); uniform prior Beta(1, 1),
``"beta"``, the one Bowyer et al. recommend) hold their level much better.

Coverage is exact: ``C(n, p) = Σ_k P(K = k) 1{low_k <= p <= high_k}`` with K ~ Binomial(n, p), summed over
all n + 1 outcomes (Brown, Cai & DasGupta 2001). Frequentist limits come from statsmodels
``proportion_confint``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from ..sizing import sample_size_search
from ..validation import as_floats, check_choice, check_int, check_probability, check_real

__all__ = ["INTERVAL_METHODS", "interval", "interval_coverage", "interval_sample_size", "coverage_curves"]

#: Interval methods: Wilson score, Wald (normal approximation), Clopper–Pearson, Jeffreys, uniform-prior Beta.
INTERVAL_METHODS = ("wilson", "wald", "clopper_pearson", "jeffreys", "beta")
_STATSMODELS = {"wilson": "wilson", "wald": "normal", "clopper_pearson": "beta", "jeffreys": "jeffreys"}
_N_MAX = 1_000_000


def _check(method, confidence):
    method = check_choice("method", method, INTERVAL_METHODS)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    return method, confidence


def _limits(k, n, method, confidence):
    """Vectorized limits for (possibly non-integer) counts k out of n, clipped to [0, 1]."""
    alpha = 1.0 - confidence
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if method == "beta":
        low = stats.beta.ppf(alpha / 2.0, k + 1.0, n - k + 1.0)
        high = stats.beta.isf(alpha / 2.0, k + 1.0, n - k + 1.0)
    else:
        low, high = proportion_confint(k, n, alpha=alpha, method=_STATSMODELS[method])
        low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
        if method in ("clopper_pearson", "wilson", "jeffreys"):
            # At k = 0 and k = n the limits are exactly 0 and 1: Clopper–Pearson's exact limits (statsmodels gives
            # nan); Wilson's in exact arithmetic (floating point gave 0.9999999999999999, so an exact coverage at
            # p = 1 came out 0); Jeffreys' as Brown, Cai & DasGupta (2001, §4.1.2) modify it at the edges.
            low = np.where(k <= 0, 0.0, low)
            high = np.where(k >= n, 1.0, high)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def interval(k, n, *, method="wilson", confidence=0.95):
    """Two-sided confidence (or credible) interval for an accuracy of ``k`` right out of ``n``.

    Parameters
    ----------
    k : int
        Items answered correctly, 0 … n.
    n : int
        Test-set size, 1 … 1,000,000.
    method : {"wilson", "wald", "clopper_pearson", "jeffreys", "beta"}, optional
        Wilson score; Wald ``p̂ ± z sqrt(p̂(1 − p̂)/n)`` (the CLT interval); Clopper–Pearson (exact binomial);
        Jeffreys (equal-tailed Beta(k + ½, n − k + ½) posterior, with the limit 0 at k = 0 and 1 at k = n as in
        Brown, Cai & DasGupta 2001); ``"beta"``: equal-tailed posterior
        Beta(k + 1, n − k + 1) under a uniform prior.
    confidence : float, optional
        Level in (0, 1).

    Returns
    -------
    tuple of float
        ``(low, high)``, clipped to [0, 1].

    Raises
    ------
    ValueError
        If ``k`` is not in [0, n], or another argument is out of range.

    Notes
    -----
    Wilson: ``(p̂ + z²/2n ± z sqrt(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n)`` (Brown, Cai & DasGupta 2001).

    References
    ----------
    Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a binomial proportion.
    Statistical Science 16:101–133. Bowyer, S. et al. (2025). Position: don't use the central limit theorem
    in LLM evals with fewer than a few hundred datapoints. ICML.

    Examples
    --------
    >>> [round(x, 4) for x in interval(164, 164, method="wald")]  # all right: the CLT interval is a point
    [1.0, 1.0]
    >>> [round(x, 4) for x in interval(164, 164)]
    [0.9771, 1.0]
    """
    n = check_int("n", n, low=1, high=_N_MAX)
    k = check_int("k", k, low=0, high=n)
    method, confidence = _check(method, confidence)
    low, high = _limits(k, n, method, confidence)
    return float(low), float(high)


def interval_coverage(n, p, *, method="wilson", confidence=0.95):
    """Exact coverage probability of an interval method at test-set size ``n`` and true accuracy ``p``.

    Parameters
    ----------
    n : int
        Test-set size, 1 … 1,000,000.
    p : float or array_like
        True accuracy (or accuracies), in [0, 1].
    method, confidence
        As in :func:`interval`.

    Returns
    -------
    float or ndarray
        ``Σ_k Binom(k; n, p) 1{low_k <= p <= high_k}`` (a float for a scalar ``p``).

    Examples
    --------
    Brown, Cai & DasGupta (2001) show the Wald interval's erratic coverage; at n = 100, p = 0.97:

    >>> round(interval_coverage(100, 0.97, method="wald"), 4), round(interval_coverage(100, 0.97), 4)
    (0.8022, 0.9688)
    """
    n = check_int("n", n, low=1, high=_N_MAX)
    method, confidence = _check(method, confidence)
    scalar = np.ndim(p) == 0
    ps = np.atleast_1d(as_floats("p", p, what="numbers in [0, 1]"))
    if ps.size == 0 or not np.all(np.isfinite(ps)) or ps.min() < 0 or ps.max() > 1:
        raise ValueError("`p` must be in [0, 1].")
    k = np.arange(n + 1)
    low, high = _limits(k, n, method, confidence)
    out = np.empty(ps.size)
    for i, pi in enumerate(ps):
        covered = (low <= pi) & (pi <= high)
        out[i] = stats.binom.pmf(k[covered], n, pi).sum()
    out = np.clip(out, 0.0, 1.0)
    return float(out[0]) if scalar else out


def _halfwidths(ns, p, method, confidence):
    ns = np.asarray(ns, dtype=float)
    low, high = _limits(p * ns, ns, method, confidence)
    return (high - low) / 2.0


def interval_sample_size(p, halfwidth, *, method="wilson", confidence=0.95):
    """Fewest items for an interval no wider than ±``halfwidth`` when the observed accuracy is ``p``.

    Parameters
    ----------
    p : float
        Expected accuracy in [0, 1]; the interval is evaluated at p̂ = p (k = p·n, not rounded).
    halfwidth : float
        Target half-width ``(high − low)/2``, in (0, 0.5].
    method, confidence
        As in :func:`interval`.

    Returns
    -------
    int
        Smallest n with half-width <= ``halfwidth`` (``-1`` beyond 1,000,000 items). The half-width is that of
        the interval :func:`interval` reports, ``(high − low)/2`` after clipping to [0, 1].

    Notes
    -----
    The half-width at p̂ = p falls with n; the search (:func:`core.sizing.sample_size_search`) scans every n
    around the crossing. The half-width measured is the one the user reports: that of the limits clipped to
    [0, 1], as :func:`interval` returns them. For Wald this is the textbook ``n = ⌈z² p(1 − p)/h²⌉`` whenever
    ``h <= min(p, 1 − p)`` (then the interval ``p ± h`` lies inside [0, 1] at that n, and at n − 1 its clipped
    half-width, which grows with the unclipped one, still exceeds h); for larger h the interval is clipped at 0
    or 1 and a smaller n reaches ±h: at p = 0.07443, h = 0.0818 the formula gives 40 but 34 items already give
    a reported interval [0, 0.1627], half-width 0.0813.

    Examples
    --------
    >>> interval_sample_size(0.9, 0.02)  # Wilson 95%
    868
    """
    p = check_probability("p", p)
    halfwidth = check_real("halfwidth", halfwidth, low=0.0, high=0.5, low_open=True)
    method, confidence = _check(method, confidence)
    z = stats.norm.isf((1.0 - confidence) / 2.0)
    guess = max(z * z * max(p * (1.0 - p), 0.01) / halfwidth**2, 1.0)
    found = sample_size_search(lambda ns: -_halfwidths(ns, p, method, confidence), -halfwidth, guess=guess,
                               n_max=_N_MAX, low=1)
    return found.first


def coverage_curves(n, *, methods=INTERVAL_METHODS, confidence=0.95, points=199) -> pd.DataFrame:
    """Exact coverage of each method at size ``n`` over a grid of true accuracies (tidy, for the chart).

    Returns
    -------
    pandas.DataFrame
        Columns ``method, p, coverage``; ``p`` runs over ``points`` values in [0.005, 0.995].
    """
    n = check_int("n", n, low=1, high=_N_MAX)
    points = check_int("points", points, low=3, high=2_000)
    ps = np.linspace(0.005, 0.995, points)
    frames = [pd.DataFrame({"method": m, "p": ps, "coverage": interval_coverage(n, ps, method=m,
                                                                                confidence=confidence)})
              for m in methods]
    return pd.concat(frames, ignore_index=True)

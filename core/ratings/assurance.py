"""Assurance of ratings designs: power averaged over a normal prior on the effect (O'Hagan et al. 2005)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..validation import check_alpha, check_int, check_real
from ._model import PRESETS, _analytic, _crossed_tails, _crowd_tails, _validate  # noqa: F401  (PRESETS: the doctests)
from .crowd import crowd_analytic

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
        mean ratings differ by 2β1); τ = 0 gives the power at μ (at μ = 0: the
        positive direction's half of the false-positive rate).
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
    from ..assurance import assurance

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
        Prior N(μ, τ²) on β1; τ = 0 gives :func:`crowd_analytic`'s power at μ (at
        μ = 0: the positive direction's half of the false-positive rate).
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
    from ..assurance import assurance

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
    from ..assurance import assurance_sample_size

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

"""Agreement studies of two raters: SEs and sample sizes for Cohen's κ, Gwet's AC1 and Krippendorff's α."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from core.validation import check_choice, check_probability, check_real

from .ppi import _N_MAX  # the judge package's one cap on item counts

__all__ = ["STATISTICS", "agreement_table", "agreement_value", "agreement_se", "agreement_sample_size",
           "agreement_curve", "prevalence_paradox_curve"]

#: Agreement statistics and their display names.
STATISTICS = {"cohen": "Cohen's κ", "gwet_ac1": "Gwet's AC1", "krippendorff": "Krippendorff's α"}
#: Fewest expected items in the rarest category for the large-sample (delta-method) SE: the usual "expected
#: count at least 5" condition for normal approximations to multinomial counts (Cochran 1954, §9).
MIN_EXPECTED = 5


def _reliable_from(p) -> int:
    """Smallest n at which the rarest category is expected at least ``MIN_EXPECTED`` times (and n >= 2).

    Below it the linearised variance is not a usable SE: at prevalence 1e-6 and n = 100 almost every study sees
    no positive label at all (the coefficient is then undefined), yet the formula gives an SE of 43 for a
    coefficient in [−1, 1]. From this n on, the SE stays below 0.32 over every prevalence and κ (tested).
    """
    return max(2, math.ceil(MIN_EXPECTED / float(np.min(p)) - 1e-9))


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

    Raises
    ------
    ValueError
        If ``n`` is below 2, or so small that the rarest category is expected fewer than 5 times
        (n·min(p) < 5): the large-sample SE is then unreliable (at prevalence 1e-6 and n = 100 it would be 43
        for a coefficient in [−1, 1]); the message gives the smallest usable n.

    Notes
    -----
    The SE is the delta method's, which treats the cell shares as normal; that needs each category seen
    often enough — the condition used is an expected count of at least 5 in the rarest category (Cochran
    1954, §9).

    References
    ----------
    Cochran, W. G. (1954). Some methods for strengthening the common χ² tests. Biometrics 10:417–451.

    Examples
    --------
    >>> round(agreement_se(500, prevalence=0.3, kappa=0.6), 6)
    0.039192
    """
    p, kappa = _check_agreement(prevalence, kappa, statistic)
    arr = np.asarray(n, dtype=float)
    if np.any(~np.isfinite(arr)) or np.any(arr < 2):
        raise ValueError(f"`n` must be at least 2; got {n!r}.")
    low = _reliable_from(p)
    if np.any(arr < low):
        raise ValueError(f"`n` must be at least {low:,} at a rarest-category share of {float(np.min(p)):.3g} (the "
                         f"rarest label expected at least {MIN_EXPECTED} times), got {np.min(arr):,.0f}: below that "
                         "the large-sample SE of an agreement coefficient is unreliable.")
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
        The smallest n with z·agreement_se(n) <= halfwidth among the n where that SE is usable: at least 2
        and with the rarest category expected at least 5 times (n·min(p) >= 5, see :func:`agreement_se`).

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
    low = _reliable_from(p)
    with np.errstate(over="ignore"):
        need = var1 * (z / halfwidth) ** 2  # compared before rounding: at halfwidth 1e-170 it is inf
    if not need <= _N_MAX:
        raise ValueError("`halfwidth` is too small: more than a billion items would be needed.")
    n = max(low, math.ceil(need))
    # float noise: the smallest n as computed by agreement_se
    while n > low and z * math.sqrt(var1 / (n - 1)) <= halfwidth:
        n -= 1
    while z * math.sqrt(var1 / n) > halfwidth:
        n += 1
    return int(n)


def agreement_curve(ns, *, prevalence, kappa, statistics=tuple(STATISTICS), confidence=0.95) -> pd.DataFrame:
    """Precision of agreement coefficients against the number of double-annotated items.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``statistic, n, value, se, halfwidth, reliable`` (halfwidth = z·se). Where the rarest category is
        expected fewer than 5 times (``reliable`` False) the large-sample SE is unusable and ``se`` and
        ``halfwidth`` are NaN (:func:`agreement_se`).
    """
    confidence = check_probability("confidence", confidence, open_low=True, open_high=True)
    z = stats.norm.ppf((1 + confidence) / 2)
    ns = np.asarray(ns, dtype=float).ravel()
    p, _ = _check_agreement(prevalence, kappa)
    reliable = ns >= _reliable_from(p)
    frames = []
    for s in statistics:
        se = np.full(ns.size, np.nan)
        if reliable.any():
            se[reliable] = agreement_se(ns[reliable], prevalence=prevalence, kappa=kappa, statistic=s)
        frames.append(pd.DataFrame({"statistic": s, "n": ns.astype(np.int64),
                                    "value": agreement_value(prevalence=prevalence, kappa=kappa, statistic=s),
                                    "se": se, "halfwidth": z * se, "reliable": reliable}))
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

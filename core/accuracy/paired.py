"""Paired comparison of two classifiers on one test set: McNemar's test.

Card et al. (2020), §3 and appendices B, C, E: power, Type-M/Type-S, MDE and
sample size of McNemar's test, and the agreement rate P_a of a design — from
the user, from the GLUE and SQuAD 2.0 overlap regressions (appendix E.2.1,
Tables 5–6) or from Lachenbruch's (1992) no-prior bounds (appendix E.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..results import PowerResult
from ..sizing import SampleSize, sample_size_search
from ..validation import check_alpha, check_choice, check_int, check_probability, check_real
from .engine import (
    METHODS,
    TESTS,
    _N_MAX,
    _bisect_increasing,
    _distribution,
    _paired_result,
    _power_many,
    _validate_power_target,
)

PRIORS = ("glue", "squad")
#: Priors accepted by :func:`mcnemar_mde`: the regressions and Lachenbruch's points.
MDE_PRIORS = PRIORS + ("lachenbruch_mid", "lachenbruch_low", "lachenbruch_high")

# Table 5 (GLUE, R^2 = 0.966) and Table 6 (SQuAD 2.0, R^2 = 0.944):
# overlap = const + b_min_acc * min_acc + b_acc_diff * acc_diff.
_OVERLAP_COEFFICIENTS = {
    "glue": (0.4142, 0.5819, -0.4662),
    "squad": (0.4339, 0.5932, -1.2849),
}

#: Accuracy-based GLUE tasks and SQuAD 2.0: test-set size and leaderboard SOTA
#: accuracy on 6 May 2020, with the paper's estimated MDE (regression prior) and
#: mean reported improvement |Δ_acc| (Card et al. 2020, Table 2; sizes also in
#: ``GlueTaskTestSetSizes`` of the paper's repository).


def _validate_paired(n, delta, agreement, alpha, test):
    n = check_int("n", n, low=1, high=_N_MAX)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    agreement = check_probability("agreement", agreement)
    alpha = check_alpha(alpha)
    test = check_choice("test", test, TESTS)
    discordant = 1.0 - agreement
    if abs(delta) > discordant + 1e-12:
        raise ValueError(
            f"`delta` must satisfy |delta| <= 1 - agreement = {discordant:.4g} "
            f"(the models can only differ where they disagree), got {delta:g}."
        )
    return n, delta, agreement, alpha, test




def agreement_prior(baseline: float, delta: float, prior: str = "glue") -> float:
    """Expected agreement rate P_a from the overlap regressions of appendix E.2.1.

    Parameters
    ----------
    baseline : float
        Accuracy of the weaker model (the regression's ``min_acc``), in [0, 1].
    delta : float
        Expected accuracy difference (``acc_diff``), |delta| <= 1.
    prior : {"glue", "squad"}
        Which regression: GLUE (Table 5) or SQuAD 2.0 (Table 6).

    Returns
    -------
    float
        The predicted overlap, clipped to the range that two models with
        accuracies ``baseline`` and ``baseline + |delta|`` can attain
        (Lachenbruch 1992 bounds, appendix E.3).

    Notes
    -----
    GLUE: ``overlap = 0.4142 + 0.5819 min_acc - 0.4662 acc_diff``;
    SQuAD 2.0: ``overlap = 0.4339 + 0.5932 min_acc - 1.2849 acc_diff``.

    Examples
    --------
    >>> round(agreement_prior(0.9, 0.01, "glue"), 4)
    0.9332
    """
    baseline = check_probability("baseline", baseline)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    prior = check_choice("prior", prior, PRIORS)
    size = abs(delta)
    if baseline + size > 1.0 + 1e-12:
        raise ValueError(
            f"`delta` must satisfy baseline + |delta| <= 1 (= {1 - baseline:.4g} here), got {delta:g}."
        )
    const, b_min, b_diff = _OVERLAP_COEFFICIENTS[prior]
    overlap = const + b_min * baseline + b_diff * size
    high_acc = baseline + size
    # disagreement must lie between |delta| and the most the marginals allow
    max_disagree = min(baseline + high_acc, 2.0 - baseline - high_acc)
    disagree = min(max(1.0 - overlap, size), max_disagree)
    return 1.0 - disagree




def _cells(delta: float, agreement: float) -> tuple[float, float]:
    """(p_disc, q): discordant share and share of discordant pairs won by the new model."""
    p_disc = 1.0 - agreement
    if p_disc <= 0.0:
        return 0.0, 0.5
    # p10 = (1 - P_a + Δ)/2, p01 = (1 - P_a - Δ)/2  =>  q = p10 / p_disc
    q = min(max((p_disc + delta) / (2.0 * p_disc), 0.0), 1.0)
    return p_disc, q




def mcnemar_power(
    n,
    delta,
    agreement,
    *,
    alpha=0.05,
    test="exact",
    method="exact",
    n_sims=10_000,
    seed=None,
) -> PowerResult:
    """Power, Type-S and Type-M error of McNemar's test for two classifiers.

    Parameters
    ----------
    n : int
        Test-set size (number of paired items), 1 … 10,000,000.
    delta : float
        Expected accuracy difference, new minus baseline; |delta| <= 1 - agreement.
    agreement : float
        P_a, the share of items both models get right or both get wrong, in [0, 1].
    alpha : float, optional
        Two-sided significance level in (0, 0.5].
    test : {"exact", "midp", "chi2", "chi2_cc", "normal"}, optional
        Test variant (see :data:`TESTS`). ``"normal"`` is the closed-form
        approximation and ignores ``method``.
    method : {"exact", "simulate"}, optional
        Exact summation (no Monte Carlo error) or the simulation of Card et al.
        Figure 2, vectorized over ``n_sims`` replicates.
    n_sims : int, optional
        Replicates for ``method="simulate"`` (100 … 2,000,000).
    seed : int or numpy.random.Generator, optional
        Seed for ``method="simulate"``.

    Returns
    -------
    PowerResult
        ``power`` (significant and correct sign), ``type_s``, ``type_m``,
        ``rejection_rate`` and ``mc_se`` (0 for exact engines).

    Raises
    ------
    ValueError
        If an argument is out of range, e.g. |delta| > 1 - agreement.

    Notes
    -----
    Table 1/Table 4 of Card et al.: ``p10 = (1 - P_a + Δ)/2`` (only the new
    model right), ``p01 = (1 - P_a - Δ)/2``. With ``D ~ Bin(n, 1 - P_a)``
    discordant items and ``B | D ~ Bin(D, p10 / (1 - P_a))``, the tests reject
    when ``min(B, D - B) <= k_D``, so

    .. math:: \\text{power} = \\sum_d P(D = d)\\, P(B \\ge d - k_d \\mid d)

    for Δ > 0; Type-S and Type-M follow from the other tail and from the
    partial expectations ``E[B 1{B >= t}] = d q P(Bin(d-1, q) >= t-1)``
    (appendix B, steps 3–4). When Δ = 0, ``power`` is the rejection rate.

    References
    ----------
    Card et al. (2020), "With Little Power Comes Great Responsibility", §3.1,
    appendices B and C. Fagerland, Lydersen & Laake (2013), BMC Med Res Meth 13:91.
    Connett, Smith & McHugh (1987), Stat Med 6:53–59.

    Examples
    --------
    Appendix C: n = 500, Δ = 0.02, P_a = 0.9 gives power ≈ 0.25, Type-M ≈ 1.9.

    >>> r = mcnemar_power(500, 0.02, 0.9)
    >>> round(r.power, 2), round(r.type_m, 1)
    (0.25, 1.9)
    """
    n, delta, agreement, alpha, test = _validate_paired(n, delta, agreement, alpha, test)
    method = check_choice("method", method, METHODS)
    if method == "simulate":
        n_sims = check_int("n_sims", n_sims, low=100, high=2_000_000)
    p_disc, q = _cells(delta, agreement)
    return _paired_result(n, p_disc, q, delta, test, alpha, method, n_sims, seed)




def _agreement_for(delta, *, agreement, baseline, prior):
    if prior is None:
        return agreement
    return design_agreement(prior, delta=delta, baseline=baseline)


def _validate_mde_inputs(n, agreement, baseline, prior, target_power, alpha, test):
    n = check_int("n", n, low=1, high=_N_MAX)
    target_power = _validate_power_target(target_power)
    alpha = check_alpha(alpha)
    test = check_choice("test", test, TESTS)
    if prior is not None:
        prior = check_choice("prior", prior, MDE_PRIORS)
        if baseline is None:
            raise ValueError("`baseline` (current best accuracy, in [0, 1)) is required with a `prior`.")
        baseline = check_real("baseline", baseline, low=0.0, high=1.0, high_open=True)
    else:
        if agreement is None:
            raise ValueError("`agreement` (in [0, 1)) is required when `prior` is None.")
        agreement = check_real("agreement", agreement, low=0.0, high=1.0, high_open=True)
        if baseline is not None:
            baseline = check_real("baseline", baseline, low=0.0, high=1.0, high_open=True)
    return n, agreement, baseline, prior, target_power, alpha, test


def _max_delta(agreement, baseline, prior):
    """Largest improvement the setting allows."""
    limit = 1.0 - agreement if prior is None else 1.0
    if baseline is not None:
        limit = min(limit, 1.0 - baseline)
    return limit


def mcnemar_mde(
    n,
    *,
    agreement=None,
    baseline=None,
    prior=None,
    target_power=0.8,
    alpha=0.05,
    test="normal",
) -> float:
    """Minimum detectable effect (accuracy gain) of McNemar's test.

    Parameters
    ----------
    n : int
        Test-set size.
    agreement : float, optional
        P_a, required when ``prior`` is None.
    baseline : float, optional
        Current best accuracy (the regression's ``min_acc``); required with a
        ``prior``, and otherwise caps the gain at ``1 - baseline``.
    prior : {"glue", "squad", None}, optional
        Predict P_a from the overlap regression of appendix E.2.1 (Tables 5–6)
        at each candidate gain, instead of a fixed ``agreement``. The
        Lachenbruch (1992) points ``"lachenbruch_mid"``, ``"lachenbruch_low"``
        and ``"lachenbruch_high"`` (see :func:`design_agreement`) are accepted too.
    target_power : float, optional
        Power to reach, in (0, 1).
    alpha : float, optional
        Two-sided significance level.
    test : str, optional
        Any of :data:`TESTS`; the default closed form is instant.

    Returns
    -------
    float
        The smallest Δ > 0 (a fraction) with power >= ``target_power``;
        ``nan`` if no feasible gain reaches it.

    Raises
    ------
    ValueError
        On out-of-range arguments or a missing ``agreement``/``baseline``.

    Notes
    -----
    Solves ``power(Δ) = target_power`` by Brent's method; power is increasing
    in Δ for fixed n. With a prior, P_a itself depends on Δ (equation 2).

    References
    ----------
    Card et al. (2020), §3.3 and Table 2; appendix E.2.1, equations (1)–(3).

    Examples
    --------
    >>> round(mcnemar_mde(1725, baseline=0.92, prior="glue"), 4)  # Table 2 MRPC: 1.62%
    0.0162
    """
    n, agreement, baseline, prior, target_power, alpha, test = _validate_mde_inputs(
        n, agreement, baseline, prior, target_power, alpha, test
    )

    def gap(delta):
        agree = _agreement_for(delta, agreement=agreement, baseline=baseline, prior=prior)
        p_disc, q = _cells(min(delta, 1.0 - agree), agree)
        res = _paired_result(n, p_disc, q, delta, test, alpha, "exact", 0, None)
        return res.power - target_power

    hi = _max_delta(agreement, baseline, prior)
    lo = 1e-9
    if hi <= lo or gap(hi) < 0:
        return math.nan
    if gap(lo) >= 0:
        return lo
    return float(_bisect_increasing(gap, lo, hi, xtol=1e-9))


def mcnemar_sample_size(
    delta,
    agreement,
    *,
    target_power=0.8,
    alpha=0.05,
    test="exact",
    conservative=False,
    n_max=_N_MAX,
) -> int:
    """Smallest test-set size reaching ``target_power`` for McNemar's test.

    Parameters
    ----------
    delta : float
        Expected accuracy difference (non-zero), |delta| <= 1 - agreement.
    agreement : float
        P_a, in [0, 1).
    target_power, alpha, test
        As in :func:`mcnemar_power`.
    conservative : bool, optional
        False (default): the first n whose power reaches the target. True: the
        smallest n from which power stays at or above the target for every
        larger n.
    n_max : int, optional
        Search limit.

    Returns
    -------
    int
        The sample size; ``-1`` if even ``n_max`` is not enough.

    Notes
    -----
    Power of exact discrete tests is saw-toothed in n (Chernick & Liu 2002):
    just above the first n that reaches the target, a few sizes may fall below
    it again. :func:`core.sizing.sample_size_search` scans every size around
    the crossing, starting from the normal-approximation size
    ``n = (z_{1-α/2} sqrt(p_d) + z_{power} sqrt(p_d - Δ²))² / Δ²``.

    Examples
    --------
    >>> mcnemar_sample_size(0.02, 0.9, test="normal")
    1960
    >>> mcnemar_sample_size(0.05, 0.8), mcnemar_sample_size(0.05, 0.8, conservative=True)
    (658, 658)
    """
    return mcnemar_sample_sizes(delta, agreement, target_power=target_power, alpha=alpha, test=test,
                                n_max=n_max).pick(conservative)


def mcnemar_sample_sizes(delta, agreement, *, target_power=0.8, alpha=0.05, test="exact", n_max=_N_MAX) -> SampleSize:
    """Both sample-size answers of :func:`mcnemar_sample_size` (``.first``, ``.conservative``)."""
    _validate_paired(1, delta, agreement, alpha, test)
    target_power = _validate_power_target(target_power)
    n_max = check_int("n_max", n_max, low=2, high=_N_MAX)
    if delta == 0:
        raise ValueError("`delta` must be non-zero to size a study, got 0.")
    p_disc, q = _cells(delta, agreement)
    power_many = partial(_power_many, p_disc=p_disc, q=q, effect=delta, test=test, alpha=alpha)
    z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.ppf(target_power)
    guess = (z_a * math.sqrt(p_disc) + z_b * math.sqrt(max(p_disc - delta**2, 0))) ** 2 / delta**2
    return sample_size_search(power_many, target_power, guess=guess, n_max=n_max, low=1)




@dataclass(frozen=True)
class LachenbruchMDE:
    """No-prior MDE bounds of Lachenbruch (1992), appendix E.3.

    Attributes
    ----------
    low : float
        MDE under the most generous assumption (maximal agreement).
    mid : float
        MDE at the midpoint of the feasible joint probabilities.
    high : float
        MDE under the least agreement the marginal accuracies allow.
    """

    low: float
    mid: float
    high: float


def lachenbruch_mde(n, baseline, *, target_power=0.8, alpha=0.05) -> LachenbruchMDE:
    """MDE bounds for McNemar's test with no prior on agreement (Lachenbruch 1992).

    Parameters
    ----------
    n : int
        Test-set size.
    baseline : float
        Accuracy of the current best model, p1, in (0, 1).
    target_power, alpha : float
        Power and two-sided level.

    Returns
    -------
    LachenbruchMDE
        ``low``, ``mid`` and ``high`` MDE as fractions.

    Notes
    -----
    With marginals p1 and p2 = p1 + Δ, the joint probability p11 ranges over
    [max(0, p1 + p2 - 1), p1]; the required size is
    ``n = (z_{1-α/2} + z_{power})² p_d / Δ²`` with ``p_d = p1 + p2 - 2 p11``
    (Lachenbruch 1992; the ``sampleSizeMcNemar`` function the paper used).
    The bounds solve it for Δ at the largest, middle and smallest p11.

    References
    ----------
    Lachenbruch (1992), Stat Med 11:1521–1525; Card et al. (2020), appendix E.3, Table 9.

    Examples
    --------
    >>> r = lachenbruch_mde(147, 0.945)  # Table 9, WNLI: 5.42% (5.36%, 5.45%)
    >>> round(r.mid * 100, 2), round(r.high * 100, 2)
    (5.42, 5.45)
    """
    n = check_int("n", n, low=1, high=_N_MAX)
    baseline = check_real("baseline", baseline, low=0.0, high=1.0, low_open=True, high_open=True)
    target_power = _validate_power_target(target_power)
    alpha = check_alpha(alpha)
    zz = (stats.norm.isf(alpha / 2.0) + stats.norm.ppf(target_power)) ** 2
    p1 = baseline

    def disc_bounds(delta):
        p2 = p1 + delta
        p11_hi, p11_lo = p1, max(0.0, p1 + p2 - 1.0)
        return p1 + p2 - 2 * p11_hi, p1 + p2 - 2 * p11_lo

    def solve(share):  # share 0 → max agreement, 1 → min agreement
        def gap(delta):
            d_min, d_max = disc_bounds(delta)
            return n * delta**2 - zz * (d_min + share * (d_max - d_min))

        hi = 1.0 - p1
        if gap(hi) < 0:
            return math.nan
        return float(optimize.brentq(gap, 1e-12, hi, xtol=1e-12))

    return LachenbruchMDE(low=solve(0.0), mid=solve(0.5), high=solve(1.0))




def difference_distribution(n, delta, agreement, *, alpha=0.05, test="exact", bins=61) -> pd.DataFrame:
    """Exact sampling distribution of the observed accuracy difference (Figure 1).

    Returns
    -------
    pandas.DataFrame
        One row per bin of the observed difference ``(b - c)/n``:
        ``diff_low, diff_high, diff_mid, prob_significant, prob_not_significant``.
        ``bins`` is a target: bins are whole numbers of lattice steps (1/n)
        wide. Probabilities sum to 1 up to truncated tails (< 1e-9); above ~300
        distinct discordant counts the outer sum is a Riemann sum on a stride.
        For ``test="normal"`` the significance rule is the uncorrected
        asymptotic test the closed form approximates.
    """
    n, delta, agreement, alpha, test = _validate_paired(n, delta, agreement, alpha, test)
    bins = check_int("bins", bins, low=5, high=500)
    p_disc, q = _cells(delta, agreement)
    return _distribution(n, p_disc, q, test, alpha, bins)




AGREEMENT_SOURCES = ("manual", "glue", "squad", "lachenbruch_mid", "lachenbruch_low", "lachenbruch_high")


def design_agreement(source, *, delta, agreement=None, baseline=None) -> float:
    """Agreement rate P_a for a design, from the user or from a prior.

    Parameters
    ----------
    source : str
        ``"manual"`` (use ``agreement``), ``"glue"``/``"squad"`` (overlap
        regression, :func:`agreement_prior`), or a Lachenbruch (1992) point:
        ``"lachenbruch_mid"`` (p_d = midpoint of its feasible range),
        ``"lachenbruch_low"`` (least agreement the accuracies allow, the
        conservative bound) or ``"lachenbruch_high"`` (most agreement: the
        models differ only where needed, p_d = |Δ|).
    delta : float
        Expected accuracy difference.
    agreement : float, optional
        Required for ``"manual"``.
    baseline : float, optional
        Baseline accuracy; required for every prior. The priors take the weaker model's accuracy: the baseline,
        or baseline + ``delta`` when ``delta`` < 0.

    Returns
    -------
    float
        P_a in [0, 1].
    """
    source = check_choice("source", source, AGREEMENT_SOURCES)
    if source == "manual":
        if agreement is None:
            raise ValueError("`agreement` is required when the source is 'manual'.")
        return check_probability("agreement", agreement)
    if baseline is None:
        raise ValueError("`baseline` (current best accuracy) is required for an agreement prior.")
    baseline = check_probability("baseline", baseline)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    if not -1e-12 <= baseline + delta <= 1.0 + 1e-12:
        raise ValueError(f"`delta` must keep the new model's accuracy baseline + delta in [0, 1] (baseline "
                         f"{baseline:.4g}), got {delta:g}.")
    # the priors are written for the weaker model's accuracy (Card et al. 2020's min_acc): a new model below the
    # baseline (delta < 0) is the weaker one
    weaker = min(baseline, baseline + delta)
    if source in PRIORS:
        return agreement_prior(max(weaker, 0.0), delta, source)
    size = abs(delta)
    p1, p2 = max(weaker, 0.0), max(weaker, 0.0) + size
    d_min, d_max = size, min(p1 + p2, 2.0 - p1 - p2)
    share = {"lachenbruch_high": 0.0, "lachenbruch_mid": 0.5, "lachenbruch_low": 1.0}[source]
    return 1.0 - (d_min + share * (d_max - d_min))



@dataclass(frozen=True)
class PairedDesign:
    """A paired (McNemar) design with its agreement rate resolved.

    Attributes
    ----------
    delta : float
        Expected accuracy difference, new minus baseline.
    agreement : float
        P_a used for the design.
    source : str
        Where P_a comes from (one of :data:`AGREEMENT_SOURCES`).
    baseline : float or None
        Baseline accuracy (required by the priors).
    """

    delta: float
    agreement: float
    source: str
    baseline: float | None = None

    @property
    def mde_kwargs(self) -> dict:
        """Keyword arguments of :func:`mcnemar_mde` for this design (the prior is re-evaluated at each gain)."""
        if self.source == "manual":
            return {"agreement": self.agreement}
        return {"baseline": self.baseline, "prior": self.source}

    def family(self, multipliers=(0.5, 1.0, 2.0), *, fallback_delta=0.02, manual_offsets=(0.0, -0.05)):
        """(delta, agreement) pairs for a family of curves around this design.

        Gains are ``|delta|`` (or ``fallback_delta`` when it is 0) times each
        multiplier. With a manual P_a each gain is paired with P_a and with
        P_a shifted by each of ``manual_offsets``; with a prior, P_a is the
        prior's value at that gain. Infeasible pairs are left out.
        """
        base = abs(self.delta) if self.delta != 0 else fallback_delta
        deltas = sorted({round(base * m, 6) for m in multipliers})
        out = []
        for d in deltas:
            if self.source == "manual":
                for a in sorted({round(self.agreement + o, 6) for o in manual_offsets}, reverse=True):
                    if 0.0 <= a < 1.0 and d <= 1.0 - a + 1e-12:
                        out.append((d, a))
            elif self.baseline is not None and self.baseline + d <= 1.0:
                out.append((d, design_agreement(self.source, delta=d, baseline=self.baseline)))
        return out


def paired_design(source, *, delta, agreement=None, baseline=None) -> PairedDesign:
    """Resolve and check a paired design: P_a from the user or from a prior.

    Parameters
    ----------
    source : str
        One of :data:`AGREEMENT_SOURCES` (see :func:`design_agreement`).
    delta : float
        Expected accuracy difference, in [-1, 1].
    agreement : float, optional
        P_a for ``source="manual"``.
    baseline : float, optional
        Baseline accuracy, required by every prior.

    Returns
    -------
    PairedDesign

    Raises
    ------
    ValueError
        On a missing or out-of-range argument, or when |delta| exceeds
        1 - P_a (two models can only differ in accuracy where they disagree).

    Examples
    --------
    >>> d = paired_design("glue", delta=0.01, baseline=0.9)
    >>> round(d.agreement, 4)
    0.9332
    >>> paired_design("manual", delta=0.2, agreement=0.9)
    Traceback (most recent call last):
    ...
    ValueError: `delta` must satisfy |delta| ≤ 1 − P_a = 0.1: two models can only differ in accuracy on items where they disagree; got 0.2.
    """
    source = check_choice("source", source, AGREEMENT_SOURCES)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    if baseline is not None:
        baseline = check_probability("baseline", baseline)
    agree = design_agreement(source, delta=delta, agreement=agreement, baseline=baseline)
    if abs(delta) > 1.0 - agree + 1e-12:
        raise ValueError(
            f"`delta` must satisfy |delta| ≤ 1 − P_a = {1.0 - agree:.4g}: two models can only differ in accuracy on "
            f"items where they disagree; got {delta:g}."
        )
    return PairedDesign(delta=delta, agreement=agree, source=source, baseline=baseline)


#: Above this SD of the discordant count, assurance integrals use the tests' normal limit.
_ASSURANCE_EXACT_LIMIT = 100.0


def mcnemar_assurance(n, delta_mean, delta_sd, agreement, *, alpha=0.05, test="exact"):
    """Assurance of McNemar's test: power averaged over a normal prior on the accuracy gain.

    Parameters
    ----------
    n : int
        Test-set size.
    delta_mean, delta_sd : float
        Prior N(μ, τ²) on Δ, the new model's accuracy minus the baseline's.
    agreement : float
        P_a, held fixed; Δ is feasible only in [−(1 − P_a), 1 − P_a], so the
        prior is truncated to that range (the truncated mass is reported).
    alpha, test
        As in :func:`mcnemar_power`.

    Returns
    -------
    core.assurance.AssuranceResult
        ``.assurance``, ``.ceiling``, ``.power_at_mean``.

    Notes
    -----
    P(significant with B > D − B | Δ) comes from the exact engine at every
    quadrature node (p_d = 1 − P_a fixed, q = (p_d + Δ)/(2 p_d)), so the
    assurance carries no Monte Carlo error (:mod:`core.assurance`). When the
    number of discordant items is large (its SD √(n p_d (1 − p_d)) > 100, so
    the exact sum would visit thousands of counts at each of hundreds of
    nodes), the nodes use the test's normal limit instead: reject when
    |Δ̂| > z_{1−α/2} √(p_d / n), plus one discordant count (1/n) for the
    exact and the continuity-corrected tests, whose rejection region is
    Edwards' |B − C| − 1 > z √(B + C) (Edwards 1948). Without that count
    the limit ran up to 0.0023 above the exact sums at the switch; with it the
    two agree to 3·10⁻⁵ there (tested for every test).

    References
    ----------
    O'Hagan, Stevens & Campbell (2005); Card et al. (2020), appendix B;
    Edwards (1948), Psychometrika 13:185–187 (the continuity correction).

    Examples
    --------
    >>> r = mcnemar_assurance(2000, 0.02, 0.0, 0.9)  # τ = 0: the power (appendix C, ≈ 0.79)
    >>> round(r.assurance, 2), r.ceiling
    (0.79, 1.0)
    >>> r = mcnemar_assurance(2000, 0.02, 0.02, 0.9)
    >>> round(r.assurance, 2), round(r.ceiling, 2)
    (0.61, 0.84)
    """
    from ..assurance import assurance
    from .engine import _exact_moments, _normal_limit_tails

    n, mu, agreement, alpha, test = _validate_paired(n, 0.0, agreement, alpha, test)
    mu = check_real("delta_mean", delta_mean, low=-1.0, high=1.0)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=1.0)
    p_disc = 1.0 - agreement
    if p_disc <= 0:
        raise ValueError("`agreement` must be below 1: with full agreement the models cannot differ.")
    if abs(mu) > p_disc + 1e-12:
        raise ValueError(f"`delta_mean` must satisfy |delta_mean| ≤ 1 − P_a = {p_disc:.4g}, got {mu:g}.")

    normal_limit = test == "normal" or math.sqrt(n * p_disc * (1 - p_disc)) > _ASSURANCE_EXACT_LIMIT

    def directional(deltas):
        deltas = np.clip(np.asarray(deltas, dtype=float), -p_disc, p_disc)
        if normal_limit:
            return _normal_limit_tails(deltas, p_disc, n, test, alpha)
        q = np.clip((p_disc + deltas) / (2.0 * p_disc), 0.0, 1.0)
        moments = _exact_moments(np.full(deltas.size, n), np.full(deltas.size, p_disc), q, test, alpha)
        return moments.p_up, moments.p_low

    power = mcnemar_power(n, mu, agreement, alpha=alpha, test=test).power
    return assurance(directional, prior_mean=mu, prior_sd=tau, power_at_mean=power, scale=math.sqrt(p_disc / n),
                     low=-p_disc, high=p_disc)

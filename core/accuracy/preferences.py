"""Head-to-head preferences with ties (Card et al. 2020, Figure 1 and appendix H.4).

Raters choose A, B or neither; the sign test on the non-tied judgments (or on
all of them with ties split by a fair coin) is McNemar's test with
"discordant" = "not tied", so the paired engine serves it exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import pandas as pd
from scipy import stats

from ..results import PowerResult
from ..sizing import SampleSize, sample_size_search
from ..validation import check_alpha, check_choice, check_int, check_probability, check_real, renamed
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

#: How ties are handled: dropped (sign test on the rest) or split by a fair coin.
TIES = ("drop", "split")
_TIES = TIES


def _preference_cells(p_a, p_b, ties):
    if ties == "drop":
        p_disc = p_a + p_b
        q = p_a / p_disc if p_disc > 0 else 0.5
    else:  # each tie goes to A or B by a fair coin: every rater counts
        p_disc = 1.0
        q = p_a + (1.0 - p_a - p_b) / 2.0
    return p_disc, q


def preference_power(
    n,
    p_a,
    p_b,
    *,
    alpha=0.05,
    ties="drop",
    test="exact",
    method="exact",
    n_sims=10_000,
    seed=None,
) -> PowerResult:
    """Power of a head-to-head preference study (sign test on A vs B wins).

    Parameters
    ----------
    n : int
        Number of raters (one judgment each).
    p_a, p_b : float
        Probabilities that a rater prefers A / B; the rest (1 - p_a - p_b) say
        "neither". Must satisfy p_a + p_b <= 1 and p_a + p_b > 0.
    alpha : float, optional
        Two-sided level.
    ties : {"drop", "split"}, optional
        ``"drop"``: exact binomial (sign) test on the non-tied judgments;
        ``"split"``: each tie is counted for A or B by a fair coin, then the
        binomial test on all n.
    test, method, n_sims, seed
        As in :func:`mcnemar_power` (the sign test is McNemar's test with
        "discordant" = "not tied").

    Returns
    -------
    PowerResult
        With the effect measured as the difference in preference shares
        (n_A - n_B)/n, whose true value is p_a - p_b.

    References
    ----------
    Card et al. (2020), Figure 1 (65% prefer B: power > 80% at n = 100,
    ≈ 30% at n = 25) and appendix H.4.

    Examples
    --------
    >>> round(preference_power(25, 0.35, 0.65).power, 2)
    0.31
    """
    n = check_int("n", n, low=1, high=_N_MAX)
    p_a = check_probability("p_a", p_a)
    p_b = check_probability("p_b", p_b)
    if p_a + p_b > 1.0 + 1e-12:
        raise ValueError(f"`p_a` + `p_b` must be at most 1 (the rest are ties), got {p_a + p_b:g}.")
    if p_a + p_b <= 0.0:
        raise ValueError("`p_a` + `p_b` must be positive: with only ties nothing can be tested.")
    alpha = check_alpha(alpha)
    ties = check_choice("ties", ties, _TIES)
    test = check_choice("test", test, TESTS)
    method = check_choice("method", method, METHODS)
    if method == "simulate":
        n_sims = check_int("n_sims", n_sims, low=100, high=2_000_000)
    p_disc, q = _preference_cells(p_a, p_b, ties)
    return _paired_result(n, p_disc, q, p_a - p_b, test, alpha, method, n_sims, seed)


def preference_mde(n, *, tie_rate=0.0, target_power=0.8, alpha=0.05, ties="drop", test="exact") -> float:
    """Smallest preference gap p_a - p_b detectable with ``target_power``.

    The tie rate is held fixed; returns ``nan`` when unreachable.
    """
    n = check_int("n", n, low=1, high=_N_MAX)
    tie_rate = check_real("tie_rate", tie_rate, low=0.0, high=1.0, high_open=True)
    target_power = _validate_power_target(target_power)
    alpha = check_alpha(alpha)
    ties = check_choice("ties", ties, _TIES)
    test = check_choice("test", test, TESTS)
    share = 1.0 - tie_rate

    def gap(diff):
        p_a, p_b = (share + diff) / 2.0, (share - diff) / 2.0
        p_disc, q = _preference_cells(p_a, p_b, ties)
        return _paired_result(n, p_disc, q, diff, test, alpha, "exact", 0, None).power - target_power

    if gap(share) < 0:
        return math.nan
    return float(_bisect_increasing(gap, 1e-9, share, xtol=1e-9))


def preference_sample_size(
    p_a, p_b, *, target_power=0.8, alpha=0.05, ties="drop", test="exact", conservative=False, n_max=_N_MAX
) -> int:
    """Smallest number of raters reaching ``target_power`` (``-1`` if > ``n_max``).

    With ``conservative=True``, the smallest n from which power stays at or
    above the target for every larger n (exact tests zigzag; see
    :mod:`core.sizing`).

    Examples
    --------
    >>> preference_sample_size(0.65, 0.35)  # Figure 1: n = 100 is enough, 25 is not
    90
    >>> preference_sample_size(0.55, 0.45), preference_sample_size(0.55, 0.45, conservative=True)
    (786, 820)
    """
    return preference_sample_sizes(p_a, p_b, target_power=target_power, alpha=alpha, ties=ties, test=test,
                                   n_max=n_max).pick(conservative)


def preference_sample_sizes(
    p_a, p_b, *, target_power=0.8, alpha=0.05, ties="drop", test="exact", n_max=_N_MAX
) -> SampleSize:
    """Both sample-size answers of :func:`preference_sample_size` (``.first``, ``.conservative``)."""
    preference_power(1, p_a, p_b, alpha=alpha, ties=ties, test=test)  # validates
    target_power = _validate_power_target(target_power)
    n_max = check_int("n_max", n_max, low=2, high=_N_MAX)
    if p_a == p_b:
        raise ValueError("`p_a` and `p_b` must differ to size a study.")
    p_disc, q = _preference_cells(p_a, p_b, ties)
    effect = p_a - p_b
    power_many = partial(_power_many, p_disc=p_disc, q=q, effect=effect, test=test, alpha=alpha)
    z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.ppf(target_power)
    guess = (z_a * math.sqrt(p_disc) + z_b * math.sqrt(max(p_disc - effect**2, 0))) ** 2 / effect**2
    return sample_size_search(power_many, target_power, guess=guess, n_max=n_max, low=1)




def preference_distribution(n, p_a, p_b, *, alpha=0.05, ties="drop", test="exact", bins=61) -> pd.DataFrame:
    """Sampling distribution of the observed preference gap (n_A - n_B)/n (Figure 1)."""
    preference_power(n, p_a, p_b, alpha=alpha, ties=ties, test=test)  # validates
    bins = check_int("bins", bins, low=5, high=500)
    p_disc, q = _preference_cells(p_a, p_b, ties)
    return _distribution(int(n), p_disc, q, test, alpha, bins)


#: SD of the non-tied count above which the assurance uses the tests' normal limit (as mcnemar_assurance).
_ASSURANCE_EXACT_LIMIT = 100.0


def preference_assurance(n, delta_mean=None, delta_sd=None, *, tie_rate=0.0, alpha=0.05, ties="drop", test="exact",
                         gap_mean=None, gap_sd=None):
    """Assurance of a preference study: power averaged over a normal prior N(delta_mean, delta_sd²) on the gap
    Δ = p_a − p_b (``gap_mean`` and ``gap_sd`` are the deprecated names of ``delta_mean`` and ``delta_sd``).

    The tie rate is held fixed and the prior is truncated to the feasible gaps,
    |gap| <= 1 − tie_rate. Each node's directional power comes from the exact
    engine (no Monte Carlo error), or from the test's normal limit when the
    counts are large (as in :func:`core.accuracy.mcnemar_assurance`, with its one discordant count for the exact
    and continuity-corrected tests; Edwards 1948).

    Returns
    -------
    core.assurance.AssuranceResult

    Examples
    --------
    >>> round(preference_assurance(100, 0.3, 0.0).assurance, 3) == round(preference_power(100, 0.65, 0.35).power, 3)
    True
    """
    import numpy as np

    from ..assurance import assurance
    from .engine import _exact_moments, _normal_limit_tails

    n = check_int("n", n, low=1, high=_N_MAX)
    tie_rate = check_real("tie_rate", tie_rate, low=0.0, high=1.0, high_open=True)
    alpha = check_alpha(alpha)
    ties = check_choice("ties", ties, _TIES)
    test = check_choice("test", test, TESTS)
    share = 1.0 - tie_rate
    mu = check_real("delta_mean", renamed(delta_mean, gap_mean, new="delta_mean", old="gap_mean"),
                    low=-share, high=share)
    tau = check_real("delta_sd", renamed(delta_sd, gap_sd, new="delta_sd", old="gap_sd"), low=0.0, high=1.0)

    def cells(gaps):
        p_a = (share + gaps) / 2.0
        if ties == "drop":
            return np.full(gaps.size, share), np.where(share > 0, p_a / share, 0.5)
        return np.ones(gaps.size), p_a + tie_rate / 2.0

    # the exact sum visits ~14 SD of the non-tied count D ~ Bin(n, 1 − tie_rate) per node (one value when nothing
    # is dropped); beyond an SD of 100 the normal limit is used, as in mcnemar_assurance
    normal_limit = test == "normal" or (ties == "drop" and math.sqrt(n * share * (1 - share)) > _ASSURANCE_EXACT_LIMIT)

    def directional(gaps):
        gaps = np.clip(np.asarray(gaps, dtype=float), -share, share)
        p_disc, q = cells(gaps)
        if normal_limit:
            return _normal_limit_tails(gaps, p_disc, n, test, alpha)
        moments = _exact_moments(np.full(gaps.size, n), p_disc, np.clip(q, 0.0, 1.0), test, alpha)
        return moments.p_up, moments.p_low

    power = preference_power(n, (share + mu) / 2, (share - mu) / 2, alpha=alpha, ties=ties, test=test).power
    return assurance(directional, prior_mean=mu, prior_sd=tau, power_at_mean=power, scale=math.sqrt(1.0 / n),
                     low=-share, high=share)


@dataclass(frozen=True)
class PreferenceDesign:
    """A head-to-head preference study (one judgment per rater): everything but the number of raters n.

    Attributes
    ----------
    p_new, p_old : float
        Probabilities that a rater prefers the new / the old system; the rest say "neither" (ties).
    ties : {"drop", "split"}
        How ties enter the test (see :func:`preference_power`).
    test : str
        The sign test's form (see :func:`preference_power`).
    alpha : float
        Two-sided level.

    Examples
    --------
    >>> d = PreferenceDesign(0.65, 0.35)
    >>> d.power(100) == preference_power(100, 0.65, 0.35)
    True
    """

    p_new: float
    p_old: float
    ties: str = "drop"
    test: str = "exact"
    alpha: float = 0.05

    def __post_init__(self):
        set_ = partial(object.__setattr__, self)
        set_("p_new", check_probability("p_new", self.p_new))
        set_("p_old", check_probability("p_old", self.p_old))
        if self.p_new + self.p_old > 1.0 + 1e-12 or self.p_new + self.p_old <= 0.0:
            raise ValueError(f"`p_new` + `p_old` must be in (0, 1]; got {self.p_new:g} + {self.p_old:g}.")
        set_("ties", check_choice("ties", self.ties, _TIES))
        set_("alpha", check_alpha(self.alpha))

    @property
    def tie_rate(self) -> float:
        """Share of raters preferring neither system."""
        return max(0.0, 1.0 - self.p_new - self.p_old)

    @property
    def delta(self) -> float:
        """The preference margin p_new − p_old."""
        return self.p_new - self.p_old

    def power(self, n) -> PowerResult:
        """:func:`preference_power` with ``n`` raters."""
        return preference_power(n, self.p_new, self.p_old, alpha=self.alpha, ties=self.ties, test=self.test)

    def mde(self, n, *, target_power=0.8) -> float:
        """:func:`preference_mde` with ``n`` raters at this design's tie rate."""
        return preference_mde(n, tie_rate=self.tie_rate, target_power=target_power, alpha=self.alpha,
                              ties=self.ties, test=self.test)

    def sample_sizes(self, *, target_power=0.8) -> SampleSize:
        """:func:`preference_sample_sizes` for this design."""
        return preference_sample_sizes(self.p_new, self.p_old, target_power=target_power, alpha=self.alpha,
                                       ties=self.ties, test=self.test)

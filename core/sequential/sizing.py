"""Judgments a DA campaign needs for a target power (Wei, Kocmi & Federmann 2022, §6.1 and §7).

The planned budget of each procedure — fixed, interim, interim-futility — whose power reaches the target, from
the campaign engine's analytic power (recursive integration), searched over every budget with
:func:`core.sizing.sample_size_search` (first and conservative sizes, as every other size in the package).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..sizing import SampleSize, sample_size_search
from ..validation import check_choice, check_real
from .campaign import _MAX_BUDGET, TESTS, _batched, _fill_effects, _validate_design, _validate_model

__all__ = ["campaign_sample_size"]


def campaign_sample_size(procedure, delta, *, target_power=0.8, peeks=3, boundary="pocock", futility_p=0.5,
                         mean=75.0, sd=27.0, alpha=0.05, test="mwu") -> SampleSize:
    """Smallest planned budget (judgments for the pair) whose power reaches ``target_power``.

    Parameters
    ----------
    procedure : {"fixed", "interim", "interim_futility", "naive"}
        The testing procedure (``design`` of :func:`campaign_power`).
    delta : float
        True difference in mean DA points (non-zero).
    target_power : float
        In (0, 1).
    peeks, boundary, futility_p, mean, sd, alpha, test :
        As in :func:`campaign_power`.

    Returns
    -------
    core.sizing.SampleSize
        ``first``: the smallest budget with power >= ``target_power``; ``conservative``: the smallest budget from
        which power stays at or above it (searched up to 1,000,000 judgments; ``-1`` when not reachable).
        Power is a step function of the budget — the budget is split into ``budget // 2`` judgments per system
        and into looks rounded to whole judgments — so it can dip a little after first reaching the target
        (the package's saw-tooth convention: :mod:`core.sizing`). Both sizes are even (an odd budget has the
        power of the even one below it). The expected judgments actually spent at that budget are
        ``campaign_power(procedure, size.first, delta, …).expected_judgments``.

    Notes
    -----
    Power is the analytic engine's (:func:`campaign_power`, ``method="analytic"``), evaluated for whole blocks
    of budgets at once (:func:`_batched`). The search starts from the fixed design's normal approximation:
    with the per-judgment effect e (Mann–Whitney: P(A > B) − ½; t: the standardized difference), the drift at
    n judgments per system is e·√(6n) (Mann–Whitney) or e·√(n/2) (t), which must reach z_{1−α/2} + z_{power}.

    References
    ----------
    Wei, Kocmi & Federmann (2022), §6.1 (budgets for a target power) and §7; Chernick & Liu (2002)
    (saw-toothed power).

    Examples
    --------
    >>> from core.sequential import campaign_power
    >>> size = campaign_sample_size("fixed", 3.0)
    >>> size
    SampleSize(first=968, conservative=968)
    >>> campaign_power("fixed", 968, 3.0).power >= 0.8 > campaign_power("fixed", 967, 3.0).power
    True
    """
    # any budget that fits up to 10 looks: only the procedure's options are checked here
    procedure, _, peeks, kind, futility_p, alpha = _validate_design(procedure, 40, peeks, boundary, futility_p,
                                                                    alpha)
    mean, sd, delta = _validate_model(mean, sd, delta)
    if delta == 0:
        raise ValueError("`delta` must be non-zero to size a campaign (at 0 the rejection rate stays at most α).")
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    test = check_choice("test", test, TESTS)
    looks = 1 if procedure == "fixed" else peeks
    low = max(20, 4 * looks)

    def power_many(budgets):
        # power depends on the budget only through budget // 2 judgments per system: evaluate each half once
        halves, back = np.unique(np.asarray(budgets, dtype=np.int64) // 2, return_inverse=True)
        even = 2 * halves
        out = np.empty(even.size)
        for start in range(0, even.size, 512):  # blocks keep the recursion's memory small
            part = even[start:start + 512]
            out[start:start + part.size] = _batched(procedure, part, [delta], peeks=looks, kind=kind,
                                                    futility_p=futility_p, mean=mean, sd=sd, alpha=alpha,
                                                    test=test)[0][:, 0]
        return out[back]

    effect = np.empty(1)
    _fill_effects(effect, np.array([delta]), mean, sd, test)
    z = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
    e = abs(float(effect[0])) or 1e-9
    per_system = (z / e) ** 2 / 6.0 if test == "mwu" else 2.0 * (z / e) ** 2
    guess = min(max(2.0 * per_system, low), _MAX_BUDGET) if math.isfinite(per_system) else _MAX_BUDGET
    return sample_size_search(power_many, target_power, guess=guess, n_max=_MAX_BUDGET, low=low)

"""Sample sizes when power zigzags: the first n and the conservative n.

Exact tests on discrete data (McNemar, the sign test, binomial tests) have
power that is not monotone in n: adding one item can move the critical count
and lower the power a little (Chernick & Liu 2002, "The saw-toothed behavior
of power versus sample size and software solutions", *The American
Statistician* 56:149–155). Two answers are then useful and every
``*_sample_size`` function of this package offers both:

* the **first** n — the smallest n whose power reaches the target;
* the **conservative** n — the smallest n from which power stays at or above
  the target for every larger n.

Both are answers within a size limit ``n_max``: the first n is the smallest
n <= ``n_max`` that reaches the target, and the conservative n the smallest n
from which power stays at or above it for every n up to ``n_max`` (``-1``
when power at ``n_max`` itself falls short). So a limit inside the zigzag band
still gets the first n below it, and every size between the conservative n and
the limit is safe. For a monotone (analytic) power function the two coincide.

The search evaluates the power at every integer in blocks (the engines are
vectorized over n, so a block costs about one call). The zigzag band — the
range of n where power oscillates around a given level — is O(√n) wide,
because the drops have size O(1/√n) while power grows by O(1/n) per item;
blocks of ``max(64, 4⌈√n⌉)`` sizes therefore span it, and a search stops only
after two consecutive blocks that lie entirely on the far side of the target.
The tests compare both answers with a brute-force scan over every n.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["SampleSize", "sample_size_search", "search_block"]


@dataclass(frozen=True)
class SampleSize:
    """The two sample-size answers for one design.

    Attributes
    ----------
    first : int
        Smallest n <= ``n_max`` with power >= target; ``-1`` when no n up to
        the limit reaches it.
    conservative : int
        Smallest n such that every n' in [n, ``n_max``] has power >= target
        (checked up to two clean search blocks past the last dip, or up to
        ``n_max`` when that comes first); ``-1`` when power at ``n_max`` is
        below the target.
    """

    first: int
    conservative: int

    @property
    def differ(self) -> bool:
        """True when power dips below the target again after the first n."""
        return self.first != self.conservative

    def pick(self, conservative: bool) -> int:
        """``conservative`` if asked for, else ``first``."""
        return self.conservative if conservative else self.first


#: Sizes just below ``n_max`` looked at when even ``n_max`` falls short (their spread measures the local zigzag).
_NEAR = 64
#: Below the band when short of the target by more than ``_DROP/√n``: an exact test's power at n lies at most
#: 0.77/√n below its maximum over the two blocks under n (a brute-force scan of the preference and McNemar designs of
#: the tests, every n from 10 to 6,000: the O(1/√n) drops of the module notes), so 2/√n leaves a wide margin (below
#: 65 items the window holds every size anyway).
_DROP = 2.0


def smallest_reaching(reaches, lo: int, hi: int) -> int:
    """The smallest ``n`` in ``(lo, hi]`` with ``reaches(n)``, by bisection: for a ``reaches`` that is monotone in
    ``n``, false at ``lo`` and true at ``hi`` (the callers check both ends)."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if reaches(mid):
            hi = mid
        else:
            lo = mid
    return hi


def search_block(n: int) -> int:
    """Block length used around size ``n``: ``max(64, 4⌈√n⌉)``."""
    return max(64, 4 * math.isqrt(max(int(n), 0)) + 4)


def sample_size_search(
    power_many: Callable[[np.ndarray], np.ndarray],
    target_power: float,
    *,
    guess: float,
    n_max: int,
    low: int = 1,
    block: Callable[[int], int] = search_block,
) -> SampleSize:
    """First and conservative sample sizes for a (possibly saw-toothed) power function.

    Parameters
    ----------
    power_many : callable
        ``power_many(ns)`` returns the power at every integer of the array
        ``ns`` (one vectorized evaluation).
    target_power : float
        Target in (0, 1).
    guess : float
        A starting point, typically the normal-approximation size.
    n_max : int
        Largest size considered.
    low : int, optional
        Smallest size considered.
    block : callable, optional
        ``block(n)``: the block length scanned around size ``n`` (default :func:`search_block`, wide enough for
        the O(√n) zigzag band of exact tests on discrete data). An engine whose power zigzags over a narrower band
        (or not at all) passes a shorter one: the scans then cost fewer evaluations. It must span the band.

    Returns
    -------
    SampleSize

    Notes
    -----
    1. Bracket: from ``guess`` grow by factors 1.1, 1.25, 1.5, 2, 4, … until
       a size ``hi`` with power >= target is found, or shrink by them until a
       size below the target is found; then bisect the bracket down to one
       block, so that the scans cost O(√n) evaluations however far the guess
       was. When even ``n_max`` falls short, ``n_max`` may lie inside the
       zigzag band, above a size that reaches the target: ``hi`` is then the
       largest such size among the 64 just below ``n_max``, or, if none
       reaches, step 2 starts from ``n_max`` — unless power there is short of
       the target by more than both the spread of those 64 powers and
       ``2/√n_max`` (n_max lies under the band: ``(-1, -1)``).
    2. First n: scan every integer below ``hi`` (or ``n_max``) in blocks,
       downwards, and stop after two consecutive blocks with no size reaching
       the target; ``(-1, -1)`` if none did.
    3. Conservative n: scan every integer above the first n in blocks,
       upwards, remembering the last size below the target, and stop after two
       consecutive blocks entirely at or above it, or at ``n_max`` (then every
       size up to the limit has been seen; ``-1`` if ``n_max`` itself is
       below the target).

    Examples
    --------
    >>> def saw(ns):  # dips to 0 at every multiple of 7 below 90
    ...     return np.where((ns % 7 == 0) & (ns < 90), 0.0, np.minimum(ns / 100, 1.0))
    >>> sample_size_search(saw, 0.8, guess=50, n_max=10_000)
    SampleSize(first=80, conservative=85)
    >>> sample_size_search(saw, 0.8, guess=50, n_max=84)  # 84 dips: no size up to the limit is safe onwards
    SampleSize(first=80, conservative=-1)
    >>> sample_size_search(saw, 0.8, guess=50, n_max=83)
    SampleSize(first=80, conservative=80)
    """
    n_max, low = int(n_max), int(low)
    if n_max < low:
        return SampleSize(-1, -1)

    def powers(ns: np.ndarray) -> np.ndarray:
        return np.asarray(power_many(np.asarray(ns, dtype=np.int64)), dtype=float)

    def reaches(n: int) -> bool:
        return bool(powers(np.array([n]))[0] >= target_power)

    # 1. bracket: a size `hi` reaching the target and, below it, a size `below` that does not (None: none found)
    hi = int(min(max(round(guess), low), n_max))
    factors = iter((1.1, 1.25, 1.5, 2.0))
    below = None
    if reaches(hi):
        probe = hi
        while probe > low:
            probe = int(max(min(math.floor(probe / next(factors, 4.0)), probe - 1), low))
            if not reaches(probe):
                below = probe
                break
            hi = probe
    else:
        while hi < n_max:
            below = hi
            hi = int(min(max(math.ceil(hi * next(factors, 4.0)), hi + 1), n_max))
            if reaches(hi):
                break
        else:
            # even n_max falls short; but power zigzags, so a smaller size may still reach the target (preferences
            # 55:45, exact test: 0.801 at n = 786, 0.784 at 790): look at the sizes just below n_max, then scan two
            # blocks below them unless n_max lies clearly under the band (a hopeless design then costs one short
            # window, not two blocks of an expensive power function)
            hi, below = None, None
            ns = np.arange(max(low, n_max - _NEAR), n_max + 1)
            near = powers(ns)
            reached = near >= target_power
            if reached.any():
                hi = int(ns[reached][-1])
            elif target_power - near.max() > max(np.ptp(near), _DROP / math.sqrt(n_max)):
                return SampleSize(-1, -1)
    # ... narrowed by bisection to within one block, so the scans below cover O(√n) sizes, not the bracket
    while below is not None and hi - below > block(hi):
        mid = (below + hi) // 2
        if reaches(mid):
            hi = mid
        else:
            below = mid

    # 2. first n: downwards from hi, or from n_max (already known to fall short) when no hi was found
    first, top, clean = (hi, hi, 0) if hi is not None else (-1, n_max, 0)
    while top > low and clean < 2:
        start = max(low, top - block(top))
        ns = np.arange(start, top)
        reached = powers(ns) >= target_power
        if reached.any():
            first = int(ns[int(np.argmax(reached))])
            clean = 0
        else:
            clean += 1
        top = start
    if first < 0:
        return SampleSize(-1, -1)

    # 3. conservative n: upwards from first, until two clean blocks or n_max (then every size up to it was seen)
    last_below, start, clean = first - 1, first, 0
    while clean < 2 and start <= n_max:
        stop = min(start + block(start), n_max + 1)
        ns = np.arange(start, stop)
        dips = powers(ns) < target_power
        if dips.any():
            last_below = int(ns[dips][-1])
            clean = 0
        else:
            clean += 1
        start = stop
    return SampleSize(first, last_below + 1 if last_below < n_max else -1)

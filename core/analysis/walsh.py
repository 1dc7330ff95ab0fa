"""Order statistics of the Walsh averages in O(n log n), and the Hodges–Lehmann estimate with its interval."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from scipy import stats

from ..validation import check_int, check_real, rng_of
from ._common import _differences, _EPS

# ---------------------------------------------------------------------------
# order statistics of the Walsh averages in O(n log n)
# ---------------------------------------------------------------------------
_WALSH_GATHER = 1 << 21  # candidate cells gathered and sorted once this few remain
_WALSH_SAMPLE = 100_000  # candidates sampled to place the pivots


def _first_true(predicate, lo, hi):
    """Vectorized binary search: per row k, the first j in [lo_k, hi_k) with predicate(k, j) (hi_k if none)."""
    lo, hi = lo.copy(), hi.copy()
    rows = np.nonzero(lo < hi)[0]
    while rows.size:
        mid = (lo[rows] + hi[rows]) // 2
        ok = predicate(rows, mid)
        hi[rows] = np.where(ok, mid, hi[rows])
        lo[rows] = np.where(ok, lo[rows], mid + 1)
        rows = rows[lo[rows] < hi[rows]]
    return lo


def _walsh_split(x, p, lo, hi):
    """Per row i of the sorted x: the first column j in [lo_i, hi_i] with fl(x_i + x_j) >= p and with > p.

    Exact in floating point: ``searchsorted`` on ``p - x_i`` brackets the
    boundary to within the rounding error of the two operations, and a binary
    search on the computed sums themselves settles it. Rows with an empty
    range return ``lo_i``.
    """
    ge, gt = lo.copy(), lo.copy()
    rows = np.nonzero(hi > lo)[0]
    if rows.size == 0:
        return ge, gt
    xi = x[rows]
    lo_r, hi_r = lo[rows], hi[rows]
    threshold = p - xi
    # |fl(p - x_i) - (p - x_i)| and |fl(x_i + x_j) - (x_i + x_j)| are below this margin
    margin = 4 * _EPS * (abs(p) + 2 * np.abs(xi)) + 1e-300
    # thresholds decrease along the rows: search them in increasing order (cache-friendly)
    lo_b = np.clip(np.searchsorted(x, (threshold - margin)[::-1], side="left")[::-1], lo_r, hi_r)
    hi_b = lo_b.copy()
    # columns j < lo_b have sums < p and j >= hi_b sums > p; the bracket between is usually empty
    near = np.nonzero((lo_b < hi_r) & (x[np.minimum(lo_b, x.size - 1)] <= threshold + margin))[0]
    if near.size:
        ends = np.searchsorted(x, (threshold[near] + margin[near])[::-1], side="right")[::-1]
        hi_b[near] = np.clip(ends, lo_b[near], hi_r[near])
    first_ge, first_gt = lo_b.copy(), lo_b.copy()
    # a bracket of equal values (ties): one sum decides for all of it
    same = near[x[lo_b[near]] == x[hi_b[near] - 1]]
    total = xi[same] + x[lo_b[same]]
    first_ge[same] = np.where(total >= p, lo_b[same], hi_b[same])
    first_gt[same] = np.where(total > p, lo_b[same], hi_b[same])
    mixed = near[x[lo_b[near]] != x[hi_b[near] - 1]]
    if mixed.size:
        xm = xi[mixed]
        first_ge[mixed] = _first_true(lambda k, j: xm[k] + x[j] >= p, lo_b[mixed], hi_b[mixed])
        first_gt[mixed] = _first_true(lambda k, j: xm[k] + x[j] > p, first_ge[mixed], hi_b[mixed])
    ge[rows], gt[rows] = first_ge, first_gt
    return ge, gt


def _walsh_sums(x, ranks, rng):
    """Order statistics (0-based ``ranks``) of the sums x_i + x_j, i <= j, of the sorted array ``x``.

    A randomized selection on the implicit sorted matrix of sums (Monahan
    1984; Johnson & Mizoguchi 1978), over the distinct values u_1 < … < u_m
    with multiplicities c: cell (a, b), b >= a, stands for c_a c_b sums
    (c_a (c_a + 1)/2 on the diagonal), so tied data cost O(m), not O(n).
    Every row keeps a range of candidate columns; two pivots drawn from a
    sample of the candidates bracket the wanted ranks (Floyd & Rivest 1975)
    and each pivot is located in every row by :func:`_walsh_split`. Once few
    candidate cells remain they are gathered, sorted and the ranks read off
    the cumulative weights. Expected O(m log m) time, O(m) memory; the result
    is exact whatever the pivots, so the seed only affects the running time.
    """
    u, c = np.unique(x, return_counts=True)
    m = u.size
    c = c.astype(np.int64)
    cum = np.concatenate(([0], np.cumsum(c)))  # cum[j] = Σ_{b < j} c_b
    rows = np.arange(m)
    diagonal = c * (c - 1) // 2  # c_a² counted for the diagonal cell minus its c_a (c_a + 1)/2 sums

    tied = bool(diagonal.any())

    def weight(lo, hi):
        """Sums in columns [lo, hi) of every row (b >= a)."""
        w = c * (cum[hi] - cum[lo])
        return w - np.where((lo <= rows) & (rows < hi), diagonal, 0) if tied else w

    def total(lo, hi):
        """Σ weight(lo, hi), without the per-row array."""
        out_ = int(np.dot(c, cum[hi])) - int(np.dot(c, cum[lo]))
        return out_ - int(diagonal[(lo <= rows) & (rows < hi)].sum()) if tied else out_

    out = {}
    ranks = sorted({int(k) for k in ranks})

    def gather(lo, hi, below):
        count = hi - lo
        live = np.nonzero(count)[0]
        k = count[live]
        a = np.repeat(live, k)
        b = lo[a] + (np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k))
        sums = u[a] + u[b]
        w = np.where(a == b, c[a] * (c[a] + 1) // 2, c[a] * c[b])
        order = np.argsort(sums, kind="stable")
        position = np.cumsum(w[order]) + below  # rank just past each cell's sums
        for r in ranks:
            if r not in out:
                idx = int(np.searchsorted(position, r, side="right"))
                if idx < order.size:
                    out[r] = float(sums[order[idx]])

    def narrow(lo, hi, k_low, k_high, size, below):
        """One round: two pivots from a sample of the candidates bracket ranks k_low … k_high."""
        rw = weight(lo, hi)
        samples = min(_WALSH_SAMPLE, int((hi - lo).sum()))
        draws = np.sort(rng.random(samples)) * size
        pick = np.minimum(np.searchsorted(np.cumsum(rw), draws, side="right"), m - 1)
        # a column of the picked row, drawn by the multiplicities (the diagonal's weight is approximate here:
        # the sample only places the pivots)
        t = cum[lo[pick]] + rng.random(samples) * (cum[hi[pick]] - cum[lo[pick]])
        col = np.clip(np.searchsorted(cum, t, side="right") - 1, lo[pick], np.maximum(hi[pick] - 1, lo[pick]))
        sample = np.sort(u[pick] + u[col])
        q_low, q_high = (k_low - below) / size, (k_high - below) / size
        spread_low = 2.5 * math.sqrt(samples * q_low * (1 - q_low)) + 2
        spread_high = 2.5 * math.sqrt(samples * q_high * (1 - q_high)) + 2
        pivots = [sample[min(max(int(q_low * samples - spread_low), 0), samples - 1)],
                  sample[min(int(math.ceil(q_high * samples + spread_high)), samples - 1)]]
        for p in pivots:
            ge, gt = _walsh_split(u, p, lo, hi)
            less, upto = total(rows, ge), total(rows, gt)
            for r in ranks:
                if less <= r < upto:
                    out[r] = float(p)
            if upto <= k_low:
                lo = gt
            if less > k_high:
                hi = ge
        return lo, hi

    def state(lo, hi):
        return total(lo, hi), total(rows, lo), int((hi - lo).sum())

    lo0, hi0 = rows.copy(), np.full(m, m)
    size, below, cells = state(lo0, hi0)
    if len(ranks) > 1 and cells > _WALSH_GATHER:  # a shared first round brackets all the ranks
        lo0, hi0 = narrow(lo0, hi0, ranks[0], ranks[-1], size, below)
    for k in ranks:
        lo, hi = lo0, hi0
        while k not in out:
            size, below, cells = state(lo, hi)
            if cells <= _WALSH_GATHER:
                gather(lo, hi, below)
                break
            lo, hi = narrow(lo, hi, k, k, size, below)
    return out


def walsh_order_statistics(d, ranks, *, seed=0) -> np.ndarray:
    """Order statistics of the Walsh averages (d_i + d_j)/2, i <= j, without forming them.

    Parameters
    ----------
    d : array_like
        Paired differences (finite; at most :data:`MAX_ABS_SCORE` in absolute value).
    ranks : sequence of int
        0-based ranks among the n(n+1)/2 Walsh averages sorted ascending.
    seed : int, optional
        Seed of the pivot sampling (affects only the running time).

    Returns
    -------
    ndarray
        The averages at ``ranks``, bit-for-bit equal to sorting
        ``(d[i] + d[j]) / 2.0`` over ``np.triu_indices(n)``.

    Notes
    -----
    O(n log n) expected time and O(n) memory (Monahan 1984's selection of
    the Hodges–Lehmann estimator, with Floyd–Rivest pivots). Order is
    preserved by halving, so the sums x_i + x_j are selected and halved.

    References
    ----------
    Monahan, J. F. (1984), Algorithm 616: fast computation of the
    Hodges–Lehmann location estimator, ACM TOMS 10(3):265–270; Johnson, D. B.
    & Mizoguchi, T. (1978), SIAM J. Comput. 7(2):147–153.

    Examples
    --------
    >>> walsh_order_statistics([2, 1, 3, 3, 3], [0, 7, 14]).tolist()
    [1.0, 2.5, 3.0]
    """
    d = _differences(d, name="d", min_size=1)
    n = d.size
    total = n * (n + 1) // 2
    ranks = [int(r) for r in np.atleast_1d(ranks)]
    for r in ranks:
        check_int("ranks", r, low=0, high=total - 1)
    sums = _walsh_sums(np.sort(d), ranks, rng_of(seed))
    return np.array([sums[r] for r in ranks]) / 2.0


def _walsh_median(values) -> float:
    """np.median of two (or one) middle values: their mean, computed as numpy does."""
    return float(np.mean(np.asarray(values, dtype=float)))


#: Largest n whose interval uses the exact signed-rank distribution (beyond it: the normal form, which is then
#: within a rank of it).
_EXACT_RANKS_MAX = 400


@lru_cache(maxsize=32)
def _signed_rank_cdf(n: int) -> np.ndarray:
    """P(T⁺ ≤ t), t = 0 … n(n+1)/2, of the Wilcoxon signed-rank statistic under H0 (no ties), by the recursion
    over ranks: each rank i is in T⁺ with probability ½."""
    p = np.zeros(n * (n + 1) // 2 + 1)
    p[0] = 1.0
    top = 0
    for i in range(1, n + 1):
        top += i
        p[i:top + 1] = 0.5 * (p[i:top + 1] + p[:top + 1 - i][: top + 1 - i])
        p[:i] *= 0.5
    return np.cumsum(p)


def _interval_rank(n: int, confidence: float) -> int | None:
    """The 0-based rank k of the lower end W_(k) (upper: W_(N−1−k)) of the distribution-free interval.

    In 1-based terms [W_(k+1), W_(N−k)] covers the centre with probability 1 − 2 P(T⁺ ≤ k) (Hollander & Wolfe 1999, §3.3, C_α = k + 1):
    k is the largest with P(T⁺ ≤ k) ≤ α/2, exactly for n ≤ 400, else from the normal form with its continuity
    correction. ``None`` when even the whole range falls short of the level (n ≤ 5 at 95%).
    """
    alpha = 1.0 - confidence
    if n <= _EXACT_RANKS_MAX:
        k = int(np.searchsorted(_signed_rank_cdf(n), alpha / 2 * (1 + 1e-12), side="right")) - 1
    else:
        total = n * (n + 1) / 2
        k = int(math.floor(total / 2 - 0.5 - stats.norm.isf(alpha / 2) * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
    return k if k >= 0 else None


def hodges_lehmann(d, *, confidence=None):
    """Hodges–Lehmann estimator (median of the Walsh averages, NLPStatTest eq. 5) and its interval.

    Parameters
    ----------
    d : array_like
        Paired differences.
    confidence : float, optional
        Also return the distribution-free interval: the Walsh averages of 1-based ranks C_α and N + 1 − C_α
        (N = n(n+1)/2), C_α − 1 the largest k with P(T⁺ ≤ k) ≤ α/2 under the exact signed-rank distribution
        (Hollander & Wolfe 1999, §3.3; the normal form beyond 400 pairs), so its coverage is at least the level.
        With so few pairs that even the whole range falls short (n ≤ 5 at 95%) the interval is (nan, nan).

    Returns
    -------
    float or (float, (float, float))

    Examples
    --------
    >>> hodges_lehmann([2, 1, 3, 3, 3])
    2.5
    """
    d = _differences(d, name="d", min_size=1)
    n = d.size
    total = n * (n + 1) // 2
    middle = [(total - 1) // 2, total // 2]
    ranks = list(middle)
    if confidence is not None:
        confidence = check_real("confidence", confidence, low=0.5, high=0.999)
        k = _interval_rank(n, confidence)
        if k is not None:
            ranks += [k, total - 1 - k]
    values = walsh_order_statistics(d, ranks)
    hl = _walsh_median(values[:1] if middle[0] == middle[1] else values[:2])
    if confidence is None:
        return hl
    if len(values) < 4:
        return hl, (math.nan, math.nan)
    return hl, (float(values[2]), float(values[3]))

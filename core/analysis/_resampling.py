"""Resampling engines (sign flips, bootstrap), chunked with bounded memory. Package-internal."""

from __future__ import annotations

import math

import numpy as np

from scipy import stats

from . import _common
from ._common import _CHUNK, WILCOXON_EXACT_MAX

# ---------------------------------------------------------------------------
# resampling engines (chunked, bounded memory)
# ---------------------------------------------------------------------------
def _p_values(null, observed, exact):
    """scipy ``permutation_test`` p-values: (less, greater, two-sided), tolerance 100 eps |observed|."""
    tol = abs(observed) * np.finfo(float).eps * 100
    adjust = 0 if exact else 1
    size = null.size
    greater = (int(np.count_nonzero(null >= observed - tol)) + adjust) / (size + adjust)
    less = (int(np.count_nonzero(null <= observed + tol)) + adjust) / (size + adjust)
    return less, greater, min(1.0, 2 * min(less, greater))


def _pick(p_three, alternative):
    less, greater, two = p_three
    return {"two-sided": two, "greater": greater, "less": less}[alternative]


def _all_signs(n):
    """All 2^n sign vectors (rows), the identity first."""
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
    return 1.0 - 2.0 * bits


def _signflip_sums(d, size, rng):
    """Σ ε_i d_i for ``size`` vectors of fair random signs, and Σ d_i computed the same way.

    Signs are drawn 8 (or 4, for long inputs) at a time as one random byte per
    group, which indexes a table of the group's 256 (16) signed partial sums:
    one lookup per group instead of 8 multiply-adds, in chunks of ~32 MB.
    """
    n = d.size
    bits = 8 if n <= 131_072 else 4
    width = 1 << bits
    groups = -(-n // bits)
    padded = np.zeros(groups * bits)
    padded[:n] = d
    signs = 2.0 * ((np.arange(width)[:, None] >> np.arange(bits)[None, :]) & 1) - 1.0  # bit set = +1
    table = (padded.reshape(groups, bits) @ signs.T).ravel()
    offsets = (np.arange(groups) * width).astype(np.int32 if groups * width < 2**31 else np.int64)
    observed = float(np.take(table, (offsets + (width - 1))[None, :]).sum(axis=1)[0])
    out = np.empty(size)
    rows = max(1, _CHUNK // groups)
    for start in range(0, size, rows):
        stop = min(size, start + rows)
        draws = rng.integers(0, width, size=(stop - start, groups), dtype=np.uint8)
        out[start:stop] = np.take(table, offsets + draws).sum(axis=1)
    return out, observed


def _signflip_medians(d, size, rng):
    """Medians of ε_i d_i for ``size`` vectors of fair random signs, exactly, in O(√n) per vector.

    With b the sorted non-zero |d| (n' of them) and z zeros, a flipped sample
    sorted ascending is: the N− negatives (largest |d| first), the zeros, the
    positives. Its middle value is the q-th smallest magnitude among the
    negatives or the positives, q ≈ |N− − n/2| = O(√n). So only the signs of
    the M ≈ 6√n' + 64 smallest magnitudes are drawn one by one; N− adds a
    Binomial(n' − M, ½) count for the rest. In the rare event that the q-th
    value lies beyond the M smallest, the rest of that vector's signs are
    drawn (a uniform subset of the drawn size): the distribution is exact.
    """
    n = d.size
    mags = np.sort(np.abs(d))
    zeros = int(np.count_nonzero(mags == 0))
    b = mags[zeros:]
    nz = b.size
    ranks = sorted({(n - 1) // 2, n // 2})
    out = np.empty(size)
    if nz == 0:
        out[:] = 0.0
        return out
    m_pre = min(nz, int(_common._MEDIAN_PREFIX[0] * math.sqrt(nz)) + _common._MEDIAN_PREFIX[1])
    rows = max(1, _CHUNK // (4 * m_pre))
    for start in range(0, size, rows):
        stop = min(size, start + rows)
        c = stop - start
        negative = rng.integers(0, 2, size=(c, m_pre), dtype=np.int8).astype(bool)
        rest = rng.binomial(nz - m_pre, 0.5, size=c) if nz > m_pre else np.zeros(c, dtype=np.int64)
        cum_neg = np.cumsum(negative, axis=1, dtype=np.int32)
        cum_pos = np.arange(1, m_pre + 1, dtype=np.int32)[None, :] - cum_neg
        n_neg = cum_neg[:, -1] + rest
        values = []
        ok = np.ones(c, dtype=bool)
        for r in ranks:
            val = np.zeros(c)
            in_neg = r < n_neg
            in_pos = r >= n_neg + zeros
            q = np.where(in_neg, n_neg - 1 - r, np.where(in_pos, r - n_neg - zeros, 0))
            pos_neg = (cum_neg < (q + 1)[:, None]).sum(axis=1)  # index of the q-th negative in the prefix
            pos_pos = (cum_pos < (q + 1)[:, None]).sum(axis=1)
            ok &= ~(in_neg & (pos_neg >= m_pre)) & ~(in_pos & (pos_pos >= m_pre))
            val[in_neg] = -b[np.minimum(pos_neg[in_neg], m_pre - 1)]
            val[in_pos] = b[np.minimum(pos_pos[in_pos], m_pre - 1)]
            values.append(val)
        med = values[0] if len(values) == 1 else (values[0] + values[1]) / 2
        for i in np.nonzero(~ok)[0]:  # complete the vector: rest[i] negatives among the other magnitudes
            sign = np.ones(nz)
            sign[:m_pre][negative[i]] = -1.0
            if nz > m_pre:
                sign[m_pre + rng.choice(nz - m_pre, size=int(rest[i]), replace=False)] = -1.0
            med[i] = np.median(np.concatenate([np.zeros(zeros), sign * b]))
        out[start:stop] = med
    return out


def _bootstrap_means(d, size, rng):
    """Means of ``size`` bootstrap resamples of d, in chunks of ~32 MB of indices."""
    n = d.size
    out = np.empty(size)
    rows = max(1, _CHUNK // n)
    dtype = np.int32 if n < 2**31 else np.int64
    for start in range(0, size, rows):
        stop = min(size, start + rows)
        out[start:stop] = d[rng.integers(0, n, size=(stop - start, n), dtype=dtype)].mean(axis=1)
    return out


def _bootstrap_medians(d, size, rng):
    """Medians of ``size`` bootstrap resamples of d, exactly, in O(1) per resample.

    A resample's sorted indices are ⌊n U_(1)⌋ ≤ … ≤ ⌊n U_(n)⌋ for uniform order
    statistics U_(k) ~ Beta(k, n − k + 1); the next one is
    U_(k+1) = U_(k) + (1 − U_(k)) Beta(1, n − k). The median of the resample is
    therefore x_(⌊n U_(k)⌋) (and the mean of two such values for even n),
    with x the sorted data (Maritz & Jarrett 1978 for the exact bootstrap
    distribution of the median).
    """
    x = np.sort(d)
    n = x.size
    k = (n - 1) // 2 + 1  # 1-based rank of the (lower) middle value
    u1 = rng.beta(k, n - k + 1, size=size)
    j1 = np.minimum((u1 * n).astype(np.int64), n - 1)
    if n % 2:
        return x[j1]
    u2 = u1 + (1.0 - u1) * rng.beta(1, n - k, size=size)
    j2 = np.minimum((u2 * n).astype(np.int64), n - 1)
    return (x[j1] + x[j2]) / 2


def _permutation_test(d, statistic, alternative, n_resamples, rng):
    """Paired permutation (sign-flip) test of H0: the differences are symmetric about 0.

    Returns (estimate, p, method, resamples, p_se).
    """
    n = d.size
    centre = np.mean if statistic == "mean" else np.median
    observed = float(centre(d))
    if 2**n <= n_resamples:  # every sign vector: exact (scipy's permutation_test does the same)
        flips = _all_signs(n) * d[None, :]
        null = centre(flips, axis=1)
        return observed, _pick(_p_values(null, observed, True), alternative), "exact enumeration", 2**n, 0.0
    if statistic == "median":
        null = _signflip_medians(d, n_resamples, rng)
        p = _pick(_p_values(null, observed, False), alternative)
    elif n * n_resamples <= _common.PERMUTATION_WORK:
        null, total = _signflip_sums(d, n_resamples, rng)
        p = _pick(_p_values(null, total, False), alternative)
    else:  # normal limit of the sign-flip distribution: mean 0, variance Σd² exactly
        scale = math.sqrt(float(np.dot(d, d)))
        if scale == 0:
            return observed, 1.0, "normal limit", 0, math.nan
        z = float(d.sum()) / scale
        p = _pick((float(stats.norm.cdf(z)), float(stats.norm.sf(z)), min(1.0, 2 * float(stats.norm.sf(abs(z))))),
                  alternative)
        return observed, p, "normal limit", 0, math.nan
    return observed, p, "Monte Carlo", n_resamples, _p_se(p, alternative, n_resamples)


def _p_se(p, alternative, resamples):
    """Monte Carlo SE of a resampled p-value: √(p(1 − p)/R) for one tail; a two-sided p = 2 min(tails) is twice
    a tail's proportion q = p/2, so its SE is 2 √(q(1 − q)/R) (capped at 1, the value has no spread left)."""
    if alternative != "two-sided":
        return math.sqrt(p * (1 - p) / resamples)
    q = min(p, 1.0) / 2
    return 2 * math.sqrt(q * (1 - q) / resamples)


def constant_p(value, alternative):
    """p of a location test on constant differences (no spread): 0 when the constant lies on the alternative's
    side of 0, else 1 (a constant on the other side is no evidence for the alternative)."""
    if alternative == "greater":
        return 0.0 if value > 0 else 1.0
    if alternative == "less":
        return 0.0 if value < 0 else 1.0
    return 0.0 if value != 0 else 1.0


def _bootstrap_test(d, statistic, alternative, n_resamples, rng, confidence):
    """Paired bootstrap test of H0: centre(d) = 0 and the percentile interval, from one set of resamples.

    The null distribution is that of the centre of resamples of the
    null-shifted differences d − centre(d), i.e. the bootstrap replicates
    minus the observed centre (both centres are shift-equivariant).

    The interval has the test's sides, as scipy's ``ttest_rel`` gives for the t
    test: two-sided, or (lower bound, ∞) for "greater" and (−∞, upper bound)
    for "less", each bound at the ``confidence`` percentile.

    Returns (estimate, p, ci_low, ci_high, method, resamples, p_se).
    """
    n = d.size
    observed = float(np.mean(d) if statistic == "mean" else np.median(d))
    if statistic == "mean" and n * n_resamples > _common.BOOTSTRAP_WORK:
        # normal limit of the bootstrap distribution of the mean: N(d̄, σ̂²/n), σ̂ with divisor n
        se = float(d.std()) / math.sqrt(n)
        if se == 0:
            low, high = _sided(lambda q: np.full(np.shape(q), observed), alternative, confidence)
            return observed, constant_p(observed, alternative), low, high, "normal limit", 0, math.nan
        z = observed / se
        p = {"two-sided": 2 * float(stats.norm.sf(abs(z))), "greater": float(stats.norm.sf(z)),
             "less": float(stats.norm.cdf(z))}[alternative]
        low, high = _sided(stats.norm(observed, se).ppf, alternative, confidence)
        return observed, min(p, 1.0), low, high, "normal limit", 0, math.nan
    boot = _bootstrap_means(d, n_resamples, rng) if statistic == "mean" else _bootstrap_medians(d, n_resamples, rng)
    null = boot - observed
    tol = 1e-12 * max(abs(observed), float(np.max(np.abs(d))))
    if alternative == "two-sided":
        extreme = np.abs(null) >= abs(observed) - tol
    elif alternative == "greater":
        extreme = null >= observed - tol
    else:
        extreme = null <= observed + tol
    p = (1 + int(np.count_nonzero(extreme))) / (n_resamples + 1)
    low, high = _sided(lambda q: np.percentile(boot, 100 * np.asarray(q)), alternative, confidence)
    return observed, p, low, high, "Monte Carlo", n_resamples, math.sqrt(p * (1 - p) / n_resamples)


def _sided(quantile, alternative, confidence):
    """The interval's ends from a quantile function: both tails share 1 − confidence, or one tail holds it all."""
    if alternative == "greater":
        return float(quantile(1 - confidence)), math.inf
    if alternative == "less":
        return -math.inf, float(quantile(confidence))
    low, high = quantile([(1 - confidence) / 2, (1 + confidence) / 2])
    return float(low), float(high)


# ---------------------------------------------------------------------------
# exact null distributions of the rank and sign statistics, row by row
# ---------------------------------------------------------------------------
def _signed_rank_rows(rows):
    """Wilcoxon signed-rank statistics of every row of a 2-D array (zeros dropped, average ranks).

    Returns ``(r_plus, count, tie_term, untied)``: the sum of the ranks of
    |d| over positive d, the number of non-zero values, Σ(t³ − t) over tie
    groups of the non-zero |d|, and whether a row has neither ties nor zeros.

    Notes
    -----
    One sort per row of a uint64 key — the bits of |d| (order-preserving for
    non-negative doubles) shifted left, the sign in the lowest bit — gives
    ranks and signs together. Within a tie group of size g holding p positive
    values, the positives sort first; their raw positions then sum to
    p(g − p)/2 less than their average ranks, which is added back for the
    (rare) rows with ties.
    """
    rows = np.asarray(rows, dtype=float)
    k, n = rows.shape
    keys = np.abs(rows).view(np.uint64) << np.uint64(1)
    keys |= (rows < 0).view(np.uint8)
    keys.sort(axis=1)
    nonzero = keys != 0  # +0.0 and -0.0 both give the key 0, and sort first
    count = nonzero.sum(axis=1)
    positive = nonzero & ((keys & np.uint64(1)) == 0)
    zeros = n - count
    # 1-based rank among the non-zero values, before averaging over ties
    r_plus = (positive * np.arange(1, n + 1)).sum(axis=1) - positive.sum(axis=1) * zeros
    r_plus = r_plus.astype(float)
    tie_term = np.zeros(k)
    same = ((keys[:, 1:] ^ keys[:, :-1]) < 2) & nonzero[:, 1:]  # equal |d|, neither zero
    tied_rows = np.nonzero(same.any(axis=1))[0]
    for r in tied_rows:  # few rows for continuous scores; per row O(n)
        mag = keys[r] >> np.uint64(1)
        live = nonzero[r]
        starts = np.flatnonzero(np.concatenate(([True], mag[1:] != mag[:-1])))
        sizes = np.diff(np.append(starts, n))
        pos_counts = np.add.reduceat(positive[r].astype(np.int64), starts)
        keep = live[starts] & (sizes > 1)
        g, pc = sizes[keep].astype(float), pos_counts[keep].astype(float)
        r_plus[r] += (pc * (g - pc) / 2).sum()
        tie_term[r] = (g**3 - g).sum()
    untied = (count == n) & (tie_term == 0)
    return r_plus, count, tie_term, untied


def _signed_rank_pvalues(rows):
    """Two-sided Wilcoxon p-values of each row, as ``scipy.stats.wilcoxon(row)`` (method "auto")."""
    rows = np.asarray(rows, dtype=float)
    n = rows.shape[1]
    r_plus, count, tie_term, untied = _signed_rank_rows(rows)
    mean = count * (count + 1) / 4
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt((count * (count + 1) * (2 * count + 1) - tie_term / 2) / 24)
        z = (r_plus - mean) / se
    p = np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))
    if n <= WILCOXON_EXACT_MAX and untied.any():  # exact null distribution of W+ (no ties, no zeros)
        pmf = _signed_rank_pmf(n)
        cdf, sf = np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]
        w = np.rint(r_plus[untied]).astype(int)
        p[untied] = np.clip(2 * np.minimum(sf[w], cdf[w]), 0, 1)
    tied = np.nonzero(~untied & (count > 0))[0]
    if n <= 13 and tied.size:  # exact: all 2^n sign flips of the ranks (scipy's PermutationMethod)
        patterns = ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1).astype(float)  # 1: positive
        for block in np.array_split(tied, -(-tied.size // 500)):
            sub = rows[block]
            ranks = np.zeros(sub.shape)
            for i, row in enumerate(sub):
                nonzero = row != 0
                ranks[i, nonzero] = stats.rankdata(np.abs(row[nonzero]))
            observed = np.where(sub > 0, ranks, 0.0).sum(axis=1)
            null = patterns @ ranks.T  # W+ of every sign pattern (zeros have rank 0)
            tol = np.abs(observed) * np.finfo(float).eps * 100
            less = (null <= observed + tol).mean(axis=0)
            greater = (null >= observed - tol).mean(axis=0)
            p[block] = np.minimum(1.0, 2 * np.minimum(less, greater))
    p[count == 0] = 1.0
    return p


def _signed_rank_pmf(n):
    """Null distribution of W+ for n untied non-zero values: counts of subsets of {1..n} by sum / 2^n."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for j in range(1, n + 1):
        counts[j:] = counts[j:] + counts[:-j].copy()
    return counts / 2.0**n


def _sign_pvalues(pos, neg):
    """Two-sided exact sign-test p-values (scipy ``binomtest(pos, pos + neg)``), vectorized."""
    total = pos + neg
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(pos, neg), np.maximum(total, 1), 0.5))
    return np.where((total == 0) | (pos == neg), 1.0, p)

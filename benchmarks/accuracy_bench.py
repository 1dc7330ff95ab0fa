"""Accuracy page benchmarks."""

from __future__ import annotations

import numpy as np
from statsmodels.stats.contingency_tables import mcnemar

from core import accuracy as acc

# page defaults: n = 500, Δ = 2 pp, P_a = 90%, exact test, α = 0.05, 80% target
N, DELTA, AGREEMENT, ALPHA, TARGET = 500, 0.02, 0.9, 0.05, 0.8


def _curve_sizes(n):
    lo, hi = max(10, n // 30), min(2_000_000, max(n * 30, 200))
    return sorted(set(np.unique(np.geomspace(lo, hi, 36).astype(int)).tolist() + [n]))


def page_recompute():
    """Everything the accuracy page computes on a slider move at its defaults."""
    acc.mcnemar_power(N, DELTA, AGREEMENT, alpha=ALPHA)
    acc.mcnemar_mde(N, agreement=AGREEMENT, target_power=TARGET, alpha=ALPHA, test="exact")
    acc.mcnemar_sample_size(DELTA, AGREEMENT, target_power=TARGET, alpha=ALPHA)
    designs = [(d, a) for d in (0.01, 0.02, 0.04) for a in (AGREEMENT, AGREEMENT - 0.05)]
    acc.paired_curves(_curve_sizes(N), designs, alpha=ALPHA)
    acc.difference_distribution(N, DELTA, AGREEMENT, alpha=ALPHA)


def seed_paper_loop(n_sims=10_000, seed=0):
    """Card et al.'s method: simulate tables and call statsmodels `mcnemar` on each, in a Python loop."""
    rng = np.random.default_rng(seed)
    p10, p01 = (1 - AGREEMENT + DELTA) / 2, (1 - AGREEMENT - DELTA) / 2
    counts = rng.multinomial(N, [p10, p01, AGREEMENT], size=n_sims)
    hits = 0
    for b, c, _ in counts:
        if mcnemar([[0, b], [c, 0]], exact=True).pvalue <= ALPHA and b > c:
            hits += 1
    return hits / n_sims


def exact_point():
    return acc.mcnemar_power(N, DELTA, AGREEMENT, alpha=ALPHA)


def check_page(timed) -> bool:
    seconds = timed(page_recompute, repeat=7)
    ok = seconds <= 0.100
    print(f"accuracy page, full recomputation at defaults: {1000 * seconds:7.1f} ms   (target ≤ 100 ms) "
          f"{'OK' if ok else 'MISSED'}")
    big = timed(lambda: acc.mcnemar_power(400_000, 0.002, 0.9), repeat=5)
    print(f"exact engine, one point at n = 400,000:        {1000 * big:7.1f} ms")
    return ok


def check_ratio(timed) -> bool:
    loop = timed(seed_paper_loop, repeat=3)
    exact = timed(exact_point, repeat=21, number=5)
    ratio = loop / exact
    ok = ratio >= 100
    print(f"seed paper's loop (10,000 statsmodels mcnemar calls): {1000 * loop:8.1f} ms")
    print(f"exact engine, same point:                             {1000 * exact:8.2f} ms")
    print(f"ratio exact vs loop: {ratio:,.0f}×   (target ≥ 100×) {'OK' if ok else 'MISSED'}")
    print(f"  (loop power {seed_paper_loop():.3f} vs exact {exact_point().power:.3f})")
    return ok


CHECKS = [check_page, check_ratio]

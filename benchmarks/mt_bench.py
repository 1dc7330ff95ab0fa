"""Machine-translation page benchmarks."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from core import mt

NS = [250, 500, 1000, 2000, 3000, 5000, 10000, 20000]  # Figure 4: 8 sample sizes
DELTAS = [0.25, 0.5, 1.0, 1.5, 2.0, 3.0]  # × 6 values of Δ_B
SAMPLE = Path(mt.__file__).resolve().parents[1] / "data" / "mt_sample" / "sample.tsv"


def figure4_grid():
    return mt.power_grid(NS, DELTAS, [0.13], [25.8])


def randomization_point():
    return mt.bleu_power(2000, 1.0, 0.13, 25.8, method="randomization", n_sims=2000, n_trials=1000, seed=1)


def loop_replicates(n_reps, n=2000, n_trials=1000, seed=1):
    """The same test one replicate at a time (a Python loop over replicates)."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(n_reps):
        effects = mt.simulate_effects(n, 1.0, 0.13, 25.8, size=1, seed=rng)[0]
        observed = -0.5 * effects.sum()
        swaps = rng.random((n_trials, n)) < 0.5
        swapped = observed + swaps @ effects
        p = (1 + np.sum(np.abs(swapped) >= abs(observed))) / (n_trials + 1)
        hits += p <= 0.05 and observed > 0
    return hits


def check_grid(timed) -> bool:
    seconds = timed(figure4_grid, repeat=7)
    ok = seconds <= 0.200
    print(f"MT Figure-4 grid (8 n × 6 Δ_B), fast engine:      {1000 * seconds:7.1f} ms   (target ≤ 200 ms) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


def check_randomization(timed) -> bool:
    vectorized = timed(randomization_point, repeat=3)
    reps = 100  # time a slice of the loop and scale to 2,000 replicates
    start = time.perf_counter()
    loop_replicates(reps)
    loop = (time.perf_counter() - start) * 2000 / reps
    ratio = loop / vectorized
    ok = ratio >= 20
    print(f"MT randomization engine, 2,000 reps × 1,000 trials, n = 2,000: {vectorized:6.2f} s")
    print(f"   per-replicate Python loop, same test (scaled from {reps}):      {loop:6.2f} s")
    print(f"   ratio: {ratio:,.0f}×   (target ≥ 20×) {'OK' if ok else 'MISSED'}")
    return ok


def check_fit(timed) -> bool:
    a, b, r = mt.read_tsv(SAMPLE.read_bytes())
    reps = 3000 // len(r)
    a, b, r = a * reps, b * reps, r * reps
    seconds = timed(lambda: mt.fit_swap_effects(a, b, r), repeat=3)
    ok = seconds <= 5.0
    print(f"MT swap-effect fit, {len(r):,} segments:               {seconds:7.2f} s    (target ≤ 5 s) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


CHECKS = [check_grid, check_randomization, check_fit]

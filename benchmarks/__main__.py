"""`make bench`: speed figures and ratios, measured side by side in one run.

Targets (each module states its issue's targets; issue #2, accuracy page):
* full recomputation of the accuracy page at its defaults (every number and
  curve it shows) ≤ 100 ms on the 2-core reference machine;
* the exact McNemar engine ≥ 100× faster than the seed paper's method (a
  Python loop calling statsmodels ``mcnemar`` on 10,000 simulated tables) for
  the same power point.
"""

from __future__ import annotations

import statistics
import sys
import time

from benchmarks import accuracy_bench, mt_bench, ratings_bench, sequential_bench


def timed(fn, *, repeat=5, number=1) -> float:
    """Median wall time of ``fn`` in seconds (after one warm-up call)."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def main() -> int:
    print("NLP Power Explorer benchmarks (median wall time; lower is better)\n")
    ok = True
    for check in accuracy_bench.CHECKS + mt_bench.CHECKS + sequential_bench.CHECKS + ratings_bench.CHECKS:
        ok &= check(timed)
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""`make bench`: speed figures and ratios, measured side by side in one run.

Each module states its issue's targets: the engines (accuracy, MT, DA, ratings, LLM benchmarks,
leaderboards) first, then a lab sharing one server (25 sessions moving sliders at once, websocket
clients speaking Streamlit's protocol: no browser), then the browser benchmark (slider move → chart,
first visit) and the server's memory, which start the app like ``make run`` and drive headless
Chromium. Run on a quiet machine: the browser figures share the two cores with the server.
``python -m benchmarks --no-browser`` skips the browser part (the sessions benchmark still runs).
"""

from __future__ import annotations

import os

# Measure the engines as the app runs them (scripts/serve.py): one BLAS thread, set before numpy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import sys
import time

from benchmarks import (
    accuracy_bench,
    browser_bench,
    claims_bench,
    humaneval_bench,
    judge_bench,
    memory_bench,
    llm_bench,
    mt_bench,
    pairwise_bench,
    ratings_bench,
    sequential_bench,
    sessions_bench,
    uploads_bench,
)


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
    checks = (accuracy_bench.CHECKS + mt_bench.CHECKS + sequential_bench.CHECKS + ratings_bench.CHECKS
              + llm_bench.CHECKS + pairwise_bench.CHECKS + claims_bench.CHECKS + judge_bench.CHECKS
              + uploads_bench.CHECKS + humaneval_bench.CHECKS
              + sessions_bench.CHECKS)  # no browser needed: websocket clients of the app's server
    if "--no-browser" not in sys.argv:
        checks = checks + browser_bench.CHECKS + memory_bench.CHECKS
    for check in checks:
        ok &= check(timed)
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

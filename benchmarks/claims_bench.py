"""Claims that hold: non-inferiority/equivalence, small-test-set intervals, many claims at once.

Targets: every analytic (closed-form) call ≤ 50 ms; exact enumeration ≤ 200 ms at n ≤ 10,000.
"""

from __future__ import annotations

from core import accuracy as acc
from core import llm
from core import multiplicity as mt


def _report(label, seconds, target):
    ok = seconds <= target
    print(f"{label:<62} {1000 * seconds:8.2f} ms   (target ≤ {1000 * target:.0f} ms) {'OK' if ok else 'MISSED'}")
    return ok


def check_analytic(timed) -> bool:
    ok = True
    cases = {
        "NI sample size, score closed form (Nam 1997)": lambda: acc.noninferiority_sample_size(0.0, 0.9, 0.01),
        "NI power, normal closed form": lambda: acc.noninferiority_power(7893, 0.0, 0.9, 0.01, method="normal"),
        "TOST sample size, Wald closed form": lambda: acc.equivalence_sample_size(0.0, 0.9, 0.02, test="wald"),
        "LLM non-inferiority power": lambda: llm.benchmark_noninferiority_power(
            2000, 0.7, 0.7, 0.02, difficulty_sd=0.25, correlation=0.6),
        "LLM non-inferiority sample size": lambda: llm.benchmark_noninferiority_sample_size(
            0.7, 0.7, 0.02, difficulty_sd=0.25, correlation=0.6),
        "interval sample size (Wilson, ±2 points at 90%)": lambda: acc.interval_sample_size(0.9, 0.02),
        "family power, Bonferroni, 20 comparisons": lambda: mt.family_power([0.8] * 20, correction="bonferroni"),
        "family power, Holm exact chain, 20 equal comparisons": lambda: mt.family_power([0.8] * 20),
        "family sample size, Holm, m = 5": lambda: mt.family_sample_size(5, correction="holm"),
    }
    for label, fn in cases.items():
        ok &= _report(label, timed(fn, repeat=7), 0.050)
    return ok


def _exact_test_cold():
    from core.accuracy import noninferiority

    noninferiority._exact_critical.cache_clear()  # time the search for the critical value, not the cache
    return acc.noninferiority_power(2000, 0.0, 0.8, 0.05, test="exact")


def check_exact(timed) -> bool:
    ok = True
    cases = {
        "NI power, score test, exact enumeration, n = 10,000": lambda: acc.noninferiority_power(
            10_000, 0.0, 0.9, 0.01),
        "TOST power, Wald, exact enumeration, n = 10,000": lambda: acc.equivalence_power(
            10_000, 0.0, 0.9, 0.02, test="wald"),
        "interval coverage, Wilson, n = 10,000": lambda: acc.interval_coverage(10_000, 0.97),
        "coverage curves, 5 methods × 199 points, n = 500": lambda: acc.coverage_curves(500),
        "NI power, exact unconditional test, n = 2,000 (critical value computed)": _exact_test_cold,
    }
    for label, fn in cases.items():
        ok &= _report(label, timed(fn, repeat=5), 0.200)
    return ok


CHECKS = [check_analytic, check_exact]

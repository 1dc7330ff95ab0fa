"""LLM benchmark page benchmarks (core.llm).

Targets (issue): every analytic curve on the page <= 50 ms; one simulated
point, 2,000 replicates at 1,000 questions x K = 5, <= 1 s.
"""

from __future__ import annotations

import numpy as np

from core import llm

NS = np.unique(np.geomspace(50, 20_000, 120).astype(int))
DESIGN = {"difficulty_sd": 0.25, "correlation": 0.6, "cluster_size": 5, "icc": 0.2}
CURVES = {
    "power vs questions, K = 1, 2, 5, 10": lambda: llm.power_curve(NS, 0.70, 0.73, **DESIGN),
    "variance budget, K = 1..50": lambda: llm.variance_budget(0.70, 0.73, max_samples=50, **DESIGN),
    "cost vs K at target power (plan)": lambda: llm.benchmark_plan(0.70, 0.73, cost_question=1.0, cost_sample=0.05,
                                                                   max_samples=50, **DESIGN),
    "power with / without judge": lambda: llm.judge_curve(NS, 0.70, 0.73, judge_sensitivity=0.9,
                                                          judge_specificity=0.8, samples=5, **DESIGN),
    "questions for the target": lambda: llm.benchmark_sample_sizes(0.70, 0.73, samples=5, **DESIGN),
    "MDE": lambda: llm.benchmark_mde(1000, 0.70, samples=5, **DESIGN),
}


def simulated_point():
    return llm.benchmark_power(1000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6, samples=5,
                               method="simulate", n_sims=2000, seed=1)


def check_curves(timed) -> bool:
    ok = True
    for name, fn in CURVES.items():
        seconds = timed(fn, repeat=7)
        good = seconds <= 0.050
        ok &= good
        print(f"LLM {name:<40} {1000 * seconds:7.1f} ms   (target <= 50 ms) {'OK' if good else 'MISSED'}")
    return ok


def check_simulation(timed) -> bool:
    seconds = timed(simulated_point, repeat=3)
    good = seconds <= 1.0
    print(f"LLM simulated point, 2,000 reps x 1,000 questions x K = 5: {seconds:6.2f} s   (target <= 1 s) "
          f"{'OK' if good else 'MISSED'}")
    return good


CHECKS = [check_curves, check_simulation]

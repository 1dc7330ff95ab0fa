"""LLM judges and human labels page benchmarks (core.judge).

Target (issue): every curve on the page <= 100 ms.
"""

from __future__ import annotations

import numpy as np

from core import judge

SD, RHO, _ = judge.judge_correlation(0.70, 0.90, 0.85)
PLAN = dict(sd=SD, correlation=RHO, cost_human=1.0, cost_judge=0.01, budget=1000, prevalence=0.70, sensitivity=0.90,
            specificity=0.85)
NS = np.unique(np.geomspace(40, 18_000, 50).astype(int))
RHOS = np.round(np.linspace(0.0, 0.98, 50), 3)
AGREEMENT_NS = np.unique(np.geomspace(20, 5000, 60).astype(int))
CURVES = {
    "plan (budget mode)": lambda: judge.ppi_plan(**PLAN),
    "plan (effect mode)": lambda: judge.ppi_plan(sd=0.5, correlation=0.8, cost_human=1.0, cost_judge=0.01,
                                                 delta=0.03),
    "SE vs human labels, 4 judge-only counts": lambda: judge.ppi_curve(NS, sd=SD, correlation=RHO,
                                                                      n_judge_only=(0, 1000, 10000, 10918),
                                                                      cost_human=1.0, cost_judge=0.01),
    "cheapest split vs correlation (50 plans)": lambda: judge.split_curve(RHOS, sd=SD, cost_human=1.0,
                                                                          cost_judge=0.01, budget=1000),
    "three strategies at equal cost": lambda: judge.strategy_table(judge.ppi_plan(**PLAN)),
    "agreement precision, 3 statistics": lambda: judge.agreement_curve(AGREEMENT_NS, prevalence=0.3, kappa=0.6),
    "agreement sample size": lambda: judge.agreement_sample_size(prevalence=0.3, kappa=0.6, halfwidth=0.1),
    "prevalence paradox (kappa vs AC1)": lambda: judge.prevalence_paradox_curve(agreement=0.9),
    "calibration fit (400 items, 500 bootstraps)": lambda: judge.fit_judge(judge.sample_calibration()),
}


def check_curves(timed) -> bool:
    ok = True
    for name, fn in CURVES.items():
        seconds = timed(fn, repeat=7)
        good = seconds <= 0.100
        ok &= good
        print(f"Judge {name:<44} {1000 * seconds:7.1f} ms   (target <= 100 ms) {'OK' if good else 'MISSED'}")
    return ok


CHECKS = [check_curves]

"""Sequential-budget page benchmarks."""

from __future__ import annotations

import time

import numpy as np
from scipy import stats

from core import sequential as sq

BUDGETS = [200, 300, 400, 600, 800, 1000, 1200, 1500, 1800, 2400, 3000, 3600, 4800, 6000, 8000, 10000]
KW = dict(peeks=3, boundary="pocock", futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05, test="mwu")


def page_curves(kw=KW):
    """Every analytic curve and number the page shows at its defaults."""
    pop = sq.default_population(30)
    sq.campaign_power("interim", 1200, 2.0, **kw)
    sq.campaign_curves(1200, np.round(np.linspace(0, 8, 33), 3),
                       designs=("fixed", "interim", "interim_futility", "naive"), **kw)
    sq.population_curves(BUDGETS, pop, **kw)
    saved = sq.budget_savings(1200, pop, **kw).set_index("design")
    sq.campaign_mde("interim", 1200, **kw)
    planned = int(saved.loc["interim_futility", "planned_budget"])
    sq.campaign_curves(1200, pop, designs=("fixed",), **kw)
    sq.campaign_curves(planned, pop, designs=("interim_futility",), **kw)


def mc_point():
    return sq.campaign_power("interim", 1200, 2.0, method="simulate", n_sims=2000, seed=1)


def loop_campaigns(n_campaigns, seed=1):
    """Per-campaign loop calling scipy's mannwhitneyu at each analysis (the straightforward way)."""
    rng = np.random.default_rng(seed)
    threshold = sq.boundary(3)[0]
    sizes = [200, 400, 600]
    hits = 0
    for _ in range(n_campaigns):
        a = sq._simulate_scores(rng, 76.0, 27.0, 600)
        b = sq._simulate_scores(rng, 74.0, 27.0, 600)
        for n in sizes:
            if stats.mannwhitneyu(a[:n], b[:n], method="asymptotic").pvalue <= threshold:
                hits += 1
                break
    return hits


def check_curves(timed) -> bool:
    sq.boundary_z(3)  # boundaries are computed once per (K, α, family) and memoized
    seconds = timed(page_curves, repeat=5)
    ok = seconds <= 0.200
    print(f"DA campaign page, every analytic curve:           {1000 * seconds:7.1f} ms   (target ≤ 200 ms) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


def check_montecarlo(timed) -> bool:
    seconds = timed(mc_point, repeat=3)
    ok = seconds <= 2.0
    print(f"DA Monte Carlo point (2,000 campaigns + 2,000 at Δ = 0, budget 1,200, K = 3): {seconds:5.2f} s "
          f"(target ≤ 2 s) {'OK' if ok else 'MISSED'}")
    return ok


def check_ratio(timed) -> bool:
    analytic = timed(lambda: sq.campaign_power("interim", 1200, 2.0), repeat=21)
    reps = 200
    start = time.perf_counter()
    loop_campaigns(reps)
    loop = (time.perf_counter() - start) * 2000 / reps
    ratio = loop / analytic
    ok = ratio >= 1000
    print(f"DA analytic point: {1000 * analytic:.2f} ms; per-campaign mannwhitneyu loop for 2,000 campaigns "
          f"(scaled from {reps}): {loop:.2f} s")
    print(f"   ratio: {ratio:,.0f}×   (target ≥ 1,000×) {'OK' if ok else 'MISSED'}")
    return ok


#: Design points of the general engine timed one by one (analytic target ≤ 50 ms each).
GENERAL_POINTS = [
    dict(design="fixed"),
    dict(design="group", looks=3, boundary="obrien_fleming"),
    dict(design="group", looks=10, boundary="pocock", futility_p=0.5),
    dict(design="group", looks=5, boundary="lan_demets"),
    dict(design="naive", every=50),
]


def check_general_analytic(timed) -> bool:
    """``sequential_power`` analytic: each design point (power, Type-M, expected n under δ and 0) ≤ 50 ms."""
    ok = True
    for kw in GENERAL_POINTS:
        sq.sequential_power(4000, 0.05, 1.0, **kw)  # boundaries are solved once per (K, α, family) and memoized
        seconds = timed(lambda kw=kw: sq.sequential_power(4000, 0.05, 1.0, **kw), repeat=11)
        hit = seconds <= 0.050
        ok &= hit
        label = ", ".join(f"{k}={v}" for k, v in kw.items())
        print(f"sequential_power analytic ({label}): {1000 * seconds:7.2f} ms   (target ≤ 50 ms) "
              f"{'OK' if hit else 'MISSED'}")
    return ok


def check_anytime_simulation(timed) -> bool:
    """Anytime design: 20,000 simulated paths × 4,000 items (under δ and 0, common draws) ≤ 2 s."""
    seconds = timed(lambda: sq.sequential_power(4000, 0.05, 1.0, design="anytime", n_sims=20_000, seed=1),
                    repeat=3)
    ok = seconds <= 2.0
    print(f"anytime simulation, 20,000 paths × 4,000 items: {seconds:5.2f} s (target ≤ 2 s) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


CHECKS = [check_curves, check_montecarlo, check_ratio, check_general_analytic, check_anytime_simulation]

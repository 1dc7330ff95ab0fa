"""Human-ratings page benchmarks."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from core import ratings as rt

SIG = rt.PRESETS["high"]


def analytic_curves():
    """Every analytic curve of the page (≥ 200 points): power vs effect and vs items for 3 worker counts."""
    rt.analytic_grid([3, 10, 20], [100], np.linspace(0, 0.3, 61), **SIG)
    rt.analytic_grid([3, 10, 20], [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000], [0.1], **SIG)


def simulated_point(rule):
    return rt.likert_power(10, 100, 0.1, **SIG, rule=rule, n_sims=500, seed=1)


def mixedlm_fit_seconds(fits=3):
    """Time per statsmodels MixedLM ML fit of one simulated 10 × 100 data set (crossed components)."""
    import statsmodels.formula.api as smf

    rng = np.random.default_rng(0)
    w, i = 10, 100
    rows = []
    w1 = rng.normal(0, SIG["sigma_w1"], w)
    i1 = rng.normal(0, SIG["sigma_i1"], i)
    for a in range(w):
        for b in range(i):
            for x in (1.0, -1.0):
                rows.append((f"w{a}", f"i{b}", x, 0.5 + (0.1 + w1[a] + i1[b]) * x + rng.normal(0, SIG["sigma"])))
    df = pd.DataFrame(rows, columns=["worker", "item", "x", "y"]).assign(one=1)
    model = smf.mixedlm("y ~ x", df, groups="one", vc_formula={"w0": "0 + C(worker)", "i0": "0 + C(item)",
                                                                "w1": "0 + C(worker):x", "i1": "0 + C(item):x"})
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(fits):
            model.fit(reml=False, method=["lbfgs"])
    return (time.perf_counter() - start) / fits


def check_analytic(timed) -> bool:
    seconds = timed(analytic_curves, repeat=5)
    ok = seconds <= 0.100
    print(f"Ratings analytic curves (≥ 200 points):            {1000 * seconds:7.1f} ms   (target ≤ 100 ms) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


def check_simulation(timed) -> bool:
    ok = True
    for rule in rt.RULES:
        seconds = timed(lambda: simulated_point(rule), repeat=3)
        ok &= seconds <= 1.0
        print(f"Ratings simulated point, rule={rule:<13} (500 reps + 500 at 0, 10 × 100): {seconds:5.2f} s "
              f"(target ≤ 1 s) {'OK' if seconds <= 1.0 else 'MISSED'}")
    per_fit = mixedlm_fit_seconds()
    ours = timed(lambda: simulated_point("paper"), repeat=3)
    ratio = per_fit * 1000 / ours  # 1,000 fits (500 replicates + 500 null replicates)
    print(f"   statsmodels MixedLM: {per_fit:.2f} s per fit → {per_fit * 1000:,.0f} s for the same 1,000 fits; "
          f"ratio {ratio:,.0f}× (target ≥ 100×) {'OK' if ratio >= 100 else 'MISSED'}")
    return ok and ratio >= 100


CHECKS = [check_analytic, check_simulation]

"""core.humaneval.raters_per_segment against brute-force integer search and the closed form."""

import itertools
import math

import numpy as np
import pytest

from core.humaneval import raters_per_segment


def test_closed_form_example():
    plan = raters_per_segment(100.0, 100.0, budget=1000, cost_segment=4.0, cost_judgment=1.0)
    assert plan.r_star == 2.0 and plan.neighbour == 2 and plan.best == 2


@pytest.mark.parametrize("seg, res, c_seg, c_j, budget", list(itertools.product(
    (10.0, 200.0, 866.0), (50.0, 666.0), (0.0, 0.7, 3.0, 25.0), (0.2, 1.0), (300.0, 5000.0))))
def test_against_brute_force_integer_search(seg, res, c_seg, c_j, budget):
    plan = raters_per_segment(seg, res, budget=budget, cost_segment=c_seg, cost_judgment=c_j, max_ratings=12)
    # continuous objective over every integer r (brute force), r* from its derivative
    objective = {r: (seg + res / r) * (c_seg + r * c_j) for r in range(1, 13)}
    assert objective[plan.neighbour] <= min(objective.values()) * (1 + 1e-12)
    assert math.isclose(plan.r_star, math.sqrt(c_seg * res / (c_j * seg)))
    # whole segments within the budget, every r: the table's best is the brute-force argmin of the SE
    ses = {}
    for r in range(1, 13):
        m = 0
        while (m + 1) * (c_seg + r * c_j) <= budget / 2 + 1e-9:
            m += 1
        if m:
            ses[r] = math.sqrt(2 * (seg + res / r) / m)
    assert plan.best == min(ses, key=ses.get)
    row = plan.table.set_index("ratings").loc[plan.best]
    assert math.isclose(row["se"], ses[plan.best], rel_tol=1e-12)
    assert row["cost"] <= budget + 1e-9


def test_power_column_and_edges():
    plan = raters_per_segment(200.0, 666.0, budget=1200, cost_segment=0.0, cost_judgment=1.0, delta=3.0)
    # no segment cost: one rating per segment is optimal, and the power is the two-sample z test's
    assert plan.best == 1 and plan.neighbour == 1
    row = plan.table.iloc[0]
    se = math.sqrt(2 * (200 + 666) / 600)
    from scipy import stats
    z = stats.norm.isf(0.025)
    assert math.isclose(row["power"], stats.norm.sf(z - 3 / se) + stats.norm.cdf(-z - 3 / se))
    assert np.all(np.diff(plan.table["power"]) < 0)  # more ratings, fewer segments: less power here
    assert raters_per_segment(0.0, 10.0, budget=100, cost_segment=1.0, max_ratings=5).neighbour == 5
    with pytest.raises(ValueError, match="`cost_judgment`"):
        raters_per_segment(1.0, 1.0, budget=100, cost_judgment=0.0)
    with pytest.raises(ValueError, match="`segment_var`"):
        raters_per_segment(-1.0, 1.0, budget=100)

"""Leaderboard page benchmarks (core.pairwise).

Targets: every analytic page curve for 20 systems <= 100 ms; 500 simulated leaderboards of 10 systems with
20,000 votes <= 2 s.
"""

from __future__ import annotations

from core import pairwise as pw

TWENTY = pw.evenly_spaced(20, 25.0)
VOTES = pw.vote_grid(200_000, low=1000, points=41)


def page_curves():
    """Everything the leaderboard page computes for 20 systems at its defaults."""
    pw.leaderboard_power(20_000, TWENTY)
    pw.leaderboard_votes(TWENTY)
    pw.leaderboard_table(TWENTY, 20_000)
    pw.adjacent_power_curve(TWENTY, VOTES)
    pw.order_correct_curve(TWENTY, VOTES)
    pw.votes_vs_judge(TWENTY, [0.6 + 0.025 * i for i in range(17)])


def simulated():
    return pw.leaderboard_power(20_000, pw.evenly_spaced(10, 25.0), method="simulate", n_sims=500, seed=1)


def check_curves(timed) -> bool:
    seconds = timed(page_curves, repeat=5)
    good = seconds <= 0.100
    print(f"Leaderboard analytic page, 20 systems (all curves):  {1000 * seconds:7.1f} ms   (target <= 100 ms) "
          f"{'OK' if good else 'MISSED'}")
    return good


def check_simulation(timed) -> bool:
    seconds = timed(simulated, repeat=3)
    good = seconds <= 2.0
    print(f"Leaderboard simulation, 500 × 10 systems × 20,000 votes: {seconds:6.2f} s   (target <= 2 s) "
          f"{'OK' if good else 'MISSED'}")
    return good


CHECKS = [check_curves, check_simulation]

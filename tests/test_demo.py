"""core.demo: the lab-meeting replay agrees with the exact engine.

Oracle: core.accuracy.preference_power (exact sums); tolerances from the replay's Monte Carlo error.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from core import accuracy as acc
from core import demo, figures


@pytest.mark.parametrize("n, p", [(25, 0.6), (100, 0.6), (40, 0.65)])
def test_replay_matches_the_exact_engine(n, p):
    rep = demo.replay_experiments(n, p, n_experiments=5000, seed=3)
    exact = acc.preference_power(n, p, 1 - p)
    sig = rep.experiments["significant"].to_numpy()
    share = sig.mean()
    assert abs(share - exact.rejection_rate) <= 4 * math.sqrt(exact.rejection_rate * (1 - exact.rejection_rate) / sig.size)
    ratio = np.abs(rep.experiments["observed"].to_numpy()[sig]) / abs(2 * p - 1)
    assert abs(ratio.mean() - exact.type_m) <= 4 * ratio.std(ddof=1) / math.sqrt(ratio.size)
    summary = demo.running_summary(rep)
    assert summary["type_m"].iloc[-1] == pytest.approx(ratio.mean())
    assert summary["significant"].iloc[-1] == sig.sum()


def test_replay_is_seeded_and_p_values_are_statsmodels_exact():
    from statsmodels.stats.contingency_tables import mcnemar

    a = demo.replay_experiments(25, 0.6, seed=7)
    b = demo.replay_experiments(25, 0.6, seed=7)
    assert a.experiments.equals(b.experiments)
    row = a.experiments.iloc[0]
    wins = int(row["prefer_new"])
    assert row["p_value"] == pytest.approx(mcnemar([[0, wins], [25 - wins, 0]], exact=True).pvalue)


def test_animation_frames_end_in_the_replays_final_state():
    rep = demo.replay_experiments(25, 0.6, seed=2020)
    summary = demo.running_summary(rep)
    fig = figures.replay_figure(rep, summary)
    last = fig.frames[-1]
    assert last.name == "200"
    shown_sig = len(last.data[1].x)
    assert shown_sig == int(rep.experiments["significant"].sum())
    assert len(last.data[0].x) + shown_sig == 200
    assert "200 experiments" in last.layout.annotations[0].text
    assert fig.layout.updatemenus[0].buttons[0].method == "animate"

"""LLM-benchmark non-inferiority and the per-task table (core.llm) against independent oracles.

Oracles: scipy's noncentral t on G − 1 degrees of freedom with the variance written out from Miller (2024) here
(the normal closed form Φ((Δ + m)/se − z_{1−α}) for many clusters); null calibration (power = α at Δ = −m);
Monte Carlo of the t test on normal question differences within 4 MC SE;
statsmodels ``proportion_confint`` (Wilson) and pandas group-bys for the table.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from core import llm


def _se(n, mu_a, mu_b, sd, rho, k=1):
    var = 2 * sd**2 * (1 - rho) + (mu_a * (1 - mu_a) - sd**2 + mu_b * (1 - mu_b) - sd**2) / k
    return math.sqrt(var / n)


def test_noninferiority_power_closed_form_and_null_calibration():
    se = _se(2000, 0.70, 0.70, 0.25, 0.6)
    expected = stats.nct.sf(stats.t.isf(0.025, 1999), 1999, 0.02 / se)
    got = llm.benchmark_noninferiority_power(2000, 0.70, 0.70, 0.02, difficulty_sd=0.25, correlation=0.6).power
    assert got == pytest.approx(expected, abs=1e-9)
    assert got == pytest.approx(stats.norm.sf(stats.norm.isf(0.025) - 0.02 / se), abs=5e-4)  # ≈ the z test
    # at Δ = −margin the rejection rate is α
    size = llm.benchmark_noninferiority_power(2000, 0.70, 0.68, 0.02, difficulty_sd=0.25, correlation=0.6).power
    assert size == pytest.approx(0.025, abs=1e-9)


def test_noninferiority_power_by_simulation():
    n, se = 1500, _se(1500, 0.8, 0.81, 0.2, 0.5, k=2)
    rng = np.random.default_rng(2)
    est = rng.normal(0.01, se, size=20_000)  # the estimate's large-sample law
    se_hat = se * np.sqrt(rng.chisquare(n - 1, size=20_000) / (n - 1))  # its estimated standard error
    hits = np.mean((est + 0.02) / se_hat >= stats.t.isf(0.025, n - 1))
    got = llm.benchmark_noninferiority_power(n, 0.8, 0.81, 0.02, difficulty_sd=0.2, correlation=0.5, samples=2).power
    assert abs(hits - got) <= 4 * math.sqrt(got * (1 - got) / 20_000)


def test_noninferiority_sample_size_straddles_the_target():
    kw = dict(difficulty_sd=0.25, correlation=0.6, samples=2, cluster_size=4, icc=0.2)
    n = llm.benchmark_noninferiority_sample_size(0.70, 0.71, 0.02, **kw)
    assert n % 4 == 0
    assert llm.benchmark_noninferiority_power(n, 0.70, 0.71, 0.02, **kw).power >= 0.8
    assert llm.benchmark_noninferiority_power(n - 4, 0.70, 0.71, 0.02, **kw).power < 0.8
    # an exact-grading, m = 1 design: the textbook formula ⌈σ²(z_{1−α} + z_β)²/(Δ + m)²⌉ for the z test; the t test
    # needs a question or two more
    var = 2 * 0.0625 * 0.4 + 2 * (0.21 - 0.0625)
    n1 = llm.benchmark_noninferiority_sample_size(0.70, 0.70, 0.02, difficulty_sd=0.25, correlation=0.6)
    z_n = math.ceil(var * (stats.norm.isf(0.025) + stats.norm.ppf(0.8)) ** 2 / 0.02**2)
    assert z_n <= n1 <= z_n + 3
    se1 = math.sqrt(var / n1)
    assert stats.nct.sf(stats.t.isf(0.025, n1 - 1), n1 - 1, 0.02 / se1) >= 0.8
    assert stats.nct.sf(stats.t.isf(0.025, n1 - 2), n1 - 2, 0.02 / math.sqrt(var / (n1 - 1))) < 0.8


def test_noninferiority_errors():
    with pytest.raises(ValueError, match="`margin`"):
        llm.benchmark_noninferiority_power(100, 0.7, 0.7, 0.0)
    with pytest.raises(ValueError, match="`margin`"):
        llm.benchmark_noninferiority_sample_size(0.7, 0.65, 0.02)
    with pytest.raises(ValueError, match="`alpha`"):
        llm.benchmark_noninferiority_power(100, 0.7, 0.7, 0.02, alpha=0.7)


def test_task_table_against_groupby_and_statsmodels():
    rng = np.random.default_rng(0)
    rows = []
    for task, n, pa, pb in (("easy", 40, 1.0, 1.0), ("hard", 200, 0.3, 0.35), ("tiny", 12, 0.5, 0.6)):
        for q in range(n):
            for model, p in (("A", pa), ("B", pb)):
                rows.append((f"{task}/{q}", task, model, float(rng.random() < p)))
    log = pd.DataFrame(rows, columns=["question", "task", "model", "score"])
    table = llm.task_table(log)
    hard = table[(table.task == "hard") & (table.model == "B")].iloc[0]
    k = log[(log.task == "hard") & (log.model == "B")].score.sum()
    assert hard.n == 200 and hard.accuracy == pytest.approx(k / 200)
    assert (hard.low, hard.high) == pytest.approx(proportion_confint(k, 200, method="wilson"), abs=1e-12)
    wide = log[log.task == "hard"].pivot(index="question", columns="model", values="score")
    diff = wide.B - wide.A
    assert hard.mde == pytest.approx((stats.t.isf(0.025, 199) + stats.t.ppf(0.8, 199)) * diff.std() / math.sqrt(200))
    easy = table[table.task == "easy"]
    assert set(easy.flag) == {"all right"}
    assert set(table[table.task == "tiny"].flag) == {"n < 30"}
    with pytest.raises(ValueError, match="`by`"):
        llm.task_table(log, by="nope")


def test_task_table_whole_log_and_clusters():
    log = llm.sample_log()
    whole = llm.task_table(log, by=None)
    assert list(whole["task"]) == ["all questions"] * 2
    assert list(whole["n"]) == [log.question.nunique()] * 2
    per_cluster = llm.task_table(log)  # "auto": the cluster column
    assert len(per_cluster) == 2 * log.cluster.nunique()

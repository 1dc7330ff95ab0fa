"""The home page's cards: each scenario's teaser (``core/<scenario>/teaser.py``, named by ``pages/_registry.py``).

The teasers are checked against the same public core calls written out with each page's default widget values
(tests/app/test_home_page.py checks, in addition, that each page shows that very number at its defaults), and some
against an independent oracle (enumeration, a closed form, the binomial sign test).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import optimize

from core import accuracy as acc
from core import analysis as an
from core import demo, llm, mt
from core import multiplicity as mu
from core import pairwise as pw
from core import ratings as rt
from core import sequential as sq
from core.accuracy.teaser import accuracy_teaser
from core.analysis.teaser import ANALYSIS_SAMPLE, analysis_teaser
from core.claims import ClaimsDesign
from core.claims.teaser import CLAIMS_DEFAULT, claims_teaser
from core.llm.teaser import llm_facets_teaser, llm_teaser
from core.mt.teaser import mt_teaser
from core.pairwise.teaser import leaderboard_teaser
from core.ratings.teaser import ratings_teaser
from core.sequential.teaser import monitor_teaser, sequential_teaser
from pages._registry import PAGES, VIEW_CARDS, teaser_of

#: Every card's name: the pages with a teaser, then the tabs' cards.
CARDS = [p.name for p in PAGES if p.teaser] + [v.key for v in VIEW_CARDS if v.teaser]


def test_accuracy_teaser_is_the_exact_mcnemar_power_at_the_page_defaults():
    t = accuracy_teaser()
    # Accuracy page: paired scenario, n = 500, Δ = 2.0 pp, agreement 90% ("my estimate"), exact test, α = 0.05
    expected = acc.mcnemar_power(500, 0.02, 0.9, alpha=0.05, test="exact").power
    assert t.value == expected
    assert t.shown == f"{100 * expected:.1f}%"
    assert f"{100 * expected:.0f}% power" in t.answer and "500-item" in t.answer
    assert t.page == "accuracy" and t.metric == "Power"


def test_accuracy_teaser_matches_an_independent_enumeration():
    # Exact conditional McNemar power by enumeration (Card et al. 2020, appendix E.4): the discordant count D is
    # Binomial(n, 1 − P_a); given D, the "B right" count is Binomial(D, p) with p = (p_d + Δ)/(2 p_d); power is the
    # probability of rejecting two-sided at α with the positive sign.
    from scipy import stats

    n, delta, agree, alpha = 500, 0.02, 0.9, 0.05
    p_disc = 1 - agree
    p = (p_disc + delta) / (2 * p_disc)
    power = 0.0
    for d in range(1, n + 1):
        wd = stats.binom.pmf(d, n, p_disc)
        if wd < 1e-15:
            continue
        k = np.arange(d + 1)
        pv = np.minimum(1.0, 2 * np.minimum(stats.binom.cdf(k, d, 0.5), stats.binom.sf(k - 1, d, 0.5)))
        reject = (pv <= alpha) & (k > d / 2)
        power += wd * stats.binom.pmf(k[reject], d, p).sum()
    assert accuracy_teaser().value == pytest.approx(power, abs=1e-9)


def test_llm_teaser_is_the_benchmark_power_at_the_page_defaults():
    t = llm_teaser()
    expected = llm.benchmark_power(1000, accuracy_a=0.70, accuracy_b=0.73, difficulty_sd=0.25, correlation=0.6,
                                   samples=1, cluster_size=1, icc=0.0, judge_sensitivity=1.0, judge_specificity=1.0,
                                   alpha=0.05).power
    assert t.value == expected
    # the home page's example sentence (the README's Pages section)
    assert t.answer == "Two LLMs on a 1,000-question benchmark: 38% power for a 3-point gain."


def test_llm_teaser_matches_the_paired_t_closed_form():
    # Miller (2024), eq. 5-6: Var(d) = Var_a + Var_b − 2ρσ² with Var_x = μ(1 − μ) at K = 1 (every answer is
    # Bernoulli); power of the two-sided t test on n − 1 df via the noncentral t (scipy).
    from scipy import stats

    n, mu_a, mu_b, sd, rho = 1000, 0.70, 0.73, 0.25, 0.6
    var_d = mu_a * (1 - mu_a) + mu_b * (1 - mu_b) - 2 * rho * sd * sd
    nc = (mu_b - mu_a) / math.sqrt(var_d / n)
    crit = stats.t.ppf(0.975, n - 1)
    power = stats.nct.sf(crit, n - 1, nc)
    assert llm_teaser().value == pytest.approx(power, abs=2e-3)


def test_leaderboard_teaser_is_the_weakest_neighbours_power_at_the_page_defaults():
    t = leaderboard_teaser()
    ratings = pd.Series(pw.evenly_spaced(6, 25.0), index=pw.system_names(6))
    expected = pw.leaderboard_power(5000, ratings, tie_rate=0.0, ties="drop", judge_accuracy=1.0, alpha=0.05)
    assert t.value == expected.weakest_power
    assert t.metric == "Weakest neighbours' power"


def test_claims_teaser_is_the_family_power_of_the_page_default_table():
    t = claims_teaser()
    powers = [round(max(acc.mcnemar_power(n, g / 100, a / 100, alpha=0.05, test="normal").rejection_rate, 0.05), 12)
              for _, n, g, a in CLAIMS_DEFAULT]
    expected = mu.family_power(powers, alpha=0.05, correction="holm", correlation=0.0, n_sims=20_000, seed=0)
    assert t.value == expected.all
    assert 0.0 <= t.value <= min(powers)  # all claims hold: at most the weakest claim's own power
    assert t.metric == "All 5 claims hold"


def test_teasers_take_their_page_design():
    from scipy import stats

    # LLM: the paired t test's closed form at a non-default design (Miller 2024, eq. 5-6; K = 1, Bernoulli answers)
    n, mu_a, mu_b, sd, rho = 2000, 0.80, 0.82, 0.25, 0.6
    t = llm_teaser(llm.BenchmarkDesign(n=n, accuracy_a=mu_a, delta=0.02))
    nc = (mu_b - mu_a) / math.sqrt((mu_a * (1 - mu_a) + mu_b * (1 - mu_b) - 2 * rho * sd * sd) / n)
    assert t.value == pytest.approx(stats.nct.sf(stats.t.ppf(0.975, n - 1), n - 1, nc), abs=2e-3)
    assert t.answer.startswith("Two LLMs on a 2,000-question benchmark:") and "a 2-point gain" in t.answer
    # Prompts and seeds with two recipes: the ceiling keeps the template and the seed terms,
    # Φ(|Δ| / √(var_t/T + 2 var_seed/S) − z_{1−α/2}) (Brennan 2001, D studies)
    f = llm.FacetDesign(templates=2, recipe=True, seeds=4)
    ceiling = stats.norm.cdf(0.02 / math.sqrt(f.sd_template ** 2 / 2 + 2 * f.sd_seed ** 2 / 4) - stats.norm.ppf(0.975))
    t = llm_facets_teaser(f)
    assert t.value == pytest.approx(ceiling, abs=1e-12)
    assert t.answer == (f"With 2 prompt templates, no number of questions gets past {100 * ceiling:.0f}% power for "
                        "+2 points (with 4 seeds per recipe).")
    # Ratings, Leaderboard, Claims: the engines at the design's values
    t = ratings_teaser(rt.RatingsDesign(workers=5, items=200, effect=0.05))
    assert t.value == rt.likert_power(5, 200, 0.05, **dict(rt.PRESETS["high"]), alpha=0.05, rule="satterthwaite",
                                      method="analytic").power
    assert t.answer.startswith("5 workers rating 200 items:") and "a 0.1 difference" in t.answer
    t = leaderboard_teaser(pw.LeaderboardDesign(k=4, gap=50.0, n=2000))
    ratings = pd.Series(pw.evenly_spaced(4, 50.0), index=pw.system_names(4))
    assert t.value == pw.leaderboard_power(2000, ratings, alpha=0.05).weakest_power
    assert t.answer.startswith("4 systems 50 Elo apart, 2,000 votes:")
    t = claims_teaser(ClaimsDesign(correction="bonferroni"))
    powers = [round(max(acc.mcnemar_power(n, g / 100, a / 100, alpha=0.05, test="normal").rejection_rate, 0.05), 12)
              for _, n, g, a in CLAIMS_DEFAULT]
    # Bonferroni with independent claims: P(all hold) is the product of the powers at α/m (closed form)
    z, zm = stats.norm.ppf(0.975), stats.norm.ppf(1 - 0.05 / 10)
    mus = [optimize.brentq(lambda x: stats.norm.cdf(x - z) + stats.norm.cdf(-x - z) - p, 0.0, 40.0) for p in powers]
    assert t.value == pytest.approx(math.prod(stats.norm.cdf(m - zm) + stats.norm.cdf(-m - zm) for m in mus), abs=1e-9)
    assert t.answer.endswith("chance that all hold after Bonferroni's correction.")


def test_mt_ratings_sequential_teasers_at_the_page_defaults():
    assert mt_teaser().value == mt.bleu_power(2000, 1.0, 0.13, 25.8, alpha=0.05).power
    assert ratings_teaser().value == rt.likert_power(3, 100, 0.1, **dict(rt.PRESETS["high"]), alpha=0.05,
                                                          rule="satterthwaite", method="analytic").power
    assert sequential_teaser().value == sq.campaign_power("fixed", 1200, 2.0, peeks=3, boundary="pocock",
                                                               futility_p=0.5, mean=75.0, sd=27.0, alpha=0.05,
                                                               test="mwu").power


def test_monitor_teaser_is_the_running_difference_of_the_example_at_60_items():
    t = monitor_teaser()
    diffs = sq.sample_differences()["difference"].to_numpy(dtype=float)
    assert t.value == pytest.approx(diffs[:60].mean(), abs=1e-12)  # the running difference is the plain mean
    assert t.shown == f"{100 * diffs[:60].mean():+.2f} pts"  # per-question accuracies: points
    assert "60 of 300" in t.answer


def test_analysis_teaser_names_the_recommended_test_of_the_sample():
    t = analysis_teaser()
    data = an.parse_results(ANALYSIS_SAMPLE.read_bytes(), "scores")
    rec = an.recommend_tests(data.a - data.b, alpha=0.05, binary=False)
    first = rec.tests.query("verdict == 'recommended'")["name"].iloc[0]
    assert first in t.answer and t.value == data.rows_used


def test_every_teaser_is_a_probability_or_a_finite_number():
    tab_pages = {v.key: v.page for v in VIEW_CARDS}  # a card for one tab opens that tab's page
    for name in CARDS:
        t = teaser_of(name)
        assert t.page == tab_pages.get(name, name) and math.isfinite(t.value) and t.answer.endswith(".")
        if t.shown.endswith("%"):
            assert 0.0 <= t.value <= 1.0


@pytest.mark.parametrize("name", ["nope", "plan", ""])
def test_teaser_of_a_name_without_a_teaser_is_a_clear_error(name):
    # "plan" is a registered page without a question, so without a card
    with pytest.raises(ValueError, match="`page` must be one of accuracy, llm, .*llm_facets; got"):
        teaser_of(name)


def test_teaser_of_calls_the_function_the_registry_names():
    # the lookup is by dotted name: the registry's function, at its defaults, for pages and tab cards alike
    assert teaser_of("accuracy") == accuracy_teaser()
    assert teaser_of("monitor") == monitor_teaser()
    assert teaser_of("llm_facets") == llm_facets_teaser()
    assert teaser_of("demo") == demo.demo_teaser()


def test_demo_teaser_against_the_binomial_sign_test():
    # oracle: the exact two-sided sign test with 25 raters rejects at ≤ 7 or ≥ 18 preferring the new system
    # (P(X ≥ 18 | ½) = 0.0216, doubled 0.043 ≤ 0.05; 17 gives 0.108); power counts the right-sign side only
    # (Card et al. 2020, Figure 2), Type-M is E[|gap| | significant] / 0.2 over both sides.
    from scipy.stats import binom

    k = np.arange(26)
    pmf = binom.pmf(k, 25, 0.6)
    sig = (k <= 7) | (k >= 18)
    assert 2 * binom.sf(17, 25, 0.5) <= 0.05 < 2 * binom.sf(16, 25, 0.5)
    power = pmf[k >= 18].sum()
    type_m = (pmf[sig] * np.abs(2 * k[sig] / 25 - 1)).sum() / pmf[sig].sum() / 0.2
    t = demo.demo_teaser()
    assert t.page == "demo" and t.shown == "+20 pts"
    assert f"{100 * power:.0f}% of studies significant" in t.answer
    assert f"overstate the gap {type_m:.1f}×" in t.answer

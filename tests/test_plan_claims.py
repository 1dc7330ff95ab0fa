"""core.multiplicity.ClaimFamily and core.claims.plan: the Claims page's plan (from its ClaimsDesign), checked
against the engines.

Oracles: Bonferroni in closed form (each claim tested at α/m: power Φ(μ − z_{1−α/2m}) + Φ(−μ − z_{1−α/2m}) with
μ from the unadjusted power) and, for independent claims, P(all hold) = the product of the adjusted powers.
"""

from __future__ import annotations

import math

import pytest
from scipy import optimize, stats

from core import accuracy as acc
from core import multiplicity as mt
from core.claims import ClaimsDesign, encode_claims
from core.claims import plan as claims_plan
from core.plan import plan_html

CLAIMS = (("SST-2", 872, 2.0, 92.0), ("MNLI", 9815, 1.0, 88.0), ("QNLI", 5463, 1.5, 90.0))


def _bonferroni(power, m, alpha=0.05):
    z = stats.norm.ppf(1 - alpha / 2)
    mu = optimize.brentq(lambda x: stats.norm.cdf(x - z) + stats.norm.cdf(-x - z) - power, 0.0, 40.0)
    zm = stats.norm.ppf(1 - alpha / (2 * m))
    return stats.norm.cdf(mu - zm) + stats.norm.cdf(-mu - zm)


def test_bonferroni_plan_against_the_closed_form():
    design = ClaimsDesign(claims=encode_claims(CLAIMS, exact=True), correction="bonferroni")
    # each claim's unadjusted power: McNemar's normal form on its own test set (Card et al. 2020, §3)
    powers = [acc.mcnemar_power(n, gain / 100, agree / 100, alpha=0.05, test="normal").rejection_rate
              for _, n, gain, agree in CLAIMS]
    res = design.power()
    item = claims_plan.plan_item(design, res)
    values = dict(item.results)
    adjusted = [_bonferroni(p, 3) for p in powers]
    for (name, *_), p in zip(CLAIMS, adjusted):
        assert values[f"power, {name}"] == f"{100 * p:.1f}%"
    assert values["P(all claims hold)"] == f"{100 * math.prod(adjusted):.1f}%"  # independent claims
    assert values["expected claims that hold"] == f"{sum(adjusted):.2f} of 3"
    assert "control the family-wise error with Bonferroni at α = 0.05" in item.paragraph
    assert f"(unadjusted {100 * sum(powers) / 3:.0f}%)" in item.paragraph
    assumptions = {a.name: a.value for a in item.assumptions}
    assert assumptions["MNLI: n, gain, P_a"] == "9,815 items, +1.0 pts, 88.0%"
    assert "Many claims (multiplicity)" in plan_html([item])


def test_holm_is_at_least_bonferroni():
    bonf = mt.ClaimFamily(CLAIMS, (0.6, 0.8, 0.7), correction="bonferroni").power()
    holm = mt.ClaimFamily(CLAIMS, (0.6, 0.8, 0.7), correction="holm").power(n_sims=200_000, seed=1)
    assert holm.all >= bonf.all - 4 * max(holm.mc_se, 1e-12)  # Holm is uniformly more powerful (Holm 1979)


def test_bad_input():
    with pytest.raises(ValueError, match="same length"):
        mt.ClaimFamily(CLAIMS, (0.6, 0.8))
    with pytest.raises(ValueError, match="`correction`"):
        mt.ClaimFamily(CLAIMS, (0.6, 0.8, 0.7), correction="sidak")
    with pytest.raises(ValueError, match="`design`"):
        claims_plan.plan_item(None, None)
    with pytest.raises(ValueError, match="`design` must be a core.claims.ClaimsDesign"):  # not the engine's family
        claims_plan.plan_item(mt.ClaimFamily(CLAIMS, (0.6, 0.8, 0.7)), None)

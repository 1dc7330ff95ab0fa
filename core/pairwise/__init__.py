"""Leaderboards from pairwise votes: Bradley–Terry power, intervals and fits.

Many systems are ranked from head-to-head votes — by people (an arena, a
side-by-side study) or by an LLM judge — with a Bradley–Terry model on the Elo
scale. This module answers the planning questions: how many votes until the
leaderboard's neighbours are told apart, how wide is each system's interval,
how likely is the whole order to be right, and what a noisy judge costs. It
also fits the model to uploaded votes.

Model
-----
System i has a rating r_i on the Elo scale. In a vote between i and j that is
not a tie, i wins with probability (Bradley & Terry 1952, on Elo's scale)::

    P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)) = σ(s (r_i - r_j)),
    s = ln(10) / 400  (so 400 / ln 10 ≈ 173.7 Elo is one logit),

σ the logistic function. Only differences are identified; ratings are
reported relative to their mean (the sum-to-zero constraint), shifted to mean
1000 for fitted leaderboards and to the input's mean for planned ones.

*Design.* ``n_votes`` votes are spread evenly over all M = K(K - 1)/2 pairs
of the K systems (the analytic engine uses N/M votes per pair; the simulation
gives every pair ⌊N/M⌋ votes and N mod M distinct pairs, chosen at random,
one more). A share ``tie_rate`` = t of the votes are ties, whatever the pair.

*Ties.* ``ties="drop"`` (default) fits the non-tied votes only: the
maximum-likelihood Bradley–Terry fit. ``ties="split"`` counts a tie as half a
win for each side (the convention of the Chatbot Arena notebook, which counts
a tie as one win each way in a doubled data set). Then E[y] = ½ + (1 - t)(p - ½)
per vote: the half-win fit estimates ratings shrunk toward their mean (by
about the factor 1 - t near p = ½), its intervals are narrower by about the
same factor but centred on the shrunk ratings, so they under-cover the true
ratings; the model-based variance of the half-win fit treats a tie like a
Bernoulli trial and overstates the variance by about 1/(1 - t), so the Wald
tests of the half-win fit use the sandwich (robust) variance here — what the
arena's bootstrap estimates — and then have, to first order, the power of the
tie-dropping fit. See "Engines" for the formulas.

*Judge.* A judge that agrees with the true preference with probability q
(``judge_accuracy``) reports i over j with probability::

    p' = ½ + (2q - 1)(p - ½)         (observed_win_rate)

so votes from a noisy judge carry less information and the fitted ratings are
compressed toward their mean. q = ½ carries no information and q < ½
reverses the order; the planning functions accept q in (½, 1].
:func:`observed_win_rate` evaluates the formula for any q in [0, 1].

Engines
-------
``method="analytic"`` (K ≥ 3). Let n_ij be the expected number of votes of
pair ij in the fit (non-tied votes for "drop", all votes for "split"), m_ij =
E[y] per vote (y = 1 if i wins, 0 if j wins, ½ for a tie under "split") and
v_ij = Var(y). The estimator converges to the pseudo-true logits β* solving
Σ_j n_ij (m_ij - σ(β*_i - β*_j)) = 0 (β* = s(r - r̄) when the model holds:
"drop" with q = 1), and is asymptotically normal with covariance
V = H⁺ J H⁺, where::

    H = Σ_pairs n_ij w_ij (e_i - e_j)(e_i - e_j)ᵀ,   w_ij = σ*_ij (1 - σ*_ij),
    J = Σ_pairs n_ij v_ij (e_i - e_j)(e_i - e_j)ᵀ,

the expected Fisher information of a logit model (Agresti 2013, §5.5 and
§4.5) and the variance of the score; H⁺ is the Moore–Penrose inverse, the
covariance under the sum-to-zero constraint. When the model holds J = H and
V = H⁺, the inverse Fisher information. The analyst's reported covariance
(used by the Wald tests and the intervals) is H⁺ for "drop". For "split" it is
the probability limit of the empirical sandwich that the simulation and a
robust fit compute, H⁺ Ĵ H⁺ with Ĵ = Σ_pairs n_ij (v_ij + (m_ij - σ*_ij)²)
(e_i - e_j)(e_i - e_j)ᵀ: the squared residuals y - σ̂ of the half-win fit
average to v_ij plus the squared lack of fit m_ij - σ*_ij, which is not zero
because the half-win model is misspecified; it is slightly larger than V.
For an adjacent pair (u, l) — systems next to each other in the
true order, u above — the estimated difference D = β̂_u - β̂_l is
N(Δ*, sd²) with sd² = aᵀ V a, a = e_u - e_l, and the two-sided Wald test at
level α rejects when |D| / se ≥ z_{1-α/2}, se² = aᵀ V_reported a. Power is
right-direction power (Card et al. 2020): P(significant AND D > 0)::

    power = Φ((Δ* - z_{1-α/2} se) / sd);

for equal true ratings it is the rejection rate (the false-positive rate).
A system's 95% interval half-width is z_{0.975} times the reported standard
error of its rating relative to the mean of all K ratings, in Elo. Every
variance is proportional to 1/N, so curves over N are closed forms.

P(order correct) is P(the estimated order equals the true order) = P(all
K - 1 adjacent estimated differences are positive), an orthant probability of
the (K - 1)-variate normal N(Δ*, A V Aᵀ), computed by the
Genz–Keane–Hajivassiliou sequential-conditioning method with a fixed set of
randomized Sobol points (8 independent scrambles of 128, the same for every
N, so curves are smooth); ``order_correct_mc_se`` is the standard error
across the scrambles. Where the bounds min_k Φ(m_k) and 1 - Σ_k Φ(-m_k)
(m_k the standardized mean of difference k) already pin the probability within
10⁻⁷ of 0 or 1, they give it instead, and differences negative with
probability below 10⁻¹⁰ are left out of the integral (error at most
(K - 1) · 10⁻¹⁰). It is ``nan`` when two true ratings are
equal (no true order).

K = 2: the exact engine of the Accuracy page, :func:`core.accuracy.preference_power`
(exact sign test on the non-tied votes), gives the power — whatever
``method``. Under "split" the half-win statistic (W + T/2) - N/2 = (W - L)/2
is the sign test's statistic, so its exact test is the sign test on the
non-tied votes too (the Accuracy page's "split" — each tie to a side by a fair
coin — is a different, randomized and weaker, test and is not used).
P(order correct) = P(W > L) is an exact binomial sum; the interval half-width
comes from the Fisher covariance.

``method="simulate"`` (K ≥ 3). Vote counts are drawn per pair (one
multinomial draw of wins, losses and ties per pair and replicate, never per
vote), every replicate is fitted by a batched Newton–Raphson on the
aggregated counts (sum-to-zero by solving (H + 11ᵀ/K) δ = g), and Wald tests
use each replicate's reported covariance (H⁺, or the empirical sandwich for
"split"). A replicate whose win graph is not strongly connected (a system that
never loses, a group that never loses to the rest, or pairs with no votes)
has no finite MLE (Ford 1957); such replicates get a tiny ridge penalty
½ λ Σβ², λ = 10⁻³ (logit units), that keeps the fit finite; their huge
standard errors make their tests non-significant (the Hauck–Donner effect)
and their share is reported as ``separated``. ``mc_se`` is the binomial
Monte Carlo standard error of each estimate.

References
----------
Bradley, R. A., & Terry, M. E. (1952). Rank analysis of incomplete block
designs: I. The method of paired comparisons. *Biometrika* 39:324–345.
Elo, A. E. (1978). *The Rating of Chessplayers, Past and Present*. Arco.
Ford, L. R. (1957). Solution of a ranking problem from binary comparisons.
*American Mathematical Monthly* 64(8):28–33.
Chiang, W.-L., et al. (2024). Chatbot Arena: An open platform for evaluating
LLMs by human preference. arXiv:2403.04132 (vote format, Elo-scale
Bradley–Terry, bootstrap intervals).
Agresti, A. (2013). *Categorical Data Analysis*, 3rd ed. Wiley (Fisher
information of logit models, §4.5, §5.5; paired comparisons, §11.6).
Genz, A., & Bretz, F. (2009). *Computation of Multivariate Normal and t
Probabilities*. Springer (the sequential-conditioning orthant method).
Card, D., et al. (2020). With little power comes great responsibility.
EMNLP (right-direction power).
"""

from __future__ import annotations

# A package by job: the design, the Newton solver, the analytic engine, power, votes needed, the page's curves,
# the readers of vote files and the Bradley–Terry fit. Their shared constants and checks are in ``_common``; the
# design imports the engines and no engine imports the design, so the imports form no cycle (tests/test_pairwise_design.py).
from ._common import BOOT_WORK, MAX_VOTES, METHODS, SAMPLE_VOTES, SCALE, TIES, WINNERS  # noqa: F401
from .design import *  # noqa: F401,F403
from .solver import *  # noqa: F401,F403
from .analytic import *  # noqa: F401,F403
from .power import *  # noqa: F401,F403
from .votes import *  # noqa: F401,F403
from .curves import *  # noqa: F401,F403
from .readers import *  # noqa: F401,F403
from .fitting import *  # noqa: F401,F403
from .power import _allocate  # noqa: F401  (private names used by the tests and other modules)
from .solver import _fit_counts, _fit_replicates, _incidence, _laplacian  # noqa: F401

__all__ = [
    "Leaderboard",
    "LeaderboardDesign",
    "decode_ratings",
    "encode_ratings",
    "MAX_VOTES",
    "METHODS",
    "SAMPLE_VOTES",
    "SCALE",
    "TIES",
    "WINNERS",
    "BradleyTerryFit",
    "LeaderboardPower",
    "LeaderboardAssurance",
    "leaderboard_assurance",
    "adjacent_power_curve",
    "crowded_top",
    "evenly_spaced",
    "fit_bradley_terry",
    "leaderboard_power",
    "rank_resolution",
    "expected_upsets",
    "MIN_UPSETS",
    "MAX_SIM_WORK",
    "RESOLUTION_CORRECTIONS",
    "leaderboard_table",
    "leaderboard_votes",
    "observed_win_rate",
    "order_correct_curve",
    "rating_covariance",
    "read_votes",
    "simulate_fits",
    "simulate_votes",
    "system_names",
    "vote_grid",
    "votes_vs_judge",
    "win_probability",
    "BOOT_WORK",
]



"""Power of BLEU comparisons with the paired approximate-randomization test.

Card et al. (2020), §4 and appendix G. The generative process draws ``n``
individual swap effects: with probability ``P0`` an effect is exactly zero,
otherwise it is ``Laplace(mu, b)`` with ``mu = -2 Δ_B / (n (1 - P0))`` and
``b = b0 / n``. The observed BLEU difference is ``Δ̂_B = -½ Σ δ_i`` and a
randomization trial that swaps the subset ``S`` (each item with probability
½) gives ``Δ̂_B + Σ_{i∈S} δ_i``.

Writing the swap indicator as ``s_i = (1 + ε_i)/2`` with Rademacher ``ε_i``,
the swapped difference is ``½ Σ ε_i δ_i``: the randomization null is a
sign-flip sum with mean 0 and variance ``¼ Σ δ_i²``. That is what makes a fast
engine possible (:func:`bleu_power` with ``method="normal"``).

Two engines:

* ``"randomization"`` — the paper's procedure, vectorized over replicates and
  trials (one matrix product per chunk of replicates);
* ``"normal"`` — the randomization test replaced by its normal approximation
  (reject when ``|Σ δ_i| >= z_{1-α/2} sqrt(Σ δ_i²)``) and the distribution of
  ``(Σ δ_i, Σ δ_i²)`` by its bivariate normal approximation from the exact
  moments of the Delta–Laplace mixture, integrated by Gauss–Hermite
  quadrature over ``Σ δ_i²``. Instant, and within Monte Carlo error of the
  randomization engine over the page's parameter ranges (tested).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, stats

from .. import uploads
from ..design import Design, spec
from ..results import PowerResult, nan_if_zero
from ..sizing import SampleSize, smallest_reaching
from ..validation import check_alpha, check_choice, check_int, check_real, rng_of

__all__ = [
    "METHODS",
    "PRESETS",
    "BleuDesign",
    "SwapFit",
    "AdditivityCheck",
    "bleu_power",
    "bleu_mde",
    "bleu_sample_size",
    "bleu_assurance",
    "power_grid",
    "simulate_effects",
    "fit_effects",
    "fit_swap_effects",
    "additivity_check",
    "read_parallel_texts",
    "read_tsv",
    "MAX_SEGMENTS",
    "MAX_RANDOMIZATION_WORK",
    "MAX_SIMULATED_EFFECTS",
]

METHODS = ("normal", "randomization")
#: Most swap effects summed by the randomization engine (n × n_sims × n_trials): 6 × 10¹⁰ multiply-adds in
#: float32 matrix products (about 1 s on two cores); larger requests are refused with what to reduce.
MAX_RANDOMIZATION_WORK = 60_000_000_000
#: Most swap effects drawn by the randomization engine (n × n_sims; 6 × 10⁷ Laplace draws take about 2 s).
MAX_SIMULATED_EFFECTS = 60_000_000
_SWAP_BLOCK = 1 << 24  # swap indicators per block of trials (64 MB of float32)
#: Uploads larger than this many segments are refused (BLEU test sets are ~1–5k). sacrebleu's tokenizer and n-gram
#: counting cost some 50–100 µs per segment and system in pure Python, so 20,000 segments take a few seconds.
MAX_SEGMENTS = 20_000
_N_MAX = 1_000_000

#: Presets: Table 3 of Card et al. (2020) (four WMT En–De comparisons, test-set
#: size and reported Δ_B) and the paper's default, the average of Table 3
#: (P0 = 0.13, b0 = 25.8), used for Figure 4 and appendix G.2.
PRESETS: dict[str, dict[str, float]] = {
    "Paper default (mean of Table 3)": {"p0": 0.13, "b0": 25.8, "n": 2000, "delta_bleu": 1.0},
    "TF19* vs TF18*, WMT19 (Table 3)": {"p0": 0.19, "b0": 23.7, "n": 2000, "delta_bleu": 4.3},
    "TF18 vs TF16, WMT18 (Table 3)": {"p0": 0.09, "b0": 29.4, "n": 3000, "delta_bleu": 4.2},
    "TF16 vs Conv17, WMT17 (Table 3)": {"p0": 0.12, "b0": 22.5, "n": 3000, "delta_bleu": 1.3},
    "TF16 vs Conv14, WMT16 (Table 3)": {"p0": 0.10, "b0": 27.6, "n": 3000, "delta_bleu": 7.6},
}

_GH_NODES, _GH_WEIGHTS = np.polynomial.hermite_e.hermegauss(48)
_GH_WEIGHTS = _GH_WEIGHTS / _GH_WEIGHTS.sum()


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _validate(n, delta_bleu, p0, b0, alpha):
    n = check_int("n", n, low=2, high=_N_MAX)
    delta_bleu = check_real("delta_bleu", delta_bleu, low=-100.0, high=100.0)
    p0 = check_real("p0", p0, low=0.0, high=1.0, high_open=True)
    b0 = check_real("b0", b0, low=0.0, high=10_000.0, low_open=True)
    alpha = check_alpha(alpha)
    return n, delta_bleu, p0, b0, alpha


# ---------------------------------------------------------------------------
# generative process
# ---------------------------------------------------------------------------
def simulate_effects(n, delta_bleu, p0, b0, *, size=1, seed=None) -> np.ndarray:
    """Draw swap effects from the Delta–Laplace process of §4.

    Returns
    -------
    ndarray, shape (size, n)
        ``δ_i``: 0 with probability ``p0``, else ``Laplace(-2Δ_B/(n(1-p0)), b0/n)``.
    """
    n, delta_bleu, p0, b0, _ = _validate(n, delta_bleu, p0, b0, 0.05)
    size = check_int("size", size, low=1, high=10_000_000)
    rng = rng_of(seed)
    mu = -2.0 * delta_bleu / (n * (1.0 - p0))
    effects = rng.laplace(mu, b0 / n, size=(size, n))
    effects[rng.random((size, n)) < p0] = 0.0
    return effects


def _moments(n, delta_bleu, p0, b0):
    """Raw moments E[δ^k], k = 1..4, of one effect (Laplace moments × (1 - P0))."""
    mu = -2.0 * delta_bleu / (n * (1.0 - p0))
    b = b0 / n
    w = 1.0 - p0
    m1 = w * mu
    m2 = w * (mu**2 + 2 * b**2)
    m3 = w * (mu**3 + 6 * mu * b**2)
    m4 = w * (mu**4 + 12 * mu**2 * b**2 + 24 * b**4)
    return m1, m2, m3, m4


# ---------------------------------------------------------------------------
# engines
# ---------------------------------------------------------------------------
def _normal_tails(n, delta_bleu, p0, b0, alpha):
    """Vectorized over designs (arrays of equal shape): P(reject, Δ̂>0), P(reject, Δ̂<0), E|Δ̂|;rej, EΔ̂;rej."""
    n, delta_bleu, p0, b0 = (np.asarray(v, dtype=float)[..., None] for v in (n, delta_bleu, p0, b0))
    m1, m2, m3, m4 = _moments(n, delta_bleu, p0, b0)
    mean_s, var_s = n * m1, n * (m2 - m1**2)
    mean_q, var_q = n * m2, n * (m4 - m2**2)
    cov = n * (m3 - m1 * m2)
    z = stats.norm.isf(alpha / 2.0)
    q = np.maximum(mean_q + np.sqrt(np.maximum(var_q, 0.0)) * _GH_NODES, 1e-3 * mean_q)
    slope = np.where(var_q > 0, cov / np.where(var_q > 0, var_q, 1.0), 0.0)
    cond_mean = mean_s + slope * (q - mean_q)
    # Var(S | Q) = v Q: under the null the signs are fair coins given the
    # magnitudes, so Var(S | Q) = Q exactly (v = 1) and the test is calibrated
    # whatever the spread of Q; v matches Var(S) = v E[Q] + slope² Var(Q).
    v = np.maximum((var_s - slope * cov) / mean_q, 1e-12)
    cond_sd = np.sqrt(v * q)
    crit = z * np.sqrt(q)
    # Δ̂ = -S/2: an improvement (Δ_B > 0) is detected in the lower tail of S
    a_low = (-crit - cond_mean) / cond_sd
    a_up = (crit - cond_mean) / cond_sd
    p_low = stats.norm.cdf(a_low)
    p_up = stats.norm.sf(a_up)
    e_low = cond_mean * p_low - cond_sd * stats.norm.pdf(a_low)  # E[S ; lower tail]
    e_up = cond_mean * p_up + cond_sd * stats.norm.pdf(a_up)
    w = _GH_WEIGHTS
    return p_low @ w, p_up @ w, ((-e_low + e_up) @ w) / 2.0, ((-e_low - e_up) @ w) / 2.0


def _normal_engine(n, delta_bleu, p0, b0, alpha) -> PowerResult:
    """Normal approximation of the randomization test, integrated over Σδ² (Gauss–Hermite)."""
    prob_low, prob_up, abs_sum, signed_sum = (float(x) for x in _normal_tails(n, delta_bleu, p0, b0, alpha))
    return _result(delta_bleu, prob_low, prob_up, abs_sum, signed_sum, method="normal")


def _result(delta_bleu, prob_low, prob_up, abs_sum, signed_sum, *, method, mc=None) -> PowerResult:
    rejection = prob_low + prob_up
    mean_sig = nan_if_zero(signed_sum, rejection)
    if delta_bleu == 0:
        return PowerResult(power=rejection, type_s=math.nan, type_m=math.nan, rejection_rate=rejection,
                           method=method, mean_significant=mean_sig, **(mc or {}))
    right, wrong = (prob_low, prob_up) if delta_bleu > 0 else (prob_up, prob_low)
    return PowerResult(
        power=right,
        type_s=nan_if_zero(wrong, rejection),
        type_m=nan_if_zero(abs_sum, rejection) / abs(delta_bleu),
        rejection_rate=rejection,
        method=method,
        mean_significant=mean_sig,
        **(mc or {}),
    )


def _swap_block(rng, trials, n):
    """A ``trials × n`` float32 matrix of fair 0/1 swap indicators (eight per random byte)."""
    packed = rng.integers(0, 256, size=(trials, -(-n // 8)), dtype=np.uint8)
    return np.unpackbits(packed, axis=1, count=n).astype(np.float32)


def _randomization_engine(n, delta_bleu, p0, b0, alpha, n_sims, n_trials, seed, progress) -> PowerResult:
    """The paper's procedure: simulate effects, run the randomization test on each.

    Replicates are processed in chunks; each chunk draws its own ``n_trials × n``
    matrix of swap indicators (in blocks of at most 2²⁴ entries, 64 MB), and
    all swapped differences of the chunk come from one matrix product per
    block. p-value: (1 + #{|swapped| >= |observed|}) / (T + 1).
    """
    rng = rng_of(seed)
    chunk = max(1, min(n_sims, 4_000_000 // max(n, 1), 250))
    block = max(1, min(n_trials, _SWAP_BLOCK // max(n, 1)))
    observed = np.empty(n_sims)
    pvalues = np.empty(n_sims)
    done = 0
    while done < n_sims:
        size = min(chunk, n_sims - done)
        effects = simulate_effects(n, delta_bleu, p0, b0, size=size, seed=rng)
        obs = -0.5 * effects.sum(axis=1)
        effects32 = np.ascontiguousarray(effects.T, dtype=np.float32)
        obs32 = obs.astype(np.float32)
        # compare with a relative tolerance: float32 sums of a null that equals obs exactly
        # (swapping nothing) must count as "as extreme"
        limit = np.abs(obs32) * np.float32(1 - 1e-5)
        hits = np.zeros(size, dtype=np.int64)
        for start in range(0, n_trials, block):
            swaps = _swap_block(rng, min(block, n_trials - start), n)
            # swapped difference of trial t, replicate r: obs_r + Σ_i s_ti δ_ri
            swapped = swaps @ effects32 + obs32
            hits += np.count_nonzero(np.abs(swapped) >= limit, axis=0)
        pvalues[done:done + size] = (1.0 + hits) / (n_trials + 1.0)
        observed[done:done + size] = obs
        done += size
        if progress is not None:
            progress(done / n_sims)
    sig = pvalues <= alpha
    n_sig = int(sig.sum())
    low = sig & (observed > 0)  # improvement detected (Δ̂ > 0)
    up = sig & (observed < 0)
    prob_low, prob_up = low.mean(), up.mean()
    abs_sum = float(np.abs(observed[sig]).sum() / n_sims)
    signed_sum = float(observed[sig].sum() / n_sims)
    right = prob_low if delta_bleu >= 0 else prob_up
    power = right if delta_bleu != 0 else n_sig / n_sims
    mc = {"mc_se": math.sqrt(power * (1 - power) / n_sims), "n_sims": n_sims}
    if n_sig > 1 and delta_bleu != 0:
        ratio = np.abs(observed[sig]) / abs(delta_bleu)
        mc["type_m_se"] = float(ratio.std(ddof=1) / math.sqrt(n_sig))
        wrong_share = (prob_up if delta_bleu > 0 else prob_low) / (n_sig / n_sims)
        mc["type_s_se"] = math.sqrt(wrong_share * (1 - wrong_share) / n_sig)
    return _result(delta_bleu, float(prob_low), float(prob_up), abs_sum, signed_sum,
                   method="randomization", mc=mc)


def bleu_power(
    n,
    delta_bleu,
    p0,
    b0,
    *,
    alpha=0.05,
    method="normal",
    n_sims=2000,
    n_trials=1000,
    seed=None,
    progress: Callable[[float], None] | None = None,
) -> PowerResult:
    """Power, Type-S and Type-M error of a BLEU comparison (Card et al. 2020, §4).

    Parameters
    ----------
    n : int
        Test-set size in sentences (2 … 1,000,000).
    delta_bleu : float
        Expected BLEU difference Δ_B (new minus baseline), in BLEU points.
    p0 : float
        Share of sentences whose swap leaves the BLEU difference unchanged, in [0, 1).
    b0 : float
        Size-free Laplace scale of the non-zero swap effects (b = b0 / n), > 0.
    alpha : float, optional
        Two-sided level in (0, 0.5].
    method : {"normal", "randomization"}, optional
        Fast normal engine, or the full simulation with the randomization test.
    n_sims, n_trials : int, optional
        Replicates and randomization trials for ``method="randomization"``
        (``n × n_sims × n_trials`` at most :data:`MAX_RANDOMIZATION_WORK`,
        ``n × n_sims`` at most :data:`MAX_SIMULATED_EFFECTS`).
    seed : int or numpy.random.Generator, optional
        Seed for ``method="randomization"``.
    progress : callable, optional
        Called with the completed fraction (0–1) during long randomization runs.

    Returns
    -------
    PowerResult
        ``power`` (significant and correct sign), ``type_s``, ``type_m``,
        ``rejection_rate``, ``mc_se`` (0 for the normal engine).

    Raises
    ------
    ValueError
        On out-of-range arguments, or a randomization run larger than
        :data:`MAX_RANDOMIZATION_WORK` or :data:`MAX_SIMULATED_EFFECTS` (the
        message says what to reduce).

    Notes
    -----
    With ``S = Σ δ_i`` and ``Q = Σ δ_i²`` the randomization test rejects
    (asymptotically) when ``|S| >= z_{1-α/2} sqrt(Q)``; the normal engine takes
    ``(S, Q)`` bivariate normal with the mixture's exact moments
    (``E δ^k = (1-P0) E[Laplace(μ, b)^k]``) and integrates over ``Q``.

    References
    ----------
    Card et al. (2020), §4, Figure 4, appendix G.2, Figure 17.

    Examples
    --------
    The paper's running example (appendix G.2 / Figure 4): about 75% power at
    n = 2,000 for Δ_B = 1 with P0 = 0.13, b0 = 25.8.

    >>> round(bleu_power(2000, 1.0, 0.13, 25.8).power, 2)
    0.75
    """
    n, delta_bleu, p0, b0, alpha = _validate(n, delta_bleu, p0, b0, alpha)
    method = check_choice("method", method, METHODS)
    if method == "normal":
        return _normal_engine(n, delta_bleu, p0, b0, alpha)
    n_sims = check_int("n_sims", n_sims, low=50, high=200_000)
    n_trials = check_int("n_trials", n_trials, low=99, high=100_000)
    if n_trials + 1 < 1 / alpha:
        raise ValueError(f"`n_trials` must be at least {math.ceil(1 / alpha) - 1} so that p <= alpha is possible.")
    if n * n_sims > MAX_SIMULATED_EFFECTS:
        raise ValueError(
            f"The randomization engine would draw {n * n_sims:.3g} swap effects (`n` × `n_sims` = {n:,} × "
            f"{n_sims:,}); at most {MAX_SIMULATED_EFFECTS:.3g} are drawn (a few seconds). Reduce `n_sims` to at most "
            f"{max(MAX_SIMULATED_EFFECTS // n, 1):,} or `n`, or use `method` 'normal' (instant, within Monte Carlo "
            "error of this engine).")
    work = n * n_sims * n_trials
    if work > MAX_RANDOMIZATION_WORK:
        fewer_sims = MAX_RANDOMIZATION_WORK // (n * n_trials)
        fewer_trials = MAX_RANDOMIZATION_WORK // (n * n_sims)
        options = []
        if fewer_sims >= 50:
            options.append(f"`n_sims` to at most {fewer_sims:,}")
        if fewer_trials >= max(99, math.ceil(1 / alpha) - 1):
            options.append(f"`n_trials` to at most {fewer_trials:,}")
        options.append("`n`")
        raise ValueError(
            f"The randomization engine would sum {work:.3g} swap effects (`n` × `n_sims` × `n_trials` = {n:,} × "
            f"{n_sims:,} × {n_trials:,}); at most {MAX_RANDOMIZATION_WORK:.3g} are run (a few seconds). Reduce "
            + " or ".join(options) + ", or use `method` 'normal' (instant, within Monte Carlo error of this engine).")
    return _randomization_engine(n, delta_bleu, p0, b0, alpha, n_sims, n_trials, seed, progress)


def bleu_mde(n, p0, b0, *, target_power=0.8, alpha=0.05) -> float:
    """Smallest Δ_B (BLEU points) detected with ``target_power`` (normal engine).

    Examples
    --------
    >>> round(bleu_mde(2000, 0.13, 25.8), 2)
    1.07
    """
    n, _, p0, b0, alpha = _validate(n, 0.0, p0, b0, alpha)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)

    def gap(delta):
        return _normal_engine(n, delta, p0, b0, alpha).power - target_power

    hi = 1.0
    while gap(hi) < 0:
        if hi >= 100:  # the engine's range ends at a 100-point difference
            return math.nan
        hi = min(2 * hi, 100.0)
    return float(optimize.brentq(gap, 1e-9, hi, xtol=1e-8))


def bleu_sample_size(delta_bleu, p0, b0, *, target_power=0.8, alpha=0.05, n_max=_N_MAX) -> int:
    """Smallest test set (sentences) reaching ``target_power`` (normal engine); ``-1`` if > ``n_max``.

    Examples
    --------
    >>> bleu_sample_size(1.0, 0.13, 25.8)
    2276
    """
    _, delta_bleu, p0, b0, alpha = _validate(2, delta_bleu, p0, b0, alpha)
    target_power = check_real("target_power", target_power, low=0.0, high=1.0, low_open=True, high_open=True)
    n_max = check_int("n_max", n_max, low=3, high=_N_MAX)
    if delta_bleu == 0:
        raise ValueError("`delta_bleu` must be non-zero to size a study, got 0.")

    def power(n):
        return _normal_engine(int(n), delta_bleu, p0, b0, alpha).power

    if power(n_max) < target_power:
        return -1
    lo, hi = 2, n_max
    if power(lo) >= target_power:
        return lo
    # power is increasing in n for this engine
    return smallest_reaching(lambda n: power(n) >= target_power, lo, hi)


def bleu_assurance(n, delta_mean, delta_sd, p0, b0, *, alpha=0.05):
    """Assurance of a BLEU comparison: power averaged over a normal prior on Δ_B.

    Parameters
    ----------
    n : int
        Test-set size (sentences, 2 … 1,000,000).
    delta_mean, delta_sd : float
        Prior N(μ, τ²) on the true BLEU difference Δ_B (new minus baseline,
        BLEU points); τ = 0 gives the power at μ (at μ = 0: the positive
        direction's half of the false-positive rate). The prior is truncated to
        the engine's range [−100, 100].
    p0, b0 : float
        The swap-effect model of §4 (share of zero effects, Laplace scale × n).
    alpha : float, optional
        Two-sided level of the paired randomization test.

    Returns
    -------
    core.assurance.AssuranceResult
        ``.assurance`` (P(significant with the hoped-for sign), averaged over
        the prior), ``.ceiling`` (the prior probability of that sign: the
        limit as n grows) and ``.power_at_mean``.

    Notes
    -----
    The normal engine of :func:`bleu_power` gives, at every quadrature node Δ,
    P(significant, Δ̂ > 0 | Δ) and P(significant, Δ̂ < 0 | Δ); the assurance is
    ∫ P(significant, sign(Δ̂) = sign(μ) | Δ) φ((Δ − μ)/τ)/τ dΔ (O'Hagan et al.
    2005, eq. 1) by composite Gauss–Legendre quadrature
    (:func:`core.assurance.assurance`). The quadrature resolves the standard
    error of Δ̂, b0·√((1 − P0)/(2n)).

    References
    ----------
    O'Hagan, Stevens & Campbell (2005), "Assurance in clinical trial design",
    Pharmaceutical Statistics 4:187–201; Card et al. (2020), §4.

    Examples
    --------
    >>> r = bleu_assurance(2000, 1.0, 0.0, 0.13, 25.8)  # τ = 0: the power at μ
    >>> round(r.assurance, 3) == round(bleu_power(2000, 1.0, 0.13, 25.8).power, 3)
    True
    >>> round(bleu_assurance(2000, 1.0, 1.0, 0.13, 25.8).ceiling, 3)  # P(Δ_B > 0) = Φ(1)
    0.841
    """
    from ..assurance import assurance

    check_real("delta_mean", delta_mean, low=-100.0, high=100.0)  # named as the caller wrote it
    n, mu, p0, b0, alpha = _validate(n, delta_mean, p0, b0, alpha)
    tau = check_real("delta_sd", delta_sd, low=0.0, high=100.0)

    def directional(deltas):
        deltas = np.asarray(deltas, dtype=float)
        shape = np.broadcast_to
        prob_low, prob_up, _, _ = _normal_tails(shape(n, deltas.shape), deltas, shape(p0, deltas.shape),
                                                shape(b0, deltas.shape), alpha)
        return prob_low, prob_up  # an improvement (Δ̂ > 0) is the lower tail of the swap sum

    power = _normal_engine(n, mu, p0, b0, alpha).power
    se = b0 * math.sqrt((1.0 - p0) / (2.0 * n))
    return assurance(directional, prior_mean=mu, prior_sd=tau, power_at_mean=power, scale=se, low=-100.0,
                     high=100.0)


@dataclass(frozen=True)
class BleuDesign(Design):
    """A BLEU comparison on one test set (Card et al. 2020, §4): the MT page's one design.

    Every input of the page is a declared field (:mod:`core.design`) with the page's URL key, its default, the
    engine's valid range (the widgets show a narrower ``ui_low``/``ui_high``), step, unit, label and help; the
    methods are this module's functions for the design. Frozen and compared by value, so it is a cache key.

    Attributes
    ----------
    delta_bleu : float
        Expected corpus-BLEU gain Δ_B of the new system (URL key ``delta``), in [−100, 100] BLEU points.
    p0 : float
        Share of sentences whose swap leaves the BLEU difference unchanged, in [0, 1).
    b0 : float
        Laplace scale of the non-zero swap effects times n, in (0, 10,000].
    alpha : float
        Two-sided level, in (0, 0.5].
    n : int
        Test-set size in sentences (2 … 1,000,000); the methods use it when no ``n`` is given.
    n_trials : int
        Randomization trials per simulated test (URL key ``trials``), for ``method="randomization"``.

    Examples
    --------
    >>> d = BleuDesign(1.0, 0.13, 25.8)
    >>> d.power(2000) == bleu_power(2000, 1.0, 0.13, 25.8)
    True
    >>> round(d.power(2000).power, 2)  # §4 / Figure 4: ≈ 75%
    0.75
    >>> BleuDesign.from_params({"delta": "2", "n": "3000"}).to_params()["n"]
    '3000'
    """

    delta_bleu: float = spec(
        1.0, low=-100.0, high=100.0, ui_low=-10.0, ui_high=10.0, step=0.05, unit="BLEU", key="delta",
        label="Expected BLEU difference Δ_B",
        help="New system minus baseline, in BLEU points. Typical claimed gains are 0.5–2 points.")
    p0: float = spec(
        0.13, low=0.0, high=1.0, high_open=True, ui_high=0.9, step=0.01, unit="", key="p0",
        label="P0: share of sentences whose swap changes nothing",
        help="Sentences where both systems' outputs contribute identically (often identical outputs). "
        "Table 3: 0.09–0.19.")
    b0: float = spec(
        25.8, low=0.0, low_open=True, high=10_000.0, ui_low=5.0, ui_high=100.0, step=0.1, unit="", key="b0",
        label="b0: spread of the swap effects",
        help="Laplace scale of the non-zero swap effects times n (b = b0/n). Larger means noisier sentence-level "
        "differences. Table 3: 22.5–29.4.")
    alpha: float = spec(0.05, low=0.0, low_open=True, high=0.5, ui_low=0.001, unit="", key="alpha",
                        label="Significance level α (two-sided)", help="Reject 'no difference' when p ≤ α.")
    n: int = spec(2000, low=2, high=_N_MAX, step=10, unit="sentences", key="n", label="Test-set size n (sentences)",
                  help="Log-spaced steps from 100 to 20,000 sentences. WMT test sets have 2,000–3,000.")
    n_trials: int = spec(999, low=99, high=100_000, unit="trials", key="trials",
                         label="Randomization trials per test",
                         help="Swapped subsets per test; p = (1 + #as extreme)/(trials + 1).")

    def power(self, n=None, *, method="normal", **options) -> PowerResult:
        """:func:`bleu_power` at ``n`` sentences (default: the design's ``n``; ``options``: ``n_sims``, ``seed``,
        ``progress``, ``n_trials`` — default the design's — for ``method="randomization"``)."""
        if method == "randomization":
            options.setdefault("n_trials", self.n_trials)
        return bleu_power(self.n if n is None else n, self.delta_bleu, self.p0, self.b0, alpha=self.alpha,
                          method=method, **options)

    def mde(self, n=None, *, target_power=0.8) -> float:
        """:func:`bleu_mde` at ``n`` sentences (default: the design's ``n``)."""
        return bleu_mde(self.n if n is None else n, self.p0, self.b0, target_power=target_power, alpha=self.alpha)

    def sample_size(self, *, target_power=0.8) -> int:
        """:func:`bleu_sample_size` for this design (``-1`` beyond 1,000,000 sentences)."""
        return bleu_sample_size(self.delta_bleu, self.p0, self.b0, target_power=target_power, alpha=self.alpha)

    def sample_sizes(self, target_power=0.8) -> SampleSize:
        """:meth:`sample_size` as a :class:`~core.sizing.SampleSize`: the normal engine's power increases with n
        where the approximation holds (n·(1 − P0) ≳ 75 sentences change BLEU), so the first size reaching
        ``target_power`` is the size; below that the MT page says to check it with the randomization test."""
        first = self.sample_size(target_power=target_power)
        return SampleSize(first, first)

    def assurance(self, n=None, delta_sd=0.0, *, delta_mean=None):
        """:func:`bleu_assurance` at ``n`` with a normal prior N(``delta_mean``, ``delta_sd``²) on Δ_B
        (``delta_mean`` defaults to the design's Δ_B, ``n`` to its size)."""
        mean = self.delta_bleu if delta_mean is None else delta_mean
        return bleu_assurance(self.n if n is None else n, mean, delta_sd, self.p0, self.b0, alpha=self.alpha)

    def curves(self, ns: Sequence[int], deltas: Sequence[float] | None = None, *, p0s=None, b0s=None) -> pd.DataFrame:
        """:func:`power_grid` over ``ns`` (and Δ_B, P0, b0 values; each defaults to the design's)."""
        return power_grid(ns, [self.delta_bleu] if deltas is None else deltas,
                          [self.p0] if p0s is None else p0s, [self.b0] if b0s is None else b0s, alpha=self.alpha)


def power_grid(ns: Sequence[int], deltas: Sequence[float], p0s: Sequence[float], b0s: Sequence[float], *,
               alpha=0.05) -> pd.DataFrame:
    """Normal-engine power, Type-S and Type-M on a grid (Figures 4 and 17).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``n, delta_bleu, p0, b0, power, type_s, type_m, rejection_rate``.
    """
    alpha = check_alpha(alpha)
    for value in ns:
        check_int("n", value, low=2, high=_N_MAX)
    grid = np.array(np.meshgrid(np.asarray(ns, float), np.asarray(deltas, float), np.asarray(p0s, float),
                                np.asarray(b0s, float), indexing="ij")).reshape(4, -1)
    for name, values, low, high in (("delta_bleu", grid[1], -100, 100), ("p0", grid[2], 0, 0.999999),
                                    ("b0", grid[3], 1e-9, 10_000)):
        if not np.all(np.isfinite(values)) or np.any(values < low) or np.any(values > high):
            raise ValueError(f"`{name}` values must be finite and lie in [{low:g}, {high:g}].")
    prob_low, prob_up, abs_sum, _ = _normal_tails(*grid, alpha)
    delta = grid[1]
    rejection = prob_low + prob_up
    right = np.where(delta > 0, prob_low, prob_up)
    wrong = rejection - right
    with np.errstate(divide="ignore", invalid="ignore"):
        type_s = np.where((delta != 0) & (rejection > 0), wrong / rejection, np.nan)
        type_m = np.where((delta != 0) & (rejection > 0), abs_sum / rejection / np.abs(delta), np.nan)
    power = np.where(delta != 0, right, rejection)
    frame = pd.DataFrame({"n": grid[0].astype(int), "delta_bleu": delta, "p0": grid[2], "b0": grid[3],
                          "power": power, "type_s": type_s, "type_m": type_m, "rejection_rate": rejection})
    return frame.sort_values(["p0", "b0", "delta_bleu", "n"], kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------------------
# fitting swap effects from real outputs (appendix G.1)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SwapFit:
    """Swap effects of two systems' outputs and the fitted Delta–Laplace parameters.

    Attributes
    ----------
    p0 : float
        Share of segments whose single swap leaves the BLEU difference unchanged.
    b0 : float
        ``b × n`` with ``b`` the maximum-likelihood Laplace scale of the non-zero effects.
    b : float
        The Laplace scale itself.
    location : float
        Maximum-likelihood Laplace location (median) of the non-zero effects.
    delta_bleu : float
        Observed corpus BLEU of A minus corpus BLEU of B.
    bleu_a, bleu_b : float
        Corpus BLEU of each system (sacrebleu defaults).
    effects : ndarray
        ``δ_i``: change in BLEU(A) − BLEU(B) when segment i alone is swapped.
    n : int
        Number of segments.
    """

    p0: float
    b0: float
    b: float
    location: float
    delta_bleu: float
    bleu_a: float
    bleu_b: float
    effects: np.ndarray
    n: int
    #: sacrebleu's per-segment statistics of A and B (reused by :func:`additivity_check`).
    segment_stats: tuple | None = field(default=None, repr=False, compare=False)


def fit_effects(effects, *, zero_tol: float = 1e-9) -> tuple[float, float, float]:
    """Fit the Delta–Laplace mixture to swap effects.

    Returns
    -------
    (p0, b0, location)
        ``p0`` = share of |δ| <= ``zero_tol``; Laplace maximum likelihood on the
        rest: location = median, scale b = mean |δ - median|; ``b0 = b n``.
    """
    effects = np.asarray(effects, dtype=float)
    if effects.ndim != 1 or effects.size < 2:
        raise ValueError("`effects` must be a 1-D array of at least 2 swap effects.")
    if not np.all(np.isfinite(effects)):
        raise ValueError("`effects` must be finite numbers.")
    n = effects.size
    nonzero = effects[np.abs(effects) > zero_tol]
    p0 = 1.0 - nonzero.size / n
    if nonzero.size < 2:
        raise ValueError("Fewer than 2 non-zero swap effects: the two systems' outputs are (almost) identical.")
    location = float(np.median(nonzero))
    b = float(np.mean(np.abs(nonzero - location)))
    return p0, b * n, location


def _bleu():
    from sacrebleu.metrics import BLEU

    return BLEU()


def _segment_stats(bleu, hyps: Sequence[str], refs: Sequence[str] | None) -> np.ndarray:
    """sacrebleu's per-segment sufficient statistics: [sys_len, ref_len, correct_1..4, total_1..4].

    ``refs=None`` reuses the references cached on ``bleu`` (:func:`_cache_refs`).
    """
    return np.asarray(bleu._extract_corpus_statistics(list(hyps), None if refs is None else [list(refs)]),
                      dtype=np.int64)


def _cache_refs(bleu, refs: Sequence[str]) -> None:
    """Tokenize and count the references once for both systems (sacrebleu's own reference cache)."""
    bleu._ref_cache = bleu._cache_references([list(refs)])


def _score(bleu, stats_row: np.ndarray) -> float:
    return float(bleu._compute_score_from_stats(stats_row.tolist()).score)


def fit_swap_effects(hyp_a: Sequence[str], hyp_b: Sequence[str], refs: Sequence[str]) -> SwapFit:
    """Swap effects δ_i of two systems on corpus BLEU, and P0, b0, Δ_B fitted from them.

    Parameters
    ----------
    hyp_a, hyp_b : sequence of str
        The two systems' outputs, one segment each.
    refs : sequence of str
        References, aligned with the outputs.

    Returns
    -------
    SwapFit
        ``.p0``, ``.b0``, ``.delta_bleu``, ``.effects`` and more.

    Notes
    -----
    Corpus BLEU depends on the data only through summed per-segment
    statistics (n-gram matches and totals, lengths). Swapping segment i
    replaces its row in each system's sum, so each of the n swaps costs O(1)
    given the sums — O(n) in all, not n corpus recomputations. Scores use
    sacrebleu's default BLEU (13a tokenization, exponential smoothing).

    References
    ----------
    Card et al. (2020), §4 and appendix G.1 (Figure 16); Post (2018), sacrebleu.
    """
    texts = {}
    for name, value in (("hyp_a", hyp_a), ("hyp_b", hyp_b), ("refs", refs)):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise ValueError(f"`{name}` must be a list of segments (strings), got {type(value).__name__}.")
        texts[name] = list(value)
        if not all(isinstance(t, str) for t in texts[name]):
            raise ValueError(f"`{name}` must hold strings (one translated segment each).")
    hyp_a, hyp_b, refs = texts["hyp_a"], texts["hyp_b"], texts["refs"]
    if not (len(hyp_a) == len(hyp_b) == len(refs)):
        raise ValueError(
            f"`hyp_a`, `hyp_b` and `refs` must have the same number of segments, got "
            f"{len(hyp_a):,}, {len(hyp_b):,} and {len(refs):,}."
        )
    n = len(refs)
    if n < 2:
        raise ValueError("`refs` must contain at least 2 segments.")
    if n > MAX_SEGMENTS:
        raise ValueError(f"`refs` may contain at most {MAX_SEGMENTS:,} segments, got {n:,}.")
    bleu = _bleu()
    _cache_refs(bleu, refs)
    stats_a = _segment_stats(bleu, hyp_a, None)
    stats_b = _segment_stats(bleu, hyp_b, None)
    total_a, total_b = stats_a.sum(axis=0), stats_b.sum(axis=0)
    bleu_a, bleu_b = _score(bleu, total_a), _score(bleu, total_b)
    delta = bleu_a - bleu_b
    swapped_a = total_a - stats_a + stats_b  # row i: A with segment i taken from B
    swapped_b = total_b - stats_b + stats_a
    effects = np.fromiter(
        (_score(bleu, ra) - _score(bleu, rb) - delta for ra, rb in zip(swapped_a, swapped_b)),
        dtype=float, count=n,
    )
    # identical segments swap to exactly the same statistics: make their effect exactly zero
    effects[np.all(stats_a == stats_b, axis=1)] = 0.0
    p0, b0, location = fit_effects(effects)
    return SwapFit(p0=p0, b0=b0, b=b0 / n, location=location, delta_bleu=delta, bleu_a=bleu_a, bleu_b=bleu_b,
                   effects=effects, n=n, segment_stats=(stats_a, stats_b))


@dataclass(frozen=True)
class AdditivityCheck:
    """Appendix G.1 / Figure 15: sum of single-swap effects vs the effect of swapping the subset.

    Attributes
    ----------
    sum_of_effects, actual : ndarray
        Σ_{i∈S} δ_i and R_B(S) − Δ_B for each random subset S.
    correlation : float
        Pearson correlation of the two.
    rmse : float
        Root mean square difference, in BLEU points.
    """

    sum_of_effects: np.ndarray
    actual: np.ndarray
    correlation: float
    rmse: float


def additivity_check(hyp_a, hyp_b, refs, *, n_subsets=200, seed=None, fit: SwapFit | None = None) -> AdditivityCheck:
    """Check the paper's additivity claim on real outputs (appendix G.1, Figure 15).

    Draws ``n_subsets`` random subsets (each segment with probability ½),
    swaps them for real (via the summed sufficient statistics) and compares
    the change in the BLEU difference with the sum of single-swap effects.
    """
    n_subsets = check_int("n_subsets", n_subsets, low=2, high=100_000)
    fit = fit or fit_swap_effects(hyp_a, hyp_b, refs)
    bleu = _bleu()
    if fit.segment_stats is not None and fit.n == len(refs):
        stats_a, stats_b = fit.segment_stats
    else:
        _cache_refs(bleu, refs)
        stats_a = _segment_stats(bleu, hyp_a, None)
        stats_b = _segment_stats(bleu, hyp_b, None)
    rng = rng_of(seed)
    masks = rng.random((n_subsets, fit.n)) < 0.5
    diff = stats_b - stats_a
    swapped_a = stats_a.sum(axis=0) + masks.astype(np.int64) @ diff
    swapped_b = stats_b.sum(axis=0) - masks.astype(np.int64) @ diff
    actual = np.array([_score(bleu, ra) - _score(bleu, rb) for ra, rb in zip(swapped_a, swapped_b)]) - fit.delta_bleu
    summed = masks.astype(float) @ fit.effects
    corr = float(np.corrcoef(summed, actual)[0, 1]) if np.std(summed) > 0 and np.std(actual) > 0 else math.nan
    rmse = float(np.sqrt(np.mean((summed - actual) ** 2)))
    return AdditivityCheck(sum_of_effects=summed, actual=actual, correlation=corr, rmse=rmse)


# ---------------------------------------------------------------------------
# defensive parsing of uploads (bytes in, lists of str out; nothing is executed)
# ---------------------------------------------------------------------------
def _lines(name: str, data: bytes, *, header: int = 0) -> list[str]:
    """Lines of an upload; more than :data:`MAX_SEGMENTS` segments (+ ``header`` lines) are refused up front."""
    lines = uploads.text_lines(data, name=f"`{name}`", max_lines=uploads.MAX_ROWS)
    if len(lines) > MAX_SEGMENTS + header:
        raise ValueError(f"`{name}` has {len(lines) - header:,} segments; at most {MAX_SEGMENTS:,} are supported "
                         "(BLEU's segment statistics cost some 0.1 ms each). Upload a random sample of the segments "
                         "(the same lines of each file): P0 and b0 are estimated well from a few thousand.")
    return lines


def read_parallel_texts(hyp_a: bytes, hyp_b: bytes, refs: bytes) -> tuple[list[str], list[str], list[str]]:
    """Three plain-text files, one segment per line, aligned by line.

    Raises
    ------
    ValueError
        If a file is empty, binary, not UTF-8, too long, or the line counts differ.
    """
    a, b, r = _lines("hyp_a", hyp_a), _lines("hyp_b", hyp_b), _lines("refs", refs)
    if not (len(a) == len(b) == len(r)):
        raise ValueError(
            f"The files must have the same number of lines: system A has {len(a):,}, system B {len(b):,}, "
            f"references {len(r):,}."
        )
    return a, b, r


def read_tsv(data: bytes) -> tuple[list[str], list[str], list[str]]:
    """A tab-separated file with three columns: system A, system B, reference.

    A first line ``hyp_a\\thyp_b\\tref`` (any capitalisation) is taken as a header.
    """
    lines = _lines("tsv", data, header=1)
    rows = []
    for number, line in enumerate(lines, start=1):
        cells = line.split("\t")
        if len(cells) != 3:
            raise ValueError(f"`tsv` line {number:,} has {len(cells)} tab-separated columns; expected 3 "
                             "(system A, system B, reference).")
        rows.append(cells)
    header = [c.strip().lower() for c in rows[0]]
    if header in (["hyp_a", "hyp_b", "ref"], ["hyp_a", "hyp_b", "refs"], ["a", "b", "ref"],
                  ["system_a", "system_b", "reference"]):
        rows = rows[1:]
    if len(rows) > MAX_SEGMENTS:
        _lines("tsv", data)  # the message of too many segments
    if len(rows) < 2:
        raise ValueError("`tsv` must contain at least 2 segments.")
    a, b, r = (list(col) for col in zip(*rows))
    return a, b, r


"""Labels per item vs more items: is a majority of k annotators worth it? (Dorner & Hardt 2024).

Two binary classifiers A and B are compared on n test items by McNemar's test against **noisy** reference labels.
Each annotator flips the true label with probability ε (symmetric error, independently across annotators and items);
the reference is the majority of k annotators (k odd), wrong with probability

    e_k = P(Binomial(k, ε) > k/2).

**How label noise maps the discordant cells.** The predictions of A and B are fixed; only the reference label is
flipped, with probability e_k, independently of everything else. For binary labels a flipped reference turns every
correct prediction wrong and every wrong one correct, so both classifiers' correctness flips together: an item where
only A was right (probability p10 under the true labels) becomes one where only B is right, and vice versa, while
concordant items stay concordant. Hence

    p̃10 = (1 − e)·p10 + e·p01,   p̃01 = (1 − e)·p01 + e·p10,

the discordance ψ = p10 + p01 is unchanged and the gap shrinks to Δ̃ = p̃10 − p̃01 = (1 − 2e)·Δ
(the attenuation of the observed accuracy difference by label noise that Dorner & Hardt 2024 build on).

**Items needed.** Connor's (1987) sample size for McNemar's test at the noisy cells,

    n = (z_{1−α/2}·√ψ + z_{power}·√(ψ − Δ̃²))² / Δ̃²,

rounded up (the same normal approximation :func:`core.accuracy.mcnemar_sample_size` uses as its starting point; with
``test="normal"`` that engine's answer equals it). A design with k labels per item costs n_k·(c_item + k·c_label).

**From a pilot κ to ε.** Two annotators with symmetric error ε agree with probability P_o = ε² + (1 − ε)², so
2P_o − 1 = (1 − 2ε)² and ε = (1 − √(2P_o − 1))/2. Cohen's κ = (P_o − P_e)/(1 − P_e) with chance agreement
P_e = π′² + (1 − π′)², π′ the share of positive labels the annotators give (the observed prevalence), so
P_o = κ(1 − P_e) + P_e (:func:`annotator_error`). The true prevalence is π = (π′ − ε)/(1 − 2ε); at π′ = ½ the two
coincide.

References
----------
Dorner, F. E. & Hardt, M. (2024). "Don't Label Twice: Quantity Beats Quality when Comparing Binary Classifiers on a
Budget." ICML (PMLR 235) — noisy majority labels attenuate the gap by 1 − 2e_k; at a fixed budget one label
per item beats majority votes unless items themselves are costly).

Connor, R. J. (1987). "Sample size for testing differences in proportions for the paired-sample design."
Biometrics 43, 207–211.

Cohen, J. (1960). "A coefficient of agreement for nominal scales." Educational and Psychological Measurement 20, 37–46.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
from scipy import stats

from core.validation import check_alpha, check_int, check_real
from core.teaser import Teaser

__all__ = ["LabelsPlan", "annotator_error", "majority_error", "noisy_cells", "connor_sample_size",
           "labels_per_item", "labels_teaser"]

MAX_LABELS = 99


def _check_prevalence(prevalence):
    return check_real("prevalence", prevalence, low=0.0, high=1.0, low_open=True, high_open=True)


def annotator_error(kappa, prevalence=0.5) -> float:
    """Symmetric per-annotator error ε implied by a pilot's Cohen's κ between two annotators.

    P_e = π′² + (1 − π′)², P_o = κ(1 − P_e) + P_e, ε = (1 − √(2P_o − 1))/2.

    Parameters
    ----------
    kappa : float
        Cohen's κ of two annotators in the pilot, in [0, 1].
    prevalence : float, optional
        π′, the share of positive labels the annotators give (the observed prevalence), in (0, 1). The true
        prevalence is (π′ − ε)/(1 − 2ε); at the default ½ both are ½.

    Returns
    -------
    float
        ε in [0, min(π′, 1 − π′)] (κ = 0 gives the largest error the prevalence allows, κ = 1 gives 0).

    Examples
    --------
    >>> round(annotator_error(0.6), 4)
    0.1127
    """
    kappa = check_real("kappa", kappa, low=0.0, high=1.0)
    prev = _check_prevalence(prevalence)
    p_e = prev**2 + (1 - prev) ** 2
    p_o = kappa * (1 - p_e) + p_e
    return float((1 - math.sqrt(max(2 * p_o - 1, 0.0))) / 2)


def majority_error(error, k) -> float:
    """e_k = P(Binomial(k, ε) > k/2): the error of a majority of k (odd) annotators each wrong with probability ε."""
    error = check_real("error", error, low=0.0, high=0.5)
    k = check_int("k", k, low=1, high=MAX_LABELS)
    if k % 2 == 0:
        raise ValueError(f"`k` must be odd (a majority without ties), got {k}.")
    return float(stats.binom.sf((k - 1) // 2, k, error))


def noisy_cells(p10, p01, error) -> tuple[float, float]:
    """(p̃10, p̃01): the discordant cells of the correctness table against references flipped with probability e."""
    p10, p01 = _check_cells(p10, p01)
    e = check_real("error", error, low=0.0, high=0.5)
    return (1 - e) * p10 + e * p01, (1 - e) * p01 + e * p10


def _check_cells(p10, p01):
    p10 = check_real("p10", p10, low=0.0, high=1.0)
    p01 = check_real("p01", p01, low=0.0, high=1.0)
    if p10 + p01 > 1 + 1e-12:
        raise ValueError(f"`p10` + `p01` must be at most 1, got {p10 + p01:g}.")
    return p10, p01


def connor_sample_size(p10, p01, *, alpha=0.05, target_power=0.8) -> float:
    """Connor (1987)'s items for McNemar's test, unrounded: (z_{1−α/2}√ψ + z_β√(ψ − Δ²))²/Δ² (inf when Δ = 0)."""
    p10, p01 = _check_cells(p10, p01)
    alpha = check_alpha(alpha)
    # at or below α "power" is met by a coin: Connor's formula then asks for more items to get less power
    target_power = check_real("target_power", target_power, low=alpha, high=1.0, low_open=True, high_open=True)
    psi, delta = p10 + p01, p10 - p01
    if abs(delta) < 1e-15:
        return math.inf
    z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.ppf(target_power)
    return (z_a * math.sqrt(psi) + z_b * math.sqrt(max(psi - delta**2, 0.0))) ** 2 / delta**2


@dataclass(frozen=True)
class LabelsPlan:
    """Labels per item against more items (:func:`labels_per_item`).

    Attributes
    ----------
    best : int
        The cheapest number of labels per item (odd; the fewest labels among equally cheap designs).
    table : DataFrame
        One row per odd k ≤ ``max_labels``: ``labels`` (k), ``error`` (e_k), ``items`` (n_k, Connor), ``cost``
        (n_k·(c_item + k·c_label)), and ``gap`` (the attenuated gap (1 − 2e_k)Δ).
    annotator_error : float
        ε from the pilot κ (:func:`annotator_error`).
    break_even_cost_item : float
        The item cost at which 3 labels per item cost as much as 1: c_label·(3n_3 − n_1)/(n_1 − n_3); above it
        k = 3 is cheaper (0 when k = 3 is cheaper even for free items, inf when three labels need as many items as
        one — noiseless labels, or noise too small to change the item count).
    """

    best: int
    table: pd.DataFrame
    annotator_error: float
    break_even_cost_item: float


def labels_per_item(p10, p01, *, kappa, prevalence=0.5, cost_item=0.0, cost_label=1.0, alpha=0.05,
                    target_power=0.8, max_labels=7) -> LabelsPlan:
    """How many annotators per test item minimise the cost of a McNemar comparison (Dorner & Hardt 2024).

    Parameters
    ----------
    p10, p01 : float
        Under the **true** labels: P(only A is right) and P(only B is right), p10 ≠ p01.
    kappa, prevalence
        A pilot's Cohen's κ between two annotators and their observed prevalence (:func:`annotator_error`).
    cost_item : float, optional
        Cost of an item itself (collecting it, running both classifiers), ≥ 0.
    cost_label : float, optional
        Cost of one human label, > 0.
    alpha, target_power : float, optional
        Two-sided level and the power to reach (Connor's formula).
    max_labels : int, optional
        Largest k considered (odd k = 1, 3, …, ≤ max_labels; at most 99).

    Returns
    -------
    LabelsPlan

    Examples
    --------
    >>> plan = labels_per_item(0.08, 0.04, kappa=0.6)
    >>> plan.best, plan.table["items"].tolist()[:2]
    (1, [979, 679])
    """
    p10, p01 = _check_cells(p10, p01)
    if p10 == p01:
        raise ValueError("`p10` and `p01` must differ: with no gap there is nothing to detect.")
    eps = annotator_error(kappa, prevalence)
    cost_item = check_real("cost_item", cost_item, low=0.0)
    cost_label = check_real("cost_label", cost_label, low=0.0, low_open=True)
    alpha = check_alpha(alpha)
    target_power = check_real("target_power", target_power, low=alpha, high=1.0, low_open=True, high_open=True)
    max_labels = check_int("max_labels", max_labels, low=1, high=MAX_LABELS)
    if eps >= 0.5 - 1e-12 or kappa <= 0:
        # κ = 0 under symmetric errors: ε = ½, or (at another observed prevalence) a constant true label; either
        # way two annotators' agreement says nothing about the true labels
        raise ValueError("`kappa` must be above 0: annotators who agree no more than chance carry no information "
                         "about the true labels.")
    rows = []
    for k in range(1, max_labels + 1, 2):
        e = majority_error(eps, k)
        q10, q01 = noisy_cells(p10, p01, e)
        items = connor_sample_size(q10, q01, alpha=alpha, target_power=target_power)
        if not math.isfinite(items):
            raise ValueError("`p10` and `p01` differ by too little to detect (less than 10⁻¹⁵).")
        n = math.ceil(items * (1 - 1e-12))
        rows.append((k, e, n, n * (cost_item + k * cost_label), q10 - q01))
    table = pd.DataFrame(rows, columns=["labels", "error", "items", "cost", "gap"])
    best = int(table.loc[table["cost"].idxmin(), "labels"])  # idxmin: the first (fewest labels) among ties
    if max_labels >= 3:
        n1, n3 = int(table["items"].iloc[0]), int(table["items"].iloc[1])
        if n1 <= n3:
            even = math.inf
        else:
            even = max(0.0, cost_label * (3 * n3 - n1) / (n1 - n3))
    else:
        even = math.nan
    return LabelsPlan(best, table, eps, even)


def labels_teaser(*, p10=0.08, p01=0.04, kappa=0.6):
    """Home card: the cheapest labels per item at the tab's defaults (one label when items are free).

    Examples
    --------
    >>> labels_teaser().shown
    '1'
    """
    plan = labels_per_item(p10, p01, kappa=kappa)
    return Teaser("judge", f"Annotators at κ = {kappa:g}: {plan.best} label{'s' if plan.best > 1 else ''} per item "
                  f"beats majority votes unless an item costs more than {plan.break_even_cost_item:.2f}× a label.",
                  "Labels per item", float(plan.best), f"{plan.best}")

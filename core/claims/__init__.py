"""The Claims page's scenario: gains claimed on several benchmarks at once, each tested with McNemar's test in its
normal form (:func:`core.accuracy.mcnemar_power`), corrected together by :mod:`core.multiplicity`.

The engine (:mod:`core.multiplicity`) knows nothing of accuracies; this module holds the page's design, its
table's link text and the per-benchmark powers, so the engine imports no scenario.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import unquote

import numpy as np

from ..accuracy import mcnemar_power
from ..design import Design, spec
from ..multiplicity import ClaimFamily, FamilyPower, family_power, family_sample_size
from ..validation import check_choice, check_int, check_real

__all__ = ["CORRECTION_ORDER", "ALPHAS", "MAX_CLAIMS", "DEFAULT_CLAIMS", "encode_claims", "decode_claims", "ClaimsDesign"]


# ---------------------------------------------------------------------------
# the Claims page's design
# ---------------------------------------------------------------------------
#: The corrections in the order the Claims page lists them.
CORRECTION_ORDER = ("none", "bonferroni", "holm", "bh")
#: The family-wise levels offered (two-sided).
ALPHAS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1)
#: Most benchmarks in a table.
MAX_CLAIMS = 100
#: Five common benchmarks with their test-set sizes (items), an expected gain (pp) and an agreement rate (%).
DEFAULT_CLAIMS = (("GSM8K", 1319, 2.0, 90.0), ("HumanEval", 164, 3.0, 85.0), ("MMLU", 14042, 1.0, 92.0),
                  ("ARC-Challenge", 1172, 2.0, 90.0), ("HellaSwag", 10042, 1.0, 95.0))
_N_RANGE = (10, 10_000_000)
_GAIN_MAX = 50.0


def _claim_number(value: float, exact: bool) -> str:
    text = f"{value:g}"
    return text if not exact or float(text) == value else repr(float(value))


def encode_claims(rows, *, exact: bool = False) -> str:
    """A table of claims as link text: ``name:n:gain:agreement`` rows joined by ``;``.

    ``rows`` are (benchmark, n, gain in pp, agreement in %). The default is the page's link (names lose ``:`` and
    ``;``, numbers to 6 significant digits); ``exact=True`` percent-encodes ``%``, ``:`` and ``;`` in names and
    writes numbers exactly, so :func:`decode_claims` with ``exact=True`` gives the rows back unchanged (the form a
    :class:`ClaimsDesign` keeps).

    Examples
    --------
    >>> encode_claims([("a:b", 1000, 2.0, 90.0)])
    'a b:1000:2:90'
    >>> encode_claims([("a:b", 1000, 2.25, 90.0)], exact=True)
    'a%3Ab:1000:2.25:90'
    """
    out = []
    for name, n, gain, agree in rows:
        if exact:
            name = str(name).replace("%", "%25").replace(":", "%3A").replace(";", "%3B")
        else:
            name = str(name).replace(":", " ").replace(";", " ").strip()[:60]
        out.append(f"{name}:{int(n)}:{_claim_number(float(gain), exact)}:{_claim_number(float(agree), exact)}")
    return ";".join(out)


def decode_claims(text: str | None, *, exact: bool = False) -> tuple:
    """The rows of :func:`encode_claims`' text: (benchmark, n, gain in pp, agreement in %).

    Lenient (the default, a link): malformed or out-of-range rows are dropped, at most :data:`MAX_CLAIMS` are read,
    and :data:`DEFAULT_CLAIMS` is returned when none is left. ``exact=True`` (a design): names are percent-decoded
    and any bad row raises a ``ValueError`` naming `claims`, the row and the valid ranges.
    """
    rows = []
    parts = (text or "").split(";")
    if exact and (not text or len(parts) > MAX_CLAIMS):
        raise ValueError(f"`claims` must list between 1 and {MAX_CLAIMS} benchmarks, got {len(parts) if text else 0}.")
    for i, part in enumerate(parts[:MAX_CLAIMS]):
        bits = part.split(":")
        try:
            if len(bits) != 4:
                raise ValueError("not name:n:gain:agreement")
            n, gain, agree = float(bits[1]), float(bits[2]), float(bits[3])
            if exact and not (math.isfinite(n) and n == int(n)):
                raise ValueError("n is not a whole number")
            n = int(n)  # a link's 1000.5 reads as 1000; inf and nan raise
            if not (all(math.isfinite(v) for v in (gain, agree)) and _N_RANGE[0] <= n <= _N_RANGE[1]
                    and -_GAIN_MAX <= gain <= _GAIN_MAX and 0 <= agree < 100):
                raise ValueError("out of range")
            name = unquote(bits[0]) if exact else bits[0][:60]
            if exact and not name.strip():
                raise ValueError("no name")
        except (ValueError, OverflowError) as e:
            if exact:
                raise ValueError(f"`claims` row {i + 1} ({part[:40]!r}) must read name:n:gain:agreement with n in "
                                 f"[{_N_RANGE[0]}, {_N_RANGE[1]:,}], gain in [-50, 50] pp and agreement in [0, 100) %"
                                 f" ({e}).") from None
            continue
        rows.append((name, n, gain, agree))
    return tuple(rows) if rows or exact else DEFAULT_CLAIMS


@dataclass(frozen=True)
class ClaimsDesign(Design):
    """The Claims page's design: gains claimed on several benchmarks, declared once with the page's URL keys.

    ``claims`` is the table (the exact text of :func:`encode_claims`): each benchmark's test-set size n, expected
    gain (pp) and agreement P_a (%). Each claim is McNemar's test in its normal form (Card et al. 2020, §3;
    :func:`core.accuracy.mcnemar_power`); the claims are corrected together with ``correction`` (Holm 1979;
    Benjamini & Hochberg 1995) with equicorrelated statistics (``correlation``) at family-wise ``alpha``.

    Examples
    --------
    >>> d = ClaimsDesign(correction="bonferroni")
    >>> round(d.sample_sizes(), 3) == round(family_sample_size(5, correction="bonferroni"), 3)
    True
    >>> ClaimsDesign.from_params(d.to_params()) == d
    True
    """

    claims: str = spec(encode_claims(DEFAULT_CLAIMS, exact=True), label="Your benchmarks", key="claims",
                       help="One row per claimed gain: name:n:gain:agreement (items, pp, %), rows joined by `;`.")
    correlation: float = spec(0.0, low=0.0, high=1.0, ui_high=0.9, step=0.05, label="Correlation between "
                              "benchmarks' test statistics", key="rho",
                              help="0: independent benchmarks. Benchmarks scored on the same pair of models share "
                              "some noise (e.g. related skills); equicorrelated z statistics.")
    correction: str = spec("holm", choices=CORRECTION_ORDER, label="Correction to report", key="correction",
                           help="Used for the headline numbers and the plan; the chart shows all four.")
    alpha: float = spec(0.05, choices=ALPHAS, label="Family-wise α (two-sided)", key="alpha",
                        help="Holm and Bonferroni keep P(any false claim) ≤ α; Benjamini–Hochberg keeps the "
                        "expected share of false claims ≤ α.")
    target_power: float = spec(0.8, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.5, ui_high=0.99,
                               step=0.01, label="Target power", key="target",
                               help="80% is the common minimum (Cohen 1962). Used for the MDE and the required size.")

    def __post_init__(self):
        self.check_fields()
        decode_claims(self.claims, exact=True)  # names `claims` and the bad row
        if self.target_power <= self.alpha:
            raise ValueError(f"`target_power` must be in (alpha, 1) = ({self.alpha:g}, 1), got {self.target_power:g}.")

    @property
    def rows(self) -> tuple:
        """The benchmarks: (name, n, gain in pp, agreement in %)."""
        return decode_claims(self.claims, exact=True)

    @property
    def names(self) -> list:
        """The benchmarks' names."""
        return [r[0] for r in self.rows]

    def benchmark_powers(self) -> list:
        """Each benchmark's unadjusted two-sided power at ``alpha`` (McNemar, normal form), never below ``alpha``:
        (name, power, problem); a row whose gain exceeds 100 − agreement has power ``nan`` and says why."""
        out = []
        for name, n, gain, agree in self.rows:
            delta, agreement = gain / 100, agree / 100
            if abs(delta) > 1 - agreement + 1e-12:
                out.append((name, math.nan, f"gain {gain:g} pp exceeds 100 − agreement"))
                continue
            res = mcnemar_power(int(n), delta, agreement, alpha=self.alpha, test="normal")
            out.append((name, max(res.rejection_rate, self.alpha), ""))
        return out

    def family(self, correction=None) -> ClaimFamily:
        """The :class:`ClaimFamily` of these benchmarks (``ValueError`` naming `claims` when a row is impossible)."""
        single = self.benchmark_powers()
        bad = [f"{name}: {why}" for name, _, why in single if why]
        if bad:
            raise ValueError("`claims` has impossible rows: " + "; ".join(bad) + ".")
        return ClaimFamily(self.rows, tuple(round(p, 12) for _, p, _ in single),
                           correction=correction or self.correction, correlation=self.correlation, alpha=self.alpha)

    def power(self, correction=None, *, n_sims=100_000, seed=None) -> FamilyPower:
        """:func:`family_power` of the claims under ``correction`` (default: the design's)."""
        return self.family(correction).power(n_sims=n_sims, seed=seed)

    def sample_sizes(self, target_power=None) -> float:
        """:func:`family_sample_size`: the factor by which each test set must grow to keep ``target_power``
        (default: the design's) per claim under the correction."""
        return family_sample_size(len(self.rows), target_power=self.target_power if target_power is None
                                  else target_power, alpha=self.alpha, correction=self.correction)

"""The Claims page's "Python code for this view": each claim's McNemar power and the family under a
correction with :mod:`core.multiplicity` (Holm 1979; Benjamini & Hochberg 1995).

The shared header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations

from ..snippets import HEADER, literal
from . import ClaimsDesign
from .plan import CORRECTION_LABELS
from ..validation import check_type

__all__ = ["claims_snippet"]


def claims_snippet(design: ClaimsDesign, *, n_sims: int = 20_000) -> str:
    """Script for the many-claims page (:mod:`core.multiplicity`) at ``design``.

    The design gives the rows (benchmark, n, gain in points, agreement in %), α, the target power, the correction
    and the correlation between the benchmarks' statistics; ``n_sims`` is the number of families the page simulates
    for Holm and Benjamini–Hochberg with unequal powers (a page setting, seed 0).

    Examples
    --------
    >>> code = claims_snippet(ClaimsDesign())
    >>> "correction, correlation = 'holm', 0.0" in code and "label = 'Holm'" in code
    True
    """
    check_type("design", design, ClaimsDesign)
    rows, alpha, target_power = design.rows, design.alpha, design.target_power
    correction, correlation = design.correction, design.correlation
    correction_label = CORRECTION_LABELS[correction]
    lines = [HEADER, "from core import accuracy as acc", "from core import multiplicity as mt", "",
             f"rows = {literal([(str(a), int(b), float(c), float(d)) for a, b, c, d in rows])}",
             f"alpha, target_power = {literal(float(alpha))}, {literal(float(target_power))}",
             f"correction, correlation = {correction!r}, {literal(float(correlation))}",
             "# each benchmark's two-sided power (McNemar, normal form), never below alpha",
             "powers = [round(max(acc.mcnemar_power(n, gain / 100, agree / 100, alpha=alpha, test='normal')"
             ".rejection_rate, alpha), 12) for _, n, gain, agree in rows]",
             "m = len(powers)",
             f"fam = mt.family_power(powers, alpha=alpha, correction=correction, correlation=correlation, "
             f"n_sims={int(n_sims)!r}, seed=0)",
             f"label = {correction_label!r}",
             "print('Power per claim, unadjusted:', pct(float(np.mean(powers))))",
             "print(f'Power per claim, {label}:', pct(float(np.mean(fam.per_comparison))))",
             "print(f'All {m} claims hold ({label}):', pct(fam.all))",
             "print('Expected claims that hold:', f'{fam.expected_rejections:.2f} of {m}')",
             "factor = mt.family_sample_size(m, target_power=target_power, alpha=alpha, correction=correction) "
             "if correction != 'none' else 1.0",
             "print(f'Test-set growth for {target_power:.0%} each:', f'{factor:.3f}×')"]
    return "\n".join(lines) + "\n"

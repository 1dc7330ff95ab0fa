"""The MT page's "Python code for this view": BLEU power with :mod:`core.mt` (Card et al. 2020, §4).

The shared header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations

from ..snippets import HEADER, literal, prior_ok
from . import BleuDesign
from ..validation import check_type

__all__ = ["mt_snippet"]


def mt_snippet(design: BleuDesign, *, target_power: float, prior: tuple[float, float] | None = None) -> str:
    """Script for the machine-translation page (:mod:`core.mt`, Card et al. 2020 §4) at ``design``.

    Parameters
    ----------
    design : BleuDesign
        The page's design: its ``n``, Δ_B, P0, b0 and α are the script's.
    target_power : float
        The page's decision setting (not a design field): the MDE and the sentences are for this power.
    prior : (float, float), optional
        A normal prior (mean, SD) on Δ_B in BLEU points: the script also prints the assurance.

    Examples
    --------
    >>> from core import mt
    >>> "mt.bleu_power(n, delta, p0, b0, alpha=alpha)" in mt_snippet(mt.BleuDesign(), target_power=0.8)
    True
    """
    check_type("design", design, BleuDesign)
    n, delta, p0, b0, alpha = design.n, design.delta_bleu, design.p0, design.b0, design.alpha
    lines = [HEADER, "from core import mt", "",
             f"n, delta, p0, b0 = {int(n)!r}, {literal(float(delta))}, {literal(float(p0))}, {literal(float(b0))}",
             f"alpha, target_power = {literal(float(alpha))}, {literal(float(target_power))}",
             "res = mt.bleu_power(n, delta, p0, b0, alpha=alpha)",
             f"print({'Power' if delta != 0 else 'False-positive rate'!r} + ':', pct(res.power))",
             "print('Type-M (exaggeration):', ratio(res.type_m))",
             "print('Type-S (wrong sign):', pct(res.type_s, 2))",
             "mde = mt.bleu_mde(n, p0, b0, target_power=target_power, alpha=alpha)",
             "print(f'MDE at {target_power:.0%} power:', "
             "'not reachable' if not math.isfinite(mde) else f'{mde:.2f} BLEU')"]
    if delta != 0:
        lines += ["# the normal engine's power is monotone in n: the first size is the size",
                  "first = mt.bleu_sample_size(delta, p0, b0, target_power=target_power, alpha=alpha)",
                  "print(f'Sentences for {target_power:.0%} power:', f'{first:,}' if first >= 0 else '> 1,000,000')"]
    if prior_ok(prior):
        lines += [f"assured = mt.bleu_assurance(n, {literal(float(prior[0]))}, {literal(float(prior[1]))}, p0, b0, alpha=alpha)",
                  "print('Assurance:', pct(assured.assurance))"]
    return "\n".join(lines) + "\n"

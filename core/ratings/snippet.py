"""The Ratings page's "Python code for this view": Likert power with :mod:`core.ratings` (Card et al. 2020,
§5.2).

The shared header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations


from ..snippets import HEADER, kwargs_literal, literal, prior_ok

__all__ = ["ratings_snippet"]


def ratings_snippet(design, *, target_power: float, prior: tuple[float, float] | None = None) -> str:
    """Script for the human-ratings page (:mod:`core.ratings`) at ``design`` (a :class:`core.ratings.RatingsDesign`).

    The power, false-positive rate (the fitted test's real rate, :func:`core.ratings.fitted_test_power`), Type-M and
    Type-S are printed for the analytic design (fully crossed, REML + Satterthwaite, continuous ratings); other designs are simulated on the page and the script shows the call.
    ``prior`` (mean, SD of β1) adds the assurance.
    """
    layout, workers, items, per_item = design.layout, design.workers, design.items, design.per_item
    effect, sigmas, alpha, analytic = design.effect, design.sigmas, design.alpha, design.analytic
    lines = [HEADER, "from core import ratings as rt", "",
             f"sigmas = {kwargs_literal(dict(sigmas))}",
             f"workers, items, effect = {int(workers)!r}, {int(items)!r}, {literal(float(effect))}",
             f"alpha, target_power = {literal(float(alpha))}, {literal(float(target_power))}"]
    if analytic:
        lines += ["res = rt.likert_power(workers, items, effect, **sigmas, alpha=alpha, rule='satterthwaite', "
                  "method='analytic')",
                  f"print({'Power' if effect else 'Detection rate'!r} + ':', pct(res.power))",
                  "# the test as fitted (its Satterthwaite df estimated), integrated exactly: its real rate",
                  "fitted = rt.fitted_test_power(workers, items, effect, **sigmas, alpha=alpha)",
                  "print('False-positive rate:', pct(fitted.false_positive_rate))",
                  "print('Type-M (exaggeration):', ratio(res.type_m))",
                  "print('Type-S (wrong sign):', pct(res.type_s, 2))"]
    else:
        lines += ["# This design has no closed form: the page simulates it, e.g.",
                  "# rt.likert_power(workers, items, effect, **sigmas, alpha=alpha, rule=..., method='simulate', "
                  "seed=0)"]
    lines += ["mde = rt.likert_mde(workers, items, target_power=target_power, alpha=alpha, **sigmas)",
              "print(f'MDE at {target_power:.0%} power (effect β1):', 'not reachable' if not math.isfinite(mde) else "
              "f'{mde:.3f}')"]
    if prior_ok(prior):
        if layout == "crowd":
            lines.append(f"assured = rt.crowd_assurance(workers, items, {int(per_item)!r}, {literal(float(prior[0]))}, "
                         f"{literal(float(prior[1]))}, alpha=alpha, **sigmas)")
        else:
            lines.append(f"assured = rt.likert_assurance(workers, items, {literal(float(prior[0]))}, "
                         f"{literal(float(prior[1]))}, alpha=alpha, **sigmas)")
        lines.append("print('Assurance:', pct(assured.assurance))")
    return "\n".join(lines) + "\n"

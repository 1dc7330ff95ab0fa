"""The Accuracy page's "Python code for this view": paired (McNemar), unpaired and preference designs.

The script prints the page's metrics row with :mod:`core.accuracy` (Card et al. 2020, §2–3); the shared
header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations

from ..snippets import HEADER, literal, prior_ok

__all__ = ["accuracy_snippet", "accuracy_design_snippet"]


def accuracy_snippet(*, scenario: str, n: int, alpha: float, target_power: float, delta: float = 0.0,
                     test: str = "exact", source: str = "manual", agreement: float | None = None,
                     baseline: float = 0.8, p_new: float = 0.0, p_old: float = 0.0, tie_rate: float = 0.0,
                     ties: str = "drop", prior: tuple[float, float] | None = None) -> str:
    """Script for the Accuracy page (:mod:`core.accuracy`): paired (McNemar), unpaired, or preference designs.

    ``prior`` is (mean, sd) in percentage points of the effect.
    """
    lines = [HEADER, "from core import accuracy as acc", "",
             f"n = {int(n)!r}", f"alpha = {literal(float(alpha))}", f"target_power = {literal(float(target_power))}"]
    if scenario == "paired":
        effect = delta
        lines += [f"delta = {literal(float(delta))}  # accuracy of the new model minus the old",
                  f"design = acc.paired_design({source!r}, delta=delta, agreement={literal(agreement)}, "
                  f"baseline={literal(float(baseline))})",
                  f"test = {test!r}",
                  "res = acc.mcnemar_power(n, delta, design.agreement, alpha=alpha, test=test)",
                  "mde = acc.mcnemar_mde(n, **design.mde_kwargs, target_power=target_power, alpha=alpha, test=test)"]
        size_call = ("acc.mcnemar_sample_sizes(delta, design.agreement, target_power=target_power, alpha=alpha, "
                     "test=test)")
        assure_call = "acc.mcnemar_assurance(n, mean, sd, design.agreement, alpha=alpha, test=test)"
    elif scenario == "unpaired":
        effect = delta
        lines += [f"baseline, delta = {literal(float(baseline))}, {literal(float(delta))}",
                  "res = acc.unpaired_power(n, baseline, delta, alpha=alpha)",
                  "mde = acc.unpaired_mde(n, baseline, target_power=target_power, alpha=alpha)"]
        size_call = "acc.unpaired_sample_sizes(baseline, delta, target_power=target_power, alpha=alpha)"
        assure_call = "acc.unpaired_assurance(n, baseline, mean, sd, alpha=alpha)"
    elif scenario == "preference":
        effect = p_new - p_old
        lines += [f"p_new, p_old, tie_rate = {literal(float(p_new))}, {literal(float(p_old))}, {literal(float(tie_rate))}",
                  f"ties, test = {ties!r}, {test!r}",
                  "res = acc.preference_power(n, p_new, p_old, alpha=alpha, ties=ties, test=test)",
                  "mde = acc.preference_mde(n, tie_rate=tie_rate, target_power=target_power, alpha=alpha, ties=ties, "
                  "test=test)"]
        size_call = "acc.preference_sample_sizes(p_new, p_old, target_power=target_power, alpha=alpha, ties=ties, " \
                    "test=test)"
        assure_call = "acc.preference_assurance(n, mean, sd, tie_rate=tie_rate, alpha=alpha, ties=ties, test=test)"
    else:
        raise ValueError(f"`scenario` must be 'paired', 'unpaired' or 'preference'; got {scenario!r}")
    lines += [f"print({'Power' if effect != 0 else 'False-positive rate'!r} + ':', pct(res.power))",
              "print('Type-M (exaggeration):', ratio(res.type_m))",
              "print('Type-S (wrong sign):', pct(res.type_s, 2))",
              "print(f'MDE at {target_power:.0%} power:', "
              "'not reachable' if not math.isfinite(mde) else f'{100 * mde:.2f} pts')"]
    if effect != 0:
        counted = {"paired": "Items", "unpaired": "Items per model", "preference": "Raters"}[scenario]
        lines += [f"sizes = {size_call}",
                  f"print(f'{counted} for {{target_power:.0%}} power:', first_n(sizes, 10_000_000))"]
    if prior_ok(prior):
        lines += ["# the prior on the effect, in percentage points",
                  f"mean, sd = {literal(float(prior[0]))} / 100, {literal(float(prior[1]))} / 100",
                  f"assured = {assure_call}", "print('Assurance:', pct(assured.assurance))"]
    return "\n".join(lines) + "\n"


def accuracy_design_snippet(design, *, prior: tuple[float, float] | None = None) -> str:
    """:func:`accuracy_snippet` for the Accuracy page's design (:class:`core.accuracy.AccuracyPageDesign`).

    ``prior`` is (mean, sd) in percentage points of the effect.
    """
    if design.scenario == "paired":
        args = dict(delta=design.delta_fraction, test=design.test, source=design.source,
                    baseline=design.baseline_fraction, agreement=design.agreement_fraction)
    elif design.scenario == "unpaired":
        args = dict(delta=design.delta_fraction, baseline=design.baseline_fraction)
    else:
        args = dict(p_new=design.p_new_fraction, p_old=design.p_old_fraction, tie_rate=design.tie_fraction,
                    ties=design.ties, test=design.test)
    return accuracy_snippet(scenario=design.scenario, n=design.n, alpha=design.alpha,
                            target_power=design.target_power, prior=prior, **args)

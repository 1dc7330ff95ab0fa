"""The LLM-judges page's "Python code for this view": PPI++ (Angelopoulos, Duchi & Zrnic 2023), the "Which
items to label" tab (Zrnic & Candès 2024) and the "Labels per item" tab, with :mod:`core.judge`.

The shared header and literals come from :mod:`core.snippets`.
"""

from __future__ import annotations

from ..snippets import HEADER, kwargs_literal, literal
from . import JudgePageDesign
from ..validation import check_type

__all__ = ["judge_snippet", "active_snippet", "labels_snippet", "agreement_snippet"]


def judge_snippet(design: JudgePageDesign, *, currency: str = "USD") -> str:
    """Script for the LLM-judges page (:func:`core.judge.ppi_plan`) at ``design``.

    Parameters
    ----------
    design : JudgePageDesign
        The page's design: the plan's keyword arguments are its engine design's
        (:meth:`~core.judge.design.JudgePageDesign.judge_design`); when it describes the judge by accuracy,
        sensitivity and specificity, the script derives σ and ρ as the page does
        (:func:`core.judge.judge_correlation`).
    currency : str
        The page-level currency (not a design field): the script prints the cost in it.

    Examples
    --------
    >>> "jg.judge_correlation(0.7, 0.9, 0.85)" in judge_snippet(JudgePageDesign())
    True
    """
    check_type("design", design, JudgePageDesign)
    plan, judge = design.judge_design().kwargs(), design.judge()
    kw = {k: v for k, v in plan.items() if v is not None}
    lines = [HEADER, "from core import judge as jg", ""]
    if judge is not None:
        acc_, se_, sp_ = (float(v) for v in judge)
        lines += [f"sd, rho, p_obs = jg.judge_correlation({literal(acc_)}, {literal(se_)}, {literal(sp_)})",
                  "plan = " + kwargs_literal({k: v for k, v in kw.items() if k not in ("sd", "correlation", "sd_judge")})[:-1]
                  + ", sd=sd, correlation=rho, sd_judge=math.sqrt(p_obs * (1 - p_obs)))"]
    else:
        lines.append(f"plan = {kwargs_literal(kw)}")
    lines += ["res = jg.ppi_plan(**plan)",
              "print('Human-labelled items:', f'{res.n_human:,}')",
              "print('Judge-only items:', f'{res.n_judge_only:,}')",
              # right/wrong labels (judge given by sensitivity/specificity): an accuracy, in points; scores: their units
              "print('Standard error:', " + ("f'{100 * res.se:.2f} pts')" if judge is not None else
                                             "f'{res.se:.4f} score units')"),
              "print('Equivalent human-only items:', f'{res.effective_n:,.0f}')",
              f"currency = {currency!r}",
              "print('Cost:', f'{currency} {res.cost:,.2f}'.strip())",
              "effect = " + ("f\"{100 * plan['delta']:g} points\"" if judge is not None else
                             "f\"{plan['delta']:g} score units\"") + " if plan.get('delta') is not None else ''",
              "if plan.get('delta') is not None:",
              "    print(f'Power at {effect}:', pct(res.power))",
              "# the page shows the judge's weight in a caption under its metrics row",
              "print('Judge weight λ (power-tuned):', f'{res.lambda_:.3f}')"]
    return "\n".join(lines) + "\n"


def active_snippet(design: JudgePageDesign, *, calibration: str | None = None) -> str:
    """Script for the Judge page's "Which items to label" tab (:mod:`core.judge.active`) at ``design``.

    Parameters
    ----------
    design : JudgePageDesign
        The tab's design (the page's, with the tab's inputs): the human labels ``n_human``, the target SE
        ``active_target_se`` and the uniform share ``min_share``; with ``active_source="beta"`` the judge's
        confidences are ``n_items`` Beta(``beta_a``, ``beta_b``) quantiles.
    calibration : str, optional
        With ``active_source="calibration"``: the calibration file's name (``"sample"`` for the shipped one), an
        upload's name and not a design field; the script calibrates the judge's outputs from it.

    Examples
    --------
    >>> "jg.beta_confidences(0.5, 0.5, 1000)" in active_snippet(JudgePageDesign())
    True
    """
    check_type("design", design, JudgePageDesign)
    beta = (design.beta_a, design.beta_b) if design.active_source == "beta" else None
    if beta is None and calibration is None:
        raise ValueError("`calibration` must name the calibration file when `active_source` is 'calibration'.")
    n_items, n_human, target_se, min_share = design.n_items, design.n_human, design.active_target_se, design.min_share
    lines = [HEADER, "from core import judge as jg", ""]
    if beta is not None:
        lines.append(f"f = jg.beta_confidences({literal(float(beta[0]))}, {literal(float(beta[1]))}, {int(n_items)})")
    elif calibration == "sample":
        lines += ["cal = jg.sample_calibration()", "f = jg.calibrated_confidence(cal['human'], cal['judge'])"]
    else:
        lines += [f"cal = jg.read_calibration(open({calibration!r}, 'rb').read(), name={calibration!r})",
                  "f = jg.calibrated_confidence(cal['human'], cal['judge'])"]
    lines += [f"n_human, target_se, min_share = {int(n_human)}, {literal(float(target_se))}, {literal(float(min_share))}",
              "for label, policy in (('SE, human labels only', 'human'), ('SE, uniform labels (PPI)', 'uniform'),",
              "                      ('SE, active labels', 'active')):",
              "    print(f'{label}:', f'{100 * jg.active_se(f, n_human, policy=policy, min_share=min_share):.2f} pts')",
              "need = jg.active_labels_for_se(f, target_se, min_share=min_share)",
              "print('Active labels for the target SE:', f'{need:,}' if need > 0 else 'not reachable')",
              "items = jg.active_item_list(f, n_human, min_share=min_share, seed=0)  # the runnable list: label == True"]
    return "\n".join(lines) + "\n"


def labels_snippet(design: JudgePageDesign, *, currency: str = "USD") -> str:
    """Script for the Judge page's "Labels per item" tab (:func:`core.judge.labels_per_item`) at ``design``.

    Parameters
    ----------
    design : JudgePageDesign
        The tab's design: the only-A / only-B shares (``p10_pct``, ``p01_pct``, in percent), the pilot's κ and
        prevalence, the costs, α, target power and the most labels per item.
    currency : str
        The page-level currency (not a design field).

    Examples
    --------
    >>> "jg.labels_per_item(0.08, 0.04, " in labels_snippet(JudgePageDesign())
    True
    """
    check_type("design", design, JudgePageDesign)
    p10, p01 = design.p10_pct / 100, design.p01_pct / 100
    kw = dict(kappa=float(design.labels_kappa), prevalence=float(design.labels_prevalence),
              cost_item=float(design.cost_item), cost_label=float(design.cost_label), alpha=float(design.alpha),
              target_power=float(design.target_power), max_labels=int(design.max_labels))
    lines = [HEADER, "from core import judge as jg", "",
             f"plan = jg.labels_per_item({literal(float(p10))}, {literal(float(p01))}, **{kwargs_literal(kw)})",
             "best = plan.table.set_index('labels').loc[plan.best]",
             f"currency = {currency!r}",
             "print('Labels per item:', plan.best)",
             "n_best, cost_best = int(best['items']), float(best['cost'])",
             "print('Items (best):', f'{n_best:,}')",
             "print('Cost (best):', f'{currency} {cost_best:,.2f}'.strip())",
             "print('Annotator error rate:', f'{plan.annotator_error:.3f}')",
             "even = plan.break_even_cost_item",
             "print('Break-even item cost:', 'never' if math.isinf(even) else '—' if math.isnan(even) else "
             "f'{currency} {even:,.2f}'.strip())",
             "# plan.table: one row per odd k (labels, error, items, cost, gap)"]
    return "\n".join(lines) + "\n"


def agreement_snippet(design: JudgePageDesign) -> str:
    """Script for the Judge page's "Agreement study" tab (:func:`core.judge.agreement_sample_size`) at ``design``.

    Examples
    --------
    >>> "statistic='cohen'" in agreement_snippet(JudgePageDesign())
    True
    """
    check_type("design", design, JudgePageDesign)
    args = (f"prevalence={literal(design.ag_prevalence_pct / 100)}, kappa={literal(float(design.kappa))}, "
            f"statistic={design.statistic!r}")
    hw = literal(float(design.halfwidth))
    lines = [HEADER, "from core import judge as jg", "",
             f"halfwidth = {hw}  # the wanted 95% half-width",
             f"need = jg.agreement_sample_size({args}, halfwidth=halfwidth)",
             "print(f'Items for ± {halfwidth:g}:', f'{need:,}')",
             f"value = jg.agreement_value({args})",
             "print('Value:', f'{value:.3f}')",
             "# the 95% half-width reached there: 1.96 × jg.agreement_se(need, ...)"]
    return "\n".join(lines) + "\n"

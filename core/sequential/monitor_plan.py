"""The Monitor page's plan: the state of a running evaluation watched with a confidence sequence, in words.

Howard, Ramdas, McAuliffe & Sekhon (2021) for the normal-mixture sequence; Waudby-Smith & Ramdas (2024) for
betting on bounded scores. Both are valid at every number of items, so the run may be checked after each one.
"""

from __future__ import annotations

import math

from .monitor import MonitorDesign, MonitorResult
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_level
from ..validation import check_type

__all__ = ["fmt_level", "plan_item"]

REFERENCES = (
    "Howard, Ramdas, McAuliffe & Sekhon (2021). Time-uniform, nonparametric, nonasymptotic confidence sequences. "
    "Annals of Statistics 49(2).",
    "Waudby-Smith & Ramdas (2024). Estimating means of bounded random variables by betting. JRSS B 86(1).",
    "Jennison & Turnbull (2000). Group Sequential Methods with Applications to Clinical Trials.",
)


#: The confidence sequence of a :class:`MonitorDesign`'s ``sequence``, in words (as the engine's ``method``).
SEQUENCE_WORDS = {"bounded": "betting", "mixture": "normal mixture"}


def plan_item(design: MonitorDesign, result: MonitorResult, *, name_a: str, name_b: str, data: str,
              data_source: str = "upload", link: str = "", code: str = "") -> PlanItem:
    """Where a monitored comparison stands, as the Monitor page shows it.

    Parameters
    ----------
    design : MonitorDesign
        The page's design: the smallest difference that matters (``target``), the planned items (``n_max``), α and
        the confidence sequence (``sequence``) are read from it.
    result : MonitorResult
        ``design.run(x)`` (:func:`core.sequential.monitor`) on the items so far.
    name_a, name_b : str
        The baseline and the new system (user text: the plan document escapes it).
    data, data_source : str
        What was read (a file name) and how ("upload" or "built-in example").
    link, code :
        Passed through to the plan.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> import numpy as np
    >>> d = MonitorDesign(target=0.2, n_max=400)
    >>> item = plan_item(d, d.run(np.r_[np.ones(60), -np.ones(20)]), name_a="A", name_b="B", data="x")
    >>> dict(item.results)["verdict"]
    'stop: B is better'
    """
    check_type("design", design, MonitorDesign)
    if not isinstance(result, MonitorResult):
        raise ValueError(f"`result` must be a core.sequential.MonitorResult; got {type(result).__name__}.")
    confidence_sequence = SEQUENCE_WORDS[design.sequence]
    if result.method != confidence_sequence:
        raise ValueError(f"`result` must come from `design` (its {confidence_sequence} sequence); got a "
                         f"{result.method} sequence.")
    target, n_max, alpha = design.target, design.n_max, design.alpha
    last = result.sequence.iloc[-1]
    verdict_text = result.message if result.verdict != "continue" else (
        f"continue (about {math.ceil(result.expected_more):,} more items expected)")
    betting = result.method == "betting"
    paragraph = (f"We monitored the comparison of {name_b} with {name_a} item by item with a {fmt_level(1 - alpha)} "
                 f"{'betting' if betting else 'normal-mixture'} confidence sequence "
                 f"({'Waudby-Smith & Ramdas, 2024' if betting else 'Howard et al., 2021'}), valid at "
                 f"every number of items, planning at most {n_max:,} items and treating differences smaller than "
                 f"{target:g} as negligible. After {result.n:,} items the mean difference was {last['estimate']:+.4f} "
                 f"(confidence sequence [{last['lower']:+.4f}, {last['upper']:+.4f}]); verdict: {verdict_text}.")
    return PlanItem(
        scenario="Monitor a running evaluation", question=f"Can we stop comparing {name_b} with {name_a} yet?",
        assumptions=(Assumption("data", data, data_source),
                     Assumption("smallest difference that matters", f"{target:g}", "set on the page"),
                     Assumption("planned items", f"{n_max:,}", "set on the page"),
                     Assumption("confidence sequence", confidence_sequence, "set on the page")),
        test=f"{result.method} confidence sequence, checked after every item", alpha=float(alpha),
        results=(("items so far", f"{result.n:,}"), ("running difference", f"{last['estimate']:+.4f}"),
                 ("confidence sequence", f"[{last['lower']:+.4f}, {last['upper']:+.4f}]"), ("verdict", verdict_text)),
        paragraph=paragraph, link=link, code=code, references=REFERENCES)

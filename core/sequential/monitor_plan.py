"""The Monitor page's plan: the state of a running evaluation watched with a confidence sequence, in words.

Howard, Ramdas, McAuliffe & Sekhon (2021) for the normal-mixture sequence; Waudby-Smith & Ramdas (2024) for
betting on bounded scores. Both are valid at every number of items, so the run may be checked after each one.
"""

from __future__ import annotations

import math

from . import MonitorResult
from ..plan.document import Assumption, PlanItem

__all__ = ["plan_item"]

REFERENCES = (
    "Howard, Ramdas, McAuliffe & Sekhon (2021). Time-uniform, nonparametric, nonasymptotic confidence sequences. "
    "Annals of Statistics 49(2).",
    "Waudby-Smith & Ramdas (2024). Estimating means of bounded random variables by betting. JRSS B 86(1).",
    "Jennison & Turnbull (2000). Group Sequential Methods with Applications to Clinical Trials.",
)


def plan_item(result: MonitorResult, *, name_a: str, name_b: str, target: float, n_max: int, alpha: float,
              confidence_sequence: str, data: str, data_source: str = "upload", link: str = "",
              code: str = "") -> PlanItem:
    """Where a monitored comparison stands, as the Monitor page shows it.

    Parameters
    ----------
    result : MonitorResult
        :func:`core.sequential.monitor` on the items so far.
    name_a, name_b : str
        The baseline and the new system (user text: the plan document escapes it).
    target : float
        The smallest difference that matters.
    n_max : int
        Items planned at most.
    alpha : float
    confidence_sequence : str
        The sequence chosen, in words ("betting", "normal mixture").
    data, data_source : str
        What was read (a file name) and how ("upload" or "built-in example").
    link, code :
        Passed through to the plan.

    Returns
    -------
    PlanItem
    """
    if not isinstance(result, MonitorResult):
        raise ValueError(f"`result` must be a core.sequential.MonitorResult; got {type(result).__name__}.")
    last = result.sequence.iloc[-1]
    verdict_text = result.message if result.verdict != "continue" else (
        f"continue (about {math.ceil(result.expected_more):,} more items expected)")
    betting = result.method == "betting"
    paragraph = (f"We monitored the comparison of {name_b} with {name_a} item by item with a {1 - alpha:.0%} "
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

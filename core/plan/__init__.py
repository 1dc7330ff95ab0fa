"""Plans people can file: the shared document and number formats.

:mod:`core.plan.document` holds the shared pieces — :class:`Assumption`,
:class:`PlanItem`, :func:`plan_html` (one self-contained HTML file for one or
several items, the "plan basket"), :func:`plan_text` (the methods paragraph)
and :func:`total_cost`. :mod:`core.plan.text` formats numbers the way the
pages show them.

Each scenario writes its own plan item in its package (``core/<scenario>/plan.py``,
e.g. :mod:`core.accuracy.plan`; the Monitor page's is
:mod:`core.sequential.monitor_plan`): a pure ``plan_item(design, result, …)``
that writes the question, the assumptions with their sources, the test, the
results and the paragraph for the paper from the scenario's design object and
its results. The pages only call it, and ``tests/test_plan_<scenario>.py``
checks every number it writes against the engines. This package imports no
scenario, so every scenario may import it.
"""

from .document import Assumption, PlanItem, plan_html, plan_text, total_cost

__all__ = ["Assumption", "PlanItem", "plan_html", "plan_text", "total_cost"]

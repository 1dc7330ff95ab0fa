"""Plans people can file: the document, and each scenario's plan item.

:mod:`core.plan.document` holds the shared pieces — :class:`Assumption`,
:class:`PlanItem`, :func:`plan_html` (one self-contained HTML file for one or
several items, the "plan basket"), :func:`plan_text` (the methods paragraph)
and :func:`total_cost`. :mod:`core.plan.text` formats numbers the way the
pages show them.

Each scenario has a module here with a pure ``plan_item(design, result, …)``
that writes the question, the assumptions with their sources, the test, the
results and the paragraph for the paper from the scenario's design object and
its results; the pages only call it, and ``tests/test_plan_items.py`` checks
every number it writes against the engines.
"""

from .document import Assumption, PlanItem, plan_html, plan_text, total_cost

__all__ = ["Assumption", "PlanItem", "plan_html", "plan_text", "total_cost"]

"""Plans people can file: a self-contained HTML document and a paragraph for the paper.

A :class:`PlanItem` records one planned comparison as a page shows it: the
question, every assumption with its source (a slider value, a preset from a
named table of a paper, or a value fitted from a named upload), the test and
α, the resulting power, Type-M, Type-S, MDE, assurance, the recommended size
(first and conservative), the cost, the charts, the references and the link
that reproduces the view. :func:`plan_html` turns one or several items (the
"plan basket") into a single HTML file that opens offline: plotly.js is
inlined once, every chart is drawn from its embedded JSON, and no script,
style, font or image is fetched from anywhere. :func:`plan_text` writes the
methods-section paragraph.

Everything from the user (names, file names, labels) is HTML-escaped; chart
JSON is embedded so that it cannot close its ``<script>`` element.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import plotly.io as pio

__all__ = ["Assumption", "PlanItem", "plan_html", "plan_text", "total_cost"]


@dataclass(frozen=True)
class Assumption:
    """One input of a plan and where it came from."""

    name: str
    value: str
    source: str = "set on the page"


@dataclass(frozen=True)
class PlanItem:
    """One planned comparison, as shown on a page.

    Attributes
    ----------
    scenario : str
        The page (e.g. "Accuracy (McNemar)").
    question : str
        What is being planned, in one sentence.
    assumptions : tuple of Assumption
    test : str
        The significance test, in words.
    alpha : float
    results : tuple of (label, value) pairs
        Power, Type-M, Type-S, MDE, assurance, sizes … as formatted on the page.
    paragraph : str
        The text for the paper (:func:`plan_text` output or the page's own).
    cost : float or None
        The design's cost in ``currency`` (None when no costs were given).
    currency : str
    figures : tuple of (title, figure) pairs
        Plotly figures (``go.Figure`` or dicts) as shown.
    references : tuple of str
    link : str
        The shareable URL that reproduces the view.
    code : str
        Python code that reproduces the numbers with ``core`` (the scenario's ``snippet`` module, e.g.
        :mod:`core.llm.snippet`); empty when none.
    """

    scenario: str
    question: str
    assumptions: tuple = ()
    test: str = ""
    alpha: float = 0.05
    results: tuple = ()
    paragraph: str = ""
    cost: float | None = None
    currency: str = ""
    figures: tuple = field(default=(), compare=False)
    references: tuple = ()
    link: str = ""
    code: str = ""


def total_cost(items: Sequence[PlanItem]) -> float | None:
    """Sum of the items' costs (None when no item has one); mixing currencies raises ValueError."""
    costed = [i for i in items if i.cost is not None and math.isfinite(i.cost)]
    if not costed:
        return None
    currencies = {i.currency.strip() for i in costed}
    if len(currencies) > 1:
        raise ValueError(f"The plans use different currencies ({', '.join(sorted(currencies))}); give them one "
                         "currency to add up the cost.")
    return float(sum(i.cost for i in costed))


def _fmt_money(value: float, currency: str) -> str:
    return f"{currency.strip() + ' ' if currency.strip() else ''}{value:,.2f}"


@lru_cache(maxsize=1)
def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs().replace("</script", "<\\/script")


def _figure_json(fig) -> str:
    spec = json.loads(pio.to_json(fig, validate=False)) if not isinstance(fig, dict) else fig
    layout = dict(spec.get("layout", {}))
    layout.pop("template", None)  # the page's template is heavy; the default look is close enough on paper
    layout.setdefault("paper_bgcolor", "white")
    layout.setdefault("plot_bgcolor", "white")
    text = json.dumps({"data": spec.get("data", []), "layout": layout}, separators=(",", ":"))
    # nothing in the JSON may end the <script> element or open a comment
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_CSS = """
body{font-family:-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;max-width:1000px;margin:2rem auto;
padding:0 1rem;color:#1a1a1a;line-height:1.45}
h1{font-size:1.8rem;margin-bottom:.2rem}h2{font-size:1.35rem;margin-top:2.2rem;border-bottom:2px solid #0072B2}
table{border-collapse:collapse;width:100%;margin:.6rem 0}th,td{text-align:left;padding:.3rem .5rem;
border-bottom:1px solid #ddd;vertical-align:top}th{background:#F2F5F9}.muted{color:#555;font-size:.9rem}
.paragraph{background:#F2F5F9;padding:.8rem 1rem;border-left:4px solid #0072B2}.chart{margin:1rem 0}
code{background:#F2F5F9;padding:0 .2rem}
pre{background:#F2F5F9;padding:.8rem;overflow-x:auto}
"""


def plan_html(items: Sequence[PlanItem], *, title: str = "Evaluation plan", generated: str | None = None) -> str:
    """One self-contained HTML document for one or several planned comparisons.

    Parameters
    ----------
    items : sequence of PlanItem
        The designs (one from a page, or the plan basket).
    title : str, optional
        The document's title.
    generated : str, optional
        Date line (default: today, UTC).

    Returns
    -------
    str
        HTML that opens offline: plotly.js is inlined once and no resource is
        fetched from the network.

    Raises
    ------
    ValueError
        With no items, or costs in different currencies.
    """
    if not items:
        raise ValueError("The plan is empty: add at least one design.")
    esc = html.escape
    generated = generated or _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    total = total_cost(items)
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{esc(title)}</title>",
             f"<meta name=\"generator\" content=\"NLP Power Explorer\"><style>{_CSS}</style>",
             f"<script>{_plotly_js()}</script></head><body>",
             f"<h1>{esc(title)}</h1><p class=\"muted\">Generated by NLP Power Explorer on {esc(generated)}. "
             f"{len(items)} planned comparison{'s' if len(items) != 1 else ''}."]
    if total is not None:
        currency = next(i.currency for i in items if i.cost is not None)
        parts.append(f" Total cost: <strong>{esc(_fmt_money(total, currency))}</strong>.")
    parts.append("</p>")
    if len(items) > 1:
        parts.append("<table><tr><th>#</th><th>Scenario</th><th>Question</th><th>Cost</th></tr>")
        for k, item in enumerate(items, 1):
            cost = "—" if item.cost is None else _fmt_money(item.cost, item.currency)
            parts.append(f"<tr><td>{k}</td><td>{esc(item.scenario)}</td><td>{esc(item.question)}</td>"
                         f"<td>{esc(cost)}</td></tr>")
        parts.append("</table>")
    chart_id = 0
    for k, item in enumerate(items, 1):
        parts.append(f"<h2>{k}. {esc(item.scenario)}</h2><p><strong>Question.</strong> {esc(item.question)}</p>")
        if item.paragraph:
            parts.append(f"<p class=\"paragraph\">{esc(item.paragraph)}</p>")
        parts.append("<h3>Assumptions</h3><table><tr><th>Input</th><th>Value</th><th>Source</th></tr>")
        for a in item.assumptions:
            parts.append(f"<tr><td>{esc(a.name)}</td><td>{esc(a.value)}</td><td>{esc(a.source)}</td></tr>")
        parts.append(f"<tr><td>Test</td><td>{esc(item.test)}</td><td>method</td></tr>"
                     f"<tr><td>α</td><td>{item.alpha:g}</td><td>decision rule</td></tr></table>")
        parts.append("<h3>Results</h3><table><tr><th>Quantity</th><th>Value</th></tr>")
        for label, value in item.results:
            parts.append(f"<tr><td>{esc(str(label))}</td><td>{esc(str(value))}</td></tr>")
        if item.cost is not None:
            parts.append(f"<tr><td>Cost</td><td>{esc(_fmt_money(item.cost, item.currency))}</td></tr>")
        parts.append("</table>")
        for fig_title, fig in item.figures:
            chart_id += 1
            parts.append(f"<div class=\"chart\"><div id=\"chart{chart_id}\" style=\"height:460px\"></div>"
                         f"<script>(function(){{var f={_figure_json(fig)};Plotly.newPlot('chart{chart_id}',f.data,"
                         f"f.layout,{{displaylogo:false,responsive:true}});}})();</script>"
                         f"<p class=\"muted\">{esc(fig_title)}</p></div>")
        if item.link:
            parts.append(f"<p><strong>Reproduce this view:</strong> <code>{esc(item.link)}</code></p>")
        if item.code:
            parts.append(f"<h3>Python code</h3><p class=\"muted\">Run from the repository's root; it prints the "
                         f"numbers above.</p><pre><code>{esc(item.code)}</code></pre>")
        if item.references:
            parts.append("<h3>References</h3><ul>" + "".join(f"<li>{esc(r)}</li>" for r in item.references) + "</ul>")
    parts.append("<p class=\"muted\">Power: P(significant and in the direction of the true effect). Type-M: mean "
                 "|significant estimate| / |true effect|. Type-S: P(wrong sign | significant) (Card et al. 2020, "
                 "Figure 2). Assurance: power averaged over the prior on the effect (O'Hagan et al. 2005).</p>")
    parts.append("</body></html>")
    return "".join(parts)


def plan_text(item: PlanItem) -> str:
    """The item's paragraph for a paper (its own ``paragraph``, else one built from its results)."""
    if item.paragraph:
        return item.paragraph
    results = "; ".join(f"{label}: {value}" for label, value in item.results)
    return f"{item.question} Using {item.test} at α = {item.alpha:g}: {results}."

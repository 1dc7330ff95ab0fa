"""core.plan: the downloadable plan.

Oracles: Python's own HTML parser (the document parses and every chart script is well formed), a scan of
every element for external resources, and the numbers as core computes them.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from core import accuracy as acc
from core import figures
from core.plan import Assumption, PlanItem, plan_html, plan_text, total_cost


class Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.external, self.scripts, self.text, self._in_script = [], [], [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            if value and not value.startswith(("#", "data:")):
                self.external.append((tag, value))
        if tag == "link":
            self.external.append((tag, attrs.get("href")))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        (self.scripts if self._in_script else self.text).append(data)


def item(**kw):
    res = acc.mcnemar_power(2000, 0.02, 0.9)
    curves = acc.paired_curves([500, 2000, 8000], [(0.02, 0.9)]).assign(series="Δ = 2 pp")
    fig = figures.curve_figure(curves, x="n", y="power", color="series", current=(2000, res.power))
    base = dict(scenario="Accuracy (paired (McNemar))", question="Can 2,000 items detect a 2-point gain?",
                assumptions=(Assumption("test-set size n", "2,000", "slider"),
                             Assumption("agreement P_a", "90.0%", "GLUE regression (Card et al. 2020, Table 5)")),
                test="an exact McNemar test", alpha=0.05,
                results=(("power", f"{100 * res.power:.1f}%"), ("Type-M", f"{res.type_m:.2f}×")),
                paragraph="With 2,000 test items … (Card et al., 2020).", cost=1000.0, currency="USD",
                figures=(("Power vs n", fig),), references=("Card et al. (2020).",),
                link="http://localhost:8501/accuracy?n=2000&delta=2.0")
    base.update(kw)
    return PlanItem(**base)


def test_document_parses_states_the_numbers_and_fetches_nothing():
    one = item()
    doc = plan_html([one])
    parser = Collector()
    parser.feed(doc)
    parser.close()
    assert parser.external == []  # no <script src>, <link href>, <img src>: opens offline
    text = " ".join(parser.text)
    res = acc.mcnemar_power(2000, 0.02, 0.9)
    assert f"{100 * res.power:.1f}%" in text and f"{res.type_m:.2f}×" in text
    assert "http://localhost:8501/accuracy?n=2000&amp;delta=2.0" in doc  # the shareable link, escaped
    assert "GLUE regression (Card et al. 2020, Table 5)" in text  # assumptions carry their sources
    assert "USD 1,000.00" in text
    # the chart's data is embedded as JSON inside its script
    spec = re.search(r"var f=(\{.*?\});Plotly\.newPlot", doc).group(1)
    data = json.loads(spec)["data"]
    assert any(t.get("name") == "current design" for t in data)


def test_user_text_cannot_inject_markup():
    evil = '<script>alert(1)</script><img src="http://evil.example/x.png">'
    doc = plan_html([item(question=evil, assumptions=(Assumption(evil, evil, evil),))])
    parser = Collector()
    parser.feed(doc)
    assert parser.external == []
    assert "<script>alert(1)" not in doc and "&lt;script&gt;alert(1)" in doc


def test_basket_adds_up_costs_and_refuses_mixed_currencies():
    a, b = item(cost=1000.0), item(scenario="Human ratings", cost=250.5)
    assert total_cost([a, b]) == pytest.approx(1250.5)
    doc = plan_html([a, b], title="Campaign")
    assert "USD 1,250.50" in doc and doc.count("<h2>") == 2
    with pytest.raises(ValueError, match="currencies"):
        total_cost([a, item(cost=3.0, currency="EUR")])
    assert total_cost([item(cost=None)]) is None
    with pytest.raises(ValueError, match="empty"):
        plan_html([])


def test_paragraph_reads_like_a_methods_section():
    assert plan_text(item()) == "With 2,000 test items … (Card et al., 2020)."
    generic = plan_text(item(paragraph=""))
    assert generic.startswith("Can 2,000 items") and "α = 0.05" in generic

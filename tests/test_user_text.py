"""The escaping helpers every page puts user text through (pages/_scaffold.py): Markdown, currency labels.

Oracle: the Markdown constructs Streamlit renders (links, images, HTML, emphasis, code, math, autolinks) must come
out backslashed or entity-escaped, so that Markdown shows them as typed; ordinary text is unchanged.
"""

from __future__ import annotations

import re

import pytest

from pages._scaffold import code, currency_label, fmt_money, md_escape, safe_message

LIVE = re.compile(r"(?<!\\)(!\[|\]\(|<[a-z]|\$|`|\*|_|://|www\.)", re.IGNORECASE)


@pytest.mark.parametrize("text", [
    "![q](http://evil.example/q.png)", '<a href="http://evil.example/a">click</a>', "**bold** _it_ `code`",
    "$x^2$ costs $5", "see www.evil.example or https://evil.example", "<img src=x onerror=alert(1)>",
    "a\nb\n# heading", "[link](javascript:alert(1))",
])
def test_md_escape_leaves_no_live_markdown(text):
    escaped = md_escape(text)
    assert not LIVE.search(escaped), escaped
    assert "\n" not in escaped


def test_md_escape_keeps_plain_text():
    assert md_escape("GPT-4 vs Llama 3.1 (70B), 81.2%") == r"GPT-4 vs Llama 3.1 \(70B\), 81.2%"
    assert md_escape("model_a") == r"model\_a"


def test_safe_message_keeps_code_spans_and_escapes_the_rest():
    assert safe_message("`alpha` must be in (0, 1); got ![x](y)") == r"`alpha` must be in \(0, 1\); got \!\[x\]\(y\)"
    assert safe_message("a stray ` backtick").count("\\`") == 1
    assert code("x`y\nz") == "`x'y z`"


@pytest.mark.parametrize("raw, kept", [
    ("USD", "USD"), ("€", "€"), (" k$ ", "k$"), ("![](//x)", "x"), ("<b>EUR</b>", "bEURb"), ("", ""),
    ("GBP  pounds", "GBP poun"), ("%{x}", "x"), (None, ""),
])
def test_currency_label_keeps_letters_digits_and_currency_signs(raw, kept):
    assert currency_label(raw) == kept


def test_money_is_markdown_safe_only_where_markdown_renders_it():
    assert fmt_money(1234.5, "$") == r"\$ 1,234.50"  # two of them in one caption would start LaTeX
    assert fmt_money(1234.5, "$", markdown=False) == "$ 1,234.50"  # plan documents and charts
    assert fmt_money(float("nan"), "USD") == "—"

"""User text made inert on a page: Markdown escaping and code spans (the page scaffold's formatting job)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

__all__ = ['md_escape', 'safe_message', 'code', 'list_of']


# Characters that can start markup in Streamlit's Markdown (GitHub-flavoured, with LaTeX): links and images,
# emphasis, code, HTML, tables, strikethrough, math, e-mail autolinks. URL and "www." autolinks are broken
# separately, so ordinary colons and full stops stay readable.
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#!|<>~$@"})


_AUTOLINK = re.compile(r"(://)|(www)\.|(\\@)", re.IGNORECASE)


# The browser's Markdown (GFM autolink literals) links "http://…", "www.…" and "name@host" even when their
# punctuation is backslash-escaped; a zero-width space inside each breaks the pattern and shows nothing.
_ZWSP = "\u200b"


def md_escape(text) -> str:
    """User text made inert inside Markdown: entities escaped, line breaks flattened, markup characters backslashed."""
    flat = " ".join(str(text).splitlines())
    escaped = html.escape(flat, quote=False).translate(_MD_SPECIAL)
    return _AUTOLINK.sub(lambda m: (_ZWSP + "\\:" + _ZWSP + "\\/\\/" + _ZWSP) if m.group(1) else
                         (m.group(2) + _ZWSP + "\\.") if m.group(2) else (_ZWSP + "\\@" + _ZWSP), escaped)


def safe_message(text: str) -> str:
    """A message from ``core`` made safe for Markdown while keeping its `code spans`.

    Text outside backticks is escaped (:func:`md_escape`); text inside a pair
    of backticks stays a code span, where Markdown, HTML and LaTeX are inert.
    A stray backtick (from user data) is escaped.
    """
    parts = str(text).split("`")
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 1 and i < len(parts) - 1:
            out.append("`" + part.replace("\n", " ") + "`")
        elif i % 2 == 1:
            out.append("\\`" + md_escape(part))
        else:
            out.append(md_escape(part))
    return "".join(out)


def code(text, limit: int = 80) -> str:
    """User text as an inline code span that cannot be broken out of (backticks removed, length capped)."""
    clean = str(text).replace("`", "'").replace("\n", " ")
    if len(clean) > limit:
        clean = clean[: limit - 1] + "…"
    return f"`{clean}`"


def list_of(texts: Iterable, limit: int = 12) -> str:
    """Several user strings as code spans, comma-separated, at most ``limit`` shown."""
    texts = list(texts)
    shown = ", ".join(code(t) for t in texts[:limit])
    return shown + (f" and {len(texts) - limit} more" if len(texts) > limit else "")

"""Numbers as plan documents and the pages show them.

One place for the formats every scenario's :func:`plan_item` and every page
use, so a plan states a number exactly as the page's metric did: a
probability as a percentage, an exaggeration ratio as ``1.90×``, a sample
size with thousands separators (``-1`` from the sizing searches is "not
reachable"), an amount with the user's currency label.
"""

from __future__ import annotations

import math
import unicodedata

__all__ = ["currency_label", "fmt_interval", "fmt_level", "fmt_money", "fmt_n", "fmt_pct", "fmt_ratio"]


def fmt_pct(x, digits: int = 1) -> str:
    """A probability as a percentage, or an em dash when undefined."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def fmt_interval(low, high, spec: str = ".4f") -> str:
    """An interval as written in a paper: ``[0.0123, 0.0456]``; a one-sided interval's open end is ∞ with a round
    bracket (``[0.0689, ∞)``, ``(−∞, 0.4319]``).

    Examples
    --------
    >>> fmt_interval(0.012345, 0.045678), fmt_interval(0.0689, float("inf")), fmt_interval(float("-inf"), 0.5, ".2f")
    ('[0.0123, 0.0457]', '[0.0689, ∞)', '(−∞, 0.50]')
    """
    left = "(−∞" if low == -math.inf else f"[{low:{spec}}"
    right = "∞)" if high == math.inf else f"{high:{spec}}]"
    return f"{left}, {right}"


def fmt_level(level) -> str:
    """A level or rate as a researcher writes it: ``95%``, ``97.5%``, ``99.5%``, ``99.9%``, ``2.5%``.

    Not rounded to whole percent (``1 − 0.005`` read "100%" and ``1 − 0.025`` "98%"): twelve significant digits
    drop the float noise of ``1 − α`` and keep every digit α was given with.

    Parameters
    ----------
    level : float
        A confidence level ``1 − α`` or a level α, in [0, 1].

    Returns
    -------
    str
        The level in percent (``"99.5%"``); an em dash when undefined (None or not finite).

    Examples
    --------
    >>> [fmt_level(1 - a) for a in (0.05, 0.025, 0.005, 0.001, 0.1)]
    ['95%', '97.5%', '99.5%', '99.9%', '90%']
    """
    if level is None or not math.isfinite(level):
        return "—"
    percent = 100 * float(level)
    text = f"{percent:.12g}"
    if float(text) == 100 != percent:  # a level just below 1 (α < 1e-10) is not 100%
        text = repr(percent)
    return f"{text}%"


def fmt_ratio(x) -> str:
    """An exaggeration ratio such as ``1.90×``, or an em dash when undefined."""
    return "—" if x is None or not math.isfinite(x) else f"{x:.2f}×"


def fmt_n(x) -> str:
    """A whole number with thousands separators, or 'not reachable' for the searches' -1."""
    return "not reachable" if x is None or x < 0 else f"{int(x):,}"


def currency_label(text) -> str:
    """The currency label a user typed (or a link carried), kept to letters, digits, spaces, currency signs and
    full stops — at most 8 characters — so it is inert as Markdown, HTML and chart text."""
    kept = "".join(c for c in str(text or "") if c.isalnum() or c in " ." or unicodedata.category(c) == "Sc")
    return " ".join(kept.split())[:8]


def fmt_money(value, currency: str = "") -> str:
    """An amount with its (cleaned) currency label, for plan documents and charts; an em dash when undefined."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{currency_label(currency)} {value:,.2f}".strip()

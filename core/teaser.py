"""The one-line answer of a home-page card (:mod:`core.home` builds them; a scenario package may build its own
without importing :mod:`core.home`, which imports every scenario package)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Teaser"]


@dataclass(frozen=True)
class Teaser:
    """The one-line answer of a home-page card.

    Attributes
    ----------
    page : str
        Name of the page it opens (``pages/_registry.py``).
    answer : str
        The sentence shown on the card (plain text, no markup).
    metric : str
        Label of the page's metric that shows the promised number.
    value : float
        The number itself (a probability, a count or a difference).
    shown : str
        The number as that metric shows it on the page (e.g. ``"37.6%"``).
    """

    page: str
    answer: str
    metric: str
    value: float
    shown: str

"""The one-line answer of a home-page card.

Each scenario package builds its own cards in its ``teaser`` module (``core/<scenario>/teaser.py``, e.g.
:func:`core.accuracy.teaser.accuracy_teaser`), computed from its design's defaults; ``pages/_registry.py`` names each
page's teaser (``PageInfo.teaser``, ``"core.accuracy.teaser:accuracy_teaser"``) and ``teaser_of(name)`` calls it.
This module imports nothing from ``core``, so every scenario may import it."""

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

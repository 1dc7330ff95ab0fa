"""Input validation shared by the scenario modules.

Every check raises ``ValueError`` whose message names the parameter in
backticks and states its valid range, so pages can show it verbatim.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np

__all__ = [
    "check_int",
    "check_real",
    "check_probability",
    "check_alpha",
    "check_choice",
    "check_type",
    "renamed",
    "rng_of",
    "as_floats",
]


def check_int(name: str, value, *, low: int, high: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is a whole number in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"`{name}` must be a whole number, got {value!r}.")
    if isinstance(value, float) and (not math.isfinite(value) or value != int(value)):
        raise ValueError(f"`{name}` must be a whole number, got {value!r}.")
    ivalue = int(value)
    upper = "∞" if high is None else f"{high:,}"
    if ivalue < low or (high is not None and ivalue > high):
        raise ValueError(f"`{name}` must be between {low:,} and {upper}, got {ivalue:,}.")
    return ivalue


def check_real(
    name: str,
    value,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """Return ``value`` as ``float`` if it is finite and inside the interval."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"`{name}` must be a number, got {value!r}.")
    fvalue = float(value)
    if not math.isfinite(fvalue):
        raise ValueError(f"`{name}` must be a finite number, got {value!r}.")
    too_low = fvalue <= low if low_open else fvalue < low
    too_high = fvalue >= high if high_open else fvalue > high
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        raise ValueError(f"`{name}` must be in {left}{low:g}, {high:g}{right}, got {fvalue:g}.")
    return fvalue


def check_probability(name: str, value, *, open_low: bool = False, open_high: bool = False) -> float:
    """A probability in [0, 1] (optionally open at either end)."""
    return check_real(name, value, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def check_alpha(value) -> float:
    """Significance level in (0, 0.5]."""
    return check_real("alpha", value, low=0.0, high=0.5, low_open=True)


def check_type(name: str, value, cls: type):
    """``value`` itself when it is a ``cls``; else a ``ValueError`` naming the parameter and the class by its public
    package (``core.llm.BenchmarkDesign``, as the scenario packages export it)."""
    if not isinstance(value, cls):
        public = ".".join(cls.__module__.split(".")[:2])
        raise ValueError(f"`{name}` must be a {public}.{cls.__name__}; got {type(value).__name__}.")
    return value


def check_choice(name: str, value, choices: Iterable[str]) -> str:
    """One of a fixed set of strings."""
    options = tuple(choices)
    if value not in options:
        listed = ", ".join(repr(c) for c in options)
        raise ValueError(f"`{name}` must be one of {listed}, got {value!r}.")
    return value


def renamed(new_value, old_value, *, new: str, old: str):
    """The value of a keyword renamed from ``old`` to ``new`` (one vocabulary across modules), accepting the old
    name for one release with a ``DeprecationWarning``; both at once is an error."""
    if old_value is None:
        if new_value is None:
            raise ValueError(f"`{new}` is required.")
        return new_value
    if new_value is not None:
        raise ValueError(f"Give `{new}` only (`{old}` is its old name).")
    import warnings

    warnings.warn(f"`{old}` is now called `{new}`; the old name will be removed in the next release.",
                  DeprecationWarning, stacklevel=3)
    return old_value


def rng_of(seed, *, name: str = "seed") -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` for a seed that is None (fresh entropy), a whole number ≥ 0, or a
    ``Generator`` / ``SeedSequence`` (used as it is); anything else is a ``ValueError`` naming ``name``."""
    if seed is None or isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        return np.random.default_rng(seed)
    return np.random.default_rng(check_int(name, seed, low=0))


def as_floats(name: str, values, *, what: str = "numbers") -> np.ndarray:
    """``numpy.asarray(values, dtype=float)``, or a ``ValueError`` naming ``name`` ("`name` must be {what}, got …")
    for text or other values numpy cannot read as numbers. Range and finiteness are the caller's to check."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be {what}, got {values!r:.60}.") from None

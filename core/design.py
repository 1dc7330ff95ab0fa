"""Designs that declare their fields once: the contract between a page and ``core``.

A scenario's design is a frozen dataclass whose fields are declared with :func:`spec` — default, valid range,
step, unit, label, help and URL key in one place. :class:`Design` (a mixin) reads those declarations to

* validate and coerce every declared field (:meth:`Design.check_fields`, called from ``__post_init__``), with
  messages that name the parameter in backticks and give its range, as every check in :mod:`core.validation`;
* describe the fields to a page (:meth:`Design.fields`), which builds its widgets from them;
* write and read links and pins (:meth:`Design.to_params` / :meth:`Design.from_params`): ``from_params({})`` is the
  default design, unknown keys are ignored, a bad value falls back to the default with a message, and
  ``from_params(d.to_params()) == d`` (exactly; for a field shown scaled, for the values with at most 12 decimals
  that widgets produce).

Frozen and compared by value, a design is a cache key: a page passes it, and nothing else, to one cached call per
output.

Examples
--------
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy(Design):
...     n: int = spec(100, low=2, high=10_000, step=10, label="Items", unit="items", key="n")
...     alpha: float = spec(0.05, low=0.001, high=0.5, label="α", key="alpha")
>>> Toy().to_params()
{'n': '100', 'alpha': '0.05'}
>>> notes = []
>>> Toy.from_params({"n": "500", "alpha": "two"}, messages=notes)
Toy(n=500, alpha=0.05)
>>> print(notes[0])
`alpha` must be a number, got 'two'; the default 0.05 is used.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .validation import check_choice, check_int, check_real

__all__ = ["Field", "spec", "Design", "KINDS"]

#: What a field holds: ``float``, ``int``, ``choice`` (one of ``choices``), ``bool`` or ``text``.
KINDS = ("float", "int", "choice", "bool", "text")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
_NONE = {"", "none", "null"}


@dataclasses.dataclass(frozen=True)
class Field:
    """One declared field of a design.

    Attributes
    ----------
    name : str
        The dataclass field (the keyword of the engines).
    default : object
        Its default (``from_params({})`` uses it).
    kind : str
        One of :data:`KINDS`.
    low, high : float or None
        The valid range (inclusive unless ``low_open`` / ``high_open``); ``None``: unbounded.
    step : float or None
        The widget's step.
    unit, label, help : str
        The unit (``"pts"``, ``"questions"``, ``""`` for none), the widget's label and its help text.
    key : str
        The URL parameter and the widget key.
    choices : tuple
        The allowed values of a ``choice`` field.
    optional : bool
        Whether ``None`` is allowed (written as ``"none"`` in links).
    scale : float
        Widget value = field value × ``scale`` (e.g. 100 for a proportion shown in points). Links carry the widget's
        value (a bound widget writes what it shows into the URL), so :meth:`format` and :meth:`parse` scale too.
    ui_low, ui_high : float or None
        The widget's range when narrower than the valid range (a slider's ends); ``None``: ``low`` / ``high``.
    fmt : str or None
        The widget's number format (``"%.3f"``).
    """

    name: str
    default: Any
    kind: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    unit: str = ""
    label: str = ""
    help: str = ""
    key: str = ""
    choices: tuple = ()
    optional: bool = False
    scale: float = 1.0
    low_open: bool = False
    high_open: bool = False
    ui_low: float | None = None
    ui_high: float | None = None
    fmt: str | None = None

    # --- checks ---------------------------------------------------------------------------------------------
    def range_text(self, *, shown: bool = False) -> str:
        """The valid values in words (for messages and help); ``shown``: in the widget's units (× ``scale``), as a
        link carries them."""
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "text":
            return "text"
        unit = self.to_widget if shown else (lambda x: x)
        lo = "−∞" if self.low is None else _number(unit(self.low))
        hi = "∞" if self.high is None else _number(unit(self.high))
        return f"{'(' if self.low_open else '['}{lo}, {hi}{')' if self.high_open else ']'}"

    def widget_range_text(self) -> str:
        """The widget's ends in the units it shows (``"1 to 99"``): what a slider, and so a link, can take."""
        lo, hi = self.widget_low, self.widget_high
        return f"{'−∞' if lo is None else _number(lo)} to {'∞' if hi is None else _number(hi)}"

    def check(self, value):
        """``value`` coerced to the field's kind, or a ``ValueError`` naming the field and its range."""
        if value is None:
            if self.optional:
                return None
            raise ValueError(f"`{self.name}` is required ({self.range_text()}), got None.")
        if self.kind == "float":
            lo = -math.inf if self.low is None else self.low
            hi = math.inf if self.high is None else self.high
            return check_real(self.name, value, low=lo, high=hi, low_open=self.low_open, high_open=self.high_open)
        if self.kind == "int":
            value = check_int(self.name, value, low=-(2**62) if self.low is None else int(self.low),
                              high=None if self.high is None else int(self.high))
            if self.low_open and value <= self.low or self.high_open and value >= self.high:
                raise ValueError(f"`{self.name}` must be in {self.range_text()}, got {value:,}.")
            return value
        if self.kind == "choice":
            return check_choice(self.name, value, self.choices)
        if self.kind == "bool":
            if isinstance(value, (bool, numbers.Integral)) and value in (0, 1):
                return bool(value)
            raise ValueError(f"`{self.name}` must be true or false, got {value!r}.")
        if not isinstance(value, str):
            raise ValueError(f"`{self.name}` must be text, got {value!r}.")
        return value

    # --- links ----------------------------------------------------------------------------------------------
    def parse(self, text: str):
        """A link's text as a checked value (``ValueError`` naming the field when it is not one)."""
        raw = str(text).strip()
        if self.optional and raw.lower() in _NONE:
            return None
        if self.kind == "float":
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"`{self.name}` must be a number, got {raw!r}.") from None
            if self.scale != 1.0 and math.isfinite(value):
                value = round(value / self.scale, 12)  # links carry what the widget shows
        elif self.kind == "int":
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"`{self.name}` must be a whole number, got {raw!r}.") from None
            value = int(value) if math.isfinite(value) and value == int(value) else value
        elif self.kind == "bool":
            low = raw.lower()
            if low not in _TRUE | _FALSE:
                raise ValueError(f"`{self.name}` must be true or false, got {raw!r}.")
            value = low in _TRUE
        elif self.kind == "choice":
            # links carry the choice as written; numeric choices (α's options) by value
            value = next((c for c in self.choices if str(c) == raw or _same_number(c, raw)), raw)
        else:
            value = raw
        return self.check(value)

    def format(self, value) -> str:
        """The value as a link writes it (``parse(format(v)) == v``)."""
        if value is None:
            return "none"
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "float":
            value = self._to_widget(value)  # links carry what the widget shows (× scale)
            text = f"{float(value):.15g}"
            return text if float(text) == float(value) else repr(float(value))
        return str(value)

    # --- widgets ---------------------------------------------------------------------------------------------
    @property
    def widget_low(self):
        """The widget's lower end, in widget units."""
        low = self.low if self.ui_low is None else self.ui_low
        return None if low is None else self._to_widget(low)

    @property
    def widget_high(self):
        """The widget's upper end, in widget units."""
        high = self.high if self.ui_high is None else self.ui_high
        return None if high is None else self._to_widget(high)

    @property
    def widget_step(self):
        """The widget's step, in widget units."""
        return None if self.step is None else self._to_widget(self.step)

    def to_widget(self, value):
        """A field value in widget units (× ``scale``)."""
        return value if value is None or self.kind not in ("float", "int") else self._to_widget(value)

    def from_widget(self, value):
        """A widget's value as a field value (÷ ``scale``), checked."""
        if value is not None and self.kind == "float" and self.scale != 1.0:
            value = round(float(value) / self.scale, 12)
        return self.check(value)

    def _to_widget(self, value):
        if self.kind == "int":
            return int(value)
        return round(float(value) * self.scale, 12) if self.scale != 1.0 else float(value)


def _number(x: float) -> str:
    """A bound for people: 2,000,000 rather than 2e+06."""
    return f"{int(x):,}" if float(x).is_integer() and abs(x) < 1e15 else f"{x:g}"


def _same_number(choice, raw: str) -> bool:
    if isinstance(choice, bool) or not isinstance(choice, numbers.Real):
        return False
    try:
        return float(raw) == float(choice)
    except ValueError:
        return False


def spec(default, *, label: str, unit: str = "", help: str = "", key: str | None = None,
         low: float | None = None, high: float | None = None, step: float | None = None,
         choices: Sequence | None = None, kind: str | None = None, optional: bool = False, scale: float = 1.0,
         low_open: bool = False, high_open: bool = False, ui_low: float | None = None, ui_high: float | None = None,
         fmt: str | None = None):
    """Declare a design field once: ``x: float = spec(0.5, low=0, high=1, label="…", unit="…", key="x")``.

    The kind is inferred from ``choices`` (``choice``) or the default's type (``bool``, ``int``, ``float``,
    ``text``); pass ``kind`` when the default is ``None``. ``key`` defaults to the field's name. Returns a
    :func:`dataclasses.field` whose metadata holds the declaration; :class:`Design` completes it with the name.
    """
    if kind is None:
        if choices is not None:
            kind = "choice"
        elif isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, numbers.Integral):
            kind = "int"
        elif isinstance(default, numbers.Real):
            kind = "float"
        elif isinstance(default, str):
            kind = "text"
        else:
            raise ValueError("`kind` must be given when the default is None or not a number, text or bool.")
    if kind not in KINDS:
        raise ValueError(f"`kind` must be one of {', '.join(KINDS)}, got {kind!r}.")
    declared = dict(default=default, kind=kind, low=low, high=high, step=step, unit=unit, label=label, help=help,
                    key=key, choices=tuple(choices or ()), optional=optional or default is None, scale=scale,
                    low_open=low_open, high_open=high_open, ui_low=ui_low, ui_high=ui_high, fmt=fmt)
    return dataclasses.field(default=default, metadata={"spec": declared})


class Design:
    """Mixin for a frozen dataclass whose fields are declared with :func:`spec` (see the module notes).

    Subclasses that define ``__post_init__`` call :meth:`check_fields` first and keep only the checks that span
    several fields. The scenario's methods (``power(n)``, ``sample_sizes(target_power)``, ``mde(n, target_power)``,
    ``curves(...)``, ``assurance(...)`` where it applies) are the design's own.
    """

    def __post_init__(self):
        self.check_fields()

    @classmethod
    def fields(cls) -> tuple[Field, ...]:
        """The declared fields, in order (each with its range, step, unit, label, help and URL key)."""
        cached = cls.__dict__.get("_field_specs")
        if cached is None:
            cached = tuple(Field(name=f.name, **{**f.metadata["spec"], "key": f.metadata["spec"]["key"] or f.name})
                           for f in dataclasses.fields(cls) if "spec" in f.metadata)
            type.__setattr__(cls, "_field_specs", cached)
        return cached

    @classmethod
    def field(cls, name: str) -> Field:
        """The declaration of the field ``name``."""
        for f in cls.fields():
            if f.name == name:
                return f
        raise KeyError(name)

    def check_fields(self) -> None:
        """Validate and coerce every declared field in place (``ValueError`` naming the first bad one)."""
        for f in self.fields():
            object.__setattr__(self, f.name, f.check(getattr(self, f.name)))

    def to_params(self) -> dict[str, str]:
        """Every declared field as link text, by URL key."""
        return {f.key: f.format(getattr(self, f.name)) for f in self.fields()}

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None = None, *, messages: list | None = None):
        """The design a link or pin describes.

        Declared keys are read; others are ignored. A value that does not parse, or that the design refuses
        together with the values before it, falls back to its default and a message is appended to ``messages``.
        """
        params = params or {}
        notes: list[str] = []
        values: dict[str, Any] = {}
        for f in cls.fields():
            if f.key not in params:
                continue
            raw = params[f.key]
            if isinstance(raw, (list, tuple)):  # st.query_params.to_dict() gives the last; parse_qs gives lists
                raw = raw[-1] if raw else ""
            try:
                values[f.name] = f.parse(raw)
            except (ValueError, TypeError) as e:
                notes.append(f"{str(e).rstrip('.')}; the default {f.format(f.default)} is used.")
        # checks spanning fields: drop one value at a time until the design holds
        by_name = {f.name: f for f in cls.fields()}
        while True:
            try:
                design = cls(**values)
                break
            except (ValueError, TypeError) as e:
                if not values:
                    raise
                named = [n for n in values if f"`{n}`" in str(e)]
                # the value the message names, unless the design still fails without it: then the one whose
                # default makes a design (later fields first)
                candidates = named[::-1] + [n for n in reversed(list(values)) if n not in named]
                drop = candidates[0]
                for name in candidates:
                    try:
                        cls(**{k: v for k, v in values.items() if k != name})
                    except (ValueError, TypeError):
                        continue
                    drop = name
                    break
                values.pop(drop)
                notes.append(f"{str(e).rstrip('.')}; the default {by_name[drop].format(by_name[drop].default)} of "
                             f"`{drop}` is used.")
        if messages is not None:
            messages.extend(notes)
        return design

    def with_(self, **changes):
        """The same design with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    #: For an output method's name, the fields it does not read and the value each takes in its cache key (None: the
    #: field's default; a callable: its value for the design, when a fixed value could break a check that spans
    #: fields), as :meth:`key_for` applies them. A subclass declares them; the contract test checks that
    #: every listed output is the same for the key as for the design.
    UNREAD: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    def key_for(self, output: str):
        """This design as the cache key of the method ``output``: the fields that output does not read
        (:attr:`UNREAD`) set to fixed values, so a page that caches the output on this key reuses it when only those
        fields move (the MDE when the difference moves, the sample sizes when n moves)."""
        unread = self.UNREAD.get(output)
        if not unread:
            return self
        return self.with_(**{name: self.field(name).default if value is None else
                             value(self) if callable(value) else value for name, value in unread.items()})

"""Every scenario's design keeps the contract of :mod:`core.design` (the registry lists them per page):
declared fields with a unit and a URL key, the default design from an empty link, round trips of random valid
designs, bad link values falling back with a message that names the parameter."""

from __future__ import annotations

import dataclasses
import math
import random
import re

import pytest

from core.design import Design
from pages._registry import PAGES, design_classes

DESIGNS = sorted({cls for page in PAGES for cls in design_classes(page)}, key=lambda c: c.__qualname__)
JUNK = ["", "abc", "nan", "inf", "-1e308", "1e308", "0.5.5", "<b>x</b>", "[1,2]", "💥"]


def _draw(f, rng):
    if f.kind == "choice":
        return rng.choice(f.choices)
    if f.kind == "bool":
        return rng.random() < 0.5
    if f.kind == "text":
        return f.default
    lo = f.ui_low if f.ui_low is not None else f.low
    hi = f.ui_high if f.ui_high is not None else f.high
    if f.default is not None:
        lo = f.default - 10 * (abs(f.default) + 1) if lo is None else lo
        hi = f.default + 10 * (abs(f.default) + 1) if hi is None else hi
    if lo is None or hi is None:
        return f.default
    if f.kind == "int":
        return rng.randint(int(math.ceil(lo)) + int(f.low_open), int(math.floor(hi)) - int(f.high_open))
    x = round(rng.uniform(lo, hi), 9)  # as a widget gives it (scaled fields round-trip to 12 decimals)
    return min(max(x, lo + 1e-9 if f.low_open else lo), hi - 1e-9 if f.high_open else hi)


def test_every_scenario_page_declares_its_designs():
    scenario = [p.name for p in PAGES if p.section == "Scenarios"]
    missing = [p for p in scenario if not next(x for x in PAGES if x.name == p).designs]
    assert not missing, f"pages without a declared design: {missing}"


@pytest.mark.parametrize("cls", DESIGNS, ids=lambda c: c.__qualname__)
def test_declared_fields(cls):
    assert issubclass(cls, Design) and dataclasses.is_dataclass(cls)
    assert cls.__dataclass_params__.frozen
    specs = cls.fields()
    assert specs, "no declared field"
    keys = [f.key for f in specs]
    assert len(keys) == len(set(keys)), "two fields share a URL key"
    for f in specs:
        assert isinstance(f.unit, str) and f.label, f.name
        assert re.fullmatch(r"[a-z][a-z0-9_]*", f.key), f.key
        if f.kind in ("float", "int") and f.default is not None:
            assert f.check(f.default) == f.default, f"{f.name}: the default is outside its own range"
    assert any(callable(getattr(cls, m, None)) for m in ("power", "run", "curves", "sample_sizes", "power_curve",
                                                         "plans")), \
        "a design computes: power, run, curves, sample_sizes, power_curve or plans"


@pytest.mark.parametrize("cls", DESIGNS, ids=lambda c: c.__qualname__)
def test_default_and_round_trips(cls):
    assert cls.from_params({}) == cls()
    assert cls.from_params(cls().to_params()) == cls()
    rng = random.Random(cls.__qualname__)
    made = 0
    for _ in range(60):
        values = {f.name: _draw(f, rng) for f in cls.fields()}
        try:
            d = cls(**values)
        except ValueError as e:
            assert re.search(r"`\w+`", str(e)), f"a refusal must name its parameter: {e}"
            continue
        made += 1
        assert cls.from_params(d.to_params()) == d
        assert all(isinstance(v, str) for v in d.to_params().values())
    assert made >= 10, f"only {made} of 60 random designs inside the declared ranges were accepted"


@pytest.mark.parametrize("cls", DESIGNS, ids=lambda c: c.__qualname__)
def test_bad_link_values_fall_back_with_a_message(cls):
    rng = random.Random("junk-" + cls.__qualname__)
    for _ in range(10):
        params = {f.key: rng.choice(JUNK) for f in cls.fields()}
        notes: list = []
        d = cls.from_params(params, messages=notes)
        assert isinstance(d, cls)
        for note in notes:
            assert re.search(r"`\w+`", note) and note.endswith("is used.")
        for f in cls.fields():
            if getattr(d, f.name) != f.default:  # accepted: the link's value parsed and was in range
                assert f.format(getattr(d, f.name)) in {f.format(f.parse(params[f.key]))}


def _outcome(design, output):
    try:
        value = getattr(design, output)()
    except ValueError as e:
        return ("refused", str(e))
    return ("value", repr(value))  # reprs compare NaN, dataclasses and floats to the last digit


KEYED = [(cls, output) for cls in DESIGNS for output in cls.UNREAD]


def test_the_keyed_outputs_are_declared_where_pages_cache_them():
    names = {(cls.__qualname__, output) for cls, output in KEYED}
    assert {("AccuracyPageDesign", "mde"), ("AccuracyPageDesign", "sample_sizes"), ("BenchmarkDesign", "mde"),
            ("BenchmarkDesign", "sample_sizes"), ("BenchmarkDesign", "plan"), ("CampaignDesign", "mde"),
            ("CampaignDesign", "sample_sizes")} <= names


@pytest.mark.parametrize("cls, output", KEYED, ids=lambda x: getattr(x, "__qualname__", x))
def test_an_output_is_the_same_on_its_cache_key(cls, output):
    """:meth:`core.design.Design.key_for` sets the fields an output does not read: the output must not move, and
    designs that differ only in those fields share one key."""
    rng = random.Random(f"key-{cls.__qualname__}-{output}")
    checked = 0
    for _ in range(200):
        if checked == 6:
            break
        try:
            d = cls(**{f.name: _draw(f, rng) for f in cls.fields()})
            key = d.key_for(output)
        except ValueError:
            continue
        if cls.__qualname__ == "CampaignDesign" and abs(d.delta) < 1.0:
            continue  # the sample-size search for a tiny difference runs to a million judgments: slow, not wrong
        assert _outcome(key, output) == _outcome(d, output), (d, output)
        moved = {}
        for name in cls.UNREAD[output]:
            f = cls.field(name)
            other = _draw(f, rng)
            moved[name] = other
        try:
            twin = d.with_(**moved)
        except ValueError:
            twin = None
        if twin is not None:
            assert twin.key_for(output) == key
        checked += 1
    assert checked >= 3, f"only {checked} random designs could be checked"


# --- every widget end is a value the design accepts ---------------------------------------------------------------
def _every_design():
    """The registry's designs and every other core subclass of Design (e.g. SequentialDesign, which no page lists)."""
    def below(c):
        for s in c.__subclasses__():
            yield s
            yield from below(s)

    found = {c for c in below(Design) if c.__module__.startswith("core.")} | set(DESIGNS)
    return sorted(found, key=lambda c: c.__qualname__)


WIDGET_ENDS = []
for _cls in _every_design():
    for _f in _cls.fields():
        if _f.kind not in ("float", "int"):
            continue
        for _side, _end in (("low", _f.widget_low), ("high", _f.widget_high)):
            if _end is None:
                continue
            WIDGET_ENDS.append(pytest.param(_cls, _f.name, _end, id=f"{_cls.__qualname__}.{_f.name}.{_side}"))


def _holds_with_two_others_moved(cls, name, value):
    """Some design holds ``value``: the others at their defaults, or one or two of them moved to a widget end, the
    middle of the widget or another choice (the checks spanning fields, e.g. |Δ| ≤ 1 − agreement, refuse a far end
    only together with some other value)."""
    choices = []
    for f in cls.fields():
        if f.name == name or f.kind == "text":
            continue
        if f.kind in ("choice", "bool"):
            choices += [(f.name, v) for v in (f.choices if f.kind == "choice" else (False, True))]
            continue
        lo, hi = f.widget_low, f.widget_high
        shown = [e for e in (lo, hi) if e is not None]
        if lo is not None and hi is not None:
            shown.append(int((lo + hi) // 2) if f.kind == "int" else (lo + hi) / 2)
        choices += [(f.name, f.from_widget(e)) for e in shown if _valid(f, e)]
    tries = [{}] + [dict([a]) for a in choices] + [dict([a, b]) for i, a in enumerate(choices)
                                                   for b in choices[i + 1:] if a[0] != b[0]]
    for others in tries:
        try:
            cls(**{**others, name: value})
        except ValueError:
            continue
        return True
    return False


def _valid(f, end):
    try:
        f.from_widget(end)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("cls, name, end", WIDGET_ENDS)
def test_every_widget_end_is_accepted(cls, name, end):
    """A slider or number input can reach its ends, so each must be a valid value of the field and held by some
    design (regression: the residual SD's slider of the Ratings page started at σ = 0, which the design refuses)."""
    f = cls.field(name)
    value = f.from_widget(end)  # the field's own range
    assert _holds_with_two_others_moved(cls, name, value), f"no design holds {name} = {value!r}"

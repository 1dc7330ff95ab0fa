"""The design contract (:mod:`core.design`): declared fields, checks, links and pins."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from core.design import Design, Field, spec


@dataclass(frozen=True)
class Toy(Design):
    n: int = spec(100, low=2, high=10_000, step=10, label="Items", unit="items", key="n")
    delta: float = spec(0.02, low=-1.0, high=1.0, step=0.005, label="Gain", unit="pts", scale=100.0, key="d")
    alpha: float = spec(0.05, choices=(0.01, 0.05, 0.1), label="α")
    test: str = spec("exact", choices=("exact", "asymptotic"), label="Test")
    paired: bool = spec(True, label="Paired")
    sd: float | None = spec(None, kind="float", low=0.0, low_open=True, label="SD")

    def __post_init__(self):
        self.check_fields()
        if self.n < 10 and self.test == "asymptotic":  # a check spanning two fields
            raise ValueError("`n` must be at least 10 for the asymptotic test, got %d." % self.n)


def test_fields_are_declared_once_with_name_and_key():
    names = [f.name for f in Toy.fields()]
    assert names == ["n", "delta", "alpha", "test", "paired", "sd"]
    assert Toy.field("delta").key == "d" and Toy.field("n").key == "n"
    assert Toy.field("n").unit == "items" and Toy.field("delta").unit == "pts"
    assert [f.kind for f in Toy.fields()] == ["int", "float", "choice", "choice", "bool", "float"]
    assert Toy.field("sd").optional and not Toy.field("n").optional
    assert all(isinstance(f, Field) for f in Toy.fields())


def test_default_design_and_round_trip():
    assert Toy.from_params({}) == Toy()
    d = Toy(n=1234, delta=-0.0375, alpha=0.01, test="asymptotic", paired=False, sd=0.3)
    p = d.to_params()
    assert all(isinstance(v, str) for v in p.values())
    assert p == {"n": "1234", "d": "-3.75", "alpha": "0.01", "test": "asymptotic", "paired": "false", "sd": "0.3"}
    assert Toy.from_params(p) == d
    assert Toy.from_params(Toy().to_params()) == Toy()
    # a float that %g would round is written exactly; a scaled one to the 12 decimals widgets produce
    assert Toy.from_params(Toy(sd=1 / 3).to_params()).sd == 1 / 3
    assert Toy.from_params(Toy(delta=0.0123456789).to_params()).delta == 0.0123456789


def test_checks_name_the_parameter_and_its_range():
    with pytest.raises(ValueError, match=r"`n` must be between 2 and 10,000, got 1"):
        Toy(n=1)
    with pytest.raises(ValueError, match=r"`delta` must be in \[-1, 1\]"):
        Toy(delta=2.0)
    with pytest.raises(ValueError, match=r"`alpha` must be one of 0.01, 0.05, 0.1"):
        Toy(alpha=0.2)
    with pytest.raises(ValueError, match=r"`sd` must be in \(0, inf\]"):
        Toy(sd=0.0)
    with pytest.raises(ValueError, match="`paired` must be true or false"):
        Toy(paired="maybe")
    assert Toy(n=50.0).n == 50 and isinstance(Toy(n=50.0).n, int)  # whole floats are coerced


def test_bad_and_unknown_values_fall_back_with_a_message():
    notes = []
    d = Toy.from_params({"n": "inf", "d": "nan", "alpha": "0.1", "paired": "perhaps", "zzz": "1", "sd": "none"},
                        messages=notes)
    assert d == Toy(alpha=0.1)
    assert len(notes) == 3
    assert notes[0].startswith("`n` must be a whole number") and notes[0].endswith("the default 100 is used.")
    assert "`delta` must be a finite number" in notes[1]
    assert "`paired` must be true or false" in notes[2]
    # values the design refuses together: the one its message names falls back (whatever the fields' order)
    notes = []
    assert Toy.from_params({"n": "5", "test": "asymptotic"}, messages=notes) == Toy(test="asymptotic")
    assert "at least 10 for the asymptotic test" in notes[0] and notes[0].endswith("the default 100 of `n` is used.")
    # lists (parse_qs) take the last value; numeric choices match by value
    assert Toy.from_params({"n": ["3", "30"], "alpha": "0.10"}) == Toy(n=30, alpha=0.1)


def test_links_carry_what_the_widget_shows():
    # a bound widget writes its shown value (points) into the URL: the link's d=2.5 is a 0.025 difference
    assert Toy.from_params({"d": "2.5"}).delta == 0.025
    assert Toy(delta=0.025).to_params()["d"] == "2.5"
    assert Toy.field("n").range_text() == "[2, 10,000]"
    assert Toy.field("delta").range_text() == "[-1, 1]" and Toy.field("delta").range_text(shown=True) == "[-100, 100]"


def test_widget_units():
    f = Toy.field("delta")
    assert f.to_widget(0.02) == 2.0 and f.widget_low == -100.0 and f.widget_step == 0.5
    assert f.from_widget(2.5) == 0.025
    assert Toy.field("n").to_widget(100) == 100 and isinstance(Toy.field("n").widget_high, int)
    assert math.isclose(f.from_widget(f.to_widget(0.0123)), 0.0123)


def test_widget_range_text_gives_the_widgets_ends_in_its_units():
    # what a slider (and so a link) can take: the widget's ends, scaled, narrower than the valid range with ui_*
    assert Toy.field("delta").widget_range_text() == "-100 to 100"
    assert Toy.field("n").widget_range_text() == "2 to 10,000"
    assert Toy.field("sd").widget_range_text() == "0 to ∞"
    narrow = Field(name="acc", default=0.7, kind="float", low=0.0, high=1.0, ui_low=0.01, ui_high=0.99, scale=100.0)
    assert narrow.widget_range_text() == "1 to 99"


def test_designs_are_hashable_cache_keys():
    assert hash(Toy()) == hash(Toy.from_params({})) and Toy() != Toy(n=101)
    assert Toy().with_(n=200) == Toy(n=200)
    with pytest.raises(ValueError, match="`n`"):
        Toy().with_(n=0)

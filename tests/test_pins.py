"""Pins: a kept design travels in ``?pins=`` as its link text and is read back by its page's design
(:meth:`pages._pins.Pin.design`), in one place for every page."""

from __future__ import annotations

import pytest

from core import llm
from core import pairwise as pw
from core import sequential as sq
from pages._pins import Pin, _decode_pins, _encode_pins


def test_a_pin_reads_its_design_from_its_link_text():
    d = llm.BenchmarkDesign(n=800, delta=0.03, samples=5)
    pin = Pin("mine", tuple(d.to_params().items()))
    assert pin.design(llm.BenchmarkDesign) == d
    (back,) = _decode_pins(_encode_pins([pin]))
    assert back == pin and back.design(llm.BenchmarkDesign) == d


@pytest.mark.parametrize("values, named", [
    ((("budget", "inf"),), "`budget`"),
    ((("budget", "abc"), ("peeks", "4")), "`budget`"),
    ((("peeks", "99"),), "`looks`"),  # the field's name (its URL key is `peeks`)
])
def test_a_value_the_design_refuses_is_reported_not_replaced_by_a_default(values, named):
    with pytest.raises(ValueError, match="A value in the pin is out of range or not a number") as err:
        Pin("bad", values).design(sq.CampaignDesign)
    assert named in str(err.value) and "the default" not in str(err.value)


def test_renamed_keys_of_older_pins_are_read():
    ratings = "A:1000;B:1030;C:1045"
    pin = Pin("old", (("preset", "custom"), ("_ratings_text", ratings), ("votes", "3000"), ("ties", "half"),
                      ("ties_pct", "20")))
    d = pin.design(pw.LeaderboardDesign, renamed={"_ratings_text": "ratings"})
    assert d == pw.LeaderboardDesign(preset="custom", ratings=ratings, n=3000, ties="split", tie_pct=20.0)
    # a key under its current name wins over the old one
    both = Pin("both", pin.values + (("ratings", "A:1000;B:1100"),))
    assert both.design(pw.LeaderboardDesign, renamed={"_ratings_text": "ratings"}).ratings == "A:1000;B:1100"

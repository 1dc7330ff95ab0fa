"""The metrics-row helpers of pages/_scaffold.py: sample sizes name what they count, points read the same everywhere."""

from __future__ import annotations

import math

import pytest

from core.sizing import SampleSize
from pages._scaffold import fmt_points, sample_size_metric


def test_sample_size_label_names_what_is_counted():
    m = sample_size_metric(SampleSize(2899, 2899), 0.8, unit="questions")
    assert (m.label, m.value) == ("Questions for 80% power", "2,899")
    m = sample_size_metric(SampleSize(1200, 1300), 0.9, unit="items", condition=" (no worse)")
    assert m.label == "Items for 90% power (no worse)" and "stays above it only from 1,300" in m.caption
    assert sample_size_metric(None, 0.8, unit="raters").value == "—"
    assert sample_size_metric(SampleSize(-1, -1), 0.8, unit="votes", limit=10_000).value == "> 10,000"


def test_sample_size_needs_a_unit():
    with pytest.raises(ValueError, match="`unit`"):
        sample_size_metric(SampleSize(10, 10), 0.8, unit="")
    with pytest.raises(TypeError):
        sample_size_metric(SampleSize(10, 10), 0.8)  # the unit is required: no page may show a bare n


def test_points_are_proportions_times_100():
    assert fmt_points(0.0503) == "5.03 pts"
    assert fmt_points(0.03, sign=True, digits=1) == "+3.0 pts"
    assert fmt_points(-0.0012, sign=True) == "-0.12 pts"
    assert fmt_points(math.nan) == "—" and fmt_points(None) == "—"

"""core.llm.BenchmarkDesign: one validated design object, the keyword API as a thin wrapper, a cache key by value.

Oracles: the keyword functions (tested against independent derivations in test_llm.py) and Streamlit's own cache.
"""

from __future__ import annotations

import dataclasses

import pytest
import streamlit as st

from core import llm

KW = dict(difficulty_sd=0.25, correlation=0.6, samples=3, cluster_size=4, icc=0.2, judge_sensitivity=0.9,
          judge_specificity=0.85, alpha=0.05)


def test_methods_equal_the_keyword_functions():
    d = llm.BenchmarkDesign(0.70, 0.73, **KW)
    assert d.power(1000) == llm.benchmark_power(1000, 0.70, 0.73, **KW)
    assert d.sample_sizes() == llm.benchmark_sample_sizes(0.70, 0.73, **KW)
    no_b = {k: v for k, v in KW.items()}
    assert d.mde(1000) == llm.benchmark_mde(1000, 0.70, **no_b)
    assert d.power_curve([200, 2000]).equals(llm.power_curve([200, 2000], 0.70, 0.73,
                                                             **{k: v for k, v in KW.items() if k != "samples"}))
    assert d.assurance(1000, 0.03, 0.01) == llm.benchmark_assurance(1000, 0.70, 0.03, 0.01, **KW)
    assert d.noninferiority_power(1000, 0.02) == llm.benchmark_noninferiority_power(
        1000, 0.70, 0.73, 0.02, **{k: v for k, v in KW.items() if k != "alpha"})


def test_validated_once_with_the_functions_messages():
    with pytest.raises(ValueError, match="`difficulty_sd`"):
        llm.BenchmarkDesign(0.7, 0.73, difficulty_sd=0.6)
    with pytest.raises(ValueError, match="`judge_sensitivity`"):
        llm.BenchmarkDesign(0.7, 0.73, judge_sensitivity=0.4, judge_specificity=0.5)
    d = llm.BenchmarkDesign(0.7, 0.73, samples=3.0)  # whole numbers given as floats are kept as ints
    assert isinstance(d.samples, int)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.samples = 4
    with pytest.raises(ValueError, match="`icc`"):
        d.with_(icc=1.5)


def test_a_cache_key_by_value():
    """Equal designs built separately hit one st.cache_data entry; a different design does not."""
    calls = []

    @st.cache_data(show_spinner=False)
    def power(design):
        calls.append(design)
        return design.power(500).power

    first = power(llm.BenchmarkDesign(0.70, 0.73, **KW))
    again = power(llm.BenchmarkDesign(0.70, 0.73, **KW))
    other = power(llm.BenchmarkDesign(0.70, 0.74, **KW))
    assert first == again != other and len(calls) == 2
    power.clear()

"""The shared argument checks (core/validation.py): messages name the parameter in backticks."""

from __future__ import annotations

import numpy as np
import pytest

from core import llm, mt, pairwise, ratings, sequential
from core.validation import check_type


def test_check_type_returns_the_value_and_names_the_public_class():
    design = llm.BenchmarkDesign()
    assert check_type("design", design, llm.BenchmarkDesign) is design
    # the class by the package that exports it (core.llm, not core.llm.design)
    with pytest.raises(ValueError, match=r"^`design` must be a core\.llm\.BenchmarkDesign; got dict\.$"):
        check_type("design", {}, llm.BenchmarkDesign)
    with pytest.raises(ValueError, match=r"^`design` must be a core\.sequential\.MonitorDesign; got CampaignDesign\.$"):
        check_type("design", sequential.CampaignDesign(), sequential.MonitorDesign)


def test_rng_of_takes_whole_seeds_generators_and_none_and_names_anything_else():
    from core.validation import rng_of
    assert rng_of(7).random() == np.random.default_rng(7).random()
    gen = np.random.default_rng(3)
    assert rng_of(gen) is gen
    assert isinstance(rng_of(None), np.random.Generator)
    assert rng_of(np.int64(5)).random() == np.random.default_rng(5).random()
    for bad in ("abc", -1, 1.5, True, [1, 2]):
        with pytest.raises(ValueError, match="`seed`"):
            rng_of(bad)


@pytest.mark.parametrize("call", [
    lambda seed: ratings.likert_power(3, 20, 0.1, **ratings.PRESETS["high"], method="simulate", n_sims=50,
                                      seed=seed),
    lambda seed: pairwise.leaderboard_power(100, pairwise.evenly_spaced(3, 50), method="simulate", n_sims=100,
                                            seed=seed),
    lambda seed: mt.bleu_power(100, 1.0, 0.13, 25.8, method="randomization", n_sims=50, n_trials=99,
                                 seed=seed),
])
def test_simulating_engines_name_a_bad_seed(call):
    # a text or negative seed was numpy's TypeError/ValueError without the parameter's name
    for bad in ("abc", -3):
        with pytest.raises(ValueError, match="`seed`"):
            call(bad)


def test_as_floats_reads_numbers_and_names_anything_else():
    from core.validation import as_floats
    np.testing.assert_array_equal(as_floats("x", [1, "2.5"]), [1.0, 2.5])
    with pytest.raises(ValueError, match=r"^`deltas` must be numbers \(DA points\), got \['a'\]\.$"):
        as_floats("deltas", ["a"], what="numbers (DA points)")
    with pytest.raises(ValueError, match=r"^`x` must be numbers, got \[None, \{\}\]\.$"):
        as_floats("x", [None, {}])

"""The pages' cache key for designs (pages/_frame.py: ``design_key``): every field counts, nothing else.

Oracle: the designs' own equality (frozen dataclasses compare by their fields), over random valid designs drawn
as the design contract test draws them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random

import pytest
from streamlit.runtime.caching.cache_type import CacheType
from streamlit.runtime.caching.hashing import update_hash

from core.design import Design
from pages._frame import _design_hash_funcs, design_key
from tests.test_design_contract import DESIGNS, _draw


def _digest(value, hash_funcs) -> str:
    hasher = hashlib.new("md5")
    update_hash(value, hasher, CacheType.DATA, hash_funcs=hash_funcs)
    return hasher.hexdigest()


def test_every_registered_design_is_keyed_by_its_fields():
    funcs = _design_hash_funcs()
    assert set(DESIGNS) <= set(funcs) and all(issubclass(c, Design) for c in funcs)


@pytest.mark.parametrize("cls", DESIGNS, ids=lambda c: c.__qualname__)
def test_equal_designs_share_a_key_and_different_ones_do_not(cls):
    funcs = _design_hash_funcs()
    rng = random.Random(f"key-{cls.__qualname__}")
    made = [cls()]
    for _ in range(40):
        try:
            made.append(cls(**{f.name: _draw(f, rng) for f in cls.fields()}))
        except ValueError:
            continue
    assert len(made) >= 10
    for d in made:  # a rebuilt equal design has the same key (what a rerun with the same widgets builds)
        twin = cls.from_params(d.to_params())
        assert twin == d and design_key(twin) == design_key(d) and _digest(twin, funcs) == _digest(d, funcs)
    for a in made:  # and designs that differ in any field have different keys
        for b in made:
            if a != b:
                assert design_key(a) != design_key(b)
    # every declared field reaches the key: changing it alone changes the key
    base = made[0]
    for other in made[1:]:
        for f in cls.fields():
            value = getattr(other, f.name)
            if value == getattr(base, f.name):
                continue
            try:
                moved = base.with_(**{f.name: value})
            except ValueError:  # refused together with the default's other fields
                continue
            assert _digest(moved, funcs) != _digest(base, funcs), f.name


def test_two_classes_with_the_same_fields_do_not_share_a_key():
    @dataclasses.dataclass(frozen=True)
    class A(Design):
        x: float = 1.0

    @dataclasses.dataclass(frozen=True)
    class B(Design):
        x: float = 1.0

    assert design_key(A()) != design_key(B())

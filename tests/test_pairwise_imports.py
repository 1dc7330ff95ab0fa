"""core.pairwise's modules import each other without a cycle, and only at module level."""

from __future__ import annotations

import core.pairwise as pw
from tests.test_architecture import _cycles, function_level_imports, sibling_graph


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_pairwise_imports_form_no_cycle():
    graph = sibling_graph("core.pairwise")
    assert {"_common", "design", "power", "votes", "curves"} <= set(graph)
    assert graph["_common"] == set()  # the shared pieces import no sibling
    assert "design" not in set().union(*(graph[m] for m in graph if m not in ("__init__", "design")))
    assert _cycles({m: d - {"__init__"} for m, d in graph.items() if m != "__init__"}) == []


def test_no_function_level_imports_inside_the_package():
    assert function_level_imports("core.pairwise") == []


def test_every_public_name_is_importable_from_the_package():
    missing = [name for name in pw.__all__ if not hasattr(pw, name)]
    assert missing == []
    from core.pairwise import Leaderboard, LeaderboardDesign, SCALE, TIES, leaderboard_power  # noqa: F401
    from core.pairwise.design import MAX_VOTES, crowded_top  # noqa: F401  (the old module path keeps working)

"""core.pairwise's modules import each other without a cycle, and only at module level."""

from __future__ import annotations

import ast
from pathlib import Path

import core.pairwise as pw

PACKAGE = Path(pw.__file__).parent


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    """Each module's sibling imports (``from .x import …``, ``from . import x``), and the imports made inside a
    function or class (which would hide a cycle until the call)."""
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    graph: dict[str, set[str]] = {}
    nested: list[str] = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = {id(node) for node in tree.body}
        edges = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level != 1:
                continue
            targets = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            targets = [t for t in targets if t in modules]
            edges.update(targets)
            if targets and id(node) not in top_level:
                nested.append(f"{path.name}:{node.lineno}")
        graph[path.stem] = edges
    return graph, nested


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the directed graph (depth-first search), or None."""
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_pairwise_imports_form_no_cycle():
    graph, _ = _graph()
    assert {"_common", "design", "power", "votes", "curves"} <= set(graph)
    assert graph["_common"] == set()  # the shared pieces import no sibling
    assert "design" not in set().union(*(graph[m] for m in graph if m not in ("__init__", "design")))
    assert _cycle(graph) is None, _cycle(graph)


def test_no_function_level_imports_inside_the_package():
    _, nested = _graph()
    assert nested == []


def test_every_public_name_is_importable_from_the_package():
    missing = [name for name in pw.__all__ if not hasattr(pw, name)]
    assert missing == []
    from core.pairwise import Leaderboard, LeaderboardDesign, SCALE, TIES, leaderboard_power  # noqa: F401
    from core.pairwise.design import MAX_VOTES, crowded_top  # noqa: F401  (the old module path keeps working)

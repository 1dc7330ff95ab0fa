"""The code's shape: no import circle inside a ``core`` package, no engine package importing a scenario, ``core``
never importing Streamlit, and page files that are layout only and short (≤ 400 lines)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core"
#: Scenario packages: the engines and shared pieces must not import them.
SCENARIOS = ("core.accuracy", "core.llm", "core.judge", "core.pairwise", "core.ratings", "core.humaneval", "core.mt",
             "core.analysis")
#: Engine packages and shared modules (a scenario may import them, never the other way round).
ENGINES = ("core.sequential", "core.sizing", "core.assurance", "core.results", "core.validation", "core.design",
           "core.figures", "core.export", "core.uploads", "core.multiplicity", "core.bayes")
PAGE_LINES = 400


def _modules() -> dict[str, Path]:
    out = {}
    for path in CORE.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _imports(name: str) -> set[str]:
    """Every ``core`` module ``name`` imports, at the top or inside a function."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name) for name in MODULES}


def sibling_graph(package: str) -> dict[str, set[str]]:
    """The imports among one package's modules, by file stem (``"_common"``, ``"design"``, ``"__init__"``)."""
    prefix = package + "."

    def stem(name):
        return "__init__" if name == package else name[len(prefix):]

    inside = {m for m in GRAPH if m == package or m.startswith(prefix)}
    return {stem(m): {stem(d) for d in GRAPH[m] if d in inside} for m in inside}


def function_level_imports(package: str) -> list[str]:
    """The project imports one package's modules make inside a function or class (``file:line``): they would hide
    a circle until the call. A lazy import of a third-party library is not one."""
    found = []
    for name, path in sorted(MODULES.items()):
        if not (name == package or name.startswith(package + ".")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            project = (isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("core"))
                       or isinstance(node, ast.Import) and any(a.name.startswith("core") for a in node.names))
            if project and id(node) not in top:
                found.append(f"{path.name}:{node.lineno}")
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_inside_a_package():
    # a package's __init__ gathers its modules' names: edges into it are re-exports, not dependencies
    inner = {m: {d for d in deps if MODULES[d].name != "__init__.py"} for m, deps in GRAPH.items()
             if MODULES[m].name != "__init__.py"}
    assert _cycles(inner) == []


def test_no_import_circle_between_packages():
    """``core.home`` gathers every scenario; a scenario builds its own cards with :class:`core.teaser.Teaser`."""
    def top(name):
        return ".".join(name.split(".")[:2])

    packages: dict[str, set[str]] = {}
    for module, deps in GRAPH.items():
        packages.setdefault(top(module), set()).update(top(d) for d in deps if top(d) != top(module))
    assert _cycles(packages) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_do_not_import_scenarios(engine):
    bad = {m: sorted(d for d in deps if d.startswith(SCENARIOS)) for m, deps in GRAPH.items()
           if m == engine or m.startswith(engine + ".")}
    assert {m: d for m, d in bad.items() if d} == {}


def test_core_never_imports_streamlit():
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "streamlit" for n in names), name


@pytest.mark.parametrize("path", sorted((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"], ids=lambda p: p.name)
def test_page_files_are_short(path):
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= PAGE_LINES, f"{path.name}: {lines} lines (split its tabs into pages/_<page>_<part>.py)"


@pytest.mark.parametrize("path", sorted((ROOT / "pages").glob("*.py")), ids=lambda p: p.name)
def test_pages_hold_no_statistics(path):
    """Layout only: a page imports no scipy/statsmodels (its numbers come from ``core``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        assert not any(n.split(".")[0] in ("scipy", "statsmodels") for n in names), path.name

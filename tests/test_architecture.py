"""The code's shape: no import circle inside a ``core`` package, no engine package importing a scenario, ``core``
never importing Streamlit, page files that are layout only and short (≤ 400 lines), and a scenario in one place —
its plan item, code snippet and home-page teaser in its own package, named by the registry."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core"
#: Scenario packages: the engines and shared pieces must not import them.
SCENARIOS = ("core.accuracy", "core.llm", "core.judge", "core.pairwise", "core.ratings", "core.humaneval", "core.mt",
             "core.analysis", "core.claims")
#: Engine packages and shared modules (a scenario may import them, never the other way round).
ENGINES = ("core.sequential", "core.sizing", "core.assurance", "core.results", "core.validation", "core.design",
           "core.figures", "core.export", "core.uploads", "core.multiplicity", "core.bayes", "core.plan",
           "core.snippets", "core.teaser")
#: What ``core/plan/`` keeps: the plan document and the number formats every scenario's plan item uses.
PLAN_SHARED = {"__init__", "document", "text"}
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
    """``core.home`` reads uploads for several scenarios; a scenario builds its own card (its ``teaser`` module, with
    :class:`core.teaser.Teaser`), plan item and snippet on the shared ``core.plan`` and ``core.snippets``."""
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


@pytest.mark.parametrize("path", sorted((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"], ids=lambda p: p.name)
def test_every_uploader_is_drawn_with_its_limit(path):
    """The server takes the largest upload any page does (last year's judgments): every uploader is drawn through
    pages._uploads.file_uploader, which tells the browser its own limit, never by Streamlit's directly."""
    if path.name == "_uploads.py":
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    direct = [node.lineno for node in ast.walk(tree)
              if isinstance(node, ast.Attribute) and node.attr == "file_uploader"]
    assert not direct, f"{path.name}, line {direct[0]}: use pages._uploads.file_uploader"


# ---------------------------------------------------------------------------
# a scenario in one place: core/<scenario>/ holds its plan item, snippet and teaser
# ---------------------------------------------------------------------------
def _top_functions(path: Path) -> set[str]:
    return {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(node, ast.FunctionDef)}


def _package(module: str) -> str:
    """The ``core`` package (or top-level module) a dotted module belongs to: ``core.llm.teaser`` → ``core.llm``."""
    return ".".join(module.split(".")[:2])


def test_core_plan_holds_only_the_shared_pieces():
    # each scenario's plan item is core/<scenario>/plan.py (the Monitor page's: core/sequential/monitor_plan.py)
    assert {p.stem for p in (CORE / "plan").glob("*.py")} == PLAN_SHARED
    assert not [p for p in (CORE / "plan").iterdir() if p.is_dir() and p.name != "__pycache__"]


def test_shared_modules_define_no_scenario_snippet_or_teaser():
    assert sorted(n for n in _top_functions(CORE / "snippets.py") if n.endswith("_snippet")) == []
    assert sorted(n for n in _top_functions(CORE / "home.py") if n.endswith("_teaser") or n == "teaser") == []
    home = ast.parse((CORE / "home.py").read_text(encoding="utf-8"))
    assigned = {t.id for node in home.body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    assert "TEASERS" not in assigned


def test_scenario_packages_hold_their_plan_snippet_and_teaser():
    for package in ("accuracy", "analysis", "claims", "judge", "llm", "mt", "ratings", "pairwise", "sequential"):
        assert (CORE / package / "plan.py").is_file(), package
        assert (CORE / package / "teaser.py").is_file(), package
        if package != "analysis":  # the Analyze page reports results: no "Python code for this view"
            assert (CORE / package / "snippet.py").is_file(), package
    assert (CORE / "sequential" / "monitor_plan.py").is_file()


def _cards():
    from pages._registry import PAGES, VIEW_CARDS, by_name

    out = [(p.name, p.teaser, p) for p in PAGES if p.question]
    out += [(v.key, v.teaser, by_name(v.page)) for v in VIEW_CARDS if v.question]
    return out


@pytest.mark.parametrize("name, dotted, page", _cards(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_card_names_a_teaser_in_its_scenario_package(name, dotted, page):
    assert dotted, f"{name} asks a question but names no teaser"
    module, sep, function = dotted.partition(":")
    assert sep and module in MODULES, dotted
    homes = {_package(d.partition(":")[0]) for d in page.designs} | {f"core.{m}" for m in page.core}
    assert _package(module) in homes, f"{dotted} is not in the package of {page.name}'s designs or core modules"
    assert function in _top_functions(MODULES[module]), dotted


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.endswith(".teaser") and m != "core.teaser"))
def test_a_teaser_module_imports_only_its_own_package_and_shared_modules(module):
    # a card imports no other scenario, so no card can close an import circle between packages
    allowed = {_package(module), "core.teaser", "core.plan"}
    assert {_package(d) for d in GRAPH[module]} <= allowed


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.count(".") == 2
                                          and m.rpartition(".")[2] in ("plan", "monitor_plan", "snippet", "teaser")))
def test_a_scenarios_page_pieces_import_no_other_scenario_nor_the_home_module(module):
    other = {_package(d) for d in GRAPH[module]} - {_package(module)}
    assert other.isdisjoint(SCENARIOS + ("core.home",)), sorted(other)


def test_teaser_of_returns_a_teaser_for_every_card():
    from core.teaser import Teaser
    from pages._registry import teaser_of

    names = [name for name, _, _ in _cards()]
    assert len(names) == len(set(names)) >= 10
    for name in names:
        t = teaser_of(name)
        assert isinstance(t, Teaser), name
        assert t.answer and t.shown, name


def test_teaser_of_a_name_without_a_teaser_raises_naming_page():
    from pages._registry import teaser_of

    for name in ("plan", "no such page"):
        with pytest.raises(ValueError, match="`page` must be one of"):
            teaser_of(name)

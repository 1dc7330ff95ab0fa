"""The general sequential engine imports no scenario package (an engine must not depend on a scenario).

Every module of ``core/sequential`` is parsed with :mod:`ast`; an ``import`` or ``from … import`` of
``core.llm``, ``core.judge``, ``core.pairwise``, ``core.accuracy`` or ``core.ratings`` — absolute or relative
(``from .. import llm``, ``from ..llm import …``), at module level or inside a function — fails the test.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCENARIOS = ("llm", "judge", "pairwise", "accuracy", "ratings")
PACKAGE = Path(__file__).resolve().parents[1] / "core" / "sequential"
FILES = sorted(PACKAGE.glob("*.py"))


def scenario_imports(source: str) -> list[str]:
    """The scenario packages a module imports, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0:
                targets = [module] + [f"{module}.{a.name}" for a in node.names]
            elif node.level == 1:  # within core.sequential itself
                targets = []
            else:  # ``from .. import llm`` / ``from ..llm import x``: relative to core
                base = "core" + (f".{module}" if module else "")
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:  # one hit per statement: the first name that is a scenario package
            parts = target.split(".")
            if len(parts) >= 2 and parts[0] == "core" and parts[1] in SCENARIOS:
                found.append(f"{node.lineno}: core.{parts[1]}")
                break
    return found


def test_the_scan_finds_every_form_of_import():
    source = ("import core.llm\nfrom core import judge\nfrom core.pairwise import read_votes\n"
              "def f():\n    from .. import accuracy\n    from ..ratings.power import x\n"
              "from .general import sequential_power\nfrom ..validation import check_int\nimport numpy\n")
    assert [hit.split(": ")[1] for hit in scenario_imports(source)] == [
        "core.llm", "core.judge", "core.pairwise", "core.accuracy", "core.ratings"]


def test_there_are_modules_to_scan():
    assert len(FILES) >= 10 and PACKAGE / "__init__.py" in FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_scenario_package_is_imported(path):
    assert scenario_imports(path.read_text(encoding="utf-8")) == []

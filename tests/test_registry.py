"""The page registry (pages/_registry.py) against what the app, the tests, the benchmark and the README use.

Oracle: the file system and the other lists themselves — every registered page exists, every page file is
registered, and each place that used to keep its own list now agrees with the registry.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from pages import _registry as registry

ROOT = Path(__file__).resolve().parents[1]


def test_every_page_file_is_registered_once_and_exists():
    names = [p.name for p in registry.PAGES]
    assert len(names) == len(set(names))
    on_disk = {p.stem for p in (ROOT / "pages").glob("*.py") if not p.stem.startswith("_")}
    assert set(names) == on_disk
    assert all(p.section in registry.SECTIONS for p in registry.PAGES)


def test_every_core_module_of_a_page_imports():
    for page in registry.PAGES:
        for module in page.core:
            importlib.import_module(f"core.{module}")


def test_readme_page_table_lists_every_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Pages"):readme.index("## Definitions")]
    listed = re.findall(r"^\| \*\*(.+?)\*\* \|", table, flags=re.M)
    assert listed == [p.title for p in registry.PAGES]


def test_fuzz_and_bench_follow_the_registry():
    from benchmarks import browser_bench
    from tests.app import test_fuzz_pages

    assert test_fuzz_pages.PAGES == tuple(p.name for p in registry.PAGES)
    assert [path for path, _ in browser_bench.PAGES] == [f"/{p.name}" for p in registry.PAGES if p.bench]
    # the first-visit target includes Analyze, which has no slider above its charts
    assert browser_bench.VISIT_ONLY == ["/analysis"]
    assert set(test_fuzz_pages.EXTREMES) <= {p.name for p in registry.PAGES}

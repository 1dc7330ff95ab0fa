"""The launcher's Plotly preload (scripts/serve.py: first page visit).

Oracles: hand-built module graphs (the closure is known by construction) and
the installed Streamlit's own index.html and chart chunk.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from streamlit import file_util

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts" / "serve.py")
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

HTML = """<!DOCTYPE html>
<html>
  <head>
    <script type="module" crossorigin src="./static/js/index.abc.js"></script>
    <link rel="modulepreload" crossorigin href="./static/js/known.k1.js">
  </head>
  <body></body>
</html>
"""


def _static(tmp_path: Path, *, chart: bool = True) -> Path:
    """A Streamlit-like static folder: index.html, favicon, static/js with a small module graph."""
    static = tmp_path / "static_root"
    js = static / "static" / "js"
    js.mkdir(parents=True)
    (static / "index.html").write_text(HTML, encoding="utf-8")
    (static / "favicon.png").write_bytes(b"png")
    (js / "index.abc.js").write_text('import"./known.k1.js";', encoding="utf-8")
    (js / "known.k1.js").write_text('import{a}from"./only-known.z.js";', encoding="utf-8")
    (js / "only-known.z.js").write_text("export const a=1;", encoding="utf-8")
    if chart:
        # PlotlyChart → wrapper, known (skipped), a dynamic import (not followed); wrapper → util → wrapper (a cycle)
        (js / "PlotlyChart.h4sh.js").write_text(
            'import{x}from"./wrapper.w1.js";import{k}from"./known.k1.js";const l=()=>import("./lazy.l1.js");',
            encoding="utf-8")
        (js / "wrapper.w1.js").write_text('import {u} from "./util.u1.js";export const x=1;', encoding="utf-8")
        (js / "util.u1.js").write_text('import"./wrapper.w1.js";export const u=2;', encoding="utf-8")
        (js / "lazy.l1.js").write_text("export default 1;", encoding="utf-8")
    return static


def test_closure_follows_static_imports_once_and_skips_known_and_dynamic(tmp_path):
    js = _static(tmp_path) / "static" / "js"
    assert serve.module_closure(js, ["PlotlyChart"], frozenset({"known.k1.js"})) == [
        "PlotlyChart.h4sh.js", "wrapper.w1.js", "util.u1.js"]
    # without the page's own list, the known module and what it imports are included
    assert serve.module_closure(js, ["PlotlyChart"]) == [
        "PlotlyChart.h4sh.js", "wrapper.w1.js", "known.k1.js", "util.u1.js", "only-known.z.js"]
    assert serve.module_closure(js, ["NoSuchChunk"]) == []


def test_preload_index_adds_one_link_per_new_module_before_head_end(tmp_path):
    js = _static(tmp_path) / "static" / "js"
    html = serve.preload_index(HTML, js)
    head = html[:html.index("</head>")]
    for name in ("PlotlyChart.h4sh.js", "wrapper.w1.js", "util.u1.js"):
        assert head.count(f'<link rel="modulepreload" crossorigin href="./static/js/{name}">') == 1
    assert head.count("known.k1.js") == 1  # Streamlit's own link, not repeated
    assert "lazy.l1.js" not in html and "only-known" not in html
    assert html.replace(head, "") == HTML[HTML.index("</head>"):]  # the rest of the page is untouched


@pytest.mark.parametrize("html", [HTML.replace("</head>", ""), HTML + "</head>"])
def test_preload_index_leaves_an_unexpected_page_alone(tmp_path, html):
    assert serve.preload_index(html, _static(tmp_path) / "static" / "js") is None


def test_preload_index_without_a_chart_chunk_is_none(tmp_path):
    assert serve.preload_index(HTML, _static(tmp_path, chart=False) / "static" / "js") is None


def test_installed_streamlit_gets_its_chart_chunk_preloaded():
    # The installed Streamlit's own files: if an upgrade renames the chart chunk, this says so
    # (the launcher itself would fall back to Streamlit's unchanged page).
    static = Path(file_util.get_static_dir())
    html = serve.preload_index((static / "index.html").read_text(encoding="utf-8"), static / "static" / "js")
    assert html is not None
    links = [line for line in html.splitlines() if 'rel="modulepreload"' in line and "PlotlyChart." in line]
    assert len(links) == 1
    # the pages' view switcher (st.segmented_control) too
    assert len([line for line in html.splitlines() if 'rel="modulepreload"' in line and "/ButtonGroup." in line]) == 1
    assert len(html) > len((static / "index.html").read_text(encoding="utf-8"))


def test_preload_plotly_serves_a_mirror_with_the_edited_page(tmp_path, monkeypatch):
    static = _static(tmp_path)
    monkeypatch.setattr(file_util, "get_static_dir", lambda: str(static))
    mirror = serve.preload_plotly()
    assert mirror is not None and file_util.get_static_dir() == str(mirror)
    assert sorted(p.name for p in mirror.iterdir()) == ["favicon.png", "index.html", "static"]
    assert (mirror / "static").is_symlink() and (mirror / "static" / "js" / "util.u1.js").read_text() \
        == (static / "static" / "js" / "util.u1.js").read_text()
    assert "PlotlyChart.h4sh.js" in (mirror / "index.html").read_text(encoding="utf-8")
    assert (static / "index.html").read_text(encoding="utf-8") == HTML  # Streamlit's own file is never written


def test_preload_plotly_falls_back_to_streamlits_page(tmp_path, monkeypatch):
    static = _static(tmp_path, chart=False)
    getter = lambda: str(static)  # noqa: E731
    monkeypatch.setattr(file_util, "get_static_dir", getter)
    assert serve.preload_plotly() is None
    assert file_util.get_static_dir is getter


def test_the_launcher_runs_numpy_with_one_blas_thread():
    """Set before numpy loads: on a loaded 2-core machine OpenBLAS's threads made one search 13× slower."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    code = ("import runpy, os; runpy.run_path('scripts/serve.py', run_name='serve'); import numpy; "
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["1", "1"], out.stderr


def test_freeze_heap_hides_the_loaded_modules_from_full_collections():
    """After the freeze, a full collection (Streamlit's post-run GC) walks only what is new: the count of objects it
    sees drops by the number frozen, and objects created later are still collected."""
    import subprocess
    import sys

    code = "\n".join([
        "import gc, runpy, weakref, numpy, pandas, scipy.stats",
        "s = runpy.run_path('scripts/serve.py', run_name='serve')",
        "before = len(gc.get_objects()); frozen = s['freeze_heap'](); after = len(gc.get_objects())",
        "class Cycle: pass",
        "a = Cycle(); a.me = a; r = weakref.ref(a); del a; gc.collect()",
        "print(before, frozen, after, r() is None)"])
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    before, frozen, after, freed = out.stdout.split()
    assert int(frozen) > 50_000 and int(after) < int(before) // 10, out.stdout  # numpy/pandas/scipy's objects
    assert freed == "True"  # a cycle made after the freeze is still collected


def test_memory_is_handed_back_to_the_system():
    # glibc (this project's machines): the arena limit is accepted, and malloc_trim runs after a large free
    import ctypes.util

    if not ctypes.util.find_library("c"):
        pytest.skip("no C library found")
    assert serve.limit_arenas(2) is True
    block = [bytearray(4096) for _ in range(20_000)]  # ≈ 80 MB in small pieces, then freed
    del block
    assert serve.trim_memory() in (True, False)


def test_the_trimmer_thread_runs_and_stops(monkeypatch):
    calls = []
    monkeypatch.setattr(serve, "trim_memory", lambda: calls.append(1) or True)
    thread, stop = serve.start_trimmer(every=0.01)
    assert thread.daemon
    deadline = __import__("time").monotonic() + 30
    while not calls and __import__("time").monotonic() < deadline:
        __import__("time").sleep(0.01)
    stop.set()
    thread.join(5)
    assert calls and not thread.is_alive()


def test_warm_answers_the_da_pages_default_budgets_before_the_first_visitor():
    """The DA page's headline (judgments for 80% power of each procedure at the default campaign) comes from the
    engine's memo after :func:`warm`: asking again computes nothing new and gives the numbers the engine gives."""
    from core import sequential as sq
    from core.sequential import campaign

    serve.warm()
    memo = campaign._campaign_sample_size
    before = memo.cache_info()
    default = sq.CampaignDesign()
    budget = sq.CampaignDesign.field("budget").default
    sizes = {p: default.with_(procedure=p, budget=budget).relevant().sample_sizes(0.8)
             for p in ("fixed", "interim", "interim_futility")}
    after = memo.cache_info()
    assert after.misses == before.misses and after.hits == before.hits + 3
    # the memo answers what the search answers: the power at `first` reaches 80% and one even step below does not
    for procedure, size in sizes.items():
        design = default.with_(procedure=procedure)
        assert design.power(size.first).power >= 0.8 > design.power(size.first - 2).power


def test_warm_fills_the_home_pages_cached_cards_and_chart(monkeypatch):
    """The home page's cards and significance-filter chart come from Streamlit's cache after :func:`warm` (a cache
    made before the runtime starts is the one the runtime uses): the first visitor computes none of them."""
    from core import demo
    from pages import _home_page
    from pages._registry import PAGES, VIEW_CARDS, teaser_of

    _home_page.teaser.clear()  # earlier tests in the same process may have filled them
    _home_page.filter_points.clear()
    serve.warm()
    names = [p.name for p in PAGES if p.teaser] + [v.key for v in VIEW_CARDS if v.teaser]
    filter_points = demo.significance_filter

    def computed(*args, **kwargs):
        raise AssertionError("computed again: not warmed")

    monkeypatch.setattr(_home_page, "teaser_of", computed)
    monkeypatch.setattr(demo, "significance_filter", computed)
    assert {name: _home_page.teaser(name) for name in names} == {name: teaser_of(name) for name in names}
    assert _home_page.filter_points(_home_page.FILTER_RATERS).equals(filter_points(_home_page.FILTER_RATERS))
    with pytest.raises(AssertionError, match="not warmed"):  # a size the page did not open with is computed
        _home_page.filter_points(_home_page.RATERS[0])


def test_warm_fills_the_da_pages_first_tab(monkeypatch):
    """The DA page's first view (Figure 5), the Type-M curves of its exaggeration view and its savings over the
    default population come from the page's caches after :func:`warm`: the page opened at its defaults, in either
    view, computes none of them again."""
    from core.sequential import campaign
    from pages import _sequential_tabs as da_tabs
    from tests.app.conftest import open_page

    da_tabs.curves.clear()  # earlier tests in the same process may have filled them
    da_tabs.savings.clear()
    serve.warm()

    def computed(*args, **kwargs):
        raise AssertionError("computed again: not warmed")

    monkeypatch.setattr(campaign, "campaign_curves", computed)
    monkeypatch.setattr(campaign, "budget_savings", computed)
    at = open_page("sequential", timeout=120)
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) >= 1 and any(m.label.startswith("MDE") for m in at.metric)
    at.segmented_control(key="view").set_value("Exaggeration (Type-M)").run()
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) >= 1


def test_base_url_hint_names_each_page_once_and_refuses_text_that_could_end_the_script():
    hint = serve.base_url_hint(["judge", "llm", "judge"])
    assert hint.count("<script>") == 1 and hint.count("</script>") == 1
    assert '["judge", "llm"]' in hint  # sorted, each once
    assert "window.__streamlit" in hint and "BACKEND_BASE_URL" in hint
    for bad in ("</script><script>alert(1)", "a b", ""):
        with pytest.raises(ValueError, match="`pages`"):
            serve.base_url_hint(["judge", bad])


def test_preload_index_adds_the_base_url_hint_only_with_pages(tmp_path):
    js = _static(tmp_path) / "static" / "js"
    assert "__streamlit" not in serve.preload_index(HTML, js)
    html = serve.preload_index(HTML, js, pages=["judge"])
    head = html[:html.index("</head>")]
    assert head.count(serve.base_url_hint(["judge"])) == 1
    # it runs before Streamlit's bundle reads the setting: a classic script executes while the page is parsed,
    # the bundle (a module script) only after
    assert '<script type="module"' in HTML and "<script>" not in HTML


def test_installed_streamlit_reads_the_base_url_setting_the_hint_sets():
    # If an upgrade stops reading window.__streamlit.BACKEND_BASE_URL, the hint would silently do nothing: this says so
    # (the page would still work, asking the page's address first as before).
    static = Path(file_util.get_static_dir())
    bundles = [p for p in (static / "static" / "js").glob("index.*.js")
               if "window.__streamlit" in p.read_text(encoding="utf-8", errors="replace")]
    assert bundles
    assert any("BACKEND_BASE_URL" in p.read_text(encoding="utf-8", errors="replace") for p in bundles)


def test_page_paths_are_the_registry_pages_and_the_home_alias():
    from pages._registry import PAGES

    assert serve.page_paths() == [page.name for page in PAGES] + ["home"]
    serve.base_url_hint(serve.page_paths())  # every name is a plain URL path

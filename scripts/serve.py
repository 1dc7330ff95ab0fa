"""Start NLP Power Explorer with its heavy imports already loaded (``make run`` uses this).

``streamlit run`` imports a page's modules when the first browser session
asks for it, so the first visitor waits for numpy, scipy, statsmodels,
pandas, plotly and the ``core`` package (≈ 2–3 s on a small machine) and for
every default view to be computed. This launcher imports them first, warms
the engines' memo tables on the default designs, then hands over to
Streamlit's own command line in the same process (so the imports stay
loaded). Arguments are passed to ``streamlit run``.

It also lets the browser fetch Plotly early (:func:`preload_plotly`): every
page opens on a Plotly chart, but Streamlit's page asks for its ≈ 5 MB
chart module only once a first chart arrives over the websocket, so on a
first visit the download and compilation of that module were on the
critical path after everything else had loaded.

Usage: ``python scripts/serve.py [--server.port 8501] [...]``
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# One BLAS thread per process, set before numpy loads. Streamlit already runs each session in its own thread, and
# on a small shared machine OpenBLAS's worker threads make every large dot product wait for a time slice: one
# sample-size search took 40 s instead of 3 s with four busy processes on two cores.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
#: Streamlit's lazily loaded frontend modules that every page needs at once (file-name stems in static/js): the
#: charts, and the view switcher (``st.segmented_control``), which would show a skeleton until its module arrives.
EAGER_MODULES = ("PlotlyChart", "ButtonGroup")
_IMPORT = re.compile(r'(?:from|import)\s*"\./([\w.\-]+\.js)"')


def warm() -> float:
    """Import what the pages import and compute the default views once; returns seconds spent."""
    start = time.perf_counter()
    sys.path.insert(0, str(ROOT))
    import plotly.graph_objects  # noqa: F401
    import plotly.io  # noqa: F401
    import streamlit  # noqa: F401

    import importlib

    from core import accuracy, figures  # noqa: F401  (used below)
    from pages._registry import PAGES

    for module in dict.fromkeys(m for page in PAGES for m in page.core):  # every page's engines, from the registry
        importlib.import_module(f"core.{module}")
    # app.py declares its pages with st.navigation. Streamlit would otherwise treat the pages/ folder as a
    # legacy multipage app until a first session has run app.py, so a deep link such as /accuracy as the first
    # request would run that page alone first and hand over to app.py (pages._scaffold.ensure_frame): a lost run.
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
    # st.warning/st.info with non-ASCII text (≥, Δ, …) load Streamlit's emoji table and compile its ≈ 0.3 s
    # regular expression on first use; do it here rather than in the first visitor's run.
    from streamlit import string_util

    string_util.extract_leading_emoji("Δ")
    # What the first session's runs would import on the way (≈ 0.05 s of the first visit): Pillow, which
    # st.set_page_config loads to read the page icon, Streamlit's icon names and component scanner, plotly's
    # JSON writer and layout classes, and the pages' shared modules.
    for name in ("PIL.Image", "PIL.PngImagePlugin", "packaging.tags", "streamlit.material_icon_names",
                 "streamlit.components.v2.manifest_scanner", "plotly.io._json", "core.runnable", "core.snippets",
                 "pages._scaffold", "pages._home_page", "pages._sequential_section"):
        try:
            importlib.import_module(name)
        except ImportError:  # a Streamlit or Pillow version without it: nothing to warm
            pass
    try:  # opening an image loads Pillow's format plugins
        from PIL import Image

        Image.preinit()
        with Image.open(ROOT / ".streamlit" / "favicon.png") as icon:
            icon.load()
    except (ImportError, OSError):
        pass
    plotly.graph_objects.Layout(margin={"l": 0}, xaxis={"visible": False}, yaxis={"visible": False})
    # The first figure sent with numpy data makes plotly look up narwhals' plugins (≈ 0.1 s of entry points).
    import numpy as np

    plotly.graph_objects.Figure(plotly.graph_objects.Scatter(x=np.arange(3.0), y=np.arange(3.0))).to_dict()
    figures._template()
    accuracy.mcnemar_power(500, 0.02, 0.9)
    accuracy.paired_curves([10, 500, 15000], [(0.02, 0.9)])
    accuracy.preference_power(100, 0.65, 0.35)
    # Page outputs computed before the first visitor, through the pages' own cached calls: Streamlit keeps a cache
    # made before its runtime starts (same function, same arguments), whereas an engine without a memo table of its
    # own would compute again in the first visitor's run. The home page (the usual first visit): its cards (the
    # Monitor card's simulated forecast among them) and the chart's 400 studies, ≈ 0.3 s. The DA campaign page (the
    # heaviest first run): Figure 5 with and without Type-M and the savings over the default population, ≈ 0.3 s;
    # then its headline's search of each procedure's budget for 80% power (≈ 1–3 s cold on a small machine), which
    # the engine's memo keeps.
    import logging

    from core import sequential
    from pages import _home_page
    from pages import _sequential_tabs as da_tabs
    from pages._registry import VIEW_CARDS

    campaign = sequential.CampaignDesign()
    quiet = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # "No runtime found, using MemoryCacheStorageManager": expected before the runtime
    try:
        for name in [p.name for p in PAGES if p.teaser] + [v.key for v in VIEW_CARDS if v.teaser]:
            _home_page.teaser(name)
        _home_page.filter_points(_home_page.FILTER_RATERS)
        options, budget = campaign.options_only(), campaign.budget
        for with_type_m in (False, True):
            da_tabs.curves(options, budget, da_tabs.CURVE_DELTAS, with_type_m)
        # interim-futility's saving: the plan's and the Per-pair view's
        da_tabs.savings(options, budget, da_tabs.default_population(), da_tabs.FUTILITY_ONLY)
    finally:
        quiet.setLevel(level)
    for procedure in ("fixed", "interim", "interim_futility"):
        size = campaign.with_(procedure=procedure).relevant().sample_sizes(0.8)
        if size.first > 0:
            campaign.with_(procedure=procedure, budget=size.first).power()
    # Streamlit's first element of the process checks whether it runs in a REPL with inspect.stack(),
    # which maps every frame to its module by scanning sys.modules (≈ 2,000 of them here): ≈ 0.1 s in
    # the first visitor's run. One call here, after every import above, fills inspect's tables; the later
    # call only adds the new.
    from streamlit import env_util

    env_util.is_repl()
    return time.perf_counter() - start


def freeze_heap() -> int:
    """Move every object alive now — the imported modules, the warmed memo tables — out of the garbage
    collector's sight (:func:`gc.freeze`); returns how many.

    Streamlit runs a full collection after every script run (``runner.postScriptGC``), and a full collection
    walks every tracked object: with numpy, scipy, statsmodels, pandas, plotly and the engines loaded that is
    about a million objects, ≈ 0.05–0.1 s after each slider move on a 2-core machine (the page cannot show
    "finished" before it is done). Frozen objects are still freed by reference counting; only cycles among them
    are never collected, and they are the process's modules and constants, which live as long as it does.
    """
    import gc

    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def module_closure(js_dir: Path, stems, known=frozenset()) -> list[str]:
    """File names of the modules ``stems`` in ``js_dir`` and of everything they import statically.

    Modules in ``known`` (already preloaded by the page) are left out, and so is
    what only they import. Returns ``[]`` when a stem matches no file.
    """
    todo = [path.name for stem in stems for path in sorted(js_dir.glob(f"{stem}.*.js"))]
    found: list[str] = []
    while todo:
        name = todo.pop(0)
        if name in found or name in known or not (js_dir / name).is_file():
            continue
        found.append(name)
        todo.extend(_IMPORT.findall((js_dir / name).read_text(encoding="utf-8", errors="replace")))
    return found


def base_url_hint(pages) -> str:
    """A ``<script>`` that tells Streamlit's page where the server's endpoints are when it is opened at a page's
    own address (``/judge``, ``/nlp/judge`` behind a base path).

    Streamlit's page does not know whether the last part of its address is a page or the app's base path, so it
    first asks ``/judge/_stcore/health``, gets 404, waits 0.1 s and only then asks ``/_stcore/health``: a tenth
    of a second before the session starts on every link into a page (``make bench`` opens each page that way).
    When that last part is one of the app's page names, the script sets Streamlit's own frontend setting
    ``window.__streamlit.BACKEND_BASE_URL`` to the address without it, so the first question is the right one.
    Any other address (the home page, a mistyped page, a base path alone) and a host that configures
    ``window.__streamlit`` itself are left to Streamlit's own search.
    """
    names = sorted(set(pages))
    if not all(re.fullmatch(r"[A-Za-z0-9_\-]+", name) for name in names):  # URL paths, never text that ends a script
        raise ValueError(f"`pages` must be URL path names, got {names!r}")
    return ("  <script>(function(){if(window.__streamlit)return;"
            "var parts=location.pathname.replace(/\\/+$/,'').split('/');"
            f"if(parts.length<2||{json.dumps(names)}.indexOf(parts[parts.length-1])<0)return;parts.pop();"
            "window.__streamlit={BACKEND_BASE_URL:location.origin+parts.join('/')+'/'};})();</script>\n")


def preload_index(html: str, js_dir: Path, stems=EAGER_MODULES, pages=()) -> str | None:
    """Streamlit's ``index.html`` with ``<link rel="modulepreload">`` for ``stems`` and their imports, and (with
    ``pages``, the app's page URL paths) the :func:`base_url_hint`.

    Returns ``None`` when there is nothing to add or the page is not the one
    expected (no ``</head>``), so the caller serves Streamlit's own page.
    """
    known = frozenset(re.findall(r'static/js/([\w.\-]+\.js)', html))
    names = module_closure(js_dir, stems, known)
    if not names or html.count("</head>") != 1:
        return None
    links = "".join(f'    <link rel="modulepreload" crossorigin href="./static/js/{name}">\n' for name in names)
    hint = base_url_hint(pages) if pages else ""
    return html.replace("</head>", f"<!-- NLP Power Explorer: fetch the chart modules at once -->\n{links}{hint}  </head>")


def page_paths() -> list[str]:
    """The URL paths of the app's pages (app.py: one per registry entry, and the home page's hidden alias)."""
    from pages._registry import PAGES

    return [page.name for page in PAGES] + ["home"]


def preload_plotly() -> Path | None:
    """Serve Streamlit's static files from a mirror whose ``index.html`` preloads Plotly's chunk.

    The mirror is a temporary directory of symbolic links to Streamlit's own
    files plus the edited ``index.html``; it is removed when the server stops.
    The browser then downloads and compiles the chart module while Streamlit's
    own bundle loads, instead of after the first chart arrives (a first visit
    on a 2-core machine: ≈ 0.3 s sooner, see ``make bench``). Returns the
    mirror, or ``None`` (Streamlit's files served unchanged) when anything
    about the installed Streamlit is not as expected.
    """
    from streamlit import file_util

    static = Path(file_util.get_static_dir())
    try:
        html = preload_index((static / "index.html").read_text(encoding="utf-8"), static / "static" / "js",
                             pages=page_paths())
        if html is None:
            return None
        mirror = Path(tempfile.mkdtemp(prefix="nlp-power-static-"))
        atexit.register(shutil.rmtree, mirror, ignore_errors=True)
        for entry in static.iterdir():
            if entry.name != "index.html":
                os.symlink(entry, mirror / entry.name)
        (mirror / "index.html").write_text(html, encoding="utf-8")
    except (OSError, UnicodeError, NotImplementedError):
        return None
    file_util.get_static_dir = lambda: str(mirror)
    return mirror


#: glibc's mallopt parameter for the number of malloc arenas (malloc.h: M_ARENA_MAX).
_M_ARENA_MAX = -8
#: Seconds between two returns of freed memory to the system.
TRIM_EVERY = 60.0


def _libc():
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name) if name else None


def limit_arenas(arenas: int = 2) -> bool:
    """Let glibc's malloc use at most ``arenas`` arenas (it makes up to 8 per core, one per busy thread).

    Streamlit runs every session's script in a thread of its own; with many arenas, memory freed when sessions close
    stays scattered over them and the server's resident memory does not come back down. True when applied (glibc).
    """
    try:
        libc = _libc()
        return bool(libc is not None and libc.mallopt(_M_ARENA_MAX, int(arenas)) == 1)
    except (OSError, AttributeError):
        return False


def trim_memory() -> bool:
    """Collect garbage and hand freed heap pages back to the system (glibc's ``malloc_trim``); True if any were."""
    import gc

    gc.collect()
    try:
        libc = _libc()
        return bool(libc is not None and libc.malloc_trim(0) == 1)
    except (OSError, AttributeError):
        return False


def start_trimmer(every: float = TRIM_EVERY):
    """A daemon thread that calls :func:`trim_memory` every ``every`` seconds, so a server whose sessions have
    closed (and whose caches have evicted their entries) returns to about its starting size."""
    import threading

    def loop():
        while not stop.wait(every):
            trim_memory()

    stop = threading.Event()
    thread = threading.Thread(target=loop, name="nlp-power-trim", daemon=True)
    thread.start()
    return thread, stop


def main(argv: list[str]) -> None:
    limit_arenas()
    seconds = warm()
    print(f"NLP Power Explorer: modules loaded in {seconds:.1f} s", flush=True)
    if preload_plotly() is None:
        print("NLP Power Explorer: serving Streamlit's page unchanged (Plotly is fetched on first use)", flush=True)
    from streamlit.web import bootstrap, cli, server  # noqa: F401  (loaded before the freeze below)

    freeze_heap()
    start_trimmer()
    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])

"""Start NLP Power Explorer with its heavy imports already loaded (``make run`` uses this).

``streamlit run`` imports a page's modules when the first browser session
asks for it, so the first visitor waits for numpy, scipy, statsmodels,
pandas, plotly and the ``core`` package (≈ 2–3 s on a small machine) and for
every default view to be computed. This launcher imports them first, warms
the engines' memo tables on the default designs, then hands over to
Streamlit's own command line in the same process (so the imports stay
loaded). Arguments are passed to ``streamlit run``.

Usage: ``python scripts/serve.py [--server.port 8501] [...]``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def warm() -> float:
    """Import what the pages import and compute the default views once; returns seconds spent."""
    start = time.perf_counter()
    sys.path.insert(0, str(ROOT))
    import plotly.graph_objects  # noqa: F401
    import plotly.io  # noqa: F401
    import streamlit  # noqa: F401

    from core import accuracy, analysis, bayes, figures, mt, ratings, sequential  # noqa: F401

    for name in ("llm", "pairwise"):  # pages added later; optional
        try:
            __import__(f"core.{name}")
        except ImportError:
            pass
    # app.py declares its pages with st.navigation. Streamlit would otherwise treat the pages/ folder as a
    # legacy multipage app until a first session has run app.py, so a deep link such as /accuracy as the first
    # request would run that page alone first and hand over to app.py (pages._scaffold.ensure_frame): a lost run.
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
    figures._template()
    accuracy.mcnemar_power(500, 0.02, 0.9)
    accuracy.paired_curves([10, 500, 15000], [(0.02, 0.9)])
    accuracy.preference_power(100, 0.65, 0.35)
    return time.perf_counter() - start


def main(argv: list[str]) -> None:
    seconds = warm()
    print(f"NLP Power Explorer: modules loaded in {seconds:.1f} s", flush=True)
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])

"""NLP Power Explorer — the frame: page config, navigation and the home page.

Run with ``make run`` (or ``streamlit run app.py``).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st



def _tolerate_infinite_links() -> None:
    """Let Streamlit's URL binding drop ``seed=inf`` or ``m=1e309`` like any other invalid value.

    Streamlit (1.67) seeds a bound whole-number widget with ``int(float(value))`` and clears values that raise
    ValueError or TypeError, but not OverflowError, so such a link ended in a traceback before the page ran.
    """
    from streamlit.runtime.state.session_state import SessionState

    seed = getattr(SessionState, "_seed_widget_from_url", None)
    if seed is None or getattr(seed, "_tolerates_overflow", False):
        return

    def tolerant(self, metadata, user_key, widget_id, url_value):
        try:
            return seed(self, metadata, user_key, widget_id, url_value)
        except OverflowError:
            self._clear_url_param(user_key)
            return False

    tolerant._tolerates_overflow = True
    SessionState._seed_widget_from_url = tolerant


_tolerate_infinite_links()

# A local image: a Material-icon favicon would be fetched from the internet on every page.
ICON = Path(__file__).resolve().parent / ".streamlit" / "favicon.png"
st.set_page_config(
    page_title="NLP Power Explorer",
    page_icon=str(ICON),
    layout="wide",
    # a projector link (?present=true) opens with the sidebar folded: the page's key inputs are in the main area
    initial_sidebar_state="collapsed" if str(st.query_params.get("present", "")).lower() in ("true", "1") else "expanded",
)

from streamlit.runtime.scriptrunner_utils.exceptions import StopException  # noqa: E402

from pages._links import remember_link, report_link  # noqa: E402
from pages._registry import PAGES as REGISTRY, SECTIONS  # noqa: E402


def _link_fields(url_path: str) -> dict:
    """The declared fields of the page at ``url_path``, by URL key (for the link notes' control names and ranges)."""
    from pages._registry import design_classes

    info = next((i for i in REGISTRY if i.name == url_path), None)
    return {} if info is None else {f.key: f for cls in design_classes(info) for f in cls.fields()}


def home() -> None:
    from pages._home_page import render  # the cards, the significance-filter chart and "Start from your data"

    render()


def to_home() -> None:
    """``/home`` (an old or hand-typed link): the home page at ``/``, with the link's parameters."""
    st.switch_page(HOME, query_params=dict(st.query_params))


# The default page is served at "/" only, whatever its url_path (Streamlit 1.67), so "/home" gets a hidden alias.
HOME = st.Page(home, title="Home", icon=":material/home:", default=True, url_path="start")
HOME_ALIAS = st.Page(to_home, title="Home", url_path="home", visibility="hidden")
PAGES = {info.name: st.Page(info.path, title=info.title, icon=info.icon) for info in REGISTRY}
navigation = st.navigation({"": [HOME, HOME_ALIAS],
                            **{section: [PAGES[i.name] for i in REGISTRY if i.section == section]
                               for section in SECTIONS}},
                          # across the top: in the sidebar the list of pages took its first ≈ 700 px and pushed every
                          # page's controls below the fold
                          position="top")
# The link as it came, before any bound widget (the presentation toggle included) takes or drops its value.
link = remember_link(navigation.url_path)
# Before the page runs, so the page reads the mode of this very run.
st.sidebar.toggle(
    "Presentation mode", key="present", bind="query-params",
    help="For a projector: larger fonts and lines, fewer captions; the link keeps the mode.",
)
# The browser runs Plotly's ≈ 5 MB chart code only when a first chart arrives, and that takes about
# a second on a small machine (scripts/serve.py has the code downloaded with the page; under plain
# `streamlit run` it is downloaded only then). On a session's first run, a tiny placeholder chart at
# the bottom of the sidebar starts that work while the page is still being computed; it is removed
# when the page has run.
preload = st.sidebar.empty() if not st.session_state.get("_plotly_loaded") else None
if preload is not None:
    st.session_state["_plotly_loaded"] = True
    preload.plotly_chart({"data": [{"type": "scatter", "x": [0], "y": [0], "hoverinfo": "skip"}],
                          "layout": {"height": 10, "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
                                     "xaxis": {"visible": False}, "yaxis": {"visible": False}}},
                         key="plotly_preload", config={"staticPlot": True})
try:
    navigation.run()
except StopException:  # a page that stopped on a message still says which of the link's values it could not use
    report_link(navigation.url_path, link, _link_fields(navigation.url_path))
    raise
else:
    report_link(navigation.url_path, link, _link_fields(navigation.url_path))
finally:
    if preload is not None:
        preload.empty()

"""Plans: the link of the current view, the plan block (HTML, text for the paper, basket) and the code view."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

__all__ = ['current_link', 'add_to_basket', 'plan_actions', 'code_view']


def current_link() -> str:
    """The shareable URL of the current view (page address plus its query parameters)."""
    from urllib.parse import urlencode

    try:
        base = st.context.url or ""
    except Exception:  # no browser context (tests, bare mode)
        base = ""
    query = urlencode(st.query_params.to_dict())
    return f"{base}?{query}" if query else base


def add_to_basket(item) -> None:
    """Callback: keep a design for the combined plan."""
    basket = st.session_state.setdefault("plan_basket", [])
    basket.append(item)


def plan_actions(item, *, key: str = "plan") -> None:
    """The plan block of a planning page: HTML download, the paper's paragraph, the plan basket.

    ``item``: the :class:`core.plan.PlanItem`, or a function of no arguments returning it, called only when the
    block is open (a plan's figures and prose are built then, not on every slider move)."""
    from core.plan import plan_html, plan_text

    # Filled only when opened (a rerun): a collapsed expander still sends its content, and the code block would
    # make every first visit download and compile the browser's syntax highlighter (≈ 1.5 MB).
    box = st.expander("Plan this design — download it, copy the text for your paper, or add it to the plan basket",
                      key=f"{key}_open", on_change="rerun")
    if not box.open:
        return
    if callable(item):
        item = item()
    with box:
        c1, c2, c3 = st.columns(3)
        c1.download_button("Download the plan (HTML)", data=lambda: plan_html([item]).encode("utf-8"),
                           file_name=f"plan_{key}.html", mime="text/html", key=f"{key}_html", on_click="ignore",
                           help="One self-contained file that opens offline: assumptions and their sources, the test, "
                           "the numbers, the charts, references and the link to this view.")
        c2.button("Add to the plan basket", key=f"{key}_add", on_click=add_to_basket, args=(item,),
                  help="Collect designs from several pages into one plan with the total cost.")
        basket = st.session_state.get("plan_basket", [])
        c3.page_link("pages/plan.py", label=f"Open the plan basket ({len(basket)})", icon=":material/shopping_basket:")
        st.markdown("**Copy the text for your paper**")
        st.code(plan_text(item), language=None, wrap_lines=True)


def code_view(snippet: str | Callable[[], str], *, key: str = "code") -> None:
    """The "Python code for this view" expander: a script that reproduces the metrics row with ``core``.

    Filled only when opened, like :func:`plan_actions`: the code block would load the syntax highlighter on every
    first visit. ``snippet`` may be a callable, so the script is built only then.
    """
    box = st.expander("Python code for this view", key=f"{key}_open", on_change="rerun", icon=":material/code:")
    if not box.open:
        return
    with box:
        st.caption("Run it from the repository's root (so `core` imports): it prints the numbers of the metrics "
                   "row above. Change a value and re-run to explore beyond the sliders.")
        st.code(snippet() if callable(snippet) else snippet, language="python")

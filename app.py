"""NLP Power Explorer — the frame: page config, navigation and the home page.

Run with ``make run`` (or ``streamlit run app.py``).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

# A local image: a Material-icon favicon would be fetched from the internet on every page.
ICON = Path(__file__).resolve().parent / ".streamlit" / "favicon.png"
st.set_page_config(
    page_title="NLP Power Explorer",
    page_icon=str(ICON),
    layout="wide",
    initial_sidebar_state="expanded",
)

#: (file, title, icon, one-line description) of every scenario page.
SCENARIOS = [
    (
        "pages/accuracy.py",
        "Accuracy (McNemar)",
        ":material/target:",
        "Two classifiers on one test set, unpaired accuracy, or head-to-head preferences: "
        "power, exaggeration, the smallest detectable gain, and the SQuAD 2.0 leaderboard.",
    ),
    (
        "pages/llm.py",
        "LLM benchmarks",
        ":material/smart_toy:",
        "Two language models on one benchmark: how many questions, how many sampled answers per question, clustered "
        "questions and an LLM judge's errors — power, the cheapest design, and parameters estimated from your logs.",
    ),
    (
        "pages/judge.py",
        "LLM judges and human labels",
        ":material/gavel:",
        "How many human labels to pair with an LLM judge (PPI++), a Rogan–Gladen corrected judge at the same cost, "
        "and how many items to double-annotate for an agreement study (κ, AC1, α).",
    ),
    (
        "pages/leaderboard.py",
        "Leaderboards (pairwise votes)",
        ":material/leaderboard:",
        "Many systems ranked from pairwise votes by people or an LLM judge (Bradley–Terry, Elo scale): votes until "
        "neighbours are told apart, interval widths, P(the whole order is right), the cost of a noisy judge.",
    ),
    (
        "pages/mt.py",
        "Machine translation (BLEU)",
        ":material/translate:",
        "BLEU differences with the paired randomization test: power vs test-set size, sensitivity to the "
        "swap-effect distribution, and P0/b0 fitted from your own system outputs.",
    ),
    (
        "pages/ratings.py",
        "Human ratings (Likert)",
        ":material/groups:",
        "Likert evaluations with crossed worker × item variance: power and false positives of the paper's and the "
        "Satterthwaite rule, Figure 6, and an annotation-budget planner.",
    ),
    (
        "pages/sequential.py",
        "DA campaigns: fixed vs interim",
        ":material/timer:",
        "How many Direct Assessment judgments to budget, and whether to peek: Pocock / O'Brien–Fleming interim "
        "analyses, futility stopping, budget curves and savings.",
    ),
    (
        "pages/analysis.py",
        "Analyze your results",
        ":material/analytics:",
        "Upload per-item results: the right significance test, effect sizes, a Bayesian HDI/ROPE assessment, "
        "many-system comparisons, and what to write in the paper.",
    ),
]


def home() -> None:
    st.title("NLP Power Explorer")
    st.markdown(
        "Before you spend a cent on a test set or an annotation campaign, see whether your "
        "evaluation can detect the difference you care about — and how much a significant "
        "result would exaggerate it."
    )
    col1, col2, col3 = st.columns(3)
    col1.markdown(
        "**Power** is the probability that your experiment finds a real difference "
        "*significant, in the right direction*. Below 80% an experiment is usually called "
        "under-powered: a real improvement will often go unnoticed."
    )
    col2.markdown(
        "**Type-M error** (exaggeration ratio) is how much, on average, a *significant* "
        "observed difference overstates the true one. Under-powered studies only reach "
        "significance when noise inflates the difference, so their published gains are too big."
    )
    col3.markdown(
        "**Type-S error** is the chance that a significant result points the *wrong way*: "
        "the worse system looks better. It becomes real when power is very low."
    )
    st.caption(
        "Definitions and methods follow Card et al. (2020), *With Little Power Comes Great "
        "Responsibility* (EMNLP), Figure 2 and appendix B."
    )
    st.subheader("Scenarios")
    for page, (_, title, icon, description) in zip(PAGES, SCENARIOS):
        st.page_link(page, label=title, icon=icon)
        st.caption(description)


HOME = st.Page(home, title="Home", icon=":material/home:", default=True, url_path="home")
PAGES = [st.Page(path, title=title, icon=icon) for path, title, icon, _ in SCENARIOS]

BASKET = st.Page("pages/plan.py", title="Plan basket", icon=":material/shopping_basket:")
DEMO = st.Page("pages/demo.py", title="Lab-meeting demo", icon=":material/slideshow:")
navigation = st.navigation({"": [HOME], "Scenarios": PAGES, "Lab meeting": [DEMO], "Plans": [BASKET]})
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
finally:
    if preload is not None:
        preload.empty()

"""The one list of the app's pages: app.py's navigation, the home page, the fuzz tests, the browser benchmark,
the launcher's warm-up and the README's page table are all driven from it or checked against it.

Pure data (no streamlit import), so tests, benchmarks and ``scripts/serve.py`` can read it. Adding a scenario page
is one entry here plus the page file; see the README's "How to add a scenario page".
"""

from __future__ import annotations

from dataclasses import dataclass

from core.teaser import Teaser

__all__ = ["PageInfo", "PAGES", "SECTIONS", "ViewCard", "VIEW_CARDS", "scenario_pages", "by_name", "design_classes",
           "teaser_of"]

#: Navigation sections, in the sidebar's order (the home page comes first, outside any section).
SECTIONS = ("Scenarios", "Lab meeting", "Plans")


@dataclass(frozen=True)
class PageInfo:
    """One page of the app.

    Attributes
    ----------
    name : str
        File stem in ``pages/`` and URL path (``/accuracy``).
    title, icon : str
        Navigation label and Material icon.
    description : str
        One line for the home page.
    section : str
        One of :data:`SECTIONS`.
    core : tuple of str
        ``core`` modules the page computes with (imported by the launcher before the first visitor).
    bench : bool
        Whether ``make bench`` moves a slider of this page in the browser benchmark.
    bench_slider : str or None
        The accessible name of the slider it moves; None: the first key input (else the sidebar's first slider).
    bench_visit : bool
        Whether ``make bench`` times the page's first visit although it moves none of its sliders (``bench=False``):
        a page that opens on a chart but has no slider above it (Analyze).
    question : str
        The user's question the page answers, for its home-page card ("" for no card). The card's one-line answer
        comes from ``teaser`` (a page with a question but no teaser gets no card).
    designs : tuple of str
        The scenario's design classes (``"core.llm:BenchmarkDesign"``), the :class:`core.design.Design` objects the
        page builds from its widgets: the fuzz tests draw links from their declared fields.
    teaser : str
        The function computing the home-page card's answer at the page's defaults, in the page's scenario package
        (``"core.accuracy.teaser:accuracy_teaser"``; "" for none); :func:`teaser_of` calls it.
    """

    name: str
    title: str
    icon: str
    description: str
    section: str = "Scenarios"
    core: tuple[str, ...] = ()
    bench: bool = True
    bench_slider: str | None = None
    bench_visit: bool = False
    question: str = ""
    designs: tuple[str, ...] = ()
    teaser: str = ""

    @property
    def path(self) -> str:
        """The page file, relative to the repository (what ``st.Page`` takes)."""
        return f"pages/{self.name}.py"


PAGES: tuple[PageInfo, ...] = (
    PageInfo(
        "accuracy", "Accuracy (McNemar)", ":material/target:",
        "Two classifiers on one test set, unpaired accuracy, or head-to-head preferences: power, exaggeration, "
        "the smallest detectable gain, \"no worse than\" gates, intervals for small test sets, and the SQuAD 2.0 "
        "leaderboard.", core=("accuracy",), designs=("core.accuracy:AccuracyPageDesign",),
        question="Are two classifiers different on my test set?",
        teaser="core.accuracy.teaser:accuracy_teaser"),
    PageInfo(
        "llm", "LLM benchmarks", ":material/smart_toy:",
        "Two language models on one benchmark: how many questions, how many sampled answers per question, "
        "clustered questions and an LLM judge's errors — power, the cheapest design, and parameters estimated from "
        "your logs.", core=("llm",), designs=("core.llm:BenchmarkDesign", "core.llm:FacetDesign",
                                              "core.llm:NoWorseDesign", "core.llm:SubsetDesign",
                                              "core.llm:ItemListDesign"),
        question="Is one LLM better than another on a benchmark?",
        teaser="core.llm.teaser:llm_teaser"),
    PageInfo(
        "judge", "LLM judges and human labels", ":material/gavel:",
        "How many human labels to pair with an LLM judge (PPI++), a Rogan–Gladen corrected judge at the same cost, "
        "and how many items to double-annotate for an agreement study (κ, AC1, α).", core=("judge",),
        designs=("core.judge:JudgePageDesign",),
        question="How many human labels do I need next to an LLM judge?",
        teaser="core.judge.teaser:judge_teaser"),
    PageInfo(
        "leaderboard", "Leaderboards (pairwise votes)", ":material/leaderboard:",
        "Many systems ranked from pairwise votes by people or an LLM judge (Bradley–Terry, Elo scale): votes until "
        "neighbours are told apart, interval widths, P(the whole order is right), the cost of a noisy judge.",
        core=("pairwise",), designs=("core.pairwise:LeaderboardDesign",),
        question="Can votes rank my systems on a leaderboard?",
        teaser="core.pairwise.teaser:leaderboard_teaser"),
    PageInfo(
        "claims", "Many claims at once", ":material/checklist:",
        "Gains claimed on several benchmarks: each claim's power and the chance that all hold under Holm, "
        "Bonferroni or Benjamini–Hochberg, and how much larger the test sets must be.", core=("claims",),
        designs=("core.claims:ClaimsDesign",),
        bench_slider="Correlation between benchmarks' test statistics",
        question="Do all the gains in my paper hold at once?",
        teaser="core.claims.teaser:claims_teaser"),
    PageInfo(
        "mt", "Machine translation (BLEU)", ":material/translate:",
        "BLEU differences with the paired randomization test: power vs test-set size, sensitivity to the "
        "swap-effect distribution, and P0/b0 fitted from your own system outputs.", core=("mt",), designs=("core.mt:BleuDesign",),
        question="Will BLEU show my MT system is better?",
        teaser="core.mt.teaser:mt_teaser"),
    PageInfo(
        "ratings", "Human ratings (Likert)", ":material/groups:",
        "Likert evaluations with crossed worker × item variance: power and false positives of the paper's and the "
        "Satterthwaite rule, Figure 6, and an annotation-budget planner.", core=("ratings",),
        designs=("core.ratings:RatingsDesign", "core.ratings:RatingsCostDesign"),
        question="How many workers and items for a human rating study?",
        teaser="core.ratings.teaser:ratings_teaser"),
    PageInfo(
        "sequential", "DA campaigns: fixed vs interim", ":material/timer:",
        "How many Direct Assessment judgments to budget, and whether to peek: Pocock / O'Brien–Fleming interim "
        "analyses, futility stopping, budget curves, savings and the exaggeration of stopping early.",
        core=("sequential",), designs=("core.sequential:CampaignDesign",),
        question="How big a Direct Assessment campaign, and may I peek?",
        teaser="core.sequential.teaser:sequential_teaser"),
    PageInfo(
        "monitor", "Monitor a running evaluation", ":material/monitoring:",
        "Results coming in item by item (benchmark questions, judge labels, arena votes): the running difference "
        "with a confidence sequence valid at every n, the planned group boundaries, and whether to stop.",
        core=("sequential",), designs=("core.sequential:MonitorDesign",),
        question="My evaluation is running: can I stop yet?",
        teaser="core.sequential.teaser:monitor_teaser"),
    PageInfo(
        "analysis", "Analyze your results", ":material/analytics:",
        "Upload per-item results: the right significance test, effect sizes, a Bayesian HDI/ROPE assessment, "
        "many-system comparisons, and what to write in the paper.", core=("analysis", "bayes"), bench=False,
        bench_visit=True,
        designs=("core.analysis:AnalysisDesign",),
        question="I already have results: which test, and what do I write?",
        teaser="core.analysis.teaser:analysis_teaser"),
    PageInfo(
        "demo", "Lab-meeting demo", ":material/slideshow:",
        "A five-step guided story of the significance filter, animated for a projector.", section="Lab meeting",
        core=("demo",), bench=False,
        question="How do I show my lab why small evaluations mislead?",
        teaser="core.demo:demo_teaser"),
    PageInfo(
        "plan", "Plan basket", ":material/shopping_basket:",
        "Designs added from several pages in one downloadable plan with the total cost.", section="Plans",
        bench=False),
)


@dataclass(frozen=True)
class ViewCard:
    """A home-page card for one tab of a page (a question of its own that a tab answers).

    Attributes
    ----------
    key : str
        The card's name (:func:`teaser_of` takes it) and element key (``card_<key>``).
    page : str
        The page's name; ``view`` is the tab's label (``?view=…``) the card's link opens.
    question : str
        The user's question, as on the other cards.
    teaser : str
        The function computing the card's answer, as :attr:`PageInfo.teaser` ("" for no card).
    """

    key: str
    page: str
    view: str
    question: str
    teaser: str = ""


VIEW_CARDS: tuple[ViewCard, ...] = (
    ViewCard("llm_facets", "llm", "Prompts and seeds", "Do my prompts matter more than my questions?",
             teaser="core.llm.teaser:llm_facets_teaser"),
)


def scenario_pages() -> tuple[PageInfo, ...]:
    """The pages of the "Scenarios" section, in navigation order."""
    return tuple(p for p in PAGES if p.section == "Scenarios")


def design_classes(page: PageInfo) -> tuple:
    """The page's design classes, imported from their dotted names."""
    import importlib

    out = []
    for dotted in page.designs:
        module, _, name = dotted.partition(":")
        out.append(getattr(importlib.import_module(module), name))
    return tuple(out)


def teaser_of(name: str) -> Teaser:
    """The home-page card's answer for a page (its name) or a tab's card (its :class:`ViewCard` key), computed by
    the function its registry entry names (imported from its dotted name, as :func:`design_classes` does).

    Raises
    ------
    ValueError
        When ``name`` is neither a page nor a card with a teaser.
    """
    import importlib

    dotted = {**{p.name: p.teaser for p in PAGES if p.teaser}, **{v.key: v.teaser for v in VIEW_CARDS if v.teaser}}
    if name not in dotted:
        raise ValueError(f"`page` must be one of {', '.join(dotted)}; got {name!r}.")
    module, _, function = dotted[name].partition(":")
    return getattr(importlib.import_module(module), function)()


def by_name(name: str) -> PageInfo:
    """The page called ``name`` (its file stem)."""
    for page in PAGES:
        if page.name == name:
            return page
    raise KeyError(name)

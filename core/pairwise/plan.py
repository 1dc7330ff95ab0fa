"""The Leaderboard page's plan: ranking systems from pairwise votes (Bradley & Terry 1952), in words."""

from __future__ import annotations

from . import LeaderboardDesign
from ..plan.document import Assumption, PlanItem
from ..plan.text import fmt_money, fmt_pct
from ..validation import check_type

__all__ = ["RATINGS_SOURCES", "plan_item"]

REFERENCES = (
    "Bradley & Terry (1952). Rank analysis of incomplete block designs. Biometrika 39.",
    "Chiang et al. (2024). Chatbot Arena: an open platform for evaluating LLMs by human preference. arXiv 2403.04132.",
    "O'Hagan, Stevens & Campbell (2005). Assurance in clinical trial design. Pharmaceutical Statistics 4.",
)


#: Where the expected ratings come from, by the design's ``preset`` (the plan's assumption source).
RATINGS_SOURCES = {"even": "evenly spaced preset", "crowded": "crowded-top preset", "custom": "table on the page"}


def plan_item(design: LeaderboardDesign, result, *, votes_needed: int, assurance=None, cost_per_vote: float = 0.0,
              currency: str = "", figures: tuple = (), link: str = "", code: str = "") -> PlanItem:
    """The plan of one leaderboard, as the Leaderboard page shows it.

    Parameters
    ----------
    design : LeaderboardDesign
        The page's design: the expected ratings (Elo, from its ``preset``; :meth:`~LeaderboardDesign.board`),
        ties and their handling, judge accuracy, α, the votes ``n`` (spread evenly over all pairs),
        ``target_power`` and the prior SD ``delta_sd`` of the assurance are read from it.
    result : LeaderboardResult
        :func:`core.pairwise.leaderboard_power` at ``design.n``: the weakest neighbours' power, the probability
        of the whole order, the typical interval half-width, whether the exact sign test was used (two systems).
    votes_needed : int
        Votes for ``target_power`` on every pair of neighbours (−1: more than can be planned).
    assurance : LeaderboardAssurance, optional
        The neighbours' assurance over a normal prior on each adjacent gap with SD ``design.delta_sd`` Elo
        (None: no assurance in the plan).
    cost_per_vote, currency :
        A page-level setting; 0 leaves costs out.
    figures, link, code :
        Passed through to the plan.

    Returns
    -------
    PlanItem

    Examples
    --------
    >>> from core import pairwise as pw
    >>> d = pw.LeaderboardDesign(preset="custom", ratings="A:1050;B:1000", n=2000)
    >>> item = plan_item(d, d.board().power(2000), votes_needed=d.board().votes())
    >>> item.test
    "exact two-sided sign test on the non-tied votes (the Accuracy page's preference engine)"
    """
    check_type("design", design, LeaderboardDesign)
    n_votes, target_power, ratings_source = design.n, design.target_power, RATINGS_SOURCES[design.preset]
    delta_sd = design.delta_sd if assurance is not None else None
    design = design.board()
    ratings, tie_rate, ties, judge, alpha = (design.series, design.tie_rate, design.ties, design.judge_accuracy,
                                             design.alpha)
    tie_pct, judge_pct, needed = 100 * tie_rate, 100 * judge, votes_needed
    names = list(ratings.index)
    pairs = len(names) * (len(names) - 1) // 2
    sentence = (f"With {n_votes:,} pairwise votes spread evenly over "
                + (f"the {pairs} pairs" if pairs > 1 else "the one pair") + f" of {len(names)} systems"
                + (f", {tie_pct:.0f}% ties ({'dropped' if ties == 'drop' else 'half wins'})" if tie_rate else "")
                + (f" and a judge agreeing with the true preference {judge_pct:.0f}% of the time" if judge < 1 else "")
                + (f", the two systems are told apart by the exact sign test on the non-tied votes (α = {alpha:g}) "
                   "with " if result.uses_exact_engine else
                   f", the closest neighbours in a Bradley–Terry fit are told apart (Wald test, α = {alpha:g}) with ")
                + f"{fmt_pct(result.weakest_power, 0)} power, and the whole order is recovered with probability "
                f"{fmt_pct(result.order_correct, 0)}; {target_power:.0%} power for every pair of neighbours takes "
                + ("more votes than can be planned here" if needed < 0 else f"{needed:,} votes") + ".")
    assumptions = [Assumption("expected ratings (Elo)", ", ".join(f"{n}: {v:.0f}" for n, v in ratings.items()),
                              ratings_source),
                   Assumption("total votes", f"{n_votes:,}", "slider"),
                   Assumption("ties", f"{tie_pct:.0f}% ({ties})", "slider"),
                   Assumption("judge accuracy", f"{judge_pct:.1f}%", "slider")]
    results = [("weakest neighbours' power", fmt_pct(result.weakest_power)),
               ("P(whole order right)", fmt_pct(result.order_correct)),
               ("typical 95% interval", f"± {result.typical_halfwidth:.1f} Elo"),
               (f"votes for {target_power:.0%} on every pair", "not reachable" if needed < 0 else f"{needed:,}")]
    if assurance is not None and delta_sd is not None:
        ceiling = float(assurance.ceiling[assurance.weakest])
        sentence += (f" Averaged over a normal prior on each gap (SD {delta_sd:.0f} Elo), the weakest neighbours' "
                     f"assurance is {fmt_pct(assurance.min_assurance, 0)} (ceiling {fmt_pct(ceiling, 0)}; O'Hagan et "
                     "al., 2005).")
        assumptions.append(Assumption("prior on each adjacent gap", f"N(table gap, {delta_sd:.0f}²) Elo",
                                      "set on the page"))
        results += [("weakest neighbours' assurance", fmt_pct(assurance.min_assurance)),
                    ("its ceiling", fmt_pct(ceiling))]
    if cost_per_vote > 0:
        assumptions.append(Assumption("cost per vote", fmt_money(cost_per_vote, currency), "set on the page"))
        if needed > 0:
            results.append((f"cost of {needed:,} votes", fmt_money(needed * cost_per_vote, currency)))
    return PlanItem(
        scenario="Leaderboard from pairwise votes", question=f"Can {n_votes:,} pairwise votes rank {len(names)} systems?",
        assumptions=tuple(assumptions),
        test=("exact two-sided sign test on the non-tied votes (the Accuracy page's preference engine)"
              if result.uses_exact_engine else
              "Wald tests of adjacent Bradley–Terry rating differences (expected Fisher information)"), alpha=alpha,
        results=tuple(results), paragraph=sentence, cost=n_votes * cost_per_vote if cost_per_vote > 0 else None,
        currency=currency, figures=tuple(figures), link=link, code=code, references=REFERENCES)

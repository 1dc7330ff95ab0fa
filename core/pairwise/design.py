"""The planned leaderboard: the :class:`Leaderboard` design, the page's :class:`LeaderboardDesign` and small helpers.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there. The constants and
input checks shared with the engines live in :mod:`core.pairwise._common`; this module imports the engines (never
the other way round), so the package's imports form no cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from urllib.parse import quote, unquote

import numpy as np
import pandas as pd
from scipy import special

from ..design import Design, spec
from ..multiplicity import FamilyPower
from ..validation import as_floats, check_int, check_probability, check_real
from ._common import (  # noqa: F401  (the public constants are re-exported from here too)
    BOOT_WORK,
    MAX_VOTES,
    METHODS,
    SAMPLE_VOTES,
    SCALE,
    TIES,
    WINNERS,
    _FIT_K_MAX,
    _K_MAX,
    _N_MAX,
    _S,
    _SPREAD_MAX,
    _default_names,
    _validate,
    check_ties,
)
from .curves import adjacent_power_curve, leaderboard_table, order_correct_curve, votes_vs_judge
from .power import (RESOLUTION_CORRECTIONS, LeaderboardPower, expected_upsets, leaderboard_power,
                    rank_resolution)
from .votes import LeaderboardAssurance, leaderboard_assurance, leaderboard_votes

__all__ = [
    "Leaderboard",
    "LeaderboardDesign",
    "MAX_VOTES",
    "METHODS",
    "SAMPLE_VOTES",
    "SCALE",
    "TIES",
    "WINNERS",
    "crowded_top",
    "decode_ratings",
    "encode_ratings",
    "evenly_spaced",
    "observed_win_rate",
    "system_names",
    "vote_grid",
    "win_probability",
    "BOOT_WORK",
]


@dataclass(frozen=True)
class Leaderboard:
    """A planned leaderboard, everything but its number of votes: the page builds it once and every call uses it.

    ``ratings`` may be given as a Series, a dict or an array (as in :func:`leaderboard_power`); it is kept as a tuple
    of ``(name, rating)`` pairs, so the object is frozen, compared by value and a cache key. The other fields are
    the keyword arguments of the module's functions, validated once, here; the methods are those functions.

    Examples
    --------
    >>> board = Leaderboard(evenly_spaced(10, 25))
    >>> board.votes()
    15320
    >>> round(float(board.power(20_000).adjacent_power[0]), 3)
    0.893
    """

    ratings: tuple
    tie_rate: float = 0.0
    ties: str = "drop"
    judge_accuracy: float = 1.0
    alpha: float = 0.05

    def __post_init__(self):
        ratings = self.ratings
        if isinstance(ratings, tuple) and ratings and all(isinstance(p, tuple) and len(p) == 2 for p in ratings):
            ratings = dict(ratings)  # the stored form, given back by dataclasses.replace
        names, values, _, tie_rate, ties, judge, alpha, *_ = _validate(
            ratings, tie_rate=self.tie_rate, ties=self.ties, judge_accuracy=self.judge_accuracy, alpha=self.alpha)
        set_ = partial(object.__setattr__, self)
        set_("ratings", tuple(zip(names, (float(v) for v in values))))
        set_("tie_rate", tie_rate)
        set_("ties", ties)
        set_("judge_accuracy", judge)
        set_("alpha", alpha)

    @property
    def series(self) -> pd.Series:
        """The expected ratings as a Series indexed by system name (input order)."""
        return pd.Series(dict(self.ratings), dtype=float)

    def _kw(self, *drop: str) -> dict:
        kw = {"tie_rate": self.tie_rate, "ties": self.ties, "judge_accuracy": self.judge_accuracy, "alpha": self.alpha}
        return {k: v for k, v in kw.items() if k not in drop}

    def with_(self, **changes) -> Leaderboard:
        """The same leaderboard with some fields changed (validated again)."""
        return replace(self, **changes)

    def power(self, n_votes, *, method="analytic", n_sims=500, seed=None) -> LeaderboardPower:
        """:func:`leaderboard_power` at ``n_votes``."""
        return leaderboard_power(n_votes, self.series, **self._kw(), method=method, n_sims=n_sims, seed=seed)

    def votes(self, *, target_power=0.8, halfwidth=None, conservative=False, n_max=_N_MAX) -> int:
        """:func:`leaderboard_votes`: the fewest votes for ``target_power`` on every pair of neighbours."""
        return leaderboard_votes(self.series, **self._kw(), target_power=target_power, halfwidth=halfwidth,
                                 conservative=conservative, n_max=n_max)

    def assurance(self, n_votes, delta_sd) -> LeaderboardAssurance:
        """:func:`leaderboard_assurance` with a normal prior of SD ``delta_sd`` (Elo) on every adjacent gap."""
        return leaderboard_assurance(n_votes, self.series, delta_sd, **self._kw())

    def table(self, n_votes) -> pd.DataFrame:
        """:func:`leaderboard_table` at ``n_votes``."""
        return leaderboard_table(self.series, n_votes, **self._kw("alpha"))

    def adjacent_power_curve(self, votes) -> pd.DataFrame:
        """:func:`adjacent_power_curve` over ``votes``."""
        return adjacent_power_curve(self.series, votes, **self._kw())

    def order_correct_curve(self, votes) -> pd.DataFrame:
        """:func:`order_correct_curve` over ``votes``."""
        return order_correct_curve(self.series, votes, **self._kw("alpha"))

    def votes_vs_judge(self, judge_accuracies, *, target_power=0.8) -> pd.DataFrame:
        """:func:`votes_vs_judge` (the judge's accuracy varies; this design's plays no part)."""
        return votes_vs_judge(self.series, judge_accuracies, target_power=target_power, **self._kw("judge_accuracy"))


#: The page's presets of expected ratings (``preset``): evenly spaced, a crowded top, or a table of ratings.
PRESETS = ("even", "crowded", "custom")
#: The gap between neighbours (Elo) each preset starts from: 25 Elo ≈ a 53.6% win rate, 30 Elo ≈ 54.3%.
PRESET_GAPS = {"even": 25.0, "crowded": 30.0}
#: The significance levels offered (two-sided).
ALPHAS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1)
_RATINGS_SHOWN = 50  # systems read from a link's ratings table (the page's table)


def _number(value: float, decimals: int | None) -> str:
    """``value`` with ``decimals`` decimals, or exactly (the shortest text that reads back the same float)."""
    if decimals is not None:
        return f"{value:.{decimals}f}"
    text = f"{value:.1f}"
    return text if float(text) == value else repr(float(value))


def encode_ratings(ratings, *, decimals: int | None = 1) -> str:
    """Names and ratings as link text: ``name:rating`` pairs joined by ``;`` (names percent-encoded).

    ``decimals=None`` writes every rating exactly, so :func:`decode_ratings` gives back the same floats (the form a
    :class:`LeaderboardDesign` keeps); the default, one decimal, is the page's link.

    Examples
    --------
    >>> encode_ratings(pd.Series({"GPT:4": 1025.0, "B": 1000.25}))
    'GPT%3A4:1025.0;B:1000.2'
    >>> encode_ratings({"B": 1000.25}, decimals=None)
    'B:1000.25'
    """
    items = ratings.items() if hasattr(ratings, "items") else enumerate(ratings)
    return ";".join(f"{quote(str(k), safe='')}:{_number(float(v), decimals)}" for k, v in items)


def decode_ratings(text: str, *, limit: int = _RATINGS_SHOWN, name_chars: int | None = 60) -> pd.Series:
    """Inverse of :func:`encode_ratings` (at most ``limit`` systems, names cut at ``name_chars`` characters).

    Raises ``ValueError`` when a rating is not a number, a system is listed twice or none is listed.
    """
    pairs = []
    for part in [p for p in str(text).split(";") if p.strip()][:limit]:
        name, _, value = part.rpartition(":")
        try:
            rating = float(value)
        except ValueError:
            raise ValueError(f"The linked ratings have a value that is not a number: {value[:20]!r}.") from None
        pairs.append((unquote(name)[:name_chars] or f"S{len(pairs) + 1}", rating))
    names = [n for n, _ in pairs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:  # a dict would keep the last rating of each name and silently drop systems
        raise ValueError(f"The linked ratings name a system more than once ({', '.join(map(repr, twice[:5]))}): "
                         "give each system one row.")
    if not pairs:
        raise ValueError("The linked ratings list no systems: the link's `ratings` should read like "
                         "`A:1025;B:1000`. The table starts from the evenly spaced preset instead.")
    return pd.Series(dict(pairs), dtype=float)


@dataclass(frozen=True)
class LeaderboardDesign(Design):
    """The Leaderboard page's design: every input it turns on, declared once with its URL key (:mod:`core.design`).

    The expected ratings come from a preset — ``k`` systems evenly spaced by ``gap`` Elo, or a crowded top of
    ``leaders`` systems ``leader_gap`` apart then ``gap`` apart (:func:`evenly_spaced`, :func:`crowded_top`) — or
    from a table (``ratings``, the text of :func:`encode_ratings`); ``gap=None`` is the preset's gap
    (:data:`PRESET_GAPS`: 25 Elo evenly spaced, 30 Elo below a crowded top). ``tie_pct`` and ``judge_pct`` are in
    percent, as the page's links carry them (``?ties_pct=10&judge=80``); :attr:`tie_rate` and
    :attr:`judge_accuracy` are the engines' proportions. The methods delegate to :class:`Leaderboard` (Bradley & Terry 1952 on the Elo scale;
    assurance after O'Hagan, Stevens & Campbell 2005).

    Examples
    --------
    >>> d = LeaderboardDesign(k=10, gap=25.0, n=20_000)
    >>> d.sample_sizes() == Leaderboard(evenly_spaced(10, 25)).votes()
    True
    >>> LeaderboardDesign.from_params({"votes": "20000", "k": "10", "gap": "25"}) == d
    True
    """

    preset: str = spec("even", choices=PRESETS, label="Expected ratings", key="preset",
                       help="Evenly spaced by a gap; a crowded top (a few close leaders, the rest further apart); or "
                       "your own table (from your guesses or a fit to past votes).")
    k: int = spec(6, low=2, high=_K_MAX, ui_high=20, step=1, unit="systems", label="Number of systems", key="k",
                  help="Systems on the leaderboard; votes are spread evenly over all pairs.")
    gap: float | None = spec(None, kind="float", low=0.0, high=_SPREAD_MAX, ui_low=5.0, ui_high=200.0, step=5.0,
                             unit="Elo", label="Gap between neighbours (Elo)", key="gap",
                             help="25 Elo ≈ a 53.6% win rate between neighbours; 100 Elo ≈ 64%.")
    leaders: int = spec(3, low=1, high=_K_MAX, ui_low=2, ui_high=20, step=1, unit="systems", label="Close leaders",
                        key="leaders", help="How many systems crowd at the top (at most the number of systems).")
    leader_gap: float = spec(5.0, low=0.0, high=_SPREAD_MAX, ui_low=1.0, ui_high=50.0, step=1.0, unit="Elo",
                             label="Gap among the leaders (Elo)", key="lead_gap",
                             help="The leaders' neighbours differ by this much.")
    ratings: str | None = spec(None, kind="text", label="Expected ratings (Elo)", key="ratings",
                               help="The table's systems and ratings, `name:rating` pairs joined by `;` (used with "
                               "the table preset; none: 6 systems 25 Elo apart).")
    n: int = spec(5000, low=1, high=_N_MAX, unit="votes", label="Total votes", key="votes",
                  help="Votes over all pairs of systems, spread evenly over the pairs.")
    tie_pct: float = spec(0.0, low=0.0, high=100.0, high_open=True, ui_high=60.0, step=1.0, unit="%",
                          label="Ties (%)", key="ties_pct", help="Share of votes that are ties (or 'both bad').")
    ties: str = spec("drop", choices=TIES, label="Ties in the fit", key="ties",
                     help="Dropped: ties carry no information (default). Split: a tie counts half a win for each side, "
                     "as some arena fits do; this pulls every rating toward the mean (by about the tie rate), so "
                     "intervals no longer cover the true ratings.")
    judge_pct: float = spec(100.0, low=50.0, low_open=True, high=100.0, ui_low=55.0, step=0.5, unit="%",
                            label="Judge agrees with the true preference (%)", key="judge",
                            help="An LLM judge (or a noisy rater) that picks the truly preferred system with "
                            "probability q turns a win rate p into ½ + (2q − 1)(p − ½): every gap shrinks.")
    alpha: float = spec(0.05, choices=ALPHAS, label="Significance level α (two-sided)", key="alpha",
                        help="Reject 'no difference' when p ≤ α.")
    target_power: float = spec(0.8, low=0.0, high=1.0, low_open=True, high_open=True, ui_low=0.5, ui_high=0.99,
                               step=0.01, label="Target power", key="target",
                               help="80% is the common minimum (Cohen 1962). Used for the MDE and the required size.")
    assure: bool = spec(False, label="Average power over a prior on the gaps", key="assure",
                        help="Assurance (O'Hagan, Stevens & Campbell 2005): the probability that a pair of neighbours "
                        "ends significant in the assumed order, averaged over your uncertainty about their gap. No "
                        "number of votes can push it past the ceiling — the prior probability that the order is as "
                        "assumed.")
    delta_sd: float = spec(15.0, low=0.0, high=_SPREAD_MAX, ui_high=200.0, step=1.0, unit="Elo",
                           label="Prior SD of each gap (Elo)", key="gap_sd",
                           help="How unsure you are about each adjacent gap in the table: about 95% of your belief "
                           "lies within ±2 SD of it. 0 gives the ordinary power.")

    def __post_init__(self):
        self.check_fields()
        if self.ratings is not None:
            # the table as a link reads it back (trimmed; "", "none" and "null" are no table), so that
            # from_params(d.to_params()) == d: an empty table is no table, as the link `ratings=` says
            object.__setattr__(self, "ratings", self.field("ratings").parse(self.ratings))
        try:  # the checks that span fields: the preset's ratings (gap × systems within the spread) and the table
            self.board()
        except ValueError as e:
            text = str(e)
            raise ValueError(text if text.startswith("`") else f"`ratings`: {text}") from None

    @classmethod
    def from_params(cls, params=None, *, messages=None):
        """The design a link or pin describes (:meth:`core.design.Design.from_params`); ``ties=half``, the former
        name of ``"split"`` that older pins carry, reads as ``"split"``."""
        params = dict(params or {})
        raw = params.get("ties")
        raw = raw[-1] if isinstance(raw, (list, tuple)) and raw else raw
        if isinstance(raw, str) and raw.strip() == "half":
            params["ties"] = "split"
        return super().from_params(params, messages=messages)

    # --- the engines' inputs --------------------------------------------------------------------------------
    @property
    def tie_rate(self) -> float:
        """Share of votes that are ties, in [0, 1)."""
        return self.tie_pct / 100

    @property
    def judge_accuracy(self) -> float:
        """The judge's agreement with the true preference, q in (½, 1]."""
        return self.judge_pct / 100

    @property
    def gap_elo(self) -> float:
        """The gap between neighbours (below the leaders for a crowded top): ``gap`` or the preset's."""
        return self.gap if self.gap is not None else PRESET_GAPS.get(self.preset, PRESET_GAPS["even"])

    def expected_ratings(self) -> pd.Series:
        """The expected ratings (Elo) by system, from the preset or the table."""
        if self.preset == "custom":
            if self.ratings is None:
                return pd.Series(evenly_spaced(6, PRESET_GAPS["even"]), index=system_names(6))
            # one more than the engine takes, so a longer table is refused rather than cut
            return decode_ratings(self.ratings, limit=_K_MAX + 1, name_chars=None)
        names = system_names(self.k)
        if self.preset == "crowded":
            return pd.Series(crowded_top(self.k, leaders=min(self.leaders, self.k), leader_gap=self.leader_gap,
                                         gap=self.gap_elo), index=names)
        return pd.Series(evenly_spaced(self.k, self.gap_elo), index=names)

    def board(self) -> Leaderboard:
        """The :class:`Leaderboard` (everything but the votes) every method uses."""
        return Leaderboard(self.expected_ratings(), tie_rate=self.tie_rate, ties=self.ties,
                           judge_accuracy=self.judge_accuracy, alpha=self.alpha)

    # --- the scenario's methods (thin delegations to the engines) ---------------------------------------------
    def power(self, n=None, *, method="analytic", n_sims=500, seed=None) -> LeaderboardPower:
        """:func:`leaderboard_power` at ``n`` votes (default: the design's ``n``)."""
        return self.board().power(self.n if n is None else n, method=method, n_sims=n_sims, seed=seed)

    def sample_sizes(self, target_power=None) -> int:
        """:func:`leaderboard_votes`: the fewest votes with ``target_power`` (default: the design's) on every pair
        of neighbours (``-1``: not reachable)."""
        return self.board().votes(target_power=self.target_power if target_power is None else target_power)

    def assurance(self, n=None, delta_sd=None) -> LeaderboardAssurance:
        """:func:`leaderboard_assurance` at ``n`` votes with a normal prior of SD ``delta_sd`` (Elo) on each gap."""
        return self.board().assurance(self.n if n is None else n, self.delta_sd if delta_sd is None else delta_sd)

    def table(self, n=None) -> pd.DataFrame:
        """:func:`leaderboard_table`: the expected leaderboard with intervals after ``n`` votes."""
        return self.board().table(self.n if n is None else n)

    def curves(self, votes) -> pd.DataFrame:
        """:func:`adjacent_power_curve`: each pair of neighbours' power over ``votes`` (tidy)."""
        return self.board().adjacent_power_curve(list(votes))

    def order_curve(self, votes) -> pd.DataFrame:
        """:func:`order_correct_curve`: P(the whole order is right) over ``votes`` (tidy)."""
        return self.board().order_correct_curve(list(votes))

    def resolution(self, n=None, *, corrections=RESOLUTION_CORRECTIONS, n_sims=20_000,
                   seed=0) -> dict[str, FamilyPower]:
        """:func:`rank_resolution`: each pair of neighbours resolved at ``n`` votes under each multiplicity
        correction across the K − 1 pairs (Holm 1979), with the gaps' estimates drawn jointly (adjacent gaps
        share a system, so their tests are negatively correlated)."""
        return rank_resolution(self.n if n is None else n, self.expected_ratings(), tie_rate=self.tie_rate,
                               ties=self.ties, judge_accuracy=self.judge_accuracy, alpha=self.alpha,
                               corrections=corrections, n_sims=n_sims, seed=seed)

    def upsets(self, n=None) -> np.ndarray:
        """:func:`expected_upsets`: each pair of neighbours' expected upsets at ``n`` votes (default: the design's)."""
        return expected_upsets(self.n if n is None else n, self.expected_ratings(), tie_rate=self.tie_rate,
                               ties=self.ties, judge_accuracy=self.judge_accuracy)

    def judge_curve(self, judge_accuracies, target_power=None) -> pd.DataFrame:
        """:func:`votes_vs_judge`: votes for ``target_power`` on every pair over the judge's accuracy (tidy)."""
        return self.board().votes_vs_judge(list(judge_accuracies), target_power=self.target_power
                                           if target_power is None else target_power)


# ---------------------------------------------------------------------------
# small public helpers
# ---------------------------------------------------------------------------
def win_probability(r_i, r_j):
    """Bradley–Terry probability that a system rated ``r_i`` beats one rated ``r_j`` (Elo scale).

    ``1 / (1 + 10^((r_j - r_i) / 400))``, vectorized.

    Examples
    --------
    >>> round(float(win_probability(1100, 1000)), 4)
    0.6401
    """
    diff = as_floats("r_i", r_i) - as_floats("r_j", r_j)
    out = special.expit(diff * _S)
    return float(out) if out.ndim == 0 else out


def observed_win_rate(p, *, judge_accuracy):
    """Win rate reported by a judge who agrees with the true preference with probability q.

    Parameters
    ----------
    p : float or array_like
        True win rate(s), in [0, 1].
    judge_accuracy : float
        q in [0, 1]: the probability that the judge's verdict on a non-tied
        vote agrees with the true preference.

    Returns
    -------
    float or ndarray
        ``½ + (2q - 1)(p - ½)``: the judge picks the truly preferred side with
        probability q, so P(report i) = q p + (1 - q)(1 - p). q = ½ gives ½
        whatever p (no information); q < ½ reverses the preference.

    Raises
    ------
    ValueError
        When a ``p`` is outside [0, 1] or ``judge_accuracy`` outside [0, 1].

    Examples
    --------
    >>> round(observed_win_rate(0.7, judge_accuracy=0.8), 12)  # 0.8 · 0.7 + 0.2 · 0.3
    0.62
    >>> observed_win_rate([0.5, 0.9], judge_accuracy=1.0)
    array([0.5, 0.9])
    """
    q = check_probability("judge_accuracy", judge_accuracy)
    arr = as_floats("p", p)
    if not np.all(np.isfinite(arr)) or np.any((arr < 0.0) | (arr > 1.0)):
        raise ValueError("`p` must be in [0, 1].")
    out = 0.5 + (2.0 * q - 1.0) * (arr - 0.5)
    return float(out) if out.ndim == 0 else out


def system_names(k: int) -> tuple[str, ...]:
    """Default system names ``S1`` … ``Sk``.

    Examples
    --------
    >>> system_names(3)
    ('S1', 'S2', 'S3')
    """
    return _default_names(check_int("k", k, low=1, high=_FIT_K_MAX))


def evenly_spaced(k, gap=25.0, *, top=1200.0) -> np.ndarray:
    """Preset: ``k`` ratings ``top, top - gap, top - 2 gap, …`` (Elo).

    Defaults: 25 Elo between neighbours (a 53.6% win rate), best system at 1200.

    Examples
    --------
    >>> evenly_spaced(4, 50)
    array([1200., 1150., 1100., 1050.])
    """
    k = check_int("k", k, low=2, high=_K_MAX)
    if not (isinstance(gap, (int, float, np.number)) and 0 <= gap <= _SPREAD_MAX / (k - 1)):
        check_real("gap", gap, low=0.0)  # a non-number or a negative gap gets the usual message
        raise ValueError(f"`gap` must be at most {_SPREAD_MAX / (k - 1):.4g} Elo with {k} systems (the ratings span at "
                         f"most {_SPREAD_MAX:,.0f} Elo), got {gap:g}.")
    top = check_real("top", top, low=-10_000.0, high=10_000.0)
    return top - gap * np.arange(k, dtype=float)


def crowded_top(k, *, leaders=3, leader_gap=5.0, gap=30.0, top=1200.0) -> np.ndarray:
    """Preset: a "crowded top" — a few close leaders, then evenly spaced systems.

    The first ``leaders`` systems are ``leader_gap`` apart (default 3 systems
    5 Elo apart, a 50.7% win rate); the next one is ``gap`` below the last
    leader and the rest ``gap`` apart (default 30 Elo, 54.3%).

    Examples
    --------
    >>> crowded_top(6)
    array([1200., 1195., 1190., 1160., 1130., 1100.])
    """
    k = check_int("k", k, low=2, high=_K_MAX)
    leaders = check_int("leaders", leaders, low=1, high=k)
    leader_gap = check_real("leader_gap", leader_gap, low=0.0, high=_SPREAD_MAX / (k - 1))
    gap = check_real("gap", gap, low=0.0, high=_SPREAD_MAX / (k - 1))
    top = check_real("top", top, low=-10_000.0, high=10_000.0)
    steps = np.where(np.arange(1, k) < leaders, leader_gap, gap)
    return top - np.concatenate([[0.0], np.cumsum(steps)])


def vote_grid(high, *, low=None, points=41) -> np.ndarray:
    """Geometric grid of distinct vote totals from ``low`` to ``high`` for the x axis of the curves.

    Examples
    --------
    >>> vote_grid(10_000, low=100, points=5)
    array([  100,   316,  1000,  3162, 10000])
    """
    high = check_int("high", high, low=2, high=_N_MAX)
    low = max(1, high // 100) if low is None else check_int("low", low, low=1, high=high)
    points = check_int("points", points, low=2, high=1000)
    return np.unique(np.round(np.geomspace(low, high, points)).astype(np.int64))



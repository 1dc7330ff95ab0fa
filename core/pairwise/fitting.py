"""Fitting Bradley–Terry ratings to votes, with bootstrap intervals bounded by their work.

Part of :mod:`core.pairwise` (see its notes for the model); every name is importable from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import linalg, special, stats
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..validation import check_int, rng_of
from ._common import BOOT_WORK, SCALE, WINNERS, _BOOT_MIN, _FIT_K_MAX, _MEAN_RATING, check_ties
from .solver import _fit_counts, _fit_replicates, _incidence, _laplacian, _reported_covariance
from .readers import _clean_votes

__all__ = [
    "BradleyTerryFit",
    "fit_bradley_terry",
]


@dataclass(frozen=True, eq=False)
class BradleyTerryFit:
    """A Bradley–Terry leaderboard fitted to votes (:func:`fit_bradley_terry`).

    Attributes
    ----------
    ratings : pandas.Series
        Maximum-likelihood ratings (Elo, mean 1000), best first, indexed by model.
    ci_low, ci_high : pandas.Series
        95% bootstrap percentile intervals (same index; ``nan`` when ``n_boot == 0``).
    se : pandas.Series
        Standard error of each rating relative to the mean (Elo): inverse
        Fisher information for "drop", the sandwich for "split".
    counts : pandas.DataFrame
        Votes per pair (pairs with votes only): ``model_a, model_b, wins_a,
        wins_b, ties, n``; ``model_a`` is the higher-rated of the pair.
    win_rates : pandas.DataFrame
        K × K, models in rating order: the share of the row model's votes
        against the column model that it won (non-tied votes for "drop"; ties
        as halves for "split"); ``nan`` on the diagonal and for pairs with no votes.
    n_votes : int
        Votes between two different models (ties included).
    n_ties : int
        Ties among them (``tie`` and ``tie (bothbad)``).
    n_self_matches : int
        Self-matches dropped.
    models : tuple of str
        Model names, best first.
    ties : str
    n_boot : int
    separated : bool
        True when the votes have no finite MLE (some model or group never
        loses, or never wins); the fit then carries a tiny ridge penalty
        (λ = 10⁻³ per logit²) and the affected ratings are only lower or upper bounds; its ``ci_low``,
        ``ci_high`` and ``se`` are ``nan`` and ``n_boot`` is 0.
    notes : tuple of str
        What was dropped or assumed, in plain language.
    bootstrap : pandas.DataFrame or None
        The bootstrap ratings (n_boot × K), for further analysis.
    """

    ratings: pd.Series
    ci_low: pd.Series
    ci_high: pd.Series
    se: pd.Series
    counts: pd.DataFrame
    win_rates: pd.DataFrame
    n_votes: int
    n_ties: int
    n_self_matches: int
    models: tuple
    ties: str
    n_boot: int
    separated: bool
    notes: tuple = ()
    bootstrap: pd.DataFrame | None = field(default=None, repr=False)

    def table(self) -> pd.DataFrame:
        """The leaderboard: ``rank, model, rating, ci_low, ci_high, se, votes`` (votes per model)."""
        per_model = pd.concat([self.counts.groupby("model_a", observed=True)["n"].sum(),
                               self.counts.groupby("model_b", observed=True)["n"].sum()]).groupby(level=0).sum()
        return pd.DataFrame({
            "rank": np.arange(1, len(self.models) + 1), "model": list(self.models),
            "rating": self.ratings.to_numpy(), "ci_low": self.ci_low.to_numpy(), "ci_high": self.ci_high.to_numpy(),
            "se": self.se.to_numpy(), "votes": per_model.reindex(list(self.models)).fillna(0).astype(int).to_numpy(),
        })


def _vote_codes(votes):
    """Model names and integer codes of a vote table (DataFrame or read_votes output)."""
    if not isinstance(votes, pd.DataFrame):
        raise ValueError("`votes` must be a table (pandas DataFrame) with columns model_a, model_b and winner.")
    lookup = {str(c).strip().lower(): c for c in votes.columns}
    missing = [c for c in ("model_a", "model_b", "winner") if c not in lookup]
    if missing:
        raise ValueError(f"`votes` needs the columns model_a, model_b and winner; missing {', '.join(missing)}.")
    a, b, w = votes[lookup["model_a"]], votes[lookup["model_b"]], votes[lookup["winner"]]
    notes, n_self = list(votes.attrs.get("notes", [])), int(votes.attrs.get("self_matches", 0))
    if (isinstance(a.dtype, pd.CategoricalDtype) and isinstance(b.dtype, pd.CategoricalDtype)
            and isinstance(w.dtype, pd.CategoricalDtype) and list(w.cat.categories) == list(WINNERS)
            and a.cat.categories.equals(b.cat.categories)
            and all(isinstance(c, str) and c == c.strip() and c for c in a.cat.categories)):
        # the output of read_votes: validate on the codes only
        ca, cb = a.cat.codes.to_numpy().astype(np.int64), b.cat.codes.to_numpy().astype(np.int64)
        outcome = w.cat.codes.to_numpy().astype(np.int64)
        used = np.bincount(np.concatenate([ca, cb]) + 1, minlength=len(a.cat.categories) + 1)[1:] > 0
        if len(votes) and ca.min(initial=0) >= 0 and cb.min(initial=0) >= 0 and outcome.min(initial=0) >= 0 \
                and used.all() and not np.any(ca == cb):
            return list(a.cat.categories), ca, cb, np.minimum(outcome, 2), notes, n_self
    if len(votes) == 0:
        raise ValueError("`votes` has no rows.")
    frame = _clean_votes(np.asarray(a, dtype=object), np.asarray(b, dtype=object), np.asarray(w, dtype=object),
                         name="`votes`", where="row")
    ca = frame["model_a"].cat.codes.to_numpy().astype(np.int64)
    cb = frame["model_b"].cat.codes.to_numpy().astype(np.int64)
    outcome = frame["winner"].cat.codes.to_numpy().astype(np.int64)
    return (list(frame["model_a"].cat.categories), ca, cb, np.minimum(outcome, 2),
            notes + frame.attrs["notes"], n_self + frame.attrs["self_matches"])


def _aggregate(ca, cb, outcome, k):
    """Per unordered pair (lo < hi): wins of lo, wins of hi, ties — only pairs with votes."""
    lo, hi = np.minimum(ca, cb), np.maximum(ca, cb)
    a_is_lo = ca == lo
    # outcome 0: model_a won; 1: model_b won; 2: tie
    lo_wins = ((outcome == 0) & a_is_lo) | ((outcome == 1) & ~a_is_lo)
    hi_wins = ((outcome == 1) & a_is_lo) | ((outcome == 0) & ~a_is_lo)
    key = lo * k + hi
    uniq, inv = np.unique(key, return_inverse=True)
    w = np.bincount(inv, weights=lo_wins, minlength=uniq.size)
    l_ = np.bincount(inv, weights=hi_wins, minlength=uniq.size)
    t = np.bincount(inv, weights=outcome == 2, minlength=uniq.size)
    return uniq // k, uniq % k, w, l_, t


def fit_bradley_terry(votes, *, ties="drop", n_boot=200, seed=None) -> BradleyTerryFit:
    """Fit a Bradley–Terry leaderboard (Elo scale, mean 1000) to pairwise votes, with bootstrap intervals.

    Parameters
    ----------
    votes : pandas.DataFrame
        One row per vote with columns ``model_a``, ``model_b``, ``winner``
        (values in :data:`WINNERS`; e.g. the output of :func:`read_votes`).
        Self-matches are dropped (noted).
    ties : {"drop", "split"}, optional
        Ties dropped from the fit, or counted as half a win each way (the
        Chatbot Arena convention; ratings shrink toward the mean).
    n_boot : int, optional
        Bootstrap replicates for the 95% percentile intervals (0 … 10,000;
        0 skips them).
    seed : int or numpy.random.Generator, optional
        Seed of the bootstrap.

    Returns
    -------
    BradleyTerryFit

    Raises
    ------
    ValueError
        For a malformed table, a single model, or models that split into
        groups never compared with each other (their ratings are not comparable).

    Notes
    -----
    Votes are aggregated per pair first (wins, losses, ties), so the cost is
    linear in the number of votes once and then depends on the number of
    observed pairs only. Newton–Raphson on the aggregated binomial
    likelihood, Σ_pairs [w log σ(β_i - β_j) + l log σ(β_j - β_i)] (ties as
    half-wins under "split"), with Σβ = 0; rating = 1000 + β · 400/ln 10. The
    bootstrap resamples the votes with replacement — one multinomial draw
    over the (pair, outcome) cells per replicate — and refits every replicate
    in one batch, as the arena's bootstrap of battles does (Chiang et al. 2024).
    Replicates are refitted from the point estimate by the chord method
    (Newton steps with the point estimate's Hessian factored once; see
    :func:`_fit_replicates`), which reaches the same maximum.

    The bootstrap's cost grows with replicates × observed pairs; it is kept
    within :data:`BOOT_WORK` (replicate–pair cells). Beyond it, fewer
    replicates are drawn (at least 100); when even 100 do not fit (above
    50,000 observed pairs), the intervals are the normal ones,
    rating ± 1.96 · ``se`` (the reported standard errors), and
    ``notes`` says so.

    Separation. When some model or group of models never loses (or never
    wins) against the rest, the maximum-likelihood ratings are infinite
    (Zermelo 1929; Ford 1957 gives the condition: the comparison graph must
    be strongly connected). The ridge that keeps them finite sets their size,
    not the votes, and every bootstrap replicate of a fit this sparse
    separates the same way: the percentile intervals came out as narrow as
    the ridge made them (a single vote gave intervals of zero width). A
    separated fit therefore reports no intervals and no standard errors
    (``nan``); its ratings are bounds, and ``notes`` says so.

    Examples
    --------
    >>> from core.pairwise import SAMPLE_VOTES, read_votes
    >>> votes = read_votes(SAMPLE_VOTES.read_bytes())
    >>> fit = fit_bradley_terry(votes, n_boot=100, seed=1)
    >>> fit.models[:3], fit.n_votes, round(float(fit.ratings.mean()), 6)
    (('synthetic-A', 'synthetic-B', 'synthetic-C'), 3000, 1000.0)
    """
    ties = check_ties(ties)
    n_boot = check_int("n_boot", n_boot, low=0, high=10_000)
    models, ca, cb, outcome, notes, n_self = _vote_codes(votes)
    k = len(models)
    if k < 2:
        raise ValueError("`votes` must compare at least 2 different models.")
    if k > _FIT_K_MAX:
        raise ValueError(f"`votes` compare {k:,} models; at most {_FIT_K_MAX:,} are supported.")
    pi, pj, w, l_, t = _aggregate(ca, cb, outcome, k)
    n_votes, n_ties = int(ca.size), int(t.sum())
    used = (w + l_ > 0) if ties == "drop" else np.ones(pi.size, dtype=bool)
    graph = coo_matrix((np.ones(int(used.sum())), (pi[used], pj[used])), shape=(k, k))
    n_groups, labels = connected_components(graph, directed=False)
    if n_groups > 1:
        groups = [[models[m] for m in np.flatnonzero(labels == g)] for g in range(n_groups)]
        shown = "; ".join(", ".join(g[:4]) + (" …" if len(g) > 4 else "") for g in groups[:4])
        hint = (" (with `ties`='drop', votes that are all ties carry no information; try 'split')"
                if ties == "drop" and not used.all() else "")
        raise ValueError(f"`votes` split the models into {n_groups} groups never compared with each other "
                         f"({shown}); their ratings are not comparable{hint}.")
    i, j = pi, pj  # pairs with only ties stay (no weight under "drop", but resampled by the bootstrap)
    beta, ridge, separated, y, n = _fit_counts(w[None], l_[None], t[None], i, j, k, ties)
    cov = _reported_covariance(beta, y, n, i, j, k, ties, ridge, t_counts=t[None], w_counts=w[None],
                               l_counts=l_[None])[0]
    beta = beta[0]
    if separated[0]:
        # the ridge, not the votes, sets how far apart the separated groups are: no honest interval exists, and the
        # bootstrap replicates separate too
        notes.append("Some model or group of models never loses (or never wins) against the rest: the maximum-"
                     "likelihood ratings are infinite. A tiny ridge penalty keeps them finite; read those ratings as "
                     "bounds.")
        notes.append("No 95% intervals or standard errors: with separated votes they measure the ridge penalty, not "
                     "the data. Collect votes until every model has both won and lost against the rest.")
        n_boot = 0
    ratings = _MEAN_RATING + beta * SCALE
    order = np.argsort(-ratings, kind="stable")
    names = [models[m] for m in order]
    index = pd.Index(names, name="model")
    se_logit = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    se = np.full(k, np.nan) if separated[0] else se_logit * SCALE

    def normal_intervals(why: str):
        notes.append(f"The 95% intervals are normal ones (rating ± 1.96 SE), not bootstrap percentiles: {why}")
        z = stats.norm.ppf(0.975)
        return ratings - z * se_logit * SCALE, ratings + z * se_logit * SCALE

    boot = None
    low = high = np.full(k, np.nan)
    if n_boot and n_boot * i.size > BOOT_WORK:
        affordable = BOOT_WORK // i.size
        if affordable >= _BOOT_MIN:
            notes.append(f"The bootstrap intervals use {affordable:,} replicates instead of {n_boot:,}: "
                         f"{i.size:,} compared pairs make each replicate costly.")
            n_boot = affordable
        else:
            n_boot = 0
            low, high = normal_intervals(f"{i.size:,} compared pairs make a bootstrap too costly.")
    if n_boot:
        rng = rng_of(seed)
        cells = np.concatenate([w, l_, t])
        probs = cells / cells.sum()
        total = int(cells.sum())
        m_pairs = i.size
        chunk = max(1, min(n_boot, 16_000_000 // max(8 * m_pairs + k, 1)))
        p_hat = special.expit(beta[i] - beta[j])
        hess_hat = _laplacian((n[0] * p_hat * (1.0 - p_hat))[None], i, j, k)[0] + ridge[0] * np.eye(k) + 1.0 / k
        try:
            factor = linalg.cho_factor(hess_hat)
        except np.linalg.LinAlgError:
            factor = None
        inc_t = _incidence(i, j, k).T.tocsr()
        draws = []
        for start in range(0, n_boot, chunk):
            size = min(chunk, n_boot - start)
            c = rng.multinomial(total, probs, size=size).astype(float)
            bw, bl, bt = c[:, :m_pairs], c[:, m_pairs:2 * m_pairs], c[:, 2 * m_pairs:]
            fitted = _fit_replicates(bw, bl, bt, i, j, k, ties, beta, factor, inc_t)
            if fitted is None:  # sparse votes at many models: most replicates separate and need exact refits
                draws = None
                break
            draws.append(fitted)
        if draws is None:
            n_boot = 0
            low, high = normal_intervals(f"with {k:,} models and these few votes most bootstrap replicates separate, "
                                         "and refitting them exactly would take minutes.")
        else:
            boot = _MEAN_RATING + np.concatenate(draws) * SCALE
            low, high = np.percentile(boot, [2.5, 97.5], axis=0)
            boot = pd.DataFrame(boot[:, order], columns=index)
    counts = pd.DataFrame({"a": i, "b": j, "wa": w, "wb": l_, "t": t})
    swap = ratings[counts["a"]] < ratings[counts["b"]]
    counts = pd.DataFrame({
        "model_a": [models[m] for m in np.where(swap, counts["b"], counts["a"])],
        "model_b": [models[m] for m in np.where(swap, counts["a"], counts["b"])],
        "wins_a": np.where(swap, counts["wb"], counts["wa"]).astype(np.int64),
        "wins_b": np.where(swap, counts["wa"], counts["wb"]).astype(np.int64),
        "ties": counts["t"].astype(np.int64),
    })
    counts["n"] = counts["wins_a"] + counts["wins_b"] + counts["ties"]
    rank = {name_: r for r, name_ in enumerate(names)}
    counts = counts.iloc[np.lexsort((counts["model_b"].map(rank), counts["model_a"].map(rank)))].reset_index(drop=True)
    won = np.zeros((k, k))
    played = np.zeros((k, k))
    half = 0.5 if ties == "split" else 0.0
    np.add.at(won, (i, j), w + half * t)
    np.add.at(won, (j, i), l_ + half * t)
    n_pair = w + l_ + (t if ties == "split" else 0.0)
    np.add.at(played, (i, j), n_pair)
    np.add.at(played, (j, i), n_pair)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(played > 0, won / played, np.nan)
    rates = rates[np.ix_(order, order)]
    win_rates = pd.DataFrame(rates, index=index, columns=pd.Index(names, name="opponent"))
    return BradleyTerryFit(
        ratings=pd.Series(ratings[order], index=index, name="rating"),
        ci_low=pd.Series(low[order], index=index, name="ci_low"),
        ci_high=pd.Series(high[order], index=index, name="ci_high"),
        se=pd.Series(se[order], index=index, name="se"),
        counts=counts, win_rates=win_rates, n_votes=n_votes, n_ties=n_ties, n_self_matches=int(n_self),
        models=tuple(names), ties=ties, n_boot=n_boot, separated=bool(separated[0]), notes=tuple(notes),
        bootstrap=boot,
    )

"""Per-system summaries of a score table, and the pair of systems a pilot or a power plan should look at."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = ["system_table", "default_pair", "TOP_SYSTEMS", "REFERENCE"]

#: How many of the best systems :func:`default_pair` looks among.
TOP_SYSTEMS = 5
#: Names of human reference translations in WMT files (``ref-A``, ``ref.B``, ``refB``, ``Human-B.0``): not
#: candidates of the default pair when two other systems remain.
REFERENCE = re.compile(r"^(ref|human)(?:[-_.]?[a-z0-9])?(?:\.\d+)?$", re.IGNORECASE)


def _check(scores) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame) or not {"system", "item", "score"} <= set(scores.columns):
        raise ValueError("`scores` must be a table with columns system, item, score (and rater), as "
                         "core.humaneval.read_scores returns.")
    if scores.empty:
        raise ValueError("`scores` has no rows.")
    return scores


def system_table(scores: pd.DataFrame) -> pd.DataFrame:
    """Per system: mean and SD of its judgments, segments, raters and judgments, best mean first.

    Parameters
    ----------
    scores : DataFrame
        :func:`core.humaneval.read_scores`'s table (``system``, ``item``, ``rater``, ``score``).

    Returns
    -------
    DataFrame
        Columns ``system``, ``mean``, ``sd`` (sample SD, n − 1; NaN for a single judgment), ``segments``
        (distinct items), ``raters`` (distinct raters; 0 when the file has none), ``judgments`` (rows with a score; rows without one,
        "not rated", are left out of every column); sorted by
        ``mean`` descending (higher is better for every protocol of :data:`core.humaneval.PROTOCOLS`), then by name.

    Examples
    --------
    >>> t = system_table(pd.DataFrame({"system": ["a", "a", "b"], "item": ["1", "2", "1"], "rater": [pd.NA] * 3,
    ...                                "score": [1.0, 3.0, 0.5]}))
    >>> t[["system", "mean", "judgments"]].values.tolist()
    [['a', 2.0, 2], ['b', 0.5, 1]]
    """
    scores = _check(scores)
    rated = pd.to_numeric(scores["score"], errors="coerce").notna()  # "not rated" rows are no judgments
    if not rated.any():
        raise ValueError("`scores` has no numeric score.")
    scores = scores.loc[rated]
    groups = scores.groupby("system", sort=False)
    raters = (scores.dropna(subset=["rater"]).groupby("system", sort=False)["rater"].nunique()
              if "rater" in scores.columns else pd.Series(dtype=int))
    table = pd.DataFrame({
        "mean": groups["score"].mean(),
        "sd": groups["score"].std(ddof=1),
        "segments": groups["item"].nunique(),
        "judgments": groups["score"].size(),
    })
    table["raters"] = raters.reindex(table.index).fillna(0).astype(int)
    table = table.rename_axis("system").reset_index()
    table["system"] = table["system"].astype(str)
    table = table.sort_values(["mean", "system"], ascending=[False, True], kind="mergesort").reset_index(drop=True)
    return table[["system", "mean", "sd", "segments", "raters", "judgments"]]


def default_pair(scores: pd.DataFrame) -> tuple[str, str, str]:
    """The two systems closest in mean among the best ones: the comparison a campaign most needs power for.

    Among the :data:`TOP_SYSTEMS` systems with the highest means (systems with at least two judgments; human
    references, :data:`REFERENCE`, left out when two other systems remain), the neighbours in rank with the
    smallest difference of means; ties go to the better-ranked pair. Systems are compared only with systems judged
    on common segments: a file holding several language pairs, years or campaigns (sets of systems linked by no
    segment) gives the closest neighbours among the top of each set.

    Returns
    -------
    (str, str, str)
        The better system, the other one, and the reason as a sentence.

    Raises
    ------
    ValueError
        When fewer than two systems have two judgments or more.
    """
    table = system_table(scores)
    table = table[table["judgments"] >= 2].reset_index(drop=True)
    if len(table) < 2:
        raise ValueError("`scores` needs at least two systems with two judgments or more to choose a pair.")
    # a system named with its language pair or year by the readers ("ref-A (en-de)") is still a reference
    table["ref"] = table["system"].str.strip().str.replace(_GROUP_SUFFIX, "", regex=True).str.match(REFERENCE)
    # only systems judged on a common segment are neighbours (a file may hold several language pairs or campaigns)
    rated = _rated_pairs(scores)
    table["set"] = table["system"].map(_segment_sets(rated))
    sets = table["set"].nunique()
    items = {str(k): set(v) for k, v in rated.groupby("system", sort=False)["item"]}
    best, left_out = None, []
    for _, group in table.groupby("set", sort=False):
        group, skipped = _without_references(group)
        left_out += skipped
        top = group.head(TOP_SYSTEMS)
        names, means = top["system"].tolist(), top["mean"].to_numpy(dtype=float)
        for k in range(len(top) - 1):
            if not items[names[k]] & items[names[k + 1]]:
                continue  # linked through other systems only (each judged on part of the segments)
            key = (float(means[k] - means[k + 1]), int(top.index[k]))  # ties go to the better-ranked pair
            if best is None or key < best[0]:
                best = (key, top, k, len(group))
    apart = best is None
    if apart:  # no two of the best systems share a segment: the closest neighbours of the whole file
        group, left_out = _without_references(table)
        top = group.head(TOP_SYSTEMS)
        best = (None, top, int(np.argmin(-np.diff(top["mean"].to_numpy(dtype=float)))), len(group))
    _, top, k, size = best
    a, b = str(top["system"].iloc[k]), str(top["system"].iloc[k + 1])
    ma, mb = float(top["mean"].iloc[k]), float(top["mean"].iloc[k + 1])
    among = f"{size} systems" if sets == 1 or apart else f"the {size} systems judged on their segments"
    skipped = f" (human references left out: {', '.join(left_out[:3])})" if left_out else ""
    reason = (f"{a} and {b} are the closest in mean among the top {len(top)} of {among}{skipped} ({ma:.3g} vs "
              f"{mb:.3g}, a difference of {ma - mb:.3g}): the hardest comparison to call.")
    if apart:
        reason += " No two of them were judged on a common segment: check which systems the file compares."
    elif sets > 1:
        reason += (f" The file holds {sets} sets of systems with no segment in common (language pairs, years or "
                   "campaigns): a pair is chosen within one.")
    return a, b, reason


def _without_references(group: pd.DataFrame) -> tuple[pd.DataFrame, list]:
    """The systems without the human references when two other systems remain, and the references left out."""
    refs = group["ref"].to_numpy(dtype=bool)
    if refs.any() and (~refs).sum() >= 2:
        return group[~refs], group["system"][refs].tolist()
    return group, []


def _rated_pairs(scores: pd.DataFrame) -> pd.DataFrame:
    """The (system, item) pairs with a score, once each."""
    return scores.loc[pd.to_numeric(scores["score"], errors="coerce").notna(), ["system", "item"]].drop_duplicates()


#: The readers' suffix naming a system's language pair or year (" (en-de)", " (en-de 2022)").
_GROUP_SUFFIX = r"\s\((?:[A-Za-z_]{2,12}-[A-Za-z_]{2,12}(?: \d{4})?|\d{4})\)$"


def _segment_sets(pairs: pd.DataFrame) -> dict:
    """System → the label of its set: systems linked, directly or through others, by a segment judged for both
    (``pairs``: :func:`_rated_pairs`)."""
    first = pairs.groupby("item", sort=False)["system"].transform("first")
    links = pd.DataFrame({"a": pairs["system"].to_numpy(), "b": first.to_numpy()}).drop_duplicates()
    parent = {s: s for s in pairs["system"].unique()}

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links.itertuples(index=False):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
    return {s: root(s) for s in parent}

"""Reference data shipped with the package (no network access at run time).

``data/squad2/`` holds the SQuAD 2.0 leaderboard data released with Card et
al. (2020) (dallascard/NLP-power-analysis, Apache-2.0; see
``data/LICENSE-card2020``): one row per submission (dev/test exact match, the
leaderboard's SOTA flag) and, for every pair ``i < j``, the dev-set difference
in correct answers (``dev_delta`` = correct_j - correct_i) and the number of
dev questions on which the two disagree (``dev_disagree``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pandas as pd

__all__ = ["SQUAD_DEV_SIZE", "SQUAD_TEST_SIZE", "squad_models", "squad_pairs"]

_DATA = Path(__file__).resolve().parent / "data"

#: SQuAD 2.0 development and (hidden) test set sizes (Rajpurkar et al. 2018).
SQUAD_DEV_SIZE = 11_873
SQUAD_TEST_SIZE = 8_862


@lru_cache(maxsize=1)
def _models() -> pd.DataFrame:
    models = pd.read_csv(_DATA / "squad2" / "models.tsv", sep="\t")
    models["date"] = pd.to_datetime(models["date"])
    models["description"] = models["description"].fillna("").astype(str)
    return models.set_index("index")


@lru_cache(maxsize=1)
def _pairs() -> pd.DataFrame:
    return pd.read_csv(_DATA / "squad2" / "pairs_dev.tsv", sep="\t").set_index(["i", "j"])


def squad_models() -> pd.DataFrame:
    """SQuAD 2.0 submissions (index: submission id in time order).

    Columns: ``date``, ``dev_em``, ``test_em`` (percent), ``sota`` (1 if the
    leaderboard listed it as state of the art when submitted), ``description``.
    """
    return _models().copy()


def squad_pairs() -> pd.DataFrame:
    """Pairwise dev-set statistics indexed by ``(i, j)`` with ``i < j``."""
    return _pairs().copy()

"""Human-evaluation benchmarks: a resampled campaign point and the REML fit."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core import humaneval as he


def campaign(segments=600, ratings=2, seed=0) -> pd.DataFrame:
    """DA-like judgments of two systems: whole-number scores, segment and rating noise, ``ratings`` per segment."""
    rng = np.random.default_rng(seed)
    frames = []
    for name, mean in (("A", 78.0), ("B", 75.0)):
        seg = rng.normal(0, 14, segments)
        scores = np.clip(np.round(mean + seg[:, None] + rng.normal(0, 25, (segments, ratings))), 0, 100)
        frames.append(pd.DataFrame({"system": name, "item": np.repeat(np.arange(segments), ratings),
                                    "rater": rng.integers(0, 40, segments * ratings), "score": scores.ravel()}))
    return pd.concat(frames, ignore_index=True)


def check_resampled(timed) -> bool:
    scores = campaign()
    seconds = timed(lambda: he.resampled_power(scores, ("A", "B"), 1200, procedure="interim_futility",
                                               n_sims=2000, seed=1), repeat=3)
    ok = seconds <= 2.0
    print(f"Resampled DA campaign point (2,000 × 1,200 judgments): {seconds:6.2f} s    (target ≤ 2 s) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


def check_reml(timed) -> bool:
    scores = campaign(segments=3000, ratings=3)
    seconds = timed(lambda: he.variance_components(scores), repeat=3)
    ok = seconds <= 2.0
    print(f"REML variance components (18,000 ratings, 40 raters): {seconds:6.2f} s    (target ≤ 2 s) "
          f"{'OK' if ok else 'MISSED'}")
    return ok


CHECKS = [check_resampled, check_reml]

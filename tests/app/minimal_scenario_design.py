"""A scenario reduced to its design: a paired comparison tested with the two-sided z test on per-item differences
of known SD. Everything the page shows comes from this class (fields, ``power``, ``sample_sizes``, ``curves``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from core.design import Design, spec
from core.results import PowerResult
from core.sizing import SampleSize


@dataclass(frozen=True)
class ZDesign(Design):
    delta: float = spec(0.3, low=-5.0, high=5.0, step=0.05, label="True difference", unit="score units", key="zd")
    n: int = spec(50, low=2, high=100_000, step=10, label="Items", unit="items", key="zn")
    sd: float = spec(1.0, low=0.0, high=100.0, low_open=True, step=0.1, label="SD of a difference",
                     unit="score units", key="zsd")
    alpha: float = spec(0.05, choices=(0.01, 0.05, 0.1), label="α (two-sided)", key="za")

    def power(self, n=None) -> PowerResult:
        """Two-sided z test: power = Φ(δ√n/σ − z) (the true direction); Type-M from the normal's tail moments."""
        n = self.n if n is None else int(n)
        s = self.sd / math.sqrt(n)
        c = stats.norm.ppf(1 - self.alpha / 2) * s
        d = self.delta
        up, down = stats.norm.sf((c - d) / s), stats.norm.cdf((-c - d) / s)
        right = up if d >= 0 else down
        reject = up + down
        if d == 0:
            return PowerResult(power=reject, type_s=math.nan, type_m=math.nan, rejection_rate=reject)
        # E|X| over the rejection region, X ~ N(d, s²)
        e_abs = (d * up + s * stats.norm.pdf((c - d) / s)) + (-d * down + s * stats.norm.pdf((-c - d) / s))
        return PowerResult(power=right, type_s=(reject - right) / reject, type_m=e_abs / reject / abs(d),
                           rejection_rate=reject)

    def sample_sizes(self, *, target_power=0.8) -> SampleSize:
        if self.delta == 0:
            return SampleSize(-1, -1)
        guess = ((stats.norm.ppf(1 - self.alpha / 2) + stats.norm.ppf(target_power)) * self.sd / self.delta) ** 2
        n = max(2, math.floor(guess) - 2)
        while self.power(n).power < target_power:
            n += 1
        return SampleSize(n, n)

    def curves(self, ns) -> pd.DataFrame:
        ns = np.asarray(ns, dtype=int)
        return pd.DataFrame({"n": ns, "power": [self.power(int(k)).power for k in ns]})

"""Result types shared by every scenario module."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["PowerResult"]


@dataclass(frozen=True)
class PowerResult:
    """Power, Type-S and Type-M error of one design (Card et al. 2020, Fig. 2 and App. B).

    Attributes
    ----------
    power : float
        P(significant AND observed effect has the sign of the true effect).
        When the true effect is zero this is the plain rejection rate (the
        false-positive rate), so null calibration can be read off directly.
    type_s : float
        P(observed sign is wrong | significant). ``nan`` when nothing can be
        significant or the true effect is zero.
    type_m : float
        E[|observed effect| | significant] / |true effect| (exaggeration ratio).
        ``nan`` when undefined.
    rejection_rate : float
        P(significant), whatever the sign.
    mc_se : float
        Monte Carlo standard error of ``power`` (0 for exact/analytic engines).
    type_s_se, type_m_se : float
        Monte Carlo standard errors of ``type_s`` and ``type_m`` (0 when exact).
    n_sims : int
        Number of simulated replicates (0 for exact/analytic engines).
    mean_significant : float
        E[observed effect | significant], signed (the dotted line of Card et
        al. Figure 1); ``nan`` when nothing can be significant.
    method : str
        Engine that produced the numbers.
    """

    power: float
    type_s: float
    type_m: float
    rejection_rate: float
    mc_se: float = 0.0
    type_s_se: float = 0.0
    type_m_se: float = 0.0
    n_sims: int = 0
    method: str = "exact"
    mean_significant: float = float("nan")

    @property
    def is_exact(self) -> bool:
        """True when the numbers carry no Monte Carlo error."""
        return self.n_sims == 0

    def as_dict(self) -> dict[str, float | int | str]:
        """Plain dictionary (for tables and CSV export)."""
        return {
            "power": self.power,
            "type_s": self.type_s,
            "type_m": self.type_m,
            "rejection_rate": self.rejection_rate,
            "mc_se": self.mc_se,
            "type_s_se": self.type_s_se,
            "type_m_se": self.type_m_se,
            "n_sims": self.n_sims,
            "method": self.method,
            "mean_significant": self.mean_significant,
        }


def nan_if_zero(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, or ``nan`` when the denominator is zero."""
    if denominator <= 0.0:
        return math.nan
    return numerator / denominator

"""The human-evaluation protocols of WMT: scales, default parameters with their sources, and suitable tests.

WMT's human evaluation moved from crowd Direct Assessment (DA; Graham et al. 2013; Akhbardeh et al. 2021) to
source-based DA with SQM labels (DA+SQM; Kocmi et al. 2022, WMT22 findings), to MQM error annotation by
professionals (Freitag et al. 2021) and Error Span Annotation (ESA; Kocmi et al. 2024). The DA campaign engine
(:mod:`core.sequential.campaign`) models judgments on DA's 0–100 scale as ``100 − Gamma`` clipped at 0 (Wei,
Kocmi & Federmann 2022, §6.1); :func:`to_campaign_scale` maps each protocol's scale onto it (a linear map, so
Mann–Whitney and t test results are unchanged).

Where the defaults come from (:data:`PROTOCOL_DEFAULTS`, ``source``):

* **DA** — SD 29.4 and the reducible (segment) share 23.1% of WMT21 crowd DA, *-en (Wei et al. 2022, Table 2);
  mean 75 (the DA page's default; Wei et al. fit the mean per language pair and do not print it).
* **DA+SQM** — no per-judgment statistics of WMT22 are in our sources; derived from the professional pSQM
  statistics closest to it (Freitag et al. 2021 as normalised to 0–100 in Wei et al. 2022, Table 2): SD 26.3
  (zh-en 26.1, en-de 26.5), segment share 31.6% (the mean of 9.8% and 53.4%); mean 75 as DA.
* **MQM** — computed from the MQM segment scores Freitag et al. (2021) released for newstest2020 en-de
  (google/wmt-mqm-human-evaluation, ``mqm_newstest2020_ende.avg_seg_scores.tsv``; the seven MT systems):
  mean −2.41, SD 2.53, 9.3% of segments at 0, the median difference between two MT systems 0.23. These are
  averages of three raters per segment, so single ratings spread more and sit at 0 more often. Weights:
  major 5, minor 1, minor punctuation 0.1, non-translation 25; a segment's score is at least −25.
* **ESA** — ESA scores are on DA's 0–100 scale (Kocmi et al. 2024); no published per-judgment statistics are
  in our sources, so the defaults are DA's, marked as derived. Fit last year's campaign instead.

Tests: Mann–Whitney U is WMT's test for DA and DA+SQM (Akhbardeh et al. 2021; Kocmi et al. 2022) and is used for
ESA. For MQM the **t test** (Welch/Student on the mean error penalty) is suggested: the MQM system score *is* the
mean penalty, and most of a strong system's segments tie at 0 (or at a few small penalties), where Mann–Whitney
spends its power on P(A > B) among few untied pairs and tests a different hypothesis than the difference of mean
penalties. Both are available: :func:`core.humaneval.resampled_power` uses the tie-corrected Mann–Whitney
(mid-ranks) and the t test on the real scores, so the page can show which has more power on last year's data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..validation import check_choice

__all__ = ["Protocol", "PROTOCOL_DEFAULTS", "protocol_table", "to_campaign_scale", "from_campaign_scale"]


@dataclass(frozen=True)
class Protocol:
    """One human-evaluation protocol.

    Attributes
    ----------
    name, label : str
        Key (as :func:`core.humaneval.read_scores` sets ``attrs["protocol"]``) and display name.
    low, high : float
        The scale's range (MQM: −25 … 0).
    best : float
        The best possible score (the ceiling where scores pile up: 100, or MQM's 0).
    slope, offset : float
        The map onto the campaign engine's 0–100 scale: ``offset + slope · score``.
    mean, sd : float
        Default mean and SD of single judgments on the protocol's scale.
    delta : float
        A typical difference between two systems on the protocol's scale.
    segment_share : float or None
        Share of the judgment variance due to segments (true quality), the rest rating noise (None: unknown).
    test : {"mwu", "t"}
        The suggested test; ``test_reason`` says why.
    source : str
        Where the defaults come from (``derived`` says when they are not the protocol's own published numbers).
    derived : bool
    """

    name: str
    label: str
    low: float
    high: float
    best: float
    slope: float
    offset: float
    mean: float
    sd: float
    delta: float
    segment_share: float | None
    test: str
    test_reason: str
    source: str
    derived: bool

    def campaign_options(self) -> dict:
        """``mean``, ``sd`` and ``test`` for :class:`core.sequential.CampaignDesign` on the 0–100 scale."""
        return {"mean": float(self.offset + self.slope * self.mean), "sd": float(abs(self.slope) * self.sd),
                "test": self.test}


_MWU = ("Mann–Whitney U: WMT's test for DA-style 0–100 scores (Akhbardeh et al. 2021; Kocmi et al. 2022); "
        "robust to the pile-up at 100 and to skew, with mid-ranks for ties.")

#: The protocols, keyed as ``read_scores`` names them (``"scores"``: any other numeric score, no defaults).
PROTOCOL_DEFAULTS = {
    "da": Protocol("da", "Direct Assessment (DA, 0–100)", 0.0, 100.0, 100.0, 1.0, 0.0, 75.0, 29.4, 2.0, 0.231, "mwu",
                   _MWU, "SD and segment share: WMT21 crowd DA *-en (Wei, Kocmi & Federmann 2022, Table 2); mean 75 "
                   "and Δ = 2 from the DA page (Wei et al. Table 1: median differences 0.5–3.2)", False),
    "da-sqm": Protocol("da-sqm", "DA+SQM (WMT22, 0–100)", 0.0, 100.0, 100.0, 1.0, 0.0, 75.0, 26.3, 2.0, 0.316, "mwu",
                       _MWU, "derived: pSQM professional scores (Freitag et al. 2021) normalised to 0–100 in Wei et "
                       "al. 2022, Table 2 (SD 26.1–26.5, segment share 9.8–53.4%); the WMT22 protocol itself is "
                       "Kocmi et al. 2022", True),
    "sqm": Protocol("sqm", "SQM (0–6)", 0.0, 6.0, 6.0, 100.0 / 6.0, 0.0, 4.5, 26.3 * 6 / 100, 0.12, 0.316, "mwu",
                    _MWU, "derived: pSQM (Freitag et al. 2021) as normalised to 0–100 in Wei et al. 2022, Table 2, "
                    "mapped back to 0–6", True),
    "esa": Protocol("esa", "Error Span Annotation (ESA, 0–100)", 0.0, 100.0, 100.0, 1.0, 0.0, 75.0, 29.4, 2.0, None,
                    "mwu", _MWU, "derived: ESA is scored on DA's 0–100 scale (Kocmi et al. 2024); no published "
                    "per-judgment statistics in our sources, so DA's defaults — fit last year's campaign", True),
    "mqm": Protocol("mqm", "MQM (≤ 0, error-weighted)", -25.0, 0.0, 0.0, 4.0, 100.0, -2.41, 2.53, 0.23, None, "t",
                    "t test: the MQM system score is the mean error penalty, and with many segments tied at 0 the "
                    "Mann–Whitney test weighs few untied pairs and tests P(A > B) = ½, not equal mean penalties "
                    "(resampled power shows both)",
                    "computed from Freitag et al. (2021)'s released newstest2020 en-de MQM segment scores (seven MT "
                    "systems; averages of 3 raters): mean −2.41, SD 2.53, 9.3% at 0, median pair difference 0.23",
                    False),
    "scores": Protocol("scores", "Other numeric scores", np.nan, np.nan, np.nan, 1.0, 0.0, np.nan, np.nan, np.nan,
                       None, "mwu", _MWU, "no defaults: fitted from the file (mapped to 0–100 by its range)", True),
}


def protocol_table() -> pd.DataFrame:
    """The protocols side by side: ``protocol, label, scale, best, mean, sd, delta, segment_share, test,
    test_reason, source, derived`` (the page's protocol table)."""
    rows = []
    for p in PROTOCOL_DEFAULTS.values():
        scale = "—" if not np.isfinite(p.low) else f"{p.low:g} … {p.high:g}"
        rows.append({"protocol": p.name, "label": p.label, "scale": scale, "best": p.best, "mean": p.mean,
                     "sd": p.sd, "delta": p.delta, "segment_share": p.segment_share, "test": p.test,
                     "test_reason": p.test_reason, "source": p.source, "derived": p.derived})
    return pd.DataFrame(rows)


def _map(protocol, low, high):
    protocol = check_choice("protocol", protocol, tuple(PROTOCOL_DEFAULTS))
    p = PROTOCOL_DEFAULTS[protocol]
    if protocol == "scores":
        if low is None or high is None or not np.isfinite(low) or not np.isfinite(high) or high <= low:
            raise ValueError("`protocol` 'scores' needs the observed range (`low` < `high`) to map onto 0–100.")
        return 100.0 / (high - low), -100.0 * low / (high - low)
    return p.slope, p.offset


def to_campaign_scale(x, protocol, *, low=None, high=None):
    """Scores (or means) of ``protocol`` on the campaign engine's 0–100 scale: ``offset + slope · x``.

    Differences and SDs scale by ``|slope|`` only (use ``x`` as a difference with ``low``/``high`` unchanged and
    subtract the map of 0). For ``"scores"`` the observed range [``low``, ``high``] maps onto [0, 100].

    Examples
    --------
    >>> float(to_campaign_scale(-2.41, "mqm")), float(to_campaign_scale(3.0, "sqm"))
    (90.36, 50.0)
    """
    slope, offset = _map(protocol, low, high)
    return offset + slope * np.asarray(x, dtype=float)


def from_campaign_scale(y, protocol, *, low=None, high=None):
    """Inverse of :func:`to_campaign_scale`."""
    slope, offset = _map(protocol, low, high)
    return (np.asarray(y, dtype=float) - offset) / slope

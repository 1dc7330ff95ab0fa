"""Fit a human-evaluation campaign: scale, spread, ceiling, variance components and the systems' differences.

:func:`fit_campaign` summarises last year's judgments (the long table of :func:`core.humaneval.read_scores`)
for planning the next campaign: on the protocol's own scale the mean and SD of single judgments, the shares at
the scale's best and worst scores, the variance components of crossed segments × raters (REML), every system's
mean and all pairwise differences of system means (the population of pairs over which Wei, Kocmi & Federmann
2022, §7.3, average the budget savings), and :meth:`CampaignFit.design` → :class:`core.sequential.CampaignDesign`.

Variance components
-------------------
The model of a judgment of segment i of system s by rater j is

    y = μ_s + u_si + v_j + e,   u ~ N(0, σ²_seg), v ~ N(0, σ²_rater), e ~ N(0, σ²_res),

segments (a system's translation of one source item) crossed with raters. REML maximises the restricted
likelihood; with γ_k = σ²_k / σ²_res, H = I + Σ_k γ_k Z_k Z_k' and p fixed effects, the profiled criterion is

    −2 ℓ_R(γ) = (n − p) log(y'P y / (n − p)) + log|C(γ)| + Σ_k q_k log γ_k + const,

where C is the coefficient matrix of Henderson's mixed-model equations [[X'X, X'Z], [Z'X, Z'Z + diag(1/γ)]]
and y'Py = y'y − b'(X, Z)'y at their solution b (Harville 1977, §4–5; Searle, Casella & McCulloch 1992,
§6.6 and §7.6). Each rating belongs to one segment, so the segments' block of C is diagonal and is absorbed
(Schur complement); the dense system left is as small as the systems plus the raters, so a campaign of tens of
thousands of ratings fits in about a second. statsmodels' ``MixedLM`` with one group and ``vc_formula`` maximises the same
criterion (the tests compare the two), but builds dense matrices per group: 15 s for 1,200 ratings and 140 s
for 3,000 on the 2-core test machine, too slow for a page. When the optimiser fails the components fall back to
moment (ANOVA-type) estimates, with a note: on unbalanced crossed designs they can differ from REML severalfold.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, sparse

from ..validation import rng_of
from .protocols import PROTOCOL_DEFAULTS, to_campaign_scale
from .resample import check_ids

__all__ = ["VarianceComponents", "variance_components", "CampaignFit", "fit_campaign", "MAX_FIT_RATINGS",
           "MAX_STATSMODELS_RATINGS"]

#: Most ratings the REML fit uses; larger campaigns are fitted on a seeded random subset of whole segments.
MAX_FIT_RATINGS = 60_000
#: Most ratings for ``method="statsmodels"`` (15 s for 1,200 ratings on the 2-core test machine).
MAX_STATSMODELS_RATINGS = 2_000
#: Most raters in the REML fit (its dense part grows with their square); more fall back to moments with a note.
MAX_REML_RATERS = 1500


@dataclass(frozen=True)
class VarianceComponents:
    """Variance components of single judgments (:func:`variance_components`).

    Attributes
    ----------
    segment, rater, residual : float
        σ²_seg (a system's segments: true quality), σ²_rater (rater leniency), σ²_res (the rest). ``nan`` where
        the data cannot identify a component (no repeated ratings of a segment: segment and residual are
        confounded; no rater ids: the rater variance is part of the residual).
    method : {"reml", "moments", "none"}
    n_ratings, n_segments, n_raters : int
    ratings_per_segment : float
        Mean ratings per segment.
    notes : tuple of str
    """

    segment: float
    rater: float
    residual: float
    method: str
    n_ratings: int
    n_segments: int
    n_raters: int
    ratings_per_segment: float
    notes: tuple = ()

    @property
    def rating_noise(self) -> float:
        """σ²_rater + σ²_res: the variance of a new rating of a segment by a new rater (``nan`` if unknown)."""
        rater = 0.0 if math.isnan(self.rater) else self.rater
        return self.residual + rater if not math.isnan(self.residual) else math.nan


def _codes(values) -> tuple[np.ndarray, int]:
    uniq, inverse = np.unique(np.asarray(values).astype(str), return_inverse=True)
    return inverse, uniq.size


def _indicator(codes, levels) -> sparse.csr_matrix:
    n = codes.size
    return sparse.csr_matrix((np.ones(n), (np.arange(n), codes)), shape=(n, levels))


def _reml(y, X, blocks):
    """REML variance components for ``y = Xβ + Σ Z_k u_k + e``; returns (components, residual, ok).

    Every block is an indicator (each rating in exactly one level), so the first block's Z'Z is diagonal and is
    absorbed (its Schur complement): what is left to factorise is dense and as small as the fixed effects plus
    the other blocks' levels (e.g. the raters), however many segments there are.
    """
    n, p = X.shape
    absorbed, others = blocks[0], blocks[1:]
    M = sparse.hstack([sparse.csr_matrix(X)] + list(others), format="csr")
    other_sizes = [b.shape[1] for b in others]
    A0 = (M.T @ M).toarray()
    B = (M.T @ absorbed).toarray()
    counts = np.asarray(absorbed.sum(axis=0)).ravel()
    c1, c2 = M.T @ y, absorbed.T @ y
    yty = float(y @ y)
    sizes = [absorbed.shape[1]] + other_sizes
    # the absorbed levels enter only through 1/(count + 1/γ): sums over the levels with the same count are
    # computed once (a handful of classes: ratings per segment), so each evaluation costs O(classes · m²)
    classes, inverse = np.unique(counts, return_inverse=True)
    per_class = [inverse == c for c in range(classes.size)]
    grams = [B[:, k] @ B[:, k].T for k in per_class]
    cross = [B[:, k] @ c2[k] for k in per_class]
    squares = [float(c2[k] @ c2[k]) for k in per_class]
    members = np.array([k.sum() for k in per_class], dtype=float)
    diagonal = np.arange(p, A0.shape[0])

    def criterion(log_gamma):
        gamma = np.exp(log_gamma)
        weights = 1.0 / (classes + 1.0 / gamma[0])
        S = A0.copy()
        if others:
            S[diagonal, diagonal] += np.concatenate([np.full(s_, 1.0 / g) for s_, g in zip(other_sizes, gamma[1:])])
        rhs = c1.copy()
        for w, gram, h in zip(weights, grams, cross):
            S -= w * gram
            rhs -= w * h
        try:
            factor = np.linalg.cholesky(S)
        except np.linalg.LinAlgError:
            return np.inf, None
        b1 = np.linalg.solve(factor.T, np.linalg.solve(factor, rhs))
        # u = D⁻¹(c2 − B'b1), so u'c2 = Σ_classes w (c2'c2 − b1'B c2)
        ypy = yty - float(b1 @ c1) - sum(w * (sq - float(b1 @ h)) for w, sq, h in zip(weights, squares, cross))
        if not ypy > 0:
            return np.inf, None
        logdet = -float(members @ np.log(weights)) + 2.0 * float(np.log(np.diag(factor)).sum())
        value = (n - p) * math.log(ypy / (n - p)) + logdet + float(np.dot(sizes, log_gamma))
        return value, ypy / (n - p)

    start = np.zeros(len(blocks)) - 1.0
    bounds = [(-18.0, 10.0)] * len(blocks)
    best = None
    for x0 in (start, start - 3.0, start + 2.0):
        res = optimize.minimize(lambda v: criterion(v)[0], x0, method="L-BFGS-B", bounds=bounds,
                                options={"ftol": 1e-14, "gtol": 1e-10})
        if np.isfinite(res.fun) and (best is None or res.fun < best.fun):
            best = res
    if best is None:
        return None, None, False
    value, residual = criterion(best.x)
    if residual is None:
        return None, None, False
    gammas = np.exp(best.x)
    gammas[best.x <= -17.5] = 0.0  # at the bound: the component is zero
    return gammas * residual, residual, True


def _moments(y, system, segment, rater):
    """ANOVA-type estimates: one-way between/within segments (unbalanced), rater means of the within residuals."""
    frame = pd.DataFrame({"y": y, "system": system, "segment": segment})
    frame["y"] = frame["y"] - frame.groupby("system")["y"].transform("mean")
    grouped = frame.groupby("segment")["y"]
    counts = grouped.transform("size").to_numpy()
    seg_mean = grouped.transform("mean").to_numpy()
    n, s = len(frame), frame["segment"].nunique()
    k = frame["system"].nunique()
    within_df = n - s
    within = float(((frame["y"].to_numpy() - seg_mean) ** 2).sum() / within_df) if within_df > 0 else math.nan
    per = grouped.size().to_numpy()
    means = grouped.mean().to_numpy()
    msb = float((per * means**2).sum() / max(s - k, 1))
    r0 = (n - (per**2).sum() / n) / max(s - 1, 1)
    segment_var = max(0.0, (msb - within) / r0) if math.isfinite(within) else math.nan
    rater_var = math.nan
    if rater is not None and math.isfinite(within):
        resid = frame["y"].to_numpy() - seg_mean
        # e_ij = y_ij − ȳ_i scaled by √(c_i/(c_i − 1)) has variance σ²_r + σ²_e ("within"). A rater's mean of them
        # over m ratings keeps only √((c − 1)/c) of its own effect (ȳ_i holds 1/c of it), so
        # E[var of rater means] − within·E[1/m] = σ²_r·E[(1 − 1/c)(1 − 1/m)] (raters distinct within a segment,
        # co-raters varying across segments): divided by that factor the estimate is unbiased; without it, it was
        # half the truth at two ratings per segment.
        shrink = 1.0 - 1.0 / np.maximum(counts, 2)
        rframe = pd.DataFrame({"e": resid * np.sqrt(counts / np.maximum(counts - 1, 1)), "rater": rater,
                               "shrink": shrink})
        stats_ = rframe.groupby("rater").agg(mean=("e", "mean"), size=("e", "size"), shrink=("shrink", "mean"))
        stats_ = stats_[stats_["size"] >= 2]
        if len(stats_) >= 2:
            factor = float(np.mean(stats_["shrink"] * (1.0 - 1.0 / stats_["size"])))
            excess = float(stats_["mean"].var(ddof=1) - within * np.mean(1.0 / stats_["size"]))
            rater_var = max(0.0, excess / factor) if factor > 0 else math.nan
    residual = within - (0.0 if math.isnan(rater_var) else rater_var) if math.isfinite(within) else math.nan
    return segment_var, rater_var, max(residual, 0.0) if math.isfinite(residual) else math.nan


def variance_components(scores, *, method="reml", max_ratings=MAX_FIT_RATINGS, seed=0) -> VarianceComponents:
    """Segment, rater and residual variance of single judgments (crossed segments × raters).

    Parameters
    ----------
    scores : pandas.DataFrame
        Long table: ``system``, ``item`` (segment id), ``rater`` (NA where unknown), ``score``.
    method : {"reml", "statsmodels", "moments"}
        REML (the module's mixed-model equations; falls back to moments with a note if it fails), the same
        criterion maximised by statsmodels' ``MixedLM`` (one group, ``vc_formula``; at most
        :data:`MAX_STATSMODELS_RATINGS` ratings: it builds dense matrices), or the moment estimates only.
    max_ratings : int
        Larger tables are fitted on a seeded random subset of whole segments of this size, with a note.
    seed : int

    Returns
    -------
    VarianceComponents

    References
    ----------
    Harville (1977), JASA 72:320–338; Searle, Casella & McCulloch (1992), *Variance Components*, §6.6, §7.6;
    Wei, Kocmi & Federmann (2022), §6.2 (annotator vs quality variance of DA).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> seg = np.repeat(np.arange(300), 3)
    >>> y = 70 + rng.normal(0, 10, 300)[seg] + rng.normal(0, 20, 900)
    >>> vc = variance_components(pd.DataFrame({"system": "A", "item": seg, "rater": pd.NA, "score": y}))
    >>> vc.method, 60 < vc.segment < 160, 340 < vc.residual < 460
    ('reml', True, True)
    """
    if method not in ("reml", "statsmodels", "moments"):
        raise ValueError(f"`method` must be 'reml', 'statsmodels' or 'moments', got {method!r}.")
    check_ids(scores)  # the readers' tables never fail it; a table built by hand can
    data = scores.loc[pd.to_numeric(scores["score"], errors="coerce").notna()].copy()
    data["score"] = pd.to_numeric(data["score"], errors="coerce").astype(float)
    if len(data) < 3:
        raise ValueError("`scores` needs at least 3 numeric judgments to estimate variance components.")
    notes = []
    data["segment"] = data["system"].astype(str) + "\x1f" + data["item"].astype(str)
    if len(data) > max_ratings:
        rng = rng_of(seed)
        segs = data["segment"].unique()
        mean_count = len(data) / segs.size
        keep = rng.choice(segs, size=max(2, int(max_ratings / mean_count)), replace=False)
        data = data[data["segment"].isin(set(keep))]
        notes.append(f"Fitted on a random {len(data):,} of the ratings (whole segments) to keep the fit fast.")
    has_rater = "rater" in data.columns and data["rater"].notna().any()
    if has_rater and data["rater"].isna().any():
        unnamed = int(data["rater"].isna().sum())
        if unnamed > len(data) / 2:
            # most ratings name no rater: fitting the few that do would throw most of the data away
            notes.append(f"{unnamed:,} of {len(data):,} ratings name no rater: all were fitted without rater ids.")
            has_rater = False
        else:
            notes.append(f"{unnamed:,} of {len(data):,} ratings name no rater and were left out of the fit.")
            data = data[data["rater"].notna()]
    y = data["score"].to_numpy(float)
    seg_codes, n_segments = _codes(data["segment"])
    counts = np.bincount(seg_codes)
    repeated = bool((counts >= 2).any())
    rater_codes, n_raters = _codes(data["rater"]) if has_rater else (None, 0)
    rater_ok = has_rater and n_raters >= 2 and n_raters < len(data)
    if not repeated:
        notes.append("Each segment was rated once: segment and rating noise cannot be told apart (the segment "
                     "component is unknown; ratings per segment need repeated ratings of some segments).")
    if has_rater and not rater_ok:
        notes.append("Too few raters (or one rating each) to estimate a rater component.")
    if not has_rater:
        notes.append("No rater ids: rater leniency is part of the residual.")
    sys_codes, n_sys = _codes(data["system"])
    X = np.ones((len(y), 1)) if n_sys == 1 else np.column_stack([np.ones(len(y)),
                                                                   np.eye(n_sys)[sys_codes][:, 1:]])
    blocks, names = [], []
    if repeated:
        blocks.append(_indicator(seg_codes, n_segments))
        names.append("segment")
    if rater_ok:
        blocks.append(_indicator(rater_codes, n_raters))
        names.append("rater")
    comps = {"segment": math.nan, "rater": math.nan}
    residual = math.nan
    used = "none"
    if not blocks:
        residual = float(np.var(y - (X @ np.linalg.lstsq(X, y, rcond=None)[0]), ddof=X.shape[1]))
        used = "moments"
    elif method == "reml" and rater_ok and n_raters > MAX_REML_RATERS:
        notes.append(f"{n_raters:,} raters are too many for the REML fit (at most {MAX_REML_RATERS:,}); moment "
                     "estimates instead.")
    elif method == "statsmodels":
        if len(y) > MAX_STATSMODELS_RATINGS:
            raise ValueError(f"`method` 'statsmodels' fits at most {MAX_STATSMODELS_RATINGS:,} ratings (dense "
                             f"matrices), got {len(y):,}; use 'reml' (the same criterion).")
        import statsmodels.api as sm

        frame = pd.DataFrame({"y": y, "system": sys_codes, "segment": seg_codes})
        vc = {"segment": "0 + C(segment)"} if repeated else {}
        if rater_ok:
            frame["rater"] = rater_codes
            vc["rater"] = "0 + C(rater)"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = sm.MixedLM.from_formula("y ~ C(system)" if n_sys > 1 else "y ~ 1",
                                                groups=np.ones(len(frame)), re_formula="0", vc_formula=vc, data=frame)
                fitted = model.fit(reml=True)
            comps.update({k: float(v) for k, v in zip(model.exog_vc.names, fitted.vcomp)})
            residual, used = float(fitted.scale), "reml"
        except (np.linalg.LinAlgError, ValueError) as err:
            notes.append(f"statsmodels' REML failed ({str(err)[:80]}); moment estimates instead.")
    elif method == "reml":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values, res_var, ok = _reml(y, X, blocks)
        if ok:
            comps.update(dict(zip(names, (float(v) for v in values))))
            residual, used = float(res_var), "reml"
        else:
            notes.append("REML did not converge; moment estimates instead (they can differ from REML severalfold "
                         "on unbalanced crossed designs).")
    if used == "none":
        seg_m, rater_m, res_m = _moments(y, data["system"].to_numpy(), data["segment"].to_numpy(),
                                         data["rater"].to_numpy() if rater_ok else None)
        comps = {"segment": seg_m if repeated else math.nan, "rater": rater_m if rater_ok else math.nan}
        residual, used = res_m, "moments"
    return VarianceComponents(segment=comps["segment"], rater=comps["rater"], residual=residual, method=used,
                              n_ratings=int(len(y)), n_segments=int(n_segments), n_raters=int(n_raters),
                              ratings_per_segment=float(len(y) / n_segments), notes=tuple(notes))


@dataclass(frozen=True)
class CampaignFit:
    """A fitted campaign (:func:`fit_campaign`), on the protocol's scale.

    Attributes
    ----------
    protocol : str
        As ``scores.attrs["protocol"]`` (:data:`core.humaneval.PROTOCOL_DEFAULTS`).
    systems : tuple of str
        The systems fitted.
    n_judgments : int
    mean, sd : float
        Mean and SD of single judgments (pooled over the systems, each centred on its own mean for the SD:
        the within-system spread that the tests see).
    ceiling_share, floor_share : float
        Shares of judgments at the scale's best score (DA/ESA/DA+SQM: ≥ 99.5; MQM: 0) and worst (≤ 0.5; MQM:
        −25); for plain ``"scores"`` at the observed maximum and minimum.
    components : VarianceComponents
    system_means : tuple of (str, float, int)
        Each system's mean judgment and number of judgments, best first.
    differences : tuple of float
        |mean_i − mean_j| for every pair of systems (the population of pairs, Wei et al. 2022, §7.3).
    delta : float
        The chosen pair's difference (A − B; two systems given) or the median of ``differences``.
    low, high : float
        Observed range (used to map plain scores onto 0–100).
    notes : tuple of str
        When the two systems given share no segment, the first note says so.
    shared_segments : int or None
        Segments judged for both systems when two are given (0: another language pair, year or campaign); None
        otherwise.
    """

    protocol: str
    systems: tuple
    n_judgments: int
    mean: float
    sd: float
    ceiling_share: float
    floor_share: float
    components: VarianceComponents
    system_means: tuple
    differences: tuple
    delta: float
    low: float
    high: float
    notes: tuple = field(default=())
    shared_segments: int | None = None

    def to_campaign(self, x):
        """Values of this protocol on the campaign engine's 0–100 scale (:func:`to_campaign_scale`)."""
        return to_campaign_scale(x, self.protocol, low=self.low, high=self.high)

    def campaign_scale(self) -> float:
        """Factor from the protocol's differences and SDs to the 0–100 campaign scale."""
        return float(self.to_campaign(1.0) - self.to_campaign(0.0))

    def population(self) -> np.ndarray:
        """The pairwise differences on the 0–100 campaign scale (for ``population_curves``/``budget_savings``)."""
        return np.abs(np.asarray(self.differences, dtype=float) * self.campaign_scale())

    def design(self, procedure, **options):
        """A :class:`core.sequential.CampaignDesign` for ``procedure`` with this campaign's mean, SD, test and
        difference on the 0–100 scale; ``options`` (``delta`` on the 0–100 scale, ``peeks``, ``boundary``,
        ``futility_p``, ``alpha``, ``test``, ``mean``, ``sd``) override them. The mean and SD are clipped to the
        score model's ranges ([1, 99] and [1, 60]) and the difference to keep both means inside (0.5, 99.5) and
        within ±50 (the campaign engine's range)."""
        from ..sequential import CampaignDesign

        scale = abs(self.campaign_scale())
        mean = float(np.clip(self.to_campaign(self.mean), 1.0, 99.0))
        sd = float(np.clip(self.sd * scale, 1.0, 60.0))
        values = {"mean": round(mean, 3), "sd": round(sd, 3), "test": PROTOCOL_DEFAULTS[self.protocol].test,
                  "delta": float(self.delta * self.campaign_scale())}
        values.update(options)
        # the difference keeps both means inside (0.5, 99.5) and within the campaign engine's range (two systems
        # 74 points apart on the 0–100 scale are compared, not sized: ±50 is the most the engine plans for)
        field = CampaignDesign.field("delta")
        room = min(2 * min(values["mean"] - 0.5, 99.5 - values["mean"]) - 1e-6, field.high, -field.low)
        values["delta"] = float(np.clip(values["delta"], -room, room))
        return CampaignDesign(procedure, **values)


#: The DA campaign page's slider ranges and steps for the campaign's mean, SD and |difference| (0–100 scale).
SLIDER_RANGES = {"mean": (50.0, 95.0, 0.5), "sd": (10.0, 40.0, 0.5), "delta": (0.0, 10.0, 0.1)}


def slider_values(design) -> dict:
    """A campaign design's mean, SD, |difference| (0–100 scale) and test as the DA page's sliders take them:
    rounded to their steps and clipped to their ranges (:data:`SLIDER_RANGES`), for its "use the fitted values"
    button and for links from the home page.

    Examples
    --------
    >>> from core.sequential import CampaignDesign
    >>> slider_values(CampaignDesign("fixed", delta=2.04, mean=97.3, sd=6.2))
    {'mean': 95.0, 'sd': 10.0, 'delta': 2.0, 'test': 'mwu'}
    """
    out = {}
    for key, value in (("mean", design.mean), ("sd", design.sd), ("delta", abs(design.delta))):
        low, high, step = SLIDER_RANGES[key]
        out[key] = float(np.clip(round(round(value / step) * step, 6), low, high))
    out["test"] = design.test
    return out


def _best_worst(protocol, values):
    if protocol == "mqm":
        return float(np.mean(values >= -1e-9)), float(np.mean(values <= -25 + 1e-9))
    if protocol == "scores":
        return float(np.mean(values >= values.max())), float(np.mean(values <= values.min()))
    p = PROTOCOL_DEFAULTS[protocol]
    return float(np.mean(values >= p.high - 0.5)), float(np.mean(values <= p.low + 0.5))


def fit_campaign(scores, systems=None, *, method="reml", seed=0) -> CampaignFit:
    """Fit last year's campaign for planning the next one.

    Parameters
    ----------
    scores : pandas.DataFrame
        Long table of judgments (:func:`core.humaneval.read_scores`): ``system``, ``item``, ``rater``, ``score``;
        ``attrs["protocol"]`` names the protocol (default ``"scores"``).
    systems : sequence of str, optional
        Systems to fit (all by default). With two, ``delta`` is their difference (first − second).
    method : {"reml", "moments"}
        Variance components (:func:`variance_components`).
    seed : int
        For the subset of very large campaigns.

    Returns
    -------
    CampaignFit

    References
    ----------
    Wei, Kocmi & Federmann (2022), §6.1 (mean and SD of the score model), §6.2 (variance decomposition), §7.3
    (the population of pairwise differences).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"system": list("AAAABBBB"), "item": [1, 2, 3, 4] * 2, "rater": pd.NA,
    ...                        "score": [100, 90, 80, 70, 60, 70, 80, 90]})
    >>> scores.attrs["protocol"] = "da"
    >>> fit = fit_campaign(scores, ["A", "B"])
    >>> fit.delta, fit.ceiling_share, fit.design("fixed").delta
    (10.0, 0.125, 10.0)
    """
    if not isinstance(scores, pd.DataFrame) or not {"system", "item", "score"} <= set(scores.columns):
        raise ValueError("`scores` must be a long table with columns `system`, `item` and `score` "
                         "(core.humaneval.read_scores).")
    protocol = scores.attrs.get("protocol", "scores")
    if protocol not in PROTOCOL_DEFAULTS:
        raise ValueError(f"`scores.attrs['protocol']` must be one of "
                         f"{', '.join(map(repr, PROTOCOL_DEFAULTS))}, got {protocol!r}.")
    data = scores.assign(score=pd.to_numeric(scores["score"], errors="coerce")).dropna(subset=["score"])
    data = data.assign(system=data["system"].astype(str))
    if "rater" not in data.columns:
        data = data.assign(rater=pd.NA)
    present = list(dict.fromkeys(data["system"]))
    if systems is None:
        chosen = present
    else:
        chosen = [str(s) for s in systems]
        missing = [s for s in chosen if s not in set(present)]
        if missing or not chosen:
            raise ValueError(f"`systems`: no scores for {', '.join(repr(s[:80]) for s in missing) or 'no system'}.")
        if len(set(chosen)) != len(chosen):
            raise ValueError("`systems` must not repeat a system.")
        data = data[data["system"].isin(set(chosen))]
    if len(data) < 3:
        raise ValueError("`scores` needs at least 3 numeric judgments.")
    values = data["score"].to_numpy(float)
    means = data.groupby("system", sort=False)["score"].agg(["mean", "size"])
    centred = values - data.groupby("system")["score"].transform("mean").to_numpy()
    sd = float(np.sqrt((centred**2).sum() / max(len(values) - len(means), 1)))
    ceiling, floor = _best_worst(protocol, values)
    components = variance_components(data, method=method, seed=seed)
    m = means["mean"].to_numpy()
    diffs = np.abs(np.subtract.outer(m, m))[np.triu_indices(m.size, 1)]
    if len(chosen) == 2:
        delta = float(means.loc[chosen[0], "mean"] - means.loc[chosen[1], "mean"])
    else:
        delta = float(np.median(diffs)) if diffs.size else 0.0
    order = means.sort_values("mean", ascending=False)  # best first (higher is better on every protocol)
    system_means = tuple((str(name), float(row["mean"]), int(row["size"])) for name, row in order.iterrows())
    notes = list(components.notes)
    items = [set(data.loc[data["system"] == s, "item"]) for s in chosen] if systems is not None and len(chosen) == 2 \
        else None
    shared = len(items[0] & items[1]) if items else None
    if shared == 0:  # first: the pair itself is in question (another language pair, year or campaign)
        notes.insert(0, f"{chosen[0][:80]} and {chosen[1][:80]} were judged on no common segment (another language "
                     "pair, year or campaign?): their difference mixes two test sets. Compare two systems judged on "
                     "the same segments.")
    if protocol == "scores":
        notes.append("Plain scores: their observed range is mapped onto the 0–100 campaign scale.")
    low, high = float(values.min()), float(values.max())
    if protocol == "scores" and high <= low:
        raise ValueError("`scores`: all scores are equal; nothing to plan from.")
    return CampaignFit(protocol=protocol, systems=tuple(chosen), n_judgments=int(len(values)),
                       mean=float(values.mean()), sd=sd, ceiling_share=ceiling, floor_share=floor,
                       components=components, system_means=system_means, differences=tuple(float(d) for d in diffs),
                       delta=delta, low=low, high=high, notes=tuple(notes), shared_segments=shared)

"""core.humaneval.fit: REML components against statsmodels, recovery of known components, campaign summaries."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

from core import sequential as sq
from core.humaneval import PROTOCOL_DEFAULTS, fit_campaign, protocol_table, to_campaign_scale, variance_components


def crossed(segments=100, raters=20, per_segment=3, seg=100.0, rater=30.0, res=400.0, systems=2, seed=0,
            shift=3.0):
    """Systems × segments, each segment rated by `per_segment` distinct raters from a crossed pool."""
    rng = np.random.default_rng(seed)
    u = rng.normal(0, math.sqrt(seg), (systems, segments))
    v = rng.normal(0, math.sqrt(rater), raters)
    rows = []
    for s in range(systems):
        for i in range(segments):
            for j in rng.choice(raters, per_segment, replace=False):
                score = 70 + shift * s + u[s, i] + v[j] + rng.normal(0, math.sqrt(res))
                rows.append((f"S{s}", f"seg{i}", f"r{j}", score))
    return pd.DataFrame(rows, columns=["system", "item", "rater", "score"])


def test_reml_equals_statsmodels_mixedlm():
    data = crossed(segments=60, raters=12, seed=3)
    vc = variance_components(data)
    frame = data.assign(segment=data["system"] + "\x1f" + data["item"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = sm.MixedLM.from_formula("score ~ C(system)", groups=np.ones(len(frame)), re_formula="0",
                                        vc_formula={"segment": "0 + C(segment)", "rater": "0 + C(rater)"},
                                        data=frame)
        ref = model.fit(reml=True)
    ref_vc = dict(zip(model.exog_vc.names, ref.vcomp))
    assert vc.method == "reml"
    assert vc.segment == pytest.approx(ref_vc["segment"], rel=2e-3)
    assert vc.rater == pytest.approx(ref_vc["rater"], rel=2e-3)
    assert vc.residual == pytest.approx(ref.scale, rel=2e-3)
    via = variance_components(data, method="statsmodels")  # the same call through the module
    assert via.segment == pytest.approx(ref_vc["segment"], rel=1e-9) and via.residual == pytest.approx(ref.scale)
    with pytest.raises(ValueError, match="`method`"):
        variance_components(crossed(segments=400, seed=1), method="statsmodels")


def test_reml_recovers_known_components_on_a_large_crossed_design():
    data = crossed(segments=2000, raters=40, seg=150.0, rater=40.0, res=500.0, seed=7)
    vc = variance_components(data)
    assert vc.method == "reml" and vc.n_segments == 4000 and vc.n_raters == 40
    # 4,000 segments × 3 ratings: SEs ≈ 9 (segment), 10 (rater: 40 levels), 8 (residual)
    assert vc.segment == pytest.approx(150.0, abs=30.0)
    assert vc.rater == pytest.approx(40.0, abs=25.0)
    assert vc.residual == pytest.approx(500.0, abs=30.0)
    assert vc.rating_noise == pytest.approx(vc.rater + vc.residual)


def test_moments_fallback_and_notes():
    data = crossed(segments=300, raters=15, seed=1)
    mom = variance_components(data, method="moments")
    assert mom.method == "moments" and 40 < mom.segment < 200
    single = data.drop_duplicates(["system", "item"])
    vc = variance_components(single)
    assert math.isnan(vc.segment) and any("rated once" in n for n in vc.notes)
    no_raters = data.assign(rater=pd.NA)
    vc = variance_components(no_raters)
    assert math.isnan(vc.rater) and vc.method == "reml" and any("No rater ids" in n for n in vc.notes)
    # without rater ids the rater variance joins the residual: segment unchanged, residual ≈ rater + residual
    full = variance_components(data)
    assert vc.residual == pytest.approx(full.rater + full.residual, rel=0.1)


def test_moment_rater_variance_is_not_shrunk_by_the_segment_mean():
    """The moment estimate (used above MAX_REML_RATERS raters) of σ²_r: a rater's mean within-segment residual
    keeps only (1 − 1/c) of its effect; corrected for it, the estimate is unbiased. Oracle: the realised variance
    of the simulated rater effects (segment 100, rater 60, residual 300; 2 and 3 ratings per segment, 200 raters,
    four seeds). The uncorrected estimate was 24 at two ratings per segment and 33 at three."""
    for c in (2, 3):
        estimates, truths = [], []
        for seed in range(4):
            rng = np.random.default_rng(seed)
            v = rng.normal(0, math.sqrt(60.0), 200)
            rows = []
            for s, mu in (("A", 70.0), ("B", 66.0)):
                u = rng.normal(0, 10.0, 1500)
                for i in range(1500):
                    for j in rng.choice(200, c, replace=False):
                        rows.append((s, i, f"r{j}", mu + u[i] + v[j] + rng.normal(0, math.sqrt(300.0))))
            vc = variance_components(pd.DataFrame(rows, columns=["system", "item", "rater", "score"]),
                                     method="moments")
            estimates.append(vc.rater)
            truths.append(v.var(ddof=1))
        # estimate − truth over 12 seeds: mean +2.3 (SD 7.7) at c = 2, −1.6 (SD 3.1) at c = 3, so the four-seed
        # mean has SE 3.8 and 1.6; 12 is three SEs at c = 2
        assert np.mean(estimates) == pytest.approx(np.mean(truths), abs=12.0), (c, estimates, truths)


def test_ratings_without_rater_ids_are_kept_when_most_lack_one():
    """When most ratings name no rater, all are fitted without rater ids (oracle: the fit of the same data with
    the ids removed), not the few that do; when a few lack one, those few are left out and the note counts them."""
    data = crossed(segments=200, raters=15, seed=4)
    rng = np.random.default_rng(0)
    mostly = data.assign(rater=np.where(rng.random(len(data)) < 0.1, data["rater"], None))
    vc = variance_components(mostly)
    ref = variance_components(data.assign(rater=pd.NA))
    assert vc.n_ratings == len(data) and math.isnan(vc.rater)
    assert vc.segment == pytest.approx(ref.segment, rel=1e-9) and vc.residual == pytest.approx(ref.residual, rel=1e-9)
    assert any("name no rater: all were fitted" in n for n in vc.notes)
    few = data.assign(rater=np.where(rng.random(len(data)) < 0.9, data["rater"], None))
    vc = variance_components(few)
    missing = int(few["rater"].isna().sum())
    assert vc.n_ratings == len(data) - missing and vc.n_raters == 15
    assert any(n.startswith(f"{missing:,} of {len(data):,} ratings name no rater and were left out") for n in vc.notes)


def test_fit_campaign_summaries_and_design():
    data = crossed(segments=200, raters=10, systems=3, seed=2, shift=4.0)
    data["score"] = data["score"].clip(0, 100).round()
    data.attrs["protocol"] = "da"
    fit = fit_campaign(data)
    means = data.groupby("system")["score"].mean()
    assert fit.n_judgments == len(data) and fit.mean == pytest.approx(data["score"].mean())
    assert [m for _, m, _ in fit.system_means] == pytest.approx(sorted(means, reverse=True))
    diffs = sorted(abs(means[a] - means[b]) for a, b in (("S0", "S1"), ("S0", "S2"), ("S1", "S2")))
    assert sorted(fit.differences) == pytest.approx(diffs)
    assert fit.ceiling_share == pytest.approx((data["score"] >= 99.5).mean())
    pair = fit_campaign(data, ["S2", "S0"])
    assert pair.delta == pytest.approx(means["S2"] - means["S0"])
    design = pair.design("interim", peeks=4)
    assert isinstance(design, sq.CampaignDesign) and design.peeks == 4 and design.test == "mwu"
    assert design.delta == pytest.approx(pair.delta) and design.mean == pytest.approx(round(pair.mean, 3))
    with pytest.raises(ValueError, match="`systems`"):
        fit_campaign(data, ["S0", "nope"])


def test_two_systems_far_apart_give_a_design_inside_the_engines_range():
    # a good and a bad system 74 points apart (a WMT DA file of that shape was refused with "`delta` must be in
    # [-50, 50]"): the design's difference is clipped to the engine's ±50
    rng = np.random.default_rng(3)
    data = pd.DataFrame({"system": np.repeat(["good", "bad"], 20), "item": np.tile(np.arange(20), 2), "rater": pd.NA,
                         "score": np.r_[rng.uniform(90, 94, 20), rng.uniform(15, 21, 20)]})
    data.attrs["protocol"] = "da"
    pair = fit_campaign(data, ["bad", "good"])
    assert abs(pair.delta) > 70
    design = pair.design("fixed")
    assert design.delta == pytest.approx(50.0 * np.sign(pair.delta), abs=1e-5)


def test_mqm_maps_onto_the_campaign_scale():
    rng = np.random.default_rng(0)
    scores = -np.minimum(rng.poisson(0.6, 800) * 5.0 + rng.poisson(0.8, 800) * 1.0, 25.0)
    data = pd.DataFrame({"system": np.repeat(["A", "B"], 400), "item": np.tile(np.arange(400), 2), "rater": pd.NA,
                         "score": scores})
    data.attrs["protocol"] = "mqm"
    fit = fit_campaign(data, ["A", "B"])
    assert fit.ceiling_share == pytest.approx((scores == 0).mean())
    design = fit.design("fixed")
    assert design.test == "t" and design.mean == pytest.approx(round(100 + 4 * scores.mean(), 3))
    assert design.delta == pytest.approx(4 * fit.delta)
    assert float(to_campaign_scale(-25, "mqm")) == 0.0 and float(to_campaign_scale(0, "mqm")) == 100.0


def test_protocol_table_sources():
    table = protocol_table()
    assert set(table["protocol"]) == set(PROTOCOL_DEFAULTS)
    for name in ("da", "da-sqm", "esa", "mqm"):
        row = table.set_index("protocol").loc[name]
        assert row["source"] and row["test"] in ("mwu", "t")
    assert PROTOCOL_DEFAULTS["mqm"].test == "t" and PROTOCOL_DEFAULTS["da"].sd == 29.4
    options = PROTOCOL_DEFAULTS["mqm"].campaign_options()
    assert options["mean"] == pytest.approx(100 - 4 * 2.41) and options["sd"] == pytest.approx(4 * 2.53)

"""Tests of core.sequential.monitor: verdicts, the forecast against an item-by-item simulation, readers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core import llm
from core import pairwise as pw
from core import sequential as sq


def test_verdicts():
    rng = np.random.default_rng(0)
    b = sq.monitor(np.r_[np.ones(60), -np.ones(20)], target=0.2, n_max=400, bounds=(-1, 1))
    assert b.verdict == "b_better" and b.message == "stop: B is better" and b.expected_more == 0
    a = sq.monitor(-np.r_[np.ones(60), -np.ones(20)], target=0.2, n_max=400, bounds=(-1, 1))
    assert a.verdict == "a_better" and a.message == "stop: A is better"
    x = rng.choice([-1.0, 1.0], size=3000)
    none = sq.monitor(x, target=0.2, n_max=3000, bounds=(-1, 1))
    assert none.verdict == "no_difference" and "no difference of at least 0.2" in none.message
    assert -0.2 < none.sequence["lower"].iloc[-1] and none.sequence["upper"].iloc[-1] < 0.2
    more = sq.monitor(x[:50], target=0.2, n_max=3000, bounds=(-1, 1))
    assert more.verdict == "continue" and more.message.startswith("continue: about ")
    assert more.expected_more > 0 and more.expected_more_se > 0 and len(more.paths)
    budget = sq.monitor(x[:40], target=0.01, n_max=40, bounds=(-1, 1))
    assert budget.verdict == "budget"


def test_forecast_agrees_with_an_item_by_item_simulation():
    # oracle: continue each run item by item with the normal-mixture boundary, stopping by the same rules
    rng = np.random.default_rng(3)
    x = rng.normal(0.05, 0.4, 80)
    target, n_max, sd = 0.1, 600, float(np.std(x, ddof=1))
    r = sq.monitor(x, target=target, n_max=n_max, n_sims=4000, seed=9)
    assert r.verdict == "continue"
    rho = sq.mixture_rho(n_max, sd)
    t = np.arange(81, n_max + 1)
    half = sq.cs_boundary(t, sd, alpha=0.05, rho=rho) / t
    sign = 1.0 if x.mean() >= 0 else -1.0
    s = x.sum() + np.cumsum(np.random.default_rng(10).normal(sign * target, sd, (4000, t.size)), axis=1)
    est = s / t
    stop = (est - half > 0) | (est + half < 0) | ((est - half > -target) & (est + half < target))
    stop[:, -1] = True
    used = t[np.argmax(stop, axis=1)] - 80
    se = math.hypot(used.std(ddof=1) / math.sqrt(used.size), r.expected_more_se)
    assert abs(r.expected_more - used.mean()) <= 4 * se


class _Draws:
    """A generator whose ``choice`` hands out fixed item indices (all continuations × all further items at once)."""

    def __init__(self, indices):
        self.indices = indices

    def choice(self, k, size, p):
        assert size == self.indices.shape and self.indices.max() < k
        return self.indices


@pytest.mark.parametrize("seed, target, n_max", [(0, 0.15, 400), (1, 0.3, 250), (2, 0.05, 300)])
def test_betting_forecast_stops_where_the_betting_sequence_does(monkeypatch, seed, target, n_max):
    # oracle: each continuation appended to the run and watched with confidence_sequence(..., bounds) and the
    # verdict rules, item by item — the sequence the Monitor shows (Waudby-Smith & Ramdas 2024, Theorem 3)
    from core.sequential import monitor_betting as mb
    from core.sequential.monitor import _verdict

    rng = np.random.default_rng(seed)
    x = rng.choice([-1.0, 0.0, 1.0], size=50, p=[0.3, 0.25, 0.45])
    alpha, bounds, sims = 0.05, (-1.0, 1.0), 40
    support, probs = mb.tilted_law(x, target, bounds)
    indices = rng.choice(support.size, size=(sims, n_max - x.size), p=probs)
    monkeypatch.setattr(mb, "_BLOCK_CELLS", 10**9)  # one block: the fixed draws are used as they are
    more, se, p_effect, paths, used_sims = mb.forecast_betting(x, n_max, target, target, alpha, bounds, sims, 5,
                                                               _Draws(indices))
    assert used_sims == sims
    used, effect = [], []
    for row in indices:
        cs = sq.confidence_sequence(np.r_[x, support[row]], alpha=alpha, bounds=bounds)
        for k in range(x.size, n_max):
            verdict, _ = _verdict(cs["lower"].iloc[k], cs["upper"].iloc[k], target, k + 1, n_max)
            if verdict != "continue":
                used.append(k + 1 - x.size)
                effect.append(verdict in ("a_better", "b_better"))
                break
    assert more == pytest.approx(np.mean(used), abs=1e-12)
    assert p_effect == pytest.approx(np.mean(effect), abs=1e-12)
    assert se == pytest.approx(np.std(used, ddof=1) / math.sqrt(sims), rel=1e-12)
    # the drawn continuations: their running means, and a stop where the oracle stopped
    for p in range(5):
        path = paths[paths["path"] == p]
        full = np.r_[x, support[indices[p]]]
        assert np.allclose(path["estimate"], np.cumsum(full)[path["n"] - 1] / path["n"])
        assert path["stopped"].sum() == 1 and path["n"].iloc[-1] == x.size + used[p] and path["stopped"].iloc[-1]


@pytest.mark.parametrize("chunk", [1, 7, 25])
def test_betting_forecast_in_column_chunks_equals_one_pass(monkeypatch, chunk):
    # a continuation that stopped is followed no further than its chunk; the sums carried across chunks are the
    # same floating-point sums as one pass over the block, so every number is the same to the last bit (several
    # blocks of draws, stops inside chunks and at the planned end)
    from core.sequential import monitor_betting as mb

    rng = np.random.default_rng(3)
    x = rng.choice([-1.0, 0.0, 1.0], size=40, p=[0.3, 0.3, 0.4])
    monkeypatch.setattr(mb, "_BLOCK_CELLS", 5_000)

    def run():
        return mb.forecast_betting(x, 400, 0.2, 0.2, 0.05, (-1.0, 1.0), 300, 6, np.random.default_rng(9))

    monkeypatch.setattr(mb, "_CHUNK", 10**9)
    whole = run()
    monkeypatch.setattr(mb, "_CHUNK", chunk)
    chunked = run()
    assert whole[0] < 360  # most continuations stop before the planned end
    assert whole[:3] == chunked[:3] and whole[4] == chunked[4]
    pd.testing.assert_frame_equal(whole[3], chunked[3], check_exact=True)


def test_the_default_betting_monitor_forecasts_with_its_own_sequence():
    # votes leaning to B: betting makes no variance assumption and needs about twice the items of the normal
    # mixture; the forecast of the betting Monitor must say so (it once simulated the mixture whichever was shown)
    rng = np.random.default_rng(12)
    x = rng.choice([-1.0, 0.0, 1.0], size=60, p=[0.3, 0.25, 0.45])
    betting = sq.MonitorDesign(target=0.15, n_max=700).run(x)
    mixture = sq.MonitorDesign(target=0.15, n_max=700, sequence="mixture").run(x)
    assert betting.method == "betting" and mixture.method == "normal mixture"
    assert betting.expected_more > mixture.expected_more + 10 * math.hypot(betting.expected_more_se,
                                                                          mixture.expected_more_se)
    assert betting.p_stop_effect < mixture.p_stop_effect


def test_a_long_betting_forecast_uses_fewer_continuations_and_says_so():
    x = np.random.default_rng(5).choice([-1.0, 0.0, 1.0], size=60)
    r = sq.MonitorDesign(target=0.01, n_max=100_000, n_sims=2000).run(x)
    assert r.verdict == "continue" and r.n_sims == 150 and r.expected_more_se > 0  # 1.5e7 item-continuations


def test_tilted_law_keeps_the_support_and_reaches_the_mean():
    from core.sequential.monitor_betting import tilted_law

    x = np.r_[np.full(30, -1.0), np.full(20, 0.0), np.full(50, 1.0)]
    support, probs = tilted_law(x, 0.1, (-1, 1))
    assert support.tolist() == [-1.0, 0.0, 1.0] and probs.sum() == pytest.approx(1.0)
    assert probs @ support == pytest.approx(0.1, abs=1e-10)
    # exponential tilting: log(p / count) is linear in the value
    slope = np.diff(np.log(probs / np.array([30, 20, 50])))
    assert slope[0] == pytest.approx(slope[1], rel=1e-9)
    # a mean beyond what was seen (every item equal so far) brings in the bounds as pseudo-items
    support, probs = tilted_law(np.ones(10), 0.5, (-1, 1))
    assert support.tolist() == [-1.0, 1.0] and probs @ support == pytest.approx(0.5, abs=1e-10)
    with pytest.raises(ValueError, match="`mean`"):
        tilted_law(x, 1.0, (-1, 1))


def test_constant_differences_are_watched_with_the_betting_sequence():
    r = sq.MonitorDesign(target=0.2, n_max=400).run(np.ones(60))
    assert r.verdict == "b_better" and r.sd == 1.0  # the planned looks take the largest SD of [−1, 1]
    with pytest.raises(ValueError, match="`sd`"):
        sq.monitor(np.ones(60), target=0.2, n_max=400)


@pytest.mark.parametrize("x, sd, name", [([0.1, np.nan, 0.3], None, "x"), ([], None, "x"), ([0.2], None, "x"),
                                         ([0.1, 0.2, 0.3], "0.5", "sd")])
def test_bad_items_or_sd_are_named(x, sd, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        sq.monitor(x, target=0.1, n_max=10, sd=sd)


def test_group_boundaries_on_the_estimate_scale():
    x = np.random.default_rng(1).normal(0.0, 0.5, 100)
    r = sq.monitor(x, target=0.05, n_max=900, looks=3, boundary="obrien_fleming")
    assert r.looks == (300, 600, 900)
    assert r.look_bounds == pytest.approx([3.4711 * r.sd / math.sqrt(300), 2.4544 * r.sd / math.sqrt(600),
                                           2.0040 * r.sd / math.sqrt(900)], rel=2e-5)


def test_readers():
    wide = sq.read_paired_scores(b"item,base,new\nq1,0.5,1\nq2,1,1\nq3,0,1\n")
    assert wide["difference"].tolist() == [0.5, 0.0, 1.0] and wide.attrs["models"] == ("base", "new")
    text = b"question,model,score\n1,a,1\n1,b,0\n2,a,0\n2,b,1\n2,b,0\n"
    log = sq.read_paired_scores(text, read_log=llm.read_benchmark_log)
    assert log["difference"].tolist() == [-1.0, 0.5] and log.attrs["models"] == ("a", "b")
    # the engine reads no scenario's log format itself: a log without its reader is refused, saying which to pass
    with pytest.raises(ValueError, match="read_log"):
        sq.read_paired_scores(text, name="run.csv")
    sample = sq.sample_differences()
    assert len(sample) == 300 and sample.attrs["models"] == ("synthetic-baseline", "synthetic-candidate")
    # read directly from the shipped CSV: the same frame as through the LLM page's reader
    pd.testing.assert_frame_equal(sample, sq.differences_from_log(llm.sample_log()))
    votes = pw.read_votes(b"model_a,model_b,winner\nx,y,model_a\ny,x,model_a\nx,y,tie\nx,z,model_b\n")
    d = sq.differences_from_votes(votes)
    assert d.attrs["models"] == ("x", "y") and d["difference"].tolist() == [-1.0, 1.0, 0.0]
    assert sq.differences_from_votes(pw.read_votes(pw.SAMPLE_VOTES.read_bytes()))["difference"].abs().max() <= 1


@pytest.mark.parametrize("call, name", [
    (lambda: sq.monitor([0.1, 0.2, 0.3], target=0.0, n_max=10), "target"),
    (lambda: sq.monitor([0.1, 0.2, 0.3], target=0.1, n_max=2), "n_max"),
    (lambda: sq.monitor([0.1, 0.2, 0.3], target=0.1, n_max=10, looks=0), "looks"),
    (lambda: sq.monitor([0.1, 0.1, 0.1], target=0.1, n_max=10), "sd"),
    (lambda: sq.monitor([0.1, 2.0, 0.3], target=0.1, n_max=10, bounds=(-1, 1)), "x"),
])
def test_value_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


def test_reader_errors_name_the_row():
    with pytest.raises(ValueError, match="row 3"):
        sq.read_paired_scores(b"a,b\n1,2\n1,x\n")
    with pytest.raises(ValueError, match="two score columns"):
        sq.read_paired_scores(b"item,a\nq1,1\nq2,0\n")


def test_reader_refuses_overflowing_scores():
    with pytest.raises(ValueError, match="row 2"):
        sq.read_paired_scores(b"a,b\n1e308,-1e308\n1,2\n3,4\n")


def _betting_whole_grid(y, alpha):
    """The betting CS evaluated on the whole grid at every n (the engine's earlier algorithm): the oracle."""
    import math

    from core.sequential.confidence import _BET_CAP, CS_GRID

    t = np.arange(1, y.size + 1, dtype=float)
    mu_hat = (0.5 + np.cumsum(y)) / (t + 1)
    var_hat = (0.25 + np.cumsum((y - mu_hat) ** 2)) / (t + 1)
    prev_var = np.concatenate([[0.25], var_hat[:-1]])
    lam = np.sqrt(2.0 * math.log(2.0 / alpha) / (prev_var * t * np.log1p(t)))
    grid = np.linspace(0.0, 1.0, CS_GRID)
    with np.errstate(divide="ignore"):
        cap_up = np.where(grid > 0, _BET_CAP / grid, np.inf)
        cap_down = np.where(grid < 1, _BET_CAP / (1 - grid), np.inf)
    up = np.cumsum(np.log1p(np.minimum(lam[:, None], cap_up) * (y[:, None] - grid)), axis=0)
    down = np.cumsum(np.log1p(-np.minimum(lam[:, None], cap_down) * (y[:, None] - grid)), axis=0)
    inside = np.maximum(up, down) + math.log(0.5) < math.log(1 / alpha)
    anyin = inside.any(axis=1)
    first, last = np.argmax(inside, axis=1), grid.size - 1 - np.argmax(inside[:, ::-1], axis=1)
    lower = np.where(anyin, grid[np.maximum(first - 1, 0)], np.nan)
    upper = np.where(anyin, grid[np.minimum(last + 1, grid.size - 1)], np.nan)
    lower, upper = np.fmax.accumulate(lower), np.fmin.accumulate(upper)
    return lower, upper


@pytest.mark.parametrize("seed, mean, n, alpha", [(0, 0.5, 3000, 0.05), (1, 0.9, 2500, 0.05), (2, 0.03, 2000, 0.1),
                                                  (3, 0.6, 4000, 0.01), (4, 1.0, 500, 0.05)])
def test_betting_sequence_follows_only_the_running_interval_and_equals_the_whole_grid(seed, mean, n, alpha):
    # the engine follows only candidate means inside the running intersection; the oracle evaluates all 2,001
    # candidates at every n: the intersected bounds must agree exactly (values in [0, 1], Bernoulli and uniform)
    from core.sequential.confidence import _betting

    rng = np.random.default_rng(seed)
    y = rng.binomial(1, mean, n).astype(float) if seed % 2 == 0 else np.clip(rng.normal(mean, 0.2, n), 0, 1)
    lo, hi = _betting(y, alpha)
    lo, hi = np.fmax.accumulate(lo), np.fmin.accumulate(hi)
    want_lo, want_hi = _betting_whole_grid(y, alpha)
    np.testing.assert_array_equal(lo, want_lo)
    np.testing.assert_array_equal(hi, want_hi)


def test_betting_sequence_of_a_million_items_is_computed():
    # a million-item upload (the reader's row limit): every item is used; the result is the same kind of frame
    y = np.random.default_rng(5).binomial(1, 0.52, 1_000_000) * 2.0 - 1.0
    cs = sq.confidence_sequence(y, bounds=(-1, 1))
    assert len(cs) == 1_000_000 and cs["lower"].iloc[-1] <= cs["estimate"].iloc[-1] <= cs["upper"].iloc[-1]
    assert 0 < cs["upper"].iloc[-1] - cs["lower"].iloc[-1] < 0.02


@pytest.mark.parametrize("n_max, looks, boundary", [(100, 3, "pocock"), (101, 4, "obrien_fleming"),
                                                    (10, 3, "pocock")])
def test_planned_looks_rounded_to_whole_items_keep_the_size_at_alpha(n_max, looks, boundary):
    """Looks at round(n_max k / K) items are unequally spaced when K does not divide n_max; the boundaries are
    solved at the realised fractions (Lan & DeMets 1983). Oracle: scipy's multivariate normal CDF of
    (Z_1, …, Z_K) with corr(Z_j, Z_k) = √(n_j / n_k) (Jennison & Turnbull 2000, §3.1): P(some |Z_k| ≥ c_k) = α."""
    from scipy import stats

    x = np.random.default_rng(3).normal(0.0, 1.0, 5)
    r = sq.monitor(x, target=0.5, n_max=n_max, looks=looks, boundary=boundary)
    sizes = np.array(r.looks, float)
    assert not np.array_equal(sizes, sizes[0] * np.arange(1, looks + 1))  # the rounding this is about
    c = np.array(r.look_bounds) * np.sqrt(sizes) / r.sd
    corr = np.sqrt(np.minimum.outer(sizes, sizes) / np.maximum.outer(sizes, sizes))
    inside = stats.multivariate_normal(mean=np.zeros(looks), cov=corr, abseps=1e-7, releps=1e-7).cdf(
        c, lower_limit=-c, rng=np.random.default_rng(0))
    assert 1.0 - inside == pytest.approx(0.05, abs=5e-6)  # equally spaced boundaries: off by 2e-5 to 4.5e-4


def test_fewer_items_than_planned_looks_analyse_each_distinct_look_once():
    # n_max = 2 with 3 looks: round(2k/3) = 1, 1, 2 -> looks at 1 and 2 items, boundaries of a 2-look plan there
    from core.sequential.boundaries import boundary_z

    r = sq.monitor(np.array([0.5, 1.0]), target=0.1, n_max=2, looks=3, boundary="pocock")
    assert r.looks == (1, 2)
    assert np.array(r.look_bounds) * np.sqrt([1, 2]) / r.sd == pytest.approx(boundary_z(2, alpha=0.05,
                                                                                        kind="pocock"))


def test_without_the_forecast_everything_else_is_the_same():
    """``forecast=False`` (the page draws the sequence before simulating): the same sequence, verdict, looks and
    bounds as with the forecast; the forecast's fields are nan while the run continues, and a stopped run is whole."""
    rng = np.random.default_rng(4)
    x = rng.choice([-1.0, 0.0, 1.0], size=120, p=[0.3, 0.4, 0.3])
    design = sq.MonitorDesign(target=0.2, n_max=1000)
    full, part = design.run(x), design.run(x, forecast=False)
    assert full.verdict == part.verdict == "continue"
    pd.testing.assert_frame_equal(full.sequence, part.sequence)
    assert (full.looks, full.look_bounds, full.group_stop, full.sd, full.first_n) == \
        (part.looks, part.look_bounds, part.group_stop, part.sd, part.first_n)
    assert np.isfinite(full.expected_more) and full.expected_more > 0 and 0 <= full.p_stop_effect <= 1
    assert math.isnan(part.expected_more) and math.isnan(part.expected_more_se) and math.isnan(part.p_stop_effect)
    assert part.paths.empty and part.message == "continue" and full.message.startswith("continue: about")
    stopped = np.r_[np.ones(60), -np.ones(20)]
    whole, alone = design.run(stopped), design.run(stopped, forecast=False)
    assert whole.message == alone.message == "stop: B is better"
    assert (whole.expected_more, whole.expected_more_se, whole.p_stop_effect) == \
        (alone.expected_more, alone.expected_more_se, alone.p_stop_effect) == (0.0, 0.0, 1.0)


def test_the_forecast_added_afterwards_is_monitors():
    """``result.with_forecast(design.forecast(result, x))`` with ``result = design.run(x, forecast=False)`` is
    ``design.run(x)``: the same continuations (same seed), message and expected items."""
    rng = np.random.default_rng(9)
    x = rng.normal(0.02, 0.5, size=300)
    design = sq.MonitorDesign(target=0.1, n_max=2000, sequence="mixture", seed=3, n_sims=500, n_paths=7)
    full, part = design.run(x), design.run(x, forecast=False)
    added = part.with_forecast(design.forecast(part, x))
    assert full.verdict == "continue"
    assert (added.message, added.expected_more, added.expected_more_se, added.p_stop_effect) == \
        (full.message, full.expected_more, full.expected_more_se, full.p_stop_effect)
    pd.testing.assert_frame_equal(added.paths, full.paths)
    with pytest.raises(ValueError, match="`x` must hold the 300 items"):
        design.forecast(part, x[:-1])
    stopped = np.r_[np.ones(60), -np.ones(20)]
    done = design.run(stopped, forecast=False)
    assert done.with_forecast(design.forecast(done, stopped)).message == "stop: B is better"


@pytest.mark.parametrize("bounds", [(-math.inf, 1.0), (0.0, math.inf), (-math.inf, math.inf), (math.nan, 1.0),
                                    "ab", "01", 5, (1.0,), (1.0, 2.0, 3.0), (2.0, 1.0), ("a", "b")])
def test_monitor_design_refuses_bounds_that_are_not_a_finite_pair_by_name(bounds):
    # regression: infinite bounds were accepted and failed only at .run(); a text or a number raised TypeError or
    # float()'s message without naming the parameter
    with pytest.raises(ValueError, match=r"^`bounds` must be a pair \(low, high\) of finite numbers"):
        sq.MonitorDesign(bounds=bounds)


@pytest.mark.parametrize("raw", ["-inf,1", "0,inf", "nan,1", "-inf,inf", "1e309,2", "a,b", "1", "", "1,0"])
def test_monitor_design_link_with_bad_bounds_falls_back_with_a_message(raw):
    messages = []
    d = sq.MonitorDesign.from_params({"cs_bounds": raw, "target": "0.2"}, messages=messages)
    assert d == sq.MonitorDesign(target=0.2) and d.bounds == (-1.0, 1.0)
    assert len(messages) == 1 and messages[0].startswith("`bounds` must read 'low,high' with finite low < high")
    assert d.run(np.r_[np.ones(60), -np.ones(20)], forecast=False).verdict == "b_better"  # usable, not failing later
    assert sq.MonitorDesign.from_params({"cs_bounds": "-0.5,2"}).bounds == (-0.5, 2.0)

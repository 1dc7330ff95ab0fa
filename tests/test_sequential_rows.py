"""Many budgets integrated together (a DA sample-size search's blocks): ``recursion_rows``, ``realised_boundaries``
and the campaign's ``_rows_power`` against the one-budget-at-a-time engine they replace in the search.

Oracles: :func:`core.sequential.recursion.recursion` and ``region_weights`` row by row; Brent's method on one
realised look at a time (``_boundary_z``) and the size α at the realised looks (Jennison & Turnbull 2000, §7.2.2);
``_batched`` (the curves' engine) for the power; the search's answers with ``_batched`` as its power function.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.sequential import boundaries as b
from core.sequential import campaign as c
from core.sequential.recursion import _rows_region_weights, recursion, recursion_rows, region_weights


@pytest.mark.parametrize("low, high", [(0.0, 2.3), (0.7, 2.31), (0.0, 1.234567), (1.9, 2.0)])
def test_row_weights_are_the_one_region_weights_bit_for_bit(low, high):
    grid = np.arange(-100, 101) * 0.05
    rows = _rows_region_weights(grid, 0.05, np.array([low, 0.0]), np.array([high, 3.1]))
    assert np.array_equal(rows[0], region_weights(grid, 0.05, low, high))
    assert np.array_equal(rows[1], region_weights(grid, 0.05, 0.0, 3.1))


def test_rows_with_their_own_looks_and_boundaries_match_one_recursion_each():
    infos = [np.array([333.0, 667.0, 1000.0]), np.array([334.0, 667.0, 1001.0]), np.array([300.0, 600.0, 900.0]),
             np.array([100.0, 250.0, 400.0, 520.0])[:3]]
    z_eff = [np.array([2.3, 2.3, 2.3]), np.array([2.31, 2.29, 2.28]), np.array([3.4, 2.4, 2.0]),
             np.array([2.5, 2.2, 2.1])]
    z_fut = [np.array([0.67, 0.67, 0.0]), np.zeros(3), np.array([0.5, 0.6, 0.0]), np.array([0.3, 0.0, 0.0])]
    thetas, variances, eff, fut = [], [], [], []
    for info, e, f, drift in zip(infos, z_eff, z_fut, (0.05, 0.08, 0.0, -0.1)):
        roots = np.sqrt(info)
        thetas.append(np.diff(np.concatenate([[0.0], drift * roots * roots])))
        variances.append(np.diff(np.concatenate([[0.0], info])))
        eff.append(e * roots)
        fut.append(f * roots)
    up, low, stop = recursion_rows(np.array(thetas), np.array(variances), np.array(eff), np.array(fut))
    for i in range(len(infos)):
        want = recursion(thetas[i][None, :], variances[i], eff[i], fut[i])
        for got, one in zip((up, low, stop), want):
            assert np.allclose(got[i], one[0], rtol=0, atol=1e-9)
    assert np.all((up + low + stop).sum(axis=1) <= 1 + 1e-9)


@pytest.mark.parametrize("kind", ["pocock", "obrien_fleming", "lan_demets", "lan_demets_pocock"])
@pytest.mark.parametrize("peeks", [2, 3, 5])
def test_boundaries_solved_together_are_brents_one_by_one_and_spend_alpha(kind, peeks, monkeypatch):
    monkeypatch.setattr(b, "_SOLVED", {})
    infos = [c._information(c._look_sizes(budget, peeks)) for budget in range(1000, 1060, 2)]
    infos.append((10.0, 11.0, 40.0, 50.0, 60.0)[:peeks - 1] + (70.0,))  # far from equal spacing: the wide bracket
    together = b.realised_boundaries(peeks, 0.05, kind, infos)
    for info, bounds in zip(infos, together):
        one = b._boundary_z(peeks, 0.05, kind, 0.0, info)
        assert np.allclose(bounds, one, rtol=0, atol=1e-9), (info, bounds, one)
        if info is not None:
            size = b._look_crossing(np.asarray(bounds), np.zeros(peeks), info).sum()
            assert size == pytest.approx(0.05, abs=1e-8)


@pytest.mark.parametrize("procedure", ["interim", "interim_futility", "naive"])
@pytest.mark.parametrize("kind", ["pocock", "obrien_fleming", "lan_demets"])
@pytest.mark.parametrize("test, delta", [("mwu", 2.0), ("t", -3.0)])
def test_power_of_many_budgets_is_the_curves_engines(procedure, kind, test, delta):
    budgets = np.arange(1200, 1262, 2)
    rows = c._rows_power(procedure, budgets, delta, 3, kind, 0.5, 75.0, 27.0, 0.05, test)
    one = c._batched(procedure, budgets, [delta], peeks=3, kind=kind, futility_p=0.5, mean=75.0, sd=27.0,
                     alpha=0.05, test=test)[0][:, 0]
    assert np.allclose(rows, one, rtol=0, atol=1e-9)
    assert np.all((rows >= 0) & (rows <= 1))


@pytest.mark.parametrize("procedure, kind, peeks, delta, test", [
    ("interim", "pocock", 3, 2.0, "mwu"), ("interim_futility", "pocock", 3, 2.5, "mwu"),
    ("interim", "obrien_fleming", 5, 3.0, "t"), ("interim_futility", "lan_demets", 4, 1.5, "mwu"),
    ("naive", "pocock", 3, 4.0, "mwu"), ("interim", "pocock", 10, 6.0, "t")])
def test_the_search_finds_the_budgets_the_one_by_one_engine_finds(procedure, kind, peeks, delta, test, monkeypatch):
    args = (procedure, delta, 0.8, peeks, kind, 0.5, 75.0, 27.0, 0.05, test)
    fast = c._campaign_sample_size.__wrapped__(*args)

    def one_by_one(procedure, budgets, delta, looks, kind, futility_p, mean, sd, alpha, test):
        return c._batched(procedure, budgets, [delta], peeks=looks, kind=kind, futility_p=futility_p, mean=mean,
                          sd=sd, alpha=alpha, test=test)[0][:, 0]

    monkeypatch.setattr(c, "_rows_power", one_by_one)
    assert c._campaign_sample_size.__wrapped__(*args) == fast
    kw = dict(peeks=peeks, boundary=kind, test=test)
    assert c.campaign_power(procedure, fast.first, delta, **kw).power >= 0.8 > \
        c.campaign_power(procedure, fast.first - 2, delta, **kw).power

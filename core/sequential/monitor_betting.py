"""The Monitor's forecast under the betting confidence sequence: continuations checked with the sequence shown.

A run watched with the betting sequence of Waudby-Smith & Ramdas (2024) (:func:`core.sequential.confidence_sequence`
with ``bounds``) stops later than one watched with the normal mixture: betting makes no variance assumption and pays
for it in width (on ±1 votes about twice the items). Its forecast must therefore simulate the betting sequence
itself. The sequence is the set of candidate means whose hedged capital stays below 1/α, intersected over time and
rounded outwards to a grid; the Monitor's stop rules ask only whether 0, −X and +X are inside, so only four candidate
means are followed here, item by item, in every continuation (:func:`forecast_betting`).

Continuations draw future items from the items seen so far, exponentially tilted to the planned mean — the law
closest to the observed one (in Kullback–Leibler divergence) with that mean and the same support, so it stays inside
the bounds (Efron 1981; Davison & Hinkley 1997, ch. 4) — see :func:`tilted_law`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import optimize, special

from .confidence import _BET_CAP, CS_GRID

__all__ = ["tilted_law", "forecast_betting"]

#: Simulated item-continuations (continuations × items) per block; and, over the whole forecast, the most items a
#: forecast simulates before it uses fewer continuations (:func:`forecast_betting`).
_BLOCK_CELLS = 400_000
_WORK = 15_000_000
#: Fewest continuations a long forecast keeps (its Monte Carlo SE says the rest): ≈ 2 s for a million further items.
_MIN_SIMS = 30
#: Items per column chunk of a block: a continuation that has stopped is followed no further than its chunk.
_CHUNK = 25
#: Points of each drawn continuation (plus its stop).
_FRAMES = 40


def tilted_law(values, mean, bounds) -> tuple[np.ndarray, np.ndarray]:
    """The observed values' distribution exponentially tilted to ``mean``: support and probabilities.

    ``P(v) ∝ count(v) · exp(θ v)``, θ solved so that the mean is ``mean`` (the KL-closest law to the empirical one
    with that mean; Efron 1981). When ``mean`` is not strictly between the smallest and largest value seen (every
    item equal so far, or a mean beyond them), the two bounds join the support as one pseudo-item each, so any
    mean strictly inside the bounds can be reached.
    """
    lo, hi = bounds
    if not lo < mean < hi:
        raise ValueError(f"`mean` must lie strictly inside the bounds ({lo:g}, {hi:g}), got {mean:g}.")
    support, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
    if not support[0] < mean < support[-1]:
        support = np.unique(np.concatenate([[lo], support, [hi]]))
        counts = np.array([np.sum(np.asarray(values) == v) or 1 for v in support], dtype=float)
    log_counts = np.log(counts)
    scale = support[-1] - support[0]
    z = (support - support[0]) / scale  # θ on a unit scale: the root stays within a moderate bracket

    def probs(theta):
        return special.softmax(log_counts + theta * z)

    def gap(theta):
        return float(probs(theta) @ support) - mean

    edge = 50.0
    while gap(-edge) > 0 or gap(edge) < 0:  # a mean very close to an end of the support
        edge *= 4
        if edge > 1e6:
            break
    theta = optimize.brentq(gap, -edge, edge, xtol=1e-13)
    return support, probs(theta)


def _candidates(lo, hi, target):
    """Grid indices of the four candidate means the stop rules read, as :func:`confidence_sequence` rounds them.

    The shown lower bound is the grid point below the first candidate inside the sequence, so it exceeds v exactly
    when the smallest grid mean above v has left the sequence from below (its upward capital K⁺ crossed 1/α; K⁺ is
    non-increasing in the candidate mean, so every mean below has left too). Likewise for the upper bound with the
    largest grid mean below v and K⁻. Returns (index, side) for "lower > 0", "upper < 0", "lower > −X",
    "upper < X"; ``None`` where no grid mean qualifies (the condition can never hold).
    """
    grid_x = lo + (hi - lo) * np.linspace(0.0, 1.0, CS_GRID)
    above = [int(np.searchsorted(grid_x, v, side="right")) for v in (0.0, -target)]
    below = [int(np.searchsorted(grid_x, v, side="left")) - 1 for v in (0.0, target)]
    return [(above[0], +1) if above[0] < CS_GRID else None, (below[0], -1) if below[0] >= 0 else None,
            (above[1], +1) if above[1] < CS_GRID else None, (below[1], -1) if below[1] >= 0 else None]


def forecast_betting(x, n_max, delta, target, alpha, bounds, n_sims, n_paths, rng):
    """Continue the run ``x`` to ``n_max`` items under mean ``delta``; stop as the Monitor does on the betting CS.

    Every continuation is checked after every item with the betting sequence exactly as
    :func:`core.sequential.confidence_sequence` computes it (hedged capital, predictable plug-in bets of
    Waudby-Smith & Ramdas 2024, eq. (26), truncated at c/m and c/(1 − m); running intersection; bounds rounded
    outwards to the grid), restricted to the four candidate means the stop rules read (:func:`_candidates`).
    Future items come from :func:`tilted_law`.

    Long forecasts simulate at most ``_WORK`` item-continuations in all (never fewer than ``_MIN_SIMS``
    continuations; every continuation is checked after every item, so there is no coarser shortcut): the Monte
    Carlo SE returned says how precise the mean is.

    Returns
    -------
    (expected further items, its Monte Carlo SE, share ending significant, paths DataFrame, continuations used)
    """
    lo, hi = (float(b) for b in bounds)
    width = hi - lo
    values = np.asarray(x, dtype=float).ravel()
    n = values.size
    steps = int(n_max) - n
    n_sims = int(max(min(n_sims, _WORK // max(steps, 1)), min(n_sims, _MIN_SIMS)))
    support, probs = tilted_law(values, delta, (lo, hi))
    support_u = (support - lo) / width
    cands = _candidates(lo, hi, target)
    live = [c for c in cands if c is not None]
    m = np.linspace(0.0, 1.0, CS_GRID)[[c[0] for c in live]]
    side = np.array([c[1] for c in live])
    with np.errstate(divide="ignore"):
        cap = np.where(side > 0, np.where(m > 0, _BET_CAP / m, np.inf), np.where(m < 1, _BET_CAP / (1 - m), np.inf))
    threshold = math.log(1.0 / alpha) - math.log(0.5)  # ½K ≥ 1/α
    bet = 2.0 * math.log(2.0 / alpha)

    def cumsum(y, carry):
        """Running sums along the items, continuing ``carry`` (the block's earlier items' sum; ``None`` at its start).

        Adding the carry to the first item before summing gives exactly the floating-point sums of one pass over
        the whole block, so a block advanced in column chunks (:func:`advance_block`) gives the same numbers."""
        if carry is not None:
            y = y.copy()
            y[:, 0] += carry
        return np.cumsum(y, axis=1)

    def advance(y, t, s0, q0, var0, logk0, ever0, carry=(None, None, None)):
        """Items ``y`` (rows × items) at item counts ``t``: running sums, bets, capitals and the ever-left flags.

        ``var0`` is the variance estimate after the item before ``y``'s first; ``carry``: the sums of the block's
        earlier items (of ``y``, of the squared deviations and of each candidate's log-capital terms) when ``y``
        continues a block. Returns the last item's sums, variance and log-capitals, the flags, and the carries."""
        cs = cumsum(y, carry[0])
        s = s0[:, None] + cs
        mu = (0.5 + s) / (t + 1.0)
        cq = cumsum((y - mu) ** 2, carry[1])
        q = q0[:, None] + cq
        var = (0.25 + q) / (t + 1.0)
        prev = np.concatenate([var0[:, None], var[:, :-1]], axis=1)
        lam = np.sqrt(bet / (prev * t * np.log1p(t)))
        logk_last = np.empty((y.shape[0], m.size))
        ck = np.empty((y.shape[0], m.size))
        ever = np.empty(y.shape + (m.size,), dtype=bool)
        for j in range(m.size):
            # log K_t(m_j) = log K_{t0}(m_j) + Σ log(1 ± min(λ, cap)(y − m_j)), in place on one array (the bulk of
            # a forecast's time)
            term = np.subtract(y, m[j])
            term *= np.minimum(lam, cap[j])
            if side[j] < 0:
                np.negative(term, out=term)
            np.log1p(term, out=term)
            if carry[2] is not None:
                term[:, 0] += carry[2][:, j]
            np.cumsum(term, axis=1, out=term)
            ck[:, j] = term[:, -1]
            term += logk0[:, j, None]
            logk_last[:, j] = term[:, -1]
            np.greater_equal(term, threshold, out=ever[..., j])
        np.logical_or.accumulate(ever, axis=1, out=ever)
        ever |= ever0[:, None, :]
        return s[:, -1], q[:, -1], var[:, -1], logk_last, ever, (cs[:, -1], cq[:, -1], ck)

    def rules(ever):
        """Stop (and significant) per item from the ever-left flags, as :func:`core.sequential.monitor._verdict`."""
        flag = iter(range(m.size))
        got = [ever[..., next(flag)] if c is not None else np.zeros(ever.shape[:-1], bool) for c in cands]
        significant = got[0] | got[1]
        return significant | (got[2] & got[3]), significant

    def advance_block(y, t, s0, q0, var0, logk0, ever0, last):
        """A block of items ``y`` (rows × items) for the continuations still running: where each stops.

        The block is followed in column chunks of :data:`_CHUNK` items, and a continuation that has stopped is not
        followed further (most stop well before a block's end, and every item costs the same). ``last``: the block
        ends the planned items, where every continuation stops. Returns whether and where (item index) each row
        stopped, whether it stopped significant, and the state after the block of the rows that did not stop
        (sums, variance, log-capitals, ever-left flags)."""
        rows, block = y.shape
        hit = np.zeros(rows, dtype=bool)
        at = np.zeros(rows, dtype=int)
        sig = np.zeros(rows, dtype=bool)
        alive = np.arange(rows)
        carry = (None, None, None)
        s, q, var, logk, ever = s0, q0, var0, logk0, ever0
        for c0 in range(0, block, _CHUNK):
            c1 = min(block, c0 + _CHUNK)
            # the sums run from the block's start (s0, q0, logk0) plus the carries: the same floating-point sums
            s, q, var, logk, flags, carry = advance(y[alive, c0:c1], t[c0:c1], s0[alive], q0[alive], var,
                                                    logk0[alive], ever, carry)
            stop, significant = rules(flags)
            if last and c1 == block:
                stop[:, -1] = True
            now = stop.any(axis=1)
            first = np.argmax(stop, axis=1)
            done_rows = alive[now]
            hit[done_rows] = True
            at[done_rows] = c0 + first[now]
            sig[done_rows] = significant[now, first[now]]
            keep = ~now
            alive = alive[keep]
            s, q, var, logk, ever = s[keep], q[keep], var[keep], logk[keep], flags[keep, -1]
            carry = tuple(c[keep] for c in carry)
            if not alive.size:
                break
        return hit, at, sig, (s, q, var, logk, ever)

    # the items seen: the state every continuation starts from
    y_obs = (values - lo) / width
    t_obs = np.arange(1, n + 1, dtype=float)
    s_n, q_n, var_n, logk_n, ever_n, _ = advance(y_obs[None, :], t_obs, np.zeros(1), np.zeros(1), np.full(1, 0.25),
                                                 np.zeros((1, m.size)), np.zeros((1, m.size), bool))
    ever_n = ever_n[:, -1]
    used = np.full(n_sims, float(steps))
    effect = np.zeros(n_sims, dtype=bool)
    frame_at = np.unique(np.linspace(n + 1, n_max, min(steps, _FRAMES)).round().astype(int))
    shown = min(n_paths, n_sims)
    drawn: list[tuple] = []  # (path, item counts, estimates, stopped) pieces of the drawn continuations
    active = np.arange(n_sims)
    s = np.repeat(s_n, n_sims)
    q = np.repeat(q_n, n_sims)
    var = np.repeat(var_n, n_sims)
    logk = np.repeat(logk_n, n_sims, axis=0)
    ever = np.repeat(ever_n, n_sims, axis=0)
    done = 0
    values_u = support_u
    while active.size and done < steps:
        block = max(1, min(steps - done, _BLOCK_CELLS // active.size))
        t = np.arange(n + done + 1, n + done + block + 1, dtype=float)
        y = values_u[rng.choice(values_u.size, size=(active.size, block), p=probs)]
        s_before = s
        hit, at, significant, (s, q, var, logk, ever) = advance_block(y, t, s, q, var, logk, ever,
                                                                      done + block == steps)
        # the drawn continuations: running estimate on the original scale at the frame items and at the stop
        if shown:
            for r in np.nonzero(active < shown)[0]:
                p = int(active[r])
                end = int(at[r]) if hit[r] else block - 1
                frames = frame_at[(frame_at >= t[0]) & (frame_at <= t[end])] - int(t[0])
                idx = np.unique(np.append(frames, end)) if hit[r] else frames
                est = lo + width * (s_before[r] + np.cumsum(y[r, :end + 1])[idx]) / t[idx]
                drawn.append((np.full(idx.size, p), t[idx].astype(int), est, hit[r] & (idx == end)))
        used[active[hit]] = t[at[hit]] - n
        effect[active[hit]] = significant[hit]
        active = active[~hit]
        done += block
    drawn.sort(key=lambda piece: piece[0][0] if piece[0].size else -1)  # path by path, in item order (stable)
    paths = pd.DataFrame({name: (np.concatenate([piece[i] for piece in drawn]) if drawn else
                                 np.array([], dtype=kind))
                          for i, (name, kind) in enumerate((("path", int), ("n", int), ("estimate", float),
                                                            ("stopped", bool)))})
    se = float(used.std(ddof=1) / math.sqrt(n_sims)) if n_sims > 1 else math.nan
    return float(used.mean()), se, float(effect.mean()), paths, n_sims

"""Simulations on demand: outside ``st.cache_data`` (a progress bar inside a cached function cannot be replayed),
in chunks with a progress bar, shared across sessions in a bounded LRU."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import streamlit as st

__all__ = ['simulation', 'clear_simulations']


_SIM_CACHE: OrderedDict = OrderedDict()


_SIM_LOCK = threading.Lock()


_SIM_MAX = 256


def simulation(key: tuple, run: Callable[[Callable[[float], None]], object], *, text: str = "Simulating…"):
    """Result of ``run(progress)``, computed once per ``key`` with a progress bar, then served from memory.

    ``run`` receives a callback taking the finished fraction; the engines call
    it between chunks of replicates, which is also where a slider move
    interrupts the script. Results are shared across sessions (bounded LRU).
    """
    with _SIM_LOCK:
        if key in _SIM_CACHE:
            _SIM_CACHE.move_to_end(key)
            return _SIM_CACHE[key]
    bar = st.progress(0.0, text=text)

    def progress(fraction: float) -> None:
        fraction = min(max(float(fraction), 0.0), 1.0)
        bar.progress(fraction, text=f"{text} {fraction:.0%}")

    try:
        result = run(progress)
    finally:
        bar.empty()
    with _SIM_LOCK:
        _SIM_CACHE[key] = result
        while len(_SIM_CACHE) > _SIM_MAX:
            _SIM_CACHE.popitem(last=False)
    return result


def clear_simulations() -> None:
    """Forget cached simulations (tests)."""
    with _SIM_LOCK:
        _SIM_CACHE.clear()

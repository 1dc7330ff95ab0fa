"""The shared pieces of the "Python code for this view" scripts that reproduce a page's numbers with ``core``.

Each scenario writes its own script in its package (``core/<scenario>/snippet.py``: :mod:`core.accuracy.snippet`,
:mod:`core.llm.snippet`, :mod:`core.judge.snippet`, :mod:`core.pairwise.snippet`, :mod:`core.claims.snippet`,
:mod:`core.mt.snippet`, :mod:`core.ratings.snippet`, :mod:`core.sequential.snippet`). Each ``*_snippet`` function
takes the values a page passes to ``core`` and returns a self-contained script: the design, the power call, the
sample size and (when a prior is given) the assurance. Run from the repository root (so ``core`` imports), the
script prints one ``label: value`` line per number of the page's metrics row, formatted as the page formats it, so
a reader can paste it into a notebook and check the page, or change one value and re-run.

This module holds what they share: :data:`HEADER` (imports and the pages' number formats), :func:`literal`
(every value is written with :func:`repr`, so user text — system or benchmark names — becomes an inert string
literal), :func:`kwargs_literal`, :func:`prior_ok` and :data:`SCORE_UNITS`. It imports no scenario.
Power planners that ship a "code" view this way: gsDesign's Shiny app (Anderson 2022) and powerlmm (Magnusson 2018).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["HEADER", "SCORE_UNITS", "literal", "kwargs_literal", "prior_ok"]


#: The lines every script starts with: the pages' formatting (pages/_scaffold.fmt_pct / fmt_ratio /
#: sample_size_metric), repeated so the script runs without the app.
HEADER = '''import math

import numpy as np
import pandas as pd


def pct(x, digits=1):
    """A probability as the page shows it."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def ratio(x):
    """An exaggeration ratio as the page shows it."""
    return "—" if x is None or not math.isfinite(x) else f"{x:.2f}×"


def first_n(sizes, limit=None):
    """The first size whose power reaches the target, as the page shows it."""
    if sizes.first < 0:
        return f"> {limit:,}" if limit else "not reachable"
    return f"{sizes.first:,}"

'''


#: A protocol's score unit in the metrics (the DA page's pages._campaign_data.SCORE_UNITS).
SCORE_UNITS = {"da": "pts", "da-sqm": "pts", "esa": "pts", "sqm": "(0–6 scale)", "mqm": "MQM pts"}


def literal(value) -> str:
    """A Python literal for a value (floats round-trip exactly; inf and nan as ``float("inf")``)."""
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        value = value.item()  # numpy scalars print as np.float64(…) under numpy 2
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def kwargs_literal(mapping: Mapping) -> str:
    """A ``dict(key=value, …)`` expression for keyword arguments, each value a :func:`literal`."""
    return "dict(" + ", ".join(f"{k}={literal(v)}" for k, v in mapping.items()) + ")"


def prior_ok(prior) -> bool:
    """Whether a (mean, sd) prior was given with finite values (the script then prints the assurance)."""
    return prior is not None and all(math.isfinite(float(v)) for v in prior)

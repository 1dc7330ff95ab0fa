"""Power of Likert human evaluations with crossed worker × item variance.

Card et al. (2020), §5.2 and appendix H.3 (equations 5–10, Tables 13–16);
Westfall, Kenny & Judd (2014) for the analytic power of crossed designs.

Model (equation 5), system indicator x = ±1 (so the two systems' mean ratings
differ by 2 × ``effect``)::

    Y_wis = β0 + W0_w + I0_i + (β1 + W1_w + I1_i) x_s + e_wis

with independent W0 ~ N(0, σ_w0²), W1 ~ N(0, σ_w1²), I0 ~ N(0, σ_i0²),
I1 ~ N(0, σ_i1²), e ~ N(0, σ²). In the paper's fully crossed design every one
of W workers rates every one of I items under both systems.

Why the fit is cheap: per worker × item cell, the difference
``D = Y+ − Y−`` and the sum ``S = Y+ + Y−`` are independent, and each is a
balanced two-way crossed layout (worker, item) with residual variance 2σ²
(shared). For such a layout the likelihood depends on the data only through
the grand mean and three sums of squares (workers, items, residual), with
covariance eigenvalues

    λ_E = 2σ²,  λ_W = 2σ² + 4Iσ_w²,  λ_I = 2σ² + 4Wσ_i²,  λ_0 = λ_W + λ_I − λ_E,

(slopes for D, intercepts for S). So maximum likelihood (or REML) for the
five variance components is a one-dimensional search over σ² with the other
components in near-closed form — vectorized over all simulated replicates
instead of one mixed-model fit per replicate. β̂1 = mean(D)/2 with
Var(β̂1) = λ_0 / (4WI).

The package by job: ``_model`` (constants, validation, simulated sufficient statistics, the balanced fit and
the analytic tails the engines share; package-internal), ``power`` (the crossed design's engines, MDE, smallest
designs, budget plans), ``pilot`` (reading and fitting a pilot), ``crowd`` (k ratings per item from a pool),
``assurance``. Every public name is importable from ``core.ratings``.
"""

from __future__ import annotations

from ._model import (  # noqa: F401  (private helpers used by tests)
    DATASET_PRESETS,
    MAX_SIMULATED_CELLS,
    METHODS,
    PRESETS,
    RULES,
    RatingsResult,
    fit_balanced,
    simulate_statistics,
    _SIGMAS,
    _dfs,
    _objective,
    _stats_from_cells,
)
from .power import (  # noqa: F401
    analytic_grid,
    budget_plans,
    likert_mde,
    likert_power,
    smallest_design,
)
from .fitted import fitted_test_mde, fitted_test_power  # noqa: F401
from .pilot import (  # noqa: F401
    MAX_ABS_RATING,
    MAX_PILOT_RATINGS,
    PILOT_ROLES,
    PilotFit,
    fit_pilot,
    read_pilot,
)
from .crowd import (  # noqa: F401  (private helpers used by tests)
    crowd_analytic,
    crowd_plans,
    crowd_power,
    _crowd_fit,
)
from .assurance import (  # noqa: F401
    assurance_plans,
    crowd_assurance,
    likert_assurance,
)
from .design import (  # noqa: F401
    LAYOUT_LABELS,
    LAYOUTS,
    LIKERT_LABELS,
    PAY_LABELS,
    PRESET_LABELS,
    RULE_LABELS,
    SIGMA_HELP,
    SIGMA_LABELS,
    RatingsCostDesign,
    RatingsDesign,
)

__all__ = [
    "LAYOUTS",
    "LAYOUT_LABELS",
    "LIKERT_LABELS",
    "PRESET_LABELS",
    "RULE_LABELS",
    "SIGMA_HELP",
    "SIGMA_LABELS",
    "RatingsDesign",
    "PAY_LABELS",
    "RatingsCostDesign",
    "PILOT_ROLES",
    "read_pilot",
    "PRESETS",
    "DATASET_PRESETS",
    "RULES",
    "METHODS",
    "RatingsResult",
    "likert_power",
    "fitted_test_power",
    "fitted_test_mde",
    "likert_mde",
    "smallest_design",
    "budget_plans",
    "fit_pilot",
    "PilotFit",
    "MAX_PILOT_RATINGS",
    "MAX_ABS_RATING",
    "MAX_SIMULATED_CELLS",
    "simulate_statistics",
    "fit_balanced",
    "analytic_grid",
    "likert_assurance",
    "assurance_plans",
    "crowd_assurance",
    "crowd_power",
    "crowd_analytic",
    "crowd_plans",
]


"""The Accuracy page's design: every input of the page declared once (default, range, step, unit, label, help and
URL key), with the methods the page's outputs call.

:class:`AccuracyPageDesign` holds what a link to the Accuracy page holds, **in the units of the link**: accuracies,
agreement and shares in percent, differences and margins in percentage points ("pts"), so that
``AccuracyPageDesign.from_params(link)`` reads a page link or a pin as it is. The ``*_fraction`` properties give the
engines' fractions (rounded to 6 decimals, as the page has always done), and :meth:`AccuracyPageDesign.paired`,
:meth:`~AccuracyPageDesign.unpaired`, :meth:`~AccuracyPageDesign.preference` and
:meth:`~AccuracyPageDesign.noninferiority` build the scenario designs of :mod:`.paired`, :mod:`.unpaired`,
:mod:`.preferences` and :mod:`.noninferiority`. The other methods are thin delegations to those modules' functions
(Card et al. 2020, §2–3 and appendices B, C, E, H.4); nothing here adds statistics.

Examples
--------
>>> d = AccuracyPageDesign()
>>> d.scenario, d.n, d.delta, d.agreement
('paired', 500, 2.0, 90.0)
>>> round(d.power().power, 3)                       # appendix C: "approximately 0.25"
0.249
>>> AccuracyPageDesign.from_params({"scenario": "preference"}).n   # the page's default number of raters
100
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..datasets import SQUAD_DEV_SIZE, SQUAD_TEST_SIZE
from ..design import Design, spec
from .curves import paired_curves, preference_curves, unpaired_curves
from .engine import TESTS
from .intervals import INTERVAL_METHODS, coverage_curves, interval_coverage, interval_sample_size
from .leaderboards import squad_leaderboard, squad_pair, task_mde_table
from .noninferiority import (
    EXACT_TEST_N_MAX,
    NI_TESTS,
    NonInferiorityDesign,
    equivalence_power,
    equivalence_sample_sizes,
    noninferiority_power,
    noninferiority_sample_sizes,
)
from .paired import (
    AGREEMENT_SOURCES,
    PairedDesign,
    difference_distribution,
    mcnemar_assurance,
    mcnemar_mde,
    mcnemar_power,
    mcnemar_sample_size,
    mcnemar_sample_sizes,
    paired_design,
)
from .preferences import (
    TIES,
    PreferenceDesign,
    preference_assurance,
    preference_distribution,
    preference_mde,
    preference_power,
    preference_sample_size,
)
from .unpaired import UnpairedDesign, unpaired_assurance, unpaired_distribution, unpaired_sample_size

__all__ = ["AccuracyPageDesign", "SCENARIOS", "PREFERENCE_TESTS", "N_MIN", "N_MAX", "PREFERENCE_N", "CHOICE_LABELS",
           "SCENARIO_LABELS", "SOURCE_LABELS", "TEST_LABELS", "TIE_LABELS", "CLAIM_LABELS", "NI_TEST_LABELS",
           "SQUAD_SIZE_LABELS"]

SCENARIOS = ("paired", "unpaired", "preference")
#: The sign test's forms offered for preferences (the normal approximation is McNemar's closed form only).
PREFERENCE_TESTS = ("exact", "midp", "chi2", "chi2_cc")
#: Sizes a link may carry (the page's size slider offers log-spaced steps in this range).
N_MIN, N_MAX = 10, 2_000_000
#: The page's default number of raters in the preference scenario (items: 500).
PREFERENCE_N = 100
#: SQuAD 2.0 submissions of the leaderboard replay (:func:`core.datasets.squad_models`, ids 0–143).
_SQUAD_IDS = (0, 143)

#: The page's names of the three designs.
SCENARIO_LABELS = {"paired": "paired (McNemar)", "unpaired": "unpaired", "preference": "preferences"}
#: Where the agreement rate P_a of a paired design comes from (Card et al. 2020, appendix E).
SOURCE_LABELS = {"manual": "my estimate", "glue": "GLUE regression", "squad": "SQuAD 2.0 regression",
                 "lachenbruch_mid": "no prior: midpoint", "lachenbruch_low": "no prior: least agreement",
                 "lachenbruch_high": "no prior: most agreement"}
TEST_LABELS = {"exact": "exact (default)", "midp": "mid-p", "chi2": "chi-square", "chi2_cc": "chi-square, corrected",
               "normal": "normal approximation"}
TIE_LABELS = {"drop": "dropped", "split": "split by coin flip"}
CLAIM_LABELS = {"ni": "no worse than (non-inferiority)", "eq": "equivalent (TOST)"}
NI_TEST_LABELS = {"score": "score (Nam 1997 / Tango 1998)", "wald": "Wald",
                  "exact": "exact unconditional (n ≤ 2,000)"}
SQUAD_SIZE_LABELS = {"test": f"SQuAD 2.0 test set ({SQUAD_TEST_SIZE:,})",
                     "dev": f"dev-set size ({SQUAD_DEV_SIZE:,}), as the paper's counts"}
#: The widgets' labels of each choice field (by URL key): a bound choice widget writes its label into the link.
CHOICE_LABELS = {"scenario": SCENARIO_LABELS, "pa_source": SOURCE_LABELS, "test": TEST_LABELS, "ties": TIE_LABELS,
                 "ni_kind": CLAIM_LABELS, "ni_test": NI_TEST_LABELS, "squad_size": SQUAD_SIZE_LABELS}


def _fraction(value: float) -> float:
    """A percentage (or points) as the engines' fraction, rounded as the page rounds its sliders."""
    return round(value / 100.0, 6)


@dataclass(frozen=True)
class AccuracyPageDesign(Design):
    """Every input of the Accuracy page: the scenario, its design, the decision rule and the tabs' own settings.

    Fields are in the units of the page's widgets and links (% and percentage points); see the module notes. Only
    the fields of the current ``scenario`` are checked together (a link may carry the others at any valid value).

    Raises
    ------
    ValueError
        On a field out of its range (naming it), or a combination the scenario's engine refuses: paired, |Δ| above
        1 − P_a (:func:`~core.accuracy.paired_design`); unpaired, baseline + Δ outside (0%, 100%); preferences,
        ``p_new`` + ``tie_rate`` above 100%, every rater tied, or ``test="normal"``.
    """

    scenario: str = spec(
        "paired", choices=SCENARIOS, key="scenario", label="Scenario",
        help="Paired: both models scored on the same items (McNemar's test). Unpaired: each model on a different "
        "sample from the same distribution (two-proportion test, appendix E.5). Preferences: raters choose A, B or "
        "neither (Figure 1, appendix H.4).")
    n: int = spec(
        500, low=N_MIN, high=N_MAX, unit="items", key="n", label="Test-set size (n)",
        help="Log-spaced steps; includes the GLUE/SQuAD test-set sizes. A link may carry any size from 10 to "
        "2,000,000.")
    delta: float = spec(
        2.0, low=-20.0, high=20.0, step=0.1, unit="pts", key="delta",
        label="Expected accuracy difference Δ (percentage points)",
        help="New model minus baseline, in accuracy points. Use your honest expectation, not the hoped-for best case; "
        "recent SOTA gains on GLUE were typically 0.5–1.5 points (Table 2).")
    baseline: float = spec(
        90.0, low=50.0, high=99.9, step=0.1, unit="%", key="baseline", label="Baseline accuracy (%)",
        help="Accuracy of the current best model. Needed for the agreement priors and the unpaired test.")
    source: str = spec(
        "manual", choices=AGREEMENT_SOURCES, key="pa_source", label="Where does the agreement rate come from?",
        help="P_a, the share of items on which both models are right or both wrong. If you have both models' dev-set "
        "predictions, measure it there (§3.2). Otherwise use a regression on past leaderboard models (appendix "
        "E.2.1) or Lachenbruch's no-prior assumptions (appendix E.3).")
    agreement: float = spec(
        90.0, low=10.0, high=99.9, step=0.1, unit="%", key="agreement", label="Agreement rate P_a (%)",
        help="Share of test items on which the two models agree (both right or both wrong). Higher agreement means "
        "fewer discordant items and less noise. Must be at most 100 − |Δ|.")
    test: str = spec(
        "exact", choices=TESTS, key="test", label="Significance test",
        help="Exact: conditional binomial test on the discordant items (statsmodels `mcnemar(exact=True)`). Mid-p: its "
        "less conservative mid-p version (Fagerland et al. 2013). Chi-square: the asymptotic test, with or without "
        "continuity correction. Normal approximation: the closed form used for fast MDE tables (Connett et al. 1987).")
    p_new: float = spec(
        65.0, low=0.0, high=100.0, step=0.5, unit="%", key="p_new", label="Raters preferring the new system (%)",
        help="Figure 1 of Card et al. uses 65% preferring system B and no ties.")
    tie_rate: float = spec(
        0.0, low=0.0, high=90.0, step=0.5, unit="%", key="ties_pct", label="Raters saying 'neither' (%)",
        help="Ties. The rest prefer the baseline system.")
    ties: str = spec(
        "drop", choices=TIES, key="ties", label="Ties in the test",
        help="Dropped: sign test on the raters with a preference (default). Split: each tie counts for one side at "
        "random, then the binomial test on all raters.")
    alpha: float = spec(
        0.05, choices=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1), key="alpha", label="Significance level α (two-sided)",
        help="Reject 'no difference' when p ≤ α.")
    target_power: float = spec(
        0.8, low=0.5, high=0.99, step=0.01, key="target", label="Target power",
        help="80% is the common minimum (Cohen 1962). Used for the MDE and the required size.")
    # the "No worse than" tab (paired non-inferiority / equivalence)
    claim: str = spec(
        "ni", choices=("ni", "eq"), key="ni_kind", label="Claim",
        help="Non-inferiority: the new model loses at most the margin. Equivalence: the difference lies within ± the "
        "margin (two one-sided tests, Schuirmann 1987).")
    margin: float = spec(
        1.0, low=0.1, high=10.0, step=0.1, unit="pts", key="ni_margin", label="Margin (percentage points)",
        help="The largest loss you would accept, e.g. 1 point for a cheaper model.")
    ni_test: str = spec(
        "score", choices=NI_TESTS, key="ni_test", label="Test",
        help="Score: restricted maximum likelihood at the margin (recommended). Wald: the plain z test, liberal with "
        "few discordant items. Exact: never exceeds α.")
    ni_alpha: float = spec(
        0.025, choices=(0.005, 0.01, 0.025, 0.05, 0.1), key="ni_alpha", label="One-sided α per test",
        help="0.025 matches a two-sided 95% interval (non-inferiority); TOST at 0.05 per side matches a 90% interval.")
    # the "Small test sets" tab (one accuracy with its interval)
    confidence: float = spec(
        0.95, choices=(0.8, 0.9, 0.95, 0.99), key="ci_level", label="Confidence",
        help="Nominal coverage of the interval.")
    expected_accuracy: float = spec(
        90.0, low=50.0, high=99.9, step=0.1, unit="%", key="ci_p", label="Expected accuracy (%)",
        help="The accuracy you expect to report; intervals are widest at 50%.")
    half_width: float = spec(
        2.0, low=0.5, high=10.0, step=0.1, unit="pts", key="ci_half", label="Wanted precision ± (percentage points)",
        help="Half-width of the interval you want to report.")
    # the SQuAD 2.0 tab (validation-data approach and leaderboard replay)
    squad_baseline: int = spec(
        128, low=_SQUAD_IDS[0], high=_SQUAD_IDS[1], step=1, unit="submission", key="squad_base",
        label="Baseline submission", help="Usually the current state of the art.")
    squad_new: int = spec(
        134, low=_SQUAD_IDS[0], high=_SQUAD_IDS[1], step=1, unit="submission", key="squad_new",
        label="New submission", help="The model you want to show is better.")
    squad_size: str = spec(
        "test", choices=("test", "dev"), key="squad_size", label="Test-set size used for power",
        help="The paper's numbers (19 of 143 submissions with ≥ 80% power; 14 of them significant on test) are "
        "reproduced with the dev-set size. The hidden test set has 8,862 questions.")

    def __post_init__(self):
        self.check_fields()
        if self.scenario == "paired":
            self.paired()  # raises when |Δ| > 1 − P_a (two models differ only where they disagree)
        elif self.scenario == "unpaired":
            if not 0.0 < self.baseline_fraction + self.delta_fraction < 1.0:
                raise ValueError(f"`delta` must keep baseline + Δ between 0% and 100%: baseline {self.baseline:.1f}% "
                                 f"+ Δ {self.delta:+.1f} pp is not.")
        else:
            if self.test not in PREFERENCE_TESTS:
                raise ValueError(f"`test` must be one of {', '.join(map(repr, PREFERENCE_TESTS))} for preferences, "
                                 f"got {self.test!r}.")
            if 1.0 - self.p_new / 100.0 - self.tie_rate / 100.0 < -1e-9:
                raise ValueError(f"`tie_rate` must leave room for the preferences: {self.p_new:.1f}% preferring the "
                                 f"new system + {self.tie_rate:.1f}% ties exceeds 100% of raters.")
            if self.p_new_fraction + self.p_old_fraction <= 0:
                raise ValueError("`tie_rate` must be below 100%: every rater says 'neither', nothing to test.")

    @classmethod
    def from_params(cls, params=None, *, messages=None):
        """The design a link or pin describes (see :meth:`core.design.Design.from_params`).

        A choice may be named by its value (``test=midp``) or by the widget's label (``test=mid-p``, as a bound
        widget writes it, :data:`CHOICE_LABELS`). As the page: a preference link without ``n`` has
        :data:`PREFERENCE_N` raters.
        """
        params = dict(params or {})
        for key, labels in CHOICE_LABELS.items():
            raw = params.get(key)
            raw = raw[-1] if isinstance(raw, (list, tuple)) and raw else raw
            by_label = {label: value for value, label in labels.items()}
            if isinstance(raw, str) and raw.strip() in by_label:
                params[key] = by_label[raw.strip()]
        if "n" not in params and str(params.get("scenario", "")).strip() == "preference":
            params["n"] = str(PREFERENCE_N)
        return super().from_params(params, messages=messages)

    # --- fractions for the engines -------------------------------------------------------------------------
    @property
    def delta_fraction(self) -> float:
        """Δ as a fraction (new minus old accuracy)."""
        return _fraction(self.delta)

    @property
    def baseline_fraction(self) -> float:
        return _fraction(self.baseline)

    @property
    def agreement_fraction(self) -> float | None:
        """The entered P_a as a fraction, or None when it comes from a prior (``source != "manual"``)."""
        return _fraction(self.agreement) if self.source == "manual" else None

    @property
    def p_new_fraction(self) -> float:
        return self.p_new / 100.0

    @property
    def tie_fraction(self) -> float:
        return self.tie_rate / 100.0

    @property
    def p_old_fraction(self) -> float:
        """Share of raters preferring the old system: what is left after ``p_new`` and the ties."""
        return max(round(1.0 - self.p_new_fraction - self.tie_fraction, 6), 0.0)

    @property
    def margin_fraction(self) -> float:
        return _fraction(self.margin)

    @property
    def effect(self) -> float:
        """The effect the scenario tests, as a fraction: Δ, or the preference gap ``p_new − p_old``."""
        if self.scenario == "preference":
            return self.p_new_fraction - self.p_old_fraction
        return self.delta_fraction

    @property
    def effect_points(self) -> float:
        """The effect in percentage points, as the page's prior is set (Δ, or p_new − p_old)."""
        if self.scenario == "preference":
            return round(self.p_new - (100.0 - self.p_new - self.tie_rate), 6)
        return self.delta

    # --- the scenario designs -------------------------------------------------------------------------------
    def paired(self) -> PairedDesign:
        """:func:`~core.accuracy.paired_design`: P_a entered or from the prior named by ``source``."""
        return paired_design(self.source, delta=self.delta_fraction, agreement=self.agreement_fraction,
                             baseline=self.baseline_fraction)

    def unpaired(self) -> UnpairedDesign:
        return UnpairedDesign(self.baseline_fraction, self.delta_fraction, alpha=self.alpha)

    def preference(self) -> PreferenceDesign:
        return PreferenceDesign(self.p_new_fraction, self.p_old_fraction, ties=self.ties, test=self.test,
                                alpha=self.alpha)

    def noninferiority(self, *, test: str | None = None) -> NonInferiorityDesign:
        """The paired "no worse than" claim of the tab (P_a resolved as in :meth:`paired`)."""
        return NonInferiorityDesign(self.claim, self.delta_fraction, self.paired().agreement, self.margin_fraction,
                                    alpha=self.ni_alpha, test=test or self.ni_test)

    def only(self, *names: str, **values) -> AccuracyPageDesign:
        """The default design with this design's ``names`` (and the given ``values``): the cache key of an output
        that reads only those fields. The names must include every field the scenario's checks read together."""
        return type(self)(**{name: getattr(self, name) for name in names}, **values)

    def for_scenario(self) -> AccuracyPageDesign:
        """The same design with the inputs the scenario's headline does not read set to their defaults: the cache
        key of the headline outputs (moving a tab's own setting, or another scenario's, recomputes nothing)."""
        keep = ("scenario", "n", "alpha", "target_power") + {
            "paired": ("delta", "baseline", "source", "test") + (("agreement",) if self.source == "manual" else ()),
            "unpaired": ("delta", "baseline"),
            "preference": ("p_new", "tie_rate", "ties", "test")}[self.scenario]
        return self.only(*keep)

    #: The MDE reads no effect (Δ = 0; preferences: the raters who are not tied split evenly); the sample sizes read
    #: no n (:meth:`key_for`).
    UNREAD = {"mde": {"delta": 0.0, "p_new": lambda d: round((100.0 - d.tie_rate) / 2.0, 6)},
              "sample_sizes": {"n": None}}

    def key_for(self, output: str) -> AccuracyPageDesign:
        """The cache key of ``output`` among the headline's outputs: :meth:`for_scenario` without the fields the
        output does not read (:attr:`UNREAD`)."""
        return Design.key_for(self.for_scenario(), output)

    # --- the headline: power, MDE, sample sizes, curves, assurance ------------------------------------------
    def _n(self, n):
        return self.n if n is None else n

    def _target(self, target_power):
        return self.target_power if target_power is None else target_power

    def power(self, n: int | None = None):
        """Power, Type-S and Type-M at ``n`` (default the design's): :func:`~core.accuracy.mcnemar_power`,
        :func:`~core.accuracy.unpaired_power` or :func:`~core.accuracy.preference_power`."""
        n = self._n(n)
        if self.scenario == "paired":
            return mcnemar_power(n, self.delta_fraction, self.paired().agreement, alpha=self.alpha, test=self.test)
        if self.scenario == "unpaired":
            return self.unpaired().power(n)
        return self.preference().power(n)

    def mde(self, n: int | None = None, target_power: float | None = None) -> float:
        """Smallest effect (fraction) detected with ``target_power`` at ``n``; the paired prior is re-evaluated at
        each candidate Δ (:attr:`PairedDesign.mde_kwargs`)."""
        n, target = self._n(n), self._target(target_power)
        if self.scenario == "paired":
            return mcnemar_mde(n, **self.paired().mde_kwargs, target_power=target, alpha=self.alpha, test=self.test)
        if self.scenario == "unpaired":
            return self.unpaired().mde(n, target_power=target)
        return preference_mde(n, tie_rate=self.tie_fraction, target_power=target, alpha=self.alpha, ties=self.ties,
                              test=self.test)

    def sample_sizes(self, target_power: float | None = None):
        """First n reaching ``target_power`` and the n from which power stays there (:class:`core.sizing.SampleSize`);
        None at a null effect (no size detects it)."""
        target = self._target(target_power)
        if self.effect == 0:
            return None
        if self.scenario == "paired":
            return mcnemar_sample_sizes(self.delta_fraction, self.paired().agreement, target_power=target,
                                        alpha=self.alpha, test=self.test)
        if self.scenario == "unpaired":
            return self.unpaired().sample_sizes(target_power=target)
        return self.preference().sample_sizes(target_power=target)

    def sample_size(self, target_power: float | None = None) -> int:
        """The first n reaching ``target_power`` (``*_sample_size``), −1 at a null effect."""
        target = self._target(target_power)
        if self.effect == 0:
            return -1
        if self.scenario == "paired":
            return mcnemar_sample_size(self.delta_fraction, self.paired().agreement, target_power=target,
                                       alpha=self.alpha, test=self.test)
        if self.scenario == "unpaired":
            return unpaired_sample_size(self.baseline_fraction, self.delta_fraction, target_power=target,
                                        alpha=self.alpha)
        return preference_sample_size(self.p_new_fraction, self.p_old_fraction, target_power=target,
                                      alpha=self.alpha, ties=self.ties, test=self.test)

    def curve_sizes(self, n: int | None = None, points: int = 36) -> tuple[int, ...]:
        """Log-spaced sizes from n/30 to 30 n (within [10, :data:`N_MAX`]), with n itself."""
        n = self._n(n)
        lo, hi = max(N_MIN, n // 30), min(N_MAX, max(n * 30, 200))
        return tuple(sorted(set(np.unique(np.geomspace(lo, hi, points).astype(int)).tolist() + [n])))

    def curves(self, ns=None, *, family: bool = True) -> pd.DataFrame:
        """Power, Type-S and Type-M over ``ns`` (default :meth:`curve_sizes`), tidy, one row per size and design.

        ``family=True``: the design's effect halved and doubled as well (paired: :meth:`PairedDesign.family`; a
        null effect is drawn at 2 points, preferences at a 10-point gap); ``family=False``: the design alone.
        """
        ns = list(self.curve_sizes() if ns is None else ns)
        if self.scenario == "paired":
            pd_ = self.paired()
            pairs = pd_.family() if family else [(self.delta_fraction, pd_.agreement)]
            return paired_curves(ns, pairs, alpha=self.alpha, test=self.test)
        if self.scenario == "unpaired":
            if family:
                # the design's effect with its sign (a new model below the baseline draws falling accuracies),
                # halved and doubled while the new accuracy stays inside (0, 1)
                base = self.delta_fraction if self.delta_fraction != 0 else 0.02
                deltas = sorted({round(base * m, 4) for m in (0.5, 1.0, 2.0)
                                 if 0 < self.baseline_fraction + base * m < 1}, key=abs)
            else:
                deltas = [self.delta_fraction]
            return unpaired_curves(ns, self.baseline_fraction, deltas, alpha=self.alpha)
        if family:
            share = 1 - self.tie_fraction
            gap = abs(self.effect) if self.effect != 0 else 0.1
            gaps = sorted({round(gap * m, 4) for m in (0.5, 1.0, 2.0) if gap * m <= share})
            designs = [((share + g) / 2, (share - g) / 2) for g in gaps]
        else:
            designs = [(self.p_new_fraction, self.p_old_fraction)]
        return preference_curves(ns, designs, alpha=self.alpha, ties=self.ties, test=self.test)

    def distribution(self, n: int | None = None) -> pd.DataFrame:
        """What experiments of size n would observe, split into significant and not (Card et al. Figure 1)."""
        n = self._n(n)
        if self.scenario == "paired":
            return difference_distribution(n, self.delta_fraction, self.paired().agreement, alpha=self.alpha,
                                           test=self.test)
        if self.scenario == "unpaired":
            return unpaired_distribution(n, self.baseline_fraction, self.delta_fraction, alpha=self.alpha)
        return preference_distribution(n, self.p_new_fraction, self.p_old_fraction, alpha=self.alpha, ties=self.ties,
                                       test=self.test)

    def assurance(self, n: int | None, mean: float, sd: float):
        """Power averaged over a normal prior N(mean, sd²) on the effect (fractions): ``*_assurance``."""
        n = self._n(n)
        if self.scenario == "paired":
            return mcnemar_assurance(n, mean, sd, self.paired().agreement, alpha=self.alpha, test=self.test)
        if self.scenario == "unpaired":
            return unpaired_assurance(n, self.baseline_fraction, mean, sd, alpha=self.alpha)
        return preference_assurance(n, mean, sd, tie_rate=self.tie_fraction, alpha=self.alpha, ties=self.ties,
                                    test=self.test)

    def simulate(self, *, n_sims: int, seed: int):
        """The paper's simulation (Figure 2) of the paired or preference design: ``method="simulate"``."""
        if self.scenario == "paired":
            return mcnemar_power(self.n, self.delta_fraction, self.paired().agreement, alpha=self.alpha,
                                 test=self.test, method="simulate", n_sims=n_sims, seed=seed)
        if self.scenario == "preference":
            return preference_power(self.n, self.p_new_fraction, self.p_old_fraction, alpha=self.alpha,
                                    ties=self.ties, test=self.test, method="simulate", n_sims=n_sims, seed=seed)
        raise ValueError("`scenario` must be 'paired' or 'preference' to simulate, got 'unpaired'.")

    # --- the tabs -------------------------------------------------------------------------------------------
    def noninferiority_test(self) -> str:
        """The tab's test at this n: the exact test is offered up to ``EXACT_TEST_N_MAX`` items, the score test
        above."""
        return "score" if self.ni_test == "exact" and self.n > EXACT_TEST_N_MAX else self.ni_test

    def noninferiority_power(self, delta: float | None = None):
        """Power of the claim at the design's Δ (or ``delta``, a fraction; ``-margin`` gives the test's size)."""
        fn = noninferiority_power if self.claim == "ni" else equivalence_power
        d = self.noninferiority(test=self.noninferiority_test())
        return fn(self.n, d.delta if delta is None else delta, d.agreement, d.margin, alpha=d.alpha, test=d.test)

    def noninferiority_sample_sizes(self, target_power: float | None = None):
        """Sizes reaching the target power for the claim (the score test stands in for the exact one)."""
        fn = noninferiority_sample_sizes if self.claim == "ni" else equivalence_sample_sizes
        test = "score" if self.noninferiority_test() == "exact" else self.noninferiority_test()
        d = self.noninferiority(test=test)
        return fn(d.delta, d.agreement, d.margin, target_power=self._target(target_power), alpha=d.alpha,
                  test=d.test, method="exact")

    def noninferiority_curve(self) -> pd.DataFrame:
        """Power of the claim over the true Δ (``delta_pp``, ``power``): left of −margin the false-claim rate."""
        agreement, margin = self.paired().agreement, self.margin_fraction
        psi = 1.0 - agreement
        top = min(psi, 3 * margin)
        deltas = np.unique(np.round(np.concatenate([np.linspace(-min(psi, 2 * margin), top, 61), [-margin, 0.0]]), 8))
        if self.claim == "eq":
            deltas = np.unique(np.concatenate([deltas, -deltas]))
            deltas = deltas[np.abs(deltas) <= 2 * margin]
        deltas = deltas[np.abs(deltas) <= psi + 1e-12]  # two models can only differ where they disagree
        power = [self.noninferiority_power(float(d)).power for d in deltas]
        return pd.DataFrame({"delta_pp": 100 * deltas, "power": power})

    def interval_n(self) -> int:
        """The size at which coverage is drawn (exact coverage sums are capped at 20,000 items)."""
        return min(self.n, 20_000)

    def coverage_curves(self) -> pd.DataFrame:
        return coverage_curves(self.interval_n(), confidence=self.confidence)

    def coverage_at(self, method: str) -> float:
        """Exact coverage of ``method``'s interval at the expected accuracy and :meth:`interval_n`."""
        return interval_coverage(self.interval_n(), self.expected_accuracy / 100, method=method,
                                 confidence=self.confidence)

    def interval_sizes(self) -> dict:
        """Items for an interval of ± ``half_width`` at the expected accuracy, by method."""
        p, half = _fraction(self.expected_accuracy), _fraction(self.half_width)
        return {m: interval_sample_size(p, half, method=m, confidence=self.confidence) for m in INTERVAL_METHODS}

    def benchmarks(self) -> pd.DataFrame:
        """Card et al. Table 2 at this target power and α (:func:`~core.accuracy.task_mde_table`)."""
        return task_mde_table(target_power=self.target_power, alpha=self.alpha)

    def squad_board(self) -> pd.DataFrame:
        """The SQuAD 2.0 leaderboard replay (Figure 10) on the test set, or at the dev set's size
        (``squad_size="dev"``, as the paper's counts)."""
        return squad_leaderboard(n=SQUAD_DEV_SIZE if self.squad_size == "dev" else None,
                                 target_power=self.target_power, alpha=self.alpha, test="exact")

    def squad_pair_power(self):
        """The chosen submissions' dev Δ and P_a (§3.2) and the power of the comparison on the SQuAD 2.0 test set
        (None when the dev accuracies are equal)."""
        pair = squad_pair(self.squad_baseline, self.squad_new)
        power = mcnemar_power(SQUAD_TEST_SIZE, pair.delta_dev, pair.agreement_dev, alpha=self.alpha) \
            if pair.delta_dev != 0 else None
        return pair, power


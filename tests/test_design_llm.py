"""core.llm.BenchmarkDesign as a core.design.Design: declared fields (the LLM page's URL keys), links and pins,
ranges that agree with the engines, methods equal to the engines; and core.llm's import graph has no circle.

Oracles: the engine functions themselves (tested against independent derivations in test_llm.py), and the page's
widget keys as the tests of the page (tests/app/test_llm_page.py) and its links use them.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_architecture import _cycles, function_level_imports, sibling_graph
from core import llm
from core.design import Design
from core.runnable import item_list

D = llm.BenchmarkDesign

#: field → the page's widget key (the URL parameter links and pins carry)
KEYS = {"accuracy_a": "acc_a", "delta": "gain", "difficulty_sd": "sd", "correlation": "rho", "samples": "k",
        "cluster_size": "m", "icc": "icc", "judged": "judge", "judge_sensitivity": "se", "judge_specificity": "sp",
        "alpha": "alpha", "n": "n", "cost_question": "cost_q", "cost_sample": "cost_s"}
#: the page's defaults (pages/llm.py before the design declared them)
PAGE_DEFAULTS = dict(accuracy_a=0.70, delta=0.03, difficulty_sd=0.25, correlation=0.6, samples=1, cluster_size=1,
                     icc=0.2, judged=False, judge_sensitivity=0.9, judge_specificity=0.9, alpha=0.05, n=1000,
                     cost_question=0.5, cost_sample=0.01)
KW = dict(difficulty_sd=0.25, correlation=0.6, samples=3, cluster_size=4, icc=0.2, judge_sensitivity=0.9,
          judge_specificity=0.85, alpha=0.05)


def test_a_design_with_every_page_input_declared_once():
    assert issubclass(D, Design)
    assert {f.name: f.key for f in D.fields()} == KEYS
    assert {f.name: f.default for f in D.fields()} == PAGE_DEFAULTS
    for f in D.fields():
        assert isinstance(f.unit, str) and f.label and f.help, f.name
        if f.kind in ("float", "int"):
            assert f.step is not None and f.low is not None and f.high is not None, f.name
    assert D.field("accuracy_a").unit == "%" and D.field("delta").unit == "pts"
    assert D.field("n").unit == "questions" and D.field("samples").unit == "answers"
    # widget units: the sliders show percent and points
    assert D.field("accuracy_a").widget_low == 1.0 and D.field("delta").widget_high == 30.0
    assert D.field("judge_sensitivity").widget_step == 0.5


def test_default_design_and_round_trips():
    assert D.from_params({}) == D() == D(**PAGE_DEFAULTS)
    assert D().to_params()["acc_a"] == "70" and D().to_params()["gain"] == "3"
    designs = [D(accuracy_a=0.855, delta=-0.025, difficulty_sd=0.1, correlation=-0.3, samples=8, cluster_size=10,
                 icc=0.35, judged=True, judge_sensitivity=0.82, judge_specificity=0.975, alpha=0.01, n=12_345,
                 cost_question=2.0, cost_sample=0.003),
               D(accuracy_a=0.5, delta=0.5, difficulty_sd=0.0, samples=50, n=2),
               D(accuracy_a=0.31, delta=0.0025, judged=True, alpha=0.1, n=10_000_000, cost_question=0.0),
               D(0.70, 0.73, **KW)]
    for d in designs:
        p = d.to_params()
        assert all(isinstance(v, str) for v in p.values()) and set(p) == set(KEYS.values())
        assert D.from_params(p) == d, d
    assert D.from_params(D().to_params()) == D()
    # links carry the widgets' units to 12 decimals, as the widgets do
    assert D.from_params(D(delta=1 / 300).to_params()).delta == round(1 / 300, 12)


def test_pins_and_links_in_widget_units():
    """A pin keeps st.session_state's widget values as text: percent, points, 'True'."""
    pin = {"n": "2000", "acc_a": "60.0", "gain": "5.0", "sd": "0.1", "rho": "0.2", "k": "5", "m": "10",
           "icc": "0.3", "judge": "True", "se": "85.0", "sp": "90.0", "alpha": "0.01", "zzz": "1"}
    d = D.from_params(pin)
    assert d == D(accuracy_a=0.6, delta=0.05, difficulty_sd=0.1, correlation=0.2, samples=5, cluster_size=10,
                  icc=0.3, judged=True, judge_sensitivity=0.85, judge_specificity=0.9, alpha=0.01, n=2000)
    assert d.accuracy_b == 0.65
    assert D.from_params({"n": ["500", "1234"]}).n == 1234  # parse_qs gives lists: the last counts


def test_bad_values_fall_back_with_a_message_naming_the_parameter():
    notes = []
    d = D.from_params({"n": "1e308", "acc_a": "150", "gain": "nan", "k": "2000", "judge": "perhaps",
                       "se": "-5", "alpha": "0.7", "rho": "abc"}, messages=notes)
    assert d == D()
    names = ["`n`", "`accuracy_a`", "`delta`", "`correlation`", "`samples`", "`judged`", "`judge_sensitivity`",
             "`alpha`"]
    assert len(notes) == len(names)
    for name in names:
        assert any(note.startswith(name) and "the default" in note for note in notes), name
    # values the design refuses together with the ones before it fall back too
    notes = []  # 99% + 3 points is no design: the baseline falls back, the gain stays
    assert D.from_params({"acc_a": "99", "gain": "5"}, messages=notes) == D(delta=0.05)
    assert len(notes) == 1 and "`delta` must keep the new model's accuracy in [0, 1]" in notes[0]
    notes = []  # σ = 0.5 needs accuracies of 50%
    assert D.from_params({"acc_a": "70", "sd": "0.5"}, messages=notes) == D()
    assert "`difficulty_sd`" in notes[0]
    assert D.from_params({"acc_a": "50", "gain": "0", "sd": "0.5"}, messages=notes) == D(
        accuracy_a=0.5, delta=0.0, difficulty_sd=0.5)
    notes = []
    assert D.from_params({"m": "100", "n": "50"}, messages=notes) == D(cluster_size=100)
    assert "`n` must give at least 2 clusters" in notes[0]


# (field, a value just outside its range, the engine's keyword, the extreme inside it, other engine keywords)
RANGES = [
    ("accuracy_a", -0.001, "accuracy_a", 0.0, dict(accuracy_b=0.0)),
    ("accuracy_a", 1.001, "accuracy_a", 1.0, dict(accuracy_b=1.0)),
    ("difficulty_sd", -0.01, "difficulty_sd", 0.5, dict(accuracy_a=0.5, accuracy_b=0.5)),
    ("difficulty_sd", 0.51, "difficulty_sd", 0.0, {}),
    ("correlation", -1.01, "correlation", -1.0, {}),
    ("correlation", 1.01, "correlation", 1.0, {}),
    ("samples", 0, "samples", 1, {}),
    ("samples", 1001, "samples", 1000, {}),
    ("cluster_size", 0, "cluster_size", 1, {}),
    ("icc", -0.01, "icc", 0.0, {}),
    ("icc", 1.01, "icc", 1.0, dict(cluster_size=5)),
    ("judge_sensitivity", 1.01, "judge_sensitivity", 1.0, {}),
    ("judge_specificity", -0.01, "judge_specificity", 0.5, dict(judge_sensitivity=0.6)),
    ("alpha", 0.0, "alpha", 0.5, {}),
    ("alpha", 0.51, "alpha", 1e-9, {}),
]


@pytest.mark.parametrize("name, outside, engine_name, inside, others", RANGES)
def test_ranges_agree_with_the_engine(name, outside, engine_name, inside, others):
    kw = {"judged": True} if name.startswith("judge") else {}
    with pytest.raises(ValueError, match=f"`{name}`"):
        D(**kw, **{name: outside})
    base = dict(accuracy_a=0.7, accuracy_b=0.73)
    with pytest.raises(ValueError, match=f"`{engine_name}`"):  # the engine refuses it too
        llm.benchmark_power(1000, **{**base, **others, engine_name: outside})
    res = llm.benchmark_power(1000, **{**base, **others, engine_name: inside})  # the extreme inside is accepted
    assert 0.0 <= res.power <= 1.0
    engine_kw = {**base, **others, engine_name: inside}
    design_kw = {**{k: v for k, v in engine_kw.items() if k not in ("accuracy_a", "accuracy_b")}, **kw,
                 "accuracy_a": engine_kw["accuracy_a"], "delta": engine_kw["accuracy_b"] - engine_kw["accuracy_a"]}
    design_kw.setdefault("difficulty_sd", 0.0)
    assert getattr(D(**{**design_kw, name: inside}), name) == inside  # and the design accepts it
    field = D.field(name)
    assert field.low <= inside <= field.high


def test_n_and_costs_agree_with_the_engine():
    with pytest.raises(ValueError, match="`n`"):
        D(n=1)
    with pytest.raises(ValueError, match="`n`"):
        D(n=10_000_001)
    for bad in (1, 10_000_001):
        with pytest.raises(ValueError, match="`n_questions`"):
            llm.benchmark_power(bad, 0.7, 0.73)
    assert D(n=2).power().power >= 0 and D(n=10_000_000).power().power <= 1
    with pytest.raises(ValueError, match="`cost_question`"):
        D(cost_question=-0.01)
    with pytest.raises(ValueError, match="`cost_question`"):
        llm.benchmark_plan(0.7, 0.73, cost_question=-0.01, cost_sample=0.01)
    with pytest.raises(ValueError, match="`cost_sample`"):
        D(cost_sample=-0.001)
    assert D(cost_question=0.0).plan().n_questions > 0
    with pytest.raises(ValueError, match="`delta`"):
        D(accuracy_a=0.9, delta=0.2)


def test_methods_delegate_to_the_engines():
    d = D(accuracy_a=0.70, delta=0.03, difficulty_sd=0.25, correlation=0.6, samples=3, cluster_size=4, icc=0.2,
          judged=True, judge_sensitivity=0.9, judge_specificity=0.85, n=1200, cost_question=1.0, cost_sample=0.02)
    kw = {**KW, "judge_sensitivity": 0.9, "judge_specificity": 0.85}
    no_b = kw
    no_k = {k: v for k, v in kw.items() if k != "samples"}
    assert d.accuracy_b == 0.73
    assert d.power() == llm.benchmark_power(1200, 0.70, 0.73, **kw)
    assert d.power(500) == llm.benchmark_power(500, 0.70, 0.73, **kw)
    assert d.sample_sizes(target_power=0.9) == llm.benchmark_sample_sizes(0.70, 0.73, **kw, target_power=0.9)
    assert d.sample_size() == llm.benchmark_sample_size(0.70, 0.73, **kw)
    assert d.mde(target_power=0.8) == llm.benchmark_mde(1200, 0.70, **no_b)
    best = d.plan(target_power=0.8)
    ref = llm.benchmark_plan(0.70, 0.73, **no_k, cost_question=1.0, cost_sample=0.02, max_samples=50)
    assert (best.n_questions, best.samples, best.cost) == (ref.n_questions, ref.samples, ref.cost)
    assert d.curves([200, 2000]).equals(llm.power_curve([200, 2000], 0.70, 0.73, **no_k, samples_list=(3,)))
    assert d.power_curve([300]).equals(llm.power_curve([300], 0.70, 0.73, **no_k))
    assert d.variance_budget().equals(llm.variance_budget(0.70, 0.73, **{k: v for k, v in no_k.items()
                                                                        if k != "alpha"}))
    assert d.judge_curve([400, 4000]).equals(llm.judge_curve([400, 4000], 0.70, 0.73, **kw))
    assert d.assurance(None, 0.03, 0.01) == llm.benchmark_assurance(1200, 0.70, 0.03, 0.01, **kw)
    no_alpha = {k: v for k, v in kw.items() if k != "alpha"}
    assert d.noninferiority_power(1000, 0.02) == llm.benchmark_noninferiority_power(1000, 0.70, 0.73, 0.02,
                                                                                     **no_alpha)
    assert d.noninferiority_sample_size(0.02, alpha=0.05) == llm.benchmark_noninferiority_sample_size(
        0.70, 0.73, 0.02, alpha=0.05, **no_alpha)


def test_effective_values_as_the_page_uses_them():
    """Without a judge the grading is exact whatever Se and Sp say; with one question per cluster ICC plays no part."""
    d = D(judge_sensitivity=0.6, judge_specificity=0.6, cluster_size=1, icc=0.5)
    assert not d.judged and (d.se, d.sp, d.j) == (1.0, 1.0, 1.0)
    assert d.kwargs()["judge_sensitivity"] == 1.0 and d.kwargs()["icc"] == 0.0
    assert d.power() == llm.benchmark_power(1000, 0.70, 0.73, difficulty_sd=0.25, correlation=0.6)
    assert d.with_(judged=True).j == pytest.approx(0.2)
    with pytest.raises(ValueError, match="`judge_sensitivity` \\+ `judge_specificity` must exceed 1"):
        d.with_(judged=True, judge_sensitivity=0.5, judge_specificity=0.5)


def test_the_engines_way_keeps_the_engines_defaults():
    d = D(0.70, 0.73)
    assert (d.difficulty_sd, d.correlation, d.icc, d.se, d.sp, d.judged) == (0.0, 0.0, 0.0, 1.0, 1.0, False)
    assert d.power(800) == llm.benchmark_power(800, 0.70, 0.73)
    j = D(0.70, 0.73, judge_sensitivity=0.8)
    assert j.judged and (j.se, j.sp) == (0.8, 1.0)
    assert j.power(800) == llm.benchmark_power(800, 0.70, 0.73, judge_sensitivity=0.8)
    assert d.accuracy_b == 0.73 and d.with_(accuracy_b=0.75).accuracy_b == 0.75
    assert d.with_(accuracy_a=0.6).accuracy_b == pytest.approx(0.63)  # the gain is kept
    with pytest.raises(ValueError, match="`accuracy_b`"):
        D(0.7, 1.2)
    with pytest.raises(ValueError, match="not both"):
        D(0.7, 0.73, delta=0.03)


# ---------------------------------------------------------------------------
# the package's imports: no circle
# ---------------------------------------------------------------------------
PACKAGE = Path(llm.__file__).resolve().parent


def _modules() -> list[str]:
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def test_no_module_of_the_package_imports_one_that_imports_it_back():
    graph = sibling_graph("core.llm")
    assert "_common" in graph and "design" in graph
    assert graph["_common"] == set(), "the shared pieces import no sibling"
    assert "design" not in set().union(*(d for m, d in graph.items() if m != "__init__")), \
        "no engine imports the design"
    assert {"power", "sizing", "curves"} <= graph["design"]
    circles = _cycles({m: d - {"__init__"} for m, d in graph.items() if m != "__init__"})
    assert circles == [], f"modules on an import circle: {circles}"


def test_no_function_level_imports_inside_the_package():
    # the project's own modules (a lazy import of a heavy third-party library, statsmodels, is no circle)
    assert function_level_imports("core.llm") == []


def test_every_module_imports_in_a_fresh_interpreter():
    code = ("import importlib, sys\n"
            "for name in sys.argv[1:]:\n"
            "    for key in [k for k in sys.modules if k == 'core' or k.startswith('core.')]:\n"
            "        del sys.modules[key]\n"
            "    importlib.import_module(name)\n"
            "from core import llm\n"
            f"missing = [n for n in {sorted(llm.__all__)!r} if not hasattr(llm, n)]\n"
            "assert not missing, missing\n")
    names = [f"core.llm.{m}" for m in _modules()] + ["core.llm"]
    out = subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True,
                         cwd=PACKAGE.parents[1], timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]


def test_public_names_unchanged():
    for name in llm.__all__:
        assert hasattr(llm, name), name
    for name in ("_N_MAX", "_Design", "_check_n", "_check_target", "_closed_form", "_clusters", "_t_tails",
                 "_validate", "_variance_parts", "_binomial", "_calibrate", "_draw_probabilities",
                 "_mean_and_cluster_se", "_clusters_needed", "_ALIASES", "_find_columns", "_task_of"):
        assert hasattr(llm, name), name
    from core.llm.design import FILES_PER_MODEL, MAX_SIMULATED_QUESTIONS, METHODS, SAMPLE_DIR  # noqa: F401
    assert math.isfinite(llm.BenchmarkDesign().power().power)


def test_the_plan_reads_the_grading_in_effect():
    """The page's default design keeps Se = Sp = 90% for when the judge is switched on; without it the plan
    mentions no judge."""
    from core.llm.plan import plan_item

    d = D()
    text = plan_item(d, d.power(), target_power=0.8).paragraph
    assert "judge" not in text
    j = d.with_(judged=True)
    text = plan_item(j, j.power(), target_power=0.8).paragraph
    assert "sensitivity 90% and specificity 90%" in text


# ---------------------------------------------------------------------------
# the "Prompts and seeds" tab: core.llm.FacetDesign
# ---------------------------------------------------------------------------
F = llm.FacetDesign
FACET_KEYS = {"delta": "fc_gain", "templates": "fc_t", "n": "fc_n", "samples": "fc_k", "sd_template": "fc_sd_t",
              "sd_item": "fc_sd_i", "sd_item_template": "fc_sd_it", "sd_sample": "fc_sd_s", "recipe": "fc_recipe",
              "seeds": "fc_seeds", "sd_seed": "fc_sd_seed", "alpha": "alpha", "calls": "fc_calls",
              "cost_call": "fc_cost"}


def test_facet_design_fields_keys_and_defaults():
    assert {f.name: f.key for f in F.fields()} == FACET_KEYS
    d = F()
    assert F.from_params({}) == d
    # the tab's defaults: SDs of FACET_DEFAULTS in points (1, 22, 17, 50, 0.7)
    assert d.to_params()["fc_sd_t"] == "1" and d.to_params()["fc_sd_s"] == "50" and d.to_params()["fc_sd_seed"] == "0.7"
    assert d.components() == pytest.approx(llm.FACET_DEFAULTS)
    for f in F.fields():
        assert isinstance(f.unit, str) and f.label and f.help, f.name
    other = F(delta=-0.035, templates=5, n=3000, samples=4, sd_template=0.025, sd_item=0.3, sd_item_template=0.1,
              sd_sample=0.45, recipe=True, seeds=7, sd_seed=0.012, alpha=0.01, calls=123_000, cost_call=0.05)
    assert F.from_params(other.to_params()) == other
    notes = []
    assert F.from_params({"fc_t": "0", "fc_gain": "abc", "fc_seeds": "1", "fc_sd_i": "150"}, messages=notes) == d
    assert [n.split(" ")[0] for n in notes] == ["`delta`", "`templates`", "`sd_item`", "`seeds`"]
    with pytest.raises(ValueError, match="must not all be 0"):
        F(sd_template=0, sd_item=0, sd_item_template=0, sd_sample=0)


@pytest.mark.parametrize("name, outside, engine_name, inside", [
    ("templates", 0, "templates", 10_000), ("templates", 10_001, "templates", 1),
    ("samples", 0, "samples", 10_000), ("n", 10_000_001, "n", 1), ("delta", 1.01, "delta", -1.0),
])
def test_facet_ranges_agree_with_the_engine(name, outside, engine_name, inside):
    with pytest.raises(ValueError, match=f"`{name}`"):
        F(**{name: outside})
    kw = dict(templates=1, samples=1, **llm.FACET_DEFAULTS)
    args = {"n": 1000, "delta": 0.02, **kw}
    with pytest.raises(ValueError, match=f"`{engine_name}`"):
        llm.facet_power(**{**args, engine_name: outside})
    assert 0 <= llm.facet_power(**{**args, engine_name: inside}).power <= 1
    assert getattr(F(**{name: inside}), name) == inside


def test_facet_methods_delegate_to_the_engines():
    d = F(delta=0.03, templates=3, n=800, samples=2, recipe=True, seeds=4, calls=50_000, cost_call=0.01)
    comps = d.components()
    kw = dict(templates=3, samples=2, seeds=4, **comps)
    assert d.power() == llm.facet_power(800, 0.03, **kw)
    assert d.se() == llm.facet_se(800, **kw)
    assert d.sample_size(target_power=0.9) == llm.facet_sample_size(0.03, **kw, target_power=0.9)
    assert d.curves([100, 1000], templates_list=(1, 3)).equals(
        llm.facet_power_curve([100, 1000], 0.03, templates_list=(1, 3), samples=2, seeds=4, **comps))
    # recipes: the split is searched with the seed term in it, and its cost counts every seed model
    best, ref = d.plan(), llm.facet_plan(0.03, calls=50_000, **comps, seeds=4, cost_call=0.01, max_templates=50)
    assert (best.n, best.templates, best.samples, best.power) == (ref.n, ref.templates, ref.samples, ref.power)
    assert best.cost == pytest.approx(2 * 4 * 0.01 * best.calls)
    assert best.se == pytest.approx(llm.facet_se(best.n, templates=best.templates, samples=best.samples, seeds=4,
                                                 **comps))
    parts = d.budget((1, 3))
    assert parts[parts["templates"] == 3].drop(columns="templates").reset_index(drop=True).equals(
        llm.facet_budget(800, **kw))
    # without recipes the seeds do not count, and the ceiling is facet_ceiling's
    fixed = d.with_(recipe=False)
    assert fixed.seeds_used is None and fixed.power() == llm.facet_power(800, 0.03, templates=3, samples=2, **comps)
    assert fixed.ceiling() == llm.facet_ceiling(0.03, templates=3, var_template=comps["var_template"])


def test_facet_ceiling_and_seed_curve_against_the_normal_test():
    """Oracle: the normal test written out — with unlimited questions only var_template/T + 2·var_seed/S remain;
    at S seeds the SE is facet_se's, and P(correct order) = Φ(|Δ|/SE)."""
    from scipy import stats

    d = F(delta=0.02, templates=2, recipe=True, seeds=5, sd_template=0.01, sd_seed=0.007)
    stay = math.sqrt(0.01 ** 2 / 2 + 2 * 0.007 ** 2 / 5)
    assert d.ceiling() == pytest.approx(stats.norm.cdf(0.02 / stay - stats.norm.ppf(0.975)), rel=1e-12)
    # unlimited questions: the power at a huge n approaches the ceiling
    assert d.with_(n=10_000_000).power().power == pytest.approx(d.ceiling(), abs=2e-3)
    curve = d.seed_curve(range(2, 6))
    se3 = llm.facet_se(1000, templates=2, samples=1, seeds=3, **d.components())
    assert curve["seeds"].tolist() == [2, 3, 4, 5] and curve["se"].iloc[1] == se3
    assert curve["power"].iloc[1] == pytest.approx(stats.norm.cdf(0.02 / se3 - stats.norm.ppf(0.975)))
    assert curve["power"].is_monotonic_increasing
    assert d.p_correct_order() == pytest.approx(stats.norm.cdf(0.02 / d.se()))
    assert d.with_(delta=0.0).p_correct_order() == 0.5 and d.with_(delta=0.0).ceiling() == d.alpha


# ---------------------------------------------------------------------------
# the tabs' own inputs: "no worse than", the subset, the item list
# ---------------------------------------------------------------------------
NW = llm.NoWorseDesign


def test_noworse_fields_keys_and_defaults():
    assert issubclass(NW, Design)
    assert {f.name: f.key for f in NW.fields()} == {"margin": "llm_margin", "alpha": "llm_ni_alpha"}
    assert {f.name: f.default for f in NW.fields()} == {"margin": 0.02, "alpha": 0.025}
    for f in NW.fields():
        assert isinstance(f.unit, str) and f.label and f.help and f.step, f.name
    margin = NW.field("margin")
    assert margin.unit == "pts"  # the slider shows points: 0.5 … 10 in steps of 0.5, as the tab had it
    assert (margin.widget_low, margin.widget_high, margin.widget_step, margin.to_widget(margin.default)) == (
        0.5, 10.0, 0.5, 2.0)
    assert NW().benchmark == D() and NW().alpha in llm.NI_ALPHAS


def test_noworse_links_round_trip_with_the_benchmark():
    assert NW.from_params({}) == NW()
    assert NW.from_params(NW().to_params()) == NW()
    for d in (NW(margin=0.015, alpha=0.005), NW(margin=0.1, alpha=0.1, benchmark=D(accuracy_a=0.8, delta=-0.01, n=250)),
              NW(margin=0.999, alpha=0.4999, benchmark=D(0.6, 0.6, samples=4, cluster_size=5, icc=0.1))):
        p = d.to_params()
        assert set(p) == set(KEYS.values()) | {"llm_margin", "llm_ni_alpha"}
        assert NW.from_params(p) == d, d
    # the tab's widgets write points and the α they show
    d = NW.from_params({"llm_margin": "3.5", "llm_ni_alpha": "0.01", "n": "4000", "gain": "0"})
    assert (d.margin, d.alpha, d.benchmark.n, d.benchmark.delta) == (0.035, 0.01, 4000, 0.0)


def test_noworse_bad_values_fall_back_with_a_message():
    notes: list = []
    d = NW.from_params({"llm_margin": "abc", "llm_ni_alpha": "0.7", "n": "1"}, messages=notes)
    assert d == NW()
    for name in ("`margin`", "`alpha`", "`n`"):
        assert any(note.startswith(name) and note.endswith("is used.") for note in notes), (name, notes)
    notes = []
    assert NW.from_params({"llm_margin": "0"}, messages=notes) == NW() and "`margin`" in notes[0]


@pytest.mark.parametrize("name, outside, inside", [
    ("margin", 0.0, 1e-9), ("margin", 1.0, 0.999999), ("alpha", 0.0, 1e-9), ("alpha", 0.5, 0.4999)])
def test_noworse_ranges_agree_with_the_engine(name, outside, inside):
    values = dict(margin=0.02, alpha=0.025)
    with pytest.raises(ValueError, match=f"`{name}`"):
        NW(**{**values, name: outside})
    with pytest.raises(ValueError, match=f"`{name}`"):  # the engine refuses it too
        llm.benchmark_noninferiority_power(1000, 0.7, 0.73, **{**values, name: outside})
    d = NW(**{**values, name: inside})  # the extreme inside: the design and the engine take it
    assert 0.0 <= d.power().power <= 1.0


def test_noworse_methods_delegate_to_the_engines():
    b = D(accuracy_a=0.70, delta=0.01, difficulty_sd=0.25, correlation=0.6, samples=3, cluster_size=4, icc=0.2,
          judged=True, judge_sensitivity=0.9, judge_specificity=0.85, n=1200)
    kw = {k: v for k, v in {**KW, "judge_specificity": 0.85}.items() if k != "alpha"}
    d = NW(margin=0.02, alpha=0.05, benchmark=b)
    assert d.power() == llm.benchmark_noninferiority_power(1200, 0.70, 0.71, 0.02, alpha=0.05, **kw)
    assert d.power(400) == llm.benchmark_noninferiority_power(400, 0.70, 0.71, 0.02, alpha=0.05, **kw)
    assert d.sample_size(target_power=0.9) == llm.benchmark_noninferiority_sample_size(
        0.70, 0.71, 0.02, alpha=0.05, target_power=0.9, **kw)
    curve = d.curves()
    assert list(curve.columns) == ["gain_pp", "power"] and len(curve) == 41
    assert curve["gain_pp"].iloc[0] == pytest.approx(-4.0) and curve["gain_pp"].iloc[-1] == pytest.approx(4.0)
    for g, p in curve.iloc[::8].itertuples(index=False):
        assert p == llm.benchmark_noninferiority_power(1200, 0.70, 0.70 + g / 100, 0.02, alpha=0.05, **kw).power
    # null calibration: at a true gain of −margin the rate of "no worse" claims is α (the test's size)
    at_margin = curve.loc[(curve["gain_pp"] + 2.0).abs().idxmin()]
    assert at_margin["gain_pp"] == pytest.approx(-2.0) and at_margin["power"] == pytest.approx(0.05, abs=1e-9)
    assert (curve["power"].diff().dropna() >= -1e-12).all()  # power rises with the true gain


def test_noworse_curve_stays_where_the_spread_allows_and_the_unreachable_design():
    # σ = 0.45 allows accuracies in [0.282, 0.718] only: gains beyond them are left out (σ² ≤ μ(1 − μ))
    d = NW(margin=0.05, benchmark=D(accuracy_a=0.70, delta=0.0, difficulty_sd=0.45, correlation=0.6))
    top = (1 + math.sqrt(1 - 4 * 0.45**2)) / 2
    assert 0.70 + d.curves()["gain_pp"].max() / 100 <= top + 1e-12 < 0.70 + 0.10
    worse = NW(margin=0.02, benchmark=D(delta=-0.03))
    assert not worse.reachable and NW(margin=0.031, benchmark=D(delta=-0.03)).reachable
    with pytest.raises(ValueError, match="`margin`"):  # the engine refuses to size it; the tab shows "—"
        worse.sample_size()
    assert worse.power().power < 0.025


S = llm.SubsetDesign
SUBSET_KEYS = {"n_total": "sub_total", "m": "sub_m", "accuracy": "sub_acc", "a_only_share": "sub_a_only",
               "b_only_share": "sub_b_only", "halfwidth": "sub_hw", "target_agreement": "sub_target",
               "seed": "sub_seed", "beta_a": "sub_beta_a", "beta_b": "sub_beta_b"}


def test_subset_fields_keys_and_defaults():
    assert issubclass(S, Design)
    assert {f.name: f.key for f in S.fields()} == SUBSET_KEYS
    # the tab's defaults (pages/_llm_subset.py before the design declared them)
    assert {f.name: f.default for f in S.fields()} == dict(
        n_total=5000, m=500, accuracy=0.70, a_only_share=0.05, b_only_share=0.08, halfwidth=0.02,
        target_agreement=0.95, seed=0, beta_a=2.0, beta_b=1.0)
    for f in S.fields():
        assert isinstance(f.unit, str) and f.label and f.help and f.step, f.name
    assert S.field("n_total").unit == S.field("m").unit == "items" and S.field("halfwidth").unit == "pts"
    # the widgets' ends and steps, as the tab had them (percent and points)
    shown = {name: (S.field(name).widget_low, S.field(name).widget_high, S.field(name).widget_step)
             for name in ("n_total", "accuracy", "a_only_share", "halfwidth", "target_agreement", "beta_a")}
    assert shown == {"n_total": (10, 1_000_000, 100), "accuracy": (1.0, 99.0, 0.5), "a_only_share": (0.0, 50.0, 0.5),
                     "halfwidth": (0.2, 10.0, 0.1), "target_agreement": (60.0, 99.9, 0.1), "beta_a": (0.1, 10.0, 0.1)}
    assert (S().m, S().a_only, S().b_only) == (500, 250, 400)
    # a link with N but no m starts where the tab's widget does: 500 items, or all N when fewer
    assert S.from_params({"sub_total": "300"}).m == 300 and S.from_params({"sub_total": "9000"}).m == 500
    with pytest.raises(ValueError, match="`m` must be in \\[1, 100\\]"):
        S(n_total=100)


def test_subset_links_round_trip():
    assert S.from_params({}) == S()
    for d in (S(n_total=2000, m=200, a_only_share=0.05, b_only_share=0.07, seed=11),
              S(n_total=10, m=10, accuracy=0.01, a_only_share=0.0, b_only_share=0.5, halfwidth=0.1,
                target_agreement=0.999, beta_a=0.1, beta_b=10.0),
              S(n_total=1_000_000, m=1, accuracy=0.995, a_only_share=0.5, b_only_share=0.495, seed=2**31 - 1)):
        p = d.to_params()
        assert set(p) == set(SUBSET_KEYS.values()) and S.from_params(p) == d, d
    d = S.from_params({"sub_total": "2000", "sub_m": "200", "sub_a_only": "5.0", "sub_b_only": "7.0"})
    assert (d.n_total, d.m, d.a_only, d.b_only) == (2000, 200, 100, 140)


def test_subset_bad_values_fall_back_with_a_message():
    notes: list = []
    d = S.from_params({"sub_total": "1e308", "sub_m": "-1", "sub_acc": "nan", "sub_hw": "0", "sub_target": "200",
                       "sub_seed": "1e309", "sub_beta_a": "-1", "sub_beta_b": "inf", "sub_a_only": "abc"},
                      messages=notes)
    assert d == S()
    for name in ("n_total", "m", "accuracy", "halfwidth", "target_agreement", "seed", "beta_a", "beta_b",
                 "a_only_share"):
        assert any(note.startswith(f"`{name}`") for note in notes), (name, notes)
    # the checks spanning fields: the counts must differ and fit; m at most N
    notes = []
    d = S.from_params({"sub_a_only": "8", "sub_b_only": "8"}, messages=notes)
    assert d.a_only != d.b_only and len(notes) == 1 and "`b_only_share`" in notes[0]
    notes = []
    assert S.from_params({"sub_total": "100", "sub_m": "500"}, messages=notes) == S(n_total=100, m=100)
    assert len(notes) == 1 and notes[0].startswith("`m` must be in [1, 100]")


def test_subset_ranges_agree_with_the_engine():
    with pytest.raises(ValueError, match="`n_total`"):
        S(n_total=1, m=1)
    with pytest.raises(ValueError, match="`n_total`"):
        llm.subset_se(1, 1, 0.7)
    with pytest.raises(ValueError, match="`n_total`"):
        S(n_total=10_000_001)
    with pytest.raises(ValueError, match="`n_total`"):
        llm.subset_se(500, 10_000_001, 0.7)
    for name, outside, inside in (("accuracy", 1.001, 1.0), ("halfwidth", 0.0, 1.0),
                                  ("target_agreement", 1.0, 0.5), ("target_agreement", 0.4999, 0.999)):
        with pytest.raises(ValueError, match=f"`{name}`"):
            S(**{name: outside})
        assert getattr(S(**{name: inside}), name) == inside
    assert llm.subset_se(500, 5000, 1.0) == 0.0  # the extremes inside, in the engines
    with pytest.raises(ValueError, match="`halfwidth`"):
        llm.subset_size(5000, 0.7, 0.0)
    assert llm.subset_size(5000, 0.7, 1.0) == 1
    with pytest.raises(ValueError, match="`target_agreement`"):
        llm.subset_size_for_agreement(5000, 250, 400, target_agreement=1.0)
    with pytest.raises(ValueError, match="`target_agreement`"):
        llm.subset_size_for_agreement(5000, 250, 400, target_agreement=0.4999)
    assert S(target_agreement=0.5).size_for_agreement() == 1
    for name in ("beta_a", "beta_b"):
        with pytest.raises(ValueError, match=f"`{name}`"):
            S(**{name: 0.0})
        with pytest.raises(ValueError, match=f"`{name[-1]}`"):
            llm.subset_variance_bound(**{"a": 1.0, "b": 1.0, name[-1]: 1e6 + 1})
        assert 0 < S(**{name: 1e6}).variance_bound().variance_ratio < 1
    with pytest.raises(ValueError, match="`seed`"):
        S(seed=-1)
    with pytest.raises(ValueError, match="`seed`"):
        item_list(range(10), 2, seed=-1)
    # the counts: only-A and only-B must differ (the engine needs a winner) and fit in the benchmark
    with pytest.raises(ValueError, match="`a_only_share` and `b_only_share`"):
        S(a_only_share=0.08)
    with pytest.raises(ValueError, match="`a_only`"):
        llm.subset_agreement(500, n_total=5000, a_only=400, b_only=400)
    with pytest.raises(ValueError, match="`a_only_share` \\+ `b_only_share`"):
        S(n_total=11, m=5, a_only_share=0.5, b_only_share=0.55)
    with pytest.raises(ValueError, match="`m`"):
        S(n_total=100, m=101)


def test_subset_methods_delegate_to_the_engines():
    d = S(n_total=2000, m=200, accuracy=0.65, a_only_share=0.05, b_only_share=0.07, halfwidth=0.03,
          target_agreement=0.9, seed=5, beta_a=3.0, beta_b=1.5)
    assert d.se() == llm.subset_se(200, 2000, 0.65)
    assert d.agreement() == llm.subset_agreement(200, n_total=2000, a_only=100, b_only=140)
    assert round(d.agreement(), 4) == 0.8047  # the README's value (200 of 2,000; 100 vs 140)
    assert d.agreement(method="normal") == llm.subset_agreement(200, n_total=2000, a_only=100, b_only=140,
                                                                method="normal")
    assert d.size_for_halfwidth() == llm.subset_size(2000, 0.65, 0.03)
    assert d.size_for_agreement() == llm.subset_size_for_agreement(2000, 100, 140, target_agreement=0.9)
    ms = (10, 100, 200, 2000)
    assert d.curves(ms).equals(llm.subset_curve(ms, n_total=2000, accuracy=0.65, a_only=100, b_only=140))
    assert d.items().equals(item_list(range(2000), 200, seed=5))
    assert d.variance_bound() == llm.subset_variance_bound(3.0, 1.5)
    rows = [[(i * (j + 3)) % 5 > 1 for i in range(300)] for j in range(4)]
    assert d.assisted(rows).table.equals(llm.prediction_assisted_se(rows, 200).table)
    # the README's values at the tab's defaults: ±2 points at 70% of 5,000 need 1,438 items; 0.0194
    assert S().size_for_halfwidth() == 1438 and round(S().se(), 4) == 0.0194
    # the home card's subset teaser states the tab's default
    assert llm.subset_teaser().shown == f"±{100 * 1.959963984540054 * S().se():.1f} pts"


IL = llm.ItemListDesign


def test_item_list_fields_links_and_ranges():
    assert {f.name: f.key for f in IL.fields()} == {"seed": "items_seed", "n_total": "items_total",
                                                     "task": "items_task"}
    assert IL() == IL.from_params({}) == IL(seed=0, n_total=None, task="benchmark")
    assert IL.field("n_total").unit == "items" and IL.field("n_total").optional
    for d in (IL(seed=7, n_total=12_345, task="mmlu_abstract_algebra"), IL(seed=2**31 - 1, n_total=1),
              IL(n_total=10_000_000, task="x" * llm.TASK_CHARS)):
        assert IL.from_params(d.to_params()) == d, d
    notes: list = []
    assert IL.from_params({"items_seed": "-3", "items_total": "0", "items_task": "y" * 81}, messages=notes) == IL()
    for name in ("`seed`", "`n_total`", "`task`"):
        assert any(note.startswith(name) for note in notes), (name, notes)
    assert IL(task="   ").task == "benchmark" and IL(task=" gsm8k ").task == "gsm8k"  # as the widget's value
    with pytest.raises(ValueError, match="`n_total`"):
        IL(n_total=10_000_001)
    with pytest.raises(ValueError, match="`seed`"):
        IL(seed=-1)


def test_item_list_run_delegates_to_item_list():
    assert IL().total(1000) == 10_000 and IL().total(2_000_000) == 10_000_000 and IL(n_total=1500).total(1000) == 1500
    d = IL(seed=3, n_total=5000, task="arc_easy")
    assert d.run(100).equals(item_list(range(5000), 100, tasks="arc_easy", seed=3))
    ids, clusters = [f"q{i}" for i in range(60)], [i // 10 for i in range(60)]
    assert d.run(12, ids=ids, clusters=clusters, task="mine").equals(
        item_list(ids, 12, clusters=clusters, tasks="mine", seed=3))
    with pytest.raises(ValueError, match="`n`"):  # a benchmark smaller than the questions: the engine refuses
        IL(n_total=50).run(100)

"""Fuzz tests of every core reader and parser, and of engines at random points: random bytes and random CSV-ish text.

Property: a reader either returns a well-formed result with finite numbers,
or raises ``ValueError`` — never IndexError, KeyError, TypeError, a patsy or
LinAlg error, an overflow warning turned error, … Inputs are drawn from fixed
seeds (no hypothesis dependency), so every failure is reproducible: the
message names the seed and case.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core import analysis as an
from core import mt, pairwise as pw, ratings as rt, sequential as sq, uploads

CELLS = [
    "1", "-2.5", "+3", ".5", "1e-1", "0", "7", "0.25", "1e308", "-1e308", "1e-320", "5e-324", "1e151", "inf", "-inf",
    "Infinity", "nan", "NaN", "NA", "null", "", " ", "  4  ", "0,5", "12,75", "1,000", '"1,2"', '"', "'", "abc", "x y",
    "ü", "😀", "\t", "1_000", "0x10", "١٢", "--1", "1e", "e5", ".", "-", "+", "a\x00b", "\\", "#", "=1+1", "true",
]
DELIMITERS = [",", "\t", ";", " ", "|", ", ", ",,"]
ENDINGS = ["\n", "\r\n", "\r", "\n\n"]


def _random_bytes(rng):
    kind = rng.integers(0, 4)
    size = int(rng.integers(0, 400))
    if kind == 0:
        return rng.integers(0, 256, size, dtype=np.uint8).tobytes()
    if kind == 1:  # mostly printable ASCII
        return rng.integers(9, 127, size, dtype=np.uint8).tobytes()
    if kind == 2:  # a BOM or UTF-16 mark in front of random text
        return rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b""]) + rng.integers(9, 127, size,
                                                                                       dtype=np.uint8).tobytes()
    return "".join(rng.choice(list("0123456789.,;\t\n\r -+eE\"'")) for _ in range(size)).encode()


def _random_table_text(rng, *, columns=None, rows=None, cells=CELLS):
    columns = int(rng.integers(1, 6)) if columns is None else columns
    rows = int(rng.integers(0, 12)) if rows is None else rows
    delimiter = str(rng.choice(DELIMITERS))
    ending = str(rng.choice(ENDINGS))
    lines = []
    if rng.random() < 0.5:
        lines.append(delimiter.join(str(rng.choice(["a", "b", "system", "x", "", "a"])) for _ in range(columns)))
    for _ in range(rows):
        width = columns if rng.random() < 0.9 else int(rng.integers(0, columns + 2))
        lines.append(delimiter.join(str(rng.choice(cells)) for _ in range(width)))
    text = ending.join(lines) + (ending if rng.random() < 0.5 else "")
    return (b"\xef\xbb\xbf" if rng.random() < 0.1 else b"") + text.encode("utf-8", "surrogatepass")


def _random_numeric_text(rng, *, columns, rows):
    """Mostly valid tables of numbers (so parsing often succeeds and the analyses run)."""
    good = ["0", "1", "0.5", "0.25", "0.75", "-0.1", "0.3", "2", "1e-3", "0.9", "0.123456", "1", "0"]
    pool = good * 150 + CELLS  # about 2% hostile cells
    return _random_table_text(rng, columns=columns, rows=rows, cells=pool)


def _check_ok(call):
    """Run ``call``: ValueError is fine, any other exception is a bug."""
    try:
        return call()
    except ValueError:
        return None


def _finite(x):
    return bool(np.all(np.isfinite(np.asarray(x, dtype=float))))


@pytest.mark.parametrize("seed", range(4))
def test_uploads_readers(seed):
    rng = np.random.default_rng(1000 + seed)
    for case in range(150):
        data = _random_bytes(rng) if case % 2 else _random_table_text(rng)
        text = _check_ok(lambda: uploads.decode_text(data))
        assert text is None or isinstance(text, str), (seed, case)
        table = _check_ok(lambda: uploads.read_table(data, min_columns=1))
        if table is not None:
            assert isinstance(table, pd.DataFrame) and len(table) >= 1 and table.columns.is_unique, (seed, case)
            assert all(isinstance(v, str) for v in table.to_numpy().ravel()), (seed, case)
        records = _check_ok(lambda: uploads.read_jsonl(data))
        assert records is None or all(isinstance(r, dict) for r in records), (seed, case)


JSON_PIECES = ['{', '}', '[', ']', '"a"', ':', '1', ',', 'null', 'NaN', '1e999', '-0', '"\\u00e9"', ' ', '\n', 'true',
               '{"acc": 1.0}', '{"a": [1, {"b": 2}]}', '"', '\\']


@pytest.mark.parametrize("seed", range(3))
def test_jsonl_reader(seed):
    rng = np.random.default_rng(2000 + seed)
    for case in range(300):
        text = "".join(rng.choice(JSON_PIECES, size=int(rng.integers(0, 30))))
        records = _check_ok(lambda: uploads.read_jsonl(text.encode()))
        assert records is None or (len(records) >= 1 and all(isinstance(r, dict) for r in records)), (seed, case)


@pytest.mark.parametrize(
    "data",
    [
        b'{"acc": ' + b"1" * 5000 + b"}\n",  # Python's integer-digits limit leaked its own message
        b'[{"acc": ' + b"1" * 5000 + b"}]",
        b'{"doc_id": "\\ud800"}\n',  # a lone surrogate
    ],
)
def test_jsonl_reader_found_cases(data):
    with pytest.raises(ValueError, match=r"^The file, line 1: (a number has too many digits|the escape)"):
        uploads.read_jsonl(data)


@pytest.mark.parametrize("kind", an.KINDS)
def test_parse_results_every_layout(kind):
    rng = np.random.default_rng(1500 + an.KINDS.index(kind))
    for case in range(120):
        if case % 3 == 0:
            data = _random_bytes(rng)
        elif case % 3 == 1:
            data = _random_table_text(rng)
        else:
            data = _random_numeric_text(rng, columns=3 if kind == "predictions" else int(rng.integers(2, 5)),
                                        rows=int(rng.integers(2, 15)))
        parsed = _check_ok(lambda: an.parse_results(data, kind))
        if parsed is None:
            continue
        assert parsed.rows_used >= 3 and parsed.a.size == parsed.b.size == parsed.rows_used, (kind, case)
        assert _finite(parsed.a) and _finite(parsed.b), (kind, case)
        assert np.max(np.abs(np.concatenate([parsed.a, parsed.b]))) <= an.MAX_ABS_SCORE, (kind, case)
        if parsed.systems is not None:
            assert _finite(parsed.systems.to_numpy()), (kind, case)


def test_analysis_of_whatever_parses():
    # everything the page runs on a parsed upload returns finite p-values and estimates, or a ValueError
    rng = np.random.default_rng(3000)
    ran = 0
    for case in range(90):
        data = _random_numeric_text(rng, columns=2, rows=int(rng.integers(3, 25)))
        parsed = _check_ok(lambda: an.parse_results(data, "scores"))
        if parsed is None:
            continue
        ran += 1
        a, b = parsed.a, parsed.b
        d = a - b
        _check_ok(lambda: an.summarize(a, b))
        rec = _check_ok(lambda: an.recommend_tests(d))
        assert rec is None or math.isfinite(rec.skewness), case
        for statistic in ("mean", "median"):
            res = _check_ok(lambda: an.paired_tests(a, b, n_resamples=199, seed=case, statistic=statistic,
                                                    tests=["t", "wilcoxon", "sign", "permutation", "bootstrap"]))
            if res is not None:
                assert res["p_value"].between(0, 1).all() and _finite(res["estimate"]), case
        eff = _check_ok(lambda: an.effect_sizes(a, b))
        assert eff is None or (math.isfinite(eff.hodges_lehmann) and (_finite(eff.hodges_lehmann_ci) or (
                eff.n <= 7 and all(math.isnan(v) for v in eff.hodges_lehmann_ci)))), case  # too few pairs: none
        for test in ("t", "sign", "wilcoxon"):
            curve = _check_ok(lambda: an.bootstrap_power_curve(d, test=test, n_iter=50, seed=case))
            assert curve is None or curve["power"].between(0, 1).all(), case
        _check_ok(lambda: an.evaluation_units(a, b, int(rng.integers(1, 5))))
    assert ran >= 15  # the generator does produce analysable uploads


def test_pairwise_of_whatever_parses():
    rng = np.random.default_rng(3100)
    for case in range(40):
        data = _random_numeric_text(rng, columns=int(rng.integers(2, 6)), rows=int(rng.integers(3, 20)))
        parsed = _check_ok(lambda: an.parse_results(data, "systems"))
        if parsed is None:
            continue
        for test in ("t", "sign", "wilcoxon", "permutation", "bootstrap"):
            table = _check_ok(lambda: an.pairwise_comparisons(parsed.systems, test=test, seed=case, n_resamples=199))
            if table is not None:
                assert table["p_value"].between(0, 1).all() and table["p_holm"].between(0, 1).all(), (case, test)


@pytest.mark.parametrize("seed", range(3))
def test_differences_readers(seed):
    rng = np.random.default_rng(4000 + seed)
    for case in range(200):
        if case % 3 == 0:
            data = _random_bytes(rng)
        else:
            data = _random_table_text(rng, columns=int(rng.integers(1, 3)), cells=CELLS + ["1.5", "2", "-0.4"] * 5)
        values = _check_ok(lambda: sq.read_differences(data))
        if values is not None:
            assert values.size >= 1 and _finite(values) and np.all((values >= 0) & (values <= 50)), (seed, case)
        text = data.decode("utf-8", "replace")
        pasted = _check_ok(lambda: sq.parse_differences(text))
        if pasted is not None:
            assert pasted.size >= 1 and _finite(pasted) and np.all(pasted <= 50), (seed, case)


@pytest.mark.parametrize(
    "data",
    [
        b"a,b\n0.5,1\n1.2\n3,4,5",  # several columns per line were flattened into six differences
        b"system,BLEU,chrF\nA,70.8,60.1\nB,69.2,59.0\n",  # a system ranking
    ],
)
def test_differences_reader_found_cases(data):
    with pytest.raises(ValueError, match="one column of pairwise differences"):
        sq.read_differences(data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"model_a": ["x"], "model_b": "b", "winner": "model_a"}\n',
        b'[{"model_a": "a", "model_b": {"x": 1}, "winner": "model_a"}]',
        b'{"model_a": "a", "model_b": "b", "winner": ["model_a"]}\n',
    ],
)
def test_votes_reader_found_cases(data):
    # a list or object as a model name was a TypeError (unhashable type) out of pandas.factorize
    with pytest.raises(ValueError, match=r"The votes file, (line|record) 1: `\w+` is a JSON (list|object)"):
        pw.read_votes(data)


@pytest.mark.parametrize("seed", range(3))
def test_mt_readers(seed):
    rng = np.random.default_rng(5000 + seed)
    for case in range(150):
        data = _random_bytes(rng) if case % 2 else _random_table_text(rng, columns=3)
        if rng.random() < 0.3:
            data = data.replace(b",", b"\t")
        result = _check_ok(lambda: mt.read_tsv(data))
        if result is not None:
            a, b, r = result
            assert len(a) == len(b) == len(r) >= 2 and all(isinstance(x, str) for x in a + b + r), (seed, case)
        others = [_random_bytes(rng) if rng.random() < 0.5 else data for _ in range(2)]
        texts = _check_ok(lambda: mt.read_parallel_texts(data, *others))
        if texts is not None:
            assert len(texts[0]) == len(texts[1]) == len(texts[2]) >= 1, (seed, case)


RATINGS = ["1", "2", "3", "4", "5", "3.5", "0", "-1", "1e308", "-1e308", "inf", "nan", "", "x", "1e13", "2"]


def _random_pilot(rng):
    n = int(rng.integers(0, 40))
    workers = [f"w{v}" for v in rng.integers(0, int(rng.integers(1, 6)), n)]
    items = [f"i{v}" for v in rng.integers(0, int(rng.integers(1, 8)), n)]
    systems = list(rng.choice(["a", "b", "c", "", "a"], n)) if rng.random() < 0.3 else list(rng.choice(["a", "b"], n))
    if rng.random() < 0.5:
        ratings = [str(v) for v in rng.choice(RATINGS, n)]
    else:
        ratings = list(np.round(rng.normal(3, 1, n), 1))
    frame = pd.DataFrame({"worker": workers, "item": items, "system": systems, "rating": ratings})
    if rng.random() < 0.1:
        frame = frame.drop(columns=[str(rng.choice(frame.columns))])
    if rng.random() < 0.1:
        frame.loc[frame.index[:1], "worker"] = None
    return frame


def test_fit_pilot_on_random_tables():
    rng = np.random.default_rng(6000)
    fitted = 0
    for case in range(250):
        frame = _random_pilot(rng)
        fit = _check_ok(lambda: rt.fit_pilot(frame))
        if fit is None:
            continue
        fitted += 1
        values = [fit.effect, fit.baseline, fit.effect_se, *fit.sigmas.values()]
        assert all(math.isfinite(v) for v in values) and all(v >= 0 for v in fit.sigmas.values()), case
        assert -0.5 <= fit.effect <= 0.5 and fit.method in ("reml", "moments"), case
    assert fitted >= 10


def test_fit_pilot_from_uploaded_bytes():
    # the page's route: bytes → read_table → fit_pilot
    rng = np.random.default_rng(6100)
    header = "worker,item,system,rating\n"
    for case in range(120):
        rows = int(rng.integers(0, 30))
        lines = [",".join([f"w{rng.integers(0, 4)}", f"i{rng.integers(0, 6)}", str(rng.choice(["a", "b"])),
                           str(rng.choice(RATINGS + ["3", "4", "2.5"] * 4))]) for _ in range(rows)]
        data = (header + "\n".join(lines)).encode() if case % 4 else _random_table_text(rng, columns=4)
        table = _check_ok(lambda: uploads.read_table(data, name="The pilot file", min_columns=2))
        if table is not None:
            _check_ok(lambda: rt.fit_pilot(table))


def test_array_entry_points_with_hostile_values():
    # the array APIs the pages call directly: only ValueError for non-finite, huge, short or ragged input
    rng = np.random.default_rng(7000)
    hostile = [np.nan, np.inf, -np.inf, 1e308, -1e308, 1e-320, 0.0, 1.0]
    for case in range(60):
        n = int(rng.integers(0, 8))
        a = rng.choice(hostile + [0.5, 0.25] * 4, n)
        b = rng.choice(hostile + [0.5, 0.75] * 4, n if rng.random() < 0.9 else max(n - 1, 0))
        _check_ok(lambda: an.paired_tests(a, b, n_resamples=199, seed=1))
        _check_ok(lambda: an.effect_sizes(a, b))
        _check_ok(lambda: an.summarize(a, b))
        _check_ok(lambda: an.recommend_tests(a))
        _check_ok(lambda: an.bootstrap_power_curve(a, n_iter=50))
        _check_ok(lambda: an.hodges_lehmann(a))
        from core import bayes

        _check_ok(lambda: bayes.compare_means(a))


# ---------------------------------------------------------------------------
# engines at random parameter points: probabilities in [0, 1], the level held at no difference
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_llm_engine_at_random_points(seed):
    from core import llm

    rng = np.random.default_rng(seed)
    for _ in range(40):
        mu_a = float(rng.uniform(0.05, 0.95))
        sd = float(rng.uniform(0, 0.95 * np.sqrt(mu_a * (1 - mu_a))))
        m = int(rng.choice([1, 2, 5, 20]))
        n = int(rng.integers(2 * m + 1, 5000))
        kw = dict(difficulty_sd=sd, correlation=float(rng.uniform(-0.5, 1)), samples=int(rng.integers(1, 10)),
                  cluster_size=m, icc=float(rng.uniform(0, 0.9)), alpha=float(rng.choice([0.01, 0.05, 0.1])))
        null = llm.benchmark_power(n, mu_a, mu_a, **kw)
        assert null.rejection_rate == pytest.approx(kw["alpha"], abs=1e-9)  # the t test holds α at any G
        mu_b = float(np.clip(mu_a + rng.normal(0, 0.05), 0.01, 0.99))
        if sd * sd > mu_b * (1 - mu_b):
            continue
        r = llm.benchmark_power(n, mu_a, mu_b, **kw)
        assert 0.0 <= r.power <= r.rejection_rate <= 1.0
        assert np.isnan(r.type_s) or 0.0 <= r.type_s <= 0.5 + 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_sequential_engine_at_random_points(seed):
    """Every design the general engine accepts returns probabilities in [0, 1] with the size held at α (group and
    fixed designs), or refuses with a ValueError naming a parameter; binding futility and large α included."""
    import re

    rng = np.random.default_rng(seed)
    for case in range(100):
        design = str(rng.choice(["group", "group", "group", "fixed", "naive"]))
        looks = int(rng.integers(1, 11))
        kw = dict(design=design, looks=looks, boundary=str(rng.choice(sq.BOUNDARIES)),
                  futility_p=float(rng.uniform(0.01, 0.99)) if rng.random() < 0.7 else None,
                  alpha=float(rng.uniform(0.001, 0.3)))
        n = int(rng.choice([rng.integers(2, 40), rng.integers(2, 5000)]))
        if design == "naive":
            kw["every"] = int(rng.integers(1, n + 1))
        delta, sd = float(rng.normal(0, 0.3)), float(rng.uniform(0.05, 3))
        where = f"seed {seed}, case {case}: n = {n}, delta = {delta}, sd = {sd}, {kw}"
        try:
            r = sq.sequential_power(n, delta, sd, **kw)
        except ValueError as err:
            assert re.search(r"`[a-z_]+`", str(err)), where
            # the only refusals: a group design with fewer items than looks, or binding futility leaving less to
            # spend than α
            assert "`n_max`" in str(err) or "`futility_p`" in str(err), where
            continue
        probs = [r.power, r.false_positive_rate, *r.stop_probabilities]
        assert all(0.0 <= p <= 1.0 for p in probs), where
        assert sum(r.stop_probabilities) == pytest.approx(1.0, abs=1e-9), where
        assert math.isnan(r.type_s) or 0.0 <= r.type_s <= 1.0, where
        assert math.isnan(r.type_m) or r.type_m > 0, where
        if design != "naive":
            assert r.false_positive_rate <= kw["alpha"] + 1e-9, where
        assert r.look_n[-1] == n and all(np.diff(r.look_n) > 0), where


def test_leaderboard_simulation_at_random_points():
    from core import pairwise as pw

    rng = np.random.default_rng(4)
    for _ in range(6):
        k = int(rng.integers(3, 6))
        ratings = 1000 + np.cumsum(rng.uniform(5, 80, size=k))
        n = int(rng.integers(k * (k - 1) // 2, 400))
        r = pw.leaderboard_power(n, ratings, tie_rate=float(rng.uniform(0, 0.3)), method="simulate", n_sims=300,
                                 seed=int(rng.integers(1 << 30)))
        assert np.all((0 <= r.adjacent_power) & (r.adjacent_power <= 1)) and 0 <= r.order_correct <= 1


@pytest.mark.parametrize("seed", range(2))
def test_column_mappings_and_long_tables(seed):
    # random tables through the role mappings: a result or a ValueError, never another exception
    rng = np.random.default_rng(6000 + seed)
    roles = ["item", "system", "score", "a", "b", "gold", "worker", "rating", "systems", "x"]
    for case in range(80):
        data = _random_table_text(rng, columns=int(rng.integers(2, 5)), rows=int(rng.integers(1, 15)))
        table = _check_ok(lambda: uploads.read_table(data, min_columns=1))
        names = list(table.columns) if table is not None else ["a", "b"]
        mapping = {str(rng.choice(roles)): str(rng.choice(names + ["nope"])) for _ in range(int(rng.integers(1, 5)))}
        if "systems" in mapping:
            mapping["systems"] = list(rng.choice(names + ["A"], size=int(rng.integers(0, 3))))
        kind = str(rng.choice(an.KINDS))
        parsed = _check_ok(lambda: an.parse_results(data, kind, columns=mapping, header=str(rng.choice(["auto", "no"]))))
        if parsed is not None:
            assert _finite(parsed.a) and _finite(parsed.b) and parsed.rows_used >= 3, (seed, case)
        _check_ok(lambda: rt.read_pilot(data, columns={k: v for k, v in mapping.items() if isinstance(v, str)}))
        _check_ok(lambda: rt.read_pilot(data))
        _check_ok(lambda: uploads.guess_columns(names, roles))


@pytest.mark.parametrize("seed", range(2))
def test_alpaca_eval_preferences(seed):
    rng = np.random.default_rng(6100 + seed)
    values = [1, 2, 1.5, 0, None, "1", "x", 3, -1, 1.2, 1.8, True, [1], {"a": 1}, float("nan"), "", 1e308]
    for case in range(60):
        records = [{"generator_1": str(rng.choice(["m1", "m2", ""])), "generator_2": str(rng.choice(["m2", "m3"])),
                    "preference": values[int(rng.integers(0, len(values)))]} for _ in range(int(rng.integers(1, 6)))]
        import json as _json

        text = _json.dumps(records, allow_nan=True).encode()
        votes = _check_ok(lambda: pw.read_votes(text))
        if votes is not None:
            assert set(votes["winner"].astype(str)) <= {"model_a", "model_b", "tie"}, (seed, case)
        more = _check_ok(lambda: pw.read_votes([text, ("b.json", text)]))
        assert more is None or len(more) == 2 * len(votes), (seed, case)

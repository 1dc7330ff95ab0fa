"""A fuzz of every page: deep links with invalid values, widget pairs at their extremes, hostile
uploads. The oracle is the contract itself: no traceback ever reaches the page (AppTest records none), and
no user text is rendered as markup.

Seeded, so a failure is reproducible; kept small enough to run in `make test`.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from pages._registry import PAGES as REGISTRY, design_classes

from .conftest import open_page

PAGES = tuple(page.name for page in REGISTRY)

# Values a careless or hostile link may carry for any parameter.
JUNK = ["", "abc", "-1", "0", "1e308", "-1e308", "nan", "inf", "99999999999", "0.5.5", "%00", "<b>x</b>", "true",
        "[1,2]", "1;2", "💥"]
# Parameters the pages bind: every declared field of every page's design (the registry names them), plus the ones
# the shared controls and the pages' data widgets bind. A union: unknown ones must be ignored.
_SHARED = ["view", "simulate", "sims", "seed", "assure", "prior_mean", "prior_sd", "cost_unit", "currency", "pins",
           "present", "demo_n", "demo_p", "step", "source", "upto", "swap", "data", "kind", "votes", "ratings",
           "preset", "trials", "k", "m"]
PARAMS = sorted({f.key for page in REGISTRY for cls in design_classes(page) for f in cls.fields()} | set(_SHARED))


def page_params(name: str) -> list[str]:
    """The page's own design keys first (each link hits them), then others drawn from the union."""
    own = [f.key for page in REGISTRY if page.name == name for cls in design_classes(page) for f in cls.fields()]
    return list(dict.fromkeys(own + _SHARED + PARAMS))


MARKUP = re.compile(r"(?<!\\)(<(img|script|a|iframe)\b|!\[|\]\()", re.IGNORECASE)


def assert_clean(at, context):
    """No traceback, and no markup from user data outside code spans (escaped text is inert): in Markdown blocks,
    captions and metrics, and no live tag in any chart's text (Plotly renders <a href> as a link)."""
    assert not at.exception, f"{context}: {[e.message for e in at.exception]}"
    texts = [b.value for b in list(at.markdown) + list(at.error) + list(at.warning) + list(at.info) + list(at.success)
             + list(at.caption)]
    texts += [f"{m.label} {m.value}" for m in at.metric]
    for text in texts:
        bare = re.sub(r"`[^`]*`", "", str(text))  # code spans show their content literally
        assert not MARKUP.search(bare), f"{context}: markup from user data: {str(text)[:160]}"
    for chart in at.get("plotly_chart"):
        spec = chart.proto.spec
        assert not re.search(r"\\u003c(a|img|script|iframe)\b", spec, re.IGNORECASE), f"{context}: a live tag in a chart"


@pytest.mark.parametrize("page", PAGES)
def test_deep_links_with_invalid_values(page):
    rng = random.Random(f"links-{page}")
    for trial in range(4):
        keys = page_params(page)
        query = {p: rng.choice(JUNK) for p in rng.sample(keys[:max(12, len(keys) // 3)], 12)}
        at = open_page(page, query, timeout=120)
        assert_clean(at, f"{page} {query}")


EXTREMES = {
    "accuracy": [("select_slider", "n", (10, 2_000_000)), ("slider", "delta", (-20.0, 20.0)),
                 ("slider", "baseline", (50.0, 99.9)), ("slider", "agreement", (10.0, 99.9)),
                 ("select_slider", "alpha", (0.001, 0.1))],
    "mt": [("select_slider", "n", (100, 20000)), ("slider", "delta", (-10.0, 10.0)), ("slider", "p0", (0.0, 0.9)),
           ("slider", "b0", (5.0, 100.0))],
    "ratings": [("slider", "workers", (2, 50)), ("select_slider", "items", (10, 2000)), ("slider", "effect", (0.0, 0.3)),
                ("slider", "sigma", (0.0, 0.4)), ("slider", "sigma_w1", (0.0, 0.4))],
    "sequential": [("select_slider", "budget", (200, 10000)), ("slider", "peeks", (1, 10)),
                   ("slider", "delta", (0.0, 10.0)), ("slider", "mean", (50.0, 95.0)), ("slider", "sd", (10.0, 40.0))],
    "llm": [("select_slider", "n", (50, 100_000)), ("slider", "acc_a", (1.0, 99.0)), ("slider", "gain", (-30.0, 30.0)),
            ("slider", "sd", (0.0, 0.5)), ("slider", "rho", (-0.5, 1.0)), ("select_slider", "k", (1, 50)),
            ("select_slider", "m", (1, 100))],
    "claims": [("slider", "rho", (0.0, 0.9)), ("select_slider", "alpha", (0.001, 0.1)),
               ("slider", "target", (0.5, 0.99))],
    "monitor": [("slider", "upto", (2, 300)), ("number_input", "target", (0.001, 100.0)),
                ("number_input", "n_max", (2, 1_000_000)), ("select_slider", "alpha", (0.01, 0.1)),
                ("slider", "looks", (1, 10))],
    "judge": [("slider", "prev", (5.0, 95.0)), ("slider", "se", (50.0, 100.0)), ("slider", "sp", (50.0, 100.0)),
              ("number_input", "c_h", (0.001, 10_000.0)), ("number_input", "c_j", (0.0001, 1_000.0)),
              ("select_slider", "budget", (100, 100000))],
    "leaderboard": [("slider", "k", (2, 20)), ("slider", "gap", (5.0, 200.0)), ("select_slider", "votes", (100, 1_000_000)),
                    ("slider", "ties_pct", (0.0, 60.0)), ("slider", "judge", (55.0, 100.0))],
}


@pytest.mark.parametrize("page", list(EXTREMES))
def test_widget_pairs_at_their_extremes(page):
    rng = random.Random(f"pairs-{page}")
    controls = EXTREMES[page]
    pairs = list(itertools.combinations(controls, 2))
    rng.shuffle(pairs)
    at = open_page(page, timeout=120)
    for (k1, key1, ends1), (k2, key2, ends2) in pairs[:5]:
        for v1, v2 in itertools.product(ends1, ends2):
            try:
                getattr(at, k1)(key=key1).set_value(v1)
                getattr(at, k2)(key=key2).set_value(v2)
            except KeyError:  # the page stopped above this widget with a message: start again
                at = open_page(page, timeout=120)
                continue
            at.run(timeout=120)
            assert_clean(at, f"{page}: {key1}={v1}, {key2}={v2}")


HOSTILE_FILES = [
    b"",
    b"\x00\x01\x02binary",
    "a,b\n1,2\n".encode("utf-16"),
    b"a,b\n\xff\xfe,1\n",
    b"a,b\n" + b"x" * 200_000 + b",1\n",
    b'=HYPERLINK("http://evil.example"),![x](http://evil.example/i.png)\n<img src=x>,2\n3,4\n5,6\n',
    b"[" * 50_000,
    b'{"a": 1}\n{"a": \n',
    b"1e308,-1e308\n-1e308,1e308\n1,2\n3,4\n5,6\n",
    b"model_a,model_b,winner\n<b>a</b>,b,model_a\nb,<b>a</b>,tie\n",
    b"question,model,score\n1,a,0.5\n1,b,2\n",
    b"worker,item,system,rating\nw1,i1,a,inf\nw2,i2,b,1\n",
    b'{"model_a": ["x"], "model_b": "b", "winner": "model_a"}\n',  # a list as a model name (unhashable)
    b'[{"model_a": {"x": 1}, "model_b": "b", "winner": "model_a"}]',
    b"a,b\n0.5,1\n1.2\n3,4,5",  # several columns per line (was flattened into six DA differences)
    b'{"doc_id": 0, "acc": ' + b"1" * 5000 + b"}\n",  # a JSON integer beyond Python's 4,300 digits
    b'{"doc_id": 0, "model_a": "\\ud800", "acc": 1}\n',  # a lone surrogate
]

UPLOADERS = [
    ("analysis", {"data": "upload"}, "file", lambda at: None),
    ("ratings", {"view": "Fit a pilot"}, "pilot", lambda at: None),
    ("llm", {"view": "Estimate from your logs"}, "log_file", lambda at: None),
    ("leaderboard", {"view": "Fit your votes"}, "votes_file", lambda at: None),
    ("sequential", {"pop": "my past differences"}, "pop_file", lambda at: None),
    ("sequential", {}, "he_file", lambda at: None),
    ("monitor", {"source": "per-item scores"}, "scores_file", lambda at: None),
    ("monitor", {"source": "pairwise votes"}, "votes_file", lambda at: None),
    ("judge", {"view": "Calibrate from your labels"}, "cal_file", lambda at: None),
    ("llm", {"view": "Run a subset instead"}, "sub_file", lambda at: None),
    ("mt", {"view": "Fit P0 and b0 from your outputs"}, "file_tsv",
     lambda at: (at.radio(key="upload_mode").set_value("tsv"), at.run())),
]


@pytest.mark.parametrize("page, query, key, prepare", UPLOADERS, ids=[u[0] for u in UPLOADERS])
def test_hostile_uploads(page, query, key, prepare):
    at = open_page(page, query, timeout=120)
    prepare(at)
    for i, content in enumerate(HOSTILE_FILES):
        at.file_uploader(key=key).set_value((f"upload{i}.txt", content, "text/plain"))
        at.run(timeout=120)
        assert_clean(at, f"{page} upload #{i}")


# Links a hunt for slow or crashing links found (tracebacks before the fix), each replayed exactly.
FOUND = [
    ("leaderboard", {"k": "10", "gap": "5", "judge": "60"}),  # a sample size near the vote limit: grid beyond it
    ("leaderboard", {"preset": "my ratings (table)", "ratings": "A:1000;B:1000.35", "votes": "1000000"}),
    ("accuracy", {"n": "inf"}), ("accuracy", {"n": "-inf"}), ("llm", {"n": "inf"}),
    ("accuracy", {"pins": "a~n=inf"}), ("mt", {"pins": "a~n=inf"}), ("llm", {"pins": "a~n=inf"}),
    ("sequential", {"pins": "a~budget=inf"}), ("ratings", {"pins": "a~workers=inf"}),
    ("leaderboard", {"pins": "a~votes=inf"}),
    ("llm", {"m": "50", "k": "50"}),  # the curve grid started below two clusters and stopped the page
]


@pytest.mark.parametrize("page, query", FOUND, ids=[f"{p}-{'-'.join(q)}" for p, q in FOUND])
def test_links_found_by_the_hunt(page, query):
    at = open_page(page, query, timeout=120)
    assert_clean(at, f"{page} {query}")
    if "pins" in query:
        assert any("out of range" in e.value for e in at.error)
    elif page == "llm" and "m" in query:
        assert not at.error and at.get("plotly_chart")


# User text that used to become markup or a traceback, each replayed exactly: names in a linked ratings table, pin
# names (error titles, chart legends), a currency label; infinite whole numbers, which Streamlit's URL binding did not
# catch; a pin at n = 1e308; a ratings table with no rows.
HOSTILE_LINKS = [
    ("leaderboard", {"preset": "my ratings (table)", "ratings": "![q](http://evil.example/q.png):1000;B:1025"}),
    ("accuracy", {"pins": "![q](http://evil.example/q.png)~n=abc"}),
    ("accuracy", {"pins": '<a href="http://evil.example/a">click</a>~n=500'}),
    ("llm", {"pins": '<img src="http://evil.example/i.png">~n=500'}),
    ("accuracy", {"cost_unit": "1", "currency": "![](//x)"}),
    ("mt", {"cost_unit": "0.5", "currency": "$<b>"}),
    ("accuracy", {"simulate": "true", "seed": "inf"}), ("mt", {"simulate": "true", "seed": "-Infinity"}),
    ("ratings", {"simulate": "true", "seed": "1e309"}), ("analysis", {"m": "inf"}), ("demo", {"demo_seed": "inf"}),
    ("accuracy", {"pins": "x~n=1e308"}), ("llm", {"pins": "x~n=1e308"}),
    ("leaderboard", {"preset": "my ratings (table)", "ratings": ";;;"}),
]


@pytest.mark.parametrize("page, query", HOSTILE_LINKS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(HOSTILE_LINKS)])
def test_hostile_links_show_text_not_markup(page, query):
    at = open_page(page, query, timeout=120)
    assert_clean(at, f"{page} {query}")
    shown = " ".join(str(x.value) for x in list(at.error) + list(at.caption) + list(at.warning))
    if "evil.example" in str(query) and page == "leaderboard":
        assert "\\!\\[q\\]" in shown  # the name is shown, escaped
    if query.get("pins", "").endswith("1e308"):
        assert any("out of range" in e.value for e in at.error)
    if query.get("ratings") == ";;;":
        assert any("no systems" in e.value for e in at.error) and at.get("plotly_chart")


def test_currency_label_is_kept_to_plain_characters():
    at = open_page("accuracy", {"cost_unit": "1", "currency": "![](//x)"})
    cost = next(m for m in at.metric if m.label == "Cost")
    assert cost.value == "x 500.00"


@pytest.mark.parametrize("page, key, query, expected", [
    ("leaderboard", "ties", {"ties": "split"}, "split"),
    ("leaderboard", "preset", {"preset": "crowded"}, "crowded"),
    ("accuracy", "scenario", {"scenario": "preference"}, "preference"),
])
def test_links_may_name_a_choice_by_its_value(page, key, query, expected):
    """Streamlit binds a choice with labels by its label (`half a win each`); a link by value works too."""
    at = open_page(page, query)
    assert at.radio(key=key).value == expected


# Uploads an audit found (Python's own text, or silently wrong numbers, before the fix), each with the message now
# shown: the file and the line, in the page's words.
FOUND_UPLOADS = [
    ("leaderboard", {"view": "Fit your votes"}, "votes_file",
     b'{"model_a": ["x"], "model_b": "b", "winner": "model_a"}\n', "line 1: `model_a` is a JSON list"),
    ("leaderboard", {"view": "Fit your votes"}, "votes_file",
     b'[{"model_a": "a", "model_b": {"x": 1}, "winner": "model_a"}]', "record 1: `model_b` is a JSON object"),
    ("sequential", {"pop": "my past differences"}, "pop_file", b"a,b\n0.5,1\n1.2\n3,4,5",
     "one column of pairwise differences"),
    ("sequential", {"pop": "my past differences"}, "pop_file", b"system,BLEU,chrF\nA,70.8,60.1\nB,69.2,59.0\n",
     "one column of pairwise differences"),
    ("llm", {"view": "Estimate from your logs"}, "log_file", b'{"doc_id": 0, "acc": ' + b"1" * 5000 + b"}\n",
     "line 1: a number has too many digits"),
    ("llm", {"view": "Estimate from your logs"}, "log_file", b'{"doc_id": "\\ud800", "acc": 1}\n',
     "line 1: the escape"),
]


@pytest.mark.parametrize("page, query, key, content, message", FOUND_UPLOADS,
                         ids=[f"{u[0]}-{i}" for i, u in enumerate(FOUND_UPLOADS)])
def test_uploads_found_by_the_audit(page, query, key, content, message):
    at = open_page(page, query, timeout=120)
    at.file_uploader(key=key).set_value(("found.txt" if page == "sequential" else "found.jsonl", content, "text/plain"))
    at.run(timeout=120)
    assert_clean(at, f"{page} {content[:40]!r}")
    assert any(message in e.value.replace("\\", "") for e in at.error), [e.value for e in at.error]


def _end(field, high: bool):
    """A field's widget end as link text (its declared range, the widget's units)."""
    if field.kind == "choice":
        return str(field.choices[-1] if high else field.choices[0])
    if field.kind == "bool":
        return "true" if high else "false"
    if field.kind not in ("int", "float"):
        return None
    end = field.widget_high if high else field.widget_low
    return None if end is None else str(end)


@pytest.mark.parametrize("high", [False, True], ids=["low", "high"])
@pytest.mark.parametrize("page", [p.name for p in REGISTRY if p.designs])
def test_every_declared_field_at_its_widget_end(page, high):
    """All of a page's declared fields at once at the low (or high) end of their widgets: a design, or a clear
    message — never a traceback (the ranges are the designs', so this follows every declaration)."""
    info = next(p for p in REGISTRY if p.name == page)
    query = {}
    for cls in design_classes(info):
        for f in cls.fields():
            text = _end(f, high)
            if text is not None:
                query.setdefault(f.key, text)
    at = open_page(page, query, timeout=180)
    assert_clean(at, f"{page} {query}")

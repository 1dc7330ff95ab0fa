"""What every page shows at its defaults, one tab at a time: a before/after check for refactors.

Renders each page of :data:`pages._registry.PAGES` with Streamlit's AppTest, once per tab (``?view=…``), opens
every expander that is filled only when opened (plans, code views, item lists), and writes the numbers a user
sees — metrics, the plotted data of every chart, the code blocks (plan text, code view) — as one JSON file.
Moving code must leave it byte for byte the same::

    PYTHONPATH=. .venv/bin/python scripts/page_snapshot.py before.json
    … refactor …
    PYTHONPATH=. .venv/bin/python scripts/page_snapshot.py after.json
    PYTHONPATH=. .venv/bin/python scripts/page_snapshot.py --diff before.json after.json

``--pages llm,judge`` limits the run. Not a test (it takes minutes); the suite's own tests pin the numbers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_LINK = "http://localhost:8501/"  # the link in plans/snippets depends on the query only


def _figure_data(at) -> dict:
    out = {}
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        key = element.proto.id.rsplit("-", 1)[-1]
        out[key] = [{k: t.get(k) for k in ("name", "x", "y", "z", "text") if k in t} for t in spec.get("data", [])]
    return out


def _shown(at) -> dict:
    return {
        "metrics": [[m.label, m.value] for m in at.metric],
        "charts": _figure_data(at),
        "code": [c.value for c in at.code],
        "errors": [e.value for e in at.error],
        "exception": [str(e.value) for e in at.exception],
        "dataframes": [d.value.to_csv(index=False) for d in at.dataframe],
    }


def snapshot_page(name: str, query: dict | None = None) -> dict:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page(f"pages/{name}.py")
    if query:
        at.query_params.update(query)
    at.run()
    # open the expanders that are filled only when open (their key ends in "_open")
    closed = [k for k in list(at.session_state) if str(k).endswith("_open") and not at.session_state[k]]
    for key in closed:
        at.session_state[key] = True
    if closed:
        at.run()
    out = _shown(at)
    out["tabs"] = [t.label for t in at.tabs]
    return out


def snapshot(names) -> dict:
    from pages._registry import PAGES

    result = {}
    for page in PAGES:
        if names and page.name not in names:
            continue
        base = snapshot_page(page.name)
        result[page.name] = base
        print(page.name, len(base["metrics"]), "metrics", len(base["charts"]), "charts", file=sys.stderr)
        labels = base["tabs"]
        for label in labels[1:]:
            result[f"{page.name}?view={label}"] = shown = snapshot_page(page.name, {"view": label})
            print("  ", label, len(shown["metrics"]), "metrics", len(shown["charts"]), "charts", file=sys.stderr)
    return result


def diff(a: dict, b: dict) -> int:
    bad = 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print(f"{key}: only in {'after' if key not in a else 'before'}")
            bad += 1
            continue
        for part in ("metrics", "charts", "code", "errors", "exception", "dataframes"):
            if a[key].get(part) != b[key].get(part):
                bad += 1
                print(f"{key}: {part} differ")
                x, y = a[key].get(part), b[key].get(part)
                if isinstance(x, list) and isinstance(y, list):
                    for i, (u, v) in enumerate(zip(x, y)):
                        if u != v:
                            print("   before:", str(u)[:300])
                            print("   after: ", str(v)[:300])
                    if len(x) != len(y):
                        print(f"   {len(x)} before, {len(y)} after")
                elif isinstance(x, dict) and isinstance(y, dict):
                    for k in sorted(set(x) | set(y)):
                        if x.get(k) != y.get(k):
                            print(f"   chart {k} differs")
    print("identical" if not bad else f"{bad} differences")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", help="JSON file to write")
    parser.add_argument("--pages", default="", help="comma-separated page names (default: all)")
    parser.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.diff:
        a, b = (json.loads(Path(p).read_text()) for p in args.diff)
        return 1 if diff(a, b) else 0
    import streamlit as st

    st.config.set_option("client.showErrorDetails", "full")
    result = snapshot({n for n in args.pages.split(",") if n})
    text = json.dumps(result, indent=1, sort_keys=True, default=str)
    if args.out:
        Path(args.out).write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

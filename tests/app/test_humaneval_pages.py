"""AppTest tests of human-evaluation files in the app: the Ratings page's pilot with many systems (the table of all
systems and the choice of two, default core.humaneval.default_pair), pilots from Appraise exports and files without a
header, and the home page's recognition of MQM files with their link to the DA campaign page."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core import home as hm
from core import humaneval as he
from core import ratings as rt

from .conftest import captions, metrics, open_page
from .test_home_page import links, open_home, upload

HUMANEVAL = Path(__file__).resolve().parents[1] / "data" / "humaneval"


def fifteen_systems(seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(f"w{w}", f"i{i}", f"system-{s:02d}", int(np.clip(round(2 + 0.2 * s + rng.normal(0, 1)), 1, 7)))
            for s in range(15) for w in range(4) for i in range(12)]
    return pd.DataFrame(rows, columns=["worker", "item", "system", "rating"])


def pilot_page(name: str, data: bytes):
    page = open_page("ratings", {"view": "Fit a pilot"}, timeout=180)
    page.file_uploader(key="pilot").set_value((name, data, "text/csv"))
    page.run()
    assert not page.exception, page.exception
    return page


def test_a_pilot_of_15_systems_shows_them_all_and_fits_the_chosen_two():
    df = fifteen_systems()
    page = pilot_page("pilot15.csv", df.to_csv(index=False).encode())
    assert not page.error, [e.value for e in page.error]
    tables = [d.value for d in page.dataframe if "judgments" in d.value.columns]
    assert len(tables) == 1
    table = tables[0]
    assert len(table) == 15 and list(table.columns) == ["system", "mean", "sd", "segments", "raters", "judgments"]
    scores = df.rename(columns={"worker": "rater", "rating": "score"}).astype({"score": float})
    best, other, reason = he.default_pair(scores)
    assert page.selectbox(key="pilot_sys_a").value == best and page.selectbox(key="pilot_sys_b").value == other
    assert any(reason[:40] in c for c in captions(page))
    fitted = rt.fit_pilot(df, systems=(best, other))
    assert metrics(page)["Effect β1"] == f"{fitted.effect:+.3f}" and metrics(page)["Workers × items"] == "4 × 12"
    # choose another pair: the fit follows
    page.selectbox(key="pilot_sys_a").set_value("system-00")
    page.selectbox(key="pilot_sys_b").set_value("system-14")
    page.run()
    assert not page.exception and not page.error
    chosen = rt.fit_pilot(df, systems=("system-00", "system-14"))
    assert metrics(page)["Effect β1"] == f"{chosen.effect:+.3f}" and chosen.effect > 0
    page.selectbox(key="pilot_sys_b").set_value("system-00")
    page.run()
    assert any("two different systems" in e.value for e in page.error)


def test_an_appraise_export_without_header_is_a_pilot():
    page = pilot_page("esa_campaign.scores.csv", (HUMANEVAL / "esa_campaign.scores.csv").read_bytes())
    assert not page.error, [e.value for e in page.error]
    assert metrics(page)["Workers × items"] == "2 × 2"
    assert any("1 BAD, 1 REF" in c for c in captions(page))


def test_first_row_is_data_gives_the_mapping_step():
    data = (HUMANEVAL / "headerless_long.csv").read_bytes()
    page = pilot_page("headerless_long.csv", data)
    page.checkbox(key="pilot_no_header").check()
    page.run()
    assert not page.exception and any("does not name worker" in i.value for i in page.info)
    for role, column in (("worker", "column 3"), ("item", "column 2"), ("system", "column 1"), ("rating", "column 4")):
        page.selectbox(key=f"pilot_col_{role}").set_value(column)
    page.run()
    assert not page.exception and not page.error, [e.value for e in page.error]
    assert metrics(page)["Workers × items"] == "2 × 2"


def test_segment_scores_without_raters_are_refused_with_where_to_go():
    page = pilot_page("mqm.avg_seg_scores.tsv", (HUMANEVAL / "mqm_synthetic.avg_seg_scores.tsv").read_bytes())
    assert any("no rater column" in e.value for e in page.error)


@pytest.mark.parametrize("name", ["mqm_synthetic.avg_seg_scores.tsv", "mqm_synthetic.tsv", "en-de.mqm.seg.score",
                                  "en-de.mqm.merged.seg.rating", "wmt24-genmt-humeval.jsonl"])
def test_home_recognises_mqm_files_and_links_the_da_campaign_page(name):
    data = (HUMANEVAL / name).read_bytes()
    at = upload(open_home(), name, data)
    assert any("as **human judgments of several systems**" in s.value for s in at.success), at.success
    expected = hm.read_upload(name, data)
    target = [q for p, text, q in links(at) if text.startswith("Open ") and p == "sequential"]
    assert target and target[-1] == expected.query
    assert {"mean", "sd", "delta", "fitted", "protocol"} <= set(target[-1])
    page = open_page("sequential", target[-1])
    assert not page.exception


def test_a_malformed_appraise_export_gets_its_line_not_a_header_message():
    data = b"u1,sysA,1,TGT,eng,deu,50,d#sysA,False,[],1,2\nu1,sysB,1,TGT,eng,deu,50,d#sysB,False,[],1\n"
    page = pilot_page("broken.csv", data)
    assert any("`broken.csv`, line 2: 11 fields where 12 are expected" in e.value for e in page.error), \
        [e.value for e in page.error]

"""AppTest tests of the DA page's blocks for last year's judgments (pages/_campaign_data.py)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import core.humaneval as he
from core import sequential as sq

from .conftest import chart, metrics, open_page, open_plan


def _minimal_reader(monkeypatch):
    """A temporary stand-in for core.humaneval.read_scores / system_table / default_pair (the reader is another
    module's work): a long CSV with system, item, rater, score; protocol from the argument (default "da")."""

    def read_scores(data, name="", *, columns=None, protocol=None):
        table = pd.read_csv(io.BytesIO(data))
        table["score"] = pd.to_numeric(table["score"], errors="coerce")
        table.attrs["protocol"] = protocol or "da"
        table.attrs["notes"] = []
        return table

    def system_table(scores):
        g = scores.groupby("system")["score"]
        out = pd.DataFrame({"mean": g.mean(), "sd": g.std(), "segments": scores.groupby("system")["item"].nunique(),
                            "raters": scores.groupby("system")["rater"].nunique(), "judgments": g.size()})
        return out.rename_axis("system").reset_index().sort_values("mean", ascending=False).reset_index(drop=True)

    def default_pair(scores):
        t = system_table(scores)
        return str(t["system"][0]), str(t["system"][1]), "The two best systems."

    for name, fn in (("read_scores", read_scores), ("system_table", system_table), ("default_pair", default_pair)):
        monkeypatch.setattr(he, name, fn, raising=False)


def _campaign_csv(seed=0) -> bytes:
    rng = np.random.default_rng(seed)
    rows = []
    for s, mean in (("sysA", 80.0), ("sysB", 77.0), ("sysC", 70.0)):
        seg = rng.normal(0, 12, 150)
        for i in range(150):
            for j in rng.choice(8, 2, replace=False):
                rows.append((s, f"s{i}", f"r{j}", float(np.clip(round(mean + seg[i] + rng.normal(0, 20)), 0, 100))))
    return pd.DataFrame(rows, columns=["system", "item", "rater", "score"]).to_csv(index=False).encode()


def test_headline_metrics_match_campaign_sample_size():
    at = open_page("sequential", timeout=120)
    assert not at.exception, at.exception
    shown = metrics(at)
    fixed = sq.campaign_sample_size("fixed", 2.0)
    futile = sq.campaign_sample_size("interim_futility", 2.0)
    assert shown["Judgments for 80% power (fixed)"] == f"{fixed.first:,}"
    assert shown["Judgments for 80% power (interim-futility)"] == f"{futile.first:,}"
    spent = sq.campaign_power("interim_futility", futile.first, 2.0).expected_judgments
    assert any(f"expects {spent:,.0f} judgments" in c.value for c in at.caption)


def test_upload_fits_the_pair_and_shows_resampled_power(monkeypatch):
    _minimal_reader(monkeypatch)
    at = open_page("sequential", timeout=180)
    at.file_uploader(key="he_file").set_value(("wmt.csv", _campaign_csv(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="sys_a").value == "sysA" and at.selectbox(key="sys_b").value == "sysB"
    shown = metrics(at)
    scores = he.read_scores(_campaign_csv(), "wmt.csv")
    fit = he.fit_campaign(scores, ["sysA", "sysB"])
    assert shown["Difference A − B"] == f"{fit.delta:+.3g} pts"  # DA: points on the 0–100 scale
    assert "Best ratings per segment" in shown
    # the fitted values go into the sliders, and the plan records where they came from
    at.button(key="he_use").click()
    at.run()
    design = fit.design("fixed")
    assert at.slider(key="mean").value == float(np.clip(round(design.mean * 2) / 2, 50, 95))
    assert at.slider(key="delta").value == pytest.approx(round(abs(fit.delta), 1))
    assert "wmt.csv: sysA vs sysB" in at.query_params["fitted"]
    # resampling on demand: the chart gains the resampled curves
    at.toggle(key="resample").set_value(True)
    at.run(timeout=300)
    assert not at.exception, at.exception
    names = [t["name"] for t in chart(at, "resampled_chart")["data"]]
    assert any("resampled" in n for n in names) and any("model" in n for n in names)
    open_plan(at, "sequential")
    text = next(c.value for c in at.code if "Direct Assessment" in c.value)
    assert "fitted from wmt.csv: sysA vs sysB" in text
    assert "Reaching 80% power takes" in text


def test_a_link_naming_a_system_the_file_lacks_is_told_once_the_file_is_read(monkeypatch):
    # the systems are known only once the file is uploaded, after the link was checked: the choice the link asked
    # for and could not get is said under it, a system the file has is taken silently
    _minimal_reader(monkeypatch)
    at = open_page("sequential", {"sys_a": "sysC", "sys_b": "<b>nosuch</b>", "seg_cost": "500", "resample": "maybe"},
                   timeout=180)
    at.file_uploader(key="he_file").set_value(("wmt.csv", _campaign_csv(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="sys_a").value == "sysC" and at.selectbox(key="sys_b").value == "sysB"
    notes = [w.value for w in at.sidebar.warning if "This link asked for" in w.value]
    assert len(notes) == 1 and "**System B**" in notes[0] and "`sysA`, `sysB`, `sysC`" in notes[0], notes
    assert "`sys_b=<b>nosuch</b>`" in notes[0]  # inert, in a code span
    # the segment's cost, under "Ratings per segment", made with the file too
    said = [w.value for w in at.main.warning if "This link asked for" in w.value]
    assert len(said) == 2, said
    assert "`resample=maybe`: **Resample last year's judgments** takes `true` or `false`" in said[0], said
    assert "`seg_cost=500`: **Cost of a segment** takes a number from 0 to 100 judgments" in said[1], said
    assert at.number_input(key="seg_cost").value == 1.0
    at.selectbox(key="sys_b").set_value("sysA")
    at.run()
    assert not [w for w in at.sidebar.warning if "This link asked for" in w.value]


def test_mt_metrics_eval_ratings_upload_fits_with_their_raters():
    """An mt-metrics-eval .seg.rating file (error spans with a rater per line) read by the real reader: the pair's
    difference is the fit of the MQM scores its spans give, and the rater variance is estimated (a .seg.score file has
    no raters)."""
    from pathlib import Path

    name = "en-de.mqm.merged.seg.rating"
    data = (Path(__file__).resolve().parents[1] / "data" / "humaneval" / name).read_bytes()
    at = open_page("sequential", timeout=180)
    at.file_uploader(key="he_file").set_value((name, data, "application/octet-stream"))
    at.run(timeout=180)
    assert not at.exception, at.exception
    assert set(at.selectbox(key="sys_a").options) == {"sysA", "sysB", "refA"}
    fit = he.fit_campaign(he.read_scores(data, name), [at.selectbox(key="sys_a").value,
                                                        at.selectbox(key="sys_b").value])
    shown = metrics(at)
    assert shown["Difference A − B"] == f"{fit.delta:+.3g} MQM pts"
    assert shown["Segment / rater / residual variance"].split(" / ")[1] != "—"


def test_protocol_defaults_button(monkeypatch):
    at = open_page("sequential", {"protocol": "mqm"}, timeout=120)
    assert not at.exception, at.exception
    at.button(key="protocol_use").click()
    at.run()
    mqm = he.PROTOCOL_DEFAULTS["mqm"]
    assert at.slider(key="mean").value == float(np.clip(round((100 - 4 * 2.41) * 2) / 2, 50, 95))
    assert at.radio(key="test").value == mqm.test


def test_a_bad_upload_gets_a_message_not_a_traceback(monkeypatch):
    _minimal_reader(monkeypatch)

    def refuse(data, name="", **_):
        raise ValueError(f"{name}, line 2: not a table of judgments")

    monkeypatch.setattr(he, "read_scores", refuse)
    at = open_page("sequential", timeout=120)
    at.file_uploader(key="he_file").set_value(("bad.tsv", b"x\ty\n", "text/plain"))
    at.run()
    assert not at.exception, at.exception
    assert any("bad.tsv" in e.value and "line 2" in e.value for e in at.error)


def test_a_second_file_with_other_systems_starts_from_its_own_pair(monkeypatch):
    _minimal_reader(monkeypatch)
    at = open_page("sequential", timeout=180)
    at.file_uploader(key="he_file").set_value(("a.csv", _campaign_csv(), "text/csv"))
    at.run()
    at.selectbox(key="sys_b").set_value("sysC")
    at.run()
    assert not at.exception, at.exception
    other = _campaign_csv(1).replace(b"\nsys", b"\nmt")
    at.file_uploader(key="he_file").set_value(("b.csv", other, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    assert (at.selectbox(key="sys_a").value, at.selectbox(key="sys_b").value) == ("mtA", "mtB")


def test_a_file_whose_columns_cannot_be_told_gets_a_column_mapping():
    # the real reader: columns named sys, seg, who, esa say nothing it knows (the flat WMT24 JSONL has line_id,
    # esa_score, annotator): the page asks which holds what instead of sending the user to Python's `columns=`
    data = _campaign_csv().decode().replace("system,item,rater,score", "sys,seg,who,esa", 1).encode()
    at = open_page("sequential", timeout=180)
    at.file_uploader(key="he_file").set_value(("wmt_flat.csv", data, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    roles = {key: at.selectbox(key=f"he_col_{key}") for key in ("system", "item", "score", "rater")}
    guessed = he.guess_roles(["sys", "seg", "who", "esa"])
    assert roles["score"].value == guessed["score"] == "esa"  # what the names tell is preselected
    roles["item"].set_value("seg")
    roles["rater"].set_value("who")
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="sys_a").value == "sysA" and at.selectbox(key="sys_b").value == "sysB"
    expected = he.fit_campaign(he.read_scores(data, "wmt_flat.csv", columns={"system": "sys", "item": "seg",
                                                                              "score": "esa", "rater": "who"}),
                               ["sysA", "sysB"])
    assert metrics(at)["Difference A − B"] == f"{expected.delta:+.3g} pts"


def _tar_gz(files: dict) -> bytes:
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as archive:
        for path, content in files.items():
            info = tarfile.TarInfo(path)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return buf.getvalue()


def _zip(files: dict) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, content in files.items():
            archive.writestr(path, content)
    return buf.getvalue()


@pytest.mark.parametrize("packing", ["gz", "tar.gz", "zip"])
def test_a_compressed_upload_fits_exactly_as_the_file_inside(packing):
    """Published archives as they are (google/wmt-mqm-human-evaluation ships its 2023 ratings as ``.tsv.tar.gz``):
    the same metrics as the uncompressed file, and the file is named as the one inside (the reader recognises
    mt-metrics-eval files by their name)."""
    import gzip
    from pathlib import Path

    name = "en-de.mqm.merged.seg.rating"
    data = (Path(__file__).resolve().parents[1] / "data" / "humaneval" / name).read_bytes()
    packed = (gzip.compress(data) if packing == "gz" else _tar_gz({f"mqm/{name}": data}) if packing == "tar.gz"
              else _zip({f"mqm/{name}": data, f"__MACOSX/mqm/._{name}": b"\x00"}))
    shown = {}
    for upload in ((name, data), (f"{name}.{packing}", packed)):
        at = open_page("sequential", timeout=180)
        at.file_uploader(key="he_file").set_value((*upload, "application/octet-stream"))
        at.run(timeout=180)
        assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
        shown[upload[0]] = metrics(at)
    plain, unpacked = shown.values()
    assert unpacked == plain and "Difference A − B" in plain


def test_a_google_mqm_file_with_every_rating_past_the_plain_limit_is_fitted():
    """Google's WMT 2023 MQM files with three ratings per segment run to 40 MB (tests/mqm_files.py): the DA page's
    uploader takes them (up to core.uploads.MAX_JUDGMENT_BYTES), and the fit is core.humaneval's on the same bytes."""
    from core import uploads
    from tests.mqm_files import marot_tsv

    content, _ = marot_tsv(uploads.MAX_BYTES + 2 * 2**20)
    name = "sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv"
    at = open_page("sequential", timeout=180)
    at.file_uploader(key="he_file").set_value((name, content, "text/tab-separated-values"))
    at.run(timeout=180)
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    fit = he.fit_campaign(he.read_scores(content, name), ["sysA", "sysB"])
    shown = metrics(at)
    assert shown["Difference A − B"] == f"{fit.delta:+.3g} MQM pts"
    assert at.selectbox(key="sys_a").value == "sysA" and at.selectbox(key="sys_b").value == "sysB"


def test_an_archive_of_several_files_is_refused_with_their_names():
    at = open_page("sequential", timeout=180)
    packed = _tar_gz({"a.seg.score": b"sysA 1\n", "b.seg.score": b"sysB 2\n"})
    at.file_uploader(key="he_file").set_value(("two.tar.gz", packed, "application/gzip"))
    at.run(timeout=180)
    assert not at.exception
    shown = [e.value.replace("\\", "") for e in at.error]  # markdown-escaped as user text
    assert any("holds 2 files (a.seg.score, b.seg.score); extract it" in m for m in shown), shown


def _hf_copy(seed=0) -> pd.DataFrame:
    """A table in the layout of the Hugging Face copies of WMT's judgments (RicardoRei/wmt-mqm-human-evaluation:
    lp, src, mt, ref, score, system, annotators, domain, year): MQM-like scores of two language pairs."""
    rng = np.random.default_rng(seed)
    rows = []
    for lp, systems in (("en-de", {"Online-A": -1.0, "Online-B": -1.6, "Online-W": -4.0}),
                        ("zh-en", {"Online-A": -2.0, "Online-B": -2.2})):
        for i in range(40):
            src = f"Source sentence {i}, of {lp}."
            for system, mean in systems.items():
                score = float(np.clip(round(mean + rng.normal(0, 2), 1), -25, 0))
                rows.append((lp, src, f"{system} output {i}", f"Reference {i}", score, system, 1, "news", 2022))
    return pd.DataFrame(rows, columns=["lp", "src", "mt", "ref", "score", "system", "annotators", "domain", "year"])


def test_a_hugging_face_copy_of_wmt_judgments_reads_as_parquet_per_language_pair():
    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(_hf_copy(), preserve_index=False), buffer)
    data = buffer.getvalue()
    at = open_page("sequential", timeout=180)
    at.file_uploader(key="he_file").set_value(("0000.parquet", data, "application/octet-stream"))
    at.run(timeout=180)
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    a, b = at.selectbox(key="sys_a"), at.selectbox(key="sys_b")
    assert set(a.options) == {"Online-A (en-de)", "Online-B (en-de)", "Online-W (en-de)", "Online-A (zh-en)",
                              "Online-B (zh-en)"}
    assert a.value.endswith("(en-de)") == b.value.endswith("(en-de)")  # a default pair of one language pair
    captions = [c.value for c in at.caption]
    assert any(c.startswith("The file does not say its protocol") for c in captions)
    at.selectbox(key="protocol").set_value("mqm")
    a.set_value("Online-A (en-de)")
    b.set_value("Online-B (en-de)")
    at.run(timeout=180)
    assert not at.exception, at.exception
    fit = he.fit_campaign(he.read_scores(data, "0000.parquet", protocol="mqm"),
                          ["Online-A (en-de)", "Online-B (en-de)"])
    assert fit.shared_segments == 40
    assert metrics(at)["Difference A − B"] == f"{fit.delta:+.3g} MQM pts"
    assert not any("no common segment" in w.value for w in at.warning)
    at.selectbox(key="sys_b").set_value("Online-B (zh-en)")
    at.run(timeout=180)
    assert not at.exception, at.exception
    assert any("were judged on no common segment" in w.value for w in at.warning)

"""core.humaneval: one reader for published human-evaluation files, the per-system table and the default pair.

Every parsed score is checked against values computed by hand from the small files in tests/data/humaneval/
(written for these tests in the published shapes; tests/data/README.md). The MQM weights are those of Freitag et
al. (2021), Table 2, as mt-metrics-eval's converters/score_mqm.py applies them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core import humaneval as he
from core import ratings as rt
from core import uploads

DATA = Path(__file__).resolve().parent / "data" / "humaneval"


def read(name: str, **kw) -> pd.DataFrame:
    return he.read_scores((DATA / name).read_bytes(), name, **kw)


def as_dict(scores: pd.DataFrame, with_rater: bool = False) -> dict:
    keys = ["system", "item", "rater"] if with_rater else ["system", "item"]
    return {tuple(row[k] for k in keys): row["score"] for _, row in scores.iterrows()}


def check_shape(scores: pd.DataFrame, protocol: str, fmt: str) -> None:
    assert list(scores.columns) == ["system", "item", "rater", "score"]
    assert scores.attrs["protocol"] == protocol and scores.attrs["format"] == fmt
    assert isinstance(scores.attrs["notes"], list)
    assert scores["score"].dtype == float and np.isfinite(scores["score"]).all()


# ---------------------------------------------------------------------------
# MQM weights (Freitag et al. 2021, Table 2)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("severity, category, weight", [
    ("Major", "Accuracy/Mistranslation", 5.0), ("Minor", "Style/Awkward", 1.0), ("Neutral", "Fluency/Grammar", 0.0),
    ("Major", "Non-translation!", 25.0), ("Minor", "Fluency/Punctuation", 0.1), ("Major", "Fluency/Punctuation", 5.0),
    ("minor", "fluency/punctuation", 0.1), ("No-error", "No-error", 0.0), ("Critical", "Accuracy", 0.0),
])
def test_mqm_weights_are_freitag_et_al_table_2(severity, category, weight):
    assert he.mqm_weight(severity, category) == weight


# ---------------------------------------------------------------------------
# Google MQM segment scores (*.avg_seg_scores.tsv)
# ---------------------------------------------------------------------------
def test_google_segment_scores_with_tabs_spaces_and_none():
    s = read("mqm_synthetic.avg_seg_scores.tsv")
    check_shape(s, "mqm", "mqm_seg_scores")
    assert as_dict(s) == {("sysA", "1"): -1.0, ("sysA", "2"): -5.1, ("sysB", "1"): 0.0, ("sysB", "2"): -2.5,
                          ("sysB", "3"): -0.333333, ("sysC", "1"): -7.0, ("sysC", "3"): -1.5}
    assert s["rater"].isna().all()
    assert any("2 judgments with no score" in n for n in s.attrs["notes"])
    assert not np.signbit(s.loc[(s.system == "sysB") & (s.item == "1"), "score"]).any()  # -0.000000 reads as 0


def test_the_space_only_newstest2020_shape_is_read_too():
    text = "system mqm_avg_score seg_id\neTranslation.737 -2.333333 1\nOnline-A.1574 -3.0 1\n"
    s = he.read_scores(text, "mqm_newstest2020_ende.avg_seg_scores.tsv")
    assert as_dict(s) == {("eTranslation.737", "1"): -2.333333, ("Online-A.1574", "1"): -3.0}


# ---------------------------------------------------------------------------
# Google MQM error annotations (mqm_*.tsv)
# ---------------------------------------------------------------------------
def test_google_error_annotations_give_minus_the_weighted_errors_per_rater():
    s = read("mqm_synthetic.tsv")
    check_shape(s, "mqm", "mqm_annotations")
    expected = {
        ("sysA", "1", "rater1"): -(5 + 0.1),  # Major Mistranslation + Minor Fluency/Punctuation
        ("sysA", "1", "rater2"): 0.0,  # No-error
        ("sysA", "2", "rater1"): -25.0,  # Major Non-translation!
        ("sysA", "2", "rater2"): -1.0,  # Minor Style/Awkward + Neutral Fluency/Grammar
        ("sysB", "1", "rater1"): -5.0,  # Major Fluency/Punctuation has the standard weight
        ("sysB", "1", "rater2"): -(1 + 0.1 + 1),  # Minor Grammar + minor fluency/punctuation + Minor Omission
        ("sysB", "2", "rater1"): 0.0,  # Neutral Other
        ("sysB", "2", "rater2"): -(1 + 5),  # Minor Source error + Major Terminology
    }
    got = as_dict(s, with_rater=True)
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-12), key
    assert any("13 annotation rows" in n and "8 judgments" in n for n in s.attrs["notes"])


def test_quotes_inside_annotation_fields_are_text_not_quoting():
    # an unbalanced quote in a target sentence must not swallow the following rows (csv.QUOTE_NONE)
    s = read("mqm_synthetic.tsv")
    assert len(s) == 8 and set(s["system"]) == {"sysA", "sysB"}


def test_averaging_the_raters_gives_the_segment_scores():
    s = read("mqm_synthetic.tsv")
    means = s.groupby(["system", "item"])["score"].mean()
    assert means[("sysA", "1")] == pytest.approx(-5.1 / 2) and means[("sysB", "2")] == pytest.approx(-3.0)


# ---------------------------------------------------------------------------
# mt-metrics-eval
# ---------------------------------------------------------------------------
def test_mtme_segment_file_numbers_segments_within_each_system():
    s = read("en-de.mqm.seg.score")
    check_shape(s, "mqm", "mtme_seg")
    assert as_dict(s) == {("sysA", "1"): -1.0, ("sysA", "2"): -5.1, ("sysA", "4"): 0.0,
                          ("sysB", "1"): 0.0, ("sysB", "2"): -2.5, ("sysB", "3"): -0.333333,
                          ("refA", "1"): 0.0, ("refA", "2"): 0.0, ("refA", "3"): -1.0, ("refA", "4"): 0.0}
    assert any("2 judgments with no score" in n for n in s.attrs["notes"])


@pytest.mark.parametrize("name, protocol", [
    ("en-de.mqm.seg.score", "mqm"), ("en-de.da-sqm.seg.score", "da-sqm"), ("en-de.esa.seg.score", "esa"),
    ("en-de.esa-human1.seg.score", "esa"), ("en-de.wmt-raw.seg.score", "da"), ("en-de.wmt-z.seg.score", "scores"),
    ("en-de.wmt-appraise.seg.score", "da"), ("en-de.psqm.seg.score", "sqm"), ("BLEU-refA.seg.score", "scores"),
])
def test_mtme_protocol_comes_from_the_file_name(name, protocol):
    s = he.read_scores((DATA / "en-de.mqm.seg.score").read_bytes(), name)
    assert s.attrs["protocol"] == protocol and len(s) == 10


def test_mtme_content_is_recognised_without_the_name():
    s = he.read_scores((DATA / "en-de.mqm.seg.score").read_bytes(), "renamed.txt")
    assert s.attrs["format"] == "mtme_seg" and s.attrs["protocol"] == "scores" and len(s) == 10
    assert he.read_scores((DATA / "en-de.mqm.seg.score").read_bytes(), "renamed.txt", protocol="mqm").attrs[
        "protocol"] == "mqm"


def test_mtme_ratings_are_scored_from_their_error_spans():
    """mt-metrics-eval's <lp>.<name>.seg.rating (ratings.ReadRatingFile): segments by position within each system,
    None lines included; each rating minus its errors' weights (Freitag et al. 2021, Table 2), by hand: Major 5,
    Minor 1 + Minor Fluency/Punctuation 0.1, Non-translation! 25 + Minor punctuation 0.1, Neutral 0, a severity-less
    error's own score 2.5 + "Critical" as Major 5 (WMT24's humeval/tools.py), Major 5 + an unweighted "Trivial" 0; a
    line without a rater is the file's rating name's."""
    s = read("en-de.mqm.merged.seg.rating")
    check_shape(s, "mqm", "mtme_rating")
    assert as_dict(s, with_rater=True) == {
        ("sysA", "1", "rater1"): -5.0, ("sysA", "3", "rater2"): 0.0, ("sysA", "4", "rater1"): pytest.approx(-1.1),
        ("sysB", "1", "rater1"): pytest.approx(-25.1), ("sysB", "2", "rater3"): -1.0,
        ("sysB", "3", "mqm.merged"): 0.0, ("sysB", "4", "rater2"): -7.5,
        ("refA", "2", "rater3"): 0.0, ("refA", "3", "rater2"): -5.0}
    notes = " ".join(s.attrs["notes"])
    assert "3 judgments with no score" in notes and "1 error has neither a severity with a weight nor a score" in notes
    # a rater's file may open on more unrated segments than the sniffer reads: still ratings, by name or by content
    late = "sysA\tNone\n" * 2_500 + 'sysA\t{"errors": [{"severity": "major"}]}\tr1\n'
    for name in ("en-de.mqm.rater1.seg.rating", "renamed.txt"):
        assert as_dict(he.read_scores(late, name)) == {("sysA", "2501"): -5.0}
    # an error's own score is a weight when its severity has none; a huge or infinite one is refused by line
    assert he.read_scores('sysA\t{"errors": [{"severity": "other", "score": 3}]}\tr\n', "x.seg.rating")[
        "score"].tolist() == [-3.0]
    with pytest.raises(ValueError, match="line 1: an error's score is not a finite number"):
        he.read_scores('sysA\t{"errors": [{"severity": null, "score": ' + "9" * 400 + "}]}\tr\n", "x.seg.rating")
    # a three-column table whose middle cell merely mentions "errors" is not a ratings file
    from core import home as hm
    assert hm.recognise("x.tsv", b'q1\t{"errors": 0, "answer": "x"}\tgpt\nq2\tNone\tgpt\n') != "human_scores"
    # recognised by content as well, and on the home page as judgments for the campaign page
    data = (DATA / "en-de.mqm.merged.seg.rating").read_bytes()
    assert he.sniff_format(data, "renamed.txt") == "mtme_rating"
    from core import home
    assert home.recognise("renamed.txt", data) == "human_scores"


@pytest.mark.parametrize("line, message", [
    ("sysA\t{\"errors\": []}\trater1\textra", "line 2: expected 2 or 3 tab-separated fields"),
    ("sysA\t{\"errors\": [}\trater1", "line 2: the rating is neither JSON nor None"),
    ("sysA\t{\"errs\": []}\trater1", 'line 2: a rating is a JSON object {"errors"'),
    ("sysA\t{\"errors\": [5]}\trater1", "line 2: each error of a rating is a JSON object"),
    ("sysA\t" + "[" * 100_000 + "]" * 100_000 + "\trater1", "line 2: the rating is neither JSON nor None"),
    ("\t{\"errors\": []}\trater1", "line 2: the system name is empty"),
])
def test_bad_mtme_ratings_are_named_by_line(line, message):
    text = "sysA\t{\"errors\": []}\trater1\n" + line + "\n"
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("{", r"\{")):
        he.read_scores(text, "en-de.mqm.rater1.seg.rating")


def test_wmt_unified_jsonl_reads_every_annotation_with_its_annotator():
    """WMT's unified human-evaluation JSON lines (wmt24-news-systems, humeval/merge_to_jsonl.py): a record per segment
    (its doc_id), a judgment per annotation in `scores`; systems named with the pair that opens the doc_id; a null
    score left out; the MQM annotation of a file that is mostly ESA left out with a note, and read when asked for."""
    s = read("wmt24-genmt-humeval.jsonl")
    check_shape(s, "esa", "wmt_jsonl")
    assert as_dict(s, with_rater=True) == {
        ("sysA (en-de)", "en-de_#_news_#_doc1_#_0", "ann1"): 80.0,
        ("sysB (en-de)", "en-de_#_news_#_doc1_#_0", "ann2"): 60.0,
        ("sysA (en-de)", "en-de_#_news_#_doc1_#_1", "ann1"): 70.0,
        ("sysB (en-de)", "en-de_#_news_#_doc1_#_1", "ann3"): 55.0,
        ("sysA (cs-uk)", "cs-uk_#_speech_#_doc9_#_4", "ann4"): 90.0,
        ("sysC (cs-uk)", "cs-uk_#_speech_#_doc9_#_4", "ann4"): 40.0}
    notes = " ".join(s.attrs["notes"])
    assert "7 ESA annotations are read and 1 MQM left out" in notes and "1 judgment with no score" in notes
    mqm = read("wmt24-genmt-humeval.jsonl", protocol="mqm")
    assert mqm.attrs["protocol"] == "mqm" and as_dict(mqm, with_rater=True) == {
        ("sysA", "en-de_#_news_#_doc1_#_0", "mqm1"): -3.0}
    from core import home
    assert home.recognise("renamed.jsonl", (DATA / "wmt24-genmt-humeval.jsonl").read_bytes()) == "human_scores"


def test_wmt_unified_jsonl_keeps_an_annotators_latest_rating_and_says_what_protocol_was_read():
    """WMT24's humeval/tools.py keeps an annotator's latest rating of a segment ("take the latest one", by end time);
    a protocol chosen that the file does not declare is read as chosen, with a note."""
    record = ('{"scores": {"A": [{"score": 80, "annotator": "a", "times": [1, 2], "protocol": "ESA"}, '
              '{"score": 20, "annotator": "a", "times": [3, 4], "protocol": "ESA"}, '
              '{"score": 60, "annotator": "a", "times": [0, 1], "protocol": "ESA"}], '
              '"B": [{"score": 50, "annotator": "b", "protocol": "ESA"}]}, "doc_id": "d"}\n')
    s = he.read_scores(record, "x.jsonl")
    assert as_dict(s, with_rater=True) == {("A", "d", "a"): 20.0, ("B", "d", "b"): 50.0}
    assert any("2 repeated ratings" in n for n in s.attrs["notes"])
    chosen = he.read_scores(record, "x.jsonl", protocol="mqm")
    assert chosen.attrs["protocol"] == "mqm" and "are ESA; they are read as MQM, as chosen" in chosen.attrs["notes"][0]


@pytest.mark.parametrize("second, message", [
    ('{"scores": {"sysA": {"score": 1}}, "doc_id": "x"}', "record 2: the scores of system 'sysA' are not a list"),
    ('{"scores": {"sysA": [5]}, "doc_id": "x"}', "record 2: an annotation of system 'sysA' is not an object"),
    ('{"scores": {"sysA": [{"score": "high"}]}, "doc_id": "x"}', "record 2: a score of system 'sysA' is not a number"),
    ('{"scores": {"sysA": [{"score": 1}]}, "doc_id": " "}', "record 2: the `doc_id` is empty"),
    ('{"scores": {"sysA": [{"score": 1}]}, "doc_id": null}', "record 2: the `doc_id` is empty or not text"),
    ('{"scores": {"sysA": [{"score": 1e999}]}, "doc_id": "x"}', "record 2: a score of system 'sysA' is not a finite"),
    ('{"scores": {"sysA": [{"score": ' + "9" * 400 + '}]}, "doc_id": "x"}',
     "record 2: a score of system 'sysA' is not a finite"),
    ('{"scores": {" ": [{"score": 1}]}, "doc_id": "x"}', "record 2: a system name is empty"),
    ('{"scores": {"sysA": [{"score": 1, "annotator": ["a"]}]}, "doc_id": "x"}',
     "record 2: an annotator of system 'sysA' is not a name"),
    ('{"system": "sysA", "score": 1}', "record 2: expected a `scores` object of systems and a `doc_id`"),
])
def test_bad_wmt_unified_records_are_named(second, message):
    first = '{"scores": {"sysA": [{"score": 70, "annotator": "a", "protocol": "ESA"}]}, "doc_id": "en-de_#_n_#_d_#_0"}'
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("`", ".")):
        he.read_scores((first + "\n" + second + "\n").encode(), "humeval.jsonl")


def test_mtme_system_level_files_are_refused_with_what_is_needed():
    with pytest.raises(ValueError, match=r"system-level file.*cannot give power.*seg\.score"):
        read("en-de.mqm.sys.score")
    with pytest.raises(ValueError, match="one score per system"):
        he.read_scores((DATA / "en-de.mqm.sys.score").read_bytes(), "sys.txt")
    with pytest.raises(ValueError, match="domain-level"):
        he.read_scores(b"news\tsysA\t-1.0\n", "en-de.mqm.domain.score")


# ---------------------------------------------------------------------------
# Appraise exports
# ---------------------------------------------------------------------------
def test_appraise_esa_export_keeps_target_segments_only():
    s = read("esa_campaign.scores.csv")
    check_shape(s, "esa", "appraise")
    assert as_dict(s, with_rater=True) == {
        ("sysA", "doc7#0", "engdeu0a01"): 80.0, ("sysA", "doc7#1", "engdeu0a01"): 60.0,
        ("sysB", "doc7#0", "engdeu0a01"): 90.0, ("sysB", "doc7#1", "engdeu0a01"): 75.0,
        ("sysA", "doc7#0", "engdeu0a02"): 85.0, ("sysA", "doc7#1", "engdeu0a02"): 55.0,
        ("sysB", "doc7#0", "engdeu0a02"): 95.0, ("sysB", "doc7#1", "engdeu0a02"): 65.0}
    notes = " ".join(s.attrs["notes"])
    assert "1 BAD, 1 REF" in notes and "1 whole-document judgment left out" in notes


def test_appraise_esa_spans_scored_as_mqm_on_request():
    s = read("esa_campaign.scores.csv", protocol="mqm")
    assert s.attrs["protocol"] == "mqm"
    got = as_dict(s, with_rater=True)
    assert got[("sysA", "doc7#1", "engdeu0a01")] == -(5 + 1)  # a major and a minor span
    assert got[("sysA", "doc7#1", "engdeu0a02")] == -5  # a major "missing" span
    assert got[("sysB", "doc7#0", "engdeu0a02")] == 0


def test_appraise_mqm_export_is_scored_from_its_error_spans():
    s = read("mqm_campaign.scores.csv")
    check_shape(s, "mqm", "appraise")
    got = as_dict(s)
    assert got[("sysA", "doc3#0")] == 0.0
    assert got[("sysA", "doc3#1")] == pytest.approx(-(5 + 0.1))  # major + minor Linguistic conventions/Punctuation
    assert got[("sysB", "doc3#0")] == -1.0 and got[("sysB", "doc3#1")] == 0.0  # minor; neutral
    assert "1 CHK" in " ".join(s.attrs["notes"])
    esa = read("mqm_campaign.scores.csv", protocol="esa")
    assert sorted(esa["score"]) == [76.0, 96.0, 100.0, 100.0]


#: Rows shaped as WMT24's ESA waves (wmt24-news-systems, humeval/esa_generalMT2024_wave2.csv): 12 fields, spans with
#: "undecided" and "critical" severities, several language pairs, control documents (#dup, #incomplete, tutorial).
WMT24_ESA = (
    b'engjpn7c2b,Aya23,180,TGT,eng,jpn,75,test-en-social_1,False,"[{""start_i"":8,""end_i"":13,""severity"":""undecided"",""error_type"":null}]",1724923859.663,1724923919.607\n'
    b'engjpn7c2b,GPT-4,180,TGT,eng,jpn,88,test-en-social_1,False,[],1724923920.1,1724923930.2\n'
    b'engjpn7c2c,GPT-4,180,TGT,eng,jpn,80,test-en-social_1,False,"[{""start_i"":1,""end_i"":3,""severity"":""critical"",""error_type"":null}]",1.0,2.0\n'
    b'engces7a01,GPT-4,180,TGT,eng,ces,60,test-en-social_1,False,[],1.0,2.0\n'
    b'engces7a01,Aya23,180,TGT,eng,ces,40,test-en-social_1,False,[],1.0,2.0\n'
    b'engces7a01,Aya23,181,TGT,eng,ces,45,test-en-social_1#dup,False,[],1.0,2.0\n'
    b'engces7a01,Aya23,182,TGT,eng,ces,50,test-en-social_2#incomplete,False,[],1.0,2.0\n'
    b'engces7a01,GPT-4,183,TGT,eng,ces,55,ende-tutorial1,False,[],1.0,2.0\n'
)


def test_wmt24_esa_wave_reads_per_language_pair_without_control_documents():
    s = he.read_scores(WMT24_ESA, "esa_generalMT2024_wave2.csv")
    assert s.attrs["protocol"] == "esa"
    got = as_dict(s, with_rater=True)
    assert got == {("Aya23 (eng-jpn)", "test-en-social_1#eng-jpn:180", "engjpn7c2b"): 75.0,
                   ("GPT-4 (eng-jpn)", "test-en-social_1#eng-jpn:180", "engjpn7c2b"): 88.0,
                   ("GPT-4 (eng-jpn)", "test-en-social_1#eng-jpn:180", "engjpn7c2c"): 80.0,
                   ("GPT-4 (eng-ces)", "test-en-social_1#eng-ces:180", "engces7a01"): 60.0,
                   ("Aya23 (eng-ces)", "test-en-social_1#eng-ces:180", "engces7a01"): 40.0}
    notes = " ".join(s.attrs["notes"])
    assert "3 judgments of control documents left out" in notes and "2 language pairs (eng-ces, eng-jpn)" in notes
    # as MQM: an undecided span weighs 0 (the annotator chose no severity), a critical one as a major (WMT24's tools)
    mqm = as_dict(he.read_scores(WMT24_ESA, "wave.csv", protocol="mqm"), with_rater=True)
    assert mqm[("Aya23 (eng-jpn)", "test-en-social_1#eng-jpn:180", "engjpn7c2b")] == 0
    assert mqm[("GPT-4 (eng-jpn)", "test-en-social_1#eng-jpn:180", "engjpn7c2c")] == -5


def test_appraise_segment_level_da_export():
    data = b"u1,sysA,7,TGT,eng,deu,70,1.0,2.0\nu1,sysB,7,TGT,eng,deu,64,2.0,3.0\nu1,sysB,3,REF,eng,deu,99,3.0,4.0\n"
    s = he.read_scores(data, "da.csv")
    check_shape(s, "da", "appraise")
    assert as_dict(s, with_rater=True) == {("sysA", "7", "u1"): 70.0, ("sysB", "7", "u1"): 64.0}


# ---------------------------------------------------------------------------
# WMT DA tables, long tables, JSON lines
# ---------------------------------------------------------------------------
def test_wmt_da_seg_scores_prefer_raw_scores():
    s = read("ad-seg-scores-xx-yy.csv")
    check_shape(s, "da", "wmt_da")
    assert as_dict(s) == {("newstest2020.sysA.1", "1"): 71.5, ("newstest2020.sysA.1", "2"): 55.0,
                          ("newstest2020.sysA.1", "3"): 90.0, ("newstest2020.sysB.2", "1"): 60.0,
                          ("newstest2020.sysB.2", "2"): 40.5, ("newstest2020.sysB.2", "3"): 88.0}
    assert any("Z.SCR" in n for n in s.attrs["notes"])
    # each row averages N ratings (9 in 6 rows here): said, with the totals read from the N column
    averaged = [n for n in s.attrs["notes"] if "mean of the 9 ratings" in n]
    assert averaged and "1.50 per row" in averaged[0] and "up to 3" in averaged[0]


def test_rows_of_single_ratings_get_no_averaging_note():
    s = he.read_scores(b"SYS SID RAW.SCR N\nsysA 1 70 1\nsysA 2 60 1\nsysB 1 50 1\nsysB 2 65 1\n", "x.csv")
    assert not any("mean of the" in n for n in s.attrs["notes"])


def test_z_scores_are_never_read_as_da_points():
    """WMT's Z.SCR (each rater's scores standardised) alone, or mt-metrics-eval's wmt-z file: plain scores with a
    note, so the campaign's mean, SD and difference are not taken as 0–100 DA points (a z-score mean of 0.2 would
    read as a DA mean of 0.2 points)."""
    table = b"SYS SID Z.SCR\nsysA 1 0.41\nsysA 2 -0.22\nsysB 1 -0.1\nsysB 2 0.95\n"
    s = he.read_scores(table, "z.csv")
    assert s.attrs["protocol"] == "scores" and he.readers.Z_NOTE in s.attrs["notes"]
    mtme = he.read_scores(b"sysA 0.41\nsysA -0.22\nsysB -0.1\nsysB 0.95\n", "en-de.wmt-z.seg.score")
    assert mtme.attrs["protocol"] == "scores" and he.readers.Z_NOTE in mtme.attrs["notes"]
    raw = he.read_scores(b"sysA 71.5\nsysA 55\nsysB 60\nsysB 88\n", "en-de.wmt-raw.seg.score")
    assert raw.attrs["protocol"] == "da" and he.readers.Z_NOTE not in raw.attrs["notes"]


def test_headerless_long_table_through_a_column_mapping():
    mapping = {"system": "column 1", "item": "column 2", "rater": "column 3", "score": "column 4"}
    for header in ("auto", "no"):
        s = read("headerless_long.csv", columns=mapping, header=header)
        check_shape(s, "scores", "table")
        assert as_dict(s, with_rater=True) == {("sysA", "s1", "w1"): 4.0, ("sysA", "s2", "w1"): 3.0,
                                               ("sysB", "s1", "w1"): 5.0, ("sysB", "s2", "w2"): 2.0,
                                               ("sysA", "s1", "w2"): 5.0, ("sysB", "s1", "w2"): 4.0}
    with pytest.raises(ValueError, match=r"columns=\{'system'"):
        read("headerless_long.csv")


def test_a_header_with_usual_names_needs_no_mapping():
    s = he.read_scores(b"SYS,SegmentID,Annotator,Rating\na,1,r1,3\nb,1,r1,4\n", "long.csv")
    assert as_dict(s, with_rater=True) == {("a", "1", "r1"): 3.0, ("b", "1", "r1"): 4.0}
    assert s.attrs["format"] == "table"


def test_a_first_row_holding_a_number_is_data():
    # repeated names in the first row ("x", "x") used to be "the header has repeated column names"
    s = he.read_scores(b"x,x,r,1\nx,y,r,2\n", "noheader.csv",
                       columns={"system": "column 1", "item": "column 2", "score": "column 4"})
    assert as_dict(s) == {("x", "x"): 1.0, ("x", "y"): 2.0} and any("read as data" in n for n in s.attrs["notes"])
    with pytest.raises(ValueError, match="repeated column names; choose header='no'"):
        he.read_scores(b"x,x,r,1\nx,y,r,2\n", "noheader.csv", header="yes",
                       columns={"system": "x", "item": "r", "score": "1"})


def test_json_lines():
    lines = [{"system": "a", "seg_id": 1, "rater": "r1", "score": 0.5}, {"system": "b", "seg_id": 1, "rater": "r1",
                                                                          "score": None}]
    s = he.read_scores("\n".join(json.dumps(x) for x in lines).encode(), "scores.jsonl")
    check_shape(s, "scores", "jsonl")
    assert as_dict(s, with_rater=True) == {("a", "1", "r1"): 0.5}


def test_str_and_bytes_give_the_same_table():
    text = (DATA / "mqm_synthetic.tsv").read_text()
    pd.testing.assert_frame_equal(he.read_scores(text, "x.tsv"), read("mqm_synthetic.tsv"))


# ---------------------------------------------------------------------------
# malformed files: the message names the file and the line
# ---------------------------------------------------------------------------
ANNOTATION_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


@pytest.mark.parametrize("name, data, message", [
    ("a.avg_seg_scores.tsv", b"system mqm_avg_score seg_id\nA\t-1.0 1\nA\t-1.0 2 7\n", "line 3: 4 fields"),
    ("a.avg_seg_scores.tsv", b"system mqm_avg_score seg_id\r\nA\t-1 1\r\n\r\nA\t-1.0\r\n", "line 4: 2 fields"),
    ("a.avg_seg_scores.tsv", b"system mqm_avg_score seg_id\nA\t-1.0 1\nA\tbad 2\n", "line 3: the mqm_avg_score 'bad'"),
    ("mqm_x.tsv", (ANNOTATION_HEADER + "A\td\t1\t1\tr\ts\tt\tOther\tMajor\nA\td\t1\t1\tr\ts\tt\tOther\n").encode(),
     "line 3: 8 fields where 9"),
    ("mqm_x.tsv", (ANNOTATION_HEADER + "A\td\t1\t1\tr\ts\tt\tOther\tMajor\n\nA\td\t1\t1\tr\ts\tt\tx\tOther\tMajor\n")
     .encode(), "line 4: 10 fields where 9"),
    ("x.seg.score", b"A\t1\nA\t2\nA\t3 4\n", "line 3: 3 fields where 2"),
    ("x.seg.score", b"A\t1\nA\tabc\n", "line 2: the score 'abc'"),
    ("app.csv", b"u1,sysA,1,TGT,eng,deu,50\nu1,sysA,2,XYZ,eng,deu,50\n", "line 2: item type 'XYZ'"),
    ("app.csv", b"u1,s,1,TGT,eng,deu,50,d#s,False,[],1,2\nu1,s,2,TGT,eng,deu,50,d#s,False,[],1\n", "line 2: 11 fields"),
    ("app.csv", b'u1,s,1,TGT,eng,deu,50,d#s,False,"[{""severity"": ""blocker""}]",1,2\n', "line 1: an error span"),
    ("app.csv", b'u1,s,1,TGT,eng,deu,50,d#s,False,"{not json",1,2\n', "line 1: the error spans are not"),
    ("long.csv", b"system,item,score\nA,1,2\nB,1,x\n", "line 3: the score 'x'"),
    ("long.csv", b"system,item,score\nA,1,2\n,1,3\n", "line 3: the system is empty"),
])
def test_malformed_files_name_the_file_and_the_line(name, data, message):
    with pytest.raises(ValueError) as err:
        he.read_scores(data, name)
    assert f"`{name}`" in str(err.value) and message in str(err.value), str(err.value)


def test_unreadable_uploads_are_refused_as_everywhere():
    with pytest.raises(ValueError, match="empty"):
        he.read_scores(b"", "e.tsv")
    with pytest.raises(ValueError, match="binary"):
        he.read_scores(b"a\x00b", "b.tsv")
    with pytest.raises(ValueError, match="at most 64 MB"):
        he.read_scores(b"a" * (uploads.MAX_JUDGMENT_BYTES + 1), "big.tsv")
    with pytest.raises(ValueError, match="`protocol` must be one of"):
        he.read_scores(b"a b\n", "x", protocol="bleu")
    with pytest.raises(ValueError, match="no scores"):
        he.read_scores(b"system mqm_avg_score seg_id\nA\tNone 1\n", "none.tsv")


# ---------------------------------------------------------------------------
# per-system table and default pair
# ---------------------------------------------------------------------------
def test_system_table_against_numpy():
    s = read("mqm_synthetic.tsv")
    t = he.system_table(s).set_index("system")
    a = np.array([-5.1, 0.0, -25.0, -1.0])
    b = np.array([-5.0, -2.1, 0.0, -6.0])
    assert list(t.index) == ["sysB", "sysA"]  # best mean first
    assert t.loc["sysA", "mean"] == pytest.approx(a.mean()) and t.loc["sysA", "sd"] == pytest.approx(a.std(ddof=1))
    assert t.loc["sysB", "mean"] == pytest.approx(b.mean()) and t.loc["sysB", "sd"] == pytest.approx(b.std(ddof=1))
    assert t.loc["sysA", ["segments", "raters", "judgments"]].tolist() == [2, 2, 4]
    no_raters = he.system_table(read("mqm_synthetic.avg_seg_scores.tsv")).set_index("system")
    assert no_raters["raters"].tolist() == [0, 0, 0] and no_raters.loc["sysC", "judgments"] == 2


def test_system_table_counts_only_rated_rows():
    """A row without a score ("not rated") is no judgment: it counted as one and left the system's SD NaN."""
    s = pd.DataFrame({"system": ["A", "A", "B", "B"], "item": ["1", "2", "1", "2"], "rater": [pd.NA] * 4,
                      "score": [70.0, np.nan, 60.0, 64.0]})
    t = he.system_table(s).set_index("system")
    assert t.loc["A", "judgments"] == 1 and t.loc["A", "segments"] == 1 and t.loc["A", "mean"] == 70.0
    assert t.loc["B", "judgments"] == 2 and t.loc["B", "sd"] == pytest.approx(np.std([60.0, 64.0], ddof=1))


def _table(means: dict, n: int = 3) -> pd.DataFrame:
    rows = [(sys, str(i), pd.NA, m + d) for sys, m in means.items() for i, d in enumerate((-1.0, 0.0, 1.0)[:n])]
    return pd.DataFrame(rows, columns=["system", "item", "rater", "score"])


def test_default_pair_is_the_closest_neighbours_among_the_top_five():
    means = {"s1": 10.0, "s2": 9.0, "s3": 8.9, "s4": 5.0, "s5": 4.95, "s6": 4.94}
    a, b, reason = he.default_pair(_table(means))
    assert (a, b) == ("s4", "s5")  # gaps among the top five: 1, 0.1, 3.9, 0.05; s6 is not in the top five
    assert "top 5 of 6" in reason and "0.05" in reason


def test_default_pair_leaves_human_references_out():
    a, b, reason = he.default_pair(_table({"ref-A": 9.0, "Human-B.0": 8.99, "sysX": 5.0, "sysY": 4.0, "refine": 1.0}))
    assert (a, b) == ("sysX", "sysY") and "human references left out" in reason
    assert he.default_pair(_table({"ref-A": 9.0, "sysX": 5.0}))[:2] == ("ref-A", "sysX")


def test_default_pair_needs_two_systems():
    with pytest.raises(ValueError, match="at least two systems"):
        he.default_pair(_table({"a": 1.0, "b": 2.0}, n=1))
    with pytest.raises(ValueError, match="`scores` must be a table"):
        he.system_table(pd.DataFrame({"x": [1]}))


# ---------------------------------------------------------------------------
# the Ratings pilot with many systems
# ---------------------------------------------------------------------------
def _many_systems(k: int = 15, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(f"w{w}", f"i{i}", f"sys{s:02d}", float(np.clip(round(3 + 0.1 * s + rng.normal(0, 1)), 1, 5)))
            for s in range(k) for w in range(4) for i in range(15)]
    return pd.DataFrame(rows, columns=["worker", "item", "system", "rating"])


def test_fit_pilot_picks_two_of_many_systems():
    df = _many_systems()
    with pytest.raises(ValueError, match=r"exactly 2 systems; found 15.*systems=\(a, b\)"):
        rt.fit_pilot(df)
    chosen = rt.fit_pilot(df, systems=("sys03", "sys07"))
    alone = rt.fit_pilot(df[df["system"].isin(["sys03", "sys07"])])  # the same two systems on their own
    assert chosen.systems == ("sys03", "sys07") and chosen.n_ratings == 120
    assert chosen.effect == pytest.approx(alone.effect) and chosen.sigmas == pytest.approx(alone.sigmas)
    flipped = rt.fit_pilot(df, systems=("sys07", "sys03"))  # the first system is coded -1
    assert flipped.effect == pytest.approx(-chosen.effect) and flipped.systems == ("sys07", "sys03")


@pytest.mark.parametrize("systems, message", [
    (("sys01",), "two system names"), ("ab", "two system names"), (("sys01", "sys01"), "two different"),
    (("sys01", "nope"), "no ratings of 'nope'"),
])
def test_fit_pilot_systems_are_checked(systems, message):
    with pytest.raises(ValueError, match=message):
        rt.fit_pilot(_many_systems(4), systems=systems)


def test_a_human_judgment_file_fits_as_a_pilot():
    s = read("esa_campaign.scores.csv")
    table = pd.DataFrame({"worker": s["rater"], "item": s["item"], "system": s["system"], "rating": s["score"]})
    fit = rt.fit_pilot(table, systems=("sysA", "sysB"))
    # fully crossed (2 raters × 2 segments × 2 systems): β1 is half the mean difference on the [0, 1] scale
    y = (s["score"] - s["score"].min()) / (s["score"].max() - s["score"].min())
    diff = y[s["system"] == "sysB"].mean() - y[s["system"] == "sysA"].mean()
    assert fit.method == "reml" and fit.effect == pytest.approx(diff / 2) and math.isfinite(fit.sigma)


def test_appraise_document_level_da_without_error_spans():
    # direct_assessment_context.py: document id and is-document, then start and end times (no MQM column)
    data = (b"u1,sysA,4,TGT,eng,deu,70,docX#sysA,False,1700000000.5,1700000009.0\n"
            b"u1,sysB,4,TGT,eng,deu,64,docX#sysB,False,1700000010.5,1700000019.0\n"
            b"u1,sysB,0,TGT,eng,deu,66,docX#sysB,True,1700000020.5,1700000029.0\n")
    s = he.read_scores(data, "context.csv")
    check_shape(s, "da", "appraise")
    assert as_dict(s, with_rater=True) == {("sysA", "docX#4", "u1"): 70.0, ("sysB", "docX#4", "u1"): 64.0}
    with pytest.raises(ValueError, match="no error spans to score as MQM"):
        he.read_scores(data, "context.csv", protocol="mqm")
    # a segment-level export has no span column at all: its 0–100 score was returned labelled MQM (+50)
    segment = b"u1,sysA,1,TGT,eng,deu,50,1700000000.5,1700000009.0\nu1,sysB,1,TGT,eng,deu,60,1700000010.5,1700000019.0\n"
    assert he.read_scores(segment, "segments.csv").attrs["protocol"] == "da"
    with pytest.raises(ValueError, match="no error spans to score as MQM"):
        he.read_scores(segment, "segments.csv", protocol="mqm")


def test_google_psqm_ratings():
    s = read("psqm_synthetic.tsv")
    check_shape(s, "sqm", "psqm")
    assert as_dict(s, with_rater=True) == {("sysA", "1", "rater1"): 4.0, ("sysA", "1", "rater2"): 5.0,
                                           ("sysB", "1", "rater1"): 2.5, ("sysB", "2", "rater1"): 6.0}


def test_mtme_document_level_file_numbers_documents():
    s = he.read_scores(b"sysA\t-1.5\nsysA\t-0.5\nsysB\t-2.0\nsysB\tNone\n", "en-de.mqm.doc.score")
    check_shape(s, "mqm", "mtme_doc")
    assert as_dict(s) == {("sysA", "1"): -1.5, ("sysA", "2"): -0.5, ("sysB", "1"): -2.0}
    assert any("document is its position" in n for n in s.attrs["notes"])


def test_json_judgments_with_a_new_field_per_record_are_refused_without_building_them():
    # a frame of every key of every record grows as records × keys: 20,000 such lines (1 MB) asked for 3 GB
    lines = "".join(f'{{"sys": "A", "sid": "{i}", "score": {i % 7}, "k{i}": 1}}\n' for i in range(5000))
    with pytest.raises(ValueError, match="different fields; a file of judgments has a few"):
        he.read_scores(lines.encode(), "keys.jsonl")
    ok = "".join(f'{{"system": "{s}", "item": "{i}", "score": {i % 7}}}\n' for i in range(20) for s in "AB")
    assert len(he.read_scores(ok.encode(), "ok.jsonl")) == 40


#: Rows shaped as WMT21's raw DA files (wmt21-news-systems, humaneval/facebook-wikipedia-2021/ad-latest.csv): a
#: tab-separated header over rows mixing tabs and spaces, quoted system names, several language pairs.
WMT21_AD_LATEST = (
    "HITId\tWorkerId\tInput.src\tInput.trg\tInput.item\thit\tsys_id\trid\ttype\tsid\tscore\ttime\n"
    'NA\tevaluator3\thi\tbn ad NA\t"Online-G.7" NA SYSTEM\thi-bn-0-46-1001558.1_1\t30\t0\n'
    'NA\tevaluator3\thi\tbn ad NA\t"GTCOM.0" NA SYSTEM\thi-bn-0-46-1001558.1_1\t55\t0\n'
    'NA\tevaluator4\tbn\thi ad NA\t"GTCOM.0" NA SYSTEM\tbn-hi-0-46-1001558.1_1\t70\t0\n'
    'NA\tevaluator4\tbn\thi ad NA\t"Online-G.7" NA BAD_REF\tbn-hi-0-46-1001558.1_1\t10\t0\n'
).encode()


def test_wmt21_raw_da_file_reads_as_da_per_language_pair():
    s = he.read_scores(WMT21_AD_LATEST, "ad-latest.csv")
    assert s.attrs["protocol"] == "da"
    assert as_dict(s, with_rater=True) == {
        ("Online-G.7 (hi-bn)", "hi-bn:hi-bn-0-46-1001558.1_1", "evaluator3"): 30.0,
        ("GTCOM.0 (hi-bn)", "hi-bn:hi-bn-0-46-1001558.1_1", "evaluator3"): 55.0,
        ("GTCOM.0 (bn-hi)", "bn-hi:bn-hi-0-46-1001558.1_1", "evaluator4"): 70.0}
    notes = " ".join(s.attrs["notes"])
    assert "1 BAD_REF" in notes and "2 language pairs (bn-hi, hi-bn)" in notes


#: Google's MQM annotations from WMT 2023 on (google/wmt-mqm-human-evaluation, generalMT2023/ende/
#: mqm_generalMT2023_ende.tsv, written by Marot): docSegId/globalSegId, a metadata column, and a last header field
#: "# Documentation: <url>" that no row fills.
MAROT_TSV = (
    "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\t"
    "# Documentation: https://github.com/google-research/google-research/tree/master/MAROT_viewer\n"
    'GPT4-5shot\tnews_aj.33941:en-de\t1\t11\trater3\tPolice arrest 15\tDie Polizei nimmt 15 fest<v>.</v>\t'
    'Fluency/Punctuation\tMinor\t{"timestamp": 1725456558197}\n'
    'GPT4-5shot\tnews_aj.33941:en-de\t2\t12\trater3\tafter "protest"\tnach Protest\tNo-error\tNo-error\t{}\n'
    'ONLINE-A\tnews_aj.33941:en-de\t1\t11\trater1\tPolice arrest 15\tPolizei verhaftet 15\t'
    'Accuracy/Mistranslation\tMajor\t{}\n'
    'ONLINE-A\tnews_aj.33941:en-de\t1\t11\trater1\tPolice arrest 15\tPolizei verhaftet 15\tStyle/Awkward\tMinor\t{}\n'
).encode()


def test_google_mqm_annotations_in_the_marot_layout():
    s = he.read_scores(MAROT_TSV, "mqm_generalMT2023_ende.tsv")
    check_shape(s, "mqm", "mqm_annotations")
    # segments keyed by globalSegId, as WMT24's humeval/tools.py does
    assert as_dict(s, with_rater=True) == {("GPT4-5shot", "11", "rater3"): pytest.approx(-0.1),
                                           ("GPT4-5shot", "12", "rater3"): 0.0, ("ONLINE-A", "11", "rater1"): -6.0}


def test_google_mqm_files_with_every_rating_are_read_past_the_plain_upload_limit():
    """Google's WMT 2023 MQM files with three ratings per segment are 31 and 40 MB (tests/mqm_files.py): read up to
    uploads.MAX_JUDGMENT_BYTES, as they are and as the published .tsv.tar.gz, to the judgments summed from the errors
    written (Freitag et al. 2021, Table 2); JSON judgments keep the plain limit."""
    import io
    import tarfile

    from core.packed import unpack
    from tests.mqm_files import marot_tsv

    content, expected = marot_tsv(uploads.MAX_BYTES + 4 * 2**20)
    assert uploads.MAX_BYTES < len(content) < uploads.MAX_JUDGMENT_BYTES
    s = he.read_scores(content, "sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv")
    check_shape(s, "mqm", "mqm_annotations")
    assert as_dict(s, with_rater=True) == expected
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as archive:
        info = tarfile.TarInfo("generalMT2023/ende/sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv")
        info.size = len(content)
        archive.addfile(info, io.BytesIO(content))
    with pytest.raises(ValueError, match="more than 20 MB"):
        unpack(buf.getvalue(), "x.tsv.tar.gz")  # other uploads keep the plain limit
    inner, name = unpack(buf.getvalue(), "x.tsv.tar.gz", max_bytes=uploads.MAX_JUDGMENT_BYTES)
    assert inner == content and name.endswith("3ratingsPerSegment.tsv")
    # a long table past the plain limit, read by the generic reader (the Hugging Face copies' CSV)
    rows = [f"sys{k % 2},{k // 2},{k % 7},{(k * 37) % 101},{'x' * 2000}" for k in range(11_000)]
    table = ("system,item,rater,score,text\n" + "\n".join(rows) + "\n").encode()
    assert len(table) > uploads.MAX_BYTES
    t = he.read_scores(table, "long.csv")
    assert len(t) == 11_000 and t["score"].sum() == sum((k * 37) % 101 for k in range(11_000))
    records = "\n".join(json.dumps({"system": "A", "item": k, "rater": "r", "score": 1, "text": "x" * 2000})
                        for k in range(11_000)).encode()
    assert len(records) > uploads.MAX_BYTES
    with pytest.raises(ValueError, match="at most 20 MB"):
        he.read_scores(records, "big.jsonl")


def test_line_field_counts_match_a_line_by_line_count():
    """The reader's field counts per line (vectorised over bytes, a mask per byte) against Python's own line
    splitting, on random text of tabs, spaces, blank and space-only lines, with and without a last newline."""
    import random

    from core.humaneval._parse import _line_stats

    rng = random.Random(11)
    alphabet = ["a", "bc", " ", "\t", "\n", "\n", "é", "中", "  "]
    for _ in range(3_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        lines = text.split("\n")
        if text.endswith("\n"):
            lines = lines[:-1]
        filled = [i for i, line in enumerate(lines, start=1) if line.strip(" \t")]
        for sep, count in (("\t", lambda line: line.count("\t") + 1), (r"\s+", lambda line: len(line.split()))):
            numbers, counts, nonempty = _line_stats(text.encode("utf-8"), sep, 0)
            assert numbers.tolist() == filled, (text, sep)
            assert counts.tolist() == [count(lines[i - 1]) for i in filled], (text, sep)
            assert nonempty == sum(1 for line in lines if line), (text, sep)


def test_python_literal_spans_read_as_the_literal_parser_reads_them():
    """Appraise stores spans as Python literals; their JSON spelling is a fast path that must never change a value:
    random span lists (quotes, apostrophes, backslashes, None/True/False inside strings, tuples) against
    ast.literal_eval."""
    import ast
    import random

    from core.humaneval.mqm import _parse_spans

    rng = random.Random(5)
    words = ["minor", "major", "None", "True", "a b", "x,y", "Fluency/Punctuation", "", "it's", 'say "hi"',
             "back\\slash", "é", ":", "]", "{", "', '"]

    def value():
        r = rng.random()
        return (rng.choice(words) if r < 0.3 else rng.randint(-5, 500) if r < 0.5 else rng.random() if r < 0.6
                else None if r < 0.7 else rng.choice([True, False]) if r < 0.8
                else [rng.choice(words) for _ in range(rng.randint(0, 3))] if r < 0.9 else (1, 2))

    for _ in range(3_000):
        spans = [{rng.choice(["start_i", "end_i", "severity", "error_type", "None", "it's"]): value()
                  for _ in range(rng.randint(0, 4))} for _ in range(rng.randint(0, 4))]
        text = repr(spans)
        assert _parse_spans(text) == ast.literal_eval(text), text


def test_appraise_pairwise_exports_read_each_systems_score():
    """Appraise's pairwise exports (PairwiseAssessmentResult / PairwiseAssessmentDocumentResult.get_system_data)
    write one row per system of a pair: annotator, system, item id, item type, languages, score, then errors and
    source errors (segment level) or document id and is-complete-document (document level; 9 columns, 11 with start
    and end times). A document's item ids restart, so the segment is (document, item id)."""
    segment = ("u1,sysA,1,TGT,eng,deu,70,\"[{'start_i': 1, 'end_i': 3, 'severity': 'minor'}]\",None\n"
               "u1,sysB,1,TGT,eng,deu,60,[],None\nu2,sysA,2,TGT,eng,deu,80,[],None\nu2,sysB,2,BAD,eng,deu,50,[],None\n")
    s = he.read_scores(segment, "pairwise.csv")
    assert s.attrs["format"] == "appraise" and s.attrs["protocol"] == "da"
    assert as_dict(s, with_rater=True) == {("sysA", "1", "u1"): 70.0, ("sysB", "1", "u1"): 60.0,
                                           ("sysA", "2", "u2"): 80.0}
    for extra in ("", ",1724923859.6,1724923919.6"):
        document = "".join(f"u1,{system},{item},TGT,eng,deu,{score},{doc}#sysA+sysB,{whole}{extra}\n"
                           for system, item, score, doc, whole in [
                               ("sysA", 1, 70, "doc1", False), ("sysB", 1, 60, "doc1", False),
                               ("sysA", 1, 80, "doc2", False), ("sysB", 1, 50, "doc2", False),
                               ("sysA", 0, 75, "doc2", True)])
        s = he.read_scores(document, "pairwise_document.csv")
        assert as_dict(s) == {("sysA", "doc1#1"): 70.0, ("sysB", "doc1#1"): 60.0, ("sysA", "doc2#1"): 80.0,
                              ("sysB", "doc2#1"): 50.0}, extra
        assert "1 whole-document judgment left out" in " ".join(s.attrs["notes"])


# ---------------------------------------------------------------------------
# the Hugging Face copies of WMT's judgments (RicardoRei/wmt-mqm-human-evaluation and its DA+SQM and DA siblings:
# lp, src, mt, ref, score, system, annotators, domain, year; no segment id, every pair and year in one table)
# ---------------------------------------------------------------------------
#: tests/data/humaneval/hf_wmt_mqm_train.csv read by hand: (system, segment, score) per row, in file order.
HF_ROWS = [
    ("Online-A (en-de 2022)", "en-de 2022:news|Hello, world.", -0.1),
    ("Online-B (en-de 2022)", "en-de 2022:news|Hello, world.", -1.0),
    ("Online-A (en-de 2022)", 'en-de 2022:news|He said "no".', 0.0),
    ("Online-B (en-de 2022)", 'en-de 2022:news|He said "no".', -5.333),
    ("Online-A (en-de 2022)", "en-de 2022:ted|Hello, world.", -2.0),  # the same text in another domain
    ("Online-B (en-de 2022)", "en-de 2022:ted|Hello, world.", -3.0),
    ("Online-A (en-de 2021)", "en-de 2021:news|Hello, world.", -0.5),  # another year's test set
    ("Online-B (en-de 2021)", "en-de 2021:news|Hello, world.", -25.0),
    ("Online-A (zh-en 2022)", "zh-en 2022:news|你好。", 0.0),
    ("Online-B (zh-en 2022)", "zh-en 2022:news|你好。", -1.1),
    ("Online-A (zh-en 2022)", "zh-en 2022:news|你好。", -0.2),  # a repeated source text
]


def _rows(scores: pd.DataFrame) -> list:
    return [(r.system, r.item, r.score) for r in scores.itertuples()]


def _hf_parquet(table: pd.DataFrame) -> bytes:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(table, preserve_index=False), buffer)
    return buffer.getvalue()


def test_hugging_face_copy_of_wmt_judgments_keeps_pairs_years_and_domains_apart():
    scores = read("hf_wmt_mqm_train.csv")
    check_shape(scores, "scores", "hf_wmt")
    assert _rows(scores) == HF_ROWS
    assert scores["rater"].isna().all()  # the copies name no rater
    notes = scores.attrs["notes"]
    assert notes[0].startswith("The file does not say its protocol")  # what the user must do comes first
    assert any(n.startswith("3 language pairs and years (en-de 2021, en-de 2022, zh-en 2022): each system is named "
                            "with its pair and year") for n in notes)
    assert "Segments are told apart by their source text (column 'src'): the file has no segment id." in notes
    assert any(n.startswith("1 judgment repeats a system's source text") for n in notes)
    # annotators: 9 rows of 1 and 2 rows of 3 → 15 ratings, 15/11 = 1.36 per row
    assert any("mean of the 15 ratings its column 'annotators' counts (1.36 per row on average, up to 3)" in n
               for n in notes)


def test_hugging_face_copy_takes_the_protocol_the_page_chooses():
    scores = read("hf_wmt_mqm_train.csv", protocol="mqm")
    check_shape(scores, "mqm", "hf_wmt")
    assert _rows(scores) == HF_ROWS
    assert not any("does not say its protocol" in n for n in scores.attrs["notes"])


def test_hugging_face_copy_as_parquet_reads_as_the_csv():
    csv_bytes = (DATA / "hf_wmt_mqm_train.csv").read_bytes()
    table = pd.read_csv(DATA / "hf_wmt_mqm_train.csv")  # numbers and the year as numbers, as datasets writes them
    data = _hf_parquet(table)
    from_parquet = he.read_scores(data, "0000.parquet")
    from_csv = he.read_scores(csv_bytes, "train.csv")
    check_shape(from_parquet, "scores", "hf_wmt")
    assert _rows(from_parquet) == HF_ROWS
    assert from_parquet.attrs["notes"] == from_csv.attrs["notes"]
    assert he.column_names(data, "0000.parquet") == list(table.columns)
    # mapped by hand, a Parquet file reads the mapped columns only
    mapped = he.read_scores(data, "0000.parquet", columns={"system": "system", "item": "src", "score": "score"})
    assert mapped.attrs["format"] == "parquet"
    assert mapped["score"].tolist() == [r[2] for r in HF_ROWS]


@pytest.mark.parametrize("as_parquet", [False, True])
def test_hugging_face_copy_without_systems_is_refused_saying_why(as_parquet):
    table = pd.read_csv(DATA / "hf_wmt_mqm_train.csv").drop(columns=["system"]).assign(raw=70.0)
    data = _hf_parquet(table) if as_parquet else table.to_csv(index=False).encode()
    with pytest.raises(ValueError, match="has no column naming the system that wrote each translation") as err:
        he.read_scores(data, "train.parquet" if as_parquet else "train.csv")
    assert "cannot tell which column" not in str(err.value)  # no column mapping could help


def test_default_pair_compares_only_systems_judged_on_common_segments():
    # the closest neighbours in mean overall (A 91.0 and C 90.7) were judged in different language pairs
    df = pd.DataFrame({
        "system": ["A (en-de)"] * 3 + ["B (en-de)"] * 3 + ["C (zh-en)"] * 3 + ["ref-A (zh-en)"] * 3 + ["D (zh-en)"] * 3,
        "item": ["x:1", "x:2", "x:3"] * 2 + ["y:1", "y:2", "y:3"] * 3, "rater": pd.NA,
        "score": [90.0, 91.0, 92.0, 70.0, 71.0, 72.0, 90.0, 90.5, 91.6, 99.0, 99.0, 99.0, 85.0, 85.0, 85.0]})
    a, b, reason = he.default_pair(df)
    assert (a, b) == ("C (zh-en)", "D (zh-en)")  # 90.7 vs 85 within zh-en: nearer than A and B (91 vs 71)
    assert "human references left out: ref-A (zh-en)" in reason  # a reference named with its pair is still one
    assert "2 sets of systems with no segment in common" in reason
    one_set = df[df["system"].str.endswith("(zh-en)")]
    assert "sets of systems" not in he.default_pair(one_set)[2]
    # a system whose name ends in other words in brackets is no reference
    crowd = df.replace({"ref-A (zh-en)": "Human (crowd)"})
    assert "references left out" not in he.default_pair(crowd)[2]


def test_default_pair_keeps_a_reference_when_it_leaves_a_set_one_system():
    # each language pair: one MT system and its reference; no set has two MT systems
    df = pd.DataFrame({"system": ["ref-A (en-de)", "S1 (en-de)", "ref-A (de-en)", "S2 (de-en)"] * 2,
                       "item": ["en-de:1", "en-de:1", "de-en:1", "de-en:1", "en-de:2", "en-de:2", "de-en:2",
                                "de-en:2"],
                       "rater": pd.NA, "score": [90.0, 80.0, 88.0, 70.0, 92.0, 82.0, 86.0, 72.0]})
    assert he.default_pair(df)[:2] == ("ref-A (en-de)", "S1 (en-de)")


def test_default_pair_needs_a_segment_shared_by_the_two_not_by_a_third():
    # A and C share no segment (each shares one with B): linked only through B, they are not neighbours
    df = pd.DataFrame({"system": ["A", "A", "B", "B", "C", "C"], "item": ["s1", "s1b", "s1", "s2", "s2", "s3"],
                       "rater": pd.NA, "score": [10.0, 10.0, 5.0, 5.0, 9.9, 9.9]})
    a, b, _ = he.default_pair(df)
    assert {a, b} != {"A", "C"} and he.fit_campaign(df, [a, b]).shared_segments > 0


def test_default_pair_of_judgments_on_separate_segments_is_the_closest_pair_with_a_warning():
    # an id that numbers judgments, not segments: no two systems share one (the file still opens)
    scores = he.read_scores(b"system,id,score\nA,1,1\nA,2,2\nB,3,3\nB,4,1\nC,5,4\nC,6,2\n", "flat.csv")
    a, b, reason = he.default_pair(scores)
    assert (a, b) == ("B", "A") and "No two of them were judged on a common segment" in reason


def test_fit_says_when_two_systems_share_no_segment():
    scores = read("hf_wmt_mqm_train.csv")
    apart = he.fit_campaign(scores, ["Online-A (en-de 2022)", "Online-B (zh-en 2022)"])
    assert apart.shared_segments == 0
    assert apart.notes[0].startswith("Online-A (en-de 2022) and Online-B (zh-en 2022) were judged on no common segment")
    together = he.fit_campaign(scores, ["Online-A (en-de 2022)", "Online-B (en-de 2022)"])
    assert together.shared_segments == 3  # news "Hello, world.", news 'He said "no".', ted "Hello, world."
    assert not any("no common segment" in n for n in together.notes)
    assert he.fit_campaign(scores).shared_segments is None


def test_a_blank_language_pair_is_a_group_of_its_own_not_an_error():
    scores = he.read_scores(b"system,seg_id,lp,score\nA,1,en-de,1\nA,2,,2\nB,1,en-de,3\nB,2,,4\n", "lp.csv")
    assert sorted(set(scores["system"])) == ["A", "A (en-de)", "B", "B (en-de)"]
    assert sorted(set(scores["item"])) == ["2", "en-de:1"]
    assert any("1 language pair (en-de): each system is named with its pair and rows without one are a group of "
               "their own" in n for n in scores.attrs["notes"])


def test_years_are_read_as_whole_numbers_and_a_missing_year_makes_no_year_group():
    records = [{"system": s, "seg_id": i, "lp": "en-de", "year": y, "score": v}
               for s, i, y, v in (("A", 1, 2022, 1.0), ("A", 2, 2022.0, 2.0), ("B", 1, 2022, 3.0), ("B", 2, None, 4.0))]
    data = "\n".join(json.dumps(r) for r in records).encode()
    scores = he.read_scores(data, "judgments.jsonl")
    # 2022 and 2022.0 are one year, and one year is no reason to name systems by it
    assert sorted(set(scores["system"])) == ["A", "B"]
    two_years = he.read_scores(b"system,seg_id,year,score\nA,1,2021,1\nA,2,2022.0,2\nB,1,2021,3\nB,2,,4\n", "y.csv")
    assert sorted(set(two_years["system"])) == ["A (2021)", "A (2022)", "B", "B (2021)"]


def test_a_src_column_is_a_segment_only_in_the_hugging_face_layout():
    # elsewhere a column named src may hold a language code: the page asks which column is the segment
    with pytest.raises(ValueError, match="cannot tell which column is the item"):
        he.read_scores(b"system,src,tgt,score\nA,en,de,1\nB,en,de,2\n", "codes.csv")
    assert "item" not in he.guess_roles(["system", "src", "tgt", "score"])
    assert he.guess_roles(["lp", "src", "mt", "score", "system"])["item"] == "src"


def test_shared_segments_is_counted_only_for_two_systems_given():
    scores = he.read_scores(b"system,seg_id,score\nA,1,1\nA,2,2\nB,3,3\nB,4,1\n", "two.csv")
    every = he.fit_campaign(scores)
    assert every.shared_segments is None and not any("no common segment" in n for n in every.notes)
    assert he.fit_campaign(scores, ["A", "B"]).shared_segments == 0

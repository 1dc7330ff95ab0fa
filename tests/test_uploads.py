"""Defensive decoding of uploads (core.uploads): every failure is a clear ValueError."""

from __future__ import annotations

import numpy as np
import pytest

from core import uploads


def test_long_field_is_accepted():
    # the csv module's default field limit is 128 KB
    long = "x" * 300_000
    table = uploads.read_table(f"a\tb\n{long}\t1\n".encode(), min_columns=2)
    assert len(table.loc[0, "a"]) == 300_000


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "empty"),
        ("a,b\n1,2\n".encode("utf-16"), "UTF-16"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
        (b"a,b\n\xff,1\n", r"not UTF-8 .*line 2"),
        (b"a,b\n1,2\n3\n", "row 3 has 1 fields"),
        (b"a\n1\n", "single column"),
        (b"a,b\n", "header but no data"),
        (b"a,a\n1,2\n", "repeated column names"),
        (b'a,b\n"1,2\n', "malformed|unequal"),
    ],
)
def test_bad_tables(data, message):
    with pytest.raises(ValueError, match=message):
        uploads.read_table(data)


def test_header_detection_keeps_numeric_first_rows():
    # "1e-1" and "-2" are numbers, so the first row is data (a DA upload)
    table = uploads.read_table(b"1e-1,-2\n3,4\n", min_columns=2)
    assert list(table.columns) == ["column 1", "column 2"] and table.iloc[0, 0] == "1e-1"
    assert list(uploads.read_table(b"x,y\n1,2\n").columns) == ["x", "y"]


def test_size_limit():
    with pytest.raises(ValueError, match="at most"):
        uploads.decode_text(b"a" * 101, max_bytes=100)
    with pytest.raises(ValueError, match="bytes"):
        uploads.decode_text("text")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data, message",
    [
        (b'{"a": 1}\n{"a": \n', "line 2"),
        (b'{"a": 1}\n[1, 2]\n', r"line 2: expected a JSON object"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply|not valid JSON"),
        (b'[{"a": 1}, 2]', "record 2 is not an object"),
        (b"\n\n", "no text|no records|empty"),
    ],
)
def test_bad_json(data, message):
    with pytest.raises(ValueError, match=message):
        uploads.read_jsonl(data)


@pytest.mark.parametrize(
    "data, message",
    [
        # Python's own "Exceeds the limit (4300 digits) for integer string conversion" leaked before
        (b'{"a": 1}\n{"a": ' + b"1" * 5000 + b"}\n", r"^The file, line 2: a number has too many digits"),
        (b'[\n{"a": 1},\n{"a": ' + b"9" * 4301 + b"}]", r"^The file, line 3: a number has too many digits"),
        # a lone surrogate decoded fine but broke later ("surrogates not allowed") when shown or saved
        (b'{"a": "\\ud800"}\n', r"^The file, line 1: the escape '\\\\ud800' is half of a UTF-16 surrogate"),
        (b'{"a": 1}\n{"b": "x\\udc00"}\n', r"^The file, line 2: the escape '\\\\udc00'"),
        (b'[{"a": "\\ud83d\\ude00"},\n {"a": "\\udfff"}]', r"^The file, line 2: .*surrogate"),
        (b'{"a": "\\ud83d\\ud83d\\ude00"}\n', "line 1: the escape '\\\\\\\\ud83d'"),
    ],
)
def test_json_python_limits_name_the_file_and_line(data, message):
    with pytest.raises(ValueError, match=message):
        uploads.read_jsonl(data)


def test_json_surrogate_pairs_and_escaped_backslashes_are_kept():
    assert uploads.read_jsonl(b'{"a": "\\ud83d\\ude00"}\n') == [{"a": "\U0001F600"}]
    assert uploads.read_jsonl(b'{"a": "\\\\ud800"}\n') == [{"a": "\\ud800"}]  # a backslash, then text


def test_json_array_and_lines():
    assert uploads.read_jsonl(b'[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]
    assert uploads.looks_like_json(b'\xef\xbb\xbf  {"a": 1}') and not uploads.looks_like_json(b"a,b\n")


def test_large_table():
    # 200,000 rows (≈ 2.6 MB); the row limit is enforced while reading
    body = "a,b\n" + "".join(f"{i % 97 / 97:.4f},{i % 89 / 89:.4f}\n" for i in range(200_000))
    table = uploads.read_table(body.encode())
    assert len(table) == 200_000 and table.iloc[-1, 0] == f"{199_999 % 97 / 97:.4f}"
    with pytest.raises(ValueError, match="more than 1,000 rows"):
        uploads.read_table(body.encode(), max_rows=1000)


def test_read_table_strips_cells_skips_blank_rows_and_restores_the_collector():
    import gc

    assert gc.isenabled()
    table = uploads.read_table(b"a , b\n 1 ,2 \n , \n   \n3,  4\n")
    assert list(table.columns) == ["a", "b"] and table.to_numpy().tolist() == [["1", "2"], ["3", "4"]]
    assert gc.isenabled()  # parsing pauses the cyclic collector and always turns it back on
    with pytest.raises(ValueError):
        uploads.read_table(b"a,b\n1,2\n3\n")
    assert gc.isenabled()


@pytest.mark.parametrize("data, message", [
    (b'{"a": ' + b"1" * 5000 + b"}\n", r"votes\.jsonl, line 1: a number has too many digits"),
    (b'{"model_a": "x\\ud800y"}\n', r"votes\.jsonl, line 1: the escape '\\\\ud800' is half of a UTF-16 surrogate"),
    (b'[{"a": 1},\n {"b": "\\udc00"}]', r"votes\.jsonl, line 2: the escape '\\\\udc00'"),
])
def test_json_failures_name_the_file_and_line(data, message):
    """Python's own messages (its 4,300-digit limit; a lone surrogate that breaks every later print) do not leak."""
    with pytest.raises(ValueError, match=message):
        uploads.read_jsonl(data, name="votes.jsonl")


def test_json_surrogate_pairs_are_text():
    assert uploads.read_jsonl(b'{"a": "\\ud83d\\ude00"}\n') == [{"a": "\U0001F600"}]
    assert uploads.read_jsonl(b'{"a": "\\\\ud800"}\n') == [{"a": "\\ud800"}]  # an escaped backslash: plain text


DATA = __import__("pathlib").Path(__file__).resolve().parent / "data"


def test_space_separated_header_over_tab_rows():
    # Google's WMT MQM *.avg_seg_scores.tsv: "system mqm_avg_score seg_id" over tab-separated rows
    table = uploads.read_table((DATA / "synthetic_mqm.avg_seg_scores.tsv").read_bytes())
    assert list(table.columns) == ["system", "mqm_avg_score", "seg_id"] and len(table) == 12
    assert table.iloc[0].tolist() == ["Human-B.0", "-0.0", "1"]
    assert list(uploads.read_table(b"a b\n1,2\n3,4\n").columns) == ["a", "b"]  # also over comma rows
    with pytest.raises(ValueError, match="unequal"):  # a header of another width stays an error
        uploads.read_table(b"a b c\n1\t2\n3\t4\n")


def test_space_aligned_table_with_trailing_spaces():
    # WMT DA ad-seg-scores-*.csv: "SYS SID RAW.SCR Z.SCR N " with a trailing space on every line
    table = uploads.read_table((DATA / "synthetic_ad-seg-scores-de-en.csv").read_bytes())
    assert list(table.columns) == ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"] and len(table) == 9
    assert table.iloc[1].tolist() == ["newstest2019.online-B.0.de-en", "2", "55", "-0.218", "2"]


def test_columns_mapping_and_alias_guessing():
    data = (DATA / "synthetic_ad-seg-scores-de-en.csv").read_bytes()
    table = uploads.read_table(data)
    guessed = uploads.guess_columns(table.columns, ["system", "item", "score"])
    assert guessed == {"system": "SYS", "item": "SID", "score": "Z.SCR"}
    mapped = uploads.read_table(data, columns={"system": "SYS", "score": "RAW.SCR"})
    assert list(mapped.columns) == ["system", "score"] and mapped["score"].iloc[0] == "71.5"
    assert uploads.guess_columns(["username", "itemId", "score", "SYS"], ["worker", "item", "system", "rating"]) == {
        "worker": "username", "item": "itemId", "system": "SYS", "rating": "score"}
    assert uploads.guess_columns(["generator_1", "generator_2", "preference"], ["model_a", "model_b", "winner"]) == {
        "model_a": "generator_1", "model_b": "generator_2", "winner": "preference"}
    with pytest.raises(ValueError, match=r"no column 'Z' \(for score\); its columns are: SYS, SID"):
        uploads.read_table(data, columns={"score": "Z"})
    with pytest.raises(ValueError, match="`columns` must map roles"):
        uploads.read_table(data, columns=["SYS"])


def test_first_row_is_data():
    # headerless files (WMT Appraise SegLvl CSVs) whose first row has text cells
    table = uploads.read_table(b"sysA,12,70\nsysB,12,64\n", header="no")
    assert list(table.columns) == ["column 1", "column 2", "column 3"] and len(table) == 2


def test_twelve_field_space_header_over_tab_rows():
    # the shape of WMT DA ad-*-good-stnd.csv: a 12-name header separated by spaces over 12 tab-separated fields
    names = [f"f{i}" for i in range(1, 13)]
    rows = ["\t".join(f"v{r}_{i}" for i in range(1, 13)) for r in range(3)]
    table = uploads.read_table((" ".join(names) + "\n" + "\n".join(rows) + "\n").encode())
    assert list(table.columns) == names and table.shape == (3, 12) and table.iloc[2, 11] == "v2_12"


def test_rows_mixing_tabs_and_spaces_are_split_on_white_space():
    """Google's MQM newstest2020 ``*.avg_seg_scores.tsv``: a space-separated header over rows separated by a tab
    (and a space) or by spaces only (github.com/google/wmt-mqm-human-evaluation; the same layout
    core.humaneval reads with runs of white space)."""
    data = b"system mqm_avg_score seg_id\nHuman-A.0\t -1.0\t1\nOnline-B.1 -2.5 1\nHuman-A.0\t-0.5 2\n"
    table = uploads.read_table(data)
    assert list(table.columns) == ["system", "mqm_avg_score", "seg_id"]
    assert table.values.tolist() == [["Human-A.0", "-1.0", "1"], ["Online-B.1", "-2.5", "1"],
                                     ["Human-A.0", "-0.5", "2"]]


def test_unequal_rows_still_name_the_row_when_white_space_does_not_help():
    # a tab file whose third row has a sentence with spaces: white space would give other widths too
    with pytest.raises(ValueError, match=r"row 3 has 1 fields but row 1 has 2; the columns are unequal"):
        uploads.read_table(b"a\tb\n1\t2\nthree words here\n")
    with pytest.raises(ValueError, match=r"row 3 has 1 fields but row 1 has 2"):
        uploads.read_table(b"a\tb\n1\t2\n3 4 5\n")


def test_lines_split_only_at_newlines():
    # universal newlines, as Python's text files and sacrebleu read them; U+2028/U+2029/U+0085 stay inside a line
    text = "a\u2028b\r\nc\u2029d\re\x85f\n"
    assert uploads.split_lines(text) == ["a\u2028b", "c\u2029d", "e\x85f"]
    assert uploads.text_lines(text.encode()) == ["a\u2028b", "c\u2029d", "e\x85f"]
    assert uploads.split_lines("x") == ["x"] and uploads.split_lines("") == []
    records = uploads.read_jsonl('{"q": "one\u2028two"}\n{"q": "three"}\n'.encode())
    assert [r["q"] for r in records] == ["one\u2028two", "three"]


def test_a_table_of_very_many_columns_is_refused_before_parsing():
    wide = ("," .join(f"c{i}" for i in range(20_001)) + "\n" + ",".join("1" for _ in range(20_001)) + "\n").encode()
    with pytest.raises(ValueError, match="20,001 columns in its first line; at most 10,000"):
        uploads.read_table(wide, name="`wide.csv`")
    spaced = (" ".join("1" for _ in range(10_001)) + "\n").encode()
    with pytest.raises(ValueError, match="10,001 columns"):
        uploads.read_table(spaced)
    assert uploads.read_table(("," .join(f"c{i}" for i in range(300)) + "\n" + ",".join("1" * 300) + "\n").encode()).shape == (1, 300)


# ---------------------------------------------------------------------------
# Parquet (Hugging Face datasets): only the chosen columns are decoded
# ---------------------------------------------------------------------------
def _parquet(table) -> bytes:
    import io

    import pyarrow.parquet as pq

    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


def _arena_table(rows: int = 4):
    import pyarrow as pa

    return pa.table({"question_id": [f"q{k}" for k in range(rows)],
                     "model_a": pa.array(["gpt-4", " llama ", "x", "x"][:rows]).dictionary_encode(),
                     "model_b": ["vicuna", "gpt-4", "y", "gpt-4"][:rows],
                     "winner": ["model_a", "tie (bothbad)", None, "tie"][:rows],
                     "conversation_a": [[{"role": "user", "content": "hi"}]] * rows, "turn": [1, 1, 2, 1][:rows]})


def test_parquet_columns_are_read_as_stripped_strings():
    data = _parquet(_arena_table())
    assert uploads.is_parquet(data) and not uploads.is_parquet(b"model_a,model_b\n")
    assert uploads.parquet_columns(data) == ["question_id", "model_a", "model_b", "winner", "conversation_a", "turn"]
    frame = uploads.read_parquet(data, ["model_a", "winner", "turn"])
    assert frame.to_dict("list") == {"model_a": ["gpt-4", "llama", "x", "x"],
                                     "winner": ["model_a", "tie (bothbad)", "", "tie"], "turn": ["1", "1", "2", "1"]}


def test_bad_parquet_gets_named_messages(monkeypatch):
    data = _parquet(_arena_table())
    with pytest.raises(ValueError, match="column 'conversation_a' holds list"):
        uploads.read_parquet(data, ["conversation_a"])
    with pytest.raises(ValueError, match="has no column 'nope'"):
        uploads.read_parquet(data, ["nope"])
    with pytest.raises(ValueError, match="not a readable Parquet file"):
        uploads.read_parquet(data[:100] + data[-40:], ["model_a"])
    with pytest.raises(ValueError, match="has more than 3 rows; at most 3"):
        uploads.read_parquet(data, ["model_a"], max_rows=3)
    # bytes are counted as the batches are decoded (a footer's sizes are the file's own claim)
    monkeypatch.setattr(uploads, "MAX_PARQUET_CELLS_BYTES", 10)
    with pytest.raises(ValueError, match="take more than .* MB once decompressed"):
        uploads.read_parquet(data, ["model_a"])


def test_parquet_edge_files_get_value_errors():
    import pyarrow as pa

    dup = pa.Table.from_arrays([pa.array(["a"]), pa.array(["model_a"]), pa.array(["tie"])],
                               names=["model_a", "winner", "winner"])
    with pytest.raises(ValueError, match="repeated column names \\('winner'\\)"):
        uploads.read_parquet(_parquet(dup), ["model_a", "winner"])
    with pytest.raises(ValueError, match="column 'model_a' holds a NUL character"):
        uploads.read_parquet(_parquet(pa.table({"model_a": ["a\x00b", "c"]})), ["model_a"])
    flags = uploads.read_parquet(_parquet(pa.table({"f": [True, False, None]})), ["f"])
    assert flags["f"].tolist() == ["1", "0", ""]
    # a value repeated a million times (dictionary-encoded, 64 KB each) is converted once, not materialised a
    # million times (the footer claimed a few hundred KB; a plain read asked for gigabytes)
    big = "model_a" + " " * 65_529
    index = pa.array(np.zeros(1_000_000, dtype=np.int32))
    bomb = pa.table({"winner": pa.DictionaryArray.from_arrays(index, pa.array([big]))})
    frame = uploads.read_parquet(_parquet(bomb), ["winner"])
    assert len(frame) == 1_000_000 and frame["winner"].iloc[-1] == "model_a"
    # a truncated download is named as such by every text reader
    data = _parquet(_arena_table())
    with pytest.raises(ValueError, match="damaged or truncated Parquet file"):
        uploads.decode_text(data[: len(data) // 2])


def test_damaged_parquet_statistics_raise_instead_of_aborting():
    """A footer whose size statistics do not match (a definition-level histogram of the wrong length) made pyarrow's
    metadata accessor abort the whole process; the batch reader raises. Run in a child process: an abort here would
    take pytest down with it."""
    import subprocess
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parent / "data" / "damaged_size_statistics.parquet"
    code = ("import sys; from core.pairwise import read_votes\n"
            "try:\n    read_votes(open(sys.argv[1], 'rb').read())\nexcept ValueError as e:\n    print('ValueError', e)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("ValueError") and "cannot be read" in done.stdout


def test_a_nul_byte_past_the_first_block_is_refused_by_line():
    """A NUL after the first 64 KB used to end up inside a label; it is refused with its line."""
    data = b"a,b\n" + b"1,2\n" * 20_000 + b"3,\x004\n"
    with pytest.raises(ValueError, match=r"NUL character \(byte 0\) at position [\d,]+, line 20,002"):
        uploads.decode_text(data)
    with pytest.raises(ValueError, match="looks like a binary file"):
        uploads.decode_text(b"a,b\n\x00\x01")

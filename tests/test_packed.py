"""Compressed uploads (core.packed.unpack, unpack_all). Oracle: Python's gzip, tarfile and zipfile modules writing
the files, and the bytes written into them."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile

import pytest

from core.packed import MAX_FILES, PACKED_TYPES, is_packed, unpack, unpack_all
from core.uploads import MAX_BYTES

MQM = (b"system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
       b"sysA\tnews\t1\t1\trater1\tQuelle\tsource\tAccuracy/Mistranslation\tMajor\n")


def _tar(files: dict[str, bytes], *, gz: bool = True, dirs=(), links=()) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz" if gz else "w") as archive:
        for d in dirs:
            info = tarfile.TarInfo(d)
            info.type = tarfile.DIRTYPE
            archive.addfile(info)
        for link in links:
            info = tarfile.TarInfo(link)
            info.type = tarfile.SYMTYPE
            info.linkname = "/etc/passwd"
            archive.addfile(info)
        for path, content in files.items():
            info = tarfile.TarInfo(path)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return buf.getvalue()


def test_plain_uploads_pass_through_unchanged():
    data = b"a,b\n1,2\n"
    out, name = unpack(data, "plain.csv")
    assert out is data and name == "plain.csv"
    assert not is_packed(data) and not is_packed("not bytes")


def test_gzip_gives_the_file_back_with_its_name():
    out, name = unpack(gzip.compress(MQM), "mqm_newstest2020_ende.tsv.gz")
    assert out == MQM and name == "mqm_newstest2020_ende.tsv"


def test_concatenated_gzip_members_are_all_read():
    # gzip's format allows several members one after the other (RFC 1952 §2.2); `cat a.gz b.gz` writes that
    data = gzip.compress(b"x,y\n1,2\n") + gzip.compress(b"3,4\n")
    assert unpack(data, "votes.csv.gz")[0] == b"x,y\n1,2\n3,4\n"


def test_a_published_tsv_tar_gz_gives_the_file_inside_named_as_published():
    # the layout of google/wmt-mqm-human-evaluation's generalMT2023 archives: one TSV in a .tsv.tar.gz
    data = _tar({"sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv": MQM}, dirs=("generalMT2023",))
    assert is_packed(data)
    out, name = unpack(data, "sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv.tar.gz")
    assert out == MQM and name == "sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv"


def test_an_uncompressed_tar_and_macos_extras_are_handled():
    data = _tar({"data/scores.tsv": MQM, "__MACOSX/data/._scores.tsv": b"\x00\x05", "data/._scores.tsv": b"x"},
                gz=False, links=("data/link",))
    assert unpack(data, "scores.tar") == (MQM, "scores.tsv")


def test_archives_with_several_files_or_none_are_refused_naming_them():
    with pytest.raises(ValueError, match=r"holds 2 files \(a.tsv, b.tsv\); extract it"):
        unpack(_tar({"a.tsv": MQM, "b.tsv": MQM}), "two.tar.gz")
    with pytest.raises(ValueError, match="no file in it"):
        unpack(_tar({}, dirs=("empty",)), "empty.tgz")


def test_a_small_file_that_unpacks_past_the_limit_stops_at_the_limit():
    bomb = gzip.compress(b"0" * (MAX_BYTES + 10), compresslevel=9)
    assert len(bomb) < MAX_BYTES // 500  # tens of kilobytes on the wire
    with pytest.raises(ValueError, match=r"unpacks to more than 20 MB"):
        unpack(bomb, "bomb.csv.gz")
    with pytest.raises(ValueError, match=r"x.gz unpacks to more than"):
        unpack(gzip.compress(b"1" * 2000), "x.gz", max_bytes=1024 * 1)
    # exactly at the limit is accepted
    assert len(unpack(gzip.compress(b"1" * 1024), "x.gz", max_bytes=1024)[0]) == 1024


def test_a_tar_member_past_the_limit_is_refused_before_reading():
    with pytest.raises(ValueError, match=r"holds a file of .* MB; at most"):
        unpack(_tar({"big.tsv": b"1" * 4096}, gz=False), "big.tar", max_bytes=1024)


@pytest.mark.parametrize("data, message", [
    (gzip.compress(MQM)[:-12], "truncated gzip"),
    (b"\x1f\x8b" + b"\x00" * 30, "not a readable gzip"),
    (gzip.compress(MQM) + b"trailing", "not gzip"),
    (gzip.compress(b""), "empty file"),
])
def test_damaged_files_get_a_clear_message(data, message):
    with pytest.raises(ValueError, match=message):
        unpack(data, "file.gz")


def test_trailing_zero_padding_after_the_stream_is_accepted():
    assert unpack(gzip.compress(MQM) + b"\x00" * 64, "x.gz")[0] == MQM


def test_a_damaged_tar_gets_a_clear_message():
    data = bytearray(_tar({"a.tsv": MQM}, gz=False))
    data[148:156] = b"garbage!"  # the header checksum
    with pytest.raises(ValueError, match="not a readable tar archive|no file in it"):
        unpack(bytes(data), "broken.tar")


def test_the_accepted_extensions_cover_the_published_names():
    for published in ("a.tsv.tar.gz", "a.jsonl.gz", "a.tgz", "a.tar", "a.zip"):
        assert any(published.endswith("." + ext) for ext in PACKED_TYPES)


def test_pages_hand_their_readers_the_file_inside(monkeypatch):
    import pages._uploads
    from pages._uploads import Opened, opened, upload_types

    # its session cache needs a running app
    monkeypatch.setattr(pages._uploads, "_unpacked", lambda data, name, limit: unpack(data, name, max_bytes=limit))

    class Upload:  # what Streamlit's UploadedFile offers the readers
        def __init__(self, name, data):
            self.name, self._data, self.file_id = name, data, "id-1"

        def getvalue(self):
            return self._data

    plain = Upload("votes.csv", b"a,b\n")
    assert opened(plain) is plain and opened(None) is None
    packed = opened(Upload("votes.csv.gz", gzip.compress(b"a,b\n")))
    assert packed == Opened("votes.csv", b"a,b\n", "id-1") and packed.getvalue() == b"a,b\n"
    assert opened([plain]) == [plain]
    assert upload_types("csv") == ["csv", "gz", "tgz", "tar", "zip"]


def test_each_uploader_has_its_limit_in_the_browser_and_on_the_server(monkeypatch):
    """An uploader's limit (pages._uploads.file_uploader) is what the browser is told (max_upload_size, MB) and what
    opened() holds the upload to on the server: 20 MB, or 64 MB for last year's judgments, plain or unpacked."""
    import pages._uploads
    from core.uploads import MAX_BYTES, MAX_JUDGMENT_BYTES
    from pages._uploads import file_uploader, opened

    monkeypatch.setattr(pages._uploads, "_unpacked", lambda data, name, limit: unpack(data, name, max_bytes=limit))

    class Box:  # st, the sidebar or a column
        def file_uploader(self, label, **options):
            return label, options

    assert file_uploader(Box(), "Votes", key="v") == ("Votes", {"max_upload_size": 20, "key": "v"})
    assert file_uploader(Box(), "Judgments", max_bytes=MAX_JUDGMENT_BYTES)[1]["max_upload_size"] == 64

    class Upload:
        def __init__(self, name, data):
            self.name, self._data, self.file_id = name, data, "id-2"

        def getvalue(self):
            return self._data

    big = Upload("mqm.tsv", b"x" * (MAX_BYTES + 1))
    with pytest.raises(ValueError, match=r"mqm.tsv is 20.0 MB; this uploader takes files of at most 20 MB"):
        opened(big)
    with pytest.raises(ValueError, match="at most 20 MB"):
        opened([big])
    assert opened(big, max_bytes=MAX_JUDGMENT_BYTES) is big
    with pytest.raises(ValueError, match="at most 64 MB"):
        opened(Upload("mqm.tsv", b"x" * (MAX_JUDGMENT_BYTES + 1)), max_bytes=MAX_JUDGMENT_BYTES)
    packed = Upload("mqm.tsv.gz", gzip.compress(b"x" * (MAX_BYTES + 1)))
    with pytest.raises(ValueError, match="more than 20 MB"):
        opened(packed)
    assert len(opened(packed, max_bytes=MAX_JUDGMENT_BYTES).getvalue()) == MAX_BYTES + 1


def test_a_file_of_many_gzip_members_is_refused_early():
    # a million empty members in 20 MB: each member's end hands back the rest of the input, so the work is bounded
    # by feeding slices and capping the members (MAX_MEMBERS) rather than by the file's size
    from core.packed import MAX_MEMBERS

    member = gzip.compress(b"1")
    assert unpack(member * MAX_MEMBERS, "ok.gz")[0] == b"1" * MAX_MEMBERS
    with pytest.raises(ValueError, match="more than 1,000 gzip members"):
        unpack(member * (MAX_BYTES // len(member)), "many.gz")


def test_members_spanning_the_input_slices_are_read_whole():
    import numpy as np

    from core import packed

    rng = np.random.default_rng(0)
    texts = [rng.bytes(700_000).hex().encode() for _ in range(3)]  # incompressible: members longer than a slice
    data = b"".join(gzip.compress(t) for t in texts)
    assert len(gzip.compress(texts[0])) > packed._CHUNK
    assert unpack(data, "x.gz")[0] == b"".join(texts)


def _zip(files: dict[str, bytes], *, method=zipfile.ZIP_DEFLATED, dirs=()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as archive:
        for d in dirs:
            archive.writestr(d.rstrip("/") + "/", b"")
        for path, content in files.items():
            archive.writestr(path, content)
    return buf.getvalue()


def test_a_zip_of_one_file_gives_it_back_named_after_itself():
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        data = _zip({"wmt/mqm_newstest2020_ende.tsv": MQM, "__MACOSX/wmt/._mqm_newstest2020_ende.tsv": b"\x00",
                     ".DS_Store": b"\x00"}, method=method, dirs=("wmt",))
        assert is_packed(data)
        assert unpack(data, "download.zip") == (MQM, "mqm_newstest2020_ende.tsv")
    assert is_packed(_zip({}))  # an empty zip is its end-of-directory record alone
    with pytest.raises(ValueError, match="no file in it"):
        unpack(_zip({}, dirs=("empty",)), "empty.zip")


def test_an_archive_of_several_files_gives_them_all_in_order_to_uploaders_that_take_several():
    runs = {f"out/model/samples_arc_easy_seed{k}.jsonl": b'{"doc_id": %d}\n' % k for k in range(3)}
    for data in (_zip(runs), _tar(runs), _tar(runs, gz=False)):
        assert unpack_all(data, "runs") == [(v, k.rsplit("/", 1)[1]) for k, v in runs.items()]
        with pytest.raises(ValueError, match=r"holds 3 files \(samples_arc_easy_seed0.jsonl, .*\); extract it"):
            unpack(data, "runs")
    # a plain file and a single gzipped file are one entry
    assert unpack_all(b"a,b\n", "votes.csv") == [(b"a,b\n", "votes.csv")]
    assert unpack_all(gzip.compress(b"a,b\n"), "votes.csv.gz") == [(b"a,b\n", "votes.csv")]


def test_files_sharing_a_name_are_named_by_their_path_in_the_archive():
    # lm-evaluation-harness writes <output>/<model>/samples_<task>_<date>.jsonl: two models, one file name
    data = _zip({"./out/model_a/samples_arc.jsonl": b"a\n", "./out/model_b/samples_arc.jsonl": b"b\n",
                 "out/results.json": b"{}"})
    assert unpack_all(data, "x.zip") == [(b"a\n", "out/model_a/samples_arc.jsonl"),
                                         (b"b\n", "out/model_b/samples_arc.jsonl"), (b"{}", "results.json")]


def test_gzipped_files_inside_an_archive_are_unpacked_once():
    data = _zip({"samples_arc.jsonl.gz": gzip.compress(b'{"doc_id": 0}\n')}, method=zipfile.ZIP_STORED)
    assert unpack(data, "logs.zip") == (b'{"doc_id": 0}\n', "samples_arc.jsonl")
    assert unpack_all(_tar({"a.tsv.gz": gzip.compress(MQM), "b.tsv": MQM}), "t.tgz") == [(MQM, "a.tsv"),
                                                                                          (MQM, "b.tsv")]


def test_a_zip_bomb_stops_at_the_limit_whatever_sizes_it_declares():
    bomb = _zip({"zeros.csv": b"0" * (MAX_BYTES + 10)})
    assert len(bomb) < MAX_BYTES // 500
    with pytest.raises(ValueError, match=r"unpacks to more than 20 MB"):
        unpack(bomb, "bomb.zip")
    # a central directory that under-declares the member's size: read as far as the budget, then refused
    lying = bytearray(_zip({"a.csv": b"1" * 4096}))
    # the uncompressed size fields of the local header and the central directory (APPNOTE §4.3.7, §4.3.12)
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = lying.index(signature) + offset
        lying[at:at + 4] = (10).to_bytes(4, "little")
    with pytest.raises(ValueError, match="not a readable zip|unpacks to more than"):
        unpack(bytes(lying), "lying.zip", max_bytes=1024)
    # the budget counts all files of an archive together, gzipped members included
    with pytest.raises(ValueError, match="unpacks to more than"):
        unpack_all(_zip({"a.csv": b"1" * 600, "b.csv": b"2" * 600}), "two.zip", max_bytes=1024)
    with pytest.raises(ValueError, match="unpacks to more than"):
        unpack_all(_tar({"a.csv": b"1" * 600, "b.csv.gz": gzip.compress(b"2" * 600)}), "two.tgz", max_bytes=1024)
    with pytest.raises(ValueError, match=r"holds files of .* MB; at most"):
        unpack_all(_tar({"a.csv": b"1" * 600, "b.csv": b"2" * 600}, gz=False), "two.tar", max_bytes=1024)


def test_encrypted_damaged_and_unreadable_zips_get_a_clear_message():
    data = bytearray(_zip({"secret.csv": MQM}))
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general purpose bit 0: encrypted
        data[data.index(signature) + offset] |= 0x1
    with pytest.raises(ValueError, match=r"is encrypted \(secret.csv needs a password\)"):
        unpack(bytes(data), "secret.zip")
    good = _zip({"a.csv": MQM * 50})
    with pytest.raises(ValueError, match="not a readable zip archive"):
        unpack(good[:-30], "cut.zip")  # the end of the central directory is gone
    corrupt = bytearray(good)
    corrupt[40:60] = b"\xff" * 20  # inside the deflated data: a bad stream or a CRC-32 mismatch
    with pytest.raises(ValueError, match="not a readable zip archive"):
        unpack(bytes(corrupt), "corrupt.zip")
    for method in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):  # their decoders raise OSError and LZMAError
        broken = bytearray(_zip({"a.csv": b"x,y\n" * 500}, method=method))
        broken[45:70] = b"\x13" * 25
        with pytest.raises(ValueError, match="not a readable zip archive"):
            unpack(bytes(broken), "broken.zip")
    odd = bytearray(_zip({"a.csv": MQM}, method=zipfile.ZIP_STORED))
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):  # compression method 9: Deflate64
        at = odd.index(signature) + offset
        odd[at:at + 2] = (9).to_bytes(2, "little")
    with pytest.raises(ValueError, match="compression Python's zipfile cannot read"):
        unpack(bytes(odd), "odd.zip")


def test_archives_of_too_many_files_or_entries_are_refused_before_reading_them():
    from core.packed import MAX_ENTRIES

    many = {f"f{i}.csv": b"1\n" for i in range(MAX_FILES + 1)}
    for data in (_zip(many), _tar(many)):
        with pytest.raises(ValueError, match=f"holds {MAX_FILES + 1} files; at most {MAX_FILES} are read"):
            unpack_all(data, "many")
    assert len(unpack_all(_zip(dict(list(many.items())[:MAX_FILES])), "ok.zip")) == MAX_FILES
    with pytest.raises(ValueError, match="more than 10,000 entries"):
        unpack_all(_zip({}, dirs=[f"d{i}" for i in range(MAX_ENTRIES + 1)]), "dirs.zip")


def test_a_zip_index_is_bounded_before_it_is_parsed(monkeypatch):
    # every entry Python's zipfile lists has a central-directory header (APPNOTE §4.3.12): their signatures bound
    # the entries before the index is parsed, whatever count the end record declares
    from core import packed

    small = _zip({"a.csv": b"1\n", "b.csv": b"2\n"})
    assert packed.zip_entries(small) == len(zipfile.ZipFile(io.BytesIO(small)).infolist()) == 2
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(packed.MAX_ENTRIES + 1):
            archive.writestr(str(i), b"")
    lying = bytearray(buffer.getvalue())
    end = lying.rindex(b"PK\x05\x06")
    lying[end + 8:end + 12] = (1).to_bytes(2, "little") * 2  # the end record claims one entry
    assert packed.zip_entries(bytes(lying)) == packed.MAX_ENTRIES + 1

    def never(*_):
        raise AssertionError("the index was parsed")

    monkeypatch.setattr(packed, "zip_module", never)
    with pytest.raises(ValueError, match="more than 10,000 entries"):
        unpack_all(bytes(lying), "many.zip")


def test_zip_links_are_skipped_and_names_stay_unique():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        link = zipfile.ZipInfo("data/link.csv")
        link.external_attr = (0o120777 << 16)  # a symbolic link, as Info-ZIP stores it: its content is the target
        archive.writestr(link, "/etc/passwd")
        archive.writestr("data/a.csv", b"1\n")
        archive.writestr("data/a.csv.gz", gzip.compress(b"2\n"))
    assert unpack_all(buffer.getvalue(), "x.zip") == [(b"1\n", "data/a.csv"), (b"2\n", "data/a.csv (2)")]


def test_damaged_zstandard_members_get_a_message():
    from backports.zstd import zipfile as zstd_zip

    buffer = io.BytesIO()
    with zstd_zip.ZipFile(buffer, "w", compression=zstd_zip.ZIP_ZSTANDARD) as archive:
        archive.writestr("a.csv", b"x,y\n" * 2000)
    assert unpack(buffer.getvalue(), "z.zip")[0] == b"x,y\n" * 2000
    broken = bytearray(buffer.getvalue())
    broken[45:60] = b"\x13" * 15
    with pytest.raises(ValueError, match="not a readable zip archive"):
        unpack(bytes(broken), "z.zip")


def test_multi_file_uploaders_get_every_file_of_an_archive(monkeypatch):
    import pages._uploads
    from pages._uploads import Opened, opened

    monkeypatch.setattr(pages._uploads, "_unpacked", lambda data, name, limit: unpack(data, name, max_bytes=limit))
    monkeypatch.setattr(pages._uploads, "_unpacked_all",
                        lambda data, name, limit: unpack_all(data, name, max_bytes=limit))

    class Upload:
        def __init__(self, name, data, file_id):
            self.name, self._data, self.file_id = name, data, file_id

        def getvalue(self):
            return self._data

    plain = Upload("samples_arc_seed0.jsonl", b"0\n", "p")
    packed = Upload("runs.zip", _zip({"samples_arc_seed1.jsonl": b"1\n", "samples_arc_seed2.jsonl": b"2\n"}), "z")
    assert opened([plain, packed]) == [plain, Opened("samples_arc_seed1.jsonl", b"1\n", "z/0"),
                                       Opened("samples_arc_seed2.jsonl", b"2\n", "z/1")]
    with pytest.raises(ValueError, match="holds 2 files"):
        opened(packed)  # an uploader of one file


def test_an_uploads_digest_is_worked_out_once_per_upload(monkeypatch):
    """pages._uploads.digest: the SHA-1 of the bytes (hashlib's), kept per Streamlit file_id for the session, so
    the campaign page's cached readers do not hash tens of MB on every rerun; the latest 8 uploads are kept."""
    import hashlib
    import types

    import pages._uploads

    monkeypatch.setattr(pages._uploads, "st", types.SimpleNamespace(session_state={}))

    class Upload:
        def __init__(self, file_id):
            self.file_id = file_id

    data = b"system\titem\n" * 1000
    assert pages._uploads.digest(Upload("f1"), data) == hashlib.sha1(data).hexdigest()
    assert pages._uploads.digest(Upload("f1"), b"not read again") == hashlib.sha1(data).hexdigest()
    assert pages._uploads.digest(Upload(""), b"x") == hashlib.sha1(b"x").hexdigest()  # no id: not kept
    for k in range(2, 11):
        pages._uploads.digest(Upload(f"f{k}"), bytes([k]))
    assert list(pages._uploads.st.session_state["upload_digests"]) == [f"f{k}" for k in range(3, 11)]


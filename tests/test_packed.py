"""Compressed uploads (core.packed.unpack). Oracle: Python's gzip and tarfile modules writing the files, and the
bytes written into them."""

from __future__ import annotations

import gzip
import io
import tarfile

import pytest

from core.packed import PACKED_TYPES, is_packed, unpack
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
    for published in ("a.tsv.tar.gz", "a.jsonl.gz", "a.tgz", "a.tar"):
        assert any(published.endswith("." + ext) for ext in PACKED_TYPES)


def test_pages_hand_their_readers_the_file_inside(monkeypatch):
    import pages._uploads
    from pages._uploads import Opened, opened, upload_types

    monkeypatch.setattr(pages._uploads, "_unpacked", unpack)  # its session cache needs a running app

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
    assert upload_types("csv") == ["csv", "gz", "tgz", "tar"]


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

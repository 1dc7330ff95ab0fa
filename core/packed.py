"""Compressed uploads: a gzip file or a tar archive holding one text file, unpacked in memory.

Evaluation projects publish some files compressed: Google's WMT MQM ratings of 2023 come as
``*.tsv.tar.gz`` (github.com/google/wmt-mqm-human-evaluation, ``generalMT2023``), and large
lm-evaluation-harness sample logs are often shared as ``.jsonl.gz``. :func:`unpack` gives the file inside as
bytes, with its name, to the same readers as an uncompressed upload.

Defensive by construction: nothing is written to disk and nothing in an archive is executed; the unpacked text
may be at most :data:`core.uploads.MAX_BYTES` (the limit of an uncompressed upload, so every reader's own limits
hold unchanged), checked while decompressing, so a small file that would unpack to gigabytes (a "zip bomb") stops
at the limit; an archive must hold exactly one data file (directories, links and the ``._*`` / ``__MACOSX``
entries macOS adds are skipped).
"""

from __future__ import annotations

import io
import os
import tarfile
import zlib

from core.uploads import MAX_BYTES

__all__ = ["PACKED_TYPES", "is_packed", "unpack"]

#: File extensions of compressed uploads (for an uploader's accepted types, next to the plain ones).
PACKED_TYPES = ("gz", "tgz", "tar")

_GZIP = b"\x1f\x8b"
#: Compressed bytes fed to zlib at a time.
_CHUNK = 1 << 18
#: Most gzip members in one file (``cat a.gz b.gz`` makes two; real files have one or a few).
MAX_MEMBERS = 1_000


def _is_tar(data: bytes) -> bool:
    # POSIX (ustar) and GNU tar headers carry "ustar" at byte 257 of the first block
    return len(data) >= 512 and data[257:262] == b"ustar"


def is_packed(data) -> bool:
    """Whether ``data`` is a gzip file or a tar archive (by its first bytes, not its name)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return False
    head = bytes(data[:512])
    return head[:2] == _GZIP or _is_tar(head)


def _strip_suffix(name: str) -> str:
    low = name.lower()
    for suffix in (".tar.gz", ".tgz", ".tar", ".gz"):
        if low.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def _gunzip(data: bytes, name: str, max_bytes: int) -> bytes:
    """All gzip members of ``data`` (as ``gzip`` writes and concatenates them), at most ``max_bytes`` out.

    The input is fed in slices of :data:`_CHUNK` bytes, so finding where a member ends copies at most one slice
    (zlib hands back the rest of its input), and there are at most :data:`MAX_MEMBERS` members: a file of a million
    empty members cannot make the work quadratic."""
    view, pos, out, size, members = memoryview(data), 0, [], 0, 0
    while pos < len(data):
        if bytes(view[pos:pos + 2]) != _GZIP:  # zero padding after the last member is allowed (as gzip does)
            if bytes(view[pos:]).strip(b"\x00"):
                raise ValueError(f"{name} has data after its gzip stream that is not gzip.")
            break
        members += 1
        if members > MAX_MEMBERS:
            raise ValueError(f"{name} has more than {MAX_MEMBERS:,} gzip members; compress the file once.")
        unzip = zlib.decompressobj(wbits=31)
        try:
            while not unzip.eof:
                if pos >= len(data):
                    raise ValueError(f"{name} is a truncated gzip file (it ends before its stream does).")
                chunk = view[pos:pos + _CHUNK]
                pos += len(chunk)
                while chunk and not unzip.eof:
                    piece = unzip.decompress(chunk, max_bytes + 1 - size)
                    size += len(piece)
                    out.append(piece)
                    if size > max_bytes:
                        raise ValueError(f"{name} unpacks to more than {max_bytes / 2**20:g} MB; at most "
                                         f"{max_bytes / 2**20:g} MB of text is accepted (upload a smaller file).")
                    chunk = unzip.unconsumed_tail
        except zlib.error as err:
            raise ValueError(f"{name} is not a readable gzip file ({err}).") from None
        pos -= len(unzip.unused_data)  # the next member starts where this one's stream ended
    return b"".join(out)


def _skipped(member: tarfile.TarInfo) -> bool:
    base = os.path.basename(member.name)
    return (not member.isfile() or base.startswith("._") or "__MACOSX" in member.name.split("/")
            or base in (".DS_Store",))


def _untar(data: bytes, name: str, max_bytes: int) -> tuple[bytes, str]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            members = [m for m in archive.getmembers() if not _skipped(m)]
            if not members:
                raise ValueError(f"{name} is a tar archive with no file in it.")
            if len(members) > 1:
                listed = ", ".join(os.path.basename(m.name) for m in members[:5])
                more = f" and {len(members) - 5:,} more" if len(members) > 5 else ""
                raise ValueError(f"{name} holds {len(members):,} files ({listed}{more}); extract it and upload "
                                 "one file at a time.")
            member = members[0]
            if member.size > max_bytes:
                raise ValueError(f"{name} holds a file of {member.size / 2**20:.1f} MB; at most "
                                 f"{max_bytes / 2**20:g} MB is accepted.")
            handle = archive.extractfile(member)  # read into memory; nothing is written to disk
            content = handle.read(max_bytes + 1) if handle is not None else b""
    except tarfile.TarError as err:
        raise ValueError(f"{name} is not a readable tar archive ({err}).") from None
    return content, os.path.basename(member.name) or _strip_suffix(name)


def unpack(data, name: str = "The file", *, max_bytes: int = MAX_BYTES) -> tuple[bytes, str]:
    """The file inside a compressed upload, and its name; any other upload unchanged.

    Parameters
    ----------
    data : bytes
        The upload's bytes.
    name : str, optional
        Its file name (``mqm_generalMT2023_ende.tsv.tar.gz``): the result is named after the file inside a tar
        archive, else this name without ``.gz``; readers that recognise a format by its name see the published one.
    max_bytes : int, optional
        Most bytes of unpacked text (default :data:`core.uploads.MAX_BYTES`, the limit of a plain upload).

    Returns
    -------
    (bytes, str)
        ``(data, name)`` unchanged when ``data`` is neither gzip (by its magic bytes ``1f 8b``, RFC 1952 §2.3.1)
        nor a tar archive (``ustar`` at byte 257, POSIX.1-2001 pax/ustar format); otherwise the unpacked file.

    Raises
    ------
    ValueError
        For a damaged or truncated file, more than ``max_bytes`` unpacked, or an archive that holds no file or
        more than one.

    Examples
    --------
    >>> import gzip
    >>> unpack(gzip.compress(b"system\\tscore\\n"), "scores.tsv.gz")
    (b'system\\tscore\\n', 'scores.tsv')
    >>> unpack(b"a,b\\n1,2\\n", "plain.csv")
    (b'a,b\\n1,2\\n', 'plain.csv')
    """
    if not is_packed(data):
        return data, name
    data = bytes(data)
    if data[:2] == _GZIP:
        data = _gunzip(data, name, max_bytes)
        if not _is_tar(data):
            if not data:
                raise ValueError(f"{name} unpacks to an empty file.")
            return data, _strip_suffix(name)
    return _untar(data, name, max_bytes)

"""Compressed uploads: gzip files and tar or zip archives, unpacked in memory.

Evaluation projects publish some files compressed: Google's WMT MQM ratings of 2023 come as
``*.tsv.tar.gz`` (github.com/google/wmt-mqm-human-evaluation, ``generalMT2023``), large
lm-evaluation-harness sample logs are often shared as ``.jsonl.gz``, and a folder of per-task logs travels
zipped. :func:`unpack` gives the file inside as bytes, with its name, to the same readers as an uncompressed
upload; :func:`unpack_all` gives every file of an archive to an uploader that takes several.

Defensive by construction: nothing is written to disk and nothing in an archive is executed; the unpacked text
may be at most :data:`core.uploads.MAX_BYTES` (the limit of an uncompressed upload, so every reader's own limits
hold unchanged), all files of an archive together, checked while decompressing, so a small file that would unpack
to gigabytes (a "zip bomb") stops at the limit; an archive's index is capped (:data:`MAX_ENTRIES`) and so are its
files (:data:`MAX_FILES`); directories, links and the ``._*`` / ``__MACOSX`` entries macOS adds are skipped.
"""

from __future__ import annotations

import io
import lzma
import os
import tarfile
import zipfile
import zlib

from core.uploads import MAX_BYTES

__all__ = ["MAX_FILES", "PACKED_TYPES", "ZIP_FORMATS", "is_packed", "unpack", "unpack_all", "zip_entries",
           "zip_module", "zip_read_errors"]

#: File extensions of compressed uploads (for an uploader's accepted types, next to the plain ones).
PACKED_TYPES = ("gz", "tgz", "tar", "zip")

_GZIP = b"\x1f\x8b"
#: Compressed bytes fed to zlib at a time.
_CHUNK = 1 << 18
#: Most gzip members in one file (``cat a.gz b.gz`` makes two; real files have one or a few).
MAX_MEMBERS = 1_000
#: Most data files read from one archive (a folder of per-task or per-run logs has tens).
MAX_FILES = 200
#: Most entries (files, folders, extras) an archive may list: its index is read before any file.
MAX_ENTRIES = 10_000
#: A zip archive starts with a local file header, or (empty) with the end of its central directory.
_ZIP = (b"PK\x03\x04", b"PK\x05\x06")


def _is_tar(data: bytes) -> bool:
    # POSIX (ustar) and GNU tar headers carry "ustar" at byte 257 of the first block
    return len(data) >= 512 and data[257:262] == b"ustar"


def _is_zip(data: bytes) -> bool:
    return data[:4] in _ZIP


#: Files that are zip archives by format and have their own reader, never unpacked (Inspect AI's ``.eval`` logs).
ZIP_FORMATS = (".eval",)


def zip_module():
    """The ``zipfile`` of ``backports.zstd`` (the backport of Python 3.14's ``compression.zstd``, PEP 784): it also
    reads Zstandard members (method 93), as Inspect AI's ``.eval`` logs have them since 2026, and bounds every
    member's read, which Python 3.11's own ``zipfile`` does not for LZMA and BZIP2 members."""
    try:
        from backports.zstd import zipfile as module
    except ImportError:  # pragma: no cover - a requirement
        raise ValueError("Reading zip archives needs the package backports.zstd; install the requirements "
                         "(make venv).") from None
    return module


def zip_read_errors() -> tuple:
    """What reading a damaged zip member can raise: the format's, each decompressor's, and zipfile's refusal of an
    encrypted member (RuntimeError)."""
    import backports.zstd

    return (zipfile.BadZipFile, zip_module().BadZipFile, zlib.error, lzma.LZMAError, backports.zstd.ZstdError,
            EOFError, OSError, RuntimeError)


def zip_entries(data: bytes) -> int:
    """An upper bound on a zip's entries, counted before its index is parsed: the central-directory headers'
    signature ``PK\x01\x02`` (APPNOTE §4.3.12), which Python's ``zipfile`` requires of every entry it lists (the
    count in the end record is not what it reads, so it is not trusted)."""
    return bytes(data).count(b"PK\x01\x02")


def is_packed(data) -> bool:
    """Whether ``data`` is a gzip file, a tar or a zip archive (by its first bytes, not its name)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return False
    head = bytes(data[:512])
    return head[:2] == _GZIP or _is_tar(head) or _is_zip(head)


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
                        raise _too_large(name, max_bytes)
                    chunk = unzip.unconsumed_tail
        except zlib.error as err:
            raise ValueError(f"{name} is not a readable gzip file ({err}).") from None
        pos -= len(unzip.unused_data)  # the next member starts where this one's stream ended
    return b"".join(out)


def _skipped_path(path: str) -> bool:
    """macOS's resource forks and folder files, which archivers add beside the data."""
    base = os.path.basename(path.rstrip("/"))
    return base.startswith("._") or "__MACOSX" in path.split("/") or base == ".DS_Store"


def _too_large(name: str, max_bytes: int) -> ValueError:
    return ValueError(f"{name} unpacks to more than {max_bytes / 2**20:g} MB; at most {max_bytes / 2**20:g} MB of "
                      "text is accepted (upload a smaller file).")


def _too_many_entries(name: str) -> ValueError:
    return ValueError(f"{name} has more than {MAX_ENTRIES:,} entries; upload the data files themselves.")


def _tar_members(data: bytes, name: str, max_bytes: int, max_files: int, one: bool) -> list[tuple[bytes, str]]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            entries = archive.getmembers()
            if len(entries) > MAX_ENTRIES:
                raise _too_many_entries(name)
            members = [m for m in entries if m.isfile() and not _skipped_path(m.name)]
            _check_count(name, [m.name for m in members], max_files, one)
            out, size = [], 0
            for member in members:
                size += member.size
                if size > max_bytes:  # the header says so: refused before reading
                    raise ValueError(f"{name} holds {'a file' if len(members) == 1 else 'files'} of "
                                     f"{size / 2**20:.1f} MB; at most {max_bytes / 2**20:g} MB is accepted.")
                handle = archive.extractfile(member)  # read into memory; nothing is written to disk
                out.append((handle.read(member.size) if handle is not None else b"", member.name))
    except tarfile.TarError as err:
        raise ValueError(f"{name} is not a readable tar archive ({err}).") from None
    return out


def _zip_members(data: bytes, name: str, max_bytes: int, max_files: int, one: bool) -> list[tuple[bytes, str]]:
    if zip_entries(data) > MAX_ENTRIES:
        raise _too_many_entries(name)
    zipfile_ = zip_module()
    try:
        with zipfile_.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ENTRIES:
                raise _too_many_entries(name)
            members = [i for i in infos if not i.is_dir() and not _skipped_path(i.filename)
                       and (i.external_attr >> 16) & 0o170000 != 0o120000]  # a symbolic link's entry: skipped
            _check_count(name, [i.filename for i in members], max_files, one)
            out, size = [], 0
            for info in members:
                if info.flag_bits & 0x1:
                    raise ValueError(f"{name} is encrypted ({os.path.basename(info.filename)} needs a password); "
                                     "upload the files unencrypted.")
                # at most what is left of the budget plus one byte: the sizes a zip declares are not trusted (a
                # read that ends before that has reached the member's end, where zipfile checks its CRC-32)
                with archive.open(info) as handle:
                    content = handle.read(max_bytes - size + 1)
                    size += len(content)
                    if size > max_bytes:
                        raise _too_large(name, max_bytes)
                out.append((content, info.filename))
    except NotImplementedError as err:  # a compression method Python cannot read (e.g. Deflate64)
        raise ValueError(f"{name} uses a compression Python's zipfile cannot read ({err}); re-compress it with "
                         "the usual Deflate.") from None
    except zip_read_errors() as err:
        raise ValueError(f"{name} is not a readable zip archive ({err}).") from None
    return out


def _check_count(name: str, paths: list[str], max_files: int, one: bool) -> None:
    if not paths:
        raise ValueError(f"{name} is an archive with no file in it.")
    if one and len(paths) > 1:
        listed = ", ".join(os.path.basename(p) for p in paths[:5])
        more = f" and {len(paths) - 5:,} more" if len(paths) > 5 else ""
        raise ValueError(f"{name} holds {len(paths):,} files ({listed}{more}); extract it and upload one file at a "
                         "time.")
    if len(paths) > max_files:
        raise ValueError(f"{name} holds {len(paths):,} files; at most {max_files:,} are read from one archive.")


def _named(members: list[tuple[bytes, str]]) -> list[tuple[bytes, str]]:
    """Each file under its own name (``samples_arc.jsonl``), or its path in the archive where two share a name;
    a name still taken (a repeated path, ``a.csv`` beside ``a.csv.gz``) gets `` (2)``, `` (3)``, …"""
    bases = [os.path.basename(path) for _, path in members]
    out, taken = [], set()
    for (content, path), base in zip(members, bases):
        name = base if bases.count(base) == 1 else path.removeprefix("./") or base
        unique, k = name, 1
        while unique in taken:
            k += 1
            unique = f"{name} ({k})"
        taken.add(unique)
        out.append((content, unique))
    return out


def _unpack(data, name: str, max_bytes: int, max_files: int, one: bool) -> list[tuple[bytes, str]]:
    if not is_packed(data) or (name.lower().endswith(ZIP_FORMATS) and _is_zip(bytes(data[:4]))):
        return [(data, name)]
    data = bytes(data)
    if data[:2] == _GZIP:
        data = _gunzip(data, name, max_bytes)
        if not _is_tar(data):
            if not data:
                raise ValueError(f"{name} unpacks to an empty file.")
            return [(data, _strip_suffix(name))]
    read = _zip_members if _is_zip(data) else _tar_members
    members, out, size = read(data, name, max_bytes, max_files, one), [], 0
    for content, path in members:
        if content[:2] == _GZIP:  # a gzipped file in an archive (a zip of .jsonl.gz logs): unpacked once
            content = _gunzip(content, f"{name} ({os.path.basename(path)})", max_bytes - size)
            path = _strip_suffix(path)
        size += len(content)
        if size > max_bytes:
            raise _too_large(name, max_bytes)
        out.append((content, path))
    return _named(out)


def unpack(data, name: str = "The file", *, max_bytes: int = MAX_BYTES) -> tuple[bytes, str]:
    """The file inside a compressed upload, and its name; any other upload unchanged.

    Parameters
    ----------
    data : bytes
        The upload's bytes.
    name : str, optional
        Its file name (``mqm_generalMT2023_ende.tsv.tar.gz``): the result is named after the file inside an
        archive, else this name without ``.gz``; readers that recognise a format by its name see the published one.
    max_bytes : int, optional
        Most bytes of unpacked text (default :data:`core.uploads.MAX_BYTES`, the limit of a plain upload).

    Returns
    -------
    (bytes, str)
        ``(data, name)`` unchanged when ``data`` is neither gzip (by its magic bytes ``1f 8b``, RFC 1952 §2.3.1),
        a tar archive (``ustar`` at byte 257, POSIX.1-2001 pax/ustar format) nor a zip archive (a local file
        header's signature ``PK\\x03\\x04``, PKWARE APPNOTE §4.3.7); otherwise the unpacked file.

    Raises
    ------
    ValueError
        For a damaged, truncated or encrypted file, more than ``max_bytes`` unpacked, or an archive that holds no
        file or more than one (:func:`unpack_all` reads an archive of several).

    Examples
    --------
    >>> import gzip
    >>> unpack(gzip.compress(b"system\\tscore\\n"), "scores.tsv.gz")
    (b'system\\tscore\\n', 'scores.tsv')
    >>> unpack(b"a,b\\n1,2\\n", "plain.csv")
    (b'a,b\\n1,2\\n', 'plain.csv')
    """
    return _unpack(data, name, max_bytes, 1, True)[0]


def unpack_all(data, name: str = "The file", *, max_bytes: int = MAX_BYTES,
               max_files: int = MAX_FILES) -> list[tuple[bytes, str]]:
    """Every file inside a compressed upload, in the archive's order, for uploaders that take several files.

    A folder of lm-evaluation-harness ``samples_*.jsonl`` files zipped or tarred, or several vote files, arrive
    as one upload and are read as if uploaded one by one. Each file is named after itself, or after its path in
    the archive when two files share a name (``model_a/samples_arc.jsonl``); a gzipped file inside an archive is
    unpacked too. Directories, links and macOS's ``._*`` / ``__MACOSX`` / ``.DS_Store`` entries are skipped.

    Parameters
    ----------
    data : bytes
        The upload's bytes.
    name : str, optional
        Its file name, for messages (and the result's name when ``data`` is a single gzipped file).
    max_bytes : int, optional
        Most bytes of unpacked text, all files together (default :data:`core.uploads.MAX_BYTES`, the limit of a
        plain upload).
    max_files : int, optional
        Most files (default :data:`MAX_FILES`).

    Returns
    -------
    list of (bytes, str)
        ``[(data, name)]`` when ``data`` is not compressed; a gzipped file gives one entry.

    Raises
    ------
    ValueError
        For a damaged, truncated or encrypted archive, more than ``max_bytes`` unpacked, more than ``max_files``
        files, or none.

    Examples
    --------
    >>> import io, zipfile
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("runs/samples_arc_seed1.jsonl", '{"doc_id": 0}\\n')
    ...     archive.writestr("runs/samples_arc_seed2.jsonl", '{"doc_id": 0}\\n')
    >>> [file_name for _, file_name in unpack_all(buffer.getvalue(), "runs.zip")]
    ['samples_arc_seed1.jsonl', 'samples_arc_seed2.jsonl']
    """
    return _unpack(data, name, max_bytes, max_files, False)

"""Uploads as their readers see them: a compressed file (gzip, tar, zip) unpacked, under the name of the file inside.

Every uploader accepts the plain extensions of its formats and the same files compressed
(:func:`upload_types`); :func:`opened` hands the readers the file inside (:func:`core.packed.unpack`: in memory,
at most the limit of a plain upload) with the methods the readers use on an upload (``name``, ``getvalue()``).
An uploader that takes several files gets every file of an archive, as if uploaded one by one
(:func:`core.packed.unpack_all`). Call it inside the reader's ``guard``: a damaged archive is a ``ValueError``
with a message.

Every uploader is drawn by :func:`file_uploader`, which gives it its limit: :data:`core.uploads.MAX_BYTES`, or
:data:`core.uploads.MAX_JUDGMENT_BYTES` for last year's judgments (the server's ``maxUploadSize``, the largest).
The browser refuses a larger file before sending it; :func:`opened` refuses it again on the server, with the same
limit, for a client that does not.
"""

from __future__ import annotations

import dataclasses
import hashlib

import streamlit as st

from core.packed import PACKED_TYPES, is_packed, unpack, unpack_all
from core.uploads import MAX_BYTES
from pages._frame import cached_upload

__all__ = ["Opened", "opened", "upload_types", "file_uploader", "digest"]


def file_uploader(box, label: str, *, max_bytes: int = MAX_BYTES, **options):
    """``box.file_uploader(label, **options)`` (``box``: ``st``, the sidebar or a column) with its size limit,
    ``max_bytes`` (whole megabytes): the browser shows it and refuses a larger file."""
    return box.file_uploader(label, max_upload_size=max_bytes // 2**20, **options)


def upload_types(*types: str) -> list[str]:
    """An uploader's accepted extensions: ``types`` and the same files compressed (``.gz``, ``.tgz``, ``.tar``,
    ``.zip``)."""
    return [*types, *PACKED_TYPES]


@dataclasses.dataclass(frozen=True)
class Opened:
    """The file inside a compressed upload: its name (as published, ``mqm_….tsv``) and its bytes."""

    name: str
    data: bytes = dataclasses.field(repr=False)
    file_id: str = ""

    def getvalue(self) -> bytes:
        return self.data


@cached_upload
def _unpacked(data: bytes, name: str, max_bytes: int) -> tuple[bytes, str]:
    return unpack(data, name, max_bytes=max_bytes)


@cached_upload
def _unpacked_all(data: bytes, name: str, max_bytes: int) -> list[tuple[bytes, str]]:
    return unpack_all(data, name, max_bytes=max_bytes)


def _checked(upload, max_bytes: int) -> bytes:
    """The upload's bytes, at most ``max_bytes`` (its uploader's limit)."""
    data = upload.getvalue()
    if len(data) > max_bytes:
        raise ValueError(f"{str(upload.name)[:80]} is {len(data) / 2**20:.1f} MB; this uploader takes files of at "
                         f"most {max_bytes / 2**20:g} MB.")
    return data


def opened(upload, *, max_bytes: int = MAX_BYTES):
    """``upload`` (a Streamlit ``UploadedFile``, a list of them, or ``None``) with compressed files unpacked; plain
    files are returned as they are. A list (an uploader that takes several files) gets every file of each archive
    in its place; a single upload must hold one file. ``max_bytes`` is the uploader's limit
    (:func:`file_uploader`): a larger file, or one that unpacks past it, is a ``ValueError``."""
    if upload is None:
        return None
    if isinstance(upload, (list, tuple)):
        files = []
        for up in upload:
            data = _checked(up, max_bytes)
            if not is_packed(data):
                files.append(up)
                continue
            file_id = getattr(up, "file_id", "")
            files += [Opened(name, content, f"{file_id}/{i}")
                      for i, (content, name) in enumerate(_unpacked_all(data, up.name, max_bytes))]
        return files
    data = _checked(upload, max_bytes)
    if not is_packed(data):
        return upload
    content, name = _unpacked(data, upload.name, max_bytes)
    return Opened(name, content, getattr(upload, "file_id", ""))


#: Uploads whose digest is kept per session (the latest ones).
_DIGESTS_KEPT = 8


def digest(upload, data: bytes) -> str:
    """The upload's SHA-1, worked out once per upload (Streamlit's ``file_id``). A cached reader keyed by it can
    leave the bytes unhashed (a ``_data`` argument), so a rerun does not hash a file of tens of MB again."""
    file_id = str(getattr(upload, "file_id", "") or "")
    kept = st.session_state.setdefault("upload_digests", {})
    if file_id and file_id in kept:
        return kept[file_id]
    found = hashlib.sha1(data).hexdigest()
    if file_id:
        kept[file_id] = found
        for old in list(kept)[:-_DIGESTS_KEPT]:
            del kept[old]
    return found

"""Uploads as their readers see them: a compressed file (gzip, tar, zip) unpacked, under the name of the file inside.

Every uploader accepts the plain extensions of its formats and the same files compressed
(:func:`upload_types`); :func:`opened` hands the readers the file inside (:func:`core.packed.unpack`: in memory,
at most the limit of a plain upload) with the methods the readers use on an upload (``name``, ``getvalue()``).
An uploader that takes several files gets every file of an archive, as if uploaded one by one
(:func:`core.packed.unpack_all`). Call it inside the reader's ``guard``: a damaged archive is a ``ValueError``
with a message.
"""

from __future__ import annotations

import dataclasses

from core.packed import PACKED_TYPES, is_packed, unpack, unpack_all
from pages._frame import cached_upload

__all__ = ["Opened", "opened", "upload_types"]


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
def _unpacked(data: bytes, name: str) -> tuple[bytes, str]:
    return unpack(data, name)


@cached_upload
def _unpacked_all(data: bytes, name: str) -> list[tuple[bytes, str]]:
    return unpack_all(data, name)


def opened(upload):
    """``upload`` (a Streamlit ``UploadedFile``, a list of them, or ``None``) with compressed files unpacked; plain
    files are returned as they are. A list (an uploader that takes several files) gets every file of each archive
    in its place; a single upload must hold one file."""
    if upload is None:
        return None
    if isinstance(upload, (list, tuple)):
        files = []
        for up in upload:
            data = up.getvalue()
            if not is_packed(data):
                files.append(up)
                continue
            file_id = getattr(up, "file_id", "")
            files += [Opened(name, content, f"{file_id}/{i}")
                      for i, (content, name) in enumerate(_unpacked_all(data, up.name))]
        return files
    data = upload.getvalue()
    if not is_packed(data):
        return upload
    content, name = _unpacked(data, upload.name)
    return Opened(name, content, getattr(upload, "file_id", ""))

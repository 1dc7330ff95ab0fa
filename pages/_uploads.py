"""Uploads as their readers see them: a compressed file (gzip, tar) unpacked, under the name of the file inside.

Every uploader accepts the plain extensions of its formats and the same files compressed
(:func:`upload_types`); :func:`opened` hands the readers the file inside (:func:`core.packed.unpack`: in memory,
at most the limit of a plain upload) with the methods the readers use on an upload (``name``, ``getvalue()``).
Call it inside the reader's ``guard``: a damaged archive is a ``ValueError`` with a message.
"""

from __future__ import annotations

import dataclasses

from core.packed import PACKED_TYPES, is_packed, unpack
from pages._frame import cached_upload

__all__ = ["Opened", "opened", "upload_types"]


def upload_types(*types: str) -> list[str]:
    """An uploader's accepted extensions: ``types`` and the same files compressed (``.gz``, ``.tgz``, ``.tar``)."""
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


def opened(upload):
    """``upload`` (a Streamlit ``UploadedFile``, a list of them, or ``None``) with compressed files unpacked; plain
    files are returned as they are."""
    if upload is None:
        return None
    if isinstance(upload, (list, tuple)):
        return [opened(u) for u in upload]
    data = upload.getvalue()
    if not is_packed(data):
        return upload
    content, name = _unpacked(data, upload.name)
    return Opened(name, content, getattr(upload, "file_id", ""))

"""Private files (CVs and cover letters): checked by content, size-capped, stored under random names.

They live in the store STORAGE_URL names (app.services.platform.storage: DATA_DIR/applications by default, or a
bucket), never under Reflex's public upload folder; only staff routes may read them, streamed through the app.
"""

from __future__ import annotations

import io
import logging
import re
import secrets
import zipfile
from dataclasses import dataclass
from typing import IO

from app.core.config import Settings, settings
from app.core.errors import Invalid, NotFound, PayloadTooLarge, Unavailable
from app.services.platform import storage

log = logging.getLogger(__name__)

FOLDER = "applications"
WRONG_TYPE = "Please upload only PDF, DOC, or DOCX files."
EMPTY = "The uploaded file is empty."
# A real CV's .docx unpacks to a few MB; a "zip bomb" claims gigabytes. Nothing here ever unpacks an upload, but staff
# open these files in their word processor, so a document that would unpack past this is refused at the door.
MAX_UNPACKED = 100 * 1024 * 1024
MAX_ENTRIES = 5000
UNPACKS_TOO_LARGE = "This DOCX file unpacks to more than 100 MB. Please save it again or upload it as a PDF."
STORAGE_UNAVAILABLE = "We couldn't store your file just now, so nothing was sent. Please try again in a few minutes."
READ_UNAVAILABLE = (
    "The file store can't be reached just now, so this document can't be opened. Please try again in a few minutes."
)
_NAME = re.compile(rf"{FOLDER}/[0-9a-f]{{32}}\.(pdf|doc|docx)")
_OLE2 = bytes.fromhex("D0CF11E0A1B11AE1")
# Excel sheets and Windows installers are OLE2 files too; a Word file has this stream in its directory.
_WORD_STREAM = "WordDocument".encode("utf-16-le")


@dataclass(frozen=True)
class FileType:
    extension: str
    content_type: str


PDF = FileType("pdf", "application/pdf")
DOC = FileType("doc", "application/msword")
DOCX = FileType("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
ALLOWED_EXTENSIONS = frozenset({"pdf", "doc", "docx"})


@dataclass(frozen=True)
class StoredFile:
    name: str  # the store's key, e.g. applications/3f…9a.pdf (relative to DATA_DIR for the local store)
    filename: str  # the uploader's name, for display only
    content_type: str


def max_bytes(cfg: Settings = settings) -> int:
    return cfg.max_upload_mb * 1024 * 1024


def too_large_message(cfg: Settings = settings) -> str:
    return f"File too large: the maximum is {cfg.max_upload_mb} MB per file."


def _sniff(data: bytes) -> FileType | None:
    if data.startswith(b"%PDF-"):
        return PDF
    if data.startswith(_OLE2):
        return DOC if _WORD_STREAM in data else None
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:  # reads the central directory only; nothing is extracted
                return DOCX if "word/document.xml" in zf.namelist() else None
        except (zipfile.BadZipFile, ValueError):
            return None
    return None


def _unpacks_too_large(data: bytes) -> bool:
    """Whether a DOCX's directory declares more content than any document has (read from the directory only)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        entries = zf.infolist()
        return len(entries) > MAX_ENTRIES or sum(e.file_size for e in entries) > MAX_UNPACKED


def detect(filename: str, data: bytes, *, field: str = "file", cfg: Settings = settings) -> FileType:
    """The document type of an upload; its content decides, though the name must also look like a document."""
    if len(data) > max_bytes(cfg):
        raise PayloadTooLarge(too_large_message(cfg), errors={field: too_large_message(cfg)})
    if not data:
        raise Invalid(EMPTY, errors={field: EMPTY})
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    kind = _sniff(data)
    if extension not in ALLOWED_EXTENSIONS or kind is None:
        raise Invalid(WRONG_TYPE, errors={field: WRONG_TYPE})
    if kind is DOCX and _unpacks_too_large(data):
        raise Invalid(UNPACKS_TOO_LARGE, errors={field: UNPACKS_TOO_LARGE})
    return kind


def display_name(filename: str) -> str:
    """The uploader's file name without any folder part or control characters, shortened to fit the column."""
    base = re.split(r"[\\/]", filename)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()
    return base[-255:] or "document"


def store(filename: str, data: bytes, *, field: str = "file", cfg: Settings = settings) -> StoredFile:
    """Check one upload and write it whole under a random name (a reader sees all of it or nothing)."""
    kind = detect(filename, data, field=field, cfg=cfg)
    name = f"{FOLDER}/{secrets.token_hex(16)}.{kind.extension}"
    where = storage.store_for(cfg)
    try:
        where.put(name, data)
    except storage.StoreUnreachable as exc:
        # A full disk or a bucket that is down is the server's fault, not the visitor's: a 503 that says nothing was
        # kept (the visitor still has the file and sends it again), and the cause for the operator.
        log.error("Could not store an upload in %s: %s", where.description, exc)
        raise Unavailable(STORAGE_UNAVAILABLE) from exc
    return StoredFile(name=name, filename=display_name(filename), content_type=kind.content_type)


def _checked(name: str) -> str:
    """A stored name as the key it is; anything that is not one of our own names is refused (no path traversal)."""
    if not _NAME.fullmatch(name or ""):
        raise NotFound("File not found")
    return name


def open_private(name: str, cfg: Settings = settings) -> IO[bytes]:
    """Open a stored file for reading (the caller closes it; `storage.chunks` streams and closes it)."""
    where = storage.store_for(cfg)
    try:
        return where.open(_checked(name))
    except storage.StoreUnreachable as exc:
        log.error("Could not read %s from %s: %s", name, where.description, exc)
        raise Unavailable(READ_UNAVAILABLE) from exc


def delete(name: str, cfg: Settings = settings) -> None:
    """Remove a stored file; a missing one is not an error (cleanup may run twice). Used to undo a write that failed
    after it, so a store that is down now only leaves an object nothing points at: logged, never raised over the
    failure being handled."""
    if not _NAME.fullmatch(name or ""):
        return
    where = storage.store_for(cfg)
    try:
        where.delete(name)
    except storage.StoreUnreachable as exc:
        log.warning("Could not delete %s from %s (no row points at it): %s", name, where.description, exc)

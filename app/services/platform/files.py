"""Private files (CVs and cover letters, files attached to project messages): checked by content, size-capped, stored
under random names.

They live in the store STORAGE_URL names (app.services.platform.storage: DATA_DIR/<folder> by default, or a bucket),
never under Reflex's public upload folder; only routes that check who may read them stream them, through the app.

One checker serves every kind of upload: the bytes say what a file is (magic numbers, an OLE2 document's streams, an
OOXML or OpenDocument package's entries), the name must also be one a kind accepts, and a package that would unpack
past a limit is refused. A `Policy` says which types an upload may be, where it is kept and the words of a refusal:
`CV` for job applications, `ATTACHMENT` for project messages (ADR 0101).
"""

from __future__ import annotations

import io
import logging
import re
import secrets
import zipfile
import zlib
from dataclasses import dataclass
from typing import IO

from app.core.config import Settings, settings
from app.core.errors import Invalid, NotFound, PayloadTooLarge, Unavailable
from app.services.platform import storage

log = logging.getLogger(__name__)

FOLDER = "applications"
EMPTY = "The uploaded file is empty."
# A real CV's .docx unpacks to a few MB; a "zip bomb" claims gigabytes. Nothing here ever unpacks an upload, but staff
# open these files in their word processor, so a document that would unpack past this is refused at the door.
MAX_UNPACKED = 100 * 1024 * 1024
MAX_ENTRIES = 5000
STORAGE_UNAVAILABLE = "We couldn't store your file just now, so nothing was sent. Please try again in a few minutes."
READ_UNAVAILABLE = (
    "The file store can't be reached just now, so this document can't be opened. Please try again in a few minutes."
)
_OLE2 = bytes.fromhex("D0CF11E0A1B11AE1")
# Excel sheets, PowerPoint decks and Windows installers are all OLE2 files; a document's directory names its streams.
_OLE2_STREAMS = (("WordDocument", "doc"), ("Workbook", "xls"), ("Book", "xls"), ("PowerPoint Document", "ppt"))
# An OOXML package says what it is by its main part; an OpenDocument one by its first entry, "mimetype".
_OOXML_PARTS = (("word/document.xml", "docx"), ("xl/workbook.xml", "xlsx"), ("ppt/presentation.xml", "pptx"))
_OPENDOCUMENT = {
    b"application/vnd.oasis.opendocument.text": "odt",
    b"application/vnd.oasis.opendocument.spreadsheet": "ods",
}
# Plain text may hold tabs, line and page breaks; other control characters (and NUL) mean a binary file.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class FileType:
    extension: str
    content_type: str
    extensions: tuple[str, ...] = ()  # further names of the type (jpeg for jpg)


PDF = FileType("pdf", "application/pdf")
DOC = FileType("doc", "application/msword")
DOCX = FileType("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
XLS = FileType("xls", "application/vnd.ms-excel")
XLSX = FileType("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
PPT = FileType("ppt", "application/vnd.ms-powerpoint")
PPTX = FileType("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation")
ODT = FileType("odt", "application/vnd.oasis.opendocument.text")
ODS = FileType("ods", "application/vnd.oasis.opendocument.spreadsheet")
ZIP = FileType("zip", "application/zip")
PNG = FileType("png", "image/png")
JPEG = FileType("jpg", "image/jpeg", ("jpeg",))
WEBP = FileType("webp", "image/webp")
GIF = FileType("gif", "image/gif")
TXT = FileType("txt", "text/plain")
CSV = FileType("csv", "text/csv")
_BY_EXTENSION = {t.extension: t for t in (DOC, DOCX, XLS, XLSX, PPT, PPTX, ODT, ODS, TXT, CSV)}


@dataclass(frozen=True)
class Policy:
    """What one kind of upload may be, where it is kept, and how a refusal reads."""

    folder: str
    types: tuple[FileType, ...]
    wrong_type: str
    unpacks_too_large: str

    @property
    def extensions(self) -> frozenset[str]:
        return frozenset(e for t in self.types for e in (t.extension, *t.extensions))


WRONG_TYPE = "Please upload only PDF, DOC, or DOCX files."
UNPACKS_TOO_LARGE = "This DOCX file unpacks to more than 100 MB. Please save it again or upload it as a PDF."
CV = Policy(folder=FOLDER, types=(PDF, DOC, DOCX), wrong_type=WRONG_TYPE, unpacks_too_large=UNPACKS_TOO_LARGE)
ATTACHMENT = Policy(
    folder="conversations",
    types=(PDF, PNG, JPEG, WEBP, GIF, DOC, DOCX, XLS, XLSX, PPT, PPTX, ODT, ODS, ZIP, TXT, CSV),
    wrong_type=(
        "Please attach only PDF files, images (PNG, JPEG, WebP, GIF), office documents (Word, Excel, PowerPoint, "
        "OpenDocument), ZIP archives or plain text and CSV files."
    ),
    unpacks_too_large="This file unpacks to more than 100 MB. Please send a smaller one.",
)
POLICIES = (CV, ATTACHMENT)
FOLDERS = tuple(p.folder for p in POLICIES)  # every folder of private files: what a backup copies
ALLOWED_EXTENSIONS = CV.extensions
_NAME = re.compile(
    rf"({'|'.join(FOLDERS)})/[0-9a-f]{{32}}\.({'|'.join(sorted({t.extension for p in POLICIES for t in p.types}))})"
)


@dataclass(frozen=True)
class StoredFile:
    name: str  # the store's key, e.g. applications/3f…9a.pdf (relative to DATA_DIR for the local store)
    filename: str  # the uploader's name, for display only
    content_type: str
    size: int = 0


def max_bytes(cfg: Settings = settings) -> int:
    return cfg.max_upload_mb * 1024 * 1024


def too_large_message(cfg: Settings = settings) -> str:
    return f"File too large: the maximum is {cfg.max_upload_mb} MB per file."


def _sniff_zip(data: bytes) -> FileType | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:  # reads the central directory; nothing large is extracted
            names = set(zf.namelist())
            for part, extension in _OOXML_PARTS:
                if part in names:
                    return _BY_EXTENSION[extension]
            mimetype = zf.getinfo("mimetype") if "mimetype" in names else None
            if mimetype is not None and mimetype.file_size <= 100:  # a few dozen bytes; a larger one is no OpenDocument
                return _BY_EXTENSION.get(_OPENDOCUMENT.get(zf.read(mimetype).strip(), ""), ZIP)
            return ZIP
    except (zipfile.BadZipFile, ValueError, NotImplementedError, RuntimeError, zlib.error):
        return None


def _is_text(data: bytes) -> bool:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return not _CONTROL.search(text)


def _sniff(data: bytes, extension: str) -> FileType | None:
    """What the bytes are (None: nothing we accept). Text has no signature: a .txt or .csv name that holds UTF-8
    text without control characters is text; a program renamed .txt is not."""
    if data.startswith(b"%PDF-"):
        return PDF
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    if data.startswith((b"GIF87a", b"GIF89a")):
        return GIF
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return WEBP
    if data.startswith(_OLE2):
        found = (ext for stream, ext in _OLE2_STREAMS if stream.encode("utf-16-le") in data)
        return _BY_EXTENSION.get(next(found, ""))
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _sniff_zip(data)
    if extension in ("txt", "csv") and _is_text(data):
        return _BY_EXTENSION[extension]
    return None


def _unpacks_too_large(data: bytes) -> bool:
    """Whether a package's directory declares more content than any document has (read from the directory only)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        entries = zf.infolist()
        return len(entries) > MAX_ENTRIES or sum(e.file_size for e in entries) > MAX_UNPACKED


def detect(
    filename: str, data: bytes, *, field: str = "file", cfg: Settings = settings, policy: Policy = CV
) -> FileType:
    """The type of an upload; its content decides, though the name must also be one the policy accepts."""
    if len(data) > max_bytes(cfg):
        raise PayloadTooLarge(too_large_message(cfg), errors={field: too_large_message(cfg)})
    if not data:
        raise Invalid(EMPTY, errors={field: EMPTY})
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    kind = _sniff(data, extension)
    if extension not in policy.extensions or kind not in policy.types:
        raise Invalid(policy.wrong_type, errors={field: policy.wrong_type})
    if data.startswith(b"PK") and _unpacks_too_large(data):
        raise Invalid(policy.unpacks_too_large, errors={field: policy.unpacks_too_large})
    return kind


def display_name(filename: str) -> str:
    """The uploader's file name without any folder part or control characters, shortened to fit the column."""
    base = re.split(r"[\\/]", filename)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()
    return base[-255:] or "document"


def store(
    filename: str, data: bytes, *, field: str = "file", cfg: Settings = settings, policy: Policy = CV
) -> StoredFile:
    """Check one upload and write it whole under a random name (a reader sees all of it or nothing)."""
    kind = detect(filename, data, field=field, cfg=cfg, policy=policy)
    return put(filename, data, kind, cfg=cfg, policy=policy)


def put(filename: str, data: bytes, kind: FileType, *, cfg: Settings = settings, policy: Policy = CV) -> StoredFile:
    """Write an upload `detect` has passed whole under a random name in the policy's folder."""
    name = f"{policy.folder}/{secrets.token_hex(16)}.{kind.extension}"
    where = storage.store_for(cfg)
    try:
        where.put(name, data)
    except storage.StoreUnreachable as exc:
        # A full disk or a bucket that is down is the server's fault, not the visitor's: a 503 that says nothing was
        # kept (the visitor still has the file and sends it again), and the cause for the operator.
        log.error("Could not store an upload in %s: %s", where.description, exc)
        raise Unavailable(STORAGE_UNAVAILABLE) from exc
    return StoredFile(name=name, filename=display_name(filename), content_type=kind.content_type, size=len(data))


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

"""Where private files live: one interface over a local folder or an S3-compatible bucket, chosen by STORAGE_URL.

Keys are relative names such as `applications/3f…9a.pdf` (what the database keeps); a store maps them to a file under
its folder or to an object under its bucket's prefix. Nothing here decides who may read a file: callers check
permissions first, and the app streams the bytes itself (no public or presigned URL ever leaves the server; ADR 0096).

A store that cannot be reached (a full or failing disk, a bucket that is down, refuses our keys or does not exist)
raises `StoreUnreachable`; callers turn it into a 503 whose words fit what the visitor was doing.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol
from urllib.parse import urlsplit

from botocore.exceptions import BotoCoreError, ClientError

from app.core.config import Settings, settings
from app.core.errors import NotFound

log = logging.getLogger(__name__)

CHUNK = 64 * 1024
# An unreachable bucket must answer the visitor in seconds, not after botocore's default 60 s read timeout and
# several retries: two attempts, short timeouts. The read timeout runs from the request sent to the first byte of the
# answer (and between pieces), so a 10 MB CV's upload time is not in it.
CONNECT_TIMEOUT_S = 3
READ_TIMEOUT_S = 10
MAX_ATTEMPTS = 2


class StoreUnreachable(Exception):
    """The store did not do what was asked; the message is for the operator's log, never for a visitor."""


class Store(Protocol):
    description: str  # for logs and the backup's manifest: where, never with a secret

    def put(self, key: str, data: bytes) -> None:
        """Write the whole object under `key`; readers see all of it or nothing."""

    def open(self, key: str) -> IO[bytes]:
        """The object's bytes to read (and close); NotFound when there is none."""

    def delete(self, key: str) -> None:
        """Remove the object; a missing one is not an error."""

    def exists(self, key: str) -> bool: ...

    def keys(self, prefix: str) -> list[str]:
        """Every key under `prefix` (e.g. "applications/"), sorted: what a backup copies."""

    def check(self) -> None:
        """Raise StoreUnreachable unless the store answers now (before a backup or restore starts its work)."""


class LocalStore:
    """A folder on this machine (DATA_DIR by default): files 0600 in folders 0700, written by rename."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.description = f"file://{self.root}"

    def _path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if not path.is_relative_to(self.root) or path == self.root:  # a key never leaves the folder
            raise NotFound("File not found")
        return path

    def put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        tmp = path.with_name(f".{path.name}.tmp")  # dot names are skipped by keys(): never a half-written file
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(tmp, path)  # readers see the whole file or none
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise StoreUnreachable(f"could not write {path}: {exc}") from exc

    def open(self, key: str) -> IO[bytes]:
        path = self._path(key)
        if not path.is_file():
            raise NotFound("File not found")
        try:
            return path.open("rb")
        except OSError as exc:
            raise StoreUnreachable(f"could not read {path}: {exc}") from exc

    def delete(self, key: str) -> None:
        try:
            self._path(key).unlink(missing_ok=True)
        except OSError as exc:
            raise StoreUnreachable(f"could not delete {key}: {exc}") from exc

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def keys(self, prefix: str) -> list[str]:
        folder = self.root / prefix.strip("/")
        if not folder.is_dir():
            return []
        return sorted(
            p.relative_to(self.root).as_posix()
            for p in folder.rglob("*")
            if p.is_file() and not p.name.startswith(".")  # ".name.tmp": an upload still being written
        )

    def check(self) -> None:
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnreachable(f"could not create {self.root}: {exc}") from exc
        if not os.access(self.root, os.W_OK | os.X_OK):
            raise StoreUnreachable(f"{self.root} is not writable by this process")


class S3Store:
    """Objects in an S3-compatible bucket, under an optional prefix. Objects are written without an ACL, so they are
    as private as the bucket (S3's default: only the owner's keys read them)."""

    def __init__(self, client: Any, bucket: str, prefix: str, where: str) -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = f"{prefix.strip('/')}/" if prefix.strip("/") else ""
        self.description = f"s3://{bucket}/{self.prefix}".rstrip("/") + (f" at {where}" if where else "")

    def _key(self, key: str) -> str:
        if not key or key.startswith("/") or ".." in key.split("/"):
            raise NotFound("File not found")
        return self.prefix + key

    def _failed(self, doing: str, exc: Exception) -> StoreUnreachable:
        return StoreUnreachable(f"{doing}: {exc}")

    def put(self, key: str, data: bytes) -> None:
        try:
            # One PUT: S3 shows a new object whole or not at all. A CV fits one request (no multipart upload).
            self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)
        except (BotoCoreError, ClientError) as exc:
            raise self._failed(f"writing {key}", exc) from exc

    def open(self, key: str) -> IO[bytes]:
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self._key(key))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                raise NotFound("File not found") from None
            raise self._failed(f"reading {key}", exc) from exc
        except BotoCoreError as exc:
            raise self._failed(f"reading {key}", exc) from exc
        body: IO[bytes] = answer["Body"]  # botocore's StreamingBody: read(n), close(), a context manager
        return body

    def delete(self, key: str) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=self._key(key))
        except (BotoCoreError, ClientError) as exc:
            raise self._failed(f"deleting {key}", exc) from exc

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=self._key(key))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404", "NotFound"):
                return False
            raise self._failed(f"looking for {key}", exc) from exc
        except BotoCoreError as exc:
            raise self._failed(f"looking for {key}", exc) from exc
        return True

    def keys(self, prefix: str) -> list[str]:
        found: list[str] = []
        try:
            pages = self.client.get_paginator("list_objects_v2").paginate(
                Bucket=self.bucket, Prefix=self._key(prefix.strip("/")) + "/"
            )
            for page in pages:
                found.extend(item["Key"].removeprefix(self.prefix) for item in page.get("Contents", []))
        except (BotoCoreError, ClientError) as exc:
            raise self._failed(f"listing {prefix}", exc) from exc
        return sorted(found)

    def check(self) -> None:
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as exc:
            raise self._failed("reaching the bucket", exc) from exc


def chunks(handle: IO[bytes]) -> Iterator[bytes]:
    """A stored file's bytes in pieces for a streamed answer, closing it at the end (or when the client goes away)."""
    try:
        while piece := handle.read(CHUNK):
            yield piece
    except Exception:
        # The headers have gone out: the status cannot change any more, so the answer ends short and the browser
        # reports a failed download. The cause is for the operator.
        log.exception("A stored file's stream broke off")
        raise
    finally:
        handle.close()


@functools.lru_cache(maxsize=8)
def _s3_client(endpoint: str | None, region: str, key_id: str | None, secret: str | None) -> Any:
    """One client per configuration: boto3 clients are thread-safe and slow to make (tens of ms)."""
    import boto3  # here, not at the top: 0.2 s of every start that a local store does not need
    from botocore.config import Config

    config = Config(
        connect_timeout=CONNECT_TIMEOUT_S,
        read_timeout=READ_TIMEOUT_S,
        retries={"max_attempts": MAX_ATTEMPTS, "mode": "standard"},
        # A self-hosted endpoint (MinIO, Ceph, Garage, a test server on 127.0.0.1) is reached by path, not by a
        # bucket-named host that its DNS would not know.
        s3={"addressing_style": "path" if endpoint else "auto"},
        # boto3's newer default checksums (CRC32 trailers) are refused by some S3-compatible servers; S3 itself
        # checks the body's MD5/length either way.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )
    session = boto3.session.Session()
    return session.client(
        "s3",
        endpoint_url=endpoint,
        region_name=region,
        aws_access_key_id=key_id,
        aws_secret_access_key=secret,
        config=config,
    )


def store_for(cfg: Settings = settings) -> Store:
    """The store STORAGE_URL names (DATA_DIR when it is empty)."""
    url = cfg.storage_url
    if not url:
        return LocalStore(cfg.data_dir)
    parts = urlsplit(url)
    if parts.scheme == "file":
        return LocalStore(Path(parts.path))
    secret = cfg.aws_secret_access_key.get_secret_value() if cfg.aws_secret_access_key else None
    client = _s3_client(cfg.s3_endpoint_url, cfg.s3_region, cfg.aws_access_key_id, secret)
    return S3Store(client, parts.netloc, parts.path, cfg.s3_endpoint_url or "")

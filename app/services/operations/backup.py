"""Backups: a consistent snapshot of the database and the private files, and bringing one back on an empty machine.

A backup is a folder:

    manifest.json           format, time, schema revision, engine, and a SHA-256 and count for every file below
    tables/<table>.jsonl    every row of every table, one JSON object per line, in primary-key order
    files/applications/...  the private files (CVs and cover letters; files/conversations/...: files attached to
                            project messages), byte for byte, from their store: the local folder or the S3 bucket
                            that STORAGE_URL names (app.services.platform.storage)

The rows are a logical dump, not the engine's own format, so a PostgreSQL backup restores into SQLite and back, and
no `pg_dump` of the server's exact version is needed. Consistency: PostgreSQL rows are read in one REPEATABLE READ,
read-only transaction (one snapshot while writes go on); SQLite is first copied with its online backup API, then read.
Files are copied after the rows: stored files are never changed in place, so every file a row names is there (a file
uploaded later is an extra, harmless copy). The manifest is written last; a folder without one is not a backup. The
store is asked first whether it answers, so a bucket that is down stops the backup before it starts.

Restore checks every checksum before touching anything, needs an empty database (no tables, or the backup's schema
with every table empty) and a store that answers, writes the files (each whole, under its own name: writing them
again is harmless, so a restore that stops there can simply be run again), then creates the schema at the backup's
revision, loads all rows in one transaction, applies any newer migrations and sets PostgreSQL's id sequences past the
restored ids. The files go first because the rows are all-or-nothing and the files are not: the other order could
leave a restored database whose CVs are missing and that a second restore refuses (it is no longer empty).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine
from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers every table on SQLModel.metadata)
from app.core import migrations
from app.core.db import make_engine
from app.core.errors import Conflict, Invalid, Unavailable
from app.services.platform.files import FOLDERS
from app.services.platform.storage import LocalStore, Store, StoreUnreachable

FORMAT = 1
MANIFEST = "manifest.json"
BATCH = 500


@dataclass(frozen=True)
class Summary:
    revision: str
    rows: int
    tables: int
    files: int


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _tables() -> list[sa.Table]:
    """Every table, parents before children (the order rows can be inserted in)."""
    return list(SQLModel.metadata.sorted_tables)


# --- values <-> JSON ---------------------------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.name  # SQLAlchemy's Enum stores and accepts the member's name
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode()
    return value


def _decoder(column: sa.Column[Any]) -> Any:
    """How to turn a column's JSON value back into what its type binds."""
    t = column.type
    if isinstance(t, sa.TypeDecorator):  # e.g. a UTC-aware DateTime: its value is what the wrapped type takes
        t = t.impl_instance
    if isinstance(t, sa.DateTime):
        return dt.datetime.fromisoformat
    if isinstance(t, sa.Date):
        return dt.date.fromisoformat
    if isinstance(t, sa.Time):
        return dt.time.fromisoformat
    if isinstance(t, sa.Numeric) and not isinstance(t, sa.Float):
        return Decimal
    if isinstance(t, sa.Uuid):
        return uuid.UUID
    if isinstance(t, sa.LargeBinary):
        return base64.b64decode
    return None


def _decode_row(table: sa.Table, decoders: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    unknown = set(row) - set(table.c.keys())
    if unknown:
        raise Invalid(f"The backup's table {table.name} has columns this version does not know: {sorted(unknown)}")
    return {k: (decoders[k](v) if v is not None and decoders.get(k) else v) for k, v in row.items()}


# --- backup ------------------------------------------------------------------------------------------------------


def _revision(conn: Connection) -> str:
    revision = MigrationContext.configure(conn).get_current_revision()
    if revision is None:
        raise Invalid("The database has no schema yet: there is nothing to back up.")
    return revision


def _dump(conn: Connection, out: Path) -> tuple[str, dict[str, Any]]:
    revision = _revision(conn)
    tables: dict[str, Any] = {}
    (out / "tables").mkdir()
    for table in _tables():
        path = out / "tables" / f"{table.name}.jsonl"
        count = 0
        order = list(table.primary_key.columns) or list(table.c)
        with path.open("w", encoding="utf-8") as fh:
            result = conn.execution_options(yield_per=BATCH).execute(sa.select(table).order_by(*order))
            for row in result.mappings():
                fh.write(json.dumps({k: _encode(v) for k, v in row.items()}, ensure_ascii=False, sort_keys=True))
                fh.write("\n")
                count += 1
        tables[table.name] = {"rows": count, "sha256": _sha256(path)}
    return revision, tables


@contextmanager
def _snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection that sees one consistent state of the whole database while others keep writing."""
    if engine.dialect.name == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "snapshot.db"
            raw = engine.raw_connection()
            try:
                target = sqlite3.connect(copy)
                raw.driver_connection.backup(target)  # type: ignore[union-attr]  # SQLite's online backup: one state
                target.close()
            finally:
                raw.close()
            snap = make_engine(f"sqlite:///{copy}")
            try:
                with snap.connect() as conn:
                    yield conn
            finally:
                snap.dispose()
        return
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        with conn.begin():
            yield conn


def _store(files: Store | Path) -> Store:
    return LocalStore(files) if isinstance(files, Path) else files


def _reachable(store: Store, doing: str) -> None:
    try:
        store.check()
    except StoreUnreachable as exc:
        raise Unavailable(f"The file store {store.description} can't be reached ({exc}): {doing}") from exc


def _copy_files(store: Store, out: Path) -> dict[str, Any]:
    files: dict[str, Any] = {}
    target = out / "files"
    target.mkdir(parents=True)
    keys: list[str] = []
    try:
        for folder in FOLDERS:  # every kind of private file: CVs, files attached to project messages
            (target / folder).mkdir()
            keys += store.keys(folder)
        for key in keys:
            path = target / key
            path.parent.mkdir(parents=True, exist_ok=True)
            with store.open(key) as src, path.open("wb") as dst:
                for piece in iter(lambda: src.read(1 << 20), b""):
                    dst.write(piece)
            files[key] = {"bytes": path.stat().st_size, "sha256": _sha256(path)}
    except StoreUnreachable as exc:
        raise Unavailable(
            f"The file store {store.description} failed during the backup ({exc}): the folder has no manifest, so it "
            "is not a backup. Run the backup again into a new folder."
        ) from exc
    return files


def backup(engine: Engine, files: Store | Path, out: Path) -> Summary:
    """Write a backup of the database behind `engine` and the private files in `files` (their store, or a local
    folder) into the folder `out` (which must not exist yet, or be empty)."""
    store = _store(files)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise Conflict(f"{out} already exists and is not an empty folder: choose a new folder for the backup.")
    _reachable(store, "nothing was backed up.")
    out.mkdir(parents=True, exist_ok=True)
    with _snapshot(engine) as conn:
        revision, tables = _dump(conn, out)
    copied = _copy_files(store, out)
    manifest = {
        "format": FORMAT,
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "revision": revision,
        "engine": engine.dialect.name,
        "store": store.description,  # where the files came from; a restore may put them elsewhere
        "tables": tables,
        "files": copied,
    }
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, out / MANIFEST)  # last: a folder with a manifest is a whole backup
    return Summary(revision, sum(t["rows"] for t in tables.values()), len(tables), len(copied))


# --- restore -----------------------------------------------------------------------------------------------------


def read_manifest(source: Path) -> dict[str, Any]:
    """The backup's manifest, after checking that every file it lists is there with the same checksum."""
    try:
        manifest = json.loads((source / MANIFEST).read_text())
    except FileNotFoundError:
        raise Invalid(f"{source} is not a backup (no {MANIFEST}); an interrupted backup has none.") from None
    except (ValueError, UnicodeDecodeError):
        raise Invalid(f"The backup's {MANIFEST} is damaged (not JSON).") from None
    if manifest.get("format") != FORMAT:
        raise Invalid(f"The backup has format {manifest.get('format')!r}; this version reads format {FORMAT}.")
    listed = [(f"tables/{name}.jsonl", t["sha256"]) for name, t in manifest["tables"].items()]
    listed += [(f"files/{name}", f["sha256"]) for name, f in manifest["files"].items()]
    for relative, expected in listed:
        path = source / relative
        if not path.is_file():
            raise Invalid(f"The backup is incomplete: {relative} is missing.")
        if _sha256(path) != expected:
            raise Invalid(f"The backup is damaged: {relative} does not match its checksum.")
    return manifest


def _known_revision(url: str, revision: str) -> None:
    scripts = ScriptDirectory.from_config(migrations.alembic_config(url))
    if revision not in {s.revision for s in scripts.walk_revisions()}:
        raise Invalid(
            f"The backup's schema revision {revision} is unknown here: restore it with the version that made it."
        )


def _empty_or_conflict(engine: Engine, revision: str) -> bool:
    """True when the database has no tables at all; False when it has the backup's schema and no rows."""
    with engine.connect() as conn:
        names = set(sa.inspect(conn).get_table_names())
        if not names:
            return True
        current = MigrationContext.configure(conn).get_current_revision()
        filled = [
            t.name
            for t in _tables()
            if t.name in names and conn.execute(sa.select(sa.func.count()).select_from(t)).scalar()
        ]
    if current != revision or filled:
        raise Conflict(
            "The database is not empty"
            + (f" (rows in {', '.join(sorted(filled)[:5])})" if filled else f" (schema revision {current})")
            + ": restore needs an empty database."
        )
    return False


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


def _load(conn: Connection, source: Path, manifest: dict[str, Any]) -> int:
    total = 0
    for table in _tables():
        if table.name not in manifest["tables"]:
            continue  # a table newer than the backup: its migration made it, empty
        decoders = {c.name: _decoder(c) for c in table.c}
        batch: list[dict[str, Any]] = []
        for row in _rows(source / "tables" / f"{table.name}.jsonl"):
            batch.append(_decode_row(table, decoders, row))
            if len(batch) == BATCH:
                conn.execute(table.insert(), batch)
                total, batch = total + len(batch), []
        if batch:
            conn.execute(table.insert(), batch)
            total += len(batch)
    return total


def _advance_sequences(conn: Connection) -> None:
    """PostgreSQL hands out ids from sequences that the restored rows (inserted with their ids) did not move."""
    for table in _tables():
        for column in table.primary_key.columns:
            if isinstance(column.type, sa.Integer) and column.autoincrement in (True, "auto"):
                sequence = sa.func.pg_get_serial_sequence(table.name, column.name)
                after = sa.select(sa.func.coalesce(sa.func.max(column), 0) + 1).scalar_subquery()
                conn.execute(sa.select(sa.func.setval(sequence, after, False)))  # NULL (no-op) without a sequence


def _restore_files(source: Path, store: Store, manifest: dict[str, Any]) -> None:
    try:
        for name in manifest["files"]:
            store.put(name, (source / "files" / name).read_bytes())  # a CV is at most MAX_UPLOAD_MB
    except StoreUnreachable as exc:
        raise Unavailable(
            f"The file store {store.description} failed during the restore ({exc}). The database was not touched; "
            "run the restore again when the store answers."
        ) from exc


def restore(url: str, files: Store | Path, source: Path) -> Summary:
    """Bring the backup in `source` back into the empty database at `url` and the store `files` (or a local folder)."""
    store = _store(files)
    manifest = read_manifest(source)
    revision = manifest["revision"]
    _known_revision(url, revision)
    migrations.prepare(url)
    engine = make_engine(url)
    try:
        empty = _empty_or_conflict(engine, revision)
        _reachable(store, "nothing was restored.")
        _restore_files(source, store, manifest)
        if empty:
            migrations.upgrade(url, revision)
        with engine.begin() as conn:  # all rows or none
            rows = _load(conn, source, manifest)
        migrations.upgrade(url)  # the code may be newer than the backup
        if engine.dialect.name == "postgresql":
            with engine.begin() as conn:
                _advance_sequences(conn)
    finally:
        engine.dispose()
    return Summary(revision, rows, len(manifest["tables"]), len(manifest["files"]))

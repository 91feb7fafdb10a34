"""Backups: `backup` takes one consistent snapshot of a PostgreSQL database while writes go on, and `restore` brings it
back, files included, on an empty database (PostgreSQL or SQLite) that then serves the same data.

Each test uses databases of its own beside the run's test database (created and dropped here): the session-wide test
database holds other tests' rows, and restore needs an empty one.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.core.config import settings
from app.core.db import make_engine
from app.core.errors import Conflict, Invalid
from app.models import AuditLog, ContactInquiry, JobApplication, User
from app.models.project import ProjectMessage, ProjectMessageFile
from app.services.operations import backup
from app.services.operations.seed import seed_demo
from app.services.platform import files
from tests import factories as f
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME
from tests.migrations import migrate

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def _fresh_database(name: str) -> str:
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def _drop_database(name: str) -> None:
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def pg_pair() -> Iterator[tuple[str, str]]:
    names = (f"{TEST_DB_NAME}_backup_src", f"{TEST_DB_NAME}_backup_dst")
    yield _fresh_database(names[0]), _fresh_database(names[1])
    for name in names:
        _drop_database(name)


@pytest.fixture
def source(pg_pair: tuple[str, str], tmp_path: Path) -> Iterator[tuple[Engine, Path, str]]:
    """A migrated PostgreSQL database with the demo content and accounts, one row of most kinds, a stored CV and a
    file attached to a project message (`<data>/attached`: its key)."""
    url = pg_pair[0]
    migrate(url, "head")
    engine = make_engine(url)
    data_dir = tmp_path / "data"
    cfg = settings.model_copy(update={"data_dir": data_dir})
    stored = files.store("Zoë's CV.pdf", PDF, cfg=cfg)
    with Session(engine, expire_on_commit=False) as s:
        rows = f.one_of_each(s, "Backup")
        seed_demo(s, with_accounts=True)
        application = s.get(JobApplication, rows["application"].id)
        assert application is not None
        application.resume_path = stored.name
        s.add(application)
        attached = files.store("plan.png", PNG, cfg=cfg, policy=files.ATTACHMENT)
        owner = f.user(s, "backup_client")
        message = ProjectMessage(project_id=f.project(s, owner).id or 0, author_id=owner.id, body="")
        s.add(message)
        s.flush()
        s.add(ProjectMessageFile(message_id=message.id or 0, key=attached.name, name="plan.png",
                                 content_type=attached.content_type, size=attached.size))  # fmt: skip
        s.commit()
    (tmp_path / "attached").write_text(attached.name)
    yield engine, data_dir, stored.name
    engine.dispose()


def _tables(out: Path) -> dict[str, dict[str, object]]:
    return json.loads((out / "manifest.json").read_text())["tables"]


def _rows(out: Path, table: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "tables" / f"{table}.jsonl").read_text().splitlines()]


def test_a_backup_taken_during_writes_is_one_consistent_snapshot_and_restores_whole(
    source: tuple[Engine, Path, str], pg_pair: tuple[str, str], tmp_path: Path
) -> None:
    engine, data_dir, cv = source
    stop, committed, failures = threading.Event(), [], []

    def write() -> None:
        # Each transaction adds an inquiry and its audit entry: a dump that read the two tables at different moments
        # would hold one without the other.
        try:
            while not stop.is_set():
                with Session(engine) as s:
                    inquiry = ContactInquiry(name="Load", email="load@example.com", message="during the backup")
                    s.add(inquiry)
                    s.flush()
                    s.add(AuditLog(action="inquiry.create", entity_type="inquiry", entity_id=str(inquiry.id)))
                    s.commit()
                    committed.append(inquiry.id)
        except Exception as exc:  # reported below: a writer that died would make the test pass vacuously
            failures.append(exc)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while len(committed) < 20:  # writes are under way before the snapshot starts
            threading.Event().wait(0.01)
        out = tmp_path / "backup"
        summary = backup.backup(engine, data_dir, out)
        during = len(committed)
        while len(committed) < during + 20:  # and go on after it
            threading.Event().wait(0.01)
    finally:
        stop.set()
        writer.join()
    assert failures == []

    load_ids = {r["id"] for r in _rows(out, "contact_inquiries") if r["name"] == "Load"}
    audited = {int(str(r["entity_id"])) for r in _rows(out, "audit_log") if r["action"] == "inquiry.create"}
    assert load_ids == audited  # both tables from the same moment
    assert load_ids and load_ids == {i for i in committed if i <= max(load_ids)}  # everything committed before it
    assert len(load_ids) < len(committed)  # and nothing after: the writes went on during and after the backup

    manifest = json.loads((out / "manifest.json").read_text())
    attached = (tmp_path / "attached").read_text()
    assert attached.startswith("conversations/")
    assert manifest["engine"] == "postgresql" and manifest["files"].keys() == {cv, attached}
    assert summary.rows == sum(int(str(t["rows"])) for t in manifest["tables"].values())

    # Restore on an "empty machine": a new database and a new data folder.
    restored_dir = tmp_path / "restored-data"
    result = backup.restore(pg_pair[1], restored_dir, out)
    assert result.rows == summary.rows
    target = make_engine(pg_pair[1])
    try:
        again = tmp_path / "again"
        backup.backup(target, restored_dir, again)
        assert _tables(again) == _tables(out)  # every table, row for row and byte for byte
        cfg = settings.model_copy(update={"data_dir": restored_dir})
        with files.open_private(cv, cfg=cfg) as fh:
            assert fh.read() == PDF
        with files.open_private(attached, cfg=cfg) as fh:
            assert fh.read() == PNG
        with Session(target) as s:
            # The restored product goes on: new rows get new ids (the sequences moved past the restored ones).
            s.add(ContactInquiry(name="After", email="after@example.com", message="restored"))
            s.commit()
            assert s.exec(select(ContactInquiry).where(ContactInquiry.name == "After")).one().id == max(load_ids) + 1
            assert s.exec(select(User).where(User.username == "admin")).first() is not None
    finally:
        target.dispose()


def test_a_postgresql_backup_restores_into_sqlite_and_refuses_a_database_with_rows(
    source: tuple[Engine, Path, str], tmp_path: Path
) -> None:
    engine, data_dir, _ = source
    out = tmp_path / "backup"
    backup.backup(engine, data_dir, out)
    url = f"sqlite:///{tmp_path / 'restored' / 'app.db'}"
    backup.restore(url, tmp_path / "restored", out)
    lite = make_engine(url)
    try:
        again = tmp_path / "again"
        backup.backup(lite, tmp_path / "restored", again)
        assert _tables(again) == _tables(out)
    finally:
        lite.dispose()
    with pytest.raises(Conflict, match=r"The database is not empty .*restore needs an empty database"):
        backup.restore(url, tmp_path / "restored", out)
    with pytest.raises(Conflict, match="not an empty folder"):
        backup.backup(engine, data_dir, out)


def test_a_damaged_or_unfinished_backup_is_refused_before_anything_changes(
    source: tuple[Engine, Path, str], tmp_path: Path
) -> None:
    engine, data_dir, cv = source
    out = tmp_path / "backup"
    backup.backup(engine, data_dir, out)
    url = f"sqlite:///{tmp_path / 'target.db'}"

    (out / "files" / cv).write_bytes(PDF + b"tampered")
    with pytest.raises(Invalid, match=re.escape(f"The backup is damaged: files/{cv} does not match its checksum")):
        backup.restore(url, tmp_path / "target", out)
    (out / "files" / cv).unlink()
    with pytest.raises(Invalid, match=re.escape(f"The backup is incomplete: files/{cv} is missing")):
        backup.restore(url, tmp_path / "target", out)
    (out / "manifest.json").unlink()
    with pytest.raises(Invalid, match="is not a backup"):
        backup.restore(url, tmp_path / "target", out)
    assert not (tmp_path / "target.db").exists() and not (tmp_path / "target").exists()

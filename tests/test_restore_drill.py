"""The runbook's backup and restore drill, performed on PostgreSQL (docs/deploy.md, "Runbook"): deploy/backup.sh
(what coastline-backup.service runs nightly) writes pg_dump's copy and the app's backup of a database with data and a
private file, and deploy/restore_drill.py brings both back into scratch databases, where the rows and the file are
found again. A damaged backup fails the drill.

The databases are the test's own, beside the run's test database: created here and dropped at the end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

from app.core.config import settings
from app.core.db import make_engine
from app.models import JobApplication, User
from app.services.operations.seed import seed_demo
from app.services.platform import files
from tests import factories as f
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME
from tests.migrations import migrate

ROOT = Path(__file__).resolve().parents[1]
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
SOURCE = f"{TEST_DB_NAME}_drill_live"
PREFIX = f"{TEST_DB_NAME}_drill"  # the drill's scratch databases: <PREFIX>_pg and <PREFIX>_app
SERVER = PG_ADMIN_URL.rsplit("/", 1)[0]  # postgresql+psycopg://postgres@127.0.0.1:5432
# The drill runs as the runbook has it: a role that may create databases and nothing more (no superuser).
DRILL_ROLE = f"{TEST_DB_NAME}_drill_role"
ADMIN_URL = re.sub(r"^postgresql\+psycopg://([^@/]*@)?", f"postgresql://{DRILL_ROLE}@", SERVER) + "/postgres"

pytestmark = pytest.mark.skipif(
    not (shutil.which("pg_dump") and shutil.which("pg_restore")), reason="PostgreSQL's client tools are not installed"
)


def _drop(*names: str, role: bool = False) -> None:
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        if role:
            conn.execute(text(f'DROP ROLE IF EXISTS "{DRILL_ROLE}"'))
    admin.dispose()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Path, str]]:
    """The "production" database (demo content, one row of most kinds, an application with a stored CV) and its
    data folder: (DATABASE_URL, DATA_DIR, the CV's stored name)."""
    _drop(SOURCE, f"{PREFIX}_pg", f"{PREFIX}_app", role=True)
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{SOURCE}"'))
        conn.execute(text(f'CREATE ROLE "{DRILL_ROLE}" LOGIN CREATEDB'))
    admin.dispose()
    url = f"{SERVER}/{SOURCE}"
    migrate(url, "head")
    data_dir = tmp_path / "live-data"
    stored = files.store("Zoë's CV.pdf", PDF, cfg=settings.model_copy(update={"data_dir": data_dir}))
    engine = make_engine(url)
    with Session(engine, expire_on_commit=False) as s:
        rows = f.one_of_each(s, "Drill")
        seed_demo(s, with_accounts=True)
        application = s.get(JobApplication, rows["application"].id)
        assert application is not None
        application.resume_path = stored.name
        s.add(application)
        s.commit()
    engine.dispose()
    yield url, data_dir, stored.name
    _drop(SOURCE, f"{PREFIX}_pg", f"{PREFIX}_app", role=True)


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHON": sys.executable, "DRILL_ADMIN_URL": ADMIN_URL, "DRILL_PREFIX": PREFIX, **extra}


def _backup(url: str, data_dir: Path, target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ROOT / "deploy" / "backup.sh"), str(target)],
        env=_env(DATABASE_URL=url, DATA_DIR=str(data_dir), KEEP_DAYS="14"),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def _drill(backups: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "restore_drill.py"), str(backups), *extra],
        env=_env(), capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def _people(url: str) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with Session(engine) as s:
            return [(u.id, u.username, u.email, u.password_hash) for u in s.exec(select(User).order_by(User.id))]
    finally:
        engine.dispose()


def _resume(url: str) -> set[str | None]:
    engine = make_engine(url)
    try:
        with Session(engine) as s:
            return {a.resume_path for a in s.exec(select(JobApplication))}
    finally:
        engine.dispose()


def test_the_nightly_backup_restores_in_the_drill_with_its_rows_and_files(
    live: tuple[str, Path, str], tmp_path: Path
) -> None:
    url, data_dir, cv = live
    backups = tmp_path / "backups"
    backups.mkdir()
    old = backups / "20200101T023000Z"  # a run from long ago: deleted after the next run
    (old / "app").mkdir(parents=True)
    past = time.time() - 30 * 86400
    os.utime(old, (past, past))

    done = _backup(url, data_dir, backups)
    assert done.returncode == 0, done.stderr
    runs = sorted(p.name for p in backups.iterdir())
    assert len(runs) == 1 and re.fullmatch(r"\d{8}T\d{6}Z", runs[0]), runs  # the old one went, no partial left
    assert f"Deleted {old}" in done.stdout
    run = backups / runs[0]
    assert (run / "database.pgdump").stat().st_size > 0 and (run / "app" / "manifest.json").is_file()
    assert (run / "app" / "files" / cv).read_bytes() == PDF

    drilled = _drill(backups, "--keep")
    assert drilled.returncode == 0, drilled.stdout + drilled.stderr
    assert drilled.stdout.rstrip().endswith("Restore drill passed"), drilled.stdout
    kept = re.search(r"files in (\S+)", drilled.stdout)
    assert kept, drilled.stdout
    # Both copies hold the people (with their password hashes: they can sign in) and the application's CV.
    people = _people(url)
    assert len(people) > 10
    for copy in ("pg", "app"):
        assert _people(f"{SERVER}/{PREFIX}_{copy}") == people, copy
        assert cv in _resume(f"{SERVER}/{PREFIX}_{copy}"), copy
    assert (Path(kept.group(1)) / cv).read_bytes() == PDF
    shutil.rmtree(kept.group(1))


def test_a_damaged_backup_fails_the_drill(live: tuple[str, Path, str], tmp_path: Path) -> None:
    url, data_dir, cv = live
    backups = tmp_path / "backups"
    assert _backup(url, data_dir, backups).returncode == 0
    (run,) = backups.iterdir()

    stored = run / "app" / "files" / cv
    stored.write_bytes(stored.read_bytes().replace(b"%%EOF", b"%%EOX"))  # a flipped byte in a private file
    drilled = _drill(backups)
    assert drilled.returncode == 1, drilled.stdout
    assert "Restore drill FAILED" in drilled.stdout and "does not match its checksum" in drilled.stdout

    dump = run / "database.pgdump"
    dump.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])  # a dump cut short
    drilled = _drill(backups)
    assert drilled.returncode == 1 and "Restore drill FAILED: pg_restore" in drilled.stdout, drilled.stdout

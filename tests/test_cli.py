"""The operator CLI, run in-process: results on stdout, errors on stderr, exit codes 0 and 2."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from app.cli import main
from app.core.config import settings
from app.core.db import make_engine
from app.models import Service, User

Sessions = Callable[[], AbstractContextManager[Session]]


@pytest.fixture
def sessions(session: Session) -> Sessions:
    """The CLI's session factory, handing out the test's rolled-back session."""
    return lambda: nullcontext(session)


def _users(s: Session) -> int:
    return s.exec(select(func.count()).select_from(User)).one()


def _create(sessions: Sessions, *extra: str, username: str = "cli_user", email: str = "cli@example.com") -> int:
    argv = ["create-user", "--username", username, "--email", email, "--password", "Cli-secret-1", *extra]
    return main(argv, sessions=sessions)


def test_create_user_prints_the_new_id(
    sessions: Sessions, session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _create(sessions, "--role", "admin", "--first-name", "Ada", "--last-name", "Lovelace") == 0
    out, err = capsys.readouterr()
    user = session.exec(select(User).where(User.username == "cli_user")).one()
    assert out == f"Created admin user cli_user with id {user.id}\n"
    assert err == ""
    assert user.is_verified and (user.first_name, user.last_name) == ("Ada", "Lovelace")


def test_create_user_employee_and_unverified(
    sessions: Sessions, session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _create(sessions, "--role", "employee", "--employee-type", "customer_support", "--unverified") == 0
    assert capsys.readouterr().out.startswith("Created employee (customer_support) user cli_user with id ")
    user = session.exec(select(User).where(User.username == "cli_user")).one()
    assert user.employee_type == "customer_support" and not user.is_verified


def test_create_user_rejects_a_duplicate_with_exit_code_2(
    sessions: Sessions, session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _create(sessions, "--role", "client") == 0
    capsys.readouterr()
    assert _create(sessions, "--role", "client", username="CLI_USER", email="other@example.com") == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: This username is already taken\n  username: username already taken\n"
    assert _users(session) == 1


def test_create_user_reports_every_field_problem(sessions: Sessions, capsys: pytest.CaptureFixture[str]) -> None:
    code = _create(sessions, "--role", "employee", username="x", email="not-an-email")
    assert code == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "error: Please check the information and try again",
        "  username: Username must be at least 3 characters",
        "  email: Invalid email address",
        "  employee_type: Employee type is required for employees",
    ]


def test_unknown_role_is_an_argument_error(sessions: Sessions, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        _create(sessions, "--role", "superuser")
    assert caught.value.code == 2
    assert "invalid choice: 'superuser'" in capsys.readouterr().err


def test_seed_demo_in_prod_never_creates_accounts(
    sessions: Sessions, session: Session, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "app_env", "prod")
    users_before = _users(session)
    assert main(["seed-demo"], sessions=sessions) == 0
    out = capsys.readouterr().out
    assert _users(session) == users_before
    assert session.exec(select(func.count()).select_from(Service)).one() >= 6
    assert "demo accounts and demo client data are never created in production" in out
    assert "Demo accounts (" not in out and "Admin-demo-2026" not in out
    assert "  users " not in out


def test_seed_demo_in_dev_prints_the_demo_accounts(
    sessions: Sessions, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "app_env", "dev")
    assert main(["seed-demo"], sessions=sessions) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Demo content seeded (APP_ENV=dev): ")
    assert "  users                 13 created" in lines
    table = lines[lines.index(next(line for line in lines if line.startswith("Demo accounts"))) + 1 :]
    assert table[0].split() == ["ROLE", "USERNAME", "PASSWORD"]
    rows = {row.split()[1]: row.split() for row in table[1:]}
    assert rows["admin"] == ["admin", "admin", "Admin-demo-2026"]
    assert rows["staff_hr"] == ["employee", "staff_hr", "Staff-demo-2026"]
    assert rows["democlient"] == ["client", "democlient", "Client-demo-2026"]
    assert len(rows) == 13


def test_migrate_creates_the_sqlite_folder_and_reaches_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db_file = tmp_path / f"new-{uuid.uuid4().hex[:6]}" / "nested" / "app.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{db_file}")
    assert main(["migrate"]) == 0
    out = capsys.readouterr().out
    with sqlite3.connect(db_file) as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert out == f"Database sqlite:///{db_file} is at revision {revision} (head)\n"
    assert {"users", "services", "invoices"} <= tables
    assert main(["migrate"]) == 0  # already at head: nothing to do, still success


def test_seed_demo_migrates_first_in_the_same_process_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make run`'s one start of Python: an empty database is upgraded to head, then seeded."""
    db_file = tmp_path / "fresh.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{db_file}")
    monkeypatch.setattr(settings, "app_env", "dev")
    engine = make_engine(f"sqlite:///{db_file}")
    assert main(["seed-demo", "--migrate"], sessions=lambda: Session(engine)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"Database sqlite:///{db_file} is at revision ")
    assert lines[1].startswith("Demo content seeded (APP_ENV=dev): ") and not lines[1].endswith(": 0 new rows")
    with Session(engine) as s:
        assert _users(s) == 13


def test_backup_and_restore_round_trip_and_refuse_a_database_with_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{source}")
    monkeypatch.setattr(settings, "data_dir", tmp_path / "data")
    assert main(["migrate"]) == 0
    engine = make_engine(f"sqlite:///{source}")
    with Session(engine) as s:
        s.add(Service(title="Audits", slug="audits", description="Security audits"))
        s.commit()
    engine.dispose()
    capsys.readouterr()
    assert main(["backup", str(tmp_path / "backup")]) == 0
    assert "1 rows in" in capsys.readouterr().out
    assert main(["backup", str(tmp_path / "backup")]) == 2  # never over an earlier backup
    assert "already exists and is not an empty folder" in capsys.readouterr().err

    monkeypatch.setattr(settings, "database_url", f"sqlite:///{target}")
    assert main(["restore", str(tmp_path / "backup")]) == 0
    assert capsys.readouterr().out.startswith("Restored 1 rows in")
    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT slug FROM services").fetchall() == [("audits",)]
    assert main(["restore", str(tmp_path / "backup")]) == 2
    assert "error: The database is not empty (rows in services): restore needs an empty database." in (
        capsys.readouterr().err
    )


def test_create_user_refuses_undecodable_argument_bytes(
    sessions: Sessions, session: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python hands argv bytes that are not UTF-8 over as lone surrogates ("\udcff"); no database can store them.
    assert _create(sessions, "--role", "client", "--company", "Acme\udcff") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Some text contains an invalid character")
    assert "company: Contains an invalid character" in err
    session.rollback()  # the CLI's own session would simply close
    assert _users(session) == 0

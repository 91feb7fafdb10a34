"""The migrations create exactly the models' schema from empty, and remove it again, on SQLite and PostgreSQL."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlmodel import SQLModel

import app.models  # noqa: F401
from app.core.db import make_engine
from tests.conftest import PG_ADMIN_URL, TEST_DB_NAME
from tests.migrations import downgrade, migrate

MIGRATION_DB = f"{TEST_DB_NAME}_migrations"  # beside the run's own database: parallel runs never share it


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrations.db'}"
        return
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{MIGRATION_DB}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{MIGRATION_DB}"'))
    yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{MIGRATION_DB}"
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{MIGRATION_DB}" WITH (FORCE)'))
    admin.dispose()


def test_upgrade_matches_models_and_downgrade_removes_everything(empty_db_url: str) -> None:
    migrate(empty_db_url, "head")
    engine = make_engine(empty_db_url)
    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        assert set(SQLModel.metadata.tables) <= tables
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SQLite cannot reflect expression indexes; it says so in a warning
            diff = compare_metadata(ctx, SQLModel.metadata)
        assert diff == [], f"models and migrations disagree: {diff}"
        if conn.dialect.name == "postgresql":
            index_names = {ix["name"] for ix in inspect(conn).get_indexes("users")}
            assert "uq_users_username_lower" in index_names
    engine.dispose()

    downgrade(empty_db_url, "base")
    engine = make_engine(empty_db_url)
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
    engine.dispose()


def test_database_rejects_values_outside_the_enums(session) -> None:  # type: ignore[no-untyped-def]
    """CHECK constraints keep invalid enum values out even when written with raw SQL."""
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError):
        session.execute(
            text(
                "INSERT INTO users (id, username, email, role, is_verified, profile_complete, extra_permissions,"
                " revoked_permissions, created_at, updated_at) VALUES (gen_random_uuid(), 'x1', 'x1@example.com',"
                " 'superuser', false, false, '[]', '[]', now(), now())"
            )
        )


def test_sqlite_rebuilds_keep_the_rows_that_reference_the_rebuilt_table(tmp_path: Path) -> None:
    """Batch mode rebuilds `projects` (actual_hours became a decimal); its milestones must survive the drop."""
    url = f"sqlite:///{tmp_path / 'rebuild.db'}"
    migrate(url, "3b1c9e4d7a20")
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO users (id, username, email, role, is_verified, profile_complete, extra_permissions,"
                " revoked_permissions, created_at, updated_at) VALUES ('0123456789abcdef0123456789abcdef', 'c',"
                " 'c@example.com', 'client', 1, 1, '[]', '[]', '2026-01-01', '2026-01-01')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO projects (id, name, client_id, status, project_type, progress_percentage, actual_hours,"
                " created_at, updated_at) VALUES (1, 'P', '0123456789abcdef0123456789abcdef', 'planning',"
                " 'consulting', 0, 128, '2026-01-01', '2026-01-01')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO project_milestones (project_id, title, status, order_index, created_at, updated_at)"
                " VALUES (1, 'Kick-off', 'pending', 0, '2026-01-01', '2026-01-01')"
            )
        )
    engine.dispose()
    migrate(url, "head")
    engine = make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM project_milestones")).scalar() == 1
        assert conn.execute(text("SELECT actual_hours FROM projects")).scalar() == 128  # kept as it was
    engine.dispose()

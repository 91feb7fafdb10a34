"""The start-up schema check: dev applies missing migrations; elsewhere the log says which command to run."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from app.core import migrations
from app.core.config import settings


@pytest.fixture
def fresh_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db_file = tmp_path / "data" / "app.db"
    monkeypatch.setattr(settings, "database_url", f"sqlite:///{db_file}")
    return db_file


def test_dev_applies_missing_migrations_and_points_at_the_seed(
    fresh_sqlite: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(settings, "app_env", "dev")
    with caplog.at_level(logging.WARNING, logger="app.core.migrations"):
        migrations.check_schema_at_startup()
    with sqlite3.connect(fresh_sqlite) as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert revision == migrations.head_revision()
    assert "applying the migrations" in caplog.text
    assert "python -m app.cli seed-demo" in caplog.text

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="app.core.migrations"):
        migrations.check_schema_at_startup()  # at head: silent
    assert caplog.text == ""


@pytest.mark.parametrize("env", ["test", "prod"])
def test_outside_dev_a_stale_schema_is_reported_not_changed(
    env: str, fresh_sqlite: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(settings, "app_env", env)
    with caplog.at_level(logging.WARNING, logger="app.core.migrations"):
        migrations.check_schema_at_startup()
    assert "is at revision (empty)" in caplog.text
    assert "run `python -m app.cli migrate`" in caplog.text
    assert not fresh_sqlite.exists()


def test_an_unreachable_database_is_logged_not_fatal(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(settings, "database_url", "postgresql+psycopg://nobody@127.0.0.1:9/none")
    with caplog.at_level(logging.WARNING, logger="app.core.migrations"):
        migrations.check_schema_at_startup()
    assert "Could not check the database schema" in caplog.text

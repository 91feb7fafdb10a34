"""The UI tier's database: the handlers under test commit (they open sessions of their own), so their rows live in a
database of this tier's own, never in the one the API and service tests count rows in."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

import app.core.db as app_db
from app.core.db import make_engine
from tests.conftest import TEST_DB_NAME, fresh_database

TEST_UI_DB_NAME = os.environ.get("TEST_UI_DB_NAME", f"{TEST_DB_NAME}_ui")


@pytest.fixture(scope="session")
def engine() -> Iterator[Engine]:
    """The UI tier's database, created fresh and migrated to head (overrides the suite's `engine` in this tier)."""
    eng = make_engine(fresh_database(TEST_UI_DB_NAME))
    yield eng
    eng.dispose()


@pytest.fixture(autouse=True)
def _handlers_use_the_ui_database(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the handlers open (app.core.db.session_scope) reaches this tier's database during its tests only."""
    monkeypatch.setattr(app_db, "get_engine", lambda: engine)


@pytest.fixture
def db(engine: Engine) -> Iterator[Session]:
    """A session on the tier's database whose commits stay: what the handlers read must be committed."""
    with Session(engine, expire_on_commit=False) as s:
        yield s

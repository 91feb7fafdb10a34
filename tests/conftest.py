"""Test harness: a PostgreSQL database of the tests' own, migrated once; each test runs in a rolled-back transaction.

Tiers whose tests commit have a database of their own, so no tier sees another's rows and the order the tests run in
does not matter: tests/ui (TEST_UI_DB_NAME, tests/ui/conftest.py) and tests/e2e (TEST_E2E_DB_NAME, the server's)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

# Settings are read at import time: point them at the test environment before anything imports app.
os.environ["APP_ENV"] = "test"
TEST_DB_NAME = os.environ.get("TEST_DB_NAME", "app_test")
PG_ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
TEST_DATABASE_URL = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{TEST_DB_NAME}"
os.environ["DATABASE_URL"] = TEST_DATABASE_URL
os.environ.setdefault("DATA_DIR", f"/tmp/app-test-data-{uuid.uuid4().hex[:8]}")

from sqlalchemy import text  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402
from sqlmodel import Session  # noqa: E402

from app.core.db import make_engine  # noqa: E402
from tests.migrations import migrate  # noqa: E402
from tests.stripe_standin import standin  # noqa: E402, F401 (the Stripe stand-in fixture, for every tier)


def fresh_database(name: str) -> str:
    """The database `name` on the test server, dropped if it was there, created empty and migrated to head: its URL."""
    admin = make_engine(PG_ADMIN_URL).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    migrate(url, "head")
    return url


@pytest.fixture(scope="session")
def engine() -> Iterator[Engine]:
    """The test database, created fresh and migrated to head by the project's own migrations."""
    eng = make_engine(fresh_database(TEST_DB_NAME))
    # Services and the API reach the database through app.core.db.get_engine(); make it this one.
    import app.core.db as db

    db.get_engine.cache_clear()
    yield eng
    eng.dispose()


@contextmanager
def rolled_back(engine: Engine) -> Iterator[Session]:
    """A session whose commits are savepoints inside one outer transaction that is rolled back afterwards."""
    conn = engine.connect()
    outer = conn.begin()
    s = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        yield s
    finally:
        s.close()
        outer.rollback()
        conn.close()


@pytest.fixture(autouse=True)
def _company_copy_forgotten() -> Iterator[None]:
    """Each test starts from the stored company details: a copy kept by a test whose writes were rolled back must not
    outlive it (app.services.platform.company keeps one per process)."""
    from app.services.platform import company

    company.forget()
    yield
    company.forget()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    with rolled_back(engine) as s:
        yield s

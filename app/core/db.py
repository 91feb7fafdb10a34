"""The one database engine and session factory, shared by Reflex handlers, the API, the CLI and tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from app.core.config import settings


def make_engine(url: str) -> Engine:
    """Create an engine; SQLite gets foreign keys and WAL so it behaves like the production database."""
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.close()

    return engine


@lru_cache(maxsize=1)
def get_engine() -> Engine:
    if settings.is_sqlite:
        # The SQLite file lives under data/; create the folder on first use.
        path = settings.database_url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            from pathlib import Path

            Path(path).parent.mkdir(parents=True, exist_ok=True)
    return make_engine(settings.database_url)


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session for one unit of work; services commit, this rolls back whatever they did not."""
    with Session(get_engine(), expire_on_commit=False) as session:
        yield session


def get_session() -> Iterator[Session]:
    """FastAPI dependency (tests override it with a rolled-back session)."""
    with session_scope() as session:
        yield session

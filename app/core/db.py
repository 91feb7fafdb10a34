"""The one database engine and session factory, shared by Reflex handlers, the API, the CLI and tests."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import weakref
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import event
from sqlalchemy.engine import Engine, ExceptionContext
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlmodel import Session, SQLModel, create_engine

from app.core.config import settings
from app.core.errors import DomainError, Invalid
from app.core.text import INVALID_CHARACTER, INVALID_TEXT, unstorable_paths

log = logging.getLogger(__name__)

# Integer primary keys are INTEGER columns: no row has an id outside 1..MAX_ID, and PostgreSQL refuses to even compare
# one with a larger number ("integer out of range"), so look-ups must not send it.
MAX_ID = 2**31 - 1

T = TypeVar("T", bound=SQLModel)


def valid_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


def get_by_id(s: Session, model: type[T], row_id: object) -> T | None:
    """The row with this integer primary key, or None, also for an id no row can have (out of range, not an int)."""
    return s.get(model, row_id) if valid_id(row_id) else None


def _unstorable_parameter(parameters: Any, names: Sequence[str] | None) -> str | None:
    """The name of the first parameter holding text no database can store, or None."""
    if isinstance(parameters, dict):
        items: Iterable[tuple[str, Any]] = parameters.items()
    elif isinstance(parameters, list | tuple):
        items = ((names[i] if names and i < len(names) else "value", p) for i, p in enumerate(parameters))
    else:
        return None
    for name, value in items:
        # psycopg hands JSON columns over wrapped (Json(obj)); look inside.
        value = getattr(value, "obj", value)
        if unstorable_paths(value):
            return re.sub(r"_+\d+$", "", name)  # email_1 -> email: bound names carry a counter
    return None


def _refuse_unstorable_text(
    _conn: Any, _cursor: Any, _statement: str, parameters: Any, context: Any, executemany: bool
) -> None:
    # The last line of defence for every caller (API, Reflex handlers, CLI, jobs): PostgreSQL refuses NUL in text
    # and neither database can store a lone surrogate, and either would surface as a database error (a 500).
    compiled = getattr(context, "compiled", None)
    names = getattr(compiled, "positiontup", None)
    for params in parameters if executemany else [parameters]:
        if (field := _unstorable_parameter(params, names)) is not None:
            raise Invalid(INVALID_TEXT, errors={field: INVALID_CHARACTER})


def _checked_json(value: Any) -> str:
    """JSON columns' serializer: SQLite stores what it returns, escapes included, so refuse bad text before."""
    if unstorable_paths(value):
        raise Invalid(INVALID_TEXT)
    return json.dumps(value)


# PostgreSQL's answers to a value larger than its column (SQLite does not check); the services should have refused it.
TOO_LARGE = {
    "22001": "Some text is longer than its field allows. Please shorten it and try again.",
    "22003": "A number is larger than its field allows. Please check the values and try again.",
}


def _as_domain_errors(context: ExceptionContext) -> BaseException | None:
    original = context.original_exception
    # A domain error raised while SQLAlchemy binds parameters (the JSON serializer) would reach the caller wrapped in
    # a StatementError; hand the caller the domain error itself.
    if isinstance(original, DomainError) and context.sqlalchemy_exception is not None:
        return type(original)(original.message, original.errors, **original.extra)
    # An input too large for its column is the caller's mistake (a 422), not a server failure; the warning says which
    # validation is missing. The database names no column, so the error names no field.
    if (message := TOO_LARGE.get(getattr(original, "sqlstate", None) or "")) is not None:
        log.warning("Database refused a value as too large (%s); a service misses a length or range check", original)
        return Invalid(message)
    return None


# A request waits at most this long for a pooled connection before it is answered 503 (the pool is exhausted by a
# database that stopped answering, not by load: queries take milliseconds).
POOL_TIMEOUT_S = 10
# When the database is down or the network to it is gone, a request must fail fast (503), never hang: connecting
# gives up after 5 s, and a connection whose packets go unacknowledged for 15 s (a silent network, where no reset
# ever arrives) or whose idle peer stops answering keepalives is dropped by the kernel, so its query fails.
POSTGRES_CONNECT_ARGS = {
    "connect_timeout": 5,
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 15_000,
}


def sqlite_local_time(stored: str | None, zone: str) -> str | None:
    """A stored moment (SQLite's text of a UTC datetime) as the wall-clock time in `zone`, as SQLite writes times."""
    if stored is None:
        return None
    moment = datetime.fromisoformat(str(stored))
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S")


def make_engine(url: str) -> Engine:
    """Create an engine; SQLite gets foreign keys and WAL so it behaves like the production database."""
    kwargs: dict[str, Any] = {"pool_pre_ping": True, "json_serializer": _checked_json}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    elif url.startswith("postgresql"):
        kwargs["connect_args"] = POSTGRES_CONNECT_ARGS
        kwargs["pool_timeout"] = POOL_TIMEOUT_S  # a queue pool's setting (SQLite in memory has none)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "before_cursor_execute", _refuse_unstorable_text)
    event.listen(engine, "handle_error", _as_domain_errors)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.close()
            # SQLite has no time zone database: `local_time(moment, 'America/New_York')` is PostgreSQL's
            # timezone(zone, moment), so figures grouped by local day agree on both databases.
            dbapi_conn.create_function("local_time", 2, sqlite_local_time, deterministic=True)

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


async def get_session() -> AsyncIterator[Session]:
    """FastAPI dependency (tests override it with a rolled-back session): a session, once a connection is free.

    The routes are sync, so FastAPI runs each on a worker thread, and after the route it needs a thread again to
    serialize the answer before this cleanup closes the session. With more requests than pooled connections, every
    thread ended up waiting for a connection that only a thread could give back, and the server answered nothing
    until the pool timed out (tools/bench/bench_server.py: 0 requests/s at 64 connections). So a request waits here, on
    the event loop and without a thread, until one of the pool's connections is free for it; a route that starts
    always finds its connection, and the threads keep moving. The session is closed on asyncio's own executor,
    which the routes' thread pool cannot exhaust.
    """
    engine = get_engine()
    slots = _connection_slots(engine)
    if slots is not None:
        try:
            await asyncio.wait_for(slots.acquire(), POOL_TIMEOUT_S)
        except TimeoutError as exc:  # answered 503 like the pool's own timeout
            raise PoolTimeoutError("no database connection became free in time") from exc
    session = Session(engine, expire_on_commit=False)
    try:
        yield session
    finally:
        # Closing hands the connection back with a rollback: network I/O, so not on the event loop (a database
        # that stopped answering would hold every request). asyncio's own executor, not the routes' thread pool.
        await asyncio.to_thread(session.close)
        if slots is not None:
            slots.release()


# Per event loop (the server has one; tests make several) and engine: as many as the engine's pool can hand out.
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Semaphore]] = weakref.WeakKeyDictionary()


def _connection_slots(engine: Engine) -> asyncio.Semaphore | None:
    pool = engine.pool
    size, overflow = getattr(pool, "size", None), getattr(pool, "_max_overflow", None)
    if not callable(size) or not isinstance(overflow, int) or overflow < 0:
        return None  # a pool without a fixed limit (SQLite in memory) needs no slots
    per_engine = _slots.setdefault(asyncio.get_running_loop(), {})
    if id(engine) not in per_engine:
        per_engine[id(engine)] = asyncio.Semaphore(size() + overflow)
    return per_engine[id(engine)]

"""When the database is down, restarting or out of connections, the API answers a clear 503 at once, never a 500
and never a hang; the next request after it is back succeeds on the same server (the pool reconnects).

The whole outage (a restart, 30 s unreachable, under load) is driven by `tools/reliability/faults.py`; this is the
rule."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.api import DATABASE_UNAVAILABLE, create_api
from app.api.middleware import BodySizeLimit, SecurityHeaders
from app.core.db import POSTGRES_CONNECT_ARGS, get_session, make_engine
from tests.conftest import TEST_DATABASE_URL


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _client(engine_url: str) -> Iterator[TestClient]:
    engine = make_engine(engine_url)
    api = create_api()

    def session() -> Iterator[Session]:
        with Session(engine) as s:
            yield s

    api.dependency_overrides[get_session] = session
    with TestClient(SecurityHeaders(BodySizeLimit(api)), raise_server_exceptions=False) as c:
        yield c
    engine.dispose()


@pytest.fixture
def down() -> Iterator[TestClient]:
    yield from _client(f"postgresql+psycopg://postgres@127.0.0.1:{_dead_port()}/nothing")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/contact", {"name": "Ann", "email": "ann@example.com", "message": "Hello there"}),
        ("GET", "/api/jobs", None),
        ("POST", "/api/auth/login", {"identifier": "ann", "password": "whatever-1A"}),
        ("GET", "/api/products", None),
    ],
)
def test_a_database_that_refuses_connections_is_a_fast_503(
    down: TestClient, method: str, path: str, body: dict[str, str] | None
) -> None:
    started = time.monotonic()
    r = down.request(method, path, json=body)
    assert r.status_code == 503, r.text
    assert r.json() == {"message": DATABASE_UNAVAILABLE, "errors": {}}
    assert r.headers["retry-after"] == "30"
    assert time.monotonic() - started < 5


def test_the_pool_reconnects_after_an_outage(engine: Engine) -> None:
    """Connections broken under the pool (the server restarted) are replaced on the next checkout."""
    pooled = make_engine(TEST_DATABASE_URL)
    with pooled.connect() as conn:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    admin = create_engine(TEST_DATABASE_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:  # what a restart does to every open connection
        conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    admin.dispose()
    with pooled.connect() as conn:
        assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
    pooled.dispose()


def test_postgres_connections_give_up_instead_of_hanging(engine: Engine) -> None:
    """The settings a silent network needs (no reset ever arrives): connect, keepalive and unacknowledged-data
    limits; libpq accepts each of them (an unknown one would fail every connection)."""
    assert POSTGRES_CONNECT_ARGS["connect_timeout"] <= 5
    assert int(POSTGRES_CONNECT_ARGS["tcp_user_timeout"]) <= 15_000
    pooled = make_engine(TEST_DATABASE_URL)
    with pooled.connect() as conn:
        params = conn.connection.dbapi_connection.info.get_parameters()  # type: ignore[union-attr]
        assert params["tcp_user_timeout"] == "15000" and params["keepalives"] == "1"
    pooled.dispose()

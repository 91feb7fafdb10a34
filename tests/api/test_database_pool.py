"""Many concurrent requests on a small connection pool: every one is answered, none waits on a deadlock.

FastAPI runs sync routes and a sync dependency's cleanup on worker threads. When the session dependency was sync, a
finished request kept its pooled connection until a worker thread was free to close its session; with more requests
than connections every thread ended up waiting for a connection that only a thread could give back, and the server
answered nothing until the pool timed out (tools/bench/bench_server.py: 0 requests/s at 64 connections).
"""

from __future__ import annotations

import asyncio
import time

import anyio.to_thread
import httpx
import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

from app.api import create_api
from app.core import db
from tests.conftest import TEST_DATABASE_URL


def test_sixty_four_concurrent_requests_on_two_connections_are_all_answered(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = create_engine(TEST_DATABASE_URL, pool_size=2, max_overflow=0, pool_timeout=5)
    monkeypatch.setattr(db, "get_engine", lambda: small)
    api = create_api()

    async def run() -> list[int]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = 8  # fewer threads than requests
        transport = httpx.ASGITransport(app=api)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            answers = await asyncio.gather(*(client.get("/api/jobs") for _ in range(64)))
        return [r.status_code for r in answers]

    started = time.monotonic()
    try:
        statuses = asyncio.run(run())
    finally:
        small.dispose()
    assert statuses == [200] * 64
    assert time.monotonic() - started < 5  # no request waited out the pool's timeout

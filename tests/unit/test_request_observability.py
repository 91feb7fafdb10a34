"""The outermost middleware on a websocket: the handshake gets a request id in its headers (which Reflex keeps for
the tab's events), and the open connection is counted while it lasts. And the job lag the background loop leaves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.api.middleware import RequestObservability
from app.core import logs, metrics
from app.core.config import settings


def test_a_websocket_handshake_gets_an_id_and_is_counted_while_open(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    open_during: list[float] = []

    async def socket_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["headers"] = dict(scope["headers"])
        seen["logged_id"] = logs.request_id.get()
        await send({"type": "websocket.accept"})
        open_during.append(metrics.websocket_connections._value.get())

    async def send(message: dict[str, Any]) -> None:
        pass

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    def handshake(headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
        return {"type": "websocket", "path": "/_event/", "headers": headers}

    before = metrics.websocket_connections._value.get()
    middleware = RequestObservability(socket_app)
    asyncio.run(middleware(handshake([(b"x-request-id", b"client-chosen-id-0001")]), receive, send))
    rid = seen["headers"][b"x-request-id"].decode()
    assert rid != "client-chosen-id-0001"  # no trusted proxy: the client's header is replaced
    assert rid == seen["logged_id"]
    assert open_during == [before + 1]
    assert metrics.websocket_connections._value.get() == before  # closed: counted down

    monkeypatch.setattr(settings, "trusted_proxy_hops", 1)
    asyncio.run(middleware(handshake([(b"x-request-id", b"nginx-request-id-0002")]), receive, send))
    assert seen["headers"][b"x-request-id"] == b"nginx-request-id-0002"


def test_job_lag_grows_while_no_pass_finishes() -> None:
    metrics.job_pass_done(started=1000.0, finished=1001.0)
    assert metrics.refresh_job_lag(now=1001.0 + metrics._interval_s) == 0  # on time
    assert metrics.refresh_job_lag(now=1001.0 + metrics._interval_s + 90) == 90
    assert b"app_jobs_lag_seconds 90.0" in metrics.generate_latest(metrics.registry)

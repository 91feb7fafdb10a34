"""Websocket events in the logs and the metrics: each event's lines carry its tab's request id, and its processing
time is measured (ADR 0095).

The ASGI middleware (app.api.middleware.RequestObservability) writes the request id into the websocket handshake's
headers; Reflex keeps those headers with the connection and hands them to every event of that tab in its router
data. Reflex runs each event in an asyncio task of its own and calls the app's middleware in that task, under the
state lock, just before the handler: what is set here holds for the handler, the services it calls (threads started
with `asyncio.to_thread` copy it) and nothing else - the next event's task starts from a clean context.

Reflex 0.10 never calls a middleware's `postprocess`, so the time is taken when the event's task ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import reflex as rx
from reflex_base.event.context import EventContext

from app.core import logs, metrics

log = logging.getLogger(__name__)


def handshake_request_id(router_data: dict[str, Any] | None) -> str | None:
    """The request id of the handshake that opened this tab's websocket, from an event's router data."""
    headers = (router_data or {}).get("headers") or {}
    value = headers.get("x-request-id") if isinstance(headers, dict) else None
    return value if isinstance(value, str) and value else None


class EventObservability(rx.Middleware):
    async def preprocess(self, app: Any, state: Any, event: Any) -> None:
        try:
            router_data = EventContext.get().router_data
        except LookupError:  # not inside Reflex's event processor
            router_data = None
        rid = handshake_request_id(router_data) or handshake_request_id(getattr(state, "router_data", None))
        logs.request_id.set(rid)
        logs.route.set(event.name)
        task = asyncio.current_task()
        if task is not None:
            started = time.perf_counter()
            # The handler name is a label of bounded cardinality: Reflex refuses an event whose name is not one of
            # the app's handlers before it reaches this point.
            histogram = metrics.event_duration.labels(handler=event.name)
            # The callback runs in a copy of this task's context: its line carries the tab's id too.
            task.add_done_callback(lambda _: _done(event.name, histogram, time.perf_counter() - started))
        return None


def _done(name: str, histogram: Any, elapsed: float) -> None:
    histogram.observe(elapsed)
    # DEBUG: one line per event is too many for production, and what LOG_LEVEL=DEBUG is for when following a tab.
    log.debug("event %s done in %.1f ms", name, elapsed * 1000, extra={"duration_ms": round(elapsed * 1000, 1)})

"""The server's log lines: readable text for a person at a terminal, or one JSON object per line for a log collector
(`LOG_FORMAT=json`), each carrying the request it belongs to.

A request id is set per HTTP request and per websocket connection by the ASGI middleware (app.api.middleware), and
for each websocket event by the Reflex middleware (app.ui.observability) from the id of its tab's handshake, so every
line a request or an event causes - a service's warning, a handler's error, the access line - can be found by one id.
The ids live in context variables: asyncio tasks and `asyncio.to_thread` copy them, so lines from worker threads carry
them too, and one request's id never reaches another's lines.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Literal

# The request (or websocket connection) a line belongs to, and its route: an HTTP route's template
# ("/api/admin/clients/{client_id}") or a websocket event's handler name.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
route: ContextVar[str | None] = ContextVar("route", default=None)

# What an incoming X-Request-ID may be to be kept: what proxies generate (nginx's $request_id is 32 hex digits,
# others send UUIDs). Anything else - long, or with spaces, quotes or line breaks that could forge or break a log
# line - is replaced by an id of our own.
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{8,64}")

# A record's own attributes; anything else on a record came from `extra=` and is written as a field of its own.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}
_CONTEXT_FIELDS = ("request_id", "route")


def new_request_id() -> str:
    return uuid.uuid4().hex


def accepted_request_id(incoming: str | None) -> str:
    """The id for a request: `incoming` (the proxy's X-Request-ID) when it looks like an id, else a new one."""
    if incoming and _SANE_ID.fullmatch(incoming):
        return incoming
    return new_request_id()


class RequestContext(logging.Filter):
    """Puts the current request id and route on every record (None outside a request: a background job's line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id.get()
        if getattr(record, "route", None) is None:
            record.route = route.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, request_id, route, the `extra=` fields
    a line was logged with (the access line's status and duration_ms), and the exception with its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in _CONTEXT_FIELDS:
            line[name] = getattr(record, name, None)
        for name, value in vars(record).items():
            if name not in _STANDARD and name not in line:
                line[name] = value
        if record.exc_info and record.exc_info[0] is not None:
            line["exception"] = {
                "type": record.exc_info[0].__name__,
                "value": str(record.exc_info[1]),
                "traceback": self.formatException(record.exc_info),
            }
        elif record.exc_text:
            line["exception"] = {"traceback": record.exc_text}
        if record.stack_info:
            line["stack"] = record.stack_info
        # default=str: an `extra=` value that is not JSON (a UUID, a date) is written as text, never lost.
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """The readable line: time, level, logger, message, then the request id and route when there is one."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        rid = getattr(record, "request_id", None)
        if rid is None:
            return text
        where = getattr(record, "route", None)
        first, _, rest = text.partition("\n")  # after the message, before a traceback
        tail = f" [{rid}{' ' + where if where else ''}]"
        return first + tail + (("\n" + rest) if rest else "")


# Marks the handler this module installed, so configuring again replaces it instead of adding a second one.
_OURS = "app.core.logs"


def configure_logging(fmt: Literal["text", "json"] = "text", level: str = "INFO") -> logging.Handler:
    """Send the root logger's records (every `app.*` logger) to stderr in `fmt`, at `level` and above.

    Idempotent: Reflex may import the app more than once in a process. Reflex's and granian's own loggers keep their
    own handlers (REFLEX_LOG_JSON turns theirs to JSON).
    """
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _OURS]:
        root.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr)
    handler.set_name(_OURS)
    handler.addFilter(RequestContext())
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler

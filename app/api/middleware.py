"""ASGI middleware wrapped around the whole site (pages, websocket, API): request ids, latency and access lines,
security headers and a body size cap."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core import logs, metrics
from app.core.config import settings

access_log = logging.getLogger("app.access")

# React Router's hydration needs inline scripts and styles, so script-src allows inline code; it refuses eval, so no
# text can become code in the browser (handlers never send scripts: tests/unit/test_no_eval.py). Everything else is
# same-origin only. See docs/adr/0019-security-headers-and-a-csp-that-refuses-eval.md for why.
CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "object-src 'none'",
    ]
)


def _security_headers() -> list[tuple[bytes, bytes]]:
    headers = {
        "content-security-policy": CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-frame-options": "DENY",
        "permissions-policy": "camera=(), microphone=(), geolocation=()",
    }
    if settings.app_env == "prod":
        headers["strict-transport-security"] = "max-age=31536000; includeSubDomains"
    return [(k.encode(), v.encode()) for k, v in headers.items()]


# The build names every script, style sheet and font under /assets/ by a hash of its content: a new build gets new
# names, so a browser may keep these for a year without asking again.
IMMUTABLE = b"public, max-age=31536000, immutable"


def _cache_control(path: str) -> bytes:
    """How long an answer to `path` may be kept (a route that knows better sets its own header)."""
    if path.startswith("/api/"):
        # API answers are personal (a client's invoices, a session's user) or change at any moment: no browser or
        # proxy may keep them.
        return b"no-store"
    if path.startswith("/assets/"):
        return IMMUTABLE
    # Pages and unhashed files: kept, but checked with the server (ETag) before each use, so a deploy shows at once.
    return b"no-cache"


class SecurityHeaders:
    """Adds the security headers and a cache policy to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = _security_headers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        cache = _cache_control(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                if b"cache-control" not in present and message.get("status", 200) < 400:
                    extra.append((b"cache-control", cache))
                elif b"cache-control" not in present:
                    extra.append((b"cache-control", b"no-store"))  # an error page is never kept
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


_MESSAGE_POST = re.compile(r"/api/projects/\d+/messages")


class BodySizeLimit:
    """Refuses request bodies over the upload cap with 413, before the app reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes or (settings.max_upload_mb * 2 + 1) * 1024 * 1024
        # A project message carries up to three files of MAX_UPLOAD_MB each (ADR 0101): its route alone takes more.
        self.message_bytes = max(self.max_bytes, (settings.max_upload_mb * 3 + 1) * 1024 * 1024)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.message_bytes if _MESSAGE_POST.fullmatch(scope.get("path", "")) else self.max_bytes
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _reject(send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited_receive, send)
        except _TooLarge:
            await _reject(send)


class _TooLarge(Exception):
    pass


async def _reject(send: Send) -> None:
    body: Any = json.dumps({"message": "Request body too large", "errors": {}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


REQUEST_ID_HEADER = b"x-request-id"


def route_label(scope: Scope) -> str:
    """The route a request matched, as its template ("/api/admin/clients/{client_id}"), never the raw path: ids and
    tokens in paths would make a series per value in Prometheus and put secrets in the logs."""
    route = scope.get("route")
    template = getattr(route, "path_format", None)
    if not isinstance(template, str):
        return "unmatched"
    if isinstance(route, Mount) or ":path}" in getattr(route, "path", ""):
        return template or "/"  # a mount ("/_event/{path}") or a catch-all: the template is the whole path
    # A route of an included router knows its path without the router's prefix ("/health" under "/api"); the
    # prefix is the requested path's leading segments, which are fixed text, never a parameter.
    asked = scope["path"].strip("/").split("/")
    own = template.strip("/").split("/")
    if len(asked) < len(own):
        return template
    return "/" + "/".join(asked[: len(asked) - len(own)] + own)


class RequestObservability:
    """The outermost layer: gives each HTTP request and websocket connection its request id, measures and logs it.

    The id is the proxy's X-Request-ID when the app sits behind trusted proxies (TRUSTED_PROXY_HOPS, the same trust
    as X-Forwarded-For) and the value looks like an id, else a new one. It is echoed in the answer's X-Request-ID,
    set for every log line of the request (app.core.logs), and written into the request's own headers, so that a
    websocket handshake's id is what Reflex keeps with the tab's connection and every event of that tab logs it
    (app.ui.observability).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != REQUEST_ID_HEADER]
        incoming = dict(scope.get("headers", [])).get(REQUEST_ID_HEADER) if settings.trusted_proxy_hops else None
        rid = logs.accepted_request_id(incoming.decode("latin-1") if incoming else None)
        scope = {**scope, "headers": [*headers, (REQUEST_ID_HEADER, rid.encode())]}
        id_token = logs.request_id.set(rid)
        route_token = logs.route.set(None)
        try:
            if scope["type"] == "http":
                await self._http(scope, receive, send, rid)
            else:
                await self._websocket(scope, receive, send)
        finally:
            logs.route.reset(route_token)
            logs.request_id.reset(id_token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        status = 500  # an error before the answer started is answered 500 by the server
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                present = {k.lower() for k, _ in message.get("headers", [])}
                if REQUEST_ID_HEADER not in present:
                    message["headers"] = [*message.get("headers", []), (REQUEST_ID_HEADER, rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            route = route_label(scope)
            logs.route.set(route)
            metrics.http_request_duration.labels(
                route=route, method=scope["method"], status=metrics.status_class(status)
            ).observe(elapsed)
            # The route's template, not the path: paths carry ids and tokens (manage links). nginx's access log
            # has the client's address and the path for whoever needs them.
            access_log.info(
                "%s %s %s %.1f ms",
                scope["method"],
                route,
                status,
                elapsed * 1000,
                extra={"method": scope["method"], "status": status, "duration_ms": round(elapsed * 1000, 1)},
            )

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        accepted = False
        started = time.perf_counter()

        async def send_counting(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                metrics.websocket_connections.inc()
            await send(message)

        try:
            await self.app(scope, receive, send_counting)
        finally:
            if accepted:
                metrics.websocket_connections.dec()
                elapsed = time.perf_counter() - started
                logs.route.set(route_label(scope))
                access_log.info(
                    "websocket closed after %.0f s", elapsed, extra={"duration_ms": round(elapsed * 1000, 1)}
                )

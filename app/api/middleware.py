"""ASGI middleware wrapped around the whole site (pages, websocket, API): security headers and a body size cap."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import settings

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


class BodySizeLimit:
    """Refuses request bodies over the upload cap with 413, before the app reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes or (settings.max_upload_mb * 2 + 1) * 1024 * 1024

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await _reject(send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
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

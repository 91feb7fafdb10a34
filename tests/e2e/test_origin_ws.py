"""The served app refuses the websocket to pages of other origins: a foreign site could otherwise open the event
channel with the visitor's cookies (sent with the handshake) and drive their session. Socket.IO checks the handshake's
Origin against rxconfig's `cors_allowed_origins` (settings.allowed_origins). Checked on the real single-port server
with the websocket upgrade request a browser sends (the app takes no other transport)."""

from __future__ import annotations

import base64
import os
import socket
from urllib.parse import urlsplit

import pytest

from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e


def _upgrade(server: Server, origin: str) -> str:
    """The server's status line for a websocket upgrade of the event channel from a page at `origin`."""
    url = urlsplit(server.url)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        "GET /_event/?EIO=4&transport=websocket HTTP/1.1\r\n"
        f"Host: {url.netloc}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin}\r\n\r\n"
    )
    with socket.create_connection((url.hostname, url.port), timeout=10) as conn:
        conn.sendall(request.encode())
        return conn.recv(4096).decode("latin-1").split("\r\n", 1)[0]


def test_the_event_channel_opens_only_for_the_sites_own_origin(server: Server) -> None:
    assert _upgrade(server, server.url).startswith("HTTP/1.1 101")  # the same request works from the site itself
    for origin in ("https://evil.example", "null", server.url.replace("127.0.0.1", "127.0.0.1.evil.example")):
        status = _upgrade(server, origin)
        assert not status.startswith("HTTP/1.1 101"), (origin, status)

"""The real server, started like `make run`, serves the home page and the 404 page to a real browser."""

from __future__ import annotations

import base64
import os
import re
import socket
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e


def test_home_page_renders_with_header_and_footer(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_role("banner")).to_be_visible()
    # The page footer landmark (testimonial cards have <footer> elements of their own once they load).
    expect(page.get_by_role("contentinfo")).to_contain_text("All rights reserved")
    expect(page.get_by_role("link", name="Get Started Today")).to_have_attribute("href", "/contact")
    # The websocket connected (no CSP or origin violation) when there are no console errors.
    page.wait_for_timeout(500)
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_missing_page_shows_not_found_and_go_home_works(server: Server, page: Page) -> None:
    page.goto(server.url + "/no-such-page/at-all")
    expect(page.get_by_role("heading", name="Page Not Found")).to_be_visible()
    expect(page.get_by_role("button", name="Go Back").or_(page.get_by_role("link", name="Go Back"))).to_be_visible()
    page.get_by_role("link", name="Go Home").first.click()
    page.wait_for_url(server.url + "/")


def test_served_responses_carry_security_headers_and_api_is_mounted(server: Server) -> None:
    home = httpx.get(server.url + "/")
    assert "frame-ancestors 'none'" in home.headers["content-security-policy"]
    assert home.headers["x-content-type-options"] == "nosniff"
    assert httpx.get(server.url + "/api/health").json() == {"status": "ok"}
    missing = httpx.get(server.url + "/api/nothing-here")
    assert missing.status_code == 404 and missing.json()["message"] == "Not found"


def test_cross_origin_requests_are_not_allowed(server: Server) -> None:
    r = httpx.options(
        server.url + "/api/health",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"},
    )
    assert r.headers.get("access-control-allow-origin") != "https://evil.example"
    ok = httpx.get(server.url + "/api/health", headers={"Origin": server.url})
    assert ok.headers.get("access-control-allow-origin") == server.url


def _upgrade_status(url: str, origin: str) -> int:
    """The status line of a websocket upgrade request to the event endpoint, sent with the given Origin."""
    parts = urlsplit(url)
    request = (
        f"GET /_event/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
        f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
    )
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(request.encode())
        status_line = sock.recv(4096).split(b"\r\n", 1)[0].decode()
    return int(status_line.split()[1])


def test_websocket_refuses_foreign_origins(server: Server) -> None:
    """The websocket handshake succeeds for the site's own origin and is refused for any other."""
    assert _upgrade_status(server.url, server.url) == 101
    for origin in ("https://evil.example", "null", server.url.replace("127.0.0.1", "127.0.0.1.evil.example")):
        assert _upgrade_status(server.url, origin) >= 400, origin


PAGES = [
    "/",
    "/about",
    "/services",
    "/portfolio",
    "/testimonials",
    "/careers",
    "/contact",
    "/book-meeting",
    "/terms",
    "/privacy",
    "/register",
    "/client-portal",
    "/admin/login",
    "/forgot-password",
    "/admin/forgot-password",
    "/reset-password",
    "/admin/dashboard",
    "/no-such-page",
]


def test_every_page_and_asset_carries_the_security_headers_a_cache_policy_and_no_server_version(server: Server) -> None:
    problems = []
    with httpx.Client(base_url=server.url, timeout=30) as http:
        home = http.get("/")
        assets = sorted(set(re.findall(r'(?:src|href)="(/assets/[^"]+)"', home.text)))[:5]
        assert assets, "the home page links its scripts and styles"
        for path in [*PAGES, *assets, "/api/health", "/robots.txt"]:
            r = http.get(path)
            for header, expected in {
                "content-security-policy": "frame-ancestors 'none'",
                "x-content-type-options": "nosniff",
                "x-frame-options": "DENY",
                "referrer-policy": "strict-origin-when-cross-origin",
            }.items():
                if expected not in r.headers.get(header, ""):
                    problems.append(f"{path} ({r.status_code}): {header} = {r.headers.get(header)!r}")
            if re.search(r"\d", r.headers.get("server", "")):
                problems.append(f"{path}: server header {r.headers['server']!r}")
            if r.status_code >= 500 or "Traceback" in r.text:
                problems.append(f"{path}: {r.status_code}")
        assert http.get("/api/health").headers["cache-control"] == "no-store"
        assert http.get("/about").headers["cache-control"] == "no-cache"  # revalidated: a deploy shows at once
        for encoding, expected in (("br", "br"), ("gzip", "gzip")):
            r = http.get(assets[0], headers={"accept-encoding": encoding})
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable", assets[0]
            assert r.headers.get("content-encoding") == expected, (assets[0], r.headers)
    assert problems == []

"""The Content-Security-Policy the server sends refuses eval, and nothing on the site needs it: every public page, the
portal's tabs and every admin section load under the served policy without a single violation, and the two things
that once asked the browser to evaluate a script (the booking flow's time zone, the portal's stale sign-in hint) work
without it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.core.cookies import SIGNED_IN_HINT
from app.models.user import User
from app.services.accounts import sessions
from tests.e2e.conftest import Server
from tests.e2e.test_site_shell import PAGES

pytestmark = pytest.mark.e2e

# Every violation, as the page sees it (the browser also logs it, and Reflex logs a refused eval only with console.log).
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
EVAL_TROUBLE = re.compile(r"Content Security Policy|Refused to|EvalError|^_call_script|^_call_function")
HYDRATED = re.compile(r'is_hydrated_rx_state_"\s*:\s*true')
QUIET_S = 1.0  # no websocket message for this long after hydration: the page's events have all answered
SETTLE_LIMIT_S = 30


class Watched:
    """A page whose CSP violations and eval failures are recorded, and which can wait until the server has answered
    every event of a page load: what a handler sends back is what could ask the browser for eval."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.trouble: list[str] = []
        self.hydrated = False
        self.last_message = time.monotonic()
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.trouble.append(f"{page.url}: {e}"))
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _console(self, m: ConsoleMessage) -> None:
        if EVAL_TROUBLE.search(m.text):
            self.trouble.append(f"{self.page.url}: {m.text}")

    def _frame(self, payload: str | bytes) -> None:
        self.last_message = time.monotonic()
        if isinstance(payload, str) and HYDRATED.search(payload):
            self.hydrated = True

    def go(self, path: str, server: Server) -> None:
        self.hydrated = False
        self.page.goto(server.url + path)
        self.settle()

    def settle(self) -> None:
        """Wait until the page is hydrated (its on-load events ran) and the websocket has gone quiet, then collect the
        violations the page recorded."""
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while not (self.hydrated and time.monotonic() - self.last_message > QUIET_S):
            assert time.monotonic() < deadline, f"{self.page.url} never settled"
            self.page.wait_for_timeout(100)  # lets Playwright deliver the page's events
        self.trouble.extend(f"{self.page.url}: {v}" for v in self.page.evaluate("window.__csp"))


@contextmanager
def browsing(
    browser: Browser, server: Server, engine: Engine, username: str | None = None, **options: object
) -> Iterator[Watched]:
    """A fresh context (signed in as `username`, if given) whose pages record violations."""
    context: BrowserContext = browser.new_context(**options)  # type: ignore[arg-type]
    if username:
        with Session(engine, expire_on_commit=False) as s:
            user = s.exec(select(User).where(User.username == username)).one()
            token = sessions.start(s, user).access_token
        context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        yield Watched(context.new_page())
    finally:
        context.close()


def test_the_served_policy_refuses_eval(server: Server) -> None:
    policy = httpx.get(server.url + "/").headers["content-security-policy"]
    [script_src] = [d for d in policy.split("; ") if d.startswith("script-src ")]
    assert "'unsafe-eval'" not in script_src and "'wasm-unsafe-eval'" not in script_src, policy


def test_every_page_loads_without_a_policy_violation(browser: Browser, server: Server, db_engine: Engine) -> None:
    trouble: list[str] = []
    with browsing(browser, server, db_engine) as visitor:
        for path in PAGES:
            visitor.go(path, server)
        trouble += visitor.trouble

    with browsing(browser, server, db_engine, "democlient") as client:
        client.go("/client-portal", server)
        page = client.page
        expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
        for tab in [t.strip() for t in page.get_by_role("tab").all_inner_texts()]:
            page.get_by_role("tab", name=tab).click()
            expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true")
            client.settle()
        for path in ("/profile", "/settings", "/book-meeting"):
            client.go(path, server)
        trouble += client.trouble

    with browsing(browser, server, db_engine, "admin") as admin:
        admin.go("/admin/dashboard", server)
        nav = admin.page.get_by_test_id("admin-sidebar").get_by_role("navigation")
        expect(nav.get_by_role("link", name="Dashboard")).to_be_visible()
        sections = [str(link.get_attribute("href")) for link in nav.get_by_role("link").all()]
        assert len(sections) >= 10, sections
        for href in sections:
            admin.go(href, server)
        trouble += admin.trouble

    assert trouble == []


def test_the_booking_flow_shows_times_in_the_visitors_zone(browser: Browser, server: Server, db_engine: Engine) -> None:
    """The browser's zone reaches the flow from compiled code (it was a server-sent script, evaluated)."""
    with browsing(browser, server, db_engine, timezone_id="Asia/Tokyo") as visitor:
        visitor.go("/book-meeting", server)
        page = visitor.page
        page.locator("[data-meeting-type=free-consultation]").get_by_role(
            "button", name=re.compile("^Book Meeting")
        ).click()
        expect(page.get_by_role("button", name=re.compile("^Time zone"))).to_contain_text("Tokyo (UTC+09:00)")
        page.get_by_test_id("booking-calendar").locator("button[data-day]").first.click()
        expect(page.get_by_test_id("booking-times").locator("[data-slot]").first).to_be_visible()
        visitor.settle()
    assert visitor.trouble == []


def _hint(context: BrowserContext) -> str | None:
    return next((c["value"] for c in context.cookies() if c["name"] == SIGNED_IN_HINT), None)


def test_a_sign_in_hint_without_a_session_is_forgotten_and_a_live_one_kept(
    browser: Browser, server: Server, db_engine: Engine
) -> None:
    hint = {"name": SIGNED_IN_HINT, "value": "1", "url": server.url}
    with browsing(browser, server, db_engine) as visitor:
        visitor.page.context.add_cookies([hint])  # type: ignore[list-item]
        visitor.go("/client-portal", server)
        expect(visitor.page.get_by_role("button", name="Sign In", exact=True)).to_be_visible()
        assert _hint(visitor.page.context) is None
    assert visitor.trouble == []

    with browsing(browser, server, db_engine, "democlient") as client:
        client.page.context.add_cookies([hint])  # type: ignore[list-item]
        client.go("/client-portal", server)
        expect(client.page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
        assert _hint(client.page.context) == "1"
    assert client.trouble == []

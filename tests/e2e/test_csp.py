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
from app.services import sessions
from tests.e2e.conftest import Server
from tests.e2e.test_site_shell import PAGES

pytestmark = pytest.mark.e2e

# Every violation, as the page sees it (the browser also logs it, and Reflex logs a refused eval only with console.log).
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
SETTLE_MS = 1500
EVAL_TROUBLE = re.compile(r"Content Security Policy|Refused to|EvalError|^_call_script|^_call_function")


@contextmanager
def browsing(
    browser: Browser, server: Server, engine: Engine, username: str | None = None, **options: object
) -> Iterator[tuple[Page, list[str]]]:
    """A fresh context (signed in as `username`, if given) whose pages record violations; yields the page and a list
    of what went wrong, filled by `settle`."""
    context: BrowserContext = browser.new_context(**options)  # type: ignore[arg-type]
    if username:
        with Session(engine, expire_on_commit=False) as s:
            user = s.exec(select(User).where(User.username == username)).one()
            token = sessions.start(s, user).access_token
        context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    trouble: list[str] = []

    def on_console(m: ConsoleMessage) -> None:
        if EVAL_TROUBLE.search(m.text):
            trouble.append(f"{page.url}: {m.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda e: trouble.append(f"{page.url}: {e}"))
    try:
        yield page, trouble
    finally:
        context.close()


def settle(page: Page, trouble: list[str]) -> None:
    """Give the page's on-load events time to answer over the websocket (what they send back is what could ask for
    eval), then collect the violations the page recorded."""
    page.wait_for_load_state("load")
    page.wait_for_timeout(SETTLE_MS)
    trouble.extend(f"{page.url}: {v}" for v in page.evaluate("window.__csp"))


def test_the_served_policy_refuses_eval(server: Server) -> None:
    policy = httpx.get(server.url + "/").headers["content-security-policy"]
    [script_src] = [d for d in policy.split("; ") if d.startswith("script-src ")]
    assert "'unsafe-eval'" not in script_src and "'wasm-unsafe-eval'" not in script_src, policy


def test_every_page_loads_without_a_policy_violation(browser: Browser, server: Server, db_engine: Engine) -> None:
    with browsing(browser, server, db_engine) as (page, trouble):
        for path in PAGES:
            page.goto(server.url + path)
            settle(page, trouble)

    with browsing(browser, server, db_engine, "democlient") as (page, trouble):
        page.goto(server.url + "/client-portal")
        expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
        for tab in page.get_by_role("tab").all_inner_texts():
            page.get_by_role("tab", name=tab.strip()).click()
            expect(page.get_by_role("tab", name=tab.strip())).to_have_attribute("aria-selected", "true")
            settle(page, trouble)
        for path in ("/profile", "/settings", "/book-meeting"):
            page.goto(server.url + path)
            settle(page, trouble)

    with browsing(browser, server, db_engine, "admin") as (page, trouble):
        page.goto(server.url + "/admin/dashboard")
        nav = page.get_by_test_id("admin-sidebar").get_by_role("navigation")
        expect(nav.get_by_role("link", name="Dashboard")).to_be_visible()
        sections = [link.get_attribute("href") for link in nav.get_by_role("link").all()]
        assert len(sections) >= 10, sections
        for href in sections:
            page.goto(server.url + str(href))
            settle(page, trouble)

    assert trouble == []


def test_the_booking_flow_shows_times_in_the_visitors_zone(browser: Browser, server: Server, db_engine: Engine) -> None:
    """The browser's zone reaches the flow from compiled code (it was a server-sent script, evaluated)."""
    with browsing(browser, server, db_engine, timezone_id="Asia/Tokyo") as (page, trouble):
        page.goto(server.url + "/book-meeting")
        page.wait_for_selector("[data-hydrated=true]")
        page.locator("[data-meeting-type=free-consultation]").get_by_role(
            "button", name=re.compile("^Book Meeting")
        ).click()
        expect(page.get_by_test_id("time-picker").locator("[data-slot]").first).to_be_visible()
        expect(page.get_by_label("Times shown in")).to_have_value("Asia/Tokyo")
        settle(page, trouble)
    assert trouble == []


def _hint(context: BrowserContext) -> str | None:
    return next((c["value"] for c in context.cookies() if c["name"] == SIGNED_IN_HINT), None)


def test_a_sign_in_hint_without_a_session_is_forgotten_and_a_live_one_kept(
    browser: Browser, server: Server, db_engine: Engine
) -> None:
    hint = {"name": SIGNED_IN_HINT, "value": "1", "url": server.url}
    with browsing(browser, server, db_engine) as (page, trouble):
        page.context.add_cookies([hint])  # type: ignore[list-item]
        page.goto(server.url + "/client-portal")
        expect(page.get_by_role("button", name=re.compile("Sign In|Log In", re.I)).first).to_be_visible()
        # Polled from here: page.wait_for_function evaluates its text in the page, which the policy refuses.
        deadline = time.monotonic() + 15
        while _hint(page.context) is not None and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert _hint(page.context) is None
        settle(page, trouble)
    assert trouble == []

    with browsing(browser, server, db_engine, "democlient") as (page, trouble):
        page.context.add_cookies([hint])  # type: ignore[list-item]
        page.goto(server.url + "/client-portal")
        expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
        settle(page, trouble)
        assert _hint(page.context) == "1"
    assert trouble == []

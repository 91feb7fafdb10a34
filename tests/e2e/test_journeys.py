"""Issue 12's journeys in a real browser: staff send links instead of passwords, clients are sent to their own sign-in,
the portal signs out when idle or when the server ended the session, and spam can be rescued.

Each test makes its own users (through the services, on the server's database).
"""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.models.user import User
from app.services.accounts import sessions
from app.services.accounts.users import create_user
from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e

PASSWORD = "Journey-pass-1"
CHOSEN = "Chosen-by-owner-7"
DESKTOP = {"width": 1280, "height": 800}


def _make(engine: Engine, *, role: str = "client", employee_type: str | None = None, prefix: str = "j") -> User:
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with Session(engine, expire_on_commit=False) as s:
        return create_user(
            s,
            username=name,
            email=f"{name}@example.com",
            password=PASSWORD,
            role=role,
            employee_type=employee_type,
            first_name="Jo",
        )


def _context(browser: Browser, server: Server, engine: Engine, user: User | None) -> BrowserContext:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    if user is not None:
        with Session(engine, expire_on_commit=False) as s:
            token = sessions.start(s, s.get(User, user.id)).access_token  # type: ignore[arg-type]
        context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
    return context


def _mail_with(server: Server, to: str, phrase: str, timeout_s: float = 30) -> str:
    """The plain-text body of the newest message to `to` containing `phrase`, waiting for the outbox loop."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for msg in reversed(server.mail.messages):
            if msg["To"] == to:
                body = msg.get_body(preferencelist=("plain",))
                text = body.get_content() if body is not None else ""
                if phrase in text:
                    return text
        time.sleep(0.5)
    pytest.fail(f"no e-mail to {to} saying {phrase!r} within {timeout_s} s")


def _link(body: str) -> str:
    found = re.search(r"(/reset-password\?token=[A-Za-z0-9_\-]+)", body)
    assert found, body
    return found.group(1)


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-sonner-toast]").filter(has_text=text).first).to_be_visible()


def _field(page: Page, label: str) -> Locator:
    return page.get_by_label(re.compile(rf"^{re.escape(label)}( \*)?$"))


def _sign_in(page: Page, server: Server, identifier: str, password: str, path: str = "/client-portal") -> None:
    page.goto(server.url + path)
    _field(page, "Username or Email").fill(identifier)
    _field(page, "Password").fill(password)
    page.get_by_role("button", name="Sign In").click()


@pytest.fixture
def admin(db_engine: Engine) -> User:
    return _make(db_engine, role="admin", prefix="adm")


# --- point 1: staff send links, not passwords ---------------------------------------------------------------------


def test_staff_invite_a_client_who_sets_a_password_then_staff_send_a_reset_link(
    server: Server, browser: Browser, db_engine: Engine, admin: User
) -> None:
    name = f"inv_{uuid.uuid4().hex[:8]}"
    email = f"{name}@example.com"
    staff = _context(browser, server, db_engine, admin)
    page = staff.new_page()
    page.goto(server.url + "/admin/clients")
    page.get_by_role("button", name="Create Client").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("#create-password")).to_have_count(0)  # staff never choose a password
    expect(dialog.get_by_test_id("invite-note")).to_contain_text("we e-mail a link to set one")
    _shoot(page, "create-client-invite")
    dialog.locator("#create-username").fill(name)
    dialog.locator("#create-email").fill(email)
    dialog.get_by_role("button", name="Create Client").click()
    _toast(page, "Client created successfully")

    # The new client opens the invitation, sets a password and signs in with it.
    invite = _mail_with(server, email, "within 72 hours")
    visitor = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    guest = visitor.new_page()
    guest.goto(server.url + _link(invite))
    expect(guest.get_by_role("heading", name="Set your password")).to_be_visible()
    _shoot(guest, "set-your-password")
    _field(guest, "New password").fill(CHOSEN)
    _field(guest, "Confirm new password").fill(CHOSEN)
    guest.get_by_role("button", name="Set Password").click()
    expect(guest.get_by_text("Your password has been set. Please sign in with it.")).to_be_visible()
    guest.get_by_role("link", name="Sign in").click()
    guest.wait_for_url(re.compile(r"/client-portal"))
    _sign_in(guest, server, name, CHOSEN)
    expect(guest.get_by_role("button", name="Logout")).to_be_visible()

    # Later the client is locked out: staff send a reset link, which changes nothing until used.
    page.get_by_role("searchbox", name="Search clients").fill(name)
    page.get_by_role("button", name=f"Reset password of {name}").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(email)
    _shoot(page, "reset-link-dialog")
    dialog.get_by_role("button", name="Send Reset Link").click()
    _toast(page, "Reset link sent")
    reset = _mail_with(server, email, "within 24 hours")
    again = visitor.new_page()
    again.goto(server.url + _link(reset))
    expect(again.get_by_role("heading", name="Choose a new password")).to_be_visible()
    _field(again, "New password").fill(CHOSEN + "x")
    _field(again, "Confirm new password").fill(CHOSEN + "x")
    again.get_by_role("button", name="Reset Password").click()
    expect(again.get_by_text("Your password has been reset.")).to_be_visible()
    visitor.close()
    staff.close()


# --- point 2: a client at the staff sign-in is told where to go -------------------------------------------------------


def test_a_client_at_the_staff_sign_in_is_sent_to_the_client_portal(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    client = _make(db_engine)
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    _sign_in(page, server, client.username, PASSWORD, path="/admin/login")
    door = page.get_by_test_id("client-door")
    expect(door).to_contain_text("Clients sign in at the client portal")
    expect(page.get_by_text("Admin privileges required to access this panel.").first).to_be_visible()
    _shoot(page, "admin-login-client-refused")
    door.get_by_role("link", name="Go to the client sign-in").click()
    page.wait_for_url(re.compile(r"/client-portal\?identifier="))
    expect(_field(page, "Username or Email")).to_have_value(client.username)  # carried over
    _field(page, "Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("button", name="Logout")).to_be_visible()

    # Signed in as a client, the staff sign-in does not offer its form: it points back to the portal.
    page.goto(server.url + "/admin/login")
    expect(page.get_by_role("heading", name="This sign-in is for staff")).to_be_visible()
    _shoot(page, "admin-login-signed-in-client")
    expect(page.locator("#admin-login-identifier")).to_have_count(0)
    page.get_by_role("link", name="Open the client portal").click()
    page.wait_for_url(re.compile(r"/client-portal/?$"))
    expect(page.get_by_role("button", name="Logout")).to_be_visible()
    context.close()


# --- point 6: the portal watches inactivity and follows the server --------------------------------------------------


def test_the_portal_warns_before_the_client_limit_and_leaves_when_the_server_ends_the_session(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    client = _make(db_engine)
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.clock.install()
    _sign_in(page, server, client.username, PASSWORD)
    expect(page.get_by_role("button", name="Logout")).to_be_visible()
    warning = page.locator("#session-warning")
    expect(page.locator("#session-watch")).to_have_attribute("data-idle-minutes", "240")  # the client limit
    expect(warning).to_be_hidden()
    # The banner as it shows (taken before the fake clock runs: 4 fake hours time out Reflex's websocket).
    page.evaluate("document.getElementById('session-warning').hidden = false")
    _shoot(page, "portal-session-warning")
    page.evaluate("document.getElementById('session-warning').hidden = true")
    page.clock.run_for("03:55:30")  # 5 minutes before the 4-hour limit
    # The fake hours also fire the portal's timers (the unread counts' ticker: ~1,400 ticks), whose events the page
    # then works through in real time: on a busy machine that takes more than the default 5 s.
    expect(warning).to_be_visible(timeout=20_000)
    expect(warning).to_contain_text("Session Expiring Soon")
    page.mouse.click(5, 5)  # activity hides it again
    expect(warning).to_be_hidden()

    # Signed out elsewhere (or a password reset): the open page leaves within a minute and shows nothing private.
    with Session(db_engine) as s:
        sessions.revoke_all(s, client.id)
    page.clock.run_for("01:05")
    # The check, the sign-out request and the new page run in real time behind the fake clock: on a busy machine
    # they take more than the default 5 s.
    expect(page.get_by_text("Your session has ended. Please sign in again.").first).to_be_visible(timeout=20_000)
    page.wait_for_url(re.compile(r"/client-portal/?$"))
    expect(page.get_by_role("button", name="Logout")).to_have_count(0)
    expect(_field(page, "Username or Email")).to_be_visible()
    context.close()


# --- point 8: the Spam folder ---------------------------------------------------------------------------------------


def test_staff_rescue_a_message_from_spam_and_the_visitor_is_acknowledged_once(
    server: Server, browser: Browser, db_engine: Engine, admin: User
) -> None:
    from app.services.crm import contact

    email = f"caught_{uuid.uuid4().hex[:8]}@example.com"
    with Session(db_engine) as s:
        contact.submit_inquiry(
            s, data={"name": "Caught Visitor", "email": email, "message": "A real request.", "website": "x"}
        )
    context = _context(browser, server, db_engine, admin)
    page = context.new_page()
    page.goto(server.url + "/admin/inquiries")
    page.get_by_role("combobox", name="Filter by status").select_option("spam")
    page.get_by_role("searchbox", name="Search inquiries").fill(email)
    row = page.locator("tr").filter(has_text="Caught Visitor")
    expect(row).to_have_count(1)
    _shoot(page, "inquiries-spam")
    row.get_by_role("button").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_test_id("spam-notice")).to_contain_text("no acknowledgement was sent")
    _shoot(page, "inquiries-spam-detail")
    dialog.get_by_role("button", name="Not spam").click()
    _toast(page, "Moved to New")
    expect(page.locator("tr").filter(has_text="Caught Visitor")).to_have_count(0)  # gone from Spam
    page.get_by_role("combobox", name="Filter by status").select_option("new")
    expect(page.locator("tr").filter(has_text="Caught Visitor")).to_have_count(1)
    _mail_with(server, email, "Thank you for your inquiry")
    time.sleep(2)
    assert sum(1 for m in server.mail.messages if m["To"] == email) == 1

    # Point 7 on the same dashboard: a client's cancellation is listed for staff.
    from app.services.scheduling import meetings
    from tests import factories as f

    with Session(db_engine, expire_on_commit=False) as s:
        client = s.get(User, _make(db_engine).id)
        assert client is not None
        meeting = f.meeting(s, client, title="Quarterly review")
        meetings.cancel_meeting(s, actor=client, meeting_id=meeting.id, reason="Travelling that week")
    page.goto(server.url + "/admin/dashboard")
    card = page.get_by_test_id("client-cancellations")
    expect(card.locator("li").filter(has_text="Quarterly review").first).to_contain_text("Travelling that week")
    _shoot(page, "dashboard-cancellations")
    context.close()


def _shoot(page: Page, name: str) -> None:
    """Screenshots of the changed pages at both widths, for review (not assertions)."""
    import os

    folder = os.environ.get("JOURNEY_SHOTS")
    if not folder:
        return
    size = page.viewport_size or DESKTOP
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": size["height"]})
        page.wait_for_timeout(400)
        page.screenshot(path=f"{folder}/{name}-{width}.png", full_page=True)
    page.set_viewport_size(size)  # type: ignore[arg-type]

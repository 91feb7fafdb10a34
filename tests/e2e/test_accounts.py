"""Accounts in a real browser: register and verify, sign in and out, unverified accounts, password change, guards.

Each test makes its own users (through the services, on the server's database), so nothing depends on seeded data.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.db import make_engine
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts.users import create_user
from tests.e2e.conftest import Server, wait_for_mail

pytestmark = pytest.mark.e2e

PASSWORD = "Journey-pass-1"
NEW_PASSWORD = "Journey-pass-2"
INVALID_LOGIN = "Incorrect username/email or password. Please try again."
# What a page breaking the CSP looks like (Reflex logs a blocked eval with console.log, not console.error).
CSP_TROUBLE = re.compile(r"Content Security Policy|EvalError|unsafe-eval", re.IGNORECASE)


@pytest.fixture(scope="module")
def db(server: Server) -> Iterator[Engine]:
    engine = make_engine(server.database_url)
    yield engine
    engine.dispose()


@pytest.fixture(autouse=True)
def csp_clean(page: Page) -> Iterator[None]:
    """Every journey ends without CSP violations or uncaught errors in the page."""
    trouble: list[str] = []
    page.on("console", lambda m: trouble.append(m.text) if CSP_TROUBLE.search(m.text) else None)
    page.on("pageerror", lambda e: trouble.append(str(e)))
    yield
    assert trouble == []


def field(page: Page, label: str) -> Locator:
    """The input labelled `label` (required fields add a visual " *" to the label)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)}( \*)?$"))


def make_user(db: Engine, *, verified: bool = True, role: str = "client", **profile: str) -> User:
    name = f"e2e_{uuid.uuid4().hex[:10]}"
    with Session(db, expire_on_commit=False) as s:
        return create_user(
            s,
            username=name,
            email=f"{name}@example.com",
            password=PASSWORD,
            role=role,
            employee_type="developer" if role == "employee" else None,
            is_verified=verified,
            **profile,
        )


def latest_code(db: Engine, email: str) -> str:
    with Session(db) as s:
        subject = s.exec(
            select(EmailOutbox.subject).where(EmailOutbox.to_address == email).order_by(col(EmailOutbox.id).desc())
        ).first()
    assert subject, f"no e-mail to {email}"
    found = re.search(r"\b(\d{6})\b", subject)
    assert found, subject
    return found.group(1)


def sign_in(page: Page, server: Server, identifier: str, password: str, path: str = "/client-portal") -> None:
    page.goto(server.url + path)
    field(page, "Username or Email").fill(identifier)
    field(page, "Password").fill(password)
    page.get_by_role("button", name="Sign In").click()


def api_login(server: Server, identifier: str, password: str) -> int:
    r = httpx.post(f"{server.url}/api/auth/login", json={"identifier": identifier, "password": password})
    return r.status_code


def test_register_then_verify_with_the_emailed_code(server: Server, page: Page, db: Engine) -> None:
    name = f"reg_{uuid.uuid4().hex[:10]}"
    email = f"{name}@example.com"
    page.goto(server.url + "/register")
    # The page's scripts start after its first paint; a submit before React owns the form is dropped (form_guard).
    page.wait_for_function(
        "() => Object.keys(document.querySelector('form')).some(k => k.startsWith('__reactProps$'))", timeout=30_000
    )
    field(page, "Username").fill(name)
    field(page, "Email").fill(email)
    field(page, "Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()

    expect(page.get_by_role("heading", name="Verify your email")).to_be_visible()
    expect(page.get_by_text(f"We sent a 6-digit code to {email}.")).to_be_visible()
    expect(page.get_by_text("The code expires in 15 minutes.")).to_be_visible()
    code_box, verify = field(page, "Verification code"), page.get_by_role("button", name="Verify")
    expect(verify).to_be_disabled()
    code_box.fill("12a45")
    expect(code_box).to_have_value("1245")  # digits only
    expect(verify).to_be_disabled()

    # The code arrives by e-mail, over SMTP, at the test's mail sink.
    found = re.search(r"code is (\d{6})", wait_for_mail(server, email))
    assert found
    code = found.group(1)
    assert code == latest_code(db, email)
    code_box.fill("000000" if code != "000000" else "111111")
    expect(verify).to_be_enabled()
    verify.click()
    expect(page.get_by_text("Invalid verification code. Please check and try again. 4 attempts left.")).to_be_visible()

    code_box.fill(code)
    verify.click()
    expect(page.get_by_text("Your email has been verified successfully")).to_be_visible()
    page.wait_for_url(re.compile(r"/client-portal\?verified=1$"))
    with Session(db) as s:
        assert s.exec(select(User.is_verified).where(User.email == email)).one() is True
    # Signing in right after verifying lands in the portal with its welcome.
    field(page, "Username or Email").fill(name)
    field(page, "Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(re.compile(r"/client-portal"))
    welcome = page.get_by_role("dialog", name="Welcome to Your Account!")
    expect(welcome).to_contain_text("Your email has been verified successfully")
    welcome.get_by_role("button", name="Get Started").click()
    expect(page).to_have_url(re.compile(r"/client-portal/?$"))  # the address loses ?welcome=true
    page.get_by_role("button", name="Logout").click()
    expect(page.get_by_text("You have been successfully logged out.")).to_be_visible()
    expect(page.get_by_role("button", name="Sign In")).to_be_visible()  # the client sign-in, not the staff one


def test_a_submit_before_the_page_is_ready_never_puts_the_password_in_the_address(
    server: Server, page: Page, db: Engine
) -> None:
    """app/ui/form_guard.py: the <head> script drops native submits of script-handled forms (no `action`)."""
    # The page's scripts never arrive: the prerendered form is all there is (a slow phone before hydration).
    page.route("**/assets/*.js", lambda route: route.abort())
    page.goto(server.url + "/register")
    field(page, "Username").fill("early_bird")
    field(page, "Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()
    page.wait_for_load_state("load")
    assert "?" not in page.url and PASSWORD not in page.url
    # The guard leaves alone the form that posts natively (it has an action): without any script, sign-in works.
    user = make_user(db, first_name="Early")
    page.goto(server.url + "/client-portal")
    field(page, "Username or Email").fill(user.username)
    field(page, "Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(re.compile(r"/client-portal/?\?login=1$"))
    assert "signed_in=1" in page.evaluate("document.cookie")


def test_the_portal_paints_its_sign_in_form_before_any_script_unless_the_browser_signed_in(
    server: Server, page: Page, db: Engine
) -> None:
    """The sign-in form is in the prerendered page (no waiting for the websocket); a browser carrying the non-secret
    `signed_in` hint sees placeholders instead, and a hint the server does not back is removed once checked."""
    page.route("**/assets/*.js", lambda route: route.abort())  # what the browser paints before any script runs
    page.goto(server.url + "/client-portal")
    expect(page.get_by_role("button", name="Sign In")).to_be_visible()
    expect(page.locator(".hint-signed-in")).to_be_hidden()
    page.context.add_cookies([{"name": "signed_in", "value": "1", "url": server.url}])
    page.goto(server.url + "/client-portal")
    expect(page.locator(".hint-signed-in")).to_be_visible()
    expect(page.get_by_role("button", name="Sign In")).to_be_hidden()

    page.unroute("**/assets/*.js")  # the scripts arrive: the server knows no session here
    page.goto(server.url + "/client-portal")
    expect(page.get_by_role("button", name="Sign In")).to_be_visible()
    expect(page.locator(".hint-signed-in")).to_have_count(0)
    page.wait_for_function('!document.cookie.includes("signed_in=1")')

    user = make_user(db, first_name="Hana")  # signing in sets the hint, signing out removes it
    sign_in(page, server, user.username, PASSWORD)
    expect(page.get_by_role("heading", name="Welcome back, Hana!")).to_be_visible()
    assert "signed_in=1" in page.evaluate("document.cookie")
    page.route("**/assets/*.js", lambda route: route.abort())
    page.goto(server.url + "/client-portal")
    expect(page.locator(".hint-signed-in")).to_be_visible()
    expect(page.get_by_role("button", name="Sign In")).to_be_hidden()
    page.unroute("**/assets/*.js")
    page.goto(server.url + "/client-portal")
    page.get_by_role("button", name="Logout").click()
    expect(page.get_by_text("You have been successfully logged out.")).to_be_visible()
    assert "signed_in" not in page.evaluate("document.cookie")


def test_portal_sign_in_is_http_only_and_logout_ends_the_session(server: Server, page: Page, db: Engine) -> None:
    user = make_user(db, first_name="Pat", company="Harbor Labs")
    sign_in(page, server, user.username, "Not-the-password-1")
    expect(page.get_by_text("Login Failed")).to_be_visible()
    expect(page.get_by_text(INVALID_LOGIN).first).to_be_visible()
    expect(field(page, "Username or Email")).to_have_value(user.username)

    field(page, "Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("heading", name="Welcome back, Pat!")).to_be_visible()
    expect(page.get_by_text("Welcome to your portal!")).to_be_visible()
    expect(page.get_by_text("Harbor Labs")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Member since [A-Z][a-z]+ \d{1,2}, \d{4}"))).to_be_visible()

    # Signed in (the API agrees) and yet no session cookie is readable by the page's JavaScript.
    assert page.request.get(server.url + "/api/auth/me").status == 200
    assert {c["name"] for c in page.context.cookies() if c["httpOnly"]} >= {"access_token"}
    readable = page.evaluate("document.cookie")
    assert "access_token" not in readable and "refresh_token" not in readable

    page.get_by_role("button", name="Logout").click()
    page.wait_for_url(re.compile(r"/client-portal"))  # a client lands on the client sign-in
    expect(page.get_by_text("You have been successfully logged out.")).to_be_visible()
    expect(page.get_by_role("heading", name="Client Portal")).to_be_visible()
    assert page.request.get(server.url + "/api/auth/me").status == 401


def test_unverified_account_is_sent_to_the_verification_step(server: Server, page: Page, db: Engine) -> None:
    user = make_user(db, verified=False)
    sign_in(page, server, user.email, PASSWORD)
    expect(page.get_by_text("Account Not Verified")).to_be_visible()
    page.wait_for_url(re.compile(rf"/register/?\?verify={user.id}$"))
    expect(page.get_by_role("heading", name="Verify your email")).to_be_visible()
    expect(page.get_by_role("button", name="Resend code")).to_be_visible()


def test_settings_password_change_checks_the_current_one(server: Server, page: Page, db: Engine) -> None:
    user = make_user(db, first_name="Sam")
    sign_in(page, server, user.username, PASSWORD)
    expect(page.get_by_role("heading", name="Welcome back, Sam!")).to_be_visible()
    page.goto(server.url + "/settings")
    expect(page.get_by_role("heading", name="Settings", exact=True)).to_be_visible()

    def change(current: str) -> None:
        field(page, "Current password").fill(current)
        field(page, "New password").fill(NEW_PASSWORD)
        field(page, "Confirm new password").fill(NEW_PASSWORD)
        page.get_by_role("button", name="Change Password").click()

    change("Not-the-password-1")
    expect(page.get_by_text("Current password is incorrect")).to_be_visible()
    assert api_login(server, user.username, PASSWORD) == 200  # nothing changed yet

    change(PASSWORD)
    expect(page.get_by_text("Password changed successfully!").first).to_be_visible()
    assert api_login(server, user.username, PASSWORD) == 401
    assert api_login(server, user.username, NEW_PASSWORD) == 200
    assert page.request.get(server.url + "/api/auth/me").status == 200  # this browser's own session stays


def test_admin_dashboard_turns_away_clients_and_the_signed_out(server: Server, page: Page, db: Engine) -> None:
    page.goto(server.url + "/admin/dashboard")
    page.wait_for_url(re.compile(r"/client-portal/?$"))
    expect(page.get_by_text("Please log in to access the dashboard.")).to_be_visible()

    client = make_user(db, first_name="Cody")
    sign_in(page, server, client.username, PASSWORD)
    expect(page.get_by_role("heading", name="Welcome back, Cody!")).to_be_visible()
    page.goto(server.url + "/admin/dashboard")
    page.wait_for_url(re.compile(r"/client-portal/?$"))
    expect(page.get_by_text("Staff privileges required to access this panel.")).to_be_visible()
    expect(page.get_by_role("heading", name="Welcome back, Cody!")).to_be_visible()
    expect(page.get_by_text("Staff Dashboard")).to_have_count(0)


def test_staff_sign_in_lands_on_the_admin_dashboard(server: Server, page: Page, db: Engine) -> None:
    staff = make_user(db, role="employee", first_name="Stella", last_name="Reed")
    sign_in(page, server, staff.username, PASSWORD, path="/admin/login")
    page.wait_for_url(re.compile(r"/admin/dashboard"))
    expect(page.get_by_text("Welcome back, Stella Reed")).to_be_visible()
    # The spec's greeting, once: the ?login=1 the sign-in left is dropped, so a reload does not greet again.
    expect(page.get_by_text("Login Successful")).to_be_visible()
    expect(page.get_by_text("Redirecting to Employee Dashboard...")).to_be_visible()
    page.wait_for_url(re.compile(r"/admin/dashboard/?$"))
    page.reload()
    expect(page.get_by_text("Welcome back, Stella Reed")).to_be_visible()
    expect(page.get_by_text("Your Role")).to_be_visible()  # the figures loaded after the reload
    expect(page.get_by_text("Login Successful")).to_have_count(0)
    client = make_user(db)
    page.context.clear_cookies()
    sign_in(page, server, client.username, PASSWORD, path="/admin/login")
    expect(page.get_by_text("Admin privileges required to access this panel.").first).to_be_visible()
    assert page.request.get(server.url + "/api/auth/me").status == 401  # the refused sign-in left no session


def test_idle_staff_see_the_warning_then_are_signed_out(server: Server, page: Page, db: Engine) -> None:
    """The browser side of the inactivity rule, on a controlled clock: a warning 5 minutes before, then sign-out."""
    staff = make_user(db, role="employee", first_name="Ida")
    page.clock.install()
    sign_in(page, server, staff.username, PASSWORD, path="/admin/login")
    page.wait_for_url(re.compile(r"/admin/dashboard"))
    warning = page.locator("#session-warning")
    expect(warning).to_be_hidden()
    # The prerendered page says 0 (nobody signed in); the live page carries the staff limit.
    expect(page.locator("#session-watch")).to_have_attribute("data-idle-minutes", "10")
    page.clock.run_for("05:30")  # staff idle out after 10 minutes; the check runs every minute
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("Session Expiring Soon")
    expect(warning).to_contain_text("Your session will expire in 5 minutes due to inactivity.")
    page.mouse.move(5, 5)
    page.mouse.down()  # activity re-arms the timer and hides the warning
    page.mouse.up()
    expect(warning).to_be_hidden()
    page.clock.run_for("10:30")
    page.wait_for_url(re.compile(r"/admin/login"))
    expect(page.get_by_text("You have been automatically logged out due to inactivity.").first).to_be_visible()
    assert page.request.get(server.url + "/api/auth/me").status == 401


def test_forgot_password_journey_from_the_sign_in_page(server: Server, page: Page, db: Engine) -> None:
    """A locked-out client asks for a link, gets it by e-mail, chooses a new password and signs in with it."""
    user = make_user(db)
    page.goto(server.url + "/client-portal")
    page.get_by_role("link", name="Forgot password?").click()
    expect(page.get_by_role("heading", name="Reset your password")).to_be_visible()
    field(page, "Email").fill(user.email)
    page.get_by_role("button", name="Send Reset Link").click()
    expect(page.get_by_text("If an account exists for that e-mail, we've sent a link")).to_be_visible()

    found = re.search(r"(/reset-password\?token=[A-Za-z0-9_\-]+)", wait_for_mail(server, user.email))
    assert found
    page.goto(server.url + found.group(1))
    field(page, "New password").fill(NEW_PASSWORD)
    field(page, "Confirm new password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Reset Password").click()
    expect(page.get_by_text("Your password has been reset. Please sign in with your new password.")).to_be_visible()

    page.goto(server.url + found.group(1))  # a link works once
    expect(page.get_by_text("already been used")).to_be_visible()
    expect(page.get_by_role("link", name="Request a new link")).to_be_visible()
    assert api_login(server, user.username, PASSWORD) == 401
    sign_in(page, server, user.username, NEW_PASSWORD)
    expect(page.get_by_role("button", name="Logout")).to_be_visible()


def test_staff_sign_in_links_to_the_reset_page_and_back(server: Server, page: Page) -> None:
    page.goto(server.url + "/admin/login")
    page.get_by_role("link", name="Forgot password?").click()
    expect(page.get_by_role("heading", name="Reset your password")).to_be_visible()
    page.get_by_role("link", name="Back to sign in").click()
    page.wait_for_url(re.compile(r".*/admin/login/?$"))


def test_the_sign_in_notice_goes_away_once_and_never_comes_back(server: Server, page: Page, db: Engine) -> None:
    """Issue 26: the portal's "Login Successful" stayed 40 s and more, came back on /profile and /settings after a
    reload, and sat over the profile's Phone field. One notice system now: shown once, gone after 5 s."""
    client = make_user(db)
    sign_in(page, server, client.username, PASSWORD)
    toast = page.locator("[data-sonner-toast]").filter(has_text="Login Successful")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("Welcome to your portal!")
    # Over the page's top band, clear of every field and button of the portal (at 1280 px; phones in the screenshots).
    box = toast.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 120, box
    expect(toast).to_have_count(0, timeout=9_000)  # 5 s, and Sonner's exit animation
    for path in ("/client-portal", "/profile", "/settings"):
        page.goto(server.url + path)
        expect(page.get_by_role("heading").first).to_be_visible()
        page.reload()
        page.wait_for_timeout(1_500)  # long enough for a repeated notice to show up
        expect(page.get_by_text("Login Successful")).to_have_count(0)

"""Two-step sign-in in the browser (issue 28, ADR 0103): a new admin sets up an authenticator as the step after the
password (QR code, key, first code, recovery codes), signs in again with a code (a wrong one is refused in words),
trusts the browser and is not asked again there; another browser signs in with a recovery code; a client turns it on
in the portal's Settings tab; an administrator resets a person's second factor from the Users list."""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path

import pyotp
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlmodel import Session

from app.models.enums import EmployeeType, Role
from app.services.accounts import second_factor
from tests import factories as f
from tests.e2e.conftest import Server, wait_for_mail
from tests.e2e.test_accounts import field
from tests.e2e.test_admin import signed_in

pytestmark = pytest.mark.e2e
DASHBOARD = re.compile(r"/admin/dashboard/?(\?login=1)?$")
SECOND_STEP = re.compile(r"/sign-in/second-step/?$")


def code(secret: str, steps_ahead: int = 0) -> str:
    return pyotp.TOTP(secret).at(time.time() + steps_ahead * second_factor.STEP_S)


def new_context(browser: Browser, width: int = 1280, height: int = 800) -> BrowserContext:
    return browser.new_context(viewport={"width": width, "height": height})


def sign_in_with_password(page: Page, server: Server, username: str, path: str = "/admin/login") -> None:
    page.goto(server.url + path)
    field(page, "Username or Email").fill(username)
    field(page, "Password").fill(f.PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} overflows by {overflow} px"


def test_a_new_admin_sets_up_signs_in_with_a_code_trusts_the_browser_and_uses_a_recovery_code(
    server: Server, browser: Browser, db: Session, tmp_path: Path
) -> None:
    name = f"sfadm_{uuid.uuid4().hex[:6]}"
    f.user(db, name, role=Role.admin, first_name="Ada")

    context = new_context(browser)
    page = context.new_page()
    sign_in_with_password(page, server, name)
    expect(page).to_have_url(SECOND_STEP)
    expect(page.get_by_role("heading", name="Set up two-step sign-in")).to_be_visible()
    expect(page.get_by_role("img", name="QR code that adds this account to an authenticator app")).to_be_visible()
    shot(page, tmp_path, "enrol-1280")
    secret = page.get_by_test_id("totp-key").inner_text().replace(" ", "")
    page.get_by_label("Code from the app").fill("12")
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_role("alert")).to_contain_text("6-digit code")
    page.get_by_label("Code from the app").fill(code(secret, -1))
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_role("heading", name="Two-step sign-in is on")).to_be_visible()
    recovery = page.get_by_test_id("recovery-codes").get_by_role("listitem").all_inner_texts()
    assert len(recovery) == 10
    page.get_by_role("button", name="I have saved them: continue").click()
    expect(page).to_have_url(DASHBOARD)  # with the greeting's marker, dropped on arrival
    wait_for_mail(server, f"{name}@example.com", containing="Two-step sign-in is now on")

    # Signed out, signed in again: the code, a wrong one first; then trusting this browser.
    page.get_by_role("button", name="Logout").first.click()
    sign_in_with_password(page, server, name)
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    window = {code(secret, n) for n in (-1, 0, 1)}
    page.get_by_label("Code", exact=True).fill(next(c for c in ("000000", "111111", "222222") if c not in window))
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("alert")).to_contain_text("That code is not right")
    page.get_by_label("Code", exact=True).fill(code(secret, 1))
    page.get_by_label("Trust this browser for 30 days").check()
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(DASHBOARD)

    page.get_by_role("button", name="Logout").first.click()
    sign_in_with_password(page, server, name)
    expect(page).to_have_url(DASHBOARD)  # trusted: the password alone
    context.close()

    # Another browser, no phone: a recovery code, typed as printed.
    other = new_context(browser, 390, 844)
    phone = other.new_page()
    sign_in_with_password(phone, server, name)
    expect(phone.get_by_role("heading", name="Enter your code")).to_be_visible()
    shot(phone, tmp_path, "code-390")
    phone.get_by_label("Code", exact=True).fill(recovery[0])
    phone.get_by_role("button", name="Verify").click()
    expect(phone).to_have_url(DASHBOARD)
    wait_for_mail(server, f"{name}@example.com", containing="recovery codes was just used")
    other.close()


def test_a_client_turns_two_step_sign_in_on_in_the_portal_settings(
    server: Server, browser: Browser, db: Session, tmp_path: Path
) -> None:
    name = f"sfcli_{uuid.uuid4().hex[:6]}"
    f.user(db, name, first_name="Cleo")
    context = new_context(browser, 390, 844)
    page = context.new_page()
    sign_in_with_password(page, server, name, "/client-portal")
    expect(page).to_have_url(re.compile(r"/client-portal/?(\?login=1)?$"))  # no second factor yet: the password alone
    page.get_by_role("tab", name="Settings").click()
    card = page.get_by_test_id("second-factor-card")
    expect(card).to_contain_text("Off. Signing in needs only your password.")
    card.get_by_role("button", name="Set up").click()
    secret = card.get_by_test_id("totp-key").inner_text().replace(" ", "")
    card.get_by_label("Code from your authenticator app").fill(code(secret))
    card.get_by_role("button", name="Turn on").click()
    expect(card.get_by_test_id("recovery-codes").get_by_role("listitem")).to_have_count(10)
    shot(page, tmp_path, "portal-codes-390")
    card.get_by_role("button", name="I have saved them").click()
    expect(card).to_contain_text("Recovery codes left: 10")
    expect(card.get_by_role("button", name="Turn off")).to_be_visible()
    context.close()


def test_an_administrator_resets_a_staff_members_second_factor_from_the_users_list(
    server: Server, browser: Browser, db: Session
) -> None:
    name = f"sfcfo_{uuid.uuid4().hex[:6]}"
    cfo = f.user(db, name, role=Role.employee, employee_type=EmployeeType.cfo, first_name="Lin")
    secret = second_factor.begin_enrolment(db, cfo).secret.replace(" ", "")
    second_factor.confirm_enrolment(db, cfo, code(secret), ip=None)
    with signed_in(browser, server, db.get_bind(), "admin") as (page, errors):  # type: ignore[arg-type]
        page.goto(server.url + "/admin/users")
        page.get_by_placeholder("Search users…").fill(name)
        row = page.get_by_test_id("user-row").filter(has_text=name)
        row.get_by_role("button", name=f"Reset two-step sign-in of {name}").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Reset the two-step sign-in of")
        dialog.get_by_role("button", name="Reset").click()
        expect(page.locator("[data-sonner-toast]").filter(has_text="Two-step sign-in reset")).to_be_visible()
        expect(row.get_by_role("button", name=f"Reset two-step sign-in of {name}")).to_have_count(0)
        assert errors == []
    db.refresh(cfo)
    assert second_factor.factor(db, cfo) is None
    wait_for_mail(server, f"{name}@example.com", containing="reset the two-step sign-in")


def _virtual_authenticator(context: BrowserContext, page: Page) -> None:
    """Chromium's own authenticator (as a phone's or a laptop's): it verifies the person and answers at once."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})


def test_passkeys_added_in_settings_sign_in_alone_and_stand_in_for_the_code(
    server: Server, browser: Browser, db: Session
) -> None:
    # Passkeys belong to a host name: the site on 127.0.0.1 offers them at localhost (ADR 0104).
    local = server.url.replace("127.0.0.1", "localhost")
    name = f"sfpk_{uuid.uuid4().hex[:6]}"
    admin = f.user(db, name, role=Role.admin, first_name="Kim")
    secret = second_factor.begin_enrolment(db, admin).secret.replace(" ", "")
    second_factor.confirm_enrolment(db, admin, code(secret, -1), ip=None)

    context = new_context(browser)
    page = context.new_page()
    _virtual_authenticator(context, page)
    page.goto(local + "/admin/login")
    field(page, "Username or Email").fill(name)
    field(page, "Password").fill(f.PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()
    page.get_by_label("Code", exact=True).fill(code(secret))
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(DASHBOARD)

    page.goto(local + "/admin/settings")
    card = page.get_by_test_id("second-factor-card")
    card.get_by_role("button", name="Add a passkey").click()
    expect(card.get_by_role("status").filter(has_text="Passkey added.")).to_be_visible()
    expect(card.get_by_test_id("passkey-row")).to_have_count(1)
    wait_for_mail(server, f"{name}@example.com", containing="was added to your account")

    # The second step with the passkey instead of a code.
    page.get_by_role("button", name="Logout").first.click()
    page.goto(local + "/admin/login")
    field(page, "Username or Email").fill(name)
    field(page, "Password").fill(f.PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    page.get_by_role("button", name="Use a passkey instead").click()
    expect(page).to_have_url(DASHBOARD)

    # A sign-in with the passkey alone: no password, no code.
    page.get_by_role("button", name="Logout").first.click()
    page.goto(local + "/admin/login")
    page.get_by_role("button", name="Use a passkey").click()
    expect(page).to_have_url(DASHBOARD)
    expect(page.get_by_test_id("admin-sidebar")).to_be_visible()
    context.close()

"""The staff admin panel in a real browser against the real server: shell, guard, users, clients, inquiries, settings.

Staff sign in by a session cookie minted with the session service (the sign-in form is another screen's business).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models.enums import EmployeeType, InquiryPriority, InquiryStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.system import AuditLog
from app.models.user import User
from app.services.accounts import sessions
from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
MOBILE = {"width": 390, "height": 844}
# What a sales lead sees (docs/permissions.md): everything but Applications.
SALES_LEAD_SECTIONS = [
    "Dashboard",
    "User Management",
    "Clients",
    "Inquiries",
    "Content Management",
    "Billing",
    "Analytics",
    "Products & Services",
    "Meetings",
    "Settings",
]


def _user(engine: Engine, username: str) -> User:
    with Session(engine, expire_on_commit=False) as s:
        return s.exec(select(User).where(User.username == username)).one()


def _find(engine: Engine, username: str) -> User | None:
    with Session(engine, expire_on_commit=False) as s:
        return s.exec(select(User).where(User.username == username)).first()


def _cookie_for(engine: Engine, server: Server, username: str) -> dict[str, object]:
    with Session(engine, expire_on_commit=False) as s:
        user = s.exec(select(User).where(User.username == username)).one()
        token = sessions.start(s, user).access_token
    return {"name": "access_token", "value": token, "url": server.url, "httpOnly": True}


def _watch_console(page: Page) -> list[str]:
    """Console errors and page errors, except the site's missing favicon (not part of this panel)."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" and not str(message.location.get("url", "")).endswith("/favicon.ico"):
            errors.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@contextmanager
def signed_in(
    browser: Browser, server: Server, engine: Engine, username: str | None, viewport: dict[str, int] = DESKTOP
) -> Iterator[tuple[Page, list[str]]]:
    """A fresh browser context with `username` signed in (None: signed out); yields the page and its errors."""
    context: BrowserContext = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    if username:
        context.add_cookies([_cookie_for(engine, server, username)])  # type: ignore[list-item]
    page = context.new_page()
    errors = _watch_console(page)
    try:
        yield page, errors
    finally:
        context.close()


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-sonner-toast]").filter(has_text=text).first).to_be_visible()


def _nav_items(page: Page) -> list[str]:
    nav = page.get_by_test_id("admin-sidebar").get_by_role("navigation")
    expect(nav.get_by_role("link", name="Dashboard")).to_be_visible()
    return [t.strip() for t in nav.get_by_role("link").all_inner_texts()]


def _unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def test_admin_creates_a_sales_lead_who_sees_their_sections_and_creates_a_client(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    lead_name = _unique("lead_")
    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        page.goto(server.url + "/admin/users")
        expect(page.get_by_role("heading", name="User Management")).to_be_visible()
        page.get_by_role("button", name="Create User").click()
        dialog = page.get_by_role("dialog")
        dialog.locator("#create-username").fill(lead_name)
        dialog.locator("#create-email").fill(f"{lead_name}@example.com")
        dialog.locator("#create-role").select_option("employee")
        dialog.locator("#create-employee-type").select_option("sales_lead")
        dialog.locator("#create-first-name").fill("Sam")
        dialog.locator("#create-last-name").fill("Seller")
        dialog.get_by_role("button", name="Create User").click()
        _toast(page, "User created successfully")
        expect(dialog).to_be_hidden()
        page.get_by_role("searchbox", name="Search users").fill(lead_name)
        row = page.get_by_test_id("user-row").filter(has_text=lead_name)
        expect(row).to_contain_text("Sales Lead / Business Development")
        expect(page.get_by_test_id("user-row")).to_have_count(1)
        assert errors == []
    lead = _user(db_engine, lead_name)
    assert lead.role == Role.employee and lead.employee_type == EmployeeType.sales_lead

    client_name = _unique("client_")
    employee_name = _unique("emp_")
    with signed_in(browser, server, db_engine, lead_name) as (page, errors):
        page.goto(server.url + "/admin/dashboard")
        expect(page.get_by_test_id("welcome-line")).to_have_text("Welcome, Sam")
        # docs/permissions.md: a sales lead holds users:read (and analytics:read), not users:manage.
        assert _nav_items(page) == SALES_LEAD_SECTIONS
        expect(page.get_by_test_id("card-total-users")).to_be_visible()
        expect(page.get_by_test_id("card-active-sessions")).to_be_visible()
        expect(page.get_by_test_id("card-your-role")).to_contain_text("Sales Lead")

        page.get_by_role("link", name="User Management").click()
        page.wait_for_url("**/admin/users")
        page.get_by_role("button", name="Create Client").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.locator("#create-role")).to_have_count(0)  # create-client: the role is always client
        dialog.locator("#create-username").fill(client_name)
        dialog.locator("#create-email").fill(f"{client_name}@example.com")
        dialog.locator("#create-company").fill("Acme Harbor")
        dialog.get_by_role("button", name="Create Client").click()
        _toast(page, "Client created successfully")
        expect(dialog).to_be_hidden()

        # Creating an employee is not theirs to do: the form is not offered (issue 26), and the server refuses it.
        expect(page.get_by_role("button", name="Create User")).to_have_count(0)
        refused = page.request.post(
            server.url + "/api/admin/users",
            data={
                "username": employee_name,
                "email": f"{employee_name}@example.com",
                "role": "employee",
                "employee_type": "developer",
                "first_name": "Eve",
                "last_name": "Dev",
            },
        )
        assert refused.status == 403
        assert refused.json()["message"] == "You don't have permission to create this type of user"

        # A row offers only what its flags allow (the server still refuses crafted events): nothing on a colleague's
        # account, a password reset (clients:reset_password) but no delete on the client's.
        search = page.get_by_role("searchbox", name="Search users")
        search.fill("staff_developer")
        expect(page.get_by_test_id("user-row")).to_have_count(1)
        for action in ("Edit", "Reset password of", "Delete"):
            expect(page.get_by_role("button", name=f"{action} staff_developer")).to_have_count(0)
        search.fill(client_name)
        expect(page.get_by_test_id("user-row")).to_have_count(1)
        expect(page.get_by_role("button", name=f"Reset password of {client_name}")).to_be_visible()
        expect(page.get_by_role("button", name=f"Delete {client_name}")).to_have_count(0)
        assert errors == []

    created = _find(db_engine, client_name)
    assert created is not None and created.role == Role.client and created.company == "Acme Harbor"
    assert _find(db_engine, employee_name) is None
    assert _find(db_engine, "staff_developer") is not None


def test_developer_sees_no_user_management_and_is_restricted_there(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    with signed_in(browser, server, db_engine, "staff_developer") as (page, errors):
        page.goto(server.url + "/admin/dashboard")
        expect(page.get_by_role("heading", name="Quick Actions")).to_be_visible()
        assert _nav_items(page) == ["Dashboard", "Inquiries", "Content Management", "Meetings", "Settings"]
        expect(page.get_by_test_id("card-total-users")).to_have_count(0)
        expect(page.get_by_test_id("card-active-sessions")).to_have_count(0)
        expect(page.get_by_role("link", name="Manage Users")).to_have_count(0)
        expect(page.get_by_role("link", name="View Inquiries")).to_be_visible()

        page.goto(server.url + "/admin/users")
        restricted = page.get_by_test_id("access-restricted")
        expect(restricted).to_contain_text("Access Restricted")
        expect(restricted).to_contain_text(
            "You don't have permission to access User Management. Contact your administrator if you need access."
        )
        expect(page.get_by_role("heading", name="User Management")).to_have_count(0)
        expect(page.get_by_test_id("user-row")).to_have_count(0)

        page.goto(server.url + "/admin/clients")
        expect(page.get_by_test_id("access-restricted")).to_contain_text("You don't have permission to access Clients.")

        # Settings is for every staff member; the audit log only for holders of audit:read.
        page.goto(server.url + "/admin/settings")
        expect(page.get_by_test_id("account-summary")).to_contain_text("staff_developer")
        expect(page.get_by_test_id("account-summary")).to_contain_text("Developers (Devs)")
        expect(page.get_by_test_id("audit-log")).to_have_count(0)
        assert errors == []


def test_admin_triages_an_inquiry_and_the_change_survives_a_reload(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    name = f"Quinn Prospect {uuid.uuid4().hex[:4]}"
    # Submitted the way a visitor's browser does, through the public contact call.
    sent = httpx.post(
        server.url + "/api/contact",
        json={
            "name": name,
            "email": "quinn@prospect.example.com",
            "company": "Prospect Labs",
            "service_type": "database-design",
            "budget": "5k-10k",
            "message": "We need our reporting database redesigned.",
            "newsletter": False,
        },
        headers={"Origin": server.url},
    )
    assert sent.status_code == 201, sent.text
    with Session(db_engine) as s:
        inquiry_id = s.exec(select(ContactInquiry.id).where(ContactInquiry.name == name)).one()

    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        page.goto(server.url + "/admin/inquiries")
        expect(page.get_by_role("heading", name="Contact Inquiries")).to_be_visible()
        page.get_by_role("searchbox", name="Search inquiries").fill("Prospect Labs")
        expect(page.get_by_test_id("inquiry-row")).to_have_count(1)
        expect(page.get_by_role("heading", name="Contact Inquiries (1)")).to_be_visible()
        page.get_by_role("button", name=f"View inquiry from {name}").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_test_id("detail-phone")).to_have_text("Not provided")
        expect(dialog.get_by_test_id("detail-service")).to_have_text("Database Design")
        expect(dialog.get_by_test_id("detail-budget")).to_have_text("$5,000 - $10,000")
        expect(dialog.locator("#detail-message")).to_have_text("We need our reporting database redesigned.")

        dialog.locator("#detail-status").select_option("in_progress")
        _toast(page, "Inquiry updated successfully")
        expect(dialog.locator("#detail-status")).to_be_enabled()
        dialog.locator("#detail-priority").select_option("urgent")
        expect(page.locator("[data-sonner-toast]").filter(has_text="Inquiry updated successfully")).to_have_count(2)
        expect(dialog.locator("#detail-priority")).to_have_value("urgent")
        # Beyond the spec: assignment and internal notes.
        dialog.get_by_role("button", name="Assign to me").click()
        expect(dialog.get_by_test_id("detail-assigned")).to_have_text("Assigned to: You")
        dialog.locator("#detail-notes").fill("Called back; sending a proposal.")
        dialog.get_by_role("button", name="Save Notes").click()
        expect(dialog.get_by_role("button", name="Save Notes")).to_be_enabled()
        dialog.get_by_role("button", name="Close").click()

        page.reload()
        page.get_by_role("searchbox", name="Search inquiries").fill("Prospect Labs")
        row = page.get_by_test_id("inquiry-row").filter(has_text=name)
        expect(row).to_contain_text("In Progress")
        expect(row.get_by_test_id("priority-badge")).to_have_text("Urgent")
        expect(row.get_by_test_id("priority-badge")).to_have_class(re.compile(r"\bbg-red-50\b"))  # urgent is red
        page.get_by_role("button", name=f"View inquiry from {name}").click()
        expect(dialog.locator("#detail-status")).to_have_value("in_progress")
        expect(dialog.get_by_test_id("detail-assigned")).to_have_text("Assigned to: You")
        expect(dialog.locator("#detail-notes")).to_have_value("Called back; sending a proposal.")
        dialog.get_by_role("button", name="Close").click()

        page.get_by_role("combobox", name="Filter by status").select_option("closed")
        expect(page.get_by_text("No inquiries found")).to_be_visible()

        # The change is in the audit log that Settings shows to admins.
        page.goto(server.url + "/admin/settings")
        expect(
            page.get_by_test_id("audit-row").filter(has_text="Inquiry updated").first
        ).to_be_visible()  # the action in words (issue 26)
        assert errors == []

    with Session(db_engine) as s:
        saved = s.get(ContactInquiry, inquiry_id)
        assert saved is not None
        assert saved.status == InquiryStatus.in_progress and saved.priority == InquiryPriority.urgent
        assert saved.assigned_to == _user(db_engine, "admin").id
        assert saved.notes == "Called back; sending a proposal."
        assert s.exec(
            select(AuditLog).where(AuditLog.action == "inquiry.update", AuditLog.entity_id == str(inquiry_id))
        ).all()


def test_clients_and_signed_out_visitors_are_sent_to_the_client_portal(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    with signed_in(browser, server, db_engine, "democlient") as (page, errors):
        page.goto(server.url + "/admin/dashboard")
        page.wait_for_url("**/client-portal")
        _toast(page, "Staff privileges required to access this panel.")
        expect(page.locator("[data-sonner-toast]").filter(has_text="Access Denied")).to_have_count(1)
        assert errors == []
    with signed_in(browser, server, db_engine, None) as (page, errors):
        page.goto(server.url + "/admin/users")
        page.wait_for_url("**/client-portal")
        _toast(page, "Please log in to access the dashboard.")
        expect(page.locator("[data-sonner-toast]").filter(has_text="Authentication Required")).to_be_visible()
        assert errors == []


def test_dashboard_shows_real_figures_and_the_sidebar_remembers_ctrl_b(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        page.goto(server.url + "/admin/dashboard")
        expect(page.get_by_role("heading", name="Welcome back, ")).to_contain_text("Avery Collins")
        expect(page.get_by_test_id("card-system-status")).to_contain_text("Healthy")
        expect(page.get_by_test_id("card-system-status")).to_contain_text("Database")
        expect(page.get_by_test_id("card-system-status")).to_contain_text("Mail queue")
        expect(page.get_by_test_id("card-your-role")).to_contain_text("Administrator")
        expect(page.get_by_test_id("card-your-role")).to_contain_text("20 active permissions")
        with Session(db_engine) as s:
            users = len(s.exec(select(User.id)).all())
        expect(page.get_by_test_id("card-total-users")).to_contain_text(str(users))

        sidebar = page.get_by_test_id("admin-sidebar")
        expect(sidebar).to_have_attribute("data-state", "expanded")
        page.keyboard.press("Control+b")
        expect(sidebar).to_have_attribute("data-state", "collapsed")
        cookie = next(c for c in page.context.cookies() if c["name"] == "sidebar_state")
        assert cookie["value"] == "false"
        assert 6.9 * 86400 < cookie["expires"] - time.time() <= 7 * 86400 + 60
        page.reload()
        expect(page.get_by_test_id("card-system-status")).to_contain_text("Healthy")
        expect(page.get_by_test_id("admin-sidebar")).to_have_attribute("data-state", "collapsed")
        page.keyboard.press("Meta+b")
        expect(page.get_by_test_id("admin-sidebar")).to_have_attribute("data-state", "expanded")
        assert errors == []


def test_mobile_menu_shows_who_is_signed_in_and_signs_out(server: Server, browser: Browser, db_engine: Engine) -> None:
    with signed_in(browser, server, db_engine, "staff_sales_lead", MOBILE) as (page, errors):
        page.goto(server.url + "/admin/clients")
        expect(page.get_by_role("heading", name="Clients")).to_be_visible()
        expect(page.get_by_test_id("admin-sidebar")).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        drawer = page.get_by_test_id("mobile-drawer")
        expect(drawer).to_be_hidden()
        page.get_by_role("button", name="Open menu").click()
        expect(drawer).to_be_visible()
        card = page.get_by_test_id("mobile-user-card")
        expect(card).to_contain_text("Tyler Jensen")
        expect(card).to_contain_text("Employee")
        expect(card).to_contain_text("Sales Lead / Business Development")
        drawer.get_by_role("link", name="Inquiries").click()
        page.wait_for_url("**/admin/inquiries")
        expect(drawer).to_be_hidden()
        expect(page.get_by_role("heading", name="Contact Inquiries")).to_be_visible()
        assert errors == []

        tab_token = page.evaluate("sessionStorage.getItem('token')")
        page.get_by_role("button", name="Open menu").click()
        drawer.get_by_role("button", name="Sign Out").click()
        page.wait_for_url(re.compile(r".*/admin/login/?(\?logged_out=1)?$"))  # the notice then drops the flag
        # The tab starts a new Reflex state: the next user never hydrates this one's lists.
        page.wait_for_function("() => !!sessionStorage.getItem('token')")
        assert page.evaluate("sessionStorage.getItem('token')") != tab_token
        # The session ended on the server: the admin panel now sends this browser away.
        page.goto(server.url + "/admin/dashboard")
        page.wait_for_url("**/client-portal")

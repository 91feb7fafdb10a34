"""The client portal in a real browser: the demo client's journey, another client's isolation, routing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, Page, expect
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models.enums import Role
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f
from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e

PORTAL = "/client-portal"


@pytest.fixture(scope="module")
def db(server: Server) -> Iterator[Session]:
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as s:
        yield s
    engine.dispose()


def sign_in(page: Page, server: Server, s: Session, username: str) -> None:
    """Put a fresh session cookie for `username` on the browser context (what the login form post would set)."""
    user = s.exec(select(User).where(User.username == username)).one()
    token = sessions.start(s, user).access_token
    page.context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])


def track_errors(page: Page) -> list[str]:
    """Console errors (except the browser's own /favicon.ico request: the site serves none yet), and the failures
    Reflex only logs: a server-sent script that could not run (eval refused by the CSP)."""
    errors: list[str] = []

    def on_console(m: ConsoleMessage) -> None:
        favicon = str(m.location.get("url", "")).endswith("/favicon.ico")
        eval_failure = m.text.startswith(("_call_script", "_call_function")) or "EvalError" in m.text
        if (m.type == "error" and not favicon) or eval_failure:
            errors.append(m.text)

    page.on("console", on_console)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def open_tab(page: Page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    expect(page.get_by_role("tab", name=name)).to_have_attribute("aria-selected", "true")


def test_demo_client_journey(server: Server, page: Page, db: Session) -> None:
    errors = track_errors(page)
    sign_in(page, server, db, "democlient")
    page.goto(server.url + PORTAL)

    # Header: first name, company, member since, Home in a new tab, Logout as a form post.
    expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
    expect(page.get_by_test_id("portal-company")).to_have_text("Harbor Dental Group")
    expect(page.get_by_text(re.compile(r"Member since [A-Z][a-z]+ \d{1,2}, \d{4}"))).to_be_visible()
    expect(page.get_by_role("link", name="Home", exact=True)).to_have_attribute("target", "_blank")
    logout = page.locator("form[action='/api/auth/form/logout']")
    expect(logout).to_have_attribute("method", "post")

    # Projects (the default tab): progress, milestones in order, fallbacks, spec badge colours.
    expect(page.get_by_role("tab", name="Projects")).to_have_attribute("aria-selected", "true")
    cards = page.get_by_test_id("project-card")
    expect(cards).to_have_count(3)
    portal = cards.filter(has_text="Patient Portal & Online Booking")
    expect(portal).to_contain_text("60%")
    expect(portal.get_by_role("progressbar")).to_be_visible()
    expect(portal).to_contain_text("$18,500.00")
    expect(portal).to_contain_text("in progress")
    milestones = portal.locator("ol li")
    expect(milestones).to_have_count(4)
    expect(milestones.first).to_contain_text("Discovery & Requirements")
    expect(milestones.last).to_contain_text("Launch & Staff Training")
    completed = cards.filter(has_text="Website Redesign & Hosting Migration")
    expect(completed.get_by_role("button", name="Cancel Project")).to_have_count(0)

    # Invoices: issued ones only (the draft INV-2026-0003 stays with staff); the PDF is a real download.
    open_tab(page, "Invoices")
    invoices = page.get_by_test_id("invoice-card")
    expect(invoices).to_have_count(2)
    expect(page.get_by_text("INV-2026-0003")).to_have_count(0)
    pending = invoices.filter(has_text="INV-2026-0002")
    expect(pending).to_contain_text("$10,646.50")
    with page.expect_download() as info:
        pending.get_by_role("button", name="Download invoice INV-2026-0002").click()
    download = info.value
    assert download.suggested_filename == "invoice-INV-2026-0002.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF")

    # Meetings: cancel the upcoming one through the dialog; it moves to the past list as cancelled.
    open_tab(page, "Meetings")
    upcoming = page.get_by_test_id("upcoming-meetings")
    review = upcoming.get_by_test_id("meeting-card").filter(has_text="Patient Portal Sprint Review")
    expect(review).to_contain_text("45 minutes")
    expect(review.get_by_role("link", name="Join Meeting")).to_have_attribute(
        "href", "https://meet.example.com/harbor-dental-sprint-review"
    )
    review.get_by_role("button", name="Cancel meeting Patient Portal Sprint Review").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading", name="Cancel Meeting")).to_be_visible()
    expect(dialog).to_contain_text("Are you sure you want to cancel this meeting? This action cannot be undone.")
    dialog.get_by_role("button", name="No, Keep Meeting").click()
    expect(dialog).to_have_count(0)
    expect(review).to_be_visible()
    review.get_by_role("button", name="Cancel meeting Patient Portal Sprint Review").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, Cancel Meeting").click()
    expect(page.get_by_text("The meeting has been cancelled.")).to_be_visible()
    expect(upcoming).to_contain_text("No upcoming meetings.")
    expect(page.get_by_test_id("past-meetings").get_by_test_id("meeting-card").first).to_contain_text(
        "Patient Portal Sprint Review"
    )
    expect(page.get_by_test_id("past-meetings")).to_contain_text("cancelled")

    # Booking view and back.
    page.get_by_role("button", name="Book New Meeting").click()
    expect(page.get_by_test_id("meeting-type-card")).to_have_count(3)
    expect(page.get_by_text("1-on-1").first).to_be_visible()
    # Without Calendly the cards book in-app on /book-meeting, as the signed-in client.
    expect(page.get_by_role("link", name="Book Meeting").first).to_have_attribute(
        "href", re.compile(r"/book-meeting\?type=")
    )
    page.get_by_role("button", name="Back to Meetings").click()
    expect(page.get_by_role("heading", name="Upcoming Meetings")).to_be_visible()

    # Profile: a bad phone shows the service's message; a good one is saved and still there after a reload.
    open_tab(page, "Profile")
    details = page.get_by_test_id("profile-details")
    expect(details).to_contain_text("client@example.com")
    page.get_by_role("button", name="Edit Profile").click()
    expect(page.get_by_text("Email cannot be changed")).to_be_visible()
    page.get_by_label("Phone").fill("12-ab")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_text("Please enter a valid phone number").first).to_be_visible()
    page.get_by_label("Phone").fill("  (772) 555-0199  ")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_text("Your profile has been updated successfully.").first).to_be_visible()
    expect(details).to_contain_text("(772) 555-0199")
    page.reload()
    open_tab(page, "Profile")
    expect(page.get_by_test_id("profile-details")).to_contain_text("(772) 555-0199")

    page.wait_for_timeout(300)
    assert errors == []


def test_client_cancels_a_project_after_confirming(server: Server, page: Page, db: Session) -> None:
    errors = track_errors(page)
    sign_in(page, server, db, "democlient")
    page.goto(server.url + PORTAL)
    card = page.get_by_test_id("project-card").filter(has_text="Practice Analytics Dashboard")
    card.get_by_role("button", name="Cancel Project").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading", name="Cancel Project")).to_be_visible()
    dialog.get_by_role("button", name="No, Keep Project").click()
    expect(card).to_contain_text("planning")
    card.get_by_role("button", name="Cancel Project").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, Cancel Project").click()
    expect(page.get_by_text("Practice Analytics Dashboard has been cancelled.")).to_be_visible()
    expect(card).to_contain_text("cancelled")
    expect(card.get_by_role("button", name="Cancel Project")).to_have_count(0)
    page.reload()
    expect(page.get_by_test_id("project-card").filter(has_text="Practice Analytics Dashboard")).to_contain_text(
        "cancelled"
    )
    assert errors == []


def test_another_client_sees_none_of_the_demo_clients_records(server: Server, page: Page, db: Session) -> None:
    errors = track_errors(page)
    f.user(db, "otherclient", first_name="Olivia", role=Role.client)
    sign_in(page, server, db, "otherclient")
    page.goto(server.url + PORTAL)
    expect(page.get_by_role("heading", name="Welcome back, Olivia!")).to_be_visible()
    expect(page.get_by_test_id("portal-company")).to_have_text("Individual")
    expect(page.get_by_text("No projects found.")).to_be_visible()
    # The empty states' "Contact us" is a real link to the contact page (issue 26, point 10).
    expect(page.get_by_role("link", name="Contact us to start your first project")).to_have_attribute(
        "href", "/contact"
    )
    expect(page.get_by_test_id("portal-summary").get_by_role("link", name="Contact us")).to_have_attribute(
        "href", "/contact"
    )
    expect(page.get_by_test_id("project-card")).to_have_count(0)
    open_tab(page, "Invoices")
    expect(page.get_by_text("No invoices found.")).to_be_visible()
    open_tab(page, "Meetings")
    expect(page.get_by_text("No upcoming meetings.")).to_be_visible()
    for secret in ("Patient Portal", "Harbor Dental", "INV-2026", "Dana"):
        expect(page.get_by_text(secret)).to_have_count(0)
    # The demo client's invoice PDF is refused to this client (404, never the record).
    response = page.request.get(server.url + "/api/protected/invoices/1/download")
    assert response.status == 404
    assert errors == []


def test_data_export_downloads_the_clients_own_json(server: Server, page: Page, db: Session) -> None:
    sign_in(page, server, db, "democlient")
    page.goto(server.url + PORTAL)
    open_tab(page, "Settings")
    expect(page.get_by_label("Username")).to_have_value("democlient")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download my data").click()
    download = info.value
    assert download.suggested_filename == "my-data.json"
    data = json.loads(Path(download.path()).read_text())
    assert data["profile"]["username"] == "democlient"
    assert {p["name"] for p in data["projects"]} >= {"Patient Portal & Online Booking"}


def fill_passwords(page: Page, current: str, new: str, confirm: str) -> None:
    page.get_by_label("Current Password").fill(current)
    page.get_by_label("New Password", exact=True).fill(new)
    page.get_by_label("Confirm New Password").fill(confirm)
    page.get_by_role("button", name="Change Password").click()


def test_password_change_keeps_this_session_and_ends_the_others(server: Server, page: Page, db: Session) -> None:
    errors = track_errors(page)
    user = db.exec(select(User).where(User.username == "democlient")).one()
    other_device = sessions.start(db, user).access_token
    sign_in(page, server, db, "democlient")
    page.goto(server.url + PORTAL)
    open_tab(page, "Settings")
    fill_passwords(page, "wrong-password", "Another-pass-2026", "Different-pass-2026")
    expect(page.get_by_text("New password and confirmation do not match").first).to_be_visible()
    # A refusal keeps what was typed (issue 26: a mismatch wiped all three); the passwords never enter the state.
    expect(page.get_by_label("Current Password")).to_have_value("wrong-password")
    expect(page.get_by_label("New Password", exact=True)).to_have_value("Another-pass-2026")
    fill_passwords(page, "wrong-password", "Another-pass-2026", "Another-pass-2026")
    expect(page.get_by_text("Current password is incorrect").first).to_be_visible()
    fill_passwords(page, "Client-demo-2026", "Another-pass-2026", "Another-pass-2026")
    expect(page.get_by_text("Password changed successfully!").first).to_be_visible()
    expect(page.get_by_label("Current Password")).to_have_value("")  # done: nothing typed stays in the page
    other = httpx.get(server.url + "/api/protected/projects", cookies={"access_token": other_device})
    assert other.status_code == 401
    page.reload()
    expect(page.get_by_role("heading", name="Welcome back, Dana!")).to_be_visible()
    assert errors == []


def test_welcome_dialog_and_address_cleanup(server: Server, page: Page, db: Session) -> None:
    errors = track_errors(page)
    sign_in(page, server, db, "democlient")
    page.goto(server.url + PORTAL + "?welcome=true")
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Welcome to Your Account!")).to_be_visible()
    expect(dialog).to_contain_text("Your email has been verified successfully")
    page.wait_for_url(server.url + PORTAL)
    dialog.get_by_role("button", name="Get Started").click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert page.url == server.url + PORTAL
    assert errors == []


def test_signed_out_visitor_is_asked_to_sign_in(server: Server, page: Page) -> None:
    page.goto(server.url + PORTAL)
    expect(page.get_by_role("button", name="Sign In")).to_be_visible()
    expect(page.get_by_role("link", name="Create one")).to_have_attribute("href", "/register")
    expect(page.get_by_test_id("portal-dashboard")).to_have_count(0)


def test_staff_are_sent_to_the_admin_dashboard(server: Server, page: Page, db: Session) -> None:
    sign_in(page, server, db, "admin")
    page.goto(server.url + PORTAL)
    page.wait_for_url(server.url + "/admin/dashboard")
    expect(page.get_by_test_id("portal-dashboard")).to_have_count(0)


def test_logout_is_a_form_post_that_ends_the_session(server: Server, page: Page, db: Session) -> None:
    sign_in(page, server, db, "democlient")
    page.goto(server.url + PORTAL)
    page.get_by_role("button", name="Logout").click()
    page.wait_for_url(re.compile(r"/client-portal/?(\?logged_out=1)?$"))
    page.goto(server.url + PORTAL)
    expect(page.get_by_role("button", name="Sign In")).to_be_visible()

"""Staff panel II in a real browser: projects with progress and milestones, invoices, meetings, applications and
analytics, each checked from the other side (the client's portal API, the database, the downloaded file)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import APIRequestContext, Browser, Page, expect
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.billing import Invoice
from app.models.careers import JobApplication
from app.models.enums import ApplicationStatus, InvoiceStatus
from app.models.inquiry import ContactInquiry
from app.models.project import Organization
from app.models.user import User
from app.services.accounts.users import create_user
from app.services.platform import files
from tests.e2e.conftest import Server, download_by_click
from tests.e2e.test_admin import _cookie_for, _toast, signed_in

pytestmark = pytest.mark.e2e

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:6]}"


CLIENT = "e2e_content_client"  # a client of these tests' own, so other journeys keep democlient's data as seeded


def _client_id(engine: Engine) -> str:
    with Session(engine, expire_on_commit=False) as s:
        user = s.exec(select(User).where(User.username == CLIENT)).first()
        if user is None:
            user = create_user(
                s, username=CLIENT, email=f"{CLIENT}@example.com", password="Content-client-1", first_name="Casey"
            )
        return str(user.id)


@contextmanager
def client_api(browser: Browser, server: Server, engine: Engine) -> Iterator[APIRequestContext]:
    """The client's own requests (their session cookie), as the portal makes them."""
    _client_id(engine)
    context = browser.new_context()
    context.add_cookies([_cookie_for(engine, server, CLIENT)])  # type: ignore[list-item]
    try:
        yield context.request
    finally:
        context.close()


def _open_content_tab(page: Page, server: Server, tab: str) -> None:
    page.goto(server.url + "/admin/content")
    expect(page.get_by_role("heading", name="Content Management")).to_be_visible()
    page.get_by_test_id(f"tab-{tab}").click()


def test_product_manager_creates_a_project_with_progress_and_milestones_the_client_sees(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    name = _unique("E2E Portal")
    client = _client_id(db_engine)
    with Session(db_engine) as s:
        manager = s.exec(select(User).where(User.username == "staff_product_manager")).one()
        manager_id, manager_name = str(manager.id), f"{manager.first_name} {manager.last_name}".strip()
    with signed_in(browser, server, db_engine, "staff_product_manager") as (page, errors):
        _open_content_tab(page, server, "projects")
        page.get_by_test_id("create-projects").click()
        dialog = page.get_by_role("dialog")
        dialog.locator("#project-name").fill(name)
        dialog.get_by_test_id("project-client-search").fill(CLIENT)  # the picker searches the server
        dialog.locator("#project-client").select_option(client)
        dialog.locator("#project-status").select_option("in_progress")
        dialog.locator("#project-type").select_option("consulting")
        dialog.locator("#project-manager").select_option(manager_id)  # told if the client cancels
        dialog.locator("#project-budget").fill("12500.50")
        dialog.locator("#project-progress").fill("40")
        dialog.locator("#project-start").fill("2026-01-05")
        dialog.locator("#project-estimated").fill("120")
        dialog.get_by_test_id("add-milestone").click()
        dialog.get_by_test_id("add-milestone").click()
        titles = dialog.get_by_test_id("milestone-title")
        expect(titles).to_have_count(2)
        titles.nth(0).fill("Discovery")
        titles.nth(1).fill("Launch")
        dialog.get_by_test_id("save-form").click()
        _toast(page, "Project created successfully")
        expect(dialog).to_be_hidden()
        card = page.get_by_test_id("project-card").filter(has_text=name)
        expect(card).to_contain_text("In Progress")
        expect(card).to_contain_text("$12,500.50")
        expect(card).to_contain_text("120h estimated")
        expect(card).to_contain_text("0h actual")
        expect(card).to_contain_text("40%")
        expect(card).to_contain_text(f"Manager: {manager_name or 'staff_product_manager'}")
        page.get_by_test_id("search-projects").fill("no-such-project-xyz")
        expect(page.get_by_text("No projects found matching your search.")).to_be_visible()
        assert errors == []

    with client_api(browser, server, db_engine) as api:
        data = api.get(server.url + "/api/protected/projects").json()["data"]
    project = next(p for p in data if p["name"] == name)
    assert project["progress_percentage"] == 40
    assert project["budget"] == "12500.50"
    assert [m["title"] for m in project["milestones"]] == ["Discovery", "Launch"]


def test_cfo_creates_and_issues_an_invoice_the_client_downloads(
    server: Server, browser: Browser, db_engine: Engine
) -> None:
    description = _unique("E2E retainer")
    client = _client_id(db_engine)
    with signed_in(browser, server, db_engine, "staff_cfo") as (page, errors):
        page.goto(server.url + "/admin/billing")
        expect(page.get_by_role("heading", name="Billing")).to_be_visible()
        page.get_by_test_id("create-invoice").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_test_id("invoice-client-search").fill(CLIENT)  # the picker searches the server
        dialog.locator("#invoice-client").select_option(client)
        dialog.locator("#invoice-description").fill(description)
        dialog.locator("#invoice-due").fill("2026-12-31")
        lines = dialog.get_by_test_id("line-row")
        expect(lines).to_have_count(2)
        lines.nth(0).get_by_test_id("line-description").fill("Consulting hours")
        lines.nth(0).get_by_test_id("line-quantity").fill("2")
        lines.nth(0).get_by_test_id("line-price").fill("150.00")
        lines.nth(1).get_by_test_id("line-description").fill("Hosting")
        lines.nth(1).get_by_test_id("line-price").fill("49.99")
        expect(dialog.get_by_test_id("invoice-preview-total")).to_have_text("$349.99")
        dialog.get_by_test_id("invoice-save").click()
        _toast(page, "Invoice created successfully")
        expect(dialog).to_be_hidden()
        row = page.get_by_test_id("invoice-row").filter(has_text=description)
        expect(row.get_by_test_id("invoice-status")).to_have_text("Draft")
        expect(row).to_contain_text("$349.99")
        row.get_by_test_id("invoice-issue").click()
        page.get_by_role("dialog").get_by_test_id("issue-confirm").click()  # issuing asks first: it mails the client
        _toast(page, "Invoice issued")
        expect(row.get_by_test_id("invoice-status")).to_have_text("Issued")
        # The row's PDF link, clicked: a download arrives and the billing page stays (it once showed the 404 page).
        name, pdf_bytes = download_by_click(page, row.get_by_test_id("invoice-pdf"))
        assert name.endswith(".pdf") and pdf_bytes.startswith(b"%PDF")
        expect(page.get_by_role("heading", name="Billing")).to_be_visible()
        assert errors == []

    with Session(db_engine) as s:
        invoice = s.exec(select(Invoice).where(Invoice.description == description)).one()
    assert invoice.status == InvoiceStatus.pending and str(invoice.total_amount) == "349.99"
    assert invoice.invoice_number.startswith(f"INV-{datetime.now(UTC).year}-")
    with client_api(browser, server, db_engine) as api:
        listed = api.get(server.url + "/api/protected/invoices").json()["data"]
        assert any(i["id"] == invoice.id for i in listed)
        pdf = api.get(server.url + f"/api/protected/invoices/{invoice.id}/download")
        assert pdf.status == 200 and pdf.body().startswith(b"%PDF")


def test_support_schedules_a_meeting_the_client_sees(server: Server, browser: Browser, db_engine: Engine) -> None:
    title = _unique("E2E kickoff")
    day = (datetime.now(UTC) + timedelta(days=3)).date().isoformat()
    client = _client_id(db_engine)  # exists before the page lists clients
    with signed_in(browser, server, db_engine, "staff_customer_support") as (page, errors):
        page.goto(server.url + "/admin/meetings")
        expect(page.get_by_role("heading", name="Meetings")).to_be_visible()
        page.get_by_test_id("create-meeting").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_test_id("meeting-client-search").fill(CLIENT)  # the picker searches the server
        dialog.locator("#meeting-client").select_option(client)
        dialog.locator("#meeting-title").fill(title)
        dialog.locator("#meeting-date").fill(day)
        dialog.locator("#meeting-time").fill("15:30")
        dialog.locator("#meeting-duration").fill("45")
        dialog.locator("#meeting-url").fill("https://meet.example.com/e2e")
        dialog.get_by_test_id("meeting-save").click()
        _toast(page, "Meeting scheduled")
        expect(dialog).to_be_hidden()
        row = page.get_by_test_id("meeting-row").filter(has_text=title)
        expect(row).to_contain_text(re.compile(r"3:30 PM E[SD]T"))  # typed and shown in the business zone
        expect(row).to_contain_text("Scheduled")
        assert errors == []

    with client_api(browser, server, db_engine) as api:
        upcoming = api.get(server.url + "/api/protected/meetings").json()["upcoming"]
    meeting = next(m for m in upcoming if m["title"] == title)
    start = datetime.fromisoformat(meeting["scheduled_at"]).astimezone(ZoneInfo("America/New_York"))
    assert (start.date().isoformat(), f"{start:%H:%M}") == (day, "15:30")
    assert meeting["duration_minutes"] == 45


def _server_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # The server fixture's DATA_DIR is the session's e2e-data folder (see conftest.server).
    found = sorted(tmp_path_factory.getbasetemp().glob("e2e-data*"))
    assert found, "the server's data folder was not found"
    return found[0]


def test_hr_moves_an_application_to_reviewing_and_downloads_the_cv(
    server: Server, browser: Browser, db_engine: Engine, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cfg = settings.model_copy(update={"data_dir": _server_data_dir(tmp_path_factory)})
    stored = files.store("cv.pdf", PDF, field="resume", cfg=cfg)
    last = uuid.uuid4().hex[:6]
    with Session(db_engine, expire_on_commit=False) as s:
        application = JobApplication(
            job_code="E2E-1",
            first_name="Robin",
            last_name=f"Applicant{last}",
            email=f"robin{last}@example.com",
            phone="+1 555 0100",
            resume_path=stored.name,
            resume_filename=stored.filename,
            resume_content_type=stored.content_type,
        )
        s.add(application)
        s.commit()
    with signed_in(browser, server, db_engine, "staff_hr") as (page, errors):
        page.goto(server.url + "/admin/applications")
        row = page.get_by_test_id("application-row").filter(has_text=f"Applicant{last}")
        expect(row.get_by_test_id("application-status")).to_have_text("New")
        row.get_by_role("button").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_test_id("move-reviewing").click()
        _toast(page, "Application updated successfully")
        expect(row.get_by_test_id("application-status")).to_have_text("Reviewing")
        # Clicked as a person does: the CV arrives as a download and the dialog stays (it once showed the 404 page).
        name, cv = download_by_click(page, dialog.get_by_test_id("cv-link"))
        assert name == "cv.pdf" and cv == PDF
        expect(dialog).to_be_visible()
        assert errors == []
    with Session(db_engine) as s:
        assert s.get(JobApplication, application.id).status == ApplicationStatus.reviewing  # type: ignore[union-attr]


def test_analytics_counts_a_new_inquiry(server: Server, browser: Browser, db_engine: Engine) -> None:
    with Session(db_engine) as s:
        s.add(
            ContactInquiry(
                name="Analytics Probe",
                email=f"probe{uuid.uuid4().hex[:6]}@example.com",
                message="Counting test",
                service_type="database-design",
            )
        )
        s.commit()
        since = datetime.now(UTC) - timedelta(days=91)
        total = s.exec(
            select(func.count())
            .select_from(ContactInquiry)
            .where(col(ContactInquiry.is_spam).is_(False), col(ContactInquiry.created_at) >= since)
        ).one()
    with signed_in(browser, server, db_engine, "admin") as (page, errors):
        page.goto(server.url + "/admin/analytics")
        expect(page.get_by_test_id("figure-inquiries")).to_have_text(str(total))
        expect(page.get_by_text("Inquiries per week by status")).to_be_visible()
        assert errors == []


def test_developer_reads_content_without_write_buttons(server: Server, browser: Browser, db_engine: Engine) -> None:
    with signed_in(browser, server, db_engine, "staff_developer") as (page, errors):
        _open_content_tab(page, server, "organizations")
        expect(page.get_by_test_id("organization-card").first).to_be_visible()
        expect(page.get_by_test_id("create-organizations")).to_have_count(0)
        expect(page.get_by_test_id("edit-button")).to_have_count(0)
        page.get_by_test_id("tab-projects").click()
        expect(page.get_by_test_id("project-card").first).to_be_visible()
        expect(page.get_by_test_id("create-projects")).to_have_count(0)
        expect(page.get_by_test_id("delete-button")).to_have_count(0)
        # Products are not content (ADR 0090): no tab, and no link for a developer without products:read.
        expect(page.get_by_test_id("tab-products")).to_have_count(0)
        expect(page.get_by_test_id("content-products-link")).to_have_count(0)
        page.get_by_test_id("tab-site").click()
        expect(page.get_by_test_id("site-row").first).to_be_visible()
        expect(page.get_by_test_id("site-create")).to_have_count(0)
        expect(page.get_by_test_id("site-edit")).to_have_count(0)
        page.goto(server.url + "/admin/billing")
        expect(page.get_by_test_id("access-restricted")).to_be_visible()
        assert errors == []


def test_marketing_lead_creates_an_organization(server: Server, browser: Browser, db_engine: Engine) -> None:
    name = _unique("E2E Dental")
    with signed_in(browser, server, db_engine, "staff_marketing_lead") as (page, errors):
        _open_content_tab(page, server, "organizations")
        page.get_by_test_id("create-organizations").click()
        dialog = page.get_by_role("dialog")
        dialog.locator("#org-name").fill(name)
        dialog.locator("#org-industry").fill("Healthcare")
        dialog.locator("#org-website").fill("ftp://not-a-site")
        dialog.locator("#org-size").select_option("small")
        dialog.get_by_test_id("save-form").click()
        expect(dialog.get_by_role("alert").first).to_contain_text("Website")  # refused by the server, dialog open
        dialog.locator("#org-website").fill("https://dental.example.com")
        dialog.get_by_test_id("save-form").click()
        _toast(page, "Organization created successfully")
        expect(dialog).to_be_hidden()
        card = page.get_by_test_id("organization-card").filter(has_text=name)
        expect(card).to_contain_text("Healthcare")
        expect(card).to_contain_text("Small company")
        assert errors == []
    with Session(db_engine) as s:
        org = s.exec(select(Organization).where(Organization.name == name)).one()
    assert org.website == "https://dental.example.com"


def test_marketing_lead_edits_the_public_services(server: Server, browser: Browser, db_engine: Engine) -> None:
    title = _unique("E2E Data Engineering")
    slug = title.lower().replace(" ", "-")
    with signed_in(browser, server, db_engine, "staff_marketing_lead") as (page, errors):
        _open_content_tab(page, server, "site")
        expect(page.get_by_test_id("site-kind-services")).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_test_id("site-row").first).to_be_visible()
        page.get_by_test_id("site-create").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading", name="Add Service")).to_be_visible()
        dialog.locator("#site-title").fill(title)
        dialog.locator("#site-slug").fill("Not A Slug")
        dialog.locator("#site-icon").select_option("cloud")
        dialog.locator("#site-description").fill("Pipelines, warehouses and dashboards that stay correct.")
        dialog.locator("#site-features").fill("ETL pipelines\nData warehouses\n\nStreaming")
        dialog.get_by_test_id("site-save").click()
        expect(dialog).to_contain_text("Slug may contain only lowercase letters, digits and single hyphens")
        dialog.locator("#site-slug").fill(slug)
        dialog.get_by_test_id("site-save").click()
        _toast(page, "Service created successfully")
        expect(dialog).to_be_hidden()
        row = page.get_by_test_id("site-row").filter(has_text=title)
        expect(row).to_contain_text("Shown")
        # The notices (the refused slug's, then the success) go by themselves within their 5 s (ADR 0083).
        expect(page.locator("[data-sonner-toast]")).to_have_count(0, timeout=12_000)

        public = page.context.new_page()
        public.goto(server.url + "/services/")
        card = public.locator("[data-service-card]").filter(has=public.get_by_role("heading", name=title))
        expect(card).to_contain_text("Data warehouses")
        public.close()

        row.get_by_test_id("site-edit").click()
        expect(dialog.locator("#site-features")).to_have_value("ETL pipelines\nData warehouses\nStreaming")
        dialog.locator("#site-is_active").uncheck()
        dialog.get_by_test_id("site-save").click()
        _toast(page, "Service updated successfully")
        expect(row).to_contain_text("Hidden")
        assert errors == []

    with signed_in(browser, server, db_engine, None) as (page, errors):
        page.goto(server.url + "/services/")
        expect(page.get_by_role("heading", name="BI Reports")).to_be_visible()
        expect(page.get_by_role("heading", name=title)).to_have_count(0)

"""Invoice to cash in a real browser (issue 25): an overdue, partly paid invoice as the client's portal card and the
staff list show it (badge, paid, balance due, bank-transfer instructions), the staff list's Overdue filter and the
reminders switch, and the issued mail with its PDF delivered by the server's own outbox loop over SMTP.

Screenshots at 1280 and 390 px go to the test's temporary folder (their paths are printed) for a look.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models.billing import Invoice
from app.models.user import User
from app.services.accounts import sessions
from app.services.billing import billing, invoices
from app.services.platform import company
from tests import factories as f
from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e

BANK = "E2E Bank\nIBAN GB33 BUKB 2020 1555 5555 55"
SIZES = {"desktop": (1280, 900), "mobile": (390, 844)}


@pytest.fixture(scope="module")
def db(server: Server) -> Iterator[Session]:
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as s:
        yield s
    engine.dispose()


@pytest.fixture(scope="module")
def overdue(db: Session) -> Iterator[tuple[User, Invoice]]:
    """A client of their own with an issued invoice, due three business days ago and partly paid; the company's bank
    instructions set meanwhile (and cleared afterwards, as the demo content has none)."""
    admin = db.exec(select(User).where(User.username == "admin")).one()
    cfo = db.exec(select(User).where(User.username == "staff_cfo")).one()
    company.update(db, actor=admin, data={"bank_instructions": BANK})
    client = f.user(db, "e2e_overdue", first_name="Olive", last_name="Overdue")
    due = invoices.business_today() - timedelta(days=3)
    data = {
        "client_id": str(client.id),
        "due_date": due.isoformat(),
        "items": [{"description": "Support retainer", "quantity": 1, "unit_price": "900.00"}],
    }
    invoice_id = int(billing.create_invoice(db, actor=cfo, data=data).id)
    billing.issue_invoice(db, actor=cfo, invoice_id=invoice_id)
    billing.record_payment(db, actor=cfo, invoice_id=invoice_id, data={"amount": "250.00"})
    invoice = db.get(Invoice, invoice_id)
    assert invoice is not None
    yield client, invoice
    company.update(db, actor=admin, data={"bank_instructions": ""})


def _signed_in(browser: Browser, server: Server, db: Session, user: User, size: tuple[int, int]) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    token = sessions.start(db, user).access_token
    context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
    return context.new_page()


def _shot(page: Page, folder: Path, name: str) -> None:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")  # noqa: T201 (for the person running the test)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} overflows by {overflow} px"


def test_the_portal_card_shows_overdue_paid_balance_and_bank_details(
    server: Server, browser: Browser, db: Session, overdue: tuple[User, Invoice], tmp_path: Path
) -> None:
    client, invoice = overdue
    for label, size in SIZES.items():
        page = _signed_in(browser, server, db, client, size)
        page.goto(server.url + "/client-portal?tab=invoices")  # the mails' link opens the invoices tab
        expect(page.get_by_role("tab", name="Invoices")).to_have_attribute("aria-selected", "true")
        card = page.get_by_test_id("invoice-card").filter(has_text=invoice.invoice_number)
        expect(card).to_contain_text("Overdue")
        expect(card).to_contain_text("$900.00")
        expect(card).to_contain_text("$250.00")
        expect(card).to_contain_text("Balance due")
        expect(card).to_contain_text("$650.00")
        bank = card.get_by_test_id("invoice-bank")
        expect(bank).to_contain_text("IBAN GB33 BUKB 2020 1555 5555 55")
        expect(bank).to_contain_text(f"Reference: {invoice.invoice_number}")
        _shot(page, tmp_path, f"portal-{label}")
        page.context.close()


def test_the_staff_list_filters_overdue_and_switches_reminders(
    server: Server, browser: Browser, db: Session, overdue: tuple[User, Invoice], tmp_path: Path
) -> None:
    _client, invoice = overdue
    cfo = db.exec(select(User).where(User.username == "staff_cfo")).one()
    overdue_total = billing.list_invoices(db, actor=cfo, overdue=True).total
    assert 1 <= overdue_total <= 25  # one page
    for label, size in SIZES.items():
        page = _signed_in(browser, server, db, cfo, size)
        page.goto(server.url + "/admin/billing")
        expect(page.get_by_test_id("invoice-row").first).to_be_visible()
        page.get_by_label("Due date").select_option("overdue")
        row = page.get_by_test_id("invoice-row").filter(has_text=invoice.invoice_number)
        expect(row).to_be_visible()
        expect(row.get_by_test_id("invoice-overdue")).to_have_text("Overdue")
        expect(row.get_by_test_id("invoice-paid")).to_contain_text("$250.00")
        expect(row).to_contain_text("$650.00")
        # Only overdue invoices are listed: every row has the badge (the e2e database may hold others of its own).
        expect(page.get_by_test_id("invoice-row")).to_have_count(overdue_total)
        expect(page.get_by_test_id("invoice-overdue")).to_have_count(overdue_total)
        _shot(page, tmp_path, f"billing-{label}")
        page.context.close()

    page = _signed_in(browser, server, db, cfo, SIZES["desktop"])
    page.goto(server.url + "/admin/billing")
    page.get_by_placeholder("Search invoices…").fill(invoice.invoice_number)
    row = page.get_by_test_id("invoice-row").filter(has_text=invoice.invoice_number)
    switch = row.get_by_role("switch", name=f"Overdue reminders for {invoice.invoice_number}")
    expect(switch).to_have_attribute("aria-checked", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "false")
    db.expire_all()
    stored = db.get(Invoice, invoice.id)
    assert stored is not None and stored.reminders_enabled is False
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    page.context.close()


def test_the_issued_mail_arrives_with_its_pdf(server: Server, overdue: tuple[User, Invoice]) -> None:
    client, invoice = overdue
    deadline = time.monotonic() + 30
    found: EmailMessage | None = None
    while found is None and time.monotonic() < deadline:
        found = next(
            (m for m in server.mail.messages if m["To"] == client.email and m["Subject"].startswith("Invoice ")), None
        )
        time.sleep(0.5)
    assert found is not None, "the issued mail was not delivered"
    [pdf] = [p for p in found.iter_attachments() if p.get_content_type() == "application/pdf"]
    assert pdf.get_filename() == f"invoice-{invoice.invoice_number}.pdf"
    assert pdf.get_content().startswith(b"%PDF")

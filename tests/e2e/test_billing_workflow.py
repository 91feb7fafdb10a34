"""The staff's invoice workflow in a real browser, as a person clicks through it: the confirmation before issuing
(Cancel changes nothing), and the invoice detail at 1280 and 390 px (edit the draft, issue it, void it with a reason),
each step checked in the database and the client's mail; no part of the detail scrolls sideways on a phone.

Screenshots go to E2E_SCREENSHOTS when set (a folder), else to the test's temporary folder.
"""

from __future__ import annotations

import os
import time
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models.base import utcnow
from app.models.billing import Invoice, Payment
from app.models.enums import InvoiceStatus, PaymentStatus
from app.models.user import User
from app.services.accounts.users import create_user
from app.services.billing import billing
from tests.e2e.axe import axe_source, page_problems
from tests.e2e.conftest import Server
from tests.e2e.test_admin import DESKTOP, MOBILE, _toast, signed_in

pytestmark = pytest.mark.e2e

CLIENT = "e2e_workflow_client"  # this module's own client: other journeys keep the seeded clients' data
CLERK = "staff_cfo"  # the demo's CFO: writes billing


def _client(engine: Engine) -> User:
    with Session(engine, expire_on_commit=False) as s:
        user = s.exec(select(User).where(User.username == CLIENT)).first()
        return user or create_user(
            s, username=CLIENT, email=f"{CLIENT}@example.com", password="Workflow-client-1", first_name="Wren"
        )


def _draft(engine: Engine, description: str) -> Invoice:
    """A draft of two lines for this module's client, made as the clerk makes one (the service)."""
    client = _client(engine)
    with Session(engine, expire_on_commit=False) as s:
        clerk = s.exec(select(User).where(User.username == CLERK)).one()
        items = [
            {"description": "Discovery workshop", "quantity": 1, "unit_price": "400.00"},
            {"description": "Design hours", "quantity": 3, "unit_price": "120.00"},
        ]
        data = {"client_id": str(client.id), "description": description, "items": items}
        made = billing.create_invoice(s, actor=clerk, data=data)
        invoice = s.get(Invoice, made.id)
        assert invoice is not None
        return invoice


def _status(engine: Engine, invoice_id: int | None) -> InvoiceStatus:
    with Session(engine) as s:
        invoice = s.get(Invoice, invoice_id)
        assert invoice is not None
        return invoice.status


def _mail_saying(server: Server, text: str, timeout_s: float = 30) -> str:
    """The plain text of a message to this module's client containing `text`, once the outbox has delivered it."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for msg in server.mail.messages:
            body = msg.get_body(preferencelist=("plain",))
            content = body.get_content() if body is not None else ""
            if msg["To"] == f"{CLIENT}@example.com" and text in content:
                return content
        time.sleep(0.5)
    pytest.fail(f"no e-mail saying {text!r} within {timeout_s} s")


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _find_row(page: Page, server: Server, number: str) -> Locator:
    page.goto(server.url + "/admin/billing")
    expect(page.get_by_role("heading", name="Billing")).to_be_visible()
    page.get_by_role("searchbox", name="Search invoices").fill(number)
    rows = page.get_by_test_id("invoice-row")
    expect(rows).to_have_count(1)
    return rows.filter(has_text=number)


def _fits(page: Page, dialog: Locator, width: int) -> None:
    """Nothing scrolls sideways: not the page, not the dialog, and every action button lies within the screen."""
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert dialog.evaluate("el => el.scrollWidth <= el.clientWidth"), "the dialog scrolls sideways"
    for button in dialog.get_by_test_id("detail-actions").locator("button, a").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, button.inner_text()


def test_issuing_asks_first_and_cancel_changes_nothing(
    server: Server, browser: Browser, db_engine: Engine, tmp_path: Path
) -> None:
    invoice = _draft(db_engine, f"E2E confirm {uuid.uuid4().hex[:6]}")
    shots = _shots(tmp_path)
    with signed_in(browser, server, db_engine, CLERK) as (page, errors):
        row = _find_row(page, server, invoice.invoice_number)
        expect(row.get_by_test_id("invoice-status")).to_have_text("Draft")

        row.get_by_test_id("invoice-issue").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text(f"Issue invoice {invoice.invoice_number}? The client will be e-mailed.")
        expect(dialog.get_by_test_id("issue-to")).to_have_text(f"{CLIENT}@example.com")
        page.screenshot(path=str(shots / "issue-confirm-1280.png"))
        dialog.get_by_test_id("issue-cancel").click()
        expect(dialog).to_be_hidden()
        expect(row.get_by_test_id("invoice-status")).to_have_text("Draft")
        assert _status(db_engine, invoice.id) == InvoiceStatus.draft

        row.get_by_test_id("invoice-issue").click()
        page.get_by_role("dialog").get_by_test_id("issue-confirm").click()
        _toast(page, "Invoice issued")
        expect(row.get_by_test_id("invoice-status")).to_have_text("Issued")
        assert errors == []
    assert _status(db_engine, invoice.id) == InvoiceStatus.pending
    _mail_saying(server, f"Invoice {invoice.invoice_number} for $760.00 is ready.")


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280", "390"])
def test_a_clerk_works_an_invoice_through_its_detail(
    server: Server, browser: Browser, db_engine: Engine, tmp_path: Path, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    invoice = _draft(db_engine, f"E2E detail {uuid.uuid4().hex[:6]}")
    number = invoice.invoice_number
    shots = _shots(tmp_path)
    with signed_in(browser, server, db_engine, CLERK, viewport) as (page, errors):
        row = _find_row(page, server, number)
        page.screenshot(path=str(shots / f"list-{width}.png"))
        row.get_by_test_id("invoice-open").click()
        dialog = page.get_by_test_id("invoice-detail")
        expect(dialog).to_be_visible()
        expect(page.get_by_test_id("detail-status")).to_have_text("Draft")
        expect(dialog.get_by_test_id("detail-line")).to_have_count(2)
        expect(dialog.get_by_test_id("detail-total")).to_have_text("$760.00")
        expect(dialog.get_by_test_id("detail-history")).to_contain_text("Created by staff_cfo")
        _fits(page, page.get_by_role("dialog"), width)
        page.screenshot(path=str(shots / f"detail-draft-{width}.png"), full_page=True)
        assert page_problems(page, f"invoice detail at {width} px", axe_source()) == []

        # Edit the draft: one more design hour; the server recomputes the total.
        dialog.get_by_test_id("detail-edit").click()
        edit = page.get_by_role("dialog")
        expect(edit).to_contain_text(f"Edit draft {number}")
        edit.get_by_test_id("line-row").nth(1).get_by_test_id("line-quantity").fill("4")
        expect(edit.get_by_test_id("invoice-preview-total")).to_have_text("$880.00")
        page.screenshot(path=str(shots / f"edit-{width}.png"))
        edit.get_by_test_id("edit-save").click()
        _toast(page, "Invoice updated")
        expect(dialog.get_by_test_id("detail-total")).to_have_text("$880.00")
        expect(dialog.get_by_test_id("detail-history")).to_contain_text("Draft edited")

        # Issue from the detail: asked first, then back to the detail, issued, with the mail listed.
        dialog.get_by_test_id("detail-issue").click()
        confirm = page.get_by_role("dialog")
        expect(confirm).to_contain_text(f"Issue invoice {number}? The client will be e-mailed.")
        confirm.get_by_test_id("issue-confirm").click()
        expect(page.get_by_test_id("detail-status")).to_have_text("Issued")
        expect(dialog.get_by_test_id("detail-mail")).to_have_count(1)
        expect(dialog.get_by_test_id("detail-mail")).to_contain_text(f"Invoice {number} from")
        _fits(page, page.get_by_role("dialog"), width)

        # Void it: the browser asks for a reason; the reason shows in the detail, payment is no longer offered.
        dialog.get_by_test_id("detail-void").click()
        void = page.get_by_role("dialog")
        expect(void).to_contain_text(f"Void invoice {number}")
        void.get_by_test_id("void-save").click()  # no reason: the required field stops the form
        expect(void.locator("#void-reason")).to_be_focused()
        void.locator("#void-reason").fill("Sent to the wrong client")
        page.screenshot(path=str(shots / f"void-{width}.png"))
        void.get_by_test_id("void-save").click()
        _toast(page, "Invoice voided")
        expect(page.get_by_test_id("detail-status")).to_have_text("Void")
        expect(dialog.get_by_test_id("detail-void-reason")).to_have_text("Sent to the wrong client")
        expect(dialog.get_by_test_id("detail-pay")).to_have_count(0)
        expect(dialog.get_by_test_id("detail-mail")).to_have_count(2)
        _fits(page, page.get_by_role("dialog"), width)
        page.screenshot(path=str(shots / f"detail-void-{width}.png"), full_page=True)
        # The toasts fade out first: axe would judge their colours mid-animation, and they are not the detail's.
        expect(page.locator("[data-sonner-toast]")).to_have_count(0, timeout=20_000)
        assert page_problems(page, f"void invoice detail at {width} px", axe_source()) == []

        dialog.get_by_role("button", name="Close").click()
        expect(dialog).to_be_hidden()
        expect(row.get_by_test_id("invoice-status")).to_have_text("Void")
        assert errors == []
    with Session(db_engine) as s:
        stored = s.get(Invoice, invoice.id)
        assert stored is not None
        assert (stored.status, stored.void_reason, str(stored.total_amount)) == (
            InvoiceStatus.void,
            "Sent to the wrong client",
            "880.00",
        )
    assert "Reason: Sent to the wrong client" in _mail_saying(server, f"Invoice {number} for $880.00 has been voided")

    # The client sees it as void in the portal, on the same screen size.
    with signed_in(browser, server, db_engine, CLIENT, viewport) as (page, errors):
        page.goto(server.url + "/client-portal")
        page.get_by_role("tab", name="Invoices").click()
        card = page.get_by_test_id("invoice-card").filter(has_text=number)
        expect(card).to_contain_text("void")
        assert "Void" in card.inner_text()  # the badge capitalises its status, as the portal's badges all do
        card.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"portal-void-{width}.png"))
        assert errors == []


def test_a_partly_paid_invoice_shows_its_payments_and_why_it_cannot_be_voided(
    server: Server, browser: Browser, db_engine: Engine, tmp_path: Path
) -> None:
    invoice = _draft(db_engine, f"E2E paid {uuid.uuid4().hex[:6]}")
    with Session(db_engine) as s:
        clerk = s.exec(select(User).where(User.username == CLERK)).one()
        billing.issue_invoice(s, actor=clerk, invoice_id=invoice.id or 0)
        billing.record_payment(s, actor=clerk, invoice_id=invoice.id or 0, data={"amount": "300", "method": "Cheque"})
        # A card payment as the Stripe webhook records one (its reference is long and must wrap on a phone).
        card = Payment(
            invoice_id=invoice.id,
            amount=Decimal("60.00"),
            payment_method="card",
            stripe_payment_intent_id="pi_3QxY7zLkdIwHu7ix0Abcdefgh1234567",
            status=PaymentStatus.succeeded,
            processed_at=utcnow(),
        )
        s.add(card)
        s.commit()
    shots = _shots(tmp_path)
    with signed_in(browser, server, db_engine, CLERK, MOBILE) as (page, errors):
        _find_row(page, server, invoice.invoice_number).get_by_test_id("invoice-open").click()
        dialog = page.get_by_test_id("invoice-detail")
        expect(dialog.get_by_test_id("detail-payment")).to_have_count(2)
        expect(dialog.get_by_test_id("detail-payment").nth(1)).to_contain_text("pi_3QxY7zLkdIwHu7ix0Abcdefgh1234567")
        expect(dialog.get_by_test_id("detail-balance")).to_have_text("$400.00")
        expect(dialog.get_by_test_id("detail-void")).to_have_count(0)
        expect(dialog.get_by_test_id("detail-void-refusal")).to_have_text(
            f"$360.00 has been paid on {invoice.invoice_number}: refund the payments first, then void it."
        )
        expect(dialog.get_by_test_id("detail-history")).to_contain_text("Payment recorded")
        _fits(page, page.get_by_role("dialog"), MOBILE["width"])
        dialog.get_by_test_id("detail-payments").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "detail-payments-390.png"))
        assert errors == []

"""A client pays an invoice by card in a real browser: Pay now, Stripe's Checkout page (the stand-in, reached through
the real SDK), Pay, back on the portal ("Payment processing"), and "Paid" once Stripe's signed webhook has arrived,
without a reload."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, col, delete, select

from app.core.db import make_engine
from app.models.billing import Invoice, InvoiceItem, Payment, StripeEvent
from app.models.enums import InvoiceStatus, PaymentStatus
from app.models.user import User
from app.services.accounts import sessions
from app.services.billing import billing
from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e


@pytest.fixture
def invoice(server: Server) -> Iterator[tuple[int, str]]:
    """An issued invoice of $240.00 for the demo client (the demo invoices stay as seeded), removed afterwards."""
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as s:
        admin = s.exec(select(User).where(User.username == "admin")).one()
        client = s.exec(select(User).where(User.username == "democlient")).one()
        data = {"client_id": str(client.id), "items": [{"description": "Support", "quantity": 2, "unit_price": "120"}]}
        created = billing.create_invoice(s, actor=admin, data=data)
        billing.issue_invoice(s, actor=admin, invoice_id=created.id)
    yield created.id, created.invoice_number
    with Session(engine) as s:
        for model in (StripeEvent, Payment, InvoiceItem):
            s.exec(delete(model).where(col(model.invoice_id) == created.id))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id) == created.id))  # type: ignore[call-overload]
        s.commit()
    engine.dispose()


def test_a_client_pays_an_invoice_by_card(
    server: Server, page: Page, invoice: tuple[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    invoice_id, number = invoice
    # Stripe's event comes a while after the payer is sent back: long enough to see the portal wait for it.
    monkeypatch.setattr(server.stripe, "webhook_delay", 8.0)
    # Signed in as the sign-in form would (other tests change the demo client's password).
    engine = make_engine(server.database_url)
    with Session(engine) as s:
        client = s.exec(select(User).where(User.username == "democlient")).one()
        token = sessions.start(s, client).access_token
    page.context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
    page.goto(server.url + "/client-portal")
    page.get_by_role("tab", name="Invoices").click()
    card = page.get_by_test_id("invoice-card").filter(has_text=number)
    expect(card).to_contain_text("pending")
    card.get_by_role("button", name=f"Pay now: invoice {number} by card ($240.00)").click()

    # Stripe's page (the stand-in's): the invoice number as the line, the amount owed.
    expect(page).to_have_url(re.compile(re.escape(server.stripe.url) + r"/pay/cs_test_\w+"))
    expect(page.get_by_role("heading", name=number)).to_be_visible()
    expect(page.get_by_text("240.00 USD")).to_be_visible()
    page.get_by_role("button", name="Pay", exact=True).click()

    # Back on the portal's invoices tab: processing until the webhook (sent 8 s later) marks it paid.
    expect(page).to_have_url(re.compile(r"/client-portal/?\?tab=invoices&checkout=cs_test_\w+"))
    expect(page.get_by_role("tab", name="Invoices")).to_have_attribute("aria-selected", "true")
    card = page.get_by_test_id("invoice-card").filter(has_text=number)
    expect(card.get_by_test_id("payment-processing").or_(card.get_by_text("paid", exact=True))).to_be_visible()
    expect(card.get_by_test_id("payment-processing")).to_be_visible()  # the webhook is still on its way
    expect(card.get_by_text("paid", exact=True)).to_be_visible(timeout=20_000)  # the tab looked again by itself
    expect(card.get_by_test_id("payment-processing")).to_have_count(0)
    expect(card.get_by_role("button", name=re.compile("^Pay now"))).to_have_count(0)

    with Session(engine) as s:
        [payment] = s.exec(select(Payment).where(Payment.invoice_id == invoice_id)).all()
        assert (payment.status, payment.payment_method, str(payment.amount)) == (
            PaymentStatus.succeeded,
            "card",
            "240.00",
        )
        assert payment.stripe_payment_intent_id and payment.stripe_payment_intent_id.startswith("pi_test_")
        assert s.get(Invoice, invoice_id).status == InvoiceStatus.paid  # type: ignore[union-attr]
    engine.dispose()
    assert [status for _, status in server.stripe.deliveries][-1] == 200
    assert not page.console_errors  # type: ignore[attr-defined]

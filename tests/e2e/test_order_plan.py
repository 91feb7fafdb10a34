"""A client orders a monthly plan in a real browser: Services & plans, Subscribe, Stripe's Checkout page (the stand-in,
reached through the real SDK) in subscription mode, Pay, back on the portal's Plans tab ("Payment processing"), then
"paid" and "subscription active" once Stripe's signed webhooks have arrived, without a reload; the paid invoice for
the record is among the client's invoices."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, col, delete, select

from app.core.db import make_engine
from app.models.billing import Invoice, InvoiceItem, Payment, StripeEvent
from app.models.commerce import Order, OrderItem
from app.models.enums import InvoiceStatus, OrderStatus
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts import sessions
from tests.e2e.conftest import Server

pytestmark = pytest.mark.e2e

PLAN = "Website Care Plan"  # the demo catalogue's monthly plan, $149.00 / month


@pytest.fixture
def orders_removed(server: Server) -> Iterator[None]:
    """The demo client's orders, their payments and paid invoices are removed afterwards (the demo stays as seeded)."""
    before = len(server.stripe.events)
    yield
    event_ids = [e["id"] for e in server.stripe.events[before:]]
    engine = make_engine(server.database_url)
    with Session(engine) as s:
        client = s.exec(select(User).where(User.username == "democlient")).one()
        order_ids = list(s.exec(select(Order.id).where(Order.client_id == client.id)))
        invoice_ids = [i for i in s.exec(select(Payment.invoice_id).where(col(Payment.order_id).in_(order_ids))) if i]
        s.exec(delete(StripeEvent).where(col(StripeEvent.id).in_(event_ids)))  # type: ignore[call-overload]
        s.exec(delete(Payment).where(col(Payment.order_id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id).in_(invoice_ids)))  # type: ignore[call-overload]
        s.exec(delete(OrderItem).where(col(OrderItem.order_id).in_(order_ids)))  # type: ignore[call-overload]
        s.exec(delete(Order).where(col(Order.id).in_(order_ids)))  # type: ignore[call-overload]
        s.commit()
    engine.dispose()


def test_a_client_orders_a_monthly_plan(
    server: Server, page: Page, orders_removed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Stripe's events come a while after the payer is sent back: long enough to see the portal wait for them.
    monkeypatch.setattr(server.stripe, "webhook_delay", 6.0)
    engine = make_engine(server.database_url)
    with Session(engine) as s:  # signed in as the sign-in form would (other tests change the demo client's password)
        client = s.exec(select(User).where(User.username == "democlient")).one()
        token = sessions.start(s, client).access_token
    page.context.add_cookies([{"name": "access_token", "value": token, "url": server.url, "httpOnly": True}])
    page.goto(server.url + "/client-portal")
    page.get_by_role("tab", name="Plans").click()
    expect(page.get_by_role("heading", name="Services & plans")).to_be_visible()
    card = page.get_by_test_id("plan-card").filter(has_text=PLAN)
    expect(card.get_by_test_id("plan-price")).to_have_text("$149.00 / month")
    card.get_by_role("button", name="Subscribe").click()

    # Stripe's page (the stand-in's): the plan as the line, its monthly amount.
    expect(page).to_have_url(re.compile(re.escape(server.stripe.url) + r"/pay/cs_test_\w+"))
    expect(page.get_by_role("heading", name=PLAN)).to_be_visible()
    expect(page.get_by_text("149.00 USD")).to_be_visible()
    session_id = page.url.rsplit("/", 1)[1]
    assert server.stripe.sessions[session_id]["mode"] == "subscription"
    page.get_by_role("button", name="Pay", exact=True).click()

    # Back on the Plans tab: processing until the webhooks (sent 6 s later) mark the order paid.
    expect(page).to_have_url(re.compile(r"/client-portal/?\?tab=plans&ordered=cs_test_\w+"))
    expect(page.get_by_role("tab", name="Plans")).to_have_attribute("aria-selected", "true")
    order = page.get_by_test_id("order-card").filter(has_text=PLAN)
    expect(order.get_by_test_id("order-processing")).to_be_visible()
    expect(order.get_by_text("paid", exact=True)).to_be_visible(timeout=20_000)  # the tab looked again by itself
    expect(order.get_by_text("subscription active")).to_be_visible()
    expect(order.get_by_test_id("order-processing")).to_have_count(0)

    with Session(engine) as s:
        placed = s.exec(select(Order).where(Order.stripe_session_id == session_id)).one()
        assert (placed.status, placed.subscription_status) == (OrderStatus.completed, "active")
        [payment] = s.exec(select(Payment).where(Payment.order_id == placed.id)).all()
        invoice = s.get(Invoice, payment.invoice_id)
        assert invoice is not None and invoice.status == InvoiceStatus.paid and str(invoice.total_amount) == "149.00"
    engine.dispose()
    # Both of Stripe's reports of the first month arrived; one payment was recorded.
    assert sorted(e["type"] for e in server.stripe.events[-2:]) == ["checkout.session.completed", "invoice.paid"]

    # The paid invoice for the record is among the client's invoices.
    page.get_by_role("tab", name="Invoices").click()
    expect(page.get_by_test_id("invoice-card").filter(has_text=invoice.invoice_number)).to_contain_text("paid")
    assert not page.console_errors  # type: ignore[attr-defined]

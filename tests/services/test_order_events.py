"""Stripe's events about orders, applied once under the order's row lock (ADR 0082): a paid Checkout completes the
order with one card payment and a paid invoice; a subscription's renewals, failures and cancellation show on the
order; events about invoices are left to the invoice payments. Concurrent deliveries: test_order_races.py."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest
from sqlmodel import Session, col, select

from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.commerce import Order
from app.models.enums import BillingPeriod, EmployeeType, InvoiceStatus, OrderStatus, PaymentStatus, Role
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.billing import invoices, order_events, orders
from tests import factories as f
from tests.services.test_orders import plan

_ids = itertools.count(1)


@pytest.fixture
def client(session: Session) -> User:
    return f.user(session, "event_client")


@pytest.fixture
def clerk(session: Session) -> User:
    return f.user(session, "event_clerk", role=Role.employee, employee_type=EmployeeType.cfo)


def event(kind: str, obj: dict[str, Any], event_id: str | None = None) -> dict[str, Any]:
    return {"id": event_id or f"evt_test_{next(_ids)}", "type": kind, "data": {"object": obj}}


def session_paid(order: Order, *, subscription: str | None = None, stripe_invoice: str | None = None) -> dict:
    return event(
        "checkout.session.completed",
        {
            "id": f"cs_test_{order.id}",
            "object": "checkout.session",
            "mode": "subscription" if subscription else "payment",
            "payment_status": "paid",
            "status": "complete",
            "amount_total": int(order.total_amount * 100),
            "currency": "usd",
            "payment_intent": None if subscription else f"pi_test_{order.id}",
            "subscription": subscription,
            "invoice": stripe_invoice,
            "client_reference_id": str(order.id),
            "metadata": {"order_id": str(order.id), "order_number": order.order_number},
        },
    )


def stripe_invoice_paid(order: Order, sub: str, stripe_invoice: str, *, reason: str = "subscription_cycle") -> dict:
    return event(
        "invoice.paid",
        {
            "id": stripe_invoice,
            "object": "invoice",
            "billing_reason": reason,
            "amount_paid": int(order.total_amount * 100),
            "currency": "usd",
            "status": "paid",
            # Stripe's API since 2025-03: the subscription under parent.subscription_details
            "parent": {"subscription_details": {"subscription": sub, "metadata": {"order_id": str(order.id)}}},
            "lines": {"data": [{"period": {"start": 1798416000, "end": 1801094400}}]},
        },
    )


# --- Stripe's events --------------------------------------------------------------------------------------------


def _payments(s: Session, order: Order) -> list[Payment]:
    return list(s.exec(select(Payment).where(Payment.order_id == order.id).order_by(col(Payment.id))))


def test_a_paid_checkout_completes_the_order_once_with_a_paid_invoice(session: Session, client: User) -> None:
    price = plan(session, "Workshop", "1200.00")
    order = orders.place_order(session, actor=client, data={"price_id": price.id, "quantity": 2})
    paid = session_paid(order)

    assert order_events.apply_event(session, paid) == "applied"
    assert order_events.apply_event(session, paid) == "duplicate"  # Stripe's retry of the same event
    assert order_events.apply_event(session, {**paid, "id": "evt_other_delivery"}) == "duplicate"  # another report

    session.refresh(order)
    assert order.status == OrderStatus.completed and order.stripe_payment_intent_id == f"pi_test_{order.id}"
    [payment] = _payments(session, order)
    assert (payment.amount, payment.status, payment.payment_method) == (
        Decimal("2400.00"),
        PaymentStatus.succeeded,
        "card",
    )
    invoice = session.get(Invoice, payment.invoice_id)
    assert invoice is not None and invoice.status == InvoiceStatus.paid and invoice.client_id == client.id
    assert invoice.invoice_number.startswith("INV-") and invoice.total_amount == Decimal("2400.00")
    lines = session.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id)).all()
    assert [(i.description, i.quantity, i.amount) for i in lines] == [("Workshop", 2, Decimal("2400.00"))]
    # The client sees it among their invoices, and its PDF is theirs to download.
    assert invoice.id in [i.id for i in invoices.list_invoices(session, actor=client)]
    name, pdf = invoices.invoice_pdf(session, actor=client, invoice_id=int(invoice.id or 0))
    assert name == f"invoice-{invoice.invoice_number}.pdf" and "Workshop" in f.pdf_text(pdf)
    # The payment receipt is mailed to the client with the paid invoice's PDF, once.
    [receipt] = session.exec(select(EmailOutbox).where(EmailOutbox.invoice_id == invoice.id)).all()
    assert receipt.to_address == client.email and receipt.attachments[0]["content_type"] == "application/pdf"


def test_events_not_about_orders_are_left_to_the_invoice_payments(session: Session) -> None:
    invoice_session = {"id": "cs_x", "payment_status": "paid", "metadata": {"invoice_id": "5"}}
    assert order_events.apply_event(session, event("checkout.session.completed", invoice_session)) is None
    assert order_events.apply_event(session, event("charge.refunded", {"id": "ch_1"})) is None
    unpaid = {"id": "cs_y", "payment_status": "unpaid", "metadata": {"order_id": "7"}}
    assert order_events.apply_event(session, event("checkout.session.completed", unpaid)) == "ignored"


def test_an_abandoned_checkout_cancels_the_pending_order(session: Session, client: User) -> None:
    order = orders.place_order(session, actor=client, data={"price_id": plan(session, "Left", "5.00").id})
    expired = event("checkout.session.expired", {"id": "cs_e", "metadata": {"order_id": str(order.id)}})
    assert order_events.apply_event(session, expired) == "applied"
    session.refresh(order)
    assert order.status == OrderStatus.cancelled and _payments(session, order) == []


def test_a_subscription_renews_fails_and_is_cancelled(session: Session, client: User, clerk: User) -> None:
    price = plan(session, "Care", "149.00", BillingPeriod.monthly)
    order = orders.place_order(session, actor=client, data={"price_id": price.id})
    sub = f"sub_test_{order.id}"

    assert (
        order_events.apply_event(session, session_paid(order, subscription=sub, stripe_invoice="in_first")) == "applied"
    )
    # Stripe's own invoice.paid for the first period names the same Stripe invoice: nothing more is recorded.
    first = stripe_invoice_paid(order, sub, "in_first", reason="subscription_create")
    assert order_events.apply_event(session, first) == "duplicate"
    session.refresh(order)
    assert (order.status, order.stripe_subscription_id, order.subscription_status) == (
        OrderStatus.completed,
        sub,
        "active",
    )
    assert len(_payments(session, order)) == 1

    renewal = stripe_invoice_paid(order, sub, "in_second")
    assert order_events.apply_event(session, renewal) == "applied"
    assert order_events.apply_event(session, {**renewal, "id": "evt_again"}) == "duplicate"
    payments = _payments(session, order)
    assert [p.stripe_invoice_id for p in payments] == ["in_first", "in_second"]
    renewed = session.get(Invoice, payments[1].invoice_id)
    assert renewed is not None and renewed.status == InvoiceStatus.paid and renewed.description.endswith("renewal")
    [line] = session.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == renewed.id)).all()
    assert line.description.startswith("Care, monthly subscription (") and line.amount == Decimal("149.00")

    failed = event(
        "invoice.payment_failed", {"id": "in_third", "parent": {"subscription_details": {"subscription": sub}}}
    )
    assert order_events.apply_event(session, failed) == "applied"
    session.refresh(order)
    assert order.subscription_status == "past_due"
    assert order_events.apply_event(session, stripe_invoice_paid(order, sub, "in_third")) == "applied"  # a retry
    session.refresh(order)
    assert order.subscription_status == "active"

    deleted = event("customer.subscription.deleted", {"id": sub, "object": "subscription", "status": "canceled"})
    assert order_events.apply_event(session, deleted) == "applied"
    assert order_events.apply_event(session, {**deleted, "id": "evt_deleted_again"}) == "duplicate"
    session.refresh(order)
    assert order.subscription_status == "canceled" and len(_payments(session, order)) == 3
    # Staff and the client both see it.
    assert orders.list_orders(session, actor=clerk, search=order.order_number).data[0].subscription_status == "canceled"
    assert orders.list_my_orders(session, actor=client).data[0].subscription_status == "canceled"


def test_the_first_invoice_paid_may_overtake_the_checkout_completion(session: Session, client: User) -> None:
    order = orders.place_order(
        session, actor=client, data={"price_id": plan(session, "Early", "20.00", BillingPeriod.yearly).id}
    )
    sub = f"sub_early_{order.id}"
    first = stripe_invoice_paid(order, sub, "in_early", reason="subscription_create")
    assert order_events.apply_event(session, first) == "applied"
    assert (
        order_events.apply_event(session, session_paid(order, subscription=sub, stripe_invoice="in_early"))
        == "duplicate"
    )
    session.refresh(order)
    assert (order.status, order.subscription_status, order.stripe_session_id) == (
        OrderStatus.completed,
        "active",
        f"cs_test_{order.id}",
    )
    assert [p.stripe_invoice_id for p in _payments(session, order)] == ["in_early"]

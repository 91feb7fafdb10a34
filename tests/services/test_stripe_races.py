"""Stripe's webhook under real concurrency: deliveries in threads with their own sessions and connections, on
committed data, as several app processes receive them when Stripe retries or sends two events for one payment.

Every delivery locks the invoice's row, then checks the event id and the payment intent, so N deliveries of one
event record one payment, and two payments racing for one invoice never count more than its total (ADRs 0074, 0075).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, delete, select

from app.models.billing import Invoice, InvoiceItem, Payment, StripeEvent
from app.models.enums import EmployeeType, InvoiceStatus, PaymentStatus, Role
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import invoices, online
from tests import factories as f
from tests.services.test_billing_races import Office
from tests.services.test_throttle_races import in_parallel, kinds
from tools.dev.stripe_standin import StandIn

N = 8
ROUNDS = 3


@pytest.fixture
def clean(engine: Engine) -> Iterator[Office]:
    """A billing clerk and a client, committed; everything they and the webhook cause is removed afterwards."""
    with Session(engine, expire_on_commit=False) as s:
        mark = s.exec(select(func.coalesce(func.max(AuditLog.id), 0))).one()
        outbox = s.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()
        clerk = f.user(s, "card_clerk", role=Role.employee, employee_type=EmployeeType.cfo)
        client = f.user(s, "card_payer")
    office = Office(engine, clerk, client)
    yield office
    with Session(engine) as s:
        ids = office.invoice_ids
        for model in (StripeEvent, Payment, InvoiceItem):
            s.exec(delete(model).where(col(model.invoice_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.id) > mark))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.id) > outbox))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_([clerk.id, client.id])))  # type: ignore[call-overload]
        s.commit()


def paid_event(office: Office, standin: StandIn, invoice_id: int) -> dict[str, Any]:
    """The client starts Checkout through the SDK and pays on the stand-in: the event Stripe then sends."""
    with Session(office.engine) as s:
        url = online.start_checkout(s, actor=office.client, invoice_id=invoice_id)
    standin.pay(url.rsplit("/", 1)[1])
    return standin.events[-1]


def recorded(office: Office, invoice_id: int) -> tuple[list[Payment], Decimal, InvoiceStatus]:
    with Session(office.engine) as s:
        rows = list(s.exec(select(Payment).where(Payment.invoice_id == invoice_id)))
        invoice = s.get(Invoice, invoice_id)
        assert invoice is not None
        return rows, invoices.paid_amount(s, invoice_id), invoice.status


def test_n_concurrent_deliveries_of_one_event_record_one_payment(
    clean: Office,
    standin: StandIn,
    pool: Engine,
) -> None:
    for _ in range(ROUNDS):
        invoice_id = clean.invoice("250.00")
        event = paid_event(clean, standin, invoice_id)
        results = in_parallel(pool, lambda s, _i, event=event: online.apply_event(s, event), N)
        assert sorted(results) == ["applied"] + ["duplicate"] * (N - 1), kinds(results)
        rows, paid, status = recorded(clean, invoice_id)
        assert len(rows) == 1 and rows[0].status == PaymentStatus.succeeded
        assert paid == Decimal("250.00") and status == InvoiceStatus.paid


def test_two_events_of_one_payment_at_once_record_it_once(
    clean: Office,
    standin: StandIn,
    pool: Engine,
) -> None:
    invoice_id = clean.invoice("250.00")
    completed = paid_event(clean, standin, invoice_id)
    succeeded = {**completed, "id": "evt_test_async", "type": "checkout.session.async_payment_succeeded"}
    events = [completed, succeeded] * (N // 2)
    results = in_parallel(pool, lambda s, i: online.apply_event(s, events[i]), N)
    assert results.count("applied") == 1, kinds(results)
    rows, paid, _ = recorded(clean, invoice_id)
    assert len(rows) == 1 and paid == Decimal("250.00")


def test_two_payments_racing_for_one_invoice_never_count_above_it(
    clean: Office,
    standin: StandIn,
    pool: Engine,
) -> None:
    """Two different payment intents each for the whole amount (two Checkouts paid at once): one counts, the other
    is kept whole as excess for a refund; the invoice's paid total is its total, never more."""
    invoice_id = clean.invoice("250.00")
    first = paid_event(clean, standin, invoice_id)
    second = json_copy(first)
    second["id"], second["data"]["object"]["payment_intent"] = "evt_test_second", "pi_test_second"
    results = in_parallel(pool, lambda s, i: online.apply_event(s, (first, second)[i % 2]), N)
    assert results.count("applied") == 2, kinds(results)
    rows, paid, status = recorded(clean, invoice_id)
    assert paid == Decimal("250.00") and status == InvoiceStatus.paid
    assert sorted((r.amount, r.excess_amount) for r in rows) == [
        (Decimal("0.00"), Decimal("250.00")),
        (Decimal("250.00"), Decimal("0.00")),
    ]


def json_copy(event: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(event)))

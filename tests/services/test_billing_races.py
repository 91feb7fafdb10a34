"""Invoices under real concurrency: staff in threads with their own sessions and connections, on committed data.

Every change of an invoice locks its row first, so parallel payments never add up to more than the invoice and
parallel issues mail the client once. The rolled-back `session` fixture has one connection where no race can happen;
these tests commit, and each removes what it wrote.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from sqlalchemy import delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.core.errors import Invalid
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import EmployeeType, Role
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import billing, workflow
from tests import factories as f
from tests.services.test_throttle_races import in_parallel, kinds

N = 6  # six staff at once, as reported in issue 23
ROUNDS = 3  # invoices raced one after another: one lucky interleaving cannot hide a lost lock


@dataclass
class Office:
    """A billing clerk and a client, committed; everything they cause is removed afterwards."""

    engine: Engine
    clerk: User
    client: User
    invoice_ids: list[int] = field(default_factory=list)

    def invoice(self, price: str = "100.00", *, issued: bool = True) -> int:
        with Session(self.engine) as s:
            data = {
                "client_id": str(self.client.id),
                "items": [{"description": "Work", "quantity": 1, "unit_price": price}],
            }
            invoice_id = int(billing.create_invoice(s, actor=self.clerk, data=data).id)
            self.invoice_ids.append(invoice_id)
            if issued:
                billing.issue_invoice(s, actor=self.clerk, invoice_id=invoice_id)
        return invoice_id


@pytest.fixture
def office(engine: Engine) -> Iterator[Office]:
    with Session(engine, expire_on_commit=False) as s:
        mark = s.exec(select(func.coalesce(func.max(AuditLog.id), 0))).one()
        outbox = s.exec(select(func.coalesce(func.max(EmailOutbox.id), 0))).one()
        clerk = f.user(s, "race_clerk", role=Role.employee, employee_type=EmployeeType.cfo)
        client = f.user(s, "race_payer")
    data = Office(engine, clerk, client)
    yield data
    with Session(engine) as s:
        ids = data.invoice_ids
        s.exec(delete(Payment).where(col(Payment.invoice_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(Invoice).where(col(Invoice.id).in_(ids)))  # type: ignore[call-overload]
        s.exec(delete(AuditLog).where(col(AuditLog.id) > mark))  # type: ignore[call-overload]
        s.exec(delete(EmailOutbox).where(col(EmailOutbox.id) > outbox))  # type: ignore[call-overload]
        s.exec(delete(User).where(col(User.id).in_([clerk.id, client.id])))  # type: ignore[call-overload]
        s.commit()


def paid(eng: Engine, invoice_id: int) -> Decimal:
    with Session(eng) as s:
        amounts = s.exec(select(Payment.amount).where(Payment.invoice_id == invoice_id)).all()
    return sum(amounts, Decimal("0.00"))


def test_parallel_payments_of_the_whole_amount_pay_the_invoice_once(office: Office, pool: Engine) -> None:
    for _ in range(ROUNDS):
        invoice_id = office.invoice("100.00")

        def pay(s: Session, _: int, invoice_id: int = invoice_id) -> object:
            clerk = s.get(User, office.clerk.id)
            assert clerk is not None
            return billing.record_payment(s, actor=clerk, invoice_id=invoice_id, data={"amount": "100.00"})

        results = in_parallel(pool, pay, N)

        assert kinds(results) == {"ok": 1, "Invalid": N - 1}
        assert paid(pool, invoice_id) == Decimal("100.00")
        refusals = {str(r) for r in results if isinstance(r, Invalid)}
        assert refusals == {"This invoice is already paid in full: nothing is outstanding."}


def test_parallel_part_payments_stop_at_what_is_outstanding(office: Office, pool: Engine) -> None:
    invoice_id = office.invoice("100.00")

    def pay(s: Session, _: int) -> object:
        clerk = s.get(User, office.clerk.id)
        assert clerk is not None
        return billing.record_payment(s, actor=clerk, invoice_id=invoice_id, data={"amount": "30.00"})

    results = in_parallel(pool, pay, N)

    assert kinds(results) == {"ok": 3, "Invalid": N - 3}
    assert paid(pool, invoice_id) == Decimal("90.00")
    refusals = [r for r in results if isinstance(r, Invalid)]
    assert {str(r) for r in refusals} == {"$30.00 is more than the $10.00 outstanding on this invoice"}
    assert all(r.errors == {"amount": str(r)} for r in refusals)


def test_parallel_issues_mail_the_client_once(office: Office, pool: Engine) -> None:
    for _ in range(ROUNDS):
        invoice_id = office.invoice("250.00", issued=False)

        def issue(s: Session, _: int, invoice_id: int = invoice_id) -> object:
            clerk = s.get(User, office.clerk.id)
            assert clerk is not None
            return billing.issue_invoice(s, actor=clerk, invoice_id=invoice_id)

        results = in_parallel(pool, issue, N)

        assert kinds(results) == {"ok": 1, "Invalid": N - 1}
        with Session(pool) as s:
            number = s.exec(select(Invoice.invoice_number).where(Invoice.id == invoice_id)).one()
            mails = s.exec(select(EmailOutbox).where(col(EmailOutbox.subject).contains(number))).all()
            issues = s.exec(
                select(AuditLog).where(AuditLog.action == "invoice.issue", AuditLog.entity_id == str(invoice_id))
            ).all()
        assert [m.to_address for m in mails] == [office.client.email]
        assert len(issues) == 1


def test_a_draft_deleted_while_being_issued_is_either_issued_or_gone(office: Office, pool: Engine) -> None:
    invoice_id = office.invoice("80.00", issued=False)

    def issue_or_delete(s: Session, i: int) -> object:
        clerk = s.get(User, office.clerk.id)
        assert clerk is not None
        if i % 2:
            return billing.issue_invoice(s, actor=clerk, invoice_id=invoice_id)
        return billing.delete_draft(s, actor=clerk, invoice_id=invoice_id)

    results = in_parallel(pool, issue_or_delete, N)

    assert kinds(results).get("ok") == 1  # the first wins; the rest see it issued (Invalid) or gone (NotFound)
    with Session(pool) as s:
        left = s.get(Invoice, invoice_id)
        mails = s.exec(select(EmailOutbox).where(EmailOutbox.to_address == office.client.email)).all()
    assert (left is None and mails == []) or (left is not None and left.status == "pending" and len(mails) == 1)


def test_a_void_and_payments_at_once_one_wins_cleanly(office: Office, pool: Engine) -> None:
    # Voiding locks the row as payments do: either the invoice is void and took no money, or it is paid and not void.
    outcomes = set()
    for _ in range(ROUNDS):
        invoice_id = office.invoice("60.00")

        def void_or_pay(s: Session, i: int, invoice_id: int = invoice_id) -> object:
            clerk = s.get(User, office.clerk.id)
            assert clerk is not None
            if i % 2:
                return workflow.void_invoice(s, actor=clerk, invoice_id=invoice_id, data={"reason": "Raced"})
            return billing.record_payment(s, actor=clerk, invoice_id=invoice_id, data={"amount": "60.00"})

        results = in_parallel(pool, void_or_pay, N)

        assert kinds(results) == {"ok": 1, "Invalid": N - 1}
        with Session(pool) as s:
            invoice = s.get(Invoice, invoice_id)
            assert invoice is not None
            voids = s.exec(select(EmailOutbox).where(col(EmailOutbox.subject).contains("has been voided"))).all()
            voided_here = [m for m in voids if m.invoice_id == invoice_id]
        money = paid(pool, invoice_id)
        if invoice.status == "void":
            assert money == Decimal("0.00") and len(voided_here) == 1 and invoice.void_reason == "Raced"
        else:
            assert invoice.status == "paid" and money == Decimal("60.00") and voided_here == []
            assert invoice.void_reason is None
        outcomes.add(str(invoice.status))
        refusals = {str(r) for r in results if isinstance(r, Invalid)}
        assert refusals <= {
            "This invoice is void: it takes no payment.",
            f"{invoice.invoice_number} is already void.",
            "This invoice is already paid in full: nothing is outstanding.",
            f"{invoice.invoice_number} is paid: refund its payments first, then void it.",
        }
    assert outcomes <= {"void", "paid"}

"""Staff invoices: Decimal arithmetic to the cent, sequential unique numbers (also concurrently), status rules."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import EmployeeType, Role
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import billing
from tests import factories as f


@pytest.fixture
def cfo(session: Session) -> User:
    return f.user(session, "cfo_bill", role=Role.employee, employee_type=EmployeeType.cfo)


def lines(*items: tuple[str, int, str]) -> list[dict[str, object]]:
    return [{"description": d, "quantity": q, "unit_price": p} for d, q, p in items]


def test_arithmetic_is_exact_to_the_cent(session: Session, cfo: User) -> None:
    client = f.user(session, "payer")
    inv = billing.create_invoice(
        session,
        actor=cfo,
        data={
            "client_id": str(client.id),
            "tax_rate": "7",
            "items": lines(("Hours", 3, "33.33"), ("Domain", 1, "0.10")),
        },
    )
    assert [i.amount for i in inv.items] == ["99.99", "0.10"]
    assert (inv.subtotal, inv.tax_amount, inv.total_amount) == ("100.09", "7.01", "107.10")
    assert inv.status == "draft"
    # Half-up rounding of the tax: 0.5 cent goes up.
    assert billing.totals([Decimal("0.50")], Decimal("1")) == (Decimal("0.50"), Decimal("0.01"), Decimal("0.51"))


def test_bad_lines_are_refused_with_field_errors(session: Session, cfo: User) -> None:
    client = f.user(session, "payer2")
    with pytest.raises(Invalid) as err:
        billing.create_invoice(
            session,
            actor=cfo,
            data={"client_id": str(client.id), "items": lines(("", 0, "1.234"))},
        )
    assert err.value.errors == {
        "items.0.description": "Description is required",
        "items.0.quantity": "Quantity must be between 1 and 100000",
        "items.0.unit_price": "Unit price must be in whole cents",
    }
    with pytest.raises(Invalid, match="Add at least one line item"):
        billing.create_invoice(session, actor=cfo, data={"client_id": str(client.id), "items": []})
    assert session.exec(select(Invoice)).all() == []


def test_amounts_past_what_numeric_10_2_holds_are_field_errors(session: Session, cfo: User) -> None:
    # Each value fits; their product or sum does not, and the database used to refuse it (a 500).
    client = f.user(session, "payer_big")
    cases = [
        ({"items": lines(("Big", 100000, "99999999.99"))}, "items.0.quantity"),
        ({"items": lines(("Half", 1, "50000000.00"), ("Half", 1, "50000000.00"))}, "items"),
        ({"items": lines(("Most", 1, "60000000.00")), "tax_rate": "100"}, "tax_rate"),
    ]
    for data, field in cases:
        with pytest.raises(Invalid) as err:
            billing.create_invoice(session, actor=cfo, data={"client_id": str(client.id), **data})
        assert list(err.value.errors) == [field]
        assert "$99,999,999.99" in err.value.message
    assert session.exec(select(Invoice)).all() == []
    largest = {"client_id": str(client.id), "items": lines(("Max", 1, "99999999.99"))}
    assert billing.create_invoice(session, actor=cfo, data=largest).total_amount == "99999999.99"


def test_numbers_are_sequential_per_year(session: Session, cfo: User) -> None:
    client = f.user(session, "payer3")
    data = {"client_id": str(client.id), "items": lines(("Work", 1, "10.00"))}
    first = billing.create_invoice(session, actor=cfo, data=data).invoice_number
    second = billing.create_invoice(session, actor=cfo, data=data).invoice_number
    prefix, seq = first.rsplit("-", 1)
    assert second == f"{prefix}-{int(seq) + 1:04d}"


def test_issue_notifies_the_client_and_payment_marks_paid(session: Session, cfo: User) -> None:
    client = f.user(session, "payer4")
    inv = billing.create_invoice(
        session, actor=cfo, data={"client_id": str(client.id), "items": lines(("Work", 2, "50.00"))}
    )
    with pytest.raises(Invalid):
        billing.record_payment(session, actor=cfo, invoice_id=inv.id)  # drafts take no payments
    issued = billing.issue_invoice(session, actor=cfo, invoice_id=inv.id)
    assert issued.status == "pending" and issued.issue_date
    mail = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == client.email)).one()
    assert inv.invoice_number in mail.subject and "$100.00" in mail.body_text
    with pytest.raises(Invalid, match="outstanding"):
        billing.record_payment(session, actor=cfo, invoice_id=inv.id, data={"amount": "100.01"})
    partly = billing.record_payment(session, actor=cfo, invoice_id=inv.id, data={"amount": "40", "method": "check"})
    assert partly.status == "pending"
    paid = billing.record_payment(session, actor=cfo, invoice_id=inv.id)
    assert paid.status == "paid" and paid.paid_date
    assert sum(p.amount for p in session.exec(select(Payment)).all()) == Decimal("100.00")
    with pytest.raises(Invalid):
        billing.delete_draft(session, actor=cfo, invoice_id=inv.id)  # issued invoices stay
    assert session.exec(select(AuditLog).where(AuditLog.action == "invoice.payment")).all()


def test_only_billing_writers_create_invoices(session: Session) -> None:
    dev = f.user(session, "dev_bill", role=Role.employee, employee_type=EmployeeType.developer)
    client = f.user(session, "payer5")
    with pytest.raises(Forbidden):
        billing.create_invoice(session, actor=dev, data={"client_id": str(client.id), "items": lines(("x", 1, "1"))})
    with pytest.raises(Forbidden):
        billing.create_invoice(session, actor=client, data={"client_id": str(client.id), "items": lines(("x", 1, "1"))})


def create_at_once(engine: Engine, actor: User, client: User, count: int) -> tuple[list[str], list[Exception]]:
    """`count` invoices for `client` created by `actor` in as many threads started together, each in its own
    transaction: the numbers they got, and the errors raised."""
    numbers: list[str] = []
    errors: list[Exception] = []
    barrier = threading.Barrier(count)

    def create() -> None:
        with Session(engine) as s:
            me = s.get(User, actor.id)
            barrier.wait()
            try:
                inv = billing.create_invoice(
                    s, actor=me, data={"client_id": str(client.id), "items": lines(("Work", 1, "1.00"))}
                )
                numbers.append(str(inv.invoice_number))
            except Exception as exc:  # collected and asserted by the caller
                errors.append(exc)

    threads = [threading.Thread(target=create) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return numbers, errors


def test_concurrent_creation_never_duplicates_a_number(engine: Engine) -> None:
    """Real concurrent transactions (not the rolled-back test session): eight creators, eight distinct numbers."""
    with Session(engine, expire_on_commit=False) as s:
        client = f.user(s, "concurrent_payer")
        actor = f.user(s, "concurrent_cfo", role=Role.employee, employee_type=EmployeeType.cfo)
    numbers, errors = create_at_once(engine, actor, client, 8)
    try:
        assert errors == []
        assert len(numbers) == len(set(numbers)) == 8
        seqs = sorted(int(n.rsplit("-", 1)[1]) for n in numbers)
        assert seqs == list(range(seqs[0], seqs[0] + 8))  # no gaps either
    finally:
        with Session(engine) as s:
            ids = [i.id for i in s.exec(select(Invoice).where(Invoice.client_id == client.id)).all()]
            s.exec(delete(InvoiceItem).where(InvoiceItem.invoice_id.in_(ids)))  # type: ignore[attr-defined,call-overload]
            s.exec(delete(AuditLog))  # type: ignore[call-overload]
            s.exec(delete(Invoice).where(Invoice.client_id == client.id))  # type: ignore[call-overload]
            s.exec(delete(User).where(User.id.in_([client.id, actor.id])))  # type: ignore[attr-defined,call-overload]
            s.commit()

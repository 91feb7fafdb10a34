"""Staff's work on one invoice: the detail (payments, mails, audit trail, flags), editing a draft, voiding."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid, NotFound
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import EmployeeType, InvoiceStatus, OutboxStatus, PaymentStatus, Role
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import billing, invoices, workflow
from tests import factories as f


@pytest.fixture
def cfo(session: Session) -> User:
    return f.user(session, "cfo_flow", first_name="Cora", role=Role.employee, employee_type=EmployeeType.cfo)


@pytest.fixture
def legal(session: Session) -> User:
    """Reads billing, does not write it."""
    return f.user(session, "legal_flow", role=Role.employee, employee_type=EmployeeType.legal)


@pytest.fixture
def payer(session: Session) -> User:
    return f.user(session, "payer_flow", first_name="Pia", last_name="Payne")


def lines(*items: tuple[str, int, str]) -> list[dict[str, object]]:
    return [{"description": d, "quantity": q, "unit_price": p} for d, q, p in items]


def draft(s: Session, actor: User, client: User, **extra: object) -> int:
    data = {"client_id": str(client.id), "items": lines(("Design", 2, "100.00")), "tax_rate": "10", **extra}
    return int(billing.create_invoice(s, actor=actor, data=data).id)


def issued(s: Session, actor: User, client: User) -> int:
    invoice_id = draft(s, actor, client)
    billing.issue_invoice(s, actor=actor, invoice_id=invoice_id)
    return invoice_id


# --- the detail ---------------------------------------------------------------------------------------------------


def test_the_detail_tells_the_invoices_whole_story(session: Session, cfo: User, legal: User, payer: User) -> None:
    project = f.project(session, payer, "Payne site")
    invoice_id = draft(session, cfo, payer, project_id=project.id, description="Phase 1")
    billing.issue_invoice(session, actor=cfo, invoice_id=invoice_id)
    billing.record_payment(session, actor=cfo, invoice_id=invoice_id, data={"amount": "50", "method": "Bank transfer"})
    card = Payment(
        invoice_id=invoice_id,
        amount=Decimal("20.00"),
        payment_method="card",
        stripe_payment_intent_id="pi_3Abc",
        status=PaymentStatus.failed,
    )
    session.add(card)
    issued(session, cfo, payer)  # another invoice: its mails and audit entries are not this one's
    session.commit()
    mail = session.exec(
        select(EmailOutbox).where(EmailOutbox.invoice_id == invoice_id).order_by(EmailOutbox.id)  # type: ignore[arg-type]
    ).first()  # the issued mail; the payment's receipt follows it
    assert mail is not None
    mail.status = OutboxStatus.sent
    session.add(mail)
    session.commit()

    d = workflow.invoice_detail(session, actor=legal, invoice_id=invoice_id)

    assert (d.client_name, d.client_email, d.project_name) == ("Pia Payne", payer.email, "Payne site")
    assert (d.subtotal, d.tax_rate, d.tax_amount, d.total_amount) == ("200.00", "10.00", "20.00", "220.00")
    assert (d.amount_paid, d.balance_due, d.status) == ("50.00", "170.00", "pending")
    assert [(i.description, i.quantity, i.amount) for i in d.items] == [("Design", 2, "200.00")]
    assert [(p.amount, p.method, p.stripe_payment_intent_id, p.status) for p in d.payments] == [
        ("50.00", "Bank transfer", None, "succeeded"),
        ("20.00", "card", "pi_3Abc", "failed"),
    ]
    assert [m.status for m in d.mails] == ["sent", "pending"] and {m.to_address for m in d.mails} == {payer.email}
    assert d.invoice_number in d.mails[0].subject and d.mails[0].queued_at
    assert d.invoice_number in d.mails[1].subject  # the receipt of the payment
    assert [(a.action, a.actor) for a in d.audit] == [
        ("invoice.create", "cfo_flow"),
        ("invoice.issue", "cfo_flow"),
        ("invoice.payment", "cfo_flow"),
    ]
    assert d.audit[2].details == {"amount": "50.00"}
    assert all(d.invoice_number in m.subject for m in d.mails)  # none of the other invoice's
    # A billing reader may look, not act; the flags never reach a dump (the REST answer).
    assert not (d.can_edit or d.can_issue or d.can_void or d.can_record_payment or d.can_delete)
    assert d.can_download and "can_void" not in d.model_dump() and "void_refusal" not in d.model_dump()
    # A writer may take a payment, not void it: money was received (and the page is told why).
    w = workflow.invoice_detail(session, actor=cfo, invoice_id=invoice_id)
    assert w.can_record_payment and not w.can_void and not w.can_edit
    assert w.void_refusal == f"$50.00 has been paid on {d.invoice_number}: refund the payments first, then void it."


def test_the_detail_flags_follow_the_status(session: Session, cfo: User, payer: User) -> None:
    invoice_id = draft(session, cfo, payer)
    d = workflow.invoice_detail(session, actor=cfo, invoice_id=invoice_id)
    assert d.can_edit and d.can_issue and d.can_delete and not d.can_void and not d.can_record_payment
    assert not d.can_download and d.void_refusal == "" and d.mails == []
    billing.issue_invoice(session, actor=cfo, invoice_id=invoice_id)
    d = workflow.invoice_detail(session, actor=cfo, invoice_id=invoice_id)
    assert d.can_void and d.can_record_payment and not d.can_edit and not d.can_issue and not d.can_delete


def test_only_billing_readers_see_the_detail(session: Session, cfo: User, payer: User) -> None:
    invoice_id = draft(session, cfo, payer)
    dev = f.user(session, "dev_flow", role=Role.employee, employee_type=EmployeeType.developer)
    for outsider in (dev, payer):
        with pytest.raises(Forbidden):
            workflow.invoice_detail(session, actor=outsider, invoice_id=invoice_id)
    with pytest.raises(NotFound):
        workflow.invoice_detail(session, actor=cfo, invoice_id=invoice_id + 10_000)


# --- editing a draft ----------------------------------------------------------------------------------------------


def test_a_draft_is_edited_and_priced_as_it_is_created(session: Session, cfo: User, payer: User) -> None:
    invoice_id = draft(session, cfo, payer, description="Old", notes="Old notes")
    data = {
        "items": lines(("Hours", 3, "33.33"), ("Domain", 1, "0.10")),
        "tax_rate": "7",
        "description": "New",
        "due_date": "2027-01-31",
    }
    out = workflow.update_draft(session, actor=cfo, invoice_id=invoice_id, data=data)
    assert [i.amount for i in out.items] == ["99.99", "0.10"]
    assert (out.subtotal, out.tax_amount, out.total_amount) == ("100.09", "7.01", "107.10")
    assert (out.description, out.notes, out.due_date, out.status) == ("New", None, "2027-01-31", "draft")
    assert billing.price_invoice(data["items"], "7").total == Decimal("107.10")  # type: ignore[arg-type]
    stored = session.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice_id)).all()
    assert sorted(i.description for i in stored) == ["Domain", "Hours"]
    assert workflow.invoice_detail(session, actor=cfo, invoice_id=invoice_id).tax_rate == "7.00"
    entry = session.exec(select(AuditLog).where(AuditLog.action == "invoice.update")).one()
    assert entry.entity_id == str(invoice_id)
    assert entry.details == {"lines": 2, "total_before": "220.00", "total": "107.10"}


def test_bad_lines_are_field_errors_and_change_nothing(session: Session, cfo: User, payer: User) -> None:
    invoice_id = draft(session, cfo, payer)
    with pytest.raises(Invalid) as err:
        workflow.update_draft(session, actor=cfo, invoice_id=invoice_id, data={"items": lines(("", 0, "1.234"))})
    assert err.value.errors == {
        "items.0.description": "Description is required",
        "items.0.quantity": "Quantity must be between 1 and 100000",
        "items.0.unit_price": "Unit price must be in whole cents",
    }
    with pytest.raises(Invalid, match="Add at least one line item"):
        workflow.update_draft(session, actor=cfo, invoice_id=invoice_id, data={"items": []})
    with pytest.raises(Invalid) as err:
        big = {"items": lines(("Most", 1, "60000000.00")), "tax_rate": "100"}
        workflow.update_draft(session, actor=cfo, invoice_id=invoice_id, data=big)
    assert list(err.value.errors) == ["tax_rate"] and "$99,999,999.99" in err.value.message
    invoice = session.get(Invoice, invoice_id)
    assert invoice is not None and invoice.total_amount == Decimal("220.00")
    assert len(session.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice_id)).all()) == 1


def test_only_drafts_are_edited_and_only_by_billing_writers(
    session: Session, cfo: User, legal: User, payer: User
) -> None:
    data = {"items": lines(("Other", 1, "1.00"))}
    invoice_id = issued(session, cfo, payer)
    number = session.get(Invoice, invoice_id).invoice_number  # type: ignore[union-attr]
    with pytest.raises(Invalid, match=f"Only draft invoices can be edited: {number} is issued."):
        workflow.update_draft(session, actor=cfo, invoice_id=invoice_id, data=data)
    a_draft = draft(session, cfo, payer)
    for outsider in (legal, payer):
        with pytest.raises(Forbidden):
            workflow.update_draft(session, actor=outsider, invoice_id=a_draft, data=data)
    with pytest.raises(NotFound):
        workflow.update_draft(session, actor=cfo, invoice_id=a_draft + 10_000, data=data)
    assert session.get(Invoice, a_draft).total_amount == Decimal("220.00")  # type: ignore[union-attr]


# --- voiding ------------------------------------------------------------------------------------------------------


def test_voiding_keeps_the_number_stops_payments_and_tells_the_client(session: Session, cfo: User, payer: User) -> None:
    invoice_id = issued(session, cfo, payer)
    out = workflow.void_invoice(
        session, actor=cfo, invoice_id=invoice_id, data={"reason": "  Billed twice:\nsee INV-1  "}
    )
    assert out.status == "void"
    invoice = session.get(Invoice, invoice_id)
    assert invoice is not None and invoice.invoice_number == out.invoice_number
    assert (invoice.void_reason, invoice.voided_by) == ("Billed twice: see INV-1", cfo.id)
    assert invoice.voided_at is not None
    mails = session.exec(select(EmailOutbox).where(EmailOutbox.invoice_id == invoice_id)).all()
    assert len(mails) == 2 and mails[1].subject == f"Invoice {out.invoice_number} has been voided"
    assert "Reason: Billed twice: see INV-1" in mails[1].body_text and mails[1].to_address == payer.email
    with pytest.raises(Invalid, match=r"This invoice is void: it takes no payment\."):
        billing.record_payment(session, actor=cfo, invoice_id=invoice_id, data={"amount": "1"})
    with pytest.raises(Invalid, match="cannot be deleted"):
        billing.delete_draft(session, actor=cfo, invoice_id=invoice_id)
    with pytest.raises(Invalid, match="already void"):
        workflow.void_invoice(session, actor=cfo, invoice_id=invoice_id, data={"reason": "Again"})
    d = workflow.invoice_detail(session, actor=cfo, invoice_id=invoice_id)
    assert (d.void_reason, d.voided_by, d.balance_due) == ("Billed twice: see INV-1", "cfo_flow", "0.00")
    assert not (d.can_void or d.can_record_payment or d.can_edit or d.can_delete) and d.can_download
    assert d.audit[-1].action == "invoice.void" and d.audit[-1].details == {"reason": "Billed twice: see INV-1"}
    # The staff list filters by it; the client still sees it, as void, and its PDF says so.
    voids = billing.list_invoices(session, actor=cfo, status="void").data
    assert [r.id for r in voids] == [invoice_id] and not voids[0].can_record_payment
    assert [i.status for i in invoices.list_invoices(session, actor=payer)] == ["void"]
    _, pdf = invoices.invoice_pdf(session, actor=payer, invoice_id=invoice_id)
    text = f.pdf_text(pdf)
    assert "VOID since" in text and "Billed twice: see INV-1" in text and "Void" in text


def test_a_void_needs_a_one_line_reason_of_limited_length(session: Session, cfo: User, payer: User) -> None:
    invoice_id = issued(session, cfo, payer)
    for data, message in (
        ({}, "Reason is required"),
        ({"reason": "   "}, "Reason is required"),
        ({"reason": "x" * 201}, "Reason must not exceed 200 characters"),
    ):
        with pytest.raises(Invalid) as err:
            workflow.void_invoice(session, actor=cfo, invoice_id=invoice_id, data=data)
        assert err.value.errors == {"reason": message}
    assert session.get(Invoice, invoice_id).status == InvoiceStatus.pending  # type: ignore[union-attr]
    assert workflow.void_invoice(session, actor=cfo, invoice_id=invoice_id, data={"reason": "x" * 200}).status == "void"


def test_what_cannot_be_voided_is_refused_with_what_to_do(
    session: Session, cfo: User, legal: User, payer: User
) -> None:
    partly = issued(session, cfo, payer)
    billing.record_payment(session, actor=cfo, invoice_id=partly, data={"amount": "20"})
    number = session.get(Invoice, partly).invoice_number  # type: ignore[union-attr]
    with pytest.raises(Invalid, match=rf"\$20.00 has been paid on {number}: refund the payments first, then void it."):
        workflow.void_invoice(session, actor=cfo, invoice_id=partly, data={"reason": "Mistake"})
    billing.record_payment(session, actor=cfo, invoice_id=partly)
    with pytest.raises(Invalid, match="is paid: refund its payments first"):
        workflow.void_invoice(session, actor=cfo, invoice_id=partly, data={"reason": "Mistake"})
    with pytest.raises(Invalid, match="delete it instead"):
        workflow.void_invoice(session, actor=cfo, invoice_id=draft(session, cfo, payer), data={"reason": "Mistake"})
    # A refunded payment no longer counts: the invoice may then be voided.
    refunded = issued(session, cfo, payer)
    session.add(
        Payment(
            invoice_id=refunded,
            amount=Decimal("10.00"),
            refunded_amount=Decimal("10.00"),
            status=PaymentStatus.refunded,
        )
    )
    session.commit()
    assert workflow.void_invoice(session, actor=cfo, invoice_id=refunded, data={"reason": "Refunded"}).status == "void"
    pending = issued(session, cfo, payer)
    for outsider in (legal, payer):
        with pytest.raises(Forbidden):
            workflow.void_invoice(session, actor=outsider, invoice_id=pending, data={"reason": "No"})
    assert session.get(Invoice, pending).status == InvoiceStatus.pending  # type: ignore[union-attr]

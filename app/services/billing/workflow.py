"""Staff's work on one invoice: its whole story (the detail view), editing a draft, and voiding an issued invoice.

Editing and voiding change money, so they run under the invoice's row lock (`billing._locked`) like issuing and
payments: a void and a payment on one invoice queue, and the second decides on what the first left (ADR 0078).
What the caller may do is computed once, here, from the same refusals the writes raise (ADR 0065, 0067).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.core.errors import Invalid
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.billing import VOID_REASON_MAX, Invoice, InvoiceItem, Payment
from app.models.enums import InvoiceStatus
from app.models.project import Project
from app.models.system import AuditLog, EmailOutbox
from app.models.user import User
from app.services.billing import receipts
from app.services.billing.billing import InvoiceLines, _dto, _locked, _priced
from app.services.billing.invoices import InvoicePublic, invoice_dto, may_download, paid_amount
from app.services.platform import access, audit
from app.services.platform.actions import Action
from app.services.platform.schema import Day, Input, Text, parse, required

STATUS_WORDS = {"draft": "a draft", "pending": "issued", "paid": "paid", "void": "void"}

# --- what the detail shows ----------------------------------------------------------------------------------------


class InvoicePaymentRow(BaseModel):
    """A payment on the invoice: amount with two decimals, method as typed (or "card"), Stripe's reference if any."""

    id: int
    amount: str
    currency: str
    method: str | None
    stripe_payment_intent_id: str | None
    status: str
    processed_at: str | None
    created_at: str


class InvoiceMailRow(BaseModel):
    """A mail about the invoice from the outbox: queued at `queued_at`, `status` pending, sent or failed."""

    id: int
    subject: str
    to_address: str
    status: str
    queued_at: str
    sent_at: str | None


class InvoiceAuditRow(BaseModel):
    """An audit entry on the invoice: who ("system" when no one, "(deleted user)"), what, when, and its details."""

    id: int
    created_at: str
    actor: str
    action: str
    details: dict[str, Any]


class InvoiceDetailPublic(InvoicePublic):
    """An invoice with everything staff know about it: client, project, tax rate, the void's reason, who and when, its
    payments, the mails sent about it and its audit trail (oldest first); what is paid and due is the summary's."""

    client_name: str
    client_username: str
    client_email: str
    project_name: str | None
    tax_rate: str
    void_reason: str | None
    voided_at: str | None
    voided_by: str | None
    payments: list[InvoicePaymentRow]
    mails: list[InvoiceMailRow]
    audit: list[InvoiceAuditRow]


class InvoiceDetail(InvoiceDetailPublic):
    """The detail with what the calling staff member may do with the invoice (ADR 0065); `void_refusal` says why an
    issued invoice cannot be voided (payments to refund first), for the page to say so rather than hide it."""

    can_edit: Action
    can_issue: Action
    can_void: Action
    can_record_payment: Action
    can_delete: Action
    can_download: Action
    void_refusal: Annotated[str, Field(exclude=True)]


def edit_refusal(invoice: Invoice) -> str | None:
    """Why the invoice's lines and header cannot change: only a draft may, an issued invoice is a business record."""
    if invoice.status == InvoiceStatus.draft:
        return None
    return f"Only draft invoices can be edited: {invoice.invoice_number} is {STATUS_WORDS[str(invoice.status)]}."


def void_refusal(invoice: Invoice, paid: Decimal) -> str | None:
    """Why the invoice cannot be voided. Only an issued invoice with no money received may be: money received must go
    back first (a refund), or the client would have paid for a void invoice (ADR 0078)."""
    status = invoice.status
    if status == InvoiceStatus.void:
        return f"{invoice.invoice_number} is already void."
    if status == InvoiceStatus.draft:
        return "A draft was never issued: delete it instead of voiding it."
    if status == InvoiceStatus.paid:
        return f"{invoice.invoice_number} is paid: refund its payments first, then void it."
    if paid > 0:
        return f"${paid:,.2f} has been paid on {invoice.invoice_number}: refund the payments first, then void it."
    return None


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _name(user: User | None) -> str:
    if user is None:
        return ""
    return " ".join(p for p in (user.first_name, user.last_name) if p) or user.username


def _rate(invoice: Invoice) -> Decimal:
    """The stored rate; for an invoice made before rates were stored (and not migrated), the one its amounts imply."""
    if invoice.tax_rate is not None:
        return Decimal(invoice.tax_rate)
    if not invoice.subtotal:
        return Decimal(0)
    return (invoice.tax_amount * 100 / invoice.subtotal).quantize(Decimal("0.01"))


def _payments(s: Session, invoice_id: int) -> list[InvoicePaymentRow]:
    rows = s.exec(select(Payment).where(Payment.invoice_id == invoice_id).order_by(col(Payment.id))).all()
    return [
        InvoicePaymentRow(
            id=p.id or 0,
            amount=f"{p.amount:.2f}",
            currency=p.currency,
            method=p.payment_method,
            stripe_payment_intent_id=p.stripe_payment_intent_id,
            status=str(p.status),
            processed_at=_iso(p.processed_at),
            created_at=p.created_at.isoformat(),
        )
        for p in rows
    ]


def _mails(s: Session, invoice_id: int) -> list[InvoiceMailRow]:
    rows = s.exec(select(EmailOutbox).where(EmailOutbox.invoice_id == invoice_id).order_by(col(EmailOutbox.id))).all()
    return [
        InvoiceMailRow(
            id=m.id or 0,
            subject=m.subject,
            to_address=m.to_address,
            status=str(m.status),
            queued_at=m.created_at.isoformat(),
            sent_at=_iso(m.sent_at),
        )
        for m in rows
    ]


def _audit(s: Session, invoice_id: int) -> list[InvoiceAuditRow]:
    # The entries billing readers see without audit:read: the invoice's own (no IP addresses), by its type and id.
    query = (
        select(AuditLog, User.username)
        .join(User, col(AuditLog.actor_id) == col(User.id), isouter=True)
        .where(AuditLog.entity_type == Invoice.__tablename__, AuditLog.entity_id == str(invoice_id))
        .order_by(col(AuditLog.id))
    )
    return [
        InvoiceAuditRow(
            id=entry.id or 0,
            created_at=entry.created_at.isoformat(),
            actor=username or ("(deleted user)" if entry.actor_id else "system"),
            action=entry.action,
            details=entry.details or {},
        )
        for entry, username in s.exec(query).all()
    ]


def invoice_detail(s: Session, *, actor: User, invoice_id: int) -> InvoiceDetail:
    """One invoice for staff (billing:read), drafts included: header, lines, payments, mails, audit trail, and what
    the caller may do with it."""
    access.require(actor, Perm.billing_read, "view invoices")
    invoice = access.get_visible(s, Invoice, invoice_id, actor, "invoice", label="Invoice")
    assert invoice.id is not None
    items = list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id).order_by(col(InvoiceItem.id))))
    client = s.get(User, invoice.client_id)
    project = s.get(Project, invoice.project_id) if invoice.project_id is not None else None
    voider = s.get(User, invoice.voided_by) if invoice.voided_by is not None else None
    paid = paid_amount(s, invoice.id)
    writes = access.staff_can(actor, Perm.billing_write)
    status = invoice.status
    no_void = void_refusal(invoice, paid)
    return InvoiceDetail(
        **invoice_dto(invoice, items, paid).model_dump(),
        client_name=_name(client),
        client_username=client.username if client else "",
        client_email=client.email if client else "",
        project_name=project.name if project else None,
        tax_rate=f"{_rate(invoice):.2f}",
        void_reason=invoice.void_reason,
        voided_at=_iso(invoice.voided_at),
        voided_by=voider.username if voider else None,
        payments=_payments(s, invoice.id),
        mails=_mails(s, invoice.id),
        audit=_audit(s, invoice.id),
        can_edit=writes and edit_refusal(invoice) is None,
        can_issue=writes and status == InvoiceStatus.draft,
        can_void=writes and no_void is None,
        can_record_payment=writes and status == InvoiceStatus.pending,
        can_delete=writes and status == InvoiceStatus.draft,
        can_download=may_download(actor, invoice),
        # Shown where it helps: an issued invoice that money was received on (a draft or a void one says nothing).
        void_refusal=(no_void or "") if writes and status in (InvoiceStatus.pending, InvoiceStatus.paid) else "",
    )


# --- editing a draft ----------------------------------------------------------------------------------------------


class InvoiceEdit(InvoiceLines):
    """A draft as it should be (PUT: the whole of it): its lines, tax rate, description, due date and notes. What is
    left out is cleared (no description, no due date, no notes, no tax); the client and project stay as created."""

    model_config = ConfigDict(json_schema_extra=required("items"))

    description: Annotated[str | None, Text("Description", 500)] = None
    notes: Annotated[str | None, Text("Notes", 5000)] = None
    due_date: Annotated[date | None, Day("Due date")] = None


def update_draft(s: Session, *, actor: User, invoice_id: int, data: InvoiceEdit | Mapping[str, Any]) -> InvoicePublic:
    """Replace a draft's lines and header; the totals are priced as create_invoice prices them (the same errors)."""
    access.require(actor, Perm.billing_write, "edit invoices")
    body = parse(InvoiceEdit, data)
    invoice = _locked(s, invoice_id)
    if why := edit_refusal(invoice):
        raise Invalid(why)
    rate = body.tax_rate or Decimal(0)
    priced = _priced(body.items, rate)
    before = f"{invoice.total_amount:.2f}"
    s.exec(delete(InvoiceItem).where(col(InvoiceItem.invoice_id) == invoice.id))
    s.add_all(
        InvoiceItem(
            invoice_id=invoice.id,  # type: ignore[arg-type]
            description=line.description,
            quantity=line.quantity,
            unit_price=line.unit_price,
            amount=line.amount,
        )
        for line in priced.lines
    )
    invoice.subtotal, invoice.tax_amount, invoice.total_amount = priced.subtotal, priced.tax, priced.total
    invoice.tax_rate = rate
    invoice.description, invoice.notes, invoice.due_date = body.description, body.notes, body.due_date
    invoice.updated_at = utcnow()
    s.add(invoice)
    details = {"lines": len(priced.lines), "total_before": before, "total": f"{priced.total:.2f}"}
    audit.record(s, actor=actor, action="invoice.update", entity=invoice, details=details)
    s.commit()
    return _dto(s, invoice)


# --- voiding ------------------------------------------------------------------------------------------------------


class VoidRequest(Input):
    """Why the invoice is void: one line (line breaks become spaces), at most 200 characters; the client reads it."""

    model_config = ConfigDict(json_schema_extra=required("reason"))

    reason: Annotated[str | None, Text("Reason", VOID_REASON_MAX, required=True, one_line=True)] = Field(
        None, validate_default=True, description="Why the invoice is void (mailed to the client)."
    )


def void_invoice(s: Session, *, actor: User, invoice_id: int, data: VoidRequest | Mapping[str, Any]) -> InvoicePublic:
    """Issued → void: nothing is owed, no payment is taken, no reminder goes out; the number stays taken and the client
    is told by e-mail. Refused once money was received on it (refund first)."""
    access.require(actor, Perm.billing_write, "void invoices")
    body = parse(VoidRequest, data)
    invoice = _locked(s, invoice_id)
    if why := void_refusal(invoice, paid_amount(s, invoice.id)):
        raise Invalid(why)
    invoice.status = InvoiceStatus.void
    invoice.void_reason = body.reason
    invoice.voided_at = utcnow()
    invoice.voided_by = actor.id
    s.add(invoice)
    # Told by e-mail, with the PDF as it now stands (stamped VOID) attached.
    receipts.mail_invoice(s, invoice, "invoice_void", total=invoice.total_amount, reason=body.reason)
    audit.record(s, actor=actor, action="invoice.void", entity=invoice, details={"reason": body.reason})
    s.commit()
    return _dto(s, invoice)

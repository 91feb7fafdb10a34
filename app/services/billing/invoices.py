"""Invoices as the portal shows them, and their PDF; what each has been paid, what is due and whether it is overdue."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Unpack

from pydantic import BaseModel
from sqlalchemy import case, func
from sqlmodel import Session, col, select

from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import InvoiceStatus, PaymentStatus
from app.models.user import User
from app.services.billing.stripe_gateway import configured
from app.services.platform import access, company
from app.services.platform.actions import Action
from app.services.platform.paging import Listing, Page, View


class InvoiceItemPublic(BaseModel):
    description: str
    quantity: int
    unit_price: str
    amount: str


class InvoiceSummary(BaseModel):
    """An invoice without its lines. Amounts are text with two decimals ("1234.50"); dates are ISO (YYYY-MM-DD)."""

    id: int
    invoice_number: str
    client_id: str
    project_id: int | None
    status: str
    description: str | None
    subtotal: str
    tax_amount: str
    total_amount: str
    issue_date: str | None
    due_date: str | None
    paid_date: str | None
    notes: str | None
    created_at: str
    # Money received and still due (text, two decimals); overdue: issued, unpaid, past its due date in the business
    # time zone, with something outstanding.
    amount_paid: str = "0.00"
    balance_due: str = "0.00"
    overdue: bool = False
    reminders_enabled: bool = True  # staff may switch the automatic overdue reminders off per invoice
    reminders_sent: int = 0
    last_reminder_on: str | None = None


class InvoicePublic(InvoiceSummary):
    """An invoice with its lines, in order."""

    items: list[InvoiceItemPublic]


class InvoiceRow(InvoiceSummary):
    """A row of the staff list: the invoice and its client's name."""

    client_name: str
    client_username: str


class ClientInvoice(InvoicePublic):
    """An invoice of the portal's list (without its lines), with what the caller may do with it (ADR 0065)."""

    can_download: Action  # the caller may download its PDF
    can_pay: Action = False  # issued, something due, and card payment is set up (online.start_checkout)


class PaymentBrief(BaseModel):
    """A payment as the staff list shows it: its method, its Stripe reference for card payments, and how much of it
    may still be refunded (ADR 0075: the amount counted toward the invoice and any excess, less what was refunded)."""

    id: int
    amount: str
    method: str
    status: str
    stripe_payment_intent_id: str | None
    refunded: str
    refundable: str
    can_refund: Action = False  # a card payment with something left to refund, and the caller writes billing


class StaffInvoice(InvoiceRow):
    """A row of the staff list, with what the calling staff member may do with it (ADR 0065)."""

    can_issue: Action  # a draft, and the caller writes billing
    can_record_payment: Action  # issued and unpaid, and the caller writes billing
    can_delete: Action  # a draft, and the caller writes billing
    can_download: Action  # issued: the list offers no draft's PDF
    can_switch_reminders: Action  # a draft or issued and unpaid, and the caller writes billing
    payments: list[PaymentBrief] = []  # its payments, oldest first (method, Stripe reference, refunds)


ZERO = Decimal("0.00")

# A payment counts toward its invoice while it stands (succeeded, or refunded in part or whole): its `amount` less
# the part of the refunds beyond its `excess_amount` (a refund gives back a card's excess first, ADR 0075). One
# formula, in Python (`counted`) and in SQL (COUNTED_SQL); a payment typed in by staff has neither refunds nor excess.
COUNTED = (PaymentStatus.succeeded, PaymentStatus.refunded)
COUNTED_SQL = case(
    (
        col(Payment.refunded_amount) > col(Payment.excess_amount),
        col(Payment.amount) + col(Payment.excess_amount) - col(Payment.refunded_amount),
    ),
    else_=col(Payment.amount),
)

# What an invoice has been paid: what its payments count, as a column of the invoice's own query (a correlated
# subquery), so a page, a CSV stream and the overdue filter read it in the same statement as the invoice.
PAID_SUM = (
    select(func.coalesce(func.sum(COUNTED_SQL), 0))
    .where(Payment.invoice_id == Invoice.id, col(Payment.status).in_(COUNTED))
    .correlate(Invoice)
    .scalar_subquery()
)
PAID = PAID_SUM.label("amount_paid")


def business_today(at: datetime | None = None) -> date:
    """The date it is (at `at`, or now) in the business time zone of company settings: an invoice due on the 10th
    is overdue from midnight of the 11th there, wherever the server runs."""
    return (at or utcnow()).astimezone(company.zone()).date()


def is_overdue(inv: Invoice, paid: Decimal, today: date) -> bool:
    """Issued and not paid (a voided or paid invoice never is), past its due date, with something outstanding."""
    return (
        inv.status == InvoiceStatus.pending
        and inv.due_date is not None
        and inv.due_date < today
        and inv.total_amount - paid > 0
    )


def overdue_clause(today: date) -> Any:
    """`is_overdue` in SQL, for the staff list's filter and the dashboard's count (with PAID in the same query)."""
    return (
        (col(Invoice.status) == InvoiceStatus.pending)
        & col(Invoice.due_date).is_not(None)
        & (col(Invoice.due_date) < today)
        & (col(Invoice.total_amount) > PAID_SUM)
    )


def paid_amount(s: Session, invoice_id: int | None) -> Decimal:
    """What one invoice has been paid: what its payments count, refunds deducted (never more than was applied)."""
    total = s.exec(
        select(func.coalesce(func.sum(COUNTED_SQL), 0)).where(
            Payment.invoice_id == invoice_id, col(Payment.status).in_(COUNTED)
        )
    ).one()
    return Decimal(total).quantize(ZERO)


def counted(p: Payment) -> Decimal:
    """What this payment contributes to its invoice now (COUNTED_SQL, for a row in hand)."""
    if p.status not in COUNTED:
        return ZERO
    return p.amount - max(Decimal(0), p.refunded_amount - p.excess_amount)


def refundable(p: Payment) -> Decimal:
    """What Stripe may still refund of a card payment's charge."""
    if not p.stripe_payment_intent_id or p.status not in COUNTED:
        return ZERO
    return max(Decimal(0), p.amount + p.excess_amount - p.refunded_amount)


def payments_of(s: Session, invoice_ids: Iterable[int | None]) -> dict[int, list[Payment]]:
    """The payments of these invoices, oldest first, by invoice id (one query for a page of invoices)."""
    ids = [i for i in invoice_ids if i is not None]
    found: dict[int, list[Payment]] = {i: [] for i in ids}
    if ids:
        query = select(Payment).where(col(Payment.invoice_id).in_(ids)).order_by(col(Payment.id))
        for p in s.exec(query):
            found[p.invoice_id].append(p)  # type: ignore[index]
    return found


def payment_brief(p: Payment, *, writes: bool) -> PaymentBrief:
    left = refundable(p)
    return PaymentBrief(
        id=p.id or 0,
        amount=f"{p.amount + p.excess_amount:.2f}",
        method=p.payment_method or "",
        status=str(p.status),
        stripe_payment_intent_id=p.stripe_payment_intent_id,
        refunded=f"{p.refunded_amount:.2f}",
        refundable=f"{left:.2f}",
        can_refund=writes and left > 0,
    )


def may_download(actor: User, inv: Invoice) -> bool:
    """Its PDF is offered once it is issued (a draft may still change), to its client and to staff who read billing."""
    return inv.status != InvoiceStatus.draft and (inv.client_id == actor.id or access.sees_all(actor, "invoice"))


def staff_invoice(
    actor: User,
    inv: Invoice,
    client: User,
    paid: Decimal = ZERO,
    today: date | None = None,
    payments: Iterable[Payment] = (),
) -> StaffInvoice:
    """The staff list's row with the caller's flags: a draft may be issued or deleted, an issued unpaid invoice may
    take a payment and have its reminders switched (billing:write, as issue_invoice, delete_draft, record_payment and
    reminders.switch check)."""
    writes = access.staff_can(actor, Perm.billing_write)
    draft, pending = inv.status == InvoiceStatus.draft, inv.status == InvoiceStatus.pending
    return StaffInvoice(
        **invoice_row(inv, client, paid, today).model_dump(),
        can_issue=writes and draft,
        can_record_payment=writes and pending,
        can_delete=writes and draft,
        can_download=may_download(actor, inv),
        can_switch_reminders=writes and (draft or pending),
        payments=[payment_brief(p, writes=writes) for p in payments],
    )


def _iso(value: object) -> str | None:
    return value.isoformat() if value is not None else None  # type: ignore[attr-defined]


def _summary(inv: Invoice, paid: Decimal = ZERO, today: date | None = None) -> dict[str, Any]:
    """The invoice's fields; `paid` is what its payments add up to, `today` the business day (now when not given)."""
    paid = Decimal(paid).quantize(ZERO)
    # Nothing is due on a paid invoice, nor on a void one (cancelled, ADR 0078).
    balance = max(inv.total_amount - paid, ZERO) if inv.status not in (InvoiceStatus.paid, InvoiceStatus.void) else ZERO
    return {
        "id": inv.id,
        "invoice_number": inv.invoice_number,
        "client_id": str(inv.client_id),
        "project_id": inv.project_id,
        "status": str(inv.status),
        "description": inv.description,
        "subtotal": f"{inv.subtotal:.2f}",
        "tax_amount": f"{inv.tax_amount:.2f}",
        "total_amount": f"{inv.total_amount:.2f}",
        "issue_date": _iso(inv.issue_date),
        "due_date": _iso(inv.due_date),
        "paid_date": _iso(inv.paid_date),
        "notes": inv.notes,
        "created_at": inv.created_at.isoformat(),
        "amount_paid": f"{paid:.2f}",
        "balance_due": f"{balance:.2f}",
        "overdue": is_overdue(inv, paid, today or business_today()),
        "reminders_enabled": inv.reminders_enabled,
        "reminders_sent": inv.reminders_sent,
        "last_reminder_on": _iso(inv.last_reminder_on),
    }


def _items(items: list[InvoiceItem] | None) -> list[InvoiceItemPublic]:
    return [
        InvoiceItemPublic(
            description=i.description, quantity=i.quantity, unit_price=f"{i.unit_price:.2f}", amount=f"{i.amount:.2f}"
        )
        for i in (items or [])
    ]


def invoice_dto(
    inv: Invoice, items: list[InvoiceItem] | None = None, paid: Decimal = ZERO, today: date | None = None
) -> InvoicePublic:
    return InvoicePublic(**_summary(inv, paid, today), items=_items(items))


def invoice_row(inv: Invoice, client: User, paid: Decimal = ZERO, today: date | None = None) -> InvoiceRow:
    """The staff list's row: the invoice without its lines, and its client's name (or username)."""
    name = " ".join(p for p in (client.first_name, client.last_name) if p)
    return InvoiceRow(
        **_summary(inv, paid, today), client_name=name or client.username, client_username=client.username
    )


NEWEST_FIRST = (col(Invoice.created_at).desc(), col(Invoice.id).desc())


def _visible(actor: User) -> Any:
    """The client's issued invoices (drafts stay with staff), or all invoices for staff who read billing; each with
    what it has been paid."""
    query = select(Invoice, PAID)
    if not access.sees_all(actor, "invoice"):
        query = query.where(Invoice.client_id == actor.id, Invoice.status != InvoiceStatus.draft)
    return query


def list_invoices(s: Session, *, actor: User) -> list[ClientInvoice]:
    """The actor's own issued invoices, newest first (the portal's list: a client has a handful; staff, who see every
    client's, page through list_invoices_page)."""
    query = select(Invoice, PAID).where(Invoice.client_id == actor.id, Invoice.status != InvoiceStatus.draft)
    rows = s.exec(query.order_by(*NEWEST_FIRST)).all()
    today, cards = business_today(), configured()
    return [
        ClientInvoice(
            **_summary(inv, paid, today),
            items=[],
            can_download=may_download(actor, inv),
            can_pay=cards and inv.status == InvoiceStatus.pending and inv.total_amount - paid > 0,
        )
        for inv, paid in rows
    ]


def _with_paid(row: tuple[Invoice, Decimal]) -> InvoicePublic:
    invoice, paid = row
    return invoice_dto(invoice, paid=paid)


def list_invoices_page(s: Session, *, actor: User, **view: Unpack[View]) -> Page[InvoicePublic]:
    """One page of the invoices the actor may see, newest first (GET /api/protected/invoices)."""
    return Listing(_with_paid, {"newest": NEWEST_FIRST}).page(s, _visible(actor), **view)


def get_invoice_with_items(s: Session, *, actor: User, invoice_id: int) -> tuple[Invoice, list[InvoiceItem], User]:
    """An invoice the actor may see, its items in order, and its client."""
    invoice = access.get_visible(s, Invoice, invoice_id, actor, "invoice", label="Invoice")
    items = list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id).order_by(col(InvoiceItem.id))))
    client = s.get(User, invoice.client_id)
    assert client is not None  # RESTRICT keeps a client with invoices from being deleted
    return invoice, items, client


def invoice_pdf(s: Session, *, actor: User, invoice_id: int) -> tuple[str, bytes]:
    """The file name and bytes of an invoice's PDF, generated now from the stored invoice."""
    invoice, _items, _client = get_invoice_with_items(s, actor=actor, invoice_id=invoice_id)
    return pdf_file(s, invoice)


def pdf_file(s: Session, invoice: Invoice) -> tuple[str, bytes]:
    """The PDF of an invoice the caller already holds (and may show): its file name, with the invoice number, and
    its bytes, with what has been paid and the bank-transfer instructions. Mails attach it; no access check here."""
    from app.services.billing.invoice_pdf import render  # fpdf and its fonts load on the first PDF, not at start-up

    items = list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id).order_by(col(InvoiceItem.id))))
    client = s.get(User, invoice.client_id)
    assert client is not None  # RESTRICT keeps a client with invoices from being deleted
    paid = paid_amount(s, invoice.id)
    return f"invoice-{invoice.invoice_number}.pdf", render(
        invoice, items, client, company=company.profile(s), paid=paid
    )

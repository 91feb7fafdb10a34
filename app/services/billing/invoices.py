"""Invoices as the portal shows them, and their PDF."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Unpack

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.core.permissions import Perm
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
    can_pay: Action = False  # issued, something outstanding, and card payment is set up (online.start_checkout)
    outstanding: str = "0.00"  # what is still owed, after payments and refunds


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
    payments: list[PaymentBrief] = []  # its payments, oldest first (method, Stripe reference, refunds)


def may_download(actor: User, inv: Invoice) -> bool:
    """Its PDF is offered once it is issued (a draft may still change), to its client and to staff who read billing."""
    return inv.status != InvoiceStatus.draft and (inv.client_id == actor.id or access.sees_all(actor, "invoice"))


def staff_invoice(actor: User, inv: Invoice, client: User, payments: Iterable[Payment] = ()) -> StaffInvoice:
    """The staff list's row with the caller's flags: a draft may be issued or deleted, an issued unpaid invoice may
    take a payment (billing:write, as issue_invoice, delete_draft and record_payment check), a card payment may be
    refunded (billing:write, as online.refund_payment checks)."""
    writes = access.staff_can(actor, Perm.billing_write)
    draft, pending = inv.status == InvoiceStatus.draft, inv.status == InvoiceStatus.pending
    return StaffInvoice(
        **invoice_row(inv, client).model_dump(),
        can_issue=writes and draft,
        can_record_payment=writes and pending,
        can_delete=writes and draft,
        can_download=may_download(actor, inv),
        payments=[payment_brief(p, writes=writes) for p in payments],
    )


# --- what has been paid ---------------------------------------------------------------------------------------
# A payment counts toward its invoice while it stands (succeeded, or refunded in part or whole): its `amount` less
# the part of the refunds that exceeds its `excess_amount` (a refund gives back the excess first, ADR 0075).
COUNTED = (PaymentStatus.succeeded, PaymentStatus.refunded)


def counted(p: Payment) -> Decimal:
    """What this payment contributes to its invoice now."""
    if p.status not in COUNTED:
        return Decimal("0.00")
    returned = max(Decimal(0), p.refunded_amount - p.excess_amount)
    return max(Decimal(0), p.amount - returned)


def refundable(p: Payment) -> Decimal:
    """What Stripe may still refund of a card payment's charge."""
    if not p.stripe_payment_intent_id or p.status not in COUNTED:
        return Decimal("0.00")
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


def paid_total(s: Session, invoice_id: int | None) -> Decimal:
    """What the invoice's payments cover now, refunds deducted: never more than what was applied to it."""
    return sum((counted(p) for p in payments_of(s, [invoice_id]).get(invoice_id or 0, [])), Decimal("0.00"))


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


def _iso(value: object) -> str | None:
    return value.isoformat() if value is not None else None  # type: ignore[attr-defined]


def _summary(inv: Invoice) -> dict[str, Any]:
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
    }


def _items(items: list[InvoiceItem] | None) -> list[InvoiceItemPublic]:
    return [
        InvoiceItemPublic(
            description=i.description, quantity=i.quantity, unit_price=f"{i.unit_price:.2f}", amount=f"{i.amount:.2f}"
        )
        for i in (items or [])
    ]


def invoice_dto(inv: Invoice, items: list[InvoiceItem] | None = None) -> InvoicePublic:
    return InvoicePublic(**_summary(inv), items=_items(items))


def invoice_row(inv: Invoice, client: User) -> InvoiceRow:
    """The staff list's row: the invoice without its lines, and its client's name (or username)."""
    name = " ".join(p for p in (client.first_name, client.last_name) if p)
    return InvoiceRow(**_summary(inv), client_name=name or client.username, client_username=client.username)


NEWEST_FIRST = (col(Invoice.created_at).desc(), col(Invoice.id).desc())


def _visible(actor: User) -> Any:
    """The client's issued invoices (drafts stay with staff), or all invoices for staff who read billing."""
    query = select(Invoice)
    if not access.sees_all(actor, "invoice"):
        query = query.where(Invoice.client_id == actor.id, Invoice.status != InvoiceStatus.draft)
    return query


def list_invoices(s: Session, *, actor: User) -> list[ClientInvoice]:
    """The actor's own issued invoices, newest first (the portal's list: a client has a handful; staff, who see every
    client's, page through list_invoices_page)."""
    query = select(Invoice).where(Invoice.client_id == actor.id, Invoice.status != InvoiceStatus.draft)
    rows = s.exec(query.order_by(*NEWEST_FIRST)).all()
    paid = payments_of(s, [inv.id for inv in rows])
    cards = configured()
    out = []
    for inv in rows:
        owed = inv.total_amount - sum((counted(p) for p in paid.get(inv.id or 0, [])), Decimal("0.00"))
        out.append(
            ClientInvoice(
                **_summary(inv),
                items=[],
                can_download=may_download(actor, inv),
                can_pay=cards and inv.status == InvoiceStatus.pending and owed > 0,
                outstanding=f"{max(owed, Decimal(0)):.2f}",
            )
        )
    return out


def list_invoices_page(s: Session, *, actor: User, **view: Unpack[View]) -> Page[InvoicePublic]:
    """One page of the invoices the actor may see, newest first (GET /api/protected/invoices)."""
    return Listing(invoice_dto, {"newest": NEWEST_FIRST}).page(s, _visible(actor), **view)


def get_invoice_with_items(s: Session, *, actor: User, invoice_id: int) -> tuple[Invoice, list[InvoiceItem], User]:
    """An invoice the actor may see, its items in order, and its client."""
    invoice = access.get_visible(s, Invoice, invoice_id, actor, "invoice", label="Invoice")
    items = list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id).order_by(col(InvoiceItem.id))))
    client = s.get(User, invoice.client_id)
    assert client is not None  # RESTRICT keeps a client with invoices from being deleted
    return invoice, items, client


def invoice_pdf(s: Session, *, actor: User, invoice_id: int) -> tuple[str, bytes]:
    """The file name and bytes of an invoice's PDF, generated now from the stored invoice."""
    from app.services.billing.invoice_pdf import render

    invoice, items, client = get_invoice_with_items(s, actor=actor, invoice_id=invoice_id)
    return f"invoice-{invoice.invoice_number}.pdf", render(invoice, items, client, company=company.profile(s))

"""Invoices as the portal shows them, and their PDF."""

from __future__ import annotations

from typing import Any, Unpack

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.models.billing import Invoice, InvoiceItem
from app.models.enums import InvoiceStatus
from app.models.user import User
from app.services.platform import access, company
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


def _iso(value: object) -> str | None:
    return value.isoformat() if value is not None else None  # type: ignore[attr-defined]


def invoice_dto(inv: Invoice, items: list[InvoiceItem] | None = None) -> dict[str, object]:
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
        "items": [
            {
                "description": i.description,
                "quantity": i.quantity,
                "unit_price": f"{i.unit_price:.2f}",
                "amount": f"{i.amount:.2f}",
            }
            for i in (items or [])
        ],
    }


NEWEST_FIRST = (col(Invoice.created_at).desc(), col(Invoice.id).desc())


def _visible(actor: User) -> Any:
    """The client's issued invoices (drafts stay with staff), or all invoices for staff who read billing."""
    query = select(Invoice)
    if not access.sees_all(actor, "invoice"):
        query = query.where(Invoice.client_id == actor.id, Invoice.status != InvoiceStatus.draft)
    return query


def list_invoices(s: Session, *, actor: User) -> list[dict[str, object]]:
    """The actor's own issued invoices, newest first (the portal's list: a client has a handful; staff, who see every
    client's, page through list_invoices_page)."""
    query = select(Invoice).where(Invoice.client_id == actor.id, Invoice.status != InvoiceStatus.draft)
    return [invoice_dto(inv) for inv in s.exec(query.order_by(*NEWEST_FIRST)).all()]


def list_invoices_page(s: Session, *, actor: User, **view: Unpack[View]) -> Page[dict[str, Any]]:
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

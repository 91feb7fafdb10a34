"""Staff calls on invoices: the list and its CSV, drafts, issuing, payments."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from app.api.crud import Write, writes
from app.api.deps import (
    DownloadUser,
    Paged,
    RowId,
    Search,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.downloads import csv_file
from app.api.schemas import Done, Listed, Saved
from app.core.permissions import Perm
from app.services.billing import billing, orders
from app.services.billing.billing import InvoiceCreate, PaymentCreate
from app.services.billing.invoices import InvoicePublic, InvoiceRow
from app.services.billing.orders import OrderRow

router = APIRouter(tags=["content"])


@router.get("/admin/invoices/export", response_class=StreamingResponse)
def export_invoices(
    user: DownloadUser,
    s: SessionDep,
    search: Search = "",
    status: InvoiceStatusFilter = "",
    sort: InvoiceSort = "newest",
) -> StreamingResponse:
    """Every invoice the staff list shows with these filters, as a CSV file streamed row by row (billing:read)."""
    return csv_file("invoices", billing.export_invoices(s, actor=user, search=search, status=status, sort=sort))


InvoiceStatusFilter = Annotated[str, Query(description="draft, pending or paid; empty for all.")]
InvoiceSort = Annotated[str, Query(description="newest (default), oldest, number, total or due.")]


@router.get("/admin/invoices", response_model=Listed[InvoiceRow])
def list_invoices(
    user: StaffUser, s: SessionDep, paged: Paged, status: InvoiceStatusFilter = "", sort: InvoiceSort = "newest"
) -> dict[str, Any]:
    """Every client's invoices, drafts included, searched, filtered and paged in SQL (billing:read)."""
    return billing.list_invoices(s, actor=user, status=status, sort=sort, **paged).as_json()


writes(
    router,
    "/admin/invoices",
    "invoice_id",
    noun="Invoice",
    public=InvoicePublic,
    perm=Perm.billing_write,
    things="invoices",
    create=Write(billing.create_invoice, "Create a draft invoice with line items (billing:write).", InvoiceCreate),
)


@router.post(
    "/admin/invoices/{invoice_id}/issue",
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="issue invoices")],
)
def issue_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """Issue a draft: the client sees it and is e-mailed (billing:write)."""
    return {"data": billing.issue_invoice(s, actor=user, invoice_id=invoice_id), "message": "Invoice issued"}


@router.post(
    "/admin/invoices/{invoice_id}/payments",
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="record payments on invoices")],
)
def record_payment(invoice_id: RowId, user: StaffUser, s: SessionDep, body: PaymentCreate) -> dict[str, Any]:
    """Record a payment; the invoice is paid once payments cover it (billing:write)."""
    data = billing.record_payment(s, actor=user, invoice_id=invoice_id, data=body)
    return {"data": data, "message": "Payment recorded"}


@router.delete(
    "/admin/invoices/{invoice_id}",
    response_model=Done,
    dependencies=[permitted(Perm.billing_write, doing="delete invoices")],
)
def delete_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a draft invoice (billing:write)."""
    billing.delete_draft(s, actor=user, invoice_id=invoice_id)
    return {"message": "Invoice deleted"}


OrderStatusFilter = Annotated[
    str, Query(description="pending, completed (paid), cancelled or refunded; empty for all.")
]
OrderSort = Annotated[str, Query(description="newest (default), oldest, number or total.")]


@router.get("/admin/orders", response_model=Listed[OrderRow])
def list_orders(
    user: StaffUser, s: SessionDep, paged: Paged, status: OrderStatusFilter = "", sort: OrderSort = "newest"
) -> dict[str, Any]:
    """Every client's orders and subscriptions (billing:read): order number, client, items, total, status and the
    subscription's status, searched, filtered and paged in SQL."""
    return orders.list_orders(s, actor=user, status=status, sort=sort, **paged).as_json()

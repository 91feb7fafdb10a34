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
from app.api.schemas import Done, Listed, One, Saved
from app.core.permissions import Perm
from app.services.billing import billing, online, orders, reminders, workflow
from app.services.billing.billing import InvoiceCreate, PaymentCreate
from app.services.billing.invoices import InvoicePublic, InvoiceRow
from app.services.billing.online import RefundCreate
from app.services.billing.orders import OrderRow
from app.services.billing.reminders import ReminderSwitch
from app.services.billing.workflow import InvoiceDetailPublic, InvoiceEdit, VoidRequest

router = APIRouter(tags=["content"])


@router.get("/admin/invoices/export", response_class=StreamingResponse)
def export_invoices(
    user: DownloadUser,
    s: SessionDep,
    search: Search = "",
    status: InvoiceStatusFilter = "",
    overdue: OverdueFilter = False,
    sort: InvoiceSort = "newest",
) -> StreamingResponse:
    """Every invoice the staff list shows with these filters, as a CSV file streamed row by row (billing:read)."""
    rows = billing.export_invoices(s, actor=user, search=search, status=status, overdue=overdue, sort=sort)
    return csv_file("invoices", rows)


InvoiceStatusFilter = Annotated[str, Query(description="draft, pending, paid or void; empty for all.")]
OverdueFilter = Annotated[
    bool, Query(description="true: only overdue invoices (issued, unpaid, past their due date in the business zone).")
]
InvoiceSort = Annotated[str, Query(description="newest (default), oldest, number, total or due.")]


@router.get("/admin/invoices", response_model=Listed[InvoiceRow])
def list_invoices(
    user: StaffUser,
    s: SessionDep,
    paged: Paged,
    status: InvoiceStatusFilter = "",
    overdue: OverdueFilter = False,
    sort: InvoiceSort = "newest",
) -> dict[str, Any]:
    """Every client's invoices, drafts included, searched, filtered (status, overdue) and paged in SQL
    (billing:read); each with what it has been paid, its balance due and whether it is overdue."""
    return billing.list_invoices(s, actor=user, status=status, overdue=overdue, sort=sort, **paged).as_json()


writes(
    router,
    "/admin/invoices",
    "invoice_id",
    noun="Invoice",
    public=InvoicePublic,
    perm=Perm.billing_write,
    things="invoices",
    create=Write(billing.create_invoice, "Create a draft invoice with line items (billing:write).", InvoiceCreate),
    update=Write(
        workflow.update_draft,
        "Replace a draft's lines, tax rate, description, due date and notes; totals recomputed (billing:write).",
        InvoiceEdit,
    ),
)


@router.get(
    "/admin/invoices/{invoice_id}",
    response_model=One[InvoiceDetailPublic],
    dependencies=[permitted(Perm.billing_read, doing="view invoices")],
)
def get_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, Any]:
    """One invoice with its lines, payments, mails sent about it and audit trail (billing:read)."""
    return {"data": workflow.invoice_detail(s, actor=user, invoice_id=invoice_id)}


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


@router.post(
    "/admin/invoices/{invoice_id}/void",
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="void invoices")],
)
def void_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep, body: VoidRequest) -> dict[str, Any]:
    """Void an issued invoice with nothing paid on it, with a reason; the client is e-mailed (billing:write)."""
    data = workflow.void_invoice(s, actor=user, invoice_id=invoice_id, data=body)
    return {"data": data, "message": "Invoice voided"}


@router.put(
    "/admin/invoices/{invoice_id}/reminders",
    response_model=Saved[InvoicePublic],
    dependencies=[permitted(Perm.billing_write, doing="switch invoice reminders")],
)
def switch_reminders(invoice_id: RowId, user: StaffUser, s: SessionDep, body: ReminderSwitch) -> dict[str, Any]:
    """Switch an invoice's automatic overdue reminders on or off (billing:write)."""
    data = reminders.set_reminders(s, actor=user, invoice_id=invoice_id, data=body)
    return {"data": data, "message": "Reminders on" if data.reminders_enabled else "Reminders off"}


@router.delete(
    "/admin/invoices/{invoice_id}",
    response_model=Done,
    dependencies=[permitted(Perm.billing_write, doing="delete invoices")],
)
def delete_invoice(invoice_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a draft invoice (billing:write)."""
    billing.delete_draft(s, actor=user, invoice_id=invoice_id)
    return {"message": "Invoice deleted"}


@router.post(
    "/admin/payments/{payment_id}/refund",
    response_model=Done,
    dependencies=[permitted(Perm.billing_write, doing="refund payments")],
)
def refund_payment(payment_id: RowId, user: StaffUser, s: SessionDep, body: RefundCreate) -> dict[str, str]:
    """Refund a card payment through Stripe, all that is left of it unless `amount` is given (billing:write). The
    payment and the invoice change when Stripe confirms the refund (its charge.refunded event)."""
    refund = online.refund_payment(s, actor=user, payment_id=payment_id, amount=body.amount)
    return {"message": f"Refund {refund} requested; the invoice updates when Stripe confirms it"}


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

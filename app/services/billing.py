"""Invoices by staff: line items with server-side arithmetic, sequential numbers, draft → pending → paid, payments.

Money is Decimal throughout: a line's amount is quantity times unit price, the tax is the subtotal times the rate,
rounded half-up to the cent, and the total is their sum, so the PDF, the portal and the database always agree.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import func, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Conflict, Forbidden, Invalid, NotFound
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import InvoiceStatus, PaymentStatus
from app.models.project import Project
from app.models.user import User
from app.services import audit, mail
from app.services import validation as v
from app.services.access import staff_can
from app.services.invoices import invoice_dto

CENT = Decimal("0.01")
NUMBER_ATTEMPTS = 5


def line_amount(quantity: int, unit_price: Decimal) -> Decimal:
    return (Decimal(quantity) * unit_price).quantize(CENT, rounding=ROUND_HALF_UP)


def totals(amounts: list[Decimal], tax_rate_percent: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    subtotal = sum(amounts, Decimal("0.00")).quantize(CENT)
    tax = (subtotal * tax_rate_percent / Decimal(100)).quantize(CENT, rounding=ROUND_HALF_UP)
    return subtotal, tax, subtotal + tax


def _require(actor: User, perm: str, verb: str) -> None:
    if not staff_can(actor, perm):
        raise Forbidden(f"You don't have permission to {verb} invoices")


INVOICE_NUMBER_LOCK = 72_001  # an arbitrary application-wide advisory lock id


def _next_number(s: Session, year: int) -> str:
    if s.get_bind().dialect.name == "postgresql":
        # Creators queue here until the holder commits, so numbers are sequential with neither duplicates nor retries.
        s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": INVOICE_NUMBER_LOCK})
    prefix = f"INV-{year}-"
    last = s.exec(select(func.max(Invoice.invoice_number)).where(col(Invoice.invoice_number).startswith(prefix))).one()
    sequence = int(last.removeprefix(prefix)) + 1 if last else 1
    return f"{prefix}{sequence:04d}"


def _items(data: list[dict[str, Any]], errors: dict[str, str]) -> list[tuple[str, int, Decimal]]:
    if not data:
        errors["items"] = "Add at least one line item"
    lines = []
    for i, item in enumerate(data):
        desc = v.text(
            item.get("description"), f"items.{i}.description", errors, "Description", limit=500, required=True
        )
        qty = v.whole(item.get("quantity"), f"items.{i}.quantity", errors, "Quantity", low=1, high=100000)
        price = v.money(item.get("unit_price"), f"items.{i}.unit_price", errors, "Unit price")
        if qty is None and f"items.{i}.quantity" not in errors:
            errors[f"items.{i}.quantity"] = "Quantity is required"
        if price is None and f"items.{i}.unit_price" not in errors:
            errors[f"items.{i}.unit_price"] = "Unit price is required"
        if desc and qty and price is not None:
            lines.append((desc, qty, price))
    return lines


def _header(s: Session, data: dict[str, Any], errors: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    client = v.client(s, data.get("client_id"), errors)
    if client is not None:
        out["client_id"] = client.id
    if data.get("project_id") not in (None, ""):
        project = s.get(Project, v.whole(data["project_id"], "project_id", errors, "Project", low=1, high=2**31) or 0)
        if project is None or (client is not None and project.client_id != client.id):
            errors["project_id"] = "The project must belong to the same client"
        else:
            out["project_id"] = project.id
    out["description"] = v.text(data.get("description"), "description", errors, "Description", limit=500)
    out["notes"] = v.text(data.get("notes"), "notes", errors, "Notes", limit=5000)
    out["due_date"] = v.day(data.get("due_date"), "due_date", errors, "Due date")
    return out


def _tax_rate(data: dict[str, Any], errors: dict[str, str]) -> Decimal:
    rate = v.money(data.get("tax_rate", "0"), "tax_rate", errors, "Tax rate")
    if rate is not None and rate > 100:
        errors["tax_rate"] = "Tax rate cannot exceed 100%"
    return rate or Decimal("0")


def create_invoice(s: Session, *, actor: User, data: dict[str, Any]) -> dict[str, Any]:
    """A draft invoice with its lines; the number is the next of the year, unique even under concurrent creation."""
    _require(actor, Perm.billing_write, "create")
    errors: dict[str, str] = {}
    header = _header(s, data, errors)
    lines = _items(list(data.get("items") or []), errors)
    rate = _tax_rate(data, errors)
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    subtotal, tax, total = totals([line_amount(q, p) for _, q, p in lines], rate)
    year = utcnow().year
    for _attempt in range(NUMBER_ATTEMPTS):
        invoice = Invoice(
            invoice_number=_next_number(s, year), subtotal=subtotal, tax_amount=tax, total_amount=total, **header
        )
        s.add(invoice)
        try:
            s.flush()  # the unique constraint is the last word (SQLite has no advisory lock): retry on a clash
        except IntegrityError:
            s.rollback()
            continue
        s.add_all(
            InvoiceItem(invoice_id=invoice.id, description=d, quantity=q, unit_price=p, amount=line_amount(q, p))  # type: ignore[arg-type]
            for d, q, p in lines
        )
        audit.record(s, actor=actor, action="invoice.create", entity=invoice)
        s.commit()
        return _dto(s, invoice)
    raise Conflict("Could not allocate an invoice number, please try again")


def _dto(s: Session, invoice: Invoice) -> dict[str, Any]:
    items = list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id).order_by(col(InvoiceItem.id))))
    return invoice_dto(invoice, items)


def _get(s: Session, invoice_id: int) -> Invoice:
    invoice = s.get(Invoice, invoice_id)
    if invoice is None:
        raise NotFound("Invoice not found")
    return invoice


def issue_invoice(s: Session, *, actor: User, invoice_id: int) -> dict[str, Any]:
    """Draft → pending: the client can now see it, and is told by e-mail."""
    _require(actor, Perm.billing_write, "issue")
    invoice = _get(s, invoice_id)
    if invoice.status != InvoiceStatus.draft:
        raise Invalid("Only draft invoices can be issued.")
    invoice.status = InvoiceStatus.pending
    invoice.issue_date = invoice.issue_date or date.today()
    client = s.get(User, invoice.client_id)
    if client is not None:
        due = f" It is due on {invoice.due_date:%B %-d, %Y}." if invoice.due_date else ""
        mail.enqueue(
            s,
            to=client.email,
            subject=f"Invoice {invoice.invoice_number} from {settings.company_name}",
            text=(
                f"Hello {client.first_name or client.username},\n\nInvoice {invoice.invoice_number} for "
                f"${invoice.total_amount:,.2f} is ready.{due}\n\nView and download it in your client portal: "
                f"{settings.public_url}/client-portal\n\n{settings.company_name}\n"
            ),
        )
    s.add(invoice)
    audit.record(s, actor=actor, action="invoice.issue", entity=invoice)
    s.commit()
    return _dto(s, invoice)


def record_payment(
    s: Session, *, actor: User, invoice_id: int, amount: Any = None, method: str | None = None, paid_on: Any = None
) -> dict[str, Any]:
    """Record a payment on an issued invoice; once payments cover the total, it is paid (paid date set)."""
    _require(actor, Perm.billing_write, "record payments on")
    invoice = _get(s, invoice_id)
    if invoice.status != InvoiceStatus.pending:
        raise Invalid("Payments can be recorded on issued, unpaid invoices only.")
    errors: dict[str, str] = {}
    paid_so_far = s.exec(
        select(func.coalesce(func.sum(Payment.amount), 0)).where(
            Payment.invoice_id == invoice.id, Payment.status == PaymentStatus.succeeded
        )
    ).one()
    outstanding = invoice.total_amount - Decimal(paid_so_far)
    value = v.money(amount, "amount", errors, "Amount") if amount not in (None, "") else outstanding
    day = v.day(paid_on, "paid_on", errors, "Payment date") or date.today()
    if value is not None and (value <= 0 or value > outstanding):
        errors["amount"] = f"Amount must be between $0.01 and the outstanding ${outstanding:,.2f}"
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    s.add(
        Payment(
            invoice_id=invoice.id,
            amount=value,  # type: ignore[arg-type]
            payment_method=(method or "").strip()[:50] or None,
            status=PaymentStatus.succeeded,
            processed_at=utcnow(),
        )
    )
    if value == outstanding:
        invoice.status, invoice.paid_date = InvoiceStatus.paid, day
        s.add(invoice)
    audit.record(s, actor=actor, action="invoice.payment", entity=invoice, details={"amount": str(value)})
    s.commit()
    return _dto(s, invoice)


def delete_draft(s: Session, *, actor: User, invoice_id: int) -> None:
    """Only drafts may be deleted: an issued invoice is a business record."""
    _require(actor, Perm.billing_write, "delete")
    invoice = _get(s, invoice_id)
    if invoice.status != InvoiceStatus.draft:
        raise Invalid("Issued invoices cannot be deleted.")
    audit.record(s, actor=actor, action="invoice.delete", details={"number": invoice.invoice_number})
    s.delete(invoice)
    s.commit()

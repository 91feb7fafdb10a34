"""Invoices by staff: line items with server-side arithmetic, sequential numbers, draft → pending → paid, payments.

Money is Decimal throughout: a line's amount is quantity times unit price, the tax is the subtotal times the rate,
rounded half-up to the cent, and the total is their sum, so the PDF, the portal and the database always agree.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Unpack

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy import func, text
from sqlmodel import Session, col, select

from app.core.db import MAX_ID, get_by_id, valid_id
from app.core.errors import Invalid, NotFound
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.billing import Invoice, InvoiceItem, Payment
from app.models.enums import InvoiceStatus, PaymentStatus
from app.models.project import Project
from app.models.user import User
from app.services.accounts.admin_users import CLIENT_SEARCH
from app.services.billing import receipts
from app.services.billing.invoices import (
    PAID,
    PAID_SUM,
    InvoicePublic,
    StaffInvoice,
    business_today,
    invoice_dto,
    invoice_row,
    overdue_clause,
    paid_amount,
    payments_of,
    staff_invoice,
)
from app.services.platform import access, audit
from app.services.platform import validation as v
from app.services.platform.csv_export import table
from app.services.platform.paging import Listing, Ordering, Page, View, one_of
from app.services.platform.schema import AList, Day, Input, Money, RawText, Text, Whole, parse, problem, required

CENT = Decimal("0.01")


def line_amount(quantity: int, unit_price: Decimal) -> Decimal:
    return (Decimal(quantity) * unit_price).quantize(CENT, rounding=ROUND_HALF_UP)


def totals(amounts: list[Decimal], tax_rate_percent: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    subtotal = sum(amounts, Decimal("0.00")).quantize(CENT)
    tax = (subtotal * tax_rate_percent / Decimal(100)).quantize(CENT, rounding=ROUND_HALF_UP)
    return subtotal, tax, subtotal + tax


# The year's counter row, bumped in the transaction that inserts the invoice. The upsert locks the row (PostgreSQL;
# SQLite has one writer): a parallel creator waits until this transaction ends, then takes the next number, or this
# one if it rolled back. Numbers are compared as integers, so INV-2026-9999 is followed by INV-2026-10000.
_BUMP = text(
    "INSERT INTO invoice_number_counters (year, last_number) VALUES (:year, 1) "
    "ON CONFLICT (year) DO UPDATE SET last_number = invoice_number_counters.last_number + 1 "
    "RETURNING last_number"
)
# Raise a year's counter to at least :n (an invoice inserted with its own number, like the demo content's).
_RAISE = text(
    "INSERT INTO invoice_number_counters (year, last_number) VALUES (:year, :n) "
    "ON CONFLICT (year) DO UPDATE SET last_number = excluded.last_number "
    "WHERE invoice_number_counters.last_number < excluded.last_number"
)
NUMBER = re.compile(r"INV-(\d{4})-(\d+)")


def _next_number(s: Session, year: int) -> str:
    sequence = s.execute(_BUMP, {"year": year}).scalar_one()
    return f"INV-{year}-{sequence:04d}"


def number_used(s: Session, invoice_number: str) -> None:
    """Note a number given to an invoice inserted by other means, so the counter never hands it out again."""
    if match := NUMBER.fullmatch(invoice_number):
        s.execute(_RAISE, {"year": int(match[1]), "n": int(match[2])})


# --- what a form may send ---------------------------------------------------------------------------------------


def _some_lines(lines: list[Any]) -> list[Any]:
    if not lines:
        raise problem("Add at least one line item")
    return lines


def _rate(rate: Decimal | None) -> Decimal:
    if rate is not None and rate > 100:
        raise problem("Tax rate cannot exceed 100%")
    return rate or Decimal("0")


# Null is no tax (the form's "0"), so the field accepts it; the value is never null once checked.
TaxRate = Annotated[Decimal | None, Money("Tax rate"), AfterValidator(_rate)]


class InvoiceLine(Input):
    """A line as the staff form's live preview prices it: its description may still be empty."""

    description: Annotated[str | None, Text("Description", 500)] = None
    quantity: Annotated[int | None, Whole("Quantity", 1, 100_000, required=True)] = Field(None, validate_default=True)
    unit_price: Annotated[Decimal | None, Money("Unit price", required=True)] = Field(None, validate_default=True)


class InvoiceLineCreate(InvoiceLine):
    """A line of a saved invoice: a description, a quantity and a unit price; its amount is computed."""

    model_config = ConfigDict(json_schema_extra=required("description", "quantity", "unit_price"))

    description: Annotated[str | None, Text("Description", 500, required=True)] = Field(None, validate_default=True)


class InvoiceDraftLines(Input):
    """What the preview prices: lines (at least one) and a tax rate in percent (0 when not sent)."""

    # A Sequence here, so the saved invoice's model may narrow it to lines with descriptions.
    items: Annotated[Sequence[InvoiceLine], AList, AfterValidator(_some_lines)] = Field(None, validate_default=True)
    tax_rate: TaxRate = Field(Decimal("0"), description="Tax rate in percent, 0 to 100, in hundredths at most.")


class InvoiceLines(InvoiceDraftLines):
    items: Annotated[list[InvoiceLineCreate], AList, AfterValidator(_some_lines)] = Field(
        None, validate_default=True, description="At least one line, in order."
    )


class InvoiceCreate(InvoiceLines):
    """A draft invoice: whose it is (a client, and optionally one of their projects), what for, and its lines."""

    model_config = ConfigDict(json_schema_extra=required("client_id", "items"))

    client_id: RawText = Field(None, validate_default=True, description="The client's user id (a UUID).")
    project_id: Annotated[
        int | None, Whole("Project", 1, MAX_ID, refusal="The project must belong to the same client")
    ] = Field(None, description="One of the client's projects, or none.")
    description: Annotated[str | None, Text("Description", 500)] = None
    notes: Annotated[str | None, Text("Notes", 5000)] = None
    due_date: Annotated[date | None, Day("Due date")] = None


class PaymentCreate(Input):
    """A payment received: the outstanding amount when none is given, paid today when no date is given."""

    amount: Annotated[Decimal | None, Money("Amount")] = Field(None, description="Defaults to what is outstanding.")
    method: Annotated[str | None, Text("Payment method", 50, one_line=True)] = None
    paid_on: Annotated[date | None, Day("Payment date")] = None


def _header(s: Session, body: InvoiceCreate) -> dict[str, Any]:
    """The invoice's columns besides its lines, with what the schema cannot say: that the client is a client and the
    project is theirs."""
    errors: dict[str, str] = {}
    client = v.client(s, body.client_id, errors)
    out: dict[str, Any] = {"client_id": client.id if client else None}
    if body.project_id is not None:
        project = get_by_id(s, Project, body.project_id)
        if project is None or (client is not None and project.client_id != client.id):
            errors["project_id"] = "The project must belong to the same client"
        else:
            out["project_id"] = project.id
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    return {**out, "description": body.description, "notes": body.notes, "due_date": body.due_date}


def _overflow(lines: Sequence[InvoiceLine], rate: Decimal) -> dict[str, str]:
    """Each amount is stored as Numeric(10, 2): a line, the subtotal or the total past its maximum is refused."""
    limit = f"${v.MAX_MONEY:,.2f}"
    amounts = [line_amount(line.quantity or 0, line.unit_price or Decimal(0)) for line in lines]
    for i, amount in enumerate(amounts):
        if amount > v.MAX_MONEY:
            return {f"items.{i}.quantity": f"Quantity times unit price cannot exceed {limit}"}
    subtotal, _, total = totals(amounts, rate)
    if subtotal > v.MAX_MONEY:
        return {"items": f"The invoice's lines cannot add up to more than {limit}"}
    if total > v.MAX_MONEY:
        return {"tax_rate": f"With this tax rate the invoice total would exceed {limit}"}
    return {}


@dataclass(frozen=True)
class PricedLine:
    description: str
    quantity: int
    unit_price: Decimal
    amount: Decimal


@dataclass(frozen=True)
class InvoiceTotals:
    """An invoice's arithmetic: its lines with their amounts, the subtotal, the tax and the total."""

    lines: tuple[PricedLine, ...]
    subtotal: Decimal
    tax: Decimal
    total: Decimal


def price_invoice(
    items: Sequence[InvoiceLine | Mapping[str, Any]], tax_rate: Any = "0", *, descriptions: bool = True
) -> InvoiceTotals:
    """Each line's amount, the subtotal, the tax and the total, exactly as create_invoice stores them (no database).

    Raises Invalid with create_invoice's field errors (`items.N.quantity`, `tax_rate`, `items`, ...), a total past
    what Numeric(10, 2) holds included. `descriptions=False` prices lines whose descriptions are not written yet
    (the staff form's live preview); create_invoice requires them.
    """
    model = InvoiceLines if descriptions else InvoiceDraftLines
    body = parse(model, {"items": [_plain(line) for line in items], "tax_rate": tax_rate})
    return _priced(body.items, body.tax_rate or Decimal(0))


def _plain(line: InvoiceLine | Mapping[str, Any]) -> Mapping[str, Any]:
    return line.sent() if isinstance(line, InvoiceLine) else line


def _priced(lines: Sequence[InvoiceLine], rate: Decimal) -> InvoiceTotals:
    if errors := _overflow(lines, rate):
        raise Invalid(next(iter(errors.values())), errors=errors)
    priced = tuple(
        PricedLine(line.description or "", q, p, line_amount(q, p))
        for line in lines
        if (q := line.quantity) is not None and (p := line.unit_price) is not None
    )
    subtotal, tax, total = totals([line.amount for line in priced], rate)
    return InvoiceTotals(lines=priced, subtotal=subtotal, tax=tax, total=total)


# The staff list's orders: newest first unless asked; invoices without a due date come last by due date.
INVOICE_SORTS = {
    "newest": (col(Invoice.created_at).desc(), col(Invoice.id).desc()),
    "oldest": (col(Invoice.created_at), col(Invoice.id)),
    "number": (col(Invoice.invoice_number), col(Invoice.id)),
    "total": (col(Invoice.total_amount).desc(), col(Invoice.id).desc()),
    "due": (col(Invoice.due_date).is_(None), col(Invoice.due_date), col(Invoice.id)),
}
INVOICE_SEARCH = (Invoice.invoice_number, *CLIENT_SEARCH)
PROJECT_CHOICES_MAX = 100


def _triple(row: tuple[Invoice, User, Decimal]) -> tuple[Invoice, User, Decimal]:
    return row


# The page and the CSV share the query, its search and its sorts; each makes its own row of an (invoice, client,
# amount paid) triple.
INVOICES = Listing(_triple, INVOICE_SORTS, INVOICE_SEARCH)


def list_invoices(
    s: Session, *, actor: User, status: str = "", overdue: bool = False, **view: Unpack[View]
) -> Page[StaffInvoice]:
    """A page of every client's invoices for staff (billing:read), drafts included, with each client's name, what
    each has been paid and is due, and what the caller may do with each (`StaffInvoice`'s flags).

    Searched in SQL by invoice number and the client's username, e-mail, names or company; filtered by status and,
    with `overdue`, to the overdue ones; sorted by one of INVOICE_SORTS (newest first unless asked).
    """
    today = business_today()
    found = INVOICES.page(s, _invoices(actor, status=status, overdue=overdue, today=today), **view)
    payments = payments_of(s, [inv.id for inv, _, _ in found.data])
    return found.with_data(
        [
            staff_invoice(actor, inv, client, paid, today, payments.get(inv.id or 0, []))
            for inv, client, paid in found.data
        ]
    )


INVOICE_COLUMNS = (
    "invoice_number", "status", "client_name", "client_username", "issue_date", "due_date", "paid_date", "subtotal",
    "tax_amount", "total_amount", "amount_paid", "balance_due", "overdue", "description", "notes", "created_at",
)  # fmt: skip


def _invoices(actor: User, *, status: str, overdue: bool, today: date) -> Any:
    access.require(actor, Perm.billing_read, "view invoices")
    query = select(Invoice, User, PAID).join(User, col(Invoice.client_id) == col(User.id))
    if overdue:
        query = query.where(overdue_clause(today))
    return one_of(query, Invoice.status, status, InvoiceStatus)


def export_invoices(
    s: Session, *, actor: User, status: str = "", overdue: bool = False, **order: Unpack[Ordering]
) -> Iterator[str]:
    """Every invoice the staff list shows with these filters, as CSV text in pieces (checked before the first)."""
    today = business_today()
    query = _invoices(actor, status=status, overdue=overdue, today=today)
    rows = (
        invoice_row(inv, client, paid, today).model_dump() for inv, client, paid in INVOICES.stream(s, query, **order)
    )
    return table(INVOICE_COLUMNS, rows)


class OwedFigures(BaseModel):
    """How many invoices are unpaid (or overdue) and what they still owe in all (text, two decimals)."""

    count: int
    amount: str


def _owed(s: Session, where: Any) -> OwedFigures:
    owed = func.coalesce(func.sum(col(Invoice.total_amount) - PAID_SUM), 0)
    count, amount = s.exec(select(func.count(), owed).where(where)).one()
    return OwedFigures(count=int(count), amount=f"{Decimal(amount):.2f}")


def overdue_figures(s: Session, *, actor: User) -> OwedFigures:
    """The overdue invoices' count and outstanding total, as the staff list's overdue filter finds them (billing:read;
    the dashboard's billing card)."""
    access.require(actor, Perm.billing_read, "view invoices")
    return _owed(s, overdue_clause(business_today()))


def unpaid_figures(s: Session, *, actor: User) -> OwedFigures:
    """The issued invoices not yet paid (the staff list's "Pending" filter) and what they still owe (billing:read;
    the dashboard's "needs doing")."""
    access.require(actor, Perm.billing_read, "view invoices")
    return _owed(s, col(Invoice.status) == InvoiceStatus.pending)


class InvoiceProject(BaseModel):
    """A project the invoice form offers: its id (as text, a select's value) and its name."""

    id: str
    name: str


def project_choices(s: Session, *, actor: User, client_id: str) -> list[InvoiceProject]:
    """One client's projects for the invoice form (billing:write), newest first.

    Empty for staff who do not read projects (content:read): their invoices simply name no project.
    """
    access.require(actor, Perm.billing_write, "create invoices")
    try:
        client = uuid.UUID(str(client_id))
    except ValueError:
        return []
    if not access.sees_all(actor, "project"):
        return []
    rows = s.exec(
        select(Project.id, Project.name)
        .where(Project.client_id == client)
        .order_by(col(Project.created_at).desc(), col(Project.id).desc())
        .limit(PROJECT_CHOICES_MAX)
    ).all()
    return [InvoiceProject(id=str(pid), name=name) for pid, name in rows]


def create_invoice(s: Session, *, actor: User, data: InvoiceCreate | Mapping[str, Any]) -> InvoicePublic:
    """A draft invoice with its lines; the number is the next of the year, unique even under concurrent creation."""
    access.require(actor, Perm.billing_write, "create invoices")
    body = parse(InvoiceCreate, data)
    header = _header(s, body)
    priced = _priced(body.items, body.tax_rate or Decimal(0))
    invoice = Invoice(
        invoice_number=_next_number(s, utcnow().year),
        subtotal=priced.subtotal,
        tax_amount=priced.tax,
        total_amount=priced.total,
        tax_rate=body.tax_rate or Decimal(0),
        **header,
    )
    s.add(invoice)
    s.flush()  # the unique constraint stays the last word: a clash (a hand-made row) fails rather than duplicates
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
    audit.record(s, actor=actor, action="invoice.create", entity=invoice)
    s.commit()
    return _dto(s, invoice)


def _dto(s: Session, invoice: Invoice) -> InvoicePublic:
    items = list(s.exec(select(InvoiceItem).where(InvoiceItem.invoice_id == invoice.id).order_by(col(InvoiceItem.id))))
    return invoice_dto(invoice, items, paid_amount(s, invoice.id))


def _locked(s: Session, invoice_id: int) -> Invoice:
    """The invoice, its row locked until this transaction ends and read afresh after the lock.

    Every change of an invoice or of its payments starts here (issue, payment, delete, and whatever comes next: online
    payment, void, reminders), so two of them on one invoice run one after the other and the second decides on what
    the first left: an invoice is paid once and mailed once. SQLite ignores FOR UPDATE; it has one writer.
    """
    if not valid_id(invoice_id):
        raise NotFound("Invoice not found")
    query = select(Invoice).where(Invoice.id == invoice_id).with_for_update()
    invoice = s.exec(query.execution_options(populate_existing=True)).first()
    if invoice is None:
        raise NotFound("Invoice not found")
    return invoice


def issue_invoice(s: Session, *, actor: User, invoice_id: int) -> InvoicePublic:
    """Draft → pending: the client can now see it, and is told by e-mail."""
    access.require(actor, Perm.billing_write, "issue invoices")
    invoice = _locked(s, invoice_id)
    if invoice.status != InvoiceStatus.draft:
        raise Invalid("Only draft invoices can be issued.")
    invoice.status = InvoiceStatus.pending
    invoice.issue_date = invoice.issue_date or business_today()  # the business's date, as overdue and analytics count
    s.add(invoice)
    # The client is told by e-mail, with the invoice's PDF attached and a button to the portal's invoices tab.
    receipts.mail_invoice(s, invoice, "invoice_issued", total=invoice.total_amount, due_date=invoice.due_date)
    s.add(invoice)
    audit.record(s, actor=actor, action="invoice.issue", entity=invoice)
    s.commit()
    return _dto(s, invoice)


def record_payment(
    s: Session, *, actor: User, invoice_id: int, data: PaymentCreate | Mapping[str, Any] | None = None
) -> InvoicePublic:
    """Record a payment on an issued invoice; once payments cover the total, it is paid (paid date set)."""
    access.require(actor, Perm.billing_write, "record payments on invoices")
    invoice = _locked(s, invoice_id)
    if invoice.status == InvoiceStatus.paid:
        raise Invalid("This invoice is already paid in full: nothing is outstanding.")
    if invoice.status == InvoiceStatus.void:
        raise Invalid("This invoice is void: it takes no payment.")
    if invoice.status != InvoiceStatus.pending:
        raise Invalid("Payments can be recorded on issued, unpaid invoices only.")
    body = parse(PaymentCreate, data or {})
    # Refunds deducted (a card payment refunded in part still counts the rest; ADR 0075).
    outstanding = invoice.total_amount - paid_amount(s, invoice.id)
    value = body.amount if body.amount is not None else outstanding
    day = body.paid_on or date.today()
    if value > outstanding:
        message = f"${value:,.2f} is more than the ${outstanding:,.2f} outstanding on this invoice"
        raise Invalid(message, errors={"amount": message})
    if value <= 0:
        message = f"Amount must be between $0.01 and the outstanding ${outstanding:,.2f}"
        raise Invalid(message, errors={"amount": message})
    payment = Payment(
        invoice_id=invoice.id,
        amount=value,
        payment_method=body.method,
        status=PaymentStatus.succeeded,
        processed_at=utcnow(),
    )
    s.add(payment)
    if value == outstanding:
        invoice.status, invoice.paid_date = InvoiceStatus.paid, day
        s.add(invoice)
    receipts.send_receipt(s, invoice, payment, paid_on=day)  # with the PDF showing this payment
    audit.record(s, actor=actor, action="invoice.payment", entity=invoice, details={"amount": str(value)})
    s.commit()
    return _dto(s, invoice)


def delete_draft(s: Session, *, actor: User, invoice_id: int) -> None:
    """Only drafts may be deleted: an issued invoice is a business record."""
    access.require(actor, Perm.billing_write, "delete invoices")
    invoice = _locked(s, invoice_id)
    if invoice.status != InvoiceStatus.draft:
        raise Invalid("Issued invoices cannot be deleted.")
    audit.record(s, actor=actor, action="invoice.delete", details={"number": invoice.invoice_number})
    s.delete(invoice)
    s.commit()

"""Billing (/admin/billing, billing:read): the page's state.

It holds one page of invoices at a time, searched, filtered and sorted in SQL by `billing.list_invoices`; the create
dialog's clients are searched on the server (a capped list) and its projects are the chosen client's; the preview of
the totals is `billing.price_invoice`, the arithmetic the saved invoice gets. Issuing, payments and deleting drafts
need billing:write, checked again in every handler (any browser can call any of them with any payload); so does
switching an invoice's overdue reminders.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from typing import Any, ClassVar

import reflex as rx

from app.core.errors import DomainError
from app.core.permissions import Perm
from app.models.user import UserPublic
from app.services.billing import billing, online, reminders, workflow
from app.services.billing.invoices import PaymentBrief, StaffInvoice
from app.ui.admin.billing.detail import FEATURE, STATUS_LABELS, InvoiceDetailDialogs
from app.ui.admin.business_time import day_text
from app.ui.admin.common import dollars, form_text, row_id, row_index, without_row
from app.ui.admin.dialogs import DeleteConfirm
from app.ui.admin.paged import LinkFilters, PagedList, SectionListing, export_url
from app.ui.admin.pickers import ClientPicker
from app.ui.admin.state import AdminState, as_actor
from app.ui.rows import Choice, Row

log = logging.getLogger(__name__)

PAGE_SIZE = 25
MAX_LINES = 100
STATUS_COLORS = {"draft": "grey", "pending": "yellow", "paid": "green", "void": "red"}
STATUS_FILTERS = [
    ("", "All Statuses"),
    ("draft", "Draft"),
    ("pending", "Issued (unpaid)"),
    ("paid", "Paid"),
    ("void", "Void"),
]
DUE_FILTERS = [("", "Any due date"), ("overdue", "Overdue")]
SORTS = [
    ("newest", "Newest first"),
    ("oldest", "Oldest first"),
    ("number", "Invoice number"),
    ("total", "Highest total"),
    ("due", "Due date"),
]
NO_FIGURE = "—"


@dataclasses.dataclass
class ListedPayment:
    """A payment under its invoice: amount, method and Stripe reference, and whether staff may refund it."""

    id: int = 0
    text: str = ""  # "$1,177.54 card", with "failed" or "refunded $100.00" when so
    reference: str = ""  # the Stripe payment intent, for finding it in Stripe's dashboard
    refundable: str = ""
    can_refund: bool = False
    refund_label: str = ""  # the Refund button's accessible name
    refund_what: str = ""  # what the confirmation names: "$100.00 of the card payment pi_..."


def payment_line(p: PaymentBrief) -> ListedPayment:
    words = [dollars(p.amount), p.method or "payment"]
    if p.status == "failed":
        words.append("(failed)")
    elif p.refunded != "0.00":
        words.append(f"(refunded {dollars(p.refunded)})")
    text, reference = " ".join(words), p.stripe_payment_intent_id or ""
    return ListedPayment(
        id=p.id,
        text=text,
        reference=reference,
        refundable=dollars(p.refundable),
        can_refund=p.can_refund,
        refund_label=f"Refund {text}",
        refund_what=f"{dollars(p.refundable)} of the card payment {reference}",
    )


@dataclasses.dataclass
class InvoiceRow(Row):
    """One invoice of the table, its values formatted for display."""

    number: str = ""
    client: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    description: str = ""
    total: str = ""
    paid: str = ""  # what payments add up to: "" when nothing is paid yet
    balance: str = ""  # what is still due ("" on drafts, which nobody owes yet)
    owing: bool = False  # issued and not paid: the balance is worth a line on a phone
    overdue: bool = False
    reminders_enabled: bool = True
    reminders_sent: int = 0
    issue_date: str = ""
    due_date: str = ""
    paid_date: str = ""
    pdf: str = ""
    # What the signed-in staff member may do with it, as the service decided (StaffInvoice).
    can_issue: bool = False
    can_record_payment: bool = False
    can_delete: bool = False
    can_download: bool = False
    can_switch_reminders: bool = False
    payments: list[ListedPayment] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class InvoicePreview:
    """The create form's totals; without figures, `note` says why (the service's own words)."""

    subtotal: str = "$0.00"
    tax: str = "$0.00"
    total: str = "$0.00"
    note: str = ""


def invoice_row(i: StaffInvoice) -> InvoiceRow:
    return InvoiceRow(
        id=i.id,
        number=i.invoice_number,
        client=i.client_name or "—",
        status=Choice.of(i.status, STATUS_LABELS),
        description=i.description or "",
        total=dollars(i.total_amount),
        paid=dollars(i.amount_paid) if i.amount_paid != "0.00" else "",
        balance=dollars(i.balance_due) if i.status != "draft" else "",
        owing=i.status == "pending",
        overdue=i.overdue,
        reminders_enabled=i.reminders_enabled,
        reminders_sent=i.reminders_sent,
        issue_date=day_text(i.issue_date) or "—",
        due_date=day_text(i.due_date) or "—",
        paid_date=day_text(i.paid_date),
        pdf=f"/api/protected/invoices/{i.id}/download",
        can_issue=i.can_issue,
        can_record_payment=i.can_record_payment,
        can_delete=i.can_delete,
        can_download=i.can_download,
        can_switch_reminders=i.can_switch_reminders,
        payments=[payment_line(p) for p in i.payments],
    )


def invoice_preview(lines: list[dict[str, str]], tax_rate: str) -> InvoicePreview:
    """The form's totals priced by `billing.price_invoice`, as the saved invoice will be.

    A line counts once it has a unit price (descriptions may still be empty); values the service refuses (a bad
    quantity, a total past what an invoice can hold) give a neutral preview with the service's reason.
    """
    priced = [
        {"description": x.get("description", ""), "quantity": x.get("quantity", ""), "unit_price": x["unit_price"]}
        for x in lines
        if str(x.get("unit_price") or "").strip()
    ]
    if not priced:
        return InvoicePreview()
    try:
        result = billing.price_invoice(priced, str(tax_rate).strip() or "0", descriptions=False)
    except DomainError as exc:
        return InvoicePreview(NO_FIGURE, NO_FIGURE, NO_FIGURE, exc.message)
    except Exception:  # a preview must never break the form
        log.exception("invoice preview failed")
        return InvoicePreview(NO_FIGURE, NO_FIGURE, NO_FIGURE, "The totals cannot be computed from these values.")
    return InvoicePreview(dollars(result.subtotal), dollars(result.tax), dollars(result.total))


def _new_line(description: str = "", quantity: str = "1", unit_price: str = "") -> dict[str, str]:
    return {"key": uuid.uuid4().hex, "description": description, "quantity": quantity, "unit_price": unit_price}


def _sent_lines(lines: list[dict[str, str]]) -> list[dict[str, str]]:
    """The form's lines as the service takes them: those with a description or a price (blank rows are left out)."""
    return [
        {"description": x["description"], "quantity": x["quantity"], "unit_price": x["unit_price"]}
        for x in lines
        if x["description"].strip() or x["unit_price"].strip()
    ]


def _plain_amount(text: str) -> str:
    """ "$1,234.50" as the form's number input takes it: "1234.50"."""
    return text.replace("$", "").replace(",", "")


def status_filter(value: str) -> str:
    """A status the list's filter offers, or "" (all)."""
    return value if value in STATUS_LABELS else ""


def due_filter(value: str) -> str:
    """ "overdue", or "" (any due date)."""
    return "overdue" if value == "overdue" else ""


class BillingState(InvoiceDetailDialogs, DeleteConfirm, ClientPicker, PagedList[InvoiceRow], AdminState):
    listing: ClassVar[SectionListing[InvoiceRow]] = SectionListing(
        Perm.billing_read, FEATURE, billing.list_invoices, invoice_row, "invoices"
    )
    rows: list[InvoiceRow] = []
    link_filters: ClassVar[LinkFilters] = {
        "status": ("status_filter", status_filter),
        "due": ("due_filter", due_filter),
    }
    status_filter: str = ""
    due_filter: str = ""  # "overdue": only invoices past their due date with something outstanding
    sort: str = "newest"
    page_size: int = PAGE_SIZE

    project_options: list[Choice] = []
    lines: list[dict[str, str]] = []
    tax_rate: str = "0"

    # --- the list ------------------------------------------------------------------------------------------------

    @rx.var
    def export_url(self) -> str:
        filters = {"search": self.search, "status": self.status_filter, "sort": self.sort}
        if self.due_filter:
            filters["overdue"] = "true"
        return export_url("/api/admin/invoices/export", filters)

    def _filters(self) -> dict[str, Any]:
        return {"status": self.status_filter, "overdue": self.due_filter == "overdue"}

    @rx.event
    async def load(self) -> None:
        self.close_dialogs()
        self._from_link()
        await self._reload(quiet=True)

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = status_filter(str(value))
        await self._first_page()

    @rx.event
    async def set_due_filter(self, value: str) -> None:
        self.due_filter = due_filter(str(value))
        await self._first_page()

    # --- create ----------------------------------------------------------------------------------------------

    @rx.event
    async def open_create(self) -> None:
        actor = await self._writer()
        if actor is None:
            return
        self.project_options = []
        self.lines = [_new_line(), _new_line()]
        self.tax_rate = "0"
        await self._reset_clients(actor)
        self._open_dialog("create")

    # the client picker (pickers.ClientPicker): billing writers only; a choice loads that client's projects

    async def _picker_actor(self) -> UserPublic | None:
        return await self._writer()

    async def _client_chosen(self, actor: UserPublic) -> None:
        self.project_options = []
        client_id = self.client_id
        if not client_id:
            return
        try:
            rows = await as_actor(actor, lambda s, a: billing.project_choices(s, actor=a, client_id=client_id))
        except Exception as exc:  # the invoice then simply names no project
            if not isinstance(exc, DomainError):
                log.exception("loading the client's projects failed")
            rows = []
        self.project_options = [Choice(p.id, p.name) for p in rows]

    @rx.var
    def inv_client(self) -> str:
        """The invoice's client: the picker's choice under the name billing's markup and tests use."""
        return self.client_id

    @rx.event
    async def set_inv_client(self, value: str) -> None:
        """Billing's name for the picker's choose event."""
        actor = await self._picker_actor()
        if actor is not None:
            await self._choose(actor, value)

    @rx.event
    def set_tax_rate(self, value: str) -> None:
        self.tax_rate = str(value)[:10]

    @rx.event
    def add_line(self) -> None:
        if len(self.lines) < MAX_LINES:
            self.lines = [*self.lines, _new_line()]

    @rx.event
    def remove_line(self, index: int) -> None:
        self.lines = without_row(self.lines, index)

    @rx.event
    def set_line(self, index: int, key: str, value: str) -> None:
        i = row_index(index, self.lines)
        if key in ("description", "quantity", "unit_price") and i >= 0:
            items = [dict(x) for x in self.lines]
            items[i][key] = str(value)[:500]
            self.lines = items

    @rx.var
    def preview(self) -> InvoicePreview:
        return invoice_preview(self.lines, self.tax_rate)

    @rx.event
    async def submit_create(self, form: dict[str, Any]) -> None:
        actor = await self._writer()
        if actor is None:
            return
        data = {
            "client_id": form_text(form, "client_id"),
            "project_id": form_text(form, "project_id") or None,
            "description": form_text(form, "description", 500),
            "due_date": form_text(form, "due_date") or None,
            "notes": form_text(form, "notes", 5000),
            "tax_rate": self.tax_rate.strip() or "0",
            "items": _sent_lines(self.lines),
        }
        ok, dto = await self._save(
            actor, lambda s, a: billing.create_invoice(s, actor=a, data=data), "Failed to create invoice", toast=False
        )
        if not ok or dto is None:
            return
        self.close_dialogs()
        await self._notify("success", "Invoice created successfully", f"{dto.invoice_number} is a draft until issued.")
        self.page = 1  # the new draft heads the default order
        await self._reload()

    # --- actions ---------------------------------------------------------------------------------------------

    async def _act(self, title: str, fn: Any, ok: str) -> bool:
        actor = await self._writer()
        if actor is None:
            return False
        done, _ = await self._save(actor, fn, title)
        if not done:
            return False
        await self._notify("success", ok)
        await self._reload()
        return True

    # Issuing asks first (InvoiceDetailDialogs.ask_issue, confirm_issue): it e-mails the client.

    @rx.event
    async def switch_reminders(self, form: dict[str, Any]) -> None:
        """Overdue reminders on or off for one invoice, from its row's switch: `invoice_id` and `enabled` ("on" or
        "off"); billing:write, checked again by the service."""
        iid = row_id(form_text(form, "invoice_id", 20))
        wanted = form_text(form, "enabled", 3)
        if not iid or wanted not in ("on", "off"):
            return
        enabled = wanted == "on"
        await self._act(
            "Failed to switch reminders",
            lambda s, a: reminders.set_reminders(s, actor=a, invoice_id=iid, data={"enabled": enabled}),
            "Reminders on for this invoice" if enabled else "Reminders off for this invoice",
        )

    @rx.event
    async def open_pay(self, invoice_id: int, number: str) -> None:
        await self._ask("pay", invoice_id, str(number)[:40])

    @rx.event
    async def submit_pay(self, form: dict[str, Any]) -> None:
        iid = self._dialog_row()
        amount, method, paid_on = form_text(form, "amount"), form_text(form, "method", 50), form_text(form, "paid_on")
        if await self._act(
            "Failed to record payment",
            lambda s, a: billing.record_payment(
                s, actor=a, invoice_id=iid, data={"amount": amount, "method": method, "paid_on": paid_on}
            ),
            "Payment recorded",
        ):
            actor = await self._writer()
            if actor is not None:
                await self._return(actor)

    # --- edit a draft (from the detail) -----------------------------------------------------------------------

    @rx.event
    async def open_edit(self) -> None:
        """The detail's draft in the line editor, at its stored tax rate (billing:write; only drafts, as the
        service checks again on save)."""
        if self.dialog != "detail" or not self.detail.can_edit or await self._writer() is None:
            return
        self.lines = [_new_line(i.description, i.quantity, _plain_amount(i.unit_price)) for i in self.detail_items] or [
            _new_line()
        ]
        self.tax_rate = self.detail.tax_rate or "0"
        self._open_dialog("edit", self.detail.id, self.detail.number)

    @rx.event
    async def submit_edit(self, form: dict[str, Any]) -> None:
        iid = self._dialog_row()
        actor = await self._writer()
        if actor is None or not iid:
            return
        data = {
            "description": form_text(form, "description", 500),
            "due_date": form_text(form, "due_date") or None,
            "notes": form_text(form, "notes", 5000),
            "tax_rate": self.tax_rate.strip() or "0",
            "items": _sent_lines(self.lines),
        }
        ok, _ = await self._save(
            actor,
            lambda s, a: workflow.update_draft(s, actor=a, invoice_id=iid, data=data),
            "Failed to save invoice",
            toast=False,
        )
        if ok:
            await self._notify("success", "Invoice updated", f"{self.dialog_name}'s totals were recomputed.")
            await self._reload()
            await self._return(actor)

    @rx.event
    async def ask_refund(self, payment_id: int, label: str) -> None:
        """Confirm a refund of the card payment `payment_id` (`label`: its amount and reference, for the dialog)."""
        await self._ask("refund", payment_id, str(label)[:120])

    @rx.event
    async def confirm_refund(self) -> None:
        """Ask Stripe to refund all that is left of the payment (billing:write, checked again by the service); the
        invoice changes when Stripe confirms the refund."""
        pid = self._dialog_row()
        await self._act(
            "Failed to refund payment",
            lambda s, a: online.refund_payment(s, actor=a, payment_id=pid),
            "Refund requested; the invoice updates when Stripe confirms it",
        )
        self.close_dialogs()

    def _write_guard(self) -> tuple[str, str]:
        return Perm.billing_write, FEATURE

    def _delete_label(self, name: Any) -> str:
        return str(name)[:40]  # an invoice number

    @rx.event
    async def confirm_delete(self) -> None:
        iid = self._dialog_row()
        self._back_to_detail = False  # the detail it may have come from is gone
        await self._act(
            "Failed to delete invoice",
            lambda s, a: billing.delete_draft(s, actor=a, invoice_id=iid),
            "Invoice deleted successfully",
        )
        self.close_dialogs()

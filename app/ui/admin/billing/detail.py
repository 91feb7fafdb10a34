"""The billing page's invoice detail and the workflow dialogs it opens (issue with confirmation, void with a reason).

The detail is a dialog of the list (`dialog == "detail"`), loaded from `workflow.invoice_detail` with the flags the
service computed; an action started from it (Edit, Issue, Record payment, Void, Delete) opens its own dialog and then
comes back to the detail, refreshed, or to it unchanged when cancelled. Every handler checks the permission again:
any browser can send any event with any payload (ADR 0078, 0079).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.models.user import UserPublic
from app.services.billing import billing, workflow
from app.services.billing.workflow import InvoiceDetail
from app.ui.admin.business_time import day_text, timestamp_text
from app.ui.admin.common import dollars, form_text, row_id
from app.ui.admin.dialogs import SectionWriter
from app.ui.rows import Choice, label_of

FEATURE = "Billing"
STATUS_LABELS = {"draft": "Draft", "pending": "Issued", "paid": "Paid", "void": "Void"}
PAYMENT_LABELS = {"succeeded": "Received", "pending": "Pending", "failed": "Failed", "refunded": "Refunded"}
MAIL_LABELS = {"pending": "Queued", "sent": "Sent", "failed": "Failed"}
ACTION_LABELS = {
    "invoice.create": "Created",
    "invoice.update": "Draft edited",
    "invoice.issue": "Issued",
    "invoice.payment": "Payment recorded",
    "invoice.void": "Voided",
}


@dataclasses.dataclass
class ItemLine:
    description: str = ""
    quantity: str = ""
    unit_price: str = ""
    amount: str = ""


@dataclasses.dataclass
class PaymentLine:
    amount: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    when: str = ""
    method: str = ""
    reference: str = ""  # Stripe's payment intent, when the payment came through Stripe


@dataclasses.dataclass
class MailLine:
    subject: str = ""
    recipient: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    queued: str = ""
    sent: str = ""


@dataclasses.dataclass
class AuditLine:
    action: str = ""
    actor: str = ""
    when: str = ""
    details: str = ""


@dataclasses.dataclass
class InvoiceDetailView:
    """The invoice's header and figures as the detail shows them, with what the staff member may do (the service's
    flags)."""

    id: int = 0
    number: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    client: str = ""
    client_email: str = ""
    project: str = ""
    description: str = ""
    notes: str = ""
    created: str = ""
    issue_date: str = ""
    due_date: str = ""
    due_value: str = ""  # ISO, the edit form's date input
    paid_date: str = ""
    subtotal: str = ""
    tax_rate: str = ""
    tax: str = ""
    total: str = ""
    paid: str = ""
    balance: str = ""
    void_reason: str = ""
    voided: str = ""  # "March 5, 2026 by ada"
    pdf: str = ""
    can_edit: bool = False
    can_issue: bool = False
    can_void: bool = False
    can_record_payment: bool = False
    can_delete: bool = False
    can_download: bool = False
    void_refusal: str = ""


def _details(action: str, details: dict[str, Any]) -> str:
    """An audit entry's details in a line: the amount paid, the totals an edit changed, the void's reason."""
    if action == "invoice.payment" and "amount" in details:
        return dollars(details["amount"])
    if action == "invoice.update" and "total" in details:
        return f"Total {dollars(details.get('total_before', ''))} → {dollars(details['total'])}"
    if action == "invoice.void":
        return str(details.get("reason", ""))
    return ", ".join(f"{k}: {v}" for k, v in details.items())


def detail_view(d: InvoiceDetail) -> InvoiceDetailView:
    by = f" by {d.voided_by}" if d.voided_by else ""
    return InvoiceDetailView(
        id=d.id,
        number=d.invoice_number,
        status=Choice.of(d.status, STATUS_LABELS),
        client=d.client_name or d.client_username,
        client_email=d.client_email,
        project=d.project_name or "—",
        description=d.description or "",
        notes=d.notes or "",
        created=day_text(d.created_at),
        issue_date=day_text(d.issue_date) or "—",
        due_date=day_text(d.due_date) or "—",
        due_value=d.due_date or "",
        paid_date=day_text(d.paid_date) or "—",
        subtotal=dollars(d.subtotal),
        tax_rate=d.tax_rate.rstrip("0").rstrip(".") if "." in d.tax_rate else d.tax_rate,
        tax=dollars(d.tax_amount),
        total=dollars(d.total_amount),
        paid=dollars(d.amount_paid),
        balance=dollars(d.balance_due),
        void_reason=d.void_reason or "",
        voided=f"{day_text(d.voided_at)}{by}" if d.voided_at else "",
        pdf=f"/api/protected/invoices/{d.id}/download",
        can_edit=d.can_edit,
        can_issue=d.can_issue,
        can_void=d.can_void,
        can_record_payment=d.can_record_payment,
        can_delete=d.can_delete,
        can_download=d.can_download,
        void_refusal=d.void_refusal,
    )


class InvoiceDetailDialogs(SectionWriter, mixin=True):
    """The detail dialog and the issue and void dialogs, over the section's `Dialogs` state."""

    detail: InvoiceDetailView = InvoiceDetailView()
    detail_items: list[ItemLine] = []
    detail_payments: list[PaymentLine] = []
    detail_mails: list[MailLine] = []
    detail_audit: list[AuditLine] = []
    issue_to: str = ""  # the address the issue confirmation names
    _back_to_detail: bool = False  # the open dialog was started from the detail, and returns to it

    def _show_detail(self, d: InvoiceDetail) -> None:
        self.detail = detail_view(d)
        self.detail_items = [
            ItemLine(i.description, str(i.quantity), dollars(i.unit_price), dollars(i.amount)) for i in d.items
        ]
        self.detail_payments = [
            PaymentLine(
                amount=dollars(p.amount),
                status=Choice.of(p.status, PAYMENT_LABELS),
                when=timestamp_text(p.processed_at or p.created_at),
                method=p.method or "—",
                reference=p.stripe_payment_intent_id or "",
            )
            for p in d.payments
        ]
        self.detail_mails = [
            MailLine(
                subject=m.subject,
                recipient=m.to_address,
                status=Choice.of(m.status, MAIL_LABELS),
                queued=timestamp_text(m.queued_at),
                sent=timestamp_text(m.sent_at) if m.sent_at else "",
            )
            for m in d.mails
        ]
        self.detail_audit = [
            AuditLine(
                action=ACTION_LABELS.get(a.action) or label_of(a.action.rpartition(".")[2]),
                actor=a.actor,
                when=timestamp_text(a.created_at),
                details=_details(a.action, a.details),
            )
            for a in d.audit
        ]

    async def _load_detail(self, actor: UserPublic, invoice_id: int) -> InvoiceDetail | None:
        """The detail from the service into state (None after an error toast: gone, or no longer permitted)."""
        ok, d = await self._attempt(
            actor,
            lambda s, a: workflow.invoice_detail(s, actor=a, invoice_id=invoice_id),
            "Failed to load invoice",
            "The invoice could not be loaded. Please try again.",
        )
        if ok and d is not None:
            self._show_detail(d)
            return d
        return None

    @rx.event
    async def open_detail(self, invoice_id: int) -> None:
        """Show an invoice's detail (billing:read)."""
        iid = row_id(invoice_id)
        actor = await self._actor(Perm.billing_read, FEATURE) if iid else None
        if actor is not None and (d := await self._load_detail(actor, iid)) is not None:
            self._open_dialog("detail", iid, d.invoice_number)

    def _open_dialog(self, dialog: str, key: Any = "", name: Any = "") -> None:
        """Every dialog opens here: one that replaces the detail (Edit, Issue, Record payment, Void, Delete) notes
        that it goes back to it."""
        self._back_to_detail = dialog != "detail" and self.dialog == "detail"
        super()._open_dialog(dialog, key, name)

    async def _return(self, actor: UserPublic) -> None:
        """After a dialog's write: back to the detail it was started from, refreshed, or closed."""
        back, self._back_to_detail = self._back_to_detail, False
        invoice_id = self.detail.id
        self.close_dialogs()
        if back and invoice_id and (d := await self._load_detail(actor, invoice_id)) is not None:
            self._open_dialog("detail", invoice_id, d.invoice_number)

    @rx.event
    def close_dialog(self, value: bool = False) -> None:
        """The dialog's own close: a dialog started from the detail goes back to it; the detail itself closes."""
        if value:
            return
        if self._back_to_detail and self.dialog not in ("", "detail"):
            self._open_dialog("detail", self.detail.id, self.detail.number)
        else:
            self._back_to_detail = False
            self.dialog = ""

    # --- issue, after a confirmation ----------------------------------------------------------------------------

    @rx.event
    async def ask_issue(self, invoice_id: int) -> None:
        """Ask before issuing: it e-mails the client, whose address the question names (billing:write)."""
        iid = row_id(invoice_id)
        actor = await self._writer() if iid else None
        if actor is None:
            return
        d = await self._load_detail(actor, iid)
        if d is None:
            return
        if not d.can_issue:
            await self._notify("error", "Failed to issue invoice", "Only draft invoices can be issued.")
            return
        self.issue_to = d.client_email
        self._open_dialog("issue", iid, d.invoice_number)

    @rx.event
    async def confirm_issue(self) -> None:
        iid = self._dialog_row()
        actor = await self._writer()
        if actor is None or not iid:
            return
        issue = lambda s, a: billing.issue_invoice(s, actor=a, invoice_id=iid)  # noqa: E731
        ok, _ = await self._save(actor, issue, "Failed to issue invoice")
        if ok:
            await self._notify("success", "Invoice issued", f"{self.dialog_name} was e-mailed to {self.issue_to}.")
            section: Any = self  # the section's list (PagedList), which this mixin does not know
            await section._reload()
            await self._return(actor)

    # --- void, with a reason ------------------------------------------------------------------------------------

    @rx.event
    async def open_void(self) -> None:
        """Ask for the reason to void the detail's invoice (billing:write; the service decides whether it may)."""
        if self.dialog == "detail" and self.detail.id and await self._writer() is not None:
            self._open_dialog("void", self.detail.id, self.detail.number)

    @rx.event
    async def submit_void(self, form: dict[str, Any]) -> None:
        iid = self._dialog_row()
        actor = await self._writer()
        if actor is None or not iid:
            return
        reason = form_text(form, "reason", 1000)  # the service caps it at 200 and says so
        ok, _ = await self._save(
            actor,
            lambda s, a: workflow.void_invoice(s, actor=a, invoice_id=iid, data={"reason": reason}),
            "Failed to void invoice",
            toast=False,
        )
        if ok:
            await self._notify("success", "Invoice voided", f"{self.dialog_name} is void; the client was told why.")
            section: Any = self
            await section._reload()
            await self._return(actor)

"""Invoices tab: the client's issued invoices (never drafts), what is paid and due on each, whether it is overdue, how
to pay by bank transfer (when company settings say), and their PDF download."""

from __future__ import annotations

import dataclasses

import reflex as rx
from reflex.vars.object import ObjectVar
from sqlmodel import Session

from app.core.errors import DomainError, Unauthorized
from app.models.user import User
from app.services.billing import invoices
from app.services.billing.invoices import ClientInvoice
from app.services.platform import company
from app.ui.format import long_date, usd
from app.ui.portal import components as ui
from app.ui.portal.state import Badge, ListTab, PortalState, error_message
from app.ui.rows import Row
from app.ui.state.calls import as_actor


@dataclasses.dataclass
class InvoiceView(Row):
    number: str = ""
    description: str = ""
    created_at: str = ""
    due: str = ""
    total: str = ""
    paid: str = ""  # "" until something is paid
    balance: str = ""  # "" once nothing is due
    overdue: bool = False
    status: Badge = dataclasses.field(default_factory=Badge)
    can_download: bool = False


def invoice_view(inv: ClientInvoice) -> InvoiceView:
    return InvoiceView(
        id=inv.id,
        number=inv.invoice_number,
        description=inv.description or "",
        created_at=inv.created_at,
        due=long_date(inv.due_date),
        total=usd(inv.total_amount),
        paid=usd(inv.amount_paid) if inv.amount_paid != "0.00" else "",
        balance=usd(inv.balance_due) if inv.balance_due != "0.00" else "",
        overdue=inv.overdue,
        status=Badge(label="Overdue", color="red") if inv.overdue else Badge.of(inv.status),
        can_download=inv.can_download,
    )


def _number(s: Session, actor: User, invoice_id: int) -> str:
    """The invoice's number if the actor may see it (NotFound otherwise, also for drafts and others' invoices)."""
    invoice, _items, _client = invoices.get_invoice_with_items(s, actor=actor, invoice_id=invoice_id)
    return invoice.invoice_number


class InvoicesState(ListTab, PortalState):
    invoices: rx.Field[list[InvoiceView]] = rx.field(default_factory=list)
    bank_instructions: str = ""  # how to pay by bank transfer (company settings), shown on unpaid invoices
    download_error: str = ""

    @rx.event
    async def load(self) -> None:
        found = await self._fetch(
            lambda s, actor: (invoices.list_invoices(s, actor=actor), company.profile(s).bank_instructions),
            "Failed to load invoices",
        )
        if found is not None:
            rows, bank = found
            self.invoices = [invoice_view(i) for i in rows]
            self.bank_instructions = bank or ""

    @rx.event
    async def download(self, invoice_id: int):
        """Check the invoice is the client's, then let the browser download its PDF (the cookie goes along)."""
        self.download_error = ""
        invoice_id = int(invoice_id)
        try:
            user = await self._require_user()
            number = await as_actor(user, lambda s, actor: _number(s, actor, invoice_id))
        except Unauthorized:
            await self._signed_out()
            return None
        except DomainError as exc:
            self.download_error = error_message(exc, "Failed to download the invoice. Please try again.")
            return None
        return rx.download(url=f"/api/protected/invoices/{invoice_id}/download", filename=f"invoice-{number}.pdf")


def _invoice_card(inv: ObjectVar[InvoiceView]) -> rx.Component:
    return ui.card(
        ui.card_header(
            rx.el.h3(inv.number, class_name="text-lg font-semibold text-slate-900"),
            rx.el.p(
                rx.cond(inv.description != "", inv.description, "No description provided"),
                class_name="text-sm text-slate-600 break-words",
            ),
            status=inv.status,
        ),
        rx.el.div(
            ui.fact("Created", ui.local_date(inv.created_at)),
            rx.cond(
                inv.due != "",
                ui.fact(
                    "Due", inv.due, rx.cond(inv.overdue, "text-sm font-medium text-red-700", "text-sm text-slate-800")
                ),
            ),
            ui.fact("Total", inv.total, "text-lg font-semibold text-slate-900"),
            rx.cond(inv.paid != "", ui.fact("Paid", inv.paid, "text-lg text-slate-800")),
            rx.cond(inv.balance != "", ui.fact("Balance due", inv.balance, "text-lg font-semibold text-slate-900")),
            rx.cond(
                inv.can_download,
                ui.action_button(
                    "download",
                    "Download",
                    InvoicesState.download(inv.id),
                    ui.BUTTON_SECONDARY + " sm:ml-auto",
                    aria_label=f"Download invoice {inv.number}",
                ),
            ),
            class_name="flex flex-wrap items-end gap-x-8 gap-y-3",
        ),
        rx.cond(
            (inv.balance != "") & (InvoicesState.bank_instructions != ""),
            rx.el.div(
                rx.el.p("Pay by bank transfer", class_name="text-xs uppercase tracking-wide text-slate-500"),
                rx.el.p(InvoicesState.bank_instructions, class_name="whitespace-pre-line text-sm text-slate-800"),
                rx.el.p(
                    "Reference: ", rx.el.span(inv.number, class_name="font-medium"), class_name="text-sm text-slate-600"
                ),
                class_name="rounded-lg bg-slate-50 p-3",
                data_testid="invoice-bank",
            ),
        ),
        class_name="flex flex-col gap-4",
        data_testid="invoice-card",
    )


def invoices_tab() -> rx.Component:
    return ui.tab_section(
        "Your Invoices",
        ui.error_text(InvoicesState.download_error),
        ui.loaded(
            InvoicesState.loading,
            InvoicesState.error,
            ui.cards_or_empty(
                InvoicesState.invoices, _invoice_card, ui.empty_state("No invoices found.", icon="file-text")
            ),
        ),
    )

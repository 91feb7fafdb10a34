"""Invoices tab: the client's issued invoices (never drafts), what is paid and due on each, whether it is overdue, how
to pay by bank transfer (when company settings say), their PDF download, and card payment.

"Pay now" (only when card payment is set up) opens a Stripe Checkout Session made by `online.start_checkout`, the
service the REST route calls. Back from Checkout, the card says "Payment processing" (only if Stripe says that
session is complete) and the tab checks again every few seconds until Stripe's signed webhook has marked the invoice
paid: the browser's return never records money (ADR 0074).
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar
from sqlmodel import Session

from app.core.errors import DomainError, Unauthorized
from app.models.user import User
from app.services.billing import invoices, online
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
    issued: str = ""  # the issue date, as the PDF prints it (a calendar date: no time zone to convert)
    due: str = ""
    total: str = ""
    paid: str = ""  # "" until something is paid
    balance: str = ""  # "" once nothing is due
    overdue: bool = False
    status: Badge = dataclasses.field(default_factory=Badge)
    can_download: bool = False
    can_pay: bool = False
    pending: bool = False  # issued and not yet paid: the state a returning payer's invoice waits in


# After Checkout: how often and how long the tab looks for the webhook's verdict before leaving it to a reload.
WATCH_SECONDS = 2.0
WATCH_TIMES = 60


def invoice_view(inv: ClientInvoice) -> InvoiceView:
    return InvoiceView(
        id=inv.id,
        number=inv.invoice_number,
        description=inv.description or "",
        issued=long_date(inv.issue_date),
        due=long_date(inv.due_date),
        total=usd(inv.total_amount),
        paid=usd(inv.amount_paid) if inv.amount_paid != "0.00" else "",
        balance=usd(inv.balance_due) if inv.balance_due != "0.00" else "",
        overdue=inv.overdue,
        status=Badge(label="Overdue", color="red") if inv.overdue else Badge.of(inv.status),
        can_download=inv.can_download,
        can_pay=inv.can_pay,
        pending=inv.status == "pending",
    )


def _number(s: Session, actor: User, invoice_id: int) -> str:
    """The invoice's number if the actor may see it (NotFound otherwise, also for drafts and others' invoices)."""
    invoice, _items, _client = invoices.get_invoice_with_items(s, actor=actor, invoice_id=invoice_id)
    return invoice.invoice_number


class InvoicesState(ListTab, PortalState):
    invoices: rx.Field[list[InvoiceView]] = rx.field(default_factory=list)
    bank_instructions: str = ""  # how to pay by bank transfer (company settings), shown on unpaid invoices
    download_error: str = ""
    # The invoice whose Checkout the client came back from, until the webhook has marked it paid (0: none).
    processing_id: int = 0
    paying_id: int = 0  # the invoice whose Checkout is being opened (its button shows it)
    _watching: bool = False

    @rx.event
    async def load(self):
        found = await self._fetch(
            lambda s, actor: (invoices.list_invoices(s, actor=actor), company.profile(s).bank_instructions),
            "Failed to load invoices",
        )
        if found is None:
            return None
        rows, bank = found
        self.invoices = [invoice_view(i) for i in rows]
        self.bank_instructions = bank or ""
        query = self.router.url.query_parameters
        if query.get("tab") == "invoices":
            self.active_tab = "invoices"  # back from Checkout: the invoices tab, not the first one
        session_id = str(query.get("checkout") or "")[:255]
        if session_id and not self.processing_id:
            try:
                user = await self._require_user()
                returned = await as_actor(
                    user, lambda s, actor: online.checkout_returned(s, actor=actor, session_id=session_id)
                )
            except DomainError:  # signed out meanwhile: the list above already says so
                returned = None
            self.processing_id = returned or 0
        self._still_processing()
        if self.processing_id and not self._watching:
            self._watching = True
            return InvoicesState.watch
        return None

    def _still_processing(self) -> None:
        """Processing lasts while the invoice waits issued and unpaid; once the webhook has paid it, it shows Paid."""
        waiting = [i for i in self.invoices if i.id == self.processing_id and i.pending]
        if not waiting:
            self.processing_id = 0

    @rx.event(background=True)
    async def watch(self) -> None:
        """Look again every WATCH_SECONDS until the returning payer's invoice is paid (or WATCH_TIMES have passed)."""
        try:
            for _ in range(WATCH_TIMES):
                await asyncio.sleep(WATCH_SECONDS)
                async with self:
                    if not self.processing_id:
                        return
                    rows = await self._fetch(lambda s, actor: invoices.list_invoices(s, actor=actor), "")
                    if rows is None:
                        return
                    self.invoices = [invoice_view(i) for i in rows]
                    self._still_processing()
        finally:
            async with self:
                self._watching = False

    @rx.event
    async def pay(self, invoice_id: int):
        """Open Stripe Checkout for what is owed on this invoice: the service checks it is the client's own, issued and
        unpaid, exactly as POST /api/protected/invoices/{id}/pay does."""
        self.download_error = ""
        try:
            iid = int(invoice_id)
        except (TypeError, ValueError):
            return
        self.paying_id = iid
        yield
        try:
            user = await self._require_user()
            url = await as_actor(user, lambda s, actor: online.start_checkout(s, actor=actor, invoice_id=iid))
        except Unauthorized:
            self.paying_id = 0
            await self._signed_out()
            return
        except DomainError as exc:
            self.paying_id = 0
            self.download_error = error_message(exc, "Card payment could not be started. Please try again.")
            return
        yield rx.redirect(url)  # Stripe's page (another origin): the browser leaves the site

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


def _with_id(handler: Any, row_id: Any) -> Any:
    """The event of `handler` for one row (Reflex's event namespaces are callable, which mypy cannot see)."""
    return handler(row_id)


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
            ui.fact("Issued", inv.issued),
            rx.cond(
                inv.due != "",
                ui.fact(
                    "Due", inv.due, rx.cond(inv.overdue, "text-sm font-medium text-red-700", "text-sm text-slate-800")
                ),
            ),
            ui.fact("Total", inv.total, "text-lg font-semibold text-slate-900"),
            rx.cond(inv.paid != "", ui.fact("Paid", inv.paid, "text-lg text-slate-800")),
            rx.cond(inv.balance != "", ui.fact("Balance due", inv.balance, "text-lg font-semibold text-slate-900")),
            rx.el.div(
                rx.cond(
                    InvoicesState.processing_id == inv.id,
                    rx.el.p(
                        rx.icon("loader-circle", size=16, class_name="animate-spin"),
                        "Payment processing",
                        role="status",
                        class_name="flex items-center gap-1.5 text-sm font-medium text-amber-800",
                        data_testid="payment-processing",
                    ),
                    rx.cond(
                        inv.can_pay,
                        ui.action_button(
                            "credit-card",
                            rx.cond(InvoicesState.paying_id == inv.id, "Opening checkout…", "Pay now"),
                            _with_id(InvoicesState.pay, inv.id),
                            ui.BUTTON_PRIMARY,
                            disabled=InvoicesState.paying_id == inv.id,
                            aria_label=f"Pay now: invoice {inv.number} by card ({inv.balance})",
                            data_testid="invoice-pay-now",
                        ),
                    ),
                ),
                rx.cond(
                    inv.can_download,
                    ui.action_button(
                        "download",
                        "Download",
                        InvoicesState.download(inv.id),
                        ui.BUTTON_SECONDARY,
                        aria_label=f"Download invoice {inv.number}",
                    ),
                ),
                # A line of their own on a phone: otherwise a short card (paid, no balance) tucked them beside the
                # total while a longer one put them below, and the buttons jumped from card to card.
                class_name="flex w-full flex-wrap items-center gap-3 sm:ml-auto sm:w-auto",
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
        class_name="flex flex-col gap-4 scroll-mt-4",
        id="invoice-" + inv.id.to(str),  # the summary's "View invoice" scrolls here
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

"""Billing (/admin/billing): the page's markup over BillingState: filters, the table of one page with the pager,
and the create, edit, payment and delete dialogs (the detail, issue and void dialogs: detail_views)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.billing.detail_views import detail_dialog, handler, issue_dialog, void_dialog
from app.ui.admin.billing.state import (
    DUE_FILTERS,
    SORTS,
    STATUS_COLORS,
    STATUS_FILTERS,
    BillingState,
    InvoiceRow,
    ListedPayment,
)
from app.ui.admin.common import add_row_button, confirm_dialog, option_select, row_button, row_input, text_area, wide
from app.ui.admin.dialog_views import delete_dialog, form_dialog, number_field, text_field
from app.ui.admin.dialogs import shown
from app.ui.admin.pickers import client_picker
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.tables import Column, data_table, lead, note
from app.ui.admin.widgets import (
    BTN_SECONDARY,
    ICON_BTN,
    INPUT,
    allowed_button,
    badge,
    choice_badge,
    field,
    icon_button,
)
from app.ui.components.file_link import file_link

S = BillingState


def _actions(r: ObjectVar[InvoiceRow]) -> rx.Component:
    # Each button by the row's flag: the service decided what this staff member may do with this invoice.
    return rx.el.div(
        rx.cond(
            r.can_download,
            file_link(
                rx.icon("file-down", size=16),
                href=r.pdf,
                title="Download PDF",
                aria_label=f"Download {r.number} as PDF",
                class_name=ICON_BTN,
                data_testid="invoice-pdf",
            ),
            rx.fragment(),
        ),
        rx.cond(
            r.can_issue,
            rx.el.button(
                "Issue",
                on_click=S.ask_issue(r.id),
                disabled=S.saving,
                class_name=f"{BTN_SECONDARY} !px-2.5 !py-1",
                data_testid="invoice-issue",
            ),
            rx.fragment(),
        ),
        rx.cond(
            r.can_delete,
            icon_button("trash-2", "Delete draft", f"Delete {r.number}", S.ask_delete(r.id, r.number)),
            rx.fragment(),
        ),
        rx.cond(r.can_switch_reminders, _reminder_switch(r), rx.fragment()),
        rx.cond(
            r.can_record_payment,
            rx.el.button(
                "Record payment",
                on_click=S.open_pay(r.id, r.number),
                class_name=f"{BTN_SECONDARY} !px-2.5 !py-1",
                data_testid="invoice-pay",
            ),
            rx.fragment(),
        ),
        class_name="flex items-center justify-end gap-1.5",
    )


def _reminder_switch(r: ObjectVar[InvoiceRow]) -> rx.Component:
    """The row's overdue reminders as a switch (pressed: on). A one-button form, so the handler gets the invoice and
    the wanted state as the form's fields."""
    return rx.el.form(
        rx.el.input(type="hidden", name="invoice_id", value=r.id),
        rx.el.input(type="hidden", name="enabled", value=rx.cond(r.reminders_enabled, "off", "on")),
        rx.el.button(
            rx.cond(r.reminders_enabled, rx.icon("bell", size=16), rx.icon("bell-off", size=16)),
            type="submit",
            disabled=S.saving,
            role="switch",
            aria_checked=rx.cond(r.reminders_enabled, "true", "false"),
            title=rx.cond(
                r.reminders_enabled, "Reminders on: click to switch off", "Reminders off: click to switch on"
            ),
            aria_label=f"Overdue reminders for {r.number}",
            class_name=rx.cond(r.reminders_enabled, ICON_BTN, f"{ICON_BTN} text-slate-400"),
            data_testid="invoice-reminders",
        ),
        on_submit=S.switch_reminders,
        reset_on_submit=False,
        class_name="contents",
    )


def _invoice(r: ObjectVar[InvoiceRow]) -> rx.Component:
    # The number opens the invoice's detail: a button (the detail is a dialog of this page), styled as the link it is.
    number = rx.el.button(
        r.number,
        type="button",
        on_click=handler("open_detail", r.id),
        aria_label=f"Open invoice {r.number}",
        class_name="text-left text-blue-800 underline-offset-2 hover:underline focus-visible:underline",
        data_testid="invoice-open",
    )
    return lead(
        number, note(r.client, "md:hidden"), note(r.description, "line-clamp-1"), title_classes="whitespace-nowrap"
    )


def _status(r: ObjectVar[InvoiceRow]) -> rx.Component:
    return rx.el.div(
        choice_badge(r.status, STATUS_COLORS, data_testid="invoice-status"),
        rx.cond(r.overdue, badge("Overdue", "red", data_testid="invoice-overdue"), rx.fragment()),
        class_name="flex flex-wrap items-center gap-1",
    )


def _payment(p: ObjectVar[ListedPayment]) -> rx.Component:
    return rx.el.li(
        rx.el.span(p.text),
        rx.cond(
            p.reference != "",
            rx.el.code(
                p.reference, class_name="block max-w-[8rem] truncate text-[11px] text-slate-500", title=p.reference
            ),
            rx.fragment(),
        ),
        rx.cond(
            p.can_refund,
            rx.el.button(
                "Refund",
                on_click=_with(S.ask_refund, p.id, p.refund_what),
                class_name=f"{BTN_SECONDARY} !px-2 !py-0.5 !text-xs mt-1",
                aria_label=p.refund_label,
                data_testid="payment-refund",
            ),
            rx.fragment(),
        ),
        class_name="text-xs text-slate-600",
        data_testid="invoice-payment",
    )


def _with(handler: Any, *args: Any) -> Any:
    """The event of `handler` with these arguments (Reflex's event namespaces are callable; mypy cannot see it)."""
    return handler(*args)


def _total(r: ObjectVar[InvoiceRow]) -> rx.Component:
    # The total, and what is paid of it once anything is (a partial payment shows here).
    return rx.el.div(
        rx.el.span(r.total, class_name="font-medium"),
        rx.cond(r.paid != "", note(rx.el.span("Paid ", r.paid, data_testid="invoice-paid")), rx.fragment()),
        rx.cond(r.owing, note(rx.el.span("Due ", r.balance), "sm:hidden"), rx.fragment()),
        # Each payment's amount, method and Stripe reference; a card payment may be refunded from here.
        rx.el.ul(rx.foreach(r.payments, _payment), class_name="mt-1 flex flex-col items-end gap-1 whitespace-normal"),
    )


def _balance(r: ObjectVar[InvoiceRow]) -> rx.Component:
    return rx.cond(
        r.balance != "",
        rx.el.span(
            r.balance,
            class_name=rx.cond(r.overdue, "font-medium text-red-700", "text-slate-700"),
            data_testid="invoice-balance",
        ),
        rx.el.span("—", class_name="text-slate-400"),
    )


COLUMNS: list[Column[InvoiceRow]] = [
    Column("Invoice", _invoice),
    Column("Client", lambda r: r.client, "hidden md:table-cell"),
    Column("Status", _status),
    Column("Total", _total, "text-right", "whitespace-nowrap"),
    Column("Balance due", _balance, "hidden sm:table-cell text-right", "whitespace-nowrap"),
    # The issue and paid dates give way to the balance below 1536 px, so the row's actions stay in view at 1280.
    Column("Issued", lambda r: r.issue_date, "hidden 2xl:table-cell", "whitespace-nowrap"),
    Column("Due", lambda r: r.due_date, "hidden lg:table-cell", "whitespace-nowrap"),
    Column(
        "Paid", lambda r: rx.cond(r.paid_date != "", r.paid_date, "—"), "hidden 2xl:table-cell", "whitespace-nowrap"
    ),
]


def _line_row(x: ObjectVar[dict[str, str]], i: rx.Var) -> rx.Component:
    def edit(key: str) -> Any:
        return lambda v: S.set_line(i, key, v)

    return rx.el.div(
        row_input(
            x["description"],
            "Line description",
            edit("description"),
            "w-full sm:w-auto sm:flex-1",
            placeholder="Description",
            data_testid="line-description",
        ),
        rx.el.div(
            row_input(
                x["quantity"],
                "Quantity",
                edit("quantity"),
                "w-20",
                type="number",
                min="1",
                step="1",
                data_testid="line-quantity",
            ),
            row_input(
                x["unit_price"],
                "Unit price",
                edit("unit_price"),
                "w-32",
                type="number",
                min="0",
                step="0.01",
                placeholder="Unit price",
                data_testid="line-price",
            ),
            row_button("x", "Remove line", S.remove_line(i)),
            class_name="flex items-center gap-2",
        ),
        key=x["key"],
        class_name="flex flex-col gap-2 sm:flex-row sm:items-center",
        data_testid="line-row",
    )


def _client_picker(error: rx.Var | str) -> rx.Component:
    """Type to search every client on the server; the list below offers the first matches."""
    return client_picker(
        S,
        select_id="invoice-client",
        search_test_id="invoice-client-search",
        required=True,
        on_change=S.set_inv_client,
        error=error,
    )


def _lines_and_totals() -> rx.Component:
    """The line editor and the totals' preview, shared by the create and edit dialogs (the state's `lines`)."""
    err = S.form_errors
    p = S.preview
    return rx.fragment(
        rx.el.fieldset(
            rx.el.legend("Line items", class_name="mb-2 text-sm font-medium text-slate-700"),
            rx.el.div(rx.foreach(S.lines, _line_row), class_name="flex flex-col gap-2"),
            rx.cond(err["items"], rx.el.p(err["items"], class_name="mt-1 text-xs text-red-600"), rx.fragment()),
            add_row_button("Add line", S.add_line),
            class_name="mt-4",
        ),
        rx.el.dl(
            rx.el.div(rx.el.dt("Subtotal"), rx.el.dd(p.subtotal), class_name="flex justify-between"),
            rx.el.div(rx.el.dt("Tax"), rx.el.dd(p.tax), class_name="flex justify-between"),
            rx.el.div(
                rx.el.dt("Total"),
                rx.el.dd(p.total, data_testid="invoice-preview-total"),
                class_name="flex justify-between font-semibold text-slate-900",
            ),
            rx.cond(
                p.note != "",
                rx.el.p(p.note, class_name="text-xs text-amber-800", data_testid="invoice-preview-note"),
                rx.fragment(),
            ),
            rx.el.p("Estimate: the server computes the saved amounts.", class_name="text-xs text-slate-500"),
            class_name="mt-4 space-y-1 rounded-lg bg-slate-50 p-3 text-sm text-slate-700",
        ),
    )


def _tax_field() -> rx.Component:
    return field(
        "Tax rate (%)",
        rx.el.input(
            type="number",
            min="0",
            max="100",
            step="0.01",
            name="tax_rate",
            id="invoice-tax",
            default_value=S.tax_rate,
            on_change=S.set_tax_rate,
            class_name=INPUT,
        ),
        S.form_errors["tax_rate"],
    )


def _create_dialog() -> rx.Component:
    err = S.form_errors
    fields = rx.fragment(
        rx.el.div(
            _client_picker(err["client_id"]),
            field(
                "Project (optional)",
                option_select(
                    S.project_options, "No project", name="project_id", id="invoice-project", key=S.client_id
                ),
                err["project_id"],
            ),
            wide(text_field(S, "Description", "description", id="invoice-description")),
            text_field(S, "Due date", "due_date", id="invoice-due", type="date", min="1900-01-01"),
            _tax_field(),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        _lines_and_totals(),
        rx.el.div(
            field("Notes", text_area("notes", id="invoice-notes", rows=2), err["notes"]),
            class_name="mt-4",
        ),
    )
    return form_dialog(
        S,
        "create",
        "Create Invoice",
        "A draft gets the next invoice number; the client sees it once it is issued.",
        fields,
        on_submit=S.submit_create,
        failed="Failed to create invoice",
        submit="Create draft",
        test_id="invoice-save",
        max_width="46rem",
    )


def _edit_dialog() -> rx.Component:
    d = S.detail
    fields = rx.fragment(
        rx.el.div(
            wide(text_field(S, "Description", "description", d.description, id="edit-description")),
            text_field(S, "Due date", "due_date", d.due_value, id="edit-due", type="date", min="1900-01-01"),
            _tax_field(),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        _lines_and_totals(),
        rx.el.div(
            field("Notes", text_area("notes", id="edit-notes", rows=2, default_value=d.notes), S.form_errors["notes"]),
            class_name="mt-4",
        ),
    )
    return form_dialog(
        S,
        "edit",
        rx.el.span("Edit draft ", S.dialog_name),
        rx.el.span("For ", d.client, ". The totals are recomputed on the server when you save."),
        fields,
        on_submit=S.submit_edit,
        failed="Failed to save invoice",
        submit="Save draft",
        test_id="edit-save",
        max_width="46rem",
    )


def _pay_dialog() -> rx.Component:
    fields = rx.el.div(
        number_field(
            S,
            "Amount (USD)",
            "amount",
            None,
            "0.01",
            step="0.01",
            id="pay-amount",
            hint="Leave empty for the whole outstanding amount.",
        ),
        text_field(S, "Method", "method", id="pay-method", placeholder="Bank transfer"),
        text_field(S, "Payment date", "paid_on", id="pay-date", type="date", min="1900-01-01"),
        class_name="grid gap-4 sm:grid-cols-2",
    )
    return form_dialog(
        S,
        "pay",
        "Record Payment",
        rx.el.span("A payment on ", rx.el.strong(S.dialog_name), "."),
        fields,
        on_submit=S.submit_pay,
        failed="Failed to record payment",
        submit="Record payment",
    )


def billing_content() -> rx.Component:
    filtered = (S.search != "") | (S.status_filter != "") | (S.due_filter != "")
    empty = rx.cond(filtered, "No invoices found matching your search.", "No invoices found.")
    return section_page(
        S,
        data_table(S, COLUMNS, row_test_id="invoice-row", empty=empty, actions=_actions, tight=True),
        search="Search invoices…",
        title="Billing",
        subtitle="Invoices for clients: drafts, issued, paid and void.",
        create=[allowed_button(S.can_write, "plus", "Create Invoice", S.open_create, test_id="create-invoice")],
        filters=[
            filter_select(STATUS_FILTERS, S.status_filter, S.set_status_filter, "Status", "sm:w-48"),
            filter_select(DUE_FILTERS, S.due_filter, S.set_due_filter, "Due date", "sm:w-40"),
            filter_select(SORTS, S.sort, S.set_sort, "Sort invoices"),
        ],
        export=S.export_url,
        dialogs=[
            _create_dialog(),
            _edit_dialog(),
            _pay_dialog(),
            delete_dialog(S, "Delete Draft Invoice"),
            detail_dialog(),
            issue_dialog(),
            void_dialog(),
            confirm_dialog(
                "Refund Card Payment",
                rx.el.span(
                    "Refund ",
                    rx.el.strong(S.dialog_name),
                    " to the client's card through Stripe? The invoice updates once Stripe confirms the refund.",
                ),
                **shown(S, "refund"),
                on_confirm=S.confirm_refund,
                busy=S.saving,
                label="Refund",
            ),
        ],
    )

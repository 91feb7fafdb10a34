"""The invoice detail dialog and the issue and void dialogs (markup over BillingState's InvoiceDetailDialogs).

Laid out as stacked rows rather than tables, so a 390 px phone reads every part without scrolling sideways; the
actions wrap onto as many lines as they need.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec
from reflex.vars.object import ObjectVar

from app.models.billing import VOID_REASON_MAX
from app.ui.admin.billing.detail import AuditLine, ItemLine, MailLine, PaymentLine
from app.ui.admin.billing.state import STATUS_COLORS, BillingState
from app.ui.admin.common import info
from app.ui.admin.dialog_views import form_dialog, text_field
from app.ui.admin.dialogs import shown
from app.ui.admin.widgets import (
    BTN_DANGER,
    BTN_PRIMARY,
    BTN_SECONDARY,
    busy_button,
    choice_badge,
    dialog,
    dialog_actions,
)
from app.ui.components.file_link import file_link

S = BillingState


def handler(name: str, *args: Any) -> EventSpec:
    """`S.<name>(*args)` as Reflex types it: mypy reads an `@rx.event` method on the class as `EventNamespace`, which it
    cannot call with a row's values; the state's registry holds the same handler as the `EventHandler` it is."""
    return S.event_handlers[name](*args)


PAYMENT_COLORS = {"succeeded": "green", "pending": "yellow", "failed": "red", "refunded": "grey"}
MAIL_COLORS = {"sent": "green", "pending": "yellow", "failed": "red"}
SECTION_TITLE = "mb-2 text-sm font-semibold text-slate-900"
ROW = "border-t border-slate-100 py-2 first:border-t-0"


def _section(title: str, rows: Any, row: Any, empty: str, test_id: str) -> rx.Component:
    return rx.el.section(
        rx.el.h3(title, class_name=SECTION_TITLE),
        rx.cond(
            rows.length() > 0,
            rx.el.ul(rx.foreach(rows, row), class_name="text-sm"),
            rx.el.p(empty, class_name="text-sm text-slate-500"),
        ),
        class_name="mt-5",
        data_testid=test_id,
    )


def _item(x: ObjectVar[ItemLine]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(x.description, class_name="min-w-0 break-words text-slate-900"),
            rx.el.p(x.amount, class_name="shrink-0 font-medium text-slate-900"),
            class_name="flex justify-between gap-4",
        ),
        rx.el.p(x.quantity, " \u00d7 ", x.unit_price, class_name="text-xs text-slate-500"),
        class_name=ROW,
        data_testid="detail-line",
    )


def _payment(p: ObjectVar[PaymentLine]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(p.amount, class_name="font-medium text-slate-900"),
            choice_badge(p.status, PAYMENT_COLORS),
            class_name="flex items-center justify-between gap-4",
        ),
        rx.el.p(p.when, " · ", p.method, class_name="text-xs text-slate-500"),
        rx.cond(
            p.reference != "",
            rx.el.p("Stripe: ", rx.el.code(p.reference), class_name="break-all text-xs text-slate-500"),
            rx.fragment(),
        ),
        class_name=ROW,
        data_testid="detail-payment",
    )


def _mail(m: ObjectVar[MailLine]) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(m.subject, class_name="min-w-0 break-words text-slate-900"),
            choice_badge(m.status, MAIL_COLORS),
            class_name="flex items-start justify-between gap-4",
        ),
        rx.el.p(
            "To ",
            rx.el.span(m.recipient, class_name="break-all"),
            " · queued ",
            m.queued,
            rx.cond(m.sent != "", rx.el.span(" · sent ", m.sent), rx.fragment()),
            class_name="text-xs text-slate-500",
        ),
        class_name=ROW,
        data_testid="detail-mail",
    )


def _entry(a: ObjectVar[AuditLine]) -> rx.Component:
    return rx.el.li(
        rx.el.p(rx.el.span(a.action, class_name="font-medium text-slate-900"), " by ", a.actor),
        rx.el.p(a.when, class_name="text-xs text-slate-500"),
        rx.cond(a.details != "", rx.el.p(a.details, class_name="break-words text-xs text-slate-600"), rx.fragment()),
        class_name=ROW,
        data_testid="detail-audit",
    )


def _action(flag: Any, label: str, on_click: Any, test_id: str, *, style: str = BTN_SECONDARY) -> rx.Component:
    return rx.cond(flag, rx.el.button(label, type="button", on_click=on_click, class_name=style, data_testid=test_id))


def _actions() -> rx.Component:
    # Each by the service's flag (ADR 0065); they wrap, so a phone shows them all without scrolling sideways.
    d = S.detail
    return rx.el.div(
        _action(d.can_issue, "Issue…", handler("ask_issue", d.id), "detail-issue", style=BTN_PRIMARY),
        _action(d.can_edit, "Edit draft", S.open_edit, "detail-edit"),
        _action(d.can_record_payment, "Record payment", handler("open_pay", d.id, d.number), "detail-pay"),
        _action(d.can_void, "Void…", S.open_void, "detail-void"),
        rx.cond(
            d.can_download,
            file_link(
                rx.icon("file-down", size=16), "PDF", href=d.pdf, class_name=BTN_SECONDARY, data_testid="detail-pdf"
            ),
        ),
        _action(d.can_delete, "Delete draft", handler("ask_delete", d.id, d.number), "detail-delete", style=BTN_DANGER),
        class_name="flex flex-wrap gap-2",
        data_testid="detail-actions",
    )


def _void_box() -> rx.Component:
    d = S.detail
    return rx.fragment(
        rx.cond(
            d.void_reason != "",
            rx.el.div(
                rx.el.p("Voided ", d.voided, class_name="font-semibold"),
                rx.el.p(d.void_reason, class_name="break-words", data_testid="detail-void-reason"),
                class_name="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800",
            ),
        ),
        rx.cond(
            d.void_refusal != "",
            rx.el.p(d.void_refusal, class_name="mt-3 text-xs text-slate-500", data_testid="detail-void-refusal"),
        ),
    )


def _totals() -> rx.Component:
    d = S.detail

    def line(label: Any, value: Any, classes: str = "", test_id: str | None = None) -> rx.Component:
        return rx.el.div(
            rx.el.dt(label), rx.el.dd(value, data_testid=test_id), class_name=f"flex justify-between {classes}"
        )

    return rx.el.dl(
        line("Subtotal", d.subtotal),
        line(rx.el.span("Tax (", d.tax_rate, "%)"), d.tax),
        line("Total", d.total, "font-semibold text-slate-900", "detail-total"),
        # A draft owes nothing yet: what is paid and due starts once it is issued.
        rx.cond(
            d.status.value != "draft",
            rx.fragment(
                line("Paid", d.paid),
                line("Balance due", d.balance, "font-semibold text-slate-900", "detail-balance"),
            ),
        ),
        class_name="mt-3 space-y-1 rounded-lg bg-slate-50 p-3 text-sm text-slate-700",
    )


def _header() -> rx.Component:
    d = S.detail
    return rx.fragment(
        rx.el.dl(
            info("Client", rx.el.span(d.client, rx.el.br(), rx.el.span(d.client_email, class_name="break-all"))),
            info("Project", d.project),
            info("Issued", d.issue_date),
            info("Due", d.due_date),
            info("Paid on", d.paid_date),
            info("Created", d.created),
            class_name="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3",
        ),
        rx.cond(d.description != "", rx.el.p(d.description, class_name="mt-4 break-words text-sm text-slate-700")),
        rx.cond(
            d.notes != "",
            rx.el.p(d.notes, class_name="mt-2 whitespace-pre-line break-words text-xs text-slate-500"),
        ),
        _void_box(),
    )


def detail_dialog() -> rx.Component:
    d = S.detail
    title = rx.el.span(
        rx.el.span("Invoice ", d.number),
        choice_badge(d.status, STATUS_COLORS, data_testid="detail-status"),
        class_name="flex flex-wrap items-center gap-2",
    )
    body = rx.el.div(
        _actions(),
        rx.el.div(_header(), class_name="mt-4"),
        rx.el.section(
            rx.el.h3("Lines", class_name=SECTION_TITLE),
            rx.el.ul(rx.foreach(S.detail_items, _item), class_name="text-sm"),
            _totals(),
            class_name="mt-5",
            data_testid="detail-lines",
        ),
        _section("Payments", S.detail_payments, _payment, "No payments recorded.", "detail-payments"),
        _section("Mails sent", S.detail_mails, _mail, "No mail sent about this invoice.", "detail-mails"),
        _section("History", S.detail_audit, _entry, "No recorded actions.", "detail-history"),
        rx.el.div(
            rx.el.button("Close", type="button", on_click=handler("close_dialog", False), class_name=BTN_SECONDARY),
            class_name="mt-6 flex justify-end",
        ),
        data_testid="invoice-detail",
    )
    return dialog(title, rx.el.span("For ", d.client), body, max_width="44rem", **shown(S, "detail"))


def issue_dialog() -> rx.Component:
    """The confirmation before issuing: issuing e-mails the client, so the question says to whom."""
    body = rx.el.div(
        rx.el.p(
            "The invoice goes to ",
            rx.el.strong(S.issue_to, class_name="break-all", data_testid="issue-to"),
            ". A draft can no longer be edited once issued.",
            class_name="text-sm text-slate-700",
        ),
        dialog_actions(
            rx.el.button(
                "Cancel",
                type="button",
                on_click=handler("close_dialog", False),
                class_name=BTN_SECONDARY,
                data_testid="issue-cancel",
            ),
            busy_button(
                "Issue invoice", S.saving, type="button", on_click=S.confirm_issue, data_testid="issue-confirm"
            ),
        ),
    )
    question = rx.el.span("Issue invoice ", S.dialog_name, "? The client will be e-mailed.")
    return dialog("Issue invoice", question, body, **shown(S, "issue"))


def void_dialog() -> rx.Component:
    fields = text_field(
        S,
        "Reason",
        "reason",
        id="void-reason",
        required=True,
        maxlength=str(VOID_REASON_MAX),
        placeholder="Billed twice",
        hint="One line, up to 200 characters. The client reads it in the mail.",
        autocomplete="off",
    )
    return form_dialog(
        S,
        "void",
        rx.el.span("Void invoice ", S.dialog_name),
        "Nothing will be owed on it and it takes no payment; the number stays taken and the client is e-mailed.",
        fields,
        on_submit=S.submit_void,
        failed="Failed to void invoice",
        submit="Void invoice",
        test_id="void-save",
        danger=True,
    )

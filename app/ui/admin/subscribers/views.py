"""The Newsletter tab of Content Management: search, status filter, sort and Export CSV over one page of subscribers
(the pager under it), and for content:write an Unsubscribe per active row behind a confirmation.

The staff panel's sidebar takes a quarter of a tablet's width, so columns give way by the content's width, not the
screen's: below lg the status, below xl the source and the day move under the address (which may break anywhere
rather than push the table wider).
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.common import confirm_dialog
from app.ui.admin.dialogs import shown
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.subscribers.state import SORTS, STATUSES, SubscriberListState, SubscriberRow
from app.ui.admin.tables import Column, data_table
from app.ui.admin.widgets import BTN_SECONDARY, choice_badge
from app.ui.rows import label_of

STATUS_COLORS = {"pending": "yellow", "confirmed": "green", "unsubscribed": "grey"}
S = SubscriberListState
# Its handlers called with arguments and the vars PagedList declares as plain types: Vars and event specs to Reflex,
# namespaces and str to mypy.
ev: Any = SubscriberListState


def _unsubscribe_button(sub: ObjectVar[SubscriberRow]) -> rx.Component:
    return rx.el.button(
        rx.icon("user-x", size=16),
        rx.el.span("Unsubscribe", class_name="hidden sm:inline"),
        type="button",
        on_click=ev.ask_unsubscribe(sub.id),
        title="Unsubscribe",
        aria_label=f"Unsubscribe {sub.email}",
        class_name=f"{BTN_SECONDARY} hover:!text-red-600",
        data_testid="unsubscribe-button",
    )


def _email(sub: ObjectVar[SubscriberRow]) -> rx.Component:
    return rx.fragment(
        rx.el.p(sub.email, class_name="break-all font-medium text-slate-900"),
        rx.el.div(
            rx.el.span(choice_badge(sub.status, STATUS_COLORS), class_name="lg:hidden"),
            rx.el.span(sub.source, " · ", sub.subscribed),
            class_name="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 xl:hidden",
        ),
    )


def _subscribed(sub: ObjectVar[SubscriberRow]) -> rx.Component:
    confirmed = rx.el.p("confirmed ", sub.confirmed, class_name="text-xs text-slate-500")
    return rx.fragment(rx.el.p(sub.subscribed), rx.cond(sub.confirmed != "", confirmed, rx.fragment()))


def _status(sub: ObjectVar[SubscriberRow]) -> rx.Component:
    return choice_badge(sub.status, STATUS_COLORS, data_testid="subscriber-status")


def _unsubscribe(sub: ObjectVar[SubscriberRow]) -> rx.Component:
    return rx.cond(S.can_write & sub.active, _unsubscribe_button(sub), rx.fragment())


COLUMNS: list[Column[SubscriberRow]] = [
    Column("E-mail", _email),
    Column("Status", _status, "hidden lg:table-cell"),
    Column("Source", lambda sub: sub.source, "hidden xl:table-cell", "whitespace-nowrap"),
    Column("Subscribed", _subscribed, "hidden xl:table-cell", "whitespace-nowrap"),
    Column("Actions", _unsubscribe, "text-right"),
]


def _confirm() -> rx.Component:
    return confirm_dialog(
        "Unsubscribe",
        rx.el.span(
            "Stop sending the newsletter to ",
            rx.el.strong(S.dialog_name, class_name="break-all"),
            "? Only they can subscribe again, by confirming a new sign-up from their inbox.",
        ),
        **shown(S, "unsubscribe"),
        on_confirm=S.confirm_unsubscribe,
        busy=S.saving,
        label="Unsubscribe",
    )


def subscribers_panel() -> rx.Component:
    empty = rx.cond(S.filtered, "No subscribers found matching your search.", "No subscribers yet.")
    statuses = [("", "All statuses"), *[(s, label_of(s)) for s in STATUSES]]
    return section_page(
        S,
        data_table(S, COLUMNS, row_test_id="subscriber-row", empty=empty, test_id="subscribers-table"),
        search="Search e-mail addresses…",
        search_id="search-subscribers",
        filters=[
            filter_select(
                statuses,
                S.status_filter,
                S.set_status_filter,
                "Filter by status",
                data_testid="subscriber-status-filter",
            ),
            filter_select(SORTS, S.sort, S.set_sort, "Sort subscribers", "sm:w-40"),
        ],
        export=S.export_url,
        dialogs=[_confirm()],
    )

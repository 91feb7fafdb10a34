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

from app.ui.admin.common import confirm_dialog, label_of
from app.ui.admin.dialogs import shown
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.subscribers.state import SORTS, STATUSES, SubscriberListState, SubscriberRow
from app.ui.admin.tables import data_table, table_row
from app.ui.admin.widgets import BTN_SECONDARY, TD, badge_by

STATUS_COLORS = {"pending": "yellow", "confirmed": "green", "unsubscribed": "grey"}
HEADERS = [
    ("E-mail", ""),
    ("Status", "hidden lg:table-cell"),
    ("Source", "hidden xl:table-cell"),
    ("Subscribed", "hidden xl:table-cell"),
    ("Actions", "text-right"),
]

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


def _row(sub: ObjectVar[SubscriberRow]) -> rx.Component:
    return table_row(
        rx.el.td(
            rx.el.p(sub.email, class_name="break-all font-medium text-slate-900"),
            rx.el.div(
                rx.el.span(badge_by(sub.status, STATUS_COLORS, sub.status_label), class_name="lg:hidden"),
                rx.el.span(sub.source, " · ", sub.subscribed),
                class_name="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 xl:hidden",
            ),
            class_name=TD,
        ),
        rx.el.td(
            badge_by(sub.status, STATUS_COLORS, sub.status_label, data_testid="subscriber-status"),
            class_name=f"{TD} hidden lg:table-cell",
        ),
        rx.el.td(sub.source, class_name=f"{TD} hidden xl:table-cell whitespace-nowrap"),
        rx.el.td(
            rx.el.p(sub.subscribed),
            rx.cond(
                sub.confirmed != "",
                rx.el.p("confirmed ", sub.confirmed, class_name="text-xs text-slate-500"),
                rx.fragment(),
            ),
            class_name=f"{TD} hidden xl:table-cell whitespace-nowrap",
        ),
        rx.el.td(
            rx.cond(S.can_write & sub.active, _unsubscribe_button(sub), rx.fragment()),
            class_name=f"{TD} text-right",
        ),
        test_id="subscriber-row",
    )


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
        data_table(S, HEADERS, _row, empty=empty, actions=False, test_id="subscribers-table"),
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

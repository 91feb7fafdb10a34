"""Clients (/admin/clients): the table, the verified filter and the edit dialog over ClientsState."""

from __future__ import annotations

import reflex as rx

from app.ui.admin.accounts.state import AccountRow
from app.ui.admin.accounts.views import create_dialog, delete_dialog, edit_dialog, reset_dialog, row_actions, search_box
from app.ui.admin.clients.state import VERIFIED_FILTERS, ClientsState
from app.ui.admin.widgets import (
    CARD,
    TD,
    TH,
    alert,
    allowed_button,
    badge,
    empty_row,
    export_link,
    page_header,
    pagination,
    select,
)


def _row(row: rx.Var[AccountRow]) -> rx.Component:
    s = ClientsState
    return rx.el.tr(
        rx.el.td(
            rx.el.p(row.full_name, class_name="font-medium text-slate-900"),
            rx.el.p(row.email, class_name="text-xs text-slate-500 break-all"),
            rx.el.p(row.company, class_name="text-xs text-slate-500 sm:hidden"),
            class_name=TD,
        ),
        rx.el.td(rx.cond(row.company != "", row.company, "Individual"), class_name=f"{TD} hidden sm:table-cell"),
        rx.el.td(rx.cond(row.phone != "", row.phone, "—"), class_name=f"{TD} hidden lg:table-cell"),
        rx.el.td(
            rx.cond(row.verified, badge("Verified", "green"), badge("Unverified", "yellow")),
            class_name=f"{TD} hidden md:table-cell",
        ),
        rx.el.td(row.created, class_name=f"{TD} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(row_actions(s, row, reset_allowed=s.can_reset_clients), class_name=f"{TD} text-right"),
        class_name="border-t border-slate-100 hover:bg-slate-50/60",
        data_testid="client-row",
    )


def _table() -> rx.Component:
    s = ClientsState
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        rx.el.th("Client", class_name=TH),
                        rx.el.th("Company", class_name=f"{TH} hidden sm:table-cell"),
                        rx.el.th("Phone", class_name=f"{TH} hidden lg:table-cell"),
                        rx.el.th("Status", class_name=f"{TH} hidden md:table-cell"),
                        rx.el.th("Joined", class_name=f"{TH} hidden lg:table-cell"),
                        rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(
                    rx.cond(s.rows.length() > 0, rx.foreach(s.rows, _row), empty_row(6, "No clients found")),
                ),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto",
        ),
        pagination(s.page, s.pages, s.total, s.first_shown, s.last_shown, s.prev_page, s.next_page),
        class_name=f"{CARD} overflow-hidden",
    )


def clients_content() -> rx.Component:
    s = ClientsState
    return rx.el.div(
        page_header(
            "Clients",
            rx.el.span(s.total, " client accounts"),
            allowed_button(s.can_create_clients, "user-plus", "Create Client", s.open_create("client")),
        ),
        rx.el.div(
            search_box(s, "Search clients…"),
            rx.el.div(
                select(
                    VERIFIED_FILTERS,
                    value=s.verified_filter,
                    on_change=s.set_verified_filter,
                    aria_label="Filter by verification",
                ),
                class_name="w-full sm:w-44",
            ),
            export_link(s.export_url),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center",
        ),
        rx.cond(
            s.load_error != "",
            rx.el.div(alert("Failed to load clients", s.load_error), class_name="mb-4"),
            rx.fragment(),
        ),
        _table(),
        create_dialog(s),
        edit_dialog(ClientsState, "Client", "client"),
        reset_dialog(s),
        delete_dialog(s, "client", "Deletion Failed"),
    )

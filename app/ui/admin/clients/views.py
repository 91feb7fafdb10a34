"""Clients (/admin/clients): the table, the verified filter and the edit dialog over ClientsState."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.accounts.state import AccountRow
from app.ui.admin.accounts.views import account_dialogs, edit_dialog, row_actions, verified_badge
from app.ui.admin.clients.state import VERIFIED_FILTERS, ClientsState
from app.ui.admin.section import filter_select, section_page
from app.ui.admin.tables import data_table, lead_cell, note, table_row
from app.ui.admin.widgets import (
    TD,
    allowed_button,
)


def _row(row: ObjectVar[AccountRow]) -> rx.Component:
    s = ClientsState
    return table_row(
        lead_cell(row.full_name, note(row.email, "break-all"), note(row.company, "sm:hidden")),
        rx.el.td(rx.cond(row.company != "", row.company, "Individual"), class_name=f"{TD} hidden sm:table-cell"),
        rx.el.td(rx.cond(row.phone != "", row.phone, "—"), class_name=f"{TD} hidden lg:table-cell"),
        rx.el.td(
            verified_badge(row),
            class_name=f"{TD} hidden md:table-cell",
        ),
        rx.el.td(row.created, class_name=f"{TD} hidden lg:table-cell whitespace-nowrap"),
        rx.el.td(row_actions(s, row, reset_allowed=s.can_reset_clients), class_name=f"{TD} text-right"),
        test_id="client-row",
    )


HEADERS = [
    ("Client", ""),
    ("Company", "hidden sm:table-cell"),
    ("Phone", "hidden lg:table-cell"),
    ("Status", "hidden md:table-cell"),
    ("Joined", "hidden lg:table-cell"),
]


def clients_content() -> rx.Component:
    s = ClientsState
    return section_page(
        s,
        data_table(s, HEADERS, _row, empty="No clients found"),
        search="Search clients…",
        title="Clients",
        subtitle=rx.el.span(s.total, " client accounts"),
        create=[allowed_button(s.can_create_clients, "user-plus", "Create Client", s.open_create("client"))],
        filters=[filter_select(VERIFIED_FILTERS, s.verified_filter, s.set_verified_filter, "Filter by verification")],
        export=s.export_url,
        dialogs=account_dialogs(s, "client", edit_dialog(s, "Client", "client")),
    )

"""Clients (/admin/clients): the table, the verified filter and the edit dialog over ClientsState."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.accounts.state import AccountRow
from app.ui.admin.accounts.views import accounts_page, edit_dialog, row_actions, verified_badge
from app.ui.admin.clients.state import VERIFIED_FILTERS, ClientsState
from app.ui.admin.section import filter_select
from app.ui.admin.tables import Column, lead, note
from app.ui.admin.widgets import allowed_button

COLUMNS: list[Column[AccountRow]] = [
    Column("Client", lambda r: lead(r.full_name, note(r.email, "break-all"), note(r.company, "sm:hidden"))),
    Column("Company", lambda r: rx.cond(r.company != "", r.company, "Individual"), "hidden sm:table-cell"),
    Column("Phone", lambda r: rx.cond(r.phone != "", r.phone, "—"), "hidden lg:table-cell"),
    Column("Status", verified_badge, "hidden md:table-cell"),
    Column("Joined", lambda r: r.created, "hidden lg:table-cell", "whitespace-nowrap"),
]


def _actions(row: ObjectVar[AccountRow]) -> rx.Component:
    return row_actions(ClientsState, row)


def clients_content() -> rx.Component:
    s = ClientsState
    return accounts_page(
        s,
        COLUMNS,
        _actions,
        edit_dialog(s, "Client", "client"),
        title="Clients",
        subtitle=rx.el.span(s.total, " client accounts"),
        create=[allowed_button(s.can_create_clients, "user-plus", "Create Client", s.open_create("client"))],
        filters=[filter_select(VERIFIED_FILTERS, s.verified_filter, s.set_verified_filter, "Filter by verification")],
    )

"""User Management (/admin/users): the table, the filters, the edit dialog and the Permissions dialog."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.accounts.state import AccountRow
from app.ui.admin.accounts.views import accounts_page, edit_dialog, row_actions, verified_badge
from app.ui.admin.common import option_select
from app.ui.admin.dialog_views import text_field
from app.ui.admin.section import filter_select
from app.ui.admin.tables import Column
from app.ui.admin.users.permissions_views import permissions_button, permissions_dialog
from app.ui.admin.users.state import ROLE_COLORS, ROLE_FILTERS, UsersState
from app.ui.admin.widgets import allowed_button, choice_badge, field


def _user_cell(row: ObjectVar[AccountRow]) -> rx.Component:
    return rx.el.div(
        rx.el.p(row.full_name, class_name="font-medium text-slate-900"),
        rx.el.p("@", row.username, class_name="text-xs text-slate-500"),
        rx.el.p(row.email, class_name="text-xs text-slate-500 md:hidden break-all"),
        rx.el.div(_role_cell(row), class_name="mt-1.5 sm:hidden"),
    )


def _role_cell(row: ObjectVar[AccountRow]) -> rx.Component:
    return rx.el.div(
        choice_badge(row.role, ROLE_COLORS),
        rx.cond(
            row.employee_type.label != "",
            rx.el.p(row.employee_type.label, class_name="mt-1 text-xs text-slate-500"),
            rx.fragment(),
        ),
    )


COLUMNS: list[Column[AccountRow]] = [
    Column("User", _user_cell),
    Column("Email", lambda r: r.email, "hidden md:table-cell", "break-all"),
    Column("Role", _role_cell, "hidden sm:table-cell"),
    Column("Status", verified_badge, "hidden lg:table-cell"),
    # The creation date gives way below 1536 px, so an address fits on its line at 1280 (ADR 0087).
    Column("Created", lambda r: r.created, "hidden 2xl:table-cell", "whitespace-nowrap"),
]


def _actions(row: ObjectVar[AccountRow]) -> rx.Component:
    return rx.el.div(
        permissions_button(row),
        row_actions(UsersState, row),
        class_name="flex items-center justify-end gap-1",
    )


def _edit_dialog() -> rx.Component:
    s = UsersState
    err = s.form_errors
    return edit_dialog(
        s,
        "User",
        "edit",
        text_field(s, "Username", "username", s.edit.username, id="edit-username"),
        field(
            "Role",
            option_select(
                s.role_choices, None, name="role", id="edit-role", value=s.edit_role, on_change=s.set_edit_role
            ),
            err["role"],
        ),
        rx.cond(
            s.edit_role == "employee",
            field(
                "Employee type",
                option_select(
                    s.type_choices,
                    "Select employee type…",
                    name="employee_type",
                    id="edit-employee-type",
                    default_value=s.edit.employee_type.value,
                    required=True,
                ),
                err["employee_type"],
                required=True,
            ),
            rx.fragment(),
        ),
    )


def users_content() -> rx.Component:
    s = UsersState
    return accounts_page(
        s,
        COLUMNS,
        _actions,
        _edit_dialog(),
        title="User Management",
        subtitle=rx.el.span(s.total, " accounts"),
        create=[
            allowed_button(
                s.can_create_clients & ~s.can_manage,
                "user-plus",
                "Create Client",
                s.open_create("client"),
                primary=False,
            ),
            # Only for those who may give some role (users:manage): nobody is offered a form that refuses them.
            allowed_button(s.can_manage, "plus", "Create User", s.open_create("user")),
        ],
        filters=[filter_select(ROLE_FILTERS, s.role_filter, s.set_role_filter, "Filter by role")],
        dialogs=[permissions_dialog()],
    )

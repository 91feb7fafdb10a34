"""User Management (/admin/users): the table, the filters, the edit dialog and the Permissions dialog."""

from __future__ import annotations

import reflex as rx

from app.ui.admin.accounts.state import EMPLOYEE_TYPE_OPTIONS, ROLE_OPTIONS, AccountRow
from app.ui.admin.accounts.views import create_dialog, delete_dialog, edit_dialog, reset_dialog, row_actions, search_box
from app.ui.admin.users.permissions_views import permissions_button, permissions_dialog
from app.ui.admin.users.state import ROLE_COLORS, ROLE_FILTERS, UsersState
from app.ui.admin.widgets import (
    BTN_PRIMARY,
    CARD,
    TD,
    TH,
    alert,
    allowed_button,
    badge,
    badge_by,
    empty_row,
    export_link,
    field,
    page_header,
    pagination,
    select,
    text_input,
)


def _user_cell(row: rx.Var[AccountRow]) -> rx.Component:
    return rx.el.div(
        rx.el.p(row.full_name, class_name="font-medium text-slate-900"),
        rx.el.p("@", row.username, class_name="text-xs text-slate-500"),
        rx.el.p(row.email, class_name="text-xs text-slate-500 md:hidden break-all"),
        rx.el.div(_role_cell(row), class_name="mt-1.5 sm:hidden"),
    )


def _role_cell(row: rx.Var[AccountRow]) -> rx.Component:
    return rx.el.div(
        badge_by(row.role, ROLE_COLORS, row.role_label),
        rx.cond(
            row.employee_type_label != "",
            rx.el.p(row.employee_type_label, class_name="mt-1 text-xs text-slate-500"),
            rx.fragment(),
        ),
    )


def _row(row: rx.Var[AccountRow]) -> rx.Component:
    reset_allowed = UsersState.can_reset_any | ((row.role == "client") & UsersState.can_reset_clients)
    return rx.el.tr(
        rx.el.td(_user_cell(row), class_name=TD),
        rx.el.td(row.email, class_name=f"{TD} hidden md:table-cell whitespace-nowrap"),
        rx.el.td(_role_cell(row), class_name=f"{TD} hidden sm:table-cell"),
        rx.el.td(
            rx.cond(row.verified, badge("Verified", "green"), badge("Unverified", "yellow")),
            class_name=f"{TD} hidden lg:table-cell",
        ),
        rx.el.td(row.created, class_name=f"{TD} hidden xl:table-cell whitespace-nowrap"),
        rx.el.td(
            rx.el.div(
                permissions_button(row),
                row_actions(UsersState, row, reset_allowed=reset_allowed),
                class_name="flex items-center justify-end gap-1",
            ),
            class_name=f"{TD} text-right",
        ),
        class_name="border-t border-slate-100 hover:bg-slate-50/60",
        data_testid="user-row",
    )


def _table() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        rx.el.th("User", class_name=TH),
                        rx.el.th("Email", class_name=f"{TH} hidden md:table-cell"),
                        rx.el.th("Role", class_name=f"{TH} hidden sm:table-cell"),
                        rx.el.th("Status", class_name=f"{TH} hidden lg:table-cell"),
                        rx.el.th("Created", class_name=f"{TH} hidden xl:table-cell"),
                        rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(
                    rx.cond(
                        UsersState.rows.length() > 0,
                        rx.foreach(UsersState.rows, _row),
                        empty_row(6, "No users found"),
                    ),
                ),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto",
        ),
        pagination(
            UsersState.page,
            UsersState.pages,
            UsersState.total,
            UsersState.first_shown,
            UsersState.last_shown,
            UsersState.prev_page,
            UsersState.next_page,
        ),
        class_name=f"{CARD} overflow-hidden",
    )


def _edit_dialog() -> rx.Component:
    s = UsersState
    err = s.form_errors
    return edit_dialog(
        s,
        "User",
        "edit",
        field("Username", text_input("username", id="edit-username", default_value=s.edit.username), err["username"]),
        field(
            "Role",
            select(ROLE_OPTIONS, name="role", id="edit-role", value=s.edit_role, on_change=s.set_edit_role),
            err["role"],
        ),
        rx.cond(
            s.edit_role == "employee",
            field(
                "Employee type",
                select(
                    EMPLOYEE_TYPE_OPTIONS,
                    name="employee_type",
                    id="edit-employee-type",
                    default_value=s.edit.employee_type,
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
    return rx.el.div(
        page_header(
            "User Management",
            rx.el.span(s.total, " accounts"),
            allowed_button(
                s.can_create_clients & ~s.can_manage,
                "user-plus",
                "Create Client",
                s.open_create("client"),
                primary=False,
            ),
            rx.el.button(
                rx.icon("plus", size=16), "Create User", on_click=s.open_create("user"), class_name=BTN_PRIMARY
            ),
        ),
        rx.el.div(
            search_box(s, "Search users…"),
            rx.el.div(
                select(ROLE_FILTERS, value=s.role_filter, on_change=s.set_role_filter, aria_label="Filter by role"),
                class_name="w-full sm:w-44",
            ),
            export_link(s.export_url),
            class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center",
        ),
        rx.cond(
            s.load_error != "", rx.el.div(alert("Failed to load users", s.load_error), class_name="mb-4"), rx.fragment()
        ),
        _table(),
        create_dialog(s),
        _edit_dialog(),
        reset_dialog(s),
        delete_dialog(s, "user", "Deletion Failed"),
        permissions_dialog(),
    )

"""The account UI that User Management and Clients share: the page (search, table, export), the create, edit,
reset-password and delete dialogs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.accounts.state import AccountRow, AccountsMixin
from app.ui.admin.common import option_select
from app.ui.admin.dialog_views import form_dialog, text_field
from app.ui.admin.dialogs import shown
from app.ui.admin.section import section_page
from app.ui.admin.tables import Column, data_table
from app.ui.admin.widgets import (
    BTN_SECONDARY,
    alert,
    badge,
    busy_button,
    dialog,
    dialog_actions,
    field,
    icon_button,
    text_input,
)


def _form_alert(state: type[AccountsMixin], title: str) -> rx.Component:
    return rx.cond(state.form_error != "", alert(title, state.form_error), rx.fragment())


def _err(state: type[AccountsMixin], key: str) -> rx.Var | str:
    """The server's error for `key`: a Var at run time, a str to mypy (Dialogs.form_errors is typed plain)."""
    return state.form_errors.get(key, "")


def create_dialog(state: type[AccountsMixin]) -> rx.Component:
    client_only = state.create_mode == "client"
    role_fields = rx.cond(
        client_only,
        rx.fragment(),
        rx.el.div(
            field(
                "Role",
                option_select(
                    state.role_choices,
                    None,
                    name="role",
                    id="create-role",
                    value=state.form_role,
                    on_change=state.set_form_role,
                ),
                _err(state, "role"),
                required=True,
            ),
            rx.cond(
                state.form_role == "employee",
                field(
                    "Employee type",
                    option_select(
                        state.type_choices,
                        "Select employee type…",
                        name="employee_type",
                        id="create-employee-type",
                        required=True,
                    ),
                    _err(state, "employee_type"),
                    required=True,
                ),
                rx.fragment(),
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
    )
    fields = rx.el.div(
        rx.el.div(
            field(
                "Username",
                text_input("username", id="create-username", required=True, auto_complete="off"),
                _err(state, "username"),
                required=True,
            ),
            field(
                "Email",
                text_input("email", id="create-email", type="email", required=True),
                _err(state, "email"),
                required=True,
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        rx.el.p(
            rx.icon("mail", size=16, class_name="mt-0.5 shrink-0 text-blue-700"),
            rx.el.span(
                "No password to choose: we e-mail a link to set one to this address. The link works once and "
                "for 72 hours."
            ),
            class_name="flex gap-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900",
            data_testid="invite-note",
        ),
        role_fields,
        rx.el.div(
            field("First name", text_input("first_name", id="create-first-name"), _err(state, "first_name")),
            field("Last name", text_input("last_name", id="create-last-name"), _err(state, "last_name")),
            field("Phone", text_input("phone", id="create-phone", type="tel"), _err(state, "phone")),
            field("Company", text_input("company", id="create-company"), _err(state, "company")),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        class_name="flex flex-col gap-4",
    )
    return form_dialog(
        state,
        "create",
        rx.cond(client_only, "Create Client", "Create User"),
        rx.cond(
            client_only,
            "Add a client account. They set their password from the e-mail and sign in to the client portal.",
            "Add a staff member or client account. Empty optional fields are left out.",
        ),
        fields,
        on_submit=state.submit_create,
        failed="Creation Failed",
        submit=rx.cond(client_only, "Create Client", "Create User"),
        max_width="40rem",
    )


# The contact fields every account has, as (label, payload name, input type).
CONTACT_FIELDS = [
    ("First name", "first_name", "text"),
    ("Last name", "last_name", "text"),
    ("Email", "email", "email"),
    ("Phone", "phone", "tel"),
    ("Company", "company", "text"),
]


def edit_dialog(state: type[AccountsMixin], noun: str, prefix: str, *extra: rx.Component) -> rx.Component:
    """Edit an account: `extra` fields (User Management's username, role and type) before the contact fields; the
    inputs' ids are `{prefix}-first-name` and so on."""
    s: Any = state
    contact = [
        text_field(s, label, name, getattr(s.edit, name), id=f"{prefix}-{name.replace('_', '-')}", type=kind)
        for label, name, kind in CONTACT_FIELDS
    ]
    return form_dialog(
        s,
        "edit",
        f"Edit {noun}",
        rx.el.span("Change the details of ", rx.el.strong(s.edit.username), "."),
        rx.el.div(*extra, *contact, class_name="grid gap-4 sm:grid-cols-2"),
        on_submit=s.submit_edit,
        failed="Update Failed",
        submit="Save Changes",
        max_width="40rem",
    )


def reset_dialog(state: type[AccountsMixin]) -> rx.Component:
    body = rx.el.div(
        _form_alert(state, "Password Reset Failed"),
        rx.el.ul(
            rx.el.li("The link works once and for 24 hours; a newer link replaces it."),
            rx.el.li("Their current password keeps working until they choose a new one."),
            rx.el.li("Choosing one signs them out everywhere."),
            class_name="list-disc space-y-1 pl-5 text-sm text-slate-600",
        ),
        dialog_actions(
            rx.el.button("Cancel", type="button", on_click=state.close_dialog(False), class_name=BTN_SECONDARY),
            busy_button("Send Reset Link", state.saving, icon="mail", type="button", on_click=state.send_reset),
        ),
        class_name="flex flex-col gap-4",
    )
    return dialog(
        "Reset Password",
        rx.el.span(
            "E-mail ",
            rx.el.strong(state.dialog_name),
            rx.cond(state.reset_email != "", rx.el.span(" (", state.reset_email, ")"), rx.fragment()),
            " a link to choose a new password?",
        ),
        body,
        **shown(state, "reset"),
    )


def reset_factor_dialog(state: type[AccountsMixin]) -> rx.Component:
    s: Any = state  # its handlers, bound with arguments
    body = rx.el.div(
        _form_alert(state, "Reset Failed"),
        rx.el.ul(
            rx.el.li("Their authenticator app's codes, their recovery codes and their trusted browsers stop working."),
            rx.el.li("Every session of theirs ends, and they are told by e-mail."),
            rx.el.li("If their role requires it, they set up a new authenticator at their next sign-in."),
            class_name="list-disc space-y-1 pl-5 text-sm text-slate-600",
        ),
        dialog_actions(
            rx.el.button("Cancel", type="button", on_click=s.close_dialog(False), class_name=BTN_SECONDARY),
            busy_button("Reset", state.saving, danger=True, type="button", on_click=state.confirm_reset_factor),
        ),
        class_name="flex flex-col gap-4",
    )
    return dialog(
        "Reset Two-Step Sign-In",
        rx.el.span(
            "Reset the two-step sign-in of ",
            rx.el.strong(state.dialog_name),
            "? Do this only when they have lost their phone and their recovery codes, and you know it is them asking.",
        ),
        body,
        **shown(state, "factor"),
    )


def delete_dialog(state: type[AccountsMixin], noun: str, error_title: str) -> rx.Component:
    body = rx.el.div(
        _form_alert(state, error_title),
        dialog_actions(
            rx.el.button("Cancel", type="button", on_click=state.close_dialog(False), class_name=BTN_SECONDARY),
            busy_button("Delete", state.saving, danger=True, type="button", on_click=state.confirm_delete),
        ),
    )
    return dialog(
        f"Delete {noun.title()}",
        rx.el.span(
            f"Are you sure you want to delete {noun} ",
            state.dialog_name,
            "? This action cannot be undone.",
        ),
        body,
        **shown(state, "delete"),
    )


def accounts_page(
    state: type[AccountsMixin],
    columns: list[Column[AccountRow]],
    actions: Callable[[ObjectVar[AccountRow]], rx.Component],
    edit: rx.Component,
    *,
    title: str,
    subtitle: rx.Component,
    create: Sequence[rx.Component],
    filters: Sequence[rx.Component],
    dialogs: Sequence[rx.Component] = (),
) -> rx.Component:
    """An account list's page (Users, Clients), named as its state's `listing`: the table of the current page with
    each row's `actions`, search, `filters`, Export CSV, and the dialogs every account list has: create, `edit` (with
    the section's own fields), reset password, delete, then the section's own `dialogs`."""
    s: Any = state
    plural, noun = state.listing.plural, state.listing.noun
    return section_page(
        state,
        data_table(state, columns, row_test_id=f"{noun}-row", empty=f"No {plural} found", actions=actions),
        search=f"Search {plural}…",
        title=title,
        subtitle=subtitle,
        create=create,
        filters=filters,
        export=s.export_url,
        dialogs=[
            create_dialog(state),
            edit,
            reset_dialog(state),
            reset_factor_dialog(state),
            delete_dialog(state, noun, "Deletion Failed"),
            *dialogs,
        ],
    )


def verified_badge(row: Any) -> rx.Component:
    """Whether the account's e-mail address is confirmed."""
    return rx.cond(row.verified, badge("Verified", "green"), badge("Unverified", "yellow"))


def row_actions(state: type[AccountsMixin], row: ObjectVar[AccountRow]) -> rx.Component:
    """Edit, reset password and delete, each where the row's flag says the signed-in user may (the service computed
    them; its handlers refuse anyway)."""

    def when(flag: rx.Var, button: rx.Component) -> rx.Component:
        return rx.cond(flag, button, rx.fragment())

    return rx.el.div(
        when(row.can_edit, icon_button("pencil", "Edit", f"Edit {row.username}", state.open_edit(row.id))),
        when(
            row.can_reset_password,
            icon_button(
                "key-round",
                "Reset password",
                f"Reset password of {row.username}",
                state.open_reset(row.id, row.username, row.email),
            ),
        ),
        when(
            row.can_reset_second_factor,
            icon_button(
                "shield-off",
                "Reset two-step sign-in",
                f"Reset two-step sign-in of {row.username}",
                cast(Any, state).open_reset_factor(row.id, row.username),
            ),
        ),
        when(
            row.can_delete,
            icon_button(
                "trash-2",
                "Delete",
                f"Delete {row.username}",
                state.open_delete(row.id, row.username),
                extra="hover:!bg-red-50 hover:!text-red-600",
            ),
        ),
        class_name="flex items-center justify-end gap-1",
    )

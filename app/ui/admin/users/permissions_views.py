"""The Permissions dialog of User Management: every permission with its source and a switch, off (with the reason)
where the signed-in user may not change it."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars.object import ObjectVar

from app.ui.admin.dialog_views import close_row
from app.ui.admin.dialogs import shown
from app.ui.admin.users.permissions_state import PermissionView
from app.ui.admin.users.state import UsersState
from app.ui.admin.widgets import alert, badge_by, dialog, icon_button

S = UsersState
ev: Any = UsersState  # its handlers called with arguments: event specs to Reflex, namespaces to mypy
SOURCE_COLORS = {"admin": "purple", "default": "grey", "granted": "green", "revoked": "red"}
SWITCH = (
    "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-none "
    "focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed "
    "disabled:opacity-50"
)
KNOB = "inline-block h-5 w-5 rounded-full bg-white shadow transition-transform"


def permissions_button(row: Any) -> rx.Component:  # the table's AccountRow var
    """A row's way into the account's permissions (not for clients: they hold none)."""
    return rx.cond(
        row.role.value != "client",
        icon_button(
            "shield-check",
            "Permissions",
            f"Permissions of {row.username}",
            ev.open_permissions(row.id),
            data_testid="permissions-button",
        ),
        rx.fragment(),
    )


def _switch(p: ObjectVar[PermissionView]) -> rx.Component:
    return rx.el.button(
        rx.el.span(class_name=rx.cond(p.held, f"{KNOB} translate-x-5", f"{KNOB} translate-x-0.5")),
        type="button",
        role="switch",
        aria_checked=rx.cond(p.held, "true", "false"),
        aria_label=p.description,
        title=rx.cond(p.can_change, rx.cond(p.held, "Revoke", "Grant"), p.reason),
        disabled=~p.can_change | (S.perm_busy != ""),
        on_click=ev.set_permission(p.permission, ~p.held),
        class_name=rx.cond(p.held, f"{SWITCH} bg-blue-600", f"{SWITCH} bg-slate-300"),
        data_testid="permission-switch",
    )


def _row(p: ObjectVar[PermissionView]) -> rx.Component:
    return rx.el.li(
        _switch(p),
        rx.el.div(
            rx.el.div(
                rx.el.span(p.description, class_name="text-sm font-medium text-slate-900"),
                rx.cond(
                    p.source_label != "",
                    badge_by(p.source, SOURCE_COLORS, p.source_label, data_testid="permission-source"),
                    rx.fragment(),
                ),
                class_name="flex flex-wrap items-center gap-2",
            ),
            rx.cond(p.reason != "", rx.el.p(p.reason, class_name="text-xs text-amber-700"), rx.fragment()),
            class_name="min-w-0 flex-1",
        ),
        class_name="flex items-start gap-3 py-2.5",
        data_testid="permission-row",
        data_permission=p.permission,
    )


def permissions_dialog() -> rx.Component:
    body = rx.el.div(
        rx.cond(
            S.perm_common_reason != "",
            rx.el.p(
                rx.icon("lock", size=14, class_name="mt-0.5 shrink-0"),
                S.perm_common_reason,
                class_name="mb-3 flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900",
                data_testid="permissions-locked",
            ),
            rx.fragment(),
        ),
        rx.cond(S.form_error != "", rx.el.div(alert("Permission not changed", S.form_error), class_name="mb-3")),
        rx.el.ul(
            rx.foreach(S.perm_rows, _row),
            class_name="max-h-[55vh] divide-y divide-slate-100 overflow-y-auto pr-1",
        ),
        close_row(ev.close_dialog(False)),
        data_testid="permissions-dialog",
    )
    return dialog(
        rx.el.span("Permissions: ", S.perm_user),
        rx.el.span(
            S.perm_role,
            " · holds ",
            S.perm_held_count,
            " of ",
            S.perm_rows.length(),
            rx.cond(S.perm_common_reason == "", ". Switch one on to grant it, off to revoke it.", "."),
        ),
        body,
        **shown(S, "permissions"),
        max_width="40rem",
    )

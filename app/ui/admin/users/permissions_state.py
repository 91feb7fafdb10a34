"""User Management's Permissions dialog: an account's effective permissions, where each comes from, and switches
that grant or revoke one at a time.

The server decides everything: the overview comes from `user_permissions` (which says, per permission, whether the
signed-in user could change it and why not), and every switch goes through `set_permission`, which applies the rules
of admin_users again whatever the browser sends. The session is re-checked first in every handler.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.permissions import PERM_DESCRIPTIONS, Perm
from app.services.accounts import user_permissions
from app.services.accounts.user_permissions import PermissionChange, UserPermissions
from app.ui.admin.dialogs import Dialogs
from app.ui.admin.state import as_actor, error_text

FEATURE = "User Management"
SOURCE_LABELS = {
    "admin": "Administrator",
    "default": "Role default",
    "granted": "Granted",
    "revoked": "Revoked",
    "none": "",
}


@dataclasses.dataclass
class PermissionView:
    permission: str = ""
    description: str = ""
    held: bool = False
    source: str = "none"
    source_label: str = ""
    can_change: bool = False
    reason: str = ""  # why the signed-in user cannot change it; shown on the row unless every row shares it


class PermissionsMixin(Dialogs, mixin=True):
    """The dialog called "permissions" (Dialogs: the account is its row, a refused switch its form_error)."""

    perm_user: rx.Field[str] = rx.field("")
    perm_role: rx.Field[str] = rx.field("")
    perm_rows: rx.Field[list[PermissionView]] = rx.field(default_factory=list)
    perm_common_reason: rx.Field[str] = rx.field("")  # the one reason every switch is off for (own account, ...)
    perm_busy: rx.Field[str] = rx.field("")  # the permission being saved

    def _show_permissions(self, view: UserPermissions) -> None:
        self.perm_user, self.perm_role = view.username, view.role_label
        rows = [
            PermissionView(
                permission=r.permission,
                description=r.description,
                held=r.held,
                source=r.source,
                source_label=SOURCE_LABELS[r.source],
                can_change=r.can_change,
                reason=r.reason or "",
            )
            for r in view.permissions
        ]
        reasons = {r.reason for r in rows}
        self.perm_common_reason = reasons.pop() if len(reasons) == 1 else ""
        if self.perm_common_reason:
            rows = [dataclasses.replace(r, reason="") for r in rows]
        self.perm_rows = rows

    @rx.var
    def perm_held_count(self) -> int:
        return sum(1 for r in self.perm_rows if r.held)

    @rx.event
    async def open_permissions(self, user_id: str) -> None:
        """Show an account's permissions (staff who read users)."""
        actor = await self._actor(Perm.users_read, FEATURE)
        if actor is None:
            return
        target = str(user_id)[:64]
        _, view = await self._attempt(
            actor,
            lambda s, a: user_permissions.user_permissions(s, actor=a, user_id=target),
            "Failed to load permissions",
            "Please try again.",
        )
        if view is None:
            return
        self.perm_busy = ""
        self._show_permissions(view)
        self._open_dialog("permissions", target)

    @rx.event
    async def set_permission(self, permission: str, held: Any) -> None:
        """Grant (`held` true) or revoke one permission of the account shown; the server applies every rule."""
        actor = await self._actor(Perm.users_read, FEATURE)
        if actor is None or self.dialog != "permissions" or self.perm_busy or not isinstance(held, bool):
            return
        change = PermissionChange(permission=str(permission)[:64], held=held)
        target, ip = self._dialog_key, self.router.session.client_ip
        self.perm_busy, self.form_error = change.permission, ""
        try:
            view = await as_actor(
                actor,
                lambda s, a: user_permissions.set_permission(s, actor=a, user_id=target, change=change, ip=ip),
            )
        except Exception as exc:
            self.form_error = error_text(exc, "Unable to update permissions. Please try again.")
            await self._notify("error", "Permission not changed", self.form_error)
            return
        finally:
            self.perm_busy = ""
        self._show_permissions(view)
        verb = "granted to" if change.held else "revoked from"
        words = PERM_DESCRIPTIONS.get(Perm(change.permission), change.permission)  # the key was accepted above
        await self._notify("success", "Permissions updated", f"“{words}” {verb} {view.username}.")

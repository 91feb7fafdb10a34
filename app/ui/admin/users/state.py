"""User Management (/admin/users, users:read): search, role filter, the paginated list, the account dialogs and the
Permissions dialog (`permissions_state`)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.accounts.state import AccountsMixin
from app.ui.admin.state import AdminState
from app.ui.admin.users.permissions_state import PermissionsMixin

ROLE_FILTERS = [("", "All Roles"), ("admin", "Admin"), ("employee", "Employee"), ("client", "Client")]
ROLE_COLORS = {"admin": "purple", "employee": "blue", "client": "green"}


class UsersState(PermissionsMixin, AccountsMixin, AdminState):
    role_filter: str = ""

    def _filters(self) -> dict[str, Any]:
        return {"role": self.role_filter}

    @rx.event
    async def set_role_filter(self, value: str) -> None:
        self.role_filter = value if value in {k for k, _ in ROLE_FILTERS} else ""
        self.page = 1
        await self._reload()

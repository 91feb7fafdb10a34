"""Clients (/admin/clients, users:read): only accounts with role client; search, verified filter, edit, delete."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.accounts.state import (
    AccountsMixin,
)
from app.ui.admin.state import AdminState

VERIFIED_FILTERS = [("", "All Clients"), ("verified", "Verified"), ("unverified", "Unverified")]
CLIENT_EDIT_KEYS = ("first_name", "last_name", "email", "phone", "company")


class ClientsState(AccountsMixin, AdminState):
    verified_filter: str = ""

    def _feature(self) -> str:
        return "Clients"

    def _query(self) -> dict[str, Any]:
        verified = {"verified": True, "unverified": False}.get(self.verified_filter)
        return {"role": "client", "verified": verified}

    def _edit_keys(self) -> tuple[str, ...]:
        return CLIENT_EDIT_KEYS

    def _edit_payload(self, form: dict[str, Any]) -> dict[str, str]:
        # As the spec's client edit: the five fields, and the role stays client.
        return {**super()._edit_payload(form), "role": "client"}

    def _texts(self) -> dict[str, str]:
        return {
            "update_title": "Update Failed",
            "update_fallback": "Unable to update client. Please try again.",
            "update_ok": "Client updated successfully",
            "delete_title": "Deletion Failed",
            "delete_fallback": "Unable to delete client. Please try again.",
            "delete_ok": "Client deleted successfully",
        }

    @rx.event
    async def set_verified_filter(self, value: str) -> None:
        self.verified_filter = value if value in {k for k, _ in VERIFIED_FILTERS} else ""
        self.page = 1
        await self._reload()

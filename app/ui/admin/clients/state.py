"""Clients (/admin/clients, users:read): only accounts with role client; search, verified filter, edit, delete."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.ui.admin.accounts.state import AccountRow, AccountsMixin
from app.ui.admin.paged import SectionListing
from app.ui.admin.state import AdminState

VERIFIED_FILTERS = [("", "All Clients"), ("verified", "Verified"), ("unverified", "Unverified")]
CLIENT_EDIT_KEYS = ("first_name", "last_name", "email", "phone", "company")


class ClientsState(AccountsMixin, AdminState):
    listing: ClassVar[SectionListing[AccountRow]] = dataclasses.replace(
        AccountsMixin.listing, feature="Clients", plural="clients", noun="client"
    )
    verified_filter: str = ""

    def _filters(self) -> dict[str, Any]:
        verified = {"verified": True, "unverified": False}.get(self.verified_filter)
        return {"role": "client", "verified": verified}

    def _edit_keys(self) -> tuple[str, ...]:
        return CLIENT_EDIT_KEYS

    def _edit_payload(self, form: dict[str, Any]) -> dict[str, str]:
        # As the spec's client edit: the five fields, and the role stays client.
        return {**super()._edit_payload(form), "role": "client"}

    @rx.event
    async def set_verified_filter(self, value: str) -> None:
        self.verified_filter = value if value in {k for k, _ in VERIFIED_FILTERS} else ""
        self.page = 1
        await self._reload()

"""Settings: state: the signed-in staff member's account figures and the audit log's latest entries."""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.permissions import Perm, has_perm
from app.services.platform import audit
from app.services.platform.audit import AuditEntry
from app.ui.admin.business_time import day_text, timestamp_text
from app.ui.admin.common import holds
from app.ui.admin.state import AdminState

AUDIT_LIMIT = 100


def _shown(value: Any) -> str:
    """A changed value as the log reads it: lists as their items, nothing as "(empty)"."""
    if isinstance(value, list):
        return "; ".join(map(str, value)) or "(empty)"
    return "(empty)" if value in (None, "") else str(value)


@dataclasses.dataclass
class AuditRow:
    """An audit-log entry as the table shows it."""

    id: str = ""
    when: str = ""
    who: str = ""
    action: str = ""
    record: str = "—"
    summary: str = ""
    where: str = "—"


def audit_row(entry: AuditEntry) -> AuditRow:
    record = entry.entity_type
    if record and entry.entity_id:
        record = f"{record} #{entry.entity_id[:8]}"
    details = entry.details
    summary = ""
    if "to" in details and isinstance(details["to"], dict):
        summary = ", ".join(f"{k} → {_shown(v)}" for k, v in details["to"].items())
    elif "fields" in details:
        summary = ", ".join(map(str, details["fields"]))
    elif "username" in details:
        summary = str(details["username"])
    elif "role" in details:
        summary = f"role {details['role']}"
    return AuditRow(
        id=str(entry.id),
        when=timestamp_text(entry.created_at),
        who=entry.actor,
        action=entry.action,
        record=record or "—",
        summary=summary,
        where=entry.ip_address or "—",
    )


class SettingsState(AdminState):
    audit_rows: rx.Field[list[AuditRow]] = rx.field(default_factory=list)
    audit_error: str = ""
    audit_loaded: bool = False

    @rx.var
    def can_audit(self) -> bool:
        return holds(self.user, Perm.audit_read)

    @rx.var
    def member_since(self) -> str:
        return day_text(self.user.created_at) if self.user else ""

    @rx.var
    def permission_list(self) -> list[str]:
        return sorted(self.user.effective_permissions) if self.user else []

    @rx.event
    async def load(self) -> None:
        self.audit_rows, self.audit_error, self.audit_loaded = [], "", False
        actor = await self._actor(quiet=True)
        if actor is None or not has_perm(actor.effective_permissions, Perm.audit_read):
            return
        self.audit_error, entries = await self._read(
            actor, lambda s, a: audit.recent(s, actor=a, limit=AUDIT_LIMIT), "Failed to load the audit log."
        )
        if entries is None:
            return
        self.audit_rows = [audit_row(e) for e in entries]
        self.audit_loaded = True

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


# The audit log in people's words (issue 26: it showed `auth.login`); an action not named here is worded from its
# parts ("meeting_type.save" -> "Meeting type saved"), so a new action never shows as a code.
ACTION_WORDS = {
    "auth.login": "Signed in",
    "auth.login_failed": "Sign-in failed",
    "auth.password_reset": "Password reset",
    "auth.password_reset_claimed_unverified": "Password reset (unverified address claimed)",
    "auth.google_claimed_unverified": "Google sign-in (unverified address claimed)",
    "user.reset_link_sent": "Password reset link sent",
    "user.reset_password": "Password reset by staff",
    "invoice.card_payment": "Card payment received",
    "invoice.checkout": "Card payment started",
    "invoice.payment": "Payment recorded",
    "invoice.payment_failed": "Card payment failed",
    "invoice.refund_requested": "Refund requested",
    "invoice.refund": "Refund confirmed",
    "invoice.overpayment": "Overpayment received",
    "invoice.reminder": "Reminder sent",
    "invoice.reminders": "Reminders switched",
    "project.time_logged": "Time logged",
    "project.time_deleted": "Time entry deleted",
    "project.team": "Project team changed",
    "project.milestones": "Milestones saved",
    "meeting.hold": "Booking held",
    "newsletter.unsubscribe": "Newsletter unsubscribed",
    "application.download": "Application file downloaded",
}
_PAST = {
    "create": "created", "update": "updated", "delete": "deleted", "cancel": "cancelled", "complete": "completed",
    "issue": "issued", "void": "voided", "save": "saved",
}  # fmt: skip


def action_words(action: str) -> str:
    """What an audit action means, in words: "Signed in", "Invoice issued", "Meeting type saved"."""
    if action in ACTION_WORDS:
        return ACTION_WORDS[action]
    thing, _, verb = action.partition(".")
    words = f"{thing.replace('_', ' ')} {_PAST.get(verb, verb.replace('_', ' '))}".strip()
    return words[:1].upper() + words[1:]


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
        action=action_words(entry.action),
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

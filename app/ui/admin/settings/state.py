"""Settings: state: the signed-in staff member's account figures and the audit log's latest entries."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import reflex as rx

from app.core.permissions import PERM_DESCRIPTIONS, Perm, has_perm
from app.models.user import UserPublic
from app.services.platform import audit
from app.services.platform.audit import AuditEntry
from app.ui.admin.business_time import day_text, timestamp_text
from app.ui.admin.common import holds
from app.ui.admin.state import AdminState
from app.ui.state.message_mail import MessageMailMixin
from app.ui.state.second_factor import SecondFactorMixin

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
    "auth.second_factor_enrolled": "Two-step sign-in turned on",
    "auth.second_factor_disabled": "Two-step sign-in turned off",
    "auth.second_factor_reset": "Two-step sign-in reset by staff",
    "auth.second_factor_failed": "Wrong sign-in code",
    "auth.recovery_code_used": "Signed in with a recovery code",
    "auth.recovery_codes_renewed": "New recovery codes made",
    "auth.trusted_browsers_forgotten": "Trusted browsers forgotten",
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


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


def action_words(action: str) -> str:
    """What an audit action means, in words: "Signed in", "Invoice issued", "Meeting type saved" (the website's
    records, `site.services.update`, as "Website services updated")."""
    if action in ACTION_WORDS:
        return ACTION_WORDS[action]
    thing, _, verb = action.rpartition(".")
    if thing.startswith("site."):
        thing = "website " + thing.removeprefix("site.")
    words = f"{thing.replace('.', ' ').replace('_', ' ')} {_PAST.get(verb, verb.replace('_', ' '))}".strip()
    return _sentence(words)


def _field_words(name: str) -> str:
    """A record's field as people say it: `first_name` -> "first name"."""
    return name.replace("_", " ")


def _record_words(table: str) -> str:
    """One record of a table as people say it: `contact_inquiries` -> "Contact inquiry", `users` -> "User"."""
    words = _field_words(table)
    if words.endswith("ies"):
        words = words[:-3] + "y"
    elif words.endswith("s") and not words.endswith("ss"):
        words = words[:-1]
    return _sentence(words)


def _value_words(value: Any) -> str:
    """A changed value as people read it: an enum's code in words (`in_progress` -> "in progress"), yes or no, and
    nothing as "(empty)"."""
    shown = _shown(value)
    if shown == "None":  # the services record str(None) for a value taken away (an inquiry unassigned)
        return "(empty)"
    if shown in ("True", "False"):
        return "yes" if shown == "True" else "no"
    if re.fullmatch(r"[a-z]+(?:_[a-z]+)+", shown):
        return shown.replace("_", " ")
    return shown


def audit_row(entry: AuditEntry) -> AuditRow:
    # The record and the summary in words as well (the table's and the fields' names are the code's).
    record = _record_words(entry.entity_type) if entry.entity_type else ""
    if record and entry.entity_id:
        record = f"{record} #{entry.entity_id[:8]}"
    details = entry.details
    summary = ""
    if "to" in details and isinstance(details["to"], dict):
        summary = ", ".join(f"{_field_words(k)} → {_value_words(v)}" for k, v in details["to"].items())
    elif "fields" in details:
        summary = ", ".join(_field_words(str(f)) for f in details["fields"])
    elif "username" in details:
        summary = str(details["username"])
    elif "role" in details:
        summary = f"role {_value_words(details['role'])}"
    return AuditRow(
        id=str(entry.id),
        when=timestamp_text(entry.created_at),
        who=entry.actor,
        action=action_words(entry.action),
        record=record or "—",
        summary=summary,
        where=entry.ip_address or "—",
    )


class SettingsState(SecondFactorMixin, MessageMailMixin, AdminState):
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
        """What the person may do, in words (the keys, `users:read`, are for the code), in the catalogue's order."""
        held = set(self.user.effective_permissions) if self.user else set()
        return [PERM_DESCRIPTIONS[p] for p in Perm if p.value in held]

    async def _mail_user(self) -> UserPublic | None:
        return await self._actor()

    async def _factor_user(self) -> UserPublic | None:
        return await self._actor()

    @rx.event
    async def load(self) -> None:
        self.audit_rows, self.audit_error, self.audit_loaded = [], "", False
        actor = await self._actor(quiet=True)
        if actor is None:
            return
        await self._load_mail_choice()
        await self._load_factor()
        if not has_perm(actor.effective_permissions, Perm.audit_read):
            return
        self.audit_error, entries = await self._read(
            actor, lambda s, a: audit.recent(s, actor=a, limit=AUDIT_LIMIT), "Failed to load the audit log."
        )
        if entries is None:
            return
        self.audit_rows = [audit_row(e) for e in entries]
        self.audit_loaded = True

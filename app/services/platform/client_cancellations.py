"""Someone is told when a client cancels (issue 12, point 7): the staff owner gets an e-mail through the outbox and
the staff dashboard lists recent cancellations (a Calendly booking is also cancelled there: scheduling.calendly).

The owner is the meeting's organizer or the project's manager when that is a staff account; for a project without a
manager (and a meeting without a staff organizer) it is `STAFF_NOTIFY_EMAIL` (skipped and logged when unset: the
dashboard still shows the cancellation). Staff cancelling on a client's behalf notify nobody: they know.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.permissions import STAFF_ROLES, Perm, Role
from app.models.base import utcnow
from app.models.system import AuditLog
from app.models.user import User
from app.services.platform import letters, mail
from app.services.platform.access import perms

log = logging.getLogger(__name__)

Kind = Literal["project", "meeting"]
ACTIONS = {"project": "project.cancel", "meeting": "meeting.cancel"}
READ_PERMS = {"project": Perm.content_read, "meeting": Perm.meetings_read}


def by_client(actor: User) -> bool:
    return actor.role == Role.client


def _owner_addresses(s: Session, owner_id: Any) -> list[str]:
    owner = s.get(User, owner_id) if owner_id else None
    if owner is not None and owner.role in STAFF_ROLES:
        return [owner.email]
    if settings.staff_notify_email:
        return [settings.staff_notify_email]
    log.warning("a client cancellation has no staff owner and STAFF_NOTIFY_EMAIL is unset; shown on the dashboard")
    return []


def notify_staff(
    s: Session,
    *,
    actor: User,
    kind: Kind,
    name: str,
    when: str = "",
    reason: str = "",
    owner_id: Any = None,
    calendly: str = "",
) -> None:
    """Mail the staff owner that `actor` (a client) cancelled; in the caller's transaction, so it is sent only if the
    cancellation commits."""
    client = " ".join(p for p in (actor.first_name, actor.last_name) if p) or actor.username
    letter = letters.render(
        s,
        "client_cancelled",
        kind=kind,
        name=name,
        client=client,
        client_email=actor.email,
        when=when,
        reason=reason,
        calendly=calendly,
    )
    for address in _owner_addresses(s, owner_id):
        # A client (not staff) causes it: capped like any mail from outside the staff.
        mail.enqueue(s, to=address, letter=letter, public=True)


# A client's cancellation of a meeting or project: its kind ("Meeting", "Project"), the record's name, the client's
# name, their reason and when (ISO time). (No docstring: it would become the REST schema's description.)
class CancellationPublic(BaseModel):
    kind: str
    name: str
    client: str
    reason: str
    when: str


def recent(s: Session, *, actor: User, days: int = 14, limit: int = 10) -> list[CancellationPublic]:
    """Cancellations by clients in the last `days`, newest first, of the kinds the actor may read (dashboard)."""
    held = perms(actor)
    actions = [ACTIONS[k] for k, perm in READ_PERMS.items() if perm in held]
    if not actions:
        return []
    rows = s.exec(
        select(AuditLog, User)
        .join(User, col(User.id) == col(AuditLog.actor_id))
        .where(col(AuditLog.action).in_(actions), User.role == Role.client)
        .where(col(AuditLog.created_at) >= utcnow() - timedelta(days=days))
        .order_by(col(AuditLog.created_at).desc(), col(AuditLog.id).desc())
        .limit(limit)
    ).all()
    out = []
    for entry, client in rows:
        details = entry.details or {}
        kind = "Meeting" if entry.action == ACTIONS["meeting"] else "Project"
        name = " ".join(p for p in (client.first_name, client.last_name) if p) or client.username
        out.append(
            CancellationPublic(
                kind=kind,
                name=str(details.get("name") or f"{kind} #{entry.entity_id}"),
                client=name,
                reason=str(details.get("reason") or ""),
                when=entry.created_at.isoformat(),
            )
        )
    return out

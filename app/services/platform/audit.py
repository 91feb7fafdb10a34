"""The audit log of actions on client and staff records (who did what, to which record, from where)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlmodel import Session, SQLModel, col, select

from app.core.permissions import Perm
from app.models.system import AuditLog
from app.models.user import User
from app.services.platform.access import require


def record(
    s: Session,
    *,
    actor: User | None,
    action: str,
    entity: SQLModel | None = None,
    details: dict[str, Any] | None = None,
    ip: str | None = None,
) -> None:
    """Add an entry in the caller's transaction, so it exists exactly when the change does."""
    s.add(
        AuditLog(
            actor_id=actor.id if actor else None,
            action=action,
            entity_type=str(entity.__tablename__) if entity is not None else None,
            entity_id=str(getattr(entity, "id", "")) if entity is not None else None,
            details=details,
            ip_address=ip,
        )
    )


class AuditEntry(BaseModel):
    """A recorded staff action: who (`actor`: a username, "system" or "(deleted user)"), what, on which record, the
    action's details (what changed) and the address it came from."""

    id: int
    created_at: str
    actor_id: str | None
    actor: str
    action: str
    entity_type: str
    entity_id: str
    details: dict[str, Any]
    ip_address: str


def recent(s: Session, *, actor: User, limit: int = 100) -> list[AuditEntry]:
    """The latest audit entries, newest first, with the actor's username (needs audit:read)."""
    require(actor, Perm.audit_read, "view the audit log")
    limit = max(1, min(int(limit), 500))
    rows = s.exec(
        select(AuditLog, User.username)
        .join(User, col(AuditLog.actor_id) == col(User.id), isouter=True)
        .order_by(col(AuditLog.id).desc())
        .limit(limit)
    ).all()
    return [
        AuditEntry(
            id=entry.id or 0,
            created_at=entry.created_at.isoformat(),
            actor_id=str(entry.actor_id) if entry.actor_id else None,
            actor=username or ("(deleted user)" if entry.actor_id else "system"),
            action=entry.action,
            entity_type=entry.entity_type or "",
            entity_id=entry.entity_id or "",
            details=entry.details or {},
            ip_address=entry.ip_address or "",
        )
        for entry, username in rows
    ]

"""The audit log of actions on client and staff records (who did what, to which record, from where)."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, SQLModel

from app.models.system import AuditLog
from app.models.user import User


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
            entity_type=entity.__tablename__ if entity is not None else None,  # type: ignore[attr-defined]
            entity_id=str(getattr(entity, "id", "")) if entity is not None else None,
            details=details,
            ip_address=ip,
        )
    )

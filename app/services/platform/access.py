"""Who may see which records: fetch and authorise in one call, so every caller applies the same rule.

Clients see their own projects, invoices (never drafts) and meetings; staff see them with the matching read
permission. "Missing" and "not yours" raise the same NotFound, so ids cannot be probed.
"""

from __future__ import annotations

from typing import TypeVar

from sqlmodel import Session, SQLModel

from app.core.db import get_by_id
from app.core.errors import Forbidden, NotFound
from app.core.permissions import STAFF_ROLES, Perm, effective_permissions, has_perm
from app.models.user import User

T = TypeVar("T", bound=SQLModel)

# The permission through which staff read each kind of client record.
STAFF_READ = {"project": Perm.content_read, "invoice": Perm.billing_read, "meeting": Perm.meetings_read}


def perms(user: User) -> frozenset[str]:
    return effective_permissions(user.role, user.employee_type, user.extra_permissions, user.revoked_permissions)


def staff_can(user: User, perm: str) -> bool:
    return user.role in STAFF_ROLES and has_perm(perms(user), perm)


def require(actor: User, perm: str, doing: str) -> None:
    """The one permission check of the services: staff holding `perm`, or Forbidden
    "You don't have permission to <doing>" (e.g. `doing="create invoices"`)."""
    if not staff_can(actor, perm):
        raise Forbidden(f"You don't have permission to {doing}")


def sees_all(user: User, kind: str) -> bool:
    """Whether the user reads every client's records of this kind (staff with the permission)."""
    return staff_can(user, STAFF_READ[kind])


def found(s: Session, model: type[T], record_id: object, label: str) -> T:
    """The row with this id, or NotFound "<label> not found" (also for an id no row can have)."""
    record = get_by_id(s, model, record_id)
    if record is None:
        raise NotFound(f"{label} not found")
    return record


def get_visible(s: Session, model: type[T], record_id: int, actor: User, kind: str, *, label: str) -> T:
    """The record if the actor may see it; NotFound otherwise (also for clients' invisible drafts)."""
    record = found(s, model, record_id, label)
    if sees_all(actor, kind):
        return record
    owner = getattr(record, "client_id", None)
    if owner != actor.id or (kind == "invoice" and getattr(record, "status", None) == "draft"):
        raise NotFound(f"{label} not found")
    return record

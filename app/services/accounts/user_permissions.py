"""One account's permissions, one at a time: what it holds and why (role default, granted, revoked), and granting or
revoking a single permission.

The rules are admin_users' (`access_change_problem`, and `update_user` for the write): users:manage, admins only on
admins, nobody changes their own permissions, nobody grants what they do not hold. This module only turns "hold P"
or "do not hold P" into the account's extra and revoked lists, and asks those rules, per permission, whether the
actor could change it, so the staff panel shows each refusal's reason before anyone clicks.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field
from sqlmodel import Session

from app.core.errors import Forbidden, Invalid
from app.core.permissions import (
    EMPLOYEE_TYPE_LABELS,
    PERM_DESCRIPTIONS,
    EmployeeType,
    Perm,
    Role,
    default_permissions,
    role_label,
)
from app.models.user import User
from app.services.accounts import admin_users
from app.services.platform.access import perms

Source = Literal["admin", "default", "granted", "revoked", "none"]
ADMIN_FIXED = "Administrators hold every permission; change their role to limit their access."
CLIENT_FIXED = "Clients hold no staff permissions; their portal shows only their own records."


class PermissionChange(BaseModel):
    """Grant (`held: true`) or revoke (`held: false`) one permission of an employee."""

    permission: str = Field(description="A permission name, e.g. billing:write.")
    held: bool = Field(description="Whether the account should hold it.")


class PermissionRow(BaseModel):
    permission: str
    description: str
    held: bool
    source: Source  # admin: every permission by role; default: the role or type gives it; granted/revoked: per user
    can_change: bool
    reason: str | None  # why the actor cannot change it (None when they can)


class UserPermissions(BaseModel):
    user_id: str
    username: str
    role: str
    role_label: str
    permissions: list[PermissionRow]


def _source(target: User, perm: str, defaults: frozenset[str]) -> Source:
    if target.role == Role.admin:
        return "admin"
    if target.role != Role.employee:
        return "none"
    if perm in target.revoked_permissions:
        return "revoked"
    if perm in defaults:
        return "default"
    return "granted" if perm in target.extra_permissions else "none"


def _lists_with(target: User, perm: str, *, held: bool) -> tuple[list[str], list[str]]:
    """The account's (extra, revoked) lists once it holds `perm` (held) or no longer does, touching nothing else."""
    known = {p.value for p in Perm}  # a stale name of a permission that no longer exists is dropped, not resent
    extra, revoked = set(target.extra_permissions) & known, set(target.revoked_permissions) & known
    if held:
        revoked.discard(perm)
        if perm not in default_permissions(target.role, target.employee_type):
            extra.add(perm)
    else:
        extra.discard(perm)
        if perm in default_permissions(target.role, target.employee_type):
            revoked.add(perm)
    return sorted(extra), sorted(revoked)


def _fixed(target: User) -> str | None:
    """Why no permission of this account can be adjusted one by one, or None for employees."""
    if target.role == Role.admin:
        return ADMIN_FIXED
    if target.role != Role.employee:
        return CLIENT_FIXED
    return None


def _role_label(target: User) -> str:
    """As the users table labels the account: "Developers (Devs)", "Administrator", "Client"."""
    etype = target.employee_type
    if target.role == Role.employee and etype and etype in EMPLOYEE_TYPE_LABELS:
        return EMPLOYEE_TYPE_LABELS[EmployeeType(etype)]
    return role_label(target.role, etype)


def _overview(s: Session, actor: User, target: User) -> UserPermissions:
    held, defaults, fixed = perms(target), default_permissions(target.role, target.employee_type), _fixed(target)
    rows = []
    for perm in Perm:
        reason = fixed
        if reason is None:
            extra, revoked = _lists_with(target, perm, held=perm not in held)
            reason = admin_users.access_change_problem(s, actor=actor, target=target, extra=extra, revoked=revoked)
        rows.append(
            PermissionRow(
                permission=perm.value,
                description=PERM_DESCRIPTIONS[perm],
                held=perm in held,
                source=_source(target, perm, defaults),
                can_change=reason is None,
                reason=reason,
            )
        )
    return UserPermissions(
        user_id=str(target.id),
        username=target.username,
        role=str(target.role),
        role_label=_role_label(target),
        permissions=rows,
    )


def user_permissions(s: Session, *, actor: User, user_id: uuid.UUID | str) -> UserPermissions:
    """An account's effective permissions with each one's source, and whether the actor could change it (users:read)."""
    if not admin_users.may_read_users(actor):
        raise Forbidden("You don't have permission to view users")
    return _overview(s, actor, admin_users.get_user(s, user_id))


def set_permission(
    s: Session, *, actor: User, user_id: uuid.UUID | str, change: PermissionChange, ip: str | None = None
) -> UserPermissions:
    """Grant or revoke one permission of an employee, under admin_users' rules; the account's permissions after."""
    if not admin_users.may_read_users(actor):
        raise Forbidden("You don't have permission to update this user")
    target = admin_users.get_user(s, user_id)
    if change.permission not in {p.value for p in Perm}:
        raise Invalid("Unknown permission", errors={"permission": f"Unknown permission: {change.permission[:50]}"})
    extra, revoked = _lists_with(target, change.permission, held=change.held)
    if problem := admin_users.access_change_problem(s, actor=actor, target=target, extra=extra, revoked=revoked):
        raise Forbidden(problem)
    if fixed := _fixed(target):
        raise Invalid(fixed)
    if (extra, revoked) != (sorted(target.extra_permissions), sorted(target.revoked_permissions)):
        admin_users.update_user(
            s, actor=actor, user_id=target.id, data={"extra_permissions": extra, "revoked_permissions": revoked}, ip=ip
        )
    return _overview(s, actor, target)

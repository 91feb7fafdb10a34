"""Client organizations, managed by staff with content permissions."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, or_
from sqlmodel import Session, select

from app.core.errors import Forbidden, Invalid, NotFound
from app.core.permissions import Perm
from app.models.enums import OrganizationSize
from app.models.project import Organization
from app.models.user import User
from app.services import audit
from app.services import validation as v
from app.services.access import staff_can


def organization_dto(o: Organization) -> dict[str, Any]:
    return {
        "id": o.id,
        "name": o.name,
        "description": o.description,
        "website": o.website,
        "industry": o.industry,
        "size": str(o.size) if o.size else None,
        "primary_contact_id": str(o.primary_contact_id) if o.primary_contact_id else None,
        "created_at": o.created_at.isoformat(),
    }


def _check(actor: User, perm: str, verb: str) -> None:
    if not staff_can(actor, perm):
        raise Forbidden(f"You don't have permission to {verb} organizations")


def list_organizations(s: Session, *, actor: User, search: str = "") -> list[dict[str, Any]]:
    """Organizations matching the search in name or industry, by name."""
    _check(actor, Perm.content_read, "view")
    query = select(Organization)
    if search.strip():
        like = f"%{search.strip().lower()}%"
        query = query.where(
            or_(
                func.lower(Organization.name).like(like),
                func.lower(func.coalesce(Organization.industry, "")).like(like),
            )
        )
    return [organization_dto(o) for o in s.exec(query.order_by(func.lower(Organization.name))).all()]


def _values(s: Session, data: dict[str, Any], *, creating: bool) -> dict[str, Any]:
    data = v.drop_empty(data, drop_none=False)
    errors: dict[str, str] = {}
    out: dict[str, Any] = {}
    if creating or "name" in data:
        out["name"] = v.text(data.get("name"), "name", errors, "Name", limit=200, required=True)
    for field, label, limit in (("description", "Description", 5000), ("industry", "Industry", 100)):
        if field in data:
            out[field] = v.text(data[field], field, errors, label, limit=limit)
    if "website" in data:
        site = v.text(data["website"], "website", errors, "Website", limit=500)
        if site and not site.startswith(("http://", "https://")):
            errors["website"] = "Website must start with http:// or https://"
        out["website"] = site
    if "size" in data:
        out["size"] = v.choice(data["size"], OrganizationSize, "size", errors, "Size")
    if "primary_contact_id" in data:
        out["primary_contact_id"] = _contact(s, data["primary_contact_id"], errors)
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    return out


def _contact(s: Session, value: Any, errors: dict[str, str]) -> uuid.UUID | None:
    if value is None:
        return None
    try:
        user = s.get(User, uuid.UUID(str(value)))
    except ValueError:
        user = None
    if user is None:
        errors["primary_contact_id"] = "Primary contact not found"
        return None
    return user.id


def create_organization(s: Session, *, actor: User, data: dict[str, Any]) -> dict[str, Any]:
    """Create an organization (content:write)."""
    _check(actor, Perm.content_write, "create")
    org = Organization(**_values(s, data, creating=True))
    s.add(org)
    s.flush()
    audit.record(s, actor=actor, action="organization.create", entity=org)
    s.commit()
    return organization_dto(org)


def update_organization(s: Session, *, actor: User, organization_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """Change the fields sent (content:write)."""
    _check(actor, Perm.content_write, "update")
    org = s.get(Organization, organization_id)
    if org is None:
        raise NotFound("Organization not found")
    for key, value in _values(s, data, creating=False).items():
        setattr(org, key, value)
    s.add(org)
    audit.record(s, actor=actor, action="organization.update", entity=org)
    s.commit()
    return organization_dto(org)


def delete_organization(s: Session, *, actor: User, organization_id: int) -> None:
    """Delete an organization; its projects stay, without the link."""
    _check(actor, Perm.content_write, "delete")
    org = s.get(Organization, organization_id)
    if org is None:
        raise NotFound("Organization not found")
    audit.record(s, actor=actor, action="organization.delete", details={"name": org.name, "id": org.id})
    s.delete(org)
    s.commit()

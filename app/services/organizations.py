"""Client organizations, managed by staff with content permissions."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.db import get_by_id
from app.core.errors import Forbidden, Invalid, NotFound
from app.core.permissions import Perm
from app.models.enums import OrganizationSize
from app.models.project import Organization
from app.models.user import User
from app.services import audit
from app.services import validation as v
from app.services.access import staff_can
from app.services.paging import PAGE_SIZE, Page, paginate

ORGANIZATION_SORTS = {
    "name": (func.lower(Organization.name), col(Organization.id)),
    "newest": (col(Organization.created_at).desc(), col(Organization.id).desc()),
    "oldest": (col(Organization.created_at), col(Organization.id)),
}
CHOICES_MAX = 100  # organizations offered at once by a picker; a search narrows the rest


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


def list_organizations(
    s: Session,
    *,
    actor: User,
    search: str = "",
    sort: str = "",
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> Page[dict[str, Any]]:
    """A page of organizations matching the search in name or industry, by name unless sorted (content:read)."""
    _check(actor, Perm.content_read, "view")
    return paginate(
        s,
        select(Organization),
        to=organization_dto,
        search=search,
        search_in=(Organization.name, Organization.industry),
        sort=sort,
        sorts=ORGANIZATION_SORTS,
        page=page,
        page_size=page_size,
    )


def organization_choices(
    s: Session, *, actor: User, search: str = "", include_id: int | None = None, limit: int = CHOICES_MAX
) -> Page[dict[str, str]]:
    """The organizations a picker offers ({id, name}, by name, at most `limit`, searched by name), plus `include_id`
    (the one already chosen) wherever it sorts; `total` says how many match, so a picker knows to offer its search."""
    _check(actor, Perm.content_read, "view")
    result = paginate(
        s,
        select(Organization),
        to=lambda o: {"id": str(o.id), "name": o.name},
        search=search,
        search_in=(Organization.name,),
        sorts={"name": ORGANIZATION_SORTS["name"]},
        page_size=limit,
    )
    if include_id and all(c["id"] != str(include_id) for c in result.data):
        chosen = get_by_id(s, Organization, include_id)
        if chosen is not None:
            data = sorted([*result.data, {"id": str(chosen.id), "name": chosen.name}], key=lambda c: c["name"].lower())
            return Page(data=data, total=result.total, page=1, page_size=result.page_size)
    return result


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
    org = get_by_id(s, Organization, organization_id)
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
    org = get_by_id(s, Organization, organization_id)
    if org is None:
        raise NotFound("Organization not found")
    audit.record(s, actor=actor, action="organization.delete", details={"name": org.name, "id": org.id})
    s.delete(org)
    s.commit()

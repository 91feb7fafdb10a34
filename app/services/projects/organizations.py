"""Client organizations, managed by staff with content permissions."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Annotated, Any, Unpack

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.db import get_by_id
from app.core.errors import Invalid
from app.core.permissions import Perm
from app.models.enums import OrganizationSize
from app.models.project import Organization
from app.models.user import User
from app.services.platform import audit
from app.services.platform.access import found, require
from app.services.platform.paging import Listing, Page, View
from app.services.platform.schema import Input, OneOf, RawText, Text, parse, problem, required

ORGANIZATION_SORTS = {
    "name": (func.lower(Organization.name), col(Organization.id)),
    "newest": (col(Organization.created_at).desc(), col(Organization.id).desc()),
    "oldest": (col(Organization.created_at), col(Organization.id)),
}
CHOICES_MAX = 100  # organizations offered at once by a picker; a search narrows the rest


def _website(value: str | None) -> str | None:
    if value and not value.startswith(("http://", "https://")):
        raise problem("Website must start with http:// or https://")
    return value


Name = Annotated[str | None, Text("Name", 200, required=True)]


class OrganizationUpdate(Input):
    """The fields sent change; blank text means "not sent", null clears an optional field."""

    name: Name = None
    description: Annotated[str | None, Text("Description", 5000)] = None
    industry: Annotated[str | None, Text("Industry", 100)] = None
    website: Annotated[str | None, Text("Website", 500), AfterValidator(_website)] = None
    size: Annotated[OrganizationSize | None, OneOf("Size")] = None
    primary_contact_id: RawText = Field(None, description="The primary contact's user id (a UUID), or null.")


class OrganizationCreate(OrganizationUpdate):
    model_config = ConfigDict(json_schema_extra=required("name"))

    name: Name = Field(None, validate_default=True)


class OrganizationPublic(BaseModel):
    id: int
    name: str
    description: str | None
    website: str | None
    industry: str | None
    size: str | None
    primary_contact_id: str | None
    created_at: str


def organization_dto(o: Organization) -> OrganizationPublic:
    return OrganizationPublic(
        **o.model_dump(include={"name", "description", "website", "industry"}),
        id=o.id or 0,
        size=str(o.size) if o.size else None,
        primary_contact_id=str(o.primary_contact_id) if o.primary_contact_id else None,
        created_at=o.created_at.isoformat(),
    )


ORGANIZATIONS = Listing(organization_dto, ORGANIZATION_SORTS, (Organization.name, Organization.industry))


class OrganizationChoice(BaseModel):
    """An organization a picker offers: its id (as text, a select's value) and its name."""

    id: str
    name: str


def _choice(o: Organization) -> OrganizationChoice:
    return OrganizationChoice(id=str(o.id), name=o.name)


# The form's picker: by name, searched in the name.
CHOICES = Listing(_choice, {"name": ORGANIZATION_SORTS["name"]}, (Organization.name,))


def list_organizations(s: Session, *, actor: User, **view: Unpack[View]) -> Page[OrganizationPublic]:
    """A page of organizations matching the search in name or industry, by name unless sorted (content:read)."""
    require(actor, Perm.content_read, "view organizations")
    return ORGANIZATIONS.page(s, select(Organization), **view)


def organization_choices(
    s: Session, *, actor: User, search: str = "", include_id: int | None = None, limit: int = CHOICES_MAX
) -> Page[OrganizationChoice]:
    """The organizations a picker offers (by name, at most `limit`, searched by name), plus `include_id`
    (the one already chosen) wherever it sorts; `total` says how many match, so a picker knows to offer its search."""
    require(actor, Perm.content_read, "view organizations")
    result = CHOICES.page(s, select(Organization), search=search, page_size=limit)
    if include_id and all(c.id != str(include_id) for c in result.data):
        chosen = get_by_id(s, Organization, include_id)
        if chosen is not None:
            data = sorted([*result.data, _choice(chosen)], key=lambda c: c.name.lower())
            return Page(data=data, total=result.total, page=1, page_size=result.page_size)
    return result


def _values(s: Session, body: OrganizationUpdate) -> dict[str, Any]:
    """The sent fields, with the primary contact (what the schema cannot say: that the account exists) looked up."""
    out = body.sent()
    if "primary_contact_id" in out:
        errors: dict[str, str] = {}
        out["primary_contact_id"] = _contact(s, out["primary_contact_id"], errors)
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


def create_organization(s: Session, *, actor: User, data: OrganizationCreate | Mapping[str, Any]) -> OrganizationPublic:
    """Create an organization (content:write)."""
    require(actor, Perm.content_write, "create organizations")
    org = Organization(**_values(s, parse(OrganizationCreate, data)))
    s.add(org)
    s.flush()
    audit.record(s, actor=actor, action="organization.create", entity=org)
    s.commit()
    return organization_dto(org)


def update_organization(
    s: Session, *, actor: User, organization_id: int, data: OrganizationUpdate | Mapping[str, Any]
) -> OrganizationPublic:
    """Change the fields sent (content:write)."""
    require(actor, Perm.content_write, "update organizations")
    org = found(s, Organization, organization_id, "Organization")
    for key, value in _values(s, parse(OrganizationUpdate, data)).items():
        setattr(org, key, value)
    s.add(org)
    audit.record(s, actor=actor, action="organization.update", entity=org)
    s.commit()
    return organization_dto(org)


def delete_organization(s: Session, *, actor: User, organization_id: int) -> None:
    """Delete an organization; its projects stay, without the link."""
    require(actor, Perm.content_write, "delete organizations")
    org = found(s, Organization, organization_id, "Organization")
    audit.record(s, actor=actor, action="organization.delete", details={"name": org.name, "id": org.id})
    s.delete(org)
    s.commit()

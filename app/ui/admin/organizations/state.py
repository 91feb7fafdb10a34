"""The Organizations tab's state: one page of organizations, the create/edit dialog and the delete confirmation."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from sqlmodel import Session

from app.models.user import User, UserPublic
from app.services.projects import organizations
from app.services.projects.organizations import OrganizationPublic
from app.ui.admin.cards import CardList, card_listing
from app.ui.admin.common import form_text
from app.ui.admin.paged import SectionListing
from app.ui.admin.pickers import ClientPicker
from app.ui.admin.state import AdminState
from app.ui.rows import Choice, Row

SIZE_LABELS = {"small": "Small", "medium": "Medium", "large": "Large", "enterprise": "Enterprise"}


@dataclasses.dataclass
class OrganizationRow(Row):
    name: str = ""
    description: str = ""
    website: str = ""
    industry: str = ""
    size: Choice = dataclasses.field(default_factory=Choice)
    primary_contact_id: str = ""


def organization_row(o: OrganizationPublic) -> OrganizationRow:
    return OrganizationRow(
        id=o.id,
        name=o.name,
        description=o.description or "",
        website=o.website or "",
        industry=o.industry or "",
        size=Choice.of(o.size, SIZE_LABELS),
        primary_contact_id=o.primary_contact_id or "",
    )


class OrganizationListState(ClientPicker, CardList[OrganizationRow], AdminState):
    listing: ClassVar[SectionListing[OrganizationRow]] = card_listing(
        "organization", organizations.list_organizations, organization_row
    )
    rows: list[OrganizationRow] = []
    sort: str = "name"
    edit: OrganizationRow = OrganizationRow()

    def _delete(self, s: Session, actor: User, target: int) -> None:
        organizations.delete_organization(s, actor=actor, organization_id=target)

    def _new_row(self) -> OrganizationRow:
        return OrganizationRow()

    async def _open(self, actor: UserPublic, row: OrganizationRow) -> None:
        await self._reset_clients(actor, row.primary_contact_id)  # the primary contact: searched, capped
        self.edit = row

    async def _picker_actor(self) -> UserPublic | None:
        return await self._writer()

    def _form_data(self, form: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {k: form_text(form, k, 5000) for k in ("name", "description", "website", "industry")}
        data["size"] = form_text(form, "size") or None
        data["primary_contact_id"] = form_text(form, "primary_contact_id") or None
        return data

    def _write(self, s: Session, actor: User, edit_id: int, data: dict[str, Any]) -> Any:
        if edit_id:
            return organizations.update_organization(s, actor=actor, organization_id=edit_id, data=data)
        return organizations.create_organization(s, actor=actor, data=data)

"""The Projects tab's state: one page of projects, the create/edit dialog with its milestones editor and pickers, the
delete confirmation, and each project's time entries (`time_state`)."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any, ClassVar

import reflex as rx
from sqlmodel import Session

from app.core.permissions import Perm
from app.models.user import User, UserPublic
from app.services.platform.paging import SEARCH_MAX
from app.services.projects import organizations, projects
from app.services.projects.projects import MilestonePublic, ProjectPublic
from app.services.projects.projects import ProjectRow as ProjectListed
from app.services.scheduling import booking_settings
from app.ui.admin.business_time import day_text
from app.ui.admin.cards import FEATURE, CardList, card_listing
from app.ui.admin.common import dollars, form_text, row_id, row_index, without_row
from app.ui.admin.paged import SectionListing
from app.ui.admin.pickers import ClientPicker
from app.ui.admin.projects.time_state import ProjectTimeMixin
from app.ui.admin.state import AdminState, as_actor
from app.ui.rows import Choice, Row
from app.ui.state.calls import call
from app.ui.state.conversation import ConversationMixin

MILESTONES_MAX = 50


@dataclasses.dataclass
class MilestoneRow:
    key: str = ""  # stable while the editor reorders rows (React keys)
    title: str = ""
    due_date: str = ""
    status: str = "pending"


@dataclasses.dataclass
class ProjectRow(Row):
    name: str = ""
    description: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    project_type: Choice = dataclasses.field(default_factory=Choice)
    client_id: str = ""
    client: str = ""
    organization_id: str = ""
    manager_id: str = ""
    manager: str = ""
    budget: str = ""
    budget_text: str = ""
    progress: int = 0
    progress_width: str = "0%"
    start_date: str = ""
    start_text: str = ""
    end_date: str = ""
    deadline: str = ""
    estimated_hours: str = ""
    actual_hours: str = "0"
    milestone_count: int = 0
    milestones: list[MilestoneRow] = dataclasses.field(default_factory=list)


def _milestone(m: MilestonePublic) -> MilestoneRow:
    return MilestoneRow(key=uuid.uuid4().hex, title=m.title, due_date=m.due_date or "", status=m.status)


def project_row(p: ProjectListed) -> ProjectRow:
    """A row of the service's list as its card and the edit form show it."""
    progress = p.progress_percentage
    milestones = [_milestone(m) for m in p.milestones]
    return ProjectRow(
        id=p.id,
        name=p.name,
        description=p.description or "",
        status=Choice.of(p.status),
        project_type=Choice.of(p.project_type),
        client_id=p.client_id,
        client=p.client_name or "",
        organization_id=str(p.organization_id or ""),
        manager_id=p.manager_id or "",
        manager=p.manager_name or "",
        budget=p.budget or "",
        budget_text=dollars(p.budget),
        progress=progress,
        progress_width=f"{progress}%",
        start_date=p.start_date or "",
        start_text=day_text(p.start_date),
        end_date=p.end_date or "",
        deadline=p.deadline or "",
        estimated_hours=str(p.estimated_hours) if p.estimated_hours is not None else "",
        actual_hours=str(p.actual_hours or 0),
        milestone_count=len(milestones),
        milestones=milestones,
    )


class ProjectListState(ProjectTimeMixin, ConversationMixin, ClientPicker, CardList[ProjectRow], AdminState):
    listing: ClassVar[SectionListing[ProjectRow]] = card_listing("project", projects.list_projects_page, project_row)
    rows: list[ProjectRow] = []
    sort: str = "newest"
    edit: ProjectRow = ProjectRow()
    # The dialog's editor; saved with the project through set_milestones.
    milestones: rx.Field[list[MilestoneRow]] = rx.field(default_factory=list)
    # The organization picker: at most organizations.CHOICES_MAX by name; with more, a search box narrows them.
    org_choices: list[Choice] = []
    org_total: int = 0
    org_search: rx.Field[str] = rx.field("")
    form_org: str = ""
    managers: list[Choice] = []  # staff who may manage a project, for the dialog's select

    def _delete(self, s: Session, actor: User, target: int) -> None:
        projects.delete_project(s, actor=actor, project_id=target)

    @rx.var
    def org_more(self) -> bool:
        """More organizations match than the picker offers: show its search box."""
        return self.org_total > len(self.org_choices) or self.org_search != ""

    async def _conversation_user(self, *, touch: bool = True) -> UserPublic | None:
        """Staff who see the projects read their conversations; the service decides who on them may post."""
        return await self._actor(Perm.content_read, FEATURE, touch=touch)

    async def _conversation_read(self, *, touch: bool = True) -> None:
        """The sidebar's unread count drops as soon as the conversation is read."""
        if self.user is not None:
            await self._count_unread(self.user)

    # --- the dialog ----------------------------------------------------------------------------------------------

    async def _load_orgs(self, actor: UserPublic) -> None:
        search, chosen = self.org_search, row_id(self.form_org) or None
        try:
            result = await as_actor(
                actor, lambda s, a: organizations.organization_choices(s, actor=a, search=search, include_id=chosen)
            )
        except Exception:
            self.org_choices, self.org_total = [], 0  # without content:read the project simply has no organization
            return
        self.org_choices = [Choice(c.id, c.name) for c in result.data]
        self.org_total = result.total

    def _new_row(self) -> ProjectRow:
        return ProjectRow(status=Choice.of("planning"), project_type=Choice.of("web_development"))

    async def _open(self, actor: UserPublic, row: ProjectRow) -> None:
        await self._reset_clients(actor, row.client_id)  # the client picker: searched, capped
        self.org_search, self.form_org = "", row.organization_id
        await self._load_orgs(actor)
        self.managers = [Choice(i, name) for i, name in await call(booking_settings.staff_choices)]
        self.edit = row
        self.milestones = [dataclasses.replace(m) for m in row.milestones]

    async def _picker_actor(self) -> UserPublic | None:
        return await self._writer()

    @rx.event
    async def search_orgs(self, value: str) -> None:
        actor = await self._writer()
        if actor is None:
            return
        self.org_search = str(value)[:SEARCH_MAX]
        await self._load_orgs(actor)

    @rx.event
    def set_form_org(self, value: str) -> None:
        self.form_org = str(value)[:20]

    # milestones editor (browser-side list; saved with the project)
    @rx.event
    def add_milestone(self) -> None:
        if len(self.milestones) < MILESTONES_MAX:
            self.milestones = [*self.milestones, MilestoneRow(key=uuid.uuid4().hex)]

    @rx.event
    def remove_milestone(self, index: int) -> None:
        self.milestones = without_row(self.milestones, index)

    @rx.event
    def move_milestone(self, index: int, delta: int) -> None:
        i = row_index(index, self.milestones)
        j = i + (-1 if str(delta).startswith("-") else 1)  # the view sends -1 (up) or 1 (down)
        if i >= 0 and 0 <= j < len(self.milestones):
            items = list(self.milestones)
            items[i], items[j] = items[j], items[i]
            self.milestones = items

    @rx.event
    def set_milestone(self, index: int, key: str, value: str) -> None:
        i = row_index(index, self.milestones)
        if key in ("title", "due_date", "status") and i >= 0:
            items = list(self.milestones)
            items[i] = dataclasses.replace(items[i], **{key: str(value)[:200]})
            self.milestones = items

    def _form_data(self, form: dict[str, Any]) -> dict[str, Any]:
        keys = ("name", "description", "client_id", "status", "project_type", "organization_id", "manager_id", "budget")
        data: dict[str, Any] = {k: form_text(form, k) for k in keys}
        for k in ("start_date", "end_date", "deadline", "estimated_hours", "progress_percentage"):
            data[k] = form_text(form, k)
        # The milestones are saved with the project, after it (a new project needs its id first).
        data["milestones"] = [
            {"title": m.title, "due_date": m.due_date or None, "status": m.status} for m in self.milestones
        ]
        return data

    def _write(self, s: Session, actor: User, edit_id: int, data: dict[str, Any]) -> ProjectPublic:
        data = dict(data)
        milestones = data.pop("milestones")
        if edit_id:
            dto = projects.update_project(s, actor=actor, project_id=edit_id, data=data)
        else:
            dto = projects.create_project(s, actor=actor, data=data)
        if edit_id or milestones:
            dto = projects.set_milestones(s, actor=actor, project_id=dto.id, milestones=milestones)
        return dto

"""Client projects: the portal's view, the client's own cancellation, and management by staff with content:write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Unpack

import sqlalchemy as sa
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import func
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.core.db import MAX_ID, get_by_id
from app.core.errors import Forbidden, Invalid
from app.core.permissions import Perm
from app.models.enums import PROJECT_FINAL_STATUSES, MilestoneStatus, ProjectStatus, ProjectType
from app.models.project import Organization, Project, ProjectMessage, ProjectMessageFile, ProjectMilestone
from app.models.user import User
from app.services.platform import access, audit, client_cancellations, files
from app.services.platform import validation as v
from app.services.platform.actions import Action
from app.services.platform.paging import Listing, Page, View, contains, of_client, one_of
from app.services.platform.schema import AList, Body, Day, Money, OneOf, RawText, Text, Whole, parse, problem, required
from app.services.projects.time_entries import hours_number

PROJECT_SORTS = {
    "newest": (col(Project.created_at).desc(), col(Project.id).desc()),
    "oldest": (col(Project.created_at), col(Project.id)),
    "name": (func.lower(Project.name), col(Project.id)),
}
CHOICES_MAX = 100  # projects offered at once by a picker; a search narrows the rest


class MilestonePublic(BaseModel):
    id: int
    title: str
    description: str | None
    due_date: str | None
    status: str
    order_index: int


class ProjectPublic(BaseModel):
    """A project with its milestones in order. Money is text with two decimals; dates are ISO (YYYY-MM-DD); the
    `deadline` falls back to the planned end date; `actual_hours` is the sum of the time entries."""

    id: int
    name: str
    description: str | None
    status: str
    project_type: str
    client_id: str
    organization_id: int | None
    manager_id: str | None
    budget: str | None
    progress_percentage: int
    deadline: str | None
    start_date: str | None
    end_date: str | None
    estimated_hours: int | None
    actual_hours: int | float
    created_at: str
    milestones: list[MilestonePublic]


class ProjectRow(ProjectPublic):
    """A row of the project list: the project and the names of its client, organization and manager."""

    client_name: str | None
    organization_name: str | None
    manager_name: str | None


class ClientProject(ProjectPublic):
    """A project of the portal's list, with what the caller may do with it (ADR 0065)."""

    can_cancel: Action  # cancel_project would accept it from the caller: not completed or cancelled yet


class ProjectChoice(BaseModel):
    """A project a picker offers: its id (as text, a select's value), its name and its client's id."""

    id: str
    name: str
    client_id: str


def _money(value: object) -> str | None:
    return f"{value:.2f}" if value is not None else None


def _fields(p: Project, milestones: list[ProjectMilestone]) -> dict[str, Any]:
    return {
        **p.model_dump(include={"id", "name", "description", "organization_id", "progress_percentage"}),
        "status": str(p.status),
        "project_type": str(p.project_type),
        "client_id": str(p.client_id),
        "manager_id": str(p.manager_id) if p.manager_id else None,
        "budget": _money(p.budget),
        # The portal's "deadline" falls back to the planned end date.
        "deadline": due.isoformat() if (due := p.deadline or p.end_date) else None,
        "start_date": p.start_date.isoformat() if p.start_date else None,
        "end_date": p.end_date.isoformat() if p.end_date else None,
        "estimated_hours": p.estimated_hours,
        "actual_hours": hours_number(p.actual_hours),
        "created_at": p.created_at.isoformat(),
        "milestones": [
            MilestonePublic(
                **m.model_dump(include={"id", "title", "description", "order_index"}),
                due_date=m.due_date.isoformat() if m.due_date else None,
                status=str(m.status),
            )
            for m in milestones
        ],
    }


def project_dto(p: Project, milestones: list[ProjectMilestone]) -> ProjectPublic:
    return ProjectPublic(**_fields(p, milestones))


def may_cancel(actor: User, p: Project) -> bool:
    """What cancel_project accepts: the client's own project (or any, for staff who write content) that is not
    completed or cancelled yet."""
    mine = p.client_id == actor.id or access.staff_can(actor, Perm.content_write)
    return mine and p.status not in PROJECT_FINAL_STATUSES


def client_project(actor: User, p: Project, milestones: list[ProjectMilestone]) -> ClientProject:
    return ClientProject(**_fields(p, milestones), can_cancel=may_cancel(actor, p))


def list_projects(s: Session, *, actor: User) -> list[ClientProject]:
    """The actor's own projects (clients) or all of them (staff who read content), newest first, with milestones.

    For the portal and the data export, where a client's projects are few; staff lists page (`list_projects_page`).
    """
    query = select(Project).order_by(col(Project.created_at).desc(), col(Project.id).desc())
    if not access.sees_all(actor, "project"):
        query = query.where(Project.client_id == actor.id)
    projects = list(s.exec(query).all())
    milestones = _milestones_of(s, projects)
    return [client_project(actor, p, milestones.get(p.id or 0, [])) for p in projects]


def _milestones_of(s: Session, projects: list[Project]) -> dict[int, list[ProjectMilestone]]:
    ids = [p.id for p in projects if p.id is not None]
    milestones: dict[int, list[ProjectMilestone]] = {i: [] for i in ids}
    if ids:
        rows = s.exec(
            select(ProjectMilestone)
            .where(col(ProjectMilestone.project_id).in_(ids))
            .order_by(col(ProjectMilestone.order_index), col(ProjectMilestone.id))
        ).all()
        for m in rows:
            milestones[m.project_id].append(m)
    return milestones


def _full_name(user: Any = User) -> Any:
    """A user's full name in SQL, or their username when they gave none."""
    full = func.trim(func.coalesce(user.first_name, "") + " " + func.coalesce(user.last_name, ""))
    return func.coalesce(func.nullif(full, ""), user.username)


def list_projects_page(
    s: Session,
    *,
    actor: User,
    status: str = "",
    project_type: str = "",
    client_id: str = "",
    organization_id: int | None = None,
    **view: Unpack[View],
) -> Page[ProjectRow]:
    """A page of projects (newest first unless sorted) with their milestones, client and organization names.

    Staff who read content see every project, anyone else their own; the search looks in the name, the status, the
    type ("in progress" finds in_progress) and the client's name.
    """
    client = _full_name().label("client_name")
    manager = aliased(User)
    manager_name = _full_name(manager)
    query = (
        select(Project, client, Organization.name, manager_name)
        .join(User, col(User.id) == Project.client_id)
        .join(Organization, col(Organization.id) == Project.organization_id, isouter=True)
        .join(manager, col(manager.id) == Project.manager_id, isouter=True)
    )
    if not access.sees_all(actor, "project"):
        query = query.where(Project.client_id == actor.id)
    query = one_of(query, Project.status, status, ProjectStatus)
    query = one_of(query, Project.project_type, project_type, ProjectType, "project_type")
    query = of_client(query, Project.client_id, client_id)
    if organization_id is not None:
        query = query.where(Project.organization_id == organization_id)
    search = view.pop("search", "")
    parts = [
        contains(search, Project.name, User.username, _full_name()),
        contains(
            search.replace(" ", "_"), sa.cast(Project.status, sa.String), sa.cast(Project.project_type, sa.String)
        ),
    ]
    if where := [p for p in parts if p is not None]:
        query = query.where(sa.or_(*where))
    result = Listing(lambda row: row, PROJECT_SORTS).page(s, query, **view)
    milestones = _milestones_of(s, [p for p, *_names in result.data])
    data = [
        ProjectRow(
            **_fields(p, milestones.get(p.id or 0, [])),
            client_name=client_name,
            organization_name=org,
            manager_name=manager_name,
        )
        for p, client_name, org, manager_name in result.data
    ]
    return result.with_data(data)


# The pickers' choices by name, searched in the name.
CHOICES = Listing(
    lambda p: ProjectChoice(id=str(p.id), name=p.name, client_id=str(p.client_id)),
    {"name": PROJECT_SORTS["name"]},
    (Project.name,),
)


def project_choices(
    s: Session, *, actor: User, search: str = "", client_id: str = "", limit: int = CHOICES_MAX
) -> Page[ProjectChoice]:
    """The projects a picker offers (by name, at most `limit`), searched by name and limited
    to one client when given (staff who read content)."""
    access.require(actor, Perm.content_read, "view projects")
    query = of_client(select(Project), Project.client_id, client_id)
    return CHOICES.page(s, query, search=search, page_size=limit)


def cancel_project(s: Session, *, actor: User, project_id: int) -> ClientProject:
    """A client cancels their own project; completed and already cancelled projects cannot be cancelled."""
    project = access.get_visible(s, Project, project_id, actor, "project", label="Project")
    if project.client_id != actor.id and not access.staff_can(actor, Perm.content_write):
        raise Forbidden("You don't have permission to cancel this project")
    if project.status in PROJECT_FINAL_STATUSES:
        raise Invalid(f"This project is already {project.status.replace('_', ' ')} and cannot be cancelled.")
    project.status = ProjectStatus.cancelled
    s.add(project)
    audit.record(s, actor=actor, action="project.cancel", entity=project, details={"name": project.name})
    if client_cancellations.by_client(actor):  # the project manager (or STAFF_NOTIFY_EMAIL) hears of it
        client_cancellations.notify_staff(
            s, actor=actor, kind="project", name=project.name, owner_id=project.manager_id
        )
    s.commit()
    return client_project(actor, project, _milestones(s, project.id))


# --- staff management (content:write) --------------------------------------------------------------------------------


class ProjectUpdate(Body):
    """The fields sent change. The spec's payload cleaning: an empty string or a null means "not sent", so a field is
    changed, not cleared, by sending it; except `manager_id` (not in the spec's payload), where an empty value sent on
    purpose means "nobody". The actual hours are not an input: time entries add up to them."""

    name: Annotated[str | None, Text("Project name", 200, required=True)] = None
    description: Annotated[str | None, Text("Description", 10000)] = None
    client_id: RawText = Field(None, description="The client's user id (a UUID).")
    status: Annotated[ProjectStatus | None, OneOf("Status")] = None
    project_type: Annotated[ProjectType | None, OneOf("Project type")] = None
    organization_id: Annotated[int | None, Whole("Organization", 1, MAX_ID)] = None
    manager_id: RawText = Field(None, description="A staff member's user id, or empty for nobody.")
    budget: Annotated[Decimal | None, Money("Budget")] = None
    start_date: Annotated[date | None, Day("Start date")] = None
    end_date: Annotated[date | None, Day("End date")] = None
    deadline: Annotated[date | None, Day("Deadline")] = None
    estimated_hours: Annotated[int | None, Whole("Estimated hours")] = None
    progress_percentage: Annotated[int | None, Whole("Progress", 0, 100)] = None

    @model_validator(mode="before")
    @classmethod
    def _not_sent(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if k == "manager_id" or v not in ("", None)}
        return value


def _a_client(value: str | None) -> str | None:
    if not (value or "").strip():
        raise problem("Please choose a client")
    return value


class ProjectCreate(ProjectUpdate):
    """A new project: a name, a client, a status and a type."""

    model_config = ConfigDict(json_schema_extra=required("name", "client_id", "status", "project_type"))

    name: Annotated[str | None, Text("Project name", 200, required=True)] = Field(None, validate_default=True)
    client_id: Annotated[RawText, AfterValidator(_a_client)] = Field(
        None, validate_default=True, description="The client's user id (a UUID)."
    )
    status: Annotated[ProjectStatus | None, OneOf("Status", not_null=True)] = Field(None, validate_default=True)
    project_type: Annotated[ProjectType | None, OneOf("Project type", not_null=True)] = Field(
        None, validate_default=True
    )


def _project_values(s: Session, body: ProjectUpdate, *, creating: bool) -> dict[str, Any]:
    """The sent fields as columns, with what the schema cannot say: that the client, the organization and the manager
    exist (and are a client and a staff member), and that the project does not end before it starts."""
    out = body.sent()
    errors: dict[str, str] = {}
    if creating or "client_id" in out:
        chosen = v.client(s, out.get("client_id"), errors)
        out["client_id"] = chosen.id if chosen else None
    if out.get("organization_id") is not None and get_by_id(s, Organization, out["organization_id"]) is None:
        errors["organization_id"] = "Organization not found"
    if "manager_id" in out:
        manager = v.staff_member(s, out["manager_id"], errors, "manager_id")
        out["manager_id"] = manager.id if manager else None
    if out.get("start_date") and out.get("end_date") and out["end_date"] < out["start_date"]:
        errors["end_date"] = "End date cannot be before the start date"
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    return out


def create_project(s: Session, *, actor: User, data: ProjectCreate | Mapping[str, Any]) -> ProjectPublic:
    """Create a project for a client (content:write)."""
    access.require(actor, Perm.content_write, "create projects")
    project = Project(**_project_values(s, parse(ProjectCreate, data), creating=True))
    s.add(project)
    s.flush()
    audit.record(s, actor=actor, action="project.create", entity=project)
    s.commit()
    return project_dto(project, [])


def update_project(
    s: Session, *, actor: User, project_id: int, data: ProjectUpdate | Mapping[str, Any]
) -> ProjectPublic:
    """Change the fields sent (content:write), including progress."""
    access.require(actor, Perm.content_write, "update projects")
    project = access.found(s, Project, project_id, "Project")
    values = _project_values(s, parse(ProjectUpdate, data), creating=False)
    for key, value in values.items():
        setattr(project, key, value)
    s.add(project)
    audit.record(s, actor=actor, action="project.update", entity=project, details={"fields": sorted(values)})
    s.commit()
    return project_dto(project, _milestones(s, project.id))


def delete_project(s: Session, *, actor: User, project_id: int) -> None:
    """Delete a project with its milestones and its conversation (messages, and the files they carry, from the store
    too: a client's documents do not outlive the project they were given for); its invoices stay, unlinked."""
    access.require(actor, Perm.content_write, "delete projects")
    project = access.found(s, Project, project_id, "Project")
    keys = s.exec(
        select(ProjectMessageFile.key)
        .join(ProjectMessage, col(ProjectMessage.id) == ProjectMessageFile.message_id)
        .where(ProjectMessage.project_id == project.id)
    ).all()
    audit.record(s, actor=actor, action="project.delete", details={"name": project.name, "id": project.id})
    s.delete(project)
    s.commit()
    for key in keys:  # after the commit: a store that is down leaves a file nothing points at (logged), never a row
        files.delete(key)


class MilestoneSave(Body):
    """One milestone of the list that replaces a project's milestones; its place in the list is its order."""

    title: Annotated[str | None, Text("Milestone title", 200, required=True)] = Field(None, validate_default=True)
    description: Annotated[str | None, Text("Description", 2000)] = None
    due_date: Annotated[date | None, Day("Due date")] = None
    status: Annotated[MilestoneStatus | None, OneOf("Status")] = Field(
        None, description="pending (also when empty), in_progress or completed."
    )

    @model_validator(mode="before")
    @classmethod
    def _blank_status(cls, value: Any) -> Any:
        if isinstance(value, dict) and value.get("status") == "":
            return {**value, "status": None}  # an empty status is a new milestone's: pending
        return value


class MilestonesSave(Body):
    milestones: Annotated[list[MilestoneSave], AList] = Field(
        default_factory=list, description="In order; replaces all of them."
    )


def set_milestones(
    s: Session, *, actor: User, project_id: int, milestones: Sequence[MilestoneSave | Mapping[str, Any]]
) -> ProjectPublic:
    """Replace a project's milestones with the given list, in the given order (content:write); a refused item
    refuses the whole list."""
    access.require(actor, Perm.content_write, "update projects")
    project = access.found(s, Project, project_id, "Project")
    items = parse(MilestonesSave, {"milestones": list(milestones)}).milestones
    rows = [
        ProjectMilestone(
            project_id=project_id,
            title=item.title or "",
            description=item.description,
            due_date=item.due_date,
            status=item.status or MilestoneStatus.pending,
            order_index=index,
        )
        for index, item in enumerate(items)
    ]
    for old in _milestones(s, project_id):
        s.delete(old)
    s.add_all(rows)
    audit.record(s, actor=actor, action="project.milestones", entity=project, details={"count": len(rows)})
    s.commit()
    return project_dto(project, _milestones(s, project_id))


def _milestones(s: Session, project_id: int | None) -> list[ProjectMilestone]:
    query = select(ProjectMilestone).where(ProjectMilestone.project_id == project_id)
    return list(s.exec(query.order_by(col(ProjectMilestone.order_index), col(ProjectMilestone.id))).all())

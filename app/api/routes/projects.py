"""Staff calls of the projects domain: organizations, projects, milestones and time entries.

Each service checks the actor's permission; routes only translate HTTP.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.api.crud import Write, writes
from app.api.deps import (
    Paged,
    PageNo,
    PageSize,
    RowId,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.schemas import Done, Listed, Saved
from app.core.permissions import Perm
from app.services.projects import organizations, projects, time_entries
from app.services.projects.organizations import OrganizationCreate, OrganizationPublic, OrganizationUpdate
from app.services.projects.projects import MilestonesSave, ProjectCreate, ProjectPublic
from app.services.projects.time_entries import (
    ProjectTeamMember,
    TeamSave,
    TimeEntriesPage,
    TimeEntryCreate,
    TimeEntryPublic,
)

router = APIRouter(tags=["content"])
NameSort = Annotated[str, Query(description="name (default), newest or oldest.")]


@router.get("/protected/organizations", response_model=Listed[OrganizationPublic])
def list_organizations(user: StaffUser, s: SessionDep, paged: Paged, sort: NameSort = "name") -> dict[str, Any]:
    """Organizations, searched (name, industry) and paginated in SQL (content:read); one page with paging fields."""
    return organizations.list_organizations(s, actor=user, sort=sort, **paged).as_json()


writes(
    router,
    "/protected/organizations",
    "organization_id",
    noun="Organization",
    public=OrganizationPublic,
    perm=Perm.content_write,
    things="organizations",
    create=Write(organizations.create_organization, "Create an organization (content:write).", OrganizationCreate),
    update=Write(
        organizations.update_organization, "Change an organization (partial; content:write).", OrganizationUpdate
    ),
    delete=Write(organizations.delete_organization, "Delete an organization (content:write)."),
)
writes(
    router,
    "/protected/projects",
    "project_id",
    noun="Project",
    public=ProjectPublic,
    perm=Perm.content_write,
    things="projects",
    create=Write(projects.create_project, "Create a project for a client (content:write).", ProjectCreate),
    delete=Write(projects.delete_project, "Delete a project (content:write)."),
)


@router.put(
    "/protected/projects/{project_id}/milestones",
    response_model=Saved[ProjectPublic],
    dependencies=[permitted(Perm.content_write, doing="update projects")],
)
def set_milestones(project_id: RowId, user: StaffUser, s: SessionDep, body: MilestonesSave) -> dict[str, Any]:
    """Replace a project's milestones, in order (content:write)."""
    data = projects.set_milestones(s, actor=user, project_id=project_id, milestones=body.milestones)
    return {"data": data, "message": "Project updated successfully"}


@router.get("/protected/projects/{project_id}/time-entries", response_model=TimeEntriesPage)
def list_time_entries(
    project_id: RowId, user: StaffUser, s: SessionDep, page: PageNo = 1, page_size: PageSize = 10
) -> TimeEntriesPage:
    """A project's time entries, newest day first, with its actual and estimated hours (content:read)."""
    return time_entries.list_time_entries(s, actor=user, project_id=project_id, page=page, page_size=page_size)


def _project_member(doing: str) -> Any:
    """The gate of time writes, run before the body is read: the project's manager or content:write (as the service)."""

    def gate(request: Request, user: StaffUser, s: SessionDep) -> None:
        # The raw path text (the route declares and validates it): an id no row can have is "not a member" (403),
        # not a 422 that tells outsiders about ids.
        raw = str(request.path_params.get("project_id", ""))
        row = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0
        time_entries.member_project(s, user, row, doing)

    return Depends(gate)


@router.post(
    "/protected/projects/{project_id}/time-entries",
    status_code=201,
    response_model=Saved[TimeEntryPublic],
    dependencies=[_project_member("log time on projects")],
)
def log_time(project_id: RowId, user: StaffUser, s: SessionDep, body: TimeEntryCreate) -> dict[str, Any]:
    """Log hours worked on an open project, at most 24 a day per person; its actual hours grow by them. A team member
    logs their own; the project's manager or content:write also a team member's (`user_id`)."""
    return {"data": time_entries.log_time(s, actor=user, project_id=project_id, data=body), "message": "Time logged"}


@router.delete(
    "/protected/projects/{project_id}/time-entries/{entry_id}",
    response_model=Done,
    dependencies=[_project_member("delete time entries")],
)
def delete_time_entry(project_id: RowId, entry_id: RowId, user: StaffUser, s: SessionDep) -> dict[str, str]:
    """Delete a time entry of an open project: its author (the project's manager or content:write) or an admin."""
    time_entries.delete_time_entry(s, actor=user, project_id=project_id, entry_id=entry_id)
    return {"message": "Time entry deleted"}


@router.put("/protected/projects/{project_id}/team", response_model=Saved[list[ProjectTeamMember]])
def set_team(project_id: RowId, user: StaffUser, s: SessionDep, body: TeamSave) -> dict[str, Any]:
    """Replace the project's members, who log their own hours on it (its manager or content:write); staff only."""
    team = time_entries.set_team(s, actor=user, project_id=project_id, members=body.members)
    return {"data": team, "message": "Team saved"}

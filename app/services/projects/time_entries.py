"""Time on projects: staff log the hours they worked (a day, hours, a note); the project's actual_hours is their sum.

Staff who read projects (content:read) see the entries and the project's team. Its members (staff the project's
manager or content:write put on it) log their own hours; its manager and staff who write projects (content:write)
log their own and any team member's, and choose the team (issue 26). An entry is deleted by its worker or whoever
typed it in (while they may still log on the project), by the project's manager, or by an admin.
One person logs at most 24 hours a day across all their entries, and nobody logs or deletes time on a completed or
cancelled project until staff reopen it: the client sees the total beside the estimate, and it must stay believable.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

import sqlalchemy as sa
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.db import get_by_id, valid_id
from app.core.errors import Conflict, Forbidden, Invalid, NotFound
from app.core.permissions import STAFF_ROLES, Perm, Role
from app.models.base import utcnow
from app.models.enums import PROJECT_FINAL_STATUSES
from app.models.project import TIME_NOTE_MAX, Project, ProjectMember, ProjectTimeEntry
from app.models.user import User
from app.services.platform import access, audit, company
from app.services.platform import validation as v
from app.services.platform.paging import Listing, Page
from app.services.platform.schema import AList, Input, RawText, Text, parse, problem, required
from app.services.platform.validation import date_problem

ENTRY_HOURS_MAX = Decimal(24)
DAY_HOURS_MAX = Decimal(24)  # one person's hours on one day, summed over all their entries on every project
CENT = Decimal("0.01")
ENTRIES_PAGE_SIZE = 10
ENTRY_SORTS = {"newest": (col(ProjectTimeEntry.work_date).desc(), col(ProjectTimeEntry.id).desc())}


def business_today() -> date:
    """Today where the company works (its business time zone, set in Settings): a later day is the future."""
    return datetime.now(company.zone()).date()


def _hours(value: Any) -> Decimal | None:
    if value is None:
        raise problem("Hours are required")
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ValueError("Must be a number")
    try:
        hours = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        raise problem("Hours must be a number, e.g. 1.5") from None
    if not hours.is_finite():
        raise problem("Hours must be a number, e.g. 1.5")
    if hours <= 0:
        raise problem("Hours must be more than 0")
    if hours > ENTRY_HOURS_MAX:
        raise problem("Hours cannot be more than 24 in one entry")
    if hours != hours.quantize(CENT):
        raise problem("Hours can have at most two decimals (e.g. 1.25)")
    return hours.quantize(CENT)


def _work_date(value: Any) -> date | None:
    if value is None:
        raise problem("Date is required")
    if not isinstance(value, str | date):
        raise ValueError("Must be a date")
    try:
        day = value if isinstance(value, date) else date.fromisoformat(value.strip()[:10])
    except ValueError:
        raise problem("Date must be a date (YYYY-MM-DD)") from None
    if day > business_today():
        raise problem("Date cannot be in the future")
    if trouble := date_problem(day, "Date"):
        raise problem(trouble)
    return day


class TimeEntryCreate(Input):
    """One entry: the day worked (not in the future), the hours (more than 0, at most 24, in hundredths) and a note."""

    model_config = ConfigDict(json_schema_extra=required("work_date", "hours"))

    work_date: Annotated[date | None, BeforeValidator(_work_date)] = Field(
        None, validate_default=True, description="The day worked, YYYY-MM-DD; not after today."
    )
    hours: Annotated[Decimal | None, BeforeValidator(_hours)] = Field(
        None, validate_default=True, description="Hours worked: more than 0, at most 24, at most two decimals."
    )
    note: Annotated[str | None, Text("Note", TIME_NOTE_MAX)] = None
    user_id: RawText = Field(
        None, description="Whose hours: a team member's user id (the project's manager or content:write); you if empty."
    )


class TimeEntryPublic(BaseModel):
    id: int
    project_id: int
    work_date: str
    hours: float
    note: str | None
    user_id: str | None
    author: str  # the author's name, or "Former staff member" once their account is gone
    created_at: str
    can_delete: bool  # whether the caller may delete it (their own entry, or they are an admin)


class ProjectTeamMember(BaseModel):
    user_id: str
    name: str
    manager: bool  # the project's manager (always on its team), not a member row


class TimeEntriesPage(BaseModel):
    """A page of a project's entries, newest day first, with the project's totals."""

    data: list[TimeEntryPublic]
    total: int
    page: int
    page_size: int
    pages: int
    project_name: str
    actual_hours: float
    estimated_hours: int | None
    can_log: bool  # whether the caller may log time on the project now
    can_log_for_others: bool  # whether the caller may log a team member's hours and choose the team
    closed: str | None  # why nobody may log or delete time on it (completed or cancelled), else null
    team: list[ProjectTeamMember]  # the manager and the members, by name: whose hours may be logged here


def hours_number(value: Decimal | int | None) -> int | float:
    """Hours for JSON: 128 rather than 128.00, 1.5 rather than "1.50"."""
    amount = Decimal(value or 0)
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def _author_name() -> Any:
    full = func.trim(func.coalesce(User.first_name, "") + " " + func.coalesce(User.last_name, ""))
    return func.coalesce(func.nullif(full, ""), User.username)


def manages(actor: User, project: Project) -> bool:
    """Whether the actor logs anyone's time on the project and chooses its team: staff who write projects, or the
    project's manager (staff only, as an account turned client keeps no say in a project)."""
    if access.staff_can(actor, Perm.content_write):
        return True
    return actor.role in STAFF_ROLES and project.manager_id is not None and project.manager_id == actor.id


def _member(s: Session, user_id: Any, project_id: int | None) -> bool:
    return s.get(ProjectMember, (project_id, user_id)) is not None


def may_log(s: Session, actor: User, project: Project) -> bool:
    """Whether the actor may log time on the project: those who manage it, and its members (staff)."""
    return manages(actor, project) or (actor.role in STAFF_ROLES and _member(s, actor.id, project.id))


def closed(project: Project) -> str | None:
    """Why no time may be logged on the project now (it is over: completed or cancelled), or None while it is open."""
    if project.status in PROJECT_FINAL_STATUSES:
        return f"Time cannot be logged on a {project.status} project: reopen it first"
    return None


def _may_delete(s: Session, actor: User, entry: ProjectTimeEntry, project: Project) -> bool:
    """An admin, the project's manager (they answer for its hours), or the entry's worker or whoever typed it in,
    while they may still log on the project."""
    if actor.role == Role.admin or (actor.role in STAFF_ROLES and project.manager_id == actor.id):
        return True
    return actor.id in (entry.user_id, entry.logged_by_id) and may_log(s, actor, project)


def team(s: Session, project: Project) -> list[ProjectTeamMember]:
    """The project's manager and members (staff accounts only), manager first, then by name."""
    ids = set(s.exec(select(ProjectMember.user_id).where(ProjectMember.project_id == project.id)).all())
    if project.manager_id is not None:
        ids.add(project.manager_id)
    if not ids:
        return []
    people = s.exec(select(User).where(col(User.id).in_(ids), col(User.role).in_(STAFF_ROLES))).all()
    people = sorted(people, key=lambda u: (u.id != project.manager_id, _name(u).lower()))
    return [ProjectTeamMember(user_id=str(u.id), name=_name(u), manager=u.id == project.manager_id) for u in people]


def _dto(s: Session, entry: ProjectTimeEntry, author: str | None, actor: User, project: Project) -> TimeEntryPublic:
    return TimeEntryPublic(
        id=entry.id or 0,
        project_id=entry.project_id,
        work_date=entry.work_date.isoformat(),
        hours=hours_number(entry.hours),
        note=entry.note,
        user_id=str(entry.user_id) if entry.user_id else None,
        author=author or "Former staff member",
        created_at=entry.created_at.isoformat(),
        can_delete=closed(project) is None and _may_delete(s, actor, entry, project),
    )


def _project(s: Session, project_id: int) -> Project:
    project = get_by_id(s, Project, project_id)
    if project is None:
        raise NotFound("Project not found")
    return project


def member_project(s: Session, actor: User, project_id: int, doing: str) -> Project | None:
    """The project (None if missing) when the actor may log time on it; Forbidden "You don't have permission to
    <doing>" for anyone else, whether or not it exists."""
    project = get_by_id(s, Project, project_id)
    if project is None or not may_log(s, actor, project):
        access.require(actor, Perm.content_write, doing)  # raises for all but content:write, who then learn "missing"
    return project


def managed_project(s: Session, actor: User, project_id: int, doing: str) -> Project | None:
    """The project (None if missing) when the actor manages it; Forbidden "You don't have permission to <doing>" for
    anyone else, whether or not it exists (member_project's rule for the team's manager)."""
    project = get_by_id(s, Project, project_id)
    if project is None or not manages(actor, project):
        access.require(actor, Perm.content_write, doing)
    return project


def _locked_project(s: Session, project_id: int) -> Project:
    """The project, its row held until commit and re-read: a parallel status change waits for this entry (or this
    entry sees the new status), and the status judged is the one in force."""
    query = select(Project).where(col(Project.id) == project_id).with_for_update()
    project = s.exec(query.execution_options(populate_existing=True)).first() if valid_id(project_id) else None
    if project is None:
        raise NotFound("Project not found")
    return project


def _check_day(s: Session, worker: User, day: date, hours: Decimal, *, own: bool) -> None:
    """At most DAY_HOURS_MAX hours of the worker's on one day, all projects together. The worker's row is locked
    first: two entries of theirs logged at once (on one project or two, by them or their manager) queue here, and the
    second counts the first's hours (SQLite has one writer, so there the second waits or fails instead)."""
    s.exec(select(User.id).where(col(User.id) == worker.id).with_for_update()).first()
    logged = s.exec(
        select(func.coalesce(func.sum(ProjectTimeEntry.hours), 0)).where(
            ProjectTimeEntry.user_id == worker.id, ProjectTimeEntry.work_date == day
        )
    ).one()
    logged = Decimal(str(logged))
    if logged + hours > DAY_HOURS_MAX:
        who = "you have" if own else f"{_name(worker)} has"
        message = (
            f"At most 24 hours a day: {who} already logged {hours_number(logged)} h on {day:%B %-d, %Y}"
            if logged
            else "At most 24 hours a day"
        )
        raise Invalid(message, {"hours": message})


def list_time_entries(
    s: Session, *, actor: User, project_id: int, page: int = 1, page_size: int = ENTRIES_PAGE_SIZE
) -> TimeEntriesPage:
    """A page of the project's time entries, newest day first, with its actual and estimated hours (content:read)."""
    access.require(actor, Perm.content_read, "view time entries")
    project = _project(s, project_id)
    query = (
        select(ProjectTimeEntry, _author_name())
        .join(User, col(User.id) == ProjectTimeEntry.user_id, isouter=True)
        .where(ProjectTimeEntry.project_id == project_id)
    )
    entries = Listing(lambda row: _dto(s, row[0], row[1], actor, project), ENTRY_SORTS)
    result: Page[TimeEntryPublic] = entries.page(s, query, page=page, page_size=page_size)
    return TimeEntriesPage(
        **result.as_json(),
        project_name=project.name,
        actual_hours=hours_number(project.actual_hours),
        estimated_hours=project.estimated_hours,
        can_log=closed(project) is None and may_log(s, actor, project),
        can_log_for_others=closed(project) is None and manages(actor, project),
        closed=closed(project),
        team=team(s, project),
    )


def _add_hours(s: Session, project: Project, hours: Decimal) -> None:
    # One UPDATE adding to the stored value: two entries logged at once each add theirs (the row lock serialises the
    # additions; no read-modify-write to lose), in the same transaction as the entry, so the total moves with it.
    s.execute(
        sa.update(Project)
        .where(col(Project.id) == project.id)
        .values(actual_hours=Project.actual_hours + hours, updated_at=utcnow())
    )
    s.refresh(project)


def _worker(s: Session, actor: User, project: Project, user_id: str | None) -> User:
    """Whose hours an entry logs: the actor's, or (for those who manage the project) a team member's."""
    if not user_id or user_id == str(actor.id):
        return actor
    if not manages(actor, project):
        raise Forbidden("You can only log your own time on this project")
    chosen = next((m for m in team(s, project) if m.user_id == user_id), None)
    worker = s.get(User, uuid.UUID(chosen.user_id)) if chosen else None
    if worker is None:
        message = "Choose a member of the project's team"
        raise Invalid(message, {"user_id": message})
    return worker


def log_time(s: Session, *, actor: User, project_id: int, data: TimeEntryCreate | Mapping[str, Any]) -> TimeEntryPublic:
    """Log hours on a project for a day: a team member their own, its manager (or content:write) anyone's on its
    team, while the project is open and the worker's day stays within 24 hours; the project's actual hours grow."""
    project = member_project(s, actor, project_id, "log time on projects")
    if project is None:
        raise NotFound("Project not found")
    entry_in = parse(TimeEntryCreate, data)
    if entry_in.work_date is None or entry_in.hours is None:  # the schema refuses both already
        raise Invalid("Date and hours are required")
    worker = _worker(s, actor, project, entry_in.user_id)
    # The worker's row first, then the project's: one order for every writer.
    _check_day(s, worker, entry_in.work_date, entry_in.hours, own=worker.id == actor.id)
    project = _locked_project(s, project_id)
    # The manager or the team may have changed while we waited.
    if not may_log(s, actor, project) or (worker.id != actor.id and not manages(actor, project)):
        raise Forbidden("You don't have permission to log time on projects")
    if reason := closed(project):
        raise Conflict(reason)
    entry = ProjectTimeEntry(
        project_id=project_id,
        user_id=worker.id,
        logged_by_id=actor.id if worker.id != actor.id else None,
        work_date=entry_in.work_date,
        hours=entry_in.hours,
        note=entry_in.note,
    )
    s.add(entry)
    s.flush()
    _add_hours(s, project, entry.hours)
    audit.record(
        s,
        actor=actor,
        action="project.time_logged",
        entity=project,
        details={
            "entry": entry.id,
            "hours": str(entry.hours),
            "work_date": entry.work_date.isoformat(),
            "for": str(worker.id),
        },
    )
    s.commit()
    return _dto(s, entry, _name(worker), actor, project)


def delete_time_entry(s: Session, *, actor: User, project_id: int, entry_id: int) -> None:
    """Delete a time entry (its author, while they may log on the project, or an admin) of an open project; the
    project's actual hours shrink by it."""
    if member_project(s, actor, project_id, "delete time entries") is None:
        raise NotFound("Time entry not found")
    # Locked before the entry is read: two deletes of one entry queue here, and the second finds it gone (else both
    # would take its hours off the total).
    project = _locked_project(s, project_id)
    query = select(ProjectTimeEntry).where(col(ProjectTimeEntry.id) == entry_id)
    entry = s.exec(query.execution_options(populate_existing=True)).first() if valid_id(entry_id) else None
    if entry is None or entry.project_id != project_id:
        raise NotFound("Time entry not found")
    if not _may_delete(s, actor, entry, project):
        raise Forbidden("You can only delete your own time entries")
    if project.status in PROJECT_FINAL_STATUSES:  # the client's figures of a finished project stay as they were
        raise Conflict(f"Time entries of a {project.status} project cannot be deleted: reopen it first")
    audit.record(
        s,
        actor=actor,
        action="project.time_deleted",
        entity=project,
        details={"entry": entry.id, "hours": str(entry.hours), "work_date": entry.work_date.isoformat()},
    )
    hours = entry.hours
    s.delete(entry)
    s.flush()
    _add_hours(s, project, -hours)
    s.commit()


class TeamSave(Input):
    members: Annotated[list[str], AList] = Field(
        default_factory=list, description="The staff members' user ids; replaces the team (the manager stays on it)."
    )


def set_team(s: Session, *, actor: User, project_id: int, members: Sequence[str]) -> list[ProjectTeamMember]:
    """Replace the project's members (its manager or content:write): staff accounts only. Their entries stay when
    they leave the team; they just log no more."""
    project = _locked_project(s, project_id)
    if not manages(actor, project):
        access.require(actor, Perm.content_write, "choose a project's team")
    errors: dict[str, str] = {}
    chosen = {}
    for i, raw in enumerate(parse(TeamSave, {"members": list(members)}).members):
        person = v.staff_member(s, raw, errors, f"members.{i}")
        if person is not None:
            chosen[person.id] = person
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    current = s.exec(select(ProjectMember).where(ProjectMember.project_id == project.id)).all()
    for row in current:
        if row.user_id not in chosen:
            s.delete(row)
    kept = {row.user_id for row in current}
    s.add_all(ProjectMember(project_id=project_id, user_id=uid) for uid in chosen if uid not in kept)
    names = sorted(_name(p) for p in chosen.values())
    audit.record(s, actor=actor, action="project.team", entity=project, details={"members": names})
    s.commit()
    return team(s, project)


def _name(user: User) -> str:
    return " ".join(p for p in (user.first_name, user.last_name) if p) or user.username

"""Time on projects: staff log the hours they worked (a day, hours, a note); the project's actual_hours is their sum.

Staff who read projects (content:read) see the entries; staff who write projects (content:write) log them; an entry is
deleted by its author or an admin (with content:write too). The client sees only the total, beside the estimate.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

import sqlalchemy as sa
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.db import get_by_id
from app.core.errors import Forbidden, Invalid, NotFound
from app.core.permissions import Perm, Role
from app.models.base import utcnow
from app.models.project import TIME_NOTE_MAX, Project, ProjectTimeEntry
from app.models.user import User
from app.services import access, audit, company
from app.services.paging import Listing, Page
from app.services.schema import Input, Text, parse, problem, required
from app.services.validation import date_problem

ENTRY_HOURS_MAX = Decimal(24)
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


def hours_number(value: Decimal | int | None) -> int | float:
    """Hours for JSON: 128 rather than 128.00, 1.5 rather than "1.50"."""
    amount = Decimal(value or 0)
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def _author_name() -> Any:
    full = func.trim(func.coalesce(User.first_name, "") + " " + func.coalesce(User.last_name, ""))
    return func.coalesce(func.nullif(full, ""), User.username)


def _may_delete(actor: User, entry: ProjectTimeEntry) -> bool:
    return access.staff_can(actor, Perm.content_write) and (actor.role == Role.admin or entry.user_id == actor.id)


def _dto(entry: ProjectTimeEntry, author: str | None, actor: User) -> TimeEntryPublic:
    return TimeEntryPublic(
        id=entry.id or 0,
        project_id=entry.project_id,
        work_date=entry.work_date.isoformat(),
        hours=hours_number(entry.hours),
        note=entry.note,
        user_id=str(entry.user_id) if entry.user_id else None,
        author=author or "Former staff member",
        created_at=entry.created_at.isoformat(),
        can_delete=_may_delete(actor, entry),
    )


def _project(s: Session, project_id: int) -> Project:
    project = get_by_id(s, Project, project_id)
    if project is None:
        raise NotFound("Project not found")
    return project


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
    entries = Listing(lambda row: _dto(row[0], row[1], actor), ENTRY_SORTS)
    result: Page[TimeEntryPublic] = entries.page(s, query, page=page, page_size=page_size)
    return TimeEntriesPage(
        **result.as_json(),
        project_name=project.name,
        actual_hours=hours_number(project.actual_hours),
        estimated_hours=project.estimated_hours,
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


def log_time(s: Session, *, actor: User, project_id: int, data: TimeEntryCreate | Mapping[str, Any]) -> TimeEntryPublic:
    """Log the actor's hours on a project for a day (content:write); the project's actual hours grow by them."""
    access.require(actor, Perm.content_write, "log time on projects")
    entry_in = parse(TimeEntryCreate, data)
    project = _project(s, project_id)
    if entry_in.work_date is None or entry_in.hours is None:  # the schema refuses both already
        raise Invalid("Date and hours are required")
    entry = ProjectTimeEntry(
        project_id=project_id,
        user_id=actor.id,
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
        details={"entry": entry.id, "hours": str(entry.hours), "work_date": entry.work_date.isoformat()},
    )
    s.commit()
    return _dto(entry, _name(actor), actor)


def delete_time_entry(s: Session, *, actor: User, project_id: int, entry_id: int) -> None:
    """Delete a time entry (its author or an admin, with content:write); the project's actual hours shrink by it."""
    access.require(actor, Perm.content_write, "delete time entries")
    entry = get_by_id(s, ProjectTimeEntry, entry_id)
    if entry is None or entry.project_id != project_id:
        raise NotFound("Time entry not found")
    if not _may_delete(actor, entry):
        raise Forbidden("You can only delete your own time entries")
    project = _project(s, project_id)
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


def _name(user: User) -> str:
    return " ".join(p for p in (user.first_name, user.last_name) if p) or user.username

"""Meetings managed by staff: a paged, searched and filtered list, scheduling for a client, edits, completion; and the
meeting types of the booking view."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Annotated, Any, Unpack

from pydantic import AfterValidator, Field
from sqlalchemy import String, cast, func, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.core.db import MAX_ID, get_by_id
from app.core.errors import Conflict, Invalid, NotFound
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.enums import MeetingStatus
from app.models.meeting import Meeting, MeetingType
from app.models.project import Project
from app.models.user import User
from app.services.platform import audit, letters, mail
from app.services.platform import validation as v
from app.services.platform.access import require
from app.services.platform.paging import Listing, Page, View, of_client, one_of
from app.services.platform.schema import Flag, Form, Input, Moment, RawText, Text, Whole, parse, problem
from app.services.scheduling import booking_invite, booking_settings
from app.services.scheduling.meetings import MeetingPublic, StaffMeeting, meeting_dto, staff_meeting

MEETING_SORTS_DEFAULT = {"upcoming": "soonest", "past": "latest", "all": "latest"}
_client = aliased(User, name="client")
_organizer = aliased(User, name="organizer")


def _full_name(u: Any) -> Any:
    """'First Last' in SQL (either part may be missing), so a search for a whole name finds it."""
    return func.coalesce(u.first_name, "") + " " + func.coalesce(u.last_name, "")


MEETING_SORTS = {
    "soonest": (col(Meeting.start_time), col(Meeting.id)),
    "latest": (col(Meeting.start_time).desc(), col(Meeting.id).desc()),
    "title": (func.lower(Meeting.title), col(Meeting.start_time), col(Meeting.id)),
    # Meetings without a client last; a client without a name sorts by username, as the table shows them.
    "client": (
        col(Meeting.client_id).is_(None),
        func.lower(func.coalesce(func.nullif(func.trim(_full_name(_client)), ""), _client.username)),
        col(Meeting.start_time),
        col(Meeting.id),
    ),
}
# Title, the client (name, username, e-mail), the attendees' addresses and the organizer (name, username).
MEETING_SEARCH = (
    Meeting.title,
    _full_name(_client),
    _client.username,
    _client.email,
    cast(Meeting.attendees, String),
    _full_name(_organizer),
    _organizer.username,
)


def _meeting(m: Meeting) -> Meeting:
    return m


MEETINGS = Listing(_meeting, MEETING_SORTS, MEETING_SEARCH)


def list_all(
    s: Session,
    *,
    actor: User,
    when: str = "upcoming",
    status: str = "",
    client_id: str = "",
    **view: Unpack[View],
) -> Page[StaffMeeting]:
    """A page of meetings (meetings:read), searched, filtered by upcoming/past, status and client, and sorted in SQL,
    each with its client's and organizer's names and what the caller may do with it (`StaffMeeting`'s flags).

    Upcoming meetings come soonest first, past and all latest first, unless `sort` names another of MEETING_SORTS.
    """
    require(actor, Perm.meetings_read, "view meetings")
    query = (
        select(Meeting)
        .outerjoin(_client, col(Meeting.client_id) == _client.id)
        .outerjoin(_organizer, col(Meeting.organizer_id) == _organizer.id)
    )
    now = utcnow()
    when = when if when in MEETING_SORTS_DEFAULT else "all"
    if when == "upcoming":
        query = query.where(col(Meeting.end_time) >= now)
    elif when == "past":
        query = query.where(col(Meeting.end_time) < now)
    query = one_of(query, Meeting.status, status, MeetingStatus)
    query = of_client(query, Meeting.client_id, client_id)
    if view.get("sort") not in MEETING_SORTS:
        view["sort"] = MEETING_SORTS_DEFAULT[when]
    found = MEETINGS.page(s, query, **view)
    names = _names(s, {i for m in found.data for i in (m.client_id, m.organizer_id) if i})
    return found.with_data([staff_meeting(actor, m, now, names) for m in found.data])


def agenda(s: Session, *, actor: User, start: datetime, end: datetime, limit: int = 20) -> list[StaffMeeting]:
    """The meetings held or booked (scheduled or unconfirmed) that start in [start, end), soonest first, at most
    `limit` (meetings:read): the dashboard's today and tomorrow."""
    require(actor, Perm.meetings_read, "view meetings")
    held = (MeetingStatus.scheduled, MeetingStatus.unconfirmed)
    found = s.exec(
        select(Meeting)
        .where(col(Meeting.status).in_(held), col(Meeting.start_time) >= start, col(Meeting.start_time) < end)
        .order_by(col(Meeting.start_time), col(Meeting.id))
        .limit(limit)
    ).all()
    names = _names(s, {i for m in found for i in (m.client_id, m.organizer_id) if i})
    now = utcnow()
    return [staff_meeting(actor, m, now, names) for m in found]


def _names(s: Session, ids: set[uuid.UUID]) -> dict[uuid.UUID | None, str]:
    """Display names of the users of one page: 'First Last', or the username."""
    if not ids:
        return {}
    users = s.exec(select(User).where(col(User.id).in_(ids))).all()
    return {u.id: " ".join(p for p in (u.first_name, u.last_name) if p) or u.username for u in users}


class MeetingUpdate(Form):
    """The fields sent change; blank text and null mean "not sent". A new start keeps the meeting's length unless a
    duration is sent; the client and the project are looked up by the service."""

    client_id: RawText = Field(None, description="The client's user id (a UUID).")
    title: Annotated[str | None, Text("Title", 200, required=True)] = None
    description: Annotated[str | None, Text("Description", 5000)] = None
    meeting_type: Annotated[str | None, Text("Meeting type", 100)] = None
    meeting_url: booking_settings.JoinLink = None
    start_time: Annotated[datetime | None, Moment("Start time")] = None
    duration_minutes: Annotated[int | None, Whole("Duration", 5, 600)] = None
    project_id: Annotated[int | None, Whole("Project", 1, MAX_ID, refusal="Project not found")] = None


class MeetingCreate(MeetingUpdate):
    """A new meeting: a client, a title and a start are needed (30 minutes unless a duration is sent). The schema's
    refusals come first; the client and the project are looked up once the values themselves are right."""

    title: Annotated[str | None, Text("Title", 200, required=True)] = Field(None, validate_default=True)
    start_time: Annotated[datetime | None, Moment("Start time", required=True)] = Field(None, validate_default=True)


def _values(s: Session, body: MeetingUpdate, meeting: Meeting | None) -> dict[str, Any]:
    """The sent fields as columns, with what the schema cannot say: that the client and the project exist, that a
    new meeting has a start, and the end its start and length give."""
    data = body.sent()
    errors: dict[str, str] = {}
    out: dict[str, Any] = {k: data[k] for k in ("title", "description", "meeting_type", "meeting_url") if k in data}
    if (meeting is None or "client_id" in data) and (client := v.client(s, data.get("client_id"), errors)):
        out["client_id"], out["attendees"] = client.id, [client.email]
    start = data.get("start_time", meeting.start_time if meeting else None)
    if start is None:
        errors["start_time"] = "Start time is required"
    current = int((meeting.end_time - meeting.start_time).total_seconds() // 60) if meeting else 30
    if start is not None:
        out["start_time"] = start
        out["end_time"] = start + timedelta(minutes=data.get("duration_minutes", current))
    if "project_id" in data:
        project = get_by_id(s, Project, data["project_id"])
        if project is None:
            errors["project_id"] = "Project not found"
        out["project_id"] = project.id if project else None
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    return out


def _tell_client(s: Session, meeting: Meeting, *, moved: bool) -> None:
    client = s.get(User, meeting.client_id) if meeting.client_id else None
    if client is None:
        return
    letter = letters.render(
        s,
        "meeting_for_client",
        moved=moved,
        name=client.first_name or client.username,
        title=meeting.title,
        when=booking_invite.local_time(meeting.start_time),  # the business zone, named: the client's is unknown
        meeting_url=meeting.meeting_url,
    )
    mail.enqueue(s, to=client.email, letter=letter, public=False)


def create_meeting(s: Session, *, actor: User, data: MeetingCreate | Mapping[str, Any]) -> MeetingPublic:
    """Schedule a meeting with a client, who is told by e-mail (meetings:write)."""
    require(actor, Perm.meetings_write, "schedule meetings")
    meeting = Meeting(organizer_id=actor.id, **_values(s, parse(MeetingCreate, data), None))
    s.add(meeting)
    s.flush()
    _tell_client(s, meeting, moved=False)
    audit.record(s, actor=actor, action="meeting.create", entity=meeting)
    s.commit()
    return meeting_dto(meeting)


def update_meeting(
    s: Session, *, actor: User, meeting_id: int, data: MeetingUpdate | Mapping[str, Any]
) -> MeetingPublic:
    """Change a scheduled meeting; a new time is e-mailed to the client."""
    require(actor, Perm.meetings_write, "update meetings")
    meeting = get_by_id(s, Meeting, meeting_id)
    if meeting is None:
        raise NotFound("Meeting not found")
    if meeting.status != MeetingStatus.scheduled:
        raise Invalid("Only scheduled meetings can be changed.")
    before = meeting.start_time
    for key, value in _values(s, parse(MeetingUpdate, data), meeting).items():
        setattr(meeting, key, value)
    if meeting.start_time != before and meeting.manage_token_hash is not None:
        # Booked in-app: an updated invitation (same UID, next SEQUENCE) moves it in both calendars. The booker's
        # manage links stay valid; only their hashes are stored, so the update cannot repeat one.
        meeting.sequence += 1
        kind = s.get(MeetingType, meeting.meeting_type_id) if meeting.meeting_type_id else None
        booking_invite.send(s, meeting, kind, method="REQUEST", public=False, previous=before)
    elif meeting.start_time != before:
        _tell_client(s, meeting, moved=True)
    s.add(meeting)
    try:
        s.flush()
    except IntegrityError:  # the database refuses two overlapping bookings of one organizer
        s.rollback()
        raise Conflict("That time overlaps another booking of the organizer.") from None
    audit.record(s, actor=actor, action="meeting.update", entity=meeting)
    s.commit()
    return meeting_dto(meeting)


def complete_meeting(s: Session, *, actor: User, meeting_id: int) -> MeetingPublic:
    """Mark a scheduled meeting that has started as completed."""
    require(actor, Perm.meetings_write, "update meetings")
    meeting = get_by_id(s, Meeting, meeting_id)
    if meeting is None:
        raise NotFound("Meeting not found")
    if meeting.status != MeetingStatus.scheduled or meeting.start_time > utcnow():
        raise Invalid("Only scheduled meetings that have started can be marked completed.")
    meeting.status = MeetingStatus.completed
    s.add(meeting)
    audit.record(s, actor=actor, action="meeting.complete", entity=meeting)
    s.commit()
    return meeting_dto(meeting)


BULK_MAX = 200
ONLY_HOLDS = "Only bookings waiting for confirmation can be cancelled together."


def cancel_unconfirmed(s: Session, *, actor: User, meeting_ids: list[int]) -> int:
    """Cancel many unconfirmed holds at once (meetings:write): their slots are free again and their links show them
    cancelled. Nothing is mailed (no calendar holds them yet; the bookers were only asked to confirm). All or none: one
    id that is not an open hold refuses the lot. How many were cancelled; commits."""
    require(actor, Perm.meetings_write, "cancel meetings")
    ids = sorted({int(i) for i in meeting_ids if isinstance(i, int) and 0 < i <= MAX_ID})
    if not ids or len(ids) != len(set(meeting_ids)):
        raise Invalid("Choose the bookings to cancel.")
    if len(ids) > BULK_MAX:
        raise Invalid(f"At most {BULK_MAX} bookings can be cancelled at once.")
    now = utcnow()
    # One conditional UPDATE is the lock and the check at once (row locks on PostgreSQL, the write lock on SQLite):
    # a hold confirmed or cancelled meanwhile no longer matches, and the count then refuses the lot.
    done = s.exec(
        update(Meeting)
        .where(col(Meeting.id).in_(ids), col(Meeting.status) == MeetingStatus.unconfirmed)
        .values(
            status=MeetingStatus.cancelled,
            confirm_token_hash=None,
            cancel_reason="Cancelled by staff: not confirmed",
            cancelled_at=now,
            cancelled_by="staff",
            updated_at=now,
        )
    )
    if done.rowcount != len(ids):
        s.rollback()
        raise Conflict(ONLY_HOLDS)
    for meeting in s.exec(select(Meeting).where(col(Meeting.id).in_(ids))).all():
        audit.record(s, actor=actor, action="meeting.cancel", entity=meeting, details={"reason": meeting.cancel_reason})
    s.commit()
    return len(ids)


# --- meeting types (the booking view's source without a scheduling service) -----------------------------------------


_TYPE_FIELDS = {"id", "slug", "name", "duration_minutes", "host_name", "description", "scheduling_url", "is_active"}


class MeetingTypeRow(booking_settings.BookingSettings):
    """A meeting type as staff list and edit it: what the booking view shows and its booking rules."""

    id: int
    slug: str
    name: str
    duration_minutes: int
    host_name: str | None
    description: str | None
    scheduling_url: str | None
    is_active: bool


def meeting_type_dto(t: MeetingType) -> MeetingTypeRow:
    return MeetingTypeRow(**t.model_dump(include=_TYPE_FIELDS), **booking_settings.settings_dto(t).model_dump())


TYPE_SORTS = {
    "order": (col(MeetingType.sort_order), col(MeetingType.id)),
    "name": (func.lower(MeetingType.name), col(MeetingType.id)),
}


TYPES = Listing(meeting_type_dto, TYPE_SORTS, (MeetingType.name, MeetingType.host_name))


def list_types(
    s: Session,
    *,
    actor: User,
    active: bool | None = None,
    **view: Unpack[View],
) -> Page[MeetingTypeRow]:
    """A page of meeting types in booking-view order (meetings:read), searched by name or host; `active` filters."""
    require(actor, Perm.meetings_read, "view meetings")
    query = select(MeetingType)
    if active is not None:
        query = query.where(col(MeetingType.is_active).is_(active))
    return TYPES.page(s, query, **view)


def _booking_link(value: str | None) -> str | None:
    if value and not value.startswith(("https://", "http://", "/")):
        raise problem("The booking link must be a web address")
    return value


class MeetingTypeSave(Input):
    """A meeting type and its booking rules: the fields sent change (blank text is "not sent"; null clears an
    optional field). A new type needs a name; its slug comes from the name."""

    name: Annotated[str | None, Text("Name", 200, required=True)] = None
    duration_minutes: Annotated[int | None, Whole("Duration", 5, 600)] = None
    host_name: Annotated[str | None, Text("Host", 200)] = None
    description: Annotated[str | None, Text("Description", 2000)] = None
    scheduling_url: Annotated[str | None, Text("Booking link", 500), AfterValidator(_booking_link)] = None
    is_active: Flag = False
    organizer_id: booking_settings.Organizer = None
    availability: booking_settings.Availability = Field(default_factory=dict)
    dates_off: booking_settings.DatesOff = Field(default_factory=list)
    buffer_before_minutes: booking_settings.BufferBefore = None
    buffer_after_minutes: booking_settings.BufferAfter = None
    min_notice_minutes: booking_settings.MinNotice = None
    horizon_days: booking_settings.Horizon = None
    join_url: booking_settings.JoinLink = None


class MeetingTypeCreate(MeetingTypeSave):
    name: Annotated[str | None, Text("Name", 200, required=True)] = Field(None, validate_default=True)


def save_type(
    s: Session, *, actor: User, data: MeetingTypeSave | Mapping[str, Any], type_id: int | None = None
) -> MeetingTypeRow:
    """Create or change a meeting type (meetings:write)."""
    require(actor, Perm.meetings_write, "manage meetings")
    # None creates; any other id must name a row (0 used to create a nameless type, skipping the name check).
    row = get_by_id(s, MeetingType, type_id) if type_id is not None else MeetingType(slug="", name="")
    if row is None:
        raise NotFound("Meeting type not found")
    values = parse(MeetingTypeSave if type_id is not None else MeetingTypeCreate, data).sent()
    if "name" in values:
        row.name = values["name"]
        if type_id is None:
            row.slug = re.sub(r"[^a-z0-9]+", "-", row.name.lower()).strip("-")[:90] or "meeting"
    if "duration_minutes" in values:
        row.duration_minutes = values["duration_minutes"] or 30
    for field in ("host_name", "description", "scheduling_url"):
        if field in values:
            setattr(row, field, values[field])
    if "is_active" in values:
        row.is_active = values["is_active"]
    if errors := booking_settings.apply(s, row, values):
        raise Invalid(next(iter(errors.values())), errors=errors)
    if type_id is None and s.exec(select(MeetingType.id).where(MeetingType.slug == row.slug)).first():
        row.slug = f"{row.slug}-{uuid.uuid4().hex[:6]}"
    s.add(row)
    s.flush()
    audit.record(s, actor=actor, action="meeting_type.save", entity=row)
    s.commit()
    return meeting_type_dto(row)

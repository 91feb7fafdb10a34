"""Meetings as the portal shows them and the client's cancellation (bookings reported by Calendly: calendly.py)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field
from sqlmodel import Session, col, select

from app.core.errors import Forbidden, Invalid
from app.core.permissions import Perm
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from app.services.platform import access, audit, client_cancellations
from app.services.platform.actions import Action
from app.services.platform.schema import Body, RawText
from app.services.scheduling import booking_invite, calendly


class MeetingPublic(BaseModel):
    id: int
    title: str
    description: str | None
    meeting_type: str | None
    status: str
    scheduled_at: str
    end_time: str
    duration_minutes: int
    join_url: str | None
    location: str | None
    calendly_event_id: str | None
    reschedule_url: str | None
    cancel_reason: str | None
    client_id: str | None


class MeetingRow(MeetingPublic):
    """A row of the staff list: the meeting and the names of its client and organizer."""

    client_name: str | None
    organizer_name: str | None


class ClientMeeting(MeetingPublic):
    """A meeting of the portal's lists, with what the caller may do with it (ADR 0065)."""

    can_cancel: Action  # cancel_meeting would accept it from the caller
    can_reschedule: Action  # booked through Calendly, scheduled and not started: its reschedule_url moves it
    can_move: (
        Action  # the client's own booking by a meeting type, scheduled and not started (booking.client_reschedule)
    )
    can_join: Action  # scheduled, with a join link (a cancelled or unconfirmed meeting's link is not offered)


class StaffMeeting(MeetingRow):
    """A row of the staff list, with what the calling staff member may do with it (ADR 0065)."""

    can_edit: Action  # scheduled, and the caller writes meetings (update_meeting)
    can_cancel: Action  # scheduled or unconfirmed and not started, and the caller writes meetings (cancel_meeting)
    can_complete: Action  # scheduled and started, and the caller writes meetings (complete_meeting)


@dataclass(frozen=True)
class ClientMeetings:
    """The portal's meetings: upcoming (soonest first) and past (latest first)."""

    upcoming: list[ClientMeeting]
    past: list[ClientMeeting]


class MeetingLists(BaseModel):
    """The portal's meetings: upcoming (soonest first) and past, and both in `data` (the spec's shape)."""

    data: list[MeetingPublic]
    upcoming: list[MeetingPublic]
    past: list[MeetingPublic]


class MeetingCancel(Body):
    """Why the meeting is cancelled (optional: "Cancelled by client" when none is given)."""

    reason: RawText = Field(None, description="At most 500 characters are kept.")


def _fields(m: Meeting) -> dict[str, Any]:
    event_uuid = (m.calendly_event_id or "").rstrip("/").rsplit("/", 1)[-1]
    return {
        "id": m.id,
        "title": m.title,
        "description": m.description,
        "meeting_type": m.meeting_type,
        "status": str(m.status),
        "scheduled_at": m.start_time.isoformat(),
        "end_time": m.end_time.isoformat(),
        "duration_minutes": max(0, int((m.end_time - m.start_time).total_seconds() // 60)),
        "join_url": m.meeting_url,
        "location": m.location,
        "calendly_event_id": m.calendly_event_id,
        # Built from the last path segment of the scheduling service's event id, as the spec says.
        "reschedule_url": calendly.RESCHEDULE_URL.format(uuid=event_uuid) if event_uuid else None,
        "cancel_reason": m.cancel_reason,
        "client_id": str(m.client_id) if m.client_id else None,
    }


def meeting_dto(m: Meeting) -> MeetingPublic:
    return MeetingPublic(**_fields(m))


def may_cancel(actor: User, m: Meeting, now: datetime) -> bool:
    """What cancel_meeting accepts: the client's own meeting or any for staff who write meetings, scheduled or an
    unconfirmed hold, not started yet."""
    mine = m.client_id == actor.id or access.staff_can(actor, Perm.meetings_write)
    return mine and m.status in (MeetingStatus.scheduled, MeetingStatus.unconfirmed) and m.start_time > now


def client_meeting(actor: User, m: Meeting, now: datetime) -> ClientMeeting:
    scheduled = m.status == MeetingStatus.scheduled
    return ClientMeeting(
        **_fields(m),
        can_cancel=may_cancel(actor, m, now),
        can_reschedule=scheduled and bool(m.calendly_event_id) and m.start_time > now,
        can_move=scheduled
        and m.client_id == actor.id
        and actor.role == Role.client
        and m.meeting_type_id is not None
        and m.manage_token_hash is not None
        and m.start_time > now,
        can_join=scheduled and bool(m.meeting_url),
    )


def staff_meeting(actor: User, m: Meeting, now: datetime, names: dict[uuid.UUID | None, str]) -> StaffMeeting:
    """The staff list's row: the meeting, its client's and organizer's names, and the caller's flags."""
    writes = access.staff_can(actor, Perm.meetings_write)
    scheduled = m.status == MeetingStatus.scheduled
    return StaffMeeting(
        **_fields(m),
        client_name=names.get(m.client_id),
        organizer_name=names.get(m.organizer_id),
        can_edit=writes and scheduled,
        can_cancel=writes and may_cancel(actor, m, now),
        can_complete=writes and scheduled and m.start_time <= now,
    )


def list_meetings(s: Session, *, actor: User) -> ClientMeetings:
    """Upcoming (soonest first) and past (latest first) meetings of the client, or all for staff who read them."""
    query = select(Meeting)
    if not access.sees_all(actor, "meeting"):
        query = query.where(Meeting.client_id == actor.id)
    now = utcnow()
    meetings = s.exec(query.order_by(col(Meeting.start_time))).all()
    # Unconfirmed holds are never a client's (staff who see all find them upcoming, as they are).
    live = (MeetingStatus.scheduled, MeetingStatus.unconfirmed)
    upcoming = [m for m in meetings if m.end_time >= now and m.status in live]
    past = [m for m in reversed(meetings) if m not in upcoming]
    return ClientMeetings(
        upcoming=[client_meeting(actor, m, now) for m in upcoming], past=[client_meeting(actor, m, now) for m in past]
    )


def cancel_meeting(s: Session, *, actor: User, meeting_id: int, reason: str | None = None) -> MeetingPublic:
    """Cancel a scheduled, future meeting of the client's (or any, for staff who manage meetings)."""
    meeting = access.get_visible(s, Meeting, meeting_id, actor, "meeting", label="Meeting")
    if meeting.client_id != actor.id and not access.staff_can(actor, "meetings:write"):
        raise Forbidden("You don't have permission to cancel this meeting")
    if meeting.status == MeetingStatus.cancelled:
        raise Invalid("This meeting is already cancelled.")
    if meeting.status == MeetingStatus.completed or meeting.start_time <= utcnow():
        raise Invalid("Past or completed meetings cannot be cancelled.")
    confirmed = meeting.status == MeetingStatus.scheduled  # an unconfirmed hold is in nobody's calendar yet
    meeting.status = MeetingStatus.cancelled
    meeting.cancel_reason = ((reason or "").strip() or "Cancelled by client")[:500]
    meeting.cancelled_at = utcnow()
    meeting.cancelled_by = "booker" if meeting.client_id == actor.id else "staff"
    if meeting.manage_token_hash is not None:  # booked in-app: the calendars on both sides drop the event
        meeting.confirm_token_hash = None  # its manage links stay: they show it cancelled
        meeting.sequence += 1
        kind = s.get(MeetingType, meeting.meeting_type_id) if meeting.meeting_type_id else None
        if confirmed:
            booking_invite.send(
                s, meeting, kind, method="CANCEL", public=actor.role == Role.client, cancelled_by=meeting.cancelled_by
            )
    s.add(meeting)
    details = {"reason": meeting.cancel_reason, "name": meeting.title}
    audit.record(s, actor=actor, action="meeting.cancel", entity=meeting, details=details)
    if client_cancellations.by_client(actor):  # the organizer (or STAFF_NOTIFY_EMAIL) hears of it; Calendly too
        client_cancellations.notify_staff(
            s,
            actor=actor,
            kind="meeting",
            name=meeting.title,
            when=booking_invite.local_time(meeting.start_time),  # the business zone, which the staff read in
            reason=meeting.cancel_reason,
            owner_id=meeting.organizer_id,
            calendly=calendly.cancel_event(meeting.calendly_event_id, meeting.cancel_reason),
        )
    s.commit()
    return meeting_dto(meeting)

"""Meetings as the portal shows them, the client's cancellation, and bookings reported by the scheduling service."""

from __future__ import annotations

import hashlib
import hmac
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from pydantic import BaseModel, Field
from sqlmodel import Session, col, select

from app.core.errors import Forbidden, Invalid, Unauthorized
from app.core.permissions import Perm
from app.core.security import token_digest
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from app.services.platform import access, audit, client_cancellations
from app.services.platform.actions import Action
from app.services.platform.schema import Body, RawText
from app.services.scheduling import booking_invite

CALENDLY_RESCHEDULE_URL = "https://calendly.com/reschedulings/{uuid}"
SIGNATURE_TOLERANCE_S = 300


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
        "reschedule_url": CALENDLY_RESCHEDULE_URL.format(uuid=event_uuid) if event_uuid else None,
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
    if meeting.manage_token_hash is not None:  # booked in-app: the calendars on both sides drop the event
        meeting.manage_token_hash = meeting.confirm_token_hash = None
        meeting.sequence += 1
        kind = s.get(MeetingType, meeting.meeting_type_id) if meeting.meeting_type_id else None
        if confirmed:
            booking_invite.send(s, meeting, kind, method="CANCEL", public=actor.role == Role.client)
    s.add(meeting)
    details = {"reason": meeting.cancel_reason, "name": meeting.title}
    audit.record(s, actor=actor, action="meeting.cancel", entity=meeting, details=details)
    if client_cancellations.by_client(actor):  # the organizer (or STAFF_NOTIFY_EMAIL) hears of it; Calendly too
        client_cancellations.notify_staff(
            s,
            actor=actor,
            kind="meeting",
            name=meeting.title,
            when=meeting.start_time.strftime("%Y-%m-%d %H:%M UTC"),
            reason=meeting.cancel_reason,
            owner_id=meeting.organizer_id,
            calendly=client_cancellations.cancel_at_calendly(meeting.calendly_event_id, meeting.cancel_reason),
        )
    s.commit()
    return meeting_dto(meeting)


# --- scheduling-service webhooks (Calendly) -------------------------------------------------------------------------


def verify_signature(header: str, body: bytes, secret: str, *, now: float | None = None) -> None:
    """Check Calendly's `t=...,v1=...` HMAC-SHA256 signature over "{t}.{body}", within five minutes."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    timestamp, signature = parts.get("t", ""), parts.get("v1", "")
    if not timestamp.isdigit() or not signature:
        raise Unauthorized("Invalid webhook signature")
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        raise Unauthorized("Invalid webhook signature")
    if abs((now or time.time()) - int(timestamp)) > SIGNATURE_TOLERANCE_S:
        raise Unauthorized("Webhook signature has expired")


def _when(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def calendly_tag(user_id: uuid.UUID) -> str:
    """What the portal adds to a scheduling-service link (as `utm_content`, which the service reports back in the
    webhook's `tracking`): the signed-in client's id and a keyed digest of it, which nobody else can make."""
    return f"{user_id}.{token_digest(f'calendly-booker:{user_id}')[:32]}"


def calendly_link(url: str, client_id: uuid.UUID) -> str:
    """A scheduling-service booking link that tells the webhook which signed-in client booked."""
    return f"{url}{'&' if '?' in url else '?'}{urlencode({'utm_content': calendly_tag(client_id)})}"


def _tagged_client(s: Session, payload: dict[str, Any]) -> User | None:
    """The client whose portal link the booking came through (a valid tag), else None."""
    tag = str((payload.get("tracking") or {}).get("utm_content") or "")
    try:
        user_id = uuid.UUID(tag.partition(".")[0])
    except ValueError:
        return None
    if not hmac.compare_digest(calendly_tag(user_id), tag):
        return None
    user = s.get(User, user_id)
    return user if user is not None and user.role == Role.client else None


def apply_webhook(s: Session, event: dict[str, Any]) -> str:
    """Record a booking, cancellation or reschedule reported by the scheduling service; returns what happened.

    A booking is in a client's portal only when it came through that client's own tagged link (`calendly_link`):
    anyone can type a client's e-mail on the service's public page, so the address proves nothing. Other bookings are
    recorded for staff, in no portal, and staff can link them to a client.
    """
    kind, payload = event.get("event"), event.get("payload") or {}
    scheduled = payload.get("scheduled_event") or {}
    event_id = scheduled.get("uri")
    email = str(payload.get("email") or "").strip().lower()
    if kind not in ("invitee.created", "invitee.canceled") or not event_id or not email:
        return "ignored"
    meeting = s.exec(select(Meeting).where(Meeting.calendly_event_id == event_id)).first()
    if kind == "invitee.canceled":
        if meeting is None or meeting.status == MeetingStatus.cancelled:
            return "ignored"
        meeting.status = MeetingStatus.cancelled
        # A reschedule arrives as a cancellation of the old event followed by the new booking.
        rescheduled = bool(payload.get("rescheduled"))
        meeting.cancel_reason = (
            "Rescheduled" if rescheduled else ((payload.get("cancellation") or {}).get("reason") or "Cancelled")
        )
        s.add(meeting)
        s.commit()
        return "rescheduled" if rescheduled else "cancelled"
    if meeting is None:
        client = _tagged_client(s, payload)
        title = scheduled.get("name") or "Meeting"
        meeting = Meeting(title=title, calendly_event_id=event_id, client_id=client.id if client else None)
    meeting.start_time, meeting.end_time = _when(scheduled["start_time"]), _when(scheduled["end_time"])
    location = scheduled.get("location") or {}
    meeting.meeting_url = location.get("join_url") or meeting.meeting_url
    meeting.location = location.get("location") or meeting.location
    meeting.meeting_type = scheduled.get("name") or meeting.meeting_type
    meeting.attendees = [email]
    meeting.status = MeetingStatus.scheduled
    s.add(meeting)
    s.commit()
    return "booked"

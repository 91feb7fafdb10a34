"""Meetings with clients, and the meeting types offered in the booking view."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import event
from sqlmodel import Field, SQLModel

from app.models.base import Stamped, created_at, enum_field, string_list, text, timestamp, utcnow
from app.models.enums import MeetingStatus

# The rows that hold a slot. An expired hold keeps holding here until it is released (cancelled, link cleared), which
# the booking service does under the calendar lock before it checks a slot, and the background job every pass.
BOOKED = "status IN ('scheduled', 'unconfirmed') AND manage_token_hash IS NOT NULL"


class Meeting(Stamped, table=True):
    """A meeting with a client: scheduled by staff, reported by Calendly, or booked in-app (the booking fields).

    No double booking: on PostgreSQL the migration adds an exclusion constraint (`ex_meetings_no_double_booking`) so
    two bookings of one organizer (scheduled, or unconfirmed holds) can never overlap, whatever the application does;
    alembic cannot render or compare exclusion constraints, so it lives in the migration only. The partial unique
    index below is the part SQLite can enforce too (one booking per organizer and start time).
    """

    __tablename__ = "meetings"
    __table_args__ = (
        sa.Index(
            "uq_meetings_booking_slot",
            "organizer_id",
            "start_time",
            unique=True,
            postgresql_where=sa.text(BOOKED),
            sqlite_where=sa.text(BOOKED),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    title: str = Field(max_length=200)
    description: str | None = text()
    meeting_type: str | None = Field(default=None, max_length=100)
    start_time: datetime = timestamp(nullable=False, index=True)
    end_time: datetime = timestamp(nullable=False)
    location: str | None = Field(default=None, max_length=255)
    meeting_url: str | None = Field(default=None, max_length=500)  # the portal's join_url
    attendees: list[str] = string_list()  # e-mail addresses
    organizer_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    # The spec scopes meetings by attendee; an explicit client makes "own meetings" one indexed query.
    client_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL", index=True)
    project_id: int | None = Field(default=None, foreign_key="projects.id", ondelete="SET NULL")
    status: MeetingStatus = enum_field(MeetingStatus, MeetingStatus.scheduled, index=True)
    calendly_event_id: str | None = Field(default=None, max_length=255, unique=True)
    cancel_reason: str | None = Field(default=None, max_length=500)
    # What a cancelled booking's manage link says: when, and by whom ("booker", "staff", or "expired": a hold not
    # confirmed in time; none for older rows and Calendly's).
    cancelled_at: datetime | None = timestamp(nullable=True)
    cancelled_by: str | None = Field(default=None, max_length=20)
    # In-app bookings: the type booked, who booked it, the newest manage link's keyed hash (it also marks the booking as
    # in-app; the links mailed before it are in `booking_links`), and the iCalendar SEQUENCE.
    meeting_type_id: int | None = Field(default=None, foreign_key="meeting_types.id", ondelete="SET NULL")
    booker_name: str | None = Field(default=None, max_length=200)
    booker_email: str | None = Field(default=None, max_length=254)
    booker_company: str | None = Field(default=None, max_length=200)
    booker_notes: str | None = text()
    manage_token_hash: str | None = Field(default=None, max_length=64, unique=True)
    sequence: int = 0
    # An unconfirmed booking: until when it holds its slot, the mailed confirmation link's keyed hash, and a keyed hash
    # of the booker's address (an IPv6 one by its /64), which caps the open holds per address.
    hold_expires_at: datetime | None = timestamp(nullable=True)
    confirm_token_hash: str | None = Field(default=None, max_length=64, unique=True)
    booker_address_hash: str | None = Field(default=None, max_length=64)
    # Reminders (app.services.scheduling.meeting_reminders): the start time each reminder was sent, or skipped, for; a
    # new time gets reminders of its own.
    reminded_24h_for: datetime | None = timestamp(nullable=True)
    reminded_1h_for: datetime | None = timestamp(nullable=True)


# How long before a meeting its reminders go out (app.services.scheduling.meeting_reminders).
REMIND_DAY, REMIND_HOUR = timedelta(hours=24), timedelta(hours=1)


def _skip_passed(m: Meeting, start: datetime | None) -> None:
    """Mark the reminders whose moment has already passed for `start` as sent: the mail about that time said it all."""
    if start is None:
        return
    ahead = (start if start.tzinfo else start.replace(tzinfo=UTC)) - utcnow()
    if ahead <= REMIND_DAY:
        m.reminded_24h_for = start
    if ahead <= REMIND_HOUR:
        m.reminded_1h_for = start


# A meeting given a time, wherever it is done (staff, a booking, the portal, Calendly): a new one when it is stored
# (its constructor sets the reminder columns after the start), a stored one when its start changes.
@event.listens_for(Meeting, "before_insert")
def _stored(_mapper: object, _connection: object, target: Meeting) -> None:
    _skip_passed(target, target.start_time)


@event.listens_for(Meeting.start_time, "set", active_history=True)
def _moved(target: Meeting, value: datetime | None, oldvalue: object, _initiator: object) -> None:
    if value != oldvalue:
        _skip_passed(target, value)


class MeetingType(Stamped, table=True):
    """Bookable meeting types: the booking view's source when no scheduling service is configured."""

    __tablename__ = "meeting_types"

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(max_length=100, unique=True)  # the booking button's id
    name: str = Field(max_length=200)
    duration_minutes: int = 30
    host_name: str | None = Field(default=None, max_length=200)  # profile.name
    description: str | None = text()
    scheduling_url: str | None = Field(default=None, max_length=500)
    is_active: bool = True
    sort_order: int = 0
    # In-app booking: who hosts, when (weekly hours in the business time zone, dates off), and the rules around it.
    organizer_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    # {"0": [["09:00", "17:00"]], ...}: weekday (0 = Monday) to opening windows, in BUSINESS_TIMEZONE.
    availability: dict[str, list[list[str]]] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    dates_off: list[str] = string_list()  # ISO dates (business time zone) with no bookings
    buffer_before_minutes: int = 0
    buffer_after_minutes: int = 0
    min_notice_minutes: int = 120
    horizon_days: int = 30
    # Empty: the invite says the organizer sends the link. A URL, where "{room}" becomes a random room name.
    join_url: str | None = Field(default=None, max_length=500)


class BookingLink(SQLModel, table=True):
    """A manage link mailed to a booking's booker before its newest one (`Meeting.manage_token_hash`), by its keyed
    hash: every link ever mailed keeps opening the booking as it is now (ADR 0089). A hold's link, shown only to whoever
    submitted the form, is not kept when the booking is confirmed."""

    __tablename__ = "booking_links"

    token_hash: str = Field(max_length=64, primary_key=True)
    meeting_id: int = Field(foreign_key="meetings.id", ondelete="CASCADE", index=True)
    created_at: datetime = created_at()  # when it stopped being the newest link

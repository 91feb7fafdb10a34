"""Meetings with clients, and the meeting types offered in the booking view."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlmodel import Field, SQLModel

from app.models.base import created_at, enum_field, string_list, text, timestamp, updated_at
from app.models.enums import MeetingStatus


class Meeting(SQLModel, table=True):
    __tablename__ = "meetings"

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
    created_at: datetime = created_at()
    updated_at: datetime = updated_at()


class MeetingType(SQLModel, table=True):
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
    created_at: datetime = created_at()
    updated_at: datetime = updated_at()

"""Organizations, client projects, their milestones and the time staff log on them."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import Stamped, created_at, enum_field, money, text
from app.models.enums import MilestoneStatus, OrganizationSize, ProjectStatus, ProjectType


class Organization(Stamped, table=True):
    __tablename__ = "organizations"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    description: str | None = text()
    website: str | None = Field(default=None, max_length=500)
    industry: str | None = Field(default=None, max_length=100)
    size: OrganizationSize | None = enum_field(OrganizationSize, None, nullable=True)
    primary_contact_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")


HOURS_TOTAL = sa.Numeric(8, 2)
ENTRY_HOURS = sa.Numeric(4, 2)
TIME_NOTE_MAX = 500


class Project(Stamped, table=True):
    __tablename__ = "projects"
    __table_args__ = (sa.CheckConstraint("progress_percentage BETWEEN 0 AND 100", name="progress_range"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    description: str | None = text()
    client_id: uuid.UUID = Field(foreign_key="users.id", ondelete="RESTRICT", index=True)
    organization_id: int | None = Field(default=None, foreign_key="organizations.id", ondelete="SET NULL")
    # The staff member who answers for the project: told when the client cancels it (else STAFF_NOTIFY_EMAIL).
    manager_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL", index=True)
    status: ProjectStatus = enum_field(ProjectStatus, ProjectStatus.planning, index=True)
    project_type: ProjectType = enum_field(ProjectType, ProjectType.web_development)
    budget: Decimal | None = money(None, nullable=True)
    start_date: date | None = None
    end_date: date | None = None
    deadline: date | None = None
    progress_percentage: int = 0
    estimated_hours: int | None = None
    # The hours logged in time entries (plus any recorded before time tracking existed); never set by the project form.
    actual_hours: Decimal = Field(default=Decimal("0.00"), sa_type=HOURS_TOTAL, nullable=False)


class ProjectMember(SQLModel, table=True):
    """A staff member who works on a project: they log their own hours on it (its manager logs anyone's)."""

    __tablename__ = "project_members"

    project_id: int = Field(foreign_key="projects.id", ondelete="CASCADE", primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True, index=True)
    created_at: datetime = created_at()


class ProjectMilestone(Stamped, table=True):
    __tablename__ = "project_milestones"

    id: int | None = Field(default=None, primary_key=True)
    project_id: int = Field(foreign_key="projects.id", ondelete="CASCADE", index=True)
    title: str = Field(max_length=200)
    description: str | None = text()
    due_date: date | None = None
    status: MilestoneStatus = enum_field(MilestoneStatus, MilestoneStatus.pending)
    order_index: int = 0


class ProjectTimeEntry(SQLModel, table=True):
    """Hours a staff member worked on a project on one day; their sum is the project's actual_hours."""

    __tablename__ = "project_time_entries"
    __table_args__ = (sa.CheckConstraint("hours > 0 AND hours <= 24", name="hours_range"),)

    id: int | None = Field(default=None, primary_key=True)
    project_id: int = Field(foreign_key="projects.id", ondelete="CASCADE", index=True)
    # Who logged it; null once their account is deleted (the hours stay: the client's figures must not change).
    user_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL", index=True)
    # Who typed it in, when not the worker themselves (the project's manager logging a team member's hours).
    logged_by_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    work_date: date
    hours: Decimal = Field(sa_type=ENTRY_HOURS, nullable=False)
    note: str | None = Field(default=None, max_length=TIME_NOTE_MAX)
    created_at: datetime = created_at()


MESSAGE_MAX = 4000


class ProjectMessage(SQLModel, table=True):
    """A message in a project's conversation (issue 28): from its client or the staff on it. An internal note is staff
    only: its client never reads it. Plain text, shown as text (links made clickable at most, never HTML)."""

    __tablename__ = "project_messages"
    __table_args__ = (
        sa.Index("ix_project_messages_project_id_id", "project_id", "id"),
        sa.Index("ix_project_messages_created_at", "created_at"),  # the digest pass reads the last days
    )

    id: int | None = Field(default=None, primary_key=True)
    project_id: int = Field(foreign_key="projects.id", ondelete="CASCADE")
    author_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    body: str = text(nullable=False)
    internal: bool = False
    created_at: datetime = created_at()


class ProjectMessageFile(SQLModel, table=True):
    """A file attached to a project message (issue 28, ADR 0101): kept in the private store under a random key, read
    only by those who may read its message (an internal note's files are staff only, like the note)."""

    __tablename__ = "project_message_files"

    id: int | None = Field(default=None, primary_key=True)
    message_id: int = Field(foreign_key="project_messages.id", ondelete="CASCADE", index=True)
    key: str = Field(max_length=80)  # the store's key, e.g. conversations/3f…9a.pdf
    name: str = Field(max_length=255)  # the uploader's file name, sanitised: the download's name
    content_type: str = Field(max_length=120)
    size: int
    created_at: datetime = created_at()

"""Organizations, client projects and their milestones."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import created_at, enum_field, money, text, updated_at
from app.models.enums import MilestoneStatus, OrganizationSize, ProjectStatus, ProjectType


class Organization(SQLModel, table=True):
    __tablename__ = "organizations"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    description: str | None = text()
    website: str | None = Field(default=None, max_length=500)
    industry: str | None = Field(default=None, max_length=100)
    size: OrganizationSize | None = enum_field(OrganizationSize, None, nullable=True)
    primary_contact_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = created_at()
    updated_at: datetime = updated_at()


class Project(SQLModel, table=True):
    __tablename__ = "projects"
    __table_args__ = (sa.CheckConstraint("progress_percentage BETWEEN 0 AND 100", name="progress_range"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    description: str | None = text()
    client_id: uuid.UUID = Field(foreign_key="users.id", ondelete="RESTRICT", index=True)
    organization_id: int | None = Field(default=None, foreign_key="organizations.id", ondelete="SET NULL")
    status: ProjectStatus = enum_field(ProjectStatus, ProjectStatus.planning, index=True)
    project_type: ProjectType = enum_field(ProjectType, ProjectType.web_development)
    budget: Decimal | None = money(None, nullable=True)
    start_date: date | None = None
    end_date: date | None = None
    deadline: date | None = None
    progress_percentage: int = 0
    estimated_hours: int | None = None
    actual_hours: int = 0  # filled from time tracking, never by the project form
    created_at: datetime = created_at()
    updated_at: datetime = updated_at()


class ProjectMilestone(SQLModel, table=True):
    __tablename__ = "project_milestones"

    id: int | None = Field(default=None, primary_key=True)
    project_id: int = Field(foreign_key="projects.id", ondelete="CASCADE", index=True)
    title: str = Field(max_length=200)
    description: str | None = text()
    due_date: date | None = None
    status: MilestoneStatus = enum_field(MilestoneStatus, MilestoneStatus.pending)
    order_index: int = 0
    created_at: datetime = created_at()
    updated_at: datetime = updated_at()

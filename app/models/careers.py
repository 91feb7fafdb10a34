"""Job openings shown on /careers and the applications sent for them."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Field

from app.models.base import Stamped, enum_field, string_list, text
from app.models.enums import ApplicationStatus


class JobOpening(Stamped, table=True):
    __tablename__ = "job_openings"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=20, unique=True)  # the public id, e.g. JOB-001 (/apply?jobId=JOB-001)
    title: str = Field(max_length=200)
    department: str = Field(max_length=100)
    location: str = Field(max_length=200)
    employment_type: str = Field(default="Full-time", max_length=50)
    salary: str | None = Field(default=None, max_length=100)
    description: str | None = text()
    requirements: list[str] = string_list()
    benefits: list[str] = string_list()
    is_active: bool = True
    sort_order: int = 0


class JobApplication(Stamped, table=True):
    __tablename__ = "job_applications"
    # The list's default order, newest first (a backward scan of this index): a page of 25 reads 25 rows, not all.
    __table_args__ = (sa.Index("ix_job_applications_created_at_id", "created_at", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    # Kept when an opening is removed: an application is never lost.
    job_opening_id: int | None = Field(default=None, foreign_key="job_openings.id", ondelete="SET NULL", index=True)
    job_code: str | None = Field(default=None, max_length=20)
    first_name: str = Field(max_length=100)
    last_name: str = Field(max_length=100)
    email: str = Field(max_length=254)
    phone: str = Field(max_length=30)
    linkedin_url: str | None = Field(default=None, max_length=500)
    # Files live in the private file store (STORAGE_URL: DATA_DIR or a bucket) under random names; only these
    # references are in the database.
    resume_path: str = Field(max_length=255)
    resume_filename: str = Field(max_length=255)
    resume_content_type: str = Field(max_length=100)
    cover_letter_path: str | None = Field(default=None, max_length=255)
    cover_letter_filename: str | None = Field(default=None, max_length=255)
    cover_letter_content_type: str | None = Field(default=None, max_length=100)
    status: ApplicationStatus = enum_field(ApplicationStatus, ApplicationStatus.new, index=True)
    notes: str | None = text()

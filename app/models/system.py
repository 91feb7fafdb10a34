"""Operational tables: the e-mail outbox, the audit log of staff actions, and rate-limit events."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import created_at, enum_field, text, timestamp, updated_at
from app.models.enums import OutboxStatus


class EmailOutbox(SQLModel, table=True):
    """Mail is written here in the same transaction as its cause, then delivered with retries."""

    __tablename__ = "email_outbox"

    id: int | None = Field(default=None, primary_key=True)
    to_address: str = Field(max_length=254)
    subject: str = Field(max_length=255)
    body_text: str = text(nullable=False)
    body_html: str | None = text()
    # [{"filename", "content_type", "content"}]: small text attachments (iCalendar invitations), or with "encoding":
    # "base64" a binary file (an invoice PDF, capped in platform.mail); checked again when built.
    attachments: list[dict[str, str]] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)
    status: OutboxStatus = enum_field(OutboxStatus, OutboxStatus.pending, index=True)
    attempts: int = 0
    last_error: str | None = Field(default=None, max_length=500)
    next_attempt_at: datetime | None = timestamp(index=True)
    sent_at: datetime | None = timestamp()
    created_at: datetime = created_at()
    # The invoice the mail is about (issued, void, reminder, receipt), for the invoice's history (ADR 0079).
    invoice_id: int | None = Field(default=None, foreign_key="invoices.id", ondelete="SET NULL", index=True)


class AuditLog(SQLModel, table=True):
    __tablename__ = "audit_log"
    # A record's history (an invoice's audit trail) is read by its type and id.
    __table_args__ = (sa.Index("ix_audit_log_entity", "entity_type", "entity_id"),)

    id: int | None = Field(default=None, primary_key=True)
    actor_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL", index=True)
    action: str = Field(max_length=100)  # e.g. user.create, inquiry.update
    entity_type: str | None = Field(default=None, max_length=50)
    entity_id: str | None = Field(default=None, max_length=64)
    details: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    ip_address: str | None = Field(default=None, max_length=45)
    created_at: datetime = created_at()


class RateLimitEvent(SQLModel, table=True):
    """One row per limited attempt; shared by every worker because it lives in the database."""

    __tablename__ = "rate_limit_events"
    __table_args__ = (sa.Index("ix_rate_limit_events_key_created_at", "key", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=200)  # e.g. login:ip:1.2.3.4
    created_at: datetime = created_at()


class CompanySettings(SQLModel, table=True):
    """The company's details as staff set them (one row, id 1); without it, the environment's values apply."""

    __tablename__ = "company_settings"
    __table_args__ = (sa.CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(default=1, primary_key=True)
    name: str = Field(max_length=120)
    email: str = Field(max_length=254)
    sales_email: str = Field(max_length=254)
    phone: str = Field(max_length=40)
    address: str = Field(max_length=300)
    linkedin_url: str | None = Field(default=None, max_length=300)
    twitter_url: str | None = Field(default=None, max_length=300)
    github_url: str | None = Field(default=None, max_length=300)
    client_badges: list[str] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)
    business_timezone: str = Field(max_length=64)
    # How to pay by bank transfer (several lines: bank, account, reference), printed on invoices and their mails.
    bank_instructions: str | None = Field(default=None, max_length=1000)
    updated_by: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    updated_at: datetime = updated_at()

"""Contact inquiries from the quote form, and newsletter subscribers."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import Stamped, created_at, enum_field, text, timestamp
from app.models.enums import InquiryPriority, InquiryStatus, SubscriberStatus


class ContactInquiry(Stamped, table=True):
    __tablename__ = "contact_inquiries"
    # The list's default order, newest first (a backward scan of this index): a page of 25 reads 25 rows, not all.
    __table_args__ = (sa.Index("ix_contact_inquiries_created_at_id", "created_at", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    email: str = Field(max_length=254, index=True)
    company: str | None = Field(default=None, max_length=200)
    phone: str | None = Field(default=None, max_length=30)
    service_type: str | None = Field(default=None, max_length=50)
    budget: str | None = Field(default=None, max_length=50)
    message: str = text(nullable=False)
    newsletter: bool = False
    status: InquiryStatus = enum_field(InquiryStatus, InquiryStatus.new, index=True)
    priority: InquiryPriority = enum_field(InquiryPriority, InquiryPriority.medium)
    assigned_to: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    notes: str | None = text()
    # Honeypot hits are stored (nothing accepted is lost) but never shown in the inbox.
    is_spam: bool = Field(default=False, index=True)


class NewsletterSubscriber(SQLModel, table=True):
    __tablename__ = "newsletter_subscribers"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True)
    status: SubscriberStatus = enum_field(SubscriberStatus, SubscriberStatus.pending)
    confirm_token: str | None = Field(default=None, max_length=64, index=True)  # SHA-256 of the e-mailed token
    source: str | None = Field(default=None, max_length=30)  # footer, contact form
    confirmed_at: datetime | None = timestamp()
    created_at: datetime = created_at()

"""What each person has read of the project conversations, and whether they want mail about new messages (issue 28,
ADR 0102)."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from app.models.base import timestamp


class ConversationRead(SQLModel, table=True):
    """How far one person has read one project's conversation, and how far a digest mail has told them of it.

    Message ids only grow, so "unread" is "newer than `last_read_id`" and "not yet mailed" is "newer than
    `notified_through_id`": two integers per person and project, no row per message. No row: nothing read yet."""

    __tablename__ = "conversation_reads"

    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    project_id: int = Field(foreign_key="projects.id", ondelete="CASCADE", primary_key=True, index=True)
    last_read_id: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    notified_through_id: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class MessageMailSetting(SQLModel, table=True):
    """A person's choice about digest mails of new messages (no row: mail me, the default), and the row the digest
    pass locks while it mails them (so two processes never both do), with when it last did."""

    __tablename__ = "message_mail_settings"

    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    mail_new_messages: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})
    digested_at: datetime | None = timestamp()

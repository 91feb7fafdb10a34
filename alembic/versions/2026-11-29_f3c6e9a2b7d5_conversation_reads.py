"""conversation reads

How far each person has read each project's conversation and how far a digest mail has told them of it, and each
person's choice about those mails (issue 28, ADR 0102). Expand-only: new tables.

Revision ID: f3c6e9a2b7d5
Revises: e2b5d8f1a6c4
Create Date: 2026-11-29 07:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "f3c6e9a2b7d5"
down_revision: str | None = "e2b5d8f1a6c4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "conversation_reads",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("last_read_id", sa.Integer(), server_default="0", nullable=False),
        sa.Column("notified_through_id", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_conversation_reads_project_id_projects"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_conversation_reads_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "project_id", name=op.f("pk_conversation_reads")),
    )
    op.create_index(op.f("ix_conversation_reads_project_id"), "conversation_reads", ["project_id"], unique=False)
    op.create_table(
        "message_mail_settings",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("mail_new_messages", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("digested_at", app.models.base.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_message_mail_settings_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_message_mail_settings")),
    )


def downgrade() -> None:
    op.drop_table("message_mail_settings")
    op.drop_index(op.f("ix_conversation_reads_project_id"), table_name="conversation_reads")
    op.drop_table("conversation_reads")

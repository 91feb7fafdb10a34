"""message files

Files attached to project messages (issue 28, ADR 0101): the store's key, the uploader's file name, its type and size.
Expand-only: a new table.

Revision ID: e2b5d8f1a6c4
Revises: d8a1c4e7f203
Create Date: 2026-11-29 06:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "e2b5d8f1a6c4"
down_revision: str | None = "d8a1c4e7f203"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "project_message_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=120), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", app.models.base.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["project_messages.id"],
            name=op.f("fk_project_message_files_message_id_project_messages"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_project_message_files")),
    )
    op.create_index(op.f("ix_project_message_files_message_id"), "project_message_files", ["message_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_project_message_files_message_id"), table_name="project_message_files")
    op.drop_table("project_message_files")

"""project messages

A project's conversation (issue 28): messages from its client and the staff on it, and the staff's internal notes.
Expand-only: a new table.

Revision ID: c3e5a7b90d14
Revises: b7d1f3a92c58
Create Date: 2026-11-29 03:15:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "c3e5a7b90d14"
down_revision: str | None = "b7d1f3a92c58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "project_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Uuid(), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("internal", sa.Boolean(), nullable=False),
        sa.Column("created_at", app.models.base.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("fk_project_messages_author_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_project_messages_project_id_projects"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_project_messages")),
    )
    op.create_index("ix_project_messages_project_id_id", "project_messages", ["project_id", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_project_messages_project_id_id", table_name="project_messages")
    op.drop_table("project_messages")

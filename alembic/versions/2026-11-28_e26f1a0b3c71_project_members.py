"""project members

The staff who work on a project: they log their own hours on it; its manager logs anyone's on its team, and an
entry remembers who typed it in (issue 26).

Revision ID: e26f1a0b3c71
Revises: b7e3a91c4d52
Create Date: 2026-11-28 18:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "e26f1a0b3c71"
down_revision: str | None = "b7e3a91c4d52"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "project_members",
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", app.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_project_members_project_id_projects"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_project_members_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("project_id", "user_id", name=op.f("pk_project_members")),
    )
    with op.batch_alter_table("project_members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_project_members_user_id"), ["user_id"], unique=False)
    with op.batch_alter_table("project_time_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("logged_by_id", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_project_time_entries_logged_by_id_users"),
            "users",
            ["logged_by_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("project_time_entries", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_project_time_entries_logged_by_id_users"), type_="foreignkey")
        batch_op.drop_column("logged_by_id")
    with op.batch_alter_table("project_members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_project_members_user_id"))
    op.drop_table("project_members")

"""project time entries

Staff log hours on projects; `projects.actual_hours` becomes their sum (hours with cents: an entry may be 1.25 h).
Existing values are kept as they are: they were only ever set by the demo seeder, which now logs entries instead.

Revision ID: 934a46f2ad64
Revises: 3b1c9e4d7a20
Create Date: 2026-11-24 19:23:48.567722
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "934a46f2ad64"
down_revision: str | None = "3b1c9e4d7a20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "project_time_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("work_date", sa.Date(), nullable=False),
        sa.Column("hours", sa.Numeric(precision=4, scale=2), nullable=False),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
        sa.Column("created_at", app.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("hours > 0 AND hours <= 24", name=op.f("ck_project_time_entries_hours_range")),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_project_time_entries_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_project_time_entries_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_project_time_entries")),
    )
    with op.batch_alter_table("project_time_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_project_time_entries_project_id"), ["project_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_project_time_entries_user_id"), ["user_id"], unique=False)

    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.alter_column(
            "actual_hours",
            existing_type=sa.INTEGER(),
            type_=sa.Numeric(precision=8, scale=2),
            existing_nullable=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.alter_column(
            "actual_hours",
            existing_type=sa.Numeric(precision=8, scale=2),
            type_=sa.INTEGER(),
            existing_nullable=False,
            postgresql_using="round(actual_hours)::integer",
        )

    with op.batch_alter_table("project_time_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_project_time_entries_user_id"))
        batch_op.drop_index(batch_op.f("ix_project_time_entries_project_id"))

    op.drop_table("project_time_entries")

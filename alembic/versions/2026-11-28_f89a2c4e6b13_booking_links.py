"""booking links

Every manage link mailed for a booking keeps opening it (issue 26): the links mailed before the newest one are kept
by their keyed hash in `booking_links`; a cancelled meeting records when and by whom (`cancelled_at`, `cancelled_by`),
which its links then show (ADR 0089). Meetings cancelled before get `updated_at` as their `cancelled_at`.

Revision ID: f89a2c4e6b13
Revises: d25d6a0c3e81
Create Date: 2026-11-28 21:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "f89a2c4e6b13"
down_revision: str | None = "d25d6a0c3e81"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "booking_links",
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("meeting_id", sa.Integer(), nullable=False),
        sa.Column("created_at", app.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["meeting_id"], ["meetings.id"], name=op.f("fk_booking_links_meeting_id_meetings"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_booking_links")),
    )
    with op.batch_alter_table("booking_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_booking_links_meeting_id"), ["meeting_id"], unique=False)
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cancelled_at", app.models.base.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("cancelled_by", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True))
    op.execute("UPDATE meetings SET cancelled_at = updated_at WHERE status = 'cancelled'")


def downgrade() -> None:
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.drop_column("cancelled_by")
        batch_op.drop_column("cancelled_at")
    with op.batch_alter_table("booking_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_booking_links_meeting_id"))
    op.drop_table("booking_links")

"""in-app booking: meeting type availability, booking fields on meetings, mail attachments, no double booking

Revision ID: 1c6e9f8d4e93
Revises: 7de8e741d25b
Create Date: 2026-11-23 21:29:37.164996
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "1c6e9f8d4e93"
down_revision: str | None = "7de8e741d25b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BOOKED = "status = 'scheduled' AND manage_token_hash IS NOT NULL"
# Two scheduled bookings of one organizer never overlap (meetings without an organizer share the company's calendar).
# PostgreSQL only: btree_gist gives GiST the uuid equality; alembic can neither render nor compare this constraint.
EXCLUSION = (
    "ALTER TABLE meetings ADD CONSTRAINT ex_meetings_no_double_booking EXCLUDE USING gist ("
    "(coalesce(organizer_id, '00000000-0000-0000-0000-000000000000'::uuid)) WITH =, "
    "tstzrange(start_time, end_time, '[)') WITH &&) WHERE (" + BOOKED + ")"
)


def upgrade() -> None:
    # Existing rows get the defaults the models give new ones (server defaults fill them in).
    with op.batch_alter_table("email_outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("attachments", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("meeting_types", schema=None) as batch_op:
        batch_op.add_column(sa.Column("organizer_id", sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column("availability", sa.JSON(), nullable=False, server_default="{}"))
        batch_op.add_column(sa.Column("dates_off", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.add_column(sa.Column("buffer_before_minutes", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("buffer_after_minutes", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("min_notice_minutes", sa.Integer(), nullable=False, server_default="120"))
        batch_op.add_column(sa.Column("horizon_days", sa.Integer(), nullable=False, server_default="30"))
        batch_op.add_column(sa.Column("join_url", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_meeting_types_organizer_id_users"), "users", ["organizer_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("meeting_type_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("booker_name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.add_column(sa.Column("booker_email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=True))
        batch_op.add_column(sa.Column("booker_company", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.add_column(sa.Column("booker_notes", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("manage_token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(sa.Column("sequence", sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_unique_constraint(batch_op.f("uq_meetings_manage_token_hash"), ["manage_token_hash"])
        batch_op.create_foreign_key(
            batch_op.f("fk_meetings_meeting_type_id_meeting_types"),
            "meeting_types",
            ["meeting_type_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.create_index(
        "uq_meetings_booking_slot",
        "meetings",
        ["organizer_id", "start_time"],
        unique=True,
        postgresql_where=sa.text(BOOKED),
        sqlite_where=sa.text(BOOKED),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
        op.execute(EXCLUSION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE meetings DROP CONSTRAINT ex_meetings_no_double_booking")
    op.drop_index("uq_meetings_booking_slot", table_name="meetings")
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_meetings_meeting_type_id_meeting_types"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("uq_meetings_manage_token_hash"), type_="unique")
        for column in (
            "sequence",
            "manage_token_hash",
            "booker_notes",
            "booker_company",
            "booker_email",
            "booker_name",
            "meeting_type_id",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("meeting_types", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_meeting_types_organizer_id_users"), type_="foreignkey")
        for column in (
            "join_url",
            "horizon_days",
            "min_notice_minutes",
            "buffer_after_minutes",
            "buffer_before_minutes",
            "dates_off",
            "availability",
            "organizer_id",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("email_outbox", schema=None) as batch_op:
        batch_op.drop_column("attachments")

"""booking holds: unconfirmed bookings hold a slot until confirmed from the mailed link or expired

A new meeting status (`unconfirmed`), the hold's expiry, the confirmation link's hash and the booker's address hash;
the no-double-booking guards (the partial unique index, and on PostgreSQL the exclusion constraint) now cover holds.

Revision ID: b7e3a91c4d52
Revises: 8c4d2b6e1f37
Create Date: 2026-11-28 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "b7e3a91c4d52"
down_revision: str | None = "e3a7c5d91b42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_BOOKED = "status = 'scheduled' AND manage_token_hash IS NOT NULL"
NEW_BOOKED = "status IN ('scheduled', 'unconfirmed') AND manage_token_hash IS NOT NULL"
OLD_STATUSES = ("scheduled", "completed", "cancelled")
NEW_STATUSES = ("unconfirmed", *OLD_STATUSES)


def _status(values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name="meeting_status", native_enum=False, create_constraint=True, length=32)


def _exclusion(booked: str) -> str:
    return (
        "ALTER TABLE meetings ADD CONSTRAINT ex_meetings_no_double_booking EXCLUDE USING gist ("
        "(coalesce(organizer_id, '00000000-0000-0000-0000-000000000000'::uuid)) WITH =, "
        "tstzrange(start_time, end_time, '[)') WITH &&) WHERE (" + booked + ")"
    )


def _guards(booked: str, statuses: tuple[str, ...], previous: tuple[str, ...]) -> None:
    """Rebuild the status CHECK and the two no-double-booking guards for `booked`."""
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        op.execute("ALTER TABLE meetings DROP CONSTRAINT ex_meetings_no_double_booking")
    op.drop_index("uq_meetings_booking_slot", table_name="meetings")
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.alter_column(
            "status", existing_type=_status(previous), type_=_status(statuses), existing_nullable=False
        )
    op.create_index(
        "uq_meetings_booking_slot",
        "meetings",
        ["organizer_id", "start_time"],
        unique=True,
        postgresql_where=sa.text(booked),
        sqlite_where=sa.text(booked),
    )
    if postgres:
        op.execute(_exclusion(booked))


def upgrade() -> None:
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hold_expires_at", app.models.base.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("confirm_token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("booker_address_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        )
        batch_op.create_unique_constraint(batch_op.f("uq_meetings_confirm_token_hash"), ["confirm_token_hash"])
    _guards(NEW_BOOKED, NEW_STATUSES, OLD_STATUSES)


def downgrade() -> None:
    # Holds cannot be kept in the older schema: they are released as they would have expired.
    op.execute(
        "UPDATE meetings SET status = 'cancelled', manage_token_hash = NULL, "
        "cancel_reason = 'Not confirmed in time' WHERE status = 'unconfirmed'"
    )
    _guards(OLD_BOOKED, OLD_STATUSES, NEW_STATUSES)
    with op.batch_alter_table("meetings", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_meetings_confirm_token_hash"), type_="unique")
        for column in ("booker_address_hash", "confirm_token_hash", "hold_expires_at"):
            batch_op.drop_column(column)

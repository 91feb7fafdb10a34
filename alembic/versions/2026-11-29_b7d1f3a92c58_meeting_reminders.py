"""meeting reminders

Each scheduled meeting is reminded 24 hours and 1 hour before it starts (issue 28, ADR 0099): `reminded_24h_for` and
`reminded_1h_for` hold the start time each reminder was sent, or skipped, for. Meetings already within a reminder's
window when this runs are marked as reminded for it (as a meeting booked inside the window is): nothing is sent late.
Expand-only: nullable columns.

Revision ID: b7d1f3a92c58
Revises: a4c8e2f61d07
Create Date: 2026-11-29 03:00:00.000000
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

import app.models.base

revision: str = "b7d1f3a92c58"
down_revision: str | None = "a4c8e2f61d07"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("reminded_24h_for", "reminded_1h_for")


def upgrade() -> None:
    with op.batch_alter_table("meetings") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, app.models.base.UTCDateTime(), nullable=True))
    # Bound through the column's own type, so SQLite compares its stored text with text of the same form.
    meetings = sa.table(
        "meetings", *(sa.column(name, app.models.base.UTCDateTime()) for name in ("start_time", *COLUMNS))
    )
    now = datetime.now(UTC)
    for name, lead in (("reminded_24h_for", timedelta(hours=24)), ("reminded_1h_for", timedelta(hours=1))):
        op.execute(meetings.update().where(meetings.c.start_time <= now + lead).values({name: meetings.c.start_time}))


def downgrade() -> None:
    with op.batch_alter_table("meetings") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)

"""invoice reminders and bank-transfer instructions

Invoices get their reminder switch (on by default, also for invoices issued before), the count of reminders sent and
the business day of the last one; company settings get the bank-transfer instructions printed on invoices.

Revision ID: b25b1d4e7a90
Revises: e26f1a0b3c71
Create Date: 2026-11-28 19:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "b25b1d4e7a90"
down_revision: str | None = "e26f1a0b3c71"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("invoices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reminders_enabled", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column("reminders_sent", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("last_reminder_on", sa.Date(), nullable=True))
    with op.batch_alter_table("company_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bank_instructions", sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("company_settings", schema=None) as batch_op:
        batch_op.drop_column("bank_instructions")
    with op.batch_alter_table("invoices", schema=None) as batch_op:
        for column in ("last_reminder_on", "reminders_sent", "reminders_enabled"):
            batch_op.drop_column(column)

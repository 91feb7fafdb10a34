"""stripe payments: applied Stripe events, one payment per payment intent, a card payment's excess and refunds

Revision ID: a25a4c1e9b07
Revises: c25c4e7a1b90
Create Date: 2026-11-28 18:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "a25a4c1e9b07"
down_revision: str | None = "c25c4e7a1b90"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "stripe_events",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column("type", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("invoice_id", sa.Integer(), nullable=True),
        sa.Column("processed_at", app.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["invoice_id"], ["invoices.id"], name=op.f("fk_stripe_events_invoice_id_invoices"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stripe_events")),
    )
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("excess_amount", sa.Numeric(10, 2), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("refunded_amount", sa.Numeric(10, 2), nullable=False, server_default="0"))
        batch_op.create_unique_constraint(
            batch_op.f("uq_payments_stripe_payment_intent_id"), ["stripe_payment_intent_id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_payments_stripe_payment_intent_id"), type_="unique")
        batch_op.drop_column("refunded_amount")
        batch_op.drop_column("excess_amount")
    op.drop_table("stripe_events")

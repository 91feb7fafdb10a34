"""orders online: order numbers from a counter, an order's currency and subscription, a payment's Stripe invoice

Orders placed from the portal are numbered ORD-YYYY-NNNN by a per-year counter row (the invoice counter's pattern);
the counters start where existing ORD-YYYY-<digits> numbers end. An order records its currency and, when recurring,
its Stripe subscription and that subscription's status; a subscription's payment records the Stripe invoice it
settled, once (a unique column).

Revision ID: d25d6a0c3e81
Revises: a25a4c1e9b07
Create Date: 2026-11-28 18:45:00.000000
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "d25d6a0c3e81"
down_revision: str | None = "a25a4c1e9b07"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NUMBER = re.compile(r"ORD-(\d{4})-(\d+)")


def upgrade() -> None:
    counters = op.create_table(
        "order_number_counters",
        sa.Column("year", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("last_number", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("year", name=op.f("pk_order_number_counters")),
    )
    # Compared as integers in Python (the same on both engines); numbers of another shape take no part.
    last: dict[int, int] = {}
    for (number,) in op.get_bind().execute(sa.text("SELECT order_number FROM orders")):
        if match := NUMBER.fullmatch(number):
            year, sequence = int(match[1]), int(match[2])
            last[year] = max(last.get(year, 0), sequence)
    if last:
        op.bulk_insert(counters, [{"year": year, "last_number": n} for year, n in sorted(last.items())])
    with op.batch_alter_table("orders", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False, server_default="usd")
        )
        batch_op.add_column(
            sa.Column("stripe_subscription_id", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True)
        )
        batch_op.add_column(
            sa.Column("subscription_status", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True)
        )
        batch_op.create_unique_constraint(batch_op.f("uq_orders_stripe_subscription_id"), ["stripe_subscription_id"])
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stripe_invoice_id", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_payments_stripe_invoice_id"), ["stripe_invoice_id"])


def downgrade() -> None:
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_payments_stripe_invoice_id"), type_="unique")
        batch_op.drop_column("stripe_invoice_id")
    with op.batch_alter_table("orders", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_orders_stripe_subscription_id"), type_="unique")
        batch_op.drop_column("subscription_status")
        batch_op.drop_column("stripe_subscription_id")
        batch_op.drop_column("currency")
    op.drop_table("order_number_counters")

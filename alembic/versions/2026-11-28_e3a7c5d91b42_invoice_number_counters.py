"""invoice number counters

Invoice numbers come from a per-year counter row instead of the text maximum of INV-YYYY-NNNN (which stalls at
INV-YYYY-9999, as "INV-2026-9999" > "INV-2026-10000" as text). The counters start where the existing invoices end.

Revision ID: e3a7c5d91b42
Revises: 8c4d2b6e1f37
Create Date: 2026-11-28 12:00:00.000000
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e3a7c5d91b42"
down_revision: str | None = "8c4d2b6e1f37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NUMBER = re.compile(r"INV-(\d{4})-(\d+)")


def upgrade() -> None:
    counters = op.create_table(
        "invoice_number_counters",
        sa.Column("year", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("last_number", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("year", name=op.f("pk_invoice_number_counters")),
    )
    # Each year continues after its highest existing number, compared as an integer (in Python: the same on both
    # engines); numbers of another shape (INV-TEST-0001, hand-made ones) take no part.
    last: dict[int, int] = {}
    for (number,) in op.get_bind().execute(sa.text("SELECT invoice_number FROM invoices")):
        if match := NUMBER.fullmatch(number):
            year, sequence = int(match[1]), int(match[2])
            last[year] = max(last.get(year, 0), sequence)
    if last:
        op.bulk_insert(counters, [{"year": year, "last_number": n} for year, n in sorted(last.items())])


def downgrade() -> None:
    op.drop_table("invoice_number_counters")

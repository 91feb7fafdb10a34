"""invoice workflow: void invoices, the stored tax rate, mails and audit entries tied to an invoice

A new invoice status (`void`) with its reason, time and staff member (ADR 0078); the tax rate an invoice was priced
with, so a draft can be edited at the rate it has (older invoices get the rate their amounts imply); the outbox row's
invoice (ADR 0079), filled in for mails already queued whose subject names an invoice's number; and an index for
reading one record's audit entries.

Revision ID: c25c4e7a1b90
Revises: b25b1d4e7a90
Create Date: 2026-11-28 18:25:06.835418
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "c25c4e7a1b90"
down_revision: str | None = "b25b1d4e7a90"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_STATUSES = ("draft", "pending", "paid")
NEW_STATUSES = (*OLD_STATUSES, "void")
# An invoice number as a whole word of a subject ("Invoice INV-2026-0042 from ..."): INV-2026-1000 is not a match
# inside INV-2026-10000.
NUMBER = re.compile(r"(?<![\w-])(INV-[\w-]+?)(?![\w-])")


def _status(values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name="invoice_status", native_enum=False, create_constraint=True, length=32)


def upgrade() -> None:
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index("ix_audit_log_entity", ["entity_type", "entity_id"], unique=False)

    with op.batch_alter_table("email_outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invoice_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_email_outbox_invoice_id"), ["invoice_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_email_outbox_invoice_id_invoices"), "invoices", ["invoice_id"], ["id"], ondelete="SET NULL"
        )

    with op.batch_alter_table("invoices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tax_rate", sa.Numeric(precision=5, scale=2), nullable=True))
        batch_op.add_column(sa.Column("void_reason", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.add_column(sa.Column("voided_at", app.models.base.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("voided_by", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_invoices_voided_by_users"), "users", ["voided_by"], ["id"], ondelete="SET NULL"
        )
        batch_op.alter_column(
            "status", existing_type=_status(OLD_STATUSES), type_=_status(NEW_STATUSES), existing_nullable=False
        )
    _backfill()


def _backfill() -> None:
    """Older invoices' rate from their amounts (to the hundredth); queued mails' invoice from their subject."""
    bind = op.get_bind()
    bind.execute(sa.text("UPDATE invoices SET tax_rate = 0 WHERE subtotal = 0"))
    bind.execute(sa.text("UPDATE invoices SET tax_rate = ROUND(tax_amount * 100 / subtotal, 2) WHERE subtotal <> 0"))
    ids = dict(bind.execute(sa.text("SELECT invoice_number, id FROM invoices")).all())
    if not ids:
        return
    for mail_id, subject in bind.execute(sa.text("SELECT id, subject FROM email_outbox")).all():
        found = {ids[n] for n in NUMBER.findall(subject or "") if n in ids}
        if len(found) == 1:  # a subject naming two invoices is about neither alone
            bind.execute(
                sa.text("UPDATE email_outbox SET invoice_id = :i WHERE id = :m"), {"i": found.pop(), "m": mail_id}
            )


def downgrade() -> None:
    # The older schema has no void status: a void invoice goes back to what it was (issued, unpaid), its number kept.
    op.execute("UPDATE invoices SET status = 'pending' WHERE status = 'void'")
    with op.batch_alter_table("invoices", schema=None) as batch_op:
        batch_op.alter_column(
            "status", existing_type=_status(NEW_STATUSES), type_=_status(OLD_STATUSES), existing_nullable=False
        )
        batch_op.drop_constraint(batch_op.f("fk_invoices_voided_by_users"), type_="foreignkey")
        batch_op.drop_column("voided_by")
        batch_op.drop_column("voided_at")
        batch_op.drop_column("void_reason")
        batch_op.drop_column("tax_rate")

    with op.batch_alter_table("email_outbox", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_email_outbox_invoice_id_invoices"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_email_outbox_invoice_id"))
        batch_op.drop_column("invoice_id")

    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_entity")

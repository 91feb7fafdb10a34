"""known sign-in addresses

Revision ID: 3b1c9e4d7a20
Revises: 1c6e9f8d4e93
Create Date: 2026-11-23 22:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "3b1c9e4d7a20"
down_revision: str | None = "1c6e9f8d4e93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "known_sign_in_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("last_seen_at", app.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_known_sign_in_addresses_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_known_sign_in_addresses")),
        sa.UniqueConstraint("user_id", "address", name="uq_known_sign_in_addresses_user_id_address"),
    )
    with op.batch_alter_table("known_sign_in_addresses", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_known_sign_in_addresses_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("known_sign_in_addresses", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_known_sign_in_addresses_user_id"))
    op.drop_table("known_sign_in_addresses")

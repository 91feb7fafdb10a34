"""company settings

The company's details as staff edit them in Settings (one row); without the row the environment's values apply.

Revision ID: 8c4d2b6e1f37
Revises: 5a2f7c31d9e0
Create Date: 2026-11-26 01:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import app.models.base

revision: str = "8c4d2b6e1f37"
down_revision: str | None = "5a2f7c31d9e0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "company_settings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("sales_email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("phone", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("linkedin_url", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
        sa.Column("twitter_url", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
        sa.Column("github_url", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
        sa.Column("client_badges", sa.JSON(), nullable=False),
        sa.Column("business_timezone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("updated_by", sa.Uuid(), nullable=True),
        sa.Column("updated_at", app.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_company_settings_single_row")),
        sa.ForeignKeyConstraint(
            ["updated_by"], ["users.id"], name=op.f("fk_company_settings_updated_by_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_company_settings")),
    )


def downgrade() -> None:
    op.drop_table("company_settings")
